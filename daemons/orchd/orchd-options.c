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
 * orchd-options: orchd's command line, and its tunables from the command
 * line, the Global row and the defaults (orchd-options.h).
 */

#include <config.h>

#include "daemons/orchd/orchd-options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "daemon.h"
#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-replica.h"
#include "daemons/orchd/orchd-asic-read.h"
#include "lib/fibsync-instance.h"
#include "lib/fibsync-paths.h"
#include "lib/global-follower.h"
#include "lib/option-parse.h"
#include "lib/ssl-options.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "stream-ssl.h"
#include "util.h"

OVS_NO_RETURN static void usage(void);

/* Initializes 'opts' with every default. */
static void
options_init(struct orchd_options *opts)
{
    static const struct setting defaults[ORCHD_N_FEATURES] = {
        [ORCHD_F_RING] = SETTING_INITIALIZER("ring_thread", 0),
        [ORCHD_F_ASYNC] = SETTING_INITIALIZER("sai_mode async", 0),
        [ORCHD_F_MAX_OUTSTANDING] = SETTING_INITIALIZER(
            "async_max_outstanding", ORCHD_BULKER_DEFAULT_MAX_OUTSTANDING),
        [ORCHD_F_MAX_BULK] = SETTING_INITIALIZER(
            "max_bulk_size", ORCHD_BULKER_DEFAULT_MAX_BULK),
        [ORCHD_F_BATCH] = SETTING_INITIALIZER("batch_size",
                                              ORCHD_DEFAULT_BATCH_SIZE),
        [ORCHD_F_FIB_SUPPRESSION] = SETTING_INITIALIZER("fib_suppression",
                                                        0),
        [ORCHD_F_SORTED] = SETTING_INITIALIZER("sorted_bulks", 0),
        [ORCHD_F_NEXTHOP_GROUPS] = SETTING_INITIALIZER("nexthop_groups", 1),
        [ORCHD_F_NORTHBOUND_ZMQ] = SETTING_INITIALIZER("northbound_zmq", 0),
    };

    memset(opts, 0, sizeof *opts);
    opts->use_route_index = true;
    opts->asic_read_slice = ORCHD_ASIC_READ_SLICE;
    opts->replica_steps = ORCHD_REPLICA_STEPS;
    memcpy(opts->features, defaults, sizeof defaults);
    orchd_southbound_settings_init(&opts->sb);
}

/* Frees what 'opts' holds. */
void
orchd_options_destroy(struct orchd_options *opts)
{
    free(opts->db_remote);
    free(opts->unixctl_path);
    free(opts->nb_endpoint);
    free(opts->routes_file);
    free(opts->asic_file);
    orchd_southbound_settings_destroy(&opts->sb);
}

/* Reads the Global row that 'g' follows into the features: a column
 * empty (or no row at all) puts its feature back to the default, unless
 * the command line set it. */
void
orchd_options_read_global(struct orchd_options *opts,
                          const struct global_follower *g)
{
    struct setting *features = opts->features;
    const char *sai_mode = global_follower_get_string(g, "sai_mode");

    global_follower_set_boolean(g, &features[ORCHD_F_RING], "ring_thread");
    setting_set_global(&features[ORCHD_F_ASYNC], sai_mode != NULL,
                       sai_mode && !strcmp(sai_mode, "async"));
    global_follower_set_integer(g, &features[ORCHD_F_MAX_OUTSTANDING],
                                "async_max_outstanding");
    global_follower_set_integer(g, &features[ORCHD_F_MAX_BULK],
                                "max_bulk_size");
    global_follower_set_integer(g, &features[ORCHD_F_BATCH], "batch_size");
    global_follower_set_boolean(g, &features[ORCHD_F_FIB_SUPPRESSION],
                                "fib_suppression");
    global_follower_set_boolean(g, &features[ORCHD_F_SORTED],
                                "sorted_bulks");
    global_follower_set_boolean(g, &features[ORCHD_F_NEXTHOP_GROUPS],
                                "nexthop_groups");
    global_follower_set_boolean(g, &features[ORCHD_F_NORTHBOUND_ZMQ],
                                "northbound_zmq");
    orchd_southbound_read_global(&opts->sb, g);
    setting_apply_log_level(global_follower_get_string(g, "log_level"));
}

