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

void
fpmd_offload_init(struct fpmd_offload *o)
{
    memset(o, 0, sizeof *o);
    hmap_init(&o->offloaded);
}

/* Frees 'o''s records, without touching the routes (which the rib is
 * freeing). */
void
fpmd_offload_destroy(struct fpmd_offload *o)
{
    struct fpmd_offloaded *rec;

    HMAP_FOR_EACH_POP (rec, node, &o->offloaded) {
        free(rec);
    }
    hmap_destroy(&o->offloaded);
}

/* Sets how the rib asks for an offload notification. */
void
fpmd_offload_set_cb(struct fpmd_rib *rib, fpmd_offload_func *cb, void *aux)
{
    rib->offload.cb = cb;
    rib->offload.aux = aux;
}

/* Turns offload notifications on or off. */
void
fpmd_offload_enable(struct fpmd_rib *rib, bool enabled)
{
    rib->offload.enabled = enabled;
    if (!enabled) {
        fpmd_offload_reset(rib);
    }
}

/* Forgets which routes are offloaded, e.g. before (re)installing the
 * Route.status monitor, whose initial reply reports them all again. */
void
fpmd_offload_reset(struct fpmd_rib *rib)
{
    struct fpmd_offloaded *rec;

    HMAP_FOR_EACH_POP (rec, node, &rib->offload.offloaded) {
        rec->route->be.flags &= ~(FPMD_F_OFFLOADED | FPMD_F_RECORDED);
        free(rec);
    }
    if (rib->offload.n_unrecorded) {
        struct fpmd_route *r;

        HMAP_FOR_EACH (r, node, &rib->routes) {
            r->be.flags &= ~FPMD_F_OFFLOADED;
        }
        rib->offload.n_unrecorded = 0;
    }
}

static struct fpmd_offloaded *
offloaded_find(const struct fpmd_rib *rib, const struct uuid *u)
{
    struct fpmd_offloaded *rec;

    HMAP_FOR_EACH_WITH_HASH (rec, node, uuid_hash(u),
                             &rib->offload.offloaded) {
        if (uuid_equals(&rec->uuid, u)) {
            return rec;
        }
    }
    return NULL;
}

/* Asks for an offload notification for 'r', if FIB suppression is on and
 * zebra announced 'r' in its current session. */
