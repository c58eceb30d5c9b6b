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

/* Check suite "lpm": the DIR-24-8 IPv4 table (asic-sim/lpm4.c) and the
 * multibit-trie IPv6 table (asic-sim/lpm6.c), on hand-picked cases and
 * against a brute-force reference on 100,000 random prefixes each. */

#include <config.h>

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/lpm4.h"
#include "asic-sim/lpm6.h"
#include "hash.h"
#include "openvswitch/hmap.h"
#include "openvswitch/util.h"
#include "util.h"

Suite *lpm_suite(void);

/* Like ck_assert() and ck_assert_uint_eq(), but without Check's bookkeeping
 * for passing assertions (a write to a pipe each), which would dominate the
 * run time of the loops below that check millions of results. */
#define FAST_ASSERT(COND)                                           \
    do {                                                            \
        if (!(COND)) {                                              \
            ck_abort_msg("Assertion '%s' failed", #COND);           \
        }                                                           \
    } while (0)
#define FAST_ASSERT_UINT_EQ(X, Y)                                   \
    do {                                                            \
        uintmax_t x_ = (X);                                         \
        uintmax_t y_ = (Y);                                         \
        if (x_ != y_) {                                             \
            ck_abort_msg("Assertion '%s == %s' failed: %ju != %ju", \
                         #X, #Y, x_, y_);                           \
        }                                                           \
    } while (0)

/* Deterministic PRNG (splitmix64), so that a failure reproduces. */
struct rng {
    uint64_t state;             /* Advances by a constant each draw. */
};

static uint64_t
rng_u64(struct rng *rng)
{
    uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Returns a random integer in [0, n). */
static uint32_t
rng_below(struct rng *rng, uint32_t n)
{
    return ((rng_u64(rng) >> 32) * n) >> 32;
}

/* Brute-force reference: one hash table of (address, length) -> value,
 * probed longest length first, skipping the lengths that have no prefix.
 * Addresses are 16 bytes; IPv4 uses the first 4, in network order. */
struct ref_entry {
    struct hmap_node node;      /* In 'struct ref''s 'map'. */
    uint8_t addr[16];           /* Prefix, host bits zero. */
    unsigned int plen;          /* Prefix length. */
    uint32_t value;             /* Value. */
    size_t live_idx;            /* Index in the test's array of prefixes. */
};

struct ref {
    struct hmap map;            /* Contains "struct ref_entry"s. */
    unsigned int max_len;       /* 32 or 128. */
    size_t count[129];          /* Number of prefixes of each length. */
};

static void
mask_addr(uint8_t addr[16], unsigned int plen, unsigned int max_len)
{
    for (unsigned int i = 0; i < max_len / 8; i++) {
        if (plen >= 8 * (i + 1)) {
            continue;
        } else if (plen <= 8 * i) {
            addr[i] = 0;
        } else {
            addr[i] &= 0xff << (8 - (plen - 8 * i));
        }
    }
}

static uint32_t
ref_hash(const uint8_t addr[16], unsigned int plen)
{
    return hash_bytes(addr, 16, plen);
}

static struct ref_entry *
ref_find(const struct ref *ref, const uint8_t addr[16], unsigned int plen)
{
    struct ref_entry *e;

    HMAP_FOR_EACH_WITH_HASH (e, node, ref_hash(addr, plen), &ref->map) {
        if (e->plen == plen && !memcmp(e->addr, addr, 16)) {
            return e;
        }
    }
    return NULL;
}

static void
ref_init(struct ref *ref, unsigned int max_len)
{
    hmap_init(&ref->map);
    ref->max_len = max_len;
    memset(ref->count, 0, sizeof ref->count);
}

static void
ref_destroy(struct ref *ref)
{
    struct ref_entry *e;

    HMAP_FOR_EACH_POP (e, node, &ref->map) {
        free(e);
    }
    hmap_destroy(&ref->map);
}

static struct ref_entry *
ref_add(struct ref *ref, const uint8_t addr[16], unsigned int plen,
        uint32_t value)
{
    struct ref_entry *e = xzalloc(sizeof *e);

    memcpy(e->addr, addr, 16);
    e->plen = plen;
    e->value = value;
    hmap_insert(&ref->map, &e->node, ref_hash(addr, plen));
    ref->count[plen]++;
    return e;
}

static void
ref_remove(struct ref *ref, struct ref_entry *e)
{
    hmap_remove(&ref->map, &e->node);
    ref->count[e->plen]--;
    free(e);
}

static const struct ref_entry *
ref_lookup(const struct ref *ref, const uint8_t addr[16])
{
    for (int len = ref->max_len; len >= 0; len--) {
        if (ref->count[len]) {
            uint8_t masked[16];

            memcpy(masked, addr, 16);
            mask_addr(masked, len, ref->max_len);

            const struct ref_entry *e = ref_find(ref, masked, len);
            if (e) {
                return e;
            }
        }
    }
    return NULL;
}

static int
compare_ref_entries(const void *a_, const void *b_)
{
    const struct ref_entry *const *a = a_;
    const struct ref_entry *const *b = b_;
    int cmp = memcmp((*a)->addr, (*b)->addr, 16);

    return cmp ? cmp : (int) (*a)->plen - (int) (*b)->plen;
}

/* Prefix generator with plenty of nesting: addresses come from a few
 * hundred random "sites", with a random number of trailing bits
 * randomized, and lengths spread over the whole range. */
struct gen {
    struct rng rng;             /* Random source. */
    unsigned int max_len;       /* 32 or 128. */
    uint8_t sites[256][16];     /* Site base addresses. */
};

static void
gen_init(struct gen *gen, uint64_t seed, unsigned int max_len)
{
    gen->rng.state = seed;
    gen->max_len = max_len;
    for (int i = 0; i < 256; i++) {
        for (int j = 0; j < 16; j++) {
            gen->sites[i][j] = j < max_len / 8 ? rng_u64(&gen->rng) : 0;
        }
    }
}

/* Stores in 'addr' a random address near one of the sites (or, one time in
 * 16, anywhere). */
static void
gen_addr(struct gen *gen, uint8_t addr[16])
{
    unsigned int nbytes = gen->max_len / 8;

    memset(addr, 0, 16);
    if (!rng_below(&gen->rng, 16)) {
        for (unsigned int j = 0; j < nbytes; j++) {
            addr[j] = rng_u64(&gen->rng);
        }
        return;
    }

    /* Keep the site's first 'keep' bits, randomize the rest. */
    memcpy(addr, gen->sites[rng_below(&gen->rng, 256)], 16);
    unsigned int keep = 4 + rng_below(&gen->rng, gen->max_len - 3);
    for (unsigned int j = 0; j < nbytes; j++) {
        uint8_t r = rng_u64(&gen->rng);

        if (keep <= 8 * j) {
            addr[j] = r;
        } else if (keep < 8 * (j + 1)) {
            uint8_t m = 0xff << (8 - (keep - 8 * j));
            addr[j] = (addr[j] & m) | (r & ~m);
        }
    }
}

static unsigned int
gen_plen(struct gen *gen)
{
    /* Very short prefixes (/0 to /7) are rare, /8 to /15 uncommon, the
     * rest uniform: a short IPv4 prefix rewrites up to 2^24 tbl24 entries
     * (as in real tables, where they are few). */
    uint32_t r = rng_below(&gen->rng, 4096);
    return (r < 2 ? rng_below(&gen->rng, 8)
            : r < 256 ? 8 + rng_below(&gen->rng, 8)
            : 16 + rng_below(&gen->rng, gen->max_len - 15));
}

/* A table under test: either family, behind one interface. */
struct lpm_ops {
    unsigned int max_len;
    void *(*create)(void);
    void (*destroy)(void *);
    int (*insert)(void *, const uint8_t addr[16], unsigned int plen,
                  uint32_t value);
    int (*delete)(void *, const uint8_t addr[16], unsigned int plen,
                  uint32_t *old);
    bool (*get)(void *, const uint8_t addr[16], unsigned int plen,
                uint32_t *value);
    bool (*lookup)(void *, const uint8_t addr[16], uint32_t *value,
                   unsigned int *plen);
    size_t (*count)(void *);
    void (*walk)(void *, void (*cb)(const uint8_t addr[16],
                                    unsigned int plen, uint32_t value,
                                    void *aux), void *aux);
};

static uint32_t
get_be32(const uint8_t addr[16])
{
    return ((uint32_t) addr[0] << 24 | (uint32_t) addr[1] << 16
            | (uint32_t) addr[2] << 8 | addr[3]);
}

static void
put_be32(uint8_t addr[16], uint32_t x)
{
    memset(addr, 0, 16);
    addr[0] = x >> 24;
    addr[1] = x >> 16;
    addr[2] = x >> 8;
    addr[3] = x;
}

static void *lpm4_create_(void) { return lpm4_create(); }
static void lpm4_destroy_(void *t) { lpm4_destroy(t); }
static int
lpm4_insert_(void *t, const uint8_t a[16], unsigned int plen, uint32_t v)
{
    return lpm4_insert(t, get_be32(a), plen, v);
}
static int
lpm4_delete_(void *t, const uint8_t a[16], unsigned int plen, uint32_t *v)
{
    return lpm4_delete(t, get_be32(a), plen, v);
}
static bool
lpm4_get_(void *t, const uint8_t a[16], unsigned int plen, uint32_t *v)
{
    return lpm4_get(t, get_be32(a), plen, v);
}
static bool
lpm4_lookup_(void *t, const uint8_t a[16], uint32_t *v, unsigned int *plen)
{
    return lpm4_lookup(t, get_be32(a), v, plen);
}
static size_t lpm4_count_(void *t) { return lpm4_count(t); }

/* Adapts lpm4_walk()'s and lpm6_walk()'s callbacks to the 16-byte one. */
struct walk4_aux {
    void (*cb)(const uint8_t addr[16], unsigned int plen, uint32_t value,
               void *aux);
    void *aux;
};

static void
walk4_cb(uint32_t prefix, unsigned int plen, uint32_t value, void *aux_)
{
    struct walk4_aux *aux = aux_;
    uint8_t addr[16];

    put_be32(addr, prefix);
    aux->cb(addr, plen, value, aux->aux);
}

static void
lpm4_walk_(void *t, void (*cb)(const uint8_t addr[16], unsigned int plen,
                               uint32_t value, void *aux), void *aux)
{
    struct walk4_aux a = { cb, aux };
    lpm4_walk(t, true, walk4_cb, &a);
}

static const struct lpm_ops lpm4_ops = {
    32, lpm4_create_, lpm4_destroy_, lpm4_insert_, lpm4_delete_, lpm4_get_,
    lpm4_lookup_, lpm4_count_, lpm4_walk_,
};

static struct in6_addr
to_in6(const uint8_t a[16])
{
    struct in6_addr in6;

    memcpy(&in6, a, sizeof in6);
    return in6;
}

static void *lpm6_create_(void) { return lpm6_create(); }
static void lpm6_destroy_(void *t) { lpm6_destroy(t); }
static int
lpm6_insert_(void *t, const uint8_t a[16], unsigned int plen, uint32_t v)
{
    struct in6_addr in6 = to_in6(a);

    return lpm6_insert(t, &in6, plen, v);
}
static int
lpm6_delete_(void *t, const uint8_t a[16], unsigned int plen, uint32_t *v)
{
    struct in6_addr in6 = to_in6(a);

    return lpm6_delete(t, &in6, plen, v);
}
static bool
lpm6_get_(void *t, const uint8_t a[16], unsigned int plen, uint32_t *v)
{
    struct in6_addr in6 = to_in6(a);

    return lpm6_get(t, &in6, plen, v);
}
static bool
lpm6_lookup_(void *t, const uint8_t a[16], uint32_t *v, unsigned int *plen)
{
    struct in6_addr in6 = to_in6(a);

    return lpm6_lookup(t, &in6, v, plen);
}
static size_t lpm6_count_(void *t) { return lpm6_count(t); }

static void
walk6_cb(const struct in6_addr *prefix, unsigned int plen, uint32_t value,
         void *aux_)
{
    struct walk4_aux *aux = aux_;

    aux->cb(prefix->s6_addr, plen, value, aux->aux);
}

static void
lpm6_walk_(void *t, void (*cb)(const uint8_t addr[16], unsigned int plen,
                               uint32_t value, void *aux), void *aux)
{
    struct walk4_aux a = { cb, aux };
    lpm6_walk(t, walk6_cb, &a);
}

static const struct lpm_ops lpm6_ops = {
    128, lpm6_create_, lpm6_destroy_, lpm6_insert_, lpm6_delete_, lpm6_get_,
    lpm6_lookup_, lpm6_count_, lpm6_walk_,
};

/* Looks 'addr' up in both the table and the reference and checks that they
 * agree on the value and the matched length. */
static void
check_lookup(const struct lpm_ops *ops, void *t, const struct ref *ref,
             const uint8_t addr[16])
{
    const struct ref_entry *e = ref_lookup(ref, addr);
    unsigned int plen = 999;
    uint32_t value = 0;
    bool found = ops->lookup(t, addr, &value, &plen);

    FAST_ASSERT_UINT_EQ(found, e != NULL);
    if (e) {
        FAST_ASSERT_UINT_EQ(value, e->value);
        FAST_ASSERT_UINT_EQ(plen, e->plen);
    }
}

/* Walk output collector. */
struct walk_list {
    size_t n;                   /* Prefixes collected. */
    size_t allocated;           /* Capacity of 'entries'. */
    struct ref_entry *entries;  /* Collected prefixes (node unused). */
};

static void
walk_collect(const uint8_t addr[16], unsigned int plen, uint32_t value,
             void *aux)
{
    struct walk_list *list = aux;

    if (list->n >= list->allocated) {
        list->entries = x2nrealloc(list->entries, &list->allocated,
                                   sizeof *list->entries);
    }
    struct ref_entry *e = &list->entries[list->n++];
    memset(e, 0, sizeof *e);
    memcpy(e->addr, addr, 16);
    e->plen = plen;
    e->value = value;
}

/* Checks that walking 't' gives exactly the reference's prefixes, in
 * order. */
static void
check_walk(const struct lpm_ops *ops, void *t, const struct ref *ref)
{
    struct walk_list list = { 0, 0, NULL };
    ops->walk(t, walk_collect, &list);
    FAST_ASSERT_UINT_EQ(list.n, hmap_count(&ref->map));

    const struct ref_entry **sorted = xmalloc((list.n + 1) * sizeof *sorted);
    const struct ref_entry *e;
    size_t n = 0;
    HMAP_FOR_EACH (e, node, &ref->map) {
        sorted[n++] = e;
    }
    qsort(sorted, n, sizeof *sorted, compare_ref_entries);
    for (size_t i = 0; i < n; i++) {
        FAST_ASSERT(!memcmp(list.entries[i].addr, sorted[i]->addr, 16));
        FAST_ASSERT_UINT_EQ(list.entries[i].plen, sorted[i]->plen);
        FAST_ASSERT_UINT_EQ(list.entries[i].value, sorted[i]->value);
    }
    free(sorted);
    free(list.entries);
}

/* The randomized test: 'n_prefixes' insertions with deletions interleaved
 * (one deletion for every two insertions on average), lookups of random
 * addresses compared with the reference all along, then a full check, then
 * deletion of everything. */
static void
random_test(const struct lpm_ops *ops, size_t n_prefixes, uint64_t seed)
{
    struct ref_entry **live = xmalloc(n_prefixes * sizeof *live);
    size_t n_live = 0;
    size_t n_inserted = 0;
    struct gen gen;
    struct ref ref;
    uint8_t addr[16];

    gen_init(&gen, seed, ops->max_len);
    ref_init(&ref, ops->max_len);
    void *t = ops->create();

    for (size_t op = 0; n_inserted < n_prefixes; op++) {
        if (n_live && rng_below(&gen.rng, 3) == 0) {
            /* Delete a live prefix. */
            size_t i = rng_below(&gen.rng, n_live);
            struct ref_entry *e = live[i];
            uint32_t old = UINT32_MAX;

            FAST_ASSERT_UINT_EQ(ops->delete(t, e->addr, e->plen, &old), 0);
            FAST_ASSERT_UINT_EQ(old, e->value);
            FAST_ASSERT_UINT_EQ(ops->delete(t, e->addr, e->plen, NULL),
                             ENOENT);
            live[i] = live[--n_live];
            live[i]->live_idx = i;
            ref_remove(&ref, e);
        } else {
            /* Insert a random prefix, possibly a duplicate. */
            unsigned int plen = gen_plen(&gen);
            uint32_t value = rng_below(&gen.rng, LPM4_MAX_VALUE + 1);

            gen_addr(&gen, addr);
            mask_addr(addr, plen, ops->max_len);
            if (ref_find(&ref, addr, plen)) {
                FAST_ASSERT_UINT_EQ(ops->insert(t, addr, plen, value), EEXIST);
            } else {
                FAST_ASSERT_UINT_EQ(ops->insert(t, addr, plen, value), 0);
                live[n_live] = ref_add(&ref, addr, plen, value);
                live[n_live]->live_idx = n_live;
                n_live++;
                n_inserted++;
            }
        }

        if (op % 64 == 0) {
            for (int i = 0; i < 32; i++) {
                gen_addr(&gen, addr);
                check_lookup(ops, t, &ref, addr);
            }
            FAST_ASSERT_UINT_EQ(ops->count(t), n_live);
        }
    }

    /* Full check: exact gets, lookups near every prefix, the walk. */
    for (size_t i = 0; i < n_live; i++) {
        uint32_t value;

        FAST_ASSERT(ops->get(t, live[i]->addr, live[i]->plen, &value));
        FAST_ASSERT_UINT_EQ(value, live[i]->value);

        memcpy(addr, live[i]->addr, 16);
        addr[ops->max_len / 8 - 1] ^= rng_u64(&gen.rng);
        check_lookup(ops, t, &ref, addr);
    }
    for (int i = 0; i < 100000; i++) {
        gen_addr(&gen, addr);
        check_lookup(ops, t, &ref, addr);
    }
    check_walk(ops, t, &ref);

    /* Delete everything, checking lookups as the table drains. */
    while (n_live) {
        size_t i = rng_below(&gen.rng, n_live);
        struct ref_entry *e = live[i];

        FAST_ASSERT_UINT_EQ(ops->delete(t, e->addr, e->plen, NULL), 0);
        live[i] = live[--n_live];
        ref_remove(&ref, e);
        if (n_live % 16 == 0) {
            gen_addr(&gen, addr);
            check_lookup(ops, t, &ref, addr);
        }
    }
    FAST_ASSERT_UINT_EQ(ops->count(t), 0);
    for (int i = 0; i < 1000; i++) {
        uint32_t value;
        unsigned int plen;

        gen_addr(&gen, addr);
        FAST_ASSERT(!ops->lookup(t, addr, &value, &plen));
    }

    ops->destroy(t);
    ref_destroy(&ref);
    free(live);
}

static uint32_t
ip4(unsigned int a, unsigned int b, unsigned int c, unsigned int d)
{
    return (uint32_t) a << 24 | b << 16 | c << 8 | d;
}

static uint32_t
lookup4(const struct lpm4 *t, uint32_t addr, unsigned int *plen)
{
    uint32_t value;
    unsigned int len;

    if (!lpm4_lookup(t, addr, &value, &len)) {
        return UINT32_MAX;
    }
    if (plen) {
        *plen = len;
    }
    return value;
}

START_TEST(test_lpm4_basic)
{
    struct lpm4 *t = lpm4_create();
    struct lpm4_memory mem;
    unsigned int plen;
    uint32_t v;

    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 3), NULL), UINT32_MAX);

    /* Invalid arguments. */
    ck_assert_int_eq(lpm4_insert(t, 0, 33, 1), EINVAL);
    ck_assert_int_eq(lpm4_insert(t, 0, 8, LPM4_MAX_VALUE + 1), EINVAL);
    ck_assert_int_eq(lpm4_delete(t, 0, 33, NULL), EINVAL);

    /* Nested prefixes, host bits ignored on input. */
    ck_assert_int_eq(lpm4_insert(t, ip4(10, 9, 9, 9), 8, 8), 0);
    ck_assert_int_eq(lpm4_insert(t, ip4(10, 1, 0, 0), 16, 16), 0);
    ck_assert_int_eq(lpm4_insert(t, ip4(10, 1, 2, 0), 24, 24), 0);
    ck_assert_int_eq(lpm4_insert(t, ip4(10, 1, 2, 128), 25, 25), 0);
    ck_assert_int_eq(lpm4_insert(t, ip4(10, 1, 2, 129), 32, 32), 0);
    ck_assert_int_eq(lpm4_insert(t, ip4(10, 0, 0, 0), 8, 99), EEXIST);
    ck_assert_uint_eq(lpm4_count(t), 5);

    ck_assert_uint_eq(lookup4(t, ip4(10, 200, 0, 1), &plen), 8);
    ck_assert_uint_eq(plen, 8);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 200, 1), NULL), 16);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 1), NULL), 24);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 130), NULL), 25);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 129), &plen), 32);
    ck_assert_uint_eq(plen, 32);
    ck_assert_uint_eq(lookup4(t, ip4(11, 0, 0, 0), NULL), UINT32_MAX);
    lpm4_memory(t, &mem);
    ck_assert_uint_eq(mem.n_tbl8_groups, 1);

    /* A shorter prefix added later must not override longer ones, inside
     * the tbl8 group too. */
    ck_assert_int_eq(lpm4_insert(t, ip4(0, 0, 0, 0), 0, 0), 0);
    ck_assert_int_eq(lpm4_insert(t, ip4(10, 1, 0, 0), 20, 20), 0);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 129), NULL), 32);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 1), NULL), 24);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 3, 1), NULL), 20);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 16, 1), NULL), 16);
    ck_assert_uint_eq(lookup4(t, ip4(12, 0, 0, 1), &plen), 0);
    ck_assert_uint_eq(plen, 0);

    /* Exact gets. */
    ck_assert(lpm4_get(t, ip4(10, 1, 2, 128), 25, &v));
    ck_assert_uint_eq(v, 25);
    ck_assert(!lpm4_get(t, ip4(10, 1, 2, 0), 25, NULL));

    /* Deleting uncovers the next longest prefix. */
    ck_assert_int_eq(lpm4_delete(t, ip4(10, 1, 2, 0), 24, &v), 0);
    ck_assert_uint_eq(v, 24);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 1), NULL), 20);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 130), NULL), 25);
    ck_assert_int_eq(lpm4_delete(t, ip4(10, 1, 2, 0), 24, NULL), ENOENT);
    ck_assert_int_eq(lpm4_delete(t, ip4(10, 1, 2, 128), 25, NULL), 0);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 130), NULL), 20);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 129), NULL), 32);
    ck_assert_int_eq(lpm4_delete(t, ip4(10, 1, 2, 129), 32, NULL), 0);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 129), NULL), 20);

    /* The /24 block no longer holds a longer prefix: its group is gone. */
    lpm4_memory(t, &mem);
    ck_assert_uint_eq(mem.n_tbl8_groups, 0);
    ck_assert_uint_eq(mem.tbl24_bytes, 64u << 20);

    ck_assert_int_eq(lpm4_delete(t, 0, 0, NULL), 0);
    ck_assert_uint_eq(lookup4(t, ip4(12, 0, 0, 1), NULL), UINT32_MAX);
    ck_assert_uint_eq(lookup4(t, ip4(10, 1, 2, 129), NULL), 20);
    ck_assert_uint_eq(lpm4_count(t), 3);

    /* The bulk lookup agrees with the single one. */
    uint32_t addrs[] = { ip4(10, 1, 2, 3), ip4(10, 2, 0, 0), ip4(9, 0, 0, 0),
                         ip4(10, 1, 255, 255) };
    uint32_t values[ARRAY_SIZE(addrs)];
    lpm4_lookup_bulk(t, addrs, ARRAY_SIZE(addrs), values);
    ck_assert_uint_eq(values[0], 20);
    ck_assert_uint_eq(values[1], 8);
    ck_assert_uint_eq(values[2], LPM4_NO_MATCH);
    ck_assert_uint_eq(values[3], 16);

    lpm4_destroy(t);
}
END_TEST

