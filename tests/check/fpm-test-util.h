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


#ifndef FPM_TEST_UTIL_H
#define FPM_TEST_UTIL_H 1

/* Helpers shared by the Check suites that read FPM streams:
 * test-fpm-frame.c, test-fpm-route.c, test-fpm-route-malformed.c and
 * test-fpmsyncd-rib.c. */

#include <stddef.h>
#include <stdint.h>

#include "lib/fpm-route.h"
#include "svec.h"

struct nlmsghdr;
struct ofpbuf;

void fpm_test_load_data(const char *name, struct ofpbuf *);

struct fpm_prefix fpm_test_prefix(const char *text);
struct fpm_addr fpm_test_addr(const char *text);
void fpm_test_simple_route(struct fpm_route *, enum fpm_op,
                           const char *dst, const char *gw,
                           uint32_t ifindex);
void fpm_test_encode_simple_route(struct ofpbuf *, const char *dst,
                                  const char *gw, uint32_t ifindex);
int fpm_test_parse_buf(const struct ofpbuf *, struct fpm_msg *);

/* The parsed messages of a capture, with where they were. */
struct fpm_test_walk {
    struct svec lines;          /* fpm_msg_format() of every message. */
    struct fpm_parse_stats stats; /* fpm_route_parse_frame() counters. */
    size_t frame_of[128];       /* Frame index of each message. */
    size_t n_msgs;              /* Messages seen so far. */
    size_t frame;               /* Current frame index. */
};

void fpm_test_walk_cb(const struct fpm_msg *, int error,
                      const struct nlmsghdr *, void *w);
void fpm_test_walk_capture(const char *name, struct fpm_test_walk *);

#endif /* fpm-test-util.h */
