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
#include "daemons/fpmsyncd/fpmsyncd-txn.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "daemons/fpmsyncd/fpmsyncd-rib-rows.h"
#include "daemons/fpmsyncd/fpmsyncd-status.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "util.h"
#include "uuid.h"

/* Serialization.
 *
 * The hot paths here avoid printf: at a million routes, formatting with
 * ds_put_format() was a tenth of fpmsyncd's CPU time. */

/* Appends optional integer 'column' with 'value' (0: empty), which an
 * insert leaves out when empty. */
static void
put_optional_int(struct ds *s, const char *column, uint64_t value,
                 bool insert)
{
    if (value) {
        ds_put_cstr(s, ",\"");
        ds_put_cstr(s, column);
        ds_put_cstr(s, "\":");
        ovsdb_wire_put_uint(s, value);
    } else if (!insert) {
        ds_put_format(s, ",\"%s\":[\"set\",[]]", column);
    }
}

/* Appends map 'column' with the members of 'set' (may be NULL), which an
 * insert leaves out when empty. */
static void
put_members(struct ds *s, const char *column, const struct fpmd_nhset *set,
            bool insert)
{
    if (!set || !set->n) {
        if (!insert) {
            ds_put_format(s, ",\"%s\":[\"map\",[]]", column);
        }
        return;
    }
    ds_put_cstr(s, ",\"");
    ds_put_cstr(s, column);
    ds_put_cstr(s, "\":[\"map\",[");
    for (size_t i = 0; i < set->n; i++) {
        if (i) {
            ds_put_char(s, ',');
        }
        ds_put_char(s, '[');
        ds_put_cstr(s, set->members[i].key_json);
        ds_put_char(s, ',');
        ovsdb_wire_put_uint(s, set->members[i].weight);
        ds_put_char(s, ']');
    }
    ds_put_cstr(s, "]]");
}

/* Appends the row object of 'r', whose row has UUID 'u': every column for
 * an insert (its bucket from 'u', lib/route-key.h, and its status if it
 * has a result to write, fpmsyncd-status.h), the content columns (with
 * their empty values) for an update.  Returns true if the row carries a
 * status. */
static bool
put_route_row(struct ds *s, struct fpmd_rib *rib, struct fpmd_route *r,
              const struct uuid *u, bool insert)
{
    bool status = false;
    char buf[ROUTE_KEY_PROTO_NAMELEN];
    bool blackhole = fpmd_route_is_blackhole(r);

    ds_put_char(s, '{');
    if (insert) {
        char prefix[FIB_PREFIX_STRLEN];

        size_t len = fib_prefix_format(&r->prefix, prefix);

        ds_put_cstr(s, "\"vrf\":");
        ds_put_cstr(s, fpmd_vrf_get(&rib->vrfs, r->vrf)->name_json);
        ds_put_cstr(s, ",\"prefix\":\"");
        ds_put_buffer(s, prefix, len);
        ds_put_format(s, "\",\"bucket\":%"PRIu32",", route_key_bucket(u));
    }
    ds_put_cstr(s, "\"protocol\":");
    json_string_escape(fpmd_route_protocol(r, buf), s);
    put_optional_int(s, "metric", r->metric, insert);
    put_optional_int(s, "nexthop_group", r->nh ? r->nh->id : 0, insert);
    put_members(s, "nexthops", fpmd_route_written_set(rib, r), insert);
    if (blackhole || !insert) {
        ds_put_format(s, ",\"blackhole\":%s", blackhole ? "true" : "false");
    }
    if (insert) {
        status = fpmd_status_put_insert(rib, r, s);
    }
    ds_put_char(s, '}');
    return status;
}

static void
put_nh_row(struct ds *s, const struct fpmd_nh *nh, bool insert)
{
    ds_put_format(s, "{\"id\":%"PRIu32, nh->id);
    put_members(s, "members", nh->set, insert);
    ds_put_char(s, '}');
}

static void
put_vrf_row(struct ds *s, const struct fpmd_vrf *vrf)
{
    ds_put_format(s, "{\"name\":%s,\"table_id\":%"PRId64"}",
                  vrf->name_json, vrf->table);
}

/* Appends operation 'op' to 's'.  Returns true if it is the insert of a
 * Route row that carries a status. */
