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


/* Helpers shared by the Check suites of lib/fpm-frame and lib/fpm-route. */

#include <config.h>

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "tests/check/fpm-test-util.h"
#include "lib/fpm-frame.h"
#include "lib/fpm-route-encode.h"
#include "lib/fpm-route-format.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* Reads tests/data/'name' into 'b', looking where the build may run us:
 * $srcdir (set by automake's test harness), the current directory, its
 * parent (an out-of-tree build in a subdirectory), and next to this source
 * file. */
void
fpm_test_load_data(const char *name, struct ofpbuf *b)
{
    const char *srcdir = getenv("srcdir");
    char *here = dir_name(__FILE__);
    char *candidates[] = {
        srcdir ? xasprintf("%s/tests/data/%s", srcdir, name) : NULL,
        xasprintf("tests/data/%s", name),
        xasprintf("../tests/data/%s", name),
        xasprintf("%s/../data/%s", here, name),
    };
    bool loaded = false;

    for (size_t i = 0; i < ARRAY_SIZE(candidates); i++) {
        FILE *f = candidates[i] && !loaded ? fopen(candidates[i], "rb")
                                           : NULL;
        if (f) {
            char buf[4096];
            size_t n;

            while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
                ofpbuf_put(b, buf, n);
            }
            fclose(f);
            loaded = true;
        }
        free(candidates[i]);
    }
    free(here);
    ck_assert_msg(loaded, "tests/data/%s not found (set srcdir)", name);
}

/* Records one message of a capture into 'w_', a struct fpm_test_walk: an
 * fpm_msg_cb for fpm_route_parse_frame(). */
void
fpm_test_walk_cb(const struct fpm_msg *msg, int error,
                 const struct nlmsghdr *nlh OVS_UNUSED, void *w_)
{
    struct fpm_test_walk *w = w_;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (error) {
        ds_put_format(&s, "error %s", fpm_parse_error_to_string(error));
    } else {
        fpm_msg_format(msg, &s);
    }
    svec_add_nocopy(&w->lines, ds_steal_cstr(&s));
    if (w->n_msgs < ARRAY_SIZE(w->frame_of)) {
        w->frame_of[w->n_msgs] = w->frame;
    }
    w->n_msgs++;
}

/* Splits and parses capture 'name' into 'w'. */
void
fpm_test_walk_capture(const char *name, struct fpm_test_walk *w)
{
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct fpm_msg msg;
    struct ofpbuf b;
    int error;

    memset(w, 0, sizeof *w);
    svec_init(&w->lines);
    ofpbuf_init(&b, 0);
    fpm_test_load_data(name, &b);
    fpm_splitter_init(&sp, 0);
    fpm_splitter_feed(&sp, b.data, b.size);
    fpm_msg_init(&msg);
    while (!(error = fpm_splitter_next(&sp, &frame))) {
        fpm_route_parse_frame(frame.data, frame.size, &msg, &w->stats,
                              fpm_test_walk_cb, w);
        w->frame++;
    }
    ck_assert_int_eq(error, EAGAIN);
    ck_assert_uint_eq(fpm_splitter_pending(&sp), 0);
    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&b);
}

/* Returns an fpm_prefix for 'text' ("10.0.0.0/24" or "2001:db8::/32"). */
struct fpm_prefix
fpm_test_prefix(const char *text)
{
    struct fpm_prefix p;
    char addr[INET6_ADDRSTRLEN];
    const char *slash = strchr(text, '/');

    memset(&p, 0, sizeof p);
    ck_assert(slash && slash - text < (int) sizeof addr);
    memcpy(addr, text, slash - text);
    addr[slash - text] = '\0';
    p.family = strchr(addr, ':') ? AF_INET6 : AF_INET;
    ck_assert_int_eq(inet_pton(p.family, addr, p.addr), 1);
    p.len = atoi(slash + 1);
    return p;
}

/* Returns an fpm_addr for 'text'. */
struct fpm_addr
fpm_test_addr(const char *text)
{
    struct fpm_addr a;

    memset(&a, 0, sizeof a);
    a.family = strchr(text, ':') ? AF_INET6 : AF_INET;
    ck_assert_int_eq(inet_pton(a.family, text, a.addr), 1);
    return a;
}

/* Fills 'r', initialized, with 'op' of a BGP route to 'dst' in the main
 * table: for an add, one path via 'gw' (may be null) dev 'ifindex'; a
 * delete carries only the prefix. */
void
fpm_test_simple_route(struct fpm_route *r, enum fpm_op op, const char *dst,
                      const char *gw, uint32_t ifindex)
{
    r->op = op;
    r->prefix = fpm_test_prefix(dst);
    r->protocol = 186;
    r->metric = 20;
    if (op == FPM_OP_ADD) {
        struct fpm_route_nh *nh = fpm_route_add_nexthop(r);

        if (gw) {
            nh->gateway = fpm_test_addr(gw);
        }
        nh->ifindex = ifindex;
    }
}

/* Encodes a one-path route to 'dst' via 'gw' (may be null) dev 'ifindex'
 * into 'b'. */
void
fpm_test_encode_simple_route(struct ofpbuf *b, const char *dst,
                             const char *gw, uint32_t ifindex)
{
    struct fpm_route r;

    fpm_route_init(&r);
    fpm_test_simple_route(&r, FPM_OP_ADD, dst, gw, ifindex);
    fpm_route_encode(b, &r, 1);
    fpm_route_destroy(&r);
}

/* Parses the single message in 'b' and returns the result; 'msg' must be
 * initialized. */
int
fpm_test_parse_buf(const struct ofpbuf *b, struct fpm_msg *msg)
{
    return fpm_msg_parse(msg, b->data);
}
