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
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include "openvswitch/compiler.h"
#include "openvswitch/dynamic-string.h"

/* Called for each route reported. */
typedef void frr_route_json_cb(const char *vrf, const char *prefix,
                               void *aux);

/* What the reader saw. */
struct frr_route_json_stats {
    size_t n_routes;            /* Reported to the callback. */
    size_t n_unselected;        /* Not selected: skipped. */
    size_t n_local;             /* connected, kernel or local: skipped. */
    size_t n_bad;               /* Not a route list or object: skipped. */
};

/* The reader reads FRR's output a byte at a time, keeping only the route
 * object being read: a million routes (about 1 GB of JSON) never make a
 * JSON tree.  Its state: */

/* What a level holds. */
enum frr_route_json_role {
    FRJ_TOP,                    /* The output: prefixes or VRF names. */
    FRJ_VRF,                    /* Under a VRF name: prefixes. */
    FRJ_ROUTES,                 /* Under a prefix: route objects. */
};

/* What comes next at a level. */
enum frr_route_json_expect {
    FRJ_EXPECT_KEY_OR_END,      /* Just opened '{'. */
    FRJ_EXPECT_KEY,             /* After ',' in an object. */
    FRJ_EXPECT_COLON,           /* After a key. */
    FRJ_EXPECT_VALUE_OR_END,    /* Just opened '['. */
    FRJ_EXPECT_VALUE,           /* After ':', or ',' in an array. */
    FRJ_EXPECT_COMMA_OR_END,    /* After a value. */
};

/* What the bytes being read are. */
enum frr_route_json_mode {
    FRJ_MODE_STRUCTURE,         /* Between tokens of the levels. */
    FRJ_MODE_KEY,               /* A key, kept in 'text'. */
    FRJ_MODE_SKIP_STRING,       /* A string value not understood. */
    FRJ_MODE_SCALAR,            /* A number, true, false or null. */
    FRJ_MODE_CAPTURE,           /* A route object, kept in 'text'. */
    FRJ_MODE_SKIP,              /* A container not understood. */
};

/* One open level: the output object, a VRF's object, a prefix's list. */
struct frr_route_json_level {
    char kind;                  /* '{' or '['. */
    enum frr_route_json_role role; /* What it holds. */
    enum frr_route_json_expect expect; /* What comes next. */
    char *key;                  /* Its last key (objects), or NULL. */
};

/* The reader. */
struct frr_route_json_reader {
    bool all_protocols;         /* Report zebra's own routes too. */
    frr_route_json_cb *cb;      /* Gets each route. */
    void *aux;                  /* Its argument. */
    struct frr_route_json_stats stats; /* What it saw. */
    struct frr_route_json_level levels[3]; /* Open levels, outermost
                                            * first. */
    size_t n_levels;            /* Number of 'levels' open. */
    enum frr_route_json_mode mode; /* What the bytes being read are. */
    struct ds text;             /* The key or route object being read. */
    int sub_depth;              /* Nesting in a capture or skip. */
    bool in_string;             /* In a string, in a capture or skip. */
    bool escaped;               /* In a string, after a backslash. */
    bool done;                  /* The output object is closed. */
    bool failed;                /* An error was reported. */
    size_t pos;                 /* Bytes read. */
};

void frr_route_json_init(struct frr_route_json_reader *, bool all_protocols,
                         frr_route_json_cb *, void *aux);
void frr_route_json_destroy(struct frr_route_json_reader *);
char *frr_route_json_feed(struct frr_route_json_reader *, const void *,
                          size_t n) OVS_WARN_UNUSED_RESULT;
char *frr_route_json_finish(struct frr_route_json_reader *,
                            struct frr_route_json_stats *)
    OVS_WARN_UNUSED_RESULT;

char *frr_route_json_parse(const char *text, bool all_protocols,
                           frr_route_json_cb *, void *aux,
                           struct frr_route_json_stats *)
    OVS_WARN_UNUSED_RESULT;
bool frr_route_json_protocol_is_local(const char *protocol);

#endif /* frr-route-json.h */
