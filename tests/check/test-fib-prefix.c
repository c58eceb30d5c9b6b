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

#include <check.h>
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check/suites.h"
#include "lib/fib-prefix.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "random.h"
#include "util.h"

/* Parses 's' leniently, failing the test on error. */
static struct fib_prefix
must_parse(const char *s)
{
    struct fib_prefix p;
    char *error = fib_prefix_parse(s, &p);

    ck_assert_msg(!error, "%s", error ? error : "");
    return p;
}

/* Compares two prefix texts through the binary comparator. */
static int
cmp_text(const char *a, const char *b)
{
    struct fib_prefix pa = must_parse(a), pb = must_parse(b);

    return fib_prefix_compare(&pa, &pb);
}

/* Text accepted by both modes or the lenient one, with its canonical text. */
static const struct {
    const char *in;             /* Input text. */
    const char *canonical;      /* Expected fib_prefix_format() output. */
    bool strict_ok;             /* Whether strict parsing accepts 'in'. */
} good[] = {
    { "10.1.0.0/16", "10.1.0.0/16", true },
    { "10.1.2.3/16", "10.1.0.0/16", false },
    { "0.0.0.0/0", "0.0.0.0/0", true },
    { "1.2.3.4/0", "0.0.0.0/0", false },
    { "255.255.255.255/32", "255.255.255.255/32", true },
    { "192.168.1.1", "192.168.1.1/32", false },
    { "192.168.1.1/32", "192.168.1.1/32", true },
    { "10.0.0.0/08", "10.0.0.0/8", false },
    { "10.128.0.0/9", "10.128.0.0/9", true },
    { "10.255.255.255/9", "10.128.0.0/9", false },
    { "2001:db8::/32", "2001:db8::/32", true },
    { "2001:DB8::/32", "2001:db8::/32", false },
    { "2001:0db8:0000:0000:0000:0000:0000:0000/32", "2001:db8::/32", false },
    { "2001:db8:1:2:3:4:5:6/32", "2001:db8::/32", false },
    { "::/0", "::/0", true },
    { "::", "::/128", false },
    { "::1/128", "::1/128", true },
    { "fe80::1:2/64", "fe80::/64", false },
    { "2001:db8:0:1::/64", "2001:db8:0:1::/64", true },
    { "2001:db8:0:0:1::/80", "2001:db8:0:0:1::/80", true },
    { "2001:db8::1:0:0:0/80", "2001:db8:0:0:1::/80", false },
    { "1:0:0:2::/64", "1:0:0:2::/64", true },
    { "::ffff:10.1.2.3/128", "::ffff:10.1.2.3/128", true },
    { "::ffff:a01:203/128", "::ffff:10.1.2.3/128", false },
    { "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128", true },
    { "2001:db8:ffff::/33", "2001:db8:8000::/33", false },
    { "2001:db8::8000/113", "2001:db8::8000/113", true },
};

START_TEST(test_parse_format_table)
{
    for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
        struct fib_prefix p, q;
        char buf[FIB_PREFIX_STRLEN];
        char *error;

        p = must_parse(good[i].in);
        ck_assert_uint_eq(fib_prefix_format(&p, buf),
                          strlen(good[i].canonical));
        ck_assert_str_eq(buf, good[i].canonical);

        error = fib_prefix_parse_strict(good[i].in, &q);
        ck_assert_msg(!error == good[i].strict_ok, "%s: strict gave %s",
                      good[i].in, error ? error : "success");
        free(error);

        /* The canonical text is always accepted by strict parsing and
         * gives back the same prefix. */
        error = fib_prefix_parse_strict(good[i].canonical, &q);
        ck_assert_msg(!error, "%s", error ? error : "");
        ck_assert(fib_prefix_equals(&p, &q));
        ck_assert_int_eq(fib_prefix_compare(&p, &q), 0);
        ck_assert_uint_eq(fib_prefix_hash(&p, 0), fib_prefix_hash(&q, 0));
    }
}
END_TEST

