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

#include "lib/fpm-route.h"

#include <errno.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "lib/fpm-frame.h"
#include "util.h"

/* Attribute policies for nlmsg_parse(): libnl checks that each attribute
 * with a type here is at least as long as that type needs.  Addresses are
 * checked for their exact size against the message's family afterward. */
static struct nla_policy rta_policy[RTA_MAX + 1] = {
    [RTA_DST] = { .type = NLA_UNSPEC, .minlen = 4 },
    [RTA_SRC] = { .type = NLA_UNSPEC, .minlen = 4 },
    [RTA_GATEWAY] = { .type = NLA_UNSPEC, .minlen = 4 },
    [RTA_VIA] = { .type = NLA_UNSPEC, .minlen = 2 },
    [RTA_OIF] = { .type = NLA_U32 },
    [RTA_PRIORITY] = { .type = NLA_U32 },
    [RTA_TABLE] = { .type = NLA_U32 },
    [RTA_NH_ID] = { .type = NLA_U32 },
    [RTA_MULTIPATH] = { .type = NLA_UNSPEC,
                        .minlen = sizeof(struct rtnexthop) },
};

static struct nla_policy nha_policy[NHA_MAX + 1] = {
    [NHA_ID] = { .type = NLA_U32 },
    [NHA_GROUP] = { .type = NLA_UNSPEC,
                    .minlen = sizeof(struct nexthop_grp) },
    [NHA_GROUP_TYPE] = { .type = NLA_U16 },
    [NHA_BLACKHOLE] = { .type = NLA_FLAG },
    [NHA_OIF] = { .type = NLA_U32 },
    [NHA_GATEWAY] = { .type = NLA_UNSPEC, .minlen = 4 },
};

/* Internal result of the per-type parsers: the message is well formed but
 * not something fibsync translates. */
#define FPM_PARSE_SKIP (-1)

const char *
fpm_parse_error_to_string(int error)
{
    switch (error) {
    case FPM_PARSE_OK:
        return "ok";
    case FPM_PARSE_TRUNCATED:
        return "message shorter than its header";
    case FPM_PARSE_BAD_ATTR:
        return "malformed attribute chain";
    case FPM_PARSE_BAD_ATTR_LEN:
        return "attribute too short for its type";
    case FPM_PARSE_BAD_FAMILY:
        return "unsupported address family";
    case FPM_PARSE_BAD_PREFIXLEN:
        return "prefix length over the address size";
    case FPM_PARSE_HOST_BITS:
        return "prefix has host bits set";
    case FPM_PARSE_BAD_ADDR_LEN:
        return "address attribute of the wrong size";
    case FPM_PARSE_BAD_MULTIPATH:
        return "malformed RTA_MULTIPATH";
    case FPM_PARSE_BAD_GROUP:
        return "malformed NHA_GROUP";
    case FPM_PARSE_MISSING_ID:
        return "nexthop message without NHA_ID";
    case FPM_PARSE_CONFLICT:
        return "contradictory attributes";
    case FPM_PARSE_TOO_MANY_NEXTHOPS:
        return "too many nexthops";
    }
    return error > 0 && error < FPM_PARSE_TRUNCATED ? ovs_strerror(error)
                                                    : "unknown parse error";
}

/* Returns the size of an address of 'family', or 0 if 'family' is neither
 * AF_INET nor AF_INET6. */
size_t
fpm_family_addr_len(int family)
{
    return (family == AF_INET ? 4
            : family == AF_INET6 ? 16
            : 0);
}

/* Route and nexthop containers. */

/* Initializes 'r' as an empty route (an add, in table 254). */
void
fpm_route_init(struct fpm_route *r)
{
    memset(r, 0, sizeof *r);
    r->table = RT_TABLE_MAIN;
}

/* Frees the memory owned by 'r'. */
void
fpm_route_destroy(struct fpm_route *r)
{
    if (r) {
        free(r->nexthops);
        r->nexthops = NULL;
        r->n_nexthops = r->allocated_nexthops = 0;
    }
}

