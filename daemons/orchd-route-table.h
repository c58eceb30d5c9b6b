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

#ifndef ORCHD_ROUTE_TABLE_H
#define ORCHD_ROUTE_TABLE_H 1

/* orchd-route-table: the routes orchd knows without a Route replica.
 *
 * On the northbound OVSDB path without a replica of Route
 * (orchd-route-monitor.h), orchd still needs, for each Route row: the
 * Asic_Route key to remove when the row is deleted (a deletion names
 * only the row's UUID), the users of each next-hop group, to resolve
 * again when the group changes, and each route's VRF, prefix and content,
 * to program it again when its VRF comes or goes.  This table keeps
 * exactly that: a route is its row's UUID, the entry it resolved to
 * (daemons/orchd-entry.h: VRF, prefix and, for a route through a group,
 * the group's members when it was last resolved), and its group's id.
 * The entry is the one the worker programs, shared by reference, so a
 * route costs this table about 80 bytes, against some 1,900 bytes of an
 * IDL row with its next hops and indexes.
 *
 * No I/O: the caller reads the rows and feeds the worker.
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "uuid.h"

struct orchd_entry;

/* A route of the table. */
struct orchd_route {
    struct hmap_node node;      /* In 'routes', by uuid_hash(&uuid). */
    struct uuid uuid;           /* Its Route row. */
    struct orchd_entry *entry;  /* What it resolved to (a reference): for
                                 * a route waiting for its group, an entry
                                 * with no next hop, never programmed. */
    int64_t group;              /* Its next-hop group's id, or 0. */
    struct ovs_list group_node; /* In its group's users, if 'group'. */
    unsigned int generation;    /* The last read that named it. */
    bool waiting;               /* Waiting for its group's members. */
};

/* The table. */
struct orchd_route_table {
    struct hmap routes;         /* "struct orchd_route"s. */
    struct hmap groups;         /* Users of each group id. */
    unsigned int generation;    /* Stamped on each route set. */
};

void orchd_route_table_init(struct orchd_route_table *);
void orchd_route_table_destroy(struct orchd_route_table *);

struct orchd_route *orchd_route_table_find(const struct orchd_route_table *,
                                           const struct uuid *);
struct orchd_route *orchd_route_table_set(struct orchd_route_table *,
                                          const struct uuid *,
                                          struct orchd_entry *,
                                          int64_t group, bool waiting);
void orchd_route_table_remove(struct orchd_route_table *,
                              struct orchd_route *);
const struct ovs_list *orchd_route_table_users(
    const struct orchd_route_table *, int64_t group);
size_t orchd_route_table_count(const struct orchd_route_table *);

/* Iterates over the routes that use group ID (ROUTE: a struct orchd_route
 * pointer).  The routes may be changed, but not removed or moved to
 * another group, during the iteration. */
#define ORCHD_ROUTE_TABLE_FOR_EACH_USER(ROUTE, TABLE, ID)               \
    LIST_FOR_EACH (ROUTE, group_node, orchd_route_table_users(TABLE, ID))

#endif /* daemons/orchd-route-table.h */
