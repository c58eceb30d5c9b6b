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

#include "daemons/syncd-writeback.h"

#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/syncd-rows.h"
#include "daemons/syncd-status.h"
#include "lib/ovsdb-select-reader.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(syncd_writeback);

/* These kept the names they had when the write-back was in syncd-db.c. */
COVERAGE_DEFINE(syncd_db_wb_txn);
COVERAGE_DEFINE(syncd_db_wb_row);
COVERAGE_DEFINE(syncd_db_wb_error);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

#define DB_NAME "Fibsync"
#define TABLE "Asic_Route"

/* One row of a write-back transaction. */
struct wb_entry {
    struct uuid uuid;           /* The row. */
    int64_t seq;                /* The applied_seq written. */
    uint8_t code;               /* The outcome written. */
};

/* A write-back transaction not yet ended: the argument of its completion
 * callback. */
struct wb_txn {
    struct syncd_writeback *wb; /* Owner. */
    size_t n;                   /* Number of 'entries'. */
    struct wb_entry entries[];  /* Its rows, in operation order. */
};

/* An applied_seq read from the database at start. */
struct wb_applied {
    struct hmap_node node;      /* In 'wb->applied', by uuid_hash(). */
    struct uuid uuid;           /* The row. */
    int64_t applied_seq;        /* Its applied_seq (state programmed). */
};

/* State of the start-up read of applied_seq. */
enum wb_read_state {
    WB_READ_NONE,               /* Not started yet. */
    WB_READ_RUNNING,            /* Reading. */
    WB_READ_DONE,               /* Read (or failed for good). */
};

struct syncd_writeback {
    struct syncd_rows *rows;    /* The rows whose outcomes are written. */
    struct ovsdb_writer *writer; /* The write-back connection. */
    char *remote;               /* Database remote. */
    int instance;               /* ASIC instance whose rows are read. */
    uint32_t batch;             /* Rows per transaction. */
    bool disabled;              /* Write-back disabled? */
    bool destroying;            /* Inside syncd_writeback_destroy()? */

    /* Rows whose outcome to write, oldest first, from 'head'.  A row is
     * here once while SYNCD_ROW_WB_PENDING; an entry whose row has gone
     * or was written already is skipped. */
    struct uuid *fifo;          /* The queue. */
    size_t head;                /* First unconsumed entry. */
    size_t n;                   /* Entries, consumed ones included. */
    size_t allocated;           /* Capacity. */

    /* Start-up read of applied_seq. */
    enum wb_read_state read_state; /* Where it is. */
    struct ovsdb_select_reader *reader; /* The read, if running. */
    unsigned int read_seqno;    /* The writer's seqno when it started. */
    size_t n_read;              /* Rows read. */
    struct hmap applied;        /* "struct wb_applied"s not yet taken. */

    struct syncd_writeback_stats stats; /* Counters (some computed on
                                         * demand). */
};

/* ---- Queueing ----------------------------------------------------------- */

/* Appends 'uuid' to the queue, reclaiming its consumed front before
 * growing it. */
static void
fifo_push(struct syncd_writeback *wb, const struct uuid *uuid)
{
    if (wb->n >= wb->allocated) {
        if (wb->head > wb->n / 2) {
            /* Reclaim the consumed front. */
            memmove(wb->fifo, &wb->fifo[wb->head],
                    (wb->n - wb->head) * sizeof *wb->fifo);
            wb->n -= wb->head;
            wb->head = 0;
        } else {
            wb->fifo = x2nrealloc(wb->fifo, &wb->allocated,
                                  sizeof *wb->fifo);
        }
    }
    wb->fifo[wb->n++] = *uuid;
}

/* Records 'code' as 'row''s latest outcome and queues its write-back. */
void
syncd_writeback_mark(struct syncd_writeback *wb, struct syncd_row *row,
                     uint8_t code)
{
    row->wb_code = code;
    syncd_rows_set_in_sync(wb->rows, row, false);
    if (!wb->disabled && syncd_rows_set_wb(wb->rows, row)) {
        fifo_push(wb, &row->uuid);
    }
}

/* ---- Completion --------------------------------------------------------- */

/* 'txn' committed: rows written "programmed" and unchanged since are in
 * sync. */
