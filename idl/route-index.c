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

/* Compound indexes over Route, with prefixes compared in binary.
 *
 * The row trailer
 * ===============
 *
 * OVS index comparators receive two rows and nothing else, so whatever
 * they compare must be reachable from a row.  Parsing 'route->prefix' in
 * every comparison is too slow (a comparator that sscanf()ed it took 7.4 s
 * to replicate 300K rows, 14 us a lookup); a side table from row to binary
 * prefix costs two cache misses a comparison (bucket and node) and must be
 * kept in step with rows that the IDL frees without telling anyone
 * (ovsdb_idl_clear() on a reconnect frees every row).  Instead, the
 * binary data lives in the row itself, in a trailer after 'struct
 * fibrec_route', and is computed when the IDL parses the row.  This relies
 * on the following in OVS 3.1's ovsdb-idl.c, all of it through the
 * documented structures of lib/ovsdb-idl-provider.h:
 *
 *   1. Every row of a table, including the rows made for index searches
 *      (ovsdb_idl_index_init_row()), is allocated as
 *      xzalloc(table_class->allocation_size).  route_index_init() grows
 *      'fibrec_table_route.allocation_size' (the generated class is not
 *      const) by the trailer's size, so the trailer exists and starts out
 *      zeroed.  This must happen before the first Route row is created.
 *
 *   2. The IDL turns datums into struct fields only by calling each
 *      column's 'parse' function, and releases them only by calling its
 *      'unparse' function, through the table class's column array (the
 *      generated 'fibrec_route_columns', also not const); every parsed row
 *      is unparsed before it is freed, since the parsed fields own memory.
 *      route_index_init() wraps the functions of the vrf, prefix,
 *      protocol, nexthops and nexthop_group columns: after the generated
 *      parse, the wrapper stores the binary prefix (or interned VRF or
 *      protocol) in the trailer, or adds the row to its next hops' or
 *      next-hop group's users; before the generated unparse, it withdraws
 *      the row from those.  So the trailer always describes the row's
 *      parsed fields, and the comparators never see stale data.
 *
 *   3. Rows enter and leave OVS indexes while parsed
 *      (ovsdb_idl_add_to_indexes() after parsing,
 *      ovsdb_idl_remove_from_indexes() before unparsing), so comparators
 *      may read the trailer, and the row's strings too.  But a deleted
 *      row's datums may be freed before it is unparsed (when the table is
 *      not tracked), so code that runs from an unparse hook (removal from
 *      the next-hop skiplists) reads only the trailer and the row's uuid,
 *      never its strings.
 *
 *   4. A committed row has a non-null 'old_datum'; a row inserted by a
 *      local transaction and an index search row have none.  Only
 *      committed rows enter the next-hop structure and the prefix-length
 *      counts.
 *
 * The wrappers are global (they serve every Fibsync IDL in the process).
 * They find a row's route index from 'row->table->idl' through a registry,
 * and do nothing more than the generated functions for rows of IDLs
 * without one. */

#include <config.h>

#include "idl/route-index.h"
#include "idl/route-index-private.h"

#include <string.h>

#include "hash.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "ovsdb-idl-provider.h"
#include "simap.h"
#include "skiplist.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(route_index);

/* Every route index, by IDL. */
static struct ovs_mutex registry_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap registry OVS_GUARDED_BY(registry_mutex)
    = HMAP_INITIALIZER(&registry);

/* The generated parse and unparse functions that the hooks wrap. */
typedef void ri_parse_func(struct ovsdb_idl_row *,
                           const struct ovsdb_datum *);
typedef void ri_unparse_func(struct ovsdb_idl_row *);
static ri_parse_func *orig_parse_vrf, *orig_parse_prefix,
    *orig_parse_protocol, *orig_parse_nexthops, *orig_parse_nexthop_group;
