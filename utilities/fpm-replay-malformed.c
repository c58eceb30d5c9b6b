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

/* fpm-replay --malformed: after generate mode's routes, one bad frame or
 * message for receivers' tests (see --help for the kinds). */

#include <config.h>

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>

#include "lib/fpm-route-encode.h"
#include "utilities/fpm-replay.h"
#include "util.h"

/* The kinds that --malformed accepts. */
static const char *const malformed_kinds[] = {
    "version", "type", "short", "partial", "empty",
    "nlmsg-len", "truncated", "attr-len", "prefix-len", "host-bits",
    "multipath", "group", "unknown",
};

/* Returns true if 'kind' is one of the --malformed kinds. */
bool
fpm_replay_malformed_kind_is_valid(const char *kind)
{
    for (size_t i = 0; i < ARRAY_SIZE(malformed_kinds); i++) {
        if (!strcmp(kind, malformed_kinds[i])) {
            return true;
        }
    }
    return false;
}

/* Starts 'route' as an IPv4 route to 'prefix'/'len' with the --table and
 * --protocol of 'c', and no nexthop. */
static void
start_test_route(const struct fpm_replay_conn *c, struct fpm_route *route,
                 const char *prefix, unsigned int len)
{
    fpm_route_clear(route);
    route->table = c->opts->table;
    route->protocol = c->opts->protocol;
    route->prefix.family = AF_INET;
    route->prefix.len = len;
    inet_pton(AF_INET, prefix, route->prefix.addr);
}

/* Adds to 'route' a path through gateway 'k' of IPv4, on --ifindex. */
static void
add_test_path(const struct fpm_replay_conn *c, struct fpm_route *route,
              unsigned int k)
{
    struct fpm_route_nh *nh = fpm_route_add_nexthop(route);

    fpm_replay_gateway_addr(AF_INET, k, &nh->gateway);
    nh->ifindex = c->opts->ifindex;
}

/* Encodes a one-path IPv4 route to 'prefix'/'len' into 'c->msg', using
 * 'route' as scratch. */
static void
make_test_route(struct fpm_replay_conn *c, struct fpm_route *route,
                const char *prefix, unsigned int len)
{
    start_test_route(c, route, prefix, len);
    route->metric = c->opts->metric;
    add_test_path(c, route, 0);
    ofpbuf_clear(&c->msg);
    fpm_route_encode(&c->msg, route, c->seq++);
}

/* Queues a raw frame header followed by 'c->msg'. */
static void
put_raw_frame(struct fpm_replay_conn *c, uint8_t version, uint8_t type,
              uint16_t len)
{
    uint8_t hdr[4] = { version, type, len >> 8, len & 0xff };

    fpm_replay_conn_close_frame(c);
    ofpbuf_put(&c->out, hdr, sizeof hdr);
    ofpbuf_put(&c->out, c->msg.data, c->msg.size);
    c->n_frames++;
}

/* Returns the first attribute of the route message in 'c->msg'. */
static struct nlattr *
first_route_attr(struct fpm_replay_conn *c)
{
    return (struct nlattr *) ((uint8_t *) c->msg.data + NLMSG_HDRLEN
                              + NLMSG_ALIGN(sizeof(struct rtmsg)));
}

/* Queues the frame of a frame-level 'kind' ("version", "type", "short",
 * "partial" or "empty").  Returns true if the listener is expected to close
 * the connection after it. */
static bool
send_bad_frame(struct fpm_replay_conn *c, struct fpm_route *route,
               const char *kind)
{
    size_t frame_len;

    if (!strcmp(kind, "empty")) {
        ofpbuf_clear(&c->msg);
        put_raw_frame(c, FPM_FRAME_VERSION, FPM_FRAME_TYPE_NETLINK,
                      FPM_FRAME_HDR_LEN);
        return false;
    }

    make_test_route(c, route, "192.0.2.0", 25);
    frame_len = c->msg.size + FPM_FRAME_HDR_LEN;
    if (!strcmp(kind, "version")) {
        put_raw_frame(c, 2, FPM_FRAME_TYPE_NETLINK, frame_len);
    } else if (!strcmp(kind, "type")) {
        put_raw_frame(c, FPM_FRAME_VERSION, FPM_FRAME_TYPE_PROTOBUF,
                      frame_len);
    } else if (!strcmp(kind, "short")) {
        put_raw_frame(c, FPM_FRAME_VERSION, FPM_FRAME_TYPE_NETLINK, 2);
    } else {
        put_raw_frame(c, FPM_FRAME_VERSION, FPM_FRAME_TYPE_NETLINK,
                      frame_len + 100);
    }
    return true;
}

/* Makes into 'c->msg' a two-path route whose RTA_MULTIPATH's first
 * rtnexthop has rtnh_len 0: a naive walk that steps by
 * RTNH_ALIGN(rtnh_len) never advances. */
