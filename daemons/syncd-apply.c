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

#include "daemons/syncd-apply.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "coverage.h"
#include "hash.h"
#include "lib/perf-timer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd_apply);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(syncd_apply_bulk);
COVERAGE_DEFINE(syncd_apply_route_ok);
COVERAGE_DEFINE(syncd_apply_route_error);
COVERAGE_DEFINE(syncd_apply_noop);
COVERAGE_DEFINE(syncd_apply_nh_create);
COVERAGE_DEFINE(syncd_apply_nh_remove);
COVERAGE_DEFINE(syncd_apply_nhg_create);
COVERAGE_DEFINE(syncd_apply_nhg_remove);
COVERAGE_DEFINE(syncd_apply_orphan);

/* How often failed removals are retried, in milliseconds. */
#define ORPHAN_RETRY_MSEC 1000

/* ---- Objects ------------------------------------------------------------ */

/* A virtual router, one per VRF name. */
struct sa_vr {
    struct hmap_node node;      /* In 'sa->vrs', by hash of 'name'. */
    char *name;                 /* VRF name. */
    sai_object_id_t oid;        /* The SAI virtual router. */
    uint16_t index;             /* Index in 'sa->vr_array'. */
    struct sa_rif *anon_rif;    /* Router interface for gateways given
                                 * without an interface, or NULL. */
};

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
                                 * reference). */
    uint32_t weight;            /* Its weight. */
    sai_object_id_t oid;        /* The SAI group member. */
};

/* A next-hop group, one per distinct set of (next hop, weight) members.
 * Its references are the routes that point at it and the queued operations
 * that will. */
struct sa_nhg {
    struct hmap_node node;      /* In 'sa->nhgs', by members. */
    struct hmap_node oid_node;  /* In 'sa->nhgs_by_oid'. */
    sai_object_id_t oid;        /* The SAI next-hop group. */
    uint32_t refcnt;            /* References. */
    bool in_gc;                 /* In 'sa->gc_nhgs'? */
    size_t n;                   /* Number of members. */
    struct sa_member members[]; /* Sorted by (next hop id, weight). */
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

/* Route flags. */
#define SA_ROUTE_ORPHAN 0x01    /* Its removal failed and is retried. */

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

/* The SAI call that an operation became. */
enum sa_sai_op {
    SA_OP_CREATE,
    SA_OP_REMOVE,
    SA_OP_SET,
};

/* A queued operation. */
struct sa_op {
    struct hmap_node node;      /* In 'sa->pending', by (vr, prefix). */
    struct uuid origin;         /* As submitted. */
    int64_t seq;                /* As submitted. */
    struct fib_prefix prefix;   /* As submitted. */
    uint16_t vr;                /* VR index. */
    uint8_t type;               /* enum syncd_op_type. */
    uint8_t sai_op;             /* enum sa_sai_op. */
    uint8_t action;             /* New PACKET_ACTION (create, set). */
    bool internal;              /* An orphan retry: no result reported. */
    int set_nh;                 /* For SA_OP_SET: index of its NEXT_HOP_ID
                                 * entry in the set bulk, or -1. */
    int set_action;             /* Same for PACKET_ACTION. */
    uint32_t bulk_idx;          /* Index in the create or remove bulk. */
    struct sa_target target;    /* New target (create, set), holding a
                                 * reference. */
    struct sa_route *route;     /* The route removed or changed. */
    sai_status_t status;        /* Outcome. */
};

/* A route whose removal failed, to retry. */
struct sa_orphan {
    uint16_t vr;                /* VR index. */
    struct fib_prefix prefix;   /* Destination. */
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

    /* Objects that lost their last reference, removed after a flush. */
    struct sa_nh **gc_nhs;      /* Next hops. */
    size_t n_gc_nhs, allocated_gc_nhs;     /* Their number, capacity. */
    struct sa_nhg **gc_nhgs;    /* Next-hop groups. */
    size_t n_gc_nhgs, allocated_gc_nhgs;   /* Their number, capacity. */

    /* Failed removals to retry. */
    struct sa_orphan *orphans;  /* Routes to remove again. */
    size_t n_orphans, allocated_orphans;   /* Their number, capacity. */
    long long int next_retry;   /* When to retry them (msec). */

