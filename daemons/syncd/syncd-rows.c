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

#include "daemons/syncd/syncd-rows.h"

#include <string.h>

#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-nexthop-key.h"
#include "hash.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "util.h"

/* An interned VRF name. */
struct rows_vrf {
    struct hmap_node node;      /* In 'rows->vrfs', by name. */
    uint16_t index;             /* Index in 'rows->vrf_names'. */
};

/* The message of a bad row. */
struct rows_bad_msg {
    struct hmap_node node;      /* In 'rows->bad_msgs', by uuid_hash(). */
    struct uuid uuid;           /* The row. */
    char *msg;                  /* Why it is bad. */
};

void
syncd_rows_init(struct syncd_rows *rows)
{
    memset(rows, 0, sizeof *rows);
    hmap_init(&rows->rows);
    hmap_init(&rows->vrfs);
    hmap_init(&rows->bad_msgs);
}

void
syncd_rows_destroy(struct syncd_rows *rows)
{
    struct syncd_row *row;
    HMAP_FOR_EACH_POP (row, node, &rows->rows) {
        free(row);
    }
    struct rows_bad_msg *bm;
    HMAP_FOR_EACH_POP (bm, node, &rows->bad_msgs) {
        free(bm->msg);
        free(bm);
    }
    struct rows_vrf *v;
    HMAP_FOR_EACH_POP (v, node, &rows->vrfs) {
        free(v);
    }
    for (size_t i = 0; i < rows->n_vrfs; i++) {
        free(rows->vrf_names[i]);
    }
    hmap_destroy(&rows->rows);
    hmap_destroy(&rows->vrfs);
    hmap_destroy(&rows->bad_msgs);
    free(rows->vrf_names);
}

/* Adds a row for 'uuid', which must be new, with 'flags' and seq -1, and
 * returns it. */
struct syncd_row *
syncd_rows_add(struct syncd_rows *rows, const struct uuid *uuid,
               uint8_t flags)
{
    struct syncd_row *row = xzalloc(sizeof *row);

    row->uuid = *uuid;
    row->seq = -1;
    row->flags = flags;
    hmap_insert(&rows->rows, &row->node, uuid_hash(uuid));
    return row;
}

/* Forgets 'row' (whose route, if any, the caller removed) and frees it. */
void
syncd_rows_remove(struct syncd_rows *rows, struct syncd_row *row)
{
    syncd_rows_set_good(rows, row);
    syncd_rows_set_in_sync(rows, row, false);
    syncd_rows_clear_wb(rows, row);
    hmap_remove(&rows->rows, &row->node);
    free(row);
}

static struct rows_bad_msg *
bad_msg_find(const struct syncd_rows *rows, const struct uuid *uuid)
{
    struct rows_bad_msg *bm;

    HMAP_FOR_EACH_WITH_HASH (bm, node, uuid_hash(uuid), &rows->bad_msgs) {
        if (uuid_equals(&bm->uuid, uuid)) {
            return bm;
        }
    }
    return NULL;
}

/* Returns the message of bad row 'uuid', or NULL if it has none. */
const char *
syncd_rows_bad_msg(const struct syncd_rows *rows, const struct uuid *uuid)
{
    const struct rows_bad_msg *bm = bad_msg_find(rows, uuid);

    return bm ? bm->msg : NULL;
}

/* Marks 'row' good, forgetting any bad-row message. */
void
syncd_rows_set_good(struct syncd_rows *rows, struct syncd_row *row)
{
    if (row->flags & SYNCD_ROW_BAD) {
        struct rows_bad_msg *bm = bad_msg_find(rows, &row->uuid);

        row->flags &= ~SYNCD_ROW_BAD;
        rows->n_bad--;
        if (bm) {
            hmap_remove(&rows->bad_msgs, &bm->node);
            free(bm->msg);
            free(bm);
        }
    }
}

/* Marks 'row' bad for reason 'msg' (taking it). */
void
syncd_rows_set_bad(struct syncd_rows *rows, struct syncd_row *row,
                   char *msg)
{
    struct rows_bad_msg *bm = bad_msg_find(rows, &row->uuid);

    if (!(row->flags & SYNCD_ROW_BAD)) {
        row->flags |= SYNCD_ROW_BAD;
        rows->n_bad++;
    }
    if (!bm) {
        bm = xmalloc(sizeof *bm);
        bm->uuid = row->uuid;
        hmap_insert(&rows->bad_msgs, &bm->node, uuid_hash(&row->uuid));
    } else {
        free(bm->msg);
    }
    bm->msg = msg;
}

/* Returns the index of VRF 'name', interning it.  Sets '*overflow' (and
 * returns 0) if there are too many VRFs already. */
uint16_t
syncd_rows_vrf_intern(struct syncd_rows *rows, const char *name,
                      bool *overflow)
{
    uint32_t hash = hash_string(name, 0);
    struct rows_vrf *v;

    *overflow = false;
    HMAP_FOR_EACH_WITH_HASH (v, node, hash, &rows->vrfs) {
        if (!strcmp(rows->vrf_names[v->index], name)) {
            return v->index;
        }
    }
    if (rows->n_vrfs >= UINT16_MAX) {
        *overflow = true;
        return 0;
    }
    v = xmalloc(sizeof *v);
    v->index = rows->n_vrfs;
    hmap_insert(&rows->vrfs, &v->node, hash);
    if (rows->n_vrfs >= rows->allocated_vrfs) {
        rows->vrf_names = x2nrealloc(rows->vrf_names, &rows->allocated_vrfs,
                                     sizeof *rows->vrf_names);
    }
    rows->vrf_names[rows->n_vrfs++] = xstrdup(name);
    return v->index;
}

