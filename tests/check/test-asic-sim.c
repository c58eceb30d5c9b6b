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

/* Check suite "asic_sim": the SAI simulator (asic-sim/asic-sim.c) through
 * its SAI method tables and its extensions: bulk semantics in both error
 * modes, reference counts, capacities, CRM counters, fault injection, hit
 * counters, ECMP lookups, dumps and statistics. */

#include <config.h>

#include <arpa/inet.h>
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/sai-util.h"
#include "openvswitch/util.h"
#include "util.h"

Suite *asic_sim_suite(void);

/* The fixture: an initialized library, one switch, its default VR, one
 * port RIF on it and three next hops on that RIF. */
static sai_switch_api_t *switch_api;
static sai_virtual_router_api_t *vr_api;
static sai_router_interface_api_t *rif_api;
static sai_neighbor_api_t *neighbor_api;
static sai_next_hop_api_t *nh_api;
static sai_next_hop_group_api_t *nhg_api;
static sai_route_api_t *route_api;

static sai_object_id_t sw;      /* The switch. */
static sai_object_id_t vr;      /* Its default VR. */
static sai_object_id_t port0;   /* Its first front-panel port. */
static sai_object_id_t rif;     /* A port RIF on 'port0' in 'vr'. */
static sai_object_id_t nh[3];   /* Next hops 10.0.0.1...3 on 'rif'. */

#define ck_assert_status(X, Y)                                          \
    do {                                                                \
        sai_status_t x_ = (X);                                          \
        sai_status_t y_ = (Y);                                          \
        ck_assert_msg(x_ == y_, "%s is %s (%d), expected %s (%d)", #X,  \
                      sai_util_status_name(x_), (int) x_,                    \
                      sai_util_status_name(y_), (int) y_);                   \
    } while (0)

static uint32_t
ip4(unsigned int a, unsigned int b, unsigned int c, unsigned int d)
{
    return (uint32_t) a << 24 | b << 16 | c << 8 | d;
}

static sai_route_entry_t
route4(sai_object_id_t vr_id, uint32_t addr, unsigned int plen)
{
    sai_route_entry_t e;

    memset(&e, 0, sizeof e);
    e.switch_id = sw;
    e.vr_id = vr_id;
    sai_util_ip_prefix_init4(&e.destination, addr, plen);
    return e;
}

static sai_route_entry_t
route_parse(sai_object_id_t vr_id, const char *s)
{
    sai_route_entry_t e;

    memset(&e, 0, sizeof e);
    e.switch_id = sw;
    e.vr_id = vr_id;
    ck_assert(sai_util_ip_prefix_parse(s, &e.destination));
    return e;
}

static sai_ip_address_t
addr_parse(const char *s)
{
    sai_ip_address_t a;

    ck_assert(sai_util_ip_address_parse(s, &a));
    return a;
}

static sai_attribute_t
attr_oid(sai_attr_id_t id, sai_object_id_t oid)
{
    sai_attribute_t a;

    memset(&a, 0, sizeof a);
    a.id = id;
    a.value.oid = oid;
    return a;
}

static sai_attribute_t
attr_s32(sai_attr_id_t id, int32_t v)
{
    sai_attribute_t a;

    memset(&a, 0, sizeof a);
    a.id = id;
    a.value.s32 = v;
    return a;
}

static sai_attribute_t
attr_u32(sai_attr_id_t id, uint32_t v)
{
    sai_attribute_t a;

    memset(&a, 0, sizeof a);
    a.id = id;
    a.value.u32 = v;
    return a;
}

static sai_status_t
create_nh(sai_object_id_t *id, sai_object_id_t rif_id, const char *ip)
{
    sai_attribute_t attrs[3];

    attrs[0] = attr_s32(SAI_NEXT_HOP_ATTR_TYPE, SAI_NEXT_HOP_TYPE_IP);
    memset(&attrs[1], 0, sizeof attrs[1]);
    attrs[1].id = SAI_NEXT_HOP_ATTR_IP;
    attrs[1].value.ipaddr = addr_parse(ip);
    attrs[2] = attr_oid(SAI_NEXT_HOP_ATTR_ROUTER_INTERFACE_ID, rif_id);
    return nh_api->create_next_hop(id, sw, 3, attrs);
}

static sai_status_t
create_group(sai_object_id_t *id)
{
    sai_attribute_t a = attr_s32(SAI_NEXT_HOP_GROUP_ATTR_TYPE,
                                 SAI_NEXT_HOP_GROUP_TYPE_ECMP);

    return nhg_api->create_next_hop_group(id, sw, 1, &a);
}

static sai_status_t
create_member(sai_object_id_t *id, sai_object_id_t group,
              sai_object_id_t nh_id, uint32_t weight)
{
    sai_attribute_t attrs[3];

    attrs[0] = attr_oid(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_GROUP_ID,
                        group);
    attrs[1] = attr_oid(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID, nh_id);
    attrs[2] = attr_u32(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT, weight);
    return nhg_api->create_next_hop_group_member(id, sw, 3, attrs);
}

/* Creates route 'e' pointing to 'nh_id' (forwarding). */
static sai_status_t
create_route(const sai_route_entry_t *e, sai_object_id_t nh_id)
{
    sai_attribute_t a = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, nh_id);

    return route_api->create_route_entry(e, 1, &a);
}

static bool
route_exists(const sai_route_entry_t *e)
{
    sai_attribute_t a = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION, 0);

    return route_api->get_route_entry_attribute(e, 1, &a)
           == SAI_STATUS_SUCCESS;
}

static uint64_t
route_hits(const sai_route_entry_t *e)
{
    sai_attribute_t a;

    memset(&a, 0, sizeof a);
    a.id = ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT;
    ck_assert_status(route_api->get_route_entry_attribute(e, 1, &a),
                     SAI_STATUS_SUCCESS);
    return a.value.u64;
}

static void
crm_get(struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES])
{
    ck_assert_status(asic_sim_crm_get(sw, crm), SAI_STATUS_SUCCESS);
}

