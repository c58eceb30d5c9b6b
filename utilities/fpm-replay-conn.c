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

/* fpm-replay: the connection to an FPM listener, for the modes that act as
 * zebra (generate and replay).
 *
 * Netlink messages are batched into frames in an output buffer and written
 * without blocking; whatever the listener sends back (offload replies) is
 * read and counted all along, so that it never blocks on a full socket. */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/fpm-route-format.h"
#include "utilities/fpm-replay.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

/* Returns a TCP socket to host:port: with 'passive', bound and listening
 * for one connection, otherwise connected.  Exits on failure. */
int
fpm_replay_open_tcp(const char *host, const char *port, bool passive)
{
    struct addrinfo hints, *res, *ai;
    int error, fd = -1;

    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    error = getaddrinfo(host, port, &hints, &res);
    if (error) {
        ovs_fatal(0, "%s:%s: %s", host, port, gai_strerror(error));
    }
    for (ai = res; ai; ai = ai->ai_next) {
        int one = 1;

        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            continue;
        }
        if (passive) {
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
            if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, 1)) {
                break;
            }
        } else if (!connect(fd, ai->ai_addr, ai->ai_addrlen)) {
            break;
        }
        error = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        ovs_fatal(error, passive ? "%s:%s: cannot listen"
                                 : "%s:%s: connect failed", host, port);
    }
    return fd;
}

/* Returns a connected, non-blocking TCP socket to host:port. */
static int
connect_to(const char *host, const char *port)
{
    int fd = fpm_replay_open_tcp(host, port, false);
    int one = 1;

    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    return fd;
}

/* Connects to the listener at --host and --port and initializes 'c' for
 * the session. */
void
fpm_replay_conn_open(struct fpm_replay_conn *c,
                     const struct fpm_replay_options *opts)
{
    int fd = connect_to(opts->host, opts->port);

    memset(c, 0, sizeof *c);
    c->fd = fd;
    c->opts = opts;
    ofpbuf_init(&c->out, 1024 * 1024);
    ofpbuf_init(&c->msg, 4096);
    c->open_ofs = SIZE_MAX;
    c->frame_max = opts->frame_size;
    c->batch = opts->batch;
    c->rate = opts->rate;
    c->seq = 1;
    fpm_splitter_init(&c->in, 0);
    fpm_msg_init(&c->reply);
}

/* Closes the connection of 'c' and frees its buffers. */
void
fpm_replay_conn_destroy(struct fpm_replay_conn *c)
{
    ofpbuf_uninit(&c->out);
    ofpbuf_uninit(&c->msg);
    fpm_splitter_destroy(&c->in);
    fpm_msg_destroy(&c->reply);
    if (c->fd >= 0) {
        close(c->fd);
    }
}

/* Counts (and with -vv prints) one message received from the listener. */
static void
reply_cb(const struct fpm_msg *msg, int error,
         const struct nlmsghdr *nlh OVS_UNUSED, void *c_)
{
    struct fpm_replay_conn *c = c_;

    if (error) {
        if (c->opts->verbosity > 1) {
            printf("reply: error: %s\n", fpm_parse_error_to_string(error));
        }
        return;
    }
    if (msg->kind == FPM_MSG_ROUTE && msg->route.op == FPM_OP_ADD) {
        uint32_t f = msg->route.rtm_flags;

        c->n_offload += (f & RTM_F_OFFLOAD) != 0;
        c->n_trap += (f & RTM_F_TRAP) != 0;
        c->n_failed += (f & RTM_F_OFFLOAD_FAILED) != 0;
    }
    if (c->opts->verbosity > 1) {
        struct ds s = DS_EMPTY_INITIALIZER;

        fpm_msg_format(msg, &s);
        printf("reply: %s\n", ds_cstr(&s));
        ds_destroy(&s);
    }
}

/* Reads whatever the listener has sent, without blocking. */
static void
conn_read(struct fpm_replay_conn *c)
{
    while (!c->peer_closed) {
        struct fpm_frame frame;
        size_t room;
        void *p = fpm_splitter_reserve(&c->in, &room);
        ssize_t n = recv(c->fd, p, room, MSG_DONTWAIT);

        if (n < 0) {
            if (errno == EINTR) {
                continue;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
                c->peer_closed = true;
                c->peer_error = errno;
            }
            return;
        } else if (n == 0) {
            c->peer_closed = true;
            return;
        }

        fpm_splitter_commit(&c->in, n);
        c->last_reply = fpm_replay_now();
        while (!c->bad_input && !fpm_splitter_next(&c->in, &frame)) {
            fpm_route_parse_frame(frame.data, frame.size, &c->reply,
                                  &c->rstats,
                                  reply_cb, c);
        }
        if (c->in.error != FPM_FRAME_OK && !c->bad_input) {
            c->bad_input = true;
            ovs_error(0, "listener sent a bad frame: %s; ignoring the rest "
                      "of its input",
                      fpm_frame_error_to_string(c->in.error));
        }
        if (c->bad_input) {
            /* Keep draining so the peer never blocks. */
            fpm_splitter_reset(&c->in);
            c->bad_input = true;
        }
    }
}

