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

/*
 * orchd-writebehind: on the southbound fast path, the Asic_Route rows
 * written behind the routes syncd programmed.
 *
 * On the OVSDB path orchd writes each route's Asic_Route row first and
 * syncd writes its outcome into it.  On the fast path (orchd-southbound.h)
 * routes go to syncd over ZeroMQ, and OVSDB stays the record of what was
 * programmed only because orchd writes each row after syncd's result came
 * back: its content, seq, and state ("programmed" or "error"), error and
 * applied_seq = seq; and deletes it once a removal came back.  Nothing on
 * the fast path ever waits for these writes.
 *
 * A row's write that waits to be sent takes the content of the row's next
 * write in its place, so that a row changed many times while the write-
 * behind was behind is written once (the route's tag in the bulker says
 * where its write waits: orchd_writebehind_set()).
 *
 * Writes are queued in the order the results came and sent through the
 * worker's lib/ovsdb-writer.h writer, in transactions of up to 'batch'
 * rows, one transaction at a time, so that a refused or lost transaction
 * is simply queued again in front of the rest, and the rows' order stays
 * the results' order.  A transaction names each row at most once (OVSDB
 * refuses an insert of a row deleted in the same transaction).
 *
 * Whether a row exists is what the bulker thought when it built the write
 * (a CREATE inserts, anything else updates).  When it was wrong, the
 * database says so and the write is done the other way: an update that
 * matched no row becomes an insert; a transaction refused or lost is sent
 * again with its inserts as updates (an insert of a row that exists fails,
 * an update of one that does not matches nothing and becomes an insert).
 * An operation refused on its own merits (not an insert) is dropped and
 * counted, so that one bad row cannot stop the rest.
 *
 * While fpmsyncd's Route writes are behind, orchd_writebehind_yield()
 * holds new transactions back (for ORCHD_WRITEBEHIND_MAX_YIELD_MS at
 * most, by default), so that ovsdb-server spends itself on Route, the
 * source of truth, first (orchd-northbound.h).
 *
 * Thread safety: none; the thread that runs the worker's bulker and writer
 * owns it.
 */

#ifndef ORCHD_WRITEBEHIND_H
#define ORCHD_WRITEBEHIND_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/ovsdb-writer.h"

struct ds;
struct orchd_entry;
struct ovsdb_writer;
struct uuid;

/* Commits a transaction of 'n_ops' operations appended to 'ops' after
 * ovsdb_writer_txn_start(); calls 'cb' with 'cb_aux' once it ended. */
typedef void orchd_writebehind_commit_func(void *aux, struct ds *ops,
                                           size_t n_ops, ovsdb_writer_cb *cb,
                                           void *cb_aux);

/* The longest a write-behind holds back for orchd_writebehind_yield() by
 * default, in ms: longer than fpmsyncd takes to write a million Route rows
 * here. */
#define ORCHD_WRITEBEHIND_MAX_YIELD_MS 30000

/* Options for orchd_writebehind_create(). */
struct orchd_writebehind_options {
    size_t batch;               /* Rows per transaction (0: 100: small
                                 * transactions cost ovsdb-server less a
                                 * row, and leave fpmsyncd's Route writes
                                 * most of the server, see
                                 * docs/PERFORMANCE.md). */
    long long int max_yield_ms; /* Longest hold for
                                 * orchd_writebehind_yield() (0:
                                 * ORCHD_WRITEBEHIND_MAX_YIELD_MS). */
    orchd_writebehind_commit_func *commit; /* For tests: commits instead of
                                            * the writer, if nonnull. */
    void *commit_aux;           /* Passed to 'commit'. */
};

/* Counters. */
struct orchd_writebehind_stats {
    uint64_t queued;            /* Row writes queued, ever. */
    uint64_t coalesced;         /* Of them, writes that took the place of
                                 * the row's write queued before. */
    uint64_t committed;         /* Row writes committed. */
    uint64_t txns;              /* Transactions sent. */
    uint64_t late_inserts;      /* Updates that found no row: inserted. */
    uint64_t retried_txns;      /* Transactions refused or lost, sent
                                 * again. */
    uint64_t dropped;           /* Row writes the database refused. */
};

struct orchd_writebehind *orchd_writebehind_create(
    struct ovsdb_writer *, const struct orchd_writebehind_options *);
void orchd_writebehind_destroy(struct orchd_writebehind *);

void orchd_writebehind_set(struct orchd_writebehind *,
                           const struct orchd_entry *, int64_t seq,
                           bool ok, const char *error, bool row_exists,
                           uint32_t *tag);
void orchd_writebehind_delete(struct orchd_writebehind *,
                              const struct uuid *key, uint32_t *tag);

void orchd_writebehind_yield(struct orchd_writebehind *, bool yield);
void orchd_writebehind_run(struct orchd_writebehind *);
void orchd_writebehind_wait(const struct orchd_writebehind *);
bool orchd_writebehind_is_idle(const struct orchd_writebehind *);
size_t orchd_writebehind_n_queued(const struct orchd_writebehind *);
size_t orchd_writebehind_n_in_flight(const struct orchd_writebehind *);
long long int orchd_writebehind_lag_ms(const struct orchd_writebehind *);
void orchd_writebehind_get_stats(const struct orchd_writebehind *,
                                 struct orchd_writebehind_stats *);
void orchd_writebehind_format(const struct orchd_writebehind *,
                              struct ds *);

#endif /* orchd-writebehind.h */
