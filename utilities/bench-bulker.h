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

#ifndef BENCH_BULKER_H
#define BENCH_BULKER_H 1

/* "fibsync-bench bulker": the in-process benchmark of orchd's bulker
 * (orchd-bulker.c) on the fast path's pattern: routes handed over
 * in groups with their lookups prefetched, bulks built and acknowledged
 * result by result, then the same routes updated and deleted.  No
 * sockets, no other process: the CPU time a route costs the bulker, which
 * the whole stack's runs on this 2-core machine cannot resolve.
 * 'argv[0]' is the subcommand's name; returns the process exit status. */
int bench_bulker_main(int argc, char *argv[]);

#endif /* bench-bulker.h */
