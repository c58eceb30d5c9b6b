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


/* The objects that routes point at: virtual routers, router interfaces,
 * next hops and next-hop groups (see daemons/syncd/syncd-apply.h, "Objects").
 * syncd-apply.c asks for them by route operation and gives them back; this
 * file creates them on demand, shares them, and removes them once the
 * last user is gone. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "coverage.h"
#include "daemons/syncd/syncd-apply-private.h"
#include "hash.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd_nexthop);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(syncd_apply_nh_create);
COVERAGE_DEFINE(syncd_apply_nh_remove);
COVERAGE_DEFINE(syncd_apply_nhg_create);
COVERAGE_DEFINE(syncd_apply_nhg_remove);

/* ---- Virtual routers and router interfaces ------------------------------ */

/* Returns the VR of VRF 'name', or NULL if it has none yet. */
struct sa_vr *
syncd_nexthop_vr_find(const struct syncd_apply *sa, const char *name)
{
    struct sa_vr *vr;

    HMAP_FOR_EACH_WITH_HASH (vr, node, hash_string(name, 0), &sa->vrs) {
        if (!strcmp(vr->name, name)) {
            return vr;
        }
    }
    return NULL;
}

/* Returns the VR of VRF 'name', creating it if needed.  On failure returns
 * NULL with '*status' set. */
struct sa_vr *
syncd_nexthop_vr_get(struct syncd_apply *sa, const char *name,
                     sai_status_t *status)
{
    struct sa_vr *vr = syncd_nexthop_vr_find(sa, name);
    sai_object_id_t oid;

    if (vr) {
        return vr;
    }
    if (sa->n_vrs >= UINT16_MAX) {
        *status = SAI_STATUS_INSUFFICIENT_RESOURCES;
        return NULL;
    }
    if (!strcmp(name, "default")) {
        sai_attribute_t attr = {
            .id = SAI_SWITCH_ATTR_DEFAULT_VIRTUAL_ROUTER_ID
        };

        *status = sa->switch_api->get_switch_attribute(sa->sw, 1, &attr);
        oid = attr.value.oid;
    } else {
        *status = sa->vr_api->create_virtual_router(&oid, sa->sw, 0, NULL);
    }
    if (*status) {
        VLOG_WARN_RL(&rl, "cannot create virtual router for VRF %s: %s",
                     name, sai_util_status_name(*status));
        return NULL;
    }

    vr = xzalloc(sizeof *vr);
    vr->name = xstrdup(name);
    vr->oid = oid;
    vr->index = sa->n_vrs;
    hmap_insert(&sa->vrs, &vr->node, hash_string(name, 0));
    APPEND(sa->vr_array, sa->n_vrs, sa->allocated_vrs, vr);
    VLOG_INFO("VRF %s is virtual router 0x%"PRIx64, name, oid);
    return vr;
}

/* Creates a router interface named 'name' in 'vr'. */
static struct sa_rif *
rif_create(struct syncd_apply *sa, struct sa_vr *vr, const char *name,
           sai_status_t *status)
{
    sai_attribute_t attrs[3];
    sai_object_id_t oid;

    attrs[0].id = SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID;
    attrs[0].value.oid = vr->oid;
    attrs[1].id = SAI_ROUTER_INTERFACE_ATTR_TYPE;
    attrs[1].value.s32 = SAI_ROUTER_INTERFACE_TYPE_PORT;
    attrs[2].id = SAI_ROUTER_INTERFACE_ATTR_PORT_ID;
    attrs[2].value.oid = sa->ports[sa->next_port];
    *status = sa->rif_api->create_router_interface(&oid, sa->sw, 3, attrs);
    if (*status) {
        VLOG_WARN_RL(&rl, "cannot create router interface %s: %s",
                     name, sai_util_status_name(*status));
        return NULL;
    }
    sa->next_port = (sa->next_port + 1) % sa->n_ports;

    struct sa_rif *rif = xzalloc(sizeof *rif);
    rif->name = xstrdup(name);
    rif->oid = oid;
    rif->vr = vr;
    hmap_insert(&sa->rifs_by_oid, &rif->oid_node, sa_oid_hash(oid));
    if (name[0]) {
        hmap_insert(&sa->rifs, &rif->name_node, hash_string(name, 0));
    }
    VLOG_DBG("interface %s is router interface 0x%"PRIx64" in VRF %s",
             name[0] ? name : "(unnamed)", oid, vr->name);
    return rif;
}

