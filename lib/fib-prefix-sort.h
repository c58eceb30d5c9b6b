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

#ifndef FIB_PREFIX_SORT_H
#define FIB_PREFIX_SORT_H 1

/* Sorting many prefixes at once.
 *
 * A dump of a million routes in prefix order spends most of its time
 * sorting if it calls qsort() on pointers with fib_prefix_compare(): every
 * comparison chases two pointers into memory spread over gigabytes, and
 * glibc's merge sort copies each element with memmove().  Instead the
 * caller fills an array of 'struct fib_prefix_sort_item's, each holding its
 * key by value, and fib_prefix_sort() orders it with a least-significant-
 * digit radix sort: one pass to count every byte of every key, then one
 * stable scatter pass per key byte that is not the same in every item.  For
 * IPv4 routes in one VRF that is 5 passes (4 address bytes and the length)
 * over 32-byte items, whatever the number of routes.
 *
 * The order is that of fib_prefix_compare() within a group: IPv4 before
 * IPv6, then the address as a number, then the prefix length; groups
 * (VRFs, say, numbered by the caller in the order it wants) come first. */

#include <stddef.h>
#include <stdint.h>

struct fib_prefix;

/* One prefix to sort, with the caller's pointer. */
struct fib_prefix_sort_item {
    uint64_t hi;                /* Address bytes 0...7, big-endian value. */
    uint64_t lo;                /* Address bytes 8...15, big-endian value. */
    uint32_t group;             /* Most significant: the caller's group. */
    uint8_t family;             /* 0 for IPv4, 1 for IPv6. */
    uint8_t len;                /* Prefix length. */
    void *data;                 /* The caller's, carried along. */
};

void fib_prefix_sort_item_init(struct fib_prefix_sort_item *, uint32_t group,
                               const struct fib_prefix *, void *data);
void fib_prefix_sort(struct fib_prefix_sort_item *, size_t n);

#endif /* fib-prefix-sort.h */
