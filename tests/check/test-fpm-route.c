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


/* Check suite for lib/fpm-route: the netlink <-> route translation, on
 * frames captured from real zebra (FRR 8.4, the .fpm files in tests/data),
 * and the encoders, by round trips.  test-fpm-route-malformed.c has its
 * suite for malformed input.
 *
 * The captures were recorded with "fpm-replay --record" as zebra's FPM
 * listener, in a network namespace, with bgpd peering with two ExaBGP
 * speakers (192.168.1.2 and .3, 2001:db8:ffff::2 and ::3, "maximum-paths
 * 2") and staticd holding three drop routes:
 *
 *   zebra-nhg.fpm         next-hop groups on (zebra's default): connected
 *                         and static routes, then BGP routes from speaker A,
 *                         then ECMP when B comes up, then B goes away (path
 *                         changes: RTM_DELROUTE + RTM_NEWROUTE in one
 *                         frame), then A goes away (withdrawals).
 *   zebra-no-nhg.fpm      the same with "no fpm use-next-hop-groups":
 *                         RTA_GATEWAY + RTA_OIF and RTA_MULTIPATH.
 *   zebra-nhg-replay.fpm  zebra's table replay to a listener that
 *                         restarted while the ECMP routes were up: groups
 *                         arrive before their members.
 */

#include <config.h>

#include <check.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "tests/check/suites.h"
#include "tests/check/fpm-test-util.h"
#include "lib/fpm-frame.h"
#include "lib/fpm-route.h"
#include "lib/fpm-route-encode.h"
#include "lib/fpm-route-format.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "svec.h"
#include "util.h"

/* Reference transcripts of the captures, one fpm_msg_format() line per
 * netlink message, checked by hand against the scenario above: ifindex 3 is
 * the namespace's veth, protocol 2 kernel (connected), 11 zebra (nexthop
 * objects), 186 BGP, 196 static. */

static const char *const nhg_golden[] = {
    "add nexthop 3 via - dev 3 proto 11",
    "add nexthop 4 via - dev 3 proto 11",
    "add route 192.168.1.0/24 table 254 proto 2 metric 20 nhid 3",
    "add route 2001:db8:ffff::/64 table 254 proto 2 metric 20 nhid 4",
    "add route fe80::/64 table 254 proto 2 metric 20 nhid 4",
    "add nexthop 9 blackhole proto 11",
    "add route 10.99.0.0/24 table 254 proto 196 metric 20 blackhole",
    "add nexthop 10 blackhole proto 11",
    "add route 10.98.0.0/24 table 254 proto 196 metric 20 unreachable",
    "add nexthop 11 blackhole proto 11",
    "add route 2001:db8:99::/48 table 254 proto 196 metric 20 blackhole",
    "add nexthop 14 via 192.168.1.2 dev 3 proto 11",
    "add route 10.2.0.0/16 table 254 proto 186 metric 20 nhid 14",
    "add route 10.1.0.0/24 table 254 proto 186 metric 20 nhid 14",
    "add route 10.1.1.0/24 table 254 proto 186 metric 20 nhid 14",
    "add nexthop 15 via 2001:db8:ffff::2 dev 3 proto 11",
    "add route 2001:db8:1::/48 table 254 proto 186 metric 20 nhid 15",
    "add route 2001:db8:2::/64 table 254 proto 186 metric 20 nhid 15",
    "add nexthop 23 via 2001:db8:ffff::3 dev 3 proto 11",
    "add nexthop 22 group 15/1,23/1 proto 11",
    "del route 2001:db8:1::/48 table 254 proto 186 metric 20",
    "add route 2001:db8:1::/48 table 254 proto 186 metric 20 nhid 22",
    "add nexthop 25 via 192.168.1.3 dev 3 proto 11",
    "add nexthop 24 group 14/1,25/1 proto 11",
    "del route 10.1.0.0/24 table 254 proto 186 metric 20",
    "add route 10.1.0.0/24 table 254 proto 186 metric 20 nhid 24",
    "del route 10.1.1.0/24 table 254 proto 186 metric 20",
    "add route 10.1.1.0/24 table 254 proto 186 metric 20 nhid 24",
    "add route 10.3.0.0/24 table 254 proto 186 metric 20 nhid 25",
    "del route 2001:db8:1::/48 table 254 proto 186 metric 20",
    "add route 2001:db8:1::/48 table 254 proto 186 metric 20 nhid 15",
    "del route 10.1.0.0/24 table 254 proto 186 metric 20",
    "add route 10.1.0.0/24 table 254 proto 186 metric 20 nhid 14",
    "del route 10.1.1.0/24 table 254 proto 186 metric 20",
    "add route 10.1.1.0/24 table 254 proto 186 metric 20 nhid 14",
    "del route 10.3.0.0/24 table 254 proto 186 metric 20",
    "del route 10.1.0.0/24 table 254 proto 186 metric 20",
    "del route 10.1.1.0/24 table 254 proto 186 metric 20",
    "del route 10.2.0.0/16 table 254 proto 186 metric 20",
    "del route 2001:db8:1::/48 table 254 proto 186 metric 20",
    "del route 2001:db8:2::/64 table 254 proto 186 metric 20",
};

