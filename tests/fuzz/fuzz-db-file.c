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

/* fuzz-db-file: an OVSDB standalone database file as route-check replays
 * it (lib/ovsdb-file-replay.h).
 *
 * The input is the file's text: "OVSDB JSON LEN SHA1" record headers, a
 * schema record, transaction records (the seed corpus holds files that
 * ovsdb-server and ovsdb-tool wrote).  It is replayed keeping
 * route-check's tables and columns, and every value of every row kept is
 * decoded with every decoder: none may read outside its value, and a
 * replay that fails must say why. */

#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/ovsdb-file-replay.h"
#include "lib/ovsdb-file-replay-value.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const group_cols[] = { "id", "members" };
static const char *const route_cols[] = {
    "vrf", "prefix", "nexthops", "nexthop_group", "blackhole",
};
static const char *const asic_cols[] = {
    "vrf", "prefix", "packet_action", "nexthops", "seq", "applied_seq",
    "state", "error", "instance",
};

/* Decodes 'v' every way there is; each must stay inside it. */
static void
decode(const struct ovsdb_file_replay_value *v, struct ds *s)
{
    struct ovsdb_file_replay_value atom;
    struct ovsdb_file_replay_cursor cur;
    int64_t n;
    bool b, present;

    ovsdb_file_replay_get_string(v, s);
    ovsdb_file_replay_get_integer(v, &n);
    ovsdb_file_replay_get_boolean(v, &b);
    if (ovsdb_file_replay_get_optional(v, &atom, &present) && present) {
        ovs_assert(atom.s >= v->s && atom.s + atom.len <= v->s + v->len);
        ovsdb_file_replay_get_string(&atom, s);
    }
    if (ovsdb_file_replay_map_start(v, &cur)) {
        while (ovsdb_file_replay_map_next(&cur, s, &n)) {
            continue;
        }
    }
}

/* The number of columns of the table being walked, and a scratch string. */
struct walk {
    size_t n_columns;
    size_t n_rows;
    struct ds s;
};

static void
row_cb(const struct uuid *uuid OVS_UNUSED,
       const struct ovsdb_file_replay_value *values, void *w_)
{
    struct walk *w = w_;

    w->n_rows++;
    for (size_t i = 0; i < w->n_columns; i++) {
        ovs_assert(values[i].len > 0);
        decode(&values[i], &w->s);
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ovsdb_file_replay *r = ovsdb_file_replay_create();
    static const struct {
        const char *name;
        const char *const *cols;
        size_t n;
    } tables[] = {
        { "Nexthop_Group", group_cols, ARRAY_SIZE(group_cols) },
        { "Route", route_cols, ARRAY_SIZE(route_cols) },
        { "Asic_Route", asic_cols, ARRAY_SIZE(asic_cols) },
    };

    for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
        ovsdb_file_replay_add_table(r, tables[i].name, tables[i].cols,
                                    tables[i].n);
    }

    char *text = xmalloc(MAX(size, 1));
    memcpy(text, data, size);
    char *error = ovsdb_file_replay_read_buffer(r, "input", text, size);
    if (error) {
        ovs_assert(!strncmp(error, "input: ", 7) && error[7]);
        free(error);
    } else {
        struct walk w = { .s = DS_EMPTY_INITIALIZER };

        for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
            w.n_columns = tables[i].n;
            w.n_rows = 0;
            ovsdb_file_replay_for_each(r, i, row_cb, &w);
            ovs_assert(w.n_rows == ovsdb_file_replay_n_rows(r, i));
        }
        ds_destroy(&w.s);
    }
    ovsdb_file_replay_destroy(r);
    return 0;
}