START_TEST(test_binary_layout)
{
    struct fib_prefix p = must_parse("10.1.2.3/16");

    ck_assert_uint_eq(sizeof p, 18);
    ck_assert_uint_eq(p.family, AF_INET);
    ck_assert_uint_eq(p.len, 16);
    ck_assert_uint_eq(p.addr[0], 10);
    ck_assert_uint_eq(p.addr[1], 1);
    for (int i = 2; i < 16; i++) {
        ck_assert_uint_eq(p.addr[i], 0);
    }
    ck_assert_uint_eq(fib_prefix_get_in4(&p), htonl(0x0a010000));

    p = must_parse("2001:db8::1/127");
    ck_assert_uint_eq(p.family, AF_INET6);
    ck_assert_uint_eq(p.len, 127);
    ck_assert_uint_eq(p.addr[0], 0x20);
    ck_assert_uint_eq(p.addr[3], 0xb8);
    ck_assert_uint_eq(p.addr[15], 0);
}
END_TEST

/* Inputs that fail, with the error in lenient and in strict mode. */
static const struct {
    const char *in;                     /* Input text. */
    enum fib_prefix_error lenient;      /* Lenient result. */
    enum fib_prefix_error strict;       /* Strict result. */
} bad[] = {
    { "", FIB_PREFIX_E_EMPTY, FIB_PREFIX_E_EMPTY },
    { "10.0.0.0/33", FIB_PREFIX_E_RANGE, FIB_PREFIX_E_RANGE },
    { "10.0.0.0/4294967328", FIB_PREFIX_E_RANGE, FIB_PREFIX_E_RANGE },
    { "::/129", FIB_PREFIX_E_RANGE, FIB_PREFIX_E_RANGE },
    { "1.2.3", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "1.2.3/24", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "1.2.3.4.5", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "256.0.0.0/8", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "1000.0.0.0/8", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "010.0.0.0/8", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "10.0.0.0x/8", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { " 10.0.0.0/8", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "10.0.0.0/8 ", FIB_PREFIX_E_LENGTH, FIB_PREFIX_E_LENGTH },
    { "10.0.0.0/8x", FIB_PREFIX_E_LENGTH, FIB_PREFIX_E_LENGTH },
    { "10.0.0.0/", FIB_PREFIX_E_LENGTH, FIB_PREFIX_E_LENGTH },
    { "10.0.0.0/-1", FIB_PREFIX_E_LENGTH, FIB_PREFIX_E_LENGTH },
    { "10.0.0.0/+8", FIB_PREFIX_E_LENGTH, FIB_PREFIX_E_LENGTH },
    { "10.0.0.0/8/8", FIB_PREFIX_E_LENGTH, FIB_PREFIX_E_LENGTH },
    { "/8", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "hello", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "2001:db8::/32x", FIB_PREFIX_E_LENGTH, FIB_PREFIX_E_LENGTH },
    { "2001:db8:::/32", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "2001:db8::g/32", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "1:2:3:4:5:6:7:8:9/64", FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "0000:0000:0000:0000:0000:0000:0000:0000:0000/64",
      FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    { "0000:0000:0000:0000:0000:0000:0000:0000:0000:0000:0000/64",
      FIB_PREFIX_E_ADDRESS, FIB_PREFIX_E_ADDRESS },
    /* Valid leniently, rejected strictly. */
    { "10.0.0.1/24", FIB_PREFIX_OK, FIB_PREFIX_E_HOST_BITS },
    { "10.0.0.0", FIB_PREFIX_OK, FIB_PREFIX_E_NO_LENGTH },
    { "10.0.0.0/08", FIB_PREFIX_OK, FIB_PREFIX_E_NOT_CANONICAL },
    { "10.0.0.0/00", FIB_PREFIX_OK, FIB_PREFIX_E_NOT_CANONICAL },
    { "2001:db8::1/32", FIB_PREFIX_OK, FIB_PREFIX_E_HOST_BITS },
    { "2001:DB8::/32", FIB_PREFIX_OK, FIB_PREFIX_E_NOT_CANONICAL },
    { "2001:db8:0::/48", FIB_PREFIX_OK, FIB_PREFIX_E_NOT_CANONICAL },
    { "::0/0", FIB_PREFIX_OK, FIB_PREFIX_E_NOT_CANONICAL },
    { "::", FIB_PREFIX_OK, FIB_PREFIX_E_NO_LENGTH },
};

START_TEST(test_bad_inputs)
{
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        static const struct fib_prefix zero;
        struct fib_prefix p;
        enum fib_prefix_error e;

        e = fib_prefix_parse__(bad[i].in, false, &p);
        ck_assert_msg(e == bad[i].lenient, "%s: lenient gave \"%s\"",
                      bad[i].in, fib_prefix_strerror(e));
        e = fib_prefix_parse__(bad[i].in, true, &p);
        ck_assert_msg(e == bad[i].strict, "%s: strict gave \"%s\"",
                      bad[i].in, fib_prefix_strerror(e));
        if (e) {
            ck_assert(!memcmp(&p, &zero, sizeof p));
        }
    }
    ck_assert_int_eq(fib_prefix_parse__(NULL, false, &(struct fib_prefix) {
                                            .len = 1 }),
                     FIB_PREFIX_E_EMPTY);
}
END_TEST

START_TEST(test_error_messages)
{
    struct fib_prefix p;
    char *error;

    error = fib_prefix_parse("10.0.0.0/33", &p);
    ck_assert_ptr_nonnull(error);
    ck_assert_str_eq(error, "10.0.0.0/33: prefix length out of range "
                     "(0 to 32 for IPv4, 0 to 128 for IPv6)");
    free(error);

    error = fib_prefix_parse_strict("10.0.0.1/24", &p);
    ck_assert_str_eq(error, "10.0.0.1/24: host bits set past the prefix "
                     "length (canonical form: 10.0.0.0/24)");
    free(error);

    error = fib_prefix_parse_strict("2001:DB8::/32", &p);
    ck_assert_str_eq(error, "2001:DB8::/32: not in canonical form "
                     "(canonical form: 2001:db8::/32)");
    free(error);

    error = fib_prefix_parse("1.2.3", &p);
    ck_assert_str_eq(error, "1.2.3: not an IPv4 or IPv6 address");
    free(error);

    error = fib_prefix_parse("", &p);
    ck_assert_str_eq(error, "empty prefix");
    free(error);

    error = fib_prefix_parse_addr("10.0.0.0/8", &p);
    ck_assert_str_eq(error,
                     "10.0.0.0/8: expected an address without a prefix "
                     "length");
    free(error);

    for (int e = FIB_PREFIX_OK; e <= FIB_PREFIX_E_NOT_CANONICAL; e++) {
        ck_assert_str_ne(fib_prefix_strerror(e), "unknown error");
    }
}
END_TEST

START_TEST(test_compare_order)
{
    /* Numeric, not text, order. */
    ck_assert_int_gt(cmp_text("10.0.0.0/8", "9.0.0.0/8"), 0);
    ck_assert_int_lt(cmp_text("9.0.0.0/8", "10.0.0.0/8"), 0);
    ck_assert_int_lt(cmp_text("2.0.0.0/8", "10.0.0.0/8"), 0);
    ck_assert_int_lt(cmp_text("10.2.0.0/16", "10.10.0.0/16"), 0);
    ck_assert_int_lt(cmp_text("127.0.0.0/8", "128.0.0.0/8"), 0);
    ck_assert_int_lt(cmp_text("255.255.255.254/32",
                              "255.255.255.255/32"), 0);

    /* IPv4 before IPv6, whatever the address. */
    ck_assert_int_lt(cmp_text("255.255.255.255/32", "::/0"), 0);
    ck_assert_int_gt(cmp_text("::/0", "0.0.0.0/0"), 0);
    ck_assert_int_lt(cmp_text("10.0.0.0/8", "::a00:0/104"), 0);

    /* Same address, shorter length first. */
    ck_assert_int_lt(cmp_text("10.0.0.0/8", "10.0.0.0/16"), 0);
    ck_assert_int_gt(cmp_text("10.0.0.0/24", "10.0.0.0/16"), 0);
    ck_assert_int_lt(cmp_text("0.0.0.0/0", "0.0.0.0/1"), 0);
    ck_assert_int_lt(cmp_text("2001:db8::/32", "2001:db8::/64"), 0);
    ck_assert_int_eq(cmp_text("10.0.0.0/8", "10.0.0.0/8"), 0);

    /* Address before length: 10.0.0.0/24 < 10.0.1.0/24 < 10.1.0.0/16. */
    ck_assert_int_lt(cmp_text("10.0.0.0/24", "10.0.1.0/24"), 0);
    ck_assert_int_lt(cmp_text("10.0.1.0/24", "10.1.0.0/16"), 0);

    /* IPv6: both 64-bit halves matter. */
    ck_assert_int_lt(cmp_text("2001:db8::/32", "2001:db9::/32"), 0);
    ck_assert_int_lt(cmp_text("2001:db8::1/128", "2001:db8::2/128"), 0);
    ck_assert_int_lt(cmp_text("2001:db8::ffff:0:0:0/128",
                              "2001:db8:0:1::/128"), 0);
    ck_assert_int_lt(cmp_text("9::/16", "10::/16"), 0);
    ck_assert_int_lt(cmp_text("a::/16", "10::/16"), 0);
    ck_assert_int_lt(cmp_text("7fff::/16", "8000::/16"), 0);
}
END_TEST

START_TEST(test_compare_text)
{
    ck_assert_int_gt(fib_prefix_compare_text("10.0.0.0/8", "9.0.0.0/8"), 0);
    ck_assert_int_lt(fib_prefix_compare_text("9.0.0.0/8", "10.0.0.0/8"), 0);
    ck_assert_int_eq(fib_prefix_compare_text("10.0.0.0/8", "10.0.0.0/8"), 0);
    ck_assert_int_lt(fib_prefix_compare_text("10.0.0.0/8", "10.0.0.0/9"), 0);
    ck_assert_int_lt(fib_prefix_compare_text("255.0.0.0/8", "::/0"), 0);
    ck_assert_int_lt(fib_prefix_compare_text("2001:db8::/32",
                                             "2001:db8:1::/48"), 0);

    /* Invalid text sorts after every valid prefix, by strcmp(). */
    ck_assert_int_lt(fib_prefix_compare_text("ffff::/16", "bogus"), 0);
    ck_assert_int_gt(fib_prefix_compare_text("", "::/0"), 0);
    ck_assert_int_lt(fib_prefix_compare_text("abc", "abd"), 0);
    ck_assert_int_eq(fib_prefix_compare_text("abc", "abc"), 0);
    ck_assert_int_eq(fib_prefix_compare_text(NULL, ""), 0);

    /* Two spellings of one prefix: equal in binary, ordered by strcmp(),
     * so that only identical strings compare equal. */
    ck_assert_int_ne(fib_prefix_compare_text("10.0.0.1/8", "10.0.0.0/8"), 0);
    ck_assert_int_gt(fib_prefix_compare_text("10.0.0.1/8", "10.0.0.0/8"), 0);
    ck_assert_int_lt(fib_prefix_compare_text("10.0.0.0/8", "10.0.0.1/9"), 0);
}
END_TEST

START_TEST(test_equal_addr_lengths)
{
    struct fib_prefix a = must_parse("10.0.0.0/8");
    struct fib_prefix b = must_parse("10.0.0.0/16");

    ck_assert(!fib_prefix_equals(&a, &b));
    ck_assert_int_lt(fib_prefix_compare(&a, &b), 0);
    ck_assert_int_gt(fib_prefix_compare(&b, &a), 0);
    ck_assert(fib_prefix_contains(&a, &b));
    ck_assert(!fib_prefix_contains(&b, &a));
    ck_assert_uint_ne(fib_prefix_hash(&a, 0), fib_prefix_hash(&b, 0));

    /* 0.0.0.0/0 and ::/0 differ only by family. */
    a = must_parse("0.0.0.0/0");
    b = must_parse("::/0");
    ck_assert(!fib_prefix_equals(&a, &b));
    ck_assert_int_lt(fib_prefix_compare(&a, &b), 0);
    ck_assert(!fib_prefix_contains(&a, &b));
    ck_assert(!fib_prefix_contains(&b, &a));
    ck_assert_uint_ne(fib_prefix_hash(&a, 0), fib_prefix_hash(&b, 0));
    ck_assert(fib_prefix_is_default(&a) && fib_prefix_is_default(&b));
}
END_TEST

START_TEST(test_contains_and_masks)
{
    struct fib_prefix p = must_parse("10.1.0.0/16");
    struct fib_prefix a;
    uint8_t mask[16];
    char *error;

    error = fib_prefix_parse_addr("10.1.200.3", &a);
    ck_assert_ptr_null(error);
    ck_assert(fib_prefix_is_host(&a));
    ck_assert(fib_prefix_contains(&p, &a));
    error = fib_prefix_parse_addr("10.2.0.0", &a);
    ck_assert_ptr_null(error);
    ck_assert(!fib_prefix_contains(&p, &a));
    ck_assert(fib_prefix_contains(&p, &p));

    p = must_parse("0.0.0.0/0");
    ck_assert(fib_prefix_contains(&p, &a));

    p = must_parse("2001:db8:0:1::/64");
    error = fib_prefix_parse_addr("2001:db8:0:1:ffff::1", &a);
    ck_assert_ptr_null(error);
    ck_assert(fib_prefix_contains(&p, &a));
    error = fib_prefix_parse_addr("2001:db8:0:2::1", &a);
    ck_assert_ptr_null(error);
    ck_assert(!fib_prefix_contains(&p, &a));
    p = must_parse("2001:db8::ff00/120");
    error = fib_prefix_parse_addr("2001:db8::ff42", &a);
    ck_assert_ptr_null(error);
    ck_assert(fib_prefix_contains(&p, &a));
    error = fib_prefix_parse_addr("2001:db8::fe42", &a);
    ck_assert_ptr_null(error);
    ck_assert(!fib_prefix_contains(&p, &a));
    error = fib_prefix_parse_addr("10.1.2.3", &a);
    ck_assert_ptr_null(error);
    ck_assert(!fib_prefix_contains(&p, &a));

    /* Truncation. */
    p = must_parse("10.1.2.0/24");
    fib_prefix_truncate(&p, 12);
    ck_assert(fib_prefix_equals(&p, &(struct fib_prefix) {
                                    AF_INET, 12, { 10, 0 } }));
    p = must_parse("2001:db8:ffff::/48");
    fib_prefix_truncate(&p, 36);
    ck_assert(fib_prefix_equals(&p, &(struct fib_prefix) {
                 .family = AF_INET6, .len = 36,
                 .addr = { 0x20, 0x01, 0x0d, 0xb8, 0xf0 } }));

    /* Netmasks both ways. */
    ck_assert_uint_eq(fib_prefix_netmask_in4(0), 0);
    ck_assert_uint_eq(fib_prefix_netmask_in4(20), htonl(0xfffff000));
    ck_assert_uint_eq(fib_prefix_netmask_in4(32), htonl(0xffffffff));
    for (unsigned int len = 0; len <= 128; len++) {
        fib_prefix_netmask(AF_INET6, len, mask);
        ck_assert_int_eq(fib_prefix_mask_to_len(AF_INET6, mask), len);
        if (len <= 32) {
            ovs_be32 m4 = fib_prefix_netmask_in4(len);

            fib_prefix_netmask(AF_INET, len, mask);
            ck_assert(!memcmp(mask, &m4, 4));
            ck_assert_int_eq(fib_prefix_mask_to_len(AF_INET, mask), len);
        }
    }
    ck_assert_int_eq(fib_prefix_mask_to_len(AF_INET,
                                            (uint8_t[]) { 255, 0, 255, 0 }),
                     -1);
    ck_assert_int_eq(fib_prefix_mask_to_len(AF_INET,
                                            (uint8_t[]) { 255, 0xf7, 0, 0 }),
                     -1);
    ck_assert_int_eq(fib_prefix_mask_to_len(AF_INET,
                                            (uint8_t[]) { 255, 0xfe, 0, 0 }),
                     15);

    /* Construction from binary. */
    struct in6_addr in6;
    ck_assert_int_eq(inet_pton(AF_INET6, "2001:db8::ffff", &in6), 1);
    fib_prefix_from_in6(&p, &in6, 112);
    ck_assert(fib_prefix_equals(&p, &(struct fib_prefix) {
                 .family = AF_INET6, .len = 112,
                 .addr = { 0x20, 0x01, 0x0d, 0xb8 } }));
    fib_prefix_from_in4(&p, htonl(0xc0a80101), 24);
    ck_assert_uint_eq(fib_prefix_get_in4(&p), htonl(0xc0a80100));
    in6 = fib_prefix_get_in6(&p);
    ck_assert_uint_eq(in6.s6_addr[2], 1);
    ck_assert_uint_eq(in6.s6_addr[3], 0);
}
END_TEST

START_TEST(test_format_helpers)
{
    struct fib_prefix p = must_parse("2001:db8::/32");
    char buf[FIB_PREFIX_STRLEN];
    struct ds s = DS_EMPTY_INITIALIZER;
    char *str;

    ck_assert_uint_eq(fib_prefix_format_addr(&p, buf), 10);
    ck_assert_str_eq(buf, "2001:db8::");
    ds_put_cstr(&s, "route ");
    fib_prefix_format_ds(&p, &s);
    ck_assert_str_eq(ds_cstr(&s), "route 2001:db8::/32");
    ds_destroy(&s);
    str = fib_prefix_to_string(&p);
    ck_assert_str_eq(str, "2001:db8::/32");
    free(str);

    /* The longest text fits. */
    p = must_parse("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255/128");
    ck_assert_uint_lt(fib_prefix_format(&p, buf), FIB_PREFIX_STRLEN);
    p = must_parse("::ffff:255.255.255.255/128");
    ck_assert_str_eq((fib_prefix_format(&p, buf), buf),
                     "::ffff:255.255.255.255/128");
    p = must_parse("255.255.255.255/32");
    ck_assert_uint_eq(fib_prefix_format(&p, buf), 18);
    ck_assert_str_eq(buf, "255.255.255.255/32");
}
END_TEST

/* Fills 'a' with a random address of 'family' in which a byte or a 16-bit
 * group is often zero, so that IPv6 formatting meets zero runs of every
 * length and position, embedded IPv4 forms included. */
static void
random_addr(int family, uint8_t a[16])
{
    uint32_t bits = random_uint32();

    memset(a, 0, 16);
    if (family == AF_INET) {
        for (int i = 0; i < 4; i++) {
            a[i] = (bits >> i) & 1 ? random_uint8() : 0;
        }
    } else {
        int style = bits & 7;

        for (int i = 0; i < 8; i++) {
            if ((bits >> (3 + i)) & 1) {
                uint16_t w = (random_uint32() & 1
                              ? random_uint16()
                              : random_uint16() >> (random_uint8() % 16));

                a[2 * i] = w >> 8;
                a[2 * i + 1] = w;
            }
        }
        if (style == 0) {
            /* ::ffff:a.b.c.d or ::a.b.c.d. */
            memset(a, 0, 10);
            a[10] = a[11] = bits & 8 ? 0xff : 0;
        }
    }
}

START_TEST(test_random_round_trip)
{
    random_set_seed(0x5eed);
    for (int iter = 0; iter < 50000; iter++) {
        int family = iter & 1 ? AF_INET6 : AF_INET;
        unsigned int max = fib_prefix_max_len(family);
        unsigned int len = (random_uint32() & 3
                            ? (unsigned int) random_range(max + 1) : max);
        char ntop[INET6_ADDRSTRLEN], expect[FIB_PREFIX_STRLEN];
        char buf[FIB_PREFIX_STRLEN];
        uint8_t a[16], masked[16], mask[16];
        struct fib_prefix p, q;
        char *error;

        random_addr(family, a);
        fib_prefix_netmask(family, len, mask);
        for (int i = 0; i < 16; i++) {
            masked[i] = a[i] & mask[i];
        }

        /* Format against inet_ntop() of the masked address. */
        fib_prefix_init(&p, family, a, len);
        ck_assert(!memcmp(p.addr, masked, 16));
        ck_assert_ptr_nonnull(inet_ntop(family, masked, ntop, sizeof ntop));
        snprintf(expect, sizeof expect, "%s/%u", ntop, len);
        fib_prefix_format(&p, buf);
        ck_assert_str_eq(buf, expect);

        /* Strict parse of the canonical text gives the prefix back. */
        error = fib_prefix_parse_strict(buf, &q);
        ck_assert_msg(!error, "%s", error ? error : "");
        ck_assert(fib_prefix_equals(&p, &q));

        /* Lenient parse of the unmasked address (inet_ntop() text) clears
         * the host bits, and the bare address agrees with inet_pton(). */
        ck_assert_ptr_nonnull(inet_ntop(family, a, ntop, sizeof ntop));
        snprintf(expect, sizeof expect, "%s/%u", ntop, len);
        error = fib_prefix_parse(expect, &q);
        ck_assert_msg(!error, "%s", error ? error : "");
        ck_assert(fib_prefix_equals(&p, &q));

        uint8_t pton[16] = { 0 };
        ck_assert_int_eq(inet_pton(family, ntop, pton), 1);
        error = fib_prefix_parse_addr(ntop, &q);
        ck_assert_msg(!error, "%s", error ? error : "");
        ck_assert(!memcmp(q.addr, pton, 16));
        ck_assert_uint_eq(q.len, max);
        ck_assert(fib_prefix_contains(&p, &q));
    }
}
END_TEST

/* qsort() comparator on 'struct fib_prefix'. */
static int
qsort_binary(const void *a, const void *b)
{
    return fib_prefix_compare(a, b);
}

/* qsort() comparator on canonical text. */
static int
qsort_text(const void *a, const void *b)
{
    return fib_prefix_compare_text(*(char *const *) a, *(char *const *) b);
}

START_TEST(test_random_sort_consistency)
{
    enum { N = 5000 };
    struct fib_prefix *ps = xmalloc(N * sizeof *ps);
    char **texts = xmalloc(N * sizeof *texts);

    random_set_seed(42);
    for (int i = 0; i < N; i++) {
        int family = random_range(3) ? AF_INET : AF_INET6;
        uint8_t a[16];

        random_addr(family, a);
        fib_prefix_init(&ps[i], family, a,
                        random_range(fib_prefix_max_len(family) + 1));
        texts[i] = fib_prefix_to_string(&ps[i]);
    }
    qsort(ps, N, sizeof *ps, qsort_binary);
    qsort(texts, N, sizeof *texts, qsort_text);
    for (int i = 0; i < N; i++) {
        char buf[FIB_PREFIX_STRLEN];

        fib_prefix_format(&ps[i], buf);
        ck_assert_str_eq(buf, texts[i]);
        if (i) {
            const struct fib_prefix *a = &ps[i - 1], *b = &ps[i];
            uint8_t x[17], y[17];

            /* Check against an independent definition of the order:
             * family rank, 16 address bytes, length, as one byte string. */
            x[0] = a->family == AF_INET6;
            y[0] = b->family == AF_INET6;
            memcpy(&x[1], a->addr, 16);
            memcpy(&y[1], b->addr, 16);
            int c = memcmp(x, y, 17);
            ck_assert(c < 0 || (c == 0 && a->len <= b->len));
        }
        free(texts[i]);
    }
    free(texts);
    free(ps);
}
END_TEST

/* Hash node for test_hash_distribution. */
struct prefix_node {
    struct hmap_node node;      /* In 'map'. */
    struct fib_prefix prefix;   /* Key. */
};

START_TEST(test_hash_distribution)
{
    struct hmap map = HMAP_INITIALIZER(&map);
    struct prefix_node *nodes = xcalloc(65536, sizeof *nodes);

    /* 65536 /24s in 10/8: a dense, regular key set. */
    for (int i = 0; i < 65536; i++) {
        fib_prefix_from_in4(&nodes[i].prefix, htonl(0x0a000000 | (i << 8)),
                            24);
        hmap_insert(&map, &nodes[i].node,
                    fib_prefix_hash(&nodes[i].prefix, 0));
    }
    for (int i = 0; i < 65536; i += 97) {
        struct fib_prefix key = nodes[i].prefix;
        struct prefix_node *n;
        bool found = false;

        HMAP_FOR_EACH_WITH_HASH (n, node, fib_prefix_hash(&key, 0), &map) {
            found |= fib_prefix_equals(&n->prefix, &key);
        }
        ck_assert(found);
    }
    /* A decent hash keeps the longest chain short. */
    size_t longest = 0;
    for (size_t b = 0; b <= map.mask; b++) {
        size_t n = 0;
        for (struct hmap_node *hn = map.buckets[b]; hn; hn = hn->next) {
            n++;
        }
        longest = MAX(longest, n);
    }
    ck_assert_uint_le(longest, 12);
    hmap_destroy(&map);
    free(nodes);
}
END_TEST

/* The fib_prefix Check suite. */
Suite *
fib_prefix_suite(void)
{
    Suite *s = suite_create("fib_prefix");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_parse_format_table);
    tcase_add_test(tc, test_binary_layout);
    tcase_add_test(tc, test_bad_inputs);
    tcase_add_test(tc, test_error_messages);
    tcase_add_test(tc, test_compare_order);
    tcase_add_test(tc, test_compare_text);
    tcase_add_test(tc, test_equal_addr_lengths);
    tcase_add_test(tc, test_contains_and_masks);
    tcase_add_test(tc, test_format_helpers);
    suite_add_tcase(s, tc);

    tc = tcase_create("random");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_random_round_trip);
    tcase_add_test(tc, test_random_sort_consistency);
    tcase_add_test(tc, test_hash_distribution);
    suite_add_tcase(s, tc);
    return s;
}
