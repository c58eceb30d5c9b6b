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

/* lpm6 -- IPv6 longest-prefix-match table, a multibit trie.  See lpm6.h. */

#include <config.h>

#include "asic-sim/lpm6.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "openvswitch/util.h"
#include "util.h"

/* A trie node at depth 'd' bits (a multiple of 8), for one value of the
 * address's first d/8 bytes. */
struct lpm6_node {
    uint64_t pfx_map[8];        /* Bit (1 << r) | (byte >> (8 - r)) set if
                                 * the node has the prefix of length d + r
                                 * whose next byte starts with those bits
                                 * (1 <= r <= 8, so bits 2...511). */
    uint64_t child_map[4];      /* Bit b set if there is a child for next
                                 * byte b. */
    uint32_t *values;           /* Values of prefixes, in 'pfx_map' order. */
    struct lpm6_node **children; /* Children, in 'child_map' order. */
    uint16_t n_values;          /* Elements in 'values'. */
    uint16_t n_children;        /* Elements in 'children'. */
};

/* An IPv6 longest-prefix-match table. */
struct lpm6 {
    struct lpm6_node *root;     /* Depth 0.  Always exists. */
    bool has_default;           /* Is there a /0 prefix? */
    uint32_t default_value;     /* Value of the /0 prefix, if any. */
    size_t n_prefixes;          /* Prefixes in the table, /0 included. */
    size_t n_nodes;             /* Trie nodes, root included. */
    size_t bytes;               /* Bytes allocated for nodes and arrays. */
};

static bool map_test(const uint64_t *map, unsigned int bit);
static void map_set(uint64_t *map, unsigned int bit);
static void map_clear(uint64_t *map, unsigned int bit);
static unsigned int map_rank(const uint64_t *map, unsigned int bit);
static unsigned int pfx_pos(unsigned int r, uint8_t byte);

static struct lpm6_node *node_create(struct lpm6 *);
static void node_destroy(struct lpm6 *, struct lpm6_node *);
static struct lpm6_node *node_child(const struct lpm6_node *, uint8_t byte);
static struct lpm6_node *node_child_get(struct lpm6 *, struct lpm6_node *,
                                        uint8_t byte);
static void node_child_remove(struct lpm6 *, struct lpm6_node *,
                              uint8_t byte);
static size_t array_capacity(size_t n);
static void *array_insert(struct lpm6 *, void *array, size_t n,
                          size_t elem_size, size_t pos);
static void *array_remove(struct lpm6 *, void *array, size_t n,
                          size_t elem_size, size_t pos);
static void walk_node(const struct lpm6_node *, unsigned int depth,
                      struct in6_addr *, lpm6_walk_cb *, void *aux);

/* Creates and returns a new, empty table. */
struct lpm6 *
lpm6_create(void)
{
    struct lpm6 *lpm = xzalloc(sizeof *lpm);

    lpm->root = node_create(lpm);
    return lpm;
}

/* Frees 'lpm' and all its memory.  'lpm' may be null. */
void
lpm6_destroy(struct lpm6 *lpm)
{
    if (lpm) {
        node_destroy(lpm, lpm->root);
        free(lpm);
    }
}

/* Adds 'prefix'/'plen' with 'value' to 'lpm'.  Returns 0 if successful,
 * EEXIST if the table already has 'prefix'/'plen' (the table is then
 * unchanged), or EINVAL if 'plen' > 128. */
int
lpm6_insert(struct lpm6 *lpm, const struct in6_addr *prefix,
            unsigned int plen, uint32_t value)
{
    if (plen > 128) {
        return EINVAL;
    } else if (!plen) {
        if (lpm->has_default) {
            return EEXIST;
        }
        lpm->has_default = true;
        lpm->default_value = value;
        lpm->n_prefixes++;
        return 0;
    }

    /* The prefix ends in the node at depth 8 * 'k', 'r' bits into the next
     * byte.  If the prefix already exists, every node on the path does too,
     * so a failed insertion never leaves new nodes behind. */
    unsigned int k = (plen - 1) / 8;
    unsigned int r = plen - 8 * k;
    struct lpm6_node *node = lpm->root;
    for (unsigned int i = 0; i < k; i++) {
        node = node_child_get(lpm, node, prefix->s6_addr[i]);
    }

    unsigned int pos = pfx_pos(r, prefix->s6_addr[k]);
    if (map_test(node->pfx_map, pos)) {
        return EEXIST;
    }
    unsigned int rank = map_rank(node->pfx_map, pos);
    node->values = array_insert(lpm, node->values, node->n_values,
                                sizeof *node->values, rank);
    node->values[rank] = value;
    node->n_values++;
    map_set(node->pfx_map, pos);
    lpm->n_prefixes++;
    return 0;
}

