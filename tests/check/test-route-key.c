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

/* Check suite for lib/route-key: deterministic row UUIDs and names. */

#include <config.h>

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fib-prefix.h"
#include "lib/route-key.h"
#include "openvswitch/dynamic-string.h"
#include "tests/check/suites.h"
#include "util.h"
#include "uuid.h"

/* Asserts that 'u' is 'expected' in text form. */
static void
check_uuid(const struct uuid *u, const char *expected)
{
    char buf[UUID_LEN + 1];

    snprintf(buf, sizeof buf, UUID_FMT, UUID_ARGS(u));
    ck_assert_str_eq(buf, expected);
}

/* The RFC 4122 algorithm, checked against Python's uuid.uuid5(). */
START_TEST(test_uuid_v5_vector)
{
    struct uuid dns, u;

    ck_assert(uuid_from_string(&dns, "6ba7b810-9dad-11d1-80b4-00c04fd430c8"));
    route_key_uuid_v5(&dns, "python.org", 10, &u);
    check_uuid(&u, "886313e1-3b8a-5372-9b90-0c9aee199e5d");
}
END_TEST

/* The UUIDs of fibsync's rows are pinned: other processes, and rows
 * already in databases, depend on them.  (Computed independently with
 * Python's uuid.uuid5() and the namespaces in route-key.c.) */
START_TEST(test_uuid_pinned)
{
    struct fib_prefix p;
    struct uuid u;
    char *error;

    route_key_route_uuid_text("default", "10.1.0.0/16", &u);
    check_uuid(&u, "eae715a3-208d-5953-9901-02ae24f73051");
    route_key_route_uuid_text("default", "2001:db8::/32", &u);
    check_uuid(&u, "97ee98c0-05ac-5890-96ac-5c81041c7731");
    route_key_nhg_uuid(24, &u);
    check_uuid(&u, "1cc9972f-fefe-5100-b2f4-6b6713b5acfa");
    route_key_vrf_uuid("default", &u);
    check_uuid(&u, "390c001d-05bf-52fa-9423-7e9fc28816cd");

    /* The binary form gives the same UUID as the canonical text. */
    error = fib_prefix_parse("10.1.0.0/16", &p);
    ck_assert_ptr_null(error);
    route_key_route_uuid("default", &p, &u);
    check_uuid(&u, "eae715a3-208d-5953-9901-02ae24f73051");

    /* A lenient spelling parses to the same prefix, hence the same UUID. */
    error = fib_prefix_parse("10.1.2.3/16", &p);
    ck_assert_ptr_null(error);
    route_key_route_uuid("default", &p, &u);
    check_uuid(&u, "eae715a3-208d-5953-9901-02ae24f73051");
}
END_TEST

/* The Asic_Route row UUIDs orchd writes are pinned too: a restarted orchd
 * finds its rows by them.  (Computed with Python's uuid.uuid5() and the
 * Asic_Route namespace in route-key.c.) */
START_TEST(test_asic_route_uuid_pinned)
{
    struct fib_prefix p;
    struct uuid u;

    ck_assert_ptr_null(fib_prefix_parse("10.1.0.0/16", &p));
    route_key_asic_route_uuid("default", &p, 0, &u);
    check_uuid(&u, "152411c5-136b-564c-92d5-0707d7e882d3");
    route_key_asic_route_uuid("default", &p, 2, &u);
    check_uuid(&u, "95af33f2-f610-5e96-84c4-e72e11785aaf");
    ck_assert_ptr_null(fib_prefix_parse("2001:db8::/32", &p));
    route_key_asic_route_uuid("Vrf-red", &p, 0, &u);
    check_uuid(&u, "29fbebba-0868-5f5f-80b8-e4a7b7946c32");
}
END_TEST

/* Different keys give different UUIDs, all version 5, variant 10. */
START_TEST(test_uuid_distinct)
{
    static const char *prefixes[] = {
        "10.1.0.0/16", "10.1.0.0/17", "10.0.0.0/8", "0.0.0.0/0",
        "::/0", "2001:db8::/32", "2001:db8::/48",
    };
    static const char *vrfs[] = { "default", "red", "table10", "" };
    struct uuid all[ARRAY_SIZE(prefixes) * ARRAY_SIZE(vrfs) + 3];
    size_t n = 0;

    for (size_t i = 0; i < ARRAY_SIZE(vrfs); i++) {
        for (size_t j = 0; j < ARRAY_SIZE(prefixes); j++) {
            route_key_route_uuid_text(vrfs[i], prefixes[j], &all[n++]);
        }
    }
    /* "a\0b/8" must not collide with "a\0" "b/8" shifted: the separator
     * keeps VRF and prefix apart. */
    route_key_nhg_uuid(1, &all[n++]);
    route_key_nhg_uuid(10, &all[n++]);
    route_key_vrf_uuid("default", &all[n++]);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq((all[i].parts[1] >> 12) & 0xf, 5);
        ck_assert_uint_eq(all[i].parts[2] >> 30, 2);
        for (size_t j = 0; j < i; j++) {
            ck_assert(!uuid_equals(&all[i], &all[j]));
        }
    }

    /* Same key, same UUID. */
    struct uuid a, b;
    route_key_route_uuid_text("red", "10.1.0.0/16", &a);
    route_key_route_uuid_text("red", "10.1.0.0/16", &b);
    ck_assert(uuid_equals(&a, &b));
}
END_TEST

