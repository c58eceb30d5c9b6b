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

/* fuzz-fpm: zebra's FPM stream as fpmsyncd reads it.
 *
 * The input is the bytes of an FPM connection (the files in tests/data are
 * such streams).  They go through the frame splitter (lib/fpm-frame.h)
 * in reads of varying size, as a socket delivers them, and every frame
 * it returns through fpm_route_parse_frame() (lib/fpm-route.h): the
 * netlink message chain, RTM_NEWROUTE/RTM_DELROUTE and
 * RTM_NEWNEXTHOP/RTM_DELNEXTHOP.  Each result is formatted, as
 * "fpm-replay --print" and fpmsyncd's debug log do.  Every frame is also
 * parsed as fpmsyncd parses it, into a group of messages
 * (fpm_route_parse_frame_grouped()), which must give the same results,
 * in the same order, and the same counters. */

#include <config.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/fpm-frame.h"
#include "lib/fpm-route.h"
#include "lib/fpm-route-format.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Appends a line for one message to 's': what the decoder found. */
static void
put_msg(struct ds *s, const struct fpm_msg *msg, int error)
{
    if (msg) {
        fpm_msg_format(msg, s);
    } else {
        ds_put_cstr(s, fpm_parse_error_to_string(error));
    }
    ds_put_char(s, '\n');
}

/* The decoder's callback. */
static void
msg_cb(const struct fpm_msg *msg, int error,
       const struct nlmsghdr *nlh OVS_UNUSED, void *s_)
{
    put_msg(s_, msg, error);
}

/* The grouped decoder's callback: a full group, or the rest of a frame. */
static void
group_flush(struct fpm_msg_group *g, void *s_)
{
    for (size_t i = 0; i < g->n; i++) {
        ovs_assert(!g->broken[i] || g->errors[i] == FPM_PARSE_TRUNCATED);
        put_msg(s_, g->errors[i] ? NULL : &g->msgs[i], g->errors[i]);
    }
    g->n = 0;
}

/* Feeds the stream in 'data' to a splitter, in reads of 1 to 257 bytes
 * (the size depends on the input's length, so that the fuzzer explores
 * read boundaries as it mutates), and decodes every frame. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t read_size = 1 + size % 257;
    struct fpm_parse_stats stats = { 0 };
    struct fpm_parse_stats gstats = { 0 };
    struct fpm_splitter splitter;
    struct fpm_msg_group group;
    struct fpm_msg msg;
    struct ds s = DS_EMPTY_INITIALIZER;
    struct ds gs = DS_EMPTY_INITIALIZER;
    int error = EAGAIN;

    fpm_splitter_init(&splitter, 0);
    fpm_msg_init(&msg);
    fpm_msg_group_init(&group);
    for (size_t ofs = 0; ofs < size && error == EAGAIN; ofs += read_size) {
        struct fpm_frame frame;

        fpm_splitter_feed(&splitter, data + ofs, MIN(read_size, size - ofs));
        while (!(error = fpm_splitter_next(&splitter, &frame))) {
            ovs_assert(frame.size + FPM_FRAME_HDR_LEN == frame.len);
            fpm_route_parse_frame(frame.data, frame.size, &msg, &stats,
                                  msg_cb, &s);
            fpm_route_parse_frame_grouped(frame.data, frame.size, &group,
                                          &gstats, group_flush, &gs);
        }
        /* As fpmsyncd does after each read. */
        group_flush(&group, &gs);
        if (error != EAGAIN) {
            ovs_assert(error == EPROTO);
            ovs_assert(splitter.error != FPM_FRAME_OK);
            ds_put_cstr(&s, fpm_frame_error_to_string(splitter.error));
            ds_put_cstr(&gs, fpm_frame_error_to_string(splitter.error));
        }
    }
    ovs_assert(stats.n_msgs == (stats.n_routes + stats.n_nexthops
                                + stats.n_skipped + stats.n_errors
                                - stats.n_bad_frames));

    ovs_assert(!memcmp(&stats, &gstats, sizeof stats));
    ovs_assert(!strcmp(ds_cstr(&s), ds_cstr(&gs)));

    ds_destroy(&s);
    ds_destroy(&gs);
    fpm_msg_group_destroy(&group);
    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&splitter);
    return 0;
}
