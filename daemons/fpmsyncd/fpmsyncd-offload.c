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
#include "daemons/fpmsyncd/fpmsyncd-offload.h"

#include <stdlib.h>
#include <string.h>

#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "daemons/fpmsyncd/fpmsyncd-rib-rows.h"
#include "openvswitch/hmap.h"
#include "lib/fib-prefix.h"
#include "lib/fpm-route.h"
#include "util.h"
#include "uuid.h"

/* A Route row whose status says offload=true, and its route, by row UUID
 * (the status monitor reports changes and deletions by UUID only). */
struct fpmd_offloaded {
    struct hmap_node node;      /* In 'offloaded', by uuid_hash(). */
    struct uuid uuid;           /* The Route row. */
    struct fpmd_route *route;   /* The route. */
};

/* The rib's FIB suppression state: the 'aux' of its observer. */
struct fpmd_offload {
    struct fpmd_rib *rib;       /* Whose routes. */
    struct hmap offloaded;      /* 'struct fpmd_offloaded's, by UUID: the
                                 * Route rows whose status says
                                 * offload=true, as the Route.status
                                 * monitor reported (the OVSDB path), with
                                 * their routes (FPMD_F_RECORDED). */
    size_t n_unrecorded;        /* Offloaded routes with no record (the
                                 * fast path's, fpmd_offload_route_set()). */
    bool enabled;               /* FIB suppression on. */
    bool fast_path;             /* The northbound fast path is on
                                 * (fpmd_offload_set_fast_path()). */
    fpmd_offload_func *cb;      /* How to notify zebra, or NULL. */
    void *aux;                  /* Passed to 'cb'. */
};

static const struct fpmd_rib_observer offload_observer;

/* Returns the FIB suppression state of 'rib' (fpmd_offload_attach()). */
static struct fpmd_offload *
offload_of(const struct fpmd_rib *rib)
{
    struct fpmd_offload *o = fpmd_rib_observer_aux(rib, &offload_observer);

    ovs_assert(o);
    return o;
}

/* Gives 'rib' FIB suppression, off until fpmd_offload_enable(): registers
 * it as an observer of the rib's routes.  The rib frees it. */
void
fpmd_offload_attach(struct fpmd_rib *rib)
{
    struct fpmd_offload *o = xzalloc(sizeof *o);

    o->rib = rib;
    hmap_init(&o->offloaded);
    fpmd_rib_observe(rib, &offload_observer, o);
}

/* Frees 'o''s records, without touching the routes (which the rib is
 * freeing). */
static void
offload_destroy(void *o_)
{
    struct fpmd_offload *o = o_;
    struct fpmd_offloaded *rec;

    HMAP_FOR_EACH_POP (rec, node, &o->offloaded) {
        free(rec);
    }
    hmap_destroy(&o->offloaded);
    free(o);
}

/* Sets how the rib asks for an offload notification. */
void
fpmd_offload_set_cb(struct fpmd_rib *rib, fpmd_offload_func *cb, void *aux)
{
    struct fpmd_offload *o = offload_of(rib);

    o->cb = cb;
    o->aux = aux;
}

/* Turns offload notifications on or off. */
void
fpmd_offload_enable(struct fpmd_rib *rib, bool enabled)
{
    offload_of(rib)->enabled = enabled;
    if (!enabled) {
        fpmd_offload_reset(rib);
    }
}

/* True if FIB suppression is on. */
bool
fpmd_offload_enabled(const struct fpmd_rib *rib)
{
    return offload_of(rib)->enabled;
}

/* Tells FIB suppression that the northbound fast path is on ('on') or
 * off: orchd's results, not the rows, say then what is offloaded
 * (daemons/fpmsyncd/fpmsyncd-zmq.c calls it). */
void
fpmd_offload_set_fast_path(struct fpmd_rib *rib, bool on)
{
    offload_of(rib)->fast_path = on;
}

/* Forgets which routes are offloaded, e.g. before (re)installing the
 * Route.status monitor, whose initial reply reports them all again. */
