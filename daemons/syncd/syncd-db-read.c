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

/* syncd-db-read: the read of the Asic_Route rows of syncd's instance, in
 * slices of their seq column, that each (re)start of the OVSDB path's
 * monitor begins (see "Reading" in daemons/syncd/syncd-db.h). */

#include <config.h>

#include "coverage.h"
#include "daemons/syncd/syncd-db-private.h"
#include "daemons/syncd/syncd-writeback.h"
#include "lib/ovsdb-slice-reader.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/json.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(syncd_db_read);

COVERAGE_DEFINE(syncd_db_read_row);
COVERAGE_DEFINE(syncd_db_read_skipped);
COVERAGE_DEFINE(syncd_db_read_kept);

/* Returns true, and counts it, if the read must skip row 'uuid' (known
 * as 'row', or NULL): the monitor has said more recent things of it since
 * the read began, deleted it, or inserted or modified it (the monitor's
 * version is as new as the slice's or newer, and a newer one follows in
 * the monitor). */
static bool
read_skips(struct syncd_db *db, const struct uuid *uuid,
           const struct syncd_row *row)
{
    if ((row && row->flags & SYNCD_ROW_SEEN)
        || uuidset_find(&db->gone, uuid)) {
        db->stats.read_skipped++;
        COVERAGE_INC(syncd_db_read_skipped);
        return true;
    }
    return false;
}

/* Hands over row 'json' of the read, as if the monitor had inserted it,
 * unless read_skips() it. */
static void
read_row(int select_idx OVS_UNUSED, const struct json *json, void *db_)
{
    struct syncd_db *db = db_;
    struct uuid uuid;

    if (!ovsdb_wire_get_uuid(ovsdb_wire_col(json, "_uuid"), &uuid)
        || read_skips(db, &uuid, syncd_rows_find(&db->rows, &uuid))) {
        return;
    }

    struct sdb_event ev = { .clear = true };
    struct ovsdb_cs_row_update ru = {
        .row_uuid = uuid,
        .type = OVSDB_CS_ROW_UPDATE,
        .columns = json_object(json),
    };

    db->stats.read_rows++;
    COVERAGE_INC(syncd_db_read_row);
    syncd_db_process_row_phase0(db, &ev, &ru);
    syncd_db_process_row_phase1(db, &ev, &ru);
}

/* Hands over row 'json' of the SDB_READ_KEYS part of a read (its _uuid,
 * seq, applied_seq and state): a row known at that seq needs no more
 * than the write-back's check; any other row is left to the
 * SDB_READ_NEWER part, which then reads every row. */
static void
read_key_row(int select_idx OVS_UNUSED, const struct json *json, void *db_)
{
    struct syncd_db *db = db_;
    int64_t seq, applied_seq;
    struct syncd_row *row;
    struct uuid uuid;

    if (!ovsdb_wire_get_uuid(ovsdb_wire_col(json, "_uuid"), &uuid)
        || !ovsdb_wire_get_integer(ovsdb_wire_col(json, "seq"), &seq)) {
        db->read_unsettled++;
        return;
    }
    row = syncd_rows_find(&db->rows, &uuid);
    if (read_skips(db, &uuid, row)) {
        return;
    }
    if (!row || row->seq != seq || row->wb_code
        || row->flags & (SYNCD_ROW_NO_ROUTE | SYNCD_ROW_BAD)) {
        /* Unknown, changed, failed, bad or held: its content decides. */
        db->read_unsettled++;
        return;
    }

    db->stats.read_rows++;
    db->stats.read_by_seq++;
    COVERAGE_INC(syncd_db_read_row);
    row->flags |= SYNCD_ROW_SEEN;
    if (syncd_db_row_says_programmed(json_object(json), &applied_seq)
        && applied_seq == seq) {
        row->flags &= ~SYNCD_ROW_ERROR_SET;
        if (!(row->flags & SYNCD_ROW_WB_PENDING)) {
            syncd_rows_set_in_sync(&db->rows, row, true);
            syncd_db_count_wb_skipped(db);
        }
    } else if (!(row->flags & SYNCD_ROW_WB_PENDING)) {
        /* Programmed, but the write-back that said so was lost with the
         * server that had not yet logged it. */
        syncd_writeback_mark(db->wb, row, 0);
    }
}

/* Ends a read, if one is running. */
void
syncd_db_read_stop(struct syncd_db *db)
{
    ovsdb_slice_reader_destroy(db->reader);
    db->reader = NULL;
    uuidset_clear(&db->gone);
}

/* Starts part 'part' of a read of the rows of syncd's instance, in slices
 * of their seq column. */
