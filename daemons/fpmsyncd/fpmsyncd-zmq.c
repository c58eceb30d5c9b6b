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
#include "daemons/fpmsyncd/fpmsyncd-zmq.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "daemons/fpmsyncd/fpmsyncd-status.h"
#include "lib/ptr-fifo.h"
#include "lib/route-frame.h"
#include "lib/zmq-channel.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "random.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd_zmq);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(fpmd_zmq_frame);
COVERAGE_DEFINE(fpmd_zmq_stall);
COVERAGE_DEFINE(fpmd_zmq_resync);

/* One orchd: the channel to one ASIC instance's orchd. */
struct fpmd_zmq_peer {
    struct fpmd_zmq *zmq;       /* Owner. */
    int instance;               /* ASIC instance (index in 'peers'). */
    struct zmq_channel *ch;     /* To that instance's orchd. */
    uint64_t n_frames;          /* ROUTES frames sent to it. */
    uint64_t n_skipped;         /* ROUTES frames not sent to it: the
                                 * channel was not up yet. */
    uint64_t n_resyncs;         /* Resyncs its (re)start started. */
    uint64_t n_results_ok;      /* Instance > 0: programmed results,
                                 * counted and otherwise ignored. */
    uint64_t n_results_error;   /* Instance > 0: failures, the same. */
};

/* The fast path. */
struct fpmd_zmq {
    struct fpmd_rib *rib;       /* Whose routes. */
    struct fpmd_zmq_peer *peers; /* One per ASIC instance, instance I at
                                 * [I]; none in the Check suite. */
    size_t n_peers;             /* Elements in 'peers'. */
    size_t max_pending;         /* Queue length that stops zebra. */
    size_t frame_max;           /* Routes in a frame at most. */
    uint8_t first_token;        /* The token of the next route's first SET
                                 * (take_route()): 1 to 255 in turn from a
                                 * random start. */

    /* The queue. */
    struct ptr_fifo queue;      /* 'struct fpmd_route's flagged
                                 * FPMD_F_ZMQ_QUEUED, first change first. */
    struct route_frame_nexthop nexthops[ROUTE_FRAME_MAX_NEXTHOPS];
                                /* The next hops of the route being
                                 * encoded. */

    /* Resync. */
    bool resyncing;             /* A resync has not sent its end yet. */
    size_t n_resync;            /* Routes flagged FPMD_F_ZMQ_RESYNC. */

    /* Back-pressure. */
    bool stalled;               /* Reading zebra is paused for us. */

    /* The Route write-behind's state, told to orchd. */
    bool db_behind;             /* What the last frame sent said
                                 * (ROUTE_FRAME_F_DB_BEHIND). */
    long long int db_behind_ms; /* When a frame last said "behind". */

    /* Counters. */
    uint64_t n_frames;          /* ROUTES frames built. */
    uint64_t n_sets;            /* SET entries sent. */
    uint64_t n_dels;            /* DEL entries sent. */
    uint64_t n_held;            /* Routes taken but held (unresolved). */
    uint64_t n_cancelled;       /* Withdrawn before orchd heard of them. */
    uint64_t n_unencodable;     /* Routes a frame cannot carry. */
    uint64_t n_resyncs;         /* Resyncs started. */
    uint64_t n_sync_ends;       /* Resyncs ended (SYNC_END sent). */
    uint64_t n_stalls;          /* Times reading zebra paused for us. */
    uint64_t n_db_frames;       /* Frames with no route sent only to say
                                 * the Route writes are behind, or caught
                                 * up. */
    uint64_t n_results_ok;      /* Programmed, offload recorded. */
    uint64_t n_results_stale;   /* Programmed, but the route changed or
                                 * went since. */
    uint64_t n_results_error;   /* orchd could not program. */
    uint64_t n_unexpected;      /* Frames of the wrong type from orchd. */
};

static zmq_channel_recv_cb zmq_recv_cb;
static zmq_channel_peer_cb zmq_peer_cb;

/* Closes every channel of 'zmq' and frees 'zmq->peers'. */
static void
zmq_free_peers(struct fpmd_zmq *zmq)
{
    for (size_t i = 0; i < zmq->n_peers; i++) {
        zmq_channel_destroy(zmq->peers[i].ch);
    }
    free(zmq->peers);
    zmq->peers = NULL;
    zmq->n_peers = 0;
}

static const struct fpmd_rib_observer zmq_observer;

