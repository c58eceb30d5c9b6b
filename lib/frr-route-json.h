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

#ifndef FRR_ROUTE_JSON_H
#define FRR_ROUTE_JSON_H 1

/* frr-route-json: the routes of FRR's "show ip route json" output.
 *
 * vtysh's "show ip route [vrf NAME|vrf all] json" (and "show ipv6 route")
 * prints, in FRR 8.4 and later, one JSON object: a map from prefix to a
 * list of route objects,
 *
 *   {"10.1.0.0/16": [{"prefix": "10.1.0.0/16", "protocol": "bgp",
 *                     "vrfName": "default", "selected": true,
 *                     "installed": true, "nexthops": [...], ...}], ...}
 *
 * or, with "vrf all", a map from VRF name to such a map.  The reader
 * reports each route that zebra selected and would send over FPM: marked
 * "selected", with a protocol other than "connected", "kernel" and
 * "local" (zebra's own, never sent to fpmsyncd) unless every protocol is
 * asked for.
 *
 * Thread safety: none (no state). */

#include <stdbool.h>
#include <stddef.h>
#include "openvswitch/compiler.h"

/* Called for each route reported. */
typedef void frr_route_json_cb(const char *vrf, const char *prefix,
                               void *aux);

/* What frr_route_json_parse() saw. */
struct frr_route_json_stats {
    size_t n_routes;            /* Reported to the callback. */
    size_t n_unselected;        /* Not selected: skipped. */
    size_t n_local;             /* connected, kernel or local: skipped. */
    size_t n_bad;               /* Not a route object: skipped. */
};

char *frr_route_json_parse(const char *text, bool all_protocols,
                           frr_route_json_cb *, void *aux,
                           struct frr_route_json_stats *)
    OVS_WARN_UNUSED_RESULT;
bool frr_route_json_protocol_is_local(const char *protocol);

#endif /* lib/frr-route-json.h */
