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
 * orchd-source-northbound: routes from fpmsyncd over ZeroMQ, already
 * resolved (--northbound-zmq; orchd-source.h).
 *
 * orchd replicates neither Route nor Nexthop_Group on this path: the
 * routes come in fpmsyncd's frames (orchd-northbound.h), and fpmsyncd's
 * resync, not a read of the database, says what stands after a restart.
 * Route.status goes back to fpmsyncd in RESULTS frames, which writes it.
 * There is no route index here yet: fib/show and cache/verify answer
 * that they cannot.
 */

#include <config.h>

#include <stdlib.h>

#include "daemons/orchd/orchd-core.h"
#include "daemons/orchd/orchd-northbound.h"
#include "daemons/orchd/orchd-options.h"
#include "daemons/orchd/orchd-replica.h"
#include "daemons/orchd/orchd-resolve.h"
#include "daemons/orchd/orchd-seed.h"
#include "daemons/orchd/orchd-source.h"
#include "daemons/orchd/orchd-status.h"
#include "daemons/orchd/orchd-worker.h"
#include "lib/fibsync-instance.h"
#include "openvswitch/dynamic-string.h"
#include "sset.h"
#include "util.h"

/* The source's state. */
struct source_northbound {
    struct orchd_source up;     /* The class and the daemon. */
    struct orchd_northbound *nb; /* The channel from fpmsyncd. */
};

static const struct orchd_source_class source_northbound_class;

/* Returns the northbound source of 'source'. */
static struct source_northbound *
source_northbound_cast(const struct orchd_source *source)
{
    ovs_assert(source->class == &source_northbound_class);
    return CONTAINER_OF(source, struct source_northbound, up);
}

/* Creates the source and binds its channel.  The worker must exist. */
struct orchd_source *
orchd_source_northbound_create(struct orchd *o)
{
    struct source_northbound *sn = xzalloc(sizeof *sn);
    char *endpoint;

    sn->up.class = &source_northbound_class;
    sn->up.o = o;
    orchd_replica_register(o->idl, ORCHD_REPLICA_SMALL,
                           o->opts->replica_steps, o->widening);
    o->status = orchd_status_create(o->idl);
    /* Routes come from fpmsyncd's resync, not from OVSDB: syncd must not
     * sweep until that is complete (orchd-southbound.c). */
    orchd_worker_hold_resync(o->worker);
    endpoint = (o->opts->nb_endpoint
                ? xstrdup(o->opts->nb_endpoint)
                : fibsync_instance_endpoint("northbound",
                                            o->opts->instance));
    sn->nb = orchd_northbound_create(endpoint, o->worker, &o->entries);
    free(endpoint);
    return &sn->up;
}

/* orchd_source_class's 'destroy'. */
static void
source_northbound_destroy(struct orchd_source *source)
{
    struct source_northbound *sn = source_northbound_cast(source);

    orchd_northbound_destroy(sn->nb);
    free(sn);
}

/* orchd_source_class's 'initial_sync': the read of Asic_Route seeded the
 * worker; fpmsyncd's resync says what differs and what is stale. */
static void
source_northbound_initial_sync(struct orchd_source *source,
                               struct orchd_seed *seed,
                               struct unixctl_server *unixctl)
{
    struct sset changed = SSET_INITIALIZER(&changed);
    struct uuidset wanted = UUIDSET_INITIALIZER(&wanted);

    orchd_seed_complete(seed, unixctl);
    orchd_resolve_read_vrfs(source->o, false, &changed);
    sset_destroy(&changed);
    orchd_seed_finish_sync(seed, &wanted, source->o->n_updates);
}

/* orchd_source_class's 'run'. */
static void
source_northbound_run(struct orchd_source *source)
{
    orchd_northbound_run(source_northbound_cast(source)->nb);
}

/* orchd_source_class's 'wait'. */
static void
source_northbound_wait(struct orchd_source *source)
{
    orchd_northbound_wait(source_northbound_cast(source)->nb);
}

/* orchd_source_class's 'results': to fpmsyncd, which writes
 * Route.status. */
static void
source_northbound_results(struct orchd_source *source,
                          struct ovs_list *results)
{
    const struct orchd_options *opts = source->o->opts;

    orchd_northbound_results(source_northbound_cast(source)->nb, results,
                             orchd_options_feature(
                                 opts, ORCHD_F_FIB_SUPPRESSION));
}

/* orchd_source_class's 'verify'. */
static const char *
source_northbound_verify(struct orchd_source *source OVS_UNUSED,
                         struct orchd_verify *v OVS_UNUSED)
{
    return "no Route replica on the northbound ZeroMQ path: use route-check";
}

/* orchd_source_class's 'format_status'. */
static void
source_northbound_format_status(const struct orchd_source *source
                                OVS_UNUSED, struct ds *s)
{
    /* fpmsyncd's resync sweeps (zmq/show counts it), not a
     * reconciliation here. */
    ds_put_cstr(s, "stale routes removed after a lost connection: 0\n");
}

/* orchd_source_class's 'format_features'. */
static void
source_northbound_format_features(const struct orchd_source *source,
                                  struct ds *s)
{
    const struct orchd_options *opts = source->o->opts;

    orchd_northbound_format_path(
        source_northbound_cast(source)->nb,
        &opts->features[ORCHD_F_NORTHBOUND_ZMQ], s);
}

/* orchd_source_class's 'format_zmq'. */
static void
source_northbound_format_zmq(const struct orchd_source *source,
                             struct ds *s)
{
    orchd_northbound_format(source_northbound_cast(source)->nb, s);
}

static const struct orchd_source_class source_northbound_class = {
    .name = "northbound",
    .keeps_seed_rows = false,
    .seeds_itself = false,
    .destroy = source_northbound_destroy,
    .initial_sync = source_northbound_initial_sync,
    .run = source_northbound_run,
    .wait = source_northbound_wait,
    .results = source_northbound_results,
    .verify = source_northbound_verify,
    .format_status = source_northbound_format_status,
    .format_features = source_northbound_format_features,
    .format_zmq = source_northbound_format_zmq,
};
