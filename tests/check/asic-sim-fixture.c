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

/* The fixture of the SAI simulator's Check suites; see
 * asic-sim-fixture.h. */

#include <config.h>

#include "tests/check/asic-sim-fixture.h"

#include "openvswitch/util.h"
#include "util.h"

/* The fixture's state (see asic-sim-fixture.h). */

sai_switch_api_t *fx_switch_api;
sai_virtual_router_api_t *fx_vr_api;
sai_router_interface_api_t *fx_rif_api;
sai_neighbor_api_t *fx_neighbor_api;
sai_next_hop_api_t *fx_nh_api;
sai_next_hop_group_api_t *fx_nhg_api;
sai_route_api_t *fx_route_api;

sai_object_id_t fx_sw;      /* The switch. */
sai_object_id_t fx_vr;      /* Its default VR. */
sai_object_id_t fx_port0;   /* Its first front-panel port. */
sai_object_id_t fx_rif;     /* A port RIF on 'fx_port0' in 'fx_vr'. */
sai_object_id_t fx_nh[3];   /* Next hops 10.0.0.1...3 on 'fx_rif'. */

/* Returns the route entry for 'addr'/'plen' in 'vr_id' on the fixture's
 * switch. */
sai_route_entry_t
fx_route4(sai_object_id_t vr_id, uint32_t addr, unsigned int plen)
{
    sai_route_entry_t e;

    memset(&e, 0, sizeof e);
    e.switch_id = fx_sw;
    e.vr_id = vr_id;
    sai_util_ip_prefix_init4(&e.destination, addr, plen);
    return e;
}

/* Returns the route entry for prefix 's' ("10.0.0.0/8") in 'vr_id' on the
 * fixture's switch. */
sai_route_entry_t
fx_route_parse(sai_object_id_t vr_id, const char *s)
{
    sai_route_entry_t e;

    memset(&e, 0, sizeof e);
    e.switch_id = fx_sw;
    e.vr_id = vr_id;
    ck_assert(sai_util_ip_prefix_parse(s, &e.destination));
    return e;
}

/* Creates in '*id' an IP next hop to 'ip' on 'rif_id'. */
sai_status_t
fx_create_nh(sai_object_id_t *id, sai_object_id_t rif_id, const char *ip)
{
    sai_attribute_t attrs[3];

    attrs[0] = attr_s32(SAI_NEXT_HOP_ATTR_TYPE, SAI_NEXT_HOP_TYPE_IP);
    memset(&attrs[1], 0, sizeof attrs[1]);
    attrs[1].id = SAI_NEXT_HOP_ATTR_IP;
    attrs[1].value.ipaddr = addr_parse(ip);
    attrs[2] = attr_oid(SAI_NEXT_HOP_ATTR_ROUTER_INTERFACE_ID, rif_id);
    return fx_nh_api->create_next_hop(id, fx_sw, 3, attrs);
}

/* Creates in '*id' an ECMP next-hop group. */
sai_status_t
fx_create_group(sai_object_id_t *id)
{
    sai_attribute_t a = attr_s32(SAI_NEXT_HOP_GROUP_ATTR_TYPE,
                                 SAI_NEXT_HOP_GROUP_TYPE_ECMP);

    return fx_nhg_api->create_next_hop_group(id, fx_sw, 1, &a);
}

/* Creates in '*id' a member of 'group' for 'nh_id' with 'weight'. */
sai_status_t
fx_create_member(sai_object_id_t *id, sai_object_id_t group,
                 sai_object_id_t nh_id, uint32_t weight)
{
    sai_attribute_t attrs[3];

    attrs[0] = attr_oid(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_GROUP_ID,
                        group);
    attrs[1] = attr_oid(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID, nh_id);
    attrs[2] = attr_u32(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT, weight);
    return fx_nhg_api->create_next_hop_group_member(id, fx_sw, 3, attrs);
}

/* Creates route 'e' pointing to 'nh_id' (forwarding). */
sai_status_t
fx_create_route(const sai_route_entry_t *e, sai_object_id_t nh_id)
{
    sai_attribute_t a = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, nh_id);

    return fx_route_api->create_route_entry(e, 1, &a);
}

