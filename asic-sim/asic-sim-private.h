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

#ifndef ASIC_SIM_PRIVATE_H
#define ASIC_SIM_PRIVATE_H 1

/* Internals of the switch ASIC simulator, shared by the asic-sim/asic-sim*.c
 * files and included by nothing else (the API is asic-sim/asic-sim.h and
 * asic-sim/sai.h): the object and route types, the switch, the library
 * state, the small helpers every file uses, and what each file gives the
 * others.  The top of asic-sim/asic-sim.c says which file holds what.
 *
 * What one file exports to the others is named "asim_*".  The helpers
 * defined here are static inline so that the route and lookup paths, in
 * other files, still inline them. */

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/lpm4.h"
#include "asic-sim/sai-util.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/util.h"

struct lpm6;

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

/* The object type of each kind (asic-sim-objtab.c). */
extern const sai_object_type_t asim_kind_types[N_KINDS];

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

/* A route's key, parsed and validated. */
struct route_key {
    struct sim_switch *sw;      /* Its switch. */
    struct sim_vr *vr;          /* Its virtual router. */
    bool is_v6;                 /* IPv6? */
    unsigned int plen;          /* Prefix length. */
    uint32_t ip4;               /* IPv4 prefix, host order. */
    struct in6_addr ip6;        /* IPv6 prefix (valid only if 'is_v6'). */
};

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

/* ---- Churn -------------------------------------------------------------- */

/* A route removed from the FIB and not created again since: its key, so
 * that creating it again counts in 'stats.routes_recreated' (see
 * asic_sim_stats).  Kept in 'sw->removed_routes'. */
struct removed_route {
    struct hmap_node hmap_node; /* In 'sw->removed_routes'. */
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
    unsigned int index;         /* Index in 'asim_switches'. */
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
    struct hmap removed_routes; /* Contains "struct removed_route"s: routes
                                 * removed since the switch was created or
                                 * its counters cleared, and not created
                                 * again since. */
};

/* Library state, defined in asic-sim.c: whether sai_api_initialize() was
 * called, the switches by index, and the generations of their indexes. */
extern bool asim_initialized;
extern struct sim_switch *asim_switches[ASIC_SIM_MAX_SWITCHES];
extern uint16_t asim_switch_gens[ASIC_SIM_MAX_SWITCHES];

/* ---- Small helpers ------------------------------------------------------ */

static inline bool
is_valid_action(int32_t action)
{
    return action >= SAI_PACKET_ACTION_DROP
           && action <= SAI_PACKET_ACTION_TRANSIT;
}

static inline bool
ip_family_is_valid(sai_ip_addr_family_t family)
{
    return (family == SAI_IP_ADDR_FAMILY_IPV4
            || family == SAI_IP_ADDR_FAMILY_IPV6);
}

/* Marks attribute 'id' as seen in '*seen' and returns true if it was
 * already (a duplicate in one attribute list).  Attributes outside the
 * first 32 standard and 32 custom ids are not tracked. */
static inline bool
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
static inline sai_status_t
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

/* ---- Slot tables and finding objects ------------------------------------ */

/* Defined in asic-sim-objtab.c. */
void asim_objtab_init(struct objtab *);
void asim_objtab_destroy(struct objtab *);
void asim_objtab_add(struct sim_switch *, enum sim_kind, struct sim_obj *);

/* Returns the object of 'kind' with id 'oid' on 'sw', or NULL. */
static inline struct sim_obj *
obj_find(const struct sim_switch *sw, enum sim_kind kind,
         sai_object_id_t oid)
{
    const struct objtab *tab = &sw->tabs[kind];
    uint32_t index = oid_index(oid);

    if (oid_type(oid) != asim_kind_types[kind]
        || oid_switch(oid) != sw->index
        || index >= tab->n_slots
        || tab->slots[index].gen != oid_gen(oid)) {
        return NULL;
    }
    return tab->slots[index].obj;
}

/* Returns the switch of object id 'oid' (of any type), or NULL if that
 * switch does not exist. */
static inline struct sim_switch *
switch_of(sai_object_id_t oid)
{
    unsigned int index = oid_switch(oid);

    return (oid && index < ASIC_SIM_MAX_SWITCHES
            ? asim_switches[index] : NULL);
}

/* Returns the switch with id 'oid', or NULL. */
static inline struct sim_switch *
switch_find(sai_object_id_t oid)
{
    struct sim_switch *sw = switch_of(oid);

    return sw && sw->oid == oid ? sw : NULL;
}

/* Finds the object of 'kind' with id 'oid', on whatever switch it is, and
 * stores its switch in '*swp'.  Returns NULL if there is no such object. */
static inline struct sim_obj *
obj_find_any(sai_object_id_t oid, enum sim_kind kind,
             struct sim_switch **swp)
{
    struct sim_switch *sw = switch_of(oid);
    struct sim_obj *obj = sw ? obj_find(sw, kind, oid) : NULL;

    *swp = sw;
    return obj;
}

