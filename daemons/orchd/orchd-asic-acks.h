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

#ifndef ORCHD_ASIC_ACKS_H
#define ORCHD_ASIC_ACKS_H 1

/* orchd-asic-acks: syncd's acknowledgements on the southbound OVSDB path,
 * without a replica of Asic_Route.
 *
 * On the southbound OVSDB path syncd acknowledges each Asic_Route write by
 * writing the row's applied_seq, state and error.  orchd used to learn of
 * them through an IDL replica of the whole table, whose first reply at a
 * million rows (all of them, every column) took most of orchd's 95 s
 * restart and raised ovsdb-server to 2.2x its size, and which also echoed
 * every row orchd wrote back to it.  orchd needs none of that: it knows
 * what it wrote, reads the rows once at start (orchd-asic-read.h), and
 * only has to hear of syncd's write-backs.  So this module keeps an
 * ovsdb-cs monitor (lib/ovsdb-cs.h: no replica) of the columns instance,
 * applied_seq, state and error, asking for no initial contents and no
 * deletions.  Each insertion or modification of a row of orchd's
 * instance whose applied_seq is set is an acknowledgement, passed to the
 * caller; the worker ignores one that is stale (orchd-bulker.h).
 * (The insertions are orchd's own, four small columns a row, but one may
 * carry an acknowledgement: ovsdb-server merges the changes made to a row
 * between two of its sends to a monitor.)
 *
 * The monitor's method is "monitor" (version 1), whose modifications
 * carry the whole row's monitored columns, and it has no "where": the
 * other instances' rows are dropped by their "instance" column.
 *
 * The caller reads its Asic_Route rows only once the monitor is ready
 * (orchd_asic_acks_is_ready()): an acknowledgement written after the
 * monitor began comes through it, one written before is in the rows read.
 * It runs the monitor again (orchd_asic_acks_run()) only once the read is
 * over: an acknowledgement passed on before the read has seeded its row
 * would be dropped as stale, and the row seeded as unacknowledged.
 * If the monitor has to start again (the server restarted, say), what
 * syncd wrote meanwhile was never seen, and is read (orchd-asic-read.h,
 * in seq slices): each acknowledged row is passed on as if it had just
 * been written.  Only the rows that can answer a write still waiting are
 * read, and only the columns of the acknowledgement: a write numbered
 * below the caller's oldest unacknowledged one (orchd_asic_oldest_cb)
 * needs none, and a row's seq is that of its last write.  Once the load
 * is settled none waits and the read finds nothing; reading every row of
 * the instance, as this module once did, cost a restarted server a
 * second reply of a million rows beside syncd's own read.
 *
 * Thread safety: none; orchd's main thread owns it. */

#include <stdbool.h>
#include <stdint.h>

struct uuid;

/* Called with each acknowledgement: row 'uuid' is programmed at
 * 'applied_seq' if 'ok', else failed because of 'error'. */
typedef void orchd_asic_ack_cb(void *aux, const struct uuid *uuid,
                               int64_t applied_seq, bool ok,
                               const char *error);

/* Counters. */
struct orchd_asic_acks_stats {
    uint64_t acks;              /* Acknowledgements passed on... */
    uint64_t reread_acks;       /* ...of which from a read after a
                                 * restart of the monitor. */
    uint64_t other_instance;    /* Row changes of other instances. */
    uint64_t restarts;          /* Restarts of the monitor (not the
                                 * first start). */
    uint64_t rereads;           /* Reads begun after a restart. */
    bool rereading;             /* Is one running (or to begin again)? */
};

/* Returns a seq at or below that of every write still waiting for its
 * acknowledgement and of every write to come. */
typedef int64_t orchd_asic_oldest_cb(void *aux);

struct orchd_asic_acks *orchd_asic_acks_create(const char *remote,
                                               int instance,
                                               int64_t read_slice,
                                               orchd_asic_ack_cb *,
                                               orchd_asic_oldest_cb *,
                                               void *aux);
void orchd_asic_acks_destroy(struct orchd_asic_acks *);
void orchd_asic_acks_run(struct orchd_asic_acks *);
void orchd_asic_acks_wait(struct orchd_asic_acks *);
bool orchd_asic_acks_is_ready(const struct orchd_asic_acks *);
void orchd_asic_acks_get_stats(const struct orchd_asic_acks *,
                               struct orchd_asic_acks_stats *);

#endif /* orchd-asic-acks.h */
