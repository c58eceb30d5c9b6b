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

#ifndef FPMSYNCD_NEXTHOP_H
#define FPMSYNCD_NEXTHOP_H 1

/* fpmsyncd's next hops: the sets of next hops routes are written with,
 * zebra's next-hop objects (single next hops and groups) and their
 * Nexthop_Group rows.
 *
 * A next-hop object can be referred to before zebra defines it: a route
 * or a group that names an unknown id gets a placeholder, and waits until
 * every member is defined.  When an object's resolved set changes, every
 * route that uses it and every group that has it as a member follows.
 *
 * Part of the rib (daemons/fpmsyncd/fpmsyncd-rib.h); thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/fpm-route.h"
#include "lib/route-batch.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"

struct fpmd_rib;
struct fpmd_route;
struct json;

/* One member of a next-hop set. */
struct fpmd_nhmember {
    char *key;                  /* "GATEWAY@IFNAME" etc. (route-key.h). */
    char *key_json;             /* 'key' as a JSON string, quoted. */
    uint32_t weight;            /* ECMP weight, 1...65535. */
};

/* The member set of a next-hop object, resolved to next-hop keys. */
struct fpmd_nhset {
    uint32_t hash;              /* Hash of 'members' (fpmd_nhset_hash()). */
    bool blackhole;             /* A blackhole next hop (no member). */
    bool connected;             /* Every member is interface-only. */
    size_t n;                   /* Number of members. */
    struct fpmd_nhmember *members; /* Sorted by strcmp() of 'key'. */
};

/* A zebra next-hop object (id != 0), or an anonymous set of inline next
 * hops shared by the routes that carry the same ones (id == 0). */
struct fpmd_nh {
    struct route_batch_entry be; /* Its Nexthop_Group row (ids only). */
    struct hmap_node node;      /* In the table's 'ids' by id, or 'anon' by
                                 * content. */
    uint32_t id;                /* zebra's id; 0 if anonymous. */
    uint32_t gen;               /* Generation that last announced it. */
    bool defined;               /* zebra defined it (anonymous: always);
                                 * false for a placeholder that a route or
                                 * a group refers to. */
    bool resolved;              /* 'set' reflects the current definition
                                 * (false while a group waits for a
                                 * member). */

    /* Definition, from RTM_NEWNEXTHOP (id != 0). */
    bool blackhole;             /* NHA_BLACKHOLE. */
    struct fpm_addr gateway;    /* NHA_GATEWAY, family 0 if none. */
    uint32_t ifindex;           /* NHA_OIF, 0 if none. */
    struct fpm_nhg_member *members; /* NHA_GROUP members, if a group. */
    size_t n_members;           /* Number of 'members'; 0: not a group. */

    /* Definition of an anonymous set. */
    struct fpm_route_nh *paths; /* Inline paths, in message order. */
    size_t n_paths;             /* Number of 'paths'. */

    struct fpmd_nhset *set;     /* Last resolved set, or NULL if never. */
    struct ovs_list routes;     /* 'struct fpmd_route's using this. */
    size_t n_routes;            /* Length of 'routes'. */
    struct fpmd_nh **deps;      /* Groups that have this as a member. */
    size_t n_deps;              /* Number of 'deps'. */
    size_t allocated_deps;      /* Capacity of 'deps'. */
};

/* Writes route 'r' again: the set of its next-hop object changed. */
typedef void fpmd_nh_route_refresh_func(struct fpmd_rib *,
                                        struct fpmd_route *r);

/* Moves route 'r' onto next-hop object 'nh' (NULL for none) and writes it
 * again: a new zebra session defines its old object otherwise. */
typedef void fpmd_nh_route_move_func(struct fpmd_rib *, struct fpmd_route *r,
                                     struct fpmd_nh *nh);

/* The rib's next-hop objects. */
struct fpmd_nh_table {
    struct hmap ids;            /* 'struct fpmd_nh's with an id. */
    struct hmap anon;           /* Anonymous 'struct fpmd_nh's. */

    /* The routes are the rib's (daemons/fpmsyncd/fpmsyncd-rib.c), above
     * this table: it has them written again through these. */
    fpmd_nh_route_refresh_func *route_refresh; /* After a set changed. */
    fpmd_nh_route_move_func *route_move; /* Off a redefined object. */
};

void fpmd_nh_table_init(struct fpmd_nh_table *, fpmd_nh_route_refresh_func *,
                        fpmd_nh_route_move_func *);
void fpmd_nh_table_destroy(struct fpmd_nh_table *);

/* FPM input: RTM_NEWNEXTHOP and RTM_DELNEXTHOP. */
void fpmd_nh_input(struct fpmd_rib *, const struct fpm_nexthop *);

/* For routes. */
struct fpmd_nh *fpmd_nh_get(struct fpmd_rib *, uint32_t id);
struct fpmd_nh *fpmd_nh_intern(struct fpmd_rib *,
                               const struct fpm_route_nh *paths, size_t n);
void fpmd_nh_maybe_free(struct fpmd_rib *, struct fpmd_nh *);
bool fpmd_nh_writable(const struct fpmd_nh *);

/* Reconciliation and the database load. */
size_t fpmd_nh_reconcile(struct fpmd_rib *);
void fpmd_nh_load_begin(struct fpmd_rib *);
void fpmd_nh_load_row(struct fpmd_rib *, const struct json *row);
void fpmd_nh_load_end(struct fpmd_rib *);

/* Next-hop sets. */
uint32_t fpmd_nhset_hash(const struct fpmd_nhmember *, size_t n);
bool fpmd_nhset_hash_json(const struct json *map, uint32_t *hash);

/* What fpmd_nh_count() finds. */
struct fpmd_nh_counts {
    size_t n_defined;           /* Objects zebra defined. */
    size_t n_unresolved;        /* Defined objects waiting for a member. */
    size_t n_waiting;           /* Routes waiting for an unresolved
                                 * object. */
    size_t n_anon;              /* Inline next-hop sets. */
};

void fpmd_nh_count(const struct fpmd_rib *, struct fpmd_nh_counts *);

#endif /* fpmsyncd-nexthop.h */
