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
 * With FIB suppression on, zebra advertises a route only once the
 * forwarding plane has it.  orchd writes offload=true into a Route row's
 * status once the route is programmed; fpmsyncd's Route.status monitor
 * (daemons/fpmsyncd/fpmsyncd-db.c) reports those rows here (on the northbound fast
 * path, orchd's results do, daemons/fpmsyncd/fpmsyncd-zmq.h), and for each route that
 * zebra announced in its current session the rib asks for an offload
 * notification (daemons/fpmsyncd/fpmsyncd-fpm.c sends it).  A route rewritten with
 * new content is no longer offloaded until its status says so again; a
 * route zebra replays unchanged is confirmed at once.
 *
 * A change that orchd never sees needs an answer too: a route announced
 * A (offloaded), then B, then A again (or A with a new metric) before B
 * left fpmsyncd.  On the OVSDB path B's write is replaced in the queue and
 * the row, which still holds what orchd programs of A and says
 * offload=true (an update that changes what orchd programs deletes it),
 * answers (fpmd_offload_from_row()); so a route's record stays while its
 * row says so, whatever the route's content, until an update that
 * deletes the row's offload is sent (fpmd_offload_row_cleared()).  On the
 * fast path fpmsyncd asks orchd to answer A even though orchd holds it
 * already (ROUTE_FRAME_EF_ANSWER on every SET of a route not
 * offloaded).
 *
 * Part of the rib (daemons/fpmsyncd/fpmsyncd-rib.h); thread safety: none. */

#include <stdbool.h>
#include "openvswitch/hmap.h"

struct fpm_route;
struct fpmd_rib;
struct fpmd_route;
struct uuid;

/* Called to tell zebra that route 'r' (its head: prefix, table, protocol,
 * type, metric) is offloaded. */
typedef void fpmd_offload_func(const struct fpm_route *r, void *aux);

/* The rib's FIB suppression state. */
struct fpmd_offload {
    struct hmap offloaded;      /* 'struct fpmd_offloaded's, by UUID: the
                                 * Route rows whose status says
                                 * offload=true, as the Route.status
                                 * monitor reported (the OVSDB path), with
                                 * their routes (FPMD_F_RECORDED). */
    size_t n_unrecorded;        /* Offloaded routes with no record (the
                                 * fast path's, fpmd_offload_route_set()). */
    bool enabled;               /* FIB suppression on. */
    fpmd_offload_func *cb;      /* How to notify zebra, or NULL. */
    void *aux;                  /* Passed to 'cb'. */
};

void fpmd_offload_init(struct fpmd_offload *);
void fpmd_offload_destroy(struct fpmd_offload *);

/* Configuration. */
void fpmd_offload_set_cb(struct fpmd_rib *, fpmd_offload_func *, void *aux);
void fpmd_offload_enable(struct fpmd_rib *, bool enabled);

/* The Route.status monitor. */
void fpmd_offload_reset(struct fpmd_rib *);
void fpmd_offload_status_set(struct fpmd_rib *, const struct uuid *,
                             const char *vrf, const char *prefix);
void fpmd_offload_status_touched(struct fpmd_rib *, const struct uuid *);
void fpmd_offload_status_cleared(struct fpmd_rib *, const struct uuid *);

/* The northbound fast path's results. */
void fpmd_offload_route_set(struct fpmd_rib *, struct fpmd_route *);

/* The OVSDB path's rows. */
bool fpmd_offload_from_row(struct fpmd_rib *, struct fpmd_route *);
void fpmd_offload_row_cleared(struct fpmd_rib *, struct fpmd_route *);

/* For routes. */
void fpmd_offload_notify(struct fpmd_rib *, const struct fpmd_route *);
void fpmd_offload_clear(struct fpmd_rib *, struct fpmd_route *);
void fpmd_offload_forget(struct fpmd_rib *, struct fpmd_route *);

#endif /* daemons/fpmsyncd/fpmsyncd-offload.h */
