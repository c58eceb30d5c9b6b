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

/* asic-sim: route entries.  The route store, the next-hop references of
 * routes, the programming delay, and the SAI route methods, single and
 * bulk (see the top of asic-sim/asic-sim.c for the route model). */

#include <config.h>

#include "asic-sim/asic-sim-private.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/mman.h>

#include "asic-sim/lpm4.h"
#include "asic-sim/lpm6.h"
#include "asic-sim/sai-util.h"
#include "hash.h"
#include "openvswitch/util.h"
#include "util.h"

/* ---- Small helpers ------------------------------------------------------ */

static inline uint32_t
mask4(unsigned int plen)
{
    return plen ? UINT32_MAX << (32 - plen) : 0;
}

/* ---- Programming delay -------------------------------------------------- */

/* Programming delay accumulated by the current call, in microseconds,
 * slept off by delay_flush() before the call returns. */
static uint64_t pending_delay_usec;

/* Adds the programming delay of one route operation on 'sw'. */
static void
delay_add(struct sim_switch *sw)
{
    if (sw->fault.delay_usec) {
        pending_delay_usec += sw->fault.delay_usec;
        sw->stats.delay_usec += sw->fault.delay_usec;
    }
}

/* Sleeps for the programming delay accumulated by the current call. */
static void
delay_flush(void)
{
    if (pending_delay_usec) {
        xnanosleep_no_quiesce(pending_delay_usec * 1000);
        pending_delay_usec = 0;
    }
}

/* ---- Route store -------------------------------------------------------- */

/* Returns a new chunk of ROUTE_CHUNK_SIZE route records.  Chunks are
 * mapped directly rather than taken from the allocator, so that removing a
 * switch gives their memory back to the system at once (which also keeps
 * RSS measurements of the simulator honest from one run to the next). */
static struct sim_route *
route_chunk_alloc(void)
{
    void *p = mmap(NULL, ROUTE_CHUNK_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        out_of_memory();
    }
    return p;
}

/* Returns the index of a new route record on 'sw'.  The caller checked
 * res_available(), so the store has room. */
static uint32_t
route_alloc(struct sim_switch *sw)
{
    uint32_t index;

    if (sw->route_free != UINT32_MAX) {
        index = sw->route_free;
        sw->route_free = route_get(sw, index)->nhref;
    } else {
        index = sw->route_hwm++;
        ovs_assert(index < ASIC_SIM_MAX_ROUTES);
        if (!(index & (ROUTE_CHUNK_SIZE - 1))) {
            uint32_t c = index >> ROUTE_CHUNK_SHIFT;
            sw->route_chunks[c] = route_chunk_alloc();
            sw->n_route_chunks++;
        }
    }
    return index;
}

/* Puts route record 'index' on 'sw''s free list. */
static void
route_free(struct sim_switch *sw, uint32_t index)
{
    struct sim_route *r = route_get(sw, index);

    r->in_use = false;
    r->nhref = sw->route_free;
    sw->route_free = index;
}

/* ---- Next-hop references ------------------------------------------------ */

/* Resolves 'oid', the value of a route's NEXT_HOP_ID on 'sw', into
 * '*nhref'.  Returns false if it is not a next hop, next-hop group, router
 * interface or the CPU port of 'sw'. */
static bool
nhref_resolve(const struct sim_switch *sw, sai_object_id_t oid,
              uint32_t *nhref)
{
    enum sim_kind kind;

    switch (oid_type(oid)) {
    case SAI_OBJECT_TYPE_NULL:
        if (oid != SAI_NULL_OBJECT_ID) {
            return false;
        }
        *nhref = 0;
        return true;
    case SAI_OBJECT_TYPE_NEXT_HOP:
        kind = KIND_NH;
        break;
    case SAI_OBJECT_TYPE_NEXT_HOP_GROUP:
        kind = KIND_NHG;
        break;
    case SAI_OBJECT_TYPE_ROUTER_INTERFACE:
        kind = KIND_RIF;
        break;
    case SAI_OBJECT_TYPE_PORT:
        if (oid != sw->cpu_port->obj.oid) {
            return false;
        }
        kind = KIND_PORT;
        break;
    default:
        return false;
    }

    if (!obj_find(sw, kind, oid)) {
        return false;
    }
    *nhref = ((uint32_t) (kind + 1) << NHREF_KIND_SHIFT) | oid_index(oid);
    return true;
}

