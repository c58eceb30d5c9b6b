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
 * orchd-asic-mark: orchd's Write_Mark on the southbound OVSDB path.
 */

#include <config.h>

#include "daemons/orchd/orchd-asic-mark.h"

#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-bulker.h"
#include "jsonrpc.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_asic_mark);

COVERAGE_DEFINE(orchd_lost_writes);
COVERAGE_DEFINE(orchd_stale_row_removed);

/* Makes 'm' the mark, in the row named 'writer_name', of the Asic_Route
 * transactions of 'writer', which writes instance 'instance''s rows; with
 * a null 'writer_name' (a schema without Write_Mark), nothing is marked. */
void
orchd_asic_mark_init(struct orchd_asic_mark *m, const char *writer_name,
                     int instance, struct ovsdb_writer *writer)
{
    memset(m, 0, sizeof *m);
    m->writer = writer;
    m->instance = instance;
    ovsdb_write_mark_init(&m->mark, writer_name ? writer_name : "orchd");
    m->state = writer_name ? ORCHD_MARK_NONE : ORCHD_MARK_OFF;
}

void
orchd_asic_mark_destroy(struct orchd_asic_mark *m)
{
    ovsdb_write_mark_destroy(&m->mark);
    json_destroy(m->mark_id);
    json_destroy(m->rows_id);
}

/* Deletes the row, so that it vouches for nothing from now on, and marks
 * nothing more. */
static void
turn_off(struct orchd_asic_mark *m)
{
    ovsdb_writer_commit(m->writer, ovsdb_write_mark_forget(&m->mark), NULL,
                        NULL);
    m->state = ORCHD_MARK_OFF;
}

/* Writer callback: the transaction that starts an epoch ended. */
static void
epoch_done(void *m_, const struct ovsdb_writer_reply *reply)
{
    struct orchd_asic_mark *m = m_;
    bool committed = reply->result == OVSDB_WRITER_SUCCESS;

    ovsdb_write_mark_epoch_done(&m->mark, committed);
    if (reply->result == OVSDB_WRITER_ERROR) {
        VLOG_WARN("Write_Mark refused (%s): syncd will read Asic_Route "
                  "again after each reconnection", reply->error);
        turn_off(m);
    } else if (!committed) {
        /* Lost with the connection: a new epoch before the next bulk, so
         * that none goes out unmarked. */
        m->state = ORCHD_MARK_NONE;
    }
}

/* Returns the operation that marks the transaction of the bulk about to
 * be sent, or NULL if none is to be (no marks, or a lost epoch's
 * transaction and none begun since), after starting an epoch, whose
 * transaction goes first, if none is on. */
struct json *
orchd_asic_mark_bulk_op(struct orchd_asic_mark *m)
{
    if (m->state == ORCHD_MARK_NONE) {
        struct uuid epoch;

        uuid_generate(&epoch);
        m->state = ORCHD_MARK_STARTED;
        ovsdb_writer_commit(m->writer,
                            ovsdb_write_mark_start_epoch(&m->mark, &epoch),
                            epoch_done, m);
    }
    return ovsdb_write_mark_op(&m->mark);
}

/* A bulk's transaction that orchd_asic_mark_bulk_op() marked ended. */
void
orchd_asic_mark_bulk_done(struct orchd_asic_mark *m, bool committed)
{
    ovsdb_write_mark_done(&m->mark, committed);
}

/* Asic_Route is written behind from now on (the southbound fast path),
 * unmarked: a row left by an orchd of the OVSDB path must not vouch for
 * it. */
void
orchd_asic_mark_stop(struct orchd_asic_mark *m)
{
    if (m->state != ORCHD_MARK_OFF) {
        turn_off(m);
    }
}

/* Must bulks wait?  While the writer is disconnected, while the row is
 * read after a reconnection, and while the rows are, so that the
 * removals and the routes' writes go out after them. */
bool
orchd_asic_mark_holds_bulks(const struct orchd_asic_mark *m)
{
    return (m->state != ORCHD_MARK_OFF
            && (!ovsdb_writer_is_connected(m->writer)
                || m->mark_id || m->rows_id));
}

/* The writer has just (re)connected: if the mark vouches for committed
 * transactions, asks for the row before any bulk goes out.  (A check in
 * flight on the connection that went is forgotten: its reply will never
 * come.) */
