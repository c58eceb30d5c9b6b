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


/* The apply step's route operations, bulks and life cycle (see
 * daemons/syncd/syncd-apply.h); what routes point at is in syncd-nexthop.c. */

#include <config.h>

#include "daemons/syncd/syncd-apply.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "coverage.h"
#include "daemons/syncd/syncd-apply-private.h"
#include "lib/hmap-prefetch.h"
#include "lib/perf-timer.h"
#include "openvswitch/hmap.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd_apply);

COVERAGE_DEFINE(syncd_apply_bulk);
COVERAGE_DEFINE(syncd_apply_route_ok);
COVERAGE_DEFINE(syncd_apply_route_error);
COVERAGE_DEFINE(syncd_apply_noop);
COVERAGE_DEFINE(syncd_apply_orphan);

/* How often failed removals are retried, in milliseconds. */
#define ORPHAN_RETRY_MSEC 1000

/* The SAI call that an operation became. */
enum sa_sai_op {
    SA_OP_CREATE,
    SA_OP_REMOVE,
    SA_OP_SET,
};

/* A set that changes both of a route's attributes sets them one at a
 * time, so that a failure leaves the route as it was rather than half
 * changed: a route that will forward gets its next hop first, one that
 * will drop or trap stops forwarding first, and the second attribute is
 * set, in a second bulk of the flush, only if the first was. */
enum sa_deferred {
    SA_DEFER_NONE,              /* Nothing left for a second bulk. */
    SA_DEFER_ACTION,            /* PACKET_ACTION after NEXT_HOP_ID. */
    SA_DEFER_NH,                /* NEXT_HOP_ID after PACKET_ACTION. */
};

/* A queued operation. */
struct sa_op {
    struct hmap_node node;      /* In 'sa->pending', by (vr, prefix). */
    struct uuid origin;         /* As submitted. */
    int64_t seq;                /* As submitted. */
    struct fib_prefix prefix;   /* As submitted. */
    uint16_t vr;                /* VR index. */
    uint8_t type;               /* enum syncd_op_type. */
    uint8_t sai_op;             /* enum sa_sai_op. */
    uint8_t action;             /* New PACKET_ACTION (create, set). */
    bool internal;              /* An orphan retry: no result reported. */
    int set_nh;                 /* For SA_OP_SET: index of its NEXT_HOP_ID
                                 * entry in the set bulk, or -1. */
    int set_action;             /* Same for PACKET_ACTION. */
    uint8_t deferred;           /* For SA_OP_SET: an enum sa_deferred. */
    uint32_t bulk_idx;          /* Index in the create or remove bulk. */
    struct sa_target target;    /* New target (create, set), holding a
                                 * reference. */
    struct sa_route *route;     /* The route removed or changed. */
    sai_status_t status;        /* Outcome. */
};

/* A route whose removal failed, to retry. */
struct sa_orphan {
    uint16_t vr;                /* VR index. */
    struct fib_prefix prefix;   /* Destination. */
};

/* ---- Small helpers ------------------------------------------------------ */

/* Converts 'p' into SAI's address-and-mask form. */
void
syncd_prefix_to_sai(const struct fib_prefix *p, sai_ip_prefix_t *out)
{
    memset(out, 0, sizeof *out);
    if (p->family == AF_INET) {
        ovs_be32 a;

        memcpy(&a, p->addr, 4);
        sai_util_ip_prefix_init4(out, ntohl(a), p->len);
    } else {
        struct in6_addr a;

        memcpy(&a, p->addr, 16);
        sai_util_ip_prefix_init6(out, &a, p->len);
    }
}

static uint32_t
route_hash(uint16_t vr, const struct fib_prefix *prefix)
{
    return fib_prefix_hash(prefix, vr);
}

/* ---- Routes and operations ---------------------------------------------- */

static struct sa_route *
route_find(const struct syncd_apply *sa, uint16_t vr,
           const struct fib_prefix *prefix, uint32_t hash)
{
    struct sa_route *r;

    HMAP_FOR_EACH_WITH_HASH (r, node, hash, &sa->routes) {
        if (r->vr == vr && fib_prefix_equals(&r->prefix, prefix)) {
            return r;
        }
    }
    return NULL;
}

