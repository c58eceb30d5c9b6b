/*
 * Copyright (c) 2024 The fibsync authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at:
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

#ifndef OVSDB_SLICE_READER_H
#define OVSDB_SLICE_READER_H 1

/* ovsdb-slice-reader: reads a large table in slices of a sequence column,
 * so that ovsdb-server never builds the reply of the whole table.
 *
 * lib/ovsdb-select-reader.h keeps the reader's memory at one row, but
 * ovsdb-server builds the whole reply of a select before it sends a byte:
 * at a million Asic_Route rows its RSS rose 1.6x while orchd read them at
 * start.  A slice reader instead reads the rows that match a base "where"
 * in slices of an integer column whose value is unique in every row and
 * never negative (Asic_Route.seq, orchd's write counter): a slice
 * [lo, lo + width) is a select of its own, over a connection of its own
 * (a select reader), and holds at most 'width' rows, so ovsdb-server
 * holds at most that many rows of reply per slice in flight.  Each select
 * is a scan of the table in ovsdb-server (it has no index on the column):
 * a narrower slice trades scans for memory.
 *
 * Where the slices go
 * ===================
 *
 * Probes find where the values are without reading a row: one
 * transaction of "wait" operations that time out at once, each a scan of
 * the table with no row in its reply (the first checks that some row has
 * a value at or above 'lo'; the next ones that none lies in [lo, lo +
 * width * 2^k), k = 0, 1, ...; the transaction stops at the first that
 * fails, which tells where the values resume to within a factor of two).
 * A probe from 0 finds where they start (a writer's counter may be in the
 * millions after restarts, and each empty slice below it would be a scan
 * for nothing).  Slices then go on, 'width' at a time; when one comes back
 * empty past the highest value seen, another probe from the next slice's
 * start either skips the gap (a range of rows rewritten since with higher
 * values) or finds no row left, which ends the read.
 *
 * A column whose values all lie in a known range [0, max] (a hash bucket
 * such as Route.bucket, lib/route-key.h) needs no probe and need not be
 * unique: the slices cover [0, max] and the read ends there
 * ('max_value'); a slice then holds about 'width' / (max + 1) of the rows.
 *
 * The caller may also end the bounded slices (say, once it has read as
 * many rows as it expects, as route-check does): one open-ended slice,
 * [lo, infinity), then reads whatever is left.
 *
 * Use: create it, call run() and wait() from the main loop until run()
 * says it is done or failed, then destroy it.  Nothing blocks: the probes
 * and the slices are read as their bytes arrive.
 *
 * A row written while the read goes on may be missed (or read twice, if
 * its value moves from one slice to another): the read is meant for a
 * table that only its reader writes, or whose reader tolerates that.
 *
 * Thread safety: none; a reader belongs to one thread. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/ovsdb-select-reader.h"

struct json;

/* How a reader that wants its scan and the server's compose to overlap
 * reads (orchd's Asic_Route, fpmsyncd's Route at start): two slices in
 * flight, each received up to 64 MB ahead of the scan, so that
 * ovsdb-server composes the next slice's reply while the caller scans the
 * last (a slice of 200,000 rows is about 40 MB of reply).  The server then
 * holds at most two slices' replies. */
#define OVSDB_SLICE_READER_OVERLAP_IN_FLIGHT 2
#define OVSDB_SLICE_READER_OVERLAP_READ_AHEAD (64 * 1024 * 1024)

/* What a slice reader reads, and how. */
struct ovsdb_slice_reader_spec {
    const char *remote;         /* Server, or a comma-separated list of
                                 * a cluster's servers (the first that
                                 * answers is read). */
    const char *db;             /* Database name. */
    const char *table;          /* Table name. */
    const char *seq_column;     /* Integer column, unique and not negative
                                 * in every row: what is sliced. */
    const char *columns;        /* Columns to read, space-separated; the
                                 * seq column too, unless 'max_value' is
                                 * set. */
    const struct json *where;   /* JSON array of the conditions every row
                                 * read meets (copied), NULL for none. */
    int64_t width;              /* Seq values per slice (so at most rows
                                 * per slice), at least 1. */
    size_t max_in_flight;       /* Slices read at once, at least 1 (one
                                 * more for the open-ended slice). */
    size_t read_ahead;          /* Bytes of a slice's reply received
                                 * ahead of the scan (0: one chunk; see
                                 * ovsdb_select_reader_set_read_ahead()):
                                 * with more than one slice in flight, the
                                 * server composes the next meanwhile. */
    int64_t max_value;          /* If positive, no row's value exceeds it
                                 * (the column's "maxInteger", as for
                                 * Route.bucket): the values need not be
                                 * unique, no probe is made, and the read
                                 * ends with the slice that covers it.
                                 * 0: unknown. */
};