/* Removes 'prefix'/'plen' from 'lpm'.  Returns 0 if successful, storing its
 * value in '*old_value' if 'old_value' is nonnull, ENOENT if 'lpm' does not
 * have that prefix, or EINVAL if 'plen' > 128. */
int
lpm6_delete(struct lpm6 *lpm, const struct in6_addr *prefix,
            unsigned int plen, uint32_t *old_value)
{
    if (plen > 128) {
        return EINVAL;
    } else if (!plen) {
        if (!lpm->has_default) {
            return ENOENT;
        }
        if (old_value) {
            *old_value = lpm->default_value;
        }
        lpm->has_default = false;
        lpm->n_prefixes--;
        return 0;
    }

    unsigned int k = (plen - 1) / 8;
    unsigned int r = plen - 8 * k;
    struct lpm6_node *path[16];
    struct lpm6_node *node = lpm->root;
    for (unsigned int i = 0; i < k; i++) {
        path[i] = node;
        node = node_child(node, prefix->s6_addr[i]);
        if (!node) {
            return ENOENT;
        }
    }

    unsigned int pos = pfx_pos(r, prefix->s6_addr[k]);
    if (!map_test(node->pfx_map, pos)) {
        return ENOENT;
    }
    unsigned int rank = map_rank(node->pfx_map, pos);
    if (old_value) {
        *old_value = node->values[rank];
    }
    node->values = array_remove(lpm, node->values, node->n_values,
                                sizeof *node->values, rank);
    node->n_values--;
    map_clear(node->pfx_map, pos);
    lpm->n_prefixes--;

    /* Free the nodes that this leaves empty, bottom up. */
    for (unsigned int i = k; i > 0 && !node->n_values && !node->n_children;
         i--) {
        struct lpm6_node *parent = path[i - 1];

        node_child_remove(lpm, parent, prefix->s6_addr[i - 1]);
        node_destroy(lpm, node);
        node = parent;
    }
    return 0;
}

/* Returns true and stores in '*value' (if nonnull) the value of exactly
 * 'prefix'/'plen' if 'lpm' has that prefix, otherwise returns false. */
bool
lpm6_get(const struct lpm6 *lpm, const struct in6_addr *prefix,
         unsigned int plen, uint32_t *value)
{
    if (plen > 128) {
        return false;
    } else if (!plen) {
        if (lpm->has_default && value) {
            *value = lpm->default_value;
        }
        return lpm->has_default;
    }

    unsigned int k = (plen - 1) / 8;
    unsigned int r = plen - 8 * k;
    const struct lpm6_node *node = lpm->root;
    for (unsigned int i = 0; i < k && node; i++) {
        node = node_child(node, prefix->s6_addr[i]);
    }
    if (!node) {
        return false;
    }

    unsigned int pos = pfx_pos(r, prefix->s6_addr[k]);
    if (!map_test(node->pfx_map, pos)) {
        return false;
    }
    if (value) {
        *value = node->values[map_rank(node->pfx_map, pos)];
    }
    return true;
}

/* Looks up 'addr' in 'lpm'.  If some prefix covers it, stores the value of
 * the longest such prefix in '*value' and its length in '*plen' and returns
 * true; otherwise returns false. */
