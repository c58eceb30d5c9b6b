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

/* Check suite for daemons/fpmsyncd/fpmsyncd-zmq, the northbound fast path's queue,
 * without a channel: route changes into the rib, ROUTES frames out (as
 * orchd would decode them), RESULTS frames in, and the Route.status
 * mutates written behind them (daemons/fpmsyncd/fpmsyncd-status). */

#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemons/fpmsyncd/fpmsyncd-nexthop.h"
#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "daemons/fpmsyncd/fpmsyncd-status.h"
#include "daemons/fpmsyncd/fpmsyncd-txn.h"
#include "daemons/fpmsyncd/fpmsyncd-vrf.h"
#include "daemons/fpmsyncd/fpmsyncd-zmq.h"
#include "lib/fpm-route.h"
#include "lib/ovsdb-writer.h"
#include "lib/route-batch.h"
#include "lib/route-frame.h"
#include "lib/route-key.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/shash.h"
#include "tests/check/fpm-test-util.h"
#include "tests/check/suites.h"
#include "util.h"
#include "uuid.h"

/* Interface names that do not depend on the host. */
static const char *
test_ifname(uint32_t ifindex, char *buf, size_t size)
{
    snprintf(buf, size, "eth%u", ifindex);
    return buf;
}

/* Creates a rib with its observers, as fpmsyncd's main does. */
static struct fpmd_rib *
rib_create(void)
{
    struct fpmd_rib *rib = fpmd_rib_create(test_ifname);

    fpmd_offload_attach(rib);
    fpmd_status_attach(rib);
    return rib;
}

/* A rib, loaded from an empty database, with a fast path. */
struct fixture {
    struct fpmd_rib *rib;       /* The rib. */
    struct fpmd_zmq *zmq;       /* Its fast path, without a channel. */
    size_t n_offloads;          /* Offload notifications asked for. */
};

static void
offload_cb(const struct fpm_route *r OVS_UNUSED, void *fx_)
{
    struct fixture *fx = fx_;

    fx->n_offloads++;
}

static void
fixture_init(struct fixture *fx, size_t max_pending, bool load)
{
    struct fpmd_zmq_options opts = { .max_pending = max_pending };
    char *error;

    memset(fx, 0, sizeof *fx);
    fx->rib = rib_create();
    fx->zmq = fpmd_zmq_create(fx->rib, &opts, &error);
    ck_assert_ptr_null(error);
    ck_assert_ptr_nonnull(fx->zmq);
    fpmd_offload_set_cb(fx->rib, offload_cb, fx);
    if (load) {
        fpmd_rib_load_begin(fx->rib);
        fpmd_rib_load_end(fx->rib);
    }
    fpmd_rib_new_generation(fx->rib);
}

static void
fixture_destroy(struct fixture *fx)
{
    fpmd_zmq_destroy(fx->zmq);
    fpmd_rib_destroy(fx->rib);
}

/* Each test's fixture: loaded, stalls at 100,000 routes, unless the test
 * makes it again. */
static struct fixture fx_;

static void
setup(void)
{
    fixture_init(&fx_, 100000, true);
}

static void
teardown(void)
{
    fixture_destroy(&fx_);
}

/* zebra adds (or replaces) 'prefix' in kernel table 'table' with metric
 * 'metric': through next-hop object 'nhg' if nonzero, else via gateway
 * 'gw' on eth2 (a blackhole if 'gw' is null). */
static void
route_add_metric(struct fixture *fx, const char *prefix, uint32_t table,
                 uint32_t nhg, const char *gw, uint32_t metric)
{
    struct fpm_route r;

    fpm_route_init(&r);
    r.op = FPM_OP_ADD;
    r.table = table;
    r.prefix = fpm_test_prefix(prefix);
    r.protocol = 186;
    r.metric = metric;
    r.type = nhg || gw ? FPM_ROUTE_UNICAST : FPM_ROUTE_BLACKHOLE;
    r.nhg_id = nhg;
    if (!nhg && gw) {
        struct fpm_route_nh *nh = fpm_route_add_nexthop(&r);

        nh->gateway = fpm_test_addr(gw);
        nh->ifindex = 2;
    }
    fpmd_rib_route(fx->rib, &r);
    fpm_route_destroy(&r);
}

/* route_add_metric() with no metric. */
static void
route_add(struct fixture *fx, const char *prefix, uint32_t table,
          uint32_t nhg, const char *gw)
{
    route_add_metric(fx, prefix, table, nhg, gw, 0);
}

/* zebra deletes 'prefix' from the main table. */
static void
route_del(struct fixture *fx, const char *prefix)
{
    struct fpm_route r;

    fpm_route_init(&r);
    r.op = FPM_OP_DEL;
    r.table = 254;
    r.prefix = fpm_test_prefix(prefix);
    fpmd_rib_route(fx->rib, &r);
    fpm_route_destroy(&r);
}

/* zebra defines next hop 'id' via 'gw' on eth2, or, if 'gw' is null,
 * group 'id' of next hops 'm1' and 'm2' (weights 1 and 3). */
static void
nh_add(struct fixture *fx, uint32_t id, const char *gw, uint32_t m1,
       uint32_t m2)
{
    struct fpm_nexthop nh;

    fpm_nexthop_init(&nh);
    nh.op = FPM_OP_ADD;
    nh.id = id;
    if (gw) {
        nh.gateway = fpm_test_addr(gw);
        nh.family = nh.gateway.family;
        nh.ifindex = 2;
    } else {
        struct fpm_nhg_member *m = fpm_nexthop_add_member(&nh);

        m->id = m1;
        m->weight = 1;
        m = fpm_nexthop_add_member(&nh);
        m->id = m2;
        m->weight = 3;
    }
    fpmd_nh_input(fx->rib, &nh);
    fpm_nexthop_destroy(&nh);
}

/* Takes the next frame and returns its entries as text, one line each
 * ("SET VRF PREFIX ACTION [KEY*WEIGHT...]", with " answer" if 'answers'
 * and it asks for one, or "DEL VRF PREFIX"), then "SYNC_END" if it ends a
 * resync; "none" if there was no frame. */
static char *
take__(struct fixture *fx, bool answers)
{
    struct route_frame_reader *rd = xmalloc(sizeof *rd);
    struct ds s = DS_EMPTY_INITIALIZER;
    struct route_frame_header h;
    struct route_frame_route e;
    struct ofpbuf b;

    ofpbuf_init(&b, 0);
    if (!fpmd_zmq_take_frame(fx->zmq, &b)) {
        ds_put_cstr(&s, "none");
        goto out;
    }
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_OK);
    ck_assert_int_eq(h.type, ROUTE_FRAME_ROUTES);
    route_frame_reader_init(rd, b.data, b.size);
    while (rd->left) {
        static const char *actions[] = { "forward", "drop", "trap" };
        char buf[FIB_PREFIX_STRLEN];

        ck_assert_int_eq(route_frame_read(rd, &e), ROUTE_FRAME_OK);
        fib_prefix_format(&e.prefix, buf);
        ds_put_format(&s, "%s %.*s %s", e.op == ROUTE_FRAME_SET ? "SET"
                      : "DEL", (int) e.vrf_len, e.vrf, buf);
        if (e.op == ROUTE_FRAME_SET) {
            ds_put_format(&s, " %s", actions[e.action]);
        }
        for (size_t i = 0; i < e.n_nexthops; i++) {
            ds_put_format(&s, " %.*s*%"PRIu32, (int) e.nexthops[i].key_len,
                          e.nexthops[i].key, e.nexthops[i].weight);
        }
        if (answers && e.flags & ROUTE_FRAME_EF_ANSWER) {
            ds_put_cstr(&s, " answer");
        }
        ds_put_char(&s, '\n');
    }
    if (h.flags & ROUTE_FRAME_F_SYNC_END) {
        ds_put_cstr(&s, "SYNC_END\n");
    }
