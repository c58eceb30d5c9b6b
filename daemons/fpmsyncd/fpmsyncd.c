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

/* fpmsyncd: FRR zebra's FPM stream into the Fibsync OVSDB database.
 *
 * This file holds main() and its run/wait loop.  The parts of the daemon
 * are, in daemons/fpmsyncd/:
 *
 *   fpmsyncd-options.c  the command line, its defaults and the usage
 *                       text;
 *   fpmsyncd-unixctl.c  the unixctl commands;
 *   fpmsyncd-fpm.c      zebra's FPM connection and replay window;
 *   fpmsyncd-db.c       the database connection, the load and the flush
 *                       policy (fpmsyncd-db-monitors.c: what its monitors
 *                       report);
 *   fpmsyncd-zmq.c      the northbound fast path to orchd (and
 *                       fpmsyncd-status.c, the Route.status it writes
 *                       behind);
 *   fpmsyncd-offload.c  FIB suppression;
 *   fpmsyncd-rib.c      the route table (fpmsyncd-rib.h lists its own
 *                       parts, and how the three before follow its
 *                       routes). */

#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "daemon.h"
#include "daemons/fpmsyncd/fpmsyncd-db.h"
#include "daemons/fpmsyncd/fpmsyncd-fpm.h"
#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-options.h"
#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "daemons/fpmsyncd/fpmsyncd-status.h"
#include "daemons/fpmsyncd/fpmsyncd-unixctl.h"
#include "daemons/fpmsyncd/fpmsyncd-zmq.h"
#include "fatal-signal.h"
#include "memory.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "simap.h"
#include "svec.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd);

/* Starts the northbound fast path of 'f', once the path is decided. */
static void
zmq_start(struct fpmsyncd *f)
{
    struct fpmd_zmq_options opts = {
        .endpoints = (const char *const *) f->nb_endpoints->names,
        .n_endpoints = f->nb_endpoints->n,
        .max_pending = f->settings->zmq_max_pending,
        .frame_max = f->settings->zmq_frame_routes,
    };
    char *error;

    f->zmq = fpmd_zmq_create(f->rib, &opts, &error);
    if (!f->zmq) {
        ovs_fatal(0, "%s", error);
    }
    fpmd_fpm_set_zmq(f->fpm, f->zmq);
    char *endpoints = svec_join(f->nb_endpoints, ", ", "");

    VLOG_INFO("northbound: routes go to orchd over ZeroMQ (%s), rows to "
              "the database behind them", endpoints);
    free(endpoints);
}

/* Reports memory use, when memory.h asks for it. */
static void
memory_report_rib(const struct fpmsyncd *f)
{
    struct simap usage = SIMAP_INITIALIZER(&usage);

    simap_put(&usage, "routes", fpmd_rib_n_routes(f->rib));
    simap_put(&usage, "nexthops", fpmd_rib_n_nexthops(f->rib));
    simap_put(&usage, "pending", fpmd_rib_n_pending(f->rib));
    if (f->zmq) {
        simap_put(&usage, "zmq_queued", fpmd_zmq_n_queued(f->zmq));
    }
    memory_report(&usage);
    simap_destroy(&usage);
}

/* Parses the command line, builds the daemon (the rib, with FIB
 * suppression and Route.status following its routes, then zebra's side
 * and the database's) and runs it until "exit". */
int
main(int argc, char *argv[])
{
    struct unixctl_server *unixctl;
    struct fpmd_options o;
    struct fpmsyncd f;

    memset(&f, 0, sizeof f);
    ovs_cmdl_proctitle_init(argc, argv);
    set_program_name(argv[0]);
    service_start(&argc, &argv);
    fpmd_options_parse(argc, argv, &o);
    fatal_ignore_sigpipe();

    daemonize_start(false);
    unixctl = fpmd_unixctl_start(o.unixctl_path, &f);
    daemonize_complete();

    f.settings = &o.settings;
    f.nb_endpoints = &o.nb_endpoints;
    f.rib = fpmd_rib_create(NULL);
    /* The rib's observers, in the order the rib tells them (the fast path,
     * if any, after them: fpmd_zmq_create()). */
    fpmd_offload_attach(f.rib);
    fpmd_status_attach(f.rib);
    fpmd_rib_set_resolve(f.rib, o.settings.resolve_nexthops.value);
    f.fpm = fpmd_fpm_create(o.fpm_addr, o.fpm_port, f.rib, &o.settings);
    fpmd_offload_set_cb(f.rib, fpmd_fpm_send_offload, f.fpm);
    fpmd_offload_enable(f.rib, o.settings.fib_suppression.value != 0);
    f.db = fpmd_db_create(o.db_remote, f.rib, &o.settings);
    VLOG_INFO("fpmsyncd starting: database %s, FPM %s", o.db_remote,
              fpmd_fpm_get_listen_name(f.fpm));

    while (!f.exiting) {
        memory_run();
        if (memory_should_report()) {
            memory_report_rib(&f);
        }
        unixctl_server_run(unixctl);
        if (fpmd_db_run(f.db)) {
            fpmd_fpm_listen(f.fpm);
        }
        if (!f.zmq && o.settings.path.chosen && o.settings.path.zmq) {
            /* Decided on the command line, or by the first Global row. */
            zmq_start(&f);
        }
        /* Flush right after the replies, before reading more from zebra,
         * so that ovsdb-server never waits for fpmsyncd to parse; but on
         * the fast path, not while zebra streams (fpmd_db_hold()). */
        fpmd_db_hold(f.db, f.zmq && fpmd_fpm_is_streaming(f.fpm));
        fpmd_db_flush(f.db);
        fpmd_fpm_run(f.fpm);
        if (f.zmq) {
            fpmd_zmq_run(f.zmq);
        }
        fpmd_db_hold(f.db, f.zmq && fpmd_fpm_is_streaming(f.fpm));
        fpmd_db_flush(f.db);

        memory_wait();
        unixctl_server_wait(unixctl);
        fpmd_db_wait(f.db);
        fpmd_fpm_wait(f.fpm);
        if (f.zmq) {
            fpmd_zmq_wait(f.zmq);
        }
        if (f.exiting) {
            poll_immediate_wake();
        }
        poll_block();
    }

    VLOG_INFO("fpmsyncd exiting (%"PRIuSIZE" rows pending, %"PRIuSIZE
              " operations in flight)", fpmd_rib_n_pending(f.rib),
              fpmd_rib_n_inflight_ops(f.rib));
    fpmd_zmq_destroy(f.zmq);
    fpmd_fpm_destroy(f.fpm);
    fpmd_db_destroy(f.db);
    unixctl_server_destroy(unixctl);
    fpmd_rib_destroy(f.rib);
    fpmd_options_destroy(&o);
    service_stop();
    return 0;
}