/* ---- Parsing rows ------------------------------------------------------- */

/* Initializes 'p' for syncd_rows_parse(). */
void
syncd_row_parsed_init(struct syncd_row_parsed *p)
{
    memset(p, 0, sizeof *p);
}

/* Frees the memory owned by 'p'. */
void
syncd_row_parsed_destroy(struct syncd_row_parsed *p)
{
    free(p->nexthops);
    p->nexthops = NULL;
    p->allocated_nexthops = 0;
}

/* Returns column 'name' of 'columns' if it has JSON type 'type', else
 * NULL. */
static const struct json *
column(const struct shash *columns, const char *name, enum json_type type)
{
    const struct json *j = shash_find_data(columns, name);

    return j && j->type == type ? j : NULL;
}

/* Parses the VRF and prefix of the Asic_Route row 'columns' into 'p'
 * ('vrf', 'vrf_index' and 'prefix'; nothing else of 'p' is touched),
 * interning the VRF name in 'rows'.  Returns NULL or an error message for
 * the caller to free. */
char *
syncd_rows_parse_key(struct syncd_rows *rows, const struct shash *columns,
                     struct syncd_row_parsed *p)
{
    const struct json *vrf = column(columns, "vrf", JSON_STRING);
    const struct json *prefix = column(columns, "prefix", JSON_STRING);
    bool overflow;

    if (!vrf) {
        return xstrdup("missing vrf");
    } else if (!json_string(vrf)[0]) {
        return xstrdup("empty vrf name");
    }
    p->vrf = json_string(vrf);
    if (!prefix) {
        return xstrdup("missing prefix");
    }

    char *error = fib_prefix_parse_strict(json_string(prefix), &p->prefix);
    if (error) {
        char *msg = xasprintf("bad prefix (%s)", error);
        free(error);
        return msg;
    }
    p->vrf_index = syncd_rows_vrf_intern(rows, p->vrf, &overflow);
    if (overflow) {
        return xstrdup("too many VRFs");
    }
    return NULL;
}

/* Parses the next hops of a forwarding row, column 'nhs' (["map",
 * [[KEY, WEIGHT], ...]]), into 'p'. */
static char *
parse_nexthops(const struct json *nhs, struct syncd_row_parsed *p)
{
    const struct json_array *map = nhs ? json_array(nhs) : NULL;

    if (!map || map->n != 2 || map->elems[0]->type != JSON_STRING
        || strcmp(json_string(map->elems[0]), "map")
        || map->elems[1]->type != JSON_ARRAY) {
        return xstrdup("bad nexthops column");
    }
    const struct json_array *pairs = json_array(map->elems[1]);
    if (pairs->n > p->allocated_nexthops) {
        p->allocated_nexthops = pairs->n;
        p->nexthops = xrealloc(p->nexthops,
                               pairs->n * sizeof *p->nexthops);
    }
    for (size_t i = 0; i < pairs->n; i++) {
        const struct json *pair = pairs->elems[i];
        const struct json_array *kv = (pair->type == JSON_ARRAY
                                       ? json_array(pair) : NULL);

        if (!kv || kv->n != 2 || kv->elems[0]->type != JSON_STRING
            || kv->elems[1]->type != JSON_INTEGER) {
            return xstrdup("bad nexthops column");
        }
        char *error = syncd_nexthop_key_parse(json_string(kv->elems[0]),
                                              json_integer(kv->elems[1]),
                                              &p->nexthops[i]);
        if (error) {
            return error;
        }
    }
    char *error = syncd_nexthop_key_check_set(p->nexthops, pairs->n);
    if (error) {
        return error;
    }
    p->n_nexthops = pairs->n;
    return NULL;
}

/* Parses every column of the Asic_Route row 'columns' into 'p' (which
 * syncd_row_parsed_init() initialized), interning the VRF name in 'rows'.
 * Returns NULL or an error message for the caller to free; 'p->seq' and
 * 'p->has_seq' are set even then. */
char *
syncd_rows_parse(struct syncd_rows *rows, const struct shash *columns,
                 struct syncd_row_parsed *p)
{
    struct syncd_nexthop *nexthops = p->nexthops;
    size_t allocated = p->allocated_nexthops;

    memset(p, 0, sizeof *p);
    p->nexthops = nexthops;
    p->allocated_nexthops = allocated;

    const struct json *seq = column(columns, "seq", JSON_INTEGER);
    if (seq) {
        p->seq = json_integer(seq);
        p->has_seq = true;
    }

    char *error = syncd_rows_parse_key(rows, columns, p);
    if (error) {
        return error;
    }
    if (!seq) {
        return xstrdup("missing seq");
    }

    const struct json *action = column(columns, "packet_action",
                                       JSON_STRING);
    const char *a = action ? json_string(action) : "";
    if (!strcmp(a, "forward")) {
        p->action = SAI_PACKET_ACTION_FORWARD;
    } else if (!strcmp(a, "drop")) {
        p->action = SAI_PACKET_ACTION_DROP;
    } else if (!strcmp(a, "trap")) {
        p->action = SAI_PACKET_ACTION_TRAP;
    } else {
        return xasprintf("unknown packet_action \"%s\"", a);
    }
    if (p->action != SAI_PACKET_ACTION_FORWARD) {
        return NULL;
    }

    /* "nexthops": ["map", [[KEY, WEIGHT], ...]]. */
    return parse_nexthops(column(columns, "nexthops", JSON_ARRAY), p);
}
