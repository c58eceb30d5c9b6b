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

/* fpmsyncd's command line: its options, their defaults, and the usage text
 * (daemons/fpmsyncd/fpmsyncd-options.h). */

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-options.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "daemon.h"
#include "daemons/fpmsyncd/fpmsyncd-zmq.h"
#include "lib/fibsync-instance.h"
#include "lib/fibsync-paths.h"
#include "lib/global-follower.h"
#include "lib/option-parse.h"
#include "lib/route-key.h"
#include "lib/ssl-options.h"
#include "openvswitch/vlog.h"
#include "stream-ssl.h"
#include "util.h"

/* Flush policy defaults (SONiC's fpmsyncd). */
#define DEFAULT_BATCH_SIZE 250          /* Rows per transaction when
                                         * Global.batch_size is empty:
                                         * measured best for ovsdb-server
                                         * 3.1 (see docs/PERFORMANCE.md). */
#define DEFAULT_RECONCILE_TIMER 120     /* Global.reconcile_timer. */
#define DEFAULT_FLUSH_THRESHOLD 500     /* Below this, flush at once. */
#define DEFAULT_FLUSH_INTERVAL 500      /* ms: otherwise at most this late. */
#define DEFAULT_MAX_INFLIGHT 8          /* Transactions pipelined. */
#define DEFAULT_ZMQ_MAX_PENDING 100000  /* Routes queued for orchd. */
#define DEFAULT_ROUTE_READ_SLICE 8192   /* Route.bucket values a select:
                                         * eight selects, two at once.
                                         * Four held fpmsyncd at up to
                                         * 1.55x its size at a million
                                         * routes (docs/PERFORMANCE.md). */

OVS_NO_RETURN static void usage(void);

/* Initializes 'o' with the defaults. */
static void
options_init(struct fpmd_options *o)
{
    struct fpmd_settings *st = &o->settings;

    memset(o, 0, sizeof *o);
    setting_init(&st->batch_size, "batch_size", DEFAULT_BATCH_SIZE);
    setting_init(&st->reconcile_timer, "reconcile_timer",
                 DEFAULT_RECONCILE_TIMER);
    setting_init(&st->fib_suppression, "fib_suppression", 0);
    setting_init(&st->resolve_nexthops, "resolve_nexthops", 1);
    setting_init(&st->northbound_zmq, "northbound_zmq", 0);
    st->zmq_max_pending = DEFAULT_ZMQ_MAX_PENDING;
    st->zmq_frame_routes = FPMD_ZMQ_FRAME_ROUTES;
    st->route_read_slice = DEFAULT_ROUTE_READ_SLICE;
    st->flush_threshold = DEFAULT_FLUSH_THRESHOLD;
    st->flush_interval = DEFAULT_FLUSH_INTERVAL;
    st->max_inflight = DEFAULT_MAX_INFLIGHT;
    o->fpm_port = FIBSYNC_FPM_PORT;
    svec_init(&o->nb_endpoints);
}

/* Fills in what the command line left out. */
static void
options_finish(struct fpmd_options *o)
{
    if (!o->fpm_addr) {
        o->fpm_addr = xstrdup("127.0.0.1");
    }
    if (!o->db_remote) {
        o->db_remote = xstrdup(fibsync_default_db());
    }
    if (!o->unixctl_path) {
        o->unixctl_path = fibsync_ctl_path("fpmsyncd");
    }
    if (!o->nb_endpoints.n) {
        int n = o->n_instances ? o->n_instances : 1;

        for (int i = 0; i < n; i++) {
            svec_add_nocopy(&o->nb_endpoints,
                            fibsync_instance_endpoint("northbound", i));
        }
    } else if (o->n_instances && o->n_instances != o->nb_endpoints.n) {
        ovs_fatal(0, "--instances=%d needs %d --northbound-endpoint "
                  "options (or none), not %"PRIuSIZE, o->n_instances,
                  o->n_instances, o->nb_endpoints.n);
    }
    /* Decided now if the command line says (there is no follower of
     * Global yet), else by the first Global row. */
    global_follower_choose_path(NULL, &o->settings.northbound_zmq,
                                &o->settings.path);
}

