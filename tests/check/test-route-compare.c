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

/* Check suite for lib/route-compare: route-check's comparison. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/route-compare.h"
#include "svec.h"
#include "tests/check/suites.h"
#include "util.h"

/* Runs route_compare_finish() on 'rc' with 'views' and asserts that the
 * differences, joined by newlines, are 'expected'. */
static void
check_diffs(struct route_compare *rc, unsigned int views,
            const char *expected)
{
    struct svec diffs = SVEC_EMPTY_INITIALIZER;
    char *joined;

    route_compare_finish(rc, views, &diffs);
    joined = svec_join(&diffs, "\n", "");
    ck_assert_str_eq(joined, expected);
    free(joined);
    svec_destroy(&diffs);
}

/* Equal forwardings are one object, whatever the order of next hops;
 * different weights, keys or actions are not. */
START_TEST(test_fwd_interned)
{
    struct route_compare *rc = route_compare_create();
    struct route_compare_nh ab[] = { { "10.0.0.1@eth0", 2 },
                                     { "10.0.0.2@eth1", 3 } };
    struct route_compare_nh ba[] = { { "10.0.0.2@eth1", 3 },
                                     { "10.0.0.1@eth0", 2 } };
    struct route_compare_nh ba4[] = { { "10.0.0.2@eth1", 4 },
                                      { "10.0.0.1@eth0", 2 } };
    const struct route_compare_fwd *f1, *f2;

    f1 = route_compare_fwd(rc, "forward", ab, 2, true);
    f2 = route_compare_fwd(rc, "forward", ba, 2, true);
    ck_assert_ptr_eq(f1, f2);
    ck_assert_ptr_ne(f1, route_compare_fwd(rc, "forward", ba4, 2, true));
    ck_assert_ptr_ne(f1, route_compare_fwd(rc, "forward", ab, 1, true));
    ck_assert_str_eq(route_compare_fwd_format(
                         CONST_CAST(struct route_compare_fwd *, f1)),
                     "forward via 10.0.0.1@eth0 weight 2, "
                     "10.0.0.2@eth1 weight 3");

    /* Next hops mean nothing without "forward". */
    ck_assert_ptr_eq(route_compare_fwd(rc, "drop", ab, 2, true),
                     route_compare_fwd(rc, "drop", NULL, 0, true));
    ck_assert_ptr_ne(route_compare_fwd(rc, "drop", NULL, 0, true),
                     route_compare_fwd(rc, "trap", NULL, 0, true));
    ck_assert_str_eq(route_compare_fwd_format(CONST_CAST(
                         struct route_compare_fwd *,
                         route_compare_fwd(rc, "trap", NULL, 0, true))),
                     "trap");
    /* "forward" with no next hop at all, as Python printed it. */
    ck_assert_str_eq(route_compare_fwd_format(CONST_CAST(
                         struct route_compare_fwd *,
                         route_compare_fwd(rc, "forward", NULL, 0, true))),
                     "forward via ");
    route_compare_destroy(rc);
}
END_TEST

/* A lone next hop weighs 1 as orchd makes it, but not as the FIB says. */
START_TEST(test_fwd_lone_weight)
{
    struct route_compare *rc = route_compare_create();
    struct route_compare_nh one5[] = { { "10.0.0.1@eth0", 5 } };
    struct route_compare_nh one1[] = { { "10.0.0.1@eth0", 1 } };

    ck_assert_ptr_eq(route_compare_fwd(rc, "forward", one5, 1, true),
                     route_compare_fwd(rc, "forward", one1, 1, true));
    ck_assert_ptr_ne(route_compare_fwd(rc, "forward", one5, 1, false),
                     route_compare_fwd(rc, "forward", one1, 1, true));
    route_compare_destroy(rc);
}
END_TEST