out:
    ofpbuf_uninit(&b);
    free(rd);
    return ds_steal_cstr(&s);
}

/* take__() without the answers asked for. */
static char *
take(struct fixture *fx)
{
    return take__(fx, false);
}

/* take__() with them. */
static char *
take_answers(struct fixture *fx)
{
    return take__(fx, true);
}

/* qsort() comparator of strings. */
static int
compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Returns take()'s lines in sorted order ("SYNC_END" comes last): the
 * order of a resync is the rib's hash order. */
static char *
take_sorted(struct fixture *fx)
{
    char *text = take(fx);
    char *lines[64], *save = NULL;
    struct ds s = DS_EMPTY_INITIALIZER;
    size_t n = 0;

    for (char *l = strtok_r(text, "\n", &save); l && n < ARRAY_SIZE(lines);
         l = strtok_r(NULL, "\n", &save)) {
        lines[n++] = l;
    }
    qsort(lines, n, sizeof *lines, compare_strings);
    for (size_t i = 0; i < n; i++) {
        ds_put_format(&s, "%s\n", lines[i]);
    }
    free(text);
    return ds_steal_cstr(&s);
}

/* Checks that the next frame is 'expected' (see take()), in order, or
 * in any order for CHECK_TAKE_SORTED. */
#define CHECK_TAKE__(FX, EXPECTED, TAKE)                                \
    do {                                                                \
        char *text_ = TAKE(FX);                                         \
        ck_assert_str_eq(text_, EXPECTED);                              \
        free(text_);                                                    \
    } while (0)
#define CHECK_TAKE(FX, EXPECTED) CHECK_TAKE__(FX, EXPECTED, take)
#define CHECK_TAKE_ANSWERS(FX, EXPECTED) \
    CHECK_TAKE__(FX, EXPECTED, take_answers)
#define CHECK_TAKE_SORTED(FX, EXPECTED) \
    CHECK_TAKE__(FX, EXPECTED, take_sorted)

/* Writes every row the rib queued, as if the database committed them all,
 * where each update finds 'update_count' rows (0: the rows of a lost
 * transaction, sent again as updates since their state is unknown, find
 * nothing).  Appends the operations sent to 'sent', if nonnull, as wanted
 * by ovsdb_writer_txn_start(), each after a comma. */
static void
db_commit_all__(struct fixture *fx, unsigned int update_count,
                struct ds *sent)
{
    struct route_batch_txn *txn;
    struct ds ops = DS_EMPTY_INITIALIZER;

    while ((txn = fpmd_txn_build(fx->rib, 1000, &ops))) {
        struct json *results = json_array_create_empty();
        struct ds errors = DS_EMPTY_INITIALIZER;

        if (sent) {
            ds_put_buffer(sent, ops.string, ops.length);
        }
        for (size_t i = 0; i < txn->n_ops; i++) {
            struct json *r = json_object_create();

            json_object_put(r, "count", json_integer_create(
                                txn->ops[i].type == ROUTE_BATCH_UPDATE
                                ? update_count : 1));
            json_array_add(results, r);
        }

        struct ovsdb_writer_reply reply = {
            .result = OVSDB_WRITER_SUCCESS,
            .results = results,
            .failed_op = SIZE_MAX,
            .n_ops = txn->n_ops,
        };
        ck_assert(fpmd_txn_reply(fx->rib, txn, &reply, &errors));
        ds_destroy(&errors);
        json_destroy(results);
        ds_clear(&ops);
    }
    ds_destroy(&ops);
}

/* Takes the next transaction of rows and loses it with the connection.
 * Appends its operations to 'sent', if nonnull, as db_commit_all__()
 * does. */
static void
db_lose_one(struct fixture *fx, struct ds *sent)
{
    struct ds ops = DS_EMPTY_INITIALIZER;
    struct ds errors = DS_EMPTY_INITIALIZER;
    struct route_batch_txn *txn = fpmd_txn_build(fx->rib, 1000, &ops);

    ck_assert_ptr_nonnull(txn);
    if (sent) {
        ds_put_buffer(sent, ops.string, ops.length);
    }

    struct ovsdb_writer_reply lost = {
        .result = OVSDB_WRITER_LOST,
        .failed_op = SIZE_MAX,
        .n_ops = txn->n_ops,
    };
    ck_assert(!fpmd_txn_reply(fx->rib, txn, &lost, &errors));
    ds_destroy(&errors);
    ds_destroy(&ops);
}

/* Writes every row the rib queued, as if the database committed them
 * all. */
static void
db_commit_all(struct fixture *fx)
{
    db_commit_all__(fx, 1, NULL);
}

/* Changes coalesce: a route is sent once, with its latest state, at the
 * place of its first change. */
START_TEST(test_zmq_coalesce)
{
    struct fixture *fx = &fx_;

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.2.0.0/24", 254, 0, NULL);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    route_add(fx, "2001:db8::/32", 10, 0, "2001:db8:ffff::1");
    ck_assert_uint_eq(fpmd_zmq_n_queued(fx->zmq), 3);
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.3@eth2*1\n"
               "SET default 10.2.0.0/24 drop\n"
               "SET table10 2001:db8::/32 forward "
               "2001:db8:ffff::1@eth2*1\n");
    CHECK_TAKE(fx, "none");

    /* Replayed unchanged: nothing to send (orchd has it). */
    db_commit_all(fx);
    route_add(fx, "10.2.0.0/24", 254, 0, NULL);
    CHECK_TAKE(fx, "none");
}
END_TEST

/* A route through a group zebra has not defined is held, and sent once
 * the group resolves; a group's member change resends its routes. */
/* A frame says whether the Route rows are still to be written to OVSDB
 * (here they always are: the fixture has no database). */
START_TEST(test_zmq_db_behind)
{
    struct fixture *fx = &fx_;
    struct route_frame_header h;
    struct ofpbuf b;

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_gt(fpmd_rib_n_pending(fx->rib), 0);
    ofpbuf_init(&b, 0);
    ck_assert(fpmd_zmq_take_frame(fx->zmq, &b));
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_OK);
    ck_assert_uint_eq(h.flags, ROUTE_FRAME_F_DB_BEHIND);
    ck_assert_uint_eq(h.count, 1);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_zmq_hold_group)
{
    struct fixture *fx = &fx_;

    route_add(fx, "10.7.0.0/16", 254, 7, NULL);
    CHECK_TAKE(fx, "none");
    nh_add(fx, 7, NULL, 3, 4);
    nh_add(fx, 3, "192.168.1.2", 0, 0);
    CHECK_TAKE(fx, "none");
    nh_add(fx, 4, "192.168.1.3", 0, 0);
    CHECK_TAKE(fx, "SET default 10.7.0.0/16 forward 192.168.1.2@eth2*1 "
               "192.168.1.3@eth2*3\n");
    nh_add(fx, 4, "192.168.1.9", 0, 0);
    CHECK_TAKE(fx, "SET default 10.7.0.0/16 forward 192.168.1.2@eth2*1 "
               "192.168.1.9@eth2*3\n");
}
END_TEST

/* A zebra that restarted defines its next-hop ids again, some otherwise:
 * the last session's routes keep the paths they had until zebra announces
 * them again; an object defined as before moves nothing. */