/* Returns true if route 'e' exists. */
bool
fx_route_exists(const sai_route_entry_t *e)
{
    sai_attribute_t a = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION, 0);

    return fx_route_api->get_route_entry_attribute(e, 1, &a)
           == SAI_STATUS_SUCCESS;
}

/* Returns the hit counter of route 'e', which must exist. */
uint64_t
fx_route_hits(const sai_route_entry_t *e)
{
    sai_attribute_t a;

    memset(&a, 0, sizeof a);
    a.id = ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT;
    ck_assert_status(fx_route_api->get_route_entry_attribute(e, 1, &a),
                     SAI_STATUS_SUCCESS);
    return a.value.u64;
}

/* Stores the switch's CRM counters in 'crm'. */
void
fx_crm_get(struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES])
{
    ck_assert_status(asic_sim_crm_get(fx_sw, crm), SAI_STATUS_SUCCESS);
}

/* Check fixture: sets up the fixture of asic-sim-fixture.h. */
void
fx_setup(void)
{
    sai_attribute_t attrs[4];

    ck_assert_status(sai_api_initialize(0, NULL), SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_SWITCH, (void **) &fx_switch_api),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_VIRTUAL_ROUTER,
                                   (void **) &fx_vr_api), SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_ROUTER_INTERFACE,
                                   (void **) &fx_rif_api), SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_NEIGHBOR,
                                   (void **) &fx_neighbor_api),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_NEXT_HOP, (void **) &fx_nh_api),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_NEXT_HOP_GROUP,
                                   (void **) &fx_nhg_api), SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_ROUTE, (void **) &fx_route_api),
                     SAI_STATUS_SUCCESS);

    memset(attrs, 0, sizeof attrs);
    attrs[0].id = SAI_SWITCH_ATTR_INIT_SWITCH;
    attrs[0].value.booldata = true;
    attrs[1] = attr_u32(ASIC_SIM_SWITCH_ATTR_PORT_NUMBER, 4);
    ck_assert_status(fx_switch_api->create_switch(&fx_sw, 2, attrs),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(sai_object_type_query(fx_sw), SAI_OBJECT_TYPE_SWITCH);

    sai_object_id_t ports[8];
    attrs[0].id = SAI_SWITCH_ATTR_DEFAULT_VIRTUAL_ROUTER_ID;
    attrs[1].id = SAI_SWITCH_ATTR_PORT_LIST;
    attrs[1].value.objlist.count = ARRAY_SIZE(ports);
    attrs[1].value.objlist.list = ports;
    ck_assert_status(fx_switch_api->get_switch_attribute(fx_sw, 2, attrs),
                     SAI_STATUS_SUCCESS);
    fx_vr = attrs[0].value.oid;
    ck_assert_uint_eq(attrs[1].value.objlist.count, 4);
    fx_port0 = ports[0];

    attrs[0] = attr_oid(SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID, fx_vr);
    attrs[1] = attr_s32(SAI_ROUTER_INTERFACE_ATTR_TYPE,
                        SAI_ROUTER_INTERFACE_TYPE_PORT);
    attrs[2] = attr_oid(SAI_ROUTER_INTERFACE_ATTR_PORT_ID, fx_port0);
    ck_assert_status(fx_rif_api->create_router_interface(&fx_rif, fx_sw, 3,
                                                         attrs),
                     SAI_STATUS_SUCCESS);

    ck_assert_status(fx_create_nh(&fx_nh[0], fx_rif, "10.0.0.1"),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_nh(&fx_nh[1], fx_rif, "10.0.0.2"),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_nh(&fx_nh[2], fx_rif, "10.0.0.3"),
                     SAI_STATUS_SUCCESS);
}

/* Check fixture: uninitializes the library, which removes every
 * switch. */
void
fx_teardown(void)
{
    ck_assert_status(sai_api_uninitialize(), SAI_STATUS_SUCCESS);
}

/* Fills 'entries' with 'n' /24s 20.<i>.0.0 ... and 'attrs' with a next
 * hop each. */
void
fx_make_bulk(sai_route_entry_t *entries, sai_attribute_t *attrs,
             const sai_attribute_t **attr_lists, uint32_t *attr_counts,
             uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        entries[i] = fx_route4(fx_vr, ip4(20, i, 0, 0), 24);
        attrs[i] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, fx_nh[i % 3]);
        attr_lists[i] = &attrs[i];
        attr_counts[i] = 1;
    }
}