/* Returns the value in force of feature 'f'. */
int64_t
orchd_options_feature(const struct orchd_options *opts,
                      enum orchd_feature f)
{
    return opts->features[f].value;
}

/* Fills '*cfg' from the features in force. */
void
orchd_options_bulker_config(const struct orchd_options *opts,
                            struct orchd_bulker_config *cfg)
{
    const struct setting *features = opts->features;

    cfg->max_bulk = features[ORCHD_F_MAX_BULK].value;
    cfg->max_outstanding = (features[ORCHD_F_ASYNC].value
                            ? features[ORCHD_F_MAX_OUTSTANDING].value : 1);
    cfg->sorted = features[ORCHD_F_SORTED].value;
}

/* Appends to 's' each tunable, its value and where the value came from,
 * for features/show.  The tags are terser than setting_source_name()'s
 * words, to keep the table narrow. */
void
orchd_options_format_features(const struct orchd_options *opts,
                              struct ds *s)
{
    static const char *const tags[] = {
        [SETTING_DEFAULT] = "default",
        [SETTING_GLOBAL] = "Global",
        [SETTING_CMDLINE] = "command line",
    };

    for (size_t i = 0; i < ORCHD_N_FEATURES; i++) {
        const struct setting *f = &opts->features[i];

        ds_put_format(s, "%-24s %-8"PRId64" (%s)\n", f->name, f->value,
                      tags[f->source]);
    }
}

/* orchd's long options without a short form. */
enum {
    OPT_DB = UCHAR_MAX + 1,
    OPT_UNIXCTL,
    OPT_RING,
    OPT_NO_RING,
    OPT_SAI_MODE,
    OPT_MAX_OUTSTANDING,
    OPT_FIB_SUPPRESSION,
    OPT_NO_FIB_SUPPRESSION,
    OPT_SORTED,
    OPT_NO_SORTED,
    OPT_NO_ROUTE_INDEX,
    OPT_NORTHBOUND_ZMQ,
    OPT_NORTHBOUND_ENDPOINT,
    OPT_INSTANCE,
    OPT_ASIC_READ_SLICE,
    OPT_REPLICA_STEPS,
    OPT_ROUTES_FROM_FILE,
    OPT_ASIC_FROM_FILE,
    ORCHD_SOUTHBOUND_OPTION_ENUMS,
    FIBSYNC_ZMQ_TCP_OPTION_ENUMS,
    VLOG_OPTION_ENUMS,
    DAEMON_OPTION_ENUMS,
    SSL_OPTION_ENUMS,
};

/* Applies tuning option 'c' (with 'optarg') to 'opts''s features, which
 * it overrides in Global.  Returns false if 'c' is not a tuning option. */
static bool
parse_tuning_option(struct orchd_options *opts, int c)
{
    struct setting *features = opts->features;

    switch (c) {
    case 'k':
        setting_set_cmdline(&features[ORCHD_F_MAX_BULK],
                            option_parse_uint("max-bulk", optarg, 1,
                                              1000000));
        break;
    case 'b':
        setting_set_cmdline(&features[ORCHD_F_BATCH],
                            option_parse_uint("batch-size", optarg, 1,
                                              1000000));
        break;
    case OPT_RING:
    case OPT_NO_RING:
        setting_set_cmdline(&features[ORCHD_F_RING], c == OPT_RING);
        break;
    case OPT_SAI_MODE:
        if (strcmp(optarg, "sync") && strcmp(optarg, "async")) {
            ovs_fatal(0, "--sai-mode: \"%s\" is neither sync nor async",
                      optarg);
        }
        setting_set_cmdline(&features[ORCHD_F_ASYNC],
                            !strcmp(optarg, "async"));
        break;
    case OPT_MAX_OUTSTANDING:
        setting_set_cmdline(&features[ORCHD_F_MAX_OUTSTANDING],
                            option_parse_uint("max-outstanding", optarg,
                                              1, 1024));
        break;
    case OPT_FIB_SUPPRESSION:
    case OPT_NO_FIB_SUPPRESSION:
        setting_set_cmdline(&features[ORCHD_F_FIB_SUPPRESSION],
                            c == OPT_FIB_SUPPRESSION);
        break;
    case OPT_SORTED:
    case OPT_NO_SORTED:
        setting_set_cmdline(&features[ORCHD_F_SORTED], c == OPT_SORTED);
        break;
    case OPT_NORTHBOUND_ZMQ:
        setting_set_cmdline(&features[ORCHD_F_NORTHBOUND_ZMQ],
                            option_parse_on_off("northbound-zmq",
                                                optarg));
        break;
    default:
        return false;
    }
    return true;
}