START_TEST(test_protocol_names)
{
    char buf[ROUTE_KEY_PROTO_NAMELEN];

    ck_assert_str_eq(route_key_protocol_name(186, buf), "bgp");
    ck_assert_str_eq(route_key_protocol_name(188, buf), "ospf");
    ck_assert_str_eq(route_key_protocol_name(196, buf), "static");
    ck_assert_str_eq(route_key_protocol_name(187, buf), "isis");
    ck_assert_str_eq(route_key_protocol_name(189, buf), "rip");
    ck_assert_str_eq(route_key_protocol_name(2, buf), "kernel");
    ck_assert_str_eq(route_key_protocol_name(250, buf), "proto-250");
    ck_assert_str_eq(route_key_protocol_name(0, buf), "proto-0");

    ck_assert_int_eq(route_key_protocol_from_name("bgp"), 186);
    ck_assert_int_eq(route_key_protocol_from_name("static"), 196);
    ck_assert_int_eq(route_key_protocol_from_name("connected"), 2);
    ck_assert_int_eq(route_key_protocol_from_name("kernel"), 2);
    ck_assert_int_eq(route_key_protocol_from_name("proto-250"), 250);
    ck_assert_int_eq(route_key_protocol_from_name("proto-0"), 0);
    ck_assert_int_eq(route_key_protocol_from_name("proto-256"), -1);
    ck_assert_int_eq(route_key_protocol_from_name("proto-"), -1);
    ck_assert_int_eq(route_key_protocol_from_name("proto-+1"), -1);
    ck_assert_int_eq(route_key_protocol_from_name("proto-1x"), -1);
    ck_assert_int_eq(route_key_protocol_from_name("nonsense"), -1);

    /* Every name maps back to its number. */
    for (int i = 0; i < 256; i++) {
        const char *name = route_key_protocol_name(i, buf);
        int back = route_key_protocol_from_name(name);

        ck_assert_int_eq(back, i);
    }
}
END_TEST

START_TEST(test_vrf_names)
{
    char buf[ROUTE_KEY_VRF_NAMELEN];

    ck_assert_str_eq(route_key_table_vrf_name(254, buf), "default");
    ck_assert_str_eq(route_key_table_vrf_name(10, buf), "table10");
    ck_assert_str_eq(route_key_table_vrf_name(4294967295u, buf),
                     "table4294967295");
}
END_TEST

START_TEST(test_nexthop_keys)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    uint8_t v4[4] = { 192, 168, 1, 2 };
    struct in6_addr v6;
    uint8_t gw[16];
    char *ifname;
    char *error;
    int family;

    route_key_nexthop_format(&s, AF_INET, v4, "eth0");
    ck_assert_str_eq(ds_cstr(&s), "192.168.1.2@eth0");
    ds_clear(&s);
    inet_pton(AF_INET6, "2001:db8::1", &v6);
    route_key_nexthop_format(&s, AF_INET6, &v6, NULL);
    ck_assert_str_eq(ds_cstr(&s), "2001:db8::1");
    ds_clear(&s);
    route_key_nexthop_format(&s, 0, NULL, "v0");
    ck_assert_str_eq(ds_cstr(&s), "@v0");
    ds_destroy(&s);

    error = route_key_nexthop_parse("192.168.1.2@eth0", &family, gw,
                                    &ifname);
    ck_assert_ptr_null(error);
    ck_assert_int_eq(family, AF_INET);
    ck_assert(!memcmp(gw, v4, 4));
    ck_assert_str_eq(ifname, "eth0");
    free(ifname);

    error = route_key_nexthop_parse("2001:db8::1", &family, gw, &ifname);
    ck_assert_ptr_null(error);
    ck_assert_int_eq(family, AF_INET6);
    ck_assert(!memcmp(gw, &v6, 16));
    ck_assert_ptr_null(ifname);

    error = route_key_nexthop_parse("@veth0", &family, gw, &ifname);
    ck_assert_ptr_null(error);
    ck_assert_int_eq(family, 0);
    ck_assert_str_eq(ifname, "veth0");
    free(ifname);

    /* An interface name may not contain '@' (syncd never took one): a key
     * has one '@' at most. */
    static const char *bad[] = { "", "192.168.1.2@", "eth0", "300.1.1.1",
                                 "1.2.3.4.5@x", "010.1.1.1@x",
                                 "@veth0@if3" };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        error = route_key_nexthop_parse(bad[i], &family, gw, &ifname);
        ck_assert_msg(error != NULL, "%s accepted", bad[i]);
        free(error);
        free(ifname);
    }
}
END_TEST

/* Splits 'key' and checks that it gives gateway text 'gateway' ("" for
 * none) of 'family' and interface name 'ifname' ("" for none), pointing
 * into 'key'. */
