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

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-db.h"
#include "daemons/fpmsyncd/fpmsyncd-db-private.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/fpmsyncd/fpmsyncd-db-monitors.h"
#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "daemons/fpmsyncd/fpmsyncd-status.h"
#include "daemons/fpmsyncd/fpmsyncd-txn.h"
#include "daemons/fpmsyncd/fpmsyncd-vrf.h"
#include "jsonrpc.h"
#include "lib/global-follower.h"
#include "lib/ovsdb-select-reader.h"
#include "lib/ovsdb-slice-reader.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-write-mark.h"
#include "lib/ovsdb-writer.h"
#include "lib/perf-timer.h"
#include "lib/route-batch.h"
#include "lib/route-key.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd_db);

COVERAGE_DEFINE(db_reconnect);
COVERAGE_DEFINE(db_read_kept);
COVERAGE_DEFINE(db_read_again);
COVERAGE_DEFINE(db_txn);
COVERAGE_DEFINE(db_txn_ops);
COVERAGE_DEFINE(db_txn_committed);
COVERAGE_DEFINE(db_txn_failed);

static void db_msg_cb(void *db_, const struct jsonrpc_msg *);
static void load_stop(struct fpmd_db *);
static void apply_fib_suppression_cb(void *db);

/* The Global columns fpmsyncd follows. */
static const char *const global_columns[] = {
    "batch_size", "fib_suppression", "reconcile_timer", "log_level",
    "other_config", "northbound_zmq", NULL
};

/* Creates the database side of fpmsyncd for 'rib', connecting to
 * 'remote', with 'settings' (which the Global row changes). */
struct fpmd_db *
fpmd_db_create(const char *remote, struct fpmd_rib *rib,
               struct fpmd_settings *settings)
{
    struct fpmd_db *db = xzalloc(sizeof *db);
    struct perf_timer_options popts;

    db->writer = ovsdb_writer_create(remote, "Fibsync");
    ovsdb_writer_set_max_in_flight(db->writer, settings->max_inflight);
    ovsdb_writer_set_msg_cb(db->writer, db_msg_cb, db);
    db->rib = rib;
    db->settings = settings;
    db->cfg.rib = rib;
    db->cfg.settings = settings;
    db->cfg.fib_suppression_cb = apply_fib_suppression_cb;
    db->cfg.aux = db;
    db->global = global_follower_create(remote, global_columns);
    ovsdb_write_mark_init(&db->mark, "fpmsyncd");

    perf_timer_options_init(&popts);
    popts.module = &this_module;
    popts.threshold = 100000;
    db->flush_timer = perf_timer_create("FLUSH", &popts);
    return db;
}

/* Closes the connection: the transactions in flight end as lost. */
void
fpmd_db_destroy(struct fpmd_db *db)
{
    if (db) {
        load_stop(db);
        ovsdb_writer_destroy(db->writer);
        global_follower_destroy(db->global);
        json_destroy(db->cfg_id);
        json_destroy(db->status_id);
        json_destroy(db->mark_id);
        json_destroy(db->schema_id);
        ovsdb_write_mark_destroy(&db->mark);
        perf_timer_flush(db->flush_timer);
        perf_timer_destroy(db->flush_timer);
        free(db);
    }
}

const char *
fpmd_db_get_remote(const struct fpmd_db *db)
{
    return ovsdb_writer_get_remote(db->writer);
}

static void
free_id(struct json **idp)
{
    json_destroy(*idp);
    *idp = NULL;
}

/* The Route.status monitor. */

/* Installs the Route.status monitor: rows whose status says offloaded. */
static void
status_monitor_start(struct fpmd_db *db)
{
    struct json *params = json_from_string(
        "[\"Fibsync\",\"status\",{\"Route\":[{"
        "\"columns\":[\"vrf\",\"prefix\"],"
        "\"where\":[[\"status\",\"includes\","
        "[\"map\",[[\"offload\",\"true\"]]]]]}]}]");

    fpmd_offload_reset(db->rib);
    db->status_id = ovsdb_writer_send_request(db->writer, "monitor_cond",
                                              params);
}

/* Cancels the Route.status monitor, installed or asked for (the server
 * takes requests in order: it has made the monitor by the time it reads
 * the cancel, and the id "status" is free again for the next request),
 * and forgets which routes are offloaded. */
