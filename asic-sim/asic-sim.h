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

#ifndef ASIC_SIM_H
#define ASIC_SIM_H 1

/* asic-sim: a simulated switch ASIC behind the SAI API of asic-sim/sai.h.
 *
 * Model
 * =====
 *
 * A switch (create_switch()) comes with a default virtual router, a CPU
 * port and ASIC_SIM_SWITCH_ATTR_PORT_NUMBER front-panel ports.  On it the
 * caller creates virtual routers, router interfaces, neighbors, next hops,
 * next-hop groups with weighted members, and route entries keyed by
 * (switch, virtual router, prefix) with PACKET_ACTION and NEXT_HOP_ID.
 *
 * Every object that others refer to is reference counted: removing a next
 * hop used by a route or a group member, a group used by a route or still
 * holding members, a router interface used by a next hop, neighbor or
 * route, or a virtual router holding routes or router interfaces fails with
 * SAI_STATUS_OBJECT_IN_USE.  Each resource of enum asic_sim_resource has a
 * capacity (ASIC_SIM_SWITCH_ATTR_*_CAPACITY or asic_sim_set_capacity());
 * creating beyond it fails with SAI_STATUS_INSUFFICIENT_RESOURCES.
 *
 * The forwarding model is one IPv4 table (DIR-24-8, asic-sim/lpm4.h) and
 * one IPv6 table (multibit trie, asic-sim/lpm6.h) per virtual router,
 * created on the VR's first route of that family.  asic_sim_lookup() finds
 * the longest matching route of an address, counts a hit on it, and
 * resolves its next hops (ECMP members with weights).
 *
 * Extensions
 * ==========
 *
 * Besides SAI, this header gives what a daemon hosting the simulator needs
 * to expose it: lookups, ordered route dumps, resource counters like
 * SONiC's CRM, fault injection (a seeded fraction of operations, chosen
 * prefixes, a per-route programming delay), statistics and memory use.
 * The simulator knows nothing of OVSDB.
 *
 * Statuses
 * ========
 *
 * Besides the statuses named above, as SAI implementations do:
 *
 *   - a route or neighbor key that names no existing switch, VR or RIF, or
 *     has an invalid prefix (bad family, non-contiguous mask, host bits
 *     set), gives SAI_STATUS_INVALID_PARAMETER;
 *
 *   - removing, setting or getting by an id of the wrong type gives
 *     SAI_STATUS_INVALID_OBJECT_TYPE, by a stale or unknown id
 *     SAI_STATUS_INVALID_OBJECT_ID;
 *
 *   - an attribute error gives the *_0 code of sai.h plus the attribute's
 *     index: UNKNOWN_ATTRIBUTE for an id the object does not have,
 *     INVALID_ATTRIBUTE for a read-only one on create or set, a
 *     create-only one on set, or a duplicate, INVALID_ATTR_VALUE for a bad
 *     value (including an id of the wrong type or switch), and
 *     ATTR_NOT_SUPPORTED for a valid value the simulator does not model;
 *     a missing mandatory attribute gives
 *     SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING.
 *
 * An operation is validated in full (key, attributes, existence,
 * references, capacity) before the fault injector may fail it, and nothing
 * changes unless it succeeds.  Bulk calls return SAI_STATUS_SUCCESS only
 * if every object succeeded, otherwise SAI_STATUS_FAILURE with one status
 * per object (SAI_STATUS_NOT_EXECUTED after the first failure in
 * STOP_ON_ERROR mode).
 *
 * Object ids
 * ==========
 *
 * An object id encodes its type (sai_object_type_query()), its switch
 * (sai_switch_id_query()), a slot index and a generation that changes when
 * the slot is reused, so a stale id is rejected rather than aliased.
 *
 * Thread safety
 * =============
 *
 * None: the simulator is single-threaded.  The caller must serialize all
 * calls (SAI ones and these), as a daemon's main loop naturally does.
 * Functions on different switches share global state too. */

#include <stddef.h>
#include <stdint.h>

#include "asic-sim/sai.h"

/* Most switches that can exist at once. */
#define ASIC_SIM_MAX_SWITCHES 16

/* Resources with a capacity and counters, like SONiC's CRM. */
enum asic_sim_resource {
    ASIC_SIM_RES_IPV4_ROUTE,
    ASIC_SIM_RES_IPV6_ROUTE,
    ASIC_SIM_RES_NEXT_HOP,
    ASIC_SIM_RES_NEXT_HOP_GROUP,
    ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER,
    ASIC_SIM_RES_IPV4_NEIGHBOR,
    ASIC_SIM_RES_IPV6_NEIGHBOR,
    ASIC_SIM_N_RESOURCES
};

