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

#ifndef ROUTE_COMPARE_H
#define ROUTE_COMPARE_H 1

/* route-compare: what route-check compares, without any I/O.
 *
 * Four views of the routes of a switch are fed in, in any order: the
 * Route rows (what zebra selected, resolved as orchd resolves them), the
 * Asic_Route rows (what orchd asked for, and what syncd says it did), the
 * live FIB (syncd's dump) and, optionally, FRR's own RIB.  Each is keyed by
 * (VRF, prefix text): a prefix is compared as the text its row holds, so a
 * Route row with a bad prefix is still reported (as missing from the
 * ASIC), not refused here.
 *
 * Memory stays small at a million routes: one entry of about 100 bytes per
 * (VRF, prefix), VRF names interned, and each distinct forwarding
 * (action and next hops) interned once and shared by every route that has
 * it, so comparing two views of a route is comparing two pointers.
 *
 * Differences are reported one line each, in the words route-check prints
 * (see route_compare_finish()).
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct svec;

/* One next hop: "GATEWAY@IFNAME" (or "GATEWAY", "@IFNAME") and weight. */
struct route_compare_nh {
    const char *key;            /* Next-hop key. */
    int64_t weight;             /* ECMP weight. */
};

/* An interned forwarding: an action and, for "forward", next hops sorted
 * by key.  Equal forwardings are the same object. */
struct route_compare_fwd;

/* Which views route_compare_finish() compares. */
enum route_compare_views {
    ROUTE_COMPARE_FIB = 1 << 0,  /* The live FIB was fed in. */
    ROUTE_COMPARE_FRR = 1 << 1,  /* FRR's RIB was fed in. */
};

struct route_compare *route_compare_create(void);
void route_compare_destroy(struct route_compare *);
void route_compare_reserve(struct route_compare *, size_t n);

const struct route_compare_fwd *route_compare_fwd(
    struct route_compare *, const char *action,
    const struct route_compare_nh *, size_t n, bool lone_weight_is_1);
const char *route_compare_fwd_format(struct route_compare_fwd *);

/* The views, fed in any order, even interleaved. */
void route_compare_route(struct route_compare *, const char *vrf,
                         const char *prefix,
                         const struct route_compare_fwd *);
void route_compare_unresolved(struct route_compare *, const char *vrf,
                              const char *prefix, int64_t group);
void route_compare_asic(struct route_compare *, const char *vrf,
                        const char *prefix,
                        const struct route_compare_fwd *,
                        const char *state, int64_t seq, int64_t applied_seq,
                        const char *error);
void route_compare_fib(struct route_compare *, const char *vrf,
                       const char *prefix, const struct route_compare_fwd *);
void route_compare_frr(struct route_compare *, const char *vrf,
                       const char *prefix);

size_t route_compare_n_asic(const struct route_compare *);
size_t route_compare_n_fib(const struct route_compare *);
size_t route_compare_n_frr(const struct route_compare *);
void route_compare_finish(struct route_compare *, unsigned int views,
                          struct svec *diffs);

#endif /* route-compare.h */
