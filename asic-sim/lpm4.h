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

/* lpm4 -- IPv4 longest-prefix-match table, DIR-24-8.
 *
 * The forwarding structure is the classic DIR-24-8 of Gupta, Lin and
 * McKeown (as in DPDK's rte_lpm):
 *
 *   - 'tbl24' has one 32-bit entry for each of the 2^24 /24 blocks of the
 *     address space.  An entry either holds the value and depth of the
 *     longest prefix of length <= 24 that covers the block, or points to a
 *     group of 'tbl8'.
 *
 *   - A 'tbl8' group has 256 entries, one for each address of a /24 block
 *     that holds at least one prefix longer than /24.
 *
 * A lookup is therefore one memory access, or two for addresses in a /24
 * that holds longer prefixes.  'tbl24' is 64 MiB of address space per table,
 * mapped lazily (only the pages written are resident) and backed by
 * transparent huge pages where the kernel allows, which is the fixed cost of
 * the structure.  Each 'tbl8' group costs 1 KiB.
 *
 * The prefixes themselves ("rules") are kept in an open-addressing hash
 * table keyed by (prefix, length), 8 bytes a slot, which answers exact-match
 * queries and finds the covering prefix that must replace a deleted one.
 *
 * Values are 24-bit (0 to LPM4_MAX_VALUE): the table maps a prefix to a
 * small integer, typically an index into the caller's own array.
 *
 * Addresses and prefixes are uint32_t in host byte order.  Host bits beyond
 * the prefix length are ignored on input and zero on output.
 *
 * Not thread-safe: the caller serializes all calls on one table. */

#ifndef LPM4_H
#define LPM4_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "openvswitch/compiler.h"

/* Largest value that a prefix can map to. */
#define LPM4_MAX_VALUE ((1u << 24) - 1)

/* Value stored by lpm4_lookup_bulk() for an address that matches no
 * prefix.  It is larger than LPM4_MAX_VALUE, so never a real value. */
#define LPM4_NO_MATCH UINT32_MAX

/* Table entry and rule encoding (also used for hash-table rules).  An entry
 * is 0 if no prefix covers it. */
#define LPM4_VALID       0x80000000u /* Entry holds a value and depth. */
#define LPM4_EXT         0x40000000u /* tbl24 only: value is a tbl8 group. */
#define LPM4_DEPTH_SHIFT 24          /* Depth (prefix length) 0...32. */
#define LPM4_DEPTH_MASK  0x3fu
#define LPM4_VALUE_MASK  0x00ffffffu /* Value or tbl8 group index. */

/* An IPv4 longest-prefix-match table.  The members are exposed only so that
 * lpm4_lookup() can be inlined; treat them as private. */
struct lpm4 {
    uint32_t *tbl24;            /* 2^24 entries, mmap()ed. */
    uint32_t *tbl8;             /* 'n_tbl8_alloc' groups of 256 entries. */
    size_t n_tbl8_alloc;        /* tbl8 groups mapped. */
    size_t n_tbl8_hwm;          /* Groups ever handed out (high water). */
    size_t n_tbl8_used;         /* Groups in use now. */
    uint32_t *tbl8_free;        /* Stack of free groups below the hwm. */
    size_t n_tbl8_free;         /* Entries in 'tbl8_free'. */
    size_t tbl8_free_alloc;     /* Capacity of 'tbl8_free'. */

    struct lpm4_rule *rules;    /* Open-addressing hash of the prefixes. */
    uint32_t rules_mask;        /* Number of slots in 'rules', minus 1. */
    uint32_t rules_shift;       /* 64 - log2(number of slots). */
    size_t n_rules;             /* Prefixes in the table. */
    uint32_t len_count[33];     /* Number of prefixes of each length. */
};

/* Memory used by a table, in bytes. */
struct lpm4_memory {
    size_t tbl24_bytes;         /* Fixed cost: tbl24's address space. */
    size_t tbl8_bytes;          /* tbl8 groups ever touched (high water). */
    size_t n_tbl8_groups;       /* tbl8 groups in use now. */
    size_t rules_bytes;         /* The rule hash table. */
};

struct lpm4 *lpm4_create(void);
void lpm4_destroy(struct lpm4 *);

int lpm4_insert(struct lpm4 *, uint32_t prefix, unsigned int plen,
                uint32_t value);
int lpm4_delete(struct lpm4 *, uint32_t prefix, unsigned int plen,
                uint32_t *old_value);
bool lpm4_get(const struct lpm4 *, uint32_t prefix, unsigned int plen,
              uint32_t *value);
void lpm4_prefetch(const struct lpm4 *, uint32_t prefix, unsigned int plen);

static inline bool lpm4_lookup(const struct lpm4 *, uint32_t addr,
                               uint32_t *value, unsigned int *plen);
static inline void lpm4_lookup_prefetch(const struct lpm4 *, uint32_t addr);
void lpm4_lookup_bulk(const struct lpm4 *, const uint32_t addrs[], size_t n,
                      uint32_t values[]);

size_t lpm4_count(const struct lpm4 *);
void lpm4_memory(const struct lpm4 *, struct lpm4_memory *);

/* Called by lpm4_walk() for each prefix. */
typedef void lpm4_walk_cb(uint32_t prefix, unsigned int plen, uint32_t value,
                          void *aux);
void lpm4_walk(const struct lpm4 *, bool sorted, lpm4_walk_cb *, void *aux);

/* Looks up 'addr' in 'lpm'.  If some prefix covers it, stores the value of
 * the longest such prefix in '*value' and its length in '*plen' and returns
 * true; otherwise returns false. */
static inline bool
lpm4_lookup(const struct lpm4 *lpm, uint32_t addr, uint32_t *value,
            unsigned int *plen)
{
    uint32_t e = lpm->tbl24[addr >> 8];

    if (OVS_UNLIKELY(e & LPM4_EXT)) {
        e = lpm->tbl8[((size_t) (e & LPM4_VALUE_MASK) << 8) | (addr & 0xff)];
    }
    *value = e & LPM4_VALUE_MASK;
    *plen = (e >> LPM4_DEPTH_SHIFT) & LPM4_DEPTH_MASK;
    return (e & LPM4_VALID) != 0;
}

/* Starts fetching into the CPU cache the tbl24 entry that looking up 'addr'
 * reads first, so that a caller looking up a batch of addresses can overlap
 * their cache misses. */
static inline void
lpm4_lookup_prefetch(const struct lpm4 *lpm, uint32_t addr)
{
    OVS_PREFETCH(&lpm->tbl24[addr >> 8]);
}

#endif /* lpm4.h */
