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
#include "daemons/fpmsyncd/fpmsyncd-fpm.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/netlink.h>
#include <stdlib.h>

#include "coverage.h"
#include "daemons/fpmsyncd/fpmsyncd-db.h"
#include "daemons/fpmsyncd/fpmsyncd-nexthop.h"
#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "daemons/fpmsyncd/fpmsyncd-zmq.h"
#include "lib/fpm-frame.h"
#include "lib/fpm-route.h"
#include "lib/fpm-route-encode.h"
#include "lib/fpm-route-format.h"
#include "lib/perf-timer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "socket-util.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd_fpm);

COVERAGE_DEFINE(fpm_connect);
COVERAGE_DEFINE(fpm_disconnect);
COVERAGE_DEFINE(fpm_frame);
COVERAGE_DEFINE(fpm_bad_frame_header);
COVERAGE_DEFINE(fpm_bad_frame);
COVERAGE_DEFINE(fpm_bad_msg);
COVERAGE_DEFINE(fpm_msg);
COVERAGE_DEFINE(fpm_msg_skipped);
COVERAGE_DEFINE(fpm_route_add);
COVERAGE_DEFINE(fpm_route_del);
COVERAGE_DEFINE(fpm_nexthop_add);
COVERAGE_DEFINE(fpm_nexthop_del);
COVERAGE_DEFINE(fpm_offload_sent);
COVERAGE_DEFINE(fpm_offload_dropped);
COVERAGE_DEFINE(fpm_paused);
COVERAGE_DEFINE(reconcile_run);
COVERAGE_DEFINE(reconcile_stale);

/* Most bytes read from zebra in one main loop iteration, so that replies
 * from the database and unixctl commands are served in between. */
#define FPM_READ_BUDGET (256 * 1024)

/* A message read after this long without any starts a new burst: zebra
 * sends its connected routes when it connects, and the routes of a BGP
 * session seconds later, so fibsync-bench can time the second on its
 * own. */
#define FPM_BURST_GAP_USEC (1000 * 1000)

/* Most bytes of offload notifications queued for zebra. */
#define FPM_MAX_OUTPUT (64 * 1024 * 1024)

struct fpmd_fpm {
    struct fpmd_rib *rib;       /* Where messages go. */
    const struct fpmd_settings *settings; /* Back-pressure, replay. */
    struct fpmd_zmq *zmq;       /* The northbound fast path, if on: its
                                 * queue, not the database's, stops
                                 * reading. */

    /* The connection. */
    struct pstream *listener;   /* Listening socket, once loaded. */
    char *listen_name;          /* "ptcp:PORT:ADDR". */
    struct stream *conn;        /* zebra's connection, if any. */
    char *peer;                 /* Its name. */
    bool streaming;             /* The last read stopped before the
                                 * socket was empty
                                 * (fpmd_fpm_is_streaming()). */
    long long int conn_since;   /* When it connected. */
    bool paused;                /* Reading stopped for backpressure. */
    long long int paused_since; /* When, if 'paused' (msec, monotonic). */
    long long int paused_msec;  /* Time spent paused, all connections,
                                 * not counting the current pause. */

    /* This connection's session, kept after it closes until zebra
     * connects again: what fibsync-bench measures zebra and the lag by. */
    long long int first_msg_usec; /* Wall clock (usec since the epoch)
                                   * of the read that brought the first
                                   * message, 0 if none yet. */
    long long int last_msg_usec;  /* Same, of the last message. */
    uint64_t session_routes_base; /* 'pstats.n_routes' when it
                                   * connected. */
    long long int burst_first_usec; /* Same, of the first message read
                                     * after FPM_BURST_GAP_USEC or more
                                     * without any (or the session's
                                     * first). */
    uint64_t burst_routes_base;   /* 'pstats.n_routes' before it. */

    /* Input. */
    struct fpm_splitter splitter; /* Frame splitter for 'conn'. */
    struct fpm_msg_group group; /* Messages parsed, not yet handled. */
    struct fpm_parse_stats pstats; /* Parse counters, all connections. */
    struct perf_timer *parse_timer; /* "PARSE": FPM messages parsed. */
    uint64_t parse_errors[16];  /* Malformed messages by kind. */
    uint64_t n_bad_headers;     /* Connections closed for a bad header. */
    uint64_t n_incomplete;      /* Connections that ended mid-frame. */
    uint64_t n_connections;     /* Connections accepted. */
    uint64_t n_bytes;           /* Bytes read from zebra. */
    uint64_t n_paused;          /* Times reading stopped for
                                 * backpressure. */

