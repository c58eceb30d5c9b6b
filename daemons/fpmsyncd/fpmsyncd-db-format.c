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

/* fpmsyncd-db-format: what fpm/show and zmq/show say of the database
 * connection, the rib and the flushes (fpmsyncd-db.h). */

#include <config.h>

#include "daemons/fpmsyncd/fpmsyncd-db.h"
#include "daemons/fpmsyncd/fpmsyncd-db-private.h"

#include <inttypes.h>

#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/dynamic-string.h"
#include "timeval.h"
#include "util.h"

/* Appends fpm/show's lines about the database, the rib and the flushes to
 * 's'. */
void
fpmd_db_format(const struct fpmd_db *db, struct ds *s)
{
    static const char *states[] = { "disconnected", "checking", "loading",
                                    "ready" };
    long long int now = time_msec();
    struct ovsdb_writer_stats ws;

    ovsdb_writer_get_stats(db->writer, &ws);
    ds_put_format(s, "database: %s, %s", fpmd_db_get_remote(db),
                  states[db->state]);
    if (db->last_load_ms) {
        ds_put_format(s, " (last read took %lld ms, Route in %"PRIuSIZE
                      " slices)", db->last_load_ms, db->last_load_slices);
    }
    ds_put_char(s, '\n');
    ds_put_format(s, "writes held while zebra streamed: %"PRIu64" times "
                  "(%"PRIu64" ran out), %lld ms in all%s\n", db->n_holds,
                  db->n_holds_spent,
                  db->held_ms + (db->hold_start ? now - db->hold_start : 0),
                  db->hold_start ? ", holding now" : "");
    ds_put_format(s, "reconnections: %"PRIu64" found every committed "
                  "transaction, %"PRIu64" read the database again (mark "
                  "%s, transaction %"PRIu64" committed)\n", db->n_kept,
                  db->n_read_again, db->mark.enabled ? "on" : "off",
                  db->mark.committed);
    fpmd_rib_format(db->rib, s);
    ds_put_format(s, "flushes: %"PRIu64" (%"PRIu64" operations; size min %"
                  PRIuSIZE" max %"PRIuSIZE"; 1-9: %"PRIu64", 10-99: %"PRIu64
                  ", 100-999: %"PRIu64", 1000-9999: %"PRIu64", 10000+: %"
                  PRIu64")\n", db->n_flushes, db->n_flush_ops, db->min_flush,
                  db->max_flush, db->flush_hist[0], db->flush_hist[1],
                  db->flush_hist[2], db->flush_hist[3],
                  db->flush_hist[4] + db->flush_hist[5]);
    if (db->last_flush) {
        ds_put_format(s, "last flush: %lld ms ago, last commit: ",
                      now - db->last_flush);
        if (ws.last_commit_ms) {
            ds_put_format(s, "%lld ms ago", now - ws.last_commit_ms);
        } else {
            ds_put_cstr(s, "never");
        }
        ds_put_format(s, ", longest commit latency %lld ms\n",
                      ws.max_latency_ms);
    }
    ds_put_format(s, "committed: %"PRIu64"\n", ws.n_ops_committed);
    ds_put_format(s, "pending: %"PRIuSIZE"\n", fpmd_rib_n_pending(db->rib));
    ds_put_format(s, "in flight: %"PRIuSIZE"\n",
                  fpmd_rib_n_inflight_ops(db->rib));
}

/* Appends zmq/show's line about the database writer's backlog to 's':
 * rows waiting to be written, operations in flight, operations committed,
 * and how far behind the writer is. */
void
fpmd_db_format_backlog(const struct fpmd_db *db, struct ds *s)
{
    struct ovsdb_writer_stats ws;

    ovsdb_writer_get_stats(db->writer, &ws);
    ds_put_format(s, "ovsdb writer: %"PRIuSIZE" rows queued, %"PRIuSIZE
                  " transactions (%"PRIuSIZE" operations) in flight, %"
                  PRIu64" operations committed, %.1f s behind\n",
                  fpmd_rib_n_pending(db->rib),
                  ovsdb_writer_n_in_flight(db->writer),
                  fpmd_rib_n_inflight_ops(db->rib), ws.n_ops_committed,
                  ovsdb_writer_lag_ms(db->writer) / 1000.0);
}
