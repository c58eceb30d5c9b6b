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
 * orchd-bulker-outcome: what became of the bulks the bulker sent: sent or
 * not, refused whole, a change that found no entry, each write's
 * acknowledgement, and the resyncs after the far end lost them
 * (orchd-bulker.h).
 */

#include <config.h>

#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-bulker-private.h"

#include "daemons/orchd/orchd-entry.h"
#include "util.h"

/* Removes 'bulk' from the window once nothing in it is waiting. */
static void
maybe_finish_bulk(struct orchd_bulker *b, struct orchd_bulk *bulk)
{
    if (!bulk->n_waiting && bulk->sent) {
        ovs_list_remove(&bulk->node);
        b->n_outstanding--;
        bulker_free_bulk(bulk);
    }
}

/* Completes 'item': takes it off its route's list of writes waiting for
 * an acknowledgement, and off its bulk's count. */
static void
complete_item(struct orchd_bulk_item *item)
{
    ovs_list_remove(&item->node);
    item->acked = true;
    item->bulk->n_waiting--;
}

/* Completes, as superseded, the writes of route 'st' older than removal
 * 'removal', which is done as it is sent: a late acknowledgement of one
 * of them (the far end applies them in order, and then the removal) must
 * not make the removed route programmed again, nor keep its state. */
static void
supersede_older(struct orchd_bulker *b, struct orchd_route_state *st,
                const struct orchd_bulk_item *removal)
{
    struct orchd_bulk_item *old;

    LIST_FOR_EACH_SAFE (old, node, &st->waiting) {
        struct orchd_bulk *bulk = old->bulk;

        if (old->seq >= removal->seq) {
            break;
        }
        complete_item(old);
        b->stats.n_superseded++;
        maybe_finish_bulk(b, bulk);
    }
}

/* Reports whether sending 'bulk' worked.  On success, removals are done
 * (their rows are gone); the rest wait for acknowledgements.  On failure,
 * every write of the bulk is queued again, marked as of unknown outcome. */
void
orchd_bulker_sent(struct orchd_bulker *b, struct orchd_bulk *bulk, bool ok)
{
    for (size_t i = 0; i < bulk->n_items; i++) {
        struct orchd_bulk_item *item = &bulk->items[i];
        struct orchd_route_state *st = item->state;

        if (item->acked) {
            continue;
        }
        if (ok) {
            st->solo = false;
            if (item->op == ORCHD_BULK_REMOVE) {
                supersede_older(b, st, item);
                complete_item(item);
                b->stats.n_acked++;
                bulker_set_programmed(b, st, NULL);
                b->cbs.done(b->aux, &item->key, NULL, true, NULL, 0);
                bulker_maybe_free_state(b, st);
            }
            continue;
        }

        complete_item(item);
        st->unknown = true;
        if (!st->pending && ovs_list_is_empty(&st->waiting)) {
            /* Try again with the content this write wanted, unless a
             * newer write already replaced it. */
            bulker_set_written(b, st, NULL);
            bulker_enqueue(b, st, (item->op == ORCHD_BULK_REMOVE ? NULL
                            : orchd_entry_ref(item->entry)));
        } else if (ovs_list_is_empty(&st->waiting)) {
            bulker_set_written(b, st, NULL);
        }
    }
    if (!ok) {
        b->stats.n_send_failures++;
    }
    bulk->sent = true;
    maybe_finish_bulk(b, bulk);
}

/* Reports that the server refused 'bulk' whole: an operation failed (a
 * row written by hand under one of the bulk's keys, say), so none was
 * applied, and the same writes sent again would be refused again.  A
 * bulk of several writes is queued again as orchd_bulker_sent() queues a
 * failed one, each write marked to go out in a bulk of its own, so that
 * the others go through and the one at fault is found.  A write refused
 * alone fails: 'done' reports it with 'error', and it is not sent again
 * until its route is set again. */
void
orchd_bulker_refused(struct orchd_bulker *b, struct orchd_bulk *bulk,
                     const char *error)
{
    struct orchd_bulk_item *item = &bulk->items[0];
    struct orchd_route_state *st = item->state;

    b->stats.n_refused++;
    if (bulk->n_items > 1) {
        for (size_t i = 0; i < bulk->n_items; i++) {
            bulk->items[i].state->solo = true;
        }
        orchd_bulker_sent(b, bulk, false);
        return;
    }
    if (!item->acked) {
        complete_item(item);
        st->solo = false;
        st->unknown = true;
        if (ovs_list_is_empty(&st->waiting)) {
            bulker_set_written(b, st, NULL);
        }
        if (item->op != ORCHD_BULK_REMOVE) {
            st->failed = true;
            b->stats.n_failed++;
            b->cbs.done(b->aux, &item->key, item->entry, false, error,
                        bulker_answer_token(st, item->entry));
        }
    }
    b->stats.n_send_failures++;
    bulk->sent = true;
    maybe_finish_bulk(b, bulk);
}

