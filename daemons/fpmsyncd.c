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
 * This file moves bytes: it accepts zebra's FPM connection and splits and
 * parses the stream (lib/fpm-frame.h, lib/fpm-route.h), talks JSON-RPC to
 * ovsdb-server, and runs the flush policy and the reconciliation timer.
 * The route table, the coalescing and the transactions' content are in
 * daemons/fpmsyncd-rib.c.  usage() describes the daemon for users. */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/netlink.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "coverage.h"
#include "daemon.h"
#include "lib/ovsdb-select-scanner.h"
#include "daemons/fpmsyncd-nexthop.h"
#include "daemons/fpmsyncd-offload.h"
#include "daemons/fpmsyncd-rib.h"
#include "daemons/fpmsyncd-txn.h"
#include "daemons/fpmsyncd-vrf.h"
#include "dirs.h"
#include "fatal-signal.h"
#include "jsonrpc.h"
#include "lib/fibsync-paths.h"
#include "lib/option-parse.h"
#include "lib/fpm-frame.h"
#include "lib/fpm-route.h"
#include "lib/perf-timer.h"
#include "lib/route-batch.h"
#include "memory.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "simap.h"
#include "socket-util.h"
#include "stream.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd);

COVERAGE_DEFINE(fpm_connect);
COVERAGE_DEFINE(fpm_disconnect);
COVERAGE_DEFINE(fpm_frame);
COVERAGE_DEFINE(fpm_bad_frame_header);
COVERAGE_DEFINE(fpm_bad_frame);
COVERAGE_DEFINE(fpm_bad_msg);
COVERAGE_DEFINE(fpm_msg);
COVERAGE_DEFINE(fpm_msg_skipped);
COVERAGE_DEFINE(fpm_route_add);
COVERAGE_DEFINE(fpm_route_del);
COVERAGE_DEFINE(fpm_nexthop_add);
COVERAGE_DEFINE(fpm_nexthop_del);
COVERAGE_DEFINE(fpm_offload_sent);
COVERAGE_DEFINE(fpm_offload_dropped);
COVERAGE_DEFINE(fpm_paused);
COVERAGE_DEFINE(db_reconnect);
COVERAGE_DEFINE(db_txn);
COVERAGE_DEFINE(db_txn_ops);
COVERAGE_DEFINE(db_txn_committed);
COVERAGE_DEFINE(db_txn_failed);
COVERAGE_DEFINE(reconcile_run);
COVERAGE_DEFINE(reconcile_stale);

/* Flush policy defaults (SONiC's fpmsyncd). */
#define DEFAULT_BATCH_SIZE 250          /* Rows per transaction when
                                         * Global.batch_size is empty:
                                         * measured best for ovsdb-server
                                         * 3.1 (see docs/PERFORMANCE.md). */
#define DEFAULT_RECONCILE_TIMER 120     /* Global.reconcile_timer. */
#define DEFAULT_FLUSH_THRESHOLD 500     /* Below this, flush at once. */
#define DEFAULT_FLUSH_INTERVAL 500      /* ms: otherwise at most this late. */
#define DEFAULT_MAX_INFLIGHT 8          /* Transactions pipelined. */

/* Most bytes read from zebra in one main loop iteration, so that replies
 * from the database and unixctl commands are served in between. */
#define FPM_READ_BUDGET (256 * 1024)

/* Most bytes of offload notifications queued for zebra. */
#define FPM_MAX_OUTPUT (64 * 1024 * 1024)

/* Where a setting comes from. */
enum knob_source {
    SRC_DEFAULT,                /* Built in. */
    SRC_GLOBAL,                 /* The Global row. */
    SRC_CMDLINE,                /* The command line (wins). */
};

static const char *
knob_source_name(enum knob_source src)
{
    return (src == SRC_CMDLINE ? "command line"
            : src == SRC_GLOBAL ? "Global table" : "default");
}

/* A tunable and where its value came from. */
struct knob {
    int64_t value;              /* Value in force. */
    enum knob_source source;    /* Where it came from. */
};

/* Sets 'k' to 'value' from the Global table, unless the command line set
 * it; 'present' false means the Global column is empty (back to
 * 'dflt'). */
static bool
knob_from_global(struct knob *k, bool present, int64_t value, int64_t dflt)
{
    int64_t old = k->value;

    if (k->source == SRC_CMDLINE) {
        return false;
    }
    k->value = present ? value : dflt;
    k->source = present ? SRC_GLOBAL : SRC_DEFAULT;
    return old != k->value;
}

/* The state of the database connection. */
enum db_state {
    DB_DISCONNECTED,            /* Not connected (or not yet). */
    DB_LOADING,                 /* Connected, reading the database. */
    DB_READY,                   /* Writing. */
};

/* The whole daemon. */
struct fpmd {
    struct fpmd_rib *rib;       /* Route table and write batcher. */

    /* Settings. */
    struct knob batch_size;     /* Most operations per transaction. */
    struct knob reconcile_timer; /* Seconds to wait for a replay. */
    struct knob fib_suppression; /* Offload notifications (0 or 1). */
    struct knob resolve_nexthops; /* Group members in Route.nexthops (0 or
                                   * 1). */
    int flush_threshold;        /* Pending count under which to flush at
                                 * once. */
    int flush_interval;         /* ms to wait for a full batch. */
    int max_inflight;           /* Transactions in flight at most. */
    int max_pending;            /* Stop reading zebra at this many pending
                                 * rows (0: automatic). */
    char *fpm_addr;             /* Address to listen on. */
    int fpm_port;               /* Port to listen on. */

    /* Database. */
    struct jsonrpc_session *db; /* Connection to ovsdb-server. */
    char *db_remote;            /* Its name. */
    unsigned int db_seqno;      /* jsonrpc_session_get_seqno() last seen. */
    enum db_state db_state;     /* Connection state. */
    struct json *cfg_id;        /* Outstanding "monitor" request id. */
    struct stream *load_stream; /* Own connection for reading the
                                 * database, while that goes on. */
    struct ds load_out;         /* Load request bytes not yet sent. */
    struct ovsdb_select_scanner load_scanner; /* Reads the load's reply. */
    struct json *status_id;     /* Outstanding "monitor_cond" id. */
    bool status_monitor;        /* Route.status monitor installed. */
    bool ever_loaded;           /* The database was read at least once. */
    long long int load_start;   /* When the load request was sent. */
    long long int last_load_ms; /* How long the last load took. */
    long long int retry_at;     /* After a failed transaction, no flush
                                 * before this time. */
    int backoff;                /* Current retry backoff, ms. */

    /* Flushing. */
    long long int last_flush;   /* Time of the last transaction sent. */
    uint64_t n_flushes;         /* Transactions sent. */
    uint64_t n_flush_ops;       /* Operations sent. */
    size_t min_flush, max_flush; /* Smallest and largest transaction. */
    uint64_t flush_hist[6];     /* Sizes: 1-9, 10-99, 100-999, 1000-9999,
                                 * 10000-99999, more. */
    long long int last_commit;  /* Time of the last commit. */
    long long int commit_latency_max; /* Longest send-to-commit, ms. */
    uint64_t n_committed_ops;   /* Operations committed. */

    /* FPM. */
    struct pstream *listener;   /* Listening socket, once loaded. */
    char *listen_name;          /* "ptcp:PORT:ADDR". */
    struct stream *conn;        /* zebra's connection, if any. */
    char *peer;                 /* Its name. */
    long long int conn_since;   /* When it connected. */
    struct fpm_splitter splitter; /* Frame splitter for 'conn'. */
    struct fpm_msg scratch;     /* Parse results. */
    struct fpm_parse_stats pstats; /* Parse counters, all connections. */
    uint64_t parse_errors[16];  /* Malformed messages by kind. */
    uint64_t n_bad_headers;     /* Connections closed for a bad header. */
    uint64_t n_incomplete;      /* Connections that ended mid-frame. */
    uint64_t n_connections;     /* Connections accepted. */
    uint64_t n_bytes;           /* Bytes read from zebra. */
    uint64_t n_paused;          /* Times reading stopped for
                                 * backpressure. */
    bool paused;                /* Reading stopped for backpressure. */
    struct ofpbuf out;          /* Offload notifications to send. */
    uint32_t out_seq;           /* Their netlink sequence numbers. */
    uint64_t n_offload_sent;    /* Notifications queued for zebra. */
    uint64_t n_offload_dropped; /* Notifications dropped (no peer, or
                                 * too much queued). */

