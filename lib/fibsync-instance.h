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
 * (An endpoint given on the command line, ipc:// or tcp://, is used as
 * given.)
 *
 * Thread safety: every function is thread-safe. */

/* Highest instance number: Asic_Route.instance's maxInteger. */
#define FIBSYNC_INSTANCE_MAX 63

int fibsync_instance_parse(const char *option, const char *arg);
char *fibsync_instance_name(const char *base, int instance);
char *fibsync_instance_ctl_path(const char *daemon, int instance);
char *fibsync_instance_endpoint(const char *channel, int instance);

#endif /* lib/fibsync-instance.h */
