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

/* fibsync-bench: fibsync's benchmarks, one subcommand each.
 *
 * usage: fibsync-bench SUBCOMMAND [ARGS...]
 *
 * A minimal dispatcher: each subcommand is a function taking the
 * remaining arguments (its own name first) and returning the exit
 * status.  "run", the end-to-end benchmark, and "frr", the real-FRR
 * benchmark, are Python programs, fibsync-bench-run and
 * fibsync-bench-frr, installed next to this one: they are exec'd. */

#include <config.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "openvswitch/util.h"
#include "util.h"
#include "utilities/bench-asic.h"
#include "utilities/bench-bulker.h"
#include "utilities/bench-dump.h"
#include "utilities/bench-index.h"
#include "utilities/bench-ovsdb.h"

/* A subcommand. */
struct bench_command {
    const char *name;           /* As typed on the command line. */
    int (*main)(int argc, char *argv[]); /* Its entry point. */
    const char *help;           /* One line of usage. */
};

static int bench_run_main(int argc, char *argv[]);
static int bench_frr_main(int argc, char *argv[]);

static const struct bench_command commands[] = {
    { "run", bench_run_main,
      "run [SCENARIO] [--routes N] [--configs LIST] ...: the whole stack" },
    { "asic", bench_asic_main,
      "asic [--routes N] [--runs R] ...: SAI simulator (asic-sim)" },
    { "bulker", bench_bulker_main,
      "bulker [--routes N] [--runs R]: orchd's bulker, in process" },
    { "dump", bench_dump_main,
      "dump [--routes N] [--runs R]: orchd's route/dump, in process" },
    { "frr", bench_frr_main,
      "frr [--routes N] [--paths ovsdb,zmq] ...: real FRR and ExaBGP" },
    { "index", bench_index_main,
      "index --db REMOTE [--load] [--routes N] ...: IDL route index" },
    { "ovsdb", bench_ovsdb_main,
      "ovsdb WORKLOAD --db REMOTE ...: ovsdb-server load generator" },
};

/* Execs 'script' from this program's directory (the build tree or the
 * installed bindir), else from $PATH, with 'argv' after the subcommand's
 * name.  Returns only on failure. */
static int
bench_exec_script(const char *script, char *argv[])
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

    argv[0] = CONST_CAST(char *, script);
    if (n > 0) {
        self[n] = '\0';
        char *path = xasprintf("%s/%s", dirname(self), script);
        if (!access(path, X_OK)) {
            execv(path, argv);
            fprintf(stderr, "%s: cannot run %s (%s)\n", program_name, path,
                    strerror(errno));
            free(path);
            return 2;
        }
        free(path);
    }
    execvp(script, argv);
    fprintf(stderr, "%s: cannot run %s (%s); is fibsync built?\n",
            program_name, script, strerror(errno));
    return 2;
}

/* "run": utilities/fibsync-bench-run.in. */
static int
bench_run_main(int argc OVS_UNUSED, char *argv[])
{
    return bench_exec_script("fibsync-bench-run", argv);
}

/* "frr": utilities/fibsync-bench-frr.in. */
static int
bench_frr_main(int argc OVS_UNUSED, char *argv[])
{
    return bench_exec_script("fibsync-bench-frr", argv);
}

static void
usage(FILE *stream)
{
    fprintf(stream, "usage: %s SUBCOMMAND [ARGS...]\n"
            "Subcommands (each takes --help):\n", program_name);
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
        fprintf(stream, "  %s\n", commands[i].help);
    }
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);

    if (argc < 2) {
        usage(stderr);
        return EXIT_FAILURE;
    } else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return EXIT_SUCCESS;
    }
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
        if (!strcmp(argv[1], commands[i].name)) {
            return commands[i].main(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "%s: unknown subcommand \"%s\"\n", program_name,
            argv[1]);
    usage(stderr);
    return EXIT_FAILURE;
}
