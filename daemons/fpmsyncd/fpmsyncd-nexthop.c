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

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-nexthop.h"

#include <stdlib.h>
#include <string.h>

#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "daemons/fpmsyncd/fpmsyncd-rib-rows.h"
#include "hash.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "util.h"
#include "uuid.h"

/* Next-hop sets. */

/* Returns the hash of the 'n' members 'm', the same for the same keys and
 * weights in the same order, whether they come from zebra or from a row
 * read from the database. */
uint32_t
fpmd_nhset_hash(const struct fpmd_nhmember *m, size_t n)
{
    uint32_t h = 0x6e68;        /* "nh" */

    for (size_t i = 0; i < n; i++) {
        h = hash_string(m[i].key, h);
        h = hash_int(m[i].weight, h);
    }
    return h;
}

static int
compare_members(const void *a_, const void *b_)
{
    const struct fpmd_nhmember *a = a_;
    const struct fpmd_nhmember *b = b_;

    return strcmp(a->key, b->key);
}

/* Parses map column 'j' (["map",[[K,V],...]] of string to integer), as
 * read from the database, into the hash fpmd_nhset_hash() computes for the
 * same set.  Returns false if 'j' is not such a map. */
bool
fpmd_nhset_hash_json(const struct json *j, uint32_t *hash)
{
    const struct json_array *pairs;
    struct fpmd_nhmember *m;
    size_t n;

    if (!j || j->type != JSON_ARRAY || json_array(j)->n != 2
        || json_array(j)->elems[1]->type != JSON_ARRAY) {
        return false;
    }
    pairs = json_array(json_array(j)->elems[1]);
    n = pairs->n;
    m = xmalloc(n * sizeof *m + 1);
    for (size_t i = 0; i < n; i++) {
        const struct json *pair = pairs->elems[i];

        if (pair->type != JSON_ARRAY || json_array(pair)->n != 2
            || json_array(pair)->elems[0]->type != JSON_STRING
            || json_array(pair)->elems[1]->type != JSON_INTEGER) {
            free(m);
            return false;
        }
        m[i].key = CONST_CAST(char *,
                              json_string(json_array(pair)->elems[0]));
        m[i].weight = json_integer(json_array(pair)->elems[1]);
    }
    qsort(m, n, sizeof *m, compare_members);
    *hash = fpmd_nhset_hash(m, n);
    free(m);
    return true;
}

/* Frees 'set' and its members. */
static void
nhset_free(struct fpmd_nhset *set)
{
    if (set) {
        for (size_t i = 0; i < set->n; i++) {
            free(set->members[i].key);
            free(set->members[i].key_json);
        }
        free(set->members);
        free(set);
    }
}

/* Returns a new empty set. */
static struct fpmd_nhset *
nhset_create(void)
{
    return xzalloc(sizeof(struct fpmd_nhset));
}

/* Adds 'key' with 'weight' to 'set' (which must not be finished yet),
 * taking ownership of 'key'. */
static void
nhset_add(struct fpmd_nhset *set, char *key, uint32_t weight)
{
    set->members = xrealloc(set->members,
                            (set->n + 1) * sizeof *set->members);
    set->members[set->n].key = key;
    set->members[set->n].key_json = NULL;
    set->members[set->n].weight = weight;
    set->n++;
}

/* Sorts 'set', merges members with the same key (adding their weights),
 * and computes its hash and the JSON forms of its keys. */
static void
nhset_finish(struct fpmd_nhset *set)
{
    size_t n = 0;

    /* An empty set (a blackhole, or a route with no gateway) has no members
     * array: qsort() must not be given its null pointer, even for zero
     * elements (glibc declares it nonnull; UBSan caught it). */
    if (set->n > 1) {
        qsort(set->members, set->n, sizeof *set->members, compare_members);
    }
    for (size_t i = 0; i < set->n; i++) {
        if (n && !strcmp(set->members[n - 1].key, set->members[i].key)) {
            set->members[n - 1].weight = MIN(
                65535, set->members[n - 1].weight + set->members[i].weight);
            free(set->members[i].key);
        } else {
            set->members[n++] = set->members[i];
        }
    }
    set->n = n;

    set->connected = n > 0;
    for (size_t i = 0; i < n; i++) {
        struct ds s = DS_EMPTY_INITIALIZER;

        json_string_escape(set->members[i].key, &s);
        set->members[i].key_json = ds_steal_cstr(&s);
        if (set->members[i].key[0] != '@') {
            set->connected = false;
        }
    }
    set->hash = fpmd_nhset_hash(set->members, n);
}

