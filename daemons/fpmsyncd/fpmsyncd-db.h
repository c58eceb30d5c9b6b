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

#ifndef FPMSYNCD_DB_H
#define FPMSYNCD_DB_H 1

/* fpmsyncd's database side: the connection to ovsdb-server and what goes
 * over it.
 *
 *   - Writing: the rib's transactions (daemons/fpmsyncd/fpmsyncd-txn.h) go
 *     through one lib/ovsdb-writer.h, at most --max-inflight in flight, under
 *     the flush policy: at once while fewer than --flush-threshold rows are
 *     pending, otherwise when a batch is full or --flush-interval ms after the
 *     last flush.  A refused transaction is retried after a backoff.  On the
 *     northbound fast path, the Route.status mutates written behind orchd's
 *     results (daemons/fpmsyncd/fpmsyncd-status.h) go the same way, in
 *     transactions of their own, after the rows.
 *
 *   - Reading: at each (re)connection, the Nexthop_Group and Route rows
 *     fpmsyncd owns, over a connection of their own
 *     (lib/ovsdb-select-reader.h): at a million routes the reply is about
 *     200 MB of JSON, which the JSON-RPC session would first build into a
 *     tree of about 1.5 GB.  No transaction is sent until the load is
 *     complete, so the load sees the database as it was before
 *     fpmsyncd's next write.
 *
 *   - The Global row (the settings below), followed over a connection of
 *     its own (lib/global-follower.h).
 *
 *   - Monitors, on the writer's connection: the Vrf rows; with FIB
 *     suppression on, the Route rows whose status says offloaded
 *     (daemons/fpmsyncd/fpmsyncd-offload.h), except on the northbound
 *     fast path, where orchd's results say it (and where fpmsyncd itself
 *     writes Route.status: it would hear its own writes).  What they and
 *     the follower report is taken in by
 *     daemons/fpmsyncd/fpmsyncd-db-monitors.c.
 *
 * The first Global row read (or the command line, before) decides the
 * path for routes to orchd: OVSDB, or ZeroMQ with the rows written behind
 * (daemons/fpmsyncd/fpmsyncd-zmq.h).  It holds until fpmsyncd restarts.
 * The load of Route waits for it: which columns it reads depends on it.
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include "lib/global-follower.h"
#include "lib/setting.h"

struct ds;
struct fpmd_rib;

/* fpmsyncd's tunables.  The command line sets them all; the Global row
 * changes the 'struct setting's that the command line left alone. */
struct fpmd_settings {
    struct setting batch_size;  /* Most operations per transaction. */
    struct setting reconcile_timer; /* Seconds zebra has to replay. */
    struct setting fib_suppression; /* Offload notifications (0 or 1). */
    struct setting resolve_nexthops; /* Group members in Route.nexthops
                                      * (0 or 1). */
    int flush_threshold;        /* Pending count under which to flush at
                                 * once. */
    int flush_interval;         /* ms to wait for a full batch. */
    int max_inflight;           /* Transactions in flight at most. */
    int max_pending;            /* Stop reading zebra at this many pending
                                 * rows (0: automatic). */
    struct setting northbound_zmq; /* Routes to orchd over ZeroMQ (0 or
                                    * 1). */
    struct global_follower_path path; /* How routes reach orchd, decided
                                       * once: through the Route rows, or
                                       * over ZeroMQ with the rows written
                                       * behind.  Undecided until the
                                       * Global row is read. */
    int zmq_max_pending;        /* On the ZeroMQ path, stop reading zebra
                                 * at this many routes queued. */
    int zmq_frame_routes;       /* Routes in a ZeroMQ frame at most. */
    int64_t route_read_slice;   /* Route.bucket values per select of the
                                 * database read at start. */
};

/* Returns the number of pending rows at which fpmsyncd stops reading from
 * zebra. */
static inline size_t
fpmd_settings_max_pending(const struct fpmd_settings *s)
{
    size_t batch_size = s->batch_size.value;
    size_t automatic = batch_size * (s->max_inflight + 1);

    return (s->max_pending > 0 ? s->max_pending
            : automatic > 20000 ? automatic : 20000);
}

struct fpmd_db *fpmd_db_create(const char *remote, struct fpmd_rib *,
                               struct fpmd_settings *);
void fpmd_db_destroy(struct fpmd_db *);

/* The longest fpmd_db_hold() holds the writes back, in ms: longer than a
 * million routes take to stream in from zebra here (about 2 s). */
#define FPMD_DB_MAX_HOLD_MS 3000

bool fpmd_db_run(struct fpmd_db *);
void fpmd_db_hold(struct fpmd_db *, bool streaming);
void fpmd_db_flush(struct fpmd_db *);
void fpmd_db_wait(struct fpmd_db *);

const char *fpmd_db_get_remote(const struct fpmd_db *);
void fpmd_db_format(const struct fpmd_db *, struct ds *);
void fpmd_db_format_backlog(const struct fpmd_db *, struct ds *);

#endif /* fpmsyncd-db.h */
