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
 * orchd-resolve: a route into the SAI entry it programs (orchd-resolve.h).
 */

#include <config.h>

#include "daemons/orchd/orchd-resolve.h"

#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-core.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-options.h"
#include "daemons/orchd/orchd-route-row.h"
#include "daemons/orchd/orchd-worker.h"
#include "idl/fibsync-idl.h"
#include "lib/fib-prefix.h"
#include "sset.h"
#include "util.h"

COVERAGE_DEFINE(orchd_route_update);
COVERAGE_DEFINE(orchd_route_delete);
COVERAGE_DEFINE(orchd_route_bad);
COVERAGE_DEFINE(orchd_route_unresolved);

/* Is 'vrf' a VRF that orchd may program: "default" (the main table,
 * whose Vrf row fpmsyncd writes only once zebra sends a route in it) or
 * one that a Vrf row names? */
bool
orchd_resolve_vrf_is_known(const struct orchd *o, const char *vrf)
{
    return !strcmp(vrf, "default") || sset_contains(&o->vrfs, vrf);
}

/* If a Vrf row changed, if 'force' (after a reload, which reports no
 * deleted row), or before the initial sync (whose tracked changes the
 * start-up loop clears), reads the VRF names again into 'o->vrfs', puts
 * into 'changed' (an empty set the caller owns) those that came or went,
 * and returns true; else returns false, having read nothing. */
bool
orchd_resolve_read_vrfs(struct orchd *o, bool force, struct sset *changed)
{
    struct sset names = SSET_INITIALIZER(&names);
    const struct fibrec_vrf *vrf;
    const char *name;

    if (o->synced && !force && !fibrec_vrf_track_get_first(o->idl)) {
        return false;
    }
    FIBREC_VRF_FOR_EACH (vrf, o->idl) {
        sset_add(&names, vrf->name);
    }
    SSET_FOR_EACH (name, &names) {
        if (!sset_contains(&o->vrfs, name) && strcmp(name, "default")) {
            sset_add(changed, name);
        }
    }
    SSET_FOR_EACH (name, &o->vrfs) {
        if (!sset_contains(&names, name) && strcmp(name, "default")) {
            sset_add(changed, name);
        }
    }
    sset_swap(&o->vrfs, &names);
    sset_destroy(&names);
    return true;
}

/* Sets '*row' to the view of IDL row 'route' (orchd-route-row.h). */
void
orchd_resolve_row_from_idl(const struct fibrec_route *route,
                           struct orchd_route_row *row)
{
    row->uuid = route->header_.uuid;
    row->vrf = route->vrf;
    row->prefix = route->prefix;
    row->blackhole = route->blackhole;
    row->has_group = route->n_nexthop_group > 0;
    row->group = row->has_group ? *route->nexthop_group : 0;
    row->nh_keys = (const char *const *) route->key_nexthops;
    row->nh_weights = route->value_nexthops;
    row->n_nexthops = route->n_nexthops;
    row->protocol = route->protocol;
    row->distance = route->n_distance ? *route->distance : 0;
    row->metric = route->n_metric ? *route->metric : 0;
}

/* Returns next-hop group 'id' from the replica, or NULL. */
static const struct fibrec_nexthop_group *
find_group(const struct orchd *o, int64_t id)
{
    const struct fibrec_nexthop_group *nhg;
    struct fibrec_nexthop_group *target;

    target = fibrec_nexthop_group_index_init_row(o->nhg_by_id);
    fibrec_nexthop_group_index_set_id(target, id);
    nhg = fibrec_nexthop_group_index_find(o->nhg_by_id, target);
    fibrec_nexthop_group_index_destroy_row(target);
    return nhg;
}

/* Returns the entry of a route through group 'id' to 'prefix' in 'vrf',
 * with the group's members, or with none and '*waiting' true if the group
 * is unknown or has no member. */
