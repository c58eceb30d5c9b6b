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

/* syncd-db: syncd's OVSDB path (see daemons/syncd/syncd-db.h): its
 * monitor, the queue of updates processed a bounded number of rows
 * at a time, and the apply step's outcomes.  The read of Asic_Route is in
 * syncd-db-read.c, what a row change does in syncd-db-update.c. */

#include <config.h>

#include "daemons/syncd/syncd-db.h"
#include "daemons/syncd/syncd-db-private.h"

#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "coverage.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-marks.h"
#include "daemons/syncd/syncd-rows.h"
#include "daemons/syncd/syncd-writeback.h"
#include "lib/fib-prefix.h"
#include "lib/ovsdb-cs-retry.h"
#include "lib/ovsdb-slice-reader.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "smap.h"
#include "sset.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"
#include "uuidset.h"

VLOG_DEFINE_THIS_MODULE(syncd_db);

COVERAGE_DEFINE(syncd_db_update);
COVERAGE_DEFINE(syncd_db_other_instance);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* Drops from 'du' the Asic_Route row changes of ASIC instances other than
 * 'db''s.  syncd monitors with the "monitor" method (version 1), whose
 * modifications carry whole rows, because it keeps no replica to apply
 * the column diffs of "monitor_cond" to; that method has no "where", so
 * the rows of every instance arrive and are told apart here, by their
 * "instance" column, before anything else reads them. */
static void
select_instance(const struct syncd_db *db, struct ovsdb_cs_db_update *du)
{
    for (size_t t = 0; t < du->n; t++) {
        struct ovsdb_cs_table_update *tu = &du->table_updates[t];
        size_t n = 0;

        if (strcmp(tu->table_name, SYNCD_DB_TABLE)) {
            continue;
        }
        for (size_t i = 0; i < tu->n; i++) {
            const struct ovsdb_cs_row_update *ru = &tu->row_updates[i];
            const struct json *v = (ru->columns
                                    ? shash_find_data(ru->columns,
                                                      "instance")
                                    : NULL);
            int64_t instance = 0;

            if (v && !ovsdb_wire_get_integer(v, &instance)) {
                instance = -1;
            }
            if (instance == db->instance) {
                tu->row_updates[n++] = *ru;
            } else {
                COVERAGE_INC(syncd_db_other_instance);
            }
        }
        tu->n = n;
    }
}

/* Queues update event 'event' (taking it). */
static void
queue_update(struct syncd_db *db, struct ovsdb_cs_event *event)
{
    struct ovsdb_cs_update_event *u = &event->update;
    struct ovsdb_cs_db_update *du;

    du = ovsdb_wire_parse_update(u, "Asic_Route monitor");
    if (!du) {
        ovsdb_cs_event_destroy(event);
        return;
    }

    select_instance(db, du);

    struct sdb_event *ev = xzalloc(sizeof *ev);
    ev->event = event;
    ev->du = du;
    ev->tu = ovsdb_cs_db_update_find_table(du, SYNCD_DB_TABLE);
    ev->vrf_tu = ovsdb_cs_db_update_find_table(du, "Vrf");
    ev->mark_tu = ovsdb_cs_db_update_find_table(du, "Write_Mark");
    ev->clear = u->clear;
    ovs_list_push_back(&db->events, &ev->node);
    db->backlog += ev->tu ? ev->tu->n : 0;
    db->stats.updates++;
    COVERAGE_INC(syncd_db_update);
}

/* The monitor request: the Asic_Route columns syncd reads, never those it
 * writes, the Vrf names it checks them against and the Write_Mark rows
 * (when the schema has them: 1.5.0 on).  Global is syncd's follower's
 * (lib/global-follower.h).
 * Asic_Route's rows are read in slices instead of coming as the monitor's
 * first contents (see "Reading" in syncd-db.h). */
static struct json *
compose_monitor_requests(const struct json *schema, void *db_)
{
    struct syncd_db *db = db_;
    bool has_marks = ovsdb_wire_schema_has_table(schema, "Write_Mark");
    struct json *requests;

    syncd_writeback_allow_marks(db->wb, has_marks);
    requests = json_from_string(
        "{\""SYNCD_DB_TABLE"\":[{\"columns\":[\"instance\",\"vrf\","
        "\"prefix\",\"packet_action\",\"nexthops\",\"seq\"],"
        "\"select\":{\"initial\":false}}],"
        "\"Vrf\":[{\"columns\":[\"name\"]}]}");
    if (has_marks) {
        json_object_put(requests, "Write_Mark", json_from_string(
                            "[{\"columns\":[\"writer\",\"epoch\","
                            "\"txn\"]}]"));
    }
    return requests;
}

