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

#include "daemons/orchd/orchd-route-monitor.h"

#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-route-row.h"
#include "lib/ovsdb-cs-retry.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_route_monitor);

COVERAGE_DEFINE(orchd_route_monitor_bad_row);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

#define DB_NAME "Fibsync"
#define TABLE "Route"

struct orchd_route_monitor {
    struct ovsdb_cs *cs;        /* The monitor. */
    struct ovsdb_cs_retry retry; /* Its reconnection once the server is
                                  * back. */
    orchd_route_monitor_cb *cb; /* Called with each change... */
    void *aux;                  /* ...and this. */
    bool needs_read;            /* Began: the caller must read the rows
                                 * before more changes are passed on. */
    struct ovs_list held;       /* "struct ovsdb_cs_event"s received while
                                 * 'needs_read'. */
    struct ovsdb_wire_map nexthops; /* Scratch: a row's next hops. */
    struct orchd_route_monitor_stats stats; /* Counters. */
};

/* Decodes the monitored columns 'cols' of row 'uuid' into '*row', whose
 * next hops point into 'm''s scratch arrays and 'cols'.  Returns false if
 * a column is missing or of an unexpected form. */
static bool
decode_row(struct orchd_route_monitor *m, const struct uuid *uuid,
           const struct shash *cols, struct orchd_route_row *row)
{
    const struct json *blackhole = shash_find_data(cols, "blackhole");
    const struct json *group = shash_find_data(cols, "nexthop_group");

    memset(row, 0, sizeof *row);
    row->uuid = *uuid;
    row->vrf = ovsdb_wire_get_string(shash_find_data(cols, "vrf"));
    row->prefix = ovsdb_wire_get_string(shash_find_data(cols, "prefix"));
    if (!row->vrf || !row->prefix || !group || !blackhole
        || (blackhole->type != JSON_TRUE && blackhole->type != JSON_FALSE)
        || !ovsdb_wire_get_map(shash_find_data(cols, "nexthops"),
                               &m->nexthops)) {
        return false;
    }
    row->blackhole = blackhole->type == JSON_TRUE;
    row->has_group = ovsdb_wire_get_integer(group, &row->group);
    row->protocol = ovsdb_wire_get_string(shash_find_data(cols,
                                                          "protocol"));
    if (!row->protocol) {
        row->protocol = "";
    }
    ovsdb_wire_get_integer(shash_find_data(cols, "distance"),
                           &row->distance);
    ovsdb_wire_get_integer(shash_find_data(cols, "metric"), &row->metric);
    row->nh_keys = m->nexthops.keys;
    row->nh_weights = m->nexthops.values;
    row->n_nexthops = m->nexthops.n;
    return true;
}

/* Passes on the changes of update 'u'. */
static void
process_update(struct orchd_route_monitor *m,
               const struct ovsdb_cs_update_event *u)
{
    const struct ovsdb_cs_table_update *tu;
    struct ovsdb_cs_db_update *du;

    du = ovsdb_wire_parse_update(u, "Route monitor");
    if (!du) {
        return;
    }
    tu = ovsdb_cs_db_update_find_table(du, TABLE);
    for (size_t i = 0; tu && i < tu->n; i++) {
        const struct ovsdb_cs_row_update *ru = &tu->row_updates[i];
        struct orchd_route_row row;

        if (ru->type == OVSDB_CS_ROW_DELETE) {
            m->stats.deletions++;
            m->cb(m->aux, &ru->row_uuid, NULL);
        } else if (decode_row(m, &ru->row_uuid, ru->columns, &row)) {
            m->stats.changes++;
            m->cb(m->aux, &ru->row_uuid, &row);
        } else {
            m->stats.bad_rows++;
            COVERAGE_INC(orchd_route_monitor_bad_row);
            VLOG_WARN_RL(&rl, "Route row "UUID_FMT" of an unexpected form "
                         "ignored", UUID_ARGS(&ru->row_uuid));
        }
    }
    ovsdb_cs_db_update_destroy(du);
}

