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

/* Check suite for lib/route-status: the Route.status mutates orchd and
 * fpmsyncd write, pinned to the text both wrote before they shared it. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/route-status.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "tests/check/suites.h"
#include "util.h"
#include "uuid.h"

/* The row every mutate below selects, and the start of such a mutate. */
#define ROW "8c2f0a51-5e3b-4d7a-9b1e-6f204a7c3d15"
#define MUTATE_START \
    ",{\"op\":\"mutate\",\"table\":\"Route\",\"where\":[[\"_uuid\"," \
    "\"==\",[\"uuid\",\"" ROW "\"]]],\"mutations\":["

/* Asserts that 's' is 'expected' and, without its leading comma, one JSON
 * object; then clears 's'. */
static void
check_ops(struct ds *s, const char *expected)
{
    struct json *j;

    ck_assert_str_eq(ds_cstr(s), expected);
    ck_assert(s->string[0] == ',');
    j = json_from_string(s->string + 1);
    ck_assert_msg(j->type == JSON_OBJECT, "%s", ds_cstr(s));
    json_destroy(j);
    ds_clear(s);
}

START_TEST(test_maps)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    route_status_put_map(&s, NULL);
    ck_assert_str_eq(ds_cstr(&s), "[\"map\",[[\"offload\",\"true\"]]]");
    ds_clear(&s);
    route_status_put_map(&s, "no route to \"x\"\n");
    ck_assert_str_eq(ds_cstr(&s),
                     "[\"map\",[[\"error\",\"no route to \\\"x\\\"\\n\"]]]");
    ds_destroy(&s);
}
END_TEST

START_TEST(test_mutates)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    struct uuid u;

    ck_assert(uuid_from_string(&u, ROW));

    route_status_put_offload(&s, &u);
    check_ops(&s, MUTATE_START
              "[\"status\",\"delete\",[\"set\",[\"error\"]]],"
              "[\"status\",\"insert\",[\"map\",[[\"offload\",\"true\"]]]]"
              "]}");

    route_status_put_error(&s, &u, "table \"full\"");
    check_ops(&s, MUTATE_START
              "[\"status\",\"delete\",[\"set\",[\"error\",\"offload\"]]],"
              "[\"status\",\"insert\",[\"map\",[[\"error\","
              "\"table \\\"full\\\"\"]]]]"
              "]}");

    route_status_put_clear(&s, &u);
    check_ops(&s, MUTATE_START
              "[\"status\",\"delete\",[\"set\",[\"error\"]]]"
              "]}");

    ds_destroy(&s);
}
END_TEST

Suite *
route_status_suite(void)
{
    Suite *s = suite_create("route_status");
    TCase *tc = tcase_create("route_status");

    tcase_add_test(tc, test_maps);
    tcase_add_test(tc, test_mutates);
    suite_add_tcase(s, tc);
    return s;
}
