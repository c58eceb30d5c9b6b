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

/* Check suite for lib/frr-route-json: FRR's "show ip route json". */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/frr-route-json.h"
#include "svec.h"
#include "tests/check/suites.h"
#include "util.h"

/* frr_route_json_cb: adds "VRF PREFIX" to the svec in 'aux'. */
static void
collect(const char *vrf, const char *prefix, void *aux)
{
    svec_add_nocopy(aux, xasprintf("%s %s", vrf, prefix));
}

/* Parses 'text' and asserts that it reports 'expected' (sorted lines). */
static void
check_routes(const char *text, bool all, const char *expected,
             struct frr_route_json_stats *stats)
{
    struct svec routes = SVEC_EMPTY_INITIALIZER;
    char *error = frr_route_json_parse(text, all, collect, &routes, stats);
    char *joined;

    ck_assert_msg(!error, "%s", error);

    /* The same, fed a byte at a time. */
    struct frr_route_json_reader rd;
    struct frr_route_json_stats stats2;
    struct svec routes2 = SVEC_EMPTY_INITIALIZER;

    frr_route_json_init(&rd, all, collect, &routes2);
    for (const char *p = text; *p; p++) {
        error = frr_route_json_feed(&rd, p, 1);
        ck_assert_msg(!error, "%s", error);
    }
    error = frr_route_json_finish(&rd, &stats2);
    ck_assert_msg(!error, "%s", error);
    frr_route_json_destroy(&rd);
    ck_assert(svec_equal(&routes, &routes2));
    ck_assert_int_eq(memcmp(stats, &stats2, sizeof stats2), 0);
    svec_destroy(&routes2);

    svec_sort(&routes);
    joined = svec_join(&routes, "\n", "");
    ck_assert_str_eq(joined, expected);
    free(joined);
    svec_destroy(&routes);
}

/* One VRF, FRR 8.4's shape: selected routes of protocols zebra sends over
 * FPM only. */
START_TEST(test_one_vrf)
{
    static const char text[] = "{\n\
  \"10.1.0.0/16\": [{\"prefix\": \"10.1.0.0/16\", \"protocol\": \"bgp\",\n\
      \"vrfName\": \"default\", \"selected\": true, \"installed\": true,\n\
      \"nexthops\": [{\"ip\": \"10.0.0.2\", \"interfaceName\": \"eth0\",\n\
                     \"active\": true, \"fib\": true}]},\n\
    {\"prefix\": \"10.1.0.0/16\", \"protocol\": \"ospf\",\n\
      \"vrfName\": \"default\", \"distance\": 110, \"nexthops\": []}],\n\
  \"10.0.0.0/24\": [{\"prefix\": \"10.0.0.0/24\",\n\
      \"protocol\": \"connected\", \"selected\": true}],\n\
  \"10.3.0.0/16\": [{\"prefix\": \"10.3.0.0/16\", \"protocol\": \"static\",\n\
      \"selected\": true}],\n\
  \"10.4.0.0/16\": [{\"protocol\": \"bgp\", \"selected\": false}]\n\
}";
    struct frr_route_json_stats stats;

    check_routes(text, false, "default 10.1.0.0/16\ndefault 10.3.0.0/16",
                 &stats);
    ck_assert_uint_eq(stats.n_routes, 2);
    ck_assert_uint_eq(stats.n_unselected, 2);
    ck_assert_uint_eq(stats.n_local, 1);
    ck_assert_uint_eq(stats.n_bad, 0);

    /* Asked for, zebra's own count too. */
    check_routes(text, true, "default 10.0.0.0/24\ndefault 10.1.0.0/16\n"
                 "default 10.3.0.0/16", &stats);
    ck_assert_uint_eq(stats.n_local, 0);
}
END_TEST

/* "vrf all": VRF names over prefix maps; a route's own vrfName wins. */
START_TEST(test_vrf_all)
{
    static const char text[] = "{\"default\": {\"10.1.0.0/16\": [\n\
    {\"protocol\": \"bgp\", \"selected\": true, \"vrfName\": \"default\"}]},\n\
  \"red\": {\"2001:db8::/32\": [{\"protocol\": \"bgp\",\n\
    \"selected\": true}], \"10.9.0.0/16\": [{\"protocol\": \"kernel\",\n\
    \"selected\": true}]}}";
    struct frr_route_json_stats stats;

    check_routes(text, false, "default 10.1.0.0/16\nred 2001:db8::/32",
                 &stats);
    ck_assert_uint_eq(stats.n_local, 1);
}
END_TEST

/* Entries that are not routes are counted and skipped, never fatal; text
 * that is not an object of prefixes is an error. */
START_TEST(test_bad_input)
{
    struct frr_route_json_stats stats;
    char *error;

    check_routes("{\"10.1.0.0/16\": [1, {\"selected\": true}, "
                 "{\"protocol\": 7}], \"x\": 3, \"red\": {\"y\": 4}, "
                 "\"10.2.0.0/16\": [{\"protocol\": \"bgp\", "
                 "\"selected\": true, \"vrfName\": 5}]}", false,
                 "default 10.2.0.0/16", &stats);
    ck_assert_uint_eq(stats.n_bad, 5);

    check_routes("{}", false, "", &stats);
    ck_assert_uint_eq(stats.n_routes, 0);

    static const char *const bad[] = {
        "", "[]", "\"text\"", "{\"10.1.0.0/16\": [", "% Unknown command",
        "{} x", "{\"a\" 1}", "{\"a\": [}", "{\"a\": [{\"b\": }]}",
        "{\"a\": 1,}x", "  ",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        error = frr_route_json_parse(bad[i], false, collect, NULL, &stats);
        ck_assert_msg(error != NULL, "\"%s\" accepted", bad[i]);
        free(error);
    }
}
END_TEST

Suite *
frr_route_json_suite(void)
{
    Suite *s = suite_create("frr_route_json");
    TCase *tc = tcase_create("frr_route_json");

    tcase_add_test(tc, test_one_vrf);
    tcase_add_test(tc, test_vrf_all);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
