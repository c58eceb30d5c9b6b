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

#ifndef SYNCD_WARM_H
#define SYNCD_WARM_H 1

/* syncd-warm: the simulated ASIC's routes across a warm restart.
 *
 * On hardware, a warm restart of syncd leaves the ASIC's tables as they
 * are while the process is away.  fibsync's simulator lives inside syncd,
 * so its tables die with the process; this module stands in for the
 * memory that survives.  "exit --warm" drains what syncd has queued and
 * saves every route, as the operation that programs it, to a warm file
 * (by default $FIBSYNC_RUNDIR/syncd.warm).  The next syncd, before it
 * takes any input, programs the file's routes into its fresh simulator,
 * deletes the file, and from then on counts the SAI route calls it makes:
 * reconciliation with orchd (its resync on the ZeroMQ path, the
 * Asic_Route table on the OVSDB path) must make none for a route that did
 * not change, and removes the routes nobody confirms.
 *
 * The file is text, one route a line, written to a temporary name and
 * renamed, ending in a line that counts the routes, so that a truncated
 * or damaged file is refused as a whole (syncd then starts cold, as after
 * a crash) rather than half-restored:
 *
 *     fibsync-syncd-warm 1
 *     route VRF PREFIX ACTION [NEXTHOP=WEIGHT]...
 *     end N
 *
 * NEXTHOP is the next-hop key of daemons/syncd/syncd-nexthop-key.h
 * ("GATEWAY@IFNAME", "GATEWAY" or "@IFNAME"), as asic/dump prints it.  VRF
 * and interface names are Linux device names, which hold no white
 * space. */

#include <stddef.h>
#include <stdint.h>

struct ds;
struct syncd_apply;

/* What a warm start did. */
struct syncd_warm_start {
    char *file;                 /* The file restored, or NULL if none. */
    size_t restored;            /* Routes programmed from it. */
    size_t failed;              /* Routes the simulator refused. */
    long long int msec;         /* Time the restore took. */
    uint64_t route_ops[3];      /* The apply step's route calls (creates,
                                 * removes, sets) when it ended. */
};

char *syncd_warm_save(struct syncd_apply *, const char *file,
                      size_t *n_routes);
char *syncd_warm_restore(struct syncd_apply *, const char *file,
                         struct syncd_warm_start *);
void syncd_warm_start_format(const struct syncd_warm_start *,
                             const struct syncd_apply *, struct ds *);
void syncd_warm_start_destroy(struct syncd_warm_start *);

#endif /* syncd-warm.h */
