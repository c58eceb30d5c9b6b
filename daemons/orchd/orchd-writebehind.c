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
 * orchd-writebehind: Asic_Route rows written behind the southbound fast
 * path.
 */

#include <config.h>

#include "daemons/orchd/orchd-writebehind.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-entry.h"
#include "lib/ovsdb-wire.h"
#include "lib/perf-timer.h"
#include "lib/row-queue.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(orchd_writebehind);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(orchd_writebehind_txn);
COVERAGE_DEFINE(orchd_writebehind_retry);

#define TABLE "Asic_Route"

/* What a row write does. */
enum wb_type {
    WB_INSERT,                  /* Insert the row. */
    WB_UPDATE,                  /* Update it (insert if there is none). */
    WB_DELETE,                  /* Delete it. */
};

/* The content of a write whose route was not programmed, and why. */
struct wb_failure {
    struct orchd_entry *entry;  /* Content (a reference). */
    char *error;                /* Why not programmed. */
};

/* One row write.  A million of them wait in the ring while the write-
 * behind yields to fpmsyncd, so it is kept to 24 bytes: the row's UUID is
 * the entry's, and only what is rare takes memory of its own: a delete's
 * row, which has no entry, and a failure's error. */
struct wb_op {
    union {
        struct orchd_entry *entry; /* Programmed ('ok'): content (a
                                    * reference). */
        struct wb_failure *failure; /* Not programmed: content, why
                                     * (owned). */
        struct uuid *del_key;   /* WB_DELETE: the row (owned). */
    };
    int64_t seq;                /* The write's number: seq, applied_seq. */
    uint32_t queued_ds;         /* When it was queued, in tenths of a second
                                 * since the write-behind's 'start_ms' (13
                                 * years). */
    uint8_t type;               /* What to do: an enum wb_type. */
    bool ok;                    /* Programmed?  (Not for WB_DELETE.) */
};

BUILD_ASSERT_DECL(sizeof(struct wb_op) <= 24);

/* Returns the content that 'op', which is no WB_DELETE, writes. */
static const struct orchd_entry *
op_entry(const struct wb_op *op)
{
    return op->ok ? op->entry : op->failure->entry;
}

/* Returns the row that 'op' writes. */
static const struct uuid *
op_key(const struct wb_op *op)
{
    return op->type == WB_DELETE ? op->del_key : &op_entry(op)->asic_uuid;
}

/* A row write in a transaction. */
struct wb_slot {
    struct wb_op op;            /* The write. */
    struct hmap_node node;      /* In the transaction's 'keys'. */
};

/* A transaction in flight. */
struct wb_txn {
    struct row_queue_txn rq;    /* In the owner's in-flight list. */
    struct orchd_writebehind *wb; /* Owner, NULL once it is destroyed. */
    size_t n;                   /* Writes in 'slots'. */
    long long int oldest_ms;    /* When the oldest of its writes was
                                 * queued, in ms. */
    struct wb_slot slots[];     /* The writes, in order. */
};

/* The write-behind. */
struct orchd_writebehind {
    struct ovsdb_writer *writer;    /* Writes the rows. */
    size_t batch;                   /* Most writes in a transaction. */
    orchd_writebehind_commit_func *commit; /* Instead of 'writer'. */
    void *commit_aux;               /* Its argument. */

    /* Writes not sent yet: a ring, oldest at 'head'.  Not lib/row-queue.h's
     * queue of objects with a queued bit: a write here is a value (its
     * content's reference, seq, outcome, insert or update), not an object
     * of its own, and a million of them wait while the write-behind
     * yields; a queue of pointers would cost an allocation a write.
     * Coalescing is by position instead (orchd_writebehind_set()). */
    struct wb_op *ring;             /* 'allocated' slots, a power of 2. */
    size_t allocated;               /* Capacity of 'ring'. */
    size_t head;                    /* Index of the oldest. */
    size_t n;                       /* Writes in 'ring'. */
    uint32_t head_pos;              /* Position of the oldest: the write
                                     * K places behind it has position
                                     * head_pos + K (mod 2**32).  A write
                                     * keeps its position while it waits;
                                     * only requeue() and a late insert
                                     * give writes new ones.  A route's
                                     * tag is its newest write's position
                                     * plus 1. */

    struct row_queue rq;            /* Only its transaction in flight (one
                                     * at a time), completed as
                                     * lib/row-queue.h's: the queue is
                                     * 'ring'. */
    long long int start_ms;         /* When it was created: the origin of
                                     * the writes' 'queued_ds'. */

