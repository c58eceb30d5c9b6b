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

#include "daemons/syncd/syncd-db.h"

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
#include "lib/setting.h"
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
COVERAGE_DEFINE(syncd_db_row_insert);
COVERAGE_DEFINE(syncd_db_row_modify);
COVERAGE_DEFINE(syncd_db_row_delete);
COVERAGE_DEFINE(syncd_db_bad_row);
COVERAGE_DEFINE(syncd_db_wb_skipped);
COVERAGE_DEFINE(syncd_db_other_instance);
COVERAGE_DEFINE(syncd_db_read_row);
COVERAGE_DEFINE(syncd_db_read_skipped);
COVERAGE_DEFINE(syncd_db_read_kept);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

#define DB_NAME "Fibsync"
#define TABLE "Asic_Route"

/* An update being processed. */
struct sdb_event {
    struct ovs_list node;       /* In 'db->events'. */
    struct ovsdb_cs_event *event; /* Owns the JSON. */
    struct ovsdb_cs_db_update *du;  /* Parsed update. */
    const struct ovsdb_cs_table_update *tu; /* Asic_Route, or NULL. */
    const struct ovsdb_cs_table_update *vrf_tu; /* Vrf, or NULL. */
    const struct ovsdb_cs_table_update *mark_tu; /* Write_Mark, or NULL. */
    bool clear;                 /* Replaces everything known? */
    bool started;               /* Processing begun? */
    int phase;                  /* 0: removals, 1: the rest. */
    size_t cursor;              /* Next row update of 'tu' in 'phase'. */
};

/* The parts of a read of Asic_Route (see "Reading" in syncd-db.h). */
enum sdb_read_part {
    SDB_READ_ALL,               /* Every row, every column. */
    SDB_READ_KEYS,              /* After a reconnection, the rows at or
                                 * below the highest seq known: seq and
                                 * the write-back's columns alone... */
    SDB_READ_NEWER,             /* ...then those above it, every column
                                 * (or every row, if SDB_READ_KEYS could
                                 * not settle some). */
};

struct syncd_db {
    struct syncd_apply *apply;  /* Where operations go. */
    char *remote;               /* Database remote. */
    uint32_t budget;            /* Row updates processed per run. */
    int64_t read_slice;         /* Seq values per select of a read. */
    struct setting *max_bulk;   /* Bulk size, or NULL (see
                                 * syncd_db_options). */
    struct setting *southbound_zmq; /* Global.southbound_zmq, or NULL. */
    bool global_only;           /* Monitor Global only. */
    int instance;               /* ASIC instance whose rows are read. */
    bool read_global;           /* First monitor contents received? */

    /* Reading. */
    struct ovsdb_cs *cs;        /* The monitor. */
    struct ovsdb_cs_retry retry; /* Its reconnection once the server is
                                  * back. */
    struct ovs_list events;     /* "struct sdb_event"s to process. */
    size_t backlog;             /* Row updates in 'events' unprocessed. */
    struct syncd_row_parsed parsed; /* The row being parsed. */
    bool initial_done;          /* First read of Asic_Route done? */

    /* The read of Asic_Route that each (re)start of the monitor begins
     * (see "Reading" in syncd-db.h). */
    struct ovsdb_slice_reader *reader; /* The read, if one is running. */
    enum sdb_read_part part;    /* Which part of it. */
    int64_t read_known_seq;     /* Highest seq of a row known when the
                                 * read began (SDB_READ_KEYS). */
    struct syncd_marks marks;   /* The Write_Mark rows (syncd-marks.h)... */
    bool marks_hold;            /* ...say, as the monitor began again,
                                 * that the rows known stand as known. */
    size_t read_unsettled;      /* Rows the SDB_READ_KEYS part could not
                                 * settle by their seq alone. */
    size_t read_rows_before;    /* Rows read by the parts before. */
    struct uuidset gone;        /* Rows the monitor deleted since it
                                 * began: a slice may still hold them. */
    long long int read_started; /* When it began (msec). */
    long long int read_retry;   /* If nonzero, when to start it again
                                 * after a failure (msec). */

    struct syncd_rows rows;     /* The rows known. */
    struct smap vrfs;           /* Vrf rows: UUID (as text) to name. */
    struct sset vrf_names;      /* Their names. */
    struct hmap held;           /* "struct held_row"s, by uuid_hash(). */
    struct syncd_writeback *wb; /* Writes their outcomes back. */

