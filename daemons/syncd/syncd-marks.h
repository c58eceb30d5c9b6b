/*
 * Copyright (c) 2026 The fibsync authors.
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

#ifndef SYNCD_MARKS_H
#define SYNCD_MARKS_H 1

/* syncd-marks: the Write_Mark rows syncd follows, and whether Asic_Route
 * needs reading again when syncd's monitor begins again.
 *
 * When its monitor of Asic_Route begins again (ovsdb-server restarted, or
 * the connection dropped), syncd must learn what the table holds now: it
 * read every row at or below the highest seq it knew (seq, applied_seq
 * and state), 5-11 s of the server's work at a million rows, to find rows
 * the server lost (orchd's writes, syncd's own write-backs) and rows that
 * changed while it was away.  The marks (lib/ovsdb-write-mark.h) make
 * that read unneeded when nothing was lost or changed:
 *
 *   - orchd marks every Asic_Route transaction of the OVSDB path in its
 *     row ("orchd", "orchd-N"), and syncd monitors the Write_Mark table
 *     with Asic_Route.  The monitor reports the row's changes in order
 *     with the table's, so the (epoch, txn) last seen before the
 *     connection dropped, found the same in the monitor's first contents
 *     afterwards, says that the table holds what syncd saw of orchd's
 *     writes and nothing newer (an orchd write in between would have
 *     moved the row).
 *
 *   - syncd marks its own write-backs in its row (syncd-writeback.h),
 *     whose epoch starts again after each read; the row found at that
 *     epoch and at a txn no lower than the last that committed says that
 *     the table holds every outcome syncd wrote, and what it had read.
 *
 * Both hold: the rows syncd knows stand as it knows them, and only rows
 * above its highest seq are read.  Either fails (no row, another epoch,
 * orchd's at another txn, syncd's below its last committed write-back,
 * marks off, or a read still under way when the monitor began again):
 * the read by seq, as before.  syncd's epoch ends when a read begins,
 * and a new one begins when it ends: the marks vouch only for what a
 * whole read established.
 *
 * This module keeps the rows of the table as the monitor reports them and
 * answers the first question; syncd-db-update.c asks syncd-writeback.c
 * the second.  No I/O.  Thread safety: none. */

#include <stdbool.h>
#include <stdint.h>
#include "openvswitch/hmap.h"
#include "uuid.h"

struct ds;
struct ovsdb_cs_table_update;

/* The Write_Mark rows, as the monitor reports them. */
struct syncd_marks {
    char *orchd_writer;         /* The row of orchd's instance. */
    struct hmap rows;           /* "struct syncd_mark_row"s, by UUID. */
};

void syncd_marks_init(struct syncd_marks *, int instance);
void syncd_marks_destroy(struct syncd_marks *);

bool syncd_marks_update(struct syncd_marks *,
                        const struct ovsdb_cs_table_update *, bool clear,
                        struct ds *why);
bool syncd_marks_find(const struct syncd_marks *, const char *writer,
                      struct uuid *epoch, int64_t *txn);

#endif /* syncd-marks.h */