    /* Yielding to fpmsyncd's Route writes (orchd_writebehind_yield()). */
    bool yielding;                  /* Asked to hold back. */
    long long int yield_start_ms;   /* Since when. */
    long long int yielded_ms;       /* Held back in all, before that. */
    long long int max_yield_ms;     /* Longest hold. */
    uint64_t n_yields;              /* Times asked. */
    struct orchd_writebehind_stats stats; /* Counters. */
    struct perf_timer *timer;       /* "ASIC_WB": writes serialized into
                                     * transactions (as fpmsyncd's FLUSH). */
};

/* ---- The queue ---------------------------------------------------------- */

/* Returns the transaction in flight, or NULL. */
static struct wb_txn *
in_flight(const struct orchd_writebehind *wb)
{
    struct row_queue_txn *rq = row_queue_oldest(&wb->rq);

    return rq ? CONTAINER_OF(rq, struct wb_txn, rq) : NULL;
}

/* The largest ring kept while empty, in slots. */
#define RING_KEEP 4096

/* Makes room for one more write in the ring. */
static void
ring_reserve(struct orchd_writebehind *wb)
{
    if (wb->n < wb->allocated) {
        return;
    }

    size_t allocated = MAX(64, 2 * wb->allocated);
    struct wb_op *ring = xmalloc(allocated * sizeof *ring);

    for (size_t i = 0; i < wb->n; i++) {
        ring[i] = wb->ring[(wb->head + i) & (wb->allocated - 1)];
    }
    free(wb->ring);
    wb->ring = ring;
    wb->allocated = allocated;
    wb->head = 0;
}

/* Returns the write queued 'k' places behind the oldest. */
static struct wb_op *
ring_at(const struct orchd_writebehind *wb, size_t k)
{
    return &wb->ring[(wb->head + k) & (wb->allocated - 1)];
}

/* Queues 'op' behind every write queued; returns its position. */
static uint32_t
push_back(struct orchd_writebehind *wb, const struct wb_op *op)
{
    uint32_t pos = wb->head_pos + wb->n;

    ring_reserve(wb);
    *ring_at(wb, wb->n++) = *op;
    return pos;
}

/* Queues 'op' in front of every write queued. */
static void
push_front(struct orchd_writebehind *wb, const struct wb_op *op)
{
    ring_reserve(wb);
    wb->head = (wb->head - 1) & (wb->allocated - 1);
    wb->ring[wb->head] = *op;
    wb->n++;
    wb->head_pos--;
}

/* Returns the oldest write queued, which must exist. */
static struct wb_op *
front(struct orchd_writebehind *wb)
{
    return &wb->ring[wb->head];
}

/* Drops the oldest write queued (its owner took its references).  An
 * emptied ring larger than RING_KEEP slots is freed: after a million-route
 * load it would hold 40 to 80 MB of nothing. */
static void
pop_front(struct orchd_writebehind *wb)
{
    wb->head = (wb->head + 1) & (wb->allocated - 1);
    wb->n--;
    wb->head_pos++;
    if (!wb->n && wb->allocated > RING_KEEP) {
        free(wb->ring);
        wb->ring = NULL;
        wb->allocated = 0;
        wb->head = 0;
    }
}

/* Returns the time now as a write's 'queued_ds'. */
static uint32_t
now_ds(const struct orchd_writebehind *wb)
{
    return (time_msec() - wb->start_ms) / 100;
}

/* Returns when a write with 'queued_ds' was queued, in ms. */
static long long int
queued_ms(const struct orchd_writebehind *wb, const struct wb_op *op)
{
    return wb->start_ms + op->queued_ds * 100LL;
}

/* Makes 'op' (its content unset) write route 'e' with the outcome 'ok',
 * and 'error' if not. */
static void
op_set_content(struct wb_op *op, const struct orchd_entry *e, bool ok,
               const char *error)
{
    op->ok = ok;
    if (ok) {
        op->entry = orchd_entry_ref(e);
    } else {
        op->failure = xmalloc(sizeof *op->failure);
        op->failure->entry = orchd_entry_ref(e);
        op->failure->error = xstrdup(error ? error : "failed");
    }
}

