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
#include "lib/route-key.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* SHA1_Init() and friends are deprecated in OpenSSL 3.0 in favour of EVP,
 * but they are still there, and they are what is fast here (see
 * route_key_uuid_v5()). */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>

#include "lib/fib-prefix.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

/* Namespaces of the version-5 row UUIDs, one per table.  Changing any of
 * them changes every row UUID fibsync computes: never do that. */
static const struct uuid route_ns = {
    .parts = { 0x3b0a6f6e, 0x5d2c4c1e, 0x9a550f1b, 0x5e2c7a01 } };
static const struct uuid nhg_ns = {
    .parts = { 0x3b0a6f6e, 0x5d2c4c1e, 0x9a550f1b, 0x5e2c7a02 } };
static const struct uuid vrf_ns = {
    .parts = { 0x3b0a6f6e, 0x5d2c4c1e, 0x9a550f1b, 0x5e2c7a03 } };
static const struct uuid asic_route_ns = {
    .parts = { 0x8c2f0a51, 0x5e3b4d7a, 0x9b1e6f20, 0x4a7c3d15 } };

/* Writes 'u' as its 16 RFC 4122 bytes (the order of its text form). */
static void
uuid_to_bytes(const struct uuid *u, uint8_t bytes[16])
{
    for (int i = 0; i < 4; i++) {
        bytes[4 * i] = u->parts[i] >> 24;
        bytes[4 * i + 1] = u->parts[i] >> 16;
        bytes[4 * i + 2] = u->parts[i] >> 8;
        bytes[4 * i + 3] = u->parts[i];
    }
}

/* Computes the RFC 4122 version-5 UUID of 'name' ('len' bytes) in
 * 'namespace' into '*u'.
 *
 * fpmsyncd computes one a route it writes and orchd one a route it
 * programs, so the digest's cost shows: this uses OpenSSL's low-level
 * SHA1_*(), which use the CPU's SHA extensions where it has them, and
 * keep their context on the stack.  Measured on a 36-byte name: OVS's
 * portable ovs_sha1_*() 323 ns, OpenSSL's EVP with a context reused
 * 111 ns (allocated per digest, as OVS's sha1_*() do with OpenSSL, more),
 * SHA1_*() 50 ns (docs/PERFORMANCE.md).  SHA-1 is SHA-1: the UUIDs are
 * the same (test-route-key.c pins them). */
void
route_key_uuid_v5(const struct uuid *namespace, const void *name,
                  size_t len, struct uuid *u)
{
    uint8_t ns[16];
    uint8_t digest[SHA_DIGEST_LENGTH];
    SHA_CTX ctx;

    uuid_to_bytes(namespace, ns);
    SHA1_Init(&ctx);
    SHA1_Update(&ctx, ns, sizeof ns);
    SHA1_Update(&ctx, name, len);
    SHA1_Final(digest, &ctx);

    digest[6] = (digest[6] & 0x0f) | 0x50;      /* Version 5. */
    digest[8] = (digest[8] & 0x3f) | 0x80;      /* Variant 10. */
    for (int i = 0; i < 4; i++) {
        u->parts[i] = ((uint32_t) digest[4 * i] << 24
                       | (uint32_t) digest[4 * i + 1] << 16
                       | (uint32_t) digest[4 * i + 2] << 8
                       | digest[4 * i + 3]);
    }
}

/* Computes into '*u' the UUID of the Route row for 'prefix' (canonical
 * text, as fib_prefix_format() writes it) in VRF 'vrf'.  The caller must
 * pass canonical text: "10.1.0.0/16" and "10.1.0.0/016" name different
 * UUIDs. */
void
route_key_route_uuid_text(const char *vrf, const char *prefix,
                          struct uuid *u)
{
    size_t vrf_len = strlen(vrf);
    size_t prefix_len = strlen(prefix);
    char stack[64 + FIB_PREFIX_STRLEN];
    char *name = (vrf_len + 1 + prefix_len <= sizeof stack
                  ? stack : xmalloc(vrf_len + 1 + prefix_len));

    memcpy(name, vrf, vrf_len);
    name[vrf_len] = '\0';
    memcpy(name + vrf_len + 1, prefix, prefix_len);
    route_key_uuid_v5(&route_ns, name, vrf_len + 1 + prefix_len, u);
    if (name != stack) {
        free(name);
    }
}

/* Computes into '*u' the UUID of the Route row for binary 'prefix' in VRF
 * 'vrf'. */
void
route_key_route_uuid(const char *vrf, const struct fib_prefix *prefix,
                     struct uuid *u)
{
    char buf[FIB_PREFIX_STRLEN];

    fib_prefix_format(prefix, buf);
    route_key_route_uuid_text(vrf, buf, u);
}

