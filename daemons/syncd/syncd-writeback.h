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


#ifndef SYNCD_WRITEBACK_H
#define SYNCD_WRITEBACK_H 1

/* syncd-writeback: writes each Asic_Route row's outcome back into it.
 *
 * Writing
 * =======
 *
 * Through one lib/ovsdb-writer.h writer, on a connection of its own:
 * "transact" requests of "update" operations, one per row, selected by
 * "_uuid" (a hash lookup on the server), setting state, error and
 * applied_seq.  The operations are appended as text (lib/ovsdb-wire.h),
 * never built as JSON trees.  Outcomes are coalesced per row (only the
 * latest is written: a row is queued once however often it is marked) and
 * sent in transactions of up to 'batch' rows, with at most 'inflight'
 * outstanding, so the write-back never holds up programming.  The error
 * column is written only when the row may hold a message.
 *
 * A committed "programmed" makes the row in sync (unless it changed
 * since).  A refused transaction is counted and logged, not retried.  A
 * lost one (the connection dropped) puts its rows back in the queue.
 *
 * What the database already holds after a restart is read by syncd_db
 * with the rows themselves (their state and applied_seq), so that rows
 * already programmed at their seq are not written again.
 *
 * Each write-back transaction is marked (lib/ovsdb-write-mark.h) in the
 * Write_Mark row "syncd" ("syncd-N" for instance N), whose epoch starts
 * again after each read of Asic_Route: after a reconnection syncd_db
 * compares the row with what it sent and, with orchd's row unchanged
 * too, does without that read (syncd-marks.h).
 *
 * Thread safety: none; syncd's main thread owns it. */

#include <stdbool.h>
#include <stdint.h>

struct ds;
struct syncd_row;
struct syncd_rows;
struct uuid;

/* Options for syncd_writeback_create(). */
struct syncd_writeback_options {
    const char *remote;         /* Database remote, e.g. "unix:db.sock". */
    uint32_t batch;             /* Rows per transaction (0 for the
                                 * default, 5000). */
    uint32_t inflight;          /* Transactions outstanding (0 for the
                                 * default, 2). */
    bool disabled;              /* Never write outcomes back (only to
                                 * measure what writing back costs). */
    int instance;               /* ASIC instance whose rows are read. */
};

/* Counters. */
struct syncd_writeback_stats {
    uint64_t txns;              /* Transactions sent... */
    uint64_t rows;              /* ...with so many rows... */
    uint64_t acked;             /* ...of which so many were committed. */
    uint64_t errors;            /* Transactions refused. */
    uint64_t inflight_rows;     /* Rows in transactions outstanding. */
    uint64_t inflight_txns;     /* Transactions outstanding. */
};

struct syncd_writeback *syncd_writeback_create(
    const struct syncd_writeback_options *, struct syncd_rows *);
void syncd_writeback_destroy(struct syncd_writeback *);
void syncd_writeback_run(struct syncd_writeback *);
void syncd_writeback_wait(struct syncd_writeback *);

void syncd_writeback_start_epoch(struct syncd_writeback *);
void syncd_writeback_end_epoch(struct syncd_writeback *);
void syncd_writeback_allow_marks(struct syncd_writeback *, bool);
bool syncd_writeback_mark_holds(const struct syncd_writeback *,
                                const struct uuid *epoch, int64_t txn,
                                struct ds *why);
const char *syncd_writeback_mark_writer(const struct syncd_writeback *);

void syncd_writeback_mark(struct syncd_writeback *, struct syncd_row *,
                          uint8_t code);


void syncd_writeback_get_stats(const struct syncd_writeback *,
                               struct syncd_writeback_stats *);

#endif /* syncd-writeback.h */