static void
status_monitor_stop(struct fpmd_db *db)
{
    if (db->status_monitor || db->status_id) {
        struct json *params = json_array_create_1(
            json_string_create("status"));

        json_destroy(ovsdb_writer_send_request(db->writer, "monitor_cancel",
                                               params));
    }
    free_id(&db->status_id);
    db->status_monitor = false;
    fpmd_offload_reset(db->rib);
}

/* Applies the FIB suppression setting to the rib and the monitor (which
 * the northbound fast path does without).  The monitor starts only once
 * the database is read (or known to hold what fpmsyncd had read): its
 * first reply names the rows that say offload=true, which only routes
 * fpmsyncd holds can take in.  Started before the load, it found none
 * after fpmsyncd's restart, and zebra's replay of routes orchd held
 * already was never answered. */
static void
apply_fib_suppression(struct fpmd_db *db)
{
    bool on = db->settings->fib_suppression.value != 0;
    bool monitor = on && !(db->settings->path.chosen
                           && db->settings->path.zmq);

    fpmd_offload_enable(db->rib, on);
    if (db->state == FPMD_DB_DISCONNECTED) {
        return;
    }
    if (monitor && !db->status_monitor && !db->status_id
        && db->state == FPMD_DB_READY) {
        status_monitor_start(db);
    } else if (!monitor && (db->status_monitor || db->status_id)) {
        status_monitor_stop(db);
    }
}

/* As apply_fib_suppression(), for the Global row. */
static void
apply_fib_suppression_cb(void *db)
{
    apply_fib_suppression(db);
}

/* The load. */

/* Called by the Nexthop_Group select for each row read. */
static void
load_nhg_row_cb(int select_idx OVS_UNUSED, const struct json *row,
                void *db_)
{
    struct fpmd_db *db = db_;

    fpmd_rib_load_row(db->rib, FPMD_LOAD_NHG, row);
}

/* Called by the Route slice reader for each row read. */
static void
load_route_row_cb(int slice_idx OVS_UNUSED, const struct json *row,
                  void *db_)
{
    struct fpmd_db *db = db_;

    fpmd_rib_load_row(db->rib, FPMD_LOAD_ROUTE, row);
}

/* Abandons the load under way, if any. */
static void
load_stop(struct fpmd_db *db)
{
    ovsdb_select_reader_destroy(db->nhg_reader);
    db->nhg_reader = NULL;
    ovsdb_slice_reader_destroy(db->route_reader);
    db->route_reader = NULL;
}

/* Starts reading the database, over connections of its own: the
 * Nexthop_Group rows first, in one select. */
static void
load_start(struct fpmd_db *db)
{
    db->state = FPMD_DB_LOADING;
    load_stop(db);
    fpmd_rib_load_begin(db->rib);
    db->nhg_reader = ovsdb_select_reader_create(fpmd_db_get_remote(db),
                                                fpmd_rib_load_nhg_params(),
                                                1, load_nhg_row_cb, db);
    db->load_start = time_msec();
}

/* Then the Route rows, in slices of Route.bucket. */
static void
load_start_routes(struct fpmd_db *db)
{
    struct ovsdb_slice_reader_spec spec = {
        .remote = fpmd_db_get_remote(db),
        .db = "Fibsync",
        .table = "Route",
        .seq_column = "bucket",
        .columns = fpmd_rib_load_route_columns(db->settings->path.zmq),
        .where = NULL,
        .width = db->settings->route_read_slice,
        /* ovsdb-server composes the next slice while fpmsyncd scans the
         * last, as orchd reads Asic_Route. */
        .max_in_flight = OVSDB_SLICE_READER_OVERLAP_IN_FLIGHT,
        .read_ahead = OVSDB_SLICE_READER_OVERLAP_READ_AHEAD,
        .max_value = ROUTE_KEY_N_BUCKETS - 1,
    };

    db->route_reader = ovsdb_slice_reader_create(&spec, load_route_row_cb,
                                                 db);
}

/* The mark. */

/* The writer's completion callback of the transaction that starts an
 * epoch of the mark. */
