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

#include <config.h>

#include <check.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check/suites.h"
#include "lib/spsc-ring.h"
#include "hash.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "random.h"
#include "timeval.h"
#include "util.h"

/* A task function that is never run by the bare-ring tests. */
static void
nop_task(void *ctx OVS_UNUSED)
{
}

/* Packs 'n' into a context pointer. */
static void *
u2p(uintptr_t n)
{
    return (void *) n;
}

START_TEST(test_fifo_order)
{
    struct spsc_ring *r = spsc_ring_create(64);
    struct spsc_ring_task t;

    ck_assert_uint_eq(spsc_ring_capacity(r), 64);
    ck_assert(spsc_ring_is_empty(r));
    for (uintptr_t i = 1; i <= 50; i++) {
        ck_assert(spsc_ring_push(r, nop_task, u2p(i)));
    }
    ck_assert_uint_eq(spsc_ring_count(r), 50);
    for (uintptr_t i = 1; i <= 50; i++) {
        ck_assert(spsc_ring_pop(r, &t));
        ck_assert_ptr_eq(t.ctx, u2p(i));
        ck_assert(t.func == nop_task);
    }
    ck_assert(!spsc_ring_pop(r, &t));
    ck_assert(spsc_ring_is_empty(r));
    spsc_ring_destroy(r);
}
END_TEST

START_TEST(test_full_empty)
{
    struct spsc_ring_stats st;
    struct spsc_ring_task t, batch[16];
    struct spsc_ring *r;

    /* Capacity rounds up to a power of 2, at least 2. */
    r = spsc_ring_create(0);
    ck_assert_uint_eq(spsc_ring_capacity(r), 2);
    spsc_ring_destroy(r);
    r = spsc_ring_create(5);
    ck_assert_uint_eq(spsc_ring_capacity(r), 8);

    ck_assert(!spsc_ring_pop(r, &t));
    ck_assert_uint_eq(spsc_ring_pop_batch(r, batch, 16), 0);
    for (uintptr_t i = 0; i < 8; i++) {
        ck_assert(spsc_ring_push(r, nop_task, u2p(i)));
    }
    ck_assert(!spsc_ring_push(r, nop_task, u2p(8)));
    ck_assert(!spsc_ring_push(r, nop_task, u2p(8)));
    ck_assert_uint_eq(spsc_ring_count(r), 8);

    spsc_ring_get_stats(r, &st);
    ck_assert_uint_eq(st.capacity, 8);
    ck_assert_uint_eq(st.pushed, 8);
    ck_assert_uint_eq(st.popped, 0);
    ck_assert_uint_eq(st.full, 2);
    ck_assert_uint_eq(st.high_water, 8);
    ck_assert_uint_eq(st.run, 0);

    /* One pop makes exactly one slot. */
    ck_assert(spsc_ring_pop(r, &t));
    ck_assert_ptr_eq(t.ctx, u2p(0));
    ck_assert(spsc_ring_push(r, nop_task, u2p(8)));
    ck_assert(!spsc_ring_push(r, nop_task, u2p(9)));

    ck_assert_uint_eq(spsc_ring_pop_batch(r, batch, 16), 8);
    for (uintptr_t i = 0; i < 8; i++) {
        ck_assert_ptr_eq(batch[i].ctx, u2p(i + 1));
    }
    ck_assert(spsc_ring_is_empty(r));
    ck_assert(!spsc_ring_pop(r, &t));

    spsc_ring_get_stats(r, &st);
    ck_assert_uint_eq(st.pushed, 9);
    ck_assert_uint_eq(st.popped, 9);
    ck_assert_uint_eq(st.full, 3);
    spsc_ring_destroy(r);
}
END_TEST

