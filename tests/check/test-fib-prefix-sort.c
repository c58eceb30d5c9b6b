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
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "tests/check/suites.h"
#include "lib/fib-prefix.h"
#include "lib/fib-prefix-sort.h"
#include "random.h"
#include "util.h"

/* A prefix with its group and its position in the input, for the
 * reference order. */
struct ref {
    uint32_t group;             /* Group given to the sort. */
    struct fib_prefix prefix;   /* The prefix. */
    size_t pos;                 /* Index in the input (for stability). */
};

/* The reference order: group, fib_prefix_compare(), then input position
 * (the radix sort is stable). */
static int
compare_refs(const void *a_, const void *b_)
{
    const struct ref *a = a_;
    const struct ref *b = b_;
    int c;

    if (a->group != b->group) {
        return a->group < b->group ? -1 : 1;
    }
    c = fib_prefix_compare(&a->prefix, &b->prefix);
    if (c) {
        return c;
    }
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* A random prefix: few distinct values per byte, so that equal addresses
 * with different lengths and shared high bytes are common. */
static void
random_prefix(struct fib_prefix *p)
{
    memset(p, 0, sizeof *p);
    p->family = random_uint32() % 3 ? AF_INET : AF_INET6;
    for (int i = 0; i < (p->family == AF_INET ? 4 : 16); i++) {
        p->addr[i] = random_uint32() % 4 ? random_uint8() % 3 : random_uint8();
    }
    p->len = random_uint32() % (p->family == AF_INET ? 33 : 129);
}

/* Sorts 'n' random prefixes in 'n_groups' groups and checks the result
 * against qsort() with fib_prefix_compare(). */
static void
check_random(size_t n, uint32_t n_groups)
{
    struct fib_prefix_sort_item *items = xmalloc((n + 1) * sizeof *items);
    struct ref *refs = xmalloc((n + 1) * sizeof *refs);

    for (size_t i = 0; i < n; i++) {
        refs[i].group = random_uint32() % n_groups * 0x01010101u;
        random_prefix(&refs[i].prefix);
        refs[i].pos = i;
        fib_prefix_sort_item_init(&items[i], refs[i].group, &refs[i].prefix,
                                  (void *) (uintptr_t) i);
    }
    fib_prefix_sort(items, n);
    qsort(refs, n, sizeof *refs, compare_refs);
    for (size_t i = 0; i < n; i++) {
        size_t got = (uintptr_t) items[i].data;

        ck_assert_msg(got == refs[i].pos,
                      "position %zu of %zu: input %zu, expected input %zu",
                      i, n, got, refs[i].pos);
    }
    free(items);
    free(refs);
}

START_TEST(test_sort_matches_compare)
{
    random_set_seed(0xf1b5);
    check_random(0, 1);
    check_random(1, 1);
    check_random(2, 1);
    check_random(1000, 1);
    check_random(20000, 1);
    check_random(20000, 5);
}
END_TEST

/* The documented order on a few hand-picked prefixes. */
START_TEST(test_sort_order)
{
    static const char *in[] = {
        "2001:db8::/32", "9.0.0.0/8", "10.0.0.0/16", "10.0.0.0/8",
        "::/0", "0.0.0.0/0", "10.0.0.0/8", "255.255.255.255/32",
    };
    static const char *out[] = {
        "0.0.0.0/0", "9.0.0.0/8", "10.0.0.0/8", "10.0.0.0/8",
        "10.0.0.0/16", "255.255.255.255/32", "::/0", "2001:db8::/32",
    };
    struct fib_prefix_sort_item items[ARRAY_SIZE(in)];
    struct fib_prefix prefixes[ARRAY_SIZE(in)];

    for (size_t i = 0; i < ARRAY_SIZE(in); i++) {
        ck_assert_ptr_null(fib_prefix_parse(in[i], &prefixes[i]));
        fib_prefix_sort_item_init(&items[i], 7, &prefixes[i], (void *) in[i]);
    }
    fib_prefix_sort(items, ARRAY_SIZE(in));
    for (size_t i = 0; i < ARRAY_SIZE(in); i++) {
        ck_assert_str_eq(items[i].data, out[i]);
    }
    /* Stable: the two 10.0.0.0/8 keep their input order. */
    ck_assert_ptr_eq(items[2].data, in[3]);
    ck_assert_ptr_eq(items[3].data, in[6]);
}
END_TEST

Suite *
fib_prefix_sort_suite(void)
{
    Suite *s = suite_create("fib-prefix-sort");
    TCase *tc = tcase_create("sort");

    tcase_add_test(tc, test_sort_order);
    tcase_add_test(tc, test_sort_matches_compare);
    suite_add_tcase(s, tc);
    return s;
}
