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

/* Check suite of lib/ovsdb-wire: operations built as trees and as text
 * say the same thing, values of the wrong shape are refused, and
 * transact replies are checked the way ovsdb-server reports errors. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "jsonrpc.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "tests/check/suites.h"
#include "util.h"
#include "uuid.h"

static const char U[] = "0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d";

/* Returns 'json' as sorted text, and destroys it. */
static char *
text_of(struct json *json)
{
    char *s = json_to_string(json, JSSF_SORT);

    json_destroy(json);
    return s;
}

/* Returns the sorted text of the JSON in 's'. */
static char *
reparse(const char *s)
{
    struct json *json = json_from_string(s);

    ck_assert_msg(json->type != JSON_STRING, "%s does not parse", s);
    return text_of(json);
}

START_TEST(test_wire_text_matches_tree)
{
    struct uuid u;
    struct ds s = DS_EMPTY_INITIALIZER;
    char *a, *b;

    ck_assert(uuid_from_string(&u, U));

    /* An update, as text and as a tree. */
    ovsdb_wire_put_op_start(&s, "update", "Route", &u);
    ds_put_cstr(&s, ",\"row\":{\"protocol\":\"bgp\"}}");
    struct json *row = json_object_create();
    json_object_put_string(row, "protocol", "bgp");
    a = reparse(ds_cstr(&s));
    b = text_of(ovsdb_wire_op_update("Route", &u, row));
    ck_assert_str_eq(a, b);
    free(a);
    free(b);

    /* An insert with a chosen uuid. */
    ds_clear(&s);
    ovsdb_wire_put_op_start(&s, "insert", "Vrf", &u);
    ds_put_cstr(&s, ",\"row\":{}}");
    a = reparse(ds_cstr(&s));
    b = text_of(ovsdb_wire_op_insert("Vrf", &u, json_object_create()));
    ck_assert_str_eq(a, b);
    free(a);
    free(b);

    /* A delete. */
    ds_clear(&s);
    ovsdb_wire_put_op_start(&s, "delete", "Nexthop_Group", &u);
    ds_put_char(&s, '}');
    a = reparse(ds_cstr(&s));
    b = text_of(ovsdb_wire_op_delete("Nexthop_Group", &u));
    ck_assert_str_eq(a, b);
    free(a);
    free(b);

    /* Numbers. */
    ds_clear(&s);
    ovsdb_wire_put_uint(&s, 0);
    ds_put_char(&s, ' ');
    ovsdb_wire_put_uint(&s, UINT64_MAX);
    ck_assert_str_eq(ds_cstr(&s), "0 18446744073709551615");
    ds_destroy(&s);
}
END_TEST

/* A select asks for no order (an empty "sort"), names the columns asked
 * for, and matches every row unless told otherwise. */
START_TEST(test_wire_op_select)
{
    char *a = text_of(ovsdb_wire_op_select("Route", NULL,
                                           " _uuid  vrf prefix "));
    ck_assert_str_eq(a, "{\"columns\":[\"_uuid\",\"vrf\",\"prefix\"],"
                     "\"op\":\"select\",\"sort\":[],\"table\":\"Route\","
                     "\"where\":[]}");
    free(a);

    a = text_of(ovsdb_wire_op_select(
                    "Asic_Route", json_from_string("[[\"seq\",\">=\",5]]"),
                    NULL));
    ck_assert_str_eq(a, "{\"op\":\"select\",\"sort\":[],"
                     "\"table\":\"Asic_Route\","
                     "\"where\":[[\"seq\",\">=\",5]]}");
    free(a);
}
END_TEST

START_TEST(test_wire_decode)
{
    struct json *j;
    struct uuid u;
    int64_t v;

    j = json_from_string("[\"set\",[42]]");
    ck_assert(ovsdb_wire_get_integer(j, &v));
    ck_assert_int_eq(v, 42);
    json_destroy(j);

    j = json_integer_create(7);
    ck_assert(ovsdb_wire_get_integer(j, &v));
    ck_assert_int_eq(v, 7);
    json_destroy(j);

    /* Empty, several, or of the wrong type: nothing. */
    static const char *const empty[] = {
        "[\"set\",[]]", "[\"set\",[1,2]]", "\"x\"", "[\"map\",[]]",
        "[\"set\"]", "[]",
    };
    for (size_t i = 0; i < ARRAY_SIZE(empty); i++) {
        j = json_from_string(empty[i]);
        ck_assert_msg(!ovsdb_wire_get_integer(j, &v), "%s", empty[i]);
        json_destroy(j);
    }
    ck_assert(!ovsdb_wire_get_integer(NULL, &v));

    j = json_from_string("[\"set\",[\"vrf1\"]]");
    ck_assert_str_eq(ovsdb_wire_get_string(j), "vrf1");
    json_destroy(j);

    j = ovsdb_wire_uuid(&(struct uuid) { .parts = { 1, 2, 3, 4 } });
    ck_assert(ovsdb_wire_get_uuid(j, &u));
    ck_assert_int_eq(u.parts[3], 4);
    json_destroy(j);

    j = json_from_string("[\"map\",[[\"offload\",\"true\"],"
                         "[\"error\",\"SAI_STATUS_FAILURE\"],"
                         "[\"n\",1]]]");
    ck_assert_str_eq(ovsdb_wire_map_get_string(j, "offload"), "true");
    ck_assert_str_eq(ovsdb_wire_map_get_string(j, "error"),
                     "SAI_STATUS_FAILURE");
    ck_assert_ptr_null(ovsdb_wire_map_get_string(j, "n"));
    ck_assert_ptr_null(ovsdb_wire_map_get_string(j, "other"));
    json_destroy(j);
    static const char *const not_maps[] = {
        "[\"set\",[[\"offload\",\"true\"]]]", "[\"map\"]", "\"x\"",
        "[\"map\",[\"offload\",\"true\"]]",
    };
    for (size_t i = 0; i < ARRAY_SIZE(not_maps); i++) {
        j = json_from_string(not_maps[i]);
        ck_assert_msg(!ovsdb_wire_map_get_string(j, "offload"), "%s",
                      not_maps[i]);
        json_destroy(j);
    }
    ck_assert_ptr_null(ovsdb_wire_map_get_string(NULL, "offload"));

    static const char *const bad_uuids[] = {
        "[\"uuid\",\"nope\"]", "[\"named-uuid\",\"x\"]", "[\"uuid\"]",
        "\"0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d\"",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad_uuids); i++) {
        j = json_from_string(bad_uuids[i]);
        ck_assert_msg(!ovsdb_wire_get_uuid(j, &u), "%s", bad_uuids[i]);
        json_destroy(j);
    }
}
END_TEST

