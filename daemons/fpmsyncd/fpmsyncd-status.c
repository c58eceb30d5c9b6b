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
#include "daemons/fpmsyncd/fpmsyncd-status.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "daemons/fpmsyncd/fpmsyncd-rib-rows.h"
#include "hash.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "lib/route-status.h"
#include "lib/row-queue.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "util.h"
#include "uuid.h"

COVERAGE_DEFINE(fpmd_status_write);
COVERAGE_DEFINE(fpmd_status_requeued);

/* The error texts of a route whose status says, or should say, an
 * error.  Failures are rare: the texts live here, not in every route. */
struct fpmd_status_error {
    struct hmap_node node;      /* In 'errors', by hash_pointer(route). */
    const struct fpmd_route *route; /* Whose. */
    char *want;                 /* What "error" should say, or NULL. */
    char *db;                   /* What "error" is believed to say, or NULL
                                 * if the row has none or it is unknown. */
};

/* A route as a transaction in flight remembers it: by key, because the
 * route may be freed before the transaction completes. */
struct fpmd_status_key {
    struct fib_prefix prefix;   /* Destination. */
    uint16_t vrf;               /* Index in the rib's VRF table. */
};

/* A transaction of status mutates, from fpmd_status_build() until
 * fpmd_status_reply(). */
struct fpmd_status_txn {
    struct row_queue_txn rq;    /* In 'rq''s in-flight list. */
    struct fpmd_status_key *keys; /* The routes, one per mutate, in
                                   * order. */
    size_t n;                   /* Number of mutates. */
};

/* The rib's Route.status writer: the 'aux' of its observer. */
struct fpmd_status {
    struct fpmd_rib *rib;       /* Whose routes. */
    struct row_queue rq;        /* 'struct fpmd_route's to write, each with
                                 * 'status_queued', first change first, and
                                 * the 'struct fpmd_status_txn's in flight
                                 * (its 'stats.n_txns' counts those
                                 * built). */
    struct hmap errors;         /* 'struct fpmd_status_error's: the error
                                 * texts, by route. */
    size_t n_held;              /* Routes with 'status_held'. */

    /* Counters. */
    uint64_t n_unchanged;       /* Results that matched the row. */
    uint64_t n_written;         /* Statuses committed: mutates... */
    uint64_t n_no_row;          /* ...(of which found no row)... */
    uint64_t n_with_row;        /* ...and in their row's insert. */
    uint64_t n_requeued;        /* Routes queued again after a transaction
                                 * was refused or lost. */
};

static const struct fpmd_rib_observer status_observer;

/* Returns the Route.status writer of 'rib' (fpmd_status_attach()). */
static struct fpmd_status *
status_of(const struct fpmd_rib *rib)
{
    struct fpmd_status *st = fpmd_rib_observer_aux(rib, &status_observer);

    ovs_assert(st);
    return st;
}

/* Gives 'rib' its Route.status writer: registers it as an observer of the
 * rib's routes.  The rib frees it. */
void
fpmd_status_attach(struct fpmd_rib *rib)
{
    struct fpmd_status *st = xzalloc(sizeof *st);

    st->rib = rib;
    row_queue_init(&st->rq);
    hmap_init(&st->errors);
    fpmd_rib_observe(rib, &status_observer, st);
}

/* Frees what 'st' holds, without touching the routes (which the rib is
 * freeing). */
static void
status_destroy(void *st_)
{
    struct fpmd_status *st = st_;
    struct fpmd_status_error *rec;
    struct row_queue_txn *rq;

    HMAP_FOR_EACH_POP (rec, node, &st->errors) {
        free(rec->want);
        free(rec->db);
        free(rec);
    }
    hmap_destroy(&st->errors);
    while ((rq = row_queue_oldest(&st->rq)) != NULL) {
        struct fpmd_status_txn *txn = CONTAINER_OF(rq, struct fpmd_status_txn,
                                                   rq);

        row_queue_txn_done(&st->rq, rq, false);
        free(txn->keys);
        free(txn);
    }
    row_queue_destroy(&st->rq);
    free(st);
}

/* Error texts. */

static struct fpmd_status_error *
error_find(const struct fpmd_status *st, const struct fpmd_route *r)
{
    struct fpmd_status_error *rec;

    HMAP_FOR_EACH_WITH_HASH (rec, node, hash_pointer(r, 0), &st->errors) {
        if (rec->route == r) {
            return rec;
        }
    }
    return NULL;
}

