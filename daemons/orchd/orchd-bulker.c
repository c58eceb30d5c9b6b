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
 * orchd-bulker: desired route states into SAI bulks, with a window of
 * outstanding bulks and acknowledgement matching by sequence number.
 */

#include <config.h>

#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-bulker-private.h"

#include <stdlib.h>

#include "daemons/orchd/orchd-entry.h"
#include "lib/hmap-prefetch.h"
#include "openvswitch/dynamic-string.h"
#include "timeval.h"
#include "util.h"

/* Asks the CPU to bring in, ahead of a call that looks route 'key' up,
 * the hash bucket where its state would be or, if 'chain', the first
 * state the bucket points to (whose address is known once the bucket is
 * in): at a million routes each is a cache miss, which the caller hides
 * by asking for a group of routes' buckets, then their chains, then
 * looking them up. */
void
orchd_bulker_prefetch(const struct orchd_bulker *b, const struct uuid *key,
                      bool chain)
{
    hmap_prefetch(&b->routes, bulker_key_hash(key), chain);
}

/* Returns the state of route 'key', created empty if there is none. */
static struct orchd_route_state *
get_state(struct orchd_bulker *b, const struct uuid *key)
{
    struct orchd_route_state *st = bulker_find_state(b, key);

    if (!st) {
        st = xzalloc(sizeof *st);
        st->key = *key;
        ovs_list_init(&st->waiting);
        hmap_insert_sparse(&b->routes, &st->node, bulker_key_hash(key));
    }
    return st;
}

/* Creates a bulker with configuration 'cfg' that calls 'cbs' with
 * 'aux'. */
struct orchd_bulker *
orchd_bulker_create(const struct orchd_bulker_config *cfg,
                    const struct orchd_bulker_cbs *cbs, void *aux)
{
    struct orchd_bulker *b = xzalloc(sizeof *b);

    orchd_bulker_set_config(b, cfg);
    b->cbs = *cbs;
    b->aux = aux;
    hmap_init(&b->routes);
    ovs_list_init(&b->pending);
    ovs_list_init(&b->outstanding);
    b->next_seq = 1;
    b->next_bulk_id = 1;
    return b;
}

/* Frees 'b' with every bulk and route state it holds, without calling
 * any callback. */
void
orchd_bulker_destroy(struct orchd_bulker *b)
{
    struct orchd_route_state *st;
    struct orchd_bulk *bulk;

    if (!b) {
        return;
    }
    LIST_FOR_EACH_POP (bulk, node, &b->outstanding) {
        bulker_free_bulk(bulk);
    }
    HMAP_FOR_EACH_POP (st, node, &b->routes) {
        orchd_entry_unref(st->written);
        orchd_entry_unref(st->programmed);
        if (st->pending) {
            orchd_entry_unref(st->desired);
        }
        free(st);
    }
    hmap_destroy(&b->routes);
    free(b);
}

/* Applies 'cfg' from the next bulk on; zero sizes count as 1. */
void
orchd_bulker_set_config(struct orchd_bulker *b,
                        const struct orchd_bulker_config *cfg)
{
    b->cfg = *cfg;
    b->cfg.max_bulk = MAX(b->cfg.max_bulk, 1);
    b->cfg.max_outstanding = MAX(b->cfg.max_outstanding, 1);
}

/* Returns the configuration in force. */
const struct orchd_bulker_config *
orchd_bulker_get_config(const struct orchd_bulker *b)
{
    return &b->cfg;
}

/* Records that 'e' is already in the ASIC (at startup, from what the
 * database holds).  If 'settled' is false (the entry's last write was not
 * acknowledged as programmed), a later update with the same content is
 * written again rather than skipped. */
void
orchd_bulker_seed(struct orchd_bulker *b, struct orchd_entry *e,
                  bool settled)
{
    struct orchd_route_state *st = get_state(b, &e->asic_uuid);

    if (settled) {
        bulker_set_programmed(b, st, e);
    }
    bulker_set_written(b, st, e);
    st->failed = !settled;
    bulker_name(b, st);
}

/* Makes the next write sequence number at least 'seq'. */
void
orchd_bulker_set_next_seq(struct orchd_bulker *b, int64_t seq)
{
    b->next_seq = MAX(b->next_seq, seq);
}

