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

#include "daemons/orchd/orchd-show-table.h"

#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-route-table.h"
#include "daemons/orchd/orchd-show.h"
#include "hash.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/vlog.h"
#include "sset.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_show_table);

COVERAGE_DEFINE(orchd_show_counters_fetch);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* Route.counters of one row, fetched for "detail". */
struct fetched {
    struct hmap_node node;      /* In 'show_table->fetched'. */
    struct uuid uuid;           /* The Route row. */
    unsigned int refs;          /* Queries that asked for it. */
    bool pending;               /* Fetch under way? */
    uint64_t fetch;             /* Number of the last fetch asked: only
                                 * its answer counts. */
    char **keys;                /* Its counters' names... */
    int64_t *values;            /* ...and values... */
    size_t n;                   /* ...in this many pairs. */
};

/* The source. */
struct show_table {
    struct orchd_show_source up;    /* Its class. */
    const struct orchd_route_table *routes; /* orchd's routes. */
    const struct sset *vrfs;        /* Names of the Vrf rows. */
    char *db_remote;                /* Where to fetch counters. */
    struct ovsdb_writer *db;        /* Connection for the fetches, opened
                                     * at the first. */
    struct hmap fetched;            /* "struct fetched"s, by uuid. */
    uint64_t n_fetches;             /* Fetch transactions sent. */
};

/* One transaction of fetches: the rows in the order of its selects. */
struct fetch_txn {
    struct show_table *st;      /* Whose. */
    uint64_t fetch;             /* Its number. */
    struct uuid *rows;          /* The rows selected... */
    size_t n;                   /* ...in this many selects. */
};

static struct show_table *
show_table_cast(struct orchd_show_source *src)
{
    return CONTAINER_OF(src, struct show_table, up);
}

static struct fetched *
fetched_find(const struct show_table *st, const struct uuid *uuid)
{
    struct fetched *f;

    HMAP_FOR_EACH_WITH_HASH (f, node, uuid_hash(uuid), &st->fetched) {
        if (uuid_equals(&f->uuid, uuid)) {
            return f;
        }
    }
    return NULL;
}

/* Drops the counters 'f' holds. */
static void
fetched_clear(struct fetched *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->keys[i]);
    }
    free(f->keys);
    free(f->values);
    f->keys = NULL;
    f->values = NULL;
    f->n = 0;
}

static bool
show_table_vrf_exists(struct orchd_show_source *src, const char *vrf)
{
    struct show_table *st = show_table_cast(src);
    struct orchd_route_cursor cursor;

    return (sset_contains(st->vrfs, vrf)
            || orchd_route_table_first_vrf(st->routes, &cursor, vrf));
}

/* Passes route 'r' to 'cb' as fib/show's view of it: with no resolution
 * while it waits for its group, or its VRF is unknown (orchd refuses
 * it), as the replica's source does.  Returns 1. */
static size_t
pass_route(struct show_table *st, const struct orchd_route *r,
           orchd_show_route_cb *cb, void *aux)
{
    const struct fetched *f = fetched_find(st, &r->uuid);
    struct orchd_show_route view = {
        .uuid = r->uuid,
        .vrf = r->entry->vrf,
        .prefix = &r->entry->prefix,
        .protocol = r->protocol,
        .distance = r->distance,
        .metric = r->metric,
        .has_group = r->group != 0,
        .group = r->group,
        .want = (r->waiting
                 || (strcmp(r->entry->vrf, "default")
                     && !sset_contains(st->vrfs, r->entry->vrf))
                 ? NULL : r->entry),
        .counter_keys = f ? (const char *const *) f->keys : NULL,
        .counter_values = f ? f->values : NULL,
        .n_counters = f ? f->n : 0,
    };

    cb(&view, aux);
    return 1;
}

static size_t
show_table_select(struct orchd_show_source *src, const char *vrf,
                  enum orchd_show_select what,
                  const struct fib_prefix *prefix,
                  orchd_show_route_cb *cb, void *aux)
{
    struct show_table *st = show_table_cast(src);
    struct orchd_route_cursor cursor;
    const struct orchd_route *r;
    size_t n = 0;

    switch (what) {
    case ORCHD_SHOW_EXACT:
    case ORCHD_SHOW_LPM:
        r = (what == ORCHD_SHOW_LPM
             ? orchd_route_table_lpm(st->routes, vrf, prefix)
             : orchd_route_table_lookup(st->routes, vrf, prefix));
        if (r) {
            n += pass_route(st, r, cb, aux);
        }
        break;
    case ORCHD_SHOW_LONGER:
        for (r = orchd_route_table_first_longer(st->routes, &cursor, vrf,
                                                prefix);
             r; r = orchd_route_table_next(&cursor)) {
            n += pass_route(st, r, cb, aux);
        }
        break;
    case ORCHD_SHOW_VRF:
        for (r = orchd_route_table_first_vrf(st->routes, &cursor, vrf);
             r; r = orchd_route_table_next(&cursor)) {
            n += pass_route(st, r, cb, aux);
        }
        break;
    }
    return n;
}

/* Stores the counters of the select result 'result' into 'f'.  Returns
 * false if the result is not of the form a select of Route.counters
 * gives (a row gone is an empty result: no counters). */
