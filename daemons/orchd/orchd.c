/*
 * orchd: turns the routes in OVSDB into SAI route entries, in bulks.
 *
 * orchd replicates Route, Nexthop_Group, Vrf and Global (never
 * Route.counters), resolves each route's next hops into one SAI-shaped
 * entry, and writes the entries into Asic_Route in bulks, where syncd
 * programs them and acknowledges each write.  Acknowledged entries go into
 * a read cache; with FIB suppression on, each route's status goes back
 * into Route.status by partial map mutates.  On the southbound fast path
 * the bulks go to syncd over ZeroMQ instead (daemons/orchd/orchd-southbound.h).
 * See "orchd --help".
 */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "coverage.h"
#include "daemon.h"
#include "daemons/orchd/orchd-asic-acks.h"
#include "daemons/orchd/orchd-asic-read.h"
#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-cache.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-northbound.h"
#include "daemons/orchd/orchd-replica.h"
#include "daemons/orchd/orchd-route-file.h"
#include "daemons/orchd/orchd-route-monitor.h"
#include "daemons/orchd/orchd-route-row.h"
#include "daemons/orchd/orchd-route-table.h"
#include "daemons/orchd/orchd-show.h"
#include "daemons/orchd/orchd-show-idl.h"
#include "daemons/orchd/orchd-show-table.h"
#include "daemons/orchd/orchd-southbound.h"
#include "daemons/orchd/orchd-status.h"
#include "daemons/orchd/orchd-worker.h"
#include "fatal-signal.h"
#include "hash.h"
#include "idl/fibsync-idl.h"
#include "idl/fibsync-ondemand.h"
#include "idl/idl-ondemand.h"
#include "idl/route-index.h"
#include "lib/fib-prefix.h"
#include "lib/fibsync-instance.h"
#include "lib/fibsync-paths.h"
#include "lib/option-parse.h"
#include "lib/ovsdb-cs-retry.h"
#include "lib/ssl-options.h"
#include "lib/perf-timer.h"
#include "lib/route-key.h"
#include "lib/setting.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "stream-ssl.h"
#include "openvswitch/vlog.h"
#include "ovsdb-idl.h"
#include "smap.h"
#include "sset.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd);

COVERAGE_DEFINE(orchd_route_update);
COVERAGE_DEFINE(orchd_route_delete);
COVERAGE_DEFINE(orchd_route_bad);
COVERAGE_DEFINE(orchd_route_unresolved);

/* The ring's size by default (-b, Global's batch_size), in units of 64
 * tasks. */
#define ORCHD_DEFAULT_BATCH_SIZE 1000

/* orchd's tunables, as features/show lists them, in this order. */
enum {
    F_RING,                     /* Ring buffer and assistant thread. */
    F_ASYNC,                    /* Asynchronous SAI mode. */
    F_MAX_OUTSTANDING,          /* Window in async mode. */
    F_MAX_BULK,                 /* Bulk size (-k). */
    F_BATCH,                    /* Ring size, 64 tasks a unit (-b). */
    F_FIB_SUPPRESSION,          /* Status write-back. */
    F_SORTED,                   /* Sorted bulks. */
    F_NEXTHOP_GROUPS,           /* Shared next-hop groups (syncd). */
    F_NORTHBOUND_ZMQ,           /* Routes from fpmsyncd over ZeroMQ. */
    N_FEATURES
};

static struct setting features[N_FEATURES] = {
    [F_RING] = SETTING_INITIALIZER("ring_thread", 0),
    [F_ASYNC] = SETTING_INITIALIZER("sai_mode async", 0),
    [F_MAX_OUTSTANDING] = SETTING_INITIALIZER(
        "async_max_outstanding", ORCHD_BULKER_DEFAULT_MAX_OUTSTANDING),
    [F_MAX_BULK] = SETTING_INITIALIZER("max_bulk_size",
                                       ORCHD_BULKER_DEFAULT_MAX_BULK),
    [F_BATCH] = SETTING_INITIALIZER("batch_size", ORCHD_DEFAULT_BATCH_SIZE),
    [F_FIB_SUPPRESSION] = SETTING_INITIALIZER("fib_suppression", 0),
    [F_SORTED] = SETTING_INITIALIZER("sorted_bulks", 0),
    [F_NEXTHOP_GROUPS] = SETTING_INITIALIZER("nexthop_groups", 1),
    [F_NORTHBOUND_ZMQ] = SETTING_INITIALIZER("northbound_zmq", 0),
};

/* The daemon's state. */
struct orchd {
    struct ovsdb_idl *idl;          /* Replica of the database. */
    struct ovsdb_cs_retry idl_retry; /* Its reconnection once the server
                                      * is back. */
    struct ovsdb_idl_index *nhg_by_id;    /* Nexthop_Group by id. */
    struct orchd_cache *cache;      /* Programmed routes. */
    struct orchd_worker *worker;    /* Bulks and writes. */
    struct route_index *ri;         /* Route index: group users, fib/show. */
    struct orchd_show *show;        /* fib/show, or NULL. */
    struct orchd_northbound *nb;    /* Routes over ZeroMQ, or NULL: from
                                     * the Route replica. */
    bool nb_zmq;                    /* The northbound path chosen at
                                     * start is ZeroMQ. */
    bool db_has_marks;              /* The schema has Write_Mark. */
    struct perf_timer *drain_timer; /* "DRAIN" stage. */
    bool synced;                    /* Initial reconciliation done. */
    bool exiting;                   /* "exit" received. */
    struct sset vrfs;               /* Names of the Vrf rows. */
    struct orchd_status *status;    /* Route.status write-back (unused on
                                     * the northbound fast path). */
    struct orchd_asic_acks *acks;   /* syncd's acknowledgements on the
                                     * southbound OVSDB path, or NULL. */
    struct orchd_replica_widening *widening; /* Route's replica in steps:
                                              * at start, and again after
                                              * a lost connection. */
    struct orchd_route_monitor *rm; /* Route's changes without a replica
                                     * (--routes-from-file), or NULL. */
    struct orchd_route_table routes; /* With 'rm': the routes known. */
    struct orchd_route_file_stats last_read; /* With 'rm': the last read of
                                              * the database file... */
    uint64_t n_reads;               /* ...and the reads so far... */
    long long int read_retry;       /* ...and when to try one again after
                                     * a failure. */

    /* Counters. */
    uint64_t n_updates;             /* Route rows processed. */
    uint64_t n_deletes;             /* Route rows deleted. */
    uint64_t n_bad;                 /* Routes that could not be parsed. */
    uint64_t n_unresolved;          /* Routes waiting for a next-hop group. */
};

static char *db_remote;
static char *unixctl_path;
static char *nb_endpoint;
static char *routes_file;       /* --routes-from-file. */
static char *asic_file;         /* --asic-from-file. */
static bool use_route_index = true;
static int instance;            /* --instance: the ASIC instance. */

/* --asic-read-slice: seqs per select of the Asic_Route reads (at start,
 * and on the southbound OVSDB path after the acknowledgements' monitor
 * began again). */
static int64_t asic_read_slice = ORCHD_ASIC_READ_SLICE;

/* --replica-steps: the steps in which Route's rows enter the replica on
 * the northbound OVSDB path (orchd-replica.h). */
static unsigned int replica_steps = ORCHD_REPLICA_STEPS;

static void parse_options(int argc, char *argv[]);
OVS_NO_RETURN static void usage(void);

/* ---- Features ----------------------------------------------------------*/

/* Reads the Global row 'g' (NULL if there is none) into 'features': a
 * column left empty puts its feature back to the default, unless the
 * command line set it. */