/* Creates the fast path for 'rib' as 'options' say, and registers it as an
 * observer of the rib's routes (after FIB suppression,
 * fpmd_offload_attach()).  Returns NULL with
 * an error message in '*errorp' if the channel cannot be made. */
struct fpmd_zmq *
fpmd_zmq_create(struct fpmd_rib *rib, const struct fpmd_zmq_options *options,
                char **errorp)
{
    struct fpmd_zmq *zmq = xzalloc(sizeof *zmq);

    *errorp = NULL;
    zmq->rib = rib;
    zmq->first_token = 1 + random_range(UINT8_MAX);
    zmq->max_pending = options->max_pending;
    zmq->frame_max = (options->frame_max ? options->frame_max
                     : FPMD_ZMQ_FRAME_ROUTES);
    ptr_fifo_init(&zmq->queue);
    zmq->peers = xcalloc(MAX(options->n_endpoints, 1), sizeof *zmq->peers);
    for (size_t i = 0; i < options->n_endpoints; i++) {
        struct fpmd_zmq_peer *peer = &zmq->peers[i];
        /* Every channel has the same name, hence the same routing id:
         * each orchd binds its own endpoint and expects
         * "fibsync-northbound" (lib/zmq-channel.c). */
        struct zmq_channel_options opts = {
            .name = "northbound",
            .endpoint = options->endpoints[i],
            .bind = false,
        };

        peer->zmq = zmq;
        peer->instance = i;
        peer->ch = zmq_channel_create(&opts, zmq_recv_cb, zmq_peer_cb, peer,
                                      errorp);
        if (!peer->ch) {
            zmq_free_peers(zmq);
            ptr_fifo_destroy(&zmq->queue);
            free(zmq);
            return NULL;
        }
        zmq->n_peers++;
    }
    fpmd_rib_observe(rib, &zmq_observer, zmq);
    fpmd_offload_set_fast_path(rib, true);
    return zmq;
}

/* Empties the queue without sending anything. */
static void
discard(struct fpmd_zmq *zmq)
{
    struct fpmd_route *r;

    while ((r = ptr_fifo_pop(&zmq->queue))) {
        r->be.flags &= ~FPMD_F_ZMQ_QUEUED;
        fpmd_route_maybe_free(zmq->rib, r);
    }
}

/* Closes the channel and frees 'zmq'.  The routes it queued leave the
 * queue (and are freed if nothing else needs them). */
void
fpmd_zmq_destroy(struct fpmd_zmq *zmq)
{
    if (!zmq) {
        return;
    }
    discard(zmq);
    ptr_fifo_destroy(&zmq->queue);
    zmq_free_peers(zmq);
    fpmd_rib_unobserve(zmq->rib, &zmq_observer);
    fpmd_offload_set_fast_path(zmq->rib, false);
    free(zmq);
}

/* The queue. */

/* Queues 'r', unless it is queued already. */
static void
enqueue(struct fpmd_zmq *zmq, struct fpmd_route *r)
{
    if (!(r->be.flags & FPMD_F_ZMQ_QUEUED)) {
        r->be.flags |= FPMD_F_ZMQ_QUEUED;
        ptr_fifo_push(&zmq->queue, r);
    }
}

/* Takes 'r' out of the resync under way, if it is part of it. */
static void
resync_done(struct fpmd_zmq *zmq, struct fpmd_route *r)
{
    if (r->be.flags & FPMD_F_ZMQ_RESYNC) {
        r->be.flags &= ~FPMD_F_ZMQ_RESYNC;
        zmq->n_resync--;
    }
}

/* Adds 'r' to the resync under way. */
static void
resync_add(struct fpmd_zmq *zmq, struct fpmd_route *r)
{
    if (!(r->be.flags & FPMD_F_ZMQ_RESYNC)) {
        r->be.flags |= FPMD_F_ZMQ_RESYNC;
        zmq->n_resync++;
    }
}

/* 'r' was just created.  During a resync it belongs to it: a route read
 * from the database must be replayed by zebra (or removed by
 * reconciliation) before the resync may end. */
static void
zmq_route_created(struct fpmd_route *r, void *zmq_)
{
    struct fpmd_zmq *zmq = zmq_;

    if (zmq->resyncing) {
        resync_add(zmq, r);
    }
}

/* 'r' can be written with its current content, which differs from what
 * was last written unless 'c->row_unchanged'.  Queues it if orchd may not
 * have that content. */
