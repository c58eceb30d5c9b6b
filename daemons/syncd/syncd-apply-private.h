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


#ifndef SYNCD_APPLY_PRIVATE_H
#define SYNCD_APPLY_PRIVATE_H 1

/* The apply step's insides, shared by its three files (see
 * daemons/syncd/syncd-apply.h for what the step does):
 *
 *   - daemons/syncd/syncd-apply.c: route operations, the three SAI bulks
 *     and their flush, failed removals retried, the switch's life cycle;
 *
 *   - daemons/syncd/syncd-nexthop.c: what routes point at, created on
 *     demand and shared: virtual routers, router interfaces, next hops
 *     and next-hop groups, and their removal once unused;
 *
 *   - daemons/syncd/syncd-apply-show.c: what the step shows of itself,
 *     read-only (routes, VRFs, next hops, counters).
 *
 * Types private to the apply step are prefixed "sa_"; the functions that
 * syncd-nexthop.c gives the other two, "syncd_nexthop_".  syncd-apply.c
 * and syncd-apply-show.c call syncd-nexthop.c, never the other way round:
 * what syncd-nexthop.c needs of syncd-apply.c it asks through the hooks
 * that syncd-apply.c gives syncd_nexthop_init() ("struct
 * syncd_nexthop_hooks").  Nothing calls syncd-apply-show.c from inside
 * the step.  Nothing outside these three files includes this header. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemons/syncd/syncd-apply.h"
#include "hash.h"
#include "openvswitch/hmap.h"

/* A virtual router, one per VRF name. */
struct sa_vr {
    struct hmap_node node;      /* In 'sa->vrs', by hash of 'name'. */
    char *name;                 /* VRF name. */
    sai_object_id_t oid;        /* The SAI virtual router. */
    uint16_t index;             /* Index in 'sa->vr_array'. */
    struct sa_rif *anon_rif;    /* Router interface for gateways given
                                 * without an interface, or NULL. */
};

/* What a route points at. */
enum sa_target_kind {
    SA_T_NONE,                  /* Nothing (drop, trap). */
    SA_T_NH,                    /* A 'struct sa_nh'. */
    SA_T_NHG,                   /* A 'struct sa_nhg'. */
    SA_T_RIF,                   /* A 'struct sa_rif' (connected). */
};

/* A route's NEXT_HOP_ID in the module's terms. */
struct sa_target {
    enum sa_target_kind kind;   /* What 'ptr' is. */
    void *ptr;                  /* The object, NULL for SA_T_NONE. */
};

/* ---- Objects (syncd-nexthop.c; read by syncd-apply-show.c) ---- */

/* A router interface, one per interface name (plus one unnamed per VR). */
struct sa_rif {
    struct hmap_node name_node; /* In 'sa->rifs' by name, if named. */
    struct hmap_node oid_node;  /* In 'sa->rifs_by_oid'. */
    char *name;                 /* Interface name, "" if unnamed. */
    sai_object_id_t oid;        /* The SAI router interface. */
    struct sa_vr *vr;           /* Its virtual router. */
};

/* A next hop: a gateway reached through a router interface.  Its
 * references are the routes that point at it, the group members that
 * contain it and the queued operations that will. */
struct sa_nh {
    struct hmap_node node;      /* In 'sa->nhs', by (ip, rif). */
    struct hmap_node oid_node;  /* In 'sa->nhs_by_oid'. */
    sai_ip_address_t ip;        /* Gateway, unused bytes zero. */
    struct sa_rif *rif;         /* Router interface. */
    sai_object_id_t oid;        /* The SAI next hop. */
    uint32_t refcnt;            /* References. */
    bool in_gc;                 /* In 'sa->gc_nhs'? */
};

/* A member of a next-hop group. */
struct sa_member {
    struct sa_nh *nh;           /* The next hop (the member holds a
                                 * reference), NULL once the member is
                                 * removed. */
    uint32_t weight;            /* Its weight. */
    sai_object_id_t oid;        /* The SAI group member,
                                 * SAI_NULL_OBJECT_ID once removed. */
};

/* A next-hop group, one per distinct set of (next hop, weight) members.
 * Its references are the routes that point at it and the queued operations
 * that will. */
