/*
 * Copyright (c) 2026 The fibsync authors.
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

/* Check tests of daemons/orchd/orchd-route-table: orchd's routes without a
 * Route replica, and each next-hop group's users. */

#include <config.h>

#include <string.h>

#include "daemons/orchd/orchd-entry.h"
#include "tests/check/orchd-test-util.h"
#include "daemons/orchd/orchd-route-table.h"
#include "lib/fib-prefix.h"
#include "tests/check/suites.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

/* An entry for "10.N.0.0/16" in VRF "default", with no next hop. */
static struct orchd_entry *
entry(int n)
{
    struct fib_prefix prefix;
    char text[32];
    char *error;

    snprintf(text, sizeof text, "10.%d.0.0/16", n);
    error = fib_prefix_parse_strict(text, &prefix);
    ck_assert_ptr_null(error);
    return orchd_entry_create(test_entry_space(), "default", &prefix, ORCHD_ACTION_DROP, NULL,
                              NULL, 0);
}

/* Row UUID N. */
static struct uuid
row(int n)
{
    struct uuid u = { .parts = { n, 0, 0, 1 } };

    return u;
}

/* Counts the users of group 'id'. */
static size_t
n_users(const struct orchd_route_table *t, int64_t id)
{
    struct orchd_route *r;
    size_t n = 0;

    ORCHD_ROUTE_TABLE_FOR_EACH_USER (r, t, id) {
        ck_assert_int_eq(r->group, id);
        n++;
    }
    return n;
}

START_TEST(test_set_find_remove)
{
    struct orchd_route_table t;
    struct orchd_route *r;
    struct uuid u1 = row(1), u2 = row(2);

    orchd_route_table_init(&t);
    t.generation = 5;
    r = orchd_route_table_set(&t, &u1, entry(1), 0, false);
    ck_assert_ptr_eq(orchd_route_table_find(&t, &u1), r);
    ck_assert_ptr_null(orchd_route_table_find(&t, &u2));
    ck_assert_uint_eq(r->generation, 5);
    ck_assert(!r->waiting);

    /* Set again: the same route, its new entry and stamp. */
    t.generation = 6;
    ck_assert_ptr_eq(orchd_route_table_set(&t, &u1, entry(3), 0, true), r);
    ck_assert_uint_eq(orchd_route_table_count(&t), 1);
    ck_assert_uint_eq(r->generation, 6);
    ck_assert(r->waiting);
    ck_assert_int_eq(r->entry->prefix.len, 16);

    orchd_route_table_remove(&t, r);
    ck_assert_uint_eq(orchd_route_table_count(&t), 0);
    ck_assert_ptr_null(orchd_route_table_find(&t, &u1));
    orchd_route_table_destroy(&t);
}
END_TEST

START_TEST(test_group_users)
{
    struct orchd_route_table t;
    struct uuid u1 = row(1), u2 = row(2), u3 = row(3);
    struct orchd_route *r1, *r3;

    orchd_route_table_init(&t);
    r1 = orchd_route_table_set(&t, &u1, entry(1), 7, true);
    orchd_route_table_set(&t, &u2, entry(2), 7, false);
    r3 = orchd_route_table_set(&t, &u3, entry(3), 8, false);
    ck_assert_uint_eq(n_users(&t, 7), 2);
    ck_assert_uint_eq(n_users(&t, 8), 1);
    ck_assert_uint_eq(n_users(&t, 9), 0);

    /* A route moves to another group, and off any group. */
    orchd_route_table_set(&t, &u1, entry(1), 8, false);
    ck_assert_uint_eq(n_users(&t, 7), 1);
    ck_assert_uint_eq(n_users(&t, 8), 2);
    orchd_route_table_set(&t, &u2, entry(2), 0, false);
    ck_assert_uint_eq(n_users(&t, 7), 0);

    /* Removing the users empties the group. */
    orchd_route_table_remove(&t, r1);
    orchd_route_table_remove(&t, r3);
    ck_assert_uint_eq(n_users(&t, 8), 0);
    ck_assert(hmap_is_empty(&t.groups));
    ck_assert_uint_eq(orchd_route_table_count(&t), 1);
    orchd_route_table_destroy(&t);
}
END_TEST

/* An entry for 'prefix' in 'vrf'. */
static struct orchd_entry *
entry_for(const char *vrf, const char *prefix)
{
    struct fib_prefix p;
    char *error = fib_prefix_parse_strict(prefix, &p);

    ck_assert_ptr_null(error);
    return orchd_entry_create(test_entry_space(), vrf, &p, ORCHD_ACTION_DROP, NULL, NULL, 0);
}

