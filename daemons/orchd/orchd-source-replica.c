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
 * orchd-source-replica: routes from orchd's IDL replica of Route and
 * Nexthop_Group (orchd-source.h).
 *
 * The default route source on the northbound OVSDB path, and the one a
 * cluster uses.  The IDL tracks each change; a change to a route's next
 * hops, group, blackhole, prefix or VRF goes through the resolve step, and
 * a change to a group re-resolves the routes that use it, found through
 * the route index (idl/route-index.h), whose ordered indexes also serve
 * fib/show unless --no-route-index.  After a lost connection the IDL may
 * have loaded its replica again from scratch, which reports no deleted
 * row: every route is then processed again and the entries no route named
 * are swept (orchd-replica.h).
 */

#include <config.h>

#include <stdlib.h>

#include "daemons/orchd/orchd-core.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-options.h"
#include "daemons/orchd/orchd-replica.h"
#include "daemons/orchd/orchd-resolve.h"
#include "daemons/orchd/orchd-route-row.h"
#include "daemons/orchd/orchd-seed.h"
#include "daemons/orchd/orchd-show-idl.h"
#include "daemons/orchd/orchd-source.h"
#include "daemons/orchd/orchd-status.h"
#include "daemons/orchd/orchd-verify.h"
#include "daemons/orchd/orchd-worker.h"
#include "idl/fibsync-idl.h"
#include "idl/route-index.h"
#include "openvswitch/dynamic-string.h"
#include "sset.h"
#include "util.h"

/* The source's state. */
struct source_replica {
    struct orchd_source up;     /* The class and the daemon. */
    struct route_index *ri;     /* Group users, and fib/show's indexes
                                 * unless --no-route-index. */
};

static const struct orchd_source_class source_replica_class;

/* Returns the replica source of 'source'. */
static struct source_replica *
source_replica_cast(const struct orchd_source *source)
{
    ovs_assert(source->class == &source_replica_class);
    return CONTAINER_OF(source, struct source_replica, up);
}

/* Creates the source: Route and Nexthop_Group are replicated, in steps,
 * and indexed. */
struct orchd_source *
orchd_source_replica_create(struct orchd *o)
{
    struct source_replica *sr = xzalloc(sizeof *sr);

    sr->up.class = &source_replica_class;
    sr->up.o = o;
    orchd_replica_register(o->idl, ORCHD_REPLICA_ROUTES,
                           o->opts->replica_steps, o->widening);
    o->status = orchd_status_create(o->idl);
    /* The route index always keeps each next-hop group's users; its
     * ordered indexes serve "show ip route" unless --no-route-index. */
    sr->ri = route_index_create_cmp(o->idl, (o->opts->use_route_index
                                             ? ROUTE_INDEX_CMP_BINARY
                                             : ROUTE_INDEX_CMP_NONE));
    o->nhg_by_id = ovsdb_idl_index_create1(o->idl,
                                           &fibrec_nexthop_group_col_id);
    return &sr->up;
}

/* orchd_source_class's 'destroy'. */
static void
source_replica_destroy(struct orchd_source *source)
{
    struct source_replica *sr = source_replica_cast(source);

    route_index_destroy(sr->ri);
    free(sr);
}

/* First contact with the database: learns what Asic_Route already holds,
 * then programs only what differs, so a restart neither removes nor
 * re-adds a route that is already right. */
static void
source_replica_initial_sync(struct orchd_source *source,
                            struct orchd_seed *seed,
                            struct unixctl_server *unixctl)
{
    struct sset changed = SSET_INITIALIZER(&changed);
    struct uuidset wanted = UUIDSET_INITIALIZER(&wanted);
    const struct fibrec_route *route;
    struct orchd *o = source->o;

    orchd_seed_complete(seed, unixctl);
    orchd_resolve_read_vrfs(o, false, &changed);
    sset_destroy(&changed);
    FIBREC_ROUTE_FOR_EACH (route, o->idl) {
        struct orchd_route_row row;
        enum orchd_route_outcome outcome;
        struct uuid key;

        /* The key comes from the resolved entry; only a route that cannot
         * be resolved yet needs it computed on its own.  A refused route
         * wants no entry: one left from before is stale. */
        orchd_resolve_row_from_idl(route, &row);
        outcome = orchd_resolve_process(o, &row, &key);
        if (outcome == ORCHD_ROUTE_SENT
            || (outcome == ORCHD_ROUTE_WAITING
                && orchd_resolve_asic_key(o, &row, &key))) {
            uuidset_insert(&wanted, &key);
        }
    }
    orchd_seed_finish_sync(seed, &wanted, o->n_updates);
}

/* Does a tracked change to 'route' touch what it resolves to?  (A row
 * whose VRF or prefix is changed in place is processed under its new
 * key; the entry of the old key, which the replica no longer knows,
 * stays until orchd restarts.  fpmsyncd never does that: a row's UUID
 * comes from its VRF and prefix.) */
static bool
route_changed(const struct fibrec_route *route)
{
    return (fibrec_route_is_new(route)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_NEXTHOPS)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_NEXTHOP_GROUP)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_BLACKHOLE)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_PREFIX)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_VRF));
}