/* Resets 'r' to an empty route, keeping its nexthop array for reuse. */
void
fpm_route_clear(struct fpm_route *r)
{
    struct fpm_route_nh *nexthops = r->nexthops;
    size_t allocated = r->allocated_nexthops;

    memset(r, 0, sizeof *r);
    r->table = RT_TABLE_MAIN;
    r->nexthops = nexthops;
    r->allocated_nexthops = allocated;
}

/* Appends a zeroed path with weight 1 to 'r' and returns it. */
struct fpm_route_nh *
fpm_route_add_nexthop(struct fpm_route *r)
{
    struct fpm_route_nh *nh;

    if (r->n_nexthops >= r->allocated_nexthops) {
        r->nexthops = x2nrealloc(r->nexthops, &r->allocated_nexthops,
                                 sizeof *r->nexthops);
    }
    nh = &r->nexthops[r->n_nexthops++];
    memset(nh, 0, sizeof *nh);
    nh->weight = 1;
    return nh;
}

/* Initializes 'nh' as an empty nexthop object (an add). */
void
fpm_nexthop_init(struct fpm_nexthop *nh)
{
    memset(nh, 0, sizeof *nh);
}

/* Frees the memory owned by 'nh'. */
void
fpm_nexthop_destroy(struct fpm_nexthop *nh)
{
    if (nh) {
        free(nh->members);
        nh->members = NULL;
        nh->n_members = nh->allocated_members = 0;
    }
}

/* Resets 'nh' to empty, keeping its member array for reuse. */
void
fpm_nexthop_clear(struct fpm_nexthop *nh)
{
    struct fpm_nhg_member *members = nh->members;
    size_t allocated = nh->allocated_members;

    memset(nh, 0, sizeof *nh);
    nh->members = members;
    nh->allocated_members = allocated;
}

/* Appends a zeroed member with weight 1 to group 'nh' and returns it. */
struct fpm_nhg_member *
fpm_nexthop_add_member(struct fpm_nexthop *nh)
{
    struct fpm_nhg_member *m;

    if (nh->n_members >= nh->allocated_members) {
        nh->members = x2nrealloc(nh->members, &nh->allocated_members,
                                 sizeof *nh->members);
    }
    m = &nh->members[nh->n_members++];
    m->id = 0;
    m->weight = 1;
    return m;
}

/* Initializes 'msg' for fpm_msg_parse(); reuse it for many messages. */
void
fpm_msg_init(struct fpm_msg *msg)
{
    memset(msg, 0, sizeof *msg);
    fpm_route_init(&msg->route);
    fpm_nexthop_init(&msg->nexthop);
    msg->kind = FPM_MSG_SKIPPED;
}

/* Frees the memory owned by 'msg'. */
void
fpm_msg_destroy(struct fpm_msg *msg)
{
    if (msg) {
        fpm_route_destroy(&msg->route);
        fpm_nexthop_destroy(&msg->nexthop);
    }
}

/* Decoding. */

/* Parses the attributes of 'nlh', after a family header of 'hdrlen' bytes,
 * into 'tb' (maxtype 'maxtype') with libnl's nlmsg_parse() and 'policy'.
 * Unlike nlmsg_parse() alone, refuses an attribute chain that does not
 * cover the message exactly: libnl stops at the first attribute whose
 * length is below 4 or past the end and only logs the leftover bytes, which
 * would silently drop the rest of the message. */
static int
parse_attrs(const struct nlmsghdr *nlh_, int hdrlen, struct nlattr **tb,
            int maxtype, struct nla_policy *policy)
{
    struct nlmsghdr *nlh = CONST_CAST(struct nlmsghdr *, nlh_);
    struct nlattr *nla;
    int error;
    int rem;

    error = nlmsg_parse(nlh, hdrlen, tb, maxtype, policy);
    if (error) {
        return (error == -NLE_MSG_TOOSHORT ? FPM_PARSE_TRUNCATED
                : error == -NLE_RANGE ? FPM_PARSE_BAD_ATTR_LEN
                : FPM_PARSE_BAD_ATTR);
    }
    nlmsg_for_each_attr (nla, nlh, hdrlen, rem) {
        continue;
    }
    /* 'rem' may be negative if the last attribute lacks its padding. */
    return rem > 0 ? FPM_PARSE_BAD_ATTR : 0;
}

