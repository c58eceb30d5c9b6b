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

#ifndef OVSDB_WRITE_MARK_H
#define OVSDB_WRITE_MARK_H 1

/* ovsdb-write-mark: whether a database still holds what a writer
 * committed, after its connection came back.
 *
 * A writer that keeps, instead of reading rows back, a belief of what the
 * database holds (fpmsyncd: lib/route-batch.h) must check that belief when
 * its connection drops and comes back.  The transactions that were in
 * flight are unknown, and the writer already redoes them; but the server
 * may also have come back with less than was committed (a copy restored
 * from before the last commits, a new database), and only a read of the
 * writer's tables could say what is there.  At a million routes that read
 * costs ovsdb-server 15 s of work and 20% more memory.
 *
 * The mark makes the read unneeded in the common case, a server that was
 * restarted on its own file.  The writer owns one row of the Write_Mark
 * table, keyed by its name:
 *
 *   - Each time it has read its tables, it draws a random epoch and sends,
 *     before anything else, a transaction that recreates its row with that
 *     epoch and txn 0 (ovsdb_write_mark_start_epoch()).
 *
 *   - Every transaction it sends after that ends with one more operation
 *     that sets the row's txn to the transaction's number in the epoch,
 *     1, 2, ..., and its epoch again (ovsdb_write_mark_put()); each
 *     transaction's end is reported, in the order sent
 *     (ovsdb_write_mark_done()).  (The epoch again: a transaction of an
 *     epoch whose own transaction was lost, sent after it on a new
 *     connection, must not leave an older epoch's row at a plausible
 *     txn.)
 *
 *   - When the connection is back, it selects the row
 *     (ovsdb_write_mark_read_params()).  ovsdb-server applies one
 *     connection's transactions in order, so a row with the writer's epoch
 *     and a txn at least the number of the last transaction that committed
 *     means the database holds every committed transaction of the epoch,
 *     and so all the writer believes, but for what was in flight
 *     (ovsdb_write_mark_check()).  Anything else means: read again.
 *
 * What the check cannot see is a change made behind the writer's back to
 * its rows, which the writer could not see while connected either.
 *
 * A reader that follows another writer's rows through a monitor (syncd,
 * of orchd's Asic_Route writes) can use the same row.  The monitor
 * reports the row's changes in order with the other rows', so the last
 * (epoch, txn) seen before a lost connection, found unchanged in the
 * database once the monitor has begun again, says that the database holds
 * what the reader saw of that writer and nothing newer.  The writer must
 * then mark every transaction after its epoch's: ovsdb_write_mark_op()
 * marks one built as JSON, and a writer that stops marking deletes its
 * row (ovsdb_write_mark_forget()).
 *
 * A database without the Write_Mark table (a schema before 1.5.0) refuses
 * the epoch's transaction; ovsdb_write_mark_epoch_done() then turns the
 * marks off until the next epoch, and every check says "read again".
 *
 * No I/O here: the caller sends what this module builds.  Thread safety:
 * none. */

#include <stdbool.h>
#include <stdint.h>
#include "uuid.h"

struct ds;
struct json;

/* A writer's mark. */
struct ovsdb_write_mark {
    char *writer;               /* Write_Mark.writer: the row's key. */
    struct uuid epoch;          /* The current epoch, all-zero before the
                                 * first. */
    bool enabled;               /* False if the epoch's transaction was
                                 * refused: no marks until the next. */
    uint64_t n_sent;            /* Transactions marked in this epoch. */
    uint64_t n_done;            /* Of those, how many have ended. */
    uint64_t committed;         /* Number of the last one that committed,
                                 * 0 if none. */
    uint64_t n_stale;           /* Marked transactions of earlier epochs
                                 * still in flight. */
    uint64_t n_epochs;          /* Epochs started (counter). */
};

void ovsdb_write_mark_init(struct ovsdb_write_mark *, const char *writer);
void ovsdb_write_mark_destroy(struct ovsdb_write_mark *);

/* Epochs. */
struct json *ovsdb_write_mark_start_epoch(struct ovsdb_write_mark *,
                                          const struct uuid *epoch);
void ovsdb_write_mark_end_epoch(struct ovsdb_write_mark *);
void ovsdb_write_mark_epoch_done(struct ovsdb_write_mark *, bool committed);

/* Marking transactions. */
bool ovsdb_write_mark_put(struct ovsdb_write_mark *, struct ds *ops);
struct json *ovsdb_write_mark_op(struct ovsdb_write_mark *);
void ovsdb_write_mark_done(struct ovsdb_write_mark *, bool committed);

/* The check after a reconnection. */
struct json *ovsdb_write_mark_read_params(const struct ovsdb_write_mark *,
                                          const char *db_name);
bool ovsdb_write_mark_check(const struct ovsdb_write_mark *,
                            const struct json *result, struct ds *why);
bool ovsdb_write_mark_holds(const struct ovsdb_write_mark *,
                            const struct uuid *epoch, int64_t txn,
                            struct ds *why);
bool ovsdb_write_mark_parse_row(const struct json *row, struct uuid *epoch,
                                int64_t *txn);

/* A writer that stops marking. */
struct json *ovsdb_write_mark_forget(const struct ovsdb_write_mark *);

#endif /* ovsdb-write-mark.h */
