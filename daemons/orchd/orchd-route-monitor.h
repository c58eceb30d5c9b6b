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

#ifndef ORCHD_ROUTE_MONITOR_H
#define ORCHD_ROUTE_MONITOR_H 1

/* orchd-route-monitor: Route's changes on the northbound OVSDB path,
 * without a replica of Route.
 *
 * orchd's IDL replica of Route, at a million routes, is what made its
 * restart on the OVSDB path take 50 to 90 s: ovsdb-server composes every
 * row into monitor replies (30-34 s of its CPU even in steps, plus 12 s for
 * the initial change set it builds first) and orchd parses them into IDL
 * rows and indexes.  Asked with --routes-from-file, orchd keeps no such
 * replica: it reads Route from the server's database file
 * (orchd-route-file.h, a few seconds, the server doing nothing) and then
 * follows this monitor of Route's changes alone.
 *
 * The monitor is an ovsdb-cs monitor (lib/ovsdb-cs.h: no replica), method
 * "monitor" (version 1), whose modifications carry every monitored column
 * of the row, so that a change needs no copy of the row it changes; it
 * asks for no initial contents, so ovsdb-server builds no first reply of a
 * million rows.  Its columns are those orchd resolves: vrf, prefix,
 * nexthops, nexthop_group and blackhole, and those "show ip route"
 * prints: protocol, distance and metric.  Each insertion or modification
 * is passed on as a struct orchd_route_row, each deletion as a row UUID.
 *
 * Reading the rows
 * ================
 *
 * When the monitor begins (and when it begins again: the server
 * restarted, or the connection dropped), what the database held before
 * never came through it.  The monitor then stops passing changes on and
 * says it needs a read (orchd_route_monitor_needs_read()): the caller
 * reads every row (from the file), then calls
 * orchd_route_monitor_read_done(), and the changes queued meanwhile are
 * passed on.  Every change committed after the monitor began comes through
 * it, and every one committed before is in the file (ovsdb-server writes a
 * transaction to its file before it answers or tells a monitor), so
 * nothing falls between the two; a change in both is passed on twice,
 * which does no harm: it holds the row's whole new content.
 *
 * Thread safety: none; orchd's main thread owns it. */

#include <stdbool.h>
#include <stdint.h>

struct orchd_route_row;
struct uuid;

/* Called with each insertion or modification of a row ('row' nonnull)
 * and each deletion ('row' null, 'uuid' the row's). */
typedef void orchd_route_monitor_cb(void *aux, const struct uuid *uuid,
                                    const struct orchd_route_row *row);

/* Counters. */
struct orchd_route_monitor_stats {
    uint64_t changes;           /* Insertions and modifications... */
    uint64_t deletions;         /* ...and deletions passed on. */
    uint64_t bad_rows;          /* Rows of an unexpected form, ignored. */
    uint64_t starts;            /* Times the monitor began. */
};

struct orchd_route_monitor *orchd_route_monitor_create(
    const char *remote, orchd_route_monitor_cb *, void *aux);
void orchd_route_monitor_destroy(struct orchd_route_monitor *);
void orchd_route_monitor_run(struct orchd_route_monitor *);
void orchd_route_monitor_wait(struct orchd_route_monitor *);
bool orchd_route_monitor_needs_read(const struct orchd_route_monitor *);
void orchd_route_monitor_read_done(struct orchd_route_monitor *);
void orchd_route_monitor_get_stats(const struct orchd_route_monitor *,
                                   struct orchd_route_monitor_stats *);

#endif /* orchd-route-monitor.h */
