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


/* fpm-route-encode: routes and nexthops into FPM netlink messages
 * (lib/fpm-route-encode.h). */

#include <config.h>
#include "lib/fpm-route-encode.h"

#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "openvswitch/ofpbuf.h"
#include "util.h"

/* Appends a netlink header to 'b' and returns its offset, for
 * nl_end_msg(). */
static size_t
nl_start_msg(struct ofpbuf *b, uint16_t type, uint16_t flags, uint32_t seq)
{
    struct nlmsghdr nlh = {
        .nlmsg_len = 0,
        .nlmsg_type = type,
        .nlmsg_flags = flags,
        .nlmsg_seq = seq,
        .nlmsg_pid = 0,
    };
    size_t ofs = b->size;

    ofpbuf_put(b, &nlh, sizeof nlh);
    return ofs;
}

/* Appends 'len' bytes at 'data' to 'b', padded with zeros to a multiple of
 * 4 bytes. */
static void
nl_put_padded(struct ofpbuf *b, const void *data, size_t len)
{
    ofpbuf_put(b, data, len);
    if (NLMSG_ALIGN(len) != len) {
        ofpbuf_put_zeros(b, NLMSG_ALIGN(len) - len);
    }
}

/* Appends an attribute of 'type' with 'len' bytes of 'data' to 'b'. */
static void
nl_put_attr(struct ofpbuf *b, uint16_t type, const void *data, size_t len)
{
    struct nlattr nla = { .nla_len = NLA_HDRLEN + len, .nla_type = type };

    ovs_assert(NLA_HDRLEN + len <= UINT16_MAX);
    ofpbuf_put(b, &nla, sizeof nla);
    if (len) {
        nl_put_padded(b, data, len);
    }
}

static void
nl_put_u32(struct ofpbuf *b, uint16_t type, uint32_t value)
{
    nl_put_attr(b, type, &value, sizeof value);
}

/* Writes the length of the netlink message (or nested attribute) that
 * starts at 'ofs' in 'b': the 'len_size' (2 or 4) bytes at 'ofs' get
 * 'b->size - ofs'. */
static void
nl_end(struct ofpbuf *b, size_t ofs, size_t len_size)
{
    void *p = ofpbuf_at_assert(b, ofs, len_size);
    size_t len = b->size - ofs;

    if (len_size == 4) {
        uint32_t len32 = len;
        memcpy(p, &len32, 4);
    } else {
        uint16_t len16 = len;
        ovs_assert(len <= UINT16_MAX);
        memcpy(p, &len16, 2);
    }
}

/* Appends the gateway of a path to 'b': RTA_GATEWAY if it has the route's
 * 'family', RTA_VIA otherwise. */
static void
put_gateway(struct ofpbuf *b, int family, const struct fpm_addr *gw)
{
    size_t alen = fpm_family_addr_len(gw->family);

    if (!alen) {
        return;
    } else if (gw->family == family) {
        nl_put_attr(b, RTA_GATEWAY, gw->addr, alen);
    } else {
        uint8_t buf[sizeof(struct rtvia) + 16];
        struct rtvia *via = (struct rtvia *) buf;

        via->rtvia_family = gw->family;
        memcpy(via->rtvia_addr, gw->addr, alen);
        nl_put_attr(b, RTA_VIA, buf, sizeof *via + alen);
    }
}

static uint8_t
route_type_to_rtn(enum fpm_route_type type)
{
    switch (type) {
    case FPM_ROUTE_BLACKHOLE:
        return RTN_BLACKHOLE;
    case FPM_ROUTE_UNREACHABLE:
        return RTN_UNREACHABLE;
    case FPM_ROUTE_PROHIBIT:
        return RTN_PROHIBIT;
    case FPM_ROUTE_UNICAST:
    default:
        return RTN_UNICAST;
    }
}

/* Appends to 'b' the rtmsg and the common attributes of 'r' (table, dst,
 * priority) the way zebra's netlink_route_multipath_msg_encode() lays them
 * out: rtm_table carries tables below 256, RTA_TABLE the others. */
