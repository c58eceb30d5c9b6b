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

/* Check suite for lib/ovsdb-file-replay: database files written record by
 * record as ovsdb/log.c frames them ("OVSDB JSON LEN SHA1\n" JSON "\n";
 * the replay does not verify the SHA-1), replayed and their rows
 * compared.  tests/route-check.at replays files that a real ovsdb-server
 * wrote. */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/ovsdb-file-replay.h"
#include "lib/ovsdb-file-replay-value.h"
#include "openvswitch/dynamic-string.h"
#include "tests/check/suites.h"
#include "util.h"
#include "uuid.h"

/* Two tables: T (every kind of column) and U (never kept). */
static const char SCHEMA[] =
    "{\"name\":\"Test\",\"version\":\"1.0.0\",\"tables\":{"
    "\"T\":{\"columns\":{"
    "\"s\":{\"type\":\"string\"},"
    "\"i\":{\"type\":{\"key\":{\"type\":\"integer\",\"minInteger\":0}}},"
    "\"b\":{\"type\":\"boolean\"},"
    "\"m\":{\"type\":{\"key\":\"string\",\"value\":\"integer\","
    "\"min\":0,\"max\":\"unlimited\"}},"
    "\"o\":{\"type\":{\"key\":\"integer\",\"min\":0,\"max\":1}},"
    "\"set\":{\"type\":{\"key\":\"string\",\"min\":0,\"max\":\"unlimited\"}},"
    "\"skip\":{\"type\":\"string\"}}},"
    "\"U\":{\"columns\":{\"x\":{\"type\":\"integer\"}}}}}";

static const char *const T_COLS[] = { "s", "i", "b", "m", "o", "set" };

#define U1 "\"11111111-1111-1111-1111-111111111111\""
#define U2 "\"22222222-2222-2222-2222-222222222222\""
#define U3 "\"33333333-3333-3333-3333-333333333333\""

/* Appends a record holding 'json' to 's', framed as ovsdb/log.c frames
 * it. */
static void
put_record(struct ds *s, const char *json)
{
    ds_put_format(s, "OVSDB JSON %"PRIuSIZE" %040d\n%s\n",
                  strlen(json) + 1, 0, json);
}

/* Writes 'text' to a new temporary file and returns its name. */
static char *
write_file(const struct ds *text)
{
    char *name = xstrdup("/tmp/test-ovsdb-file-replay.XXXXXX");
    int fd = mkstemp(name);

    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text->string, text->length), text->length);
    close(fd);
    return name;
}

/* ovsdb_file_replay_row_cb: appends the row's values, space-separated, and
 * a newline, to the ds 'out_'. */
static void
row_text(const struct uuid *uuid OVS_UNUSED,
         const struct ovsdb_file_replay_value *v, void *out_)
{
    struct ds *out = out_;

    for (size_t i = 0; i < ARRAY_SIZE(T_COLS); i++) {
        ds_put_format(out, "%s%.*s", i ? " " : "", (int) v[i].len, v[i].s);
    }
    ds_put_char(out, '\n');
}

/* Replays 'text' keeping T's columns T_COLS.  Returns NULL and the rows'
 * text in 'rows', or the error.  Stores T's arena counts
 * (ovsdb_file_replay_get_arena_counts()) in '*filled' and '*apart' if
 * nonnull. */
static char *
replay_counted(const struct ds *text, struct ds *rows, uint64_t *filled,
               uint64_t *apart)
{
    struct ovsdb_file_replay *r = ovsdb_file_replay_create();
    size_t t = ovsdb_file_replay_add_table(r, "T", T_COLS,
                                           ARRAY_SIZE(T_COLS));
    char *name = write_file(text);
    char *error = ovsdb_file_replay_read(r, name);

    ds_clear(rows);
    if (!error) {
        ovsdb_file_replay_for_each(r, t, row_text, rows);
    }
    if (filled) {
        ovsdb_file_replay_get_arena_counts(r, t, filled, apart);
    }
    ovsdb_file_replay_destroy(r);
    unlink(name);
    free(name);
    return error;
}