static const char *const no_nhg_golden[] = {
    "add route 192.168.1.0/24 table 254 proto 2 metric 20 via - dev 3 "
        "weight 1",
    "add route 2001:db8:ffff::/64 table 254 proto 2 metric 20 via - dev 3 "
        "weight 1",
    "add route fe80::/64 table 254 proto 2 metric 20 via - dev 3 weight 1",
    "add route 10.99.0.0/24 table 254 proto 196 metric 20 blackhole",
    "add route 10.98.0.0/24 table 254 proto 196 metric 20 unreachable",
    "add route 2001:db8:99::/48 table 254 proto 196 metric 20 blackhole",
    "add route 10.2.0.0/16 table 254 proto 186 metric 20 via 192.168.1.2 "
        "dev 3 weight 1",
    "add route 10.1.0.0/24 table 254 proto 186 metric 20 via 192.168.1.2 "
        "dev 3 weight 1",
    "add route 10.1.1.0/24 table 254 proto 186 metric 20 via 192.168.1.2 "
        "dev 3 weight 1",
    "add route 2001:db8:1::/48 table 254 proto 186 metric 20 via "
        "2001:db8:ffff::2 dev 3 weight 1",
    "add route 2001:db8:2::/64 table 254 proto 186 metric 20 via "
        "2001:db8:ffff::2 dev 3 weight 1",
    "del route 10.1.0.0/24 table 254 proto 186 metric 20",
    "add route 10.1.0.0/24 table 254 proto 186 metric 20 via 192.168.1.2 "
        "dev 3 weight 1 via 192.168.1.3 dev 3 weight 1",
    "del route 10.1.1.0/24 table 254 proto 186 metric 20",
    "add route 10.1.1.0/24 table 254 proto 186 metric 20 via 192.168.1.2 "
        "dev 3 weight 1 via 192.168.1.3 dev 3 weight 1",
    "add route 10.3.0.0/24 table 254 proto 186 metric 20 via 192.168.1.3 "
        "dev 3 weight 1",
    "del route 2001:db8:1::/48 table 254 proto 186 metric 20",
    "add route 2001:db8:1::/48 table 254 proto 186 metric 20 via "
        "2001:db8:ffff::2 dev 3 weight 1 via 2001:db8:ffff::3 dev 3 weight 1",
    "del route 10.1.0.0/24 table 254 proto 186 metric 20",
    "add route 10.1.0.0/24 table 254 proto 186 metric 20 via 192.168.1.2 "
        "dev 3 weight 1",
    "del route 10.1.1.0/24 table 254 proto 186 metric 20",
    "add route 10.1.1.0/24 table 254 proto 186 metric 20 via 192.168.1.2 "
        "dev 3 weight 1",
    "del route 10.3.0.0/24 table 254 proto 186 metric 20",
    "del route 2001:db8:1::/48 table 254 proto 186 metric 20",
    "add route 2001:db8:1::/48 table 254 proto 186 metric 20 via "
        "2001:db8:ffff::2 dev 3 weight 1",
    "del route 10.1.0.0/24 table 254 proto 186 metric 20",
    "del route 10.1.1.0/24 table 254 proto 186 metric 20",
    "del route 10.2.0.0/16 table 254 proto 186 metric 20",
    "del route 2001:db8:1::/48 table 254 proto 186 metric 20",
    "del route 2001:db8:2::/64 table 254 proto 186 metric 20",
};

