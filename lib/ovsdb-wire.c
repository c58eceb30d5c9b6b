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

#include <config.h>

#include "lib/ovsdb-wire.h"

#include "coverage.h"
#include "jsonrpc.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "ovsdb-error.h"
#include "svec.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_wire);

COVERAGE_DEFINE(ovsdb_wire_bad_update);

/* ---- Values --------------------------------------------------------------
 */

/* Returns ["uuid", "<uuid>"]. */
struct json *
ovsdb_wire_uuid(const struct uuid *uuid)
{
    return json_array_create_2(json_string_create("uuid"),
                               json_string_create_nocopy(
                                   xasprintf(UUID_FMT, UUID_ARGS(uuid))));
}

/* Returns the condition list [["_uuid", "==", ["uuid", "<uuid>"]]]: a
 * hash lookup on the server, however large the table. */
struct json *
ovsdb_wire_where_uuid(const struct uuid *uuid)
{
    return json_array_create_1(
        json_array_create_3(json_string_create("_uuid"),
                            json_string_create("=="),
                            ovsdb_wire_uuid(uuid)));
}

/* Returns an empty map, ["map", []]. */
struct json *
ovsdb_wire_map_new(void)
{
    return json_array_create_2(json_string_create("map"),
                               json_array_create_empty());
}

/* Adds the pair 'key', 'value' (both taken) to 'map'. */
void
ovsdb_wire_map_add(struct json *map, struct json *key, struct json *value)
{
    json_array_add(map->array.elems[1], json_array_create_2(key, value));
}

/* Returns an empty set, ["set", []]. */
struct json *
ovsdb_wire_set_new(void)
{
    return json_array_create_2(json_string_create("set"),
                               json_array_create_empty());
}

/* Adds 'value' (taken) to 'set'. */
void
ovsdb_wire_set_add(struct json *set, struct json *value)
{
    json_array_add(set->array.elems[1], value);
}

/* ---- Operations as JSON trees --------------------------------------------
 */

static struct json *
op_new(const char *op, const char *table)
{
    struct json *j = json_object_create();

    json_object_put_string(j, "op", op);
    json_object_put_string(j, "table", table);
    return j;
}

struct json *
ovsdb_wire_op_insert(const char *table, const struct uuid *row_uuid,
                     struct json *row)
{
    struct json *j = op_new("insert", table);

    if (row_uuid) {
        json_object_put_format(j, "uuid", UUID_FMT, UUID_ARGS(row_uuid));
    }
    json_object_put(j, "row", row);
    return j;
}

struct json *
ovsdb_wire_op_update(const char *table, const struct uuid *row_uuid,
                     struct json *row)
{
    struct json *j = op_new("update", table);

    json_object_put(j, "where", ovsdb_wire_where_uuid(row_uuid));
    json_object_put(j, "row", row);
    return j;
}

struct json *
ovsdb_wire_op_delete(const char *table, const struct uuid *row_uuid)
{
    struct json *j = op_new("delete", table);

    json_object_put(j, "where", ovsdb_wire_where_uuid(row_uuid));
    return j;
}

struct json *
ovsdb_wire_op_select(const char *table, struct json *where,
                     const char *columns)
{
    struct json *j = op_new("select", table);

    json_object_put(j, "where", where ? where : json_array_create_empty());
    if (columns) {
        struct json *array = json_array_create_empty();
        struct svec words;

        svec_init(&words);
        svec_parse_words(&words, columns);
        for (size_t i = 0; i < words.n; i++) {
            json_array_add(array, json_string_create(words.names[i]));
        }
        svec_destroy(&words);
        json_object_put(j, "columns", array);
    }
    json_object_put(j, "sort", json_array_create_empty());
    return j;
}

struct json *
ovsdb_wire_op_mutate(const char *table, const struct uuid *row_uuid,
                     struct json *mutations)
{
    struct json *j = op_new("mutate", table);

    json_object_put(j, "where", ovsdb_wire_where_uuid(row_uuid));
    json_object_put(j, "mutations", mutations);
    return j;
}

