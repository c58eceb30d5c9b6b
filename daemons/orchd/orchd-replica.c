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
 * orchd-replica: what orchd replicates of the Fibsync database.
 */

#include <config.h>

#include "daemons/orchd/orchd-replica.h"

#include <string.h>

#include "idl/fibsync-idl.h"
#include "lib/route-key.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovsdb-idl.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_replica);

static void register_routes(struct ovsdb_idl *);
static void register_groups(struct ovsdb_idl *);

/* Registers the tables orchd reads, their columns tracked: Route and
 * Nexthop_Group only if 'routes'. */
static void
register_tables(struct ovsdb_idl *idl, enum orchd_replica_tables tables)
{
    ovsdb_idl_add_table(idl, &fibrec_table_vrf);
    ovsdb_idl_add_column(idl, &fibrec_vrf_col_name);
    ovsdb_idl_add_column(idl, &fibrec_vrf_col_table_id);

    if (tables == ORCHD_REPLICA_ROUTES) {
        register_routes(idl);
    }
    if (tables != ORCHD_REPLICA_SMALL) {
        register_groups(idl);
    }

    /* This adds every column of every table it tracks, those of the tables
     * not registered too: omit_table() takes them out again. */
    ovsdb_idl_track_add_all(idl);
}

/* Registers Route and Nexthop_Group. */
static void
register_routes(struct ovsdb_idl *idl)
{
    /* Route: never "counters" (on demand, written by syncd) nor
     * external_ids; "status" is written, not watched. */
    ovsdb_idl_add_table(idl, &fibrec_table_route);
    ovsdb_idl_add_column(idl, &fibrec_route_col_vrf);
    ovsdb_idl_add_column(idl, &fibrec_route_col_prefix);
    ovsdb_idl_add_column(idl, &fibrec_route_col_protocol);
    ovsdb_idl_add_column(idl, &fibrec_route_col_distance);
    ovsdb_idl_add_column(idl, &fibrec_route_col_metric);
    ovsdb_idl_add_column(idl, &fibrec_route_col_nexthops);
    ovsdb_idl_add_column(idl, &fibrec_route_col_nexthop_group);
    ovsdb_idl_add_column(idl, &fibrec_route_col_blackhole);
    ovsdb_idl_add_column(idl, &fibrec_route_col_status);
    ovsdb_idl_omit_alert(idl, &fibrec_route_col_status);
}

static void
register_groups(struct ovsdb_idl *idl)
{
    ovsdb_idl_add_table(idl, &fibrec_table_nexthop_group);
    ovsdb_idl_add_column(idl, &fibrec_nexthop_group_col_id);
    ovsdb_idl_add_column(idl, &fibrec_nexthop_group_col_members);
}

/* Takes every column of 'tc' out of the replica, so that the table is not
 * monitored at all. */
static void
omit_table(struct ovsdb_idl *idl, const struct ovsdb_idl_table_class *tc)
{
    for (size_t i = 0; i < tc->n_columns; i++) {
        ovsdb_idl_omit(idl, &tc->columns[i]);
    }
}

/* Sets Route's condition in 'idl' to step 'step' of the widening 'w': the
 * rows whose bucket lies in the first 'step' of 'w->n_steps' equal parts
 * of the range, every row at the last step.
 * Returns the condition sequence number at which 'idl' holds those rows
 * (ovsdb_idl_set_condition()); setting the same step again changes
 * nothing and returns where it stands. */
static unsigned int
set_step(const struct orchd_replica_widening *w, struct ovsdb_idl *idl,
         unsigned int step)
{
    struct ovsdb_idl_condition cond;
    unsigned int seqno;

    ovsdb_idl_condition_init(&cond);
    if (step < w->n_steps) {
        fibrec_route_add_clause_bucket(&cond, OVSDB_F_LT,
                                       (int64_t) step * ROUTE_KEY_N_BUCKETS
                                       / w->n_steps);
    } else {
        ovsdb_idl_condition_add_clause_true(&cond);
    }
    seqno = fibrec_route_set_condition(idl, &cond);
    ovsdb_idl_condition_destroy(&cond);
    return seqno;
}

/* Replicates the tables and columns orchd reads: Vrf always;
 * Nexthop_Group unless 'tables' is ORCHD_REPLICA_SMALL; Route only with
 * ORCHD_REPLICA_ROUTES, its rows in steps that orchd_replica_widen(),
 * starting with 'w', brings in.  Asic_Route never (orchd-replica.h).  A
 * table not replicated is not monitored at all.  Call before the first
 * ovsdb_idl_run(). */