static void
zmq_route_refreshed(struct fpmd_route *r, const struct fpmd_route_change *c,
                    void *zmq)
{
    if (!c->row_unchanged || !(r->be.flags & FPMD_F_ZMQ_SENT)) {
        enqueue(zmq, r);
    }
}

/* 'r' is withdrawn.  Queues its deletion if orchd holds it; a resync no
 * longer waits for it (orchd removes what a resync does not name). */
static void
zmq_route_withdrawn(struct fpmd_route *r, void *zmq_)
{
    struct fpmd_zmq *zmq = zmq_;

    resync_done(zmq, r);
    if (r->be.flags & FPMD_F_ZMQ_SENT) {
        enqueue(zmq, r);
    }
}

/* 'r' is being freed (never while it is queued). */
static void
zmq_route_freed(struct fpmd_route *r, void *zmq)
{
    ovs_assert(!(r->be.flags & FPMD_F_ZMQ_QUEUED));
    resync_done(zmq, r);
}

/* How the rib tells the fast path of its routes (fpmd_zmq_create()
 * registers it). */
static const struct fpmd_rib_observer zmq_observer = {
    .route_created = zmq_route_created,
    .route_refreshed = zmq_route_refreshed,
    .route_withdrawn = zmq_route_withdrawn,
    .route_freed = zmq_route_freed,
};

/* Starts a resync: an orchd (re)started and holds, as far as fpmsyncd
 * knows, nothing.  Every route is queued again and part of the resync.
 *
 * FPMD_F_ZMQ_SENT stays as it is: with several ASIC instances the frames
 * of the resync go to every orchd, and those that did not restart still
 * hold what was sent to them.  A route sent before and withdrawn before
 * the resync takes it must therefore still be sent as a DEL (the
 * restarted orchd, which may not hold it, ignores that), not cancelled:
 * an orchd that did not restart does not sweep at SYNC_END. */
void
fpmd_zmq_resync(struct fpmd_zmq *zmq)
{
    struct fpmd_route *r;

    zmq->resyncing = true;
    zmq->n_resyncs++;
    COVERAGE_INC(fpmd_zmq_resync);
    HMAP_FOR_EACH (r, node, &zmq->rib->routes) {
        resync_add(zmq, r);
        enqueue(zmq, r);
    }
    VLOG_INFO("northbound: resync of %"PRIuSIZE" routes", zmq->n_resync);
}

/* Frames. */

/* Returns the action and the next hops of 'r' into 'rr', or false if a
 * frame cannot carry them: a group without members (orchd waits for
 * members then, as on the OVSDB path), or too many next hops. */
static bool
encode_nexthops(struct fpmd_zmq *zmq, const struct fpmd_route *r,
                struct route_frame_route *rr)
{
    const struct fpmd_nhset *set = fpmd_route_set(r);

    rr->action = ROUTE_FRAME_FORWARD;
    rr->n_nexthops = 0;
    if (fpmd_route_is_blackhole(r)) {
        rr->action = ROUTE_FRAME_DROP;
    } else if (!set || !set->n) {
        if (r->nh && r->nh->id) {
            return false;
        }
        rr->action = ROUTE_FRAME_TRAP;
    } else if (set->n > ROUTE_FRAME_MAX_NEXTHOPS) {
        return false;
    } else {
        for (size_t i = 0; i < set->n; i++) {
            const struct fpmd_nhmember *m = &set->members[i];
            struct route_frame_nexthop *nh = &zmq->nexthops[i];

            nh->key = m->key;
            nh->key_len = strlen(m->key);
            nh->weight = m->weight ? m->weight : 1;
        }
        rr->n_nexthops = set->n;
        rr->nexthops = zmq->nexthops;
    }
    return true;
}

/* Returns the token after 'token' (1 to 255 in turn). */
static uint8_t
next_token(uint8_t token)
{
    return token == UINT8_MAX ? 1 : token + 1;
}

/* Appends 'r' to the ROUTES frame in 'b' as an entry of 'op', numbered
 * 'token' (see fpmd_route's 'be.aux').  Returns false if it cannot. */
static bool
put_route(struct fpmd_zmq *zmq, struct ofpbuf *b, const struct fpmd_route *r,
          enum route_frame_op op, uint8_t token)
{
    const char *vrf = fpmd_vrf_get(&zmq->rib->vrfs, r->vrf)->name;
    size_t vrf_len = strlen(vrf);
    struct route_frame_route rr;