    syncd_apply_result_cb *cb;  /* Result callback. */
    void *cb_aux;               /* Its argument. */
    struct perf_timer *timer;   /* "BULK" stage timer, or NULL. */
    bool flushing;              /* Inside syncd_apply_flush()? */
    struct syncd_apply_stats stats; /* Counters. */
};

static void apply_gc(struct syncd_apply *);

/* ---- Small helpers ------------------------------------------------------ */

/* Returns the one-byte code of 'status' (see syncd-apply.h). */
unsigned int
syncd_status_code(sai_status_t status)
{
    if (status <= 0 && status >= SAI_STATUS_NOT_EXECUTED) {
        return -status;
    } else if (SAI_STATUS_IS_INVALID_ATTRIBUTE(status)) {
        return 0x18;
    } else if (SAI_STATUS_IS_INVALID_ATTR_VALUE(status)) {
        return 0x19;
    } else if (SAI_STATUS_IS_ATTR_NOT_IMPLEMENTED(status)) {
        return 0x1a;
    } else if (SAI_STATUS_IS_UNKNOWN_ATTRIBUTE(status)) {
        return 0x1b;
    } else if (SAI_STATUS_IS_ATTR_NOT_SUPPORTED(status)) {
        return 0x1c;
    }
    return 0x1d;
}

/* Returns the SAI name of status code 'code' ("SAI_STATUS_FAILURE"). */
const char *
syncd_status_code_name(unsigned int code)
{
    static const sai_status_t attr_bases[] = {
        SAI_STATUS_INVALID_ATTRIBUTE_0, SAI_STATUS_INVALID_ATTR_VALUE_0,
        SAI_STATUS_ATTR_NOT_IMPLEMENTED_0, SAI_STATUS_UNKNOWN_ATTRIBUTE_0,
        SAI_STATUS_ATTR_NOT_SUPPORTED_0,
    };

    if (code < 0x18) {
        return sai_util_status_name(-(sai_status_t) code);
    } else if (code < 0x1d) {
        return sai_util_status_name(attr_bases[code - 0x18]);
    }
    return "SAI_STATUS_UNKNOWN";
}

/* Converts 'p' into SAI's address-and-mask form. */
void
syncd_prefix_to_sai(const struct fib_prefix *p, sai_ip_prefix_t *out)
{
    memset(out, 0, sizeof *out);
    if (p->family == AF_INET) {
        ovs_be32 a;

        memcpy(&a, p->addr, 4);
        sai_util_ip_prefix_init4(out, ntohl(a), p->len);
    } else {
        struct in6_addr a;

        memcpy(&a, p->addr, 16);
        sai_util_ip_prefix_init6(out, &a, p->len);
    }
}

/* Returns the Asic_Route spelling of 'action' ("forward", "drop",
 * "trap"), or SAI's name in lowercase for other actions. */
const char *
syncd_action_name(sai_packet_action_t action)
{
    switch (action) {
    case SAI_PACKET_ACTION_FORWARD: return "forward";
    case SAI_PACKET_ACTION_DROP: return "drop";
    case SAI_PACKET_ACTION_TRAP: return "trap";
    case SAI_PACKET_ACTION_COPY: return "copy";
    case SAI_PACKET_ACTION_COPY_CANCEL: return "copy_cancel";
    case SAI_PACKET_ACTION_LOG: return "log";
    case SAI_PACKET_ACTION_DENY: return "deny";
    case SAI_PACKET_ACTION_TRANSIT: return "transit";
    }
    return "unknown";
}

static uint32_t
route_hash(uint16_t vr, const struct fib_prefix *prefix)
{
    return fib_prefix_hash(prefix, vr);
}

/* Returns 'ip' with the bytes its family does not use zeroed, so that it
 * can be hashed and compared as bytes. */
static sai_ip_address_t
ip_normalize(const sai_ip_address_t *ip)
{
    sai_ip_address_t n;

    memset(&n, 0, sizeof n);
    n.addr_family = ip->addr_family;
    if (ip->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        n.addr.ip4 = ip->addr.ip4;
    } else {
        memcpy(n.addr.ip6, ip->addr.ip6, sizeof n.addr.ip6);
    }
    return n;
}

static uint32_t
oid_hash(sai_object_id_t oid)
{
    return hash_uint64(oid);
}

/* Appends to 'p[*n]' (growing it) pointer 'x'. */
#define APPEND(P, N, ALLOCATED, X)                          \
    do {                                                    \
        if ((N) >= (ALLOCATED)) {                           \
            (P) = x2nrealloc((P), &(ALLOCATED), sizeof *(P)); \
        }                                                   \
        (P)[(N)++] = (X);                                   \
    } while (0)

/* ---- Virtual routers and router interfaces ------------------------------ */

static struct sa_vr *
vr_find(const struct syncd_apply *sa, const char *name)
{
    struct sa_vr *vr;

    HMAP_FOR_EACH_WITH_HASH (vr, node, hash_string(name, 0), &sa->vrs) {
        if (!strcmp(vr->name, name)) {
            return vr;
        }
    }
    return NULL;
}

/* Returns the VR of VRF 'name', creating it if needed.  On failure returns
 * NULL with '*status' set. */
static struct sa_vr *
vr_get(struct syncd_apply *sa, const char *name, sai_status_t *status)
{
    struct sa_vr *vr = vr_find(sa, name);
    sai_object_id_t oid;

    if (vr) {
        return vr;
    }
    if (sa->n_vrs >= UINT16_MAX) {
        *status = SAI_STATUS_INSUFFICIENT_RESOURCES;
        return NULL;
    }
    if (!strcmp(name, "default")) {
        sai_attribute_t attr = {
            .id = SAI_SWITCH_ATTR_DEFAULT_VIRTUAL_ROUTER_ID
        };

        *status = sa->switch_api->get_switch_attribute(sa->sw, 1, &attr);
        oid = attr.value.oid;
    } else {
        *status = sa->vr_api->create_virtual_router(&oid, sa->sw, 0, NULL);
    }
    if (*status) {
        VLOG_WARN_RL(&rl, "cannot create virtual router for VRF %s: %s",
                     name, sai_util_status_name(*status));
        return NULL;
    }

    vr = xzalloc(sizeof *vr);
    vr->name = xstrdup(name);
    vr->oid = oid;
    vr->index = sa->n_vrs;
    hmap_insert(&sa->vrs, &vr->node, hash_string(name, 0));
    APPEND(sa->vr_array, sa->n_vrs, sa->allocated_vrs, vr);
    VLOG_INFO("VRF %s is virtual router 0x%"PRIx64, name, oid);
    return vr;
}

/* Creates a router interface named 'name' in 'vr'. */
static struct sa_rif *
rif_create(struct syncd_apply *sa, struct sa_vr *vr, const char *name,
           sai_status_t *status)
{
    sai_attribute_t attrs[3];
    sai_object_id_t oid;

    attrs[0].id = SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID;
    attrs[0].value.oid = vr->oid;
    attrs[1].id = SAI_ROUTER_INTERFACE_ATTR_TYPE;
    attrs[1].value.s32 = SAI_ROUTER_INTERFACE_TYPE_PORT;
    attrs[2].id = SAI_ROUTER_INTERFACE_ATTR_PORT_ID;
    attrs[2].value.oid = sa->ports[sa->next_port];
    *status = sa->rif_api->create_router_interface(&oid, sa->sw, 3, attrs);
    if (*status) {
        VLOG_WARN_RL(&rl, "cannot create router interface %s: %s",
                     name, sai_util_status_name(*status));
        return NULL;
    }
    sa->next_port = (sa->next_port + 1) % sa->n_ports;

    struct sa_rif *rif = xzalloc(sizeof *rif);
    rif->name = xstrdup(name);
    rif->oid = oid;
    rif->vr = vr;
    hmap_insert(&sa->rifs_by_oid, &rif->oid_node, oid_hash(oid));
    if (name[0]) {
        hmap_insert(&sa->rifs, &rif->name_node, hash_string(name, 0));
    }
    VLOG_DBG("interface %s is router interface 0x%"PRIx64" in VRF %s",
             name[0] ? name : "(unnamed)", oid, vr->name);
    return rif;
}

/* Returns the router interface for 'ifname' (NULL or "" for the unnamed
 * one of 'vr'), creating it in 'vr' if needed. */
static struct sa_rif *
rif_get(struct syncd_apply *sa, struct sa_vr *vr, const char *ifname,
        sai_status_t *status)
{
    if (!ifname || !ifname[0]) {
        if (!vr->anon_rif) {
            vr->anon_rif = rif_create(sa, vr, "", status);
        }
        return vr->anon_rif;
    }

    struct sa_rif *rif;
    HMAP_FOR_EACH_WITH_HASH (rif, name_node, hash_string(ifname, 0),
                             &sa->rifs) {
        if (!strcmp(rif->name, ifname)) {
            return rif;
        }
    }
    return rif_create(sa, vr, ifname, status);
}

/* ---- Next hops and groups ----------------------------------------------- */

static uint32_t
nh_hash(const sai_ip_address_t *ip, const struct sa_rif *rif)
{
    return hash_bytes(ip, sizeof *ip, hash_pointer(rif, 0));
}

/* True if the module has queued work or garbage whose completion might
 * free resources. */
static bool
apply_has_work(const struct syncd_apply *sa)
{
    return sa->n_ops || sa->n_gc_nhs || sa->n_gc_nhgs;
}

/* Returns the next hop (gateway 'ip', interface 'rif') with a new
 * reference, creating it if needed; NULL with '*status' on failure. */
static struct sa_nh *
nh_get(struct syncd_apply *sa, const sai_ip_address_t *ip_,
       struct sa_rif *rif, sai_status_t *status)
{
    sai_ip_address_t ip = ip_normalize(ip_);
    uint32_t hash = nh_hash(&ip, rif);
    struct sa_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, node, hash, &sa->nhs) {
        if (nh->rif == rif && !memcmp(&nh->ip, &ip, sizeof ip)) {
            nh->refcnt++;
            return nh;
        }
    }

    sai_attribute_t attrs[3];
    sai_object_id_t oid;
    attrs[0].id = SAI_NEXT_HOP_ATTR_TYPE;
    attrs[0].value.s32 = SAI_NEXT_HOP_TYPE_IP;
    attrs[1].id = SAI_NEXT_HOP_ATTR_IP;
    attrs[1].value.ipaddr = ip;
    attrs[2].id = SAI_NEXT_HOP_ATTR_ROUTER_INTERFACE_ID;
    attrs[2].value.oid = rif->oid;
    *status = sa->nh_api->create_next_hop(&oid, sa->sw, 3, attrs);
    if (*status == SAI_STATUS_INSUFFICIENT_RESOURCES && apply_has_work(sa)
        && !sa->flushing) {
        /* Queued removals may free room. */
        syncd_apply_flush(sa);
        *status = sa->nh_api->create_next_hop(&oid, sa->sw, 3, attrs);
    }
    if (*status) {
        return NULL;
    }

