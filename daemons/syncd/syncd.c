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

/* syncd: programs the asic-sim simulated switch from OVSDB Asic_Route rows
 * and writes each route's outcome back, or, on the southbound fast path,
 * from orchd's frames over ZeroMQ.  See usage() for the interface,
 * daemons/syncd/syncd-db.h for the OVSDB path, daemons/syncd/syncd-zmq.h for the fast
 * path and daemons/syncd/syncd-apply.h for the apply step. */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-counters.h"
#include "daemons/syncd/syncd-db.h"
#include "daemons/syncd/syncd-warm.h"
#include "daemons/syncd/syncd-zmq.h"
#include "command-line.h"
#include "coverage.h"
#include "daemon.h"
#include "fatal-signal.h"
#include "lib/fib-prefix.h"
#include "lib/fibsync-instance.h"
#include "lib/fibsync-paths.h"
#include "lib/option-parse.h"
#include "lib/ssl-options.h"
#include "lib/perf-timer.h"
#include "lib/setting.h"
#include "lib/zmq-channel.h"
#include "memory.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "stream-ssl.h"
#include "openvswitch/vlog.h"
#include "simap.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd);

/* Command-line settings. */
struct syncd_settings {
    char *db;                   /* --db. */
    char *unixctl;              /* --unixctl. */
    struct syncd_apply_options apply; /* Capacities, ports, bulk size. */
    struct syncd_db_options dbo;      /* Write-back batching. */
    struct syncd_counters_options co; /* Hit counters to Route.counters. */
    struct asic_sim_fault fault;      /* --fault-rate/-seed/-delay. */
    struct setting max_bulk;    /* -k, or Global.max_bulk_size. */
    struct setting southbound_zmq; /* --southbound-zmq, or
                                    * Global.southbound_zmq. */
    char *southbound_endpoint;  /* --southbound-endpoint, or NULL. */
    char *warm_file;            /* --warm-file. */
    int instance;               /* --instance: the ASIC instance. */
    char **fault_prefixes;      /* --fault-prefix values. */
    size_t n_fault_prefixes;    /* Number of 'fault_prefixes'. */
};

/* One sample of the counters, for rates. */
struct rate_sample {
    long long int msec;         /* When. */
    uint64_t results;           /* Route operations completed. */
    uint64_t wb_acked;          /* Rows written back. */
};

#define N_SAMPLES 11            /* 10 s of one-second samples. */

/* The daemon. */
struct syncd {
    struct syncd_apply *apply;  /* The apply step and its switch. */
    struct syncd_db *db;        /* The OVSDB path, or only Global. */
    struct syncd_zmq *zmq;      /* The southbound fast path, or NULL. */
    bool path_chosen;           /* Is it known which path programs? */
    const struct setting *southbound_zmq; /* What chose it, and whence. */
    struct syncd_counters *counters; /* Hit counters to Route.counters. */
    struct perf_timer *timer;   /* "BULK" stage. */
    const struct setting *max_bulk; /* Bulk size in force, and whence. */
    bool exiting;               /* "exit" received? */
    const char *warm_file;      /* Where "exit --warm" saves. */
    struct syncd_warm_start warm; /* What the warm start did. */
    bool warm_sweep;            /* OVSDB path: sweep the restored routes
                                 * Asic_Route did not confirm, once its
                                 * contents are in? */
    long long int start_msec;   /* When the daemon started. */
    struct rate_sample samples[N_SAMPLES]; /* Ring of samples. */
    size_t n_samples;           /* Samples taken so far. */
    long long int next_sample;  /* When to take the next (msec). */
    double peak_rate;           /* Best one-second route rate seen. */
};

OVS_NO_RETURN static void usage(void);
static void parse_options(int argc, char *argv[], struct syncd_settings *);
static void settings_destroy(struct syncd_settings *);
static void register_commands(struct syncd *);
static char *abs_unix_remote(const char *remote);

/* ---- Rates -------------------------------------------------------------- */

static void
take_sample(const struct syncd *d, struct rate_sample *s)
{
    struct syncd_apply_stats as;
    struct syncd_db_stats ds;

    syncd_apply_get_stats(d->apply, &as);
    syncd_db_get_stats(d->db, &ds);
    s->msec = time_msec();
    s->results = as.ok + as.failed;
    s->wb_acked = ds.wb_acked;
}

/* Takes a sample of the counters every second. */
static void
rates_run(struct syncd *d)
{
    long long int now = time_msec();

    if (now < d->next_sample) {
        return;
    }
    struct rate_sample *s = &d->samples[d->n_samples % N_SAMPLES];
    take_sample(d, s);
    if (d->n_samples) {
        const struct rate_sample *p
            = &d->samples[(d->n_samples - 1) % N_SAMPLES];
        double secs = (s->msec - p->msec) / 1000.0;

        if (secs > 0) {
            d->peak_rate = MAX(d->peak_rate,
                               (s->results - p->results) / secs);
        }
    }
    d->n_samples++;
    d->next_sample = now + 1000;
}

