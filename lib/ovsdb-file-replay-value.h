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


#ifndef OVSDB_FILE_REPLAY_VALUE_H
#define OVSDB_FILE_REPLAY_VALUE_H 1

/* ovsdb-file-replay-value: decoding the column values a replay keeps
 * (struct ovsdb_file_replay_value, lib/ovsdb-file-replay.h), JSON text as
 * OVS writes it in a database file, into C values: strings, integers,
 * booleans, optional atoms, and string-to-integer maps, walked pair by pair
 * or decoded whole.  The common shapes are read in place, without a JSON
 * tree; a string with escapes goes through OVS's JSON parser.
 *
 * Thread safety: every function is thread-safe on distinct outputs. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/ovsdb-file-replay.h"
#include "openvswitch/dynamic-string.h"

/* Decoding a value.  Each returns false if the value is not of the shape
 * asked for.  A string's text goes to 'out' (cleared first). */
bool ovsdb_file_replay_get_string(const struct ovsdb_file_replay_value *,
                                  struct ds *out);
bool ovsdb_file_replay_get_integer(const struct ovsdb_file_replay_value *,
                                   int64_t *);
bool ovsdb_file_replay_get_boolean(const struct ovsdb_file_replay_value *,
                                   bool *);
bool ovsdb_file_replay_get_optional(const struct ovsdb_file_replay_value *,
                                    struct ovsdb_file_replay_value *atom,
                                    bool *present);
bool ovsdb_file_replay_get_optional_string(
    const struct ovsdb_file_replay_value *, struct ds *out, const char **s);

/* Walks a string-to-integer map value ["map", [[KEY, N], ...]]:
 *
 *     struct ovsdb_file_replay_cursor cur;
 *
 *     if (ovsdb_file_replay_map_start(&value, &cur)) {
 *         while (ovsdb_file_replay_map_next(&cur, &key, &n)) { ... }
 *         if (cur.error) { ... }
 *     }
 */
struct ovsdb_file_replay_cursor {
    const char *p;              /* Next byte to read. */
    const char *end;            /* End of the value. */
    bool error;                 /* Not a map, or a pair did not parse. */
    bool started;               /* A pair was read. */
};
bool ovsdb_file_replay_map_start(const struct ovsdb_file_replay_value *,
                                 struct ovsdb_file_replay_cursor *);
bool ovsdb_file_replay_map_next(struct ovsdb_file_replay_cursor *,
                                struct ds *key, int64_t *value);

/* A string-to-integer map value decoded whole, for a caller that wants its
 * keys as C strings: 'keys[i]' (in 'text') and 'values[i]' for 'i' below
 * 'n'.  Valid until the next decoding into it. */
struct ovsdb_file_replay_map {
    const char **keys;          /* The keys, NUL-terminated... */
    int64_t *values;            /* ...and their values... */
    size_t n;                   /* ...in this many pairs. */
    size_t allocated;           /* Room in 'keys', 'values', 'ofs'. */
    size_t *ofs;                /* Each key's offset in 'text'. */
    struct ds text;             /* The keys' text, one after another. */
    struct ds key;              /* Scratch: one key. */
};
void ovsdb_file_replay_map_init(struct ovsdb_file_replay_map *);
void ovsdb_file_replay_map_destroy(struct ovsdb_file_replay_map *);
bool ovsdb_file_replay_get_map(const struct ovsdb_file_replay_value *,
                               struct ovsdb_file_replay_map *);

#endif /* ovsdb-file-replay-value.h */
