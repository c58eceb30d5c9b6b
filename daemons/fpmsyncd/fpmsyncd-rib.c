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

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-rib.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "daemons/fpmsyncd/fpmsyncd-rib-rows.h"
#include "hash.h"
#include "lib/fpm-route-format.h"
#include "lib/hmap-prefetch.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/poll-loop.h"
#include "timeval.h"
#include "util.h"

/* Routes. */

static uint32_t
route_hash_key(uint16_t vrf, const struct fib_prefix *prefix)
{
    return fib_prefix_hash(prefix, vrf);
}

/* The hash under which the route table holds (or would hold) the route to
 * 'prefix' in the VRF at index 'vrf', for fpmd_rib_prefetch(). */
uint32_t
fpmd_route_hash(uint16_t vrf, const struct fib_prefix *prefix)
{
    return route_hash_key(vrf, prefix);
}

struct fpmd_route *
fpmd_route_find(const struct fpmd_rib *rib, uint16_t vrf,
                const struct fib_prefix *prefix)
{
    struct fpmd_route *r;

    HMAP_FOR_EACH_WITH_HASH (r, node, route_hash_key(vrf, prefix),
                             &rib->routes) {
        if (r->vrf == vrf && fib_prefix_equals(&r->prefix, prefix)) {
            return r;
        }
    }
    return NULL;
}

/* Creates the route to 'prefix' in 'vrf', which the rib does not hold,
 * with no content yet. */
struct fpmd_route *
fpmd_route_create(struct fpmd_rib *rib, struct fpmd_vrf *vrf,
                  const struct fib_prefix *prefix)
{
    struct fpmd_route *r = xzalloc(sizeof *r);

    route_batch_entry_init(&r->be);
    r->be.tag = FPMD_ROUTE;
    r->prefix = *prefix;
    r->vrf = vrf->idx;
    hmap_insert(&rib->routes, &r->node, route_hash_key(vrf->idx, prefix));
    vrf->n_routes++;
    FPMD_RIB_NOTIFY(rib, route_created, r);
    return r;
}

/* Points 'r' at next-hop object 'nh' (may be NULL). */
static void
route_set_nh(struct fpmd_rib *rib, struct fpmd_route *r, struct fpmd_nh *nh)
{
    struct fpmd_nh *old = r->nh;

    if (old == nh) {
        return;
    }
    /* Unlink from the old object before linking to the new one: both use
     * 'r->nh_node'. */
    if (old) {
        ovs_list_remove(&r->nh_node);
        old->n_routes--;
    }
    if (nh) {
        ovs_list_push_back(&nh->routes, &r->nh_node);
        nh->n_routes++;
    }
    r->nh = nh;
    if (old) {
        fpmd_nh_maybe_free(rib, old);
    }
}

static void defer_end(struct fpmd_rib *, bool merged);

/* Frees 'r' and unlinks it from everything. */
static void
route_free(struct fpmd_rib *rib, struct fpmd_route *r)
{
    if (r == rib->del_deferred) {
        defer_end(rib, false);
    }
    FPMD_RIB_NOTIFY(rib, route_freed, r);
    fpmd_rib_forget_foreign(rib, &r->be);
    route_set_nh(rib, r, NULL);
    fpmd_vrf_get(&rib->vrfs, r->vrf)->n_routes--;
    hmap_remove(&rib->routes, &r->node);
    free(r);
}

/* Returns the content hash of a Route row with these columns. */
uint32_t
fpmd_route_row_hash(const char *protocol, uint32_t metric, uint32_t nhg_id,
               bool blackhole, uint32_t members_hash)
{
    uint32_t h = hash_string(protocol, 0);

    h = hash_int(metric, h);
    h = hash_int(nhg_id, h);
    h = hash_int(blackhole, h);
    return hash_int(members_hash, h);
}

/* Returns the content hash of the Route row that 'r' is written as. */
static uint32_t
route_content_hash(const struct fpmd_rib *rib, const struct fpmd_route *r)
{
    char buf[ROUTE_KEY_PROTO_NAMELEN];
    const struct fpmd_nhset *set = fpmd_route_written_set(rib, r);
    bool blackhole = fpmd_route_is_blackhole(r);
    uint32_t members_hash = set ? set->hash : fpmd_nhset_hash(NULL, 0);

    return fpmd_route_row_hash(fpmd_route_protocol(r, buf), r->metric,
                          r->nh ? r->nh->id : 0, blackhole, members_hash);
}

