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

/* Check suite of lib/zmq-channel, on real libzmq sockets over ipc in a
 * temporary directory: ordered delivery, back-pressure without loss, a
 * restarted peer, and garbage from strangers. */

#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "lib/route-frame.h"
#include "lib/zmq-channel.h"
#include "openvswitch/ofpbuf.h"
#include "tests/check/suites.h"
#include "util.h"

/* One end under test, and what it received. */
struct end {
    struct zmq_channel *ch;     /* The channel. */
    uint64_t first[4096];       /* Each received frame's first entry's
                                 * /32 address, host order. */
    size_t n;                   /* Frames received. */
    int n_peer;                 /* Peer callbacks. */
};

static char tmpdir[] = "/tmp/fibsync-zmq-XXXXXX";
static char *endpoint;

static void
recv_cb(void *e_, const struct route_frame_header *h, const void *frame,
        size_t size)
{
    struct end *e = e_;
    struct route_frame_reader *rd = xmalloc(sizeof *rd);
    struct route_frame_route r;

    ck_assert_int_eq(h->type, ROUTE_FRAME_ROUTES);
    route_frame_reader_init(rd, frame, size);
    ck_assert_int_eq(route_frame_read(rd, &r), ROUTE_FRAME_OK);
    ck_assert_uint_lt(e->n, ARRAY_SIZE(e->first));
    e->first[e->n++] = ((uint32_t) r.prefix.addr[0] << 24
                        | r.prefix.addr[1] << 16 | r.prefix.addr[2] << 8
                        | r.prefix.addr[3]);
    free(rd);
}

static void
peer_cb(void *e_)
{
    struct end *e = e_;

    e->n_peer++;
}

static void
end_open(struct end *e, bool bind, size_t window)
{
    struct zmq_channel_options o = {
        .name = "test", .endpoint = endpoint, .bind = bind,
        .window = window, .resend_ms = 100,
    };
    char *error;

    memset(e, 0, sizeof *e);
    e->ch = zmq_channel_create(&o, recv_cb, peer_cb, e, &error);
    ck_assert_msg(e->ch, "%s", error);
}

/* Runs ends 'a' and 'b' (either may be NULL) once, then sleeps 1 ms. */
static void
step(struct end *a, struct end *b)
{
    if (a) {
        zmq_channel_run(a->ch);
    }
    if (b) {
        zmq_channel_run(b->ch);
    }
    usleep(1000);
}

/* Runs both ends for about 'MS' milliseconds, or until 'COND' holds. */
#define RUN_UNTIL(A, B, COND, MS)                       \
    for (int i_ = 0; i_ < (MS) && !(COND); i_++) {      \
        step(A, B);                                     \
    }

/* Sends one ROUTES frame whose only route is 'addr'/32. */
static void
send_route(struct end *e, uint32_t addr)
{
    struct route_frame_route r = {
        .op = ROUTE_FRAME_SET, .action = ROUTE_FRAME_TRAP,
        .vrf = "default", .vrf_len = 7,
        .prefix = { .family = AF_INET, .len = 32,
                    .addr = { addr >> 24, addr >> 16, addr >> 8, addr } },
    };
    struct ofpbuf b;

    ofpbuf_init(&b, 64);
    route_frame_start(&b, ROUTE_FRAME_ROUTES, 0, 0);
    route_frame_put_route(&b, &r);
    zmq_channel_send(e->ch, &b);
    ofpbuf_uninit(&b);
}

static void
setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    endpoint = xasprintf("ipc://%s/test.zmq", tmpdir);
}

static void
teardown(void)
{
    char *cmd = xasprintf("rm -rf %s", tmpdir);

    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(endpoint);
    strcpy(tmpdir, "/tmp/fibsync-zmq-XXXXXX");
}

