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

#ifndef SYNCD_H
#define SYNCD_H 1

/* syncd: the daemon's state.  Its main file (daemons/syncd/syncd.c) makes
 * it and runs its main loop; the choice of the southbound path
 * (daemons/syncd/syncd-path.h) and the commands
 * (daemons/syncd/syncd-unixctl.h) get it from there, as an argument. */

#include <stdbool.h>

#include "daemons/syncd/syncd-rates.h"
#include "daemons/syncd/syncd-warm.h"
#include "lib/global-follower.h"

struct perf_timer;
struct setting;
struct syncd_apply;
struct syncd_counters;
struct syncd_db;
struct syncd_zmq;
struct unixctl_server;

/* The daemon. */
struct syncd {
    struct unixctl_server *unixctl; /* The control socket. */
    struct syncd_apply *apply;  /* The apply step and its switch. */
    struct global_follower *global; /* Follows the Global row. */
    unsigned int global_seqno;  /* Its seqno when last taken in. */
    struct syncd_db *db;        /* The OVSDB path, or NULL. */
    struct syncd_zmq *zmq;      /* The southbound fast path, or NULL. */
    struct global_follower_path path; /* Which path programs, once known. */
    const struct setting *southbound_zmq; /* What chose it, and whence. */
    struct syncd_counters *counters; /* Hit counters to Route.counters. */
    struct perf_timer *timer;   /* "BULK" stage. */
    const struct setting *max_bulk; /* Bulk size in force, and whence. */
    bool exiting;               /* "exit" received? */
    const char *warm_file;      /* Where "exit --warm" saves. */
    struct syncd_warm_start warm; /* What the warm start did. */
    bool warm_sweep;            /* OVSDB path: sweep the restored routes
                                 * Asic_Route did not confirm, once its
                                 * contents are in? */
    struct syncd_rates rates;   /* Route and write-back rates. */
};

#endif /* syncd.h */