    struct syncd_db_stats stats; /* Counters (some computed on demand). */
};

/* ---- Rows --------------------------------------------------------------- */

/* A row held until its VRF has a Vrf row: neither programmed (syncd would
 * make a virtual router for a VRF that does not exist) nor refused.  On
 * the northbound ZeroMQ path fpmsyncd writes its Vrf rows behind the
 * routes, so orchd can write a route's entry before the row of its VRF;
 * an error would go back to zebra.  A row written by hand in a VRF that
 * never comes waits for good, counted in asic/stats. */
struct held_row {
    struct hmap_node node;      /* In 'db->held', by uuid_hash(). */
    struct uuid uuid;           /* The row. */
    char *vrf;                  /* The VRF it waits for. */
    struct json *columns;       /* Its columns, as a JSON object. */
};

static struct held_row *
held_find(const struct syncd_db *db, const struct uuid *uuid)
{
    struct held_row *h;

    HMAP_FOR_EACH_WITH_HASH (h, node, uuid_hash(uuid), &db->held) {
        if (uuid_equals(&h->uuid, uuid)) {
            return h;
        }
    }
    return NULL;
}

static void
held_destroy(struct held_row *h)
{
    free(h->vrf);
    json_destroy(h->columns);
    free(h);
}

/* Stops holding row 'uuid', if it was held. */
static void
row_unhold(struct syncd_db *db, const struct uuid *uuid)
{
    struct held_row *h;

    if (!hmap_is_empty(&db->held) && (h = held_find(db, uuid))) {
        hmap_remove(&db->held, &h->node);
        held_destroy(h);
    }
}

/* Holds 'row', whose 'columns' name 'vrf', until 'vrf' has a Vrf row. */
static void
row_hold(struct syncd_db *db, const struct syncd_row *row, const char *vrf,
         const struct shash *columns)
{
    struct json *copy = json_object_create();
    struct shash_node *node;
    struct held_row *h;

    SHASH_FOR_EACH (node, columns) {
        json_object_put(copy, node->name, json_clone(node->data));
    }
    h = held_find(db, &row->uuid);
    if (!h) {
        h = xzalloc(sizeof *h);
        h->uuid = row->uuid;
        hmap_insert(&db->held, &h->node, uuid_hash(&row->uuid));
        db->stats.held_total++;
        VLOG_WARN_RL(&rl, "Asic_Route row "UUID_FMT": held until VRF %s "
                     "has a Vrf row", UUID_ARGS(&row->uuid), vrf);
    }
    free(h->vrf);
    json_destroy(h->columns);
    h->vrf = xstrdup(vrf);
    h->columns = copy;
}

/* Marks 'row' bad for reason 'msg' (taking it) and queues its write-back. */
static void
row_set_bad(struct syncd_db *db, struct syncd_row *row, char *msg)
{
    db->stats.bad_total++;
    COVERAGE_INC(syncd_db_bad_row);
    VLOG_WARN_RL(&rl, "Asic_Route row "UUID_FMT": %s",
                 UUID_ARGS(&row->uuid), msg);
    syncd_rows_set_bad(&db->rows, row, msg);
    syncd_writeback_mark(db->wb, row, SYNCD_ROW_CODE_BAD);
}

/* Submits the removal of 'row''s route, if it has one. */
static void
row_remove_route(struct syncd_db *db, struct syncd_row *row)
{
    if (!(row->flags & SYNCD_ROW_NO_ROUTE)) {
        struct syncd_route_op op = {
            .type = SYNCD_OP_DEL,
            .vrf = syncd_rows_vrf_name(&db->rows, row->vrf),
            .prefix = row->prefix,
            .origin = row->uuid,
            .seq = row->seq,
        };

        row->flags |= SYNCD_ROW_NO_ROUTE;
        syncd_apply_submit(db->apply, &op);
    }
}

/* Forgets 'row', removing its route. */
static void
row_destroy(struct syncd_db *db, struct syncd_row *row)
{
    row_unhold(db, &row->uuid);
    row_remove_route(db, row);
    syncd_rows_remove(&db->rows, row);
}

/* ---- Row helpers ------------------------------------------------------ */

