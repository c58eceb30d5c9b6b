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


#ifndef BENCH_OVSDB_OPTIONS_H
#define BENCH_OVSDB_OPTIONS_H 1

/* bench-ovsdb-options: the command line of "fibsync-bench ovsdb"
 * (utilities/bench-ovsdb.h): the workload, the server and the options
 * that size it, parsed apart from the workloads that
 * utilities/bench-ovsdb.c runs.
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>

/* Command-line options. */
struct bench_opts {
    const char *remote;         /* --db: the ovsdb-server to load. */
    const char *workload;       /* "update", "insert", "answer", "txnsize". */
    int workers;                /* --workers: worker processes. */
    size_t rows;                /* --rows: meaning depends on workload. */
    size_t txn_rows;            /* --txn-rows: rows per transaction. */
    size_t txns;                /* --txns: transactions per worker. */
    size_t map_size;            /* --map-size: entries in each map. */
    size_t requests;            /* --requests: per worker (answer). */
    int in_flight;              /* --in-flight: transactions outstanding. */
    size_t limit_rows;          /* --limit-rows: txnsize cap, 0 for none. */
};

int bench_ovsdb_parse_options(int argc, char *argv[], struct bench_opts *,
                              bool *rows_set, bool *txn_rows_set);

#endif /* bench-ovsdb-options.h */