/* replay_counted() without the counts. */
static char *
replay(const struct ds *text, struct ds *rows)
{
    return replay_counted(text, rows, NULL, NULL);
}

START_TEST(test_insert_modify_delete)
{
    struct ds f = DS_EMPTY_INITIALIZER, rows = DS_EMPTY_INITIALIZER;

    put_record(&f, SCHEMA);
    /* Inserts: every column, then none (all defaults); U and "skip" are
     * not kept. */
    put_record(&f, "{\"_date\":1,\"T\":{" U1 ":{\"s\":\"a\",\"i\":7,"
               "\"b\":true,\"m\":[\"map\",[[\"k1\",1],[\"k2\",2]]],\"o\":5,"
               "\"set\":[\"set\",[\"x\",\"y\"]],\"skip\":\"zz\"},"
               U2 ":{}},\"U\":{" U3 ":{\"x\":1}},\"_comment\":\"c\"}");
    /* A modification as diffs, "_is_diff" after the table: k1 removed
     * (same value), k2 changed, k3 added; "y" removed from the set; the
     * scalars replaced; o emptied. */
    put_record(&f, "{\"T\":{" U1 ":{\"s\":\"b\",\"i\":8,"
               "\"m\":[\"map\",[[\"k1\",1],[\"k2\",5],[\"k3\",3]]],"
               "\"o\":[\"set\",[]],\"set\":\"y\"}},\"_is_diff\":true}");
    /* A diff to a default (empty) map is its value. */
    put_record(&f, "{\"_is_diff\":true,\"T\":{" U2 ":{"
               "\"m\":[\"map\",[[\"k9\",9]]]}}}");
    ck_assert_ptr_null(replay(&f, &rows));
    /* A diff applied is written back as OVS writes a value: a set of one
     * as its atom. */
    ck_assert_str_eq(ds_cstr(&rows),
                     "\"b\" 8 true [\"map\",[[\"k2\",5],[\"k3\",3]]] "
                     "[\"set\",[]] \"x\"\n"
                     "\"\" 0 false [\"map\",[[\"k9\",9]]] [\"set\",[]] "
                     "[\"set\",[]]\n");

    /* Without "_is_diff", a map written is the whole new value. */
    put_record(&f, "{\"T\":{" U2 ":{\"m\":[\"map\",[[\"k8\",8]]]}}}");
    /* A deleted row is gone; one inserted again comes last. */
    put_record(&f, "{\"T\":{" U1 ":null}}");
    put_record(&f, "{\"T\":{" U3 ":{\"s\":\"c\"}}}");
    ck_assert_ptr_null(replay(&f, &rows));
    ck_assert_str_eq(ds_cstr(&rows),
                     "\"\" 0 false [\"map\",[[\"k8\",8]]] [\"set\",[]] "
                     "[\"set\",[]]\n"
                     "\"c\" 0 false [\"map\",[]] [\"set\",[]] "
                     "[\"set\",[]]\n");
    ds_destroy(&f);
    ds_destroy(&rows);
}
END_TEST

/* ovsdb_file_replay_row_cb: appends the row's UUID and a newline to the
 * ds 'out_'. */
static void
row_uuid(const struct uuid *uuid,
         const struct ovsdb_file_replay_value *v OVS_UNUSED, void *out_)
{
    ds_put_format(out_, UUID_FMT"\n", UUID_ARGS(uuid));
}

/* The file read a few bytes at a time, records cut across the reads, gives
 * the same rows as read at once, and each row's UUID. */
