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

#include "lib/ovsdb-file-replay.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/block-arena.h"
#include "lib/ovsdb-file-text.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-types.h"
#include "util.h"
#include "uuid.h"

/* Where a value's JSON text is: 'len' bytes at offset 'off' of its
 * table's arena or, with SPAN_OWNED set in 'len', the string
 * 'owned[off]', which SPAN_SHARED marks as a column's default (in every
 * row that has it, never freed with one). */
struct span {
    uint32_t off;               /* Offset in the arena, or owned index. */
    uint32_t len;               /* Bytes, or SPAN_OWNED [| SPAN_SHARED]. */
};
#define SPAN_OWNED 0x80000000u
#define SPAN_SHARED 0x40000000u

/* A table's values, copied out of the records as they are replayed, so
 * that the file is read a piece at a time and only the columns kept stay
 * in memory: at a million routes about a third of the file.  Blocks of
 * ARENA_BLOCK bytes; an offset is a block's index and a position in it,
 * so that at most 'arena_max_blocks' blocks exist at once (4 GiB of
 * values).  A block that no row's value is in any more is freed and its
 * index used again, so that values overwritten by later records (a file
 * of much churn) or consumed do not count; values beyond the limit are
 * kept apart, as owned values (lib/block-arena.h). */
#define ARENA_SHIFT 22
static unsigned int arena_shift = ARENA_SHIFT;
#define ARENA_BLOCK (1u << arena_shift)
static size_t arena_max_blocks;  /* 0: UINT32_MAX >> arena_shift. */

/* How much of the file is read at a time by default (a record longer than
 * that is read whole). */
#define READ_CHUNK (16u << 20)
static size_t read_chunk = READ_CHUNK;

/* A column kept. */
struct column {
    char *name;                 /* Its name. */
    struct ovsdb_type type;     /* Its type, from the schema (void until
                                 * the schema is read). */
    struct span dflt;           /* Its default value (owned, shared by the
                                 * rows that have it: SPAN_SHARED). */
};

/* A table kept. */
struct table {
    char *name;                 /* Its name. */
    struct column *columns;     /* Columns kept, as asked. */
    size_t n_columns;           /* Number of 'columns'. */
    struct hmap rows;           /* "struct row"s, by uuid_hash(). */
    struct block_arena arena;   /* Their values. */
    uint64_t n_blocks_filled;   /* Arena blocks begun (allocated or
                                 * rewound), ever. */
    uint64_t n_values_apart;    /* Values kept apart: no block to give. */
    struct row **order;         /* The same, in the order inserted (NULL
                                 * where deleted): iterating them in this
                                 * order reads the file's text in order. */
    size_t n_order;             /* Number of 'order'. */
    size_t allocated_order;     /* Room in 'order'. */
};

/* A row of a table kept. */
struct row {
    struct hmap_node node;      /* In 'table->rows'. */
    struct uuid uuid;           /* Its UUID. */
    size_t order_idx;           /* Its index in 'table->order'. */
    struct span values[];       /* One per column of its table. */
};

/* A modification of a set or map column, applied at the end of its record
 * (only then is it known whether the record holds diffs: "_is_diff" may
 * come after the tables). */
struct pending {
    struct table *table;        /* The row's table. */
    struct row *row;            /* The row modified. */
    const struct column *column; /* The column. */
    size_t idx;                 /* Its index in 'row->values'. */
    struct ovsdb_file_replay_value value; /* The value or diff written, in
                                           * the record's text. */
};

/* A replay. */
struct ovsdb_file_replay {
    struct table **tables;      /* Tables kept (each allocated apart: an
                                 * hmap cannot move). */
    size_t n_tables;            /* Number of 'tables'. */

    bool read;                  /* Has a read begun? */
    size_t n_records;           /* Whole records read, schema included. */

    char **owned;               /* Values not in the file (defaults, diffs
                                 * applied, values too long for an arena
                                 * block), NULL once freed. */
    size_t n_owned;             /* Number of 'owned'. */
    size_t allocated_owned;     /* Room in 'owned'. */
    struct block_arena_free free_owned; /* Indexes of 'owned'
                                         * freed. */