/* Frees what 'op' owns. */
static void
op_uninit(struct wb_op *op)
{
    if (op->type == WB_DELETE) {
        free(op->del_key);
    } else if (op->ok) {
        orchd_entry_unref(op->entry);
    } else {
        orchd_entry_unref(op->failure->entry);
        free(op->failure->error);
        free(op->failure);
    }
}

/* Returns the write that 'tag' names (see orchd_writebehind_set()) if it
 * is still queued, not sent, and writes the content of row 'key'; else
 * NULL. */
static struct wb_op *
tagged_op(const struct orchd_writebehind *wb, uint32_t tag,
          const struct uuid *key)
{
    uint32_t k = tag - 1 - wb->head_pos;
    struct wb_op *op;

    if (!tag || k >= wb->n) {
        return NULL;
    }
    op = ring_at(wb, k);
    return (op->type != WB_DELETE && uuid_equals(op_key(op), key)
            ? op : NULL);
}

/* Queues the write of route 'e''s row: its content and the outcome 'ok'
 * ('error' says why not) of its write number 'seq'.  If 'row_exists' is
 * false, the row is inserted, else updated.
 *
 * '*tag', if 'tag' is nonnull, is the route's word for the write-behind
 * (orchd_bulker_item_tag()): 0, or where the route's newest write was
 * queued.  If that write still waits to be sent, this one takes its place
 * and its content, as fpmsyncd's batcher does with Route rows: the row is
 * written once, not once for each change that came while the write-behind
 * yielded or was behind.  The write keeps its type (whether it inserts),
 * since the database holds what it held before the write it replaces.
 * Else the write is queued behind the rest, and '*tag' names it. */
void
orchd_writebehind_set(struct orchd_writebehind *wb,
                      const struct orchd_entry *e, int64_t seq, bool ok,
                      const char *error, bool row_exists, uint32_t *tag)
{
    struct wb_op *queued = tag ? tagged_op(wb, *tag, &e->asic_uuid) : NULL;

    wb->stats.queued++;
    if (queued) {
        uint8_t type = queued->type;

        op_uninit(queued);
        op_set_content(queued, e, ok, error);
        queued->type = type;
        queued->seq = seq;
        wb->stats.coalesced++;
        return;
    }

    struct wb_op op = {
        .seq = seq,
        .queued_ds = now_ds(wb),
        .type = row_exists ? WB_UPDATE : WB_INSERT,
    };
    op_set_content(&op, e, ok, error);
    uint32_t pos = push_back(wb, &op);

    if (tag) {
        *tag = pos + 1;
    }
}

/* Queues the deletion of row 'key'.  '*tag', if 'tag' is nonnull, is the
 * route's word (see orchd_writebehind_set()): it is cleared, since no
 * later write of the row may take the place of one queued before this
 * deletion. */
void
orchd_writebehind_delete(struct orchd_writebehind *wb,
                         const struct uuid *key, uint32_t *tag)
{
    if (tag) {
        *tag = 0;
    }

    struct wb_op op = {
        .del_key = xmemdup(key, sizeof *key),
        .queued_ds = now_ds(wb),
        .type = WB_DELETE,
    };

    push_back(wb, &op);
    wb->stats.queued++;
}

/* ---- Transactions ------------------------------------------------------- */

/* Appends 'e''s content columns, as a row object's members, to 's'. */
static void
put_content(struct ds *s, const struct orchd_entry *e)
{
    if (e->instance) {
        ds_put_format(s, "\"instance\":%d,", e->instance);
    }
    ds_put_cstr(s, "\"vrf\":");
    json_string_escape(e->vrf, s);
    ds_put_cstr(s, ",\"prefix\":\"");
    fib_prefix_format_ds(&e->prefix, s);
    ds_put_cstr(s, "\",\"packet_action\":\"");
    ds_put_cstr(s, orchd_action_to_string(e->action));
    ds_put_cstr(s, "\",\"nexthops\":[\"map\",[");
    for (size_t i = 0; i < e->n_nexthops; i++) {
        ds_put_cstr(s, i ? ",[" : "[");
        json_string_escape(e->nexthops[i].key, s);
        ds_put_char(s, ',');
        ovsdb_wire_put_uint(s, e->nexthops[i].weight);
        ds_put_char(s, ']');
    }
    ds_put_cstr(s, "]]");
}

