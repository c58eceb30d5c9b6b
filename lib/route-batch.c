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
#include "lib/route-batch.h"

#include <string.h>

#include "util.h"

/* Returns a name for 'type': "insert", "update" or "delete". */
const char *
route_batch_op_type_to_string(enum route_batch_op_type type)
{
    switch (type) {
    case ROUTE_BATCH_INSERT:
        return "insert";
    case ROUTE_BATCH_UPDATE:
        return "update";
    case ROUTE_BATCH_DELETE:
        return "delete";
    }
    return "?";
}

/* Initializes 'b', an empty batcher.  'idle', if nonnull, is called with
 * 'aux' whenever an entry the batcher handles becomes idle; 'writable', if
 * nonnull, says whether an entry can be written now (NULL: always). */
void
route_batch_init(struct route_batch *b, route_batch_idle_cb *idle,
                 route_batch_writable_cb *writable, void *aux)
{
    memset(b, 0, sizeof *b);
    row_queue_init(&b->rq);
    b->next_seq = 1;
    b->idle = idle;
    b->writable = writable;
    b->aux = aux;
}

/* Frees the batcher's memory: the queue and the transactions in flight.
 * The entries themselves belong to the caller; none is called idle. */
void
route_batch_destroy(struct route_batch *b)
{
    struct route_batch_txn *txn;

    while ((txn = route_batch_oldest_txn(b)) != NULL) {
        row_queue_txn_done(&b->rq, &txn->rq, false);
        free(txn->ops);
        free(txn);
    }
    row_queue_destroy(&b->rq);
}

/* Initializes 'e': nothing wanted, nothing in the database. */
void
route_batch_entry_init(struct route_batch_entry *e)
{
    memset(e, 0, sizeof *e);
    e->db = ROUTE_BATCH_DB_ABSENT;
}

/* Returns true if 'e' wants nothing, has (as far as known) no row, and is
 * neither queued nor in flight: its owner may free it. */
bool
route_batch_entry_is_idle(const struct route_batch_entry *e)
{
    return (!e->want && e->db == ROUTE_BATCH_DB_ABSENT && !e->queued
            && !e->n_inflight);
}

/* Returns true if the database holds, as far as the batcher knows, the
 * row 'e' wants, with no transaction on it in flight: nothing is left to
 * write for it (if it is queued, route_batch_take() skips it). */
bool
route_batch_entry_is_settled(const struct route_batch_entry *e)
{
    return (e->want && e->db == ROUTE_BATCH_DB_PRESENT
            && e->db_hash == e->want_hash && !e->n_inflight);
}

/* Calls the idle callback if 'e' is idle. */
static void
check_idle(struct route_batch *b, struct route_batch_entry *e)
{
    if (b->idle && route_batch_entry_is_idle(e)) {
        b->idle(e, b->aux);
    }
}

/* Appends 'e' to the queue, unless it is queued already. */
void
route_batch_enqueue(struct route_batch *b, struct route_batch_entry *e)
{
    ROW_QUEUE_PUSH_ONCE(&b->rq, e, e->queued);
}

/* Records that 'e' should be in the database with content hash 'hash'.
 * Queues it unless it is queued already (the last write wins) or the
 * database already holds exactly that. */
void
route_batch_set(struct route_batch *b, struct route_batch_entry *e,
                uint32_t hash)
{
    b->stats.n_set++;
    e->want = true;
    e->want_hash = hash;
    if (e->queued) {
        b->stats.n_coalesced++;
    } else if (e->db == ROUTE_BATCH_DB_PRESENT && e->db_hash == hash) {
        b->stats.n_unchanged++;
    } else {
        route_batch_enqueue(b, e);
    }
}

/* Records that 'e' should not be in the database.  Queues it if the
 * database may hold it.  Afterward, if route_batch_entry_is_idle(e), the
 * caller may free 'e' at once (the idle callback is not called here). */
void
route_batch_del(struct route_batch *b, struct route_batch_entry *e)
{
    b->stats.n_del++;
    e->want = false;
    if (e->queued) {
        b->stats.n_coalesced++;
    } else if (e->db != ROUTE_BATCH_DB_ABSENT) {
        route_batch_enqueue(b, e);
    }
}

/* Sets what the database really holds for 'e', as read from it: a row
 * with content hash 'hash' if 'present', otherwise none.  Queues 'e' if
 * that differs from what it wants; calls the idle callback if 'e' is
 * idle.  Call only with no transaction in flight (after route_batch_fail_all()
 * on a reconnection, for instance). */
void
route_batch_resync(struct route_batch *b, struct route_batch_entry *e,
                   bool present,
                   uint32_t hash)
{
    ovs_assert(!e->n_inflight);
    e->db = present ? ROUTE_BATCH_DB_PRESENT : ROUTE_BATCH_DB_ABSENT;
    e->db_hash = present ? hash : 0;
    if (e->want ? !present || hash != e->want_hash : present) {
        route_batch_enqueue(b, e);
    } else {
        check_idle(b, e);
    }
}

