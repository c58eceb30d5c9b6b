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

/* syncd-options: syncd's command line, parsed into "struct syncd_options"
 * (see syncd-options.h), and its --help text. */

#include <config.h>

#include "daemons/syncd/syncd-options.h"

#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "daemon.h"
#include "lib/fibsync-instance.h"
#include "lib/fibsync-paths.h"
#include "lib/option-parse.h"
#include "lib/ssl-options.h"
#include "lib/zmq-channel.h"
#include "openvswitch/vlog.h"
#include "stream-ssl.h"
#include "util.h"

OVS_NO_RETURN static void usage(void);
static void usage_commands(void);

/* Makes the file name of a "unix:" or "punix:" remote absolute, relative
 * to the current directory (OVS would take it relative to its run
 * directory). */
static char *
abs_unix_remote(const char *remote)
{
    const char *colon = strchr(remote, ':');

    if (colon && colon[1] != '/'
        && (!strncmp(remote, "unix:", 5) || !strncmp(remote, "punix:", 6))) {
        char *cwd = get_cwd();
        char *s = xasprintf("%.*s%s/%s", (int) (colon - remote + 1), remote,
                            cwd ? cwd : ".", colon + 1);
        free(cwd);
        return s;
    }
    return xstrdup(remote);
}

/* Codes of the long options that have no short one. */
enum {
    OPT_DB = UCHAR_MAX + 1,
    OPT_UNIXCTL,
    OPT_CAP_IPV4,
    OPT_CAP_IPV6,
    OPT_CAP_NH,
    OPT_CAP_NHG,
    OPT_CAP_NHGM,
    OPT_PORTS,
    OPT_FAULT_RATE,
    OPT_FAULT_SEED,
    OPT_FAULT_DELAY,
    OPT_FAULT_PREFIX,
    OPT_WB_BATCH,
    OPT_WB_INFLIGHT,
    OPT_DB_READ_SLICE,
    OPT_BATCH,
    OPT_NO_WRITE_BACK,
    OPT_COUNTERS_INTERVAL,
    OPT_SOUTHBOUND_ZMQ,
    OPT_SOUTHBOUND_ENDPOINT,
    OPT_WARM_FILE,
    OPT_INSTANCE,
    FIBSYNC_ZMQ_TCP_OPTION_ENUMS,
    VLOG_OPTION_ENUMS,
    DAEMON_OPTION_ENUMS,
    SSL_OPTION_ENUMS,
};

static const struct option long_options[] = {
    {"db", required_argument, NULL, OPT_DB},
    {"unixctl", required_argument, NULL, OPT_UNIXCTL},
    {"max-bulk", required_argument, NULL, 'k'},
    {"capacity-ipv4-routes", required_argument, NULL, OPT_CAP_IPV4},
    {"capacity-ipv6-routes", required_argument, NULL, OPT_CAP_IPV6},
    {"capacity-nexthops", required_argument, NULL, OPT_CAP_NH},
    {"capacity-nexthop-groups", required_argument, NULL, OPT_CAP_NHG},
    {"capacity-nexthop-group-members", required_argument, NULL,
     OPT_CAP_NHGM},
    {"ports", required_argument, NULL, OPT_PORTS},
    {"fault-rate", required_argument, NULL, OPT_FAULT_RATE},
    {"fault-seed", required_argument, NULL, OPT_FAULT_SEED},
    {"fault-delay", required_argument, NULL, OPT_FAULT_DELAY},
    {"fault-prefix", required_argument, NULL, OPT_FAULT_PREFIX},
    {"write-back-batch", required_argument, NULL, OPT_WB_BATCH},
    {"write-back-inflight", required_argument, NULL, OPT_WB_INFLIGHT},
    {"db-read-slice", required_argument, NULL, OPT_DB_READ_SLICE},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"no-write-back", no_argument, NULL, OPT_NO_WRITE_BACK},
    {"counters-interval", required_argument, NULL,
     OPT_COUNTERS_INTERVAL},
    {"southbound-zmq", required_argument, NULL, OPT_SOUTHBOUND_ZMQ},
    {"southbound-endpoint", required_argument, NULL,
     OPT_SOUTHBOUND_ENDPOINT},
    {"warm-file", required_argument, NULL, OPT_WARM_FILE},
    {"instance", required_argument, NULL, OPT_INSTANCE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    FIBSYNC_ZMQ_TCP_LONG_OPTIONS,
    VLOG_LONG_OPTIONS,
    DAEMON_LONG_OPTIONS,
    STREAM_SSL_LONG_OPTIONS,
    {NULL, 0, NULL, 0},
};

