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

#include "lib/fib-prefix-sort.h"

#include <string.h>
#include <sys/socket.h>

#include "lib/fib-prefix.h"
#include "util.h"

/* Key bytes, least significant first: the length (1), 'lo' (8), 'hi' (8),
 * the family (1) and the group (4). */
#define N_DIGITS 22

/* Returns byte 'd' of the key of 'it', least significant first. */
static inline unsigned int
digit(const struct fib_prefix_sort_item *it, int d)
{
    if (d == 0) {
        return it->len;
    } else if (d <= 8) {
        return (it->lo >> (8 * (d - 1))) & 0xff;
    } else if (d <= 16) {
        return (it->hi >> (8 * (d - 9))) & 0xff;
    } else if (d == 17) {
        return it->family;
    } else {
        return (it->group >> (8 * (d - 18))) & 0xff;
    }
}

/* Fills 'it' with the key of 'prefix' in 'group', carrying 'data'. */
void
fib_prefix_sort_item_init(struct fib_prefix_sort_item *it, uint32_t group,
                          const struct fib_prefix *prefix, void *data)
{
    fib_prefix_load_addr(prefix, &it->hi, &it->lo);
    it->group = group;
    it->family = prefix->family != AF_INET;
    it->len = prefix->len;
    it->data = data;
}

/* Sorts the 'n' items of 'items' by (group, family, address, length),
 * stably.  Needs a scratch copy of the array. */
void
fib_prefix_sort(struct fib_prefix_sort_item *items, size_t n)
{
    struct fib_prefix_sort_item *src = items, *dst;
    size_t (*count)[256];

    if (n < 2) {
        return;
    }

    /* One pass counts every digit of every key. */
    count = xcalloc(N_DIGITS, sizeof *count);
    for (size_t i = 0; i < n; i++) {
        for (int d = 0; d < N_DIGITS; d++) {
            count[d][digit(&items[i], d)]++;
        }
    }

    dst = xmalloc(n * sizeof *dst);
    for (int d = 0; d < N_DIGITS; d++) {
        size_t offset[256], sum = 0;
        struct fib_prefix_sort_item *tmp;

        if (count[d][digit(&src[0], d)] == n) {
            continue;           /* Every key has the same byte here. */
        }
        for (int b = 0; b < 256; b++) {
            offset[b] = sum;
            sum += count[d][b];
        }
        for (size_t i = 0; i < n; i++) {
            dst[offset[digit(&src[i], d)]++] = src[i];
        }
        tmp = src;
        src = dst;
        dst = tmp;
    }
    if (src != items) {
        memcpy(items, src, n * sizeof *items);
        dst = src;
    }
    free(dst);
    free(count);
}