/* Returns the router interface for 'ifname' (NULL or "" for the unnamed
 * one of 'vr'), creating it in 'vr' if needed. */
static struct sa_rif *
rif_get(struct syncd_apply *sa, struct sa_vr *vr, const char *ifname,
        sai_status_t *status)
{
    if (!ifname || !ifname[0]) {
        if (!vr->anon_rif) {
            vr->anon_rif = rif_create(sa, vr, "", status);
        }
        return vr->anon_rif;
    }

    struct sa_rif *rif;
    HMAP_FOR_EACH_WITH_HASH (rif, name_node, hash_string(ifname, 0),
                             &sa->rifs) {
        if (!strcmp(rif->name, ifname)) {
            return rif;
        }
    }
    return rif_create(sa, vr, ifname, status);
}

/* ---- Next hops and groups ----------------------------------------------- */

static uint32_t
nh_hash(const sai_ip_address_t *ip, const struct sa_rif *rif)
{
    return hash_bytes(ip, sizeof *ip, hash_pointer(rif, 0));
}

/* True if the module has queued work or garbage whose completion might
 * free resources. */
static bool
apply_has_work(const struct syncd_apply *sa)
{
    return sa->n_ops || sa->n_gc_nhs || sa->n_gc_nhgs;
}

/* Returns the next hop (gateway 'ip', interface 'rif') with a new
 * reference, creating it if needed; NULL with '*status' on failure. */
static struct sa_nh *
nh_get(struct syncd_apply *sa, const sai_ip_address_t *ip_,
       struct sa_rif *rif, sai_status_t *status)
{
    sai_ip_address_t ip = sai_util_ip_address_normalize(ip_);
    uint32_t hash = nh_hash(&ip, rif);
    struct sa_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, node, hash, &sa->nhs) {
        if (nh->rif == rif && !memcmp(&nh->ip, &ip, sizeof ip)) {
            nh->refcnt++;
            return nh;
        }
    }

    sai_attribute_t attrs[3];
    sai_object_id_t oid;
    attrs[0].id = SAI_NEXT_HOP_ATTR_TYPE;
    attrs[0].value.s32 = SAI_NEXT_HOP_TYPE_IP;
    attrs[1].id = SAI_NEXT_HOP_ATTR_IP;
    attrs[1].value.ipaddr = ip;
    attrs[2].id = SAI_NEXT_HOP_ATTR_ROUTER_INTERFACE_ID;
    attrs[2].value.oid = rif->oid;
    *status = sa->nh_api->create_next_hop(&oid, sa->sw, 3, attrs);
    if (*status == SAI_STATUS_INSUFFICIENT_RESOURCES && apply_has_work(sa)
        && !sa->flushing) {
        /* Queued removals may free room. */
        sa->nh_hooks->flush(sa->nh_aux);
        *status = sa->nh_api->create_next_hop(&oid, sa->sw, 3, attrs);
    }
    if (*status) {
        return NULL;
    }

    nh = xzalloc(sizeof *nh);
    nh->ip = ip;
    nh->rif = rif;
    nh->oid = oid;
    nh->refcnt = 1;
    hmap_insert(&sa->nhs, &nh->node, hash);
    hmap_insert(&sa->nhs_by_oid, &nh->oid_node, sa_oid_hash(oid));
    sa->stats.nh_created++;
    COVERAGE_INC(syncd_apply_nh_create);
    return nh;
}

static void
nh_unref(struct syncd_apply *sa, struct sa_nh *nh)
{
    ovs_assert(nh->refcnt > 0);
    if (!--nh->refcnt && !nh->in_gc) {
        nh->in_gc = true;
        APPEND(sa->gc_nhs, sa->n_gc_nhs, sa->allocated_gc_nhs, nh);
    }
}