    memset(&rr, 0, sizeof rr);
    rr.op = op;
    if (op == ROUTE_FRAME_SET && fpmd_offload_enabled(zmq->rib)
        && !(r->be.flags & FPMD_F_OFFLOADED)) {
        /* zebra may wait for an answer about this content, which orchd
         * may hold already (changed and changed back before the change
         * was sent): ask for one even then. */
        rr.flags = ROUTE_FRAME_EF_ANSWER;
    }
    rr.prefix = r->prefix;
    rr.vrf = vrf;
    rr.vrf_len = vrf_len;
    rr.seq = token;
    if (!vrf_len || vrf_len > UINT8_MAX
        || (op == ROUTE_FRAME_SET && !encode_nexthops(zmq, r, &rr))) {
        return false;
    }
    route_frame_put_route(b, &rr);
    return true;
}

/* Turns 'r', just taken from the queue, into an entry of 'b', if it needs
 * one.  Returns true if it added one. */
static bool
take_route(struct fpmd_zmq *zmq, struct ofpbuf *b, struct fpmd_route *r)
{
    if (!fpmd_route_writable(r)) {
        /* Held: queued again once it can be resolved. */
        zmq->n_held++;
        return false;
    }
    resync_done(zmq, r);
    if (r->be.want) {
        /* A new token for this write: orchd's result for an older one,
         * which may come after it, answers nothing.  A route's first
         * takes the rolling 'first_token', so that a result for a route
         * withdrawn and freed, or sent before fpmsyncd restarted, seldom
         * matches the route announced again. */
        uint8_t token = (r->be.aux ? next_token(r->be.aux)
                         : zmq->first_token);

        if (!put_route(zmq, b, r, ROUTE_FRAME_SET, token)) {
            zmq->n_unencodable++;
            return false;
        }
        if (!r->be.aux) {
            zmq->first_token = next_token(token);
        }
        r->be.aux = token;
        zmq->n_sets++;
        r->be.flags |= FPMD_F_ZMQ_SENT;
        return true;
    }
    if (!(r->be.flags & FPMD_F_ZMQ_SENT)) {
        zmq->n_cancelled++;
        return false;
    }
    r->be.flags &= ~FPMD_F_ZMQ_SENT;
    if (!put_route(zmq, b, r, ROUTE_FRAME_DEL, 0)) {
        zmq->n_unencodable++;
        return false;
    }
    zmq->n_dels++;
    return true;
}

/* True if the resync under way can end now: every route of it is sent, and
 * the rib knows the content of every route it holds (the database is read,
 * and what was read is replayed by zebra or reconciled away).  After a
 * restart of fpmsyncd, not before zebra's replay is reconciled: orchd
 * removes what a resync does not name, and the database fpmsyncd read may
 * lack routes that zebra replays later (chaos.at). */
static bool
resync_can_end(const struct fpmd_zmq *zmq)
{
    return zmq->resyncing && !zmq->n_resync
           && fpmd_rib_is_loaded(zmq->rib)
           && !fpmd_rib_replay_pending(zmq->rib);
}

/* Returns true if fpmsyncd's own OVSDB writes are behind: Route rows
 * pending or in flight. */
static bool
db_is_behind(const struct fpmd_zmq *zmq)
{
    return fpmd_rib_n_pending(zmq->rib) || fpmd_rib_n_inflight_ops(zmq->rib);
}

/* Returns true if orchd should hear about the Route writes now, in a frame
 * of no routes if there is nothing else to send: they caught up since the
 * last frame said "behind", or are still behind and no frame has said so
 * for FPMD_ZMQ_DB_BEHIND_MS.  (orchd stops believing "behind" after a
 * while, lib/route-frame.h, so it is said again.) */
static bool
db_state_due(const struct fpmd_zmq *zmq)
{
    bool behind = db_is_behind(zmq);

    return (behind != zmq->db_behind
            || (behind
                && time_msec() >= zmq->db_behind_ms + FPMD_ZMQ_DB_BEHIND_MS));
}

/* Ends the ROUTES frame in 'b' with 'flags', adding
 * ROUTE_FRAME_F_DB_BEHIND if fpmsyncd's Route writes are behind, and
 * remembers what it told orchd. */
