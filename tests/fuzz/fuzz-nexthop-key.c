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

/* fuzz-nexthop-key: next-hop keys ("GATEWAY@IFNAME", "GATEWAY",
 * "@IFNAME") and weights, as syncd takes them from Asic_Route.nexthops
 * and from ROUTES entries (daemons/syncd/syncd-nexthop-key.h, on the
 * parser of lib/route-key.h).
 *
 * The input is one next hop a line, up to 16 lines: a key, then
 * optionally a tab and a decimal weight (1 if there is none; a tab
 * cannot be part of a valid key).  Each key goes through
 * syncd_nexthop_key_parse(); if every one parses, the set goes through
 * syncd_nexthop_key_check_set(), as one route's next hops do. */

#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-nexthop-key.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Most next hops taken from one input. */
#define MAX_NEXTHOPS 16

/* Parses each line of the input as a next hop, then the set. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xmemdup0((const char *) data, size);
    struct syncd_nexthop nhs[MAX_NEXTHOPS];
    char *save_ptr = NULL;
    bool all_ok = true;
    size_t n = 0;

    for (char *line = strtok_r(text, "\n", &save_ptr);
         line && n < MAX_NEXTHOPS;
         line = strtok_r(NULL, "\n", &save_ptr)) {
        char *tab = strchr(line, '\t');
        int64_t weight = 1;
        char *error;

        if (tab) {
            *tab = '\0';
            weight = strtoll(tab + 1, NULL, 10);
        }
        error = syncd_nexthop_key_parse(line, weight, &nhs[n]);
        if (error) {
            all_ok = false;
            free(error);
            continue;
        }

        /* What a parsed next hop must be. */
        const struct syncd_nexthop *nh = &nhs[n];
        ovs_assert(nh->weight >= 1 && nh->weight == weight);
        ovs_assert(nh->ifname);
        ovs_assert(nh->has_gateway || nh->ifname[0]);
        ovs_assert(!nh->ifname[0] || (nh->ifname > line
                                      && nh->ifname < line + strlen(line)));
        ovs_assert(strlen(nh->ifname) <= 64);
        ovs_assert(!strchr(nh->ifname, '@'));
        n++;
    }
    if (all_ok) {
        free(syncd_nexthop_key_check_set(nhs, n));
    }
    free(text);
    return 0;
}
