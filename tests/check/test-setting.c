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

/* Check suite of lib/setting: precedence of command line, Global row and
 * default. */

#include <config.h>

#include "lib/setting.h"
#include "tests/check/suites.h"

START_TEST(test_setting_precedence)
{
    struct setting s = SETTING_INITIALIZER("batch_size", 250);

    ck_assert_int_eq(s.value, 250);
    ck_assert_int_eq(s.source, SETTING_DEFAULT);

    /* The Global row sets it, and an empty column takes it back. */
    ck_assert(setting_set_global(&s, true, 700));
    ck_assert_int_eq(s.value, 700);
    ck_assert_int_eq(s.source, SETTING_GLOBAL);
    ck_assert(!setting_set_global(&s, true, 700));
    ck_assert(setting_set_global(&s, false, 0));
    ck_assert_int_eq(s.value, 250);
    ck_assert_int_eq(s.source, SETTING_DEFAULT);

    /* The command line wins over any later Global value. */
    setting_set_cmdline(&s, 300);
    ck_assert_int_eq(s.value, 300);
    ck_assert(!setting_set_global(&s, true, 900));
    ck_assert_int_eq(s.value, 300);
    ck_assert_int_eq(s.source, SETTING_CMDLINE);
    ck_assert_str_eq(setting_source_name(s.source), "command line");
}
END_TEST

START_TEST(test_setting_init)
{
    struct setting s;

    setting_init(&s, "fib_suppression", 0);
    ck_assert_str_eq(s.name, "fib_suppression");
    ck_assert_int_eq(s.value, 0);
    ck_assert(setting_set_global(&s, true, 1));
    ck_assert_str_eq(setting_source_name(s.source), "Global table");
    ck_assert_str_eq(setting_source_name(SETTING_DEFAULT), "default");
}
END_TEST

Suite *
setting_suite(void)
{
    Suite *s = suite_create("setting");
    TCase *tc = tcase_create("setting");

    tcase_add_test(tc, test_setting_precedence);
    tcase_add_test(tc, test_setting_init);
    suite_add_tcase(s, tc);
    return s;
}