static void
reconnected(struct orchd_asic_mark *m)
{
    json_destroy(m->mark_id);
    json_destroy(m->rows_id);
    m->mark_id = m->rows_id = NULL;
    if (m->state == ORCHD_MARK_STARTED && m->mark.enabled
        && m->mark.committed) {
        m->mark_id = ovsdb_writer_send_request(
            m->writer, "transact",
            ovsdb_write_mark_read_params(&m->mark, "Fibsync"));
    }
}
/* Removes, through 'bulker', each row of the select's 'result' that no
 * route names. */
static void
remove_unnamed_rows(struct orchd_asic_mark *m, const struct json *result,
                    struct orchd_bulker *bulker)
{
    const struct json *rows = ovsdb_wire_result_rows(result);
    size_t n = 0;

    if (!rows) {
        VLOG_WARN("Asic_Route could not be read: rows that no route names "
                  "may stay until orchd restarts");
        return;
    }
    for (size_t i = 0; i < json_array(rows)->n; i++) {
        const struct json *row = json_array(rows)->elems[i];
        struct uuid uuid;

        if (row->type == JSON_OBJECT
            && ovsdb_wire_get_uuid(ovsdb_wire_col(row, "_uuid"), &uuid)
            && orchd_bulker_remove_unnamed(bulker, &uuid, NULL)) {
            n++;
        }
    }
    m->n_stale += n;
    COVERAGE_ADD(orchd_stale_row_removed, n);
    VLOG_INFO("Asic_Route holds %"PRIuSIZE" rows of instance %d: %"PRIuSIZE
              " that no route names removed", json_array(rows)->n,
              m->instance, n);
}

/* Takes 'msg', a message of the writer's connection other than a
 * transaction's reply, or NULL when the connection went down or came up.
 * If it answers the check, and the database lost writes, has 'bulker'
 * write everything again, asks for the instance's rows, and begins a new
 * epoch before the next bulk. */
void
orchd_asic_mark_writer_msg(struct orchd_asic_mark *m,
                           const struct jsonrpc_msg *msg,
                           struct orchd_bulker *bulker)
{
    const struct json *result;

    if (!msg) {
        if (ovsdb_writer_is_connected(m->writer)) {
            reconnected(m);
        }
        return;
    }
    result = msg->type == JSONRPC_REPLY ? msg->result : NULL;
    if (m->mark_id && json_equal(msg->id, m->mark_id)) {
        struct ds why = DS_EMPTY_INITIALIZER;

        json_destroy(m->mark_id);
        m->mark_id = NULL;
        m->n_checks++;
        if (ovsdb_write_mark_check(&m->mark, result, &why)) {
            VLOG_INFO("the database holds all %"PRIu64" Asic_Route "
                      "transactions committed in this epoch",
                      m->mark.committed);
        } else {
            struct json *where;

            m->n_lost++;
            COVERAGE_INC(orchd_lost_writes);
            VLOG_WARN("the database lacks Asic_Route writes orchd saw "
                      "committed (%s): writing every route again",
                      ds_cstr(&why));
            orchd_bulker_resync_lost(bulker);
            where = json_array_create_1(json_array_create_3(
                        json_string_create("instance"),
                        json_string_create("=="),
                        json_integer_create(m->instance)));
            m->rows_id = ovsdb_writer_send_request(
                m->writer, "transact", json_array_create_2(
                    json_string_create("Fibsync"),
                    ovsdb_wire_op_select("Asic_Route", where, "_uuid")));
            /* Syncd, seeing another epoch, reads Asic_Route again. */
            m->state = ORCHD_MARK_NONE;
        }
        ds_destroy(&why);
    } else if (m->rows_id && json_equal(msg->id, m->rows_id)) {
        json_destroy(m->rows_id);
        m->rows_id = NULL;
        remove_unnamed_rows(m, result, bulker);
    }
}

/* Appends one line of counters to 's'. */
void
orchd_asic_mark_format(const struct orchd_asic_mark *m, struct ds *s)
{
    ds_put_format(s, "lost writes: mark read %"PRIu64" time%s after a "
                  "reconnection, writes lost %"PRIu64" time%s, stale rows "
                  "removed %"PRIu64"%s\n", m->n_checks,
                  m->n_checks == 1 ? "" : "s", m->n_lost,
                  m->n_lost == 1 ? "" : "s", m->n_stale,
                  m->mark_id || m->rows_id ? ", checking" : "");
}
