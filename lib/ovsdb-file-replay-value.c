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


/* ovsdb-file-replay-value: a replay's column values into C values
 * (lib/ovsdb-file-replay-value.h). */

#include <config.h>
#include "lib/ovsdb-file-replay-value.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ovsdb-file-text.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "util.h"

/* The slow path of ovsdb_file_replay_get_string(): a string with escapes,
 * parsed by OVS's JSON parser. */
static bool
get_escaped_string(const struct ovsdb_file_replay_value *v, struct ds *out)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_char(&s, '[');
    ds_put_buffer(&s, v->s, v->len);
    ds_put_char(&s, ']');

    struct json *j = json_from_string(ds_cstr(&s));
    bool ok = (j->type == JSON_ARRAY && json_array(j)->n == 1
               && json_array(j)->elems[0]->type == JSON_STRING);
    if (ok) {
        ds_put_cstr(out, json_string(json_array(j)->elems[0]));
    }
    json_destroy(j);
    ds_destroy(&s);
    return ok;
}

/* A string atom: its text, unescaped, into 'out'. */
bool
ovsdb_file_replay_get_string(const struct ovsdb_file_replay_value *v,
                             struct ds *out)
{
    ds_clear(out);
    if (v->len < 2 || v->s[0] != '"' || v->s[v->len - 1] != '"'
        || ovsdb_file_text_skip_string(v->s, v->s + v->len) != v->s + v->len) {
        return false;
    } else if (memchr(v->s + 1, '\\', v->len - 2)) {
        return get_escaped_string(v, out);
    }
    ds_put_buffer(out, v->s + 1, v->len - 2);
    return true;
}

/* An integer atom. */
bool
ovsdb_file_replay_get_integer(const struct ovsdb_file_replay_value *v,
                              int64_t *n)
{
    char buf[32];
    char *end;

    if (!v->len || v->len >= sizeof buf
        || (v->s[0] != '-' && (v->s[0] < '0' || v->s[0] > '9'))) {
        return false;
    }
    memcpy(buf, v->s, v->len);
    buf[v->len] = '\0';
    errno = 0;
    long long x = strtoll(buf, &end, 10);
    if (*end || errno) {
        return false;
    }
    *n = x;
    return true;
}

/* A boolean atom. */
bool
ovsdb_file_replay_get_boolean(const struct ovsdb_file_replay_value *v,
                              bool *b)
{
    if (v->len == 4 && !memcmp(v->s, "true", 4)) {
        *b = true;
    } else if (v->len == 5 && !memcmp(v->s, "false", 5)) {
        *b = false;
    } else {
        return false;
    }
    return true;
}

/* Expects 'c' at 'p' (after blanks).  Returns the byte after it, or
 * NULL. */
static const char *
expect(const char *p, const char *end, char c)
{
    p = ovsdb_file_text_skip_ws(p, end);
    return p < end && *p == c ? p + 1 : NULL;
}

/* Expects the string "tag" at 'p' (after blanks), then a ',' and a '['.
 * Returns the byte after the '[', or NULL. */
static const char *
expect_tagged(const char *p, const char *end, const char *tag)
{
    size_t n = strlen(tag);

    p = ovsdb_file_text_skip_ws(p, end);
    if ((size_t) (end - p) < n + 2 || p[0] != '"' || memcmp(p + 1, tag, n)
        || p[n + 1] != '"') {
        return NULL;
    }
    p = expect(p + n + 2, end, ',');
    return p ? expect(p, end, '[') : NULL;
}

/* A value of an optional column (zero or one atom): '*present' says
 * whether it has its atom, then in 'atom'. */
bool
ovsdb_file_replay_get_optional(const struct ovsdb_file_replay_value *v,
                               struct ovsdb_file_replay_value *atom,
                               bool *present)
{
    const char *end = v->s + v->len;
    const char *p = expect(v->s, end, '[');

    p = p ? expect_tagged(p, end, "set") : NULL;
    if (!p) {
        *atom = *v;             /* A bare atom (["uuid", ...] included). */
        *present = true;
        return v->len > 0;
    }

    const char *q = expect(p, end, ']');
    if (q) {
        *present = false;
    } else {
        p = ovsdb_file_text_skip_ws(p, end);
        q = ovsdb_file_text_skip_value(p, end);
        if (!q) {
            return false;
        }
        *atom = (struct ovsdb_file_replay_value) { p, q - p };
        *present = true;
        q = expect(q, end, ']');
    }
    q = q ? expect(q, end, ']') : NULL;
    return q && ovsdb_file_text_skip_ws(q, end) == end;
}