static void
make_bad_multipath(struct fpm_replay_conn *c, struct fpm_route *route)
{
    struct rtnexthop *rtnh;
    struct nlattr *nla;

    start_test_route(c, route, "198.51.100.0", 24);
    add_test_path(c, route, 0);
    add_test_path(c, route, 1);
    ofpbuf_clear(&c->msg);
    fpm_route_encode(&c->msg, route, c->seq++);

    /* Attributes: RTA_DST, RTA_PRIORITY, RTA_MULTIPATH. */
    nla = first_route_attr(c);
    while (nla->nla_type != RTA_MULTIPATH) {
        nla = (struct nlattr *) ((uint8_t *) nla + NLA_ALIGN(nla->nla_len));
    }
    rtnh = (struct rtnexthop *) ((uint8_t *) nla + NLA_HDRLEN);
    rtnh->rtnh_len = 0;
}

/* Makes into 'c->msg' an RTM_NEWNEXTHOP whose NHA_GROUP has 6 bytes: not a
 * whole struct nexthop_grp. */
static void
make_bad_group(struct fpm_replay_conn *c)
{
    struct nlmsghdr *nlh;
    struct nlattr *nla;
    uint8_t raw[NLMSG_HDRLEN + 8 + 8 + 12];

    memset(raw, 0, sizeof raw);
    nlh = (struct nlmsghdr *) raw;
    nlh->nlmsg_len = sizeof raw;
    nlh->nlmsg_type = RTM_NEWNEXTHOP;
    nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE;
    nla = (struct nlattr *) (raw + NLMSG_HDRLEN + 8);
    nla->nla_len = 8;
    nla->nla_type = 1;                      /* NHA_ID. */
    memcpy(nla + 1, &(uint32_t) { 999999 }, 4);
    nla = (struct nlattr *) (raw + NLMSG_HDRLEN + 16);
    nla->nla_len = 4 + 6;
    nla->nla_type = 2;                      /* NHA_GROUP. */
    ofpbuf_clear(&c->msg);
    ofpbuf_put(&c->msg, raw, sizeof raw);
}

/* Makes the bad message of a netlink-level 'kind' into 'c->msg'. */
static void
make_bad_message(struct fpm_replay_conn *c, struct fpm_route *route,
                 const char *kind)
{
    if (!strcmp(kind, "nlmsg-len")) {
        /* nlmsg_len past the end of the frame; the second good route goes
         * first since nothing after this message can be found. */
        make_test_route(c, route, "192.0.2.128", 25);
        fpm_replay_conn_put_msg(c);
        make_test_route(c, route, "198.51.100.0", 24);
        ((struct nlmsghdr *) c->msg.data)->nlmsg_len += 64;
    } else if (!strcmp(kind, "truncated")) {
        /* Shorter than a struct rtmsg. */
        make_test_route(c, route, "198.51.100.0", 24);
        c->msg.size = NLMSG_HDRLEN + 4;
        ((struct nlmsghdr *) c->msg.data)->nlmsg_len = c->msg.size;
    } else if (!strcmp(kind, "attr-len")) {
        /* First attribute (RTA_DST) runs past the message. */
        make_test_route(c, route, "198.51.100.0", 24);
        first_route_attr(c)->nla_len = 0x2000;
    } else if (!strcmp(kind, "prefix-len")) {
        make_test_route(c, route, "198.51.100.0", 33);
    } else if (!strcmp(kind, "host-bits")) {
        make_test_route(c, route, "198.51.100.1", 24);
    } else if (!strcmp(kind, "multipath")) {
        make_bad_multipath(c, route);
    } else if (!strcmp(kind, "group")) {
        make_bad_group(c);
    } else if (!strcmp(kind, "unknown")) {
        /* An RTM_NEWLINK: well formed, not a route: to be skipped. */
        struct nlmsghdr nlh = {
            .nlmsg_len = NLMSG_HDRLEN + 16,
            .nlmsg_type = RTM_NEWLINK,
            .nlmsg_flags = NLM_F_REQUEST,
        };

        ofpbuf_clear(&c->msg);
        ofpbuf_put(&c->msg, &nlh, sizeof nlh);
        ofpbuf_put_zeros(&c->msg, 16);
    } else {
        ovs_fatal(0, "unknown --malformed kind \"%s\"", kind);
    }
}

/* Queues the --malformed frame 'kind'.  Returns true if it is a frame-level
 * error after which the listener is expected to close the connection. */
bool
fpm_replay_send_malformed(struct fpm_replay_conn *c, const char *kind)
{
    struct fpm_route route;
    bool expect_close = false;

    fpm_route_init(&route);
    if (!strcmp(kind, "version") || !strcmp(kind, "type")
        || !strcmp(kind, "short") || !strcmp(kind, "partial")
        || !strcmp(kind, "empty")) {
        expect_close = send_bad_frame(c, &route, kind);
    } else {
        /* Netlink-level errors: one frame with two good routes
         * (192.0.2.0/25 and 192.0.2.128/25) and the bad message. */
        fpm_replay_conn_close_frame(c);
        make_test_route(c, &route, "192.0.2.0", 25);
        fpm_replay_conn_put_msg(c);
        if (strcmp(kind, "nlmsg-len")) {
            make_test_route(c, &route, "192.0.2.128", 25);
            fpm_replay_conn_put_msg(c);
        }
        make_bad_message(c, &route, kind);
        fpm_replay_conn_put_msg(c);
        fpm_replay_conn_close_frame(c);
    }
    fpm_route_destroy(&route);
    return expect_close;
}