START_TEST(test_zmq_nhg_ids_reused)
{
    struct fixture *fx = &fx_;

    nh_add(fx, 3, "192.168.1.2", 0, 0);
    nh_add(fx, 4, "192.168.1.3", 0, 0);
    nh_add(fx, 9, NULL, 3, 4);
    route_add(fx, "10.4.0.0/24", 254, 9, NULL);
    route_add(fx, "10.5.0.0/24", 254, 3, NULL);
    CHECK_TAKE(fx, "SET default 10.4.0.0/24 forward 192.168.1.2@eth2*1 "
               "192.168.1.3@eth2*3\n"
               "SET default 10.5.0.0/24 forward 192.168.1.2@eth2*1\n");

    fpmd_rib_new_generation(fx->rib);
    nh_add(fx, 3, "192.168.1.2", 0, 0);
    CHECK_TAKE(fx, "none");
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->routes_detached, 0);

    /* Id 4 names another gateway now: 10.4 leaves group 9 (its row loses
     * the group's id) with the paths it had. */
    nh_add(fx, 4, "192.168.7.7", 0, 0);
    CHECK_TAKE(fx, "SET default 10.4.0.0/24 forward 192.168.1.2@eth2*1 "
               "192.168.1.3@eth2*3\n");
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->routes_detached, 1);
    nh_add(fx, 9, NULL, 3, 4);
    CHECK_TAKE(fx, "none");

    /* zebra announces it again, through its group 9. */
    route_add(fx, "10.4.0.0/24", 254, 9, NULL);
    CHECK_TAKE(fx, "SET default 10.4.0.0/24 forward 192.168.1.2@eth2*1 "
               "192.168.7.7@eth2*3\n");
}
END_TEST

/* The same for an old session's blackhole: its routes keep dropping, as
 * blackholes of their own, not forwarding via the new definition. */
START_TEST(test_zmq_nhg_ids_reused_blackhole)
{
    struct fixture *fx = &fx_;
    struct fpm_nexthop nh;

    fpm_nexthop_init(&nh);
    nh.op = FPM_OP_ADD;
    nh.id = 5;
    nh.blackhole = true;
    fpmd_nh_input(fx->rib, &nh);
    fpm_nexthop_destroy(&nh);
    route_add(fx, "10.9.0.0/16", 254, 5, NULL);
    CHECK_TAKE(fx, "SET default 10.9.0.0/16 drop\n");

    fpmd_rib_new_generation(fx->rib);
    nh_add(fx, 5, "192.168.1.9", 0, 0);
    CHECK_TAKE(fx, "SET default 10.9.0.0/16 drop\n");
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->routes_detached, 1);
}
END_TEST

/* Two tables never share a VRF name (their routes would share row
 * UUIDs): a table whose "tableN" a Vrf row gave to another table gets
 * "tableN-2"; a Vrf row that moves its name to another table waits for a
 * restart. */
START_TEST(test_zmq_vrf_names_unique)
{
    struct fixture *fx = &fx_;

    fpmd_vrf_row(fx->rib, "table10", 20);
    fpmd_vrf_row(fx->rib, "red", 30);
    route_add(fx, "10.1.0.0/24", 10, 0, "192.168.1.2");
    route_add(fx, "10.1.0.0/24", 20, 0, "192.168.1.2");
    route_add(fx, "10.1.0.0/24", 30, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET table10-2 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET table10 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET red 10.1.0.0/24 forward 192.168.1.2@eth2*1\n");

    fpmd_vrf_row(fx->rib, "red", 40);
    route_add(fx, "10.2.0.0/24", 40, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET table40 10.2.0.0/24 forward 192.168.1.2@eth2*1\n");
}
END_TEST

/* A withdrawn route is deleted at orchd if orchd has it, not at all if it
 * never was sent, and freed only once it left both queues. */
START_TEST(test_zmq_withdraw)
{
    struct fixture *fx = &fx_;

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n");
    route_del(fx, "10.1.0.0/24");
    fpmd_rib_release_del(fx->rib);      /* No add follows. */

    /* Its row never reached the database, so the write cancels; the
     * route stays until its deletion is sent. */
    db_commit_all(fx);
    ck_assert_uint_eq(fpmd_rib_n_routes(fx->rib), 1);
    CHECK_TAKE(fx, "DEL default 10.1.0.0/24\n");
    ck_assert_uint_eq(fpmd_rib_n_routes(fx->rib), 0);

    /* Added and withdrawn before it was sent: nothing goes to orchd. */
    route_add(fx, "10.3.0.0/24", 254, 0, "192.168.1.2");
    route_del(fx, "10.3.0.0/24");
    CHECK_TAKE(fx, "none");
    db_commit_all(fx);
    ck_assert_uint_eq(fpmd_rib_n_routes(fx->rib), 0);

    /* Withdrawn, then added again before the deletion went out: one SET. */
    route_add(fx, "10.4.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.4.0.0/24 forward 192.168.1.2@eth2*1\n");
    route_del(fx, "10.4.0.0/24");
    route_add(fx, "10.4.0.0/24", 254, 0, "192.168.1.5");
    CHECK_TAKE(fx, "SET default 10.4.0.0/24 forward 192.168.1.5@eth2*1\n");
}
END_TEST

/* A delete that may be half of a path change waits in the queue, the
 * routes before it going out; its add makes the two one SET; another
 * route's message sends it as a DEL. */
START_TEST(test_zmq_deferred_delete)
{
    struct fixture *fx = &fx_;

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET default 10.2.0.0/24 forward 192.168.1.2@eth2*1\n");

    route_add(fx, "10.3.0.0/24", 254, 0, "192.168.1.2");
    route_del(fx, "10.1.0.0/24");
    CHECK_TAKE(fx, "SET default 10.3.0.0/24 forward 192.168.1.2@eth2*1\n");
    CHECK_TAKE(fx, "none");
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.3@eth2*1\n");

    route_del(fx, "10.2.0.0/24");
    CHECK_TAKE(fx, "none");
    route_add(fx, "10.4.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "DEL default 10.2.0.0/24\n"
               "SET default 10.4.0.0/24 forward 192.168.1.2@eth2*1\n");
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->del_merged, 1);
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->del_alone, 1);
}
END_TEST

/* orchd restarted: everything again, then SYNC_END, which waits for the
 * held routes. */
START_TEST(test_zmq_resync)
{
    struct fixture *fx = &fx_;

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.2.0.0/24", 254, 0, NULL);
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET default 10.2.0.0/24 drop\n");
    route_add(fx, "10.7.0.0/16", 254, 7, NULL);
    fpmd_zmq_resync(fx->zmq);
    CHECK_TAKE_SORTED(fx,
                      "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
                      "SET default 10.2.0.0/24 drop\n");
    nh_add(fx, 7, "192.168.1.7", 0, 0);
    CHECK_TAKE(fx, "SET default 10.7.0.0/16 forward 192.168.1.7@eth2*1\n"
               "SYNC_END\n");
    CHECK_TAKE(fx, "none");

    /* Nothing held: the end comes in the same frame, or alone.  A route
     * sent before and withdrawn during the resync is still deleted: with
     * several ASIC instances the resync also goes to the orchds that did
     * not restart, which hold it and do not sweep at SYNC_END. */
    fpmd_zmq_resync(fx->zmq);
    route_del(fx, "10.2.0.0/24");
    fpmd_rib_release_del(fx->rib);      /* No add follows. */
    CHECK_TAKE_SORTED(fx,
                      "DEL default 10.2.0.0/24\n"
                      "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
                      "SET default 10.7.0.0/16 forward 192.168.1.7@eth2*1\n"
                      "SYNC_END\n");
    CHECK_TAKE(fx, "none");
}
END_TEST

/* Loads Route rows for 'prefix1' and 'prefix2', each via
 * 192.168.1.2@eth2, into the rib, as fpmsyncd reads them at start. */
static void
load_routes(struct fixture *fx, const char *prefix1, const char *prefix2)
{
    const char *prefixes[] = { prefix1, prefix2 };

    fpmd_rib_load_begin(fx->rib);
    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        char *s = xasprintf(
            "{\"_uuid\":[\"uuid\",\"00000000-0000-0000-0000-00000000000%"
            PRIuSIZE"\"],\"vrf\":\"default\",\"prefix\":\"%s\","
            "\"protocol\":\"bgp\",\"metric\":[\"set\",[]],"
            "\"nexthop_group\":[\"set\",[]],\"nexthops\":[\"map\","
            "[[\"192.168.1.2@eth2\",1]]],\"blackhole\":false}",
            i + 1, prefixes[i]);
        struct json *row = json_from_string(s);

        fpmd_rib_load_row(fx->rib, FPMD_LOAD_ROUTE, row);
        json_destroy(row);
        free(s);
    }
    fpmd_rib_load_end(fx->rib);
}

