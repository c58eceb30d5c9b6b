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


#ifndef SYNCD_ROWS_H
#define SYNCD_ROWS_H 1

/* syncd-rows: the Asic_Route rows that syncd knows.
 *
 * The OVSDB path (daemons/syncd/syncd-db-update.c, from its monitor and
 * its reads) creates, changes and forgets rows as the database reports
 * them; the write-back (daemons/syncd/syncd-writeback.c)
 * writes their outcomes back.  Both work on this table.
 *
 * A row is 64 bytes: its uuid, the seq last submitted, its (VRF, prefix)
 * key (a deletion carries only the uuid, and the route must go), its
 * latest outcome and flags.  VRF names are interned, an index standing for
 * the name.  The message of a bad row is kept apart, since few rows have
 * one.  The table counts the rows in sync, waiting to be written back, and
 * bad, as flags change through the functions below.
 *
 * syncd_rows_parse() reads an Asic_Route row's columns, as the monitor
 * hands them over (column name to JSON value), into a key and a route.
 * It trusts nothing in them: whatever a row holds, it returns a parsed
 * row or a message saying why the row is bad (tests/fuzz/fuzz-syncd-row.c
 * drives it with hostile rows).
 *
 * Thread safety: none; syncd's main thread owns the rows. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asic-sim/sai.h"
#include "lib/fib-prefix.h"
#include "openvswitch/hmap.h"
#include "openvswitch/util.h"
#include "uuid.h"

struct shash;
struct syncd_nexthop;

/* Outcome code (daemons/syncd/syncd-status.h) of a row that could not be used
 * at all; its message is syncd_rows_bad_msg()'s. */
#define SYNCD_ROW_CODE_BAD 0xff

/* Row flags. */
#define SYNCD_ROW_NO_ROUTE   0x01 /* No route was submitted for the row's
                                   * (vrf, prefix): a new or bad row, or
                                   * one whose old key was already
                                   * removed. */
#define SYNCD_ROW_BAD        0x02 /* The row is bad. */
#define SYNCD_ROW_SEEN       0x04 /* Seen in the current
                                   * resynchronization. */
#define SYNCD_ROW_WB_PENDING 0x08 /* Outcome to be written back. */
#define SYNCD_ROW_IN_SYNC    0x10 /* The database holds state=programmed,
                                   * applied_seq=seq for this row. */
#define SYNCD_ROW_ERROR_SET  0x20 /* The database row may hold an error
                                   * message: a write-back of "programmed"
                                   * must clear it. */

/* A monitored Asic_Route row: 64 bytes. */
struct syncd_row {
    struct hmap_node node;      /* In 'rows->rows', by uuid_hash(). */
    struct uuid uuid;           /* The row's _uuid. */
    int64_t seq;                /* The 'seq' last submitted. */
    struct fib_prefix prefix;   /* Its prefix (unless NO_ROUTE). */
    uint16_t vrf;               /* Its VRF, an index in 'vrf_names'. */
    uint8_t flags;              /* SYNCD_ROW_*. */
    uint8_t wb_code;            /* Latest outcome: a syncd_status_code()
                                 * or SYNCD_ROW_CODE_BAD. */
};
BUILD_ASSERT_DECL(sizeof(struct syncd_row) <= 64);

/* The table. */
struct syncd_rows {
    struct hmap rows;           /* "struct syncd_row"s by uuid_hash(). */
    struct hmap vrfs;           /* Interned VRF names, by name. */
    char **vrf_names;           /* VRF names by index. */
    size_t n_vrfs;              /* Number of 'vrf_names'. */
    size_t allocated_vrfs;      /* Their capacity. */
    struct hmap bad_msgs;       /* Messages of bad rows, by uuid_hash(). */
    uint64_t n_in_sync;         /* Rows with SYNCD_ROW_IN_SYNC. */
    uint64_t n_wb_pending;      /* Rows with SYNCD_ROW_WB_PENDING. */
    uint64_t n_bad;             /* Rows with SYNCD_ROW_BAD. */
};

