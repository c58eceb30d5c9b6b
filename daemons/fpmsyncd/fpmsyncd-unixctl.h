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

#ifndef FPMSYNCD_UNIXCTL_H
#define FPMSYNCD_UNIXCTL_H 1

/* fpmsyncd's unixctl commands: fpm/show, fpm/reconcile, features/show,
 * zmq/show and exit, on the running daemon that fpmsyncd.c's main
 * builds.  Thread safety: none. */

#include <stdbool.h>

struct fpmd_db;
struct fpmd_fpm;
struct fpmd_rib;
struct fpmd_settings;
struct fpmd_zmq;
struct svec;
struct unixctl_server;

/* The running daemon, as main and its unixctl commands see it. */
struct fpmsyncd {
    const struct fpmd_settings *settings; /* Tunables. */
    struct fpmd_rib *rib;       /* Route table. */
    struct fpmd_db *db;         /* Database side. */
    struct fpmd_fpm *fpm;       /* zebra side. */
    struct fpmd_zmq *zmq;       /* Fast path to orchd, if on. */
    const struct svec *nb_endpoints; /* Where each instance's orchd takes
                                 * it, instance I at [I]. */
    bool exiting;               /* "exit" received. */
};

struct unixctl_server *fpmd_unixctl_start(const char *path,
                                          struct fpmsyncd *);

#endif /* fpmsyncd-unixctl.h */