    struct pending *pending;    /* Diffs of the current record. */
    size_t n_pending;           /* Number of 'pending'. */
    size_t allocated_pending;   /* Room in 'pending'. */
};

struct ovsdb_file_replay *
ovsdb_file_replay_create(void)
{
    return xzalloc(sizeof(struct ovsdb_file_replay));
}

static void release_value(struct ovsdb_file_replay *, struct table *,
                          struct span);

/* Frees the rows of 't' and their values. */
static void
table_clear(struct ovsdb_file_replay *r, struct table *t)
{
    for (size_t j = 0; j < t->n_order; j++) {
        struct row *row = t->order[j];

        if (row) {
            /* The arena goes whole; owned values one by one. */
            for (size_t i = 0; i < t->n_columns; i++) {
                if (row->values[i].len & SPAN_OWNED) {
                    release_value(r, t, row->values[i]);
                }
            }
            free(row);
        }
    }
    free(t->order);
    t->order = NULL;
    t->n_order = t->allocated_order = 0;
    hmap_clear(&t->rows);
    block_arena_clear(&t->arena);
}

void
ovsdb_file_replay_destroy(struct ovsdb_file_replay *r)
{
    if (!r) {
        return;
    }
    for (size_t i = 0; i < r->n_tables; i++) {
        struct table *t = r->tables[i];

        table_clear(r, t);
        hmap_destroy(&t->rows);
        for (size_t j = 0; j < t->n_columns; j++) {
            free(t->columns[j].name);
            ovsdb_type_destroy(&t->columns[j].type);
        }
        free(t->columns);
        free(t->name);
        free(t);
    }
    free(r->tables);
    for (size_t i = 0; i < r->n_owned; i++) {
        free(r->owned[i]);
    }
    free(r->owned);
    free(r->free_owned.idx);
    free(r->pending);
    free(r);
}

/* Keeps the rows of 'table', with the 'n' columns named in 'columns'.
 * Returns the table's index for ovsdb_file_replay_for_each().  Call before
 * ovsdb_file_replay_read(). */
size_t
ovsdb_file_replay_add_table(struct ovsdb_file_replay *r, const char *table,
                            const char *const *columns, size_t n)
{
    struct table *t;

    r->tables = xrealloc(r->tables, (r->n_tables + 1) * sizeof *r->tables);
    t = r->tables[r->n_tables] = xmalloc(sizeof *t);
    t->name = xstrdup(table);
    t->columns = xcalloc(n, sizeof *t->columns);
    t->n_columns = n;
    for (size_t i = 0; i < n; i++) {
        t->columns[i].name = xstrdup(columns[i]);
        t->columns[i].type = (struct ovsdb_type)
            OVSDB_TYPE_SCALAR_INITIALIZER(OVSDB_BASE_VOID_INIT);
    }
    hmap_init(&t->rows);
    block_arena_init(&t->arena);
    t->n_blocks_filled = t->n_values_apart = 0;
    t->order = NULL;
    t->n_order = t->allocated_order = 0;
    return r->n_tables++;
}

/* Stores in '*filled' the number of arena blocks that table 'table' began
 * to fill (allocated, or emptied and used again), and in '*apart' the
 * number of its values kept apart because its arena had no block left to
 * give: for tests, which see the blocks' reuse by them. */
void
ovsdb_file_replay_get_arena_counts(const struct ovsdb_file_replay *r,
                                   size_t table, uint64_t *filled,
                                   uint64_t *apart)
{
    *filled = r->tables[table]->n_blocks_filled;
    *apart = r->tables[table]->n_values_apart;
}

size_t
ovsdb_file_replay_n_rows(const struct ovsdb_file_replay *r, size_t table)
{
    return hmap_count(&r->tables[table]->rows);
}

/* ---- Values ------------------------------------------------------------
 */