static ri_unparse_func *orig_unparse_vrf, *orig_unparse_prefix,
    *orig_unparse_protocol, *orig_unparse_nexthops,
    *orig_unparse_nexthop_group;

/* Returns the route index of 'idl', or NULL. */
static struct route_index *
ri_lookup(const struct ovsdb_idl *idl)
{
    struct route_index *ri;

    ovs_mutex_lock(&registry_mutex);
    HMAP_FOR_EACH_WITH_HASH (ri, node, hash_pointer(idl, 0), &registry) {
        if (ri->idl == idl) {
            ovs_mutex_unlock(&registry_mutex);
            return ri;
        }
    }
    ovs_mutex_unlock(&registry_mutex);
    return NULL;
}

/* Returns the interned 'name' in 'names', or NULL. */
struct ri_name *
route_index__name_find(const struct hmap *names, const char *name)
{
    struct ri_name *n;

    HMAP_FOR_EACH_WITH_HASH (n, node, hash_string(name, 0), names) {
        if (!strcmp(n->name, name)) {
            return n;
        }
    }
    return NULL;
}

/* Returns the interned 'name' in 'names', adding it if needed. */
static struct ri_name *
ri_name_intern(struct hmap *names, const char *name)
{
    struct ri_name *n = route_index__name_find(names, name);

    if (!n) {
        n = xzalloc(sizeof *n);
        n->name = xstrdup(name);
        hmap_insert(names, &n->node, hash_string(name, 0));
    }
    return n;
}

static void
ri_names_destroy(struct hmap *names)
{
    struct ri_name *n;

    HMAP_FOR_EACH_POP (n, node, names) {
        free(n->name);
        free(n);
    }
    hmap_destroy(names);
}

/* Comparisons. */

/* Compares the prefixes of 'a' and 'b' by their trailers: valid prefixes
 * numerically, before invalid ones; two invalid ones by text if
 * 'use_text' (only where the rows' strings are known to be alive),
 * otherwise as equal. */
static inline int
ri_cmp_prefix__(const struct fibrec_route *a, const struct fibrec_route *b,
                bool use_text)
{
    const struct ri_trailer *ta = ri_trailer(a);
    const struct ri_trailer *tb = ri_trailer(b);
    bool va = ta->flags & RI_F_PREFIX_OK;
    bool vb = tb->flags & RI_F_PREFIX_OK;

    if (va && vb) {
        return fib_prefix_compare(&ta->prefix, &tb->prefix);
    } else if (va != vb) {
        return va ? -1 : 1;
    } else {
        return use_text ? strcmp(a->prefix, b->prefix) : 0;
    }
}

/* Compares interned names 'na' and 'nb', falling back to the texts 'sa'
 * and 'sb' when either is not interned. */
static inline int
ri_cmp_name(const struct ri_name *na, const struct ri_name *nb,
            const char *sa, const char *sb)
{
    if (na && na == nb) {
        return 0;
    }
    return strcmp(na ? na->name : sa, nb ? nb->name : sb);
}

/* OVS index comparators (column_comparator_func), binary flavour. */
int
route_index_cmp_vrf(const void *a_, const void *b_)
{
    const struct fibrec_route *a = a_, *b = b_;

    return ri_cmp_name(ri_trailer(a)->vrf, ri_trailer(b)->vrf,
                       a->vrf, b->vrf);
}

int
route_index_cmp_prefix(const void *a, const void *b)
{
    return ri_cmp_prefix__(a, b, true);
}

int
route_index_cmp_protocol(const void *a_, const void *b_)
{
    const struct fibrec_route *a = a_, *b = b_;

    return ri_cmp_name(ri_trailer(a)->protocol, ri_trailer(b)->protocol,
                       a->protocol, b->protocol);
}

/* OVS index comparators, text flavour: what an index without the trailer
 * would do, for measurements. */
static int
ri_cmp_vrf_text(const void *a_, const void *b_)
{
    const struct fibrec_route *a = a_, *b = b_;

    return strcmp(a->vrf, b->vrf);
}