static void
mark_epoch_done(void *db_, const struct ovsdb_writer_reply *reply)
{
    struct fpmd_db *db = db_;
    bool committed = reply->result == OVSDB_WRITER_SUCCESS;

    ovsdb_write_mark_epoch_done(&db->mark, committed);
    if (reply->result == OVSDB_WRITER_ERROR) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

        VLOG_WARN_RL(&rl, "%s: Write_Mark refused (%s): the database will "
                     "be read again after each reconnection",
                     fpmd_db_get_remote(db), reply->error);
    }
}

/* fpmsyncd has just read the database: starts a new epoch of the mark,
 * whose transaction goes before any write, if the schema has Write_Mark
 * (once the server has said whether it has). */
static void
mark_start_epoch(struct fpmd_db *db)
{
    struct uuid epoch;

    db->epoch_wanted = db->marks == MARKS_UNKNOWN;
    if (db->marks != MARKS_ON) {
        return;
    }
    uuid_generate(&epoch);
    ovsdb_writer_commit(db->writer,
                        ovsdb_write_mark_start_epoch(&db->mark, &epoch),
                        mark_epoch_done, db);
}

/* Takes the reply 'msg' to the select of the mark: carries on with what
 * fpmsyncd knows if the database holds every transaction that committed,
 * and otherwise reads it again. */
static void
mark_checked(struct fpmd_db *db, const struct jsonrpc_msg *msg)
{
    const char *remote = fpmd_db_get_remote(db);
    struct ds why = DS_EMPTY_INITIALIZER;

    if (ovsdb_write_mark_check(&db->mark, (msg->type == JSONRPC_REPLY
                                           ? msg->result : NULL), &why)) {
        VLOG_INFO("%s: the database holds all %"PRIu64" transactions "
                  "committed since it was read: not read again", remote,
                  db->mark.committed);
        COVERAGE_INC(db_read_kept);
        db->n_kept++;
        fpmd_rib_db_kept(db->rib);
        db->state = FPMD_DB_READY;
        db->kept = true;
        apply_fib_suppression(db);
    } else {
        VLOG_INFO("%s: reading the database again: %s", remote,
                  ds_cstr(&why));
        COVERAGE_INC(db_read_again);
        db->n_read_again++;
        load_start(db);
    }
    ds_destroy(&why);
}

/* Advances the load under way, if any.  Returns true if it completed. */
static bool
load_run(struct fpmd_db *db)
{
    const char *remote = fpmd_db_get_remote(db);
    enum ovsdb_select_reader_state state = OVSDB_SELECT_READER_RUNNING;
    char *error = NULL;

    if (db->nhg_reader && !db->settings->path.chosen) {
        /* Which Route columns to read depends on the path: the
         * Nexthop_Group rows wait in the socket until Global says. */
        return false;
    } else if (db->nhg_reader) {
        state = ovsdb_select_reader_run(db->nhg_reader);
        if (state == OVSDB_SELECT_READER_DONE) {
            ovsdb_select_reader_destroy(db->nhg_reader);
            db->nhg_reader = NULL;
            load_start_routes(db);
        } else if (state == OVSDB_SELECT_READER_FAILED) {
            error = xasprintf("Nexthop_Group: %s", ovsdb_select_reader_error(
                                  db->nhg_reader));
        }
    }
    if (db->route_reader) {
        state = ovsdb_slice_reader_run(db->route_reader);
        if (state == OVSDB_SELECT_READER_FAILED) {
            error = xasprintf("Route: %s", ovsdb_slice_reader_error(
                                  db->route_reader));
        }
    }

    switch (state) {
    case OVSDB_SELECT_READER_RUNNING:
        return false;

    case OVSDB_SELECT_READER_FAILED:
        /* Reconnect, to try again from the start. */
        VLOG_ERR("%s: reading the database failed: %s", remote, error);
        free(error);
        load_stop(db);
        ovsdb_writer_force_reconnect(db->writer);
        return false;

    case OVSDB_SELECT_READER_DONE:
        db->last_load_slices = ovsdb_slice_reader_n_slices(db->route_reader);
        load_stop(db);
        fpmd_rib_load_end(db->rib);
        db->last_load_ms = time_msec() - db->load_start;
        VLOG_INFO("%s: database read in %lld ms (Route in %"PRIuSIZE
                  " slices of %"PRId64" buckets): %"PRIuSIZE" routes and %"
                  PRIuSIZE" next-hop objects known, %"PRIuSIZE" rows to "
                  "write", remote, db->last_load_ms, db->last_load_slices,
                  db->settings->route_read_slice,
                  fpmd_rib_n_routes(db->rib), fpmd_rib_n_nexthops(db->rib),
                  fpmd_rib_n_pending(db->rib));
        db->state = FPMD_DB_READY;
        mark_start_epoch(db);
        apply_fib_suppression(db);
        return true;
    }
    OVS_NOT_REACHED();
}

