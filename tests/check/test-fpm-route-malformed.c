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


/* Check suite for lib/fpm-route on malformed and unsupported input:
 * hand-broken routes, multipath attributes and nexthop objects, a bad
 * message inside a good frame, and every truncation and random bit flips
 * of the zebra captures in tests/data (see test-fpm-route.c). */

#include <config.h>

#include <check.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "tests/check/suites.h"
#include "tests/check/fpm-test-util.h"
#include "lib/fpm-frame.h"
#include "lib/fpm-route.h"
#include "lib/fpm-route-encode.h"
#include "openvswitch/ofpbuf.h"
#include "svec.h"
#include "util.h"

/* Helpers. */

/* Returns the first attribute of 'type' in the netlink message at the
 * start of 'b', whose family header is 'hdrlen' bytes. */
static struct nlattr *
find_attr(struct ofpbuf *b, size_t hdrlen, uint16_t type)
{
    struct nlmsghdr *nlh = b->data;
    uint8_t *p = (uint8_t *) b->data + NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen);
    uint8_t *end = (uint8_t *) b->data + nlh->nlmsg_len;

    while (p + NLA_HDRLEN <= end) {
        struct nlattr *nla = (struct nlattr *) p;

        if (nla->nla_type == type) {
            return nla;
        }
        p += NLA_ALIGN(nla->nla_len);
    }
    ck_abort_msg("attribute %u not found", type);
    return NULL;
}

/* Appends a raw attribute to the message at the start of 'b' and fixes
 * its nlmsg_len. */
static void
append_attr(struct ofpbuf *b, uint16_t type, const void *data, size_t len)
{
    struct nlattr nla = { .nla_len = NLA_HDRLEN + len, .nla_type = type };
    struct nlmsghdr *nlh;

    ofpbuf_put(b, &nla, sizeof nla);
    if (len) {
        ofpbuf_put(b, data, len);
    }
    ofpbuf_put_zeros(b, NLA_ALIGN(len) - len);
    nlh = b->data;
    nlh->nlmsg_len = b->size;
}

/* Builds an RTM_NEWNEXTHOP with 'family' and no attributes in 'b'. */
static void
start_nexthop_msg(struct ofpbuf *b, uint8_t family)
{
    struct nlmsghdr nlh = {
        .nlmsg_len = NLMSG_HDRLEN + sizeof(struct nhmsg),
        .nlmsg_type = RTM_NEWNEXTHOP,
        .nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE,
    };
    struct nhmsg nhm = { .nh_family = family, .nh_protocol = 11 };

    ofpbuf_clear(b);
    ofpbuf_put(b, &nlh, sizeof nlh);
    ofpbuf_put(b, &nhm, sizeof nhm);
}

/* Malformed and unsupported messages. */

START_TEST(test_malformed_routes)
{
    struct fpm_msg m;
    struct ofpbuf b;
    struct nlattr *nla;
    struct nlmsghdr *nlh;
    struct rtmsg *rtm;

    fpm_msg_init(&m);
    ofpbuf_init(&b, 0);

#define RESET(DST, GW)                                          \
    ofpbuf_clear(&b);                                           \
    fpm_test_encode_simple_route(&b, DST, GW, 3);               \
    nlh = b.data;                                               \
    rtm = NLMSG_DATA(nlh);                                      \
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0)