static void
txn_committed(struct syncd_writeback *wb, const struct wb_txn *txn)
{
    wb->stats.acked += txn->n;
    for (size_t i = 0; i < txn->n; i++) {
        const struct wb_entry *e = &txn->entries[i];
        struct syncd_row *row;

        if (!e->code) {
            row = syncd_rows_find(wb->rows, &e->uuid);
            if (row && row->seq == e->seq
                && !(row->flags & SYNCD_ROW_WB_PENDING)) {
                syncd_rows_set_in_sync(wb->rows, row, true);
            }
        }
    }
}

/* 'txn' was refused: it is not retried, but its rows may hold an error
 * message from before. */
static void
txn_refused(struct syncd_writeback *wb, const struct wb_txn *txn,
            const char *error)
{
    wb->stats.errors++;
    COVERAGE_INC(syncd_db_wb_error);
    VLOG_WARN_RL(&rl, "write-back of %"PRIuSIZE" rows failed: %s",
                 txn->n, error);
    for (size_t i = 0; i < txn->n; i++) {
        struct syncd_row *row = syncd_rows_find(wb->rows,
                                                &txn->entries[i].uuid);

        if (row) {
            row->flags |= SYNCD_ROW_ERROR_SET;
        }
    }
}

/* 'txn' was lost with the connection: its rows go back in the queue,
 * since they may not have been written. */
static void
txn_lost(struct syncd_writeback *wb, const struct wb_txn *txn)
{
    for (size_t i = 0; i < txn->n; i++) {
        const struct wb_entry *e = &txn->entries[i];
        struct syncd_row *row = syncd_rows_find(wb->rows, &e->uuid);

        if (row) {
            /* The write may or may not have happened. */
            row->flags |= SYNCD_ROW_ERROR_SET;
            if (row->seq == e->seq
                && !(row->flags & SYNCD_ROW_WB_PENDING)) {
                syncd_writeback_mark(wb, row, row->wb_code);
            }
        }
    }
}

/* The writer's completion callback of every write-back transaction. */
static void
txn_done(void *txn_, const struct ovsdb_writer_reply *reply)
{
    struct wb_txn *txn = txn_;
    struct syncd_writeback *wb = txn->wb;

    wb->stats.inflight_rows -= txn->n;
    if (!wb->destroying) {
        switch (reply->result) {
        case OVSDB_WRITER_SUCCESS:
            txn_committed(wb, txn);
            break;
        case OVSDB_WRITER_ERROR:
            txn_refused(wb, txn, reply->error);
            break;
        case OVSDB_WRITER_LOST:
        default:
            txn_lost(wb, txn);
            break;
        }
    }
    free(txn);
}

/* ---- Sending ------------------------------------------------------------ */

/* Appends 'value' in decimal to 's'. */
static void
put_int(struct ds *s, int64_t value)
{
    if (value < 0) {
        ds_put_char(s, '-');
        ovsdb_wire_put_uint(s, -(uint64_t) value);
    } else {
        ovsdb_wire_put_uint(s, value);
    }
}

/* Appends to 'ops' ',' and the "update" operation that writes 'row''s
 * latest outcome: state, error (only if it must change) and
 * applied_seq. */
static void
put_update(const struct syncd_writeback *wb, struct ds *ops,
           const struct syncd_row *row)
{
    ds_put_char(ops, ',');
    ovsdb_wire_put_op_start(ops, "update", TABLE, &row->uuid);
    if (!row->wb_code) {
        ds_put_cstr(ops, ",\"row\":{\"state\":\"programmed\"");
        if (row->flags & SYNCD_ROW_ERROR_SET) {
            ds_put_cstr(ops, ",\"error\":[\"set\",[]]");
        }
    } else {
        const char *error;

        if (row->wb_code == SYNCD_ROW_CODE_BAD) {
            error = syncd_rows_bad_msg(wb->rows, &row->uuid);
            error = error ? error : "invalid row";
        } else {
            error = syncd_status_code_name(row->wb_code);
        }
        ds_put_cstr(ops, ",\"row\":{\"state\":\"error\",\"error\":");
        json_string_escape(error, ops);
    }
    ds_put_cstr(ops, ",\"applied_seq\":");
    put_int(ops, row->seq);
    ds_put_cstr(ops, "}}");
}

/* Commits one write-back transaction of up to 'wb->batch' rows.  Returns
 * false if there was nothing to write. */
