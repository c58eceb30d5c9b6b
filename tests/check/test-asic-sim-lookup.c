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

/* Check suite "asic_sim_lookup": lookups in the SAI simulator
 * (asic-sim/asic-sim-lookup.c) with their hit counters and ECMP next
 * hops, route walks, object counts and memory use. */

#include <config.h>

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "asic-sim/asic-sim.h"
#include "openvswitch/util.h"
#include "tests/check/asic-sim-fixture.h"
#include "tests/check/suites.h"
#include "util.h"

START_TEST(test_hit_counters)
{
    sai_route_entry_t e8 = fx_route_parse(fx_vr, "10.0.0.0/8");
    sai_route_entry_t e24 = fx_route_parse(fx_vr, "10.1.2.0/24");
    sai_route_entry_t e32 = fx_route_parse(fx_vr, "10.1.2.3/32");
    struct asic_sim_route r;

    ck_assert_status(fx_create_route(&e8, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&e24, fx_nh[1]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&e32, fx_nh[2]), SAI_STATUS_SUCCESS);

    sai_ip_address_t a = addr_parse("10.1.2.3");
    for (int i = 0; i < 5; i++) {
        ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, NULL, NULL),
                         SAI_STATUS_SUCCESS);
    }
    ck_assert_uint_eq(r.hits, 5);
    ck_assert_uint_eq(r.next_hop_id, fx_nh[2]);
    ck_assert(!memcmp(&r.entry.destination, &e32.destination,
                      sizeof r.entry.destination));
    a = addr_parse("10.1.2.4");
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, NULL, NULL),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(r.next_hop_id, fx_nh[1]);
    a = addr_parse("10.200.0.1");
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, NULL, NULL),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(r.next_hop_id, fx_nh[0]);
    a = addr_parse("11.0.0.1");
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, NULL, NULL),
                     SAI_STATUS_ITEM_NOT_FOUND);

    ck_assert_uint_eq(fx_route_hits(&e32), 5);
    ck_assert_uint_eq(fx_route_hits(&e24), 1);
    ck_assert_uint_eq(fx_route_hits(&e8), 1);

    /* Bulk lookups count too. */
    sai_ip_address_t addrs[4] = {
        addr_parse("10.1.2.3"), addr_parse("10.1.2.9"),
        addr_parse("12.0.0.1"), addr_parse("2001:db8::1"),
    };
    struct asic_sim_route routes[4];
    sai_status_t st[4];
    ck_assert_status(asic_sim_lookup_bulk(fx_vr, 4, addrs, routes, st),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_SUCCESS);
    ck_assert_status(st[2], SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(st[3], SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_uint_eq(routes[0].hits, 6);
    ck_assert_uint_eq(routes[1].next_hop_id, fx_nh[1]);
    ck_assert_uint_eq(fx_route_hits(&e24), 2);

    /* Clearing. */
    sai_attribute_t clr;
    memset(&clr, 0, sizeof clr);
    clr.id = ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT;
    ck_assert_status(fx_route_api->set_route_entry_attribute(&e32, &clr),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(fx_route_hits(&e32), 0);
    clr.value.u64 = 3;
    ck_assert_status(fx_route_api->set_route_entry_attribute(&e32, &clr),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);

    /* VR admin state down: lookups of that family miss. */
    sai_attribute_t down;
    memset(&down, 0, sizeof down);
    down.id = SAI_VIRTUAL_ROUTER_ATTR_ADMIN_V4_STATE;
    ck_assert_status(fx_vr_api->set_virtual_router_attribute(fx_vr, &down),
                     SAI_STATUS_SUCCESS);
    a = addr_parse("10.1.2.3");
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, NULL, NULL),
                     SAI_STATUS_ITEM_NOT_FOUND);

    struct asic_sim_stats stats;
    ck_assert_status(asic_sim_stats_get(fx_sw, &stats), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(stats.lookups, 8 + 4 + 1);
    ck_assert_uint_eq(stats.lookup_misses, 1 + 2 + 1);
}
END_TEST

START_TEST(test_ecmp_lookup)
{
    sai_object_id_t group, m[3];
    sai_route_entry_t e = fx_route_parse(fx_vr, "0.0.0.0/0");
    sai_route_entry_t e6 = fx_route_parse(fx_vr, "::/0");
    struct asic_sim_nexthop nhs[4];
    struct asic_sim_route r;
    uint32_t n;

    ck_assert_status(fx_create_group(&group), SAI_STATUS_SUCCESS);
    for (int i = 0; i < 3; i++) {
        ck_assert_status(fx_create_member(&m[i], group, fx_nh[i], i + 1),
                         SAI_STATUS_SUCCESS);
    }
    ck_assert_status(fx_create_route(&e, group), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&e6, group), SAI_STATUS_SUCCESS);

    /* Neighbor for 10.0.0.2 only. */
    sai_neighbor_entry_t ne;
    memset(&ne, 0, sizeof ne);
    ne.switch_id = fx_sw;
    ne.rif_id = fx_rif;
    ne.ip_address = addr_parse("10.0.0.2");
    sai_attribute_t mac;
    memset(&mac, 0, sizeof mac);
    mac.id = SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS;
    memcpy(mac.value.mac, "\x00\x11\x22\x33\x44\x55", 6);
    ck_assert_status(fx_neighbor_api->create_neighbor_entry(&ne, 1, &mac),
                     SAI_STATUS_SUCCESS);

    sai_ip_address_t a = addr_parse("8.8.8.8");
    n = 2;
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, nhs, &n),
                     SAI_STATUS_BUFFER_OVERFLOW);
    ck_assert_uint_eq(n, 3);
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(r.hits, 1);      /* The overflow did not count. */
    ck_assert_uint_eq(r.next_hop_id, group);
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(nhs[i].next_hop_id, fx_nh[i]);
        ck_assert_uint_eq(nhs[i].member_id, m[i]);
        ck_assert_uint_eq(nhs[i].weight, i + 1);
        ck_assert_uint_eq(nhs[i].rif_id, fx_rif);
        ck_assert_uint_eq(nhs[i].port_id, fx_port0);
        ck_assert(nhs[i].neighbor_resolved == (i == 1));
    }
    ck_assert(!memcmp(nhs[1].mac, "\x00\x11\x22\x33\x44\x55", 6));

    /* Weighted selection: flows spread 1:2:3. */
    uint32_t hist[3] = { 0, 0, 0 };
    for (uint32_t h = 0; h < 6000; h++) {
        uint32_t k = asic_sim_ecmp_select(nhs, n, h * 2654435761u);
        ck_assert_uint_lt(k, 3);
        hist[k]++;
    }
    ck_assert_uint_eq(hist[0] + hist[1] + hist[2], 6000);
    ck_assert_msg(hist[0] > 800 && hist[0] < 1200, "%u", hist[0]);
    ck_assert_msg(hist[1] > 1800 && hist[1] < 2200, "%u", hist[1]);
    ck_assert_msg(hist[2] > 2800 && hist[2] < 3200, "%u", hist[2]);
    ck_assert_uint_eq(asic_sim_ecmp_select(nhs, 0, 7), UINT32_MAX);

    /* Reweighting and removing a member show in the next lookup. */
    sai_attribute_t w = attr_u32(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT, 10);
    ck_assert_status(fx_nhg_api->set_next_hop_group_member_attribute(m[0], &w),
                     SAI_STATUS_SUCCESS);
    w.value.u32 = 0;
    ck_assert_status(fx_nhg_api->set_next_hop_group_member_attribute(m[0], &w),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);
    ck_assert_status(fx_nhg_api->remove_next_hop_group_member(m[1]),
                     SAI_STATUS_SUCCESS);
    a = addr_parse("2001:db8::42");
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(nhs[0].weight, 10);
    ck_assert_uint_eq(nhs[1].next_hop_id, fx_nh[2]);
    ck_assert_int_eq(r.entry.destination.addr_family,
                     SAI_IP_ADDR_FAMILY_IPV6);

    /* Group attributes. */
    sai_object_id_t list[4];
    sai_attribute_t ga[2];
    memset(ga, 0, sizeof ga);
    ga[0].id = SAI_NEXT_HOP_GROUP_ATTR_NEXT_HOP_COUNT;
    ga[1].id = SAI_NEXT_HOP_GROUP_ATTR_NEXT_HOP_MEMBER_LIST;
    ga[1].value.objlist.count = 1;
    ga[1].value.objlist.list = list;
    ck_assert_status(fx_nhg_api->get_next_hop_group_attribute(group, 2, ga),
                     SAI_STATUS_BUFFER_OVERFLOW);
    ck_assert_uint_eq(ga[1].value.objlist.count, 2);
    ga[1].value.objlist.count = 4;
    ck_assert_status(fx_nhg_api->get_next_hop_group_attribute(group, 2, ga),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(ga[0].value.u32, 2);
    ck_assert_uint_eq(list[0], m[0]);
    ck_assert_uint_eq(list[1], m[2]);

    /* A dropping route resolves to nothing; a connected route to the
     * destination itself; an IP2ME route to the CPU port. */
    sai_route_entry_t drop = fx_route_parse(fx_vr, "192.0.2.0/24");
    sai_attribute_t da = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                                  SAI_PACKET_ACTION_DROP);
    ck_assert_status(fx_route_api->create_route_entry(&drop, 1, &da),
                     SAI_STATUS_SUCCESS);
    a = addr_parse("192.0.2.1");
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(r.action, SAI_PACKET_ACTION_DROP);

    sai_route_entry_t conn = fx_route_parse(fx_vr, "10.0.0.0/24");
    ck_assert_status(fx_create_route(&conn, fx_rif), SAI_STATUS_SUCCESS);
    a = addr_parse("10.0.0.2");
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(nhs[0].next_hop_id, SAI_NULL_OBJECT_ID);
    ck_assert_uint_eq(nhs[0].rif_id, fx_rif);
    ck_assert(nhs[0].neighbor_resolved);

    sai_object_id_t cpu;
    sai_attribute_t ca;
    memset(&ca, 0, sizeof ca);
    ca.id = SAI_SWITCH_ATTR_CPU_PORT;
    ck_assert_status(fx_switch_api->get_switch_attribute(fx_sw, 1, &ca),
                     SAI_STATUS_SUCCESS);
    cpu = ca.value.oid;
    sai_route_entry_t me = fx_route_parse(fx_vr, "10.0.0.254/32");
    ck_assert_status(fx_create_route(&me, cpu), SAI_STATUS_SUCCESS);
    a = addr_parse("10.0.0.254");
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(fx_vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(nhs[0].port_id, cpu);
    ck_assert_uint_eq(nhs[0].rif_id, SAI_NULL_OBJECT_ID);
    sai_route_entry_t bad = fx_route_parse(fx_vr, "10.0.0.253/32");
    ck_assert_status(fx_create_route(&bad, fx_port0),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);
}
END_TEST