/* Offset up to which 'out' holds complete frames. */
static size_t
conn_complete(const struct fpm_replay_conn *c)
{
    return c->open_ofs == SIZE_MAX ? c->out.size : c->open_ofs;
}

/* Writes complete frames until none is left ('all') or until the socket
 * would block, reading replies meanwhile.  Returns false if the connection
 * failed. */
static bool
conn_flush(struct fpm_replay_conn *c, bool all)
{
    for (;;) {
        size_t complete = conn_complete(c);

        while (c->sent < complete) {
            ssize_t n = send(c->fd, (uint8_t *) c->out.data + c->sent,
                             complete - c->sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    break;
                }
                c->peer_closed = true;
                c->peer_error = errno;
                return false;
            }
            if (!c->first_send) {
                c->first_send = fpm_replay_now();
            }
            c->sent += n;
            c->n_bytes += n;
        }
        if (c->sent == complete) {
            /* Move the open frame, if any, to the front. */
            size_t rest = c->out.size - complete;

            if (rest) {
                memmove(c->out.data, (uint8_t *) c->out.data + complete,
                        rest);
            }
            c->out.size = rest;
            c->sent = 0;
            if (c->open_ofs != SIZE_MAX) {
                c->open_ofs = 0;
            }
            c->last_send = fpm_replay_now();
            conn_read(c);
            return !c->peer_closed || !c->peer_error;
        }

        /* Socket full: wait until it drains, reading replies so that the
         * listener never blocks on us. */
        conn_read(c);
        if (c->peer_closed) {
            return false;
        }
        if (!all) {
            return true;
        }
        struct pollfd pfd = { .fd = c->fd, .events = POLLIN | POLLOUT };
        if (poll(&pfd, 1, 1000) < 0 && errno != EINTR) {
            ovs_fatal(errno, "poll");
        }
        if (fpm_replay_stop_requested) {
            return false;
        }
    }
}

/* Counts a netlink message of 'type' in the output counters of 'c'.  A
 * route message counts as a route only if 'route' (replay mode counts only
 * the route messages that parse as routes). */
void
fpm_replay_conn_count(struct fpm_replay_conn *c, uint16_t type, bool route)
{
    c->n_msgs++;
    switch (type) {
    case RTM_NEWROUTE:
        c->n_route_add += route;
        break;
    case RTM_DELROUTE:
        c->n_route_del += route;
        break;
    case RTM_NEWNEXTHOP:
        c->n_nh_add++;
        break;
    case RTM_DELNEXTHOP:
        c->n_nh_del++;
        break;
    }
}

/* Closes the open frame, if any. */
void
fpm_replay_conn_close_frame(struct fpm_replay_conn *c)
{
    if (c->open_ofs != SIZE_MAX) {
        fpm_frame_finish(&c->out, c->open_ofs);
        c->open_ofs = SIZE_MAX;
        c->open_msgs = 0;
        c->n_frames++;
    }
}

/* Queues the netlink message in 'c->msg', batching it into the open frame
 * while it fits in --frame-size and --batch. */
void
fpm_replay_conn_put_msg(struct fpm_replay_conn *c)
{
    const struct nlmsghdr *nlh = c->msg.data;
    size_t len = c->msg.size;

    if (len + FPM_FRAME_HDR_LEN > c->frame_max) {
        ovs_fatal(0, "a %zu-byte message does not fit in a %zu-byte frame",
                  len, c->frame_max);
    }
    if (c->open_ofs != SIZE_MAX
        && ((c->out.size - c->open_ofs) + len > c->frame_max
            || (c->batch && c->open_msgs >= c->batch))) {
        fpm_replay_conn_close_frame(c);
        if (c->out.size >= 256 * 1024) {
            conn_flush(c, true);
        }
    }
    if (c->open_ofs == SIZE_MAX) {
        c->open_ofs = fpm_frame_start(&c->out);
    }
    fpm_replay_conn_count(c, nlh->nlmsg_type, true);
    ofpbuf_put(&c->out, c->msg.data, len);
    c->open_msgs++;
}

/* Closes the open frame and writes everything. */
static bool
conn_flush_all(struct fpm_replay_conn *c)
{
    fpm_replay_conn_close_frame(c);
    return conn_flush(c, true);
}

/* Returns the bytes of our stream that the listener has not acknowledged
 * yet (queued in our kernel), or 0 if that cannot be told. */
static int
conn_unsent(const struct fpm_replay_conn *c)
{
    int n;

    return ioctl(c->fd, SIOCOUTQ, &n) ? 0 : n;
}

/* Waits until 'deadline' (an fpm_replay_now() time), reading replies. */
static void
conn_wait_until(struct fpm_replay_conn *c, double deadline)
{
    for (;;) {
        double left = deadline - fpm_replay_now();

        if (left <= 0 || fpm_replay_stop_requested || c->peer_closed) {
            return;
        }
        struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
        int ms = left * 1000 + 1;
        if (poll(&pfd, 1, ms) > 0) {
            conn_read(c);
        }
    }
}

/* Queues 'len' bytes of 'frame', a whole frame header included, as a frame
 * of its own (replay mode). */
