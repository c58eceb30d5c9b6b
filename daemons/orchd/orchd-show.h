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
 * orchd-show: "show ip route" for fibctl, answered from an index of
 * orchd's routes.
 *
 * fibctl sends its command line, from "ip" or "ipv6" on, as the unixctl
 * command "fib/show"; the answer is text close to FRR's "show ip route",
 * or JSON shaped like FRR's "show ip route json".  Every lookup goes
 * through an index: an exact prefix through a (vrf, prefix) skiplist, an
 * address through longest-prefix probing of the same skiplist, lists
 * through ordered range walks.  "detail" fetches the on-demand column
 * Route.counters for the rows it prints, and answers once the fetches are
 * back.
 *
 * Where the routes come from is a source (struct orchd_show_source):
 * orchd's IDL replica of Route with the compound indexes over it
 * (orchd-show-idl.h, idl/route-index.h), or, without a replica, orchd's
 * own route table and its (vrf, prefix) index (orchd-show-table.h).  This
 * module parses, formats and answers; a source looks up, walks and
 * fetches counters.  Whether a route is offloaded comes from the read
 * cache of programmed entries (orchd-cache.h) in both.
 *
 * route/show and route/dump answer from the read cache alone: they work
 * without a replica, on the northbound fast path too.
 */

#ifndef ORCHD_SHOW_H
#define ORCHD_SHOW_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/fib-prefix.h"
#include "uuid.h"

struct orchd_cache;
struct orchd_entry;
struct orchd_show_source;

/* One route as fib/show prints it, whichever source it comes from.  The
 * pointers are the source's, valid during the callback that passes it. */
struct orchd_show_route {
    struct uuid uuid;           /* Its Route row. */
    const char *vrf;            /* VRF name. */
    const struct fib_prefix *prefix; /* Destination. */
    const char *protocol;       /* Route.protocol. */
    int64_t distance;           /* Route.distance, 0 if unset. */
    int64_t metric;             /* Route.metric, 0 if unset. */
    bool has_group;             /* Route.nexthop_group is set... */
    int64_t group;              /* ...to this id. */
    struct orchd_entry *want;   /* The SAI entry orchd resolves it to, or
                                 * NULL if it cannot yet (borrowed). */
    const char *const *counter_keys; /* Route.counters, if fetched... */
    const int64_t *counter_values;   /* ...its values... */
    size_t n_counters;               /* ...and their number. */
};

/* What a query selects. */
enum orchd_show_select {
    ORCHD_SHOW_EXACT,           /* The route of one prefix. */
    ORCHD_SHOW_LPM,             /* The longest prefix containing one. */
    ORCHD_SHOW_LONGER,          /* The prefixes within one, itself too. */
    ORCHD_SHOW_VRF              /* Every route of the VRF. */
};

typedef void orchd_show_route_cb(const struct orchd_show_route *,
                                 void *aux);

/* A source of routes.  Each function is required unless noted. */
struct orchd_show_source_class {
    /* Is 'vrf' known (a Vrf row, or a route in it)? */
    bool (*vrf_exists)(struct orchd_show_source *, const char *vrf);

    /* Calls 'cb' for each route of 'vrf' that 'what' selects with
     * 'prefix' (NULL for ORCHD_SHOW_VRF), in prefix order (IPv4 first).
     * Returns the number of routes. */
    size_t (*select)(struct orchd_show_source *, const char *vrf,
                     enum orchd_show_select what,
                     const struct fib_prefix *prefix,
                     orchd_show_route_cb *cb, void *aux);

    /* Starts fetching Route.counters of the 'n' rows 'rows'; until
     * counters_pending() says they are back, select() passes routes
     * without (or with older) counters. */
    void (*fetch_counters)(struct orchd_show_source *,
                           const struct uuid *rows, size_t n);
    bool (*counters_pending)(struct orchd_show_source *,
                             const struct uuid *rows, size_t n);

    /* The answer that fetched them is sent: they may go.  Optional. */
    void (*forget_counters)(struct orchd_show_source *,
                            const struct uuid *rows, size_t n);

    /* Main loop hooks, and freeing.  'run' and 'wait' are optional. */
    void (*run)(struct orchd_show_source *);
    void (*wait)(struct orchd_show_source *);
    void (*destroy)(struct orchd_show_source *);
};

/* A source: embedded at the start of each source's own state. */
struct orchd_show_source {
    const struct orchd_show_source_class *class;
};

struct orchd_show *orchd_show_create(struct orchd_show_source *,
                                     struct orchd_cache *);
void orchd_show_destroy(struct orchd_show *);
void orchd_show_run(struct orchd_show *);
void orchd_show_wait(struct orchd_show *);

void orchd_show_register_cache_commands(struct orchd_cache *);

#endif /* orchd-show.h */
