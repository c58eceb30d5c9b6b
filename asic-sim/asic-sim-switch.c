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

/* asic-sim: switches, their resources (SONiC's CRM), statistics and
 * memory use. */

#include <config.h>

#include "asic-sim/asic-sim-private.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "asic-sim/lpm4.h"
#include "asic-sim/lpm6.h"
#include "openvswitch/hmap.h"
#include "openvswitch/util.h"
#include "util.h"

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

/* ---- Resources and statistics ------------------------------------------- */

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

/* ---- Switch ------------------------------------------------------------- */

static struct sim_port *
port_create(struct sim_switch *sw, bool is_cpu)
{
    struct sim_port *port = xzalloc(sizeof *port);

    port->is_cpu = is_cpu;
    asim_objtab_add(sw, KIND_PORT, &port->obj);
    return port;
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

    if (!asim_initialized) {
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
        if (!asim_switches[index]) {
            break;
        }
    }
    if (index >= ASIC_SIM_MAX_SWITCHES) {
        return SAI_STATUS_INSUFFICIENT_RESOURCES;
    }

    struct sim_switch *sw = xzalloc(sizeof *sw);
    asim_switch_gens[index]++;
    sw->index = index;
    sw->oid = oid_make(SAI_OBJECT_TYPE_SWITCH, index,
                       asim_switch_gens[index], 0);
    for (int k = 0; k < N_KINDS; k++) {
        asim_objtab_init(&sw->tabs[k]);
    }
    memcpy(sw->src_mac, mac, sizeof mac);
    memcpy(sw->capacity, capacity, sizeof capacity);
    sw->route_free = UINT32_MAX;
    hmap_init(&sw->neighbors);
    hmap_init(&sw->fault_prefixes);
    hmap_init(&sw->removed_routes);
    sw->fault.ops = ASIC_SIM_FAULT_ROUTES;

    sw->cpu_port = port_create(sw, true);
    sw->n_ports = n_ports;
    sw->ports = xmalloc(n_ports * sizeof *sw->ports);
    for (uint32_t i = 0; i < n_ports; i++) {
        sw->ports[i] = port_create(sw, false);
    }
    sw->default_vr = asim_vr_create__(sw);

    asim_switches[index] = sw;
    *switch_id = sw->oid;
    return SAI_STATUS_SUCCESS;
}

/* SAI remove_switch(): frees the switch and every object on it. */
sai_status_t
asim_remove_switch(sai_object_id_t switch_id)
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
                asim_vr_destroy__(vr_cast(obj));
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
        asim_objtab_destroy(tab);
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

    asim_removed_routes_clear(sw);
    hmap_destroy(&sw->removed_routes);

    for (uint32_t i = 0; i < sw->n_route_chunks; i++) {
        munmap(sw->route_chunks[i], ROUTE_CHUNK_BYTES);
    }

    asim_switches[sw->index] = NULL;
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

/* The SAI_API_SWITCH methods, for sai_api_query(). */
const sai_switch_api_t asim_switch_api = {
    create_switch,
    asim_remove_switch,
    set_switch_attribute,
    get_switch_attribute,
};

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

/* Zeroes the counters of 'switch_id' (not the routes' hit counts) and
 * forgets the routes removed so far: creating them again is no churn. */
sai_status_t
asic_sim_stats_clear(sai_object_id_t switch_id)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    memset(&sw->stats, 0, sizeof sw->stats);
    asim_removed_routes_clear(sw);
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
                           * sizeof(struct fault_prefix)
                         + hmap_count(&sw->removed_routes)
                           * sizeof(struct removed_route));
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
