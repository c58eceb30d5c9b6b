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

/* Check suite "asic_sim": the SAI simulator (asic-sim/asic-sim*.c) through
 * its SAI method tables and its extensions: bulk semantics in both error
 * modes, reference counts, capacities, CRM counters, switches, ids and
 * statistics.  Fault injection is tested by test-asic-sim-fault.c, lookups
 * and dumps by test-asic-sim-lookup.c. */

#include <config.h>

#include <arpa/inet.h>
#include <check.h>
#include <string.h>

#include "asic-sim/asic-sim.h"
#include "tests/check/asic-sim-fixture.h"
#include "tests/check/suites.h"

START_TEST(test_basic_route)
{
    sai_route_entry_t e = fx_route_parse(fx_vr, "192.0.2.0/24");
    sai_attribute_t attrs[3];

    ck_assert_status(fx_create_route(&e, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&e, fx_nh[1]),
                     SAI_STATUS_ITEM_ALREADY_EXISTS);

    attrs[0] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION, -1);
    attrs[1] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, 0);
    attrs[2] = attr_s32(SAI_ROUTE_ENTRY_ATTR_IP_ADDR_FAMILY, 0);
    ck_assert_status(fx_route_api->get_route_entry_attribute(&e, 3, attrs),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(attrs[0].value.s32, SAI_PACKET_ACTION_FORWARD);
    ck_assert_uint_eq(attrs[1].value.oid, fx_nh[0]);
    ck_assert_int_eq(attrs[2].value.s32, SAI_IP_ADDR_FAMILY_IPV4);

    /* Set: next hop, then action. */
    attrs[0] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, fx_nh[2]);
    ck_assert_status(fx_route_api->set_route_entry_attribute(&e, &attrs[0]),
                     SAI_STATUS_SUCCESS);
    attrs[0] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                        SAI_PACKET_ACTION_DROP);
    ck_assert_status(fx_route_api->set_route_entry_attribute(&e, &attrs[0]),
                     SAI_STATUS_SUCCESS);
    attrs[0].id = SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION;
    attrs[1].id = SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID;
    ck_assert_status(fx_route_api->get_route_entry_attribute(&e, 2, attrs),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(attrs[0].value.s32, SAI_PACKET_ACTION_DROP);
    ck_assert_uint_eq(attrs[1].value.oid, fx_nh[2]);

    /* Invalid keys and attributes. */
    sai_route_entry_t bad = e;
    bad.destination.addr.ip4 |= htonl(1);        /* Host bit set. */
    ck_assert_status(fx_create_route(&bad, fx_nh[0]),
                     SAI_STATUS_INVALID_PARAMETER);
    bad = e;
    bad.vr_id = fx_nh[0];
    ck_assert_status(fx_create_route(&bad, fx_nh[0]),
                     SAI_STATUS_INVALID_PARAMETER);
    bad = fx_route_parse(fx_vr, "198.51.100.0/24");
    ck_assert_status(fx_create_route(&bad, fx_vr),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);
    attrs[0] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                        SAI_PACKET_ACTION_FORWARD);
    attrs[1] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                        SAI_PACKET_ACTION_FORWARD);
    ck_assert_status(fx_route_api->create_route_entry(&bad, 2, attrs),
                     SAI_STATUS_ATTR_INDEX(SAI_STATUS_INVALID_ATTRIBUTE_0,
                                           1));
    attrs[1] = attr_u32(SAI_ROUTE_ENTRY_ATTR_END + 7, 0);
    ck_assert_status(fx_route_api->create_route_entry(&bad, 2, attrs),
                     SAI_STATUS_ATTR_INDEX(SAI_STATUS_UNKNOWN_ATTRIBUTE_0,
                                           1));
    ck_assert(!fx_route_exists(&bad));

    /* Remove. */
    ck_assert_status(fx_route_api->remove_route_entry(&e), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_route_api->remove_route_entry(&e),
                     SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(fx_route_api->set_route_entry_attribute(&e, &attrs[0]),
                     SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert(!fx_route_exists(&e));

    /* IPv6. */
    sai_route_entry_t e6 = fx_route_parse(fx_vr, "2001:db8::/32");
    ck_assert_status(fx_create_route(&e6, fx_nh[1]), SAI_STATUS_SUCCESS);
    ck_assert(fx_route_exists(&e6));
    uint32_t n4, n6;
    ck_assert_status(asic_sim_route_count(fx_vr, &n4, &n6),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n4, 0);
    ck_assert_uint_eq(n6, 1);
}
END_TEST

START_TEST(test_bulk_stop_on_error)
{
    enum { N = 6 };
    sai_route_entry_t entries[N];
    sai_attribute_t attrs[N];
    const sai_attribute_t *lists[N];
    uint32_t counts[N];
    sai_status_t st[N];

    fx_make_bulk(entries, attrs, lists, counts, N);
    ck_assert_status(fx_create_route(&entries[2], fx_nh[0]),
                     SAI_STATUS_SUCCESS);

    ck_assert_status(fx_route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, st),
                     SAI_STATUS_FAILURE);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_SUCCESS);
    ck_assert_status(st[2], SAI_STATUS_ITEM_ALREADY_EXISTS);
    for (int i = 3; i < N; i++) {
        ck_assert_status(st[i], SAI_STATUS_NOT_EXECUTED);
        ck_assert(!fx_route_exists(&entries[i]));
    }
    ck_assert(fx_route_exists(&entries[0]));
    ck_assert(fx_route_exists(&entries[1]));

    /* Remove: entry 3 does not exist. */
    ck_assert_status(fx_route_api->remove_route_entries(
                         N, entries, SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR,
                         st),
                     SAI_STATUS_FAILURE);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_SUCCESS);
    ck_assert_status(st[2], SAI_STATUS_SUCCESS);
    ck_assert_status(st[3], SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(st[4], SAI_STATUS_NOT_EXECUTED);
    ck_assert_status(st[5], SAI_STATUS_NOT_EXECUTED);

    /* All succeed: SUCCESS. */
    ck_assert_status(fx_route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, st),
                     SAI_STATUS_SUCCESS);
    for (int i = 0; i < N; i++) {
        ck_assert_status(st[i], SAI_STATUS_SUCCESS);
    }

    /* Set: an invalid value in the middle. */
    sai_attribute_t set[N];
    for (int i = 0; i < N; i++) {
        set[i] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                          i == 1 ? 99 : SAI_PACKET_ACTION_DROP);
    }
    ck_assert_status(fx_route_api->set_route_entries_attribute(
                         N, entries, set,
                         SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, st),
                     SAI_STATUS_FAILURE);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_INVALID_ATTR_VALUE_0);
    ck_assert_status(st[2], SAI_STATUS_NOT_EXECUTED);

    struct asic_sim_stats stats;
    ck_assert_status(asic_sim_stats_get(fx_sw, &stats), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(stats.bulk_calls[ASIC_SIM_OP_CREATE], 2);
    ck_assert_uint_eq(stats.bulk_objects[ASIC_SIM_OP_CREATE], 2 * N);
    ck_assert_uint_eq(stats.bulk_calls[ASIC_SIM_OP_REMOVE], 1);
    ck_assert_uint_eq(stats.bulk_calls[ASIC_SIM_OP_SET], 1);
    /* 1 single + 3 + 6 bulk creates attempted; 4 removes; 2 sets. */
    ck_assert_uint_eq(stats.route_ops[ASIC_SIM_OP_CREATE], 10);
    ck_assert_uint_eq(stats.route_ops[ASIC_SIM_OP_REMOVE], 4);
    ck_assert_uint_eq(stats.route_ops[ASIC_SIM_OP_SET], 2);
    ck_assert_uint_eq(stats.not_executed, 3 + 2 + 4);
    /* fx_route_exists() gets: 3 of them missed. */
    ck_assert_uint_eq(stats.route_ops[ASIC_SIM_OP_GET], 5);
    ck_assert_uint_eq(stats.errors, 3 + 3);
    ck_assert_uint_eq(stats.errors_by_status[asic_sim_status_slot(
                          SAI_STATUS_ITEM_ALREADY_EXISTS)], 1);
    ck_assert_uint_eq(stats.errors_by_status[asic_sim_status_slot(
                          SAI_STATUS_ITEM_NOT_FOUND)], 1 + 3);
    ck_assert_uint_eq(stats.errors_by_status[ASIC_SIM_STATUS_SLOT_ATTR], 1);
}
END_TEST

