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

#include "daemons/orchd/orchd-status.h"

#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-worker.h"
#include "idl/fibsync-idl.h"
#include "lib/ovsdb-writer.h"
#include "lib/route-status.h"
#include "lib/row-queue.h"
#include "openvswitch/json.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovsdb-idl.h"
#include "smap.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(orchd_status);

COVERAGE_DEFINE(orchd_status_write);
COVERAGE_DEFINE(orchd_route_refused);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* Routes a transaction writes at most. */
#define MAX_TXN_ROUTES 5000

/* What one write does to a route's status. */
enum write_kind {
    W_OFFLOAD,                  /* offload=true, no error. */
    W_ERROR,                    /* error=REASON, no offload. */
    W_CLEAR,                    /* No error (an accepted refusal). */
};

/* One route's status write, queued or in flight.  Writes do not coalesce:
 * each is queued once, when it is made, and never changes. */
struct status_write {
    struct uuid route;          /* The Route row. */
    enum write_kind kind;       /* What to write. */
    char *error;                /* W_ERROR's reason (owned). */
};

/* A route orchd refused. */
struct refused_route {
    struct hmap_node node;      /* In 'refused', by uuid_hash(). */
    struct uuid route;          /* The Route row. */
    enum orchd_refusal why;     /* Why. */
    char *error;                /* The error written (owned). */
};

/* The transaction in flight (one at a time). */
struct status_txn {
    struct row_queue_txn rq;    /* In the queue's in-flight list. */
    struct status_write **writes; /* Its writes, in order. */
    size_t n;                   /* Number of 'writes'. */
    size_t allocated;           /* Capacity of 'writes'. */
};

struct orchd_status {
    struct ovsdb_idl *idl;      /* Replica with Route.status, or NULL... */
    struct ovsdb_idl_txn *txn;  /* ...its transaction in flight, or NULL. */
    struct ovsdb_writer *writer; /* Without a replica: raw mutates. */
    struct row_queue rq;        /* 'struct status_write's waiting for a
                                 * transaction, oldest first, and 'sent'
                                 * while it is in flight
                                 * ('rq.n_inflight'). */
    struct status_txn sent;     /* Writes in the transaction in flight. */
    struct hmap refused;        /* Routes refused now. */
    bool muted;                 /* Write nothing: another orchd instance
                                 * owns Route.status. */

    /* Counters. */
    uint64_t n_writes;          /* Routes whose status was written. */
    uint64_t n_refusals[ORCHD_N_REFUSALS]; /* Refusals ever, by reason. */
};

static const char *const refusal_names[ORCHD_N_REFUSALS] = {
    [ORCHD_REFUSE_BAD_PREFIX] = "bad prefix",
    [ORCHD_REFUSE_UNKNOWN_VRF] = "unknown VRF",
};

static struct orchd_status *
status_create(void)
{
    struct orchd_status *st = xzalloc(sizeof *st);

    row_queue_init(&st->rq);
    hmap_init(&st->refused);
    return st;
}

/* Creates a write-back into the Route.status column of 'idl''s replica,
 * which must outlive it. */
struct orchd_status *
orchd_status_create(struct ovsdb_idl *idl)
{
    struct orchd_status *st = status_create();

    st->idl = idl;
    return st;
}

/* Creates a write-back into Route.status at database 'remote' without a
 * replica of Route (orchd-route-monitor.h): each write is a mutate of
 * the row by its UUID, which matches nothing once the row is gone. */
struct orchd_status *
orchd_status_create_raw(const char *remote)
{
    struct orchd_status *st = status_create();

    st->writer = ovsdb_writer_create(remote, "Fibsync");
    return st;
}

static void
write_destroy(struct status_write *w)
{
    free(w->error);
    free(w);
}

/* Frees the writes queued. */
static void
drop_queued(struct orchd_status *st)
{
    struct status_write *w;

    while ((w = row_queue_pop(&st->rq)) != NULL) {
        write_destroy(w);
    }
}