static void
setup(void)
{
    sai_attribute_t attrs[4];

    ck_assert_status(sai_api_initialize(0, NULL), SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_SWITCH, (void **) &switch_api),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_VIRTUAL_ROUTER,
                                   (void **) &vr_api), SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_ROUTER_INTERFACE,
                                   (void **) &rif_api), SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_NEIGHBOR,
                                   (void **) &neighbor_api),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_NEXT_HOP, (void **) &nh_api),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_NEXT_HOP_GROUP,
                                   (void **) &nhg_api), SAI_STATUS_SUCCESS);
    ck_assert_status(sai_api_query(SAI_API_ROUTE, (void **) &route_api),
                     SAI_STATUS_SUCCESS);

    memset(attrs, 0, sizeof attrs);
    attrs[0].id = SAI_SWITCH_ATTR_INIT_SWITCH;
    attrs[0].value.booldata = true;
    attrs[1] = attr_u32(ASIC_SIM_SWITCH_ATTR_PORT_NUMBER, 4);
    ck_assert_status(switch_api->create_switch(&sw, 2, attrs),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(sai_object_type_query(sw), SAI_OBJECT_TYPE_SWITCH);

    sai_object_id_t ports[8];
    attrs[0].id = SAI_SWITCH_ATTR_DEFAULT_VIRTUAL_ROUTER_ID;
    attrs[1].id = SAI_SWITCH_ATTR_PORT_LIST;
    attrs[1].value.objlist.count = ARRAY_SIZE(ports);
    attrs[1].value.objlist.list = ports;
    ck_assert_status(switch_api->get_switch_attribute(sw, 2, attrs),
                     SAI_STATUS_SUCCESS);
    vr = attrs[0].value.oid;
    ck_assert_uint_eq(attrs[1].value.objlist.count, 4);
    port0 = ports[0];

    attrs[0] = attr_oid(SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID, vr);
    attrs[1] = attr_s32(SAI_ROUTER_INTERFACE_ATTR_TYPE,
                        SAI_ROUTER_INTERFACE_TYPE_PORT);
    attrs[2] = attr_oid(SAI_ROUTER_INTERFACE_ATTR_PORT_ID, port0);
    ck_assert_status(rif_api->create_router_interface(&rif, sw, 3, attrs),
                     SAI_STATUS_SUCCESS);

    ck_assert_status(create_nh(&nh[0], rif, "10.0.0.1"), SAI_STATUS_SUCCESS);
    ck_assert_status(create_nh(&nh[1], rif, "10.0.0.2"), SAI_STATUS_SUCCESS);
    ck_assert_status(create_nh(&nh[2], rif, "10.0.0.3"), SAI_STATUS_SUCCESS);
}

static void
teardown(void)
{
    ck_assert_status(sai_api_uninitialize(), SAI_STATUS_SUCCESS);
}

START_TEST(test_basic_route)
{
    sai_route_entry_t e = route_parse(vr, "192.0.2.0/24");
    sai_attribute_t attrs[3];

    ck_assert_status(create_route(&e, nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&e, nh[1]),
                     SAI_STATUS_ITEM_ALREADY_EXISTS);

    attrs[0] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION, -1);
    attrs[1] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, 0);
    attrs[2] = attr_s32(SAI_ROUTE_ENTRY_ATTR_IP_ADDR_FAMILY, 0);
    ck_assert_status(route_api->get_route_entry_attribute(&e, 3, attrs),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(attrs[0].value.s32, SAI_PACKET_ACTION_FORWARD);
    ck_assert_uint_eq(attrs[1].value.oid, nh[0]);
    ck_assert_int_eq(attrs[2].value.s32, SAI_IP_ADDR_FAMILY_IPV4);

    /* Set: next hop, then action. */
    attrs[0] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, nh[2]);
    ck_assert_status(route_api->set_route_entry_attribute(&e, &attrs[0]),
                     SAI_STATUS_SUCCESS);
    attrs[0] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                        SAI_PACKET_ACTION_DROP);
    ck_assert_status(route_api->set_route_entry_attribute(&e, &attrs[0]),
                     SAI_STATUS_SUCCESS);
    attrs[0].id = SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION;
    attrs[1].id = SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID;
    ck_assert_status(route_api->get_route_entry_attribute(&e, 2, attrs),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(attrs[0].value.s32, SAI_PACKET_ACTION_DROP);
    ck_assert_uint_eq(attrs[1].value.oid, nh[2]);

    /* Invalid keys and attributes. */
    sai_route_entry_t bad = e;
    bad.destination.addr.ip4 |= htonl(1);        /* Host bit set. */
    ck_assert_status(create_route(&bad, nh[0]),
                     SAI_STATUS_INVALID_PARAMETER);
    bad = e;
    bad.vr_id = nh[0];
    ck_assert_status(create_route(&bad, nh[0]),
                     SAI_STATUS_INVALID_PARAMETER);
    bad = route_parse(vr, "198.51.100.0/24");
    ck_assert_status(create_route(&bad, vr),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);
    attrs[0] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                        SAI_PACKET_ACTION_FORWARD);
    attrs[1] = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                        SAI_PACKET_ACTION_FORWARD);
    ck_assert_status(route_api->create_route_entry(&bad, 2, attrs),
                     SAI_STATUS_ATTR_INDEX(SAI_STATUS_INVALID_ATTRIBUTE_0,
                                           1));
    attrs[1] = attr_u32(SAI_ROUTE_ENTRY_ATTR_END + 7, 0);
    ck_assert_status(route_api->create_route_entry(&bad, 2, attrs),
                     SAI_STATUS_ATTR_INDEX(SAI_STATUS_UNKNOWN_ATTRIBUTE_0,
                                           1));
    ck_assert(!route_exists(&bad));

    /* Remove. */
    ck_assert_status(route_api->remove_route_entry(&e), SAI_STATUS_SUCCESS);
    ck_assert_status(route_api->remove_route_entry(&e),
                     SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(route_api->set_route_entry_attribute(&e, &attrs[0]),
                     SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert(!route_exists(&e));

    /* IPv6. */
    sai_route_entry_t e6 = route_parse(vr, "2001:db8::/32");
    ck_assert_status(create_route(&e6, nh[1]), SAI_STATUS_SUCCESS);
    ck_assert(route_exists(&e6));
    uint32_t n4, n6;
    ck_assert_status(asic_sim_route_count(vr, &n4, &n6), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n4, 0);
    ck_assert_uint_eq(n6, 1);
}
END_TEST

/* Fills 'entries' with 'n' /24s 10.<i>.0.0 ... and 'attrs' with a next
 * hop each. */
static void
make_bulk(sai_route_entry_t *entries, sai_attribute_t *attrs,
          const sai_attribute_t **attr_lists, uint32_t *attr_counts,
          uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        entries[i] = route4(vr, ip4(20, i, 0, 0), 24);
        attrs[i] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, nh[i % 3]);
        attr_lists[i] = &attrs[i];
        attr_counts[i] = 1;
    }
}