static int
ri_cmp_prefix_text(const void *a_, const void *b_)
{
    const struct fibrec_route *a = a_, *b = b_;

    return fib_prefix_compare_text(a->prefix, b->prefix);
}

/* Orders the references in a next hop's skiplist: by prefix, VRF, then
 * row uuid, so that each reference is unique.  Reads only trailers and
 * uuids (see point 3 at the top). */
static int
ri_ref_cmp(const void *a_, const void *b_, const void *conf OVS_UNUSED)
{
    const struct ri_nh_ref *a = a_, *b = b_;
    int cmp;

    if (a == b) {
        return 0;
    }
    cmp = ri_cmp_prefix__(a->route, b->route, false);
    if (!cmp) {
        const struct ri_name *va = ri_trailer(a->route)->vrf;
        const struct ri_name *vb = ri_trailer(b->route)->vrf;

        cmp = va == vb ? 0 : strcmp(va->name, vb->name);
    }
    return cmp ? cmp : uuid_compare_3way(&a->route->header_.uuid,
                                         &b->route->header_.uuid);
}

/* Returns the next hop 'key' of 'ri', or NULL. */
struct ri_nh *
route_index__nh_find(const struct route_index *ri, const char *key)
{
    struct ri_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, node, hash_string(key, 0), &ri->nexthops) {
        if (!strcmp(nh->key, key)) {
            return nh;
        }
    }
    return NULL;
}

/* Returns the users of next-hop group 'id' in 'ri', or NULL. */
struct ri_nhg *
route_index__nhg_find(const struct route_index *ri, int64_t id)
{
    struct ri_nhg *g;

    HMAP_FOR_EACH_WITH_HASH (g, node, hash_uint64(id), &ri->nhgs) {
        if (g->id == id) {
            return g;
        }
    }
    return NULL;
}

/* qsort() comparator of "struct ri_nh_ref *"s, as ri_ref_cmp(). */
static int
ri_ref_ptr_cmp(const void *a_, const void *b_)
{
    const struct ri_nh_ref *const *a = a_;
    const struct ri_nh_ref *const *b = b_;

    return ri_ref_cmp(*a, *b, NULL);
}

/* Moves 'nh''s pending references into its skiplist, in order. */
void
route_index__nh_settle(struct ri_nh *nh)
{
    struct ri_nh_ref **v, *ref;
    size_t n = 0;

    if (!nh->n_pending) {
        return;
    }
    v = xmalloc(nh->n_pending * sizeof *v);
    LIST_FOR_EACH_POP (ref, pending_node, &nh->pending) {
        ref->pending_node.next = NULL;
        v[n++] = ref;
    }
    ovs_assert(n == nh->n_pending);
    qsort(v, n, sizeof *v, ri_ref_ptr_cmp);
    for (size_t i = 0; i < n; i++) {
        skiplist_insert(nh->routes, v[i]);
    }
    nh->n_pending = 0;
    free(v);
}

/* The next-hop structure and prefix-length counts. */

/* Adds 'route' to 'ri''s next-hop structure and prefix-length counts, once
 * its vrf, prefix and nexthops columns are all parsed, if it is a committed
 * row. */
