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

/* Check suite of lib/ovsdb-write-mark: the operations it writes, and the
 * check that decides whether a database met again holds every committed
 * transaction, against the rows such a database could hold. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/ovsdb-write-mark.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "tests/check/suites.h"
#include "util.h"
#include "uuid.h"

static const char EPOCH[] = "0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d";
static const char OTHER[] = "1e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d";

/* Starts epoch EPOCH on 'm', as if its transaction committed. */
static void
start_epoch(struct ovsdb_write_mark *m)
{
    struct uuid epoch;

    ck_assert(uuid_from_string(&epoch, EPOCH));
    json_destroy(ovsdb_write_mark_start_epoch(m, &epoch));
    ovsdb_write_mark_epoch_done(m, true);
}

/* Sends one marked transaction on 'm'. */
static void
put(struct ovsdb_write_mark *m)
{
    struct ds ops = DS_EMPTY_INITIALIZER;

    ck_assert(ovsdb_write_mark_put(m, &ops));
    ds_destroy(&ops);
}

/* Returns what ovsdb_write_mark_check() says of the select result whose
 * text is 'result' (NULL: the select failed): "ok", or why not. */
static char *
check(const struct ovsdb_write_mark *m, const char *result)
{
    struct json *json = result ? json_from_string(result) : NULL;
    struct ds why = DS_EMPTY_INITIALIZER;
    bool ok = ovsdb_write_mark_check(m, json, &why);

    json_destroy(json);
    if (ok) {
        ck_assert_str_eq(ds_cstr(&why), "");
        ds_put_cstr(&why, "ok");
    }
    return ds_steal_cstr(&why);
}

/* The select result with one mark row of 'epoch' and 'txn'. */
static char *
one_row(const char *epoch, int txn)
{
    return xasprintf("[{\"rows\":[{\"epoch\":[\"uuid\",\"%s\"],"
                     "\"txn\":%d}]}]", epoch, txn);
}

#define CHECK_SAYS(M, RESULT, EXPECTED)                 \
    do {                                                \
        char *said_ = check(M, RESULT);                 \
        ck_assert_str_eq(said_, EXPECTED);              \
        free(said_);                                    \
    } while (0)

START_TEST(test_mark_ops)
{
    struct ovsdb_write_mark m;
    struct ds ops = DS_EMPTY_INITIALIZER;
    struct uuid epoch;
    struct json *json;
    char *s;

    ovsdb_write_mark_init(&m, "fpmsyncd");
    /* No epoch yet: nothing to mark. */
    ck_assert(!ovsdb_write_mark_put(&m, &ops));
    ck_assert_uint_eq(ops.length, 0);

    ck_assert(uuid_from_string(&epoch, EPOCH));
    json = ovsdb_write_mark_start_epoch(&m, &epoch);
    s = json_to_string(json, JSSF_SORT);
    ck_assert_str_eq(s,
        "[{\"op\":\"delete\",\"table\":\"Write_Mark\","
        "\"where\":[[\"writer\",\"==\",\"fpmsyncd\"]]},"
        "{\"op\":\"insert\",\"row\":{\"epoch\":[\"uuid\","
        "\"0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d\"],\"txn\":0,"
        "\"writer\":\"fpmsyncd\"},\"table\":\"Write_Mark\"}]");
    free(s);
    json_destroy(json);

    /* Each transaction's mark is one update with its number, after a
     * comma, as the text transactions of lib/ovsdb-writer.h want. */
    ck_assert(ovsdb_write_mark_put(&m, &ops));
    ck_assert(ovsdb_write_mark_put(&m, &ops));
    ck_assert_str_eq(ds_cstr(&ops),
        ",{\"op\":\"update\",\"table\":\"Write_Mark\","
        "\"where\":[[\"writer\",\"==\",\"fpmsyncd\"]],\"row\":{\"epoch\":"
        "[\"uuid\",\"0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d\"],\"txn\":1}}"
        ",{\"op\":\"update\",\"table\":\"Write_Mark\","
        "\"where\":[[\"writer\",\"==\",\"fpmsyncd\"]],\"row\":{\"epoch\":"
        "[\"uuid\",\"0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d\"],\"txn\":2}}");
    s = xasprintf("[%s]", ds_cstr(&ops) + 1);
    json = json_from_string(s);
    ck_assert_int_eq(json->type, JSON_ARRAY);
    json_destroy(json);
    free(s);

    json = ovsdb_write_mark_read_params(&m, "Fibsync");
    s = json_to_string(json, JSSF_SORT);
    ck_assert_str_eq(s,
        "[\"Fibsync\",{\"columns\":[\"epoch\",\"txn\"],\"op\":\"select\","
        "\"sort\":[],\"table\":\"Write_Mark\","
        "\"where\":[[\"writer\",\"==\",\"fpmsyncd\"]]}]");
    free(s);
    json_destroy(json);

    ds_destroy(&ops);
    ovsdb_write_mark_destroy(&m);
}
END_TEST

