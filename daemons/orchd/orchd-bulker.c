/*
 * orchd-bulker: desired route states into SAI bulks, with a window of
 * outstanding bulks and acknowledgement matching by sequence number.
 */

#include <config.h>

#include "daemons/orchd/orchd-bulker.h"

#include <stdlib.h>

#include "daemons/orchd/orchd-entry.h"
#include "lib/hmap-prefetch.h"
#include "openvswitch/dynamic-string.h"
#include "timeval.h"
#include "util.h"

/* What the bulker knows of one route.  There is one for each route of a
 * table (a million of them), so the members are laid out without holes:
 * 104 bytes, in jemalloc's 112-byte class.  ('programmed' took the place
 * of a node in a read cache of its own, a second hash table of the same
 * keys: 40 bytes a route and a lookup for each acknowledgement.) */
struct orchd_route_state {
    struct hmap_node node;      /* In 'routes', by hash of 'key'. */
    struct uuid key;            /* Route key. */
    struct orchd_entry *written; /* Content last written, NULL if none. */
    struct orchd_entry *programmed; /* Content last acknowledged as
                                     * programmed (or seeded as settled),
                                     * NULL if none: the read cache
                                     * (orchd-cache.h). */
    struct orchd_entry *desired; /* If pending: wanted content, or NULL to
                                  * remove. */
    struct ovs_list waiting;    /* Items awaiting acknowledgement, by seq. */
    struct ovs_list pending_node; /* In 'pending', oldest first. */
    uint32_t gen;               /* The generation that last named it (see
                                 * "Generations" in orchd-bulker.h): the
                                 * low 32 bits of the bulker's 'gen', only
                                 * ever compared with them for equality. */
    uint32_t tag;               /* The caller's (orchd_bulker_item_tag()),
                                 * 0 when created. */
    bool unknown;               /* A write was lost: existence unknown. */
    bool failed;                /* The last acknowledged write failed. */
    bool resent;                /* Queued by orchd_bulker_resync() with
                                 * 'written', which was acknowledged as
                                 * programmed (see orchd_bulk_item). */
    bool pending;               /* In 'pending' list. */
    bool named;                 /* Last asked to be present (set or seed,
                                 * not del or swept since). */
    bool solo;                  /* A bulk holding its write was refused
                                 * whole: its next write goes out in a
                                 * bulk of its own (orchd_bulker_refused). */
    bool answer_owed;           /* While pending: it replaced other
                                 * content that was pending, or its caller
                                 * asked for an answer
                                 * (orchd_bulker_set_answer()): 'done' is
                                 * owed even if nothing is written. */
    uint8_t token;              /* The token of the last entry set. */
};

BUILD_ASSERT_DECL(sizeof(struct orchd_route_state) <= 104);

/* A bulker: see orchd-bulker.h. */
struct orchd_bulker {
    struct orchd_bulker_config cfg;  /* Configuration. */
    struct orchd_bulker_cbs cbs;     /* Callbacks. */
    void *aux;                       /* Their argument. */
    struct hmap routes;              /* Contains "struct
                                      * orchd_route_state"s. */
    struct ovs_list pending;         /* Routes with a waiting update. */
    size_t n_pending;                /* Length of 'pending'. */
    struct ovs_list outstanding;     /* Bulks sent, not yet all acked. */
    size_t n_outstanding;            /* Length of 'outstanding'. */
    size_t n_written;                /* Routes with a 'written' entry. */
    size_t n_programmed;             /* Routes with a 'programmed' entry. */
    int64_t next_seq;                /* Next write sequence number. */
    uint64_t n_taken;                /* Routes taken off 'pending'. */
    uint64_t next_bulk_id;           /* Next bulk number. */
    uint64_t gen;                    /* Current generation. */
    size_t n_named;                  /* Routes with 'named'. */
    struct orchd_bulker_stats stats; /* Counters. */
};

/* Hash of route key 'key' in 'routes'. */
static uint32_t
key_hash(const struct uuid *key)
{
    return uuid_hash(key);
}

/* Returns the state of route 'key', or NULL if the bulker has none. */
static struct orchd_route_state *
find_state(const struct orchd_bulker *b, const struct uuid *key)
{
    struct orchd_route_state *st;

    HMAP_FOR_EACH_WITH_HASH (st, node, key_hash(key), &b->routes) {
        if (uuid_equals(&st->key, key)) {
            return st;
        }
    }
    return NULL;
}

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
    hmap_prefetch(&b->routes, key_hash(key), chain);
}

