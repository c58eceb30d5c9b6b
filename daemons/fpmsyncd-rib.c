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
#include "daemons/fpmsyncd-rib.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "hash.h"
#include "lib/fib-prefix.h"
#include "lib/fpm-route.h"
#include "lib/route-batch.h"
#include "lib/route-key.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/vlog.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd_rib);

/* Kinds of rows: the 'tag' of each 'struct route_batch_entry'. */
enum fpmd_kind {
    FPMD_ROUTE = 1,             /* struct fpmd_route: a Route row. */
    FPMD_NH,                    /* struct fpmd_nh: a Nexthop_Group row. */
    FPMD_VRF,                   /* struct fpmd_vrf: a Vrf row. */
};

/* Bits in the 'flags' of each 'struct route_batch_entry'. */
enum {
    FPMD_F_NO_CONTENT = 1 << 0, /* Read from the database and not announced
                                 * by zebra since: its content is known only
                                 * by hash, so it cannot be rewritten. */
    FPMD_F_FOREIGN = 1 << 1,    /* The row's UUID is not the deterministic
                                 * one: it is in the rib's 'foreign'. */
    FPMD_F_SEEN = 1 << 2,       /* Seen in the database load under way. */
    FPMD_F_OFFLOADED = 1 << 3,  /* Route.status says offload=true. */
};

/* The member set of a next-hop object, resolved to next-hop keys. */
struct fpmd_nhmember {
    char *key;                  /* "GATEWAY@IFNAME" etc. (route-key.h). */
    char *key_json;             /* 'key' as a JSON string, quoted. */
    uint32_t weight;            /* ECMP weight, 1...65535. */
};

struct fpmd_nhset {
    uint32_t hash;              /* Hash of 'members' (nhmembers_hash()). */
    bool blackhole;             /* A blackhole next hop (no member). */
    bool connected;             /* Every member is interface-only. */
    size_t n;                   /* Number of members. */
    struct fpmd_nhmember *members; /* Sorted by strcmp() of 'key'. */
};

/* A zebra next-hop object (id != 0), or an anonymous set of inline next
 * hops shared by the routes that carry the same ones (id == 0). */
struct fpmd_nh {
    struct route_batch_entry be;     /* Its Nexthop_Group row (ids only). */
    struct hmap_node node;      /* In 'nhs' by id, or 'anon' by content. */
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

/* A route. */
struct fpmd_route {
    struct route_batch_entry be;     /* Its Route row. */
    struct hmap_node node;      /* In 'routes', by fib_prefix_hash() with
                                 * the VRF index as basis. */
    struct fib_prefix prefix;   /* Destination. */
    uint16_t vrf;               /* Index in the rib's 'vrfs'. */
    uint8_t protocol;           /* rtm_protocol. */
    uint8_t type;               /* enum fpm_route_type. */
    uint32_t metric;            /* RTA_PRIORITY, 0 if none. */
    uint32_t gen;               /* Generation that last announced it. */
    struct fpmd_nh *nh;         /* Next hops, or NULL if none. */
    struct ovs_list nh_node;    /* In 'nh->routes', if 'nh'. */
};

/* A VRF: a kernel table id and its name. */
struct fpmd_vrf {
    struct route_batch_entry be;     /* Its Vrf row. */
    char *name;                 /* Vrf.name. */
    char *name_json;            /* 'name' as a quoted JSON string. */
    int64_t table;              /* Kernel table id, -1 if unknown. */
    size_t n_routes;            /* Routes in this VRF. */
    uint16_t idx;               /* Index in the rib's 'vrfs'. */
    bool warned;                /* Logged a naming conflict already. */
};

/* A row whose UUID is not the one route-key.h derives. */
struct fpmd_foreign {
    struct hmap_node node;      /* In 'foreign', by hash_pointer(entry). */
    const struct route_batch_entry *entry; /* The row's entry. */
    struct uuid uuid;           /* Its real UUID. */
};

/* A route whose Route.status says offload=true, by row UUID (the status
 * monitor reports changes and deletions by UUID only). */
struct fpmd_offloaded {
    struct hmap_node node;      /* In 'offloaded', by uuid_hash(). */
    struct uuid uuid;           /* The Route row. */
    struct fpmd_route *route;   /* The route. */
};

struct fpmd_rib {
    struct hmap routes;         /* 'struct fpmd_route's. */
    struct hmap nhs;            /* 'struct fpmd_nh's with an id. */
    struct hmap anon;           /* Anonymous 'struct fpmd_nh's. */
    struct fpmd_vrf **vrfs;     /* All VRFs, by index. */
    size_t n_vrfs;              /* Number of 'vrfs'. */
    size_t allocated_vrfs;      /* Capacity of 'vrfs'. */
    struct fpmd_vrf *last_vrf;  /* Last VRF found by table id. */
    struct hmap foreign;        /* 'struct fpmd_foreign's. */
    struct hmap offloaded;      /* 'struct fpmd_offloaded's. */
    struct route_batch batch;        /* Rows to write. */
    uint32_t gen;               /* Current generation (zebra session). */
    bool loaded;                /* Database state read since the last
                                 * (re)connection. */
    bool resolve;               /* Write the members of zebra next-hop
                                 * groups into Route.nexthops. */
    bool offload;               /* FIB suppression: notify zebra. */
    fpmd_offload_func *offload_cb; /* How to notify it. */
    void *offload_aux;          /* Passed to 'offload_cb'. */
    fpmd_ifname_func *ifname;   /* Interface names. */
    struct fpmd_rib_stats stats; /* Counters. */
};

static void rib_idle_cb(struct route_batch_entry *, void *rib_);
static bool rib_writable_cb(const struct route_batch_entry *, void *rib_);
static void nh_changed(struct fpmd_rib *, struct fpmd_nh *);
static void nh_maybe_free(struct fpmd_rib *, struct fpmd_nh *);
static void route_refresh(struct fpmd_rib *, struct fpmd_route *);
static void route_clear_offloaded(struct fpmd_rib *, struct fpmd_route *);
static void entry_uuid(const struct fpmd_rib *,
                       const struct route_batch_entry *,
                       struct uuid *);

/* Next-hop sets. */

/* Returns the hash of 'n' members, the same for the same keys and weights
 * in the same order, whether they come from zebra or from a row read
 * from the database. */
static uint32_t
nhmembers_hash(const char *const *keys, const uint32_t *weights, size_t n)
{
    uint32_t h = 0x6e68;        /* "nh" */

    for (size_t i = 0; i < n; i++) {
        h = hash_string(keys[i], h);
        h = hash_int(weights[i], h);
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
    const char **keys;
    uint32_t *weights;
    size_t n = 0;

    qsort(set->members, set->n, sizeof *set->members, compare_members);
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

    keys = xmalloc(n * sizeof *keys + 1);
    weights = xmalloc(n * sizeof *weights + 1);
    set->connected = n > 0;
    for (size_t i = 0; i < n; i++) {
        struct ds s = DS_EMPTY_INITIALIZER;

        json_string_escape(set->members[i].key, &s);
        set->members[i].key_json = ds_steal_cstr(&s);
        keys[i] = set->members[i].key;
        weights[i] = set->members[i].weight;
        if (keys[i][0] != '@') {
            set->connected = false;
        }
    }
    set->hash = nhmembers_hash(keys, weights, n);
    free(keys);
    free(weights);
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

static struct fpmd_nh *
nh_find(const struct fpmd_rib *rib, uint32_t id)
{
    struct fpmd_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, node, hash_int(id, 0), &rib->nhs) {
        if (nh->id == id) {
            return nh;
        }
    }
    return NULL;
}

/* Returns the object with 'id', creating an undefined placeholder if
 * there is none. */
static struct fpmd_nh *
nh_get(struct fpmd_rib *rib, uint32_t id)
{
    struct fpmd_nh *nh = nh_find(rib, id);

    if (!nh) {
        nh = xzalloc(sizeof *nh);
        route_batch_entry_init(&nh->be);
        nh->be.tag = FPMD_NH;
        nh->id = id;
        ovs_list_init(&nh->routes);
        hmap_insert(&rib->nhs, &nh->node, hash_int(id, 0));
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
            nh_maybe_free(rib, m);
        }
    }
    free(members);
}

/* Frees 'nh' if nothing needs it any more. */
static void
nh_maybe_free(struct fpmd_rib *rib, struct fpmd_nh *nh)
{
    if (nh->id
        ? (nh->defined || nh->n_routes || nh->n_deps
           || !route_batch_entry_is_idle(&nh->be))
        : nh->n_routes > 0) {
        return;
    }
    if (nh->id) {
        struct fpmd_foreign *f;

        HMAP_FOR_EACH_WITH_HASH (f, node, hash_pointer(&nh->be, 0),
                                 &rib->foreign) {
            if (f->entry == &nh->be) {
                hmap_remove(&rib->foreign, &f->node);
                free(f);
                break;
            }
        }
        hmap_remove(&rib->nhs, &nh->node);
    } else {
        hmap_remove(&rib->anon, &nh->node);
    }
    nh_clear_definition(rib, nh);
    nhset_free(nh->set);
    free(nh->paths);
    free(nh->deps);
    free(nh);
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
        route_refresh(rib, r);
    }
    for (size_t i = 0; i < nh->n_deps; i++) {
        struct fpmd_nh *g = nh->deps[i];

        if (nh_resolve(rib, g)) {
            nh_changed(rib, g);
        }
    }
}

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
static struct fpmd_nh *
nh_intern(struct fpmd_rib *rib, const struct fpm_route_nh *paths, size_t n)
{
    uint32_t hash = paths_hash(paths, n);
    struct fpmd_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, node, hash, &rib->anon) {
        if (nh->n_paths == n && paths_equal(nh->paths, paths, n)) {
            return nh;
        }
    }
    nh = xzalloc(sizeof *nh);
    route_batch_entry_init(&nh->be);
    nh->be.tag = FPMD_NH;
    nh->defined = true;
    nh->paths = xmemdup(paths, n * sizeof *paths);
    nh->n_paths = n;
    ovs_list_init(&nh->routes);
    hmap_insert(&rib->anon, &nh->node, hash);
    nh_resolve(rib, nh);
    return nh;
}