static void
ri_link(struct route_index *ri, struct fibrec_route *route)
{
    struct ri_trailer *t = ri_trailer(route);
    const uint8_t need = RI_F_PREFIX | RI_F_VRF | RI_F_NEXTHOPS;

    if ((t->flags & (need | RI_F_LINKED)) != need
        || !route->header_.old_datum || !t->vrf) {
        return;
    }

    /* ROUTE_INDEX_CMP_NONE has no walks, so no next-hop structure. */
    t->n_refs = ri->cmp != ROUTE_INDEX_CMP_NONE ? route->n_nexthops : 0;
    t->refs = t->n_refs ? xmalloc(t->n_refs * sizeof *t->refs) : NULL;
    for (size_t i = 0; i < t->n_refs; i++) {
        const char *key = route->key_nexthops[i];
        struct ri_nh_ref *ref = &t->refs[i];
        struct ri_nh *nh = route_index__nh_find(ri, key);

        if (!nh) {
            nh = xmalloc(sizeof *nh);
            nh->key = xstrdup(key);
            nh->routes = skiplist_create(ri_ref_cmp, NULL);
            ovs_list_init(&nh->pending);
            nh->n_pending = 0;
            hmap_insert(&ri->nexthops, &nh->node, hash_string(key, 0));
        }
        ref->nh = nh;
        ref->route = route;
        ovs_list_push_back(&nh->pending, &ref->pending_node);
        nh->n_pending++;
    }
    ri->n_refs += t->n_refs;

    if (t->flags & RI_F_PREFIX_OK) {
        t->vrf->n_len[t->prefix.family == AF_INET6][t->prefix.len]++;
        t->vrf->n_routes++;
    }
    t->flags |= RI_F_LINKED;
    ri->n_linked++;
}

/* Undoes ri_link(); called before any of the three columns is unparsed.
 * Reads only the trailer and the row's uuid (see point 3 at the top). */
static void
ri_unlink(struct route_index *ri, struct fibrec_route *route)
{
    struct ri_trailer *t = ri_trailer(route);

    if (!(t->flags & RI_F_LINKED)) {
        return;
    }
    for (size_t i = 0; i < t->n_refs; i++) {
        struct ri_nh_ref *ref = &t->refs[i];
        struct ri_nh *nh = ref->nh;

        if (ref->pending_node.next) {
            ovs_list_remove(&ref->pending_node);
            nh->n_pending--;
        } else {
            skiplist_delete(nh->routes, ref);
        }
        if (!skiplist_get_size(nh->routes) && !nh->n_pending) {
            hmap_remove(&ri->nexthops, &nh->node);
            skiplist_destroy(nh->routes, NULL);
            free(nh->key);
            free(nh);
        }
    }
    if (t->flags & RI_F_PREFIX_OK) {
        t->vrf->n_len[t->prefix.family == AF_INET6][t->prefix.len]--;
        t->vrf->n_routes--;
    }
    ri->n_refs -= t->n_refs;
    ri->n_linked--;
    free(t->refs);
    t->refs = NULL;
    t->n_refs = 0;
    t->flags &= ~RI_F_LINKED;
}

/* Adds committed 'route' to the users of its next-hop group, if it has
 * one. */
static void
ri_nhg_link(struct route_index *ri, struct fibrec_route *route)
{
    struct ri_trailer *t = ri_trailer(route);
    struct ri_nhg *g;
    int64_t id;

    if (!route->n_nexthop_group || !route->header_.old_datum) {
        return;
    }
    id = route->nexthop_group[0];
    g = route_index__nhg_find(ri, id);
    if (!g) {
        g = xzalloc(sizeof *g);
        g->id = id;
        hmap_insert(&ri->nhgs, &g->node, hash_uint64(id));
    }
    if (g->n >= g->allocated) {
        g->routes = x2nrealloc(g->routes, &g->allocated, sizeof *g->routes);
    }
    t->nhg = g;
    t->nhg_pos = g->n;
    g->routes[g->n++] = route;
    t->flags |= RI_F_NHG;
    ri->n_nhg_users++;
}

/* Undoes ri_nhg_link().  Reads only the trailers (point 3 at the top). */
static void
ri_nhg_unlink(struct route_index *ri, struct fibrec_route *route)
{
    struct ri_trailer *t = ri_trailer(route);
    struct ri_nhg *g = t->nhg;

    if (!(t->flags & RI_F_NHG)) {
        return;
    }
    /* The last user takes the leaving one's place. */
    g->routes[t->nhg_pos] = g->routes[--g->n];
    ri_trailer(g->routes[t->nhg_pos])->nhg_pos = t->nhg_pos;
    if (!g->n) {
        hmap_remove(&ri->nhgs, &g->node);
        free(g->routes);
        free(g);
    }
    t->nhg = NULL;
    t->flags &= ~RI_F_NHG;
    ri->n_nhg_users--;
}

