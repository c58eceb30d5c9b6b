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

/* fpm-replay: an FPM load generator, recorder and replayer.
 *
 * Plays the part of zebra's dplane_fpm_nl (connects to an FPM listener and
 * streams netlink routes in FPM frames), or the part of an FPM server
 * (listens, accepts zebra, and records its stream to a file).  See
 * usage() for the full description.
 *
 * This file parses the command line and runs one mode; fpm-replay.h says
 * where each mode lives. */

#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <linux/rtnetlink.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utilities/fpm-replay.h"
#include "command-line.h"
#include "lib/option-parse.h"
#include "util.h"

/* The settings of the options that are not given. */
static const struct fpm_replay_options default_options = {
    .host = "127.0.0.1",
    .port = "2620",
    .n_routes = 1000,
    .ipv6_pct = 0,
    .fixed_lengths = false,
    .v4_len = 24,
    .v6_len = 64,
    .ecmp = 1,
    .pool = 16,
    .ifindex = 2,
    .nhg = true,
    .table = RT_TABLE_MAIN,
    .protocol = 186,            /* RTPROT_BGP. */
    .metric = 20,
    .frame_size = FPM_FRAME_MAX_LEN,
    .seed = 1,
    .linger = 0.2,
    .verbosity = 1,
};

OVS_NO_RETURN static void usage(void);

/* Command line.
 *
 * Every option is a row of 'option_specs': its name, its argument, and a
 * handler that stores it into the field of struct fpm_replay_options at
 * 'offset' (most handlers are generic, driven by 'offset', 'min' and
 * 'max'). */

struct option_spec;

/* Handles option 'spec' with argument 'arg' (NULL if it takes none). */
typedef void option_handler(const struct option_spec *spec, const char *arg,
                            struct fpm_replay_options *);

/* One command-line option. */
struct option_spec {
    const char *name;           /* Long name, without "--". */
    int short_name;             /* Its one-letter form, or 0 if none. */
    int has_arg;                /* no_argument or required_argument. */
    option_handler *handler;    /* Stores the option. */
    size_t offset;              /* Field of struct fpm_replay_options. */
    unsigned int min, max;      /* Range of a number. */
};

/* The field at 'spec->offset' of 'opts', of whatever type it has. */
#define OPTION_FIELD(TYPE, SPEC, OPTS) \
    ((TYPE *) ((char *) (OPTS) + (SPEC)->offset))

/* An unsigned int in [min, max]. */
static void
parse_uint(const struct option_spec *spec, const char *arg,
           struct fpm_replay_options *opts)
{
    *OPTION_FIELD(unsigned int, spec, opts)
        = option_parse_uint(spec->name, arg, spec->min, spec->max);
}

/* A number of seconds (or of routes per second): a nonnegative double. */
static void
parse_seconds(const struct option_spec *spec, const char *arg,
              struct fpm_replay_options *opts)
{
    double value;

    if (!str_to_double(arg, &value) || value < 0) {
        ovs_fatal(0, "--%s: \"%s\" is not a nonnegative number",
                  spec->name, arg);
    }
    *OPTION_FIELD(double, spec, opts) = value;
}

/* A string, kept as is. */
static void
parse_string(const struct option_spec *spec, const char *arg,
             struct fpm_replay_options *opts)
{
    *OPTION_FIELD(const char *, spec, opts) = arg;
}

/* A flag that the option turns on. */
static void
parse_true(const struct option_spec *spec, const char *arg OVS_UNUSED,
           struct fpm_replay_options *opts)
{
    *OPTION_FIELD(bool, spec, opts) = true;
}

/* A flag that the option turns off. */
static void
parse_false(const struct option_spec *spec, const char *arg OVS_UNUSED,
            struct fpm_replay_options *opts)
{
    *OPTION_FIELD(bool, spec, opts) = false;
}

