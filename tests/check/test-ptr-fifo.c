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

/* Check suite of lib/ptr-fifo: order across wrap-arounds and growth. */

#include <config.h>

#include <stdint.h>

#include "lib/ptr-fifo.h"
#include "tests/check/suites.h"

/* Pointer number 'i', never NULL. */
static void *
ptr(uintptr_t i)
{
    return (void *) (i + 1);
}

START_TEST(test_ptr_fifo_empty)
{
    struct ptr_fifo f = PTR_FIFO_INITIALIZER;

    ck_assert_uint_eq(ptr_fifo_len(&f), 0);
    ck_assert_ptr_null(ptr_fifo_pop(&f));
    ptr_fifo_push(&f, ptr(0));
    ck_assert_uint_eq(ptr_fifo_len(&f), 1);
    ck_assert_ptr_eq(ptr_fifo_pop(&f), ptr(0));
    ck_assert_ptr_null(ptr_fifo_pop(&f));
    ptr_fifo_destroy(&f);
    ck_assert_uint_eq(f.allocated, 0);
}
END_TEST

/* Interleaved pushes and pops wrap the ring around; growing a ring whose
 * oldest pointer is not in its first slot keeps the order. */
START_TEST(test_ptr_fifo_order)
{
    struct ptr_fifo f;
    uintptr_t next_in = 0, next_out = 0;

    ptr_fifo_init(&f);
    for (int round = 0; round < 6; round++) {
        /* Push 700, pop 500: the queue grows by 200 a round, past the
         * first ring of 1024, while its head moves. */
        for (int i = 0; i < 700; i++) {
            ptr_fifo_push(&f, ptr(next_in++));
        }
        for (int i = 0; i < 500; i++) {
            ck_assert_ptr_eq(ptr_fifo_pop(&f), ptr(next_out++));
        }
        ck_assert_uint_eq(ptr_fifo_len(&f), next_in - next_out);
    }
    ck_assert_uint_eq(f.allocated, 2048);
    for (int i = 0; i < 2800; i++) {
        ptr_fifo_push(&f, ptr(next_in++));
    }
    while (ptr_fifo_len(&f)) {
        ck_assert_ptr_eq(ptr_fifo_pop(&f), ptr(next_out++));
    }
    ck_assert_uint_eq(next_out, next_in);
    ck_assert_uint_eq(f.allocated, 4096);
    ptr_fifo_destroy(&f);
}
END_TEST

Suite *
ptr_fifo_suite(void)
{
    Suite *s = suite_create("ptr_fifo");
    TCase *tc = tcase_create("ptr_fifo");

    tcase_add_test(tc, test_ptr_fifo_empty);
    tcase_add_test(tc, test_ptr_fifo_order);
    suite_add_tcase(s, tc);
    return s;
}