/* Wants 'e' programmed (takes ownership of one reference); if 'answer',
 * owes its caller a 'done' even if nothing is written. */
static void
set__(struct orchd_bulker *b, struct orchd_entry *e, bool answer)
{
    struct orchd_route_state *st = get_state(b, &e->asic_uuid);

    b->stats.n_set++;
    st->token = e->token;
    bulker_name(b, st);
    bulker_enqueue(b, st, e);
    if (answer) {
        st->answer_owed = true;
        b->stats.n_answer_asked++;
    }
}

/* Wants 'e' programmed (takes ownership of one reference). */
void
orchd_bulker_set(struct orchd_bulker *b, struct orchd_entry *e)
{
    set__(b, e, false);
}

/* As orchd_bulker_set(), for a caller that waits for the route's 'done'
 * even if 'e' is what is programmed already, and so needs no write (on
 * the northbound fast path, fpmsyncd under FIB suppression: a route
 * changed and changed back before the change reached orchd). */
void
orchd_bulker_set_answer(struct orchd_bulker *b, struct orchd_entry *e)
{
    set__(b, e, true);
}

/* Wants the route 'key' removed. */
void
orchd_bulker_del(struct orchd_bulker *b, const struct uuid *key)
{
    struct orchd_route_state *st = bulker_find_state(b, key);

    b->stats.n_del++;
    if (st) {
        bulker_unname(b, st);
        bulker_enqueue(b, st, NULL);
    }
}

/* Names route 'key' in the current generation as it stands, if it is
 * named at all: a caller that cannot say what a route is now (orchd, for
 * a route waiting for its next-hop group) keeps it from a sweep. */
void
orchd_bulker_keep(struct orchd_bulker *b, const struct uuid *key)
{
    struct orchd_route_state *st = bulker_find_state(b, key);

    if (st && st->named) {
        bulker_name(b, st);
    }
}

/* Removes the entry 'key', which the far end may hold, if no route names
 * it (orchd-asic-mark.h: a row that a database restored from an older
 * copy brought back; orchd-southbound.c: a removal whose result was lost
 * with syncd).  'e', if nonnull, is the entry's content as last sent.
 * Returns true if it queued the removal. */
bool
orchd_bulker_remove_unnamed(struct orchd_bulker *b, const struct uuid *key,
                            const struct orchd_entry *e)
{
    struct orchd_route_state *st = bulker_find_state(b, key);

    if (st && st->named) {
        return false;
    }
    st = get_state(b, key);
    st->unknown = true;
    if (e && !st->written) {
        /* What the far end may hold: the removal names it (a ZeroMQ frame
         * carries a route's VRF and prefix, not its key). */
        bulker_set_written(b, st, orchd_entry_ref(e));
    }
    b->stats.n_del++;
    bulker_enqueue(b, st, NULL);
    return true;
}

/* Starts a new generation: the routes named so far are named by an older
 * one until orchd_bulker_set() names them again. */
void
orchd_bulker_new_generation(struct orchd_bulker *b)
{
    b->gen++;
}

/* Removes every route named, but not in the current generation, as
 * orchd_bulker_del() would.  Returns how many. */
size_t
orchd_bulker_sweep(struct orchd_bulker *b)
{
    struct orchd_route_state *st;
    size_t n = 0;

    HMAP_FOR_EACH (st, node, &b->routes) {
        if (st->named && st->gen != (uint32_t) b->gen) {
            bulker_unname(b, st);
            bulker_enqueue(b, st, NULL);
            b->stats.n_del++;
            n++;
        }
    }
    return n;
}

/* Returns the number of routes named (set or seeded, and neither deleted
 * nor swept since). */
size_t
orchd_bulker_n_named(const struct orchd_bulker *b)
{
    return b->n_named;
}

/* qsort() comparator of sorted bulks: removals first; items with content
 * by VRF and prefix (orchd_entry_compare_prefix()), the others by key. */
static int
item_cmp(const void *a_, const void *b_)
{
    const struct orchd_bulk_item *a = a_, *b = b_;

    /* Removals first: they free resources the creations may need. */
    if ((a->op == ORCHD_BULK_REMOVE) != (b->op == ORCHD_BULK_REMOVE)) {
        return a->op == ORCHD_BULK_REMOVE ? -1 : 1;
    }
    if (a->entry && b->entry) {
        return orchd_entry_compare_prefix(a->entry, b->entry);
    }
    return uuid_compare_3way(&a->key, &b->key);
}