/* The long options' values. */
enum {
    OPT_DB = UCHAR_MAX + 1,
    OPT_FPM_PORT,
    OPT_FPM_ADDR,
    OPT_UNIXCTL,
    OPT_BATCH_SIZE,
    OPT_RECONCILE_TIMER,
    OPT_FIB_SUPPRESSION,
    OPT_RESOLVE_NEXTHOPS,
    OPT_FLUSH_THRESHOLD,
    OPT_FLUSH_INTERVAL,
    OPT_MAX_INFLIGHT,
    OPT_MAX_PENDING,
    OPT_NORTHBOUND_ZMQ,
    OPT_NORTHBOUND_ENDPOINT,
    OPT_INSTANCES,
    OPT_ZMQ_MAX_PENDING,
    OPT_ZMQ_FRAME_ROUTES,
    OPT_ROUTE_READ_SLICE,
    FIBSYNC_ZMQ_TCP_OPTION_ENUMS,
    VLOG_OPTION_ENUMS,
    DAEMON_OPTION_ENUMS,
    SSL_OPTION_ENUMS,
};

/* Takes in option 'c' (getopt_long()'s return), with its argument in
 * 'optarg', into 'o'. */
static void
parse_option(int c, struct fpmd_options *o)
{
    struct fpmd_settings *st = &o->settings;

    switch (c) {
    case OPT_DB:
        free(o->db_remote);
        o->db_remote = xstrdup(optarg);
        break;
    case OPT_FPM_PORT:
        o->fpm_port = option_parse_uint("fpm-port", optarg, 0, 65535);
        break;
    case OPT_FPM_ADDR:
        free(o->fpm_addr);
        o->fpm_addr = xstrdup(optarg);
        break;
    case OPT_UNIXCTL:
        free(o->unixctl_path);
        o->unixctl_path = xstrdup(optarg);
        break;
    case OPT_BATCH_SIZE:
        setting_set_cmdline(&st->batch_size,
                            option_parse_uint("batch-size", optarg, 1,
                                              1000000));
        break;
    case OPT_RECONCILE_TIMER:
        setting_set_cmdline(&st->reconcile_timer,
                            option_parse_uint("reconcile-timer", optarg,
                                              0, 3600));
        break;
    case OPT_FIB_SUPPRESSION:
        setting_set_cmdline(&st->fib_suppression,
                            option_parse_on_off("fib-suppression",
                                                optarg));
        break;
    case OPT_RESOLVE_NEXTHOPS:
        setting_set_cmdline(&st->resolve_nexthops,
                            option_parse_on_off("resolve-nexthops",
                                                optarg));
        break;
    case OPT_FLUSH_THRESHOLD:
        st->flush_threshold = option_parse_uint("flush-threshold",
                                                optarg, 0, 10000000);
        break;
    case OPT_FLUSH_INTERVAL:
        st->flush_interval = option_parse_uint("flush-interval", optarg,
                                               0, 60000);
        break;
    case OPT_MAX_INFLIGHT:
        st->max_inflight = option_parse_uint("max-inflight", optarg, 1,
                                             64);
        break;
    case OPT_ROUTE_READ_SLICE:
        st->route_read_slice = option_parse_uint("route-read-slice",
                                                 optarg, 1,
                                                 ROUTE_KEY_N_BUCKETS);
        break;
    case OPT_MAX_PENDING:
        st->max_pending = option_parse_uint("max-pending", optarg, 1,
                                            INT_MAX);
        break;
    case OPT_NORTHBOUND_ZMQ:
        setting_set_cmdline(&st->northbound_zmq,
                            option_parse_on_off("northbound-zmq",
                                                optarg));
        break;
    case OPT_NORTHBOUND_ENDPOINT:
        if (o->nb_endpoints.n > FIBSYNC_INSTANCE_MAX) {
            ovs_fatal(0, "--northbound-endpoint: more than %d "
                      "instances", FIBSYNC_INSTANCE_MAX + 1);
        }
        svec_add(&o->nb_endpoints, optarg);
        break;
    case OPT_INSTANCES:
        o->n_instances = option_parse_uint("instances", optarg, 1,
                                           FIBSYNC_INSTANCE_MAX + 1);
        break;
    FIBSYNC_ZMQ_TCP_OPTION_HANDLERS
    case OPT_ZMQ_MAX_PENDING:
        st->zmq_max_pending = option_parse_uint("zmq-max-pending",
                                                optarg, 1, INT_MAX);
        break;
    case OPT_ZMQ_FRAME_ROUTES:
        st->zmq_frame_routes = option_parse_uint("zmq-frame-routes",
                                                 optarg, 1, 100000);
        break;
    case 'h':
        usage();
    case 'V':
        ovs_print_version(0, 0);
        exit(EXIT_SUCCESS);
    VLOG_OPTION_HANDLERS
    DAEMON_OPTION_HANDLERS
    STREAM_SSL_OPTION_HANDLERS
    case '?':
        exit(EXIT_FAILURE);
    default:
        abort();
    }
}