static void
finish_frame(struct fpmd_zmq *zmq, struct ofpbuf *b, uint32_t flags)
{
    bool behind = db_is_behind(zmq);

    route_frame_set_header(b->data,
                           flags | (behind ? ROUTE_FRAME_F_DB_BEHIND : 0),
                           0, 0);
    route_frame_finish(b);
    zmq->db_behind = behind;
    if (behind) {
        zmq->db_behind_ms = time_msec();
    }
    zmq->n_frames++;
    COVERAGE_INC(fpmd_zmq_frame);
}

/* Builds the next ROUTES frame into 'b' from the front of the queue: up to
 * 'frame_max' routes, stopping in front of a deferred delete
 * (fpmsyncd-rib.c), with ROUTE_FRAME_F_SYNC_END if it ends a resync and
 * ROUTE_FRAME_F_DB_BEHIND if fpmsyncd's Route writes are behind.  Returns
 * false, with 'b' to be ignored, if there is nothing to send. */
bool
fpmd_zmq_take_frame(struct fpmd_zmq *zmq, struct ofpbuf *b)
{
    const struct fpmd_route *deferred = fpmd_rib_deferred_del(zmq->rib);
    uint32_t flags = 0;
    struct fpmd_route *r;
    size_t n = 0;

    route_frame_start(b, ROUTE_FRAME_ROUTES, 0, 0);
    while (n < zmq->frame_max && (r = ptr_fifo_peek(&zmq->queue))
           && r != deferred) {
        ptr_fifo_pop(&zmq->queue);
        r->be.flags &= ~FPMD_F_ZMQ_QUEUED;
        n += take_route(zmq, b, r);
        fpmd_route_maybe_free(zmq->rib, r);
    }
    if (resync_can_end(zmq)) {
        flags = ROUTE_FRAME_F_SYNC_END;
        zmq->resyncing = false;
        zmq->n_sync_ends++;
        VLOG_INFO("northbound: resync complete");
    } else if (!n) {
        return false;
    }
    finish_frame(zmq, b, flags);
    return true;
}

/* Builds into 'b' a ROUTES frame without routes that only tells orchd the
 * state of the Route writes, if db_state_due().  Returns false, with 'b' to
 * be ignored, if there is nothing to tell. */
static bool
take_db_frame(struct fpmd_zmq *zmq, struct ofpbuf *b)
{
    if (!db_state_due(zmq)) {
        return false;
    }
    route_frame_start(b, ROUTE_FRAME_ROUTES, 0, 0);
    finish_frame(zmq, b, 0);
    zmq->n_db_frames++;
    return true;
}

/* Results. */

/* Returns true if a result for a SET of 'r' (NULL if the route is gone)
 * that echoes 'token' is about the content 'r' has: it was sent, has not
 * changed since, and the result answers its last SET (orchd echoes a
 * SET's token when what it programmed, or failed to, is what the route
 * was last set to), not an older one that orchd acknowledged after the
 * newer was sent. */
static bool
result_is_current(const struct fpmd_route *r, uint64_t token)
{
    return (r && r->be.want && r->be.flags & FPMD_F_ZMQ_SENT
            && !(r->be.flags & FPMD_F_ZMQ_QUEUED)
            && token == r->be.aux);
}

/* RESULTS entries looked up together by fpmd_zmq_results(). */
#define FPMD_RESULTS_GROUP 16

/* A RESULTS entry, read ahead of its lookup. */
struct fpmd_result {
    struct route_frame_route e; /* The entry (pointing into the frame). */
    struct fpmd_vrf *vrf;       /* Its VRF, NULL if fpmsyncd has none. */
};

/* Handles RESULTS entry 're' from orchd: a success into an offload
 * notification, and either into the route's Route.status. */
static void
handle_result(struct fpmd_zmq *zmq, const struct fpmd_result *re)
{
    const struct route_frame_route *e = &re->e;
    struct fpmd_rib *rib = zmq->rib;
    struct fpmd_route *r;

    r = re->vrf ? fpmd_route_find(rib, re->vrf->idx, &e->prefix) : NULL;
    if (e->status) {
        char buf[FIB_PREFIX_STRLEN];

        zmq->n_results_error++;
        fib_prefix_format(&e->prefix, buf);
        VLOG_WARN_RL(&rl, "%s vrf %.*s: orchd could not program it: %.*s",
                     buf, (int) e->vrf_len, e->vrf, (int) e->error_len,
                     e->error);
        if (e->op == ROUTE_FRAME_SET && result_is_current(r, e->seq)) {
            /* (A failure of older content says nothing of this one's.) */
            fpmd_offload_clear(rib, r);
            fpmd_status_set_error(rib, r, e->error, e->error_len);
        }
    } else if (e->op == ROUTE_FRAME_SET) {
        if (!result_is_current(r, e->seq)) {
            /* Changed or gone since: its next result counts. */
            zmq->n_results_stale++;
            return;
        }
        zmq->n_results_ok++;
        fpmd_offload_route_set(rib, r);
        fpmd_status_set_offload(rib, r);
    }
}

