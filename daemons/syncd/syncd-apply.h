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

#ifndef SYNCD_APPLY_H
#define SYNCD_APPLY_H 1

/* syncd-apply: syncd's apply step.  It turns route operations ("this VRF's
 * prefix should forward to these next hops", "remove this prefix") into
 * SAI calls on an in-process asic-sim switch, in bulks.
 *
 * Where operations come from is not its business: syncd's OVSDB monitor
 * (daemons/syncd/syncd-db.h) feeds it, so does the ZeroMQ fast path
 * (daemons/syncd/syncd-zmq.h), and the unit tests feed it directly.  Each
 * operation carries an opaque origin (a row uuid and a sequence number)
 * that comes back, with the SAI status, in a result callback.
 *
 * The step is implemented in three files: daemons/syncd/syncd-apply.c
 * (operations, bulks, life cycle), daemons/syncd/syncd-nexthop.c (the
 * objects below) and daemons/syncd/syncd-apply-show.c (what the step
 * shows of itself); daemons/syncd/syncd-apply-private.h holds what they
 * share.  syncd-nexthop.c never calls syncd-apply.c: it asks through the
 * hooks syncd-apply.c gives it.
 *
 * Objects
 * =======
 *
 * The module owns one switch and creates, on demand:
 *
 *   - a virtual router per VRF name ("default" is the switch's default
 *     virtual router), on the VRF's first use; never removed;
 *
 *   - a router interface per interface name (type PORT, on the front-panel
 *     ports in turn), in the virtual router of the first route that names
 *     it, and one unnamed interface per virtual router for gateways given
 *     without an interface; never removed;
 *
 *   - a next hop per (gateway, router interface), and a next-hop group per
 *     distinct set of (next hop, weight) members, with one member object
 *     per next hop carrying its weight.  Next hops and groups are shared
 *     by every route that uses them and reference counted; they are
 *     removed when the last route using them is gone (always after the
 *     route removals that released them).  A route with one next hop
 *     points at it directly; a connected route ("@IFNAME") points at the
 *     router interface; drop and trap routes point at nothing.
 *
 * Bulks
 * =====
 *
 * syncd_apply_submit() queues route creations, removals and attribute sets
 * in three SAI bulks (error mode IGNORE_ERROR, so routes fail one by one).
 * When one bulk reaches the maximum bulk size, or at syncd_apply_flush(),
 * the module calls the removals first (they free room), then the
 * creations, then the sets.  Operations on one (VRF, prefix) keep their
 * order: an operation on a prefix that already has one queued flushes the
 * queue first.  Results are reported in submission order at the end of a
 * flush; operations that need no SAI call (a set that changes nothing, a
 * removal of an absent route) or fail before one (a next hop that cannot
 * be created) are reported at once, from syncd_apply_submit().
 *
 * A set that changes both a route's next hop and its action is two
 * attribute sets, made one after the other in two bulks of the flush, the
 * second only if the first succeeded: the next hop first for a route that
 * will forward, the action first for one that will drop or trap.  A
 * failure then leaves the route as it was, or dropping where it was to
 * drop, never forwarding without a next hop.
 *
 * Resynchronization
 * =================
 *
 * A source that restarted says again, in full, what it wants.
 * syncd_apply_mark_stale() marks every route; each set of a route
 * confirms it (a set equal to what is programmed is still a no-op: nothing
 * is removed and added again); syncd_apply_sweep_stale() then removes the
 * routes nobody confirmed.
 *
 * A removal that fails with SAI_STATUS_FAILURE (for instance by fault
 * injection) leaves an "orphan" route that nobody wants; syncd_apply_run()
 * retries its removal every second until it succeeds or a new set for the
 * prefix adopts it.
 *
 * Thread safety: none; one thread owns a 'struct syncd_apply' (the
 * simulator is single-threaded too). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/sai.h"
#include "daemons/syncd/syncd-status.h"
#include "lib/fib-prefix.h"
#include "openvswitch/uuid.h"

struct ds;
struct json;
struct perf_timer;

/* Default most route entries in one SAI bulk call (syncd -k). */
#define SYNCD_APPLY_DEFAULT_MAX_BULK 1000

/* What an operation asks for. */
enum syncd_op_type {
    SYNCD_OP_SET,               /* Create or change the route. */
    SYNCD_OP_DEL,               /* Remove the route. */
};

/* One next hop of a route, as the source gives it: "GATEWAY@IFNAME",
 * "GATEWAY" or, for a directly connected route, "@IFNAME". */
struct syncd_nexthop {
    bool has_gateway;           /* False for a connected route. */
    sai_ip_address_t gateway;   /* The gateway, if 'has_gateway'. */
    const char *ifname;         /* Interface name, or "" (or NULL) for
                                 * none; not kept after the call. */
    uint32_t weight;            /* ECMP weight, at least 1. */
};

/* One route operation. */
struct syncd_route_op {
    enum syncd_op_type type;    /* Set or delete. */
    const char *vrf;            /* VRF name; not kept after the call. */
    struct fib_prefix prefix;   /* Destination. */

    /* SYNCD_OP_SET only. */
    sai_packet_action_t action; /* FORWARD, DROP or TRAP. */
    const struct syncd_nexthop *nexthops; /* Next hops, for FORWARD; not
                                           * kept after the call. */
    size_t n_nexthops;          /* Number of 'nexthops'. */