START_TEST(test_mark_check)
{
    struct ovsdb_write_mark m;
    char *r;

    ovsdb_write_mark_init(&m, "fpmsyncd");
    CHECK_SAYS(&m, "[{\"rows\":[]}]", "no mark written yet");

    start_epoch(&m);
    /* Transactions 1 and 2 committed, 3 lost, 4 in flight. */
    put(&m);
    put(&m);
    put(&m);
    put(&m);
    ovsdb_write_mark_done(&m, true);
    ovsdb_write_mark_done(&m, true);
    ovsdb_write_mark_done(&m, false);
    ck_assert_uint_eq(m.committed, 2);

    /* A database that holds 2, or more (a lost transaction may have
     * committed), holds all that fpmsyncd believes. */
    for (int txn = 2; txn <= 4; txn++) {
        r = one_row(EPOCH, txn);
        CHECK_SAYS(&m, r, "ok");
        free(r);
    }

    /* One from before transaction 2 does not. */
    r = one_row(EPOCH, 1);
    CHECK_SAYS(&m, r, "transaction 1 marked, 2 committed");
    free(r);

    /* Nor does another epoch's row, a new database, a failed select, or
     * rows of the wrong shape. */
    r = one_row(OTHER, 9);
    CHECK_SAYS(&m, r, "the mark of another epoch "
               "(1e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d)");
    free(r);
    CHECK_SAYS(&m, "[{\"rows\":[]}]", "0 mark rows");
    CHECK_SAYS(&m, NULL, "the mark could not be read");
    CHECK_SAYS(&m, "[{\"error\":\"unknown table\"}]",
               "the mark could not be read");
    CHECK_SAYS(&m, "[{\"rows\":[{\"epoch\":\"x\",\"txn\":3}]}]",
               "a malformed mark row");
    CHECK_SAYS(&m, "[{\"rows\":[{},{}]}]", "2 mark rows");

    ovsdb_write_mark_destroy(&m);
}
END_TEST

START_TEST(test_mark_epochs)
{
    struct ovsdb_write_mark m;
    struct ds ops = DS_EMPTY_INITIALIZER;
    char *r;

    ovsdb_write_mark_init(&m, "fpmsyncd");
    start_epoch(&m);
    put(&m);
    put(&m);
    ovsdb_write_mark_done(&m, true);

    /* A new epoch while transaction 2 of the last is still in flight:
     * its end does not count in the new one. */
    start_epoch(&m);
    ck_assert_uint_eq(m.committed, 0);
    put(&m);
    ovsdb_write_mark_done(&m, true);    /* The last epoch's 2. */
    ck_assert_uint_eq(m.committed, 0);
    ovsdb_write_mark_done(&m, true);    /* This epoch's 1. */
    ck_assert_uint_eq(m.committed, 1);
    r = one_row(EPOCH, 0);
    CHECK_SAYS(&m, r, "transaction 0 marked, 1 committed");
    free(r);

    /* The epoch's transaction refused (a schema without Write_Mark):
     * nothing is marked, and every check says read again. */
    start_epoch(&m);
    ovsdb_write_mark_epoch_done(&m, false);
    ck_assert(!ovsdb_write_mark_put(&m, &ops));
    ck_assert_uint_eq(ops.length, 0);
    r = one_row(EPOCH, 0);
    CHECK_SAYS(&m, r, "marks off (the epoch was not written)");
    free(r);
    ck_assert_uint_eq(m.n_epochs, 3);

    ds_destroy(&ops);
    ovsdb_write_mark_destroy(&m);
}
END_TEST

/* The JSON forms: the mark of a transaction built as a JSON array, the
 * row deleted by a writer that stops marking, and the check of a row
 * read from a monitor rather than a select. */
