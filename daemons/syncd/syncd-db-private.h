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

#ifndef SYNCD_DB_PRIVATE_H
#define SYNCD_DB_PRIVATE_H 1

/* The OVSDB path's insides (see daemons/syncd/syncd-db.h for what the path
 * does), shared by its three files:
 *
 *   - daemons/syncd/syncd-db.c: the monitor, the queue of updates
 *     and their processing a bounded number of rows at a time, the
 *     outcomes of the apply step, the module's life cycle;
 *
 *   - daemons/syncd/syncd-db-read.c: the read of Asic_Route in slices of
 *     its seq column that each (re)start of the monitor begins;
 *
 *   - daemons/syncd/syncd-db-update.c: what a row change does (routes
 *     submitted or removed, rows marked bad or held for their VRF), and
 *     the Vrf and Write_Mark rows.
 *
 * Each calls only the files listed after it: syncd-db.c calls the other
 * two, syncd-db-read.c calls syncd-db-update.c.  Nothing outside these
 * three files includes this header. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemons/syncd/syncd-db.h"
#include "daemons/syncd/syncd-marks.h"
#include "daemons/syncd/syncd-rows.h"
#include "lib/ovsdb-cs-retry.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "smap.h"
#include "sset.h"
#include "uuidset.h"

struct ovsdb_cs;
struct ovsdb_cs_db_update;
struct ovsdb_cs_event;
struct ovsdb_cs_row_update;
struct ovsdb_cs_table_update;
struct ovsdb_slice_reader;
struct shash;
struct syncd_apply;
struct syncd_writeback;

#define SYNCD_DB_NAME "Fibsync"     /* The database. */
#define SYNCD_DB_TABLE "Asic_Route" /* The table of routes. */

/* An update being processed. */
struct sdb_event {
    struct ovs_list node;       /* In 'db->events'. */
    struct ovsdb_cs_event *event; /* Owns the JSON. */
    struct ovsdb_cs_db_update *du;  /* Parsed update. */
    const struct ovsdb_cs_table_update *tu; /* Asic_Route, or NULL. */
    const struct ovsdb_cs_table_update *vrf_tu; /* Vrf, or NULL. */
    const struct ovsdb_cs_table_update *mark_tu; /* Write_Mark, or NULL. */
    bool clear;                 /* Replaces everything known? */
    bool started;               /* Processing begun? */
    int phase;                  /* 0: removals, 1: the rest. */
    size_t cursor;              /* Next row update of 'tu' in 'phase'. */
};

/* The parts of a read of Asic_Route (see "Reading" in syncd-db.h). */
enum sdb_read_part {
    SDB_READ_ALL,               /* Every row, every column. */
    SDB_READ_KEYS,              /* After a reconnection, the rows at or
                                 * below the highest seq known: seq and
                                 * the write-back's columns alone... */
    SDB_READ_NEWER,             /* ...then those above it, every column
                                 * (or every row, if SDB_READ_KEYS could
                                 * not settle some). */
};

/* The OVSDB path. */
struct syncd_db {
    struct syncd_apply *apply;  /* Where operations go. */
    char *remote;               /* Database remote. */
    uint32_t budget;            /* Row updates processed per run. */
    int64_t read_slice;         /* Seq values per select of a read. */
    int instance;               /* ASIC instance whose rows are read. */

    /* Reading. */
    struct ovsdb_cs *cs;        /* The monitor. */
    struct ovsdb_cs_retry retry; /* Its reconnection once the server is
                                  * back. */
    struct ovs_list events;     /* "struct sdb_event"s to process. */
    size_t backlog;             /* Row updates in 'events' unprocessed. */
    struct syncd_row_parsed parsed; /* The row being parsed. */
    bool initial_done;          /* First read of Asic_Route done? */

    /* The read of Asic_Route that each (re)start of the monitor begins
     * (see "Reading" in syncd-db.h). */
    struct ovsdb_slice_reader *reader; /* The read, if one is running. */
    enum sdb_read_part part;    /* Which part of it. */
    int64_t read_known_seq;     /* Highest seq of a row known when the
                                 * read began (SDB_READ_KEYS). */
    struct syncd_marks marks;   /* The Write_Mark rows (syncd-marks.h)... */
    bool marks_hold;            /* ...say, as the monitor began again,
                                 * that the rows known stand as known. */
    size_t read_unsettled;      /* Rows the SDB_READ_KEYS part could not
                                 * settle by their seq alone. */
    size_t read_rows_before;    /* Rows read by the parts before. */
    struct uuidset gone;        /* Rows the monitor deleted since it
                                 * began: a slice may still hold them. */
    long long int read_started; /* When it began (msec). */
    long long int read_retry;   /* If nonzero, when to start it again
                                 * after a failure (msec). */

    struct syncd_rows rows;     /* The rows known. */
    struct smap vrfs;           /* Vrf rows: UUID (as text) to name. */
    struct sset vrf_names;      /* Their names. */
    struct hmap held;           /* "struct held_row"s, by uuid_hash(). */
    struct syncd_writeback *wb; /* Writes their outcomes back. */

    struct syncd_db_stats stats; /* Counters (some computed on demand). */
};

/* Row changes, Vrf and Write_Mark rows (syncd-db-update.c). */
bool syncd_db_process_row_phase0(struct syncd_db *, struct sdb_event *,
                                 const struct ovsdb_cs_row_update *);
void syncd_db_process_row_phase1(struct syncd_db *, struct sdb_event *,
                                 const struct ovsdb_cs_row_update *);
void syncd_db_process_vrfs(struct syncd_db *, const struct sdb_event *);
void syncd_db_process_marks(struct syncd_db *, const struct sdb_event *);
void syncd_db_row_destroy(struct syncd_db *, struct syncd_row *);
bool syncd_db_row_says_programmed(const struct shash *columns,
                                  int64_t *applied_seq);
void syncd_db_event_destroy(struct sdb_event *);
void syncd_db_held_destroy(struct syncd_db *);
void syncd_db_count_wb_skipped(struct syncd_db *);

/* The read of Asic_Route (syncd-db-read.c). */
void syncd_db_read_start(struct syncd_db *);
void syncd_db_read_run(struct syncd_db *);
void syncd_db_read_stop(struct syncd_db *);

#endif /* syncd-db-private.h */