    /* Output. */
    struct ofpbuf out;          /* Offload notifications to send. */
    uint32_t out_seq;           /* Their netlink sequence numbers. */
    uint64_t n_offload_sent;    /* Notifications queued for zebra. */
    uint64_t n_offload_dropped; /* Notifications dropped (no peer, or
                                 * too much queued). */

    /* The replay window. */
    bool reconcile_armed;       /* zebra connected since the last
                                 * reconciliation: fpm/reconcile may run
                                 * one. */
    bool reconcile_pending;     /* A window is open (zebra connected). */
    long long int reconcile_deadline; /* When it closes. */
    long long int last_reconcile; /* When the last one ran. */
    size_t last_stale_routes;   /* Routes it deleted. */
    size_t last_stale_nhgs;     /* Next-hop objects it deleted. */
};

/* Creates fpmsyncd's zebra side, to listen on 'addr':'port' and feed
 * 'rib', under 'settings'.  It listens only after fpmd_fpm_listen(). */
struct fpmd_fpm *
fpmd_fpm_create(const char *addr, int port, struct fpmd_rib *rib,
                const struct fpmd_settings *settings)
{
    struct fpmd_fpm *fpm = xzalloc(sizeof *fpm);
    struct perf_timer_options popts;

    fpm->rib = rib;
    fpm->settings = settings;
    fpm->listen_name = xasprintf("ptcp:%d:%s", port, addr);
    fpm_splitter_init(&fpm->splitter, 0);
    fpm_msg_group_init(&fpm->group);
    ofpbuf_init(&fpm->out, 0);

    perf_timer_options_init(&popts);
    popts.module = &this_module;
    popts.threshold = 100000;
    fpm->parse_timer = perf_timer_create("PARSE", &popts);
    return fpm;
}

void
fpmd_fpm_destroy(struct fpmd_fpm *fpm)
{
    if (fpm) {
        stream_close(fpm->conn);
        pstream_close(fpm->listener);
        perf_timer_flush(fpm->parse_timer);
        perf_timer_destroy(fpm->parse_timer);
        fpm_splitter_destroy(&fpm->splitter);
        fpm_msg_group_destroy(&fpm->group);
        ofpbuf_uninit(&fpm->out);
        free(fpm->listen_name);
        free(fpm->peer);
        free(fpm);
    }
}

const char *
fpmd_fpm_get_listen_name(const struct fpmd_fpm *fpm)
{
    return fpm->listen_name;
}

/* Puts reading zebra under the back-pressure of the northbound fast path
 * 'zmq' instead of the database's. */
void
fpmd_fpm_set_zmq(struct fpmd_fpm *fpm, struct fpmd_zmq *zmq)
{
    fpm->zmq = zmq;
}

/* Starts listening for zebra, if not yet. */
void
fpmd_fpm_listen(struct fpmd_fpm *fpm)
{
    int error;

    if (fpm->listener) {
        return;
    }
    error = pstream_open(fpm->listen_name, &fpm->listener, DSCP_DEFAULT);
    if (error) {
        VLOG_ERR("%s: listen failed: %s", fpm->listen_name,
                 ovs_strerror(error));
        return;
    }
    VLOG_INFO("%s: listening for zebra", fpm->listen_name);
}

/* The replay window. */

/* Opens the replay window of the zebra session that just connected. */
static void
replay_open(struct fpmd_fpm *fpm)
{
    int64_t timer = fpm->settings->reconcile_timer.value;

    fpmd_rib_new_generation(fpm->rib);
    fpm->reconcile_armed = true;
    fpm->reconcile_pending = true;
    if (timer > 0) {
        fpm->reconcile_deadline = time_msec() + timer * 1000;
        VLOG_INFO("%s: zebra connected; routes it does not replay within "
                  "%"PRId64" s will be deleted", fpm->peer, timer);
    } else {
        fpm->reconcile_deadline = LLONG_MAX;
        VLOG_INFO("%s: zebra connected; reconcile timer off: stale routes "
                  "are deleted on fpm/reconcile only", fpm->peer);
    }
}