/* Every kind of difference, fed in an order other than route-check's. */
START_TEST(test_every_difference)
{
    struct route_compare *rc = route_compare_create();
    struct route_compare_nh a[] = { { "10.0.0.1@eth0", 1 } };
    struct route_compare_nh b[] = { { "10.0.0.2@eth0", 1 } };
    const struct route_compare_fwd *fa, *fb, *drop;

    fa = route_compare_fwd(rc, "forward", a, 1, true);
    fb = route_compare_fwd(rc, "forward", b, 1, true);
    drop = route_compare_fwd(rc, "drop", NULL, 0, true);

    /* The FIB and Asic_Route first: order does not matter. */
    route_compare_fib(rc, "default", "10.1.0.0/16", fa);
    route_compare_fib(rc, "default", "10.2.0.0/16", fb);
    route_compare_fib(rc, "default", "10.9.0.0/16", fa);
    route_compare_fib(rc, "default", "10.1.0.0/16", fb); /* Counts once. */
    route_compare_asic(rc, "default", "10.1.0.0/16", fa, "programmed",
                       7, 7, NULL);
    route_compare_asic(rc, "default", "10.2.0.0/16", drop, "error", 8, 3,
                       "SAI_STATUS_FAILURE");
    route_compare_asic(rc, "red", "10.1.0.0/16", fa, NULL, 9, 0, "");
    route_compare_asic(rc, "default", "10.8.0.0/16", fa, "programmed",
                       1, 1, NULL);

    route_compare_route(rc, "default", "10.1.0.0/16", fa);
    route_compare_route(rc, "default", "10.2.0.0/16", fa);
    route_compare_route(rc, "red", "10.1.0.0/16", fa);
    route_compare_route(rc, "default", "10.3.0.0/16", drop);
    route_compare_unresolved(rc, "default", "10.8.0.0/16", 42);

    ck_assert_uint_eq(route_compare_n_asic(rc), 4);
    ck_assert_uint_eq(route_compare_n_fib(rc), 3);
    check_diffs(rc, ROUTE_COMPARE_FIB, "\
differs-asic default 10.2.0.0/16: Asic_Route has drop, route wants \
forward via 10.0.0.1@eth0 weight 1\n\
differs-fib default 10.2.0.0/16: FIB has forward via 10.0.0.2@eth0 \
weight 1, route wants forward via 10.0.0.1@eth0 weight 1\n\
extra-asic default 10.8.0.0/16\n\
extra-fib default 10.9.0.0/16\n\
missing-asic default 10.3.0.0/16\n\
missing-fib default 10.3.0.0/16\n\
missing-fib red 10.1.0.0/16\n\
unprogrammed default 10.2.0.0/16: state error, seq 8, applied 3, error \
SAI_STATUS_FAILURE\n\
unprogrammed red 10.1.0.0/16: state none, seq 9, applied 0\n\
unresolved default 10.8.0.0/16: next-hop group 42 unknown");
    route_compare_destroy(rc);
}
END_TEST

/* Without the FIB view, FIB entries make no difference. */
START_TEST(test_no_fib)
{
    struct route_compare *rc = route_compare_create();
    const struct route_compare_fwd *trap;

    trap = route_compare_fwd(rc, "trap", NULL, 0, true);
    route_compare_route(rc, "default", "10.1.0.0/16", trap);
    route_compare_asic(rc, "default", "10.1.0.0/16", trap, "programmed",
                       1, 1, NULL);
    check_diffs(rc, 0, "");
    route_compare_destroy(rc);
}
END_TEST

/* An Asic_Route row read twice (slices read while orchd rewrote it) is
 * one row, its newer version. */
START_TEST(test_asic_reread)
{
    struct route_compare *rc = route_compare_create();
    const struct route_compare_fwd *drop;

    drop = route_compare_fwd(rc, "drop", NULL, 0, true);
    route_compare_route(rc, "default", "10.1.0.0/16", drop);
    route_compare_asic(rc, "default", "10.1.0.0/16", drop, "pending",
                       5, 4, NULL);
    route_compare_asic(rc, "default", "10.1.0.0/16", drop, "programmed",
                       9, 9, NULL);
    route_compare_asic(rc, "default", "10.1.0.0/16", drop, "pending",
                       5, 4, "stale");
    ck_assert_uint_eq(route_compare_n_asic(rc), 1);
    check_diffs(rc, 0, "");
    route_compare_destroy(rc);
}
END_TEST

/* FRR against Route rows: missing-route and extra-route, by VRF. */
START_TEST(test_frr)
{
    struct route_compare *rc = route_compare_create();
    const struct route_compare_fwd *drop;

    drop = route_compare_fwd(rc, "drop", NULL, 0, true);
    route_compare_route(rc, "default", "10.1.0.0/16", drop);
    route_compare_route(rc, "default", "10.2.0.0/16", drop);
    route_compare_unresolved(rc, "default", "10.4.0.0/16", 3);
    route_compare_asic(rc, "default", "10.1.0.0/16", drop, "programmed",
                       1, 1, NULL);
    route_compare_asic(rc, "default", "10.2.0.0/16", drop, "programmed",
                       2, 2, NULL);
    route_compare_frr(rc, "default", "10.1.0.0/16");
    route_compare_frr(rc, "default", "10.1.0.0/16");
    route_compare_frr(rc, "red", "10.2.0.0/16");
    route_compare_frr(rc, "default", "10.3.0.0/16");
    route_compare_frr(rc, "default", "10.4.0.0/16");
    ck_assert_uint_eq(route_compare_n_frr(rc), 4);
    check_diffs(rc, ROUTE_COMPARE_FRR, "\
extra-route default 10.2.0.0/16\n\
missing-route default 10.3.0.0/16\n\
missing-route red 10.2.0.0/16\n\
unresolved default 10.4.0.0/16: next-hop group 3 unknown");
    route_compare_destroy(rc);
}
END_TEST

Suite *
route_compare_suite(void)
{
    Suite *s = suite_create("route_compare");
    TCase *tc = tcase_create("route_compare");

    tcase_add_test(tc, test_fwd_interned);
    tcase_add_test(tc, test_fwd_lone_weight);
    tcase_add_test(tc, test_every_difference);
    tcase_add_test(tc, test_no_fib);
    tcase_add_test(tc, test_asic_reread);
    tcase_add_test(tc, test_frr);
    suite_add_tcase(s, tc);
    return s;
}