/* Returns the hash of what orchd programs of 'r': whether it drops, and
 * its resolved next hops. */
static uint32_t
route_asic_hash(const struct fpmd_route *r)
{
    const struct fpmd_nhset *set = fpmd_route_set(r);
    uint32_t members_hash = set ? set->hash : fpmd_nhset_hash(NULL, 0);

    return hash_int(fpmd_route_is_blackhole(r), members_hash);
}

/* Queues 'r''s row with its current content, if it can be written, and
 * 'r' for the fast path if orchd may not have that content.
 *
 * zebra (re)announced 'r' (or its next hops changed), and with FIB
 * suppression it waits for an offload notification of each announcement.
 * One is sent at once (by the observer fpmsyncd-offload.c, told what
 * changed) if 'r' is offloaded and what orchd programs of it is
 * unchanged: a replay, a path change merged with its deferred delete into
 * no change, a new protocol or metric.  orchd sends no result for those,
 * so nothing else would.  On the OVSDB path "unchanged" is measured
 * against what the row holds (row_asic_hash), so that a route changed back
 * before the change left fpmsyncd (A, B, A' with B still queued here) is
 * answered by its row's offload, which still holds: orchd, which never
 * saw B, answers nothing.  (On the fast path fpmsyncd asks orchd to
 * answer: fpmsyncd-zmq.c.)  Otherwise 'r' waits for orchd's result for
 * its new content (on the OVSDB path, for status:offload written
 * again). */
void
fpmd_route_refresh(struct fpmd_rib *rib, struct fpmd_route *r)
{
    struct fpmd_route_change c;
    uint32_t hash, asic_hash;

    if (!fpmd_route_writable(r)) {
        return;
    }
    hash = route_content_hash(rib, r);
    asic_hash = route_asic_hash(r);
    /* A delete deferred for 'r' is cancelled by this add. */
    c.row_unchanged = (r->be.db == ROUTE_BATCH_DB_PRESENT
                       && r->be.db_hash == hash
                       && (!r->be.queued || fpmd_rib_defers(rib, r)));
    c.asic_unchanged = c.row_unchanged || asic_hash == r->asic_hash;
    /* On the OVSDB path what counts is what orchd programs from the row:
     * zebra may have announced other content in between that never left
     * fpmsyncd (A, B, A' with B still queued). */
    c.row_asic_same = (c.row_unchanged
                       || (r->be.db == ROUTE_BATCH_DB_PRESENT
                           && asic_hash == r->row_asic_hash));
    r->asic_hash = asic_hash;
    if (c.row_unchanged) {
        r->row_asic_hash = asic_hash;
    }

    route_batch_set(&rib->batch, &r->be, hash);
    FPMD_RIB_NOTIFY(rib, route_refreshed, r, &c);
}

/* Moves 'r' onto next-hop object 'nh' and writes it again. */
void
fpmd_route_move(struct fpmd_rib *rib, struct fpmd_route *r,
                struct fpmd_nh *nh)
{
    route_set_nh(rib, r, nh);
    fpmd_route_refresh(rib, r);
}

/* Frees 'r' if nothing needs it any more: no row to write, no next hops,
 * not queued for the fast path nor for a status write. */
void
fpmd_route_maybe_free(struct fpmd_rib *rib, struct fpmd_route *r)
{
    if (route_batch_entry_is_idle(&r->be) && !r->nh
        && !(r->be.flags & FPMD_F_ZMQ_QUEUED) && !r->status_queued) {
        route_free(rib, r);
    }
}

/* Stores in '*hash' the hash under which the route table holds (or would
 * hold) 'fr''s route, for fpmd_rib_prefetch(), and returns true; returns
 * false for a table that has no VRF yet. */
bool
fpmd_rib_route_hash(struct fpmd_rib *rib, const struct fpm_route *fr,
                    uint32_t *hash)
{
    struct fpmd_vrf *vrf = fpmd_vrf_by_table(&rib->vrfs, fr->table);
    struct fib_prefix prefix;

    if (!vrf) {
        return false;
    }
    fib_prefix_init(&prefix, fr->prefix.family, fr->prefix.addr,
                    fr->prefix.len);
    *hash = route_hash_key(vrf->idx, &prefix);
    return true;
}