#define EXPECT(ERROR)                                           \
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), ERROR);        \
    ck_assert_int_eq(m.kind, FPM_MSG_SKIPPED)

    /* Shorter than an rtmsg. */
    RESET("10.0.0.0/24", "192.168.1.2");
    nlh->nlmsg_len = NLMSG_HDRLEN + 4;
    EXPECT(FPM_PARSE_TRUNCATED);
    nlh->nlmsg_len = NLMSG_HDRLEN - 1;
    EXPECT(FPM_PARSE_TRUNCATED);

    /* An attribute running past the end of the message. */
    RESET("10.0.0.0/24", "192.168.1.2");
    find_attr(&b, sizeof *rtm, RTA_DST)->nla_len = 200;
    EXPECT(FPM_PARSE_BAD_ATTR);

    /* An attribute shorter than its own header. */
    RESET("10.0.0.0/24", "192.168.1.2");
    find_attr(&b, sizeof *rtm, RTA_OIF)->nla_len = 2;
    EXPECT(FPM_PARSE_BAD_ATTR);

    /* Garbage after the last attribute. */
    RESET("10.0.0.0/24", "192.168.1.2");
    ofpbuf_put(&b, "\x01\x02\x03\x04\x05", 5);
    ((struct nlmsghdr *) b.data)->nlmsg_len = b.size;
    EXPECT(FPM_PARSE_BAD_ATTR);

    /* RTA_OIF too short for a u32 (2 bytes, padded). */
    RESET("10.0.0.0/24", "192.168.1.2");
    nla = find_attr(&b, sizeof *rtm, RTA_OIF);
    nla->nla_len = NLA_HDRLEN + 2;
    EXPECT(FPM_PARSE_BAD_ATTR_LEN);

    /* Prefix lengths over the address size. */
    RESET("10.0.0.0/24", "192.168.1.2");
    rtm->rtm_dst_len = 33;
    EXPECT(FPM_PARSE_BAD_PREFIXLEN);
    RESET("2001:db8::/32", "2001:db8:ffff::2");
    rtm->rtm_dst_len = 129;
    EXPECT(FPM_PARSE_BAD_PREFIXLEN);

    /* Host bits. */
    RESET("10.0.0.0/24", "192.168.1.2");
    ((uint8_t *) (find_attr(&b, sizeof *rtm, RTA_DST) + 1))[3] = 1;
    EXPECT(FPM_PARSE_HOST_BITS);
    RESET("2001:db8::/33", "2001:db8:ffff::2");
    ((uint8_t *) (find_attr(&b, sizeof *rtm, RTA_DST) + 1))[4] = 0x40;
    EXPECT(FPM_PARSE_HOST_BITS);

    /* An IPv6 destination in an IPv4 route, and vice versa. */
    RESET("10.0.0.0/24", "192.168.1.2");
    rtm->rtm_family = AF_INET6;
    EXPECT(FPM_PARSE_BAD_ADDR_LEN);
    RESET("2001:db8::/32", "2001:db8:ffff::2");
    rtm->rtm_family = AF_INET;
    EXPECT(FPM_PARSE_BAD_ADDR_LEN);

    /* A gateway of the wrong size. */
    RESET("10.0.0.0/24", NULL);
    append_attr(&b, RTA_GATEWAY, "\x01\x02\x03\x04\x05\x06", 6);
    EXPECT(FPM_PARSE_BAD_ADDR_LEN);

    /* RTA_VIA with an unknown family, or the wrong size. */
    RESET("10.0.0.0/24", NULL);
    append_attr(&b, RTA_VIA, "\x07\x00\x01\x02\x03\x04", 6);
    EXPECT(FPM_PARSE_BAD_FAMILY);
    RESET("10.0.0.0/24", NULL);
    append_attr(&b, RTA_VIA, "\x0a\x00\x01\x02\x03\x04", 6);
    EXPECT(FPM_PARSE_BAD_ADDR_LEN);

    /* Both RTA_GATEWAY and RTA_VIA. */
    RESET("10.0.0.0/24", "192.168.1.2");
    append_attr(&b, RTA_VIA, "\x02\x00\x01\x02\x03\x04", 6);
    EXPECT(FPM_PARSE_CONFLICT);

    /* RTA_NH_ID with an inline nexthop. */
    RESET("10.0.0.0/24", "192.168.1.2");
    append_attr(&b, RTA_NH_ID, &(uint32_t) { 7 }, 4);
    EXPECT(FPM_PARSE_CONFLICT);

    /* A route of a family we do not handle is skipped, not an error. */
    RESET("10.0.0.0/24", "192.168.1.2");
    rtm->rtm_family = 28;       /* AF_MPLS. */
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_SKIPPED);

    /* So is an RTN_LOCAL add, and a source-specific route... */
    RESET("10.0.0.0/24", "192.168.1.2");
    rtm->rtm_type = RTN_LOCAL;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_SKIPPED);
    RESET("2001:db8::/32", "2001:db8:ffff::2");
    rtm->rtm_src_len = 64;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_SKIPPED);

    /* ...but an RTN_LOCAL delete still deletes the prefix. */
    RESET("10.0.0.0/24", "192.168.1.2");
    rtm->rtm_type = RTN_LOCAL;
    nlh->nlmsg_type = RTM_DELROUTE;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_ROUTE);
    ck_assert_int_eq(m.route.op, FPM_OP_DEL);

    /* Unknown message types are skipped. */
    RESET("10.0.0.0/24", "192.168.1.2");
    nlh->nlmsg_type = RTM_NEWLINK;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_SKIPPED);
    ck_assert_uint_eq(m.nlmsg_type, RTM_NEWLINK);
    nlh->nlmsg_type = NLMSG_NOOP;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_SKIPPED);

    /* A default route needs no RTA_DST. */
    RESET("0.0.0.0/0", "192.168.1.2");
    ck_assert_int_eq(m.route.prefix.len, 0);

