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

/* syncd-db-update: what a change to an Asic_Route row does on syncd's
 * OVSDB path (the route submitted, changed or removed; the row marked bad,
 * or held until its VRF has a Vrf row), and the Vrf and Write_Mark rows
 * that come with the changes.  See daemons/syncd/syncd-db-private.h. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-db-private.h"
#include "daemons/syncd/syncd-writeback.h"
#include "lib/fib-prefix.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(syncd_db_update);

COVERAGE_DEFINE(syncd_db_row_insert);
COVERAGE_DEFINE(syncd_db_row_modify);
COVERAGE_DEFINE(syncd_db_row_delete);
COVERAGE_DEFINE(syncd_db_bad_row);
COVERAGE_DEFINE(syncd_db_wb_skipped);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

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
void
syncd_db_row_destroy(struct syncd_db *db, struct syncd_row *row)
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
bool
syncd_db_row_says_programmed(const struct shash *columns, int64_t *applied_seq)
{
    const char *state = ovsdb_wire_get_string(shash_find_data(columns,
                                                              "state"));

    return (state && !strcmp(state, "programmed")
            && ovsdb_wire_get_integer(shash_find_data(columns,
                                                      "applied_seq"),
                                      applied_seq));
}

/* Phase 0 of a row update: removals.  Returns true if it did work. */
bool
syncd_db_process_row_phase0(struct syncd_db *db, struct sdb_event *ev,
                   const struct ovsdb_cs_row_update *ru)
{
    struct syncd_row *row = syncd_rows_find(&db->rows, &ru->row_uuid);

    if (ru->type == OVSDB_CS_ROW_DELETE) {
        db->stats.row_deletes++;
        COVERAGE_INC(syncd_db_row_delete);
        if (row) {
            syncd_db_row_destroy(db, row);
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
void
syncd_db_process_row_phase1(struct syncd_db *db, struct sdb_event *ev,
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
    if (syncd_db_row_says_programmed(ru->columns, &applied_seq)) {
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

void
syncd_db_event_destroy(struct sdb_event *ev)
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
        syncd_db_process_row_phase1(db, &ev, &ru);
        held_destroy(v[i]);
    }
    free(v);
}

/* Takes the Write_Mark rows of 'ev'.  For the monitor's first contents
 * after it began again, with rows known, decides whether the read that
 * follows may do without reading them (syncd-marks.h): orchd's row as
 * last seen, and syncd's own holding what it wrote back and read. */
void
syncd_db_process_marks(struct syncd_db *db, const struct sdb_event *ev)
{
    struct ds why = DS_EMPTY_INITIALIZER;
    bool orchd_holds;

    orchd_holds = syncd_marks_update(&db->marks, ev->mark_tu, ev->clear,
                                     &why);
    if (!ev->clear || !hmap_count(&db->rows.rows)) {
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
void
syncd_db_process_vrfs(struct syncd_db *db, const struct sdb_event *ev)
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

/* Frees the rows held for their VRF, and their map. */
void
syncd_db_held_destroy(struct syncd_db *db)
{
    struct held_row *h;

    HMAP_FOR_EACH_POP (h, node, &db->held) {
        held_destroy(h);
    }
    hmap_destroy(&db->held);
}

/* Counts a write-back skipped because the database already holds it. */
void
syncd_db_count_wb_skipped(struct syncd_db *db)
{
    db->stats.wb_skipped++;
    COVERAGE_INC(syncd_db_wb_skipped);
}