/* --port: a number in [min, max], kept as a string for getaddrinfo(). */
static void
parse_port(const struct option_spec *spec, const char *arg,
           struct fpm_replay_options *opts)
{
    option_parse_uint(spec->name, arg, spec->min, spec->max);
    parse_string(spec, arg, opts);
}

/* --v4-len and --v6-len: a fixed prefix length, which implies
 * --prefix-mix=fixed. */
static void
parse_fixed_len(const struct option_spec *spec, const char *arg,
                struct fpm_replay_options *opts)
{
    parse_uint(spec, arg, opts);
    opts->fixed_lengths = true;
}

/* --prefix-mix: "fixed" or "realistic". */
static void
parse_prefix_mix(const struct option_spec *spec OVS_UNUSED, const char *arg,
                 struct fpm_replay_options *opts)
{
    if (!strcmp(arg, "fixed")) {
        opts->fixed_lengths = true;
    } else if (!strcmp(arg, "realistic")) {
        opts->fixed_lengths = false;
    } else {
        ovs_fatal(0, "--prefix-mix: expected fixed or realistic");
    }
}

/* --seed: an integer, as strtoull() reads it in base 0. */
static void
parse_seed(const struct option_spec *spec OVS_UNUSED, const char *arg,
           struct fpm_replay_options *opts)
{
    if (!str_to_ullong(arg, 0, &opts->seed)) {
        ovs_fatal(0, "--seed: \"%s\" is not an integer", arg);
    }
}

/* --malformed: one of the kinds that fpm-replay-malformed.c knows. */
static void
parse_malformed(const struct option_spec *spec, const char *arg,
                struct fpm_replay_options *opts)
{
    if (!fpm_replay_malformed_kind_is_valid(arg)) {
        ovs_fatal(0, "--malformed: unknown kind \"%s\" (try --help)", arg);
    }
    parse_string(spec, arg, opts);
}

/* -v: print more. */
static void
parse_verbose(const struct option_spec *spec OVS_UNUSED,
              const char *arg OVS_UNUSED, struct fpm_replay_options *opts)
{
    opts->verbosity++;
}

/* -q: print nothing but errors. */
static void
parse_quiet(const struct option_spec *spec OVS_UNUSED,
            const char *arg OVS_UNUSED, struct fpm_replay_options *opts)
{
    opts->verbosity = 0;
}

/* --help: print the usage and exit. */
static void
parse_help(const struct option_spec *spec OVS_UNUSED,
           const char *arg OVS_UNUSED,
           struct fpm_replay_options *opts OVS_UNUSED)
{
    usage();
}

/* --version: print the version and exit. */
static void
parse_version(const struct option_spec *spec OVS_UNUSED,
              const char *arg OVS_UNUSED,
              struct fpm_replay_options *opts OVS_UNUSED)
{
    printf("%s (fibsync)\n", program_name);
    exit(EXIT_SUCCESS);
}

#define OFS(FIELD) offsetof(struct fpm_replay_options, FIELD)
#define NONE no_argument
#define ARG required_argument

/* Every option, in the order of getopt's messages (an ambiguous
 * abbreviation lists its candidates in this order). */
