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

#include "lib/zmq-channel.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <zmq.h>

#include "coverage.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/list.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "random.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(zmq_channel);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(zmq_channel_bad_frame);
COVERAGE_DEFINE(zmq_channel_resend);
COVERAGE_DEFINE(zmq_channel_peer_restart);

/* Most messages read per zmq_channel_run() call. */
#define MAX_RECV_PER_RUN 64

/* Hello retries until the handshake is done: first after this many ms,
 * doubling up to the maximum. */
#define HELLO_MIN_MS 100
#define HELLO_MAX_MS 2000

/* A data frame sent and not acknowledged yet. */
struct zmq_pending {
    struct ovs_list node;       /* In 'unacked', oldest first. */
    uint64_t seq;               /* Its sequence number. */
    struct ofpbuf frame;        /* The frame. */
    bool sent;                  /* Handed to libzmq since the last
                                 * rewind. */
    bool ever_sent;             /* Handed to libzmq at least once. */
};

struct zmq_channel {
    char *name;                 /* For logs. */
    char *endpoint;             /* Where it binds or connects. */
    bool bind;                  /* ROUTER that binds, else DEALER. */
    void *socket;               /* The libzmq socket. */
    int fd;                     /* Its ZMQ_FD, for the poll loop. */
    char *peer_id;              /* Routing id of the connecting end. */
    size_t window;              /* Most frames queued or unacknowledged. */
    int resend_ms;              /* Ack probe interval. */

    zmq_channel_recv_cb *recv_cb; /* Data frames in. */
    zmq_channel_peer_cb *peer_cb; /* Peer (re)started. */
    void *aux;                  /* For both. */

    uint64_t epoch;             /* This end's session. */
    uint64_t peer_epoch;        /* The peer's, 0 before the handshake. */
    long long int hello_at;     /* Next hello, before the handshake. */
    int hello_backoff;          /* Current hello interval, ms. */

    /* Sending. */
    uint64_t tx_next_seq;       /* Number of the next data frame. */
    struct ovs_list unacked;    /* "struct zmq_pending"s. */
    size_t n_unacked;           /* Length of 'unacked'. */
    size_t n_unsent;            /* Of those, not handed to libzmq. */
    long long int ack_progress_ms; /* When acks last moved, or the first
                                    * frame was queued after they did. */
    bool probe_pending;         /* An ack probe awaits its answer. */
    uint64_t probe_seq;         /* Last frame sent before that probe. */
    uint64_t last_gap_seq;      /* Last gap rewound for (UINT64_MAX:
                                 * none). */

    /* Receiving. */
    bool receiving;             /* Reading the socket at all. */
    uint64_t rx_last;           /* Last data frame delivered. */
    bool ack_due;               /* An ack must go out. */
    uint32_t ack_flags;         /* With these flags. */
    uint64_t gap_reported;      /* 'rx_last' a gap was reported at
                                 * (UINT64_MAX: none). */

    struct zmq_channel_stats stats; /* Counters. */
};

/* The process's one libzmq context. */
static void *
zctx(void)
{
    static void *ctx;

    if (!ctx) {
        ctx = zmq_ctx_new();
        ovs_assert(ctx);
    }
    return ctx;
}

/* Returns the routing id of the connecting end of channel 'name'. */
static char *
peer_routing_id(const char *name)
{
    return xasprintf("fibsync-%s", name);
}

/* Sets integer socket option 'opt' to 'value'. */
static int
set_int(void *socket, int opt, int value)
{
    return zmq_setsockopt(socket, opt, &value, sizeof value);
}

/* Opens, configures and binds or connects the socket of 'ch'.  Returns
 * NULL or an error message. */
static char *
open_socket(struct zmq_channel *ch, int hwm)
{
    size_t fd_len = sizeof ch->fd;
    int error;

    ch->socket = zmq_socket(zctx(), ch->bind ? ZMQ_ROUTER : ZMQ_DEALER);
    if (!ch->socket) {
        return xasprintf("zmq_socket: %s", zmq_strerror(errno));
    }
    set_int(ch->socket, ZMQ_LINGER, 0);
    set_int(ch->socket, ZMQ_SNDHWM, hwm);
    set_int(ch->socket, ZMQ_RCVHWM, hwm);
    if (ch->bind) {
        /* Refuse a send to an absent peer instead of dropping it, and let
         * a restarted peer take its routing id over at once. */
        set_int(ch->socket, ZMQ_ROUTER_MANDATORY, 1);
        set_int(ch->socket, ZMQ_ROUTER_HANDOVER, 1);
        error = zmq_bind(ch->socket, ch->endpoint);
    } else {
        zmq_setsockopt(ch->socket, ZMQ_ROUTING_ID, ch->peer_id,
                       strlen(ch->peer_id));
        error = zmq_connect(ch->socket, ch->endpoint);
    }
    if (error) {
        return xasprintf("%s %s: %s", ch->bind ? "bind" : "connect",
                         ch->endpoint, zmq_strerror(errno));
    }
    if (zmq_getsockopt(ch->socket, ZMQ_FD, &ch->fd, &fd_len)) {
        return xasprintf("ZMQ_FD: %s", zmq_strerror(errno));
    }
    return NULL;
}