static const struct ovsdb_cs_ops cs_ops = {
    .compose_monitor_requests = compose_monitor_requests,
};

/* Reads the monitor, unless a backlog is waiting (then the server keeps
 * and coalesces further changes). */
static void
monitor_run(struct syncd_db *db)
{
    struct ovs_list events;

    if (db->backlog >= db->budget) {
        return;
    }
    ovsdb_cs_retry_run_cs(&db->retry, db->cs);
    ovsdb_cs_run(db->cs, &events);

    struct ovsdb_cs_event *event;
    LIST_FOR_EACH_POP (event, list_node, &events) {
        switch (event->type) {
        case OVSDB_CS_EVENT_TYPE_RECONNECT:
            db->stats.reconnects++;
            VLOG_INFO("%s: monitor connecting", db->remote);
            ovsdb_cs_event_destroy(event);
            break;
        case OVSDB_CS_EVENT_TYPE_UPDATE:
            queue_update(db, event);
            break;
        case OVSDB_CS_EVENT_TYPE_LOCKED:
        case OVSDB_CS_EVENT_TYPE_TXN_REPLY:
        default:
            ovsdb_cs_event_destroy(event);
            break;
        }
    }
}

/* Processes up to 'db->budget' row updates of the queued events. */
static void
process_events(struct syncd_db *db)
{
    size_t budget = db->budget;

    while (budget && !ovs_list_is_empty(&db->events)) {
        struct sdb_event *ev = CONTAINER_OF(ovs_list_front(&db->events),
                                            struct sdb_event, node);
        size_t n = ev->tu ? ev->tu->n : 0;

        if (!ev->started) {
            ev->started = true;
            syncd_db_process_vrfs(db, ev);
            syncd_db_process_marks(db, ev);
        }

        if (ev->phase == 0) {
            while (ev->cursor < n && budget) {
                if (syncd_db_process_row_phase0(
                        db, ev, &ev->tu->row_updates[ev->cursor])) {
                    budget--;
                }
                ev->cursor++;
            }
            if (ev->cursor < n) {
                break;
            }
            ev->phase = 1;
            ev->cursor = 0;
        }

        while (ev->cursor < n && budget) {
            syncd_db_process_row_phase1(db, ev,
                                        &ev->tu->row_updates[ev->cursor]);
            ev->cursor++;
            db->backlog--;
            budget--;
        }
        if (ev->cursor < n) {
            break;
        }

        if (ev->clear) {
            /* The monitor (re)started: what Asic_Route holds now is
             * read, and what the read and the monitor leave unseen
             * goes. */
            syncd_db_read_start(db);
        }
        ovs_list_remove(&ev->node);
        syncd_db_event_destroy(ev);
    }
    syncd_apply_flush(db->apply);
}

/* Returns true once the first contents of the Asic_Route monitor have been
 * processed. */
bool
syncd_db_initial_done(const struct syncd_db *db)
{
    return db->initial_done;
}

/* ---- Public interface --------------------------------------------------- */

/* Creates the OVSDB path: a monitor of 'options->remote' feeding 'apply',
 * whose result callback must be syncd_db_apply_result() with the returned
 * object. */
struct syncd_db *
syncd_db_create(const struct syncd_db_options *options,
                struct syncd_apply *apply)
{
    struct syncd_db *db = xzalloc(sizeof *db);

    db->apply = apply;
    db->remote = xstrdup(options->remote);
    db->budget = options->budget ? options->budget : 20000;
    db->read_slice = (options->read_slice ? options->read_slice
                      : SYNCD_DB_READ_SLICE);
    db->instance = options->instance;
    ovs_list_init(&db->events);
    syncd_rows_init(&db->rows);
    syncd_row_parsed_init(&db->parsed);
    smap_init(&db->vrfs);
    sset_init(&db->vrf_names);
    hmap_init(&db->held);
    uuidset_init(&db->gone);

    struct syncd_writeback_options wbo = {
        .remote = db->remote,
        .batch = options->wb_batch,
        .inflight = options->wb_inflight,
        .disabled = options->no_write_back,
        .instance = options->instance,
    };
    db->wb = syncd_writeback_create(&wbo, &db->rows);

    syncd_marks_init(&db->marks, options->instance);
    db->cs = ovsdb_cs_create(SYNCD_DB_NAME, 1, &cs_ops, db);
    ovsdb_cs_set_remote(db->cs, db->remote, true);
    ovsdb_cs_retry_init(&db->retry, db->remote);
    return db;
}

