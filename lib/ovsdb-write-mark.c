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
#include "lib/ovsdb-write-mark.h"

#include <inttypes.h>
#include <string.h>

#include "lib/ovsdb-wire.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "util.h"

#define MARK_TABLE "Write_Mark"

void
ovsdb_write_mark_init(struct ovsdb_write_mark *m, const char *writer)
{
    memset(m, 0, sizeof *m);
    m->writer = xstrdup(writer);
}

void
ovsdb_write_mark_destroy(struct ovsdb_write_mark *m)
{
    free(m->writer);
    m->writer = NULL;
}

/* Returns the condition that selects the writer's row. */
static struct json *
where_writer(const struct ovsdb_write_mark *m)
{
    return json_array_create_1(
        json_array_create_3(json_string_create("writer"),
                            json_string_create("=="),
                            json_string_create(m->writer)));
}

/* Starts epoch 'epoch' (a random UUID: uuid_generate()).  Returns the
 * operations, a JSON array, of the transaction to send before any other
 * of the epoch: it deletes the writer's row and inserts it again with
 * 'epoch' and txn 0.  Report its end with ovsdb_write_mark_epoch_done().
 * Marked transactions of the last epoch still in flight end uncounted. */
struct json *
ovsdb_write_mark_start_epoch(struct ovsdb_write_mark *m,
                             const struct uuid *epoch)
{
    struct json *del, *ins, *row;

    m->n_stale += m->n_sent - m->n_done;
    m->epoch = *epoch;
    m->enabled = true;
    m->n_sent = m->n_done = m->committed = 0;
    m->n_epochs++;

    del = json_object_create();
    json_object_put_string(del, "op", "delete");
    json_object_put_string(del, "table", MARK_TABLE);
    json_object_put(del, "where", where_writer(m));

    row = json_object_create();
    json_object_put_string(row, "writer", m->writer);
    json_object_put(row, "epoch", ovsdb_wire_uuid(epoch));
    json_object_put(row, "txn", json_integer_create(0));
    ins = ovsdb_wire_op_insert(MARK_TABLE, NULL, row);

    return json_array_create_2(del, ins);
}

/* The epoch's transaction ended: committed, or not.  A refused one (a
 * database without the table, most likely) turns marking off for the
 * epoch; one lost with the connection leaves nothing to check against
 * either, which the check finds by itself (no row, or another epoch). */
void
ovsdb_write_mark_epoch_done(struct ovsdb_write_mark *m, bool committed)
{
    if (!committed) {
        m->enabled = false;
    }
}

/* Returns the operations, a JSON array, of a transaction that deletes
 * the writer's row: for a writer that will no longer mark its
 * transactions, so that no reader takes an old mark for a current one. */
struct json *
ovsdb_write_mark_forget(const struct ovsdb_write_mark *m)
{
    struct json *del = json_object_create();

    json_object_put_string(del, "op", "delete");
    json_object_put_string(del, "table", MARK_TABLE);
    json_object_put(del, "where", where_writer(m));
    return json_array_create_1(del);
}

/* Appends to 'ops', after a comma, the operation that marks the
 * transaction about to be sent, and counts it: its number is n_sent.
 * Returns true if it appended one (false with marking off), in which case
 * the transaction's end must be reported with ovsdb_write_mark_done(), in
 * the order sent. */
bool
ovsdb_write_mark_put(struct ovsdb_write_mark *m, struct ds *ops)
{
    if (!m->enabled) {
        return false;
    }
    m->n_sent++;
    ds_put_cstr(ops, ",{\"op\":\"update\",\"table\":\"" MARK_TABLE
                "\",\"where\":[[\"writer\",\"==\",");
    json_string_escape(m->writer, ops);
    ds_put_cstr(ops, "]],\"row\":{\"epoch\":[\"uuid\",\"");
    ovsdb_wire_put_uuid_string(ops, &m->epoch);
    ds_put_cstr(ops, "\"],\"txn\":");
    ovsdb_wire_put_uint(ops, m->n_sent);
    ds_put_cstr(ops, "}}");
    return true;
}

/* The same as ovsdb_write_mark_put() for a transaction built as a JSON
 * array: returns the operation to append last, or NULL with marking
 * off. */
