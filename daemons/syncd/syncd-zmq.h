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


#ifndef SYNCD_ZMQ_H
#define SYNCD_ZMQ_H 1

/* syncd-zmq: syncd's southbound fast path.  orchd sends its bulks as
 * ROUTES frames (lib/route-frame.h) over a ZeroMQ channel
 * (lib/zmq-channel.h) that syncd binds; each entry becomes a route
 * operation of the apply step (daemons/syncd/syncd-apply.h), and the apply
 * step's results go back as RESULTS frames, one entry per route, echoing
 * its op, VRF, prefix and seq, in one frame per flush (at most 1,000
 * entries a frame).  On this path syncd neither reads nor writes
 * Asic_Route: orchd writes the rows behind.
 *
 * Entries
 * =======
 *
 * An entry that decodes but cannot be used (a bad next-hop key or weight,
 * a forwarding route without next hops) is answered with an error result
 * (status SYNCD_ZMQ_STATUS_BAD and the reason) and counted; its new
 * content is never programmed, and its old route, if any, goes (as
 * syncd-db does with a bad Asic_Route row).  Next-hop keys are checked by
 * daemons/syncd/syncd-nexthop-key.h, as on the OVSDB path.
 *
 * Resync
 * ======
 *
 * When the channel's peer callback fires (orchd started or restarted),
 * every route programmed is marked stale (syncd_apply_mark_stale()); each
 * SET that follows confirms its route (one equal to what is programmed
 * changes nothing: no removal and re-creation, the "unchanged" counter);
 * the frame flagged ROUTE_FRAME_F_SYNC_END removes the routes left stale
 * and reports each removal as a DEL result with seq 0, so that orchd
 * deletes the row it may have written behind.
 *
 * Flow control: the results of one ROUTES frame are bounded by the bulk
 * it carries, and orchd keeps a window of bulks awaiting results, so
 * syncd always reads and always answers; the channel queues what libzmq
 * will not take yet.
 *
 * Thread safety: none; syncd's main thread owns it. */

#include <stdint.h>

struct ds;
struct syncd_apply;
struct syncd_route_result;

/* Status of the result of an entry that could not be used at all. */
#define SYNCD_ZMQ_STATUS_BAD 0xff

/* Options for syncd_zmq_create(). */
struct syncd_zmq_options {
    const char *endpoint;       /* Where to bind ("ipc://PATH" or
                                 * "tcp://HOST:PORT"). */
};

/* Counters. */
struct syncd_zmq_stats {
    uint64_t frames;            /* ROUTES frames taken in. */
    uint64_t sets;              /* Their SET entries... */
    uint64_t dels;              /* ...and DEL entries. */
    uint64_t bad_entries;       /* Entries that could not be used. */
    uint64_t other_frames;      /* Data frames that were not ROUTES. */
    uint64_t results_ok;        /* Results sent: programmed... */
    uint64_t results_error;     /* ...or not... */
    uint64_t result_frames;     /* ...in so many RESULTS frames. */
    uint64_t resyncs;           /* Peer callbacks (orchd (re)started). */
    uint64_t sync_ends;         /* Frames that ended a resync. */
    uint64_t last_marked;       /* The last resync: routes marked stale, */
    uint64_t last_sets;         /* SETs received during it, */
    uint64_t last_unchanged;    /* of which changed nothing, */
    uint64_t last_swept;        /* routes removed at its end. */
};

struct syncd_zmq *syncd_zmq_create(const struct syncd_zmq_options *,
                                   struct syncd_apply *, char **errorp);
void syncd_zmq_destroy(struct syncd_zmq *);
void syncd_zmq_run(struct syncd_zmq *);
void syncd_zmq_wait(struct syncd_zmq *);
void syncd_zmq_get_stats(const struct syncd_zmq *, struct syncd_zmq_stats *);
void syncd_zmq_format(const struct syncd_zmq *, struct ds *);

/* The apply step's result callback, 'aux' being the 'struct syncd_zmq'. */
void syncd_zmq_apply_result(const struct syncd_route_result *, void *aux);

#endif /* syncd-zmq.h */
