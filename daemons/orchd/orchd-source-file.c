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

/*
 * orchd-source-file: routes from the database file and a monitor of
 * Route's changes, without a replica of Route (--routes-from-file;
 * orchd-source.h).
 *
 * At start, and whenever the monitor of Route's changes begins again,
 * orchd reads every Route row from the standalone database file of the
 * server (orchd-route-file.h) into its own route table
 * (orchd-route-table.h); in between the monitor (orchd-route-monitor.h)
 * reports each change.  The table keeps each route's entry, built when its
 * row was read, and each group's users; its own (vrf, prefix) index serves
 * fib/show.  A restart at a million routes then takes seconds, and orchd
 * holds no IDL copy of Route.
 */

#include <config.h>

#include <stdlib.h>

#include "daemons/orchd/orchd-cache.h"
#include "daemons/orchd/orchd-core.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-options.h"
#include "daemons/orchd/orchd-replica.h"
#include "daemons/orchd/orchd-resolve.h"
#include "daemons/orchd/orchd-route-file.h"
#include "daemons/orchd/orchd-route-monitor.h"
#include "daemons/orchd/orchd-route-row.h"
#include "daemons/orchd/orchd-route-table.h"
#include "daemons/orchd/orchd-seed.h"
#include "daemons/orchd/orchd-show-table.h"
#include "daemons/orchd/orchd-source.h"
#include "daemons/orchd/orchd-status.h"
#include "daemons/orchd/orchd-verify.h"
#include "daemons/orchd/orchd-worker.h"
#include "idl/fibsync-idl.h"
#include "lib/fib-prefix.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "sset.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_source_file);

/* The source's state. */
struct source_file {
    struct orchd_source up;     /* The class and the daemon. */
    struct orchd_route_monitor *rm; /* Route's changes. */
    struct orchd_route_table routes; /* The routes known. */
    struct orchd_route_file_stats last_read; /* The last read of the
                                              * database file... */
    uint64_t n_reads;           /* ...and the reads so far... */
    long long int read_retry;   /* ...and when to try one again after a
                                 * failure. */
};

static const struct orchd_source_class source_file_class;
static orchd_route_monitor_cb route_monitor_cb;

/* Returns the file source of 'source'. */
static struct source_file *
source_file_cast(const struct orchd_source *source)
{
    ovs_assert(source->class == &source_file_class);
    return CONTAINER_OF(source, struct source_file, up);
}

/* Creates the source: Nexthop_Group is replicated, Route is not. */
struct orchd_source *
orchd_source_file_create(struct orchd *o)
{
    struct source_file *sf = xzalloc(sizeof *sf);

    sf->up.class = &source_file_class;
    sf->up.o = o;
    orchd_route_table_init(&sf->routes);
    sf->rm = orchd_route_monitor_create(o->opts->db_remote,
                                        route_monitor_cb, sf);
    o->status = orchd_status_create_raw(o->opts->db_remote);
    orchd_replica_register(o->idl, ORCHD_REPLICA_GROUPS,
                           o->opts->replica_steps, o->widening);
    /* The table keeps each group's users, and its own (vrf, prefix)
     * index serves "show ip route". */
    if (o->opts->use_route_index) {
        orchd_route_table_enable_index(&sf->routes);
    }
    o->nhg_by_id = ovsdb_idl_index_create1(o->idl,
                                           &fibrec_nexthop_group_col_id);
    return &sf->up;
}

/* orchd_source_class's 'destroy'.  fib/show's source, which reads the
 * table, must be gone first. */
static void
source_file_destroy(struct orchd_source *source)
{
    struct source_file *sf = source_file_cast(source);

    orchd_route_monitor_destroy(sf->rm);
    orchd_route_table_destroy(&sf->routes);
    free(sf);
}

/* Removes route 'r', whose row is gone, and its entry. */
static void
delete_route(struct source_file *sf, struct orchd_route *r)
{
    orchd_resolve_delete(sf->up.o, &r->uuid, &r->entry->asic_uuid);
    orchd_route_table_remove(&sf->routes, r);
}

/* Hands route 'r' of the table to the resolve step's worker. */
static void
submit_route(struct source_file *sf, const struct orchd_route *r)
{
    orchd_resolve_submit(sf->up.o, &r->uuid, r->entry, r->waiting);
}

/* Takes in 'row', inserted, modified or read, into the table and the
 * worker.  A row read again unchanged (orchd-route-monitor.h) changes
 * nothing.  If 'share', a route whose entry is programmed as it is takes
 * that entry rather than a copy: at start, the worker holds one for each
 * row of Asic_Route read, named by the Route row fpmsyncd names the route
 * with (orchd-seed.c), so that the two reads do not hold two copies. */