/* Computes into '*u' the UUID of the Asic_Route row that the orchd of ASIC
 * instance 'instance' (0 to FIBSYNC_INSTANCE_MAX) writes for binary
 * 'prefix' in VRF 'vrf'.  It is derived, not random, so orchd can update
 * or delete a row without looking it up, and a restarted orchd finds its
 * own rows again.  The name is "VRF\0PREFIX" as for Route rows (a VRF name
 * longer than 255 bytes is cut there); instance 0's UUIDs are those from
 * before instances existed, and instance N's name has "\0N" appended, so
 * that the instances' rows of one route, which share one table, never
 * share a UUID. */
void
route_key_asic_route_uuid(const char *vrf, const struct fib_prefix *prefix,
                          int instance, struct uuid *u)
{
    char name[ROUTE_KEY_VRF_NAMELEN + FIB_PREFIX_STRLEN + 256 + 8];
    size_t vrf_len = strlen(vrf);
    size_t len;

    if (vrf_len > 255) {
        vrf_len = 255;
    }
    memcpy(name, vrf, vrf_len);
    name[vrf_len] = '\0';
    len = vrf_len + 1 + fib_prefix_format(prefix, name + vrf_len + 1);
    if (instance) {
        name[len++] = '\0';
        len += sprintf(name + len, "%d", instance);
    }
    route_key_uuid_v5(&asic_route_ns, name, len, u);
}

/* Computes into '*u' the UUID of the Nexthop_Group row for zebra nexthop
 * id 'id'. */
void
route_key_nhg_uuid(uint32_t id, struct uuid *u)
{
    char name[16];
    int len = snprintf(name, sizeof name, "%"PRIu32, id);

    route_key_uuid_v5(&nhg_ns, name, len, u);
}

/* Computes into '*u' the UUID of the Vrf row named 'vrf'. */
void
route_key_vrf_uuid(const char *vrf, struct uuid *u)
{
    route_key_uuid_v5(&vrf_ns, vrf, strlen(vrf), u);
}

/* Returns the Route.bucket of the row with UUID 'u': its first 16 bits,
 * which SHA-1 spreads evenly over [0, ROUTE_KEY_N_BUCKETS). */
uint32_t
route_key_bucket(const struct uuid *u)
{
    return u->parts[0] >> 16;
}

/* Routing protocol numbers (rtm_protocol) and their names.  Numbers 186
 * and up are FRR's (zebra/rt_netlink.h); the others are the kernel's
 * (linux/rtnetlink.h).  zebra sends its connected routes with 2
 * (RTPROT_KERNEL); callers that can tell a connected route apart name it
 * "connected" themselves. */
struct proto_name {
    uint8_t protocol;           /* rtm_protocol. */
    const char *name;           /* Name in Route.protocol. */
};

static const struct proto_name proto_names[] = {
    { 186, "bgp" },             /* RTPROT_BGP. */
    { 187, "isis" },            /* RTPROT_ISIS. */
    { 188, "ospf" },            /* RTPROT_OSPF. */
    { 189, "rip" },             /* RTPROT_RIP. */
    { 190, "ripng" },           /* RTPROT_RIPNG. */
    { 191, "nhrp" },            /* RTPROT_NHRP. */
    { 192, "eigrp" },           /* RTPROT_EIGRP. */
    { 193, "ldp" },             /* RTPROT_LDP. */
    { 194, "sharp" },           /* RTPROT_SHARP. */
    { 195, "pbr" },             /* RTPROT_PBR. */
    { 196, "static" },          /* RTPROT_ZSTATIC: FRR's staticd. */
    { 197, "openfabric" },      /* RTPROT_OPENFABRIC. */
    { 198, "srte" },            /* RTPROT_SRTE. */
    { 1, "redirect" },          /* RTPROT_REDIRECT. */
    { 2, "kernel" },            /* RTPROT_KERNEL (zebra: also connected). */
    { 3, "boot" },              /* RTPROT_BOOT. */
    { 4, "kernel-static" },     /* RTPROT_STATIC: "ip route ... proto
                                 * static", not FRR's staticd. */
    { 11, "zebra" },            /* RTPROT_ZEBRA. */
    { 16, "dhcp" },             /* RTPROT_DHCP. */
    { 42, "babel" },            /* RTPROT_BABEL. */
};

/* Returns the name of routing protocol number 'protocol' ("bgp" for 186),
 * or "proto-N" written into 'buf' for a number without a name. */
const char *
route_key_protocol_name(uint8_t protocol, char buf[ROUTE_KEY_PROTO_NAMELEN])
{
    for (size_t i = 0; i < ARRAY_SIZE(proto_names); i++) {
        if (proto_names[i].protocol == protocol) {
            return proto_names[i].name;
        }
    }
    snprintf(buf, ROUTE_KEY_PROTO_NAMELEN, "proto-%u", protocol);
    return buf;
}

/* Returns the protocol number that 'name' names (186 for "bgp", 2 for
 * "kernel" or "connected", N for "proto-N"), or -1 if none. */
