/*
 * Copyright (c) 2026 The fibsync authors.
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

#include <config.h>

#include "lib/ovsdb-cs-retry.h"

#include <limits.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "ovsdb-idl.h"
#include "socket-util.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_cs_retry);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* Starts watching a client of 'remote'. */
void
ovsdb_cs_retry_init(struct ovsdb_cs_retry *r, const char *remote)
{
    r->remote = xstrdup(remote);
    r->path = (!strncmp(remote, "unix:", 5) && !strchr(remote, ',')
               ? xstrdup(remote + 5) : NULL);
    r->cluster = strchr(remote, ',') != NULL;
    r->probe_at = LLONG_MIN;
    r->connected_at = LLONG_MIN;
    r->reopen_at = LLONG_MIN;
    r->hold = OVSDB_CS_RETRY_MIN_HOLD_MS;
    r->quiet = false;
}

void
ovsdb_cs_retry_destroy(struct ovsdb_cs_retry *r)
{
    if (r) {
        free(r->remote);
        free(r->path);
    }
}

/* Makes 'r' log its reconnections at debug level only if 'quiet': for a
 * client beside another of the same remote, whose reconnection the log
 * already tells (lib/global-follower.h). */
void
ovsdb_cs_retry_set_quiet(struct ovsdb_cs_retry *r, bool quiet)
{
    r->quiet = quiet;
}

/* Is a server accepting connections on 'path'? */
static bool
server_listens(const char *path)
{
    int fd = make_unix_socket(SOCK_STREAM, true, NULL, path);

    if (fd < 0) {
        return false;
    }
    close(fd);
    return true;
}

/* Takes whether the client is 'connected' now.  Returns true if the
 * client should get a new session now: it is disconnected and its server
 * listens again. */
static bool
reopen_due(struct ovsdb_cs_retry *r, bool connected)
{
    long long int now;

    if (!r->path && !r->cluster) {
        return false;
    }

    now = time_msec();
    if (connected) {
        if (r->connected_at == LLONG_MIN) {
            r->connected_at = now;
        } else if (now - r->connected_at >= OVSDB_CS_RETRY_STABLE_MS) {
            r->hold = OVSDB_CS_RETRY_MIN_HOLD_MS;
        }
        r->probe_at = LLONG_MIN;
        return false;
    }

    if (r->probe_at == LLONG_MIN) {
        /* Just lost (or never connected).  A server that accepts and then
         * drops the client at once (a monitor it refuses, say) must not
         * be reconnected to ever faster than ovsdb-cs would: each short
         * connection doubles the hold between two reopens. */
        if (r->connected_at != LLONG_MIN && !r->cluster
            && now - r->connected_at < OVSDB_CS_RETRY_STABLE_MS) {
            r->hold = MIN(r->hold * 2, OVSDB_CS_RETRY_MAX_HOLD_MS);
        }
        r->connected_at = LLONG_MIN;
        r->probe_at = MAX(now + OVSDB_CS_RETRY_PROBE_MS, r->reopen_at);
        return false;
    } else if (now < r->probe_at) {
        return false;
    }

    r->probe_at = now + OVSDB_CS_RETRY_PROBE_MS;
    if (r->cluster) {
        /* No one socket to probe: each server of the list but a dead one
         * listens, and a follower accepts, then drops the client.  A new
         * session at most every 'hold' instead of ovsdb-cs's backoff. */
        r->reopen_at = r->probe_at = now + r->hold;
        VLOG_DBG("%s: no cluster leader yet: trying the servers again",
                 r->remote);
        return true;
    } else if (!server_listens(r->path)) {
        return false;
    }
    /* The new session gets 'hold' to connect before another could
     * replace it. */
    r->reopen_at = r->probe_at = now + r->hold;
    if (r->quiet) {
        VLOG_DBG("%s: the server listens again: reconnecting now",
                 r->remote);
    } else {
        VLOG_INFO_RL(&rl, "%s: the server listens again: reconnecting now",
                     r->remote);
    }
    return true;
}

/* Wakes the poll loop for the next probe, if one is due. */
void
ovsdb_cs_retry_wait(const struct ovsdb_cs_retry *r)
{
    if ((r->path || r->cluster) && r->probe_at != LLONG_MIN) {
        poll_timer_wait_until(r->probe_at);
    }
}

/* Watches 'cs': once it is disconnected and its server listens again,
 * gives it a new session to the remote (the old one is waiting out its
 * backoff, the new one connects at once).  ovsdb_cs_set_remote() keeps
 * the session when the remote is unchanged, hence the two calls.  The
 * new session has the defaults of jsonrpc_session_open(): a probe
 * interval set on the old one is gone, which for a unix socket, never
 * probed, changes nothing. */
void
ovsdb_cs_retry_run_cs(struct ovsdb_cs_retry *r, struct ovsdb_cs *cs)
{
    if (reopen_due(r, ovsdb_cs_is_connected(cs))) {
        ovsdb_cs_set_remote(cs, NULL, true);
        ovsdb_cs_set_remote(cs, r->remote, true);
    }
}

/* The same for an IDL. */
void
ovsdb_cs_retry_run_idl(struct ovsdb_cs_retry *r, struct ovsdb_idl *idl)
{
    if (reopen_due(r, ovsdb_idl_is_connected(idl))) {
        ovsdb_idl_set_remote(idl, NULL, true);
        ovsdb_idl_set_remote(idl, r->remote, true);
    }
}