static const char *const replay_golden[] = {
    "add nexthop 3 via - dev 3 proto 11",
    "add nexthop 4 via - dev 3 proto 11",
    "add nexthop 22 group 14/1,23/1 proto 11",
    "add nexthop 23 via 2001:db8:ffff::3 dev 3 proto 11",
    "add nexthop 24 group 15/1,25/1 proto 11",
    "add nexthop 25 via 192.168.1.3 dev 3 proto 11",
    "add nexthop 9 blackhole proto 11",
    "add nexthop 10 blackhole proto 11",
    "add nexthop 11 blackhole proto 11",
    "add nexthop 14 via 2001:db8:ffff::2 dev 3 proto 11",
    "add nexthop 15 via 192.168.1.2 dev 3 proto 11",
    "add route 10.1.0.0/24 table 254 proto 186 metric 20 nhid 24",
    "add route 10.1.1.0/24 table 254 proto 186 metric 20 nhid 24",
    "add route 10.2.0.0/16 table 254 proto 186 metric 20 nhid 15",
    "add route 10.3.0.0/24 table 254 proto 186 metric 20 nhid 25",
    "add route 10.98.0.0/24 table 254 proto 196 metric 20 unreachable",
    "add route 10.99.0.0/24 table 254 proto 196 metric 20 blackhole",
    "add route 192.168.1.0/24 table 254 proto 2 metric 20 nhid 3",
    "add route 2001:db8:1::/48 table 254 proto 186 metric 20 nhid 22",
    "add route 2001:db8:2::/64 table 254 proto 186 metric 20 nhid 14",
    "add route 2001:db8:99::/48 table 254 proto 196 metric 20 blackhole",
    "add route 2001:db8:ffff::/64 table 254 proto 2 metric 20 nhid 4",
    "add route fe80::/64 table 254 proto 2 metric 20 nhid 4",
};

/* Helpers. */

/* Checks that the messages of 'w' are the 'n' lines of 'golden'. */
static void
check_golden(const struct fpm_test_walk *w, const char *const *golden,
             size_t n)
{
    ck_assert_uint_eq(w->lines.n, n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(!strcmp(w->lines.names[i], golden[i]),
                      "message %zu: got \"%s\", expected \"%s\"",
                      i, w->lines.names[i], golden[i]);
    }
}

/* Parses message number 'n' (from 0) of capture 'name' into 'msg' and
 * returns the parse result. */
static int
nth_msg(const char *name, size_t n, struct fpm_msg *msg)
{
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct ofpbuf b;
    size_t i = 0;
    int result = -1;

    ofpbuf_init(&b, 0);
    fpm_test_load_data(name, &b);
    fpm_splitter_init(&sp, 0);
    fpm_splitter_feed(&sp, b.data, b.size);
    while (result < 0 && !fpm_splitter_next(&sp, &frame)) {
        struct fpm_nlmsg_iter it;
        const struct nlmsghdr *nlh;

        fpm_nlmsg_iter_init(&it, frame.data, frame.size);
        while (!fpm_nlmsg_iter_next(&it, &nlh)) {
            if (i++ == n) {
                result = fpm_msg_parse(msg, nlh);
                break;
            }
        }
    }
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&b);
    ck_assert_msg(result >= 0, "%s has no message %zu", name, n);
    return result;
}

static void
assert_prefix_eq(const struct fpm_prefix *a, const struct fpm_prefix *b)
{
    ck_assert_uint_eq(a->family, b->family);
    ck_assert_uint_eq(a->len, b->len);
    ck_assert(!memcmp(a->addr, b->addr, sizeof a->addr));
}

static void
assert_addr_eq(const struct fpm_addr *a, const struct fpm_addr *b)
{
    ck_assert_uint_eq(a->family, b->family);
    ck_assert(!memcmp(a->addr, b->addr, sizeof a->addr));
}

/* Translation of real zebra frames. */