START_TEST(test_bulk_stop_on_error)
{
    enum { N = 6 };
    sai_route_entry_t entries[N];
    sai_attribute_t attrs[N];
    const sai_attribute_t *lists[N];
    uint32_t counts[N];
    sai_status_t st[N];

    make_bulk(entries, attrs, lists, counts, N);
    ck_assert_status(create_route(&entries[2], nh[0]), SAI_STATUS_SUCCESS);

    ck_assert_status(route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, st),
                     SAI_STATUS_FAILURE);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_SUCCESS);
    ck_assert_status(st[2], SAI_STATUS_ITEM_ALREADY_EXISTS);
    for (int i = 3; i < N; i++) {
        ck_assert_status(st[i], SAI_STATUS_NOT_EXECUTED);
        ck_assert(!route_exists(&entries[i]));
    }
    ck_assert(route_exists(&entries[0]));
    ck_assert(route_exists(&entries[1]));

    /* Remove: entry 3 does not exist. */
    ck_assert_status(route_api->remove_route_entries(
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
    ck_assert_status(route_api->create_route_entries(
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
    ck_assert_status(route_api->set_route_entries_attribute(
                         N, entries, set,
                         SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, st),
                     SAI_STATUS_FAILURE);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_INVALID_ATTR_VALUE_0);
    ck_assert_status(st[2], SAI_STATUS_NOT_EXECUTED);

    struct asic_sim_stats stats;
    ck_assert_status(asic_sim_stats_get(sw, &stats), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(stats.bulk_calls[ASIC_SIM_OP_CREATE], 2);
    ck_assert_uint_eq(stats.bulk_objects[ASIC_SIM_OP_CREATE], 2 * N);
    ck_assert_uint_eq(stats.bulk_calls[ASIC_SIM_OP_REMOVE], 1);
    ck_assert_uint_eq(stats.bulk_calls[ASIC_SIM_OP_SET], 1);
    /* 1 single + 3 + 6 bulk creates attempted; 4 removes; 2 sets. */
    ck_assert_uint_eq(stats.route_ops[ASIC_SIM_OP_CREATE], 10);
    ck_assert_uint_eq(stats.route_ops[ASIC_SIM_OP_REMOVE], 4);
    ck_assert_uint_eq(stats.route_ops[ASIC_SIM_OP_SET], 2);
    ck_assert_uint_eq(stats.not_executed, 3 + 2 + 4);
    /* route_exists() gets: 3 of them missed. */
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

    make_bulk(entries, attrs, lists, counts, N);
    ck_assert_status(create_route(&entries[2], nh[0]), SAI_STATUS_SUCCESS);
    attrs[4] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, sw);  /* Bad. */

    ck_assert_status(route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, st),
                     SAI_STATUS_FAILURE);
    for (int i = 0; i < N; i++) {
        sai_status_t expected = (i == 2 ? SAI_STATUS_ITEM_ALREADY_EXISTS
                                 : i == 4 ? SAI_STATUS_INVALID_ATTR_VALUE_0
                                 : SAI_STATUS_SUCCESS);
        ck_assert_status(st[i], expected);
        ck_assert(route_exists(&entries[i]) == (i != 4));
    }

    /* Remove: entry 4 never existed, the rest go. */
    ck_assert_status(route_api->remove_route_entries(
                         N, entries, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
                         st),
                     SAI_STATUS_FAILURE);
    for (int i = 0; i < N; i++) {
        ck_assert_status(st[i], i == 4 ? SAI_STATUS_ITEM_NOT_FOUND
                                       : SAI_STATUS_SUCCESS);
        ck_assert(!route_exists(&entries[i]));
    }

    /* Bulk set and get. */
    attrs[4] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, nh[1]);
    ck_assert_status(route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, st),
                     SAI_STATUS_SUCCESS);
    sai_attribute_t set[N];
    for (int i = 0; i < N; i++) {
        set[i] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID,
                          i == 0 ? vr : nh[2]);
    }
    ck_assert_status(route_api->set_route_entries_attribute(
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
    ck_assert_status(route_api->get_route_entries_attribute(
                         N, entries, counts, got_lists,
                         SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, st),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(got[0].value.oid, nh[0]);
    for (int i = 1; i < N; i++) {
        ck_assert_uint_eq(got[i].value.oid, nh[2]);
    }
}
END_TEST

START_TEST(test_refcounts)
{
    sai_route_entry_t e = route_parse(vr, "203.0.113.0/24");
    sai_object_id_t group, member, nh4;

    /* A next hop used by a route. */
    ck_assert_status(create_route(&e, nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(nh_api->remove_next_hop(nh[0]),
                     SAI_STATUS_OBJECT_IN_USE);

    /* A next hop used by a group member; a group used by a route and
     * holding members. */
    ck_assert_status(create_group(&group), SAI_STATUS_SUCCESS);
    ck_assert_status(create_member(&member, group, nh[1], 1),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(nh_api->remove_next_hop(nh[1]),
                     SAI_STATUS_OBJECT_IN_USE);
    sai_attribute_t a = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, group);
    ck_assert_status(route_api->set_route_entry_attribute(&e, &a),
                     SAI_STATUS_SUCCESS);

    /* nh[0] lost its only user. */
    ck_assert_status(nh_api->remove_next_hop(nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(nh_api->remove_next_hop(nh[0]),
                     SAI_STATUS_INVALID_OBJECT_ID);
    ck_assert_int_eq(sai_object_type_query(nh[0]), SAI_OBJECT_TYPE_NULL);

    ck_assert_status(nhg_api->remove_next_hop_group(group),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(route_api->remove_route_entry(&e), SAI_STATUS_SUCCESS);
    ck_assert_status(nhg_api->remove_next_hop_group(group),
                     SAI_STATUS_OBJECT_IN_USE);      /* Still a member. */

    /* Moving the member to another next hop moves the reference. */
    ck_assert_status(create_nh(&nh4, rif, "10.0.0.4"), SAI_STATUS_SUCCESS);
    a = attr_oid(SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID, nh4);
    ck_assert_status(nhg_api->set_next_hop_group_member_attribute(member,
                                                                   &a),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(nh_api->remove_next_hop(nh4), SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(nh_api->remove_next_hop(nh[1]), SAI_STATUS_SUCCESS);

    ck_assert_status(nhg_api->remove_next_hop_group_member(member),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(nhg_api->remove_next_hop_group(group),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(nh_api->remove_next_hop(nh4), SAI_STATUS_SUCCESS);

    /* A RIF used by a next hop, a neighbor and a connected route. */
    sai_neighbor_entry_t ne;
    memset(&ne, 0, sizeof ne);
    ne.switch_id = sw;
    ne.rif_id = rif;
    ne.ip_address = addr_parse("10.0.0.3");
    sai_attribute_t mac;
    memset(&mac, 0, sizeof mac);
    mac.id = SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS;
    ck_assert_status(neighbor_api->create_neighbor_entry(&ne, 1, &mac),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(neighbor_api->create_neighbor_entry(&ne, 1, &mac),
                     SAI_STATUS_ITEM_ALREADY_EXISTS);
    sai_route_entry_t conn = route_parse(vr, "10.0.0.0/24");
    ck_assert_status(create_route(&conn, rif), SAI_STATUS_SUCCESS);

    ck_assert_status(rif_api->remove_router_interface(rif),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(nh_api->remove_next_hop(nh[2]), SAI_STATUS_SUCCESS);
    ck_assert_status(rif_api->remove_router_interface(rif),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(neighbor_api->remove_neighbor_entry(&ne),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(rif_api->remove_router_interface(rif),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(route_api->remove_route_entry(&conn),
                     SAI_STATUS_SUCCESS);

    /* A VR with a RIF, then with a route. */
    ck_assert_status(vr_api->remove_virtual_router(vr),
                     SAI_STATUS_OBJECT_IN_USE);      /* Default VR. */
    sai_object_id_t vr2, rif2;
    ck_assert_status(vr_api->create_virtual_router(&vr2, sw, 0, NULL),
                     SAI_STATUS_SUCCESS);
    sai_attribute_t ra[2];
    ra[0] = attr_oid(SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID, vr2);
    ra[1] = attr_s32(SAI_ROUTER_INTERFACE_ATTR_TYPE,
                     SAI_ROUTER_INTERFACE_TYPE_LOOPBACK);
    ck_assert_status(rif_api->create_router_interface(&rif2, sw, 2, ra),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(vr_api->remove_virtual_router(vr2),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(rif_api->remove_router_interface(rif2),
                     SAI_STATUS_SUCCESS);
    sai_route_entry_t e2 = route_parse(vr2, "2001:db8::/48");
    ck_assert_status(create_route(&e2, SAI_NULL_OBJECT_ID),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(vr_api->remove_virtual_router(vr2),
                     SAI_STATUS_OBJECT_IN_USE);
    ck_assert_status(route_api->remove_route_entry(&e2), SAI_STATUS_SUCCESS);
    ck_assert_status(vr_api->remove_virtual_router(vr2), SAI_STATUS_SUCCESS);

    /* Now the RIF is free. */
    ck_assert_status(rif_api->remove_router_interface(rif),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(rif_api->remove_router_interface(rif),
                     SAI_STATUS_INVALID_OBJECT_ID);
    ck_assert_status(rif_api->remove_router_interface(vr),
                     SAI_STATUS_INVALID_OBJECT_TYPE);
}
END_TEST

START_TEST(test_capacity_routes)
{
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    sai_route_entry_t e[12];

    crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, 0);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].capacity,
                      ASIC_SIM_DEFAULT_IPV4_ROUTES);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP].used, 3);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP].available,
                      ASIC_SIM_DEFAULT_NEXT_HOPS - 3);

    /* IPv4 routes: capacity 10, through the switch attribute. */
    sai_attribute_t a = attr_u32(ASIC_SIM_SWITCH_ATTR_IPV4_ROUTE_CAPACITY,
                                 10);
    ck_assert_status(switch_api->set_switch_attribute(sw, &a),
                     SAI_STATUS_SUCCESS);
    for (int i = 0; i < 12; i++) {
        e[i] = route4(vr, ip4(30, i, 0, 0), 16);
        ck_assert_status(create_route(&e[i], nh[0]),
                         i < 10 ? SAI_STATUS_SUCCESS
                         : SAI_STATUS_INSUFFICIENT_RESOURCES);
    }
    crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, 10);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].available, 0);
    a.id = SAI_SWITCH_ATTR_AVAILABLE_IPV4_ROUTE_ENTRY;
    ck_assert_status(switch_api->get_switch_attribute(sw, 1, &a),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(a.value.u32, 0);

    /* IPv6 routes are counted apart. */
    sai_route_entry_t e6 = route_parse(vr, "2001:db8:1::/48");
    ck_assert_status(create_route(&e6, nh[0]), SAI_STATUS_SUCCESS);
    crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_ROUTE].used, 1);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_ROUTE].available,
                      ASIC_SIM_DEFAULT_IPV6_ROUTES - 1);

    /* After a removal, creation succeeds again. */
    ck_assert_status(route_api->remove_route_entry(&e[3]),
                     SAI_STATUS_SUCCESS);
    crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, 9);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].available, 1);
    ck_assert_status(create_route(&e[10], nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&e[11], nh[0]),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);

    /* Lowering below the use is allowed: nothing can be created until
     * the use drops below it. */
    ck_assert_status(asic_sim_set_capacity(sw, ASIC_SIM_RES_IPV4_ROUTE, 8),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(route_api->remove_route_entry(&e[0]),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&e[0], nh[0]),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    ck_assert_status(asic_sim_set_capacity(sw, ASIC_SIM_RES_IPV4_ROUTE,
                                           ASIC_SIM_MAX_ROUTES + 1),
                     SAI_STATUS_INVALID_PARAMETER);

    /* Removing routes gives the counts back, to zero. */
    for (int i = 1; i < 11; i++) {
        if (i != 3) {
            ck_assert_status(route_api->remove_route_entry(&e[i]),
                             SAI_STATUS_SUCCESS);
        }
    }
    ck_assert_status(route_api->remove_route_entry(&e6), SAI_STATUS_SUCCESS);
    crm_get(crm);
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
    ck_assert_status(asic_sim_set_capacity(sw, ASIC_SIM_RES_NEXT_HOP, 3),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_nh(&nh4, rif, "10.0.0.4"),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    ck_assert_status(asic_sim_set_capacity(sw,
                                           ASIC_SIM_RES_NEXT_HOP_GROUP, 2),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_group(&g[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(create_group(&g[1]), SAI_STATUS_SUCCESS);
    ck_assert_status(create_group(&g[2]), SAI_STATUS_INSUFFICIENT_RESOURCES);
    a.id = SAI_SWITCH_ATTR_AVAILABLE_NEXT_HOP_GROUP_ENTRY;
    ck_assert_status(switch_api->get_switch_attribute(sw, 1, &a),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(a.value.u32, 0);
    ck_assert_status(asic_sim_set_capacity(
                         sw, ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER, 2),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_member(&m[0], g[0], nh[0], 1),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_member(&m[1], g[0], nh[1], 1),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_member(&m[2], g[0], nh[2], 1),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP_GROUP].used, 2);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER].used, 2);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER].available, 0);

    ck_assert_status(nhg_api->remove_next_hop_group_member(m[1]),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_member(&m[2], g[0], nh[2], 1),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(nhg_api->remove_next_hop_group(g[1]),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_group(&g[2]), SAI_STATUS_SUCCESS);
    crm_get(crm);
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
        ne[i].switch_id = sw;
        ne[i].rif_id = rif;
        ne[i].ip_address = addr_parse(nb_ips[i]);
    }
    ck_assert_status(asic_sim_set_capacity(sw, ASIC_SIM_RES_IPV4_NEIGHBOR,
                                           1), SAI_STATUS_SUCCESS);
    ck_assert_status(neighbor_api->create_neighbor_entry(&ne[0], 1, &mac),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(neighbor_api->create_neighbor_entry(&ne[1], 1, &mac),
                     SAI_STATUS_INSUFFICIENT_RESOURCES);
    ck_assert_status(neighbor_api->create_neighbor_entry(&ne[2], 1, &mac),
                     SAI_STATUS_SUCCESS);
    crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_NEIGHBOR].used, 1);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_NEIGHBOR].available, 0);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_NEIGHBOR].used, 1);
    ck_assert_status(neighbor_api->remove_neighbor_entry(&ne[0]),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(neighbor_api->remove_neighbor_entry(&ne[2]),
                     SAI_STATUS_SUCCESS);
    crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_NEIGHBOR].used, 0);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_NEIGHBOR].available, 1);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV6_NEIGHBOR].used, 0);
}
END_TEST