void syncd_rows_init(struct syncd_rows *);
void syncd_rows_destroy(struct syncd_rows *);

struct syncd_row *syncd_rows_add(struct syncd_rows *, const struct uuid *,
                                 uint8_t flags);
void syncd_rows_remove(struct syncd_rows *, struct syncd_row *);

void syncd_rows_set_bad(struct syncd_rows *, struct syncd_row *, char *msg);
void syncd_rows_set_good(struct syncd_rows *, struct syncd_row *);
const char *syncd_rows_bad_msg(const struct syncd_rows *,
                               const struct uuid *);

uint16_t syncd_rows_vrf_intern(struct syncd_rows *, const char *name,
                               bool *overflow);

/* An Asic_Route row's columns, parsed.  Keep one and reuse it: its
 * next-hop array grows to the widest row once. */
struct syncd_row_parsed {
    const char *vrf;            /* VRF name (points into the columns). */
    uint16_t vrf_index;         /* 'vrf', interned in the table. */
    struct fib_prefix prefix;   /* Prefix. */
    sai_packet_action_t action; /* packet_action. */
    int64_t seq;                /* seq. */
    bool has_seq;               /* Was 'seq' parsed? */
    size_t n_nexthops;          /* Next hops in 'nexthops'. */
    struct syncd_nexthop *nexthops; /* Parsed next hops; their 'ifname's
                                     * point into the columns. */
    size_t allocated_nexthops;  /* Capacity of 'nexthops'. */
};

void syncd_row_parsed_init(struct syncd_row_parsed *);
void syncd_row_parsed_destroy(struct syncd_row_parsed *);
char *syncd_rows_parse_key(struct syncd_rows *, const struct shash *columns,
                           struct syncd_row_parsed *)
    OVS_WARN_UNUSED_RESULT;
char *syncd_rows_parse(struct syncd_rows *, const struct shash *columns,
                       struct syncd_row_parsed *)
    OVS_WARN_UNUSED_RESULT;

/* Returns the row with 'uuid', or NULL. */
static inline struct syncd_row *
syncd_rows_find(const struct syncd_rows *rows, const struct uuid *uuid)
{
    struct syncd_row *row;

    HMAP_FOR_EACH_WITH_HASH (row, node, uuid_hash(uuid), &rows->rows) {
        if (uuid_equals(&row->uuid, uuid)) {
            return row;
        }
    }
    return NULL;
}

/* Returns the name of VRF index 'vrf'. */
static inline const char *
syncd_rows_vrf_name(const struct syncd_rows *rows, uint16_t vrf)
{
    return rows->vrf_names[vrf];
}

/* Sets or clears SYNCD_ROW_IN_SYNC of 'row'. */
static inline void
syncd_rows_set_in_sync(struct syncd_rows *rows, struct syncd_row *row,
                       bool in_sync)
{
    if (in_sync && !(row->flags & SYNCD_ROW_IN_SYNC)) {
        row->flags |= SYNCD_ROW_IN_SYNC;
        rows->n_in_sync++;
    } else if (!in_sync && row->flags & SYNCD_ROW_IN_SYNC) {
        row->flags &= ~SYNCD_ROW_IN_SYNC;
        rows->n_in_sync--;
    }
}

/* Sets SYNCD_ROW_WB_PENDING of 'row'.  Returns true if it was clear. */
static inline bool
syncd_rows_set_wb(struct syncd_rows *rows, struct syncd_row *row)
{
    if (row->flags & SYNCD_ROW_WB_PENDING) {
        return false;
    }
    row->flags |= SYNCD_ROW_WB_PENDING;
    rows->n_wb_pending++;
    return true;
}

/* Clears SYNCD_ROW_WB_PENDING of 'row'. */
static inline void
syncd_rows_clear_wb(struct syncd_rows *rows, struct syncd_row *row)
{
    if (row->flags & SYNCD_ROW_WB_PENDING) {
        row->flags &= ~SYNCD_ROW_WB_PENDING;
        rows->n_wb_pending--;
    }
}

#endif /* syncd-rows.h */