/* An option whose value is a number, stored as is in a member of
 * 'struct syncd_options'. */
struct uint_option {
    int code;                   /* Its code in 'long_options'. */
    const char *name;           /* Its long name, for error messages. */
    unsigned long long int min; /* Smallest value accepted. */
    unsigned long long int max; /* Largest value accepted. */
    size_t offset;              /* Offset of the member. */
    size_t size;                /* Size of the member: 4 or 8 bytes. */
};

#define UINT_OPTION(CODE, NAME, MIN, MAX, MEMBER)                   \
    { CODE, NAME, MIN, MAX, offsetof(struct syncd_options, MEMBER), \
      sizeof ((struct syncd_options *) NULL)->MEMBER }

static const struct uint_option uint_options[] = {
    UINT_OPTION('k', "max-bulk", 1, 1000000, apply.max_bulk),
    UINT_OPTION(OPT_CAP_IPV4, "capacity-ipv4-routes", 1,
                ASIC_SIM_MAX_ROUTES,
                apply.capacity[ASIC_SIM_RES_IPV4_ROUTE]),
    UINT_OPTION(OPT_CAP_IPV6, "capacity-ipv6-routes", 1,
                ASIC_SIM_MAX_ROUTES,
                apply.capacity[ASIC_SIM_RES_IPV6_ROUTE]),
    UINT_OPTION(OPT_CAP_NH, "capacity-nexthops", 1, ASIC_SIM_MAX_ROUTES,
                apply.capacity[ASIC_SIM_RES_NEXT_HOP]),
    UINT_OPTION(OPT_CAP_NHG, "capacity-nexthop-groups", 1,
                ASIC_SIM_MAX_ROUTES,
                apply.capacity[ASIC_SIM_RES_NEXT_HOP_GROUP]),
    UINT_OPTION(OPT_CAP_NHGM, "capacity-nexthop-group-members", 1,
                ASIC_SIM_MAX_ROUTES,
                apply.capacity[ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER]),
    UINT_OPTION(OPT_PORTS, "ports", 1, 4096, apply.n_ports),
    UINT_OPTION(OPT_FAULT_SEED, "fault-seed", 0, UINT64_MAX, fault.seed),
    UINT_OPTION(OPT_FAULT_DELAY, "fault-delay", 0, 10000000,
                fault.delay_usec),
    UINT_OPTION(OPT_WB_BATCH, "write-back-batch", 1, 1000000,
                dbo.wb_batch),
    UINT_OPTION(OPT_WB_INFLIGHT, "write-back-inflight", 1, 1024,
                dbo.wb_inflight),
    UINT_OPTION(OPT_DB_READ_SLICE, "db-read-slice", 1, INT32_MAX,
                dbo.read_slice),
    UINT_OPTION(OPT_BATCH, "batch", 1, 10000000, dbo.budget),
    UINT_OPTION(OPT_COUNTERS_INTERVAL, "counters-interval", 0, 3600000,
                co.interval_msec),
};

/* If 'c' is one of 'uint_options', parses its value 'arg' into 's' (or
 * exits with an error) and returns true; otherwise returns false. */
static bool
parse_uint_option(int c, const char *arg, struct syncd_options *s)
{
    for (size_t i = 0; i < ARRAY_SIZE(uint_options); i++) {
        const struct uint_option *o = &uint_options[i];

        if (o->code == c) {
            unsigned long long int value = option_parse_uint(o->name, arg,
                                                             o->min, o->max);
            void *member = (char *) s + o->offset;

            if (o->size == sizeof(uint64_t)) {
                uint64_t v = value;
                memcpy(member, &v, sizeof v);
            } else {
                uint32_t v = value;

                ovs_assert(o->size == sizeof v);
                memcpy(member, &v, sizeof v);
            }
            return true;
        }
    }
    return false;
}

