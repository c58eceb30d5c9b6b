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

#ifndef FPMSYNCD_RIB_H
#define FPMSYNCD_RIB_H 1

/* fpmsyncd's route table: what zebra sent, what is in OVSDB.
 *
 * The rib holds no socket and no clock.  It takes parsed FPM messages
 * (lib/fpm-route.h) and rows read from OVSDB, and queues the rows to
 * write on a coalescing batcher (lib/route-batch.h) that
 * daemons/fpmsyncd/fpmsyncd-txn.h turns into transactions; the connections to
 * zebra and to ovsdb-server are daemons/fpmsyncd/fpmsyncd-fpm.c's and
 * daemons/fpmsyncd/fpmsyncd-db.c's.
 *
 * Its parts, one file each, each above the ones it calls:
 *
 *   fpmsyncd-rib-rows.c  row UUIDs, foreign UUIDs, what the database load
 *                        records of each row;
 *   fpmsyncd-vrf.c       VRFs and their Vrf rows;
 *   fpmsyncd-nexthop.c   next-hop sets, next-hop objects and groups (it
 *                        has the rib's routes written again through
 *                        functions the rib gives it);
 *   fpmsyncd-rib.c       routes, deferred deletes, reconciliation;
 *   fpmsyncd-rib-load.c  the database load.
 *
 * They share daemons/fpmsyncd/fpmsyncd-private.h, which defines the rib's
 * data.  Above the rib, and calling it, are the modules that follow its
 * routes: fpmsyncd-offload.c (FIB suppression), fpmsyncd-status.c
 * (Route.status written behind the northbound fast path's results) and
 * fpmsyncd-zmq.c (the fast path).  The rib calls none of them: each
 * registers a 'struct fpmd_rib_observer', and the rib tells its observers
 * of each change to a route.  Above those, fpmsyncd-txn.c turns the rib's
 * rows into OVSDB operations and takes the replies, telling FIB
 * suppression and Route.status of the rows it writes.
 *
 * Memory
 * ======
 *
 * There is no replica of the Route table.  Each route costs one
 * 'struct fpmd_route' (under 100 bytes): its key (VRF, binary prefix),
 * the few fields an offload notification needs, a reference to its
 * next-hop set, and a 'struct route_batch_entry' with a 32-bit hash of the
 * content written to the database.  That is enough to choose insert,
 * update or delete and to skip a route that zebra replays unchanged.
 * Next-hop sets are shared: zebra's next-hop objects by id, and inline
 * next hops (zebra without next-hop groups) interned by value.
 *
 * Rows
 * ====
 *
 * Each row has a deterministic UUID (lib/route-key.h), so every update
 * and delete is "where _uuid == U", a hash lookup in ovsdb-server.
 *
 *   Route          vrf, prefix, protocol, metric (if nonzero), blackhole,
 *                  nexthop_group (zebra's id, when the route refers to a
 *                  next-hop object) and nexthops: the resolved members,
 *                  "GATEWAY@IFNAME" -> weight, so that "ovsdb-client dump"
 *                  shows every route with its next hops.  A route whose
 *                  next-hop object zebra has not defined yet (on a replay a
 *                  group can come before its members) waits, unwritten,
 *                  until it can be resolved.  When a next-hop object
 *                  changes, every route that uses it is rewritten.
 *
 *   Nexthop_Group  one row per zebra next-hop id: a single next hop is a
 *                  group of one member; a blackhole has no member.
 *
 *   Vrf            one row per kernel table id fpmsyncd meets that has no
 *                  Vrf row yet: "default" for 254, else "table<N>".
 *                  Existing Vrf rows name the VRF of their table_id.
 *
 * Reconciliation
 * ==============
 *
 * Each zebra connection starts a new generation; every route and next-hop
 * object zebra sends is stamped with it.  fpmd_rib_reconcile() withdraws
 * what the current generation has not (re)announced: rows read from the
 * database at startup that zebra did not replay, and state from a
 * previous connection.  A route or a next-hop object is withdrawn the same
 * way whether zebra deletes it or reconciliation finds it stale.
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;
struct fpm_route;
struct fpmd_rib;
struct fpmd_route;
struct json;

/* Writes the name of interface 'ifindex' into 'buf' and returns 'buf'. */
typedef const char *fpmd_ifname_func(uint32_t ifindex, char *buf,
                                     size_t size);

