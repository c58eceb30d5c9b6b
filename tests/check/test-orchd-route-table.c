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

/* Check tests of daemons/orchd-route-table: orchd's routes without a
 * Route replica, and each next-hop group's users. */

#include <config.h>

#include "daemons/orchd-entry.h"
#include "daemons/orchd-route-table.h"
#include "lib/fib-prefix.h"
#include "tests/check/suites.h"
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
    return orchd_entry_create("default", &prefix, ORCHD_ACTION_DROP, NULL,
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

Suite *
orchd_route_table_suite(void)
{
    Suite *s = suite_create("orchd_route_table");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_set_find_remove);
    tcase_add_test(tc, test_group_users);
    suite_add_tcase(s, tc);
    return s;
}
