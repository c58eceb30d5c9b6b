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

#include <config.h>

#include "daemons/orchd/orchd-route-table.h"

#include <string.h>

#include "daemons/orchd/orchd-entry.h"
#include "hash.h"
#include "skiplist.h"
#include "util.h"

/* The users of one next-hop group. */
struct group_users {
    struct hmap_node node;      /* In 'groups', by hash of 'id'. */
    int64_t id;                 /* The group's id. */
    struct ovs_list users;      /* "struct orchd_route"s, by group_node. */
};

/* The empty list, for a group without users. */
static const struct ovs_list no_users
    = OVS_LIST_INITIALIZER((struct ovs_list *) &no_users);

void
orchd_route_table_init(struct orchd_route_table *t)
{
    hmap_init(&t->routes);
    hmap_init(&t->groups);
    t->generation = 0;
    shash_init(&t->protocols);
    t->index = NULL;
    memset(t->n_by_len, 0, sizeof t->n_by_len);
}

/* Frees the table, its routes and their references. */
void
orchd_route_table_destroy(struct orchd_route_table *t)
{
    struct group_users *g;
    struct orchd_route *r;

    HMAP_FOR_EACH_POP (r, node, &t->routes) {
        orchd_entry_unref(r->entry);
        free(r);
    }
    HMAP_FOR_EACH_POP (g, node, &t->groups) {
        free(g);
    }
    hmap_destroy(&t->routes);
    hmap_destroy(&t->groups);
    shash_destroy(&t->protocols);
    if (t->index) {
        skiplist_destroy(t->index, NULL);
        t->index = NULL;
    }
}

/* ---- The (vrf, prefix) index -------------------------------------------*/

/* skiplist_comparator: orders routes by VRF name, then prefix, then row
 * UUID. */
static int
route_cmp(const void *a_, const void *b_, const void *conf OVS_UNUSED)
{
    const struct orchd_route *a = a_, *b = b_;
    const struct orchd_entry *ea = a->entry, *eb = b->entry;
    int c;

    if (ea->vrf != eb->vrf) {
        c = strcmp(ea->vrf, eb->vrf);
        if (c) {
            return c;
        }
    }
    c = fib_prefix_compare(&ea->prefix, &eb->prefix);
    return c ? c : uuid_compare_3way(&a->uuid, &b->uuid);
}

/* The row of 'n_by_len' for 'p''s family. */
static uint32_t *
len_counts(struct orchd_route_table *t, const struct fib_prefix *p)
{
    return t->n_by_len[p->family == AF_INET6];
}

static void
index_add(struct orchd_route_table *t, struct orchd_route *r)
{
    skiplist_insert(t->index, r);
    len_counts(t, &r->entry->prefix)[r->entry->prefix.len]++;
}

static void
index_del(struct orchd_route_table *t, struct orchd_route *r)
{
    skiplist_delete(t->index, r);
    len_counts(t, &r->entry->prefix)[r->entry->prefix.len]--;
}

/* Do 'a' and 'b' have the same VRF and prefix? */
static bool
same_key(const struct orchd_entry *a, const struct orchd_entry *b)
{
    return ((a->vrf == b->vrf || !strcmp(a->vrf, b->vrf))
            && fib_prefix_equals(&a->prefix, &b->prefix));
}

/* Starts keeping the (vrf, prefix) index, with the routes already in. */
void
orchd_route_table_enable_index(struct orchd_route_table *t)
{
    struct orchd_route *r;

    if (t->index) {
        return;
    }
    t->index = skiplist_create(route_cmp, NULL);
    HMAP_FOR_EACH (r, node, &t->routes) {
        index_add(t, r);
    }
}

bool
orchd_route_table_has_index(const struct orchd_route_table *t)
{
    return t->index != NULL;
}

