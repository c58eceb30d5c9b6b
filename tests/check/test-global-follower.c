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

/* Check suite of lib/global-follower: the row as updates leave it, its
 * columns into settings, and a path chosen once. */

#include <config.h>

#include "lib/global-follower.h"
#include "lib/setting.h"
#include "openvswitch/json.h"
#include "ovsdb-cs.h"
#include "tests/check/suites.h"

/* Feeds 'gf' one change of the Global row: row 'json' (a JSON object of
 * columns) of 'type', in an update that replaces everything if 'clear'. */
static void
feed(struct global_follower *gf, enum ovsdb_cs_row_update_type type,
     const char *json, bool clear)
{
    struct json *row = json ? json_from_string(json) : NULL;
    struct ovsdb_cs_row_update ru = {
        .type = type,
        .columns = row ? json_object(row) : NULL,
    };
    struct ovsdb_cs_table_update tu = {
        .table_name = "Global",
        .row_updates = &ru,
        .n = 1,
    };

    global_follower_take_update(gf, &tu, clear);
    json_destroy(row);
}

START_TEST(test_global_follower_no_row)
{
    struct global_follower *gf = global_follower_create(NULL, NULL);
    struct setting s = SETTING_INITIALIZER("max_bulk_size", 1000);
    int64_t v;

    ck_assert(!global_follower_has_read(gf));
    ck_assert(!global_follower_is_connected(gf));
    /* First contents without a Global row: read, every column empty. */
    global_follower_take_update(gf, NULL, true);
    ck_assert(global_follower_has_read(gf));
    ck_assert(!global_follower_has_row(gf));
    ck_assert_uint_eq(global_follower_seqno(gf), 1);
    ck_assert(!global_follower_get_integer(gf, "max_bulk_size", &v));
    ck_assert(!global_follower_set_integer(gf, &s, "max_bulk_size"));
    ck_assert_int_eq(s.value, 1000);
    ck_assert_int_eq(s.source, SETTING_DEFAULT);
    /* An update without Global changes nothing. */
    global_follower_take_update(gf, NULL, false);
    ck_assert_uint_eq(global_follower_seqno(gf), 1);
    global_follower_destroy(gf);
}
END_TEST

START_TEST(test_global_follower_columns)
{
    struct global_follower *gf = global_follower_create(NULL, NULL);
    struct setting bulk = SETTING_INITIALIZER("max_bulk_size", 1000);
    struct setting zmq = SETTING_INITIALIZER("southbound_zmq", 0);
    unsigned int seqno;
    bool b;

    feed(gf, OVSDB_CS_ROW_INSERT,
         "{\"max_bulk_size\": 7, \"southbound_zmq\": true,"
         " \"sai_mode\": [\"set\", []], \"log_level\": \"dbg\","
         " \"other_config\": [\"map\", [[\"resolve_nexthops\", \"true\"]]]}",
         true);
    ck_assert(global_follower_has_row(gf));
    ck_assert(global_follower_set_integer(gf, &bulk, "max_bulk_size"));
    ck_assert_int_eq(bulk.value, 7);
    ck_assert_int_eq(bulk.source, SETTING_GLOBAL);
    ck_assert(global_follower_set_boolean(gf, &zmq, "southbound_zmq"));
    ck_assert_int_eq(zmq.value, 1);
    ck_assert(global_follower_get_boolean(gf, "southbound_zmq", &b) && b);
    ck_assert_ptr_null(global_follower_get_string(gf, "sai_mode"));
    ck_assert_str_eq(global_follower_get_string(gf, "log_level"), "dbg");
    ck_assert_str_eq(global_follower_get_map_string(gf, "other_config",
                                                    "resolve_nexthops"),
                     "true");
    ck_assert_ptr_null(global_follower_get_map_string(gf, "other_config",
                                                      "nothing"));

    /* The same row again (a reconnection) moves nothing; a change does. */
    seqno = global_follower_seqno(gf);
    feed(gf, OVSDB_CS_ROW_INSERT,
         "{\"max_bulk_size\": 7, \"southbound_zmq\": true,"
         " \"sai_mode\": [\"set\", []], \"log_level\": \"dbg\","
         " \"other_config\": [\"map\", [[\"resolve_nexthops\", \"true\"]]]}",
         true);
    ck_assert_uint_eq(global_follower_seqno(gf), seqno);
    feed(gf, OVSDB_CS_ROW_UPDATE,
         "{\"max_bulk_size\": [\"set\", []], \"southbound_zmq\": false}",
         false);
    ck_assert_uint_ne(global_follower_seqno(gf), seqno);
    /* An emptied column puts the setting back to its default. */
    ck_assert(global_follower_set_integer(gf, &bulk, "max_bulk_size"));
    ck_assert_int_eq(bulk.value, 1000);
    ck_assert_int_eq(bulk.source, SETTING_DEFAULT);
    ck_assert(global_follower_set_boolean(gf, &zmq, "southbound_zmq"));
    ck_assert_int_eq(zmq.value, 0);
    ck_assert_int_eq(zmq.source, SETTING_GLOBAL);

    /* Deleted: no row; inserted again: the new one. */
    seqno = global_follower_seqno(gf);
    feed(gf, OVSDB_CS_ROW_DELETE, NULL, false);
    ck_assert(!global_follower_has_row(gf));
    ck_assert_uint_ne(global_follower_seqno(gf), seqno);
    ck_assert(!global_follower_set_boolean(gf, &zmq, "southbound_zmq")
              || zmq.source == SETTING_DEFAULT);
    ck_assert_int_eq(zmq.source, SETTING_DEFAULT);
    feed(gf, OVSDB_CS_ROW_INSERT, "{\"max_bulk_size\": 9}", false);
    ck_assert(global_follower_set_integer(gf, &bulk, "max_bulk_size"));
    ck_assert_int_eq(bulk.value, 9);
    ck_assert_uint_eq(global_follower_n_updates(gf), 5);
    global_follower_destroy(gf);
}
END_TEST