    nh = xzalloc(sizeof *nh);
    nh->ip = ip;
    nh->rif = rif;
    nh->oid = oid;
    nh->refcnt = 1;
    hmap_insert(&sa->nhs, &nh->node, hash);
    hmap_insert(&sa->nhs_by_oid, &nh->oid_node, oid_hash(oid));
    sa->stats.nh_created++;
    COVERAGE_INC(syncd_apply_nh_create);
    return nh;
}

static void
nh_unref(struct syncd_apply *sa, struct sa_nh *nh)
{
    ovs_assert(nh->refcnt > 0);
    if (!--nh->refcnt && !nh->in_gc) {
        nh->in_gc = true;
        APPEND(sa->gc_nhs, sa->n_gc_nhs, sa->allocated_gc_nhs, nh);
    }
}

static void
nhg_unref(struct syncd_apply *sa, struct sa_nhg *nhg)
{
    ovs_assert(nhg->refcnt > 0);
    if (!--nhg->refcnt && !nhg->in_gc) {
        nhg->in_gc = true;
        APPEND(sa->gc_nhgs, sa->n_gc_nhgs, sa->allocated_gc_nhgs, nhg);
    }
}

static uint32_t
members_hash(const struct sa_member *m, size_t n)
{
    uint32_t hash = n;

    for (size_t i = 0; i < n; i++) {
        hash = hash_pointer(m[i].nh, hash_int(m[i].weight, hash));
    }
    return hash;
}

static int
member_compare(const void *a_, const void *b_)
{
    const struct sa_member *a = a_;
    const struct sa_member *b = b_;

    if (a->nh->oid != b->nh->oid) {
        return a->nh->oid < b->nh->oid ? -1 : 1;
    }
    return a->weight < b->weight ? -1 : a->weight > b->weight;
}

/* Removes 'n' group members with ids 'ids' from the switch.  Returns the
 * first failure, if any. */
static sai_status_t
members_remove(struct syncd_apply *sa, const sai_object_id_t *ids, size_t n)
{
    sai_status_t *statuses = xmalloc(n * sizeof *statuses);
    sai_status_t status = SAI_STATUS_SUCCESS;

    if (sa->nhg_api->remove_next_hop_group_members(
            n, ids, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, statuses)) {
        for (size_t i = 0; i < n; i++) {
            if (statuses[i]) {
                status = statuses[i];
                break;
            }
        }
    }
    free(statuses);
    return status;
}

/* Creates a group with the 'n' members in 'm' (sorted, each holding a
 * next-hop reference that the group takes over).  Returns it with one
 * reference, or NULL with '*status' set (the references stay with the
 * caller). */
static struct sa_nhg *
nhg_create(struct syncd_apply *sa, const struct sa_member *m, size_t n,
           uint32_t hash, sai_status_t *status)
{
    sai_attribute_t type_attr = {
        .id = SAI_NEXT_HOP_GROUP_ATTR_TYPE,
        .value.s32 = SAI_NEXT_HOP_GROUP_TYPE_ECMP,
    };
    sai_object_id_t oid;

    *status = sa->nhg_api->create_next_hop_group(&oid, sa->sw, 1,
                                                 &type_attr);
    if (*status == SAI_STATUS_INSUFFICIENT_RESOURCES && apply_has_work(sa)
        && !sa->flushing) {
        syncd_apply_flush(sa);
        *status = sa->nhg_api->create_next_hop_group(&oid, sa->sw, 1,
                                                     &type_attr);
    }
    if (*status) {
        return NULL;
    }

    sai_attribute_t *attrs = xmalloc(3 * n * sizeof *attrs);
    const sai_attribute_t **attr_ptrs = xmalloc(n * sizeof *attr_ptrs);
    uint32_t *attr_counts = xmalloc(n * sizeof *attr_counts);
    sai_object_id_t *ids = xzalloc(n * sizeof *ids);
    sai_status_t *statuses = xmalloc(n * sizeof *statuses);
    for (size_t i = 0; i < n; i++) {
        sai_attribute_t *a = &attrs[3 * i];

        a[0].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_GROUP_ID;
        a[0].value.oid = oid;
        a[1].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID;
        a[1].value.oid = m[i].nh->oid;
        a[2].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT;
        a[2].value.u32 = m[i].weight;
        attr_ptrs[i] = a;
        attr_counts[i] = 3;
    }
    *status = sa->nhg_api->create_next_hop_group_members(
        sa->sw, n, attr_counts, attr_ptrs,
        SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, ids, statuses);

    struct sa_nhg *nhg = NULL;
    if (*status) {
        /* Undo: remove the members that were created, then the group. */
        size_t n_created = 0;

        for (size_t i = 0; i < n; i++) {
            if (!statuses[i]) {
                ids[n_created++] = ids[i];
            } else if (statuses[i] != SAI_STATUS_NOT_EXECUTED) {
                *status = statuses[i];
            }
        }
        if (n_created) {
            members_remove(sa, ids, n_created);
        }
        sa->nhg_api->remove_next_hop_group(oid);
    } else {
        nhg = xzalloc(sizeof *nhg + n * sizeof *nhg->members);
        nhg->oid = oid;
        nhg->refcnt = 1;
        nhg->n = n;
        for (size_t i = 0; i < n; i++) {
            nhg->members[i] = m[i];
            nhg->members[i].oid = ids[i];
        }
        hmap_insert(&sa->nhgs, &nhg->node, hash);
        hmap_insert(&sa->nhgs_by_oid, &nhg->oid_node, oid_hash(oid));
        sa->stats.nhg_created++;
        COVERAGE_INC(syncd_apply_nhg_create);
    }
    free(attrs);
    free(attr_ptrs);
    free(attr_counts);
    free(ids);
    free(statuses);
    return nhg;
}

/* Removes next-hop group 'nhg', unused, from the switch and frees it.
 * Returns false (keeping it) if the switch refused. */
static bool
nhg_destroy(struct syncd_apply *sa, struct sa_nhg *nhg)
{
    sai_object_id_t *ids = xmalloc(nhg->n * sizeof *ids);
    sai_status_t status;

    for (size_t i = 0; i < nhg->n; i++) {
        ids[i] = nhg->members[i].oid;
    }
    status = members_remove(sa, ids, nhg->n);
    free(ids);
    if (!status) {
        status = sa->nhg_api->remove_next_hop_group(nhg->oid);
    }
    if (status) {
        VLOG_WARN_RL(&rl, "cannot remove next-hop group 0x%"PRIx64": %s",
                     nhg->oid, sai_util_status_name(status));
        return false;
    }

    for (size_t i = 0; i < nhg->n; i++) {
        nh_unref(sa, nhg->members[i].nh);
    }
    hmap_remove(&sa->nhgs, &nhg->node);
    hmap_remove(&sa->nhgs_by_oid, &nhg->oid_node);
    free(nhg);
    sa->stats.nhg_removed++;
    COVERAGE_INC(syncd_apply_nhg_remove);
    return true;
}

/* Removes next hop 'nh', unused, from the switch and frees it.  Returns
 * false (keeping it) if the switch refused. */
