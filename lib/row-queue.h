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

#ifndef ROW_QUEUE_H
#define ROW_QUEUE_H 1

/* row-queue: the write-behind queue of fibsync's OVSDB writers.
 *
 * Six writers write rows behind what their daemon does, each through a
 * lib/ovsdb-writer.h connection: fpmsyncd its Route rows
 * (lib/route-batch.h) and, on the northbound fast path, their
 * Route.status (daemons/fpmsyncd/fpmsyncd-status.c); orchd Route.status on
 * the OVSDB path (daemons/orchd/orchd-status.c) and Asic_Route behind the
 * southbound fast path (daemons/orchd/orchd-writebehind.c); syncd each
 * Asic_Route row's outcome (daemons/syncd/syncd-writeback.c) and
 * Route.counters (daemons/syncd/syncd-counters.c).  They share one
 * mechanism, which is this module; each keeps only its decisions (what to
 * write for an object) and its operation text.
 *
 * Two use only its transactions in flight and keep queues of their own,
 * because theirs hold something other than objects with a queued bit:
 * orchd-writebehind's ring holds write values (a million wait while it
 * yields, coalesced by their position: a pointer each would cost an
 * allocation a write), and syncd-writeback's queue holds row keys (a row
 * may be freed while queued, and a pointer queue cannot drop it).
 * lib/route-batch.h is built on the whole of it, adding its own choice of
 * insert, update or delete from an optimistic believed database state.
 *
 * Queued objects
 * ==============
 *
 * An object to write (a route, a row) is queued at most once: a bit in the
 * object says it is queued (ROW_QUEUE_PUSH_ONCE()), so that changes that
 * come while it waits coalesce, and it is written with what it wants when
 * it is taken, not when it was queued.  Objects are taken in first-change
 * order.  The queue holds pointers (lib/ptr-fifo.h): pushing and popping
 * allocate nothing once the ring is large enough.  An object is not freed
 * while it is queued (its owner checks the bit).
 *
 * Taking a transaction
 * ====================
 *
 * row_queue_take() offers the objects at the front of the queue, oldest
 * first, to the writer's callback, which clears the object's queued bit
 * and either appends its operation to the transaction being built
 * (ROW_QUEUE_TAKE), or drops it from the queue without one (ROW_QUEUE_SKIP:
 * nothing left to write, or not writable yet), or leaves it and everything
 * behind it queued (ROW_QUEUE_STOP, leaving the bit set).  It stops after N
 * objects taken.
 *
 * In flight
 * =========
 *
 * The writer then sends the transaction and hands its header, a 'struct
 * row_queue_txn' embedded in its own record of the transaction, to
 * row_queue_txn_sent().  The record remembers each object taken, by
 * pointer or by key, as the writer's own rule says: by pointer if the
 * object cannot be freed while in flight (route-batch's entries count
 * their transactions in flight; syncd-counters frees a route only after
 * its transaction), by key if it can (fpmsyncd-status's routes, syncd's
 * rows), found again when the reply comes.
 *
 * Replies
 * =======
 *
 * Transactions go over one connection, where ovsdb-server executes them in
 * order, and their replies come in the same order: row_queue_txn_done()
 * completes the oldest in flight (it asserts so).  On commit the objects
 * are done.  On failure or loss, the writer queues again
 * (ROW_QUEUE_REQUEUE_ONCE()) each object that is still there and not
 * superseded (already queued again with a newer change, or written again
 * by a later transaction in flight), by its own rule.  A writer whose
 * writes do not coalesce (orchd-status: each write is an object of its
 * own, never changed) puts them back in front instead, in their order
 * (row_queue_requeue_front()), so that no write overtakes a newer one of
 * the same row.
 *
 * Counters
 * ========
 *
 * 'struct row_queue_stats' counts objects queued, coalesced, taken and
 * requeued, and transactions sent, committed and failed;
 * row_queue_n_pending() and the 'n_inflight...' members are the gauges.
 *
 * Thread safety: none; a queue belongs to one thread. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/ptr-fifo.h"
#include "openvswitch/list.h"

/* Counters, all monotonic. */
struct row_queue_stats {
    uint64_t n_queued;          /* Objects queued (each once). */
    uint64_t n_coalesced;       /* ROW_QUEUE_PUSH_ONCE() of an object
                                 * already queued. */
    uint64_t n_taken;           /* Objects taken into transactions. */
    uint64_t n_skipped;         /* Objects taken from the queue without an
                                 * operation. */
    uint64_t n_requeued;        /* Objects queued again after their
                                 * transaction failed or was lost. */
    uint64_t n_txns;            /* Transactions sent. */
    uint64_t n_committed;       /* Transactions committed... */
    uint64_t n_failed;          /* ...refused or lost. */
};