/* Takes 's' as an owned value and returns its span. */
static struct span
own(struct ovsdb_file_replay *r, char *s)
{
    size_t idx;

    if (!block_arena_free_pop(&r->free_owned, &idx)) {
        if (r->n_owned >= r->allocated_owned) {
            r->owned = x2nrealloc(r->owned, &r->allocated_owned,
                                  sizeof *r->owned);
        }
        idx = r->n_owned++;
    }
    /* Owned indexes are fewer than the values in memory: 'off' holds
     * them. */
    ovs_assert(idx <= UINT32_MAX);
    r->owned[idx] = s;
    return (struct span) { .off = idx, .len = SPAN_OWNED };
}

/* Returns the text of 's', a value of table 't'. */
static struct ovsdb_file_replay_value
span_value(const struct ovsdb_file_replay *r, const struct table *t,
           struct span s)
{
    if (s.len & SPAN_OWNED) {
        const char *text = r->owned[s.off];

        return (struct ovsdb_file_replay_value) { text, strlen(text) };
    }
    return (struct ovsdb_file_replay_value) {
        t->arena.blocks[s.off >> arena_shift] + (s.off & (ARENA_BLOCK - 1)),
        s.len
    };
}

/* Releases value 's' of table 't', which a row no longer holds: an owned
 * value is freed, unless it is a column's default; an arena block is freed
 * once it holds no value of a row, unless it is the block being filled. */
static void
release_value(struct ovsdb_file_replay *r, struct table *t, struct span s)
{
    struct block_arena *a = &t->arena;
    size_t b;

    if (s.len & SPAN_OWNED) {
        if (!(s.len & SPAN_SHARED)) {
            free(r->owned[s.off]);
            r->owned[s.off] = NULL;
            block_arena_free_push(&r->free_owned, s.off);
        }
        return;
    }
    b = s.off >> arena_shift;
    ovs_assert(b < a->n_blocks && a->live[b]);
    if (!--a->live[b] && b != a->cur) {
        block_arena_free_block(a, b);
    }
}

/* Releases every value of 'row', a row of 't'. */
static void
release_row(struct ovsdb_file_replay *r, struct table *t, struct row *row)
{
    for (size_t i = 0; i < t->n_columns; i++) {
        release_value(r, t, row->values[i]);
    }
}

/* Copies value 'v' of table 't' into its arena (or, if it is too long for
 * a block or the arena has no block left to give, as an owned value) and
 * returns its span. */
static struct span
copy_value(struct ovsdb_file_replay *r, struct table *t,
           struct ovsdb_file_replay_value v)
{
    struct block_arena *a = &t->arena;

    if (v.len >= ARENA_BLOCK / 4) {
        return own(r, xmemdup0(v.s, v.len));
    }
    if (a->cur == SIZE_MAX || a->used + v.len > ARENA_BLOCK) {
        if (a->cur == SIZE_MAX || a->live[a->cur]) {
            size_t max = (arena_max_blocks ? arena_max_blocks
                          : UINT32_MAX >> arena_shift);
            size_t b = block_arena_new_block(a, ARENA_BLOCK, max);

            if (b == SIZE_MAX) {
                t->n_values_apart++;
                return own(r, xmemdup0(v.s, v.len));
            }
            a->cur = b;
        }
        /* A new block, or the full one again if none of its values is in
         * a row any more. */
        a->used = 0;
        t->n_blocks_filled++;
    }
    a->live[a->cur]++;
    memcpy(a->blocks[a->cur] + a->used, v.s, v.len);
    struct span s = {
        .off = (uint32_t) (a->cur << arena_shift | a->used),
        .len = v.len,
    };
    a->used += v.len;
    return s;
}

/* ---- The schema --------------------------------------------------------
 */

/* Reads the type of column 'c' from its schema 'type', and its default
 * value.  Returns an error message or NULL. */
