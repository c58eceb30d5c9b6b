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
#include <ctype.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply.h"
#include "util.h"

/* Parses next-hop key 'key' ("GATEWAY@IFNAME", "GATEWAY" or "@IFNAME")
 * with weight 'weight' into 'nh', whose 'ifname' then points into 'key'.
 * Returns NULL or an error message for the caller to free. */
char *
syncd_nexthop_key_parse(const char *key, int64_t weight,
                        struct syncd_nexthop *nh)
{
    const char *at = strchr(key, '@');
    size_t gw_len = at ? (size_t) (at - key) : strlen(key);

    memset(nh, 0, sizeof *nh);
    nh->ifname = "";
    if (at) {
        const char *ifname = at + 1;
        size_t len = strlen(ifname);

        if (!len) {
            return xasprintf("bad next hop \"%s\": empty interface name",
                             key);
        } else if (len > 64) {
            return xasprintf("bad next hop \"%s\": interface name too long",
                             key);
        }
        for (const char *c = ifname; *c; c++) {
            if (isspace((unsigned char) *c) || *c == '/' || *c == '@') {
                return xasprintf("bad next hop \"%s\": bad interface name",
                                 key);
            }
        }
        nh->ifname = ifname;
    }
    if (gw_len) {
        char buf[INET6_ADDRSTRLEN];

        if (gw_len >= sizeof buf) {
            return xasprintf("bad next hop \"%s\": bad gateway address",
                             key);
        }
        memcpy(buf, key, gw_len);
        buf[gw_len] = '\0';
        if (!sai_util_ip_address_parse(buf, &nh->gateway)) {
            return xasprintf("bad next hop \"%s\": bad gateway address",
                             key);
        }
        nh->has_gateway = true;
    } else if (!at) {
        return xstrdup("bad next hop \"\": empty key");
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
