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

/* Check suite of lib/route-frame: frames round-trip, and every malformed,
 * truncated or wrong-version frame is refused as a whole. */

#include <config.h>

#include <string.h>
#include <sys/socket.h>

#include "lib/fib-prefix.h"
#include "lib/route-frame.h"
#include "openvswitch/ofpbuf.h"
#include "tests/check/suites.h"
#include "util.h"

/* Parses 'text' into a prefix, failing the test if it does not parse. */
static struct fib_prefix
prefix(const char *text)
{
    struct fib_prefix p;
    char *error = fib_prefix_parse(text, &p);

    ck_assert_msg(!error, "%s: %s", text, error);
    return p;
}

/* Builds a ROUTES frame: an ECMP set, a set with no next hops (a trap),
 * an IPv6 blackhole and a delete. */
static void
build_routes(struct ofpbuf *b)
{
    struct route_frame_nexthop nhs[] = {
        { "10.0.0.1@eth0", 13, 1 },
        { "10.0.0.2@eth1", 13, 3 },
    };
    struct route_frame_route r = {
        .op = ROUTE_FRAME_SET, .action = ROUTE_FRAME_FORWARD,
        .vrf = "default", .vrf_len = 7, .prefix = prefix("10.1.0.0/16"),
        .nexthops = nhs, .n_nexthops = 2, .seq = 77,
    };

    route_frame_start(b, ROUTE_FRAME_ROUTES, 42, 0x1234567890abcdefULL);
    route_frame_put_route(b, &r);
    r.action = ROUTE_FRAME_TRAP;
    r.n_nexthops = 0;
    r.prefix = prefix("10.2.0.0/24");
    route_frame_put_route(b, &r);
    r.action = ROUTE_FRAME_DROP;
    r.vrf = "Vrf-red";
    r.prefix = prefix("2001:db8::/32");
    route_frame_put_route(b, &r);
    r.op = ROUTE_FRAME_DEL;
    r.action = ROUTE_FRAME_FORWARD;
    r.prefix = prefix("0.0.0.0/0");
    route_frame_put_route(b, &r);
    route_frame_finish(b);
}

START_TEST(test_frame_round_trip)
{
    struct route_frame_header h;
    struct route_frame_reader *rd = xmalloc(sizeof *rd);
    struct route_frame_route r;
    struct ofpbuf b;
    char buf[FIB_PREFIX_STRLEN];

    ofpbuf_init(&b, 0);
    build_routes(&b);
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_OK);
    ck_assert_int_eq(h.type, ROUTE_FRAME_ROUTES);
    ck_assert_uint_eq(h.count, 4);
    ck_assert_uint_eq(h.seq, 42);
    ck_assert(h.epoch == 0x1234567890abcdefULL);

    route_frame_reader_init(rd, b.data, b.size);
    ck_assert_int_eq(route_frame_read(rd, &r), ROUTE_FRAME_OK);
    ck_assert_int_eq(r.op, ROUTE_FRAME_SET);
    fib_prefix_format(&r.prefix, buf);
    ck_assert_str_eq(buf, "10.1.0.0/16");
    ck_assert_uint_eq(r.n_nexthops, 2);
    ck_assert_uint_eq(r.seq, 77);
    ck_assert_int_eq(r.nexthops[1].weight, 3);
    ck_assert(!memcmp(r.nexthops[1].key, "10.0.0.2@eth1", 13));

    /* A set with no next hops stays a set. */
    ck_assert_int_eq(route_frame_read(rd, &r), ROUTE_FRAME_OK);
    ck_assert_int_eq(r.op, ROUTE_FRAME_SET);
    ck_assert_int_eq(r.action, ROUTE_FRAME_TRAP);
    ck_assert_uint_eq(r.n_nexthops, 0);

    ck_assert_int_eq(route_frame_read(rd, &r), ROUTE_FRAME_OK);
    ck_assert_int_eq(r.action, ROUTE_FRAME_DROP);
    ck_assert(r.vrf_len == 7 && !memcmp(r.vrf, "Vrf-red", 7));
    fib_prefix_format(&r.prefix, buf);
    ck_assert_str_eq(buf, "2001:db8::/32");

    ck_assert_int_eq(route_frame_read(rd, &r), ROUTE_FRAME_OK);
    ck_assert_int_eq(r.op, ROUTE_FRAME_DEL);
    ck_assert_uint_eq(rd->left, 0);
    ck_assert(rd->p == rd->end);
    ofpbuf_uninit(&b);
    free(rd);
}
END_TEST