START_TEST(test_read_in_pieces)
{
    struct ds f = DS_EMPTY_INITIALIZER, rows = DS_EMPTY_INITIALIZER;
    struct ds whole = DS_EMPTY_INITIALIZER;

    put_record(&f, SCHEMA);
    for (int i = 0; i < 40; i++) {
        char *json = xasprintf("{\"T\":{\"%08x-1111-1111-1111-111111111111"
                               "\":{\"s\":\"row %d\",\"i\":%d,\"m\":"
                               "[\"map\",[[\"k\",%d]]]}}}", i, i, i, i);
        put_record(&f, json);
        free(json);
    }
    put_record(&f, "{\"T\":{\"00000003-1111-1111-1111-111111111111\":null,"
               "\"00000004-1111-1111-1111-111111111111\":{\"s\":\"four\"}}}");
    ck_assert_ptr_null(replay(&f, &whole));
    for (size_t chunk = 1; chunk < 300; chunk += 37) {
        /* Values in blocks of 256 bytes, so many, freed as they empty. */
        ovsdb_file_replay_set_test_sizes(chunk, 8, 0);
        ck_assert_ptr_null(replay(&f, &rows));
        ck_assert_str_eq(ds_cstr(&rows), ds_cstr(&whole));
    }
    ovsdb_file_replay_set_test_sizes(0, 8, 0);
    ck_assert(strstr(ds_cstr(&whole), "\"four\" 4 false"));
    ck_assert(!strstr(ds_cstr(&whole), "\"row 3\""));

    /* The UUIDs, in the order inserted. */
    struct ovsdb_file_replay *r = ovsdb_file_replay_create();
    size_t t = ovsdb_file_replay_add_table(r, "T", T_COLS,
                                           ARRAY_SIZE(T_COLS));
    char *name = write_file(&f);

    ck_assert_ptr_null(ovsdb_file_replay_read(r, name));
    ds_clear(&rows);
    ovsdb_file_replay_for_each(r, t, row_uuid, &rows);
    ck_assert_uint_eq(ovsdb_file_replay_n_rows(r, t), 39);
    ck_assert(!strncmp(ds_cstr(&rows),
                       "00000000-1111-1111-1111-111111111111\n"
                       "00000001-1111-1111-1111-111111111111\n"
                       "00000002-1111-1111-1111-111111111111\n"
                       "00000004-1111-1111-1111-111111111111\n", 148));
    /* Consumed: the same rows, then none. */
    struct ds again = DS_EMPTY_INITIALIZER;

    ovsdb_file_replay_consume(r, t, row_uuid, &again);
    ck_assert_str_eq(ds_cstr(&again), ds_cstr(&rows));
    ck_assert_uint_eq(ovsdb_file_replay_n_rows(r, t), 0);
    ds_clear(&again);
    ovsdb_file_replay_for_each(r, t, row_uuid, &again);
    ck_assert_str_eq(ds_cstr(&again), "");
    ds_destroy(&again);
    ovsdb_file_replay_set_test_sizes(0, 0, 0);
    ovsdb_file_replay_destroy(r);
    unlink(name);
    free(name);
    ds_destroy(&f);
    ds_destroy(&rows);
    ds_destroy(&whole);
}
END_TEST

/* A file of much churn: one row's map written again and again, as whole
 * values and as diffs, and rows inserted and deleted, with values in
 * blocks of 256 bytes of which a table may have only 4 at once.  The
 * blocks of values overwritten are used again (many more are filled than
 * 4, and no value is kept apart), and with 1 block the values that do
 * not fit are kept apart: the rows are the same as with the default
 * sizes. */