/* Returns true if 'a' and 'b' have the same members (both may be NULL). */
static bool
nhset_equals(const struct fpmd_nhset *a, const struct fpmd_nhset *b)
{
    if (!a || !b) {
        return a == b;
    }
    if (a->hash != b->hash || a->n != b->n || a->blackhole != b->blackhole) {
        return false;
    }
    for (size_t i = 0; i < a->n; i++) {
        if (a->members[i].weight != b->members[i].weight
            || strcmp(a->members[i].key, b->members[i].key)) {
            return false;
        }
    }
    return true;
}

/* Returns a malloc()'d next-hop key for 'gateway' out of 'ifindex'. */
static char *
nh_key(const struct fpmd_rib *rib, const struct fpm_addr *gateway,
       uint32_t ifindex)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    char ifname[64];

    route_key_nexthop_format(&s, gateway->family, gateway->addr,
                             (ifindex
                              ? rib->ifname(ifindex, ifname, sizeof ifname)
                              : NULL));
    return ds_steal_cstr(&s);
}

/* Next-hop objects. */

void
/* Initializes the empty table of a rib that writes routes again with
 * 'route_refresh' and 'route_move'. */
fpmd_nh_table_init(struct fpmd_nh_table *t,
                   fpmd_nh_route_refresh_func *route_refresh,
                   fpmd_nh_route_move_func *route_move)
{
    hmap_init(&t->ids);
    hmap_init(&t->anon);
    t->route_refresh = route_refresh;
    t->route_move = route_move;
}

/* Frees 'nh' and what it owns, without unlinking it from anything. */
static void
nh_free__(struct fpmd_nh *nh)
{
    nhset_free(nh->set);
    free(nh->members);
    free(nh->paths);
    free(nh->deps);
    free(nh);
}

void
fpmd_nh_table_destroy(struct fpmd_nh_table *t)
{
    struct fpmd_nh *nh;

    HMAP_FOR_EACH_POP (nh, node, &t->ids) {
        nh_free__(nh);
    }
    hmap_destroy(&t->ids);
    HMAP_FOR_EACH_POP (nh, node, &t->anon) {
        nh_free__(nh);
    }
    hmap_destroy(&t->anon);
}

static struct fpmd_nh *
nh_find(const struct fpmd_rib *rib, uint32_t id)
{
    struct fpmd_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, node, hash_int(id, 0), &rib->nhs.ids) {
        if (nh->id == id) {
            return nh;
        }
    }
    return NULL;
}

/* Returns a new next-hop object, not in any table yet. */
static struct fpmd_nh *
nh_create(void)
{
    struct fpmd_nh *nh = xzalloc(sizeof *nh);

    route_batch_entry_init(&nh->be);
    nh->be.tag = FPMD_NH;
    ovs_list_init(&nh->routes);
    return nh;
}

/* Returns the object with 'id', creating an undefined placeholder if
 * there is none. */
struct fpmd_nh *
fpmd_nh_get(struct fpmd_rib *rib, uint32_t id)
{
    struct fpmd_nh *nh = nh_find(rib, id);

    if (!nh) {
        nh = nh_create();
        nh->id = id;
        hmap_insert(&rib->nhs.ids, &nh->node, hash_int(id, 0));
    }
    return nh;
}

static void
nh_add_dep(struct fpmd_nh *member, struct fpmd_nh *group)
{
    for (size_t i = 0; i < member->n_deps; i++) {
        if (member->deps[i] == group) {
            return;
        }
    }
    if (member->n_deps >= member->allocated_deps) {
        member->deps = x2nrealloc(member->deps, &member->allocated_deps,
                                  sizeof *member->deps);
    }
    member->deps[member->n_deps++] = group;
}

static void
nh_remove_dep(struct fpmd_nh *member, struct fpmd_nh *group)
{
    for (size_t i = 0; i < member->n_deps; i++) {
        if (member->deps[i] == group) {
            member->deps[i] = member->deps[--member->n_deps];
            return;
        }
    }
}