/* Largest capacities.  IPv4 and IPv6 routes share one route store of
 * ASIC_SIM_MAX_ROUTES entries (the LPM tables map a prefix to a 24-bit
 * record index), so neither capacity can exceed it, and together they
 * cannot hold more.  Every other resource, and every object type with ids,
 * is limited to ASIC_SIM_MAX_OBJECTS objects. */
#define ASIC_SIM_MAX_ROUTES (1u << 24)
#define ASIC_SIM_MAX_OBJECTS (1u << 24)

/* Default capacities. */
#define ASIC_SIM_DEFAULT_IPV4_ROUTES 4000000
#define ASIC_SIM_DEFAULT_IPV6_ROUTES 1000000
#define ASIC_SIM_DEFAULT_NEXT_HOPS 131072
#define ASIC_SIM_DEFAULT_NEXT_HOP_GROUPS 32768
#define ASIC_SIM_DEFAULT_NEXT_HOP_GROUP_MEMBERS 262144
#define ASIC_SIM_DEFAULT_NEIGHBORS 131072
#define ASIC_SIM_DEFAULT_PORTS 32

/* Custom switch attributes. */
enum asic_sim_switch_attr {
    /* uint32_t, CREATE_ONLY, default ASIC_SIM_DEFAULT_PORTS (at most
     * 4096): number of front-panel ports. */
    ASIC_SIM_SWITCH_ATTR_PORT_NUMBER = SAI_SWITCH_ATTR_CUSTOM_RANGE_START,

    /* uint32_t, CREATE_AND_SET: capacity of each resource, in the order of
     * enum asic_sim_resource.  Lowering a capacity below the current use
     * is allowed: creations then fail until enough objects are removed. */
    ASIC_SIM_SWITCH_ATTR_IPV4_ROUTE_CAPACITY,
    ASIC_SIM_SWITCH_ATTR_IPV6_ROUTE_CAPACITY,
    ASIC_SIM_SWITCH_ATTR_NEXT_HOP_CAPACITY,
    ASIC_SIM_SWITCH_ATTR_NEXT_HOP_GROUP_CAPACITY,
    ASIC_SIM_SWITCH_ATTR_NEXT_HOP_GROUP_MEMBER_CAPACITY,
    ASIC_SIM_SWITCH_ATTR_IPV4_NEIGHBOR_CAPACITY,
    ASIC_SIM_SWITCH_ATTR_IPV6_NEIGHBOR_CAPACITY,
};

/* Custom route entry attribute. */
enum asic_sim_route_entry_attr {
    /* uint64_t, READ_ONLY except that setting it to 0 clears it: number of
     * asic_sim_lookup() calls that matched the route. */
    ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT
        = SAI_ROUTE_ENTRY_ATTR_CUSTOM_RANGE_START,
};

/* ---- Resource counters (CRM) -------------------------------------------- */

/* One resource's counters, live: 'used' drops as objects are removed. */
struct asic_sim_crm_entry {
    uint32_t used;              /* Objects that exist. */
    uint32_t available;         /* Objects that can still be created. */
    uint32_t capacity;          /* The configured capacity. */
};

sai_status_t asic_sim_crm_get(sai_object_id_t switch_id,
                              struct asic_sim_crm_entry[ASIC_SIM_N_RESOURCES]);
sai_status_t asic_sim_set_capacity(sai_object_id_t switch_id,
                                   enum asic_sim_resource,
                                   uint32_t capacity);
const char *asic_sim_resource_name(enum asic_sim_resource);

/* ---- Lookups ------------------------------------------------------------ */

/* A route as found by a lookup or a dump. */
struct asic_sim_route {
    sai_route_entry_t entry;    /* Key: switch, VR and prefix. */
    sai_packet_action_t action; /* SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION. */
    sai_object_id_t next_hop_id; /* SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID. */
    uint64_t hits;              /* Lookups that matched it. */
};

