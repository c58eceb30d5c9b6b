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

/* asic-sim: virtual routers, router interfaces and neighbors. */

#include <config.h>

#include "asic-sim/asic-sim-private.h"

#include <stdlib.h>
#include <string.h>

#include "asic-sim/lpm4.h"
#include "asic-sim/lpm6.h"
#include "hash.h"
#include "openvswitch/hmap.h"
#include "openvswitch/util.h"
#include "util.h"

/* ---- Virtual routers ---------------------------------------------------- */

/* Creates a VR on 'sw' with default attributes. */
struct sim_vr *
asim_vr_create__(struct sim_switch *sw)
{
    struct sim_vr *vr = xzalloc(sizeof *vr);

    vr->admin_v4 = vr->admin_v6 = true;
    memcpy(vr->mac, sw->src_mac, sizeof vr->mac);
    asim_objtab_add(sw, KIND_VR, &vr->obj);
    return vr;
}

/* Frees 'vr' and its LPM tables. */
void
asim_vr_destroy__(struct sim_vr *vr)
{
    lpm4_destroy(vr->lpm4);
    lpm6_destroy(vr->lpm6);
    free(vr);
}

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
        status = asim_create_admit(sw, KIND_VR, ASIC_SIM_N_RESOURCES, true);
    }
    if (!status) {
        struct sim_vr *vr = asim_vr_create__(sw);

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
    asim_vr_destroy__(vr_cast(obj));
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

/* The SAI_API_VIRTUAL_ROUTER methods, for sai_api_query(). */
const sai_virtual_router_api_t asim_virtual_router_api = {
    create_virtual_router,
    remove_virtual_router,
    set_virtual_router_attribute,
    get_virtual_router_attribute,
};

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

        status = asim_create_admit(sw, KIND_RIF, ASIC_SIM_N_RESOURCES,
                                   complete);
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
        asim_objtab_add(sw, KIND_RIF, &rif->obj);
        rif->vr->obj.refcnt++;
        if (rif->port) {
            rif->port->obj.refcnt++;
        }
        *rif_id = rif->obj.oid;
    }
    stats_op(sw, false, ASIC_SIM_OP_CREATE, status);
    return status;
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
OBJ_CLASS(router_interface, rif, KIND_RIF, asim_obj_referenced, rif_set, 0)

/* The SAI_API_ROUTER_INTERFACE methods, for sai_api_query(). */
const sai_router_interface_api_t asim_router_interface_api = {
    create_router_interface,
    remove_router_interface,
    set_router_interface_attribute,
    get_router_interface_attribute,
};

/* ---- Neighbors ---------------------------------------------------------- */

static uint32_t
neighbor_hash(const struct sim_rif *rif, const sai_ip_address_t *ip)
{
    return hash_bytes(ip, sizeof *ip, hash_uint64(rif->obj.oid));
}

/* Returns the neighbor of 'rif' with address 'ip' (normalized), or NULL. */
struct sim_neighbor *
asim_neighbor_find(const struct sim_switch *sw, const struct sim_rif *rif,
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
    *ip = sai_util_ip_address_normalize(&e->ip_address);
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
        } else if (asim_neighbor_find(sw, rif, &ip)) {
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

    *nbp = sw ? asim_neighbor_find(sw, rif, &ip) : NULL;
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

/* The SAI_API_NEIGHBOR methods, for sai_api_query(). */
const sai_neighbor_api_t asim_neighbor_api = {
    create_neighbor_entry,
    remove_neighbor_entry,
    set_neighbor_entry_attribute,
    get_neighbor_entry_attribute,
};