/* Returns column 'name' of 'columns' if it has type 'type', else NULL. */
static const struct json *
column(const struct shash *columns, const char *name, enum json_type type)
{
    const struct json *j = shash_find_data(columns, name);

    return j && j->type == type ? j : NULL;
}

/* Is 'vrf' a VRF syncd may program: "default" (the switch's default
 * virtual router, which needs no Vrf row) or one that a Vrf row names?
 * A row in any other is held (see "struct held_row"). */
static bool
vrf_is_known(const struct syncd_db *db, const char *vrf)
{
    return !strcmp(vrf, "default") || sset_contains(&db->vrf_names, vrf);
}

/* ---- Processing updates ------------------------------------------------- */

/* Returns true if the row whose columns are 'columns' says syncd
 * programmed it (its own write-back, read back after a restart), with the
 * seq it was programmed at in '*applied_seq'.  (The monitor never carries
 * the columns syncd writes: only a read does.) */
static bool
row_says_programmed(const struct shash *columns, int64_t *applied_seq)
{
    const char *state = ovsdb_wire_get_string(shash_find_data(columns,
                                                              "state"));

    return (state && !strcmp(state, "programmed")
            && ovsdb_wire_get_integer(shash_find_data(columns,
                                                      "applied_seq"),
                                      applied_seq));
}

/* Phase 0 of a row update: removals.  Returns true if it did work. */
static bool
process_row_phase0(struct syncd_db *db, struct sdb_event *ev,
                   const struct ovsdb_cs_row_update *ru)
{
    struct syncd_row *row = syncd_rows_find(&db->rows, &ru->row_uuid);

    if (ru->type == OVSDB_CS_ROW_DELETE) {
        db->stats.row_deletes++;
        COVERAGE_INC(syncd_db_row_delete);
        if (row) {
            row_destroy(db, row);
        }
        if (db->reader) {
            uuidset_insert(&db->gone, &ru->row_uuid);
        }
        return true;
    }
    if (!row) {
        return false;
    }
    if (ev->clear || db->reader) {
        row->flags |= SYNCD_ROW_SEEN;
    }
    if (row->flags & SYNCD_ROW_NO_ROUTE) {
        return true;
    }

    /* The row's route goes if the row no longer names its key. */
    struct syncd_row_parsed p;
    char *error = syncd_rows_parse_key(&db->rows, ru->columns, &p);
    if (error || p.vrf_index != row->vrf
        || !fib_prefix_equals(&p.prefix, &row->prefix)) {
        row_remove_route(db, row);
    }
    free(error);
    return true;
}

/* Phase 1 of a row update: everything but removals. */
static void
process_row_phase1(struct syncd_db *db, struct sdb_event *ev,
                   const struct ovsdb_cs_row_update *ru)
{
    if (ru->type == OVSDB_CS_ROW_DELETE) {
        return;
    } else if (ru->type == OVSDB_CS_ROW_XOR) {
        VLOG_WARN_RL(&rl, "unexpected row diff ignored");
        return;
    }

    struct syncd_row *row = syncd_rows_find(&db->rows, &ru->row_uuid);
    if (!row) {
        /* A row inserted by orchd has no error; one read at start may
         * have. */
        row = syncd_rows_add(&db->rows, &ru->row_uuid,
                             SYNCD_ROW_NO_ROUTE
                             | (ev->clear ? SYNCD_ROW_ERROR_SET : 0));
        db->stats.row_inserts++;
        COVERAGE_INC(syncd_db_row_insert);
    } else {
        db->stats.row_modifies++;
        COVERAGE_INC(syncd_db_row_modify);
    }
    if (ev->clear || db->reader) {
        row->flags |= SYNCD_ROW_SEEN;
    }

    struct syncd_row_parsed *p = &db->parsed;
    char *error = syncd_rows_parse(&db->rows, ru->columns, p);
    int64_t seq = p->has_seq ? p->seq : 0;
    if (seq != row->seq) {
        syncd_rows_set_in_sync(&db->rows, row, false);
        row->seq = seq;
    }
    syncd_rows_clear_wb(&db->rows, row);
    row_unhold(db, &row->uuid);
    if (error) {
        /* Its old route goes: nobody can say what it should be. */
        row_remove_route(db, row);
        row_set_bad(db, row, error);
        return;
    }
    syncd_rows_set_good(&db->rows, row);
    if (!vrf_is_known(db, p->vrf)) {
        /* Nor may its old route stay, in place of what the row says. */
        row_remove_route(db, row);
        row_hold(db, row, p->vrf, ru->columns);
        return;
    }

    /* Read at start: does the database already say this is done? */
    int64_t applied_seq;
    if (row_says_programmed(ru->columns, &applied_seq)) {
        /* Programmed: syncd cleared its error. */
        row->flags &= ~SYNCD_ROW_ERROR_SET;
        if (applied_seq == row->seq) {
            syncd_rows_set_in_sync(&db->rows, row, true);
        }
    }

    row->vrf = p->vrf_index;
    row->prefix = p->prefix;
    row->flags &= ~SYNCD_ROW_NO_ROUTE;

    struct syncd_route_op op = {
        .type = SYNCD_OP_SET,
        .vrf = p->vrf,
        .prefix = p->prefix,
        .action = p->action,
        .nexthops = p->nexthops,
        .n_nexthops = p->n_nexthops,
        .origin = row->uuid,
        .seq = row->seq,
    };
    syncd_apply_submit(db->apply, &op);
}