/* Forgets 'nh''s definition: unlinks it from its group members. */
static void
nh_clear_definition(struct fpmd_rib *rib, struct fpmd_nh *nh)
{
    struct fpm_nhg_member *members = nh->members;
    size_t n_members = nh->n_members;

    nh->members = NULL;
    nh->n_members = 0;
    nh->blackhole = false;
    memset(&nh->gateway, 0, sizeof nh->gateway);
    nh->ifindex = 0;
    for (size_t i = 0; i < n_members; i++) {
        struct fpmd_nh *m = nh_find(rib, members[i].id);

        if (m) {
            nh_remove_dep(m, nh);
            fpmd_nh_maybe_free(rib, m);
        }
    }
    free(members);
}

/* Frees 'nh' if nothing needs it any more. */
void
fpmd_nh_maybe_free(struct fpmd_rib *rib, struct fpmd_nh *nh)
{
    if (nh->id
        ? (nh->defined || nh->n_routes || nh->n_deps
           || !route_batch_entry_is_idle(&nh->be))
        : nh->n_routes > 0) {
        return;
    }
    if (nh->id) {
        fpmd_rib_forget_foreign(rib, &nh->be);
        hmap_remove(&rib->nhs.ids, &nh->node);
    } else {
        hmap_remove(&rib->nhs.anon, &nh->node);
    }
    nh_clear_definition(rib, nh);
    nh_free__(nh);
}

/* Computes the member set 'nh''s definition resolves to, or returns NULL
 * if a member is missing. */
static struct fpmd_nhset *
nh_compute_set(struct fpmd_rib *rib, const struct fpmd_nh *nh)
{
    struct fpmd_nhset *set;

    if (!nh->defined) {
        return NULL;
    }
    set = nhset_create();
    if (!nh->id) {
        for (size_t i = 0; i < nh->n_paths; i++) {
            const struct fpm_route_nh *p = &nh->paths[i];

            nhset_add(set, nh_key(rib, &p->gateway, p->ifindex), p->weight);
        }
    } else if (nh->n_members) {
        size_t n_blackholes = 0;

        for (size_t i = 0; i < nh->n_members; i++) {
            const struct fpmd_nh *m = nh_find(rib, nh->members[i].id);

            if (!m || !m->defined || !m->resolved || !m->set
                || m->n_members) {
                /* Missing, not defined yet, or itself a group (Linux does
                 * not nest groups). */
                nhset_free(set);
                return NULL;
            }
            if (m->set->blackhole) {
                n_blackholes++;
            }
            for (size_t j = 0; j < m->set->n; j++) {
                nhset_add(set, xstrdup(m->set->members[j].key),
                          nh->members[i].weight);
            }
        }
        set->blackhole = n_blackholes == nh->n_members;
    } else if (nh->blackhole) {
        set->blackhole = true;
    } else if (nh->gateway.family || nh->ifindex) {
        nhset_add(set, nh_key(rib, &nh->gateway, nh->ifindex), 1);
    }
    nhset_finish(set);
    return set;
}

/* Recomputes 'nh''s set.  Returns true if its resolution or its members
 * changed. */
static bool
nh_resolve(struct fpmd_rib *rib, struct fpmd_nh *nh)
{
    struct fpmd_nhset *set = nh_compute_set(rib, nh);

    if (!set) {
        bool changed = nh->resolved;

        nh->resolved = false;
        return changed;
    }
    if (nh->resolved && nhset_equals(set, nh->set)) {
        nhset_free(set);
        return false;
    }
    nhset_free(nh->set);
    nh->set = set;
    nh->resolved = true;
    return true;
}

/* Returns the content hash of the Nexthop_Group row of 'id' with members
 * whose hash is 'members_hash'. */
static uint32_t
nhg_row_hash(uint32_t id, uint32_t members_hash)
{
    return hash_int(id, members_hash);
}

/* Queues the Nexthop_Group row of 'nh', if it is resolved. */
static void
nh_write(struct fpmd_rib *rib, struct fpmd_nh *nh)
{
    if (nh->id && nh->resolved) {
        route_batch_set(&rib->batch, &nh->be,
                        nhg_row_hash(nh->id, nh->set->hash));
    }
}

/* Propagates a change of 'nh''s set to its routes and the groups that
 * use it. */
