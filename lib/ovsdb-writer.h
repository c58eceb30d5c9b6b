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

#ifndef OVSDB_WRITER_H
#define OVSDB_WRITER_H 1

/* ovsdb-writer: the one OVSDB write pipeline of fibsync.
 *
 * Every daemon that writes rows without an IDL replica writes through a
 * writer: fpmsyncd its Route, Nexthop_Group and Vrf rows, orchd its
 * Asic_Route rows, syncd its write-back and hit counters.  A writer owns
 * one jsonrpc session to an ovsdb-server and sends "transact" requests
 * built by its caller, keeping at most a configured number in flight (the
 * window).  ovsdb-server executes the transactions of one connection in
 * order, so a caller that writes one key in two transactions sees them
 * applied in that order.
 *
 * Building a transaction
 * ======================
 *
 * Either as a JSON array of operations (lib/ovsdb-wire.h builds them),
 * with ovsdb_writer_commit(), or as text, for the hot writers:
 *
 *     struct ds ops;
 *     ovsdb_writer_txn_start(w, &ops);     // '["Fibsync"'
 *     for each op: ds_put_char(&ops, ','); append the operation;
 *     ovsdb_writer_commit_ds(w, &ops, n_ops, cb, aux);
 *
 * The text is sent as it is, never parsed or copied: at a million rows a
 * JSON tree per row costs more than the rest of the writer.
 *
 * Completion
 * ==========
 *
 * Each transaction ends exactly once, in the order committed, with its
 * callback: committed (every operation succeeded), refused (the server
 * applied none of it: an operation failed, or the request itself), or lost
 * (see below).  A refused transaction is not retried: the caller decides.
 *
 * Reconnection
 * ============
 *
 * When the connection drops, every transaction in flight ends as lost,
 * oldest first: the server may or may not have applied it.  Transactions
 * queued but not yet sent stay queued and go out, in order, once the
 * connection is back.  Then the caller's message callback is called with
 * NULL, so that it can redo what belongs to a connection (monitors).  All
 * of that happens inside ovsdb_writer_run(), before any message of the new
 * connection is handled.  Connection attempts back off up to
 * OVSDB_WRITER_MAX_BACKOFF apart, so that a restarted server hears from
 * its writers within about a second of answering.
 *
 * A Raft cluster
 * ==============
 *
 * The remote may be a comma-separated list of the servers of one cluster.
 * The writer then connects to each in turn and, before sending anything,
 * asks the server (a monitor of its _Server database) whether it is the
 * connected leader; a follower's connection is dropped for the next
 * server.  Until a leader is found the writer counts as not connected:
 * transactions stay queued.  When the leader dies, its connection drops:
 * the transactions in flight end as lost, and the queue goes to the next
 * leader.  When the leader hands leadership over without dying (OVS does
 * before it writes a snapshot), the monitor says so and the writer leaves
 * it the same way, for the new leader.  A
 * transaction that a server accepted while the cluster had no leader is
 * not refused: the server holds it and retries it itself, so it ends
 * late, committed, or lost if that server dies meanwhile.
 *
 * Other requests on the same connection
 * =====================================
 *
 * A caller may send its own requests (a monitor, say) with
 * ovsdb_writer_send_request(); their replies, and every notification, go
 * to the message callback set by ovsdb_writer_set_msg_cb().
 *
 * Thread safety: a writer belongs to one thread, which calls run(), wait()
 * and poll_block() for it. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;
struct json;
struct jsonrpc_msg;
struct svec;

/* The longest wait between two connection attempts, in milliseconds
 * (OVS's reconnect module defaults to 8000). */
#define OVSDB_WRITER_MAX_BACKOFF 1000

/* How a transaction ended. */
enum ovsdb_writer_result {
    OVSDB_WRITER_SUCCESS,       /* Committed. */
    OVSDB_WRITER_ERROR,         /* Refused: the server applied none of
                                 * it. */
    OVSDB_WRITER_LOST,          /* The connection dropped before the reply
                                 * came: the server may or may not have
                                 * applied it. */
};

