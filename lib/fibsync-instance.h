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

#ifndef FIBSYNC_INSTANCE_H
#define FIBSYNC_INSTANCE_H 1

/* fibsync-instance: the names of one ASIC instance's processes.
 *
 * One host may run several ASIC instances, each an orchd/syncd pair with
 * its own simulator, sharing one database (Asic_Route.instance tells
 * their rows apart) and one fpmsyncd.  Instance 0 is the single-ASIC
 * stack and keeps its names exactly; instance N > 0 appends "-N":
 *
 *                 instance 0                     instance N
 *   unixctl       $FIBSYNC_RUNDIR/orchd.ctl      $FIBSYNC_RUNDIR/orchd-N.ctl
 *   ZeroMQ        ipc://$FIBSYNC_RUNDIR/         ipc://$FIBSYNC_RUNDIR/
 *                   southbound.zmq                 southbound-N.zmq
 *
 * With --zmq-tcp[=BASE] (fibsync_instance_parse_zmq_tcp(), BASE 8100 by
 * default), the ZeroMQ channels use TCP on the loopback address instead:
 *
 *   northbound    tcp://127.0.0.1:BASE+N
 *   southbound    tcp://127.0.0.1:BASE+100+N
 *
 * so 8100-8163 and 8200-8263 by default (BASE is at most 65372).  Give the
 * same BASE to fpmsyncd, orchd and syncd (fibsync-ctl --zmq-tcp does).
 *
 * (An endpoint given on the command line, ipc:// or tcp://, is used as
 * given.)
 *
 * Thread safety: fibsync_instance_parse_zmq_tcp() sets what
 * fibsync_instance_endpoint() reads: call it while parsing the command
 * line, before any other thread starts.  Every other function is
 * thread-safe. */

/* Highest instance number: Asic_Route.instance's maxInteger. */
#define FIBSYNC_INSTANCE_MAX 63

/* --zmq-tcp: the default first port, and how far the southbound ports
 * are from the northbound ones. */
#define FIBSYNC_ZMQ_TCP_BASE 8100
#define FIBSYNC_ZMQ_TCP_SOUTHBOUND 100

/* --zmq-tcp in a daemon's getopt_long() loop, as OVS's VLOG_OPTION_*
 * macros do it: the enum, the long option and the handler. */
#define FIBSYNC_ZMQ_TCP_OPTION_ENUMS OPT_FIBSYNC_ZMQ_TCP
#define FIBSYNC_ZMQ_TCP_LONG_OPTIONS                                    \
    {"zmq-tcp", optional_argument, NULL, OPT_FIBSYNC_ZMQ_TCP}
#define FIBSYNC_ZMQ_TCP_OPTION_HANDLERS                                 \
    case OPT_FIBSYNC_ZMQ_TCP:                                           \
        fibsync_instance_parse_zmq_tcp("zmq-tcp", optarg);              \
        break;

int fibsync_instance_parse(const char *option, const char *arg);
void fibsync_instance_parse_zmq_tcp(const char *option, const char *arg);
int fibsync_instance_zmq_tcp(void);
void fibsync_instance_zmq_tcp_usage(void);
char *fibsync_instance_name(const char *base, int instance);
char *fibsync_instance_ctl_path(const char *daemon, int instance);
char *fibsync_instance_endpoint(const char *channel, int instance);

#endif /* fibsync-instance.h */