static void
set_route_row(struct source_file *sf, const struct orchd_route_row *row,
              bool share)
{
    struct orchd_route *r = orchd_route_table_find(&sf->routes, &row->uuid);
    int64_t group = row->has_group ? row->group : 0;
    struct orchd *o = sf->up.o;
    struct orchd_entry *e;
    bool waiting;
    char *error;

    e = orchd_resolve_build_entry(o, row, &waiting, &error);
    if (!e) {
        orchd_resolve_count_bad(o);
        if (r) {
            delete_route(sf, r);
        }
        orchd_status_refuse(o->status, &row->uuid, ORCHD_REFUSE_BAD_PREFIX,
                            error);
        return;
    }
    if (share && !waiting) {
        struct orchd_entry *have = orchd_cache_get(o->cache, &e->asic_uuid);

        if (have && uuid_equals(&have->route_uuid, &e->route_uuid)
            && orchd_entry_same_content(have, e)) {
            orchd_entry_unref(e);
            e = have;
        } else {
            orchd_entry_unref(have);
        }
    }
    if (r) {
        bool same_key = uuid_equals(&r->entry->asic_uuid, &e->asic_uuid);

        if (same_key && r->group == group && r->waiting == waiting
            && orchd_entry_same_content(r->entry, e)) {
            r->generation = sf->routes.generation;
            orchd_route_table_set_origin(&sf->routes, r, row->protocol,
                                         row->distance, row->metric);
            orchd_entry_unref(e);
            return;
        } else if (!same_key) {
            /* Its VRF or prefix changed in place: the old entry goes. */
            orchd_worker_del(o->worker, &r->entry->asic_uuid);
        }
    }
    r = orchd_route_table_set(&sf->routes, &row->uuid, e, group, waiting);
    orchd_route_table_set_origin(&sf->routes, r, row->protocol,
                                 row->distance, row->metric);
    submit_route(sf, r);
}

/* orchd_route_monitor_cb. */
static void
route_monitor_cb(void *sf_, const struct uuid *uuid,
                 const struct orchd_route_row *row)
{
    struct source_file *sf = sf_;

    if (row) {
        set_route_row(sf, row, false);
    } else {
        struct orchd_route *r = orchd_route_table_find(&sf->routes, uuid);

        orchd_status_forget(sf->up.o->status, uuid);
        if (r) {
            delete_route(sf, r);
        }
    }
}

/* What a read of the database file calls back with. */
struct file_read {
    struct source_file *sf;     /* Whose table and worker. */
    struct orchd_seed *seed;    /* Seeded with Asic_Route's rows, at start
                                 * only; else NULL. */
};

/* orchd_route_file_route_cb. */
static void
file_route(void *fr_, const struct orchd_route_row *row)
{
    struct file_read *fr = fr_;

    set_route_row(fr->sf, row, true);
}

/* orchd_route_file_asic_cb. */
static void
file_asic(void *fr_, const struct orchd_asic_row *ar)
{
    struct file_read *fr = fr_;

    orchd_seed_read_row(fr->seed, ar);
}

/* Reads every Route row from the database file into the table and the
 * worker, and removes the routes of the table that the file no longer has
 * (orchd-route-monitor.h).  At start ('seed' nonnull) also seeds the
 * worker with this instance's Asic_Route rows, before any route.  Returns
 * false, having changed nothing, if the file could not be read: the caller
 * tries again a second later.  The caller then tells the monitor the read
 * is done. */
static bool
read_routes_file(struct source_file *sf, struct orchd_seed *seed)
{
    const struct orchd_options *opts = sf->up.o->opts;
    struct file_read fr = { .sf = sf, .seed = seed };
    struct orchd_route *r;
    size_t n_removed = 0;
    char *error;

    sf->routes.generation++;
    error = orchd_route_file_read(opts->routes_file, opts->instance,
                                  file_route, seed ? file_asic : NULL, &fr,
                                  &sf->last_read);
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

        VLOG_WARN_RL(&rl, "reading Route from the database file failed "
                     "(%s); trying again in a second", error);
        free(error);
        sf->read_retry = time_msec() + 1000;
        return false;
    }
    HMAP_FOR_EACH_SAFE (r, node, &sf->routes.routes) {
        if (r->generation != sf->routes.generation) {
            delete_route(sf, r);
            n_removed++;
        }
    }
    if (seed) {
        seed->n_seeded = sf->last_read.asic_rows;
        seed->done = true;
    }
    sf->n_reads++;
    VLOG_INFO("%s: %"PRIuSIZE" Route rows and %"PRIuSIZE" Asic_Route rows "
              "read in %lld ms (%"PRIuSIZE" unreadable), %"PRIuSIZE
              " routes removed", opts->routes_file, sf->last_read.routes,
              sf->last_read.asic_rows, sf->last_read.ms,
              sf->last_read.bad_rows, n_removed);
    return true;
}