/* VRFs. */

static uint32_t
vrf_row_hash(const char *name, int64_t table)
{
    return hash_string(name, hash_uint64(table));
}

static void
vrf_set_name(struct fpmd_vrf *vrf, const char *name)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    free(vrf->name);
    free(vrf->name_json);
    vrf->name = xstrdup(name);
    json_string_escape(name, &s);
    vrf->name_json = ds_steal_cstr(&s);
}

static struct fpmd_vrf *
vrf_create(struct fpmd_rib *rib, const char *name, int64_t table)
{
    struct fpmd_vrf *vrf = xzalloc(sizeof *vrf);

    ovs_assert(rib->n_vrfs < UINT16_MAX);
    route_batch_entry_init(&vrf->be);
    vrf->be.tag = FPMD_VRF;
    vrf_set_name(vrf, name);
    vrf->table = table;
    vrf->idx = rib->n_vrfs;
    if (rib->n_vrfs >= rib->allocated_vrfs) {
        rib->vrfs = x2nrealloc(rib->vrfs, &rib->allocated_vrfs,
                               sizeof *rib->vrfs);
    }
    rib->vrfs[rib->n_vrfs++] = vrf;
    return vrf;
}

static struct fpmd_vrf *
vrf_by_name(const struct fpmd_rib *rib, const char *name)
{
    for (size_t i = 0; i < rib->n_vrfs; i++) {
        if (!strcmp(rib->vrfs[i]->name, name)) {
            return rib->vrfs[i];
        }
    }
    return NULL;
}

static struct fpmd_vrf *
vrf_by_table(struct fpmd_rib *rib, int64_t table)
{
    if (rib->last_vrf && rib->last_vrf->table == table) {
        return rib->last_vrf;
    }
    for (size_t i = 0; i < rib->n_vrfs; i++) {
        if (rib->vrfs[i]->table == table) {
            rib->last_vrf = rib->vrfs[i];
            return rib->vrfs[i];
        }
    }
    return NULL;
}

/* Returns the VRF of kernel table 'table': the one a Vrf row names, or
 * else a new one ("default" for 254, "table<N>" otherwise) whose Vrf row
 * is queued for insertion. */
static struct fpmd_vrf *
vrf_for_table(struct fpmd_rib *rib, uint32_t table)
{
    struct fpmd_vrf *vrf = vrf_by_table(rib, table);

    if (!vrf) {
        char buf[ROUTE_KEY_VRF_NAMELEN];
        const char *name = route_key_table_vrf_name(table, buf);

        vrf = vrf_by_name(rib, name);
        if (vrf && vrf->table < 0) {
            /* Known from Route rows read from the database. */
            vrf->table = table;
        } else if (!vrf || vrf->table != table) {
            if (vrf) {
                VLOG_WARN("table %"PRIu32": VRF name %s is taken by table "
                          "%"PRId64, table, name, vrf->table);
            }
            vrf = vrf_create(rib, name, table);
        }
        rib->stats.vrf_created++;
        VLOG_INFO("table %"PRIu32" is VRF %s (no Vrf row: adding one)",
                  table, vrf->name);
        route_batch_set(&rib->batch, &vrf->be, vrf_row_hash(vrf->name, table));
        rib->last_vrf = vrf;
    }
    return vrf;
}

/* Records Vrf row 'name' with table id 'table', as read from the
 * database. */
void
fpmd_rib_vrf_row(struct fpmd_rib *rib, const char *name, int64_t table)
{
    struct fpmd_vrf *vrf = vrf_by_table(rib, table);
    uint32_t hash;

    if (!vrf) {
        vrf = vrf_by_name(rib, name);
        if (vrf && vrf->table < 0) {
            vrf->table = table;
        } else {
            vrf = vrf_create(rib, name, table);
        }
    } else if (strcmp(vrf->name, name)) {
        if (!vrf->n_routes && !vrf->be.queued && !vrf->be.n_inflight) {
            VLOG_INFO("table %"PRId64" is VRF %s (was %s)",
                      table, name, vrf->name);
            vrf_set_name(vrf, name);
        } else {
            if (!vrf->warned) {
                VLOG_WARN("table %"PRId64": Vrf row names it %s, but its "
                          "routes are already in VRF %s; restart fpmsyncd "
                          "to follow the rename", table, name, vrf->name);
                vrf->warned = true;
            }
            return;
        }
    }
    vrf->be.flags |= FPMD_F_SEEN;
    hash = vrf_row_hash(name, table);
    if (vrf->be.n_inflight) {
        /* Most likely the echo of our own insert. */
        return;
    }
    if (!vrf->be.want && !vrf->be.queued) {
        route_batch_keep(&vrf->be, hash);
    } else {
        route_batch_resync(&rib->batch, &vrf->be, true, hash);
    }
}

/* Starts taking in the complete set of Vrf rows (the initial reply of a
 * monitor), to find out which VRFs lost their row. */
void
fpmd_rib_vrf_sync_begin(struct fpmd_rib *rib)
{
    for (size_t i = 0; i < rib->n_vrfs; i++) {
        rib->vrfs[i]->be.flags &= ~FPMD_F_SEEN;
    }
}

/* Ends what fpmd_rib_vrf_sync_begin() started: a VRF that fpmsyncd
 * wants a row for but whose row the database did not report gets it
 * again (after ovsdb-server restarted with an empty database, say). */
void
fpmd_rib_vrf_sync_end(struct fpmd_rib *rib)
{
    for (size_t i = 0; i < rib->n_vrfs; i++) {
        struct fpmd_vrf *vrf = rib->vrfs[i];

        if (!(vrf->be.flags & FPMD_F_SEEN) && !vrf->be.n_inflight
            && vrf->be.want) {
            route_batch_resync(&rib->batch, &vrf->be, false, 0);
        }
        vrf->be.flags &= ~FPMD_F_SEEN;
    }
}

/* Routes. */

static uint32_t
route_hash_key(uint16_t vrf, const struct fib_prefix *prefix)
{
    return fib_prefix_hash(prefix, vrf);
}