/* Handles 'event' (taking it): holds it while the rows are to be read. */
static void
handle_event(struct orchd_route_monitor *m, struct ovsdb_cs_event *event)
{
    if (event->type != OVSDB_CS_EVENT_TYPE_UPDATE) {
        ovsdb_cs_event_destroy(event);
        return;
    }
    if (event->update.clear) {
        /* The monitor (re)began: whatever was held is older than the read
         * to come, which covers it. */
        struct ovsdb_cs_event *old;

        LIST_FOR_EACH_POP (old, list_node, &m->held) {
            ovsdb_cs_event_destroy(old);
        }
        m->stats.starts++;
        m->needs_read = true;
        VLOG_INFO("monitor of Route's changes began (%"PRIu64" time%s): "
                  "the rows are read", m->stats.starts,
                  m->stats.starts == 1 ? "" : "s");
    }
    if (m->needs_read) {
        ovs_list_push_back(&m->held, &event->list_node);
    } else {
        process_update(m, &event->update);
        ovsdb_cs_event_destroy(event);
    }
}

/* The monitor request: Route's changes, none of its rows as they are. */
static struct json *
compose_monitor_requests(const struct json *schema OVS_UNUSED,
                         void *m OVS_UNUSED)
{
    return json_from_string(
        "{\""TABLE"\":[{\"columns\":[\"vrf\",\"prefix\",\"nexthops\","
        "\"nexthop_group\",\"blackhole\",\"protocol\",\"distance\","
        "\"metric\"],\"select\":{\"initial\":false,"
        "\"insert\":true,\"delete\":true,\"modify\":true}}]}");
}

static const struct ovsdb_cs_ops cs_ops = {
    .compose_monitor_requests = compose_monitor_requests,
};

/* Starts monitoring Route's changes at 'remote', passing each to 'cb'
 * once the rows have been read. */
struct orchd_route_monitor *
orchd_route_monitor_create(const char *remote, orchd_route_monitor_cb *cb,
                           void *aux)
{
    struct orchd_route_monitor *m = xzalloc(sizeof *m);

    m->cb = cb;
    m->aux = aux;
    ovs_list_init(&m->held);
    m->cs = ovsdb_cs_create(DB_NAME, 1, &cs_ops, m);
    ovsdb_cs_set_remote(m->cs, remote, true);
    ovsdb_cs_retry_init(&m->retry, remote);
    return m;
}

void
orchd_route_monitor_destroy(struct orchd_route_monitor *m)
{
    if (m) {
        struct ovsdb_cs_event *event;

        LIST_FOR_EACH_POP (event, list_node, &m->held) {
            ovsdb_cs_event_destroy(event);
        }
        ovsdb_cs_destroy(m->cs);
        ovsdb_cs_retry_destroy(&m->retry);
        ovsdb_wire_map_destroy(&m->nexthops);
        free(m);
    }
}

/* Receives changes, passing them on unless the rows are to be read. */
void
orchd_route_monitor_run(struct orchd_route_monitor *m)
{
    struct ovs_list events;
    struct ovsdb_cs_event *event;

    ovsdb_cs_retry_run_cs(&m->retry, m->cs);
    ovsdb_cs_run(m->cs, &events);
    LIST_FOR_EACH_POP (event, list_node, &events) {
        handle_event(m, event);
    }
}

void
orchd_route_monitor_wait(struct orchd_route_monitor *m)
{
    ovsdb_cs_wait(m->cs);
    ovsdb_cs_retry_wait(&m->retry);
}

/* Has the monitor (re)begun, so that the caller must read every row and
 * then call orchd_route_monitor_read_done()? */
bool
orchd_route_monitor_needs_read(const struct orchd_route_monitor *m)
{
    return m->needs_read;
}

/* Tells 'm' that the rows have been read: the changes held meanwhile are
 * passed on, and the next ones as they come. */
void
orchd_route_monitor_read_done(struct orchd_route_monitor *m)
{
    struct ovsdb_cs_event *event;

    m->needs_read = false;
    LIST_FOR_EACH_POP (event, list_node, &m->held) {
        process_update(m, &event->update);
        ovsdb_cs_event_destroy(event);
    }
}

void
orchd_route_monitor_get_stats(const struct orchd_route_monitor *m,
                              struct orchd_route_monitor_stats *stats)
{
    *stats = m->stats;
}
