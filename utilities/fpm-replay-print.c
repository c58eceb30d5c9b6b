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

/* fpm-replay --print: decodes a recorded FPM stream, one line per frame and
 * per message, then a summary line. */

#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>

#include "lib/fpm-route-format.h"
#include "utilities/fpm-replay.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

/* Prints 'msg', or the parse 'error' of 'nlh', on a line of its own. */
void
fpm_replay_print_cb(const struct fpm_msg *msg, int error,
                    const struct nlmsghdr *nlh, void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    if (error) {
        ds_put_format(&s, "  error: %s", fpm_parse_error_to_string(error));
        if (nlh) {
            ds_put_format(&s, " (nlmsg type %u, len %u)",
                          nlh->nlmsg_type, nlh->nlmsg_len);
        }
    } else {
        ds_put_cstr(&s, "  ");
        fpm_msg_format(msg, &s);
    }
    puts(ds_cstr(&s));
    ds_destroy(&s);
}

/* Runs print mode on the file of --print.  Returns the exit status: 1 if
 * the file has a bad frame header or ends in a partial frame. */
int
fpm_replay_print(const struct fpm_replay_options *opts)
{
    struct fpm_parse_stats stats;
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct fpm_msg msg;
    uint64_t n_frames = 0;
    struct ofpbuf b;
    int error, status = 0;

    ofpbuf_init(&b, 0);
    fpm_replay_read_file(opts->print, &b);
    fpm_splitter_init(&sp, 0);
    fpm_splitter_feed(&sp, b.data, b.size);
    fpm_msg_init(&msg);
    memset(&stats, 0, sizeof stats);

    while (!(error = fpm_splitter_next(&sp, &frame))) {
        n_frames++;
        if (opts->verbosity > 0) {
            printf("frame %"PRIu64": %u bytes\n", n_frames, frame.len);
        }
        fpm_route_parse_frame(frame.data, frame.size, &msg, &stats,
                              opts->verbosity > 0 ? fpm_replay_print_cb
                                                  : NULL,
                              NULL);
    }
    if (error == EPROTO) {
        printf("bad frame header: %s\n",
               fpm_frame_error_to_string(sp.error));
        status = 1;
    } else if (fpm_splitter_pending(&sp)) {
        printf("%zu trailing bytes (partial frame)\n",
               fpm_splitter_pending(&sp));
        status = 1;
    }
    printf("%"PRIu64" frames, %"PRIu64" msgs: %"PRIu64" routes, %"PRIu64
           " nexthops, %"PRIu64" skipped, %"PRIu64" errors\n",
           stats.n_frames, stats.n_msgs, stats.n_routes, stats.n_nexthops,
           stats.n_skipped, stats.n_errors);

    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&b);
    return status;
}