static char *
column_from_schema(struct ovsdb_file_replay *r, struct column *c,
                   const char *table, const struct json *type)
{
    struct ovsdb_error *error = ovsdb_type_from_json(&c->type, type);

    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        char *msg = xasprintf("column %s of table %s: %s", c->name, table,
                              s);
        free(s);
        return msg;
    }

    struct ovsdb_datum dflt;
    ovsdb_datum_init_default(&dflt, &c->type);
    struct json *json = ovsdb_datum_to_json(&dflt, &c->type);
    c->dflt = own(r, json_to_string(json, 0));
    c->dflt.len |= SPAN_SHARED;
    json_destroy(json);
    ovsdb_datum_destroy(&dflt, &c->type);
    return NULL;
}

/* Reads the schema record 'text' ('len' bytes).  Returns an error message
 * or NULL. */
static char *
read_schema(struct ovsdb_file_replay *r, const char *text, size_t len)
{
    char *s = xmemdup0(text, len);
    struct json *schema = json_from_string(s);
    const struct json *tables = NULL;
    char *error = NULL;

    free(s);
    if (schema->type == JSON_OBJECT) {
        tables = shash_find_data(json_object(schema), "tables");
    }
    if (!tables || tables->type != JSON_OBJECT) {
        error = xstrdup("its first record is not a database schema");
        goto exit;
    }
    for (size_t i = 0; i < r->n_tables && !error; i++) {
        struct table *t = r->tables[i];
        const struct json *ts = shash_find_data(json_object(tables), t->name);
        const struct json *cols = (ts && ts->type == JSON_OBJECT
                                   ? shash_find_data(json_object(ts),
                                                     "columns")
                                   : NULL);

        if (!cols || cols->type != JSON_OBJECT) {
            error = xasprintf("its schema has no table %s", t->name);
            break;
        }
        for (size_t j = 0; j < t->n_columns && !error; j++) {
            struct column *c = &t->columns[j];
            const struct json *cs = shash_find_data(json_object(cols),
                                                    c->name);
            const struct json *type = (cs && cs->type == JSON_OBJECT
                                       ? shash_find_data(json_object(cs),
                                                         "type")
                                       : NULL);

            error = (type ? column_from_schema(r, c, t->name, type)
                     : xasprintf("its table %s has no column %s",
                                 t->name, c->name));
        }
    }
exit:
    json_destroy(schema);
    return error;
}

/* ---- Transactions ------------------------------------------------------
 */

/* Returns the row of 't' with 'uuid', or NULL. */
static struct row *
row_find(const struct table *t, const struct uuid *uuid)
{
    struct row *row;

    HMAP_FOR_EACH_WITH_HASH (row, node, uuid_hash(uuid), &t->rows) {
        if (uuid_equals(&row->uuid, uuid)) {
            return row;
        }
    }
    return NULL;
}

/* Returns the index of the column of 't' named by 'm''s key, or SIZE_MAX
 * if it is not kept. */
static size_t
column_find(const struct table *t, const struct ovsdb_file_text_member *m)
{
    for (size_t i = 0; i < t->n_columns; i++) {
        if (ovsdb_file_text_key_is(m, t->columns[i].name)) {
            return i;
        }
    }
    return SIZE_MAX;
}


/* Parses 'v' as a value of column 'c' into 'd'.  Returns an error
 * message or NULL. */
static char *
parse_datum(const struct column *c, struct ovsdb_file_replay_value v,
            struct ovsdb_datum *d)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    char *msg = NULL;

    /* Wrapped in an array: OVS's parser takes no bare string or number. */
    ds_put_char(&s, '[');
    ds_put_buffer(&s, v.s, v.len);
    ds_put_char(&s, ']');
    struct json *outer = json_from_string(ds_cstr(&s));
    ds_destroy(&s);
    if (outer->type != JSON_ARRAY || json_array(outer)->n != 1) {
        msg = xstrdup("not JSON");
    } else {
        struct ovsdb_error *error = ovsdb_datum_from_json(
            d, &c->type, json_array(outer)->elems[0], NULL);
        if (error) {
            msg = ovsdb_error_to_string_free(error);
        }
    }
    json_destroy(outer);
    return msg;
}