/* Returns the value of --fault-rate=ARG, or exits with an error. */
static double
parse_fault_rate(const char *arg)
{
    char *end;
    double rate = strtod(arg, &end);

    if (*end || end == arg || !(rate >= 0 && rate <= 1)) {
        ovs_fatal(0, "--fault-rate: \"%s\" is not a fraction between 0 and 1",
                  arg);
    }
    return rate;
}

/* Returns the default control socket of ASIC instance 'instance',
 * absolute. */
static char *
default_unixctl(int instance)
{
    char *path = fibsync_instance_ctl_path("syncd", instance);

    if (path[0] != '/') {
        char *cwd = get_cwd();
        char *abs = xasprintf("%s/%s", cwd ? cwd : ".", path);

        free(cwd);
        free(path);
        return abs;
    }
    return path;
}

/* Completes 's', whose options are parsed, with what follows from them
 * and the defaults: the database remote 'db' (or NULL for the default),
 * the control socket 'unixctl' (taken; NULL for the default), the warm
 * file.  Exits if the database remote's SSL options are wrong. */
static void
options_finish(struct syncd_options *s, const char *db, char *unixctl)
{
    if (s->apply.max_bulk) {
        setting_set_cmdline(&s->max_bulk, s->apply.max_bulk);
    }
    s->db = abs_unix_remote(db ? db : fibsync_default_db());
    s->unixctl = unixctl ? unixctl : default_unixctl(s->instance);
    s->dbo.instance = s->instance;
    if (s->instance) {
        /* Route.counters is one per route: instance 0 writes it. */
        s->co.interval_msec = 0;
    }
    if (!s->warm_file) {
        char *name = fibsync_instance_name("syncd", s->instance);

        s->warm_file = xasprintf("%s/%s.warm", fibsync_rundir(), name);
        free(name);
    }
    char *ssl_error = ssl_options_check("db", s->db);
    if (ssl_error) {
        ovs_fatal(0, "%s", ssl_error);
    }
}

/* Parses the command line into 's', or exits (with --help, --version or
 * an error). */
void
syncd_options_parse(int argc, char *argv[], struct syncd_options *s)
{
    /* Static, so that an option error, which exits from inside the loop,
     * leaves it reachable rather than leaked (LeakSanitizer). */
    static char *short_options;
    const char *db = NULL;
    char *unixctl = NULL;

    memset(s, 0, sizeof *s);
    s->co.interval_msec = SYNCD_COUNTERS_DEFAULT_INTERVAL;
    setting_init(&s->max_bulk, "max_bulk_size", SYNCD_APPLY_DEFAULT_MAX_BULK);
    setting_init(&s->southbound_zmq, "southbound_zmq", 0);
    short_options = ovs_cmdl_long_options_to_short_options(long_options);
    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);

        if (c == -1) {
            break;
        } else if (parse_uint_option(c, optarg, s)) {
            continue;
        }
        switch (c) {
        case OPT_DB:
            db = optarg;
            break;
        case OPT_UNIXCTL:
            free(unixctl);
            unixctl = xstrdup(optarg);
            break;
        case OPT_FAULT_RATE:
            s->fault.rate = parse_fault_rate(optarg);
            break;
        case OPT_FAULT_PREFIX:
            s->fault_prefixes = xrealloc(s->fault_prefixes,
                                         (s->n_fault_prefixes + 1)
                                         * sizeof *s->fault_prefixes);
            s->fault_prefixes[s->n_fault_prefixes++] = xstrdup(optarg);
            break;
        case OPT_NO_WRITE_BACK:
            s->dbo.no_write_back = true;
            break;
        case OPT_SOUTHBOUND_ZMQ:
            setting_set_cmdline(&s->southbound_zmq,
                                option_parse_on_off("southbound-zmq",
                                                    optarg));
            break;
        case OPT_SOUTHBOUND_ENDPOINT:
            free(s->southbound_endpoint);
            s->southbound_endpoint = xstrdup(optarg);
            break;
        case OPT_WARM_FILE:
            free(s->warm_file);
            s->warm_file = xstrdup(optarg);
            break;
        case OPT_INSTANCE:
            s->instance = fibsync_instance_parse("instance", optarg);
            break;
        case 'h':
            usage();
        case 'V':
            printf("%s (fibsync) 0.1.0\n", program_name);
            exit(EXIT_SUCCESS);

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
    options_finish(s, db, unixctl);
}