/* Creates 'n' /24 routes 40.x.y.0 in one IGNORE_ERROR bulk and returns a
 * bitmap (an array of bools) of those that failed. */
static bool *
bulk_create_failures(uint32_t n, sai_route_entry_t *entries)
{
    sai_attribute_t *attrs = xmalloc(n * sizeof *attrs);
    const sai_attribute_t **lists = xmalloc(n * sizeof *lists);
    uint32_t *counts = xmalloc(n * sizeof *counts);
    sai_status_t *st = xmalloc(n * sizeof *st);
    bool *failed = xmalloc(n * sizeof *failed);

    for (uint32_t i = 0; i < n; i++) {
        entries[i] = route4(vr, ip4(40, i >> 8, i & 0xff, 0), 24);
        attrs[i] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, nh[0]);
        lists[i] = &attrs[i];
        counts[i] = 1;
    }
    route_api->create_route_entries(n, entries, counts, lists,
                                    SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, st);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert(st[i] == SAI_STATUS_SUCCESS
                  || st[i] == SAI_STATUS_FAILURE);
        failed[i] = st[i] != SAI_STATUS_SUCCESS;
        ck_assert(route_exists(&entries[i]) == !failed[i]);
    }
    free(attrs);
    free(lists);
    free(counts);
    free(st);
    return failed;
}

