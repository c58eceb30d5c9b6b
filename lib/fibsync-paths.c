/*
 * fibsync-paths: default locations of a running fibsync stack.
 */

#include <config.h>

#include "lib/fibsync-paths.h"

#include <stdlib.h>

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
        db = xasprintf("unix:%s/db.sock", fibsync_rundir());
    }
    return db;
}

char *
fibsync_ctl_path(const char *daemon)
{
    return xasprintf("%s/%s.ctl", fibsync_rundir(), daemon);
}