#undef RESET
#undef EXPECT
    ofpbuf_uninit(&b);
    fpm_msg_destroy(&m);
}
END_TEST

/* Encodes a two-path IPv4 route into 'b' and returns its first
 * rtnexthop. */
static struct rtnexthop *
encode_multipath(struct ofpbuf *b)
{
    struct fpm_route r;
    struct nlattr *mp;

    fpm_route_init(&r);
    r.prefix = fpm_test_prefix("10.0.0.0/24");
    r.protocol = 186;
    for (int i = 0; i < 2; i++) {
        struct fpm_route_nh *nh = fpm_route_add_nexthop(&r);
        nh->gateway = fpm_test_addr(i ? "192.168.1.3" : "192.168.1.2");
        nh->ifindex = 3;
    }
    ofpbuf_clear(b);
    fpm_route_encode(b, &r, 1);
    fpm_route_destroy(&r);
    mp = find_attr(b, sizeof(struct rtmsg), RTA_MULTIPATH);
    return (struct rtnexthop *) (mp + 1);
}

START_TEST(test_malformed_multipath)
{
    struct fpm_msg m;
    struct ofpbuf b;
    struct rtnexthop *rtnh;
    struct nlattr *mp, *gw;

    fpm_msg_init(&m);
    ofpbuf_init(&b, 0);

    rtnh = encode_multipath(&b);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_uint_eq(m.route.n_nexthops, 2);

    /* rtnh_len 0 (a walk that steps by it would never end). */
    rtnh = encode_multipath(&b);
    rtnh->rtnh_len = 0;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_MULTIPATH);
    ck_assert_int_eq(m.kind, FPM_MSG_SKIPPED);

    /* rtnh_len past the attribute. */
    rtnh = encode_multipath(&b);
    rtnh->rtnh_len = 200;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_MULTIPATH);

    /* A nested gateway attribute running past its rtnexthop. */
    rtnh = encode_multipath(&b);
    gw = (struct nlattr *) (rtnh + 1);
    gw->nla_len = 12;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_ATTR);

    /* The last rtnexthop cut short (RTA_MULTIPATH is the last attribute:
     * cut the second gateway's address off the message). */
    encode_multipath(&b);
    mp = find_attr(&b, sizeof(struct rtmsg), RTA_MULTIPATH);
    mp->nla_len -= 4;
    ((struct nlmsghdr *) b.data)->nlmsg_len -= 4;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_MULTIPATH);

    /* An RTA_MULTIPATH shorter than the message says: leftover bytes. */
    encode_multipath(&b);
    mp = find_attr(&b, sizeof(struct rtmsg), RTA_MULTIPATH);
    mp->nla_len -= 4;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_ATTR);

    /* An RTA_MULTIPATH too short for even one rtnexthop. */
    encode_multipath(&b);
    mp = find_attr(&b, sizeof(struct rtmsg), RTA_MULTIPATH);
    mp->nla_len = NLA_HDRLEN + 4;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_ATTR_LEN);

    ofpbuf_uninit(&b);
    fpm_msg_destroy(&m);
}
END_TEST

