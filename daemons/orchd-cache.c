/*
 * orchd-cache: the read cache of programmed routes.
 */

#include <config.h>

#include "daemons/orchd-cache.h"

#include <stdlib.h>
#include <string.h>

#include "daemons/orchd-entry.h"
#include "lib/fib-prefix-sort.h"
#include "lib/hmap-prefetch.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "ovs-thread.h"
#include "util.h"

/* One cached entry. */
struct cache_node {
    struct hmap_node node;      /* In 'entries', by hash of the key. */
    struct orchd_entry *entry;  /* Programmed content (one reference). */
};

/* The read cache: programmed entries by Asic_Route key. */
struct orchd_cache {
    struct ovs_mutex mutex;     /* Protects 'entries'. */
    struct hmap entries OVS_GUARDED; /* Contains "struct cache_node"s. */
};

/* Creates an empty cache. */
struct orchd_cache *
orchd_cache_create(void)
{
    struct orchd_cache *c = xzalloc(sizeof *c);

    ovs_mutex_init(&c->mutex);
    hmap_init(&c->entries);
    return c;
}

/* Frees 'c' and drops the references it holds. */
void
orchd_cache_destroy(struct orchd_cache *c)
{
    struct cache_node *n;

    if (!c) {
        return;
    }
    HMAP_FOR_EACH_POP (n, node, &c->entries) {
        orchd_entry_unref(n->entry);
        free(n);
    }
    hmap_destroy(&c->entries);
    ovs_mutex_destroy(&c->mutex);
    free(c);
}

/* Returns the node of 'key' in 'c', or NULL. */
static struct cache_node *
find(const struct orchd_cache *c, const struct uuid *key)
    OVS_REQUIRES(c->mutex)
{
    struct cache_node *n;

    HMAP_FOR_EACH_WITH_HASH (n, node, uuid_hash(key), &c->entries) {
        if (uuid_equals(&n->entry->asic_uuid, key)) {
            return n;
        }
    }
    return NULL;
}

/* Asks the CPU to bring in, ahead of an orchd_cache_put() or
 * orchd_cache_remove() of 'key', the hash bucket where its node would be
 * or, if 'chain', the first node the bucket points to.  Takes no lock:
 * call it only from the one thread that changes 'c' (a reader's lock
 * does not stop that thread, and a prefetch changes nothing). */
void
orchd_cache_prefetch(const struct orchd_cache *c, const struct uuid *key,
                     bool chain)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    hmap_prefetch(&c->entries, uuid_hash(key), chain);
}

/* Records 'e' (taking one reference) as programmed. */
void
orchd_cache_put(struct orchd_cache *c, struct orchd_entry *e)
{
    struct cache_node *n;

    ovs_mutex_lock(&c->mutex);
    n = find(c, &e->asic_uuid);
    if (n) {
        orchd_entry_unref(n->entry);
    } else {
        n = xmalloc(sizeof *n);
        hmap_insert(&c->entries, &n->node, uuid_hash(&e->asic_uuid));
    }
    n->entry = e;
    ovs_mutex_unlock(&c->mutex);
}

/* Forgets the entry for 'key', if any. */
void
orchd_cache_remove(struct orchd_cache *c, const struct uuid *key)
{
    struct cache_node *n;

    ovs_mutex_lock(&c->mutex);
    n = find(c, key);
    if (n) {
        hmap_remove(&c->entries, &n->node);
        orchd_entry_unref(n->entry);
        free(n);
    }
    ovs_mutex_unlock(&c->mutex);
}

/* Returns a new reference to the cached entry for 'key', or NULL. */
struct orchd_entry *
orchd_cache_get(struct orchd_cache *c, const struct uuid *key)
{
    struct orchd_entry *e;
    struct cache_node *n;

    ovs_mutex_lock(&c->mutex);
    n = find(c, key);
    e = n ? orchd_entry_ref(n->entry) : NULL;
    ovs_mutex_unlock(&c->mutex);
    return e;
}

/* Returns the number of programmed routes. */
size_t
orchd_cache_count(struct orchd_cache *c)
{
    size_t n;

    ovs_mutex_lock(&c->mutex);
    n = hmap_count(&c->entries);
    ovs_mutex_unlock(&c->mutex);
    return n;
}

/* Returns the index of interned VRF name 'vrf' in '*vrfs', the '*n'
 * distinct names seen so far, adding it if new.  A snapshot sees few VRFs,
 * so a linear search is enough. */
static size_t
vrf_slot(const char ***vrfs, size_t *n, size_t *allocated, const char *vrf)
{
    for (size_t i = 0; i < *n; i++) {
        if ((*vrfs)[i] == vrf) {
            return i;
        }
    }
    if (*n >= *allocated) {
        *vrfs = x2nrealloc(*vrfs, allocated, sizeof **vrfs);
    }
    (*vrfs)[*n] = vrf;
    return (*n)++;
}

