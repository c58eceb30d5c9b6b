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

#ifndef ROUTE_BATCH_H
#define ROUTE_BATCH_H 1

/* Coalescing write batcher for rows mirrored into OVSDB.
 *
 * A writer such as fpmsyncd keeps, for each row it owns, a small
 * 'struct route_batch_entry' embedded in its own object: what it wants in the
 * database (present with a content hash, or absent) and what it believes
 * the database holds.  It reports changes with route_batch_set() and
 * route_batch_del(); the batcher queues the entries that need a write, in
 * first-change order, and route_batch_take() turns up to N of them into one
 * transaction's worth of insert, update and delete operations, which the
 * writer serializes and sends.
 *
 * Coalescing
 * ==========
 *
 * An entry is queued at most once, so updates to one key coalesce: the
 * last write wins.  The operation is chosen only when the entry is taken,
 * from the wanted state and the believed database state at that moment:
 *
 *   wanted      database     operation
 *   present H   absent       insert
 *   present H   present H    none (unchanged: not rewritten)
 *   present H   present H'   update
 *   present H   unknown      update (the writer checks the row count)
 *   absent      absent       none (an add then delete cancels)
 *   absent      present/unk  delete
 *
 * so an add then a delete of a row that never reached the database
 * cancels, and the same add then delete of a row that is in the database
 * becomes a delete.  route_batch_set() of the content the database already
 * holds does not even queue the entry: that is how a writer's
 * reconciliation skips unchanged rows.
 *
 * Transactions in flight
 * ======================
 *
 * The believed database state is optimistic: it is updated when an
 * operation is taken, as if its transaction had already committed, so
 * the next transaction can be built and sent (pipelined) before the
 * previous reply arrives.  This is safe when the transactions go over one
 * connection, where ovsdb-server executes them in order.  When a reply
 * arrives:
 *
 *   - route_batch_txn_commit() with each update's row count: an update that
 *     matched no row (someone deleted it) makes the row absent, and the
 *     entry is queued again to be inserted;
 *
 *   - route_batch_txn_fail(): nothing of the transaction happened, so each
 *     entry's database state becomes unknown (unless a later transaction
 *     in flight will settle it) and the entry is queued again.  No update
 *     is lost: the wanted state is still in the entry.
 *
 * Transactions must be completed in the order they were taken.
 *
 * Entry lifetime
 * ==============
 *
 * An entry is idle when it wants nothing, the database holds nothing
 * (as far as the batcher knows) and it is neither queued nor in flight.
 * The batcher calls the 'idle' callback when an entry it was handling
 * becomes idle, so that the owner can free it; route_batch_entry_is_idle()
 * answers the same question after route_batch_del().
 *
 * Held entries
 * ============
 *
 * An entry may want a row whose content its owner cannot produce yet (for
 * fpmsyncd, a route whose next-hop group zebra has not defined yet).  The
 * 'writable' callback tells the batcher so; see route_batch_writable_cb.
 *
 * Deferred entry
 * ==============
 *
 * A writer that expects one entry to change again within moments (fpmsyncd:
 * a route whose delete may be the first half of a path change, the add
 * still in flight from zebra) names it with route_batch_defer().
 * route_batch_take() then stops in front of it, leaving it and the entries
 * behind it queued, so that the change to come coalesces with it, until
 * the writer calls route_batch_defer(NULL), which it must do before it
 * frees the entry.
 *
 * Built on the write-behind queue
 * ===============================
 *
 * The queue, the transactions in flight and their in-order completion are
 * lib/row-queue.h's, as for fibsync's other write-behind writers; what is
 * the batcher's own is the state above: the operation is chosen from the
 * wanted and believed states when an entry is taken, the believed state is
 * optimistic, and an entry in flight counts its transactions (so its owner
 * keeps it until they end, and the transactions remember it by pointer).
 * Those do not fit the other writers, which write one kind of operation
 * and believe nothing of the database until a reply says so: the common
 * queue is the layer the batcher is built on, not a replacement of it.
 *
 * Thread safety: none; one batcher belongs to one thread. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/row-queue.h"

/* What the batcher believes the database holds for an entry. */
enum route_batch_db {
    ROUTE_BATCH_DB_ABSENT,      /* No row. */
    ROUTE_BATCH_DB_PRESENT,     /* A row with content hash 'db_hash'. */
    ROUTE_BATCH_DB_UNKNOWN,     /* Unknown, after a failed transaction. */
};

/* Per-row state, embedded in the writer's object.  Initialize with
 * route_batch_entry_init(); read it, never write it, except 'tag' and 'flags',
 * which the batcher never touches. */
struct route_batch_entry {
    uint32_t want_hash;         /* Content hash wanted (if 'want'). */
    uint32_t db_hash;           /* Content hash in the database (if 'db'
                                 * is ROUTE_BATCH_DB_PRESENT), as of the last
                                 * transaction taken. */
    uint8_t db;                 /* enum route_batch_db, optimistic. */
    bool want;                  /* True if the row should exist. */
    bool queued;                /* True while on the batcher's queue. */
    uint8_t n_inflight;         /* Transactions in flight that hold an
                                 * operation on this entry. */
    uint8_t tag;                /* Free for the owner (e.g. a type). */
    uint8_t aux;                /* Free for the owner. */
    uint16_t flags;             /* Free for the owner. */
};

/* A database operation chosen by route_batch_take(). */
enum route_batch_op_type {
    ROUTE_BATCH_INSERT,         /* Insert the row. */
    ROUTE_BATCH_UPDATE,         /* Update the row (all content columns). */
    ROUTE_BATCH_DELETE,         /* Delete the row. */
};

