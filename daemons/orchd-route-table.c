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

#include "daemons/orchd-route-table.h"

#include "daemons/orchd-entry.h"
#include "hash.h"
#include "util.h"

/* The users of one next-hop group. */
struct group_users {
    struct hmap_node node;      /* In 'groups', by hash of 'id'. */
    int64_t id;                 /* The group's id. */
    struct ovs_list users;      /* "struct orchd_route"s, by group_node. */
};

/* The empty list, for a group without users. */
static struct ovs_list no_users = OVS_LIST_INITIALIZER(&no_users);

void
orchd_route_table_init(struct orchd_route_table *t)
{
    hmap_init(&t->routes);
    hmap_init(&t->groups);
    t->generation = 0;
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
        hmap_insert(&t->routes, &r->node, uuid_hash(uuid));
    } else {
        orchd_entry_unref(r->entry);
    }
    r->entry = entry;
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