START_TEST(test_frame_results_and_control)
{
    struct route_frame_route r = {
        .op = ROUTE_FRAME_SET, .status = 7, .vrf = "default", .vrf_len = 7,
        .prefix = prefix("192.0.2.0/24"), .error = "table full",
        .error_len = 10,
    };
    struct route_frame_header h;
    struct route_frame_reader *rd = xmalloc(sizeof *rd);
    struct route_frame_route out;
    struct ofpbuf b;

    ofpbuf_init(&b, 0);
    route_frame_start(&b, ROUTE_FRAME_RESULTS, 3, 9);
    route_frame_put_result(&b, &r);
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_OK);
    route_frame_reader_init(rd, b.data, b.size);
    ck_assert_int_eq(route_frame_read(rd, &out), ROUTE_FRAME_OK);
    ck_assert_int_eq(out.status, 7);
    ck_assert(out.error_len == 10 && !memcmp(out.error, "table full", 10));

    /* An ack has no entries, and may not have any. */
    route_frame_start(&b, ROUTE_FRAME_ACK, 99, 9);
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_OK);
    ck_assert_uint_eq(h.seq, 99);
    ((uint8_t *) b.data)[11] = 1;
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_E_COUNT);

    /* Flags are stamped, and unknown ones refused. */
    route_frame_set_header(b.data, ROUTE_FRAME_F_REPLY, 5, 6);
    ((uint8_t *) b.data)[11] = 0;
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_OK);
    ck_assert(h.flags == ROUTE_FRAME_F_REPLY && h.seq == 5 && h.epoch == 6);
    ((uint8_t *) b.data)[7] |= 0x80;
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_E_FLAGS);
    ofpbuf_uninit(&b);
    free(rd);
}
END_TEST

/* Records, for test_frame_read_group, each call as pass * 1000 + seq. */
struct group_calls {
    int64_t calls[256];
    size_t n;
};

static void
record_group_call(void *calls_, const struct route_frame_route *r, int pass)
{
    struct group_calls *c = calls_;

    ck_assert_uint_lt(c->n, ARRAY_SIZE(c->calls));
    c->calls[c->n++] = pass * 1000 + r->seq;
}

/* Groups of 16 entries are read in each pass in turn, a short group at
 * the frame's end, every entry of the frame handled (last pass) once and
 * in order. */
START_TEST(test_frame_read_group)
{
    struct route_frame_reader *rd = xmalloc(sizeof *rd);
    struct group_calls c = { .n = 0 };
    struct ofpbuf b;
    size_t k = 0;

    ofpbuf_init(&b, 0);
    route_frame_start(&b, ROUTE_FRAME_RESULTS, 1, 1);
    for (int seq = 1; seq <= 20; seq++) {
        struct route_frame_route r = {
            .op = ROUTE_FRAME_SET, .vrf = "default", .vrf_len = 7,
            .prefix = prefix("192.0.2.0/24"), .seq = seq,
        };
        route_frame_put_result(&b, &r);
    }
    route_frame_reader_init(rd, b.data, b.size);
    while (rd->left) {
        route_frame_read_group(rd, 16, 3, record_group_call, &c);
    }
    ck_assert_uint_eq(c.n, 60);
    for (int pass = 0; pass < 3; pass++) {
        for (int seq = 1; seq <= 16; seq++) {
            ck_assert_int_eq(c.calls[k++], pass * 1000 + seq);
        }
    }
    for (int pass = 0; pass < 3; pass++) {
        for (int seq = 17; seq <= 20; seq++) {
            ck_assert_int_eq(c.calls[k++], pass * 1000 + seq);
        }
    }
    ofpbuf_uninit(&b);
    free(rd);
}
END_TEST

/* Every prefix of a valid frame but the whole is refused, and so is the
 * frame with a byte more. */
START_TEST(test_frame_truncated)
{
    struct route_frame_header h;
    struct ofpbuf b;

    ofpbuf_init(&b, 0);
    build_routes(&b);
    for (size_t n = 0; n < b.size; n++) {
        enum route_frame_error error = route_frame_validate(b.data, n, &h);

        ck_assert_msg(error != ROUTE_FRAME_OK, "%"PRIuSIZE" bytes", n);
    }
    ofpbuf_put_zeros(&b, 1);
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_E_TRAILING);
    ofpbuf_uninit(&b);
}
END_TEST

/* Returns the error of validating the frame of build_routes() with byte
 * 'ofs' set to 'value'. */
