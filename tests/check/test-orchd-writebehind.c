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

/*
 * Check suite for daemons/orchd/orchd-writebehind: the Asic_Route rows written
 * behind the southbound fast path, with a fake commit that records each
 * transaction and lets the test end it.
 */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "daemons/orchd/orchd-entry.h"
#include "tests/check/orchd-test-util.h"
#include "daemons/orchd/orchd-writebehind.h"
#include "lib/fib-prefix.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/vlog.h"
#include "tests/check/suites.h"
#include "util.h"

/* The transaction the fake commit holds. */
struct fake_txn {
    char *text;                 /* Its operations, as sent. */
    size_t n_ops;               /* How many. */
    ovsdb_writer_cb *cb;        /* Ends it. */
    void *cb_aux;               /* For 'cb'. */
};

static void
fake_commit(void *t_, struct ds *ops, size_t n_ops, ovsdb_writer_cb *cb,
            void *cb_aux)
{
    struct fake_txn *t = t_;

    ck_assert_ptr_null(t->text);    /* One transaction at a time. */
    t->text = ds_steal_cstr(ops);
    t->n_ops = n_ops;
    t->cb = cb;
    t->cb_aux = cb_aux;
}

/* Counts the occurrences of 'needle' in the transaction held. */
static int
count(const struct fake_txn *t, const char *needle)
{
    int n = 0;

    for (const char *p = t->text; (p = strstr(p, needle)); p++) {
        n++;
    }
    return n;
}

/* Ends the transaction held with 'result'; 'counts' gives each operation's
 * row count when it committed, 'failed_op' the operation that failed when
 * it was refused. */
static void
finish(struct fake_txn *t, enum ovsdb_writer_result result,
       const int *counts, size_t failed_op)
{
    struct json *results = json_array_create_empty();
    struct ovsdb_writer_reply reply = {
        .result = result,
        .results = result == OVSDB_WRITER_SUCCESS ? results : NULL,
        .error = result == OVSDB_WRITER_SUCCESS ? NULL : "boom",
        .failed_op = failed_op,
        .n_ops = t->n_ops,
    };

    for (size_t i = 0; i < t->n_ops; i++) {
        struct json *r = json_object_create();

        json_object_put(r, "count",
                        json_integer_create(counts ? counts[i] : 1));
        json_array_add(results, r);
    }
    free(t->text);
    t->text = NULL;
    t->cb(t->cb_aux, &reply);
    json_destroy(results);
}

/* Returns an entry for "10.0.I.0/24". */
static struct orchd_entry *
make_entry(int i)
{
    const char *keys[1] = { "1.1.1.1@e0" };
    int64_t weights[1] = { 1 };
    struct fib_prefix p;
    char text[32];

    snprintf(text, sizeof text, "10.0.%d.0/24", i);
    ck_assert_ptr_null(fib_prefix_parse(text, &p));
    return orchd_entry_create(test_entry_space(), "default", &p, ORCHD_ACTION_FORWARD, keys,
                              weights, 1);
}

/* A write-behind on a fake commit, with transactions of 'batch' rows,
 * that yields for 'max_yield_ms' at most (0: the default). */
static struct orchd_writebehind *
create_yield(struct fake_txn *t, struct ovsdb_writer **writer, size_t batch,
             long long int max_yield_ms)
{
    struct orchd_writebehind_options o = {
        .batch = batch,
        .max_yield_ms = max_yield_ms,
        .commit = fake_commit,
        .commit_aux = t,
    };

    vlog_set_levels(NULL, VLF_CONSOLE, VLL_ERR);
    memset(t, 0, sizeof *t);
    *writer = ovsdb_writer_create("unix:/nonexistent", "Fibsync");
    return orchd_writebehind_create(*writer, &o);
}

/* A write-behind on a fake commit, with transactions of 'batch' rows. */
static struct orchd_writebehind *
create(struct fake_txn *t, struct ovsdb_writer **writer, size_t batch)
{
    return create_yield(t, writer, batch, 0);
}

/* Queues writes of "10.0.I.0/24" for I in [0, n). */
static void
queue_rows(struct orchd_writebehind *wb, int n)
{
    for (int i = 0; i < n; i++) {
        struct orchd_entry *e = make_entry(i);

        orchd_writebehind_set(wb, e, 10 + i, true, NULL, false, NULL);
        orchd_entry_unref(e);
    }
}

/* Returns zmq/show's "yielding" line of 'wb'. */
static char *
yield_line(const struct orchd_writebehind *wb)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    char *line, *end;

    orchd_writebehind_format(wb, &s);
    line = strstr(ds_cstr(&s), "  yielding");
    ck_assert_ptr_nonnull(line);
    end = strchr(line, '\n');
    line = xmemdup0(line, end - line);
    ds_destroy(&s);
    return line;
}