static bool
put_op(struct ds *s, struct fpmd_rib *rib, const struct route_batch_op *op)
{
    bool status = false;
    const struct route_batch_entry *e = op->entry;
    const char *table = (e->tag == FPMD_ROUTE ? "Route"
                         : e->tag == FPMD_NH ? "Nexthop_Group" : "Vrf");
    bool insert = op->type == ROUTE_BATCH_INSERT;
    struct uuid u;

    fpmd_rib_entry_uuid(rib, e, &u);
    ovsdb_wire_put_op_start(s, route_batch_op_type_to_string(op->type),
                            table, &u);
    if (op->type == ROUTE_BATCH_DELETE) {
        ds_put_char(s, '}');
        if (e->tag == FPMD_ROUTE) {
            struct fpmd_route *r = CONTAINER_OF(e, struct fpmd_route, be);

            /* No row: its next insert starts with an empty status, and
             * what the row said of its offload is no answer for it. */
            fpmd_status_row_emptied(rib, r);
            fpmd_offload_row_cleared(rib, r);
        }
        return false;
    }
    ds_put_cstr(s, ",\"row\":");
    switch ((enum fpmd_kind) e->tag) {
    case FPMD_ROUTE: {
        struct fpmd_route *r = CONTAINER_OF(e, struct fpmd_route, be);

        status = put_route_row(s, rib, r, &u, insert);
        /* What orchd will program from the row (the OVSDB path's). */
        r->row_asic_hash = r->asic_hash;
        if (insert) {
            /* A new row: what an old one said of its offload is gone. */
            fpmd_offload_row_cleared(rib, r);
        }
        break;
    }
    case FPMD_NH:
        put_nh_row(s, CONTAINER_OF(e, struct fpmd_nh, be), insert);
        break;
    case FPMD_VRF:
        put_vrf_row(s, CONTAINER_OF(e, struct fpmd_vrf, be));
        break;
    }
    ds_put_char(s, '}');
    return status;
}

/* Appends to 's', after a comma, for each Route row that 'txn' updates
 * and whose status no longer holds (FPMD_F_STATUS_STALE,
 * fpmsyncd-offload.c), the mutate that deletes its status:offload:
 * orchd's result for the new content writes it again, which fpmsyncd's
 * Route.status monitor hears as news and tells zebra.  They come after
 * every row operation, so that the first results of the reply stay the
 * rows'. */
static void
put_stale_statuses(struct ds *s, struct fpmd_rib *rib,
                   struct route_batch_txn *txn)
{
    for (size_t i = 0; i < txn->n_ops; i++) {
        struct route_batch_op *op = &txn->ops[i];
        struct route_batch_entry *e = op->entry;
        struct uuid u;

        if (e->tag != FPMD_ROUTE || !(e->flags & FPMD_F_STATUS_STALE)) {
            continue;
        }
        /* An insert starts with an empty status; a delete takes it (put_op()
         * forgets what the row said of its offload for both). */
        e->flags &= ~FPMD_F_STATUS_STALE;
        if (op->type == ROUTE_BATCH_UPDATE) {
            struct fpmd_route *r = CONTAINER_OF(e, struct fpmd_route, be);

            fpmd_offload_row_cleared(rib, r);
            ovs_assert(r->n_clearing < UINT8_MAX);
            r->n_clearing++;
            op->marked = true;
            fpmd_rib_entry_uuid(rib, e, &u);
            ds_put_char(s, ',');
            ovsdb_wire_put_op_start(s, "mutate", "Route", &u);
            ds_put_cstr(s, ",\"mutations\":[[\"status\",\"delete\","
                        "[\"set\",[\"offload\"]]]]}");
        }
    }
}

/* Takes up to 'max_ops' queued writes as one transaction and appends them
 * to 'ops', each after a comma, as ovsdb_writer_txn_start() wants them.
 * Returns the transaction, to complete with fpmd_txn_reply(), or NULL if
 * there is nothing to write (or the database is not read yet). */
struct route_batch_txn *
fpmd_txn_build(struct fpmd_rib *rib, size_t max_ops, struct ds *ops)
{
    struct route_batch_txn *txn;
    uintptr_t n_status = 0;

    if (!rib->loaded) {
        return NULL;
    }
    txn = route_batch_take(&rib->batch, max_ops);
    if (!txn) {
        return NULL;
    }
    ds_reserve(ops, ops->length + 64 + txn->n_ops * 256);
    for (size_t i = 0; i < txn->n_ops; i++) {
        ds_put_char(ops, ',');
        n_status += put_op(ops, rib, &txn->ops[i]);
    }
    put_stale_statuses(ops, rib, txn);
    /* The statuses its inserts carry, counted when it commits. */
    txn->aux = (void *) n_status;
    return txn;
}

/* Returns the oldest transaction built and not yet completed, or NULL. */
struct route_batch_txn *
fpmd_txn_oldest(const struct fpmd_rib *rib)
{
    return route_batch_oldest_txn(&rib->batch);
}

/* 'txn' did not commit: each Route row it inserted may or may not hold
 * the status its insert carried (a lost transaction may have committed;
 * the row's retry may be an update that finds an older row), so what the
 * row says becomes unknown, and a route that wants a status is queued to
 * write it again (fpmsyncd-status.h). */
