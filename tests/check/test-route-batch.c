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

/* Check suite for lib/route-batch: coalescing, operation choice,
 * pipelined transactions, failures, held and deferred entries. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/route-batch.h"
#include "tests/check/suites.h"
#include "util.h"

/* A test row: an entry and what the test callbacks record. */
struct row {
    struct route_batch_entry be;     /* The entry. */
    bool writable;              /* What the writable callback says. */
    int n_idle;                 /* Times reported idle. */
};

static bool
writable_cb(const struct route_batch_entry *e, void *aux OVS_UNUSED)
{
    return CONTAINER_OF(e, struct row, be)->writable;
}

static void
idle_cb(struct route_batch_entry *e, void *aux)
{
    int *n_idle = aux;

    CONTAINER_OF(e, struct row, be)->n_idle++;
    (*n_idle)++;
}

static struct route_batch b;
static int n_idle;
static struct row rows[8];

static void
setup(void)
{
    n_idle = 0;
    route_batch_init(&b, idle_cb, writable_cb, &n_idle);
    for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
        route_batch_entry_init(&rows[i].be);
        rows[i].writable = true;
        rows[i].n_idle = 0;
    }
}

static void
teardown(void)
{
    route_batch_destroy(&b);
}

/* Takes one transaction of at most 'max' operations; asserts that it has
 * 'n' operations. */
static struct route_batch_txn *
take(size_t max, size_t n)
{
    struct route_batch_txn *txn = route_batch_take(&b, max);

    if (!n) {
        ck_assert_ptr_null(txn);
    } else {
        ck_assert_ptr_nonnull(txn);
        ck_assert_uint_eq(txn->n_ops, n);
    }
    return txn;
}

static void
check_op(const struct route_batch_txn *txn, size_t i, struct row *r,
         enum route_batch_op_type type, uint32_t hash)
{
    ck_assert_ptr_eq(txn->ops[i].entry, &r->be);
    ck_assert_int_eq(txn->ops[i].type, type);
    if (type != ROUTE_BATCH_DELETE) {
        ck_assert_uint_eq(txn->ops[i].hash, hash);
    }
}

/* Insert, commit, then the same content again is not rewritten; a change
 * is an update; a delete is a delete, and the row becomes idle. */
START_TEST(test_basic_cycle)
{
    struct route_batch_txn *txn;

    route_batch_set(&b, &rows[0].be, 11);
    ck_assert_uint_eq(route_batch_n_pending(&b), 1);
    txn = take(10, 1);
    check_op(txn, 0, &rows[0], ROUTE_BATCH_INSERT, 11);
    ck_assert_uint_eq(b.rq.n_inflight, 1);
    route_batch_txn_commit(&b, txn, NULL);
    ck_assert_uint_eq(b.rq.n_inflight, 0);
    ck_assert_int_eq(rows[0].be.db, ROUTE_BATCH_DB_PRESENT);

    route_batch_set(&b, &rows[0].be, 11);
    ck_assert_uint_eq(route_batch_n_pending(&b), 0);
    ck_assert_uint_eq(b.stats.n_unchanged, 1);
    take(10, 0);

    route_batch_set(&b, &rows[0].be, 12);
    txn = take(10, 1);
    check_op(txn, 0, &rows[0], ROUTE_BATCH_UPDATE, 12);
    route_batch_txn_commit(&b, txn, (unsigned int[]) { 1 });

    route_batch_del(&b, &rows[0].be);
    ck_assert(!route_batch_entry_is_idle(&rows[0].be));
    txn = take(10, 1);
    check_op(txn, 0, &rows[0], ROUTE_BATCH_DELETE, 0);
    ck_assert_int_eq(rows[0].n_idle, 0);
    route_batch_txn_commit(&b, txn, (unsigned int[]) { 1 });
    ck_assert_int_eq(rows[0].n_idle, 1);
    ck_assert(route_batch_entry_is_idle(&rows[0].be));
}
END_TEST

/* Last write wins; add then delete of an unwritten row cancels; add then
 * delete of a written row becomes a delete; changed and changed back is
 * no operation. */