/* Like parse_attrs(), for a nested chain of 'len' bytes at 'head'. */
static int
parse_nested(struct nlattr *head, int len, struct nlattr **tb, int maxtype,
             struct nla_policy *policy)
{
    struct nlattr *nla;
    int error;
    int rem;

    error = nla_parse(tb, maxtype, head, len, policy);
    if (error) {
        return (error == -NLE_RANGE ? FPM_PARSE_BAD_ATTR_LEN
                : FPM_PARSE_BAD_ATTR);
    }
    nla_for_each_attr (nla, head, len, rem) {
        continue;
    }
    return rem > 0 ? FPM_PARSE_BAD_ATTR : 0;
}

/* Stores the gateway of a path in 'gw', from RTA_GATEWAY (an address of the
 * route's 'family') or RTA_VIA (a struct rtvia, whose family may differ:
 * RFC 5549 IPv4-over-IPv6 nexthops).  Either may be null. */
static int
parse_gateway(int family, const struct nlattr *gateway,
              const struct nlattr *via, struct fpm_addr *gw)
{
    memset(gw, 0, sizeof *gw);
    if (gateway && via) {
        return FPM_PARSE_CONFLICT;
    } else if (gateway) {
        size_t alen = fpm_family_addr_len(family);

        if (nla_len(gateway) != (int) alen) {
            return FPM_PARSE_BAD_ADDR_LEN;
        }
        gw->family = family;
        memcpy(gw->addr, nla_data(gateway), alen);
    } else if (via) {
        const struct rtvia *rtvia = nla_data(via);
        size_t alen = fpm_family_addr_len(rtvia->rtvia_family);

        if (!alen) {
            return FPM_PARSE_BAD_FAMILY;
        } else if (nla_len(via) != (int) (sizeof *rtvia + alen)) {
            return FPM_PARSE_BAD_ADDR_LEN;
        }
        gw->family = rtvia->rtvia_family;
        memcpy(gw->addr, rtvia->rtvia_addr, alen);
    }
    return 0;
}

/* Parses RTA_MULTIPATH 'mp' into 'r''s nexthops. */
static int
parse_multipath(struct fpm_route *r, struct nlattr *mp)
{
    const uint8_t *p = nla_data(mp);
    size_t left = nla_len(mp);

    while (left > 0) {
        const struct rtnexthop *rtnh = (const struct rtnexthop *) p;
        struct nlattr *ntb[RTA_MAX + 1];
        struct fpm_route_nh *nh;
        size_t step;
        int error;

        if (left < sizeof *rtnh
            || rtnh->rtnh_len < sizeof *rtnh || rtnh->rtnh_len > left) {
            return FPM_PARSE_BAD_MULTIPATH;
        }
        if (r->n_nexthops >= FPM_MAX_NEXTHOPS) {
            return FPM_PARSE_TOO_MANY_NEXTHOPS;
        }

        error = parse_nested(CONST_CAST(struct nlattr *,
                                        (const struct nlattr *)
                                        (p + RTNH_LENGTH(0))),
                             rtnh->rtnh_len - RTNH_LENGTH(0),
                             ntb, RTA_MAX, rta_policy);
        if (error) {
            return error;
        }

        nh = fpm_route_add_nexthop(r);
        error = parse_gateway(r->prefix.family, ntb[RTA_GATEWAY],
                              ntb[RTA_VIA], &nh->gateway);
        if (error) {
            return error;
        }
        nh->ifindex = rtnh->rtnh_ifindex;
        nh->weight = rtnh->rtnh_hops + 1;
        nh->flags = rtnh->rtnh_flags;

        step = MIN((size_t) RTNH_ALIGN(rtnh->rtnh_len), left);
        p += step;
        left -= step;
    }
    return r->n_nexthops ? 0 : FPM_PARSE_BAD_MULTIPATH;
}

