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

#ifndef BENCH_INDEX_H
#define BENCH_INDEX_H 1

/* "fibsync-bench index": the IDL replica and route index benchmark
 * (idl/route-index.h) against a real ovsdb-server: time and memory to
 * replicate N routes with and without the indexes, exact lookup,
 * longest-prefix match and ordered walks.  'argv[0]' is the subcommand's
 * name; returns the process exit status. */
int bench_index_main(int argc, char *argv[]);

#endif /* bench-index.h */
