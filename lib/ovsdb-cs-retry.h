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

#ifndef OVSDB_CS_RETRY_H
#define OVSDB_CS_RETRY_H 1

/* ovsdb-cs-retry: an ovsdb-cs client (or an IDL) back on its local
 * ovsdb-server as soon as the server listens again.
 *
 * An ovsdb-cs session that loses its server retries after a backoff that
 * doubles up to 8 s (lib/reconnect.c's default), and OVS 3.1's ovsdb-cs
 * and IDL give no way to lower it.  A server restarted with a million
 * routes listens again 11-30 s after it went, so each monitor came back
 * up to 8 s after the server did, 4 s on average: the daemons' writers
 * (lib/ovsdb-writer.h) retry every second, their monitors did not.
 *
 * This module watches a client whose remote is one "unix:" socket.  While
 * the client is disconnected, it tries a connection of its own to the
 * socket every OVSDB_CS_RETRY_PROBE_MS; once the server accepts one, it
 * closes it and gives the client a new session, which connects at once.
 * The caller runs it beside its client (ovsdb_cs_retry_run_cs() or
 * ovsdb_cs_retry_run_idl(), before ovsdb_cs_run() or ovsdb_idl_run()).
 * Probing costs a refused connect() a quarter second and writes nothing
 * to the log; the client keeps its own backoff underneath.  A server
 * that accepts the client and drops it again at once is not reconnected
 * to faster than ovsdb-cs would (OVSDB_CS_RETRY_*_HOLD_MS).  A remote
 * over TCP or SSL naming one server is left to ovsdb-cs.
 *
 * A remote naming several servers (a Raft cluster) has no one socket to
 * probe, and its failover is where the backoff hurts most: each follower
 * that ovsdb-cs tries on its way to the new leader accepts it and drops
 * it again ("not the cluster leader"), and every such step doubles the
 * backoff, so that a monitor came back 13 s after a leader's election
 * (tests/cluster.at).  So while such a client is disconnected it gets a
 * new session, tried at once on a server of the list taken at random,
 * every OVSDB_CS_RETRY_MIN_HOLD_MS, never doubled: about as often as the
 * writers (lib/ovsdb-writer.h) try the next server.
 *
 * Thread safety: none; one per client, in the client's thread. */

#include <stdbool.h>
#include <stdint.h>

struct ovsdb_cs;
struct ovsdb_idl;

/* Milliseconds between probes of a disconnected client's socket. */
#define OVSDB_CS_RETRY_PROBE_MS 250

/* The least time between two reopens, doubled up to the most each time a
 * reopened client stays connected less than OVSDB_CS_RETRY_STABLE_MS
 * (the server accepts, then drops it), back to the least once one stays
 * that long. */
#define OVSDB_CS_RETRY_MIN_HOLD_MS 1000
#define OVSDB_CS_RETRY_MAX_HOLD_MS 8000
#define OVSDB_CS_RETRY_STABLE_MS 5000

/* One client's watch. */
struct ovsdb_cs_retry {
    char *remote;               /* The client's remote, as given. */
    char *path;                 /* Its socket's path, or NULL if the remote
                                 * is not one "unix:" socket. */
    long long int probe_at;     /* Next probe (msec), or LLONG_MIN while
                                 * the client is connected. */
    long long int connected_at; /* When the connection up now began, or
                                 * LLONG_MIN if it is down. */
    long long int reopen_at;    /* No reopen before then (msec). */
    int hold;                   /* Least time between two reopens (ms). */
    bool cluster;               /* The remote names several servers. */
    bool quiet;                 /* Log a reconnection at debug level only
                                 * (another client of the same remote
                                 * says so). */
};

void ovsdb_cs_retry_init(struct ovsdb_cs_retry *, const char *remote);
void ovsdb_cs_retry_destroy(struct ovsdb_cs_retry *);
void ovsdb_cs_retry_set_quiet(struct ovsdb_cs_retry *, bool quiet);

void ovsdb_cs_retry_run_cs(struct ovsdb_cs_retry *, struct ovsdb_cs *);
void ovsdb_cs_retry_run_idl(struct ovsdb_cs_retry *, struct ovsdb_idl *);
void ovsdb_cs_retry_wait(const struct ovsdb_cs_retry *);

#endif /* ovsdb-cs-retry.h */
