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

#ifndef FPMSYNCD_DB_PRIVATE_H
#define FPMSYNCD_DB_PRIVATE_H 1

/* fpmsyncd-db-private: the database connection's state, shared by
 * fpmsyncd-db.c (the connection, the load, the flushes) and
 * fpmsyncd-db-format.c (what fpm/show and zmq/show say of it). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemons/fpmsyncd/fpmsyncd-db-monitors.h"
#include "lib/ovsdb-write-mark.h"
#include "lib/perf-timer.h"

/* The state of the database connection. */
enum fpmd_db_state {
    FPMD_DB_DISCONNECTED,       /* Not connected (or not yet). */
    FPMD_DB_CHECKING,           /* Connected again, reading the mark. */
    FPMD_DB_LOADING,            /* Connected, reading the database. */
    FPMD_DB_READY,              /* Writing. */
};

struct fpmd_db {
    struct ovsdb_writer *writer; /* Connection and transactions. */
    struct fpmd_rib *rib;       /* What to write. */
    struct fpmd_settings *settings; /* The Global row changes them. */
    struct global_follower *global; /* Follows the Global row. */
    unsigned int global_seqno;  /* Its seqno when last taken in. */
    struct fpmd_db_cfg cfg;     /* Where the Global row and the
                                 * configuration monitor's rows go
                                 * (fpmsyncd-db-monitors.c). */
    enum fpmd_db_state state;   /* Connection state. */
    size_t n_lost;              /* Transactions lost with the connection,
                                 * not logged yet. */

    /* Monitors. */
    struct json *cfg_id;        /* Outstanding Vrf "monitor" id. */
    struct json *status_id;     /* Outstanding "monitor_cond" id. */
    bool status_monitor;        /* Route.status monitor installed. */

    /* The mark (lib/ovsdb-write-mark.h): after a reconnection, whether
     * the database still holds what fpmsyncd committed, so that it need
     * not be read again. */
    struct ovsdb_write_mark mark;
    struct json *mark_id;       /* Outstanding select of the mark. */
    struct json *schema_id;     /* Outstanding "get_schema", sent as the
                                 * connection begins. */
    enum {
        MARKS_UNKNOWN,          /* No answer to "get_schema" yet. */
        MARKS_ON,               /* The schema has Write_Mark. */
        MARKS_OFF               /* It has not (before 1.5.0): a marked
                                 * transaction would be refused whole. */
    } marks;
    bool epoch_wanted;          /* The database was read while 'marks' was
                                 * unknown: start the epoch once known. */
    bool kept;                  /* The check passed; fpmd_db_run() has yet
                                 * to say so. */
    uint64_t n_kept;            /* Reconnections that kept what fpmsyncd
                                 * knew... */
    uint64_t n_read_again;      /* ...and that read the database again. */

    /* The load. */
    struct ovsdb_select_reader *nhg_reader; /* The load's Nexthop_Group
                                             * select, while under way. */
    struct ovsdb_slice_reader *route_reader; /* Then its Route slices. */
    long long int load_start;   /* When it started. */
    long long int last_load_ms; /* How long the last load took. */
    size_t last_load_slices;    /* Route slices the last load read. */

    /* Flushing. */
    long long int retry_at;     /* After a failed transaction, no flush
                                 * before this time. */
    int backoff;                /* Current retry backoff, ms. */
    struct perf_timer *flush_timer; /* "FLUSH": operations serialized and
                                     * sent. */
    long long int last_flush;   /* Time of the last transaction of rows
                                 * sent. */
    long long int last_status_flush; /* Time of the last transaction of
                                      * Route.status mutates sent. */
    uint64_t n_flushes;         /* Transactions sent. */
    uint64_t n_flush_ops;       /* Operations sent. */
    size_t min_flush, max_flush; /* Smallest and largest transaction. */
    uint64_t flush_hist[6];     /* Sizes: 1-9, 10-99, 100-999, 1000-9999,
                                 * 10000-99999, more. */

    /* Holding the writes while zebra streams (fpmd_db_hold()). */
    long long int hold_start;   /* When the hold began, 0 if none. */
    bool hold_spent;            /* The hold ran out during this stream: no
                                 * other before the stream ends. */
    uint64_t n_holds;           /* Holds begun. */
    uint64_t n_holds_spent;     /* ...that ran out while zebra streamed. */
    long long int held_ms;      /* Held in all, before 'hold_start'. */
};

#endif /* fpmsyncd-db-private.h */