/* orchd's options, for getopt_long(). */
static const struct option long_options[] = {
    {"db", required_argument, NULL, OPT_DB},
    {"unixctl", required_argument, NULL, OPT_UNIXCTL},
    {"max-bulk", required_argument, NULL, 'k'},
    {"batch-size", required_argument, NULL, 'b'},
    {"ring", no_argument, NULL, OPT_RING},
    {"no-ring", no_argument, NULL, OPT_NO_RING},
    {"sai-mode", required_argument, NULL, OPT_SAI_MODE},
    {"max-outstanding", required_argument, NULL, OPT_MAX_OUTSTANDING},
    {"fib-suppression", no_argument, NULL, OPT_FIB_SUPPRESSION},
    {"no-fib-suppression", no_argument, NULL, OPT_NO_FIB_SUPPRESSION},
    {"sorted-bulks", no_argument, NULL, OPT_SORTED},
    {"no-sorted-bulks", no_argument, NULL, OPT_NO_SORTED},
    {"no-route-index", no_argument, NULL, OPT_NO_ROUTE_INDEX},
    {"northbound-zmq", required_argument, NULL, OPT_NORTHBOUND_ZMQ},
    {"northbound-endpoint", required_argument, NULL,
     OPT_NORTHBOUND_ENDPOINT},
    {"instance", required_argument, NULL, OPT_INSTANCE},
    {"asic-read-slice", required_argument, NULL, OPT_ASIC_READ_SLICE},
    {"replica-steps", required_argument, NULL, OPT_REPLICA_STEPS},
    {"routes-from-file", required_argument, NULL, OPT_ROUTES_FROM_FILE},
    {"asic-from-file", required_argument, NULL, OPT_ASIC_FROM_FILE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    ORCHD_SOUTHBOUND_LONG_OPTIONS,
    FIBSYNC_ZMQ_TCP_LONG_OPTIONS,
    VLOG_LONG_OPTIONS,
    DAEMON_LONG_OPTIONS,
    STREAM_SSL_LONG_OPTIONS,
    {NULL, 0, NULL, 0},
};

/* Completes 'opts' once every option is read: the defaults that depend on
 * others, and the checks across options. */
static void
options_finish(struct orchd_options *opts)
{
    char *ssl_error;

    if (!opts->db_remote) {
        opts->db_remote = xstrdup(fibsync_default_db());
    }
    orchd_southbound_set_instance(&opts->sb, opts->instance);
    ssl_error = ssl_options_check("db", opts->db_remote);
    if (ssl_error) {
        ovs_fatal(0, "%s", ssl_error);
    }
}

/* Parses the command line into 'opts': options fix features (see
 * usage()). */
void
orchd_options_parse(struct orchd_options *opts, int argc, char *argv[])
{
    /* Static, so that an option error, which exits from inside the loop,
     * leaves it reachable rather than leaked (LeakSanitizer). */
    static char *short_options;

    options_init(opts);
    short_options = ovs_cmdl_long_options_to_short_options(long_options);
    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);

        if (c == -1) {
            break;
        }
        if (parse_tuning_option(opts, c)) {
            continue;
        }
        switch (c) {
        case OPT_DB:
            opts->db_remote = xstrdup(optarg);
            break;
        case OPT_UNIXCTL:
            opts->unixctl_path = xstrdup(optarg);
            break;
        case OPT_NO_ROUTE_INDEX:
            opts->use_route_index = false;
            break;
        case OPT_NORTHBOUND_ENDPOINT:
            free(opts->nb_endpoint);
            opts->nb_endpoint = xstrdup(optarg);
            break;
        case OPT_INSTANCE:
            opts->instance = fibsync_instance_parse("instance", optarg);
            break;
        case OPT_ASIC_READ_SLICE:
            opts->asic_read_slice = option_parse_uint("asic-read-slice",
                                                      optarg, 1, INT32_MAX);
            break;
        case OPT_REPLICA_STEPS:
            opts->replica_steps = option_parse_uint(
                "replica-steps", optarg, 1, ORCHD_REPLICA_MAX_STEPS);
            break;
        case OPT_ROUTES_FROM_FILE:
            free(opts->routes_file);
            opts->routes_file = xstrdup(optarg);
            break;
        case OPT_ASIC_FROM_FILE:
            free(opts->asic_file);
            opts->asic_file = xstrdup(optarg);
            break;
        case 'h':
            usage();
        case 'V':
            ovs_print_version(0, 0);
            exit(EXIT_SUCCESS);
        ORCHD_SOUTHBOUND_OPTION_HANDLERS(&opts->sb)
        FIBSYNC_ZMQ_TCP_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS
        DAEMON_OPTION_HANDLERS
        STREAM_SSL_OPTION_HANDLERS
        case '?':
            exit(EXIT_FAILURE);
        default:
            abort();
        }
    }
    free(short_options);
    short_options = NULL;
    if (optind < argc) {
        ovs_fatal(0, "unexpected argument \"%s\" (use --help for help)",
                  argv[optind]);
    }
    options_finish(opts);
}