/* Starts walking map value 'v'.  Returns false if it is not a map. */
bool
ovsdb_file_replay_map_start(const struct ovsdb_file_replay_value *v,
                            struct ovsdb_file_replay_cursor *cur)
{
    const char *end = v->s + v->len;
    const char *p = expect(v->s, end, '[');

    p = p ? expect_tagged(p, end, "map") : NULL;
    *cur = (struct ovsdb_file_replay_cursor) {
        .p = p, .end = end, .error = !p, .started = false,
    };
    return p != NULL;
}

/* Reads the next pair of a string-to-integer map: its key into 'key' and
 * its value into '*value'.  Returns false at the end of the map or, with
 * 'cur->error' set, on a pair that does not parse. */
bool
ovsdb_file_replay_map_next(struct ovsdb_file_replay_cursor *cur,
                           struct ds *key, int64_t *value)
{
    const char *p = cur->p, *end = cur->end, *q;
    struct ovsdb_file_replay_value kv, vv;

    if (cur->error || !p) {
        return false;
    }
    q = expect(p, end, ']');
    if (q) {
        q = expect(q, end, ']');
        cur->error = !q || ovsdb_file_text_skip_ws(q, end) != end;
        cur->p = NULL;
        return false;
    }
    if (cur->started && !(p = expect(p, end, ','))) {
        goto error;
    }
    if (!(p = expect(p, end, '['))) {
        goto error;
    }
    p = ovsdb_file_text_skip_ws(p, end);
    if (p >= end || *p != '"' || !(q = ovsdb_file_text_skip_string(p, end))) {
        goto error;
    }
    kv = (struct ovsdb_file_replay_value) { p, q - p };
    p = expect(q, end, ',');
    if (!p) {
        goto error;
    }
    p = ovsdb_file_text_skip_ws(p, end);
    q = ovsdb_file_text_skip_value(p, end);
    if (!q) {
        goto error;
    }
    vv = (struct ovsdb_file_replay_value) { p, q - p };
    if (!ovsdb_file_replay_get_string(&kv, key)
        || !ovsdb_file_replay_get_integer(&vv, value)
        || !(p = expect(q, end, ']'))) {
        goto error;
    }
    cur->p = p;
    cur->started = true;
    return true;

error:
    cur->error = true;
    return false;
}

void
ovsdb_file_replay_map_init(struct ovsdb_file_replay_map *m)
{
    memset(m, 0, sizeof *m);
    ds_init(&m->text);
    ds_init(&m->key);
}

void
ovsdb_file_replay_map_destroy(struct ovsdb_file_replay_map *m)
{
    ds_destroy(&m->text);
    ds_destroy(&m->key);
    free(m->keys);
    free(m->values);
    free(m->ofs);
}

/* Decodes 'v', a string-to-integer map value, into 'm'.  Returns false,
 * with 'm' empty, if 'v' is not of that shape. */
bool
ovsdb_file_replay_get_map(const struct ovsdb_file_replay_value *v,
                          struct ovsdb_file_replay_map *m)
{
    struct ovsdb_file_replay_cursor cur;
    int64_t value;
    size_t n = 0;

    m->n = 0;
    ds_clear(&m->text);
    if (!ovsdb_file_replay_map_start(v, &cur)) {
        return false;
    }
    while (ovsdb_file_replay_map_next(&cur, &m->key, &value)) {
        if (n >= m->allocated) {
            m->allocated = MAX(2 * m->allocated, 4);
            m->keys = xrealloc(m->keys, m->allocated * sizeof *m->keys);
            m->values = xrealloc(m->values,
                                 m->allocated * sizeof *m->values);
            m->ofs = xrealloc(m->ofs, m->allocated * sizeof *m->ofs);
        }
        m->ofs[n] = m->text.length;
        ds_put_buffer(&m->text, m->key.string, m->key.length);
        ds_put_char(&m->text, '\0');
        m->values[n++] = value;
    }
    if (cur.error) {
        return false;
    }
    /* The text may have moved as it grew: point at it only now. */
    for (size_t i = 0; i < n; i++) {
        m->keys[i] = m->text.string + m->ofs[i];
    }
    m->n = n;
    return true;
}

/* Decodes optional string value 'v' into 'out': '*s' is then its text, or
 * NULL if it has none.  Returns false if 'v' is not such a value. */
bool
ovsdb_file_replay_get_optional_string(const struct ovsdb_file_replay_value *v,
                                      struct ds *out, const char **s)
{
    struct ovsdb_file_replay_value atom;
    bool present;

    *s = NULL;
    if (!ovsdb_file_replay_get_optional(v, &atom, &present)) {
        return false;
    } else if (present) {
        if (!ovsdb_file_replay_get_string(&atom, out)) {
            return false;
        }
        *s = ds_cstr(out);
    }
    return true;
}