/* Interns 'name' for 'route' in 'names' of 'ri': committed rows add names,
 * other rows (rows of local transactions) only find existing ones. */
static struct ri_name *
ri_intern_for(struct route_index *ri, const struct fibrec_route *route,
              const char *name, bool is_vrf)
{
    struct hmap *names = is_vrf ? &ri->vrfs : &ri->protocols;
    struct ri_name *n = (route->header_.old_datum
                         ? ri_name_intern(names, name)
                         : route_index__name_find(names, name));

    if (n) {
        ri->n_named++;
    }
    return n;
}

/* Drops a row's reference to an interned name of 'ri'. */
static void
ri_unname(struct route_index *ri, struct ri_name **np)
{
    if (*np) {
        ri->n_named--;
        *np = NULL;
    }
}

/* Column hooks (see point 2 at the top).  Each does its work only for rows
 * of IDLs with a route index: those rows were all created after
 * route_index_init() (route_index_create() checks that the table is still
 * empty), so they have a trailer, whereas a row of another Fibsync IDL in
 * the process might predate it. */

/* Returns the route index of 'row''s IDL, or NULL. */
struct route_index *
route_index__of_row(const struct ovsdb_idl_row *row)
{
    struct route_index *ri = row->table ? ri_lookup(row->table->idl) : NULL;

    if (ri) {
        ri->table = row->table;
    }
    return ri;
}

static void
ri_parse_prefix(struct ovsdb_idl_row *row, const struct ovsdb_datum *datum)
{
    struct route_index *ri = route_index__of_row(row);

    orig_parse_prefix(row, datum);
    if (ri) {
        struct fibrec_route *route = ri_route(row);
        struct ri_trailer *t = ri_trailer(route);

        t->flags |= RI_F_PREFIX;
        if (fib_prefix_parse__(route->prefix, false, &t->prefix)
            == FIB_PREFIX_OK) {
            t->flags |= RI_F_PREFIX_OK;
        } else {
            t->flags &= ~RI_F_PREFIX_OK;
        }
        ri_link(ri, route);
    }
}

static void
ri_unparse_prefix(struct ovsdb_idl_row *row)
{
    struct route_index *ri = route_index__of_row(row);

    if (ri) {
        struct fibrec_route *route = ri_route(row);

        ri_unlink(ri, route);
        ri_trailer(route)->flags &= ~(RI_F_PREFIX | RI_F_PREFIX_OK);
    }
    orig_unparse_prefix(row);
}

static void
ri_parse_vrf(struct ovsdb_idl_row *row, const struct ovsdb_datum *datum)
{
    struct route_index *ri = route_index__of_row(row);

    orig_parse_vrf(row, datum);
    if (ri) {
        struct fibrec_route *route = ri_route(row);
        struct ri_trailer *t = ri_trailer(route);

        t->vrf = ri_intern_for(ri, route, route->vrf, true);
        t->flags |= RI_F_VRF;
        ri_link(ri, route);
    }
}

static void
ri_unparse_vrf(struct ovsdb_idl_row *row)
{
    struct route_index *ri = route_index__of_row(row);

    if (ri) {
        struct fibrec_route *route = ri_route(row);
        struct ri_trailer *t = ri_trailer(route);

        ri_unlink(ri, route);
        ri_unname(ri, &t->vrf);
        t->flags &= ~RI_F_VRF;
    }
    orig_unparse_vrf(row);
}

static void
ri_parse_protocol(struct ovsdb_idl_row *row, const struct ovsdb_datum *datum)
{
    struct route_index *ri = route_index__of_row(row);

    orig_parse_protocol(row, datum);
    if (ri) {
        struct fibrec_route *route = ri_route(row);

        ri_trailer(route)->protocol = ri_intern_for(ri, route,
                                                    route->protocol, false);
    }
}