    /* Reconciliation. */
    bool reconcile_armed;       /* zebra connected since the last
                                 * reconciliation: fpm/reconcile may run
                                 * one. */
    bool reconcile_pending;     /* A window is open (zebra connected). */
    long long int reconcile_deadline; /* When it closes. */
    long long int last_reconcile; /* When the last one ran. */
    size_t last_stale_routes;   /* Routes it deleted. */
    size_t last_stale_nhgs;     /* Next-hop objects it deleted. */

    /* Performance timers. */
    struct perf_timer *parse_timer; /* "PARSE": FPM messages parsed. */
    struct perf_timer *flush_timer; /* "FLUSH": operations serialized and
                                     * sent. */

    bool exiting;               /* "exit" received. */
};

static char *unixctl_path;

static void parse_options(int argc, char *argv[], struct fpmd *);
OVS_NO_RETURN static void usage(void);

/* Settings. */

static size_t
batch_size(const struct fpmd *d)
{
    return d->batch_size.value;
}

static size_t
max_pending(const struct fpmd *d)
{
    return (d->max_pending > 0 ? d->max_pending
            : MAX(20000, batch_size(d) * (d->max_inflight + 1)));
}

/* zebra offload notifications. */

static void fpm_send_output(struct fpmd *);

/* Queues an RTM_NEWROUTE with RTM_F_OFFLOAD for 'r' to zebra.
 *
 * The table sent is the kernel table that zebra sent the route in (254 for
 * the default VRF), not a VRF id: FRR 10.7's zebra (dplane_fpm_nl.c
 * fpm_read(), then zebra_rib_translate_ctx_from_dplane()) finds the VRF
 * from that table and the route in it, and marks it offloaded
 * (tests/frr-offload.at).  FRR 10.3 took the field as a VRF id but then
 * looked the route up in table 0, so it never found one, whatever is sent
 * here; FRR 8.4 does not read what the FPM server sends at all. */
static void
offload_cb(const struct fpm_route *r, void *d_)
{
    struct fpmd *d = d_;
    size_t ofs;

    if (!d->conn || d->out.size > FPM_MAX_OUTPUT) {
        d->n_offload_dropped++;
        COVERAGE_INC(fpm_offload_dropped);
        return;
    }
    ofs = fpm_frame_start(&d->out);
    fpm_route_encode_offload(&d->out, r, FPM_OFFLOAD_OK, r->table,
                             ++d->out_seq);
    fpm_frame_finish(&d->out, ofs);
    d->n_offload_sent++;
    COVERAGE_INC(fpm_offload_sent);
}

/* The database. */

static void db_start_status_monitor(struct fpmd *);
static void db_stop_status_monitor(struct fpmd *);
static void load_start(struct fpmd *);
static void load_stop(struct fpmd *);
static void fpm_listen(struct fpmd *);

/* Sends 'method' with 'params' and returns its id. */
static struct json *
db_send(struct fpmd *d, const char *method, struct json *params)
{
    struct json *id;
    struct jsonrpc_msg *msg = jsonrpc_create_request(method, params, &id);
    struct json *copy = json_clone(id);

    jsonrpc_session_send(d->db, msg);
    return copy;
}

static void
free_id(struct json **idp)
{
    json_destroy(*idp);
    *idp = NULL;
}

/* Applies the change of FIB suppression to the rib and the monitor. */
static void
apply_fib_suppression(struct fpmd *d)
{
    bool on = d->fib_suppression.value != 0;

    fpmd_offload_enable(d->rib, on);
    if (d->db_state == DB_DISCONNECTED) {
        return;
    }
    if (on && !d->status_monitor && !d->status_id) {
        db_start_status_monitor(d);
    } else if (!on && (d->status_monitor || d->status_id)) {
        db_stop_status_monitor(d);
    }
}

/* Returns the value of an optional scalar column in a monitor "new" row:
 * NULL if empty. */
static const struct json *
optional_value(const struct json *v)
{
    if (!v) {
        return NULL;
    }
    if (v->type == JSON_ARRAY && json_array(v)->n == 2
        && json_array(v)->elems[0]->type == JSON_STRING
        && !strcmp(json_string(json_array(v)->elems[0]), "set")) {
        const struct json *set = json_array(v)->elems[1];

        return (set->type == JSON_ARRAY && json_array(set)->n == 1
                ? json_array(set)->elems[0] : NULL);
    }
    return v;
}

/* Takes in the Global row 'row' (NULL if it was deleted). */
static void
db_global_row(struct fpmd *d, const struct json *row)
{
    const struct json *bs = NULL, *fs = NULL, *rt = NULL, *ll = NULL;
    const char *resolve = NULL;

    if (row && row->type == JSON_OBJECT) {
        const struct json *oc = shash_find_data(json_object(row),
                                                "other_config");

        if (oc && oc->type == JSON_ARRAY && json_array(oc)->n == 2
            && json_array(oc)->elems[1]->type == JSON_ARRAY) {
            const struct json_array *pairs
                = json_array(json_array(oc)->elems[1]);

            for (size_t i = 0; i < pairs->n; i++) {
                const struct json *k = json_array(pairs->elems[i])->elems[0];
                const struct json *v = json_array(pairs->elems[i])->elems[1];

                if (k->type == JSON_STRING && v->type == JSON_STRING
                    && !strcmp(json_string(k), "resolve_nexthops")) {
                    resolve = json_string(v);
                }
            }
        }
        bs = optional_value(shash_find_data(json_object(row), "batch_size"));
        fs = optional_value(shash_find_data(json_object(row),
                                            "fib_suppression"));
        rt = optional_value(shash_find_data(json_object(row),
                                            "reconcile_timer"));
        ll = optional_value(shash_find_data(json_object(row), "log_level"));
    }
    if (knob_from_global(&d->batch_size, bs && bs->type == JSON_INTEGER,
                         bs && bs->type == JSON_INTEGER
                         ? json_integer(bs) : 0, DEFAULT_BATCH_SIZE)) {
        VLOG_INFO("batch size %"PRId64" (%s)", d->batch_size.value,
                  knob_source_name(d->batch_size.source));
    }
    if (knob_from_global(&d->reconcile_timer,
                         rt && rt->type == JSON_INTEGER,
                         rt && rt->type == JSON_INTEGER
                         ? json_integer(rt) : 0, DEFAULT_RECONCILE_TIMER)) {
        VLOG_INFO("reconcile timer %"PRId64" s (%s)",
                  d->reconcile_timer.value,
                  knob_source_name(d->reconcile_timer.source));
    }
    if (knob_from_global(&d->fib_suppression,
                         fs && (fs->type == JSON_TRUE
                                || fs->type == JSON_FALSE),
                         fs && fs->type == JSON_TRUE, 0)) {
        VLOG_INFO("FIB suppression %s (%s)",
                  d->fib_suppression.value ? "on" : "off",
                  knob_source_name(d->fib_suppression.source));
    }
    apply_fib_suppression(d);
    if (knob_from_global(&d->resolve_nexthops,
                         resolve && (!strcmp(resolve, "true")
                                     || !strcmp(resolve, "false")),
                         resolve && !strcmp(resolve, "true"), 1)) {
        VLOG_INFO("next-hop groups %s (%s)", d->resolve_nexthops.value
                  ? "resolved into Route.nexthops" : "by id only",
                  knob_source_name(d->resolve_nexthops.source));
    }
    fpmd_rib_set_resolve(d->rib, d->resolve_nexthops.value);
    if (ll && ll->type == JSON_STRING) {
        enum vlog_level level = vlog_get_level_val(json_string(ll));

        if (level != VLL_N_LEVELS) {
            vlog_set_levels(NULL, VLF_FILE, level);
        }
    }
}

/* Takes in "update" table-updates 'updates' of the configuration
 * monitor (Global and Vrf). */