void
fpmd_offload_reset(struct fpmd_rib *rib)
{
    struct fpmd_offload *o = offload_of(rib);
    struct fpmd_offloaded *rec;

    HMAP_FOR_EACH_POP (rec, node, &o->offloaded) {
        rec->route->be.flags &= ~(FPMD_F_OFFLOADED | FPMD_F_RECORDED);
        free(rec);
    }
    if (o->n_unrecorded) {
        struct fpmd_route *r;

        HMAP_FOR_EACH (r, node, &rib->routes) {
            r->be.flags &= ~FPMD_F_OFFLOADED;
        }
        o->n_unrecorded = 0;
    }
}

static struct fpmd_offloaded *
offloaded_find(const struct fpmd_offload *o, const struct uuid *u)
{
    struct fpmd_offloaded *rec;

    HMAP_FOR_EACH_WITH_HASH (rec, node, uuid_hash(u), &o->offloaded) {
        if (uuid_equals(&rec->uuid, u)) {
            return rec;
        }
    }
    return NULL;
}

/* Asks for an offload notification for 'r', if FIB suppression is on and
 * zebra announced 'r' in its current session. */
static void
offload_notify(struct fpmd_offload *o, const struct fpmd_route *r)
{
    struct fpmd_rib *rib = o->rib;
    const struct fpmd_vrf *vrf = fpmd_vrf_get(&rib->vrfs, r->vrf);
    struct fpm_route fr;

    if (!o->enabled || !o->cb || vrf->table < 0
        || r->gen != rib->gen || !r->be.want) {
        return;
    }
    memset(&fr, 0, sizeof fr);
    fr.op = FPM_OP_ADD;
    fr.table = vrf->table;
    fr.prefix.family = r->prefix.family;
    fr.prefix.len = r->prefix.len;
    memcpy(fr.prefix.addr, r->prefix.addr, sizeof fr.prefix.addr);
    fr.protocol = r->protocol;
    fr.type = r->type;
    fr.metric = r->metric;
    rib->stats.offload_sent++;
    o->cb(&fr, o->aux);
}

/* Returns the record of 'r', which has one (FPMD_F_RECORDED). */
static struct fpmd_offloaded *
route_record(const struct fpmd_offload *o, const struct fpmd_route *r)
{
    struct fpmd_offloaded *rec;
    struct uuid u;

    fpmd_rib_entry_uuid(o->rib, &r->be, &u);
    rec = offloaded_find(o, &u);
    if (!rec || rec->route != r) {
        /* Its row's UUID changed since (a foreign row that went): look
         * the record up by its route. */
        HMAP_FOR_EACH (rec, node, &o->offloaded) {
            if (rec->route == r) {
                return rec;
            }
        }
        OVS_NOT_REACHED();
    }
    return rec;
}

/* Removes record 'rec', and the offload its route has by it. */
static void
record_remove(struct fpmd_offload *o, struct fpmd_offloaded *rec)
{
    rec->route->be.flags &= ~(FPMD_F_OFFLOADED | FPMD_F_RECORDED);
    hmap_remove(&o->offloaded, &rec->node);
    free(rec);
}

/* Marks 'r' as no longer offloaded: its content changed, or it is going
 * away.  A record of its row stays as long as the row says offload=true
 * (until fpmd_offload_status_cleared()), for offload_from_row(), and
 * so that what orchd writes there meanwhile, for content 'r' may no longer
 * have, is known to be no answer (fpmd_offload_status_touched()). */
static void
offload_clear(struct fpmd_offload *o, struct fpmd_route *r)
{
    if (!(r->be.flags & FPMD_F_OFFLOADED)) {
        return;
    }
    r->be.flags &= ~FPMD_F_OFFLOADED;
    if (!(r->be.flags & FPMD_F_RECORDED)) {
        /* Flagged by fpmd_offload_route_set(), without a record. */
        ovs_assert(o->n_unrecorded);
        o->n_unrecorded--;
    }
}

/* As offload_clear(), for the northbound fast path's results
 * (daemons/fpmsyncd/fpmsyncd-zmq.c). */
void
fpmd_offload_clear(struct fpmd_rib *rib, struct fpmd_route *r)
{
    offload_clear(offload_of(rib), r);
}

/* Forgets what 'r' knows of its offload: its flag and its record (it is
 * being freed, or its row's record is made again). */
static void
offload_forget(struct fpmd_offload *o, struct fpmd_route *r)
{
    offload_clear(o, r);
    if (r->be.flags & FPMD_F_RECORDED) {
        record_remove(o, route_record(o, r));
    }
}