static void
ri_unparse_protocol(struct ovsdb_idl_row *row)
{
    struct route_index *ri = route_index__of_row(row);

    if (ri) {
        ri_unname(ri, &ri_trailer(ri_route(row))->protocol);
    }
    orig_unparse_protocol(row);
}

static void
ri_parse_nexthops(struct ovsdb_idl_row *row, const struct ovsdb_datum *datum)
{
    struct route_index *ri = route_index__of_row(row);

    orig_parse_nexthops(row, datum);
    if (ri) {
        struct fibrec_route *route = ri_route(row);

        ri_trailer(route)->flags |= RI_F_NEXTHOPS;
        ri_link(ri, route);
    }
}

static void
ri_unparse_nexthops(struct ovsdb_idl_row *row)
{
    struct route_index *ri = route_index__of_row(row);

    if (ri) {
        struct fibrec_route *route = ri_route(row);

        ri_unlink(ri, route);
        ri_trailer(route)->flags &= ~RI_F_NEXTHOPS;
    }
    orig_unparse_nexthops(row);
}

static void
ri_parse_nexthop_group(struct ovsdb_idl_row *row,
                       const struct ovsdb_datum *datum)
{
    struct route_index *ri = route_index__of_row(row);

    orig_parse_nexthop_group(row, datum);
    if (ri) {
        ri_nhg_link(ri, ri_route(row));
    }
}

static void
ri_unparse_nexthop_group(struct ovsdb_idl_row *row)
{
    struct route_index *ri = route_index__of_row(row);

    if (ri) {
        ri_nhg_unlink(ri, ri_route(row));
    }
    orig_unparse_nexthop_group(row);
}

/* Installs the row trailer and the column hooks, once per process.  Must
 * run before any Fibsync IDL creates a Route row (see the header). */
void
route_index_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        struct ovsdb_idl_table_class *tc = &fibrec_table_route;

        ovs_assert(tc->allocation_size == sizeof(struct fibrec_route));
        tc->allocation_size = RI_TRAILER_OFS + sizeof(struct ri_trailer);

#define RI_HOOK(COL, NAME)                                          \
        orig_parse_##NAME = fibrec_route_columns[COL].parse;        \
        orig_unparse_##NAME = fibrec_route_columns[COL].unparse;    \
        fibrec_route_columns[COL].parse = ri_parse_##NAME;          \
        fibrec_route_columns[COL].unparse = ri_unparse_##NAME;
        RI_HOOK(FIBREC_ROUTE_COL_VRF, vrf);
        RI_HOOK(FIBREC_ROUTE_COL_PREFIX, prefix);
        RI_HOOK(FIBREC_ROUTE_COL_PROTOCOL, protocol);
        RI_HOOK(FIBREC_ROUTE_COL_NEXTHOPS, nexthops);
        RI_HOOK(FIBREC_ROUTE_COL_NEXTHOP_GROUP, nexthop_group);
#undef RI_HOOK
        ovsthread_once_done(&once);
    }
}

/* Returns the bytes that route_index_init() adds to every Route row. */
size_t
route_index_row_overhead(void)
{
    return RI_TRAILER_OFS + sizeof(struct ri_trailer)
           - sizeof(struct fibrec_route);
}

/* Creates the route index of 'idl', which must not have run yet. */
struct route_index *
route_index_create(struct ovsdb_idl *idl)
{
    return route_index_create_cmp(idl, ROUTE_INDEX_CMP_BINARY);
}