/* Collects a route walk as text lines. */
struct walk_out {
    char lines[16][96];         /* "PREFIX ACTION NH HITS". */
    int n;                      /* Lines used. */
};

static void
walk_collect(const struct asic_sim_route *r, void *out_)
{
    struct walk_out *out = out_;
    char p[SAI_IP_PREFIX_STRLEN];

    ck_assert_int_lt(out->n, 16);
    snprintf(out->lines[out->n++], sizeof out->lines[0], "%s %s %d %"PRIu64,
             sai_util_ip_prefix_format(&r->entry.destination, p),
             sai_util_packet_action_name(r->action),
             (r->next_hop_id == fx_nh[0] ? 0
              : r->next_hop_id == fx_nh[1] ? 1 : -1),
             r->hits);
}

START_TEST(test_walk)
{
    static const char *const prefixes[] = {
        "2001:db8::/48", "10.1.0.0/16", "10.0.0.0/8", "2001:db8::/32",
        "192.168.1.128/25", "10.1.0.0/24",
    };
    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        sai_route_entry_t e = fx_route_parse(fx_vr, prefixes[i]);
        ck_assert_status(fx_create_route(&e, fx_nh[i % 2]),
                         SAI_STATUS_SUCCESS);
    }
    sai_ip_address_t a = addr_parse("10.1.0.1");
    ck_assert_status(asic_sim_lookup(fx_vr, &a, NULL, NULL, NULL),
                     SAI_STATUS_SUCCESS);

    struct walk_out out;
    out.n = 0;
    ck_assert_status(asic_sim_route_walk(fx_vr, walk_collect, &out),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(out.n, 6);
    ck_assert_str_eq(out.lines[0], "10.0.0.0/8 FORWARD 0 0");
    ck_assert_str_eq(out.lines[1], "10.1.0.0/16 FORWARD 1 0");
    ck_assert_str_eq(out.lines[2], "10.1.0.0/24 FORWARD 1 1");
    ck_assert_str_eq(out.lines[3], "192.168.1.128/25 FORWARD 0 0");
    ck_assert_str_eq(out.lines[4], "2001:db8::/32 FORWARD 1 0");
    ck_assert_str_eq(out.lines[5], "2001:db8::/48 FORWARD 0 0");

    uint32_t count;
    ck_assert_status(asic_sim_get_object_count(fx_sw, SAI_OBJECT_TYPE_NEXT_HOP,
                                               &count), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(count, 3);
    ck_assert_status(asic_sim_get_object_count(
                         fx_sw, SAI_OBJECT_TYPE_ROUTE_ENTRY, &count),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(count, 6);
    sai_object_id_t ids[2];
    sai_object_list_t list = { 2, ids };
    ck_assert_status(asic_sim_get_object_list(fx_sw, SAI_OBJECT_TYPE_NEXT_HOP,
                                              &list),
                     SAI_STATUS_BUFFER_OVERFLOW);
    ck_assert_uint_eq(list.count, 3);

    struct asic_sim_memory mem;
    ck_assert_status(asic_sim_memory_get(fx_sw, &mem), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(mem.lpm4_fixed_bytes, 64u << 20);
    ck_assert_uint_gt(mem.route_bytes, 0);
    ck_assert_uint_gt(mem.lpm6_bytes, 0);
}
END_TEST

Suite *
asic_sim_lookup_suite(void)
{
    Suite *s = suite_create("asic_sim_lookup");
    TCase *tc = tcase_create("asic_sim_lookup");

    tcase_add_checked_fixture(tc, fx_setup, fx_teardown);
    tcase_add_test(tc, test_hit_counters);
    tcase_add_test(tc, test_ecmp_lookup);
    tcase_add_test(tc, test_walk);
    suite_add_tcase(s, tc);
    return s;
}