static void
db_cfg_updates(struct fpmd *d, const struct json *updates, bool initial)
{
    const struct shash_node *t, *r;

    if (!updates || updates->type != JSON_OBJECT) {
        return;
    }
    if (initial && !shash_find(json_object(updates), "Global")) {
        /* No Global row: every setting at its default. */
        db_global_row(d, NULL);
    }
    SHASH_FOR_EACH (t, json_object(updates)) {
        const struct json *rows = t->data;
        bool is_global = !strcmp(t->name, "Global");

        if (rows->type != JSON_OBJECT) {
            continue;
        }
        SHASH_FOR_EACH (r, json_object(rows)) {
            const struct json *u = r->data;
            const struct json *new;

            if (u->type != JSON_OBJECT) {
                continue;
            }
            new = shash_find_data(json_object(u), "new");
            if (is_global) {
                db_global_row(d, new);
            } else if (new && new->type == JSON_OBJECT) {
                const struct json *name = shash_find_data(json_object(new),
                                                          "name");
                const struct json *table
                    = shash_find_data(json_object(new), "table_id");

                if (name && name->type == JSON_STRING
                    && table && table->type == JSON_INTEGER) {
                    fpmd_vrf_row(d->rib, json_string(name),
                                 json_integer(table));
                }
            }
        }
    }
}

/* Installs the Route.status monitor: rows whose status says offloaded. */
static void
db_start_status_monitor(struct fpmd *d)
{
    struct json *params = json_from_string(
        "[\"Fibsync\",\"status\",{\"Route\":[{"
        "\"columns\":[\"vrf\",\"prefix\"],"
        "\"where\":[[\"status\",\"includes\","
        "[\"map\",[[\"offload\",\"true\"]]]]]}]}]");

    fpmd_offload_reset(d->rib);
    d->status_id = db_send(d, "monitor_cond", params);
}

static void
db_stop_status_monitor(struct fpmd *d)
{
    if (d->status_monitor) {
        struct json *params = json_array_create_1(json_string_create(
                                                      "status"));
        struct json *id = db_send(d, "monitor_cancel", params);

        json_destroy(id);
    }
    free_id(&d->status_id);
    d->status_monitor = false;
    fpmd_offload_reset(d->rib);
}

/* Takes in table-updates2 'updates' of the status monitor. */
static void
db_status_updates(struct fpmd *d, const struct json *updates)
{
    const struct json *rows;
    const struct shash_node *r;

    if (!updates || updates->type != JSON_OBJECT) {
        return;
    }
    rows = shash_find_data(json_object(updates), "Route");
    if (!rows || rows->type != JSON_OBJECT) {
        return;
    }
    SHASH_FOR_EACH (r, json_object(rows)) {
        const struct json *u = r->data;
        const struct shash_node *change;
        struct uuid uuid;

        if (u->type != JSON_OBJECT || !uuid_from_string(&uuid, r->name)
            || shash_count(json_object(u)) != 1) {
            continue;
        }
        change = shash_first(json_object(u));
        if (!strcmp(change->name, "initial")
            || !strcmp(change->name, "insert")) {
            const struct json *row = change->data;
            const struct json *vrf, *prefix;

            if (row->type != JSON_OBJECT) {
                continue;
            }
            vrf = shash_find_data(json_object(row), "vrf");
            prefix = shash_find_data(json_object(row), "prefix");
            if (vrf && vrf->type == JSON_STRING
                && prefix && prefix->type == JSON_STRING) {
                fpmd_offload_status_set(d->rib, &uuid, json_string(vrf),
                                        json_string(prefix));
            }
        } else if (!strcmp(change->name, "modify")) {
            fpmd_offload_status_touched(d->rib, &uuid);
        } else if (!strcmp(change->name, "delete")) {
            fpmd_offload_status_cleared(d->rib, &uuid);
        }
    }
}

/* Called when the database connection is (re)established. */
static void
db_connected(struct fpmd *d)
{
    struct json *cfg = json_from_string(
        "[\"Fibsync\",\"cfg\",{"
        "\"Global\":{\"columns\":[\"batch_size\",\"fib_suppression\","
        "\"reconcile_timer\",\"log_level\",\"other_config\"]},"
        "\"Vrf\":{\"columns\":[\"name\",\"table_id\"]}}]");

    VLOG_INFO("%s: connected, reading the database", d->db_remote);
    d->db_state = DB_LOADING;
    d->cfg_id = db_send(d, "monitor", cfg);
    load_start(d);
    d->backoff = 0;
    d->retry_at = 0;
}

/* Called when the database connection is lost. */
static void
db_disconnected(struct fpmd *d)
{
    if (d->db_state != DB_DISCONNECTED) {
        VLOG_WARN("%s: connection lost (%"PRIuSIZE" transactions in "
                  "flight will be checked and redone)", d->db_remote,
                  fpmd_rib_n_inflight(d->rib));
        COVERAGE_INC(db_reconnect);
    }
    fpmd_rib_db_lost(d->rib);
    free_id(&d->cfg_id);
    load_stop(d);
    free_id(&d->status_id);
    d->status_monitor = false;
    d->db_state = DB_DISCONNECTED;
}

/* Reading the database.
 *
 * At each (re)connection fpmsyncd reads the Nexthop_Group and Route rows
 * it owns.  At a million routes the reply is about 200 MB of JSON, so it
 * is read over a connection of its own, as raw bytes that
 * fpmsyncd-load.c parses one row at a time, rather than through the
 * JSON-RPC session, which would build the whole reply as one tree of about
 * 1.5 GB first.  No transaction is sent until the load is complete, so the
 * load sees the database as it was before fpmsyncd's next write. */

/* Called by the scanner for each row read. */
static void
load_row_cb(int select_idx, const struct json *row, void *d_)
{
    struct fpmd *d = d_;

    fpmd_rib_load_row(d->rib, select_idx, row);
}

/* Abandons the load under way, if any. */
static void
load_stop(struct fpmd *d)
{
    if (d->load_stream) {
        stream_close(d->load_stream);
        d->load_stream = NULL;
        ovsdb_select_scanner_destroy(&d->load_scanner);
        ds_destroy(&d->load_out);
    }
}

/* Gives up on the load: logs 'error' (which it frees) and reconnects, to
 * try again from the start. */
static void
load_fail(struct fpmd *d, char *error)
{
    VLOG_ERR("%s: reading the database failed: %s", d->db_remote, error);
    free(error);
    load_stop(d);
    jsonrpc_session_force_reconnect(d->db);
}

/* Starts reading the database over a new connection. */
static void
load_start(struct fpmd *d)
{
    struct jsonrpc_msg *msg;
    struct json *id, *json;
    int error;

    load_stop(d);
    error = stream_open(d->db_remote, &d->load_stream, DSCP_DEFAULT);
    if (error) {
        d->load_stream = NULL;
        load_fail(d, xasprintf("connection failed: %s",
                               ovs_strerror(error)));
        return;
    }
    msg = jsonrpc_create_request("transact", fpmd_rib_load_params(), &id);
    json = jsonrpc_msg_to_json(msg);
    ds_init(&d->load_out);
    json_to_ds(json, 0, &d->load_out);
    json_destroy(json);
    ovsdb_select_scanner_init(&d->load_scanner);
    fpmd_rib_load_begin(d->rib);
    d->load_start = time_msec();
}

/* Completes a load whose reply was read. */
static void
load_done(struct fpmd *d)
{
    char *error = ovsdb_select_scanner_finish(&d->load_scanner,
                                              FPMD_LOAD_N_SELECTS);

    if (error) {
        load_fail(d, error);
        return;
    }
    load_stop(d);
    fpmd_rib_load_end(d->rib);
    d->last_load_ms = time_msec() - d->load_start;
    VLOG_INFO("%s: database read in %lld ms: %"PRIuSIZE" routes and %"
              PRIuSIZE" next-hop objects known, %"PRIuSIZE" rows to "
              "write", d->db_remote, d->last_load_ms,
              fpmd_rib_n_routes(d->rib), fpmd_rib_n_nexthops(d->rib),
              fpmd_rib_n_pending(d->rib));
    d->db_state = DB_READY;
    d->ever_loaded = true;
    fpm_listen(d);
}

