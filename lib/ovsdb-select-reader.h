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

#ifndef OVSDB_SELECT_READER_H
#define OVSDB_SELECT_READER_H 1

/* ovsdb-select-reader: reads a large table at start, a row at a time.
 *
 * A daemon that restarts beside a database of a million rows must read
 * its rows without building the whole reply as one JSON tree (about
 * 1.5 kB a row, 1.5 GB at a million rows, as OVS's JSON-RPC layer would).
 * A reader opens a connection of its own, sends one "transact" of
 * "select"s, and feeds the raw reply to lib/ovsdb-select-scanner.h, which
 * hands over one row at a time: memory stays at one row plus one read
 * buffer.
 *
 * Use: create it, call run() and wait() from the main loop until run()
 * says it is done or failed, then destroy it.  Each run() reads at most a
 * few megabytes, so the daemon's other work goes on meanwhile.
 *
 * Thread safety: none; a reader belongs to one thread. */

#include <stddef.h>
#include "lib/ovsdb-select-scanner.h"

struct json;

/* What ovsdb_select_reader_run() says. */
enum ovsdb_select_reader_state {
    OVSDB_SELECT_READER_RUNNING, /* Still reading. */
    OVSDB_SELECT_READER_DONE,    /* Every row was handed over. */
    OVSDB_SELECT_READER_FAILED,  /* See ovsdb_select_reader_error(). */
};

struct ovsdb_select_reader *ovsdb_select_reader_create(
    const char *remote, struct json *transact_params, int n_selects,
    ovsdb_select_row_cb *, void *aux);
void ovsdb_select_reader_destroy(struct ovsdb_select_reader *);
void ovsdb_select_reader_set_read_ahead(struct ovsdb_select_reader *,
                                        size_t bytes);
enum ovsdb_select_reader_state ovsdb_select_reader_run(
    struct ovsdb_select_reader *);
void ovsdb_select_reader_receive(struct ovsdb_select_reader *);
void ovsdb_select_reader_wait(struct ovsdb_select_reader *);
const char *ovsdb_select_reader_error(const struct ovsdb_select_reader *);
size_t ovsdb_select_reader_n_rows(const struct ovsdb_select_reader *);

#endif /* ovsdb-select-reader.h */