static enum route_frame_error
validate_with(size_t ofs, uint8_t value)
{
    struct route_frame_header h;
    enum route_frame_error error;
    struct ofpbuf b;

    ofpbuf_init(&b, 0);
    build_routes(&b);
    ((uint8_t *) b.data)[ofs] = value;
    error = route_frame_validate(b.data, b.size, &h);
    ofpbuf_uninit(&b);
    return error;
}

START_TEST(test_frame_malformed)
{
    const size_t e0 = ROUTE_FRAME_HEADER_LEN;   /* First entry. */

    ck_assert_int_eq(validate_with(0, 'X'), ROUTE_FRAME_E_MAGIC);
    ck_assert_int_eq(validate_with(2, 2), ROUTE_FRAME_E_VERSION);
    ck_assert_int_eq(validate_with(3, 0), ROUTE_FRAME_E_TYPE);
    ck_assert_int_eq(validate_with(3, 9), ROUTE_FRAME_E_TYPE);
    ck_assert_int_eq(validate_with(e0, 0), ROUTE_FRAME_E_OP);
    ck_assert_int_eq(validate_with(e0, 3), ROUTE_FRAME_E_OP);
    ck_assert_int_eq(validate_with(e0 + 1, 5), ROUTE_FRAME_E_PREFIX);
    ck_assert_int_eq(validate_with(e0 + 2, 33), ROUTE_FRAME_E_PREFIX);
    /* 10.1.0.0/16 with a host bit: 10.1.0.1/16. */
    ck_assert_int_eq(validate_with(e0 + 16 + 7 + 3, 1),
                     ROUTE_FRAME_E_PREFIX);
    ck_assert_int_eq(validate_with(e0 + 3, 9), ROUTE_FRAME_E_ACTION);
    /* A drop with next hops. */
    ck_assert_int_eq(validate_with(e0 + 3, ROUTE_FRAME_DROP),
                     ROUTE_FRAME_E_NEXTHOP);
    ck_assert_int_eq(validate_with(e0 + 4, 0), ROUTE_FRAME_E_VRF);
    /* A next hop of weight 0 (the low byte of the first weight). */
    ck_assert_int_eq(validate_with(e0 + 16 + 7 + 4 + 3, 0),
                     ROUTE_FRAME_E_NEXTHOP);
    /* A count larger than the entries. */
    ck_assert_int_eq(validate_with(11, 5), ROUTE_FRAME_E_TRUNCATED);
    ck_assert_int_eq(validate_with(11, 3), ROUTE_FRAME_E_TRAILING);
    ck_assert_int_eq(validate_with(5, 1), ROUTE_FRAME_E_FLAGS);
    ck_assert_str_eq(route_frame_strerror(ROUTE_FRAME_E_VERSION),
                     "unsupported version");
    ck_assert_str_eq(route_frame_strerror(ROUTE_FRAME_N_ERRORS + 3),
                     "unknown error");
}
END_TEST

/* Reserved fields must be zero.  The first frame is the input with which
 * tests/fuzz/fuzz-route-frame found that they were not checked: a
 * ROUTES frame with SYNC_END, deleting 0.0.0.0/16 in VRF "\xff\xff",
 * with 0x01000000 in the header's reserved word and 0xa2 in the entry's
 * flags, which route_frame_validate() accepted although encoding that
 * message gives another frame. */
START_TEST(test_frame_reserved)
{
    static const uint8_t fuzz_input[] = {
        0x46, 0x53, 0x01, 0x01, 0x00, 0x00, 0x00, 0x08,
        0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf9,
        0xf5, 0x34, 0x56, 0x78, 0x90, 0xab, 0xcd, 0xef,
        0x02, 0x04, 0x10, 0x00, 0x02, 0xa2, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
        0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
    };
    const size_t e0 = ROUTE_FRAME_HEADER_LEN;   /* First entry. */
    uint8_t *fixed = xmemdup(fuzz_input, sizeof fuzz_input);
    struct route_frame_header h;

    ck_assert_int_eq(route_frame_validate(fuzz_input, sizeof fuzz_input,
                                          &h),
                     ROUTE_FRAME_E_RESERVED);

    /* The same frame is good with both reserved fields zero. */
    fixed[12] = 0;
    ck_assert_int_eq(route_frame_validate(fixed, sizeof fuzz_input, &h),
                     ROUTE_FRAME_E_RESERVED);
    fixed[e0 + 5] = 0;
    ck_assert_int_eq(route_frame_validate(fixed, sizeof fuzz_input, &h),
                     ROUTE_FRAME_OK);
    free(fixed);

    ck_assert_int_eq(validate_with(12, 1), ROUTE_FRAME_E_RESERVED);
    ck_assert_int_eq(validate_with(15, 0x80), ROUTE_FRAME_E_RESERVED);
    /* A SET's flags: only those known. */
    ck_assert_int_eq(validate_with(e0 + 5, 2), ROUTE_FRAME_E_RESERVED);
    ck_assert_int_eq(validate_with(e0 + 5, 0x81), ROUTE_FRAME_E_RESERVED);
    ck_assert_int_eq(validate_with(e0 + 5, ROUTE_FRAME_EF_ANSWER),
                     ROUTE_FRAME_OK);
    ck_assert_str_eq(route_frame_strerror(ROUTE_FRAME_E_RESERVED),
                     "reserved field not zero");
}
END_TEST

