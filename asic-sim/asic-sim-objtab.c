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

/* asic-sim: the slot tables that hold the objects with ids, and the
 * create, remove, set and get logic that the object types share. */

#include <config.h>

#include "asic-sim/asic-sim-private.h"

#include <stdlib.h>
#include <string.h>

#include "openvswitch/util.h"
#include "util.h"

/* The SAI object type of each kind. */
const sai_object_type_t asim_kind_types[N_KINDS] = {
    [KIND_PORT] = SAI_OBJECT_TYPE_PORT,
    [KIND_VR] = SAI_OBJECT_TYPE_VIRTUAL_ROUTER,
    [KIND_RIF] = SAI_OBJECT_TYPE_ROUTER_INTERFACE,
    [KIND_NH] = SAI_OBJECT_TYPE_NEXT_HOP,
    [KIND_NHG] = SAI_OBJECT_TYPE_NEXT_HOP_GROUP,
    [KIND_NHGM] = SAI_OBJECT_TYPE_NEXT_HOP_GROUP_MEMBER,
};

/* ---- Slot tables -------------------------------------------------------- */

void
asim_objtab_init(struct objtab *tab)
{
    memset(tab, 0, sizeof *tab);
    tab->free_head = UINT32_MAX;
}

void
asim_objtab_destroy(struct objtab *tab)
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
void
asim_objtab_add(struct sim_switch *sw, enum sim_kind kind, struct sim_obj *obj)
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
        tab->slots[index].gen = asim_switch_gens[sw->index] << 12;
    }
    tab->slots[index].obj = obj;
    tab->n_objs++;
    obj->oid = oid_make(asim_kind_types[kind], sw->index,
                        tab->slots[index].gen, index);
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

/* ---- Generic object operations ------------------------------------------ */

/* Finds the object of 'kind' that 'oid' names for a remove, set or get.
 * Returns NULL with '*status' set if there is none: INVALID_OBJECT_TYPE if
 * 'oid' is of another type, otherwise INVALID_OBJECT_ID. */
static struct sim_obj *
op_find(sai_object_id_t oid, enum sim_kind kind, struct sim_switch **swp,
        sai_status_t *status)
{
    struct sim_obj *obj;

    if (oid_type(oid) != asim_kind_types[kind]) {
        *swp = NULL;
        *status = SAI_STATUS_INVALID_OBJECT_TYPE;
        return NULL;
    }
    obj = obj_find_any(oid, kind, swp);
    *status = obj ? SAI_STATUS_SUCCESS : SAI_STATUS_INVALID_OBJECT_ID;
    return obj;
}

/* SAI remove of the object of class 'cls' named 'oid': OBJECT_IN_USE
 * while it is in use. */
sai_status_t
asim_obj_remove(const struct obj_class *cls, sai_object_id_t oid)
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
sai_status_t
asim_obj_set(const struct obj_class *cls, sai_object_id_t oid,
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
sai_status_t
asim_obj_get(const struct obj_class *cls, sai_object_id_t oid,
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

/* obj_class 'in_use' for a kind that is in use while referenced: a RIF
 * while next hops, neighbors or routes refer to it, a next hop while
 * routes or group members use it. */
bool
asim_obj_referenced(const struct sim_switch *sw OVS_UNUSED,
                    const struct sim_obj *obj)
{
    return obj->refcnt != 0;
}

/* Decides whether a create on 'sw' of an object of 'kind', which uses
 * resource 'res' (ASIC_SIM_N_RESOURCES for none), may go ahead once its
 * attributes parsed: MANDATORY_ATTRIBUTE_MISSING unless 'complete', then
 * INSUFFICIENT_RESOURCES, then injected faults. */
sai_status_t
asim_create_admit(struct sim_switch *sw, enum sim_kind kind,
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
