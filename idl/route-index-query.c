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


/* route-index-query: what reads a route index (idl/route-index.h):
 * lookups, longest-prefix matches, the ordered walks of its cursors and
 * its statistics.  idl/route-index.c keeps the index. */

#include <config.h>

#include "idl/route-index-private.h"

#include <string.h>
#include <sys/socket.h>

#include "openvswitch/hmap.h"
#include "simap.h"
#include "skiplist.h"
#include "util.h"

/* Lookups. */

/* Points the search row at ('vrf_name', 'p').  'vrf' is the interned VRF
 * or NULL. */
static void
ri_set_search(struct route_index *ri, const char *vrf_name,
              struct ri_name *vrf, const struct fib_prefix *p)
{
    struct fibrec_route *s = ri->search;
    struct ri_trailer *t = ri_trailer(s);

    s->vrf = CONST_CAST(char *, vrf_name);
    t->vrf = vrf;
    t->prefix = *p;
    t->flags = RI_F_PREFIX | RI_F_PREFIX_OK;
    if (ri->cmp == ROUTE_INDEX_CMP_TEXT) {
        fib_prefix_format(p, ri->search_text);
    }
    s->prefix = ri->search_text;
}

/* The smallest prefix in index order. */
static const struct fib_prefix ri_min_prefix = { .family = AF_INET };

/* Returns the route ('vrf', 'p'), or NULL. */
const struct fibrec_route *
route_index_find(struct route_index *ri, const char *vrf,
                 const struct fib_prefix *p)
{
    struct ri_name *v = route_index__name_find(&ri->vrfs, vrf);

    ovs_assert(ri->by_vrf);
    if (!v && ri->cmp == ROUTE_INDEX_CMP_BINARY) {
        /* Every route's VRF is interned, so there is none in 'vrf'. */
        return NULL;
    }
    ri_set_search(ri, vrf, v, p);
    return fibrec_route_index_find(ri->by_vrf, ri->search);
}

/* Probes the lengths of 'addr''s family from 'addr->len' down to 0 with
 * exact lookups, skipping lengths without routes if 'skip'. */
static const struct fibrec_route *
ri_lpm(struct route_index *ri, const char *vrf,
       const struct fib_prefix *addr, bool skip)
{
    struct ri_name *v = route_index__name_find(&ri->vrfs, vrf);
    int fam = addr->family == AF_INET6;

    ovs_assert(ri->by_vrf);
    if (!v && ri->cmp == ROUTE_INDEX_CMP_BINARY) {
        return NULL;
    }
    for (int len = addr->len; len >= 0; len--) {
        const struct fibrec_route *route;
        struct fib_prefix p;

        if (skip && v && !v->n_len[fam][len]) {
            continue;
        }
        p = *addr;
        fib_prefix_truncate(&p, len);
        ri_set_search(ri, vrf, v, &p);
        route = fibrec_route_index_find(ri->by_vrf, ri->search);
        if (route) {
            return route;
        }
    }
    return NULL;
}

/* Returns the route of 'vrf' with the longest prefix that contains 'addr'
 * (an address as a host prefix, or any prefix), or NULL. */
const struct fibrec_route *
route_index_lpm(struct route_index *ri, const char *vrf,
                const struct fib_prefix *addr)
{
    return ri_lpm(ri, vrf, addr, true);
}

/* Like route_index_lpm(), but probes every length, for measurements. */
const struct fibrec_route *
route_index_lpm_all_lengths(struct route_index *ri, const char *vrf,
                            const struct fib_prefix *addr)
{
    return ri_lpm(ri, vrf, addr, false);
}

/* Returns the binary prefix of 'route', or NULL if it is not valid. */
const struct fib_prefix *
route_index_route_prefix(const struct fibrec_route *route)
{
    const struct ri_trailer *t = ri_trailer(route);

    return route_index__of_row(&route->header_) && t->flags & RI_F_PREFIX_OK
           ? &t->prefix : NULL;
}

/* Walks. */

/* True if 'route' is in VRF 'vrf' (interned, or NULL for none). */
static bool
ri_in_vrf(const struct fibrec_route *route, const struct ri_name *vrf,
          const struct route_index_cursor *c)
{
    if (c->index->cmp == ROUTE_INDEX_CMP_BINARY) {
        return ri_trailer(route)->vrf == vrf;
    }
    return vrf && !strcmp(route->vrf, vrf->name);
}