static bool
pending_has(const struct syncd_apply *sa, uint16_t vr,
            const struct fib_prefix *prefix, uint32_t hash)
{
    const struct sa_op *op;

    HMAP_FOR_EACH_WITH_HASH (op, node, hash, &sa->pending) {
        if (op->vr == vr && fib_prefix_equals(&op->prefix, prefix)) {
            return true;
        }
    }
    return false;
}

/* Reports an outcome, counting it. */
static void
report(struct syncd_apply *sa, const char *vrf, enum syncd_op_type type,
       const struct fib_prefix *prefix, const struct uuid *origin,
       int64_t seq, sai_status_t status, bool internal)
{
    if (status) {
        sa->stats.failed++;
        sa->stats.errors[syncd_status_code(status)]++;
        COVERAGE_INC(syncd_apply_route_error);
    } else {
        sa->stats.ok++;
        COVERAGE_INC(syncd_apply_route_ok);
    }
    if (!internal && sa->cb) {
        struct syncd_route_result r = {
            .type = type,
            .vrf = vrf,
            .prefix = prefix,
            .origin = origin,
            .seq = seq,
            .status = status,
        };
        sa->cb(&r, sa->cb_aux);
    }
}

/* Reports the outcome of 'sop' at once, from syncd_apply_submit(). */
static void
report_now(struct syncd_apply *sa, const struct syncd_route_op *sop,
           sai_status_t status, bool internal)
{
    report(sa, sop->vrf, sop->type, &sop->prefix, &sop->origin, sop->seq,
           status, internal);
}

static void
route_entry_init(const struct syncd_apply *sa, uint16_t vr,
                 const struct fib_prefix *prefix, sai_route_entry_t *e)
{
    e->switch_id = sa->sw;
    e->vr_id = sa->vr_array[vr]->oid;
    syncd_prefix_to_sai(prefix, &e->destination);
}

/* Queues a new operation for (vr, prefix) and returns it. */
static struct sa_op *
op_queue(struct syncd_apply *sa, const struct syncd_route_op *sop,
         uint16_t vr, uint32_t hash, enum sa_sai_op sai_op, bool internal)
{
    struct sa_op *op = &sa->ops[sa->n_ops++];

    op->origin = sop->origin;
    op->seq = sop->seq;
    op->prefix = sop->prefix;
    op->vr = vr;
    op->type = sop->type;
    op->sai_op = sai_op;
    op->action = sop->action;
    op->internal = internal;
    op->set_nh = op->set_action = -1;
    op->deferred = SA_DEFER_NONE;
    op->bulk_idx = 0;
    op->target.kind = SA_T_NONE;
    op->target.ptr = NULL;
    op->route = NULL;
    op->status = SAI_STATUS_NOT_EXECUTED;
    hmap_insert(&sa->pending, &op->node, hash);
    return op;
}

/* Flushes when one bulk is full. */
static void
maybe_flush(struct syncd_apply *sa)
{
    if (sa->n_c >= sa->max_bulk || sa->n_r >= sa->max_bulk
        || sa->n_s_ops >= sa->max_bulk) {
        syncd_apply_flush(sa);
    }
}

/* Queues the removal of the route that DEL operation 'sop' names, or
 * reports at once that there is none ('internal' for an orphan retry). */
static void
submit_del(struct syncd_apply *sa, const struct syncd_route_op *sop,
           bool internal)
{
    struct sa_vr *vr = syncd_nexthop_vr_find(sa, sop->vrf);

    if (!vr) {
        sa->stats.noops++;
        report_now(sa, sop, SAI_STATUS_SUCCESS, internal);
        return;
    }

    uint32_t hash = route_hash(vr->index, &sop->prefix);
    if (pending_has(sa, vr->index, &sop->prefix, hash)) {
        syncd_apply_flush(sa);
    }
    struct sa_route *route = route_find(sa, vr->index, &sop->prefix, hash);
    if (!route) {
        sa->stats.noops++;
        COVERAGE_INC(syncd_apply_noop);
        report_now(sa, sop, SAI_STATUS_SUCCESS, internal);
        return;
    }

    struct sa_op *op = op_queue(sa, sop, vr->index, hash, SA_OP_REMOVE,
                                internal);
    op->route = route;
    op->bulk_idx = sa->n_r;
    route_entry_init(sa, vr->index, &sop->prefix, &sa->r_entries[sa->n_r]);
    sa->r_ops[sa->n_r++] = op - sa->ops;
    maybe_flush(sa);
}