/* Records that the database holds a row for 'e' with content hash 'hash'
 * and that this is what 'e' wants: for an entry created from a row read
 * from the database, which its owner wants to keep as it is.  If 'e' is
 * queued, route_batch_take() will find nothing to do for it.  'e' must not be
 * in flight. */
void
route_batch_keep(struct route_batch_entry *e, uint32_t hash)
{
    ovs_assert(!e->n_inflight);
    e->want = true;
    e->want_hash = hash;
    e->db = ROUTE_BATCH_DB_PRESENT;
    e->db_hash = hash;
}

/* Makes 'e' want nothing and believe the database holds nothing for it,
 * without any operation: for an entry its owner only mirrored from the
 * database and that turned out to be gone.  Calls the idle callback at
 * once if 'e' is not queued (otherwise route_batch_take() will).  'e' must not
 * be in flight. */
void
route_batch_forget(struct route_batch *b, struct route_batch_entry *e)
{
    ovs_assert(!e->n_inflight);
    e->want = false;
    e->db = ROUTE_BATCH_DB_ABSENT;
    e->db_hash = 0;
    check_idle(b, e);
}

/* Queues 'e', which wants a row, to be written again even though the
 * database is believed to hold what it wants: its owner has more to write
 * with the row (fpmsyncd's delete of a stale status).  The row's state
 * becomes unknown, so the write is an update, followed by an insert if
 * the row turns out to be gone.  'e' must not be in flight. */
void
route_batch_rewrite(struct route_batch *b, struct route_batch_entry *e)
{
    ovs_assert(!e->n_inflight && e->want);
    if (e->db == ROUTE_BATCH_DB_PRESENT) {
        e->db = ROUTE_BATCH_DB_UNKNOWN;
        e->db_hash = 0;
    }
    route_batch_enqueue(b, e);
}

/* Makes route_batch_take() stop in front of 'e', while it is queued, until
 * the next call (NULL: stop nowhere).  'e' need not be queued. */
void
route_batch_defer(struct route_batch *b, const struct route_batch_entry *e)
{
    b->deferred = e;
}

/* Chooses the operation for 'e', just dequeued, and stores it in '*op'.
 * Returns false if none is needed or 'e' is held ('*held' true then). */
static bool
choose_op(struct route_batch *b, struct route_batch_entry *e,
          struct route_batch_op *op,
          bool *held)
{
    op->entry = e;
    op->hash = 0;
    op->marked = false;
    *held = false;
    if (e->want) {
        if (e->db == ROUTE_BATCH_DB_PRESENT && e->db_hash == e->want_hash) {
            return false;
        }
        if (b->writable && !b->writable(e, b->aux)) {
            *held = true;
            return false;
        }
        op->type = (e->db == ROUTE_BATCH_DB_ABSENT
                    ? ROUTE_BATCH_INSERT : ROUTE_BATCH_UPDATE);
        op->hash = e->want_hash;
        e->db = ROUTE_BATCH_DB_PRESENT;
        e->db_hash = e->want_hash;
    } else {
        if (e->db == ROUTE_BATCH_DB_ABSENT) {
            return false;
        }
        op->type = ROUTE_BATCH_DELETE;
        e->db = ROUTE_BATCH_DB_ABSENT;
        e->db_hash = 0;
    }
    e->n_inflight++;
    return true;
}

/* route_batch_take()'s transaction being built: row_queue_take()'s
 * 'aux'. */
struct take_ctx {
    struct route_batch *b;      /* The batcher. */
    struct route_batch_txn *txn; /* The transaction, NULL until the first
                                  * operation. */
    size_t max_ops;             /* Most operations. */
    size_t allocated;           /* Capacity of 'txn->ops'. */
};

/* row_queue_take_cb: stops in front of the deferred entry; otherwise
 * chooses the operation for 'e_' and appends it to the transaction. */