START_TEST(test_malformed_nexthops)
{
    struct nexthop_grp grp[2] = { { .id = 5 }, { .id = 6, .weight = 9 } };
    uint32_t id = 42, oif = 3;
    struct fpm_msg m;
    struct ofpbuf b;

    fpm_msg_init(&m);
    ofpbuf_init(&b, 0);

    /* A good group, for reference. */
    start_nexthop_msg(&b, AF_UNSPEC);
    append_attr(&b, NHA_ID, &id, 4);
    append_attr(&b, NHA_GROUP, grp, sizeof grp);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_NEXTHOP);
    ck_assert_uint_eq(m.nexthop.n_members, 2);
    ck_assert_uint_eq(m.nexthop.members[1].weight, 10);

    /* No NHA_ID, or 0. */
    start_nexthop_msg(&b, AF_UNSPEC);
    append_attr(&b, NHA_GROUP, grp, sizeof grp);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_MISSING_ID);
    ck_assert_int_eq(m.kind, FPM_MSG_SKIPPED);
    start_nexthop_msg(&b, AF_UNSPEC);
    append_attr(&b, NHA_ID, &(uint32_t) { 0 }, 4);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_MISSING_ID);

    /* NHA_GROUP shorter than one entry, or not whole entries. */
    start_nexthop_msg(&b, AF_UNSPEC);
    append_attr(&b, NHA_ID, &id, 4);
    append_attr(&b, NHA_GROUP, grp, 6);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_ATTR_LEN);
    start_nexthop_msg(&b, AF_UNSPEC);
    append_attr(&b, NHA_ID, &id, 4);
    append_attr(&b, NHA_GROUP, grp, 12);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_GROUP);

    /* A member with id 0. */
    grp[1].id = 0;
    start_nexthop_msg(&b, AF_UNSPEC);
    append_attr(&b, NHA_ID, &id, 4);
    append_attr(&b, NHA_GROUP, grp, sizeof grp);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_GROUP);
    grp[1].id = 6;

    /* A group with an interface; a blackhole with an interface. */
    start_nexthop_msg(&b, AF_UNSPEC);
    append_attr(&b, NHA_ID, &id, 4);
    append_attr(&b, NHA_GROUP, grp, sizeof grp);
    append_attr(&b, NHA_OIF, &oif, 4);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_CONFLICT);
    start_nexthop_msg(&b, AF_INET);
    append_attr(&b, NHA_ID, &id, 4);
    append_attr(&b, NHA_BLACKHOLE, NULL, 0);
    append_attr(&b, NHA_OIF, &oif, 4);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_CONFLICT);

    /* A gateway with family 0, or of the wrong size. */
    start_nexthop_msg(&b, AF_UNSPEC);
    append_attr(&b, NHA_ID, &id, 4);
    append_attr(&b, NHA_GATEWAY, "\x0a\x00\x00\x01", 4);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_FAMILY);
    start_nexthop_msg(&b, AF_INET6);
    append_attr(&b, NHA_ID, &id, 4);
    append_attr(&b, NHA_GATEWAY, "\x0a\x00\x00\x01", 4);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_BAD_ADDR_LEN);

    /* Shorter than an nhmsg. */
    start_nexthop_msg(&b, AF_INET);
    ((struct nlmsghdr *) b.data)->nlmsg_len = NLMSG_HDRLEN + 4;
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), FPM_PARSE_TRUNCATED);

    /* A delete needs only the id. */
    start_nexthop_msg(&b, AF_UNSPEC);
    ((struct nlmsghdr *) b.data)->nlmsg_type = RTM_DELNEXTHOP;
    append_attr(&b, NHA_ID, &id, 4);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.nexthop.op, FPM_OP_DEL);
    ck_assert_uint_eq(m.nexthop.id, 42);

    ofpbuf_uninit(&b);
    fpm_msg_destroy(&m);
}
END_TEST

/* In a frame holding [good, bad, good], the bad message costs only
 * itself. */
START_TEST(test_frame_with_bad_message)
{
    struct fpm_parse_stats stats;
    struct fpm_test_walk w;
    struct fpm_msg m;
    struct ofpbuf b;
    size_t bad;

    memset(&w, 0, sizeof w);
    svec_init(&w.lines);
    memset(&stats, 0, sizeof stats);
    fpm_msg_init(&m);
    ofpbuf_init(&b, 0);

    fpm_test_encode_simple_route(&b, "192.0.2.0/25", "192.168.1.2", 3);
    bad = b.size;
    fpm_test_encode_simple_route(&b, "198.51.100.0/24", "192.168.1.2", 3);
    ((struct rtmsg *) ((uint8_t *) b.data + bad + NLMSG_HDRLEN))
        ->rtm_dst_len = 33;
    fpm_test_encode_simple_route(&b, "192.0.2.128/25", "192.168.1.2", 3);

    fpm_route_parse_frame(b.data, b.size, &m, &stats, fpm_test_walk_cb, &w);
    ck_assert_uint_eq(stats.n_msgs, 3);
    ck_assert_uint_eq(stats.n_routes, 2);
    ck_assert_uint_eq(stats.n_errors, 1);
    ck_assert_uint_eq(stats.n_bad_frames, 0);
    ck_assert_str_eq(w.lines.names[1], "error prefix length over the "
                     "address size");
    ck_assert(strstr(w.lines.names[2], "192.0.2.128/25"));

    /* A broken message chain loses the rest of the frame only. */
    ((struct nlmsghdr *) ((uint8_t *) b.data + bad))->nlmsg_len = 4000;
    memset(&stats, 0, sizeof stats);
    fpm_route_parse_frame(b.data, b.size, &m, &stats, NULL, NULL);
    ck_assert_uint_eq(stats.n_routes, 1);
    ck_assert_uint_eq(stats.n_bad_frames, 1);
    ck_assert_uint_eq(stats.n_errors, 1);

    svec_destroy(&w.lines);
    ofpbuf_uninit(&b);
    fpm_msg_destroy(&m);
}
END_TEST