static bool
nh_destroy(struct syncd_apply *sa, struct sa_nh *nh)
{
    sai_status_t status = sa->nh_api->remove_next_hop(nh->oid);

    if (status) {
        VLOG_WARN_RL(&rl, "cannot remove next hop 0x%"PRIx64": %s",
                     nh->oid, sai_util_status_name(status));
        return false;
    }
    hmap_remove(&sa->nhs, &nh->node);
    hmap_remove(&sa->nhs_by_oid, &nh->oid_node);
    free(nh);
    sa->stats.nh_removed++;
    COVERAGE_INC(syncd_apply_nh_remove);
    return true;
}

/* Removes the groups, then the next hops, that lost their last reference
 * (and did not get a new one since). */
static void
apply_gc(struct syncd_apply *sa)
{
    for (size_t i = 0; i < sa->n_gc_nhgs; i++) {
        struct sa_nhg *nhg = sa->gc_nhgs[i];

        nhg->in_gc = false;
        if (!nhg->refcnt) {
            nhg_destroy(sa, nhg);
        }
    }
    sa->n_gc_nhgs = 0;

    for (size_t i = 0; i < sa->n_gc_nhs; i++) {
        struct sa_nh *nh = sa->gc_nhs[i];

        nh->in_gc = false;
        if (!nh->refcnt) {
            nh_destroy(sa, nh);
        }
    }
    sa->n_gc_nhs = 0;
}

static void
target_unref(struct syncd_apply *sa, const struct sa_target *t)
{
    if (t->kind == SA_T_NH) {
        nh_unref(sa, t->ptr);
    } else if (t->kind == SA_T_NHG) {
        nhg_unref(sa, t->ptr);
    }
}

static sai_object_id_t
target_oid(const struct sa_target *t)
{
    switch (t->kind) {
    case SA_T_NH:
        return ((const struct sa_nh *) t->ptr)->oid;
    case SA_T_NHG:
        return ((const struct sa_nhg *) t->ptr)->oid;
    case SA_T_RIF:
        return ((const struct sa_rif *) t->ptr)->oid;
    case SA_T_NONE:
    default:
        return SAI_NULL_OBJECT_ID;
    }
}

/* Resolves the next hops of SET operation 'op' in 'vr' into '*t', holding
 * a reference, creating next hops, groups and interfaces as needed. */
static sai_status_t
resolve_target(struct syncd_apply *sa, struct sa_vr *vr,
               const struct syncd_route_op *op, struct sa_target *t)
{
    sai_status_t status = SAI_STATUS_SUCCESS;

    t->kind = SA_T_NONE;
    t->ptr = NULL;
    if (op->action != SAI_PACKET_ACTION_FORWARD || !op->n_nexthops) {
        return SAI_STATUS_SUCCESS;
    }

    /* A connected route: the only next hop is an interface. */
    for (size_t i = 0; i < op->n_nexthops; i++) {
        const struct syncd_nexthop *nh = &op->nexthops[i];

        if (!nh->has_gateway) {
            if (op->n_nexthops != 1 || !nh->ifname || !nh->ifname[0]) {
                return SAI_STATUS_INVALID_PARAMETER;
            }
            struct sa_rif *rif = rif_get(sa, vr, nh->ifname, &status);
            if (!rif) {
                return status;
            }
            t->kind = SA_T_RIF;
            t->ptr = rif;
            return SAI_STATUS_SUCCESS;
        }
    }

    /* Gateways: a next hop reference for each. */
    if (op->n_nexthops > sa->allocated_scratch) {
        sa->allocated_scratch = op->n_nexthops;
        sa->scratch = xrealloc(sa->scratch,
                               sa->allocated_scratch * sizeof *sa->scratch);
    }
    struct sa_member *m = sa->scratch;
    size_t n = 0;
    for (size_t i = 0; i < op->n_nexthops; i++) {
        const struct syncd_nexthop *snh = &op->nexthops[i];
        struct sa_rif *rif = rif_get(sa, vr, snh->ifname, &status);
        struct sa_nh *nh = rif ? nh_get(sa, &snh->gateway, rif, &status)
                               : NULL;

        if (!nh) {
            for (size_t j = 0; j < n; j++) {
                nh_unref(sa, m[j].nh);
            }
            return status;
        }
        m[n].nh = nh;
        m[n].weight = MAX(snh->weight, 1);
        m[n].oid = SAI_NULL_OBJECT_ID;
        n++;
    }

    /* Sort, and merge the same next hop given twice. */
    qsort(m, n, sizeof *m, member_compare);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && m[k - 1].nh == m[i].nh) {
            m[k - 1].weight += m[i].weight;
            nh_unref(sa, m[i].nh);
        } else {
            m[k++] = m[i];
        }
    }
    n = k;

    if (n == 1) {
        t->kind = SA_T_NH;
        t->ptr = m[0].nh;
        return SAI_STATUS_SUCCESS;
    }

    /* Share an existing group with the same members, or create one. */
    uint32_t hash = members_hash(m, n);
    struct sa_nhg *nhg;
    HMAP_FOR_EACH_WITH_HASH (nhg, node, hash, &sa->nhgs) {
        if (nhg->n == n) {
            size_t i;

            for (i = 0; i < n; i++) {
                if (nhg->members[i].nh != m[i].nh
                    || nhg->members[i].weight != m[i].weight) {
                    break;
                }
            }
            if (i == n) {
                nhg->refcnt++;
                for (i = 0; i < n; i++) {
                    nh_unref(sa, m[i].nh);
                }
                t->kind = SA_T_NHG;
                t->ptr = nhg;
                return SAI_STATUS_SUCCESS;
            }
        }
    }
    nhg = nhg_create(sa, m, n, hash, &status);
    if (!nhg) {
        for (size_t i = 0; i < n; i++) {
            nh_unref(sa, m[i].nh);
        }
        return status;
    }
    t->kind = SA_T_NHG;
    t->ptr = nhg;
    return SAI_STATUS_SUCCESS;
}

/* ---- Routes and operations ---------------------------------------------- */

static struct sa_route *
route_find(const struct syncd_apply *sa, uint16_t vr,
           const struct fib_prefix *prefix, uint32_t hash)
{
    struct sa_route *r;

    HMAP_FOR_EACH_WITH_HASH (r, node, hash, &sa->routes) {
        if (r->vr == vr && fib_prefix_equals(&r->prefix, prefix)) {
            return r;
        }
    }
    return NULL;
}

static bool
pending_has(const struct syncd_apply *sa, uint16_t vr,
            const struct fib_prefix *prefix, uint32_t hash)
{
    const struct sa_op *op;

    HMAP_FOR_EACH_WITH_HASH (op, node, hash, &sa->pending) {
        if (op->vr == vr && fib_prefix_equals(&op->prefix, prefix)) {
            return true;
        }
    }
    return false;
}

/* Reports an outcome, counting it. */
static void
report(struct syncd_apply *sa, enum syncd_op_type type,
       const struct fib_prefix *prefix, const struct uuid *origin,
       int64_t seq, sai_status_t status, bool internal)
{
    if (status) {
        sa->stats.failed++;
        sa->stats.errors[syncd_status_code(status)]++;
        COVERAGE_INC(syncd_apply_route_error);
    } else {
        sa->stats.ok++;
        COVERAGE_INC(syncd_apply_route_ok);
    }
    if (!internal && sa->cb) {
        struct syncd_route_result r = {
            .type = type,
            .prefix = prefix,
            .origin = origin,
            .seq = seq,
            .status = status,
        };
        sa->cb(&r, sa->cb_aux);
    }
}

