/*
 * orchd-cache: the read cache of programmed routes.
 */

#include <config.h>

#include "daemons/orchd-cache.h"

#include <stdlib.h>

#include "daemons/orchd-entry.h"
#include "openvswitch/hmap.h"
#include "ovs-thread.h"
#include "util.h"

/* One cached entry. */
struct cache_node {
    struct hmap_node node;      /* In 'entries', by hash of the key. */
    struct orchd_entry *entry;  /* Programmed content (one reference). */
};

struct orchd_cache {
    struct ovs_mutex mutex;     /* Protects 'entries'. */
    struct hmap entries OVS_GUARDED; /* Contains "struct cache_node"s. */
};

struct orchd_cache *
orchd_cache_create(void)
{
    struct orchd_cache *c = xzalloc(sizeof *c);

    ovs_mutex_init(&c->mutex);
    hmap_init(&c->entries);
    return c;
}

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

size_t
orchd_cache_count(struct orchd_cache *c)
{
    size_t n;

    ovs_mutex_lock(&c->mutex);
    n = hmap_count(&c->entries);
    ovs_mutex_unlock(&c->mutex);
    return n;
}

static int
compare_entries(const void *a_, const void *b_)
{
    const struct orchd_entry *const *a = a_;
    const struct orchd_entry *const *b = b_;

    return orchd_entry_compare_prefix(*a, *b);
}

/* Returns every cached entry (new references), ordered by (vrf, prefix) if
 * 'sorted', and their number in '*n'.  The lock is held only while the
 * references are taken. */
struct orchd_entry **
orchd_cache_snapshot(struct orchd_cache *c, bool sorted, size_t *n)
{
    struct orchd_entry **v;
    struct cache_node *node;
    size_t i = 0;

    ovs_mutex_lock(&c->mutex);
    v = xmalloc((hmap_count(&c->entries) + 1) * sizeof *v);
    HMAP_FOR_EACH (node, node, &c->entries) {
        v[i++] = orchd_entry_ref(node->entry);
    }
    ovs_mutex_unlock(&c->mutex);
    if (sorted) {
        qsort(v, i, sizeof *v, compare_entries);
    }
    *n = i;
    return v;
}

void
orchd_cache_snapshot_free(struct orchd_entry **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        orchd_entry_unref(v[i]);
    }
    free(v);
}
