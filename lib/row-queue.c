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
#include "lib/row-queue.h"

#include <string.h>

#include "util.h"

/* Initializes 'q', empty.  It allocates nothing until the first push. */
void
row_queue_init(struct row_queue *q)
{
    ptr_fifo_init(&q->queue);
    ovs_list_init(&q->inflight);
    q->n_inflight = q->n_inflight_ops = 0;
    memset(&q->stats, 0, sizeof q->stats);
}

/* Frees the queue's ring.  The objects, and the records of the
 * transactions in flight, are the caller's: it frees those first. */
void
row_queue_destroy(struct row_queue *q)
{
    ptr_fifo_destroy(&q->queue);
    ovs_list_init(&q->inflight);
    q->n_inflight = q->n_inflight_ops = 0;
}

/* Offers the objects in front of 'q', oldest first, to 'cb' with 'aux'
 * (see row_queue_take_cb), until it took 'max' of them, stopped, or the
 * queue is empty.  Returns the number it took. */
size_t
row_queue_take(struct row_queue *q, size_t max, row_queue_take_cb *cb,
               void *aux)
{
    size_t n = 0;
    void *obj;

    while (n < max && (obj = ptr_fifo_peek(&q->queue)) != NULL) {
        enum row_queue_verdict v = cb(obj, aux);

        if (v == ROW_QUEUE_STOP) {
            break;
        }
        ptr_fifo_pop(&q->queue);
        if (v == ROW_QUEUE_TAKE) {
            n++;
        } else {
            q->stats.n_skipped++;
        }
    }
    q->stats.n_taken += n;
    return n;
}

/* Records that the transaction whose header is 'txn', of 'n' objects, was
 * sent: it is the newest in flight. */
void
row_queue_txn_sent(struct row_queue *q, struct row_queue_txn *txn, size_t n)
{
    txn->n = n;
    ovs_list_push_back(&q->inflight, &txn->node);
    q->n_inflight++;
    q->n_inflight_ops += n;
    q->stats.n_txns++;
}

/* Returns the oldest transaction in flight, or NULL. */
struct row_queue_txn *
row_queue_oldest(const struct row_queue *q)
{
    return (ovs_list_is_empty(&q->inflight) ? NULL
            : CONTAINER_OF(ovs_list_front(&q->inflight),
                           struct row_queue_txn, node));
}

/* Records that 'txn', which must be the oldest in flight, ended: it
 * 'committed', or it was refused or lost.  The caller then handles its
 * objects (requeueing those a failure leaves unwritten) and frees its
 * record. */
void
row_queue_txn_done(struct row_queue *q, struct row_queue_txn *txn,
                   bool committed)
{
    ovs_assert(txn == row_queue_oldest(q));
    ovs_list_remove(&txn->node);
    q->n_inflight--;
    q->n_inflight_ops -= txn->n;
    if (committed) {
        q->stats.n_committed++;
    } else {
        q->stats.n_failed++;
    }
}