void
syncd_db_destroy(struct syncd_db *db)
{
    if (!db) {
        return;
    }

    struct sdb_event *ev;
    LIST_FOR_EACH_POP (ev, node, &db->events) {
        syncd_db_event_destroy(ev);
    }
    syncd_writeback_destroy(db->wb);
    syncd_rows_destroy(&db->rows);
    syncd_row_parsed_destroy(&db->parsed);
    smap_destroy(&db->vrfs);
    sset_destroy(&db->vrf_names);

    syncd_db_held_destroy(db);
    syncd_db_read_stop(db);
    uuidset_destroy(&db->gone);
    syncd_marks_destroy(&db->marks);
    ovsdb_cs_destroy(db->cs);
    ovsdb_cs_retry_destroy(&db->retry);
    free(db->remote);
    free(db);
}

/* Reads the monitor and the read of Asic_Route, processes a bounded
 * number of row changes (applying them), and writes outcomes back. */
void
syncd_db_run(struct syncd_db *db)
{
    monitor_run(db);
    process_events(db);
    syncd_db_read_run(db);
    syncd_apply_flush(db->apply);
    syncd_writeback_run(db->wb);
}

void
syncd_db_wait(struct syncd_db *db)
{
    if (db->backlog) {
        poll_immediate_wake();
    }
    if (db->backlog < db->budget) {
        ovsdb_cs_wait(db->cs);
        ovsdb_cs_retry_wait(&db->retry);
    }
    if (db->reader) {
        ovsdb_slice_reader_wait(db->reader);
    } else if (db->read_retry) {
        poll_timer_wait_until(db->read_retry);
    }
    syncd_writeback_wait(db->wb);
}

/* Is the monitor connected? */
bool
syncd_db_is_connected(const struct syncd_db *db)
{
    return ovsdb_cs_is_connected(db->cs);
}

/* Stores in '*stats' the counters of 'db', all zero if 'db' is NULL (the
 * southbound fast path programs the routes). */

void
syncd_db_get_stats(const struct syncd_db *db, struct syncd_db_stats *stats)
{
    struct syncd_writeback_stats ws;

    if (!db) {
        memset(stats, 0, sizeof *stats);
        return;
    }
    syncd_writeback_get_stats(db->wb, &ws);
    *stats = db->stats;
    stats->rows = hmap_count(&db->rows.rows);
    stats->in_sync = db->rows.n_in_sync;
    stats->bad_rows = db->rows.n_bad;
    stats->held = hmap_count(&db->held);
    stats->vrfs = sset_count(&db->vrf_names);
    stats->reading = db->reader != NULL;
    stats->backlog = db->backlog;
    stats->wb_pending = db->rows.n_wb_pending;
    stats->wb_inflight_rows = ws.inflight_rows;
    stats->wb_inflight_txns = ws.inflight_txns;
    stats->wb_txns = ws.txns;
    stats->wb_rows = ws.rows;
    stats->wb_acked = ws.acked;
    stats->wb_errors = ws.errors;
}

/* Records the outcome of an operation that this module submitted. */
void
syncd_db_apply_result(const struct syncd_route_result *r, void *db_)
{
    struct syncd_db *db = db_;

    if (r->type == SYNCD_OP_DEL) {
        if (r->status) {
            char buf[FIB_PREFIX_STRLEN];

            fib_prefix_format(r->prefix, buf);
            VLOG_WARN_RL(&rl, "removing %s failed: %s (will retry)", buf,
                         sai_util_status_name(r->status));
        }
        return;
    }

    struct syncd_row *row = syncd_rows_find(&db->rows, r->origin);
    if (!row || row->seq != r->seq
        || row->flags & (SYNCD_ROW_BAD | SYNCD_ROW_NO_ROUTE)
        || !fib_prefix_equals(&row->prefix, r->prefix)) {
        /* Stale: the row changed or went away since. */
        return;
    }

    unsigned int code = syncd_status_code(r->status);
    if (!code) {
        db->stats.results_ok++;
        if (row->flags & SYNCD_ROW_IN_SYNC) {
            syncd_db_count_wb_skipped(db);
            return;
        }
    } else {
        char buf[FIB_PREFIX_STRLEN];

        db->stats.results_error++;
        fib_prefix_format(r->prefix, buf);
        VLOG_WARN_RL(&rl, "%s %s: %s",
                     syncd_rows_vrf_name(&db->rows, row->vrf), buf,
                     sai_util_status_name(r->status));
    }
    syncd_writeback_mark(db->wb, row, code);
}
