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

/* lpm4 -- IPv4 longest-prefix-match table, DIR-24-8.  See lpm4.h. */

#include <config.h>

#include "asic-sim/lpm4.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "openvswitch/util.h"
#include "util.h"

/* A prefix in the rule hash table. */
struct lpm4_rule {
    uint32_t prefix;            /* Host byte order, host bits zero. */
    uint32_t info;              /* 0 for an empty slot, otherwise
                                 * LPM4_VALID | plen << 24 | value. */
};

#define TBL24_ENTRIES (1u << 24)
#define TBL24_BYTES (TBL24_ENTRIES * sizeof(uint32_t))
#define TBL8_GROUP_ENTRIES 256
#define TBL8_GROUP_BYTES (TBL8_GROUP_ENTRIES * sizeof(uint32_t))
#define HUGE_PAGE_SIZE (2u << 20)
#define RULES_MIN_SLOTS 1024

static uint32_t lpm4_mask(unsigned int plen);
static unsigned int entry_depth(uint32_t e);

static void *map_zeroed(size_t size, bool huge);
static void unmap(void *, size_t);

static struct lpm4_rule *rule_find(const struct lpm4 *, uint32_t prefix,
                                   unsigned int plen);
static bool rule_add(struct lpm4 *, uint32_t prefix, unsigned int plen,
                     uint32_t value);
static void rule_remove(struct lpm4 *, struct lpm4_rule *);
static void rules_resize(struct lpm4 *, size_t n_slots);

static uint32_t *tbl8_group(const struct lpm4 *, uint32_t group);
static uint32_t *tbl8_group_get(struct lpm4 *, uint32_t block);
static void tbl8_group_release(struct lpm4 *, uint32_t block);

static uint32_t find_replacement(const struct lpm4 *, uint32_t prefix,
                                 unsigned int plen);

/* Creates and returns a new, empty table.  Never fails (aborts if out of
 * memory). */
struct lpm4 *
lpm4_create(void)
{
    struct lpm4 *lpm = xzalloc(sizeof *lpm);

    lpm->tbl24 = map_zeroed(TBL24_BYTES, true);
    rules_resize(lpm, RULES_MIN_SLOTS);
    return lpm;
}

/* Frees 'lpm' and all its memory.  'lpm' may be null. */
void
lpm4_destroy(struct lpm4 *lpm)
{
    if (lpm) {
        unmap(lpm->tbl24, TBL24_BYTES);
        if (lpm->tbl8) {
            unmap(lpm->tbl8, lpm->n_tbl8_alloc * TBL8_GROUP_BYTES);
        }
        free(lpm->tbl8_free);
        unmap(lpm->rules, (lpm->rules_mask + 1) * sizeof *lpm->rules);
        free(lpm);
    }
}

/* Adds 'prefix'/'plen' with 'value' to 'lpm'.  Returns 0 if successful,
 * EEXIST if the table already has 'prefix'/'plen' (the table is then
 * unchanged), or EINVAL if 'plen' > 32 or 'value' > LPM4_MAX_VALUE. */
int
lpm4_insert(struct lpm4 *lpm, uint32_t prefix, unsigned int plen,
            uint32_t value)
{
    if (plen > 32 || value > LPM4_MAX_VALUE) {
        return EINVAL;
    }
    prefix &= lpm4_mask(plen);
    if (!rule_add(lpm, prefix, plen, value)) {
        return EEXIST;
    }

    /* Write the new entry wherever the current entry comes from a shorter
     * (or no) prefix.  An entry of the same depth inside the range can only
     * be this prefix itself, which is new, so '<=' equals '<' here and also
     * covers empty (zero) entries. */
    uint32_t ne = LPM4_VALID | (plen << LPM4_DEPTH_SHIFT) | value;
    if (plen <= 24) {
        uint32_t first = prefix >> 8;
        uint32_t n = 1u << (24 - plen);

        for (uint32_t i = first; i < first + n; i++) {
            uint32_t e = lpm->tbl24[i];

            if (e & LPM4_EXT) {
                uint32_t *g = tbl8_group(lpm, e & LPM4_VALUE_MASK);

                for (int j = 0; j < TBL8_GROUP_ENTRIES; j++) {
                    if (entry_depth(g[j]) <= plen) {
                        g[j] = ne;
                    }
                }
            } else if (entry_depth(e) <= plen) {
                lpm->tbl24[i] = ne;
            }
        }
    } else {
        uint32_t *g = tbl8_group_get(lpm, prefix >> 8);
        uint32_t first = prefix & 0xff;
        uint32_t n = 1u << (32 - plen);

        for (uint32_t j = first; j < first + n; j++) {
            if (entry_depth(g[j]) <= plen) {
                g[j] = ne;
            }
        }
    }
    return 0;
}

