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

/* asic-sim -- a simulated switch ASIC behind the SAI API of sai.h.  See
 * asic-sim.h for the model.
 *
 * Layout of the implementation
 * ============================
 *
 * Objects with ids (ports, virtual routers, router interfaces, next hops,
 * next-hop groups and members) live in one slot table per type and switch
 * ("struct objtab"): an id names a slot and the slot's generation, so a
 * lookup by id is an array access and a stale id is rejected.
 *
 * Routes have no ids.  A route is a 16-byte record in a per-switch route
 * store (chunks of ROUTE_CHUNK_SIZE records), and the LPM tables of its
 * virtual router map its prefix to the record's index: lpm4 (DIR-24-8)
 * for IPv4, lpm6 for IPv6.  The prefix itself is kept only by the LPM
 * table, which is both the exact-match index used by create, remove, set
 * and get and the forwarding structure used by lookups.  A route refers to
 * its next hop by a 32-bit "nhref" (object kind and slot index) rather than
 * by a 64-bit id: the referenced object cannot go away while the route
 * holds its reference, so the id can always be rebuilt from the slot.
 *
 * Every route operation is validated completely before anything changes,
 * so a failure (including an injected one) leaves no trace but counters.
 *
 * Not thread-safe; see asic-sim.h. */

#include <config.h>

#include "asic-sim/asic-sim.h"

#include <arpa/inet.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "asic-sim/lpm4.h"
#include "asic-sim/lpm6.h"
#include "asic-sim/sai-util.h"
#include "hash.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/util.h"
#include "util.h"

/* ---- Object ids -----------------------------------------------------------
 *
 * bits 56-63: sai_object_type_t (never 0, so an id is never null)
 * bits 48-55: switch index, 0...ASIC_SIM_MAX_SWITCHES - 1
 * bits 32-47: generation of the slot
 * bits  0-31: slot index (below ASIC_SIM_MAX_OBJECTS) */

#define OID_TYPE_SHIFT 56
#define OID_SWITCH_SHIFT 48
#define OID_GEN_SHIFT 32

static inline sai_object_type_t
oid_type(sai_object_id_t oid)
{
    return oid >> OID_TYPE_SHIFT;
}

static inline unsigned int
oid_switch(sai_object_id_t oid)
{
    return (oid >> OID_SWITCH_SHIFT) & 0xff;
}

static inline uint16_t
oid_gen(sai_object_id_t oid)
{
    return oid >> OID_GEN_SHIFT;
}

static inline uint32_t
oid_index(sai_object_id_t oid)
{
    return oid;
}

static inline sai_object_id_t
oid_make(sai_object_type_t type, unsigned int sw, uint16_t gen,
         uint32_t index)
{
    return ((uint64_t) type << OID_TYPE_SHIFT
            | (uint64_t) sw << OID_SWITCH_SHIFT
            | (uint64_t) gen << OID_GEN_SHIFT
            | index);
}

/* ---- Objects ------------------------------------------------------------ */

/* The object types kept in slot tables. */
enum sim_kind {
    KIND_PORT,
    KIND_VR,
    KIND_RIF,
    KIND_NH,
    KIND_NHG,
    KIND_NHGM,
    N_KINDS
};

static const sai_object_type_t kind_types[N_KINDS] = {
    [KIND_PORT] = SAI_OBJECT_TYPE_PORT,
    [KIND_VR] = SAI_OBJECT_TYPE_VIRTUAL_ROUTER,
    [KIND_RIF] = SAI_OBJECT_TYPE_ROUTER_INTERFACE,
    [KIND_NH] = SAI_OBJECT_TYPE_NEXT_HOP,
    [KIND_NHG] = SAI_OBJECT_TYPE_NEXT_HOP_GROUP,
    [KIND_NHGM] = SAI_OBJECT_TYPE_NEXT_HOP_GROUP_MEMBER,
};

/* Header of every object kept in a slot table. */
struct sim_obj {
    sai_object_id_t oid;        /* The object's id. */
    uint32_t refcnt;            /* References held by other objects (see
                                 * each type for which). */
};

/* A port.  'obj.refcnt' counts the router interfaces on it and, for the
 * CPU port, the IP2ME routes that point to it. */
struct sim_port {
    struct sim_obj obj;         /* Header. */
    bool is_cpu;                /* The CPU port? */
};

/* A virtual router.  'obj.refcnt' counts its router interfaces; its routes
 * are counted by its LPM tables. */
struct sim_vr {
    struct sim_obj obj;         /* Header. */
    struct lpm4 *lpm4;          /* IPv4 routes, created on the first. */
    struct lpm6 *lpm6;          /* IPv6 routes, created on the first. */
    bool admin_v4;              /* ADMIN_V4_STATE: IPv4 lookups hit? */
    bool admin_v6;              /* ADMIN_V6_STATE: IPv6 lookups hit? */
    sai_mac_t mac;              /* SRC_MAC_ADDRESS. */
};

/* A router interface.  'obj.refcnt' counts the next hops, neighbors and
 * routes (directly connected subnets) that refer to it. */
struct sim_rif {
    struct sim_obj obj;         /* Header. */
    struct sim_vr *vr;          /* VIRTUAL_ROUTER_ID (holds a reference). */
    sai_router_interface_type_t type; /* TYPE. */
    struct sim_port *port;      /* PORT_ID for TYPE_PORT (holds a
                                 * reference), otherwise NULL. */
    sai_object_id_t vlan_id;    /* VLAN_ID for TYPE_VLAN. */
    sai_mac_t mac;              /* SRC_MAC_ADDRESS. */
    bool admin_v4;              /* ADMIN_V4_STATE. */
    bool admin_v6;              /* ADMIN_V6_STATE. */
    uint32_t mtu;               /* MTU. */
};

/* An IP next hop.  'obj.refcnt' counts the routes and group members that
 * use it. */
struct sim_nh {
    struct sim_obj obj;         /* Header. */
    sai_ip_address_t ip;        /* IP. */
    struct sim_rif *rif;        /* ROUTER_INTERFACE_ID (holds a
                                 * reference). */
};

/* A next-hop group.  'obj.refcnt' counts the routes that use it. */
struct sim_nhg {
    struct sim_obj obj;         /* Header. */
    sai_next_hop_group_type_t type; /* TYPE. */
    struct ovs_list members;    /* "struct sim_nhgm"s, in creation order. */
    uint32_t n_members;         /* Length of 'members'. */
};

/* A next-hop group member.  Nothing refers to members. */
struct sim_nhgm {
    struct sim_obj obj;         /* Header. */
    struct ovs_list list_node;  /* In 'group->members'. */
    struct sim_nhg *group;      /* NEXT_HOP_GROUP_ID. */
    struct sim_nh *nh;          /* NEXT_HOP_ID (holds a reference). */
    uint32_t weight;            /* WEIGHT, at least 1. */
};

/* A neighbor entry, keyed by (router interface, IP address). */
struct sim_neighbor {
    struct hmap_node hmap_node; /* In 'sw->neighbors'. */
    struct sim_rif *rif;        /* Its router interface (holds a
                                 * reference). */
    sai_ip_address_t ip;        /* Its address (unused bytes zero). */
    sai_mac_t mac;              /* DST_MAC_ADDRESS. */
    sai_packet_action_t action; /* PACKET_ACTION. */
    bool no_host_route;         /* NO_HOST_ROUTE (stored only). */
};

/* One slot of a slot table. */
struct objslot {
    struct sim_obj *obj;        /* The object, or NULL if free. */
    uint16_t gen;               /* Generation: bumped when freed. */
    uint32_t next_free;         /* If free, next free slot or UINT32_MAX. */
};

/* The objects of one kind on one switch. */
struct objtab {
    struct objslot *slots;      /* 'n_slots' slots ever used. */
    uint32_t n_slots;           /* Slots ever used (high water). */
    size_t allocated;           /* Capacity of 'slots'. */
    uint32_t free_head;         /* First free slot, or UINT32_MAX. */
    uint32_t n_objs;            /* Objects in the table. */
};

/* ---- Routes ----------------------------------------------------------------
 *
 * A route's next hop as a "nhref": 0 for none, otherwise
 * (kind + 1) << NHREF_KIND_SHIFT | slot index. */

#define NHREF_KIND_SHIFT 28
#define NHREF_INDEX_MASK ((1u << NHREF_KIND_SHIFT) - 1)
BUILD_ASSERT_DECL(ASIC_SIM_MAX_OBJECTS <= NHREF_INDEX_MASK + 1);

/* A route record.  The prefix is the key under which the VR's LPM table
 * holds the record's index. */
struct sim_route {
    uint64_t hits;              /* Lookups that matched the route. */
    uint32_t nhref;             /* NEXT_HOP_ID as a nhref, holding a
                                 * reference; if free, next free record or
                                 * UINT32_MAX. */
    uint8_t action;             /* PACKET_ACTION. */
    uint8_t in_use;             /* Is the record a live route? */
    uint16_t pad;               /* Unused. */
};
BUILD_ASSERT_DECL(sizeof(struct sim_route) == 16);

#define ROUTE_CHUNK_SHIFT 16
#define ROUTE_CHUNK_SIZE (1u << ROUTE_CHUNK_SHIFT)
#define ROUTE_CHUNK_BYTES (ROUTE_CHUNK_SIZE * sizeof(struct sim_route))
#define N_ROUTE_CHUNKS (ASIC_SIM_MAX_ROUTES / ROUTE_CHUNK_SIZE)
BUILD_ASSERT_DECL(ASIC_SIM_MAX_ROUTES - 1 <= LPM4_MAX_VALUE);

/* ---- Faults ------------------------------------------------------------- */

/* A prefix chosen to fail (asic_sim_fault_add_prefix()). */
struct fault_prefix {
    struct hmap_node hmap_node; /* In 'sw->fault_prefixes'. */
    sai_object_id_t vr_id;      /* Its virtual router. */
    bool is_v6;                 /* IPv6? */
    unsigned int plen;          /* Prefix length. */
    uint8_t addr[16];           /* Address, network order, host bits and
                                 * unused bytes zero. */
};

/* ---- Switches ----------------------------------------------------------- */

/* A switch. */
struct sim_switch {
    sai_object_id_t oid;        /* The switch's id. */
    unsigned int index;         /* Index in 'switches'. */
    struct objtab tabs[N_KINDS]; /* Objects with ids, by kind. */
    struct sim_vr *default_vr;  /* The default virtual router. */
    struct sim_port *cpu_port;  /* The CPU port. */
    struct sim_port **ports;    /* Front-panel ports. */
    uint32_t n_ports;           /* Number of front-panel ports. */
    sai_mac_t src_mac;          /* SRC_MAC_ADDRESS. */

    /* Route store. */
    struct sim_route *route_chunks[N_ROUTE_CHUNKS]; /* Allocated lazily. */
    uint32_t n_route_chunks;    /* Chunks allocated. */
    uint32_t route_hwm;         /* Records ever handed out. */
    uint32_t route_free;        /* First free record below the high-water
                                 * mark, or UINT32_MAX. */

    /* Resources. */
    uint32_t capacity[ASIC_SIM_N_RESOURCES]; /* Configured capacities. */
    uint32_t used[ASIC_SIM_N_RESOURCES];     /* Current use. */

    struct hmap neighbors;      /* Contains "struct sim_neighbor"s. */

    /* Fault injection. */
    struct asic_sim_fault fault; /* Settings ('ops' never 0). */
    uint64_t prng;              /* PRNG state, from 'fault.seed'. */
    struct hmap fault_prefixes; /* Contains "struct fault_prefix"es. */

    struct asic_sim_stats stats; /* Counters. */
};

/* Library state. */
static bool initialized;        /* sai_api_initialize() called? */
static struct sim_switch *switches[ASIC_SIM_MAX_SWITCHES]; /* By index. */
static uint16_t switch_gens[ASIC_SIM_MAX_SWITCHES]; /* Their generations. */

/* Programming delay accumulated by the current call, in microseconds,
 * slept off by delay_flush() before the call returns. */
static uint64_t pending_delay_usec;

static const char *const resource_names[ASIC_SIM_N_RESOURCES] = {
    [ASIC_SIM_RES_IPV4_ROUTE] = "ipv4_route",
    [ASIC_SIM_RES_IPV6_ROUTE] = "ipv6_route",
    [ASIC_SIM_RES_NEXT_HOP] = "nexthop",
    [ASIC_SIM_RES_NEXT_HOP_GROUP] = "nexthop_group",
    [ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER] = "nexthop_group_member",
    [ASIC_SIM_RES_IPV4_NEIGHBOR] = "ipv4_neighbor",
    [ASIC_SIM_RES_IPV6_NEIGHBOR] = "ipv6_neighbor",
};