/* ---- Operations as text --------------------------------------------------
 *
 * No printf on these paths: at a million rows, ds_put_format() was a
 * tenth of fpmsyncd's CPU time. */

/* Appends 'value' in decimal. */
void
ovsdb_wire_put_uint(struct ds *s, uint64_t value)
{
    char buf[24];
    char *p = buf + sizeof buf;

    do {
        *--p = '0' + value % 10;
        value /= 10;
    } while (value);
    ds_put_buffer(s, p, buf + sizeof buf - p);
}

/* Appends 'u' in its 36-character text form, without quotes. */
void
ovsdb_wire_put_uuid_string(struct ds *s, const struct uuid *u)
{
    static const char hex[] = "0123456789abcdef";
    char buf[UUID_LEN];
    char *p = buf;

    for (int i = 0; i < 4; i++) {
        for (int shift = 28; shift >= 0; shift -= 4) {
            if (p - buf == 8 || p - buf == 13 || p - buf == 18
                || p - buf == 23) {
                *p++ = '-';
            }
            *p++ = hex[(u->parts[i] >> shift) & 0xf];
        }
    }
    ds_put_buffer(s, buf, sizeof buf);
}

void
ovsdb_wire_put_op_start(struct ds *s, const char *op, const char *table,
                        const struct uuid *row_uuid)
{
    ds_put_cstr(s, "{\"op\":\"");
    ds_put_cstr(s, op);
    ds_put_cstr(s, "\",\"table\":\"");
    ds_put_cstr(s, table);
    if (!strcmp(op, "insert")) {
        if (row_uuid) {
            ds_put_cstr(s, "\",\"uuid\":\"");
            ovsdb_wire_put_uuid_string(s, row_uuid);
        }
        ds_put_char(s, '"');
    } else {
        ds_put_cstr(s, "\",\"where\":[[\"_uuid\",\"==\",[\"uuid\",\"");
        ovsdb_wire_put_uuid_string(s, row_uuid);
        ds_put_cstr(s, "\"]]]");
    }
}

/* ---- Decoding ------------------------------------------------------------
 */

/* Returns column 'name' of 'row', or NULL if 'row' is missing or not an
 * object, or has no such column: a row from the wire is never trusted to
 * have the shape asked for. */
const struct json *
ovsdb_wire_col(const struct json *row, const char *name)
{
    return (row && row->type == JSON_OBJECT
            ? shash_find_data(json_object(row), name) : NULL);
}

/* Does the database of 'schema' (a schema's JSON, as "get_schema" answers
 * or a client's monitor is composed with; NULL if none) have table
 * 'table'?  A schema before fibsync 1.5.0 has no Write_Mark, say. */
bool
ovsdb_wire_schema_has_table(const struct json *schema, const char *table)
{
    const struct json *tables = ovsdb_wire_col(schema, "tables");

    return (tables && tables->type == JSON_OBJECT
            && shash_find(json_object(tables), table));
}

/* Returns the atom of 'v', the value of an optional column (a scalar, or
 * a set of zero or one atoms), or NULL if it is empty or not of that
 * shape. */
const struct json *
ovsdb_wire_get_optional(const struct json *v)
{
    if (!v) {
        return NULL;
    }
    if (v->type != JSON_ARRAY) {
        return v;
    }

    const struct json_array *a = json_array(v);
    if (a->n == 2 && a->elems[0]->type == JSON_STRING
        && !strcmp(json_string(a->elems[0]), "set")
        && a->elems[1]->type == JSON_ARRAY
        && json_array(a->elems[1])->n == 1) {
        return json_array(a->elems[1])->elems[0];
    }
    return NULL;
}

/* Stores in '*value' the integer in optional value 'v' and returns true,
 * or returns false if 'v' holds no integer. */
bool
ovsdb_wire_get_integer(const struct json *v, int64_t *value)
{
    const struct json *atom = ovsdb_wire_get_optional(v);

    if (atom && atom->type == JSON_INTEGER) {
        *value = json_integer(atom);
        return true;
    }
    return false;
}

/* Returns the string in optional value 'v', or NULL. */
const char *
ovsdb_wire_get_string(const struct json *v)
{
    const struct json *atom = ovsdb_wire_get_optional(v);

    return atom && atom->type == JSON_STRING ? json_string(atom) : NULL;
}

