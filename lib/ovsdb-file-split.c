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

#include <config.h>

#include "lib/ovsdb-file-split.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ovsdb-file-text.h"
#include "openvswitch/dynamic-string.h"
#include "sha1.h"
#include "util.h"

/* Some bytes of the text. */
struct span {
    const char *p;              /* First byte. */
    size_t n;                   /* Bytes. */
};

/* Most "_"-members a snapshot may have ("_date", "_comment", "_is_diff"
 * and room for more). */
#define MAX_EXTRAS 8

/* Builds the records that replace a snapshot: one table's rows at a time,
 * 'max_rows' a record. */
struct chunker {
    ovsdb_file_split_write_func *write; /* Where records go... */
    void *aux;                  /* ...with this. */
    struct ds data;             /* The record being built. */
    struct span table;          /* Its table's key, quotes included. */
    struct span extras[MAX_EXTRAS]; /* The snapshot's "_"-members. */
    size_t n_extras;            /* How many. */
    size_t n_rows;              /* Rows in 'data'. */
    size_t max_rows;            /* Most rows in a record. */
    struct ovsdb_file_split_result *result; /* Counts. */
};

/* Writes the record being built, if it holds a row. */
static void
chunk_finish(struct chunker *c)
{
    uint8_t sha1[SHA1_DIGEST_SIZE];
    char header[OVSDB_FILE_TEXT_MAX_HEADER];
    int n;

    if (!c->n_rows) {
        return;
    }
    ds_put_char(&c->data, '}');
    for (size_t i = 0; i < c->n_extras; i++) {
        ds_put_char(&c->data, ',');
        ds_put_buffer(&c->data, c->extras[i].p, c->extras[i].n);
    }
    ds_put_cstr(&c->data, "}\n");

    sha1_bytes(c->data.string, c->data.length, sha1);
    n = snprintf(header, sizeof header,
                 OVSDB_FILE_TEXT_MAGIC "%"PRIuSIZE" "SHA1_FMT"\n",
                 c->data.length, SHA1_ARGS(sha1));
    c->write(c->aux, header, n);
    c->write(c->aux, c->data.string, c->data.length);
    c->result->records++;
    c->n_rows = 0;
}

/* Adds the row whose member text is 'row' to the record being built. */
static void
chunk_add_row(struct chunker *c, struct span row)
{
    if (!c->n_rows) {
        ds_clear(&c->data);
        ds_put_char(&c->data, '{');
        ds_put_buffer(&c->data, c->table.p, c->table.n);
        ds_put_cstr(&c->data, ":{");
    } else {
        ds_put_char(&c->data, ',');
    }
    ds_put_buffer(&c->data, row.p, row.n);
    c->result->rows++;
    if (++c->n_rows >= c->max_rows) {
        chunk_finish(c);
    }
}

/* Returns the text of member 'm', from its key's opening quote to the end
 * of its value at 'value_end'. */
static struct span
member_span(const struct ovsdb_file_text_member *m, const char *value_end)
{
    return (struct span) { m->key - 1, value_end - (m->key - 1) };
}

/* Walks the rows of the table whose object starts at 'p', before 'end',
 * handing each to 'c' if it is nonnull.  Returns NULL or a static error
 * message. */
static const char *
walk_table(const char *p, const char *end, struct chunker *c)
{
    if (!ovsdb_file_text_open_object(&p, end)) {
        return "a table is not an object";
    }
    for (bool first = true; ; first = false) {
        struct ovsdb_file_text_member m;
        int k = ovsdb_file_text_next_member(&p, end, first, &m);
        const char *q;

        if (!k) {
            break;
        } else if (k < 0 || m.value >= end || *m.value != '{'
                   || !(q = ovsdb_file_text_skip_value(m.value, end))) {
            return "a row is not an object";
        }
        if (c) {
            chunk_add_row(c, member_span(&m, q));
        }
        p = q;
    }
    if (c) {
        chunk_finish(c);
    }
    return NULL;
}

/* Walks snapshot 'rec': checks it if 'c' is NULL, else hands its rows to
 * 'c' (which must have been checked).  Returns NULL or a static error
 * message. */