/* Returns the first node of the index at or after (vrf, prefix). */
static struct skiplist_node *
seek(const struct orchd_route_table *t, const char *vrf,
     const struct fib_prefix *prefix)
{
    struct orchd_entry e;
    struct orchd_route probe;

    memset(&e, 0, sizeof e);
    e.vrf = vrf;
    e.prefix = *prefix;
    memset(&probe, 0, sizeof probe);
    probe.entry = &e;
    return skiplist_forward_to(t->index, &probe);
}

/* Returns the route of 'prefix' in 'vrf', or NULL.  The table must have
 * an index. */
struct orchd_route *
orchd_route_table_lookup(const struct orchd_route_table *t, const char *vrf,
                         const struct fib_prefix *prefix)
{
    struct skiplist_node *node = seek(t, vrf, prefix);
    struct orchd_route *r = node ? skiplist_get_data(node) : NULL;

    return (r && !strcmp(r->entry->vrf, vrf)
            && fib_prefix_equals(&r->entry->prefix, prefix)) ? r : NULL;
}

/* Returns the route of the longest prefix in 'vrf' that contains 'addr'
 * (an address as a host prefix, or any prefix), or NULL.  The table must
 * have an index. */
struct orchd_route *
orchd_route_table_lpm(const struct orchd_route_table *t, const char *vrf,
                      const struct fib_prefix *addr)
{
    const uint32_t *counts = t->n_by_len[addr->family == AF_INET6];

    for (int len = addr->len; len >= 0; len--) {
        if (counts[len]) {
            struct fib_prefix p = *addr;
            struct orchd_route *r;

            fib_prefix_truncate(&p, len);
            r = orchd_route_table_lookup(t, vrf, &p);
            if (r) {
                return r;
            }
        }
    }
    return NULL;
}

/* Returns the route at 'c''s position if it is still within the walk,
 * otherwise ends the walk and returns NULL. */
static struct orchd_route *
cursor_current(struct orchd_route_cursor *c)
{
    struct orchd_route *r = c->node ? skiplist_get_data(c->node) : NULL;

    if (r && (strcmp(r->entry->vrf, c->vrf)
              || (c->longer
                  && !fib_prefix_contains(&c->within, &r->entry->prefix)))) {
        r = NULL;
    }
    if (!r) {
        c->node = NULL;
    }
    return r;
}

/* Starts a walk of the routes of 'vrf', in prefix order (IPv4 first);
 * returns the first, or NULL.  The table must have an index, unchanged
 * until the walk ends. */
struct orchd_route *
orchd_route_table_first_vrf(const struct orchd_route_table *t,
                            struct orchd_route_cursor *c, const char *vrf)
{
    struct fib_prefix lowest;

    memset(&lowest, 0, sizeof lowest);
    lowest.family = AF_INET;
    memset(c, 0, sizeof *c);
    c->vrf = vrf;
    c->node = seek(t, vrf, &lowest);
    return cursor_current(c);
}

/* Starts a walk of the routes of 'vrf' within 'prefix' (itself included),
 * in prefix order: those follow 'prefix' in the index without a gap. */
struct orchd_route *
orchd_route_table_first_longer(const struct orchd_route_table *t,
                               struct orchd_route_cursor *c,
                               const char *vrf,
                               const struct fib_prefix *prefix)
{
    memset(c, 0, sizeof *c);
    c->vrf = vrf;
    c->within = *prefix;
    c->longer = true;
    c->node = seek(t, vrf, prefix);
    return cursor_current(c);
}

/* Steps the walk 'c'; returns the next route, or NULL at its end. */
struct orchd_route *
orchd_route_table_next(struct orchd_route_cursor *c)
{
    if (!c->node) {
        return NULL;
    }
    c->node = skiplist_next(c->node);
    return cursor_current(c);
}

/* Returns the route of row 'uuid', or NULL. */
struct orchd_route *
orchd_route_table_find(const struct orchd_route_table *t,
                       const struct uuid *uuid)
{
    struct orchd_route *r;

    HMAP_FOR_EACH_WITH_HASH (r, node, uuid_hash(uuid), &t->routes) {
        if (uuid_equals(&r->uuid, uuid)) {
            return r;
        }
    }
    return NULL;
}