/* fpmsyncd restarted: orchd may hold routes that zebra has not replayed
 * yet.  The resync ends only once the database is read and every route
 * read from it is replayed or reconciled away. */
START_TEST(test_zmq_resync_after_restart)
{
    size_t n_routes, n_nhgs;
    struct fixture *fx = &fx_;

    teardown();
    fixture_init(fx, 100000, false);
    fpmd_zmq_resync(fx->zmq);            /* orchd answers first. */
    CHECK_TAKE(fx, "none");

    load_routes(fx, "10.1.0.0/24", "10.2.0.0/24");
    ck_assert_uint_eq(fpmd_rib_n_routes(fx->rib), 2);
    CHECK_TAKE(fx, "none");

    /* zebra replays one, unchanged: orchd hears of it (it is new to this
     * fpmsyncd), but the other may still come. */
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n");

    /* Reconciliation removes the other, which orchd never heard of from
     * this fpmsyncd: the end of the resync removes it there. */
    fpmd_rib_reconcile(fx->rib, &n_routes, &n_nhgs);
    ck_assert_uint_eq(n_routes, 1);
    CHECK_TAKE(fx, "SYNC_END\n");
}
END_TEST

/* Builds a RESULTS frame with one entry for 'prefix' of the VRF named by
 * the 'vrf_len' bytes at 'vrf', echoing 'token', and hands it to the fast
 * path. */
static void
result_token_in_vrf(struct fixture *fx, const char *vrf, size_t vrf_len,
                    const char *prefix, uint8_t status, uint8_t token)
{
    struct route_frame_route rr;
    struct fpm_prefix p = fpm_test_prefix(prefix);
    struct ofpbuf b;

    memset(&rr, 0, sizeof rr);
    rr.seq = token;
    rr.op = ROUTE_FRAME_SET;
    rr.vrf = vrf;
    rr.vrf_len = vrf_len;
    rr.status = status;
    rr.error = status ? "SAI_STATUS_FAILURE" : NULL;
    rr.error_len = status ? strlen(rr.error) : 0;
    fib_prefix_init(&rr.prefix, p.family, p.addr, p.len);
    ofpbuf_init(&b, 0);
    route_frame_start(&b, ROUTE_FRAME_RESULTS, 1, 1);
    route_frame_put_result(&b, &rr);
    fpmd_zmq_results(fx->zmq, b.data, b.size);
    ofpbuf_uninit(&b);
}

/* Returns the token of the last SET sent of 'prefix' in the default VRF,
 * 0 if fpmsyncd has no such route. */
static uint8_t
last_token(struct fixture *fx, const char *prefix)
{
    struct fpm_prefix p = fpm_test_prefix(prefix);
    struct fib_prefix fp;
    const struct fpmd_route *r;

    fib_prefix_init(&fp, p.family, p.addr, p.len);
    r = fpmd_route_find(fx->rib, 0, &fp);
    return r ? r->be.aux : 0;
}

/* result_token_in_vrf() as orchd answers the last SET of 'prefix' in the
 * default VRF. */
static void
result_in_vrf(struct fixture *fx, const char *vrf, size_t vrf_len,
              const char *prefix, uint8_t status)
{
    result_token_in_vrf(fx, vrf, vrf_len, prefix, status,
                        last_token(fx, prefix));
}

/* result_in_vrf() for the default VRF. */
static void
result(struct fixture *fx, const char *prefix, uint8_t status)
{
    result_in_vrf(fx, "default", 7, prefix, status);
}

/* With FIB suppression, a route that orchd programmed is offloaded; a
 * result for a route that changed since, or a failure, is not. */
