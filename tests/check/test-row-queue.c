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

/* Check suite of lib/row-queue: queue-once, N per transaction, in-flight
 * accounting, requeue on failure, in-order completion. */

#include <config.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "lib/row-queue.h"
#include "tests/check/suites.h"
#include "util.h"

/* An object to write. */
struct obj {
    int id;                     /* Its number. */
    unsigned int queued : 1;    /* On the queue (a one-bit field, as
                                 * fpmsyncd's routes have). */
    int value;                  /* What it wants written. */
    int written;                /* What the last transaction wrote. */
};

/* A transaction: the objects taken, by pointer. */
struct txn {
    struct row_queue_txn rq;    /* Header. */
    struct obj *objs[16];       /* The objects. */
    size_t n;                   /* Number of 'objs'. */
};

/* row_queue_take()'s argument in these tests. */
struct take_aux {
    struct txn *txn;            /* Being built. */
    int stop_id;                /* Stop in front of this object (or -1). */
};

/* Takes 'obj_' unless it has nothing to write (value == written) or is
 * the one to stop at. */
static enum row_queue_verdict
take_cb(void *obj_, void *aux_)
{
    struct take_aux *aux = aux_;
    struct obj *o = obj_;

    if (o->id == aux->stop_id) {
        return ROW_QUEUE_STOP;
    }
    o->queued = false;
    if (o->value == o->written) {
        return ROW_QUEUE_SKIP;
    }
    o->written = o->value;
    aux->txn->objs[aux->txn->n++] = o;
    return ROW_QUEUE_TAKE;
}

/* Takes up to 'max' objects from 'q' into a new transaction and sends it;
 * returns NULL if none was taken. */
static struct txn *
take(struct row_queue *q, size_t max, int stop_id)
{
    struct txn *txn = xzalloc(sizeof *txn);
    struct take_aux aux = { txn, stop_id };
    size_t n = row_queue_take(q, max, take_cb, &aux);

    ck_assert_uint_eq(n, txn->n);
    if (!n) {
        free(txn);
        return NULL;
    }
    row_queue_txn_sent(q, &txn->rq, n);
    return txn;
}

/* Completes 'txn': on failure, its objects are queued again. */
static void
done(struct row_queue *q, struct txn *txn, bool committed)
{
    row_queue_txn_done(q, &txn->rq, committed);
    for (size_t i = 0; !committed && i < txn->n; i++) {
        struct obj *o = txn->objs[i];

        o->written = -1;
        ROW_QUEUE_REQUEUE_ONCE(q, o, o->queued);
    }
    free(txn);
}

/* Objects 0 to n - 1, wanting 'value' = id + 100. */
static void
objs_init(struct obj *objs, int n)
{
    for (int i = 0; i < n; i++) {
        objs[i] = (struct obj) { .id = i, .value = i + 100 };
    }
}

/* An object is queued once, however often it changes, and keeps its place:
 * first change first. */
START_TEST(test_row_queue_once)
{
    struct row_queue q;
    struct obj objs[3];
    struct txn *txn;

    objs_init(objs, 3);
    row_queue_init(&q);
    ck_assert(ROW_QUEUE_PUSH_ONCE(&q, &objs[1], objs[1].queued));
    ck_assert(ROW_QUEUE_PUSH_ONCE(&q, &objs[0], objs[0].queued));
    ck_assert(!ROW_QUEUE_PUSH_ONCE(&q, &objs[1], objs[1].queued));
    objs[1].value = 7;
    ck_assert(!ROW_QUEUE_PUSH_ONCE(&q, &objs[1], objs[1].queued));
    ck_assert_uint_eq(row_queue_n_pending(&q), 2);
    ck_assert_uint_eq(q.stats.n_queued, 2);
    ck_assert_uint_eq(q.stats.n_coalesced, 2);
    ck_assert_ptr_eq(row_queue_front(&q), &objs[1]);

    txn = take(&q, 10, -1);
    ck_assert_uint_eq(txn->n, 2);
    ck_assert_ptr_eq(txn->objs[0], &objs[1]);
    ck_assert_ptr_eq(txn->objs[1], &objs[0]);
    ck_assert_int_eq(objs[1].written, 7);
    ck_assert(!objs[0].queued && !objs[1].queued);
    done(&q, txn, true);
    row_queue_destroy(&q);
}
END_TEST