/* 1,000 frames through a window of 8 arrive once each, in order. */
START_TEST(test_channel_in_order)
{
    struct end c, p;
    uint32_t next = 0;

    end_open(&c, true, 8);
    end_open(&p, false, 8);
    RUN_UNTIL(&c, &p, zmq_channel_is_up(p.ch) && zmq_channel_is_up(c.ch),
              2000);
    ck_assert(zmq_channel_is_up(p.ch));
    ck_assert_int_eq(p.n_peer, 1);
    ck_assert(!zmq_channel_can_send(c.ch) || zmq_channel_is_up(c.ch));

    for (int i = 0; i < 5000 && c.n < 1000; i++) {
        while (next < 1000 && zmq_channel_can_send(p.ch)) {
            send_route(&p, next++);
        }
        ck_assert_uint_le(zmq_channel_n_unacked(p.ch), 8);
        RUN_UNTIL(&c, &p, false, 1);
    }
    ck_assert_uint_eq(c.n, 1000);
    for (size_t i = 0; i < c.n; i++) {
        ck_assert_uint_eq(c.first[i], i);
    }
    RUN_UNTIL(&c, &p, !zmq_channel_n_unacked(p.ch), 1000);
    ck_assert_uint_eq(zmq_channel_n_unacked(p.ch), 0);

    struct zmq_channel_stats st;
    zmq_channel_get_stats(c.ch, &st);
    ck_assert_uint_eq(st.duplicates + st.gaps + st.bad_frames, 0);
    zmq_channel_destroy(p.ch);
    zmq_channel_destroy(c.ch);
}
END_TEST

/* A receiver that stops reading makes the sender stop at its window,
 * with nothing dropped; resumed, it gets everything in order. */
START_TEST(test_channel_backpressure)
{
    struct end c, p;
    uint32_t next = 0;

    end_open(&c, true, 16);
    end_open(&p, false, 16);
    RUN_UNTIL(&c, &p, zmq_channel_is_up(p.ch) && zmq_channel_is_up(c.ch),
              2000);
    zmq_channel_set_receiving(c.ch, false);
    for (int i = 0; i < 300; i++) {
        while (zmq_channel_can_send(p.ch)) {
            send_route(&p, next++);
        }
        RUN_UNTIL(&c, &p, false, 1);
    }
    ck_assert_uint_eq(next, 16);
    ck_assert_uint_eq(c.n, 0);
    ck_assert(!zmq_channel_can_send(p.ch));

    zmq_channel_set_receiving(c.ch, true);
    for (int i = 0; i < 5000 && c.n < 200; i++) {
        while (next < 200 && zmq_channel_can_send(p.ch)) {
            send_route(&p, next++);
        }
        RUN_UNTIL(&c, &p, false, 1);
    }
    ck_assert_uint_eq(c.n, 200);
    for (size_t i = 0; i < c.n; i++) {
        ck_assert_uint_eq(c.first[i], i);
    }
    zmq_channel_destroy(p.ch);
    zmq_channel_destroy(c.ch);
}
END_TEST

/* A receiver that restarts is seen by the sender, which numbers from 1
 * again; the first frame after the restart arrives. */
START_TEST(test_channel_peer_restart)
{
    struct end c, p;

    end_open(&c, true, 8);
    end_open(&p, false, 8);
    RUN_UNTIL(&c, &p, zmq_channel_is_up(p.ch) && zmq_channel_is_up(c.ch),
              2000);
    send_route(&p, 1);
    RUN_UNTIL(&c, &p, c.n == 1, 2000);
    ck_assert_uint_eq(c.n, 1);

    /* The receiver dies with a frame in flight to it. */
    send_route(&p, 2);
    zmq_channel_destroy(c.ch);
    end_open(&c, true, 8);
    RUN_UNTIL(&c, &p, p.n_peer == 2 && zmq_channel_is_up(c.ch), 5000);
    ck_assert_int_eq(p.n_peer, 2);
    ck_assert_uint_eq(zmq_channel_n_unacked(p.ch), 0);

    /* The sender resynchronizes: the first frame of the new session. */
    send_route(&p, 3);
    RUN_UNTIL(&c, &p, c.n == 1, 2000);
    ck_assert_uint_eq(c.n, 1);
    ck_assert_uint_eq(c.first[0], 3);

    struct zmq_channel_stats st;
    zmq_channel_get_stats(p.ch, &st);
    ck_assert_uint_eq(st.peer_restarts, 1);
    zmq_channel_destroy(p.ch);
    zmq_channel_destroy(c.ch);
}
END_TEST