/* Asks the CPU, as the head of 'pending' is taken, for what the next
 * takes will touch: the next route's wanted and written entries (its
 * state came in with the last take's prefetch) and the state after it.
 * At a million routes each is a cache miss; the list gives one address
 * at a time, so this runs one route ahead for the entries and two for
 * the states.  Always inlined, as hmap_prefetch() is: GCC deletes a
 * static function's call whose only effects are prefetches. */
static inline ALWAYS_INLINE void
prefetch_pending(const struct orchd_bulker *b)
{
    const struct ovs_list *next = b->pending.next->next;

    if (next != &b->pending) {
        const struct orchd_route_state *st
            = CONTAINER_OF(next, struct orchd_route_state, pending_node);

        OVS_PREFETCH(st->desired);
        OVS_PREFETCH(st->written);
        if (next->next != &b->pending) {
            const struct orchd_route_state *after
                = CONTAINER_OF(next->next, struct orchd_route_state,
                               pending_node);

            OVS_PREFETCH(after);
            OVS_PREFETCH(&after->pending_node);
        }
    }
}

/* Takes one route off the pending queue and turns it into 'item', if it
 * needs a write.  Returns true if it does. */
static bool
take_pending(struct orchd_bulker *b, struct orchd_bulk_item *item)
{
    struct orchd_route_state *st;
    struct orchd_entry *desired;
    bool answer_owed;

    prefetch_pending(b);
    st = CONTAINER_OF(ovs_list_pop_front(&b->pending),
                      struct orchd_route_state, pending_node);
    desired = st->desired;

    b->n_pending--;
    b->n_taken++;
    st->pending = false;
    st->desired = NULL;
    answer_owed = st->answer_owed;
    st->answer_owed = false;

    memset(item, 0, sizeof *item);
    item->key = st->key;
    if (!desired) {
        if (!st->written && !st->unknown) {
            bulker_maybe_free_state(b, st);
            return false;
        }
        item->op = ORCHD_BULK_REMOVE;
        item->entry = st->written ? orchd_entry_ref(st->written) : NULL;
        b->stats.n_removes++;
        bulker_set_written(b, st, NULL);
    } else {
        bool same = (st->written
                     && orchd_entry_same_content(st->written, desired));

        if (same && !st->unknown && !st->failed) {
            /* Nothing to write.  The caller may keep 'desired' (orchd's
             * route table does): keep it too, rather than a copy of the
             * same content read from Asic_Route at start, so that the two
             * share one entry. */
            b->stats.n_unchanged++;
            if (answer_owed && st->programmed
                && ovs_list_is_empty(&st->waiting)
                && orchd_entry_same_content(st->programmed, desired)) {
                /* Other content was asked for and replaced by this, which
                 * is programmed, or the caller asked: whoever asked waits
                 * for an answer that no write would give (FIB
                 * suppression).  (With a write of it in flight, that
                 * write's acknowledgement answers.) */
                b->stats.n_unchanged_done++;
                b->cbs.done(b->aux, &st->key, desired, true, NULL,
                            st->token);
            }
            if (ovs_list_is_empty(&st->waiting)) {
                /* (Not while a write is in flight: its acknowledgement
                 * finds its route failed by 'written' being its entry.) */
                if (st->programmed == st->written) {
                    bulker_set_programmed(b, st, desired);
                }
                bulker_set_written(b, st, desired);
            } else {
                orchd_entry_unref(desired);
            }
            return false;
        }
        item->op = st->written || st->unknown ? ORCHD_BULK_SET
                                              : ORCHD_BULK_CREATE;
        item->unknown = st->unknown;
        item->resent = same && st->resent;
        b->stats.n_resent += item->resent;
        item->entry = orchd_entry_ref(desired);
        if (item->op == ORCHD_BULK_CREATE) {
            b->stats.n_creates++;
        } else {
            b->stats.n_sets++;
        }
        bulker_set_written(b, st, desired);
    }
    st->unknown = false;
    st->failed = false;
    st->resent = false;
    item->seq = b->next_seq++;
    item->state = st;
    return true;
}

