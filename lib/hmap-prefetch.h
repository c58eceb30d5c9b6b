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

#ifndef HMAP_PREFETCH_H
#define HMAP_PREFETCH_H 1

/* Prefetching an OVS hmap lookup ahead of time.
 *
 * At a million routes, looking a key up in an hmap misses the cache twice:
 * on the bucket (an array of a million pointers) and on the first node of
 * its chain, whose address is known only once the bucket is in.  A caller
 * that has a group of keys to look up hides both by asking for every
 * key's bucket first, then for every bucket's first node, then doing the
 * lookups:
 *
 *     for (i = 0; i < n; i++) hmap_prefetch(map, hash[i], 0);
 *     for (i = 0; i < n; i++) hmap_prefetch(map, hash[i], 1);
 *     for (i = 0; i < n; i++) ...look key i up...
 *
 * A third pass at depth 2 brings in the second node of each chain, which
 * a lookup that misses walks too (an hmap's chains are up to 2 long on
 * average).
 *
 * A prefetch reads nothing a program can see and cannot fault, so it
 * needs no lock beyond the one that keeps 'map''s bucket array in place
 * (the thread that changes the map needs none).
 *
 * Short chains.  An OVS hmap grows when it holds more than two nodes a
 * bucket, so at a million keys its chains are 1 to 2 nodes long on
 * average, and a lookup that misses (a new key being added) walks all of
 * its chain: past the first node, which the prefetch brought in, each
 * node is a cache miss.  A map filled with hmap_insert_sparse() grows at
 * one node a bucket instead: twice the buckets (8 bytes each), and half
 * the nodes to walk. */

#include <stddef.h>

#include "compiler.h"
#include "openvswitch/hmap.h"
#include "openvswitch/util.h"

/* Asks the CPU for the bucket of 'hash' in 'map' if 'depth' is 0, or else
 * for the node 'depth' steps down the bucket's chain (1: the first node).
 * Call it with each depth in turn, a group of keys at a time: each step
 * reads the links that the one before brought in.
 *
 * Always inlined: GCC 12 at -O2 deletes the call of a plain static inline
 * function whose only effect is a prefetch (it sees no side effect), and
 * with it the prefetch. */
static inline ALWAYS_INLINE void
hmap_prefetch(const struct hmap *map, size_t hash, int depth)
{
    struct hmap_node *const *bucket = &map->buckets[hash & map->mask];
    const struct hmap_node *node;

    if (!depth) {
        OVS_PREFETCH(bucket);
        return;
    }
    for (node = *bucket; node && --depth; node = node->next) {
        continue;
    }
    if (node) {
        OVS_PREFETCH(node);
    }
}

/* Inserts 'node' with 'hash' into 'map' as hmap_insert() does, but first
 * grows 'map' to keep at most one node a bucket on average (see "Short
 * chains" above). */
static inline void
hmap_insert_sparse(struct hmap *map, struct hmap_node *node, size_t hash)
{
    if (hmap_count(map) > map->mask) {
        hmap_reserve(map, 2 * (hmap_count(map) + 1));
    }
    hmap_insert(map, node, hash);
}

#endif /* hmap-prefetch.h */