/* Appends ',' and 'op' as an operation to 's'. */
static void
put_op(struct ds *s, const struct wb_op *op)
{
    ds_put_char(s, ',');
    if (op->type == WB_DELETE) {
        ovsdb_wire_put_op_start(s, "delete", TABLE, op->del_key);
        ds_put_char(s, '}');
        return;
    }
    ovsdb_wire_put_op_start(s, op->type == WB_INSERT ? "insert" : "update",
                            TABLE, op_key(op));
    ds_put_cstr(s, ",\"row\":{");
    put_content(s, op_entry(op));
    ds_put_cstr(s, ",\"seq\":");
    ovsdb_wire_put_uint(s, MAX(op->seq, 0));
    ds_put_cstr(s, ",\"applied_seq\":");
    ovsdb_wire_put_uint(s, MAX(op->seq, 0));
    if (op->ok) {
        ds_put_cstr(s, ",\"state\":\"programmed\"");
        if (op->type == WB_UPDATE) {
            ds_put_cstr(s, ",\"error\":[\"set\",[]]");
        }
    } else {
        ds_put_cstr(s, ",\"state\":\"error\",\"error\":");
        json_string_escape(op->failure->error, s);
    }
    ds_put_cstr(s, "}}");
}

/* Returns true if 'keys', of the slots of a transaction, holds 'key'. */
static bool
txn_has_key(const struct hmap *keys, const struct uuid *key)
{
    const struct wb_slot *slot;

    HMAP_FOR_EACH_WITH_HASH (slot, node, uuid_hash(key), keys) {
        if (uuid_equals(op_key(&slot->op), key)) {
            return true;
        }
    }
    return false;
}

/* Puts the writes of 'txn' back in front of the queue, in their order,
 * each changed by 'retype' if it is not NULL.  Frees 'txn'. */
static void
requeue(struct orchd_writebehind *wb, struct wb_txn *txn,
        const enum wb_type *retype)
{
    for (size_t i = txn->n; i-- > 0;) {
        struct wb_op *op = &txn->slots[i].op;

        if (retype) {
            op->type = retype[op->type];
        }
        push_front(wb, op);
    }
    free(txn);
}

/* 'txn' committed: an update that matched no row is inserted. */
static void
txn_committed(struct orchd_writebehind *wb, struct wb_txn *txn,
              const struct json *results)
{
    const struct json_array *a = results ? json_array(results) : NULL;

    for (size_t i = txn->n; i-- > 0;) {
        struct wb_op *op = &txn->slots[i].op;

        if (op->type == WB_UPDATE && a && i < a->n
            && !ovsdb_wire_result_count(a->elems[i])) {
            /* No row: in front of the rest, since the rest is newer. */
            op->type = WB_INSERT;
            push_front(wb, op);
            wb->stats.late_inserts++;
        } else {
            wb->stats.committed++;
            op_uninit(op);
        }
    }
    free(txn);
}

/* 'txn' was refused (a write of it, 'failed_op' if known, failed) or lost:
 * none or, if lost, perhaps all of it happened.  It goes back in front of
 * the queue, its inserts as updates; if a write that is no insert caused
 * the refusal, it is dropped instead, so that the rest can go. */
static void
txn_failed(struct orchd_writebehind *wb, struct wb_txn *txn,
           const struct ovsdb_writer_reply *reply)
{
    static const enum wb_type retype[] = {
        [WB_INSERT] = WB_UPDATE,
        [WB_UPDATE] = WB_UPDATE,
        [WB_DELETE] = WB_DELETE,
    };
    size_t n_inserts = 0;

    for (size_t i = 0; i < txn->n; i++) {
        n_inserts += txn->slots[i].op.type == WB_INSERT;
    }
    if (reply->result == OVSDB_WRITER_ERROR) {
        size_t bad = reply->failed_op;

        VLOG_WARN_RL(&rl, "Asic_Route write-behind of %"PRIuSIZE" rows "
                     "refused: %s", txn->n, reply->error);
        if (bad < txn->n && txn->slots[bad].op.type != WB_INSERT) {
            op_uninit(&txn->slots[bad].op);
            memmove(&txn->slots[bad], &txn->slots[bad + 1],
                    (txn->n - bad - 1) * sizeof *txn->slots);
            txn->n--;
            wb->stats.dropped++;
        } else if (bad >= txn->n && !n_inserts) {
            /* Nothing to try another way: give up on all of it. */
            for (size_t i = 0; i < txn->n; i++) {
                op_uninit(&txn->slots[i].op);
            }
            wb->stats.dropped += txn->n;
            txn->n = 0;
        }
    }
    wb->stats.retried_txns++;
    COVERAGE_INC(orchd_writebehind_retry);
    requeue(wb, txn, retype);
}

