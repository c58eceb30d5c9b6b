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
 * orchd-sink-ovsdb: bulks into Asic_Route, one transaction each
 * (orchd-sink.h).
 *
 * Each bulk is one transaction of inserts (creations), updates (changes)
 * and deletes (removals) of Asic_Route rows keyed by their deterministic
 * UUIDs, ended by the Write_Mark operation of its epoch if it begins one
 * (orchd-asic-mark.h).  A change that updated no row found its row gone
 * (a user's delete, or a creation refused meanwhile): it is created
 * instead.  A transaction refused whole is reported to the bulker, which
 * sends its writes again one by one to find the one at fault.
 */

#include <config.h>

#include <stdlib.h>

#include "coverage.h"
#include "daemons/orchd/orchd-asic-mark.h"
#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-sink.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "util.h"

COVERAGE_DEFINE(orchd_route_recreated);

/* The sink's state. */
struct sink_ovsdb {
    struct orchd_sink up;       /* The class, bulker and writer. */
    struct orchd_asic_mark mark; /* orchd's Write_Mark, which syncd
                                  * follows. */
};

/* Context of one bulk's transaction. */
struct bulk_ctx {
    struct sink_ovsdb *so;      /* Owner. */
    struct orchd_bulk *bulk;    /* The bulk. */
    bool marked;                /* Its transaction ends with the mark's
                                 * operation. */
};

static const struct orchd_sink_class sink_ovsdb_class;

/* Returns the OVSDB sink of 'sink'. */
static struct sink_ovsdb *
sink_ovsdb_cast(const struct orchd_sink *sink)
{
    ovs_assert(sink->class == &sink_ovsdb_class);
    return CONTAINER_OF(sink, struct sink_ovsdb, up);
}

/* Writer callback: a message that is not a transaction's reply, or NULL
 * when the connection went down or came up (orchd-asic-mark.h). */
static void
writer_msg(void *so_, const struct jsonrpc_msg *msg)
{
    struct sink_ovsdb *so = so_;

    orchd_asic_mark_writer_msg(&so->mark, msg, so->up.bulker);
}

/* Creates the sink: bulks of 'bulker' into Asic_Route through 'writer',
 * marked in the Write_Mark row named 'mark_writer' (NULL for a schema
 * without Write_Mark), for ASIC instance 'instance'. */
struct orchd_sink *
orchd_sink_ovsdb_create(struct orchd_bulker *bulker,
                        struct ovsdb_writer *writer, const char *mark_writer,
                        int instance)
{
    struct sink_ovsdb *so = xzalloc(sizeof *so);

    so->up.class = &sink_ovsdb_class;
    so->up.bulker = bulker;
    so->up.writer = writer;
    orchd_asic_mark_init(&so->mark, mark_writer, instance, writer);
    ovsdb_writer_set_msg_cb(writer, writer_msg, so);
    return &so->up;
}

/* orchd_sink_class's 'destroy'. */
static void
sink_ovsdb_destroy(struct orchd_sink *sink)
{
    struct sink_ovsdb *so = sink_ovsdb_cast(sink);

    ovsdb_writer_set_msg_cb(sink->writer, NULL, NULL);
    orchd_asic_mark_destroy(&so->mark);
    free(so);
}

/* Writer callback: the transaction of one bulk ended. */
static void
bulk_committed(void *ctx_, const struct ovsdb_writer_reply *reply)
{
    struct bulk_ctx *ctx = ctx_;
    struct sink_ovsdb *so = ctx->so;
    struct orchd_bulker *bulker = so->up.bulker;
    struct orchd_bulk *bulk = ctx->bulk;
    bool ok = reply->result == OVSDB_WRITER_SUCCESS;

    if (ctx->marked) {
        orchd_asic_mark_bulk_done(&so->mark, ok);
    }

    if (ok) {
        /* A change updated nothing if the entry was not there: its
         * existence was unknown, or its row went behind orchd's back (a
         * user's delete, a creation refused while the change was already
         * taken).  Nothing would ever acknowledge it: create the entry
         * instead. */
        for (size_t i = 0; i < bulk->n_items; i++) {
            struct orchd_bulk_item *item = &bulk->items[i];

            if (item->op == ORCHD_BULK_SET
                && i < json_array(reply->results)->n) {
                const struct json *r = json_array(reply->results)->elems[i];

                if (!ovsdb_wire_result_count(r)) {
                    COVERAGE_INC(orchd_route_recreated);
                    orchd_bulker_missing(bulker, item);
                }
            }
        }
    }
    if (reply->result == OVSDB_WRITER_ERROR) {
        orchd_bulker_refused(bulker, bulk, reply->error);
    } else {
        orchd_bulker_sent(bulker, bulk, ok);
    }
    free(ctx);
}

/* orchd_sink_class's 'send': 'bulk' into Asic_Route as one
 * transaction. */
static void
sink_ovsdb_send(struct orchd_sink *sink, struct orchd_bulk *bulk)
{
    struct sink_ovsdb *so = sink_ovsdb_cast(sink);
    struct json *ops = json_array_create_empty();
    struct bulk_ctx *ctx = xmalloc(sizeof *ctx);
    struct json *mark;

    for (size_t i = 0; i < bulk->n_items; i++) {
        const struct orchd_bulk_item *item = &bulk->items[i];
        struct json *op;

        switch (item->op) {
        case ORCHD_BULK_CREATE:
            op = ovsdb_wire_op_insert("Asic_Route", &item->key,
                                      orchd_entry_to_row(item->entry,
                                      item->seq));
            break;
        case ORCHD_BULK_SET:
            op = ovsdb_wire_op_update("Asic_Route", &item->key,
                                      orchd_entry_to_row(item->entry,
                                      item->seq));
            break;
        case ORCHD_BULK_REMOVE:
        default:
            op = ovsdb_wire_op_delete("Asic_Route", &item->key);
            break;
        }
        json_array_add(ops, op);
    }
    ctx->so = so;
    ctx->bulk = bulk;
    /* Its epoch's transaction, if it begins one, goes first. */
    mark = orchd_asic_mark_bulk_op(&so->mark);
    ctx->marked = mark != NULL;
    if (mark) {
        json_array_add(ops, mark);
    }
    ovsdb_writer_commit(sink->writer, ops, bulk_committed, ctx);
}

/* orchd_sink_class's 'can_send': not while the mark holds bulks. */
static bool
sink_ovsdb_can_send(struct orchd_sink *sink)
{
    return !orchd_asic_mark_holds_bulks(&sink_ovsdb_cast(sink)->mark);
}

/* orchd_sink_class's 'format': the mark's counters. */
static void
sink_ovsdb_format(const struct orchd_sink *sink, struct ds *s)
{
    orchd_asic_mark_format(&sink_ovsdb_cast(sink)->mark, s);
}

/* orchd_sink_class's 'format_channel'. */
static void
sink_ovsdb_format_channel(const struct orchd_sink *sink OVS_UNUSED,
                          struct ds *s)
{
    ds_put_cstr(s, "southbound: off (bulks go into Asic_Route)\n");
}

static const struct orchd_sink_class sink_ovsdb_class = {
    .name = "ovsdb",
    .destroy = sink_ovsdb_destroy,
    .send = sink_ovsdb_send,
    .can_send = sink_ovsdb_can_send,
    .format = sink_ovsdb_format,
    .format_channel = sink_ovsdb_format_channel,
};
