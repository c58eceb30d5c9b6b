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

/* asic-sim: next hops, next-hop groups and their members. */

#include <config.h>

#include "asic-sim/asic-sim-private.h"

#include <stdlib.h>
#include <string.h>

#include "openvswitch/list.h"
#include "openvswitch/util.h"
#include "util.h"

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
        nh->ip = sai_util_ip_address_normalize(&a->value.ipaddr);
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

        status = asim_create_admit(sw, KIND_NH, ASIC_SIM_RES_NEXT_HOP,
                                   has_type && has_ip && tmp.rif);
    }
    if (!status) {
        struct sim_nh *nh = xmalloc(sizeof *nh);

        *nh = tmp;
        asim_objtab_add(sw, KIND_NH, &nh->obj);
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
OBJ_CLASS(next_hop, nh, KIND_NH, asim_obj_referenced, NULL,
          SAI_NEXT_HOP_ATTR_END)

/* The SAI_API_NEXT_HOP methods, for sai_api_query(). */
const sai_next_hop_api_t asim_next_hop_api = {
    create_next_hop,
    remove_next_hop,
    set_next_hop_attribute,
    get_next_hop_attribute,
};

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

        status = asim_create_admit(sw, KIND_NHG, ASIC_SIM_RES_NEXT_HOP_GROUP,
                                   has_type);
    }
    if (!status) {
        struct sim_nhg *nhg = xzalloc(sizeof *nhg);

        nhg->type = type;
        ovs_list_init(&nhg->members);
        asim_objtab_add(sw, KIND_NHG, &nhg->obj);
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
        status = asim_create_admit(sw, KIND_NHGM,
                                   ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER,
                                   tmp.group && tmp.nh);
    }
    if (!status) {
        struct sim_nhgm *m = xmalloc(sizeof *m);

        *m = tmp;
        asim_objtab_add(sw, KIND_NHGM, &m->obj);
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

/* The SAI_API_NEXT_HOP_GROUP methods, for sai_api_query(). */
const sai_next_hop_group_api_t asim_next_hop_group_api = {
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
