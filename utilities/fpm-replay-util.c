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

/* fpm-replay: the clock, signal handling and capture files, for every
 * mode. */

#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "utilities/fpm-replay.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

volatile sig_atomic_t fpm_replay_stop_requested;

/* Returns a monotonic time in seconds. */
double
fpm_replay_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
stop_handler(int sig OVS_UNUSED)
{
    fpm_replay_stop_requested = 1;
}

/* Makes SIGINT and SIGTERM set fpm_replay_stop_requested, and ignores
 * SIGPIPE (a closed connection shows up as a send() error instead). */
void
fpm_replay_install_signal_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Reads all of 'file_name' into 'b'. */
void
fpm_replay_read_file(const char *file_name, struct ofpbuf *b)
{
    FILE *f = fopen(file_name, "rb");
    char buf[65536];
    size_t n;

    if (!f) {
        ovs_fatal(errno, "%s: open failed", file_name);
    }
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        ofpbuf_put(b, buf, n);
    }
    if (ferror(f)) {
        ovs_fatal(errno, "%s: read failed", file_name);
    }
    fclose(f);
}
