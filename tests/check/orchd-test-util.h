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

#ifndef ORCHD_TEST_UTIL_H
#define ORCHD_TEST_UTIL_H 1

/* Helpers shared by the Check suites that make orchd entries:
 * test-orchd-bulker.c, test-orchd-route-table.c, test-orchd-writebehind.c
 * and test-southbound.c. */

struct orchd_entry_space;

struct orchd_entry_space *test_entry_space(void);

#endif /* orchd-test-util.h */