bool
lpm6_lookup(const struct lpm6 *lpm, const struct in6_addr *addr,
            uint32_t *value, unsigned int *plen)
{
    const struct lpm6_node *best_node = NULL;
    unsigned int best_pos = 0;
    unsigned int best_len = 0;

    const struct lpm6_node *node = lpm->root;
    for (unsigned int i = 0; i < 16; i++) {
        uint8_t byte = addr->s6_addr[i];

        /* Longest prefix ending in this node that matches.  A longer match
         * further down overrides it. */
        if (node->n_values) {
            for (unsigned int r = 8; r >= 1; r--) {
                unsigned int pos = pfx_pos(r, byte);
                if (map_test(node->pfx_map, pos)) {
                    best_node = node;
                    best_pos = pos;
                    best_len = 8 * i + r;
                    break;
                }
            }
        }

        if (!map_test(node->child_map, byte)) {
            break;
        }
        node = node->children[map_rank(node->child_map, byte)];
    }

    if (best_node) {
        /* Rank only once, for the winner. */
        *value = best_node->values[map_rank(best_node->pfx_map, best_pos)];
        *plen = best_len;
        return true;
    } else if (lpm->has_default) {
        *value = lpm->default_value;
        *plen = 0;
        return true;
    }
    return false;
}

/* Returns the number of prefixes in 'lpm'. */
size_t
lpm6_count(const struct lpm6 *lpm)
{
    return lpm->n_prefixes;
}

/* Stores the memory used by 'lpm' in '*mem'. */
void
lpm6_memory(const struct lpm6 *lpm, struct lpm6_memory *mem)
{
    mem->n_nodes = lpm->n_nodes;
    mem->bytes = lpm->bytes + sizeof *lpm;
}

/* Calls 'cb' for each prefix in 'lpm', with 'aux', in order of address,
 * then length (2001:db8::/32 before 2001:db8::/48 before 2001:db8:1::/48).
 * 'cb' must not modify 'lpm'. */
void
lpm6_walk(const struct lpm6 *lpm, lpm6_walk_cb *cb, void *aux)
{
    struct in6_addr addr;

    memset(&addr, 0, sizeof addr);
    if (lpm->has_default) {
        cb(&addr, 0, lpm->default_value, aux);
    }
    walk_node(lpm->root, 0, &addr, cb, aux);
}

/* Visits 'node', at byte 'depth', whose first 'depth' bytes are in 'addr'
 * (and the rest zero), in order. */
static void
walk_node(const struct lpm6_node *node, unsigned int depth,
          struct in6_addr *addr, lpm6_walk_cb *cb, void *aux)
{
    /* The bytes of interest: those where a prefix ending here starts, and
     * those that lead to a child. */
    uint64_t starts[4];
    memcpy(starts, node->child_map, sizeof starts);
    for (unsigned int w = 0; w < 8; w++) {
        for (uint64_t bits = node->pfx_map[w]; bits; bits &= bits - 1) {
            unsigned int pos = w * 64 + raw_ctz(bits);
            unsigned int r = log_2_floor(pos);
            unsigned int start = (pos - (1u << r)) << (8 - r);
            starts[start / 64] |= UINT64_C(1) << (start % 64);
        }
    }

    for (unsigned int w = 0; w < 4; w++) {
        for (uint64_t bits = starts[w]; bits; bits &= bits - 1) {
            unsigned int byte = w * 64 + raw_ctz(bits);

            addr->s6_addr[depth] = byte;
            for (unsigned int r = 1; r <= 8; r++) {
                unsigned int pos = pfx_pos(r, byte);
                if (!(byte & ((1u << (8 - r)) - 1))
                    && map_test(node->pfx_map, pos)) {
                    cb(addr, depth * 8 + r,
                       node->values[map_rank(node->pfx_map, pos)], aux);
                }
            }
            if (depth < 15 && map_test(node->child_map, byte)) {
                walk_node(node_child(node, byte), depth + 1, addr, cb, aux);
            }
        }
    }
    addr->s6_addr[depth] = 0;
}

static bool
map_test(const uint64_t *map, unsigned int bit)
{
    return (map[bit / 64] >> (bit % 64)) & 1;
}

static void
map_set(uint64_t *map, unsigned int bit)
{
    map[bit / 64] |= UINT64_C(1) << (bit % 64);
}

static void
map_clear(uint64_t *map, unsigned int bit)
{
    map[bit / 64] &= ~(UINT64_C(1) << (bit % 64));
}

/* Returns the number of 1-bits in 'map' below 'bit'. */
static unsigned int
map_rank(const uint64_t *map, unsigned int bit)
{
    unsigned int n = 0;

    for (unsigned int w = 0; w < bit / 64; w++) {
        n += count_1bits(map[w]);
    }
    return n + count_1bits(map[bit / 64]
                           & ((UINT64_C(1) << (bit % 64)) - 1));
}

