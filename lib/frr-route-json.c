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

#include "lib/frr-route-json.h"

#include <string.h>

#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "util.h"

/* Is 'protocol' one of zebra's own, which it never sends over FPM? */
bool
frr_route_json_protocol_is_local(const char *protocol)
{
    return (!strcmp(protocol, "connected") || !strcmp(protocol, "kernel")
            || !strcmp(protocol, "local"));
}

/* Returns member 'name' of object 'o' if it has type 'type', else NULL. */
static const struct json *
member(const struct json *o, const char *name, enum json_type type)
{
    const struct json *v = shash_find_data(json_object(o), name);

    return v && v->type == type ? v : NULL;
}

/* Reports the routes of one prefix: 'routes', FRR's list for 'prefix'.
 * 'vrf' is the VRF the map was under, or NULL if the output was for one
 * VRF (each route then names its own, "default" if it does not). */
static void
parse_prefix(const char *vrf, const char *prefix, const struct json *routes,
             bool all_protocols, frr_route_json_cb *cb, void *aux,
             struct frr_route_json_stats *stats)
{
    const struct json_array *a = json_array(routes);

    for (size_t i = 0; i < a->n; i++) {
        const struct json *r = a->elems[i];
        const struct json *protocol, *vrf_name;

        if (r->type != JSON_OBJECT
            || !(protocol = member(r, "protocol", JSON_STRING))) {
            stats->n_bad++;
            continue;
        }
        if (!member(r, "selected", JSON_TRUE)) {
            stats->n_unselected++;
            continue;
        }
        if (!all_protocols
            && frr_route_json_protocol_is_local(json_string(protocol))) {
            stats->n_local++;
            continue;
        }
        vrf_name = member(r, "vrfName", JSON_STRING);
        cb(vrf_name ? json_string(vrf_name) : vrf ? vrf : "default",
           prefix, aux);
        stats->n_routes++;
    }
}

/* Parses 'text', the output of vtysh's "show ip route [vrf all] json" or
 * "show ipv6 route [vrf all] json", and calls 'cb' for each route that
 * zebra selected and sends over FPM (with 'all_protocols', also those of
 * the protocols it keeps to itself).  Fills in '*stats'.  Returns NULL,
 * or an error message (to be freed) if 'text' is not such output; entries
 * that are not route lists or route objects are counted in 'n_bad', not
 * refused. */
char *
frr_route_json_parse(const char *text, bool all_protocols,
                     frr_route_json_cb *cb, void *aux,
                     struct frr_route_json_stats *stats)
{
    struct json *json = json_from_string(text);
    const struct shash_node *node;
    char *error = NULL;

    memset(stats, 0, sizeof *stats);
    if (json->type == JSON_STRING) {
        error = xasprintf("not JSON: %s", json_string(json));
    } else if (json->type != JSON_OBJECT) {
        error = xstrdup("not a JSON object of prefixes");
    } else {
        SHASH_FOR_EACH (node, json_object(json)) {
            const struct json *v = node->data;

            if (v->type == JSON_ARRAY) {
                parse_prefix(NULL, node->name, v, all_protocols, cb, aux,
                             stats);
            } else if (v->type == JSON_OBJECT) {
                /* "vrf all": a map of prefixes under each VRF name. */
                const struct shash_node *pnode;

                SHASH_FOR_EACH (pnode, json_object(v)) {
                    if (((const struct json *) pnode->data)->type
                        == JSON_ARRAY) {
                        parse_prefix(node->name, pnode->name, pnode->data,
                                     all_protocols, cb, aux, stats);
                    } else {
                        stats->n_bad++;
                    }
                }
            } else {
                stats->n_bad++;
            }
        }
    }
    json_destroy(json);
    return error;
}