static const struct option_spec option_specs[] = {
    {"help", 'h', NONE, parse_help, 0, 0, 0},
    {"version", 'V', NONE, parse_version, 0, 0, 0},
    {"verbose", 'v', NONE, parse_verbose, 0, 0, 0},
    {"quiet", 'q', NONE, parse_quiet, 0, 0, 0},
    {"host", 0, ARG, parse_string, OFS(host), 0, 0},
    {"port", 'p', ARG, parse_port, OFS(port), 1, 65535},
    {"routes", 'n', ARG, parse_uint, OFS(n_routes), 0, 50000000},
    {"ipv6", 0, ARG, parse_uint, OFS(ipv6_pct), 0, 100},
    {"prefix-mix", 0, ARG, parse_prefix_mix, 0, 0, 0},
    {"v4-len", 0, ARG, parse_fixed_len, OFS(v4_len), 8, 32},
    {"v6-len", 0, ARG, parse_fixed_len, OFS(v6_len), 17, 128},
    {"ecmp", 0, ARG, parse_uint, OFS(ecmp), 1, 256},
    {"nexthops", 0, ARG, parse_uint, OFS(pool), 1, 60000},
    {"ifindex", 0, ARG, parse_uint, OFS(ifindex), 1, INT32_MAX},
    {"ucmp", 0, NONE, parse_true, OFS(ucmp), 0, 0},
    {"nhg", 0, NONE, parse_true, OFS(nhg), 0, 0},
    {"no-nhg", 0, NONE, parse_false, OFS(nhg), 0, 0},
    {"table", 0, ARG, parse_uint, OFS(table), 1, UINT32_MAX},
    {"protocol", 0, ARG, parse_uint, OFS(protocol), 0, 255},
    {"metric", 0, ARG, parse_uint, OFS(metric), 0, UINT32_MAX},
    {"churn", 0, ARG, parse_uint, OFS(churn), 0, 100000000},
    {"churn-gap", 0, ARG, parse_seconds, OFS(churn_gap), 0, 0},
    {"final", 0, NONE, parse_true, OFS(final), 0, 0},
    {"delete-share", 0, ARG, parse_uint, OFS(delete_pct), 0, 100},
    {"replace-share", 0, ARG, parse_uint, OFS(replace_pct), 0, 100},
    {"standing", 0, NONE, parse_true, OFS(standing), 0, 0},
    {"delete", 0, NONE, parse_true, OFS(delete_only), 0, 0},
    {"then-delete", 0, NONE, parse_true, OFS(then_delete), 0, 0},
    {"frame-size", 0, ARG, parse_uint, OFS(frame_size), 128,
     FPM_FRAME_MAX_LEN},
    {"batch", 0, ARG, parse_uint, OFS(batch), 0, 1000000},
    {"rate", 0, ARG, parse_seconds, OFS(rate), 0, 0},
    {"seed", 0, ARG, parse_seed, 0, 0, 0},
    {"linger", 0, ARG, parse_seconds, OFS(linger), 0, 0},
    {"wait-offload", 0, NONE, parse_true, OFS(wait_offload), 0, 0},
    {"record", 0, ARG, parse_string, OFS(record), 0, 0},
    {"idle", 0, ARG, parse_seconds, OFS(idle), 0, 0},
    {"duration", 0, ARG, parse_seconds, OFS(duration), 0, 0},
    {"replay", 0, ARG, parse_string, OFS(replay), 0, 0},
    {"print", 0, ARG, parse_string, OFS(print), 0, 0},
    {"malformed", 0, ARG, parse_malformed, OFS(malformed), 0, 0},
};

#undef OFS
#undef NONE
#undef ARG

/* getopt_long()'s value for option_specs[i]: its short name, or a value
 * past every character. */
static int
option_value(size_t i)
{
    return option_specs[i].short_name ? option_specs[i].short_name
                                      : UCHAR_MAX + 1 + (int) i;
}

/* Returns getopt_long()'s table for 'option_specs', to free. */
static struct option *
make_long_options(void)
{
    size_t n = ARRAY_SIZE(option_specs);
    struct option *options = xcalloc(n + 1, sizeof *options);

    for (size_t i = 0; i < n; i++) {
        options[i].name = option_specs[i].name;
        options[i].has_arg = option_specs[i].has_arg;
        options[i].val = option_value(i);
    }
    return options;
}

/* Returns the row of 'option_specs' for getopt_long()'s value 'c'. */
static const struct option_spec *
find_option(int c)
{
    for (size_t i = 0; i < ARRAY_SIZE(option_specs); i++) {
        if (option_value(i) == c) {
            return &option_specs[i];
        }
    }
    OVS_NOT_REACHED();
}