static void
event_destroy(struct sdb_event *ev)
{
    ovsdb_cs_db_update_destroy(ev->du);
    ovsdb_cs_event_destroy(ev->event);
    free(ev);
}

/* Processes again the rows held for VRF 'vrf', which has a Vrf row now,
 * as if they had just been written. */
static void
release_held(struct syncd_db *db, const char *vrf)
{
    struct sdb_event ev = { .clear = false };
    struct held_row **v = NULL;
    size_t n = 0, allocated = 0;
    struct held_row *h;

    HMAP_FOR_EACH_SAFE (h, node, &db->held) {
        if (!strcmp(h->vrf, vrf)) {
            hmap_remove(&db->held, &h->node);
            if (n >= allocated) {
                v = x2nrealloc(v, &allocated, sizeof *v);
            }
            v[n++] = h;
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct ovsdb_cs_row_update ru = {
            .row_uuid = v[i]->uuid,
            .type = OVSDB_CS_ROW_UPDATE,
            .columns = json_object(v[i]->columns),
        };

        db->stats.row_modifies--;   /* Not a change from the database. */
        process_row_phase1(db, &ev, &ru);
        held_destroy(v[i]);
    }
    free(v);
}

/* Takes the Write_Mark rows of 'ev'.  For the monitor's first contents
 * after it began again, with rows known, decides whether the read that
 * follows may do without reading them (syncd-marks.h): orchd's row as
 * last seen, and syncd's own holding what it wrote back and read. */
static void
process_marks(struct syncd_db *db, const struct sdb_event *ev)
{
    struct ds why = DS_EMPTY_INITIALIZER;
    bool orchd_holds;

    orchd_holds = syncd_marks_update(&db->marks, ev->mark_tu, ev->clear,
                                     &why);
    if (!ev->clear || db->global_only || !hmap_count(&db->rows.rows)) {
        ds_destroy(&why);
        return;
    }
    db->marks_hold = false;
    if (db->reader || db->read_retry) {
        /* The rows known are being read again: what the marks vouch for
         * is a read that ended. */
        ds_clear(&why);
        ds_put_cstr(&why, "a read was under way");
    } else if (orchd_holds) {
        struct uuid epoch;
        int64_t txn;
        bool found = syncd_marks_find(&db->marks,
                                      syncd_writeback_mark_writer(db->wb),
                                      &epoch, &txn);

        db->marks_hold = syncd_writeback_mark_holds(db->wb,
                                                    found ? &epoch : NULL,
                                                    txn, &why);
    }
    if (!db->marks_hold) {
        VLOG_INFO("Asic_Route read again by seq: %s", ds_cstr(&why));
    }
    ds_destroy(&why);
}

/* Takes in the Vrf rows of update 'ev' (all of them if it replaces
 * everything known), before any Asic_Route row of the same update: a Vrf
 * row and the routes in its VRF may come in one transaction.  The rows
 * held for a VRF that comes are programmed.  A VRF that goes leaves the
 * routes already programmed in it alone (orchd removes them); rows
 * written after it went are held. */
static void
process_vrfs(struct syncd_db *db, const struct sdb_event *ev)
{
    const struct ovsdb_cs_table_update *tu = ev->vrf_tu;
    struct sset added = SSET_INITIALIZER(&added);
    const char *name;

    if (ev->clear) {
        smap_clear(&db->vrfs);
        sset_clear(&db->vrf_names);
    }
    for (size_t i = 0; tu && i < tu->n; i++) {
        const struct ovsdb_cs_row_update *ru = &tu->row_updates[i];
        const struct json *name = column(ru->columns, "name", JSON_STRING);
        char key[UUID_LEN + 1];
        const char *old;

        snprintf(key, sizeof key, UUID_FMT, UUID_ARGS(&ru->row_uuid));
        old = smap_get(&db->vrfs, key);
        if (old) {
            sset_find_and_delete(&db->vrf_names, old);
            smap_remove(&db->vrfs, key);
        }
        if (ru->type != OVSDB_CS_ROW_DELETE && name) {
            smap_add(&db->vrfs, key, json_string(name));
            sset_add(&db->vrf_names, json_string(name));
            sset_add(&added, json_string(name));
        }
    }
    if (!hmap_is_empty(&db->held)) {
        SSET_FOR_EACH (name, &added) {
            release_held(db, name);
        }
    }
    sset_destroy(&added);
}

/* ---- Reading Asic_Route ------------------------------------------------ */

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
    process_row_phase0(db, &ev, &ru);
    process_row_phase1(db, &ev, &ru);
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
    if (row_says_programmed(json_object(json), &applied_seq)
        && applied_seq == seq) {
        row->flags &= ~SYNCD_ROW_ERROR_SET;
        if (!(row->flags & SYNCD_ROW_WB_PENDING)) {
            syncd_rows_set_in_sync(&db->rows, row, true);
            db->stats.wb_skipped++;
            COVERAGE_INC(syncd_db_wb_skipped);
        }
    } else if (!(row->flags & SYNCD_ROW_WB_PENDING)) {
        /* Programmed, but the write-back that said so was lost with the
         * server that had not yet logged it. */
        syncd_writeback_mark(db->wb, row, 0);
    }
}