struct sa_nhg {
    struct hmap_node node;      /* In 'sa->nhgs', by members, unless
                                 * 'stuck'. */
    struct hmap_node oid_node;  /* In 'sa->nhgs_by_oid'. */
    sai_object_id_t oid;        /* The SAI next-hop group. */
    uint32_t refcnt;            /* References. */
    bool in_gc;                 /* In 'sa->gc_nhgs'? */
    bool stuck;                 /* Its removal failed, perhaps part way:
                                 * in 'sa->stuck_nhgs', not 'sa->nhgs'. */
    size_t n;                   /* Number of members. */
    struct sa_member members[]; /* Sorted by (next hop id, weight). */
};

/* Hash of SAI object id 'oid', for the "_by_oid" maps. */
static inline uint32_t
sa_oid_hash(sai_object_id_t oid)
{
    return hash_uint64(oid);
}

/* ---- Routes (syncd-apply.c; read by syncd-apply-show.c) ---- */

/* Route flags. */
#define SA_ROUTE_ORPHAN 0x01    /* Its removal failed and is retried. */
#define SA_ROUTE_STALE 0x02     /* Not confirmed since the last
                                 * syncd_apply_mark_stale(). */

/* A route programmed in the switch: 48 bytes. */
struct sa_route {
    struct hmap_node node;      /* In 'sa->routes', by (vr, prefix). */
    struct fib_prefix prefix;   /* Destination. */
    uint16_t vr;                /* Index of its VR in 'sa->vr_array'. */
    uint8_t action;             /* PACKET_ACTION. */
    uint8_t kind;               /* enum sa_target_kind of 'target'. */
    uint8_t flags;              /* SA_ROUTE_*. */
    void *target;               /* NEXT_HOP_ID's object (holding a
                                 * reference), or NULL. */
};

/* What syncd-nexthop.c asks of syncd-apply.c, which calls it: given to
 * syncd_nexthop_init().  Each function gets the hooks' 'aux'. */
struct syncd_nexthop_hooks {
    /* Sends every queued operation to the switch (syncd_apply_flush()),
     * so that the removals among them free room for an object whose
     * creation ran out of it.  Called only when not already flushing. */
    void (*flush)(void *aux);

    /* Schedules the retry of failed removals, one having just been
     * queued (a next-hop group set aside). */
    void (*retry_later)(void *aux);
};

/* The apply step. */
struct syncd_apply {
    /* Switch and SAI method tables. */
    sai_object_id_t sw;                     /* The switch. */
    sai_switch_api_t *switch_api;           /* Switch API. */
    sai_virtual_router_api_t *vr_api;       /* Virtual router API. */
    sai_router_interface_api_t *rif_api;    /* Router interface API. */
    sai_next_hop_api_t *nh_api;             /* Next-hop API. */
    sai_next_hop_group_api_t *nhg_api;      /* Group and member API. */
    sai_route_api_t *route_api;             /* Route API. */
    sai_object_id_t *ports;     /* Front-panel ports. */
    uint32_t n_ports;           /* Number of 'ports'. */
    uint32_t next_port;         /* Port for the next router interface. */

    /* Objects. */
    struct hmap vrs;            /* "struct sa_vr"s by name. */
    struct sa_vr **vr_array;    /* VRs by index. */
    size_t n_vrs;               /* Number of VRs. */
    size_t allocated_vrs;       /* Capacity of 'vr_array'. */
    struct hmap rifs;           /* Named "struct sa_rif"s by name. */
    struct hmap rifs_by_oid;    /* Every "struct sa_rif" by id. */
    struct hmap nhs;            /* "struct sa_nh"s by (ip, rif). */
    struct hmap nhs_by_oid;     /* Same, by id. */
    struct hmap nhgs;           /* "struct sa_nhg"s by members. */
    struct hmap nhgs_by_oid;    /* Same, by id. */
    struct hmap routes;         /* "struct sa_route"s by (vr, prefix). */

