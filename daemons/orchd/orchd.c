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
 * orchd: turns the routes in OVSDB into SAI route entries, in bulks.
 *
 * orchd takes its routes from a route source (orchd-source.h: its IDL
 * replica of Route, the database file and a monitor of Route's changes,
 * or fpmsyncd over ZeroMQ), resolves each route's next hops into one
 * SAI-shaped entry (orchd-resolve.h), and hands the entries to its worker
 * (orchd-worker.h), which writes them into Asic_Route in bulks, where
 * syncd programs them and acknowledges each write, or on the southbound
 * fast path sends them to syncd over ZeroMQ (orchd-southbound.h).
 * Acknowledged entries go into a read cache; with FIB suppression on, each
 * route's status goes back into Route.status.  This file holds main() and
 * its loops; see "orchd --help".
 */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "daemons/orchd/orchd-asic-acks.h"
#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-cache.h"
#include "daemons/orchd/orchd-core.h"
#include "daemons/orchd/orchd-options.h"
#include "daemons/orchd/orchd-replica.h"
#include "daemons/orchd/orchd-seed.h"
#include "daemons/orchd/orchd-show.h"
#include "daemons/orchd/orchd-source.h"
#include "daemons/orchd/orchd-southbound.h"
#include "daemons/orchd/orchd-status.h"
#include "daemons/orchd/orchd-unixctl.h"
#include "daemons/orchd/orchd-worker.h"
#include "fatal-signal.h"
#include "idl/fibsync-idl.h"
#include "idl/fibsync-ondemand.h"
#include "idl/idl-ondemand.h"
#include "lib/fibsync-instance.h"
#include "lib/global-follower.h"
#include "lib/perf-timer.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovsdb-idl.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd);

/* Reads the Global row into the features and hands the worker what
 * follows from them. */
static void
follow_global(struct orchd *o)
{
    struct orchd_bulker_config cfg;

    o->global_seqno = global_follower_seqno(o->global);
    orchd_options_read_global(o->opts, o->global);
    orchd_options_bulker_config(o->opts, &cfg);
    orchd_worker_set_config(o->worker, &cfg);
    orchd_worker_want_results(o->worker, orchd_options_feature(
                                  o->opts, ORCHD_F_FIB_SUPPRESSION));
}

/* Starts following the Global row and waits for its first contents,
 * serving 'unixctl' (its "exit" included) meanwhile, then fixes the paths
 * from them and the command line: orchd's replica can then ask for the
 * large tables those paths need and no other (orchd-replica.h). */
static void
choose_paths(struct orchd *o, struct unixctl_server *unixctl)
{
    o->global = global_follower_create(o->opts->db_remote, NULL);
    while (!o->exiting) {
        global_follower_run(o->global);
        unixctl_server_run(unixctl);
        if (global_follower_has_read(o->global)) {
            break;
        }
        global_follower_wait(o->global);
        unixctl_server_wait(unixctl);
        poll_block();
    }
    o->global_seqno = global_follower_seqno(o->global);
    orchd_options_read_global(o->opts, o->global);
    /* A schema before 1.5.0 has no Write_Mark table: a mark in a bulk's
     * transaction would have the server refuse the whole bulk. */
    o->db_has_marks = global_follower_has_table(o->global, "Write_Mark");
    orchd_southbound_choose(&o->opts->sb);
}

/* orchd_asic_ack_cb: passes syncd's acknowledgement on to the worker
 * (which ignores a stale one). */
static void
asic_ack(void *o_, const struct uuid *uuid, int64_t applied_seq, bool ok,
         const char *error)
{
    struct orchd *o = o_;

    orchd_worker_ack(o->worker, uuid, applied_seq, ok, error);
}

/* orchd_asic_oldest_cb: where a read of missed acknowledgements may
 * begin. */
static int64_t
asic_oldest_unacked(void *o_)
{
    struct orchd *o = o_;

    return orchd_worker_oldest_unacked_seq(o->worker);
}

/* Creates the parts of 'o': the worker, configured from the Global row
 * that choose_paths() read (again at the end of start(), from what the
 * follower has then), then the route source, which may need it. */
