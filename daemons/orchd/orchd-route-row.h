/*
 * Copyright (c) 2026 The fibsync authors.
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

#ifndef ORCHD_ROUTE_ROW_H
#define ORCHD_ROUTE_ROW_H 1

/* orchd-route-row: what orchd reads of a Route row, wherever it read it.
 *
 * On the northbound OVSDB path a route comes from a row of orchd's IDL
 * replica of Route, or, without that replica (orchd's --routes-from-file),
 * from the database file at start (orchd-route-file.h) and from a monitor
 * of Route's changes afterwards (orchd-route-monitor.h).  Each reader
 * gives orchd the same view, which orchd resolves into one SAI entry in
 * one place.  The pointers are the reader's, valid during the call that
 * passes the view. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "uuid.h"

struct orchd_route_row {
    struct uuid uuid;           /* The row's UUID. */
    const char *vrf;            /* "vrf". */
    const char *prefix;         /* "prefix", as written. */
    bool blackhole;             /* "blackhole". */
    bool has_group;             /* "nexthop_group" is set... */
    int64_t group;              /* ...to this id. */
    const char *const *nh_keys; /* "nexthops" keys... */
    const int64_t *nh_weights;  /* ...and their weights... */
    size_t n_nexthops;          /* ...in this many pairs. */
    const char *protocol;       /* "protocol" (for "show ip route"). */
    int64_t distance;           /* "distance", 0 if unset. */
    int64_t metric;             /* "metric", 0 if unset. */
};

#endif /* orchd-route-row.h */
