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


/* Check suite for lib/fpm-frame: the FPM frame splitter and encoder, and
 * the walk over the netlink messages of a frame, on hand-built streams and
 * on the zebra captures in tests/data (see test-fpm-route.c). */

#include <config.h>

#include <check.h>
#include <errno.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check/suites.h"
#include "tests/check/fpm-test-util.h"
#include "lib/fpm-frame.h"
#include "lib/fpm-route.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* Appends to 'stream' three frames: one route, two routes, one route. */
static void
make_stream(struct ofpbuf *stream, size_t payload_sizes[3])
{
    static const char *dsts[] = {
        "10.0.0.0/24", "10.0.1.0/24", "2001:db8:1::/48", "10.0.2.0/24",
    };
    size_t d = 0;

    for (int f = 0; f < 3; f++) {
        size_t ofs = fpm_frame_start(stream);

        for (int i = 0; i < (f == 1 ? 2 : 1); i++, d++) {
            bool v6 = strchr(dsts[d], ':') != NULL;

            fpm_test_encode_simple_route(stream, dsts[d],
                                         v6 ? "2001:db8:ffff::2"
                                            : "192.168.1.2", 3);
        }
        fpm_frame_finish(stream, ofs);
        payload_sizes[f] = stream->size - ofs - FPM_FRAME_HDR_LEN;
    }
}

START_TEST(test_split_byte_by_byte)
{
    struct ofpbuf stream;
    size_t sizes[3];
    struct fpm_splitter sp;
    struct fpm_frame frame;
    size_t n_frames = 0, ofs = 0;

    ofpbuf_init(&stream, 0);
    make_stream(&stream, sizes);
    fpm_splitter_init(&sp, 0);
    for (size_t i = 0; i < stream.size; i++) {
        int error;

        fpm_splitter_feed(&sp, (uint8_t *) stream.data + i, 1);
        while (!(error = fpm_splitter_next(&sp, &frame))) {
            ck_assert_uint_lt(n_frames, 3);
            ck_assert_uint_eq(frame.size, sizes[n_frames]);
            ck_assert_uint_eq(frame.len, sizes[n_frames] + 4);
            ck_assert_uint_eq(frame.version, 1);
            ck_assert_uint_eq(frame.type, 1);
            ck_assert(!memcmp(frame.data,
                              (uint8_t *) stream.data + ofs + 4, frame.size));
            ck_assert_uint_eq((uintptr_t) frame.data % 4, 0);
            /* The frame ends exactly at the byte just fed. */
            ck_assert_uint_eq(ofs + frame.len, i + 1);
            ofs += frame.len;
            n_frames++;
        }
        ck_assert_int_eq(error, EAGAIN);
    }
    ck_assert_uint_eq(n_frames, 3);
    ck_assert_uint_eq(sp.n_frames, 3);
    ck_assert_uint_eq(sp.n_bytes, stream.size);
    ck_assert_uint_eq(fpm_splitter_pending(&sp), 0);
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&stream);
}
END_TEST

START_TEST(test_split_one_read)
{
    struct ofpbuf stream;
    size_t sizes[3];
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct fpm_parse_stats stats;
    struct fpm_msg msg;
    size_t room;
    void *p;

    ofpbuf_init(&stream, 0);
    make_stream(&stream, sizes);
    fpm_splitter_init(&sp, 0);
    fpm_msg_init(&msg);
    memset(&stats, 0, sizeof stats);

    /* The socket path: reserve, "read", commit. */
    p = fpm_splitter_reserve(&sp, &room);
    ck_assert_uint_ge(room, FPM_FRAME_MAX_LEN);
    memcpy(p, stream.data, stream.size);
    fpm_splitter_commit(&sp, stream.size);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
        ck_assert_uint_eq(frame.size, sizes[i]);
        fpm_route_parse_frame(frame.data, frame.size, &msg, &stats,
                              NULL, NULL);
    }
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), EAGAIN);
    ck_assert_uint_eq(stats.n_frames, 3);
    ck_assert_uint_eq(stats.n_msgs, 4);
    ck_assert_uint_eq(stats.n_routes, 4);
    ck_assert_uint_eq(stats.n_errors, 0);

    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&stream);
}
END_TEST

/* Feeds a whole capture in pseudo-random chunk sizes: the frames must come
 * out the same whatever the read boundaries. */
