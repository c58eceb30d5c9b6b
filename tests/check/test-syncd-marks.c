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

/* Check suite of daemons/syncd/syncd-marks: the Write_Mark rows followed from
 * monitor updates, and the answer given when the monitor begins again,
 * against what the first contents could hold then. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "daemons/syncd/syncd-marks.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "ovsdb-cs.h"
#include "tests/check/suites.h"
#include "util.h"
#include "uuid.h"

#define E1 "0e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d"
#define E2 "1e2c4c62-7ad2-4b1a-9c3e-5f1d2a3b4c5d"

/* One row update to build: 'type', row number 'row' (its UUID), and the
 * columns as the text of a JSON object (NULL for a deletion). */
struct mk {
    enum ovsdb_cs_row_update_type type;
    int row;
    const char *columns;
};

/* Applies the updates 'v[0..n-1]' as one monitor update ('clear': the
 * first contents) and returns what syncd_marks_update() said: "ok",
 * "no", or why not. */
static char *
update(struct syncd_marks *marks, bool clear, const struct mk *v, size_t n)
{
    struct ovsdb_cs_row_update *rus = xcalloc(n ? n : 1, sizeof *rus);
    struct json **cols = xcalloc(n ? n : 1, sizeof *cols);
    struct ovsdb_cs_table_update tu = {
        .table_name = "Write_Mark", .row_updates = rus, .n = n,
    };
    struct ds why = DS_EMPTY_INITIALIZER;
    bool ok;

    for (size_t i = 0; i < n; i++) {
        char *u = xasprintf("%08x-0000-4000-8000-000000000000", v[i].row);

        ck_assert(uuid_from_string(&rus[i].row_uuid, u));
        free(u);
        rus[i].type = v[i].type;
        if (v[i].columns) {
            cols[i] = json_from_string(v[i].columns);
            ck_assert_int_eq(cols[i]->type, JSON_OBJECT);
            rus[i].columns = json_object(cols[i]);
        }
    }
    ok = syncd_marks_update(marks, &tu, clear, &why);
    for (size_t i = 0; i < n; i++) {
        json_destroy(cols[i]);
    }
    free(cols);
    free(rus);
    if (ok) {
        ck_assert(clear);
        ck_assert_str_eq(ds_cstr(&why), "");
        ds_put_cstr(&why, "ok");
    } else if (!why.length) {
        ds_put_cstr(&why, "no");
    }
    return ds_steal_cstr(&why);
}

#define UPDATE_SAYS(MARKS, CLEAR, EXPECTED, ...)                        \
    do {                                                                \
        const struct mk v_[] = { __VA_ARGS__ };                         \
        char *said_ = update(MARKS, CLEAR, v_, ARRAY_SIZE(v_));         \
        ck_assert_str_eq(said_, EXPECTED);                              \
        free(said_);                                                    \
    } while (0)

/* A full row's columns. */
#define ROW(WRITER, EPOCH, TXN)                                         \
    "{\"writer\":\"" WRITER "\",\"epoch\":[\"uuid\",\"" EPOCH "\"],"    \
    "\"txn\":" #TXN "}"