/* The writer's callback for each transaction. */
static void
txn_done(void *txn_, const struct ovsdb_writer_reply *reply)
{
    struct wb_txn *txn = txn_;
    struct orchd_writebehind *wb = txn->wb;

    if (!wb) {
        /* The write-behind is gone. */
        for (size_t i = 0; i < txn->n; i++) {
            op_uninit(&txn->slots[i].op);
        }
        free(txn);
        return;
    }
    row_queue_txn_done(&wb->rq, &txn->rq,
                       reply->result == OVSDB_WRITER_SUCCESS);
    if (reply->result == OVSDB_WRITER_SUCCESS) {
        txn_committed(wb, txn, reply->results);
    } else {
        txn_failed(wb, txn, reply);
    }
}

/* Sends the oldest writes queued, up to 'wb->batch' and each row once, as
 * one transaction. */
static void
send_txn(struct orchd_writebehind *wb)
{
    struct wb_txn *txn = xmalloc(sizeof *txn
                                 + MIN(wb->batch, wb->n)
                                   * sizeof *txn->slots);
    struct hmap keys = HMAP_INITIALIZER(&keys);
    struct ds ops;

    txn->wb = wb;
    txn->n = 0;
    txn->oldest_ms = LLONG_MAX;
    perf_timer_start(wb->timer);
    ovsdb_writer_txn_start(wb->writer, &ops);
    while (wb->n && txn->n < wb->batch
           && !txn_has_key(&keys, op_key(front(wb)))) {
        struct wb_slot *slot = &txn->slots[txn->n++];

        slot->op = *front(wb);
        pop_front(wb);
        hmap_insert(&keys, &slot->node, uuid_hash(op_key(&slot->op)));
        txn->oldest_ms = MIN(txn->oldest_ms, queued_ms(wb, &slot->op));
        put_op(&ops, &slot->op);
    }
    hmap_destroy(&keys);

    row_queue_txn_sent(&wb->rq, &txn->rq, txn->n);
    wb->stats.txns++;
    COVERAGE_INC(orchd_writebehind_txn);
    perf_timer_inc(wb->timer, txn->n);
    if (wb->commit) {
        wb->commit(wb->commit_aux, &ops, txn->n, txn_done, txn);
    } else {
        ovsdb_writer_commit_ds(wb->writer, &ops, txn->n, txn_done, txn);
    }
    perf_timer_pause(wb->timer);
}

/* ---- Public interface --------------------------------------------------- */

/* Creates a write-behind that writes through 'writer', which must outlive
 * it and be run by the same thread. */
struct orchd_writebehind *
orchd_writebehind_create(struct ovsdb_writer *writer,
                         const struct orchd_writebehind_options *options)
{
    struct orchd_writebehind *wb = xzalloc(sizeof *wb);
    struct perf_timer_options popts;

    wb->writer = writer;
    row_queue_init(&wb->rq);
    wb->start_ms = time_msec();
    wb->batch = options && options->batch ? options->batch : 100;
    wb->commit = options ? options->commit : NULL;
    wb->commit_aux = options ? options->commit_aux : NULL;
    wb->max_yield_ms = (options && options->max_yield_ms
                        ? options->max_yield_ms
                        : ORCHD_WRITEBEHIND_MAX_YIELD_MS);

    perf_timer_options_init(&popts);
    popts.module = &this_module;
    popts.threshold = 100000;
    wb->timer = perf_timer_create("ASIC_WB", &popts);
    return wb;
}

/* Frees 'wb' and every write not sent; a transaction in flight ends
 * without it. */
void
orchd_writebehind_destroy(struct orchd_writebehind *wb)
{
    if (!wb) {
        return;
    }
    if (in_flight(wb)) {
        in_flight(wb)->wb = NULL;
    }
    while (wb->n) {
        op_uninit(front(wb));
        pop_front(wb);
    }
    free(wb->ring);
    row_queue_destroy(&wb->rq);
    perf_timer_flush(wb->timer);
    perf_timer_destroy(wb->timer);
    free(wb);
}

/* Returns when a yield that started at 'wb->yield_start_ms' ends,
 * whatever the caller says. */
static long long int
yield_deadline(const struct orchd_writebehind *wb)
{
    return wb->yield_start_ms + wb->max_yield_ms;
}

/* Returns how long the yield under way (if 'wb->yielding') has held writes
 * back, up to 'now'. */
