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

#ifndef ROUTE_INDEX_H
#define ROUTE_INDEX_H 1

/* Compound indexes over the Route table of a Fibsync IDL replica.
 *
 * For a process that holds a replica of Route (orchd, or fibctl with its
 * own replica), a route_index answers, without scanning the table:
 *
 *   - exact lookup of (vrf, prefix): route_index_find();
 *   - longest-prefix match of an address or prefix in a VRF:
 *     route_index_lpm();
 *   - ordered walks, in prefix order (numeric: every IPv4 prefix before
 *     every IPv6 one, then by address, then shorter first, as
 *     fib_prefix_compare()): all routes, by VRF then prefix
 *     (route_index_first()); one VRF (route_index_first_vrf()); the
 *     prefixes within a prefix, "longer-prefixes"
 *     (route_index_first_longer()); one protocol, optionally in one VRF
 *     (route_index_first_protocol(), which scans: see below); the routes
 *     through one next hop
 *     (route_index_first_nexthop());
 *   - the routes that use one next-hop group, in no order:
 *     route_index_nhg_users().
 *
 * The indexes
 * ===========
 *
 * (vrf, prefix) is an OVS IDL compound index (ovsdb_idl_index_create(), a
 * skiplist) whose column comparators compare prefixes as numbers.  A
 * protocol's walk is that index's walk (of one VRF, or of all), with the
 * other protocols' routes skipped: no one walks by protocol on a hot path,
 * and a (protocol, vrf, prefix) index of its own cost a fifth of the CPU
 * of loading a million routes into orchd's replica.  (nexthop, prefix)
 * cannot be an OVS index: an OVS index
 * holds each row once, under the whole value of each indexed column, and
 * Route.nexthops is a map (one route, several next hops).  So the route
 * index keeps its own structure for it: a hash table of next-hop keys
 * (the map's keys as stored, "GATEWAY@IFNAME"), each with a skiplist of
 * the routes through it in (prefix, vrf) order.  A route enters that
 * skiplist only when its next hop is first walked or counted after the
 * route came (unordered until then, sorted as a batch then): at a million
 * routes, inserting each reference as its row was parsed cost more CPU
 * than any other part of loading the replica.
 *
 * Comparing prefixes in binary
 * ============================
 *
 * An IDL row holds its prefix as text.  A (vrf, prefix) index whose
 * comparator sscanf()ed that text took 7.4 s to replicate 300K rows and
 * 14 us a lookup.  So the route index keeps the binary form of each row's
 * prefix (and its interned VRF and protocol) in a trailer it appends to
 * every Route row: route_index_init() grows the Route table class's
 * allocation size and hooks the parse and unparse functions of the vrf,
 * prefix, protocol, nexthops and nexthop_group columns, so the binary form
 * is computed once each time the IDL parses a row, never in a comparison.
 * The same hooks keep the next-hop structure, the next-hop group users
 * and a per-VRF count of routes by prefix length up to date.
 * route-index.c explains what this relies on inside the IDL.
 * ROUTE_INDEX_CMP_TEXT builds the same indexes with comparators that parse
 * text on every comparison, for measurements.
 *
 * Longest-prefix match
 * ====================
 *
 * route_index_lpm() probes prefix lengths from the address's down to 0
 * with exact lookups on the (vrf, prefix) index, and skips the lengths
 * that no route of that VRF and family has.
 *
 * Lifetime and usage
 * ==================
 *
 *     idl = ovsdb_idl_create(remote, &fibrec_idl_class, true, true);
 *     ri = route_index_create(idl);        (before the first ovsdb_idl_run)
 *     ... ovsdb_idl_run(idl); route = route_index_find(ri, "default", &p);
 *     ovsdb_idl_destroy(idl);
 *     route_index_destroy(ri);              (before or after the IDL)
 *
 * route_index_create() must come before its IDL's first ovsdb_idl_run()
 * (it asserts that the IDL has no Route row yet): rows created before
 * route_index_init(), which it calls, lack the trailer.  Other Fibsync IDLs
 * in the process, with or without route indexes, are unaffected.  A route
 * index reflects the replica after each ovsdb_idl_run() without any call
 * of its own.  Returned rows, like any IDL row, are valid
 * until the next ovsdb_idl_run(); cursors likewise.  The VRF, protocol and
 * next-hop walks follow the committed replica; during a transaction that
 * modifies indexed columns of a row the indexes see the transaction's
 * values, as OVS's own indexes do.
 *
 * Thread safety: like the IDL; one thread at a time per IDL. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idl/fibsync-idl.h"
#include "lib/fib-prefix.h"
#include "ovsdb-idl.h"

struct route_index;
struct simap;

/* How the OVS indexes compare prefixes. */
enum route_index_cmp {
    ROUTE_INDEX_CMP_BINARY,     /* Binary form kept in each row (default). */
    ROUTE_INDEX_CMP_TEXT,       /* fib_prefix_compare_text() each time. */
    ROUTE_INDEX_CMP_NONE        /* No lookups and no walks: only next-hop
                                 * group users (orchd without "show"). */
};

void route_index_init(void);
struct route_index *route_index_create(struct ovsdb_idl *);
struct route_index *route_index_create_cmp(struct ovsdb_idl *,
                                           enum route_index_cmp);
void route_index_destroy(struct route_index *);