/* The connection. */

/* Called when the database connection is (re)established. */
static void
db_connected(struct fpmd_db *db)
{
    struct json *cfg = json_from_string(
        "[\"Fibsync\",\"cfg\",{"
        "\"Vrf\":{\"columns\":[\"name\",\"table_id\"]}}]");

    /* Answered before the load's selects: ovsdb-server answers one
     * connection's requests in order. */
    db->marks = MARKS_UNKNOWN;
    db->epoch_wanted = false;
    db->schema_id = ovsdb_writer_send_request(
        db->writer, "get_schema", json_array_create_1(
            json_string_create("Fibsync")));
    db->cfg_id = ovsdb_writer_send_request(db->writer, "monitor", cfg);
    if (uuid_is_zero(&db->mark.epoch)) {
        VLOG_INFO("%s: connected, reading the database",
                  fpmd_db_get_remote(db));
        load_start(db);
    } else {
        /* Connected again: the database may not need reading. */
        VLOG_INFO("%s: connected again, reading the mark",
                  fpmd_db_get_remote(db));
        db->state = FPMD_DB_CHECKING;
        db->mark_id = ovsdb_writer_send_request(
            db->writer, "transact",
            ovsdb_write_mark_read_params(&db->mark, "Fibsync"));
    }
    db->backoff = 0;
    db->retry_at = 0;
}

/* Called when the database connection is lost.  The writer has already
 * ended every transaction in flight as lost (see db_txn_done()). */
static void
db_disconnected(struct fpmd_db *db)
{
    if (db->state != FPMD_DB_DISCONNECTED) {
        VLOG_WARN("%s: connection lost (%"PRIuSIZE" transactions in "
                  "flight will be checked and redone)",
                  fpmd_db_get_remote(db), db->n_lost);
        COVERAGE_INC(db_reconnect);
    }
    db->n_lost = 0;
    fpmd_rib_db_lost(db->rib);
    free_id(&db->cfg_id);
    free_id(&db->mark_id);
    free_id(&db->schema_id);
    db->kept = false;
    load_stop(db);
    if (db->status_monitor || db->status_id) {
        /* What the monitor said may no longer hold when the database
         * comes back: replays wait for the new monitor's first reply. */
        fpmd_offload_reset(db->rib);
    }
    free_id(&db->status_id);
    db->status_monitor = false;
    db->state = FPMD_DB_DISCONNECTED;
}

/* Handles the reply 'msg' to one of fpmsyncd's monitor requests. */
static void
db_monitor_reply(struct fpmd_db *db, const struct jsonrpc_msg *msg)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    const char *remote = fpmd_db_get_remote(db);

    if (db->schema_id && json_equal(msg->id, db->schema_id)) {
        free_id(&db->schema_id);
        db->marks = (msg->type == JSONRPC_REPLY
                     && ovsdb_wire_schema_has_table(msg->result,
                                                    "Write_Mark")
                     ? MARKS_ON : MARKS_OFF);
        if (db->marks == MARKS_OFF) {
            VLOG_INFO("%s: the schema has no Write_Mark table: the "
                      "database will be read again after each "
                      "reconnection", remote);
        }
        if (db->epoch_wanted) {
            mark_start_epoch(db);
        }
    } else if (db->mark_id && json_equal(msg->id, db->mark_id)) {
        free_id(&db->mark_id);
        mark_checked(db, msg);
    } else if (db->cfg_id && json_equal(msg->id, db->cfg_id)) {
        free_id(&db->cfg_id);
        if (msg->type == JSONRPC_REPLY) {
            fpmd_vrf_sync_begin(db->rib);
            fpmd_db_cfg_updates(&db->cfg, msg->result);
            fpmd_vrf_sync_end(db->rib);
            apply_fib_suppression(db);
        } else {
            VLOG_ERR_RL(&rl, "%s: monitor request failed", remote);
        }
    } else if (db->status_id && json_equal(msg->id, db->status_id)) {
        free_id(&db->status_id);
        if (msg->type == JSONRPC_REPLY) {
            db->status_monitor = true;
            fpmd_db_status_updates(db->rib, msg->result);
        } else {
            char *s = json_to_string(msg->error, 0);

            VLOG_ERR_RL(&rl, "%s: Route.status monitor failed: %s",
                        remote, s);
            free(s);
        }
    }
    /* Otherwise a reply to monitor_cancel. */
}

