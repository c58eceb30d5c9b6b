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

#ifndef SYNCD_DB_H
#define SYNCD_DB_H 1

/* syncd-db: syncd's OVSDB path.  It monitors the Asic_Route table, turns
 * row changes into route operations for the apply step
 * (daemons/syncd/syncd-apply.h), and has each row's outcome written back into
 * it (daemons/syncd/syncd-writeback.h).
 *
 * Reading
 * =======
 *
 * An ovsdb-cs monitor (no replica: OVS's lib/ovsdb-cs.h) of the columns
 * vrf, prefix, packet_action, nexthops and seq only, never of the columns
 * syncd writes (state, error, applied_seq), so write-backs do not come
 * back as updates.  The module keeps a compact table of the rows
 * (daemons/syncd/syncd-rows.h), 64 bytes a row, because a deletion carries
 * only the uuid.  Updates are processed a bounded number of rows per
 * syncd_db_run() call, and the monitor is not read while a backlog is
 * queued, so the server coalesces further changes.
 *
 * The monitor asks for no initial contents of Asic_Route: at a million
 * rows, the one reply that would carry them made ovsdb-server peak at
 * 1.56x its steady size and syncd at 1.6 GB, and syncd's FIB came back
 * 28 s after a restart.  Instead, each time the monitor (re)starts, the
 * rows of syncd's instance are read in slices of their seq column
 * (lib/ovsdb-slice-reader.h, as orchd reads them on the fast path), a row
 * at a time, with the columns syncd writes: a row the database already
 * says is programmed at its seq is not written back again.  The monitor
 * tells of every change from its start on, so the read and the monitor
 * together miss nothing; where they overlap, the monitor wins: a slice
 * row is skipped if the monitor has deleted it (the uuids it deleted are
 * kept while the read runs) or written it (its version is as new, or a
 * newer one is on its way) since the read began.  When the read ends,
 * the rows known before that neither it nor the monitor saw are gone, and
 * their routes are removed.  A read that fails starts again a second
 * later.
 *
 * A read after a reconnection (the server restarted) finds syncd with
 * rows, and most of them unchanged: orchd gives every write of a row a
 * new seq, higher than any before, so a row still at the seq syncd has
 * for it holds what syncd programmed.  Such a read comes in two parts.
 * First the rows at or below the highest seq known, with their _uuid,
 * seq, applied_seq and state alone: a row known at that seq is seen, and
 * if the database does not say it is programmed at it (the server died
 * before it logged syncd's write-back), its outcome is written back
 * again.  Then the rows above that seq, every column, as any read.  A
 * row of the first part that the seq cannot settle (unknown, changed,
 * bad, failed or waiting for its VRF) makes the second part read every
 * row instead (those already seen are skipped).  At a million routes the
 * first part spares the restarted server composing the next hops of every
 * row, and syncd parsing and applying them again.
 * The contract this rests on is orchd's: a row written again gets a new
 * seq.  A change made by hand that keeps a row's seq is seen when the
 * monitor reports it, but not by this read if it was made while syncd's
 * monitor was disconnected.
 *
 * Within one update, deletions (and the old half of a row whose VRF or
 * prefix changed) are submitted before insertions and modifications, so a
 * transaction that replaces the row of a prefix by another works.
 *
 * A row that cannot be used (bad prefix, unknown action, bad next-hop
 * key) gets state "error" with a message in its error column and a
 * counter; its old route, if any, is removed.
 *
 * The Global row is not this module's: syncd follows it with a
 * lib/global-follower.h of its own, which also decides whether this path
 * runs at all (daemons/syncd/syncd-path.h).
 *
 * Writing back
 * ============
 *
 * See daemons/syncd/syncd-writeback.h. */

#include <stdbool.h>
#include <stdint.h>

/* Asic_Route.seq values (so at most rows) per select of the read, by
 * default: as orchd's read of the same table on the fast path
 * (daemons/orchd/orchd-asic-read.h, which says why). */