/* Returns the state of route 'key', created empty if there is none. */
static struct orchd_route_state *
get_state(struct orchd_bulker *b, const struct uuid *key)
{
    struct orchd_route_state *st = find_state(b, key);

    if (!st) {
        st = xzalloc(sizeof *st);
        st->key = *key;
        ovs_list_init(&st->waiting);
        hmap_insert_sparse(&b->routes, &st->node, key_hash(key));
    }
    return st;
}

/* Makes 'e' (taking its reference; NULL for none) what 'st' last wrote,
 * keeping the count of written routes. */
static void
set_written(struct orchd_bulker *b, struct orchd_route_state *st,
            struct orchd_entry *e)
{
    b->n_written += (e != NULL) - (st->written != NULL);
    orchd_entry_unref(st->written);
    st->written = e;
}

/* Makes 'e' (taking a new reference; NULL for none) what 'st' has
 * programmed, keeping the count of programmed routes. */
static void
set_programmed(struct orchd_bulker *b, struct orchd_route_state *st,
               const struct orchd_entry *e)
{
    struct orchd_entry *old = st->programmed;

    /* The new reference first: 'e' may be 'old'. */
    st->programmed = orchd_entry_ref(e);
    b->n_programmed += (e != NULL) - (old != NULL);
    orchd_entry_unref(old);
}

/* Records that the caller named 'st' in the current generation. */
static void
name(struct orchd_bulker *b, struct orchd_route_state *st)
{
    b->n_named += !st->named;
    st->named = true;
    st->gen = b->gen;           /* Its low 32 bits. */
}

/* Records that the caller no longer names 'st'. */
static void
unname(struct orchd_bulker *b, struct orchd_route_state *st)
{
    b->n_named -= st->named;
    st->named = false;
}

/* Frees 'st' if nothing refers to it any more. */
static void
maybe_free_state(struct orchd_bulker *b, struct orchd_route_state *st)
{
    if (!st->written && !st->programmed && !st->unknown && !st->pending
        && ovs_list_is_empty(&st->waiting)) {
        unname(b, st);
        hmap_remove(&b->routes, &st->node);
        free(st);
    }
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

/* Frees 'bulk' and drops its items' references. */
static void
free_bulk(struct orchd_bulk *bulk)
{
    for (size_t i = 0; i < bulk->n_items; i++) {
        orchd_entry_unref(bulk->items[i].entry);
    }
    free(bulk->items);
    free(bulk->by_seq);
    free(bulk);
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
        free_bulk(bulk);
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
        set_programmed(b, st, e);
    }
    set_written(b, st, e);
    st->failed = !settled;
    name(b, st);
}

/* Makes the next write sequence number at least 'seq'. */
void
orchd_bulker_set_next_seq(struct orchd_bulker *b, int64_t seq)
{
    b->next_seq = MAX(b->next_seq, seq);
}

/* Queues 'desired' (NULL to remove) for 'st'. */
static void
enqueue(struct orchd_bulker *b, struct orchd_route_state *st,
        struct orchd_entry *desired)
{
    if (st->pending) {
        /* Last write wins; the route keeps its place in the queue. */
        st->answer_owed = true;
        orchd_entry_unref(st->desired);
        st->desired = desired;
        b->stats.n_coalesced++;
        return;
    }
    st->pending = true;
    st->desired = desired;
    ovs_list_push_back(&b->pending, &st->pending_node);
    b->n_pending++;
}

/* Returns the token that a 'done' for content 'e' of the route of 'st'
 * carries: the last set's, if that set 'e''s content (pending, or
 * written since) and no later write of other content waits (which would
 * replace it before the last set's write), otherwise 0.  Called once
 * every write older than the one acknowledged is completed
 * (ack_route()), so that every write still waiting is later. */
static uint8_t
answer_token(const struct orchd_route_state *st, const struct orchd_entry *e)
{
    const struct orchd_entry *last = st->pending ? st->desired : st->written;
    const struct orchd_bulk_item *item;

    if (!e || !last || !orchd_entry_same_content(last, e)) {
        return 0;
    }
    LIST_FOR_EACH (item, node, &st->waiting) {
        if (item->op == ORCHD_BULK_REMOVE || !item->entry
            || !orchd_entry_same_content(item->entry, e)) {
            return 0;
        }
    }
    return st->token;
}

/* Wants 'e' programmed (takes ownership of one reference); if 'answer',
 * owes its caller a 'done' even if nothing is written. */