/* Returns true if 'prefix' has bits set past its length. */
static bool
prefix_has_host_bits(const struct fpm_prefix *prefix)
{
    size_t alen = fpm_family_addr_len(prefix->family);
    size_t i;

    for (i = prefix->len / 8; i < alen; i++) {
        int keep = (int) prefix->len - (int) (i * 8);
        uint8_t mask = keep <= 0 ? 0 : (uint8_t) (0xff << (8 - keep));

        if (prefix->addr[i] & ~mask) {
            return true;
        }
    }
    return false;
}

/* Sets the type of route 'r', whose 'op' is set, from 'rtm_type'.  Returns
 * 0, or FPM_PARSE_SKIP for an add of a type that is not fibsync's. */
static int
parse_route_type(struct fpm_route *r, uint8_t rtm_type)
{
    switch (rtm_type) {
    case RTN_UNSPEC:
    case RTN_UNICAST:
        r->type = FPM_ROUTE_UNICAST;
        break;
    case RTN_BLACKHOLE:
        r->type = FPM_ROUTE_BLACKHOLE;
        break;
    case RTN_UNREACHABLE:
        r->type = FPM_ROUTE_UNREACHABLE;
        break;
    case RTN_PROHIBIT:
        r->type = FPM_ROUTE_PROHIBIT;
        break;
    default:
        /* RTN_LOCAL, RTN_MULTICAST, RTN_THROW...: a delete is still a
         * delete of the prefix; an add is not ours. */
        if (r->op == FPM_OP_ADD) {
            return FPM_PARSE_SKIP;
        }
        r->type = FPM_ROUTE_UNICAST;
        break;
    }
    return 0;
}

/* Parses the nexthops of route 'r', whose prefix is set, from its
 * attributes 'tb' and its rtm_flags 'rtm_flags'. */
static int
parse_route_nexthops(struct fpm_route *r, struct nlattr **tb,
                     unsigned int rtm_flags)
{
    int error;

    /* Nexthops: an id, RTA_MULTIPATH, or a single RTA_GATEWAY/RTA_VIA and
     * RTA_OIF.  With RTA_MULTIPATH, the top-level gateway and oif, if any,
     * only repeat the first path (the kernel checks that they match), so
     * they are ignored. */
    if (tb[RTA_MULTIPATH]) {
        if (r->nhg_id) {
            return FPM_PARSE_CONFLICT;
        }
        return parse_multipath(r, tb[RTA_MULTIPATH]);
    } else if (tb[RTA_GATEWAY] || tb[RTA_VIA] || tb[RTA_OIF]) {
        struct fpm_route_nh *nh;

        if (r->nhg_id) {
            return FPM_PARSE_CONFLICT;
        }
        nh = fpm_route_add_nexthop(r);
        error = parse_gateway(r->prefix.family, tb[RTA_GATEWAY],
                              tb[RTA_VIA], &nh->gateway);
        if (error) {
            return error;
        }
        nh->ifindex = tb[RTA_OIF] ? nla_get_u32(tb[RTA_OIF]) : 0;
        nh->flags = rtm_flags & 0xff;
    }
    return 0;
}