/* Appends to the set bulk the entry that sets attribute 'attr'
 * (NEXT_HOP_ID or PACKET_ACTION) of 'op''s route to its new value.
 * Returns its index. */
static int
put_set_attr(struct syncd_apply *sa, const struct sa_op *op,
             sai_attr_id_t attr)
{
    sai_attribute_t *a = &sa->s_attrs[sa->n_s];

    a->id = attr;
    if (attr == SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID) {
        a->value.oid = syncd_nexthop_target_oid(&op->target);
    } else {
        a->value.s32 = op->action;
    }
    route_entry_init(sa, op->vr, &op->prefix, &sa->s_entries[sa->n_s]);
    return sa->n_s++;
}

/* Resolves the next hops of SET operation 'sop' and queues the creation of
 * its route, or the attribute sets that change it; reports at once if
 * nothing changes or the next hops cannot be had. */
static void
submit_set(struct syncd_apply *sa, const struct syncd_route_op *sop)
{
    sai_status_t status = SAI_STATUS_SUCCESS;
    struct sa_vr *vr = syncd_nexthop_vr_get(sa, sop->vrf, &status);

    if (!vr) {
        report_now(sa, sop, status, false);
        return;
    }
    if (sop->action != SAI_PACKET_ACTION_FORWARD
        && sop->action != SAI_PACKET_ACTION_DROP
        && sop->action != SAI_PACKET_ACTION_TRAP) {
        report_now(sa, sop, SAI_STATUS_INVALID_PARAMETER, false);
        return;
    }

    uint32_t hash = route_hash(vr->index, &sop->prefix);
    if (pending_has(sa, vr->index, &sop->prefix, hash)) {
        syncd_apply_flush(sa);
    }

    struct sa_target t;
    status = syncd_nexthop_resolve(sa, vr, sop, &t);
    if (status) {
        report_now(sa, sop, status, false);
        return;
    }

    /* Look the route up only now: resolving may have flushed. */
    struct sa_route *route = route_find(sa, vr->index, &sop->prefix, hash);
    if (!route) {
        struct sa_op *op = op_queue(sa, sop, vr->index, hash, SA_OP_CREATE,
                                    false);
        sai_attribute_t *a = &sa->c_attrs[2 * sa->n_c];

        op->target = t;
        op->bulk_idx = sa->n_c;
        route_entry_init(sa, vr->index, &sop->prefix,
                         &sa->c_entries[sa->n_c]);
        a[0].id = SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION;
        a[0].value.s32 = sop->action;
        a[1].id = SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID;
        a[1].value.oid = syncd_nexthop_target_oid(&t);
        sa->c_attr_ptrs[sa->n_c] = a;
        sa->c_attr_count[sa->n_c] = 2;
        sa->c_ops[sa->n_c++] = op - sa->ops;
        maybe_flush(sa);
        return;
    }

    route->flags &= ~(SA_ROUTE_ORPHAN | SA_ROUTE_STALE);
    bool same_target = route->kind == t.kind && route->target == t.ptr;
    bool same_action = route->action == sop->action;
    if (same_target && same_action) {
        syncd_nexthop_target_unref(sa, &t);
        sa->stats.noops++;
        COVERAGE_INC(syncd_apply_noop);
        report_now(sa, sop, SAI_STATUS_SUCCESS, false);
        return;
    }

    struct sa_op *op = op_queue(sa, sop, vr->index, hash, SA_OP_SET, false);
    op->route = route;
    op->target = t;
    if (!same_target && !same_action) {
        op->deferred = (sop->action == SAI_PACKET_ACTION_FORWARD
                        ? SA_DEFER_ACTION : SA_DEFER_NH);
    }
    if (!same_target && op->deferred != SA_DEFER_NH) {
        op->set_nh = put_set_attr(sa, op, SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID);
    }
    if (!same_action && op->deferred != SA_DEFER_ACTION) {
        op->set_action = put_set_attr(sa, op,
                                      SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION);
    }
    sa->n_s_ops++;
    maybe_flush(sa);
}

