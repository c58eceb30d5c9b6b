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
 * orchd-lost-writes: writes lost by the database written again.
 */

#include <config.h>

#include "daemons/orchd-lost-writes.h"

#include <string.h>

#include "coverage.h"
#include "daemons/orchd-bulker.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-write-mark.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "jsonrpc.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_lost_writes);

COVERAGE_DEFINE(orchd_lost_writes);
COVERAGE_DEFINE(orchd_stale_row_removed);

void
orchd_lost_writes_init(struct orchd_lost_writes *lw, int instance)
{
    memset(lw, 0, sizeof *lw);
    lw->instance = instance;
}

void
orchd_lost_writes_destroy(struct orchd_lost_writes *lw)
{
    json_destroy(lw->mark_id);
    json_destroy(lw->rows_id);
}

/* The writer has just (re)connected: if 'mark' vouches for committed
 * transactions, asks for the mark's row before any bulk goes out.  (A
 * check in flight on the connection that went is forgotten: its reply
 * will never come.) */
void
orchd_lost_writes_connected(struct orchd_lost_writes *lw,
                            struct ovsdb_writer *writer,
                            const struct ovsdb_write_mark *mark)
{
    json_destroy(lw->mark_id);
    json_destroy(lw->rows_id);
    lw->mark_id = lw->rows_id = NULL;
    if (mark->enabled && mark->committed) {
        lw->mark_id = ovsdb_writer_send_request(
            writer, "transact",
            ovsdb_write_mark_read_params(mark, "Fibsync"));
    }
}

/* Must bulks wait?  While the mark is read, and while the rows are, so
 * that the rows' removals and the routes' writes go out after them. */
bool
orchd_lost_writes_busy(const struct orchd_lost_writes *lw)
{
    return lw->mark_id || lw->rows_id;
}

/* Removes, through 'bulker', each row of the select's 'result' that no
 * route names. */
static void
remove_unnamed_rows(struct orchd_lost_writes *lw, const struct json *result,
                    struct orchd_bulker *bulker)
{
    const struct json *rows = NULL;
    size_t n = 0;

    if (result && result->type == JSON_ARRAY && json_array(result)->n
        && json_array(result)->elems[0]->type == JSON_OBJECT) {
        rows = shash_find_data(json_object(json_array(result)->elems[0]),
                               "rows");
    }
    if (!rows || rows->type != JSON_ARRAY) {
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
    lw->n_stale += n;
    COVERAGE_ADD(orchd_stale_row_removed, n);
    VLOG_INFO("Asic_Route holds %"PRIuSIZE" rows of instance %d: %"PRIuSIZE
              " that no route names removed", json_array(rows)->n,
              lw->instance, n);
}

/* Takes 'msg', a message of 'writer''s connection other than a
 * transaction's reply.  Returns true if it was the answer to one of the
 * check's requests; then, if the database lost writes, has 'bulker'
 * write everything again and asks for the instance's rows. */
bool
orchd_lost_writes_msg(struct orchd_lost_writes *lw,
                      const struct jsonrpc_msg *msg,
                      struct ovsdb_writer *writer,
                      const struct ovsdb_write_mark *mark,
                      struct orchd_bulker *bulker)
{
    const struct json *result = (msg->type == JSONRPC_REPLY ? msg->result
                                 : NULL);

    if (lw->mark_id && json_equal(msg->id, lw->mark_id)) {
        struct ds why = DS_EMPTY_INITIALIZER;

        json_destroy(lw->mark_id);
        lw->mark_id = NULL;
        lw->n_checks++;
        if (ovsdb_write_mark_check(mark, result, &why)) {
            VLOG_INFO("the database holds all %"PRIu64" Asic_Route "
                      "transactions committed in this epoch",
                      mark->committed);
        } else {
            char *where;

            lw->n_lost++;
            COVERAGE_INC(orchd_lost_writes);
            VLOG_WARN("the database lacks Asic_Route writes orchd saw "
                      "committed (%s): writing every route again",
                      ds_cstr(&why));
            orchd_bulker_resync_lost(bulker);
            where = xasprintf("[\"Fibsync\",{\"op\":\"select\","
                              "\"table\":\"Asic_Route\",\"where\":"
                              "[[\"instance\",\"==\",%d]],"
                              "\"columns\":[\"_uuid\"]}]", lw->instance);
            lw->rows_id = ovsdb_writer_send_request(writer, "transact",
                                                    json_from_string(where));
            free(where);
        }
        ds_destroy(&why);
        return true;
    } else if (lw->rows_id && json_equal(msg->id, lw->rows_id)) {
        json_destroy(lw->rows_id);
        lw->rows_id = NULL;
        remove_unnamed_rows(lw, result, bulker);
        return true;
    }
    return false;
}

/* Appends one line of counters to 's'. */
void
orchd_lost_writes_format(const struct orchd_lost_writes *lw, struct ds *s)
{
    ds_put_format(s, "lost writes: mark read %"PRIu64" time%s after a "
                  "reconnection, writes lost %"PRIu64" time%s, stale rows "
                  "removed %"PRIu64"%s\n", lw->n_checks,
                  lw->n_checks == 1 ? "" : "s", lw->n_lost,
                  lw->n_lost == 1 ? "" : "s", lw->n_stale,
                  orchd_lost_writes_busy(lw) ? ", checking" : "");
}