START_TEST(test_global_follower_replaced)
{
    struct global_follower *gf = global_follower_create(NULL, NULL);
    struct json *a = json_from_string("{\"batch_size\": 3}");
    struct json *b = json_from_string("{\"batch_size\": 4}");
    struct ovsdb_cs_row_update ru[2] = {
        { .type = OVSDB_CS_ROW_DELETE, .columns = json_object(a) },
        { .type = OVSDB_CS_ROW_INSERT, .columns = json_object(b) },
    };
    struct ovsdb_cs_table_update tu = {
        .table_name = "Global", .row_updates = ru, .n = 2,
    };
    int64_t v;

    /* A transaction that replaces the row: the new one wins, whatever
     * the order of its row updates. */
    global_follower_take_update(gf, &tu, false);
    ck_assert(global_follower_get_integer(gf, "batch_size", &v));
    ck_assert_int_eq(v, 4);
    json_destroy(a);
    json_destroy(b);
    global_follower_destroy(gf);
}
END_TEST

START_TEST(test_global_follower_path)
{
    struct global_follower *gf = global_follower_create(NULL, NULL);
    struct setting zmq = SETTING_INITIALIZER("southbound_zmq", 0);
    struct setting cmd = SETTING_INITIALIZER("northbound_zmq", 0);
    struct global_follower_path path = { .chosen = false };
    struct global_follower_path cmd_path = { .chosen = false };
    struct json *schema = json_from_string(
        "{\"name\": \"Fibsync\", \"tables\": {\"Global\": {},"
        " \"Write_Mark\": {}}}");

    /* The command line chooses at once; Global must be read first. */
    setting_set_cmdline(&cmd, 1);
    ck_assert(global_follower_choose_path(gf, &cmd, &cmd_path));
    ck_assert(cmd_path.chosen && cmd_path.zmq);
    ck_assert(!global_follower_choose_path(gf, &zmq, &path));
    ck_assert(!path.chosen);
    ck_assert(!global_follower_path_outdated(&path, &zmq));

    global_follower_take_schema(gf, schema);
    json_destroy(schema);
    ck_assert(global_follower_has_table(gf, "Write_Mark"));
    ck_assert(!global_follower_has_table(gf, "Nothing"));

    feed(gf, OVSDB_CS_ROW_INSERT, "{\"southbound_zmq\": true}", true);
    global_follower_set_boolean(gf, &zmq, "southbound_zmq");
    ck_assert(global_follower_choose_path(gf, &zmq, &path));
    ck_assert(path.chosen && path.zmq);
    /* Chosen once: Global saying otherwise later outdates it. */
    feed(gf, OVSDB_CS_ROW_UPDATE, "{\"southbound_zmq\": false}", false);
    global_follower_set_boolean(gf, &zmq, "southbound_zmq");
    ck_assert(!global_follower_choose_path(gf, &zmq, &path));
    ck_assert(path.zmq);
    ck_assert(global_follower_path_outdated(&path, &zmq));
    global_follower_destroy(gf);
}
END_TEST

Suite *
global_follower_suite(void)
{
    Suite *s = suite_create("global_follower");
    TCase *tc = tcase_create("global_follower");

    tcase_add_test(tc, test_global_follower_no_row);
    tcase_add_test(tc, test_global_follower_columns);
    tcase_add_test(tc, test_global_follower_replaced);
    tcase_add_test(tc, test_global_follower_path);
    suite_add_tcase(s, tc);
    return s;
}