/* Returns a reader over the frame of 'size' bytes at 'frame' that the
 * orchd of ASIC instance 'instance' sent, already validated, if it is a
 * RESULTS frame (the caller frees it).  Counts, logs and returns NULL
 * otherwise. */
static struct route_frame_reader *
results_reader(struct fpmd_zmq *zmq, int instance, const void *frame,
               size_t size)
{
    struct route_frame_reader *rd = xmalloc(sizeof *rd);

    route_frame_reader_init(rd, frame, size);
    if (rd->type != ROUTE_FRAME_RESULTS) {
        char name[32] = "orchd";

        if (instance) {
            snprintf(name, sizeof name, "orchd-%d", instance);
        }
        zmq->n_unexpected++;
        VLOG_WARN_RL(&rl, "northbound: %s frame from %s ignored",
                     route_frame_type_name(rd->type), name);
        free(rd);
        return NULL;
    }
    return rd;
}

/* Handles the frame of 'size' bytes at 'frame' that orchd sent, already
 * validated: RESULTS, one entry per route. */
void
fpmd_zmq_results(struct fpmd_zmq *zmq, const void *frame, size_t size)
{
    struct route_frame_reader *rd = results_reader(zmq, 0, frame, size);
    struct fpmd_result group[FPMD_RESULTS_GROUP];
    struct fpmd_rib *rib = zmq->rib;
    struct fpmd_vrf *vrf = NULL;    /* The VRF named... */
    const char *vrf_name = NULL;    /* ...by the last entry... */
    uint8_t vrf_len = 0;            /* ...of this many bytes. */
    uint32_t hashes[FPMD_RESULTS_GROUP];
    bool more = rd != NULL;

    /* A group of entries is read, their routes' buckets then the chains'
     * first and second routes asked of the CPU (fpmd_rib_prefetch()), and
     * only then are they handled: the lookups of a group miss the cache
     * together, as fpmsyncd-fpm.c's of zebra's routes do.  A frame's
     * entries mostly name one VRF, looked up by name once. */
    while (more) {
        size_t n = 0;

        while (n < FPMD_RESULTS_GROUP) {
            struct fpmd_result *re = &group[n];

            if (!rd->left || route_frame_read(rd, &re->e)) {
                more = false;
                break;
            }
            if (!vrf_name || re->e.vrf_len != vrf_len
                || memcmp(re->e.vrf, vrf_name, vrf_len)) {
                char name[UINT8_MAX + 1];

                memcpy(name, re->e.vrf, re->e.vrf_len);
                name[re->e.vrf_len] = '\0';
                /* A name with a null byte is no VRF's: cut there, it
                 * would be another's. */
                vrf = (memchr(re->e.vrf, '\0', re->e.vrf_len) ? NULL
                       : fpmd_vrf_by_name(&rib->vrfs, name));
                vrf_name = re->e.vrf;
                vrf_len = re->e.vrf_len;
            }
            re->vrf = vrf;
            if (vrf) {
                hashes[n] = fpmd_route_hash(vrf->idx, &re->e.prefix);
                fpmd_rib_prefetch(rib, hashes[n], 0);
            }
            n++;
        }
        for (int depth = 1; depth < 3; depth++) {
            for (size_t i = 0; i < n; i++) {
                if (group[i].vrf) {
                    fpmd_rib_prefetch(rib, hashes[i], depth);
                }
            }
        }
        for (size_t i = 0; i < n; i++) {
            handle_result(zmq, &group[i]);
        }
    }
    free(rd);
}

/* The channel. */

/* Counts the RESULTS frame of 'size' bytes at 'frame' from the orchd of
 * 'peer', an ASIC instance other than 0, and otherwise ignores it:
 * offloads and Route.status are instance 0's (docs/RELIABILITY.md,
 * "Several ASIC instances"). */