/* Removes 'prefix'/'plen' from 'lpm'.  Returns 0 if successful, storing its
 * value in '*old_value' if 'old_value' is nonnull, ENOENT if 'lpm' does not
 * have that prefix, or EINVAL if 'plen' > 32. */
int
lpm4_delete(struct lpm4 *lpm, uint32_t prefix, unsigned int plen,
            uint32_t *old_value)
{
    if (plen > 32) {
        return EINVAL;
    }
    prefix &= lpm4_mask(plen);

    struct lpm4_rule *rule = rule_find(lpm, prefix, plen);
    if (!rule) {
        return ENOENT;
    }
    if (old_value) {
        *old_value = rule->info & LPM4_VALUE_MASK;
    }
    rule_remove(lpm, rule);

    /* Within the prefix's range, exactly the entries whose depth is 'plen'
     * came from this prefix: give them the next longest covering prefix. */
    uint32_t r = find_replacement(lpm, prefix, plen);
    if (plen <= 24) {
        uint32_t first = prefix >> 8;
        uint32_t n = 1u << (24 - plen);

        for (uint32_t i = first; i < first + n; i++) {
            uint32_t e = lpm->tbl24[i];

            if (e & LPM4_EXT) {
                uint32_t *g = tbl8_group(lpm, e & LPM4_VALUE_MASK);

                for (int j = 0; j < TBL8_GROUP_ENTRIES; j++) {
                    if (entry_depth(g[j]) == plen) {
                        g[j] = r;
                    }
                }
            } else if (entry_depth(e) == plen) {
                lpm->tbl24[i] = r;
            }
        }
    } else {
        uint32_t block = prefix >> 8;
        uint32_t *g = tbl8_group(lpm, lpm->tbl24[block] & LPM4_VALUE_MASK);
        uint32_t first = prefix & 0xff;
        uint32_t n = 1u << (32 - plen);

        for (uint32_t j = first; j < first + n; j++) {
            if (entry_depth(g[j]) == plen) {
                g[j] = r;
            }
        }
        tbl8_group_release(lpm, block);
    }
    return 0;
}

/* Returns true and stores in '*value' (if nonnull) the value of exactly
 * 'prefix'/'plen' if 'lpm' has that prefix, otherwise returns false. */
bool
lpm4_get(const struct lpm4 *lpm, uint32_t prefix, unsigned int plen,
         uint32_t *value)
{
    if (plen > 32) {
        return false;
    }

    const struct lpm4_rule *rule = rule_find(lpm, prefix & lpm4_mask(plen),
                                             plen);
    if (rule && value) {
        *value = rule->info & LPM4_VALUE_MASK;
    }
    return rule != NULL;
}

/* Starts fetching into the CPU cache the memory that inserting, deleting or
 * getting 'prefix'/'plen' will touch first, so that a caller processing a
 * batch can overlap the cache misses of several operations. */
void
lpm4_prefetch(const struct lpm4 *lpm, uint32_t prefix, unsigned int plen)
{
    prefix &= lpm4_mask(plen);

    uint64_t key = ((uint64_t) prefix << 6) | plen;
    uint32_t slot = (key * UINT64_C(0x9e3779b97f4a7c15)) >> lpm->rules_shift;
    OVS_PREFETCH(&lpm->rules[slot]);
    OVS_PREFETCH(&lpm->tbl24[prefix >> 8]);
}

/* Looks up each of the 'n' addresses in 'addrs' and stores the value of its
 * longest matching prefix in the corresponding element of 'values', or
 * LPM4_NO_MATCH if none matches.  Faster than calling lpm4_lookup() in a
 * loop because it prefetches the entries of later addresses. */
void
lpm4_lookup_bulk(const struct lpm4 *lpm, const uint32_t addrs[], size_t n,
                 uint32_t values[])
{
    enum { AHEAD = 8 };         /* Prefetch distance, in lookups. */

    for (size_t i = 0; i < n && i < AHEAD; i++) {
        lpm4_lookup_prefetch(lpm, addrs[i]);
    }
    for (size_t i = 0; i < n; i++) {
        unsigned int plen;
        uint32_t value;

        if (i + AHEAD < n) {
            lpm4_lookup_prefetch(lpm, addrs[i + AHEAD]);
        }
        values[i] = (lpm4_lookup(lpm, addrs[i], &value, &plen)
                     ? value : LPM4_NO_MATCH);
    }
}