/* Takes a reference on the object 'nhref' refers to, if any. */
static inline void
nhref_ref(const struct sim_switch *sw, uint32_t nhref)
{
    if (nhref) {
        nhref_obj(sw, nhref)->refcnt++;
    }
}

/* Drops a reference taken by nhref_ref(). */
static inline void
nhref_unref(const struct sim_switch *sw, uint32_t nhref)
{
    if (nhref) {
        struct sim_obj *obj = nhref_obj(sw, nhref);

        ovs_assert(obj->refcnt > 0);
        obj->refcnt--;
    }
}

/* ---- Churn: routes removed, then created again -------------------------- */

/* Stores 'key''s address in 'addr' as struct removed_route keeps it. */
static void
removed_route_addr(const struct route_key *key, uint8_t addr[16])
{
    memset(addr, 0, 16);
    if (key->is_v6) {
        memcpy(addr, &key->ip6, 16);
    } else {
        ovs_be32 ip4 = htonl(key->ip4);

        memcpy(addr, &ip4, sizeof ip4);
    }
}

static uint32_t
removed_route_hash(sai_object_id_t vr_id, const struct route_key *key,
                   const uint8_t addr[16])
{
    uint32_t hash = hash_uint64(vr_id);

    hash = hash_add(hash, key->plen | (key->is_v6 << 8));
    return hash_bytes(addr, 16, hash);
}

/* Remembers that the route 'key' names was removed. */
static void
removed_route_add(const struct route_key *key)
{
    struct removed_route *rr = xmalloc(sizeof *rr);

    rr->vr_id = key->vr->obj.oid;
    rr->is_v6 = key->is_v6;
    rr->plen = key->plen;
    removed_route_addr(key, rr->addr);
    hmap_insert(&key->sw->removed_routes, &rr->hmap_node,
                removed_route_hash(rr->vr_id, key, rr->addr));
}

/* Called when the route 'key' names was created: if it had been removed
 * before, counts a recreated route and forgets the removal. */
static void
removed_route_created(const struct route_key *key)
{
    struct sim_switch *sw = key->sw;
    sai_object_id_t vr_id = key->vr->obj.oid;
    struct removed_route *rr;
    uint8_t addr[16];

    if (hmap_is_empty(&sw->removed_routes)) {
        return;                 /* The common case: a load without churn. */
    }
    removed_route_addr(key, addr);
    HMAP_FOR_EACH_WITH_HASH (rr, hmap_node,
                             removed_route_hash(vr_id, key, addr),
                             &sw->removed_routes) {
        if (rr->vr_id == vr_id && rr->is_v6 == key->is_v6
            && rr->plen == key->plen && !memcmp(rr->addr, addr, 16)) {
            hmap_remove(&sw->removed_routes, &rr->hmap_node);
            free(rr);
            sw->stats.routes_recreated++;
            return;
        }
    }
}

/* Forgets every route removed from 'sw' so far. */
void
asim_removed_routes_clear(struct sim_switch *sw)
{
    struct removed_route *rr;

    HMAP_FOR_EACH_POP (rr, hmap_node, &sw->removed_routes) {
        free(rr);
    }
}

/* ---- Route operations --------------------------------------------------- */

/* What the entries of one route call are likely to share: lookups of the
 * switch, VR and next hop are cached from one entry to the next.  Valid
 * during one call only (route operations never remove those objects). */
struct route_cache {
    sai_object_id_t switch_id;  /* Last switch id resolved... */
    struct sim_switch *sw;      /* ...to this switch. */
    sai_object_id_t vr_id;      /* Last VR id resolved... */
    struct sim_vr *vr;          /* ...to this VR. */
    sai_object_id_t nh_id;      /* Last NEXT_HOP_ID resolved... */
    uint32_t nhref;             /* ...to this nhref. */
    struct sim_switch *nh_sw;   /* ...on this switch. */
};

static void
route_cache_init(struct route_cache *c)
{
    memset(c, 0, sizeof *c);
}

/* Parses 'e' into 'key'.  Returns SAI_STATUS_SUCCESS, or
 * SAI_STATUS_INVALID_PARAMETER if the switch or the virtual router does
 * not exist or the prefix is invalid (bad family, non-contiguous mask, host
 * bits set).  Sets 'key->sw' whenever the switch exists. */
