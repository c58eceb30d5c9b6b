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
 * orchd-bulker-private: the bulker's state, shared by the two files that
 * implement it: orchd-bulker.c (routes' desired states, queueing, bulks)
 * and orchd-bulker-outcome.c (what became of the bulks sent: sent,
 * refused, acknowledged, resynced).  The small helpers both use are
 * inline here: they run once or more per route on the hot path.
 */

#ifndef ORCHD_BULKER_PRIVATE_H
#define ORCHD_BULKER_PRIVATE_H 1

#include <stdlib.h>

#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-entry.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
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
static inline uint32_t
bulker_key_hash(const struct uuid *key)
{
    return uuid_hash(key);
}

/* Returns the state of route 'key', or NULL if the bulker has none. */
static inline struct orchd_route_state *
bulker_find_state(const struct orchd_bulker *b, const struct uuid *key)
{
    struct orchd_route_state *st;

    HMAP_FOR_EACH_WITH_HASH (st, node, bulker_key_hash(key), &b->routes) {
        if (uuid_equals(&st->key, key)) {
            return st;
        }
    }
    return NULL;
}

/* Makes 'e' (taking its reference; NULL for none) what 'st' last wrote,
 * keeping the count of written routes. */
static inline void
bulker_set_written(struct orchd_bulker *b, struct orchd_route_state *st,
                   struct orchd_entry *e)
{
    b->n_written += (e != NULL) - (st->written != NULL);
    orchd_entry_unref(st->written);
    st->written = e;
}

/* Makes 'e' (taking a new reference; NULL for none) what 'st' has
 * programmed, keeping the count of programmed routes. */
static inline void
bulker_set_programmed(struct orchd_bulker *b, struct orchd_route_state *st,
                      const struct orchd_entry *e)
{
    struct orchd_entry *old = st->programmed;

    /* The new reference first: 'e' may be 'old'. */
    st->programmed = orchd_entry_ref(e);
    b->n_programmed += (e != NULL) - (old != NULL);
    orchd_entry_unref(old);
}

/* Records that the caller named 'st' in the current generation. */
static inline void
bulker_name(struct orchd_bulker *b, struct orchd_route_state *st)
{
    b->n_named += !st->named;
    st->named = true;
    st->gen = b->gen;           /* Its low 32 bits. */
}

/* Records that the caller no longer names 'st'. */
static inline void
bulker_unname(struct orchd_bulker *b, struct orchd_route_state *st)
{
    b->n_named -= st->named;
    st->named = false;
}

/* Frees 'st' if nothing refers to it any more. */
static inline void
bulker_maybe_free_state(struct orchd_bulker *b,
                        struct orchd_route_state *st)
{
    if (!st->written && !st->programmed && !st->unknown && !st->pending
        && ovs_list_is_empty(&st->waiting)) {
        bulker_unname(b, st);
        hmap_remove(&b->routes, &st->node);
        free(st);
    }
}

/* Frees 'bulk' and drops its items' references. */
static inline void
bulker_free_bulk(struct orchd_bulk *bulk)
{
    for (size_t i = 0; i < bulk->n_items; i++) {
        orchd_entry_unref(bulk->items[i].entry);
    }
    free(bulk->items);
    free(bulk->by_seq);
    free(bulk);
}

/* Queues 'desired' (NULL to remove) for 'st'. */
static inline void
bulker_enqueue(struct orchd_bulker *b, struct orchd_route_state *st,
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
static inline uint8_t
bulker_answer_token(const struct orchd_route_state *st,
                    const struct orchd_entry *e)
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


#endif /* orchd-bulker-private.h */