START_TEST(test_coalescing)
{
    struct route_batch_txn *txn;

    route_batch_set(&b, &rows[0].be, 1);
    route_batch_set(&b, &rows[0].be, 2);
    route_batch_set(&b, &rows[0].be, 3);
    ck_assert_uint_eq(route_batch_n_pending(&b), 1);
    ck_assert_uint_eq(b.stats.n_coalesced, 2);

    route_batch_set(&b, &rows[1].be, 10);
    route_batch_del(&b, &rows[1].be);

    txn = take(10, 1);
    check_op(txn, 0, &rows[0], ROUTE_BATCH_INSERT, 3);
    ck_assert_uint_eq(b.stats.n_cancelled, 1);
    ck_assert_int_eq(rows[1].n_idle, 1);
    route_batch_txn_commit(&b, txn, NULL);

    /* Written row: add (update) then delete is a delete. */
    route_batch_set(&b, &rows[0].be, 4);
    route_batch_del(&b, &rows[0].be);
    txn = take(10, 1);
    check_op(txn, 0, &rows[0], ROUTE_BATCH_DELETE, 0);
    route_batch_txn_commit(&b, txn, NULL);

    /* Delete then re-add (a route replace, DEL+NEW) of a written row. */
    route_batch_set(&b, &rows[2].be, 7);
    route_batch_txn_commit(&b, take(10, 1), NULL);
    route_batch_del(&b, &rows[2].be);
    route_batch_set(&b, &rows[2].be, 8);
    txn = take(10, 1);
    check_op(txn, 0, &rows[2], ROUTE_BATCH_UPDATE, 8);
    route_batch_txn_commit(&b, txn, NULL);

    /* Changed and changed back before the flush. */
    route_batch_set(&b, &rows[2].be, 9);
    route_batch_set(&b, &rows[2].be, 8);
    take(10, 0);
    ck_assert_int_eq(rows[2].be.db_hash, 8);
}
END_TEST

/* Operations come out in first-change order, 'max' at a time. */
START_TEST(test_order_and_size)
{
    struct route_batch_txn *t1, *t2;

    for (int i = 0; i < 5; i++) {
        route_batch_set(&b, &rows[i].be, 100 + i);
    }
    route_batch_set(&b, &rows[0].be, 200);   /* Keeps its place. */
    t1 = take(3, 3);
    t2 = take(3, 2);
    take(3, 0);
    check_op(t1, 0, &rows[0], ROUTE_BATCH_INSERT, 200);
    check_op(t1, 1, &rows[1], ROUTE_BATCH_INSERT, 101);
    check_op(t1, 2, &rows[2], ROUTE_BATCH_INSERT, 102);
    check_op(t2, 0, &rows[3], ROUTE_BATCH_INSERT, 103);
    check_op(t2, 1, &rows[4], ROUTE_BATCH_INSERT, 104);
    ck_assert_uint_eq(t1->seq + 1, t2->seq);
    ck_assert_ptr_eq(route_batch_oldest_txn(&b), t1);
    ck_assert_uint_eq(b.rq.n_inflight_ops, 5);
    route_batch_txn_commit(&b, t1, NULL);
    ck_assert_ptr_eq(route_batch_oldest_txn(&b), t2);
    route_batch_txn_commit(&b, t2, NULL);
    ck_assert_ptr_null(route_batch_oldest_txn(&b));
    ck_assert_uint_eq(b.stats.n_ops_committed, 5);
}
END_TEST

/* The queue grows past its initial size and wraps around. */
START_TEST(test_queue_growth)
{
    size_t n = 5000;
    struct row *many = xcalloc(n, sizeof *many);
    size_t seen = 0;

    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < n; i++) {
            if (!round) {
                route_batch_entry_init(&many[i].be);
                many[i].writable = true;
            }
            route_batch_set(&b, &many[i].be, round * 10000 + i);
        }
        ck_assert_uint_eq(route_batch_n_pending(&b), n);
        seen = 0;
        for (;;) {
            struct route_batch_txn *txn = route_batch_take(&b, 700);

            if (!txn) {
                break;
            }
            for (size_t i = 0; i < txn->n_ops; i++) {
                ck_assert_ptr_eq(txn->ops[i].entry, &many[seen + i].be);
                ck_assert_int_eq(txn->ops[i].type,
                                 (round ? ROUTE_BATCH_UPDATE
                                  : ROUTE_BATCH_INSERT));
            }
            seen += txn->n_ops;
            route_batch_txn_commit(&b, txn, NULL);
        }
        ck_assert_uint_eq(seen, n);
    }
    free(many);
}
END_TEST

