/*
 * Copyright (c) 2026 The fibsync authors.
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

#include "daemons/syncd/syncd-marks.h"

#include <string.h>

#include "lib/fibsync-instance.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "ovsdb-cs.h"
#include "util.h"

/* One Write_Mark row. */
struct syncd_mark_row {
    struct hmap_node node;      /* In 'rows', by uuid_hash(). */
    struct uuid uuid;           /* The row. */
    char *writer;               /* Its writer, or NULL if not known. */
    struct uuid epoch;          /* Its epoch... */
    int64_t txn;                /* ...and txn (-1 if not known). */
    bool bad;                   /* A column of the wrong form was seen:
                                 * the row is no mark. */
};

/* Follows the rows of orchd's ASIC instance 'instance' (and any other). */
void
syncd_marks_init(struct syncd_marks *marks, int instance)
{
    marks->orchd_writer = fibsync_instance_name("orchd", instance);
    hmap_init(&marks->rows);
}

/* Forgets every row. */
static void
clear_rows(struct syncd_marks *marks)
{
    struct syncd_mark_row *row;

    HMAP_FOR_EACH_POP (row, node, &marks->rows) {
        free(row->writer);
        free(row);
    }
}

void
syncd_marks_destroy(struct syncd_marks *marks)
{
    clear_rows(marks);
    hmap_destroy(&marks->rows);
    free(marks->orchd_writer);
}

static struct syncd_mark_row *
find_row(const struct syncd_marks *marks, const struct uuid *uuid)
{
    struct syncd_mark_row *row;

    HMAP_FOR_EACH_WITH_HASH (row, node, uuid_hash(uuid), &marks->rows) {
        if (uuid_equals(&row->uuid, uuid)) {
            return row;
        }
    }
    return NULL;
}

/* Sets what 'columns' holds of 'row' (every column of an insertion, the
 * changed ones of a modification: a scalar's new value either way). */
static void
set_columns(struct syncd_mark_row *row, const struct shash *columns)
{
    const char *writer = ovsdb_wire_get_string(shash_find_data(columns,
                                                               "writer"));
    const struct json *epoch = shash_find_data(columns, "epoch");
    const struct json *txn = shash_find_data(columns, "txn");

    if (writer) {
        free(row->writer);
        row->writer = xstrdup(writer);
    }
    if (epoch && !ovsdb_wire_get_uuid(epoch, &row->epoch)) {
        row->bad = true;
    }
    if (txn && !ovsdb_wire_get_integer(txn, &row->txn)) {
        row->bad = true;
    }
}

/* Returns true, with its epoch and txn, if the row of 'writer' is known
 * (one row, of a valid form). */
bool
syncd_marks_find(const struct syncd_marks *marks, const char *writer,
                 struct uuid *epoch, int64_t *txn)
{
    const struct syncd_mark_row *row, *found = NULL;

    HMAP_FOR_EACH (row, node, &marks->rows) {
        if (row->writer && !strcmp(row->writer, writer)) {
            if (found) {
                return false;   /* Two rows: the index forbids it. */
            }
            found = row;
        }
    }
    if (!found || found->bad || found->txn < 0) {
        return false;
    }
    *epoch = found->epoch;
    *txn = found->txn;
    return true;
}

/* Takes the Write_Mark part 'tu' (NULL if none) of a monitor update, in
 * the order the monitor delivered them.  For the first contents after the
 * monitor began ('clear'), returns true if orchd's row is the one seen
 * last before, and otherwise appends why not to 'why'; false for any
 * other update. */
bool
syncd_marks_update(struct syncd_marks *marks,
                   const struct ovsdb_cs_table_update *tu, bool clear,
                   struct ds *why)
{
    struct uuid before_epoch, after_epoch;
    int64_t before_txn, after_txn;
    bool before = false;

    if (clear) {
        before = syncd_marks_find(marks, marks->orchd_writer, &before_epoch,
                                  &before_txn);
        clear_rows(marks);
    }
    for (size_t i = 0; tu && i < tu->n; i++) {
        const struct ovsdb_cs_row_update *ru = &tu->row_updates[i];
        struct syncd_mark_row *row = find_row(marks, &ru->row_uuid);

        if (ru->type == OVSDB_CS_ROW_DELETE) {
            if (row) {
                hmap_remove(&marks->rows, &row->node);
                free(row->writer);
                free(row);
            }
            continue;
        }
        if (!row) {
            row = xzalloc(sizeof *row);
            row->uuid = ru->row_uuid;
            row->txn = -1;
            hmap_insert(&marks->rows, &row->node, uuid_hash(&row->uuid));
        }
        if (ru->columns) {
            set_columns(row, ru->columns);
        }
    }
    if (!clear) {
        return false;
    }

    bool after = syncd_marks_find(marks, marks->orchd_writer, &after_epoch,
                                  &after_txn);
    if (!before) {
        ds_put_format(why, "no mark of %s seen before", marks->orchd_writer);
        return false;
    } else if (!after) {
        ds_put_format(why, "no mark of %s now", marks->orchd_writer);
        return false;
    } else if (!uuid_equals(&before_epoch, &after_epoch)
               || before_txn != after_txn) {
        ds_put_format(why, "%s's mark moved from transaction %"PRId64" to "
                      "%"PRId64"%s", marks->orchd_writer, before_txn,
                      after_txn, (uuid_equals(&before_epoch, &after_epoch)
                                  ? "" : " of another epoch"));
        return false;
    }
    return true;
}