/* The prefix of 'r' as text, or "-" for NULL. */
static const char *
prefix_of(const struct orchd_route *r)
{
    static char buf[FIB_PREFIX_STRLEN];

    if (!r) {
        return "-";
    }
    fib_prefix_format(&r->entry->prefix, buf);
    return buf;
}

/* Looks 'text' (an address or a prefix) up in 'vrf' by longest match. */
static const char *
lpm(const struct orchd_route_table *t, const char *vrf, const char *text)
{
    struct fib_prefix p;
    char *error = (strchr(text, '/') ? fib_prefix_parse(text, &p)
                   : fib_prefix_parse_addr(text, &p));

    ck_assert_ptr_null(error);
    return prefix_of(orchd_route_table_lpm(t, vrf, &p));
}

/* The prefixes of a walk, as "A B C". */
static char *
walk(struct orchd_route *r, struct orchd_route_cursor *c)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    for (; r; r = orchd_route_table_next(c)) {
        ds_put_format(&s, "%s%s", s.length ? " " : "", prefix_of(r));
    }
    return ds_steal_cstr(&s);
}

/* Fills 't' with routes in VRFs "default" and "red", in no order. */
static void
fill(struct orchd_route_table *t)
{
    static const char *const routes[][2] = {
        { "default", "10.1.0.0/16" }, { "default", "2001:db8::/32" },
        { "default", "10.0.0.0/8" }, { "red", "10.1.0.0/16" },
        { "default", "9.0.0.0/8" }, { "default", "10.1.2.0/24" },
        { "default", "0.0.0.0/0" }, { "default", "11.0.0.0/8" },
        { "default", "10.9.0.0/16" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(routes); i++) {
        struct uuid u = row(100 + i);

        orchd_route_table_set(t, &u, entry_for(routes[i][0], routes[i][1]),
                              0, false);
    }
}

START_TEST(test_index_lookup_lpm)
{
    struct orchd_route_table t;
    struct fib_prefix p;

    orchd_route_table_init(&t);
    fill(&t);
    /* Enabled after the routes came: they are indexed too. */
    orchd_route_table_enable_index(&t);
    ck_assert(orchd_route_table_has_index(&t));

    ck_assert_ptr_null(fib_prefix_parse("10.1.0.0/16", &p));
    ck_assert_str_eq(prefix_of(orchd_route_table_lookup(&t, "default", &p)),
                     "10.1.0.0/16");
    ck_assert_str_eq(prefix_of(orchd_route_table_lookup(&t, "red", &p)),
                     "10.1.0.0/16");
    ck_assert_ptr_null(orchd_route_table_lookup(&t, "blue", &p));
    ck_assert_ptr_null(fib_prefix_parse("10.1.0.0/17", &p));
    ck_assert_ptr_null(orchd_route_table_lookup(&t, "default", &p));

    ck_assert_str_eq(lpm(&t, "default", "10.1.2.3"), "10.1.2.0/24");
    ck_assert_str_eq(lpm(&t, "default", "10.1.3.3"), "10.1.0.0/16");
    ck_assert_str_eq(lpm(&t, "default", "10.200.0.1"), "10.0.0.0/8");
    ck_assert_str_eq(lpm(&t, "default", "12.0.0.1"), "0.0.0.0/0");
    ck_assert_str_eq(lpm(&t, "default", "10.1.0.0/20"), "10.1.0.0/16");
    ck_assert_str_eq(lpm(&t, "red", "10.1.9.9"), "10.1.0.0/16");
    ck_assert_str_eq(lpm(&t, "red", "10.2.0.1"), "-");
    ck_assert_str_eq(lpm(&t, "default", "2001:db8:1::1"), "2001:db8::/32");
    ck_assert_str_eq(lpm(&t, "default", "2001:db9::1"), "-");
    orchd_route_table_destroy(&t);
}
END_TEST

START_TEST(test_index_walks)
{
    struct orchd_route_table t;
    struct orchd_route_cursor c;
    struct fib_prefix p;
    char *s;

    orchd_route_table_init(&t);
    orchd_route_table_enable_index(&t);
    fill(&t);

    /* A VRF in prefix order, numeric, IPv4 before IPv6. */
    s = walk(orchd_route_table_first_vrf(&t, &c, "default"), &c);
    ck_assert_str_eq(s, "0.0.0.0/0 9.0.0.0/8 10.0.0.0/8 10.1.0.0/16 "
                     "10.1.2.0/24 10.9.0.0/16 11.0.0.0/8 2001:db8::/32");
    free(s);
    s = walk(orchd_route_table_first_vrf(&t, &c, "red"), &c);
    ck_assert_str_eq(s, "10.1.0.0/16");
    free(s);
    s = walk(orchd_route_table_first_vrf(&t, &c, "blue"), &c);
    ck_assert_str_eq(s, "");
    free(s);

    /* Within a prefix, itself included; a prefix with no route of its
     * own. */
    ck_assert_ptr_null(fib_prefix_parse("10.0.0.0/8", &p));
    s = walk(orchd_route_table_first_longer(&t, &c, "default", &p), &c);
    ck_assert_str_eq(s, "10.0.0.0/8 10.1.0.0/16 10.1.2.0/24 10.9.0.0/16");
    free(s);
    ck_assert_ptr_null(fib_prefix_parse("10.0.0.0/14", &p));
    s = walk(orchd_route_table_first_longer(&t, &c, "default", &p), &c);
    ck_assert_str_eq(s, "10.1.0.0/16 10.1.2.0/24");
    free(s);
    ck_assert_ptr_null(fib_prefix_parse("10.1.0.0/16", &p));
    s = walk(orchd_route_table_first_longer(&t, &c, "red", &p), &c);
    ck_assert_str_eq(s, "10.1.0.0/16");
    free(s);
    orchd_route_table_destroy(&t);
}
END_TEST

START_TEST(test_index_changes)
{
    struct orchd_route_table t;
    struct uuid u1 = row(1), u2 = row(2);
    struct orchd_route *r1, *r2;
    struct fib_prefix p;

    orchd_route_table_init(&t);
    orchd_route_table_enable_index(&t);
    ck_assert_ptr_null(fib_prefix_parse("10.0.0.0/8", &p));

    /* A row whose prefix changes in place moves in the index. */
    r1 = orchd_route_table_set(&t, &u1, entry_for("default", "10.0.0.0/8"),
                               0, false);
    orchd_route_table_set(&t, &u1, entry_for("default", "11.0.0.0/8"), 0,
                          false);
    ck_assert_ptr_null(orchd_route_table_lookup(&t, "default", &p));
    ck_assert_str_eq(lpm(&t, "default", "11.1.1.1"), "11.0.0.0/8");
    ck_assert_str_eq(lpm(&t, "default", "10.1.1.1"), "-");

    /* Two rows of one key, one inserted before the other is deleted:
     * removing the old leaves the new one indexed. */
    r2 = orchd_route_table_set(&t, &u2, entry_for("default", "11.0.0.0/8"),
                               0, false);
    orchd_route_table_remove(&t, r1);
    ck_assert_ptr_eq(orchd_route_table_lpm(&t, "default",
                                           &r2->entry->prefix), r2);

    /* Removed: gone from the index, and its length no longer probed. */
    orchd_route_table_remove(&t, r2);
    ck_assert_str_eq(lpm(&t, "default", "11.1.1.1"), "-");
    ck_assert_uint_eq(t.n_by_len[0][8], 0);
    orchd_route_table_destroy(&t);
}
END_TEST

START_TEST(test_origin)
{
    struct orchd_route_table t;
    struct uuid u1 = row(1), u2 = row(2);
    struct orchd_route *r1, *r2;

    orchd_route_table_init(&t);
    r1 = orchd_route_table_set(&t, &u1, entry(1), 0, false);
    ck_assert_str_eq(r1->protocol, "");
    r2 = orchd_route_table_set(&t, &u2, entry(2), 0, false);
    orchd_route_table_set_origin(&t, r1, "bgp", 20, 5);
    orchd_route_table_set_origin(&t, r2, "bgp", -1, INT64_MAX);
    /* One copy of each protocol name. */
    ck_assert_ptr_eq(r1->protocol, r2->protocol);
    ck_assert_uint_eq(r1->distance, 20);
    ck_assert_uint_eq(r1->metric, 5);
    ck_assert_uint_eq(r2->distance, 0);
    ck_assert_uint_eq(r2->metric, UINT32_MAX);
    orchd_route_table_destroy(&t);
}
END_TEST

Suite *
orchd_route_table_suite(void)
{
    Suite *s = suite_create("orchd_route_table");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_set_find_remove);
    tcase_add_test(tc, test_group_users);
    tcase_add_test(tc, test_index_lookup_lpm);
    tcase_add_test(tc, test_index_walks);
    tcase_add_test(tc, test_index_changes);
    tcase_add_test(tc, test_origin);
    suite_add_tcase(s, tc);
    return s;
}
