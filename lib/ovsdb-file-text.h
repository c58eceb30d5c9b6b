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

#ifndef OVSDB_FILE_TEXT_H
#define OVSDB_FILE_TEXT_H 1

/* The text of a standalone OVSDB database file: its records, and just
 * enough JSON to walk one without parsing it into a tree.
 *
 * A standalone file (ovsdb/log.c) is a sequence of records, each a header
 * line "OVSDB JSON <length> <sha1>\n" and <length> bytes of JSON text that
 * end in a newline, whose SHA-1 the header gives in hex.  The first record
 * is the schema; each later one a transaction, or after a compaction the
 * whole database as one snapshot.
 *
 * The scanner functions take the next byte to read and the end of the
 * text, and return the byte after what they read, or NULL if that is not
 * there.  Brackets are counted, not matched: they find where well-formed
 * JSON ends and reject text cut short, not every malformed text.
 *
 * Users: lib/ovsdb-file-replay.h (route-check's reader of the file) and
 * lib/ovsdb-file-split.h (the snapshot split before ovsdb-server starts).
 *
 * Thread safety: none needed; the functions keep no state. */

#include <stdbool.h>
#include <stddef.h>

/* The magic of a standalone database file's record headers, and the start
 * of a clustered database's file. */
#define OVSDB_FILE_TEXT_MAGIC "OVSDB JSON "
#define OVSDB_FILE_TEXT_CLUSTER_MAGIC "OVSDB CLUSTER"

/* A record header is shorter than this: magic, length, SHA-1, newline. */
#define OVSDB_FILE_TEXT_MAX_HEADER 128

const char *ovsdb_file_text_skip_ws(const char *p, const char *end);
const char *ovsdb_file_text_skip_string(const char *p, const char *end);
const char *ovsdb_file_text_skip_value(const char *p, const char *end);

/* A member of an object being walked. */
struct ovsdb_file_text_member {
    const char *key;            /* Its key's text, without the quotes. */
    size_t key_len;             /* Its length. */
    const char *value;          /* First byte of its value. */
};

int ovsdb_file_text_next_member(const char **pp, const char *end, bool first,
                                struct ovsdb_file_text_member *);
bool ovsdb_file_text_key_is(const struct ovsdb_file_text_member *,
                            const char *);
bool ovsdb_file_text_open_object(const char **pp, const char *end);

/* One record of a database file. */
struct ovsdb_file_text_record {
    const char *header;         /* First byte of its header line. */
    const char *sha1;           /* Its header's SHA-1: 40 hex digits, or
                                 * NULL if the header has none. */
    const char *data;           /* First byte of its JSON text. */
    size_t len;                 /* Bytes of 'data', its newline included. */
};

/* What ovsdb_file_text_next_record() found. */
enum ovsdb_file_text_next {
    OVSDB_FILE_TEXT_RECORD,     /* A whole record. */
    OVSDB_FILE_TEXT_END,        /* The end of the text, or a record cut
                                 * short there (being written). */
    OVSDB_FILE_TEXT_ERROR,      /* Not a record. */
};

enum ovsdb_file_text_next ovsdb_file_text_next_record(
    const char **pp, const char *end, bool first,
    struct ovsdb_file_text_record *, const char **error);
bool ovsdb_file_text_record_sha1_ok(const struct ovsdb_file_text_record *);

int ovsdb_file_text_read_fd(int fd, size_t size, char **textp,
                            size_t *sizep);

#endif /* ovsdb-file-text.h */