static const char *
walk_snapshot(const struct ovsdb_file_text_record *rec, struct chunker *c)
{
    const char *p = rec->data, *end = rec->data + rec->len;
    struct span extras[MAX_EXTRAS];
    size_t n_extras = 0;

    /* The "_"-members first: each record written carries them. */
    if (!ovsdb_file_text_open_object(&p, end)) {
        return "not a JSON object";
    }
    for (bool first = true; ; first = false) {
        struct ovsdb_file_text_member m;
        int k = ovsdb_file_text_next_member(&p, end, first, &m);
        const char *q;

        if (!k) {
            break;
        } else if (k < 0 || !(q = ovsdb_file_text_skip_value(m.value, end))) {
            return "not a JSON object";
        } else if (m.key_len && m.key[0] == '_') {
            if (n_extras >= MAX_EXTRAS) {
                return "too many \"_\" members";
            }
            extras[n_extras++] = member_span(&m, q);
        } else if (*m.value != '{') {
            return "a table is not an object";
        }
        p = q;
    }
    if (ovsdb_file_text_skip_ws(p, end) != end) {
        return "text after the JSON object";
    }

    /* Then the tables, in their order. */
    if (c) {
        memcpy(c->extras, extras, n_extras * sizeof *extras);
        c->n_extras = n_extras;
    }
    p = rec->data;
    ovsdb_file_text_open_object(&p, end);
    for (bool first = true; ; first = false) {
        struct ovsdb_file_text_member m;
        const char *error;

        if (ovsdb_file_text_next_member(&p, end, first, &m) <= 0) {
            break;
        }
        if (!(m.key_len && m.key[0] == '_')) {
            if (c) {
                c->table = (struct span) { m.key - 1, m.key_len + 2 };
            }
            error = walk_table(m.value, end, c);
            if (error) {
                return error;
            }
        }
        p = ovsdb_file_text_skip_value(m.value, end);
    }
    return NULL;
}

/* Reads database file text 'text' ('size' bytes).  If its second record
 * is a snapshot of at least 'options->min_len' bytes, hands the text of
 * the file with that record split to 'write' (with 'aux'), in order, and
 * sets 'result->split'.  Otherwise writes nothing.
 *
 * Returns NULL if the file was split or has nothing to split, else an
 * error message, which the caller frees, saying why the file is left as
 * it is; 'result' says what was found either way. */
char *
ovsdb_file_split(const char *text, size_t size,
                 const struct ovsdb_file_split_options *options,
                 ovsdb_file_split_write_func *write, void *aux,
                 struct ovsdb_file_split_result *result)
{
    static const char cluster_magic[] = OVSDB_FILE_TEXT_CLUSTER_MAGIC;
    const char *p = text, *end = text + size;
    struct ovsdb_file_text_record schema, snap;
    const char *error = NULL;
    size_t min_len = (options && options->min_len ? options->min_len
                      : OVSDB_FILE_SPLIT_MIN_LEN);

    memset(result, 0, sizeof *result);
    if (size >= strlen(cluster_magic)
        && !memcmp(text, cluster_magic, strlen(cluster_magic))) {
        return xstrdup("a clustered database (its snapshots are the Raft "
                       "log's)");
    }
    switch (ovsdb_file_text_next_record(&p, end, true, &schema, &error)) {
    case OVSDB_FILE_TEXT_ERROR:
        return xasprintf("record 0: %s", error);
    case OVSDB_FILE_TEXT_END:
        return xstrdup("no whole record");
    case OVSDB_FILE_TEXT_RECORD:
        break;
    }
    switch (ovsdb_file_text_next_record(&p, end, false, &snap, &error)) {
    case OVSDB_FILE_TEXT_ERROR:
        return xasprintf("record 1: %s", error);
    case OVSDB_FILE_TEXT_END:
        return NULL;            /* No snapshot. */
    case OVSDB_FILE_TEXT_RECORD:
        break;
    }
    result->snapshot_len = snap.len;
    if (snap.len < min_len) {
        return NULL;
    }
    if (!ovsdb_file_text_record_sha1_ok(&snap)) {
        return xstrdup("record 1: its SHA-1 is not that of its text");
    }
    error = walk_snapshot(&snap, NULL);
    if (error) {
        return xasprintf("record 1: %s", error);
    }

    struct chunker c = {
        .write = write,
        .aux = aux,
        .data = DS_EMPTY_INITIALIZER,
        .max_rows = (options && options->rows ? options->rows
                     : OVSDB_FILE_SPLIT_ROWS),
        .result = result,
    };
    write(aux, text, snap.header - text);
    error = walk_snapshot(&snap, &c);
    ovs_assert(!error);
    write(aux, p, end - p);
    ds_destroy(&c.data);
    result->split = true;
    return NULL;
}
