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
 * orchd-unixctl: orchd's own unixctl commands (orchd-unixctl.h).
 */

#include <config.h>

#include "daemons/orchd/orchd-unixctl.h"

#include "daemons/orchd/orchd-asic-acks.h"
#include "daemons/orchd/orchd-core.h"
#include "daemons/orchd/orchd-options.h"
#include "daemons/orchd/orchd-replica.h"
#include "daemons/orchd/orchd-source.h"
#include "daemons/orchd/orchd-southbound.h"
#include "daemons/orchd/orchd-status.h"
#include "daemons/orchd/orchd-verify.h"
#include "daemons/orchd/orchd-worker.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/poll-loop.h"
#include "ovsdb-idl.h"
#include "unixctl.h"
#include "util.h"

/* "exit": makes main() drain the worker and exit. */
static void
orchd_unixctl_exit(struct unixctl_conn *conn, int argc OVS_UNUSED,
                   const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;

    o->exiting = true;
    /* The loops test 'exiting' after poll_block(): without a wake-up, a
     * quiet orchd would wait for its next event to exit. */
    poll_immediate_wake();
    unixctl_command_reply(conn, NULL);
}

/* Replies with an error and returns false if orchd has not read the
 * database yet: until then there is no worker to ask. */
static bool
orchd_ready(struct orchd *o, struct unixctl_conn *conn)
{
    if (!o->worker || !o->synced) {
        unixctl_command_reply_error(conn, "orchd is still reading the "
                                    "database; try again");
        return false;
    }
    return true;
}

/* Compares the read cache with the routes orchd holds, resolved as orchd
 * would (the source walks them), and reports every difference.  (orchd
 * keeps no replica of Asic_Route: route-check compares it.) */
static void
orchd_unixctl_cache_verify(struct unixctl_conn *conn, int argc OVS_UNUSED,
                           const char *argv[] OVS_UNUSED, void *o_)
{
    const struct orchd_source_class *class;
    struct orchd *o = o_;
    struct orchd_verify v;
    const char *error;

    if (!orchd_ready(o, conn)) {
        return;
    }
    class = o->source->class;
    if (!class->verify) {
        unixctl_command_reply_error(conn, "this route source keeps no "
                                    "routes to compare: use route-check");
        return;
    }
    orchd_worker_drain(o->worker);
    orchd_verify_init(&v, o->cache);
    error = class->verify(o->source, &v);
    if (error) {
        unixctl_command_reply_error(conn, error);
    } else {
        orchd_verify_finish(&v, !orchd_worker_is_idle(o->worker));
        unixctl_command_reply(conn, ds_cstr(&v.out));
    }
    orchd_verify_destroy(&v);
}

/* "features/show": each tunable, its value and where the value came
 * from. */
static void
orchd_unixctl_features_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                            const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;
    bool ring;

    if (!orchd_ready(o, conn)) {
        return;
    }
    orchd_options_format_features(o->opts, &s);
    ring = orchd_worker_uses_ring(o->worker);
    if (orchd_options_feature(o->opts, ORCHD_F_RING) != ring) {
        ds_put_format(&s, "note: ring_thread is %s until orchd restarts\n",
                      ring ? "on" : "off");
    }
    orchd_source_format_features(o->source, &s);
    orchd_southbound_format_features(&o->opts->sb, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* "zmq/show": the fast path's channels (northbound, southbound), their
 * queues, and the worker's Asic_Route writer. */
static void
orchd_unixctl_zmq_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (orchd_ready(o, conn)) {
        orchd_source_format_zmq(o->source, &s);
        orchd_worker_format_southbound(o->worker, &s);
        orchd_worker_format(o->worker, &s);
        unixctl_command_reply(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

/* "ring/show": the task ring's state and counters. */
static void
orchd_unixctl_ring_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                        const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (!orchd_ready(o, conn)) {
        return;
    }
    orchd_worker_format_ring(o->worker, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* "orchd/status": the connection, the counters of orchd and of its
 * worker. */
static void
orchd_unixctl_status(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (!orchd_ready(o, conn)) {
        return;
    }
    ds_put_format(&s, "database: %s\n",
                  ovsdb_idl_is_connected(o->idl) ? "connected"
                                                 : "not connected");
    /* Synced: reconciled at start, and holding every Route row (after a
     * lost connection the replica comes back in steps). */
    ds_put_format(&s, "synced: %s, idle: %s\n",
                  (o->synced && o->widening->done
                   && orchd_source_is_synced(o->source)) ? "yes" : "no",
                  orchd_worker_is_idle(o->worker) ? "yes" : "no");
    if (o->widening->routes) {
        orchd_replica_format(o->widening, &s);
    }
    orchd_source_format_status(o->source, &s);
    ds_put_format(&s, "route updates: %"PRIu64", deletes: %"PRIu64
                  ", malformed: %"PRIu64", waiting for a group: %"PRIu64
                  "\n", o->n_updates, o->n_deletes, o->n_bad,
                  o->n_unresolved);
    if (o->acks) {
        struct orchd_asic_acks_stats as;

        orchd_asic_acks_get_stats(o->acks, &as);
        ds_put_format(&s, "syncd acks: %"PRIu64" (%"PRIu64" read again), "
                      "other instances' %"PRIu64", monitor restarts %"
                      PRIu64"%s\n", as.acks, as.reread_acks,
                      as.other_instance, as.restarts,
                      as.rereading ? ", reading Asic_Route again" : "");
    }
    orchd_status_format(o->status, &s);
    orchd_worker_format(o->worker, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* Registers "exit", which the start-up serves too. */
void
orchd_unixctl_register_exit(struct orchd *o)
{
    unixctl_command_register("exit", "", 0, 0, orchd_unixctl_exit, o);
}

/* Registers the other commands. */
void
orchd_unixctl_register(struct orchd *o)
{
    unixctl_command_register("cache/verify", "", 0, 0,
                             orchd_unixctl_cache_verify, o);
    unixctl_command_register("features/show", "", 0, 0,
                             orchd_unixctl_features_show, o);
    unixctl_command_register("ring/show", "", 0, 0,
                             orchd_unixctl_ring_show, o);
    unixctl_command_register("zmq/show", "", 0, 0,
                             orchd_unixctl_zmq_show, o);
    unixctl_command_register("orchd/status", "", 0, 0,
                             orchd_unixctl_status, o);
}
