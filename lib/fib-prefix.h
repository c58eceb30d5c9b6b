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

#ifndef FIB_PREFIX_H
#define FIB_PREFIX_H 1

/* Binary IPv4 and IPv6 prefixes.
 *
 * A route prefix travels through fibsync many times: parsed from FPM or from
 * OVSDB text, formatted back into canonical OVSDB text, hashed into hmaps and
 * compared inside skiplist indexes.  'struct fib_prefix' is the one binary
 * form used for all of that.
 *
 * Canonical text
 * ==============
 *
 * The canonical text of a prefix is what fib_prefix_format() writes and what
 * the OVSDB 'Route.prefix' column holds: the network address as inet_ntop()
 * writes it (IPv6 compressed and in lowercase, "2001:db8::"), a slash and the
 * prefix length in decimal without leading zeros: "10.1.0.0/16",
 * "2001:db8::/32", "0.0.0.0/0", "::/0".
 *
 * Lenient parsing (fib_prefix_parse()) also accepts a prefix with host bits
 * set ("10.1.2.3/16" becomes 10.1.0.0/16), a bare address (a host route, /32
 * or /128), a length with leading zeros and any IPv6 spelling inet_pton()
 * takes.  Strict parsing (fib_prefix_parse_strict()) accepts only canonical
 * text, that is, exactly the strings fib_prefix_format() produces.  Both
 * reject IPv4 octets with leading zeros ("010.0.0.0/8"), which some parsers
 * read as octal, and any white space.
 *
 * Order
 * =====
 *
 * fib_prefix_compare() orders prefixes numerically: every IPv4 prefix before
 * every IPv6 prefix, then by network address as an unsigned big-endian
 * number, then the shorter prefix first.  So 9.0.0.0/8 < 10.0.0.0/8 <
 * 10.0.0.0/16 < 10.1.0.0/16 < 2001:db8::/32.  An ordered walk therefore
 * visits each covering prefix just before the prefixes it covers.
 *
 * Thread safety
 * =============
 *
 * Every function is thread-safe: none keeps state.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <string.h>
#include "byte-order.h"
#include "openvswitch/types.h"
#include "openvswitch/util.h"

struct ds;

/* An IPv4 or IPv6 prefix in binary form: 18 bytes, byte-aligned, with no
 * padding, so that arrays of prefixes are dense and a prefix can be copied
 * with a plain assignment.
 *
 * Invariants, kept by every function that returns a prefix: 'family' is
 * AF_INET or AF_INET6; 'len' is at most 32 or 128; every address bit past
 * 'len' is zero, and for IPv4 so are addr[4] to addr[15].  Thanks to them,
 * two prefixes are equal exactly when their 18 bytes are equal. */
struct fib_prefix {
    uint8_t family;             /* AF_INET or AF_INET6. */
    uint8_t len;                /* Prefix length: 0...32 or 0...128. */
    uint8_t addr[16];           /* Network address, network byte order. */
};
BUILD_ASSERT_DECL(sizeof(struct fib_prefix) == 18);

/* Buffer size, with the null terminator, that fib_prefix_format() needs:
 * the longest is "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255/128". */
#define FIB_PREFIX_STRLEN (INET6_ADDRSTRLEN + 4)

/* Reads the address of 'p' as two host-order 64-bit halves: the numeric
 * order of (hi, lo) is the order of the addresses. */
static inline void
fib_prefix_load_addr(const struct fib_prefix *p, uint64_t *hi, uint64_t *lo)
{
    ovs_be64 h, l;

    memcpy(&h, &p->addr[0], 8);
    memcpy(&l, &p->addr[8], 8);
    *hi = ntohll(h);
    *lo = ntohll(l);
}

/* Maximum prefix length for 'family' (32 for AF_INET, 128 for AF_INET6). */
static inline unsigned int
fib_prefix_max_len(int family)
{
    return family == AF_INET6 ? 128 : 32;
}