/* Returns the error ovsdb_wire_reply_error() finds in a reply whose
 * result is 'result' (JSON text), for 'n_ops' operations. */
static char *
reply_error(const char *result, size_t n_ops, size_t *failed_op)
{
    struct json *id = json_integer_create(1);
    struct jsonrpc_msg *msg = jsonrpc_create_reply(json_from_string(result),
                                                   id);
    char *error = ovsdb_wire_reply_error(msg, n_ops, failed_op);

    jsonrpc_msg_destroy(msg);
    json_destroy(id);
    return error;
}

/* A schema's tables, never trusting its shape. */
START_TEST(test_wire_schema_has_table)
{
    struct json *schema = json_from_string(
        "{\"name\": \"Fibsync\", \"tables\": {\"Route\": {}, "
        "\"Write_Mark\": {}}}");
    struct json *old = json_from_string(
        "{\"name\": \"Fibsync\", \"tables\": {\"Route\": {}}}");
    struct json *bad = json_from_string("{\"tables\": [\"Write_Mark\"]}");

    ck_assert(ovsdb_wire_schema_has_table(schema, "Write_Mark"));
    ck_assert(ovsdb_wire_schema_has_table(schema, "Route"));
    ck_assert(!ovsdb_wire_schema_has_table(old, "Write_Mark"));
    ck_assert(!ovsdb_wire_schema_has_table(bad, "Write_Mark"));
    ck_assert(!ovsdb_wire_schema_has_table(NULL, "Write_Mark"));
    json_destroy(schema);
    json_destroy(old);
    json_destroy(bad);
}
END_TEST

START_TEST(test_wire_reply_error)
{
    size_t failed;
    char *error;

    ck_assert_ptr_null(reply_error("[{\"count\":1},{\"uuid\":[\"uuid\","
                                   "\"0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d"
                                   "\"]}]", 2, &failed));
    ck_assert_uint_eq(failed, SIZE_MAX);

    /* The second operation failed. */
    error = reply_error("[{\"count\":1},{\"error\":\"constraint violation\","
                        "\"details\":\"no row\"},null]", 3, &failed);
    ck_assert_str_eq(error, "operation 1 of 3: \"constraint violation\": "
                     "\"no row\"");
    ck_assert_uint_eq(failed, 1);
    free(error);

    /* The commit failed, after every operation. */
    error = reply_error("[{\"count\":1},{\"error\":\"referential integrity "
                        "violation\"}]", 1, &failed);
    ck_assert(strstr(error, "operation 1 of 1"));
    ck_assert_uint_eq(failed, SIZE_MAX);
    free(error);

    /* Too few results, not an array. */
    error = reply_error("[{\"count\":1}]", 2, NULL);
    ck_assert_str_eq(error, "1 results for 2 operations");
    free(error);
    error = reply_error("{}", 1, NULL);
    ck_assert(strstr(error, "bad reply"));
    free(error);

    /* A JSON-RPC error. */
    struct json *id = json_integer_create(2);
    struct jsonrpc_msg *msg = jsonrpc_create_error(
        json_string_create("unknown database"), id);
    error = ovsdb_wire_reply_error(msg, 1, &failed);
    ck_assert_str_eq(error, "transaction error: \"unknown database\"");
    free(error);
    jsonrpc_msg_destroy(msg);
    json_destroy(id);

    /* Row counts. */
    struct json *r = json_from_string("{\"count\":0}");
    ck_assert_uint_eq(ovsdb_wire_result_count(r), 0);
    json_destroy(r);
    ck_assert_uint_eq(ovsdb_wire_result_count(NULL), 1);
}
END_TEST

Suite *
ovsdb_wire_suite(void)
{
    Suite *s = suite_create("ovsdb_wire");
    TCase *tc = tcase_create("ovsdb_wire");

    tcase_add_test(tc, test_wire_text_matches_tree);
    tcase_add_test(tc, test_wire_decode);
    tcase_add_test(tc, test_wire_schema_has_table);
    tcase_add_test(tc, test_wire_op_select);
    tcase_add_test(tc, test_wire_reply_error);
    suite_add_tcase(s, tc);
    return s;
}