/* Stores in '*ops' and '*wb' the route and write-back rates, per second,
 * over the last 'secs' seconds of samples (as far as they go). */
static void
rates_get(const struct syncd *d, int secs, double *ops, double *wb)
{
    struct rate_sample now;

    *ops = *wb = 0;
    if (!d->n_samples) {
        return;
    }
    take_sample(d, &now);
    size_t back = MIN((size_t) secs, MIN(d->n_samples - 1, N_SAMPLES - 1));
    const struct rate_sample *then
        = &d->samples[(d->n_samples - 1 - back) % N_SAMPLES];
    double t = (now.msec - then->msec) / 1000.0;
    if (t > 0) {
        *ops = (now.results - then->results) / t;
        *wb = (now.wb_acked - then->wb_acked) / t;
    }
}

/* ---- The path ----------------------------------------------------------- */

/* Starts the path that programs the routes once it is known: at once if
 * the command line says, else when the database first says what
 * Global.southbound_zmq is; until then 'd->db' follows Global only.  The
 * path is kept until syncd restarts. */
static void
path_run(struct syncd *d, struct syncd_settings *s)
{
    if (d->path_chosen
        || (!s->southbound_zmq.cmdline && !syncd_db_has_read_global(d->db))) {
        return;
    }
    d->path_chosen = true;
    if (!s->southbound_zmq.value) {
        if (s->dbo.global_only) {
            syncd_db_destroy(d->db);
            s->dbo.global_only = false;
            d->db = syncd_db_create(&s->dbo, d->apply);
        }
        syncd_apply_set_callback(d->apply, syncd_db_apply_result, d->db);
        VLOG_INFO("southbound path: OVSDB (Asic_Route)");
        return;
    }

    char *endpoint = (s->southbound_endpoint
                      ? xstrdup(s->southbound_endpoint)
                      : fibsync_instance_endpoint("southbound",
                                                  s->instance));
    struct syncd_zmq_options zo = { .endpoint = endpoint };
    char *error;

    d->zmq = syncd_zmq_create(&zo, d->apply, &error);
    if (!d->zmq) {
        ovs_fatal(0, "southbound fast path: %s", error);
    }
    syncd_apply_set_callback(d->apply, syncd_zmq_apply_result, d->zmq);
    VLOG_INFO("southbound path: ZeroMQ, bound to %s", endpoint);
    free(endpoint);
}

/* ---- Warm restart ------------------------------------------------------- */

/* Programs the routes a warm exit saved, if it did, before any input. */
static void
warm_start(struct syncd *d)
{
    char *error = syncd_warm_restore(d->apply, d->warm_file, &d->warm);

    if (error) {
        VLOG_WARN("warm start refused, starting cold: %s", error);
        free(error);
    } else if (d->warm.file) {
        /* Whatever reconciliation does not confirm goes: on the fast path
         * orchd's resync marks and sweeps; on the OVSDB path
         * warm_sweep_run() sweeps once Asic_Route's contents are in. */
        syncd_apply_mark_stale(d->apply);
        d->warm_sweep = true;
    }
}

/* On the OVSDB path, removes the restored routes that Asic_Route's first
 * contents did not confirm. */
static void
warm_sweep_run(struct syncd *d)
{
    if (!d->warm_sweep || !d->path_chosen) {
        return;
    } else if (d->zmq) {
        d->warm_sweep = false;  /* The resync sweeps. */
    } else if (syncd_db_initial_done(d->db)) {
        size_t n = syncd_apply_sweep_stale(d->apply);

        VLOG_INFO("warm start reconciled with Asic_Route: %"PRIuSIZE
                  " restored routes removed", n);
        d->warm_sweep = false;
    }
}

/* ---- Main --------------------------------------------------------------- */