/* Builds and sends bulks while the window has room. */
void
orchd_bulker_run(struct orchd_bulker *b)
{
    while (b->n_outstanding < b->cfg.max_outstanding && b->n_pending
           && (!b->cbs.can_send || b->cbs.can_send(b->aux))) {
        struct orchd_bulk *bulk = xzalloc(sizeof *bulk);
        size_t max = MIN(b->cfg.max_bulk, b->n_pending);

        bulk->items = xmalloc(max * sizeof *bulk->items);
        while (bulk->n_items < b->cfg.max_bulk && b->n_pending) {
            const struct orchd_route_state *next = CONTAINER_OF(
                ovs_list_front(&b->pending), struct orchd_route_state,
                pending_node);
            bool solo = next->solo;

            if (solo && bulk->n_items) {
                break;
            }
            if (take_pending(b, &bulk->items[bulk->n_items])) {
                bulk->n_items++;
            }
            if (solo) {
                break;
            }
        }
        if (!bulk->n_items) {
            free(bulk->items);
            free(bulk);
            continue;
        }
        /* The writes of a bulk are numbered without a gap. */
        bulk->first_seq = bulk->items[0].seq;
        if (b->cfg.sorted) {
            qsort(bulk->items, bulk->n_items, sizeof *bulk->items,
                  item_cmp);
            bulk->by_seq = xmalloc(bulk->n_items * sizeof *bulk->by_seq);
            for (size_t i = 0; i < bulk->n_items; i++) {
                bulk->by_seq[bulk->items[i].seq - bulk->first_seq] = i;
            }
        }
        /* Link the items only now: sorting moves them. */
        for (size_t i = 0; i < bulk->n_items; i++) {
            struct orchd_bulk_item *item = &bulk->items[i];

            item->bulk = bulk;
            ovs_list_push_back(&item->state->waiting, &item->node);
        }
        bulk->id = b->next_bulk_id++;
        bulk->n_waiting = bulk->n_items;
        bulk->start_usec = time_usec();
        ovs_list_push_back(&b->outstanding, &bulk->node);
        b->n_outstanding++;
        b->stats.max_outstanding_seen = MAX(b->stats.max_outstanding_seen,
                                            b->n_outstanding);
        b->stats.n_bulks++;
        b->stats.n_items += bulk->n_items;
        b->cbs.send(b->aux, bulk);
    }
}

/* Returns how many routes were taken off the queue of pending updates so
 * far (see orchd_bulker_resync()). */
uint64_t
orchd_bulker_n_taken(const struct orchd_bulker *b)
{
    return b->n_taken;
}

/* Returns what was last written for route 'key', or NULL. */
const struct orchd_entry *
orchd_bulker_get_written(const struct orchd_bulker *b,
                         const struct uuid *key)
{
    const struct orchd_route_state *st = bulker_find_state(b, key);

    return st ? st->written : NULL;
}

/* Returns what route 'key' last had acknowledged as programmed (or
 * seeded as settled), or NULL: the read cache's entry (orchd-cache.h).
 * A failed write leaves the entry it did not replace. */
const struct orchd_entry *
orchd_bulker_get_programmed(const struct orchd_bulker *b,
                            const struct uuid *key)
{
    const struct orchd_route_state *st = bulker_find_state(b, key);

    return st ? st->programmed : NULL;
}

/* Returns the number of routes with a programmed entry. */
size_t
orchd_bulker_n_programmed(const struct orchd_bulker *b)
{
    return b->n_programmed;
}

/* Calls 'cb' with 'aux' for each programmed entry, in no order. */
void
orchd_bulker_for_each_programmed(const struct orchd_bulker *b,
                                 void (*cb)(void *aux,
                                            const struct orchd_entry *),
                                 void *aux)
{
    const struct orchd_route_state *st;

    HMAP_FOR_EACH (st, node, &b->routes) {
        if (st->programmed) {
            cb(aux, st->programmed);
        }
    }
}

/* Returns the caller's tag of the route that 'item', which must still
 * wait, writes: a word of the route's state that the bulker never reads,
 * 0 when the state is created, found here without a lookup by key. */
uint32_t *
orchd_bulker_item_tag(struct orchd_bulk_item *item)
{
    return &item->state->tag;
}

