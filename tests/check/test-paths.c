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

/*
 * Check suite for lib/fibsync-paths: run-directory defaults.
 */

#include <config.h>

#include <stdlib.h>

#include "tests/check/suites.h"
#include "lib/fibsync-paths.h"

/* Checks that the run-directory helpers follow $FIBSYNC_RUNDIR. */
START_TEST(test_paths_default)
{
    char *ctl;

    /* fibsync_rundir() caches its answer, so this is the first call. */
    setenv("FIBSYNC_RUNDIR", "/tmp/fibsync-x", 1);
    ck_assert_str_eq(fibsync_rundir(), "/tmp/fibsync-x");
    ck_assert_str_eq(fibsync_default_db(), "unix:/tmp/fibsync-x/db.sock");
    ctl = fibsync_ctl_path("orchd");
    ck_assert_str_eq(ctl, "/tmp/fibsync-x/orchd.ctl");
    free(ctl);
}
END_TEST

Suite *
paths_suite(void)
{
    Suite *s = suite_create("paths");
    TCase *tc = tcase_create("paths");

    tcase_add_test(tc, test_paths_default);
    suite_add_tcase(s, tc);
    return s;
}