/* Advances the load under way: connects, sends the request, and reads up
 * to a few megabytes of the reply. */
static void
load_run(struct fpmd *d)
{
    size_t budget = 4 * 1024 * 1024;
    int error;

    if (!d->load_stream) {
        return;
    }
    stream_run(d->load_stream);
    error = stream_connect(d->load_stream);
    if (error) {
        if (error != EAGAIN) {
            load_fail(d, xasprintf("connection failed: %s",
                                   ovs_strerror(error)));
        }
        return;
    }
    while (d->load_out.length) {
        int n = stream_send(d->load_stream, d->load_out.string,
                            d->load_out.length);

        if (n < 0) {
            if (n != -EAGAIN) {
                load_fail(d, xasprintf("send failed: %s",
                                       ovs_strerror(-n)));
            }
            return;
        }
        memmove(d->load_out.string, d->load_out.string + n,
                d->load_out.length - n);
        d->load_out.length -= n;
    }
    while (budget) {
        char buf[65536];
        int n = stream_recv(d->load_stream, buf, sizeof buf);
        char *msg;

        if (n <= 0) {
            if (n != -EAGAIN) {
                load_fail(d, n ? xasprintf("receive failed: %s",
                                           ovs_strerror(-n))
                          : xstrdup("connection closed"));
            }
            return;
        }
        budget -= MIN(budget, n);
        msg = ovsdb_select_scanner_feed(&d->load_scanner, buf, n, load_row_cb,
                                        d);
        if (msg) {
            load_fail(d, msg);
            return;
        }
        if (d->load_scanner.done) {
            load_done(d);
            return;
        }
    }
    poll_immediate_wake();
}

static void
load_wait(struct fpmd *d)
{
    if (d->load_stream) {
        stream_run_wait(d->load_stream);
        stream_connect_wait(d->load_stream);
        if (d->load_out.length) {
            stream_send_wait(d->load_stream);
        } else {
            stream_recv_wait(d->load_stream);
        }
    }
}

/* Handles the reply 'msg' to the oldest transaction in flight. */
static void
db_txn_reply(struct fpmd *d, const struct jsonrpc_msg *msg)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    struct route_batch_txn *txn = fpmd_txn_oldest(d->rib);
    struct json *id = txn->aux;
    long long int now = time_msec();
    size_t n_ops = txn->n_ops;
    long long int latency = now - txn->taken_msec;
    struct ds errors = DS_EMPTY_INITIALIZER;

    txn->aux = NULL;
    json_destroy(id);
    if (fpmd_txn_reply(d->rib, txn, msg, &errors)) {
        COVERAGE_INC(db_txn_committed);
        d->n_committed_ops += n_ops;
        d->last_commit = now;
        d->commit_latency_max = MAX(d->commit_latency_max, latency);
        d->backoff = 0;
    } else {
        COVERAGE_INC(db_txn_failed);
        d->backoff = d->backoff ? MIN(d->backoff * 2, 8000) : 100;
        d->retry_at = now + d->backoff;
        VLOG_WARN_RL(&rl, "%s: transaction of %"PRIuSIZE" operations "
                     "failed, retrying in %d ms: %s", d->db_remote, n_ops,
                     d->backoff, ds_cstr(&errors));
    }
    ds_destroy(&errors);
}

/* Handles one message from the database. */
static void
db_handle_msg(struct fpmd *d, const struct jsonrpc_msg *msg)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

    if (msg->type == JSONRPC_NOTIFY) {
        const struct json_array *params = (msg->params
                                           && msg->params->type == JSON_ARRAY
                                           ? json_array(msg->params) : NULL);

        if (!params || params->n < 2) {
            return;
        }
        if (!strcmp(msg->method, "update")) {
            db_cfg_updates(d, params->elems[1], false);
        } else if (!strcmp(msg->method, "update2") && d->status_monitor) {
            db_status_updates(d, params->elems[1]);
        }
        return;
    }
    if (msg->type != JSONRPC_REPLY && msg->type != JSONRPC_ERROR) {
        return;
    }

    if (d->cfg_id && json_equal(msg->id, d->cfg_id)) {
        free_id(&d->cfg_id);
        if (msg->type == JSONRPC_REPLY) {
            fpmd_vrf_sync_begin(d->rib);
            db_cfg_updates(d, msg->result, true);
            fpmd_vrf_sync_end(d->rib);
            apply_fib_suppression(d);
        } else {
            VLOG_ERR_RL(&rl, "%s: monitor request failed", d->db_remote);
        }
    } else if (d->status_id && json_equal(msg->id, d->status_id)) {
        free_id(&d->status_id);
        if (msg->type == JSONRPC_REPLY) {
            d->status_monitor = true;
            db_status_updates(d, msg->result);
        } else {
            char *s = json_to_string(msg->error, 0);

            VLOG_ERR_RL(&rl, "%s: Route.status monitor failed: %s",
                        d->db_remote, s);
            free(s);
        }
    } else {
        struct route_batch_txn *txn = fpmd_txn_oldest(d->rib);

        if (txn && txn->aux && json_equal(msg->id, txn->aux)) {
            db_txn_reply(d, msg);
        }
        /* Otherwise a reply to monitor_cancel, or a stale reply. */
    }
}

static void
db_run(struct fpmd *d)
{
    unsigned int seqno;

    jsonrpc_session_run(d->db);
    seqno = jsonrpc_session_get_seqno(d->db);
    if (seqno != d->db_seqno) {
        d->db_seqno = seqno;
        db_disconnected(d);
        if (jsonrpc_session_is_connected(d->db)) {
            db_connected(d);
        }
    }

    for (int i = 0; i < 100; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(d->db);

        if (!msg) {
            break;
        }
        db_handle_msg(d, msg);
        jsonrpc_msg_destroy(msg);
    }
    load_run(d);
}

static void
db_wait(struct fpmd *d)
{
    jsonrpc_session_wait(d->db);
    jsonrpc_session_recv_wait(d->db);
    load_wait(d);
}

/* Flushing. */

/* Sends one transaction of up to 'batch_size' operations, if any.
 * Returns true if it sent one. */
static bool
flush_one(struct fpmd *d)
{
    struct route_batch_txn *txn;
    struct json *params;
    struct jsonrpc_msg *msg;
    struct json *id;
    long long int now = time_msec();
    size_t n;

    perf_timer_start(d->flush_timer);
    txn = fpmd_txn_take(d->rib, batch_size(d), &params);
    if (!txn) {
        perf_timer_pause(d->flush_timer);
        return false;
    }
    msg = jsonrpc_create_request("transact", params, &id);
    txn->aux = json_clone(id);
    txn->taken_msec = now;
    jsonrpc_session_send(d->db, msg);

    n = txn->n_ops;
    perf_timer_inc(d->flush_timer, n);
    perf_timer_pause(d->flush_timer);
    COVERAGE_INC(db_txn);
    COVERAGE_ADD(db_txn_ops, n);
    d->n_flushes++;
    d->n_flush_ops += n;
    d->min_flush = d->min_flush ? MIN(d->min_flush, n) : n;
    d->max_flush = MAX(d->max_flush, n);
    d->flush_hist[n < 10 ? 0 : n < 100 ? 1 : n < 1000 ? 2 : n < 10000 ? 3
                  : n < 100000 ? 4 : 5]++;
    d->last_flush = now;
    return true;
}

/* The flush policy: flush at once while fewer than 'flush_threshold'
 * updates are pending; otherwise when a batch is full or 'flush_interval'
 * ms after the last flush; never more than 'max_inflight' transactions
 * in flight. */
static void
flush_run(struct fpmd *d)
{
    if (d->db_state != DB_READY || !fpmd_rib_is_loaded(d->rib)
        || time_msec() < d->retry_at) {
        return;
    }
    while (fpmd_rib_n_inflight(d->rib) < d->max_inflight) {
        size_t n = fpmd_rib_n_pending(d->rib);

        if (!n) {
            break;
        }
        if (n >= d->flush_threshold && n < batch_size(d)
            && time_msec() < d->last_flush + d->flush_interval) {
            break;
        }
        if (!flush_one(d)) {
            break;
        }
    }
}

