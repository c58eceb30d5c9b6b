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
 * fibctl: "show ip route" for fibsync, in the style of FRR's vtysh.
 *
 * fibctl answers from orchd, the long-running process that holds the
 * routes and a (vrf, prefix) index over them: it sends its command line
 * to orchd's unixctl socket as "fib/show" and prints the answer.  A
 * one-shot command so costs one round trip and an index lookup, never a
 * replica build or a table scan.  Which index answers depends on orchd's
 * route source (daemons/orchd/orchd-source.h): by default (fibsync-ctl
 * start) orchd keeps no Route replica and its own route table's index
 * answers; with a Route replica (fibsync-ctl --route-replica, and with a
 * cluster) the IDL's compound indexes (idl/route-index.h) do.  See
 * --help.
 */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "command-line.h"
#include "jsonrpc.h"
#include "timeval.h"
#include "lib/fibsync-paths.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/vlog.h"
#include "stream.h"
#include "svec.h"
#include "unixctl.h"
#include "util.h"

static char *db_remote;     /* --db. */
static char *orchd_ctl;     /* --orchd. */
static int timeout_s = 10;  /* --timeout. */

OVS_NO_RETURN static void usage(void);

static void
parse_options(int argc, char *argv[])
{
    static const struct option long_options[] = {
        {"db", required_argument, NULL, 'd'},
        {"orchd", required_argument, NULL, 'o'},
        {"timeout", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };

    for (;;) {
        int c = getopt_long(argc, argv, "+d:o:t:hV", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case 'd':
            db_remote = optarg;
            break;
        case 'o':
            orchd_ctl = optarg;
            break;
        case 't':
            timeout_s = atoi(optarg);
            if (timeout_s <= 0) {
                ovs_fatal(0, "--timeout needs a positive number of seconds");
            }
            break;
        case 'h':
            usage();
        case 'V':
            ovs_print_version(0, 0);
            exit(EXIT_SUCCESS);
        case '?':
            exit(EXIT_FAILURE);
        default:
            abort();
        }
    }
}

/* Returns the file name of the first "unix:" remote in 'remotes' (one
 * remote or a comma-separated list: a cluster's servers, its relay), or
 * NULL if there is none.  The caller frees it. */
static char *
first_unix_socket(const char *remotes)
{
    struct svec list;
    char *path = NULL;

    svec_init(&list);
    ovsdb_writer_parse_remotes(remotes, &list);
    for (size_t i = 0; i < list.n && !path; i++) {
        if (!strncmp(list.names[i], "unix:", 5)) {
            path = xstrdup(list.names[i] + 5);
        }
    }
    svec_destroy(&list);
    return path;
}

/* Works out orchd's socket: --orchd, else the orchd.ctl beside the
 * database socket of --db (its first unix: remote), else
 * $FIBSYNC_RUNDIR/orchd.ctl. */
static char *
find_orchd_ctl(void)
{
    if (orchd_ctl) {
        return xstrdup(orchd_ctl);
    }
    if (db_remote) {
        char *dir = first_unix_socket(db_remote);
        char *slash;

        if (!dir) {
            ovs_fatal(0, "--db %s: cannot tell where its orchd runs; name "
                      "its socket with --orchd", db_remote);
        }
        slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
        } else {
            free(dir);
            dir = xstrdup(".");
        }
        char *ctl = xasprintf("%s/orchd.ctl", dir);
        free(dir);
        return ctl;
    }
    return fibsync_ctl_path("orchd");
}

/* Explains, in one line, why orchd could not be reached. */
OVS_NO_RETURN static void
explain_unreachable(const char *ctl, int error)
{
    char *db = first_unix_socket(db_remote ? db_remote
                                 : fibsync_default_db());
    struct stat st;

    if (db && stat(db, &st)) {
        ovs_fatal(0, "the database is not running (no %s)", db);
    }
    free(db);
    if (stat(ctl, &st)) {
        ovs_fatal(0, "orchd is not running (no %s)", ctl);
    }
    ovs_fatal(0, "cannot reach orchd at %s (%s)", ctl, ovs_strerror(error));
}

