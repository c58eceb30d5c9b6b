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

/*
 * Check suite of the southbound fast path end to end, in one process:
 * orchd's end (daemons/orchd/orchd-southbound.c, driven by a real bulker) and
 * syncd's (daemons/syncd/syncd-zmq.c, on a real apply step and simulator), over
 * a ZeroMQ channel on ipc in a temporary directory.  Routes out, results
 * back, an entry syncd cannot use, and each end restarting; and syncd fed
 * hand-built frames with VRF names it must refuse.
 */

#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-entry.h"
#include "tests/check/orchd-test-util.h"
#include "daemons/orchd/orchd-southbound.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-zmq.h"
#include "asic-sim/asic-sim.h"
#include "lib/route-frame.h"
#include "lib/zmq-channel.h"
#include "openvswitch/ofpbuf.h"
#include "lib/fib-prefix.h"
#include "openvswitch/vlog.h"
#include "tests/check/suites.h"
#include "util.h"

/* orchd's end under test. */
struct orchd_end {
    struct orchd_bulker *bulker;    /* Builds the bulks. */
    struct orchd_southbound *sb;    /* Sends them. */
    int n_ok;                       /* Writes acknowledged as programmed. */
    int n_failed;                   /* Writes acknowledged as failed. */
    char error[128];                /* The last failure's reason. */
};

/* syncd's end under test. */
struct syncd_end {
    struct syncd_apply *apply;      /* Programs the simulator. */
    struct syncd_zmq *zq;           /* Receives the frames. */
};

static char *endpoint;

static void
orchd_send(void *o_, struct orchd_bulk *bulk)
{
    struct orchd_end *o = o_;

    orchd_southbound_send(o->sb, bulk);
}

static void
orchd_done(void *o_, const struct uuid *key OVS_UNUSED,
           const struct orchd_entry *e, bool ok, const char *error,
           uint8_t token OVS_UNUSED)
{
    struct orchd_end *o = o_;

    if (!e) {
        return;
    } else if (ok) {
        o->n_ok++;
    } else {
        o->n_failed++;
        ovs_strlcpy(o->error, error ? error : "", sizeof o->error);
    }
}

static bool
orchd_can_send(void *o_)
{
    struct orchd_end *o = o_;

    return orchd_southbound_can_send(o->sb);
}

static void
orchd_open(struct orchd_end *o)
{
    static const struct orchd_bulker_cbs cbs = {
        .send = orchd_send,
        .done = orchd_done,
        .can_send = orchd_can_send,
    };
    struct orchd_bulker_config cfg = { .max_bulk = 2,
                                       .max_outstanding = 2 };
    struct orchd_southbound_options opts = { .endpoint = endpoint };
    char *error;

    memset(o, 0, sizeof *o);
    o->bulker = orchd_bulker_create(&cfg, &cbs, o);
    o->sb = orchd_southbound_create(&opts, o->bulker, NULL, &error);
    ck_assert_msg(o->sb, "%s", error);
}

static void
orchd_close(struct orchd_end *o)
{
    orchd_southbound_destroy(o->sb);
    orchd_bulker_destroy(o->bulker);
}

static void
syncd_open(struct syncd_end *s)
{
    struct syncd_apply_options ao;
    struct syncd_zmq_options zo = { .endpoint = endpoint };
    char *error;

    memset(&ao, 0, sizeof ao);
    s->apply = syncd_apply_create(&ao, &error);
    ck_assert_msg(s->apply, "%s", error);
    s->zq = syncd_zmq_create(&zo, s->apply, &error);
    ck_assert_msg(s->zq, "%s", error);
    syncd_apply_set_callback(s->apply, syncd_zmq_apply_result, s->zq);
}

static void
syncd_close(struct syncd_end *s)
{
    syncd_zmq_destroy(s->zq);
    syncd_apply_destroy(s->apply);
}

/* Runs both ends once, then sleeps 1 ms. */
static void
step(struct orchd_end *o, struct syncd_end *s)
{
    orchd_southbound_run(o->sb);
    orchd_bulker_run(o->bulker);
    syncd_zmq_run(s->zq);
    usleep(1000);
}