static void
flush_wait(struct fpmd *d)
{
    size_t n = fpmd_rib_n_pending(d->rib);

    if (d->db_state != DB_READY || !n
        || fpmd_rib_n_inflight(d->rib) >= d->max_inflight) {
        return;
    }
    if (time_msec() < d->retry_at) {
        poll_timer_wait_until(d->retry_at);
    } else if (n >= d->flush_threshold && n < batch_size(d)) {
        poll_timer_wait_until(d->last_flush + d->flush_interval);
    } else {
        poll_immediate_wake();
    }
}

/* FPM. */

static void
fpm_listen(struct fpmd *d)
{
    int error;

    if (d->listener) {
        return;
    }
    error = pstream_open(d->listen_name, &d->listener, DSCP_DEFAULT);
    if (error) {
        VLOG_ERR("%s: listen failed: %s", d->listen_name,
                 ovs_strerror(error));
        return;
    }
    VLOG_INFO("%s: listening for zebra", d->listen_name);
}

static void
fpm_close(struct fpmd *d, const char *why)
{
    if (!d->conn) {
        return;
    }
    VLOG_INFO("%s: FPM connection closed (%s)", d->peer, why);
    COVERAGE_INC(fpm_disconnect);
    stream_close(d->conn);
    d->conn = NULL;
    free(d->peer);
    d->peer = NULL;
    fpm_splitter_reset(&d->splitter);
    ofpbuf_clear(&d->out);
    if (d->reconcile_pending) {
        VLOG_INFO("reconciliation postponed until zebra reconnects (or "
                  "fpm/reconcile)");
        d->reconcile_pending = false;
    }
}

/* Counts and logs a malformed message in a good frame. */
static void
fpm_bad_msg(struct fpmd *d, int error, const struct nlmsghdr *nlh)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    size_t kind = error >= FPM_PARSE_TRUNCATED ? error - FPM_PARSE_TRUNCATED
                                                 + 1 : 0;

    if (!nlh) {
        COVERAGE_INC(fpm_bad_frame);
        VLOG_WARN_RL(&rl, "%s: frame with a broken chain of netlink "
                     "messages: rest of the frame skipped", d->peer);
    } else {
        d->parse_errors[MIN(kind, ARRAY_SIZE(d->parse_errors) - 1)]++;
        COVERAGE_INC(fpm_bad_msg);
        VLOG_WARN_RL(&rl, "%s: netlink message type %u skipped: %s",
                     d->peer, nlh->nlmsg_type,
                     fpm_parse_error_to_string(error));
    }
}

/* fpm_route_parse_frame() callback. */
static void
fpmd_msg_cb(const struct fpm_msg *msg, int error, const struct nlmsghdr *nlh,
           void *d_)
{
    struct fpmd *d = d_;

    COVERAGE_INC(fpm_msg);
    if (error) {
        fpm_bad_msg(d, error, nlh);
        return;
    }
    if (VLOG_IS_DBG_ENABLED()) {
        struct ds s = DS_EMPTY_INITIALIZER;

        fpm_msg_format(msg, &s);
        VLOG_DBG("%s: %s", d->peer, ds_cstr(&s));
        ds_destroy(&s);
    }
    switch (msg->kind) {
    case FPM_MSG_ROUTE:
        if (msg->route.op == FPM_OP_ADD) {
            COVERAGE_INC(fpm_route_add);
        } else {
            COVERAGE_INC(fpm_route_del);
        }
        fpmd_rib_route(d->rib, &msg->route);
        break;
    case FPM_MSG_NEXTHOP:
        if (msg->nexthop.op == FPM_OP_ADD) {
            COVERAGE_INC(fpm_nexthop_add);
        } else {
            COVERAGE_INC(fpm_nexthop_del);
        }
        fpmd_nh_input(d->rib, &msg->nexthop);
        break;
    case FPM_MSG_SKIPPED:
        COVERAGE_INC(fpm_msg_skipped);
        break;
    }
}

/* Accepts a connection from zebra, replacing the current one. */
static void
fpm_accept(struct fpmd *d)
{
    struct stream *conn;
    int error = pstream_accept(d->listener, &conn);

    if (error) {
        if (error != EAGAIN) {
            VLOG_WARN("%s: accept failed: %s", d->listen_name,
                      ovs_strerror(error));
        }
        return;
    }
    if (d->conn) {
        fpm_close(d, "zebra connected again");
    }
    d->conn = conn;
    d->peer = xstrdup(stream_get_name(conn));
    d->conn_since = time_msec();
    d->n_connections++;
    fpm_splitter_reset(&d->splitter);
    COVERAGE_INC(fpm_connect);

    fpmd_rib_new_generation(d->rib);
    d->reconcile_armed = true;
    if (d->reconcile_timer.value > 0) {
        d->reconcile_pending = true;
        d->reconcile_deadline = time_msec()
                                + d->reconcile_timer.value * 1000;
        VLOG_INFO("%s: zebra connected; routes it does not replay within "
                  "%"PRId64" s will be deleted", d->peer,
                  d->reconcile_timer.value);
    } else {
        d->reconcile_pending = true;
        d->reconcile_deadline = LLONG_MAX;
        VLOG_INFO("%s: zebra connected; reconcile timer off: stale routes "
                  "are deleted on fpm/reconcile only", d->peer);
    }
}

/* Sends what it can of the queued offload notifications. */
static void
fpm_send_output(struct fpmd *d)
{
    while (d->conn && d->out.size) {
        int n = stream_send(d->conn, d->out.data, d->out.size);

        if (n > 0) {
            ofpbuf_pull(&d->out, n);
        } else {
            if (n != -EAGAIN) {
                fpm_close(d, ovs_strerror(-n));
            }
            break;
        }
    }
    if (!d->out.size) {
        ofpbuf_clear(&d->out);
    }
}

/* Reads and processes what zebra sent, up to FPM_READ_BUDGET bytes, unless
 * too many rows are pending already. */
static void
fpm_read(struct fpmd *d)
{
    size_t budget = FPM_READ_BUDGET;

    while (d->conn && budget) {
        struct fpm_frame f;
        size_t room;
        void *p;
        int error;
        int n;

        if (fpmd_rib_n_pending(d->rib) >= max_pending(d)) {
            if (!d->paused) {
                d->paused = true;
                d->n_paused++;
                COVERAGE_INC(fpm_paused);
            }
            return;
        }
        d->paused = false;

        p = fpm_splitter_reserve(&d->splitter, &room);
        n = stream_recv(d->conn, p, MIN(room, budget));
        if (n <= 0) {
            size_t partial = fpm_splitter_pending(&d->splitter);

            if (n == -EAGAIN) {
                return;
            }
            if (partial) {
                VLOG_WARN("%s: connection ended in the middle of a frame: "
                          "%"PRIuSIZE" bytes of an incomplete frame "
                          "discarded", d->peer, partial);
                COVERAGE_INC(fpm_bad_frame);
                d->n_incomplete++;
            }
            fpm_close(d, n ? ovs_strerror(-n) : "zebra closed it");
            return;
        }
        fpm_splitter_commit(&d->splitter, n);
        budget -= MIN(budget, n);
        d->n_bytes += n;

        perf_timer_start(d->parse_timer);
        while (!(error = fpm_splitter_next(&d->splitter, &f))) {
            uint64_t n_msgs = d->pstats.n_msgs;

            COVERAGE_INC(fpm_frame);
            fpm_route_parse_frame(f.data, f.size, &d->scratch, &d->pstats,
                                  fpmd_msg_cb, d);
            perf_timer_inc(d->parse_timer, d->pstats.n_msgs - n_msgs);
        }
        perf_timer_pause(d->parse_timer);
        if (error != EAGAIN) {
            uint8_t *h = d->splitter.bad_hdr;

            VLOG_WARN("%s: bad FPM frame header %02x %02x %02x %02x: %s; "
                      "closing the connection", d->peer, h[0], h[1], h[2],
                      h[3], fpm_frame_error_to_string(d->splitter.error));
            COVERAGE_INC(fpm_bad_frame_header);
            d->n_bad_headers++;
            fpm_close(d, "bad frame header");
            return;
        }
    }
    if (d->conn && !budget) {
        poll_immediate_wake();
    }
}