static void
route_entry_init(const struct syncd_apply *sa, uint16_t vr,
                 const struct fib_prefix *prefix, sai_route_entry_t *e)
{
    e->switch_id = sa->sw;
    e->vr_id = sa->vr_array[vr]->oid;
    syncd_prefix_to_sai(prefix, &e->destination);
}

/* Queues a new operation for (vr, prefix) and returns it. */
static struct sa_op *
op_queue(struct syncd_apply *sa, const struct syncd_route_op *sop,
         uint16_t vr, uint32_t hash, enum sa_sai_op sai_op, bool internal)
{
    struct sa_op *op = &sa->ops[sa->n_ops++];

    op->origin = sop->origin;
    op->seq = sop->seq;
    op->prefix = sop->prefix;
    op->vr = vr;
    op->type = sop->type;
    op->sai_op = sai_op;
    op->action = sop->action;
    op->internal = internal;
    op->set_nh = op->set_action = -1;
    op->bulk_idx = 0;
    op->target.kind = SA_T_NONE;
    op->target.ptr = NULL;
    op->route = NULL;
    op->status = SAI_STATUS_NOT_EXECUTED;
    hmap_insert(&sa->pending, &op->node, hash);
    return op;
}

/* Flushes when one bulk is full. */
static void
maybe_flush(struct syncd_apply *sa)
{
    if (sa->n_c >= sa->max_bulk || sa->n_r >= sa->max_bulk
        || sa->n_s_ops >= sa->max_bulk) {
        syncd_apply_flush(sa);
    }
}

/* Queues the removal of the route that DEL operation 'sop' names, or
 * reports at once that there is none ('internal' for an orphan retry). */
static void
submit_del(struct syncd_apply *sa, const struct syncd_route_op *sop,
           bool internal)
{
    struct sa_vr *vr = vr_find(sa, sop->vrf);

    if (!vr) {
        sa->stats.noops++;
        report(sa, sop->type, &sop->prefix, &sop->origin, sop->seq,
               SAI_STATUS_SUCCESS, internal);
        return;
    }

    uint32_t hash = route_hash(vr->index, &sop->prefix);
    if (pending_has(sa, vr->index, &sop->prefix, hash)) {
        syncd_apply_flush(sa);
    }
    struct sa_route *route = route_find(sa, vr->index, &sop->prefix, hash);
    if (!route) {
        sa->stats.noops++;
        COVERAGE_INC(syncd_apply_noop);
        report(sa, sop->type, &sop->prefix, &sop->origin, sop->seq,
               SAI_STATUS_SUCCESS, internal);
        return;
    }

    struct sa_op *op = op_queue(sa, sop, vr->index, hash, SA_OP_REMOVE,
                                internal);
    op->route = route;
    op->bulk_idx = sa->n_r;
    route_entry_init(sa, vr->index, &sop->prefix, &sa->r_entries[sa->n_r]);
    sa->r_ops[sa->n_r++] = op - sa->ops;
    maybe_flush(sa);
}

/* Resolves the next hops of SET operation 'sop' and queues the creation of
 * its route, or the attribute sets that change it; reports at once if
 * nothing changes or the next hops cannot be had. */
static void
submit_set(struct syncd_apply *sa, const struct syncd_route_op *sop)
{
    sai_status_t status = SAI_STATUS_SUCCESS;
    struct sa_vr *vr = vr_get(sa, sop->vrf, &status);

    if (!vr) {
        report(sa, sop->type, &sop->prefix, &sop->origin, sop->seq,
               status, false);
        return;
    }
    if (sop->action != SAI_PACKET_ACTION_FORWARD
        && sop->action != SAI_PACKET_ACTION_DROP
        && sop->action != SAI_PACKET_ACTION_TRAP) {
        report(sa, sop->type, &sop->prefix, &sop->origin, sop->seq,
               SAI_STATUS_INVALID_PARAMETER, false);
        return;
    }

    uint32_t hash = route_hash(vr->index, &sop->prefix);
    if (pending_has(sa, vr->index, &sop->prefix, hash)) {
        syncd_apply_flush(sa);
    }

    struct sa_target t;
    status = resolve_target(sa, vr, sop, &t);
    if (status) {
        report(sa, sop->type, &sop->prefix, &sop->origin, sop->seq,
               status, false);
        return;
    }

    /* Look the route up only now: resolving may have flushed. */
    struct sa_route *route = route_find(sa, vr->index, &sop->prefix, hash);
    if (!route) {
        struct sa_op *op = op_queue(sa, sop, vr->index, hash, SA_OP_CREATE,
                                    false);
        sai_attribute_t *a = &sa->c_attrs[2 * sa->n_c];

        op->target = t;
        op->bulk_idx = sa->n_c;
        route_entry_init(sa, vr->index, &sop->prefix,
                         &sa->c_entries[sa->n_c]);
        a[0].id = SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION;
        a[0].value.s32 = sop->action;
        a[1].id = SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID;
        a[1].value.oid = target_oid(&t);
        sa->c_attr_ptrs[sa->n_c] = a;
        sa->c_attr_count[sa->n_c] = 2;
        sa->c_ops[sa->n_c++] = op - sa->ops;
        maybe_flush(sa);
        return;
    }

    route->flags &= ~SA_ROUTE_ORPHAN;
    bool same_target = route->kind == t.kind && route->target == t.ptr;
    bool same_action = route->action == sop->action;
    if (same_target && same_action) {
        target_unref(sa, &t);
        sa->stats.noops++;
        COVERAGE_INC(syncd_apply_noop);
        report(sa, sop->type, &sop->prefix, &sop->origin, sop->seq,
               SAI_STATUS_SUCCESS, false);
        return;
    }

    struct sa_op *op = op_queue(sa, sop, vr->index, hash, SA_OP_SET, false);
    op->route = route;
    op->target = t;
    if (!same_target) {
        sai_attribute_t *a = &sa->s_attrs[sa->n_s];

        a->id = SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID;
        a->value.oid = target_oid(&t);
        route_entry_init(sa, vr->index, &sop->prefix,
                         &sa->s_entries[sa->n_s]);
        op->set_nh = sa->n_s++;
    }
    if (!same_action) {
        sai_attribute_t *a = &sa->s_attrs[sa->n_s];

        a->id = SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION;
        a->value.s32 = sop->action;
        route_entry_init(sa, vr->index, &sop->prefix,
                         &sa->s_entries[sa->n_s]);
        op->set_action = sa->n_s++;
    }
    sa->n_s_ops++;
    maybe_flush(sa);
}

static void
submit__(struct syncd_apply *sa, const struct syncd_route_op *op,
         bool internal)
{
    sa->stats.ops[op->type == SYNCD_OP_DEL]++;
    if (op->type == SYNCD_OP_DEL) {
        submit_del(sa, op, internal);
    } else {
        submit_set(sa, op);
    }
}

/* Submits route operation 'op'.  Its result comes through the result
 * callback: at once if no SAI route call is needed, otherwise from the
 * flush that sends its bulk.  Must not be called from the callback. */
void
syncd_apply_submit(struct syncd_apply *sa, const struct syncd_route_op *op)
{
    ovs_assert(!sa->flushing);
    submit__(sa, op, false);
}