START_TEST(test_lpm4_host_routes)
{
    /* Every /32 of one /24, then removal in another order: exercises tbl8
     * group creation, full coverage and release. */
    struct lpm4 *t = lpm4_create();
    struct lpm4_memory mem;

    ck_assert_int_eq(lpm4_insert(t, ip4(192, 168, 0, 0), 16, 1000), 0);
    for (int i = 0; i < 256; i++) {
        ck_assert_int_eq(lpm4_insert(t, ip4(192, 168, 7, i), 32, i), 0);
    }
    for (int i = 0; i < 256; i++) {
        ck_assert_uint_eq(lookup4(t, ip4(192, 168, 7, i), NULL), i);
    }
    ck_assert_int_eq(lpm4_insert(t, ip4(192, 168, 7, 0), 24, 2000), 0);
    ck_assert_uint_eq(lookup4(t, ip4(192, 168, 7, 9), NULL), 9);
    for (int i = 255; i >= 0; i -= 2) {
        ck_assert_int_eq(lpm4_delete(t, ip4(192, 168, 7, i), 32, NULL), 0);
        ck_assert_uint_eq(lookup4(t, ip4(192, 168, 7, i), NULL), 2000);
    }
    ck_assert_int_eq(lpm4_delete(t, ip4(192, 168, 7, 0), 24, NULL), 0);
    ck_assert_uint_eq(lookup4(t, ip4(192, 168, 7, 1), NULL), 1000);
    ck_assert_uint_eq(lookup4(t, ip4(192, 168, 7, 2), NULL), 2);
    for (int i = 0; i < 256; i += 2) {
        ck_assert_int_eq(lpm4_delete(t, ip4(192, 168, 7, i), 32, NULL), 0);
    }
    lpm4_memory(t, &mem);
    ck_assert_uint_eq(mem.n_tbl8_groups, 0);
    ck_assert_uint_eq(lookup4(t, ip4(192, 168, 7, 2), NULL), 1000);
    lpm4_destroy(t);
}
END_TEST