/* Writes 'diff', as the server wrote it for a set or map column 'c', over
 * the column's value 'old', as ovsdb-server does when it reads its file
 * (ovsdb_datum_apply_diff_in_place(), unless 'old' is the default: then
 * 'diff' is the value).  Stores the new value in '*v'.  Returns an error
 * message or NULL. */
static char *
apply_diff(struct ovsdb_file_replay *r, struct table *t,
           const struct column *c, struct span *v,
           struct ovsdb_file_replay_value diff)
{
    struct ovsdb_datum a, d;
    char *msg = parse_datum(c, span_value(r, t, *v), &a);

    if (msg) {
        return msg;
    } else if (ovsdb_datum_is_default(&a, &c->type)) {
        release_value(r, t, *v);
        *v = copy_value(r, t, diff);
        ovsdb_datum_destroy(&a, &c->type);
        return NULL;
    }

    msg = parse_datum(c, diff, &d);
    if (!msg) {
        struct ovsdb_error *error = ovsdb_datum_apply_diff_in_place(
            &a, &d, &c->type);

        if (error) {
            msg = ovsdb_error_to_string_free(error);
        } else {
            struct json *json = ovsdb_datum_to_json(&a, &c->type);

            release_value(r, t, *v);
            *v = own(r, json_to_string(json, 0));
            json_destroy(json);
        }
        ovsdb_datum_destroy(&d, &c->type);
    }
    ovsdb_datum_destroy(&a, &c->type);
    return msg;
}

/* Replays the row of 't' with 'uuid', whose value in the record starts at
 * 'p': null (deleted) or an object of the columns written.  Returns the
 * byte after it, or NULL with '*error' set. */
static const char *
replay_row(struct ovsdb_file_replay *r, struct table *t,
           const struct uuid *uuid, const char *p, const char *end,
           char **error)
{
    struct row *row = row_find(t, uuid);

    if (p < end && *p == 'n') {
        const char *q = ovsdb_file_text_skip_value(p, end);

        if (!q || q - p != 4 || memcmp(p, "null", 4)) {
            *error = xasprintf("row "UUID_FMT" of table %s does not parse",
                               UUID_ARGS(uuid), t->name);
            return NULL;
        } else if (!row) {
            *error = xasprintf("deletes row "UUID_FMT" of table %s, which "
                               "does not exist", UUID_ARGS(uuid), t->name);
            return NULL;
        }
        /* A malformed record may have modified the row before: its
         * modifications pending go with it. */
        size_t n = 0;
        for (size_t i = 0; i < r->n_pending; i++) {
            if (r->pending[i].row != row) {
                r->pending[n++] = r->pending[i];
            }
        }
        r->n_pending = n;
        hmap_remove(&t->rows, &row->node);
        t->order[row->order_idx] = NULL;
        release_row(r, t, row);
        free(row);
        return q;
    }

    bool insert = !row;
    if (insert) {
        row = xmalloc(sizeof *row + t->n_columns * sizeof *row->values);
        row->uuid = *uuid;
        for (size_t i = 0; i < t->n_columns; i++) {
            row->values[i] = t->columns[i].dflt;
        }
        hmap_insert(&t->rows, &row->node, uuid_hash(uuid));
        if (t->n_order >= t->allocated_order) {
            t->order = x2nrealloc(t->order, &t->allocated_order,
                                  sizeof *t->order);
        }
        row->order_idx = t->n_order;
        t->order[t->n_order++] = row;
    }
    if (!ovsdb_file_text_open_object(&p, end)) {
        goto bad;
    }
    for (bool first = true; ; first = false) {
        struct ovsdb_file_text_member m;
        int k = ovsdb_file_text_next_member(&p, end, first, &m);
        const char *q;

        if (!k) {
            return p;
        } else if (k < 0 || !(q = ovsdb_file_text_skip_value(m.value, end))) {
            goto bad;
        }

        size_t idx = column_find(t, &m);
        if (idx != SIZE_MAX) {
            struct ovsdb_file_replay_value v = { m.value, q - m.value };

            if (!insert && ovsdb_type_is_composite(&t->columns[idx].type)) {
                if (r->n_pending >= r->allocated_pending) {
                    r->pending = x2nrealloc(r->pending, &r->allocated_pending,
                                            sizeof *r->pending);
                }
                r->pending[r->n_pending++] = (struct pending) {
                    .table = t, .row = row, .column = &t->columns[idx],
                    .idx = idx, .value = v,
                };
            } else {
                release_value(r, t, row->values[idx]);
                row->values[idx] = copy_value(r, t, v);
            }
        }
        p = q;
    }

bad:
    *error = xasprintf("row "UUID_FMT" of table %s does not parse",
                       UUID_ARGS(uuid), t->name);
    return NULL;
}