static void
fpm_run(struct fpmd *d)
{
    if (d->listener) {
        fpm_accept(d);
    }
    if (d->conn) {
        stream_run(d->conn);
        fpm_send_output(d);
    }
    if (d->conn) {
        fpm_read(d);
    }
}

static void
fpm_wait(struct fpmd *d)
{
    if (d->listener) {
        pstream_wait(d->listener);
    }
    if (d->conn) {
        stream_run_wait(d->conn);
        if (fpmd_rib_n_pending(d->rib) < max_pending(d)) {
            stream_recv_wait(d->conn);
        }
        if (d->out.size) {
            stream_send_wait(d->conn);
        }
    }
}

/* Reconciliation. */

static void
reconcile_now(struct fpmd *d)
{
    size_t n_routes, n_nhgs;

    d->reconcile_pending = false;
    d->reconcile_armed = false;
    fpmd_rib_reconcile(d->rib, &n_routes, &n_nhgs);
    d->last_reconcile = time_msec();
    d->last_stale_routes = n_routes;
    d->last_stale_nhgs = n_nhgs;
    COVERAGE_INC(reconcile_run);
    COVERAGE_ADD(reconcile_stale, n_routes + n_nhgs);
    VLOG_INFO("reconciliation: %"PRIuSIZE" stale routes and %"PRIuSIZE
              " stale next-hop objects deleted", n_routes, n_nhgs);
}

static void
reconcile_run(struct fpmd *d)
{
    if (d->reconcile_pending && time_msec() >= d->reconcile_deadline
        && fpmd_rib_is_loaded(d->rib)) {
        reconcile_now(d);
    }
}

static void
reconcile_wait(struct fpmd *d)
{
    if (d->reconcile_pending && fpmd_rib_is_loaded(d->rib)
        && d->reconcile_deadline != LLONG_MAX) {
        poll_timer_wait_until(d->reconcile_deadline);
    }
}

/* unixctl commands. */

