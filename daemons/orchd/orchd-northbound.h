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

#ifndef ORCHD_NORTHBOUND_H
#define ORCHD_NORTHBOUND_H 1

/* orchd's northbound fast path: routes from fpmsyncd over ZeroMQ.
 *
 * orchd binds the "northbound" channel (lib/zmq-channel.h) and fpmsyncd
 * sends it ROUTES frames (lib/route-frame.h) with each route already
 * resolved: its VRF, prefix, action and next hops.  Each SET entry becomes
 * the SAI entry that orchd would resolve from the Route row on the OVSDB
 * path (orchd_entry_create(), key orchd_entry_asic_uuid(VRF, prefix)) and
 * goes to the worker with orchd_worker_set(); each DEL becomes
 * orchd_worker_del().  Route and Nexthop_Group are not replicated on this
 * path (orchd-replica.h): fpmsyncd writes them
 * behind, for the operator and for route-check.
 *
 * Resync
 * ======
 *
 * The worker's bulker records, for each route fpmsyncd named (and each
 * Asic_Route entry found at start, orchd_worker_seed()), the resync
 * generation that last named it (orchd-bulker.h, "Generations"): one
 * lookup of the route's state a route, and no table here.  When fpmsyncd
 * (re)starts, the peer callback starts a new generation
 * (orchd_worker_new_generation()); every SET names a route and every DEL
 * removes it; the frame with ROUTE_FRAME_F_SYNC_END removes the routes
 * the resync did not name (orchd_worker_sweep()).  A SET equal to what is
 * programmed changes nothing (the bulker skips it), so a resync does not
 * remove and re-add anything.
 *
 * Results
 * =======
 *
 * The outcomes the worker reports (orchd_worker_take_results()) go back
 * to fpmsyncd as RESULTS entries, as on the OVSDB path status_run()
 * writes them into Route.status: failures always, successes only with FIB
 * suppression on.  fpmsyncd turns a success into an offload notification
 * to zebra, and writes each outcome into the route's Route.status behind
 * (fpmsyncd-status.h): orchd has no Route replica to write it
 * into.  An entry that decodes but cannot be used (a VRF name or next-hop
 * key with a NUL in it) is answered with an error result, counted, and
 * not programmed.  A result names its route by VRF and prefix, taken from
 * the entry written; fpmsyncd ignores one about a route changed or
 * removed since.
 *
 * Back-pressure
 * =============
 *
 * orchd stops receiving (zmq_channel_set_receiving()) while the worker
 * holds ORCHD_NORTHBOUND_MAX_PENDING routes that have not gone into a bulk
 * (orchd_worker_n_pending()), and receives again below half of that:
 * fpmsyncd's window then fills and fpmsyncd stops reading zebra.  What the
 * Asic_Route write-behind or ovsdb-server still has to do never counts, so
 * a slow database cannot hold the fast path back.
 *
 * The Route writes first
 * ======================
 *
 * While fpmsyncd's frames say its own Route writes are behind
 * (ROUTE_FRAME_F_DB_BEHIND, fpmsyncd-zmq.h), orchd holds its
 * Asic_Route write-behind back (orchd_worker_yield_writebehind()), so that
 * ovsdb-server writes the source of truth first.  A "behind" not repeated
 * within ORCHD_NB_DB_BEHIND_MS is no longer believed: a dead or stopped
 * fpmsyncd holds nothing back for long.
 *
 * Thread safety: none; the main thread's. */

#include <stdbool.h>
#include <stddef.h>

struct ds;
struct orchd_entry_space;
struct orchd_worker;
struct ovs_list;
struct setting;

/* Routes pending in the worker at which orchd stops receiving. */
#define ORCHD_NORTHBOUND_MAX_PENDING 100000

/* How long a frame's "Route writes behind" holds, in ms (fpmsyncd
 * repeats it every FPMD_ZMQ_DB_BEHIND_MS). */
#define ORCHD_NB_DB_BEHIND_MS 1000

/* Routes in a RESULTS frame at most. */
#define ORCHD_NORTHBOUND_FRAME_MAX 1000

struct orchd_northbound *orchd_northbound_create(const char *endpoint,
                                                 struct orchd_worker *,
                                                 struct orchd_entry_space *);
void orchd_northbound_destroy(struct orchd_northbound *);

void orchd_northbound_run(struct orchd_northbound *);
void orchd_northbound_wait(struct orchd_northbound *);
void orchd_northbound_results(struct orchd_northbound *,
                              struct ovs_list *results, bool send_ok);

void orchd_northbound_format_path(const struct orchd_northbound *,
                                  const struct setting *, struct ds *);
void orchd_northbound_format(const struct orchd_northbound *, struct ds *);

#endif /* orchd-northbound.h */