void
fpm_replay_conn_put_frame(struct fpm_replay_conn *c, const void *frame,
                          size_t len)
{
    fpm_replay_conn_close_frame(c);
    ofpbuf_put(&c->out, frame, len);
    c->n_frames++;
    if (c->out.size >= 256 * 1024) {
        conn_flush(c, true);
    }
}

/* --rate pacing: 'done' routes sent since 't0'. */
void
fpm_replay_pace(struct fpm_replay_conn *c, double t0, uint64_t done)
{
    double due;

    if (c->rate <= 0) {
        return;
    }
    due = t0 + done / c->rate;
    if (fpm_replay_now() < due) {
        conn_flush_all(c);
        conn_wait_until(c, due);
    }
}

/* Writes everything queued on 'c', then waits 'seconds', reading
 * replies. */
void
fpm_replay_conn_pause(struct fpm_replay_conn *c, double seconds)
{
    conn_flush_all(c);
    conn_wait_until(c, fpm_replay_now() + seconds);
}

/* Prints the session summary of 'c' (what, at what rate, and the
 * replies), for a session that started at 't0'. */
static void
print_summary(const struct fpm_replay_conn *c, double t0, double t_send,
              double t_end, const char *what)
{
    uint64_t n_routes = c->n_route_add + c->n_route_del;

    printf("fpm-replay: %s %"PRIu64" routes (%"PRIu64" add, %"PRIu64
           " del), %"PRIu64" nexthops (%"PRIu64" add, %"PRIu64" del), "
           "%"PRIu64" msgs in %"PRIu64" frames, %.1f MB "
           "in %.3f s: %.0f routes/s; ",
           what, n_routes, c->n_route_add, c->n_route_del,
           c->n_nh_add + c->n_nh_del, c->n_nh_add, c->n_nh_del,
           c->n_msgs, c->n_frames, c->n_bytes / 1e6,
           t_send, t_send > 0 ? n_routes / t_send : 0.0);
    printf("replies: %"PRIu64" msgs (%"PRIu64" offload, %"PRIu64
           " trap, %"PRIu64" failed)",
           c->rstats.n_msgs, c->n_offload, c->n_trap, c->n_failed);
    if (c->last_reply) {
        printf(", last at %.3f s", c->last_reply - t0);
    }
    printf("; closed at %.3f s\n", t_end);
}

/* Ends a session on 'c' that started at 't0': lingers for replies,
 * half-closes, drains until the listener closes (at most 2 s) and prints
 * the summary, which says the routes were 'what' ("sent", "replayed").
 * 'expect_close' says that the listener should have closed the connection
 * (after a bad frame header).  Returns the exit status. */
int
fpm_replay_conn_finish(struct fpm_replay_conn *c, double t0,
                       const char *what, bool expect_close)
{
    const struct fpm_replay_options *opts = c->opts;
    double t_send, t_end;
    int status = 0;

    if (!c->peer_closed) {
        conn_flush_all(c);
    }
    t_send = (c->last_send ? c->last_send : fpm_replay_now()) - t0;

    /* Linger, reading replies. */
    double deadline = fpm_replay_now() + opts->linger;
    while (!c->peer_closed && !fpm_replay_stop_requested
           && fpm_replay_now() < deadline) {
        if (opts->wait_offload
            && c->n_offload + c->n_failed + c->n_trap >= c->n_route_add) {
            break;
        }
        conn_wait_until(c, MIN(deadline, fpm_replay_now() + 0.05));
    }

    /* Half-close and drain until the listener closes, so that unread
     * replies cannot make our close reset the connection: a reset drops
     * whatever our kernel has not yet sent, and a listener that stopped
     * reading for backpressure (fpmsyncd, on the OVSDB path, with FIB
     * suppression sending replies all along) can have megabytes of our
     * stream still to take in.  So wait as long as the listener makes
     * progress, taking in our bytes or sending replies, and give up only
     * after 2 s without any. */
    if (!c->peer_closed) {
        int unsent = conn_unsent(c);
        double last_reply = c->last_reply;
        double give_up = fpm_replay_now() + 2.0;

        shutdown(c->fd, SHUT_WR);
        while (!c->peer_closed && !fpm_replay_stop_requested
               && fpm_replay_now() < give_up) {
            conn_wait_until(c, MIN(give_up, fpm_replay_now() + 0.1));

            int now_unsent = conn_unsent(c);
            if (now_unsent < unsent || c->last_reply != last_reply) {
                unsent = now_unsent;
                last_reply = c->last_reply;
                give_up = fpm_replay_now() + 2.0;
            }
        }
    }
    t_end = fpm_replay_now() - t0;

    if (c->peer_closed && c->peer_error && !expect_close) {
        ovs_error(c->peer_error, "connection failed after %"PRIu64" bytes",
                  c->n_bytes);
        status = 1;
    } else if (c->peer_closed && expect_close && opts->verbosity > 0) {
        printf("listener closed the connection, as expected\n");
    }

    if (opts->verbosity > 0) {
        print_summary(c, t0, t_send, t_end, what);
    }
    return status;
}
