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