/* Ends a read, if one is running. */
static void
read_stop(struct syncd_db *db)
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
        .db = DB_NAME,
        .table = TABLE,
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
static void
read_start(struct syncd_db *db)
{
    bool kept = db->marks_hold;
    struct syncd_row *row;

    read_stop(db);
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

    read_stop(db);
    HMAP_FOR_EACH_SAFE (row, node, &db->rows.rows) {
        if (!(row->flags & SYNCD_ROW_SEEN)) {
            db->stats.row_deletes++;
            row_destroy(db, row);
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
static void
read_run(struct syncd_db *db)
{
    if (!db->reader) {
        if (db->read_retry && time_msec() >= db->read_retry) {
            read_start(db);
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
        read_stop(db);
        db->read_retry = time_msec() + 1000;
        break;
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
            process_vrfs(db, ev);
            process_marks(db, ev);
        }

        if (ev->phase == 0) {
            while (ev->cursor < n && budget) {
                if (process_row_phase0(db, ev,
                                       &ev->tu->row_updates[ev->cursor])) {
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
            process_row_phase1(db, ev, &ev->tu->row_updates[ev->cursor]);
            ev->cursor++;
            db->backlog--;
            budget--;
        }
        if (ev->cursor < n) {
            break;
        }

        if (ev->clear && !db->global_only) {
            /* The monitor (re)started: what Asic_Route holds now is
             * read, and what the read and the monitor leave unseen
             * goes. */
            read_start(db);
        }
        ovs_list_remove(&ev->node);
        event_destroy(ev);
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

/* ---- Global ------------------------------------------------------------- */

/* Takes in the changes 'tu' (NULL if none) to the Global table of an update
 * that replaces everything known if 'clear': applies max_bulk_size to
 * 'db->max_bulk' and, if the value in force changes, to the apply step. */
static void
global_update(struct syncd_db *db, const struct ovsdb_cs_table_update *tu,
              bool clear)
{
    const struct shash *columns = NULL;
    bool present = false;
    int64_t value = 0;

    if (clear) {
        db->read_global = true;
    }
    if (!tu && !clear) {
        return;
    }
    for (size_t i = 0; tu && i < tu->n; i++) {
        const struct ovsdb_cs_row_update *ru = &tu->row_updates[i];

        /* The table has one row at most, but a transaction may replace it:
         * a row that is there wins over one deleted. */
        if (ru->type != OVSDB_CS_ROW_DELETE) {
            columns = ru->columns;
            break;
        }
    }
    if (db->southbound_zmq) {
        const struct json *v = NULL;

        if (columns) {
            v = ovsdb_wire_get_optional(shash_find_data(columns,
                                                        "southbound_zmq"));
        }
        setting_set_global(db->southbound_zmq,
                           v && (v->type == JSON_TRUE
                                 || v->type == JSON_FALSE),
                           v && v->type == JSON_TRUE);
    }
    if (!db->max_bulk) {
        return;
    }
    if (columns) {
        const struct json *v = shash_find_data(columns, "max_bulk_size");

        present = ovsdb_wire_get_integer(v, &value) && value >= 1;
    }
    if (setting_set_global(db->max_bulk, present, value)) {
        VLOG_INFO("bulks of %"PRId64" routes (%s)", db->max_bulk->value,
                  setting_source_name(db->max_bulk->source));
        syncd_apply_set_max_bulk(db->apply, db->max_bulk->value);
    }
}

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

        if (strcmp(tu->table_name, TABLE)) {
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

    global_update(db, ovsdb_cs_db_update_find_table(du, "Global"),
                  u->clear);
    select_instance(db, du);

    struct sdb_event *ev = xzalloc(sizeof *ev);
    ev->event = event;
    ev->du = du;
    ev->tu = ovsdb_cs_db_update_find_table(du, TABLE);
    ev->vrf_tu = ovsdb_cs_db_update_find_table(du, "Vrf");
    ev->mark_tu = ovsdb_cs_db_update_find_table(du, "Write_Mark");
    ev->clear = u->clear;
    ovs_list_push_back(&db->events, &ev->node);
    db->backlog += ev->tu ? ev->tu->n : 0;
    db->stats.updates++;
    COVERAGE_INC(syncd_db_update);
}

/* The monitor request: the Asic_Route columns syncd reads, never those it
 * writes, the Vrf names it checks them against, the Write_Mark rows (when
 * the schema has them: 1.5.0 on) and the Global columns it follows.
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
        db->global_only
        ? "{\"Global\":[{\"columns\":[\"max_bulk_size\","
          "\"southbound_zmq\"]}]}"
        : "{\""TABLE"\":[{\"columns\":[\"instance\",\"vrf\",\"prefix\","
          "\"packet_action\",\"nexthops\",\"seq\"],"
          "\"select\":{\"initial\":false}}],"
          "\"Vrf\":[{\"columns\":[\"name\"]}],"
          "\"Global\":[{\"columns\":[\"max_bulk_size\","
          "\"southbound_zmq\"]}]}");
    if (!db->global_only && has_marks) {
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
    db->max_bulk = options->max_bulk;
    db->southbound_zmq = options->southbound_zmq;
    db->global_only = options->global_only;
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
        .disabled = options->no_write_back || options->global_only,
        .instance = options->instance,
    };
    db->wb = syncd_writeback_create(&wbo, &db->rows);

    syncd_marks_init(&db->marks, options->instance);
    db->cs = ovsdb_cs_create(DB_NAME, 1, &cs_ops, db);
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
        event_destroy(ev);
    }
    syncd_writeback_destroy(db->wb);
    syncd_rows_destroy(&db->rows);
    syncd_row_parsed_destroy(&db->parsed);
    smap_destroy(&db->vrfs);
    sset_destroy(&db->vrf_names);

    struct held_row *h;
    HMAP_FOR_EACH_POP (h, node, &db->held) {
        held_destroy(h);
    }
    hmap_destroy(&db->held);
    read_stop(db);
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
    read_run(db);
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

/* Has the monitor received its first contents, Global included (so that
 * the settings that follow Global are what Global says)? */
bool
syncd_db_has_read_global(const struct syncd_db *db)
{
    return db->read_global;
}

void
syncd_db_get_stats(const struct syncd_db *db, struct syncd_db_stats *stats)
{
    struct syncd_writeback_stats ws;

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
            db->stats.wb_skipped++;
            COVERAGE_INC(syncd_db_wb_skipped);
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