/* Parses the command line into 'o', which fpmd_options_destroy() frees. */
void
fpmd_options_parse(int argc, char *argv[], struct fpmd_options *o)
{
    static const struct option long_options[] = {
        {"db", required_argument, NULL, OPT_DB},
        {"fpm-port", required_argument, NULL, OPT_FPM_PORT},
        {"fpm-addr", required_argument, NULL, OPT_FPM_ADDR},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        {"batch-size", required_argument, NULL, OPT_BATCH_SIZE},
        {"reconcile-timer", required_argument, NULL, OPT_RECONCILE_TIMER},
        {"fib-suppression", required_argument, NULL, OPT_FIB_SUPPRESSION},
        {"resolve-nexthops", required_argument, NULL,
         OPT_RESOLVE_NEXTHOPS},
        {"flush-threshold", required_argument, NULL, OPT_FLUSH_THRESHOLD},
        {"flush-interval", required_argument, NULL, OPT_FLUSH_INTERVAL},
        {"max-inflight", required_argument, NULL, OPT_MAX_INFLIGHT},
        {"max-pending", required_argument, NULL, OPT_MAX_PENDING},
        {"northbound-zmq", required_argument, NULL, OPT_NORTHBOUND_ZMQ},
        {"northbound-endpoint", required_argument, NULL,
         OPT_NORTHBOUND_ENDPOINT},
        {"instances", required_argument, NULL, OPT_INSTANCES},
        FIBSYNC_ZMQ_TCP_LONG_OPTIONS,
        {"zmq-max-pending", required_argument, NULL, OPT_ZMQ_MAX_PENDING},
        {"zmq-frame-routes", required_argument, NULL, OPT_ZMQ_FRAME_ROUTES},
        {"route-read-slice", required_argument, NULL, OPT_ROUTE_READ_SLICE},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        DAEMON_LONG_OPTIONS,
        STREAM_SSL_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    /* Static, so that an option error, which exits from inside the loop,
     * leaves it reachable rather than leaked (LeakSanitizer). */
    static char *short_options;

    options_init(o);
    short_options = ovs_cmdl_long_options_to_short_options(long_options);
    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);

        if (c == -1) {
            break;
        }
        parse_option(c, o);
    }
    free(short_options);
    short_options = NULL;

    if (optind < argc) {
        ovs_fatal(0, "%s: unexpected argument (use --help for help)",
                  argv[optind]);
    }
    options_finish(o);
    char *ssl_error = ssl_options_check("db", o->db_remote);
    if (ssl_error) {
        ovs_fatal(0, "%s", ssl_error);
    }
}