/* What a completion callback is told. */
struct ovsdb_writer_reply {
    enum ovsdb_writer_result result; /* How it ended. */
    const struct json *results; /* The array of operation results, for
                                 * SUCCESS, and for ERROR when the server
                                 * answered with one; otherwise NULL. */
    const char *error;          /* ERROR: what went wrong; LOST: why.
                                 * NULL for SUCCESS. */
    size_t failed_op;           /* ERROR: index of the operation that
                                 * failed, or SIZE_MAX if none did alone. */
    size_t n_ops;               /* Operations in the transaction. */
    long long int latency_ms;   /* From sending to the end (0 if never
                                 * sent). */
};

/* Called once per transaction, from ovsdb_writer_run() or
 * ovsdb_writer_destroy() (as lost).  'reply' and what it points to belong
 * to the writer. */
typedef void ovsdb_writer_cb(void *aux, const struct ovsdb_writer_reply *);

/* Called with every message that is not the reply to a transaction (a
 * notification, or a reply to ovsdb_writer_send_request()), and with NULL
 * when the connection went down or came up: ovsdb_writer_is_connected()
 * tells which. */
typedef void ovsdb_writer_msg_cb(void *aux, const struct jsonrpc_msg *);

struct ovsdb_writer *ovsdb_writer_create(const char *remote,
                                         const char *db_name);
void ovsdb_writer_destroy(struct ovsdb_writer *);

void ovsdb_writer_set_max_in_flight(struct ovsdb_writer *, size_t);
void ovsdb_writer_set_msg_cb(struct ovsdb_writer *, ovsdb_writer_msg_cb *,
                             void *aux);

void ovsdb_writer_run(struct ovsdb_writer *);
void ovsdb_writer_wait(struct ovsdb_writer *);
void ovsdb_writer_force_reconnect(struct ovsdb_writer *);
void ovsdb_writer_parse_remotes(const char *remotes, struct svec *out);

/* Transactions. */
void ovsdb_writer_commit(struct ovsdb_writer *, struct json *ops,
                         ovsdb_writer_cb *, void *aux);
void ovsdb_writer_txn_start(const struct ovsdb_writer *, struct ds *ops);
void ovsdb_writer_commit_ds(struct ovsdb_writer *, struct ds *ops,
                            size_t n_ops, ovsdb_writer_cb *, void *aux);

/* Other requests. */
struct json *ovsdb_writer_send_request(struct ovsdb_writer *,
                                       const char *method,
                                       struct json *params);

/* State. */
const char *ovsdb_writer_get_remote(const struct ovsdb_writer *);
bool ovsdb_writer_is_connected(const struct ovsdb_writer *);
unsigned int ovsdb_writer_get_seqno(const struct ovsdb_writer *);
size_t ovsdb_writer_n_in_flight(const struct ovsdb_writer *);
size_t ovsdb_writer_n_queued(const struct ovsdb_writer *);
bool ovsdb_writer_has_room(const struct ovsdb_writer *);
bool ovsdb_writer_is_idle(const struct ovsdb_writer *);
long long int ovsdb_writer_lag_ms(const struct ovsdb_writer *);

/* Counters, all monotonic except the gauges noted. */
struct ovsdb_writer_stats {
    uint64_t n_committed;       /* Transactions committed... */
    uint64_t n_failed;          /* ...refused... */
    uint64_t n_lost;            /* ...lost. */
    uint64_t n_ops_committed;   /* Operations in committed transactions. */
    uint64_t n_reconnects;      /* Connection changes seen. */
    uint64_t n_leader_changes;  /* Servers left because they stopped
                                 * leading their cluster. */
    long long int max_latency_ms; /* Longest send-to-commit. */
    long long int last_commit_ms; /* time_msec() of the last commit. */
};
void ovsdb_writer_get_stats(const struct ovsdb_writer *,
                            struct ovsdb_writer_stats *);
void ovsdb_writer_format_stats(const struct ovsdb_writer *, struct ds *);

#endif /* ovsdb-writer.h */
