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


/* route-check-file: route-check's database views (Nexthop_Group, Route,
 * Asic_Route) replayed from the server's standalone database file by
 * lib/ovsdb-file-replay.h, nothing asked of the server. */

#include <config.h>

#include "utilities/route-check.h"

#include <stdint.h>
#include <stdlib.h>

#include "lib/ovsdb-file-replay.h"
#include "lib/ovsdb-file-replay-value.h"
#include "lib/route-compare.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

/* The columns read, in the order the replay hands their values over. */
static const char *const group_cols[] = { "id", "members" };
enum { G_ID, G_MEMBERS };
static const char *const route_cols[] = {
    "vrf", "prefix", "nexthops", "nexthop_group", "blackhole",
};
enum { R_VRF, R_PREFIX, R_NEXTHOPS, R_GROUP, R_BLACKHOLE };
static const char *const asic_cols[] = {
    "vrf", "prefix", "packet_action", "nexthops", "seq", "applied_seq",
    "state", "error", "instance",
};
enum {
    A_VRF, A_PREFIX, A_ACTION, A_NEXTHOPS, A_SEQ, A_APPLIED_SEQ, A_STATE,
    A_ERROR, A_INSTANCE,
};

/* Decoding rows of the file. */
struct file_rows {
    struct check *check;        /* Where they go. */
    int instance;               /* --instance: Asic_Route rows kept. */
    struct ds vrf, prefix;      /* Scratch: decoded strings. */
    struct ds action, state, error;
    struct ovsdb_file_replay_map nexthops; /* Scratch: a row's next
                                            * hops. */
};

/* Reads the next hops of map value 'v' into 'check->nhs'.  Returns their
 * number, or SIZE_MAX if 'v' is not a map of strings to integers. */
static size_t
file_nexthops(struct file_rows *fr, const struct ovsdb_file_replay_value *v)
{
    struct check *c = fr->check;
    struct ovsdb_file_replay_map *m = &fr->nexthops;

    if (!ovsdb_file_replay_get_map(v, m)) {
        return SIZE_MAX;
    }
    while (c->allocated_nhs < m->n) {
        c->nhs = x2nrealloc(c->nhs, &c->allocated_nhs, sizeof *c->nhs);
    }
    for (size_t i = 0; i < m->n; i++) {
        c->nhs[i].key = m->keys[i];
        c->nhs[i].weight = m->values[i];
    }
    return m->n;
}

/* ovsdb_file_replay_row_cb for Nexthop_Group. */
static void
file_group(const struct uuid *uuid OVS_UNUSED,
           const struct ovsdb_file_replay_value *v, void *fr_)
{
    struct file_rows *fr = fr_;
    size_t n = file_nexthops(fr, &v[G_MEMBERS]);
    int64_t id;

    if (n == SIZE_MAX || !ovsdb_file_replay_get_integer(&v[G_ID], &id)) {
        route_check_note_bad(fr->check, "Nexthop_Group row");
        return;
    }
    route_check_group_add(fr->check, id, n);
}

/* ovsdb_file_replay_row_cb for Route. */
static void
file_route(const struct uuid *uuid OVS_UNUSED,
           const struct ovsdb_file_replay_value *v, void *fr_)
{
    struct file_rows *fr = fr_;
    struct ovsdb_file_replay_value group;
    struct route_view r;

    if (!ovsdb_file_replay_get_string(&v[R_VRF], &fr->vrf)
        || !ovsdb_file_replay_get_string(&v[R_PREFIX], &fr->prefix)
        || !ovsdb_file_replay_get_boolean(&v[R_BLACKHOLE], &r.blackhole)
        || !ovsdb_file_replay_get_optional(&v[R_GROUP], &group,
                                           &r.has_group)
        || (r.has_group
            && !ovsdb_file_replay_get_integer(&group, &r.group))
        || (r.n_nhs = file_nexthops(fr, &v[R_NEXTHOPS])) == SIZE_MAX) {
        route_check_note_bad(fr->check, "Route row");
        return;
    }
    r.vrf = ds_cstr(&fr->vrf);
    r.prefix = ds_cstr(&fr->prefix);
    route_check_route_add(fr->check, &r);
}