static enum row_queue_verdict
take_entry(void *e_, void *ctx_)
{
    struct take_ctx *ctx = ctx_;
    struct route_batch *b = ctx->b;
    struct route_batch_txn *txn = ctx->txn;
    struct route_batch_entry *e = e_;
    struct route_batch_op op;
    bool held;

    if (e == b->deferred) {
        b->stats.n_deferred_stops++;
        return ROW_QUEUE_STOP;
    }
    e->queued = false;
    if (!choose_op(b, e, &op, &held)) {
        if (held) {
            b->stats.n_held++;
        } else {
            b->stats.n_cancelled++;
            check_idle(b, e);
        }
        return ROW_QUEUE_SKIP;
    }
    if (!txn) {
        txn = ctx->txn = xzalloc(sizeof *txn);
        /* 'e' is still in the queue. */
        ctx->allocated = MIN(ctx->max_ops, row_queue_n_pending(&b->rq));
        txn->ops = xmalloc(ctx->allocated * sizeof *txn->ops);
    } else if (txn->n_ops == ctx->allocated) {
        ctx->allocated = MIN(ctx->max_ops, 2 * ctx->allocated);
        txn->ops = xrealloc(txn->ops, ctx->allocated * sizeof *txn->ops);
    }
    txn->ops[txn->n_ops++] = op;
    switch (op.type) {
    case ROUTE_BATCH_INSERT:
        txn->n_insert++;
        b->stats.n_insert++;
        break;
    case ROUTE_BATCH_UPDATE:
        txn->n_update++;
        b->stats.n_update++;
        break;
    case ROUTE_BATCH_DELETE:
        txn->n_delete++;
        b->stats.n_delete++;
        break;
    }
    return ROW_QUEUE_TAKE;
}

/* Takes up to 'max_ops' operations from the front of the queue into a new
 * transaction and returns it, or returns NULL if the queue held nothing to
 * do.  The believed database state of each entry becomes the operation's
 * result.  Entries that needed no operation leave the queue (and may be
 * reported idle). */
struct route_batch_txn *
route_batch_take(struct route_batch *b, size_t max_ops)
{
    struct take_ctx ctx = { .b = b, .max_ops = max_ops };
    struct route_batch_txn *txn;

    ovs_assert(max_ops > 0);
    row_queue_take(&b->rq, max_ops, take_entry, &ctx);
    txn = ctx.txn;
    if (txn) {
        txn->seq = b->next_seq++;
        row_queue_txn_sent(&b->rq, &txn->rq, txn->n_ops);
        b->stats.n_txn++;
    }
    return txn;
}

/* Returns the oldest transaction in flight, or NULL. */
struct route_batch_txn *
route_batch_oldest_txn(const struct route_batch *b)
{
    struct row_queue_txn *rq = row_queue_oldest(&b->rq);

    return rq ? CONTAINER_OF(rq, struct route_batch_txn, rq) : NULL;
}

/* Frees 'txn', after its entries were handled. */
static void
txn_free(struct route_batch_txn *txn)
{
    free(txn->ops);
    free(txn);
}

/* Completes 'txn', the oldest transaction in flight, which the database
 * committed.  'counts[i]', if 'counts' is nonnull, is the row count the
 * database reported for operation i; an update that matched no row means
 * the row is gone, so its entry is queued again (to be inserted).  Frees
 * 'txn'. */
void
route_batch_txn_commit(struct route_batch *b, struct route_batch_txn *txn,
                       const unsigned int *counts)
{
    row_queue_txn_done(&b->rq, &txn->rq, true);
    b->stats.n_committed++;
    b->stats.n_ops_committed += txn->n_ops;
    for (size_t i = 0; i < txn->n_ops; i++) {
        struct route_batch_op *op = &txn->ops[i];
        struct route_batch_entry *e = op->entry;

        e->n_inflight--;
        if (op->type == ROUTE_BATCH_UPDATE && counts && !counts[i]) {
            /* A later operation in flight was chosen believing the row
             * exists; if there is one, its own result settles the state
             * (an update finds no row either, a delete makes it
             * absent). */
            if (!e->n_inflight) {
                e->db = ROUTE_BATCH_DB_ABSENT;
                e->db_hash = 0;
                if (e->want) {
                    b->stats.n_requeued++;
                    ROW_QUEUE_REQUEUE_ONCE(&b->rq, e, e->queued);
                }
            }
        }
        check_idle(b, e);
    }
    txn_free(txn);
}

/* Completes 'txn', the oldest transaction in flight, which failed as a
 * whole: none of its operations happened.  Each entry's database state
 * becomes unknown, unless a later transaction in flight will settle it,
 * and the entry is queued again.  Frees 'txn'. */
void
route_batch_txn_fail(struct route_batch *b, struct route_batch_txn *txn)
{
    row_queue_txn_done(&b->rq, &txn->rq, false);
    b->stats.n_failed++;
    for (size_t i = 0; i < txn->n_ops; i++) {
        struct route_batch_entry *e = txn->ops[i].entry;

        e->n_inflight--;
        if (!e->n_inflight) {
            e->db = ROUTE_BATCH_DB_UNKNOWN;
            e->db_hash = 0;
        }
        if (ROW_QUEUE_REQUEUE_ONCE(&b->rq, e, e->queued)) {
            b->stats.n_requeued++;
        }
    }
    txn_free(txn);
}

/* Fails every transaction in flight, oldest first, as after losing the
 * connection before their replies arrived. */
void
route_batch_fail_all(struct route_batch *b)
{
    struct route_batch_txn *txn;

    while ((txn = route_batch_oldest_txn(b)) != NULL) {
        route_batch_txn_fail(b, txn);
    }
}