/* Frees the writes of the transaction in flight, which ended. */
static void
drop_sent(struct orchd_status *st)
{
    for (size_t i = 0; i < st->sent.n; i++) {
        write_destroy(st->sent.writes[i]);
    }
    st->sent.n = 0;
}

/* Puts the writes of the transaction in flight, which did not commit, back
 * in front of the queue, in their order. */
static void
requeue_sent(struct orchd_status *st)
{
    for (size_t i = st->sent.n; i-- > 0;) {
        row_queue_requeue_front(&st->rq, st->sent.writes[i]);
    }
    st->sent.n = 0;
}

/* The transaction in flight ended: it 'committed', or not. */
static void
sent_done(struct orchd_status *st, bool committed)
{
    row_queue_txn_done(&st->rq, &st->sent.rq, committed);
}

static void
refused_destroy(struct refused_route *r)
{
    free(r->error);
    free(r);
}

/* Destroys 'st', dropping the writes it has not made. */
void
orchd_status_destroy(struct orchd_status *st)
{
    struct refused_route *r;

    if (!st) {
        return;
    }
    if (st->txn) {
        ovsdb_idl_txn_destroy(st->txn);
    }
    ovsdb_writer_destroy(st->writer);
    drop_sent(st);
    free(st->sent.writes);
    drop_queued(st);
    row_queue_destroy(&st->rq);
    HMAP_FOR_EACH_POP (r, node, &st->refused) {
        refused_destroy(r);
    }
    hmap_destroy(&st->refused);
    free(st);
}

/* Queues a write of 'kind' for 'route', with 'error' (taken) for
 * W_ERROR. */
static void
queue_write(struct orchd_status *st, const struct uuid *route,
            enum write_kind kind, char *error)
{
    struct status_write *w = xmalloc(sizeof *w);

    w->route = *route;
    w->kind = kind;
    w->error = error;
    row_queue_push(&st->rq, w);
}

/* Queues the worker's 'results' (taking them), as
 * orchd_worker_take_results() gives them. */
void
orchd_status_add_results(struct orchd_status *st, struct ovs_list *results)
{
    struct orchd_worker_result *r;

    LIST_FOR_EACH_POP (r, node, results) {
        queue_write(st, &r->route_uuid, r->ok ? W_OFFLOAD : W_ERROR,
                    r->ok ? NULL : xstrdup(r->error ? r->error : "failed"));
        orchd_worker_result_destroy(r);
    }
}

static struct refused_route *
find_refused(const struct orchd_status *st, const struct uuid *route)
{
    struct refused_route *r;

    HMAP_FOR_EACH_WITH_HASH (r, node, uuid_hash(route), &st->refused) {
        if (uuid_equals(&r->route, route)) {
            return r;
        }
    }
    return NULL;
}

/* Records that orchd refused 'route' for reason 'why', described by
 * 'error' (taken), and queues the error's write, unless the route was
 * already refused with the same error. */
void
orchd_status_refuse(struct orchd_status *st, const struct uuid *route,
                    enum orchd_refusal why, char *error)
{
    struct refused_route *r = find_refused(st, route);

    if (r && !strcmp(r->error, error)) {
        free(error);
        return;
    }
    if (!r) {
        r = xzalloc(sizeof *r);
        r->route = *route;
        hmap_insert(&st->refused, &r->node, uuid_hash(route));
    }
    VLOG_WARN_RL(&rl, "Route "UUID_FMT" refused: %s", UUID_ARGS(route),
                 error);
    free(r->error);
    r->why = why;
    r->error = error;
    st->n_refusals[why]++;
    COVERAGE_INC(orchd_route_refused);
    queue_write(st, route, W_ERROR, xstrdup(error));
}

/* Notes that orchd accepted 'route' (sent it to the worker): if orchd had
 * refused it, the refusal's error goes from its status.  A failure to
 * program it will write an error of its own. */
