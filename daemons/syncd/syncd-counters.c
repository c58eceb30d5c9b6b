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

#include "daemons/syncd/syncd-counters.h"

#include <stdlib.h>
#include <string.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/sai-util.h"
#include "coverage.h"
#include "hash.h"
#include "lib/fib-prefix.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "lib/route-key.h"
#include "lib/row-queue.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/uuid.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd_counters);

COVERAGE_DEFINE(syncd_counters_txn);
COVERAGE_DEFINE(syncd_counters_row);

/* A route whose hit counter moved and is not written yet, or is being
 * written. */
struct counter_route {
    struct hmap_node node;      /* In 'routes', by (VR, prefix). */
    sai_route_entry_t entry;    /* Simulator key: switch, VR, prefix. */
    struct fib_prefix prefix;   /* The prefix, binary, for the hash. */
    struct uuid row_uuid;       /* Its Route row (lib/route-key.h). */
    bool dirty;                 /* Hit since its count was last read?  (Its
                                 * queued bit: on 'rq' if so.) */
    bool in_flight;             /* In the transaction outstanding? */
};

/* The transaction outstanding (one at a time). */
struct counters_txn {
    struct row_queue_txn rq;    /* In the queue's in-flight list. */
    struct counter_route **routes; /* Its routes ('batch' slots), by
                                    * pointer: a route in flight is not
                                    * freed. */
    size_t n;                   /* Number of 'routes'. */
};

/* The module. */
struct syncd_counters {
    bool enabled;               /* False if the interval is 0. */
    long long int interval;     /* Milliseconds between rounds. */
    uint32_t batch;             /* Most rows per transaction. */
    struct ovsdb_writer *writer; /* Database connection, if enabled. */
    sai_route_api_t *route_api; /* To read hit counts. */

    struct hmap routes;         /* Contains "struct counter_route"s. */
    struct row_queue rq;        /* Dirty routes, in the order first hit,
                                 * and the transaction outstanding, if
                                 * any ('rq.n_inflight'). */

    long long int next_round;   /* When the next round may start. */
    bool draining;              /* In a round, with dirty routes left? */
    size_t round_left;          /* Routes of this round not sent yet: those
                                 * dirty when it started, so that constant
                                 * lookups cannot make it endless. */
    struct counters_txn txn;    /* The transaction outstanding, when
                                 * 'rq.n_inflight' says there is one. */

    struct syncd_counters_stats stats; /* Counters (some computed). */
};

/* Creates the module.  With a zero interval it does nothing at all. */
struct syncd_counters *
syncd_counters_create(const struct syncd_counters_options *options)
{
    struct syncd_counters *c = xzalloc(sizeof *c);

    hmap_init(&c->routes);
    row_queue_init(&c->rq);
    c->enabled = options->interval_msec > 0;
    c->interval = options->interval_msec;
    c->batch = options->batch ? options->batch : SYNCD_COUNTERS_DEFAULT_BATCH;
    if (!c->enabled) {
        return c;
    }

    void *api;
    sai_status_t status = sai_api_query(SAI_API_ROUTE, &api);
    if (status) {
        VLOG_ERR("cannot query the route API (%s): hit counters disabled",
                 sai_util_status_name(status));
        c->enabled = false;
        return c;
    }
    c->route_api = api;
    c->writer = ovsdb_writer_create(options->remote, "Fibsync");
    ovsdb_writer_set_max_in_flight(c->writer, 1);
    c->txn.routes = xmalloc(c->batch * sizeof *c->txn.routes);
    c->next_round = time_msec() + c->interval;
    return c;
}

static void
route_free(struct syncd_counters *c, struct counter_route *r)
{
    hmap_remove(&c->routes, &r->node);
    free(r);
}

void
syncd_counters_destroy(struct syncd_counters *c)
{
    if (!c) {
        return;
    }
    /* Completes the outstanding transaction, if any, as lost. */
    ovsdb_writer_destroy(c->writer);

    struct counter_route *r;
    HMAP_FOR_EACH_SAFE (r, node, &c->routes) {
        route_free(c, r);
    }
    hmap_destroy(&c->routes);
    row_queue_destroy(&c->rq);
    free(c->txn.routes);
    free(c);
}