/* Asks the CPU, ahead of fpmd_rib_route() of a route whose
 * fpmd_rib_route_hash() is 'hash', for the bucket of the route table where
 * the route is or would be (depth 0), or for the route 'depth' steps down
 * that bucket's chain (lib/hmap-prefetch.h). */
void
fpmd_rib_prefetch(const struct fpmd_rib *rib, uint32_t hash, int depth)
{
    hmap_prefetch(&rib->routes, hash, depth);
}

/* Withdraws 'r', because zebra deleted it or because reconciliation found
 * it stale: its row is deleted (and orchd told, on the fast path), and
 * 'r' is freed once nothing is left to write or send for it. */
static void
route_withdraw(struct fpmd_rib *rib, struct fpmd_route *r)
{
    route_set_nh(rib, r, NULL);
    r->be.flags &= ~FPMD_F_NO_CONTENT;
    route_batch_del(&rib->batch, &r->be);
    FPMD_RIB_NOTIFY(rib, route_withdrawn, r);
    fpmd_route_maybe_free(rib, r);
}

/* Handles RTM_NEWROUTE 'fr' for 'prefix'. */
static void
route_add(struct fpmd_rib *rib, const struct fpm_route *fr,
          const struct fib_prefix *prefix)
{
    struct fpmd_vrf *vrf = fpmd_vrf_for_table(rib, fr->table);
    struct fpmd_route *r = fpmd_route_find(rib, vrf->idx, prefix);

    if (!r) {
        r = fpmd_route_create(rib, vrf, prefix);
    }
    r->be.flags &= ~FPMD_F_NO_CONTENT;
    r->protocol = fr->protocol;
    r->type = fr->type;
    r->metric = fr->metric;
    r->gen = rib->gen;
    if (fr->type != FPM_ROUTE_UNICAST && !fr->nhg_id) {
        route_set_nh(rib, r, NULL);
    } else if (fr->nhg_id) {
        route_set_nh(rib, r, fpmd_nh_get(rib, fr->nhg_id));
    } else if (fr->n_nexthops) {
        route_set_nh(rib, r, fpmd_nh_intern(rib, fr->nexthops,
                                            fr->n_nexthops));
    } else {
        route_set_nh(rib, r, NULL);
    }
    fpmd_route_refresh(rib, r);
}

/* Deferred delete.
 *
 * zebra sends a path change as an RTM_DELROUTE followed by an RTM_NEWROUTE
 * of the same route, written together, but FPM frames and TCP segments can
 * fall between the two.  If fpmsyncd wrote or sent the delete as soon as it
 * read it, the route would leave the ASIC and come back: a drop of its
 * traffic for a change that only replaced its next hops.  So the delete of
 * the last route message read is deferred: the Route write-behind and the
 * frames to orchd stop in front of it, and the add, if it comes within
 * FPMD_DEL_DEFER_MS, turns the two into one change.  The next message for
 * any other route, the end of the wait, a pause of the input for
 * back-pressure and the loss of zebra all release it.  Only the last route
 * message can be waiting for its pair, so at most one route is deferred;
 * everything queued before it goes out meanwhile. */

/* Ends the deferral of 'rib->del_deferred', if any, as merged (its add
 * came) or not. */
static void
defer_end(struct fpmd_rib *rib, bool merged)
{
    if (rib->del_deferred) {
        if (merged) {
            rib->stats.del_merged++;
        } else {
            rib->stats.del_alone++;
        }
        if (!merged && !rib->del_deferred->be.want) {
            FPMD_RIB_NOTIFY(rib, route_delete_released, rib->del_deferred);
        }
        rib->del_deferred = NULL;
        route_batch_defer(&rib->batch, NULL);
    }
}

/* Defers the delete of 'r', which zebra just withdrew. */
static void
defer_start(struct fpmd_rib *rib, struct fpmd_route *r)
{
    defer_end(rib, false);
    rib->del_deferred = r;
    rib->del_deferred_until = time_msec() + FPMD_DEL_DEFER_MS;
    rib->stats.del_deferred++;
    route_batch_defer(&rib->batch, &r->be);
}

/* Returns the route whose delete is deferred now, or NULL if none. */
const struct fpmd_route *
fpmd_rib_deferred_del(const struct fpmd_rib *rib)
{
    return rib->del_deferred;
}

/* Ends the deferral of a delete whose wait has run out.  Only the FPM
 * reader calls it, once it has read everything zebra sent: an add that
 * reached the socket in time but was read late (fpmsyncd not scheduled
 * for the whole wait, as on a loaded machine) still merges. */
