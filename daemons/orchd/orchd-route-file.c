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

#include "daemons/orchd/orchd-route-file.h"

#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-asic-read.h"
#include "daemons/orchd/orchd-route-row.h"
#include "lib/ovsdb-file-replay.h"
#include "lib/ovsdb-file-replay-value.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_route_file);

COVERAGE_DEFINE(orchd_route_file_bad_row);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* Route's columns read, in this order. */
enum { R_VRF, R_PREFIX, R_NEXTHOPS, R_GROUP, R_BLACKHOLE, R_PROTOCOL,
       R_DISTANCE, R_METRIC };
static const char *const route_cols[] = {
    [R_VRF] = "vrf", [R_PREFIX] = "prefix", [R_NEXTHOPS] = "nexthops",
    [R_GROUP] = "nexthop_group", [R_BLACKHOLE] = "blackhole",
    [R_PROTOCOL] = "protocol", [R_DISTANCE] = "distance",
    [R_METRIC] = "metric",
};

/* Asic_Route's, in this order. */
enum { A_INSTANCE, A_VRF, A_PREFIX, A_ACTION, A_NEXTHOPS, A_SEQ,
       A_APPLIED_SEQ, A_STATE, A_ERROR };
static const char *const asic_cols[] = {
    [A_INSTANCE] = "instance", [A_VRF] = "vrf", [A_PREFIX] = "prefix",
    [A_ACTION] = "packet_action", [A_NEXTHOPS] = "nexthops",
    [A_SEQ] = "seq", [A_APPLIED_SEQ] = "applied_seq", [A_STATE] = "state",
    [A_ERROR] = "error",
};

/* A read under way. */
struct read {
    int instance;               /* The ASIC instance whose rows count. */
    orchd_route_file_route_cb *route_cb; /* Called with each route... */
    orchd_route_file_asic_cb *asic_cb; /* ...each Asic_Route row... */
    void *aux;                  /* ...and this. */
    struct orchd_route_file_stats *stats; /* Counters. */
    struct ds vrf, prefix, protocol, action, state, error; /* Scratch. */
    struct ovsdb_file_replay_map nexthops;       /* Scratch. */
};

static void
bad_row(struct read *rd, const char *table, const struct uuid *uuid)
{
    rd->stats->bad_rows++;
    COVERAGE_INC(orchd_route_file_bad_row);
    VLOG_WARN_RL(&rl, "%s row "UUID_FMT" of an unexpected form ignored",
                 table, UUID_ARGS(uuid));
}

/* ovsdb_file_replay_row_cb for Route. */
static void
route_row(const struct uuid *uuid, const struct ovsdb_file_replay_value *v,
          void *rd_)
{
    struct read *rd = rd_;
    struct ovsdb_file_replay_value group, distance, metric;
    bool has_distance, has_metric;
    struct orchd_route_row row;

    memset(&row, 0, sizeof row);
    if (!ovsdb_file_replay_get_string(&v[R_VRF], &rd->vrf)
        || !ovsdb_file_replay_get_string(&v[R_PREFIX], &rd->prefix)
        || !ovsdb_file_replay_get_boolean(&v[R_BLACKHOLE], &row.blackhole)
        || !ovsdb_file_replay_get_optional(&v[R_GROUP], &group,
                                           &row.has_group)
        || (row.has_group
            && !ovsdb_file_replay_get_integer(&group, &row.group))
        || !ovsdb_file_replay_get_map(&v[R_NEXTHOPS], &rd->nexthops)
        || !ovsdb_file_replay_get_string(&v[R_PROTOCOL], &rd->protocol)
        || !ovsdb_file_replay_get_optional(&v[R_DISTANCE], &distance,
                                           &has_distance)
        || (has_distance
            && !ovsdb_file_replay_get_integer(&distance, &row.distance))
        || !ovsdb_file_replay_get_optional(&v[R_METRIC], &metric,
                                           &has_metric)
        || (has_metric
            && !ovsdb_file_replay_get_integer(&metric, &row.metric))) {
        bad_row(rd, "Route", uuid);
        return;
    }
    row.uuid = *uuid;
    row.vrf = ds_cstr(&rd->vrf);
    row.prefix = ds_cstr(&rd->prefix);
    row.protocol = ds_cstr(&rd->protocol);
    row.nh_keys = rd->nexthops.keys;
    row.nh_weights = rd->nexthops.values;
    row.n_nexthops = rd->nexthops.n;
    rd->stats->routes++;
    rd->route_cb(rd->aux, &row);
}

