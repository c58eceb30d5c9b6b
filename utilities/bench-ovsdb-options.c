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


/* bench-ovsdb-options: "fibsync-bench ovsdb"'s command line
 * (utilities/bench-ovsdb-options.h). */

#include <config.h>

#include "utilities/bench-ovsdb-options.h"

#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/option-parse.h"
#include "util.h"

/* Prints the subcommand's usage on stdout. */
static void
bench_usage(void)
{
    printf("usage: %s ovsdb WORKLOAD --db REMOTE [OPTIONS]\n"
           "Workloads and their options (defaults in brackets):\n"
           "  update  --rows N [1000] --workers W [10] --txns T [200]\n"
           "          --txn-rows K [100]\n"
           "  insert  --rows N per worker [20000] --workers W [10]\n"
           "          --txn-rows K [1000] --in-flight F [1]\n"
           "  answer  --rows N [512] --map-size M [256] --workers W [10]\n"
           "          --requests Q per worker [3]\n"
           "  txnsize --rows N [1000] --txn-rows K [N] --limit-rows L\n"
           "Prints one line: RESULT workload=... seconds=... rate=...\n",
           program_name);
}

/* Parses bench_ovsdb_main()'s command line into '*o', noting in
 * '*rows_set' and '*txn_rows_set' whether --rows and --txn-rows were
 * given.  Returns -1 to go on, otherwise the exit status to return. */
int
bench_ovsdb_parse_options(int argc, char *argv[], struct bench_opts *o,
                    bool *rows_set, bool *txn_rows_set)
{
    enum {
        OPT_ROWS = UCHAR_MAX + 1, OPT_TXN_ROWS, OPT_TXNS, OPT_MAP_SIZE,
        OPT_REQUESTS, OPT_IN_FLIGHT, OPT_LIMIT_ROWS, OPT_WORKERS,
    };
    static const struct option long_options[] = {
        {"db", required_argument, NULL, 'd'},
        {"workers", required_argument, NULL, OPT_WORKERS},
        {"rows", required_argument, NULL, OPT_ROWS},
        {"txn-rows", required_argument, NULL, OPT_TXN_ROWS},
        {"txns", required_argument, NULL, OPT_TXNS},
        {"map-size", required_argument, NULL, OPT_MAP_SIZE},
        {"requests", required_argument, NULL, OPT_REQUESTS},
        {"in-flight", required_argument, NULL, OPT_IN_FLIGHT},
        {"limit-rows", required_argument, NULL, OPT_LIMIT_ROWS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };

    if (argc > 1 && argv[1][0] != '-') {
        o->workload = argv[1];
        argc--;
        argv++;
    }
    optind = 1;
    for (;;) {
        int c = getopt_long(argc, argv, "d:h", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'd':
            o->remote = optarg;
            break;
        case OPT_WORKERS:
            o->workers = option_parse_uint("workers", optarg, 0, SIZE_MAX);
            break;
        case OPT_ROWS:
            o->rows = option_parse_uint("rows", optarg, 0, SIZE_MAX);
            *rows_set = true;
            break;
        case OPT_TXN_ROWS:
            o->txn_rows = option_parse_uint("txn-rows", optarg, 0, SIZE_MAX);
            *txn_rows_set = true;
            break;
        case OPT_TXNS:
            o->txns = option_parse_uint("txns", optarg, 0, SIZE_MAX);
            break;
        case OPT_MAP_SIZE:
            o->map_size = option_parse_uint("map-size", optarg, 0, SIZE_MAX);
            break;
        case OPT_REQUESTS:
            o->requests = option_parse_uint("requests", optarg, 0, SIZE_MAX);
            break;
        case OPT_IN_FLIGHT:
            o->in_flight = option_parse_uint("in-flight", optarg, 0, SIZE_MAX);
            break;
        case OPT_LIMIT_ROWS:
            o->limit_rows = option_parse_uint("limit-rows", optarg, 0,
                                              SIZE_MAX);
            break;
        case 'h':
            bench_usage();
            return EXIT_SUCCESS;
        default:
            return EXIT_FAILURE;
        }
    }
    if (!o->workload || !o->remote || optind != argc) {
        bench_usage();
        return EXIT_FAILURE;
    }
    if (o->workers < 1 || o->in_flight < 1) {
        ovs_fatal(0, "--workers and --in-flight must be at least 1");
    }
    return -1;
}