START_TEST(test_capture_nhg)
{
    struct fpm_test_walk w;
    struct fpm_msg m;
    const struct fpm_route *r = &m.route;
    const struct fpm_nexthop *nh = &m.nexthop;
    struct fpm_prefix p;
    struct fpm_addr a;

    fpm_test_walk_capture("zebra-nhg.fpm", &w);
    check_golden(&w, nhg_golden, ARRAY_SIZE(nhg_golden));
    ck_assert_uint_eq(w.stats.n_frames, 35);
    ck_assert_uint_eq(w.stats.n_msgs, 41);
    ck_assert_uint_eq(w.stats.n_routes, 30);
    ck_assert_uint_eq(w.stats.n_nexthops, 11);
    ck_assert_uint_eq(w.stats.n_skipped, 0);
    ck_assert_uint_eq(w.stats.n_errors, 0);
    /* Path changes: the RTM_DELROUTE and the RTM_NEWROUTE in one frame. */
    ck_assert_uint_eq(w.frame_of[20], w.frame_of[21]);
    ck_assert_uint_eq(w.frame_of[24], w.frame_of[25]);
    svec_destroy(&w.lines);

    fpm_msg_init(&m);

    /* Interface nexthop of the connected IPv4 route. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 0, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_NEXTHOP);
    ck_assert_int_eq(nh->op, FPM_OP_ADD);
    ck_assert_uint_eq(nh->id, 3);
    ck_assert_uint_eq(nh->family, AF_INET);
    ck_assert_uint_eq(nh->gateway.family, 0);
    ck_assert_uint_eq(nh->ifindex, 3);
    ck_assert_uint_eq(nh->n_members, 0);
    ck_assert(!nh->blackhole);
    ck_assert_uint_eq(nh->protocol, 11);

    /* Connected route, by next-hop id. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 2, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_ROUTE);
    ck_assert_uint_eq(m.nlmsg_type, RTM_NEWROUTE);
    p = fpm_test_prefix("192.168.1.0/24");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_int_eq(r->op, FPM_OP_ADD);
    ck_assert_uint_eq(r->table, 254);
    ck_assert_uint_eq(r->protocol, RTPROT_KERNEL);
    ck_assert_uint_eq(r->metric, 20);
    ck_assert_uint_eq(r->nhg_id, 3);
    ck_assert_uint_eq(r->n_nexthops, 0);
    ck_assert_int_eq(r->type, FPM_ROUTE_UNICAST);

    /* Static drop routes: no next-hop id, even though zebra also sent
     * blackhole nexthop objects. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 5, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_NEXTHOP);
    ck_assert(nh->blackhole);
    ck_assert_uint_eq(nh->id, 9);
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 6, &m), 0);
    p = fpm_test_prefix("10.99.0.0/24");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_int_eq(r->type, FPM_ROUTE_BLACKHOLE);
    ck_assert_uint_eq(r->protocol, 196);    /* FRR's RTPROT_ZSTATIC. */
    ck_assert_uint_eq(r->nhg_id, 0);
    ck_assert_uint_eq(r->n_nexthops, 0);
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 8, &m), 0);
    ck_assert_int_eq(r->type, FPM_ROUTE_UNREACHABLE);
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 10, &m), 0);
    p = fpm_test_prefix("2001:db8:99::/48");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_int_eq(r->type, FPM_ROUTE_BLACKHOLE);

    /* BGP gateway nexthops, IPv4 and IPv6. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 11, &m), 0);
    ck_assert_uint_eq(nh->id, 14);
    ck_assert_uint_eq(nh->family, AF_INET);
    a = fpm_test_addr("192.168.1.2");
    assert_addr_eq(&nh->gateway, &a);
    ck_assert_uint_eq(nh->ifindex, 3);
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 15, &m), 0);
    ck_assert_uint_eq(nh->id, 15);
    ck_assert_uint_eq(nh->family, AF_INET6);
    a = fpm_test_addr("2001:db8:ffff::2");
    assert_addr_eq(&nh->gateway, &a);

    /* BGP route: protocol 186, table 254, priority 20, RTA_NH_ID only. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 12, &m), 0);
    p = fpm_test_prefix("10.2.0.0/16");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_uint_eq(r->protocol, 186);
    ck_assert_uint_eq(r->table, 254);
    ck_assert_uint_eq(r->metric, 20);
    ck_assert_uint_eq(r->nhg_id, 14);
    ck_assert_uint_eq(r->n_nexthops, 0);
    ck_assert(r->nlmsg_flags & NLM_F_REQUEST);

    /* The ECMP group: family 0, members with weight 1. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 19, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_NEXTHOP);
    ck_assert_uint_eq(nh->id, 22);
    ck_assert_uint_eq(nh->family, AF_UNSPEC);
    ck_assert_uint_eq(nh->n_members, 2);
    ck_assert_uint_eq(nh->members[0].id, 15);
    ck_assert_uint_eq(nh->members[0].weight, 1);
    ck_assert_uint_eq(nh->members[1].id, 23);
    ck_assert_uint_eq(nh->members[1].weight, 1);
    ck_assert_uint_eq(nh->gateway.family, 0);
    ck_assert_uint_eq(nh->ifindex, 0);

    /* Path change to the group: delete then add. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 20, &m), 0);
    ck_assert_int_eq(r->op, FPM_OP_DEL);
    ck_assert_uint_eq(m.nlmsg_type, RTM_DELROUTE);
    p = fpm_test_prefix("2001:db8:1::/48");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 21, &m), 0);
    ck_assert_int_eq(r->op, FPM_OP_ADD);
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_uint_eq(r->nhg_id, 22);

    /* The last withdrawal. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 40, &m), 0);
    ck_assert_int_eq(r->op, FPM_OP_DEL);
    p = fpm_test_prefix("2001:db8:2::/64");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_uint_eq(r->protocol, 186);

    fpm_msg_destroy(&m);
}
END_TEST

START_TEST(test_capture_no_nhg)
{
    struct fpm_test_walk w;
    struct fpm_msg m;
    const struct fpm_route *r = &m.route;
    struct fpm_prefix p;
    struct fpm_addr a;

    fpm_test_walk_capture("zebra-no-nhg.fpm", &w);
    check_golden(&w, no_nhg_golden, ARRAY_SIZE(no_nhg_golden));
    ck_assert_uint_eq(w.stats.n_frames, 24);
    ck_assert_uint_eq(w.stats.n_msgs, 30);
    ck_assert_uint_eq(w.stats.n_routes, 30);
    ck_assert_uint_eq(w.stats.n_nexthops, 0);
    ck_assert_uint_eq(w.stats.n_errors, 0);
    svec_destroy(&w.lines);

    fpm_msg_init(&m);

    /* Connected: RTA_OIF only. */
    ck_assert_int_eq(nth_msg("zebra-no-nhg.fpm", 0, &m), 0);
    ck_assert_uint_eq(r->protocol, RTPROT_KERNEL);
    ck_assert_uint_eq(r->nhg_id, 0);
    ck_assert_uint_eq(r->n_nexthops, 1);
    ck_assert_uint_eq(r->nexthops[0].gateway.family, 0);
    ck_assert_uint_eq(r->nexthops[0].ifindex, 3);
    ck_assert_uint_eq(r->nexthops[0].weight, 1);

    /* Single path: RTA_GATEWAY + RTA_OIF. */
    ck_assert_int_eq(nth_msg("zebra-no-nhg.fpm", 6, &m), 0);
    p = fpm_test_prefix("10.2.0.0/16");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_uint_eq(r->protocol, 186);
    ck_assert_uint_eq(r->table, 254);
    ck_assert_uint_eq(r->n_nexthops, 1);
    a = fpm_test_addr("192.168.1.2");
    assert_addr_eq(&r->nexthops[0].gateway, &a);
    ck_assert_uint_eq(r->nexthops[0].ifindex, 3);

    /* A delete carries no nexthops. */
    ck_assert_int_eq(nth_msg("zebra-no-nhg.fpm", 11, &m), 0);
    ck_assert_int_eq(r->op, FPM_OP_DEL);
    ck_assert_uint_eq(r->n_nexthops, 0);

    /* ECMP: RTA_MULTIPATH, weights rtnh_hops + 1. */
    ck_assert_int_eq(nth_msg("zebra-no-nhg.fpm", 12, &m), 0);
    p = fpm_test_prefix("10.1.0.0/24");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_uint_eq(r->n_nexthops, 2);
    a = fpm_test_addr("192.168.1.2");
    assert_addr_eq(&r->nexthops[0].gateway, &a);
    a = fpm_test_addr("192.168.1.3");
    assert_addr_eq(&r->nexthops[1].gateway, &a);
    ck_assert_uint_eq(r->nexthops[0].ifindex, 3);
    ck_assert_uint_eq(r->nexthops[1].ifindex, 3);
    ck_assert_uint_eq(r->nexthops[0].weight, 1);
    ck_assert_uint_eq(r->nexthops[1].weight, 1);

    /* IPv6 ECMP. */
    ck_assert_int_eq(nth_msg("zebra-no-nhg.fpm", 17, &m), 0);
    p = fpm_test_prefix("2001:db8:1::/48");
    assert_prefix_eq(&r->prefix, &p);
    ck_assert_uint_eq(r->n_nexthops, 2);
    a = fpm_test_addr("2001:db8:ffff::3");
    assert_addr_eq(&r->nexthops[1].gateway, &a);

    fpm_msg_destroy(&m);
}
END_TEST