static void
submit__(struct syncd_apply *sa, const struct syncd_route_op *op,
         bool internal)
{
    sa->stats.ops[op->type == SYNCD_OP_DEL]++;
    if (op->type == SYNCD_OP_DEL) {
        submit_del(sa, op, internal);
    } else {
        submit_set(sa, op);
    }
}

/* Submits route operation 'op'.  Its result comes through the result
 * callback: at once if no SAI route call is needed, otherwise from the
 * flush that sends its bulk.  Must not be called from the callback. */
void
syncd_apply_submit(struct syncd_apply *sa, const struct syncd_route_op *op)
{
    ovs_assert(!sa->flushing);
    submit__(sa, op, false);
}

/* Asks the CPU to bring in, ahead of submitting an operation on route
 * 'prefix' in VRF 'vrf', the hash bucket of the route table where the
 * route would be or, if 'chain', the first route the bucket points to
 * (known once the bucket is in): at a million routes each is a cache
 * miss, which a caller hides by asking for a group of routes' buckets,
 * then their chains, then submitting them.  Does nothing for a VRF not
 * known yet. */
void
syncd_apply_prefetch(const struct syncd_apply *sa, const char *vrf,
                     const struct fib_prefix *prefix, bool chain)
{
    const struct sa_vr *vr = syncd_nexthop_vr_find(sa, vrf);

    if (vr) {
        hmap_prefetch(&sa->routes, route_hash(vr->index, prefix), chain);
    }
}

/* Schedules syncd_apply_run()'s retry of failed removals, unless one is
 * scheduled already: call it after queueing one. */
static void
retry_later(struct syncd_apply *sa)
{
    if (sa->n_orphans + sa->n_stuck_nhgs == 1) {
        sa->next_retry = time_msec() + ORPHAN_RETRY_MSEC;
    }
}

/* Marks 'route', whose removal failed, for a later retry. */
static void
orphan_add(struct syncd_apply *sa, struct sa_route *route)
{
    if (!(route->flags & SA_ROUTE_ORPHAN)) {
        struct sa_orphan o = { .vr = route->vr, .prefix = route->prefix };

        route->flags |= SA_ROUTE_ORPHAN;
        APPEND(sa->orphans, sa->n_orphans, sa->allocated_orphans, o);
        retry_later(sa);
        sa->stats.orphans++;
        COVERAGE_INC(syncd_apply_orphan);
    }
}

static void
route_destroy(struct syncd_apply *sa, struct sa_route *route)
{
    struct sa_target t = { .kind = route->kind, .ptr = route->target };

    syncd_nexthop_target_unref(sa, &t);
    hmap_remove(&sa->routes, &route->node);
    free(route);
}

/* Sends the set bulk's entries from index 'first' on, if there are any. */
static void
set_bulk(struct syncd_apply *sa, uint32_t first)
{
    if (sa->n_s > first) {
        sa->route_api->set_route_entries_attribute(
            sa->n_s - first, &sa->s_entries[first], &sa->s_attrs[first],
            SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, &sa->s_statuses[first]);
        sa->stats.bulks[ASIC_SIM_OP_SET]++;
        sa->stats.route_ops[ASIC_SIM_OP_SET] += sa->n_s - first;
        COVERAGE_INC(syncd_apply_bulk);
    }
}

/* Sends the removal bulk, if there is one: a route removed (or already
 * gone) is forgotten, one whose removal failed is kept as an orphan to
 * remove again later. */
static void
flush_removals(struct syncd_apply *sa)
{
    if (!sa->n_r) {
        return;
    }
    sa->route_api->remove_route_entries(
        sa->n_r, sa->r_entries, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
        sa->r_statuses);
    sa->stats.bulks[ASIC_SIM_OP_REMOVE]++;
    sa->stats.route_ops[ASIC_SIM_OP_REMOVE] += sa->n_r;
    COVERAGE_INC(syncd_apply_bulk);
    for (uint32_t i = 0; i < sa->n_r; i++) {
        struct sa_op *op = &sa->ops[sa->r_ops[i]];

        op->status = sa->r_statuses[i];
        if (!op->status || op->status == SAI_STATUS_ITEM_NOT_FOUND) {
            route_destroy(sa, op->route);
            op->status = SAI_STATUS_SUCCESS;
        } else {
            orphan_add(sa, op->route);
        }
        op->route = NULL;
    }
}

