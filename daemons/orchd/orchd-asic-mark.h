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
 * orchd-asic-mark: orchd's Write_Mark row on the southbound OVSDB path:
 * every bulk's transaction marked for syncd, and the check after each
 * reconnection that the database kept what orchd wrote.
 *
 * Marking
 * -------
 *
 * Each bulk's transaction ends with an operation that sets orchd's row
 * (lib/ovsdb-write-mark.h), in an epoch begun before the first bulk and
 * again after a lost epoch's transaction.  syncd, seeing the row of the
 * epoch unchanged after its monitor began again, knows that Asic_Route
 * holds what it saw of orchd's writes and nothing newer.  A schema
 * without Write_Mark refuses the epoch: bulks go out unmarked from then
 * on, and a row an earlier orchd left is deleted so that it vouches for
 * nothing; so is the row on the southbound fast path, where Asic_Route is
 * written behind (orchd_asic_mark_stop()).
 *
 * Writes the database lost
 * ------------------------
 *
 * orchd keeps no replica of Asic_Route: its bulker believes what it wrote
 * (orchd-bulker.h).  A server restarted on an older copy of its file (a
 * backup put back, a disk that lost its last writes) holds less than that
 * belief: rows orchd created are missing, rows it updated are older, rows
 * it removed are back.  route-check would report them until orchd
 * restarted.  fpmsyncd and syncd notice the same through their own rows.
 *
 * So on each new connection of the writer, if orchd has marked at least
 * one committed transaction in the current epoch, it selects its row
 * before sending any bulk (orchd_asic_mark_holds_bulks() holds them, and
 * also while the writer is disconnected, so that no bulk built meanwhile
 * goes out before the check).  If the row says the database holds every
 * committed transaction, nothing more happens.  Otherwise:
 *
 *   - the bulker writes every route it holds again
 *     (orchd_bulker_resync_lost(): an update that finds no row creates
 *     it, and a route it removed is removed again);
 *   - the instance's Asic_Route rows are selected, by UUID alone, and each
 *     that no route names is removed (orchd_bulker_remove_unnamed());
 *   - a new epoch begins before the next bulk, so that syncd, seeing
 *     another epoch, reads Asic_Route again.
 *
 * Thread safety: the caller holds the worker's mutex around every call;
 * the writer's callbacks come from ovsdb_writer_run(), which the bulker's
 * thread runs.
 */

#ifndef ORCHD_ASIC_MARK_H
#define ORCHD_ASIC_MARK_H 1

#include <stdbool.h>
#include <stdint.h>

#include "lib/ovsdb-write-mark.h"

struct ds;
struct json;
struct jsonrpc_msg;
struct orchd_bulker;
struct ovsdb_writer;

/* orchd's mark and its check. */
struct orchd_asic_mark {
    struct ovsdb_writer *writer; /* The Asic_Route writer it marks. */
    int instance;               /* The ASIC instance whose rows orchd
                                 * writes. */
    struct ovsdb_write_mark mark; /* The row's epoch and transactions. */
    enum {
        ORCHD_MARK_NONE,        /* No epoch: one starts before the next
                                 * bulk. */
        ORCHD_MARK_STARTED,     /* Bulks are marked. */
        ORCHD_MARK_OFF,         /* No marks: the schema has no
                                 * Write_Mark, the epoch was refused, or
                                 * the southbound path is ZeroMQ. */
    } state;
    struct json *mark_id;       /* Id of the select of the row in flight,
                                 * or NULL. */
    struct json *rows_id;       /* Id of the select of the instance's rows
                                 * in flight, or NULL. */
    uint64_t n_checks;          /* Rows read after a reconnection. */
    uint64_t n_lost;            /* Of those, how many found writes lost. */
    uint64_t n_stale;           /* Rows removed that no route named. */
};

void orchd_asic_mark_init(struct orchd_asic_mark *, const char *writer_name,
                          int instance, struct ovsdb_writer *);
void orchd_asic_mark_destroy(struct orchd_asic_mark *);

struct json *orchd_asic_mark_bulk_op(struct orchd_asic_mark *);
void orchd_asic_mark_bulk_done(struct orchd_asic_mark *, bool committed);
void orchd_asic_mark_stop(struct orchd_asic_mark *);

bool orchd_asic_mark_holds_bulks(const struct orchd_asic_mark *);
void orchd_asic_mark_writer_msg(struct orchd_asic_mark *,
                                const struct jsonrpc_msg *,
                                struct orchd_bulker *);
void orchd_asic_mark_format(const struct orchd_asic_mark *, struct ds *);

#endif /* orchd-asic-mark.h */
