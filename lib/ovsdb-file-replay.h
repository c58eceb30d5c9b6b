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

#ifndef OVSDB_FILE_REPLAY_H
#define OVSDB_FILE_REPLAY_H 1

/* Replays a standalone OVSDB database file, as ovsdb-server does when it
 * starts, keeping only the tables and columns asked for.
 *
 * Why: route-check reads a million Route and a million Asic_Route rows.
 * Asked of ovsdb-server, that costs the server 4.6 µs of CPU a row for
 * "_uuid" alone and 10 µs with the columns compared, and up to 1.6 GB of
 * transient memory (docs/PERFORMANCE.md).  The server's file holds the same
 * committed state: a schema record, then one record per transaction
 * (ovsdb/log.c writes each with fwrite() and fflush() before the
 * transaction's reply).  Replaying it costs the server nothing.
 *
 * What is read: every whole record "OVSDB JSON <length> <sha1>\n<json>\n"
 * up to the end of the file as it was when opened.  A record cut short
 * (the server appending meanwhile) ends the replay, as it ends
 * ovsdb-server's own read; SHA-1 checksums are not verified.  A compaction
 * by the server replaces the file by a rename, so the file opened stays
 * whole.  A clustered database ("OVSDB CLUSTER") is refused: its file is a
 * Raft log, and only the server knows which entries are committed.
 *
 * How: the file is read a chunk at a time (with read(), not mapped: a
 * server restarted after a crash truncates its file's torn end, and a
 * mapping would then fault), not parsed into a tree.  A small scanner
 * walks each transaction record; a row kept is an entry in a hash table by
 * UUID whose values, for each column kept, are the JSON text of its latest
 * value, copied out of the record into its table's arena, so that what
 * stays in memory is the columns kept, not the file (at a million routes,
 * about a third of it).  Only a modification of a set or map column
 * written as a diff ("_is_diff", OVS's file column diffs) is parsed (OVS's
 * ovsdb-data), applied as the server applies it
 * (ovsdb_datum_apply_diff_in_place()) and stored apart.  A column a row
 * never wrote reads as its type's default, as OVS writes it ("", 0, false,
 * ["set",[]], ["map",[]]).  A caller done with a table frees it at once
 * (ovsdb_file_replay_drop_table()).
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "openvswitch/compiler.h"
#include "openvswitch/dynamic-string.h"

struct ds;
struct uuid;

/* The JSON text of one column value: not NUL-terminated.  Valid until the
 * replay is destroyed. */
struct ovsdb_file_replay_value {
    const char *s;              /* First byte. */
    size_t len;                 /* Bytes. */
};

struct ovsdb_file_replay *ovsdb_file_replay_create(void);
void ovsdb_file_replay_destroy(struct ovsdb_file_replay *);

size_t ovsdb_file_replay_add_table(struct ovsdb_file_replay *,
                                   const char *table,
                                   const char *const *columns, size_t n);

char *ovsdb_file_replay_read(struct ovsdb_file_replay *, const char *file)
    OVS_WARN_UNUSED_RESULT;
void ovsdb_file_replay_set_test_sizes(size_t read_chunk, unsigned int shift,
                                      size_t max_blocks);
char *ovsdb_file_replay_read_buffer(struct ovsdb_file_replay *,
                                    const char *file, char *text,
                                    size_t size)
    OVS_WARN_UNUSED_RESULT;

size_t ovsdb_file_replay_n_rows(const struct ovsdb_file_replay *,
                                size_t table);
void ovsdb_file_replay_get_arena_counts(const struct ovsdb_file_replay *,
                                        size_t table, uint64_t *filled,
                                        uint64_t *apart);
void ovsdb_file_replay_drop_table(struct ovsdb_file_replay *, size_t table);

/* Called for each row of a table: 'uuid' is the row's, 'values' holds its
 * columns in the order ovsdb_file_replay_add_table() gave them. */
typedef void ovsdb_file_replay_row_cb(
    const struct uuid *uuid, const struct ovsdb_file_replay_value *values,
    void *aux);
void ovsdb_file_replay_for_each(const struct ovsdb_file_replay *,
                                size_t table, ovsdb_file_replay_row_cb *,
                                void *aux);
void ovsdb_file_replay_consume(struct ovsdb_file_replay *, size_t table,
                               ovsdb_file_replay_row_cb *, void *aux);

/* Decoding a value: lib/ovsdb-file-replay-value.h. */

#endif /* ovsdb-file-replay.h */
