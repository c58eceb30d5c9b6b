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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fibsync-paths.h"
#include "lib/option-parse.h"
#include "lib/zmq-channel.h"
#include "util.h"

/* --zmq-tcp's BASE, or 0 for ipc:// endpoints in $FIBSYNC_RUNDIR. */
static int zmq_tcp_base;

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

/* Parses 'arg', the value of --'option' (NULL if it had none), as the
 * first TCP port of the ZeroMQ channels (default FIBSYNC_ZMQ_TCP_BASE),
 * and makes fibsync_instance_endpoint() return TCP endpoints from now on.
 * Exits with a one-line error if 'arg' is not a port that leaves room for
 * every instance's southbound port. */
void
fibsync_instance_parse_zmq_tcp(const char *option, const char *arg)
{
    zmq_tcp_base = (arg
                    ? option_parse_uint(option, arg, 1,
                                        65535 - FIBSYNC_ZMQ_TCP_SOUTHBOUND
                                        - FIBSYNC_INSTANCE_MAX)
                    : FIBSYNC_ZMQ_TCP_BASE);
}

/* Returns the first TCP port that --zmq-tcp set, or 0 without it. */
int
fibsync_instance_zmq_tcp(void)
{
    return zmq_tcp_base;
}

/* Prints --zmq-tcp's part of a daemon's --help. */
void
fibsync_instance_zmq_tcp_usage(void)
{
    printf("\
\
ZeroMQ over TCP:\n\
  --zmq-tcp[=BASE]        the ZeroMQ channels of ASIC instance N use TCP\n\
                          on 127.0.0.1 instead of ipc sockets in\n\
                          $FIBSYNC_RUNDIR: northbound (fpmsyncd -> orchd)\n\
                          port BASE+N, southbound (orchd -> syncd) port\n\
                          BASE+%d+N; BASE defaults to %d.  Give every\n\
                          daemon the same BASE.  An explicit\n\
                          --northbound-endpoint or --southbound-endpoint\n\
                          wins\n", FIBSYNC_ZMQ_TCP_SOUTHBOUND,
           FIBSYNC_ZMQ_TCP_BASE);
}

/* Returns the default ZeroMQ endpoint of 'channel' ("northbound",
 * "southbound") in instance 'instance': "ipc://$FIBSYNC_RUNDIR/channel.zmq"
 * or ".../channel-N.zmq"; with --zmq-tcp, "tcp://127.0.0.1:PORT" (see
 * lib/fibsync-instance.h).  The caller frees it. */
char *
fibsync_instance_endpoint(const char *channel, int instance)
{
    char *name = fibsync_instance_name(channel, instance);
    int port = 0;
    char *endpoint;

    if (zmq_tcp_base) {
        bool southbound = !strcmp(channel, "southbound");

        ovs_assert(southbound || !strcmp(channel, "northbound"));
        port = (zmq_tcp_base + instance
                + (southbound ? FIBSYNC_ZMQ_TCP_SOUTHBOUND : 0));
    }
    endpoint = zmq_channel_default_endpoint(fibsync_rundir(), name, port);
    free(name);
    return endpoint;
}