START_TEST(test_split_capture_chunks)
{
    struct ofpbuf b;
    uint32_t seed = 12345;

    ofpbuf_init(&b, 0);
    fpm_test_load_data("zebra-nhg.fpm", &b);
    for (int round = 0; round < 50; round++) {
        struct fpm_splitter sp;
        struct fpm_frame frame;
        size_t ofs = 0, out = 0, n_frames = 0;

        fpm_splitter_init(&sp, 0);
        while (ofs < b.size) {
            size_t chunk, room;
            void *p;

            seed = seed * 1103515245 + 12345;
            chunk = MIN(1 + (seed >> 16) % (round < 25 ? 7 : 300),
                        b.size - ofs);
            p = fpm_splitter_reserve(&sp, &room);
            memcpy(p, (uint8_t *) b.data + ofs, chunk);
            fpm_splitter_commit(&sp, chunk);
            ofs += chunk;
            while (!fpm_splitter_next(&sp, &frame)) {
                ck_assert(!memcmp(frame.data - 4, (uint8_t *) b.data + out,
                                  frame.len));
                out += frame.len;
                n_frames++;
            }
        }
        ck_assert_uint_eq(out, b.size);
        ck_assert_uint_eq(n_frames, 35);
        fpm_splitter_destroy(&sp);
    }
    ofpbuf_uninit(&b);
}
END_TEST

static void
check_bad_header(uint8_t version, uint8_t type, uint16_t len,
                 enum fpm_frame_error expected)
{
    uint8_t hdr[8] = { version, type, len >> 8, len & 0xff };
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct ofpbuf good;

    ofpbuf_init(&good, 0);
    fpm_frame_encode(&good, "abcd", 4);

    fpm_splitter_init(&sp, 0);
    /* A good frame first: it comes out before the error. */
    fpm_splitter_feed(&sp, good.data, good.size);
    fpm_splitter_feed(&sp, hdr, sizeof hdr);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
    ck_assert_uint_eq(frame.size, 4);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), EPROTO);
    ck_assert_int_eq(sp.error, expected);
    ck_assert(!memcmp(sp.bad_hdr, hdr, 4));
    ck_assert(strcmp(fpm_frame_error_to_string(expected), "ok"));

    /* Sticky, even if good bytes follow. */
    fpm_splitter_feed(&sp, good.data, good.size);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), EPROTO);

    /* A reset (new connection) starts over. */
    fpm_splitter_reset(&sp);
    ck_assert_int_eq(sp.error, FPM_FRAME_OK);
    fpm_splitter_feed(&sp, good.data, good.size);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), EAGAIN);

    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&good);
}

START_TEST(test_split_bad_headers)
{
    check_bad_header(0, 1, 8, FPM_FRAME_BAD_VERSION);
    check_bad_header(2, 1, 8, FPM_FRAME_BAD_VERSION);
    check_bad_header(1, 2, 8, FPM_FRAME_BAD_TYPE);
    check_bad_header(1, 0, 8, FPM_FRAME_BAD_TYPE);
    check_bad_header(1, 1, 0, FPM_FRAME_TOO_SHORT);
    check_bad_header(1, 1, 3, FPM_FRAME_TOO_SHORT);
}
END_TEST

START_TEST(test_split_max_len)
{
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct ofpbuf b;
    uint8_t *payload = xzalloc(FPM_FRAME_MAX_LEN);
    uint16_t len;

    /* A configured maximum of 100 bytes. */
    ofpbuf_init(&b, 0);
    fpm_frame_encode(&b, payload, 96);
    fpm_splitter_init(&sp, 100);
    fpm_splitter_feed(&sp, b.data, b.size);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
    ck_assert_uint_eq(frame.len, 100);
    ofpbuf_clear(&b);
    fpm_frame_encode(&b, payload, 97);
    fpm_splitter_feed(&sp, b.data, 4);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), EPROTO);
    ck_assert_int_eq(sp.error, FPM_FRAME_TOO_LONG);
    fpm_splitter_destroy(&sp);

    /* The protocol maximum, 65535 bytes, fed in one piece and in two. */
    ofpbuf_clear(&b);
    fpm_frame_encode(&b, payload, FPM_FRAME_MAX_LEN - 4);
    ck_assert_uint_eq(b.size, 65535);
    ck_assert_int_eq(fpm_frame_check_header(b.data, 0, &len), FPM_FRAME_OK);
    ck_assert_uint_eq(len, 65535);
    fpm_splitter_init(&sp, 0);
    for (int i = 0; i < 3; i++) {
        fpm_splitter_feed(&sp, b.data, 30000);
        ck_assert_int_eq(fpm_splitter_next(&sp, &frame), EAGAIN);
        fpm_splitter_feed(&sp, (uint8_t *) b.data + 30000, b.size - 30000);
        ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
        ck_assert_uint_eq(frame.size, 65531);
    }
    /* Several maximum frames in one feed. */
    for (int i = 0; i < 5; i++) {
        fpm_splitter_feed(&sp, b.data, b.size);
    }
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
        ck_assert_uint_eq(frame.len, 65535);
    }
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), EAGAIN);
    fpm_splitter_destroy(&sp);

    /* check_header() itself. */
    ck_assert_int_eq(fpm_frame_check_header(b.data, 1000, &len),
                     FPM_FRAME_TOO_LONG);

    free(payload);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_split_partial_and_empty)
{
    static const uint8_t empty[4] = { 1, 1, 0, 4 };
    struct fpm_parse_stats stats;
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct fpm_msg msg;

    fpm_splitter_init(&sp, 0);
    fpm_msg_init(&msg);
    memset(&stats, 0, sizeof stats);

    /* Three bytes of a header: nothing yet. */
    fpm_splitter_feed(&sp, empty, 3);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), EAGAIN);
    ck_assert_uint_eq(fpm_splitter_pending(&sp), 3);

    /* A header-only frame is valid and holds no message. */
    fpm_splitter_feed(&sp, empty + 3, 1);
    ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
    ck_assert_uint_eq(frame.size, 0);
    fpm_route_parse_frame(frame.data, frame.size, &msg, &stats, NULL, NULL);
    ck_assert_uint_eq(stats.n_msgs, 0);
    ck_assert_uint_eq(stats.n_errors, 0);

    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&sp);
}
END_TEST

