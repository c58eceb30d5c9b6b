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
 * (orchd-entry.h: VRF, prefix and, for a route through a group,
 * the group's members when it was last resolved), and its group's id.
 * The entry is the one the worker programs, shared by reference, so a
 * route costs this table about 80 bytes, against some 1,900 bytes of an
 * IDL row with its next hops and indexes.
 *
 * For "show ip route" (orchd-show-table.h) a route also keeps where it
 * came from (its protocol, distance and metric), and the table can keep a
 * compound (vrf, prefix) index over its routes, an OVS skiplist
 * (lib/skiplist.h) whose comparator compares the binary prefixes of the
 * entries (fib_prefix_compare(): every IPv4 prefix before every IPv6 one,
 * then by address, shorter first), with the row's UUID last, so that two
 * rows of one key (one deleted, one inserted, in either order within an
 * update) never stand for each other.  It answers exact lookups,
 * longest-prefix matches (exact lookups from the address's length down,
 * skipping the lengths no route has) and ordered walks of a VRF or of the
 * prefixes within a prefix.  About 40 bytes a route more; it costs the
 * start-up read of a million rows 1-2 s, so orchd asks for it only when
 * it serves fib/show (orchd_route_table_enable_index()).
 *
 * No I/O: the caller reads the rows and feeds the worker.
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/fib-prefix.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/shash.h"
#include "uuid.h"

struct orchd_entry;
struct skiplist;
struct skiplist_node;

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
    const char *protocol;       /* Route.protocol (interned in the table),
                                 * "" until set. */
    uint32_t distance;          /* Route.distance, 0 if unset. */
    uint32_t metric;            /* Route.metric, 0 if unset. */
};

/* The table. */
struct orchd_route_table {
    struct hmap routes;         /* "struct orchd_route"s. */
    struct hmap groups;         /* Users of each group id. */
    unsigned int generation;    /* Stamped on each route set. */
    struct shash protocols;     /* Protocol names, interned (no data). */
    struct skiplist *index;     /* (vrf, prefix, uuid) → route, or NULL
                                 * without an index. */
    uint32_t n_by_len[2][129];  /* With 'index': routes by family (0:
                                 * IPv4, 1: IPv6) and prefix length. */
};

/* A position in an ordered walk of the index.  Members are private. */
struct orchd_route_cursor {
    struct skiplist_node *node; /* The route at the position, or NULL. */
    const char *vrf;            /* The VRF walked. */
    struct fib_prefix within;   /* A walk within a prefix: the prefix. */
    bool longer;                /* Walking within 'within'? */
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
void orchd_route_table_set_origin(struct orchd_route_table *,
                                  struct orchd_route *,
                                  const char *protocol, int64_t distance,
                                  int64_t metric);

/* The (vrf, prefix) index. */
void orchd_route_table_enable_index(struct orchd_route_table *);
bool orchd_route_table_has_index(const struct orchd_route_table *);
struct orchd_route *orchd_route_table_lookup(const struct orchd_route_table *,
                                             const char *vrf,
                                             const struct fib_prefix *);
struct orchd_route *orchd_route_table_lpm(const struct orchd_route_table *,
                                          const char *vrf,
                                          const struct fib_prefix *addr);
struct orchd_route *orchd_route_table_first_vrf(
    const struct orchd_route_table *, struct orchd_route_cursor *,
    const char *vrf);
struct orchd_route *orchd_route_table_first_longer(
    const struct orchd_route_table *, struct orchd_route_cursor *,
    const char *vrf, const struct fib_prefix *);
struct orchd_route *orchd_route_table_next(struct orchd_route_cursor *);

/* Iterates over the routes that use group ID (ROUTE: a struct orchd_route
 * pointer).  The routes may be changed, but not removed or moved to
 * another group, during the iteration. */
#define ORCHD_ROUTE_TABLE_FOR_EACH_USER(ROUTE, TABLE, ID)               \
    LIST_FOR_EACH (ROUTE, group_node, orchd_route_table_users(TABLE, ID))

#endif /* orchd-route-table.h */
