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

#include "asic-sim/sai-util.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "openvswitch/util.h"
#include "util.h"

/* Returns the name of 'status' ("SAI_STATUS_ITEM_NOT_FOUND").  For an
 * attribute error, returns the name of its range (the *_0 code). */
const char *
sai_util_status_name(sai_status_t status)
{
    static const char *const names[] = {
        "SAI_STATUS_SUCCESS",
        "SAI_STATUS_FAILURE",
        "SAI_STATUS_NOT_SUPPORTED",
        "SAI_STATUS_NO_MEMORY",
        "SAI_STATUS_INSUFFICIENT_RESOURCES",
        "SAI_STATUS_INVALID_PARAMETER",
        "SAI_STATUS_ITEM_ALREADY_EXISTS",
        "SAI_STATUS_ITEM_NOT_FOUND",
        "SAI_STATUS_BUFFER_OVERFLOW",
        "SAI_STATUS_INVALID_PORT_NUMBER",
        "SAI_STATUS_INVALID_PORT_MEMBER",
        "SAI_STATUS_INVALID_VLAN_ID",
        "SAI_STATUS_UNINITIALIZED",
        "SAI_STATUS_TABLE_FULL",
        "SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING",
        "SAI_STATUS_NOT_IMPLEMENTED",
        "SAI_STATUS_ADDR_NOT_FOUND",
        "SAI_STATUS_OBJECT_IN_USE",
        "SAI_STATUS_INVALID_OBJECT_TYPE",
        "SAI_STATUS_INVALID_OBJECT_ID",
        "SAI_STATUS_INVALID_NV_STORAGE",
        "SAI_STATUS_NV_STORAGE_FULL",
        "SAI_STATUS_SW_UPGRADE_VERSION_MISMATCH",
        "SAI_STATUS_NOT_EXECUTED",
    };

    if (status <= 0 && -status < (sai_status_t) ARRAY_SIZE(names)) {
        return names[-status];
    } else if (SAI_STATUS_IS_INVALID_ATTRIBUTE(status)) {
        return "SAI_STATUS_INVALID_ATTRIBUTE_0";
    } else if (SAI_STATUS_IS_INVALID_ATTR_VALUE(status)) {
        return "SAI_STATUS_INVALID_ATTR_VALUE_0";
    } else if (SAI_STATUS_IS_ATTR_NOT_IMPLEMENTED(status)) {
        return "SAI_STATUS_ATTR_NOT_IMPLEMENTED_0";
    } else if (SAI_STATUS_IS_UNKNOWN_ATTRIBUTE(status)) {
        return "SAI_STATUS_UNKNOWN_ATTRIBUTE_0";
    } else if (SAI_STATUS_IS_ATTR_NOT_SUPPORTED(status)) {
        return "SAI_STATUS_ATTR_NOT_SUPPORTED_0";
    }
    return "SAI_STATUS_UNKNOWN";
}

/* Returns the name of 'type' ("SAI_OBJECT_TYPE_NEXT_HOP"). */
const char *
sai_util_object_type_name(sai_object_type_t type)
{
    switch (type) {
    case SAI_OBJECT_TYPE_NULL: return "SAI_OBJECT_TYPE_NULL";
    case SAI_OBJECT_TYPE_PORT: return "SAI_OBJECT_TYPE_PORT";
    case SAI_OBJECT_TYPE_VIRTUAL_ROUTER:
        return "SAI_OBJECT_TYPE_VIRTUAL_ROUTER";
    case SAI_OBJECT_TYPE_NEXT_HOP: return "SAI_OBJECT_TYPE_NEXT_HOP";
    case SAI_OBJECT_TYPE_NEXT_HOP_GROUP:
        return "SAI_OBJECT_TYPE_NEXT_HOP_GROUP";
    case SAI_OBJECT_TYPE_ROUTER_INTERFACE:
        return "SAI_OBJECT_TYPE_ROUTER_INTERFACE";
    case SAI_OBJECT_TYPE_SWITCH: return "SAI_OBJECT_TYPE_SWITCH";
    case SAI_OBJECT_TYPE_NEIGHBOR_ENTRY:
        return "SAI_OBJECT_TYPE_NEIGHBOR_ENTRY";
    case SAI_OBJECT_TYPE_ROUTE_ENTRY: return "SAI_OBJECT_TYPE_ROUTE_ENTRY";
    case SAI_OBJECT_TYPE_NEXT_HOP_GROUP_MEMBER:
        return "SAI_OBJECT_TYPE_NEXT_HOP_GROUP_MEMBER";
    case SAI_OBJECT_TYPE_MAX:
        break;
    }
    return "SAI_OBJECT_TYPE_UNKNOWN";
}

