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
 * Files
 * =====
 *
 *   asic-sim.c          The library entry points (sai_api_initialize(),
 *                       sai_api_query() and the object queries) and the
 *                       library state.
 *   asic-sim-private.h  What the files below share: object ids, the object
 *                       and route types, the switch, the small inline
 *                       helpers, and what each file exports ("asim_*").
 *   asic-sim-objtab.c   Slot tables and the generic create, remove, set
 *                       and get that the object types share.
 *   asic-sim-switch.c   Switches, resources (CRM), statistics and memory.
 *   asic-sim-route.c    The route store, next-hop references ("nhref"),
 *                       the programming delay and the route methods,
 *                       single and bulk.
 *   asic-sim-router.c   Virtual routers, router interfaces, neighbors.
 *   asic-sim-nexthop.c  Next hops, next-hop groups and their members.
 *   asic-sim-lookup.c   Lookups, ECMP selection, and dumps of routes,
 *                       neighbors and objects.
 *   asic-sim-fault.c    Fault injection.
 *
 * Each SAI API's method table is next to its methods, and sai_api_query()
 * hands it out.
 *
 * Not thread-safe; see asic-sim.h. */

#include <config.h>

#include "asic-sim/asic-sim.h"

#include "asic-sim/asic-sim-private.h"
#include "openvswitch/util.h"

/* Library state (see asic-sim-private.h). */
bool asim_initialized;          /* sai_api_initialize() called? */
struct sim_switch *asim_switches[ASIC_SIM_MAX_SWITCHES]; /* By index. */
uint16_t asim_switch_gens[ASIC_SIM_MAX_SWITCHES]; /* Their generations. */

/* ---- Library entry points ----------------------------------------------- */

/* Initializes the library.  'flags' and 'services' are ignored.  Returns
 * SAI_STATUS_FAILURE if it is already initialized. */
sai_status_t
sai_api_initialize(uint64_t flags OVS_UNUSED,
                   const sai_service_method_table_t *services OVS_UNUSED)
{
    if (asim_initialized) {
        return SAI_STATUS_FAILURE;
    }
    asim_initialized = true;
    return SAI_STATUS_SUCCESS;
}

/* Removes every switch and returns the library to its uninitialized
 * state. */
sai_status_t
sai_api_uninitialize(void)
{
    if (!asim_initialized) {
        return SAI_STATUS_UNINITIALIZED;
    }
    for (int i = 0; i < ASIC_SIM_MAX_SWITCHES; i++) {
        if (asim_switches[i]) {
            asim_remove_switch(asim_switches[i]->oid);
        }
    }
    asim_initialized = false;
    return SAI_STATUS_SUCCESS;
}

/* Stores in '*api_method_table' the method table of 'api' (a pointer to a
 * sai_<api>_api_t, owned by the library). */
sai_status_t
sai_api_query(sai_api_t api, void **api_method_table)
{
    const void *table;

    if (!asim_initialized) {
        return SAI_STATUS_UNINITIALIZED;
    } else if (!api_method_table) {
        return SAI_STATUS_INVALID_PARAMETER;
    }

    switch (api) {
    case SAI_API_SWITCH:
        table = &asim_switch_api;
        break;
    case SAI_API_VIRTUAL_ROUTER:
        table = &asim_virtual_router_api;
        break;
    case SAI_API_ROUTE:
        table = &asim_route_api;
        break;
    case SAI_API_NEXT_HOP:
        table = &asim_next_hop_api;
        break;
    case SAI_API_NEXT_HOP_GROUP:
        table = &asim_next_hop_group_api;
        break;
    case SAI_API_ROUTER_INTERFACE:
        table = &asim_router_interface_api;
        break;
    case SAI_API_NEIGHBOR:
        table = &asim_neighbor_api;
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
        if (asim_kind_types[k] == type) {
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