/* zebra's table replay sends groups before their members: each message
 * must translate on its own, and by the end every reference resolves. */
START_TEST(test_capture_replay_forward_refs)
{
    struct fpm_test_walk w;
    struct fpm_msg m;
    bool defined[64] = { false };
    size_t group_at = SIZE_MAX, member_at = SIZE_MAX;

    fpm_test_walk_capture("zebra-nhg-replay.fpm", &w);
    check_golden(&w, replay_golden, ARRAY_SIZE(replay_golden));
    ck_assert_uint_eq(w.stats.n_errors, 0);
    svec_destroy(&w.lines);

    fpm_msg_init(&m);
    for (size_t i = 0; i < ARRAY_SIZE(replay_golden); i++) {
        ck_assert_int_eq(nth_msg("zebra-nhg-replay.fpm", i, &m), 0);
        if (m.kind == FPM_MSG_NEXTHOP) {
            ck_assert_uint_lt(m.nexthop.id, ARRAY_SIZE(defined));
            defined[m.nexthop.id] = true;
            if (m.nexthop.id == 22) {
                group_at = i;
                ck_assert_uint_eq(m.nexthop.n_members, 2);
                ck_assert_uint_eq(m.nexthop.members[0].id, 14);
            } else if (m.nexthop.id == 14) {
                member_at = i;
            }
        }
    }
    ck_assert_uint_lt(group_at, member_at);

    /* Every group member and every route's nexthop id is defined by the
     * end of the stream. */
    for (size_t i = 0; i < ARRAY_SIZE(replay_golden); i++) {
        nth_msg("zebra-nhg-replay.fpm", i, &m);
        if (m.kind == FPM_MSG_NEXTHOP) {
            for (size_t j = 0; j < m.nexthop.n_members; j++) {
                ck_assert(defined[m.nexthop.members[j].id]);
            }
        } else if (m.kind == FPM_MSG_ROUTE && m.route.nhg_id) {
            ck_assert(defined[m.route.nhg_id]);
        }
    }
    fpm_msg_destroy(&m);
}
END_TEST