int
main(int argc, char *argv[])
{
    struct syncd_settings settings;
    struct unixctl_server *unixctl;
    struct syncd d;
    char *error;
    int retval;

    set_program_name(argv[0]);
    ovs_cmdl_proctitle_init(argc, argv);
    service_start(&argc, &argv);
    fatal_ignore_sigpipe();
    parse_options(argc, argv, &settings);

    daemonize_start(false);

    retval = unixctl_server_create(settings.unixctl, &unixctl);
    if (retval) {
        ovs_fatal(retval, "cannot create unixctl socket %s",
                  settings.unixctl);
    }

    memset(&d, 0, sizeof d);
    d.start_msec = time_msec();
    d.max_bulk = &settings.max_bulk;

    struct perf_timer_options topts;
    perf_timer_options_init(&topts);
    topts.module = &this_module;
    d.timer = perf_timer_create("BULK", &topts);
    perf_timer_register_unixctl();

    settings.apply.timer = d.timer;
    d.apply = syncd_apply_create(&settings.apply, &error);
    if (!d.apply) {
        ovs_fatal(0, "%s", error);
    }
    d.warm_file = settings.warm_file;
    warm_start(&d);

    /* Fault injection from the command line. */
    sai_object_id_t sw = syncd_apply_switch_id(d.apply);
    if (settings.fault.rate || settings.fault.delay_usec) {
        asic_sim_fault_set(sw, &settings.fault);
    }
    for (size_t i = 0; i < settings.n_fault_prefixes; i++) {
        char *arg = settings.fault_prefixes[i];
        char *comma = strchr(arg, ',');
        const char *vrf = comma ? arg : "default";
        const char *prefix_s = comma ? comma + 1 : arg;
        struct fib_prefix fp;
        sai_object_id_t vr_id;
        sai_ip_prefix_t p;

        if (comma) {
            *comma = '\0';
        }
        error = fib_prefix_parse(prefix_s, &fp);
        if (error) {
            ovs_fatal(0, "--fault-prefix: %s", error);
        }
        syncd_prefix_to_sai(&fp, &p);
        if (syncd_apply_vr_get(d.apply, vrf, &vr_id)
            || asic_sim_fault_add_prefix(sw, vr_id, &p)) {
            ovs_fatal(0, "--fault-prefix: cannot add %s in VRF %s",
                      prefix_s, vrf);
        }
    }

    settings.dbo.remote = settings.db;
    settings.dbo.southbound_zmq = &settings.southbound_zmq;
    settings.dbo.global_only = (!settings.southbound_zmq.cmdline
                                || settings.southbound_zmq.value);
    d.southbound_zmq = &settings.southbound_zmq;
    d.db = syncd_db_create(&settings.dbo, d.apply);
    path_run(&d, &settings);
    settings.co.remote = settings.db;
    d.counters = syncd_counters_create(&settings.co);

    register_commands(&d);
    daemonize_complete();
    VLOG_INFO("syncd started: database %s, bulks of %"PRId64" routes",
              settings.db, settings.max_bulk.value);

    while (!d.exiting) {
        memory_run();
        if (memory_should_report()) {
            struct syncd_db_stats ds;
            struct simap usage;

            syncd_db_get_stats(d.db, &ds);
            simap_init(&usage);
            simap_put(&usage, "rows", ds.rows);
            simap_put(&usage, "routes", syncd_apply_n_routes(d.apply));
            memory_report(&usage);
            simap_destroy(&usage);
        }

        syncd_db_run(d.db);
        path_run(&d, &settings);
        if (d.zmq) {
            syncd_zmq_run(d.zmq);
        }
        syncd_apply_run(d.apply);
        warm_sweep_run(&d);
        syncd_counters_run(d.counters);
        unixctl_server_run(unixctl);
        perf_timer_run(d.timer);
        rates_run(&d);

        syncd_db_wait(d.db);
        if (d.zmq) {
            syncd_zmq_wait(d.zmq);
        }
        syncd_apply_wait(d.apply);
        syncd_counters_wait(d.counters);
        unixctl_server_wait(unixctl);
        perf_timer_wait(d.timer);
        memory_wait();
        poll_timer_wait_until(d.next_sample);
        if (d.exiting) {
            poll_immediate_wake();
        }
        poll_block();
    }

    perf_timer_flush(d.timer);
    syncd_counters_destroy(d.counters);
    syncd_zmq_destroy(d.zmq);
    syncd_db_destroy(d.db);
    syncd_apply_destroy(d.apply);
    syncd_warm_start_destroy(&d.warm);
    perf_timer_destroy(d.timer);
    unixctl_server_destroy(unixctl);
    settings_destroy(&settings);
    service_stop();
    return 0;
}

/* Frees what parse_options() allocated in 's'. */
static void
settings_destroy(struct syncd_settings *s)
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

/* ---- Options ------------------------------------------------------------ */

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
 * 'struct syncd_settings'. */
struct uint_option {
    int code;                   /* Its code in 'long_options'. */
    const char *name;           /* Its long name, for error messages. */
    unsigned long long int min; /* Smallest value accepted. */
    unsigned long long int max; /* Largest value accepted. */
    size_t offset;              /* Offset of the member. */
    size_t size;                /* Size of the member: 4 or 8 bytes. */
};

#define UINT_OPTION(CODE, NAME, MIN, MAX, MEMBER)                   \
    { CODE, NAME, MIN, MAX, offsetof(struct syncd_settings, MEMBER), \
      sizeof ((struct syncd_settings *) NULL)->MEMBER }

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
parse_uint_option(int c, const char *arg, struct syncd_settings *s)
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

/* Parses the command line into 's', or exits (with --help, --version or
 * an error). */