void
fpmd_offload_notify(struct fpmd_rib *rib, const struct fpmd_route *r)
{
    const struct fpmd_vrf *vrf = fpmd_vrf_get(&rib->vrfs, r->vrf);
    struct fpm_route fr;

    if (!rib->offload.enabled || !rib->offload.cb || vrf->table < 0
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
    rib->offload.cb(&fr, rib->offload.aux);
}

/* Returns the record of 'r', which has one (FPMD_F_RECORDED). */
static struct fpmd_offloaded *
route_record(const struct fpmd_rib *rib, const struct fpmd_route *r)
{
    struct fpmd_offloaded *rec;
    struct uuid u;

    fpmd_rib_entry_uuid(rib, &r->be, &u);
    rec = offloaded_find(rib, &u);
    if (!rec || rec->route != r) {
        /* Its row's UUID changed since (a foreign row that went): look
         * the record up by its route. */
        HMAP_FOR_EACH (rec, node, &rib->offload.offloaded) {
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
record_remove(struct fpmd_rib *rib, struct fpmd_offloaded *rec)
{
    rec->route->be.flags &= ~(FPMD_F_OFFLOADED | FPMD_F_RECORDED);
    hmap_remove(&rib->offload.offloaded, &rec->node);
    free(rec);
}

/* Marks 'r' as no longer offloaded: its content changed, or it is going
 * away.  A record of its row stays as long as the row says offload=true
 * (until fpmd_offload_status_cleared()), for fpmd_offload_from_row(), and
 * so that what orchd writes there meanwhile, for content 'r' may no longer
 * have, is known to be no answer (fpmd_offload_status_touched()). */
void
fpmd_offload_clear(struct fpmd_rib *rib, struct fpmd_route *r)
{
    if (!(r->be.flags & FPMD_F_OFFLOADED)) {
        return;
    }
    r->be.flags &= ~FPMD_F_OFFLOADED;
    if (!(r->be.flags & FPMD_F_RECORDED)) {
        /* Flagged by fpmd_offload_route_set(), without a record. */
        ovs_assert(rib->offload.n_unrecorded);
        rib->offload.n_unrecorded--;
    }
}

/* Forgets what 'r' knows of its offload: its flag and its record (it is
 * being freed, or its row's record is made again). */
void
fpmd_offload_forget(struct fpmd_rib *rib, struct fpmd_route *r)
{
    fpmd_offload_clear(rib, r);
    if (r->be.flags & FPMD_F_RECORDED) {
        record_remove(rib, route_record(rib, r));
    }
}

/* Records that route 'r', whose Route row is 'u', is offloaded, and tells
 * zebra, if zebra announced it. */
static void
offload_set(struct fpmd_rib *rib, struct fpmd_route *r, const struct uuid *u)
{
    struct fpmd_offloaded *rec = offloaded_find(rib, u);

    if (rec && rec->route != r) {
        /* The row's record named another route: it is this one's now. */
        record_remove(rib, rec);
        rec = NULL;
    }
    if (!rec) {
        /* (It may have a record under another UUID: its row's changed.) */
        fpmd_offload_forget(rib, r);
        rec = xmalloc(sizeof *rec);
        rec->uuid = *u;
        rec->route = r;
        hmap_insert(&rib->offload.offloaded, &rec->node, uuid_hash(u));
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
    fpmd_offload_notify(rib, r);
}

/* Records that 'r' is offloaded, as orchd answered on the fast path
 * (daemons/fpmsyncd/fpmsyncd-zmq.h) or its row said at a load there, and tells
 * zebra, if zebra announced it.  Only the route's flag records it: on
 * that path nothing names a route by its row's UUID, and a record a
 * route was 64 MB at a million routes. */
void
fpmd_offload_route_set(struct fpmd_rib *rib, struct fpmd_route *r)
{
    if (!(r->be.flags & FPMD_F_OFFLOADED)) {
        r->be.flags |= FPMD_F_OFFLOADED;
        if (!(r->be.flags & FPMD_F_RECORDED)) {
            rib->offload.n_unrecorded++;
        }
    }
    fpmd_offload_notify(rib, r);
}

/* On the OVSDB path: if the row of 'r' says offload=true (the Route.status
 * monitor said so, and no update that deletes it was sent since or is in
 * flight), marks 'r' offloaded, as its row says, tells zebra, and returns
 * true.  The caller knows that what orchd programs of the row is 'r''s
 * content (fpmd_route_refresh()). */
bool
fpmd_offload_from_row(struct fpmd_rib *rib, struct fpmd_route *r)
{
    if (!(r->be.flags & FPMD_F_RECORDED) || r->n_clearing) {
        return false;
    }
    r->be.flags |= FPMD_F_OFFLOADED;
    fpmd_offload_notify(rib, r);
    return true;
}

/* On the OVSDB path: an update that deletes status:offload from the row of
 * 'r' (or its insert, with an empty status) is being sent: what the row
 * said is no answer for the content that follows, so its record goes
 * now, rather than when the Route.status monitor reports the delete. */
void
fpmd_offload_row_cleared(struct fpmd_rib *rib, struct fpmd_route *r)
{
    if (r->be.flags & FPMD_F_RECORDED) {
        record_remove(rib, route_record(rib, r));
    }
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
        offload_set(rib, r, u);
    }
}

/* Route row 'u', offloaded, had its status changed but still says
 * offload=true: tell zebra again (orchd reprogrammed it), unless the
 * route changed since (that is no answer for its new content). */
void
fpmd_offload_status_touched(struct fpmd_rib *rib, const struct uuid *u)
{
    struct fpmd_offloaded *rec = offloaded_find(rib, u);

    if (rec && rec->route->be.flags & FPMD_F_OFFLOADED) {
        fpmd_offload_notify(rib, rec->route);
    }
}

/* Route row 'u' no longer says offload=true (or is gone). */
void
fpmd_offload_status_cleared(struct fpmd_rib *rib, const struct uuid *u)
{
    struct fpmd_offloaded *rec = offloaded_find(rib, u);

    if (rec) {
        record_remove(rib, rec);
    }
}