/* Ends the replay window: the rib deletes what zebra did not replay. */
static void
reconcile_now(struct fpmd_fpm *fpm)
{
    size_t n_routes, n_nhgs;

    fpm->reconcile_pending = false;
    fpm->reconcile_armed = false;
    fpmd_rib_reconcile(fpm->rib, &n_routes, &n_nhgs);
    fpm->last_reconcile = time_msec();
    fpm->last_stale_routes = n_routes;
    fpm->last_stale_nhgs = n_nhgs;
    COVERAGE_INC(reconcile_run);
    COVERAGE_ADD(reconcile_stale, n_routes + n_nhgs);
    VLOG_INFO("reconciliation: %"PRIuSIZE" stale routes and %"PRIuSIZE
              " stale next-hop objects deleted", n_routes, n_nhgs);
}

/* Ends the replay window at its deadline, once the database is read. */
static void
reconcile_run(struct fpmd_fpm *fpm)
{
    if (fpm->reconcile_pending && time_msec() >= fpm->reconcile_deadline
        && fpmd_rib_is_loaded(fpm->rib)) {
        reconcile_now(fpm);
    }
}

static void
reconcile_wait(const struct fpmd_fpm *fpm)
{
    if (fpm->reconcile_pending && fpmd_rib_is_loaded(fpm->rib)
        && fpm->reconcile_deadline != LLONG_MAX) {
        poll_timer_wait_until(fpm->reconcile_deadline);
    }
}

/* Ends the replay window now (fpm/reconcile), or as soon as the database
 * is read. */
enum fpmd_fpm_reconcile_result
fpmd_fpm_reconcile(struct fpmd_fpm *fpm)
{
    if (!fpm->reconcile_armed) {
        return FPMD_FPM_NOT_ARMED;
    }
    if (!fpmd_rib_is_loaded(fpm->rib)) {
        fpm->reconcile_pending = true;
        fpm->reconcile_deadline = time_msec();
        return FPMD_FPM_RECONCILE_LATER;
    }
    reconcile_now(fpm);
    return FPMD_FPM_RECONCILED;
}

/* The connection. */

/* Closes zebra's connection, if any, because of 'why'; postpones the
 * replay window until zebra connects again. */
static void
fpm_close(struct fpmd_fpm *fpm, const char *why)
{
    if (!fpm->conn) {
        return;
    }
    VLOG_INFO("%s: FPM connection closed (%s)", fpm->peer, why);
    COVERAGE_INC(fpm_disconnect);
    stream_close(fpm->conn);
    fpm->conn = NULL;
    free(fpm->peer);
    fpm->peer = NULL;
    fpm_splitter_reset(&fpm->splitter);
    ofpbuf_clear(&fpm->out);
    fpmd_rib_release_del(fpm->rib);
    if (fpm->reconcile_pending) {
        VLOG_INFO("reconciliation postponed until zebra reconnects (or "
                  "fpm/reconcile)");
        fpm->reconcile_pending = false;
    }
}

/* Accepts a connection from zebra, replacing the current one. */
static void
fpm_accept(struct fpmd_fpm *fpm)
{
    struct stream *conn;
    int error = pstream_accept(fpm->listener, &conn);

    if (error) {
        if (error != EAGAIN) {
            VLOG_WARN("%s: accept failed: %s", fpm->listen_name,
                      ovs_strerror(error));
        }
        return;
    }
    if (fpm->conn) {
        fpm_close(fpm, "zebra connected again");
    }
    fpm->conn = conn;
    fpm->peer = xstrdup(stream_get_name(conn));
    fpm->conn_since = time_msec();
    fpm->n_connections++;
    fpm->first_msg_usec = fpm->last_msg_usec = 0;
    fpm->burst_first_usec = 0;
    fpm->session_routes_base = fpm->pstats.n_routes;
    fpm->burst_routes_base = fpm->pstats.n_routes;
    fpm_splitter_reset(&fpm->splitter);
    COVERAGE_INC(fpm_connect);
    replay_open(fpm);
}

/* Input. */

/* Counts and logs malformed message 'msg' (of which only the type is
 * known) or, if 'broken', a frame whose messages could not be split. */
