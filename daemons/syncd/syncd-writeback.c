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

#include "daemons/syncd/syncd-writeback.h"

#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/syncd/syncd-rows.h"
#include "daemons/syncd/syncd-status.h"
#include "lib/fibsync-instance.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-write-mark.h"
#include "lib/ovsdb-writer.h"
#include "lib/row-queue.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
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
    struct row_queue_txn rq;    /* In the owner's in-flight list. */
    struct syncd_writeback *wb; /* Owner. */
    bool marked;                /* Ends with the mark's operation? */
    size_t n;                   /* Number of 'entries'. */
    struct wb_entry entries[];  /* Its rows, in operation order. */
};

struct syncd_writeback {
    struct syncd_rows *rows;    /* The rows whose outcomes are written. */
    struct ovsdb_writer *writer; /* The write-back connection. */
    char *remote;               /* Database remote. */
    int instance;               /* ASIC instance whose rows are read. */
    uint32_t batch;             /* Rows per transaction. */
    bool disabled;              /* Write-back disabled? */
    bool destroying;            /* Inside syncd_writeback_destroy()? */
    struct ovsdb_write_mark mark; /* syncd's Write_Mark row (see
                                   * syncd_writeback_start_epoch()). */
    bool marks_allowed;         /* The schema has the table. */

    /* Rows whose outcome to write, oldest first, from 'head'.  A row is
     * here once while SYNCD_ROW_WB_PENDING; an entry whose row has gone
     * or was written already is skipped.  By key, not lib/row-queue.h's
     * queue of pointers: a row may be freed while it is queued (its
     * Asic_Route row deleted), and a pointer queue cannot drop it. */
    struct uuid *fifo;          /* The queue. */
    size_t head;                /* First unconsumed entry. */
    size_t n;                   /* Entries, consumed ones included. */
    size_t allocated;           /* Capacity. */

    struct row_queue rq;        /* Only its transactions in flight, by
                                 * key ('struct wb_txn'), completed oldest
                                 * first: the queue is 'fifo'. */
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

    row_queue_txn_done(&wb->rq, &txn->rq,
                       reply->result == OVSDB_WRITER_SUCCESS);
    if (txn->marked) {
        ovsdb_write_mark_done(&wb->mark,
                              reply->result == OVSDB_WRITER_SUCCESS);
    }
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
            txn->marked = false;
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
    row_queue_txn_sent(&wb->rq, &txn->rq, txn->n);
    COVERAGE_INC(syncd_db_wb_txn);
    COVERAGE_ADD(syncd_db_wb_row, txn->n);
    txn->marked = ovsdb_write_mark_put(&wb->mark, &ops);
    ovsdb_writer_commit_ds(wb->writer, &ops, txn->n + txn->marked, txn_done,
                           txn);
    return true;
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
    row_queue_init(&wb->rq);
    wb->remote = xstrdup(options->remote);
    wb->instance = options->instance;
    wb->batch = options->batch ? options->batch : 5000;
    wb->disabled = options->disabled;
    wb->writer = ovsdb_writer_create(wb->remote, DB_NAME);
    ovsdb_writer_set_max_in_flight(wb->writer,
                                   options->inflight ? options->inflight : 2);
    char *writer = fibsync_instance_name("syncd", wb->instance);
    ovsdb_write_mark_init(&wb->mark, writer);
    free(writer);
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
    ovsdb_write_mark_destroy(&wb->mark);
    row_queue_destroy(&wb->rq);
    free(wb->fifo);
    free(wb->remote);
    free(wb);
}

/* The mark's epoch transaction ended. */
static void
epoch_done(void *wb_, const struct ovsdb_writer_reply *reply)
{
    struct syncd_writeback *wb = wb_;

    ovsdb_write_mark_epoch_done(&wb->mark,
                                reply->result == OVSDB_WRITER_SUCCESS);
    if (reply->result == OVSDB_WRITER_ERROR) {
        VLOG_WARN_RL(&rl, "Write_Mark refused (%s): Asic_Route will be "
                     "read again after each reconnection", reply->error);
    }
}

/* syncd has just read Asic_Route: starts a new epoch of its mark, whose
 * transaction commits after every write-back before it.  A database found
 * later with the epoch's row, at a txn no lower than the last marked
 * write-back that committed, holds every outcome syncd wrote and what it
 * read (syncd_writeback_mark_holds()).  Nothing with the write-back
 * off, or without the table (syncd_writeback_allow_marks()). */
void
syncd_writeback_start_epoch(struct syncd_writeback *wb)
{
    struct uuid epoch;

    if (wb->disabled || !wb->marks_allowed) {
        return;
    }
    uuid_generate(&epoch);
    ovsdb_writer_commit(wb->writer,
                        ovsdb_write_mark_start_epoch(&wb->mark, &epoch),
                        epoch_done, wb);
}

/* Says whether the database's schema has the Write_Mark table (a schema
 * before 1.5.0 has not): without it, a marked write-back would be
 * refused whole, so none is, and no epoch begins. */
void
syncd_writeback_allow_marks(struct syncd_writeback *wb, bool allowed)
{
    wb->marks_allowed = allowed;
    if (!allowed) {
        ovsdb_write_mark_end_epoch(&wb->mark);
    }
}

/* syncd begins reading Asic_Route: what it knows is being rebuilt, and no
 * mark vouches for it until the read ends and a new epoch begins. */
void
syncd_writeback_end_epoch(struct syncd_writeback *wb)
{
    ovsdb_write_mark_end_epoch(&wb->mark);
}

/* Returns true if a database whose row of syncd's mark holds 'epoch' and
 * 'txn' ('epoch' NULL: no row) holds what syncd wrote back and read since
 * its last epoch began (ovsdb_write_mark_holds()); otherwise appends why
 * not to 'why'.  False with the write-back off: nothing vouches for the
 * rows then. */
bool
syncd_writeback_mark_holds(const struct syncd_writeback *wb,
                           const struct uuid *epoch, int64_t txn,
                           struct ds *why)
{
    if (wb->disabled) {
        ds_put_cstr(why, "the write-back is off");
        return false;
    }
    return ovsdb_write_mark_holds(&wb->mark, epoch, txn, why);
}

/* Returns the name of syncd's Write_Mark row. */
const char *
syncd_writeback_mark_writer(const struct syncd_writeback *wb)
{
    return wb->mark.writer;
}

/* Runs the connection (ending transactions) and sends transactions while
 * the writer has room. */
void
syncd_writeback_run(struct syncd_writeback *wb)
{
    ovsdb_writer_run(wb->writer);
    while (ovsdb_writer_has_room(wb->writer) && send_txn(wb)) {
        continue;
    }
}

void
syncd_writeback_wait(struct syncd_writeback *wb)
{
    ovsdb_writer_wait(wb->writer);
}

void
syncd_writeback_get_stats(const struct syncd_writeback *wb,
                          struct syncd_writeback_stats *stats)
{
    *stats = wb->stats;
    stats->inflight_rows = wb->rq.n_inflight_ops;
    stats->inflight_txns = (ovsdb_writer_n_in_flight(wb->writer)
                            + ovsdb_writer_n_queued(wb->writer));
}