/* Sends 'size' bytes at 'data' to the endpoint from a raw DEALER socket
 * with routing id 'id' (NULL for libzmq's own). */
static void
send_raw(void *zctx, const char *id, const void *data, size_t size)
{
    void *s = zmq_socket(zctx, ZMQ_DEALER);
    int zero = 0;

    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    if (id) {
        zmq_setsockopt(s, ZMQ_ROUTING_ID, id, strlen(id));
    }
    ck_assert_int_eq(zmq_connect(s, endpoint), 0);
    ck_assert_int_ge(zmq_send(s, data, size, 0), 0);
    usleep(50000);
    zmq_close(s);
}

/* Garbage from a stranger, and garbage that claims to be the peer, is
 * counted and ignored; the channel goes on working. */
START_TEST(test_channel_garbage)
{
    void *zctx = zmq_ctx_new();
    struct route_frame_route junk = { .vrf = "x", .vrf_len = 1 };
    struct zmq_channel_stats st;
    struct end c, p;
    struct ofpbuf b;

    /* (The channel reads after each send: a later sender with the same
     * routing id takes it over, and libzmq gives the earlier connection's
     * queued messages a new one.) */
    end_open(&c, true, 8);
    send_raw(zctx, NULL, "hello", 5);
    RUN_UNTIL(&c, NULL, false, 50);
    send_raw(zctx, "fibsync-test", "\x46\x53\x01", 3);
    RUN_UNTIL(&c, NULL, false, 50);
    ofpbuf_init(&b, 0);
    route_frame_start(&b, ROUTE_FRAME_ROUTES, 1, 1);
    route_frame_put_route(&b, &junk);
    ((uint8_t *) b.data)[2] = 9;        /* A version from the future. */
    send_raw(zctx, "fibsync-test", b.data, b.size);
    ofpbuf_uninit(&b);
    RUN_UNTIL(&c, NULL, false, 50);
    zmq_channel_get_stats(c.ch, &st);
    ck_assert_uint_eq(st.bad_messages, 1);
    ck_assert_uint_eq(st.bad_frames, 2);
    ck_assert_uint_eq(st.bad_by_error[ROUTE_FRAME_E_SHORT], 1);
    ck_assert_uint_eq(st.bad_by_error[ROUTE_FRAME_E_VERSION], 1);
    ck_assert_uint_eq(c.n, 0);

    end_open(&p, false, 8);
    RUN_UNTIL(&c, &p, zmq_channel_is_up(p.ch) && zmq_channel_is_up(c.ch),
              3000);
    send_route(&p, 7);
    RUN_UNTIL(&c, &p, c.n == 1, 2000);
    ck_assert_uint_eq(c.n, 1);
    ck_assert_uint_eq(c.first[0], 7);
    zmq_channel_destroy(p.ch);
    zmq_channel_destroy(c.ch);
    zmq_ctx_term(zctx);
}
END_TEST

Suite *
zmq_channel_suite(void)
{
    Suite *s = suite_create("zmq_channel");
    TCase *tc = tcase_create("zmq_channel");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_channel_in_order);
    tcase_add_test(tc, test_channel_backpressure);
    tcase_add_test(tc, test_channel_peer_restart);
    tcase_add_test(tc, test_channel_garbage);
    suite_add_tcase(s, tc);
    return s;
}