/* Marks 'route', whose removal failed, for a later retry. */
static void
orphan_add(struct syncd_apply *sa, struct sa_route *route)
{
    if (!(route->flags & SA_ROUTE_ORPHAN)) {
        struct sa_orphan o = { .vr = route->vr, .prefix = route->prefix };

        route->flags |= SA_ROUTE_ORPHAN;
        APPEND(sa->orphans, sa->n_orphans, sa->allocated_orphans, o);
        if (sa->n_orphans == 1) {
            sa->next_retry = time_msec() + ORPHAN_RETRY_MSEC;
        }
        sa->stats.orphans++;
        COVERAGE_INC(syncd_apply_orphan);
    }
}

static void
route_destroy(struct syncd_apply *sa, struct sa_route *route)
{
    struct sa_target t = { .kind = route->kind, .ptr = route->target };

    target_unref(sa, &t);
    hmap_remove(&sa->routes, &route->node);
    free(route);
}

/* Sends every queued operation to the switch, removals first, then
 * creations, then sets; reports their results; then removes next hops and
 * groups that lost their last user. */
void
syncd_apply_flush(struct syncd_apply *sa)
{
    if (sa->flushing) {
        return;
    }
    if (!sa->n_ops) {
        apply_gc(sa);
        return;
    }
    sa->flushing = true;

    long long int start = time_usec();
    if (sa->timer) {
        perf_timer_start(sa->timer);
    }

    /* Removals. */
    if (sa->n_r) {
        sa->route_api->remove_route_entries(
            sa->n_r, sa->r_entries, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
            sa->r_statuses);
        sa->stats.bulks[ASIC_SIM_OP_REMOVE]++;
        sa->stats.route_ops[ASIC_SIM_OP_REMOVE] += sa->n_r;
        COVERAGE_INC(syncd_apply_bulk);
        for (uint32_t i = 0; i < sa->n_r; i++) {
            struct sa_op *op = &sa->ops[sa->r_ops[i]];

            op->status = sa->r_statuses[i];
            if (!op->status || op->status == SAI_STATUS_ITEM_NOT_FOUND) {
                route_destroy(sa, op->route);
                op->status = SAI_STATUS_SUCCESS;
            } else {
                orphan_add(sa, op->route);
            }
            op->route = NULL;
        }
    }

    /* Creations. */
    if (sa->n_c) {
        sa->route_api->create_route_entries(
            sa->n_c, sa->c_entries, sa->c_attr_count, sa->c_attr_ptrs,
            SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, sa->c_statuses);
        sa->stats.bulks[ASIC_SIM_OP_CREATE]++;
        sa->stats.route_ops[ASIC_SIM_OP_CREATE] += sa->n_c;
        COVERAGE_INC(syncd_apply_bulk);
        for (uint32_t i = 0; i < sa->n_c; i++) {
            struct sa_op *op = &sa->ops[sa->c_ops[i]];

            op->status = sa->c_statuses[i];
            if (!op->status) {
                struct sa_route *r = xmalloc(sizeof *r);

                r->prefix = op->prefix;
                r->vr = op->vr;
                r->action = op->action;
                r->kind = op->target.kind;
                r->flags = 0;
                r->target = op->target.ptr;
                hmap_insert(&sa->routes, &r->node, op->node.hash);
            } else {
                target_unref(sa, &op->target);
            }
            op->target.kind = SA_T_NONE;
        }
    }

    /* Attribute sets. */
    if (sa->n_s) {
        sa->route_api->set_route_entries_attribute(
            sa->n_s, sa->s_entries, sa->s_attrs,
            SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR, sa->s_statuses);
        sa->stats.bulks[ASIC_SIM_OP_SET]++;
        sa->stats.route_ops[ASIC_SIM_OP_SET] += sa->n_s;
        COVERAGE_INC(syncd_apply_bulk);
    }
    for (size_t i = 0; i < sa->n_ops; i++) {
        struct sa_op *op = &sa->ops[i];

        if (op->sai_op != SA_OP_SET) {
            continue;
        }
        struct sa_route *r = op->route;
        op->status = SAI_STATUS_SUCCESS;
        if (op->set_nh >= 0) {
            sai_status_t st = sa->s_statuses[op->set_nh];

            if (!st) {
                struct sa_target old = { .kind = r->kind,
                                         .ptr = r->target };

                target_unref(sa, &old);
                r->kind = op->target.kind;
                r->target = op->target.ptr;
            } else {
                target_unref(sa, &op->target);
                op->status = st;
            }
        } else {
            target_unref(sa, &op->target);
        }
        op->target.kind = SA_T_NONE;
        if (op->set_action >= 0) {
            sai_status_t st = sa->s_statuses[op->set_action];

            if (!st) {
                r->action = op->action;
            } else if (!op->status) {
                op->status = st;
            }
        }
    }

    if (sa->timer) {
        perf_timer_inc(sa->timer, sa->n_ops);
        perf_timer_pause(sa->timer);
    }
    sa->stats.flushes++;
    sa->stats.busy_usec += time_usec() - start;

    /* Report, in submission order.  The queue is emptied first so that the
     * callback sees a consistent module. */
    size_t n_ops = sa->n_ops;
    sa->n_ops = 0;
    sa->n_c = sa->n_r = sa->n_s = sa->n_s_ops = 0;
    hmap_clear(&sa->pending);
    for (size_t i = 0; i < n_ops; i++) {
        const struct sa_op *op = &sa->ops[i];

        if (op->internal) {
            sa->stats.orphan_retries++;
        }
        report(sa, op->type, &op->prefix, &op->origin, op->seq, op->status,
               op->internal);
    }
    sa->flushing = false;

    apply_gc(sa);
}

/* Returns the number of queued operations. */
size_t
syncd_apply_n_pending(const struct syncd_apply *sa)
{
    return sa->n_ops;
}

/* Retries failed removals when it is time. */
void
syncd_apply_run(struct syncd_apply *sa)
{
    if (!sa->n_orphans || time_msec() < sa->next_retry) {
        return;
    }

    struct sa_orphan *orphans = sa->orphans;
    size_t n = sa->n_orphans;
    sa->orphans = NULL;
    sa->n_orphans = sa->allocated_orphans = 0;
    for (size_t i = 0; i < n; i++) {
        const struct sa_orphan *o = &orphans[i];
        uint32_t hash = route_hash(o->vr, &o->prefix);
        struct sa_route *r = route_find(sa, o->vr, &o->prefix, hash);

        if (r && r->flags & SA_ROUTE_ORPHAN) {
            struct syncd_route_op op = {
                .type = SYNCD_OP_DEL,
                .vrf = sa->vr_array[o->vr]->name,
                .prefix = o->prefix,
            };

            r->flags &= ~SA_ROUTE_ORPHAN;
            submit__(sa, &op, true);
        }
    }
    free(orphans);
    syncd_apply_flush(sa);
    if (sa->n_orphans) {
        sa->next_retry = time_msec() + ORPHAN_RETRY_MSEC;
    }
}

void
syncd_apply_wait(struct syncd_apply *sa)
{
    if (sa->n_orphans) {
        poll_timer_wait_until(sa->next_retry);
    }
}

/* ---- Lifecycle ---------------------------------------------------------- */