static struct fpmd_route *
route_find(const struct fpmd_rib *rib, uint16_t vrf,
           const struct fib_prefix *prefix)
{
    struct fpmd_route *r;

    HMAP_FOR_EACH_WITH_HASH (r, node, route_hash_key(vrf, prefix),
                             &rib->routes) {
        if (r->vrf == vrf && fib_prefix_equals(&r->prefix, prefix)) {
            return r;
        }
    }
    return NULL;
}

static struct fpmd_route *
route_create(struct fpmd_rib *rib, struct fpmd_vrf *vrf,
             const struct fib_prefix *prefix)
{
    struct fpmd_route *r = xzalloc(sizeof *r);

    route_batch_entry_init(&r->be);
    r->be.tag = FPMD_ROUTE;
    r->prefix = *prefix;
    r->vrf = vrf->idx;
    hmap_insert(&rib->routes, &r->node, route_hash_key(vrf->idx, prefix));
    vrf->n_routes++;
    return r;
}

/* Points 'r' at next-hop object 'nh' (may be NULL). */
static void
route_set_nh(struct fpmd_rib *rib, struct fpmd_route *r, struct fpmd_nh *nh)
{
    struct fpmd_nh *old = r->nh;

    if (old == nh) {
        return;
    }
    /* Unlink from the old object before linking to the new one: both use
     * 'r->nh_node'. */
    if (old) {
        ovs_list_remove(&r->nh_node);
        old->n_routes--;
    }
    if (nh) {
        ovs_list_push_back(&nh->routes, &r->nh_node);
        nh->n_routes++;
    }
    r->nh = nh;
    if (old) {
        nh_maybe_free(rib, old);
    }
}

static void
route_free(struct fpmd_rib *rib, struct fpmd_route *r)
{
    route_clear_offloaded(rib, r);
    if (r->be.flags & FPMD_F_FOREIGN) {
        struct fpmd_foreign *f;

        HMAP_FOR_EACH_WITH_HASH (f, node, hash_pointer(&r->be, 0),
                                 &rib->foreign) {
            if (f->entry == &r->be) {
                hmap_remove(&rib->foreign, &f->node);
                free(f);
                break;
            }
        }
    }
    route_set_nh(rib, r, NULL);
    rib->vrfs[r->vrf]->n_routes--;
    hmap_remove(&rib->routes, &r->node);
    free(r);
}

/* Returns the set of next hops 'r' is written with (NULL for none). */
static const struct fpmd_nhset *
route_set(const struct fpmd_route *r)
{
    return r->nh && r->nh->resolved ? r->nh->set : NULL;
}

/* True if 'r' drops packets. */
static bool
route_is_blackhole(const struct fpmd_route *r)
{
    const struct fpmd_nhset *set = route_set(r);

    return r->type != FPM_ROUTE_UNICAST || (set && set->blackhole);
}

/* Returns the Route.protocol name of 'r'.  zebra sends its connected
 * routes with RTPROT_KERNEL: a route of that protocol whose next hops are
 * all interface-only is called "connected". */
static const char *
route_protocol(const struct fpmd_route *r,
               char buf[ROUTE_KEY_PROTO_NAMELEN])
{
    const struct fpmd_nhset *set = route_set(r);

    if (r->protocol == 2 && set && set->connected) {
        return "connected";
    }
    return route_key_protocol_name(r->protocol, buf);
}

/* Returns the content hash of a Route row with these columns. */
static uint32_t
route_row_hash(const char *protocol, uint32_t metric, uint32_t nhg_id,
               bool blackhole, uint32_t members_hash)
{
    uint32_t h = hash_string(protocol, 0);

    h = hash_int(metric, h);
    h = hash_int(nhg_id, h);
    h = hash_int(blackhole, h);
    return hash_int(members_hash, h);
}

/* Returns the next hops written into 'r''s Route.nexthops: none for a
 * blackhole, none for a route through a zebra next-hop group when the rib
 * does not resolve groups into routes, otherwise its resolved set. */
static const struct fpmd_nhset *
route_written_set(const struct fpmd_rib *rib, const struct fpmd_route *r)
{
    if (route_is_blackhole(r) || (!rib->resolve && r->nh && r->nh->id)) {
        return NULL;
    }
    return route_set(r);
}

static uint32_t
route_content_hash(const struct fpmd_rib *rib, const struct fpmd_route *r)
{
    char buf[ROUTE_KEY_PROTO_NAMELEN];
    const struct fpmd_nhset *set = route_written_set(rib, r);
    bool blackhole = route_is_blackhole(r);
    uint32_t members_hash = (set ? set->hash
                             : nhmembers_hash(NULL, NULL, 0));

    return route_row_hash(route_protocol(r, buf), r->metric,
                          r->nh ? r->nh->id : 0, blackhole, members_hash);
}

/* True if 'r''s row can be written: its content is known and its next
 * hops are resolved. */
static bool
route_writable(const struct fpmd_route *r)
{
    return (!(r->be.flags & FPMD_F_NO_CONTENT)
            && (!r->nh || r->nh->resolved));
}

/* Sends zebra an offload notification for 'r'. */
static void
route_notify_offload(struct fpmd_rib *rib, const struct fpmd_route *r)
{
    const struct fpmd_vrf *vrf = rib->vrfs[r->vrf];
    struct fpm_route fr;

    if (!rib->offload || !rib->offload_cb || vrf->table < 0
        || r->gen != rib->gen || !r->be.want) {
        return;
    }
    memset(&fr, 0, sizeof fr);
    fr.op = FPM_OP_ADD;
    fr.table = vrf->table;
    fr.prefix.family = r->prefix.family;
    fr.prefix.len = r->prefix.len;
    memcpy(fr.prefix.addr, r->prefix.addr, sizeof fr.prefix.addr);
    fr.protocol = r->protocol;
    fr.type = r->type;
    fr.metric = r->metric;
    rib->stats.offload_sent++;
    rib->offload_cb(&fr, rib->offload_aux);
}

/* Queues 'r''s row with its current content, if it can be written. */
static void
route_refresh(struct fpmd_rib *rib, struct fpmd_route *r)
{
    uint32_t hash;

    if (!route_writable(r)) {
        return;
    }
    hash = route_content_hash(rib, r);
    if (r->be.db == ROUTE_BATCH_DB_PRESENT && r->be.db_hash == hash
        && !r->be.queued) {
        /* Unchanged: not rewritten.  zebra (re)announced it, so tell it
         * again that it is offloaded, if it is. */
        route_batch_set(&rib->batch, &r->be, hash);
        if (r->be.flags & FPMD_F_OFFLOADED) {
            route_notify_offload(rib, r);
        }
        return;
    }
    route_clear_offloaded(rib, r);
    route_batch_set(&rib->batch, &r->be, hash);
}

/* Handles RTM_NEWROUTE or RTM_DELROUTE 'fr'. */
void
fpmd_rib_route(struct fpmd_rib *rib, const struct fpm_route *fr)
{
    struct fpmd_vrf *vrf;
    struct fib_prefix prefix;
    struct fpmd_route *r;

    fib_prefix_init(&prefix, fr->prefix.family, fr->prefix.addr,
                    fr->prefix.len);
    if (fr->op == FPM_OP_DEL) {
        rib->stats.route_del++;
        vrf = vrf_by_table(rib, fr->table);
        r = vrf ? route_find(rib, vrf->idx, &prefix) : NULL;
        if (!r) {
            rib->stats.route_del_unknown++;
            return;
        }
        route_set_nh(rib, r, NULL);
        route_clear_offloaded(rib, r);
        r->be.flags &= ~FPMD_F_NO_CONTENT;
        r->gen = rib->gen;
        route_batch_del(&rib->batch, &r->be);
        if (route_batch_entry_is_idle(&r->be)) {
            route_free(rib, r);
        }
        return;
    }

    rib->stats.route_add++;
    vrf = vrf_for_table(rib, fr->table);
    r = route_find(rib, vrf->idx, &prefix);
    if (!r) {
        r = route_create(rib, vrf, &prefix);
    }
    r->be.flags &= ~FPMD_F_NO_CONTENT;
    r->protocol = fr->protocol;
    r->type = fr->type;
    r->metric = fr->metric;
    r->gen = rib->gen;
    if (fr->type != FPM_ROUTE_UNICAST && !fr->nhg_id) {
        route_set_nh(rib, r, NULL);
    } else if (fr->nhg_id) {
        route_set_nh(rib, r, nh_get(rib, fr->nhg_id));
    } else if (fr->n_nexthops) {
        route_set_nh(rib, r, nh_intern(rib, fr->nexthops, fr->n_nexthops));
    } else {
        route_set_nh(rib, r, NULL);
    }
    route_refresh(rib, r);
}