struct ovsdb_slice_reader *ovsdb_slice_reader_create(
    const struct ovsdb_slice_reader_spec *, ovsdb_select_row_cb *,
    void *aux);
void ovsdb_slice_reader_destroy(struct ovsdb_slice_reader *);
enum ovsdb_select_reader_state ovsdb_slice_reader_run(
    struct ovsdb_slice_reader *);
void ovsdb_slice_reader_wait(struct ovsdb_slice_reader *);
void ovsdb_slice_reader_stop_bounded(struct ovsdb_slice_reader *);
const char *ovsdb_slice_reader_error(const struct ovsdb_slice_reader *);
size_t ovsdb_slice_reader_n_rows(const struct ovsdb_slice_reader *);
size_t ovsdb_slice_reader_n_slices(const struct ovsdb_slice_reader *);
size_t ovsdb_slice_reader_n_probes(const struct ovsdb_slice_reader *);
size_t ovsdb_slice_reader_max_slice_rows(const struct ovsdb_slice_reader *);

/* The plan: where the slices and probes go, with no connection (the
 * reader's decisions, apart so that they can be tested alone).
 *
 *   init();
 *   loop:
 *     next() says what to start: a probe from 'lo' (its operations from
 *       probe_spans()), a slice [lo, hi) (hi INT64_MAX: open-ended), or
 *       nothing for now;
 *     note_seq() with the value of each row read;
 *     slice_done() / probe_done() as each ends;
 *   until done(). */

/* Most operations in a probe: one, then one per span. */
#define OVSDB_SLICE_READER_MAX_PROBE_OPS 65

/* What to start next. */
enum ovsdb_slice_reader_step {
    OVSDB_SLICE_READER_NONE,    /* Nothing for now. */
    OVSDB_SLICE_READER_PROBE,   /* A probe from 'lo'. */
    OVSDB_SLICE_READER_SLICE,   /* A slice [lo, hi). */
};

struct ovsdb_slice_reader_plan {
    int64_t width;              /* Seq values per bounded slice. */
    size_t max_in_flight;       /* Bounded slices at once. */
    int64_t next_lo;            /* Where the next slice or probe starts:
                                 * every value below it is covered. */
    int64_t max_seq;            /* Highest value seen, -1 if none. */
    int64_t max_value;          /* Highest value a row may hold, or
                                 * INT64_MAX if unknown. */
    int64_t probe_lo;           /* Where the last probe started: a slice
                                 * started before it, below it, tells
                                 * nothing new when it comes back empty. */
    size_t n_in_flight;         /* Bounded slices started, not ended. */
    size_t n_slices;            /* Slices started, open-ended included. */
    size_t n_probes;            /* Probes started. */
    bool need_probe;            /* Probe from 'next_lo' before the next
                                 * bounded slice. */
    bool probing;               /* A probe is under way. */
    bool stop;                  /* No more bounded slices: the open-ended
                                 * one next. */
    bool exhausted;             /* A probe found no value at or above
                                 * 'next_lo': nothing more to start. */
    bool open_started;          /* The open-ended slice was started... */
    bool open_done;             /* ...and ended. */
};

void ovsdb_slice_reader_plan_init(struct ovsdb_slice_reader_plan *,
                                  int64_t width, size_t max_in_flight);
void ovsdb_slice_reader_plan_set_max(struct ovsdb_slice_reader_plan *,
                                     int64_t max_value);
enum ovsdb_slice_reader_step ovsdb_slice_reader_plan_next(
    struct ovsdb_slice_reader_plan *, int64_t *lo, int64_t *hi);
size_t ovsdb_slice_reader_plan_probe_spans(
    const struct ovsdb_slice_reader_plan *, int64_t lo,
    int64_t spans[OVSDB_SLICE_READER_MAX_PROBE_OPS - 1]);
void ovsdb_slice_reader_plan_probe_done(struct ovsdb_slice_reader_plan *,
                                        size_t failed_op);
void ovsdb_slice_reader_plan_note_seq(struct ovsdb_slice_reader_plan *,
                                      int64_t seq);
void ovsdb_slice_reader_plan_slice_done(struct ovsdb_slice_reader_plan *,
                                        int64_t lo, int64_t hi,
                                        size_t n_rows);
void ovsdb_slice_reader_plan_stop(struct ovsdb_slice_reader_plan *);
bool ovsdb_slice_reader_plan_done(const struct ovsdb_slice_reader_plan *);

#endif /* ovsdb-slice-reader.h */