START_TEST(test_wraparound)
{
    struct spsc_ring *r = spsc_ring_create(4);
    struct spsc_ring_task batch[8];
    uintptr_t next_push = 0, next_pop = 0;
    struct spsc_ring_stats st;

    random_set_seed(7);
    for (int round = 0; round < 20000; round++) {
        int n_push = random_range(6);
        int n_pop = random_range(6);

        for (int i = 0; i < n_push; i++) {
            bool full = next_push - next_pop == 4;

            ck_assert(spsc_ring_push(r, nop_task, u2p(next_push)) == !full);
            if (!full) {
                next_push++;
            }
        }
        ck_assert_uint_eq(spsc_ring_count(r), next_push - next_pop);

        size_t n = spsc_ring_pop_batch(r, batch, n_pop);
        ck_assert_uint_eq(n, MIN((uintptr_t) n_pop, next_push - next_pop));
        for (size_t i = 0; i < n; i++) {
            ck_assert_ptr_eq(batch[i].ctx, u2p(next_pop++));
        }
    }
    ck_assert_uint_gt(next_pop, 10000);

    spsc_ring_get_stats(r, &st);
    ck_assert_uint_eq(st.pushed, next_push);
    ck_assert_uint_eq(st.high_water, 4);
    spsc_ring_destroy(r);
}
END_TEST

START_TEST(test_high_water)
{
    struct spsc_ring *r = spsc_ring_create(16);
    struct spsc_ring_task batch[16];
    struct spsc_ring_stats st;

    for (int i = 0; i < 3; i++) {
        ck_assert(spsc_ring_push(r, nop_task, NULL));
    }
    ck_assert_uint_eq(spsc_ring_pop_batch(r, batch, 16), 3);
    for (int i = 0; i < 2; i++) {
        ck_assert(spsc_ring_push(r, nop_task, NULL));
    }
    spsc_ring_get_stats(r, &st);
    ck_assert_uint_eq(st.high_water, 3);

    for (int i = 0; i < 4; i++) {
        ck_assert(spsc_ring_push(r, nop_task, NULL));
    }
    spsc_ring_get_stats(r, &st);
    ck_assert_uint_eq(st.high_water, 6);
    spsc_ring_destroy(r);
}
END_TEST

/* Two-thread stress of the bare ring. */
#define STRESS_N 10000000

/* The consumer side of test_two_thread_stress(). */
static void *
stress_consumer(void *r_)
{
    struct spsc_ring *r = r_;
    struct spsc_ring_task batch[64];
    uintptr_t expect = 0;
    uintptr_t bad = 0;

    while (expect < STRESS_N) {
        size_t n = spsc_ring_pop_batch(r, batch, (expect & 1) ? 1 : 64);

        if (!n) {
            /* Yield rather than spin: on a loaded 2-core machine both
             * threads may share one CPU. */
            sched_yield();
        }
        for (size_t i = 0; i < n; i++) {
            if (batch[i].ctx != u2p(expect) || batch[i].func != nop_task) {
                bad++;
            }
            expect++;
        }
    }
    return u2p(bad);
}

START_TEST(test_two_thread_stress)
{
    struct spsc_ring *r = spsc_ring_create(1024);
    struct spsc_ring_stats st;
    void *bad;

    pthread_t consumer = ovs_thread_create("stress", stress_consumer, r);
    for (uintptr_t i = 0; i < STRESS_N; i++) {
        while (!spsc_ring_push(r, nop_task, u2p(i))) {
            sched_yield();
        }
    }
    xpthread_join(consumer, &bad);
    ck_assert_ptr_eq(bad, u2p(0));

    spsc_ring_get_stats(r, &st);
    ck_assert_uint_eq(st.pushed, STRESS_N);
    ck_assert_uint_eq(st.popped, STRESS_N);
    ck_assert_uint_le(st.high_water, 1024);
    ck_assert(spsc_ring_is_empty(r));
    spsc_ring_destroy(r);
}
END_TEST

/* Runner tests. */

/* Shared by the order-checking tasks.  Only the assistant thread writes
 * it; the test reads it after a drain. */
struct order_state {
    uint64_t next;              /* Sequence number expected next. */
    uint64_t errors;            /* Tasks that ran out of order. */
};

/* Context of an order-checking task. */
struct order_task {
    struct order_state *state;  /* Shared state. */
    uint64_t seq;               /* This task's sequence number. */
};