/* Returns the route at 'c''s position if it is still within the walk,
 * otherwise ends the walk and returns NULL. */
static const struct fibrec_route *
ri_cursor_current(struct route_index_cursor *c)
{
    const struct fibrec_route *route;

    if (c->walk == ROUTE_INDEX_WALK_NEXTHOP) {
        /* Skip rows deleted but not yet freed (kept by change tracking):
         * they leave the next-hop structure only when unparsed. */
        for (;;) {
            const struct ri_nh_ref *ref = skiplist_get_data(c->node);

            if (!ref) {
                return NULL;
            } else if (ref->route->header_.old_datum) {
                return ref->route;
            }
            c->node = skiplist_next(c->node);
        }
    }

    route = fibrec_route_cursor_data(&c->ovs);
    if (!route) {
        return NULL;
    }
    switch (c->walk) {
    case ROUTE_INDEX_WALK_ALL:
        return route;
    case ROUTE_INDEX_WALK_VRF:
        if (ri_in_vrf(route, c->vrf, c)) {
            return route;
        }
        break;
    case ROUTE_INDEX_WALK_LONGER: {
        const struct ri_trailer *t = ri_trailer(route);

        if (ri_in_vrf(route, c->vrf, c) && t->flags & RI_F_PREFIX_OK
            && fib_prefix_contains(&c->within, &t->prefix)) {
            return route;
        }
        break;
    }
    case ROUTE_INDEX_WALK_PROTOCOL: {
        /* The (vrf, prefix) index, filtered (route-index.h). */
        const struct ri_name *proto = c->protocol;

        for (; route; route = fibrec_route_cursor_data(&c->ovs)) {
            if (c->vrf && !ri_in_vrf(route, c->vrf, c)) {
                break;
            } else if (c->index->cmp == ROUTE_INDEX_CMP_BINARY
                       ? ri_trailer(route)->protocol == proto
                       : !strcmp(route->protocol, proto->name)) {
                return route;
            }
            ovsdb_idl_cursor_next(&c->ovs);
        }
        break;
    }
    case ROUTE_INDEX_WALK_NEXTHOP:
    default:
        OVS_NOT_REACHED();
    }
    c->ovs.position = NULL;
    return NULL;
}

static void
ri_cursor_init(struct route_index *ri, struct route_index_cursor *c,
               enum route_index_walk walk)
{
    ovs_assert(ri->cmp != ROUTE_INDEX_CMP_NONE);
    memset(c, 0, sizeof *c);
    c->index = ri;
    c->walk = walk;
}

/* Starts a walk of every route, by VRF name then prefix. */
const struct fibrec_route *
route_index_first(struct route_index *ri, struct route_index_cursor *c)
{
    ri_cursor_init(ri, c, ROUTE_INDEX_WALK_ALL);
    c->ovs = fibrec_route_cursor_first(ri->by_vrf);
    return ri_cursor_current(c);
}

/* Starts a walk of the routes of 'vrf' in prefix order. */
const struct fibrec_route *
route_index_first_vrf(struct route_index *ri, struct route_index_cursor *c,
                      const char *vrf)
{
    struct ri_name *v = route_index__name_find(&ri->vrfs, vrf);

    ri_cursor_init(ri, c, ROUTE_INDEX_WALK_VRF);
    if (!v) {
        return NULL;
    }
    c->vrf = v;
    ri_set_search(ri, vrf, v, &ri_min_prefix);
    c->ovs = fibrec_route_cursor_first_ge(ri->by_vrf, ri->search);
    return ri_cursor_current(c);
}

/* Starts a walk of the routes of 'vrf' whose prefixes are within 'p'
 * ('p' itself included), in prefix order. */
const struct fibrec_route *
route_index_first_longer(struct route_index *ri,
                         struct route_index_cursor *c, const char *vrf,
                         const struct fib_prefix *p)
{
    struct ri_name *v = route_index__name_find(&ri->vrfs, vrf);

    ri_cursor_init(ri, c, ROUTE_INDEX_WALK_LONGER);
    if (!v) {
        return NULL;
    }
    c->vrf = v;
    c->within = *p;
    ri_set_search(ri, vrf, v, p);
    c->ovs = fibrec_route_cursor_first_ge(ri->by_vrf, ri->search);
    return ri_cursor_current(c);
}