static void
nh_changed(struct fpmd_rib *rib, struct fpmd_nh *nh)
{
    struct fpmd_route *r;

    rib->stats.nh_changed++;
    nh_write(rib, nh);
    LIST_FOR_EACH (r, nh_node, &nh->routes) {
        rib->stats.routes_rewritten++;
        rib->nhs.route_refresh(rib, r);
    }
    for (size_t i = 0; i < nh->n_deps; i++) {
        struct fpmd_nh *g = nh->deps[i];

        if (nh_resolve(rib, g)) {
            nh_changed(rib, g);
        }
    }
}

/* True if the Nexthop_Group row of 'nh' can be written: its content is
 * known and resolved. */
bool
fpmd_nh_writable(const struct fpmd_nh *nh)
{
    return (!(nh->be.flags & FPMD_F_NO_CONTENT) && nh->defined
            && nh->resolved);
}

/* Anonymous sets of inline next hops. */

/* Returns a hash of 'n' inline paths, to intern them. */
static uint32_t
paths_hash(const struct fpm_route_nh *paths, size_t n)
{
    uint32_t h = 0;

    for (size_t i = 0; i < n; i++) {
        const struct fpm_route_nh *p = &paths[i];

        h = hash_int(p->gateway.family, h);
        h = hash_bytes(p->gateway.addr, sizeof p->gateway.addr, h);
        h = hash_int(p->ifindex, h);
        h = hash_int(p->weight, h);
    }
    return h;
}

static bool
paths_equal(const struct fpm_route_nh *a, const struct fpm_route_nh *b,
            size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i].gateway.family != b[i].gateway.family
            || memcmp(a[i].gateway.addr, b[i].gateway.addr,
                      sizeof a[i].gateway.addr)
            || a[i].ifindex != b[i].ifindex
            || a[i].weight != b[i].weight) {
            return false;
        }
    }
    return true;
}

/* Returns the anonymous set for inline 'paths', creating it if needed. */
struct fpmd_nh *
fpmd_nh_intern(struct fpmd_rib *rib, const struct fpm_route_nh *paths,
               size_t n)
{
    uint32_t hash = paths_hash(paths, n);
    struct fpmd_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, node, hash, &rib->nhs.anon) {
        if (nh->n_paths == n && paths_equal(nh->paths, paths, n)) {
            return nh;
        }
    }
    nh = nh_create();
    nh->defined = true;
    nh->paths = xmemdup(paths, n * sizeof *paths);
    nh->n_paths = n;
    hmap_insert(&rib->nhs.anon, &nh->node, hash);
    nh_resolve(rib, nh);
    return nh;
}

/* zebra's next-hop messages. */

/* Withdraws next-hop object 'nh', because zebra deleted it or because
 * reconciliation found it stale: forgets its definition, so that the
 * routes and groups that use it wait for a new one, and deletes its row.
 * The caller then frees it with fpmd_nh_maybe_free() if nothing needs
 * it. */
static void
nh_withdraw(struct fpmd_rib *rib, struct fpmd_nh *nh)
{
    nh_clear_definition(rib, nh);
    nh->defined = false;
    nh->be.flags &= ~FPMD_F_NO_CONTENT;
    if (nh_resolve(rib, nh)) {
        nh_changed(rib, nh);
    }
    route_batch_del(&rib->batch, &nh->be);
}

/* Returns true if RTM_NEWNEXTHOP 'fn' defines 'nh' as it is defined. */
static bool
nh_same_definition(const struct fpmd_nh *nh, const struct fpm_nexthop *fn)
{
    if (nh->blackhole != fn->blackhole || nh->ifindex != fn->ifindex
        || nh->gateway.family != fn->gateway.family
        || memcmp(nh->gateway.addr, fn->gateway.addr,
                  sizeof nh->gateway.addr)
        || nh->n_members != fn->n_members) {
        return false;
    }
    for (size_t i = 0; i < fn->n_members; i++) {
        if (nh->members[i].id != fn->members[i].id
            || nh->members[i].weight != fn->members[i].weight) {
            return false;
        }
    }
    return true;
}

/* Stores in '*pathsp' the inline paths that 'nh' forwards to now (the
 * caller frees them) and returns their number, or returns 0 if 'nh' is
 * not resolved to paths (a member missing, or a blackhole). */
static size_t
nh_current_paths(struct fpmd_rib *rib, const struct fpmd_nh *nh,
                 struct fpm_route_nh **pathsp)
{
    size_t n = nh->n_members ? nh->n_members : 1;
    struct fpm_route_nh *paths = xcalloc(n, sizeof *paths);

