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
 * orchd-seed: orchd's start-up read of Asic_Route (orchd-seed.h).
 */

#include <config.h>

#include "daemons/orchd/orchd-seed.h"

#include <stdlib.h>
#include <string.h>

#include "daemons/orchd/orchd-asic-read.h"
#include "daemons/orchd/orchd-core.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-options.h"
#include "daemons/orchd/orchd-route-file.h"
#include "daemons/orchd/orchd-worker.h"
#include "lib/fib-prefix.h"
#include "lib/route-key.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovsdb-idl.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_seed);

/* Records one Asic_Route row found at start, if it is one of ours: the
 * worker then knows it is programmed (or not), and on the northbound fast
 * path the first resync must name its route or it is removed.  Returns
 * true if it was seeded. */
static bool
seed_row(struct orchd *o, const struct orchd_asic_row *ar)
{
    enum orchd_action action;
    struct fib_prefix prefix;
    struct orchd_entry *e;
    char *error = fib_prefix_parse(ar->prefix, &prefix);

    if (error || !orchd_action_from_string(ar->packet_action, &action)) {
        free(error);
        return false;
    }
    e = orchd_entry_create(&o->entries, ar->vrf, &prefix, action,
                           ar->nh_keys, ar->nh_weights, ar->n_nexthops);
    if (!uuid_equals(&e->asic_uuid, &ar->uuid)) {
        /* Not one of ours (or from another naming scheme). */
        orchd_entry_unref(e);
        return false;
    }
    /* The Route row that fpmsyncd names this route with, for the file
     * source's sharing of entries (orchd-source-file.c). */
    route_key_route_uuid(ar->vrf, &prefix, &e->route_uuid);
    orchd_worker_seed(o->worker, e,
                      ar->state && !strcmp(ar->state, "programmed")
                      && ar->applied_seq == ar->seq, ar->seq);
    return true;
}

/* orchd_asic_read_cb and orchd_route_file_asic_cb: seeds row 'ar'. */
void
orchd_seed_read_row(void *seed_, const struct orchd_asic_row *ar)
{
    struct orchd_seed *seed = seed_;

    seed->n_seeded += seed_row(seed->o, ar);
    if (seed->keep_rows) {
        uuidset_insert(&seed->rows, &ar->uuid);
    }
}

/* Initializes 'seed' for 'o', keeping the UUIDs of the rows read if
 * 'keep_rows' (for the orphan check that the northbound OVSDB path
 * makes).  Reading begins at the first orchd_seed_run(). */
void
orchd_seed_init(struct orchd_seed *seed, struct orchd *o, bool keep_rows)
{
    memset(seed, 0, sizeof *seed);
    seed->o = o;
    seed->keep_rows = keep_rows;
    uuidset_init(&seed->rows);
}

/* Reads the rows from --asic-from-file, in one go: a few seconds of
 * orchd's CPU at a million rows, against some 20 s of ovsdb-server
 * composing selects while it also composes orchd's Route replica.
 * Returns false, having seeded nothing, if the file could not be read. */
static bool
read_from_file(struct orchd_seed *seed)
{
    const struct orchd_options *opts = seed->o->opts;
    struct orchd_route_file_stats stats;
    char *error;

    error = orchd_route_file_read(opts->asic_file, opts->instance, NULL,
                                  orchd_seed_read_row, seed, &stats);
    if (error) {
        VLOG_WARN("%s; reading Asic_Route from %s instead", error,
                  opts->db_remote);
        free(error);
        uuidset_clear(&seed->rows);
        return false;
    }
    VLOG_INFO("%s: %"PRIuSIZE" Asic_Route rows read in %lld ms "
              "(%"PRIuSIZE" unreadable)", opts->asic_file, stats.asic_rows,
              stats.ms, stats.bad_rows);
    return true;
}