START_TEST(test_churn)
{
    struct ds f = DS_EMPTY_INITIALIZER, rows = DS_EMPTY_INITIALIZER;
    struct ds whole = DS_EMPTY_INITIALIZER;

    put_record(&f, SCHEMA);
    for (int i = 0; i < 2000; i++) {
        char *json;

        if (i % 3) {
            json = xasprintf("{\"T\":{" U1 ":{\"s\":\"value %d\","
                             "\"m\":[\"map\",[[\"k%d\",%d]]]}},"
                             "\"_is_diff\":true}", i, i, i);
        } else {
            json = xasprintf("{\"T\":{" U1 ":{\"s\":\"whole %d\","
                             "\"m\":[\"map\",[[\"w\",%d]]]},"
                             "\"%08x-2222-2222-2222-222222222222\":"
                             "{\"s\":\"row %d\"}}}", i, i, i, i);
        }
        put_record(&f, json);
        free(json);
        if (i % 3 == 2) {
            json = xasprintf("{\"T\":{\"%08x-2222-2222-2222-222222222222"
                             "\":null}}", i - 2);
            put_record(&f, json);
            free(json);
        }
    }
    ck_assert_ptr_null(replay(&f, &whole));
    ck_assert(strstr(ds_cstr(&whole), "\"value 1999\" 0 false [\"map\","
                     "[[\"k1999\",1999],[\"w\",1998]]]"));
    /* Room for every value live at once, then for less than that. */
    uint64_t filled, apart;

    ovsdb_file_replay_set_test_sizes(0, 8, 4);
    ck_assert_ptr_null(replay_counted(&f, &rows, &filled, &apart));
    ck_assert_str_eq(ds_cstr(&rows), ds_cstr(&whole));
    ck_assert_uint_gt(filled, 40);
    ck_assert_uint_eq(apart, 0);
    ovsdb_file_replay_set_test_sizes(0, 8, 1);
    ck_assert_ptr_null(replay_counted(&f, &rows, &filled, &apart));
    ck_assert_str_eq(ds_cstr(&rows), ds_cstr(&whole));
    ck_assert_uint_gt(apart, 0);
    ovsdb_file_replay_set_test_sizes(0, 0, 0);
    ds_destroy(&f);
    ds_destroy(&rows);
    ds_destroy(&whole);
}
END_TEST

/* A malformed record that modifies a row's map and then deletes the row
 * (a row named twice in a table's object) leaves no modification of the
 * row pending: the row is gone, and nothing else is touched. */
START_TEST(test_modified_then_deleted)
{
    struct ds f = DS_EMPTY_INITIALIZER, rows = DS_EMPTY_INITIALIZER;

    put_record(&f, SCHEMA);
    put_record(&f, "{\"T\":{" U1 ":{\"s\":\"a\"}," U2 ":{\"s\":\"b\"}}}");
    put_record(&f, "{\"T\":{" U1 ":{\"m\":[\"map\",[[\"k\",1]]]},"
               U2 ":{\"m\":[\"map\",[[\"j\",2]]]}," U1 ":null},"
               "\"_is_diff\":true}");
    ck_assert_ptr_null(replay(&f, &rows));
    ck_assert_str_eq(ds_cstr(&rows),
                     "\"b\" 0 false [\"map\",[[\"j\",2]]] [\"set\",[]] "
                     "[\"set\",[]]\n");
    ds_destroy(&f);
    ds_destroy(&rows);
}
END_TEST

START_TEST(test_cut_short)
{
    struct ds f = DS_EMPTY_INITIALIZER, rows = DS_EMPTY_INITIALIZER;

    put_record(&f, SCHEMA);
    put_record(&f, "{\"T\":{" U1 ":{\"s\":\"a\"}}}");
    size_t whole = f.length;

    /* A record whose data is not all there yet, or whose header is cut
     * short, ends the replay there: the rows are those before it. */
    put_record(&f, "{\"T\":{" U2 ":{\"s\":\"b\"}}}");
    for (size_t cut = whole + 1; cut < f.length; cut += 7) {
        struct ds part = DS_EMPTY_INITIALIZER;

        ds_put_buffer(&part, f.string, cut);
        ck_assert_ptr_null(replay(&part, &rows));
        ck_assert_str_eq(ds_cstr(&rows), "\"a\" 0 false [\"map\",[]] "
                         "[\"set\",[]] [\"set\",[]]\n");
        ds_destroy(&part);
    }
    ck_assert_ptr_null(replay(&f, &rows));
    ck_assert_int_eq(strlen(ds_cstr(&rows)) > 0, 1);
    ds_destroy(&f);
    ds_destroy(&rows);
}
END_TEST