    for (size_t i = 0; i < n; i++) {
        const struct fpmd_nh *m = (nh->n_members
                                   ? nh_find(rib, nh->members[i].id) : nh);

        if (!nh->resolved || !m || !m->defined || m->n_members
            || m->blackhole || (!m->gateway.family && !m->ifindex)) {
            free(paths);
            return 0;
        }
        paths[i].gateway = m->gateway;
        paths[i].ifindex = m->ifindex;
        paths[i].weight = nh->n_members ? nh->members[i].weight : 1;
    }
    *pathsp = paths;
    return n;
}

/* Moves the routes of older zebra sessions that use 'nh' onto an anonymous
 * set of the paths 'nh' forwards to now or, if 'nh' drops (a blackhole, or
 * a group with one), makes them blackholes of their own.  (A route of an
 * object not resolved now stays: it has no paths to keep.) */
static void
detach_routes(struct fpmd_rib *rib, struct fpmd_nh *nh)
{
    struct fpm_route_nh *paths;
    struct fpmd_route *r;
    size_t n;

    n = nh_current_paths(rib, nh, &paths);
    if (!n) {
        if (nh->resolved && nh->set && nh->set->blackhole) {
            LIST_FOR_EACH_SAFE (r, nh_node, &nh->routes) {
                if (r->gen != rib->gen
                    && !(r->be.flags & FPMD_F_NO_CONTENT)) {
                    rib->stats.routes_detached++;
                    r->type = FPM_ROUTE_BLACKHOLE;
                    rib->nhs.route_move(rib, r, NULL);
                }
            }
        }
        return;
    }
    LIST_FOR_EACH_SAFE (r, nh_node, &nh->routes) {
        if (r->gen != rib->gen && !(r->be.flags & FPMD_F_NO_CONTENT)) {
            rib->stats.routes_detached++;
            rib->nhs.route_move(rib, r, fpmd_nh_intern(rib, paths, n));
        }
    }
    free(paths);
}

/* Handles RTM_NEWNEXTHOP 'fn'.
 *
 * A zebra that restarted numbers its next-hop objects again from scratch,
 * so an id of its new session may name other next hops than the same id
 * did in the last one, whose routes fpmsyncd keeps until zebra's replay
 * is reconciled.  When the current session defines otherwise an object
 * that an older one defined, the older session's routes that use it,
 * directly or through a group, first move onto anonymous sets of the
 * paths they forward to now: they keep forwarding as they did (their rows
 * lose the group's id, nothing else) until zebra announces them again or
 * reconciliation removes them.  (On the OVSDB path orchd reads a group's
 * members from its Nexthop_Group row, which the new definition rewrites.)
 * A zebra that reconnects keeps its ids and defines them as they were:
 * nothing moves. */
static void
nh_add(struct fpmd_rib *rib, const struct fpm_nexthop *fn)
{
    struct fpmd_nh *nh = fpmd_nh_get(rib, fn->id);

    if (nh->defined && nh->gen != rib->gen
        && !nh_same_definition(nh, fn)) {
        detach_routes(rib, nh);
        for (size_t i = 0; i < nh->n_deps; i++) {
            detach_routes(rib, nh->deps[i]);
        }
    }
    nh_clear_definition(rib, nh);
    nh->defined = true;
    nh->be.flags &= ~FPMD_F_NO_CONTENT;
    nh->gen = rib->gen;
    nh->blackhole = fn->blackhole;
    nh->gateway = fn->gateway;
    nh->ifindex = fn->ifindex;
    if (fn->n_members) {
        nh->members = xmemdup(fn->members,
                              fn->n_members * sizeof *fn->members);
        nh->n_members = fn->n_members;
        for (size_t i = 0; i < fn->n_members; i++) {
            nh_add_dep(fpmd_nh_get(rib, fn->members[i].id), nh);
        }
    }
    if (nh_resolve(rib, nh)) {
        nh_changed(rib, nh);
    } else {
        nh_write(rib, nh);
    }
}