START_TEST(test_fault_rate)
{
    enum { N = 4000 };
    sai_route_entry_t *entries = xmalloc(N * sizeof *entries);
    struct asic_sim_fault f;
    sai_status_t st[N];

    memset(&f, 0, sizeof f);
    f.rate = 0.25;
    f.seed = 12345;
    ck_assert_status(asic_sim_fault_set(sw, &f), SAI_STATUS_SUCCESS);
    bool *failed1 = bulk_create_failures(N, entries);

    uint32_t n_failed = 0;
    for (int i = 0; i < N; i++) {
        n_failed += failed1[i];
    }
    ck_assert_msg(n_failed > N / 4 - 150 && n_failed < N / 4 + 150,
                  "%"PRIu32" failures", n_failed);

    struct asic_sim_stats stats;
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    ck_assert_status(asic_sim_stats_get(sw, &stats), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(stats.faults_injected, n_failed);
    ck_assert_uint_eq(stats.errors_by_status[1], n_failed);
    crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, N - n_failed);

    /* Remove everything with faults off for removals: the same seed then
     * fails the same creations. */
    f.ops = ASIC_SIM_FAULT_ROUTE_CREATE;
    ck_assert_status(asic_sim_fault_set(sw, &f), SAI_STATUS_SUCCESS);
    ck_assert_status(route_api->remove_route_entries(
                         N, entries, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
                         st),
                     n_failed ? SAI_STATUS_FAILURE : SAI_STATUS_SUCCESS);
    for (int i = 0; i < N; i++) {
        ck_assert_status(st[i], failed1[i] ? SAI_STATUS_ITEM_NOT_FOUND
                                           : SAI_STATUS_SUCCESS);
    }
    ck_assert_status(asic_sim_fault_set(sw, &f), SAI_STATUS_SUCCESS);
    bool *failed2 = bulk_create_failures(N, entries);
    ck_assert(!memcmp(failed1, failed2, N * sizeof *failed1));

    /* Validation comes first: an existing route is reported as such, not
     * as an injected failure. */
    f.rate = 1;
    ck_assert_status(asic_sim_fault_set(sw, &f), SAI_STATUS_SUCCESS);
    for (int i = 0; i < N; i++) {
        if (!failed2[i]) {
            ck_assert_status(create_route(&entries[i], nh[0]),
                             SAI_STATUS_ITEM_ALREADY_EXISTS);
            ck_assert_status(route_api->remove_route_entry(&entries[i]),
                             SAI_STATUS_SUCCESS);
            ck_assert_status(create_route(&entries[i], nh[0]),
                             SAI_STATUS_FAILURE);
            break;
        }
    }

    /* Invalid rates; clearing. */
    f.rate = 1.5;
    ck_assert_status(asic_sim_fault_set(sw, &f),
                     SAI_STATUS_INVALID_PARAMETER);
    ck_assert_status(asic_sim_fault_clear(sw), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_get(sw, &f), SAI_STATUS_SUCCESS);
    ck_assert(f.rate == 0);
    ck_assert_uint_eq(f.ops, ASIC_SIM_FAULT_ROUTES);

    free(failed1);
    free(failed2);
    free(entries);
}
END_TEST

