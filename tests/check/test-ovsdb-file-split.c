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

/* Check suite of lib/ovsdb-file-split: a compacted file's snapshot split
 * into records of a few rows, every other byte kept, and files it does not
 * understand left alone. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/ovsdb-file-split.h"
#include "lib/ovsdb-file-text.h"
#include "openvswitch/dynamic-string.h"
#include "sha1.h"
#include "tests/check/suites.h"
#include "util.h"

/* Appends a record of JSON 'json' to 'file', as ovsdb/log.c writes it. */
static void
put_record(struct ds *file, const char *json)
{
    uint8_t sha1[SHA1_DIGEST_SIZE];
    char *data = xasprintf("%s\n", json);

    sha1_bytes(data, strlen(data), sha1);
    ds_put_format(file, "OVSDB JSON %"PRIuSIZE" "SHA1_FMT"\n%s",
                  strlen(data), SHA1_ARGS(sha1), data);
    free(data);
}

static void
collect(void *out, const void *data, size_t size)
{
    ds_put_buffer(out, data, size);
}

/* Splits 'in' with 'rows' rows a record and any snapshot size into 'out';
 * returns the message. */
static char *
split(const struct ds *in, size_t rows, size_t min_len, struct ds *out,
      struct ovsdb_file_split_result *result)
{
    struct ovsdb_file_split_options o = { .min_len = min_len, .rows = rows };

    ds_clear(out);
    return ovsdb_file_split(in->string, in->length, &o, collect, out,
                            result);
}

static const char SCHEMA[] = "{\"name\":\"T\",\"version\":\"1.0.0\"}";
static const char TXN[] = "{\"A\":{\"u9\":{\"x\":9}},\"_date\":2}";
static const char TORN[] = "OVSDB JSON 99 0123\n{\"A\"";

/* A snapshot of two tables, strings with brackets and escaped quotes in
 * them, a table with no row, and "_"-members before and between the
 * tables. */
static const char SNAPSHOT[] =
    "{\"_date\":1,\"A\":{\"u1\":{\"x\":1},\"u2\":{\"x\":\"a\\\"}{b\"},"
    "\"u3\":{\"x\":[\"set\",[1,2]],\"y\":{\"z\":\"]\"}}},\"_is_diff\":true,"
    "\"E\":{},\"B\":{\"u4\":{}}}";

/* The file: schema, snapshot, a transaction and a torn end. */
static void
make_file(struct ds *file, const char *snapshot)
{
    ds_clear(file);
    put_record(file, SCHEMA);
    put_record(file, snapshot);
    put_record(file, TXN);
    ds_put_cstr(file, TORN);
}

START_TEST(test_split)
{
    struct ds in = DS_EMPTY_INITIALIZER, out = DS_EMPTY_INITIALIZER;
    struct ds want = DS_EMPTY_INITIALIZER;
    struct ovsdb_file_split_result r;

    make_file(&in, SNAPSHOT);
    ck_assert_ptr_null(split(&in, 2, 1, &out, &r));
    ck_assert(r.split);
    ck_assert_uint_eq(r.rows, 4);
    ck_assert_uint_eq(r.records, 3);
    ck_assert_uint_eq(r.snapshot_len, strlen(SNAPSHOT) + 1);

    /* Exactly the records ovsdb/log.c would write for these rows, and the
     * rest of the file as it was. */
    put_record(&want, SCHEMA);
    put_record(&want, "{\"A\":{\"u1\":{\"x\":1},\"u2\":{\"x\":\"a\\\"}{b\"}},"
               "\"_date\":1,\"_is_diff\":true}");
    put_record(&want, "{\"A\":{\"u3\":{\"x\":[\"set\",[1,2]],\"y\":{\"z\":"
               "\"]\"}}},\"_date\":1,\"_is_diff\":true}");
    put_record(&want, "{\"B\":{\"u4\":{}},\"_date\":1,\"_is_diff\":true}");
    put_record(&want, TXN);
    ds_put_cstr(&want, TORN);
    ck_assert_str_eq(ds_cstr(&out), ds_cstr(&want));

    /* Each record's SHA-1 is right, as ovsdb-server checks it. */
    const char *p = out.string, *end = out.string + out.length;
    struct ovsdb_file_text_record rec;
    const char *error;
    int n = 0;
    while (ovsdb_file_text_next_record(&p, end, !n, &rec, &error)
           == OVSDB_FILE_TEXT_RECORD) {
        ck_assert(ovsdb_file_text_record_sha1_ok(&rec));
        n++;
    }
    ck_assert_int_eq(n, 5);

    /* Split again: the first record after the schema is small now. */
    ds_swap(&in, &out);
    ck_assert_ptr_null(split(&in, 2, 1000, &out, &r));
    ck_assert(!r.split);
    ck_assert_uint_eq(out.length, 0);

    ds_destroy(&in);
    ds_destroy(&out);
    ds_destroy(&want);
}
END_TEST

