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

#include "daemons/syncd/syncd-nexthop-key.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply.h"
#include "lib/route-key.h"
#include "util.h"

/* Parses next-hop key 'key' ("GATEWAY@IFNAME", "GATEWAY" or "@IFNAME",
 * with the rules of lib/route-key.h) with weight 'weight' into 'nh', whose
 * 'ifname' then points into 'key'.  Returns NULL or an error message for
 * the caller to free. */
char *
syncd_nexthop_key_parse(const char *key, int64_t weight,
                        struct syncd_nexthop *nh)
{
    struct route_key_nexthop k;
    char *error = route_key_nexthop_split(key, &k);

    memset(nh, 0, sizeof *nh);
    nh->ifname = "";
    if (error) {
        return error;
    }
    nh->ifname = k.ifname;
    if (k.family == AF_INET) {
        uint32_t ip4;

        memcpy(&ip4, k.gateway, sizeof ip4);
        sai_util_ip_address_init4(&nh->gateway, ntohl(ip4));
        nh->has_gateway = true;
    } else if (k.family == AF_INET6) {
        struct in6_addr ip6;

        memcpy(&ip6, k.gateway, sizeof ip6);
        sai_util_ip_address_init6(&nh->gateway, &ip6);
        nh->has_gateway = true;
    }
    if (weight < 1 || weight > 65535) {
        return xasprintf("bad weight %"PRId64" for next hop \"%s\"", weight,
                         key);
    }
    nh->weight = weight;
    return NULL;
}

/* Checks that the 'n' next hops in 'nhs', each parsed by
 * syncd_nexthop_key_parse(), can be one forwarding route's.  Returns NULL
 * or an error message for the caller to free. */
char *
syncd_nexthop_key_check_set(const struct syncd_nexthop *nhs, size_t n)
{
    if (!n) {
        return xstrdup("packet_action forward without next hops");
    }
    for (size_t i = 0; i < n; i++) {
        if (!nhs[i].has_gateway && n > 1) {
            return xstrdup("a connected next hop (\"@IFNAME\") must be the "
                           "only next hop");
        }
    }
    return NULL;
}