/* Returns the number of prefixes in 'lpm'. */
size_t
lpm4_count(const struct lpm4 *lpm)
{
    return lpm->n_rules;
}

/* Stores the memory used by 'lpm' in '*mem'. */
void
lpm4_memory(const struct lpm4 *lpm, struct lpm4_memory *mem)
{
    mem->tbl24_bytes = TBL24_BYTES;
    mem->tbl8_bytes = lpm->n_tbl8_hwm * TBL8_GROUP_BYTES;
    mem->n_tbl8_groups = lpm->n_tbl8_used;
    mem->rules_bytes = (lpm->rules_mask + 1) * sizeof *lpm->rules;
}

static int
compare_rules(const void *a_, const void *b_)
{
    const struct lpm4_rule *a = a_;
    const struct lpm4_rule *b = b_;

    if (a->prefix != b->prefix) {
        return a->prefix < b->prefix ? -1 : 1;
    }
    return (int) entry_depth(a->info) - (int) entry_depth(b->info);
}

/* Calls 'cb' for each prefix in 'lpm', with 'aux'.  If 'sorted' is true, the
 * prefixes come in order of address, then length (10.0.0.0/8 before
 * 10.0.0.0/16 before 10.1.0.0/16), at the cost of a temporary copy and a
 * sort; otherwise in no particular order.  'cb' must not modify 'lpm'. */
void
lpm4_walk(const struct lpm4 *lpm, bool sorted, lpm4_walk_cb *cb, void *aux)
{
    size_t n_slots = lpm->rules_mask + 1;

    if (!sorted) {
        for (size_t i = 0; i < n_slots; i++) {
            const struct lpm4_rule *r = &lpm->rules[i];
            if (r->info) {
                cb(r->prefix, entry_depth(r->info),
                   r->info & LPM4_VALUE_MASK, aux);
            }
        }
        return;
    }

    struct lpm4_rule *copy = xmalloc((lpm->n_rules + 1) * sizeof *copy);
    size_t n = 0;
    for (size_t i = 0; i < n_slots; i++) {
        if (lpm->rules[i].info) {
            copy[n++] = lpm->rules[i];
        }
    }
    qsort(copy, n, sizeof *copy, compare_rules);
    for (size_t i = 0; i < n; i++) {
        cb(copy[i].prefix, entry_depth(copy[i].info),
           copy[i].info & LPM4_VALUE_MASK, aux);
    }
    free(copy);
}

static uint32_t
lpm4_mask(unsigned int plen)
{
    return plen ? UINT32_MAX << (32 - plen) : 0;
}

/* Returns the depth of table entry or rule info 'e' (0 for an empty one). */
static unsigned int
entry_depth(uint32_t e)
{
    return (e >> LPM4_DEPTH_SHIFT) & LPM4_DEPTH_MASK;
}

/* Finds the entry that must replace, within the range of 'prefix'/'plen',
 * the entries that came from that prefix, which has just been removed from
 * the rule table: the longest remaining prefix shorter than 'plen' that
 * covers it, or 0 if there is none.
 *
 * Shortcut: a prefix shorter than 'plen' covers 'prefix' if and only if it
 * covers its sibling (the other half of the /'plen'-1 parent), so any entry
 * of the sibling's range whose depth is less than 'plen' (including an empty
 * entry) is the answer.  Only if the first few entries of the sibling all
 * come from longer prefixes, probe the rule table length by length. */
static uint32_t
find_replacement(const struct lpm4 *lpm, uint32_t prefix, unsigned int plen)
{
    enum { MAX_PROBES = 16 };   /* Sibling entries to look at. */

    if (!plen) {
        return 0;
    }

    uint32_t sibling = prefix ^ (UINT32_C(1) << (32 - plen));
    if (plen <= 24) {
        uint32_t first = sibling >> 8;
        uint32_t n = MIN(1u << (24 - plen), MAX_PROBES);

        for (uint32_t i = first; i < first + n; i++) {
            uint32_t e = lpm->tbl24[i];

            if (e & LPM4_EXT) {
                e = tbl8_group(lpm, e & LPM4_VALUE_MASK)[0];
            }
            if (entry_depth(e) < plen) {
                return e;
            }
        }
    } else {
        const uint32_t *g = tbl8_group(lpm, (lpm->tbl24[prefix >> 8]
                                             & LPM4_VALUE_MASK));
        uint32_t first = sibling & 0xff;
        uint32_t n = MIN(1u << (32 - plen), MAX_PROBES);

        for (uint32_t j = first; j < first + n; j++) {
            if (entry_depth(g[j]) < plen) {
                return g[j];
            }
        }
    }

    for (int len = plen - 1; len >= 0; len--) {
        if (lpm->len_count[len]) {
            const struct lpm4_rule *rule = rule_find(lpm,
                                                     prefix & lpm4_mask(len),
                                                     len);
            if (rule) {
                return rule->info;
            }
        }
    }
    return 0;
}

