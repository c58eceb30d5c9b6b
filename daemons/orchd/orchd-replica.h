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
 * orchd-replica: what orchd replicates of the Fibsync database, and the
 * replicas it drops on the fast path.
 *
 * On the OVSDB path orchd's IDL replicates Vrf, Route (without
 * its on-demand "counters" and its "external_ids") and Nexthop_Group,
 * or, with --routes-from-file, all but Route (orchd-route-monitor.h).  On
 * the northbound fast path routes come from fpmsyncd, so there is no
 * Route or Nexthop_Group replica (orchd-northbound.h).  Asic_Route is
 * never replicated: orchd writes it, so a replica would only echo each of
 * orchd's own writes back, a monitor update and a row of memory a route,
 * and its first reply at a million rows made most of a 95 s orchd
 * restart and raised ovsdb-server to 2.2x its size.  orchd reads the rows
 * once at start instead (orchd-asic-read.h) and, on the southbound OVSDB
 * path, hears of syncd's acknowledgements through a monitor of their
 * changes alone (orchd-asic-acks.h).
 *
 * Route is replicated in steps
 * ----------------------------
 *
 * A first reply of the whole Route table at a million rows costs
 * ovsdb-server 16 s composing it and orchd as long parsing it before the
 * IDL makes one row, with the whole reply in memory at once in both.  So
 * the replica starts with the rows of the first of ORCHD_REPLICA_STEPS
 * (orchd's --replica-steps) equal parts of Route.bucket's range
 * (lib/route-key.h) and its condition is widened a step at a time
 * (monitor_cond_change) until it is "true", the same
 * replica as an unconditional monitor.  Each step's rows come as one
 * update.  The next step is asked for before the last one's rows arrive,
 * so that ovsdb-server composes them while orchd makes the rows of the
 * last (the IDL sends a condition change as soon as the one in flight is
 * answered).  orchd_replica_widen() says when the whole table is there.
 *
 * The same again after ovsdb-server restarts
 * ------------------------------------------
 *
 * OVS 3.1 keeps no transaction history for a standalone database, so an
 * IDL that reconnects finds nothing to resume from and loads its replica
 * again from scratch, with the condition it last had acknowledged:
 * "true", the whole table in one reply, which at a million routes made
 * the restarted server's peak 1.77x its size and orchd's one main-loop
 * pass taking it in 30 s.  So when orchd's IDL loses its connection,
 * orchd_replica_follow() sets Route's condition back to the first step
 * before the IDL reconnects: the IDL, having no transaction to resume
 * from, then asks the new server for that step alone (OVS's
 * ovsdb_cs_db_sync_condition() takes a condition set while disconnected
 * as the one to monitor with), and the widening starts again.  The rows
 * of the steps still to come are absent from the replica meanwhile (the
 * IDL's reload reports no deletion: orchd deletes nothing), so orchd
 * holds its Route.status writes until the widening is over.
 *
 * A server that does keep a history (a clustered database) lets the IDL
 * resume: the narrower condition would then be sent as a change and take
 * rows out of a replica that has them all, which orchd would read as
 * deleted routes.  orchd_replica_widen() tells the two apart once
 * reconnected, before the condition can be sent (the IDL sends condition
 * changes only once its monitor has been answered): if the first step did
 * not become the condition monitored with, it sets "true" back, which
 * the server finds unchanged.
 *
 * Reconciliation after a lost connection
 * --------------------------------------
 *
 * An IDL that cannot resume its monitor (a standalone server restarted, a
 * cluster's new leader without the history the IDL's last transaction
 * needs) empties its replica and loads it again from scratch, and reports
 * only the rows it loads, as inserted: the rows deleted meanwhile vanish
 * unreported.  Nothing public in OVS 3.1's IDL says which of the two
 * happened, so after every lost connection, once the monitor has been
 * answered again (every monitor reply changes the IDL's seqno, which
 * nothing changes while it is disconnected) and the replica is whole,
 * orchd_replica_reconcile() says once that orchd should compare what it
 * programs with the replica.  After a resumed monitor that finds nothing
 * to do: the deletions came as such.  (It relies on orchd seeing the
 * connection down between two ovsdb_idl_run(), as the widening does: a
 * new connection's monitor takes several round trips.)
 *
 * Which path each hop takes is known only once Global is read, so orchd
 * first reads Global through its follower of Global
 * (lib/global-follower.h), which keeps following it, then builds its
 * replica of what the paths need (orchd_replica_register()).  A table the
 * paths do not need is not monitored at all.  Holding it instead (a
 * condition no row meets) is not enough: ovsdb-server builds the first
 * reply of a monitor from every row of each table monitored, whatever the
 * condition, and at a million routes that cost it 840 MB and 3 s at each
 * orchd restart.  Nor is loading a replica only to drop it: that raised
 * orchd's peak RSS by two thirds.
 *
 * Thread safety: the main thread's, as the IDL.
 */

#ifndef ORCHD_REPLICA_H
#define ORCHD_REPLICA_H 1

struct ds;
struct ovsdb_idl;

#include <stdbool.h>

/* Steps in which Route's rows enter the replica by default (see above),
 * and at most. */
#define ORCHD_REPLICA_STEPS 8
#define ORCHD_REPLICA_MAX_STEPS 256

/* What orchd replicates besides Vrf. */
enum orchd_replica_tables {
    ORCHD_REPLICA_SMALL,        /* Nothing more: the northbound fast path. */
    ORCHD_REPLICA_GROUPS,       /* Nexthop_Group: the northbound OVSDB path
                                 * without a Route replica
                                 * (orchd-route-monitor.h). */
    ORCHD_REPLICA_ROUTES,       /* Nexthop_Group and Route. */
};

/* Where the widening of Route's condition stands. */
struct orchd_replica_widening {
    bool routes;                /* Route is replicated at all. */
    unsigned int n_steps;       /* Steps, 1 to ORCHD_REPLICA_MAX_STEPS. */
    unsigned int step;          /* Last step asked for, 1 to 'n_steps';
                                 * the last is "true". */
    bool done;                  /* The whole table is replicated. */
    long long int start;        /* When the first step's rows came. */
    bool connected;             /* The IDL was connected when last seen
                                 * (orchd_replica_follow()). */
    bool rewound;               /* Started again from the first step when
                                 * the connection was lost: whether the
                                 * server took it is not yet known. */
    unsigned int n_rewinds;     /* Times started again. */

    /* Reconciliation after a lost connection (orchd_replica_reconcile()). */
    bool reconcile_due;         /* The connection was lost since the last
                                 * reconciliation. */
    unsigned int lost_seqno;    /* The IDL's seqno when the connection was
                                 * seen lost: nothing changes it until a
                                 * new connection's monitor is answered. */
    unsigned int n_reconciles;  /* Reconciliations asked for. */
};

void orchd_replica_register(struct ovsdb_idl *,
                            enum orchd_replica_tables,
                            unsigned int n_steps,
                            struct orchd_replica_widening *);
bool orchd_replica_widen(struct orchd_replica_widening *,
                         struct ovsdb_idl *);
void orchd_replica_follow(struct orchd_replica_widening *,
                          struct ovsdb_idl *);
bool orchd_replica_reconcile(struct orchd_replica_widening *,
                             struct ovsdb_idl *);
void orchd_replica_format(const struct orchd_replica_widening *,
                          struct ds *);

#endif /* orchd-replica.h */