static const char *const packet_action_names[] = {
    [SAI_PACKET_ACTION_DROP] = "DROP",
    [SAI_PACKET_ACTION_FORWARD] = "FORWARD",
    [SAI_PACKET_ACTION_COPY] = "COPY",
    [SAI_PACKET_ACTION_COPY_CANCEL] = "COPY_CANCEL",
    [SAI_PACKET_ACTION_TRAP] = "TRAP",
    [SAI_PACKET_ACTION_LOG] = "LOG",
    [SAI_PACKET_ACTION_DENY] = "DENY",
    [SAI_PACKET_ACTION_TRANSIT] = "TRANSIT",
};

/* Returns the short name of 'action' ("FORWARD", "DROP", ...). */
const char *
sai_util_packet_action_name(sai_packet_action_t action)
{
    return ((unsigned int) action < ARRAY_SIZE(packet_action_names)
            ? packet_action_names[action] : "UNKNOWN");
}

/* Parses 's', a short name as returned by sai_util_packet_action_name() (case
 * insensitive), into '*action'.  Returns true if successful. */
bool
sai_util_packet_action_from_string(const char *s, sai_packet_action_t *action)
{
    for (size_t i = 0; i < ARRAY_SIZE(packet_action_names); i++) {
        if (!strcasecmp(s, packet_action_names[i])) {
            *action = i;
            return true;
        }
    }
    return false;
}

/* Returns the length of 'prefix''s mask, or -1 if the mask is not
 * contiguous or the address family is invalid. */
int
sai_util_ip_prefix_length(const sai_ip_prefix_t *prefix)
{
    if (prefix->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        uint32_t m = ntohl(prefix->mask.ip4);
        int plen = count_1bits(m);

        return m == (plen ? UINT32_MAX << (32 - plen) : 0) ? plen : -1;
    } else if (prefix->addr_family != SAI_IP_ADDR_FAMILY_IPV6) {
        return -1;
    }

    const uint8_t *mask = prefix->mask.ip6;
    const size_t n = 16;
    int plen = 0;
    size_t i = 0;
    for (; i < n && mask[i] == 0xff; i++) {
        plen += 8;
    }
    if (i < n) {
        uint8_t b = mask[i];
        int bits = count_1bits(b);

        if (b != (uint8_t) (0xff << (8 - bits))) {
            return -1;
        }
        plen += bits;
        for (i++; i < n; i++) {
            if (mask[i]) {
                return -1;
            }
        }
    }
    return plen;
}

/* Returns true if 'prefix' has a valid family, a contiguous mask and no
 * address bit set beyond the mask. */
bool
sai_util_ip_prefix_is_canonical(const sai_ip_prefix_t *prefix)
{
    if (sai_util_ip_prefix_length(prefix) < 0) {
        return false;
    } else if (prefix->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        return !(prefix->addr.ip4 & ~prefix->mask.ip4);
    } else {
        for (int i = 0; i < 16; i++) {
            if (prefix->addr.ip6[i] & ~prefix->mask.ip6[i]) {
                return false;
            }
        }
        return true;
    }
}

/* Initializes 'prefix' to 'addr'/'plen', clearing host bits. */
void
sai_util_ip_prefix_init(sai_ip_prefix_t *prefix, const sai_ip_address_t *addr,
                        unsigned int plen)
{
    if (addr->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        sai_util_ip_prefix_init4(prefix, ntohl(addr->addr.ip4), plen);
    } else {
        struct in6_addr a;

        memcpy(&a, addr->addr.ip6, sizeof a);
        sai_util_ip_prefix_init6(prefix, &a, plen);
    }
}

/* Initializes 'prefix' to IPv4 'addr' (in host byte order)/'plen', clearing
 * host bits.  'plen' must be at most 32. */
void
sai_util_ip_prefix_init4(sai_ip_prefix_t *prefix, uint32_t addr,
                         unsigned int plen)
{
    uint32_t mask = plen ? UINT32_MAX << (32 - MIN(plen, 32)) : 0;

    memset(prefix, 0, sizeof *prefix);
    prefix->addr_family = SAI_IP_ADDR_FAMILY_IPV4;
    prefix->addr.ip4 = htonl(addr & mask);
    prefix->mask.ip4 = htonl(mask);
}

/* Initializes 'prefix' to IPv6 'addr'/'plen', clearing host bits.  'plen'
 * must be at most 128. */