/* Prints the usage text and exits. */
static void
usage(void)
{
    printf("\
%s: FRR zebra's FPM stream into the Fibsync OVSDB database\n\
\n\
SYNOPSIS\n\
  %s [OPTIONS]\n\
\n\
DESCRIPTION\n\
  fpmsyncd listens for FRR zebra's Forwarding Plane Manager connection\n\
  (zebra loaded with -M dplane_fpm_nl and \"fpm address A port P\" in its\n\
  configuration) and writes every route zebra selects into the Fibsync\n\
  database served by ovsdb-server: one Route row per (VRF, prefix), one\n\
  Nexthop_Group row per zebra next-hop object, and a Vrf row for each\n\
  kernel table id without one (254 is VRF \"default\", others\n\
  \"table<N>\").  A Route row carries the protocol (bgp, static, ospf,\n\
  connected, ... or proto-N), the metric, the zebra next-hop group id and\n\
  the resolved next hops, \"GATEWAY@IFNAME\" mapped to the ECMP weight.\n\
  Interface names come from the ifindexes in fpmsyncd's own network\n\
  namespace (\"if<N>\" when unknown): run it where zebra runs.\n\
\n\
  Every row has a UUID derived from its key, so updates and deletes are\n\
  O(1) in ovsdb-server.  Updates to one route coalesce (the last wins; an\n\
  add then a delete of a route not yet written cancels).  fpmsyncd\n\
  flushes at once while fewer than --flush-threshold updates are pending,\n\
  otherwise when a batch of --batch-size is full or --flush-interval ms\n\
  after the last flush, one transaction per flush, with up to\n\
  --max-inflight transactions pipelined.  When the database falls behind\n\
  it stops reading from zebra.  A failed transaction is retried: no\n\
  update is lost.\n\
\n\
  At startup fpmsyncd reads the Route and Nexthop_Group rows it owns, so\n\
  a restart never empties the database.  After a reconnection it reads\n\
  them again only if the database lacks a transaction it saw committed\n\
  (its Write_Mark row says which; a restarted ovsdb-server has them all),\n\
  and otherwise redoes only what was in flight.  When zebra connects it\n\
  replays its table; routes that it does not replay within the reconcile\n\
  timer are deleted, and unchanged routes are not rewritten.  FRR 8.4\n\
  sends no end-of-replay marker;\n\
  \"ovs-appctl fpm/reconcile\" ends the window early.\n\
\n\
  With FIB suppression on (Global:fib_suppression or --fib-suppression),\n\
  fpmsyncd watches Route.status and sends zebra an RTM_NEWROUTE with\n\
  RTM_F_OFFLOAD once a route's status has offload=true.\n\
\n\
  fpmsyncd starts listening for zebra only once it has read the database.\n\
\n\
  With the northbound fast path on (Global:northbound_zmq or\n\
  --northbound-zmq, decided once at start), every route change also goes\n\
  to orchd over ZeroMQ, coalesced per route, in frames of up to 1,000\n\
  routes, and the rows are written behind; fpmsyncd then stops reading\n\
  zebra only while --zmq-max-pending routes wait for orchd or orchd does\n\
  not keep up.  With FIB suppression on, orchd's results drive the\n\
  offload notifications, not Route.status.  orchd has no Route replica\n\
  on that path, so fpmsyncd writes its results into Route.status behind\n\
  them, as orchd does on the OVSDB path: offload=true for a route\n\
  programmed (with FIB suppression on), error=REASON for one that could\n\
  not be (always), by partial map mutates, only when the status changes.\n\
\n\
OPTIONS\n\
  --db=REMOTE            database (default: %s)\n\
  --fpm-addr=ADDR        address to listen on for zebra (default 127.0.0.1)\n\
  --fpm-port=PORT        TCP port to listen on (default %d)\n\
  --unixctl=SOCKET       control socket (default: $FIBSYNC_RUNDIR/\n\
                         fpmsyncd.ctl)\n\
  --batch-size=N         most rows in one transaction (default:\n\
                         Global:batch_size, or %d)\n\
  --reconcile-timer=SECS seconds zebra has to replay its table after it\n\
                         connects (default: Global:reconcile_timer, or\n\
                         %d); 0: reconcile on fpm/reconcile only\n\
  --fib-suppression=on|off  override Global:fib_suppression\n\
  --resolve-nexthops=on|off  whether a route through a zebra next-hop\n\
                         group carries the group's members in\n\
                         Route.nexthops (on, the default) or only the\n\
                         group id in Route.nexthop_group (off: about a\n\
                         quarter less ovsdb-server work per route, and a\n\
                         group change rewrites one row, not every route);\n\
                         overrides Global:other_config:resolve_nexthops\n\
  --flush-threshold=N    flush at once below N pending updates (default %d)\n\
  --flush-interval=MS    otherwise flush at least every MS ms (default %d)\n\
  --max-inflight=N       transactions in flight at once (default %d)\n\
  --max-pending=N        stop reading zebra at N pending updates (default:\n\
                         max(20000, batch size * (max-inflight + 1)))\n\
  --route-read-slice=N   read the Route table at start in selects of N\n\
                         of its 65536 buckets (Route.bucket), 1 to 65536\n\
                         (default %d: eight selects, two at once); fewer\n\
                         buckets hold ovsdb-server's reply smaller, and\n\
                         each select scans the whole table in the server\n\
  --northbound-zmq=on|off  routes to orchd over ZeroMQ; overrides\n\
                         Global:northbound_zmq (default off)\n\
  --instances=N          send routes to the orchd of each of N ASIC\n\
                         instances, 1 to 64 (default 1, or one per\n\
                         --northbound-endpoint): one ZeroMQ channel each,\n\
                         one queue for all; see MULTIPLE ASIC INSTANCES\n\
  --northbound-endpoint=E  orchd's ZeroMQ endpoint (default\n\
                         ipc://$FIBSYNC_RUNDIR/northbound.zmq, and\n\
                         northbound-N.zmq for instance N); give it once\n\
                         per instance, instance 0's first, to name every\n\
                         instance's orchd\n\
  --zmq-tcp[=BASE]       default endpoints on TCP instead:\n\
                         tcp://127.0.0.1:BASE+N for instance N (BASE\n\
                         8100 by default; orchd and syncd take the same\n\
                         option, syncd's ports are BASE+100+N)\n\
  --zmq-max-pending=N    on that path, stop reading zebra at N routes\n\
                         waiting for orchd (default %d)\n\
  --zmq-frame-routes=N   and send orchd at most N routes a frame\n\
                         (default %d)\n\
\n\
  Command-line settings win over the Global table; features/show says\n\
  which value is in force and where it came from.\n\
\n\
MULTIPLE ASIC INSTANCES\n\
  With --instances=N on the northbound fast path, every route change goes\n\
  to the orchd of each instance (orchd --instance=I, bound to\n\
  northbound-I.zmq, northbound.zmq for instance 0): a frame is built once\n\
  and a copy sent on every channel whose orchd has answered.  fpmsyncd\n\
  sends only while every such orchd acknowledges: one stopped, or killed\n\
  and not restarted yet, stops reading zebra for all (nothing is dropped);\n\
  \"fibsync-ctl start\" restarts it.  An orchd that (re)starts gets every\n\
  route again, and so do the others, which find them unchanged and program\n\
  nothing.  Only instance 0's results drive offloads and Route.status; the\n\
  others' are counted in zmq/show.  FIB suppression needs a single\n\
  instance.\n",
           program_name, program_name, fibsync_default_db(),
           FIBSYNC_FPM_PORT, DEFAULT_BATCH_SIZE, DEFAULT_RECONCILE_TIMER,
           DEFAULT_FLUSH_THRESHOLD, DEFAULT_FLUSH_INTERVAL,
           DEFAULT_MAX_INFLIGHT, DEFAULT_ROUTE_READ_SLICE,
           DEFAULT_ZMQ_MAX_PENDING, FPMD_ZMQ_FRAME_ROUTES);
    daemon_usage();
    ssl_options_usage();
    vlog_usage();
    printf("\
\n\
RUNTIME COMMANDS (ovs-appctl -t $FIBSYNC_RUNDIR/fpmsyncd.ctl COMMAND)\n\
  fpm/show               connection, counters, errors by kind, pending and\n\
                         in-flight rows, flush sizes, reconciliation;\n\
                         back-pressure pauses and time paused; for the\n\
                         current (or last) zebra connection, \"fpm\n\
                         session routes: N\" (route messages received)\n\
                         and \"fpm session first|last message: S.USEC\"\n\
                         (wall clock, seconds since the epoch, when the\n\
                         first and the last message was read; \"none\"\n\
                         before any); \"fpm burst routes\" and \"fpm burst\n\
                         first message\" for its last burst, which began\n\
                         with the first message read after 1 s or more\n\
                         without any\n\
  fpm/reconcile          end of replay: delete stale routes now\n\
  features/show          settings in force and where they came from\n\
  zmq/show               the northbound channels (one per instance, each\n\
                         with its frames sent and skipped, its resyncs\n\
                         and, for instances > 0, the results ignored),\n\
                         the queue and stalls, the Route.status writes\n\
                         and the database writer's backlog\n\
  perf/show              PARSE and FLUSH performance timer lines\n\
  coverage/show          event counters\n\
  vlog/set, vlog/list    logging\n\
  exit                   stop fpmsyncd\n\
\n\
OTHER OPTIONS\n\
  -h, --help             display this help message\n\
  -V, --version          display version information\n");
    exit(EXIT_SUCCESS);
}

/* Frees what 'o' holds. */
void
fpmd_options_destroy(struct fpmd_options *o)
{
    free(o->fpm_addr);
    free(o->db_remote);
    free(o->unixctl_path);
    svec_destroy(&o->nb_endpoints);
}