static long long int
yield_held_ms(const struct orchd_writebehind *wb, long long int now)
{
    return MIN(now, yield_deadline(wb)) - wb->yield_start_ms;
}

/* Returns true if 'wb' holds its writes back now. */
static bool
is_holding(const struct orchd_writebehind *wb)
{
    return wb->yielding && time_msec() < yield_deadline(wb);
}

/* While 'yield' is true, sends no new transaction (the one in flight
 * completes), for the options' 'max_yield_ms' at most; then it writes
 * again, so that a Route writer that never catches up cannot hold
 * Asic_Route back forever.  Writes are queued meanwhile, and a row's
 * newer write takes the place of its older one (orchd_writebehind_set()).
 */
void
orchd_writebehind_yield(struct orchd_writebehind *wb, bool yield)
{
    long long int now = time_msec();

    if (yield == wb->yielding) {
        return;
    }
    if (yield) {
        wb->yield_start_ms = now;
        wb->n_yields++;
    } else {
        wb->yielded_ms += yield_held_ms(wb, now);
    }
    wb->yielding = yield;
}

/* Sends a transaction of the writes queued, unless one is in flight or
 * 'wb' yields. */
void
orchd_writebehind_run(struct orchd_writebehind *wb)
{
    if (!wb->rq.n_inflight && wb->n && !is_holding(wb)) {
        send_txn(wb);
    }
    perf_timer_run(wb->timer);
}

void
orchd_writebehind_wait(const struct orchd_writebehind *wb)
{
    if (!wb->rq.n_inflight && wb->n) {
        if (is_holding(wb)) {
            poll_timer_wait_until(yield_deadline(wb));
        } else {
            poll_immediate_wake();
        }
    }
    perf_timer_wait(wb->timer);
}

/* Returns true if nothing is queued or in flight. */
bool
orchd_writebehind_is_idle(const struct orchd_writebehind *wb)
{
    return !wb->rq.n_inflight && !wb->n;
}

/* Returns the number of row writes queued, not sent yet. */
size_t
orchd_writebehind_n_queued(const struct orchd_writebehind *wb)
{
    return wb->n;
}

/* Returns the number of row writes in the transaction in flight. */
size_t
orchd_writebehind_n_in_flight(const struct orchd_writebehind *wb)
{
    return wb->rq.n_inflight_ops;
}

/* Returns how long the oldest write not committed yet has waited, in
 * milliseconds (0 if there is none). */
long long int
orchd_writebehind_lag_ms(const struct orchd_writebehind *wb)
{
    long long int oldest = LLONG_MAX;

    if (in_flight(wb)) {
        oldest = in_flight(wb)->oldest_ms;
    }
    if (wb->n) {
        oldest = MIN(oldest, queued_ms(wb, &wb->ring[wb->head]));
    }
    return oldest == LLONG_MAX ? 0 : MAX(time_msec() - oldest, 0);
}

void
orchd_writebehind_get_stats(const struct orchd_writebehind *wb,
                            struct orchd_writebehind_stats *stats)
{
    *stats = wb->stats;
}

/* Appends the backlog and counters to 's', for zmq/show. */
void
orchd_writebehind_format(const struct orchd_writebehind *wb, struct ds *s)
{
    const struct orchd_writebehind_stats *st = &wb->stats;

    ds_put_format(s, "Asic_Route write-behind: queued %"PRIuSIZE", in "
                  "flight %"PRIuSIZE", committed %"PRIu64", %.1f s behind"
                  "\n", wb->n, orchd_writebehind_n_in_flight(wb),
                  st->committed, orchd_writebehind_lag_ms(wb) / 1000.0);
    ds_put_format(s, "  transactions %"PRIu64", writes that replaced one "
                  "queued %"PRIu64", updates that became inserts %"PRIu64
                  ", retried transactions %"PRIu64", rows dropped %"PRIu64
                  "\n", st->txns, st->coalesced, st->late_inserts,
                  st->retried_txns, st->dropped);
    ds_put_format(s, "  yielding to fpmsyncd's Route writes: %s, %"PRIu64
                  " times, %.1f s in all\n",
                  !wb->yielding ? "no"
                  : is_holding(wb) ? "yes" : "no (held too long)",
                  wb->n_yields,
                  (wb->yielded_ms
                   + (wb->yielding ? yield_held_ms(wb, time_msec()) : 0))
                  / 1000.0);
}