static void
create_parts(struct orchd *o)
{
    const struct orchd_options *opts = o->opts;
    struct perf_timer_options popts;
    struct orchd_bulker_config cfg;
    char *mark_writer;

    o->idl = ovsdb_idl_create(opts->db_remote, &fibrec_idl_class, false,
                              true);
    ovsdb_cs_retry_init(&o->idl_retry, opts->db_remote);
    ovsdb_idl_set_probe_interval(o->idl, 0);
    o->cache = orchd_cache_create(opts->instance);
    orchd_options_bulker_config(opts, &cfg);
    mark_writer = (o->db_has_marks
                   ? fibsync_instance_name("orchd", opts->instance) : NULL);
    o->worker = orchd_worker_create(opts->db_remote, mark_writer,
                                    opts->instance, &cfg, o->cache,
                                    orchd_southbound_choose(&o->opts->sb));
    free(mark_writer);
    orchd_worker_want_results(o->worker, orchd_options_feature(
                                  opts, ORCHD_F_FIB_SUPPRESSION));
    o->source = orchd_source_create(o);
    if (!orchd_southbound_enabled(&opts->sb)) {
        o->acks = orchd_asic_acks_create(opts->db_remote, opts->instance,
                                         opts->asic_read_slice, asic_ack,
                                         asic_oldest_unacked, o);
    }
    if (opts->instance) {
        orchd_status_mute(o->status);
    }
    /* "show ip route" answers from the source's indexes; the counters it
     * shows in "detail" are fetched on demand. */
    fibrec_ondemand_init(o->idl, opts->db_remote);
    if (opts->use_route_index) {
        struct orchd_show_source *ss = orchd_source_show_source(o->source);

        o->show = ss ? orchd_show_create(ss, o->cache) : NULL;
    }
    perf_timer_options_init(&popts);
    popts.module = &this_module;
    o->drain_timer = perf_timer_create("DRAIN", &popts);
    perf_timer_register_unixctl();
    orchd_show_register_cache_commands(o->cache);
    orchd_unixctl_register(o);
}

/* Waits for the first copy of the database, Route's rows widened in steps
 * (orchd-replica.h), reading Asic_Route meanwhile ('seed'): at a million
 * routes ovsdb-server composes the read's slices while orchd takes in its
 * Route replica.  The acknowledgements' monitor must have begun before
 * Asic_Route is read, and is run again only once the read is over
 * (orchd-asic-acks.h).  Then the source's initial sync. */
static void
start(struct orchd *o, struct unixctl_server *unixctl,
      struct orchd_seed *seed)
{
    const struct orchd_source_class *class = o->source->class;

    while (!o->exiting) {
        bool acks_ready = !o->acks || orchd_asic_acks_is_ready(o->acks);
        bool source_ready = orchd_source_start_run(o->source);

        ovsdb_idl_run(o->idl);
        global_follower_run(o->global);
        /* The initial sync reads every row, so the changes tracked until
         * then say nothing to anyone; and OVS 3.1's IDL walks every
         * tracked row at each ovsdb_idl_run()
         * (ovsdb_idl_row_destroy_postprocess()): kept through a replica
         * taken in by steps, they made the start quadratic. */
        ovsdb_idl_track_clear(o->idl);
        if (!acks_ready) {
            /* Once the monitor is ready, what it hears waits until the
             * read is over (run() takes it in): an acknowledgement passed
             * on before the read has seeded its row would be lost. */
            orchd_asic_acks_run(o->acks);
            acks_ready = orchd_asic_acks_is_ready(o->acks);
        }
        if (acks_ready && !class->seeds_itself) {
            orchd_seed_run(seed);
        }
        unixctl_server_run(unixctl);
        if (orchd_replica_widen(o->widening, o->idl) && acks_ready
            && source_ready) {
            break;
        }
        ovsdb_idl_wait(o->idl);
        global_follower_wait(o->global);
        orchd_source_start_wait(o->source);
        if (!acks_ready) {
            orchd_asic_acks_wait(o->acks);
        } else if (!class->seeds_itself) {
            orchd_seed_wait(seed);
        }
        unixctl_server_wait(unixctl);
        poll_block();
    }
    follow_global(o);
    if (!o->exiting) {
        class->initial_sync(o->source, seed, unixctl);
    }
}

/* Sends the worker what changed in the replica since the last call: VRFs
 * before the routes of the same transaction, then what the source takes
 * from the replica. */
static void
process_changes(struct orchd *o)
{
    size_t n;

    perf_timer_start(o->drain_timer);
    orchd_source_read_vrfs(o->source, false);
    n = orchd_source_idl_changed(o->source);
    ovsdb_idl_track_clear(o->idl);
    perf_timer_inc(o->drain_timer, n);
    perf_timer_pause(o->drain_timer);
}

