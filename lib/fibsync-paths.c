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
 * fibsync-paths: default locations of a running fibsync stack.
 */

#include <config.h>

#include "lib/fibsync-paths.h"

#include <stdio.h>
#include <stdlib.h>

#include "openvswitch/dynamic-string.h"
#include "util.h"

const char *
fibsync_rundir(void)
{
    static char *rundir;

    if (!rundir) {
        const char *env = getenv("FIBSYNC_RUNDIR");

        rundir = xstrdup(env && env[0] ? env : "./_run");
    }
    return rundir;
}

const char *
fibsync_default_db(void)
{
    static char *db;

    if (!db) {
        char *file = xasprintf("%s/db.remotes", fibsync_rundir());
        FILE *stream = fopen(file, "r");

        if (stream) {
            struct ds line = DS_EMPTY_INITIALIZER;

            if (!ds_get_line(&line, stream)) {
                ds_chomp(&line, '\r');
                ds_chomp(&line, ' ');
                if (line.length) {
                    db = ds_steal_cstr(&line);
                }
            }
            ds_destroy(&line);
            fclose(stream);
        }
        free(file);
        if (!db) {
            db = xasprintf("unix:%s/db.sock", fibsync_rundir());
        }
    }
    return db;
}

char *
fibsync_ctl_path(const char *daemon)
{
    return xasprintf("%s/%s.ctl", fibsync_rundir(), daemon);
}
