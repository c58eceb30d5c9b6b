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

#include "daemons/syncd-rows.h"

#include <string.h>

#include "hash.h"
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