/* ROUTE_FRAME_EF_ANSWER travels with a SET, and is refused on a DEL or a
 * result, where the flags byte is reserved. */
START_TEST(test_frame_answer_flag)
{
    struct route_frame_route r = {
        .op = ROUTE_FRAME_SET, .action = ROUTE_FRAME_TRAP,
        .vrf = "default", .vrf_len = 7, .prefix = prefix("10.1.0.0/16"),
        .flags = ROUTE_FRAME_EF_ANSWER,
    };
    struct route_frame_reader *rd = xmalloc(sizeof *rd);
    struct route_frame_header h;
    struct route_frame_route out;
    struct ofpbuf b;

    ofpbuf_init(&b, 0);
    route_frame_start(&b, ROUTE_FRAME_ROUTES, 1, 1);
    route_frame_put_route(&b, &r);
    r.flags = 0;
    route_frame_put_route(&b, &r);
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_OK);
    route_frame_reader_init(rd, b.data, b.size);
    ck_assert_int_eq(route_frame_read(rd, &out), ROUTE_FRAME_OK);
    ck_assert_uint_eq(out.flags, ROUTE_FRAME_EF_ANSWER);
    ck_assert_int_eq(route_frame_read(rd, &out), ROUTE_FRAME_OK);
    ck_assert_uint_eq(out.flags, 0);

    r.op = ROUTE_FRAME_DEL;
    r.action = ROUTE_FRAME_FORWARD;
    r.flags = ROUTE_FRAME_EF_ANSWER;
    ofpbuf_clear(&b);
    route_frame_start(&b, ROUTE_FRAME_ROUTES, 1, 1);
    route_frame_put_route(&b, &r);
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_E_RESERVED);

    r.op = ROUTE_FRAME_SET;
    ofpbuf_clear(&b);
    route_frame_start(&b, ROUTE_FRAME_RESULTS, 1, 1);
    route_frame_put_result(&b, &r);
    ck_assert_int_eq(route_frame_validate(b.data, b.size, &h),
                     ROUTE_FRAME_E_RESERVED);
    ofpbuf_uninit(&b);
    free(rd);
}
END_TEST

/* Random bytes after a valid header never crash the decoder. */
START_TEST(test_frame_random)
{
    uint32_t seed = 12345;
    struct route_frame_header h;
    struct ofpbuf b;

    ofpbuf_init(&b, 0);
    for (int i = 0; i < 20000; i++) {
        size_t n = 1 + seed % 200;

        route_frame_start(&b, 1 + seed % 2, i, 1);
        for (size_t j = 0; j < n; j++) {
            seed = seed * 1103515245 + 12345;
            ofpbuf_put(&b, &(uint8_t) { seed >> 16 }, 1);
        }
        ((uint8_t *) b.data)[11] = seed % 4;
        (void) route_frame_validate(b.data, b.size, &h);
    }
    ofpbuf_uninit(&b);
}
END_TEST

Suite *
route_frame_suite(void)
{
    Suite *s = suite_create("route_frame");
    TCase *tc = tcase_create("route_frame");

    tcase_add_test(tc, test_frame_round_trip);
    tcase_add_test(tc, test_frame_results_and_control);
    tcase_add_test(tc, test_frame_read_group);
    tcase_add_test(tc, test_frame_truncated);
    tcase_add_test(tc, test_frame_malformed);
    tcase_add_test(tc, test_frame_reserved);
    tcase_add_test(tc, test_frame_answer_flag);
    tcase_add_test(tc, test_frame_random);
    suite_add_tcase(s, tc);
    return s;
}