/* Starts a walk of the routes of 'protocol', in (VRF, prefix) order, only
 * those of 'vrf' if it is nonnull. */
const struct fibrec_route *
route_index_first_protocol(struct route_index *ri,
                           struct route_index_cursor *c,
                           const char *protocol, const char *vrf)
{
    struct ri_name *proto = route_index__name_find(&ri->protocols, protocol);
    struct ri_name *v = vrf ? route_index__name_find(&ri->vrfs, vrf) : NULL;

    ri_cursor_init(ri, c, ROUTE_INDEX_WALK_PROTOCOL);
    if (!proto || (vrf && !v)) {
        return NULL;
    }
    c->protocol = proto;
    c->vrf = v;
    if (v) {
        ri_set_search(ri, vrf, v, &ri_min_prefix);
        c->ovs = fibrec_route_cursor_first_ge(ri->by_vrf, ri->search);
    } else {
        c->ovs = fibrec_route_cursor_first(ri->by_vrf);
    }
    return ri_cursor_current(c);
}

/* Starts a walk of the routes with next hop 'nexthop' (a key of
 * Route.nexthops), in (prefix, VRF) order. */
const struct fibrec_route *
route_index_first_nexthop(struct route_index *ri,
                          struct route_index_cursor *c, const char *nexthop)
{
    struct ri_nh *nh = route_index__nh_find(ri, nexthop);

    ri_cursor_init(ri, c, ROUTE_INDEX_WALK_NEXTHOP);
    if (!nh) {
        return NULL;
    }
    route_index__nh_settle(nh);
    c->node = skiplist_first(nh->routes);
    return ri_cursor_current(c);
}

/* Advances 'c' and returns the next route of its walk, or NULL at the
 * end. */
const struct fibrec_route *
route_index_next(struct route_index_cursor *c)
{
    if (c->walk == ROUTE_INDEX_WALK_NEXTHOP) {
        if (!c->node) {
            return NULL;
        }
        c->node = skiplist_next(c->node);
    } else {
        if (!c->ovs.position) {
            return NULL;
        }
        ovsdb_idl_cursor_next(&c->ovs);
    }
    return ri_cursor_current(c);
}

/* Statistics. */

/* Returns the number of routes in the index. */
size_t
route_index_count(const struct route_index *ri)
{
    return ri->by_vrf ? skiplist_get_size(ri->by_vrf->skiplist)
                      : ri->n_linked;
}

/* Returns the routes that use next-hop group 'id', in no order, and their
 * number in '*n'.  Rows deleted but kept by change tracking (their
 * 'header_.old_datum' is NULL) are included until the IDL frees them.
 * Valid until the next ovsdb_idl_run(). */
const struct fibrec_route *const *
route_index_nhg_users(const struct route_index *ri, int64_t id, size_t *n)
{
    const struct ri_nhg *g = route_index__nhg_find(ri, id);

    *n = g ? g->n : 0;
    return g ? g->routes : NULL;
}

/* Returns the number of distinct next hops. */
size_t
route_index_n_nexthops(const struct route_index *ri)
{
    return hmap_count(&ri->nexthops);
}

/* Returns the number of routes through 'nexthop' (deleted rows that change
 * tracking still keeps included). */
size_t
route_index_count_nexthop(const struct route_index *ri, const char *nexthop)
{
    const struct ri_nh *nh = route_index__nh_find(ri, nexthop);

    return nh ? skiplist_get_size(nh->routes) + nh->n_pending : 0;
}

/* Adds counters to 'usage' ("route-index-*"). */
void
route_index_get_memory_usage(const struct route_index *ri,
                             struct simap *usage)
{
    simap_increase(usage, "route-index-routes", route_index_count(ri));
    simap_increase(usage, "route-index-vrfs", hmap_count(&ri->vrfs));
    simap_increase(usage, "route-index-protocols",
                   hmap_count(&ri->protocols));
    simap_increase(usage, "route-index-nexthops", hmap_count(&ri->nexthops));
    simap_increase(usage, "route-index-nexthop-refs", ri->n_refs);
    simap_increase(usage, "route-index-nhg-users", ri->n_nhg_users);
}