/* Reports that 'item', a write of unknown outcome sent as a change of an
 * existing entry, found no entry: it is queued again as a creation.  Call
 * it before orchd_bulker_sent() for the item's bulk. */
void
orchd_bulker_missing(struct orchd_bulker *b, struct orchd_bulk_item *item)
{
    struct orchd_route_state *st = item->state;

    if (item->acked) {
        return;
    }
    complete_item(item);
    if (ovs_list_is_empty(&st->waiting)) {
        bulker_set_written(b, st, NULL);
        st->unknown = false;
        if (!st->pending) {
            bulker_enqueue(b, st, orchd_entry_ref(item->entry));
        }
    }
}

static void ack_route(struct orchd_bulker *, struct orchd_route_state *,
                      int64_t applied_seq, bool ok, const char *error);

/* Reports that the route 'key' has had write 'applied_seq' applied, with
 * outcome 'ok' ('error' says why not).  Completes that write and any older
 * write of the same route still waiting. */
void
orchd_bulker_ack(struct orchd_bulker *b, const struct uuid *key,
                 int64_t applied_seq, bool ok, const char *error)
{
    struct orchd_route_state *st = bulker_find_state(b, key);

    if (!st) {
        b->stats.n_stale_acks++;
        return;
    }
    ack_route(b, st, applied_seq, ok, error);
}

/* Acknowledges 'item', a write still waiting (orchd_bulker_find_seq()),
 * as orchd_bulker_ack() does its route's write numbered item->seq,
 * without looking its route up.  'item' may be freed on return. */
void
orchd_bulker_ack_write(struct orchd_bulker *b, struct orchd_bulk_item *item,
                       bool ok, const char *error)
{
    ovs_assert(!item->acked);
    ack_route(b, item->state, item->seq, ok, error);
}

/* Acknowledges write 'applied_seq' of the route whose state is 'st', and
 * any older write of it still waiting (see orchd_bulker_ack()). */
static void
ack_route(struct orchd_bulker *b, struct orchd_route_state *st,
          int64_t applied_seq, bool ok, const char *error)
{
    const struct uuid *key = &st->key;
    struct orchd_bulk_item *item;
    bool matched = false;

    LIST_FOR_EACH_SAFE (item, node, &st->waiting) {
        struct orchd_bulk *bulk = item->bulk;

        if (item->seq > applied_seq) {
            break;
        }
        if (item->op == ORCHD_BULK_REMOVE) {
            /* orchd_bulker_sent() completes a removal, but this ack, for a
             * later write, overtook its notification: the far end applied
             * the removal first.  It is done, superseded by the write
             * acknowledged (its late notification must not take that
             * write's programmed entry away). */
            complete_item(item);
            b->stats.n_superseded++;
            maybe_finish_bulk(b, bulk);
            continue;
        }
        matched = true;
        complete_item(item);
        if (item->seq == applied_seq) {
            if (ok) {
                b->stats.n_acked++;
                bulker_set_programmed(b, st, item->entry);
            } else {
                b->stats.n_failed++;
                if (st->written == item->entry) {
                    st->failed = true;
                }
            }
            if (st->written == item->entry) {
                /* The last write's outcome is known: an older write that
                 * failed to go out needs no retry. */
                st->unknown = false;
            }
            b->cbs.done(b->aux, key, item->entry, ok, error,
                        bulker_answer_token(st, item->entry));
        } else {
            b->stats.n_superseded++;
        }
        maybe_finish_bulk(b, bulk);
    }
    if (!matched) {
        b->stats.n_stale_acks++;
    }
    if (st->unknown && !st->pending && ovs_list_is_empty(&st->waiting)) {
        /* A newer write failed to go out while this one waited
         * (orchd_bulker_sent()): try its content again now, as that
         * function does when nothing waits. */
        struct orchd_entry *retry = (st->written
                                     ? orchd_entry_ref(st->written) : NULL);

        bulker_set_written(b, st, NULL);
        bulker_enqueue(b, st, retry);
    }
    bulker_maybe_free_state(b, st);
}