/* Replays the rows of table 't' whose object in the record starts at 'p'.
 * Returns the byte after it, or NULL with '*error' set. */
static const char *
replay_table(struct ovsdb_file_replay *r, struct table *t, const char *p,
             const char *end, char **error)
{
    if (!ovsdb_file_text_open_object(&p, end)) {
        *error = xasprintf("table %s is not an object", t->name);
        return NULL;
    }
    for (bool first = true; ; first = false) {
        struct ovsdb_file_text_member m;
        struct uuid uuid;
        char s[UUID_LEN + 1];
        int k = ovsdb_file_text_next_member(&p, end, first, &m);

        if (!k) {
            return p;
        } else if (k < 0) {
            *error = xasprintf("table %s does not parse", t->name);
            return NULL;
        } else if (m.key_len != UUID_LEN) {
            goto bad_uuid;
        }
        memcpy(s, m.key, UUID_LEN);
        s[UUID_LEN] = '\0';
        if (!uuid_from_string(&uuid, s)) {
            goto bad_uuid;
        }
        p = replay_row(r, t, &uuid, m.value, end, error);
        if (!p) {
            return NULL;
        }
        continue;

    bad_uuid:
        *error = xasprintf("table %s: \"%.*s\" is not a row UUID", t->name,
                           (int) MIN(m.key_len, 64), m.key);
        return NULL;
    }
}

/* Returns the table kept named by 'm''s key, or NULL. */
static struct table *
table_find(struct ovsdb_file_replay *r, const struct ovsdb_file_text_member *m)
{
    for (size_t i = 0; i < r->n_tables; i++) {
        if (ovsdb_file_text_key_is(m, r->tables[i]->name)) {
            return r->tables[i];
        }
    }
    return NULL;
}

/* Replays the transaction record of 'len' bytes at 'text'.  Returns an
 * error message or NULL. */
static char *
replay_txn(struct ovsdb_file_replay *r, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    bool is_diff = false;
    char *error = NULL;

    r->n_pending = 0;
    if (!ovsdb_file_text_open_object(&p, end)) {
        return xstrdup("not a JSON object");
    }
    for (bool first = true; ; first = false) {
        struct ovsdb_file_text_member m;
        int k = ovsdb_file_text_next_member(&p, end, first, &m);

        if (!k) {
            if (ovsdb_file_text_skip_ws(p, end) != end) {
                return xstrdup("trailing data after the transaction");
            }
            break;
        } else if (k < 0) {
            return xstrdup("does not parse");
        }

        struct table *t = m.key_len && m.key[0] != '_' ? table_find(r, &m)
                          : NULL;
        if (t) {
            p = replay_table(r, t, m.value, end, &error);
            if (!p) {
                return error;
            }
        } else {
            p = ovsdb_file_text_skip_value(m.value, end);
            if (!p) {
                return xasprintf("member \"%.*s\" does not parse",
                                 (int) MIN(m.key_len, 64), m.key);
            }
            if (ovsdb_file_text_key_is(&m, "_is_diff")) {
                is_diff = p - m.value == 4 && !memcmp(m.value, "true", 4);
            }
        }
    }

    for (size_t i = 0; i < r->n_pending; i++) {
        const struct pending *pd = &r->pending[i];
        struct span *v = &pd->row->values[pd->idx];

        if (!is_diff) {
            release_value(r, pd->table, *v);
            *v = copy_value(r, pd->table, pd->value);
        } else {
            char *msg = apply_diff(r, pd->table, pd->column, v, pd->value);

            if (msg) {
                char *s = xasprintf("a diff of column %s of row "UUID_FMT
                                    " does not apply (%s)",
                                    pd->column->name,
                                    UUID_ARGS(&pd->row->uuid), msg);
                free(msg);
                return s;
            }
        }
    }
    return NULL;
}