    /* Queued operations and the three bulks. */
    uint32_t max_bulk;          /* Most entries in one bulk call. */
    struct sa_op *ops;          /* Queued operations, in order. */
    size_t n_ops;               /* Number of 'ops'. */
    struct hmap pending;        /* 'ops' by (vr, prefix). */
    sai_route_entry_t *c_entries;  /* Create bulk: keys, */
    uint32_t *c_attr_count;        /* attribute counts, */
    sai_attribute_t *c_attrs;      /* two attributes each, */
    const sai_attribute_t **c_attr_ptrs; /* pointers to them, */
    sai_status_t *c_statuses;      /* statuses, */
    uint32_t *c_ops;               /* their index in 'ops'. */
    uint32_t n_c;                  /* Entries in the create bulk. */
    sai_route_entry_t *r_entries;  /* Remove bulk: keys, */
    sai_status_t *r_statuses;      /* statuses, */
    uint32_t *r_ops;               /* their index in 'ops'. */
    uint32_t n_r;                  /* Entries in the remove bulk. */
    sai_route_entry_t *s_entries;  /* Set bulk: keys, */
    sai_attribute_t *s_attrs;      /* one attribute each, */
    sai_status_t *s_statuses;      /* statuses, */
    uint32_t n_s;                  /* entries (up to 2 per operation), */
    uint32_t n_s_ops;              /* operations in it. */

    /* Scratch for resolving next hops. */
    struct sa_member *scratch;  /* Members being resolved. */
    size_t allocated_scratch;   /* Capacity of 'scratch'. */
    const struct syncd_nexthop_hooks *nh_hooks; /* What syncd-nexthop.c
                                                 * asks of the rest... */
    void *nh_aux;               /* ...and their argument. */

    /* Objects that lost their last reference, removed after a flush. */
    struct sa_nh **gc_nhs;      /* Next hops. */
    size_t n_gc_nhs, allocated_gc_nhs;     /* Their number, capacity. */
    struct sa_nhg **gc_nhgs;    /* Next-hop groups. */
    size_t n_gc_nhgs, allocated_gc_nhgs;   /* Their number, capacity. */

    /* Failed removals to retry. */
    struct sa_orphan *orphans;  /* Routes to remove again. */
    size_t n_orphans, allocated_orphans;   /* Their number, capacity. */
    struct sa_nhg **stuck_nhgs; /* Next-hop groups to remove again (out
                                 * of 'nhgs': no route takes them). */
    size_t n_stuck_nhgs, allocated_stuck_nhgs; /* Number, capacity. */
    long long int next_retry;   /* When to retry them (msec). */

    syncd_apply_result_cb *cb;  /* Result callback. */
    void *cb_aux;               /* Its argument. */
    struct perf_timer *timer;   /* "BULK" stage timer, or NULL. */
    bool flushing;              /* Inside syncd_apply_flush()? */
    struct syncd_apply_stats stats; /* Counters. */
};

/* Appends to 'p[*n]' (growing it) pointer 'x'. */
#define APPEND(P, N, ALLOCATED, X)                          \
    do {                                                    \
        if ((N) >= (ALLOCATED)) {                           \
            (P) = x2nrealloc((P), &(ALLOCATED), sizeof *(P)); \
        }                                                   \
        (P)[(N)++] = (X);                                   \
    } while (0)

/* Virtual routers (syncd-nexthop.c). */
struct sa_vr *syncd_nexthop_vr_find(const struct syncd_apply *,
                                    const char *name);
struct sa_vr *syncd_nexthop_vr_get(struct syncd_apply *, const char *name,
                                   sai_status_t *);

/* What routes point at (syncd-nexthop.c). */
sai_status_t syncd_nexthop_resolve(struct syncd_apply *, struct sa_vr *,
                                   const struct syncd_route_op *,
                                   struct sa_target *);
void syncd_nexthop_target_unref(struct syncd_apply *,
                                const struct sa_target *);
sai_object_id_t syncd_nexthop_target_oid(const struct sa_target *);
size_t syncd_nexthop_target_describe(const struct sa_target *,
                                     struct syncd_nexthop **,
                                     size_t *allocated);
void syncd_nexthop_gc(struct syncd_apply *);
void syncd_nexthop_retry_stuck(struct syncd_apply *);

/* Life cycle of the objects (syncd-nexthop.c). */
void syncd_nexthop_init(struct syncd_apply *,
                        const struct syncd_nexthop_hooks *, void *aux);
void syncd_nexthop_destroy(struct syncd_apply *);

#endif /* syncd-apply-private.h */