void
fpmd_rib_expire_del(struct fpmd_rib *rib)
{
    if (rib->del_deferred && time_msec() >= rib->del_deferred_until) {
        defer_end(rib, false);
    }
}

/* Returns true if 'r' is the route whose delete is deferred: writers and
 * senders stop in front of it. */
bool
fpmd_rib_defers(const struct fpmd_rib *rib, const struct fpmd_route *r)
{
    return r && r == rib->del_deferred;
}

/* Returns true if the next Route write-behind transaction would start with
 * the deferred delete: there is nothing to write until its wait ends. */
bool
fpmd_rib_rows_deferred(const struct fpmd_rib *rib)
{
    return rib->del_deferred && route_batch_front_is_deferred(&rib->batch);
}

/* Carries out the deferred delete now, if any: no add is coming (zebra's
 * input paused or ended). */
void
fpmd_rib_release_del(struct fpmd_rib *rib)
{
    defer_end(rib, false);
}

/* Wakes the main loop when the deferred delete's wait runs out. */
void
fpmd_rib_deferred_del_wait(const struct fpmd_rib *rib)
{
    if (rib->del_deferred) {
        poll_timer_wait_until(rib->del_deferred_until);
    }
}

/* Handles RTM_NEWROUTE or RTM_DELROUTE 'fr'. */
void
fpmd_rib_route(struct fpmd_rib *rib, const struct fpm_route *fr)
{
    struct fib_prefix prefix;
    struct fpmd_route *r;
    struct fpmd_vrf *vrf;

    fib_prefix_init(&prefix, fr->prefix.family, fr->prefix.addr,
                    fr->prefix.len);
    if (fr->op != FPM_OP_DEL) {
        rib->stats.route_add++;
        route_add(rib, fr, &prefix);
        defer_end(rib, rib->del_deferred && rib->del_deferred->be.want);
        return;
    }
    rib->stats.route_del++;
    vrf = fpmd_vrf_by_table(&rib->vrfs, fr->table);
    r = vrf ? fpmd_route_find(rib, vrf->idx, &prefix) : NULL;
    if (!r) {
        rib->stats.route_del_unknown++;
        defer_end(rib, false);
        return;
    }
    r->gen = rib->gen;
    /* Deferred only if a delete is to be written or sent, which also keeps
     * 'r' queued, so not freed, by route_withdraw(): a route that never
     * reached the database or orchd is cancelled, or freed. */
    if (r->be.db != ROUTE_BATCH_DB_ABSENT || r->be.flags & FPMD_F_ZMQ_SENT) {
        defer_start(rib, r);
    } else {
        defer_end(rib, false);
    }
    route_withdraw(rib, r);
}

/* Chooses whether the routes that use a zebra next-hop group carry its
 * members in Route.nexthops ('resolve') or only its id in
 * Route.nexthop_group, and rewrites the routes whose row changes. */
void
fpmd_rib_set_resolve(struct fpmd_rib *rib, bool resolve)
{
    struct fpmd_route *r;

    if (rib->resolve == resolve) {
        return;
    }
    rib->resolve = resolve;
    HMAP_FOR_EACH (r, node, &rib->routes) {
        if (r->nh && r->nh->id) {
            fpmd_route_refresh(rib, r);
        }
    }
}

/* Generations and reconciliation. */

/* Starts a new generation: zebra (re)connected and will replay its
 * table. */
void
fpmd_rib_new_generation(struct fpmd_rib *rib)
{
    rib->gen++;
}

/* Withdraws every route and next-hop object that the current generation
 * did not announce, and stores how many in '*n_routes' and '*n_nhgs'. */
void
fpmd_rib_reconcile(struct fpmd_rib *rib, size_t *n_routes, size_t *n_nhgs)
{
    struct fpmd_route *r;

    *n_routes = 0;
    rib->stats.reconciles++;
    HMAP_FOR_EACH_SAFE (r, node, &rib->routes) {
        if (r->gen != rib->gen && (r->be.want || r->nh)) {
            (*n_routes)++;
            route_withdraw(rib, r);
        }
    }
    *n_nhgs = fpmd_nh_reconcile(rib);
    rib->replay_pending = false;
    rib->stats.stale_routes += *n_routes;
    rib->stats.stale_nhgs += *n_nhgs;
}

/* The batcher's callbacks. */