START_TEST(test_bulk_ignore_error)
{
    enum { N = 6 };
    sai_route_entry_t entries[N];
    sai_attribute_t attrs[N];
    const sai_attribute_t *lists[N];
    uint32_t counts[N];
    sai_status_t st[N];

    fx_make_bulk(entries, attrs, lists, counts, N);
    ck_assert_status(fx_create_route(&entries[2], fx_nh[0]),
                     SAI_STATUS_SUCCESS);
    attrs[4] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, fx_sw);  /* Bad. */

    ck_assert_status(fx_route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, st),
                     SAI_STATUS_FAILURE);
    for (int i = 0; i < N; i++) {
        sai_status_t expected = (i == 2 ? SAI_STATUS_ITEM_ALREADY_EXISTS
                                 : i == 4 ? SAI_STATUS_INVALID_ATTR_VALUE_0
                                 : SAI_STATUS_SUCCESS);
        ck_assert_status(st[i], expected);
        ck_assert(fx_route_exists(&entries[i]) == (i != 4));
    }

    /* Remove: entry 4 never existed, the rest go. */
    ck_assert_status(fx_route_api->remove_route_entries(
                         N, entries, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
                         st),
                     SAI_STATUS_FAILURE);
    for (int i = 0; i < N; i++) {
        ck_assert_status(st[i], i == 4 ? SAI_STATUS_ITEM_NOT_FOUND
                                       : SAI_STATUS_SUCCESS);
        ck_assert(!fx_route_exists(&entries[i]));
    }

    /* Bulk set and get. */
    attrs[4] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, fx_nh[1]);
    ck_assert_status(fx_route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, st),
                     SAI_STATUS_SUCCESS);
    sai_attribute_t set[N];
    for (int i = 0; i < N; i++) {
        set[i] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID,
                          i == 0 ? fx_vr : fx_nh[2]);
    }
    ck_assert_status(fx_route_api->set_route_entries_attribute(
                         N, entries, set,
                         SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, st),
                     SAI_STATUS_FAILURE);
    ck_assert_status(st[0], SAI_STATUS_INVALID_ATTR_VALUE_0);
    for (int i = 1; i < N; i++) {
        ck_assert_status(st[i], SAI_STATUS_SUCCESS);
    }

    sai_attribute_t got[N];
    sai_attribute_t *got_lists[N];
    for (int i = 0; i < N; i++) {
        got[i] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, 0);
        got_lists[i] = &got[i];
    }
    ck_assert_status(fx_route_api->get_route_entries_attribute(
                         N, entries, counts, got_lists,
                         SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, st),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(got[0].value.oid, fx_nh[0]);
    for (int i = 1; i < N; i++) {
        ck_assert_uint_eq(got[i].value.oid, fx_nh[2]);
    }
}
END_TEST