/* Parses an RTM_NEWROUTE or RTM_DELROUTE message into 'r'. */
static int
parse_route(struct fpm_route *r, const struct nlmsghdr *nlh)
{
    struct nlattr *tb[RTA_MAX + 1];
    const struct rtmsg *rtm;
    size_t alen;
    int error;

    fpm_route_clear(r);
    if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof *rtm)) {
        return FPM_PARSE_TRUNCATED;
    }
    rtm = NLMSG_DATA(nlh);

    /* MPLS label routes (AF_MPLS), multicast (RTNL_FAMILY_IPMR), ... are
     * well formed but not ours. */
    alen = fpm_family_addr_len(rtm->rtm_family);
    if (!alen) {
        return FPM_PARSE_SKIP;
    }

    error = parse_attrs(nlh, sizeof *rtm, tb, RTA_MAX, rta_policy);
    if (error) {
        return error;
    }

    r->op = nlh->nlmsg_type == RTM_NEWROUTE ? FPM_OP_ADD : FPM_OP_DEL;
    r->nlmsg_flags = nlh->nlmsg_flags;
    r->rtm_flags = rtm->rtm_flags;
    r->protocol = rtm->rtm_protocol;
    r->table = tb[RTA_TABLE] ? nla_get_u32(tb[RTA_TABLE]) : rtm->rtm_table;
    r->metric = tb[RTA_PRIORITY] ? nla_get_u32(tb[RTA_PRIORITY]) : 0;
    r->nhg_id = tb[RTA_NH_ID] ? nla_get_u32(tb[RTA_NH_ID]) : 0;

    /* Prefix. */
    r->prefix.family = rtm->rtm_family;
    if (rtm->rtm_dst_len > alen * 8) {
        return FPM_PARSE_BAD_PREFIXLEN;
    }
    r->prefix.len = rtm->rtm_dst_len;
    if (tb[RTA_DST]) {
        if (nla_len(tb[RTA_DST]) != (int) alen) {
            return FPM_PARSE_BAD_ADDR_LEN;
        }
        memcpy(r->prefix.addr, nla_data(tb[RTA_DST]), alen);
        if (prefix_has_host_bits(&r->prefix)) {
            return FPM_PARSE_HOST_BITS;
        }
    }

    /* Source-specific (IPv6 source-destination) routes cannot be
     * represented. */
    if (rtm->rtm_src_len || tb[RTA_SRC]) {
        return FPM_PARSE_SKIP;
    }

    error = parse_route_type(r, rtm->rtm_type);
    if (error) {
        return error;
    }
    return parse_route_nexthops(r, tb, rtm->rtm_flags);
}

/* Parses an RTM_NEWNEXTHOP or RTM_DELNEXTHOP message into 'nh'. */
static int
parse_nexthop(struct fpm_nexthop *nh, const struct nlmsghdr *nlh)
{
    struct nlattr *tb[NHA_MAX + 1];
    const struct nhmsg *nhm;
    int error;

    fpm_nexthop_clear(nh);
    if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof *nhm)) {
        return FPM_PARSE_TRUNCATED;
    }
    nhm = NLMSG_DATA(nlh);

    error = parse_attrs(nlh, sizeof *nhm, tb, NHA_MAX, nha_policy);
    if (error) {
        return error;
    }

    nh->op = nlh->nlmsg_type == RTM_NEWNEXTHOP ? FPM_OP_ADD : FPM_OP_DEL;
    nh->family = nhm->nh_family;
    nh->protocol = nhm->nh_protocol;
    nh->nh_flags = nhm->nh_flags;
    nh->id = tb[NHA_ID] ? nla_get_u32(tb[NHA_ID]) : 0;
    if (!nh->id) {
        return FPM_PARSE_MISSING_ID;
    }
    if (nh->op == FPM_OP_DEL) {
        /* A delete needs only the id; whatever else is there is ignored. */
        return 0;
    }

    nh->blackhole = tb[NHA_BLACKHOLE] != NULL;
    nh->ifindex = tb[NHA_OIF] ? nla_get_u32(tb[NHA_OIF]) : 0;
    nh->group_type = tb[NHA_GROUP_TYPE] ? nla_get_u16(tb[NHA_GROUP_TYPE]) : 0;

    if (tb[NHA_GROUP]) {
        const struct nexthop_grp *grp = nla_data(tb[NHA_GROUP]);
        size_t len = nla_len(tb[NHA_GROUP]);
        size_t i, n;

        if (tb[NHA_GATEWAY] || tb[NHA_OIF] || nh->blackhole) {
            return FPM_PARSE_CONFLICT;
        }
        if (len % sizeof *grp) {
            return FPM_PARSE_BAD_GROUP;
        }
        n = len / sizeof *grp;
        if (n > FPM_MAX_NEXTHOPS) {
            return FPM_PARSE_TOO_MANY_NEXTHOPS;
        }
        for (i = 0; i < n; i++) {
            struct fpm_nhg_member *m;

            if (!grp[i].id) {
                return FPM_PARSE_BAD_GROUP;
            }
            m = fpm_nexthop_add_member(nh);
            m->id = grp[i].id;
            m->weight = grp[i].weight + 1;
        }
        return 0;
    }

    if (nh->blackhole && (tb[NHA_GATEWAY] || tb[NHA_OIF])) {
        return FPM_PARSE_CONFLICT;
    }
    if (tb[NHA_GATEWAY]) {
        size_t alen = fpm_family_addr_len(nhm->nh_family);

        if (!alen) {
            return FPM_PARSE_BAD_FAMILY;
        } else if (nla_len(tb[NHA_GATEWAY]) != (int) alen) {
            return FPM_PARSE_BAD_ADDR_LEN;
        }
        nh->gateway.family = nhm->nh_family;
        memcpy(nh->gateway.addr, nla_data(tb[NHA_GATEWAY]), alen);
    }
    return 0;
}