START_TEST(test_mark_json)
{
    struct ovsdb_write_mark m;
    struct ds why = DS_EMPTY_INITIALIZER;
    struct uuid epoch, other;
    struct json *json;
    char *s;

    ck_assert(uuid_from_string(&epoch, EPOCH));
    ck_assert(uuid_from_string(&other, OTHER));
    ovsdb_write_mark_init(&m, "orchd");
    ck_assert(!ovsdb_write_mark_op(&m));
    ck_assert(!ovsdb_write_mark_holds(&m, &epoch, 0, &why));
    ck_assert_str_eq(ds_cstr(&why), "no mark written yet");
    ds_clear(&why);

    start_epoch(&m);
    json = ovsdb_write_mark_op(&m);
    s = json_to_string(json, JSSF_SORT);
    ck_assert_str_eq(s,
        "{\"op\":\"update\",\"row\":{\"epoch\":[\"uuid\","
        "\"0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d\"],\"txn\":1},"
        "\"table\":\"Write_Mark\","
        "\"where\":[[\"writer\",\"==\",\"orchd\"]]}");
    free(s);
    json_destroy(json);
    /* The text and JSON forms count alike. */
    put(&m);
    ck_assert_uint_eq(m.n_sent, 2);
    ovsdb_write_mark_done(&m, true);
    ovsdb_write_mark_done(&m, true);

    ck_assert(ovsdb_write_mark_holds(&m, &epoch, 2, &why));
    ck_assert(ovsdb_write_mark_holds(&m, &epoch, 3, &why));
    ck_assert_str_eq(ds_cstr(&why), "");
    ck_assert(!ovsdb_write_mark_holds(&m, &epoch, 1, &why));
    ck_assert_str_eq(ds_cstr(&why), "transaction 1 marked, 2 committed");
    ds_clear(&why);
    ck_assert(!ovsdb_write_mark_holds(&m, &other, 2, &why));
    s = xasprintf("the mark of another epoch (%s)", OTHER);
    ck_assert_str_eq(ds_cstr(&why), s);
    free(s);
    ds_clear(&why);
    ck_assert(!ovsdb_write_mark_holds(&m, NULL, 2, &why));
    ck_assert_str_eq(ds_cstr(&why), "no mark row");
    ds_clear(&why);

    s = xasprintf("{\"epoch\":[\"uuid\",\"%s\"],\"txn\":2}", EPOCH);
    json = json_from_string(s);
    free(s);
    {
        struct uuid e;
        int64_t txn;

        ck_assert(ovsdb_write_mark_parse_row(json, &e, &txn));
        ck_assert(uuid_equals(&e, &epoch));
        ck_assert_int_eq(txn, 2);
        json_destroy(json);
        json = json_from_string("{\"epoch\":\"x\",\"txn\":2}");
        ck_assert(!ovsdb_write_mark_parse_row(json, &e, &txn));
        ck_assert(!ovsdb_write_mark_parse_row(NULL, &e, &txn));
    }
    json_destroy(json);

    /* An epoch ended without a new one (a read under way): nothing is
     * marked, nothing vouched for. */
    ovsdb_write_mark_end_epoch(&m);
    ck_assert(!ovsdb_write_mark_op(&m));
    ck_assert(!ovsdb_write_mark_holds(&m, &epoch, 2, &why));
    ck_assert_str_eq(ds_cstr(&why), "marks off (the epoch was not written)");
    ds_clear(&why);

    json = ovsdb_write_mark_forget(&m);
    s = json_to_string(json, JSSF_SORT);
    ck_assert_str_eq(s,
        "[{\"op\":\"delete\",\"table\":\"Write_Mark\","
        "\"where\":[[\"writer\",\"==\",\"orchd\"]]}]");
    free(s);
    json_destroy(json);

    ds_destroy(&why);
    ovsdb_write_mark_destroy(&m);
}
END_TEST

Suite *
ovsdb_write_mark_suite(void)
{
    Suite *s = suite_create("ovsdb_write_mark");
    TCase *tc = tcase_create("ovsdb_write_mark");

    tcase_add_test(tc, test_mark_ops);
    tcase_add_test(tc, test_mark_check);
    tcase_add_test(tc, test_mark_epochs);
    tcase_add_test(tc, test_mark_json);
    suite_add_tcase(s, tc);
    return s;
}