/* Lookups.  'vrf' is a VRF name ("default"). */
const struct fibrec_route *route_index_find(struct route_index *,
                                            const char *vrf,
                                            const struct fib_prefix *);
const struct fibrec_route *route_index_lpm(struct route_index *,
                                           const char *vrf,
                                           const struct fib_prefix *addr);
const struct fibrec_route *route_index_lpm_all_lengths(
    struct route_index *, const char *vrf, const struct fib_prefix *addr);

/* Column comparators (column_comparator_func) for OVS IDL indexes over
 * Route built by other code, for example
 *
 *     { .column = &fibrec_route_col_prefix,
 *       .comparer = route_index_cmp_prefix }
 *
 * route_index_cmp_prefix() orders numerically, as fib_prefix_compare(),
 * invalid prefix texts last; route_index_cmp_vrf() and
 * route_index_cmp_protocol() order by name, comparing interned pointers
 * first.  They are for IDLs that have a route index (which keeps the
 * binary data they compare). */
int route_index_cmp_prefix(const void *a, const void *b);
int route_index_cmp_vrf(const void *a, const void *b);
int route_index_cmp_protocol(const void *a, const void *b);

/* The binary form of 'route->prefix', or NULL if it is not a valid prefix
 * or if the route's IDL has no route index. */
const struct fib_prefix *route_index_route_prefix(
    const struct fibrec_route *);

/* Ordered walks.
 *
 * A cursor's members are private. */
enum route_index_walk {
    ROUTE_INDEX_WALK_ALL,       /* Every route. */
    ROUTE_INDEX_WALK_VRF,       /* One VRF. */
    ROUTE_INDEX_WALK_LONGER,    /* Prefixes within a prefix, in a VRF. */
    ROUTE_INDEX_WALK_PROTOCOL,  /* One protocol, optionally one VRF. */
    ROUTE_INDEX_WALK_NEXTHOP    /* Routes through one next hop. */
};

struct route_index_cursor {
    struct route_index *index;  /* The index walked. */
    enum route_index_walk walk; /* What is walked. */
    struct ovsdb_idl_cursor ovs; /* Position, except for next-hop walks. */
    struct skiplist_node *node; /* Position, for next-hop walks. */
    const void *vrf;            /* Interned VRF to stay in, or NULL. */
    const void *protocol;       /* Interned protocol to stay in. */
    struct fib_prefix within;   /* ROUTE_INDEX_WALK_LONGER: the prefix. */
};

const struct fibrec_route *route_index_first(struct route_index *,
                                             struct route_index_cursor *);
const struct fibrec_route *route_index_first_vrf(
    struct route_index *, struct route_index_cursor *, const char *vrf);
const struct fibrec_route *route_index_first_longer(
    struct route_index *, struct route_index_cursor *, const char *vrf,
    const struct fib_prefix *);
const struct fibrec_route *route_index_first_protocol(
    struct route_index *, struct route_index_cursor *, const char *protocol,
    const char *vrf);
const struct fibrec_route *route_index_first_nexthop(
    struct route_index *, struct route_index_cursor *, const char *nexthop);
const struct fibrec_route *route_index_next(struct route_index_cursor *);

#define ROUTE_INDEX_FOR_EACH(ROUTE, CURSOR, INDEX)                       \
    for ((ROUTE) = route_index_first(INDEX, CURSOR); (ROUTE);           \
         (ROUTE) = route_index_next(CURSOR))
#define ROUTE_INDEX_FOR_EACH_VRF(ROUTE, CURSOR, INDEX, VRF)              \
    for ((ROUTE) = route_index_first_vrf(INDEX, CURSOR, VRF); (ROUTE);  \
         (ROUTE) = route_index_next(CURSOR))
#define ROUTE_INDEX_FOR_EACH_LONGER(ROUTE, CURSOR, INDEX, VRF, PREFIX)   \
    for ((ROUTE) = route_index_first_longer(INDEX, CURSOR, VRF, PREFIX); \
         (ROUTE); (ROUTE) = route_index_next(CURSOR))
#define ROUTE_INDEX_FOR_EACH_PROTOCOL(ROUTE, CURSOR, INDEX, PROTO, VRF)  \
    for ((ROUTE) = route_index_first_protocol(INDEX, CURSOR, PROTO, VRF); \
         (ROUTE); (ROUTE) = route_index_next(CURSOR))
#define ROUTE_INDEX_FOR_EACH_NEXTHOP(ROUTE, CURSOR, INDEX, NEXTHOP)      \
    for ((ROUTE) = route_index_first_nexthop(INDEX, CURSOR, NEXTHOP);   \
         (ROUTE); (ROUTE) = route_index_next(CURSOR))

/* The routes that use next-hop group 'id' (Route.nexthop_group), in no
 * order: a route joins or leaves in O(1), as its column is parsed or
 * unparsed.  Rows deleted but kept by change tracking (NULL
 * 'header_.old_datum') are included until the IDL frees them.  Valid
 * until the next ovsdb_idl_run(). */
const struct fibrec_route *const *route_index_nhg_users(
    const struct route_index *, int64_t id, size_t *n);

/* Statistics. */
size_t route_index_count(const struct route_index *);
size_t route_index_n_nexthops(const struct route_index *);
size_t route_index_count_nexthop(const struct route_index *,
                                 const char *nexthop);
void route_index_get_memory_usage(const struct route_index *,
                                  struct simap *);
size_t route_index_row_overhead(void);

#endif /* route-index.h */