/* Pipelining: the next transaction is chosen as if the previous one had
 * committed. */
START_TEST(test_pipelined)
{
    struct route_batch_txn *t1, *t2, *t3;

    route_batch_set(&b, &rows[0].be, 1);
    t1 = take(10, 1);
    check_op(t1, 0, &rows[0], ROUTE_BATCH_INSERT, 1);
    route_batch_set(&b, &rows[0].be, 2);
    t2 = take(10, 1);
    check_op(t2, 0, &rows[0], ROUTE_BATCH_UPDATE, 2);
    route_batch_del(&b, &rows[0].be);
    t3 = take(10, 1);
    check_op(t3, 0, &rows[0], ROUTE_BATCH_DELETE, 0);
    ck_assert_uint_eq(rows[0].be.n_inflight, 3);
    route_batch_txn_commit(&b, t1, NULL);
    route_batch_txn_commit(&b, t2, NULL);
    ck_assert_int_eq(rows[0].n_idle, 0);
    route_batch_txn_commit(&b, t3, NULL);
    ck_assert_int_eq(rows[0].n_idle, 1);
}
END_TEST

/* A failed transaction loses nothing: its rows are queued again, with
 * the database state unknown, so an insert is retried as an update (whose
 * row count tells whether the row exists). */
START_TEST(test_failure_requeues)
{
    struct route_batch_txn *txn;

    route_batch_set(&b, &rows[0].be, 1);
    route_batch_set(&b, &rows[1].be, 2);
    route_batch_txn_commit(&b, take(10, 2), NULL);

    route_batch_set(&b, &rows[0].be, 3);     /* Update. */
    route_batch_del(&b, &rows[1].be);        /* Delete. */
    route_batch_set(&b, &rows[2].be, 4);     /* Insert. */
    txn = take(10, 3);
    route_batch_txn_fail(&b, txn);
    ck_assert_uint_eq(b.stats.n_failed, 1);
    ck_assert_uint_eq(route_batch_n_pending(&b), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(rows[i].be.db, ROUTE_BATCH_DB_UNKNOWN);
    }

    txn = take(10, 3);
    check_op(txn, 0, &rows[0], ROUTE_BATCH_UPDATE, 3);
    check_op(txn, 1, &rows[1], ROUTE_BATCH_DELETE, 0);
    check_op(txn, 2, &rows[2], ROUTE_BATCH_UPDATE, 4);
    /* Row 2 was never inserted: its update finds no row. */
    route_batch_txn_commit(&b, txn, (unsigned int[]) { 1, 1, 0 });
    ck_assert_int_eq(rows[1].n_idle, 1);
    ck_assert_uint_eq(route_batch_n_pending(&b), 1);
    txn = take(10, 1);
    check_op(txn, 0, &rows[2], ROUTE_BATCH_INSERT, 4);
    route_batch_txn_commit(&b, txn, NULL);
    ck_assert_int_eq(rows[2].be.db, ROUTE_BATCH_DB_PRESENT);
}
END_TEST

/* A failure followed by a later pipelined transaction on the same row:
 * the later result settles the state. */
START_TEST(test_failure_pipelined)
{
    struct route_batch_txn *t1, *t2;

    route_batch_set(&b, &rows[0].be, 1);
    t1 = take(10, 1);                   /* Insert. */
    route_batch_set(&b, &rows[0].be, 2);
    t2 = take(10, 1);                   /* Update, believing inserted. */
    check_op(t2, 0, &rows[0], ROUTE_BATCH_UPDATE, 2);
    route_batch_txn_fail(&b, t1);
    /* Queued again, but the state waits for t2. */
    ck_assert(rows[0].be.queued);
    ck_assert_int_eq(rows[0].be.db, ROUTE_BATCH_DB_PRESENT);
    route_batch_txn_commit(&b, t2, (unsigned int[]) { 0 });
    ck_assert_int_eq(rows[0].be.db, ROUTE_BATCH_DB_ABSENT);
    check_op(take(10, 1), 0, &rows[0], ROUTE_BATCH_INSERT, 2);
}
END_TEST