/* Replays the whole records of database file 'file' (named so in
 * messages) at '*pp', up to 'end' or to a record cut short there, to which
 * '*pp' then points.  Returns an error message (for the caller to free) or
 * NULL. */
static char *
replay_records(struct ovsdb_file_replay *r, const char *file,
               const char **pp, const char *end)
{
    static const char cluster_magic[] = OVSDB_FILE_TEXT_CLUSTER_MAGIC;

    for (;;) {
        struct ovsdb_file_text_record rec;
        enum ovsdb_file_text_next next;
        const char *error = NULL;
        const char *p = *pp;
        char *msg = NULL;

        if (!r->n_records && (size_t) (end - p) >= strlen(cluster_magic)
            && !memcmp(p, cluster_magic, strlen(cluster_magic))) {
            return xasprintf("%s: a clustered database (its Raft log can "
                             "only be read through the server)", file);
        }
        next = ovsdb_file_text_next_record(&p, end, !r->n_records, &rec,
                                           &error);
        if (next == OVSDB_FILE_TEXT_END) {
            return NULL;
        } else if (next == OVSDB_FILE_TEXT_ERROR) {
            msg = xstrdup(error);
        } else {
            msg = (r->n_records ? replay_txn(r, rec.data, rec.len)
                   : read_schema(r, rec.data, rec.len));
        }
        if (msg) {
            char *s = xasprintf("%s: record %zu: %s", file, r->n_records,
                                msg);
            free(msg);
            return s;
        }
        *pp = p;
        r->n_records++;
    }
}

/* Replays database file 'file' to its last whole record, as long as it was
 * when opened.  The file is read 16 MiB at a time, each record's
 * values kept copied out of it.  Returns NULL, or an error message that
 * the caller frees.  Call once. */
char *
ovsdb_file_replay_read(struct ovsdb_file_replay *r, const char *file)
{
    size_t cap = 0, len = 0;
    char *msg = NULL;
    char *buf = NULL;
    struct stat st;
    off_t left;
    int fd;

    ovs_assert(!r->read);
    r->read = true;
    fd = open(file, O_RDONLY);
    if (fd < 0) {
        return xasprintf("%s: open failed (%s)", file, ovs_strerror(errno));
    } else if (fstat(fd, &st)) {
        int error = errno;

        close(fd);
        return xasprintf("%s: stat failed (%s)", file, ovs_strerror(error));
    } else if (!st.st_size) {
        close(fd);
        return xasprintf("%s: empty file", file);
    }

    for (left = st.st_size; left > 0 && !msg; ) {
        const char *p;
        ssize_t n;

        if (len == cap) {
            /* A record longer than what is read at a time: room for it. */
            cap = cap ? 2 * cap : read_chunk;
            buf = xrealloc(buf, cap);
        }
        n = read(fd, buf + len, MIN(cap - len, (size_t) left));
        if (n < 0 && errno == EINTR) {
            continue;
        } else if (n <= 0) {
            /* Shorter than it was: a restarted server truncated a torn
             * end.  What was read is what there is. */
            if (n < 0) {
                msg = xasprintf("%s: read failed (%s)", file,
                                ovs_strerror(errno));
            }
            break;
        }
        len += n;
        left -= n;
        p = buf;
        msg = replay_records(r, file, &p, buf + len);
        len -= p - buf;
        memmove(buf, p, len);
    }
    close(fd);
    free(buf);
    if (!msg && !r->n_records) {
        msg = xasprintf("%s: no whole record", file);
    }
    return msg;
}