START_TEST(test_refcounts)
{
    sai_route_entry_t e = fx_route_parse(fx_vr, "203.0.113.0/24");
    sai_object_id_t group, member, nh4;

    /* A next hop used by a route. */
    ck_assert_status(fx_create_route(&e, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nh_api->remove_next_hop(fx_nh[0]),
                     SAI_STATUS_OBJECT_IN_USE);

    /* A next hop used by a group member; a group used by a route and
     * holding members. */
    ck_assert_status(fx_create_group(&group), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_member(&member, group, fx_nh[1], 1),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nh_api->remove_next_hop(fx_nh[1]),
                     SAI_STATUS_OBJECT_IN_USE);
    sai_attribute_t a = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, group);
    ck_assert_status(fx_route_api->set_route_entry_attribute(&e, &a),
                     SAI_STATUS_SUCCESS);

    /* fx_nh[0] lost its only user. */
    ck_assert_status(fx_nh_api->remove_next_hop(fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nh_api->remove_next_hop(fx_nh[0]),
                     SAI_STATUS_INVALID_OBJECT_ID);
    ck_assert_int_eq(sai_object_type_query(fx_nh[0]), SAI_OBJECT_TYPE_NULL);

    ck_assert_status(fx_nhg_api->remove_next_hop_group(group),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(fx_route_api->remove_route_entry(&e), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nhg_api->remove_next_hop_group(group),
                     SAI_STATUS_OBJECT_IN_USE);      /* Still a member. */

    /* Moving the member to another next hop moves the reference. */
    ck_assert_status(fx_create_nh(&nh4, fx_rif, "10.0.0.4"),
                     SAI_STATUS_SUCCESS);
    a = attr_oid(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID, nh4);
    ck_assert_status(fx_nhg_api->set_next_hop_group_member_attribute(
                         member, &a),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nh_api->remove_next_hop(nh4),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(fx_nh_api->remove_next_hop(fx_nh[1]), SAI_STATUS_SUCCESS);

    ck_assert_status(fx_nhg_api->remove_next_hop_group_member(member),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nhg_api->remove_next_hop_group(group),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nh_api->remove_next_hop(nh4), SAI_STATUS_SUCCESS);

    /* A RIF used by a next hop, a neighbor and a connected route. */
    sai_neighbor_entry_t ne;
    memset(&ne, 0, sizeof ne);
    ne.switch_id = fx_sw;
    ne.rif_id = fx_rif;
    ne.ip_address = addr_parse("10.0.0.3");
    sai_attribute_t mac;
    memset(&mac, 0, sizeof mac);
    mac.id = SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS;
    ck_assert_status(fx_neighbor_api->create_neighbor_entry(&ne, 1, &mac),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_neighbor_api->create_neighbor_entry(&ne, 1, &mac),
                     SAI_STATUS_ITEM_ALREADY_EXISTS);
    sai_route_entry_t conn = fx_route_parse(fx_vr, "10.0.0.0/24");
    ck_assert_status(fx_create_route(&conn, fx_rif), SAI_STATUS_SUCCESS);

    ck_assert_status(fx_rif_api->remove_router_interface(fx_rif),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(fx_nh_api->remove_next_hop(fx_nh[2]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_rif_api->remove_router_interface(fx_rif),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(fx_neighbor_api->remove_neighbor_entry(&ne),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_rif_api->remove_router_interface(fx_rif),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(fx_route_api->remove_route_entry(&conn),
                     SAI_STATUS_SUCCESS);

    /* A VR with a RIF, then with a route. */
    ck_assert_status(fx_vr_api->remove_virtual_router(fx_vr),
                     SAI_STATUS_OBJECT_IN_USE);      /* Default VR. */
    sai_object_id_t vr2, rif2;
    ck_assert_status(fx_vr_api->create_virtual_router(&vr2, fx_sw, 0, NULL),
                     SAI_STATUS_SUCCESS);
    sai_attribute_t ra[2];
    ra[0] = attr_oid(SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID, vr2);
    ra[1] = attr_s32(SAI_ROUTER_INTERFACE_ATTR_TYPE,
                     SAI_ROUTER_INTERFACE_TYPE_LOOPBACK);
    ck_assert_status(fx_rif_api->create_router_interface(&rif2, fx_sw, 2, ra),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_vr_api->remove_virtual_router(vr2),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(fx_rif_api->remove_router_interface(rif2),
                     SAI_STATUS_SUCCESS);
    sai_route_entry_t e2 = fx_route_parse(vr2, "2001:db8::/48");
    ck_assert_status(fx_create_route(&e2, SAI_NULL_OBJECT_ID),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_vr_api->remove_virtual_router(vr2),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(fx_route_api->remove_route_entry(&e2),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_vr_api->remove_virtual_router(vr2),
                     SAI_STATUS_SUCCESS);

    /* Now the RIF is free. */
    ck_assert_status(fx_rif_api->remove_router_interface(fx_rif),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_rif_api->remove_router_interface(fx_rif),
                     SAI_STATUS_INVALID_OBJECT_ID);
    ck_assert_status(fx_rif_api->remove_router_interface(fx_vr),
                     SAI_STATUS_INVALID_OBJECT_TYPE);
}
END_TEST

START_TEST(test_capacity_routes)
{
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    sai_route_entry_t e[12];

    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, 0);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].capacity,
                      ASIC_SIM_DEFAULT_IPV4_ROUTES);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP].used, 3);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP].available,
                      ASIC_SIM_DEFAULT_NEXT_HOPS - 3);

    /* IPv4 routes: capacity 10, through the switch attribute. */
    sai_attribute_t a = attr_u32(ASIC_SIM_SWITCH_ATTR_IPV4_ROUTE_CAPACITY,
                                 10);
    ck_assert_status(fx_switch_api->set_switch_attribute(fx_sw, &a),
                     SAI_STATUS_SUCCESS);
    for (int i = 0; i < 12; i++) {
        e[i] = fx_route4(fx_vr, ip4(30, i, 0, 0), 16);
        ck_assert_status(fx_create_route(&e[i], fx_nh[0]),
                         i < 10 ? SAI_STATUS_SUCCESS
                         : SAI_STATUS_INSUFFICIENT_RESOURCES);
    }
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, 10);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].available, 0);
    a.id = SAI_SWITCH_ATTR_AVAILABLE_IPV4_ROUTE_ENTRY;
    ck_assert_status(fx_switch_api->get_switch_attribute(fx_sw, 1, &a),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(a.value.u32, 0);

    /* IPv6 routes are counted apart. */
    sai_route_entry_t e6 = fx_route_parse(fx_vr, "2001:db8:1::/48");
    ck_assert_status(fx_create_route(&e6, fx_nh[0]), SAI_STATUS_SUCCESS);
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_ROUTE].used, 1);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_ROUTE].available,
                      ASIC_SIM_DEFAULT_IPV6_ROUTES - 1);

    /* After a removal, creation succeeds again. */
    ck_assert_status(fx_route_api->remove_route_entry(&e[3]),
                     SAI_STATUS_SUCCESS);
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, 9);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].available, 1);
    ck_assert_status(fx_create_route(&e[10], fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&e[11], fx_nh[0]),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);

    /* Lowering below the use is allowed: nothing can be created until
     * the use drops below it. */
    ck_assert_status(asic_sim_set_capacity(fx_sw, ASIC_SIM_RES_IPV4_ROUTE, 8),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_route_api->remove_route_entry(&e[0]),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&e[0], fx_nh[0]),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    ck_assert_status(asic_sim_set_capacity(fx_sw, ASIC_SIM_RES_IPV4_ROUTE,
                                           ASIC_SIM_MAX_ROUTES + 1),
                     SAI_STATUS_INVALID_PARAMETER);

    /* Removing routes gives the counts back, to zero. */
    for (int i = 1; i < 11; i++) {
        if (i != 3) {
            ck_assert_status(fx_route_api->remove_route_entry(&e[i]),
                             SAI_STATUS_SUCCESS);
        }
    }
    ck_assert_status(fx_route_api->remove_route_entry(&e6),
                     SAI_STATUS_SUCCESS);
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, 0);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].available, 8);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_ROUTE].used, 0);
    ck_assert_str_eq(asic_sim_resource_name(ASIC_SIM_RES_IPV4_ROUTE),
                     "ipv4_route");
}
END_TEST