static void
nhg_unref(struct syncd_apply *sa, struct sa_nhg *nhg)
{
    ovs_assert(nhg->refcnt > 0);
    if (!--nhg->refcnt && !nhg->in_gc) {
        nhg->in_gc = true;
        APPEND(sa->gc_nhgs, sa->n_gc_nhgs, sa->allocated_gc_nhgs, nhg);
    }
}

static uint32_t
members_hash(const struct sa_member *m, size_t n)
{
    uint32_t hash = n;

    for (size_t i = 0; i < n; i++) {
        hash = hash_pointer(m[i].nh, hash_int(m[i].weight, hash));
    }
    return hash;
}

static int
member_compare(const void *a_, const void *b_)
{
    const struct sa_member *a = a_;
    const struct sa_member *b = b_;

    if (a->nh->oid != b->nh->oid) {
        return a->nh->oid < b->nh->oid ? -1 : 1;
    }
    return a->weight < b->weight ? -1 : a->weight > b->weight;
}

/* Removes the 'n' group members with ids 'ids' from the switch, storing
 * each one's outcome in 'statuses'.  Returns the first failure, if any. */
static sai_status_t
members_remove(struct syncd_apply *sa, const sai_object_id_t *ids, size_t n,
               sai_status_t *statuses)
{
    if (!sa->nhg_api->remove_next_hop_group_members(
            n, ids, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, statuses)) {
        memset(statuses, 0, n * sizeof *statuses);
        return SAI_STATUS_SUCCESS;
    }
    for (size_t i = 0; i < n; i++) {
        if (statuses[i]) {
            return statuses[i];
        }
    }
    return SAI_STATUS_SUCCESS;
}

/* Creates a group with the 'n' members in 'm' (sorted, each holding a
 * next-hop reference that the group takes over).  Returns it with one
 * reference, or NULL with '*status' set (the references stay with the
 * caller). */
static struct sa_nhg *
nhg_create(struct syncd_apply *sa, const struct sa_member *m, size_t n,
           uint32_t hash, sai_status_t *status)
{
    sai_attribute_t type_attr = {
        .id = SAI_NEXT_HOP_GROUP_ATTR_TYPE,
        .value.s32 = SAI_NEXT_HOP_GROUP_TYPE_ECMP,
    };
    sai_object_id_t oid;

    *status = sa->nhg_api->create_next_hop_group(&oid, sa->sw, 1,
                                                 &type_attr);
    if (*status == SAI_STATUS_INSUFFICIENT_RESOURCES && apply_has_work(sa)
        && !sa->flushing) {
        sa->nh_hooks->flush(sa->nh_aux);
        *status = sa->nhg_api->create_next_hop_group(&oid, sa->sw, 1,
                                                     &type_attr);
    }
    if (*status) {
        return NULL;
    }

    sai_attribute_t *attrs = xmalloc(3 * n * sizeof *attrs);
    const sai_attribute_t **attr_ptrs = xmalloc(n * sizeof *attr_ptrs);
    uint32_t *attr_counts = xmalloc(n * sizeof *attr_counts);
    sai_object_id_t *ids = xzalloc(n * sizeof *ids);
    sai_status_t *statuses = xmalloc(n * sizeof *statuses);
    for (size_t i = 0; i < n; i++) {
        sai_attribute_t *a = &attrs[3 * i];

        a[0].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_GROUP_ID;
        a[0].value.oid = oid;
        a[1].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID;
        a[1].value.oid = m[i].nh->oid;
        a[2].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT;
        a[2].value.u32 = m[i].weight;
        attr_ptrs[i] = a;
        attr_counts[i] = 3;
    }
    *status = sa->nhg_api->create_next_hop_group_members(
        sa->sw, n, attr_counts, attr_ptrs,
        SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, ids, statuses);

    struct sa_nhg *nhg = NULL;
    if (*status) {
        /* Undo: remove the members that were created, then the group. */
        size_t n_created = 0;

        for (size_t i = 0; i < n; i++) {
            if (!statuses[i]) {
                ids[n_created++] = ids[i];
            } else if (statuses[i] != SAI_STATUS_NOT_EXECUTED) {
                *status = statuses[i];
            }
        }
        if (n_created) {
            members_remove(sa, ids, n_created, statuses);
        }
        sa->nhg_api->remove_next_hop_group(oid);
    } else {
        nhg = xzalloc(sizeof *nhg + n * sizeof *nhg->members);
        nhg->oid = oid;
        nhg->refcnt = 1;
        nhg->n = n;
        for (size_t i = 0; i < n; i++) {
            nhg->members[i] = m[i];
            nhg->members[i].oid = ids[i];
        }
        hmap_insert(&sa->nhgs, &nhg->node, hash);
        hmap_insert(&sa->nhgs_by_oid, &nhg->oid_node, sa_oid_hash(oid));
        sa->stats.nhg_created++;
        COVERAGE_INC(syncd_apply_nhg_create);
    }
    free(attrs);
    free(attr_ptrs);
    free(attr_counts);
    free(ids);
    free(statuses);
    return nhg;
}