/* A transaction takes N objects at most; objects with nothing to write
 * leave the queue without counting; a stop leaves the rest queued. */
START_TEST(test_row_queue_n_per_txn)
{
    struct row_queue q;
    struct obj objs[10];
    struct txn *t1, *t2, *t3;

    objs_init(objs, 10);
    row_queue_init(&q);
    for (int i = 0; i < 10; i++) {
        ROW_QUEUE_PUSH_ONCE(&q, &objs[i], objs[i].queued);
    }
    objs[1].written = objs[1].value;   /* Nothing to write. */

    t1 = take(&q, 4, -1);
    ck_assert_uint_eq(t1->n, 4);
    ck_assert_int_eq(t1->objs[1]->id, 2);
    ck_assert_uint_eq(q.stats.n_skipped, 1);
    ck_assert_uint_eq(row_queue_n_pending(&q), 5);

    t2 = take(&q, 4, 8);
    ck_assert_uint_eq(t2->n, 3);
    ck_assert_ptr_eq(row_queue_front(&q), &objs[8]);
    ck_assert(objs[8].queued);
    ck_assert_ptr_null(take(&q, 4, 8));

    t3 = take(&q, 4, -1);
    ck_assert_uint_eq(t3->n, 2);
    ck_assert_uint_eq(row_queue_n_pending(&q), 0);
    ck_assert_ptr_null(take(&q, 4, -1));
    ck_assert_uint_eq(q.stats.n_taken, 9);
    ck_assert_uint_eq(q.stats.n_txns, 3);

    done(&q, t1, true);
    done(&q, t2, true);
    done(&q, t3, true);
    row_queue_destroy(&q);
}
END_TEST

/* The in-flight gauges follow the transactions sent and ended. */
START_TEST(test_row_queue_inflight)
{
    struct row_queue q;
    struct obj objs[5];
    struct txn *t1, *t2;

    objs_init(objs, 5);
    row_queue_init(&q);
    for (int i = 0; i < 5; i++) {
        ROW_QUEUE_PUSH_ONCE(&q, &objs[i], objs[i].queued);
    }
    ck_assert_ptr_null(row_queue_oldest(&q));
    t1 = take(&q, 3, -1);
    t2 = take(&q, 3, -1);
    ck_assert_uint_eq(q.n_inflight, 2);
    ck_assert_uint_eq(q.n_inflight_ops, 5);
    ck_assert_ptr_eq(row_queue_oldest(&q), &t1->rq);

    done(&q, t1, true);
    ck_assert_uint_eq(q.n_inflight, 1);
    ck_assert_uint_eq(q.n_inflight_ops, 2);
    ck_assert_ptr_eq(row_queue_oldest(&q), &t2->rq);
    done(&q, t2, true);
    ck_assert_uint_eq(q.n_inflight, 0);
    ck_assert_uint_eq(q.n_inflight_ops, 0);
    ck_assert_uint_eq(q.stats.n_committed, 2);
    ck_assert_uint_eq(q.stats.n_failed, 0);
    row_queue_destroy(&q);
}
END_TEST

/* A failed transaction's objects are queued again, after those queued
 * meanwhile, and an object changed meanwhile (queued already) is not
 * queued twice. */