/* Re-resolves the routes that use next-hop group 'id', except those
 * deleted (processed as such). */
static void
process_group_users(struct source_replica *sr, int64_t id)
{
    const struct fibrec_route *const *users;
    size_t n;

    users = route_index_nhg_users(sr->ri, id, &n);
    for (size_t i = 0; i < n; i++) {
        if (users[i]->header_.old_datum) {
            orchd_resolve_process_idl(sr->up.o, users[i], NULL);
        }
    }
}

/* orchd_source_class's 'idl_changed': route updates and deletions, then
 * the routes of the next-hop groups that changed. */
static size_t
source_replica_idl_changed(struct orchd_source *source)
{
    struct source_replica *sr = source_replica_cast(source);
    const struct fibrec_nexthop_group *nhg;
    const struct fibrec_route *route;
    struct orchd *o = source->o;
    size_t n = 0;

    FIBREC_ROUTE_FOR_EACH_TRACKED (route, o->idl) {
        if (fibrec_route_is_deleted(route)) {
            struct orchd_route_row row;
            struct uuid key;

            orchd_resolve_row_from_idl(route, &row);
            orchd_resolve_delete(o, &route->header_.uuid,
                                 (orchd_resolve_asic_key(o, &row, &key)
                                  ? &key : NULL));
        } else if (route_changed(route)) {
            orchd_resolve_process_idl(o, route, NULL);
        }
        n++;
    }
    FIBREC_NEXTHOP_GROUP_FOR_EACH_TRACKED (nhg, o->idl) {
        if (!fibrec_nexthop_group_is_deleted(nhg)) {
            process_group_users(sr, nhg->id);
        }
        n++;
    }
    return n;
}

/* orchd_source_class's 'vrfs_changed': the routes in a VRF that came or
 * went, except those that changed themselves, which 'idl_changed'
 * processes. */
static void
source_replica_vrfs_changed(struct orchd_source *source,
                            const struct sset *changed)
{
    const struct fibrec_route *route;

    FIBREC_ROUTE_FOR_EACH (route, source->o->idl) {
        if (sset_contains(changed, route->vrf) && !route_changed(route)) {
            orchd_resolve_process_idl(source->o, route, NULL);
        }
    }
}

/* orchd_source_class's 'reconcile': every route goes through the resolve
 * step as a live change would, in a new generation of the worker's
 * bulker, and the entries no route named are swept: a route deleted while
 * the connection was down leaves no stale entry.  A route waiting for its
 * next-hop group keeps what it had. */
static void
source_replica_reconcile(struct orchd_source *source)
{
    const struct fibrec_route *route;
    struct orchd *o = source->o;

    orchd_worker_new_generation(o->worker);
    FIBREC_ROUTE_FOR_EACH (route, o->idl) {
        struct orchd_route_row row;
        struct uuid key;

        orchd_resolve_row_from_idl(route, &row);
        if (orchd_resolve_process(o, &row, NULL) == ORCHD_ROUTE_WAITING
            && orchd_resolve_asic_key(o, &row, &key)) {
            orchd_worker_keep(o->worker, &key);
        }
    }
    orchd_worker_sweep(o->worker, "reconciliation after a lost connection");
}

/* orchd_source_class's 'show_source': the compound indexes over the
 * replica. */
static struct orchd_show_source *
source_replica_show_source(struct orchd_source *source)
{
    struct source_replica *sr = source_replica_cast(source);

    return orchd_show_idl_create(source->o->idl, sr->ri, orchd_resolve_show,
                                 source->o);
}

/* orchd_source_class's 'verify': each Route row, resolved as orchd
 * would. */
static const char *
source_replica_verify(struct orchd_source *source, struct orchd_verify *v)
{
    const struct fibrec_route *route;
    struct orchd *o = source->o;

    FIBREC_ROUTE_FOR_EACH (route, o->idl) {
        struct orchd_entry *want;
        struct orchd_route_row row;
        enum orchd_refusal why;
        char *error;

        orchd_resolve_row_from_idl(route, &row);
        want = orchd_resolve_route(o, &row, &why, &error);
        v->n_routes++;
        if (!want) {
            orchd_verify_diff(v, "route %s vrf %s: %s\n", route->prefix,
                              route->vrf,
                              error ? error : "next-hop group unknown");
            free(error);
        } else {
            orchd_verify_route(v, want);
        }
    }
    return NULL;
}

/* orchd_source_class's 'format_status'. */
static void
source_replica_format_status(const struct orchd_source *source,
                             struct ds *s)
{
    ds_put_format(s, "stale routes removed after a lost connection: %"
                  PRIu64"\n", orchd_worker_n_swept(source->o->worker));
}

static const struct orchd_source_class source_replica_class = {
    .name = "replica",
    .keeps_seed_rows = true,
    .seeds_itself = false,
    .destroy = source_replica_destroy,
    .initial_sync = source_replica_initial_sync,
    .idl_changed = source_replica_idl_changed,
    .vrfs_changed = source_replica_vrfs_changed,
    .reconcile = source_replica_reconcile,
    .show_source = source_replica_show_source,
    .verify = source_replica_verify,
    .format_status = source_replica_format_status,
};