/* ovsdb_file_replay_row_cb for Asic_Route: --instance's rows only. */
static void
file_asic(const struct uuid *uuid OVS_UNUSED,
          const struct ovsdb_file_replay_value *v, void *fr_)
{
    struct file_rows *fr = fr_;
    int64_t instance, seq, applied_seq;
    const char *state, *error;
    size_t n;

    if (!ovsdb_file_replay_get_integer(&v[A_INSTANCE], &instance)) {
        route_check_note_bad(fr->check, "Asic_Route row");
        return;
    } else if (instance != fr->instance) {
        return;
    }
    if (!ovsdb_file_replay_get_string(&v[A_VRF], &fr->vrf)
        || !ovsdb_file_replay_get_string(&v[A_PREFIX], &fr->prefix)
        || !ovsdb_file_replay_get_string(&v[A_ACTION], &fr->action)
        || !ovsdb_file_replay_get_integer(&v[A_SEQ], &seq)
        || !ovsdb_file_replay_get_integer(&v[A_APPLIED_SEQ], &applied_seq)
        || !ovsdb_file_replay_get_optional_string(&v[A_STATE], &fr->state,
                                                  &state)
        || !ovsdb_file_replay_get_optional_string(&v[A_ERROR], &fr->error,
                                                  &error)
        || (n = file_nexthops(fr, &v[A_NEXTHOPS])) == SIZE_MAX) {
        route_check_note_bad(fr->check, "Asic_Route row");
        return;
    }
    route_check_asic_add(fr->check, ds_cstr(&fr->vrf), ds_cstr(&fr->prefix),
             ds_cstr(&fr->action), n, state, seq, applied_seq, error);
}

/* Replays standalone database file 'file' into 'c': its Nexthop_Group and
 * Route rows, and its Asic_Route rows of ASIC instance 'instance'.  Returns
 * NULL, or an error message for the caller to free, with nothing read. */
char *
route_check_read_file(const char *file, int instance, struct check *c)
{
    struct ovsdb_file_replay *r = ovsdb_file_replay_create();
    struct file_rows rows = {
        .check = c,
        .instance = instance,
        .vrf = DS_EMPTY_INITIALIZER, .prefix = DS_EMPTY_INITIALIZER,
        .action = DS_EMPTY_INITIALIZER, .state = DS_EMPTY_INITIALIZER,
        .error = DS_EMPTY_INITIALIZER,
    };
    ovsdb_file_replay_map_init(&rows.nexthops);
    size_t groups = ovsdb_file_replay_add_table(r, "Nexthop_Group",
                                                group_cols,
                                                ARRAY_SIZE(group_cols));
    size_t routes = ovsdb_file_replay_add_table(r, "Route", route_cols,
                                                ARRAY_SIZE(route_cols));
    size_t asics = ovsdb_file_replay_add_table(r, "Asic_Route", asic_cols,
                                               ARRAY_SIZE(asic_cols));

    char *error = ovsdb_file_replay_read(r, file);
    if (!error) {
        route_compare_reserve(c->cmp, ovsdb_file_replay_n_rows(r, routes));
        ovsdb_file_replay_consume(r, groups, file_group, &rows);
        ovsdb_file_replay_consume(r, routes, file_route, &rows);
        ovsdb_file_replay_consume(r, asics, file_asic, &rows);
    }
    ovsdb_file_replay_destroy(r);

    ds_destroy(&rows.vrf);
    ds_destroy(&rows.prefix);
    ds_destroy(&rows.action);
    ds_destroy(&rows.state);
    ds_destroy(&rows.error);
    ovsdb_file_replay_map_destroy(&rows.nexthops);
    return error;
}