/* Makes ovsdb_file_replay_read() read 'n' bytes at a time (at least 1; 0
 * for the default), and keep values in blocks of 2**'shift' bytes (8 to
 * 22; 0 for the default, 22), at most 'max_blocks' of them at once in a
 * table (0 for as many as offsets can name), so that tests can cut records
 * across reads, fill and free many blocks and run out of them.  Call it
 * with no replay under way. */
void
ovsdb_file_replay_set_test_sizes(size_t n, unsigned int shift,
                                 size_t max_blocks)
{
    read_chunk = n ? n : READ_CHUNK;
    arena_shift = shift ? MAX(8, MIN(shift, ARENA_SHIFT)) : ARENA_SHIFT;
    arena_max_blocks = MIN(max_blocks, UINT32_MAX >> arena_shift);
}

/* Replays 'size' bytes of database file text at 'text', which the replay
 * takes (it must come from malloc()), as the contents of a file named
 * 'file' in messages.  Returns NULL or an error message that the caller
 * frees.  Call once, instead of ovsdb_file_replay_read(). */
char *
ovsdb_file_replay_read_buffer(struct ovsdb_file_replay *r, const char *file,
                              char *text, size_t size)
{
    const char *p = text;
    char *msg;

    ovs_assert(!r->read);
    r->read = true;
    msg = replay_records(r, file, &p, text + size);
    free(text);
    if (!msg && !r->n_records) {
        msg = xasprintf("%s: no whole record", file);
    }
    return msg;
}

/* Frees the rows of table 'table' (an index that
 * ovsdb_file_replay_add_table() returned), once the caller has read them:
 * the table then has none. */
void
ovsdb_file_replay_drop_table(struct ovsdb_file_replay *r, size_t table)
{
    table_clear(r, r->tables[table]);
}

/* Calls 'cb' for each row of 't', in the order they were inserted,
 * freeing each row after its call if 'consume'. */
static void
for_each(struct ovsdb_file_replay *r, struct table *t, bool consume,
         ovsdb_file_replay_row_cb *cb, void *aux)
{
    struct ovsdb_file_replay_value *values;

    values = xmalloc(MAX(t->n_columns, 1) * sizeof *values);
    for (size_t j = 0; j < t->n_order; j++) {
        struct row *row = t->order[j];

        if (!row) {
            continue;
        }
        for (size_t i = 0; i < t->n_columns; i++) {
            values[i] = span_value(r, t, row->values[i]);
        }
        cb(&row->uuid, values, aux);
        if (consume) {
            hmap_remove(&t->rows, &row->node);
            t->order[j] = NULL;
            release_row(r, t, row);
            free(row);
        }
    }
    free(values);
}

/* Calls 'cb' for each row of table 'table' (an index that
 * ovsdb_file_replay_add_table() returned), in the order they were
 * inserted. */
void
ovsdb_file_replay_for_each(const struct ovsdb_file_replay *r, size_t table,
                           ovsdb_file_replay_row_cb *cb, void *aux)
{
    for_each(CONST_CAST(struct ovsdb_file_replay *, r), r->tables[table],
             false, cb, aux);
}

/* Calls 'cb' for each row of table 'table' as ovsdb_file_replay_for_each()
 * does, freeing each row and its values once called back, then drops
 * the table: for a caller that builds its own state
 * from the rows, so that the two are not both whole in memory. */
void
ovsdb_file_replay_consume(struct ovsdb_file_replay *r, size_t table,
                          ovsdb_file_replay_row_cb *cb, void *aux)
{
    for_each(r, r->tables[table], true, cb, aux);
    ovsdb_file_replay_drop_table(r, table);
}