static void
put_route_head(struct ofpbuf *b, const struct fpm_route *r, uint32_t table,
               uint32_t rtm_flags, bool always_rta_table)
{
    size_t alen = fpm_family_addr_len(r->prefix.family);
    bool iface_only = (r->n_nexthops > 0 && !r->nhg_id
                       && !r->nexthops[0].gateway.family);
    struct rtmsg rtm = {
        .rtm_family = r->prefix.family,
        .rtm_dst_len = r->prefix.len,
        .rtm_table = table < 256 ? table : RT_TABLE_UNSPEC,
        .rtm_protocol = r->protocol,
        .rtm_scope = iface_only ? RT_SCOPE_LINK : RT_SCOPE_UNIVERSE,
        .rtm_type = route_type_to_rtn(r->type),
        .rtm_flags = rtm_flags,
    };

    ovs_assert(alen);
    nl_put_padded(b, &rtm, sizeof rtm);
    if (table >= 256 || always_rta_table) {
        nl_put_u32(b, RTA_TABLE, table);
    }
    nl_put_attr(b, RTA_DST, r->prefix.addr, alen);
    nl_put_u32(b, RTA_PRIORITY, r->metric);
}

/* Appends to 'b' an RTM_NEWROUTE (op add) or RTM_DELROUTE (op delete)
 * message for 'r', with sequence number 'nlmsg_seq'.  'r->nlmsg_flags', if
 * nonzero, gives the netlink flags; otherwise they are zebra's:
 * NLM_F_REQUEST | NLM_F_CREATE for an add, NLM_F_REQUEST for a delete.
 * Nexthops are RTA_NH_ID if 'r->nhg_id' is nonzero, else RTA_GATEWAY (or
 * RTA_VIA) and RTA_OIF for one path, RTA_MULTIPATH for more. */
void
fpm_route_encode(struct ofpbuf *b, const struct fpm_route *r,
                 uint32_t nlmsg_seq)
{
    bool add = r->op == FPM_OP_ADD;
    uint16_t flags = (r->nlmsg_flags ? r->nlmsg_flags
                      : add ? NLM_F_REQUEST | NLM_F_CREATE
                      : NLM_F_REQUEST);
    size_t ofs = nl_start_msg(b, add ? RTM_NEWROUTE : RTM_DELROUTE,
                              flags, nlmsg_seq);

    put_route_head(b, r, r->table, r->rtm_flags, false);
    if (r->nhg_id) {
        nl_put_u32(b, RTA_NH_ID, r->nhg_id);
    } else if (r->n_nexthops == 1) {
        const struct fpm_route_nh *nh = &r->nexthops[0];

        put_gateway(b, r->prefix.family, &nh->gateway);
        if (nh->ifindex) {
            nl_put_u32(b, RTA_OIF, nh->ifindex);
        }
    } else if (r->n_nexthops > 1) {
        size_t mp_ofs = b->size;
        size_t i;

        nl_put_attr(b, RTA_MULTIPATH, NULL, 0);
        for (i = 0; i < r->n_nexthops; i++) {
            const struct fpm_route_nh *nh = &r->nexthops[i];
            struct rtnexthop rtnh = {
                .rtnh_len = 0,
                .rtnh_flags = nh->flags,
                .rtnh_hops = nh->weight ? nh->weight - 1 : 0,
                .rtnh_ifindex = nh->ifindex,
            };
            size_t rtnh_ofs = b->size;

            ofpbuf_put(b, &rtnh, sizeof rtnh);
            put_gateway(b, r->prefix.family, &nh->gateway);
            nl_end(b, rtnh_ofs, 2);
        }
        nl_end(b, mp_ofs, 2);
    }
    nl_end(b, ofs, 4);
}

/* Appends to 'b' an RTM_NEWNEXTHOP or RTM_DELNEXTHOP message for 'nh',
 * with zebra's flags (NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE for an
 * add). */
