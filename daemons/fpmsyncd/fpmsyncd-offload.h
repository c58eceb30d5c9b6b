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

#ifndef FPMSYNCD_OFFLOAD_H
#define FPMSYNCD_OFFLOAD_H 1

/* FIB suppression: telling zebra which routes are offloaded.
 *
 * With FIB suppression on, zebra advertises a route only once the forwarding
 * plane has it. orchd writes offload=true into a Route row's status once the
 * route is programmed; fpmsyncd's Route.status monitor
 * (daemons/fpmsyncd/fpmsyncd-db.c) reports those rows here (on the northbound
 * fast path, orchd's results do, daemons/fpmsyncd/fpmsyncd-zmq.h), and for
 * each route that zebra announced in its current session the rib asks for an
 * offload notification (daemons/fpmsyncd/fpmsyncd-fpm.c sends it).  A route
 * rewritten with new content is no longer offloaded until its status says so
 * again; a route zebra replays unchanged is confirmed at once.
 *
 * A change that orchd never sees needs an answer too: a route announced
 * A (offloaded), then B, then A again (or A with a new metric) before B
 * left fpmsyncd.  On the OVSDB path B's write is replaced in the queue and
 * the row, which still holds what orchd programs of A and says
 * offload=true (an update that changes what orchd programs deletes it),
 * answers (the rib's refresh of the route tells this module, its
 * observer); so a route's record stays while its
 * row says so, whatever the route's content, until an update that
 * deletes the row's offload is sent (fpmd_offload_row_cleared()).  On the
 * fast path fpmsyncd asks orchd to answer A even though orchd holds it
 * already (ROUTE_FRAME_EF_ANSWER on every SET of a route not
 * offloaded).
 *
 * Above the rib (daemons/fpmsyncd/fpmsyncd-rib.h): it follows the rib's
 * routes as an observer of the rib, registered by fpmd_offload_attach(),
 * and keeps its state in its own 'struct fpmd_offload'.  Thread safety:
 * none. */

#include <stdbool.h>
#include <stddef.h>

struct fpm_route;
struct fpmd_rib;
struct fpmd_route;
struct uuid;

/* Called to tell zebra that route 'r' (its head: prefix, table, protocol,
 * type, metric) is offloaded. */
typedef void fpmd_offload_func(const struct fpm_route *r, void *aux);

/* Attaching it to the rib (fpmsyncd.c's main, before anything else
 * observes the rib). */
void fpmd_offload_attach(struct fpmd_rib *);

/* Configuration. */
void fpmd_offload_set_cb(struct fpmd_rib *, fpmd_offload_func *, void *aux);
void fpmd_offload_enable(struct fpmd_rib *, bool enabled);
bool fpmd_offload_enabled(const struct fpmd_rib *);
void fpmd_offload_set_fast_path(struct fpmd_rib *, bool on);

/* The Route.status monitor. */
void fpmd_offload_reset(struct fpmd_rib *);
void fpmd_offload_status_set(struct fpmd_rib *, const struct uuid *,
                             const char *vrf, const char *prefix);
void fpmd_offload_status_touched(struct fpmd_rib *, const struct uuid *);
void fpmd_offload_status_cleared(struct fpmd_rib *, const struct uuid *);

/* The northbound fast path's results, and the rows it loads. */
void fpmd_offload_route_set(struct fpmd_rib *, struct fpmd_route *);
void fpmd_offload_clear(struct fpmd_rib *, struct fpmd_route *);

/* The OVSDB path's rows (daemons/fpmsyncd/fpmsyncd-txn.c). */
void fpmd_offload_row_cleared(struct fpmd_rib *, struct fpmd_route *);
void fpmd_offload_status_stale(const struct fpmd_rib *, struct fpmd_route *);

/* Introspection (and the Check suite). */
size_t fpmd_offload_n_records(const struct fpmd_rib *);
size_t fpmd_offload_n_unrecorded(const struct fpmd_rib *);

#endif /* fpmsyncd-offload.h */