/* Parses netlink message 'nlh', whose 'nlmsg_len' bytes must all be
 * readable (fpm_nlmsg_iter_next() guarantees that), into 'msg'.
 *
 * Returns 0 on success, with 'msg->kind' saying which of 'msg->route' and
 * 'msg->nexthop' holds the result, or FPM_MSG_SKIPPED for a message type,
 * family or route type that fibsync does not translate.  Returns an
 * enum fpm_parse_error for a malformed message; 'msg' then holds nothing
 * usable. */
int
fpm_msg_parse(struct fpm_msg *msg, const struct nlmsghdr *nlh)
{
    int error;

    msg->nlmsg_type = nlh->nlmsg_type;
    msg->nlmsg_seq = nlh->nlmsg_seq;
    msg->kind = FPM_MSG_SKIPPED;
    if (nlh->nlmsg_len < NLMSG_HDRLEN) {
        return FPM_PARSE_TRUNCATED;
    }

    switch (nlh->nlmsg_type) {
    case RTM_NEWROUTE:
    case RTM_DELROUTE:
        error = parse_route(&msg->route, nlh);
        if (!error) {
            msg->kind = FPM_MSG_ROUTE;
        }
        break;

    case RTM_NEWNEXTHOP:
    case RTM_DELNEXTHOP:
        error = parse_nexthop(&msg->nexthop, nlh);
        if (!error) {
            msg->kind = FPM_MSG_NEXTHOP;
        }
        break;

    default:
        error = FPM_PARSE_SKIP;
        break;
    }

    if (error == FPM_PARSE_SKIP) {
        msg->kind = FPM_MSG_SKIPPED;
        return 0;
    }
    return error;
}

/* Starts the parse of the frame payload of 'size' bytes at 'data': points
 * 'it' at its first message and counts the frame in 'stats', or in
 * 'dummy' (zeroed here, so that no count reads an indeterminate value)
 * if 'stats' is null.  Returns the counters to use. */
static struct fpm_parse_stats *
parse_start(struct fpm_nlmsg_iter *it, const void *data, size_t size,
            struct fpm_parse_stats *stats, struct fpm_parse_stats *dummy)
{
    if (!stats) {
        memset(dummy, 0, sizeof *dummy);
        stats = dummy;
    }
    stats->n_frames++;
    fpm_nlmsg_iter_init(it, data, size);
    return stats;
}

/* Parses the next netlink message of 'it' into 'msg' and counts it in
 * 'stats'.  Returns 0 or an fpm_parse_error, with the message in '*nlhp';
 * FPM_PARSE_TRUNCATED with '*nlhp' null when the rest of the frame cannot
 * be split into messages (the iterator is then at its end); or EOF. */
