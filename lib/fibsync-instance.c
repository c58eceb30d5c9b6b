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
 * fibsync-instance: the names of one ASIC instance's processes.
 */

#include <config.h>

#include "lib/fibsync-instance.h"

#include <stdlib.h>

#include "lib/fibsync-paths.h"
#include "lib/option-parse.h"
#include "lib/zmq-channel.h"
#include "util.h"

/* Parses 'arg', the value of --'option', as an instance number (0 to
 * FIBSYNC_INSTANCE_MAX); exits with a one-line error if it is not one. */
int
fibsync_instance_parse(const char *option, const char *arg)
{
    return option_parse_uint(option, arg, 0, FIBSYNC_INSTANCE_MAX);
}

/* Returns 'base' for instance 0, "base-N" for instance N.  The caller
 * frees it. */
char *
fibsync_instance_name(const char *base, int instance)
{
    return (instance
            ? xasprintf("%s-%d", base, instance)
            : xstrdup(base));
}

/* Returns the default unixctl socket of 'daemon' in instance 'instance':
 * "$FIBSYNC_RUNDIR/daemon.ctl" or "$FIBSYNC_RUNDIR/daemon-N.ctl".  The
 * caller frees it. */
char *
fibsync_instance_ctl_path(const char *daemon, int instance)
{
    char *name = fibsync_instance_name(daemon, instance);
    char *path = fibsync_ctl_path(name);

    free(name);
    return path;
}

/* Returns the default ZeroMQ endpoint of 'channel' ("northbound",
 * "southbound") in instance 'instance': "ipc://$FIBSYNC_RUNDIR/channel.zmq"
 * or ".../channel-N.zmq".  The caller frees it. */
char *
fibsync_instance_endpoint(const char *channel, int instance)
{
    char *name = fibsync_instance_name(channel, instance);
    char *endpoint = zmq_channel_default_endpoint(fibsync_rundir(), name, 0);

    free(name);
    return endpoint;
}