/* ovsdb_file_replay_row_cb for Asic_Route: the instance's rows only. */
static void
asic_row(const struct uuid *uuid, const struct ovsdb_file_replay_value *v,
         void *rd_)
{
    struct read *rd = rd_;
    struct orchd_asic_row ar;
    int64_t instance;

    memset(&ar, 0, sizeof ar);
    if (!ovsdb_file_replay_get_integer(&v[A_INSTANCE], &instance)) {
        bad_row(rd, "Asic_Route", uuid);
        return;
    } else if (instance != rd->instance) {
        return;
    }
    if (!ovsdb_file_replay_get_string(&v[A_VRF], &rd->vrf)
        || !ovsdb_file_replay_get_string(&v[A_PREFIX], &rd->prefix)
        || !ovsdb_file_replay_get_string(&v[A_ACTION], &rd->action)
        || !ovsdb_file_replay_get_integer(&v[A_SEQ], &ar.seq)
        || !ovsdb_file_replay_get_integer(&v[A_APPLIED_SEQ],
                                          &ar.applied_seq)
        || !ovsdb_file_replay_get_optional_string(&v[A_STATE], &rd->state,
                                                  &ar.state)
        || !ovsdb_file_replay_get_optional_string(&v[A_ERROR], &rd->error,
                                                  &ar.error)
        || !ovsdb_file_replay_get_map(&v[A_NEXTHOPS], &rd->nexthops)) {
        bad_row(rd, "Asic_Route", uuid);
        return;
    }
    ar.uuid = *uuid;
    ar.vrf = ds_cstr(&rd->vrf);
    ar.prefix = ds_cstr(&rd->prefix);
    ar.packet_action = ds_cstr(&rd->action);
    ar.nh_keys = rd->nexthops.keys;
    ar.nh_weights = rd->nexthops.values;
    ar.n_nexthops = rd->nexthops.n;
    rd->stats->asic_rows++;
    rd->asic_cb(rd->aux, &ar);
}

/* Reads standalone database file 'file', calling 'asic_cb' (unless it is
 * NULL) with each Asic_Route row of ASIC instance 'instance', then
 * 'route_cb' (unless it is NULL) with each Route row, and filling in
 * '*stats'.  Returns NULL, or an error message (for the caller to free)
 * if the file could not be read, in which case no callback was called. */
char *
orchd_route_file_read(const char *file, int instance,
                      orchd_route_file_route_cb *route_cb,
                      orchd_route_file_asic_cb *asic_cb, void *aux,
                      struct orchd_route_file_stats *stats)
{
    struct ovsdb_file_replay *r = ovsdb_file_replay_create();
    long long int start = time_msec();
    struct read rd = {
        .instance = instance, .route_cb = route_cb, .asic_cb = asic_cb,
        .aux = aux, .stats = stats,
        .vrf = DS_EMPTY_INITIALIZER, .prefix = DS_EMPTY_INITIALIZER,
        .protocol = DS_EMPTY_INITIALIZER, .action = DS_EMPTY_INITIALIZER,
        .state = DS_EMPTY_INITIALIZER,
        .error = DS_EMPTY_INITIALIZER,
    };
    size_t routes = 0, asics = 0;
    char *error;

    memset(stats, 0, sizeof *stats);
    ovsdb_file_replay_map_init(&rd.nexthops);
    if (route_cb) {
        routes = ovsdb_file_replay_add_table(r, "Route", route_cols,
                                             ARRAY_SIZE(route_cols));
    }
    if (asic_cb) {
        asics = ovsdb_file_replay_add_table(r, "Asic_Route", asic_cols,
                                            ARRAY_SIZE(asic_cols));
    }
    error = ovsdb_file_replay_read(r, file);
    if (!error) {
        if (asic_cb) {
            ovsdb_file_replay_consume(r, asics, asic_row, &rd);
        }
        if (route_cb) {
            ovsdb_file_replay_consume(r, routes, route_row, &rd);
        }
    }
    ovsdb_file_replay_destroy(r);
    ds_destroy(&rd.vrf);
    ds_destroy(&rd.prefix);
    ds_destroy(&rd.protocol);
    ds_destroy(&rd.action);
    ds_destroy(&rd.state);
    ds_destroy(&rd.error);
    ovsdb_file_replay_map_destroy(&rd.nexthops);
    stats->ms = time_msec() - start;
    return error;
}
