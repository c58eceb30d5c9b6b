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

/* fuzz-syncd-row: an Asic_Route row as syncd's monitor hands it over
 * (daemons/syncd/syncd-rows.h, syncd_rows_parse()).
 *
 * The input is the JSON text of the row's columns, as in a monitor
 * update's "initial", "insert" or "modify" object:
 *
 *   {"vrf":"default","prefix":"10.0.0.0/24","seq":3,
 *    "packet_action":"forward",
 *    "nexthops":["map",[["192.168.1.2@eth1",1]]]}
 *
 * OVS's JSON parser reads it; an object goes through syncd_rows_parse()
 * into a row table, which interns its VRF.  A row that parses must be a
 * route syncd can submit. */

#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-rows.h"
#include "openvswitch/json.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Checks what syncd_rows_parse() promises of a row it accepted. */
static void
check_parsed(const struct syncd_rows *rows, const struct syncd_row_parsed *p)
{
    ovs_assert(p->has_seq);
    ovs_assert(p->vrf && p->vrf[0]);
    ovs_assert(!strcmp(syncd_rows_vrf_name(rows, p->vrf_index), p->vrf));
    ovs_assert(p->prefix.family == AF_INET || p->prefix.family == AF_INET6);
    if (p->action != SAI_PACKET_ACTION_FORWARD) {
        ovs_assert(!p->n_nexthops);
        return;
    }
    ovs_assert(p->n_nexthops > 0);
    for (size_t i = 0; i < p->n_nexthops; i++) {
        const struct syncd_nexthop *nh = &p->nexthops[i];

        ovs_assert(nh->weight >= 1 && nh->weight <= 65535);
        ovs_assert(nh->has_gateway || (nh->ifname && nh->ifname[0]));
    }
}

/* Parses the input as JSON and, if it is an object, as a row, twice: the
 * second parse reuses the next-hop array and must intern the same VRF. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xmemdup0((const char *) data, size);
    struct json *json = json_from_string(text);

    if (json->type == JSON_OBJECT) {
        struct syncd_row_parsed p;
        struct syncd_rows rows;
        char *error;

        syncd_rows_init(&rows);
        syncd_row_parsed_init(&p);
        error = syncd_rows_parse(&rows, json_object(json), &p);
        if (!error) {
            uint16_t vrf_index = p.vrf_index;

            check_parsed(&rows, &p);
            error = syncd_rows_parse(&rows, json_object(json), &p);
            ovs_assert(!error && p.vrf_index == vrf_index);
            check_parsed(&rows, &p);
        }
        free(error);
        syncd_row_parsed_destroy(&p);
        syncd_rows_destroy(&rows);
    }
    json_destroy(json);
    free(text);
    return 0;
}