/* Handles RTM_NEWNEXTHOP or RTM_DELNEXTHOP 'fn'. */
void
fpmd_rib_nexthop(struct fpmd_rib *rib, const struct fpm_nexthop *fn)
{
    struct fpmd_nh *nh;

    if (fn->op == FPM_OP_DEL) {
        rib->stats.nh_del++;
        nh = nh_find(rib, fn->id);
        if (!nh || (!nh->defined && !nh->be.want)) {
            rib->stats.nh_del_unknown++;
            return;
        }
        nh_clear_definition(rib, nh);
        nh->defined = false;
        nh->be.flags &= ~FPMD_F_NO_CONTENT;
        if (nh_resolve(rib, nh)) {
            nh_changed(rib, nh);
        }
        route_batch_del(&rib->batch, &nh->be);
        nh_maybe_free(rib, nh);
        return;
    }

    rib->stats.nh_add++;
    nh = nh_get(rib, fn->id);
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
            nh_add_dep(nh_get(rib, fn->members[i].id), nh);
        }
    }
    if (nh_resolve(rib, nh)) {
        nh_changed(rib, nh);
    } else {
        nh_write(rib, nh);
    }
}

/* Chooses whether the routes that use a zebra next-hop group carry its
 * members in Route.nexthops ('resolve') or only its id in
 * Route.nexthop_group, and rewrites the routes whose row changes. */
void
fpmd_rib_set_resolve(struct fpmd_rib *rib, bool resolve)
{
    struct fpmd_route *r;

    if (rib->resolve == resolve) {
        return;
    }
    rib->resolve = resolve;
    HMAP_FOR_EACH (r, node, &rib->routes) {
        if (r->nh && r->nh->id) {
            route_refresh(rib, r);
        }
    }
}

bool
fpmd_rib_get_resolve(const struct fpmd_rib *rib)
{
    return rib->resolve;
}

/* Generations and reconciliation. */

/* Starts a new generation: zebra (re)connected and will replay its
 * table. */
void
fpmd_rib_new_generation(struct fpmd_rib *rib)
{
    rib->gen++;
}

uint32_t
fpmd_rib_generation(const struct fpmd_rib *rib)
{
    return rib->gen;
}

/* Deletes every route and next-hop object that the current generation did
 * not announce, and stores how many in '*n_routes' and '*n_nhgs'. */
void
fpmd_rib_reconcile(struct fpmd_rib *rib, size_t *n_routes, size_t *n_nhgs)
{
    struct fpmd_route *r;
    struct fpmd_nh *nh;

    *n_routes = *n_nhgs = 0;
    rib->stats.reconciles++;
    HMAP_FOR_EACH_SAFE (r, node, &rib->routes) {
        if (r->gen != rib->gen && (r->be.want || r->nh)) {
            (*n_routes)++;
            route_set_nh(rib, r, NULL);
            route_clear_offloaded(rib, r);
            r->be.flags &= ~FPMD_F_NO_CONTENT;
            route_batch_del(&rib->batch, &r->be);
            if (route_batch_entry_is_idle(&r->be)) {
                route_free(rib, r);
            }
        }
    }
    HMAP_FOR_EACH_SAFE (nh, node, &rib->nhs) {
        if (nh->gen != rib->gen && (nh->defined || nh->be.want)) {
            (*n_nhgs)++;
            nh_clear_definition(rib, nh);
            nh->defined = false;
            nh->be.flags &= ~FPMD_F_NO_CONTENT;
            if (nh_resolve(rib, nh)) {
                nh_changed(rib, nh);
            }
            route_batch_del(&rib->batch, &nh->be);
        }
    }
    HMAP_FOR_EACH_SAFE (nh, node, &rib->nhs) {
        nh_maybe_free(rib, nh);
    }
    rib->stats.stale_routes += *n_routes;
    rib->stats.stale_nhgs += *n_nhgs;
}

/* The batcher's callbacks. */

static void
rib_idle_cb(struct route_batch_entry *e, void *rib_)
{
    struct fpmd_rib *rib = rib_;

    switch ((enum fpmd_kind) e->tag) {
    case FPMD_ROUTE: {
        struct fpmd_route *r = CONTAINER_OF(e, struct fpmd_route, be);

        if (!r->nh) {
            route_free(rib, r);
        }
        break;
    }
    case FPMD_NH:
        nh_maybe_free(rib, CONTAINER_OF(e, struct fpmd_nh, be));
        break;
    case FPMD_VRF:
        break;
    }
}

static bool
rib_writable_cb(const struct route_batch_entry *e, void *rib_ OVS_UNUSED)
{
    switch ((enum fpmd_kind) e->tag) {
    case FPMD_ROUTE:
        return route_writable(CONTAINER_OF(e, struct fpmd_route, be));
    case FPMD_NH: {
        const struct fpmd_nh *nh = CONTAINER_OF(e, struct fpmd_nh, be);

        return (!(e->flags & FPMD_F_NO_CONTENT) && nh->defined
                && nh->resolved);
    }
    case FPMD_VRF:
        return true;
    }
    return false;
}

/* Creation. */

/* Creates an empty rib that names interfaces with 'ifname'. */
struct fpmd_rib *
fpmd_rib_create(fpmd_ifname_func *ifname)
{
    struct fpmd_rib *rib = xzalloc(sizeof *rib);

    hmap_init(&rib->routes);
    hmap_init(&rib->nhs);
    hmap_init(&rib->anon);
    hmap_init(&rib->foreign);
    hmap_init(&rib->offloaded);
    route_batch_init(&rib->batch, rib_idle_cb, rib_writable_cb, rib);
    rib->ifname = ifname ? ifname : fpm_ifindex_to_name;
    rib->resolve = true;
    return rib;
}

void
fpmd_rib_destroy(struct fpmd_rib *rib)
{
    struct fpmd_route *r;
    struct fpmd_nh *nh;
    struct fpmd_foreign *f;

    if (!rib) {
        return;
    }
    route_batch_destroy(&rib->batch);
    fpmd_rib_status_reset(rib);
    HMAP_FOR_EACH_POP (r, node, &rib->routes) {
        free(r);
    }
    hmap_destroy(&rib->routes);
    HMAP_FOR_EACH_POP (nh, node, &rib->nhs) {
        nhset_free(nh->set);
        free(nh->members);
        free(nh->deps);
        free(nh);
    }
    hmap_destroy(&rib->nhs);
    HMAP_FOR_EACH_POP (nh, node, &rib->anon) {
        nhset_free(nh->set);
        free(nh->paths);
        free(nh->deps);
        free(nh);
    }
    hmap_destroy(&rib->anon);
    HMAP_FOR_EACH_POP (f, node, &rib->foreign) {
        free(f);
    }
    hmap_destroy(&rib->foreign);
    hmap_destroy(&rib->offloaded);
    for (size_t i = 0; i < rib->n_vrfs; i++) {
        free(rib->vrfs[i]->name);
        free(rib->vrfs[i]->name_json);
        free(rib->vrfs[i]);
    }
    free(rib->vrfs);
    free(rib);
}

/* Row UUIDs. */

static bool
find_foreign(const struct fpmd_rib *rib, const struct route_batch_entry *e,
             struct uuid *u)
{
    const struct fpmd_foreign *f;

    HMAP_FOR_EACH_WITH_HASH (f, node, hash_pointer(e, 0), &rib->foreign) {
        if (f->entry == e) {
            *u = f->uuid;
            return true;
        }
    }
    return false;
}