static void
count_fault_prefix(sai_object_id_t vr_id OVS_UNUSED,
                   const sai_ip_prefix_t *p OVS_UNUSED, void *n_)
{
    int *n = n_;
    (*n)++;
}

START_TEST(test_fault_prefixes)
{
    sai_route_entry_t bad = route_parse(vr, "198.51.100.0/24");
    sai_route_entry_t bad6 = route_parse(vr, "2001:db8:bad::/48");
    sai_route_entry_t good = route_parse(vr, "198.51.100.0/25");
    sai_route_entry_t other_vr;
    sai_object_id_t vr2;

    ck_assert_status(vr_api->create_virtual_router(&vr2, sw, 0, NULL),
                     SAI_STATUS_SUCCESS);
    other_vr = route_parse(vr2, "198.51.100.0/24");

    ck_assert_status(asic_sim_fault_add_prefix(sw, vr, &bad.destination),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_add_prefix(sw, vr, &bad.destination),
                     SAI_STATUS_ITEM_ALREADY_EXISTS);
    ck_assert_status(asic_sim_fault_add_prefix(sw, vr, &bad6.destination),
                     SAI_STATUS_SUCCESS);
    int n = 0;
    ck_assert_status(asic_sim_fault_prefix_walk(sw, count_fault_prefix, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(n, 2);

    ck_assert_status(create_route(&bad, nh[0]), SAI_STATUS_FAILURE);
    ck_assert_status(create_route(&bad6, nh[0]), SAI_STATUS_FAILURE);
    ck_assert_status(create_route(&good, nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&other_vr, nh[0]), SAI_STATUS_SUCCESS);
    ck_assert(!route_exists(&bad));

    /* In a bulk, only the chosen prefix fails. */
    sai_route_entry_t entries[3] = { good, bad, other_vr };
    sai_status_t st[3];
    ck_assert_status(route_api->remove_route_entries(
                         3, entries, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
                         st),
                     SAI_STATUS_FAILURE);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(st[2], SAI_STATUS_SUCCESS);

    /* Removals of a chosen prefix fail too, but only if 'ops' says so. */
    ck_assert_status(asic_sim_fault_remove_prefix(sw, vr, &bad.destination),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&bad, nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_add_prefix(sw, vr, &bad.destination),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(route_api->remove_route_entry(&bad),
                     SAI_STATUS_FAILURE);
    sai_attribute_t a = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                                 SAI_PACKET_ACTION_DROP);
    ck_assert_status(route_api->set_route_entry_attribute(&bad, &a),
                     SAI_STATUS_FAILURE);

    struct asic_sim_fault f;
    memset(&f, 0, sizeof f);
    f.ops = ASIC_SIM_FAULT_ROUTE_CREATE;
    ck_assert_status(asic_sim_fault_set(sw, &f), SAI_STATUS_SUCCESS);
    ck_assert_status(route_api->set_route_entry_attribute(&bad, &a),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(route_api->remove_route_entry(&bad),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_remove_prefix(sw, vr, &bad.destination),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_remove_prefix(sw, vr, &bad.destination),
                     SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(asic_sim_fault_clear(sw), SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&bad6, nh[0]), SAI_STATUS_SUCCESS);
}
END_TEST

static double
now_sec(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

START_TEST(test_fault_delay_and_objects)
{
    enum { N = 20 };
    sai_route_entry_t entries[N];
    sai_attribute_t attrs[N];
    const sai_attribute_t *lists[N];
    uint32_t counts[N];
    sai_status_t st[N];
    struct asic_sim_fault f;

    memset(&f, 0, sizeof f);
    f.delay_usec = 1000;
    ck_assert_status(asic_sim_fault_set(sw, &f), SAI_STATUS_SUCCESS);
    make_bulk(entries, attrs, lists, counts, N);
    double start = now_sec();
    ck_assert_status(route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, st),
                     SAI_STATUS_SUCCESS);
    double elapsed = now_sec() - start;
    ck_assert_msg(elapsed >= N * 1e-3, "bulk took %.6f s", elapsed);

    struct asic_sim_stats stats;
    ck_assert_status(asic_sim_stats_get(sw, &stats), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(stats.delay_usec, N * 1000);

    /* Faults on other objects, only with ASIC_SIM_FAULT_OBJECTS. */
    sai_object_id_t g;
    f.delay_usec = 0;
    f.rate = 1;
    ck_assert_status(asic_sim_fault_set(sw, &f), SAI_STATUS_SUCCESS);
    ck_assert_status(create_group(&g), SAI_STATUS_SUCCESS);
    f.ops = ASIC_SIM_FAULT_OBJECTS;
    ck_assert_status(asic_sim_fault_set(sw, &f), SAI_STATUS_SUCCESS);
    ck_assert_status(nhg_api->remove_next_hop_group(g), SAI_STATUS_FAILURE);
    ck_assert_status(create_group(&g), SAI_STATUS_FAILURE);
    ck_assert_status(route_api->remove_route_entry(&entries[0]),
                     SAI_STATUS_SUCCESS);
}
END_TEST

START_TEST(test_hit_counters)
{
    sai_route_entry_t e8 = route_parse(vr, "10.0.0.0/8");
    sai_route_entry_t e24 = route_parse(vr, "10.1.2.0/24");
    sai_route_entry_t e32 = route_parse(vr, "10.1.2.3/32");
    struct asic_sim_route r;

    ck_assert_status(create_route(&e8, nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&e24, nh[1]), SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&e32, nh[2]), SAI_STATUS_SUCCESS);

    sai_ip_address_t a = addr_parse("10.1.2.3");
    for (int i = 0; i < 5; i++) {
        ck_assert_status(asic_sim_lookup(vr, &a, &r, NULL, NULL),
                         SAI_STATUS_SUCCESS);
    }
    ck_assert_uint_eq(r.hits, 5);
    ck_assert_uint_eq(r.next_hop_id, nh[2]);
    ck_assert(!memcmp(&r.entry.destination, &e32.destination,
                      sizeof r.entry.destination));
    a = addr_parse("10.1.2.4");
    ck_assert_status(asic_sim_lookup(vr, &a, &r, NULL, NULL),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(r.next_hop_id, nh[1]);
    a = addr_parse("10.200.0.1");
    ck_assert_status(asic_sim_lookup(vr, &a, &r, NULL, NULL),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(r.next_hop_id, nh[0]);
    a = addr_parse("11.0.0.1");
    ck_assert_status(asic_sim_lookup(vr, &a, &r, NULL, NULL),
                     SAI_STATUS_ITEM_NOT_FOUND);

    ck_assert_uint_eq(route_hits(&e32), 5);
    ck_assert_uint_eq(route_hits(&e24), 1);
    ck_assert_uint_eq(route_hits(&e8), 1);

    /* Bulk lookups count too. */
    sai_ip_address_t addrs[4] = {
        addr_parse("10.1.2.3"), addr_parse("10.1.2.9"),
        addr_parse("12.0.0.1"), addr_parse("2001:db8::1"),
    };
    struct asic_sim_route routes[4];
    sai_status_t st[4];
    ck_assert_status(asic_sim_lookup_bulk(vr, 4, addrs, routes, st),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_SUCCESS);
    ck_assert_status(st[2], SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(st[3], SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_uint_eq(routes[0].hits, 6);
    ck_assert_uint_eq(routes[1].next_hop_id, nh[1]);
    ck_assert_uint_eq(route_hits(&e24), 2);

    /* Clearing. */
    sai_attribute_t clr;
    memset(&clr, 0, sizeof clr);
    clr.id = ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT;
    ck_assert_status(route_api->set_route_entry_attribute(&e32, &clr),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(route_hits(&e32), 0);
    clr.value.u64 = 3;
    ck_assert_status(route_api->set_route_entry_attribute(&e32, &clr),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);

    /* VR admin state down: lookups of that family miss. */
    sai_attribute_t down;
    memset(&down, 0, sizeof down);
    down.id = SAI_VIRTUAL_ROUTER_ATTR_ADMIN_V4_STATE;
    ck_assert_status(vr_api->set_virtual_router_attribute(vr, &down),
                     SAI_STATUS_SUCCESS);
    a = addr_parse("10.1.2.3");
    ck_assert_status(asic_sim_lookup(vr, &a, &r, NULL, NULL),
                     SAI_STATUS_ITEM_NOT_FOUND);

    struct asic_sim_stats stats;
    ck_assert_status(asic_sim_stats_get(sw, &stats), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(stats.lookups, 8 + 4 + 1);
    ck_assert_uint_eq(stats.lookup_misses, 1 + 2 + 1);
}
END_TEST

START_TEST(test_ecmp_lookup)
{
    sai_object_id_t group, m[3];
    sai_route_entry_t e = route_parse(vr, "0.0.0.0/0");
    sai_route_entry_t e6 = route_parse(vr, "::/0");
    struct asic_sim_nexthop nhs[4];
    struct asic_sim_route r;
    uint32_t n;

    ck_assert_status(create_group(&group), SAI_STATUS_SUCCESS);
    for (int i = 0; i < 3; i++) {
        ck_assert_status(create_member(&m[i], group, nh[i], i + 1),
                         SAI_STATUS_SUCCESS);
    }
    ck_assert_status(create_route(&e, group), SAI_STATUS_SUCCESS);
    ck_assert_status(create_route(&e6, group), SAI_STATUS_SUCCESS);

    /* Neighbor for 10.0.0.2 only. */
    sai_neighbor_entry_t ne;
    memset(&ne, 0, sizeof ne);
    ne.switch_id = sw;
    ne.rif_id = rif;
    ne.ip_address = addr_parse("10.0.0.2");
    sai_attribute_t mac;
    memset(&mac, 0, sizeof mac);
    mac.id = SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS;
    memcpy(mac.value.mac, "\x00\x11\x22\x33\x44\x55", 6);
    ck_assert_status(neighbor_api->create_neighbor_entry(&ne, 1, &mac),
                     SAI_STATUS_SUCCESS);

    sai_ip_address_t a = addr_parse("8.8.8.8");
    n = 2;
    ck_assert_status(asic_sim_lookup(vr, &a, &r, nhs, &n),
                     SAI_STATUS_BUFFER_OVERFLOW);
    ck_assert_uint_eq(n, 3);
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(r.hits, 1);      /* The overflow did not count. */
    ck_assert_uint_eq(r.next_hop_id, group);
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(nhs[i].next_hop_id, nh[i]);
        ck_assert_uint_eq(nhs[i].member_id, m[i]);
        ck_assert_uint_eq(nhs[i].weight, i + 1);
        ck_assert_uint_eq(nhs[i].rif_id, rif);
        ck_assert_uint_eq(nhs[i].port_id, port0);
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
    ck_assert_status(nhg_api->set_next_hop_group_member_attribute(m[0], &w),
                     SAI_STATUS_SUCCESS);
    w.value.u32 = 0;
    ck_assert_status(nhg_api->set_next_hop_group_member_attribute(m[0], &w),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);
    ck_assert_status(nhg_api->remove_next_hop_group_member(m[1]),
                     SAI_STATUS_SUCCESS);
    a = addr_parse("2001:db8::42");
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(nhs[0].weight, 10);
    ck_assert_uint_eq(nhs[1].next_hop_id, nh[2]);
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
    ck_assert_status(nhg_api->get_next_hop_group_attribute(group, 2, ga),
                     SAI_STATUS_BUFFER_OVERFLOW);
    ck_assert_uint_eq(ga[1].value.objlist.count, 2);
    ga[1].value.objlist.count = 4;
    ck_assert_status(nhg_api->get_next_hop_group_attribute(group, 2, ga),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(ga[0].value.u32, 2);
    ck_assert_uint_eq(list[0], m[0]);
    ck_assert_uint_eq(list[1], m[2]);

    /* A dropping route resolves to nothing; a connected route to the
     * destination itself; an IP2ME route to the CPU port. */
    sai_route_entry_t drop = route_parse(vr, "192.0.2.0/24");
    sai_attribute_t da = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                                  SAI_PACKET_ACTION_DROP);
    ck_assert_status(route_api->create_route_entry(&drop, 1, &da),
                     SAI_STATUS_SUCCESS);
    a = addr_parse("192.0.2.1");
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(r.action, SAI_PACKET_ACTION_DROP);

    sai_route_entry_t conn = route_parse(vr, "10.0.0.0/24");
    ck_assert_status(create_route(&conn, rif), SAI_STATUS_SUCCESS);
    a = addr_parse("10.0.0.2");
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(nhs[0].next_hop_id, SAI_NULL_OBJECT_ID);
    ck_assert_uint_eq(nhs[0].rif_id, rif);
    ck_assert(nhs[0].neighbor_resolved);

    sai_object_id_t cpu;
    sai_attribute_t ca;
    memset(&ca, 0, sizeof ca);
    ca.id = SAI_SWITCH_ATTR_CPU_PORT;
    ck_assert_status(switch_api->get_switch_attribute(sw, 1, &ca),
                     SAI_STATUS_SUCCESS);
    cpu = ca.value.oid;
    sai_route_entry_t me = route_parse(vr, "10.0.0.254/32");
    ck_assert_status(create_route(&me, cpu), SAI_STATUS_SUCCESS);
    a = addr_parse("10.0.0.254");
    n = ARRAY_SIZE(nhs);
    ck_assert_status(asic_sim_lookup(vr, &a, &r, nhs, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(nhs[0].port_id, cpu);
    ck_assert_uint_eq(nhs[0].rif_id, SAI_NULL_OBJECT_ID);
    sai_route_entry_t bad = route_parse(vr, "10.0.0.253/32");
    ck_assert_status(create_route(&bad, port0),
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
             r->next_hop_id == nh[0] ? 0 : r->next_hop_id == nh[1] ? 1 : -1,
             r->hits);
}

START_TEST(test_walk)
{
    static const char *const prefixes[] = {
        "2001:db8::/48", "10.1.0.0/16", "10.0.0.0/8", "2001:db8::/32",
        "192.168.1.128/25", "10.1.0.0/24",
    };
    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        sai_route_entry_t e = route_parse(vr, prefixes[i]);
        ck_assert_status(create_route(&e, nh[i % 2]), SAI_STATUS_SUCCESS);
    }
    sai_ip_address_t a = addr_parse("10.1.0.1");
    ck_assert_status(asic_sim_lookup(vr, &a, NULL, NULL, NULL),
                     SAI_STATUS_SUCCESS);

    struct walk_out out;
    out.n = 0;
    ck_assert_status(asic_sim_route_walk(vr, walk_collect, &out),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(out.n, 6);
    ck_assert_str_eq(out.lines[0], "10.0.0.0/8 FORWARD 0 0");
    ck_assert_str_eq(out.lines[1], "10.1.0.0/16 FORWARD 1 0");
    ck_assert_str_eq(out.lines[2], "10.1.0.0/24 FORWARD 1 1");
    ck_assert_str_eq(out.lines[3], "192.168.1.128/25 FORWARD 0 0");
    ck_assert_str_eq(out.lines[4], "2001:db8::/32 FORWARD 1 0");
    ck_assert_str_eq(out.lines[5], "2001:db8::/48 FORWARD 0 0");

    uint32_t count;
    ck_assert_status(asic_sim_get_object_count(sw, SAI_OBJECT_TYPE_NEXT_HOP,
                                               &count), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(count, 3);
    ck_assert_status(asic_sim_get_object_count(
                         sw, SAI_OBJECT_TYPE_ROUTE_ENTRY, &count),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(count, 6);
    sai_object_id_t ids[2];
    sai_object_list_t list = { 2, ids };
    ck_assert_status(asic_sim_get_object_list(sw, SAI_OBJECT_TYPE_NEXT_HOP,
                                              &list),
                     SAI_STATUS_BUFFER_OVERFLOW);
    ck_assert_uint_eq(list.count, 3);

    struct asic_sim_memory mem;
    ck_assert_status(asic_sim_memory_get(sw, &mem), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(mem.lpm4_fixed_bytes, 64u << 20);
    ck_assert_uint_gt(mem.route_bytes, 0);
    ck_assert_uint_gt(mem.lpm6_bytes, 0);
}
END_TEST

START_TEST(test_switches_and_ids)
{
    sai_object_id_t sw2, nh_other;

    /* Objects of one switch cannot be used on another. */
    ck_assert_status(switch_api->create_switch(&sw2, 0, NULL),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_ne(sw2, sw);
    sai_route_entry_t e = route_parse(vr, "10.9.0.0/16");
    e.switch_id = sw2;
    ck_assert_status(create_route(&e, nh[0]), SAI_STATUS_INVALID_PARAMETER);
    ck_assert_uint_eq(sai_switch_id_query(nh[0]), sw);
    ck_assert_int_eq(sai_object_type_query(nh[0]), SAI_OBJECT_TYPE_NEXT_HOP);

    /* A stale id (removed, slot reused) is rejected. */
    ck_assert_status(nh_api->remove_next_hop(nh[2]), SAI_STATUS_SUCCESS);
    ck_assert_status(create_nh(&nh_other, rif, "10.0.0.9"),
                     SAI_STATUS_SUCCESS);
    ck_assert_uint_ne(nh_other, nh[2]);
    e.switch_id = sw;
    ck_assert_status(create_route(&e, nh[2]),
                     SAI_STATUS_INVALID_ATTR_VALUE_0);
    ck_assert_status(create_route(&e, nh_other), SAI_STATUS_SUCCESS);

    /* Mandatory attributes. */
    sai_object_id_t id;
    ck_assert_status(nh_api->create_next_hop(&id, sw, 0, NULL),
                     SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING);
    ck_assert_status(nhg_api->create_next_hop_group(&id, sw, 0, NULL),
                     SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING);

    /* Removing a switch removes everything on it. */
    ck_assert_status(switch_api->remove_switch(sw2), SAI_STATUS_SUCCESS);
    ck_assert_status(switch_api->remove_switch(sw2),
                     SAI_STATUS_INVALID_OBJECT_ID);
    ck_assert_status(switch_api->remove_switch(sw), SAI_STATUS_SUCCESS);
    ck_assert_int_eq(sai_object_type_query(nh_other), SAI_OBJECT_TYPE_NULL);
    ck_assert_status(create_route(&e, nh_other),
                     SAI_STATUS_INVALID_PARAMETER);
}
END_TEST

Suite *
asic_sim_suite(void)
{
    Suite *s = suite_create("asic_sim");
    TCase *tc = tcase_create("asic_sim");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_basic_route);
    tcase_add_test(tc, test_bulk_stop_on_error);
    tcase_add_test(tc, test_bulk_ignore_error);
    tcase_add_test(tc, test_refcounts);
    tcase_add_test(tc, test_capacity_routes);
    tcase_add_test(tc, test_capacity_next_hops);
    tcase_add_test(tc, test_capacity_neighbors);
    tcase_add_test(tc, test_fault_rate);
    tcase_add_test(tc, test_fault_prefixes);
    tcase_add_test(tc, test_fault_delay_and_objects);
    tcase_add_test(tc, test_hit_counters);
    tcase_add_test(tc, test_ecmp_lookup);
    tcase_add_test(tc, test_walk);
    tcase_add_test(tc, test_switches_and_ids);
    suite_add_tcase(s, tc);
    return s;
}
