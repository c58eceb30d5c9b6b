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

#ifndef OVSDB_WIRE_H
#define OVSDB_WIRE_H 1

/* ovsdb-wire: the OVSDB wire format (RFC 7047), the pieces every fibsync
 * client writes or reads by hand.
 *
 * Writers that skip the IDL (lib/ovsdb-writer.h) build operations either
 * as JSON trees, with the ovsdb_wire_op_*() builders, or as text appended
 * straight to a buffer, with the ovsdb_wire_put_*() functions: at a
 * million rows a JSON tree per row costs more than everything else the
 * writer does, so the hot writers append text.  Readers that skip the IDL
 * (monitor updates through ovsdb-cs, select replies) decode values with
 * the ovsdb_wire_get_*() functions, which never trust their input: each
 * returns false (or NULL) for a value of the wrong shape.
 *
 * Thread safety: none needed; no state. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;
struct json;
struct json_array;
struct jsonrpc_msg;
struct ovsdb_cs_db_update;
struct ovsdb_cs_update_event;
struct uuid;

/* Values. */
struct json *ovsdb_wire_uuid(const struct uuid *);
struct json *ovsdb_wire_where_uuid(const struct uuid *);
struct json *ovsdb_wire_map_new(void);
void ovsdb_wire_map_add(struct json *map, struct json *key,
                        struct json *value);
struct json *ovsdb_wire_set_new(void);
void ovsdb_wire_set_add(struct json *set, struct json *value);

/* Operations as JSON trees.  Each returns a new object; 'row' and
 * 'mutations' pass to the operation.  'row_uuid' names the row: the
 * "uuid" of an insert (may be NULL for a server-chosen one), the
 * "_uuid ==" condition of the others. */
struct json *ovsdb_wire_op_insert(const char *table,
                                  const struct uuid *row_uuid,
                                  struct json *row);
struct json *ovsdb_wire_op_update(const char *table,
                                  const struct uuid *row_uuid,
                                  struct json *row);
struct json *ovsdb_wire_op_delete(const char *table,
                                  const struct uuid *row_uuid);
struct json *ovsdb_wire_op_mutate(const char *table,
                                  const struct uuid *row_uuid,
                                  struct json *mutations);

/* A "select" of 'columns' (space-separated names, NULL for every column)
 * of the rows of 'table' that match 'where' (a JSON array of conditions,
 * passed to the operation; NULL for every row), in no particular order.
 *
 * It says so with an empty "sort": ovsdb-server (ovsdb/execution.c, OVS
 * 3.1) takes a missing "sort" for "sort by every column" and quicksorts
 * the rows it selects before it composes the reply, about a fifth of its
 * CPU for a large select (docs/PERFORMANCE.md). */
struct json *ovsdb_wire_op_select(const char *table, struct json *where,
                                  const char *columns);

/* Operations as text.  ovsdb_wire_put_op_start() appends the beginning of
 * an operation object, up to and including its "where" (or, for an
 * insert, its "uuid"), so that the caller appends ,"row":{...} or
 * ,"mutations":[...] and then the closing '}'.  'op' is "insert",
 * "update", "delete" or "mutate"; 'table' needs no escaping (a schema
 * name). */
void ovsdb_wire_put_op_start(struct ds *, const char *op, const char *table,
                             const struct uuid *row_uuid);
void ovsdb_wire_put_uuid_string(struct ds *, const struct uuid *);
void ovsdb_wire_put_uint(struct ds *, uint64_t);

/* Decoding values of a row or an update. */
const struct json *ovsdb_wire_col(const struct json *row, const char *name);
bool ovsdb_wire_schema_has_table(const struct json *schema,
                                 const char *table);
const struct json *ovsdb_wire_get_optional(const struct json *);
bool ovsdb_wire_get_integer(const struct json *, int64_t *);
const char *ovsdb_wire_get_string(const struct json *);
bool ovsdb_wire_get_uuid(const struct json *, struct uuid *);
const struct json_array *ovsdb_wire_get_string_int_map(const struct json *);

/* A string-to-integer map value decoded into arrays: 'keys[i]' (pointing
 * into the JSON decoded, valid as long as it is) and 'values[i]' for 'i'
 * below 'n'.  Zero-initialize; reused from one decoding to the next. */
struct ovsdb_wire_map {
    const char **keys;          /* The keys... */
    int64_t *values;            /* ...and their values... */
    size_t n;                   /* ...in this many pairs. */
    size_t allocated;           /* Room in 'keys' and 'values'. */
};
bool ovsdb_wire_get_map(const struct json *, struct ovsdb_wire_map *);
void ovsdb_wire_map_destroy(struct ovsdb_wire_map *);
const char *ovsdb_wire_map_get_string(const struct json *map,
                                      const char *key);

/* Monitor updates (ovsdb-cs). */
struct ovsdb_cs_db_update *ovsdb_wire_parse_update(
    const struct ovsdb_cs_update_event *, const char *who);

/* Transact replies. */
char *ovsdb_wire_reply_error(const struct jsonrpc_msg *, size_t n_ops,
                             size_t *failed_op);
unsigned int ovsdb_wire_result_count(const struct json *result);
const struct json *ovsdb_wire_result_rows(const struct json *results);

#endif /* ovsdb-wire.h */