static void
txn_failed(struct fpmd_rib *rib, struct route_batch_txn *txn)
{
    for (size_t i = 0; i < txn->n_ops; i++) {
        const struct route_batch_op *op = &txn->ops[i];

        if (op->type == ROUTE_BATCH_INSERT && op->entry->tag == FPMD_ROUTE) {
            fpmd_status_row_unknown(rib, CONTAINER_OF(op->entry,
                                                      struct fpmd_route,
                                                      be));
        } else if (op->type == ROUTE_BATCH_UPDATE && op->marked) {
            /* Its status:offload may still be there: delete it again with
             * the retry (put_stale_statuses()).  An update that carried no
             * such delete (a new metric, say) must not gain one: orchd
             * would not write the offload back for a route it already
             * holds.  What the row holds for orchd is unknown until then:
             * an announcement of the same content must not pass for no
             * change to the row (fpmd_route_refresh()), which would take
             * the delete back. */
            struct fpmd_route *r = CONTAINER_OF(op->entry, struct fpmd_route,
                                                be);

            fpmd_offload_status_stale(rib, r);
            r->row_asic_hash = 0;
        }
    }
    route_batch_txn_fail(&rib->batch, txn);
}

/* 'txn', built by fpmd_txn_build(), committed or failed: its deletes of
 * status:offload are no longer in flight. */
static void
txn_settle_clearing(struct route_batch_txn *txn)
{
    for (size_t i = 0; i < txn->n_ops; i++) {
        const struct route_batch_op *op = &txn->ops[i];

        if (op->type == ROUTE_BATCH_UPDATE && op->marked) {
            struct fpmd_route *r = CONTAINER_OF(op->entry, struct fpmd_route,
                                                be);

            ovs_assert(r->n_clearing);
            r->n_clearing--;
        }
    }
}

/* Commits 'txn' with 'counts' (see route_batch_txn_commit()), then has a
 * route of it that still owes its row's status:offload delete
 * (FPMD_F_STATUS_STALE) write its row again.  Such a route needs a write
 * to carry the delete; when an update that carried it failed while this
 * one, which did not, was in flight, the failed one's retry, queued,
 * would find the row settled as the route wants it and be cancelled.  A
 * route that owes the delete wants its row, so the commit cannot free
 * it. */
static void
txn_commit(struct fpmd_rib *rib, struct route_batch_txn *txn,
           const unsigned int *counts)
{
    struct route_batch_entry **owing = NULL;
    size_t n_owing = 0, allocated = 0;

    for (size_t i = 0; i < txn->n_ops; i++) {
        struct route_batch_entry *e = txn->ops[i].entry;

        if (e->tag == FPMD_ROUTE && e->flags & FPMD_F_STATUS_STALE
            && e->want) {
            if (n_owing >= allocated) {
                owing = x2nrealloc(owing, &allocated, sizeof *owing);
            }
            owing[n_owing++] = e;
        }
    }
    route_batch_txn_commit(&rib->batch, txn, counts);
    for (size_t i = 0; i < n_owing; i++) {
        struct route_batch_entry *e = owing[i];

        if (e->flags & FPMD_F_STATUS_STALE
            && route_batch_entry_is_settled(e)) {
            rib->stats.status_rewrites++;
            route_batch_rewrite(&rib->batch, e);
        }
    }
    free(owing);
}

/* Completes 'txn', the oldest transaction in flight, with the writer's
 * 'reply'.  Returns true if it committed.  Otherwise every row of 'txn' is
 * queued again, and for a transaction the database refused, a description
 * is appended to 'errors'. */
bool
fpmd_txn_reply(struct fpmd_rib *rib, struct route_batch_txn *txn,
               const struct ovsdb_writer_reply *reply, struct ds *errors)
{
    const struct json *results = reply->results;
    unsigned int *counts;

    txn_settle_clearing(txn);
    if (reply->result == OVSDB_WRITER_LOST) {
        txn_failed(rib, txn);
        return false;
    }
    if (reply->result == OVSDB_WRITER_ERROR) {
        ds_put_cstr(errors, reply->error);
        if (reply->failed_op < txn->n_ops) {
            const struct route_batch_op *op = &txn->ops[reply->failed_op];
            struct uuid u;

            fpmd_rib_entry_uuid(rib, op->entry, &u);
            ds_put_format(errors, " (%s of "UUID_FMT")",
                          route_batch_op_type_to_string(op->type),
                          UUID_ARGS(&u));
        }
        rib->stats.txn_errors++;
        txn_failed(rib, txn);
        return false;
    }

    counts = xmalloc((txn->n_ops + 1) * sizeof *counts);
    for (size_t i = 0; i < txn->n_ops; i++) {
        counts[i] = ovsdb_wire_result_count(json_array(results)->elems[i]);
    }
    fpmd_status_inserts_committed(rib, (uintptr_t) txn->aux);
    txn_commit(rib, txn, counts);
    free(counts);
    return true;
}
