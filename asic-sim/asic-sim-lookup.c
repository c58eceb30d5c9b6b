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

/* asic-sim: lookups as the forwarding pipeline would do them, and dumps
 * of routes, neighbors and objects. */

#include <config.h>

#include "asic-sim/asic-sim-private.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/lpm4.h"
#include "asic-sim/lpm6.h"
#include "asic-sim/sai-util.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/util.h"
#include "util.h"

/* ---- Lookups ------------------------------------------------------------ */

static bool
is_forwarding_action(sai_packet_action_t action)
{
    return (action != SAI_PACKET_ACTION_DROP
            && action != SAI_PACKET_ACTION_DENY
            && action != SAI_PACKET_ACTION_TRAP);
}

/* Finds the VR with id 'vr_id'.  Returns NULL if there is none. */
static struct sim_vr *
vr_find_any(sai_object_id_t vr_id, struct sim_switch **swp)
{
    return vr_cast(obj_find_any(vr_id, KIND_VR, swp));
}

/* Looks up 'addr' in 'vr'.  On a match, stores the route record's index
 * and the prefix length and returns true. */
static inline bool
vr_lookup(const struct sim_vr *vr, const sai_ip_address_t *addr,
          uint32_t *index, unsigned int *plen)
{
    if (addr->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        return (vr->lpm4 && vr->admin_v4
                && lpm4_lookup(vr->lpm4, ntohl(addr->addr.ip4), index, plen));
    } else {
        struct in6_addr a;

        memcpy(&a, addr->addr.ip6, sizeof a);
        return (vr->lpm6 && vr->admin_v6
                && lpm6_lookup(vr->lpm6, &a, index, plen));
    }
}

/* Fills 'out' with route 'r' of 'vr' on 'sw', whose prefix is 'plen' bits
 * of 'addr'. */
static void
route_fill(const struct sim_switch *sw, const struct sim_vr *vr,
           const sai_ip_address_t *addr, unsigned int plen,
           const struct sim_route *r, struct asic_sim_route *out)
{
    out->entry.switch_id = sw->oid;
    out->entry.vr_id = vr->obj.oid;
    if (addr->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        sai_util_ip_prefix_init4(&out->entry.destination,
                                 ntohl(addr->addr.ip4),
                                 plen);
    } else {
        struct in6_addr a;

        memcpy(&a, addr->addr.ip6, sizeof a);
        sai_util_ip_prefix_init6(&out->entry.destination, &a, plen);
    }
    out->action = r->action;
    out->next_hop_id = nhref_oid(sw, r->nhref);
    out->hits = r->hits;
}

/* Fills 'out' with next hop 'nh' (as member 'm', if nonnull). */
static void
nexthop_fill_nh(const struct sim_switch *sw, const struct sim_nh *nh,
                const struct sim_nhgm *m, struct asic_sim_nexthop *out)
{
    const struct sim_neighbor *nb = asim_neighbor_find(sw, nh->rif, &nh->ip);

    memset(out, 0, sizeof *out);
    out->next_hop_id = nh->obj.oid;
    out->member_id = m ? m->obj.oid : SAI_NULL_OBJECT_ID;
    out->rif_id = nh->rif->obj.oid;
    out->port_id = nh->rif->port ? nh->rif->port->obj.oid : 0;
    out->ip = nh->ip;
    out->weight = m ? m->weight : 1;
    out->neighbor_resolved = nb != NULL;
    if (nb) {
        memcpy(out->mac, nb->mac, sizeof out->mac);
    }
}

/* Resolves the next hops of route 'r' on 'sw', matched by 'addr', into
 * 'nhs', which has room for '*n' of them.  Sets '*n' to the number of next
 * hops and returns SAI_STATUS_BUFFER_OVERFLOW (filling nothing) if they do
 * not fit. */
