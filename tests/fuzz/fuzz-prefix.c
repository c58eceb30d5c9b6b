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

/* fuzz-prefix: a prefix as text (lib/fib-prefix.h), as OVSDB's
 * Route.prefix and Asic_Route.prefix columns and fibctl's arguments
 * carry it.
 *
 * The input, up to its first null byte, goes through every parser:
 * lenient, strict, address only.  Besides not crashing, the parsers must
 * keep the contract of fib-prefix.h: strict parsing accepts exactly the
 * text fib_prefix_format() writes, and whatever parses leniently formats
 * to canonical text that parses strictly into the same prefix. */

#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/fib-prefix.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Checks the invariants that fib-prefix.h promises of every prefix a
 * parser returns. */
static void
check_prefix(const struct fib_prefix *p)
{
    struct fib_prefix copy = *p;

    ovs_assert(p->family == AF_INET || p->family == AF_INET6);
    ovs_assert(p->len <= fib_prefix_max_len(p->family));
    fib_prefix_truncate(&copy, p->len);
    ovs_assert(fib_prefix_equals(&copy, p));
}

/* Parses the input every way and checks the round trips. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = xmemdup0((const char *) data, size);
    char text[FIB_PREFIX_STRLEN];
    struct fib_prefix lenient, strict, again, addr;
    char *error;

    error = fib_prefix_parse(s, &lenient);
    if (!error) {
        check_prefix(&lenient);
        fib_prefix_format(&lenient, text);
        ovs_assert(fib_prefix_parse__(text, true, &again) == FIB_PREFIX_OK);
        ovs_assert(fib_prefix_equals(&again, &lenient));
    }
    free(error);

    error = fib_prefix_parse_strict(s, &strict);
    if (!error) {
        check_prefix(&strict);
        fib_prefix_format(&strict, text);
        ovs_assert(!strcmp(text, s));
    }
    free(error);

    error = fib_prefix_parse_addr(s, &addr);
    if (!error) {
        check_prefix(&addr);
        ovs_assert(fib_prefix_is_host(&addr));
    }
    free(error);

    ovs_assert(!fib_prefix_compare_text(s, s));
    free(s);
    return 0;
}