static void
destroy(struct orchd_writebehind *wb, struct ovsdb_writer *writer)
{
    orchd_writebehind_destroy(wb);
    ovsdb_writer_destroy(writer);
}

/* Rows go out in order, in batches, one transaction at a time. */
START_TEST(test_batches)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 2);
    struct orchd_writebehind_stats st;

    for (int i = 0; i < 3; i++) {
        struct orchd_entry *e = make_entry(i);

        orchd_writebehind_set(wb, e, 10 + i, i != 1, "SAI_STATUS_FAILURE",
                              false, NULL);
        orchd_entry_unref(e);
    }
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 2);
    ck_assert_int_eq(count(&t, "\"op\":\"insert\""), 2);
    ck_assert_int_eq(count(&t, "\"state\":\"programmed\""), 1);
    ck_assert_int_eq(count(&t, "\"error\":\"SAI_STATUS_FAILURE\""), 1);
    ck_assert_int_eq(count(&t, "\"seq\":11,\"applied_seq\":11"), 1);
    ck_assert_uint_eq(orchd_writebehind_n_queued(wb), 1);
    ck_assert_uint_eq(orchd_writebehind_n_in_flight(wb), 2);
    orchd_writebehind_run(wb);          /* Still in flight: nothing. */
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 1);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    ck_assert(orchd_writebehind_is_idle(wb));
    orchd_writebehind_get_stats(wb, &st);
    ck_assert_uint_eq(st.committed, 3);
    ck_assert_uint_eq(st.txns, 2);
    destroy(wb, writer);
}
END_TEST

/* While it yields, nothing new is sent, the transaction in flight still
 * completes, and writes queue; when it stops, they go out in order. */
START_TEST(test_yield)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 2);
    char *line;

    queue_rows(wb, 3);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(orchd_writebehind_n_in_flight(wb), 2);
    orchd_writebehind_yield(wb, true);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    orchd_writebehind_run(wb);
    ck_assert_ptr_null(t.text);
    ck_assert_uint_eq(orchd_writebehind_n_queued(wb), 1);
    ck_assert(!orchd_writebehind_is_idle(wb));
    line = yield_line(wb);
    ck_assert_ptr_nonnull(strstr(line, "Route writes: yes, 1 times"));
    free(line);

    orchd_writebehind_yield(wb, false);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 1);
    ck_assert_int_eq(count(&t, "\"seq\":12"), 1);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    ck_assert(orchd_writebehind_is_idle(wb));
    line = yield_line(wb);
    ck_assert_ptr_nonnull(strstr(line, "Route writes: no, 1 times"));
    free(line);
    destroy(wb, writer);
}
END_TEST

/* A yield that is never lifted ends by itself after 'max_yield_ms'. */
START_TEST(test_yield_too_long)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create_yield(&t, &writer, 10, 100);
    char *line;

    orchd_writebehind_yield(wb, true);
    queue_rows(wb, 2);
    orchd_writebehind_run(wb);
    ck_assert_ptr_null(t.text);
    xnanosleep(150 * 1000 * 1000);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 2);
    line = yield_line(wb);
    ck_assert_ptr_nonnull(strstr(line, "no (held too long), 1 times, "
                                 "0.1 s in all"));
    free(line);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    destroy(wb, writer);
}
END_TEST

/* A transaction names a row once: a deletion and an insertion of one row
 * go in two. */
START_TEST(test_one_row_once_per_txn)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 100);
    struct orchd_entry *e = make_entry(1);

    orchd_writebehind_delete(wb, &e->asic_uuid, NULL);
    orchd_writebehind_set(wb, e, 5, true, NULL, false, NULL);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 1);
    ck_assert_int_eq(count(&t, "\"op\":\"delete\""), 1);
    finish(&t, OVSDB_WRITER_SUCCESS, (int[]) { 0 }, SIZE_MAX);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 1);
    ck_assert_int_eq(count(&t, "\"op\":\"insert\""), 1);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    ck_assert(orchd_writebehind_is_idle(wb));
    orchd_entry_unref(e);
    destroy(wb, writer);
}
END_TEST