/* Returns the caller's tag of route 'key' (see orchd_bulker_item_tag()),
 * or NULL if the bulker has no state for it. */
uint32_t *
orchd_bulker_find_tag(struct orchd_bulker *b, const struct uuid *key)
{
    struct orchd_route_state *st = bulker_find_state(b, key);

    return st ? &st->tag : NULL;
}

/* Returns the number of routes with an update waiting for a bulk. */
size_t
orchd_bulker_n_pending(const struct orchd_bulker *b)
{
    return b->n_pending;
}

/* Returns a sequence number at or below that of every write still waiting
 * for its acknowledgement: the first of the oldest bulk outstanding, or
 * the next to be given if none is.  A write numbered below it needs no
 * acknowledgement any more, and every later write is numbered at or above
 * it. */
int64_t
orchd_bulker_oldest_unacked_seq(const struct orchd_bulker *b)
{
    const struct orchd_bulk *bulk;
    int64_t seq = b->next_seq;

    LIST_FOR_EACH (bulk, node, &b->outstanding) {
        seq = MIN(seq, bulk->first_seq);
    }
    return seq;
}

/* Returns the number of bulks sent and not yet fully acknowledged. */
size_t
orchd_bulker_n_outstanding(const struct orchd_bulker *b)
{
    return b->n_outstanding;
}

/* Returns the number of routes with written content. */
size_t
orchd_bulker_n_written(const struct orchd_bulker *b)
{
    return b->n_written;
}

/* Returns true if nothing waits for a bulk or an acknowledgement. */
bool
orchd_bulker_is_idle(const struct orchd_bulker *b)
{
    return !b->n_pending && !b->n_outstanding;
}

/* Copies the counters of 'b' into '*stats'. */
void
orchd_bulker_get_stats(const struct orchd_bulker *b,
                       struct orchd_bulker_stats *stats)
{
    *stats = b->stats;
}

/* Appends the bulker's mode, queue and counters to 's', for
 * orchd/status. */
void
orchd_bulker_format(const struct orchd_bulker *b, struct ds *s)
{
    const struct orchd_bulker_stats *st = &b->stats;

    ds_put_format(s, "mode: %s (window %"PRIuSIZE" bulk%s), bulk size %"
                  PRIuSIZE", %s\n",
                  b->cfg.max_outstanding > 1 ? "async" : "sync",
                  b->cfg.max_outstanding,
                  b->cfg.max_outstanding > 1 ? "s" : "",
                  b->cfg.max_bulk, b->cfg.sorted ? "sorted" : "unsorted");
    ds_put_format(s, "routes written: %"PRIuSIZE", pending: %"PRIuSIZE
                  ", bulks outstanding: %"PRIuSIZE" (most %"PRIuSIZE")\n",
                  b->n_written, b->n_pending, b->n_outstanding,
                  st->max_outstanding_seen);
    ds_put_format(s, "updates: %"PRIu64" set, %"PRIu64" delete, %"PRIu64
                  " coalesced, %"PRIu64" unchanged (%"PRIu64" answered, "
                  "%"PRIu64" answers asked)\n",
                  st->n_set, st->n_del, st->n_coalesced, st->n_unchanged,
                  st->n_unchanged_done, st->n_answer_asked);
    ds_put_format(s, "bulks: %"PRIu64" with %"PRIu64" writes (%"PRIu64
                  " create, %"PRIu64" set, %"PRIu64" remove), %"PRIu64
                  " failed to send\n",
                  st->n_bulks, st->n_items, st->n_creates, st->n_sets,
                  st->n_removes, st->n_send_failures);
    if (st->n_resent) {
        ds_put_format(s, "resent unchanged after a resync: %"PRIu64"\n",
                      st->n_resent);
    }
    if (st->n_refused) {
        ds_put_format(s, "bulks refused whole by the database: %"PRIu64
                      " (their writes sent again one a bulk)\n",
                      st->n_refused);
    }
    ds_put_format(s, "acks: %"PRIu64" programmed, %"PRIu64" failed, %"
                  PRIu64" superseded, %"PRIu64" stale\n",
                  st->n_acked, st->n_failed, st->n_superseded,
                  st->n_stale_acks);
}
