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
 * check-fibsync: runs every Check suite of fibsync's pure C modules.
 *
 * usage: check-fibsync [SUITE...]
 *
 * With no arguments, runs every suite listed in tests/check/suites.h.
 * CK_RUN_SUITE and CK_RUN_CASE (Check's own variables) narrow the run.
 * Exits 0 only if every test passed.
 */

#include <config.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check/suites.h"

int
main(int argc, char *argv[])
{
    SRunner *sr = srunner_create(NULL);
    int n_failed;

#define SUITE(NAME)                                                     \
    {                                                                   \
        bool wanted = argc < 2;                                         \
        for (int i = 1; i < argc; i++) {                                \
            wanted = wanted || !strcmp(argv[i], #NAME);                 \
        }                                                               \
        if (wanted) {                                                   \
            srunner_add_suite(sr, NAME##_suite());                      \
        }                                                               \
    }
    FIBSYNC_SUITES
#undef SUITE

    srunner_run_all(sr, CK_NORMAL);
    n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
