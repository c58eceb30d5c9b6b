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


#ifndef ROUTE_INDEX_PRIVATE_H
#define ROUTE_INDEX_PRIVATE_H 1

/* route-index-private: what the two halves of the route index share, the
 * structures and the helpers between idl/route-index.c (the row trailer,
 * the IDL hooks that keep it, creating and destroying an index) and
 * idl/route-index-query.c (lookups, ordered walks, statistics).  Not for
 * anyone else: the interface is idl/route-index.h, whose comment and
 * route-index.c's explain the design.
 *
 * Thread safety: as idl/route-index.h. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idl/fibsync-idl.h"
#include "idl/route-index.h"
#include "lib/fib-prefix.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "ovsdb-idl-provider.h"
#include "util.h"

struct skiplist;

/* An interned VRF or protocol name.  Names are never freed before their
 * index: they are few (VRFs, protocols), and rows point to them. */
struct ri_name {
    struct hmap_node node;      /* In 'vrfs' or 'protocols', by name. */
    char *name;                 /* The name. */
    size_t n_routes;            /* VRFs: committed routes counted. */
    uint32_t n_len[2][129];     /* VRFs: routes by [is IPv6][length]. */
};

/* A next hop, as a key of Route.nexthops.
 *
 * A route's reference to its next hop goes first into 'pending', in no
 * order; the ordered skiplist takes the pending references in only when a
 * walk or a count of that next hop asks for them (ri_nh_settle()), sorted
 * first, so that they go into the skiplist in order.  Inserting each into
 * the skiplist as its row was parsed cost a cache miss a comparison, and
 * made the largest share of a replica's load at a million routes (a fifth
 * of orchd's CPU restarting on the OVSDB path); most next hops are never
 * walked. */
struct ri_nh {
    struct hmap_node node;      /* In 'nexthops', by hash of 'key'. */
    char *key;                  /* The map key, "GATEWAY@IFNAME". */
    struct skiplist *routes;    /* "struct ri_nh_ref *"s, by ri_ref_cmp(). */
    struct ovs_list pending;    /* "struct ri_nh_ref"s not in 'routes'. */
    size_t n_pending;           /* Length of 'pending'. */
};

/* One (next hop, route) pair. */
struct ri_nh_ref {
    struct ri_nh *nh;           /* The next hop. */
    const struct fibrec_route *route; /* The route. */
    struct ovs_list pending_node; /* In 'nh->pending', or .next NULL if in
                                   * 'nh->routes'. */
};

/* The routes that use one next-hop group (Route.nexthop_group), in no
 * order.  A route's trailer holds its position, so that a route joins and
 * leaves in O(1): an OVS index over the column (the IDL's generic
 * comparator, three cache misses a comparison) was a tenth of orchd's CPU
 * loading a million routes. */
struct ri_nhg {
    struct hmap_node node;      /* In 'nhgs', by hash of 'id'. */
    int64_t id;                 /* The group's id. */
    const struct fibrec_route **routes; /* Its users. */
    size_t n;                   /* Number of 'routes'. */
    size_t allocated;           /* Allocated elements of 'routes'. */
};

/* Flags of a trailer. */
enum {
    RI_F_PREFIX = 1 << 0,       /* 'prefix' column parsed. */
    RI_F_PREFIX_OK = 1 << 1,    /* ...and valid: 'prefix' member is set. */
    RI_F_VRF = 1 << 2,          /* 'vrf' column parsed. */
    RI_F_NEXTHOPS = 1 << 3,     /* 'nexthops' column parsed. */
    RI_F_LINKED = 1 << 4,       /* In the next-hop structure and counts. */
    RI_F_NHG = 1 << 5,          /* In 'nhg->routes[nhg_pos]'. */
};

/* The data that the route index appends to each Route row. */
struct ri_trailer {
    struct fib_prefix prefix;   /* Binary prefix, if RI_F_PREFIX_OK. */
    uint8_t flags;              /* RI_F_*. */
    uint8_t pad_;               /* Unused. */
    uint32_t n_refs;            /* Number of elements in 'refs'. */
    struct ri_name *vrf;        /* Interned VRF, or NULL. */
    struct ri_name *protocol;   /* Interned protocol, or NULL. */
    struct ri_nh_ref *refs;     /* RI_F_LINKED: one per next hop. */
    struct ri_nhg *nhg;         /* RI_F_NHG: the next-hop group used. */
    uint32_t nhg_pos;           /* RI_F_NHG: index in 'nhg->routes'. */
};

/* Where the trailer starts in a row: at a cache-line boundary, so that
 * what a comparison reads (prefix, flags, VRF, protocol: the first 40
 * bytes) is one cache line whenever the allocator aligns rows to 64 bytes.
 * jemalloc does for Route rows: 424 bytes, with the 64-byte trailer 488
 * unaligned or 512 aligned, are both in its 512-byte size class, whose
 * regions are 512-byte aligned; so the alignment costs no memory.  (It
 * saved a cache miss per comparison in a protocol index there was;
 * measured, a few percent of the CPU time of building the indexes, within
 * this machine's noise.) */
#define RI_TRAILER_OFS ROUND_UP(sizeof(struct fibrec_route), 64)

/* A route index. */
struct route_index {
    struct hmap_node node;      /* In 'registry', by hash of 'idl'. */
    struct ovsdb_idl *idl;      /* The indexed IDL. */
    enum route_index_cmp cmp;   /* Comparator flavour. */
    struct ovsdb_idl_index *by_vrf;   /* (vrf, prefix). */
    struct fibrec_route *search;      /* Its search row. */
    char search_text[FIB_PREFIX_STRLEN]; /* ROUTE_INDEX_CMP_TEXT: prefix. */
    struct hmap vrfs;           /* "struct ri_name"s. */
    struct hmap protocols;      /* "struct ri_name"s. */
    struct hmap nexthops;       /* "struct ri_nh"s. */
    struct hmap nhgs;           /* "struct ri_nhg"s. */
    struct ovsdb_idl_table *table; /* The Route table, once a row came. */
    size_t n_refs;              /* Next-hop references, in all skiplists. */
    size_t n_nhg_users;         /* Rows with RI_F_NHG. */
    size_t n_linked;            /* Rows with RI_F_LINKED. */
    size_t n_named;             /* Rows whose trailer points to our names. */
};

/* Returns the trailer of 'route'. */
static inline struct ri_trailer *
ri_trailer(const struct fibrec_route *route)
{
    return (struct ri_trailer *) ((char *) route + RI_TRAILER_OFS);
}

/* Returns the route of IDL row 'row'. */
static inline struct fibrec_route *
ri_route(const struct ovsdb_idl_row *row)
{
    return CONTAINER_OF(row, struct fibrec_route, header_);
}

struct ri_name *route_index__name_find(const struct hmap *names,
                                       const char *name);
struct ri_nh *route_index__nh_find(const struct route_index *,
                                   const char *key);
struct ri_nhg *route_index__nhg_find(const struct route_index *, int64_t id);
void route_index__nh_settle(struct ri_nh *);
struct route_index *route_index__of_row(const struct ovsdb_idl_row *);

#endif /* route-index-private.h */