/* An update that matched no row is inserted, before what came later. */
START_TEST(test_update_without_row)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 100);
    struct orchd_entry *e1 = make_entry(1), *e2 = make_entry(2);
    struct orchd_writebehind_stats st;

    orchd_writebehind_set(wb, e1, 1, true, NULL, true, NULL);
    orchd_writebehind_run(wb);
    ck_assert_int_eq(count(&t, "\"op\":\"update\""), 1);
    ck_assert_int_eq(count(&t, "\"error\":[\"set\",[]]"), 1);
    orchd_writebehind_set(wb, e2, 2, true, NULL, false, NULL);
    finish(&t, OVSDB_WRITER_SUCCESS, (int[]) { 0 }, SIZE_MAX);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 2);
    ck_assert_int_eq(count(&t, "\"op\":\"insert\""), 2);
    ck_assert(strstr(t.text, "10.0.1.0/24") < strstr(t.text, "10.0.2.0/24"));
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    orchd_writebehind_get_stats(wb, &st);
    ck_assert_uint_eq(st.late_inserts, 1);
    ck_assert_uint_eq(st.committed, 2);
    orchd_entry_unref(e1);
    orchd_entry_unref(e2);
    destroy(wb, writer);
}
END_TEST

/* A refused insert (the row was there) is sent again as an update; a
 * refused operation that is no insert is dropped; a lost transaction is
 * sent again, its inserts as updates. */
START_TEST(test_refused_and_lost)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 100);
    struct orchd_entry *e1 = make_entry(1), *e2 = make_entry(2);
    struct orchd_writebehind_stats st;

    orchd_writebehind_set(wb, e1, 1, true, NULL, false, NULL);
    orchd_writebehind_set(wb, e2, 2, true, NULL, true, NULL);
    orchd_writebehind_run(wb);
    finish(&t, OVSDB_WRITER_ERROR, NULL, 0);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 2);
    ck_assert_int_eq(count(&t, "\"op\":\"update\""), 2);

    /* Now the second is refused on its own merits: dropped. */
    finish(&t, OVSDB_WRITER_ERROR, NULL, 1);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 1);
    ck_assert(strstr(t.text, "10.0.1.0/24"));

    /* Lost: sent again. */
    finish(&t, OVSDB_WRITER_LOST, NULL, SIZE_MAX);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 1);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    ck_assert(orchd_writebehind_is_idle(wb));
    orchd_writebehind_get_stats(wb, &st);
    ck_assert_uint_eq(st.dropped, 1);
    ck_assert_uint_eq(st.retried_txns, 3);
    ck_assert_uint_eq(st.committed, 1);
    orchd_entry_unref(e1);
    orchd_entry_unref(e2);
    destroy(wb, writer);
}
END_TEST

/* A row's write not sent yet takes the next one's content in its place,
 * and keeps its type; one in flight does not. */
START_TEST(test_coalesce)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 100);
    struct orchd_entry *e1 = make_entry(1), *e2 = make_entry(2);
    struct orchd_writebehind_stats st;
    uint32_t tag1 = 0, tag2 = 0;

    orchd_writebehind_set(wb, e1, 1, true, NULL, false, &tag1);
    ck_assert_uint_ne(tag1, 0);
    orchd_writebehind_set(wb, e2, 2, true, NULL, true, &tag2);
    orchd_writebehind_set(wb, e1, 3, false, "SAI_STATUS_FAILURE", true,
                          &tag1);
    orchd_writebehind_set(wb, e1, 4, true, NULL, true, &tag1);
    ck_assert_uint_eq(orchd_writebehind_n_queued(wb), 2);

    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 2);
    ck_assert_int_eq(count(&t, "\"op\":\"insert\""), 1);
    ck_assert_int_eq(count(&t, "\"op\":\"update\""), 1);
    ck_assert_int_eq(count(&t, "\"seq\":4,\"applied_seq\":4"), 1);
    ck_assert_int_eq(count(&t, "SAI_STATUS_FAILURE"), 0);
    ck_assert(strstr(t.text, "10.0.1.0/24") < strstr(t.text, "10.0.2.0/24"));

    /* In flight: row 1's next write is queued behind, and the one after
     * takes its place. */
    orchd_writebehind_set(wb, e1, 6, true, NULL, true, &tag1);
    orchd_writebehind_set(wb, e1, 7, true, NULL, true, &tag1);
    ck_assert_uint_eq(orchd_writebehind_n_queued(wb), 1);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 1);
    ck_assert_int_eq(count(&t, "\"seq\":7,\"applied_seq\":7"), 1);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    ck_assert(orchd_writebehind_is_idle(wb));

    /* A tag that names another row's write takes nothing. */
    orchd_writebehind_set(wb, e1, 8, true, NULL, true, &tag1);
    uint32_t wrong = tag1;
    orchd_writebehind_set(wb, e2, 9, true, NULL, true, &wrong);
    ck_assert_uint_eq(orchd_writebehind_n_queued(wb), 2);
    ck_assert_uint_ne(wrong, tag1);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 2);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);

    orchd_writebehind_get_stats(wb, &st);
    ck_assert_uint_eq(st.queued, 8);
    ck_assert_uint_eq(st.coalesced, 3);
    ck_assert_uint_eq(st.committed, 5);
    orchd_entry_unref(e1);
    orchd_entry_unref(e2);
    destroy(wb, writer);
}
END_TEST