/* Checks the options together, once all are known. */
static void
validate_options(const struct fpm_replay_options *opts, int argc,
                 char *argv[])
{
    int n_modes;

    if (optind < argc) {
        ovs_fatal(0, "unexpected argument \"%s\" (try --help)", argv[optind]);
    }
    n_modes = !!opts->record + !!opts->replay + !!opts->print;
    if (n_modes > 1) {
        ovs_fatal(0, "--record, --replay and --print are exclusive");
    }
    if (opts->delete_only && opts->then_delete) {
        ovs_fatal(0, "--delete and --then-delete are exclusive");
    }
    if (opts->final && opts->churn_gap > 0) {
        ovs_fatal(0, "--churn-gap: --final sends no path change to pause in");
    }
    if ((opts->delete_pct || opts->replace_pct) && opts->delete_only) {
        ovs_fatal(0, "--delete-share and --replace-share go with an "
                  "announcement, not with --delete");
    }
    if (opts->delete_pct + opts->replace_pct > 100) {
        ovs_fatal(0, "--delete-share and --replace-share add up to more "
                  "than 100%%");
    }
    if (opts->ecmp > opts->pool) {
        ovs_fatal(0, "--ecmp %u needs --nexthops of at least %u",
                  opts->ecmp, opts->ecmp);
    }
}

/* Parses the command line into 'opts'.  Exits on a bad option, and after
 * --help or --version. */
static void
parse_options(int argc, char *argv[], struct fpm_replay_options *opts)
{
    /* Static, so that an option error, which exits from inside the loop,
     * leaves them reachable rather than leaked (LeakSanitizer). */
    static struct option *long_options;
    static char *short_options;

    long_options = make_long_options();
    short_options = ovs_cmdl_long_options_to_short_options(long_options);

    *opts = default_options;
    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        } else if (c == '?') {
            exit(EXIT_FAILURE);
        }

        const struct option_spec *spec = find_option(c);
        spec->handler(spec, optarg, opts);
    }
    free(short_options);
    free(long_options);

    validate_options(opts, argc, argv);
}

int
main(int argc, char *argv[])
{
    struct fpm_replay_options opts;

    set_program_name(argv[0]);
    parse_options(argc, argv, &opts);
    fpm_replay_install_signal_handlers();
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (opts.print) {
        return fpm_replay_print(&opts);
    } else if (opts.record) {
        return fpm_replay_record(&opts);
    } else if (opts.replay) {
        return fpm_replay_replay(&opts);
    } else {
        return fpm_replay_generate(&opts);
    }
}