/* Prints the help of --help, and exits. */
static void
usage(void)
{
    printf("\
%s: program a simulated switch ASIC from OVSDB Asic_Route rows\n\
usage: %s [OPTIONS]\n\
\n\
syncd monitors the Asic_Route table of the Fibsync database (columns vrf,\n\
prefix, packet_action, nexthops and seq), programs each row into an\n\
in-process asic-sim switch through SAI bulk route calls, and writes the\n\
outcome back into the row: state \"programmed\" or \"error\", error (the\n\
SAI status name, e.g. SAI_STATUS_INSUFFICIENT_RESOURCES, or why the row\n\
is unusable) and applied_seq (the seq it applied).  Virtual routers,\n\
router interfaces, next hops and next-hop groups are created on demand;\n\
next hops and groups are shared between routes and removed when unused.\n\
On start, syncd rebuilds the switch from the table's contents.  On the\n\
southbound fast path (below), orchd sends the routes and gets the outcomes\n\
over ZeroMQ instead, and writes Asic_Route itself.\n\
\n\
Database:\n\
  --db=REMOTE             database remote (default: %s)\n\
  --batch=N               row changes processed per main-loop pass\n\
                          (default 20000)\n\
  --write-back-batch=N    rows per write-back transaction (default 5000)\n\
  --write-back-inflight=N write-back transactions outstanding (default 2)\n\
  --db-read-slice=N       on the OVSDB path, read Asic_Route at start (and\n\
                          after the database comes back) in selects of N\n\
                          seq values each (default 400000): fewer rows\n\
                          per select hold ovsdb-server's memory lower,\n\
                          each select costs it a scan of the table\n\
  --no-write-back         never write outcomes back (breaks the contract\n\
                          with orchd: only to measure write-back's cost)\n\
  --counters-interval=MS  write the hit counters of routes hit since the\n\
                          last write into Route.counters every MS\n\
                          milliseconds (default %d; 0 disables; always\n\
                          0 for --instance=N > 0: instance 0 writes them)\n\
\n\
ASIC instance (several ASICs on one host, docs/RELIABILITY.md):\n\
  --instance=N            program ASIC instance N, 0 to 63 (default 0):\n\
                          only the Asic_Route rows whose instance is N;\n\
                          N > 0 defaults to syncd-N.ctl and\n\
                          southbound-N.zmq\n\
\n\
Southbound fast path (orchd -> syncd over ZeroMQ, instead of Asic_Route):\n\
  --southbound-zmq=on|off take routes from orchd over ZeroMQ and answer\n\
                          there, never reading or writing Asic_Route\n\
                          (default: Global.southbound_zmq, else off)\n\
  --southbound-endpoint=E endpoint to bind (default\n\
                          ipc://$FIBSYNC_RUNDIR/southbound.zmq, or\n\
                          southbound-N.zmq for --instance=N)\n\
\n\
Switch:\n\
  -k, --max-bulk=N        route entries per SAI bulk call (default %d)\n\
  --capacity-ipv4-routes=N           capacities (defaults: %d IPv4 and\n\
  --capacity-ipv6-routes=N           %d IPv6 routes, %d next hops,\n\
  --capacity-nexthops=N              %d groups and %d group members)\n\
  --capacity-nexthop-groups=N\n\
  --capacity-nexthop-group-members=N\n\
  --ports=N               front-panel ports (default %d)\n\
\n\
Warm restart:\n\
  --warm-file=FILE        where \"exit --warm\" saves the simulator's\n\
                          routes, and where a start looks for them\n\
                          (default $FIBSYNC_RUNDIR/syncd.warm, or\n\
                          syncd-N.warm for --instance=N).  A start\n\
                          that finds the file programs its routes before\n\
                          any input, deletes it, and then reconciles:\n\
                          routes orchd (fast path) or Asic_Route (OVSDB\n\
                          path) confirm unchanged cost no SAI call, the\n\
                          others are removed.  A damaged file is refused\n\
                          whole (cold start).\n\
\n\
Fault injection at start (see also asic/fault below):\n\
  --fault-rate=FRACTION   fail this fraction of route operations\n\
  --fault-seed=N          seed of the fault generator (default 0)\n\
  --fault-delay=USEC      programming delay per route operation\n\
  --fault-prefix=[VRF,]PREFIX  fail every operation on PREFIX (in VRF,\n\
                          default \"default\"); may be repeated\n\
\n",
           program_name, program_name, fibsync_default_db(),
           SYNCD_COUNTERS_DEFAULT_INTERVAL,
           SYNCD_APPLY_DEFAULT_MAX_BULK, ASIC_SIM_DEFAULT_IPV4_ROUTES,
           ASIC_SIM_DEFAULT_IPV6_ROUTES, ASIC_SIM_DEFAULT_NEXT_HOPS,
           ASIC_SIM_DEFAULT_NEXT_HOP_GROUPS,
           ASIC_SIM_DEFAULT_NEXT_HOP_GROUP_MEMBERS, ASIC_SIM_DEFAULT_PORTS);
    usage_commands();
    fibsync_instance_zmq_tcp_usage();
    daemon_usage();
    ssl_options_usage();
    vlog_usage();
    printf("\n\
Environment:\n\
  FIBSYNC_RUNDIR          run directory of the stack (default ./_run)\n");
    exit(EXIT_SUCCESS);
}