static void
parse_options(int argc, char *argv[], struct syncd_settings *s)
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
    if (s->apply.max_bulk) {
        setting_set_cmdline(&s->max_bulk, s->apply.max_bulk);
    }
    s->dbo.max_bulk = &s->max_bulk;
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
\n\
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
           program_name, program_name, fibsync_default_db(),
           SYNCD_COUNTERS_DEFAULT_INTERVAL,
           SYNCD_APPLY_DEFAULT_MAX_BULK, ASIC_SIM_DEFAULT_IPV4_ROUTES,
           ASIC_SIM_DEFAULT_IPV6_ROUTES, ASIC_SIM_DEFAULT_NEXT_HOPS,
           ASIC_SIM_DEFAULT_NEXT_HOP_GROUPS,
           ASIC_SIM_DEFAULT_NEXT_HOP_GROUP_MEMBERS, ASIC_SIM_DEFAULT_PORTS,
           "$FIBSYNC_RUNDIR/syncd.ctl");
    fibsync_instance_zmq_tcp_usage();
    daemon_usage();
    ssl_options_usage();
    vlog_usage();
    printf("\n\
Environment:\n\
  FIBSYNC_RUNDIR          run directory of the stack (default ./_run)\n");
    exit(EXIT_SUCCESS);
}

/* ---- Commands ----------------------------------------------------------- */