void
orchd_status_accept(struct orchd_status *st, const struct uuid *route)
{
    struct refused_route *r;

    if (hmap_is_empty(&st->refused)) {
        return;                 /* The common case, made cheap. */
    }
    r = find_refused(st, route);
    if (r) {
        hmap_remove(&st->refused, &r->node);
        refused_destroy(r);
        queue_write(st, route, W_CLEAR, NULL);
    }
}

/* Forgets 'route', whose row was deleted. */
void
orchd_status_forget(struct orchd_status *st, const struct uuid *route)
{
    struct refused_route *r;

    if (hmap_is_empty(&st->refused)) {
        return;
    }
    r = find_refused(st, route);
    if (r) {
        hmap_remove(&st->refused, &r->node);
        refused_destroy(r);
    }
}

/* Adds to the open transaction the partial mutates that write 'w' into
 * the status of its route, if the route still has a row. */
static void
put_write(struct orchd_status *st, const struct status_write *w)
{
    const struct fibrec_route *route
        = fibrec_route_get_for_uuid(st->idl, &w->route);

    if (!route) {
        return;
    }
    switch (w->kind) {
    case W_OFFLOAD:
        if (!smap_get(&route->status, "offload")) {
            fibrec_route_update_status_setkey(route, "offload", "true");
        }
        if (smap_get(&route->status, "error")) {
            fibrec_route_update_status_delkey(route, "error");
        }
        break;
    case W_ERROR:
        fibrec_route_update_status_setkey(route, "error", w->error);
        if (smap_get(&route->status, "offload")) {
            fibrec_route_update_status_delkey(route, "offload");
        }
        break;
    case W_CLEAR:
    default:
        if (smap_get(&route->status, "error")) {
            fibrec_route_update_status_delkey(route, "error");
        }
        break;
    }
}

/* Appends to 'ops' the mutate that writes 'w' into its route's status:
 * without a replica, what the status holds is not known, so the keys
 * that must go are deleted whether they are there or not. */
static void
put_write_raw(const struct status_write *w, struct ds *ops)
{
    switch (w->kind) {
    case W_OFFLOAD:
        route_status_put_offload(ops, &w->route);
        break;
    case W_ERROR:
        route_status_put_error(ops, &w->route, w->error);
        break;
    case W_CLEAR:
    default:
        route_status_put_clear(ops, &w->route);
        break;
    }
}

/* ovsdb_writer_cb for a transaction of raw writes. */
static void
raw_txn_done(void *st_, const struct ovsdb_writer_reply *reply)
{
    struct orchd_status *st = st_;

    sent_done(st, reply->result == OVSDB_WRITER_SUCCESS);
    if (reply->result == OVSDB_WRITER_LOST) {
        /* Try again with the next transaction. */
        VLOG_WARN_RL(&rl, "Route.status write-back lost (%s); writing it "
                     "again", reply->error);
        requeue_sent(st);
        return;
    } else if (reply->result == OVSDB_WRITER_ERROR) {
        /* The same writes would be refused again. */
        VLOG_WARN_RL(&rl, "Route.status write-back refused: %s",
                     reply->error);
    }
    drop_sent(st);
}

/* take_writes()'s argument: what to do with each write taken. */
struct take_ctx {
    struct orchd_status *st;    /* The write-back. */
    struct ds *ops;             /* Without a replica: the operations. */
};

/* row_queue_take_cb: adds write 'w_' to the transaction being built. */
static enum row_queue_verdict
take_write(void *w_, void *ctx_)
{
    struct take_ctx *ctx = ctx_;
    struct status_txn *sent = &ctx->st->sent;
    struct status_write *w = w_;

    if (sent->n >= sent->allocated) {
        sent->writes = x2nrealloc(sent->writes, &sent->allocated,
                                  sizeof *sent->writes);
    }
    sent->writes[sent->n++] = w;
    if (ctx->ops) {
        put_write_raw(w, ctx->ops);
    } else {
        put_write(ctx->st, w);
    }
    return ROW_QUEUE_TAKE;
}