/* Prints the runtime commands and the other options, the part of usage()
 * after the options of syncd's own. */
static void
usage_commands(void)
{
    printf("\
Runtime commands (ovs-appctl -t SOCKET COMMAND):\n\
  asic/lookup ADDRESS [vrf NAME]  longest-prefix match: prefix, action,\n\
                          next hops with weights, hit counter\n\
  asic/dump [json | file PATH]  every route of every VRF; \"file\"\n\
                          writes the text lines to PATH (absolute)\n\
  crm/show                used/available/capacity of each resource\n\
  asic/fault rate FRACTION [SEED] | prefix add|del VRF PREFIX |\n\
             delay USEC | clear | show\n\
  asic/stats              operations, bulks, errors, rates, write-back,\n\
                          hit counters, southbound path; \"last route\n\
                          programmed: S.USEC\" is the wall clock (seconds\n\
                          since the epoch) when the last bulk that changed\n\
                          the FIB returned\n\
  zmq/show                the southbound channel and its counters\n\
  perf/show [BULK]        performance-timer lines of the bulk apply stage\n\
  warm/show               what the warm start restored, and the SAI route\n\
                          calls made since\n\
  exit [--warm]           exit; with --warm, first program what is queued\n\
                          and save the routes to the warm file\n\
  coverage/show, memory/show, vlog/set ...\n\
\n\
Other options:\n\
  --unixctl=SOCKET        control socket (default: %s,\n\
                          syncd-N.ctl for --instance=N)\n\
  -h, --help              display this help message\n\
  -V, --version           display version information\n",
           "$FIBSYNC_RUNDIR/syncd.ctl");
}

/* Frees what syncd_options_parse() allocated in 's'. */
void
syncd_options_destroy(struct syncd_options *s)
{
    free(s->db);
    free(s->unixctl);
    free(s->southbound_endpoint);
    free(s->warm_file);
    for (size_t i = 0; i < s->n_fault_prefixes; i++) {
        free(s->fault_prefixes[i]);
    }
    free(s->fault_prefixes);
}