/* No write takes the place of one queued before a deletion of its row. */
START_TEST(test_coalesce_not_across_delete)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 100);
    struct orchd_entry *e = make_entry(1);
    uint32_t tag = 0;

    orchd_writebehind_set(wb, e, 1, true, NULL, false, &tag);
    orchd_writebehind_delete(wb, &e->asic_uuid, &tag);
    ck_assert_uint_eq(tag, 0);
    orchd_writebehind_set(wb, e, 2, true, NULL, false, &tag);
    ck_assert_uint_eq(orchd_writebehind_n_queued(wb), 3);

    static const char *const ops[] = { "insert", "delete", "insert" };
    for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
        char op[32];

        orchd_writebehind_run(wb);
        ck_assert_uint_eq(t.n_ops, 1);
        snprintf(op, sizeof op, "\"op\":\"%s\"", ops[i]);
        ck_assert_int_eq(count(&t, op), 1);
        finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    }
    ck_assert(orchd_writebehind_is_idle(wb));
    orchd_entry_unref(e);
    destroy(wb, writer);
}
END_TEST

/* A refused transaction goes back in front, one write fewer: the tags of
 * its rows may name other places now, and take only their own row's
 * write. */
START_TEST(test_coalesce_after_requeue)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 100);
    struct orchd_entry *e[3];
    uint32_t tags[3] = { 0, 0, 0 };

    for (int i = 0; i < 3; i++) {
        e[i] = make_entry(i);
        orchd_writebehind_set(wb, e[i], i + 1, true, NULL, true, &tags[i]);
    }
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 3);
    finish(&t, OVSDB_WRITER_ERROR, NULL, 1);    /* Drops row 1's. */
    ck_assert_uint_eq(orchd_writebehind_n_queued(wb), 2);

    /* Row 0's write moved to where row 1's was; row 2's stayed. */
    orchd_writebehind_set(wb, e[0], 10, true, NULL, true, &tags[0]);
    orchd_writebehind_set(wb, e[1], 11, true, NULL, true, &tags[1]);
    orchd_writebehind_set(wb, e[2], 12, true, NULL, true, &tags[2]);
    ck_assert_uint_eq(orchd_writebehind_n_queued(wb), 4);

    /* Row 0's first write, row 2's newest; then, since a transaction
     * names a row once, row 0's newest and row 1's. */
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 2);
    ck_assert_int_eq(count(&t, "\"seq\":1,"), 1);
    ck_assert_int_eq(count(&t, "\"seq\":12,"), 1);
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    orchd_writebehind_run(wb);
    ck_assert_uint_eq(t.n_ops, 2);
    ck_assert(strstr(t.text, "\"seq\":10,") < strstr(t.text, "\"seq\":11,"));
    finish(&t, OVSDB_WRITER_SUCCESS, NULL, SIZE_MAX);
    ck_assert(orchd_writebehind_is_idle(wb));
    for (int i = 0; i < 3; i++) {
        orchd_entry_unref(e[i]);
    }
    destroy(wb, writer);
}
END_TEST

/* A transaction still in flight when the write-behind goes ends without
 * it. */
START_TEST(test_destroy_in_flight)
{
    struct fake_txn t;
    struct ovsdb_writer *writer;
    struct orchd_writebehind *wb = create(&t, &writer, 100);
    struct orchd_entry *e = make_entry(1);

    orchd_writebehind_set(wb, e, 1, true, NULL, false, NULL);
    orchd_writebehind_set(wb, e, 2, true, NULL, true, NULL);
    orchd_writebehind_run(wb);
    orchd_writebehind_destroy(wb);
    finish(&t, OVSDB_WRITER_LOST, NULL, SIZE_MAX);
    orchd_entry_unref(e);
    ovsdb_writer_destroy(writer);
}
END_TEST

Suite *
orchd_writebehind_suite(void)
{
    Suite *s = suite_create("orchd_writebehind");
    TCase *tc = tcase_create("writebehind");

    tcase_add_test(tc, test_batches);
    tcase_add_test(tc, test_one_row_once_per_txn);
    tcase_add_test(tc, test_update_without_row);
    tcase_add_test(tc, test_refused_and_lost);
    tcase_add_test(tc, test_destroy_in_flight);
    tcase_add_test(tc, test_coalesce);
    tcase_add_test(tc, test_coalesce_not_across_delete);
    tcase_add_test(tc, test_coalesce_after_requeue);
    tcase_add_test(tc, test_yield);
    tcase_add_test(tc, test_yield_too_long);
    suite_add_tcase(s, tc);
    return s;
}
