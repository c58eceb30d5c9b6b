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
 * orchd-source: where orchd's routes come from, as a provider class.
 *
 * orchd has three route sources, and picks one at start:
 *
 *   - the IDL replica of Route and Nexthop_Group (orchd-source-replica.c),
 *     the default on the northbound OVSDB path and with a cluster;
 *
 *   - the database file read at start, then a monitor of Route's changes
 *     alone, without a replica (--routes-from-file,
 *     orchd-source-file.c);
 *
 *   - fpmsyncd over ZeroMQ, routes already resolved (--northbound-zmq,
 *     orchd-source-northbound.c).
 *
 * The rest of orchd talks to the source through this class, never to a
 * mode flag: main()'s loops call its hooks, cache/verify asks it to walk
 * its routes, fib/show asks it for its show source (orchd-show.h), and
 * orchd/status for its lines.  Every source turns routes into entries
 * through the one resolve step (orchd-resolve.h).  A source embeds
 * struct orchd_source at the start of its own state, as OVS's netdev
 * providers embed struct netdev.  Its create function registers what
 * orchd's IDL replicates for it (orchd-replica.h) and creates the
 * Route.status writer it needs.
 */

#ifndef ORCHD_SOURCE_H
#define ORCHD_SOURCE_H 1

#include <stdbool.h>
#include <stddef.h>

struct ds;
struct orchd;
struct orchd_source;
struct orchd_seed;
struct orchd_show_source;
struct orchd_verify;
struct ovs_list;
struct sset;
struct unixctl_server;

/* A route source's hooks.  Those marked optional may be NULL. */
struct orchd_source_class {
    const char *name;           /* "replica", "file" or "northbound". */

    /* Whether the Asic_Route rows read at start are kept, so that those no
     * route wants are removed at the initial sync (not on the northbound
     * path, where fpmsyncd's resync says what is stale). */
    bool keeps_seed_rows;

    /* Whether the source reads Asic_Route itself at its initial sync (the
     * file source, from the database file), rather than beside the IDL's
     * first copy. */
    bool seeds_itself;

    /* Frees the source. */
    void (*destroy)(struct orchd_source *);

    /* Start-up, before the initial sync: runs what the source needs to
     * have begun, and returns true once it has (optional: always
     * ready). */
    bool (*start_run)(struct orchd_source *);
    void (*start_wait)(struct orchd_source *);

    /* Programs every route the source holds, seeding the worker from
     * 'seed' first, serving 'unixctl' while it waits, and ends with
     * orchd_seed_finish_sync(). */
    void (*initial_sync)(struct orchd_source *, struct orchd_seed *,
                         struct unixctl_server *);

    /* The IDL's replica changed: processes the tracked changes of Route
     * and Nexthop_Group, and returns how many it saw (optional). */
    size_t (*idl_changed)(struct orchd_source *);

    /* Once synced: the VRFs in 'changed' came or went; their routes are
     * processed again (optional). */
    void (*vrfs_changed)(struct orchd_source *, const struct sset *changed);

    /* The IDL's replica is whole again after a lost connection: every
     * route goes through the resolve step again and the entries no route
     * named are swept (optional). */
    void (*reconcile)(struct orchd_source *);

    /* Main loop hooks (optional). */
    void (*run)(struct orchd_source *);
    void (*wait)(struct orchd_source *);

    /* Hands the worker's 'results' (struct orchd_worker_result) to whoever
     * writes Route.status for this source; takes them (optional: orchd's
     * own write-back, orchd-status.h). */
    void (*results)(struct orchd_source *, struct ovs_list *results);

    /* Holds every route the database holds (false while it reads them
     * again, say)?  Optional: always. */
    bool (*is_synced)(const struct orchd_source *);

    /* The show source over this source's routes, for fib/show, or NULL if
     * it keeps no route index (optional). */
    struct orchd_show_source *(*show_source)(struct orchd_source *);

    /* Hands each route to 'v' (cache/verify).  Returns NULL, or why it
     * cannot (for the caller to reply; optional: none). */
    const char *(*verify)(struct orchd_source *, struct orchd_verify *v);

    /* Appends the source's lines of orchd/status, features/show and
     * zmq/show to 's' (each optional; without the latter two, the lines of
     * a northbound path on OVSDB). */
    void (*format_status)(const struct orchd_source *, struct ds *s);
    void (*format_features)(const struct orchd_source *, struct ds *s);
    void (*format_zmq)(const struct orchd_source *, struct ds *s);
};

/* A source: embedded at the start of each source's own state. */
struct orchd_source {
    const struct orchd_source_class *class;
    struct orchd *o;            /* The daemon it feeds. */
};

/* The three sources. */
struct orchd_source *orchd_source_replica_create(struct orchd *);
struct orchd_source *orchd_source_file_create(struct orchd *);
struct orchd_source *orchd_source_northbound_create(struct orchd *);

struct orchd_source *orchd_source_create(struct orchd *);
void orchd_source_destroy(struct orchd_source *);
bool orchd_source_start_run(struct orchd_source *);
void orchd_source_start_wait(struct orchd_source *);
size_t orchd_source_idl_changed(struct orchd_source *);
void orchd_source_read_vrfs(struct orchd_source *, bool force);
void orchd_source_reconcile(struct orchd_source *);
void orchd_source_run(struct orchd_source *);
void orchd_source_wait(struct orchd_source *);
bool orchd_source_is_synced(const struct orchd_source *);
struct orchd_show_source *orchd_source_show_source(struct orchd_source *);
void orchd_source_results(struct orchd_source *, struct ovs_list *);
void orchd_source_format_status(const struct orchd_source *, struct ds *);
void orchd_source_format_features(const struct orchd_source *, struct ds *);
void orchd_source_format_zmq(const struct orchd_source *, struct ds *);

#endif /* orchd-source.h */