static void
usage(void)
{
    printf("\
%s: FPM load generator, recorder and replayer\n\
\n\
SYNOPSIS\n\
  fpm-replay [OPTIONS]                  generate routes to a listener\n\
  fpm-replay --record FILE [OPTIONS]    record zebra's stream\n\
  fpm-replay --replay FILE [OPTIONS]    send a recorded stream\n\
  fpm-replay --print FILE [-q | -v]     decode a recorded stream\n\
\n\
DESCRIPTION\n\
  fpm-replay speaks FPM (the Forwarding Plane Manager protocol of FRR's\n\
  zebra dplane_fpm_nl module): a TCP stream of frames, each a 4-byte\n\
  header {version 1, type 1 = netlink, 16-bit big-endian length including\n\
  the header} followed by netlink RTM_NEWROUTE/RTM_DELROUTE and\n\
  RTM_NEWNEXTHOP/RTM_DELNEXTHOP messages.\n\
\n\
  By default it acts as zebra: it connects to an FPM listener (such as\n\
  fibsync's fpmsyncd) and sends a deterministic set of synthetic routes,\n\
  batching as many netlink messages per frame as fit, then prints one\n\
  summary line: routes, messages, frames, bytes, seconds and routes/s\n\
  (time from the connection to the last byte written), plus the replies\n\
  that the listener sent back.  Replies (offload notifications, RTM_NEWROUTE\n\
  with RTM_F_OFFLOAD, RTM_F_TRAP or RTM_F_OFFLOAD_FAILED) are read and\n\
  counted all along, so the listener never blocks on a full socket.\n\
\n\
  With --record it acts as an FPM server instead: it listens, accepts one\n\
  connection (zebra's: put \"fpm address 127.0.0.1 port 2620\" in\n\
  zebra.conf and load zebra with -M dplane_fpm_nl) and saves every complete\n\
  frame, byte for byte, to FILE.  --replay sends such a file to a listener\n\
  as zebra would; --print decodes it, one line per message.\n\
\n\
CONNECTION\n\
  --host HOST          address to connect to, or to listen on with\n\
                       --record (default 127.0.0.1)\n\
  -p, --port PORT      TCP port (default 2620, zebra's FPM port)\n\
  --linger SECS        after the last frame, keep the connection open and\n\
                       read replies for SECS seconds (default 0.2); then\n\
                       half-close and wait for the listener to close,\n\
                       giving up once 2 s pass in which it neither takes\n\
                       in more of the stream nor replies\n\
  --wait-offload       stop lingering as soon as there is one reply per\n\
                       route announced\n\
\n\
ROUTE SET (generate mode)\n\
  -n, --routes N       number of routes (default 1000)\n\
  --ipv6 PCT           percentage of IPv6 routes (default 0)\n\
  --prefix-mix MIX     \"realistic\" (default): IPv4 mostly /24 (58%%),\n\
                       /16-/29 for the rest; IPv6 mostly /48 (44%%) and\n\
                       /64 (18%%), /29-/60 for the rest.  \"fixed\": every\n\
                       IPv4 route /24 and every IPv6 route /64\n\
  --v4-len LEN         fixed IPv4 prefix length (implies fixed)\n\
  --v6-len LEN         fixed IPv6 prefix length (implies fixed)\n\
                       Prefixes are unique: IPv4 ones are taken in order\n\
                       from 1.0.0.0 up, IPv6 ones from 2400::/16.\n\
  --ecmp W             paths per route (default 1)\n\
  --nexthops P         gateways per family (default 16): 192.168.1.2 and\n\
                       up, 2001:db8:ffff::2 and up; each route uses W\n\
                       consecutive ones starting at a random one\n\
  --ifindex I          outgoing interface index of every path (default 2)\n\
  --ucmp               unequal weights: path i weighs 1 + i %% 4\n\
  --nhg                use next-hop groups, as zebra does by default: one\n\
                       RTM_NEWNEXTHOP per gateway, one per group (family\n\
                       0, NHA_GROUP), and routes with only RTA_NH_ID\n\
                       (default)\n\
  --no-nhg             inline nexthops instead: RTA_GATEWAY + RTA_OIF, or\n\
                       RTA_MULTIPATH for ECMP (zebra with\n\
                       \"no fpm use-next-hop-groups\")\n\
  --table T            table id; 254 is the default VRF (default 254)\n\
  --protocol P         rtm_protocol (default 186, BGP)\n\
  --metric M           RTA_PRIORITY (default 20)\n\
  --seed S             random seed (default 1); the same seed and options\n\
                       give the same routes\n\
\n\
WHAT TO SEND (generate mode)\n\
  (default)            announce the routes\n\
  --churn N            then N path changes on random routes, each an\n\
                       RTM_DELROUTE followed by an RTM_NEWROUTE with\n\
                       another set of gateways, in one frame of their\n\
                       own, as zebra sends them\n\
  --churn-gap SECONDS  send each path change's RTM_DELROUTE and wait this\n\
                       long before its RTM_NEWROUTE, in another frame\n\
                       (default 0: one frame), as a sender that splits\n\
                       them would: fpmsyncd waits for such an add\n\
  --final              send the table as --churn leaves it instead: each\n\
                       route once, with the gateways of its last path\n\
                       change, and no path change, as zebra replays its\n\
                       table when the FPM connection comes back (same\n\
                       options and seed as the load it stands for)\n\
  --delete-share PCT   while announcing, withdraw PCT%% of the routes\n\
                       already announced, each at a random point of the\n\
                       load (default 0); churn skips a withdrawn route,\n\
                       and --final sends the set as they leave it\n\
  --replace-share PCT  while announcing, replace PCT%% of the routes\n\
                       already announced: one RTM_NEWROUTE with\n\
                       NLM_F_REPLACE and another set of gateways, no\n\
                       RTM_DELROUTE before it (default 0)\n\
  --standing           send nothing: print how many routes the load that\n\
                       the other options describe leaves standing (its\n\
                       routes less those --delete-share withdraws), for\n\
                       a test that checks the FIB's size\n\
  --delete             withdraw the routes (and, with --nhg, the groups\n\
                       and gateways) that the same options and seed\n\
                       announce, without announcing them\n\
  --then-delete        announce (and churn), then withdraw everything\n\
  --malformed KIND     finally, send one bad frame for receivers' tests:\n\
      version, type, short   a frame header with version 2, type 2\n\
                       (protobuf), or length 2: the listener should close\n\
                       the connection\n\
      partial          a header announcing 100 bytes more than follow,\n\
                       then the end of the stream\n\
      empty            a valid header-only frame (no message)\n\
      truncated, attr-len, prefix-len, host-bits, multipath, group\n\
                       a good frame holding routes 192.0.2.0/25 and\n\
                       192.0.2.128/25 and one bad message: shorter than\n\
                       its rtmsg; an attribute running past the message;\n\
                       198.51.100.0/33; 198.51.100.1/24; an RTA_MULTIPATH\n\
                       entry with rtnh_len 0; an NHA_GROUP of 6 bytes\n\
      nlmsg-len        the same two routes, then a message whose\n\
                       nlmsg_len runs past the frame\n\
      unknown          the same two routes and an RTM_NEWLINK, which a\n\
                       listener should skip\n\
                       Use -n 0 to send only the malformed frame.\n\
\n\
PACING AND BATCHING\n\
  --frame-size BYTES   largest frame, header included (default 65535)\n\
  --batch N            at most N netlink messages per frame (default: as\n\
                       many as fit)\n\
  --rate N             at most N routes per second (default: as fast as\n\
                       possible); with --replay, N routes per second\n\
                       counted from the frames' contents\n\
\n\
RECORDING\n\
  --record FILE        listen on --host and --port, accept one\n\
                       connection and save its frames to FILE, until the\n\
                       peer closes, SIGINT or SIGTERM, or:\n\
  --idle SECS          SECS seconds without data once data has arrived\n\
  --duration SECS      SECS seconds in all\n\
\n\
OTHER\n\
  -v, --verbose        print more (-vv: every reply or recorded message)\n\
  -q, --quiet          print nothing but errors\n\
  -h, --help           print this help\n\
  -V, --version        print the version\n\
\n\
EXAMPLES\n\
  Load test, 1M routes, 20%% IPv6, 4-way ECMP over groups:\n\
      fpm-replay -n 1000000 --ipv6 20 --ecmp 4 --nexthops 32\n\
  Withdraw them again:\n\
      fpm-replay -n 1000000 --ipv6 20 --ecmp 4 --nexthops 32 --delete\n\
  Capture zebra inside namespace fpmtest, stop after 5 idle seconds:\n\
      ip netns exec fpmtest fpm-replay --record zebra.fpm --idle 5\n\
  Look at it, then send it to fpmsyncd:\n\
      fpm-replay --print zebra.fpm\n\
      fpm-replay --replay zebra.fpm --port 2620\n\
\n\
EXIT STATUS\n\
  0 on success; 1 if the connection failed (other than the close that a\n\
  bad frame header should cause), or if a recorded stream or file had a\n\
  bad frame header or a partial frame.\n",
           program_name);
    exit(EXIT_SUCCESS);
}