static void
fpm_bad_msg(struct fpmd_fpm *fpm, int error, const struct fpm_msg *msg,
            bool broken)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    size_t kind = error >= FPM_PARSE_TRUNCATED ? error - FPM_PARSE_TRUNCATED
                                                 + 1 : 0;

    if (broken) {
        COVERAGE_INC(fpm_bad_frame);
        VLOG_WARN_RL(&rl, "%s: frame with a broken chain of netlink "
                     "messages: rest of the frame skipped", fpm->peer);
    } else {
        fpm->parse_errors[MIN(kind, ARRAY_SIZE(fpm->parse_errors) - 1)]++;
        COVERAGE_INC(fpm_bad_msg);
        VLOG_WARN_RL(&rl, "%s: netlink message type %u skipped: %s",
                     fpm->peer, msg->nlmsg_type,
                     fpm_parse_error_to_string(error));
    }
}

/* Handles message 'msg', whose parse returned 'error' ('broken': the
 * frame's chain of messages broke there). */
static void
fpm_msg_handle(struct fpmd_fpm *fpm, const struct fpm_msg *msg, int error,
               bool broken)
{
    COVERAGE_INC(fpm_msg);
    if (error) {
        fpm_bad_msg(fpm, error, msg, broken);
        return;
    }
    if (VLOG_IS_DBG_ENABLED()) {
        struct ds s = DS_EMPTY_INITIALIZER;

        fpm_msg_format(msg, &s);
        VLOG_DBG("%s: %s", fpm->peer, ds_cstr(&s));
        ds_destroy(&s);
    }
    switch (msg->kind) {
    case FPM_MSG_ROUTE:
        if (msg->route.op == FPM_OP_ADD) {
            COVERAGE_INC(fpm_route_add);
        } else {
            COVERAGE_INC(fpm_route_del);
        }
        fpmd_rib_route(fpm->rib, &msg->route);
        break;
    case FPM_MSG_NEXTHOP:
        if (msg->nexthop.op == FPM_OP_ADD) {
            COVERAGE_INC(fpm_nexthop_add);
        } else {
            COVERAGE_INC(fpm_nexthop_del);
        }
        fpmd_nh_input(fpm->rib, &msg->nexthop);
        break;
    case FPM_MSG_SKIPPED:
        COVERAGE_INC(fpm_msg_skipped);
        break;
    }
}

/* fpm_route_parse_frame_grouped() callback: handles the messages of 'g'
 * in order, after asking the CPU for the route table's buckets of its
 * routes, then for the buckets' first routes, then for the second ones
 * (fpmd_rib_prefetch()), so that the lookups of a group miss the cache
 * together rather than one after the other.  A new route, which most of
 * a load is, walks its whole chain. */
static void
fpm_group_flush(struct fpm_msg_group *g, void *fpm_)
{
    struct fpmd_fpm *fpm = fpm_;
    uint32_t hashes[FPM_MSG_GROUP_SIZE];
    size_t n = 0;
    size_t i;

    if (g->n > 1) {
        /* The routes' hashes, computed once for the three passes. */
        for (i = 0; i < g->n; i++) {
            if (!g->errors[i] && g->msgs[i].kind == FPM_MSG_ROUTE
                && fpmd_rib_route_hash(fpm->rib, &g->msgs[i].route,
                                       &hashes[n])) {
                fpmd_rib_prefetch(fpm->rib, hashes[n++], 0);
            }
        }
        for (int depth = 1; depth < 3; depth++) {
            for (i = 0; i < n; i++) {
                fpmd_rib_prefetch(fpm->rib, hashes[i], depth);
            }
        }
    }
    for (i = 0; i < g->n; i++) {
        fpm_msg_handle(fpm, &g->msgs[i], g->errors[i], g->broken[i]);
    }
    g->n = 0;
}

/* Parses the complete frames in the splitter and handles their messages.
 * Returns false if it had to close the connection. */
static bool
fpm_parse(struct fpmd_fpm *fpm)
{
    struct fpm_frame f;
    uint8_t *h;
    int error;

    perf_timer_start(fpm->parse_timer);
    while (!(error = fpm_splitter_next(&fpm->splitter, &f))) {
        uint64_t n_msgs = fpm->pstats.n_msgs;

        COVERAGE_INC(fpm_frame);
        fpm_route_parse_frame_grouped(f.data, f.size, &fpm->group,
                                      &fpm->pstats, fpm_group_flush, fpm);
        perf_timer_inc(fpm->parse_timer, fpm->pstats.n_msgs - n_msgs);
    }
    fpm_group_flush(&fpm->group, fpm);
    perf_timer_pause(fpm->parse_timer);
    if (error == EAGAIN) {
        return true;
    }

    h = fpm->splitter.bad_hdr;
    VLOG_WARN("%s: bad FPM frame header %02x %02x %02x %02x: %s; "
              "closing the connection", fpm->peer, h[0], h[1], h[2], h[3],
              fpm_frame_error_to_string(fpm->splitter.error));
    COVERAGE_INC(fpm_bad_frame_header);
    fpm->n_bad_headers++;
    fpm_close(fpm, "bad frame header");
    return false;
}