static int
parse_next(struct fpm_nlmsg_iter *it, struct fpm_msg *msg,
           struct fpm_parse_stats *stats, const struct nlmsghdr **nlhp)
{
    int error = fpm_nlmsg_iter_next(it, nlhp);

    if (error == EOF) {
        return EOF;
    } else if (error) {
        stats->n_bad_frames++;
        stats->n_errors++;
        return FPM_PARSE_TRUNCATED;
    }
    stats->n_msgs++;
    error = fpm_msg_parse(msg, *nlhp);
    if (error) {
        stats->n_errors++;
    } else if (msg->kind == FPM_MSG_ROUTE) {
        stats->n_routes++;
    } else if (msg->kind == FPM_MSG_NEXTHOP) {
        stats->n_nexthops++;
    } else {
        stats->n_skipped++;
    }
    return error;
}

/* Parses every netlink message in the frame payload of 'size' bytes at
 * 'data', using 'scratch' (initialized with fpm_msg_init()) for the results,
 * updates 'stats' (if nonnull), and calls 'cb' (if nonnull) for each
 * message: with the result and error 0, or with a null result and the
 * error. */
void
fpm_route_parse_frame(const void *data, size_t size, struct fpm_msg *scratch,
                      struct fpm_parse_stats *stats, fpm_msg_cb *cb, void *aux)
{
    struct fpm_parse_stats dummy;
    const struct nlmsghdr *nlh;
    struct fpm_nlmsg_iter it;
    int error;

    stats = parse_start(&it, data, size, stats, &dummy);
    while ((error = parse_next(&it, scratch, stats, &nlh)) != EOF) {
        if (cb) {
            cb(error ? NULL : scratch, error, nlh, aux);
        }
    }
}

/* Initializes 'g' empty. */
void
fpm_msg_group_init(struct fpm_msg_group *g)
{
    for (size_t i = 0; i < FPM_MSG_GROUP_SIZE; i++) {
        fpm_msg_init(&g->msgs[i]);
    }
    g->n = 0;
}

/* Frees the memory owned by 'g'. */
void
fpm_msg_group_destroy(struct fpm_msg_group *g)
{
    for (size_t i = 0; i < FPM_MSG_GROUP_SIZE; i++) {
        fpm_msg_destroy(&g->msgs[i]);
    }
}

/* Like fpm_route_parse_frame(), but parses each message of the frame into
 * the next free slot of 'g' and calls 'flush' whenever 'g' is full;
 * 'flush' handles the slots in order and sets 'g->n' to 0.  Slots still
 * filled at the end are the caller's to flush when it chooses: they are
 * copies, so they outlive the frame (fpmsyncd flushes them before it
 * reads from zebra again). */
void
fpm_route_parse_frame_grouped(const void *data, size_t size,
                              struct fpm_msg_group *g,
                              struct fpm_parse_stats *stats,
                              fpm_msg_group_cb *flush, void *aux)
{
    struct fpm_parse_stats dummy;
    const struct nlmsghdr *nlh;
    struct fpm_nlmsg_iter it;
    int error;

    stats = parse_start(&it, data, size, stats, &dummy);
    for (;;) {
        struct fpm_msg *msg;

        if (g->n >= FPM_MSG_GROUP_SIZE) {
            flush(g, aux);
            ovs_assert(!g->n);
        }
        msg = &g->msgs[g->n];
        error = parse_next(&it, msg, stats, &nlh);
        if (error == EOF) {
            break;
        }
        if (!nlh) {
            /* fpm_msg_parse() did not see it. */
            msg->kind = FPM_MSG_SKIPPED;
            msg->nlmsg_type = 0;
            msg->nlmsg_seq = 0;
        }
        g->errors[g->n] = error;
        g->broken[g->n] = !nlh;
        g->n++;
    }
}
