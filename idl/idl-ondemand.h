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

#ifndef IDL_ONDEMAND_H
#define IDL_ONDEMAND_H 1

/* On-demand columns for Open vSwitch's C IDL.
 *
 * OpenSwitch's design, which upstream OVS never merged, rebuilt on top of
 * an unmodified OVS 3.1 IDL.
 *
 * An on-demand column is in the replica's rows, with its generated struct
 * fields ('route->counters', 'n_counters', 'key_counters'...), but the IDL
 * does not monitor it: the server never sends it in an update.  The client
 * asks for its value when it wants it, at one of three levels:
 *
 *   - row:    idl_ondemand_fetch_row(idl, row, column), one column of one row;
 *   - column: idl_ondemand_fetch_column(idl, column), one column of every row;
 *   - table:  idl_ondemand_fetch_table(idl, table), every on-demand column of
 *             every row of the table.
 *
 * A fetch is one "select" of '_uuid' and the column(s), with a where clause
 * on '_uuid' for a row and none for a column or a table.  When the reply
 * arrives, idl_ondemand_run() writes each value into the row's committed
 * datum and re-parses the column, so the generated struct fields read like
 * any other column's, bumps the row's and the table's modify change
 * sequence numbers (ovsdb_idl_row_get_seqno(), ovsdb_idl_table_get_seqno())
 * and idl_ondemand_get_seqno().
 *
 * Until then the fetch is pending: idl_ondemand_is_row_fetch_pending(),
 * idl_ondemand_is_column_fetch_pending() and
 * idl_ondemand_is_table_fetch_pending() each answer for their own level
 * only (a pending table fetch does not make a row fetch pending).  A value
 * stays as fetched until the next fetch: monitor updates of the row's other
 * columns leave it alone.  A row that is new since the last fetch has the
 * column's default (empty) value.
 *
 * Transport
 * =========
 *
 * OVS 3.1's IDL has no way to send a request of one's own on its session
 * (the session lives inside the private 'struct ovsdb_cs'), and an IDL
 * transaction cannot "select".  So fetches travel on a second, lightweight
 * JSON-RPC session to the same remote, opened at the first fetch.  Fetches
 * asked for in one main-loop iteration go out together, in one "transact"
 * request, at the next idl_ondemand_run().
 *
 * The two sessions are not ordered with respect to each other: a fetch
 * answers with the database as it was when the server ran the select.
 * Rows in the reply that the replica does not hold (yet, or any more) are
 * skipped; rows of the replica that the reply lacks are left alone.
 *
 * Reconnection
 * ============
 *
 * When the fetch session loses its connection, the fetches outstanding on
 * it are dropped: they stop being pending and nothing is fetched again by
 * itself.  Fetches asked for while there is no connection wait, pending,
 * and go out when the session connects.  A row deleted while its fetch is
 * pending is simply not found when the reply arrives; its pending entry
 * goes away then.  (If the IDL's own session reconnects and reloads the
 * replica, fetched values are lost with the old rows.)
 *
 * Usage
 * =====
 *
 *     idl = ovsdb_idl_create(remote, &fibrec_idl_class, true, true);
 *     idl_ondemand_attach(idl, remote);
 *     idl_ondemand_add_column(idl, &fibrec_route_col_counters);
 *     for (;;) {
 *         ovsdb_idl_run(idl);
 *         idl_ondemand_run(idl);
 *         ... idl_ondemand_fetch_row(idl, &route->header_, ...) ...
 *         ovsdb_idl_wait(idl);
 *         idl_ondemand_wait(idl);
 *         poll_block();
 *     }
 *     idl_ondemand_detach(idl);
 *     ovsdb_idl_destroy(idl);
 *
 * idl/fibsync-ondemand.h has typed wrappers generated from the schema for
 * Fibsync's on-demand columns (fibrec_route_fetch_counters() and so on).
 *
 * Thread safety
 * =============
 *
 * Like the IDL itself: one thread at a time per IDL.  Different IDLs may be
 * used from different threads. */

#include <stdbool.h>
#include <stddef.h>

struct ovsdb_idl;
struct ovsdb_idl_column;
struct ovsdb_idl_row;
struct ovsdb_idl_table_class;

/* Setup and teardown.  idl_ondemand_attach() and idl_ondemand_add_column()
 * must be called between ovsdb_idl_create() and the first ovsdb_idl_run(),
 * like ovsdb_idl_omit().  idl_ondemand_detach() must come before
 * ovsdb_idl_destroy(). */
void idl_ondemand_attach(struct ovsdb_idl *, const char *remote);
void idl_ondemand_detach(struct ovsdb_idl *);
void idl_ondemand_add_column(struct ovsdb_idl *,
                             const struct ovsdb_idl_column *);
bool idl_ondemand_is_ondemand(const struct ovsdb_idl *,
                              const struct ovsdb_idl_column *);

/* Main loop. */
void idl_ondemand_run(struct ovsdb_idl *);
void idl_ondemand_wait(struct ovsdb_idl *);
unsigned int idl_ondemand_get_seqno(const struct ovsdb_idl *);

/* Fetches. */
void idl_ondemand_fetch_row(struct ovsdb_idl *, const struct ovsdb_idl_row *,
                            const struct ovsdb_idl_column *);
void idl_ondemand_fetch_column(struct ovsdb_idl *,
                               const struct ovsdb_idl_column *);
void idl_ondemand_fetch_table(struct ovsdb_idl *,
                              const struct ovsdb_idl_table_class *);

/* Pending predicates, one level each.  'column' may be NULL for "any
 * on-demand column of the row". */
bool idl_ondemand_is_row_fetch_pending(const struct ovsdb_idl_row *,
                                       const struct ovsdb_idl_column *);
bool idl_ondemand_is_column_fetch_pending(const struct ovsdb_idl *,
                                          const struct ovsdb_idl_column *);
bool idl_ondemand_is_table_fetch_pending(
    const struct ovsdb_idl *, const struct ovsdb_idl_table_class *);

/* Introspection, for tests and statistics. */
size_t idl_ondemand_n_pending(const struct ovsdb_idl *);
unsigned int idl_ondemand_get_conn_seqno(const struct ovsdb_idl *);
bool idl_ondemand_is_connected(const struct ovsdb_idl *);

#endif /* idl-ondemand.h */