/* Encoding round trips. */

/* Encodes 'in' in an FPM frame, splits it and parses it back into 'out'. */
static void
roundtrip_route(const struct fpm_route *in, struct fpm_msg *out)
{
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct fpm_nlmsg_iter it;
    const struct nlmsghdr *nlh;
    struct ofpbuf b;
    size_t ofs;

    ofpbuf_init(&b, 0);
    ofs = fpm_frame_start(&b);
    fpm_route_encode(&b, in, 99);
    fpm_frame_finish(&b, ofs);

    fpm_splitter_init(&sp, 0);
    fpm_splitter_feed(&sp, b.data, b.size);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
    fpm_nlmsg_iter_init(&it, frame.data, frame.size);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), 0);
    ck_assert_int_eq(fpm_msg_parse(out, nlh), 0);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), EOF);
    ck_assert_int_eq(out->kind, FPM_MSG_ROUTE);
    ck_assert_uint_eq(out->nlmsg_seq, 99);
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&b);
}

static void
assert_route_eq(const struct fpm_route *a, const struct fpm_route *b)
{
    ck_assert_int_eq(a->op, b->op);
    ck_assert_uint_eq(a->table, b->table);
    assert_prefix_eq(&a->prefix, &b->prefix);
    ck_assert_uint_eq(a->protocol, b->protocol);
    ck_assert_int_eq(a->type, b->type);
    ck_assert_uint_eq(a->metric, b->metric);
    ck_assert_uint_eq(a->nhg_id, b->nhg_id);
    ck_assert_uint_eq(a->n_nexthops, b->n_nexthops);
    for (size_t i = 0; i < a->n_nexthops; i++) {
        assert_addr_eq(&a->nexthops[i].gateway, &b->nexthops[i].gateway);
        ck_assert_uint_eq(a->nexthops[i].ifindex, b->nexthops[i].ifindex);
        ck_assert_uint_eq(a->nexthops[i].weight, b->nexthops[i].weight);
    }
}