    /* Opaque to this module: passed back in the result. */
    struct uuid origin;         /* Where the operation came from. */
    int64_t seq;                /* Its sequence number there. */
};

/* The outcome of one operation. */
struct syncd_route_result {
    enum syncd_op_type type;    /* As submitted. */
    const char *vrf;            /* As submitted; valid during the call. */
    const struct fib_prefix *prefix; /* As submitted. */
    const struct uuid *origin;  /* As submitted. */
    int64_t seq;                /* As submitted. */
    sai_status_t status;        /* SAI_STATUS_SUCCESS or why it failed. */
};

/* Called with each result.  It must not call back into the module. */
typedef void syncd_apply_result_cb(const struct syncd_route_result *,
                                   void *aux);

/* Options for syncd_apply_create().  Zero-initialize, then set what you
 * need. */
struct syncd_apply_options {
    uint32_t max_bulk;          /* Most entries per bulk call; 0 for
                                 * SYNCD_APPLY_DEFAULT_MAX_BULK. */
    uint32_t capacity[ASIC_SIM_N_RESOURCES]; /* Capacities; 0 keeps the
                                              * simulator's default. */
    uint32_t n_ports;           /* Front-panel ports; 0 for the default. */
    syncd_apply_result_cb *cb;  /* Result callback, may be NULL. */
    void *cb_aux;               /* Passed to 'cb'. */
    struct perf_timer *timer;   /* If nonnull, every flush is measured on
                                 * it (the "BULK" stage). */
};

/* Counters. */
struct syncd_apply_stats {
    uint64_t ops[2];            /* Operations submitted, by type. */
    uint64_t noops;             /* Of those, needing no SAI call. */
    uint64_t ok;                /* Operations that succeeded. */
    uint64_t failed;            /* Operations that failed. */
    uint64_t route_ops[3];      /* Route entries sent in bulks: creates,
                                 * removes, sets (ASIC_SIM_OP_*). */
    uint64_t bulks[3];          /* Bulk calls, same order. */
    uint64_t flushes;           /* Flushes that made bulk calls. */
    uint64_t busy_usec;         /* Time spent in flushes. */
    long long int last_fib_change; /* Wall clock (usec since the epoch)
                                    * when the last bulk call that changed
                                    * a route returned, 0 if none. */
    uint64_t nh_created;        /* Next hops created... */
    uint64_t nh_removed;        /* ...and removed. */
    uint64_t nhg_created;       /* Next-hop groups created... */
    uint64_t nhg_removed;       /* ...and removed. */
    uint64_t orphans;           /* Removals that failed and were queued
                                 * for retry. */
    uint64_t orphan_retries;    /* Retried removals. */
    uint64_t nhg_stuck;         /* Next-hop groups whose removal failed
                                 * part way, set aside and retried. */
    uint64_t errors[32];        /* Failed operations by status code
                                 * (daemons/syncd/syncd-status.h). */
};

struct syncd_apply *syncd_apply_create(const struct syncd_apply_options *,
                                       char **errorp);
void syncd_apply_destroy(struct syncd_apply *);
void syncd_apply_set_callback(struct syncd_apply *, syncd_apply_result_cb *,
                              void *aux);
void syncd_apply_set_max_bulk(struct syncd_apply *, uint32_t max_bulk);

void syncd_apply_submit(struct syncd_apply *, const struct syncd_route_op *);
void syncd_apply_prefetch(const struct syncd_apply *, const char *vrf,
                          const struct fib_prefix *, bool chain);
void syncd_apply_flush(struct syncd_apply *);
size_t syncd_apply_mark_stale(struct syncd_apply *);
size_t syncd_apply_sweep_stale(struct syncd_apply *);
size_t syncd_apply_n_pending(const struct syncd_apply *);
void syncd_apply_run(struct syncd_apply *);
void syncd_apply_wait(struct syncd_apply *);

/* Introspection, for syncd's commands and the tests. */
sai_object_id_t syncd_apply_switch_id(const struct syncd_apply *);
sai_object_id_t syncd_apply_vr_find(const struct syncd_apply *,
                                    const char *vrf);
sai_status_t syncd_apply_vr_get(struct syncd_apply *, const char *vrf,
                                sai_object_id_t *vr_id);
size_t syncd_apply_n_vrs(const struct syncd_apply *);
const char *syncd_apply_vr_name(const struct syncd_apply *, size_t i,
                                sai_object_id_t *vr_id);
size_t syncd_apply_n_routes(const struct syncd_apply *);

/* Called with each route by syncd_apply_for_each_route(). */
typedef void syncd_apply_route_cb(const struct syncd_route_op *, void *aux);
void syncd_apply_for_each_route(const struct syncd_apply *,
                                syncd_apply_route_cb *, void *aux);
void syncd_apply_get_stats(const struct syncd_apply *,
                           struct syncd_apply_stats *);
void syncd_apply_format_nexthop(const struct syncd_apply *,
                                const struct asic_sim_nexthop *,
                                struct ds *);
void syncd_apply_format_target(const struct syncd_apply *,
                               sai_object_id_t next_hop_id, struct ds *);
struct json *syncd_apply_target_to_json(const struct syncd_apply *,
                                        sai_object_id_t next_hop_id);

/* Conversions. */
void syncd_prefix_to_sai(const struct fib_prefix *, sai_ip_prefix_t *);
const char *syncd_action_name(sai_packet_action_t);

#endif /* syncd-apply.h */