static sai_status_t
route_key_parse(const sai_route_entry_t *e, struct route_cache *c,
                struct route_key *key)
{
    struct sim_switch *sw;
    struct sim_vr *vr;

    if (e->switch_id == c->switch_id && c->sw) {
        sw = c->sw;
    } else {
        sw = switch_find(e->switch_id);
        c->switch_id = e->switch_id;
        c->sw = sw;
        c->vr_id = SAI_NULL_OBJECT_ID;
        c->vr = NULL;
    }
    key->sw = sw;
    if (!sw) {
        return SAI_STATUS_INVALID_PARAMETER;
    }

    if (e->vr_id == c->vr_id && c->vr) {
        vr = c->vr;
    } else {
        vr = vr_cast(obj_find(sw, KIND_VR, e->vr_id));
        if (!vr) {
            return SAI_STATUS_INVALID_PARAMETER;
        }
        c->vr_id = e->vr_id;
        c->vr = vr;
    }
    key->vr = vr;

    const sai_ip_prefix_t *p = &e->destination;
    if (p->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        uint32_t m = ntohl(p->mask.ip4);
        unsigned int plen = count_1bits(m);
        uint32_t a = ntohl(p->addr.ip4);

        if (m != mask4(plen) || (a & ~m)) {
            return SAI_STATUS_INVALID_PARAMETER;
        }
        key->is_v6 = false;
        key->plen = plen;
        key->ip4 = a;
    } else if (p->addr_family == SAI_IP_ADDR_FAMILY_IPV6) {
        if (!sai_util_ip_prefix_is_canonical(p)) {
            return SAI_STATUS_INVALID_PARAMETER;
        }
        key->is_v6 = true;
        key->plen = sai_util_ip_prefix_length(p);
        memcpy(&key->ip6, p->addr.ip6, 16);
    } else {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    return SAI_STATUS_SUCCESS;
}

/* Returns true and stores the route record's index in '*index' if 'key'
 * names an existing route. */
static inline bool
route_key_find(const struct route_key *key, uint32_t *index)
{
    if (!key->is_v6) {
        return key->vr->lpm4 && lpm4_get(key->vr->lpm4, key->ip4,
                                         key->plen, index);
    } else {
        return key->vr->lpm6 && lpm6_get(key->vr->lpm6, &key->ip6,
                                         key->plen, index);
    }
}

static inline enum asic_sim_resource
route_key_res(const struct route_key *key)
{
    return key->is_v6 ? ASIC_SIM_RES_IPV6_ROUTE : ASIC_SIM_RES_IPV4_ROUTE;
}

/* Starts fetching the memory that creating or removing route 'e' will touch,
 * if 'e' is an IPv4 route on the VR that 'c' has cached. */
static inline void
route_prefetch(const struct route_cache *c, const sai_route_entry_t *e)
{
    if (e->vr_id == c->vr_id && c->vr && c->vr->lpm4
        && e->destination.addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        uint32_t m = ntohl(e->destination.mask.ip4);

        lpm4_prefetch(c->vr->lpm4, ntohl(e->destination.addr.ip4),
                      count_1bits(m));
    }
}

/* A route's settable attributes, as parsed. */
struct route_attrs {
    sai_packet_action_t action; /* PACKET_ACTION. */
    uint32_t nhref;             /* NEXT_HOP_ID. */
    bool set_action;            /* Was PACKET_ACTION given? */
    bool set_nhref;             /* Was NEXT_HOP_ID given? */
    bool clear_hits;            /* Was HIT_COUNT set to 0? */
};

/* Validates 'a', attribute 'i' of a route create ('create') or set on
 * switch 'sw', and stores its effect in 'ra'. */
static sai_status_t
route_attr_parse(struct sim_switch *sw, struct route_cache *c,
                 const sai_attribute_t *a, uint32_t i, bool create,
                 struct route_attrs *ra)
{
    switch (a->id) {
    case SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION:
        if (!is_valid_action(a->value.s32)) {
            return ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        ra->action = a->value.s32;
        ra->set_action = true;
        return SAI_STATUS_SUCCESS;

    case SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID:
        if (a->value.oid == c->nh_id && c->nh_sw == sw) {
            ra->nhref = c->nhref;
        } else if (nhref_resolve(sw, a->value.oid, &ra->nhref)) {
            c->nh_id = a->value.oid;
            c->nhref = ra->nhref;
            c->nh_sw = sw;
        } else {
            return ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        ra->set_nhref = true;
        return SAI_STATUS_SUCCESS;

    case SAI_ROUTE_ENTRY_ATTR_USER_TRAP_ID:
        return (a->value.oid == SAI_NULL_OBJECT_ID ? SAI_STATUS_SUCCESS
                : ATTR_STATUS(ATTR_NOT_SUPPORTED, i));

    case SAI_ROUTE_ENTRY_ATTR_META_DATA:
        return (!a->value.u32 ? SAI_STATUS_SUCCESS
                : ATTR_STATUS(ATTR_NOT_SUPPORTED, i));

    case SAI_ROUTE_ENTRY_ATTR_IP_ADDR_FAMILY:
        return ATTR_STATUS(INVALID_ATTRIBUTE, i);

    case ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT:
        if (create) {
            return ATTR_STATUS(INVALID_ATTRIBUTE, i);
        } else if (a->value.u64) {
            return ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        ra->clear_hits = true;
        return SAI_STATUS_SUCCESS;

    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* The per-entry arguments of a route call, as arrays indexed by the
 * entry's position in the call (a single-entry call uses index 0). */
struct route_op_args {
    const uint32_t *attr_count;          /* Create and get: counts. */
    const sai_attribute_t *const *attrs; /* Create: attribute lists. */
    const sai_attribute_t *attr;         /* Set: one attribute each. */
    sai_attribute_t *const *out;         /* Get: attribute lists. */
};

/* Does one route operation on the route 'key' names, with index 'i' of
 * 'args'. */
typedef sai_status_t route_op_fn(struct route_cache *c,
                                 const struct route_key *key, uint32_t i,
                                 const struct route_op_args *args);

/* route_op_fn that creates one route. */
static sai_status_t
route_create__(struct route_cache *c, const struct route_key *key,
               uint32_t idx, const struct route_op_args *args)
{
    const sai_attribute_t *attr_list = args->attrs[idx];
    uint32_t attr_count = args->attr_count[idx];
    struct route_attrs ra = { .action = SAI_PACKET_ACTION_FORWARD };
    struct sim_switch *sw = key->sw;
    uint64_t seen = 0;
    sai_status_t status;
    uint32_t index;

    if (attr_count && !attr_list) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    for (uint32_t i = 0; i < attr_count; i++) {
        if (attr_seen(&seen, attr_list[i].id)) {
            return ATTR_STATUS(INVALID_ATTRIBUTE, i);
        }
        status = route_attr_parse(sw, c, &attr_list[i], i, true, &ra);
        if (status) {
            return status;
        }
    }

    if (route_key_find(key, &index)) {
        return SAI_STATUS_ITEM_ALREADY_EXISTS;
    }
    enum asic_sim_resource res = route_key_res(key);
    if (!res_available(sw, res)) {
        return SAI_STATUS_INSUFFICIENT_RESOURCES;
    }
    delay_add(sw);
    if (asim_fault_fires(sw, ASIC_SIM_FAULT_ROUTE_CREATE, key)) {
        return SAI_STATUS_FAILURE;
    }

    /* Commit. */
    index = route_alloc(sw);
    struct sim_route *r = route_get(sw, index);
    r->hits = 0;
    r->nhref = ra.nhref;
    r->action = ra.action;
    r->in_use = true;
    r->pad = 0;
    nhref_ref(sw, ra.nhref);

    int error;
    if (!key->is_v6) {
        if (!key->vr->lpm4) {
            key->vr->lpm4 = lpm4_create();
        }
        error = lpm4_insert(key->vr->lpm4, key->ip4, key->plen, index);
    } else {
        if (!key->vr->lpm6) {
            key->vr->lpm6 = lpm6_create();
        }
        error = lpm6_insert(key->vr->lpm6, &key->ip6, key->plen, index);
    }
    ovs_assert(!error);
    sw->used[res]++;
    removed_route_created(key);
    return SAI_STATUS_SUCCESS;
}

/* route_op_fn that removes one route. */
static sai_status_t
route_remove__(struct route_cache *c OVS_UNUSED, const struct route_key *key,
               uint32_t i OVS_UNUSED,
               const struct route_op_args *args OVS_UNUSED)
{
    struct sim_switch *sw = key->sw;
    uint32_t index;

    if (!route_key_find(key, &index)) {
        return SAI_STATUS_ITEM_NOT_FOUND;
    }
    delay_add(sw);
    if (asim_fault_fires(sw, ASIC_SIM_FAULT_ROUTE_REMOVE, key)) {
        return SAI_STATUS_FAILURE;
    }

    int error = (key->is_v6
                 ? lpm6_delete(key->vr->lpm6, &key->ip6, key->plen, NULL)
                 : lpm4_delete(key->vr->lpm4, key->ip4, key->plen, NULL));
    ovs_assert(!error);
    nhref_unref(sw, route_get(sw, index)->nhref);
    route_free(sw, index);
    sw->used[route_key_res(key)]--;
    removed_route_add(key);
    return SAI_STATUS_SUCCESS;
}

/* route_op_fn that sets one attribute of one route. */
static sai_status_t
route_set__(struct route_cache *c, const struct route_key *key, uint32_t i,
            const struct route_op_args *args)
{
    const sai_attribute_t *attr = args->attr ? &args->attr[i] : NULL;
    struct sim_switch *sw = key->sw;
    struct route_attrs ra;
    sai_status_t status;
    uint32_t index;

    if (!attr) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    memset(&ra, 0, sizeof ra);
    status = route_attr_parse(sw, c, attr, 0, false, &ra);
    if (status) {
        return status;
    }
    if (!route_key_find(key, &index)) {
        return SAI_STATUS_ITEM_NOT_FOUND;
    }
    if (ra.set_action || ra.set_nhref) {
        /* Clearing the hit counter is not a programming operation. */
        delay_add(sw);
        if (asim_fault_fires(sw, ASIC_SIM_FAULT_ROUTE_SET, key)) {
            return SAI_STATUS_FAILURE;
        }
    }

    struct sim_route *r = route_get(sw, index);
    if (ra.set_action) {
        r->action = ra.action;
    }
    if (ra.set_nhref) {
        nhref_ref(sw, ra.nhref);
        nhref_unref(sw, r->nhref);
        r->nhref = ra.nhref;
    }
    if (ra.clear_hits) {
        r->hits = 0;
    }
    return SAI_STATUS_SUCCESS;
}

/* route_op_fn that gets attributes of one route. */
static sai_status_t
route_get__(struct route_cache *c OVS_UNUSED, const struct route_key *key,
            uint32_t idx, const struct route_op_args *args)
{
    sai_attribute_t *attr_list = args->out[idx];
    uint32_t attr_count = args->attr_count[idx];
    uint32_t index;

    if (attr_count && !attr_list) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    if (!route_key_find(key, &index)) {
        return SAI_STATUS_ITEM_NOT_FOUND;
    }

    const struct sim_route *r = route_get(key->sw, index);
    for (uint32_t i = 0; i < attr_count; i++) {
        sai_attribute_t *a = &attr_list[i];

        switch (a->id) {
        case SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION:
            a->value.s32 = r->action;
            break;
        case SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID:
            a->value.oid = nhref_oid(key->sw, r->nhref);
            break;
        case SAI_ROUTE_ENTRY_ATTR_USER_TRAP_ID:
            a->value.oid = SAI_NULL_OBJECT_ID;
            break;
        case SAI_ROUTE_ENTRY_ATTR_META_DATA:
            a->value.u32 = 0;
            break;
        case SAI_ROUTE_ENTRY_ATTR_IP_ADDR_FAMILY:
            a->value.s32 = (key->is_v6 ? SAI_IP_ADDR_FAMILY_IPV6
                            : SAI_IP_ADDR_FAMILY_IPV4);
            break;
        case ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT:
            a->value.u64 = r->hits;
            break;
        default:
            return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
        }
    }
    return SAI_STATUS_SUCCESS;
}

/* Parses route entry 'e' through cache 'c' and runs 'fn' on it with
 * index 'i' of 'args'.  Stores in '*swp' the switch to count the operation
 * on (NULL if the switch does not exist).  Always inlined so that 'fn' is
 * a direct call. */
static inline sai_status_t ALWAYS_INLINE
route_op(route_op_fn *fn, struct route_cache *c, const sai_route_entry_t *e,
         uint32_t i, const struct route_op_args *args,
         struct sim_switch **swp)
{
    struct route_key key;
    sai_status_t status = route_key_parse(e, c, &key);

    *swp = key.sw;
    return status ? status : fn(c, &key, i, args);
}

/* Runs the single-entry route call 'op' on 'e' through 'fn' with 'args',
 * counting it on the route's switch.  Always inlined so that 'fn' is a
 * direct call. */
static inline sai_status_t ALWAYS_INLINE
route_op_one(enum asic_sim_op op, route_op_fn *fn, const sai_route_entry_t *e,
             const struct route_op_args *args)
{
    struct route_cache c;
    struct sim_switch *sw;

    if (!e) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    route_cache_init(&c);
    sai_status_t status = route_op(fn, &c, e, 0, args, &sw);
    stats_op(sw, true, op, status);
    delay_flush();
    return status;
}

/* SAI create_route_entry(): PACKET_ACTION (default FORWARD) and
 * NEXT_HOP_ID (default null). */
static sai_status_t
create_route_entry(const sai_route_entry_t *e, uint32_t attr_count,
                   const sai_attribute_t *attr_list)
{
    struct route_op_args args = { .attr_count = &attr_count,
                                  .attrs = &attr_list };

    return route_op_one(ASIC_SIM_OP_CREATE, route_create__, e, &args);
}

/* SAI remove_route_entry(). */
static sai_status_t
remove_route_entry(const sai_route_entry_t *e)
{
    struct route_op_args args = { .attr_count = NULL };

    return route_op_one(ASIC_SIM_OP_REMOVE, route_remove__, e, &args);
}

/* SAI set_route_entry_attribute(): PACKET_ACTION, NEXT_HOP_ID, or
 * ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT set to 0 to clear the counter. */
static sai_status_t
set_route_entry_attribute(const sai_route_entry_t *e,
                          const sai_attribute_t *attr)
{
    struct route_op_args args = { .attr = attr };

    return route_op_one(ASIC_SIM_OP_SET, route_set__, e, &args);
}

/* SAI get_route_entry_attribute(). */
static sai_status_t
get_route_entry_attribute(const sai_route_entry_t *e, uint32_t attr_count,
                          sai_attribute_t *attr_list)
{
    struct route_op_args args = { .attr_count = &attr_count,
                                  .out = &attr_list };

    return route_op_one(ASIC_SIM_OP_GET, route_get__, e, &args);
}

/* State of one bulk route call. */
struct route_bulk {
    enum asic_sim_op op;        /* The operation. */
    sai_bulk_op_error_mode_t mode; /* Error mode. */
    sai_status_t *statuses;     /* One per object. */
    uint32_t n;                 /* Number of objects. */
    struct sim_switch *sw;      /* Switch of the first object, for the bulk
                                 * counters. */
    bool failed;                /* Has an object failed? */
};

/* Starts bulk 'b'.  Returns SAI_STATUS_INVALID_PARAMETER if the arguments
 * cannot be used at all (no status is then written). */
static sai_status_t
route_bulk_start(struct route_bulk *b, enum asic_sim_op op, uint32_t n,
                 const sai_route_entry_t *entries,
                 sai_bulk_op_error_mode_t mode, sai_status_t *statuses)
{
    if (!n || !entries || !statuses
        || (mode != SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR
            && mode != SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR)) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    b->op = op;
    b->mode = mode;
    b->statuses = statuses;
    b->n = n;
    b->sw = switch_find(entries[0].switch_id);
    b->failed = false;
    return SAI_STATUS_SUCCESS;
}

/* Records 'status' as object 'i''s, counted on 'sw'.  Returns false if the
 * bulk must stop there, after marking the rest SAI_STATUS_NOT_EXECUTED. */
static bool
route_bulk_record(struct route_bulk *b, uint32_t i, struct sim_switch *sw,
                  sai_status_t status)
{
    b->statuses[i] = status;
    stats_op(sw, true, b->op, status);
    if (status != SAI_STATUS_SUCCESS) {
        b->failed = true;
        if (b->mode == SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR) {
            for (uint32_t j = i + 1; j < b->n; j++) {
                b->statuses[j] = SAI_STATUS_NOT_EXECUTED;
            }
            if (b->sw) {
                b->sw->stats.not_executed += b->n - (i + 1);
            }
            return false;
        }
    }
    return true;
}

/* Finishes bulk 'b' and returns the call's status. */
static sai_status_t
route_bulk_finish(struct route_bulk *b)
{
    if (b->sw) {
        b->sw->stats.bulk_calls[b->op]++;
        b->sw->stats.bulk_objects[b->op] += b->n;
    }
    delay_flush();
    return b->failed ? SAI_STATUS_FAILURE : SAI_STATUS_SUCCESS;
}

/* How many entries ahead the bulk calls prefetch. */
#define BULK_PREFETCH_AHEAD 8

/* Runs bulk route call 'op' on the 'n' 'entries' through 'fn' with
 * 'args' (see route_bulk_record() for the error modes), prefetching the
 * LPM memory of later entries if 'prefetch'.  'args_ok' is false if the
 * per-entry arrays are missing.  Always inlined so that 'fn' is a direct
 * call in the loop. */
static inline sai_status_t ALWAYS_INLINE
route_bulk_run(enum asic_sim_op op, route_op_fn *fn, bool prefetch,
               uint32_t n, const sai_route_entry_t *entries,
               const struct route_op_args *args, bool args_ok,
               sai_bulk_op_error_mode_t mode, sai_status_t *statuses)
{
    struct route_cache c;
    struct route_bulk b;

    if (route_bulk_start(&b, op, n, entries, mode, statuses) || !args_ok) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    route_cache_init(&c);
    for (uint32_t i = 0; i < n; i++) {
        struct sim_switch *sw;

        if (prefetch && i + BULK_PREFETCH_AHEAD < n) {
            route_prefetch(&c, &entries[i + BULK_PREFETCH_AHEAD]);
        }
        sai_status_t status = route_op(fn, &c, &entries[i], i, args, &sw);
        if (!route_bulk_record(&b, i, sw, status)) {
            break;
        }
    }
    return route_bulk_finish(&b);
}

/* SAI bulk create_route_entries(). */
static sai_status_t
create_route_entries(uint32_t n, const sai_route_entry_t *entries,
                     const uint32_t *attr_count,
                     const sai_attribute_t **attr_list,
                     sai_bulk_op_error_mode_t mode,
                     sai_status_t *statuses)
{
    struct route_op_args args = { .attr_count = attr_count,
                                  .attrs = attr_list };

    return route_bulk_run(ASIC_SIM_OP_CREATE, route_create__, true, n,
                          entries, &args, attr_count && attr_list, mode,
                          statuses);
}

/* SAI bulk remove_route_entries(). */
static sai_status_t
remove_route_entries(uint32_t n, const sai_route_entry_t *entries,
                     sai_bulk_op_error_mode_t mode, sai_status_t *statuses)
{
    struct route_op_args args = { .attr_count = NULL };

    return route_bulk_run(ASIC_SIM_OP_REMOVE, route_remove__, true, n,
                          entries, &args, true, mode, statuses);
}

/* SAI bulk set_route_entries_attribute(): one attribute per entry. */
static sai_status_t
set_route_entries_attribute(uint32_t n, const sai_route_entry_t *entries,
                            const sai_attribute_t *attr_list,
                            sai_bulk_op_error_mode_t mode,
                            sai_status_t *statuses)
{
    struct route_op_args args = { .attr = attr_list };

    return route_bulk_run(ASIC_SIM_OP_SET, route_set__, true, n, entries,
                          &args, attr_list != NULL, mode, statuses);
}

/* SAI bulk get_route_entries_attribute(). */
static sai_status_t
get_route_entries_attribute(uint32_t n, const sai_route_entry_t *entries,
                            const uint32_t *attr_count,
                            sai_attribute_t **attr_list,
                            sai_bulk_op_error_mode_t mode,
                            sai_status_t *statuses)
{
    struct route_op_args args = { .attr_count = attr_count,
                                  .out = attr_list };

    return route_bulk_run(ASIC_SIM_OP_GET, route_get__, false, n, entries,
                          &args, attr_count && attr_list, mode, statuses);
}

/* The SAI_API_ROUTE methods, for sai_api_query(). */
const sai_route_api_t asim_route_api = {
    create_route_entry,
    remove_route_entry,
    set_route_entry_attribute,
    get_route_entry_attribute,
    create_route_entries,
    remove_route_entries,
    set_route_entries_attribute,
    get_route_entries_attribute,
};