static void
check_nexthop_good(const char *key, const char *gateway, int family,
                   const char *ifname)
{
    struct route_key_nexthop nh;
    char *error = route_key_nexthop_split(key, &nh);
    uint8_t want[16] = { 0 };

    ck_assert_msg(!error, "%s: %s", key, error);
    ck_assert_int_eq(nh.family, family);
    ck_assert_uint_eq(nh.gateway_len, strlen(gateway));
    ck_assert(!strncmp(key, gateway, nh.gateway_len));
    if (family) {
        ck_assert_int_eq(inet_pton(family, gateway, want), 1);
    }
    ck_assert(!memcmp(nh.gateway, want, sizeof want));
    ck_assert_str_eq(nh.ifname, ifname);
    ck_assert(!ifname[0] || (nh.ifname > key
                             && nh.ifname < key + strlen(key)));
}

/* Splits 'key' and checks that it fails with 'message', leaving '*nh' as
 * for an empty key. */
static void
check_nexthop_bad(const char *key, const char *message)
{
    static const uint8_t zeros[16];
    struct route_key_nexthop nh;
    char *error = route_key_nexthop_split(key, &nh);

    ck_assert_msg(error, "%s accepted", key);
    ck_assert_str_eq(error, message);
    ck_assert_int_eq(nh.family, 0);
    ck_assert(!memcmp(nh.gateway, zeros, sizeof zeros));
    ck_assert_uint_eq(nh.gateway_len, 0);
    ck_assert_str_eq(nh.ifname, "");
    free(error);
}

/* The rules of route-key.h, one by one: the one parser of next-hop keys
 * that syncd, orchd's show commands and syncd-bench share. */
START_TEST(test_nexthop_key_rules)
{
    char ifname64[65], key[80];
    char *message;

    /* The three forms. */
    check_nexthop_good("192.168.1.2@eth0", "192.168.1.2", AF_INET, "eth0");
    check_nexthop_good("2001:db8::1", "2001:db8::1", AF_INET6, "");
    check_nexthop_good("@Ethernet4", "", 0, "Ethernet4");
    check_nexthop_good("::ffff:10.0.0.1@e", "::ffff:10.0.0.1", AF_INET6,
                       "e");

    /* Not empty. */
    check_nexthop_bad("", "bad next hop \"\": empty key");

    /* The interface name: 1 to 64 bytes, no white space, '/' or '@'. */
    check_nexthop_bad("1.1.1.1@",
                      "bad next hop \"1.1.1.1@\": empty interface name");
    check_nexthop_bad("@", "bad next hop \"@\": empty interface name");
    memset(ifname64, 'i', 64);
    ifname64[64] = '\0';
    snprintf(key, sizeof key, "@%s", ifname64);
    check_nexthop_good(key, "", 0, ifname64);
    snprintf(key, sizeof key, "@%si", ifname64);
    message = xasprintf("bad next hop \"%s\": interface name too long", key);
    check_nexthop_bad(key, message);
    free(message);
    static const char *bad_ifnames[] = {
        "1.1.1.1@et h0", "1.1.1.1@eth0\t", "@eth\n0", "1.1.1.1@eth/0",
        "@veth0@if3", "1.1.1.1@@eth0",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad_ifnames); i++) {
        message = xasprintf("bad next hop \"%s\": bad interface name",
                            bad_ifnames[i]);
        check_nexthop_bad(bad_ifnames[i], message);
        free(message);
    }

    /* The gateway: an address inet_pton() reads. */
    static const char *bad_gateways[] = {
        "eth0", "10.0.0.300@eth0", "010.1.1.1@x", "1.2.3.4.5@x", "1.2.3",
        " 1.1.1.1@x", "fe80::1%eth0@eth0", "10.0.0.0/8@x",
        "1111:2222:3333:4444:5555:6666:255.255.255.255x@e",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad_gateways); i++) {
        message = xasprintf("bad next hop \"%s\": bad gateway address",
                            bad_gateways[i]);
        check_nexthop_bad(bad_gateways[i], message);
        free(message);
    }

    /* A key bad in both ways is refused for its interface name. */
    check_nexthop_bad("bad@", "bad next hop \"bad@\": empty interface name");
    check_nexthop_bad("bad@a b", "bad next hop \"bad@a b\": bad interface "
                      "name");
}
END_TEST

Suite *
route_key_suite(void)
{
    Suite *s = suite_create("route_key");
    TCase *tc = tcase_create("route_key");

    tcase_add_test(tc, test_uuid_v5_vector);
    tcase_add_test(tc, test_uuid_pinned);
    tcase_add_test(tc, test_asic_route_uuid_pinned);
    tcase_add_test(tc, test_uuid_distinct);
    tcase_add_test(tc, test_protocol_names);
    tcase_add_test(tc, test_vrf_names);
    tcase_add_test(tc, test_nexthop_keys);
    tcase_add_test(tc, test_nexthop_key_rules);
    suite_add_tcase(s, tc);
    return s;
}