/* Sends the creation bulk, if there is one: a route created joins
 * 'sa->routes' with its operation's target; a failed creation gives the
 * target's reference back. */
static void
flush_creations(struct syncd_apply *sa)
{
    if (!sa->n_c) {
        return;
    }
    sa->route_api->create_route_entries(
        sa->n_c, sa->c_entries, sa->c_attr_count, sa->c_attr_ptrs,
        SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, sa->c_statuses);
    sa->stats.bulks[ASIC_SIM_OP_CREATE]++;
    sa->stats.route_ops[ASIC_SIM_OP_CREATE] += sa->n_c;
    COVERAGE_INC(syncd_apply_bulk);
    for (uint32_t i = 0; i < sa->n_c; i++) {
        struct sa_op *op = &sa->ops[sa->c_ops[i]];

        op->status = sa->c_statuses[i];
        if (!op->status) {
            struct sa_route *r = xmalloc(sizeof *r);

            r->prefix = op->prefix;
            r->vr = op->vr;
            r->action = op->action;
            r->kind = op->target.kind;
            r->flags = 0;
            r->target = op->target.ptr;
            hmap_insert_sparse(&sa->routes, &r->node, op->node.hash);
        } else {
            syncd_nexthop_target_unref(sa, &op->target);
        }
        op->target.kind = SA_T_NONE;
    }
}

/* Sends the set bulk, then the second attributes of the routes whose
 * first was set (enum sa_deferred). */
static void
flush_set_bulks(struct syncd_apply *sa)
{
    set_bulk(sa, 0);
    uint32_t n_first = sa->n_s;
    for (size_t i = 0; i < sa->n_ops; i++) {
        struct sa_op *op = &sa->ops[i];

        if (op->sai_op != SA_OP_SET || op->deferred == SA_DEFER_NONE) {
            continue;
        } else if (op->deferred == SA_DEFER_ACTION) {
            if (!sa->s_statuses[op->set_nh]) {
                op->set_action = put_set_attr(
                    sa, op, SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION);
            }
        } else if (!sa->s_statuses[op->set_action]) {
            op->set_nh = put_set_attr(sa, op,
                                      SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID);
        }
    }
    set_bulk(sa, n_first);
}

/* Takes in the statuses of the attribute sets of attribute-set operation
 * 'op': its route gets what was set, and keeps what was not (the target
 * not taken gives its reference back); 'op->status' says the first
 * failure. */
static void
finish_set(struct syncd_apply *sa, struct sa_op *op)
{
    struct sa_route *r = op->route;

    op->status = SAI_STATUS_SUCCESS;
    if (op->set_nh >= 0) {
        sai_status_t st = sa->s_statuses[op->set_nh];

        if (!st) {
            struct sa_target old = { .kind = r->kind,
                                     .ptr = r->target };

            syncd_nexthop_target_unref(sa, &old);
            r->kind = op->target.kind;
            r->target = op->target.ptr;
        } else {
            syncd_nexthop_target_unref(sa, &op->target);
            op->status = st;
        }
    } else {
        syncd_nexthop_target_unref(sa, &op->target);
    }
    op->target.kind = SA_T_NONE;
    if (op->set_action >= 0) {
        sai_status_t st = sa->s_statuses[op->set_action];

        if (!st) {
            r->action = op->action;
        } else if (!op->status) {
            op->status = st;
        }
    }
}

/* Empties the queue and reports the result of each of its operations,
 * in submission order.  The queue is emptied first so that the callback
 * sees a consistent module. */
static void
report_all(struct syncd_apply *sa)
{
    size_t n_ops = sa->n_ops;

    sa->n_ops = 0;
    sa->n_c = sa->n_r = sa->n_s = sa->n_s_ops = 0;
    hmap_clear(&sa->pending);
    for (size_t i = 0; i < n_ops; i++) {
        const struct sa_op *op = &sa->ops[i];

        if (op->internal) {
            sa->stats.orphan_retries++;
        }
        report(sa, sa->vr_array[op->vr]->name, op->type, &op->prefix,
               &op->origin, op->seq, op->status, op->internal);
    }
}

