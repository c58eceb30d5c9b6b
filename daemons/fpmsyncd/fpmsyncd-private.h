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

#ifndef FPMSYNCD_PRIVATE_H
#define FPMSYNCD_PRIVATE_H 1

/* fpmsyncd's rib as data: the rib itself, its routes, the kinds of rows
 * and their flags, and the functions of fpmsyncd-rib.c on routes, which
 * its load and the modules above it call.  The parts of the rib
 * (daemons/fpmsyncd/fpmsyncd-rib.h lists them) and the modules that
 * follow its routes (its observers: FIB suppression, Route.status, the
 * northbound fast path) include it; each owns the members and flags
 * marked as its own. */

#include <linux/rtnetlink.h>
#include <stdbool.h>
#include <stdint.h>
#include "daemons/fpmsyncd/fpmsyncd-nexthop.h"
#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "daemons/fpmsyncd/fpmsyncd-vrf.h"
#include "lib/fib-prefix.h"
#include "lib/fpm-route.h"
#include "lib/route-batch.h"
#include "lib/route-key.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"

struct uuid;

/* Kinds of rows: the 'tag' of each 'struct route_batch_entry'. */
enum fpmd_kind {
    FPMD_ROUTE = 1,             /* struct fpmd_route: a Route row. */
    FPMD_NH,                    /* struct fpmd_nh: a Nexthop_Group row. */
    FPMD_VRF,                   /* struct fpmd_vrf: a Vrf row. */
};

/* The 'aux' of each route's 'struct route_batch_entry': on the northbound
 * fast path, the token of its last SET sent to orchd, 1 to 255 in turn (0
 * before the first), which orchd's result echoes (fpmsyncd-zmq.c). */

/* Bits in the 'flags' of each 'struct route_batch_entry'. */
enum {
    FPMD_F_NO_CONTENT = 1 << 0, /* Read from the database and not announced
                                 * by zebra since: its content is known only
                                 * by hash, so it cannot be rewritten. */
    FPMD_F_FOREIGN = 1 << 1,    /* The row's UUID is not the deterministic
                                 * one: it is in the rib's 'foreign'. */
    FPMD_F_SEEN = 1 << 2,       /* Seen in the database load under way. */
    FPMD_F_OFFLOADED = 1 << 3,  /* Offloaded as it is: orchd said so for
                                 * its content (fast path), or its row says
                                 * offload=true (OVSDB path; the row may say
                                 * so, for older content, without it:
                                 * fpmsyncd-offload.h). */

    /* The northbound fast path's (daemons/fpmsyncd/fpmsyncd-zmq.h), routes
     * only. */
    FPMD_F_ZMQ_QUEUED = 1 << 4, /* On its queue: not freed until it leaves
                                 * it. */
    FPMD_F_ZMQ_SENT = 1 << 5,   /* Last sent as a SET: orchd holds it. */
    FPMD_F_ZMQ_RESYNC = 1 << 6, /* Part of the resync under way, not sent
                                 * yet. */

    /* The OVSDB path's, routes only. */
    FPMD_F_STATUS_STALE = 1 << 7, /* What orchd programs of it changed
                                   * with FIB suppression on: its row's
                                   * next update also deletes
                                   * status:offload, which orchd's result
                                   * writes again (fpmsyncd-txn.c). */
    FPMD_F_RECORDED = 1 << 8,   /* Its row says offload=true: it has a
                                 * record in the rib's offload state
                                 * (fpmsyncd-offload.c). */
};

/* A route. */
struct fpmd_route {
    struct route_batch_entry be; /* Its Route row. */
    struct hmap_node node;      /* In 'routes', by fib_prefix_hash() with
                                 * the VRF index as basis. */
    struct fib_prefix prefix;   /* Destination. */
    uint16_t vrf;               /* Index in the rib's VRF table. */
    uint8_t protocol;           /* rtm_protocol. */
    uint8_t type;               /* enum fpm_route_type. */

    /* Route.status on the northbound fast path (fpmsyncd-status.c), in
     * what would otherwise be padding. */
    unsigned int status_want : 2;   /* enum fpmd_status_value: what its
                                     * status should say... */
    unsigned int status_db : 2;     /* ...and what its row says. */
    unsigned int status_queued : 1; /* On the status queue: not freed
                                     * until it leaves it. */
    unsigned int status_held : 1;   /* Taken before its row was written:
                                     * queued again by the row's insert. */

    /* The OVSDB path's FIB suppression (fpmsyncd-txn.c), in the same. */
    unsigned int n_clearing : 8;    /* Transactions in flight that delete
                                     * its row's status:offload: what the
                                     * row says meanwhile is no answer. */

    uint32_t metric;            /* RTA_PRIORITY, 0 if none. */
    uint32_t gen;               /* Generation that last announced it. */
    uint32_t asic_hash;         /* Hash of what orchd programs of it (drop
                                 * or its next hops), as of its last
                                 * fpmd_route_refresh(): a change of its
                                 * protocol or metric alone leaves it
                                 * offloaded. */
    uint32_t row_asic_hash;     /* The same of what its row holds, as of
                                 * the last transaction taken for it or
                                 * the last announcement that left the row
                                 * as it is (a group's members changed):
                                 * on the OVSDB path, an announcement with
                                 * the same is no change for orchd,
                                 * whatever zebra announced in between. */
    struct fpmd_nh *nh;         /* Next hops, or NULL if none. */
    struct ovs_list nh_node;    /* In 'nh->routes', if 'nh'. */
};