/* Returns the error (without its "FILE: " prefix) of replaying 'text'. */
static char *
error_of(const char *text, bool framed)
{
    struct ds f = DS_EMPTY_INITIALIZER, rows = DS_EMPTY_INITIALIZER;

    if (framed) {
        put_record(&f, SCHEMA);
        put_record(&f, text);
    } else {
        ds_put_cstr(&f, text);
    }
    char *error = replay(&f, &rows);
    ck_assert_ptr_nonnull(error);
    char *colon = strstr(error, ": ");
    char *s = xstrdup(colon ? colon + 2 : error);
    free(error);
    ds_destroy(&f);
    ds_destroy(&rows);
    return s;
}

/* Asserts that replaying 'text' fails with 'expected'. */
static void
assert_error(const char *text, bool framed, const char *expected)
{
    char *error = error_of(text, framed);

    ck_assert_str_eq(error, expected);
    free(error);
}

START_TEST(test_errors)
{
    assert_error("OVSDB CLUSTER 5 0000\nxxxx\n", false,
                 "a clustered database (its Raft log can only be read "
                 "through the server)");
    assert_error("hello, world\n", false,
                 "record 0: not an OVSDB database file");
    assert_error("OVSDB JSON 3 0\n[]\n", false,
                 "record 0: its first record is not a database schema");
    assert_error("[1]", true, "record 1: not a JSON object");
    assert_error("{\"T\":{" U1 ":{\"s\":}}}", true,
                 "record 1: row 11111111-1111-1111-1111-111111111111 of "
                 "table T does not parse");
    assert_error("{\"T\":{\"nope\":{}}}", true,
                 "record 1: table T: \"nope\" is not a row UUID");
    assert_error("{\"T\":{" U1 ":null}}", true,
                 "record 1: deletes row 11111111-1111-1111-1111-111111111111"
                 " of table T, which does not exist");
    assert_error("{\"T\":{" U1 ":{}}} trailing", true,
                 "record 1: trailing data after the transaction");
}
END_TEST

START_TEST(test_schema_errors)
{
    static const char *const cols[] = { "nope" };
    struct ds f = DS_EMPTY_INITIALIZER;

    put_record(&f, SCHEMA);
    char *name = write_file(&f);

    struct ovsdb_file_replay *r = ovsdb_file_replay_create();
    ovsdb_file_replay_add_table(r, "T", cols, 1);
    char *error = ovsdb_file_replay_read(r, name);
    ck_assert_ptr_nonnull(strstr(error, "record 0: its table T has no "
                                 "column nope"));
    free(error);
    ovsdb_file_replay_destroy(r);

    r = ovsdb_file_replay_create();
    ovsdb_file_replay_add_table(r, "V", cols, 1);
    error = ovsdb_file_replay_read(r, name);
    ck_assert_ptr_nonnull(strstr(error, "record 0: its schema has no "
                                 "table V"));
    free(error);
    ovsdb_file_replay_destroy(r);

    r = ovsdb_file_replay_create();
    error = ovsdb_file_replay_read(r, "/nonexistent/x.db");
    ck_assert_str_eq(error, "/nonexistent/x.db: open failed (No such file "
                     "or directory)");
    free(error);
    ovsdb_file_replay_destroy(r);

    unlink(name);
    free(name);
    ds_destroy(&f);
}
END_TEST

/* Returns a value of the text 's'. */
static struct ovsdb_file_replay_value
val(const char *s)
{
    return (struct ovsdb_file_replay_value) { s, strlen(s) };
}

