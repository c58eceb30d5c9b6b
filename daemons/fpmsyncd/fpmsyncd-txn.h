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

#ifndef FPMSYNCD_TXN_H
#define FPMSYNCD_TXN_H 1

/* fpmsyncd's transactions: the rib's queued rows as OVSDB operations, and
 * what the database answered.
 *
 * fpmd_txn_build() takes a transaction's worth of operations from the rib's
 * batcher (lib/route-batch.h) and appends them as text to a transaction
 * started with ovsdb_writer_txn_start() (lib/ovsdb-writer.h): at a million
 * routes, building and freeing a JSON tree per route costs more than the whole
 * rest of fpmsyncd. fpmd_txn_reply() applies the writer's completion of the
 * same transaction to the batcher.  Transactions complete in the order they
 * were built.  Each Route insert or delete taken tells
 * daemons/fpmsyncd/fpmsyncd-status.h that the row's status starts empty.
 *
 * On the rib's rows, above the rib and the modules that follow its
 * routes (daemons/fpmsyncd/fpmsyncd-rib.h); thread safety: none. */

#include <stdbool.h>
#include <stddef.h>

struct ds;
struct fpmd_rib;
struct ovsdb_writer_reply;
struct route_batch_txn;

struct route_batch_txn *fpmd_txn_build(struct fpmd_rib *, size_t max_ops,
                                       struct ds *ops);
struct route_batch_txn *fpmd_txn_oldest(const struct fpmd_rib *);
bool fpmd_txn_reply(struct fpmd_rib *, struct route_batch_txn *,
                    const struct ovsdb_writer_reply *, struct ds *errors);

#endif /* fpmsyncd-txn.h */