/* Removes next-hop group 'nhg', unused, from the switch: its members that
 * are left, then the group.  Returns true if all went and 'nhg' is freed.
 * Otherwise some members may be gone, so the group no longer has the
 * content it is known by: it is set aside ('stuck'), where no route can
 * take it, and syncd_nexthop_retry_stuck() tries again later. */
static bool
nhg_destroy(struct syncd_apply *sa, struct sa_nhg *nhg)
{
    sai_object_id_t *ids = xmalloc(nhg->n * sizeof *ids);
    sai_status_t *statuses = xmalloc(nhg->n * sizeof *statuses);
    size_t *which = xmalloc(nhg->n * sizeof *which);
    sai_status_t status = SAI_STATUS_SUCCESS;
    size_t n = 0;

    for (size_t i = 0; i < nhg->n; i++) {
        if (nhg->members[i].oid != SAI_NULL_OBJECT_ID) {
            ids[n] = nhg->members[i].oid;
            which[n++] = i;
        }
    }
    if (n) {
        status = members_remove(sa, ids, n, statuses);
        for (size_t j = 0; j < n; j++) {
            struct sa_member *m = &nhg->members[which[j]];

            if (!statuses[j]) {
                m->oid = SAI_NULL_OBJECT_ID;
                nh_unref(sa, m->nh);
                m->nh = NULL;
            }
        }
    }
    free(ids);
    free(statuses);
    free(which);
    if (!status) {
        status = sa->nhg_api->remove_next_hop_group(nhg->oid);
    }
    if (status) {
        VLOG_WARN_RL(&rl, "cannot remove next-hop group 0x%"PRIx64": %s%s",
                     nhg->oid, sai_util_status_name(status),
                     nhg->stuck ? "" : " (set aside, retried later)");
        if (!nhg->stuck) {
            nhg->stuck = true;
            hmap_remove(&sa->nhgs, &nhg->node);
            APPEND(sa->stuck_nhgs, sa->n_stuck_nhgs,
                   sa->allocated_stuck_nhgs, nhg);
            sa->nh_hooks->retry_later(sa->nh_aux);
            sa->stats.nhg_stuck++;
        }
        return false;
    }

    if (!nhg->stuck) {
        hmap_remove(&sa->nhgs, &nhg->node);
    }
    hmap_remove(&sa->nhgs_by_oid, &nhg->oid_node);
    free(nhg);
    sa->stats.nhg_removed++;
    COVERAGE_INC(syncd_apply_nhg_remove);
    return true;
}

/* Tries again to remove the next-hop groups set aside by nhg_destroy(),
 * then the next hops that this leaves unused. */
void
syncd_nexthop_retry_stuck(struct syncd_apply *sa)
{
    size_t n = 0;

    for (size_t i = 0; i < sa->n_stuck_nhgs; i++) {
        struct sa_nhg *nhg = sa->stuck_nhgs[i];

        if (!nhg_destroy(sa, nhg)) {
            sa->stuck_nhgs[n++] = nhg;
        }
    }
    sa->n_stuck_nhgs = n;
    syncd_nexthop_gc(sa);
}