static void
count_results(struct fpmd_zmq_peer *peer, const void *frame, size_t size)
{
    struct route_frame_reader *rd = results_reader(peer->zmq, peer->instance,
                                                   frame, size);
    struct route_frame_route e;

    while (rd && rd->left && !route_frame_read(rd, &e)) {
        if (e.status) {
            peer->n_results_error++;
        } else {
            peer->n_results_ok++;
        }
    }
    free(rd);
}

/* zmq_channel_recv_cb. */
static void
zmq_recv_cb(void *peer_, const struct route_frame_header *h OVS_UNUSED,
            const void *frame, size_t size)
{
    struct fpmd_zmq_peer *peer = peer_;

    if (!peer->instance) {
        fpmd_zmq_results(peer->zmq, frame, size);
    } else {
        count_results(peer, frame, size);
    }
}

/* zmq_channel_peer_cb: the orchd of 'peer_' (re)started, or answered for
 * the first time.  The resync goes to every orchd whose channel is up;
 * those that did not restart get routes they hold already, unchanged,
 * which their bulkers skip, and ignore its SYNC_END (orchd sweeps only
 * after a resync its own peer callback started). */
static void
zmq_peer_cb(void *peer_)
{
    struct fpmd_zmq_peer *peer = peer_;

    peer->n_resyncs++;
    if (peer->instance) {
        VLOG_INFO("northbound: orchd-%d (re)started", peer->instance);
    }
    fpmd_zmq_resync(peer->zmq);
}

/* Returns the number of channels that are up (their handshake done). */
static size_t
n_up(const struct fpmd_zmq *zmq)
{
    size_t n = 0;

    for (size_t i = 0; i < zmq->n_peers; i++) {
        n += zmq_channel_is_up(zmq->peers[i].ch);
    }
    return n;
}

/* Returns true if a frame may be sent now: at least one channel is up and
 * every channel that is up has room in its window.  One orchd that does
 * not acknowledge (stopped, busy, or dead and not restarted yet) holds
 * every instance back: nothing is dropped for it. */
static bool
can_send(const struct fpmd_zmq *zmq)
{
    bool any = false;

    for (size_t i = 0; i < zmq->n_peers; i++) {
        const struct zmq_channel *ch = zmq->peers[i].ch;

        if (zmq_channel_is_up(ch)) {
            if (!zmq_channel_can_send(ch)) {
                return false;
            }
            any = true;
        }
    }
    return any;
}

/* Sends the frame in 'b' to every channel that is up, a copy to each but
 * the last; leaves 'b' empty. */
static void
send_frame(struct fpmd_zmq *zmq, struct ofpbuf *b)
{
    struct fpmd_zmq_peer *last = NULL;

    for (size_t i = 0; i < zmq->n_peers; i++) {
        struct fpmd_zmq_peer *peer = &zmq->peers[i];

        if (!zmq_channel_is_up(peer->ch)) {
            /* Its first contact starts a resync that sends it all. */
            peer->n_skipped++;
            continue;
        }
        if (last) {
            struct ofpbuf copy;

            ofpbuf_init(&copy, b->size);
            ofpbuf_put(&copy, b->data, b->size);
            zmq_channel_send(last->ch, &copy);
            ofpbuf_uninit(&copy);
            last->n_frames++;
        }
        last = peer;
    }
    ovs_assert(last);
    zmq_channel_send(last->ch, b);
    last->n_frames++;
}

/* Runs the channels and sends frames while every channel that is up has
 * room. */
void
fpmd_zmq_run(struct fpmd_zmq *zmq)
{
    struct ofpbuf b;

    for (size_t i = 0; i < zmq->n_peers; i++) {
        zmq_channel_run(zmq->peers[i].ch);
    }
    if (!n_up(zmq)) {
        /* The resync at first contact with an orchd sends every route:
         * until then, queued routes need not be kept (nor their
         * memory). */
        discard(zmq);
        return;
    }
    ofpbuf_init(&b, 0);
    while (can_send(zmq) && fpmd_zmq_take_frame(zmq, &b)) {
        send_frame(zmq, &b);
    }
    if (can_send(zmq) && take_db_frame(zmq, &b)) {
        send_frame(zmq, &b);
    }
    ofpbuf_uninit(&b);
}