START_TEST(test_decoders)
{
    struct ovsdb_file_replay_value v, atom;
    struct ovsdb_file_replay_cursor cur;
    struct ds s = DS_EMPTY_INITIALIZER;
    int64_t n;
    bool b, present;

    v = val("\"10.0.0.0/8\"");
    ck_assert(ovsdb_file_replay_get_string(&v, &s));
    ck_assert_str_eq(ds_cstr(&s), "10.0.0.0/8");
    v = val("\"a\\\"b\\\\\"");
    ck_assert(ovsdb_file_replay_get_string(&v, &s));
    ck_assert_str_eq(ds_cstr(&s), "a\"b\\");
    v = val("\"a\\\"");
    ck_assert(!ovsdb_file_replay_get_string(&v, &s));
    v = val("7");
    ck_assert(!ovsdb_file_replay_get_string(&v, &s));

    v = val("-42");
    ck_assert(ovsdb_file_replay_get_integer(&v, &n));
    ck_assert_int_eq(n, -42);
    v = val("99999999999999999999");
    ck_assert(!ovsdb_file_replay_get_integer(&v, &n));
    v = val("1.5");
    ck_assert(!ovsdb_file_replay_get_integer(&v, &n));

    v = val("true");
    ck_assert(ovsdb_file_replay_get_boolean(&v, &b) && b);
    v = val("false");
    ck_assert(ovsdb_file_replay_get_boolean(&v, &b) && !b);
    v = val("1");
    ck_assert(!ovsdb_file_replay_get_boolean(&v, &b));

    v = val("[\"set\",[]]");
    ck_assert(ovsdb_file_replay_get_optional(&v, &atom, &present));
    ck_assert(!present);
    v = val("[\"set\",[12]]");
    ck_assert(ovsdb_file_replay_get_optional(&v, &atom, &present));
    ck_assert(present && atom.len == 2 && !memcmp(atom.s, "12", 2));
    v = val("12");
    ck_assert(ovsdb_file_replay_get_optional(&v, &atom, &present));
    ck_assert(present && atom.len == 2);
    v = val("[\"set\",[1,2]]");
    ck_assert(!ovsdb_file_replay_get_optional(&v, &atom, &present));

    v = val("[\"map\",[[\"a@x\",1],[\"b\\u0040y\",2]]]");
    ck_assert(ovsdb_file_replay_map_start(&v, &cur));
    ck_assert(ovsdb_file_replay_map_next(&cur, &s, &n));
    ck_assert_str_eq(ds_cstr(&s), "a@x");
    ck_assert_int_eq(n, 1);
    ck_assert(ovsdb_file_replay_map_next(&cur, &s, &n));
    ck_assert_str_eq(ds_cstr(&s), "b@y");
    ck_assert_int_eq(n, 2);
    ck_assert(!ovsdb_file_replay_map_next(&cur, &s, &n));
    ck_assert(!cur.error);

    v = val("[\"map\",[]]");
    ck_assert(ovsdb_file_replay_map_start(&v, &cur));
    ck_assert(!ovsdb_file_replay_map_next(&cur, &s, &n));
    ck_assert(!cur.error);
    v = val("[\"map\",[[\"a\",\"b\"]]]");
    ck_assert(ovsdb_file_replay_map_start(&v, &cur));
    ck_assert(!ovsdb_file_replay_map_next(&cur, &s, &n));
    ck_assert(cur.error);
    v = val("[\"set\",[]]");
    ck_assert(!ovsdb_file_replay_map_start(&v, &cur));
    ds_destroy(&s);
}
END_TEST

Suite *
ovsdb_file_replay_suite(void)
{
    Suite *s = suite_create("ovsdb_file_replay");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_insert_modify_delete);
    tcase_add_test(tc, test_cut_short);
    tcase_add_test(tc, test_read_in_pieces);
    tcase_add_test(tc, test_churn);
    tcase_add_test(tc, test_modified_then_deleted);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_schema_errors);
    tcase_add_test(tc, test_decoders);
    suite_add_tcase(s, tc);
    return s;
}