struct json *
ovsdb_write_mark_op(struct ovsdb_write_mark *m)
{
    struct json *op, *row;

    if (!m->enabled) {
        return NULL;
    }
    m->n_sent++;
    row = json_object_create();
    json_object_put(row, "epoch", ovsdb_wire_uuid(&m->epoch));
    json_object_put(row, "txn", json_integer_create(m->n_sent));
    op = json_object_create();
    json_object_put_string(op, "op", "update");
    json_object_put_string(op, "table", MARK_TABLE);
    json_object_put(op, "where", where_writer(m));
    json_object_put(op, "row", row);
    return op;
}

/* Ends the epoch without a new one: nothing is marked, and every check
 * says read again, until the next ovsdb_write_mark_start_epoch().  For a
 * writer whose belief is being rebuilt (a read under way): a mark of the
 * last epoch must not vouch for it. */
void
ovsdb_write_mark_end_epoch(struct ovsdb_write_mark *m)
{
    m->enabled = false;
}

/* The oldest marked transaction in flight ended: committed or not. */
void
ovsdb_write_mark_done(struct ovsdb_write_mark *m, bool committed)
{
    if (m->n_stale) {
        m->n_stale--;
        return;
    }
    ovs_assert(m->n_done < m->n_sent);
    m->n_done++;
    if (committed) {
        m->committed = m->n_done;
    }
}

/* Returns the "transact" parameters that read the writer's row from
 * database 'db_name', for ovsdb_write_mark_check(). */
struct json *
ovsdb_write_mark_read_params(const struct ovsdb_write_mark *m,
                             const char *db_name)
{
    return json_array_create_2(json_string_create(db_name),
                               ovsdb_wire_op_select(MARK_TABLE,
                                                    where_writer(m),
                                                    "epoch txn"));
}

/* Takes the result of the transaction of ovsdb_write_mark_read_params()
 * (NULL if it failed) and returns true if the database holds every
 * transaction of the epoch that committed.  Otherwise appends to 'why'
 * what it found instead. */
bool
ovsdb_write_mark_check(const struct ovsdb_write_mark *m,
                       const struct json *result, struct ds *why)
{
    const struct json *rows;
    const struct json *row;
    struct uuid epoch;
    int64_t txn;

    if (!m->enabled) {
        return ovsdb_write_mark_holds(m, NULL, 0, why);
    }
    rows = ovsdb_wire_result_rows(result);
    if (!rows) {
        ds_put_cstr(why, "the mark could not be read");
        return false;
    }
    if (json_array(rows)->n != 1) {
        ds_put_format(why, "%"PRIuSIZE" mark rows", json_array(rows)->n);
        return false;
    }
    row = json_array(rows)->elems[0];
    if (!ovsdb_write_mark_parse_row(row, &epoch, &txn)) {
        ds_put_cstr(why, "a malformed mark row");
        return false;
    }
    return ovsdb_write_mark_holds(m, &epoch, txn, why);
}

/* Parses the epoch and txn columns of a Write_Mark row, a JSON object
 * with at least those two columns.  Returns false if they are not
 * there or of the wrong type. */
bool
ovsdb_write_mark_parse_row(const struct json *row, struct uuid *epoch,
                           int64_t *txn)
{
    return (row && row->type == JSON_OBJECT
            && ovsdb_wire_get_uuid(ovsdb_wire_col(row, "epoch"), epoch)
            && ovsdb_wire_get_integer(ovsdb_wire_col(row, "txn"), txn));
}

/* Returns true if a database whose row for this writer holds 'epoch' and
 * 'txn' (NULL 'epoch': there is no row) holds every transaction of the
 * epoch that committed.  Otherwise appends to 'why' what it found
 * instead.  (ovsdb_write_mark_check() for a row read some other way, from
 * a monitor, say.) */
bool
ovsdb_write_mark_holds(const struct ovsdb_write_mark *m,
                       const struct uuid *epoch, int64_t txn,
                       struct ds *why)
{
    if (!m->enabled) {
        ds_put_cstr(why, uuid_is_zero(&m->epoch) ? "no mark written yet"
                    : "marks off (the epoch was not written)");
        return false;
    }
    if (!epoch) {
        ds_put_cstr(why, "no mark row");
        return false;
    }
    if (!uuid_equals(epoch, &m->epoch)) {
        ds_put_format(why, "the mark of another epoch ("UUID_FMT")",
                      UUID_ARGS(epoch));
        return false;
    }
    if (txn < 0 || (uint64_t) txn < m->committed) {
        ds_put_format(why, "transaction %"PRId64" marked, %"PRIu64
                      " committed", txn, m->committed);
        return false;
    }
    return true;
}