/* Memory. */

/* Returns 'size' bytes of zeroed, page-aligned memory, which the kernel
 * backs with physical pages only as they are written.  If 'huge' is true,
 * aligns it to and asks for transparent huge pages, which cut the TLB misses
 * of random lookups. */
static void *
map_zeroed(size_t size, bool huge)
{
    size_t extra = huge ? HUGE_PAGE_SIZE : 0;
    char *p = mmap(NULL, size + extra, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        out_of_memory();
    }
    if (huge) {
        uintptr_t start = ROUND_UP((uintptr_t) p, HUGE_PAGE_SIZE);
        size_t head = start - (uintptr_t) p;

        if (head) {
            munmap(p, head);
        }
        if (extra - head) {
            munmap((char *) start + size, extra - head);
        }
        p = (char *) start;
#ifdef MADV_HUGEPAGE
        madvise(p, size, MADV_HUGEPAGE);
#endif
    }
    return p;
}

static void
unmap(void *p, size_t size)
{
    munmap(p, size);
}

/* Rule hash table: open addressing, linear probing, backward-shift
 * deletion, at most 3/4 full. */

static uint32_t
rule_slot(const struct lpm4 *lpm, uint32_t prefix, unsigned int plen)
{
    uint64_t key = ((uint64_t) prefix << 6) | plen;
    return (key * UINT64_C(0x9e3779b97f4a7c15)) >> lpm->rules_shift;
}

static struct lpm4_rule *
rule_find(const struct lpm4 *lpm, uint32_t prefix, unsigned int plen)
{
    for (uint32_t i = rule_slot(lpm, prefix, plen); ;
         i = (i + 1) & lpm->rules_mask) {
        struct lpm4_rule *r = &lpm->rules[i];

        if (!r->info) {
            return NULL;
        } else if (r->prefix == prefix && entry_depth(r->info) == plen) {
            return r;
        }
    }
}

/* Adds 'prefix'/'plen' -> 'value' to the rule table, unless the prefix is
 * already there; returns true if it added it. */
static bool
rule_add(struct lpm4 *lpm, uint32_t prefix, unsigned int plen,
         uint32_t value)
{
    size_t n_slots = lpm->rules_mask + 1;
    if ((lpm->n_rules + 1) * 4 > n_slots * 3) {
        rules_resize(lpm, n_slots * 2);
    }

    for (uint32_t i = rule_slot(lpm, prefix, plen); ;
         i = (i + 1) & lpm->rules_mask) {
        struct lpm4_rule *r = &lpm->rules[i];

        if (!r->info) {
            r->prefix = prefix;
            r->info = LPM4_VALID | (plen << LPM4_DEPTH_SHIFT) | value;
            lpm->n_rules++;
            lpm->len_count[plen]++;
            return true;
        } else if (r->prefix == prefix && entry_depth(r->info) == plen) {
            return false;
        }
    }
}

/* Removes 'rule', which must be in 'lpm''s rule table. */
static void
rule_remove(struct lpm4 *lpm, struct lpm4_rule *rule)
{
    uint32_t mask = lpm->rules_mask;
    uint32_t hole = rule - lpm->rules;

    lpm->n_rules--;
    lpm->len_count[entry_depth(rule->info)]--;

    /* Shift back the rules after the hole that may move into it, so that
     * lookups never need tombstones. */
    for (uint32_t j = (hole + 1) & mask; lpm->rules[j].info;
         j = (j + 1) & mask) {
        const struct lpm4_rule *r = &lpm->rules[j];
        uint32_t home = rule_slot(lpm, r->prefix, entry_depth(r->info));

        if (((j - home) & mask) >= ((j - hole) & mask)) {
            lpm->rules[hole] = *r;
            hole = j;
        }
    }
    lpm->rules[hole].prefix = 0;
    lpm->rules[hole].info = 0;
}