START_TEST(test_capacity_next_hops)
{
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    sai_attribute_t a;

    memset(&a, 0, sizeof a);

    /* Next hops, groups and members. */
    sai_object_id_t nh4, g[3], m[3];
    ck_assert_status(asic_sim_set_capacity(fx_sw, ASIC_SIM_RES_NEXT_HOP, 3),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_nh(&nh4, fx_rif, "10.0.0.4"),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    ck_assert_status(asic_sim_set_capacity(fx_sw,
                                           ASIC_SIM_RES_NEXT_HOP_GROUP, 2),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_group(&g[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_group(&g[1]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_group(&g[2]),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    a.id = SAI_SWITCH_ATTR_AVAILABLE_NEXT_HOP_GROUP_ENTRY;
    ck_assert_status(fx_switch_api->get_switch_attribute(fx_sw, 1, &a),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(a.value.u32, 0);
    ck_assert_status(asic_sim_set_capacity(
                         fx_sw, ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER, 2),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_member(&m[0], g[0], fx_nh[0], 1),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_member(&m[1], g[0], fx_nh[1], 1),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_member(&m[2], g[0], fx_nh[2], 1),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP_GROUP].used, 2);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER].used, 2);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER].available, 0);

    ck_assert_status(fx_nhg_api->remove_next_hop_group_member(m[1]),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_member(&m[2], g[0], fx_nh[2], 1),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nhg_api->remove_next_hop_group(g[1]),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_group(&g[2]), SAI_STATUS_SUCCESS);
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP_GROUP].used, 2);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER].used, 2);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP].used, 3);
}
END_TEST