/* Closes the connection after receive status 'n' (0 or a negative errno
 * value other than EAGAIN). */
static void
fpm_recv_ended(struct fpmd_fpm *fpm, int n)
{
    size_t partial = fpm_splitter_pending(&fpm->splitter);

    if (partial) {
        VLOG_WARN("%s: connection ended in the middle of a frame: "
                  "%"PRIuSIZE" bytes of an incomplete frame discarded",
                  fpm->peer, partial);
        COVERAGE_INC(fpm_bad_frame);
        fpm->n_incomplete++;
    }
    fpm_close(fpm, n ? ovs_strerror(-n) : "zebra closed it");
}

/* Returns true if too many rows are pending to read more from zebra (on
 * the fast path: too many routes queued for orchd, or no room to send
 * them), and counts the pauses. */
static bool
fpm_backpressure(struct fpmd_fpm *fpm)
{
    if (fpm->zmq ? fpmd_zmq_backpressure(fpm->zmq)
        : (fpmd_rib_n_pending(fpm->rib)
           >= fpmd_settings_max_pending(fpm->settings))) {
        /* No add can come while zebra is not read. */
        fpmd_rib_release_del(fpm->rib);
        if (!fpm->paused) {
            fpm->paused = true;
            fpm->paused_since = time_msec();
            fpm->n_paused++;
            COVERAGE_INC(fpm_paused);
        }
        return true;
    }
    if (fpm->paused) {
        fpm->paused = false;
        fpm->paused_msec += time_msec() - fpm->paused_since;
    }
    return false;
}

/* Reads and processes what zebra sent, up to FPM_READ_BUDGET bytes, unless
 * too many rows are pending already. */
static void
fpm_read(struct fpmd_fpm *fpm)
{
    size_t budget = FPM_READ_BUDGET;

    fpm->streaming = false;
    while (fpm->conn && budget) {
        uint64_t n_msgs = fpm->pstats.n_msgs;
        uint64_t n_routes = fpm->pstats.n_routes;
        long long int now;
        size_t room;
        void *p;
        bool ok;
        int n;

        if (fpm_backpressure(fpm)) {
            fpm->streaming = true;
            return;
        }
        p = fpm_splitter_reserve(&fpm->splitter, &room);
        n = stream_recv(fpm->conn, p, MIN(room, budget));
        if (n <= 0) {
            if (n != -EAGAIN) {
                fpm_recv_ended(fpm, n);
            } else {
                /* All zebra sent is read: a deferred delete whose wait
                 * ran out has no add coming. */
                fpmd_rib_expire_del(fpm->rib);
            }
            return;
        }
        now = time_wall_usec();
        fpm_splitter_commit(&fpm->splitter, n);
        budget -= MIN(budget, n);
        fpm->n_bytes += n;
        ok = fpm_parse(fpm);
        if (fpm->pstats.n_msgs != n_msgs) {
            /* The time the bytes were read, not parsed: that is when
             * zebra's message reached fpmsyncd. */
            if (!fpm->first_msg_usec) {
                fpm->first_msg_usec = now;
            }
            if (now - fpm->last_msg_usec >= FPM_BURST_GAP_USEC) {
                /* Also the session's first: 'last_msg_usec' is 0. */
                fpm->burst_first_usec = now;
                fpm->burst_routes_base = n_routes;
            }
            fpm->last_msg_usec = now;
        }
        if (!ok) {
            return;
        }
    }
    if (fpm->conn && !budget) {
        fpm->streaming = true;
        poll_immediate_wake();
    }
}

/* Returns true if zebra is streaming routes: the last read stopped with
 * more to read (its budget spent, or back-pressure), rather than finding
 * the socket empty. */
bool
fpmd_fpm_is_streaming(const struct fpmd_fpm *fpm)
{
    return fpm->conn && fpm->streaming;
}

/* Output. */

