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
 * orchd-bulker: turns a stream of desired route states into SAI bulks,
 * keeps at most N bulks outstanding, and matches acknowledgements to the
 * writes they answer.
 *
 * The bulker knows nothing of OVSDB.  Its caller says what each route
 * should be (orchd_bulker_set/del), lets it build bulks
 * (orchd_bulker_run, which calls 'send' once per bulk while the window
 * has room), reports the outcome of sending each bulk
 * (orchd_bulker_sent), and feeds it acknowledgements
 * (orchd_bulker_ack).  It calls 'done' once per route write when it is
 * acknowledged, so the caller can update its status.
 *
 * It also keeps, for each route, the content last acknowledged as
 * programmed (orchd_bulker_get_programmed()): orchd's read cache
 * (orchd-cache.h) is that, read under the caller's lock, rather than a
 * second table of the same keys updated from 'done'.
 *
 * Ordering: only the newest desired state of a route is kept while it
 * waits (later updates replace earlier ones in place, keeping the route's
 * place in the queue), every write gets a sequence number from one
 * counter, and an acknowledgement of sequence number S completes every
 * write of that route numbered S or less.  So updates to one prefix are
 * never reordered, and a delete followed by an add of the same prefix ends
 * with the route present.
 *
 * Synchronous SAI mode is a window of one bulk: the next bulk goes out
 * only once every write of the previous one is acknowledged.
 * Asynchronous mode allows up to 'max_outstanding' bulks.
 *
 * Resync: when the far end lost everything it was told (orchd's southbound
 * fast path, when syncd restarted), orchd_bulker_resync() forgets the
 * bulks outstanding and queues every route with written content to be
 * written again, even if unchanged.  A route whose content was
 * acknowledged as programmed before the resync goes out marked 'resent',
 * unless it changed meanwhile: its caller's record (Asic_Route, written
 * behind) needs no new write for it.
 *
 * Generations: for a caller that must, after its source restarts, remove
 * what the source no longer names (orchd's northbound fast path, when
 * fpmsyncd restarted), the bulker records which routes were last set (or
 * seeded) rather than deleted, and in which generation.
 * orchd_bulker_new_generation() starts one; orchd_bulker_sweep() deletes
 * each route named only in an older one (orchd_bulker_keep() names one
 * again as it stands).  orchd's Route replica does the same after the
 * server made the replica load from scratch.  So the caller needs no table of
 * its own: a route's state is looked up once per update.
 *
 * Tags: each route's state holds one 32-bit word for the caller
 * (orchd_bulker_item_tag(), orchd_bulker_find_tag()), which the bulker
 * never reads, so that a caller can keep per-route bookkeeping of its own
 * (orchd's write-behind: where the route's row write waits) without a
 * table of its own either.  The tag is 0 in a new state, and is freed
 * with it.
 *
 * Thread safety: none; one thread drives a bulker.
 */

#ifndef ORCHD_BULKER_H
#define ORCHD_BULKER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "uuid.h"

struct ds;
struct orchd_entry;
struct orchd_route_state;

/* The operation of one item of a bulk. */
enum orchd_bulk_op {
    ORCHD_BULK_CREATE,          /* New route entry. */
    ORCHD_BULK_SET,             /* Change an entry's attributes. */
    ORCHD_BULK_REMOVE,          /* Remove an entry. */
};

/* One route write in a bulk. */
struct orchd_bulk_item {
    enum orchd_bulk_op op;      /* What to do. */
    struct uuid key;            /* Route key (Asic_Route row UUID). */
    struct orchd_entry *entry;  /* New content; for REMOVE, the content
                                 * removed (NULL if unknown). */
    int64_t seq;                /* Sequence number of this write. */
    bool unknown;               /* The entry may not exist (a previous
                                 * write was lost).  (orchd's OVSDB
                                 * writer checks every SET's row count
                                 * anyway: a row can also go behind its
                                 * back.) */
    bool resent;                /* Content already programmed and
                                 * acknowledged, sent again only because
                                 * the far end lost it (a resync): the
                                 * caller's record of it is already
                                 * right. */
    struct ovs_list node;       /* In its route's 'waiting' list. */
    struct orchd_route_state *state; /* The bulker's state of its route
                                      * (private to the bulker; valid
                                      * while the item waits). */
    struct orchd_bulk *bulk;    /* Bulk this item belongs to. */
    bool acked;                 /* Completed. */
};