static inline struct sim_vr *
vr_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_vr, obj) : NULL;
}

static inline struct sim_rif *
rif_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_rif, obj) : NULL;
}

static inline struct sim_nh *
nh_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_nh, obj) : NULL;
}

static inline struct sim_nhg *
nhg_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_nhg, obj) : NULL;
}

static inline struct sim_nhgm *
nhgm_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_nhgm, obj) : NULL;
}

static inline struct sim_port *
port_cast(struct sim_obj *obj)
{
    return obj ? CONTAINER_OF(obj, struct sim_port, obj) : NULL;
}

/* ---- Resources and statistics ------------------------------------------- */

/* Returns true if 'sw' can hold one more object of 'res'.  Routes of both
 * families also share the route store. */
static inline bool
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

/* Counts, on 'sw', an operation 'op' on a route ('is_route') or another
 * object that ended with 'status'. */
static inline void
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

/* ---- Fault decisions (asic-sim-fault.c) --------------------------------- */

bool asim_fault_fires(struct sim_switch *, unsigned int op_bit,
                      const struct route_key *);

/* Decides whether fault injection fails a create, remove or set of a
 * non-route object on 'sw'. */
static inline bool
object_fault(struct sim_switch *sw)
{
    return asim_fault_fires(sw, ASIC_SIM_FAULT_OBJECTS, NULL);
}

/* ---- Route store and next-hop references -------------------------------- */

static inline struct sim_route *
route_get(const struct sim_switch *sw, uint32_t index)
{
    return &sw->route_chunks[index >> ROUTE_CHUNK_SHIFT][index
                                                       & (ROUTE_CHUNK_SIZE
                                                          - 1)];
}

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

/* ---- Generic object operations (asic-sim-objtab.c) ---------------------- */

/* Checks that 'switch_id' is an existing switch and that a create with
 * 'attr_count' attributes in 'attr_list' is well formed.  Returns the
 * switch, or NULL with '*status' set. */
static inline struct sim_switch *
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

sai_status_t asim_obj_remove(const struct obj_class *, sai_object_id_t);
sai_status_t asim_obj_set(const struct obj_class *, sai_object_id_t,
                          const sai_attribute_t *);
sai_status_t asim_obj_get(const struct obj_class *, sai_object_id_t,
                          uint32_t attr_count, sai_attribute_t *attr_list);
bool asim_obj_referenced(const struct sim_switch *, const struct sim_obj *);

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
        return asim_obj_remove(&PREFIX##_class, oid);                       \
    }                                                                       \
                                                                            \
    static sai_status_t                                                     \
    set_##NAME##_attribute(sai_object_id_t oid, const sai_attribute_t *attr) \
    {                                                                       \
        return asim_obj_set(&PREFIX##_class, oid, attr);                    \
    }                                                                       \
                                                                            \
    static sai_status_t                                                     \
    get_##NAME##_attribute(sai_object_id_t oid, uint32_t attr_count,        \
                           sai_attribute_t *attr_list)                      \
    {                                                                       \
        return asim_obj_get(&PREFIX##_class, oid, attr_count, attr_list);   \
    }

sai_status_t asim_create_admit(struct sim_switch *, enum sim_kind,
                               enum asic_sim_resource, bool complete);

/* Parses attribute 'a' (index 'i') of a create on 'sw' into the scratch
 * object 'obj'. */
typedef sai_status_t attr_parse_fn(const struct sim_switch *sw, void *obj,
                                   const sai_attribute_t *a, uint32_t i);

/* Parses the 'attr_count' attributes in 'attr_list' of a create on 'sw'
 * into 'obj' with 'parse', stopping at the first error.  A repeated
 * attribute is INVALID_ATTRIBUTE.  Adds the ids seen to '*seen'. */
static inline sai_status_t
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

/* ---- Churn (asic-sim-route.c) ------------------------------------------- */

void asim_removed_routes_clear(struct sim_switch *);

/* ---- Removing switches (asic-sim-switch.c) ------------------------------ */

sai_status_t asim_remove_switch(sai_object_id_t switch_id);

/* ---- Virtual routers, router interfaces, neighbors (asic-sim-router.c) -- */

struct sim_vr *asim_vr_create__(struct sim_switch *);
void asim_vr_destroy__(struct sim_vr *);
struct sim_neighbor *asim_neighbor_find(const struct sim_switch *,
                                        const struct sim_rif *,
                                        const sai_ip_address_t *);

/* ---- Method tables, for sai_api_query() --------------------------------- */

extern const sai_switch_api_t asim_switch_api;
extern const sai_virtual_router_api_t asim_virtual_router_api;
extern const sai_router_interface_api_t asim_router_interface_api;
extern const sai_neighbor_api_t asim_neighbor_api;
extern const sai_next_hop_api_t asim_next_hop_api;
extern const sai_next_hop_group_api_t asim_next_hop_group_api;
extern const sai_route_api_t asim_route_api;

#endif /* asic-sim-private.h */