/* fpm_route_parse_frame_grouped()'s flush callback for
 * test_frame_grouped: records each slot as fpm_test_walk_cb() would, and
 * the size of each group flushed. */
struct grouped_walk {
    struct fpm_test_walk walk;  /* The lines, as fpm_test_walk_cb(). */
    size_t flushes[8];          /* Size of each group flushed. */
    size_t n_flushes;           /* Number of flushes. */
    size_t n_broken;            /* Slots marked broken. */
    size_t broken_at;           /* Index of the last one among all. */
};

static void
grouped_walk_flush(struct fpm_msg_group *g, void *gw_)
{
    struct grouped_walk *gw = gw_;

    ck_assert_uint_lt(gw->n_flushes, ARRAY_SIZE(gw->flushes));
    gw->flushes[gw->n_flushes++] = g->n;
    for (size_t i = 0; i < g->n; i++) {
        if (g->broken[i]) {
            ck_assert_int_eq(g->errors[i], FPM_PARSE_TRUNCATED);
            gw->n_broken++;
            gw->broken_at = gw->walk.n_msgs;
        }
        fpm_test_walk_cb(g->errors[i] ? NULL : &g->msgs[i], g->errors[i],
                         NULL, &gw->walk);
    }
    g->n = 0;
}

/* The grouped parse gives the messages, errors and counters of the
 * one-at-a-time parse, in the same order, a full group at a time, with
 * the rest left for the caller. */
START_TEST(test_frame_grouped)
{
    struct fpm_parse_stats stats, gstats;
    struct ofpbuf frames[2];
    struct fpm_test_walk w;
    struct grouped_walk gw;
    struct fpm_msg_group g;
    struct fpm_msg m;
    size_t bad = 0;

    memset(&w, 0, sizeof w);
    svec_init(&w.lines);
    memset(&gw, 0, sizeof gw);
    svec_init(&gw.walk.lines);
    memset(&stats, 0, sizeof stats);
    memset(&gstats, 0, sizeof gstats);
    fpm_msg_init(&m);
    fpm_msg_group_init(&g);

    /* Frame 0: 20 routes, the sixth with a bad prefix length. */
    ofpbuf_init(&frames[0], 0);
    for (int i = 0; i < 20; i++) {
        char prefix[32];

        if (i == 5) {
            bad = frames[0].size;
        }
        snprintf(prefix, sizeof prefix, "10.%d.0.0/16", i);
        fpm_test_encode_simple_route(&frames[0], prefix, "192.168.1.2", 3);
    }
    ((struct rtmsg *) ((uint8_t *) frames[0].data + bad + NLMSG_HDRLEN))
        ->rtm_dst_len = 33;

    /* Frame 1: a route, then a chain that breaks. */
    ofpbuf_init(&frames[1], 0);
    fpm_test_encode_simple_route(&frames[1], "192.0.2.0/24", "192.168.1.2",
                                 3);
    bad = frames[1].size;
    fpm_test_encode_simple_route(&frames[1], "198.51.100.0/24",
                                 "192.168.1.2", 3);
    ((struct nlmsghdr *) ((uint8_t *) frames[1].data + bad))->nlmsg_len
        = 4000;

    for (int i = 0; i < 2; i++) {
        fpm_route_parse_frame(frames[i].data, frames[i].size, &m, &stats,
                              fpm_test_walk_cb, &w);
        fpm_route_parse_frame_grouped(frames[i].data, frames[i].size, &g,
                                      &gstats, grouped_walk_flush, &gw);
    }

    /* 22 slots: one full group flushed, 6 left for the caller. */
    ck_assert_uint_eq(gw.n_flushes, 1);
    ck_assert_uint_eq(gw.flushes[0], FPM_MSG_GROUP_SIZE);
    ck_assert_uint_eq(g.n, 22 - FPM_MSG_GROUP_SIZE);
    grouped_walk_flush(&g, &gw);
    ck_assert_uint_eq(g.n, 0);

    ck_assert_uint_eq(w.n_msgs, 22);
    ck_assert_uint_eq(gw.walk.n_msgs, 22);
    for (size_t i = 0; i < 22; i++) {
        ck_assert_str_eq(gw.walk.lines.names[i], w.lines.names[i]);
    }
    ck_assert_str_eq(w.lines.names[5], "error prefix length over the "
                     "address size");
    ck_assert_uint_eq(gw.n_broken, 1);
    ck_assert_uint_eq(gw.broken_at, 21);
    ck_assert_mem_eq(&gstats, &stats, sizeof stats);
    ck_assert_uint_eq(stats.n_routes, 20);
    ck_assert_uint_eq(stats.n_errors, 2);
    ck_assert_uint_eq(stats.n_bad_frames, 1);

    for (int i = 0; i < 2; i++) {
        ofpbuf_uninit(&frames[i]);
    }
    svec_destroy(&w.lines);
    svec_destroy(&gw.walk.lines);
    fpm_msg_group_destroy(&g);
    fpm_msg_destroy(&m);
}
END_TEST

