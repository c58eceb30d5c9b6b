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

/* fuzz-route-frame: a ZeroMQ message of the fast path as its receiver
 * takes it (lib/route-frame.h).
 *
 * The input is one message: a frame of any type (ROUTES, RESULTS, ACK,
 * HELLO).  route_frame_validate() checks it whole, as lib/zmq-channel.c
 * does before anything is applied; if it is accepted, the reader goes
 * over every entry as orchd and syncd do, and each must decode, with
 * every byte it points at inside the frame.  Encoding what was read
 * again must give back the frame, byte for byte: the format has one
 * spelling of each message, and the validator accepts no other. */

#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/fib-prefix.h"
#include "lib/route-frame.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the harness puts what it reads, so that the reads stay. */
static volatile uint8_t sink;

/* Reads the 'n' bytes at 'p', so that AddressSanitizer checks that they
 * are inside the frame. */
static void
touch(const void *p_, size_t n)
{
    const uint8_t *p = p_;
    uint8_t x = 0;

    for (size_t i = 0; i < n; i++) {
        x ^= p[i];
    }
    sink = x;
}

/* Validates the frame in 'data' and, if it is accepted, reads every
 * entry and encodes it again into 'copy'. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct route_frame_header h;
    enum route_frame_error error = route_frame_validate(data, size, &h);
    struct route_frame_reader *r;
    struct ofpbuf copy;

    touch(route_frame_strerror(error), 1);
    if (error) {
        return 0;
    }
    touch(route_frame_type_name(h.type), 1);

    r = xmalloc(sizeof *r);
    route_frame_reader_init(r, data, size);
    ofpbuf_init(&copy, size);
    route_frame_start(&copy, h.type, h.seq, h.epoch);
    route_frame_set_header(copy.data, h.flags, h.seq, h.epoch);
    while (r->left) {
        struct route_frame_route route;
        char buf[FIB_PREFIX_STRLEN];

        /* route_frame_validate() accepted every entry. */
        ovs_assert(route_frame_read(r, &route) == ROUTE_FRAME_OK);
        ovs_assert(route.vrf_len > 0);
        touch(route.vrf, route.vrf_len);
        fib_prefix_format(&route.prefix, buf);
        if (h.type == ROUTE_FRAME_RESULTS) {
            touch(route.error, route.error_len);
            route_frame_put_result(&copy, &route);
            continue;
        }
        ovs_assert(route.n_nexthops <= ROUTE_FRAME_MAX_NEXTHOPS);
        for (size_t i = 0; i < route.n_nexthops; i++) {
            const struct route_frame_nexthop *nh = &route.nexthops[i];

            ovs_assert(nh->weight >= 1 && nh->key_len >= 1);
            touch(nh->key, nh->key_len);
        }
        route_frame_put_route(&copy, &route);
    }
    ovs_assert(r->p == r->end);
    route_frame_finish(&copy);
    ovs_assert(copy.size == size && !memcmp(copy.data, data, size));

    ofpbuf_uninit(&copy);
    free(r);
    return 0;
}
