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


#ifndef FPM_ROUTE_ENCODE_H
#define FPM_ROUTE_ENCODE_H 1

/* fpm-route-encode: struct fpm_route and struct fpm_nexthop (lib/fpm-route.h)
 * into netlink messages as zebra's FPM stream carries them, for the load
 * generator (utilities/fpm-replay) and for the offload replies fpmsyncd
 * sends zebra.
 *
 * Thread safety: every function is thread-safe; no state. */

#include <stdint.h>

#include "lib/fpm-route.h"

struct ofpbuf;

/* Encoding.  Each appends one netlink message (NLMSG_ALIGNed) to the
 * ofpbuf; wrap one or more in a frame with fpm_frame_start() and
 * fpm_frame_finish(). */
void fpm_route_encode(struct ofpbuf *, const struct fpm_route *,
                      uint32_t nlmsg_seq);
void fpm_nexthop_encode(struct ofpbuf *, const struct fpm_nexthop *,
                        uint32_t nlmsg_seq);

/* Hardware state of a route, reported back to zebra. */
enum fpm_offload_status {
    FPM_OFFLOAD_OK,             /* RTM_F_OFFLOAD: forwarding in
                                 * hardware. */
    FPM_OFFLOAD_TRAP,           /* RTM_F_TRAP: in hardware, but punting
                                 * matching packets to the CPU (e.g. no
                                 * resolved nexthop yet). */
    FPM_OFFLOAD_FAILED,         /* RTM_F_OFFLOAD_FAILED: the hardware
                                 * refused the route. */
};

void fpm_route_encode_offload(struct ofpbuf *, const struct fpm_route *,
                              enum fpm_offload_status, uint32_t table,
                              uint32_t nlmsg_seq);

#endif /* fpm-route-encode.h */
