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

#ifndef ROUTE_KEY_H
#define ROUTE_KEY_H 1

/* Route keys: the names and row UUIDs every fibsync process agrees on.
 *
 * Deterministic row UUIDs
 * =======================
 *
 * fpmsyncd inserts every Route, Nexthop_Group and Vrf row with an explicit
 * "uuid" derived from the row's key, so that any process can find the row
 * of a key without a table scan or an index: an OVSDB "where
 * [["_uuid","==",["uuid",U]]]" is a hash lookup in ovsdb-server, and an IDL
 * client can call ovsdb_idl_get_row_for_uuid().
 *
 * Each UUID is an RFC 4122 name-based version-5 UUID: the first 16 bytes of
 * SHA-1(namespace || name), with the version nibble set to 5 and the
 * variant bits to 10.  Each table has its own namespace (below), and the
 * names are:
 *
 *   Route           VRF name, a NUL byte, canonical prefix text
 *                   ("default\0" "10.1.0.0/16"; see lib/fib-prefix.h)
 *   Nexthop_Group   zebra's nexthop id in decimal ("24")
 *   Vrf             VRF name ("default", "table10")
 *
 * orchd writes each Asic_Route row with a UUID of the same kind, in a
 * namespace of its own, named as the Route row's, with "\0N" appended for
 * ASIC instance N > 0 (route_key_asic_route_uuid()).
 *
 * A row someone else inserted without these UUIDs is still a valid row:
 * fpmsyncd finds it by its key when it reads the table at startup.
 *
 * Buckets
 * =======
 *
 * Route.bucket, written once at insert, is the first 16 bits of the row's
 * UUID (route_key_bucket()): a value in [0, ROUTE_KEY_N_BUCKETS) that
 * spreads the rows evenly, so that a reader can select the table in
 * slices of buckets ("where bucket >= LO and bucket < HI", OVSDB orders
 * integers but not strings or UUIDs) and ovsdb-server never composes a
 * reply of the whole table (lib/ovsdb-slice-reader.h).  A row inserted
 * without a bucket has bucket 0: it is read with the first slice.
 *
 * Names
 * =====
 *
 * The same module names the things FPM carries as numbers: routing protocol
 * numbers (rtm_protocol, as FRR's zebra/rt_netlink.h defines them), kernel
 * table ids (254 is the VRF "default"; another id with no Vrf row is
 * "table<N>"), and the "GATEWAY@IFNAME" next-hop keys of Route.nexthops
 * and Nexthop_Group.members.
 *
 * Thread safety: every function is thread-safe. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "openvswitch/compiler.h"
#include "openvswitch/uuid.h"

struct ds;
struct fib_prefix;

/* The main kernel table (RT_TABLE_MAIN) and its VRF name. */
#define ROUTE_KEY_MAIN_TABLE 254
#define ROUTE_KEY_DEFAULT_VRF "default"

/* Longest VRF name route_key_table_vrf_name() writes, with the null. */
#define ROUTE_KEY_VRF_NAMELEN 16

/* Buffer size for route_key_protocol_name(), with the null. */
#define ROUTE_KEY_PROTO_NAMELEN 16

/* Route.bucket values: [0, ROUTE_KEY_N_BUCKETS). */
#define ROUTE_KEY_N_BUCKETS 65536

/* Row UUIDs. */
void route_key_route_uuid(const char *vrf, const struct fib_prefix *,
                          struct uuid *);
void route_key_route_uuid_text(const char *vrf, const char *prefix,
                               struct uuid *);
void route_key_nhg_uuid(uint32_t id, struct uuid *);
void route_key_vrf_uuid(const char *vrf, struct uuid *);
void route_key_asic_route_uuid(const char *vrf, const struct fib_prefix *,
                               int instance, struct uuid *);
uint32_t route_key_bucket(const struct uuid *);
void route_key_uuid_v5(const struct uuid *namespace,
                       const void *name, size_t len, struct uuid *);

/* Protocol names. */
const char *route_key_protocol_name(uint8_t protocol,
                                    char buf[ROUTE_KEY_PROTO_NAMELEN]);
int route_key_protocol_from_name(const char *name);

/* VRF names for table ids that have no Vrf row. */
const char *route_key_table_vrf_name(uint32_t table,
                                     char buf[ROUTE_KEY_VRF_NAMELEN]);

/* Next-hop keys ("192.168.1.2@eth0", "2001:db8::1", "@eth0").
 *
 * Every reader of a key parses it with route_key_nexthop_split() (or
 * route_key_nexthop_parse(), which copies the interface name), so that a
 * key one process refuses every process refuses, with the same message.
 * A valid key is:
 *
 *   - not empty;
 *
 *   - split at its first '@' into a gateway (before it) and an interface
 *     name (after it); a key without '@' is all gateway, and one that
 *     starts with '@' has no gateway (a directly connected route);
 *
 *   - if it has an '@', an interface name of 1 to ROUTE_KEY_IFNAME_MAX
 *     bytes with no white space, '/' or '@' (so no key has two '@');
 *
 *   - if the gateway is not empty, an IPv4 address in dotted-quad form
 *     or an IPv6 address, as inet_pton() reads them (no leading zeros,
 *     no scope, no prefix length).
 *
 * The interface name is checked before the gateway: a key bad in both
 * ways is refused for its interface name.  Errors read
 * "bad next hop "KEY": REASON". */

/* Longest interface name in a next-hop key, in bytes. */
#define ROUTE_KEY_IFNAME_MAX 64

/* A next-hop key split by route_key_nexthop_split(). */
struct route_key_nexthop {
    int family;                 /* AF_INET or AF_INET6; 0: no gateway. */
    uint8_t gateway[16];        /* Gateway, network byte order, or zeros. */
    size_t gateway_len;         /* Bytes of gateway text that start the
                                 * key; 0 if no gateway. */
    const char *ifname;         /* Interface name, pointing into the key;
                                 * "" if none. */
};

void route_key_nexthop_format(struct ds *, int family, const void *gateway,
                              const char *ifname);
char *route_key_nexthop_split(const char *key, struct route_key_nexthop *)
    OVS_WARN_UNUSED_RESULT;
char *route_key_nexthop_parse(const char *key, int *family,
                              uint8_t gateway[16], char **ifname)
    OVS_WARN_UNUSED_RESULT;

#endif /* route-key.h */