/* Checks that tasks run in push order. */
static void
order_task_run(void *t_)
{
    struct order_task *t = t_;

    if (t->seq != t->state->next) {
        t->state->errors++;
    }
    t->state->next = t->seq + 1;
}

START_TEST(test_runner_order)
{
    enum { N = 2000000 };
    struct spsc_ring_runner *r = spsc_ring_runner_create("order", 256, 32);
    struct order_task *tasks = xmalloc(N * sizeof *tasks);
    struct order_state state = { 0, 0 };
    struct spsc_ring_stats st;

    for (uint64_t i = 0; i < N; i++) {
        tasks[i].state = &state;
        tasks[i].seq = i;
        spsc_ring_runner_push_wait(r, order_task_run, &tasks[i]);
        if (i % 300000 == 0) {
            /* Let the assistant thread fall asleep now and then, so that
             * pushes must wake it. */
            spsc_ring_runner_drain(r);
            usleep(20000);
        }
    }
    spsc_ring_runner_drain(r);
    ck_assert_uint_eq(state.next, N);
    ck_assert_uint_eq(state.errors, 0);

    spsc_ring_runner_get_stats(r, &st);
    ck_assert_uint_eq(st.pushed, N);
    ck_assert_uint_eq(st.run, N);
    ck_assert_uint_eq(st.popped, N);
    ck_assert_uint_le(st.high_water, 256);
    ck_assert_uint_gt(st.wakeups, 0);
    ck_assert_uint_gt(st.sleeps, 0);
    ck_assert_uint_ge(st.full, st.full_waits);
    spsc_ring_runner_destroy(r);
    free(tasks);
}
END_TEST

/* A task that takes a while and then marks itself done. */
static void
slow_task_run(void *done_)
{
    atomic_bool *done = done_;

    usleep(2000);
    atomic_store(done, true);
}

START_TEST(test_runner_drain)
{
    struct spsc_ring_runner *r = spsc_ring_runner_create("drain", 8, 0);
    atomic_bool done[20];
    struct spsc_ring_stats st;

    /* Draining an idle runner returns at once. */
    spsc_ring_runner_drain(r);

    for (int i = 0; i < 20; i++) {
        atomic_init(&done[i], false);
    }
    /* 20 slow tasks through 8 slots: push_wait() must wait. */
    for (int i = 0; i < 20; i++) {
        spsc_ring_runner_push_wait(r, slow_task_run, &done[i]);
    }
    spsc_ring_runner_drain(r);
    for (int i = 0; i < 20; i++) {
        bool d;
        atomic_read(&done[i], &d);
        ck_assert_msg(d, "task %d had not run after drain", i);
    }
    spsc_ring_runner_get_stats(r, &st);
    ck_assert_uint_eq(st.run, 20);
    ck_assert_uint_eq(st.pushed, 20);
    ck_assert_uint_ge(st.full_waits, 1);
    ck_assert_uint_eq(st.high_water, 8);

    /* A non-blocking push on a full ring returns false. */
    int pushed = 0;
    while (pushed < 20 && spsc_ring_runner_push(r, slow_task_run,
                                                &done[pushed])) {
        pushed++;
    }
    ck_assert_int_lt(pushed, 20);
    spsc_ring_runner_drain(r);

    /* stop() drains first, and may be called twice. */
    for (int i = 0; i < 8; i++) {
        atomic_store(&done[i], false);
        spsc_ring_runner_push_wait(r, slow_task_run, &done[i]);
    }
    spsc_ring_runner_stop(r);
    for (int i = 0; i < 8; i++) {
        bool d;
        atomic_read(&done[i], &d);
        ck_assert(d);
    }
    spsc_ring_runner_stop(r);
    spsc_ring_runner_drain(r);
    spsc_ring_runner_destroy(r);
}
END_TEST

/* Sets the flag 'ctx'. */
static void
set_flag_task(void *flag_)
{
    atomic_bool *flag = flag_;

    atomic_store(flag, true);
}

