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

#ifndef OVSDB_SELECT_SCANNER_H
#define OVSDB_SELECT_SCANNER_H 1

/* Incremental reader of a large "transact" reply of "select" results.
 *
 * When fpmsyncd starts, it reads the Route rows of the database: a million
 * rows make a reply of about 200 MB of JSON, and OVS's JSON-RPC layer
 * parses a message into one tree before handing it over, about 1.5 kB of
 * memory per row (1.5 GB at a million routes, which jemalloc then keeps
 * for a while).  This scanner instead takes the raw bytes of the reply as
 * they arrive, finds each row object by tracking the nesting depth outside
 * strings, and parses and hands over one row at a time, so memory stays
 * at one row plus one read buffer.
 *
 * The reply must be the JSON-RPC response to a single "transact" whose
 * operations are all "select"s:
 *
 *   {"id":ID,"result":[{"rows":[ROW,ROW,...]},{"rows":[...]},...],
 *    "error":null}
 *
 * Rows of the i-th select are reported with 'select_idx' i.
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include "openvswitch/compiler.h"
#include "openvswitch/dynamic-string.h"

struct json;

/* Called for each row object of select number 'select_idx'.  'row' is
 * freed after the call. */
typedef void ovsdb_select_row_cb(int select_idx, const struct json *row,
                                 void *aux);

struct ovsdb_select_scanner {
    struct ds buf;              /* Bytes received and not yet consumed. */
    size_t pos;                 /* Next byte of 'buf' to scan. */
    int depth;                  /* Nesting depth before 'buf[pos]'. */
    bool in_string;             /* Inside a string. */
    bool escaped;               /* Inside a string, after a backslash. */
    bool started;               /* Saw the opening '{' of the reply. */
    bool done;                  /* Saw its closing '}'. */
    size_t obj_start;           /* Offset of the open select result or
                                 * row object, SIZE_MAX if none must be
                                 * kept. */
    int n_results;              /* Select results opened so far. */
    size_t n_rows;              /* Rows reported so far. */
    bool result_has_rows;       /* The open select result had a row. */
    struct ds head;             /* The first bytes, for error messages. */
};

void ovsdb_select_scanner_init(struct ovsdb_select_scanner *);
void ovsdb_select_scanner_destroy(struct ovsdb_select_scanner *);
char *ovsdb_select_scanner_feed(struct ovsdb_select_scanner *,
                                const void *data, size_t n,
                                ovsdb_select_row_cb *, void *aux)
    OVS_WARN_UNUSED_RESULT;
char *ovsdb_select_scanner_finish(struct ovsdb_select_scanner *,
                                  int n_selects)
    OVS_WARN_UNUSED_RESULT;

#endif /* ovsdb-select-scanner.h */