/* Prints --help and exits. */
static void
usage(void)
{
    printf("\
%s: programs the routes in the Fibsync database into the ASIC\n\
usage: %s [OPTIONS]\n\
\n\
orchd reads Route, Nexthop_Group, Vrf and Global from the Fibsync OVSDB\n\
database, resolves each route's next hops into a SAI route entry, and\n\
writes the entries into Asic_Route in bulks, where syncd programs them.\n\
Acknowledged entries are kept in a read cache; with FIB suppression on,\n\
each route's outcome is written back into Route.status (offload=true or\n\
error=REASON) by partial map mutates.\n\
\n\
Database:\n\
  --db=REMOTE             database (default: the list in\n\
                          $FIBSYNC_RUNDIR/db.remotes, else\n\
                          unix:$FIBSYNC_RUNDIR/db.sock; now %s)\n\
  --asic-read-slice=N     on the southbound fast path, read this instance's\n\
                          Asic_Route rows at start in selects of N seq\n\
                          values (so at most N rows) each [%d]: smaller\n\
                          keeps ovsdb-server's transient memory smaller,\n\
                          but each select scans the whole table there\n\
  --replica-steps=N       on the northbound OVSDB path, take Route's rows\n\
                          into the replica in N steps of its bucket range\n\
                          (1 to %d) [%d]: each step's rows come as one\n\
                          reply, so more steps keep orchd's and\n\
                          ovsdb-server's transient memory smaller, but\n\
                          each step scans the whole table there\n\
  --routes-from-file=FILE on the northbound OVSDB path, keep no replica\n\
                          of Route: read Route and this instance's\n\
                          Asic_Route rows from FILE, the standalone\n\
                          database file of the server at --db, when\n\
                          orchd starts and whenever its connection\n\
                          begins again, and follow Route's changes\n\
                          through a monitor of changes alone.  A restart\n\
                          at a million routes then takes seconds, not a\n\
                          minute, and orchd some 1.2 GB less; fib/show\n\
                          answers from orchd's route table and its own\n\
                          (vrf, prefix) index, cache/verify compares the\n\
                          read cache with that table\n\
  --asic-from-file=FILE   with a Route replica, read this instance's\n\
                          Asic_Route rows at start from FILE, the\n\
                          standalone database file of the server at --db,\n\
                          instead of selecting them from the server,\n\
                          which then composes only the replica (falls\n\
                          back to the selects if FILE cannot be read)\n\
\n\
ASIC instance (several ASICs on one host, docs/RELIABILITY.md):\n\
  --instance=N            drive ASIC instance N, 0 to 63 [0]: write and\n\
                          monitor only the Asic_Route rows whose instance\n\
                          is N; N > 0 never writes Route.status (instance\n\
                          0 does) and defaults to orchd-N.ctl and the\n\
                          endpoints northbound-N.zmq, southbound-N.zmq\n\
\n\
Tuning (each overrides the matching Global column; default in brackets):\n\
  -k, --max-bulk=N        route entries per SAI bulk [%d]\n\
  -b, --batch-size=N      size of the --ring task ring: 64 x N tasks,\n\
                          rounded up to a power of 2 [%d]\n\
  --ring, --no-ring       run bulks in an assistant thread fed by a\n\
                          single-producer single-consumer task ring [off]\n\
  --sai-mode=sync|async   wait for each bulk's acknowledgement, or keep\n\
                          several bulks outstanding [sync]\n\
  --max-outstanding=N     bulks outstanding in async mode [%d]\n\
  --fib-suppression, --no-fib-suppression\n\
                          write Route.status back [off]\n\
  --sorted-bulks, --no-sorted-bulks\n\
                          sort each bulk by prefix [off]\n\
  --no-route-index        keep no (vrf, prefix) and (nexthop, prefix)\n\
                          indexes over the replica, nor the (vrf, prefix)\n\
                          index over the route table without one: saves\n\
                          their memory and the CPU to maintain them, but\n\
                          disables fib/show\n\
  --northbound-zmq=on|off take routes from fpmsyncd over ZeroMQ, already\n\
                          resolved, instead of replicating Route and\n\
                          Nexthop_Group (no route index then) [off]\n\
  --northbound-endpoint=E where to bind for it\n\
                          [ipc://$FIBSYNC_RUNDIR/northbound.zmq, or\n\
                          northbound-N.zmq for --instance=N]\n\
\n\
unixctl commands (ovs-appctl -t $FIBSYNC_RUNDIR/orchd.ctl COMMAND):\n\
  route/show [vrf NAME] PREFIX   the programmed entry, from the read cache\n\
  route/dump [json]              every programmed entry, in prefix order\n\
  cache/verify                   compare the read cache with Route\n\
  features/show                  each optimization, its value and source\n\
  perf/show                      last per-stage performance lines\n\
  ring/show                      task ring statistics\n\
  zmq/show                       fast-path channels, Asic_Route writers\n\
  orchd/status                   counters: updates, bulks, acks, cache\n\
  fib/show ip|ipv6 route ...     \"show ip route\" from the indexes (fibctl)\n\
  exit                           drain and exit\n",
           program_name, program_name, fibsync_default_db(),
           ORCHD_ASIC_READ_SLICE, ORCHD_REPLICA_MAX_STEPS,
           ORCHD_REPLICA_STEPS, ORCHD_BULKER_DEFAULT_MAX_BULK,
           ORCHD_DEFAULT_BATCH_SIZE, ORCHD_BULKER_DEFAULT_MAX_OUTSTANDING);
    orchd_southbound_usage();
    fibsync_instance_zmq_tcp_usage();
    daemon_usage();
    ssl_options_usage();
    vlog_usage();
    printf("\nOther options:\n"
           "  --unixctl=SOCKET        control socket (default: "
           "$FIBSYNC_RUNDIR/orchd.ctl,\n"
           "                          orchd-N.ctl for --instance=N)\n"
           "  -h, --help              display this help message\n"
           "  -V, --version           display version information\n");
    exit(EXIT_SUCCESS);
}
