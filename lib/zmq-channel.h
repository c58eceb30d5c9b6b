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

#ifndef ZMQ_CHANNEL_H
#define ZMQ_CHANNEL_H 1

/* zmq-channel: a reliable, ordered, flow-controlled channel between two
 * fibsync daemons over ZeroMQ, carrying lib/route-frame.h frames both
 * ways.  The fast path has two: fpmsyncd -> orchd (northbound) and
 * orchd -> syncd (southbound), with results flowing back on each.
 *
 * Sockets
 * =======
 *
 * The end that binds (the consumer of routes: orchd northbound, syncd
 * southbound) has a ROUTER socket; the end that connects has a DEALER
 * socket with a fixed routing id, so that a restarted binding end can
 * reach its peer as soon as the peer reconnects.  Endpoints are
 * "ipc://PATH" (default: a socket in $FIBSYNC_RUNDIR) or
 * "tcp://127.0.0.1:PORT".
 *
 * What SONiC's ZMQ tables lose, and how this channel does not
 * ===========================================================
 *
 *   - Nothing is dropped at the high-water mark: a frame that libzmq will
 *     not take now stays queued here, and zmq_channel_can_send() says
 *     false once 'window' frames are queued or unacknowledged, so the
 *     sending daemon stops reading its own input (back-pressure up to
 *     zebra).
 *
 *   - Nothing is lost when a peer restarts.  Each end has an epoch,
 *     random at start.  A hello handshake tells each end the other's
 *     epoch; data is accepted only from the epoch the handshake
 *     announced.  When an end sees a new epoch, its peer restarted: it
 *     drops its own unacknowledged frames, numbers from 1 again, and
 *     calls the owner's 'peer' callback, whose job is to send its whole
 *     state again (a resync from the producer's state: at 500K routes/s a
 *     million routes take 2 s).  So the first message after a restart
 *     is never lost: it is sent only after the handshake.
 *
 *   - Frames of one direction are delivered in order, exactly once: each
 *     data frame has a sequence number, the receiver delivers only the
 *     next one, acknowledges cumulatively, and answers a gap with an ack
 *     that asks for everything after the last one it has (go-back-N).  A
 *     frame whose acknowledgement does not come within 'resend_ms' is
 *     probed for, not sent again blindly, so a stopped (SIGSTOP) peer
 *     does not fill its queue with copies.
 *
 *   - A malformed, truncated or wrong-version frame, or a message of the
 *     wrong shape, is refused whole, counted and logged (rate-limited);
 *     the receiver goes on.
 *
 * Use: create, call run() and wait() from the owner's main loop, send
 * frames built with route_frame_start() (the channel stamps their
 * sequence number and epoch), and take frames in the 'recv' callback.
 *
 * Thread safety: a channel belongs to one thread. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/route-frame.h"

struct ds;
struct ofpbuf;

/* How a channel is made. */
struct zmq_channel_options {
    const char *name;           /* "northbound", "southbound": logs and
                                 * the connecting end's routing id. */
    const char *endpoint;       /* "ipc://PATH" or "tcp://HOST:PORT". */
    bool bind;                  /* True for the end that binds. */
    size_t window;              /* Data frames queued or unacknowledged at
                                 * most (0: 64). */
    int hwm;                    /* libzmq's high-water mark, in messages
                                 * (0: 1000). */
    int resend_ms;              /* Probe for acks after so long (0: 1000). */
};

/* Called with each data frame (ROUTES or RESULTS) from the peer, once, in
 * order, after the whole frame was validated.  'frame' is valid only
 * during the call.  Its header's flags are the sender's
 * (ROUTE_FRAME_F_SYNC_END). */
typedef void zmq_channel_recv_cb(void *aux, const struct route_frame_header *,
                                 const void *frame, size_t size);

/* Called when the peer (re)started: everything sent before is gone. */
typedef void zmq_channel_peer_cb(void *aux);

/* Counters. */
struct zmq_channel_stats {
    uint64_t sent;              /* Data frames sent (first time). */
    uint64_t resent;            /* Data frames sent again after a gap. */
    uint64_t acked;             /* Data frames the peer acknowledged. */
    uint64_t received;          /* Data frames delivered to the owner. */
    uint64_t duplicates;        /* Data frames received twice, dropped. */
    uint64_t gaps;              /* Data frames received out of order. */
    uint64_t stale;             /* Frames of an unknown or old epoch. */
    uint64_t bad_frames;        /* Frames refused by the decoder... */
    uint64_t bad_by_error[ROUTE_FRAME_N_ERRORS]; /* ...by reason. */
    uint64_t bad_messages;      /* Messages of the wrong shape. */
    uint64_t peer_restarts;     /* New peer epochs seen. */
    uint64_t hwm_waits;         /* Sends libzmq refused for now. */
    uint64_t probes;            /* Ack probes sent. */
};

struct zmq_channel *zmq_channel_create(const struct zmq_channel_options *,
                                       zmq_channel_recv_cb *,
                                       zmq_channel_peer_cb *, void *aux,
                                       char **errorp);
void zmq_channel_destroy(struct zmq_channel *);

void zmq_channel_run(struct zmq_channel *);
void zmq_channel_wait(struct zmq_channel *);

bool zmq_channel_is_up(const struct zmq_channel *);
bool zmq_channel_can_send(const struct zmq_channel *);
void zmq_channel_send(struct zmq_channel *, struct ofpbuf *frame);
void zmq_channel_set_receiving(struct zmq_channel *, bool);
size_t zmq_channel_n_unacked(const struct zmq_channel *);

void zmq_channel_get_stats(const struct zmq_channel *,
                           struct zmq_channel_stats *);
void zmq_channel_format(const struct zmq_channel *, struct ds *);

char *zmq_channel_default_endpoint(const char *rundir, const char *name,
                                   int tcp_port);

#endif /* zmq-channel.h */