/* Removes next hop 'nh', unused, from the switch and frees it.  Returns
 * false (keeping it) if the switch refused. */
static bool
nh_destroy(struct syncd_apply *sa, struct sa_nh *nh)
{
    sai_status_t status = sa->nh_api->remove_next_hop(nh->oid);

    if (status) {
        VLOG_WARN_RL(&rl, "cannot remove next hop 0x%"PRIx64": %s",
                     nh->oid, sai_util_status_name(status));
        return false;
    }
    hmap_remove(&sa->nhs, &nh->node);
    hmap_remove(&sa->nhs_by_oid, &nh->oid_node);
    free(nh);
    sa->stats.nh_removed++;
    COVERAGE_INC(syncd_apply_nh_remove);
    return true;
}

/* Removes the groups, then the next hops, that lost their last reference
 * (and did not get a new one since). */
void
syncd_nexthop_gc(struct syncd_apply *sa)
{
    for (size_t i = 0; i < sa->n_gc_nhgs; i++) {
        struct sa_nhg *nhg = sa->gc_nhgs[i];

        nhg->in_gc = false;
        if (!nhg->refcnt) {
            nhg_destroy(sa, nhg);
        }
    }
    sa->n_gc_nhgs = 0;

    for (size_t i = 0; i < sa->n_gc_nhs; i++) {
        struct sa_nh *nh = sa->gc_nhs[i];

        nh->in_gc = false;
        if (!nh->refcnt) {
            nh_destroy(sa, nh);
        }
    }
    sa->n_gc_nhs = 0;
}

void
syncd_nexthop_target_unref(struct syncd_apply *sa, const struct sa_target *t)
{
    if (t->kind == SA_T_NH) {
        nh_unref(sa, t->ptr);
    } else if (t->kind == SA_T_NHG) {
        nhg_unref(sa, t->ptr);
    }
}

sai_object_id_t
syncd_nexthop_target_oid(const struct sa_target *t)
{
    switch (t->kind) {
    case SA_T_NH:
        return ((const struct sa_nh *) t->ptr)->oid;
    case SA_T_NHG:
        return ((const struct sa_nhg *) t->ptr)->oid;
    case SA_T_RIF:
        return ((const struct sa_rif *) t->ptr)->oid;
    case SA_T_NONE:
    default:
        return SAI_NULL_OBJECT_ID;
    }
}

/* Describes target 't' as the next hops of the SET operation that would
 * resolve to it: stores them in '*nhs' (reallocated as needed, '*allocated'
 * its capacity) and returns how many there are.  Interface names point into
 * the target's objects: valid until they change. */
size_t
syncd_nexthop_target_describe(const struct sa_target *t,
                              struct syncd_nexthop **nhs, size_t *allocated)
{
    size_t n = (t->kind == SA_T_NHG
                ? ((const struct sa_nhg *) t->ptr)->n
                : t->kind == SA_T_NONE ? 0 : 1);

    if (n > *allocated) {
        *allocated = n;
        *nhs = xrealloc(*nhs, n * sizeof **nhs);
    }
    switch (t->kind) {
    case SA_T_RIF: {
        const struct sa_rif *rif = t->ptr;

        (*nhs)[0] = (struct syncd_nexthop) {
            .has_gateway = false, .ifname = rif->name, .weight = 1,
        };
        break;
    }
    case SA_T_NH: {
        const struct sa_nh *nh = t->ptr;

        (*nhs)[0] = (struct syncd_nexthop) {
            .has_gateway = true, .gateway = nh->ip,
            .ifname = nh->rif->name, .weight = 1,
        };
        break;
    }
    case SA_T_NHG: {
        const struct sa_nhg *g = t->ptr;

        for (size_t i = 0; i < n; i++) {
            const struct sa_nh *nh = g->members[i].nh;

            (*nhs)[i] = (struct syncd_nexthop) {
                .has_gateway = true, .gateway = nh->ip,
                .ifname = nh->rif->name, .weight = g->members[i].weight,
            };
        }
        break;
    }
    case SA_T_NONE:
    default:
        break;
    }
    return n;
}