/* One row a record by default size: every row in a record of its own. */
START_TEST(test_one_row_each)
{
    struct ds in = DS_EMPTY_INITIALIZER, out = DS_EMPTY_INITIALIZER;
    struct ovsdb_file_split_result r;

    make_file(&in, SNAPSHOT);
    ck_assert_ptr_null(split(&in, 1, 1, &out, &r));
    ck_assert_uint_eq(r.records, 4);
    ck_assert_uint_eq(r.rows, 4);
    ds_destroy(&in);
    ds_destroy(&out);
}
END_TEST

/* A file without a snapshot big enough is nothing to split. */
START_TEST(test_nothing_to_split)
{
    struct ds in = DS_EMPTY_INITIALIZER, out = DS_EMPTY_INITIALIZER;
    struct ovsdb_file_split_result r;

    make_file(&in, SNAPSHOT);
    ck_assert_ptr_null(split(&in, 2, strlen(SNAPSHOT) + 2, &out, &r));
    ck_assert(!r.split);
    ck_assert_uint_eq(r.snapshot_len, strlen(SNAPSHOT) + 1);
    ck_assert_uint_eq(out.length, 0);

    ds_clear(&in);
    put_record(&in, SCHEMA);
    ck_assert_ptr_null(split(&in, 2, 1, &out, &r));
    ck_assert(!r.split);
    ck_assert_uint_eq(r.snapshot_len, 0);
    ck_assert_uint_eq(out.length, 0);
    ds_destroy(&in);
    ds_destroy(&out);
}
END_TEST

/* Checks that splitting 'in' is refused with a message holding 'why', and
 * writes nothing. */
static void
refused(const struct ds *in, const char *why)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    struct ovsdb_file_split_result r;
    char *msg = split(in, 2, 1, &out, &r);

    ck_assert_ptr_nonnull(msg);
    ck_assert_msg(strstr(msg, why), "\"%s\" does not say \"%s\"", msg, why);
    ck_assert(!r.split);
    ck_assert_uint_eq(out.length, 0);
    free(msg);
    ds_destroy(&out);
}

/* What is not understood is left to ovsdb-server, untouched. */
START_TEST(test_left_alone)
{
    struct ds in = DS_EMPTY_INITIALIZER;
    char *p;

    /* A changed byte: the SHA-1 no longer matches. */
    make_file(&in, SNAPSHOT);
    p = strstr(in.string, "\"x\":1");
    p[4] = '7';
    refused(&in, "SHA-1");

    make_file(&in, "{\"A\":{\"u1\":null}}");
    refused(&in, "a row is not an object");
    make_file(&in, "{\"A\":[1]}");
    refused(&in, "a table is not an object");
    make_file(&in, "[1,2]");
    refused(&in, "not a JSON object");
    make_file(&in, "{\"A\":{\"u1\":{\"x\":1}}");
    refused(&in, "not a JSON object");

    ds_clear(&in);
    ds_put_cstr(&in, "OVSDB CLUSTER 10 0123\n{}");
    refused(&in, "clustered");
    ds_clear(&in);
    ds_put_cstr(&in, "hello, world\n");
    refused(&in, "record 0: not an OVSDB database file");
    ds_clear(&in);
    put_record(&in, SCHEMA);
    ds_put_cstr(&in, "OVSDB JSON x 0123\n{}\n");
    refused(&in, "record 1: bad record header");
    ds_destroy(&in);
}
END_TEST

Suite *
ovsdb_file_split_suite(void)
{
    Suite *s = suite_create("ovsdb_file_split");
    TCase *tc = tcase_create("split");

    tcase_add_test(tc, test_split);
    tcase_add_test(tc, test_one_row_each);
    tcase_add_test(tc, test_nothing_to_split);
    tcase_add_test(tc, test_left_alone);
    suite_add_tcase(s, tc);
    return s;
}