START_TEST(test_capacity_neighbors)
{
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];

    /* Neighbors, counted by family. */
    sai_neighbor_entry_t ne[3];
    sai_attribute_t mac;
    static const char *const nb_ips[3] = { "10.0.0.1", "10.0.0.2",
                                           "fe80::1" };
    memset(&mac, 0, sizeof mac);
    mac.id = SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS;
    for (int i = 0; i < 3; i++) {
        memset(&ne[i], 0, sizeof ne[i]);
        ne[i].switch_id = fx_sw;
        ne[i].rif_id = fx_rif;
        ne[i].ip_address = addr_parse(nb_ips[i]);
    }
    ck_assert_status(asic_sim_set_capacity(fx_sw, ASIC_SIM_RES_IPV4_NEIGHBOR,
                                           1), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_neighbor_api->create_neighbor_entry(&ne[0], 1, &mac),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_neighbor_api->create_neighbor_entry(&ne[1], 1, &mac),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    ck_assert_status(fx_neighbor_api->create_neighbor_entry(&ne[2], 1, &mac),
                     SAI_STATUS_SUCCESS);
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_NEIGHBOR].used, 1);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_NEIGHBOR].available, 0);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_NEIGHBOR].used, 1);
    ck_assert_status(fx_neighbor_api->remove_neighbor_entry(&ne[0]),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_neighbor_api->remove_neighbor_entry(&ne[2]),
                     SAI_STATUS_SUCCESS);
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_NEIGHBOR].used, 0);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_NEIGHBOR].available, 1);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_NEIGHBOR].used, 0);
}
END_TEST