/* The writer's message callback: every message that is not the reply to a
 * transaction, and NULL when the connection went down or came up. */
static void
db_msg_cb(void *db_, const struct jsonrpc_msg *msg)
{
    struct fpmd_db *db = db_;

    if (!msg) {
        db_disconnected(db);
        if (ovsdb_writer_is_connected(db->writer)) {
            db_connected(db);
        }
    } else if (msg->type == JSONRPC_NOTIFY) {
        const struct json_array *params = (msg->params
                                           && msg->params->type == JSON_ARRAY
                                           ? json_array(msg->params) : NULL);

        if (!params || params->n < 2) {
            return;
        }
        if (!strcmp(msg->method, "update")) {
            fpmd_db_cfg_updates(&db->cfg, params->elems[1]);
        } else if (!strcmp(msg->method, "update2") && db->status_monitor) {
            fpmd_db_status_updates(db->rib, params->elems[1]);
        }
    } else if (msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR) {
        db_monitor_reply(db, msg);
    }
}

/* Runs the connection, the Global follower, the monitors and the load.
 * Returns true if a load of the database completed, or a reconnection
 * found that none was needed. */
bool
fpmd_db_run(struct fpmd_db *db)
{
    bool done;

    ovsdb_writer_run(db->writer);
    global_follower_run(db->global);
    if (global_follower_seqno(db->global) != db->global_seqno) {
        db->global_seqno = global_follower_seqno(db->global);
        fpmd_db_global(&db->cfg, db->global);
    }
    perf_timer_run(db->flush_timer);
    done = load_run(db);
    if (db->kept) {
        db->kept = false;
        done = true;
    }
    return done;
}

/* Flushing. */

/* Accounts for a transaction that did not commit ('reply'), whose
 * operations are queued again: a lost one is logged with the connection
 * loss, after a refused one every flush waits for a growing backoff. */
static void
db_txn_not_committed(struct fpmd_db *db,
                     const struct ovsdb_writer_reply *reply,
                     const struct ds *errors)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

    if (reply->result == OVSDB_WRITER_LOST) {
        db->n_lost++;
        return;
    }
    COVERAGE_INC(db_txn_failed);
    db->backoff = db->backoff ? MIN(db->backoff * 2, 8000) : 100;
    db->retry_at = time_msec() + db->backoff;
    VLOG_WARN_RL(&rl, "%s: transaction of %"PRIuSIZE" operations "
                 "failed, retrying in %d ms: %s", fpmd_db_get_remote(db),
                 reply->n_ops, db->backoff, ds_cstr_ro(errors));
}

/* The writer's completion callback of each transaction of rows. */
static void
db_txn_done(void *db_, const struct ovsdb_writer_reply *reply)
{
    struct fpmd_db *db = db_;
    struct route_batch_txn *txn = fpmd_txn_oldest(db->rib);
    struct ds errors = DS_EMPTY_INITIALIZER;

    ovs_assert(txn && txn->n_ops == reply->n_ops);
    if (fpmd_txn_reply(db->rib, txn, reply, &errors)) {
        COVERAGE_INC(db_txn_committed);
        db->backoff = 0;
    } else {
        db_txn_not_committed(db, reply, &errors);
    }
    ds_destroy(&errors);
}

/* The writer's completion callback of each transaction of Route.status
 * mutates. */
static void
db_status_txn_done(void *db_, const struct ovsdb_writer_reply *reply)
{
    struct fpmd_db *db = db_;
    struct ds errors = DS_EMPTY_INITIALIZER;

    if (fpmd_status_reply(db->rib, reply, &errors)) {
        COVERAGE_INC(db_txn_committed);
        db->backoff = 0;
    } else {
        db_txn_not_committed(db, reply, &errors);
    }
    ds_destroy(&errors);
}