START_TEST(test_roundtrip_routes)
{
    struct fpm_route r;
    struct fpm_route_nh *nh;
    struct fpm_msg m;

    fpm_route_init(&r);
    fpm_msg_init(&m);

    /* IPv4, one gateway. */
    r.prefix = fpm_test_prefix("10.20.30.0/24");
    r.protocol = 186;
    r.metric = 20;
    nh = fpm_route_add_nexthop(&r);
    nh->gateway = fpm_test_addr("192.168.1.2");
    nh->ifindex = 7;
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);

    /* IPv6, 3-way UCMP including the largest weight, in a VRF table over
     * 255 (RTA_TABLE). */
    fpm_route_clear(&r);
    r.prefix = fpm_test_prefix("2001:db8:abcd::/48");
    r.protocol = 186;
    r.metric = 1000;
    r.table = 1001;
    for (int i = 0; i < 3; i++) {
        nh = fpm_route_add_nexthop(&r);
        nh->gateway = fpm_test_addr(i == 0 ? "2001:db8:ffff::2"
                                    : i == 1 ? "2001:db8:ffff::3"
                                    : "fe80::1");
        nh->ifindex = 3 + i;
        nh->weight = i == 0 ? 1 : i == 1 ? 100 : 256;
    }
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);

    /* IPv4 over an IPv6 gateway (RTA_VIA), and a connected path. */
    fpm_route_clear(&r);
    r.prefix = fpm_test_prefix("198.18.0.0/15");
    r.protocol = 186;
    nh = fpm_route_add_nexthop(&r);
    nh->gateway = fpm_test_addr("fe80::2");
    nh->ifindex = 3;
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);
    nh = fpm_route_add_nexthop(&r);
    nh->ifindex = 4;
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);

    /* Next-hop id; blackhole; unreachable host route; default route;
     * delete. */
    fpm_route_clear(&r);
    r.prefix = fpm_test_prefix("10.0.0.0/8");
    r.protocol = 186;
    r.nhg_id = 123456;
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);
    fpm_route_clear(&r);
    r.prefix = fpm_test_prefix("10.99.0.0/24");
    r.protocol = RTPROT_STATIC;
    r.type = FPM_ROUTE_BLACKHOLE;
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);
    r.type = FPM_ROUTE_PROHIBIT;
    r.prefix = fpm_test_prefix("2001:db8::1/128");
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);
    r.type = FPM_ROUTE_UNREACHABLE;
    r.prefix = fpm_test_prefix("0.0.0.0/0");
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);
    r.op = FPM_OP_DEL;
    r.type = FPM_ROUTE_UNICAST;
    roundtrip_route(&r, &m);
    assert_route_eq(&r, &m.route);
    ck_assert_uint_eq(m.nlmsg_type, RTM_DELROUTE);

    fpm_route_destroy(&r);
    fpm_msg_destroy(&m);
}
END_TEST

START_TEST(test_roundtrip_nexthops)
{
    struct fpm_nexthop nh;
    struct fpm_msg m;
    struct ofpbuf b;

    fpm_nexthop_init(&nh);
    fpm_msg_init(&m);
    ofpbuf_init(&b, 0);

    /* A 256-member group with weights 1..256. */
    nh.id = 1000;
    nh.protocol = 11;
    for (int i = 0; i < 256; i++) {
        struct fpm_nhg_member *mem = fpm_nexthop_add_member(&nh);
        mem->id = 1 + i;
        mem->weight = 1 + i;
    }
    fpm_nexthop_encode(&b, &nh, 5);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.kind, FPM_MSG_NEXTHOP);
    ck_assert_uint_eq(m.nexthop.id, 1000);
    ck_assert_uint_eq(m.nexthop.family, AF_UNSPEC);
    ck_assert_uint_eq(m.nexthop.n_members, 256);
    for (int i = 0; i < 256; i++) {
        ck_assert_uint_eq(m.nexthop.members[i].id, 1 + i);
        ck_assert_uint_eq(m.nexthop.members[i].weight, 1 + i);
    }

    /* A gateway nexthop. */
    fpm_nexthop_clear(&nh);
    nh.id = 7;
    nh.family = AF_INET6;
    nh.gateway = fpm_test_addr("2001:db8:ffff::9");
    nh.ifindex = 12;
    ofpbuf_clear(&b);
    fpm_nexthop_encode(&b, &nh, 6);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_uint_eq(m.nexthop.id, 7);
    ck_assert_uint_eq(m.nexthop.family, AF_INET6);
    assert_addr_eq(&m.nexthop.gateway, &nh.gateway);
    ck_assert_uint_eq(m.nexthop.ifindex, 12);
    ck_assert_uint_eq(m.nexthop.n_members, 0);

    /* A blackhole, and a delete. */
    fpm_nexthop_clear(&nh);
    nh.id = 8;
    nh.blackhole = true;
    ofpbuf_clear(&b);
    fpm_nexthop_encode(&b, &nh, 7);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert(m.nexthop.blackhole);
    nh.op = FPM_OP_DEL;
    ofpbuf_clear(&b);
    fpm_nexthop_encode(&b, &nh, 8);
    ck_assert_int_eq(fpm_test_parse_buf(&b, &m), 0);
    ck_assert_int_eq(m.nexthop.op, FPM_OP_DEL);
    ck_assert_uint_eq(m.nlmsg_type, RTM_DELNEXTHOP);

    ofpbuf_uninit(&b);
    fpm_msg_destroy(&m);
    fpm_nexthop_destroy(&nh);
}
END_TEST