struct orchd_entry *
orchd_resolve_group_entry(struct orchd *o, const char *vrf,
                          const struct fib_prefix *prefix, int64_t id,
                          bool *waiting)
{
    const struct fibrec_nexthop_group *nhg = find_group(o, id);

    *waiting = !nhg || !nhg->n_members;
    return orchd_entry_create(&o->entries, vrf, prefix,
                              ORCHD_ACTION_FORWARD,
                              *waiting ? NULL
                                       : (const char **) nhg->key_members,
                              *waiting ? NULL : nhg->value_members,
                              *waiting ? 0 : nhg->n_members);
}

/* Returns the SAI entry of 'row', whether its VRF is known or not: for a
 * route through a next-hop group that is unknown or empty, one with no
 * next hop and '*waiting' true.  A prefix that is not canonical text is
 * refused rather than read leniently ("10.1.2.3/16" would become the
 * entry of the row for "10.1.0.0/16"): then NULL, with '*error' saying
 * why (for the caller to free).  Next hops are syncd's to parse
 * (syncd-nexthop-key.h): one it cannot read fails the whole entry, and the
 * failure comes back into Route.status.  The caller owns the reference. */
struct orchd_entry *
orchd_resolve_build_entry(struct orchd *o,
                          const struct orchd_route_row *row,
                          bool *waiting, char **error)
{
    struct fib_prefix prefix;
    struct orchd_entry *e;
    char *msg;

    *waiting = false;
    *error = NULL;
    msg = fib_prefix_parse_strict(row->prefix, &prefix);
    if (msg) {
        *error = xasprintf("bad prefix (%s)", msg);
        free(msg);
        return NULL;
    }
    if (row->blackhole) {
        e = orchd_entry_create(&o->entries, row->vrf, &prefix,
                               ORCHD_ACTION_DROP, NULL, NULL, 0);
    } else if (row->has_group) {
        e = orchd_resolve_group_entry(o, row->vrf, &prefix, row->group,
                                      waiting);
    } else if (row->n_nexthops) {
        e = orchd_entry_create(&o->entries, row->vrf, &prefix,
                               ORCHD_ACTION_FORWARD,
                               (const char **) row->nh_keys, row->nh_weights,
                               row->n_nexthops);
    } else {
        /* No next hop at all: punt to the CPU. */
        e = orchd_entry_create(&o->entries, row->vrf, &prefix,
                               ORCHD_ACTION_TRAP, NULL, NULL, 0);
    }
    e->route_uuid = row->uuid;
    return e;
}

/* Returns the SAI entry that 'row' should program, or NULL if it cannot
 * be programmed yet (its next-hop group is unknown) or is refused: then
 * '*error' is why (for the caller to free) and '*why' the kind of reason:
 * a bad prefix (orchd_resolve_build_entry()), or a VRF without a Vrf row,
 * refused
 * rather than given a virtual router of its own.  The caller owns the
 * reference. */
struct orchd_entry *
orchd_resolve_route(struct orchd *o, const struct orchd_route_row *row,
                    enum orchd_refusal *why, char **error)
{
    struct orchd_entry *e;
    bool waiting;

    e = orchd_resolve_build_entry(o, row, &waiting, error);
    if (!e) {
        *why = ORCHD_REFUSE_BAD_PREFIX;
        return NULL;
    } else if (!orchd_resolve_vrf_is_known(o, row->vrf)) {
        orchd_entry_unref(e);
        *why = ORCHD_REFUSE_UNKNOWN_VRF;
        *error = xasprintf("unknown VRF \"%s\" (no Vrf row)", row->vrf);
        return NULL;
    } else if (waiting) {
        orchd_entry_unref(e);
        return NULL;
    }
    return e;
}

/* orchd_show_resolve_func for fib/show. */
struct orchd_entry *
orchd_resolve_show(void *o_, const struct fibrec_route *route)
{
    struct orchd_route_row row;
    enum orchd_refusal why;
    struct orchd_entry *e;
    char *error;

    orchd_resolve_row_from_idl(route, &row);
    e = orchd_resolve_route(o_, &row, &why, &error);
    free(error);
    return e;
}

/* Computes the Asic_Route key of 'row' in 'o''s ASIC instance; false if
 * its prefix is bad. */