static struct group_users *
find_group(const struct orchd_route_table *t, int64_t id)
{
    struct group_users *g;

    HMAP_FOR_EACH_WITH_HASH (g, node, hash_uint64(id), &t->groups) {
        if (g->id == id) {
            return g;
        }
    }
    return NULL;
}

/* Takes 'r' out of its group's users, freeing a group left without. */
static void
leave_group(struct orchd_route_table *t, struct orchd_route *r)
{
    if (r->group) {
        struct group_users *g = find_group(t, r->group);

        ovs_list_remove(&r->group_node);
        if (ovs_list_is_empty(&g->users)) {
            hmap_remove(&t->groups, &g->node);
            free(g);
        }
        r->group = 0;
    }
}

/* Makes 'r' a user of group 'id' (0: none). */
static void
join_group(struct orchd_route_table *t, struct orchd_route *r, int64_t id)
{
    struct group_users *g;

    if (!id) {
        return;
    }
    g = find_group(t, id);
    if (!g) {
        g = xmalloc(sizeof *g);
        g->id = id;
        ovs_list_init(&g->users);
        hmap_insert(&t->groups, &g->node, hash_uint64(id));
    }
    ovs_list_push_back(&g->users, &r->group_node);
    r->group = id;
}

/* Records that row 'uuid' resolves to 'entry' (taking the caller's
 * reference), through group 'group' (0: none), 'waiting' for the group's
 * members or not, and stamps it with the table's generation.  Returns the
 * route. */
struct orchd_route *
orchd_route_table_set(struct orchd_route_table *t, const struct uuid *uuid,
                      struct orchd_entry *entry, int64_t group, bool waiting)
{
    struct orchd_route *r = orchd_route_table_find(t, uuid);

    if (!r) {
        r = xzalloc(sizeof *r);
        r->uuid = *uuid;
        r->protocol = "";
        hmap_insert(&t->routes, &r->node, uuid_hash(uuid));
        r->entry = entry;
        if (t->index) {
            index_add(t, r);
        }
    } else {
        bool rekey = t->index && !same_key(r->entry, entry);

        if (rekey) {
            index_del(t, r);
        }
        orchd_entry_unref(r->entry);
        r->entry = entry;
        if (rekey) {
            index_add(t, r);
        }
    }
    if (r->group != group) {
        leave_group(t, r);
        join_group(t, r, group);
    }
    r->waiting = waiting;
    r->generation = t->generation;
    return r;
}

/* Removes 'r' from 't' and frees it. */
void
orchd_route_table_remove(struct orchd_route_table *t, struct orchd_route *r)
{
    leave_group(t, r);
    if (t->index) {
        index_del(t, r);
    }
    hmap_remove(&t->routes, &r->node);
    orchd_entry_unref(r->entry);
    free(r);
}

/* Returns the list of the routes that use group 'id' (by group_node), empty
 * if none does. */
const struct ovs_list *
orchd_route_table_users(const struct orchd_route_table *t, int64_t id)
{
    const struct group_users *g = find_group(t, id);

    return g ? &g->users : &no_users;
}

size_t
orchd_route_table_count(const struct orchd_route_table *t)
{
    return hmap_count(&t->routes);
}

/* Records where route 'r' came from: 'protocol' (interned in 't'), its
 * 'distance' and 'metric' (each clamped to 0...UINT32_MAX). */
void
orchd_route_table_set_origin(struct orchd_route_table *t,
                             struct orchd_route *r, const char *protocol,
                             int64_t distance, int64_t metric)
{
    struct shash_node *node = shash_find(&t->protocols, protocol);

    if (!node) {
        node = shash_add(&t->protocols, protocol, NULL);
    }
    r->protocol = node->name;
    r->distance = MIN(MAX(distance, 0), UINT32_MAX);
    r->metric = MIN(MAX(metric, 0), UINT32_MAX);
}