/* A bulk of route writes, sent as one unit. */
struct orchd_bulk {
    uint64_t id;                /* Bulk number, from 1. */
    struct orchd_bulk_item *items; /* The writes. */
    size_t n_items;             /* Number of 'items'. */
    int64_t first_seq;          /* The items are numbered first_seq to
                                 * first_seq + n_items - 1. */
    size_t *by_seq;             /* If sorted: by_seq[S - first_seq] is the
                                 * index in 'items' of write S.  NULL if
                                 * 'items' are in that order. */
    size_t n_waiting;           /* Items not yet acknowledged. */
    bool sent;                  /* orchd_bulker_sent() reported success. */
    long long int start_usec;   /* When it was built, for latency. */
    struct ovs_list node;       /* In the bulker's 'outstanding' list. */
};

/* orchd's defaults: writes in a bulk at most (Global max_bulk_size), and
 * bulks outstanding in async SAI mode (Global async_max_outstanding).
 *
 * The window is as deep as the ZeroMQ channel's (lib/zmq-channel.h): on
 * the southbound fast path a bulk's results come back only after orchd,
 * syncd and the channel's threads have each been scheduled on a machine
 * that fpmsyncd, ovsdb-server and fpm-replay share, and 8 bulks (16 ms of
 * routes at 500K/s) ran dry while waiting: 516K routes/s against 586K
 * with 128 and 549K with 32 (docs/PERFORMANCE.md).  On the OVSDB path,
 * where orchd waits for ovsdb-server rather than the ASIC, the window
 * makes no difference. */
#define ORCHD_BULKER_DEFAULT_MAX_BULK 1000
#define ORCHD_BULKER_DEFAULT_MAX_OUTSTANDING 64

/* Configuration. */
struct orchd_bulker_config {
    size_t max_bulk;            /* Most items in a bulk (orchd -k). */
    size_t max_outstanding;     /* Bulks outstanding: 1 = sync mode. */
    bool sorted;                /* Sort each bulk by (vrf, prefix). */
};

/* Callbacks. */
struct orchd_bulker_cbs {
    /* Sends 'bulk'; must eventually call orchd_bulker_sent() for it. */
    void (*send)(void *aux, struct orchd_bulk *bulk);

    /* Reports the end of one write: 'entry' is the content written (NULL
     * for a removal), 'ok' whether it was programmed, 'error' why not.
     * 'superseded' writes (replaced by a newer write before they were
     * acknowledged) are not reported.  'token' is the token of the last
     * entry set for the route (orchd_entry's) if 'entry' has its content,
     * and 0 if the route was set to other content since: the answer a
     * caller that numbers its sets can match to the set it answers. */
    void (*done)(void *aux, const struct uuid *key,
                 const struct orchd_entry *entry, bool ok,
                 const char *error, uint8_t token);

    /* Optional: returns false while no bulk can be sent now (the channel
     * behind 'send' is full); orchd_bulker_run() then builds none. */
    bool (*can_send)(void *aux);
};

/* Counters. */
struct orchd_bulker_stats {
    uint64_t n_set;             /* orchd_bulker_set() calls. */
    uint64_t n_del;             /* orchd_bulker_del() calls. */
    uint64_t n_coalesced;       /* Updates that replaced a waiting one. */
    uint64_t n_unchanged;       /* Updates equal to what is written... */
    uint64_t n_unchanged_done;  /* ...of which reported done: they had
                                 * replaced other pending content, or
                                 * their caller asked. */
    uint64_t n_answer_asked;    /* orchd_bulker_set_answer() calls. */
    uint64_t n_bulks;           /* Bulks sent. */
    uint64_t n_items;           /* Writes sent. */
    uint64_t n_creates, n_sets, n_removes; /* By operation. */
    uint64_t n_resent;          /* Writes marked 'resent'. */
    uint64_t n_acked;           /* Writes acknowledged as programmed. */
    uint64_t n_failed;          /* Writes acknowledged as failed. */
    uint64_t n_superseded;      /* Writes overtaken before their ack. */
    uint64_t n_send_failures;   /* Bulks whose sending failed. */
    uint64_t n_refused;         /* ...of which the server refused whole. */
    uint64_t n_stale_acks;      /* Acks for writes no longer waiting. */
    size_t max_outstanding_seen; /* High-water mark of the window. */
};