START_TEST(test_runner_wakeup)
{
    struct spsc_ring_runner *r = spsc_ring_runner_create("wake", 16, 0);
    struct spsc_ring_stats st;
    atomic_bool flag;

    /* A plain push (no drain) must reach a sleeping or falling-asleep
     * assistant thread promptly.  Random pauses land pushes before,
     * during and after its spin phase. */
    random_set_seed(3);
    atomic_init(&flag, false);
    for (int i = 0; i < 200; i++) {
        long long int start = time_msec();
        bool done = false;

        usleep(random_range(i % 10 ? 400 : 20000));
        atomic_store(&flag, false);
        ck_assert(spsc_ring_runner_push(r, set_flag_task, &flag));
        while (!done) {
            ck_assert_msg(time_msec() - start < 2000, "task %d never ran", i);
            sched_yield();
            atomic_read(&flag, &done);
        }
    }
    spsc_ring_runner_get_stats(r, &st);
    ck_assert_uint_eq(st.run, 200);
    ck_assert_uint_gt(st.sleeps, 0);
    ck_assert_uint_gt(st.wakeups, 0);
    spsc_ring_runner_destroy(r);
}
END_TEST

/* Add/delete/add across the ring: route-like operations on one map, applied
 * by the assistant thread in push order. */

/* An entry of 'route_map'. */
struct route_node {
    struct hmap_node node;      /* In route_map.map. */
    uint32_t key;               /* Route key. */
    uint32_t value;             /* Value of the last add. */
};

/* The map that only the assistant thread touches until a drain. */
struct route_map {
    struct hmap map;            /* Contains "struct route_node"s. */
};

/* Context of one map operation. */
struct route_op {
    struct route_map *map;      /* Map to change. */
    uint32_t key;               /* Key. */
    uint32_t value;             /* Value to set (add only). */
    bool add;                   /* Add (or replace) if true, else delete. */
};

/* Returns the node for 'key' in 'map', or NULL. */
static struct route_node *
route_find(struct route_map *map, uint32_t key)
{
    struct route_node *n;

    HMAP_FOR_EACH_WITH_HASH (n, node, hash_int(key, 0), &map->map) {
        if (n->key == key) {
            return n;
        }
    }
    return NULL;
}

/* Applies and frees one operation. */
static void
route_op_run(void *op_)
{
    struct route_op *op = op_;
    struct route_node *n = route_find(op->map, op->key);

    if (op->add) {
        if (!n) {
            n = xmalloc(sizeof *n);
            n->key = op->key;
            hmap_insert(&op->map->map, &n->node, hash_int(op->key, 0));
        }
        n->value = op->value;
    } else if (n) {
        hmap_remove(&op->map->map, &n->node);
        free(n);
    }
    free(op);
}

/* Queues one operation on 'r'. */
static void
push_op(struct spsc_ring_runner *r, struct route_map *map, uint32_t key,
        uint32_t value, bool add)
{
    struct route_op *op = xmalloc(sizeof *op);

    op->map = map;
    op->key = key;
    op->value = value;
    op->add = add;
    spsc_ring_runner_push_wait(r, route_op_run, op);
}