static bool
send_txn(struct syncd_writeback *wb)
{
    struct wb_txn *txn = NULL;
    struct ds ops;

    while (wb->head < wb->n && (!txn || txn->n < wb->batch)) {
        const struct uuid *uuid = &wb->fifo[wb->head++];
        struct syncd_row *row = syncd_rows_find(wb->rows, uuid);

        if (!row || !(row->flags & SYNCD_ROW_WB_PENDING)) {
            continue;
        }
        syncd_rows_clear_wb(wb->rows, row);
        if (!txn) {
            txn = xmalloc(sizeof *txn + wb->batch * sizeof *txn->entries);
            txn->wb = wb;
            txn->n = 0;
            ovsdb_writer_txn_start(wb->writer, &ops);
        }
        put_update(wb, &ops, row);
        /* Transactions on one connection commit in order, so the last one
         * sent decides the row's error column. */
        if (row->wb_code) {
            row->flags |= SYNCD_ROW_ERROR_SET;
        } else {
            row->flags &= ~SYNCD_ROW_ERROR_SET;
        }
        txn->entries[txn->n++] = (struct wb_entry) {
            .uuid = *uuid,
            .seq = row->seq,
            .code = row->wb_code,
        };
    }
    if (wb->head == wb->n) {
        wb->head = wb->n = 0;
    }
    if (!txn) {
        return false;
    }

    wb->stats.txns++;
    wb->stats.rows += txn->n;
    wb->stats.inflight_rows += txn->n;
    COVERAGE_INC(syncd_db_wb_txn);
    COVERAGE_ADD(syncd_db_wb_row, txn->n);
    ovsdb_writer_commit_ds(wb->writer, &ops, txn->n, txn_done, txn);
    return true;
}

/* ---- Start-up read of applied_seq --------------------------------------- */

static void
applied_clear(struct syncd_writeback *wb)
{
    struct wb_applied *a;

    HMAP_FOR_EACH_POP (a, node, &wb->applied) {
        free(a);
    }
}

/* Takes in one row of the read, {"_uuid": ..., "applied_seq": N}. */
static void
read_row(int select_idx OVS_UNUSED, const struct json *row, void *wb_)
{
    struct syncd_writeback *wb = wb_;
    int64_t applied_seq;
    struct uuid uuid;

    if (!ovsdb_wire_get_uuid(ovsdb_wire_col(row, "_uuid"), &uuid)
        || !ovsdb_wire_get_integer(ovsdb_wire_col(row, "applied_seq"),
                                   &applied_seq)) {
        return;
    }

    struct wb_applied *a = xmalloc(sizeof *a);
    a->uuid = uuid;
    a->applied_seq = applied_seq;
    hmap_insert(&wb->applied, &a->node, uuid_hash(&uuid));
    wb->n_read++;
}

/* Starts reading (uuid, applied_seq) of the programmed rows. */
static void
read_start(struct syncd_writeback *wb)
{
    char *where = xasprintf("[[\"state\",\"==\",\"programmed\"],"
                            "[\"instance\",\"==\",%d]]", wb->instance);
    struct json *params = json_array_create_2(
        json_string_create(DB_NAME),
        ovsdb_wire_op_select(TABLE, json_from_string(where),
                             "_uuid applied_seq"));

    free(where);

    applied_clear(wb);
    wb->n_read = 0;
    wb->reader = ovsdb_select_reader_create(wb->remote, params, 1,
                                            read_row, wb);
    wb->read_seqno = ovsdb_writer_get_seqno(wb->writer);
    wb->read_state = WB_READ_RUNNING;
}

/* Ends the read, going to 'state': WB_READ_NONE to read again once
 * connected, WB_READ_DONE to let the monitor start. */
static void
read_end(struct syncd_writeback *wb, enum wb_read_state state)
{
    ovsdb_select_reader_destroy(wb->reader);
    wb->reader = NULL;
    wb->read_state = state;
    if (state == WB_READ_DONE) {
        poll_immediate_wake();  /* The monitor may start now. */
    }
}