/* Returns the error texts of 'r', created empty if it has none. */
static struct fpmd_status_error *
error_get(struct fpmd_status *st, const struct fpmd_route *r)
{
    struct fpmd_status_error *rec = error_find(st, r);

    if (!rec) {
        rec = xzalloc(sizeof *rec);
        rec->route = r;
        hmap_insert(&st->errors, &rec->node, hash_pointer(r, 0));
    }
    return rec;
}

/* Frees 'rec' (may be NULL) if it holds no text any more. */
static void
error_maybe_free(struct fpmd_status *st, struct fpmd_status_error *rec)
{
    if (rec && !rec->want && !rec->db) {
        hmap_remove(&st->errors, &rec->node);
        free(rec);
    }
}

/* Replaces the text in '*textp' by 'text' (owned by the caller, may be
 * NULL for none). */
static void
text_set(char **textp, const char *text)
{
    free(*textp);
    *textp = text ? xstrdup(text) : NULL;
}

/* A route's state. */

/* Makes 'r' want its status to say 'value' ('error' for
 * FPMD_STATUS_ERROR, otherwise NULL). */
static void
want_set(struct fpmd_status *st, struct fpmd_route *r,
         enum fpmd_status_value value, const char *error)
{
    struct fpmd_status_error *rec = (error ? error_get(st, r)
                                     : error_find(st, r));

    if (rec) {
        text_set(&rec->want, error);
        error_maybe_free(st, rec);
    }
    r->status_want = value;
}

/* Records that 'r''s row says 'value' ('error' for FPMD_STATUS_ERROR if
 * known, otherwise NULL). */
static void
db_set(struct fpmd_status *st, struct fpmd_route *r,
       enum fpmd_status_value value, const char *error)
{
    struct fpmd_status_error *rec = (error ? error_get(st, r)
                                     : error_find(st, r));

    if (rec) {
        text_set(&rec->db, error);
        error_maybe_free(st, rec);
    }
    r->status_db = value;
}

/* Returns true if 'r''s row needs no status write: it wants nothing, or
 * its row says what it wants. */
static bool
in_sync(const struct fpmd_status *st, const struct fpmd_route *r)
{
    const struct fpmd_status_error *rec;

    if (r->status_want == FPMD_STATUS_NONE) {
        return true;
    } else if (r->status_want != r->status_db) {
        return false;
    } else if (r->status_want != FPMD_STATUS_ERROR) {
        return true;
    }
    rec = error_find(st, r);
    return rec && rec->want && rec->db && !strcmp(rec->want, rec->db);
}

/* Marks 'r' as waiting for its row's insert. */
static void
hold(struct fpmd_status *st, struct fpmd_route *r)
{
    if (!r->status_held) {
        r->status_held = true;
        st->n_held++;
    }
}

/* 'r' no longer waits for its row's insert. */
static void
unhold(struct fpmd_status *st, struct fpmd_route *r)
{
    if (r->status_held) {
        r->status_held = false;
        st->n_held--;
    }
}

/* Queues 'r', unless it is queued already. */
static void
enqueue(struct fpmd_status *st, struct fpmd_route *r)
{
    unhold(st, r);
    ROW_QUEUE_PUSH_ONCE(&st->rq, r, r->status_queued);
}

/* Queues 'r' if its row needs a status write (after what it wants or what
 * its row says changed). */
static void
refresh(struct fpmd_status *st, struct fpmd_route *r)
{
    if (in_sync(st, r)) {
        /* If queued, fpmd_status_build() skips it. */
        unhold(st, r);
    } else {
        enqueue(st, r);
    }
}

/* orchd's results. */

/* Takes in a result for 'r': its status should say 'value' ('error'
 * for FPMD_STATUS_ERROR). */
static void
result(struct fpmd_status *st, struct fpmd_route *r,
       enum fpmd_status_value value, const char *error)
{
    want_set(st, r, value, error);
    if (in_sync(st, r)) {
        st->n_unchanged++;
    }
    refresh(st, r);
}

/* orchd programmed 'r' (the content fpmsyncd last sent): its status
 * should say offload=true. */
void
fpmd_status_set_offload(struct fpmd_rib *rib, struct fpmd_route *r)
{
    result(status_of(rib), r, FPMD_STATUS_OFFLOAD, NULL);
}