START_TEST(test_zmq_results)
{
    struct fixture *fx = &fx_;

    fpmd_offload_enable(fx->rib, true);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET default 10.2.0.0/24 forward 192.168.1.2@eth2*1\n");
    result(fx, "10.1.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 1);

    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.3");
    result(fx, "10.2.0.0/24", 0);      /* For the old content. */
    ck_assert_uint_eq(fx->n_offloads, 1);
    CHECK_TAKE(fx, "SET default 10.2.0.0/24 forward 192.168.1.3@eth2*1\n");
    /* The old content's result, after the new content was sent: it
     * echoes the older SET's token. */
    result_token_in_vrf(fx, "default", 7, "10.2.0.0/24", 0,
                        last_token(fx, "10.2.0.0/24") - 1);
    ck_assert_uint_eq(fx->n_offloads, 1);
    result(fx, "10.2.0.0/24", 1);
    result(fx, "10.9.0.0/24", 0);      /* Unknown. */
    /* No VRF's name: cut at its null byte it would be "default". */
    result_in_vrf(fx, "default\0x", 9, "10.2.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 1);
    result(fx, "10.2.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 2);

    /* zebra replays it unchanged: offloaded again at once. */
    db_commit_all(fx);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 3);
    CHECK_TAKE(fx, "none");

    /* A failure of older content says nothing of the route's: it stays
     * offloaded, and zebra's replay is answered at once. */
    result_token_in_vrf(fx, "default", 7, "10.2.0.0/24", 1,
                        last_token(fx, "10.2.0.0/24") - 1);
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.3");
    ck_assert_uint_eq(fx->n_offloads, 4);
    CHECK_TAKE(fx, "none");

    /* On this path only each route's flag says it is offloaded: no
     * record by row UUID, as the Route.status monitor keeps. */
    ck_assert(!fpmd_offload_n_records(fx->rib));
    ck_assert_uint_eq(fpmd_offload_n_unrecorded(fx->rib), 2);
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.4");  /* Changed. */
    ck_assert_uint_eq(fpmd_offload_n_unrecorded(fx->rib), 1);

    /* FIB suppression off: no route is offloaded any more, so once it is
     * on again, zebra's unchanged replay is not answered "offloaded"
     * until orchd says so. */
    fpmd_offload_enable(fx->rib, false);
    ck_assert_uint_eq(fpmd_offload_n_unrecorded(fx->rib), 0);
    fpmd_offload_enable(fx->rib, true);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 4);
    result(fx, "10.1.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 5);
}
END_TEST

/* With FIB suppression, zebra waits for an offload notification of each
 * announcement: a route still programmed as it was is confirmed at once
 * (orchd sends no result for a write that changes nothing), one whose
 * next hops changed waits for orchd's result. */
START_TEST(test_zmq_results_unchanged)
{
    struct fixture *fx = &fx_;

    fpmd_offload_enable(fx->rib, true);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n");
    db_commit_all(fx);
    result(fx, "10.1.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 1);

    /* A path change that is a delete and an add of the same content,
     * merged: confirmed at once. */
    route_del(fx, "10.1.0.0/24");
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 2);
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->del_merged, 1);

    /* A new metric: the row changes, what orchd programs does not. */
    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.2", 30);
    ck_assert_uint_eq(fx->n_offloads, 3);

    /* New next hops: orchd's result first. */
    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.3", 30);
    ck_assert_uint_eq(fx->n_offloads, 3);
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.3@eth2*1\n");
    result(fx, "10.1.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 4);

    /* A delete that is not followed by its add: no longer offloaded, so
     * a later add waits for a result. */
    route_del(fx, "10.1.0.0/24");
    fpmd_rib_release_del(fx->rib);
    CHECK_TAKE(fx, "DEL default 10.1.0.0/24\n");
    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.3", 30);
    ck_assert_uint_eq(fx->n_offloads, 4);
}
END_TEST

/* Starts fixture 'fx', made with a rib alone (the OVSDB path: no
 * northbound channel), with FIB suppression on and its database read. */
static void
ovsdb_path_start(struct fixture *fx)
{
    fpmd_offload_set_cb(fx->rib, offload_cb, fx);
    fpmd_offload_enable(fx->rib, true);
    fpmd_rib_load_begin(fx->rib);
    fpmd_rib_load_end(fx->rib);
    fpmd_rib_new_generation(fx->rib);
}

/* With FIB suppression, a route changed (B) and changed back (A) while
 * the change had not left fpmsyncd: orchd, which never saw B, holds A
 * and would answer nothing for it, so fpmsyncd asks it to
 * (ROUTE_FRAME_EF_ANSWER), as it does for every route it sends that is
 * not offloaded.  Found by review: zebra waited for ever. */
START_TEST(test_zmq_changed_back_unsent)
{
    struct fixture *fx = &fx_;

    fpmd_offload_enable(fx->rib, true);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE_ANSWERS(fx, "SET default 10.1.0.0/24 forward "
                       "192.168.1.2@eth2*1 answer\n");
    db_commit_all(fx);
    result(fx, "10.1.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 1);

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 1);
    CHECK_TAKE_ANSWERS(fx, "SET default 10.1.0.0/24 forward "
                       "192.168.1.2@eth2*1 answer\n");
    result(fx, "10.1.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 2);

    /* Offloaded, a new metric only: sent (the row changes) without
     * asking, and answered at once. */
    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.2", 30);
    ck_assert_uint_eq(fx->n_offloads, 3);
    CHECK_TAKE_ANSWERS(fx, "SET default 10.1.0.0/24 forward "
                       "192.168.1.2@eth2*1\n");

    /* A sent, B queued before A's result, which comes while B waits (for
     * content that changed since, so no answer for B); then back to A:
     * sent again, asking, and answered. */
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE_ANSWERS(fx, "SET default 10.2.0.0/24 forward "
                       "192.168.1.2@eth2*1 answer\n");
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.3");
    result(fx, "10.2.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 3);
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE_ANSWERS(fx, "SET default 10.2.0.0/24 forward "
                       "192.168.1.2@eth2*1 answer\n");
    result(fx, "10.2.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 4);

    /* FIB suppression off: nothing asks. */
    fpmd_offload_enable(fx->rib, false);
    route_add(fx, "10.3.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE_ANSWERS(fx, "SET default 10.3.0.0/24 forward "
                       "192.168.1.2@eth2*1\n");
}
END_TEST

/* The OVSDB path, where orchd answers by writing status:offload, which
 * the Route.status monitor reports: a change back before the change's
 * transaction is taken finds the row holding the content it announces
 * and saying offload=true, which answers; the row's status is not
 * deleted. */
START_TEST(test_changed_back_unwritten)
{
    struct fixture ovsdb = { .rib = rib_create() };
    struct fixture *fx = &ovsdb;
    struct ds sent = DS_EMPTY_INITIALIZER;
    const struct fpm_prefix p = fpm_test_prefix("10.1.0.0/24");
    struct fib_prefix prefix;
    struct uuid u;

    fib_prefix_init(&prefix, p.family, p.addr, p.len);
    route_key_route_uuid("default", &prefix, &u);
    ovsdb_path_start(fx);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    db_commit_all(fx);
    fpmd_offload_status_set(fx->rib, &u, "default", "10.1.0.0/24");
    ck_assert_uint_eq(fx->n_offloads, 1);

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    ck_assert_uint_eq(fx->n_offloads, 1);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 2);
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->offload_changed_back, 1);
    db_commit_all__(fx, 1, &sent);
    ck_assert_str_eq(ds_cstr(&sent), "");

    /* Changed back with a new metric only (A'): still what orchd holds,
     * so the row answers, and A''s update does not delete its offload
     * (orchd, which programs nothing new, would not write it again). */
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.2", 30);
    ck_assert_uint_eq(fx->n_offloads, 3);
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->offload_changed_back, 2);
    ds_clear(&sent);
    db_commit_all__(fx, 1, &sent);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&sent), "\"metric\":30"));
    ck_assert_ptr_null(strstr(ds_cstr(&sent), "status"));
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 4);
    db_commit_all(fx);

    /* Written, then changed back: the change back waits for orchd. */
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    db_commit_all(fx);
    fpmd_offload_status_cleared(fx->rib, &u);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 4);
    ds_clear(&sent);
    db_commit_all__(fx, 1, &sent);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&sent), "[\"status\",\"delete\""));
    fpmd_offload_status_set(fx->rib, &u, "default", "10.1.0.0/24");
    ck_assert_uint_eq(fx->n_offloads, 5);

    /* While B waits, what orchd writes into the row for A (its status
     * touched) is no answer for B; once orchd writes that A failed
     * (offload gone), a change back to A is not answered by the row. */
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    fpmd_offload_status_touched(fx->rib, &u);
    ck_assert_uint_eq(fx->n_offloads, 5);
    fpmd_offload_status_cleared(fx->rib, &u);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 5);
    fpmd_offload_status_set(fx->rib, &u, "default", "10.1.0.0/24");
    ck_assert_uint_eq(fx->n_offloads, 6);

    /* B taken and lost with the connection: what the row holds is
     * unknown, so A waits. */
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    db_lose_one(fx, NULL);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 6);
    db_commit_all(fx);

    /* Withdrawn, its row deleted, announced again: orchd removed it, so
     * the new row waits for orchd. */
    fpmd_offload_status_set(fx->rib, &u, "default", "10.1.0.0/24");
    ck_assert_uint_eq(fx->n_offloads, 7);
    route_del(fx, "10.1.0.0/24");
    fpmd_rib_release_del(fx->rib);
    db_commit_all(fx);
    fpmd_offload_status_cleared(fx->rib, &u);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert_uint_eq(fx->n_offloads, 7);
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->offload_changed_back, 2);

    /* A route freed while its row's record stays (its content changed
     * since it was offloaded) takes the record with it. */
    db_commit_all(fx);
    fpmd_offload_status_set(fx->rib, &u, "default", "10.1.0.0/24");
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    route_del(fx, "10.1.0.0/24");
    fpmd_rib_release_del(fx->rib);
    db_commit_all(fx);
    ck_assert(!fpmd_offload_n_records(fx->rib));
    ds_destroy(&sent);
    fpmd_rib_destroy(fx->rib);
}
END_TEST

/* The same through a zebra next-hop group whose members the rows do not
 * carry (Global other_config:resolve_nexthops=false): a change of the
 * group's members leaves the row as it is; the route changed to another
 * next hop and back to the group before the change is written is
 * answered by the row. */
START_TEST(test_changed_back_group)
{
    struct fixture ovsdb = { .rib = rib_create() };
    struct fixture *fx = &ovsdb;
    const struct fpm_prefix p = fpm_test_prefix("10.1.0.0/24");
    struct fib_prefix prefix;
    struct uuid u;

    fib_prefix_init(&prefix, p.family, p.addr, p.len);
    route_key_route_uuid("default", &prefix, &u);
    fpmd_rib_set_resolve(fx->rib, false);
    ovsdb_path_start(fx);
    nh_add(fx, 1, "192.168.1.2", 0, 0);
    nh_add(fx, 2, "192.168.1.3", 0, 0);
    nh_add(fx, 3, "192.168.1.4", 0, 0);
    nh_add(fx, 10, NULL, 1, 2);
    route_add(fx, "10.1.0.0/24", 254, 10, NULL);
    db_commit_all(fx);
    fpmd_offload_status_set(fx->rib, &u, "default", "10.1.0.0/24");
    ck_assert_uint_eq(fx->n_offloads, 1);

    nh_add(fx, 10, NULL, 1, 3);
    db_commit_all(fx);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.9");
    route_add(fx, "10.1.0.0/24", 254, 10, NULL);
    ck_assert_uint_eq(fx->n_offloads, 3);
    ck_assert_uint_eq(fpmd_rib_get_stats(fx->rib)->offload_changed_back, 1);
    fpmd_rib_destroy(fx->rib);
}
END_TEST

/* Route.status. */