/* Takes up to MAX_TXN_ROUTES writes into the transaction being built, as
 * text appended to 'ops' or, if 'ops' is NULL, into the replica's open
 * transaction, and records it in flight.  Returns the number taken. */
static size_t
take_writes(struct orchd_status *st, struct ds *ops)
{
    struct take_ctx ctx = { .st = st, .ops = ops };
    size_t n = row_queue_take(&st->rq, MAX_TXN_ROUTES, take_write, &ctx);

    row_queue_txn_sent(&st->rq, &st->sent.rq, n);
    st->n_writes += n;
    COVERAGE_ADD(orchd_status_write, n);
    return n;
}

/* orchd_status_run() without a replica. */
static void
run_raw(struct orchd_status *st)
{
    struct ds ops;
    size_t n;

    ovsdb_writer_run(st->writer);
    if (st->rq.n_inflight || !row_queue_n_pending(&st->rq)) {
        return;
    }
    ovsdb_writer_txn_start(st->writer, &ops);
    n = take_writes(st, &ops);
    ovsdb_writer_commit_ds(st->writer, &ops, n, raw_txn_done, st);
}

/* Makes 'st' keep its bookkeeping (refusals, counters) but write nothing
 * into Route.status: orchd instances other than 0 share Route with
 * instance 0, which alone writes its status (docs/RELIABILITY.md,
 * "Several ASIC instances"). */
void
orchd_status_mute(struct orchd_status *st)
{
    st->muted = true;
}

/* Ends the transaction in flight if it is done, then starts the next one
 * if writes are queued. */
void
orchd_status_run(struct orchd_status *st)
{
    if (st->muted) {
        drop_queued(st);
        return;
    }
    if (st->writer) {
        run_raw(st);
        return;
    }
    if (st->txn) {
        enum ovsdb_idl_txn_status s = ovsdb_idl_txn_commit(st->txn);

        if (s == TXN_INCOMPLETE) {
            return;
        }
        if (s == TXN_SUCCESS || s == TXN_UNCHANGED) {
            sent_done(st, true);
            drop_sent(st);
        } else {
            /* Try again with the next transaction. */
            VLOG_WARN_RL(&rl, "Route.status write-back: %s",
                         ovsdb_idl_txn_status_to_string(s));
            sent_done(st, false);
            requeue_sent(st);
        }
        ovsdb_idl_txn_destroy(st->txn);
        st->txn = NULL;
    }

    if (!row_queue_n_pending(&st->rq)) {
        return;
    }
    st->txn = ovsdb_idl_txn_create(st->idl);
    take_writes(st, NULL);
    ovsdb_idl_txn_commit(st->txn);
}

/* Makes the poll loop wake when orchd_status_run() has work. */
void
orchd_status_wait(struct orchd_status *st)
{
    if (st->writer) {
        ovsdb_writer_wait(st->writer);
        if (!st->rq.n_inflight && row_queue_n_pending(&st->rq)) {
            poll_immediate_wake();
        }
    } else if (st->txn) {
        ovsdb_idl_txn_wait(st->txn);
    } else if (row_queue_n_pending(&st->rq)) {
        poll_immediate_wake();
    }
}

/* Appends the counters to 's', for "orchd/status". */
void
orchd_status_format(const struct orchd_status *st, struct ds *s)
{
    uint64_t ever = 0;

    for (int i = 0; i < ORCHD_N_REFUSALS; i++) {
        ever += st->n_refusals[i];
    }
    ds_put_format(s, "refused: %"PRIuSIZE" (ever %"PRIu64":",
                  hmap_count(&st->refused), ever);
    for (int i = 0; i < ORCHD_N_REFUSALS; i++) {
        ds_put_format(s, "%s %s %"PRIu64, i ? "," : "", refusal_names[i],
                      st->n_refusals[i]);
    }
    ds_put_cstr(s, ")\n");
    ds_put_format(s, "Route.status keys written: %"PRIu64"%s\n", st->n_writes,
                  st->muted ? " (none: instance 0 writes Route.status)" : "");
}
