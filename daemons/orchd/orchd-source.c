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
 * orchd-source: the choice of orchd's route source, and the calls through
 * its class (orchd-source.h).
 */

#include <config.h>

#include "daemons/orchd/orchd-source.h"

#include "daemons/orchd/orchd-core.h"
#include "daemons/orchd/orchd-northbound.h"
#include "daemons/orchd/orchd-options.h"
#include "daemons/orchd/orchd-replica.h"
#include "daemons/orchd/orchd-resolve.h"
#include "daemons/orchd/orchd-status.h"
#include "sset.h"

/* Creates the source that the options and the Global row in force say
 * (orchd's path is chosen once, at start): fpmsyncd over ZeroMQ if
 * northbound_zmq is on, else the database file if --routes-from-file,
 * else the IDL replica. */
struct orchd_source *
orchd_source_create(struct orchd *o)
{
    const struct orchd_options *opts = o->opts;

    if (orchd_options_feature(opts, ORCHD_F_NORTHBOUND_ZMQ)) {
        return orchd_source_northbound_create(o);
    } else if (opts->routes_file) {
        return orchd_source_file_create(o);
    } else {
        return orchd_source_replica_create(o);
    }
}

/* Frees 'source'. */
void
orchd_source_destroy(struct orchd_source *source)
{
    if (source) {
        source->class->destroy(source);
    }
}

/* Runs the source's start-up; true once it may be read. */
bool
orchd_source_start_run(struct orchd_source *source)
{
    return !source->class->start_run || source->class->start_run(source);
}

/* Arranges for poll_block() to wake for the source's start-up. */
void
orchd_source_start_wait(struct orchd_source *source)
{
    if (source->class->start_wait) {
        source->class->start_wait(source);
    }
}

/* Processes the IDL's tracked changes; returns how many there were. */
size_t
orchd_source_idl_changed(struct orchd_source *source)
{
    return (source->class->idl_changed
            ? source->class->idl_changed(source) : 0);
}

/* Reads the VRF names again if a Vrf row changed, or if 'force' (after a
 * reload, which reports no deleted row), and once synced has the source
 * process again the routes whose VRF came (refused until then) or went
 * (refused from now on). */
void
orchd_source_read_vrfs(struct orchd_source *source, bool force)
{
    struct sset changed = SSET_INITIALIZER(&changed);
    struct orchd *o = source->o;

    if (orchd_resolve_read_vrfs(o, force, &changed) && o->synced
        && !sset_is_empty(&changed) && source->class->vrfs_changed) {
        source->class->vrfs_changed(source, &changed);
    }
    sset_destroy(&changed);
}

/* The replica is whole again after a lost connection: the VRF names are
 * read again (a Vrf row deleted meanwhile is reported by no one), then
 * the source reconciles its routes. */
void
orchd_source_reconcile(struct orchd_source *source)
{
    orchd_source_read_vrfs(source, true);
    if (source->class->reconcile) {
        source->class->reconcile(source);
    }
}

/* Runs the source's main-loop work. */
void
orchd_source_run(struct orchd_source *source)
{
    if (source->class->run) {
        source->class->run(source);
    }
}

/* Arranges for poll_block() to wake when orchd_source_run() has work. */
void
orchd_source_wait(struct orchd_source *source)
{
    if (source->class->wait) {
        source->class->wait(source);
    }
}

/* Does the source hold every route the database holds? */
bool
orchd_source_is_synced(const struct orchd_source *source)
{
    return !source->class->is_synced || source->class->is_synced(source);
}

/* The show source over the source's routes, or NULL. */
struct orchd_show_source *
orchd_source_show_source(struct orchd_source *source)
{
    return (source->class->show_source
            ? source->class->show_source(source) : NULL);
}

/* Hands the worker's 'results' to whoever writes Route.status for the
 * source: by default orchd itself, once Route is whole in its replica (a
 * write to a row still to come back would be dropped: orchd-replica.h). */
void
orchd_source_results(struct orchd_source *source, struct ovs_list *results)
{
    struct orchd *o = source->o;

    if (source->class->results) {
        source->class->results(source, results);
        return;
    }
    orchd_status_add_results(o->status, results);
    if (o->widening->done) {
        orchd_status_run(o->status);
    }
}

/* Appends the source's lines of orchd/status to 's'. */
void
orchd_source_format_status(const struct orchd_source *source, struct ds *s)
{
    if (source->class->format_status) {
        source->class->format_status(source, s);
    }
}

/* Appends the source's lines of features/show to 's'. */
void
orchd_source_format_features(const struct orchd_source *source,
                             struct ds *s)
{
    if (source->class->format_features) {
        source->class->format_features(source, s);
    } else {
        orchd_northbound_format_path(
            NULL, &source->o->opts->features[ORCHD_F_NORTHBOUND_ZMQ], s);
    }
}

/* Appends the source's lines of zmq/show to 's'. */
void
orchd_source_format_zmq(const struct orchd_source *source, struct ds *s)
{
    if (source->class->format_zmq) {
        source->class->format_zmq(source, s);
    } else {
        orchd_northbound_format(NULL, s);
    }
}