static void
set_foreign(struct fpmd_rib *rib, struct route_batch_entry *e,
            const struct uuid *u)
{
    struct fpmd_foreign *f;

    if (e->flags & FPMD_F_FOREIGN) {
        HMAP_FOR_EACH_WITH_HASH (f, node, hash_pointer(e, 0),
                                 &rib->foreign) {
            if (f->entry == e) {
                f->uuid = *u;
                return;
            }
        }
    }
    f = xmalloc(sizeof *f);
    f->entry = e;
    f->uuid = *u;
    hmap_insert(&rib->foreign, &f->node, hash_pointer(e, 0));
    e->flags |= FPMD_F_FOREIGN;
}

/* Stores in '*u' the UUID of the row of 'e'. */
static void
entry_uuid(const struct fpmd_rib *rib, const struct route_batch_entry *e,
           struct uuid *u)
{
    if (e->flags & FPMD_F_FOREIGN && find_foreign(rib, e, u)) {
        return;
    }
    switch ((enum fpmd_kind) e->tag) {
    case FPMD_ROUTE: {
        const struct fpmd_route *r = CONTAINER_OF(e, struct fpmd_route, be);

        route_key_route_uuid(rib->vrfs[r->vrf]->name, &r->prefix, u);
        break;
    }
    case FPMD_NH:
        route_key_nhg_uuid(CONTAINER_OF(e, struct fpmd_nh, be)->id, u);
        break;
    case FPMD_VRF:
        route_key_vrf_uuid(CONTAINER_OF(e, struct fpmd_vrf, be)->name, u);
        break;
    }
}

/* Serialization.
 *
 * The hot paths here avoid printf: at a million routes, formatting with
 * ds_put_format() was a tenth of fpmsyncd's CPU time. */

/* Appends 'value' in decimal. */
static void
put_uint(struct ds *s, uint64_t value)
{
    char buf[24];
    char *p = buf + sizeof buf;

    do {
        *--p = '0' + value % 10;
        value /= 10;
    } while (value);
    ds_put_buffer(s, p, buf + sizeof buf - p);
}

/* Appends 'u' in its 36-character text form. */
static void
put_uuid(struct ds *s, const struct uuid *u)
{
    static const char hex[] = "0123456789abcdef";
    char buf[UUID_LEN];
    char *p = buf;

    for (int i = 0; i < 4; i++) {
        for (int shift = 28; shift >= 0; shift -= 4) {
            if (p - buf == 8 || p - buf == 13 || p - buf == 18
                || p - buf == 23) {
                *p++ = '-';
            }
            *p++ = hex[(u->parts[i] >> shift) & 0xf];
        }
    }
    ds_put_buffer(s, buf, sizeof buf);
}

static void
put_optional_int(struct ds *s, const char *column, uint64_t value,
                 bool insert)
{
    if (value) {
        ds_put_cstr(s, ",\"");
        ds_put_cstr(s, column);
        ds_put_cstr(s, "\":");
        put_uint(s, value);
    } else if (!insert) {
        ds_put_format(s, ",\"%s\":[\"set\",[]]", column);
    }
}

static void
put_members(struct ds *s, const char *column, const struct fpmd_nhset *set,
            bool insert)
{
    if (!set || !set->n) {
        if (!insert) {
            ds_put_format(s, ",\"%s\":[\"map\",[]]", column);
        }
        return;
    }
    ds_put_cstr(s, ",\"");
    ds_put_cstr(s, column);
    ds_put_cstr(s, "\":[\"map\",[");
    for (size_t i = 0; i < set->n; i++) {
        if (i) {
            ds_put_char(s, ',');
        }
        ds_put_char(s, '[');
        ds_put_cstr(s, set->members[i].key_json);
        ds_put_char(s, ',');
        put_uint(s, set->members[i].weight);
        ds_put_char(s, ']');
    }
    ds_put_cstr(s, "]]");
}

/* Appends the row object of 'r' (without the braces' opening column
 * separator trouble: it starts with a column, not a comma). */
static void
put_route_row(struct ds *s, const struct fpmd_rib *rib,
              const struct fpmd_route *r, bool insert)
{
    char buf[ROUTE_KEY_PROTO_NAMELEN];
    bool blackhole = route_is_blackhole(r);

    ds_put_char(s, '{');
    if (insert) {
        char prefix[FIB_PREFIX_STRLEN];

        size_t len = fib_prefix_format(&r->prefix, prefix);

        ds_put_cstr(s, "\"vrf\":");
        ds_put_cstr(s, rib->vrfs[r->vrf]->name_json);
        ds_put_cstr(s, ",\"prefix\":\"");
        ds_put_buffer(s, prefix, len);
        ds_put_cstr(s, "\",");
    }
    ds_put_cstr(s, "\"protocol\":");
    json_string_escape(route_protocol(r, buf), s);
    put_optional_int(s, "metric", r->metric, insert);
    put_optional_int(s, "nexthop_group", r->nh ? r->nh->id : 0, insert);
    put_members(s, "nexthops", route_written_set(rib, r), insert);
    if (blackhole || !insert) {
        ds_put_format(s, ",\"blackhole\":%s", blackhole ? "true" : "false");
    }
    ds_put_char(s, '}');
}

static void
put_nh_row(struct ds *s, const struct fpmd_nh *nh, bool insert)
{
    ds_put_format(s, "{\"id\":%"PRIu32, nh->id);
    put_members(s, "members", nh->set, insert);
    ds_put_char(s, '}');
}

static void
put_vrf_row(struct ds *s, const struct fpmd_vrf *vrf)
{
    ds_put_format(s, "{\"name\":%s,\"table_id\":%"PRId64"}",
                  vrf->name_json, vrf->table);
}

/* Appends operation 'op' to 's'. */
static void
put_op(struct ds *s, const struct fpmd_rib *rib,
       const struct route_batch_op *op)
{
    const struct route_batch_entry *e = op->entry;
    const char *table = (e->tag == FPMD_ROUTE ? "Route"
                         : e->tag == FPMD_NH ? "Nexthop_Group" : "Vrf");
    struct uuid u;

    entry_uuid(rib, e, &u);
    if (op->type == ROUTE_BATCH_INSERT) {
        ds_put_cstr(s, "{\"op\":\"insert\",\"table\":\"");
        ds_put_cstr(s, table);
        ds_put_cstr(s, "\",\"uuid\":\"");
        put_uuid(s, &u);
        ds_put_cstr(s, "\",\"row\":");
    } else {
        ds_put_cstr(s, op->type == ROUTE_BATCH_UPDATE ? "{\"op\":\"update\""
                    : "{\"op\":\"delete\"");
        ds_put_cstr(s, ",\"table\":\"");
        ds_put_cstr(s, table);
        ds_put_cstr(s, "\",\"where\":[[\"_uuid\",\"==\",[\"uuid\",\"");
        put_uuid(s, &u);
        ds_put_cstr(s, "\"]]]");
        if (op->type == ROUTE_BATCH_DELETE) {
            ds_put_char(s, '}');
            return;
        }
        ds_put_cstr(s, ",\"row\":");
    }
    switch ((enum fpmd_kind) e->tag) {
    case FPMD_ROUTE:
        put_route_row(s, rib, CONTAINER_OF(e, struct fpmd_route, be),
                      op->type == ROUTE_BATCH_INSERT);
        break;
    case FPMD_NH:
        put_nh_row(s, CONTAINER_OF(e, struct fpmd_nh, be),
                   op->type == ROUTE_BATCH_INSERT);
        break;
    case FPMD_VRF:
        put_vrf_row(s, CONTAINER_OF(e, struct fpmd_vrf, be));
        break;
    }
    ds_put_char(s, '}');
}

/* Takes up to 'max_ops' queued writes as one transaction.  Returns NULL if
 * there is nothing to write; otherwise returns the transaction and stores
 * the "transact" parameters in '*params' (the caller sends them and owns
 * them).  The JSON text is built directly, not as a tree: at a million
 * routes, building and freeing a json tree per route costs more than the
 * whole rest of fpmsyncd. */