/* After a lost connection every transaction in flight fails. */
START_TEST(test_fail_all)
{
    route_batch_set(&b, &rows[0].be, 1);
    take(10, 1);
    route_batch_set(&b, &rows[1].be, 2);
    take(10, 1);
    route_batch_fail_all(&b);
    ck_assert_uint_eq(b.rq.n_inflight, 0);
    ck_assert_uint_eq(b.stats.n_failed, 2);
    ck_assert_uint_eq(route_batch_n_pending(&b), 2);
}
END_TEST

/* Held rows are skipped without an operation until set again. */
START_TEST(test_held)
{
    struct route_batch_txn *txn;

    rows[0].writable = false;
    route_batch_set(&b, &rows[0].be, 1);
    route_batch_set(&b, &rows[1].be, 2);
    txn = take(10, 1);
    check_op(txn, 0, &rows[1], ROUTE_BATCH_INSERT, 2);
    route_batch_txn_commit(&b, txn, NULL);
    ck_assert_uint_eq(b.stats.n_held, 1);
    ck_assert(!rows[0].be.queued);
    ck_assert(rows[0].be.want);
    ck_assert_int_eq(rows[0].be.db, ROUTE_BATCH_DB_ABSENT);
    ck_assert_int_eq(rows[0].n_idle, 0);

    /* Deleting a held row that was never written: idle at once. */
    route_batch_del(&b, &rows[0].be);
    ck_assert(route_batch_entry_is_idle(&rows[0].be));

    /* A held row becomes writable. */
    rows[2].writable = false;
    route_batch_set(&b, &rows[2].be, 5);
    take(10, 0);
    rows[2].writable = true;
    route_batch_set(&b, &rows[2].be, 5);
    check_op(take(10, 1), 0, &rows[2], ROUTE_BATCH_INSERT, 5);

    /* Deletes are never held. */
    route_batch_txn_commit(&b, route_batch_oldest_txn(&b), NULL);
    rows[2].writable = false;
    route_batch_del(&b, &rows[2].be);
    check_op(take(10, 1), 0, &rows[2], ROUTE_BATCH_DELETE, 0);
}
END_TEST

/* A deferred entry: take stops in front of it, what comes before goes
 * out, a change to it coalesces while it waits, and once no longer
 * deferred it is taken with what queued behind it. */
START_TEST(test_deferred)
{
    struct route_batch_txn *txn;

    for (size_t i = 0; i < 3; i++) {
        route_batch_set(&b, &rows[i].be, 10 + i);
    }
    route_batch_txn_commit(&b, take(10, 3), NULL);

    /* rows[0] changes, rows[1]'s delete is deferred, rows[2] changes. */
    route_batch_set(&b, &rows[0].be, 20);
    route_batch_del(&b, &rows[1].be);
    route_batch_defer(&b, &rows[1].be);
    route_batch_set(&b, &rows[2].be, 22);
    ck_assert(!route_batch_front_is_deferred(&b));
    txn = take(10, 1);
    check_op(txn, 0, &rows[0], ROUTE_BATCH_UPDATE, 20);
    route_batch_txn_commit(&b, txn, (unsigned int[]) { 1 });
    ck_assert(route_batch_front_is_deferred(&b));
    take(10, 0);
    ck_assert_uint_eq(b.stats.n_deferred_stops, 2);
    ck_assert_uint_eq(route_batch_n_pending(&b), 2);

    /* Its add comes: the delete and the add are one update. */
    route_batch_set(&b, &rows[1].be, 31);
    route_batch_defer(&b, NULL);
    ck_assert(!route_batch_front_is_deferred(&b));
    txn = take(10, 2);
    check_op(txn, 0, &rows[1], ROUTE_BATCH_UPDATE, 31);
    check_op(txn, 1, &rows[2], ROUTE_BATCH_UPDATE, 22);
    route_batch_txn_commit(&b, txn, (unsigned int[]) { 1, 1 });
    ck_assert_uint_eq(b.stats.n_delete, 0);

    /* A deferred entry that is not queued stops nothing. */
    route_batch_defer(&b, &rows[5].be);
    route_batch_set(&b, &rows[3].be, 40);
    check_op(take(10, 1), 0, &rows[3], ROUTE_BATCH_INSERT, 40);
}
END_TEST