int
route_key_protocol_from_name(const char *name)
{
    unsigned int n;
    int pos;

    if (!strcmp(name, "connected")) {
        return 2;
    }
    for (size_t i = 0; i < ARRAY_SIZE(proto_names); i++) {
        if (!strcmp(proto_names[i].name, name)) {
            return proto_names[i].protocol;
        }
    }
    if (sscanf(name, "proto-%u%n", &n, &pos) == 1 && !name[pos]
        && n <= UINT8_MAX && name[6] >= '0' && name[6] <= '9') {
        return n;
    }
    return -1;
}

/* Returns the VRF name for kernel table 'table' when no Vrf row names it:
 * "default" for 254 (RT_TABLE_MAIN), otherwise "table<N>" written into
 * 'buf'. */
const char *
route_key_table_vrf_name(uint32_t table, char buf[ROUTE_KEY_VRF_NAMELEN])
{
    if (table == ROUTE_KEY_MAIN_TABLE) {
        return ROUTE_KEY_DEFAULT_VRF;
    }
    snprintf(buf, ROUTE_KEY_VRF_NAMELEN, "table%"PRIu32, table);
    return buf;
}

/* Appends to 's' the next-hop key for 'gateway' (an AF_INET or AF_INET6
 * address in network byte order, as 'family' says; family 0 for none) out
 * of interface 'ifname' (NULL or "" for none): "192.168.1.2@eth0",
 * "2001:db8::1" (no interface) or "@eth0" (no gateway: a connected
 * route). */
void
route_key_nexthop_format(struct ds *s, int family, const void *gateway,
                         const char *ifname)
{
    if (family == AF_INET || family == AF_INET6) {
        char buf[INET6_ADDRSTRLEN];

        ds_put_cstr(s, inet_ntop(family, gateway, buf, sizeof buf));
    }
    if (ifname && ifname[0]) {
        ds_put_char(s, '@');
        ds_put_cstr(s, ifname);
    }
}

/* Returns NULL if 'ifname', the part of next-hop key 'key' after its '@',
 * is a valid interface name, otherwise an error message for the caller to
 * free. */
static char *
nexthop_check_ifname(const char *key, const char *ifname)
{
    size_t len = strlen(ifname);

    if (!len) {
        return xasprintf("bad next hop \"%s\": empty interface name", key);
    } else if (len > ROUTE_KEY_IFNAME_MAX) {
        return xasprintf("bad next hop \"%s\": interface name too long",
                         key);
    }
    for (const char *c = ifname; *c; c++) {
        if (isspace((unsigned char) *c) || *c == '/' || *c == '@') {
            return xasprintf("bad next hop \"%s\": bad interface name", key);
        }
    }
    return NULL;
}

/* Splits next-hop key 'key' into '*nh' with the rules in route-key.h: the
 * one parser of next-hop keys.  '*nh''s interface name points into 'key'.
 * Returns NULL if successful, otherwise an error message for the caller
 * to free, with '*nh' as if the key were empty. */
char *
route_key_nexthop_split(const char *key, struct route_key_nexthop *nh)
{
    const char *at = strchr(key, '@');
    size_t gw_len = at ? (size_t) (at - key) : strlen(key);

    memset(nh, 0, sizeof *nh);
    nh->ifname = "";
    if (at) {
        char *error = nexthop_check_ifname(key, at + 1);

        if (error) {
            return error;
        }
    }
    if (gw_len) {
        char buf[INET6_ADDRSTRLEN];

        if (gw_len >= sizeof buf) {
            return xasprintf("bad next hop \"%s\": bad gateway address",
                             key);
        }
        memcpy(buf, key, gw_len);
        buf[gw_len] = '\0';
        if (inet_pton(AF_INET, buf, nh->gateway) == 1) {
            nh->family = AF_INET;
        } else if (inet_pton(AF_INET6, buf, nh->gateway) == 1) {
            nh->family = AF_INET6;
        } else {
            memset(nh->gateway, 0, sizeof nh->gateway);
            return xasprintf("bad next hop \"%s\": bad gateway address",
                             key);
        }
        nh->gateway_len = gw_len;
    } else if (!at) {
        return xstrdup("bad next hop \"\": empty key");
    }
    if (at) {
        nh->ifname = at + 1;
    }
    return NULL;
}

/* Parses next-hop key 'key' with route_key_nexthop_split().  On success,
 * returns NULL and stores the gateway's family (0 if none) in '*family',
 * the gateway in 'gateway' (zeroed if none) and a malloc()'d interface
 * name, or NULL if none, in '*ifname'.  On failure, returns a malloc()'d
 * error message and stores family 0, a zeroed gateway and a null
 * '*ifname'. */
char *
route_key_nexthop_parse(const char *key, int *family, uint8_t gateway[16],
                        char **ifname)
{
    struct route_key_nexthop nh;
    char *error = route_key_nexthop_split(key, &nh);

    *family = nh.family;
    memcpy(gateway, nh.gateway, sizeof nh.gateway);
    *ifname = nh.ifname[0] ? xstrdup(nh.ifname) : NULL;
    return error;
}