/* The offload reply: what SONiC's fpmsyncd sends zebra's dplane_fpm_nl. */
START_TEST(test_offload_encode)
{
    static const struct {
        enum fpm_offload_status status;
        uint32_t flag;
    } cases[] = {
        { FPM_OFFLOAD_OK, RTM_F_OFFLOAD },
        { FPM_OFFLOAD_TRAP, RTM_F_TRAP },
        { FPM_OFFLOAD_FAILED, RTM_F_OFFLOAD_FAILED },
    };
    struct fpm_msg in, out;

    fpm_msg_init(&in);
    fpm_msg_init(&out);

    /* Reply to a route zebra actually sent: 10.1.0.0/24, nhid 24. */
    ck_assert_int_eq(nth_msg("zebra-nhg.fpm", 25, &in), 0);
    ck_assert_uint_eq(in.route.nhg_id, 24);

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        for (uint32_t vrf = 0; vrf < 2000; vrf += 1000) {
            struct fpm_splitter sp;
            struct fpm_frame frame;
            struct ofpbuf b;
            size_t ofs;
            const struct nlmsghdr *nlh;

            ofpbuf_init(&b, 0);
            ofs = fpm_frame_start(&b);
            fpm_route_encode_offload(&b, &in.route, cases[i].status, vrf,
                                     77);
            fpm_frame_finish(&b, ofs);

            fpm_splitter_init(&sp, 0);
            fpm_splitter_feed(&sp, b.data, b.size);
            ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
            nlh = (const struct nlmsghdr *) frame.data;
            ck_assert_uint_eq(nlh->nlmsg_type, RTM_NEWROUTE);
            /* zebra's fpm_read() skips messages without NLM_F_REQUEST. */
            ck_assert(nlh->nlmsg_flags & NLM_F_REQUEST);
            ck_assert_uint_eq(nlh->nlmsg_len, frame.size);

            ck_assert_int_eq(fpm_msg_parse(&out, nlh), 0);
            ck_assert_int_eq(out.kind, FPM_MSG_ROUTE);
            ck_assert_int_eq(out.route.op, FPM_OP_ADD);
            assert_prefix_eq(&out.route.prefix, &in.route.prefix);
            ck_assert_uint_eq(out.route.protocol, 186);
            ck_assert_uint_eq(out.route.rtm_flags
                              & (RTM_F_OFFLOAD | RTM_F_TRAP
                                 | RTM_F_OFFLOAD_FAILED), cases[i].flag);
            /* The table field carries the VRF id. */
            ck_assert_uint_eq(out.route.table, vrf);
            ck_assert_uint_eq(out.route.nhg_id, 0);
            ck_assert_uint_eq(out.route.n_nexthops, 0);
            ck_assert_uint_eq(out.nlmsg_seq, 77);

            fpm_splitter_destroy(&sp);
            ofpbuf_uninit(&b);
        }
    }
    fpm_msg_destroy(&in);
    fpm_msg_destroy(&out);
}
END_TEST

START_TEST(test_format_and_names)
{
    struct fpm_prefix p = fpm_test_prefix("2001:db8::/32");
    struct ds s = DS_EMPTY_INITIALIZER;
    char name[IF_NAMESIZE + 16];
    unsigned int lo = if_nametoindex("lo");

    fpm_prefix_format(&p, &s);
    ck_assert_str_eq(ds_cstr(&s), "2001:db8::/32");
    ds_destroy(&s);

    if (lo) {
        ck_assert_str_eq(fpm_ifindex_to_name(lo, name, sizeof name), "lo");
    }
    ck_assert_str_eq(fpm_ifindex_to_name(987654, name, sizeof name),
                     "if987654");
    ck_assert_str_eq(fpm_ifindex_to_name(0, name, sizeof name), "if0");

    ck_assert_str_eq(fpm_parse_error_to_string(FPM_PARSE_BAD_GROUP),
                     "malformed NHA_GROUP");
}
END_TEST

Suite *
fpm_route_suite(void)
{
    Suite *s = suite_create("fpm_route");
    TCase *tc;

    tc = tcase_create("capture");
    tcase_add_test(tc, test_capture_nhg);
    tcase_add_test(tc, test_capture_no_nhg);
    tcase_add_test(tc, test_capture_replay_forward_refs);
    suite_add_tcase(s, tc);

    tc = tcase_create("encode");
    tcase_add_test(tc, test_roundtrip_routes);
    tcase_add_test(tc, test_roundtrip_nexthops);
    tcase_add_test(tc, test_offload_encode);
    tcase_add_test(tc, test_format_and_names);
    suite_add_tcase(s, tc);

    return s;
}
