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

#include "tests/check/suites.h"
#include "lib/spsc-ring.h"
#include "ovs-thread.h"
#include "random.h"
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
    suite_add_tcase(s, tc);
    return s;
}