START_TEST(test_marks_follow)
{
    struct syncd_marks marks;
    struct uuid epoch, e1;
    int64_t txn;

    ck_assert(uuid_from_string(&e1, E1));
    syncd_marks_init(&marks, 0);

    /* The first contents, before any row was seen: no answer. */
    UPDATE_SAYS(&marks, true, "no mark of orchd seen before",
                { OVSDB_CS_ROW_INSERT, 1, ROW("fpmsyncd", E1, 7) });
    ck_assert(!syncd_marks_find(&marks, "orchd", &epoch, &txn));
    ck_assert(syncd_marks_find(&marks, "fpmsyncd", &epoch, &txn));
    ck_assert_int_eq(txn, 7);

    /* orchd's epoch, then a transaction: a modification carries the
     * changed column alone. */
    UPDATE_SAYS(&marks, false, "no",
                { OVSDB_CS_ROW_INSERT, 2, ROW("orchd", E1, 0) });
    UPDATE_SAYS(&marks, false, "no",
                { OVSDB_CS_ROW_XOR, 2, "{\"txn\":5}" },
                { OVSDB_CS_ROW_XOR, 1, "{\"txn\":8}" });
    ck_assert(syncd_marks_find(&marks, "orchd", &epoch, &txn));
    ck_assert(uuid_equals(&epoch, &e1));
    ck_assert_int_eq(txn, 5);

    /* The monitor begins again and finds orchd's row as last seen (its
     * UUID may differ: the file was written again). */
    UPDATE_SAYS(&marks, true, "ok",
                { OVSDB_CS_ROW_INSERT, 9, ROW("orchd", E1, 5) },
                { OVSDB_CS_ROW_INSERT, 1, ROW("fpmsyncd", E1, 30) });

    /* A transaction orchd committed that syncd never saw. */
    UPDATE_SAYS(&marks, true, "orchd's mark moved from transaction 5 to 6",
                { OVSDB_CS_ROW_INSERT, 9, ROW("orchd", E1, 6) });
    /* A transaction syncd saw that the database lost. */
    UPDATE_SAYS(&marks, true, "orchd's mark moved from transaction 6 to 4",
                { OVSDB_CS_ROW_INSERT, 9, ROW("orchd", E1, 4) });
    /* A new orchd's epoch. */
    UPDATE_SAYS(&marks, true,
                "orchd's mark moved from transaction 4 to 4 of another "
                "epoch",
                { OVSDB_CS_ROW_INSERT, 9, ROW("orchd", E2, 4) });
    /* No row now (a database from before the marks, or a forgotten
     * one). */
    UPDATE_SAYS(&marks, true, "no mark of orchd now",
                { OVSDB_CS_ROW_INSERT, 1, ROW("fpmsyncd", E1, 30) });
    UPDATE_SAYS(&marks, true, "no mark of orchd seen before",
                { OVSDB_CS_ROW_INSERT, 9, ROW("orchd", E2, 4) });

    /* A deletion, as orchd of the fast path deletes its row. */
    UPDATE_SAYS(&marks, false, "no", { OVSDB_CS_ROW_DELETE, 9, NULL });
    ck_assert(!syncd_marks_find(&marks, "orchd", &epoch, &txn));
    UPDATE_SAYS(&marks, true, "no mark of orchd seen before",
                { OVSDB_CS_ROW_INSERT, 9, ROW("orchd", E2, 4) });

    /* A malformed row is no row. */
    UPDATE_SAYS(&marks, false, "no", { OVSDB_CS_ROW_XOR, 9,
                                       "{\"txn\":\"five\"}" });
    ck_assert(!syncd_marks_find(&marks, "orchd", &epoch, &txn));
    UPDATE_SAYS(&marks, true, "no mark of orchd seen before",
                { OVSDB_CS_ROW_INSERT, 9, ROW("orchd", E2, 4) });

    /* Two rows of one writer (the index forbids it) are none. */
    UPDATE_SAYS(&marks, true, "no mark of orchd now",
                { OVSDB_CS_ROW_INSERT, 9, ROW("orchd", E2, 4) },
                { OVSDB_CS_ROW_INSERT, 10, ROW("orchd", E2, 4) });

    syncd_marks_destroy(&marks);
}
END_TEST

START_TEST(test_marks_instance)
{
    struct syncd_marks marks;

    /* syncd of instance 2 follows orchd-2, not orchd. */
    syncd_marks_init(&marks, 2);
    UPDATE_SAYS(&marks, false, "no",
                { OVSDB_CS_ROW_INSERT, 1, ROW("orchd", E1, 3) },
                { OVSDB_CS_ROW_INSERT, 2, ROW("orchd-2", E1, 3) });
    UPDATE_SAYS(&marks, true, "ok",
                { OVSDB_CS_ROW_INSERT, 1, ROW("orchd", E1, 9) },
                { OVSDB_CS_ROW_INSERT, 2, ROW("orchd-2", E1, 3) });
    UPDATE_SAYS(&marks, true,
                "orchd-2's mark moved from transaction 3 to 4",
                { OVSDB_CS_ROW_INSERT, 1, ROW("orchd", E1, 9) },
                { OVSDB_CS_ROW_INSERT, 2, ROW("orchd-2", E1, 4) });
    syncd_marks_destroy(&marks);
}
END_TEST

Suite *
syncd_marks_suite(void)
{
    Suite *s = suite_create("syncd_marks");
    TCase *tc = tcase_create("syncd_marks");

    tcase_add_test(tc, test_marks_follow);
    tcase_add_test(tc, test_marks_instance);
    suite_add_tcase(s, tc);
    return s;
}