/* Records that route 'r', whose Route row is 'u', is offloaded, and tells
 * zebra, if zebra announced it. */
static void
offload_set(struct fpmd_offload *o, struct fpmd_route *r,
            const struct uuid *u)
{
    struct fpmd_offloaded *rec = offloaded_find(o, u);

    if (rec && rec->route != r) {
        /* The row's record named another route: it is this one's now. */
        record_remove(o, rec);
        rec = NULL;
    }
    if (!rec) {
        /* (It may have a record under another UUID: its row's changed.) */
        offload_forget(o, r);
        rec = xmalloc(sizeof *rec);
        rec->uuid = *u;
        rec->route = r;
        hmap_insert(&o->offloaded, &rec->node, uuid_hash(u));
    }
    r->be.flags |= FPMD_F_RECORDED;
    if (r->be.flags & FPMD_F_STATUS_STALE || r->n_clearing) {
        /* An update that deletes the row's offload waits to be sent, or
         * is in flight: the offload is for content 'r' no longer has (the
         * monitor's first reply, or orchd's write, read before the
         * server took that update).  The delete's own report removes the
         * record; orchd's answer for the new content makes it again.
         * That leans on ovsdb-server's order on one connection: it sends
         * a monitor's updates before any reply that follows them
         * (ovsdb_jsonrpc_session_send() flushes the monitors first) and a
         * transaction's reply when it commits, so the report of the
         * delete reaches fpmsyncd before the reply that ends the count. */
        return;
    }
    r->be.flags |= FPMD_F_OFFLOADED;
    offload_notify(o, r);
}

/* Records that 'r' is offloaded, as orchd answered on the fast path
 * (daemons/fpmsyncd/fpmsyncd-zmq.h) or its row said at a load there, and tells
 * zebra, if zebra announced it.  Only the route's flag records it: on
 * that path nothing names a route by its row's UUID, and a record a
 * route was 64 MB at a million routes. */
void
fpmd_offload_route_set(struct fpmd_rib *rib, struct fpmd_route *r)
{
    struct fpmd_offload *o = offload_of(rib);

    if (!(r->be.flags & FPMD_F_OFFLOADED)) {
        r->be.flags |= FPMD_F_OFFLOADED;
        if (!(r->be.flags & FPMD_F_RECORDED)) {
            o->n_unrecorded++;
        }
    }
    offload_notify(o, r);
}

/* On the OVSDB path: if the row of 'r' says offload=true (the Route.status
 * monitor said so, and no update that deletes it was sent since or is in
 * flight), marks 'r' offloaded, as its row says, tells zebra, and returns
 * true.  The caller knows that what orchd programs of the row is 'r''s
 * content (fpmd_route_refresh()). */
static bool
offload_from_row(struct fpmd_offload *o, struct fpmd_route *r)
{
    if (!(r->be.flags & FPMD_F_RECORDED) || r->n_clearing) {
        return false;
    }
    r->be.flags |= FPMD_F_OFFLOADED;
    offload_notify(o, r);
    return true;
}

/* On the OVSDB path: an update that deletes status:offload from the row of
 * 'r' (or its insert, with an empty status) is being sent: what the row
 * said is no answer for the content that follows, so its record goes
 * now, rather than when the Route.status monitor reports the delete. */
void
fpmd_offload_row_cleared(struct fpmd_rib *rib, struct fpmd_route *r)
{
    struct fpmd_offload *o = offload_of(rib);

    if (r->be.flags & FPMD_F_RECORDED) {
        record_remove(o, route_record(o, r));
    }
}

/* Marks 'r''s Route.status stale (FPMD_F_STATUS_STALE) if that is news
 * for anyone: on the OVSDB path with FIB suppression on. */
static void
offload_status_stale(const struct fpmd_offload *o, struct fpmd_route *r)
{
    if (!o->fast_path && o->enabled) {
        r->be.flags |= FPMD_F_STATUS_STALE;
    }
}

/* As offload_status_stale(), for the rows' writer
 * (daemons/fpmsyncd/fpmsyncd-txn.c). */
void
fpmd_offload_status_stale(const struct fpmd_rib *rib, struct fpmd_route *r)
{
    offload_status_stale(offload_of(rib), r);
}