/* orchd could not program 'r' because of the 'len' bytes at 'error': its
 * status should say error=<error>.  Bytes that are not printable ASCII
 * become '?', so that the text is always valid in a transaction. */
void
fpmd_status_set_error(struct fpmd_rib *rib, struct fpmd_route *r,
                      const char *error, size_t len)
{
    char *text = len ? xmemdup0(error, len) : xstrdup("failed");

    for (char *p = text; *p; p++) {
        if (*p < 0x20 || *p > 0x7e) {
            *p = '?';
        }
    }
    result(status_of(rib), r, FPMD_STATUS_ERROR, text);
    free(text);
}

/* Routes and their rows. */

/* 'r' is withdrawn: its row is going, status and all, and its next
 * announcement waits for a new result. */
static void
status_route_withdrawn(struct fpmd_route *r, void *st)
{
    want_set(st, r, FPMD_STATUS_NONE, NULL);
    unhold(st, r);
}

/* 'r' is being freed (never while it is queued). */
static void
status_route_freed(struct fpmd_route *r, void *st)
{
    ovs_assert(!r->status_queued);
    unhold(st, r);
    want_set(st, r, FPMD_STATUS_NONE, NULL);
    db_set(st, r, FPMD_STATUS_NONE, NULL);
}

/* An insert or a delete of 'r''s row was just taken: the row that the
 * database will hold, if any, has an empty status.  Queues 'r' if it wants
 * a status. */
void
fpmd_status_row_emptied(struct fpmd_rib *rib, struct fpmd_route *r)
{
    struct fpmd_status *st = status_of(rib);

    db_set(st, r, FPMD_STATUS_NONE, NULL);
    refresh(st, r);
}

/* A database load starts: what 'r''s row says is unknown until the load
 * reads it (status_load_route()) or the row is inserted again. */
static void
status_load_begin(struct fpmd_route *r, void *st)
{
    db_set(st, r, FPMD_STATUS_UNKNOWN, NULL);
}

/* The load read 'r''s row 'row', whose status column is there only if the
 * load selected it (the northbound fast path).  Queues 'r' if the row does
 * not say what 'r' wants. */
static void
status_load_route(struct fpmd_route *r, const struct json *row, void *st_)
{
    const struct json *status = shash_find_data(json_object(row), "status");
    enum fpmd_status_value value = FPMD_STATUS_UNKNOWN;
    struct fpmd_status *st = st_;
    const char *error = NULL;

    if (status) {
        const char *offload = ovsdb_wire_map_get_string(status, "offload");

        error = ovsdb_wire_map_get_string(status, "error");
        if (!offload && !error) {
            value = FPMD_STATUS_NONE;
        } else if (offload && !strcmp(offload, "true") && !error) {
            value = FPMD_STATUS_OFFLOAD;
        } else if (error && !offload) {
            value = FPMD_STATUS_ERROR;
        } else {
            /* Both keys, or offload=false: not fpmsyncd's, rewrite. */
            error = NULL;
        }
    }
    db_set(st, r, value, error);
    refresh(st, r);
    if (r->status_db == FPMD_STATUS_OFFLOAD
        && !(r->be.flags & FPMD_F_OFFLOADED)) {
        /* On the northbound fast path no Route.status monitor says which
         * routes are offloaded: the row does, so that zebra's replay of
         * an unchanged route after a restart is answered "offloaded"
         * (orchd sends no result for a route it already holds). */
        fpmd_offload_route_set(st->rib, r);
    }
}

/* How the rib tells the Route.status writer of its routes
 * (fpmd_status_attach() registers it). */
static const struct fpmd_rib_observer status_observer = {
    .route_withdrawn = status_route_withdrawn,
    .route_freed = status_route_freed,
    .load_begin = status_load_begin,
    .load_route = status_load_route,
    .rib_destroyed = status_destroy,
};

/* Transactions. */

/* Returns the number of routes queued for a status write (an upper bound
 * on the mutates the next fpmd_status_build() calls return). */
size_t
fpmd_status_n_pending(const struct fpmd_rib *rib)
{
    return row_queue_n_pending(&status_of(rib)->rq);
}

/* Appends to 's' the map of the keys that make a status say offload=true
 * (if 'error' is NULL) or error=<error>. */
static void
put_status_map(struct ds *s, const char *error)
{
    route_status_put_map(s, error);
}

/* Appends to 'ops', after a comma, the mutate that makes 'r''s Route.status
 * say offload=true (if 'error' is NULL) or error=<error>. */
