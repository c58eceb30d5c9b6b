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

#ifndef BENCH_OVSDB_H
#define BENCH_OVSDB_H 1

/* "fibsync-bench ovsdb": load generator for ovsdb-server itself, with raw
 * JSON-RPC "transact" requests on the Fibsync schema: concurrent updates,
 * concurrent inserts, a producer answering monitoring workers with large
 * map updates, and transaction-size sweeps.  Used by
 * utilities/bench-jemalloc.sh to compare allocators.  'argv[0]' is the
 * subcommand's name; returns the process exit status. */
int bench_ovsdb_main(int argc, char *argv[]);

#endif /* bench-ovsdb.h */
