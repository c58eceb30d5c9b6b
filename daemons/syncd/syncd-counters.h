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

#ifndef SYNCD_COUNTERS_H
#define SYNCD_COUNTERS_H 1

/* syncd-counters: writes the simulator's per-route hit counters into the
 * OVSDB column Route.counters, key "packets".
 *
 * Which routes
 * ============
 *
 * Only routes whose counters moved.  syncd is the only caller of the
 * simulator's lookups, so whoever calls asic_sim_lookup() reports the
 * route it hit with syncd_counters_note_hit().  The module keeps those
 * routes in a "dirty" hmap keyed by (virtual router, prefix), with the
 * Route row's UUID computed once (lib/route-key.h); nothing ever walks the
 * whole FIB.  An entry lives only while it is dirty or being written, so
 * the memory used is bounded by the number of distinct routes hit in one
 * interval.
 *
 * Writing
 * =======
 *
 * Every 'interval_msec' a round starts: the module reads each dirty
 * route's current hit count from the simulator (the custom route
 * attribute ASIC_SIM_ROUTE_ENTRY_ATTR_HIT_COUNT; a route that has gone
 * since is skipped) and writes it with one "mutate" operation per row,
 * selected by "_uuid" (a hash lookup on the server), whose mutations are a
 * partial map update of the one key, as OVS's IDL sends setkey:
 *
 *     ["counters", "delete", ["set", ["packets"]]]
 *     ["counters", "insert", ["map", [["packets", N]]]]
 *
 * Up to 'batch' rows go in one transaction, with at most one transaction
 * outstanding (lib/ovsdb-writer.h, on a connection of its own); a round
 * ends when no dirty route is left.  A route hit again while its write is
 * outstanding stays dirty for the next round.  A Route row that does not
 * exist (the Asic_Route row was written by someone other than orchd)
 * matches nothing: the operation succeeds with count 0 and is counted as
 * "missing".  If the connection drops, the routes of the lost transaction
 * become dirty again; a refused transaction is counted and dropped.
 *
 * Thread safety: none; the thread that owns syncd's main loop owns it. */

#include <stdbool.h>
#include <stdint.h>

#include "asic-sim/sai.h"

/* Options for syncd_counters_create(). */
struct syncd_counters_options {
    const char *remote;         /* Database remote, e.g. "unix:db.sock". */
    unsigned int interval_msec; /* Time between rounds; 0 disables the
                                 * module (nothing is tracked or
                                 * written). */
    uint32_t batch;             /* Rows per transaction (0 for the
                                 * default, SYNCD_COUNTERS_DEFAULT_BATCH). */
};

#define SYNCD_COUNTERS_DEFAULT_INTERVAL 1000  /* Milliseconds. */
#define SYNCD_COUNTERS_DEFAULT_BATCH 5000     /* Rows. */

/* Counters of the counters. */
struct syncd_counters_stats {
    bool enabled;               /* Is the module on? */
    bool connected;             /* Is its database connection up? */
    uint64_t hits;              /* Hits reported by note_hit(). */
    uint64_t dirty;             /* Routes waiting to be written now. */
    uint64_t inflight_rows;     /* Rows in the transaction outstanding. */
    uint64_t rounds;            /* Rounds that wrote something. */
    uint64_t txns;              /* Transactions sent... */
    uint64_t rows;              /* ...with so many row mutates... */
    uint64_t acked;             /* ...of which so many were committed... */
    uint64_t missing;           /* ...though so many matched no Route row. */
    uint64_t gone;              /* Dirty routes no longer in the simulator,
                                 * not written. */
    uint64_t failed_txns;       /* Transactions the server refused. */
    uint64_t lost_txns;         /* Transactions lost to a disconnection,
                                 * their routes made dirty again. */
};

struct syncd_counters *syncd_counters_create(
    const struct syncd_counters_options *);
void syncd_counters_destroy(struct syncd_counters *);

void syncd_counters_note_hit(struct syncd_counters *, const char *vrf,
                             const sai_route_entry_t *);

void syncd_counters_run(struct syncd_counters *);
void syncd_counters_wait(struct syncd_counters *);
void syncd_counters_get_stats(const struct syncd_counters *,
                              struct syncd_counters_stats *);

#endif /* syncd-counters.h */