/* A VRF name and the slot vrf_slot() gave it. */
struct vrf_rank {
    const char *name;           /* Interned name. */
    size_t slot;                /* Index in order of first appearance. */
};

/* qsort() comparator of VRF ranks, by name. */
static int
compare_vrf_ranks(const void *a_, const void *b_)
{
    const struct vrf_rank *a = a_;
    const struct vrf_rank *b = b_;

    return strcmp(a->name, b->name);
}

/* Orders 'items', the 'n' entries of a snapshot keyed by (VRF slot,
 * prefix), by (VRF name, prefix) into 'v': the '*n_vrfs' slots in 'vrfs'
 * are renumbered in name order, then fib_prefix_sort() orders the items. */
static void
sort_snapshot(struct fib_prefix_sort_item *items, size_t n,
              const char **vrfs, size_t n_vrfs, struct orchd_entry **v)
{
    struct vrf_rank *ranks = xmalloc((n_vrfs + 1) * sizeof *ranks);
    size_t *slot_rank = xmalloc((n_vrfs + 1) * sizeof *slot_rank);

    for (size_t i = 0; i < n_vrfs; i++) {
        ranks[i].name = vrfs[i];
        ranks[i].slot = i;
    }
    qsort(ranks, n_vrfs, sizeof *ranks, compare_vrf_ranks);
    for (size_t i = 0; i < n_vrfs; i++) {
        slot_rank[ranks[i].slot] = i;
    }
    for (size_t i = 0; i < n; i++) {
        items[i].group = slot_rank[items[i].group];
    }
    fib_prefix_sort(items, n);
    for (size_t i = 0; i < n; i++) {
        v[i] = items[i].data;
    }
    free(slot_rank);
    free(ranks);
}

/* Returns every cached entry (new references), ordered by (vrf, prefix) if
 * 'sorted', and their number in '*n'.  The lock is held only while the
 * references are taken; the sort keys are copied out in the same pass, so
 * that each entry is read once here. */
struct orchd_entry **
orchd_cache_snapshot(struct orchd_cache *c, bool sorted, size_t *n)
{
    struct fib_prefix_sort_item *items = NULL;
    size_t n_vrfs = 0, allocated = 0;
    const char **vrfs = NULL;
    struct orchd_entry **v;
    struct cache_node *node;
    size_t i = 0;

    ovs_mutex_lock(&c->mutex);
    v = xmalloc((hmap_count(&c->entries) + 1) * sizeof *v);
    if (sorted) {
        items = xmalloc((hmap_count(&c->entries) + 1) * sizeof *items);
    }
    HMAP_FOR_EACH (node, node, &c->entries) {
        struct orchd_entry *e = orchd_entry_ref(node->entry);

        if (items) {
            fib_prefix_sort_item_init(&items[i],
                                      vrf_slot(&vrfs, &n_vrfs, &allocated,
                                               e->vrf),
                                      &e->prefix, e);
        }
        v[i++] = e;
    }
    ovs_mutex_unlock(&c->mutex);
    if (items) {
        sort_snapshot(items, i, vrfs, n_vrfs, v);
        free(items);
        free(vrfs);
    }
    *n = i;
    return v;
}

/* Frees a snapshot of 'n' entries from orchd_cache_snapshot(). */
void
orchd_cache_snapshot_free(struct orchd_entry **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        orchd_entry_unref(v[i]);
    }
    free(v);
}

/* Appends every cached entry to 's', one orchd_entry_format() line each,
 * in (vrf, prefix) order: the text of route/dump. */
void
orchd_cache_format(struct orchd_cache *c, struct ds *s)
{
    struct orchd_entry **v;
    size_t n;

    v = orchd_cache_snapshot(c, true, &n);
    ds_reserve(s, s->length + n * 48);
    for (size_t i = 0; i < n; i++) {
        /* The entries are scattered over gigabytes: fetch the block of an
         * entry a few rows ahead (it holds the next hops too, up to about
         * 256 bytes; a prefetch past its end is harmless). */
        if (i + 8 < n) {
            const char *p = (const char *) v[i + 8];

            OVS_PREFETCH(p);
            OVS_PREFETCH(p + 128);
        }
        orchd_entry_format(v[i], s);
        ds_put_char(s, '\n');
        /* Now, while the entry is in the CPU's cache. */
        orchd_entry_unref(v[i]);
    }
    free(v);
}

/* Returns every cached entry as a JSON array of orchd_entry_to_json()
 * objects, in (vrf, prefix) order: route/dump json. */
struct json *
orchd_cache_to_json(struct orchd_cache *c)
{
    struct json *a = json_array_create_empty();
    struct orchd_entry **v;
    size_t n;

    v = orchd_cache_snapshot(c, true, &n);
    for (size_t i = 0; i < n; i++) {
        json_array_add(a, orchd_entry_to_json(v[i]));
    }
    orchd_cache_snapshot_free(v, n);
    return a;
}
