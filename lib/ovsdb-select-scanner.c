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
#include "lib/ovsdb-select-scanner.h"

#include <stdint.h>
#include <string.h>

#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "util.h"

/* Nesting depths in the reply (see the header): inside the reply object
 * 1, its "result" array 2, a select result object 3, its "rows" array 4,
 * a row object 5. */
#define DEPTH_RESULT 3
#define DEPTH_ROW 5

/* Bytes of the reply's beginning kept for error messages. */
#define HEAD_LEN 256

void
ovsdb_select_scanner_init(struct ovsdb_select_scanner *s)
{
    memset(s, 0, sizeof *s);
    ds_init(&s->buf);
    ds_init(&s->head);
    s->obj_start = SIZE_MAX;
}

void
ovsdb_select_scanner_destroy(struct ovsdb_select_scanner *s)
{
    ds_destroy(&s->buf);
    ds_destroy(&s->head);
}

/* Parses 'len' bytes at 'p' as one JSON value; returns it, or NULL with a
 * message in '*errorp'. */
static struct json *
parse_value(const char *p, size_t len, char **errorp)
{
    struct json_parser *parser = json_parser_create(0);
    struct json *json;

    json_parser_feed(parser, p, len);
    json = json_parser_finish(parser);
    if (json->type == JSON_STRING) {
        *errorp = xasprintf("bad JSON in the reply: %s", json_string(json));
        json_destroy(json);
        return NULL;
    }
    return json;
}

/* Called when the select result object at [start, end) closed without a
 * row: it must be {"rows":[]}. */
static char *
check_empty_result(const char *p, size_t len)
{
    char *error = NULL;
    struct json *json = parse_value(p, len, &error);
    const struct json *rows;

    if (!json) {
        return error;
    }
    rows = (json->type == JSON_OBJECT
            ? shash_find_data(json_object(json), "rows") : NULL);
    if (!rows || rows->type != JSON_ARRAY) {
        char *s = json_to_string(json, 0);

        error = xasprintf("select failed: %s", s);
        free(s);
    }
    json_destroy(json);
    return error;
}

/* Drops the bytes of 's->buf' that no longer need to be kept. */
static void
compact(struct ovsdb_select_scanner *s)
{
    size_t keep = s->obj_start != SIZE_MAX ? s->obj_start : s->pos;

    if (keep > 0 && (keep >= 65536 || keep == s->buf.length)) {
        memmove(s->buf.string, s->buf.string + keep, s->buf.length - keep);
        s->buf.length -= keep;
        s->buf.string[s->buf.length] = '\0';
        s->pos -= keep;
        if (s->obj_start != SIZE_MAX) {
            s->obj_start -= keep;
        }
    }
}

/* Feeds 'n' bytes of the reply.  Calls 'cb' for each complete row.
 * Returns NULL, or an error message if the reply cannot be what it should
 * be (the caller gives up on it). */
char *
ovsdb_select_scanner_feed(struct ovsdb_select_scanner *s, const void *data,
                          size_t n, ovsdb_select_row_cb *cb, void *aux)
{
    if (s->head.length < HEAD_LEN) {
        ds_put_buffer(&s->head, data, MIN(n, HEAD_LEN - s->head.length));
    }
    ds_put_buffer(&s->buf, data, n);

    while (s->pos < s->buf.length && !s->done) {
        char c = s->buf.string[s->pos];

        if (s->in_string) {
            if (s->escaped) {
                s->escaped = false;
            } else if (c == '\\') {
                s->escaped = true;
            } else if (c == '"') {
                s->in_string = false;
            }
        } else if (c == '"') {
            s->in_string = true;
        } else if (c == '{' || c == '[') {
            s->depth++;
            if (s->depth == 1) {
                if (c != '{') {
                    return xasprintf("reply is not a JSON object");
                }
                s->started = true;
            } else if (s->depth == DEPTH_RESULT && c == '{') {
                s->n_results++;
                s->result_has_rows = false;
                s->obj_start = s->pos;
            } else if (s->depth == DEPTH_ROW && c == '{') {
                s->result_has_rows = true;
                s->obj_start = s->pos;
            }
        } else if (c == '}' || c == ']') {
            if (s->depth == DEPTH_ROW && c == '}'
                && s->obj_start != SIZE_MAX) {
                char *error = NULL;
                struct json *row = parse_value(s->buf.string + s->obj_start,
                                               s->pos + 1 - s->obj_start,
                                               &error);
                if (!row) {
                    return error;
                }
                s->n_rows++;
                cb(s->n_results - 1, row, aux);
                json_destroy(row);
                s->obj_start = SIZE_MAX;
            } else if (s->depth == DEPTH_RESULT && c == '}'
                       && s->obj_start != SIZE_MAX) {
                if (!s->result_has_rows) {
                    char *error = check_empty_result(
                        s->buf.string + s->obj_start,
                        s->pos + 1 - s->obj_start);

                    if (error) {
                        return error;
                    }
                }
                s->obj_start = SIZE_MAX;
            }
            s->depth--;
            if (s->depth < 0) {
                return xasprintf("unbalanced JSON in the reply");
            }
            if (!s->depth && s->started) {
                s->done = true;
            }
        }
        s->pos++;
    }
    compact(s);
    return NULL;
}

/* Checks, once the whole reply was fed ('s->done'), that it held
 * 'n_selects' select results.  Returns NULL or an error message quoting
 * the reply's beginning. */
char *
ovsdb_select_scanner_finish(struct ovsdb_select_scanner *s, int n_selects)
{
    if (!s->done) {
        return xstrdup("reply cut short");
    }
    if (s->n_results != n_selects) {
        return xasprintf("reply holds %d results, not %d: %s%s",
                         s->n_results, n_selects, ds_cstr(&s->head),
                         s->head.length >= HEAD_LEN ? "..." : "");
    }
    return NULL;
}