/* Robustness: every prefix of every captured message, and many random
 * byte flips, parse without crashing (run under ASan/valgrind to catch
 * overreads: each copy is allocated at its exact size). */
START_TEST(test_fuzz_captures)
{
    static const char *files[] = {
        "zebra-nhg.fpm", "zebra-no-nhg.fpm", "zebra-nhg-replay.fpm",
    };
    uint32_t seed = 2024;
    struct fpm_msg m;
    size_t n_ok = 0, n_err = 0;

    fpm_msg_init(&m);
    for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
        struct fpm_splitter sp;
        struct fpm_frame frame;
        struct ofpbuf b;

        ofpbuf_init(&b, 0);
        fpm_test_load_data(files[f], &b);
        fpm_splitter_init(&sp, 0);
        fpm_splitter_feed(&sp, b.data, b.size);
        while (!fpm_splitter_next(&sp, &frame)) {
            struct fpm_nlmsg_iter it;
            const struct nlmsghdr *nlh;

            fpm_nlmsg_iter_init(&it, frame.data, frame.size);
            while (!fpm_nlmsg_iter_next(&it, &nlh)) {
                size_t len = nlh->nlmsg_len;

                /* Every truncation, with nlmsg_len saying so. */
                for (size_t cut = NLMSG_HDRLEN; cut < len; cut++) {
                    struct nlmsghdr *copy = xmemdup(nlh, cut);

                    copy->nlmsg_len = cut;
                    if (fpm_msg_parse(&m, copy)) {
                        n_err++;
                    } else {
                        n_ok++;
                    }
                    free(copy);
                }

                /* Random flips past the netlink header. */
                for (int i = 0; i < 300; i++) {
                    struct nlmsghdr *copy = xmemdup(nlh, len);
                    int n_flips = 1 + i % 4;

                    for (int k = 0; k < n_flips; k++) {
                        size_t pos;

                        seed = seed * 1103515245 + 12345;
                        pos = NLMSG_HDRLEN + (seed >> 8) % (len
                                                             - NLMSG_HDRLEN);
                        ((uint8_t *) copy)[pos] ^= 1 << ((seed >> 4) % 8);
                    }
                    if (!fpm_msg_parse(&m, copy)) {
                        n_ok++;
                        if (m.kind == FPM_MSG_ROUTE) {
                            ck_assert_uint_le(m.route.prefix.len, 128);
                            ck_assert_uint_le(m.route.n_nexthops,
                                              FPM_MAX_NEXTHOPS);
                        }
                    } else {
                        n_err++;
                    }
                    free(copy);
                }
            }
        }
        fpm_splitter_destroy(&sp);
        ofpbuf_uninit(&b);
    }
    /* Both outcomes happen. */
    ck_assert_uint_gt(n_ok, 0);
    ck_assert_uint_gt(n_err, 0);
    fpm_msg_destroy(&m);
}
END_TEST

Suite *
fpm_route_malformed_suite(void)
{
    Suite *s = suite_create("fpm_route_malformed");
    TCase *tc;

    tc = tcase_create("malformed");
    tcase_add_test(tc, test_malformed_routes);
    tcase_add_test(tc, test_malformed_multipath);
    tcase_add_test(tc, test_malformed_nexthops);
    tcase_add_test(tc, test_frame_with_bad_message);
    tcase_add_test(tc, test_frame_grouped);
    tcase_add_test(tc, test_fuzz_captures);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    return s;
}
