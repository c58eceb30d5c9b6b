/*
 * Copyright (c) 2026 The fibsync authors.
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

#ifndef OVSDB_FILE_SPLIT_H
#define OVSDB_FILE_SPLIT_H 1

/* Splits the snapshot record of a compacted standalone OVSDB database file
 * into records of a few rows each, before ovsdb-server reads it.
 *
 * Why: ovsdb-server compacts its file by itself (OVS 3.1: at least 10
 * minutes after it started, once the log has grown fourfold, and once a
 * day in any case), writing the whole database as one record.  At a
 * million routes that record is 444 MB, and a server restarted on it
 * parses it into one JSON tree before it builds a row: it answered after
 * 27 s and kept 4.8 GB, against 15 s and 2.5 GB for the same rows as a
 * log of transactions (docs/PERFORMANCE.md).  Read as records of a
 * thousand rows, the snapshot costs the server what a log does.
 *
 * What is split: only the file's second record (the first after the
 * schema), which is the snapshot when the file was compacted, and only if
 * it is at least 'min_len' bytes long.  It was written against an empty
 * database, so its rows are independent inserts, and since no table of
 * the Fibsync schema refers to another or is garbage-collected (all are
 * root tables without references), inserting them a few at a time ends
 * in the same database.  Each record written holds rows of one table,
 * in the order of the snapshot, and the snapshot's own "_"-members
 * ("_date", "_comment", "_is_diff") verbatim; its header carries its
 * length and SHA-1 as ovsdb/log.c writes them.  Every other byte of the
 * file (the schema record, the transactions after the snapshot, a torn
 * end) is copied as it is.
 *
 * Nothing is written unless the whole snapshot is understood: a bad
 * header, a SHA-1 that does not match (ovsdb-server would refuse the
 * file, and a split must not hide that), a clustered file, or JSON that
 * is not an object of tables of rows leaves the file to ovsdb-server,
 * with a message saying why.
 *
 * This module does no I/O: utilities/fibsync-db-split.c reads the file,
 * locks it as ovsdb-server does and replaces it atomically.
 *
 * Thread safety: none needed. */

#include <stdbool.h>
#include <stddef.h>
#include "openvswitch/compiler.h"

/* Defaults for struct ovsdb_file_split_options. */
#define OVSDB_FILE_SPLIT_MIN_LEN (64 * 1024 * 1024)
#define OVSDB_FILE_SPLIT_ROWS 1000

/* Options for ovsdb_file_split(). */
struct ovsdb_file_split_options {
    size_t min_len;             /* Split a snapshot only if its JSON is at
                                 * least this many bytes (0:
                                 * OVSDB_FILE_SPLIT_MIN_LEN). */
    size_t rows;                /* Most rows in a record written (0:
                                 * OVSDB_FILE_SPLIT_ROWS). */
};

/* What ovsdb_file_split() found and did. */
struct ovsdb_file_split_result {
    bool split;                 /* A snapshot was split: the new text was
                                 * written.  Else nothing was written. */
    size_t snapshot_len;        /* Bytes of the second record's JSON (0 if
                                 * there is none). */
    size_t rows;                /* Rows in it, if it was split. */
    size_t records;             /* Records written in its place. */
};

/* Receives the new file's text, in order. */
typedef void ovsdb_file_split_write_func(void *aux, const void *data,
                                         size_t size);

char *ovsdb_file_split(const char *text, size_t size,
                       const struct ovsdb_file_split_options *,
                       ovsdb_file_split_write_func *, void *aux,
                       struct ovsdb_file_split_result *)
    OVS_WARN_UNUSED_RESULT;

#endif /* ovsdb-file-split.h */