/* Converts a simulator prefix to fibsync's binary form. */
static void
prefix_from_sai(const sai_ip_prefix_t *p, struct fib_prefix *fp)
{
    int len = sai_util_ip_prefix_length(p);

    if (p->addr_family == SAI_IP_ADDR_FAMILY_IPV4) {
        fib_prefix_init(fp, AF_INET, &p->addr.ip4, len);
    } else {
        fib_prefix_init(fp, AF_INET6, p->addr.ip6, len);
    }
}

static uint32_t
route_hash(sai_object_id_t vr_id, const struct fib_prefix *fp)
{
    return fib_prefix_hash(fp, hash_uint64(vr_id));
}

/* Queues 'r' to have its count read and written, unless it is queued
 * already. */
static void
mark_dirty(struct syncd_counters *c, struct counter_route *r)
{
    ROW_QUEUE_PUSH_ONCE(&c->rq, r, r->dirty);
}

/* Reports that a lookup hit the route 'entry', which is in VRF 'vrf' (the
 * name the Route row has).  Cheap: a hash lookup, plus a SHA-1 the first
 * time a route is hit in an interval. */
void
syncd_counters_note_hit(struct syncd_counters *c, const char *vrf,
                        const sai_route_entry_t *entry)
{
    struct fib_prefix fp;
    struct counter_route *r;

    if (!c->enabled) {
        return;
    }
    c->stats.hits++;
    prefix_from_sai(&entry->destination, &fp);
    uint32_t hash = route_hash(entry->vr_id, &fp);
    HMAP_FOR_EACH_WITH_HASH (r, node, hash, &c->routes) {
        if (r->entry.vr_id == entry->vr_id
            && fib_prefix_equals(&r->prefix, &fp)) {
            mark_dirty(c, r);
            return;
        }
    }

    r = xzalloc(sizeof *r);
    r->entry = *entry;
    r->prefix = fp;
    route_key_route_uuid(vrf, &fp, &r->row_uuid);
    hmap_insert(&c->routes, &r->node, hash);
    mark_dirty(c, r);
}

/* Returns the mutate operation that sets key "packets" of the 'counters'
 * column of Route row 'uuid' to 'packets', leaving the other keys. */
static struct json *
counters_mutate_op(const struct uuid *uuid, uint64_t packets)
{
    struct json *keys = ovsdb_wire_set_new();
    ovsdb_wire_set_add(keys, json_string_create("packets"));

    struct json *map = ovsdb_wire_map_new();
    ovsdb_wire_map_add(map, json_string_create("packets"),
                       json_integer_create(MIN(packets, INT64_MAX)));

    struct json *mutations = json_array_create_2(
        json_array_create_3(json_string_create("counters"),
                            json_string_create("delete"), keys),
        json_array_create_3(json_string_create("counters"),
                            json_string_create("insert"), map));
    return ovsdb_wire_op_mutate("Route", uuid, mutations);
}

/* Counts the operations of a committed transaction that matched no row. */
static void
count_missing(struct syncd_counters *c, const struct json *results)
{
    for (size_t i = 0; results && i < json_array(results)->n; i++) {
        if (!ovsdb_wire_result_count(json_array(results)->elems[i])) {
            c->stats.missing++;
        }
    }
}

/* ovsdb_writer callback for the outstanding transaction. */
static void
txn_done(void *c_, const struct ovsdb_writer_reply *reply)
{
    struct syncd_counters *c = c_;
    enum ovsdb_writer_result result = reply->result;
    struct counters_txn *txn = &c->txn;

    row_queue_txn_done(&c->rq, &txn->rq, result == OVSDB_WRITER_SUCCESS);
    switch (result) {
    case OVSDB_WRITER_SUCCESS:
        c->stats.acked += txn->n;
        count_missing(c, reply->results);
        break;
    case OVSDB_WRITER_ERROR:
        c->stats.failed_txns++;
        break;
    case OVSDB_WRITER_LOST:
        c->stats.lost_txns++;
        break;
    }

    for (size_t i = 0; i < txn->n; i++) {
        struct counter_route *r = txn->routes[i];

        r->in_flight = false;
        if (result == OVSDB_WRITER_LOST) {
            ROW_QUEUE_REQUEUE_ONCE(&c->rq, r, r->dirty);
        }
        if (!r->dirty) {
            route_free(c, r);
        }
    }
    txn->n = 0;
}