struct route_batch_txn *
fpmd_rib_take(struct fpmd_rib *rib, size_t max_ops, struct json **params)
{
    struct route_batch_txn *txn;
    struct json *json;
    struct ds s;

    *params = NULL;
    if (!rib->loaded) {
        return NULL;
    }
    txn = route_batch_take(&rib->batch, max_ops);
    if (!txn) {
        return NULL;
    }

    ds_init(&s);
    ds_reserve(&s, 64 + txn->n_ops * 256);
    ds_put_cstr(&s, "[\"Fibsync\"");
    for (size_t i = 0; i < txn->n_ops; i++) {
        ds_put_char(&s, ',');
        put_op(&s, rib, &txn->ops[i]);
    }
    ds_put_char(&s, ']');

    /* A JSON_SERIALIZED_OBJECT is written out verbatim by json_to_ds().
     * OVS creates one only from a json tree, so make a string and retype
     * it: the two share the 'string' member, and json_destroy() frees it
     * for both. */
    json = json_string_create_nocopy(ds_steal_cstr(&s));
    json->type = JSON_SERIALIZED_OBJECT;
    *params = json;
    return txn;
}

/* Returns the row count of operation result 'r' (1 if it has none). */
static unsigned int
result_count(const struct json *r)
{
    const struct json *count;

    if (r->type != JSON_OBJECT) {
        return 1;
    }
    count = shash_find_data(json_object(r), "count");
    return count && count->type == JSON_INTEGER ? json_integer(count) : 1;
}

/* Returns the error object in result 'r', or NULL. */
static const struct json *
result_error(const struct json *r)
{
    return (r && r->type == JSON_OBJECT
            ? shash_find_data(json_object(r), "error") : NULL);
}

/* Processes the reply to 'txn', the oldest transaction in flight: its
 * 'result', or its JSON-RPC 'error'.  Returns true if it committed;
 * otherwise appends a description to 'errors'. */
bool
fpmd_rib_txn_reply(struct fpmd_rib *rib, struct route_batch_txn *txn,
                   const struct json *result, const struct json *error,
                   struct ds *errors)
{
    const struct json_array *results;
    unsigned int *counts;
    bool ok = true;

    if (error || !result || result->type != JSON_ARRAY) {
        ds_put_cstr(errors, "transaction error: ");
        if (error) {
            json_to_ds(error, 0, errors);
        } else {
            ds_put_cstr(errors, "bad reply");
        }
        rib->stats.txn_errors++;
        route_batch_txn_fail(&rib->batch, txn);
        return false;
    }

    results = json_array(result);
    counts = xmalloc((txn->n_ops + 1) * sizeof *counts);
    for (size_t i = 0; i < results->n; i++) {
        const struct json *err = result_error(results->elems[i]);

        if (err) {
            const struct json *details
                = shash_find_data(json_object(results->elems[i]), "details");

            ds_put_format(errors, "operation %"PRIuSIZE" of %"PRIuSIZE": ",
                          i, txn->n_ops);
            json_to_ds(err, 0, errors);
            if (details) {
                ds_put_cstr(errors, ": ");
                json_to_ds(details, 0, errors);
            }
            if (i < txn->n_ops) {
                struct uuid u;

                entry_uuid(rib, txn->ops[i].entry, &u);
                ds_put_format(errors, " (%s of "UUID_FMT")",
                              route_batch_op_type_to_string(txn->ops[i].type),
                              UUID_ARGS(&u));
            }
            ok = false;
            break;
        }
        if (i < txn->n_ops) {
            counts[i] = result_count(results->elems[i]);
        }
    }
    if (ok && results->n < txn->n_ops) {
        ds_put_format(errors, "%"PRIuSIZE" results for %"PRIuSIZE
                      " operations", results->n, txn->n_ops);
        ok = false;
    }
    if (ok) {
        route_batch_txn_commit(&rib->batch, txn, counts);
    } else {
        rib->stats.txn_errors++;
        route_batch_txn_fail(&rib->batch, txn);
    }
    free(counts);
    return ok;
}

struct route_batch_txn *
fpmd_rib_oldest_txn(const struct fpmd_rib *rib)
{
    return route_batch_oldest_txn(&rib->batch);
}

size_t
fpmd_rib_n_pending(const struct fpmd_rib *rib)
{
    return route_batch_n_pending(&rib->batch);
}

size_t
fpmd_rib_n_inflight(const struct fpmd_rib *rib)
{
    return rib->batch.n_inflight;
}

size_t
fpmd_rib_n_inflight_ops(const struct fpmd_rib *rib)
{
    return rib->batch.n_inflight_ops;
}

/* Database (re)connection. */

/* Notes that the database connection was lost: every transaction in
 * flight failed (it may or may not have committed), and the database
 * must be read again before the next write. */
void
fpmd_rib_db_lost(struct fpmd_rib *rib)
{
    route_batch_fail_all(&rib->batch);
    rib->loaded = false;
}

bool
fpmd_rib_is_loaded(const struct fpmd_rib *rib)
{
    return rib->loaded;
}

/* Returns the "transact" parameters that read what fpmsyncd needs of the
 * database: the key and content columns of Nexthop_Group and Route (not
 * status or counters, which are other daemons'), in that order: select
 * FPMD_LOAD_NHG, then select FPMD_LOAD_ROUTE. */
struct json *
fpmd_rib_load_params(void)
{
    return json_from_string(
        "[\"Fibsync\","
        "{\"op\":\"select\",\"table\":\"Nexthop_Group\",\"where\":[],"
        "\"columns\":[\"_uuid\",\"id\",\"members\"]},"
        "{\"op\":\"select\",\"table\":\"Route\",\"where\":[],"
        "\"columns\":[\"_uuid\",\"vrf\",\"prefix\",\"protocol\",\"metric\","
        "\"nexthop_group\",\"nexthops\",\"blackhole\"]}]");
}

/* Parses a column of type "optional integer": an integer, or ["set",[]]
 * or ["set",[N]].  Returns 0 for an empty set. */
static int64_t
parse_optional_int(const struct json *j)
{
    if (!j) {
        return 0;
    }
    if (j->type == JSON_INTEGER) {
        return json_integer(j);
    }
    if (j->type == JSON_ARRAY && json_array(j)->n == 2) {
        const struct json *set = json_array(j)->elems[1];

        if (set->type == JSON_ARRAY && json_array(set)->n == 1
            && json_array(set)->elems[0]->type == JSON_INTEGER) {
            return json_integer(json_array(set)->elems[0]);
        }
    }
    return 0;
}

/* Parses map column 'j' (["map",[[K,V],...]] of string to integer) and
 * returns its members' hash, as nhmembers_hash() computes it for the same
 * set. */
static bool
parse_members_hash(const struct json *j, uint32_t *hash)
{
    const struct json_array *pairs;
    struct fpmd_nhmember *m;
    const char **keys;
    uint32_t *weights;
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
    keys = xmalloc(n * sizeof *keys + 1);
    weights = xmalloc(n * sizeof *weights + 1);
    for (size_t i = 0; i < n; i++) {
        keys[i] = m[i].key;
        weights[i] = m[i].weight;
    }
    *hash = nhmembers_hash(keys, weights, n);
    free(keys);
    free(weights);
    free(m);
    return true;
}

static bool
parse_row_uuid(const struct json *row, struct uuid *u)
{
    const struct json *j = shash_find_data(json_object(row), "_uuid");

    return (j && j->type == JSON_ARRAY && json_array(j)->n == 2
            && json_array(j)->elems[1]->type == JSON_STRING
            && uuid_from_string(u, json_string(json_array(j)->elems[1])));
}

static const char *
row_string(const struct json *row, const char *column)
{
    const struct json *j = shash_find_data(json_object(row), column);

    return j && j->type == JSON_STRING ? json_string(j) : NULL;
}

