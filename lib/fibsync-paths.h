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
 * fibsync-paths: where a running fibsync stack keeps its sockets, pid files
 * and logs.
 *
 * Every daemon and utility finds the stack through $FIBSYNC_RUNDIR
 * (default "./_run"): the database socket is "$FIBSYNC_RUNDIR/db.sock" and
 * each daemon's unixctl socket is "$FIBSYNC_RUNDIR/<daemon>.ctl".
 */

#ifndef FIBSYNC_PATHS_H
#define FIBSYNC_PATHS_H 1

/* Default FPM TCP port, as in FRR's dplane_fpm_nl. */
#define FIBSYNC_FPM_PORT 2620

/* Returns the run directory: $FIBSYNC_RUNDIR if set and non-empty,
 * otherwise "./_run".  The string is owned by the module. */
const char *fibsync_rundir(void);

/* Returns the default database remote: the first line of
 * "<rundir>/db.remotes" if that file exists and says something (fibsync-ctl
 * writes there the remote every daemon gets: db.sock, or the list of a
 * cluster's servers), otherwise "unix:<rundir>/db.sock".  The string is
 * owned by the module. */
const char *fibsync_default_db(void);

/* Returns a newly allocated "<rundir>/<daemon>.ctl", the default unixctl
 * socket path of 'daemon'.  The caller frees it. */
char *fibsync_ctl_path(const char *daemon);

#endif /* fibsync-paths.h */