START_TEST(test_row_queue_requeue)
{
    struct row_queue q;
    struct obj objs[4];
    struct txn *t1, *t2;

    objs_init(objs, 4);
    row_queue_init(&q);
    for (int i = 0; i < 3; i++) {
        ROW_QUEUE_PUSH_ONCE(&q, &objs[i], objs[i].queued);
    }
    t1 = take(&q, 10, -1);
    objs[1].value = 50;
    ROW_QUEUE_PUSH_ONCE(&q, &objs[1], objs[1].queued);
    ROW_QUEUE_PUSH_ONCE(&q, &objs[3], objs[3].queued);

    done(&q, t1, false);
    ck_assert_uint_eq(q.stats.n_failed, 1);
    ck_assert_uint_eq(q.stats.n_requeued, 2);
    ck_assert_uint_eq(row_queue_n_pending(&q), 4);

    t2 = take(&q, 10, -1);
    ck_assert_uint_eq(t2->n, 4);
    ck_assert_int_eq(t2->objs[0]->id, 1);
    ck_assert_int_eq(t2->objs[1]->id, 3);
    ck_assert_int_eq(t2->objs[2]->id, 0);
    ck_assert_int_eq(t2->objs[3]->id, 2);
    ck_assert_int_eq(objs[1].written, 50);
    done(&q, t2, true);
    row_queue_destroy(&q);
}
END_TEST

/* An object put back in front goes before every other. */
START_TEST(test_row_queue_push_front)
{
    struct row_queue q;
    struct obj objs[3];

    objs_init(objs, 3);
    row_queue_init(&q);
    ROW_QUEUE_PUSH_ONCE(&q, &objs[0], objs[0].queued);
    ROW_QUEUE_PUSH_ONCE(&q, &objs[1], objs[1].queued);
    objs[2].queued = true;
    row_queue_push_front(&q, &objs[2]);
    ck_assert_ptr_eq(row_queue_pop(&q), &objs[2]);
    ck_assert_ptr_eq(row_queue_pop(&q), &objs[0]);
    ck_assert_ptr_eq(row_queue_pop(&q), &objs[1]);
    ck_assert_ptr_null(row_queue_pop(&q));

    /* A failed transaction's writes go back in front, in their order. */
    objs_init(objs, 3);
    ROW_QUEUE_PUSH_ONCE(&q, &objs[0], objs[0].queued);
    row_queue_requeue_front(&q, &objs[2]);
    row_queue_requeue_front(&q, &objs[1]);
    ck_assert_uint_eq(q.stats.n_requeued, 2);
    ck_assert_ptr_eq(row_queue_pop(&q), &objs[1]);
    ck_assert_ptr_eq(row_queue_pop(&q), &objs[2]);
    ck_assert_ptr_eq(row_queue_pop(&q), &objs[0]);
    row_queue_destroy(&q);
}
END_TEST

/* Completing a transaction that is not the oldest in flight aborts:
 * replies come in the order the transactions were sent. */
START_TEST(test_row_queue_in_order)
{
    struct row_queue q;
    struct obj objs[2];
    struct txn *t2;

    objs_init(objs, 2);
    row_queue_init(&q);
    for (int i = 0; i < 2; i++) {
        ROW_QUEUE_PUSH_ONCE(&q, &objs[i], objs[i].queued);
    }
    take(&q, 1, -1);
    t2 = take(&q, 1, -1);
    row_queue_txn_done(&q, &t2->rq, true);
}
END_TEST

Suite *
row_queue_suite(void)
{
    Suite *s = suite_create("row_queue");
    TCase *tc = tcase_create("row_queue");

    tcase_add_test(tc, test_row_queue_once);
    tcase_add_test(tc, test_row_queue_n_per_txn);
    tcase_add_test(tc, test_row_queue_inflight);
    tcase_add_test(tc, test_row_queue_requeue);
    tcase_add_test(tc, test_row_queue_push_front);
    if (!getenv("CK_FORK") || strcmp(getenv("CK_FORK"), "no")) {
        /* Only where a test may abort without ending the run. */
        tcase_add_test_raise_signal(tc, test_row_queue_in_order, SIGABRT);
    }
    suite_add_tcase(s, tc);
    return s;
}