/* Frees the object of entry 'e', which needs no write any more, unless
 * something still refers to it. */
static void
rib_idle_cb(struct route_batch_entry *e, void *rib_)
{
    struct fpmd_rib *rib = rib_;

    switch ((enum fpmd_kind) e->tag) {
    case FPMD_ROUTE:
        fpmd_route_maybe_free(rib, CONTAINER_OF(e, struct fpmd_route, be));
        break;
    case FPMD_NH:
        fpmd_nh_maybe_free(rib, CONTAINER_OF(e, struct fpmd_nh, be));
        break;
    case FPMD_VRF:
        break;
    }
}

/* Returns true if the row of entry 'e' can be written now. */
static bool
rib_writable_cb(const struct route_batch_entry *e, void *rib_ OVS_UNUSED)
{
    switch ((enum fpmd_kind) e->tag) {
    case FPMD_ROUTE:
        return fpmd_route_writable(CONTAINER_OF(e, struct fpmd_route,
                                                be));
    case FPMD_NH:
        return fpmd_nh_writable(CONTAINER_OF(e, struct fpmd_nh, be));
    case FPMD_VRF:
        return true;
    }
    return false;
}

/* Creation. */

/* Creates an empty rib that names interfaces with 'ifname'. */
struct fpmd_rib *
fpmd_rib_create(fpmd_ifname_func *ifname)
{
    struct fpmd_rib *rib = xzalloc(sizeof *rib);

    hmap_init(&rib->routes);
    fpmd_nh_table_init(&rib->nhs, fpmd_route_refresh, fpmd_route_move);
    fpmd_vrf_table_init(&rib->vrfs);
    hmap_init(&rib->foreign);
    route_batch_init(&rib->batch, rib_idle_cb, rib_writable_cb, rib);
    rib->ifname = ifname ? ifname : fpm_ifindex_to_name;
    rib->resolve = true;
    return rib;
}

void
fpmd_rib_destroy(struct fpmd_rib *rib)
{
    struct fpmd_route *r;

    if (!rib) {
        return;
    }
    route_batch_destroy(&rib->batch);
    for (size_t i = 0; i < rib->n_observers; i++) {
        const struct fpmd_rib_watch *w = &rib->observers[i];

        if (w->ob->rib_destroyed) {
            w->ob->rib_destroyed(w->aux);
        }
    }
    HMAP_FOR_EACH_POP (r, node, &rib->routes) {
        free(r);
    }
    hmap_destroy(&rib->routes);
    fpmd_nh_table_destroy(&rib->nhs);
    fpmd_rib_foreign_destroy(&rib->foreign);
    fpmd_vrf_table_destroy(&rib->vrfs);
    free(rib);
}

/* Observers. */

/* Registers 'ob' to be told, with 'aux', of each change to the routes of
 * 'rib', after the observers registered before it. */
void
fpmd_rib_observe(struct fpmd_rib *rib, const struct fpmd_rib_observer *ob,
                 void *aux)
{
    ovs_assert(rib->n_observers < FPMD_RIB_MAX_OBSERVERS);
    ovs_assert(!fpmd_rib_observer_aux(rib, ob));
    rib->observers[rib->n_observers].ob = ob;
    rib->observers[rib->n_observers].aux = aux;
    rib->n_observers++;
}

/* Unregisters 'ob', if it is registered. */
void
fpmd_rib_unobserve(struct fpmd_rib *rib, const struct fpmd_rib_observer *ob)
{
    for (size_t i = 0; i < rib->n_observers; i++) {
        if (rib->observers[i].ob == ob) {
            memmove(&rib->observers[i], &rib->observers[i + 1],
                    (rib->n_observers - i - 1) * sizeof *rib->observers);
            rib->n_observers--;
            return;
        }
    }
}

/* Returns the 'aux' that 'ob' registered with, or NULL if it is not
 * registered: how an observer finds its state from the rib. */
void *
fpmd_rib_observer_aux(const struct fpmd_rib *rib,
                      const struct fpmd_rib_observer *ob)
{
    for (size_t i = 0; i < rib->n_observers; i++) {
        if (rib->observers[i].ob == ob) {
            return rib->observers[i].aux;
        }
    }
    return NULL;
}

/* Writing. */

size_t
fpmd_rib_n_pending(const struct fpmd_rib *rib)
{
    return route_batch_n_pending(&rib->batch);
}