static void
read_global(const struct fibrec_global *g)
{
    /* Optional column COL (g->n_COL values at g->COL) into feature F. */
#define READ_OPTIONAL(F, COL)                                   \
    setting_set_global(&features[F], g && g->n_##COL,           \
                       g && g->n_##COL ? *g->COL : 0)

    READ_OPTIONAL(F_RING, ring_thread);
    setting_set_global(&features[F_ASYNC], g && g->sai_mode,
                       g && g->sai_mode && !strcmp(g->sai_mode, "async"));
    READ_OPTIONAL(F_MAX_OUTSTANDING, async_max_outstanding);
    READ_OPTIONAL(F_MAX_BULK, max_bulk_size);
    READ_OPTIONAL(F_BATCH, batch_size);
    READ_OPTIONAL(F_FIB_SUPPRESSION, fib_suppression);
    READ_OPTIONAL(F_SORTED, sorted_bulks);
    READ_OPTIONAL(F_NEXTHOP_GROUPS, nexthop_groups);
    READ_OPTIONAL(F_NORTHBOUND_ZMQ, northbound_zmq);
#undef READ_OPTIONAL
    orchd_southbound_read_global(g);
}

/* Fills '*cfg' from the features in force. */
static void
bulker_config(struct orchd_bulker_config *cfg)
{
    cfg->max_bulk = features[F_MAX_BULK].value;
    cfg->max_outstanding = (features[F_ASYNC].value
                            ? features[F_MAX_OUTSTANDING].value : 1);
    cfg->sorted = features[F_SORTED].value;
}

/* Reads the replica's Global row into the features and hands the worker
 * what follows from them. */
static void
follow_global(struct orchd *o)
{
    struct orchd_bulker_config cfg;

    read_global(fibrec_global_first(o->idl));
    bulker_config(&cfg);
    orchd_worker_set_config(o->worker, &cfg);
    orchd_worker_want_results(o->worker, features[F_FIB_SUPPRESSION].value);
}

/* ---- Resolution --------------------------------------------------------*/

/* Is 'vrf' a VRF that orchd may program: "default" (the main table,
 * whose Vrf row fpmsyncd writes only once zebra sends a route in it) or
 * one that a Vrf row names? */
static bool
vrf_is_known(const struct orchd *o, const char *vrf)
{
    return !strcmp(vrf, "default") || sset_contains(&o->vrfs, vrf);
}

/* Sets '*row' to the view of IDL row 'route' (orchd-route-row.h). */
static void
route_row_from_idl(const struct fibrec_route *route,
                   struct orchd_route_row *row)
{
    row->uuid = route->header_.uuid;
    row->vrf = route->vrf;
    row->prefix = route->prefix;
    row->blackhole = route->blackhole;
    row->has_group = route->n_nexthop_group > 0;
    row->group = row->has_group ? *route->nexthop_group : 0;
    row->nh_keys = (const char *const *) route->key_nexthops;
    row->nh_weights = route->value_nexthops;
    row->n_nexthops = route->n_nexthops;
    row->protocol = route->protocol;
    row->distance = route->n_distance ? *route->distance : 0;
    row->metric = route->n_metric ? *route->metric : 0;
}

/* Returns next-hop group 'id' from the replica, or NULL. */
static const struct fibrec_nexthop_group *
find_group(const struct orchd *o, int64_t id)
{
    const struct fibrec_nexthop_group *nhg;
    struct fibrec_nexthop_group *target;

    target = fibrec_nexthop_group_index_init_row(o->nhg_by_id);
    fibrec_nexthop_group_index_set_id(target, id);
    nhg = fibrec_nexthop_group_index_find(o->nhg_by_id, target);
    fibrec_nexthop_group_index_destroy_row(target);
    return nhg;
}

/* Returns the entry of a route through group 'id' to 'prefix' in 'vrf',
 * with the group's members, or with none and '*waiting' true if the group
 * is unknown or has no member. */
static struct orchd_entry *
group_entry(const struct orchd *o, const char *vrf,
            const struct fib_prefix *prefix, int64_t id, bool *waiting)
{
    const struct fibrec_nexthop_group *nhg = find_group(o, id);

    *waiting = !nhg || !nhg->n_members;
    return orchd_entry_create(vrf, prefix, ORCHD_ACTION_FORWARD,
                              *waiting ? NULL
                                       : (const char **) nhg->key_members,
                              *waiting ? NULL : nhg->value_members,
                              *waiting ? 0 : nhg->n_members);
}

/* Returns the SAI entry of 'row', whether its VRF is known or not: for a
 * route through a next-hop group that is unknown or empty, one with no
 * next hop and '*waiting' true.  A prefix that is not canonical text is
 * refused rather than read leniently ("10.1.2.3/16" would become the
 * entry of the row for "10.1.0.0/16"): then NULL, with '*error' saying
 * why (for the caller to free).  Next hops are syncd's to parse
 * (syncd-nexthop-key.h): one it cannot read fails the whole entry, and the
 * failure comes back into Route.status.  The caller owns the reference. */
static struct orchd_entry *
build_entry(const struct orchd *o, const struct orchd_route_row *row,
            bool *waiting, char **error)
{
    struct fib_prefix prefix;
    struct orchd_entry *e;
    char *msg;

    *waiting = false;
    *error = NULL;
    msg = fib_prefix_parse_strict(row->prefix, &prefix);
    if (msg) {
        *error = xasprintf("bad prefix (%s)", msg);
        free(msg);
        return NULL;
    }
    if (row->blackhole) {
        e = orchd_entry_create(row->vrf, &prefix, ORCHD_ACTION_DROP,
                               NULL, NULL, 0);
    } else if (row->has_group) {
        e = group_entry(o, row->vrf, &prefix, row->group, waiting);
    } else if (row->n_nexthops) {
        e = orchd_entry_create(row->vrf, &prefix, ORCHD_ACTION_FORWARD,
                               (const char **) row->nh_keys, row->nh_weights,
                               row->n_nexthops);
    } else {
        /* No next hop at all: punt to the CPU. */
        e = orchd_entry_create(row->vrf, &prefix, ORCHD_ACTION_TRAP,
                               NULL, NULL, 0);
    }
    e->route_uuid = row->uuid;
    return e;
}

/* Returns the SAI entry that 'row' should program, or NULL if it cannot
 * be programmed yet (its next-hop group is unknown) or is refused: then
 * '*error' is why (for the caller to free) and '*why' the kind of reason:
 * a bad prefix (build_entry()), or a VRF without a Vrf row, refused
 * rather than given a virtual router of its own.  The caller owns the
 * reference. */
static struct orchd_entry *
resolve_route(struct orchd *o, const struct orchd_route_row *row,
              enum orchd_refusal *why, char **error)
{
    struct orchd_entry *e;
    bool waiting;

    e = build_entry(o, row, &waiting, error);
    if (!e) {
        *why = ORCHD_REFUSE_BAD_PREFIX;
        return NULL;
    } else if (!vrf_is_known(o, row->vrf)) {
        orchd_entry_unref(e);
        *why = ORCHD_REFUSE_UNKNOWN_VRF;
        *error = xasprintf("unknown VRF \"%s\" (no Vrf row)", row->vrf);
        return NULL;
    } else if (waiting) {
        orchd_entry_unref(e);
        return NULL;
    }
    return e;
}

/* orchd_show_resolve_func for fib/show. */
static struct orchd_entry *
show_resolve(void *o_, const struct fibrec_route *route)
{
    struct orchd_route_row row;
    enum orchd_refusal why;
    struct orchd_entry *e;
    char *error;

    route_row_from_idl(route, &row);
    e = resolve_route(o_, &row, &why, &error);
    free(error);
    return e;
}

/* Computes the Asic_Route key of 'row'; false if its prefix is bad. */
static bool
route_asic_key(const struct orchd_route_row *row, struct uuid *key)
{
    struct fib_prefix prefix;
    char *error = fib_prefix_parse_strict(row->prefix, &prefix);

    if (error) {
        free(error);
        return false;
    }
    orchd_entry_asic_uuid(row->vrf, &prefix, key);
    return true;
}

/* What process_route() did with a route. */
enum route_outcome {
    ROUTE_SENT,                 /* To the worker. */
    ROUTE_WAITING,              /* For its next-hop group. */
    ROUTE_REFUSED,              /* Refused, with an error in its status. */
};

/* Sends the desired state of 'row' to the worker.  Returns what it did,
 * with the entry's Asic_Route key in '*key' if the route was sent and
 * 'key' is nonnull.  A refused route is never half programmed: whatever
 * entry it had goes, and its status says why. */
static enum route_outcome
process_route(struct orchd *o, const struct orchd_route_row *row,
              struct uuid *key)
{
    enum orchd_refusal why;
    struct orchd_entry *e;
    struct uuid old_key;
    char *error;

    o->n_updates++;
    COVERAGE_INC(orchd_route_update);
    e = resolve_route(o, row, &why, &error);
    if (e) {
        if (key) {
            *key = e->asic_uuid;
        }
        orchd_status_accept(o->status, &row->uuid);
        orchd_worker_set(o->worker, e);
        return ROUTE_SENT;
    } else if (error) {
        if (why == ORCHD_REFUSE_BAD_PREFIX) {
            o->n_bad++;
            COVERAGE_INC(orchd_route_bad);
        } else if (route_asic_key(row, &old_key)) {
            /* Its VRF went: so does the entry it may have had. */
            orchd_worker_del(o->worker, &old_key);
        }
        orchd_status_refuse(o->status, &row->uuid, why, error);
        return ROUTE_REFUSED;
    } else {
        /* Programmed again once its group arrives (process_nhg_users());
         * no longer refused, if it was. */
        orchd_status_accept(o->status, &row->uuid);
        o->n_unresolved++;
        COVERAGE_INC(orchd_route_unresolved);
        return ROUTE_WAITING;
    }
}

/* process_route() of IDL row 'route'. */
static enum route_outcome
process_idl_route(struct orchd *o, const struct fibrec_route *route,
                  struct uuid *key)
{
    struct orchd_route_row row;

    route_row_from_idl(route, &row);
    return process_route(o, &row, key);
}

/* ---- Routes without a replica (--routes-from-file) ---------------------*/

/* Sends route 'r' of the table to the worker, as process_route() does a
 * row. */
static enum route_outcome
submit_route(struct orchd *o, const struct orchd_route *r)
{
    o->n_updates++;
    COVERAGE_INC(orchd_route_update);
    if (!vrf_is_known(o, r->entry->vrf)) {
        orchd_worker_del(o->worker, &r->entry->asic_uuid);
        orchd_status_refuse(o->status, &r->uuid, ORCHD_REFUSE_UNKNOWN_VRF,
                            xasprintf("unknown VRF \"%s\" (no Vrf row)",
                                      r->entry->vrf));
        return ROUTE_REFUSED;
    }
    orchd_status_accept(o->status, &r->uuid);
    if (r->waiting) {
        o->n_unresolved++;
        COVERAGE_INC(orchd_route_unresolved);
        return ROUTE_WAITING;
    }
    orchd_worker_set(o->worker, orchd_entry_ref(r->entry));
    return ROUTE_SENT;
}

/* Removes route 'r', whose row is gone, and its entry. */
static void
delete_route(struct orchd *o, struct orchd_route *r)
{
    o->n_deletes++;
    COVERAGE_INC(orchd_route_delete);
    orchd_status_forget(o->status, &r->uuid);
    orchd_worker_del(o->worker, &r->entry->asic_uuid);
    orchd_route_table_remove(&o->routes, r);
}

/* Takes in 'row', inserted, modified or read, into the table and the
 * worker.  A row read again unchanged (orchd-route-monitor.h) changes
 * nothing.  If 'share', a route whose entry is programmed as it is takes
 * that entry rather than a copy: at start, the worker holds one for each
 * row of Asic_Route read, named by the Route row fpmsyncd names the route
 * with (seed_row()), so that the two reads do not hold two copies. */
static void
set_route_row(struct orchd *o, const struct orchd_route_row *row,
              bool share)
{
    struct orchd_route *r = orchd_route_table_find(&o->routes, &row->uuid);
    int64_t group = row->has_group ? row->group : 0;
    struct orchd_entry *e;
    bool waiting;
    char *error;

    e = build_entry(o, row, &waiting, &error);
    if (!e) {
        o->n_updates++;
        o->n_bad++;
        COVERAGE_INC(orchd_route_bad);
        if (r) {
            delete_route(o, r);
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
            r->generation = o->routes.generation;
            orchd_route_table_set_origin(&o->routes, r, row->protocol,
                                         row->distance, row->metric);
            orchd_entry_unref(e);
            return;
        } else if (!same_key) {
            /* Its VRF or prefix changed in place: the old entry goes. */
            orchd_worker_del(o->worker, &r->entry->asic_uuid);
        }
    }
    r = orchd_route_table_set(&o->routes, &row->uuid, e, group, waiting);
    orchd_route_table_set_origin(&o->routes, r, row->protocol, row->distance,
                                 row->metric);
    submit_route(o, r);
}

/* orchd_route_monitor_cb. */
static void
route_monitor_cb(void *o_, const struct uuid *uuid,
                 const struct orchd_route_row *row)
{
    struct orchd *o = o_;

    if (row) {
        set_route_row(o, row, false);
    } else {
        struct orchd_route *r = orchd_route_table_find(&o->routes, uuid);

        orchd_status_forget(o->status, uuid);
        if (r) {
            delete_route(o, r);
        }
    }
}

/* Resolves again the routes of the table that use next-hop group 'id'. */
static void
process_group_users(struct orchd *o, int64_t id)
{
    struct orchd_route *r;

    ORCHD_ROUTE_TABLE_FOR_EACH_USER (r, &o->routes, id) {
        struct orchd_entry *e;
        bool waiting;

        e = group_entry(o, r->entry->vrf, &r->entry->prefix, id, &waiting);
        e->route_uuid = r->uuid;
        if (waiting == r->waiting && orchd_entry_same_content(e, r->entry)) {
            orchd_entry_unref(e);
            continue;
        }
        orchd_route_table_set(&o->routes, &r->uuid, e, id, waiting);
        submit_route(o, r);
    }
}

/* Re-resolves the routes that use next-hop group 'id', except those
 * deleted (processed as such). */
static void
process_nhg_users(struct orchd *o, int64_t id)
{
    const struct fibrec_route *const *users;
    size_t n;

    if (o->rm) {
        process_group_users(o, id);
        return;
    }
    users = route_index_nhg_users(o->ri, id, &n);
    for (size_t i = 0; i < n; i++) {
        if (users[i]->header_.old_datum) {
            process_idl_route(o, users[i], NULL);
        }
    }
}

/* ---- Changes from the database -----------------------------------------*/

/* Does a tracked change to 'route' touch what it resolves to?  (A row
 * whose VRF or prefix is changed in place is processed under its new
 * key; the entry of the old key, which the replica no longer knows,
 * stays until orchd restarts.  fpmsyncd never does that: a row's UUID
 * comes from its VRF and prefix.) */
static bool
route_changed(const struct fibrec_route *route)
{
    return (fibrec_route_is_new(route)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_NEXTHOPS)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_NEXTHOP_GROUP)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_BLACKHOLE)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_PREFIX)
            || fibrec_route_is_updated(route, FIBREC_ROUTE_COL_VRF));
}