/* Drops the next-hop references of the 'n' members 'm'. */
static void
members_unref(struct syncd_apply *sa, const struct sa_member *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        nh_unref(sa, m[i].nh);
    }
}

/* If SET operation 'op' is a connected route (a next hop without a
 * gateway), resolves it in 'vr' into '*t', holding a reference to its
 * interface, and returns true with the outcome in '*status'.  Otherwise
 * returns false. */
static bool
resolve_connected(struct syncd_apply *sa, struct sa_vr *vr,
                  const struct syncd_route_op *op, struct sa_target *t,
                  sai_status_t *status)
{
    for (size_t i = 0; i < op->n_nexthops; i++) {
        const struct syncd_nexthop *nh = &op->nexthops[i];

        if (!nh->has_gateway) {
            if (op->n_nexthops != 1 || !nh->ifname || !nh->ifname[0]) {
                *status = SAI_STATUS_INVALID_PARAMETER;
                return true;
            }
            struct sa_rif *rif = rif_get(sa, vr, nh->ifname, status);
            if (rif) {
                t->kind = SA_T_RIF;
                t->ptr = rif;
                *status = SAI_STATUS_SUCCESS;
            }
            return true;
        }
    }
    return false;
}

/* Takes a reference to the next hop of each gateway of SET operation 'op'
 * in 'vr', creating next hops and interfaces as needed, as members in
 * 'sa->scratch'.  Returns their number, or 0 with '*status' (holding no
 * reference) on failure. */
static size_t
members_get(struct syncd_apply *sa, struct sa_vr *vr,
            const struct syncd_route_op *op, sai_status_t *status)
{
    if (op->n_nexthops > sa->allocated_scratch) {
        sa->allocated_scratch = op->n_nexthops;
        sa->scratch = xrealloc(sa->scratch,
                               sa->allocated_scratch * sizeof *sa->scratch);
    }
    struct sa_member *m = sa->scratch;
    size_t n = 0;
    for (size_t i = 0; i < op->n_nexthops; i++) {
        const struct syncd_nexthop *snh = &op->nexthops[i];
        struct sa_rif *rif = rif_get(sa, vr, snh->ifname, status);
        struct sa_nh *nh = rif ? nh_get(sa, &snh->gateway, rif, status)
                               : NULL;

        if (!nh) {
            members_unref(sa, m, n);
            return 0;
        }
        m[n].nh = nh;
        m[n].weight = MAX(snh->weight, 1);
        m[n].oid = SAI_NULL_OBJECT_ID;
        n++;
    }
    return n;
}

/* Sorts the 'n' members 'm' and merges the same next hop given twice
 * (adding up the weights, dropping the extra reference).  Returns the
 * number of members left. */
static size_t
members_merge(struct syncd_apply *sa, struct sa_member *m, size_t n)
{
    qsort(m, n, sizeof *m, member_compare);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && m[k - 1].nh == m[i].nh) {
            m[k - 1].weight += m[i].weight;
            nh_unref(sa, m[i].nh);
        } else {
            m[k++] = m[i];
        }
    }
    return k;
}

/* Returns the group whose members are the 'n' members 'm' (sorted, whose
 * hash is 'hash'), or NULL if there is none. */
static struct sa_nhg *
nhg_find(const struct syncd_apply *sa, const struct sa_member *m, size_t n,
         uint32_t hash)
{
    struct sa_nhg *nhg;

    HMAP_FOR_EACH_WITH_HASH (nhg, node, hash, &sa->nhgs) {
        if (nhg->n == n) {
            size_t i;

            for (i = 0; i < n; i++) {
                if (nhg->members[i].nh != m[i].nh
                    || nhg->members[i].weight != m[i].weight) {
                    break;
                }
            }
            if (i == n) {
                return nhg;
            }
        }
    }
    return NULL;
}

/* Resolves the next hops of SET operation 'op' in 'vr' into '*t', holding
 * a reference, creating next hops, groups and interfaces as needed. */