static void
put_mutate(struct ds *ops, const struct fpmd_rib *rib,
           const struct fpmd_route *r, const char *error)
{
    struct uuid u;

    fpmd_rib_entry_uuid(rib, &r->be, &u);
    if (error) {
        route_status_put_error(ops, &u, error);
    } else {
        route_status_put_offload(ops, &u);
    }
}

/* The error text 'r' wants its status to say, or NULL if it wants none. */
static const char *
want_error(const struct fpmd_status *st, const struct fpmd_route *r)
{
    return (r->status_want == FPMD_STATUS_ERROR
            ? error_find(st, r)->want : NULL);
}

/* The insert of 'r''s row is being built (fpmd_txn_build()): if 'r' has a
 * result to write, appends to 's', after a comma, the "status" column that
 * the new row starts with, records that the row says it, and returns true;
 * otherwise, as fpmd_status_row_emptied(), and returns false.  Under FIB
 * suppression on the fast path most results come before the row is
 * written (fpmsyncd holds its writes while zebra streams), and the status
 * in the insert saves ovsdb-server a mutate a route.  Count the statuses
 * of a committed transaction with fpmd_status_inserts_committed(). */
bool
fpmd_status_put_insert(struct fpmd_rib *rib, struct fpmd_route *r,
                       struct ds *s)
{
    struct fpmd_status *st = status_of(rib);
    const char *error;

    if (r->status_want != FPMD_STATUS_OFFLOAD
        && r->status_want != FPMD_STATUS_ERROR) {
        fpmd_status_row_emptied(rib, r);
        return false;
    }
    error = want_error(st, r);
    ds_put_cstr(s, ",\"status\":");
    put_status_map(s, error);
    db_set(st, r, r->status_want, error);
    /* In sync now: if queued, fpmd_status_build() skips it. */
    unhold(st, r);
    return true;
}

/* A transaction that inserted 'r''s row did not commit: what the row says
 * is unknown.  Queues 'r' if it wants a status. */
void
fpmd_status_row_unknown(struct fpmd_rib *rib, struct fpmd_route *r)
{
    struct fpmd_status *st = status_of(rib);

    db_set(st, r, FPMD_STATUS_UNKNOWN, NULL);
    refresh(st, r);
}

/* A transaction of rows committed, whose inserts carried 'n' statuses
 * (fpmd_status_put_insert()). */
void
fpmd_status_inserts_committed(struct fpmd_rib *rib, size_t n)
{
    struct fpmd_status *st = status_of(rib);

    st->n_written += n;
    st->n_with_row += n;
    COVERAGE_ADD(fpmd_status_write, n);
}

/* Appends the status of 'r', just taken from the queue, to 'txn' and
 * 'ops', and records that its row says it. */
static void
take_route(struct fpmd_rib *rib, struct fpmd_status_txn *txn,
           struct fpmd_route *r, struct ds *ops)
{
    struct fpmd_status *st = status_of(rib);
    const char *error = want_error(st, r);
    struct fpmd_status_key *key = &txn->keys[txn->n++];

    put_mutate(ops, rib, r, error);
    key->prefix = r->prefix;
    key->vrf = r->vrf;
    db_set(st, r, r->status_want, error);
}

/* fpmd_status_build()'s transaction being built: row_queue_take()'s
 * 'aux'. */
struct build_ctx {
    struct fpmd_rib *rib;       /* Whose routes. */
    struct fpmd_status *st;     /* Its Route.status writer. */
    struct fpmd_status_txn *txn; /* The transaction. */
    struct ds *ops;             /* Its operations' text. */
};

/* row_queue_take_cb: takes the status of route 'r_' into the transaction,
 * unless it has nothing to write or its row is not written yet. */
static enum row_queue_verdict
build_route(void *r_, void *ctx_)
{
    struct build_ctx *ctx = ctx_;
    struct fpmd_status *st = ctx->st;
    struct fpmd_route *r = r_;
    bool taken = false;

    r->status_queued = false;
    if (in_sync(st, r)) {
        /* Withdrawn, or changed back, while it waited. */
    } else if (r->be.db == ROUTE_BATCH_DB_ABSENT) {
        /* Queued again when its row's insert is taken. */
        hold(st, r);
    } else {
        take_route(ctx->rib, ctx->txn, r, ctx->ops);
        taken = true;
    }
    fpmd_route_maybe_free(ctx->rib, r);
    return taken ? ROW_QUEUE_TAKE : ROW_QUEUE_SKIP;
}