static sai_status_t
route_resolve(const struct sim_switch *sw, const struct sim_route *r,
              const sai_ip_address_t *addr, struct asic_sim_nexthop *nhs,
              uint32_t *n)
{
    struct sim_obj *obj = r->nhref ? nhref_obj(sw, r->nhref) : NULL;
    enum sim_kind kind = (r->nhref >> NHREF_KIND_SHIFT) - 1;
    uint32_t needed;

    if (!obj || !is_forwarding_action(r->action)) {
        needed = 0;
    } else if (kind == KIND_NHG) {
        needed = nhg_cast(obj)->n_members;
    } else {
        needed = 1;
    }
    if (needed > *n) {
        *n = needed;
        return SAI_STATUS_BUFFER_OVERFLOW;
    }
    *n = needed;
    if (!needed) {
        return SAI_STATUS_SUCCESS;
    }

    if (kind == KIND_NH) {
        nexthop_fill_nh(sw, nh_cast(obj), NULL, &nhs[0]);
    } else if (kind == KIND_NHG) {
        struct sim_nhgm *m;
        uint32_t i = 0;

        LIST_FOR_EACH (m, list_node, &nhg_cast(obj)->members) {
            nexthop_fill_nh(sw, m->nh, m, &nhs[i++]);
        }
    } else if (kind == KIND_RIF) {
        /* Directly connected: the destination itself is the neighbor. */
        struct sim_rif *rif = rif_cast(obj);
        sai_ip_address_t ip = sai_util_ip_address_normalize(addr);
        const struct sim_neighbor *nb = asim_neighbor_find(sw, rif, &ip);

        memset(&nhs[0], 0, sizeof nhs[0]);
        nhs[0].rif_id = rif->obj.oid;
        nhs[0].port_id = rif->port ? rif->port->obj.oid : 0;
        nhs[0].ip = ip;
        nhs[0].weight = 1;
        nhs[0].neighbor_resolved = nb != NULL;
        if (nb) {
            memcpy(nhs[0].mac, nb->mac, sizeof nhs[0].mac);
        }
    } else {
        /* IP2ME: to the CPU port. */
        memset(&nhs[0], 0, sizeof nhs[0]);
        nhs[0].port_id = obj->oid;
        nhs[0].ip.addr_family = addr->addr_family;
        nhs[0].weight = 1;
    }
    return SAI_STATUS_SUCCESS;
}

/* Looks up 'addr' in virtual router 'vr_id', as the ASIC's forwarding
 * pipeline would: finds the longest matching route, counts a hit on it,
 * and stores it in '*route' (if nonnull).
 *
 * If 'n_nexthops' is nonnull, also resolves the route's next hops into
 * 'nexthops', which has room for '*n_nexthops' of them, and sets
 * '*n_nexthops' to their number: 0 for a route that drops or traps (or
 * forwards to nothing or to an empty group), 1 for a next hop, a directly
 * connected RIF or the CPU port, and one per member, with its weight, for
 * a group.  If they do not fit, returns SAI_STATUS_BUFFER_OVERFLOW with
 * '*n_nexthops' set to the number needed, and counts no hit.
 *
 * Returns SAI_STATUS_ITEM_NOT_FOUND if no route matches (or the VR's admin
 * state for the family is down), SAI_STATUS_INVALID_OBJECT_ID if 'vr_id' is
 * not a VR, SAI_STATUS_INVALID_PARAMETER if 'addr' has no valid family. */
sai_status_t
asic_sim_lookup(sai_object_id_t vr_id, const sai_ip_address_t *addr,
                struct asic_sim_route *route,
                struct asic_sim_nexthop *nexthops, uint32_t *n_nexthops)
{
    struct sim_switch *sw;
    struct sim_vr *vr = vr_find_any(vr_id, &sw);
    unsigned int plen;
    uint32_t index;

    if (!vr) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if (!addr || !ip_family_is_valid(addr->addr_family)) {
        return SAI_STATUS_INVALID_PARAMETER;
    }

    if (!vr_lookup(vr, addr, &index, &plen)) {
        sw->stats.lookups++;
        sw->stats.lookup_misses++;
        return SAI_STATUS_ITEM_NOT_FOUND;
    }

    /* A lookup that overflows 'nexthops' does not count: the caller will
     * retry it with more room. */
    struct sim_route *r = route_get(sw, index);
    if (n_nexthops) {
        sai_status_t status = route_resolve(sw, r, addr, nexthops,
                                            n_nexthops);
        if (status) {
            return status;
        }
    }
    sw->stats.lookups++;
    r->hits++;
    if (route) {
        route_fill(sw, vr, addr, plen, r, route);
    }
    return SAI_STATUS_SUCCESS;
}

/* Looks up each of the 'n' addresses in 'addrs' in virtual router 'vr_id',
 * counting a hit on each matching route, and stores in 'statuses[i]'
 * SAI_STATUS_SUCCESS and the route in 'routes[i]' (if 'routes' is
 * nonnull), or SAI_STATUS_ITEM_NOT_FOUND (or SAI_STATUS_INVALID_PARAMETER
 * for an address without a valid family).  Next hops are not resolved
 * (routes[i].next_hop_id says where the route points).
 *
 * Faster than asic_sim_lookup() in a loop: the LPM entries and route
 * records of a batch of addresses are fetched in parallel.  Returns
 * SAI_STATUS_SUCCESS unless the arguments are invalid: misses are reported
 * only in 'statuses'. */