static void
read_start_part(struct syncd_db *db, enum sdb_read_part part)
{
    struct json *where = json_array_create_1(json_array_create_3(
        json_string_create("instance"), json_string_create("=="),
        json_integer_create(db->instance)));
    struct ovsdb_slice_reader_spec spec = {
        .remote = db->remote,
        .db = SYNCD_DB_NAME,
        .table = SYNCD_DB_TABLE,
        .seq_column = "seq",
        .columns = (part == SDB_READ_KEYS
                    ? "_uuid seq applied_seq state"
                    : "_uuid vrf prefix packet_action nexthops seq "
                      "applied_seq state"),
        .where = where,
        .width = db->read_slice,
        /* The server composes the next slice while syncd scans one. */
        .max_in_flight = OVSDB_SLICE_READER_OVERLAP_IN_FLIGHT,
        .read_ahead = OVSDB_SLICE_READER_OVERLAP_READ_AHEAD,
    };

    if (part == SDB_READ_KEYS || (part == SDB_READ_NEWER
                                  && !db->read_unsettled)) {
        json_array_add(where, json_array_create_3(
                           json_string_create("seq"),
                           json_string_create(part == SDB_READ_KEYS
                                              ? "<=" : ">"),
                           json_integer_create(db->read_known_seq)));
    }
    if (db->reader) {
        db->read_rows_before += ovsdb_slice_reader_n_rows(db->reader);
        ovsdb_slice_reader_destroy(db->reader);
    }
    db->part = part;
    db->reader = ovsdb_slice_reader_create(&spec, (part == SDB_READ_KEYS
                                                   ? read_key_row
                                                   : read_row), db);
    json_destroy(where);
}

/* Starts reading the rows of syncd's instance after marking every row
 * known unseen: the monitor has just (re)started, and from now on tells
 * of every change.  With rows known (a reconnection), those at or below
 * the highest seq known are read by seq first, unless the marks say they
 * stand as known; then only the rows above it are read (see "Reading"
 * in syncd-db.h). */
void
syncd_db_read_start(struct syncd_db *db)
{
    bool kept = db->marks_hold;
    struct syncd_row *row;

    syncd_db_read_stop(db);
    syncd_writeback_end_epoch(db->wb);
    db->marks_hold = false;
    db->read_known_seq = 0;
    HMAP_FOR_EACH (row, node, &db->rows.rows) {
        if (kept) {
            row->flags |= SYNCD_ROW_SEEN;
        } else {
            row->flags &= ~SYNCD_ROW_SEEN;
        }
        db->read_known_seq = MAX(db->read_known_seq, row->seq);
    }
    db->read_unsettled = 0;
    db->read_rows_before = 0;
    if (kept && db->read_known_seq > 0) {
        VLOG_INFO("Asic_Route not read again: the marks say the database "
                  "holds the %"PRIuSIZE" rows known, as known; reading "
                  "those above seq %"PRId64, hmap_count(&db->rows.rows),
                  db->read_known_seq);
        db->stats.read_kept++;
        COVERAGE_INC(syncd_db_read_kept);
        read_start_part(db, SDB_READ_NEWER);
    } else {
        read_start_part(db, db->read_known_seq > 0 ? SDB_READ_KEYS
                                                   : SDB_READ_ALL);
    }
    db->read_started = time_msec();
    db->read_retry = 0;
    db->stats.reads++;
}

/* Ends a read that handed over every row: the rows neither it nor the
 * monitor saw are gone. */
static void
read_done(struct syncd_db *db)
{
    size_t n_rows = (db->read_rows_before
                     + ovsdb_slice_reader_n_rows(db->reader));
    size_t n_slices = ovsdb_slice_reader_n_slices(db->reader);
    size_t n_gone = 0;
    struct syncd_row *row;

    syncd_db_read_stop(db);
    HMAP_FOR_EACH_SAFE (row, node, &db->rows.rows) {
        if (!(row->flags & SYNCD_ROW_SEEN)) {
            db->stats.row_deletes++;
            syncd_db_row_destroy(db, row);
            n_gone++;
        }
    }
    db->stats.read_msec = time_msec() - db->read_started;
    VLOG_INFO("Asic_Route read: %"PRIuSIZE" rows in %"PRIuSIZE" slices "
              "in %lld ms; %"PRIuSIZE" rows known before are gone",
              n_rows, n_slices, db->stats.read_msec, n_gone);
    db->initial_done = true;
    /* What syncd knows now is what the database held: a new epoch of its
     * mark vouches for it (syncd-marks.h). */
    syncd_writeback_start_epoch(db->wb);
}

/* Advances the read, if one is running, or starts it again a second after
 * a failure while the monitor stays up (if the monitor goes, its restart
 * starts a new read). */
void
syncd_db_read_run(struct syncd_db *db)
{
    if (!db->reader) {
        if (db->read_retry && time_msec() >= db->read_retry) {
            syncd_db_read_start(db);
        }
        return;
    }
    switch (ovsdb_slice_reader_run(db->reader)) {
    case OVSDB_SELECT_READER_RUNNING:
        break;
    case OVSDB_SELECT_READER_DONE:
        if (db->part == SDB_READ_KEYS) {
            VLOG_INFO("Asic_Route read by seq: %"PRIuSIZE" rows at or "
                      "below seq %"PRId64" in %lld ms, %"PRIuSIZE" of them "
                      "to read whole", ovsdb_slice_reader_n_rows(db->reader),
                      db->read_known_seq, time_msec() - db->read_started,
                      db->read_unsettled);
            read_start_part(db, SDB_READ_NEWER);
        } else {
            read_done(db);
        }
        break;
    case OVSDB_SELECT_READER_FAILED:
    default:
        db->stats.read_failures++;
        VLOG_WARN("reading Asic_Route failed (trying again): %s",
                  ovsdb_slice_reader_error(db->reader));
        syncd_db_read_stop(db);
        db->read_retry = time_msec() + 1000;
        break;
    }
}
