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

/* Helpers shared by the Check suites that make orchd entries
 * (orchd-test-util.h). */

#include <config.h>

#include "tests/check/orchd-test-util.h"

#include <stdbool.h>

#include "daemons/orchd/orchd-entry.h"

/* Returns the space of the suites' entries: ASIC instance 0, its VRF
 * names kept for the process's life, as orchd keeps its own. */
struct orchd_entry_space *
test_entry_space(void)
{
    static struct orchd_entry_space space;
    static bool initialized;

    if (!initialized) {
        orchd_entry_space_init(&space, 0);
        initialized = true;
    }
    return &space;
}