/* Queues an RTM_NEWROUTE with RTM_F_OFFLOAD for 'r' to zebra: the
 * fpmd_offload_func of the rib, with the 'struct fpmd_fpm' as 'fpm_'.
 *
 * The table sent is the kernel table that zebra sent the route in (254 for
 * the default VRF), not a VRF id: FRR 10.7's zebra (dplane_fpm_nl.c
 * fpm_read(), then zebra_rib_translate_ctx_from_dplane()) finds the VRF
 * from that table and the route in it, and marks it offloaded
 * (tests/frr-offload.at).  FRR 10.3 took the field as a VRF id but then
 * looked the route up in table 0, so it never found one, whatever is sent
 * here; FRR 8.4 does not read what the FPM server sends at all. */
void
fpmd_fpm_send_offload(const struct fpm_route *r, void *fpm_)
{
    struct fpmd_fpm *fpm = fpm_;
    size_t ofs;

    if (!fpm->conn || fpm->out.size > FPM_MAX_OUTPUT) {
        fpm->n_offload_dropped++;
        COVERAGE_INC(fpm_offload_dropped);
        return;
    }
    ofs = fpm_frame_start(&fpm->out);
    fpm_route_encode_offload(&fpm->out, r, FPM_OFFLOAD_OK, r->table,
                             ++fpm->out_seq);
    fpm_frame_finish(&fpm->out, ofs);
    fpm->n_offload_sent++;
    COVERAGE_INC(fpm_offload_sent);
}

/* Sends what it can of the queued offload notifications. */
static void
fpm_send_output(struct fpmd_fpm *fpm)
{
    while (fpm->conn && fpm->out.size) {
        int n = stream_send(fpm->conn, fpm->out.data, fpm->out.size);

        if (n > 0) {
            ofpbuf_pull(&fpm->out, n);
        } else {
            if (n != -EAGAIN) {
                fpm_close(fpm, ovs_strerror(-n));
            }
            break;
        }
    }
    if (!fpm->out.size) {
        ofpbuf_clear(&fpm->out);
    }
}

/* Accepts zebra, reads what it sent, runs the replay window and sends the
 * offload notifications queued meanwhile. */
void
fpmd_fpm_run(struct fpmd_fpm *fpm)
{
    if (fpm->listener) {
        fpm_accept(fpm);
    }
    if (fpm->conn) {
        stream_run(fpm->conn);
        fpm_send_output(fpm);
    }
    if (fpm->conn) {
        fpm_read(fpm);
    }
    reconcile_run(fpm);
    fpm_send_output(fpm);
    perf_timer_run(fpm->parse_timer);
}

void
fpmd_fpm_wait(struct fpmd_fpm *fpm)
{
    if (fpm->listener) {
        pstream_wait(fpm->listener);
    }
    if (fpm->conn) {
        stream_run_wait(fpm->conn);
        if (fpm->zmq ? !fpmd_zmq_is_full(fpm->zmq)
            : (fpmd_rib_n_pending(fpm->rib)
               < fpmd_settings_max_pending(fpm->settings))) {
            stream_recv_wait(fpm->conn);
        }
        if (fpm->out.size) {
            stream_send_wait(fpm->conn);
        }
    }
    reconcile_wait(fpm);
    fpmd_rib_deferred_del_wait(fpm->rib);
    perf_timer_wait(fpm->parse_timer);
}

/* fpm/show. */

/* Appends to 's' a wall-clock time 'usec' (microseconds since the epoch)
 * as seconds with six decimals, or "none" for 0. */
static void
put_wall_time(struct ds *s, long long int usec)
{
    if (usec) {
        ds_put_format(s, "%lld.%06lld", usec / 1000000, usec % 1000000);
    } else {
        ds_put_cstr(s, "none");
    }
}

/* Appends fpm/show's lines about the current (or last) connection's
 * session to 's': the route messages it brought and the wall-clock times
 * of its first and last messages, as read from the socket; then the same
 * for its last burst (messages with no gap of FPM_BURST_GAP_USEC), whose
 * last message is the session's. */
