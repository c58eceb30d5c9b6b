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

/* route-status: Route.status's keys and the operation text that writes
 * them (lib/route-status.h). */

#include <config.h>
#include "lib/route-status.h"

#include "lib/ovsdb-wire.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"

/* Appends to 's' the map of the keys that make a status say offload=true
 * (if 'error' is NULL) or error=<error>: the value of a "status" column in
 * an insert, or what a mutate inserts. */
void
route_status_put_map(struct ds *s, const char *error)
{
    if (!error) {
        ds_put_cstr(s, "[\"map\",[[\"" ROUTE_STATUS_OFFLOAD "\",\"true\"]]]");
    } else {
        ds_put_cstr(s, "[\"map\",[[\"" ROUTE_STATUS_ERROR "\",");
        json_string_escape(error, s);
        ds_put_cstr(s, "]]]");
    }
}

/* Appends to 'ops', after a comma, the start of a mutate of the status of
 * Route row 'route', up to and including the '[' of its mutations. */
static void
put_mutate_start(struct ds *ops, const struct uuid *route)
{
    ds_put_char(ops, ',');
    ovsdb_wire_put_op_start(ops, "mutate", "Route", route);
    ds_put_cstr(ops, ",\"mutations\":[");
}

/* Appends to 'ops', after a comma, the mutate that makes the status of
 * Route row 'route' say offload=true, with no "error" key. */
void
route_status_put_offload(struct ds *ops, const struct uuid *route)
{
    put_mutate_start(ops, route);
    ds_put_cstr(ops, "[\"status\",\"delete\",[\"set\",[\""
                ROUTE_STATUS_ERROR "\"]]],[\"status\",\"insert\",");
    route_status_put_map(ops, NULL);
    ds_put_cstr(ops, "]]}");
}

/* Appends to 'ops', after a comma, the mutate that makes the status of
 * Route row 'route' say error=<error>, with no "offload" key. */
void
route_status_put_error(struct ds *ops, const struct uuid *route,
                       const char *error)
{
    put_mutate_start(ops, route);
    ds_put_cstr(ops, "[\"status\",\"delete\",[\"set\",[\""
                ROUTE_STATUS_ERROR "\",\"" ROUTE_STATUS_OFFLOAD "\"]]],"
                "[\"status\",\"insert\",");
    route_status_put_map(ops, error);
    ds_put_cstr(ops, "]]}");
}

/* Appends to 'ops', after a comma, the mutate that deletes the "error" key
 * from the status of Route row 'route', leaving "offload" as it is. */
void
route_status_put_clear(struct ds *ops, const struct uuid *route)
{
    put_mutate_start(ops, route);
    ds_put_cstr(ops, "[\"status\",\"delete\",[\"set\",[\""
                ROUTE_STATUS_ERROR "\"]]]");
    ds_put_cstr(ops, "]}");
}