/* Returns the value of 'key' in 'map', a string-to-string map value
 * (["map",[[K,V],...]]), or NULL if 'map' is not of that shape or has no
 * such key with a string value. */
const char *
ovsdb_wire_map_get_string(const struct json *map, const char *key)
{
    const struct json_array *pairs;

    if (!map || map->type != JSON_ARRAY || json_array(map)->n != 2
        || json_array(map)->elems[0]->type != JSON_STRING
        || strcmp(json_string(json_array(map)->elems[0]), "map")
        || json_array(map)->elems[1]->type != JSON_ARRAY) {
        return NULL;
    }
    pairs = json_array(json_array(map)->elems[1]);
    for (size_t i = 0; i < pairs->n; i++) {
        const struct json *pair = pairs->elems[i];
        const struct json *k, *v;

        if (pair->type != JSON_ARRAY || json_array(pair)->n != 2) {
            continue;
        }
        k = json_array(pair)->elems[0];
        v = json_array(pair)->elems[1];
        if (k->type == JSON_STRING && v->type == JSON_STRING
            && !strcmp(json_string(k), key)) {
            return json_string(v);
        }
    }
    return NULL;
}

/* Parses 'v', of the form ["uuid", "<uuid>"], into '*uuid'.  Returns false
 * if it is not of that form. */
bool
ovsdb_wire_get_uuid(const struct json *v, struct uuid *uuid)
{
    if (!v || v->type != JSON_ARRAY || json_array(v)->n != 2) {
        return false;
    }

    const struct json *tag = json_array(v)->elems[0];
    const struct json *text = json_array(v)->elems[1];
    return (tag->type == JSON_STRING && !strcmp(json_string(tag), "uuid")
            && text->type == JSON_STRING
            && uuid_from_string(uuid, json_string(text)));
}

/* Returns the pairs of 'v', a map of strings to integers on the wire
 * (["map", [[KEY, VALUE], ...]]): each element of the array returned is a
 * two-element array of a JSON string and a JSON integer.  Returns NULL if
 * 'v' is not of that form. */
const struct json_array *
ovsdb_wire_get_string_int_map(const struct json *v)
{
    const struct json_array *a, *pairs;

    if (!v || v->type != JSON_ARRAY || (a = json_array(v))->n != 2
        || a->elems[0]->type != JSON_STRING
        || strcmp(json_string(a->elems[0]), "map")
        || a->elems[1]->type != JSON_ARRAY) {
        return NULL;
    }
    pairs = json_array(a->elems[1]);
    for (size_t i = 0; i < pairs->n; i++) {
        const struct json *pair = pairs->elems[i];
        const struct json_array *kv;

        if (pair->type != JSON_ARRAY || (kv = json_array(pair))->n != 2
            || kv->elems[0]->type != JSON_STRING
            || kv->elems[1]->type != JSON_INTEGER) {
            return NULL;
        }
    }
    return pairs;
}

/* ---- Transact replies ----------------------------------------------------
 */

/* Checks 'msg', the reply to a "transact" of 'n_ops' operations.  Returns
 * NULL if every operation succeeded.  Otherwise returns a description
 * (the caller frees it) and stores in '*failed_op', if nonnull, the index
 * of the operation that failed, or SIZE_MAX if the failure was not one
 * operation's (a JSON-RPC error, a malformed reply, too few results, or
 * a failed commit, which the server reports after the operations). */