sai_status_t
syncd_nexthop_resolve(struct syncd_apply *sa, struct sa_vr *vr,
                      const struct syncd_route_op *op, struct sa_target *t)
{
    sai_status_t status = SAI_STATUS_SUCCESS;

    t->kind = SA_T_NONE;
    t->ptr = NULL;
    if (op->action != SAI_PACKET_ACTION_FORWARD || !op->n_nexthops) {
        return SAI_STATUS_SUCCESS;
    }

    /* A connected route: the only next hop is an interface. */
    if (resolve_connected(sa, vr, op, t, &status)) {
        return status;
    }

    /* Gateways: a next hop reference for each, the same next hop given
     * twice merged. */
    size_t n = members_get(sa, vr, op, &status);
    if (!n) {
        return status;
    }
    struct sa_member *m = sa->scratch;
    n = members_merge(sa, m, n);
    if (n == 1) {
        t->kind = SA_T_NH;
        t->ptr = m[0].nh;
        return SAI_STATUS_SUCCESS;
    }

    /* Share an existing group with the same members, or create one. */
    uint32_t hash = members_hash(m, n);
    struct sa_nhg *nhg = nhg_find(sa, m, n, hash);
    if (nhg) {
        nhg->refcnt++;
        members_unref(sa, m, n);
    } else {
        nhg = nhg_create(sa, m, n, hash, &status);
        if (!nhg) {
            members_unref(sa, m, n);
            return status;
        }
    }
    t->kind = SA_T_NHG;
    t->ptr = nhg;
    return SAI_STATUS_SUCCESS;
}

/* ---- Life cycle --------------------------------------------------------- */

/* Initializes the object maps of 'sa', and what this module asks of the
 * rest of the apply step: 'hooks' (which must outlive 'sa'), called with
 * 'aux'. */
void
syncd_nexthop_init(struct syncd_apply *sa,
                   const struct syncd_nexthop_hooks *hooks, void *aux)
{
    sa->nh_hooks = hooks;
    sa->nh_aux = aux;
    hmap_init(&sa->vrs);
    hmap_init(&sa->rifs);
    hmap_init(&sa->rifs_by_oid);
    hmap_init(&sa->nhs);
    hmap_init(&sa->nhs_by_oid);
    hmap_init(&sa->nhgs);
    hmap_init(&sa->nhgs_by_oid);
}

/* Frees every object of 'sa', whose switch is already gone. */
void
syncd_nexthop_destroy(struct syncd_apply *sa)
{
    struct sa_nhg *nhg;
    HMAP_FOR_EACH_POP (nhg, node, &sa->nhgs) {
        free(nhg);
    }
    for (size_t i = 0; i < sa->n_stuck_nhgs; i++) {
        free(sa->stuck_nhgs[i]);
    }
    free(sa->stuck_nhgs);
    struct sa_nh *nh;
    HMAP_FOR_EACH_POP (nh, node, &sa->nhs) {
        free(nh);
    }
    struct sa_rif *rif;
    HMAP_FOR_EACH_POP (rif, oid_node, &sa->rifs_by_oid) {
        free(rif->name);
        free(rif);
    }
    for (size_t i = 0; i < sa->n_vrs; i++) {
        free(sa->vr_array[i]->name);
        free(sa->vr_array[i]);
    }
    hmap_destroy(&sa->vrs);
    hmap_destroy(&sa->rifs);
    hmap_destroy(&sa->rifs_by_oid);
    hmap_destroy(&sa->nhs);
    hmap_destroy(&sa->nhs_by_oid);
    hmap_destroy(&sa->nhgs);
    hmap_destroy(&sa->nhgs_by_oid);
    free(sa->vr_array);
    free(sa->scratch);
    free(sa->gc_nhs);
    free(sa->gc_nhgs);
}

/* ---- The apply step's VRFs ---------------------------------------------- */

/* Stores in '*vr_id' the VR of VRF 'vrf', creating it if needed. */
sai_status_t
syncd_apply_vr_get(struct syncd_apply *sa, const char *vrf,
                   sai_object_id_t *vr_id)
{
    sai_status_t status = SAI_STATUS_SUCCESS;
    const struct sa_vr *vr = syncd_nexthop_vr_get(sa, vrf, &status);

    *vr_id = vr ? vr->oid : SAI_NULL_OBJECT_ID;
    return status;
}