/* orchd_source_class's 'start_run': the monitor must have begun; then it
 * holds what it hears until the file has been read (the initial
 * sync). */
static bool
source_file_start_run(struct orchd_source *source)
{
    struct source_file *sf = source_file_cast(source);

    orchd_route_monitor_run(sf->rm);
    return orchd_route_monitor_needs_read(sf->rm);
}

/* orchd_source_class's 'start_wait'. */
static void
source_file_start_wait(struct orchd_source *source)
{
    struct source_file *sf = source_file_cast(source);

    if (!orchd_route_monitor_needs_read(sf->rm)) {
        orchd_route_monitor_wait(sf->rm);
    }
}

/* orchd_source_class's 'initial_sync': the routes and this instance's
 * Asic_Route rows come from the database file, read once the monitor of
 * Route's changes and of syncd's acknowledgements have begun. */
static void
source_file_initial_sync(struct orchd_source *source,
                         struct orchd_seed *seed,
                         struct unixctl_server *unixctl)
{
    struct source_file *sf = source_file_cast(source);
    struct sset changed = SSET_INITIALIZER(&changed);
    struct uuidset wanted = UUIDSET_INITIALIZER(&wanted);
    struct orchd *o = source->o;
    const struct orchd_route *r;

    orchd_resolve_read_vrfs(o, false, &changed);
    sset_destroy(&changed);
    while (!read_routes_file(sf, seed)) {
        while (time_msec() < sf->read_retry && !o->exiting) {
            unixctl_server_run(unixctl);
            unixctl_server_wait(unixctl);
            poll_timer_wait_until(sf->read_retry);
            poll_block();
        }
        if (o->exiting) {
            uuidset_destroy(&wanted);
            return;
        }
    }

    /* A route refused for its VRF wants no entry: one left is stale. */
    HMAP_FOR_EACH (r, node, &sf->routes.routes) {
        if (orchd_resolve_vrf_is_known(o, r->entry->vrf)) {
            uuidset_insert(&wanted, &r->entry->asic_uuid);
        }
    }
    orchd_seed_finish_sync(seed, &wanted,
                           orchd_route_table_count(&sf->routes));
    /* The changes received meanwhile, newer than the file. */
    orchd_route_monitor_read_done(sf->rm);
}

/* Resolves again the routes of the table that use next-hop group 'id'. */
static void
process_group_users(struct source_file *sf, int64_t id)
{
    struct orchd_route *r;

    ORCHD_ROUTE_TABLE_FOR_EACH_USER (r, &sf->routes, id) {
        struct orchd_entry *e;
        bool waiting;

        e = orchd_resolve_group_entry(sf->up.o, r->entry->vrf,
                                      &r->entry->prefix, id, &waiting);
        e->route_uuid = r->uuid;
        if (waiting == r->waiting && orchd_entry_same_content(e, r->entry)) {
            orchd_entry_unref(e);
            continue;
        }
        orchd_route_table_set(&sf->routes, &r->uuid, e, id, waiting);
        submit_route(sf, r);
    }
}

/* orchd_source_class's 'idl_changed': the routes of the next-hop groups
 * that changed (Route itself is not replicated). */
static size_t
source_file_idl_changed(struct orchd_source *source)
{
    struct source_file *sf = source_file_cast(source);
    const struct fibrec_nexthop_group *nhg;
    size_t n = 0;

    FIBREC_NEXTHOP_GROUP_FOR_EACH_TRACKED (nhg, source->o->idl) {
        if (!fibrec_nexthop_group_is_deleted(nhg)) {
            process_group_users(sf, nhg->id);
        }
        n++;
    }
    return n;
}

/* orchd_source_class's 'vrfs_changed'. */
static void
source_file_vrfs_changed(struct orchd_source *source,
                         const struct sset *changed)
{
    struct source_file *sf = source_file_cast(source);
    struct orchd_route *r;

    HMAP_FOR_EACH (r, node, &sf->routes.routes) {
        if (sset_contains(changed, r->entry->vrf)) {
            submit_route(sf, r);
        }
    }
}