/* The header of a transaction in flight, embedded in the writer's record
 * of it (which remembers its objects). */
struct row_queue_txn {
    struct ovs_list node;       /* In 'struct row_queue' 'inflight'. */
    size_t n;                   /* Objects it writes. */
};

/* The queue. */
struct row_queue {
    struct ptr_fifo queue;      /* Objects queued, first change first. */
    struct ovs_list inflight;   /* 'struct row_queue_txn's, oldest first. */
    size_t n_inflight;          /* Length of 'inflight'. */
    size_t n_inflight_ops;      /* Objects in 'inflight'. */
    struct row_queue_stats stats; /* Counters. */
};

/* What row_queue_take()'s callback did with the object in front. */
enum row_queue_verdict {
    ROW_QUEUE_TAKE,             /* Took it into the transaction. */
    ROW_QUEUE_SKIP,             /* Dropped it from the queue. */
    ROW_QUEUE_STOP,             /* Left it, and the rest, queued. */
};

/* Called by row_queue_take() with 'obj', the object in front of the
 * queue, still in it: for ROW_QUEUE_TAKE or ROW_QUEUE_SKIP it clears the
 * object's queued bit, and the queue drops it without looking at it again
 * (so the callback may free a skipped object). */
typedef enum row_queue_verdict row_queue_take_cb(void *obj, void *aux);

void row_queue_init(struct row_queue *);
void row_queue_destroy(struct row_queue *);

size_t row_queue_take(struct row_queue *, size_t max,
                      row_queue_take_cb *, void *aux);

void row_queue_txn_sent(struct row_queue *, struct row_queue_txn *,
                        size_t n);
struct row_queue_txn *row_queue_oldest(const struct row_queue *);
void row_queue_txn_done(struct row_queue *, struct row_queue_txn *,
                        bool committed);

/* Returns the number of objects queued (an upper bound on what the next
 * row_queue_take() calls take). */
static inline size_t
row_queue_n_pending(const struct row_queue *q)
{
    return ptr_fifo_len(&q->queue);
}

/* Returns the object in front of the queue, or NULL if it is empty. */
static inline void *
row_queue_front(const struct row_queue *q)
{
    return ptr_fifo_peek(&q->queue);
}

/* Appends 'obj', whose queued bit the caller just set, to the queue. */
static inline void
row_queue_push(struct row_queue *q, void *obj)
{
    ptr_fifo_push(&q->queue, obj);
    q->stats.n_queued++;
}

/* Puts 'obj', whose queued bit the caller just set, in front of the
 * queue: for a writer whose writes are not coalesced (each is an object of
 * its own), so that a write that failed cannot overtake a newer one of the
 * same row. */
static inline void
row_queue_push_front(struct row_queue *q, void *obj)
{
    ptr_fifo_push_front(&q->queue, obj);
    q->stats.n_queued++;
}

/* As row_queue_push_front(), for an object of a transaction that failed:
 * counts it requeued. */
static inline void
row_queue_requeue_front(struct row_queue *q, void *obj)
{
    row_queue_push_front(q, obj);
    q->stats.n_requeued++;
}

/* Removes and returns the object in front of the queue, or NULL if it is
 * empty.  The caller clears its queued bit. */
static inline void *
row_queue_pop(struct row_queue *q)
{
    return ptr_fifo_pop(&q->queue);
}

/* Queues 'OBJ' unless 'QUEUED', its queued bit (an lvalue: a bool or a
 * one-bit field of the object), says it is queued already; sets the bit.
 * Evaluates to true if it queued 'OBJ'.  Evaluates 'QUEUED' twice. */
#define ROW_QUEUE_PUSH_ONCE(Q, OBJ, QUEUED)                     \
    ((QUEUED)                                                   \
     ? ((Q)->stats.n_coalesced++, false)                        \
     : ((QUEUED) = 1, row_queue_push(Q, OBJ), true))

/* As ROW_QUEUE_PUSH_ONCE(), for an object of a transaction that failed:
 * counts it requeued if it was not queued already. */
#define ROW_QUEUE_REQUEUE_ONCE(Q, OBJ, QUEUED)                  \
    ((QUEUED)                                                   \
     ? false                                                    \
     : ((QUEUED) = 1, row_queue_push(Q, OBJ),                   \
        (Q)->stats.n_requeued++, true))

#endif /* row-queue.h */
