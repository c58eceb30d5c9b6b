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
 * from orchd's frames over ZeroMQ.  This file holds the daemon's main loop
 * and its warm start; see daemons/syncd/syncd-options.c for the interface
 * (--help), daemons/syncd/syncd-path.h for the choice of the path,
 * daemons/syncd/syncd-db.h for the OVSDB path, daemons/syncd/syncd-zmq.h
 * for the fast path, daemons/syncd/syncd-apply.h for the apply step and
 * daemons/syncd/syncd-unixctl.h for the commands. */

#include <config.h>

#include "daemons/syncd/syncd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/asic-sim.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-counters.h"
#include "daemons/syncd/syncd-db.h"
#include "daemons/syncd/syncd-options.h"
#include "daemons/syncd/syncd-path.h"
#include "daemons/syncd/syncd-rates.h"
#include "daemons/syncd/syncd-unixctl.h"
#include "daemons/syncd/syncd-warm.h"
#include "daemons/syncd/syncd-zmq.h"
#include "command-line.h"
#include "daemon.h"
#include "fatal-signal.h"
#include "lib/fib-prefix.h"
#include "lib/global-follower.h"
#include "lib/perf-timer.h"
#include "lib/setting.h"
#include "memory.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "simap.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd);

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
    if (!d->warm_sweep || !d->path.chosen) {
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

/* Sets the faults that the command line 'o' asks for in the switch of
 * 'd', before any input. */
static void
start_faults(struct syncd *d, const struct syncd_options *o)
{
    sai_object_id_t sw = syncd_apply_switch_id(d->apply);

    if (o->fault.rate || o->fault.delay_usec) {
        asic_sim_fault_set(sw, &o->fault);
    }
    for (size_t i = 0; i < o->n_fault_prefixes; i++) {
        char *arg = o->fault_prefixes[i];
        char *comma = strchr(arg, ',');
        const char *vrf = comma ? arg : "default";
        const char *prefix_s = comma ? comma + 1 : arg;
        struct fib_prefix fp;
        sai_object_id_t vr_id;
        sai_ip_prefix_t p;

        if (comma) {
            *comma = '\0';
        }
        char *error = fib_prefix_parse(prefix_s, &fp);
        if (error) {
            ovs_fatal(0, "--fault-prefix: %s", error);
        }
        syncd_prefix_to_sai(&fp, &p);
        if (syncd_apply_vr_get(d->apply, vrf, &vr_id)
            || asic_sim_fault_add_prefix(sw, vr_id, &p)) {
            ovs_fatal(0, "--fault-prefix: cannot add %s in VRF %s",
                      prefix_s, vrf);
        }
    }
}

/* The Global columns syncd follows. */
static const char *const global_columns[] = {
    "max_bulk_size", "southbound_zmq", "log_level", NULL
};

/* Takes the Global row into the settings, if it changed since the last
 * call: log_level to the log file, southbound_zmq (which chooses the path
 * once, syncd-path.h), and max_bulk_size, which goes to the apply step
 * whenever the value in force changes. */
static void
follow_global(struct syncd *d, struct syncd_options *o)
{
    const struct global_follower *g = d->global;
    int64_t bulk = 0;
    bool present;

    if (global_follower_seqno(g) == d->global_seqno) {
        return;
    }
    d->global_seqno = global_follower_seqno(g);
    global_follower_set_boolean(g, &o->southbound_zmq, "southbound_zmq");
    setting_apply_log_level(global_follower_get_string(g, "log_level"));
    present = (global_follower_get_integer(g, "max_bulk_size", &bulk)
               && bulk >= 1);
    if (setting_set_global(&o->max_bulk, present, bulk)) {
        VLOG_INFO("bulks of %"PRId64" routes (%s)", o->max_bulk.value,
                  setting_source_name(o->max_bulk.source));
        syncd_apply_set_max_bulk(d->apply, o->max_bulk.value);
    }
}

/* Makes the daemon 'd' from the command line 'o': its control socket, its
 * apply step (warm started, with the faults asked for), its follower of
 * Global, its path (at once if the command line chose it), and its hit
 * counters. */
static void
syncd_init(struct syncd *d, struct syncd_options *o)
{
    char *error;

    memset(d, 0, sizeof *d);
    int retval = unixctl_server_create(o->unixctl, &d->unixctl);
    if (retval) {
        ovs_fatal(retval, "cannot create unixctl socket %s", o->unixctl);
    }
    d->max_bulk = &o->max_bulk;

    struct perf_timer_options topts;
    perf_timer_options_init(&topts);
    topts.module = &this_module;
    d->timer = perf_timer_create("BULK", &topts);
    perf_timer_register_unixctl();

    o->apply.timer = d->timer;
    d->apply = syncd_apply_create(&o->apply, &error);
    if (!d->apply) {
        ovs_fatal(0, "%s", error);
    }
    d->warm_file = o->warm_file;
    warm_start(d);
    start_faults(d, o);

    o->dbo.remote = o->db;
    d->southbound_zmq = &o->southbound_zmq;
    d->global = global_follower_create(o->db, global_columns);
    syncd_path_run(d, o);
    o->co.remote = o->db;
    d->counters = syncd_counters_create(&o->co);
}

/* Reports memory use, when memory_should_report() says to. */
static void
report_memory(const struct syncd *d)
{
    struct syncd_db_stats ds;
    struct simap usage;

    syncd_db_get_stats(d->db, &ds);
    simap_init(&usage);
    simap_put(&usage, "rows", ds.rows);
    simap_put(&usage, "routes", syncd_apply_n_routes(d->apply));
    memory_report(&usage);
    simap_destroy(&usage);
}

/* One pass of the main loop's work. */
static void
syncd_run(struct syncd *d, struct syncd_options *o)
{
    memory_run();
    if (memory_should_report()) {
        report_memory(d);
    }

    global_follower_run(d->global);
    follow_global(d, o);
    syncd_path_run(d, o);
    if (d->db) {
        syncd_db_run(d->db);
    }
    if (d->zmq) {
        syncd_zmq_run(d->zmq);
    }
    syncd_apply_run(d->apply);
    warm_sweep_run(d);
    syncd_counters_run(d->counters);
    unixctl_server_run(d->unixctl);
    perf_timer_run(d->timer);
    syncd_rates_run(&d->rates, d->apply, d->db);
}

/* Arranges for poll_block() to wake when syncd_run() has work. */
static void
syncd_wait(struct syncd *d)
{
    global_follower_wait(d->global);
    if (d->db) {
        syncd_db_wait(d->db);
    }
    if (d->zmq) {
        syncd_zmq_wait(d->zmq);
    }
    syncd_apply_wait(d->apply);
    syncd_counters_wait(d->counters);
    unixctl_server_wait(d->unixctl);
    perf_timer_wait(d->timer);
    memory_wait();
    syncd_rates_wait(&d->rates);
    if (d->exiting) {
        poll_immediate_wake();
    }
}

/* Frees what syncd_init() made in 'd'. */
static void
syncd_destroy(struct syncd *d)
{
    perf_timer_flush(d->timer);
    syncd_counters_destroy(d->counters);
    syncd_zmq_destroy(d->zmq);
    syncd_db_destroy(d->db);
    global_follower_destroy(d->global);
    syncd_apply_destroy(d->apply);
    syncd_warm_start_destroy(&d->warm);
    perf_timer_destroy(d->timer);
    unixctl_server_destroy(d->unixctl);
}

int
main(int argc, char *argv[])
{
    struct syncd_options options;
    struct syncd d;

    set_program_name(argv[0]);
    ovs_cmdl_proctitle_init(argc, argv);
    service_start(&argc, &argv);
    fatal_ignore_sigpipe();
    syncd_options_parse(argc, argv, &options);

    daemonize_start(false);
    syncd_init(&d, &options);
    syncd_unixctl_register(&d);
    daemonize_complete();
    VLOG_INFO("syncd started: database %s, bulks of %"PRId64" routes",
              options.db, options.max_bulk.value);

    while (!d.exiting) {
        syncd_run(&d, &options);
        syncd_wait(&d);
        poll_block();
    }

    syncd_destroy(&d);
    syncd_options_destroy(&options);
    service_stop();
    return 0;
}