/* Takes up to 'max_ops' queued statuses as one transaction of mutates and
 * appends them to 'ops', each after a comma, as ovsdb_writer_txn_start()
 * wants them.  Returns the number of mutates, 0 if there is nothing to
 * write (or the database is not read yet).  Complete the transaction with
 * fpmd_status_reply(). */
size_t
fpmd_status_build(struct fpmd_rib *rib, size_t max_ops, struct ds *ops)
{
    struct fpmd_status *st = status_of(rib);
    struct fpmd_status_txn *txn;
    struct build_ctx ctx;

    ovs_assert(max_ops > 0);
    if (!rib->loaded || !row_queue_n_pending(&st->rq)) {
        return 0;
    }
    txn = xzalloc(sizeof *txn);
    txn->keys = xmalloc(MIN(max_ops, row_queue_n_pending(&st->rq))
                        * sizeof *txn->keys);
    ctx = (struct build_ctx) {
        .rib = rib, .st = st, .txn = txn, .ops = ops,
    };
    row_queue_take(&st->rq, max_ops, build_route, &ctx);
    if (!txn->n) {
        free(txn->keys);
        free(txn);
        return 0;
    }
    row_queue_txn_sent(&st->rq, &txn->rq, txn->n);
    return txn->n;
}

/* Completes the oldest transaction fpmd_status_build() made with the
 * writer's 'reply'.  Returns true if it committed.  Otherwise what the
 * rows of its routes say becomes unknown and each route that wants a
 * status is queued again; for a transaction the database refused, a
 * description is appended to 'errors'. */
bool
fpmd_status_reply(struct fpmd_rib *rib,
                  const struct ovsdb_writer_reply *reply, struct ds *errors)
{
    bool ok = reply->result == OVSDB_WRITER_SUCCESS;
    struct fpmd_status *st = status_of(rib);
    struct row_queue_txn *rq = row_queue_oldest(&st->rq);
    struct fpmd_status_txn *txn;

    ovs_assert(rq);
    txn = CONTAINER_OF(rq, struct fpmd_status_txn, rq);
    ovs_assert(txn->n == reply->n_ops);
    row_queue_txn_done(&st->rq, rq, ok);

    if (ok) {
        const struct json *results = reply->results;

        st->n_written += txn->n;
        COVERAGE_ADD(fpmd_status_write, txn->n);
        for (size_t i = 0; i < txn->n; i++) {
            if (results && results->type == JSON_ARRAY
                && i < json_array(results)->n
                && !ovsdb_wire_result_count(json_array(results)->elems[i])) {
                st->n_no_row++;
            }
        }
    } else {
        if (reply->result == OVSDB_WRITER_ERROR && reply->error) {
            ds_put_cstr(errors, reply->error);
        }
        for (size_t i = 0; i < txn->n; i++) {
            const struct fpmd_status_key *key = &txn->keys[i];
            struct fpmd_route *r = fpmd_route_find(rib, key->vrf,
                                                   &key->prefix);

            if (r) {
                db_set(st, r, FPMD_STATUS_UNKNOWN, NULL);
                if (!in_sync(st, r)) {
                    st->n_requeued++;
                    COVERAGE_INC(fpmd_status_requeued);
                    unhold(st, r);
                    ROW_QUEUE_REQUEUE_ONCE(&st->rq, r, r->status_queued);
                }
            }
        }
    }
    free(txn->keys);
    free(txn);
    return ok;
}

/* Introspection. */

/* Appends zmq/show's lines about the Route.status writes to 's'. */
void
fpmd_status_format(const struct fpmd_rib *rib, struct ds *s)
{
    const struct fpmd_status *st = status_of(rib);

    ds_put_format(s, "Route.status: %"PRIu64" written, %"PRIuSIZE
                  " waiting (%"PRIuSIZE" for their row), %"PRIuSIZE
                  " in flight\n", st->n_written,
                  row_queue_n_pending(&st->rq) + st->n_held, st->n_held,
                  st->rq.n_inflight_ops);
    ds_put_format(s, "Route.status writes: %"PRIu64" transactions, %"PRIu64
                  " results unchanged, %"PRIu64" requeued, %"PRIu64
                  " found no row, %"PRIu64" with their row's insert\n",
                  st->rq.stats.n_txns, st->n_unchanged, st->n_requeued,
                  st->n_no_row, st->n_with_row);
}