/* If a Vrf row changed, if 'force' (after a reload, which reports no
 * deleted row), or before the initial sync (whose tracked changes
 * the start-up loop clears), reads the VRF names again into 'o->vrfs'
 * and, once synced, processes again the routes whose VRF came (refused
 * until then) or went (refused from now on), except those that changed
 * themselves, which process_changes() processes. */
static void
process_vrfs(struct orchd *o, bool force)
{
    struct sset names = SSET_INITIALIZER(&names);
    struct sset changed = SSET_INITIALIZER(&changed);
    const struct fibrec_route *route;
    const struct fibrec_vrf *vrf;
    const char *name;

    if (o->synced && !force && !fibrec_vrf_track_get_first(o->idl)) {
        return;
    }
    FIBREC_VRF_FOR_EACH (vrf, o->idl) {
        sset_add(&names, vrf->name);
    }
    SSET_FOR_EACH (name, &names) {
        if (!sset_contains(&o->vrfs, name) && strcmp(name, "default")) {
            sset_add(&changed, name);
        }
    }
    SSET_FOR_EACH (name, &o->vrfs) {
        if (!sset_contains(&names, name) && strcmp(name, "default")) {
            sset_add(&changed, name);
        }
    }
    sset_swap(&o->vrfs, &names);
    sset_destroy(&names);

    if (o->synced && !sset_is_empty(&changed) && o->rm) {
        struct orchd_route *r;

        HMAP_FOR_EACH (r, node, &o->routes.routes) {
            if (sset_contains(&changed, r->entry->vrf)) {
                submit_route(o, r);
            }
        }
    } else if (o->synced && !sset_is_empty(&changed)) {
        FIBREC_ROUTE_FOR_EACH (route, o->idl) {
            if (sset_contains(&changed, route->vrf)
                && !route_changed(route)) {
                process_idl_route(o, route, NULL);
            }
        }
    }
    sset_destroy(&changed);
}

/* orchd_asic_ack_cb: passes syncd's acknowledgement on to the worker
 * (which ignores a stale one). */
static void
asic_ack(void *o_, const struct uuid *uuid, int64_t applied_seq, bool ok,
         const char *error)
{
    struct orchd *o = o_;

    if (o->worker) {
        orchd_worker_ack(o->worker, uuid, applied_seq, ok, error);
    }
}

/* orchd_asic_oldest_cb: where a read of missed acknowledgements may
 * begin. */
static int64_t
asic_oldest_unacked(void *o_)
{
    struct orchd *o = o_;

    return o->worker ? orchd_worker_oldest_unacked_seq(o->worker) : 0;
}

/* Sends the worker what changed in the replica since the last call:
 * route updates and deletions, then the routes of
 * the next-hop groups that changed (none of those on the northbound fast
 * path, where routes come from fpmsyncd: what the replica of Route and
 * Nexthop_Group reports then is only its being dropped). */
static void
process_changes(struct orchd *o)
{
    const struct fibrec_nexthop_group *nhg;
    const struct fibrec_route *route;
    size_t n = 0;

    perf_timer_start(o->drain_timer);

    /* VRFs before the routes of the same transaction. */
    process_vrfs(o, false);
    FIBREC_ROUTE_FOR_EACH_TRACKED (route, o->idl) {
        if (o->nb) {
            break;
        } else if (fibrec_route_is_deleted(route)) {
            struct orchd_route_row row;
            struct uuid key;

            orchd_status_forget(o->status, &route->header_.uuid);
            route_row_from_idl(route, &row);
            if (route_asic_key(&row, &key)) {
                o->n_deletes++;
                COVERAGE_INC(orchd_route_delete);
                orchd_worker_del(o->worker, &key);
            }
        } else if (route_changed(route)) {
            process_idl_route(o, route, NULL);
        }
        n++;
    }

    FIBREC_NEXTHOP_GROUP_FOR_EACH_TRACKED (nhg, o->idl) {
        if (o->nb) {
            break;
        } else if (!fibrec_nexthop_group_is_deleted(nhg)) {
            process_nhg_users(o, nhg->id);
        }
        n++;
    }

    ovsdb_idl_track_clear(o->idl);
    perf_timer_inc(o->drain_timer, n);
    perf_timer_pause(o->drain_timer);
}

/* Hash set of UUIDs, for the initial reconciliation. */
struct uuid_node {
    struct hmap_node node;      /* In a set, by uuid_hash(). */
    struct uuid uuid;           /* Member. */
};

/* Returns true if 'set' of struct uuid_node contains 'u'. */
static bool
uuid_set_contains(const struct hmap *set, const struct uuid *u)
{
    const struct uuid_node *n;

    HMAP_FOR_EACH_WITH_HASH (n, node, uuid_hash(u), set) {
        if (uuid_equals(&n->uuid, u)) {
            return true;
        }
    }
    return false;
}

/* Records one Asic_Route row found at start, if it is one of ours: the
 * worker then knows it is programmed (or not), and on the northbound fast
 * path the first resync must name its route or it is removed.  Returns
 * true if it was seeded. */
static bool
seed_row(struct orchd *o, const struct orchd_asic_row *ar)
{
    enum orchd_action action;
    struct fib_prefix prefix;
    struct orchd_entry *e;
    char *error = fib_prefix_parse(ar->prefix, &prefix);

    if (error || !orchd_action_from_string(ar->packet_action, &action)) {
        free(error);
        return false;
    }
    e = orchd_entry_create(ar->vrf, &prefix, action, ar->nh_keys,
                           ar->nh_weights, ar->n_nexthops);
    if (!uuid_equals(&e->asic_uuid, &ar->uuid)) {
        /* Not one of ours (or from another naming scheme). */
        orchd_entry_unref(e);
        return false;
    }
    /* The Route row that fpmsyncd names this route with, for
     * set_route_row(). */
    route_key_route_uuid(ar->vrf, &prefix, &e->route_uuid);
    orchd_worker_seed(o->worker, e,
                      ar->state && !strcmp(ar->state, "programmed")
                      && ar->applied_seq == ar->seq, ar->seq);
    return true;
}

/* Adds 'u' to 'set' of struct uuid_node. */
static void
uuid_set_add(struct hmap *set, const struct uuid *u)
{
    struct uuid_node *un = xmalloc(sizeof *un);

    un->uuid = *u;
    hmap_insert(set, &un->node, uuid_hash(u));
}

/* Empties 'set' of struct uuid_node. */
static void
uuid_set_clear(struct hmap *set)
{
    struct uuid_node *un;

    HMAP_FOR_EACH_POP (un, node, set) {
        free(un);
    }
}