/* Returns the prefix 10.N.0.0/24 of the default VRF whose Route row is
 * 'u', or "?" (the statuses in these tests are for such prefixes). */
static const char *
prefix_of_row(const struct uuid *u)
{
    static char buf[FIB_PREFIX_STRLEN];

    for (int n = 1; n < 10; n++) {
        struct fpm_prefix p;
        struct fib_prefix prefix;
        struct uuid v;

        snprintf(buf, sizeof buf, "10.%d.0.0/24", n);
        p = fpm_test_prefix(buf);
        fib_prefix_init(&prefix, p.family, p.addr, p.len);
        route_key_route_uuid("default", &prefix, &v);
        if (uuid_equals(u, &v)) {
            return buf;
        }
    }
    return "?";
}

/* Appends to 's' what status map 'map' (a "map" in JSON) says, after
 * checking that it says exactly one thing: "offload\n" for offload=true,
 * "error=TEXT\n" for error=TEXT.  Returns true for an offload. */
static bool
put_status_text(struct ds *s, const struct json *map)
{
    static const char error[] = "[\"map\",[[\"error\",";
    char *text = json_to_string(map, 0);
    bool offload = !strcmp(text, "[\"map\",[[\"offload\",\"true\"]]]");

    if (offload) {
        ds_put_cstr(s, "offload\n");
    } else {
        const struct json *pair;

        ck_assert_msg(!strncmp(text, error, strlen(error))
                      && json_array(json_array(map)->elems[1])->n == 1,
                      "%s", text);
        pair = json_array(json_array(map)->elems[1])->elems[0];
        ds_put_format(s, "error=%s\n",
                      json_string(json_array(pair)->elems[1]));
    }
    free(text);
    return offload;
}

/* Takes the next transaction of Route.status mutates and returns it as
 * text, a line per mutate: "PREFIX offload" or "PREFIX error=TEXT" (after
 * checking that each mutate is exactly what that means), or "none".  If
 * 'n_ops' is nonnull, stores the number of mutates in it. */
static char *
status_take(struct fixture *fx, size_t *n_ops)
{
    static const char delete_error[] =
        "[\"status\",\"delete\",[\"set\",[\"error\"]]]";
    static const char delete_both[] =
        "[\"status\",\"delete\",[\"set\",[\"error\",\"offload\"]]]";
    struct ds ops = DS_EMPTY_INITIALIZER;
    struct ds s = DS_EMPTY_INITIALIZER;
    struct json *txn;
    size_t n;

    ds_put_cstr(&ops, "[\"Fibsync\"");
    n = fpmd_status_build(fx->rib, 1000, &ops);
    if (n_ops) {
        *n_ops = n;
    }
    if (!n) {
        ds_destroy(&ops);
        return xstrdup("none");
    }
    ds_put_char(&ops, ']');
    txn = json_from_string(ds_cstr(&ops));
    ck_assert_msg(txn->type == JSON_ARRAY, "%s", ds_cstr(&ops));
    ck_assert_uint_eq(json_array(txn)->n, n + 1);
    for (size_t i = 1; i <= n; i++) {
        const struct json *op = json_array(txn)->elems[i];
        const struct json *where = shash_find_data(json_object(op), "where");
        const struct json *m = shash_find_data(json_object(op),
                                               "mutations");
        const struct json *ins;
        bool offload;
        char *delete;
        const struct json *u = json_array(json_array(where)->elems[0])
                               ->elems[2];
        struct uuid uuid;

        ck_assert_str_eq(json_string(shash_find_data(json_object(op),
                                                     "op")), "mutate");
        ck_assert_str_eq(json_string(shash_find_data(json_object(op),
                                                     "table")), "Route");
        ck_assert(uuid_from_string(&uuid,
                                   json_string(json_array(u)->elems[1])));
        ds_put_format(&s, "%s ", prefix_of_row(&uuid));
        /* [[delete the keys], ["status", "insert", MAP]]: an offload
         * deletes "error", an error both keys. */
        ck_assert_uint_eq(json_array(m)->n, 2);
        ins = json_array(m)->elems[1];
        ck_assert_uint_eq(json_array(ins)->n, 3);
        ck_assert_str_eq(json_string(json_array(ins)->elems[0]), "status");
        ck_assert_str_eq(json_string(json_array(ins)->elems[1]), "insert");
        offload = put_status_text(&s, json_array(ins)->elems[2]);
        delete = json_to_string(json_array(m)->elems[0], 0);
        ck_assert_str_eq(delete, offload ? delete_error : delete_both);
        free(delete);
    }
    json_destroy(txn);
    ds_destroy(&ops);
    return ds_steal_cstr(&s);
}

/* Checks that the next transaction of status mutates is 'EXPECTED' (see
 * status_take()). */
#define CHECK_STATUS(FX, EXPECTED)                                      \
    do {                                                                \
        char *text_ = status_take(FX, NULL);                            \
        ck_assert_str_eq(text_, EXPECTED);                              \
        free(text_);                                                    \
    } while (0)

/* Completes the oldest status transaction, of 'n' mutates, as 'result'
 * says: each mutate found a row if it committed. */
static void
status_reply(struct fixture *fx, size_t n, enum ovsdb_writer_result result)
{
    struct json *results = json_array_create_empty();
    struct ds errors = DS_EMPTY_INITIALIZER;

    for (size_t i = 0; i < n; i++) {
        struct json *r = json_object_create();

        json_object_put(r, "count", json_integer_create(1));
        json_array_add(results, r);
    }

    struct ovsdb_writer_reply reply = {
        .result = result,
        .results = result == OVSDB_WRITER_SUCCESS ? results : NULL,
        .error = result == OVSDB_WRITER_SUCCESS ? NULL : "lost",
        .failed_op = SIZE_MAX,
        .n_ops = n,
    };
    ck_assert(fpmd_status_reply(fx->rib, &reply, &errors)
              == (result == OVSDB_WRITER_SUCCESS));
    ds_destroy(&errors);
    json_destroy(results);
}

/* Takes the next status transaction, checks it is 'EXPECTED', and
 * completes it as committed. */
#define CHECK_STATUS_COMMIT(FX, EXPECTED)                               \
    do {                                                                \
        size_t n_;                                                      \
        char *text_ = status_take(FX, &n_);                             \
        ck_assert_str_eq(text_, EXPECTED);                              \
        free(text_);                                                    \
        status_reply(FX, n_, OVSDB_WRITER_SUCCESS);                     \
    } while (0)

/* Returns true if zmq/show's status line of 'fx' contains 'text'. */
static bool
status_shows(struct fixture *fx, const char *text)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    bool found;

    fpmd_status_format(fx->rib, &s);
    found = strstr(ds_cstr(&s), text) != NULL;
    if (!found) {
        fprintf(stderr, "%s", ds_cstr(&s));
    }
    ds_destroy(&s);
    return found;
}

/* Writes every row the rib queued, as db_commit_all() does, or, if
 * 'result' is OVSDB_WRITER_LOST, after losing the first transaction with
 * the connection before it reached the database (db_lose_one(), then
 * updates that find no row), and returns the statuses that the Route
 * inserts sent carry, a line per insert that has one: "PREFIX offload"
 * (status offload=true and nothing else) or "PREFIX error=TEXT", or
 * "none". */