/* Rows read from the database: kept as they are, resynchronized, or
 * forgotten. */
START_TEST(test_keep_resync_forget)
{
    route_batch_keep(&rows[0].be, 7);
    ck_assert(rows[0].be.want);
    ck_assert_uint_eq(route_batch_n_pending(&b), 0);
    route_batch_set(&b, &rows[0].be, 7);     /* Replayed unchanged. */
    ck_assert_uint_eq(route_batch_n_pending(&b), 0);

    /* The database holds something else than wanted. */
    route_batch_set(&b, &rows[1].be, 8);
    route_batch_txn_commit(&b, take(10, 1), NULL);
    route_batch_resync(&b, &rows[1].be, true, 9);
    check_op(take(10, 1), 0, &rows[1], ROUTE_BATCH_UPDATE, 8);
    route_batch_txn_commit(&b, route_batch_oldest_txn(&b), NULL);

    /* The database lost a row. */
    route_batch_resync(&b, &rows[1].be, false, 0);
    check_op(take(10, 1), 0, &rows[1], ROUTE_BATCH_INSERT, 8);
    route_batch_txn_commit(&b, route_batch_oldest_txn(&b), NULL);

    /* The database holds a row fpmsyncd is deleting: still deleted. */
    route_batch_del(&b, &rows[1].be);
    route_batch_resync(&b, &rows[1].be, true, 8);
    check_op(take(10, 1), 0, &rows[1], ROUTE_BATCH_DELETE, 0);
    route_batch_txn_commit(&b, route_batch_oldest_txn(&b), NULL);

    /* Matching state: nothing queued, and idle rows are reported. */
    route_batch_resync(&b, &rows[3].be, false, 0);
    ck_assert_int_eq(rows[3].n_idle, 1);

    route_batch_forget(&b, &rows[0].be);
    ck_assert_int_eq(rows[0].n_idle, 1);
    ck_assert(route_batch_entry_is_idle(&rows[0].be));
}
END_TEST

/* A row the database holds as wanted, written again on its owner's word:
 * an update, then an insert if the update finds no row. */
START_TEST(test_rewrite)
{
    route_batch_set(&b, &rows[0].be, 5);
    route_batch_txn_commit(&b, take(10, 1), NULL);
    take(10, 0);

    route_batch_rewrite(&b, &rows[0].be);
    check_op(take(10, 1), 0, &rows[0], ROUTE_BATCH_UPDATE, 5);
    route_batch_txn_commit(&b, route_batch_oldest_txn(&b),
                           (unsigned int[]) { 1 });
    take(10, 0);

    route_batch_rewrite(&b, &rows[0].be);
    check_op(take(10, 1), 0, &rows[0], ROUTE_BATCH_UPDATE, 5);
    route_batch_txn_commit(&b, route_batch_oldest_txn(&b),
                           (unsigned int[]) { 0 });      /* Gone. */
    check_op(take(10, 1), 0, &rows[0], ROUTE_BATCH_INSERT, 5);
    route_batch_txn_commit(&b, route_batch_oldest_txn(&b), NULL);
    take(10, 0);
}
END_TEST

Suite *
route_batch_suite(void)
{
    Suite *s = suite_create("route_batch");
    TCase *tc = tcase_create("route_batch");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_basic_cycle);
    tcase_add_test(tc, test_coalescing);
    tcase_add_test(tc, test_order_and_size);
    tcase_add_test(tc, test_queue_growth);
    tcase_add_test(tc, test_pipelined);
    tcase_add_test(tc, test_failure_requeues);
    tcase_add_test(tc, test_failure_pipelined);
    tcase_add_test(tc, test_fail_all);
    tcase_add_test(tc, test_held);
    tcase_add_test(tc, test_deferred);
    tcase_add_test(tc, test_keep_resync_forget);
    tcase_add_test(tc, test_rewrite);
    suite_add_tcase(s, tc);
    return s;
}