static void
alloc_bulks(struct syncd_apply *sa, uint32_t max_bulk)
{
    sa->max_bulk = max_bulk;
    sa->ops = xrealloc(sa->ops, 3 * max_bulk * sizeof *sa->ops);
    sa->c_entries = xrealloc(sa->c_entries,
                             max_bulk * sizeof *sa->c_entries);
    sa->c_attr_count = xrealloc(sa->c_attr_count,
                                max_bulk * sizeof *sa->c_attr_count);
    sa->c_attrs = xrealloc(sa->c_attrs, 2 * max_bulk * sizeof *sa->c_attrs);
    sa->c_attr_ptrs = xrealloc(sa->c_attr_ptrs,
                               max_bulk * sizeof *sa->c_attr_ptrs);
    sa->c_statuses = xrealloc(sa->c_statuses,
                              max_bulk * sizeof *sa->c_statuses);
    sa->c_ops = xrealloc(sa->c_ops, max_bulk * sizeof *sa->c_ops);
    sa->r_entries = xrealloc(sa->r_entries,
                             max_bulk * sizeof *sa->r_entries);
    sa->r_statuses = xrealloc(sa->r_statuses,
                              max_bulk * sizeof *sa->r_statuses);
    sa->r_ops = xrealloc(sa->r_ops, max_bulk * sizeof *sa->r_ops);
    sa->s_entries = xrealloc(sa->s_entries,
                             2 * max_bulk * sizeof *sa->s_entries);
    sa->s_attrs = xrealloc(sa->s_attrs, 2 * max_bulk * sizeof *sa->s_attrs);
    sa->s_statuses = xrealloc(sa->s_statuses,
                              2 * max_bulk * sizeof *sa->s_statuses);
}

static sai_status_t
query_apis(struct syncd_apply *sa)
{
    static const struct {
        sai_api_t api;
        size_t offset;
    } apis[] = {
#define API(ID, MEMBER) { ID, offsetof(struct syncd_apply, MEMBER) }
        API(SAI_API_SWITCH, switch_api),
        API(SAI_API_VIRTUAL_ROUTER, vr_api),
        API(SAI_API_ROUTER_INTERFACE, rif_api),
        API(SAI_API_NEXT_HOP, nh_api),
        API(SAI_API_NEXT_HOP_GROUP, nhg_api),
        API(SAI_API_ROUTE, route_api),
#undef API
    };

    for (size_t i = 0; i < ARRAY_SIZE(apis); i++) {
        void **p = (void **) ((char *) sa + apis[i].offset);
        sai_status_t status = sai_api_query(apis[i].api, p);

        if (status) {
            return status;
        }
    }
    return SAI_STATUS_SUCCESS;
}

/* Creates an apply step with a new simulated switch configured by
 * 'options'.  Returns NULL and a malloc()'d message in '*errorp' if the
 * switch cannot be created. */
struct syncd_apply *
syncd_apply_create(const struct syncd_apply_options *options, char **errorp)
{
    struct syncd_apply *sa = xzalloc(sizeof *sa);
    sai_attribute_t attrs[ASIC_SIM_N_RESOURCES + 1];
    uint32_t n_attrs = 0;
    sai_status_t status;

    *errorp = NULL;

    /* The library may already be initialized, by another instance (tests)
     * or a host; that is fine. */
    sai_api_initialize(0, NULL);
    status = query_apis(sa);
    if (status) {
        *errorp = xasprintf("SAI API query failed: %s",
                            sai_util_status_name(status));
        free(sa);
        return NULL;
    }

    for (int i = 0; i < ASIC_SIM_N_RESOURCES; i++) {
        if (options->capacity[i]) {
            attrs[n_attrs].id = ASIC_SIM_SWITCH_ATTR_IPV4_ROUTE_CAPACITY + i;
            attrs[n_attrs].value.u32 = options->capacity[i];
            n_attrs++;
        }
    }
    if (options->n_ports) {
        attrs[n_attrs].id = ASIC_SIM_SWITCH_ATTR_PORT_NUMBER;
        attrs[n_attrs].value.u32 = options->n_ports;
        n_attrs++;
    }
    status = sa->switch_api->create_switch(&sa->sw, n_attrs, attrs);
    if (status) {
        *errorp = xasprintf("cannot create the switch: %s",
                            sai_util_status_name(status));
        free(sa);
        return NULL;
    }

    sai_attribute_t attr = { .id = SAI_SWITCH_ATTR_PORT_NUMBER };
    sa->switch_api->get_switch_attribute(sa->sw, 1, &attr);
    sa->n_ports = attr.value.u32;
    sa->ports = xcalloc(MAX(sa->n_ports, 1), sizeof *sa->ports);
    attr.id = SAI_SWITCH_ATTR_PORT_LIST;
    attr.value.objlist.count = sa->n_ports;
    attr.value.objlist.list = sa->ports;
    status = sa->switch_api->get_switch_attribute(sa->sw, 1, &attr);
    if (status || !sa->n_ports) {
        *errorp = xasprintf("cannot list the switch's ports: %s",
                            sai_util_status_name(status));
        sa->switch_api->remove_switch(sa->sw);
        free(sa->ports);
        free(sa);
        return NULL;
    }

    hmap_init(&sa->vrs);
    hmap_init(&sa->rifs);
    hmap_init(&sa->rifs_by_oid);
    hmap_init(&sa->nhs);
    hmap_init(&sa->nhs_by_oid);
    hmap_init(&sa->nhgs);
    hmap_init(&sa->nhgs_by_oid);
    hmap_init(&sa->routes);
    hmap_init(&sa->pending);
    alloc_bulks(sa, options->max_bulk ? options->max_bulk
                : SYNCD_APPLY_DEFAULT_MAX_BULK);
    sa->cb = options->cb;
    sa->cb_aux = options->cb_aux;
    sa->timer = options->timer;

    /* The default VRF always exists. */
    vr_get(sa, "default", &status);
    return sa;
}

/* Destroys 'sa' and its switch.  Queued operations are dropped without
 * results. */
void
syncd_apply_destroy(struct syncd_apply *sa)
{
    if (!sa) {
        return;
    }

    sa->switch_api->remove_switch(sa->sw);

    struct sa_route *r;
    HMAP_FOR_EACH_POP (r, node, &sa->routes) {
        free(r);
    }
    struct sa_nhg *nhg;
    HMAP_FOR_EACH_POP (nhg, node, &sa->nhgs) {
        free(nhg);
    }
    struct sa_nh *nh;
    HMAP_FOR_EACH_POP (nh, node, &sa->nhs) {
        free(nh);
    }
    struct sa_rif *rif;
    HMAP_FOR_EACH_POP (rif, oid_node, &sa->rifs_by_oid) {
        free(rif->name);
        free(rif);
    }
    for (size_t i = 0; i < sa->n_vrs; i++) {
        free(sa->vr_array[i]->name);
        free(sa->vr_array[i]);
    }
    hmap_destroy(&sa->vrs);
    hmap_destroy(&sa->rifs);
    hmap_destroy(&sa->rifs_by_oid);
    hmap_destroy(&sa->nhs);
    hmap_destroy(&sa->nhs_by_oid);
    hmap_destroy(&sa->nhgs);
    hmap_destroy(&sa->nhgs_by_oid);
    hmap_destroy(&sa->routes);
    hmap_destroy(&sa->pending);
    free(sa->vr_array);
    free(sa->ports);
    free(sa->ops);
    free(sa->c_entries);
    free(sa->c_attr_count);
    free(sa->c_attrs);
    free(sa->c_attr_ptrs);
    free(sa->c_statuses);
    free(sa->c_ops);
    free(sa->r_entries);
    free(sa->r_statuses);
    free(sa->r_ops);
    free(sa->s_entries);
    free(sa->s_attrs);
    free(sa->s_statuses);
    free(sa->scratch);
    free(sa->gc_nhs);
    free(sa->gc_nhgs);
    free(sa->orphans);
    free(sa);
}