sai_status_t
asic_sim_lookup_bulk(sai_object_id_t vr_id, uint32_t n,
                     const sai_ip_address_t addrs[],
                     struct asic_sim_route routes[],
                     sai_status_t statuses[])
{
    enum { BATCH = 16 };
    struct sim_switch *sw;
    struct sim_vr *vr = vr_find_any(vr_id, &sw);

    if (!vr) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if (n && (!addrs || !statuses)) {
        return SAI_STATUS_INVALID_PARAMETER;
    }

    uint32_t misses = 0;
    for (uint32_t b = 0; b < n; b += BATCH) {
        uint32_t indexes[BATCH];
        uint8_t plens[BATCH];
        uint32_t m = MIN(BATCH, n - b);

        /* Stage 1: fetch the tbl24 entries of the IPv4 addresses. */
        if (vr->lpm4) {
            for (uint32_t i = 0; i < m; i++) {
                const sai_ip_address_t *a = &addrs[b + i];

                if (a->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
                    lpm4_lookup_prefetch(vr->lpm4, ntohl(a->addr.ip4));
                }
            }
        }

        /* Stage 2: look up, and fetch the route records. */
        for (uint32_t i = 0; i < m; i++) {
            const sai_ip_address_t *a = &addrs[b + i];
            unsigned int plen;

            if (!ip_family_is_valid(a->addr_family)) {
                indexes[i] = UINT32_MAX;
                statuses[b + i] = SAI_STATUS_INVALID_PARAMETER;
            } else if (vr_lookup(vr, a, &indexes[i], &plen)) {
                plens[i] = plen;
                OVS_PREFETCH_WRITE(route_get(sw, indexes[i]));
                statuses[b + i] = SAI_STATUS_SUCCESS;
            } else {
                indexes[i] = UINT32_MAX;
                statuses[b + i] = SAI_STATUS_ITEM_NOT_FOUND;
                misses++;
            }
        }

        /* Stage 3: count the hits and report the routes. */
        for (uint32_t i = 0; i < m; i++) {
            if (indexes[i] != UINT32_MAX) {
                struct sim_route *r = route_get(sw, indexes[i]);

                r->hits++;
                if (routes) {
                    route_fill(sw, vr, &addrs[b + i], plens[i], r,
                               &routes[b + i]);
                }
            }
        }
    }
    sw->stats.lookups += n;
    sw->stats.lookup_misses += misses;
    return SAI_STATUS_SUCCESS;
}

/* Chooses among the 'n' next hops in 'nhs' (as returned by
 * asic_sim_lookup()) the one that a flow with hash 'flow_hash' takes,
 * in proportion to their weights, and returns its index.  Returns
 * UINT32_MAX if 'n' is 0. */
uint32_t
asic_sim_ecmp_select(const struct asic_sim_nexthop *nhs, uint32_t n,
                     uint32_t flow_hash)
{
    uint64_t total = 0;

    for (uint32_t i = 0; i < n; i++) {
        total += MAX(nhs[i].weight, 1);
    }
    if (!total) {
        return UINT32_MAX;
    }

    uint64_t x = flow_hash % total;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t w = MAX(nhs[i].weight, 1);

        if (x < w) {
            return i;
        }
        x -= w;
    }
    OVS_NOT_REACHED();
}

/* ---- Dumps -------------------------------------------------------------- */

/* Context of asic_sim_route_walk(). */
struct walk_ctx {
    const struct sim_switch *sw; /* The switch. */
    const struct sim_vr *vr;    /* The VR being walked. */
    asic_sim_route_cb *cb;      /* The caller's callback... */
    void *aux;                  /* ...and its argument. */
};

/* Reports route record 'index', whose prefix is 'prefix', to the walk's
 * callback. */
static void
walk_route(struct walk_ctx *ctx, const sai_ip_prefix_t *prefix,
           uint32_t index)
{
    const struct sim_route *r = route_get(ctx->sw, index);
    struct asic_sim_route route;

    route.entry.switch_id = ctx->sw->oid;
    route.entry.vr_id = ctx->vr->obj.oid;
    route.entry.destination = *prefix;
    route.action = r->action;
    route.next_hop_id = nhref_oid(ctx->sw, r->nhref);
    route.hits = r->hits;
    ctx->cb(&route, ctx->aux);
}

/* lpm4_walk() callback for asic_sim_route_walk(). */
static void
walk4_cb(uint32_t prefix, unsigned int plen, uint32_t value, void *ctx_)
{
    sai_ip_prefix_t p;

    sai_util_ip_prefix_init4(&p, prefix, plen);
    walk_route(ctx_, &p, value);
}

/* lpm6_walk() callback for asic_sim_route_walk(). */
static void
walk6_cb(const struct in6_addr *prefix, unsigned int plen, uint32_t value,
         void *ctx_)
{
    sai_ip_prefix_t p;

    sai_util_ip_prefix_init6(&p, prefix, plen);
    walk_route(ctx_, &p, value);
}

/* Calls 'cb' with 'aux' for every route of virtual router 'vr_id', with
 * its attributes and hit count: first the IPv4 routes, then the IPv6 ones,
 * each in order of address, then prefix length.  'cb' must not create or
 * remove routes.  Costs a sort of the IPv4 routes. */