/* "asic/lookup ADDRESS [vrf NAME]". */
static void
cmd_lookup(struct unixctl_conn *conn, int argc, const char *argv[],
           void *d_)
{
    struct syncd *d = d_;
    const char *vrf = "default";
    sai_ip_address_t addr;

    if (argc == 4 && !strcmp(argv[2], "vrf")) {
        vrf = argv[3];
    } else if (argc == 3) {
        vrf = argv[2];
    } else if (argc != 2) {
        unixctl_command_reply_error(conn, "usage: asic/lookup ADDRESS "
                                    "[vrf NAME]");
        return;
    }
    if (!sai_util_ip_address_parse(argv[1], &addr)) {
        unixctl_command_reply_error(conn, "bad address");
        return;
    }
    sai_object_id_t vr_id = syncd_apply_vr_find(d->apply, vrf);
    if (!vr_id) {
        char *msg = xasprintf("no VRF %s", vrf);
        unixctl_command_reply_error(conn, msg);
        free(msg);
        return;
    }

    struct asic_sim_nexthop *nhs = NULL;
    struct asic_sim_route route;
    uint32_t n = 16;
    sai_status_t status;
    do {
        nhs = xrealloc(nhs, n * sizeof *nhs);
        status = asic_sim_lookup(vr_id, &addr, &route, nhs, &n);
    } while (status == SAI_STATUS_BUFFER_OVERFLOW);

    if (status) {
        char *msg = xasprintf("%s: no route in VRF %s (%s)", argv[1], vrf,
                              sai_util_status_name(status));
        unixctl_command_reply_error(conn, msg);
        free(msg);
        free(nhs);
        return;
    }
    syncd_counters_note_hit(d->counters, vrf, &route.entry);

    struct ds s = DS_EMPTY_INITIALIZER;
    char buf[SAI_IP_PREFIX_STRLEN];
    ds_put_format(&s, "%s vrf %s action %s hits %"PRIu64"\n",
                  sai_util_ip_prefix_format(&route.entry.destination, buf),
                  vrf,
                  syncd_action_name(route.action), route.hits);
    for (uint32_t i = 0; i < n; i++) {
        ds_put_cstr(&s, "  nexthop ");
        syncd_apply_format_nexthop(d->apply, &nhs[i], &s);
        ds_put_format(&s, " weight %"PRIu32"\n", nhs[i].weight);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
    free(nhs);
}

/* Context of a route dump. */
struct dump_ctx {
    const struct syncd *d;      /* The daemon. */
    const char *vrf;            /* VRF being dumped. */
    struct ds *s;               /* Text output, or NULL. */
    struct json *array;         /* JSON output, or NULL. */
    FILE *file;                 /* With 's': where 's' goes, or NULL. */
    size_t n;                   /* Routes dumped. */
};

static void
dump_route(const struct asic_sim_route *r, void *ctx_)
{
    struct dump_ctx *ctx = ctx_;
    char buf[SAI_IP_PREFIX_STRLEN];

    sai_util_ip_prefix_format(&r->entry.destination, buf);
    if (ctx->s) {
        ds_put_format(ctx->s, "%s %s %s ", ctx->vrf, buf,
                      syncd_action_name(r->action));
        syncd_apply_format_target(ctx->d->apply, r->next_hop_id, ctx->s);
        ds_put_format(ctx->s, " hits=%"PRIu64"\n", r->hits);
        if (ctx->file && ctx->s->length >= 65536) {
            /* Streamed: a million routes never make one 60 MB reply. */
            fwrite(ctx->s->string, 1, ctx->s->length, ctx->file);
            ds_clear(ctx->s);
        }
    } else {
        struct json *o = json_object_create();

        json_object_put_string(o, "vrf", ctx->vrf);
        json_object_put_string(o, "prefix", buf);
        json_object_put_string(o, "action", syncd_action_name(r->action));
        json_object_put(o, "nexthops",
                        syncd_apply_target_to_json(ctx->d->apply,
                                                   r->next_hop_id));
        json_object_put(o, "hits", json_integer_create(r->hits));
        json_array_add(ctx->array, o);
    }
    ctx->n++;
}

static int
compare_vr_names(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;

    return strcmp(*a, *b);
}

/* "asic/dump [json | file PATH]".  With "file PATH" (an absolute path),
 * the text lines are written to PATH as they are made, not returned in
 * one reply: route-check reads a million routes that way without a 60 MB
 * reply, or the JSON tree of "json" (about 1 kB a route), in syncd. */
static void
cmd_dump(struct unixctl_conn *conn, int argc, const char *argv[], void *d_)
{
    struct syncd *d = d_;
    bool json = argc == 2 && !strcmp(argv[1], "json");
    bool to_file = argc == 3 && !strcmp(argv[1], "file");
    FILE *file = NULL;

    if (argc > 1 && !json && !to_file) {
        unixctl_command_reply_error(conn,
                                    "usage: asic/dump [json | file PATH]");
        return;
    }
    if (to_file) {
        if (argv[2][0] != '/') {
            unixctl_command_reply_error(conn, "asic/dump file: PATH must "
                                        "be absolute");
            return;
        }
        file = fopen(argv[2], "w");
        if (!file) {
            char *msg = xasprintf("asic/dump file: %s: %s", argv[2],
                                  ovs_strerror(errno));
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    }

    /* VRFs in name order. */
    size_t n = syncd_apply_n_vrs(d->apply);
    const char **names = xmalloc(n * sizeof *names);
    for (size_t i = 0; i < n; i++) {
        sai_object_id_t vr_id;

        names[i] = syncd_apply_vr_name(d->apply, i, &vr_id);
    }
    qsort(names, n, sizeof *names, compare_vr_names);

    struct ds s = DS_EMPTY_INITIALIZER;
    struct dump_ctx ctx = {
        .d = d,
        .s = json ? NULL : &s,
        .array = json ? json_array_create_empty() : NULL,
        .file = file,
    };
    for (size_t i = 0; i < n; i++) {
        ctx.vrf = names[i];
        asic_sim_route_walk(syncd_apply_vr_find(d->apply, names[i]),
                            dump_route, &ctx);
    }
    free(names);

    if (json) {
        char *text = json_to_string(ctx.array, JSSF_SORT);
        unixctl_command_reply(conn, text);
        free(text);
        json_destroy(ctx.array);
    } else if (file) {
        if (s.length) {
            /* An empty FIB leaves 's.string' null, which fwrite() must
             * not get (UndefinedBehaviorSanitizer stops syncd on it). */
            fwrite(s.string, 1, s.length, file);
        }
        if (ferror(file) | fclose(file)) {
            char *msg = xasprintf("asic/dump file: %s: write failed",
                                  argv[2]);
            unixctl_command_reply_error(conn, msg);
            free(msg);
        } else {
            char *msg = xasprintf("%"PRIuSIZE" routes", ctx.n);
            unixctl_command_reply(conn, msg);
            free(msg);
        }
    } else {
        unixctl_command_reply(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

/* "crm/show". */
static void
cmd_crm_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[] OVS_UNUSED, void *d_)
{
    struct syncd *d = d_;
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    sai_status_t status = asic_sim_crm_get(syncd_apply_switch_id(d->apply),
                                           crm);

    if (status) {
        unixctl_command_reply_error(conn, sai_util_status_name(status));
        return;
    }

    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_format(&s, "%-22s %10s %10s %10s\n", "resource", "used",
                  "available", "capacity");
    for (int i = 0; i < ASIC_SIM_N_RESOURCES; i++) {
        ds_put_format(&s, "%-22s %10"PRIu32" %10"PRIu32" %10"PRIu32"\n",
                      asic_sim_resource_name(i), crm[i].used,
                      crm[i].available, crm[i].capacity);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* Context of "asic/fault show". */
struct fault_show_ctx {
    const struct syncd *d;      /* The daemon. */
    struct ds *s;               /* Output. */
};

static void
fault_show_prefix(sai_object_id_t vr_id, const sai_ip_prefix_t *p,
                  void *ctx_)
{
    struct fault_show_ctx *ctx = ctx_;
    char buf[SAI_IP_PREFIX_STRLEN];
    const char *vrf = "?";

    for (size_t i = 0; i < syncd_apply_n_vrs(ctx->d->apply); i++) {
        sai_object_id_t id;
        const char *name = syncd_apply_vr_name(ctx->d->apply, i, &id);

        if (id == vr_id) {
            vrf = name;
            break;
        }
    }
    ds_put_format(ctx->s, "prefix %s %s\n", vrf,
                  sai_util_ip_prefix_format(p, buf));
}

/* "asic/fault rate FRACTION [SEED] | prefix add|del VRF PREFIX |
 *  delay USEC | clear | show". */
static void
cmd_fault(struct unixctl_conn *conn, int argc, const char *argv[], void *d_)
{
    struct syncd *d = d_;
    sai_object_id_t sw = syncd_apply_switch_id(d->apply);
    struct asic_sim_fault f;
    sai_status_t status;
    char *end;

    asic_sim_fault_get(sw, &f);
    if (!strcmp(argv[1], "rate") && (argc == 3 || argc == 4)) {
        double rate = strtod(argv[2], &end);

        if (*end || end == argv[2] || !(rate >= 0 && rate <= 1)) {
            unixctl_command_reply_error(conn, "rate must be a fraction "
                                        "between 0 and 1");
            return;
        }
        f.rate = rate;
        if (argc == 4) {
            f.seed = strtoull(argv[3], &end, 10);
            if (*end || end == argv[3]) {
                unixctl_command_reply_error(conn, "bad seed");
                return;
            }
        }
        status = asic_sim_fault_set(sw, &f);
    } else if (!strcmp(argv[1], "delay") && argc == 3) {
        unsigned long usec = strtoul(argv[2], &end, 10);

        if (*end || end == argv[2] || usec > 10000000) {
            unixctl_command_reply_error(conn, "bad delay");
            return;
        }
        f.delay_usec = usec;
        status = asic_sim_fault_set(sw, &f);
    } else if (!strcmp(argv[1], "prefix") && argc == 5
               && (!strcmp(argv[2], "add") || !strcmp(argv[2], "del"))) {
        bool add = !strcmp(argv[2], "add");
        struct fib_prefix fp;
        sai_object_id_t vr_id;
        sai_ip_prefix_t p;
        char *error = fib_prefix_parse(argv[4], &fp);

        if (error) {
            unixctl_command_reply_error(conn, error);
            free(error);
            return;
        }
        syncd_prefix_to_sai(&fp, &p);
        if (add) {
            status = syncd_apply_vr_get(d->apply, argv[3], &vr_id);
            if (!status) {
                status = asic_sim_fault_add_prefix(sw, vr_id, &p);
            }
        } else {
            vr_id = syncd_apply_vr_find(d->apply, argv[3]);
            status = (vr_id ? asic_sim_fault_remove_prefix(sw, vr_id, &p)
                      : SAI_STATUS_ITEM_NOT_FOUND);
        }
    } else if (!strcmp(argv[1], "clear") && argc == 2) {
        status = asic_sim_fault_clear(sw);
    } else if (!strcmp(argv[1], "show") && argc == 2) {
        struct ds s = DS_EMPTY_INITIALIZER;
        struct fault_show_ctx ctx = { .d = d, .s = &s };

        ds_put_format(&s, "rate %g seed %"PRIu64" delay_usec %"PRIu32"\n",
                      f.rate, f.seed, f.delay_usec);
        asic_sim_fault_prefix_walk(sw, fault_show_prefix, &ctx);
        unixctl_command_reply(conn, ds_cstr(&s));
        ds_destroy(&s);
        return;
    } else {
        unixctl_command_reply_error(conn, "usage: asic/fault rate FRACTION "
                                    "[SEED] | prefix add|del VRF PREFIX | "
                                    "delay USEC | clear | show");
        return;
    }

    if (status) {
        unixctl_command_reply_error(conn, sai_util_status_name(status));
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

/* Appends the southbound path in force, and where the choice came from,
 * to 's'. */
static void
put_southbound(const struct syncd *d, struct ds *s)
{
    const struct setting *sz = d->southbound_zmq;

    if (!d->path_chosen) {
        ds_put_cstr(s, "southbound: not chosen yet (reading Global)\n");
        return;
    }
    ds_put_format(s, "southbound: %s (%s)", d->zmq ? "zmq" : "ovsdb",
                  setting_source_name(sz->source));
    if ((d->zmq != NULL) != (sz->value != 0)) {
        ds_put_format(s, ", Global now says %s: until syncd restarts",
                      sz->value ? "zmq" : "ovsdb");
    }
    ds_put_char(s, '\n');
}

/* "zmq/show": the southbound channel, its counters, and the backlog of
 * syncd's one writer on that path (hit counters). */
static void
cmd_zmq_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[] OVS_UNUSED, void *d_)
{
    struct syncd *d = d_;
    struct syncd_counters_stats cs;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (d->zmq) {
        syncd_zmq_format(d->zmq, &s);
    } else {
        put_southbound(d, &s);
    }
    syncd_counters_get_stats(d->counters, &cs);
    if (cs.enabled) {
        ds_put_format(&s, "Route.counters writer: queued %"PRIu64
                      ", in flight %"PRIu64", committed %"PRIu64"\n",
                      cs.dirty, cs.inflight_rows, cs.acked);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* "asic/stats". */
static void
cmd_stats(struct unixctl_conn *conn, int argc OVS_UNUSED,
          const char *argv[] OVS_UNUSED, void *d_)
{
    struct syncd *d = d_;
    struct syncd_apply_stats as;
    struct syncd_db_stats ds;
    struct syncd_counters_stats cs;
    struct asic_sim_stats ss;
    struct ds s = DS_EMPTY_INITIALIZER;
    double ops1, wb1, ops10, wb10;

    syncd_apply_get_stats(d->apply, &as);
    syncd_db_get_stats(d->db, &ds);
    syncd_counters_get_stats(d->counters, &cs);
    asic_sim_stats_get(syncd_apply_switch_id(d->apply), &ss);
    rates_get(d, 1, &ops1, &wb1);
    rates_get(d, 10, &ops10, &wb10);

    ds_put_format(&s, "operations: set %"PRIu64" del %"PRIu64
                  " (no-op %"PRIu64") ok %"PRIu64" error %"PRIu64"\n",
                  as.ops[SYNCD_OP_SET], as.ops[SYNCD_OP_DEL], as.noops,
                  as.ok, as.failed);
    ds_put_format(&s, "route entries: create %"PRIu64" remove %"PRIu64
                  " set %"PRIu64"\n",
                  as.route_ops[ASIC_SIM_OP_CREATE],
                  as.route_ops[ASIC_SIM_OP_REMOVE],
                  as.route_ops[ASIC_SIM_OP_SET]);
    ds_put_format(&s, "bulks: create %"PRIu64" remove %"PRIu64" set %"PRIu64
                  " flushes %"PRIu64" busy %.3f s\n",
                  as.bulks[ASIC_SIM_OP_CREATE], as.bulks[ASIC_SIM_OP_REMOVE],
                  as.bulks[ASIC_SIM_OP_SET], as.flushes,
                  as.busy_usec / 1e6);
    ds_put_format(&s, "errors: %"PRIu64"\n", as.failed);
    for (int i = 1; i < SYNCD_STATUS_N_CODES; i++) {
        if (as.errors[i]) {
            ds_put_format(&s, "  %s: %"PRIu64"\n",
                          syncd_status_code_name(i), as.errors[i]);
        }
    }
    ds_put_format(&s, "next hops: created %"PRIu64" removed %"PRIu64
                  "; groups: created %"PRIu64" removed %"PRIu64"\n",
                  as.nh_created, as.nh_removed, as.nhg_created,
                  as.nhg_removed);
    ds_put_format(&s, "orphans: %"PRIu64" retries %"PRIu64"; groups set "
                  "aside: %"PRIu64"\n", as.orphans, as.orphan_retries,
                  as.nhg_stuck);
    ds_put_format(&s, "routes: %"PRIuSIZE"\n",
                  syncd_apply_n_routes(d->apply));
    if (as.last_fib_change) {
        ds_put_format(&s, "last route programmed: %lld.%06lld\n",
                      as.last_fib_change / 1000000,
                      as.last_fib_change % 1000000);
    } else {
        ds_put_cstr(&s, "last route programmed: never\n");
    }
    ds_put_format(&s, "rates: %.0f routes/s (1 s), %.0f routes/s (10 s), "
                  "peak %.0f routes/s; write-back %.0f rows/s (10 s)\n",
                  ops1, ops10, d->peak_rate, wb10);
    ds_put_format(&s, "asic: route ops %"PRIu64" errors %"PRIu64
                  " faults injected %"PRIu64" lookups %"PRIu64"\n",
                  ss.route_ops[ASIC_SIM_OP_CREATE]
                  + ss.route_ops[ASIC_SIM_OP_REMOVE]
                  + ss.route_ops[ASIC_SIM_OP_SET],
                  ss.errors, ss.faults_injected, ss.lookups);
    /* Churn: a route taken out of the FIB and put back, which
     * reconciliation after a restart must never do (tests/chaos.at). */
    ds_put_format(&s, "asic churn: recreated %"PRIu64
                  " (routes removed, then created again)\n",
                  ss.routes_recreated);
    ds_put_format(&s, "db: %s, rows %"PRIu64" in-sync %"PRIu64" bad %"PRIu64
                  " (ever %"PRIu64") backlog %"PRIu64" updates %"PRIu64
                  " reconnects %"PRIu64"\n",
                  syncd_db_is_connected(d->db) ? "connected" : "disconnected",
                  ds.rows, ds.in_sync, ds.bad_rows, ds.bad_total, ds.backlog,
                  ds.updates, ds.reconnects);
    ds_put_format(&s, "db rows: inserted %"PRIu64" modified %"PRIu64
                  " deleted %"PRIu64"\n",
                  ds.row_inserts, ds.row_modifies, ds.row_deletes);
    ds_put_format(&s, "db read: %s, reads %"PRIu64" failed %"PRIu64
                  " rows %"PRIu64" skipped %"PRIu64" by seq %"PRIu64
                  " kept %"PRIu64" last %lld ms\n",
                  ds.reading ? "reading" : "idle", ds.reads,
                  ds.read_failures, ds.read_rows, ds.read_skipped,
                  ds.read_by_seq, ds.read_kept, ds.read_msec);
    ds_put_format(&s, "db VRFs: %"PRIu64" with a Vrf row; rows waiting for "
                  "one %"PRIu64" (ever %"PRIu64")\n",
                  ds.vrfs, ds.held, ds.held_total);
    ds_put_format(&s, "write-back: txns %"PRIu64" rows %"PRIu64" acked %"
                  PRIu64" skipped %"PRIu64" failed txns %"PRIu64
                  " pending %"PRIu64" inflight %"PRIu64" (%"PRIu64
                  " txns)\n",
                  ds.wb_txns, ds.wb_rows, ds.wb_acked, ds.wb_skipped,
                  ds.wb_errors, ds.wb_pending, ds.wb_inflight_rows,
                  ds.wb_inflight_txns);
    if (cs.enabled) {
        ds_put_format(&s, "counters: %s, hits %"PRIu64" rounds %"PRIu64
                      " txns %"PRIu64" rows %"PRIu64" acked %"PRIu64
                      " missing %"PRIu64" gone %"PRIu64" failed txns %"
                      PRIu64" lost txns %"PRIu64" dirty %"PRIu64
                      " inflight %"PRIu64"\n",
                      cs.connected ? "connected" : "disconnected",
                      cs.hits, cs.rounds, cs.txns, cs.rows, cs.acked,
                      cs.missing, cs.gone, cs.failed_txns, cs.lost_txns,
                      cs.dirty, cs.inflight_rows);
    } else {
        ds_put_cstr(&s, "counters: disabled\n");
    }
    ds_put_format(&s, "%s: %"PRId64" (%s)\n", d->max_bulk->name,
                  d->max_bulk->value,
                  setting_source_name(d->max_bulk->source));
    put_southbound(d, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* "exit [--warm]".  With --warm, programs what is queued and saves the
 * routes for the next start before answering. */
static void
cmd_exit(struct unixctl_conn *conn, int argc, const char *argv[], void *d_)
{
    struct syncd *d = d_;

    if (argc > 1) {
        if (strcmp(argv[1], "--warm")) {
            unixctl_command_reply_error(conn, "usage: exit [--warm]");
            return;
        }

        size_t n;
        char *error = syncd_warm_save(d->apply, d->warm_file, &n);
        if (error) {
            unixctl_command_reply_error(conn, error);
            VLOG_ERR("warm exit refused: %s", error);
            free(error);
            return;
        }
        char *msg = xasprintf("%"PRIuSIZE" routes saved to %s", n,
                              d->warm_file);
        VLOG_INFO("warm exit: %s", msg);
        unixctl_command_reply(conn, msg);
        free(msg);
    } else {
        unixctl_command_reply(conn, NULL);
    }
    d->exiting = true;
    poll_immediate_wake();      /* The main loop tests it after waking. */
}

/* "warm/show". */
static void
cmd_warm_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[] OVS_UNUSED, void *d_)
{
    struct syncd *d = d_;
    struct ds s = DS_EMPTY_INITIALIZER;

    syncd_warm_start_format(&d->warm, d->apply, &s);
    if (d->warm_sweep) {
        ds_put_cstr(&s, "reconciliation: under way\n");
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
register_commands(struct syncd *d)
{
    unixctl_command_register("asic/lookup", "ADDRESS [vrf NAME]", 1, 3,
                             cmd_lookup, d);
    unixctl_command_register("asic/dump", "[json | file PATH]", 0, 2,
                             cmd_dump, d);
    unixctl_command_register("crm/show", "", 0, 0, cmd_crm_show, d);
    unixctl_command_register("asic/fault",
                             "rate FRACTION [SEED] | prefix add|del VRF "
                             "PREFIX | delay USEC | clear | show",
                             1, 4, cmd_fault, d);
    unixctl_command_register("asic/stats", "", 0, 0, cmd_stats, d);
    unixctl_command_register("zmq/show", "", 0, 0, cmd_zmq_show, d);
    unixctl_command_register("warm/show", "", 0, 0, cmd_warm_show, d);
    unixctl_command_register("exit", "[--warm]", 0, 1, cmd_exit, d);
}