/* One resolved next hop of a route. */
struct asic_sim_nexthop {
    sai_object_id_t next_hop_id; /* The NEXT_HOP object, or null for a
                                  * directly connected or IP2ME route. */
    sai_object_id_t member_id;  /* The group member, if the route points to
                                 * a group, otherwise null. */
    sai_object_id_t rif_id;     /* Egress router interface, or null for an
                                 * IP2ME route. */
    sai_object_id_t port_id;    /* The RIF's port, or the CPU port for an
                                 * IP2ME route; null for other RIF types. */
    sai_ip_address_t ip;        /* Next hop's address; for a connected
                                 * route, the looked-up address itself. */
    uint32_t weight;            /* Member weight (1 if not in a group). */
    bool neighbor_resolved;     /* Is there a neighbor entry for 'ip' on
                                 * 'rif_id'? */
    sai_mac_t mac;              /* The neighbor's MAC, if resolved. */
};

sai_status_t asic_sim_lookup(sai_object_id_t vr_id,
                             const sai_ip_address_t *addr,
                             struct asic_sim_route *route,
                             struct asic_sim_nexthop *nexthops,
                             uint32_t *n_nexthops);
sai_status_t asic_sim_lookup_bulk(sai_object_id_t vr_id, uint32_t n,
                                  const sai_ip_address_t addrs[],
                                  struct asic_sim_route routes[],
                                  sai_status_t statuses[]);
uint32_t asic_sim_ecmp_select(const struct asic_sim_nexthop *, uint32_t n,
                              uint32_t flow_hash);

/* ---- Dumps -------------------------------------------------------------- */

/* Called for each route by asic_sim_route_walk().  'route' is valid only
 * during the call. */
typedef void asic_sim_route_cb(const struct asic_sim_route *route,
                               void *aux);

sai_status_t asic_sim_route_walk(sai_object_id_t vr_id,
                                 asic_sim_route_cb *, void *aux);
sai_status_t asic_sim_route_count(sai_object_id_t vr_id, uint32_t *n_ipv4,
                                  uint32_t *n_ipv6);

/* Called for each neighbor by asic_sim_neighbor_walk(). */
typedef void asic_sim_neighbor_cb(const sai_neighbor_entry_t *,
                                  const sai_mac_t mac,
                                  sai_packet_action_t action, void *aux);
sai_status_t asic_sim_neighbor_walk(sai_object_id_t switch_id,
                                    asic_sim_neighbor_cb *, void *aux);

sai_status_t asic_sim_get_object_count(sai_object_id_t switch_id,
                                       sai_object_type_t,
                                       uint32_t *count);
sai_status_t asic_sim_get_object_list(sai_object_id_t switch_id,
                                      sai_object_type_t,
                                      sai_object_list_t *);

/* ---- Fault injection -------------------------------------------------- */

/* Which operations the fault injector may fail (bits for 'ops'). */
enum asic_sim_fault_ops {
    ASIC_SIM_FAULT_ROUTE_CREATE = 1 << 0, /* Route entry creation. */
    ASIC_SIM_FAULT_ROUTE_REMOVE = 1 << 1, /* Route entry removal. */
    ASIC_SIM_FAULT_ROUTE_SET = 1 << 2,    /* Route attribute set. */
    ASIC_SIM_FAULT_OBJECTS = 1 << 3,      /* Create, remove and set of
                                           * every other object (rate
                                           * only). */
    ASIC_SIM_FAULT_ROUTES = (ASIC_SIM_FAULT_ROUTE_CREATE
                             | ASIC_SIM_FAULT_ROUTE_REMOVE
                             | ASIC_SIM_FAULT_ROUTE_SET),
};

/* Fault injection settings of a switch.
 *
 * An operation is failed (SAI_STATUS_FAILURE, the objects unchanged) only
 * after it passed validation, as a hardware failure would: an invalid
 * operation still gets its specific status (ITEM_NOT_FOUND, ...). */
struct asic_sim_fault {
    double rate;                /* Fraction of operations to fail, 0...1,
                                 * drawn from a PRNG seeded with 'seed'. */
    uint64_t seed;              /* Seed; asic_sim_fault_set() restarts the
                                 * PRNG from it, so runs are repeatable. */
    unsigned int ops;           /* ASIC_SIM_FAULT_* bits: the operations
                                 * that 'rate' and the chosen prefixes
                                 * apply to.  Default ASIC_SIM_FAULT_ROUTES
                                 * (if 0). */
    uint32_t delay_usec;        /* Programming delay per route operation
                                 * (create, remove or set), in
                                 * microseconds; bulks sleep once for the
                                 * sum.  0 for none. */
};

sai_status_t asic_sim_fault_set(sai_object_id_t switch_id,
                                const struct asic_sim_fault *);
sai_status_t asic_sim_fault_get(sai_object_id_t switch_id,
                                struct asic_sim_fault *);