char *
ovsdb_wire_reply_error(const struct jsonrpc_msg *msg, size_t n_ops,
                       size_t *failed_op)
{
    const struct json *result = msg->result;

    if (failed_op) {
        *failed_op = SIZE_MAX;
    }
    if (msg->type == JSONRPC_ERROR
        || (msg->error && msg->error->type != JSON_NULL)) {
        char *text = json_to_string(msg->error, 0);
        char *error = xasprintf("transaction error: %s", text);

        free(text);
        return error;
    }
    if (!result || result->type != JSON_ARRAY) {
        return xstrdup("bad reply: result is not an array");
    }

    const struct json_array *results = json_array(result);
    for (size_t i = 0; i < results->n; i++) {
        const struct json *r = results->elems[i];
        const struct json *error, *details;
        struct ds s;

        if (r->type != JSON_OBJECT) {
            continue;
        }
        error = shash_find_data(json_object(r), "error");
        if (!error) {
            continue;
        }
        details = shash_find_data(json_object(r), "details");
        ds_init(&s);
        ds_put_format(&s, "operation %"PRIuSIZE" of %"PRIuSIZE": ", i,
                      n_ops);
        json_to_ds(error, 0, &s);
        if (details) {
            ds_put_cstr(&s, ": ");
            json_to_ds(details, 0, &s);
        }
        if (failed_op && i < n_ops) {
            *failed_op = i;
        }
        return ds_steal_cstr(&s);
    }
    if (results->n < n_ops) {
        return xasprintf("%"PRIuSIZE" results for %"PRIuSIZE" operations",
                         results->n, n_ops);
    }
    return NULL;
}

/* Returns the row count of one operation's result 'r', its "count" (1 if
 * it has none: an insert, or a malformed result). */
unsigned int
ovsdb_wire_result_count(const struct json *r)
{
    const struct json *count;

    if (!r || r->type != JSON_OBJECT) {
        return 1;
    }
    count = shash_find_data(json_object(r), "count");
    return count && count->type == JSON_INTEGER ? json_integer(count) : 1;
}

/* Returns the "rows" array of the first operation's result in 'results',
 * a transaction's result array (NULL if the transaction failed), or NULL
 * if there is none of that form. */
const struct json *
ovsdb_wire_result_rows(const struct json *results)
{
    const struct json *rows = NULL;

    if (results && results->type == JSON_ARRAY && json_array(results)->n
        && json_array(results)->elems[0]->type == JSON_OBJECT) {
        rows = shash_find_data(json_object(json_array(results)->elems[0]),
                               "rows");
    }
    return rows && rows->type == JSON_ARRAY ? rows : NULL;
}

/* Decodes 'v', a map of strings to integers on the wire, into 'm'.
 * Returns false, with 'm' empty, if 'v' is not of that form. */
bool
ovsdb_wire_get_map(const struct json *v, struct ovsdb_wire_map *m)
{
    const struct json_array *pairs = ovsdb_wire_get_string_int_map(v);

    m->n = 0;
    if (!pairs) {
        return false;
    }
    if (pairs->n > m->allocated) {
        m->allocated = MAX(pairs->n, 2 * m->allocated);
        m->keys = xrealloc(m->keys, m->allocated * sizeof *m->keys);
        m->values = xrealloc(m->values, m->allocated * sizeof *m->values);
    }
    for (size_t i = 0; i < pairs->n; i++) {
        const struct json_array *kv = json_array(pairs->elems[i]);

        m->keys[i] = json_string(kv->elems[0]);
        m->values[i] = json_integer(kv->elems[1]);
    }
    m->n = pairs->n;
    return true;
}

void
ovsdb_wire_map_destroy(struct ovsdb_wire_map *m)
{
    free(m->keys);
    free(m->values);
}

/* Parses the table updates of monitor update 'u' (ovsdb-cs), received by
 * 'who' (a name for the log).  Returns them for the caller to destroy
 * with ovsdb_cs_db_update_destroy(), or NULL for an update that does not
 * parse, which is logged (rate-limited) and counted (coverage counter
 * ovsdb_wire_bad_update). */
struct ovsdb_cs_db_update *
ovsdb_wire_parse_update(const struct ovsdb_cs_update_event *u,
                        const char *who)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    struct ovsdb_cs_db_update *du;
    struct ovsdb_error *error;

    error = ovsdb_cs_parse_db_update(u->table_updates, u->version, &du);
    if (error) {
        char *s = ovsdb_error_to_string_free(error);

        COVERAGE_INC(ovsdb_wire_bad_update);
        VLOG_WARN_RL(&rl, "%s: bad update from the database: %s", who, s);
        free(s);
        return NULL;
    }
    return du;
}
