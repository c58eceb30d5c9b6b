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
 * orchd-lost-writes: after orchd's Asic_Route writer reconnects, finds out
 * whether the database lost writes that it had committed, and has them
 * written again.
 *
 * orchd keeps no replica of Asic_Route: its bulker believes what it wrote
 * (orchd-bulker.h).  A server restarted on an older copy of its file (a
 * backup put back, a disk that lost its last writes) holds less than that
 * belief: rows orchd created are missing, rows it updated are older, rows
 * it removed are back.  route-check would report them until orchd
 * restarted.  fpmsyncd and syncd notice the same through their Write_Mark
 * rows (lib/ovsdb-write-mark.h); orchd marks each bulk's transaction in its
 * own row already, for syncd.
 *
 * So on each new connection of the writer, if orchd has marked at least
 * one committed transaction in the current epoch, it selects its mark row
 * before sending any bulk (orchd_lost_writes_busy() holds them; so does
 * the worker while the writer is disconnected, so that no bulk built
 * meanwhile goes out before the check).  If the
 * row says the database holds every committed transaction, nothing more
 * happens.  Otherwise:
 *
 *   - the bulker writes every route it holds again
 *     (orchd_bulker_resync_lost(): an update that finds no row creates
 *     it, and a route it removed is removed again);
 *   - the instance's Asic_Route rows are selected, by UUID alone, and each
 *     that no route names is removed (orchd_bulker_remove_unnamed());
 *   - the mark starts a new epoch before the next bulk, so that syncd,
 *     seeing another epoch, reads Asic_Route again.
 *
 * Its caller holds the worker's mutex around every call: the messages
 * come from ovsdb_writer_run(), which the bulker's thread runs.
 */

#ifndef ORCHD_LOST_WRITES_H
#define ORCHD_LOST_WRITES_H 1

#include <stdbool.h>
#include <stdint.h>

struct ds;
struct json;
struct jsonrpc_msg;
struct orchd_bulker;
struct ovsdb_write_mark;
struct ovsdb_writer;

/* The check's state. */
struct orchd_lost_writes {
    int instance;               /* The ASIC instance whose rows orchd
                                 * writes. */
    struct json *mark_id;       /* Id of the select of the mark in flight,
                                 * or NULL. */
    struct json *rows_id;       /* Id of the select of the instance's rows
                                 * in flight, or NULL. */
    uint64_t n_checks;          /* Marks read after a reconnection. */
    uint64_t n_lost;            /* Of those, how many found writes lost. */
    uint64_t n_stale;           /* Rows removed that no route named. */
};

void orchd_lost_writes_init(struct orchd_lost_writes *, int instance);
void orchd_lost_writes_destroy(struct orchd_lost_writes *);
void orchd_lost_writes_connected(struct orchd_lost_writes *,
                                 struct ovsdb_writer *,
                                 const struct ovsdb_write_mark *);
bool orchd_lost_writes_busy(const struct orchd_lost_writes *);
bool orchd_lost_writes_msg(struct orchd_lost_writes *,
                           const struct jsonrpc_msg *,
                           struct ovsdb_writer *,
                           const struct ovsdb_write_mark *,
                           struct orchd_bulker *);
void orchd_lost_writes_format(const struct orchd_lost_writes *, struct ds *);

#endif /* daemons/orchd-lost-writes.h */