static const uint32_t default_capacity[ASIC_SIM_N_RESOURCES] = {
    [ASIC_SIM_RES_IPV4_ROUTE] = ASIC_SIM_DEFAULT_IPV4_ROUTES,
    [ASIC_SIM_RES_IPV6_ROUTE] = ASIC_SIM_DEFAULT_IPV6_ROUTES,
    [ASIC_SIM_RES_NEXT_HOP] = ASIC_SIM_DEFAULT_NEXT_HOPS,
    [ASIC_SIM_RES_NEXT_HOP_GROUP] = ASIC_SIM_DEFAULT_NEXT_HOP_GROUPS,
    [ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER]
        = ASIC_SIM_DEFAULT_NEXT_HOP_GROUP_MEMBERS,
    [ASIC_SIM_RES_IPV4_NEIGHBOR] = ASIC_SIM_DEFAULT_NEIGHBORS,
    [ASIC_SIM_RES_IPV6_NEIGHBOR] = ASIC_SIM_DEFAULT_NEIGHBORS,
};

/* ---- Small helpers ------------------------------------------------------ */

static inline uint32_t
mask4(unsigned int plen)
{
    return plen ? UINT32_MAX << (32 - plen) : 0;
}

static bool
is_forwarding_action(sai_packet_action_t action)
{
    return (action != SAI_PACKET_ACTION_DROP
            && action != SAI_PACKET_ACTION_DENY
            && action != SAI_PACKET_ACTION_TRAP);
}

static bool
is_valid_action(int32_t action)
{
    return action >= SAI_PACKET_ACTION_DROP
           && action <= SAI_PACKET_ACTION_TRANSIT;
}

static bool
ip_family_is_valid(sai_ip_addr_family_t family)
{
    return (family == SAI_IP_ADDR_FAMILY_IPV4
            || family == SAI_IP_ADDR_FAMILY_IPV6);
}

/* Returns a copy of 'ip' whose bytes beyond its family's are zero, so that
 * it can be hashed and compared with memcmp(). */
static sai_ip_address_t
ip_normalize(const sai_ip_address_t *ip)
{
    sai_ip_address_t n;

    memset(&n, 0, sizeof n);
    n.addr_family = ip->addr_family;
    if (ip->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        n.addr.ip4 = ip->addr.ip4;
    } else {
        memcpy(n.addr.ip6, ip->addr.ip6, sizeof n.addr.ip6);
    }
    return n;
}

/* Marks attribute 'id' as seen in '*seen' and returns true if it was
 * already (a duplicate in one attribute list).  Attributes outside the
 * first 32 standard and 32 custom ids are not tracked. */
static bool
attr_seen(uint64_t *seen, sai_attr_id_t id)
{
    unsigned int bit;

    if (id < 32) {
        bit = id;
    } else if (id >= SAI_SWITCH_ATTR_CUSTOM_RANGE_START
               && id < SAI_SWITCH_ATTR_CUSTOM_RANGE_START + 32) {
        bit = 32 + (id - SAI_SWITCH_ATTR_CUSTOM_RANGE_START);
    } else {
        return false;
    }

    uint64_t b = UINT64_C(1) << bit;
    bool dup = (*seen & b) != 0;
    *seen |= b;
    return dup;
}

#define ATTR_STATUS(BASE, INDEX) \
    SAI_STATUS_ATTR_INDEX(SAI_STATUS_##BASE##_0, INDEX)

/* Fills 'list' with the 'n' ids in 'ids', following SAI: if 'list' has
 * room for fewer, sets its count to 'n' and returns
 * SAI_STATUS_BUFFER_OVERFLOW. */
static sai_status_t
objlist_fill(sai_object_list_t *list, const sai_object_id_t *ids, uint32_t n)
{
    if (list->count < n) {
        list->count = n;
        return SAI_STATUS_BUFFER_OVERFLOW;
    }
    if (n) {
        memcpy(list->list, ids, n * sizeof *ids);
    }
    list->count = n;
    return SAI_STATUS_SUCCESS;
}

/* ---- Slot tables -------------------------------------------------------- */

static void
objtab_init(struct objtab *tab)
{
    memset(tab, 0, sizeof *tab);
    tab->free_head = UINT32_MAX;
}

static void
objtab_destroy(struct objtab *tab)
{
    free(tab->slots);
}

/* Returns true if 'tab' has room for another object. */
static bool
objtab_has_room(const struct objtab *tab)
{
    return tab->free_head != UINT32_MAX || tab->n_slots < ASIC_SIM_MAX_OBJECTS;
}

/* Puts 'obj' into a free slot of 'sw''s table of 'kind' and gives it its
 * id.  The caller checked objtab_has_room(). */
static void
objtab_add(struct sim_switch *sw, enum sim_kind kind, struct sim_obj *obj)
{
    struct objtab *tab = &sw->tabs[kind];
    uint32_t index;

    if (tab->free_head != UINT32_MAX) {
        index = tab->free_head;
        tab->free_head = tab->slots[index].next_free;
    } else {
        ovs_assert(tab->n_slots < ASIC_SIM_MAX_OBJECTS);
        if (tab->n_slots >= tab->allocated) {
            tab->slots = x2nrealloc(tab->slots, &tab->allocated,
                                    sizeof *tab->slots);
        }
        index = tab->n_slots++;

        /* Start generations from the switch's, so that an id from an
         * earlier switch in the same switch slot is unlikely to alias. */
        tab->slots[index].gen = switch_gens[sw->index] << 12;
    }
    tab->slots[index].obj = obj;
    tab->n_objs++;
    obj->oid = oid_make(kind_types[kind], sw->index, tab->slots[index].gen,
                        index);
    obj->refcnt = 0;
}

/* Removes 'obj' from 'sw''s table of 'kind' (without freeing it). */
static void
objtab_remove(struct sim_switch *sw, enum sim_kind kind, struct sim_obj *obj)
{
    struct objtab *tab = &sw->tabs[kind];
    uint32_t index = oid_index(obj->oid);
    struct objslot *slot = &tab->slots[index];

    ovs_assert(slot->obj == obj);
    slot->obj = NULL;
    slot->gen++;
    slot->next_free = tab->free_head;
    tab->free_head = index;
    tab->n_objs--;
}

/* Returns the object of 'kind' with id 'oid' on 'sw', or NULL. */
static struct sim_obj *
obj_find(const struct sim_switch *sw, enum sim_kind kind,
         sai_object_id_t oid)
{
    const struct objtab *tab = &sw->tabs[kind];
    uint32_t index = oid_index(oid);

    if (oid_type(oid) != kind_types[kind]
        || oid_switch(oid) != sw->index
        || index >= tab->n_slots
        || tab->slots[index].gen != oid_gen(oid)) {
        return NULL;
    }
    return tab->slots[index].obj;
}

/* Returns the switch of object id 'oid' (of any type), or NULL if that
 * switch does not exist. */
static struct sim_switch *
switch_of(sai_object_id_t oid)
{
    unsigned int index = oid_switch(oid);

    return (oid && index < ASIC_SIM_MAX_SWITCHES ? switches[index] : NULL);
}

/* Returns the switch with id 'oid', or NULL. */
static struct sim_switch *
switch_find(sai_object_id_t oid)
{
    struct sim_switch *sw = switch_of(oid);

    return sw && sw->oid == oid ? sw : NULL;
}

/* Finds the object of 'kind' with id 'oid', on whatever switch it is, and
 * stores its switch in '*swp'.  Returns NULL if there is no such object. */
static struct sim_obj *
obj_find_any(sai_object_id_t oid, enum sim_kind kind,
             struct sim_switch **swp)
{
    struct sim_switch *sw = switch_of(oid);
    struct sim_obj *obj = sw ? obj_find(sw, kind, oid) : NULL;

    *swp = sw;
    return obj;
}

static struct sim_vr *
vr_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_vr, obj) : NULL;
}

static struct sim_rif *
rif_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_rif, obj) : NULL;
}

static struct sim_nh *
nh_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_nh, obj) : NULL;
}

static struct sim_nhg *
nhg_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_nhg, obj) : NULL;
}

static struct sim_nhgm *
nhgm_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_nhgm, obj) : NULL;
}

static struct sim_port *
port_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_port, obj) : NULL;
}

/* ---- Resources, statistics, faults -------------------------------------- */

/* Returns true if 'sw' can hold one more object of 'res'.  Routes of both
 * families also share the route store. */
static bool
res_available(const struct sim_switch *sw, enum asic_sim_resource res)
{
    if (sw->used[res] >= sw->capacity[res]) {
        return false;
    }
    if (res == ASIC_SIM_RES_IPV4_ROUTE || res == ASIC_SIM_RES_IPV6_ROUTE) {
        return (sw->used[ASIC_SIM_RES_IPV4_ROUTE]
                + sw->used[ASIC_SIM_RES_IPV6_ROUTE]) < ASIC_SIM_MAX_ROUTES;
    }
    return true;
}

/* Returns how many more objects of 'res' 'sw' can hold. */
static uint32_t
res_left(const struct sim_switch *sw, enum asic_sim_resource res)
{
    uint32_t left = (sw->used[res] < sw->capacity[res]
                     ? sw->capacity[res] - sw->used[res] : 0);

    if (res == ASIC_SIM_RES_IPV4_ROUTE || res == ASIC_SIM_RES_IPV6_ROUTE) {
        uint32_t n = (sw->used[ASIC_SIM_RES_IPV4_ROUTE]
                      + sw->used[ASIC_SIM_RES_IPV6_ROUTE]);
        left = MIN(left, ASIC_SIM_MAX_ROUTES - n);
    }
    return left;
}

/* Returns the statistics slot of 'status': -status for SAI_STATUS_FAILURE
 * through SAI_STATUS_NOT_EXECUTED, ASIC_SIM_STATUS_SLOT_ATTR for attribute
 * errors, and 0 for success or any other code. */
unsigned int
asic_sim_status_slot(sai_status_t status)
{
    if (status < 0 && status >= SAI_STATUS_NOT_EXECUTED) {
        return -status;
    } else if (status <= SAI_STATUS_INVALID_ATTRIBUTE_0
               && status > SAI_STATUS_ATTR_NOT_SUPPORTED_0 - 0x10000) {
        return ASIC_SIM_STATUS_SLOT_ATTR;
    }
    return 0;
}

/* Counts, on 'sw', an operation 'op' on a route ('is_route') or another
 * object that ended with 'status'. */
static void
stats_op(struct sim_switch *sw, bool is_route, enum asic_sim_op op,
         sai_status_t status)
{
    if (!sw) {
        return;
    }
    if (is_route) {
        sw->stats.route_ops[op]++;
    } else {
        sw->stats.object_ops[op]++;
    }
    if (status != SAI_STATUS_SUCCESS) {
        sw->stats.errors++;
        sw->stats.errors_by_status[asic_sim_status_slot(status)]++;
    }
}