/* orchd's start-up read of its instance's Asic_Route rows, streamed
 * from selects of seq slices (orchd-asic-read.h; orchd keeps no replica
 * of them), each row seeding the worker.  It runs beside the IDL's wait
 * for its first copy of the database: ovsdb-server composes the slices
 * while orchd takes in the replica.  A read that fails is started again
 * after a second (seeding a row twice does no harm). */
struct seed {
    struct orchd *o;            /* Whose worker. */
    struct orchd_asic_read *read; /* The read under way, or NULL. */
    size_t n_seeded;            /* Rows seeded. */
    bool keep_rows;             /* Keep the UUIDs of the rows read? */
    struct hmap rows;           /* If 'keep_rows', "struct uuid_node"s. */
    long long int start;        /* When the first read began, or 0. */
    long long int retry_at;     /* When to start again after a failure. */
    bool file_failed;           /* --asic-from-file could not be read:
                                 * the selects instead. */
    bool done;                  /* Finished? */
};

/* orchd_asic_read_cb. */
static void
seed_read_row(void *seed_, const struct orchd_asic_row *ar)
{
    struct seed *seed = seed_;

    seed->n_seeded += seed_row(seed->o, ar);
    if (seed->keep_rows) {
        uuid_set_add(&seed->rows, &ar->uuid);
    }
}

/* Initializes 'seed' for 'o', keeping the UUIDs of the rows read if
 * 'keep_rows' (for the orphan check that the northbound OVSDB path
 * makes).  Reading begins at the first seed_run(). */
static void
seed_init(struct seed *seed, struct orchd *o, bool keep_rows)
{
    memset(seed, 0, sizeof *seed);
    seed->o = o;
    seed->keep_rows = keep_rows;
    hmap_init(&seed->rows);
}

static bool seed_from_file(struct seed *);

/* Reads on; returns true once every row has been read. */
static bool
seed_run(struct seed *seed)
{
    enum ovsdb_select_reader_state state;
    struct orchd_asic_read *r;

    if (seed->done) {
        return true;
    }
    if (asic_file && !seed->file_failed) {
        seed->done = seed_from_file(seed);
        seed->file_failed = !seed->done;
        if (seed->done) {
            return true;
        }
    }
    if (!seed->read) {
        if (time_msec() < seed->retry_at) {
            return false;
        }
        if (!seed->start) {
            seed->start = time_msec();
        }
        seed->read = orchd_asic_read_create(db_remote, instance,
                                            asic_read_slice, seed_read_row,
                                            seed);
    }
    r = seed->read;
    state = orchd_asic_read_run(r);
    if (state == OVSDB_SELECT_READER_DONE) {
        VLOG_INFO("Asic_Route read: %"PRIuSIZE" rows in %lld ms "
                  "(%"PRIuSIZE" unreadable), %"PRIuSIZE" slices of "
                  "%"PRId64" seqs (at most %"PRIuSIZE" rows in one), "
                  "%"PRIuSIZE" probes",
                  orchd_asic_read_n_rows(r), time_msec() - seed->start,
                  orchd_asic_read_n_bad(r), orchd_asic_read_n_slices(r),
                  asic_read_slice, orchd_asic_read_max_slice_rows(r),
                  orchd_asic_read_n_probes(r));
        seed->done = true;
    } else if (state == OVSDB_SELECT_READER_FAILED) {
        VLOG_WARN("%s: reading Asic_Route failed (%s); trying again",
                  db_remote, orchd_asic_read_error(r));
        uuid_set_clear(&seed->rows);
        seed->retry_at = time_msec() + 1000;
    } else {
        return false;
    }
    orchd_asic_read_destroy(r);
    seed->read = NULL;
    return seed->done;
}

/* Arranges for poll_block() to wake when seed_run() has work to do. */
static void
seed_wait(const struct seed *seed)
{
    if (seed->read) {
        orchd_asic_read_wait(seed->read);
    } else if (!seed->done) {
        poll_timer_wait_until(seed->retry_at);
    }
}

/* Frees what 'seed' holds. */
static void
seed_destroy(struct seed *seed)
{
    orchd_asic_read_destroy(seed->read);
    uuid_set_clear(&seed->rows);
    hmap_destroy(&seed->rows);
}

/* What a read of the database file calls back with. */
struct file_read {
    struct orchd *o;            /* Whose table and worker. */
    struct seed *seed;          /* Seeded with Asic_Route's rows, at start
                                 * only; else NULL. */
};

/* orchd_route_file_route_cb. */
static void
file_route(void *fr_, const struct orchd_route_row *row)
{
    struct file_read *fr = fr_;

    set_route_row(fr->o, row, true);
}

/* orchd_route_file_asic_cb. */
static void
file_asic(void *fr_, const struct orchd_asic_row *ar)
{
    struct file_read *fr = fr_;

    seed_read_row(fr->seed, ar);
}

/* Reads the rows from --asic-from-file, in one go: a few seconds of
 * orchd's CPU at a million rows, against some 20 s of ovsdb-server
 * composing selects while it also composes orchd's Route replica.
 * Returns false, having seeded nothing, if the file could not be read. */
static bool
seed_from_file(struct seed *seed)
{
    struct file_read fr = { .o = seed->o, .seed = seed };
    struct orchd_route_file_stats stats;
    char *error;

    error = orchd_route_file_read(asic_file, instance, NULL, file_asic, &fr,
                                  &stats);
    if (error) {
        VLOG_WARN("%s; reading Asic_Route from %s instead", error,
                  db_remote);
        free(error);
        uuid_set_clear(&seed->rows);
        return false;
    }
    VLOG_INFO("%s: %"PRIuSIZE" Asic_Route rows read in %lld ms "
              "(%"PRIuSIZE" unreadable)", asic_file, stats.asic_rows,
              stats.ms, stats.bad_rows);
    return true;
}

/* Without a Route replica: reads every Route row from the database file
 * into the table and the worker, and removes the routes of the table that
 * the file no longer has (orchd-route-monitor.h).  At start ('seed'
 * nonnull) also seeds the worker with this instance's Asic_Route rows,
 * before any route.  Returns false, having changed nothing, if the file
 * could not be read: the caller tries again a second later.  The caller
 * then tells the monitor the read is done. */
static bool
read_routes_file(struct orchd *o, struct seed *seed)
{
    struct file_read fr = { .o = o, .seed = seed };
    struct orchd_route *r;
    size_t n_removed = 0;
    char *error;

    o->routes.generation++;
    error = orchd_route_file_read(routes_file, instance, file_route,
                                  seed ? file_asic : NULL, &fr,
                                  &o->last_read);
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

        VLOG_WARN_RL(&rl, "reading Route from the database file failed "
                     "(%s); trying again in a second", error);
        free(error);
        o->read_retry = time_msec() + 1000;
        return false;
    }
    HMAP_FOR_EACH_SAFE (r, node, &o->routes.routes) {
        if (r->generation != o->routes.generation) {
            delete_route(o, r);
            n_removed++;
        }
    }
    if (seed) {
        seed->n_seeded = o->last_read.asic_rows;
        seed->done = true;
    }
    o->n_reads++;
    VLOG_INFO("%s: %"PRIuSIZE" Route rows and %"PRIuSIZE" Asic_Route rows "
              "read in %lld ms (%"PRIuSIZE" unreadable), %"PRIuSIZE
              " routes removed", routes_file, o->last_read.routes,
              o->last_read.asic_rows, o->last_read.ms,
              o->last_read.bad_rows, n_removed);
    return true;
}

/* Reads the Route rows again when the monitor of their changes began
 * again (the server restarted, say). */
static void
reread_routes(struct orchd *o)
{
    if (orchd_route_monitor_needs_read(o->rm)
        && time_msec() >= o->read_retry
        && read_routes_file(o, NULL)) {
        orchd_route_monitor_read_done(o->rm);
    }
}

/* Reads the Global row through a replica of Global alone, serving
 * 'unixctl' (its "exit" included) meanwhile, and fixes the paths from it
 * and the command line: orchd's replica can then ask for the large tables
 * those paths need and no other (orchd-replica.h). */
static void
choose_paths(struct orchd *o, struct unixctl_server *unixctl)
{
    struct ovsdb_idl *idl = ovsdb_idl_create(db_remote, &fibrec_idl_class,
                                             false, true);

    ovsdb_idl_set_probe_interval(idl, 0);
    orchd_replica_register_global(idl);
    /* Whether the server's schema has Write_Mark is known only for a table
     * monitored (OVS's in_server_schema): one column of its few rows. */
    ovsdb_idl_add_column(idl, &fibrec_write_mark_col_writer);
    while (!o->exiting) {
        ovsdb_idl_run(idl);
        unixctl_server_run(unixctl);
        if (ovsdb_idl_has_ever_connected(idl)) {
            break;
        }
        ovsdb_idl_wait(idl);
        unixctl_server_wait(unixctl);
        poll_block();
    }
    read_global(fibrec_global_first(idl));
    /* A schema before 1.5.0 has no Write_Mark table: a mark in a bulk's
     * transaction would have the server refuse the whole bulk. */
    o->db_has_marks = ovsdb_idl_server_has_table(idl,
                                                 &fibrec_table_write_mark);
    ovsdb_idl_destroy(idl);
    o->nb_zmq = features[F_NORTHBOUND_ZMQ].value;
    orchd_southbound_choose();
}

/* Removes the Asic_Route row 'uuid' if it is not in 'wanted'.  Returns
 * true if it was removed. */
static bool
remove_unwanted(struct orchd *o, const struct hmap *wanted,
                const struct uuid *uuid)
{
    if (uuid_set_contains(wanted, uuid)) {
        return false;
    }
    orchd_worker_del(o->worker, uuid);
    return true;
}

/* Ends the initial sync: removes the Asic_Route rows read at start
 * ('seed''s, kept on the northbound OVSDB path only) that no route wants
 * (not in 'wanted', which this empties), and logs what it found, with
 * 'n_routes' routes processed. */
