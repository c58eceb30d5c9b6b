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

/* syncd-path: the choice of syncd's southbound path, and its start (see
 * syncd-path.h). */

#include <config.h>

#include "daemons/syncd/syncd-path.h"

#include <stdlib.h>

#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-db.h"
#include "daemons/syncd/syncd-options.h"
#include "daemons/syncd/syncd-zmq.h"
#include "daemons/syncd/syncd.h"
#include "lib/fibsync-instance.h"
#include "lib/global-follower.h"
#include "lib/setting.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd_path);

/* Starts the path that programs the routes once it is known: at once if
 * the command line says, else when 'd->global' first says what
 * Global.southbound_zmq is.  The path is kept until syncd restarts. */
void
syncd_path_run(struct syncd *d, struct syncd_options *s)
{
    if (!global_follower_choose_path(d->global, &s->southbound_zmq,
                                     &d->path)) {
        return;
    }
    if (!d->path.zmq) {
        d->db = syncd_db_create(&s->dbo, d->apply);
        syncd_apply_set_callback(d->apply, syncd_db_apply_result, d->db);
        VLOG_INFO("southbound path: OVSDB (Asic_Route)");
        return;
    }

    char *endpoint = (s->southbound_endpoint
                      ? xstrdup(s->southbound_endpoint)
                      : fibsync_instance_endpoint("southbound",
                                                  s->instance));
    struct syncd_zmq_options zo = { .endpoint = endpoint };
    char *error;

    d->zmq = syncd_zmq_create(&zo, d->apply, &error);
    if (!d->zmq) {
        ovs_fatal(0, "southbound fast path: %s", error);
    }
    syncd_apply_set_callback(d->apply, syncd_zmq_apply_result, d->zmq);
    VLOG_INFO("southbound path: ZeroMQ, bound to %s", endpoint);
    free(endpoint);
}

/* Appends the southbound path in force, and where the choice came from,
 * to 's'. */
void
syncd_path_format(const struct syncd *d, struct ds *s)
{
    const struct setting *sz = d->southbound_zmq;

    if (!d->path.chosen) {
        ds_put_cstr(s, "southbound: not chosen yet (reading Global)\n");
        return;
    }
    ds_put_format(s, "southbound: %s (%s)", d->path.zmq ? "zmq" : "ovsdb",
                  setting_source_name(sz->source));
    if (global_follower_path_outdated(&d->path, sz)) {
        ds_put_format(s, ", Global now says %s: until syncd restarts",
                      sz->value ? "zmq" : "ovsdb");
    }
    ds_put_char(s, '\n');
}