/* Frames of odd lengths (zebra never sends them) still give 4-byte aligned
 * payloads. */
START_TEST(test_split_unaligned)
{
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct ofpbuf b;

    ofpbuf_init(&b, 0);
    fpm_frame_encode(&b, "12345", 5);
    fpm_frame_encode(&b, "1", 1);
    fpm_frame_encode(&b, "123", 3);
    fpm_splitter_init(&sp, 0);
    fpm_splitter_feed(&sp, b.data, b.size);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(fpm_splitter_next(&sp, &frame), 0);
        ck_assert_uint_eq((uintptr_t) frame.data % 4, 0);
        ck_assert(!memcmp(frame.data, "12345", frame.size));
    }
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_frame_encode)
{
    uint8_t hdr[4];
    struct ofpbuf b;
    size_t ofs;

    fpm_frame_put_header(hdr, 0x1234);
    ck_assert(!memcmp(hdr, "\x01\x01\x12\x34", 4));

    ofpbuf_init(&b, 0);
    ofpbuf_put(&b, "xy", 2);
    ofs = fpm_frame_start(&b);
    ck_assert_uint_eq(ofs, 2);
    ofpbuf_put(&b, "abcdefgh", 8);
    fpm_frame_finish(&b, ofs);
    ck_assert(!memcmp((uint8_t *) b.data + 2, "\x01\x01\x00\x0c", 4));
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_nlmsg_iter)
{
    const struct nlmsghdr *nlh;
    struct fpm_nlmsg_iter it;
    struct ofpbuf b;
    size_t first;

    ofpbuf_init(&b, 0);
    fpm_test_encode_simple_route(&b, "10.0.0.0/24", "192.168.1.2", 3);
    first = b.size;
    fpm_test_encode_simple_route(&b, "10.0.1.0/24", "192.168.1.2", 3);

    /* Two messages. */
    fpm_nlmsg_iter_init(&it, b.data, b.size);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), 0);
    ck_assert_ptr_eq(nlh, b.data);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), 0);
    ck_assert_ptr_eq(nlh, (uint8_t *) b.data + first);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), EOF);

    /* The second one claims more bytes than the payload has. */
    ((struct nlmsghdr *) ((uint8_t *) b.data + first))->nlmsg_len += 4;
    fpm_nlmsg_iter_init(&it, b.data, b.size);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), 0);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), EPROTO);
    ck_assert_ptr_eq(nlh, NULL);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), EOF);

    /* nlmsg_len below a header. */
    ((struct nlmsghdr *) ((uint8_t *) b.data + first))->nlmsg_len = 8;
    fpm_nlmsg_iter_init(&it, b.data, b.size);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), 0);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), EPROTO);

    /* Fewer bytes left than a header. */
    fpm_nlmsg_iter_init(&it, b.data, first + 10);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), 0);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), EPROTO);

    /* A last message without its trailing padding is accepted. */
    ofpbuf_clear(&b);
    fpm_test_encode_simple_route(&b, "10.0.0.0/24", "192.168.1.2", 3);
    ofpbuf_put_zeros(&b, 2);
    ((struct nlmsghdr *) b.data)->nlmsg_len += 2;   /* Unaligned length. */
    fpm_nlmsg_iter_init(&it, b.data, b.size);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), 0);
    ck_assert_int_eq(fpm_nlmsg_iter_next(&it, &nlh), EOF);

    ofpbuf_uninit(&b);
}
END_TEST

Suite *
fpm_frame_suite(void)
{
    Suite *s = suite_create("fpm_frame");
    TCase *tc;

    tc = tcase_create("frame");
    tcase_add_test(tc, test_split_byte_by_byte);
    tcase_add_test(tc, test_split_one_read);
    tcase_add_test(tc, test_split_capture_chunks);
    tcase_add_test(tc, test_split_bad_headers);
    tcase_add_test(tc, test_split_max_len);
    tcase_add_test(tc, test_split_partial_and_empty);
    tcase_add_test(tc, test_split_unaligned);
    tcase_add_test(tc, test_frame_encode);
    tcase_add_test(tc, test_nlmsg_iter);
    suite_add_tcase(s, tc);

    return s;
}