sai_status_t
asic_sim_route_walk(sai_object_id_t vr_id, asic_sim_route_cb *cb, void *aux)
{
    struct sim_switch *sw;
    struct sim_vr *vr = vr_find_any(vr_id, &sw);

    if (!vr) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }

    struct walk_ctx ctx = { sw, vr, cb, aux };
    if (vr->lpm4) {
        lpm4_walk(vr->lpm4, true, walk4_cb, &ctx);
    }
    if (vr->lpm6) {
        lpm6_walk(vr->lpm6, walk6_cb, &ctx);
    }
    return SAI_STATUS_SUCCESS;
}

/* Stores the number of IPv4 and IPv6 routes of 'vr_id' in '*n_ipv4' and
 * '*n_ipv6' (each may be null). */
sai_status_t
asic_sim_route_count(sai_object_id_t vr_id, uint32_t *n_ipv4,
                     uint32_t *n_ipv6)
{
    struct sim_switch *sw;
    struct sim_vr *vr = vr_find_any(vr_id, &sw);

    if (!vr) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    if (n_ipv4) {
        *n_ipv4 = vr->lpm4 ? lpm4_count(vr->lpm4) : 0;
    }
    if (n_ipv6) {
        *n_ipv6 = vr->lpm6 ? lpm6_count(vr->lpm6) : 0;
    }
    return SAI_STATUS_SUCCESS;
}

/* Calls 'cb' with 'aux' for every neighbor entry of 'switch_id', in no
 * particular order.  'cb' must not create or remove neighbors. */
sai_status_t
asic_sim_neighbor_walk(sai_object_id_t switch_id, asic_sim_neighbor_cb *cb,
                       void *aux)
{
    struct sim_switch *sw = switch_find(switch_id);
    const struct sim_neighbor *nb;

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    HMAP_FOR_EACH (nb, hmap_node, &sw->neighbors) {
        sai_neighbor_entry_t e;

        e.switch_id = sw->oid;
        e.rif_id = nb->rif->obj.oid;
        e.ip_address = nb->ip;
        cb(&e, nb->mac, nb->action, aux);
    }
    return SAI_STATUS_SUCCESS;
}

/* Returns the slot-table kind of 'type', or -1. */
static int
type_kind(sai_object_type_t type)
{
    for (int k = 0; k < N_KINDS; k++) {
        if (asim_kind_types[k] == type) {
            return k;
        }
    }
    return -1;
}

/* Stores in '*count' the number of objects of 'type' on 'switch_id': ports
 * (the CPU port included), VRs, RIFs, next hops, groups, members, route
 * entries, neighbor entries or switches (1). */
sai_status_t
asic_sim_get_object_count(sai_object_id_t switch_id, sai_object_type_t type,
                          uint32_t *count)
{
    struct sim_switch *sw = switch_find(switch_id);
    int kind = type_kind(type);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if (kind >= 0) {
        *count = sw->tabs[kind].n_objs;
    } else if (type == SAI_OBJECT_TYPE_ROUTE_ENTRY) {
        *count = (sw->used[ASIC_SIM_RES_IPV4_ROUTE]
                  + sw->used[ASIC_SIM_RES_IPV6_ROUTE]);
    } else if (type == SAI_OBJECT_TYPE_NEIGHBOR_ENTRY) {
        *count = hmap_count(&sw->neighbors);
    } else if (type == SAI_OBJECT_TYPE_SWITCH) {
        *count = 1;
    } else {
        return SAI_STATUS_INVALID_OBJECT_TYPE;
    }
    return SAI_STATUS_SUCCESS;
}

/* Fills 'list' with the ids of the objects of 'type' on 'switch_id', in
 * order of slot, following SAI's SAI_STATUS_BUFFER_OVERFLOW convention.
 * For the types that have ids only (not route or neighbor entries). */
sai_status_t
asic_sim_get_object_list(sai_object_id_t switch_id, sai_object_type_t type,
                         sai_object_list_t *list)
{
    struct sim_switch *sw = switch_find(switch_id);
    int kind = type_kind(type);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if (type == SAI_OBJECT_TYPE_SWITCH) {
        return objlist_fill(list, &sw->oid, 1);
    } else if (kind < 0) {
        return SAI_STATUS_INVALID_OBJECT_TYPE;
    }

    const struct objtab *tab = &sw->tabs[kind];
    sai_object_id_t *ids = xmalloc((tab->n_objs + 1) * sizeof *ids);
    uint32_t n = 0;
    for (uint32_t i = 0; i < tab->n_slots; i++) {
        if (tab->slots[i].obj) {
            ids[n++] = tab->slots[i].obj->oid;
        }
    }
    sai_status_t status = objlist_fill(list, ids, n);
    free(ids);
    return status;
}