/* Takes in one Route row read from the database. */
static void
load_route(struct fpmd_rib *rib, const struct json *row)
{
    const char *vrf_name = row_string(row, "vrf");
    const char *prefix_s = row_string(row, "prefix");
    const char *protocol = row_string(row, "protocol");
    const struct json *bh = shash_find_data(json_object(row), "blackhole");
    uint32_t members_hash, hash;
    struct fib_prefix prefix;
    struct fpmd_route *r;
    struct fpmd_vrf *vrf;
    struct uuid u, expected;
    char *error;

    if (!vrf_name || !prefix_s || !protocol || !parse_row_uuid(row, &u)
        || !parse_members_hash(shash_find_data(json_object(row),
                                               "nexthops"), &members_hash)) {
        rib->stats.load_bad++;
        return;
    }
    error = fib_prefix_parse(prefix_s, &prefix);
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

        VLOG_WARN_RL(&rl, "Route row "UUID_FMT": %s", UUID_ARGS(&u), error);
        free(error);
        rib->stats.load_bad++;
        return;
    }
    hash = route_row_hash(protocol,
                          parse_optional_int(shash_find_data(
                                                 json_object(row), "metric")),
                          parse_optional_int(shash_find_data(
                                                 json_object(row),
                                                 "nexthop_group")),
                          bh && bh->type == JSON_TRUE, members_hash);

    vrf = vrf_by_name(rib, vrf_name);
    if (!vrf) {
        int64_t table = -1;
        unsigned int n;
        int pos;

        if (!strcmp(vrf_name, ROUTE_KEY_DEFAULT_VRF)) {
            table = ROUTE_KEY_MAIN_TABLE;
        } else if (sscanf(vrf_name, "table%u%n", &n, &pos) == 1
                   && !vrf_name[pos]) {
            table = n;
        }
        if (table >= 0 && vrf_by_table(rib, table)) {
            table = -1;
        }
        vrf = vrf_create(rib, vrf_name, table);
    }
    r = route_find(rib, vrf->idx, &prefix);
    if (!r) {
        r = route_create(rib, vrf, &prefix);
        r->be.flags |= FPMD_F_NO_CONTENT;
    }
    if (r->be.flags & FPMD_F_NO_CONTENT) {
        /* Only a mirror of the database: adopt what it holds. */
        route_batch_keep(&r->be, hash);
    } else {
        route_batch_resync(&rib->batch, &r->be, true, hash);
    }
    r->be.flags |= FPMD_F_SEEN;

    route_key_route_uuid(vrf_name, &prefix, &expected);
    if (!uuid_equals(&u, &expected)) {
        rib->stats.load_foreign++;
        set_foreign(rib, &r->be, &u);
    }
    rib->stats.load_routes++;
}