void
orchd_replica_register(struct ovsdb_idl *idl,
                       enum orchd_replica_tables tables,
                       unsigned int n_steps, struct orchd_replica_widening *w)
{
    bool routes = tables == ORCHD_REPLICA_ROUTES;

    register_tables(idl, tables);
    if (!routes) {
        omit_table(idl, &fibrec_table_route);
    }
    if (tables == ORCHD_REPLICA_SMALL) {
        omit_table(idl, &fibrec_table_nexthop_group);
    }
    omit_table(idl, &fibrec_table_asic_route);

    memset(w, 0, sizeof *w);
    w->routes = routes;
    w->n_steps = MAX(1, MIN(n_steps, ORCHD_REPLICA_MAX_STEPS));
    if (routes) {
        w->step = 1;
        set_step(w, idl, w->step);
    }
}

/* Widens Route's condition in 'idl' by a step when the step before the
 * last one asked for has been answered, so that one step is always on its
 * way while 'idl' takes in the rows of another.  Returns true once 'idl'
 * holds its first copy of the database, with every row of Route.  Call
 * after each ovsdb_idl_run(): a step set here is sent by the next one. */
bool
orchd_replica_widen(struct orchd_replica_widening *w, struct ovsdb_idl *idl)
{
    unsigned int acked, expect;

    if (w->done || !ovsdb_idl_has_ever_connected(idl)
        || (w->rewound && !ovsdb_idl_is_connected(idl))) {
        return w->done;
    } else if (!w->routes) {
        w->done = true;
        return true;
    }

    acked = ovsdb_idl_get_condition_seqno(idl);
    if (w->rewound) {
        /* Reconnected: the first step is the condition monitored with if
         * the IDL reloads from scratch, and is otherwise still to be sent
         * as a change (orchd-replica.h). */
        w->rewound = false;
        if (set_step(w, idl, w->step) != acked) {
            VLOG_INFO("database reconnected with its history: Route kept "
                      "whole, not replicated again in steps");
            w->step = w->n_steps;
        } else {
            VLOG_INFO("database reconnected: Route replicated again in %u "
                      "steps", w->n_steps);
        }
    }
    if (!w->start) {
        w->start = time_msec();
    }
    expect = set_step(w, idl, w->step);
    if (w->step == w->n_steps) {
        if (expect == acked) {
            w->done = true;
            w->connected = true;    /* It has just been answered. */
            VLOG_INFO("Route replicated in %u steps, %lld ms after the "
                      "first", w->n_steps, time_msec() - w->start);
        }
    } else if (expect - acked <= 1) {
        /* At most the last step is on its way (after ovsdb_idl_run() a
         * step set is never still waiting to be sent while none is in
         * flight): ask for the next, which the IDL sends as soon as that
         * one is answered. */
        w->step++;
        VLOG_DBG("Route replica widened to step %u", w->step);
        set_step(w, idl, w->step);
    }
    return w->done;
}

/* Starts the widening 'w' of 'idl' again from its first step, for the
 * reload that follows a lost connection (orchd-replica.h);
 * orchd_replica_widen() then goes on once 'idl' is connected again. */
static void
start_again(struct orchd_replica_widening *w, struct ovsdb_idl *idl)
{
    if (!w->routes || w->n_steps < 2) {
        return;
    }
    w->step = 1;
    w->done = false;
    w->start = 0;
    w->rewound = true;
    w->n_rewinds++;
    set_step(w, idl, w->step);
}

/* Follows 'idl''s connection once its first copy of the database is
 * whole: starts the widening 'w' again from its first step when the
 * connection is lost, and widens it until the replica is whole again.
 * Call after each ovsdb_idl_run(). */
void
orchd_replica_follow(struct orchd_replica_widening *w, struct ovsdb_idl *idl)
{
    bool connected = ovsdb_idl_is_connected(idl);

    if (w->connected && !connected) {
        start_again(w, idl);
        w->reconcile_due = true;
        w->lost_seqno = ovsdb_idl_get_seqno(idl);
    }
    w->connected = connected;
    orchd_replica_widen(w, idl);
}

/* Returns true, once after each lost connection, when 'idl''s monitor has
 * been answered again and the replica is whole: the time to compare what
 * orchd programs with the replica (orchd-replica.h).  Call after
 * orchd_replica_follow(). */
bool
orchd_replica_reconcile(struct orchd_replica_widening *w,
                        struct ovsdb_idl *idl)
{
    if (!w->reconcile_due || !w->done || !ovsdb_idl_is_connected(idl)
        || ovsdb_idl_get_seqno(idl) == w->lost_seqno) {
        return false;
    }
    w->reconcile_due = false;
    w->n_reconciles++;
    return true;
}

/* Appends to 's' one line on where the widening 'w' stands. */
void
orchd_replica_format(const struct orchd_replica_widening *w, struct ds *s)
{
    ds_put_format(s, "Route replica: %s, step %u of %u, taken in again %u "
                  "time%s after a lost connection, reconciled %u time%s\n",
                  w->done ? "whole" : "widening", w->step, w->n_steps,
                  w->n_rewinds, w->n_rewinds == 1 ? "" : "s",
                  w->n_reconciles, w->n_reconciles == 1 ? "" : "s");
}
