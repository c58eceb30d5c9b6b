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

/*
 * orchd-core: the state that orchd's main loop, its route source
 * (orchd-source.h) and its unixctl commands share.
 *
 * main() (orchd.c) owns one struct orchd.  The route source, whichever
 * it is, turns its routes into entries through orchd-resolve.h and hands
 * them to the worker; the commands (orchd-unixctl.h) read the counters
 * and ask the source and the worker.  Nothing here is a file-scope
 * global: every part is handed the struct.
 */

#ifndef ORCHD_CORE_H
#define ORCHD_CORE_H 1

#include <stdbool.h>
#include <stdint.h>

#include "daemons/orchd/orchd-entry.h"
#include "lib/ovsdb-cs-retry.h"
#include "sset.h"

struct orchd_asic_acks;
struct orchd_cache;
struct orchd_options;
struct global_follower;
struct orchd_replica_widening;
struct orchd_show;
struct orchd_source;
struct orchd_status;
struct orchd_worker;
struct ovsdb_idl;
struct ovsdb_idl_index;
struct perf_timer;

/* The daemon's state. */
struct orchd {
    struct orchd_options *opts;     /* The command line and features. */
    struct orchd_entry_space entries; /* The entries' instance and VRF
                                       * names. */
    struct ovsdb_idl *idl;          /* Replica of the database: Vrf
                                     * always, Route and Nexthop_Group as
                                     * the source asks (Global is the
                                     * follower's). */
    struct ovsdb_cs_retry idl_retry; /* Its reconnection once the server
                                      * is back. */
    struct global_follower *global; /* Follows the Global row: the
                                     * features and the paths. */
    unsigned int global_seqno;      /* Its seqno when last taken in. */
    struct ovsdb_idl_index *nhg_by_id; /* Nexthop_Group by id, or NULL if
                                        * the source replicates none. */
    struct orchd_source *source;    /* Where the routes come from. */
    struct orchd_cache *cache;      /* Programmed routes. */
    struct orchd_worker *worker;    /* Bulks and writes. */
    struct orchd_show *show;        /* fib/show, or NULL. */
    struct orchd_status *status;    /* Route.status write-back (unused on
                                     * the northbound fast path). */
    struct orchd_asic_acks *acks;   /* syncd's acknowledgements on the
                                     * southbound OVSDB path, or NULL. */
    struct orchd_replica_widening *widening; /* Route's replica in steps:
                                              * at start, and again after
                                              * a lost connection. */
    struct perf_timer *drain_timer; /* "DRAIN" stage. */
    struct sset vrfs;               /* Names of the Vrf rows. */
    bool db_has_marks;              /* The schema has Write_Mark. */
    bool synced;                    /* Initial reconciliation done. */
    bool exiting;                   /* "exit" received. */

    /* Counters. */
    uint64_t n_updates;             /* Route rows processed. */
    uint64_t n_deletes;             /* Route rows deleted. */
    uint64_t n_bad;                 /* Routes that could not be parsed. */
    uint64_t n_unresolved;          /* Routes waiting for a next-hop group. */
};

#endif /* orchd-core.h */