/* Creates a channel as 'options' say.  On failure returns NULL and an
 * error message in '*errorp'. */
struct zmq_channel *
zmq_channel_create(const struct zmq_channel_options *options,
                   zmq_channel_recv_cb *recv_cb, zmq_channel_peer_cb *peer_cb,
                   void *aux, char **errorp)
{
    struct zmq_channel *ch = xzalloc(sizeof *ch);
    char *error;

    ch->name = xstrdup(options->name);
    ch->endpoint = xstrdup(options->endpoint);
    ch->bind = options->bind;
    ch->peer_id = peer_routing_id(options->name);
    ch->window = options->window ? options->window : 64;
    ch->resend_ms = options->resend_ms ? options->resend_ms : 1000;
    ch->recv_cb = recv_cb;
    ch->peer_cb = peer_cb;
    ch->aux = aux;
    do {
        ch->epoch = random_uint64();
    } while (!ch->epoch);
    ch->tx_next_seq = 1;
    ovs_list_init(&ch->unacked);
    ch->last_gap_seq = UINT64_MAX;
    ch->gap_reported = UINT64_MAX;
    ch->receiving = true;
    ch->hello_backoff = HELLO_MIN_MS;

    error = open_socket(ch, options->hwm ? options->hwm : 1000);
    if (error) {
        *errorp = xasprintf("%s: %s", ch->name, error);
        free(error);
        zmq_channel_destroy(ch);
        return NULL;
    }
    *errorp = NULL;
    return ch;
}

static void
pending_free(struct zmq_pending *p)
{
    ofpbuf_uninit(&p->frame);
    free(p);
}

/* Forgets every unacknowledged frame. */
static void
drop_unacked(struct zmq_channel *ch)
{
    struct zmq_pending *p;

    LIST_FOR_EACH_POP (p, node, &ch->unacked) {
        pending_free(p);
    }
    ch->n_unacked = ch->n_unsent = 0;
}

void
zmq_channel_destroy(struct zmq_channel *ch)
{
    if (ch) {
        drop_unacked(ch);
        if (ch->socket) {
            zmq_close(ch->socket);
        }
        free(ch->name);
        free(ch->endpoint);
        free(ch->peer_id);
        free(ch);
    }
}

/* Sends one message.  Returns 0, EAGAIN if libzmq cannot take it now (the
 * high-water mark, or no peer yet), or another errno value. */