static void
fpmd_unixctl_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                  const char *argv[] OVS_UNUSED, void *d_)
{
    struct fpmd *d = d_;
    long long int now = time_msec();
    struct ds s = DS_EMPTY_INITIALIZER;
    static const char *db_states[] = { "disconnected", "loading", "ready" };

    ds_put_format(&s, "fpm: %s", d->listener ? d->listen_name
                  : "not listening (waiting for the database)");
    if (d->conn) {
        ds_put_format(&s, ", connected to %s for %lld s\n", d->peer,
                      (now - d->conn_since) / 1000);
    } else {
        ds_put_cstr(&s, ", no connection\n");
    }
    ds_put_format(&s, "fpm connections: %"PRIu64", closed for bad frame "
                  "headers: %"PRIu64", ended mid-frame: %"PRIu64"\n",
                  d->n_connections, d->n_bad_headers, d->n_incomplete);
    ds_put_format(&s, "fpm input: %"PRIu64" bytes, %"PRIu64" frames, %"
                  PRIu64" messages (%"PRIu64" routes, %"PRIu64" next hops, %"
                  PRIu64" skipped)\n", d->n_bytes, d->pstats.n_frames,
                  d->pstats.n_msgs, d->pstats.n_routes,
                  d->pstats.n_nexthops, d->pstats.n_skipped);
    ds_put_format(&s, "fpm errors: %"PRIu64" malformed messages, %"PRIu64
                  " broken frames", d->pstats.n_errors
                  - d->pstats.n_bad_frames, d->pstats.n_bad_frames);
    for (size_t i = 1; i < ARRAY_SIZE(d->parse_errors); i++) {
        if (d->parse_errors[i]) {
            ds_put_format(&s, ", %s: %"PRIu64,
                          fpm_parse_error_to_string(FPM_PARSE_TRUNCATED
                                                    + i - 1),
                          d->parse_errors[i]);
        }
    }
    ds_put_char(&s, '\n');
    ds_put_format(&s, "fpm backpressure: %s, %"PRIu64" pauses (at %"
                  PRIuSIZE" pending)\n", d->paused ? "paused" : "reading",
                  d->n_paused, max_pending(d));
    ds_put_format(&s, "database: %s, %s", d->db_remote,
                  db_states[d->db_state]);
    if (d->last_load_ms) {
        ds_put_format(&s, " (last read took %lld ms)", d->last_load_ms);
    }
    ds_put_char(&s, '\n');
    fpmd_rib_format(d->rib, &s);
    ds_put_format(&s, "flushes: %"PRIu64" (%"PRIu64" operations; size min %"
                  PRIuSIZE" max %"PRIuSIZE"; 1-9: %"PRIu64", 10-99: %"PRIu64
                  ", 100-999: %"PRIu64", 1000-9999: %"PRIu64", 10000+: %"
                  PRIu64")\n", d->n_flushes, d->n_flush_ops, d->min_flush,
                  d->max_flush, d->flush_hist[0], d->flush_hist[1],
                  d->flush_hist[2], d->flush_hist[3],
                  d->flush_hist[4] + d->flush_hist[5]);
    if (d->last_flush) {
        ds_put_format(&s, "last flush: %lld ms ago, last commit: ",
                      now - d->last_flush);
        if (d->last_commit) {
            ds_put_format(&s, "%lld ms ago", now - d->last_commit);
        } else {
            ds_put_cstr(&s, "never");
        }
        ds_put_format(&s, ", longest commit latency %lld ms\n",
                      d->commit_latency_max);
    }
    ds_put_format(&s, "committed: %"PRIu64"\n", d->n_committed_ops);
    ds_put_format(&s, "pending: %"PRIuSIZE"\n", fpmd_rib_n_pending(d->rib));
    ds_put_format(&s, "in flight: %"PRIuSIZE"\n",
                  fpmd_rib_n_inflight_ops(d->rib));
    if (d->reconcile_pending) {
        if (d->reconcile_deadline == LLONG_MAX) {
            ds_put_cstr(&s, "reconciliation: waiting for fpm/reconcile\n");
        } else {
            ds_put_format(&s, "reconciliation: in %lld ms\n",
                          MAX(0, d->reconcile_deadline - now));
        }
    } else if (d->reconcile_armed) {
        ds_put_cstr(&s, "reconciliation: postponed (zebra disconnected); "
                    "waiting for zebra or fpm/reconcile\n");
    } else if (d->last_reconcile) {
        ds_put_format(&s, "reconciliation: done %lld ms ago (%"PRIuSIZE
                      " routes, %"PRIuSIZE" next-hop objects deleted)\n",
                      now - d->last_reconcile, d->last_stale_routes,
                      d->last_stale_nhgs);
    } else {
        ds_put_cstr(&s, "reconciliation: none yet\n");
    }
    ds_put_format(&s, "offload notifications: %"PRIu64" sent, %"PRIu64
                  " dropped (fib suppression %s)\n", d->n_offload_sent,
                  d->n_offload_dropped,
                  d->fib_suppression.value ? "on" : "off");
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
fpmd_unixctl_reconcile(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[] OVS_UNUSED, void *d_)
{
    struct fpmd *d = d_;

    if (!d->reconcile_armed) {
        unixctl_command_reply_error(conn, "no reconciliation pending (zebra "
                                    "has not connected since the last "
                                    "one)");
        return;
    }
    if (!fpmd_rib_is_loaded(d->rib)) {
        d->reconcile_pending = true;
        d->reconcile_deadline = time_msec();
        unixctl_command_reply(conn, "reconciliation will run once the "
                              "database is read");
        return;
    }
    reconcile_now(d);
    unixctl_command_reply(conn, NULL);
}

static void
fpmd_unixctl_features(struct unixctl_conn *conn, int argc OVS_UNUSED,
                      const char *argv[] OVS_UNUSED, void *d_)
{
    struct fpmd *d = d_;
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_format(&s, "batch_size: %"PRId64" (%s)\n", d->batch_size.value,
                  knob_source_name(d->batch_size.source));
    ds_put_format(&s, "reconcile_timer: %"PRId64" s (%s)\n",
                  d->reconcile_timer.value,
                  knob_source_name(d->reconcile_timer.source));
    ds_put_format(&s, "fib_suppression: %s (%s)\n",
                  d->fib_suppression.value ? "on" : "off",
                  knob_source_name(d->fib_suppression.source));
    ds_put_format(&s, "resolve_nexthops: %s (%s)\n",
                  d->resolve_nexthops.value ? "on" : "off",
                  knob_source_name(d->resolve_nexthops.source));
    ds_put_format(&s, "flush_threshold: %d\nflush_interval: %d ms\n"
                  "max_inflight: %d\nmax_pending: %"PRIuSIZE"\n",
                  d->flush_threshold, d->flush_interval, d->max_inflight,
                  max_pending(d));
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
fpmd_unixctl_exit(struct unixctl_conn *conn, int argc OVS_UNUSED,
                  const char *argv[] OVS_UNUSED, void *d_)
{
    struct fpmd *d = d_;

    d->exiting = true;
    unixctl_command_reply(conn, NULL);
}

/* main. */

int
main(int argc, char *argv[])
{
    struct unixctl_server *unixctl;
    struct perf_timer_options popts;
    struct fpmd d;
    int error;

    memset(&d, 0, sizeof d);
    d.batch_size.value = DEFAULT_BATCH_SIZE;
    d.reconcile_timer.value = DEFAULT_RECONCILE_TIMER;
    d.resolve_nexthops.value = 1;
    d.flush_threshold = DEFAULT_FLUSH_THRESHOLD;
    d.flush_interval = DEFAULT_FLUSH_INTERVAL;
    d.max_inflight = DEFAULT_MAX_INFLIGHT;
    d.fpm_port = FIBSYNC_FPM_PORT;

    ovs_cmdl_proctitle_init(argc, argv);
    set_program_name(argv[0]);
    service_start(&argc, &argv);
    parse_options(argc, argv, &d);
    fatal_ignore_sigpipe();

    if (!d.fpm_addr) {
        d.fpm_addr = xstrdup("127.0.0.1");
    }
    d.listen_name = xasprintf("ptcp:%d:%s", d.fpm_port, d.fpm_addr);
    if (!d.db_remote) {
        d.db_remote = xstrdup(fibsync_default_db());
    }

    daemonize_start(false);
    if (!unixctl_path) {
        unixctl_path = fibsync_ctl_path("fpmsyncd");
    }
    error = unixctl_server_create(unixctl_path, &unixctl);
    if (error) {
        ovs_fatal(error, "%s: could not create unixctl socket",
                  unixctl_path);
    }
    unixctl_command_register("fpm/show", "", 0, 0, fpmd_unixctl_show, &d);
    unixctl_command_register("fpm/reconcile", "", 0, 0,
                             fpmd_unixctl_reconcile, &d);
    unixctl_command_register("features/show", "", 0, 0,
                             fpmd_unixctl_features, &d);
    unixctl_command_register("exit", "", 0, 0, fpmd_unixctl_exit, &d);
    perf_timer_register_unixctl();
    daemonize_complete();

    perf_timer_options_init(&popts);
    popts.module = &this_module;
    popts.threshold = 100000;
    d.parse_timer = perf_timer_create("PARSE", &popts);
    d.flush_timer = perf_timer_create("FLUSH", &popts);

    d.rib = fpmd_rib_create(NULL);
    fpmd_rib_set_resolve(d.rib, d.resolve_nexthops.value);
    fpmd_offload_set_cb(d.rib, offload_cb, &d);
    fpmd_offload_enable(d.rib, d.fib_suppression.value != 0);
    fpm_splitter_init(&d.splitter, 0);
    fpm_msg_init(&d.scratch);
    ofpbuf_init(&d.out, 0);

    d.db = jsonrpc_session_open(d.db_remote, true);
    /* ovsdb-server may be busy for seconds with a large transaction: do
     * not take that for a dead connection. */
    jsonrpc_session_set_probe_interval(d.db, 0);
    d.db_seqno = jsonrpc_session_get_seqno(d.db);
    VLOG_INFO("fpmsyncd starting: database %s, FPM %s", d.db_remote,
              d.listen_name);

    while (!d.exiting) {
        memory_run();
        if (memory_should_report()) {
            struct simap usage = SIMAP_INITIALIZER(&usage);

            simap_put(&usage, "routes", fpmd_rib_n_routes(d.rib));
            simap_put(&usage, "nexthops", fpmd_rib_n_nexthops(d.rib));
            simap_put(&usage, "pending", fpmd_rib_n_pending(d.rib));
            memory_report(&usage);
            simap_destroy(&usage);
        }
        unixctl_server_run(unixctl);
        db_run(&d);
        /* Flush right after the replies, before reading more from zebra,
         * so that ovsdb-server never waits for fpmsyncd to parse. */
        flush_run(&d);
        fpm_run(&d);
        reconcile_run(&d);
        flush_run(&d);
        fpm_send_output(&d);
        perf_timer_run(d.parse_timer);
        perf_timer_run(d.flush_timer);

        memory_wait();
        unixctl_server_wait(unixctl);
        db_wait(&d);
        fpm_wait(&d);
        reconcile_wait(&d);
        flush_wait(&d);
        perf_timer_wait(d.parse_timer);
        perf_timer_wait(d.flush_timer);
        if (d.exiting) {
            poll_immediate_wake();
        }
        poll_block();
    }

    VLOG_INFO("fpmsyncd exiting (%"PRIuSIZE" rows pending, %"PRIuSIZE
              " operations in flight)", fpmd_rib_n_pending(d.rib),
              fpmd_rib_n_inflight_ops(d.rib));
    if (d.conn) {
        stream_close(d.conn);
    }
    pstream_close(d.listener);
    load_stop(&d);
    jsonrpc_session_close(d.db);
    unixctl_server_destroy(unixctl);
    perf_timer_flush(d.parse_timer);
    perf_timer_flush(d.flush_timer);
    perf_timer_destroy(d.parse_timer);
    perf_timer_destroy(d.flush_timer);
    fpmd_rib_destroy(d.rib);
    fpm_splitter_destroy(&d.splitter);
    fpm_msg_destroy(&d.scratch);
    ofpbuf_uninit(&d.out);
    free(d.fpm_addr);
    free(d.listen_name);
    free(d.db_remote);
    free(d.peer);
    free(unixctl_path);
    service_stop();
    return 0;
}

/* Command line. */

static void
parse_options(int argc, char *argv[], struct fpmd *d)
{
    enum {
        OPT_DB = UCHAR_MAX + 1,
        OPT_FPM_PORT,
        OPT_FPM_ADDR,
        OPT_UNIXCTL,
        OPT_BATCH_SIZE,
        OPT_RECONCILE_TIMER,
        OPT_FIB_SUPPRESSION,
        OPT_RESOLVE_NEXTHOPS,
        OPT_FLUSH_THRESHOLD,
        OPT_FLUSH_INTERVAL,
        OPT_MAX_INFLIGHT,
        OPT_MAX_PENDING,
        VLOG_OPTION_ENUMS,
        DAEMON_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"db", required_argument, NULL, OPT_DB},
        {"fpm-port", required_argument, NULL, OPT_FPM_PORT},
        {"fpm-addr", required_argument, NULL, OPT_FPM_ADDR},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        {"batch-size", required_argument, NULL, OPT_BATCH_SIZE},
        {"reconcile-timer", required_argument, NULL, OPT_RECONCILE_TIMER},
        {"fib-suppression", required_argument, NULL, OPT_FIB_SUPPRESSION},
        {"resolve-nexthops", required_argument, NULL,
         OPT_RESOLVE_NEXTHOPS},
        {"flush-threshold", required_argument, NULL, OPT_FLUSH_THRESHOLD},
        {"flush-interval", required_argument, NULL, OPT_FLUSH_INTERVAL},
        {"max-inflight", required_argument, NULL, OPT_MAX_INFLIGHT},
        {"max-pending", required_argument, NULL, OPT_MAX_PENDING},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    char *short_options = ovs_cmdl_long_options_to_short_options(
        long_options);

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case OPT_DB:
            free(d->db_remote);
            d->db_remote = xstrdup(optarg);
            break;
        case OPT_FPM_PORT:
            d->fpm_port = option_parse_uint("fpm-port", optarg, 0, 65535);
            break;
        case OPT_FPM_ADDR:
            free(d->fpm_addr);
            d->fpm_addr = xstrdup(optarg);
            break;
        case OPT_UNIXCTL:
            free(unixctl_path);
            unixctl_path = xstrdup(optarg);
            break;
        case OPT_BATCH_SIZE:
            d->batch_size.value = option_parse_uint("batch-size", optarg, 1,
                                                   1000000);
            d->batch_size.source = SRC_CMDLINE;
            break;
        case OPT_RECONCILE_TIMER:
            d->reconcile_timer.value = option_parse_uint("reconcile-timer",
                                                        optarg, 0, 3600);
            d->reconcile_timer.source = SRC_CMDLINE;
            break;
        case OPT_FIB_SUPPRESSION:
            if (!strcmp(optarg, "on") || !strcmp(optarg, "true")) {
                d->fib_suppression.value = 1;
            } else if (!strcmp(optarg, "off") || !strcmp(optarg, "false")) {
                d->fib_suppression.value = 0;
            } else {
                ovs_fatal(0, "--fib-suppression: \"%s\" is not on or off",
                          optarg);
            }
            d->fib_suppression.source = SRC_CMDLINE;
            break;
        case OPT_RESOLVE_NEXTHOPS:
            if (!strcmp(optarg, "on") || !strcmp(optarg, "true")) {
                d->resolve_nexthops.value = 1;
            } else if (!strcmp(optarg, "off") || !strcmp(optarg, "false")) {
                d->resolve_nexthops.value = 0;
            } else {
                ovs_fatal(0, "--resolve-nexthops: \"%s\" is not on or off",
                          optarg);
            }
            d->resolve_nexthops.source = SRC_CMDLINE;
            break;
        case OPT_FLUSH_THRESHOLD:
            d->flush_threshold = option_parse_uint("flush-threshold", optarg,
                                                  0, 10000000);
            break;
        case OPT_FLUSH_INTERVAL:
            d->flush_interval = option_parse_uint("flush-interval", optarg,
                                                 0, 60000);
            break;
        case OPT_MAX_INFLIGHT:
            d->max_inflight = option_parse_uint("max-inflight", optarg, 1,
                                               64);
            break;
        case OPT_MAX_PENDING:
            d->max_pending = option_parse_uint("max-pending", optarg, 1,
                                              INT_MAX);
            break;
        case 'h':
            usage();
        case 'V':
            ovs_print_version(0, 0);
            exit(EXIT_SUCCESS);
        VLOG_OPTION_HANDLERS
        DAEMON_OPTION_HANDLERS
        case '?':
            exit(EXIT_FAILURE);
        default:
            abort();
        }
    }
    free(short_options);

    if (optind < argc) {
        ovs_fatal(0, "%s: unexpected argument (use --help for help)",
                  argv[optind]);
    }
}