void
fpm_nexthop_encode(struct ofpbuf *b, const struct fpm_nexthop *nh,
                   uint32_t nlmsg_seq)
{
    bool add = nh->op == FPM_OP_ADD;
    uint16_t flags = (add ? NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE
                      : NLM_F_REQUEST);
    size_t ofs = nl_start_msg(b, add ? RTM_NEWNEXTHOP : RTM_DELNEXTHOP,
                              flags, nlmsg_seq);
    struct nhmsg nhm = {
        .nh_family = (nh->n_members ? AF_UNSPEC
                      : nh->family ? nh->family
                      : nh->gateway.family),
        .nh_protocol = nh->protocol,
        .nh_flags = nh->nh_flags,
    };

    nl_put_padded(b, &nhm, sizeof nhm);
    nl_put_u32(b, NHA_ID, nh->id);
    if (add) {
        if (nh->n_members) {
            struct nexthop_grp *grp = xcalloc(nh->n_members, sizeof *grp);
            size_t i;

            for (i = 0; i < nh->n_members; i++) {
                grp[i].id = nh->members[i].id;
                grp[i].weight = (nh->members[i].weight
                                 ? nh->members[i].weight - 1 : 0);
            }
            nl_put_attr(b, NHA_GROUP, grp, nh->n_members * sizeof *grp);
            free(grp);
            if (nh->group_type) {
                uint16_t type = nh->group_type;
                nl_put_attr(b, NHA_GROUP_TYPE, &type, sizeof type);
            }
        } else if (nh->blackhole) {
            nl_put_attr(b, NHA_BLACKHOLE, NULL, 0);
        } else {
            size_t alen = fpm_family_addr_len(nh->gateway.family);

            if (alen) {
                nl_put_attr(b, NHA_GATEWAY, nh->gateway.addr, alen);
            }
            if (nh->ifindex) {
                nl_put_u32(b, NHA_OIF, nh->ifindex);
            }
        }
    }
    nl_end(b, ofs, 4);
}

/* Appends to 'b' the RTM_NEWROUTE that tells zebra's dplane_fpm_nl the
 * hardware state of route 'r', as SONiC's fpmsyncd does for
 * "bgp suppress-fib-pending" (RouteSync::onRouteResponse() and
 * sendOffloadReply()):
 *
 *   - nlmsg_flags NLM_F_REQUEST | NLM_F_CREATE: zebra's fpm_read() skips
 *     messages without NLM_F_REQUEST;
 *   - family, destination and length, and protocol from 'r' (zebra matches
 *     the route entry by prefix and by the route type that it derives from
 *     the protocol; it ignores RTPROT_KERNEL and RTPROT_REDIRECT);
 *   - the table field ('table') is the kernel table the route is in, as
 *     zebra sent it (254 for the default VRF): FRR 10.7's dplane_fpm_nl
 *     finds the VRF from the kernel table
 *     (zebra_rib_translate_ctx_from_dplane()).  FRR 10.3 took it for a VRF
 *     id and never found the route, whatever was sent; see
 *     build-aux/frr-chroot;
 *   - rtm_flags: RTM_F_OFFLOAD, RTM_F_TRAP or RTM_F_OFFLOAD_FAILED per
 *     'status' (zebra sets ZEBRA_FLAG_OFFLOADED / _TRAPPED /
 *     _OFFLOAD_FAILED; "offloaded" clears "failed" and vice versa, as the
 *     kernel's fib_alias_hw_flags_set() does) and tells the owner (bgpd)
 *     ZAPI_ROUTE_INSTALLED or ZAPI_ROUTE_FAIL_INSTALL;
 *   - no nexthops (fpmsyncd sends none either).
 *
 * FRR releases before the FPM read path (e.g. Debian 12's 8.4) read and
 * discard whatever the FPM server sends. */
void
fpm_route_encode_offload(struct ofpbuf *b, const struct fpm_route *r,
                         enum fpm_offload_status status, uint32_t table,
                         uint32_t nlmsg_seq)
{
    uint32_t rtm_flags = (status == FPM_OFFLOAD_OK ? RTM_F_OFFLOAD
                          : status == FPM_OFFLOAD_TRAP ? RTM_F_TRAP
                          : RTM_F_OFFLOAD_FAILED);
    size_t ofs = nl_start_msg(b, RTM_NEWROUTE, NLM_F_REQUEST | NLM_F_CREATE,
                              nlmsg_seq);
    struct fpm_route head = *r;

    head.n_nexthops = 0;
    head.nhg_id = 0;
    put_route_head(b, &head, table, rtm_flags, true);
    nl_end(b, ofs, 4);
}