/* Handles RTM_NEWNEXTHOP or RTM_DELNEXTHOP 'fn'. */
void
fpmd_nh_input(struct fpmd_rib *rib, const struct fpm_nexthop *fn)
{
    struct fpmd_nh *nh;

    if (fn->op != FPM_OP_DEL) {
        rib->stats.nh_add++;
        nh_add(rib, fn);
        return;
    }
    rib->stats.nh_del++;
    nh = nh_find(rib, fn->id);
    if (!nh || (!nh->defined && !nh->be.want)) {
        rib->stats.nh_del_unknown++;
        return;
    }
    nh_withdraw(rib, nh);
    fpmd_nh_maybe_free(rib, nh);
}

/* Withdraws every next-hop object that the current generation did not
 * announce.  Returns how many. */
size_t
fpmd_nh_reconcile(struct fpmd_rib *rib)
{
    struct fpmd_nh **stale = NULL;
    size_t n = 0, allocated = 0;
    struct fpmd_nh *nh;

    /* Collected first: withdrawing one object can free another (a
     * placeholder member that nothing needs any more), which an iteration
     * over the table would then step on. */
    HMAP_FOR_EACH (nh, node, &rib->nhs.ids) {
        if (nh->gen != rib->gen && (nh->defined || nh->be.want)) {
            if (n >= allocated) {
                stale = x2nrealloc(stale, &allocated, sizeof *stale);
            }
            stale[n++] = nh;
        }
    }
    for (size_t i = 0; i < n; i++) {
        nh_withdraw(rib, stale[i]);
    }
    free(stale);

    HMAP_FOR_EACH_SAFE (nh, node, &rib->nhs.ids) {
        fpmd_nh_maybe_free(rib, nh);
    }
    return n;
}

/* The database load. */

/* Starts a load: no object has been seen yet. */
void
fpmd_nh_load_begin(struct fpmd_rib *rib)
{
    struct fpmd_nh *nh;

    HMAP_FOR_EACH (nh, node, &rib->nhs.ids) {
        nh->be.flags &= ~FPMD_F_SEEN;
    }
}

/* Takes in one Nexthop_Group row read from the database. */
void
fpmd_nh_load_row(struct fpmd_rib *rib, const struct json *row)
{
    const struct json *id_j = shash_find_data(json_object(row), "id");
    uint32_t members_hash, hash;
    struct fpmd_nh *nh;
    struct uuid u, expected;
    int64_t id;

    if (!id_j || id_j->type != JSON_INTEGER
        || !ovsdb_wire_get_uuid(shash_find_data(json_object(row), "_uuid"),
                                &u)
        || !fpmd_nhset_hash_json(shash_find_data(json_object(row),
                                                 "members"),
                                 &members_hash)) {
        rib->stats.load_bad++;
        return;
    }
    id = json_integer(id_j);
    if (id <= 0 || id > UINT32_MAX) {
        rib->stats.load_bad++;
        return;
    }
    hash = nhg_row_hash(id, members_hash);
    nh = fpmd_nh_get(rib, id);
    if (!nh->defined && !nh->be.want && !nh->be.queued
        && nh->be.db == ROUTE_BATCH_DB_ABSENT) {
        /* Not defined by zebra, and fpmsyncd is not deleting it either
         * (perhaps a placeholder some route refers to). */
        nh->be.flags |= FPMD_F_NO_CONTENT;
    }
    route_key_nhg_uuid(id, &expected);
    fpmd_rib_load_found(rib, &nh->be, hash, &u, &expected);
    rib->stats.load_nhgs++;
}

/* Ends a load: an object fpmsyncd believed in the database but that was
 * not there is queued again, or forgotten if fpmsyncd only mirrored it. */
void
fpmd_nh_load_end(struct fpmd_rib *rib)
{
    struct fpmd_nh *nh;

    HMAP_FOR_EACH_SAFE (nh, node, &rib->nhs.ids) {
        fpmd_rib_load_settle(rib, &nh->be);
    }
}

/* Counts what fpm/show says of the next-hop objects. */
void
fpmd_nh_count(const struct fpmd_rib *rib, struct fpmd_nh_counts *c)
{
    const struct fpmd_nh *nh;

    memset(c, 0, sizeof *c);
    HMAP_FOR_EACH (nh, node, &rib->nhs.ids) {
        if (nh->defined) {
            c->n_defined++;
        }
        if (!nh->resolved) {
            c->n_waiting += nh->n_routes;
            if (nh->defined) {
                c->n_unresolved++;
            }
        }
    }
    c->n_anon = hmap_count(&rib->nhs.anon);
}