static void
finish_initial_sync(struct orchd *o, struct seed *seed, struct hmap *wanted,
                    uint64_t n_routes)
{
    struct uuid_node *un;
    size_t n_orphans = 0;

    HMAP_FOR_EACH (un, node, &seed->rows) {
        n_orphans += remove_unwanted(o, wanted, &un->uuid);
    }
    uuid_set_clear(wanted);
    hmap_destroy(wanted);
    ovsdb_idl_track_clear(o->idl);
    VLOG_INFO("initial sync: %"PRIuSIZE" entries already in Asic_Route, "
              "%"PRIu64" routes, %"PRIuSIZE" stale entries to remove",
              seed->n_seeded, n_routes, n_orphans);
    o->synced = true;
}

/* First contact with the database: learns what Asic_Route already holds,
 * then programs only what differs, so a restart neither removes nor re-adds
 * a route that is already right.  (On the northbound fast path, fpmsyncd's
 * resync says what differs and what is stale.) */
static void
initial_sync(struct orchd *o, struct unixctl_server *unixctl,
             struct seed *seed)
{
    const struct fibrec_route *route;
    struct hmap wanted = HMAP_INITIALIZER(&wanted);

    /* The read of Asic_Route began beside the IDL's first copy; finish
     * it, serving 'unixctl' meanwhile. */
    while (!seed_run(seed) && !o->exiting) {
        unixctl_server_run(unixctl);
        seed_wait(seed);
        unixctl_server_wait(unixctl);
        poll_block();
    }

    process_vrfs(o, false);
    FIBREC_ROUTE_FOR_EACH (route, o->idl) {
        struct orchd_route_row row;
        enum route_outcome outcome;
        struct uuid key;

        /* The key comes from the resolved entry; only a route that cannot
         * be resolved yet needs it computed on its own.  A refused route
         * wants no entry: one left from before is stale. */
        if (o->nb) {
            break;
        }
        route_row_from_idl(route, &row);
        outcome = process_route(o, &row, &key);
        if (outcome == ROUTE_SENT
            || (outcome == ROUTE_WAITING && route_asic_key(&row, &key))) {
            uuid_set_add(&wanted, &key);
        }
    }

    finish_initial_sync(o, seed, &wanted, o->n_updates);
}

/* initial_sync() without a Route replica: the routes and this instance's
 * Asic_Route rows come from the database file, read once the monitor of
 * Route's changes and of syncd's acknowledgements have begun. */
static void
initial_sync_from_file(struct orchd *o, struct unixctl_server *unixctl,
                       struct seed *seed)
{
    struct hmap wanted = HMAP_INITIALIZER(&wanted);
    const struct orchd_route *r;

    process_vrfs(o, false);
    while (!read_routes_file(o, seed)) {
        while (time_msec() < o->read_retry && !o->exiting) {
            unixctl_server_run(unixctl);
            unixctl_server_wait(unixctl);
            poll_timer_wait_until(o->read_retry);
            poll_block();
        }
        if (o->exiting) {
            return;
        }
    }

    /* A route refused for its VRF wants no entry: one left is stale. */
    HMAP_FOR_EACH (r, node, &o->routes.routes) {
        if (vrf_is_known(o, r->entry->vrf)) {
            uuid_set_add(&wanted, &r->entry->asic_uuid);
        }
    }
    finish_initial_sync(o, seed, &wanted,
                        orchd_route_table_count(&o->routes));
    /* The changes received meanwhile, newer than the file. */
    orchd_route_monitor_read_done(o->rm);
}

/* ---- Reconciliation after a lost connection ----------------------------*/

/* The IDL may have loaded its replica again from scratch, which reports no
 * deleted row (orchd-replica.h).  So once the replica is whole again,
 * every route goes through process_route() as a live change would, in a
 * new generation of the worker's bulker, and the entries no route named
 * are swept: a route deleted while the connection was down leaves no
 * stale entry.  A route waiting for its next-hop group keeps what it had.
 * The VRF names are read again first: a Vrf row deleted meanwhile is
 * reported by no one either.  Without a Route replica (--routes-from-file)
 * the route monitor's own read does the same for routes
 * (orchd-route-monitor.h); the VRFs are still read here. */
static void
reconcile_replica(struct orchd *o)
{
    const struct fibrec_route *route;

    process_vrfs(o, true);
    if (o->rm || o->nb) {
        return;
    }
    orchd_worker_new_generation(o->worker);
    FIBREC_ROUTE_FOR_EACH (route, o->idl) {
        struct orchd_route_row row;
        struct uuid key;

        route_row_from_idl(route, &row);
        if (process_route(o, &row, NULL) == ROUTE_WAITING
            && route_asic_key(&row, &key)) {
            orchd_worker_keep(o->worker, &key);
        }
    }
    orchd_worker_sweep(o->worker, "reconciliation after a lost connection");
}

/* ---- Route.status write-back -------------------------------------------*/

/* Hands the worker's results to whoever writes Route.status: orchd's own
 * write-back (orchd-status.h), or, on the northbound fast path, where
 * orchd has no Route replica, fpmsyncd through RESULTS frames. */
static void
status_run(struct orchd *o)
{
    struct ovs_list results = OVS_LIST_INITIALIZER(&results);

    orchd_worker_take_results(o->worker, &results);
    if (o->nb) {
        orchd_northbound_results(o->nb, &results,
                                 features[F_FIB_SUPPRESSION].value);
        return;
    }
    orchd_status_add_results(o->status, &results);
    if (o->widening->done) {
        /* While Route is replicated again in steps, a write to a row still
         * to come back would be dropped (orchd-replica.h). */
        orchd_status_run(o->status);
    }
}

/* ---- unixctl commands --------------------------------------------------*/

/* "exit": makes main() drain the worker and exit. */
static void
orchd_unixctl_exit(struct unixctl_conn *conn, int argc OVS_UNUSED,
                   const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;

    o->exiting = true;
    /* The loops test 'exiting' after poll_block(): without a wake-up, a
     * quiet orchd would wait for its next event to exit. */
    poll_immediate_wake();
    unixctl_command_reply(conn, NULL);
}

/* Replies with an error and returns false if orchd has not read the
 * database yet: until then there is no worker to ask. */
static bool
orchd_ready(struct orchd *o, struct unixctl_conn *conn)
{
    if (!o->worker || !o->synced) {
        unixctl_command_reply_error(conn, "orchd is still reading the "
                                    "database; try again");
        return false;
    }
    return true;
}

/* cache/verify's comparison of one route's resolution 'want' (taken)
 * with the read cache: adds its key to 'wanted' and a line to 's' for a
 * difference, counted in '*n_diffs'. */
static void
verify_route(struct orchd *o, struct orchd_entry *want, struct hmap *wanted,
             struct ds *s, size_t *n_diffs)
{
    char prefix[FIB_PREFIX_STRLEN];
    struct orchd_entry *have;

    uuid_set_add(wanted, &want->asic_uuid);
    have = orchd_cache_get(o->cache, &want->asic_uuid);
    if (!have) {
        ++*n_diffs;
        ds_put_format(s, "missing from cache: %s vrf %s\n",
                      orchd_entry_prefix(want, prefix), want->vrf);
    } else if (!orchd_entry_same_content(have, want)) {
        ++*n_diffs;
        ds_put_format(s, "different in cache: %s vrf %s: cache has \"",
                      orchd_entry_prefix(want, prefix), want->vrf);
        orchd_entry_format(have, s);
        ds_put_cstr(s, "\", Route wants \"");
        orchd_entry_format(want, s);
        ds_put_cstr(s, "\"\n");
    }
    orchd_entry_unref(have);
    orchd_entry_unref(want);
}

/* Compares the read cache with OVSDB Route (resolved as orchd would: from
 * the replica, or the route table without one), and reports every
 * difference.  (orchd keeps no replica of Asic_Route: route-check
 * compares it.  Without a replica, a row whose prefix orchd could not
 * parse is in no table: its Route.status says why, and route-check
 * reports it.) */