static void
set__(struct orchd_bulker *b, struct orchd_entry *e, bool answer)
{
    struct orchd_route_state *st = get_state(b, &e->asic_uuid);

    b->stats.n_set++;
    st->token = e->token;
    name(b, st);
    enqueue(b, st, e);
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
    struct orchd_route_state *st = find_state(b, key);

    b->stats.n_del++;
    if (st) {
        unname(b, st);
        enqueue(b, st, NULL);
    }
}

/* Names route 'key' in the current generation as it stands, if it is
 * named at all: a caller that cannot say what a route is now (orchd, for
 * a route waiting for its next-hop group) keeps it from a sweep. */
void
orchd_bulker_keep(struct orchd_bulker *b, const struct uuid *key)
{
    struct orchd_route_state *st = find_state(b, key);

    if (st && st->named) {
        name(b, st);
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
    struct orchd_route_state *st = find_state(b, key);

    if (st && st->named) {
        return false;
    }
    st = get_state(b, key);
    st->unknown = true;
    if (e && !st->written) {
        /* What the far end may hold: the removal names it (a ZeroMQ frame
         * carries a route's VRF and prefix, not its key). */
        set_written(b, st, orchd_entry_ref(e));
    }
    b->stats.n_del++;
    enqueue(b, st, NULL);
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
            unname(b, st);
            enqueue(b, st, NULL);
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
            maybe_free_state(b, st);
            return false;
        }
        item->op = ORCHD_BULK_REMOVE;
        item->entry = st->written ? orchd_entry_ref(st->written) : NULL;
        b->stats.n_removes++;
        set_written(b, st, NULL);
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
                    set_programmed(b, st, desired);
                }
                set_written(b, st, desired);
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
        set_written(b, st, desired);
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

/* Removes 'bulk' from the window once nothing in it is waiting. */
static void
maybe_finish_bulk(struct orchd_bulker *b, struct orchd_bulk *bulk)
{
    if (!bulk->n_waiting && bulk->sent) {
        ovs_list_remove(&bulk->node);
        b->n_outstanding--;
        free_bulk(bulk);
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
                set_programmed(b, st, NULL);
                b->cbs.done(b->aux, &item->key, NULL, true, NULL, 0);
                maybe_free_state(b, st);
            }
            continue;
        }

        complete_item(item);
        st->unknown = true;
        if (!st->pending && ovs_list_is_empty(&st->waiting)) {
            /* Try again with the content this write wanted, unless a
             * newer write already replaced it. */
            set_written(b, st, NULL);
            enqueue(b, st, (item->op == ORCHD_BULK_REMOVE ? NULL
                            : orchd_entry_ref(item->entry)));
        } else if (ovs_list_is_empty(&st->waiting)) {
            set_written(b, st, NULL);
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
            set_written(b, st, NULL);
        }
        if (item->op != ORCHD_BULK_REMOVE) {
            st->failed = true;
            b->stats.n_failed++;
            b->cbs.done(b->aux, &item->key, item->entry, false, error,
                        answer_token(st, item->entry));
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
        set_written(b, st, NULL);
        st->unknown = false;
        if (!st->pending) {
            enqueue(b, st, orchd_entry_ref(item->entry));
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
    struct orchd_route_state *st = find_state(b, key);

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
                set_programmed(b, st, item->entry);
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
                        answer_token(st, item->entry));
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

        set_written(b, st, NULL);
        enqueue(b, st, retry);
    }
    maybe_free_state(b, st);
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
        free_bulk(bulk);
    }
    b->n_outstanding = 0;

    HMAP_FOR_EACH_SAFE (st, node, &b->routes) {
        if (st->written) {
            /* A write even of unchanged content. */
            st->failed = true;
            if (!st->pending) {
                enqueue(b, st, orchd_entry_ref(st->written));
            }
        } else {
            maybe_free_state(b, st);
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
            enqueue(b, st, NULL);
        }
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
    const struct orchd_route_state *st = find_state(b, key);

    return st ? st->written : NULL;
}

/* Returns what route 'key' last had acknowledged as programmed (or
 * seeded as settled), or NULL: the read cache's entry (orchd-cache.h).
 * A failed write leaves the entry it did not replace. */
const struct orchd_entry *
orchd_bulker_get_programmed(const struct orchd_bulker *b,
                            const struct uuid *key)
{
    const struct orchd_route_state *st = find_state(b, key);

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
    struct orchd_route_state *st = find_state(b, key);

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