static void
fpmd_fpm_format_session(const struct fpmd_fpm *fpm, struct ds *s)
{
    ds_put_format(s, "fpm session routes: %"PRIu64"\n",
                  fpm->pstats.n_routes - fpm->session_routes_base);
    ds_put_cstr(s, "fpm session first message: ");
    put_wall_time(s, fpm->first_msg_usec);
    ds_put_cstr(s, "\nfpm session last message: ");
    put_wall_time(s, fpm->last_msg_usec);
    ds_put_format(s, "\nfpm burst routes: %"PRIu64"\n",
                  fpm->pstats.n_routes - fpm->burst_routes_base);
    ds_put_cstr(s, "fpm burst first message: ");
    put_wall_time(s, fpm->burst_first_usec);
    ds_put_char(s, '\n');
}

/* Appends fpm/show's lines about the connection and its input to 's'. */
void
fpmd_fpm_format(const struct fpmd_fpm *fpm, struct ds *s)
{
    const struct fpm_parse_stats *ps = &fpm->pstats;

    ds_put_format(s, "fpm: %s", fpm->listener ? fpm->listen_name
                  : "not listening (waiting for the database)");
    if (fpm->conn) {
        ds_put_format(s, ", connected to %s for %lld s\n", fpm->peer,
                      (time_msec() - fpm->conn_since) / 1000);
    } else {
        ds_put_cstr(s, ", no connection\n");
    }
    ds_put_format(s, "fpm connections: %"PRIu64", closed for bad frame "
                  "headers: %"PRIu64", ended mid-frame: %"PRIu64"\n",
                  fpm->n_connections, fpm->n_bad_headers, fpm->n_incomplete);
    ds_put_format(s, "fpm input: %"PRIu64" bytes, %"PRIu64" frames, %"
                  PRIu64" messages (%"PRIu64" routes, %"PRIu64" next hops, %"
                  PRIu64" skipped)\n", fpm->n_bytes, ps->n_frames,
                  ps->n_msgs, ps->n_routes, ps->n_nexthops, ps->n_skipped);
    ds_put_format(s, "fpm errors: %"PRIu64" malformed messages, %"PRIu64
                  " broken frames", ps->n_errors - ps->n_bad_frames,
                  ps->n_bad_frames);
    for (size_t i = 1; i < ARRAY_SIZE(fpm->parse_errors); i++) {
        if (fpm->parse_errors[i]) {
            ds_put_format(s, ", %s: %"PRIu64,
                          fpm_parse_error_to_string(FPM_PARSE_TRUNCATED
                                                    + i - 1),
                          fpm->parse_errors[i]);
        }
    }
    ds_put_char(s, '\n');
    ds_put_format(s, "fpm backpressure: %s, %"PRIu64" pauses (at %"
                  PRIuSIZE" pending%s)\n", fpm->paused ? "paused" : "reading",
                  fpm->n_paused, fpm->zmq ? fpm->settings->zmq_max_pending
                  : fpmd_settings_max_pending(fpm->settings),
                  fpm->zmq ? " for orchd" : "");
    ds_put_format(s, "fpm paused: %lld ms in total\n",
                  fpm->paused_msec
                  + (fpm->paused ? time_msec() - fpm->paused_since : 0));
    fpmd_fpm_format_session(fpm, s);
}

/* Appends fpm/show's lines about reconciliation and offload notifications
 * to 's'. */
void
fpmd_fpm_format_replay(const struct fpmd_fpm *fpm, struct ds *s)
{
    long long int now = time_msec();

    if (fpm->reconcile_pending) {
        if (fpm->reconcile_deadline == LLONG_MAX) {
            ds_put_cstr(s, "reconciliation: waiting for fpm/reconcile\n");
        } else {
            ds_put_format(s, "reconciliation: in %lld ms\n",
                          MAX(0, fpm->reconcile_deadline - now));
        }
    } else if (fpm->reconcile_armed) {
        ds_put_cstr(s, "reconciliation: postponed (zebra disconnected); "
                    "waiting for zebra or fpm/reconcile\n");
    } else if (fpm->last_reconcile) {
        ds_put_format(s, "reconciliation: done %lld ms ago (%"PRIuSIZE
                      " routes, %"PRIuSIZE" next-hop objects deleted)\n",
                      now - fpm->last_reconcile, fpm->last_stale_routes,
                      fpm->last_stale_nhgs);
    } else {
        ds_put_cstr(s, "reconciliation: none yet\n");
    }
    ds_put_format(s, "offload notifications: %"PRIu64" sent, %"PRIu64
                  " dropped (fib suppression %s)\n", fpm->n_offload_sent,
                  fpm->n_offload_dropped,
                  fpm->settings->fib_suppression.value ? "on" : "off");
}