/* Returns the item of write 'seq' among the bulks outstanding, without
 * reading it, or NULL. */
static struct orchd_bulk_item *
item_of_seq(const struct orchd_bulker *b, int64_t seq)
{
    struct orchd_bulk *bulk;

    LIST_FOR_EACH (bulk, node, &b->outstanding) {
        if (seq >= bulk->first_seq
            && seq - bulk->first_seq < (int64_t) bulk->n_items) {
            size_t ofs = seq - bulk->first_seq;

            return &bulk->items[bulk->by_seq ? bulk->by_seq[ofs] : ofs];
        }
    }
    return NULL;
}

/* Returns the write numbered 'seq' if it is still waiting for its
 * acknowledgement, or NULL, found by its number alone: the outstanding
 * bulks are few (at most the window), and each holds the writes numbered
 * from its 'first_seq' without a gap. */
struct orchd_bulk_item *
orchd_bulker_find_seq(const struct orchd_bulker *b, int64_t seq)
{
    struct orchd_bulk_item *item = item_of_seq(b, seq);

    return item && !item->acked ? item : NULL;
}

/* Prefetches, in three stages of a group of results (see
 * orchd_bulker_prefetch()), what acknowledging write 'seq' will touch:
 * stage 0 its item, stage 1 its entry and its route's state, stage 2 the
 * entry the route last had programmed (which the acknowledgement
 * replaces, dropping its reference).  Does nothing for a write not
 * waiting. */
void
orchd_bulker_prefetch_result(const struct orchd_bulker *b, int64_t seq,
                             int stage)
{
    struct orchd_bulk_item *item;

    if (stage == 0) {
        OVS_PREFETCH(item_of_seq(b, seq));
    } else {
        item = orchd_bulker_find_seq(b, seq);
        if (!item) {
            return;
        } else if (stage == 1) {
            OVS_PREFETCH(item->entry);
            OVS_PREFETCH(item->state);
        } else {
            OVS_PREFETCH(item->state->programmed);
        }
    }
}

/* The far end lost every write it was sent (it restarted): forgets every
 * bulk outstanding, whose writes are not reported, and queues every route
 * that has written content to be written again, even if unchanged.  Call
 * it only when every bulk sent was reported with orchd_bulker_sent().
 *
 * Returns a mark: once orchd_bulker_n_taken() reaches it, every route
 * queued (by the resync, or before it) has gone into a bulk. */
uint64_t
orchd_bulker_resync(struct orchd_bulker *b)
{
    struct orchd_bulk *bulk;
    struct orchd_route_state *st;

    /* Which routes' content was acknowledged as programmed: nothing of
     * theirs waiting or pending, and the last outcome a success. */
    HMAP_FOR_EACH (st, node, &b->routes) {
        st->resent = (st->written && !st->unknown && !st->failed
                      && !st->pending && ovs_list_is_empty(&st->waiting));
    }

    LIST_FOR_EACH_POP (bulk, node, &b->outstanding) {
        for (size_t i = 0; i < bulk->n_items; i++) {
            struct orchd_bulk_item *item = &bulk->items[i];

            if (!item->acked) {
                ovs_list_remove(&item->node);
                item->acked = true;
                b->stats.n_superseded++;
            }
        }
        bulker_free_bulk(bulk);
    }
    b->n_outstanding = 0;

    HMAP_FOR_EACH_SAFE (st, node, &b->routes) {
        if (st->written) {
            /* A write even of unchanged content. */
            st->failed = true;
            if (!st->pending) {
                bulker_enqueue(b, st, orchd_entry_ref(st->written));
            }
        } else {
            bulker_maybe_free_state(b, st);
        }
    }
    return b->n_taken + b->n_pending;
}

/* As orchd_bulker_resync(), for a far end that lost what it was told but
 * kept an older copy of it (a database restored from a backup: see
 * orchd-asic-mark.h): no entry's existence is known, so each write is
 * an update that creates the entry if it finds none, and each route
 * neither named nor written is removed again in case the copy holds it. */
void
orchd_bulker_resync_lost(struct orchd_bulker *b)
{
    struct orchd_route_state *st;

    HMAP_FOR_EACH (st, node, &b->routes) {
        st->unknown = true;
    }
    orchd_bulker_resync(b);
    HMAP_FOR_EACH (st, node, &b->routes) {
        if (!st->named && !st->written && !st->pending) {
            bulker_enqueue(b, st, NULL);
        }
    }
}