void
sai_util_ip_prefix_init6(sai_ip_prefix_t *prefix, const struct in6_addr *addr,
                         unsigned int plen)
{
    memset(prefix, 0, sizeof *prefix);
    prefix->addr_family = SAI_IP_ADDR_FAMILY_IPV6;
    for (unsigned int i = 0; i < 16; i++) {
        uint8_t m = (plen >= 8 * (i + 1) ? 0xff
                     : plen <= 8 * i ? 0
                     : (uint8_t) (0xff << (8 - (plen - 8 * i))));
        prefix->mask.ip6[i] = m;
        prefix->addr.ip6[i] = addr->s6_addr[i] & m;
    }
}

/* Initializes 'addr' to IPv4 address 'ip' (in host byte order). */
void
sai_util_ip_address_init4(sai_ip_address_t *addr, uint32_t ip)
{
    memset(addr, 0, sizeof *addr);
    addr->addr_family = SAI_IP_ADDR_FAMILY_IPV4;
    addr->addr.ip4 = htonl(ip);
}

/* Initializes 'addr' to IPv6 address 'ip'. */
void
sai_util_ip_address_init6(sai_ip_address_t *addr, const struct in6_addr *ip)
{
    memset(addr, 0, sizeof *addr);
    addr->addr_family = SAI_IP_ADDR_FAMILY_IPV6;
    memcpy(addr->addr.ip6, ip, 16);
}

/* Parses 's', an IPv4 or IPv6 address, into '*addr'.  Returns true if
 * successful. */
bool
sai_util_ip_address_parse(const char *s, sai_ip_address_t *addr)
{
    struct in6_addr a6;
    struct in_addr a4;

    if (inet_pton(AF_INET, s, &a4) == 1) {
        sai_util_ip_address_init4(addr, ntohl(a4.s_addr));
        return true;
    } else if (inet_pton(AF_INET6, s, &a6) == 1) {
        sai_util_ip_address_init6(addr, &a6);
        return true;
    }
    return false;
}

/* Parses 's', "ADDRESS/LENGTH" or a bare ADDRESS (a host prefix), into
 * '*prefix'.  Host bits set in ADDRESS are cleared.  Returns true if
 * successful. */
bool
sai_util_ip_prefix_parse(const char *s, sai_ip_prefix_t *prefix)
{
    char buf[SAI_IP_PREFIX_STRLEN];
    const char *slash = strchr(s, '/');
    size_t len = slash ? (size_t) (slash - s) : strlen(s);
    sai_ip_address_t addr;

    if (len >= sizeof buf) {
        return false;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (!sai_util_ip_address_parse(buf, &addr)) {
        return false;
    }

    unsigned int max = addr.addr_family == SAI_IP_ADDR_FAMILY_IPV4 ? 32 : 128;
    unsigned int plen = max;
    if (slash) {
        char *end;
        unsigned long n;

        if (slash[1] < '0' || slash[1] > '9') {
            return false;
        }
        n = strtoul(slash + 1, &end, 10);
        if (*end || n > max) {
            return false;
        }
        plen = n;
    }
    sai_util_ip_prefix_init(prefix, &addr, plen);
    return true;
}

/* Formats 'prefix' into 'buf' as "ADDRESS/LENGTH" ("10.1.0.0/16",
 * "2001:db8::/32"), or "ADDRESS/MASK" if its mask is not contiguous, and
 * returns 'buf'. */
char *
sai_util_ip_prefix_format(const sai_ip_prefix_t *prefix,
                          char buf[SAI_IP_PREFIX_STRLEN])
{
    char addr[INET6_ADDRSTRLEN];
    char mask[INET6_ADDRSTRLEN];
    int af = (prefix->addr_family == SAI_IP_ADDR_FAMILY_IPV4
              ? AF_INET : AF_INET6);
    int plen = sai_util_ip_prefix_length(prefix);

    inet_ntop(af, &prefix->addr, addr, sizeof addr);
    if (plen >= 0) {
        snprintf(buf, SAI_IP_PREFIX_STRLEN, "%s/%d", addr, plen);
    } else {
        inet_ntop(af, &prefix->mask, mask, sizeof mask);
        snprintf(buf, SAI_IP_PREFIX_STRLEN, "%s/%s", addr, mask);
    }
    return buf;
}

/* Formats 'addr' into 'buf' and returns 'buf'. */
char *
sai_util_ip_address_format(const sai_ip_address_t *addr,
                           char buf[SAI_IP_ADDRESS_STRLEN])
{
    inet_ntop(addr->addr_family == SAI_IP_ADDR_FAMILY_IPV4
              ? AF_INET : AF_INET6, &addr->addr, buf, SAI_IP_ADDRESS_STRLEN);
    return buf;
}
