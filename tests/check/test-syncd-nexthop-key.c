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

/*
 * Check suite for daemons/syncd/syncd-nexthop-key: next-hop keys and weights as
 * syncd's two sources spell them.
 */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-nexthop-key.h"
#include "tests/check/suites.h"
#include "util.h"

/* Parses 'key' with 'weight' and checks that it gives 'gateway' (NULL for
 * none) and 'ifname'. */
static void
check_good(const char *key, int64_t weight, const char *gateway,
           const char *ifname)
{
    struct syncd_nexthop nh;
    char *error = syncd_nexthop_key_parse(key, weight, &nh);

    ck_assert_msg(!error, "%s: %s", key, error);
    ck_assert_int_eq(nh.has_gateway, gateway != NULL);
    if (gateway) {
        sai_ip_address_t want;

        ck_assert(sai_util_ip_address_parse(gateway, &want));
        ck_assert(!memcmp(&nh.gateway, &want, sizeof want));
    }
    ck_assert_str_eq(nh.ifname, ifname);
    ck_assert_uint_eq(nh.weight, weight);
}

/* Parses 'key' with 'weight' and checks that it fails with 'message'. */
static void
check_bad(const char *key, int64_t weight, const char *message)
{
    struct syncd_nexthop nh;
    char *error = syncd_nexthop_key_parse(key, weight, &nh);

    ck_assert_msg(error, "%s parsed", key);
    ck_assert_str_eq(error, message);
    free(error);
}

START_TEST(test_keys)
{
    check_good("192.168.1.2@eth0", 1, "192.168.1.2", "eth0");
    check_good("192.168.1.2", 7, "192.168.1.2", "");
    check_good("@eth1", 1, NULL, "eth1");
    check_good("2001:db8::1@Ethernet4", 65535, "2001:db8::1", "Ethernet4");

    check_bad("192.168.1.2@", 1,
              "bad next hop \"192.168.1.2@\": empty interface name");
    check_bad("10.0.0.300@eth0", 1,
              "bad next hop \"10.0.0.300@eth0\": bad gateway address");
    check_bad("1.1.1.1@et h0", 1,
              "bad next hop \"1.1.1.1@et h0\": bad interface name");
    check_bad("", 1, "bad next hop \"\": empty key");
    check_bad("1.1.1.1@eth0", 0,
              "bad weight 0 for next hop \"1.1.1.1@eth0\"");
    check_bad("1.1.1.1@eth0", 65536,
              "bad weight 65536 for next hop \"1.1.1.1@eth0\"");
}
END_TEST

START_TEST(test_sets)
{
    struct syncd_nexthop nhs[2] = { { .weight = 0 } };
    char *error;

    error = syncd_nexthop_key_check_set(nhs, 0);
    ck_assert_str_eq(error, "packet_action forward without next hops");
    free(error);

    ck_assert_ptr_null(syncd_nexthop_key_parse("@eth0", 1, &nhs[0]));
    ck_assert_ptr_null(syncd_nexthop_key_check_set(nhs, 1));
    ck_assert_ptr_null(syncd_nexthop_key_parse("1.1.1.1", 1, &nhs[1]));
    error = syncd_nexthop_key_check_set(nhs, 2);
    ck_assert_str_eq(error, "a connected next hop (\"@IFNAME\") must be "
                     "the only next hop");
    free(error);

    ck_assert_ptr_null(syncd_nexthop_key_parse("2.2.2.2", 1, &nhs[0]));
    ck_assert_ptr_null(syncd_nexthop_key_check_set(nhs, 2));
}
END_TEST

Suite *
syncd_nexthop_key_suite(void)
{
    Suite *s = suite_create("syncd_nexthop_key");
    TCase *tc = tcase_create("keys");

    tcase_add_test(tc, test_keys);
    tcase_add_test(tc, test_sets);
    suite_add_tcase(s, tc);
    return s;
}