const char *route_batch_op_type_to_string(enum route_batch_op_type);

/* One operation of a transaction. */
struct route_batch_op {
    struct route_batch_entry *entry; /* The row. */
    enum route_batch_op_type type;   /* What to do. */
    uint32_t hash;              /* Content hash written (insert/update). */
    bool marked;                /* For the caller's use: false when taken
                                 * (fpmsyncd marks the updates it adds a
                                 * status mutate to). */
};

/* One transaction's worth of operations, from route_batch_take() until
 * route_batch_txn_commit() or route_batch_txn_fail(). */
struct route_batch_txn {
    struct row_queue_txn rq;    /* In the batcher's queue's in-flight
                                 * list. */
    uint64_t seq;               /* Sequence number, 1 for the first. */
    struct route_batch_op *ops;      /* Operations, in queue order. */
    size_t n_ops;               /* Number of operations. */
    size_t n_insert;            /* How many are inserts... */
    size_t n_update;            /* ...updates... */
    size_t n_delete;            /* ...and deletes. */
    long long int taken_msec;   /* Time taken, for the caller's use. */
    void *aux;                  /* For the caller's use. */
};

/* Counters, all monotonic. */
struct route_batch_stats {
    uint64_t n_set;             /* route_batch_set() calls. */
    uint64_t n_del;             /* route_batch_del() calls. */
    uint64_t n_coalesced;       /* Changes to an already queued entry. */
    uint64_t n_unchanged;       /* route_batch_set() of what the database
                                 * holds: nothing to write. */
    uint64_t n_cancelled;       /* Entries taken that needed no operation
                                 * (add then delete, or changed back). */
    uint64_t n_held;            /* Entries taken that were not writable. */
    uint64_t n_insert;          /* Operations taken, by type. */
    uint64_t n_update;
    uint64_t n_delete;
    uint64_t n_txn;             /* Transactions taken. */
    uint64_t n_committed;       /* Transactions committed. */
    uint64_t n_failed;          /* Transactions failed. */
    uint64_t n_ops_committed;   /* Operations in committed transactions. */
    uint64_t n_requeued;        /* Entries queued again after a failure
                                 * or an update that found no row. */
    uint64_t n_deferred_stops;  /* route_batch_take() calls that stopped
                                 * in front of the deferred entry. */
};

/* Called when 'entry' becomes idle (see above). */
typedef void route_batch_idle_cb(struct route_batch_entry *entry, void *aux);

/* Returns true if the owner can write the content 'entry' wants now.  An
 * entry that wants a row but cannot be written (its content depends on
 * something not known yet) is "held": route_batch_take() drops it from the
 * queue without an operation and leaves its state alone, and the owner
 * calls route_batch_set() again once it can be written. */
typedef bool route_batch_writable_cb(const struct route_batch_entry *entry,
                                     void *aux);

/* The batcher. */
struct route_batch {
    struct row_queue rq;        /* Queued 'struct route_batch_entry's, and
                                 * the 'struct route_batch_txn's in flight
                                 * (its 'n_inflight' and 'n_inflight_ops'
                                 * count them and their operations). */
    uint64_t next_seq;          /* Next transaction's 'seq'. */
    route_batch_idle_cb *idle;       /* Idle callback, may be NULL. */
    route_batch_writable_cb *writable; /* Writable callback, may be NULL. */
    void *aux;                  /* Passed to both callbacks. */
    const struct route_batch_entry *deferred; /* route_batch_take() stops
                                 * in front of it; NULL if none. */
    struct route_batch_stats stats;  /* Counters. */
};

void route_batch_init(struct route_batch *, route_batch_idle_cb *,
                      route_batch_writable_cb *,
                      void *aux);
void route_batch_destroy(struct route_batch *);

void route_batch_entry_init(struct route_batch_entry *);
bool route_batch_entry_is_idle(const struct route_batch_entry *);
bool route_batch_entry_is_settled(const struct route_batch_entry *);

void route_batch_set(struct route_batch *, struct route_batch_entry *,
                     uint32_t hash);
void route_batch_del(struct route_batch *, struct route_batch_entry *);
void route_batch_enqueue(struct route_batch *, struct route_batch_entry *);
void route_batch_resync(struct route_batch *, struct route_batch_entry *,
                        bool present, uint32_t hash);
void route_batch_keep(struct route_batch_entry *, uint32_t hash);
void route_batch_forget(struct route_batch *, struct route_batch_entry *);
void route_batch_rewrite(struct route_batch *, struct route_batch_entry *);
void route_batch_defer(struct route_batch *,
                       const struct route_batch_entry *);

/* Number of entries queued (an upper bound on the operations the next
 * route_batch_take() calls would return). */
static inline size_t
route_batch_n_pending(const struct route_batch *b)
{
    return row_queue_n_pending(&b->rq);
}

/* Returns true if route_batch_take() would stop at once, in front of the
 * deferred entry. */
static inline bool
route_batch_front_is_deferred(const struct route_batch *b)
{
    return b->deferred && row_queue_front(&b->rq) == b->deferred;
}

struct route_batch_txn *route_batch_take(struct route_batch *, size_t max_ops);
void route_batch_txn_commit(struct route_batch *, struct route_batch_txn *,
                            const unsigned int *counts);
void route_batch_txn_fail(struct route_batch *, struct route_batch_txn *);
void route_batch_fail_all(struct route_batch *);
struct route_batch_txn *route_batch_oldest_txn(const struct route_batch *);

#endif /* route-batch.h */