/* An observer registered on the rib (fpmd_rib_observe()). */
struct fpmd_rib_watch {
    const struct fpmd_rib_observer *ob; /* Its callbacks. */
    void *aux;                  /* Passed to each. */
};

/* Calls member CB of each observer of RIB with the arguments that follow
 * and the observer's 'aux'. */
#define FPMD_RIB_NOTIFY(RIB, CB, ...)                                   \
    for (size_t i_ = 0; i_ < (RIB)->n_observers; i_++) {                \
        const struct fpmd_rib_watch *w_ = &(RIB)->observers[i_];        \
                                                                        \
        if (w_->ob->CB) {                                               \
            w_->ob->CB(__VA_ARGS__, w_->aux);                           \
        }                                                               \
    }

/* The rib.  Each part owns its members: fpmsyncd-rib.c all but those
 * marked otherwise. */
struct fpmd_rib {
    struct hmap routes;         /* 'struct fpmd_route's. */
    struct fpmd_nh_table nhs;   /* Next-hop objects (fpmsyncd-nexthop.c). */
    struct fpmd_vrf_table vrfs; /* VRFs (fpmsyncd-vrf.c). */
    struct fpmd_rib_watch observers[FPMD_RIB_MAX_OBSERVERS];
                                /* Who follows its routes... */
    size_t n_observers;         /* ...in the first these. */
    struct hmap foreign;        /* 'struct fpmd_foreign's
                                 * (fpmsyncd-rib-rows.c). */
    struct route_batch batch;   /* Rows to write. */
    uint32_t gen;               /* Current generation (zebra session). */
    bool loaded;                /* Database state read since the last
                                 * (re)connection (fpmsyncd-rib-load.c). */
    bool first_load_done;       /* The database was read once (the
                                 * same). */
    bool replay_pending;        /* That first read found routes (fpmsyncd
                                 * restarted), and no reconciliation has
                                 * told since which of them zebra still
                                 * has. */
    bool resolve;               /* Write the members of zebra next-hop
                                 * groups into Route.nexthops. */
    struct fpmd_route *del_deferred; /* The route whose RTM_DELROUTE was
                                 * the last route message from zebra,
                                 * not written or sent yet in case its
                                 * RTM_NEWROUTE follows; NULL if none
                                 * (fpmsyncd-rib.c, "Deferred delete"). */
    long long int del_deferred_until; /* When it goes out anyway (msec,
                                 * monotonic). */
    fpmd_ifname_func *ifname;   /* Interface names. */
    struct fpmd_rib_stats stats; /* Counters, each kept by its part. */
};

/* Routes (fpmsyncd-rib.c). */
uint32_t fpmd_route_hash(uint16_t vrf, const struct fib_prefix *);
struct fpmd_route *fpmd_route_find(const struct fpmd_rib *, uint16_t vrf,
                                   const struct fib_prefix *);
struct fpmd_route *fpmd_route_create(struct fpmd_rib *, struct fpmd_vrf *,
                                     const struct fib_prefix *);
uint32_t fpmd_route_row_hash(const char *protocol, uint32_t metric,
                             uint32_t nhg_id, bool blackhole,
                             uint32_t members_hash);
void fpmd_route_refresh(struct fpmd_rib *, struct fpmd_route *);
void fpmd_route_move(struct fpmd_rib *, struct fpmd_route *,
                     struct fpmd_nh *);
void fpmd_route_maybe_free(struct fpmd_rib *, struct fpmd_route *);

/* Returns the set of next hops 'r' is written with (NULL for none). */
static inline const struct fpmd_nhset *
fpmd_route_set(const struct fpmd_route *r)
{
    return r->nh && r->nh->resolved ? r->nh->set : NULL;
}

/* True if 'r''s row can be written: its content is known and its next
 * hops are resolved. */
static inline bool
fpmd_route_writable(const struct fpmd_route *r)
{
    return (!(r->be.flags & FPMD_F_NO_CONTENT)
            && (!r->nh || r->nh->resolved));
}

/* True if 'r' drops packets. */
static inline bool
fpmd_route_is_blackhole(const struct fpmd_route *r)
{
    const struct fpmd_nhset *set = fpmd_route_set(r);

    return r->type != FPM_ROUTE_UNICAST || (set && set->blackhole);
}

/* Returns the Route.protocol name of 'r'.  zebra sends its connected
 * routes with RTPROT_KERNEL: a route of that protocol whose next hops are
 * all interface-only is called "connected". */
static inline const char *
fpmd_route_protocol(const struct fpmd_route *r,
                    char buf[ROUTE_KEY_PROTO_NAMELEN])
{
    const struct fpmd_nhset *set = fpmd_route_set(r);

    if (r->protocol == RTPROT_KERNEL && set && set->connected) {
        return "connected";
    }
    return route_key_protocol_name(r->protocol, buf);
}

/* Returns the next hops written into 'r''s Route.nexthops: none for a
 * blackhole, none for a route through a zebra next-hop group when the rib
 * does not resolve groups into routes, otherwise its resolved set. */
static inline const struct fpmd_nhset *
fpmd_route_written_set(const struct fpmd_rib *rib,
                       const struct fpmd_route *r)
{
    if (fpmd_route_is_blackhole(r) || (!rib->resolve && r->nh && r->nh->id)) {
        return NULL;
    }
    return fpmd_route_set(r);
}

#endif /* fpmsyncd-private.h */