/* orchd_source_class's 'run': the monitor's changes, and the Route rows
 * read again when the monitor began again (the server restarted, say). */
static void
source_file_run(struct orchd_source *source)
{
    struct source_file *sf = source_file_cast(source);

    orchd_route_monitor_run(sf->rm);
    if (orchd_route_monitor_needs_read(sf->rm)
        && time_msec() >= sf->read_retry
        && read_routes_file(sf, NULL)) {
        orchd_route_monitor_read_done(sf->rm);
    }
}

/* orchd_source_class's 'wait'. */
static void
source_file_wait(struct orchd_source *source)
{
    struct source_file *sf = source_file_cast(source);

    orchd_route_monitor_wait(sf->rm);
    if (orchd_route_monitor_needs_read(sf->rm)) {
        poll_timer_wait_until(sf->read_retry);
    }
}

/* orchd_source_class's 'is_synced': not while reading the file again. */
static bool
source_file_is_synced(const struct orchd_source *source)
{
    return !orchd_route_monitor_needs_read(source_file_cast(source)->rm);
}

/* orchd_source_class's 'show_source': the table and its own index. */
static struct orchd_show_source *
source_file_show_source(struct orchd_source *source)
{
    struct source_file *sf = source_file_cast(source);
    struct orchd *o = source->o;

    return orchd_show_table_create(&sf->routes, &o->vrfs,
                                   o->opts->db_remote);
}

/* orchd_source_class's 'verify': each route of the table.  (A row whose
 * prefix orchd could not parse is in no table: its Route.status says why,
 * and route-check reports it.) */
static const char *
source_file_verify(struct orchd_source *source, struct orchd_verify *v)
{
    struct source_file *sf = source_file_cast(source);
    const struct orchd_route *r;

    HMAP_FOR_EACH (r, node, &sf->routes.routes) {
        char prefix[FIB_PREFIX_STRLEN];

        v->n_routes++;
        orchd_entry_prefix(r->entry, prefix);
        if (!orchd_resolve_vrf_is_known(source->o, r->entry->vrf)) {
            orchd_verify_diff(v, "route %s vrf %s: unknown VRF \"%s\" "
                              "(no Vrf row)\n", prefix, r->entry->vrf,
                              r->entry->vrf);
        } else if (r->waiting) {
            orchd_verify_diff(v, "route %s vrf %s: next-hop group "
                              "unknown\n", prefix, r->entry->vrf);
        } else {
            orchd_verify_route(v, orchd_entry_ref(r->entry));
        }
    }
    return NULL;
}

/* orchd_source_class's 'format_status'. */
static void
source_file_format_status(const struct orchd_source *source, struct ds *s)
{
    struct source_file *sf = source_file_cast(source);
    struct orchd_route_monitor_stats ms;

    orchd_route_monitor_get_stats(sf->rm, &ms);
    ds_put_format(s, "Route: no replica, %"PRIuSIZE" routes; read "
                  "from %s %"PRIu64" time%s (last: %"PRIuSIZE" rows "
                  "in %lld ms)%s; monitor began %"PRIu64" time%s, "
                  "%"PRIu64" changes, %"PRIu64" deletions, %"PRIu64
                  " malformed\n",
                  orchd_route_table_count(&sf->routes),
                  source->o->opts->routes_file,
                  sf->n_reads, sf->n_reads == 1 ? "" : "s",
                  sf->last_read.routes, sf->last_read.ms,
                  orchd_route_monitor_needs_read(sf->rm)
                  ? ", reading again" : "",
                  ms.starts, ms.starts == 1 ? "" : "s", ms.changes,
                  ms.deletions, ms.bad_rows);
    /* The monitor's own read reconciles: nothing is swept. */
    ds_put_cstr(s, "stale routes removed after a lost connection: 0\n");
}

static const struct orchd_source_class source_file_class = {
    .name = "file",
    .keeps_seed_rows = true,
    .seeds_itself = true,
    .destroy = source_file_destroy,
    .start_run = source_file_start_run,
    .start_wait = source_file_start_wait,
    .initial_sync = source_file_initial_sync,
    .idl_changed = source_file_idl_changed,
    .vrfs_changed = source_file_vrfs_changed,
    .run = source_file_run,
    .wait = source_file_wait,
    .is_synced = source_file_is_synced,
    .show_source = source_file_show_source,
    .verify = source_file_verify,
    .format_status = source_file_format_status,
};