/* splitmix64. */
static uint64_t
prng_next(struct sim_switch *sw)
{
    uint64_t z = (sw->prng += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint32_t
fault_prefix_hash(sai_object_id_t vr_id, bool is_v6, unsigned int plen,
                  const uint8_t addr[16])
{
    uint32_t hash = hash_uint64(vr_id);

    hash = hash_add(hash, plen | (is_v6 << 8));
    return hash_bytes(addr, is_v6 ? 16 : 4, hash);
}

/* Returns the chosen prefix with the given key, or NULL. */
static struct fault_prefix *
fault_prefix_find(const struct sim_switch *sw, sai_object_id_t vr_id,
                  bool is_v6, unsigned int plen, const uint8_t addr[16])
{
    struct fault_prefix *fp;

    HMAP_FOR_EACH_WITH_HASH (fp, hmap_node,
                             fault_prefix_hash(vr_id, is_v6, plen, addr),
                             &sw->fault_prefixes) {
        if (fp->vr_id == vr_id && fp->is_v6 == is_v6 && fp->plen == plen
            && !memcmp(fp->addr, addr, 16)) {
            return fp;
        }
    }
    return NULL;
}

/* A route's key, parsed and validated. */
struct route_key {
    struct sim_switch *sw;      /* Its switch. */
    struct sim_vr *vr;          /* Its virtual router. */
    bool is_v6;                 /* IPv6? */
    unsigned int plen;          /* Prefix length. */
    uint32_t ip4;               /* IPv4 prefix, host order. */
    struct in6_addr ip6;        /* IPv6 prefix (valid only if 'is_v6'). */
};

/* Decides whether the fault injector fails an operation of kind 'op_bit'
 * (one ASIC_SIM_FAULT_*) on 'sw', on route 'key' (NULL for other objects).
 * The PRNG advances on every eligible operation, whether or not it then
 * fails, so that a run is repeatable from the seed. */
static bool
fault_fires(struct sim_switch *sw, unsigned int op_bit,
            const struct route_key *key)
{
    bool fire = false;

    if (!(sw->fault.ops & op_bit)) {
        return false;
    }
    if (sw->fault.rate > 0) {
        double x = (prng_next(sw) >> 11) * 0x1.0p-53;
        fire = x < sw->fault.rate;
    }
    if (!fire && key && !hmap_is_empty(&sw->fault_prefixes)) {
        uint8_t addr[16];

        memset(addr, 0, sizeof addr);
        if (key->is_v6) {
            memcpy(addr, &key->ip6, 16);
        } else {
            uint32_t be = htonl(key->ip4);
            memcpy(addr, &be, 4);
        }
        fire = fault_prefix_find(sw, key->vr->obj.oid, key->is_v6,
                                 key->plen, addr) != NULL;
    }
    if (fire) {
        sw->stats.faults_injected++;
    }
    return fire;
}

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

static inline struct sim_route *
route_get(const struct sim_switch *sw, uint32_t index)
{
    return &sw->route_chunks[index >> ROUTE_CHUNK_SHIFT][index
                                                       & (ROUTE_CHUNK_SIZE
                                                          - 1)];
}

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

static inline struct sim_obj *
nhref_obj(const struct sim_switch *sw, uint32_t nhref)
{
    unsigned int kind = (nhref >> NHREF_KIND_SHIFT) - 1;

    return sw->tabs[kind].slots[nhref & NHREF_INDEX_MASK].obj;
}

/* Returns the id of the object 'nhref' refers to, or null. */
static inline sai_object_id_t
nhref_oid(const struct sim_switch *sw, uint32_t nhref)
{
    return nhref ? nhref_obj(sw, nhref)->oid : SAI_NULL_OBJECT_ID;
}

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
    if (fault_fires(sw, ASIC_SIM_FAULT_ROUTE_CREATE, key)) {
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
    if (fault_fires(sw, ASIC_SIM_FAULT_ROUTE_REMOVE, key)) {
        return SAI_STATUS_FAILURE;
    }

    int error = (key->is_v6
                 ? lpm6_delete(key->vr->lpm6, &key->ip6, key->plen, NULL)
                 : lpm4_delete(key->vr->lpm4, key->ip4, key->plen, NULL));
    ovs_assert(!error);
    nhref_unref(sw, route_get(sw, index)->nhref);
    route_free(sw, index);
    sw->used[route_key_res(key)]--;
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
        if (fault_fires(sw, ASIC_SIM_FAULT_ROUTE_SET, key)) {
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

/* ---- Generic object operations ------------------------------------------ */

/* Checks that 'switch_id' is an existing switch and that a create with
 * 'attr_count' attributes in 'attr_list' is well formed.  Returns the
 * switch, or NULL with '*status' set. */
static struct sim_switch *
create_check(sai_object_id_t *object_id, sai_object_id_t switch_id,
             uint32_t attr_count, const sai_attribute_t *attr_list,
             sai_status_t *status)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        *status = SAI_STATUS_INVALID_OBJECT_ID;
    } else if (!object_id || (attr_count && !attr_list)) {
        *status = SAI_STATUS_INVALID_PARAMETER;
    } else {
        *status = SAI_STATUS_SUCCESS;
        return sw;
    }
    return NULL;
}

/* Finds the object of 'kind' that 'oid' names for a remove, set or get.
 * Returns NULL with '*status' set if there is none: INVALID_OBJECT_TYPE if
 * 'oid' is of another type, otherwise INVALID_OBJECT_ID. */
static struct sim_obj *
op_find(sai_object_id_t oid, enum sim_kind kind, struct sim_switch **swp,
        sai_status_t *status)
{
    struct sim_obj *obj;

    if (oid_type(oid) != kind_types[kind]) {
        *swp = NULL;
        *status = SAI_STATUS_INVALID_OBJECT_TYPE;
        return NULL;
    }
    obj = obj_find_any(oid, kind, swp);
    *status = obj ? SAI_STATUS_SUCCESS : SAI_STATUS_INVALID_OBJECT_ID;
    return obj;
}

/* Decides whether fault injection fails a create, remove or set of a
 * non-route object on 'sw'. */
static bool
object_fault(struct sim_switch *sw)
{
    return fault_fires(sw, ASIC_SIM_FAULT_OBJECTS, NULL);
}

/* How the generic remove, set and get treat one kind of object. */
struct obj_class {
    enum sim_kind kind;         /* The kind. */

    /* Remove: returns true while 'obj' may not be removed (NULL if it
     * always may be), and drops what 'obj' holds and frees it once it is
     * off its table. */
    bool (*in_use)(const struct sim_switch *sw, const struct sim_obj *obj);
    void (*destroy)(struct sim_switch *sw, struct sim_obj *obj);

    /* Set: validates 'attr' against 'obj' without changing anything if
     * '!commit', otherwise applies it (validated already).  NULL if no
     * attribute is settable: then ids below 'attr_end' are
     * INVALID_ATTRIBUTE and others UNKNOWN_ATTRIBUTE. */
    sai_status_t (*set)(struct sim_switch *sw, struct sim_obj *obj,
                        const sai_attribute_t *attr, bool commit);
    sai_attr_id_t attr_end;

    /* Get: fills in attribute 'a' (index 'i') of 'obj'. */
    sai_status_t (*get)(const struct sim_obj *obj, sai_attribute_t *a,
                        uint32_t i);
};

/* SAI remove of the object of class 'cls' named 'oid': OBJECT_IN_USE
 * while it is in use. */
static sai_status_t
obj_remove(const struct obj_class *cls, sai_object_id_t oid)
{
    struct sim_switch *sw;
    sai_status_t status;
    struct sim_obj *obj = op_find(oid, cls->kind, &sw, &status);

    if (obj) {
        if (cls->in_use && cls->in_use(sw, obj)) {
            status = SAI_STATUS_OBJECT_IN_USE;
        } else if (object_fault(sw)) {
            status = SAI_STATUS_FAILURE;
        } else {
            objtab_remove(sw, cls->kind, obj);
            cls->destroy(sw, obj);
        }
    }
    stats_op(sw, false, ASIC_SIM_OP_REMOVE, status);
    return status;
}

/* SAI set of attribute 'attr' of the object of class 'cls' named 'oid'.
 * Nothing changes unless the whole set succeeds. */
static sai_status_t
obj_set(const struct obj_class *cls, sai_object_id_t oid,
        const sai_attribute_t *attr)
{
    struct sim_switch *sw;
    sai_status_t status;
    struct sim_obj *obj = op_find(oid, cls->kind, &sw, &status);

    if (!obj) {
        /* 'status' says why. */
    } else if (!attr) {
        status = SAI_STATUS_INVALID_PARAMETER;
    } else if (!cls->set) {
        /* Every attribute is CREATE_ONLY or READ_ONLY. */
        status = (attr->id < cls->attr_end
                  ? ATTR_STATUS(INVALID_ATTRIBUTE, 0)
                  : ATTR_STATUS(UNKNOWN_ATTRIBUTE, 0));
    } else if ((status = cls->set(sw, obj, attr, false))) {
        /* Invalid attribute. */
    } else if (object_fault(sw)) {
        status = SAI_STATUS_FAILURE;
    } else {
        cls->set(sw, obj, attr, true);
    }
    stats_op(sw, false, ASIC_SIM_OP_SET, status);
    return status;
}

/* SAI get of the 'attr_count' attributes in 'attr_list' of the object of
 * class 'cls' named 'oid'. */
static sai_status_t
obj_get(const struct obj_class *cls, sai_object_id_t oid,
        uint32_t attr_count, sai_attribute_t *attr_list)
{
    struct sim_switch *sw;
    sai_status_t status;
    struct sim_obj *obj = op_find(oid, cls->kind, &sw, &status);

    if (obj && attr_count && !attr_list) {
        status = SAI_STATUS_INVALID_PARAMETER;
    }
    for (uint32_t i = 0; obj && i < attr_count && !status; i++) {
        status = cls->get(obj, &attr_list[i], i);
    }
    stats_op(sw, false, ASIC_SIM_OP_GET, status);
    return status;
}

/* Defines 'PREFIX##_class', the obj_class of objects of KIND, from
 * PREFIX##_destroy(), PREFIX##_get() and the other members given, and the
 * SAI remove_NAME(), set_NAME_attribute() and get_NAME_attribute()
 * methods on it. */
#define OBJ_CLASS(NAME, PREFIX, KIND, IN_USE, SET, ATTR_END)                 \
    static const struct obj_class PREFIX##_class = {                        \
        .kind = KIND, .in_use = IN_USE, .destroy = PREFIX##_destroy,        \
        .set = SET, .attr_end = ATTR_END, .get = PREFIX##_get,              \
    };                                                                      \
                                                                            \
    static sai_status_t                                                     \
    remove_##NAME(sai_object_id_t oid)                                      \
    {                                                                       \
        return obj_remove(&PREFIX##_class, oid);                            \
    }                                                                       \
                                                                            \
    static sai_status_t                                                     \
    set_##NAME##_attribute(sai_object_id_t oid, const sai_attribute_t *attr) \
    {                                                                       \
        return obj_set(&PREFIX##_class, oid, attr);                         \
    }                                                                       \
                                                                            \
    static sai_status_t                                                     \
    get_##NAME##_attribute(sai_object_id_t oid, uint32_t attr_count,        \
                           sai_attribute_t *attr_list)                      \
    {                                                                       \
        return obj_get(&PREFIX##_class, oid, attr_count, attr_list);        \
    }

/* Decides whether a create on 'sw' of an object of 'kind', which uses
 * resource 'res' (ASIC_SIM_N_RESOURCES for none), may go ahead once its
 * attributes parsed: MANDATORY_ATTRIBUTE_MISSING unless 'complete', then
 * INSUFFICIENT_RESOURCES, then injected faults. */
static sai_status_t
create_admit(struct sim_switch *sw, enum sim_kind kind,
             enum asic_sim_resource res, bool complete)
{
    if (!complete) {
        return SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING;
    } else if ((res != ASIC_SIM_N_RESOURCES && !res_available(sw, res))
               || !objtab_has_room(&sw->tabs[kind])) {
        return SAI_STATUS_INSUFFICIENT_RESOURCES;
    } else if (object_fault(sw)) {
        return SAI_STATUS_FAILURE;
    }
    return SAI_STATUS_SUCCESS;
}

/* Parses attribute 'a' (index 'i') of a create on 'sw' into the scratch
 * object 'obj'. */
typedef sai_status_t attr_parse_fn(const struct sim_switch *sw, void *obj,
                                   const sai_attribute_t *a, uint32_t i);

/* Parses the 'attr_count' attributes in 'attr_list' of a create on 'sw'
 * into 'obj' with 'parse', stopping at the first error.  A repeated
 * attribute is INVALID_ATTRIBUTE.  Adds the ids seen to '*seen'. */
static sai_status_t
create_parse(const struct sim_switch *sw, void *obj, attr_parse_fn *parse,
             uint32_t attr_count, const sai_attribute_t *attr_list,
             uint64_t *seen)
{
    sai_status_t status = SAI_STATUS_SUCCESS;

    for (uint32_t i = 0; i < attr_count && !status; i++) {
        status = (attr_seen(seen, attr_list[i].id)
                  ? ATTR_STATUS(INVALID_ATTRIBUTE, i)
                  : parse(sw, obj, &attr_list[i], i));
    }
    return status;
}

/* ---- Switch ------------------------------------------------------------- */

static struct sim_port *
port_create(struct sim_switch *sw, bool is_cpu)
{
    struct sim_port *port = xzalloc(sizeof *port);

    port->is_cpu = is_cpu;
    objtab_add(sw, KIND_PORT, &port->obj);
    return port;
}

/* Creates a VR on 'sw' with default attributes. */
static struct sim_vr *
vr_create__(struct sim_switch *sw)
{
    struct sim_vr *vr = xzalloc(sizeof *vr);

    vr->admin_v4 = vr->admin_v6 = true;
    memcpy(vr->mac, sw->src_mac, sizeof vr->mac);
    objtab_add(sw, KIND_VR, &vr->obj);
    return vr;
}

/* Frees 'vr' and its LPM tables. */
static void
vr_destroy__(struct sim_vr *vr)
{
    lpm4_destroy(vr->lpm4);
    lpm6_destroy(vr->lpm6);
    free(vr);
}

/* Returns the capacity attribute's resource, or -1 if 'id' is not one. */
static int
capacity_attr_res(sai_attr_id_t id)
{
    if (id >= ASIC_SIM_SWITCH_ATTR_IPV4_ROUTE_CAPACITY
        && id <= ASIC_SIM_SWITCH_ATTR_IPV6_NEIGHBOR_CAPACITY) {
        return id - ASIC_SIM_SWITCH_ATTR_IPV4_ROUTE_CAPACITY;
    }
    return -1;
}

/* Returns the largest capacity that 'res' can be given. */
static uint32_t
max_capacity(enum asic_sim_resource res)
{
    return (res == ASIC_SIM_RES_IPV4_ROUTE || res == ASIC_SIM_RES_IPV6_ROUTE
            ? ASIC_SIM_MAX_ROUTES : ASIC_SIM_MAX_OBJECTS);
}

/* SAI create_switch(): a new switch with its CPU port, front-panel ports
 * and default VR.  Capacities and the number of ports come from the
 * custom attributes of asic-sim.h. */
static sai_status_t
create_switch(sai_object_id_t *switch_id, uint32_t attr_count,
              const sai_attribute_t *attr_list)
{
    uint32_t capacity[ASIC_SIM_N_RESOURCES];
    uint32_t n_ports = ASIC_SIM_DEFAULT_PORTS;
    sai_mac_t mac = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
    uint64_t seen = 0;

    if (!initialized) {
        return SAI_STATUS_UNINITIALIZED;
    } else if (!switch_id || (attr_count && !attr_list)) {
        return SAI_STATUS_INVALID_PARAMETER;
    }

    memcpy(capacity, default_capacity, sizeof capacity);
    for (uint32_t i = 0; i < attr_count; i++) {
        const sai_attribute_t *a = &attr_list[i];
        int res = capacity_attr_res(a->id);

        if (attr_seen(&seen, a->id)) {
            return ATTR_STATUS(INVALID_ATTRIBUTE, i);
        }
        if (res >= 0) {
            if (a->value.u32 > max_capacity(res)) {
                return ATTR_STATUS(INVALID_ATTR_VALUE, i);
            }
            capacity[res] = a->value.u32;
            continue;
        }
        switch (a->id) {
        case SAI_SWITCH_ATTR_INIT_SWITCH:
            if (!a->value.booldata) {
                /* Connecting to an existing switch is not simulated. */
                return ATTR_STATUS(INVALID_ATTR_VALUE, i);
            }
            break;
        case SAI_SWITCH_ATTR_SRC_MAC_ADDRESS:
            memcpy(mac, a->value.mac, sizeof mac);
            break;
        case ASIC_SIM_SWITCH_ATTR_PORT_NUMBER:
            if (!a->value.u32 || a->value.u32 > 4096) {
                return ATTR_STATUS(INVALID_ATTR_VALUE, i);
            }
            n_ports = a->value.u32;
            break;
        case SAI_SWITCH_ATTR_PORT_NUMBER:
        case SAI_SWITCH_ATTR_PORT_LIST:
        case SAI_SWITCH_ATTR_CPU_PORT:
        case SAI_SWITCH_ATTR_DEFAULT_VIRTUAL_ROUTER_ID:
        case SAI_SWITCH_ATTR_AVAILABLE_IPV4_ROUTE_ENTRY:
        case SAI_SWITCH_ATTR_AVAILABLE_IPV6_ROUTE_ENTRY:
        case SAI_SWITCH_ATTR_AVAILABLE_IPV4_NEXTHOP_ENTRY:
        case SAI_SWITCH_ATTR_AVAILABLE_IPV6_NEXTHOP_ENTRY:
        case SAI_SWITCH_ATTR_AVAILABLE_IPV4_NEIGHBOR_ENTRY:
        case SAI_SWITCH_ATTR_AVAILABLE_IPV6_NEIGHBOR_ENTRY:
        case SAI_SWITCH_ATTR_AVAILABLE_NEXT_HOP_GROUP_ENTRY:
        case SAI_SWITCH_ATTR_AVAILABLE_NEXT_HOP_GROUP_MEMBER_ENTRY:
        case SAI_SWITCH_ATTR_NUMBER_OF_ECMP_GROUPS:
            return ATTR_STATUS(INVALID_ATTRIBUTE, i);
        default:
            return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
        }
    }

    unsigned int index;
    for (index = 0; index < ASIC_SIM_MAX_SWITCHES; index++) {
        if (!switches[index]) {
            break;
        }
    }
    if (index >= ASIC_SIM_MAX_SWITCHES) {
        return SAI_STATUS_INSUFFICIENT_RESOURCES;
    }

    struct sim_switch *sw = xzalloc(sizeof *sw);
    switch_gens[index]++;
    sw->index = index;
    sw->oid = oid_make(SAI_OBJECT_TYPE_SWITCH, index, switch_gens[index], 0);
    for (int k = 0; k < N_KINDS; k++) {
        objtab_init(&sw->tabs[k]);
    }
    memcpy(sw->src_mac, mac, sizeof mac);
    memcpy(sw->capacity, capacity, sizeof capacity);
    sw->route_free = UINT32_MAX;
    hmap_init(&sw->neighbors);
    hmap_init(&sw->fault_prefixes);
    sw->fault.ops = ASIC_SIM_FAULT_ROUTES;

    sw->cpu_port = port_create(sw, true);
    sw->n_ports = n_ports;
    sw->ports = xmalloc(n_ports * sizeof *sw->ports);
    for (uint32_t i = 0; i < n_ports; i++) {
        sw->ports[i] = port_create(sw, false);
    }
    sw->default_vr = vr_create__(sw);

    switches[index] = sw;
    *switch_id = sw->oid;
    return SAI_STATUS_SUCCESS;
}

/* SAI remove_switch(): frees the switch and every object on it. */
static sai_status_t
remove_switch(sai_object_id_t switch_id)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }

    /* Every object goes with the switch, whatever refers to it. */
    for (int k = 0; k < N_KINDS; k++) {
        struct objtab *tab = &sw->tabs[k];

        for (uint32_t i = 0; i < tab->n_slots; i++) {
            struct sim_obj *obj = tab->slots[i].obj;

            if (!obj) {
                continue;
            } else if (k == KIND_VR) {
                vr_destroy__(vr_cast(obj));
            } else if (k == KIND_PORT) {
                free(port_cast(obj));
            } else if (k == KIND_RIF) {
                free(rif_cast(obj));
            } else if (k == KIND_NH) {
                free(nh_cast(obj));
            } else if (k == KIND_NHG) {
                free(nhg_cast(obj));
            } else {
                free(nhgm_cast(obj));
            }
        }
        objtab_destroy(tab);
    }
    free(sw->ports);

    struct sim_neighbor *nb;
    HMAP_FOR_EACH_POP (nb, hmap_node, &sw->neighbors) {
        free(nb);
    }
    hmap_destroy(&sw->neighbors);

    struct fault_prefix *fp;
    HMAP_FOR_EACH_POP (fp, hmap_node, &sw->fault_prefixes) {
        free(fp);
    }
    hmap_destroy(&sw->fault_prefixes);

    for (uint32_t i = 0; i < sw->n_route_chunks; i++) {
        munmap(sw->route_chunks[i], ROUTE_CHUNK_BYTES);
    }

    switches[sw->index] = NULL;
    free(sw);
    return SAI_STATUS_SUCCESS;
}

/* SAI set_switch_attribute(): SRC_MAC_ADDRESS and the capacities. */
static sai_status_t
set_switch_attribute(sai_object_id_t switch_id, const sai_attribute_t *attr)
{
    struct sim_switch *sw = switch_find(switch_id);
    sai_status_t status = SAI_STATUS_SUCCESS;

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if (!attr) {
        return SAI_STATUS_INVALID_PARAMETER;
    }

    int res = capacity_attr_res(attr->id);
    if (res >= 0) {
        status = asic_sim_set_capacity(switch_id, res, attr->value.u32);
        if (status == SAI_STATUS_INVALID_PARAMETER) {
            status = ATTR_STATUS(INVALID_ATTR_VALUE, 0);
        }
    } else if (attr->id == SAI_SWITCH_ATTR_SRC_MAC_ADDRESS) {
        memcpy(sw->src_mac, attr->value.mac, sizeof sw->src_mac);
    } else if (attr->id < SAI_SWITCH_ATTR_END
               || attr->id == ASIC_SIM_SWITCH_ATTR_PORT_NUMBER) {
        status = ATTR_STATUS(INVALID_ATTRIBUTE, 0);
    } else {
        status = ATTR_STATUS(UNKNOWN_ATTRIBUTE, 0);
    }
    stats_op(sw, false, ASIC_SIM_OP_SET, status);
    return status;
}

/* SAI get_switch_attribute(), including the CRM AVAILABLE_* counters. */
static sai_status_t
get_switch_attribute(sai_object_id_t switch_id, uint32_t attr_count,
                     sai_attribute_t *attr_list)
{
    struct sim_switch *sw = switch_find(switch_id);
    sai_status_t status = SAI_STATUS_SUCCESS;

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if (attr_count && !attr_list) {
        return SAI_STATUS_INVALID_PARAMETER;
    }

    for (uint32_t i = 0; i < attr_count && !status; i++) {
        sai_attribute_t *a = &attr_list[i];
        int res = capacity_attr_res(a->id);

        if (res >= 0) {
            a->value.u32 = sw->capacity[res];
            continue;
        }
        switch (a->id) {
        case SAI_SWITCH_ATTR_INIT_SWITCH:
            a->value.booldata = true;
            break;
        case SAI_SWITCH_ATTR_PORT_NUMBER:
        case ASIC_SIM_SWITCH_ATTR_PORT_NUMBER:
            a->value.u32 = sw->n_ports;
            break;
        case SAI_SWITCH_ATTR_PORT_LIST: {
            sai_object_id_t *ids = xmalloc((sw->n_ports + 1) * sizeof *ids);

            for (uint32_t p = 0; p < sw->n_ports; p++) {
                ids[p] = sw->ports[p]->obj.oid;
            }
            status = objlist_fill(&a->value.objlist, ids, sw->n_ports);
            free(ids);
            break;
        }
        case SAI_SWITCH_ATTR_CPU_PORT:
            a->value.oid = sw->cpu_port->obj.oid;
            break;
        case SAI_SWITCH_ATTR_DEFAULT_VIRTUAL_ROUTER_ID:
            a->value.oid = sw->default_vr->obj.oid;
            break;
        case SAI_SWITCH_ATTR_SRC_MAC_ADDRESS:
            memcpy(a->value.mac, sw->src_mac, sizeof sw->src_mac);
            break;
        case SAI_SWITCH_ATTR_AVAILABLE_IPV4_ROUTE_ENTRY:
            a->value.u32 = res_left(sw, ASIC_SIM_RES_IPV4_ROUTE);
            break;
        case SAI_SWITCH_ATTR_AVAILABLE_IPV6_ROUTE_ENTRY:
            a->value.u32 = res_left(sw, ASIC_SIM_RES_IPV6_ROUTE);
            break;
        case SAI_SWITCH_ATTR_AVAILABLE_IPV4_NEXTHOP_ENTRY:
        case SAI_SWITCH_ATTR_AVAILABLE_IPV6_NEXTHOP_ENTRY:
            a->value.u32 = res_left(sw, ASIC_SIM_RES_NEXT_HOP);
            break;
        case SAI_SWITCH_ATTR_AVAILABLE_IPV4_NEIGHBOR_ENTRY:
            a->value.u32 = res_left(sw, ASIC_SIM_RES_IPV4_NEIGHBOR);
            break;
        case SAI_SWITCH_ATTR_AVAILABLE_IPV6_NEIGHBOR_ENTRY:
            a->value.u32 = res_left(sw, ASIC_SIM_RES_IPV6_NEIGHBOR);
            break;
        case SAI_SWITCH_ATTR_AVAILABLE_NEXT_HOP_GROUP_ENTRY:
            a->value.u32 = res_left(sw, ASIC_SIM_RES_NEXT_HOP_GROUP);
            break;
        case SAI_SWITCH_ATTR_AVAILABLE_NEXT_HOP_GROUP_MEMBER_ENTRY:
            a->value.u32 = res_left(sw, ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER);
            break;
        case SAI_SWITCH_ATTR_NUMBER_OF_ECMP_GROUPS:
            a->value.u32 = sw->capacity[ASIC_SIM_RES_NEXT_HOP_GROUP];
            break;
        default:
            status = ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
            break;
        }
    }
    stats_op(sw, false, ASIC_SIM_OP_GET, status);
    return status;
}

/* ---- Virtual routers ---------------------------------------------------- */

/* Applies VR attribute 'a' (index 'i' of its list) to 'vr'.  Every VR
 * attribute is CREATE_AND_SET. */
static sai_status_t
vr_attr_apply(struct sim_vr *vr, const sai_attribute_t *a, uint32_t i)
{
    switch (a->id) {
    case SAI_VIRTUAL_ROUTER_ATTR_ADMIN_V4_STATE:
        vr->admin_v4 = a->value.booldata;
        return SAI_STATUS_SUCCESS;
    case SAI_VIRTUAL_ROUTER_ATTR_ADMIN_V6_STATE:
        vr->admin_v6 = a->value.booldata;
        return SAI_STATUS_SUCCESS;
    case SAI_VIRTUAL_ROUTER_ATTR_SRC_MAC_ADDRESS:
        memcpy(vr->mac, a->value.mac, sizeof vr->mac);
        return SAI_STATUS_SUCCESS;
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* attr_parse_fn for a VR create. */
static sai_status_t
vr_attr_parse(const struct sim_switch *sw OVS_UNUSED, void *vr,
              const sai_attribute_t *a, uint32_t i)
{
    return vr_attr_apply(vr, a, i);
}

/* SAI create_virtual_router(). */
static sai_status_t
create_virtual_router(sai_object_id_t *vr_id, sai_object_id_t switch_id,
                      uint32_t attr_count, const sai_attribute_t *attr_list)
{
    sai_status_t status;
    struct sim_switch *sw = create_check(vr_id, switch_id, attr_count,
                                         attr_list, &status);
    if (!sw) {
        return status;
    }

    /* Validate on a scratch copy, so that nothing changes on failure. */
    struct sim_vr tmp;
    uint64_t seen = 0;
    memset(&tmp, 0, sizeof tmp);
    status = create_parse(sw, &tmp, vr_attr_parse, attr_count, attr_list,
                          &seen);
    if (!status) {
        status = create_admit(sw, KIND_VR, ASIC_SIM_N_RESOURCES, true);
    }
    if (!status) {
        struct sim_vr *vr = vr_create__(sw);

        for (uint32_t i = 0; i < attr_count; i++) {
            vr_attr_apply(vr, &attr_list[i], i);
        }
        *vr_id = vr->obj.oid;
    }
    stats_op(sw, false, ASIC_SIM_OP_CREATE, status);
    return status;
}

/* A VR is in use if it is the default VR or has RIFs or routes. */
static bool
vr_in_use(const struct sim_switch *sw, const struct sim_obj *obj)
{
    const struct sim_vr *vr = CONTAINER_OF(obj, struct sim_vr, obj);

    return (vr == sw->default_vr || vr->obj.refcnt
            || (vr->lpm4 && lpm4_count(vr->lpm4))
            || (vr->lpm6 && lpm6_count(vr->lpm6)));
}

/* obj_class 'destroy' for a VR. */
static void
vr_destroy(struct sim_switch *sw OVS_UNUSED, struct sim_obj *obj)
{
    vr_destroy__(vr_cast(obj));
}

/* obj_class 'set' for a VR. */
static sai_status_t
vr_set(struct sim_switch *sw OVS_UNUSED, struct sim_obj *obj,
       const sai_attribute_t *attr, bool commit)
{
    struct sim_vr tmp = *vr_cast(obj);

    return vr_attr_apply(commit ? vr_cast(obj) : &tmp, attr, 0);
}

/* obj_class 'get' for a VR. */
static sai_status_t
vr_get(const struct sim_obj *obj, sai_attribute_t *a, uint32_t i)
{
    const struct sim_vr *vr = CONTAINER_OF(obj, struct sim_vr, obj);

    switch (a->id) {
    case SAI_VIRTUAL_ROUTER_ATTR_ADMIN_V4_STATE:
        a->value.booldata = vr->admin_v4;
        return SAI_STATUS_SUCCESS;
    case SAI_VIRTUAL_ROUTER_ATTR_ADMIN_V6_STATE:
        a->value.booldata = vr->admin_v6;
        return SAI_STATUS_SUCCESS;
    case SAI_VIRTUAL_ROUTER_ATTR_SRC_MAC_ADDRESS:
        memcpy(a->value.mac, vr->mac, sizeof vr->mac);
        return SAI_STATUS_SUCCESS;
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* SAI virtual router methods: remove is OBJECT_IN_USE for the default VR
 * and for a VR with RIFs or routes. */
OBJ_CLASS(virtual_router, vr, KIND_VR, vr_in_use, vr_set, 0)

/* ---- Router interfaces -------------------------------------------------- */

/* Applies a CREATE_AND_SET RIF attribute 'a' (index 'i') to 'rif'.
 * Returns SAI_STATUS_INVALID_ATTRIBUTE_0 + 'i' for a CREATE_ONLY one (the
 * create parses those itself). */
static sai_status_t
rif_attr_apply(struct sim_rif *rif, const sai_attribute_t *a, uint32_t i)
{
    switch (a->id) {
    case SAI_ROUTER_INTERFACE_ATTR_SRC_MAC_ADDRESS:
        memcpy(rif->mac, a->value.mac, sizeof rif->mac);
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_ADMIN_V4_STATE:
        rif->admin_v4 = a->value.booldata;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_ADMIN_V6_STATE:
        rif->admin_v6 = a->value.booldata;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_MTU:
        if (a->value.u32 < 68 || a->value.u32 > 65535) {
            return ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        rif->mtu = a->value.u32;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID:
    case SAI_ROUTER_INTERFACE_ATTR_TYPE:
    case SAI_ROUTER_INTERFACE_ATTR_PORT_ID:
    case SAI_ROUTER_INTERFACE_ATTR_VLAN_ID:
        return ATTR_STATUS(INVALID_ATTRIBUTE, i);
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* attr_parse_fn for a RIF create, into struct sim_rif 'rif_'. */
static sai_status_t
rif_attr_parse(const struct sim_switch *sw, void *rif_,
               const sai_attribute_t *a, uint32_t i)
{
    struct sim_rif *rif = rif_;

    switch (a->id) {
    case SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID:
        rif->vr = vr_cast(obj_find(sw, KIND_VR, a->value.oid));
        return rif->vr ? SAI_STATUS_SUCCESS
                       : ATTR_STATUS(INVALID_ATTR_VALUE, i);
    case SAI_ROUTER_INTERFACE_ATTR_TYPE:
        rif->type = a->value.s32;
        return (a->value.s32 < SAI_ROUTER_INTERFACE_TYPE_PORT
                || a->value.s32 > SAI_ROUTER_INTERFACE_TYPE_LOOPBACK
                ? ATTR_STATUS(INVALID_ATTR_VALUE, i) : SAI_STATUS_SUCCESS);
    case SAI_ROUTER_INTERFACE_ATTR_PORT_ID:
        rif->port = port_cast(obj_find(sw, KIND_PORT, a->value.oid));
        return (!rif->port || rif->port->is_cpu
                ? ATTR_STATUS(INVALID_ATTR_VALUE, i) : SAI_STATUS_SUCCESS);
    case SAI_ROUTER_INTERFACE_ATTR_VLAN_ID:
        rif->vlan_id = a->value.oid;
        return (!a->value.oid
                ? ATTR_STATUS(INVALID_ATTR_VALUE, i) : SAI_STATUS_SUCCESS);
    default:
        return rif_attr_apply(rif, a, i);
    }
}

/* SAI create_router_interface(): VIRTUAL_ROUTER_ID and TYPE mandatory,
 * PORT_ID (a front-panel port) for TYPE_PORT, VLAN_ID for TYPE_VLAN. */
static sai_status_t
create_router_interface(sai_object_id_t *rif_id, sai_object_id_t switch_id,
                        uint32_t attr_count,
                        const sai_attribute_t *attr_list)
{
    sai_status_t status;
    struct sim_switch *sw = create_check(rif_id, switch_id, attr_count,
                                         attr_list, &status);
    if (!sw) {
        return status;
    }

    struct sim_rif tmp;
    uint64_t seen = 0;

    memset(&tmp, 0, sizeof tmp);
    tmp.admin_v4 = tmp.admin_v6 = true;
    tmp.mtu = 1514;
    status = create_parse(sw, &tmp, rif_attr_parse, attr_count, attr_list,
                          &seen);
    if (!status) {
        bool has_type = seen & (UINT64_C(1) << SAI_ROUTER_INTERFACE_ATTR_TYPE);
        bool complete = (tmp.vr && has_type
                         && (tmp.type != SAI_ROUTER_INTERFACE_TYPE_PORT
                             || tmp.port)
                         && (tmp.type != SAI_ROUTER_INTERFACE_TYPE_VLAN
                             || tmp.vlan_id));

        status = create_admit(sw, KIND_RIF, ASIC_SIM_N_RESOURCES, complete);
    }
    if (!status) {
        struct sim_rif *rif = xmalloc(sizeof *rif);
        bool has_mac = (seen
                        & (UINT64_C(1)
                           << SAI_ROUTER_INTERFACE_ATTR_SRC_MAC_ADDRESS));

        *rif = tmp;
        if (tmp.type != SAI_ROUTER_INTERFACE_TYPE_PORT) {
            rif->port = NULL;
        }
        if (tmp.type != SAI_ROUTER_INTERFACE_TYPE_VLAN) {
            rif->vlan_id = SAI_NULL_OBJECT_ID;
        }
        if (!has_mac) {
            memcpy(rif->mac, rif->vr->mac, sizeof rif->mac);
        }
        objtab_add(sw, KIND_RIF, &rif->obj);
        rif->vr->obj.refcnt++;
        if (rif->port) {
            rif->port->obj.refcnt++;
        }
        *rif_id = rif->obj.oid;
    }
    stats_op(sw, false, ASIC_SIM_OP_CREATE, status);
    return status;
}

/* obj_class 'in_use' for a kind that is in use while referenced: a RIF
 * while next hops, neighbors or routes refer to it, a next hop while
 * routes or group members use it. */
static bool
obj_referenced(const struct sim_switch *sw OVS_UNUSED,
               const struct sim_obj *obj)
{
    return obj->refcnt != 0;
}

/* obj_class 'destroy' for a RIF. */
static void
rif_destroy(struct sim_switch *sw OVS_UNUSED, struct sim_obj *obj)
{
    struct sim_rif *rif = rif_cast(obj);

    rif->vr->obj.refcnt--;
    if (rif->port) {
        rif->port->obj.refcnt--;
    }
    free(rif);
}

/* obj_class 'set' for a RIF. */
static sai_status_t
rif_set(struct sim_switch *sw OVS_UNUSED, struct sim_obj *obj,
        const sai_attribute_t *attr, bool commit)
{
    struct sim_rif tmp = *rif_cast(obj);

    return rif_attr_apply(commit ? rif_cast(obj) : &tmp, attr, 0);
}

/* obj_class 'get' for a RIF. */
static sai_status_t
rif_get(const struct sim_obj *obj, sai_attribute_t *a, uint32_t i)
{
    const struct sim_rif *rif = CONTAINER_OF(obj, struct sim_rif, obj);

    switch (a->id) {
    case SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID:
        a->value.oid = rif->vr->obj.oid;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_TYPE:
        a->value.s32 = rif->type;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_PORT_ID:
        a->value.oid = rif->port ? rif->port->obj.oid : 0;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_VLAN_ID:
        a->value.oid = rif->vlan_id;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_SRC_MAC_ADDRESS:
        memcpy(a->value.mac, rif->mac, sizeof rif->mac);
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_ADMIN_V4_STATE:
        a->value.booldata = rif->admin_v4;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_ADMIN_V6_STATE:
        a->value.booldata = rif->admin_v6;
        return SAI_STATUS_SUCCESS;
    case SAI_ROUTER_INTERFACE_ATTR_MTU:
        a->value.u32 = rif->mtu;
        return SAI_STATUS_SUCCESS;
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* SAI router interface methods: remove is OBJECT_IN_USE while next hops,
 * neighbors or routes refer to it. */
OBJ_CLASS(router_interface, rif, KIND_RIF, obj_referenced, rif_set, 0)

/* ---- Neighbors ---------------------------------------------------------- */

static uint32_t
neighbor_hash(const struct sim_rif *rif, const sai_ip_address_t *ip)
{
    return hash_bytes(ip, sizeof *ip, hash_uint64(rif->obj.oid));
}

/* Returns the neighbor of 'rif' with address 'ip' (normalized), or NULL. */
static struct sim_neighbor *
neighbor_find(const struct sim_switch *sw, const struct sim_rif *rif,
              const sai_ip_address_t *ip)
{
    struct sim_neighbor *nb;

    HMAP_FOR_EACH_WITH_HASH (nb, hmap_node, neighbor_hash(rif, ip),
                             &sw->neighbors) {
        if (nb->rif == rif && !memcmp(&nb->ip, ip, sizeof *ip)) {
            return nb;
        }
    }
    return NULL;
}

/* Parses neighbor key 'e'.  Returns the switch and stores the RIF and the
 * normalized address, or returns NULL with '*status' set. */
static struct sim_switch *
neighbor_key_parse(const sai_neighbor_entry_t *e, struct sim_rif **rifp,
                   sai_ip_address_t *ip, sai_status_t *status)
{
    struct sim_switch *sw = e ? switch_find(e->switch_id) : NULL;

    *status = SAI_STATUS_INVALID_PARAMETER;
    if (!sw) {
        return NULL;
    }
    *rifp = rif_cast(obj_find(sw, KIND_RIF, e->rif_id));
    if (!*rifp || !ip_family_is_valid(e->ip_address.addr_family)) {
        return NULL;
    }
    *ip = ip_normalize(&e->ip_address);
    *status = SAI_STATUS_SUCCESS;
    return sw;
}

/* Applies neighbor attribute 'a' (index 'i') to 'nb'. */
static sai_status_t
neighbor_attr_apply(struct sim_neighbor *nb, const sai_attribute_t *a,
                    uint32_t i, bool create)
{
    switch (a->id) {
    case SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS:
        memcpy(nb->mac, a->value.mac, sizeof nb->mac);
        return SAI_STATUS_SUCCESS;
    case SAI_NEIGHBOR_ENTRY_ATTR_PACKET_ACTION:
        if (!is_valid_action(a->value.s32)) {
            return ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        nb->action = a->value.s32;
        return SAI_STATUS_SUCCESS;
    case SAI_NEIGHBOR_ENTRY_ATTR_NO_HOST_ROUTE:
        if (!create) {
            return ATTR_STATUS(INVALID_ATTRIBUTE, i);
        }
        nb->no_host_route = a->value.booldata;
        return SAI_STATUS_SUCCESS;
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* Returns the CRM resource of a neighbor with address 'ip'. */
static enum asic_sim_resource
neighbor_res(const sai_ip_address_t *ip)
{
    return (ip->addr_family == SAI_IP_ADDR_FAMILY_IPV4
            ? ASIC_SIM_RES_IPV4_NEIGHBOR : ASIC_SIM_RES_IPV6_NEIGHBOR);
}

/* attr_parse_fn for a neighbor create, into struct sim_neighbor 'nb'. */
static sai_status_t
neighbor_attr_parse(const struct sim_switch *sw OVS_UNUSED, void *nb,
                    const sai_attribute_t *a, uint32_t i)
{
    return neighbor_attr_apply(nb, a, i, true);
}

/* SAI create_neighbor_entry(): DST_MAC_ADDRESS mandatory. */
static sai_status_t
create_neighbor_entry(const sai_neighbor_entry_t *e, uint32_t attr_count,
                      const sai_attribute_t *attr_list)
{
    struct sim_rif *rif;
    sai_ip_address_t ip;
    sai_status_t status;
    struct sim_switch *sw = neighbor_key_parse(e, &rif, &ip, &status);

    if (!sw) {
        return status;
    } else if (attr_count && !attr_list) {
        status = SAI_STATUS_INVALID_PARAMETER;
    }

    struct sim_neighbor tmp;
    uint64_t seen = 0;
    memset(&tmp, 0, sizeof tmp);
    tmp.action = SAI_PACKET_ACTION_FORWARD;
    if (!status) {
        status = create_parse(sw, &tmp, neighbor_attr_parse, attr_count,
                              attr_list, &seen);
    }
    if (!status) {
        uint64_t mac_bit = (UINT64_C(1)
                            << SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS);

        if (!(seen & mac_bit)) {
            status = SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING;
        } else if (neighbor_find(sw, rif, &ip)) {
            status = SAI_STATUS_ITEM_ALREADY_EXISTS;
        } else if (!res_available(sw, neighbor_res(&ip))) {
            status = SAI_STATUS_INSUFFICIENT_RESOURCES;
        } else if (object_fault(sw)) {
            status = SAI_STATUS_FAILURE;
        }
    }
    if (!status) {
        struct sim_neighbor *nb = xmalloc(sizeof *nb);

        *nb = tmp;
        nb->rif = rif;
        nb->ip = ip;
        hmap_insert(&sw->neighbors, &nb->hmap_node, neighbor_hash(rif, &ip));
        rif->obj.refcnt++;
        sw->used[neighbor_res(&ip)]++;
    }
    stats_op(sw, false, ASIC_SIM_OP_CREATE, status);
    return status;
}

/* Parses neighbor key 'e' of a remove, set or get and finds the neighbor
 * it names, into '*nbp' (NULL if there is none).  Returns the switch, or
 * NULL with '*status' set if 'e' is invalid. */
static struct sim_switch *
neighbor_op_find(const sai_neighbor_entry_t *e, struct sim_neighbor **nbp,
                 sai_status_t *status)
{
    struct sim_rif *rif;
    sai_ip_address_t ip;
    struct sim_switch *sw = neighbor_key_parse(e, &rif, &ip, status);

    *nbp = sw ? neighbor_find(sw, rif, &ip) : NULL;
    return sw;
}

/* SAI remove_neighbor_entry(). */
static sai_status_t
remove_neighbor_entry(const sai_neighbor_entry_t *e)
{
    struct sim_neighbor *nb;
    sai_status_t status;
    struct sim_switch *sw = neighbor_op_find(e, &nb, &status);

    if (!sw) {
        return status;
    }
    if (!nb) {
        status = SAI_STATUS_ITEM_NOT_FOUND;
    } else if (object_fault(sw)) {
        status = SAI_STATUS_FAILURE;
    } else {
        hmap_remove(&sw->neighbors, &nb->hmap_node);
        nb->rif->obj.refcnt--;
        sw->used[neighbor_res(&nb->ip)]--;
        free(nb);
    }
    stats_op(sw, false, ASIC_SIM_OP_REMOVE, status);
    return status;
}

/* SAI set_neighbor_entry_attribute(). */
static sai_status_t
set_neighbor_entry_attribute(const sai_neighbor_entry_t *e,
                             const sai_attribute_t *attr)
{
    struct sim_neighbor *nb;
    sai_status_t status;
    struct sim_switch *sw = neighbor_op_find(e, &nb, &status);

    if (!sw) {
        return status;
    }
    if (!attr) {
        status = SAI_STATUS_INVALID_PARAMETER;
    } else if (!nb) {
        status = SAI_STATUS_ITEM_NOT_FOUND;
    } else {
        struct sim_neighbor tmp = *nb;

        status = neighbor_attr_apply(&tmp, attr, 0, false);
        if (!status && object_fault(sw)) {
            status = SAI_STATUS_FAILURE;
        }
        if (!status) {
            neighbor_attr_apply(nb, attr, 0, false);
        }
    }
    stats_op(sw, false, ASIC_SIM_OP_SET, status);
    return status;
}

/* SAI get_neighbor_entry_attribute(). */
static sai_status_t
get_neighbor_entry_attribute(const sai_neighbor_entry_t *e,
                             uint32_t attr_count, sai_attribute_t *attr_list)
{
    struct sim_neighbor *nb;
    sai_status_t status;
    struct sim_switch *sw = neighbor_op_find(e, &nb, &status);

    if (!sw) {
        return status;
    }
    if (!nb) {
        status = SAI_STATUS_ITEM_NOT_FOUND;
    } else if (attr_count && !attr_list) {
        status = SAI_STATUS_INVALID_PARAMETER;
    }
    for (uint32_t i = 0; nb && i < attr_count && !status; i++) {
        sai_attribute_t *a = &attr_list[i];

        switch (a->id) {
        case SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS:
            memcpy(a->value.mac, nb->mac, sizeof nb->mac);
            break;
        case SAI_NEIGHBOR_ENTRY_ATTR_PACKET_ACTION:
            a->value.s32 = nb->action;
            break;
        case SAI_NEIGHBOR_ENTRY_ATTR_NO_HOST_ROUTE:
            a->value.booldata = nb->no_host_route;
            break;
        default:
            status = ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
            break;
        }
    }
    stats_op(sw, false, ASIC_SIM_OP_GET, status);
    return status;
}

/* ---- Next hops ---------------------------------------------------------- */

/* attr_parse_fn for a next-hop create, into struct sim_nh 'nh_'. */
static sai_status_t
nh_attr_parse(const struct sim_switch *sw, void *nh_,
              const sai_attribute_t *a, uint32_t i)
{
    struct sim_nh *nh = nh_;
    sai_status_t status = SAI_STATUS_SUCCESS;

    switch (a->id) {
    case SAI_NEXT_HOP_ATTR_TYPE:
        if (a->value.s32 == SAI_NEXT_HOP_TYPE_MPLS
            || a->value.s32 == SAI_NEXT_HOP_TYPE_TUNNEL_ENCAP) {
            status = ATTR_STATUS(ATTR_NOT_SUPPORTED, i);
        } else if (a->value.s32 != SAI_NEXT_HOP_TYPE_IP) {
            status = ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        break;
    case SAI_NEXT_HOP_ATTR_IP:
        if (!ip_family_is_valid(a->value.ipaddr.addr_family)) {
            status = ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        nh->ip = ip_normalize(&a->value.ipaddr);
        break;
    case SAI_NEXT_HOP_ATTR_ROUTER_INTERFACE_ID:
        nh->rif = rif_cast(obj_find(sw, KIND_RIF, a->value.oid));
        if (!nh->rif) {
            status = ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        break;
    default:
        status = ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
        break;
    }
    return status;
}

/* SAI create_next_hop(): TYPE (IP only), IP and ROUTER_INTERFACE_ID, all
 * mandatory. */
static sai_status_t
create_next_hop(sai_object_id_t *nh_id, sai_object_id_t switch_id,
                uint32_t attr_count, const sai_attribute_t *attr_list)
{
    sai_status_t status;
    struct sim_switch *sw = create_check(nh_id, switch_id, attr_count,
                                         attr_list, &status);
    if (!sw) {
        return status;
    }

    struct sim_nh tmp;
    uint64_t seen = 0;
    memset(&tmp, 0, sizeof tmp);
    status = create_parse(sw, &tmp, nh_attr_parse, attr_count, attr_list,
                          &seen);
    if (!status) {
        bool has_type = seen & (UINT64_C(1) << SAI_NEXT_HOP_ATTR_TYPE);
        bool has_ip = seen & (UINT64_C(1) << SAI_NEXT_HOP_ATTR_IP);

        status = create_admit(sw, KIND_NH, ASIC_SIM_RES_NEXT_HOP,
                              has_type && has_ip && tmp.rif);
    }
    if (!status) {
        struct sim_nh *nh = xmalloc(sizeof *nh);

        *nh = tmp;
        objtab_add(sw, KIND_NH, &nh->obj);
        nh->rif->obj.refcnt++;
        sw->used[ASIC_SIM_RES_NEXT_HOP]++;
        *nh_id = nh->obj.oid;
    }
    stats_op(sw, false, ASIC_SIM_OP_CREATE, status);
    return status;
}

/* obj_class 'destroy' for a next hop. */
static void
nh_destroy(struct sim_switch *sw, struct sim_obj *obj)
{
    struct sim_nh *nh = nh_cast(obj);

    nh->rif->obj.refcnt--;
    sw->used[ASIC_SIM_RES_NEXT_HOP]--;
    free(nh);
}

/* obj_class 'get' for a next hop. */
static sai_status_t
nh_get(const struct sim_obj *obj, sai_attribute_t *a, uint32_t i)
{
    const struct sim_nh *nh = CONTAINER_OF(obj, struct sim_nh, obj);

    switch (a->id) {
    case SAI_NEXT_HOP_ATTR_TYPE:
        a->value.s32 = SAI_NEXT_HOP_TYPE_IP;
        return SAI_STATUS_SUCCESS;
    case SAI_NEXT_HOP_ATTR_IP:
        a->value.ipaddr = nh->ip;
        return SAI_STATUS_SUCCESS;
    case SAI_NEXT_HOP_ATTR_ROUTER_INTERFACE_ID:
        a->value.oid = nh->rif->obj.oid;
        return SAI_STATUS_SUCCESS;
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* SAI next hop methods: remove is OBJECT_IN_USE while routes or group
 * members use it; every attribute is CREATE_ONLY. */
OBJ_CLASS(next_hop, nh, KIND_NH, obj_referenced, NULL, SAI_NEXT_HOP_ATTR_END)

/* ---- Next-hop groups and members ---------------------------------------- */

/* attr_parse_fn for a group create, into sai_next_hop_group_type_t
 * 'type_'. */
static sai_status_t
nhg_attr_parse(const struct sim_switch *sw OVS_UNUSED, void *type_,
               const sai_attribute_t *a, uint32_t i)
{
    sai_next_hop_group_type_t *type = type_;

    switch (a->id) {
    case SAI_NEXT_HOP_GROUP_ATTR_TYPE:
        *type = a->value.s32;
        if (a->value.s32 == SAI_NEXT_HOP_GROUP_TYPE_FINE_GRAIN_ECMP
            || a->value.s32 == SAI_NEXT_HOP_GROUP_TYPE_PROTECTION) {
            return ATTR_STATUS(ATTR_NOT_SUPPORTED, i);
        } else if (a->value.s32
                   != SAI_NEXT_HOP_GROUP_TYPE_DYNAMIC_UNORDERED_ECMP
                   && a->value.s32
                   != SAI_NEXT_HOP_GROUP_TYPE_DYNAMIC_ORDERED_ECMP) {
            return ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        return SAI_STATUS_SUCCESS;
    case SAI_NEXT_HOP_GROUP_ATTR_NEXT_HOP_COUNT:
    case SAI_NEXT_HOP_GROUP_ATTR_NEXT_HOP_MEMBER_LIST:
        return ATTR_STATUS(INVALID_ATTRIBUTE, i);
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* SAI create_next_hop_group(): TYPE mandatory, dynamic ECMP only. */
static sai_status_t
create_next_hop_group(sai_object_id_t *nhg_id, sai_object_id_t switch_id,
                      uint32_t attr_count, const sai_attribute_t *attr_list)
{
    sai_status_t status;
    struct sim_switch *sw = create_check(nhg_id, switch_id, attr_count,
                                         attr_list, &status);
    if (!sw) {
        return status;
    }

    sai_next_hop_group_type_t type = SAI_NEXT_HOP_GROUP_TYPE_ECMP;
    uint64_t seen = 0;
    status = create_parse(sw, &type, nhg_attr_parse, attr_count, attr_list,
                          &seen);
    if (!status) {
        bool has_type = seen & (UINT64_C(1) << SAI_NEXT_HOP_GROUP_ATTR_TYPE);

        status = create_admit(sw, KIND_NHG, ASIC_SIM_RES_NEXT_HOP_GROUP,
                              has_type);
    }
    if (!status) {
        struct sim_nhg *nhg = xzalloc(sizeof *nhg);

        nhg->type = type;
        ovs_list_init(&nhg->members);
        objtab_add(sw, KIND_NHG, &nhg->obj);
        sw->used[ASIC_SIM_RES_NEXT_HOP_GROUP]++;
        *nhg_id = nhg->obj.oid;
    }
    stats_op(sw, false, ASIC_SIM_OP_CREATE, status);
    return status;
}

/* A group is in use while routes use it or it has members. */
static bool
nhg_in_use(const struct sim_switch *sw OVS_UNUSED, const struct sim_obj *obj)
{
    return obj->refcnt || CONTAINER_OF(obj, struct sim_nhg, obj)->n_members;
}

/* obj_class 'destroy' for a group. */
static void
nhg_destroy(struct sim_switch *sw, struct sim_obj *obj)
{
    sw->used[ASIC_SIM_RES_NEXT_HOP_GROUP]--;
    free(nhg_cast(obj));
}

/* obj_class 'get' for a group. */
static sai_status_t
nhg_get(const struct sim_obj *obj, sai_attribute_t *a, uint32_t i)
{
    const struct sim_nhg *nhg = CONTAINER_OF(obj, struct sim_nhg, obj);

    switch (a->id) {
    case SAI_NEXT_HOP_GROUP_ATTR_NEXT_HOP_COUNT:
        a->value.u32 = nhg->n_members;
        return SAI_STATUS_SUCCESS;
    case SAI_NEXT_HOP_GROUP_ATTR_NEXT_HOP_MEMBER_LIST: {
        sai_object_id_t *ids = xmalloc((nhg->n_members + 1) * sizeof *ids);
        const struct sim_nhgm *m;
        sai_status_t status;
        uint32_t n = 0;

        LIST_FOR_EACH (m, list_node, &nhg->members) {
            ids[n++] = m->obj.oid;
        }
        status = objlist_fill(&a->value.objlist, ids, n);
        free(ids);
        return status;
    }
    case SAI_NEXT_HOP_GROUP_ATTR_TYPE:
        a->value.s32 = nhg->type;
        return SAI_STATUS_SUCCESS;
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* SAI next hop group methods: remove is OBJECT_IN_USE while routes use
 * it or it has members; nothing is settable. */
OBJ_CLASS(next_hop_group, nhg, KIND_NHG, nhg_in_use, NULL,
          SAI_NEXT_HOP_GROUP_ATTR_END)

/* Parses NHG member attribute 'a' (index 'i') into 'm' on 'sw'.  On a set
 * ('create' false), the group is create-only. */
static sai_status_t
nhgm_attr_parse(const struct sim_switch *sw, struct sim_nhgm *m,
                const sai_attribute_t *a, uint32_t i, bool create)
{
    switch (a->id) {
    case SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_GROUP_ID:
        if (!create) {
            return ATTR_STATUS(INVALID_ATTRIBUTE, i);
        }
        m->group = nhg_cast(obj_find(sw, KIND_NHG, a->value.oid));
        return m->group ? SAI_STATUS_SUCCESS
                        : ATTR_STATUS(INVALID_ATTR_VALUE, i);
    case SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID:
        m->nh = nh_cast(obj_find(sw, KIND_NH, a->value.oid));
        return m->nh ? SAI_STATUS_SUCCESS
                     : ATTR_STATUS(INVALID_ATTR_VALUE, i);
    case SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT:
        if (!a->value.u32) {
            return ATTR_STATUS(INVALID_ATTR_VALUE, i);
        }
        m->weight = a->value.u32;
        return SAI_STATUS_SUCCESS;
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* attr_parse_fn for a member create, into struct sim_nhgm 'm'. */
static sai_status_t
nhgm_attr_parse_create(const struct sim_switch *sw, void *m,
                       const sai_attribute_t *a, uint32_t i)
{
    return nhgm_attr_parse(sw, m, a, i, true);
}

/* SAI create_next_hop_group_member(): group and next hop mandatory,
 * WEIGHT default 1.  Members keep their creation order in the group. */
static sai_status_t
create_next_hop_group_member(sai_object_id_t *nhgm_id,
                             sai_object_id_t switch_id, uint32_t attr_count,
                             const sai_attribute_t *attr_list)
{
    sai_status_t status;
    struct sim_switch *sw = create_check(nhgm_id, switch_id, attr_count,
                                         attr_list, &status);
    if (!sw) {
        return status;
    }

    struct sim_nhgm tmp;
    uint64_t seen = 0;
    memset(&tmp, 0, sizeof tmp);
    tmp.weight = 1;
    status = create_parse(sw, &tmp, nhgm_attr_parse_create, attr_count,
                          attr_list, &seen);
    if (!status) {
        status = create_admit(sw, KIND_NHGM,
                              ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER,
                              tmp.group && tmp.nh);
    }
    if (!status) {
        struct sim_nhgm *m = xmalloc(sizeof *m);

        *m = tmp;
        objtab_add(sw, KIND_NHGM, &m->obj);
        ovs_list_push_back(&m->group->members, &m->list_node);
        m->group->n_members++;
        m->nh->obj.refcnt++;
        sw->used[ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER]++;
        *nhgm_id = m->obj.oid;
    }
    stats_op(sw, false, ASIC_SIM_OP_CREATE, status);
    return status;
}

/* obj_class 'destroy' for a member. */
static void
nhgm_destroy(struct sim_switch *sw, struct sim_obj *obj)
{
    struct sim_nhgm *m = nhgm_cast(obj);

    ovs_list_remove(&m->list_node);
    m->group->n_members--;
    m->nh->obj.refcnt--;
    sw->used[ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER]--;
    free(m);
}

/* obj_class 'set' for a member: a commit moves the next-hop
 * reference. */
static sai_status_t
nhgm_set(struct sim_switch *sw, struct sim_obj *obj,
         const sai_attribute_t *attr, bool commit)
{
    struct sim_nhgm *m = nhgm_cast(obj);
    struct sim_nhgm tmp = *m;
    sai_status_t status = nhgm_attr_parse(sw, &tmp, attr, 0, false);

    if (commit) {
        if (tmp.nh != m->nh) {
            tmp.nh->obj.refcnt++;
            m->nh->obj.refcnt--;
            m->nh = tmp.nh;
        }
        m->weight = tmp.weight;
    }
    return status;
}

/* obj_class 'get' for a member. */
static sai_status_t
nhgm_get(const struct sim_obj *obj, sai_attribute_t *a, uint32_t i)
{
    const struct sim_nhgm *m = CONTAINER_OF(obj, struct sim_nhgm, obj);

    switch (a->id) {
    case SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_GROUP_ID:
        a->value.oid = m->group->obj.oid;
        return SAI_STATUS_SUCCESS;
    case SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID:
        a->value.oid = m->nh->obj.oid;
        return SAI_STATUS_SUCCESS;
    case SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT:
        a->value.u32 = m->weight;
        return SAI_STATUS_SUCCESS;
    default:
        return ATTR_STATUS(UNKNOWN_ATTRIBUTE, i);
    }
}

/* SAI next hop group member methods: a member is never in use; set takes
 * NEXT_HOP_ID (moving the reference) or WEIGHT. */
OBJ_CLASS(next_hop_group_member, nhgm, KIND_NHGM, NULL, nhgm_set, 0)

/* Runs a bulk call over 'n' objects: 'statuses[i]' gets 'op(i, aux)', and
 * with STOP_ON_ERROR every object after a failure gets
 * SAI_STATUS_NOT_EXECUTED without running. */
static sai_status_t
obj_bulk(uint32_t n, sai_bulk_op_error_mode_t mode, sai_status_t *statuses,
         sai_status_t (*op)(uint32_t i, const void *aux), const void *aux)
{
    bool failed = false;

    for (uint32_t i = 0; i < n; i++) {
        if (failed && mode == SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR) {
            statuses[i] = SAI_STATUS_NOT_EXECUTED;
            continue;
        }
        statuses[i] = op(i, aux);
        failed = failed || statuses[i] != SAI_STATUS_SUCCESS;
    }
    return failed ? SAI_STATUS_FAILURE : SAI_STATUS_SUCCESS;
}

/* Arguments of create_next_hop_group_members(), for obj_bulk(). */
struct nhgm_bulk_create {
    sai_object_id_t switch_id;          /* The switch. */
    const uint32_t *attr_count;         /* Attribute count per member. */
    const sai_attribute_t **attr_list;  /* Attributes per member. */
    sai_object_id_t *ids;               /* Created ids, out. */
};

static sai_status_t
nhgm_bulk_create_one(uint32_t i, const void *aux)
{
    const struct nhgm_bulk_create *args = aux;

    return create_next_hop_group_member(&args->ids[i], args->switch_id,
                                        args->attr_count[i],
                                        args->attr_list[i]);
}

/* Bulk member creation, as SAI's create_next_hop_group_members: one status
 * per member, STOP_ON_ERROR leaving the rest SAI_STATUS_NOT_EXECUTED. */
static sai_status_t
create_next_hop_group_members(sai_object_id_t switch_id, uint32_t n,
                              const uint32_t *attr_count,
                              const sai_attribute_t **attr_list,
                              sai_bulk_op_error_mode_t mode,
                              sai_object_id_t *ids, sai_status_t *statuses)
{
    struct nhgm_bulk_create args = { switch_id, attr_count, attr_list, ids };

    if (!n || !attr_count || !attr_list || !ids || !statuses) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    for (uint32_t i = 0; i < n; i++) {
        ids[i] = SAI_NULL_OBJECT_ID;
    }
    return obj_bulk(n, mode, statuses, nhgm_bulk_create_one, &args);
}

static sai_status_t
nhgm_bulk_remove_one(uint32_t i, const void *ids)
{
    return remove_next_hop_group_member(((const sai_object_id_t *) ids)[i]);
}

/* Bulk member removal, as SAI's remove_next_hop_group_members. */
static sai_status_t
remove_next_hop_group_members(uint32_t n, const sai_object_id_t *ids,
                              sai_bulk_op_error_mode_t mode,
                              sai_status_t *statuses)
{
    if (!n || !ids || !statuses) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    return obj_bulk(n, mode, statuses, nhgm_bulk_remove_one, ids);
}

/* ---- Method tables and library entry points ----------------------------- */

static const sai_switch_api_t switch_api = {
    create_switch,
    remove_switch,
    set_switch_attribute,
    get_switch_attribute,
};

static const sai_virtual_router_api_t virtual_router_api = {
    create_virtual_router,
    remove_virtual_router,
    set_virtual_router_attribute,
    get_virtual_router_attribute,
};

static const sai_router_interface_api_t router_interface_api = {
    create_router_interface,
    remove_router_interface,
    set_router_interface_attribute,
    get_router_interface_attribute,
};

static const sai_neighbor_api_t neighbor_api = {
    create_neighbor_entry,
    remove_neighbor_entry,
    set_neighbor_entry_attribute,
    get_neighbor_entry_attribute,
};

static const sai_next_hop_api_t next_hop_api = {
    create_next_hop,
    remove_next_hop,
    set_next_hop_attribute,
    get_next_hop_attribute,
};

static const sai_next_hop_group_api_t next_hop_group_api = {
    create_next_hop_group,
    remove_next_hop_group,
    set_next_hop_group_attribute,
    get_next_hop_group_attribute,
    create_next_hop_group_member,
    remove_next_hop_group_member,
    set_next_hop_group_member_attribute,
    get_next_hop_group_member_attribute,
    create_next_hop_group_members,
    remove_next_hop_group_members,
};

static const sai_route_api_t route_api = {
    create_route_entry,
    remove_route_entry,
    set_route_entry_attribute,
    get_route_entry_attribute,
    create_route_entries,
    remove_route_entries,
    set_route_entries_attribute,
    get_route_entries_attribute,
};

/* Initializes the library.  'flags' and 'services' are ignored.  Returns
 * SAI_STATUS_FAILURE if it is already initialized. */
sai_status_t
sai_api_initialize(uint64_t flags OVS_UNUSED,
                   const sai_service_method_table_t *services OVS_UNUSED)
{
    if (initialized) {
        return SAI_STATUS_FAILURE;
    }
    initialized = true;
    return SAI_STATUS_SUCCESS;
}

/* Removes every switch and returns the library to its uninitialized
 * state. */
sai_status_t
sai_api_uninitialize(void)
{
    if (!initialized) {
        return SAI_STATUS_UNINITIALIZED;
    }
    for (int i = 0; i < ASIC_SIM_MAX_SWITCHES; i++) {
        if (switches[i]) {
            remove_switch(switches[i]->oid);
        }
    }
    initialized = false;
    return SAI_STATUS_SUCCESS;
}

/* Stores in '*api_method_table' the method table of 'api' (a pointer to a
 * sai_<api>_api_t, owned by the library). */
sai_status_t
sai_api_query(sai_api_t api, void **api_method_table)
{
    const void *table;

    if (!initialized) {
        return SAI_STATUS_UNINITIALIZED;
    } else if (!api_method_table) {
        return SAI_STATUS_INVALID_PARAMETER;
    }

    switch (api) {
    case SAI_API_SWITCH:
        table = &switch_api;
        break;
    case SAI_API_VIRTUAL_ROUTER:
        table = &virtual_router_api;
        break;
    case SAI_API_ROUTE:
        table = &route_api;
        break;
    case SAI_API_NEXT_HOP:
        table = &next_hop_api;
        break;
    case SAI_API_NEXT_HOP_GROUP:
        table = &next_hop_group_api;
        break;
    case SAI_API_ROUTER_INTERFACE:
        table = &router_interface_api;
        break;
    case SAI_API_NEIGHBOR:
        table = &neighbor_api;
        break;
    case SAI_API_UNSPECIFIED:
    case SAI_API_PORT:
    default:
        *api_method_table = NULL;
        return SAI_STATUS_NOT_IMPLEMENTED;
    }
    *api_method_table = CONST_CAST(void *, table);
    return SAI_STATUS_SUCCESS;
}

/* Returns the type of existing object 'oid', or SAI_OBJECT_TYPE_NULL if
 * no such object exists. */
sai_object_type_t
sai_object_type_query(sai_object_id_t oid)
{
    sai_object_type_t type = oid_type(oid);
    struct sim_switch *sw;

    if (type == SAI_OBJECT_TYPE_SWITCH) {
        return switch_find(oid) ? type : SAI_OBJECT_TYPE_NULL;
    }
    for (int k = 0; k < N_KINDS; k++) {
        if (kind_types[k] == type) {
            return obj_find_any(oid, k, &sw) ? type : SAI_OBJECT_TYPE_NULL;
        }
    }
    return SAI_OBJECT_TYPE_NULL;
}

/* Returns the switch of existing object 'oid', or SAI_NULL_OBJECT_ID. */
sai_object_id_t
sai_switch_id_query(sai_object_id_t oid)
{
    struct sim_switch *sw = switch_of(oid);

    return (sw && sai_object_type_query(oid) != SAI_OBJECT_TYPE_NULL
            ? sw->oid : SAI_NULL_OBJECT_ID);
}

/* ---- Resource counters -------------------------------------------------- */

/* Stores the counters of every resource of 'switch_id' in 'crm', indexed
 * by enum asic_sim_resource. */
sai_status_t
asic_sim_crm_get(sai_object_id_t switch_id,
                 struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES])
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    for (int r = 0; r < ASIC_SIM_N_RESOURCES; r++) {
        crm[r].used = sw->used[r];
        crm[r].available = res_left(sw, r);
        crm[r].capacity = sw->capacity[r];
    }
    return SAI_STATUS_SUCCESS;
}

/* Sets the capacity of 'res' on 'switch_id'.  A capacity below the current
 * use is allowed.  Returns SAI_STATUS_INVALID_PARAMETER if 'capacity' is
 * above ASIC_SIM_MAX_ROUTES (routes) or ASIC_SIM_MAX_OBJECTS (others). */
sai_status_t
asic_sim_set_capacity(sai_object_id_t switch_id, enum asic_sim_resource res,
                      uint32_t capacity)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if ((unsigned int) res >= ASIC_SIM_N_RESOURCES
               || capacity > max_capacity(res)) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    sw->capacity[res] = capacity;
    return SAI_STATUS_SUCCESS;
}

/* Returns the name of 'res' as SONiC's CRM spells it ("ipv4_route"). */
const char *
asic_sim_resource_name(enum asic_sim_resource res)
{
    return ((unsigned int) res < ASIC_SIM_N_RESOURCES
            ? resource_names[res] : "unknown");
}

/* ---- Lookups ------------------------------------------------------------ */

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
    const struct sim_neighbor *nb = neighbor_find(sw, nh->rif, &nh->ip);

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
        sai_ip_address_t ip = ip_normalize(addr);
        const struct sim_neighbor *nb = neighbor_find(sw, rif, &ip);

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
        if (kind_types[k] == type) {
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

/* ---- Fault injection ---------------------------------------------------- */

/* Sets the fault injection settings of 'switch_id' and restarts its PRNG
 * from 'fault->seed'.  'fault->ops' of 0 means ASIC_SIM_FAULT_ROUTES.
 * Chosen prefixes are unchanged. */
sai_status_t
asic_sim_fault_set(sai_object_id_t switch_id,
                   const struct asic_sim_fault *fault)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if (!fault || isnan(fault->rate) || fault->rate < 0
               || fault->rate > 1) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    sw->fault = *fault;
    if (!sw->fault.ops) {
        sw->fault.ops = ASIC_SIM_FAULT_ROUTES;
    }
    sw->prng = fault->seed;
    return SAI_STATUS_SUCCESS;
}

/* Stores the fault injection settings of 'switch_id' in '*fault'. */
sai_status_t
asic_sim_fault_get(sai_object_id_t switch_id, struct asic_sim_fault *fault)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    *fault = sw->fault;
    return SAI_STATUS_SUCCESS;
}

/* Parses the key of a chosen prefix.  Returns the switch, or NULL with
 * '*status' set. */
static struct sim_switch *
fault_prefix_parse(sai_object_id_t switch_id, sai_object_id_t vr_id,
                   const sai_ip_prefix_t *prefix, bool *is_v6,
                   unsigned int *plen, uint8_t addr[16],
                   sai_status_t *status)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        *status = SAI_STATUS_INVALID_OBJECT_ID;
        return NULL;
    } else if (!obj_find(sw, KIND_VR, vr_id) || !prefix
               || !sai_util_ip_prefix_is_canonical(prefix)) {
        *status = SAI_STATUS_INVALID_PARAMETER;
        return NULL;
    }
    *is_v6 = prefix->addr_family == SAI_IP_ADDR_FAMILY_IPV6;
    *plen = sai_util_ip_prefix_length(prefix);
    memset(addr, 0, 16);
    memcpy(addr, &prefix->addr, *is_v6 ? 16 : 4);
    *status = SAI_STATUS_SUCCESS;
    return sw;
}

/* Makes every operation (of the kinds in the fault settings' 'ops') on the
 * route 'prefix' of 'vr_id' fail with SAI_STATUS_FAILURE, after
 * validation.  Returns SAI_STATUS_ITEM_ALREADY_EXISTS if it is already
 * chosen. */
sai_status_t
asic_sim_fault_add_prefix(sai_object_id_t switch_id, sai_object_id_t vr_id,
                          const sai_ip_prefix_t *prefix)
{
    unsigned int plen;
    uint8_t addr[16];
    sai_status_t status;
    bool is_v6;
    struct sim_switch *sw = fault_prefix_parse(switch_id, vr_id, prefix,
                                               &is_v6, &plen, addr, &status);

    if (!sw) {
        return status;
    } else if (fault_prefix_find(sw, vr_id, is_v6, plen, addr)) {
        return SAI_STATUS_ITEM_ALREADY_EXISTS;
    }

    struct fault_prefix *fp = xmalloc(sizeof *fp);
    fp->vr_id = vr_id;
    fp->is_v6 = is_v6;
    fp->plen = plen;
    memcpy(fp->addr, addr, 16);
    hmap_insert(&sw->fault_prefixes, &fp->hmap_node,
                fault_prefix_hash(vr_id, is_v6, plen, addr));
    return SAI_STATUS_SUCCESS;
}

/* Stops failing 'prefix' of 'vr_id'.  Returns SAI_STATUS_ITEM_NOT_FOUND if
 * it was not chosen. */
sai_status_t
asic_sim_fault_remove_prefix(sai_object_id_t switch_id,
                             sai_object_id_t vr_id,
                             const sai_ip_prefix_t *prefix)
{
    unsigned int plen;
    uint8_t addr[16];
    sai_status_t status;
    bool is_v6;
    struct sim_switch *sw = fault_prefix_parse(switch_id, vr_id, prefix,
                                               &is_v6, &plen, addr, &status);

    if (!sw) {
        return status;
    }

    struct fault_prefix *fp = fault_prefix_find(sw, vr_id, is_v6, plen,
                                                addr);
    if (!fp) {
        return SAI_STATUS_ITEM_NOT_FOUND;
    }
    hmap_remove(&sw->fault_prefixes, &fp->hmap_node);
    free(fp);
    return SAI_STATUS_SUCCESS;
}

/* Turns fault injection off on 'switch_id': no rate, no delay, no chosen
 * prefixes, 'ops' back to ASIC_SIM_FAULT_ROUTES (the seed is kept). */
sai_status_t
asic_sim_fault_clear(sai_object_id_t switch_id)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }

    struct fault_prefix *fp;
    HMAP_FOR_EACH_POP (fp, hmap_node, &sw->fault_prefixes) {
        free(fp);
    }
    sw->fault.rate = 0;
    sw->fault.delay_usec = 0;
    sw->fault.ops = ASIC_SIM_FAULT_ROUTES;
    sw->prng = sw->fault.seed;
    return SAI_STATUS_SUCCESS;
}

/* Calls 'cb' with 'aux' for each chosen prefix of 'switch_id', in no
 * particular order.  'cb' must not add or remove chosen prefixes. */
sai_status_t
asic_sim_fault_prefix_walk(sai_object_id_t switch_id,
                           asic_sim_fault_prefix_cb *cb, void *aux)
{
    struct sim_switch *sw = switch_find(switch_id);
    const struct fault_prefix *fp;

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    HMAP_FOR_EACH (fp, hmap_node, &sw->fault_prefixes) {
        sai_ip_prefix_t p;

        if (fp->is_v6) {
            struct in6_addr a;

            memcpy(&a, fp->addr, sizeof a);
            sai_util_ip_prefix_init6(&p, &a, fp->plen);
        } else {
            uint32_t a;

            memcpy(&a, fp->addr, sizeof a);
            sai_util_ip_prefix_init4(&p, ntohl(a), fp->plen);
        }
        cb(fp->vr_id, &p, aux);
    }
    return SAI_STATUS_SUCCESS;
}

/* ---- Statistics and memory ---------------------------------------------- */

/* Stores the counters of 'switch_id' in '*stats'. */
sai_status_t
asic_sim_stats_get(sai_object_id_t switch_id, struct asic_sim_stats *stats)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    *stats = sw->stats;
    return SAI_STATUS_SUCCESS;
}

/* Zeroes the counters of 'switch_id' (not the routes' hit counts). */
sai_status_t
asic_sim_stats_clear(sai_object_id_t switch_id)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    memset(&sw->stats, 0, sizeof sw->stats);
    return SAI_STATUS_SUCCESS;
}

/* Returns the name of 'op' ("create"). */
const char *
asic_sim_op_name(enum asic_sim_op op)
{
    static const char *const names[ASIC_SIM_N_OPS] = {
        [ASIC_SIM_OP_CREATE] = "create",
        [ASIC_SIM_OP_REMOVE] = "remove",
        [ASIC_SIM_OP_SET] = "set",
        [ASIC_SIM_OP_GET] = "get",
    };
    return (unsigned int) op < ASIC_SIM_N_OPS ? names[op] : "unknown";
}

/* Stores the memory used by 'switch_id' in '*mem'.  These are the sizes
 * requested from the allocator (or mapped), not resident sizes: in
 * particular 'lpm4_fixed_bytes' is address space that becomes resident as
 * routes are written. */
sai_status_t
asic_sim_memory_get(sai_object_id_t switch_id, struct asic_sim_memory *mem)
{
    static const size_t obj_sizes[N_KINDS] = {
        [KIND_PORT] = sizeof(struct sim_port),
        [KIND_VR] = sizeof(struct sim_vr),
        [KIND_RIF] = sizeof(struct sim_rif),
        [KIND_NH] = sizeof(struct sim_nh),
        [KIND_NHG] = sizeof(struct sim_nhg),
        [KIND_NHGM] = sizeof(struct sim_nhgm),
    };
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }

    memset(mem, 0, sizeof *mem);
    mem->route_bytes = (size_t) sw->n_route_chunks * ROUTE_CHUNK_BYTES;
    mem->object_bytes = (sizeof *sw
                         + hmap_count(&sw->neighbors)
                           * sizeof(struct sim_neighbor)
                         + hmap_count(&sw->fault_prefixes)
                           * sizeof(struct fault_prefix));
    for (int k = 0; k < N_KINDS; k++) {
        const struct objtab *tab = &sw->tabs[k];

        mem->object_bytes += (tab->allocated * sizeof *tab->slots
                              + tab->n_objs * obj_sizes[k]);
        if (k != KIND_VR) {
            continue;
        }
        for (uint32_t i = 0; i < tab->n_slots; i++) {
            const struct sim_vr *vr = vr_cast(tab->slots[i].obj);

            if (vr && vr->lpm4) {
                struct lpm4_memory m4;

                lpm4_memory(vr->lpm4, &m4);
                mem->lpm4_fixed_bytes += m4.tbl24_bytes;
                mem->lpm4_tbl8_bytes += m4.tbl8_bytes;
                mem->lpm4_rule_bytes += m4.rules_bytes;
            }
            if (vr && vr->lpm6) {
                struct lpm6_memory m6;

                lpm6_memory(vr->lpm6, &m6);
                mem->lpm6_bytes += m6.bytes;
            }
        }
    }
    return SAI_STATUS_SUCCESS;
}