/* Runs both ends until 'COND' holds, failing after about 10 s. */
#define RUN_UNTIL(O, S, COND)                                   \
    do {                                                        \
        int i_;                                                 \
        for (i_ = 0; i_ < 10000 && !(COND); i_++) {             \
            step(O, S);                                         \
        }                                                       \
        ck_assert_msg(COND, "timed out waiting for %s", #COND); \
    } while (0)

/* Returns an entry for 'prefix' in 'vrf' via 'nh' (NULL: drop). */
static struct orchd_entry *
entry(const char *vrf, const char *prefix, const char *nh)
{
    const char *keys[2] = { nh, "192.168.1.9@eth1" };
    int64_t weights[2] = { 1, 3 };
    struct fib_prefix p;

    ck_assert_ptr_null(fib_prefix_parse(prefix, &p));
    return orchd_entry_create(test_entry_space(), vrf, &p, nh ? ORCHD_ACTION_FORWARD
                              : ORCHD_ACTION_DROP, keys, weights,
                              nh ? 2 : 0);
}

static struct orchd_southbound_stats
sb_stats(const struct orchd_end *o)
{
    struct orchd_southbound_stats st;

    orchd_southbound_get_stats(o->sb, &st);
    return st;
}

static struct syncd_zmq_stats
zq_stats(const struct syncd_end *s)
{
    struct syncd_zmq_stats st;

    syncd_zmq_get_stats(s->zq, &st);
    return st;
}

START_TEST(test_southbound)
{
    char dir[] = "/tmp/fibsync-sb-XXXXXX";
    struct orchd_end o;
    struct syncd_end s;
    struct orchd_entry *gone = entry("default", "10.2.0.0/16", NULL);
    struct uuid gone_key = gone->asic_uuid;

    vlog_set_levels(NULL, VLF_CONSOLE, VLL_ERR);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    endpoint = xasprintf("ipc://%s/southbound.zmq", dir);
    syncd_open(&s);
    orchd_open(&o);
    RUN_UNTIL(&o, &s, sb_stats(&o).sync_ends == 1);

    /* Routes of each kind out, results back. */
    orchd_bulker_set(o.bulker, entry("default", "10.1.0.0/16",
                                     "192.168.1.2@eth0"));
    orchd_bulker_set(o.bulker, gone);
    orchd_bulker_set(o.bulker, entry("red", "2001:db8::/32",
                                     "2001:db8::1@eth2"));
    RUN_UNTIL(&o, &s, o.n_ok == 3);
    ck_assert_uint_eq(syncd_apply_n_routes(s.apply), 3);
    ck_assert(orchd_bulker_is_idle(o.bulker));

    /* An entry syncd cannot use: an error result, nothing programmed. */
    orchd_bulker_set(o.bulker, entry("default", "10.3.0.0/16",
                                     "10.0.0.300@eth0"));
    RUN_UNTIL(&o, &s, o.n_failed == 1);
    ck_assert_str_eq(o.error, "bad next hop \"10.0.0.300@eth0\": bad "
                     "gateway address");
    ck_assert_uint_eq(zq_stats(&s).bad_entries, 1);
    ck_assert_uint_eq(syncd_apply_n_routes(s.apply), 3);

    /* A removal. */
    orchd_bulker_del(o.bulker, &gone_key);
    RUN_UNTIL(&o, &s, syncd_apply_n_routes(s.apply) == 2
              && sb_stats(&o).results_del == 1);

    /* syncd restarts empty: orchd sends it everything again. */
    syncd_close(&s);
    syncd_open(&s);
    RUN_UNTIL(&o, &s, sb_stats(&o).sync_ends == 2
              && syncd_apply_n_routes(s.apply) == 2 && o.n_failed == 2);
    ck_assert_uint_eq(sb_stats(&o).resyncs, 2);

    /* orchd restarts wanting only one route: it is confirmed without a
     * SAI call, the other is removed. */
    orchd_close(&o);
    orchd_open(&o);
    orchd_bulker_set(o.bulker, entry("default", "10.1.0.0/16",
                                     "192.168.1.2@eth0"));
    RUN_UNTIL(&o, &s, zq_stats(&s).sync_ends == 2 && o.n_ok == 1);
    ck_assert_uint_eq(syncd_apply_n_routes(s.apply), 1);
    ck_assert_uint_eq(zq_stats(&s).last_marked, 2);
    ck_assert_uint_eq(zq_stats(&s).last_sets, 1);
    ck_assert_uint_eq(zq_stats(&s).last_unchanged, 1);
    ck_assert_uint_eq(zq_stats(&s).last_swept, 1);

    orchd_close(&o);
    syncd_close(&s);
    free(endpoint);
    rmdir(dir);
}
END_TEST

/* A bare orchd end: a channel that sends hand-built ROUTES frames and
 * keeps the results that come back. */
struct raw_end {
    struct zmq_channel *ch;         /* To syncd. */
    int n_results;                  /* Result entries received. */
    int n_errors;                   /* Of them, errors. */
    char vrf[8];                    /* The last result's VRF bytes... */
    size_t vrf_len;                 /* ...and their number. */
};

static void
raw_recv(void *r_, const struct route_frame_header *h OVS_UNUSED,
         const void *frame, size_t size)
{
    struct raw_end *r = r_;
    struct route_frame_reader rd;
    struct route_frame_route e;

    route_frame_reader_init(&rd, frame, size);
    while (rd.left && !route_frame_read(&rd, &e)) {
        r->n_results++;
        r->n_errors += e.status != 0;
        r->vrf_len = MIN(e.vrf_len, sizeof r->vrf);
        memcpy(r->vrf, e.vrf, r->vrf_len);
    }
}

/* Sends a frame of 'type' (ROUTES or RESULTS) with the one entry 'e', for
 * 10.0.0.0/8. */
static void
raw_send_entry(struct raw_end *r, enum route_frame_type type,
               struct route_frame_route *e)
{
    struct ofpbuf frame;

    ck_assert_ptr_null(fib_prefix_parse("10.0.0.0/8", &e->prefix));
    ofpbuf_init(&frame, 0);
    route_frame_start(&frame, type, 0, 0);
    if (type == ROUTE_FRAME_ROUTES) {
        route_frame_put_route(&frame, e);
    } else {
        route_frame_put_result(&frame, e);
    }
    route_frame_finish(&frame);
    zmq_channel_send(r->ch, &frame);
}

/* Sends one ROUTES entry: 'op' of 10.0.0.0/8 in the VRF named by the
 * 'vrf_len' bytes at 'vrf', via 192.0.2.1 if it is a SET. */
static void
raw_send(struct raw_end *r, enum route_frame_op op, const char *vrf,
         size_t vrf_len)
{
    struct route_frame_nexthop nh = { .key = "192.0.2.1@eth0",
                                      .key_len = 14, .weight = 1 };
    struct route_frame_route e = {
        .op = op, .action = ROUTE_FRAME_FORWARD, .seq = 1,
        .vrf = vrf, .vrf_len = vrf_len,
        .nexthops = &nh, .n_nexthops = op == ROUTE_FRAME_SET,
    };

    raw_send_entry(r, ROUTE_FRAME_ROUTES, &e);
}

/* Runs both ends until 'COND' holds, failing after about 10 s. */
#define RAW_RUN_UNTIL(R, S, COND)                               \
    do {                                                        \
        int i_;                                                 \
        for (i_ = 0; i_ < 10000 && !(COND); i_++) {             \
            zmq_channel_run((R)->ch);                           \
            syncd_zmq_run((S)->zq);                             \
            usleep(1000);                                       \
        }                                                       \
        ck_assert_msg(COND, "timed out waiting for %s", #COND); \
    } while (0)

/* Returns true if 10.0.0.0/8 in VRF "red" forwards in syncd's ASIC. */
static bool
red_route_programmed(const struct syncd_end *s)
{
    sai_object_id_t vr = syncd_apply_vr_find(s->apply, "red");
    uint32_t n4 = 0;

    if (vr) {
        asic_sim_route_count(vr, &n4, NULL);
    }
    return n4 == 1;
}

/* An entry whose VRF name holds a null byte, SET or DEL, is refused with
 * an error result naming the VRF as sent, and changes nothing: the name
 * cut at the null byte ("red") is another VRF, whose route stays. */
START_TEST(test_southbound_vrf_null_byte)
{
    struct zmq_channel_options co = { .name = "southbound", .bind = false };
    char dir[] = "/tmp/fibsync-sb-XXXXXX";
    struct raw_end r = { .n_results = 0 };
    struct syncd_end s;
    char *error;

    vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    endpoint = xasprintf("ipc://%s/southbound.zmq", dir);
    co.endpoint = endpoint;
    syncd_open(&s);
    r.ch = zmq_channel_create(&co, raw_recv, NULL, &r, &error);
    ck_assert_msg(r.ch, "%s", error);
    RAW_RUN_UNTIL(&r, &s, zmq_channel_is_up(r.ch));

    raw_send(&r, ROUTE_FRAME_SET, "red", 3);
    RAW_RUN_UNTIL(&r, &s, r.n_results == 1);
    ck_assert_int_eq(r.n_errors, 0);
    ck_assert(red_route_programmed(&s));

    raw_send(&r, ROUTE_FRAME_SET, "red\0x", 5);
    RAW_RUN_UNTIL(&r, &s, r.n_results == 2);
    ck_assert_int_eq(r.n_errors, 1);
    ck_assert_uint_eq(r.vrf_len, 5);
    ck_assert(!memcmp(r.vrf, "red\0x", 5));

    raw_send(&r, ROUTE_FRAME_DEL, "red\0junk", 8);
    RAW_RUN_UNTIL(&r, &s, r.n_results == 3);
    ck_assert_int_eq(r.n_errors, 2);

    raw_send(&r, ROUTE_FRAME_SET, "\0x", 2);
    raw_send(&r, ROUTE_FRAME_DEL, "\0", 1);
    RAW_RUN_UNTIL(&r, &s, r.n_results == 5);
    ck_assert_int_eq(r.n_errors, 4);
    ck_assert_uint_eq(zq_stats(&s).bad_entries, 4);
    ck_assert(red_route_programmed(&s));
    ck_assert_uint_eq(syncd_apply_n_routes(s.apply), 1);

    zmq_channel_destroy(r.ch);
    syncd_close(&s);
    free(endpoint);
    rmdir(dir);
}
END_TEST

/* Sends one RESULTS entry to orchd: DEL of 10.0.0.0/8 in the VRF named
 * by the 'vrf_len' bytes at 'vrf', programmed. */
static void
raw_send_del_result(struct raw_end *r, const char *vrf, size_t vrf_len)
{
    struct route_frame_route e = { .op = ROUTE_FRAME_DEL, .seq = 1,
                                   .vrf = vrf, .vrf_len = vrf_len };

    raw_send_entry(r, ROUTE_FRAME_RESULTS, &e);
}

/* orchd ignores a result whose VRF name holds a null byte: it names no
 * route of orchd's (cut at the null byte it would name "red"'s). */
START_TEST(test_southbound_result_vrf_null_byte)
{
    struct zmq_channel_options co = { .name = "southbound", .bind = true };
    char dir[] = "/tmp/fibsync-sb-XXXXXX";
    struct raw_end r = { .n_results = 0 };
    struct orchd_end o;
    char *error;
    int i;

    vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    endpoint = xasprintf("ipc://%s/southbound.zmq", dir);
    co.endpoint = endpoint;
    r.ch = zmq_channel_create(&co, raw_recv, NULL, &r, &error);
    ck_assert_msg(r.ch, "%s", error);
    orchd_open(&o);
    for (i = 0; i < 10000 && !zmq_channel_is_up(r.ch); i++) {
        zmq_channel_run(r.ch);
        orchd_southbound_run(o.sb);
        usleep(1000);
    }
    ck_assert(zmq_channel_is_up(r.ch));

    raw_send_del_result(&r, "red\0x", 5);
    raw_send_del_result(&r, "red", 3);
    for (i = 0; i < 10000 && sb_stats(&o).results_del < 1; i++) {
        zmq_channel_run(r.ch);
        orchd_southbound_run(o.sb);
        usleep(1000);
    }
    ck_assert_uint_eq(sb_stats(&o).results_del, 1);
    ck_assert_uint_eq(sb_stats(&o).results_stale, 1);

    orchd_close(&o);
    zmq_channel_destroy(r.ch);
    free(endpoint);
    rmdir(dir);
}
END_TEST

Suite *
southbound_suite(void)
{
    Suite *s = suite_create("southbound");
    TCase *tc = tcase_create("southbound");

    tcase_add_test(tc, test_southbound);
    tcase_add_test(tc, test_southbound_vrf_null_byte);
    tcase_add_test(tc, test_southbound_result_vrf_null_byte);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