static void
orchd_unixctl_cache_verify(struct unixctl_conn *conn, int argc OVS_UNUSED,
                           const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;
    struct hmap wanted = HMAP_INITIALIZER(&wanted);
    size_t n_routes = 0, n_diffs = 0, n_cached;
    struct orchd_entry **v;
    struct uuid_node *un;

    if (!orchd_ready(o, conn)) {
        return;
    } else if (o->nb) {
        unixctl_command_reply_error(conn, "no Route replica on the "
                                    "northbound ZeroMQ path: use "
                                    "route-check");
        return;
    }

#define DIFF(...) (n_diffs++, ds_put_format(&s, __VA_ARGS__))

    orchd_worker_drain(o->worker);
    if (o->rm) {
        const struct orchd_route *r;

        HMAP_FOR_EACH (r, node, &o->routes.routes) {
            char prefix[FIB_PREFIX_STRLEN];

            n_routes++;
            orchd_entry_prefix(r->entry, prefix);
            if (!vrf_is_known(o, r->entry->vrf)) {
                DIFF("route %s vrf %s: unknown VRF \"%s\" (no Vrf row)\n",
                     prefix, r->entry->vrf, r->entry->vrf);
            } else if (r->waiting) {
                DIFF("route %s vrf %s: next-hop group unknown\n", prefix,
                     r->entry->vrf);
            } else {
                verify_route(o, orchd_entry_ref(r->entry), &wanted, &s,
                             &n_diffs);
            }
        }
    } else {
        const struct fibrec_route *route;

        FIBREC_ROUTE_FOR_EACH (route, o->idl) {
            struct orchd_entry *want;
            struct orchd_route_row row;
            enum orchd_refusal why;
            char *error;

            route_row_from_idl(route, &row);
            want = resolve_route(o, &row, &why, &error);
            n_routes++;
            if (!want) {
                DIFF("route %s vrf %s: %s\n", route->prefix, route->vrf,
                     error ? error : "next-hop group unknown");
                free(error);
                continue;
            }
            verify_route(o, want, &wanted, &s, &n_diffs);
        }
    }

    v = orchd_cache_snapshot(o->cache, true, &n_cached);
    for (size_t i = 0; i < n_cached; i++) {
        if (!uuid_set_contains(&wanted, &v[i]->asic_uuid)) {
            char prefix[FIB_PREFIX_STRLEN];

            DIFF("extra in cache: %s vrf %s\n",
                 orchd_entry_prefix(v[i], prefix), v[i]->vrf);
        }
    }
    orchd_cache_snapshot_free(v, n_cached);
#undef DIFF
    HMAP_FOR_EACH_POP (un, node, &wanted) {
        free(un);
    }
    hmap_destroy(&wanted);

    ds_put_format(&s, "cache/verify: %"PRIuSIZE" routes, %"PRIuSIZE
                  " in cache, %"PRIuSIZE" difference%s%s\n",
                  n_routes, n_cached, n_diffs, n_diffs == 1 ? "" : "s",
                  n_diffs && !orchd_worker_is_idle(o->worker)
                  ? " (updates still in flight)" : "");
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* How features/show tags where a value came from: terser than
 * setting_source_name()'s words, to keep the table narrow. */
static const char *const feature_source_tags[] = {
    [SETTING_DEFAULT] = "default",
    [SETTING_GLOBAL] = "Global",
    [SETTING_CMDLINE] = "command line",
};

/* "features/show": each tunable, its value and where the value came
 * from. */
static void
orchd_unixctl_features_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                            const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;
    if (!orchd_ready(o, conn)) {
        return;
    }

    for (size_t i = 0; i < N_FEATURES; i++) {
        const struct setting *f = &features[i];

        ds_put_format(&s, "%-24s %-8"PRId64" (%s)\n", f->name, f->value,
                      feature_source_tags[f->source]);
    }
    if (features[F_RING].value != orchd_worker_uses_ring(o->worker)) {
        ds_put_format(&s, "note: ring_thread is %s until orchd restarts\n",
                      orchd_worker_uses_ring(o->worker) ? "on" : "off");
    }
    orchd_northbound_format_path(o->nb, &features[F_NORTHBOUND_ZMQ], &s);
    orchd_southbound_format_features(&s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* "zmq/show": the fast path's channels (northbound, southbound), their
 * queues, and the worker's Asic_Route writer. */
static void
orchd_unixctl_zmq_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (orchd_ready(o, conn)) {
        orchd_northbound_format(o->nb, &s);
        orchd_worker_format_southbound(o->worker, &s);
        orchd_worker_format(o->worker, &s);
        unixctl_command_reply(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

/* "ring/show": the task ring's state and counters. */
static void
orchd_unixctl_ring_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                        const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;
    if (!orchd_ready(o, conn)) {
        return;
    }

    orchd_worker_format_ring(o->worker, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* "orchd/status": the connection, the counters of orchd and of its
 * worker. */
static void
orchd_unixctl_status(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[] OVS_UNUSED, void *o_)
{
    struct orchd *o = o_;
    struct ds s = DS_EMPTY_INITIALIZER;
    if (!orchd_ready(o, conn)) {
        return;
    }

    ds_put_format(&s, "database: %s\n",
                  ovsdb_idl_is_connected(o->idl) ? "connected"
                                                 : "not connected");
    /* Synced: reconciled at start, and holding every Route row (after a
     * lost connection the replica comes back in steps). */
    ds_put_format(&s, "synced: %s, idle: %s\n",
                  (o->synced && o->widening->done
                   && !(o->rm && orchd_route_monitor_needs_read(o->rm)))
                  ? "yes" : "no",
                  orchd_worker_is_idle(o->worker) ? "yes" : "no");
    if (o->widening->routes) {
        orchd_replica_format(o->widening, &s);
    }
    if (o->rm) {
        struct orchd_route_monitor_stats ms;

        orchd_route_monitor_get_stats(o->rm, &ms);
        ds_put_format(&s, "Route: no replica, %"PRIuSIZE" routes; read "
                      "from %s %"PRIu64" time%s (last: %"PRIuSIZE" rows "
                      "in %lld ms)%s; monitor began %"PRIu64" time%s, "
                      "%"PRIu64" changes, %"PRIu64" deletions, %"PRIu64
                      " malformed\n",
                      orchd_route_table_count(&o->routes), routes_file,
                      o->n_reads, o->n_reads == 1 ? "" : "s",
                      o->last_read.routes, o->last_read.ms,
                      orchd_route_monitor_needs_read(o->rm)
                      ? ", reading again" : "",
                      ms.starts, ms.starts == 1 ? "" : "s", ms.changes,
                      ms.deletions, ms.bad_rows);
    }
    ds_put_format(&s, "stale routes removed after a lost connection: %"
                  PRIu64"\n", (o->nb || o->rm ? 0
                               : orchd_worker_n_swept(o->worker)));
    ds_put_format(&s, "route updates: %"PRIu64", deletes: %"PRIu64
                  ", malformed: %"PRIu64", waiting for a group: %"PRIu64
                  "\n", o->n_updates, o->n_deletes, o->n_bad,
                  o->n_unresolved);
    if (o->acks) {
        struct orchd_asic_acks_stats as;

        orchd_asic_acks_get_stats(o->acks, &as);
        ds_put_format(&s, "syncd acks: %"PRIu64" (%"PRIu64" read again), "
                      "other instances' %"PRIu64", monitor restarts %"
                      PRIu64"%s\n", as.acks, as.reread_acks,
                      as.other_instance, as.restarts,
                      as.rereading ? ", reading Asic_Route again" : "");
    }
    orchd_status_format(o->status, &s);
    orchd_worker_format(o->worker, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* ---- Main --------------------------------------------------------------*/

/* The main loop, until "exit": follows Global, feeds the worker the
 * replica's changes, runs the fast path and the commands.  'global_seqno'
 * is the IDL's sequence number when Global was last read. */
static void
run(struct orchd *o, struct unixctl_server *unixctl,
    unsigned int global_seqno)
{
    while (!o->exiting) {
        ovsdb_cs_retry_run_idl(&o->idl_retry, o->idl);
        ovsdb_idl_run(o->idl);
        orchd_replica_follow(o->widening, o->idl);
        if (ovsdb_idl_get_seqno(o->idl) != global_seqno) {
            global_seqno = ovsdb_idl_get_seqno(o->idl);
            follow_global(o);
            process_changes(o);
        }
        if (orchd_replica_reconcile(o->widening, o->idl)) {
            reconcile_replica(o);
        }
        if (o->acks) {
            /* Acknowledgements first: they free room in the window. */
            orchd_asic_acks_run(o->acks);
        }
        if (o->rm) {
            orchd_route_monitor_run(o->rm);
            reread_routes(o);
        }
        orchd_worker_run(o->worker);
        if (o->nb) {
            orchd_northbound_run(o->nb);
        }
        status_run(o);
        idl_ondemand_run(o->idl);
        unixctl_server_run(unixctl);
        if (o->show) {
            orchd_show_run(o->show);
        }
        perf_timer_run(o->drain_timer);

        ovsdb_idl_wait(o->idl);
        ovsdb_cs_retry_wait(&o->idl_retry);
        if (o->acks) {
            orchd_asic_acks_wait(o->acks);
        }
        if (o->rm) {
            orchd_route_monitor_wait(o->rm);
            if (orchd_route_monitor_needs_read(o->rm)) {
                poll_timer_wait_until(o->read_retry);
            }
        }
        orchd_worker_wait(o->worker);
        if (o->nb) {
            orchd_northbound_wait(o->nb);
        }
        if (o->widening->done) {
            orchd_status_wait(o->status);
        }
        perf_timer_wait(o->drain_timer);
        idl_ondemand_wait(o->idl);
        if (o->show) {
            orchd_show_wait(o->show);
        }
        unixctl_server_wait(unixctl);
        poll_block();
    }
}

/* Reads the database, starts the worker, and feeds it changes until
 * "exit"; then drains. */
int
main(int argc, char *argv[])
{
    struct unixctl_server *unixctl;
    struct orchd_bulker_config cfg;
    char *mark_writer;
    struct perf_timer_options popts;
    struct orchd_replica_widening widening;
    struct seed seed;
    struct orchd o;
    unsigned int global_seqno = 0;
    int retval;

    set_program_name(argv[0]);
    service_start(&argc, &argv);
    fatal_ignore_sigpipe();
    parse_options(argc, argv);

    daemonize_start(false);
    if (!unixctl_path) {
        unixctl_path = fibsync_instance_ctl_path("orchd", instance);
    }
    retval = unixctl_server_create(unixctl_path, &unixctl);
    if (retval) {
        exit(EXIT_FAILURE);
    }
    daemonize_complete();

    memset(&o, 0, sizeof o);
    sset_init(&o.vrfs);
    unixctl_command_register("exit", "", 0, 0, orchd_unixctl_exit, &o);
    choose_paths(&o, unixctl);
    o.idl = ovsdb_idl_create(db_remote, &fibrec_idl_class, false, true);
    ovsdb_cs_retry_init(&o.idl_retry, db_remote);
    orchd_route_table_init(&o.routes);
    if (routes_file && !o.nb_zmq) {
        /* No Route replica: the file, then a monitor of the changes. */
        o.rm = orchd_route_monitor_create(db_remote, route_monitor_cb, &o);
        o.status = orchd_status_create_raw(db_remote);
    } else {
        o.status = orchd_status_create(o.idl);
    }
    ovsdb_idl_set_probe_interval(o.idl, 0);
    orchd_replica_register(o.idl,
                           (o.nb_zmq ? ORCHD_REPLICA_SMALL
                            : o.rm ? ORCHD_REPLICA_GROUPS
                            : ORCHD_REPLICA_ROUTES),
                           replica_steps, &widening);
    if (!orchd_southbound_enabled()) {
        o.acks = orchd_asic_acks_create(db_remote, instance, asic_read_slice,
                                        asic_ack, asic_oldest_unacked, &o);
    }
    if (instance) {
        orchd_status_mute(o.status);
    }
    if (o.nb_zmq) {
        /* Route is never replicated: there is nothing to index. */
        use_route_index = false;
    } else if (o.rm) {
        /* Nor here: the table keeps each group's users, and its own
         * (vrf, prefix) index serves "show ip route". */
        if (use_route_index) {
            orchd_route_table_enable_index(&o.routes);
        }
        o.nhg_by_id = ovsdb_idl_index_create1(o.idl,
                                              &fibrec_nexthop_group_col_id);
    } else {
        /* The route index always keeps each next-hop group's users; its
         * ordered indexes serve "show ip route" unless --no-route-index. */
        o.ri = route_index_create_cmp(o.idl, (use_route_index
                                              ? ROUTE_INDEX_CMP_BINARY
                                              : ROUTE_INDEX_CMP_NONE));
        o.nhg_by_id = ovsdb_idl_index_create1(o.idl,
                                              &fibrec_nexthop_group_col_id);
    }
    /* "show ip route" answers from indexes over the replica, or over
     * the route table; the counters it shows in "detail" are fetched on
     * demand. */
    fibrec_ondemand_init(o.idl, db_remote);
    o.cache = orchd_cache_create();
    if (use_route_index) {
        o.show = orchd_show_create(
            (o.rm ? orchd_show_table_create(&o.routes, &o.vrfs, db_remote)
             : orchd_show_idl_create(o.idl, o.ri, show_resolve, &o)),
            o.cache);
    }
    perf_timer_options_init(&popts);
    popts.module = &this_module;
    o.drain_timer = perf_timer_create("DRAIN", &popts);
    perf_timer_register_unixctl();

    orchd_show_register_cache_commands(o.cache);
    unixctl_command_register("cache/verify", "", 0, 0,
                             orchd_unixctl_cache_verify, &o);
    unixctl_command_register("features/show", "", 0, 0,
                             orchd_unixctl_features_show, &o);
    unixctl_command_register("ring/show", "", 0, 0,
                             orchd_unixctl_ring_show, &o);
    unixctl_command_register("zmq/show", "", 0, 0,
                             orchd_unixctl_zmq_show, &o);
    unixctl_command_register("orchd/status", "", 0, 0,
                             orchd_unixctl_status, &o);

    /* The worker, configured from the Global row that choose_paths()
     * read (again below from the replica's, which may be newer): it must
     * exist before the Asic_Route read seeds it. */
    bulker_config(&cfg);
    mark_writer = (o.db_has_marks ? fibsync_instance_name("orchd", instance)
                   : NULL);
    o.worker = orchd_worker_create(db_remote, mark_writer, instance, &cfg,
                                   o.cache);
    free(mark_writer);
    orchd_worker_set_southbound(o.worker, orchd_southbound_choose());
    orchd_worker_want_results(o.worker, features[F_FIB_SUPPRESSION].value);
    if (o.nb_zmq) {
        /* Routes come from fpmsyncd's resync, not from OVSDB: syncd must
         * not sweep until that is complete (orchd-southbound.c). */
        orchd_worker_hold_resync(o.worker);
        if (!nb_endpoint) {
            nb_endpoint = fibsync_instance_endpoint("northbound", instance);
        }
        o.nb = orchd_northbound_create(nb_endpoint, o.worker);
    }

    /* Wait for the first copy of the database, Route's rows widened in
     * steps (orchd-replica.h), reading Asic_Route meanwhile (struct seed):
     * at a million routes ovsdb-server composes the read's slices while
     * orchd takes in its Route replica.  The acknowledgements' monitor
     * must have begun before Asic_Route is read, and is run again only
     * once the read is over (orchd-asic-acks.h). */
    seed_init(&seed, &o, !o.nb_zmq);
    while (!o.exiting) {
        bool acks_ready = !o.acks || orchd_asic_acks_is_ready(o.acks);
        bool rm_ready = true;

        if (o.rm) {
            /* Until it has begun; then it holds what it hears until the
             * file has been read (initial_sync_from_file()). */
            orchd_route_monitor_run(o.rm);
            rm_ready = orchd_route_monitor_needs_read(o.rm);
        }

        ovsdb_idl_run(o.idl);
        /* initial_sync() reads every row, so the changes tracked until
         * then say nothing to anyone; and OVS 3.1's IDL walks every
         * tracked row at each ovsdb_idl_run()
         * (ovsdb_idl_row_destroy_postprocess()): kept through a replica
         * taken in by steps, they made the start quadratic. */
        ovsdb_idl_track_clear(o.idl);
        if (!acks_ready) {
            /* Once the monitor is ready, what it hears waits until the
             * read is over (run() takes it in): an acknowledgement passed
             * on before the read has seeded its row would be lost. */
            orchd_asic_acks_run(o.acks);
            acks_ready = orchd_asic_acks_is_ready(o.acks);
        }
        if (acks_ready && !o.rm) {
            seed_run(&seed);
        }
        unixctl_server_run(unixctl);
        if (orchd_replica_widen(&widening, o.idl) && acks_ready
            && rm_ready) {
            break;
        }
        ovsdb_idl_wait(o.idl);
        if (o.rm && !rm_ready) {
            orchd_route_monitor_wait(o.rm);
        }
        if (!acks_ready) {
            orchd_asic_acks_wait(o.acks);
        } else if (!o.rm) {
            seed_wait(&seed);
        }
        unixctl_server_wait(unixctl);
        poll_block();
    }
    global_seqno = ovsdb_idl_get_seqno(o.idl);
    o.widening = &widening;
    follow_global(&o);
    if (!o.exiting) {
        if (o.rm) {
            initial_sync_from_file(&o, unixctl, &seed);
        } else {
            initial_sync(&o, unixctl, &seed);
        }
    }
    seed_destroy(&seed);
    orchd_worker_start(o.worker, features[F_RING].value,
                       features[F_BATCH].value * 64);

    run(&o, unixctl, global_seqno);

    /* Drain before exit: every queued task runs. */
    orchd_northbound_destroy(o.nb);
    orchd_worker_destroy(o.worker);
    orchd_asic_acks_destroy(o.acks);
    orchd_route_monitor_destroy(o.rm);
    orchd_show_destroy(o.show);     /* Before the table it reads. */
    orchd_route_table_destroy(&o.routes);
    orchd_status_destroy(o.status);
    sset_destroy(&o.vrfs);
    perf_timer_destroy(o.drain_timer);
    orchd_cache_destroy(o.cache);
    fibrec_ondemand_destroy(o.idl);
    ovsdb_idl_destroy(o.idl);
    ovsdb_cs_retry_destroy(&o.idl_retry);
    route_index_destroy(o.ri);
    unixctl_server_destroy(unixctl);
    free(nb_endpoint);
    service_stop();
    return 0;
}

/* Parses the command line: options fix features (see usage()). */
static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_DB = UCHAR_MAX + 1,
        OPT_UNIXCTL,
        OPT_RING,
        OPT_NO_RING,
        OPT_SAI_MODE,
        OPT_MAX_OUTSTANDING,
        OPT_FIB_SUPPRESSION,
        OPT_NO_FIB_SUPPRESSION,
        OPT_SORTED,
        OPT_NO_SORTED,
        OPT_NO_ROUTE_INDEX,
        OPT_NORTHBOUND_ZMQ,
        OPT_NORTHBOUND_ENDPOINT,
        OPT_INSTANCE,
        OPT_ASIC_READ_SLICE,
        OPT_REPLICA_STEPS,
        OPT_ROUTES_FROM_FILE,
        OPT_ASIC_FROM_FILE,
        ORCHD_SOUTHBOUND_OPTION_ENUMS,
        FIBSYNC_ZMQ_TCP_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
        DAEMON_OPTION_ENUMS,
        SSL_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"db", required_argument, NULL, OPT_DB},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        {"max-bulk", required_argument, NULL, 'k'},
        {"batch-size", required_argument, NULL, 'b'},
        {"ring", no_argument, NULL, OPT_RING},
        {"no-ring", no_argument, NULL, OPT_NO_RING},
        {"sai-mode", required_argument, NULL, OPT_SAI_MODE},
        {"max-outstanding", required_argument, NULL, OPT_MAX_OUTSTANDING},
        {"fib-suppression", no_argument, NULL, OPT_FIB_SUPPRESSION},
        {"no-fib-suppression", no_argument, NULL, OPT_NO_FIB_SUPPRESSION},
        {"sorted-bulks", no_argument, NULL, OPT_SORTED},
        {"no-sorted-bulks", no_argument, NULL, OPT_NO_SORTED},
        {"no-route-index", no_argument, NULL, OPT_NO_ROUTE_INDEX},
        {"northbound-zmq", required_argument, NULL, OPT_NORTHBOUND_ZMQ},
        {"northbound-endpoint", required_argument, NULL,
         OPT_NORTHBOUND_ENDPOINT},
        {"instance", required_argument, NULL, OPT_INSTANCE},
        {"asic-read-slice", required_argument, NULL, OPT_ASIC_READ_SLICE},
        {"replica-steps", required_argument, NULL, OPT_REPLICA_STEPS},
        {"routes-from-file", required_argument, NULL, OPT_ROUTES_FROM_FILE},
        {"asic-from-file", required_argument, NULL, OPT_ASIC_FROM_FILE},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        ORCHD_SOUTHBOUND_LONG_OPTIONS,
        FIBSYNC_ZMQ_TCP_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        DAEMON_LONG_OPTIONS,
        STREAM_SSL_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    /* Static, so that an option error, which exits from inside the loop,
     * leaves it reachable rather than leaked (LeakSanitizer). */
    static char *short_options;

    short_options = ovs_cmdl_long_options_to_short_options(long_options);
    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case OPT_DB:
            db_remote = xstrdup(optarg);
            break;
        case OPT_UNIXCTL:
            unixctl_path = xstrdup(optarg);
            break;
        case 'k':
            setting_set_cmdline(&features[F_MAX_BULK],
                                option_parse_uint("max-bulk", optarg, 1,
                                                  1000000));
            break;
        case 'b':
            setting_set_cmdline(&features[F_BATCH],
                                option_parse_uint("batch-size", optarg, 1,
                                                  1000000));
            break;
        case OPT_RING:
        case OPT_NO_RING:
            setting_set_cmdline(&features[F_RING], c == OPT_RING);
            break;
        case OPT_SAI_MODE:
            if (strcmp(optarg, "sync") && strcmp(optarg, "async")) {
                ovs_fatal(0, "--sai-mode: \"%s\" is neither sync nor async",
                          optarg);
            }
            setting_set_cmdline(&features[F_ASYNC],
                                !strcmp(optarg, "async"));
            break;
        case OPT_MAX_OUTSTANDING:
            setting_set_cmdline(&features[F_MAX_OUTSTANDING],
                                option_parse_uint("max-outstanding", optarg,
                                                  1, 1024));
            break;
        case OPT_FIB_SUPPRESSION:
        case OPT_NO_FIB_SUPPRESSION:
            setting_set_cmdline(&features[F_FIB_SUPPRESSION],
                                c == OPT_FIB_SUPPRESSION);
            break;
        case OPT_SORTED:
        case OPT_NO_SORTED:
            setting_set_cmdline(&features[F_SORTED], c == OPT_SORTED);
            break;
        case OPT_NO_ROUTE_INDEX:
            use_route_index = false;
            break;
        case OPT_NORTHBOUND_ZMQ:
            setting_set_cmdline(&features[F_NORTHBOUND_ZMQ],
                                option_parse_on_off("northbound-zmq",
                                                    optarg));
            break;
        case OPT_NORTHBOUND_ENDPOINT:
            free(nb_endpoint);
            nb_endpoint = xstrdup(optarg);
            break;
        case OPT_INSTANCE:
            instance = fibsync_instance_parse("instance", optarg);
            break;
        case OPT_ASIC_READ_SLICE:
            asic_read_slice = option_parse_uint("asic-read-slice", optarg, 1,
                                                INT32_MAX);
            break;
        case OPT_REPLICA_STEPS:
            replica_steps = option_parse_uint("replica-steps", optarg, 1,
                                              ORCHD_REPLICA_MAX_STEPS);
            break;
        case OPT_ROUTES_FROM_FILE:
            free(routes_file);
            routes_file = xstrdup(optarg);
            break;
        case OPT_ASIC_FROM_FILE:
            free(asic_file);
            asic_file = xstrdup(optarg);
            break;
        case 'h':
            usage();
        case 'V':
            ovs_print_version(0, 0);
            exit(EXIT_SUCCESS);
        ORCHD_SOUTHBOUND_OPTION_HANDLERS
        FIBSYNC_ZMQ_TCP_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS
        DAEMON_OPTION_HANDLERS
        STREAM_SSL_OPTION_HANDLERS
        case '?':
            exit(EXIT_FAILURE);
        default:
            abort();
        }
    }
    free(short_options);
    short_options = NULL;
    if (optind < argc) {
        ovs_fatal(0, "unexpected argument \"%s\" (use --help for help)",
                  argv[optind]);
    }
    if (!db_remote) {
        db_remote = xstrdup(fibsync_default_db());
    }
    orchd_entry_set_instance(instance);
    orchd_southbound_set_instance(instance);
    char *ssl_error = ssl_options_check("db", db_remote);
    if (ssl_error) {
        ovs_fatal(0, "%s", ssl_error);
    }
}

/* Prints --help and exits. */
static void
usage(void)
{
    printf("\
%s: programs the routes in the Fibsync database into the ASIC\n\
usage: %s [OPTIONS]\n\
\n\
orchd reads Route, Nexthop_Group, Vrf and Global from the Fibsync OVSDB\n\
database, resolves each route's next hops into a SAI route entry, and\n\
writes the entries into Asic_Route in bulks, where syncd programs them.\n\
Acknowledged entries are kept in a read cache; with FIB suppression on,\n\
each route's outcome is written back into Route.status (offload=true or\n\
error=REASON) by partial map mutates.\n\
\n\
Database:\n\
  --db=REMOTE             database (default: the list in\n\
                          $FIBSYNC_RUNDIR/db.remotes, else\n\
                          unix:$FIBSYNC_RUNDIR/db.sock; now %s)\n\
  --asic-read-slice=N     on the southbound fast path, read this instance's\n\
                          Asic_Route rows at start in selects of N seq\n\
                          values (so at most N rows) each [%d]: smaller\n\
                          keeps ovsdb-server's transient memory smaller,\n\
                          but each select scans the whole table there\n\
  --replica-steps=N       on the northbound OVSDB path, take Route's rows\n\
                          into the replica in N steps of its bucket range\n\
                          (1 to %d) [%d]: each step's rows come as one\n\
                          reply, so more steps keep orchd's and\n\
                          ovsdb-server's transient memory smaller, but\n\
                          each step scans the whole table there\n\
  --routes-from-file=FILE on the northbound OVSDB path, keep no replica\n\
                          of Route: read Route and this instance's\n\
                          Asic_Route rows from FILE, the standalone\n\
                          database file of the server at --db, when\n\
                          orchd starts and whenever its connection\n\
                          begins again, and follow Route's changes\n\
                          through a monitor of changes alone.  A restart\n\
                          at a million routes then takes seconds, not a\n\
                          minute, and orchd some 1.2 GB less; fib/show\n\
                          answers from orchd's route table and its own\n\
                          (vrf, prefix) index, cache/verify compares the\n\
                          read cache with that table\n\
  --asic-from-file=FILE   with a Route replica, read this instance's\n\
                          Asic_Route rows at start from FILE, the\n\
                          standalone database file of the server at --db,\n\
                          instead of selecting them from the server,\n\
                          which then composes only the replica (falls\n\
                          back to the selects if FILE cannot be read)\n\
\n\
ASIC instance (several ASICs on one host, docs/RELIABILITY.md):\n\
  --instance=N            drive ASIC instance N, 0 to 63 [0]: write and\n\
                          monitor only the Asic_Route rows whose instance\n\
                          is N; N > 0 never writes Route.status (instance\n\
                          0 does) and defaults to orchd-N.ctl and the\n\
                          endpoints northbound-N.zmq, southbound-N.zmq\n\
\n\
Tuning (each overrides the matching Global column; default in brackets):\n\
  -k, --max-bulk=N        route entries per SAI bulk [%d]\n\
  -b, --batch-size=N      size of the --ring task ring: 64 x N tasks,\n\
                          rounded up to a power of 2 [%d]\n\
  --ring, --no-ring       run bulks in an assistant thread fed by a\n\
                          single-producer single-consumer task ring [off]\n\
  --sai-mode=sync|async   wait for each bulk's acknowledgement, or keep\n\
                          several bulks outstanding [sync]\n\
  --max-outstanding=N     bulks outstanding in async mode [%d]\n\
  --fib-suppression, --no-fib-suppression\n\
                          write Route.status back [off]\n\
  --sorted-bulks, --no-sorted-bulks\n\
                          sort each bulk by prefix [off]\n\
  --no-route-index        keep no (vrf, prefix) and (nexthop, prefix)\n\
                          indexes over the replica, nor the (vrf, prefix)\n\
                          index over the route table without one: saves\n\
                          their memory and the CPU to maintain them, but\n\
                          disables fib/show\n\
  --northbound-zmq=on|off take routes from fpmsyncd over ZeroMQ, already\n\
                          resolved, instead of replicating Route and\n\
                          Nexthop_Group (no route index then) [off]\n\
  --northbound-endpoint=E where to bind for it\n\
                          [ipc://$FIBSYNC_RUNDIR/northbound.zmq, or\n\
                          northbound-N.zmq for --instance=N]\n\
\n\
unixctl commands (ovs-appctl -t $FIBSYNC_RUNDIR/orchd.ctl COMMAND):\n\
  route/show [vrf NAME] PREFIX   the programmed entry, from the read cache\n\
  route/dump [json]              every programmed entry, in prefix order\n\
  cache/verify                   compare the read cache with Route\n\
  features/show                  each optimization, its value and source\n\
  perf/show                      last per-stage performance lines\n\
  ring/show                      task ring statistics\n\
  zmq/show                       fast-path channels, Asic_Route writers\n\
  orchd/status                   counters: updates, bulks, acks, cache\n\
  fib/show ip|ipv6 route ...     \"show ip route\" from the indexes (fibctl)\n\
  exit                           drain and exit\n",
           program_name, program_name, fibsync_default_db(),
           ORCHD_ASIC_READ_SLICE, ORCHD_REPLICA_MAX_STEPS,
           ORCHD_REPLICA_STEPS, ORCHD_BULKER_DEFAULT_MAX_BULK,
           ORCHD_DEFAULT_BATCH_SIZE, ORCHD_BULKER_DEFAULT_MAX_OUTSTANDING);
    orchd_southbound_usage();
    fibsync_instance_zmq_tcp_usage();
    daemon_usage();
    ssl_options_usage();
    vlog_usage();
    printf("\nOther options:\n"
           "  --unixctl=SOCKET        control socket (default: "
           "$FIBSYNC_RUNDIR/orchd.ctl,\n"
           "                          orchd-N.ctl for --instance=N)\n"
           "  -h, --help              display this help message\n"
           "  -V, --version           display version information\n");
    exit(EXIT_SUCCESS);
}