/* Records that Route row 'u' ('vrf', 'prefix') has offload=true in its
 * status, and tells zebra, if zebra announced the route. */
void
fpmd_offload_status_set(struct fpmd_rib *rib, const struct uuid *u,
                        const char *vrf_name, const char *prefix_s)
{
    struct fpmd_vrf *vrf = fpmd_vrf_by_name(&rib->vrfs, vrf_name);
    struct fib_prefix prefix;
    struct fpmd_route *r;
    char *error;

    if (!vrf) {
        return;
    }
    error = fib_prefix_parse(prefix_s, &prefix);
    if (error) {
        free(error);
        return;
    }
    r = fpmd_route_find(rib, vrf->idx, &prefix);
    if (r) {
        offload_set(offload_of(rib), r, u);
    }
}

/* Route row 'u', offloaded, had its status changed but still says
 * offload=true: tell zebra again (orchd reprogrammed it), unless the
 * route changed since (that is no answer for its new content). */
void
fpmd_offload_status_touched(struct fpmd_rib *rib, const struct uuid *u)
{
    struct fpmd_offload *o = offload_of(rib);
    struct fpmd_offloaded *rec = offloaded_find(o, u);

    if (rec && rec->route->be.flags & FPMD_F_OFFLOADED) {
        offload_notify(o, rec->route);
    }
}

/* Route row 'u' no longer says offload=true (or is gone). */
void
fpmd_offload_status_cleared(struct fpmd_rib *rib, const struct uuid *u)
{
    struct fpmd_offload *o = offload_of(rib);
    struct fpmd_offloaded *rec = offloaded_find(o, u);

    if (rec) {
        record_remove(o, rec);
    }
}

/* Introspection. */

/* Returns the number of Route rows recorded as saying offload=true. */
size_t
fpmd_offload_n_records(const struct fpmd_rib *rib)
{
    return hmap_count(&offload_of(rib)->offloaded);
}

/* Returns the number of routes offloaded without a record (the fast
 * path's). */
size_t
fpmd_offload_n_unrecorded(const struct fpmd_rib *rib)
{
    return offload_of(rib)->n_unrecorded;
}

/* The rib's observer. */

/* Route 'r' was refreshed (fpmd_route_refresh()): with FIB suppression
 * zebra waits for an offload notification of each announcement, sent at
 * once if what orchd programs of 'r' did not change. */
static void
offload_route_refreshed(struct fpmd_route *r,
                        const struct fpmd_route_change *c, void *o_)
{
    struct fpmd_offload *o = o_;

    if (!o->fast_path && c->row_asic_same) {
        /* The row's offload, if it says so, holds for this content: no
         * update deletes it, and if 'r' lost its offload to content that
         * never left, the row answers (orchd, which saw no change, answers
         * nothing). */
        r->be.flags &= ~FPMD_F_STATUS_STALE;
        if (r->be.flags & FPMD_F_OFFLOADED) {
            offload_notify(o, r);
        } else if (offload_from_row(o, r)) {
            o->rib->stats.offload_changed_back++;
        }
    } else if (c->asic_unchanged && r->be.flags & FPMD_F_OFFLOADED) {
        offload_notify(o, r);
    } else if (!c->asic_unchanged) {
        offload_clear(o, r);
        offload_status_stale(o, r);
    }
}

/* Route 'r' was withdrawn: offloaded no more, unless its delete is
 * deferred, which keeps it for its add (offload_route_delete_released()). */
static void
offload_route_withdrawn(struct fpmd_route *r, void *o_)
{
    struct fpmd_offload *o = o_;

    if (!fpmd_rib_defers(o->rib, r)) {
        offload_clear(o, r);
    }
}

/* The deferred delete of 'r' went out alone: offloaded no more, kept until
 * now in case the add came. */
static void
offload_route_delete_released(struct fpmd_route *r, void *o)
{
    offload_clear(o, r);
}

/* Route 'r' is being freed: its flag and its record go. */
static void
offload_route_freed(struct fpmd_route *r, void *o)
{
    offload_forget(o, r);
}

static const struct fpmd_rib_observer offload_observer = {
    .route_refreshed = offload_route_refreshed,
    .route_withdrawn = offload_route_withdrawn,
    .route_delete_released = offload_route_delete_released,
    .route_freed = offload_route_freed,
    .rib_destroyed = offload_destroy,
};