/* Sends every queued operation to the switch, removals first, then
 * creations, then sets; reports their results; then removes next hops and
 * groups that lost their last user. */
void
syncd_apply_flush(struct syncd_apply *sa)
{
    if (sa->flushing) {
        return;
    }
    if (!sa->n_ops) {
        syncd_nexthop_gc(sa);
        return;
    }
    sa->flushing = true;

    long long int start = time_usec();
    if (sa->timer) {
        perf_timer_start(sa->timer);
    }

    flush_removals(sa);
    flush_creations(sa);
    flush_set_bulks(sa);
    for (size_t i = 0; i < sa->n_ops; i++) {
        if (sa->ops[i].sai_op == SA_OP_SET) {
            finish_set(sa, &sa->ops[i]);
        }
    }

    if (sa->n_r || sa->n_c || sa->n_s) {
        /* The routes are in the FIB now: what fibsync-bench's lag ends
         * with. */
        sa->stats.last_fib_change = time_wall_usec();
    }
    if (sa->timer) {
        perf_timer_inc(sa->timer, sa->n_ops);
        perf_timer_pause(sa->timer);
    }
    sa->stats.flushes++;
    sa->stats.busy_usec += time_usec() - start;

    report_all(sa);
    sa->flushing = false;

    syncd_nexthop_gc(sa);
}

/* Marks every route programmed as stale (the source of the routes
 * restarted and is about to say again what it wants): a later set of a
 * route confirms it, even one that changes nothing, and
 * syncd_apply_sweep_stale() removes the routes left unconfirmed.  Flushes
 * first.  Returns the number of routes marked. */
size_t
syncd_apply_mark_stale(struct syncd_apply *sa)
{
    struct sa_route *r;

    syncd_apply_flush(sa);
    HMAP_FOR_EACH (r, node, &sa->routes) {
        r->flags |= SA_ROUTE_STALE;
    }
    return hmap_count(&sa->routes);
}

/* Removes every route still stale since syncd_apply_mark_stale(),
 * reporting each removal (with a zero origin and seq 0) through the result
 * callback, and flushes.  Returns the number of routes removed. */
size_t
syncd_apply_sweep_stale(struct syncd_apply *sa)
{
    struct sa_orphan *stale = NULL;
    size_t n = 0, allocated = 0;
    struct sa_route *r;

    syncd_apply_flush(sa);
    HMAP_FOR_EACH (r, node, &sa->routes) {
        if (r->flags & SA_ROUTE_STALE) {
            struct sa_orphan o = { .vr = r->vr, .prefix = r->prefix };

            APPEND(stale, n, allocated, o);
        }
    }
    /* Removing while walking 'sa->routes' would change it underfoot. */
    for (size_t i = 0; i < n; i++) {
        struct syncd_route_op op = {
            .type = SYNCD_OP_DEL,
            .vrf = sa->vr_array[stale[i].vr]->name,
            .prefix = stale[i].prefix,
        };

        submit__(sa, &op, false);
    }
    free(stale);
    syncd_apply_flush(sa);
    return n;
}

/* Retries failed removals when it is time. */
void
syncd_apply_run(struct syncd_apply *sa)
{
    if ((!sa->n_orphans && !sa->n_stuck_nhgs)
        || time_msec() < sa->next_retry) {
        return;
    }

    struct sa_orphan *orphans = sa->orphans;
    size_t n = sa->n_orphans;
    sa->orphans = NULL;
    sa->n_orphans = sa->allocated_orphans = 0;
    for (size_t i = 0; i < n; i++) {
        const struct sa_orphan *o = &orphans[i];
        uint32_t hash = route_hash(o->vr, &o->prefix);
        struct sa_route *r = route_find(sa, o->vr, &o->prefix, hash);

        if (r && r->flags & SA_ROUTE_ORPHAN) {
            struct syncd_route_op op = {
                .type = SYNCD_OP_DEL,
                .vrf = sa->vr_array[o->vr]->name,
                .prefix = o->prefix,
            };

            r->flags &= ~SA_ROUTE_ORPHAN;
            submit__(sa, &op, true);
        }
    }
    free(orphans);
    syncd_apply_flush(sa);
    syncd_nexthop_retry_stuck(sa);
    if (sa->n_orphans || sa->n_stuck_nhgs) {
        sa->next_retry = time_msec() + ORPHAN_RETRY_MSEC;
    }
}