static char *
db_commit_statuses(struct fixture *fx, enum ovsdb_writer_result result)
{
    struct ds sent = DS_EMPTY_INITIALIZER;
    struct ds s = DS_EMPTY_INITIALIZER;
    struct json *ops;

    ds_put_char(&sent, '[');
    ds_put_cstr(&sent, "\"Fibsync\"");
    if (result == OVSDB_WRITER_LOST) {
        db_lose_one(fx, &sent);
        db_commit_all__(fx, 0, &sent);
    } else {
        db_commit_all__(fx, 1, &sent);
    }
    ds_put_char(&sent, ']');
    ops = json_from_string(ds_cstr(&sent));
    ck_assert_msg(ops->type == JSON_ARRAY, "%s", ds_cstr(&sent));
    for (size_t i = 1; i < json_array(ops)->n; i++) {
        const struct shash *op = json_object(json_array(ops)->elems[i]);
        const struct json *row = shash_find_data(op, "row");
        const struct json *status;

        if (strcmp(json_string(shash_find_data(op, "op")), "insert")
            || strcmp(json_string(shash_find_data(op, "table")), "Route")
            || !(status = shash_find_data(json_object(row), "status"))) {
            continue;
        }
        ds_put_format(&s, "%s ", json_string(shash_find_data(
                                     json_object(row), "prefix")));
        put_status_text(&s, status);
    }
    json_destroy(ops);
    ds_destroy(&sent);
    if (!s.length) {
        ds_put_cstr(&s, "none");
    }
    return ds_steal_cstr(&s);
}

/* Checks that the statuses that the Route inserts of every row written now
 * carry are 'EXPECTED' (see db_commit_statuses()). */
#define CHECK_INSERT_STATUSES(FX, RESULT, EXPECTED)                     \
    do {                                                                \
        char *text_ = db_commit_statuses(FX, RESULT);                   \
        ck_assert_str_eq(text_, EXPECTED);                              \
        free(text_);                                                    \
    } while (0)

/* Each result is written into its route's status once the row is
 * written, and only when it changes what the row says. */
START_TEST(test_zmq_status)
{
    struct fixture *fx = &fx_;

    fpmd_offload_enable(fx->rib, true);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET default 10.2.0.0/24 forward 192.168.1.2@eth2*1\n");

    /* orchd answers before the rows are written: the status waits for
     * its row's insert, and goes into it, not into a mutate. */
    result(fx, "10.1.0.0/24", 0);
    ck_assert_uint_eq(fx->n_offloads, 1);
    CHECK_STATUS(fx, "none");
    ck_assert(status_shows(fx, "0 written, 1 waiting (1 for their row)"));
    CHECK_INSERT_STATUSES(fx, OVSDB_WRITER_SUCCESS, "10.1.0.0/24 offload\n");
    CHECK_STATUS(fx, "none");
    ck_assert(status_shows(fx, "1 written, 0 waiting (0 for their row), "
                           "0 in flight"));
    ck_assert(status_shows(fx, "1 with their row's insert"));

    /* The same again: nothing to write. */
    result(fx, "10.1.0.0/24", 0);
    CHECK_STATUS(fx, "none");
    ck_assert(status_shows(fx, "1 results unchanged"));

    /* A failure replaces the offload; results that come while it waits
     * coalesce, the last wins. */
    result(fx, "10.2.0.0/24", 0);
    result(fx, "10.2.0.0/24", 1);
    result(fx, "10.1.0.0/24", 1);
    CHECK_STATUS_COMMIT(fx, "10.2.0.0/24 error=SAI_STATUS_FAILURE\n"
                        "10.1.0.0/24 error=SAI_STATUS_FAILURE\n");
    result(fx, "10.1.0.0/24", 1);
    CHECK_STATUS(fx, "none");
    result(fx, "10.1.0.0/24", 0);
    CHECK_STATUS_COMMIT(fx, "10.1.0.0/24 offload\n");

    /* A result about content that changed since is not written. */
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.3");
    result(fx, "10.1.0.0/24", 1);
    CHECK_STATUS(fx, "none");
    ck_assert(status_shows(fx, "4 written"));
}
END_TEST

/* A status that rides in its row's insert: an error as well as an
 * offload, a result that comes after the insert is taken is a mutate, and
 * an insert lost with the connection carries the status again when it is
 * sent again, counted once. */
START_TEST(test_zmq_status_in_insert)
{
    struct fixture *fx = &fx_;

    fpmd_offload_enable(fx->rib, true);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.3.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET default 10.2.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET default 10.3.0.0/24 forward 192.168.1.2@eth2*1\n");
    result(fx, "10.1.0.0/24", 0);
    result(fx, "10.2.0.0/24", 1);

    /* The first inserts are lost; the rows are sent again as updates,
     * which find no row, then as inserts, with their statuses again. */
    CHECK_INSERT_STATUSES(fx, OVSDB_WRITER_LOST,
                          "10.1.0.0/24 offload\n"
                          "10.2.0.0/24 error=SAI_STATUS_FAILURE\n"
                          "10.1.0.0/24 offload\n"
                          "10.2.0.0/24 error=SAI_STATUS_FAILURE\n");
    CHECK_STATUS(fx, "none");
    ck_assert(status_shows(fx, "2 written, 0 waiting (0 for their row)"));

    /* The third route's result comes after its row: a mutate. */
    result(fx, "10.3.0.0/24", 0);
    CHECK_STATUS_COMMIT(fx, "10.3.0.0/24 offload\n");
    ck_assert(status_shows(fx, "3 written"));
    ck_assert(status_shows(fx, "1 transactions, 0 results unchanged, "
                           "0 requeued, 0 found no row, "
                           "2 with their row's insert"));

    /* An insert with its status lost, and its retry, an update (what the
     * database holds is unknown), finds a row (an older one, or the lost
     * transaction had committed after all): the status is written again
     * by a mutate. */
    route_add(fx, "10.4.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.4.0.0/24 forward 192.168.1.2@eth2*1\n");
    result(fx, "10.4.0.0/24", 0);
    db_lose_one(fx, NULL);
    db_commit_all(fx);
    CHECK_STATUS_COMMIT(fx, "10.4.0.0/24 offload\n");
    CHECK_STATUS(fx, "none");

    /* Withdrawn and announced again: the new row waits for a new
     * result, and has none in its insert. */
    route_del(fx, "10.1.0.0/24");
    fpmd_rib_release_del(fx->rib);
    CHECK_TAKE(fx, "DEL default 10.1.0.0/24\n");
    CHECK_INSERT_STATUSES(fx, OVSDB_WRITER_SUCCESS, "none");
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n");
    CHECK_INSERT_STATUSES(fx, OVSDB_WRITER_SUCCESS, "none");
    result(fx, "10.1.0.0/24", 0);
    CHECK_STATUS_COMMIT(fx, "10.1.0.0/24 offload\n");
}
END_TEST

/* A transaction lost with the connection is written again; a withdrawn
 * route's status is not written (its row goes), nor when it comes back
 * before a new result. */
START_TEST(test_zmq_status_lost_withdrawn)
{
    struct fixture *fx = &fx_;
    size_t n;
    char *text;

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    CHECK_TAKE(fx, "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
               "SET default 10.2.0.0/24 forward 192.168.1.2@eth2*1\n");
    db_commit_all(fx);
    result(fx, "10.1.0.0/24", 0);
    text = status_take(fx, &n);
    ck_assert_str_eq(text, "10.1.0.0/24 offload\n");
    free(text);
    status_reply(fx, n, OVSDB_WRITER_LOST);
    ck_assert(status_shows(fx, "1 requeued"));
    CHECK_STATUS_COMMIT(fx, "10.1.0.0/24 offload\n");

    /* Withdrawn while its status waits: nothing to write, and the route is
     * freed once it left every queue. */
    result(fx, "10.2.0.0/24", 1);
    route_del(fx, "10.2.0.0/24");
    CHECK_STATUS(fx, "none");
    fpmd_rib_release_del(fx->rib);      /* No add follows. */
    CHECK_TAKE(fx, "DEL default 10.2.0.0/24\n");
    db_commit_all(fx);
    ck_assert_uint_eq(fpmd_rib_n_routes(fx->rib), 1);

    /* Back, with a new row: no status until orchd answers again. */
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    db_commit_all(fx);
    CHECK_STATUS(fx, "none");
    CHECK_TAKE(fx, "SET default 10.2.0.0/24 forward 192.168.1.2@eth2*1\n");
    result(fx, "10.2.0.0/24", 0);
    CHECK_STATUS_COMMIT(fx, "10.2.0.0/24 offload\n");
    ck_assert(status_shows(fx, "2 written"));
}
END_TEST