/* Sets the result callback. */
void
syncd_apply_set_callback(struct syncd_apply *sa, syncd_apply_result_cb *cb,
                         void *aux)
{
    sa->cb = cb;
    sa->cb_aux = aux;
}

/* Changes the maximum bulk size (flushing first). */
void
syncd_apply_set_max_bulk(struct syncd_apply *sa, uint32_t max_bulk)
{
    syncd_apply_flush(sa);
    alloc_bulks(sa, MAX(max_bulk, 1));
}

/* ---- Introspection ------------------------------------------------------ */

sai_object_id_t
syncd_apply_switch_id(const struct syncd_apply *sa)
{
    return sa->sw;
}

/* Returns the VR of VRF 'vrf', or SAI_NULL_OBJECT_ID if it has none yet. */
sai_object_id_t
syncd_apply_vr_find(const struct syncd_apply *sa, const char *vrf)
{
    const struct sa_vr *vr = vr_find(sa, vrf);

    return vr ? vr->oid : SAI_NULL_OBJECT_ID;
}

/* Stores in '*vr_id' the VR of VRF 'vrf', creating it if needed. */
sai_status_t
syncd_apply_vr_get(struct syncd_apply *sa, const char *vrf,
                   sai_object_id_t *vr_id)
{
    sai_status_t status = SAI_STATUS_SUCCESS;
    const struct sa_vr *vr = vr_get(sa, vrf, &status);

    *vr_id = vr ? vr->oid : SAI_NULL_OBJECT_ID;
    return status;
}

size_t
syncd_apply_n_vrs(const struct syncd_apply *sa)
{
    return sa->n_vrs;
}

/* Returns the name of the VR with index 'i' (in creation order) and stores
 * its id in '*vr_id'. */
const char *
syncd_apply_vr_name(const struct syncd_apply *sa, size_t i,
                    sai_object_id_t *vr_id)
{
    ovs_assert(i < sa->n_vrs);
    *vr_id = sa->vr_array[i]->oid;
    return sa->vr_array[i]->name;
}

size_t
syncd_apply_n_routes(const struct syncd_apply *sa)
{
    return hmap_count(&sa->routes);
}

void
syncd_apply_get_stats(const struct syncd_apply *sa,
                      struct syncd_apply_stats *stats)
{
    *stats = sa->stats;
}

static const struct sa_nh *
nh_by_oid(const struct syncd_apply *sa, sai_object_id_t oid)
{
    const struct sa_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, oid_node, oid_hash(oid), &sa->nhs_by_oid) {
        if (nh->oid == oid) {
            return nh;
        }
    }
    return NULL;
}

static const struct sa_nhg *
nhg_by_oid(const struct syncd_apply *sa, sai_object_id_t oid)
{
    const struct sa_nhg *nhg;

    HMAP_FOR_EACH_WITH_HASH (nhg, oid_node, oid_hash(oid),
                             &sa->nhgs_by_oid) {
        if (nhg->oid == oid) {
            return nhg;
        }
    }
    return NULL;
}

static const struct sa_rif *
rif_by_oid(const struct syncd_apply *sa, sai_object_id_t oid)
{
    const struct sa_rif *rif;

    HMAP_FOR_EACH_WITH_HASH (rif, oid_node, oid_hash(oid),
                             &sa->rifs_by_oid) {
        if (rif->oid == oid) {
            return rif;
        }
    }
    return NULL;
}

/* Appends next hop 'nh' in Asic_Route key form, "GATEWAY@IFNAME" or
 * "GATEWAY" (unnamed interface), to 's'. */
static void
format_nh(const struct sa_nh *nh, struct ds *s)
{
    char buf[SAI_IP_ADDRESS_STRLEN];

    ds_put_cstr(s, sai_util_ip_address_format(&nh->ip, buf));
    if (nh->rif->name[0]) {
        ds_put_format(s, "@%s", nh->rif->name);
    }
}

/* Appends next hop 'nh', as returned by asic_sim_lookup(), to 's' in
 * Asic_Route key form: "GATEWAY@IFNAME", "GATEWAY", "@IFNAME" (connected)
 * or "cpu". */
void
syncd_apply_format_nexthop(const struct syncd_apply *sa,
                           const struct asic_sim_nexthop *nh,
                           struct ds *s)
{
    const struct sa_nh *snh = (nh->next_hop_id
                               ? nh_by_oid(sa, nh->next_hop_id) : NULL);
    if (snh) {
        format_nh(snh, s);
        return;
    }

    const struct sa_rif *rif = nh->rif_id ? rif_by_oid(sa, nh->rif_id) : NULL;
    if (rif) {
        ds_put_format(s, "@%s", rif->name);
    } else if (nh->next_hop_id) {
        ds_put_format(s, "0x%"PRIx64, nh->next_hop_id);
    } else {
        ds_put_cstr(s, "cpu");
    }
}

/* Appends the next hops that 'next_hop_id' (a route's NEXT_HOP_ID) stands
 * for to 's', as "KEY=WEIGHT[,KEY=WEIGHT]...", or "-" for none. */
void
syncd_apply_format_target(const struct syncd_apply *sa,
                          sai_object_id_t next_hop_id, struct ds *s)
{
    const struct sa_nhg *nhg;
    const struct sa_rif *rif;
    const struct sa_nh *nh;

    if (next_hop_id == SAI_NULL_OBJECT_ID) {
        ds_put_char(s, '-');
    } else if ((nh = nh_by_oid(sa, next_hop_id)) != NULL) {
        format_nh(nh, s);
        ds_put_cstr(s, "=1");
    } else if ((nhg = nhg_by_oid(sa, next_hop_id)) != NULL) {
        for (size_t i = 0; i < nhg->n; i++) {
            if (i) {
                ds_put_char(s, ',');
            }
            format_nh(nhg->members[i].nh, s);
            ds_put_format(s, "=%"PRIu32, nhg->members[i].weight);
        }
    } else if ((rif = rif_by_oid(sa, next_hop_id)) != NULL) {
        ds_put_format(s, "@%s=1", rif->name);
    } else {
        ds_put_format(s, "0x%"PRIx64, next_hop_id);
    }
}

/* Returns the next hops that 'next_hop_id' stands for as a JSON object
 * mapping Asic_Route keys to weights. */
struct json *
syncd_apply_target_to_json(const struct syncd_apply *sa,
                           sai_object_id_t next_hop_id)
{
    struct json *obj = json_object_create();
    struct ds key = DS_EMPTY_INITIALIZER;
    const struct sa_nhg *nhg;
    const struct sa_rif *rif;
    const struct sa_nh *nh;

    if (next_hop_id == SAI_NULL_OBJECT_ID) {
        /* Nothing. */
    } else if ((nh = nh_by_oid(sa, next_hop_id)) != NULL) {
        format_nh(nh, &key);
        json_object_put(obj, ds_cstr(&key), json_integer_create(1));
    } else if ((nhg = nhg_by_oid(sa, next_hop_id)) != NULL) {
        for (size_t i = 0; i < nhg->n; i++) {
            ds_clear(&key);
            format_nh(nhg->members[i].nh, &key);
            json_object_put(obj, ds_cstr(&key),
                            json_integer_create(nhg->members[i].weight));
        }
    } else if ((rif = rif_by_oid(sa, next_hop_id)) != NULL) {
        ds_put_format(&key, "@%s", rif->name);
        json_object_put(obj, ds_cstr(&key), json_integer_create(1));
    }
    ds_destroy(&key);
    return obj;
}
