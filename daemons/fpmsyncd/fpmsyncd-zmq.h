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

#ifndef FPMSYNCD_ZMQ_H
#define FPMSYNCD_ZMQ_H 1

/* fpmsyncd's northbound fast path: routes to orchd over ZeroMQ
 * (lib/route-frame.h frames on a lib/zmq-channel.h channel that orchd
 * binds), with the Route, Nexthop_Group and Vrf rows still written to
 * OVSDB behind it, exactly as on the OVSDB path.
 *
 * The queue
 * =========
 *
 * Every change the rib makes to a route (an add, a replace, a withdrawal
 * by zebra or by reconciliation, a next-hop group that changed under it)
 * queues the route, once: changes coalesce, and a route keeps the place
 * of its first change.  When a frame is built, each route is taken in
 * that order with its state at that moment: a SET with its resolved next
 * hops, or a DEL.  A route whose next-hop group cannot be resolved yet is
 * held, as the rib holds its row (it is queued again when it can be
 * resolved); a route that orchd never heard of and that is withdrawn
 * before it was sent is not sent at all.  A queued route is not freed
 * until it leaves the queue.  Frames carry up to 1,000 routes (by
 * default: --zmq-frame-routes) and are sent while the channel has room
 * (zmq_channel_can_send()).
 *
 * Back-pressure: while the queue holds --zmq-max-pending routes or more, or
 * orchd does not acknowledge frames fast enough to leave room in the channel's
 * window, fpmsyncd stops reading zebra (daemons/fpmsyncd/fpmsyncd-fpm.c) and
 * counts a stall.  On this path the OVSDB backlog does not stop reading zebra:
 * OVSDB is written behind.  Until orchd first answers, nothing is kept queued:
 * the resync at first contact sends everything.
 *
 * Resync
 * ======
 *
 * When orchd (re)starts, or at first contact, the channel's peer callback
 * queues every route again and marks each as part of the resync.  The
 * last frame of the resync carries ROUTE_FRAME_F_SYNC_END, at which orchd
 * removes whatever it holds that the resync did not name.  So that a
 * restarted fpmsyncd never makes orchd remove what zebra has not replayed
 * yet, the end of a resync also waits until the database is read and
 * until every route read from it has been replayed by zebra or removed
 * by reconciliation (and until every held route is sent).
 *
 * Several ASIC instances
 * ======================
 *
 * With --instances=N, fpmsyncd has one channel per instance, each to that
 * instance's orchd (lib/fibsync-instance.h names their endpoints), and
 * still one queue.  A frame is built once and a copy goes to every
 * channel that is up; frames are taken only while every channel that is
 * up has room, so one orchd that stops acknowledging (SIGSTOP, or killed
 * and not restarted yet) stalls zebra for all: nothing is dropped for it.
 * A channel that is not up yet is skipped: its first contact starts a
 * resync.  The queue is discarded only while no channel is up.
 *
 * A resync goes to every channel that is up, not only to the orchd that
 * (re)started: the others get routes they hold already, unchanged, which
 * their bulkers skip (no SAI call), and ignore the SYNC_END, since they
 * did not start a resync themselves (daemons/orchd/orchd-northbound.c).  For
 * them a route withdrawn during the resync must still be deleted, so a
 * resync keeps each route's "sent" mark (fpmd_zmq_resync()).
 *
 * Results
 * =======
 *
 * orchd answers each route it could not program, and with FIB suppression on
 * each programmed route too, with a RESULTS entry.  A SET answered as
 * programmed, for a route that has not changed since, is recorded as offloaded
 * (daemons/fpmsyncd/fpmsyncd-offload.h) and zebra is told.  Each answer about
 * a route's current content is also written behind into its Route row's status
 * (daemons/fpmsyncd/fpmsyncd-status.h), as orchd does on the OVSDB path.  The
 * Route.status monitor is not used on this path.  Only instance 0's results do
 * that; those of other instances are counted per channel (zmq/show) and
 * otherwise ignored: Route.status is instance 0's (docs/RELIABILITY.md,
 * "Several ASIC instances").
 *
 * The Route writes first
 * ======================
 *
 * Route is the database's source of truth, and on a two-core machine
 * ovsdb-server cannot take fpmsyncd's Route rows and orchd's Asic_Route rows
 * at full speed together.  So every ROUTES frame says whether fpmsyncd's own
 * Route writes are behind (rows pending or in flight:
 * ROUTE_FRAME_F_DB_BEHIND), and orchd holds its Asic_Route write-behind back
 * while they are (daemons/orchd/orchd-writebehind.h).  When nothing else is
 * sent, a frame without routes says it: at once when the Route writes catch
 * up, and every FPMD_ZMQ_DB_BEHIND_MS while they are behind (orchd stops
 * believing an old "behind", so that a dead fpmsyncd holds nothing back for
 * long).
 *
 * Above the rib (daemons/fpmsyncd/fpmsyncd-rib.h): it follows the rib's
 * routes as an observer of the rib, and tells FIB suppression
 * (daemons/fpmsyncd/fpmsyncd-offload.h) and Route.status
 * (daemons/fpmsyncd/fpmsyncd-status.h) orchd's results.  Thread safety:
 * none. */

#include <stdbool.h>
#include <stddef.h>

struct ds;
struct fpmd_rib;
struct fpmd_route;
struct ofpbuf;

/* How often a frame repeats that the Route writes are behind, in ms, when
 * nothing else is sent (orchd believes it for ORCHD_NB_DB_BEHIND_MS). */
#define FPMD_ZMQ_DB_BEHIND_MS 250

/* Routes in a ROUTES frame to orchd at most, unless told otherwise
 * (fpmsyncd --zmq-frame-routes). */
#define FPMD_ZMQ_FRAME_ROUTES 1000

/* How the fast path is made. */
struct fpmd_zmq_options {
    const char *const *endpoints; /* Each ASIC instance's orchd, instance
                                 * I at [I]. */
    size_t n_endpoints;         /* Elements in 'endpoints'; 0 for no
                                 * channel (the Check suite takes frames
                                 * itself). */
    size_t max_pending;         /* Queued routes that stop zebra. */
    size_t frame_max;           /* Routes in a frame at most (0:
                                 * FPMD_ZMQ_FRAME_ROUTES). */
};

struct fpmd_zmq *fpmd_zmq_create(struct fpmd_rib *,
                                 const struct fpmd_zmq_options *,
                                 char **errorp);
void fpmd_zmq_destroy(struct fpmd_zmq *);

/* The main loop. */
void fpmd_zmq_run(struct fpmd_zmq *);
void fpmd_zmq_wait(struct fpmd_zmq *);
bool fpmd_zmq_is_full(const struct fpmd_zmq *);
bool fpmd_zmq_backpressure(struct fpmd_zmq *);

/* The protocol, without a channel (the Check suite drives these). */
void fpmd_zmq_resync(struct fpmd_zmq *);
bool fpmd_zmq_take_frame(struct fpmd_zmq *, struct ofpbuf *);
void fpmd_zmq_results(struct fpmd_zmq *, const void *frame, size_t size);

/* Introspection. */
size_t fpmd_zmq_n_queued(const struct fpmd_zmq *);
void fpmd_zmq_format(const struct fpmd_zmq *, struct ds *);

#endif /* fpmsyncd-zmq.h */
