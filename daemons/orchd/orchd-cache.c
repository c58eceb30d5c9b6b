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

/*
 * orchd-cache: the read cache of programmed routes.
 */

#include <config.h>

#include "daemons/orchd/orchd-cache.h"

#include <stdlib.h>
#include <string.h>

#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-entry.h"
#include "lib/fib-prefix-sort.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "ovs-thread.h"
#include "util.h"

/* The read cache: a view of the programmed entries that the worker's
 * bulker keeps (orchd_bulker_get_programmed()), read under the worker's
 * lock. */
struct orchd_cache {
    struct ovs_mutex *mutex;    /* Guards 'bulker'; NULL while detached. */
    const struct orchd_bulker *bulker; /* The entries, NULL while
                                        * detached (then the cache is
                                        * empty). */
    int instance;               /* The ASIC instance of its entries. */
};

/* Creates an empty cache of the entries of ASIC instance 'instance', to be
 * attached to a bulker with orchd_cache_attach(). */
struct orchd_cache *
orchd_cache_create(int instance)
{
    struct orchd_cache *c = xzalloc(sizeof *c);

    c->instance = instance;
    return c;
}

/* Returns the ASIC instance of the entries 'c' holds. */
int
orchd_cache_instance(const struct orchd_cache *c)
{
    return c->instance;
}

/* Frees 'c' (not the bulker it shows). */
void
orchd_cache_destroy(struct orchd_cache *c)
{
    free(c);
}

/* Makes 'c' show the programmed entries of 'bulker', which 'mutex' guards
 * (both NULL to detach it: it is then empty). */
void
orchd_cache_attach(struct orchd_cache *c, const struct orchd_bulker *bulker,
                   struct ovs_mutex *mutex)
{
    c->bulker = bulker;
    c->mutex = mutex;
}

/* Locks 'c''s bulker; returns it, or NULL (nothing locked) if detached. */
static const struct orchd_bulker *
lock(const struct orchd_cache *c)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    if (!c->bulker) {
        return NULL;
    }
    ovs_mutex_lock(c->mutex);
    return c->bulker;
}

/* Unlocks what lock() locked. */
static void
unlock(const struct orchd_cache *c)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    ovs_mutex_unlock(c->mutex);
}

/* Returns a new reference to the cached entry for 'key', or NULL. */
struct orchd_entry *
orchd_cache_get(struct orchd_cache *c, const struct uuid *key)
{
    const struct orchd_bulker *b = lock(c);
    struct orchd_entry *e = NULL;

    if (b) {
        e = orchd_entry_ref(orchd_bulker_get_programmed(b, key));
        unlock(c);
    }
    return e;
}

/* Returns the number of programmed routes. */
size_t
orchd_cache_count(struct orchd_cache *c)
{
    const struct orchd_bulker *b = lock(c);
    size_t n = 0;

    if (b) {
        n = orchd_bulker_n_programmed(b);
        unlock(c);
    }
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

/* A snapshot being taken. */
struct snapshot {
    struct orchd_entry **v;     /* Entries (new references). */
    struct fib_prefix_sort_item *items; /* Sort keys, if sorted. */
    size_t n;                   /* Entries so far. */
    size_t max;                 /* Room in 'v' and 'items'. */
    const char **vrfs;          /* Interned VRF names seen (vrf_slot()). */
    size_t n_vrfs, allocated_vrfs; /* Their number, and room. */
};

/* orchd_bulker_for_each_programmed() callback: adds 'e' to the snapshot
 * 'snap_', with its sort key if one is wanted. */
static void
snapshot_add(void *snap_, const struct orchd_entry *e_)
{
    struct snapshot *snap = snap_;
    struct orchd_entry *e = orchd_entry_ref(e_);

    ovs_assert(snap->n < snap->max);
    if (snap->items) {
        fib_prefix_sort_item_init(&snap->items[snap->n],
                                  vrf_slot(&snap->vrfs, &snap->n_vrfs,
                                           &snap->allocated_vrfs, e->vrf),
                                  &e->prefix, e);
    }
    snap->v[snap->n++] = e;
}

/* Returns every cached entry (new references), ordered by (vrf, prefix) if
 * 'sorted', and their number in '*n'.  The lock is held only while the
 * references are taken; the sort keys are copied out in the same pass, so
 * that each entry is read once here. */
struct orchd_entry **
orchd_cache_snapshot(struct orchd_cache *c, bool sorted, size_t *n)
{
    const struct orchd_bulker *b = lock(c);
    struct snapshot snap = { .v = NULL };

    snap.max = b ? orchd_bulker_n_programmed(b) : 0;
    snap.v = xmalloc((snap.max + 1) * sizeof *snap.v);
    if (sorted) {
        snap.items = xmalloc((snap.max + 1) * sizeof *snap.items);
    }
    if (b) {
        orchd_bulker_for_each_programmed(b, snapshot_add, &snap);
        unlock(c);
    }
    if (snap.items) {
        sort_snapshot(snap.items, snap.n, snap.vrfs, snap.n_vrfs, snap.v);
        free(snap.items);
        free(snap.vrfs);
    }
    *n = snap.n;
    return snap.v;
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