/* send_batch()'s transaction being built: row_queue_take()'s 'aux'. */
struct send_ctx {
    struct syncd_counters *c;   /* The module. */
    struct json *ops;           /* The operations. */
};

/* row_queue_take_cb: reads the hit count of dirty route 'r_' and adds its
 * mutate to the transaction, unless the round is over (the route stays
 * queued) or the route is gone (it is freed). */
static enum row_queue_verdict
send_route(void *r_, void *ctx_)
{
    sai_attribute_t attr = { .id = ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT };
    struct send_ctx *ctx = ctx_;
    struct syncd_counters *c = ctx->c;
    struct counter_route *r = r_;

    if (!c->round_left) {
        return ROW_QUEUE_STOP;
    }
    c->round_left--;
    r->dirty = false;
    if (c->route_api->get_route_entry_attribute(&r->entry, 1, &attr)) {
        /* Removed since it was hit: its Route row is going too. */
        c->stats.gone++;
        route_free(c, r);
        return ROW_QUEUE_SKIP;
    }
    json_array_add(ctx->ops, counters_mutate_op(&r->row_uuid,
                                                attr.value.u64));
    r->in_flight = true;
    c->txn.routes[c->txn.n++] = r;
    return ROW_QUEUE_TAKE;
}

/* Reads the hit counts of up to 'batch' dirty routes of the current round
 * and sends them in one transaction. */
static void
send_batch(struct syncd_counters *c)
{
    struct send_ctx ctx = { .c = c, .ops = json_array_create_empty() };

    ovs_assert(!c->rq.n_inflight && !c->txn.n);
    row_queue_take(&c->rq, c->batch, send_route, &ctx);
    if (!c->txn.n) {
        json_destroy(ctx.ops);
        return;
    }
    row_queue_txn_sent(&c->rq, &c->txn.rq, c->txn.n);
    COVERAGE_INC(syncd_counters_txn);
    COVERAGE_ADD(syncd_counters_row, c->txn.n);
    c->stats.txns++;
    c->stats.rows += c->txn.n;
    ovsdb_writer_commit(c->writer, ctx.ops, txn_done, c);
}

void
syncd_counters_run(struct syncd_counters *c)
{
    if (!c->enabled) {
        return;
    }
    ovsdb_writer_run(c->writer);

    long long int now = time_msec();
    if (!c->draining && now >= c->next_round) {
        c->next_round = now + c->interval;
        if (row_queue_n_pending(&c->rq)) {
            c->draining = true;
            c->round_left = row_queue_n_pending(&c->rq);
            c->stats.rounds++;
        }
    }
    if (c->draining && !c->rq.n_inflight
        && ovsdb_writer_is_connected(c->writer)) {
        send_batch(c);
        if (!c->round_left || !row_queue_n_pending(&c->rq)) {
            c->draining = false;
        }
    }
}

void
syncd_counters_wait(struct syncd_counters *c)
{
    if (!c->enabled) {
        return;
    }
    ovsdb_writer_wait(c->writer);
    if (c->draining) {
        if (!c->rq.n_inflight && ovsdb_writer_is_connected(c->writer)) {
            poll_immediate_wake();
        }
    } else if (row_queue_n_pending(&c->rq)) {
        poll_timer_wait_until(c->next_round);
    }
}

void
syncd_counters_get_stats(const struct syncd_counters *c,
                         struct syncd_counters_stats *stats)
{
    *stats = c->stats;
    stats->enabled = c->enabled;
    stats->connected = c->enabled && ovsdb_writer_is_connected(c->writer);
    stats->dirty = row_queue_n_pending(&c->rq);
    stats->inflight_rows = c->rq.n_inflight_ops;
}
