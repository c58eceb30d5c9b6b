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

#ifndef FPMSYNCD_STATUS_H
#define FPMSYNCD_STATUS_H 1

/* Route.status written behind orchd's results, on the northbound fast
 * path.
 *
 * On the OVSDB path orchd writes each route's outcome into its Route
 * row's status (daemons/orchd/orchd.c, status_run()).  On the northbound fast
 * path orchd has no Route replica: it sends the outcomes back to fpmsyncd
 * as RESULTS entries instead (failures always, successes only with FIB
 * suppression on; daemons/orchd/orchd-northbound.h), and fpmsyncd writes them
 * here, with the same partial map mutates:
 *
 *   programmed   status:offload=true, and no "error" key;
 *   failed       status:error=TEXT, and no "offload" key.
 *
 * Other keys of the map are left alone.
 *
 * Coalescing
 * ==========
 *
 * Each route keeps what its status should say (its last result, for the
 * content fpmsyncd last sent) and what fpmsyncd believes the row says:
 * read from the row at each database load (the load selects the status
 * column unless the path is OVSDB), then what fpmsyncd wrote.  A result
 * that matches what the row says is not written.  A route to write is
 * queued once (lib/row-queue.h, with a bit in the route), in first-change
 * order, and is written with what it wants when it is taken, so results
 * that come while it waits coalesce.  A withdrawn route wants nothing:
 * its row is deleted, status and all.
 *
 * Order
 * =====
 *
 * A status is taken only for a route whose Route row is in the database or in
 * a transaction already handed to the writer.  The mutates go over the same
 * lib/ovsdb-writer.h connection, in the same window, after the rows
 * (daemons/fpmsyncd/fpmsyncd-db.c's flush), so ovsdb-server applies them after
 * the row's insert.  A route taken before its row is written is dropped from
 * the queue ("held").  When the row's insert is taken
 * (daemons/fpmsyncd/fpmsyncd-txn.c), the route's status goes into the insert
 * itself (fpmd_status_put_insert()): under FIB suppression the results of a
 * burst mostly come before fpmsyncd writes its rows, and a row inserted with
 * its status costs ovsdb-server one operation instead of two.  A row deleted,
 * or inserted with no result yet, starts with an empty status
 * (fpmd_status_row_emptied()); a result that comes later is a mutate.  Writes
 * are asynchronous and never stop fpmsyncd from reading zebra.
 *
 * Transactions
 * ============
 *
 * fpmd_status_build() takes up to N routes into one transaction of
 * mutates, as text (one mutate per route, each selected by its row's
 * UUID); fpmd_status_reply() completes the oldest.  Transactions complete
 * in the order they were built.  The queue and the transactions in flight
 * are lib/row-queue.h's; a transaction remembers its routes by key, since
 * a route may be freed before its reply comes.  A transaction refused or
 * lost makes what its rows say unknown, and queues their routes again; a
 * mutate that finds no row (someone deleted it) is counted, and the row's
 * next insert writes the status again.
 *
 * Its own writes
 * ==============
 *
 * fpmsyncd's Route.status monitor (daemons/fpmsyncd/fpmsyncd-db.c), which on
 * the OVSDB path turns orchd's writes into offload notifications, is not
 * installed on this path: the results drive the notifications
 * (daemons/fpmsyncd/fpmsyncd-offload.h), and fpmsyncd never hears its own
 * status writes back as news.
 *
 * Above the rib (daemons/fpmsyncd/fpmsyncd-rib.h): it follows the rib's
 * routes (withdrawn, freed, loaded) as an observer of the rib, registered
 * by fpmd_status_attach(), and keeps its state in its own
 * 'struct fpmd_status'.  Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;
struct fpmd_rib;
struct fpmd_route;
struct json;
struct ovsdb_writer_reply;

/* What a route's Route.status says, of the keys fpmsyncd writes. */
enum fpmd_status_value {
    FPMD_STATUS_NONE,           /* Neither "offload" nor "error". */
    FPMD_STATUS_OFFLOAD,        /* offload=true, no "error". */
    FPMD_STATUS_ERROR,          /* error=TEXT, no "offload". */
    FPMD_STATUS_UNKNOWN,        /* Not known (what the row says only). */
};

/* Attaching it to the rib (fpmsyncd.c's main). */
void fpmd_status_attach(struct fpmd_rib *);

/* orchd's results (daemons/fpmsyncd/fpmsyncd-zmq.c). */
void fpmd_status_set_offload(struct fpmd_rib *, struct fpmd_route *);
void fpmd_status_set_error(struct fpmd_rib *, struct fpmd_route *,
                           const char *error, size_t len);

/* Routes' rows (daemons/fpmsyncd/fpmsyncd-txn.c). */
void fpmd_status_row_emptied(struct fpmd_rib *, struct fpmd_route *);
bool fpmd_status_put_insert(struct fpmd_rib *, struct fpmd_route *,
                            struct ds *);
void fpmd_status_inserts_committed(struct fpmd_rib *, size_t n);
void fpmd_status_row_unknown(struct fpmd_rib *, struct fpmd_route *);

/* Transactions (daemons/fpmsyncd/fpmsyncd-db.c). */
size_t fpmd_status_n_pending(const struct fpmd_rib *);
size_t fpmd_status_build(struct fpmd_rib *, size_t max_ops, struct ds *ops);
bool fpmd_status_reply(struct fpmd_rib *, const struct ovsdb_writer_reply *,
                       struct ds *errors);

/* Introspection. */
void fpmd_status_format(const struct fpmd_rib *, struct ds *);

#endif /* fpmsyncd-status.h */