/* Takes in one Nexthop_Group row read from the database. */
static void
load_nhg(struct fpmd_rib *rib, const struct json *row)
{
    const struct json *id_j = shash_find_data(json_object(row), "id");
    uint32_t members_hash, hash;
    struct fpmd_nh *nh;
    struct uuid u, expected;
    int64_t id;

    if (!id_j || id_j->type != JSON_INTEGER || !parse_row_uuid(row, &u)
        || !parse_members_hash(shash_find_data(json_object(row), "members"),
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
    nh = nh_get(rib, id);
    if (!nh->defined && !nh->be.want && !nh->be.queued
        && nh->be.db == ROUTE_BATCH_DB_ABSENT) {
        /* Not defined by zebra, and fpmsyncd is not deleting it either
         * (perhaps a placeholder some route refers to). */
        nh->be.flags |= FPMD_F_NO_CONTENT;
    }
    if (nh->be.flags & FPMD_F_NO_CONTENT) {
        route_batch_keep(&nh->be, hash);
    } else {
        route_batch_resync(&rib->batch, &nh->be, true, hash);
    }
    nh->be.flags |= FPMD_F_SEEN;

    route_key_nhg_uuid(id, &expected);
    if (!uuid_equals(&u, &expected)) {
        rib->stats.load_foreign++;
        set_foreign(rib, &nh->be, &u);
    }
    rib->stats.load_nhgs++;
}

/* Returns the "rows" array of select result 'r', or NULL. */
static const struct json_array *
select_rows(const struct json *r)
{
    const struct json *rows;

    if (!r || r->type != JSON_OBJECT) {
        return NULL;
    }
    rows = shash_find_data(json_object(r), "rows");
    return rows && rows->type == JSON_ARRAY ? json_array(rows) : NULL;
}

/* Starts reading the database state, the reply to fpmd_rib_load_params(),
 * row by row with fpmd_rib_load_row(), until fpmd_rib_load_end().  No
 * transaction may be in flight (see fpmd_rib_db_lost()). */
void
fpmd_rib_load_begin(struct fpmd_rib *rib)
{
    struct fpmd_route *r;
    struct fpmd_nh *nh;

    ovs_assert(!rib->batch.n_inflight);
    rib->loaded = false;
    /* An earlier load may have been cut short. */
    HMAP_FOR_EACH (r, node, &rib->routes) {
        r->be.flags &= ~FPMD_F_SEEN;
    }
    HMAP_FOR_EACH (nh, node, &rib->nhs) {
        nh->be.flags &= ~FPMD_F_SEEN;
    }
}

/* Takes in one row of select 'select_idx' (FPMD_LOAD_NHG or
 * FPMD_LOAD_ROUTE) of the load. */
void
fpmd_rib_load_row(struct fpmd_rib *rib, int select_idx,
                  const struct json *row)
{
    if (row->type != JSON_OBJECT) {
        rib->stats.load_bad++;
    } else if (select_idx == FPMD_LOAD_NHG) {
        load_nhg(rib, row);
    } else if (select_idx == FPMD_LOAD_ROUTE) {
        load_route(rib, row);
    }
}

/* Ends the load: what fpmsyncd believed in the database but was not there
 * is queued again (or forgotten, if fpmsyncd only mirrored it), and
 * writing may start. */
void
fpmd_rib_load_end(struct fpmd_rib *rib)
{
    struct fpmd_route *r;
    struct fpmd_nh *nh;

    HMAP_FOR_EACH_SAFE (r, node, &rib->routes) {
        if (r->be.flags & FPMD_F_SEEN) {
            r->be.flags &= ~FPMD_F_SEEN;
        } else if (r->be.flags & FPMD_F_NO_CONTENT) {
            /* Read at an earlier load, gone since: forget it. */
            route_batch_forget(&rib->batch, &r->be);
        } else {
            route_batch_resync(&rib->batch, &r->be, false, 0);
        }
    }
    HMAP_FOR_EACH_SAFE (nh, node, &rib->nhs) {
        if (nh->be.flags & FPMD_F_SEEN) {
            nh->be.flags &= ~FPMD_F_SEEN;
        } else if (nh->be.flags & FPMD_F_NO_CONTENT) {
            nh->be.flags &= ~FPMD_F_NO_CONTENT;
            route_batch_forget(&rib->batch, &nh->be);
        } else {
            route_batch_resync(&rib->batch, &nh->be, false, 0);
        }
    }
    rib->loaded = true;
}

/* Processes 'result', the whole parsed reply to fpmd_rib_load_params(), as
 * fpmd_rib_load_begin(), _row() and _end() would.  Returns NULL on success,
 * otherwise an error message. */
char *
fpmd_rib_load_reply(struct fpmd_rib *rib, const struct json *result)
{
    const struct json_array *nhgs, *routes;

    if (!result || result->type != JSON_ARRAY || json_array(result)->n < 2
        || !(nhgs = select_rows(json_array(result)->elems[FPMD_LOAD_NHG]))
        || !(routes = select_rows(
                 json_array(result)->elems[FPMD_LOAD_ROUTE]))) {
        return xstrdup("bad reply to the initial select");
    }
    fpmd_rib_load_begin(rib);
    for (size_t i = 0; i < nhgs->n; i++) {
        fpmd_rib_load_row(rib, FPMD_LOAD_NHG, nhgs->elems[i]);
    }
    for (size_t i = 0; i < routes->n; i++) {
        fpmd_rib_load_row(rib, FPMD_LOAD_ROUTE, routes->elems[i]);
    }
    fpmd_rib_load_end(rib);
    return NULL;
}

/* FIB suppression. */

/* Turns offload notifications on or off; 'cb' sends them. */
void
fpmd_rib_set_offload(struct fpmd_rib *rib, bool enabled,
                     fpmd_offload_func *cb, void *aux)
{
    rib->offload = enabled;
    rib->offload_cb = cb;
    rib->offload_aux = aux;
    if (!enabled) {
        fpmd_rib_status_reset(rib);
    }
}

/* Forgets which routes are offloaded, e.g. before (re)installing the
 * Route.status monitor, whose initial reply reports them all again. */
void
fpmd_rib_status_reset(struct fpmd_rib *rib)
{
    struct fpmd_offloaded *o;

    HMAP_FOR_EACH_POP (o, node, &rib->offloaded) {
        o->route->be.flags &= ~FPMD_F_OFFLOADED;
        free(o);
    }
}

static struct fpmd_offloaded *
offloaded_find(const struct fpmd_rib *rib, const struct uuid *u)
{
    struct fpmd_offloaded *o;

    HMAP_FOR_EACH_WITH_HASH (o, node, uuid_hash(u), &rib->offloaded) {
        if (uuid_equals(&o->uuid, u)) {
            return o;
        }
    }
    return NULL;
}

/* Marks 'r' as no longer offloaded (its status is being rewritten, or it
 * is going away). */
static void
route_clear_offloaded(struct fpmd_rib *rib, struct fpmd_route *r)
{
    struct fpmd_offloaded *o;
    struct uuid u;

    if (!(r->be.flags & FPMD_F_OFFLOADED)) {
        return;
    }
    r->be.flags &= ~FPMD_F_OFFLOADED;
    entry_uuid(rib, &r->be, &u);
    o = offloaded_find(rib, &u);
    if (o && o->route == r) {
        hmap_remove(&rib->offloaded, &o->node);
        free(o);
    }
}

/* Records that Route row 'u' ('vrf', 'prefix') has offload=true in its
 * status, and tells zebra, if zebra announced the route. */
void
fpmd_rib_status_offloaded(struct fpmd_rib *rib, const struct uuid *u,
                          const char *vrf_name, const char *prefix_s)
{
    struct fpmd_vrf *vrf = vrf_by_name(rib, vrf_name);
    struct fpmd_offloaded *o;
    struct fib_prefix prefix;
    struct fpmd_route *r;
    char *error;

    if (!vrf) {
        return;
    }
    error = fib_prefix_parse(prefix_s, &prefix);
    if (error) {
        free(error);
        return;
    }
    r = route_find(rib, vrf->idx, &prefix);
    if (!r) {
        return;
    }
    o = offloaded_find(rib, u);
    if (!o) {
        route_clear_offloaded(rib, r);
        o = xmalloc(sizeof *o);
        o->uuid = *u;
        o->route = r;
        hmap_insert(&rib->offloaded, &o->node, uuid_hash(u));
    }
    r->be.flags |= FPMD_F_OFFLOADED;
    route_notify_offload(rib, r);
}

/* Route row 'u', offloaded, had its status changed but still says
 * offload=true: tell zebra again (orchd reprogrammed it). */
void
fpmd_rib_status_touched(struct fpmd_rib *rib, const struct uuid *u)
{
    struct fpmd_offloaded *o = offloaded_find(rib, u);

    if (o) {
        route_notify_offload(rib, o->route);
    }
}

/* Route row 'u' no longer says offload=true (or is gone). */
void
fpmd_rib_status_cleared(struct fpmd_rib *rib, const struct uuid *u)
{
    struct fpmd_offloaded *o = offloaded_find(rib, u);

    if (o) {
        o->route->be.flags &= ~FPMD_F_OFFLOADED;
        hmap_remove(&rib->offloaded, &o->node);
        free(o);
    }
}

/* Introspection. */

const struct fpmd_rib_stats *
fpmd_rib_get_stats(const struct fpmd_rib *rib)
{
    return &rib->stats;
}

const struct route_batch_stats *
fpmd_rib_get_batch_stats(const struct fpmd_rib *rib)
{
    return &rib->batch.stats;
}

size_t
fpmd_rib_n_routes(const struct fpmd_rib *rib)
{
    return hmap_count(&rib->routes);
}

size_t
fpmd_rib_n_nexthops(const struct fpmd_rib *rib)
{
    return hmap_count(&rib->nhs);
}

/* Appends a description of the rib's state to 's', a line per item. */
void
fpmd_rib_format(const struct fpmd_rib *rib, struct ds *s)
{
    const struct fpmd_rib_stats *st = &rib->stats;
    const struct route_batch_stats *bs = &rib->batch.stats;
    size_t n_waiting = 0, n_unresolved = 0, n_defined = 0;
    const struct fpmd_nh *nh;

    HMAP_FOR_EACH (nh, node, &rib->nhs) {
        if (nh->defined) {
            n_defined++;
        }
        if (!nh->resolved) {
            n_waiting += nh->n_routes;
            if (nh->defined) {
                n_unresolved++;
            }
        }
    }

    ds_put_format(s, "routes: %"PRIuSIZE" held (%"PRIuSIZE" waiting for a "
                  "next-hop group)\n", hmap_count(&rib->routes), n_waiting);
    ds_put_format(s, "next-hop objects: %"PRIuSIZE" defined, %"PRIuSIZE
                  " waiting for members, %"PRIuSIZE" inline sets\n",
                  n_defined, n_unresolved, hmap_count(&rib->anon));
    ds_put_format(s, "vrfs:");
    for (size_t i = 0; i < rib->n_vrfs; i++) {
        const struct fpmd_vrf *vrf = rib->vrfs[i];

        ds_put_format(s, " %s", vrf->name);
        if (vrf->table >= 0) {
            ds_put_format(s, "(table %"PRId64")", vrf->table);
        }
    }
    ds_put_char(s, '\n');
    ds_put_format(s, "fpm input: routes added %"PRIu64" deleted %"PRIu64
                  " (unknown %"PRIu64"), next hops added %"PRIu64
                  " deleted %"PRIu64" (unknown %"PRIu64")\n",
                  st->route_add, st->route_del, st->route_del_unknown,
                  st->nh_add, st->nh_del, st->nh_del_unknown);
    ds_put_format(s, "next-hop changes: %"PRIu64" (routes refreshed %"PRIu64
                  ")\n", st->nh_changed, st->routes_rewritten);
    ds_put_format(s, "generation: %"PRIu32", reconciliations: %"PRIu64
                  ", stale routes deleted: %"PRIu64", stale next hops "
                  "deleted: %"PRIu64"\n", rib->gen, st->reconciles,
                  st->stale_routes, st->stale_nhgs);
    ds_put_format(s, "database load: %s, routes %"PRIu64", groups %"PRIu64
                  ", foreign uuids %"PRIu64", unusable rows %"PRIu64"\n",
                  rib->loaded ? "done" : "pending", st->load_routes,
                  st->load_nhgs, st->load_foreign, st->load_bad);
    ds_put_format(s, "batch: pending %"PRIuSIZE", in flight %"PRIuSIZE
                  " transactions (%"PRIuSIZE" operations)\n",
                  route_batch_n_pending(&rib->batch), rib->batch.n_inflight,
                  rib->batch.n_inflight_ops);
    ds_put_format(s, "batch: set %"PRIu64" del %"PRIu64" coalesced %"PRIu64
                  " unchanged %"PRIu64" cancelled %"PRIu64" held %"PRIu64
                  "\n", bs->n_set, bs->n_del, bs->n_coalesced,
                  bs->n_unchanged, bs->n_cancelled, bs->n_held);
    ds_put_format(s, "operations: insert %"PRIu64" update %"PRIu64
                  " delete %"PRIu64", committed %"PRIu64"\n",
                  bs->n_insert, bs->n_update, bs->n_delete,
                  bs->n_ops_committed);
    ds_put_format(s, "transactions: %"PRIu64" sent, %"PRIu64" committed, "
                  "%"PRIu64" failed, %"PRIu64" entries requeued\n",
                  bs->n_txn, bs->n_committed, bs->n_failed, bs->n_requeued);
}