/* Returns the heap position, within a node, of the prefix that covers the
 * top 'r' bits (1 <= r <= 8) of next byte 'byte'. */
static unsigned int
pfx_pos(unsigned int r, uint8_t byte)
{
    return (1u << r) | (byte >> (8 - r));
}

static struct lpm6_node *
node_create(struct lpm6 *lpm)
{
    lpm->n_nodes++;
    lpm->bytes += sizeof(struct lpm6_node);
    return xzalloc(sizeof(struct lpm6_node));
}

/* Frees 'node' and, recursively, its children. */
static void
node_destroy(struct lpm6 *lpm, struct lpm6_node *node)
{
    for (unsigned int i = 0; i < node->n_children; i++) {
        node_destroy(lpm, node->children[i]);
    }
    lpm->n_nodes--;
    lpm->bytes -= (sizeof *node
                   + array_capacity(node->n_values) * sizeof *node->values
                   + (array_capacity(node->n_children)
                      * sizeof *node->children));
    free(node->values);
    free(node->children);
    free(node);
}

static struct lpm6_node *
node_child(const struct lpm6_node *node, uint8_t byte)
{
    return (map_test(node->child_map, byte)
            ? node->children[map_rank(node->child_map, byte)]
            : NULL);
}

/* Returns 'node''s child for 'byte', creating it if necessary. */
static struct lpm6_node *
node_child_get(struct lpm6 *lpm, struct lpm6_node *node, uint8_t byte)
{
    unsigned int rank = map_rank(node->child_map, byte);
    if (map_test(node->child_map, byte)) {
        return node->children[rank];
    }

    struct lpm6_node *child = node_create(lpm);
    node->children = array_insert(lpm, node->children, node->n_children,
                                  sizeof *node->children, rank);
    node->children[rank] = child;
    node->n_children++;
    map_set(node->child_map, byte);
    return child;
}

/* Removes 'node''s child for 'byte' from 'node' (without freeing it). */
static void
node_child_remove(struct lpm6 *lpm, struct lpm6_node *node, uint8_t byte)
{
    unsigned int rank = map_rank(node->child_map, byte);

    node->children = array_remove(lpm, node->children, node->n_children,
                                  sizeof *node->children, rank);
    node->n_children--;
    map_clear(node->child_map, byte);
}

/* Arrays of 'n' elements are allocated with room for the power of 2 at or
 * above 'n', so that growing one element at a time reallocates only
 * log(n) times, without storing the capacity. */
static size_t
array_capacity(size_t n)
{
    return n ? UINT64_C(1) << log_2_ceil(n) : 0;
}

/* Returns 'array', of 'n' elements of 'elem_size' bytes, reallocated if
 * necessary to 'n' + 1 elements with a gap at index 'pos'. */
static void *
array_insert(struct lpm6 *lpm, void *array, size_t n, size_t elem_size,
             size_t pos)
{
    size_t old_cap = array_capacity(n);
    size_t new_cap = array_capacity(n + 1);

    if (new_cap != old_cap) {
        array = xrealloc(array, new_cap * elem_size);
        lpm->bytes += (new_cap - old_cap) * elem_size;
    }
    char *p = array;
    memmove(p + (pos + 1) * elem_size, p + pos * elem_size,
            (n - pos) * elem_size);
    return array;
}

/* Returns 'array', of 'n' elements of 'elem_size' bytes, with element 'pos'
 * removed, reallocated if it can shrink. */
static void *
array_remove(struct lpm6 *lpm, void *array, size_t n, size_t elem_size,
             size_t pos)
{
    size_t old_cap = array_capacity(n);
    size_t new_cap = array_capacity(n - 1);
    char *p = array;

    memmove(p + pos * elem_size, p + (pos + 1) * elem_size,
            (n - pos - 1) * elem_size);
    if (new_cap != old_cap) {
        lpm->bytes -= (old_cap - new_cap) * elem_size;
        if (!new_cap) {
            free(array);
            return NULL;
        }
        array = xrealloc(array, new_cap * elem_size);
    }
    return array;
}