/* Ends a transaction that was sent with the mark's operation last:
 * reports its end to the mark, then to 'cb' as a transaction of its own
 * operations. */
static void
db_marked_txn_done(struct fpmd_db *db, const struct ovsdb_writer_reply *reply,
                   ovsdb_writer_cb *cb)
{
    struct ovsdb_writer_reply r = *reply;

    ovsdb_write_mark_done(&db->mark, reply->result == OVSDB_WRITER_SUCCESS);
    r.n_ops--;
    if (r.failed_op >= r.n_ops) {
        r.failed_op = SIZE_MAX;
    }
    cb(db, &r);
}

static void
db_txn_done_marked(void *db, const struct ovsdb_writer_reply *reply)
{
    db_marked_txn_done(db, reply, db_txn_done);
}

static void
db_status_txn_done_marked(void *db, const struct ovsdb_writer_reply *reply)
{
    db_marked_txn_done(db, reply, db_status_txn_done);
}

/* Sends 'ops', the text of a transaction of 'n' operations of fpmsyncd's
 * own, with the mark's operation appended if marking is on: completed by
 * 'marked_cb' then, otherwise by 'cb'. */
static void
db_commit(struct fpmd_db *db, struct ds *ops, size_t n, ovsdb_writer_cb *cb,
          ovsdb_writer_cb *marked_cb)
{
    if (ovsdb_write_mark_put(&db->mark, ops)) {
        ovsdb_writer_commit_ds(db->writer, ops, n + 1, marked_cb, db);
    } else {
        ovsdb_writer_commit_ds(db->writer, ops, n, cb, db);
    }
}

/* Sends one transaction of up to 'batch_size' operations, if any.
 * Returns true if it sent one. */
static bool
flush_one(struct fpmd_db *db)
{
    struct route_batch_txn *txn;
    struct ds ops;
    size_t n;

    perf_timer_start(db->flush_timer);
    ovsdb_writer_txn_start(db->writer, &ops);
    txn = fpmd_txn_build(db->rib, db->settings->batch_size.value, &ops);
    if (!txn) {
        ds_destroy(&ops);
        perf_timer_pause(db->flush_timer);
        return false;
    }
    n = txn->n_ops;
    db_commit(db, &ops, n, db_txn_done, db_txn_done_marked);
    perf_timer_inc(db->flush_timer, n);
    perf_timer_pause(db->flush_timer);

    COVERAGE_INC(db_txn);
    COVERAGE_ADD(db_txn_ops, n);
    db->n_flushes++;
    db->n_flush_ops += n;
    db->min_flush = db->min_flush ? MIN(db->min_flush, n) : n;
    db->max_flush = MAX(db->max_flush, n);
    db->flush_hist[n < 10 ? 0 : n < 100 ? 1 : n < 1000 ? 2 : n < 10000 ? 3
                   : n < 100000 ? 4 : 5]++;
    db->last_flush = time_msec();
    return true;
}

/* Sends one transaction of up to 'batch_size' Route.status mutates, if
 * any.  Returns true if it sent one. */
static bool
flush_status_one(struct fpmd_db *db)
{
    struct ds ops;
    size_t n;

    ovsdb_writer_txn_start(db->writer, &ops);
    n = fpmd_status_build(db->rib, db->settings->batch_size.value, &ops);
    if (!n) {
        ds_destroy(&ops);
        return false;
    }
    db_commit(db, &ops, n, db_status_txn_done, db_status_txn_done_marked);
    COVERAGE_INC(db_txn);
    COVERAGE_ADD(db_txn_ops, n);
    db->last_status_flush = time_msec();
    return true;
}

/* Returns true if the flush policy says to wait for more of 'n_pending'
 * writes, the last of whose kind was sent at 'last_flush': enough are
 * pending that a flush should be a full batch, and the flush interval has
 * not passed. */
static bool
flush_should_wait(const struct fpmd_db *db, size_t n_pending,
                  long long int last_flush)
{
    const struct fpmd_settings *st = db->settings;

    return (n_pending >= st->flush_threshold
            && n_pending < st->batch_size.value
            && time_msec() < last_flush + st->flush_interval);
}

/* Returns true if the flush policy says to send a transaction of rows
 * now (not while the next row is a deferred delete, fpmsyncd-rib.c). */