static bool
store_counters(struct fetched *f, const struct json *result)
{
    const struct json *rows = (result && result->type == JSON_OBJECT
                               ? shash_find_data(json_object(result), "rows")
                               : NULL);
    struct ovsdb_wire_map map = { .keys = NULL };
    bool ok = true;

    fetched_clear(f);
    if (!rows || rows->type != JSON_ARRAY) {
        return false;
    }
    if (json_array(rows)->n) {
        const struct json *row = json_array(rows)->elems[0];
        const struct json *counters = ovsdb_wire_col(row, "counters");

        ok = ovsdb_wire_get_map(counters, &map);
        if (ok) {
            f->keys = xmalloc(map.n * sizeof *f->keys);
            f->values = xmemdup(map.values, map.n * sizeof *f->values);
            for (size_t i = 0; i < map.n; i++) {
                f->keys[i] = xstrdup(map.keys[i]);
            }
            f->n = map.n;
        }
    }
    ovsdb_wire_map_destroy(&map);
    return ok;
}

/* ovsdb_writer_cb of a transaction of fetches. */
static void
fetch_done(void *ft_, const struct ovsdb_writer_reply *reply)
{
    struct fetch_txn *ft = ft_;
    const struct json_array *results = (reply->results
                                        && reply->results->type == JSON_ARRAY
                                        ? json_array(reply->results) : NULL);

    for (size_t i = 0; i < ft->n; i++) {
        struct fetched *f = fetched_find(ft->st, &ft->rows[i]);

        if (!f || f->fetch != ft->fetch) {
            /* Forgotten, or asked again since: a later answer counts. */
            continue;
        }
        f->pending = false;
        if (reply->result != OVSDB_WRITER_SUCCESS || !results
            || i >= results->n || !store_counters(f, results->elems[i])) {
            VLOG_WARN_RL(&rl, "fetching Route.counters of "UUID_FMT
                         " failed (%s)", UUID_ARGS(&ft->rows[i]),
                         reply->error ? reply->error
                         : "unexpected reply");
        }
    }
    free(ft->rows);
    free(ft);
}

/* Selects Route.counters of 'rows' in one transaction. */
static void
show_table_fetch_counters(struct orchd_show_source *src,
                          const struct uuid *rows, size_t n)
{
    struct show_table *st = show_table_cast(src);
    struct json *ops = json_array_create_empty();
    struct fetch_txn *ft;

    if (!n) {
        json_destroy(ops);
        return;
    }
    if (!st->db) {
        st->db = ovsdb_writer_create(st->db_remote, "Fibsync");
    }
    ft = xmalloc(sizeof *ft);
    ft->st = st;
    ft->fetch = ++st->n_fetches;
    ft->rows = xmemdup(rows, n * sizeof *rows);
    ft->n = n;
    for (size_t i = 0; i < n; i++) {
        struct fetched *f = fetched_find(st, &rows[i]);

        if (!f) {
            f = xzalloc(sizeof *f);
            f->uuid = rows[i];
            hmap_insert(&st->fetched, &f->node, uuid_hash(&rows[i]));
        }
        f->refs++;
        f->pending = true;
        f->fetch = ft->fetch;
        json_array_add(ops, ovsdb_wire_op_select(
                           "Route", ovsdb_wire_where_uuid(&rows[i]),
                           "counters"));
    }
    COVERAGE_ADD(orchd_show_counters_fetch, n);
    ovsdb_writer_commit(st->db, ops, fetch_done, ft);
}

static bool
show_table_counters_pending(struct orchd_show_source *src,
                            const struct uuid *rows, size_t n)
{
    struct show_table *st = show_table_cast(src);

    for (size_t i = 0; i < n; i++) {
        const struct fetched *f = fetched_find(st, &rows[i]);

        if (f && f->pending) {
            return true;
        }
    }
    return false;
}

static void
show_table_forget_counters(struct orchd_show_source *src,
                           const struct uuid *rows, size_t n)
{
    struct show_table *st = show_table_cast(src);

    for (size_t i = 0; i < n; i++) {
        struct fetched *f = fetched_find(st, &rows[i]);

        if (f && !--f->refs) {
            hmap_remove(&st->fetched, &f->node);
            fetched_clear(f);
            free(f);
        }
    }
}

static void
show_table_run(struct orchd_show_source *src)
{
    struct show_table *st = show_table_cast(src);

    if (st->db) {
        ovsdb_writer_run(st->db);
    }
}

static void
show_table_wait(struct orchd_show_source *src)
{
    struct show_table *st = show_table_cast(src);

    if (st->db) {
        ovsdb_writer_wait(st->db);
    }
}

static void
show_table_destroy(struct orchd_show_source *src)
{
    struct show_table *st = show_table_cast(src);
    struct fetched *f;

    /* The writer ends what is in flight as lost, calling fetch_done(). */
    ovsdb_writer_destroy(st->db);
    HMAP_FOR_EACH_POP (f, node, &st->fetched) {
        fetched_clear(f);
        free(f);
    }
    hmap_destroy(&st->fetched);
    free(st->db_remote);
    free(st);
}

static const struct orchd_show_source_class show_table_class = {
    .vrf_exists = show_table_vrf_exists,
    .select = show_table_select,
    .fetch_counters = show_table_fetch_counters,
    .counters_pending = show_table_counters_pending,
    .forget_counters = show_table_forget_counters,
    .run = show_table_run,
    .wait = show_table_wait,
    .destroy = show_table_destroy,
};

/* Creates fib/show's source over 'routes', which must keep its index
 * (orchd_route_table_enable_index()), with the Vrf rows' names 'vrfs',
 * fetching counters from 'db_remote'. */
struct orchd_show_source *
orchd_show_table_create(const struct orchd_route_table *routes,
                        const struct sset *vrfs, const char *db_remote)
{
    struct show_table *st = xzalloc(sizeof *st);

    ovs_assert(orchd_route_table_has_index(routes));
    st->up.class = &show_table_class;
    st->routes = routes;
    st->vrfs = vrfs;
    st->db_remote = xstrdup(db_remote);
    hmap_init(&st->fetched);
    return &st->up;
}
