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

/* fpm-replay --record: acts as an FPM server.  Listens, accepts one
 * connection (zebra's) and saves every complete frame it sends, byte for
 * byte, to a file, until the peer closes, SIGINT or SIGTERM, --idle or
 * --duration. */

#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "utilities/fpm-replay.h"
#include "util.h"

/* The record mode's state. */
struct recorder {
    const struct fpm_replay_options *opts; /* --record, --idle... */
    FILE *out;                  /* The --record file. */
    struct fpm_splitter sp;     /* Splits the peer's stream into frames. */
    struct fpm_msg msg;         /* Parse scratch. */
    struct fpm_parse_stats stats; /* What the saved frames hold. */
    double t_start;             /* When listening started. */
};

/* Returns true if --duration has run out at time 'now'. */
static bool
duration_over(const struct recorder *r, double now)
{
    return r->opts->duration && now - r->t_start >= r->opts->duration;
}

/* Waits for a connection on 'lfd' and returns it, or -1 if a signal or
 * --duration ends the wait first. */
static int
accept_one(const struct recorder *r, int lfd)
{
    for (;;) {
        struct pollfd pfd = { .fd = lfd, .events = POLLIN };

        if (fpm_replay_stop_requested
            || duration_over(r, fpm_replay_now())) {
            return -1;
        }
        if (poll(&pfd, 1, 100) > 0) {
            int fd = accept(lfd, NULL, NULL);
            if (fd >= 0) {
                return fd;
            }
        }
    }
}

/* Saves the complete frames that 'r->sp' holds.  Returns false if the peer
 * sent a bad frame header. */
static bool
save_frames(struct recorder *r)
{
    struct fpm_frame frame;
    int error;

    /* Save complete frames only, so that the file is always a clean
     * sequence of frames. */
    while (!(error = fpm_splitter_next(&r->sp, &frame))) {
        fwrite(frame.data - FPM_FRAME_HDR_LEN, 1, frame.len, r->out);
        fpm_route_parse_frame(frame.data, frame.size, &r->msg, &r->stats,
                              r->opts->verbosity > 1
                              ? fpm_replay_print_cb : NULL, NULL);
    }
    if (error == EPROTO) {
        ovs_error(0, "bad frame header from peer: %s; stopping",
                  fpm_frame_error_to_string(r->sp.error));
        return false;
    }
    return true;
}

/* Records what the peer on 'fd' sends until the end of the recording.
 * Returns the exit status. */
static int
record_stream(struct recorder *r, int fd)
{
    const struct fpm_replay_options *opts = r->opts;
    double t_last = fpm_replay_now();

    for (;;) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        double now = fpm_replay_now();

        if (fpm_replay_stop_requested || duration_over(r, now)
            || (opts->idle && r->stats.n_frames
                && now - t_last >= opts->idle)) {
            return 0;
        }
        if (poll(&pfd, 1, 50) <= 0) {
            continue;
        }

        size_t room;
        void *p = fpm_splitter_reserve(&r->sp, &room);
        ssize_t n = recv(fd, p, room, 0);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            ovs_error(errno, "recv");
            return 0;
        } else if (n == 0) {
            if (opts->verbosity > 0) {
                printf("peer closed the connection\n");
            }
            return 0;
        }
        fpm_splitter_commit(&r->sp, n);
        t_last = fpm_replay_now();
        if (!save_frames(r)) {
            return 1;
        }
    }
}

/* Runs record mode: listens on --host and --port and records the first
 * connection to the file of --record.  Returns the exit status. */
int
fpm_replay_record(const struct fpm_replay_options *opts)
{
    const char *file_name = opts->record;
    struct recorder r = { .opts = opts };
    int lfd, fd, status;

    lfd = fpm_replay_open_tcp(opts->host, opts->port, true);
    r.out = fopen(file_name, "wb");
    if (!r.out) {
        ovs_fatal(errno, "%s: create failed", file_name);
    }
    if (opts->verbosity > 0) {
        printf("listening on %s:%s\n", opts->host, opts->port);
        fflush(stdout);
    }

    r.t_start = fpm_replay_now();
    fd = accept_one(&r, lfd);
    close(lfd);
    if (fd < 0) {
        fclose(r.out);
        ovs_error(0, "no connection");
        return 1;
    }
    if (opts->verbosity > 0) {
        printf("connected\n");
        fflush(stdout);
    }

    fpm_splitter_init(&r.sp, 0);
    fpm_msg_init(&r.msg);
    status = record_stream(&r, fd);
    if (fpm_splitter_pending(&r.sp) && !r.sp.error) {
        ovs_error(0, "dropped %zu bytes of a partial frame",
                  fpm_splitter_pending(&r.sp));
    }
    if (fclose(r.out)) {
        ovs_fatal(errno, "%s: write failed", file_name);
    }
    close(fd);
    if (opts->verbosity > 0) {
        printf("fpm-replay: recorded %"PRIu64" frames, %"PRIu64" msgs: "
               "%"PRIu64" routes, %"PRIu64" nexthops, %"PRIu64" skipped, "
               "%"PRIu64" errors, %"PRIu64" bytes to %s\n",
               r.stats.n_frames, r.stats.n_msgs, r.stats.n_routes,
               r.stats.n_nexthops, r.stats.n_skipped, r.stats.n_errors,
               r.sp.n_bytes, file_name);
    }
    fpm_msg_destroy(&r.msg);
    fpm_splitter_destroy(&r.sp);
    return status;
}