START_TEST(test_switches_and_ids)
{
    sai_object_id_t sw2, nh_other;

    /* Objects of one switch cannot be used on another. */
    ck_assert_status(fx_switch_api->create_switch(&sw2, 0, NULL),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_ne(sw2, fx_sw);
    sai_route_entry_t e = fx_route_parse(fx_vr, "10.9.0.0/16");
    e.switch_id = sw2;
    ck_assert_status(fx_create_route(&e, fx_nh[0]),
                     SAI_STATUS_INVALID_PARAMETER);
    ck_assert_uint_eq(sai_switch_id_query(fx_nh[0]), fx_sw);
    ck_assert_int_eq(sai_object_type_query(fx_nh[0]),
                     SAI_OBJECT_TYPE_NEXT_HOP);

    /* A stale id (removed, slot reused) is rejected. */
    ck_assert_status(fx_nh_api->remove_next_hop(fx_nh[2]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_nh(&nh_other, fx_rif, "10.0.0.9"),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_ne(nh_other, fx_nh[2]);
    e.switch_id = fx_sw;
    ck_assert_status(fx_create_route(&e, fx_nh[2]),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);
    ck_assert_status(fx_create_route(&e, nh_other), SAI_STATUS_SUCCESS);

    /* Mandatory attributes. */
    sai_object_id_t id;
    ck_assert_status(fx_nh_api->create_next_hop(&id, fx_sw, 0, NULL),
                     SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING);
    ck_assert_status(fx_nhg_api->create_next_hop_group(&id, fx_sw, 0, NULL),
                     SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING);

    /* Removing a switch removes everything on it. */
    ck_assert_status(fx_switch_api->remove_switch(sw2), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_switch_api->remove_switch(sw2),
                     SAI_STATUS_INVALID_OBJECT_ID);
    ck_assert_status(fx_switch_api->remove_switch(fx_sw), SAI_STATUS_SUCCESS);
    ck_assert_int_eq(sai_object_type_query(nh_other), SAI_OBJECT_TYPE_NULL);
    ck_assert_status(fx_create_route(&e, nh_other),
                     SAI_STATUS_INVALID_PARAMETER);
}
END_TEST

/* asic_sim_stats.routes_recreated counts a route removed and created again
 * (same VR and prefix, either family), never a set, a create of a new
 * prefix or the same prefix in another VR, and a removal made before
 * asic_sim_stats_clear() does not count. */
START_TEST(test_routes_recreated)
{
    sai_route_entry_t a = fx_route_parse(fx_vr, "192.0.2.0/24");
    sai_route_entry_t a25 = fx_route_parse(fx_vr, "192.0.2.0/25");
    sai_route_entry_t b = fx_route_parse(fx_vr, "2001:db8::/32");
    struct asic_sim_stats st;
    sai_attribute_t attr;
    sai_object_id_t vr2;

    ck_assert_status(fx_vr_api->create_virtual_router(&vr2, fx_sw, 0, NULL),
                     SAI_STATUS_SUCCESS);
    sai_route_entry_t a2 = fx_route_parse(vr2, "192.0.2.0/24");

    ck_assert_status(fx_create_route(&a, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&b, fx_nh[0]), SAI_STATUS_SUCCESS);
    attr = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, fx_nh[1]);
    ck_assert_status(fx_route_api->set_route_entry_attribute(&a, &attr),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_stats_get(fx_sw, &st), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(st.routes_recreated, 0);

    /* Removed, then another length and another VR: no churn. */
    ck_assert_status(fx_route_api->remove_route_entry(&a), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&a25, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&a2, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_stats_get(fx_sw, &st), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(st.routes_recreated, 0);

    /* The same one back, and an IPv6 one: two. */
    ck_assert_status(fx_create_route(&a, fx_nh[2]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_route_api->remove_route_entry(&b), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&b, fx_nh[2]), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_stats_get(fx_sw, &st), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(st.routes_recreated, 2);

    /* A create that fails (it exists) counts nothing; a second round of the
     * same route counts again. */
    ck_assert_status(fx_create_route(&a, fx_nh[2]),
                     SAI_STATUS_ITEM_ALREADY_EXISTS);
    ck_assert_status(fx_route_api->remove_route_entry(&a), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&a, fx_nh[2]), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_stats_get(fx_sw, &st), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(st.routes_recreated, 3);

    /* Bulk removes and creates count the same way. */
    sai_route_entry_t both[2] = { a, b };
    sai_status_t statuses[2];
    ck_assert_status(fx_route_api->remove_route_entries(
                         2, both, SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR,
                         statuses), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&a, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&b, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_stats_get(fx_sw, &st), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(st.routes_recreated, 5);

    /* A removal before the counters were cleared is forgotten. */
    ck_assert_status(fx_route_api->remove_route_entry(&a), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_stats_clear(fx_sw), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&a, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_stats_get(fx_sw, &st), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(st.routes_recreated, 0);
}
END_TEST


Suite *
asic_sim_suite(void)
{
    Suite *s = suite_create("asic_sim");
    TCase *tc = tcase_create("asic_sim");

    tcase_add_checked_fixture(tc, fx_setup, fx_teardown);
    tcase_add_test(tc, test_basic_route);
    tcase_add_test(tc, test_routes_recreated);
    tcase_add_test(tc, test_bulk_stop_on_error);
    tcase_add_test(tc, test_bulk_ignore_error);
    tcase_add_test(tc, test_refcounts);
    tcase_add_test(tc, test_capacity_routes);
    tcase_add_test(tc, test_capacity_next_hops);
    tcase_add_test(tc, test_capacity_neighbors);
    tcase_add_test(tc, test_switches_and_ids);
    suite_add_tcase(s, tc);
    return s;
}
