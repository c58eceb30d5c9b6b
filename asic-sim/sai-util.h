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

#ifndef SAI_UTIL_H
#define SAI_UTIL_H 1

/* Helpers for the SAI types of asic-sim/sai.h: names of status codes and
 * enumerations, and conversions of IP addresses and prefixes to and from
 * text and prefix lengths.  Every function is thread-safe (no state). */

#include <netinet/in.h>
#include <stdbool.h>
#include <string.h>

#include "asic-sim/sai.h"

/* Room for the text of any address or prefix, with its null. */
#define SAI_IP_ADDRESS_STRLEN INET6_ADDRSTRLEN
#define SAI_IP_PREFIX_STRLEN (2 * INET6_ADDRSTRLEN) /* Even "ADDR/MASK". */

const char *sai_util_status_name(sai_status_t);
const char *sai_util_object_type_name(sai_object_type_t);
const char *sai_util_packet_action_name(sai_packet_action_t);
bool sai_util_packet_action_from_string(const char *, sai_packet_action_t *);

int sai_util_ip_prefix_length(const sai_ip_prefix_t *);
bool sai_util_ip_prefix_is_canonical(const sai_ip_prefix_t *);
void sai_util_ip_prefix_init(sai_ip_prefix_t *, const sai_ip_address_t *,
                             unsigned int plen);
void sai_util_ip_prefix_init4(sai_ip_prefix_t *, uint32_t addr_host_order,
                              unsigned int plen);
void sai_util_ip_prefix_init6(sai_ip_prefix_t *, const struct in6_addr *,
                              unsigned int plen);
void sai_util_ip_address_init4(sai_ip_address_t *, uint32_t addr_host_order);
void sai_util_ip_address_init6(sai_ip_address_t *, const struct in6_addr *);

bool sai_util_ip_prefix_parse(const char *, sai_ip_prefix_t *);
bool sai_util_ip_address_parse(const char *, sai_ip_address_t *);
char *sai_util_ip_prefix_format(const sai_ip_prefix_t *,
                                char buf[SAI_IP_PREFIX_STRLEN]);
char *sai_util_ip_address_format(const sai_ip_address_t *,
                                 char buf[SAI_IP_ADDRESS_STRLEN]);

/* Returns a copy of 'ip' whose bytes beyond its family's are zero, so that
 * it can be hashed and compared with memcmp(). */
static inline sai_ip_address_t
sai_util_ip_address_normalize(const sai_ip_address_t *ip)
{
    sai_ip_address_t n;

    memset(&n, 0, sizeof n);
    n.addr_family = ip->addr_family;
    if (ip->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        n.addr.ip4 = ip->addr.ip4;
    } else {
        memcpy(n.addr.ip6, ip->addr.ip6, sizeof n.addr.ip6);
    }
    return n;
}

#endif /* sai-util.h */