void
fpmd_zmq_wait(struct fpmd_zmq *zmq)
{
    for (size_t i = 0; i < zmq->n_peers; i++) {
        zmq_channel_wait(zmq->peers[i].ch);
    }
    if (can_send(zmq)) {
        const struct fpmd_route *front = ptr_fifo_peek(&zmq->queue);

        if ((front && !fpmd_rib_defers(zmq->rib, front))
            || resync_can_end(zmq)
            || db_is_behind(zmq) != zmq->db_behind) {
            poll_immediate_wake();
        } else if (zmq->db_behind) {
            poll_timer_wait_until(zmq->db_behind_ms + FPMD_ZMQ_DB_BEHIND_MS);
        }
    }
}

/* Returns true if fpmsyncd should not read zebra now: the queue is full,
 * or an orchd whose channel is up has not acknowledged enough frames to
 * leave room in the channel's window.  (Never before first contact with
 * some orchd: the queue is not kept then, see fpmd_zmq_run().) */
bool
fpmd_zmq_is_full(const struct fpmd_zmq *zmq)
{
    return (ptr_fifo_len(&zmq->queue) >= zmq->max_pending
            || (n_up(zmq) && !can_send(zmq)));
}

/* Returns fpmd_zmq_is_full(), counting each stall once. */
bool
fpmd_zmq_backpressure(struct fpmd_zmq *zmq)
{
    bool full = fpmd_zmq_is_full(zmq);

    if (full && !zmq->stalled) {
        zmq->n_stalls++;
        COVERAGE_INC(fpmd_zmq_stall);
    }
    zmq->stalled = full;
    return full;
}

/* Introspection. */

size_t
fpmd_zmq_n_queued(const struct fpmd_zmq *zmq)
{
    return ptr_fifo_len(&zmq->queue);
}

/* Appends zmq/show's lines about the channel and the queue to 's'. */
void
fpmd_zmq_format(const struct fpmd_zmq *zmq, struct ds *s)
{
    for (size_t i = 0; i < zmq->n_peers; i++) {
        const struct fpmd_zmq_peer *peer = &zmq->peers[i];

        zmq_channel_format(peer->ch, s);
        ds_put_format(s, "  instance %d: %"PRIu64" frames sent, %"PRIu64
                      " skipped (channel not up), %"PRIu64" resyncs",
                      peer->instance, peer->n_frames, peer->n_skipped,
                      peer->n_resyncs);
        if (peer->instance) {
            ds_put_format(s, "; results ignored: %"PRIu64" programmed, %"
                          PRIu64" errors", peer->n_results_ok,
                          peer->n_results_error);
        }
        ds_put_char(s, '\n');
    }
    ds_put_format(s, "queue: %"PRIuSIZE" routes waiting (stall at %"
                  PRIuSIZE"), %"PRIu64" frames (up to %"PRIuSIZE" routes), %"
                  PRIu64" sets, %"PRIu64" deletes\n",
                  ptr_fifo_len(&zmq->queue), zmq->max_pending,
                  zmq->n_frames, zmq->frame_max, zmq->n_sets, zmq->n_dels);
    ds_put_format(s, "queue: held %"PRIu64", cancelled %"PRIu64
                  ", unencodable %"PRIu64"\n", zmq->n_held,
                  zmq->n_cancelled, zmq->n_unencodable);
    ds_put_format(s, "stalls: %"PRIu64" (%s)\n", zmq->n_stalls,
                  zmq->stalled ? "reading zebra paused" : "reading zebra");
    ds_put_format(s, "Route writes behind, as last told to orchd: %s; %"
                  PRIu64" frames sent only to tell it\n",
                  zmq->db_behind ? "yes" : "no", zmq->n_db_frames);
    ds_put_format(s, "resyncs: %"PRIu64" started, %"PRIu64" complete",
                  zmq->n_resyncs, zmq->n_sync_ends);
    if (zmq->resyncing) {
        ds_put_format(s, ", %"PRIuSIZE" routes to go%s", zmq->n_resync,
                      fpmd_rib_is_loaded(zmq->rib) ? ""
                      : " (database not read yet)");
    }
    ds_put_char(s, '\n');
    ds_put_format(s, "results: %"PRIu64" offloaded, %"PRIu64" stale, %"
                  PRIu64" errors, %"PRIu64" unexpected frames\n",
                  zmq->n_results_ok, zmq->n_results_stale,
                  zmq->n_results_error, zmq->n_unexpected);
}