/* Creates the route index of 'idl' with comparators of flavour 'cmp'. */
struct route_index *
route_index_create_cmp(struct ovsdb_idl *idl, enum route_index_cmp cmp)
{
    bool text = cmp == ROUTE_INDEX_CMP_TEXT;
    column_comparator_func *vrf_cmp = text ? ri_cmp_vrf_text
                                           : route_index_cmp_vrf;
    column_comparator_func *prefix_cmp = text ? ri_cmp_prefix_text
                                              : route_index_cmp_prefix;
    const struct ovsdb_idl_index_column by_vrf[] = {
        { .column = &fibrec_route_col_vrf, .comparer = vrf_cmp },
        { .column = &fibrec_route_col_prefix, .comparer = prefix_cmp },
    };
    struct route_index *ri;

    route_index_init();
    ovs_assert(!ri_lookup(idl));
    /* Rows made before route_index_init() would have no trailer. */
    ovs_assert(!ovsdb_idl_first_row(idl, &fibrec_table_route));

    ri = xzalloc(sizeof *ri);
    ri->idl = idl;
    ri->cmp = cmp;
    if (cmp != ROUTE_INDEX_CMP_NONE) {
        ri->by_vrf = ovsdb_idl_index_create(idl, by_vrf,
                                            ARRAY_SIZE(by_vrf));
    }
    /* The search row.  Not from fibrec_route_index_init_row(): freeing
     * that needs the IDL's table, which may be gone by the time
     * route_index_destroy() runs.  Only the comparators read it, and they
     * read the vrf, prefix and protocol members and the trailer. */
    ri->search = xzalloc(fibrec_table_route.allocation_size);
    hmap_init(&ri->vrfs);
    hmap_init(&ri->protocols);
    hmap_init(&ri->nexthops);
    hmap_init(&ri->nhgs);

    ovs_mutex_lock(&registry_mutex);
    hmap_insert(&registry, &ri->node, hash_pointer(idl, 0));
    ovs_mutex_unlock(&registry_mutex);
    return ri;
}

/* Detaches every row of 'table' (live, or deleted but still tracked) from
 * 'ri'. */
static void
ri_detach_rows(struct route_index *ri, struct ovsdb_idl_table *table)
{
    struct ovsdb_idl_row *row;

    HMAP_FOR_EACH (row, hmap_node, &table->rows) {
        struct fibrec_route *route = ri_route(row);

        ri_unlink(ri, route);
        ri_nhg_unlink(ri, route);
        ri_unname(ri, &ri_trailer(route)->vrf);
        ri_unname(ri, &ri_trailer(route)->protocol);
    }
    LIST_FOR_EACH (row, track_node, &table->track_list) {
        struct fibrec_route *route = ri_route(row);

        ri_unlink(ri, route);
        ri_nhg_unlink(ri, route);
        ri_unname(ri, &ri_trailer(route)->vrf);
        ri_unname(ri, &ri_trailer(route)->protocol);
    }
}

/* Destroys 'ri'.  If its IDL still exists, its rows keep their binary
 * prefixes, and its OVS indexes (which only the IDL can free) keep
 * working, comparing VRF and protocol names as text. */
void
route_index_destroy(struct route_index *ri)
{
    if (!ri) {
        return;
    }
    if (ri->n_named || ri->n_linked || ri->n_nhg_users) {
        /* The IDL is alive (destroying it unparses every row), and a row
         * came, so 'ri->table' is set. */
        ri_detach_rows(ri, ri->table);
    }
    ovs_assert(!ri->n_linked && !ri->n_named && !ri->n_refs
               && !ri->n_nhg_users);
    ovs_assert(hmap_is_empty(&ri->nexthops));
    ovs_assert(hmap_is_empty(&ri->nhgs));

    ovs_mutex_lock(&registry_mutex);
    hmap_remove(&registry, &ri->node);
    ovs_mutex_unlock(&registry_mutex);

    free(ri->search);
    hmap_destroy(&ri->nexthops);
    hmap_destroy(&ri->nhgs);
    ri_names_destroy(&ri->vrfs);
    ri_names_destroy(&ri->protocols);
    free(ri);
}