void
syncd_apply_wait(struct syncd_apply *sa)
{
    if (sa->n_orphans || sa->n_stuck_nhgs) {
        poll_timer_wait_until(sa->next_retry);
    }
}

/* ---- Lifecycle ---------------------------------------------------------- */

static void
alloc_bulks(struct syncd_apply *sa, uint32_t max_bulk)
{
    sa->max_bulk = max_bulk;
    sa->ops = xrealloc(sa->ops, 3 * max_bulk * sizeof *sa->ops);
    sa->c_entries = xrealloc(sa->c_entries,
                             max_bulk * sizeof *sa->c_entries);
    sa->c_attr_count = xrealloc(sa->c_attr_count,
                                max_bulk * sizeof *sa->c_attr_count);
    sa->c_attrs = xrealloc(sa->c_attrs, 2 * max_bulk * sizeof *sa->c_attrs);
    sa->c_attr_ptrs = xrealloc(sa->c_attr_ptrs,
                               max_bulk * sizeof *sa->c_attr_ptrs);
    sa->c_statuses = xrealloc(sa->c_statuses,
                              max_bulk * sizeof *sa->c_statuses);
    sa->c_ops = xrealloc(sa->c_ops, max_bulk * sizeof *sa->c_ops);
    sa->r_entries = xrealloc(sa->r_entries,
                             max_bulk * sizeof *sa->r_entries);
    sa->r_statuses = xrealloc(sa->r_statuses,
                              max_bulk * sizeof *sa->r_statuses);
    sa->r_ops = xrealloc(sa->r_ops, max_bulk * sizeof *sa->r_ops);
    sa->s_entries = xrealloc(sa->s_entries,
                             2 * max_bulk * sizeof *sa->s_entries);
    sa->s_attrs = xrealloc(sa->s_attrs, 2 * max_bulk * sizeof *sa->s_attrs);
    sa->s_statuses = xrealloc(sa->s_statuses,
                              2 * max_bulk * sizeof *sa->s_statuses);
}

static sai_status_t
query_apis(struct syncd_apply *sa)
{
    static const struct {
        sai_api_t api;
        size_t offset;
    } apis[] = {
#define API(ID, MEMBER) { ID, offsetof(struct syncd_apply, MEMBER) }
        API(SAI_API_SWITCH, switch_api),
        API(SAI_API_VIRTUAL_ROUTER, vr_api),
        API(SAI_API_ROUTER_INTERFACE, rif_api),
        API(SAI_API_NEXT_HOP, nh_api),
        API(SAI_API_NEXT_HOP_GROUP, nhg_api),
        API(SAI_API_ROUTE, route_api),
#undef API
    };

    for (size_t i = 0; i < ARRAY_SIZE(apis); i++) {
        void **p = (void **) ((char *) sa + apis[i].offset);
        sai_status_t status = sai_api_query(apis[i].api, p);

        if (status) {
            return status;
        }
    }
    return SAI_STATUS_SUCCESS;
}

/* syncd_nexthop_hooks's 'flush'. */
static void
nexthop_flush(void *sa)
{
    syncd_apply_flush(sa);
}

/* syncd_nexthop_hooks's 'retry_later'. */
static void
nexthop_retry_later(void *sa)
{
    retry_later(sa);
}

/* What syncd-nexthop.c asks of this file. */
static const struct syncd_nexthop_hooks nexthop_hooks = {
    .flush = nexthop_flush,
    .retry_later = nexthop_retry_later,
};

/* Creates an apply step with a new simulated switch configured by
 * 'options'.  Returns NULL and a malloc()'d message in '*errorp' if the
 * switch cannot be created. */
