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

/*
 * orchd-entry: a route in the shape orchd programs it, as one SAI route
 * entry: (VRF, prefix) → packet action and next hops with weights.
 *
 * Entries are immutable once built and reference counted, so the pending
 * queue, the record of what was written and the read cache can share one.
 */

#ifndef ORCHD_ENTRY_H
#define ORCHD_ENTRY_H 1

#include <stdbool.h>
#include <stdint.h>

#include "lib/fib-prefix.h"
#include "openvswitch/shash.h"
#include "openvswitch/util.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "uuid.h"

struct ds;
struct json;

/* SAI_PACKET_ACTION_* as Asic_Route.packet_action spells them. */
enum orchd_action {
    ORCHD_ACTION_FORWARD,       /* To the next hops. */
    ORCHD_ACTION_DROP,          /* Blackhole. */
    ORCHD_ACTION_TRAP,          /* To the CPU: no usable next hop. */
};

/* One next hop of an entry. */
struct orchd_entry_nexthop {
    char *key;                  /* "GATEWAY@IFNAME", "GATEWAY" or "@IFNAME"
                                 * (in the entry's block). */
    uint32_t weight;            /* ECMP weight, at least 1. */
    uint32_t key_len;           /* strlen(key). */
};

/* A SAI route entry.  A million of them live in orchd, so it is kept to
 * 88 bytes ahead of its next hops: the prefix's text is formatted when it
 * is written out (fib_prefix_format()), not stored. */
struct orchd_entry {
    struct ovs_refcount ref;    /* Shared by queue, written map, cache. */
    uint32_t hash;              /* Hash of the content (action, nexthops). */
    struct uuid asic_uuid;      /* Asic_Route row UUID, from (vrf, prefix). */
    struct uuid route_uuid;     /* Route row it came from (zero if none). */
    const char *vrf;            /* VRF name (interned: never freed). */
    struct orchd_entry_nexthop *nexthops; /* Sorted by key; empty unless
                                           * FORWARD; in the block the
                                           * entry heads. */
    size_t n_nexthops;          /* Number of 'nexthops'. */
    enum orchd_action action;   /* Packet action. */
    struct fib_prefix prefix;   /* Destination. */
    uint8_t token;              /* On the northbound fast path: the token
                                 * of the SET it came from, which its
                                 * route's result echoes (see
                                 * orchd_bulker_cbs 'done'); 0 otherwise.
                                 * Not content. */
    uint8_t instance;           /* The ASIC instance whose Asic_Route row
                                 * it is.  Not content. */
};
BUILD_ASSERT_DECL(sizeof(struct orchd_entry) <= 88);

const char *orchd_action_to_string(enum orchd_action);
bool orchd_action_from_string(const char *, enum orchd_action *);

void orchd_entry_asic_uuid(int instance, const char *vrf,
                           const struct fib_prefix *, struct uuid *);

/* Where entries live: their ASIC instance, and their VRF names, interned
 * (a handful of names shared by a million entries, so entries cost one
 * pointer for their VRF and compare VRFs by pointer first).  orchd keeps
 * one; the names live as long as it does (results outlive entries). */
struct orchd_entry_space {
    int instance;               /* The ASIC instance. */
    struct ovs_mutex mutex;     /* Guards 'vrf_names'. */
    struct shash vrf_names OVS_GUARDED; /* The names, no data. */
};

void orchd_entry_space_init(struct orchd_entry_space *, int instance);
void orchd_entry_space_destroy(struct orchd_entry_space *);

struct orchd_entry *orchd_entry_create(struct orchd_entry_space *,
                                       const char *vrf,
                                       const struct fib_prefix *,
                                       enum orchd_action,
                                       const char **nh_keys,
                                       const int64_t *nh_weights,
                                       size_t n_nexthops);
struct orchd_entry *orchd_entry_ref(const struct orchd_entry *);
void orchd_entry_unref(struct orchd_entry *);

bool orchd_entry_same_content(const struct orchd_entry *,
                              const struct orchd_entry *);
int orchd_entry_compare_prefix(const struct orchd_entry *,
                               const struct orchd_entry *);

struct json *orchd_entry_to_row(const struct orchd_entry *, int64_t seq);
void orchd_entry_format(const struct orchd_entry *, struct ds *);
const char *orchd_entry_prefix(const struct orchd_entry *,
                               char buf[FIB_PREFIX_STRLEN]);
struct json *orchd_entry_to_json(const struct orchd_entry *);

#endif /* orchd-entry.h */