/* Counters kept by the rib. */
struct fpmd_rib_stats {
    uint64_t route_add;         /* RTM_NEWROUTE handled. */
    uint64_t route_del;         /* RTM_DELROUTE handled. */
    uint64_t route_del_unknown; /* RTM_DELROUTE for a route not held. */
    uint64_t nh_add;            /* RTM_NEWNEXTHOP handled. */
    uint64_t nh_del;            /* RTM_DELNEXTHOP handled. */
    uint64_t nh_del_unknown;    /* RTM_DELNEXTHOP for an unknown id. */
    uint64_t nh_changed;        /* Next-hop objects whose resolved set
                                 * changed. */
    uint64_t routes_rewritten;  /* Route refreshes caused by a next-hop
                                 * object change. */
    uint64_t routes_detached;   /* Routes of an older zebra session moved
                                 * off a next-hop object that the current
                                 * one defines otherwise. */
    uint64_t vrf_created;       /* Vrf rows fpmsyncd asked to insert. */
    uint64_t load_routes;       /* Route rows read from the database. */
    uint64_t load_nhgs;         /* Nexthop_Group rows read. */
    uint64_t load_foreign;      /* Rows read whose UUID is not the
                                 * deterministic one. */
    uint64_t load_bad;          /* Rows read that could not be used. */
    uint64_t reconciles;        /* Reconciliations run. */
    uint64_t stale_routes;      /* Routes deleted by reconciliation. */
    uint64_t stale_nhgs;        /* Next-hop objects deleted by it. */
    uint64_t offload_sent;      /* Offload notifications asked for. */
    uint64_t status_rewrites;   /* Rows written again to delete their
                                 * stale status:offload (fpmsyncd-txn.c). */
    uint64_t offload_changed_back; /* Routes offloaded by their row's
                                 * offload (OVSDB path): changed back
                                 * before the change was written. */
    uint64_t txn_errors;        /* Transactions the database refused. */
    uint64_t del_deferred;      /* Route deletes deferred, in case their
                                 * add follows. */
    uint64_t del_merged;        /* ...whose add came: one change. */
    uint64_t del_alone;         /* ...carried out alone: another route's
                                 * message came, the wait ran out, or
                                 * zebra stopped or went. */
};

/* How long a route delete that ends zebra's input waits for an add of the
 * same route (see fpmd_rib_route()). */
#define FPMD_DEL_DEFER_MS 50

struct fpmd_rib *fpmd_rib_create(fpmd_ifname_func *);
void fpmd_rib_destroy(struct fpmd_rib *);

/* What changed of a route that the rib refreshed (fpmd_route_refresh()),
 * for its observers. */
struct fpmd_route_change {
    bool row_unchanged;         /* Its row holds its content already (and
                                 * a delete deferred for it is
                                 * cancelled). */
    bool asic_unchanged;        /* What orchd programs of it is unchanged:
                                 * 'row_unchanged', or the same as its
                                 * last refresh. */
    bool row_asic_same;         /* What orchd programs of its row (as of
                                 * 'row_asic_hash') is what it programs of
                                 * this content: 'row_unchanged', or a row
                                 * in the database with the same. */
};

/* A module above the rib that follows its routes, with 'aux' (see
 * fpmd_rib_observe()).  Each member may be NULL.  The rib calls its
 * observers in the order they registered, through these pointers only:
 * nothing is allocated for a call. */
struct fpmd_rib_observer {
    /* Route 'r' was just created (announced, or read from the
     * database). */
    void (*route_created)(struct fpmd_route *r, void *aux);

    /* Route 'r' was refreshed with its current content, which it may be
     * written with now: its row is queued if it changed. */
    void (*route_refreshed)(struct fpmd_route *r,
                            const struct fpmd_route_change *, void *aux);