/* Reads on; returns true once every row has been read. */
bool
orchd_seed_run(struct orchd_seed *seed)
{
    const struct orchd_options *opts = seed->o->opts;
    enum ovsdb_select_reader_state state;
    struct orchd_asic_read *r;

    if (seed->done) {
        return true;
    }
    if (opts->asic_file && !seed->file_failed) {
        seed->done = read_from_file(seed);
        seed->file_failed = !seed->done;
        if (seed->done) {
            return true;
        }
    }
    if (!seed->read) {
        if (time_msec() < seed->retry_at) {
            return false;
        }
        if (!seed->start) {
            seed->start = time_msec();
        }
        seed->read = orchd_asic_read_create(opts->db_remote, opts->instance,
                                            opts->asic_read_slice,
                                            orchd_seed_read_row, seed);
    }
    r = seed->read;
    state = orchd_asic_read_run(r);
    if (state == OVSDB_SELECT_READER_DONE) {
        VLOG_INFO("Asic_Route read: %"PRIuSIZE" rows in %lld ms "
                  "(%"PRIuSIZE" unreadable), %"PRIuSIZE" slices of "
                  "%"PRId64" seqs (at most %"PRIuSIZE" rows in one), "
                  "%"PRIuSIZE" probes",
                  orchd_asic_read_n_rows(r), time_msec() - seed->start,
                  orchd_asic_read_n_bad(r), orchd_asic_read_n_slices(r),
                  opts->asic_read_slice, orchd_asic_read_max_slice_rows(r),
                  orchd_asic_read_n_probes(r));
        seed->done = true;
    } else if (state == OVSDB_SELECT_READER_FAILED) {
        VLOG_WARN("%s: reading Asic_Route failed (%s); trying again",
                  opts->db_remote, orchd_asic_read_error(r));
        uuidset_clear(&seed->rows);
        seed->retry_at = time_msec() + 1000;
    } else {
        return false;
    }
    orchd_asic_read_destroy(r);
    seed->read = NULL;
    return seed->done;
}

/* Arranges for poll_block() to wake when orchd_seed_run() has work to
 * do. */
void
orchd_seed_wait(const struct orchd_seed *seed)
{
    if (seed->read) {
        orchd_asic_read_wait(seed->read);
    } else if (!seed->done) {
        poll_timer_wait_until(seed->retry_at);
    }
}

/* Finishes the read begun beside the IDL's first copy, serving 'unixctl'
 * meanwhile, unless orchd is told to exit. */
void
orchd_seed_complete(struct orchd_seed *seed, struct unixctl_server *unixctl)
{
    while (!orchd_seed_run(seed) && !seed->o->exiting) {
        unixctl_server_run(unixctl);
        orchd_seed_wait(seed);
        unixctl_server_wait(unixctl);
        poll_block();
    }
}

/* Frees what 'seed' holds. */
void
orchd_seed_destroy(struct orchd_seed *seed)
{
    orchd_asic_read_destroy(seed->read);
    uuidset_destroy(&seed->rows);
}

/* Ends the initial sync: removes the Asic_Route rows read at start
 * ('seed''s, kept on the northbound OVSDB path only) that no route wants
 * (not in 'wanted', which this destroys), and logs what it found, with
 * 'n_routes' routes processed. */
void
orchd_seed_finish_sync(struct orchd_seed *seed, struct uuidset *wanted,
                       uint64_t n_routes)
{
    struct orchd *o = seed->o;
    const struct uuidset_node *un;
    size_t n_orphans = 0;

    UUIDSET_FOR_EACH (un, &seed->rows) {
        if (!uuidset_contains(wanted, &un->uuid)) {
            orchd_worker_del(o->worker, &un->uuid);
            n_orphans++;
        }
    }
    uuidset_destroy(wanted);
    ovsdb_idl_track_clear(o->idl);
    VLOG_INFO("initial sync: %"PRIuSIZE" entries already in Asic_Route, "
              "%"PRIu64" routes, %"PRIuSIZE" stale entries to remove",
              seed->n_seeded, n_routes, n_orphans);
    o->synced = true;
}