#define SYNCD_DB_READ_SLICE 400000

struct ds;
struct syncd_apply;
struct syncd_route_result;

/* Options for syncd_db_create(). */
struct syncd_db_options {
    const char *remote;         /* Database remote, e.g. "unix:db.sock". */
    uint32_t wb_batch;          /* Rows per write-back transaction (0 for
                                 * the default, 5000). */
    uint32_t wb_inflight;       /* Write-back transactions outstanding (0
                                 * for the default, 2). */
    uint32_t budget;            /* Rows processed per run (0 for the
                                 * default, 20000). */
    uint32_t read_slice;        /* Asic_Route seq values per select of the
                                 * read (0 for the default,
                                 * SYNCD_DB_READ_SLICE). */
    bool no_write_back;         /* Never write outcomes back (only to
                                 * measure what writing back costs). */
    int instance;               /* ASIC instance: only the Asic_Route rows
                                 * whose "instance" is this one are
                                 * syncd's. */
};

/* Counters. */
struct syncd_db_stats {
    uint64_t rows;              /* Rows known. */
    uint64_t in_sync;           /* Of those, programmed and written back
                                 * (the database says programmed with
                                 * applied_seq == seq). */
    uint64_t bad_rows;          /* Rows that are bad now. */
    uint64_t bad_total;         /* Bad rows seen, ever. */
    uint64_t held;              /* Rows held for their VRF now. */
    uint64_t held_total;        /* Rows held, ever. */
    uint64_t vrfs;              /* VRFs with a Vrf row. */
    uint64_t updates;           /* Update messages received. */
    uint64_t row_inserts;       /* Row insertions received... */
    uint64_t row_modifies;      /* ...modifications... */
    uint64_t row_deletes;       /* ...and deletions. */
    uint64_t backlog;           /* Row changes received, not processed. */
    uint64_t reconnects;        /* Monitor reconnections. */
    uint64_t wb_pending;        /* Rows waiting to be written back. */
    uint64_t wb_inflight_rows;  /* Rows in transactions outstanding. */
    uint64_t wb_inflight_txns;  /* Transactions outstanding. */
    uint64_t wb_txns;           /* Write-back transactions sent... */
    uint64_t wb_rows;           /* ...with so many rows... */
    uint64_t wb_acked;          /* ...of which so many were committed. */
    uint64_t wb_errors;         /* Write-back transactions that failed. */
    uint64_t wb_skipped;        /* Rows not written because the database
                                 * already said so (restart). */
    uint64_t results_ok;        /* Route results: programmed... */
    uint64_t results_error;     /* ...or error. */
    bool reading;               /* Is a read of Asic_Route running? */
    uint64_t reads;             /* Reads of Asic_Route begun... */
    uint64_t read_failures;     /* ...that failed (and began again)... */
    uint64_t read_rows;         /* ...rows they handed over... */
    uint64_t read_skipped;      /* ...rows they read that the monitor had
                                 * already deleted or written since... */
    uint64_t read_by_seq;       /* ...rows settled by their seq alone
                                 * (a read after a reconnection)... */
    uint64_t read_kept;         /* ...and reads after a reconnection that
                                 * the marks spared reading the rows
                                 * known (syncd-marks.h). */
    long long int read_msec;    /* How long the last one that ended took. */
};

struct syncd_db *syncd_db_create(const struct syncd_db_options *,
                                 struct syncd_apply *);
void syncd_db_destroy(struct syncd_db *);
void syncd_db_run(struct syncd_db *);
void syncd_db_wait(struct syncd_db *);
bool syncd_db_is_connected(const struct syncd_db *);
bool syncd_db_initial_done(const struct syncd_db *);
void syncd_db_get_stats(const struct syncd_db *, struct syncd_db_stats *);

/* The apply step's result callback, 'aux' being the 'struct syncd_db'. */
void syncd_db_apply_result(const struct syncd_route_result *, void *aux);

#endif /* syncd-db.h */