/* Loads the Route row of 'prefix' via 192.168.1.2@eth2 with status
 * 'status' (JSON), as fpmsyncd reads it at start. */
static void
load_route_status(struct fixture *fx, const char *prefix, const char *status)
{
    struct fpm_prefix p = fpm_test_prefix(prefix);
    struct fib_prefix fp;
    struct uuid u;

    fib_prefix_init(&fp, p.family, p.addr, p.len);
    route_key_route_uuid("default", &fp, &u);

    char *s = xasprintf(
        "{\"_uuid\":[\"uuid\",\""UUID_FMT"\"],"
        "\"vrf\":\"default\",\"prefix\":\"%s\",\"protocol\":\"bgp\","
        "\"metric\":[\"set\",[]],\"nexthop_group\":[\"set\",[]],"
        "\"nexthops\":[\"map\",[[\"192.168.1.2@eth2\",1]]],"
        "\"blackhole\":false,\"status\":%s}", UUID_ARGS(&u), prefix,
        status);
    struct json *row = json_from_string(s);

    fpmd_rib_load_row(fx->rib, FPMD_LOAD_ROUTE, row);
    json_destroy(row);
    free(s);
}

/* On the OVSDB path with FIB suppression, a transaction lost with the
 * connection: its retry deletes status:offload again only for the updates
 * that did (a changed route), not for one that only changed the metric,
 * whose offload orchd would not write back. */
START_TEST(test_status_stale_lost)
{
    struct fixture ovsdb = { .rib = rib_create() };
    struct fixture *fx = &ovsdb;
    struct ds sent = DS_EMPTY_INITIALIZER;
    const char *del = "[\"status\",\"delete\"";

    ovsdb_path_start(fx);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    db_commit_all(fx);

    /* A new metric: no delete, lost or retried. */
    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.2", 30);
    db_lose_one(fx, &sent);
    db_commit_all__(fx, 1, &sent);
    ck_assert_ptr_null(strstr(ds_cstr(&sent), del));

    /* New next hops: the delete, and again in the retry. */
    ds_clear(&sent);
    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.3", 30);
    db_lose_one(fx, &sent);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&sent), del));
    ds_clear(&sent);
    db_commit_all__(fx, 1, &sent);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&sent), del));
    ds_destroy(&sent);
    fpmd_rib_destroy(fx->rib);
}
END_TEST

/* fpmsyncd restarted: zebra's replay of a route offloaded before, with
 * only a new metric, is confirmed at once: the row says what orchd holds,
 * and orchd answers nothing for a route it already holds. */
START_TEST(test_zmq_status_load_metric)
{
    struct fixture *fx = &fx_;

    teardown();
    fixture_init(fx, 100000, false);
    fpmd_offload_enable(fx->rib, true);
    fpmd_rib_load_begin(fx->rib);
    load_route_status(fx, "10.1.0.0/24",
                      "[\"map\",[[\"offload\",\"true\"]]]");
    fpmd_rib_load_end(fx->rib);
    fpmd_zmq_resync(fx->zmq);

    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.2", 30);
    ck_assert_uint_eq(fx->n_offloads, 1);
    /* New next hops still wait for orchd. */
    route_add_metric(fx, "10.1.0.0/24", 254, 0, "192.168.1.3", 30);
    ck_assert_uint_eq(fx->n_offloads, 1);
}
END_TEST

/* fpmsyncd restarted: what the rows' statuses say is read at load, and a
 * result that matches it is not written again. */
START_TEST(test_zmq_status_load)
{
    struct fixture *fx = &fx_;

    teardown();
    fixture_init(fx, 100000, false);
    fpmd_rib_load_begin(fx->rib);
    load_route_status(fx, "10.1.0.0/24",
                      "[\"map\",[[\"offload\",\"true\"]]]");
    load_route_status(fx, "10.2.0.0/24",
                      "[\"map\",[[\"error\",\"SAI_STATUS_FAILURE\"]]]");
    load_route_status(fx, "10.3.0.0/24", "[\"map\",[]]");
    fpmd_rib_load_end(fx->rib);
    fpmd_zmq_resync(fx->zmq);

    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    route_add(fx, "10.3.0.0/24", 254, 0, "192.168.1.2");
    /* The resync ends only once zebra's replay is reconciled: until then
     * the rib may lack routes that orchd holds (chaos.at). */
    CHECK_TAKE_SORTED(fx,
                      "SET default 10.1.0.0/24 forward 192.168.1.2@eth2*1\n"
                      "SET default 10.2.0.0/24 forward 192.168.1.2@eth2*1\n"
                      "SET default 10.3.0.0/24 forward 192.168.1.2@eth2*1\n");
    size_t n_routes, n_nhgs;
    fpmd_rib_reconcile(fx->rib, &n_routes, &n_nhgs);
    ck_assert_uint_eq(n_routes, 0);
    CHECK_TAKE_SORTED(fx, "SYNC_END\n");
    result(fx, "10.1.0.0/24", 0);
    result(fx, "10.2.0.0/24", 1);
    result(fx, "10.3.0.0/24", 0);
    CHECK_STATUS_COMMIT(fx, "10.3.0.0/24 offload\n");
    ck_assert(status_shows(fx, "2 results unchanged"));
}
END_TEST

/* The queue stops zebra at its limit. */
START_TEST(test_zmq_full)
{
    struct fixture *fx = &fx_;

    teardown();
    fixture_init(fx, 2, true);
    route_add(fx, "10.1.0.0/24", 254, 0, "192.168.1.2");
    ck_assert(!fpmd_zmq_backpressure(fx->zmq));
    route_add(fx, "10.2.0.0/24", 254, 0, "192.168.1.2");
    ck_assert(fpmd_zmq_backpressure(fx->zmq));
    ck_assert(fpmd_zmq_backpressure(fx->zmq));
    free(take(fx));
    ck_assert(!fpmd_zmq_is_full(fx->zmq));

    struct ds s = DS_EMPTY_INITIALIZER;
    fpmd_zmq_format(fx->zmq, &s);
    ck_assert_msg(strstr(ds_cstr(&s), "stalls: 1 "), "%s", ds_cstr(&s));
    ds_destroy(&s);
}
END_TEST

Suite *
fpmsyncd_zmq_suite(void)
{
    Suite *s = suite_create("fpmsyncd_zmq");
    TCase *tc = tcase_create("fpmsyncd_zmq");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_zmq_coalesce);
    tcase_add_test(tc, test_zmq_hold_group);
    tcase_add_test(tc, test_zmq_nhg_ids_reused);
    tcase_add_test(tc, test_zmq_nhg_ids_reused_blackhole);
    tcase_add_test(tc, test_zmq_vrf_names_unique);
    tcase_add_test(tc, test_zmq_withdraw);
    tcase_add_test(tc, test_zmq_resync);
    tcase_add_test(tc, test_zmq_deferred_delete);
    tcase_add_test(tc, test_zmq_resync_after_restart);
    tcase_add_test(tc, test_zmq_results);
    tcase_add_test(tc, test_zmq_results_unchanged);
    tcase_add_test(tc, test_zmq_changed_back_unsent);
    tcase_add_test(tc, test_changed_back_unwritten);
    tcase_add_test(tc, test_changed_back_group);
    tcase_add_test(tc, test_zmq_status);
    tcase_add_test(tc, test_zmq_status_in_insert);
    tcase_add_test(tc, test_zmq_status_lost_withdrawn);
    tcase_add_test(tc, test_zmq_status_load);
    tcase_add_test(tc, test_zmq_status_load_metric);
    tcase_add_test(tc, test_status_stale_lost);
    tcase_add_test(tc, test_zmq_full);
    tcase_add_test(tc, test_zmq_db_behind);
    suite_add_tcase(s, tc);
    return s;
}
