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

/* What fpmsyncd's Global follower, configuration and Route.status
 * monitors report, taken into the settings, the rib and FIB suppression
 * (daemons/fpmsyncd/fpmsyncd-db-monitors.h). */

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-db-monitors.h"

#include <inttypes.h>
#include <string.h>

#include "daemons/fpmsyncd/fpmsyncd-db.h"
#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "daemons/fpmsyncd/fpmsyncd-vrf.h"
#include "lib/global-follower.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd_db_monitors);

/* The Global row, from fpmsyncd's follower. */

/* Applies a Global row's boolean string for 's': 'value' is "true",
 * "false", or NULL or anything else for empty. */
static bool
setting_from_bool_string(struct setting *s, const char *value)
{
    return setting_set_global(s, value && (!strcmp(value, "true")
                                           || !strcmp(value, "false")),
                              value && !strcmp(value, "true"));
}

/* Takes in the Global row that 'g' follows (every column empty if there is
 * none): the settings, the path if it is not decided yet, FIB suppression
 * and the next-hop groups, the log level. */
void
fpmd_db_global(const struct fpmd_db_cfg *cfg, const struct global_follower *g)
{
    struct fpmd_settings *st = cfg->settings;

    if (global_follower_set_integer(g, &st->batch_size, "batch_size")) {
        VLOG_INFO("batch size %"PRId64" (%s)", st->batch_size.value,
                  setting_source_name(st->batch_size.source));
    }
    if (global_follower_set_integer(g, &st->reconcile_timer,
                                    "reconcile_timer")) {
        VLOG_INFO("reconcile timer %"PRId64" s (%s)",
                  st->reconcile_timer.value,
                  setting_source_name(st->reconcile_timer.source));
    }
    if (global_follower_set_boolean(g, &st->fib_suppression,
                                    "fib_suppression")) {
        VLOG_INFO("FIB suppression %s (%s)",
                  st->fib_suppression.value ? "on" : "off",
                  setting_source_name(st->fib_suppression.source));
    }
    if (global_follower_set_boolean(g, &st->northbound_zmq,
                                    "northbound_zmq")) {
        VLOG_INFO("northbound ZeroMQ %s (%s)%s",
                  st->northbound_zmq.value ? "on" : "off",
                  setting_source_name(st->northbound_zmq.source),
                  st->path.chosen
                  ? ": takes effect when fpmsyncd restarts" : "");
    }
    global_follower_choose_path(g, &st->northbound_zmq, &st->path);
    cfg->fib_suppression_cb(cfg->aux);
    if (setting_from_bool_string(
            &st->resolve_nexthops,
            global_follower_get_map_string(g, "other_config",
                                           "resolve_nexthops"))) {
        VLOG_INFO("next-hop groups %s (%s)", st->resolve_nexthops.value
                  ? "resolved into Route.nexthops" : "by id only",
                  setting_source_name(st->resolve_nexthops.source));
    }
    fpmd_rib_set_resolve(cfg->rib, st->resolve_nexthops.value);
    setting_apply_log_level(global_follower_get_string(g, "log_level"));
}

/* The configuration monitor: Vrf. */

/* Takes in a Vrf row, as the configuration monitor reports it. */
static void
vrf_row(const struct fpmd_db_cfg *cfg, const struct json *row)
{
    const char *name = ovsdb_wire_get_string(ovsdb_wire_col(row, "name"));
    int64_t table;

    if (name && ovsdb_wire_get_integer(ovsdb_wire_col(row, "table_id"),
                                       &table)) {
        fpmd_vrf_row(cfg->rib, name, table);
    }
}

/* Takes in table-updates 'updates' of the configuration monitor, its
 * first reply or an "update", as 'cfg' says. */
void
fpmd_db_cfg_updates(const struct fpmd_db_cfg *cfg, const struct json *updates)
{
    const struct shash_node *t, *r;

    if (!updates || updates->type != JSON_OBJECT) {
        return;
    }
    SHASH_FOR_EACH (t, json_object(updates)) {
        const struct json *rows = t->data;

        if (strcmp(t->name, "Vrf") || rows->type != JSON_OBJECT) {
            continue;
        }
        SHASH_FOR_EACH (r, json_object(rows)) {
            const struct json *u = r->data;
            const struct json *new;

            if (u->type != JSON_OBJECT) {
                continue;
            }
            new = shash_find_data(json_object(u), "new");
            vrf_row(cfg, new);
        }
    }
}

/* The Route.status monitor. */

/* Takes in table-updates2 'updates' of the Route.status monitor: the Route
 * rows whose status says offload=true, for FIB suppression. */
void
fpmd_db_status_updates(struct fpmd_rib *rib, const struct json *updates)
{
    const struct json *rows;
    const struct shash_node *r;

    if (!updates || updates->type != JSON_OBJECT) {
        return;
    }
    rows = shash_find_data(json_object(updates), "Route");
    if (!rows || rows->type != JSON_OBJECT) {
        return;
    }
    SHASH_FOR_EACH (r, json_object(rows)) {
        const struct json *u = r->data;
        const struct shash_node *change;
        struct uuid uuid;

        if (u->type != JSON_OBJECT || !uuid_from_string(&uuid, r->name)
            || shash_count(json_object(u)) != 1) {
            continue;
        }
        change = shash_first(json_object(u));
        if (!strcmp(change->name, "initial")
            || !strcmp(change->name, "insert")) {
            const struct json *row = change->data;
            const char *vrf
                = ovsdb_wire_get_string(ovsdb_wire_col(row, "vrf"));
            const char *prefix
                = ovsdb_wire_get_string(ovsdb_wire_col(row, "prefix"));

            if (vrf && prefix) {
                fpmd_offload_status_set(rib, &uuid, vrf, prefix);
            }
        } else if (!strcmp(change->name, "modify")) {
            fpmd_offload_status_touched(rib, &uuid);
        } else if (!strcmp(change->name, "delete")) {
            fpmd_offload_status_cleared(rib, &uuid);
        }
    }
}