size_t
fpmd_rib_n_inflight_ops(const struct fpmd_rib *rib)
{
    return rib->batch.rq.n_inflight_ops;
}

/* Introspection. */

const struct fpmd_rib_stats *
fpmd_rib_get_stats(const struct fpmd_rib *rib)
{
    return &rib->stats;
}

size_t
fpmd_rib_n_routes(const struct fpmd_rib *rib)
{
    return hmap_count(&rib->routes);
}

size_t
fpmd_rib_n_nexthops(const struct fpmd_rib *rib)
{
    return hmap_count(&rib->nhs.ids);
}

/* Appends a description of the rib's state to 's', a line per item. */
void
fpmd_rib_format(const struct fpmd_rib *rib, struct ds *s)
{
    const struct fpmd_rib_stats *st = &rib->stats;
    const struct route_batch_stats *bs = &rib->batch.stats;
    struct fpmd_nh_counts nc;

    fpmd_nh_count(rib, &nc);
    ds_put_format(s, "routes: %"PRIuSIZE" held (%"PRIuSIZE" waiting for a "
                  "next-hop group)\n", hmap_count(&rib->routes),
                  nc.n_waiting);
    ds_put_format(s, "next-hop objects: %"PRIuSIZE" defined, %"PRIuSIZE
                  " waiting for members, %"PRIuSIZE" inline sets\n",
                  nc.n_defined, nc.n_unresolved, nc.n_anon);
    fpmd_vrf_format(&rib->vrfs, s);
    ds_put_format(s, "fpm input: routes added %"PRIu64" deleted %"PRIu64
                  " (unknown %"PRIu64"), next hops added %"PRIu64
                  " deleted %"PRIu64" (unknown %"PRIu64")\n",
                  st->route_add, st->route_del, st->route_del_unknown,
                  st->nh_add, st->nh_del, st->nh_del_unknown);
    ds_put_format(s, "next-hop changes: %"PRIu64" (routes refreshed %"PRIu64
                  ", moved off a group redefined by a new zebra %"PRIu64
                  ")\n", st->nh_changed, st->routes_rewritten,
                  st->routes_detached);
    ds_put_format(s, "deletes deferred: %"PRIu64" (%"PRIu64" merged with "
                  "the add that followed, %"PRIu64" carried out alone)\n",
                  st->del_deferred, st->del_merged, st->del_alone);
    ds_put_format(s, "changes back offloaded at once: %"PRIu64" (by the "
                  "row's offload, the change never written); rows written "
                  "again for a stale offload: %"PRIu64"\n",
                  st->offload_changed_back, st->status_rewrites);
    ds_put_format(s, "generation: %"PRIu32", reconciliations: %"PRIu64
                  ", stale routes deleted: %"PRIu64", stale next hops "
                  "deleted: %"PRIu64"\n", rib->gen, st->reconciles,
                  st->stale_routes, st->stale_nhgs);
    ds_put_format(s, "database load: %s, routes %"PRIu64", groups %"PRIu64
                  ", foreign uuids %"PRIu64", unusable rows %"PRIu64"\n",
                  rib->loaded ? "done" : "pending", st->load_routes,
                  st->load_nhgs, st->load_foreign, st->load_bad);
    ds_put_format(s, "batch: pending %"PRIuSIZE", in flight %"PRIuSIZE
                  " transactions (%"PRIuSIZE" operations)\n",
                  route_batch_n_pending(&rib->batch), rib->batch.rq.n_inflight,
                  rib->batch.rq.n_inflight_ops);
    ds_put_format(s, "batch: set %"PRIu64" del %"PRIu64" coalesced %"PRIu64
                  " unchanged %"PRIu64" cancelled %"PRIu64" held %"PRIu64
                  "\n", bs->n_set, bs->n_del, bs->n_coalesced,
                  bs->n_unchanged, bs->n_cancelled, bs->n_held);
    ds_put_format(s, "operations: insert %"PRIu64" update %"PRIu64
                  " delete %"PRIu64", committed %"PRIu64"\n",
                  bs->n_insert, bs->n_update, bs->n_delete,
                  bs->n_ops_committed);
    ds_put_format(s, "transactions: %"PRIu64" sent, %"PRIu64" committed, "
                  "%"PRIu64" failed, %"PRIu64" entries requeued\n",
                  bs->n_txn, bs->n_committed, bs->n_failed, bs->n_requeued);
}
