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

/* fpmsyncd's unixctl commands (daemons/fpmsyncd/fpmsyncd-unixctl.h). */

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-unixctl.h"

#include <inttypes.h>

#include "daemons/fpmsyncd/fpmsyncd-db.h"
#include "daemons/fpmsyncd/fpmsyncd-fpm.h"
#include "daemons/fpmsyncd/fpmsyncd-status.h"
#include "daemons/fpmsyncd/fpmsyncd-zmq.h"
#include "lib/global-follower.h"
#include "lib/perf-timer.h"
#include "lib/setting.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/poll-loop.h"
#include "svec.h"
#include "unixctl.h"
#include "util.h"

/* fpm/show: the connections, the rib, the flushes, the replay. */
static void
fpmd_unixctl_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                  const char *argv[] OVS_UNUSED, void *f_)
{
    struct fpmsyncd *f = f_;
    struct ds s = DS_EMPTY_INITIALIZER;

    fpmd_fpm_format(f->fpm, &s);
    fpmd_db_format(f->db, &s);
    fpmd_fpm_format_replay(f->fpm, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* fpm/reconcile: ends zebra's replay window now. */
static void
fpmd_unixctl_reconcile(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[] OVS_UNUSED, void *f_)
{
    struct fpmsyncd *f = f_;

    switch (fpmd_fpm_reconcile(f->fpm)) {
    case FPMD_FPM_NOT_ARMED:
        unixctl_command_reply_error(conn, "no reconciliation pending (zebra "
                                    "has not connected since the last "
                                    "one)");
        break;
    case FPMD_FPM_RECONCILE_LATER:
        unixctl_command_reply(conn, "reconciliation will run once the "
                              "database is read");
        break;
    case FPMD_FPM_RECONCILED:
        unixctl_command_reply(conn, NULL);
        break;
    }
}

/* features/show: the settings in force and where they came from. */
static void
fpmd_unixctl_features(struct unixctl_conn *conn, int argc OVS_UNUSED,
                      const char *argv[] OVS_UNUSED, void *f_)
{
    const struct fpmsyncd *f = f_;
    const struct fpmd_settings *st = f->settings;
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_format(&s, "batch_size: %"PRId64" (%s)\n", st->batch_size.value,
                  setting_source_name(st->batch_size.source));
    ds_put_format(&s, "reconcile_timer: %"PRId64" s (%s)\n",
                  st->reconcile_timer.value,
                  setting_source_name(st->reconcile_timer.source));
    ds_put_format(&s, "fib_suppression: %s (%s)\n",
                  st->fib_suppression.value ? "on" : "off",
                  setting_source_name(st->fib_suppression.source));
    ds_put_format(&s, "resolve_nexthops: %s (%s)\n",
                  st->resolve_nexthops.value ? "on" : "off",
                  setting_source_name(st->resolve_nexthops.source));
    ds_put_format(&s, "flush_threshold: %d\nflush_interval: %d ms\n"
                  "max_inflight: %d\nmax_pending: %"PRIuSIZE"\n",
                  st->flush_threshold, st->flush_interval, st->max_inflight,
                  fpmd_settings_max_pending(st));
    ds_put_format(&s, "northbound_zmq: %s (%s)\n",
                  st->northbound_zmq.value ? "on" : "off",
                  setting_source_name(st->northbound_zmq.source));
    if (!st->path.chosen) {
        ds_put_cstr(&s, "northbound: undecided (Global not read yet)\n");
    } else {
        bool zmq = st->path.zmq;

        ds_put_format(&s, "northbound: %s", zmq ? "zmq" : "ovsdb");
        for (size_t i = 0; zmq && i < f->nb_endpoints->n; i++) {
            ds_put_format(&s, "%s%s", i ? ", " : " ",
                          f->nb_endpoints->names[i]);
        }
        ds_put_format(&s, "%s\n", global_follower_path_outdated(
                          &st->path, &st->northbound_zmq)
                      ? " until fpmsyncd restarts" : "");
    }
    ds_put_format(&s, "zmq_max_pending: %d\nzmq_frame_routes: %d\n",
                  st->zmq_max_pending, st->zmq_frame_routes);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* zmq/show: the northbound channel, its queue and stalls, the
 * Route.status writes behind orchd's results, and the database writer's
 * backlog. */
static void
fpmd_unixctl_zmq_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                      const char *argv[] OVS_UNUSED, void *f_)
{
    const struct fpmsyncd *f = f_;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (f->zmq) {
        fpmd_zmq_format(f->zmq, &s);
        fpmd_status_format(f->rib, &s);
    } else {
        ds_put_format(&s, "northbound: %s\n",
                      !f->settings->path.chosen
                      ? "undecided (Global not read yet)"
                      : "ovsdb (ZeroMQ off)");
    }
    fpmd_db_format_backlog(f->db, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
fpmd_unixctl_exit(struct unixctl_conn *conn, int argc OVS_UNUSED,
                  const char *argv[] OVS_UNUSED, void *f_)
{
    struct fpmsyncd *f = f_;

    f->exiting = true;
    poll_immediate_wake();      /* The main loop tests it after waking. */
    unixctl_command_reply(conn, NULL);
}

/* Creates the control socket and registers fpmsyncd's commands for 'f'. */
struct unixctl_server *
fpmd_unixctl_start(const char *path, struct fpmsyncd *f)
{
    struct unixctl_server *unixctl;
    int error = unixctl_server_create(path, &unixctl);

    if (error) {
        ovs_fatal(error, "%s: could not create unixctl socket", path);
    }
    unixctl_command_register("fpm/show", "", 0, 0, fpmd_unixctl_show, f);
    unixctl_command_register("fpm/reconcile", "", 0, 0,
                             fpmd_unixctl_reconcile, f);
    unixctl_command_register("features/show", "", 0, 0,
                             fpmd_unixctl_features, f);
    unixctl_command_register("zmq/show", "", 0, 0, fpmd_unixctl_zmq_show, f);
    unixctl_command_register("exit", "", 0, 0, fpmd_unixctl_exit, f);
    perf_timer_register_unixctl();
    return unixctl;
}
