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

/* fpm-replay --replay: sends a recorded FPM stream to a listener as zebra
 * would, frame by frame and byte for byte, paced by --rate. */

#include <config.h>

#include <inttypes.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>

#include "utilities/fpm-replay.h"
#include "util.h"

/* Counts the messages of a replayed frame by type. */
static void
replay_count_cb(const struct fpm_msg *msg, int error OVS_UNUSED,
                const struct nlmsghdr *nlh, void *c_)
{
    struct fpm_replay_conn *c = c_;

    if (nlh) {
        fpm_replay_conn_count(c, nlh->nlmsg_type,
                              msg && msg->kind == FPM_MSG_ROUTE);
    }
}

/* Runs replay mode: sends the file of --replay to the listener at --host
 * and --port.  Returns the exit status. */
int
fpm_replay_replay(const struct fpm_replay_options *opts)
{
    const char *file_name = opts->replay;
    struct fpm_parse_stats stats;
    struct fpm_replay_conn c;
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct fpm_msg msg;
    struct ofpbuf b;
    double t0;

    ofpbuf_init(&b, 0);
    fpm_replay_read_file(file_name, &b);
    fpm_splitter_init(&sp, 0);
    fpm_splitter_feed(&sp, b.data, b.size);
    fpm_msg_init(&msg);
    memset(&stats, 0, sizeof stats);

    fpm_replay_conn_open(&c, opts);
    t0 = fpm_replay_now();
    while (!fpm_replay_stop_requested && !c.peer_closed
           && !fpm_splitter_next(&sp, &frame)) {
        uint64_t before = stats.n_routes;

        /* Count what the frame holds, for the summary and --rate. */
        fpm_route_parse_frame(frame.data, frame.size, &msg, &stats,
                              replay_count_cb, &c);
        fpm_replay_pace(&c, t0, before);
        fpm_replay_conn_put_frame(&c, frame.data - FPM_FRAME_HDR_LEN,
                                  frame.len);
    }
    if (sp.error != FPM_FRAME_OK) {
        ovs_error(0, "%s: stopped at a bad frame header: %s", file_name,
                  fpm_frame_error_to_string(sp.error));
    }
    int status = fpm_replay_conn_finish(&c, t0, "replayed", false);
    if (opts->verbosity > 0) {
        printf("replayed file: %"PRIu64" frames, %"PRIu64" msgs, %"PRIu64
               " routes, %"PRIu64" nexthops, %"PRIu64" skipped, %"PRIu64
               " errors\n", stats.n_frames, stats.n_msgs, stats.n_routes,
               stats.n_nexthops, stats.n_skipped, stats.n_errors);
    }

    fpm_replay_conn_destroy(&c);
    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&b);
    return status;
}
