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
 * orchd-southbound: orchd's end of the southbound fast path, orchd ->
 * syncd over ZeroMQ (lib/zmq-channel.h carrying lib/route-frame.h frames;
 * syncd's end is syncd-zmq.h).
 *
 * Choosing the path
 * =================
 *
 * The settings southbound_zmq (--southbound-zmq=on|off, else
 * Global.southbound_zmq, else off) and asic_route_write_behind
 * (--asic-route-write-behind=on|off, else Global.asic_route_write_behind,
 * else on) are read with the Global row; orchd_southbound_choose() fixes
 * them, once, when orchd has first read Global.  The choice holds until
 * orchd restarts; features/show says so if Global has changed since.
 *
 * Bulks out, results in
 * =====================
 *
 * On the fast path the worker (orchd-worker.h) sends each bulk the
 * bulker builds as one ROUTES frame, built straight from the bulk (entries
 * in bulk order, each with its write's seq, op and content), instead of an
 * Asic_Route transaction, and reports it sent as soon as the channel took
 * it.  The bulker builds no bulk while the channel's window is full: that
 * is the back-pressure.  Each RESULTS entry from syncd acknowledges the
 * write of its (VRF, prefix) numbered seq, as the Asic_Route applied_seq
 * monitor does on the OVSDB path, so the read cache and Route.status
 * follow as there.  Removals need no acknowledgement (as on the OVSDB
 * path, they are done once sent); their results only delete rows.
 *
 * Asic_Route stays the record of what was programmed: with write-behind
 * on, each result is written into its row behind (orchd-writebehind.h),
 * through the worker's writer, never waited on.
 *
 * Resync
 * ======
 *
 * When the channel's peer callback fires (first contact, or syncd
 * restarted with an empty switch), every route the bulker has written is
 * queued again as a SET (orchd_bulker_resync()), and once all of them have
 * gone out, an entry-less ROUTES frame flagged ROUTE_FRAME_F_SYNC_END
 * tells syncd to remove whatever the resync did not name.  syncd reports
 * each such removal as a DEL result with seq 0, which deletes its row.
 *
 * Thread safety: the settings belong to orchd's main thread; a 'struct
 * orchd_southbound' belongs to the thread that runs the worker's bulker
 * (the assistant thread with --ring), which creates, runs and destroys it
 * with the worker's mutex held.
 */

#ifndef ORCHD_SOUTHBOUND_H
#define ORCHD_SOUTHBOUND_H 1

#include <stdbool.h>
#include <stdint.h>
#include "lib/setting.h"

struct ds;
struct global_follower;
struct orchd_bulk;
struct orchd_bulker;
struct ovsdb_writer;

/* ---- Settings (main thread) --------------------------------------------- */

/* The fast path's options, as chosen. */
struct orchd_southbound_options {
    char *endpoint;             /* Where syncd binds. */
    bool write_behind;          /* Write Asic_Route rows behind. */
    bool hold_resync_end;       /* End no resync before
                                 * orchd_southbound_release_resync(). */
    int instance;               /* The ASIC instance of the entries. */
};

#define ORCHD_SOUTHBOUND_OPTION_ENUMS           \
    OPT_SOUTHBOUND_ZMQ,                         \
    OPT_SOUTHBOUND_ENDPOINT,                    \
    OPT_ASIC_ROUTE_WRITE_BEHIND

#define ORCHD_SOUTHBOUND_LONG_OPTIONS                                   \
    {"southbound-zmq", required_argument, NULL, OPT_SOUTHBOUND_ZMQ},    \
    {"southbound-endpoint", required_argument, NULL,                    \
     OPT_SOUTHBOUND_ENDPOINT},                                          \
    {"asic-route-write-behind", required_argument, NULL,                \
     OPT_ASIC_ROUTE_WRITE_BEHIND}

/* The settings of the path, and the choice once made: part of orchd's
 * options (orchd-options.h). */
struct orchd_southbound_settings {
    struct setting zmq;         /* southbound_zmq. */
    struct setting write_behind; /* asic_route_write_behind. */
    char *endpoint;             /* --southbound-endpoint, or NULL. */
    int instance;               /* --instance. */
    bool chosen;                /* orchd_southbound_choose() was called. */
    bool chosen_zmq;            /* Whether the fast path is on. */
    struct orchd_southbound_options chosen_options; /* What it chose. */
};

/* The option handlers for getopt_long()'s switch, setting 'SB', a
 * struct orchd_southbound_settings *. */
#define ORCHD_SOUTHBOUND_OPTION_HANDLERS(SB)                \
    case OPT_SOUTHBOUND_ZMQ:                                \
        orchd_southbound_set_zmq(SB, optarg);               \
        break;                                              \
    case OPT_SOUTHBOUND_ENDPOINT:                           \
        orchd_southbound_set_endpoint(SB, optarg);          \
        break;                                              \
    case OPT_ASIC_ROUTE_WRITE_BEHIND:                       \
        orchd_southbound_set_write_behind(SB, optarg);      \
        break;

void orchd_southbound_settings_init(struct orchd_southbound_settings *);
void orchd_southbound_settings_destroy(struct orchd_southbound_settings *);
void orchd_southbound_set_zmq(struct orchd_southbound_settings *,
                              const char *on_off);
void orchd_southbound_set_instance(struct orchd_southbound_settings *,
                                   int instance);
void orchd_southbound_set_endpoint(struct orchd_southbound_settings *,
                                   const char *endpoint);
void orchd_southbound_set_write_behind(struct orchd_southbound_settings *,
                                       const char *on_off);
void orchd_southbound_usage(void);

void orchd_southbound_read_global(struct orchd_southbound_settings *,
                                  const struct global_follower *);
const struct orchd_southbound_options *orchd_southbound_choose(
    struct orchd_southbound_settings *);
bool orchd_southbound_enabled(const struct orchd_southbound_settings *);
void orchd_southbound_format_features(
    const struct orchd_southbound_settings *, struct ds *);

/* ---- The channel (the bulker's thread) ---------------------------------- */

/* Counters. */
struct orchd_southbound_stats {
    uint64_t bulks;             /* Bulks sent as ROUTES frames... */
    uint64_t routes;            /* ...with so many entries. */
    uint64_t unsendable;        /* Writes no frame can carry, failed. */
    uint64_t stalls;            /* Times the window was found full with
                                 * routes waiting. */
    uint64_t results_ok;        /* Results: programmed... */
    uint64_t results_error;     /* ...or not. */
    uint64_t results_del;       /* Results of removals (rows deleted). */
    uint64_t results_stale;     /* SET results for no write waiting. */
    uint64_t results_unchanged; /* Programmed results of writes resent
                                 * unchanged by a resync: no row written,
                                 * the row already says so. */
    uint64_t other_frames;      /* Data frames that were not RESULTS. */
    uint64_t resyncs;           /* Peer callbacks: full resyncs. */
    uint64_t sync_ends;         /* Resyncs ended with SYNC_END. */
};

struct orchd_southbound *orchd_southbound_create(
    const struct orchd_southbound_options *, struct orchd_bulker *,
    struct ovsdb_writer *, char **errorp);
void orchd_southbound_destroy(struct orchd_southbound *);

bool orchd_southbound_can_send(struct orchd_southbound *);
void orchd_southbound_send(struct orchd_southbound *, struct orchd_bulk *);
void orchd_southbound_release_resync(struct orchd_southbound *);
void orchd_southbound_yield_writebehind(struct orchd_southbound *,
                                        bool yield);
void orchd_southbound_run(struct orchd_southbound *);
void orchd_southbound_wait(struct orchd_southbound *);
bool orchd_southbound_is_idle(const struct orchd_southbound *);
void orchd_southbound_get_stats(const struct orchd_southbound *,
                                struct orchd_southbound_stats *);
void orchd_southbound_format(const struct orchd_southbound *, struct ds *);

#endif /* orchd-southbound.h */