sai_status_t asic_sim_fault_add_prefix(sai_object_id_t switch_id,
                                       sai_object_id_t vr_id,
                                       const sai_ip_prefix_t *);
sai_status_t asic_sim_fault_remove_prefix(sai_object_id_t switch_id,
                                          sai_object_id_t vr_id,
                                          const sai_ip_prefix_t *);
sai_status_t asic_sim_fault_clear(sai_object_id_t switch_id);

/* Called for each chosen prefix by asic_sim_fault_prefix_walk(). */
typedef void asic_sim_fault_prefix_cb(sai_object_id_t vr_id,
                                      const sai_ip_prefix_t *, void *aux);
sai_status_t asic_sim_fault_prefix_walk(sai_object_id_t switch_id,
                                        asic_sim_fault_prefix_cb *,
                                        void *aux);

/* ---- Statistics --------------------------------------------------------- */

enum asic_sim_op {
    ASIC_SIM_OP_CREATE,
    ASIC_SIM_OP_REMOVE,
    ASIC_SIM_OP_SET,
    ASIC_SIM_OP_GET,
    ASIC_SIM_N_OPS
};

/* Slots of 'errors_by_status': index -status for SAI_STATUS_FAILURE up to
 * SAI_STATUS_NOT_EXECUTED, and one slot for all attribute errors. */
#define ASIC_SIM_STATUS_SLOT_ATTR 0x18
#define ASIC_SIM_N_STATUS_SLOTS 0x19

/* Operation counters of a switch. */
struct asic_sim_stats {
    uint64_t route_ops[ASIC_SIM_N_OPS];  /* Route entry operations
                                          * attempted, alone or in bulks
                                          * (NOT_EXECUTED ones excluded). */
    uint64_t object_ops[ASIC_SIM_N_OPS]; /* Same, for every other object
                                          * type. */
    uint64_t bulk_calls[ASIC_SIM_N_OPS]; /* Route entry bulk calls. */
    uint64_t bulk_objects[ASIC_SIM_N_OPS]; /* Route entries in them. */
    uint64_t errors;                     /* Operations that failed. */
    uint64_t errors_by_status[ASIC_SIM_N_STATUS_SLOTS]; /* By status. */
    uint64_t not_executed;               /* Bulk objects not attempted
                                          * after a failure. */
    uint64_t faults_injected;            /* Failures caused by fault
                                          * injection (in 'errors'). */
    uint64_t lookups;                    /* asic_sim_lookup*() addresses. */
    uint64_t lookup_misses;              /* Those that matched nothing. */
    uint64_t delay_usec;                 /* Programming delay injected. */
    uint64_t routes_recreated;           /* Route entries created with the
                                          * key (VR, prefix) of one removed
                                          * before: churn, a route taken
                                          * out of the FIB and put back. */
};

/* 'routes_recreated' counts each create of a route entry whose key was
 * removed earlier on the switch and not created since; a set never counts.
 * To do so the switch remembers the key of every route removed and not
 * created again (about 64 bytes each), until asic_sim_stats_clear()
 * forgets them all: a recreate then counts only if the remove came after
 * the clear.  A daemon that reconciles its FIB with its database should
 * keep this counter at zero. */
sai_status_t asic_sim_stats_get(sai_object_id_t switch_id,
                                struct asic_sim_stats *);
sai_status_t asic_sim_stats_clear(sai_object_id_t switch_id);
unsigned int asic_sim_status_slot(sai_status_t);
const char *asic_sim_op_name(enum asic_sim_op);

/* ---- Memory ------------------------------------------------------------- */

/* Memory used by a switch, in bytes. */
struct asic_sim_memory {
    size_t route_bytes;         /* Route records (16 bytes each, allocated
                                 * in chunks of 64 Ki). */
    size_t lpm4_fixed_bytes;    /* DIR-24-8 tbl24s: 64 MiB of address space
                                 * per VR with IPv4 routes, resident as
                                 * written. */
    size_t lpm4_tbl8_bytes;     /* DIR-24-8 tbl8 groups (1 KiB each). */
    size_t lpm4_rule_bytes;     /* IPv4 prefix hash tables. */
    size_t lpm6_bytes;          /* IPv6 tries. */
    size_t object_bytes;        /* Every other object. */
};

sai_status_t asic_sim_memory_get(sai_object_id_t switch_id,
                                 struct asic_sim_memory *);

#endif /* asic-sim.h */