static void
in6(struct in6_addr *a, const char *s)
{
    ck_assert_int_eq(inet_pton(AF_INET6, s, a), 1);
}

START_TEST(test_lpm6_basic)
{
    struct lpm6 *t = lpm6_create();
    struct in6_addr a;
    struct lpm6_memory mem;
    unsigned int plen;
    uint32_t v;

    in6(&a, "2001:db8::1");
    ck_assert(!lpm6_lookup(t, &a, &v, &plen));
    ck_assert_int_eq(lpm6_insert(t, &a, 129, 1), EINVAL);

    in6(&a, "2001:db8::");
    ck_assert_int_eq(lpm6_insert(t, &a, 32, 32), 0);
    in6(&a, "2001:db8:1::");
    ck_assert_int_eq(lpm6_insert(t, &a, 48, 48), 0);
    in6(&a, "2001:db8:1:2::1");
    ck_assert_int_eq(lpm6_insert(t, &a, 128, 128), 0);
    in6(&a, "2001:db8:1:2:ffff::");  /* Host bits ignored. */
    ck_assert_int_eq(lpm6_insert(t, &a, 63, 63), 0);
    in6(&a, "2001:db8::");
    ck_assert_int_eq(lpm6_insert(t, &a, 32, 99), EEXIST);
    ck_assert_uint_eq(lpm6_count(t), 4);

    in6(&a, "2001:db8:1:2::1");
    ck_assert(lpm6_lookup(t, &a, &v, &plen));
    ck_assert_uint_eq(v, 128);
    ck_assert_uint_eq(plen, 128);
    in6(&a, "2001:db8:1:2::2");
    ck_assert(lpm6_lookup(t, &a, &v, &plen));
    ck_assert_uint_eq(v, 63);
    in6(&a, "2001:db8:1:4::2");
    ck_assert(lpm6_lookup(t, &a, &v, &plen));
    ck_assert_uint_eq(v, 48);
    in6(&a, "2001:db8:2::");
    ck_assert(lpm6_lookup(t, &a, &v, &plen));
    ck_assert_uint_eq(v, 32);
    in6(&a, "2001:db9::");
    ck_assert(!lpm6_lookup(t, &a, &v, &plen));

    ck_assert_int_eq(lpm6_insert(t, &a, 0, 0), 0);
    ck_assert(lpm6_lookup(t, &a, &v, &plen));
    ck_assert_uint_eq(v, 0);
    ck_assert_uint_eq(plen, 0);

    in6(&a, "2001:db8:1::");
    ck_assert(lpm6_get(t, &a, 48, &v));
    ck_assert_uint_eq(v, 48);
    ck_assert(!lpm6_get(t, &a, 47, &v));
    ck_assert_int_eq(lpm6_delete(t, &a, 48, &v), 0);
    ck_assert_uint_eq(v, 48);
    ck_assert_int_eq(lpm6_delete(t, &a, 48, &v), ENOENT);
    in6(&a, "2001:db8:1:4::2");
    ck_assert(lpm6_lookup(t, &a, &v, &plen));
    ck_assert_uint_eq(v, 32);

    /* Deleting everything frees every node but the root. */
    in6(&a, "2001:db8:1:2::1");
    ck_assert_int_eq(lpm6_delete(t, &a, 128, NULL), 0);
    in6(&a, "2001:db8:1:2::");
    ck_assert_int_eq(lpm6_delete(t, &a, 63, NULL), 0);
    in6(&a, "2001:db8::");
    ck_assert_int_eq(lpm6_delete(t, &a, 32, NULL), 0);
    ck_assert_int_eq(lpm6_delete(t, &a, 0, NULL), 0);
    ck_assert_uint_eq(lpm6_count(t), 0);
    lpm6_memory(t, &mem);
    ck_assert_uint_eq(mem.n_nodes, 1);
    lpm6_destroy(t);
}
END_TEST

START_TEST(test_lpm4_random)
{
    random_test(&lpm4_ops, 100000, 0x4444);
}
END_TEST

START_TEST(test_lpm6_random)
{
    random_test(&lpm6_ops, 100000, 0x6666);
}
END_TEST

Suite *
lpm_suite(void)
{
    Suite *s = suite_create("lpm");
    TCase *tc = tcase_create("lpm");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_lpm4_basic);
    tcase_add_test(tc, test_lpm4_host_routes);
    tcase_add_test(tc, test_lpm6_basic);
    tcase_add_test(tc, test_lpm4_random);
    tcase_add_test(tc, test_lpm6_random);
    suite_add_tcase(s, tc);
    return s;
}