static bool
rows_due(const struct fpmd_db *db)
{
    size_t n = fpmd_rib_n_pending(db->rib);

    return (n && !fpmd_rib_rows_deferred(db->rib)
            && !flush_should_wait(db, n, db->last_flush));
}

/* Returns true if the flush policy says to send a transaction of
 * Route.status mutates now. */
static bool
status_due(const struct fpmd_db *db)
{
    size_t n = fpmd_status_n_pending(db->rib);

    return n && !flush_should_wait(db, n, db->last_status_flush);
}

/* Tells the database whether zebra is streaming routes
 * (fpmd_fpm_is_streaming()): on the northbound fast path, where the Route
 * rows are written behind the routes' way to the ASIC, fpmsyncd then holds
 * its writes back, for FPMD_DB_MAX_HOLD_MS at most, so that ovsdb-server
 * does not take the CPU that fpmsyncd, orchd and syncd need to program
 * the stream (docs/PERFORMANCE.md: stopping the server for a
 * million-route burst programmed it 13% faster once nothing else bound the
 * rate).  Rows pending keep telling orchd that Route is behind, so its
 * Asic_Route write-behind waits too.  A hold that ran out is not begun
 * again before the stream ends (a read finds the socket empty), so a
 * longer stream is written behind as before. */
void
fpmd_db_hold(struct fpmd_db *db, bool streaming)
{
    long long int now = time_msec();

    if (!streaming) {
        if (db->hold_start) {
            db->held_ms += now - db->hold_start;
            db->hold_start = 0;
        }
        db->hold_spent = false;
    } else if (!db->hold_spent) {
        if (!db->hold_start) {
            db->hold_start = now;
            db->n_holds++;
        } else if (now >= db->hold_start + FPMD_DB_MAX_HOLD_MS) {
            db->held_ms += now - db->hold_start;
            db->hold_start = 0;
            db->hold_spent = true;
            db->n_holds_spent++;
        }
    }
}

/* The flush policy: flush at once while fewer than 'flush_threshold'
 * updates are pending; otherwise when a batch is full or 'flush_interval'
 * ms after the last flush; never more than 'max_inflight' transactions
 * in flight; nothing while fpmd_db_hold() holds.  Rows go first;
 * Route.status mutates (on the northbound fast path) follow the same
 * policy in transactions of their own, on the same connection, so each
 * lands after its row's insert. */
void
fpmd_db_flush(struct fpmd_db *db)
{
    if (db->state != FPMD_DB_READY || !fpmd_rib_is_loaded(db->rib)
        || time_msec() < db->retry_at || db->hold_start) {
        return;
    }
    while (ovsdb_writer_has_room(db->writer)) {
        if (!(rows_due(db) && flush_one(db))
            && !(status_due(db) && flush_status_one(db))) {
            break;
        }
    }
}

/* Wakes the main loop when fpmd_db_flush() would send something. */
static void
flush_wait(struct fpmd_db *db)
{
    size_t n = fpmd_rib_n_pending(db->rib);
    size_t n_status = fpmd_status_n_pending(db->rib);

    if (db->state != FPMD_DB_READY || (!n && !n_status)
        || !ovsdb_writer_has_room(db->writer)) {
        return;
    }
    if (db->hold_start) {
        poll_timer_wait_until(db->hold_start + FPMD_DB_MAX_HOLD_MS);
    } else if (time_msec() < db->retry_at) {
        poll_timer_wait_until(db->retry_at);
    } else if (rows_due(db) || status_due(db)) {
        poll_immediate_wake();
    } else {
        if (n) {
            poll_timer_wait_until(db->last_flush
                                  + db->settings->flush_interval);
        }
        if (n_status) {
            poll_timer_wait_until(db->last_status_flush
                                  + db->settings->flush_interval);
        }
    }
}

void
fpmd_db_wait(struct fpmd_db *db)
{
    ovsdb_writer_wait(db->writer);
    global_follower_wait(db->global);
    if (db->nhg_reader && db->settings->path.chosen) {
        ovsdb_select_reader_wait(db->nhg_reader);
    }
    if (db->route_reader) {
        ovsdb_slice_reader_wait(db->route_reader);
    }
    flush_wait(db);
    perf_timer_wait(db->flush_timer);
}