START_TEST(test_runner_add_del_add)
{
    enum { N_KEYS = 1000, N_RANDOM = 200000 };
    struct spsc_ring_runner *r = spsc_ring_runner_create("routes", 64, 16);
    struct route_map map = { HMAP_INITIALIZER(&map.map) };
    int32_t expect[N_KEYS];       /* Expected value, -1 if absent. */
    struct route_node *n;

    /* The exact sequence of the brief: add, delete, add of one key. */
    push_op(r, &map, 42, 1, true);
    push_op(r, &map, 42, 0, false);
    push_op(r, &map, 42, 2, true);
    spsc_ring_runner_drain(r);
    n = route_find(&map, 42);
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(n->value, 2);
    ck_assert_uint_eq(hmap_count(&map.map), 1);

    /* Same for many keys at once, interleaved. */
    for (uint32_t k = 0; k < N_KEYS; k++) {
        push_op(r, &map, k, k, true);
    }
    for (uint32_t k = 0; k < N_KEYS; k++) {
        push_op(r, &map, k, 0, false);
    }
    for (uint32_t k = 0; k < N_KEYS; k++) {
        push_op(r, &map, k, k + 1, true);
    }
    spsc_ring_runner_drain(r);
    ck_assert_uint_eq(hmap_count(&map.map), N_KEYS);
    for (uint32_t k = 0; k < N_KEYS; k++) {
        n = route_find(&map, k);
        ck_assert_ptr_nonnull(n);
        ck_assert_uint_eq(n->value, k + 1);
    }

    /* Random operations: the final map must match the producer's model. */
    random_set_seed(99);
    for (uint32_t k = 0; k < N_KEYS; k++) {
        expect[k] = k + 1;
    }
    for (int i = 0; i < N_RANDOM; i++) {
        uint32_t k = random_range(N_KEYS);
        bool add = random_uint32() & 1;
        uint32_t v = random_uint32() >> 2;

        push_op(r, &map, k, v, add);
        expect[k] = add ? (int32_t) v : -1;
    }
    spsc_ring_runner_stop(r);
    size_t n_expect = 0;
    for (uint32_t k = 0; k < N_KEYS; k++) {
        n = route_find(&map, k);
        if (expect[k] < 0) {
            ck_assert_ptr_null(n);
        } else {
            n_expect++;
            ck_assert_ptr_nonnull(n);
            ck_assert_uint_eq(n->value, expect[k]);
        }
    }
    ck_assert_uint_eq(hmap_count(&map.map), n_expect);

    HMAP_FOR_EACH_POP (n, node, &map.map) {
        free(n);
    }
    hmap_destroy(&map.map);
    spsc_ring_runner_destroy(r);
}
END_TEST

START_TEST(test_runner_show)
{
    struct spsc_ring_runner *a = spsc_ring_runner_create("alpha", 4, 0);
    struct spsc_ring_runner *b = spsc_ring_runner_create("beta", 16, 0);
    struct ds s = DS_EMPTY_INITIALIZER;

    ck_assert_str_eq(spsc_ring_runner_name(a), "alpha");
    for (int i = 0; i < 3; i++) {
        spsc_ring_runner_push_wait(a, nop_task, NULL);
    }
    spsc_ring_runner_drain(a);

    spsc_ring_format_all("alpha", &s);
    ck_assert_msg(strstr(ds_cstr(&s), "alpha: capacity=4 queued=0 pushed=3 "
                         "run=3 full=0 full_waits=0 high_water=")
                  == ds_cstr(&s), "%s", ds_cstr(&s));
    ck_assert_ptr_null(strstr(ds_cstr(&s), "beta"));
    ck_assert_int_eq(s.string[s.length - 1], '\n');

    ds_clear(&s);
    spsc_ring_format_all(NULL, &s);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s), "alpha: "));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s), "\nbeta: capacity=16 "));

    spsc_ring_runner_stop(b);
    ds_clear(&s);
    spsc_ring_format_all("beta", &s);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s), " (stopped)\n"));

    spsc_ring_runner_destroy(b);
    ds_clear(&s);
    spsc_ring_format_all("beta", &s);
    ck_assert_uint_eq(s.length, 0);

    ds_destroy(&s);
    spsc_ring_runner_destroy(a);
}
END_TEST

/* The spsc_ring Check suite. */
Suite *
spsc_ring_suite(void)
{
    Suite *s = suite_create("spsc_ring");
    TCase *tc = tcase_create("ring");

    tcase_add_test(tc, test_fifo_order);
    tcase_add_test(tc, test_full_empty);
    tcase_add_test(tc, test_wraparound);
    tcase_add_test(tc, test_high_water);
    suite_add_tcase(s, tc);

    tc = tcase_create("threads");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_two_thread_stress);
    tcase_add_test(tc, test_runner_order);
    tcase_add_test(tc, test_runner_drain);
    tcase_add_test(tc, test_runner_wakeup);
    tcase_add_test(tc, test_runner_add_del_add);
    tcase_add_test(tc, test_runner_show);
    suite_add_tcase(s, tc);
    return s;
}