    /* Route 'r' was withdrawn (by zebra, or by reconciliation): its row's
     * delete is queued.  Its delete may be deferred
     * (fpmd_rib_defers()). */
    void (*route_withdrawn)(struct fpmd_route *r, void *aux);

    /* The deferred delete of route 'r' went out alone: no add came, and
     * 'r' wants no row. */
    void (*route_delete_released)(struct fpmd_route *r, void *aux);

    /* Route 'r' is being freed. */
    void (*route_freed)(struct fpmd_route *r, void *aux);

    /* A database load starts, for each route 'r' held. */
    void (*load_begin)(struct fpmd_route *r, void *aux);

    /* The load read Route row 'row' (a JSON object) of route 'r'. */
    void (*load_route)(struct fpmd_route *r, const struct json *row,
                       void *aux);

    /* The rib is being destroyed: free 'aux' (routes are not freed one by
     * one). */
    void (*rib_destroyed)(void *aux);
};

/* Observers a rib holds at most. */
#define FPMD_RIB_MAX_OBSERVERS 4

void fpmd_rib_observe(struct fpmd_rib *, const struct fpmd_rib_observer *,
                      void *aux);
void fpmd_rib_unobserve(struct fpmd_rib *, const struct fpmd_rib_observer *);
void *fpmd_rib_observer_aux(const struct fpmd_rib *,
                            const struct fpmd_rib_observer *);

/* FPM input (next hops: fpmd_nh_input()). */
void fpmd_rib_route(struct fpmd_rib *, const struct fpm_route *);
bool fpmd_rib_route_hash(struct fpmd_rib *, const struct fpm_route *,
                         uint32_t *hash);
void fpmd_rib_prefetch(const struct fpmd_rib *, uint32_t hash, int depth);
const struct fpmd_route *fpmd_rib_deferred_del(const struct fpmd_rib *);
bool fpmd_rib_defers(const struct fpmd_rib *, const struct fpmd_route *);
bool fpmd_rib_rows_deferred(const struct fpmd_rib *);
void fpmd_rib_release_del(struct fpmd_rib *);
void fpmd_rib_expire_del(struct fpmd_rib *);
void fpmd_rib_deferred_del_wait(const struct fpmd_rib *);

/* Next-hop groups: resolved into Route.nexthops, or by id only. */
void fpmd_rib_set_resolve(struct fpmd_rib *, bool resolve);

/* Reconciliation. */
void fpmd_rib_new_generation(struct fpmd_rib *);
void fpmd_rib_reconcile(struct fpmd_rib *, size_t *n_routes,
                        size_t *n_nhgs);

/* The database load. */
void fpmd_rib_db_lost(struct fpmd_rib *);
void fpmd_rib_db_kept(struct fpmd_rib *);
bool fpmd_rib_is_loaded(const struct fpmd_rib *);
bool fpmd_rib_replay_pending(const struct fpmd_rib *);
struct json *fpmd_rib_load_nhg_params(void);
const char *fpmd_rib_load_route_columns(bool status);

/* The rows fpmd_rib_load_row() takes, in the order the load reads them. */
enum {
    FPMD_LOAD_NHG,              /* Nexthop_Group rows. */
    FPMD_LOAD_ROUTE,            /* Route rows. */
};

void fpmd_rib_load_begin(struct fpmd_rib *);
void fpmd_rib_load_row(struct fpmd_rib *, int select_idx, const struct json *);
void fpmd_rib_load_end(struct fpmd_rib *);

/* Writing (transactions: daemons/fpmsyncd/fpmsyncd-txn.h). */
size_t fpmd_rib_n_pending(const struct fpmd_rib *);
size_t fpmd_rib_n_inflight_ops(const struct fpmd_rib *);

/* Introspection. */
const struct fpmd_rib_stats *fpmd_rib_get_stats(const struct fpmd_rib *);
void fpmd_rib_format(const struct fpmd_rib *, struct ds *);
size_t fpmd_rib_n_routes(const struct fpmd_rib *);
size_t fpmd_rib_n_nexthops(const struct fpmd_rib *);

#endif /* fpmsyncd-rib.h */