/* Replaces the rule table by one with 'n_slots' slots, a power of 2. */
static void
rules_resize(struct lpm4 *lpm, size_t n_slots)
{
    struct lpm4_rule *old = lpm->rules;
    size_t old_slots = old ? lpm->rules_mask + 1 : 0;

    ovs_assert(is_pow2(n_slots) && n_slots <= (UINT64_C(1) << 31));
    lpm->rules = map_zeroed(n_slots * sizeof *lpm->rules, false);
    lpm->rules_mask = n_slots - 1;
    lpm->rules_shift = 64 - log_2_floor(n_slots);

    for (size_t i = 0; i < old_slots; i++) {
        if (old[i].info) {
            uint32_t j = rule_slot(lpm, old[i].prefix,
                                   entry_depth(old[i].info));
            while (lpm->rules[j].info) {
                j = (j + 1) & lpm->rules_mask;
            }
            lpm->rules[j] = old[i];
        }
    }
    if (old) {
        unmap(old, old_slots * sizeof *old);
    }
}

/* tbl8 groups. */

static uint32_t *
tbl8_group(const struct lpm4 *lpm, uint32_t group)
{
    return &lpm->tbl8[(size_t) group * TBL8_GROUP_ENTRIES];
}

/* Returns the tbl8 group for /24 block 'block', first giving the block a
 * group, filled with what its tbl24 entry held, if it has none. */
static uint32_t *
tbl8_group_get(struct lpm4 *lpm, uint32_t block)
{
    uint32_t e = lpm->tbl24[block];
    if (e & LPM4_EXT) {
        return tbl8_group(lpm, e & LPM4_VALUE_MASK);
    }

    uint32_t group;
    if (lpm->n_tbl8_free) {
        group = lpm->tbl8_free[--lpm->n_tbl8_free];
    } else {
        if (lpm->n_tbl8_hwm >= lpm->n_tbl8_alloc) {
            size_t old_bytes = lpm->n_tbl8_alloc * TBL8_GROUP_BYTES;
            size_t n_alloc = MAX(64, lpm->n_tbl8_alloc * 2);
            size_t new_bytes = n_alloc * TBL8_GROUP_BYTES;

            ovs_assert(n_alloc <= LPM4_VALUE_MASK + 1);
            if (!lpm->tbl8) {
                lpm->tbl8 = map_zeroed(new_bytes, false);
            } else {
                /* Growing by remapping copies nothing, and the new part
                 * costs nothing until it is used. */
                void *p = mremap(lpm->tbl8, old_bytes, new_bytes,
                                 MREMAP_MAYMOVE);
                if (p == MAP_FAILED) {
                    out_of_memory();
                }
                lpm->tbl8 = p;
            }
#ifdef MADV_HUGEPAGE
            if (new_bytes >= 4 * HUGE_PAGE_SIZE) {
                madvise(lpm->tbl8, new_bytes, MADV_HUGEPAGE);
            }
#endif
            lpm->n_tbl8_alloc = n_alloc;
        }
        group = lpm->n_tbl8_hwm++;
    }
    lpm->n_tbl8_used++;

    uint32_t *g = tbl8_group(lpm, group);
    for (int j = 0; j < TBL8_GROUP_ENTRIES; j++) {
        g[j] = e;
    }
    lpm->tbl24[block] = LPM4_EXT | group;
    return g;
}

/* If /24 block 'block''s tbl8 group no longer holds any prefix longer than
 * /24, puts its (then uniform) content back into tbl24 and frees it. */
static void
tbl8_group_release(struct lpm4 *lpm, uint32_t block)
{
    uint32_t group = lpm->tbl24[block] & LPM4_VALUE_MASK;
    const uint32_t *g = tbl8_group(lpm, group);

    for (int j = 0; j < TBL8_GROUP_ENTRIES; j++) {
        if (entry_depth(g[j]) > 24) {
            return;
        }
    }

    lpm->tbl24[block] = g[0];
    if (lpm->n_tbl8_free >= lpm->tbl8_free_alloc) {
        lpm->tbl8_free = x2nrealloc(lpm->tbl8_free, &lpm->tbl8_free_alloc,
                                    sizeof *lpm->tbl8_free);
    }
    lpm->tbl8_free[lpm->n_tbl8_free++] = group;
    lpm->n_tbl8_used--;
}