bool
orchd_resolve_asic_key(const struct orchd *o,
                       const struct orchd_route_row *row, struct uuid *key)
{
    struct fib_prefix prefix;
    char *error = fib_prefix_parse_strict(row->prefix, &prefix);

    if (error) {
        free(error);
        return false;
    }
    orchd_entry_asic_uuid(o->opts->instance, row->vrf, &prefix, key);
    return true;
}

/* Sends the desired state of 'row' to the worker.  Returns what it did,
 * with the entry's Asic_Route key in '*key' if the route was sent and
 * 'key' is nonnull.  A refused route is never half programmed: whatever
 * entry it had goes, and its status says why. */
enum orchd_route_outcome
orchd_resolve_process(struct orchd *o, const struct orchd_route_row *row,
                      struct uuid *key)
{
    enum orchd_refusal why;
    struct orchd_entry *e;
    struct uuid old_key;
    char *error;

    o->n_updates++;
    COVERAGE_INC(orchd_route_update);
    e = orchd_resolve_route(o, row, &why, &error);
    if (e) {
        if (key) {
            *key = e->asic_uuid;
        }
        orchd_status_accept(o->status, &row->uuid);
        orchd_worker_set(o->worker, e);
        return ORCHD_ROUTE_SENT;
    } else if (error) {
        if (why == ORCHD_REFUSE_BAD_PREFIX) {
            o->n_bad++;
            COVERAGE_INC(orchd_route_bad);
        } else if (orchd_resolve_asic_key(o, row, &old_key)) {
            /* Its VRF went: so does the entry it may have had. */
            orchd_worker_del(o->worker, &old_key);
        }
        orchd_status_refuse(o->status, &row->uuid, why, error);
        return ORCHD_ROUTE_REFUSED;
    } else {
        /* Programmed again once its group arrives (the source's
         * group_changed());
         * no longer refused, if it was. */
        orchd_status_accept(o->status, &row->uuid);
        o->n_unresolved++;
        COVERAGE_INC(orchd_route_unresolved);
        return ORCHD_ROUTE_WAITING;
    }
}

/* orchd_resolve_process() of IDL row 'route'. */
enum orchd_route_outcome
orchd_resolve_process_idl(struct orchd *o, const struct fibrec_route *route,
                          struct uuid *key)
{
    struct orchd_route_row row;

    orchd_resolve_row_from_idl(route, &row);
    return orchd_resolve_process(o, &row, key);
}

/* Hands table route 'r' (its entry built when its row was read, by the
 * source that keeps no replica) to the worker, as orchd_resolve_process()
 * does a row. */
enum orchd_route_outcome
orchd_resolve_submit(struct orchd *o, const struct uuid *route_uuid,
                     struct orchd_entry *entry, bool waiting)
{
    o->n_updates++;
    COVERAGE_INC(orchd_route_update);
    if (!orchd_resolve_vrf_is_known(o, entry->vrf)) {
        orchd_worker_del(o->worker, &entry->asic_uuid);
        orchd_status_refuse(o->status, route_uuid, ORCHD_REFUSE_UNKNOWN_VRF,
                            xasprintf("unknown VRF \"%s\" (no Vrf row)",
                                      entry->vrf));
        return ORCHD_ROUTE_REFUSED;
    }
    orchd_status_accept(o->status, route_uuid);
    if (waiting) {
        o->n_unresolved++;
        COVERAGE_INC(orchd_route_unresolved);
        return ORCHD_ROUTE_WAITING;
    }
    orchd_worker_set(o->worker, orchd_entry_ref(entry));
    return ORCHD_ROUTE_SENT;
}

/* The route whose Route row 'route_uuid' is gone: its status is
 * forgotten and its entry, under Asic_Route key 'key' (NULL if it has
 * none), removed. */
void
orchd_resolve_delete(struct orchd *o, const struct uuid *route_uuid,
                     const struct uuid *key)
{
    orchd_status_forget(o->status, route_uuid);
    if (key) {
        o->n_deletes++;
        COVERAGE_INC(orchd_route_delete);
        orchd_worker_del(o->worker, key);
    }
}

/* Counts a route that could not be parsed. */
void
orchd_resolve_count_bad(struct orchd *o)
{
    o->n_updates++;
    o->n_bad++;
    COVERAGE_INC(orchd_route_bad);
}