static void
usage(void)
{
    printf("\
%s: FRR zebra's FPM stream into the Fibsync OVSDB database\n\
\n\
SYNOPSIS\n\
  %s [OPTIONS]\n\
\n\
DESCRIPTION\n\
  fpmsyncd listens for FRR zebra's Forwarding Plane Manager connection\n\
  (zebra loaded with -M dplane_fpm_nl and \"fpm address A port P\" in its\n\
  configuration) and writes every route zebra selects into the Fibsync\n\
  database served by ovsdb-server: one Route row per (VRF, prefix), one\n\
  Nexthop_Group row per zebra next-hop object, and a Vrf row for each\n\
  kernel table id without one (254 is VRF \"default\", others\n\
  \"table<N>\").  A Route row carries the protocol (bgp, static, ospf,\n\
  connected, ... or proto-N), the metric, the zebra next-hop group id and\n\
  the resolved next hops, \"GATEWAY@IFNAME\" mapped to the ECMP weight.\n\
  Interface names come from the ifindexes in fpmsyncd's own network\n\
  namespace (\"if<N>\" when unknown): run it where zebra runs.\n\
\n\
  Every row has a UUID derived from its key, so updates and deletes are\n\
  O(1) in ovsdb-server.  Updates to one route coalesce (the last wins; an\n\
  add then a delete of a route not yet written cancels).  fpmsyncd\n\
  flushes at once while fewer than --flush-threshold updates are pending,\n\
  otherwise when a batch of --batch-size is full or --flush-interval ms\n\
  after the last flush, one transaction per flush, with up to\n\
  --max-inflight transactions pipelined.  When the database falls behind\n\
  it stops reading from zebra.  A failed transaction is retried: no\n\
  update is lost.\n\
\n\
  At startup, and after each reconnection to the database, fpmsyncd reads\n\
  the Route and Nexthop_Group rows it owns, so a restart never empties the\n\
  database.  When zebra connects it replays its table; routes that it\n\
  does not replay within the reconcile timer are deleted, and unchanged\n\
  routes are not rewritten.  FRR 8.4 sends no end-of-replay marker;\n\
  \"ovs-appctl fpm/reconcile\" ends the window early.\n\
\n\
  With FIB suppression on (Global:fib_suppression or --fib-suppression),\n\
  fpmsyncd watches Route.status and sends zebra an RTM_NEWROUTE with\n\
  RTM_F_OFFLOAD once a route's status has offload=true.\n\
\n\
  fpmsyncd starts listening for zebra only once it has read the database.\n\
\n\
OPTIONS\n\
  --db=REMOTE            database (default: %s)\n\
  --fpm-addr=ADDR        address to listen on for zebra (default 127.0.0.1)\n\
  --fpm-port=PORT        TCP port to listen on (default %d)\n\
  --unixctl=SOCKET       control socket (default: $FIBSYNC_RUNDIR/\n\
                         fpmsyncd.ctl)\n\
  --batch-size=N         most rows in one transaction (default:\n\
                         Global:batch_size, or %d)\n\
  --reconcile-timer=SECS seconds zebra has to replay its table after it\n\
                         connects (default: Global:reconcile_timer, or\n\
                         %d); 0: reconcile on fpm/reconcile only\n\
  --fib-suppression=on|off  override Global:fib_suppression\n\
  --resolve-nexthops=on|off  whether a route through a zebra next-hop\n\
                         group carries the group's members in\n\
                         Route.nexthops (on, the default) or only the\n\
                         group id in Route.nexthop_group (off: about a\n\
                         quarter less ovsdb-server work per route, and a\n\
                         group change rewrites one row, not every route);\n\
                         overrides Global:other_config:resolve_nexthops\n\
  --flush-threshold=N    flush at once below N pending updates (default %d)\n\
  --flush-interval=MS    otherwise flush at least every MS ms (default %d)\n\
  --max-inflight=N       transactions in flight at once (default %d)\n\
  --max-pending=N        stop reading zebra at N pending updates (default:\n\
                         max(20000, batch size * (max-inflight + 1)))\n\
\n\
  Command-line settings win over the Global table; features/show says\n\
  which value is in force and where it came from.\n",
           program_name, program_name, fibsync_default_db(),
           FIBSYNC_FPM_PORT, DEFAULT_BATCH_SIZE, DEFAULT_RECONCILE_TIMER,
           DEFAULT_FLUSH_THRESHOLD, DEFAULT_FLUSH_INTERVAL,
           DEFAULT_MAX_INFLIGHT);
    daemon_usage();
    vlog_usage();
    printf("\
\n\
RUNTIME COMMANDS (ovs-appctl -t $FIBSYNC_RUNDIR/fpmsyncd.ctl COMMAND)\n\
  fpm/show               connection, counters, errors by kind, pending and\n\
                         in-flight rows, flush sizes, reconciliation\n\
  fpm/reconcile          end of replay: delete stale routes now\n\
  features/show          settings in force and where they came from\n\
  perf/show              PARSE and FLUSH performance timer lines\n\
  coverage/show          event counters\n\
  vlog/set, vlog/list    logging\n\
  exit                   stop fpmsyncd\n\
\n\
OTHER OPTIONS\n\
  -h, --help             display this help message\n\
  -V, --version          display version information\n");
    exit(EXIT_SUCCESS);
}