int
main(int argc, char *argv[])
{
    struct jsonrpc *client;
    char *result, *err;
    char *ctl;
    int error;

    set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_OFF);
    parse_options(argc, argv);
    argc -= optind;
    argv += optind;

    if (argc < 1 || strcmp(argv[0], "show")) {
        ovs_fatal(0, "usage: fibctl [OPTIONS] show ip|ipv6 route ... "
                  "(use --help for help)");
    }
    if (argc < 3 || (strcmp(argv[1], "ip") && strcmp(argv[1], "ipv6"))
        || strcmp(argv[2], "route")) {
        ovs_fatal(0, "usage: fibctl show ip|ipv6 route [vrf NAME] "
                  "[summary | PREFIX [longer-prefixes] | ADDRESS] [detail] "
                  "[json]");
    }
    if (argc > 9) {
        ovs_fatal(0, "too many arguments (use --help for help)");
    }

    ctl = find_orchd_ctl();
    error = unixctl_client_create(ctl, &client);
    if (error) {
        explain_unreachable(ctl, error);
    }
    time_alarm(timeout_s);
    error = unixctl_client_transact(client, "fib/show", argc - 1,
                                    argv + 1, &result, &err);
    if (error) {
        ovs_fatal(0, "%s: %s", ctl, ovs_strerror(error));
    }
    if (err) {
        /* One clear line. */
        char *nl = strchr(err, '\n');

        if (nl) {
            *nl = '\0';
        }
        if (strstr(err, "is not a valid command")) {
            ovs_fatal(0, "orchd at %s keeps no route index (started with "
                      "--no-route-index, or routes come over the northbound "
                      "fast path)", ctl);
        }
        fprintf(stderr, "%s\n", err);
        exit(EXIT_FAILURE);
    }
    fputs(result, stdout);
    free(result);
    jsonrpc_close(client);
    free(ctl);
    return 0;
}

static void
usage(void)
{
    printf("\
%s: show the routes fibsync holds, as FRR's \"show ip route\" does\n\
usage: %s [OPTIONS] show ip route [vrf NAME] [ARGS]\n\
       %s [OPTIONS] show ipv6 route [vrf NAME] [ARGS]\n\
\n\
ARGS, in any order:\n\
  PREFIX                 the route for exactly PREFIX (10.1.0.0/16)\n\
  PREFIX longer-prefixes every route within PREFIX\n\
  ADDRESS                the longest-prefix match for ADDRESS (10.1.2.3)\n\
  summary                routes and FIB entries by protocol, routes by\n\
                         prefix length\n\
  detail                 one block per route, with its hit counters\n\
                         (fetched from the on-demand column Route.counters)\n\
  json                   JSON shaped like FRR's \"show ip route json\"\n\
With none of PREFIX, ADDRESS or summary: every route of the VRF.\n\
\n\
In the route list, the first column is the protocol (B - BGP, S - static,\n\
C - connected, K - kernel, O - OSPF, ...), '>' marks the selected route,\n\
'*' a route the ASIC has acknowledged, 'q' one still queued.\n\
\n\
How it answers: orchd holds the routes with a (vrf, prefix) index over\n\
them, prefixes compared as numbers.  By default (fibsync-ctl start) that\n\
is orchd's own route table, read from the database file and kept by a\n\
monitor of Route's changes, with no Route replica; with fibsync-ctl\n\
--route-replica, and with a cluster, it is orchd's IDL replica of Route\n\
with compound indexes ((vrf, prefix) and (nexthop, prefix)).  On the\n\
northbound ZeroMQ path orchd keeps no index yet and fibctl says so.\n\
fibctl sends the command to orchd's unixctl socket (\"fib/show\") and\n\
prints the answer: an exact prefix is one index lookup, an address a\n\
few (longest prefix first).\n\
\n\
Options:\n\
  --db=REMOTE       the stack's database, unix:DIR/db.sock; orchd's socket\n\
                    is taken to be DIR/orchd.ctl\n\
                    (default: $FIBSYNC_RUNDIR/db.remotes, else\n\
                    unix:$FIBSYNC_RUNDIR/db.sock).  A comma-\n\
                    separated list (a cluster's db-N.sock, relay.sock)\n\
                    gives DIR by its first unix: remote.  fibctl reads\n\
                    no database itself: orchd's routes answer, so a\n\
                    relay takes no load off the cluster for fibctl;\n\
                    ovsdb-client reads the relay (fibsync-ctl --help)\n\
  --orchd=SOCKET    orchd's unixctl socket, explicitly\n\
  --timeout=SECS    give up after SECS seconds (default 10)\n\
  -h, --help        print this help\n\
  -V, --version     print the version\n\
\n\
Exit status: 0 on an answer; 1 on an error (a malformed prefix, an\n\
unknown VRF, a prefix not in the table, a stack that is not running),\n\
reported on one line.\n", program_name, program_name, program_name);
    exit(EXIT_SUCCESS);
}