/* Why a parse failed.  fib_prefix_strerror() gives each a message. */
enum fib_prefix_error {
    FIB_PREFIX_OK = 0,          /* Success. */
    FIB_PREFIX_E_EMPTY,         /* Empty string (or NULL). */
    FIB_PREFIX_E_ADDRESS,       /* Not an IPv4 or IPv6 address. */
    FIB_PREFIX_E_LENGTH,        /* Length after '/' is not a number. */
    FIB_PREFIX_E_RANGE,         /* Length over 32 (IPv4) or 128 (IPv6). */
    FIB_PREFIX_E_NO_LENGTH,     /* Strict: no "/LEN", or '/' where not. */
    FIB_PREFIX_E_HOST_BITS,     /* Strict: host bits set ("10.0.0.1/24"). */
    FIB_PREFIX_E_NOT_CANONICAL, /* Strict: other non-canonical spelling. */
};

const char *fib_prefix_strerror(enum fib_prefix_error);

/* Parsing.
 *
 * The fast interface, fib_prefix_parse__(), returns an error code and does
 * not allocate.  The others follow the OVS convention: NULL on success, or a
 * malloc()'d message that quotes the input ("10.0.0.0/33: prefix length out
 * of range (IPv4 allows 0 to 32)") for the caller to free().  On error '*p'
 * is zeroed. */
enum fib_prefix_error fib_prefix_parse__(const char *s, bool strict,
                                         struct fib_prefix *p);
char *fib_prefix_parse(const char *s, struct fib_prefix *p)
    OVS_WARN_UNUSED_RESULT;
char *fib_prefix_parse_strict(const char *s, struct fib_prefix *p)
    OVS_WARN_UNUSED_RESULT;
char *fib_prefix_parse_addr(const char *s, struct fib_prefix *p)
    OVS_WARN_UNUSED_RESULT;

/* Construction from binary addresses (FPM/netlink).  Host bits past 'len'
 * are cleared; 'len' must not exceed the family's maximum. */
void fib_prefix_init(struct fib_prefix *p, int family, const void *addr,
                     unsigned int len);
void fib_prefix_from_in4(struct fib_prefix *p, ovs_be32 addr,
                         unsigned int len);
void fib_prefix_from_in6(struct fib_prefix *p, const struct in6_addr *addr,
                         unsigned int len);
ovs_be32 fib_prefix_get_in4(const struct fib_prefix *);
struct in6_addr fib_prefix_get_in6(const struct fib_prefix *);

/* Formatting.  'buf' must have at least FIB_PREFIX_STRLEN bytes.  Each
 * returns the length of the text written (without the null terminator). */
size_t fib_prefix_format(const struct fib_prefix *p,
                         char buf[FIB_PREFIX_STRLEN]);
size_t fib_prefix_format_addr(const struct fib_prefix *p,
                              char buf[FIB_PREFIX_STRLEN]);
void fib_prefix_format_ds(const struct fib_prefix *p, struct ds *);
char *fib_prefix_to_string(const struct fib_prefix *p);

/* Comparison and hashing. */
int fib_prefix_compare(const struct fib_prefix *a,
                       const struct fib_prefix *b);
int fib_prefix_compare_text(const char *a, const char *b);
bool fib_prefix_equals(const struct fib_prefix *a,
                       const struct fib_prefix *b);
uint32_t fib_prefix_hash(const struct fib_prefix *p, uint32_t basis);

/* Containment, masks and lengths. */
bool fib_prefix_contains(const struct fib_prefix *p,
                         const struct fib_prefix *addr);
void fib_prefix_truncate(struct fib_prefix *p, unsigned int len);
void fib_prefix_netmask(int family, unsigned int len, uint8_t mask[16]);
ovs_be32 fib_prefix_netmask_in4(unsigned int len);
int fib_prefix_mask_to_len(int family, const void *mask);
bool fib_prefix_is_host(const struct fib_prefix *p);

/* True if 'p' is a default route, 0.0.0.0/0 or ::/0. */
static inline bool
fib_prefix_is_default(const struct fib_prefix *p)
{
    return p->len == 0;
}

/* True if 'p' is an IPv4 prefix. */
static inline bool
fib_prefix_is_ipv4(const struct fib_prefix *p)
{
    return p->family == AF_INET;
}

#endif /* fib-prefix.h */