static int
raw_send(struct zmq_channel *ch, const void *data, size_t size)
{
    if (ch->bind && zmq_send(ch->socket, ch->peer_id, strlen(ch->peer_id),
                             ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0) {
        return errno == EHOSTUNREACH ? EAGAIN : errno;
    }
    if (zmq_send(ch->socket, data, size, ZMQ_DONTWAIT) < 0) {
        return errno;
    }
    return 0;
}

/* Sends a control frame (hello or ack) of 'type' with 'flags' and 'seq'.
 * Returns true if libzmq took it. */
static bool
send_control(struct zmq_channel *ch, enum route_frame_type type,
             uint32_t flags, uint64_t seq)
{
    uint8_t buf[ROUTE_FRAME_HEADER_LEN];
    struct ofpbuf b;

    ofpbuf_use_stub(&b, buf, sizeof buf);
    route_frame_start(&b, type, seq, ch->epoch);
    route_frame_set_header(b.data, flags, seq, ch->epoch);
    bool ok = !raw_send(ch, b.data, b.size);
    ofpbuf_uninit(&b);
    return ok;
}

/* Hands unsent frames to libzmq, oldest first, until it refuses one. */
static void
flush(struct zmq_channel *ch)
{
    struct zmq_pending *p;

    if (!ch->n_unsent || !ch->peer_epoch) {
        return;
    }
    LIST_FOR_EACH (p, node, &ch->unacked) {
        if (p->sent) {
            continue;
        }
        int error = raw_send(ch, p->frame.data, p->frame.size);
        if (error) {
            if (error == EAGAIN) {
                ch->stats.hwm_waits++;
            } else {
                VLOG_WARN_RL(&rl, "%s: send failed: %s", ch->name,
                             zmq_strerror(error));
            }
            return;
        }
        p->sent = true;
        ch->n_unsent--;
        if (p->ever_sent) {
            ch->stats.resent++;
            COVERAGE_INC(zmq_channel_resend);
        } else {
            p->ever_sent = true;
            ch->stats.sent++;
        }
    }
}

/* Marks every unacknowledged frame to be sent again (go-back-N). */
static void
rewind_unacked(struct zmq_channel *ch)
{
    struct zmq_pending *p;

    LIST_FOR_EACH (p, node, &ch->unacked) {
        if (p->sent) {
            p->sent = false;
            ch->n_unsent++;
        }
    }
}

/* The peer's epoch is 'epoch', new: it (re)started. */
static void
peer_started(struct zmq_channel *ch, uint64_t epoch)
{
    if (ch->peer_epoch) {
        ch->stats.peer_restarts++;
        COVERAGE_INC(zmq_channel_peer_restart);
        VLOG_INFO("%s: peer restarted (epoch %"PRIx64" -> %"PRIx64"): "
                  "resynchronizing", ch->name, ch->peer_epoch, epoch);
    } else {
        VLOG_INFO("%s: connected to peer (epoch %"PRIx64")", ch->name,
                  epoch);
    }
    ch->peer_epoch = epoch;
    ch->rx_last = 0;
    ch->gap_reported = UINT64_MAX;
    ch->ack_due = false;
    drop_unacked(ch);
    ch->tx_next_seq = 1;
    ch->probe_pending = false;
    ch->last_gap_seq = UINT64_MAX;
    ch->ack_progress_ms = time_msec();
    if (ch->peer_cb) {
        ch->peer_cb(ch->aux);
    }
}

/* Handles a hello. */
static void
handle_hello(struct zmq_channel *ch, const struct route_frame_header *h)
{
    if (h->epoch != ch->peer_epoch) {
        peer_started(ch, h->epoch);
    }
    if (!(h->flags & ROUTE_FRAME_F_REPLY)) {
        send_control(ch, ROUTE_FRAME_HELLO, ROUTE_FRAME_F_REPLY, 0);
    }
}

/* Handles an ack. */
static void
handle_ack(struct zmq_channel *ch, const struct route_frame_header *h)
{
    struct zmq_pending *p;

    LIST_FOR_EACH_SAFE (p, node, &ch->unacked) {
        if (p->seq > h->seq) {
            break;
        }
        ovs_list_remove(&p->node);
        ch->n_unacked--;
        if (!p->sent) {
            ch->n_unsent--;
        }
        ch->stats.acked++;
        ch->ack_progress_ms = time_msec();
        pending_free(p);
    }
    if (h->flags & ROUTE_FRAME_F_PROBE) {
        /* Answer, saying that this ack answers the probe. */
        ch->ack_due = true;
        ch->ack_flags |= ROUTE_FRAME_F_REPLY;
    }
    if ((h->flags & ROUTE_FRAME_F_GAP) && h->seq != ch->last_gap_seq) {
        /* Frames after 'seq' were lost: send them all again, once per
         * gap however many out-of-order frames report it. */
        ch->last_gap_seq = h->seq;
        rewind_unacked(ch);
    } else if ((h->flags & ROUTE_FRAME_F_REPLY) && ch->probe_pending) {
        /* The peer read everything sent before the probe: what it did
         * not acknowledge was lost. */
        ch->probe_pending = false;
        if (h->seq < ch->probe_seq) {
            rewind_unacked(ch);
        }
    }
}

/* Handles a data frame. */
static void
handle_data(struct zmq_channel *ch, const struct route_frame_header *h,
            const void *data, size_t size)
{
    if (h->seq == ch->rx_last + 1) {
        ch->rx_last++;
        ch->stats.received++;
        ch->ack_due = true;
        ch->recv_cb(ch->aux, h, data, size);
    } else if (h->seq <= ch->rx_last) {
        ch->stats.duplicates++;
        ch->ack_due = true;
    } else {
        ch->stats.gaps++;
        if (ch->gap_reported != ch->rx_last) {
            ch->gap_reported = ch->rx_last;
            ch->ack_due = true;
            ch->ack_flags |= ROUTE_FRAME_F_GAP;
        }
    }
}

/* Handles one message's payload. */
static void
handle_frame(struct zmq_channel *ch, const void *data, size_t size)
{
    struct route_frame_header h;
    enum route_frame_error error = route_frame_validate(data, size, &h);

    if (error) {
        ch->stats.bad_frames++;
        ch->stats.bad_by_error[error]++;
        COVERAGE_INC(zmq_channel_bad_frame);
        VLOG_WARN_RL(&rl, "%s: frame of %"PRIuSIZE" bytes refused: %s",
                     ch->name, size, route_frame_strerror(error));
        return;
    }
    if (h.type == ROUTE_FRAME_HELLO) {
        handle_hello(ch, &h);
    } else if (h.epoch != ch->peer_epoch) {
        /* From a peer whose hello this end has not seen (or an old
         * session): ask for the handshake. */
        ch->stats.stale++;
        if (time_msec() >= ch->hello_at) {
            send_control(ch, ROUTE_FRAME_HELLO, 0, 0);
            ch->hello_at = time_msec() + HELLO_MIN_MS;
        }
    } else if (h.type == ROUTE_FRAME_ACK) {
        handle_ack(ch, &h);
    } else {
        handle_data(ch, &h, data, size);
    }
}

/* Receives one message.  Returns false if there was none. */
static bool
recv_one(struct zmq_channel *ch)
{
    zmq_msg_t parts[3];
    int n = 0;
    bool more = true;

    while (more) {
        zmq_msg_t *part = &parts[MIN(n, 2)];

        if (n >= 2) {
            zmq_msg_close(part);
        }
        zmq_msg_init(part);
        if (zmq_msg_recv(part, ch->socket, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(part);
            if (!n) {
                return false;
            }
            break;
        }
        more = zmq_msg_more(part);
        n++;
    }

    /* The binding end gets [routing id, frame]; the other end [frame]. */
    int want = ch->bind ? 2 : 1;
    const zmq_msg_t *payload = &parts[want - 1];
    if (n != want
        || (ch->bind
            && (zmq_msg_size(&parts[0]) != strlen(ch->peer_id)
                || memcmp(zmq_msg_data(&parts[0]), ch->peer_id,
                          strlen(ch->peer_id))))) {
        ch->stats.bad_messages++;
        VLOG_WARN_RL(&rl, "%s: message of %d parts from an unknown sender "
                     "ignored", ch->name, n);
    } else {
        handle_frame(ch, zmq_msg_data((zmq_msg_t *) payload),
                     zmq_msg_size((zmq_msg_t *) payload));
    }
    for (int i = 0; i < MIN(n, 3); i++) {
        zmq_msg_close(&parts[i]);
    }
    return true;
}

/* When zmq_channel_run() should ask the peer for an ack: 'resend_ms' after
 * acks last moved while frames sent are unacknowledged (4 times that while
 * a probe is unanswered), else never.  The run and the wait must agree on
 * it, or the poll loop spins on a deadline that run does not act on. */
static long long int
probe_deadline(const struct zmq_channel *ch)
{
    if (!ch->n_unacked || ch->n_unacked <= ch->n_unsent) {
        return LLONG_MAX;
    }
    return ch->ack_progress_ms + ch->resend_ms * (ch->probe_pending ? 4 : 1);
}

void
zmq_channel_run(struct zmq_channel *ch)
{
    long long int now = time_msec();

    if (!ch->peer_epoch && now >= ch->hello_at) {
        send_control(ch, ROUTE_FRAME_HELLO, 0, 0);
        ch->hello_at = now + ch->hello_backoff;
        ch->hello_backoff = MIN(ch->hello_backoff * 2, HELLO_MAX_MS);
    }
    for (int i = 0; ch->receiving && i < MAX_RECV_PER_RUN; i++) {
        if (!recv_one(ch)) {
            break;
        }
    }
    flush(ch);
    if (now >= probe_deadline(ch)) {
        /* No ack for a while: ask the peer where it is. */
        if (send_control(ch, ROUTE_FRAME_ACK, ROUTE_FRAME_F_PROBE,
                         ch->rx_last)) {
            ch->probe_pending = true;
            ch->probe_seq = ch->tx_next_seq - 1;
            ch->stats.probes++;
        }
        ch->ack_progress_ms = now;
    }
    if (ch->ack_due && ch->peer_epoch) {
        if (send_control(ch, ROUTE_FRAME_ACK, ch->ack_flags, ch->rx_last)) {
            ch->ack_due = false;
            ch->ack_flags = 0;
        }
    }
}

void
zmq_channel_wait(struct zmq_channel *ch)
{
    uint32_t events = 0;
    size_t len = sizeof events;

    zmq_getsockopt(ch->socket, ZMQ_EVENTS, &events, &len);
    if ((ch->receiving && (events & ZMQ_POLLIN))
        || (ch->n_unsent && ch->peer_epoch && (events & ZMQ_POLLOUT))
        || (ch->ack_due && ch->peer_epoch)) {
        poll_immediate_wake();
        return;
    }
    poll_fd_wait(ch->fd, POLLIN);
    if (!ch->peer_epoch) {
        poll_timer_wait_until(ch->hello_at);
    }
    poll_timer_wait_until(probe_deadline(ch));
}

/* Returns true once the handshake with the peer is done. */
bool
zmq_channel_is_up(const struct zmq_channel *ch)
{
    return ch->peer_epoch != 0;
}

/* Returns true if a frame sent now would be within the window. */
bool
zmq_channel_can_send(const struct zmq_channel *ch)
{
    return ch->peer_epoch && ch->n_unacked < ch->window;
}

/* Sends the data frame in 'frame' (ROUTES or RESULTS, built with
 * route_frame_start()), whose contents the channel takes: 'frame' is left
 * empty.  Frames sent before the handshake are dropped by it (the peer
 * callback resends state). */
void
zmq_channel_send(struct zmq_channel *ch, struct ofpbuf *frame)
{
    struct zmq_pending *p = xmalloc(sizeof *p);

    p->seq = ch->tx_next_seq++;
    p->frame = *frame;
    ofpbuf_init(frame, 0);
    p->sent = p->ever_sent = false;
    route_frame_set_header(p->frame.data,
                           route_frame_get_flags(p->frame.data), p->seq,
                           ch->epoch);
    if (!ch->n_unacked) {
        ch->ack_progress_ms = time_msec();
    }
    ovs_list_push_back(&ch->unacked, &p->node);
    ch->n_unacked++;
    ch->n_unsent++;
    flush(ch);
}

/* Stops or resumes reading the socket: a receiver that cannot keep up
 * stops, and back-pressure reaches the sender. */
void
zmq_channel_set_receiving(struct zmq_channel *ch, bool receiving)
{
    if (receiving && !ch->receiving) {
        poll_immediate_wake();
    }
    ch->receiving = receiving;
}

size_t
zmq_channel_n_unacked(const struct zmq_channel *ch)
{
    return ch->n_unacked;
}

void
zmq_channel_get_stats(const struct zmq_channel *ch,
                      struct zmq_channel_stats *stats)
{
    *stats = ch->stats;
}

void
zmq_channel_format(const struct zmq_channel *ch, struct ds *s)
{
    const struct zmq_channel_stats *st = &ch->stats;

    ds_put_format(s, "%s: %s %s, %s\n", ch->name,
                  ch->bind ? "bound to" : "connected to", ch->endpoint,
                  ch->peer_epoch ? "peer up" : "waiting for the peer");
    ds_put_format(s, "  sent %"PRIu64" (again %"PRIu64"), acked %"PRIu64
                  ", unacked %"PRIuSIZE" (unsent %"PRIuSIZE"), window "
                  "%"PRIuSIZE"\n", st->sent, st->resent, st->acked,
                  ch->n_unacked, ch->n_unsent, ch->window);
    ds_put_format(s, "  received %"PRIu64", duplicates %"PRIu64", gaps %"
                  PRIu64", stale %"PRIu64", peer restarts %"PRIu64"\n",
                  st->received, st->duplicates, st->gaps, st->stale,
                  st->peer_restarts);
    ds_put_format(s, "  refused: bad frames %"PRIu64", bad messages %"
                  PRIu64"; high-water waits %"PRIu64", probes %"PRIu64
                  "\n", st->bad_frames, st->bad_messages, st->hwm_waits,
                  st->probes);
}

/* Returns the endpoint of channel 'name': TCP on loopback port 'tcp_port'
 * if it is nonzero, else an ipc socket in 'rundir'. */
char *
zmq_channel_default_endpoint(const char *rundir, const char *name,
                             int tcp_port)
{
    return (tcp_port
            ? xasprintf("tcp://127.0.0.1:%d", tcp_port)
            : xasprintf("ipc://%s/%s.zmq", rundir, name));
}