struct orchd_bulker *orchd_bulker_create(const struct orchd_bulker_config *,
                                         const struct orchd_bulker_cbs *,
                                         void *aux);
void orchd_bulker_destroy(struct orchd_bulker *);
void orchd_bulker_set_config(struct orchd_bulker *,
                             const struct orchd_bulker_config *);
const struct orchd_bulker_config *orchd_bulker_get_config(
    const struct orchd_bulker *);

void orchd_bulker_seed(struct orchd_bulker *, struct orchd_entry *,
                       bool settled);
void orchd_bulker_set_next_seq(struct orchd_bulker *, int64_t);

void orchd_bulker_set(struct orchd_bulker *, struct orchd_entry *);
void orchd_bulker_set_answer(struct orchd_bulker *, struct orchd_entry *);
void orchd_bulker_prefetch(const struct orchd_bulker *,
                           const struct uuid *key, bool chain);
void orchd_bulker_prefetch_result(const struct orchd_bulker *, int64_t seq,
                                  int stage);
void orchd_bulker_del(struct orchd_bulker *, const struct uuid *key);
void orchd_bulker_keep(struct orchd_bulker *, const struct uuid *key);
bool orchd_bulker_remove_unnamed(struct orchd_bulker *,
                                 const struct uuid *key,
                                 const struct orchd_entry *);
void orchd_bulker_new_generation(struct orchd_bulker *);
size_t orchd_bulker_sweep(struct orchd_bulker *);
size_t orchd_bulker_n_named(const struct orchd_bulker *);

void orchd_bulker_run(struct orchd_bulker *);
void orchd_bulker_sent(struct orchd_bulker *, struct orchd_bulk *, bool ok);
void orchd_bulker_refused(struct orchd_bulker *, struct orchd_bulk *,
                          const char *error);
void orchd_bulker_missing(struct orchd_bulker *, struct orchd_bulk_item *);
void orchd_bulker_ack(struct orchd_bulker *, const struct uuid *key,
                      int64_t applied_seq, bool ok, const char *error);
struct orchd_bulk_item *orchd_bulker_find_seq(const struct orchd_bulker *,
                                              int64_t seq);
void orchd_bulker_ack_write(struct orchd_bulker *, struct orchd_bulk_item *,
                            bool ok, const char *error);
uint64_t orchd_bulker_resync(struct orchd_bulker *);
void orchd_bulker_resync_lost(struct orchd_bulker *);
uint64_t orchd_bulker_n_taken(const struct orchd_bulker *);

uint32_t *orchd_bulker_item_tag(struct orchd_bulk_item *);
uint32_t *orchd_bulker_find_tag(struct orchd_bulker *,
                                const struct uuid *key);
const struct orchd_entry *orchd_bulker_get_written(
    const struct orchd_bulker *, const struct uuid *key);
size_t orchd_bulker_n_pending(const struct orchd_bulker *);
int64_t orchd_bulker_oldest_unacked_seq(const struct orchd_bulker *);
size_t orchd_bulker_n_outstanding(const struct orchd_bulker *);
size_t orchd_bulker_n_written(const struct orchd_bulker *);
const struct orchd_entry *orchd_bulker_get_programmed(
    const struct orchd_bulker *, const struct uuid *key);
size_t orchd_bulker_n_programmed(const struct orchd_bulker *);
void orchd_bulker_for_each_programmed(
    const struct orchd_bulker *,
    void (*cb)(void *aux, const struct orchd_entry *), void *aux);
bool orchd_bulker_is_idle(const struct orchd_bulker *);
void orchd_bulker_get_stats(const struct orchd_bulker *,
                            struct orchd_bulker_stats *);
void orchd_bulker_format(const struct orchd_bulker *, struct ds *);

#endif /* orchd-bulker.h */
