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

/* lpm6 -- IPv6 longest-prefix-match table, a multibit trie.
 *
 * A trie of stride 8: a node at depth 'd' (a multiple of 8) consumes one
 * byte of the address.  Each node stores, Tree-Bitmap style (Eatherton,
 * Varghese and Dittia):
 *
 *   - the prefixes of lengths d+1 to d+8 that end in it, as a 510-bit
 *     bitmap indexed by heap position ((1 << r) | top 'r' bits of the byte,
 *     for relative length 'r' = 1...8) and a dense array of their values in
 *     bitmap order;
 *
 *   - its children, as a 256-bit bitmap indexed by the byte and a dense
 *     array of child pointers in bitmap order.
 *
 * Ranks within the bitmaps are population counts, so a node costs about
 * 112 bytes plus 4 bytes a prefix and 8 bytes a child, whatever its fill:
 * sparse tables (typical of IPv6, where most prefixes are /32 to /64 and
 * share their first bytes) stay small.  A lookup visits at most 16 nodes
 * (typically 4 to 8) and tests at most 8 bits in each.  The default route
 * (/0) is kept aside.
 *
 * Values are arbitrary 32-bit integers.  Host bits beyond the prefix length
 * are ignored on input and zero on output.
 *
 * Not thread-safe: the caller serializes all calls on one table. */

#ifndef LPM6_H
#define LPM6_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lpm6;

/* Memory used by a table, in bytes (as requested from the allocator). */
struct lpm6_memory {
    size_t n_nodes;             /* Trie nodes. */
    size_t bytes;               /* Nodes plus their value/child arrays. */
};

struct lpm6 *lpm6_create(void);
void lpm6_destroy(struct lpm6 *);

int lpm6_insert(struct lpm6 *, const struct in6_addr *prefix,
                unsigned int plen, uint32_t value);
int lpm6_delete(struct lpm6 *, const struct in6_addr *prefix,
                unsigned int plen, uint32_t *old_value);
bool lpm6_get(const struct lpm6 *, const struct in6_addr *prefix,
              unsigned int plen, uint32_t *value);
bool lpm6_lookup(const struct lpm6 *, const struct in6_addr *addr,
                 uint32_t *value, unsigned int *plen);

size_t lpm6_count(const struct lpm6 *);
void lpm6_memory(const struct lpm6 *, struct lpm6_memory *);

/* Called by lpm6_walk() for each prefix. */
typedef void lpm6_walk_cb(const struct in6_addr *prefix, unsigned int plen,
                          uint32_t value, void *aux);
void lpm6_walk(const struct lpm6 *, lpm6_walk_cb *, void *aux);

#endif /* lpm6.h */