/* The main loop, until "exit": follows Global, feeds the worker the
 * source's routes, runs the fast path and the commands. */
static void
run(struct orchd *o, struct unixctl_server *unixctl)
{
    unsigned int idl_seqno = ovsdb_idl_get_seqno(o->idl);

    while (!o->exiting) {
        struct ovs_list results = OVS_LIST_INITIALIZER(&results);

        ovsdb_cs_retry_run_idl(&o->idl_retry, o->idl);
        ovsdb_idl_run(o->idl);
        orchd_replica_follow(o->widening, o->idl);
        global_follower_run(o->global);
        if (global_follower_seqno(o->global) != o->global_seqno) {
            follow_global(o);
        }
        if (ovsdb_idl_get_seqno(o->idl) != idl_seqno) {
            idl_seqno = ovsdb_idl_get_seqno(o->idl);
            process_changes(o);
        }
        if (orchd_replica_reconcile(o->widening, o->idl)) {
            orchd_source_reconcile(o->source);
        }
        if (o->acks) {
            /* Acknowledgements first: they free room in the window. */
            orchd_asic_acks_run(o->acks);
        }
        orchd_source_run(o->source);
        orchd_worker_run(o->worker);
        orchd_worker_take_results(o->worker, &results);
        orchd_source_results(o->source, &results);
        idl_ondemand_run(o->idl);
        unixctl_server_run(unixctl);
        if (o->show) {
            orchd_show_run(o->show);
        }
        perf_timer_run(o->drain_timer);

        ovsdb_idl_wait(o->idl);
        ovsdb_cs_retry_wait(&o->idl_retry);
        global_follower_wait(o->global);
        if (o->acks) {
            orchd_asic_acks_wait(o->acks);
        }
        orchd_source_wait(o->source);
        orchd_worker_wait(o->worker);
        if (o->widening->done) {
            orchd_status_wait(o->status);
        }
        perf_timer_wait(o->drain_timer);
        idl_ondemand_wait(o->idl);
        if (o->show) {
            orchd_show_wait(o->show);
        }
        unixctl_server_wait(unixctl);
        poll_block();
    }
}

/* Reads the database, starts the worker, and feeds it changes until
 * "exit"; then drains. */
int
main(int argc, char *argv[])
{
    struct orchd_replica_widening widening;
    struct orchd_options opts;
    struct unixctl_server *unixctl;
    struct orchd_seed seed;
    struct orchd o;
    int retval;

    set_program_name(argv[0]);
    service_start(&argc, &argv);
    fatal_ignore_sigpipe();
    orchd_options_parse(&opts, argc, argv);

    daemonize_start(false);
    if (!opts.unixctl_path) {
        opts.unixctl_path = fibsync_instance_ctl_path("orchd",
                                                      opts.instance);
    }
    retval = unixctl_server_create(opts.unixctl_path, &unixctl);
    if (retval) {
        exit(EXIT_FAILURE);
    }
    daemonize_complete();

    memset(&o, 0, sizeof o);
    memset(&widening, 0, sizeof widening);
    o.opts = &opts;
    orchd_entry_space_init(&o.entries, opts.instance);
    o.widening = &widening;
    sset_init(&o.vrfs);
    orchd_unixctl_register_exit(&o);
    choose_paths(&o, unixctl);
    create_parts(&o);

    orchd_seed_init(&seed, &o, o.source->class->keeps_seed_rows);
    start(&o, unixctl, &seed);
    orchd_seed_destroy(&seed);
    orchd_worker_start(o.worker,
                       orchd_options_feature(&opts, ORCHD_F_RING),
                       orchd_options_feature(&opts, ORCHD_F_BATCH) * 64);

    run(&o, unixctl);

    /* Drain before exit: every queued task runs.  fib/show's source goes
     * before the routes it reads. */
    orchd_show_destroy(o.show);
    orchd_source_destroy(o.source);
    orchd_worker_destroy(o.worker);
    orchd_asic_acks_destroy(o.acks);
    orchd_status_destroy(o.status);
    sset_destroy(&o.vrfs);
    perf_timer_destroy(o.drain_timer);
    orchd_cache_destroy(o.cache);
    fibrec_ondemand_destroy(o.idl);
    ovsdb_idl_destroy(o.idl);
    ovsdb_cs_retry_destroy(&o.idl_retry);
    global_follower_destroy(o.global);
    unixctl_server_destroy(unixctl);
    orchd_entry_space_destroy(&o.entries);
    orchd_options_destroy(&opts);
    service_stop();
    return 0;
}