/* Starts the read once connected and advances it. */
static void
read_run(struct syncd_writeback *wb)
{
    if (wb->read_state == WB_READ_NONE
        && ovsdb_writer_is_connected(wb->writer)) {
        read_start(wb);
    }
    if (wb->read_state != WB_READ_RUNNING) {
        return;
    }

    switch (ovsdb_select_reader_run(wb->reader)) {
    case OVSDB_SELECT_READER_RUNNING:
        break;
    case OVSDB_SELECT_READER_DONE:
        VLOG_INFO("database holds %"PRIuSIZE" programmed rows", wb->n_read);
        read_end(wb, WB_READ_DONE);
        break;
    case OVSDB_SELECT_READER_FAILED:
    default:
        applied_clear(wb);
        if (!ovsdb_writer_is_connected(wb->writer)
            || ovsdb_writer_get_seqno(wb->writer) != wb->read_seqno) {
            /* The server went away: read again once it is back. */
            read_end(wb, WB_READ_NONE);
        } else {
            VLOG_WARN("reading applied_seq failed (every row will be "
                      "written back): %s",
                      ovsdb_select_reader_error(wb->reader));
            read_end(wb, WB_READ_DONE);
        }
        break;
    }
}

/* Is the start-up read of applied_seq done, so that the monitor may
 * start? */
bool
syncd_writeback_is_ready(const struct syncd_writeback *wb)
{
    return wb->read_state == WB_READ_DONE;
}

/* If the start-up read found row 'uuid' programmed, stores its
 * applied_seq in '*applied_seq', forgets it and returns true. */
bool
syncd_writeback_take_applied(struct syncd_writeback *wb,
                             const struct uuid *uuid, int64_t *applied_seq)
{
    struct wb_applied *a;

    if (hmap_is_empty(&wb->applied)) {
        return false;
    }
    HMAP_FOR_EACH_WITH_HASH (a, node, uuid_hash(uuid), &wb->applied) {
        if (uuid_equals(&a->uuid, uuid)) {
            *applied_seq = a->applied_seq;
            hmap_remove(&wb->applied, &a->node);
            free(a);
            return true;
        }
    }
    return false;
}

/* Forgets what the start-up read found and no row took: rows that the
 * monitor's first contents lacked. */
void
syncd_writeback_forget_applied(struct syncd_writeback *wb)
{
    applied_clear(wb);
}

/* ---- Public interface --------------------------------------------------- */

/* Creates the write-back of the outcomes of 'rows', which must outlive
 * it. */
struct syncd_writeback *
syncd_writeback_create(const struct syncd_writeback_options *options,
                       struct syncd_rows *rows)
{
    struct syncd_writeback *wb = xzalloc(sizeof *wb);

    wb->rows = rows;
    wb->remote = xstrdup(options->remote);
    wb->instance = options->instance;
    wb->batch = options->batch ? options->batch : 5000;
    wb->disabled = options->disabled;
    wb->read_state = wb->disabled ? WB_READ_DONE : WB_READ_NONE;
    hmap_init(&wb->applied);
    wb->writer = ovsdb_writer_create(wb->remote, DB_NAME);
    ovsdb_writer_set_max_in_flight(wb->writer,
                                   options->inflight ? options->inflight : 2);
    return wb;
}

void
syncd_writeback_destroy(struct syncd_writeback *wb)
{
    if (!wb) {
        return;
    }
    wb->destroying = true;
    ovsdb_writer_destroy(wb->writer);
    ovsdb_select_reader_destroy(wb->reader);
    applied_clear(wb);
    hmap_destroy(&wb->applied);
    free(wb->fifo);
    free(wb->remote);
    free(wb);
}

/* Runs the connection (ending transactions), the start-up read, and
 * sends transactions while the writer has room, once the read is done. */
void
syncd_writeback_run(struct syncd_writeback *wb)
{
    ovsdb_writer_run(wb->writer);
    read_run(wb);
    if (wb->read_state == WB_READ_DONE) {
        while (ovsdb_writer_has_room(wb->writer) && send_txn(wb)) {
            continue;
        }
    }
}

void
syncd_writeback_wait(struct syncd_writeback *wb)
{
    ovsdb_writer_wait(wb->writer);
    if (wb->reader) {
        ovsdb_select_reader_wait(wb->reader);
    }
}

void
syncd_writeback_get_stats(const struct syncd_writeback *wb,
                          struct syncd_writeback_stats *stats)
{
    *stats = wb->stats;
    stats->inflight_txns = (ovsdb_writer_n_in_flight(wb->writer)
                            + ovsdb_writer_n_queued(wb->writer));
}