struct syncd_apply *
syncd_apply_create(const struct syncd_apply_options *options, char **errorp)
{
    struct syncd_apply *sa = xzalloc(sizeof *sa);
    sai_attribute_t attrs[ASIC_SIM_N_RESOURCES + 1];
    uint32_t n_attrs = 0;
    sai_status_t status;

    *errorp = NULL;

    /* The library may already be initialized, by another instance (tests)
     * or a host; that is fine. */
    sai_api_initialize(0, NULL);
    status = query_apis(sa);
    if (status) {
        *errorp = xasprintf("SAI API query failed: %s",
                            sai_util_status_name(status));
        free(sa);
        return NULL;
    }

    for (int i = 0; i < ASIC_SIM_N_RESOURCES; i++) {
        if (options->capacity[i]) {
            attrs[n_attrs].id = ASIC_SIM_SWITCH_ATTR_IPV4_ROUTE_CAPACITY + i;
            attrs[n_attrs].value.u32 = options->capacity[i];
            n_attrs++;
        }
    }
    if (options->n_ports) {
        attrs[n_attrs].id = ASIC_SIM_SWITCH_ATTR_PORT_NUMBER;
        attrs[n_attrs].value.u32 = options->n_ports;
        n_attrs++;
    }
    status = sa->switch_api->create_switch(&sa->sw, n_attrs, attrs);
    if (status) {
        *errorp = xasprintf("cannot create the switch: %s",
                            sai_util_status_name(status));
        free(sa);
        return NULL;
    }

    sai_attribute_t attr = { .id = SAI_SWITCH_ATTR_PORT_NUMBER };
    sa->switch_api->get_switch_attribute(sa->sw, 1, &attr);
    sa->n_ports = attr.value.u32;
    sa->ports = xcalloc(MAX(sa->n_ports, 1), sizeof *sa->ports);
    attr.id = SAI_SWITCH_ATTR_PORT_LIST;
    attr.value.objlist.count = sa->n_ports;
    attr.value.objlist.list = sa->ports;
    status = sa->switch_api->get_switch_attribute(sa->sw, 1, &attr);
    if (status || !sa->n_ports) {
        *errorp = xasprintf("cannot list the switch's ports: %s",
                            sai_util_status_name(status));
        sa->switch_api->remove_switch(sa->sw);
        free(sa->ports);
        free(sa);
        return NULL;
    }

    syncd_nexthop_init(sa, &nexthop_hooks, sa);
    hmap_init(&sa->routes);
    hmap_init(&sa->pending);
    alloc_bulks(sa, options->max_bulk ? options->max_bulk
                : SYNCD_APPLY_DEFAULT_MAX_BULK);
    sa->cb = options->cb;
    sa->cb_aux = options->cb_aux;
    sa->timer = options->timer;

    /* The default VRF always exists. */
    syncd_nexthop_vr_get(sa, "default", &status);
    return sa;
}

/* Destroys 'sa' and its switch.  Queued operations are dropped without
 * results. */
void
syncd_apply_destroy(struct syncd_apply *sa)
{
    if (!sa) {
        return;
    }

    sa->switch_api->remove_switch(sa->sw);

    struct sa_route *r;
    HMAP_FOR_EACH_POP (r, node, &sa->routes) {
        free(r);
    }
    syncd_nexthop_destroy(sa);
    hmap_destroy(&sa->routes);
    hmap_destroy(&sa->pending);
    free(sa->ports);
    free(sa->ops);
    free(sa->c_entries);
    free(sa->c_attr_count);
    free(sa->c_attrs);
    free(sa->c_attr_ptrs);
    free(sa->c_statuses);
    free(sa->c_ops);
    free(sa->r_entries);
    free(sa->r_statuses);
    free(sa->r_ops);
    free(sa->s_entries);
    free(sa->s_attrs);
    free(sa->s_statuses);
    free(sa->orphans);
    free(sa);
}

/* Sets the result callback. */
void
syncd_apply_set_callback(struct syncd_apply *sa, syncd_apply_result_cb *cb,
                         void *aux)
{
    sa->cb = cb;
    sa->cb_aux = aux;
}

/* Changes the maximum bulk size (flushing first). */
void
syncd_apply_set_max_bulk(struct syncd_apply *sa, uint32_t max_bulk)
{
    syncd_apply_flush(sa);
    alloc_bulks(sa, MAX(max_bulk, 1));
}
