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

#include <config.h>

#include "lib/ovsdb-writer.h"

#include "coverage.h"
#include "jsonrpc.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/uuid.h"
#include "openvswitch/vlog.h"
#include "ovsdb-session.h"
#include "svec.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_writer);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(ovsdb_writer_txn);
COVERAGE_DEFINE(ovsdb_writer_error);
COVERAGE_DEFINE(ovsdb_writer_lost);
COVERAGE_DEFINE(ovsdb_writer_not_leader);

/* Most messages handled per ovsdb_writer_run() call, so that a daemon's
 * other work is not starved by a burst of replies. */
#define MAX_MSGS_PER_RUN 100

/* One queued or in-flight transaction. */
struct ovsdb_writer_txn {
    struct ovs_list node;       /* In 'queued' or 'in_flight'. */
    struct json *params;        /* "transact" parameters, until sent: an
                                 * array, or serialized text. */
    struct json *id;            /* Request id, once sent. */
    size_t n_ops;               /* Operations in the transaction. */
    long long int queued_ms;    /* When it was committed. */
    long long int sent_ms;      /* When it was sent, 0 before. */
    ovsdb_writer_cb *cb;        /* Completion callback. */
    void *aux;                  /* Its argument. */
};

struct ovsdb_writer {
    struct jsonrpc_session *session;   /* Connection to ovsdb-server. */
    char *remote;                      /* Its name (or comma-separated
                                        * list of names), for logs. */
    bool leader_only;                  /* More than one remote: use only a
                                        * server that leads its cluster. */
    bool ready;                        /* Connected and, if 'leader_only',
                                        * the server said it leads. */
    struct json *check_id;             /* Id of the _Server monitor request
                                        * in flight on this connection, or
                                        * NULL. */
    char *db_name;                     /* Database, e.g. "Fibsync". */
    unsigned int session_seqno;        /* To notice reconnections. */
    size_t max_in_flight;              /* Window size. */
    struct ovs_list queued;            /* Waiting to be sent, in order. */
    struct ovs_list in_flight;         /* Sent, awaiting replies, in order. */
    size_t n_queued;                   /* Length of 'queued'. */
    size_t n_in_flight;                /* Length of 'in_flight'. */
    ovsdb_writer_msg_cb *msg_cb;       /* Other messages, or NULL. */
    void *msg_aux;                     /* Its argument. */
    struct ovsdb_writer_stats stats;   /* Counters. */
    char *last_error;                  /* Last refusal, for diagnostics. */
};

/* Creates a writer to database 'db_name' at 'remote': one remote
 * ("unix:PATH", "tcp:IP:PORT", "ssl:IP:PORT"), or a comma-separated list
 * of the servers of one Raft cluster.  With a list, the writer connects to
 * each in turn until one says it is the cluster's leader, as the C IDL
 * does by default: a write sent to a follower would be executed there
 * against a copy that may lag, and proposed to the leader, which turns
 * it down when the copy was behind; the follower then tries again, and
 * under a steady load most writes would go round several times. */
struct ovsdb_writer *
ovsdb_writer_create(const char *remote, const char *db_name)
{
    struct ovsdb_writer *w = xzalloc(sizeof *w);
    struct svec remotes;

    svec_init(&remotes);
    ovsdb_writer_parse_remotes(remote, &remotes);
    if (!remotes.n) {
        svec_add(&remotes, remote);
    }
    w->leader_only = remotes.n > 1;
    w->session = jsonrpc_session_open_multiple(&remotes, true);
    svec_destroy(&remotes);
    /* A large transaction can keep the server busy for a while; probing
     * would only add spurious disconnections. */
    jsonrpc_session_set_probe_interval(w->session, 0);
    /* A writer's queue waits for the server: after a server restart it
     * should be back within a second of the server, not after the 8 s
     * that reconnect's default backoff reaches.  A refused connection
     * costs next to nothing to retry. */
    jsonrpc_session_set_max_backoff(w->session, OVSDB_WRITER_MAX_BACKOFF);
    w->remote = xstrdup(remote);
    w->db_name = xstrdup(db_name);
    w->session_seqno = jsonrpc_session_get_seqno(w->session);
    w->max_in_flight = 4;
    ovs_list_init(&w->queued);
    ovs_list_init(&w->in_flight);
    return w;
}

/* Ends 'txn', already off its list, with 'result'. */
static void
txn_complete(struct ovsdb_writer_txn *txn, enum ovsdb_writer_result result,
             const struct json *results, const char *error, size_t failed_op)
{
    if (txn->cb) {
        struct ovsdb_writer_reply reply = {
            .result = result,
            .results = results,
            .error = error,
            .failed_op = failed_op,
            .n_ops = txn->n_ops,
            .latency_ms = txn->sent_ms ? time_msec() - txn->sent_ms : 0,
        };

        txn->cb(txn->aux, &reply);
    }
    json_destroy(txn->params);
    json_destroy(txn->id);
    free(txn);
}

/* Ends every transaction in flight as lost, oldest first. */
static void
lose_in_flight(struct ovsdb_writer *w, const char *why)
{
    struct ovsdb_writer_txn *txn;

    LIST_FOR_EACH_POP (txn, node, &w->in_flight) {
        w->n_in_flight--;
        w->stats.n_lost++;
        COVERAGE_INC(ovsdb_writer_lost);
        txn_complete(txn, OVSDB_WRITER_LOST, NULL, why, SIZE_MAX);
    }
}

void
ovsdb_writer_destroy(struct ovsdb_writer *w)
{
    struct ovsdb_writer_txn *txn;

    if (!w) {
        return;
    }
    lose_in_flight(w, "writer destroyed");
    LIST_FOR_EACH_POP (txn, node, &w->queued) {
        txn_complete(txn, OVSDB_WRITER_LOST, NULL, "writer destroyed",
                     SIZE_MAX);
    }
    jsonrpc_session_close(w->session);
    json_destroy(w->check_id);
    free(w->remote);
    free(w->db_name);
    free(w->last_error);
    free(w);
}

void
ovsdb_writer_set_max_in_flight(struct ovsdb_writer *w, size_t n)
{
    w->max_in_flight = MAX(n, 1);
}

void
ovsdb_writer_set_msg_cb(struct ovsdb_writer *w, ovsdb_writer_msg_cb *cb,
                        void *aux)
{
    w->msg_cb = cb;
    w->msg_aux = aux;
}

/* Sends queued transactions while the window has room. */
static void
send_queued(struct ovsdb_writer *w)
{
    while (w->n_in_flight < w->max_in_flight && w->n_queued && w->ready) {
        struct ovsdb_writer_txn *txn
            = CONTAINER_OF(ovs_list_pop_front(&w->queued),
                           struct ovsdb_writer_txn, node);
        struct jsonrpc_msg *request;
        struct json *id;

        w->n_queued--;
        /* 'id' is already the request's id cloned for us: keeping it as
         * is (not a clone of it, which only took another reference) lets
         * txn_complete() free it.  LeakSanitizer found one JSON integer
         * lost per transaction. */
        request = jsonrpc_create_request("transact", txn->params, &id);
        txn->params = NULL;
        txn->id = id;
        txn->sent_ms = time_msec();
        jsonrpc_session_send(w->session, request);
        ovs_list_push_back(&w->in_flight, &txn->node);
        w->n_in_flight++;
        COVERAGE_INC(ovsdb_writer_txn);
    }
}

/* Ends the oldest transaction in flight, 'txn', with its reply 'msg'. */
static void
txn_reply(struct ovsdb_writer *w, struct ovsdb_writer_txn *txn,
          const struct jsonrpc_msg *msg)
{
    size_t failed_op;
    char *error = ovsdb_wire_reply_error(msg, txn->n_ops, &failed_op);
    const struct json *results = (msg->type == JSONRPC_REPLY
                                  && msg->result
                                  && msg->result->type == JSON_ARRAY
                                  ? msg->result : NULL);

    ovs_list_remove(&txn->node);
    w->n_in_flight--;
    if (!error) {
        long long int now = time_msec();

        w->stats.n_committed++;
        w->stats.n_ops_committed += txn->n_ops;
        w->stats.last_commit_ms = now;
        w->stats.max_latency_ms = MAX(w->stats.max_latency_ms,
                                      now - txn->sent_ms);
        txn_complete(txn, OVSDB_WRITER_SUCCESS, results, NULL, SIZE_MAX);
        return;
    }
    COVERAGE_INC(ovsdb_writer_error);
    VLOG_WARN_RL(&rl, "%s: transaction of %"PRIuSIZE" operations refused: "
                 "%s", w->remote, txn->n_ops, error);
    w->stats.n_failed++;
    free(w->last_error);
    w->last_error = error;
    txn_complete(txn, OVSDB_WRITER_ERROR, results, error, failed_op);
}

/* Tells the caller that the connection is up (ready) or down. */
static void
notify_connection(struct ovsdb_writer *w)
{
    if (w->msg_cb) {
        w->msg_cb(w->msg_aux, NULL);
    }
}

/* The id of the writer's own monitor of the _Server database, told apart
 * from the caller's monitors by it. */
#define SERVER_MONITOR_ID "ovsdb_writer_server"

/* Asks the server just connected whether it leads its cluster, and to say
 * so again whenever that changes: a monitor of the Database table of its
 * _Server database (a handful of rows, so the "monitor" method without a
 * condition; our database's row is picked out by name). */
static void
send_leader_monitor(struct ovsdb_writer *w)
{
    struct json *columns = json_array_create_empty();
    struct json *request = json_object_create();
    struct json *requests = json_object_create();

    json_array_add(columns, json_string_create("name"));
    json_array_add(columns, json_string_create("model"));
    json_array_add(columns, json_string_create("leader"));
    json_array_add(columns, json_string_create("connected"));
    json_object_put(request, "columns", columns);
    json_object_put(requests, "Database", request);
    json_destroy(w->check_id);
    jsonrpc_session_send(w->session, jsonrpc_create_request(
        "monitor", json_array_create_3(json_string_create("_Server"),
                                       json_string_create(SERVER_MONITOR_ID),
                                       requests),
        &w->check_id));
}

/* What a _Server update says of the server. */
enum leader_verdict {
    LEADER_UNKNOWN,             /* Nothing about our database. */
    LEADER_YES,                 /* Standalone, or the connected leader. */
    LEADER_NO,                  /* A follower, a candidate, or cut off. */
};

/* Returns what 'row', the new contents of a _Server Database row, says of
 * database 'db_name', or LEADER_UNKNOWN if it is another database's. */
static enum leader_verdict
row_verdict(const struct json *row_json, const char *db_name)
{
    if (row_json->type != JSON_OBJECT) {
        return LEADER_UNKNOWN;
    }

    const struct shash *row = json_object(row_json);
    const struct json *name = shash_find_data(row, "name");
    const struct json *model = shash_find_data(row, "model");
    const struct json *leader = shash_find_data(row, "leader");
    const struct json *connected = shash_find_data(row, "connected");

    if (!name || name->type != JSON_STRING
        || strcmp(json_string(name), db_name)) {
        return LEADER_UNKNOWN;
    }
    if (!model || model->type != JSON_STRING
        || strcmp(json_string(model), "clustered")) {
        return LEADER_YES;
    }
    return (leader && leader->type == JSON_TRUE
            && (!connected || connected->type == JSON_TRUE)
            ? LEADER_YES : LEADER_NO);
}

/* Returns what 'updates', the table updates of the _Server monitor (its
 * first reply, or an "update" notification), say of our database. */
static enum leader_verdict
updates_verdict(const struct ovsdb_writer *w, const struct json *updates)
{
    enum leader_verdict verdict = LEADER_UNKNOWN;
    const struct json *table;

    if (!updates || updates->type != JSON_OBJECT
        || !(table = shash_find_data(json_object(updates), "Database"))
        || table->type != JSON_OBJECT) {
        return LEADER_UNKNOWN;
    }

    struct shash_node *node;
    SHASH_FOR_EACH (node, json_object(table)) {
        const struct json *ru = node->data;
        const struct json *new;

        if (ru->type == JSON_OBJECT
            && (new = shash_find_data(json_object(ru), "new"))) {
            enum leader_verdict v = row_verdict(new, w->db_name);

            if (v != LEADER_UNKNOWN) {
                verdict = v;
            }
        }
    }
    return verdict;
}

/* Leaves the server just found not to lead: the connection is dropped for
 * the next remote in the list (its transactions in flight end as lost, as
 * when a leader dies). */
static void
leave_follower(struct ovsdb_writer *w, const char *why)
{
    COVERAGE_INC(ovsdb_writer_not_leader);
    VLOG_INFO("%s: %s, trying another server",
              jsonrpc_session_get_name(w->session), why);
    jsonrpc_session_force_reconnect(w->session);
}

/* Handles the reply 'msg' to the _Server monitor request: either the
 * connection is ready for writes, or it is dropped for the next remote in
 * the list.  An answer that cannot be read counts as yes (an old server
 * without _Server, say): the writes themselves will tell. */
static void
leader_monitor_reply(struct ovsdb_writer *w, const struct jsonrpc_msg *msg)
{
    json_destroy(w->check_id);
    w->check_id = NULL;
    if (msg->type == JSONRPC_REPLY
        && updates_verdict(w, msg->result) == LEADER_NO) {
        leave_follower(w, "not the cluster leader");
        return;
    }
    VLOG_INFO("%s: connected to the cluster leader",
              jsonrpc_session_get_name(w->session));
    w->ready = true;
    notify_connection(w);
}

/* Returns true if 'msg' is an update of the writer's _Server monitor. */
static bool
is_leader_update(const struct jsonrpc_msg *msg)
{
    return (msg->type == JSONRPC_NOTIFY && !strcmp(msg->method, "update")
            && msg->params && msg->params->type == JSON_ARRAY
            && msg->params->array.n == 2
            && msg->params->array.elems[0]->type == JSON_STRING
            && !strcmp(json_string(msg->params->array.elems[0]),
                       SERVER_MONITOR_ID));
}

/* Handles an update of the _Server monitor: a server that stops leading
 * (it handed leadership over, or lost its cluster) is left for the one
 * that leads now, as ovsdb-idl and ovsdb-cs do; otherwise its writes
 * would still commit, forwarded by a follower, only slower. */
static void
leader_update(struct ovsdb_writer *w, const struct jsonrpc_msg *msg)
{
    if (w->ready
        && updates_verdict(w, msg->params->array.elems[1]) == LEADER_NO) {
        w->stats.n_leader_changes++;
        leave_follower(w, "no longer the cluster leader");
    }
}

/* Handles one message from the server. */
static void
process_msg(struct ovsdb_writer *w, const struct jsonrpc_msg *msg)
{
    if (w->check_id && msg->id
        && (msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR)
        && json_equal(w->check_id, msg->id)) {
        leader_monitor_reply(w, msg);
        return;
    }
    if (is_leader_update(msg)) {
        leader_update(w, msg);
        return;
    }
    if ((msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR)
        && w->n_in_flight) {
        struct ovsdb_writer_txn *txn
            = CONTAINER_OF(ovs_list_front(&w->in_flight),
                           struct ovsdb_writer_txn, node);

        if (json_equal(txn->id, msg->id)) {
            txn_reply(w, txn, msg);
            return;
        }
    }
    if (w->msg_cb) {
        w->msg_cb(w->msg_aux, msg);
    }
}

void
ovsdb_writer_run(struct ovsdb_writer *w)
{
    jsonrpc_session_run(w->session);

    unsigned int seqno = jsonrpc_session_get_seqno(w->session);
    if (seqno != w->session_seqno) {
        /* The connection went down (and maybe came back): the fate of
         * every transaction in flight is unknown. */
        w->session_seqno = seqno;
        w->stats.n_reconnects++;
        w->ready = false;
        json_destroy(w->check_id);
        w->check_id = NULL;
        lose_in_flight(w, "connection lost");
        if (jsonrpc_session_is_connected(w->session) && w->leader_only) {
            /* Ready once the server says it leads: until then the caller
             * sees the connection down. */
            send_leader_monitor(w);
        } else {
            w->ready = jsonrpc_session_is_connected(w->session);
        }
        notify_connection(w);
    }

    for (int i = 0; i < MAX_MSGS_PER_RUN; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(w->session);

        if (!msg) {
            break;
        }
        process_msg(w, msg);
        jsonrpc_msg_destroy(msg);
    }
    send_queued(w);
}

void
ovsdb_writer_wait(struct ovsdb_writer *w)
{
    jsonrpc_session_wait(w->session);
    jsonrpc_session_recv_wait(w->session);
    if (w->n_queued && w->n_in_flight < w->max_in_flight && w->ready) {
        poll_immediate_wake();
    }
}

/* Splits 'remotes', one remote or a comma-separated list, into 'out', as
 * ovsdb-idl and ovsdb-cs split theirs (OVS's ovsdb_session_parse_remote():
 * white space around the commas skipped; a "cid:UUID" word, which only a
 * replica's cluster check uses, left out). */
void
ovsdb_writer_parse_remotes(const char *remotes, struct svec *out)
{
    struct uuid cid;

    ovsdb_session_parse_remote(remotes, out, &cid);
}

void
ovsdb_writer_force_reconnect(struct ovsdb_writer *w)
{
    jsonrpc_session_force_reconnect(w->session);
}

/* Queues a transaction whose parameters are 'params' and sends it if the
 * window has room. */
static void
txn_queue(struct ovsdb_writer *w, struct json *params, size_t n_ops,
          ovsdb_writer_cb *cb, void *aux)
{
    struct ovsdb_writer_txn *txn = xzalloc(sizeof *txn);

    txn->params = params;
    txn->n_ops = n_ops;
    txn->queued_ms = time_msec();
    txn->cb = cb;
    txn->aux = aux;
    ovs_list_push_back(&w->queued, &txn->node);
    w->n_queued++;
    send_queued(w);
}

/* Completes a transaction of no operations at once, as committed. */
static void
txn_empty(ovsdb_writer_cb *cb, void *aux)
{
    struct json *results = json_array_create_empty();
    struct ovsdb_writer_reply reply = {
        .result = OVSDB_WRITER_SUCCESS,
        .results = results,
        .failed_op = SIZE_MAX,
    };

    if (cb) {
        cb(aux, &reply);
    }
    json_destroy(results);
}

/* Queues a transaction made of 'ops', a JSON array of OVSDB operations
 * (ownership passes to the writer).  'cb' runs when it ends.  An empty
 * array completes at once, as committed. */
void
ovsdb_writer_commit(struct ovsdb_writer *w, struct json *ops,
                    ovsdb_writer_cb *cb, void *aux)
{
    ovs_assert(ops->type == JSON_ARRAY);
    size_t n_ops = ops->array.n;
    if (!n_ops) {
        json_destroy(ops);
        txn_empty(cb, aux);
        return;
    }

    /* Put the database name first: ["Fibsync", op, op, ...]. */
    struct json_array *a = &ops->array;
    json_array_add(ops, NULL);
    memmove(&a->elems[1], &a->elems[0], n_ops * sizeof *a->elems);
    a->elems[0] = json_string_create(w->db_name);
    txn_queue(w, ops, n_ops, cb, aux);
}

/* Initializes 'ops' with the beginning of a transaction's text: the
 * caller then appends ',' and an operation, for each operation, and
 * passes it to ovsdb_writer_commit_ds(). */
void
ovsdb_writer_txn_start(const struct ovsdb_writer *w, struct ds *ops)
{
    ds_init(ops);
    ds_put_cstr(ops, "[\"");
    ds_put_cstr(ops, w->db_name);
    ds_put_char(ops, '"');
}

/* Queues the transaction of 'n_ops' operations in 'ops', started with
 * ovsdb_writer_txn_start().  Its buffer passes to the writer; 'ops' is
 * left empty. */
void
ovsdb_writer_commit_ds(struct ovsdb_writer *w, struct ds *ops, size_t n_ops,
                       ovsdb_writer_cb *cb, void *aux)
{
    struct json *params;

    if (!n_ops) {
        ds_destroy(ops);
        txn_empty(cb, aux);
        return;
    }
    ds_put_char(ops, ']');

    /* A JSON_SERIALIZED_OBJECT is written out verbatim by json_to_ds().
     * OVS creates one only from a json tree, so make a string and retype
     * it: the two share the 'string' member, and json_destroy() frees it
     * for both. */
    params = json_string_create_nocopy(ds_steal_cstr(ops));
    params->type = JSON_SERIALIZED_OBJECT;
    txn_queue(w, params, n_ops, cb, aux);
}

/* Sends a request of the caller's, 'method' with 'params' (taken), now if
 * connected.  Returns its id, which the caller frees, or NULL if it was
 * not sent.  The reply goes to the message callback. */
struct json *
ovsdb_writer_send_request(struct ovsdb_writer *w, const char *method,
                          struct json *params)
{
    struct jsonrpc_msg *request;
    struct json *id;

    if (!w->ready) {
        json_destroy(params);
        return NULL;
    }
    /* jsonrpc_create_request() hands back a reference of our own: no
     * clone of it (another reference the caller would never drop). */
    request = jsonrpc_create_request(method, params, &id);
    jsonrpc_session_send(w->session, request);
    return id;
}

const char *
ovsdb_writer_get_remote(const struct ovsdb_writer *w)
{
    return w->remote;
}

/* Returns true if the writer is connected to a server that takes its
 * writes (with a list of remotes: the cluster's leader). */
bool
ovsdb_writer_is_connected(const struct ovsdb_writer *w)
{
    return w->ready;
}

unsigned int
ovsdb_writer_get_seqno(const struct ovsdb_writer *w)
{
    return jsonrpc_session_get_seqno(w->session);
}

size_t
ovsdb_writer_n_in_flight(const struct ovsdb_writer *w)
{
    return w->n_in_flight;
}

size_t
ovsdb_writer_n_queued(const struct ovsdb_writer *w)
{
    return w->n_queued;
}

/* Returns true if one more transaction would be sent at once: connected,
 * and fewer than the window queued or in flight. */
bool
ovsdb_writer_has_room(const struct ovsdb_writer *w)
{
    return (w->ready
            && w->n_in_flight + w->n_queued < w->max_in_flight);
}

bool
ovsdb_writer_is_idle(const struct ovsdb_writer *w)
{
    return !w->n_in_flight && !w->n_queued;
}

/* Returns how long the oldest transaction not yet ended has waited, in
 * ms: how far the database is behind this writer.  0 when idle. */
long long int
ovsdb_writer_lag_ms(const struct ovsdb_writer *w)
{
    const struct ovs_list *list = (w->n_in_flight ? &w->in_flight
                                   : w->n_queued ? &w->queued : NULL);

    if (!list) {
        return 0;
    }

    const struct ovsdb_writer_txn *oldest
        = CONTAINER_OF(ovs_list_front(list), struct ovsdb_writer_txn, node);
    return time_msec() - oldest->queued_ms;
}

void
ovsdb_writer_get_stats(const struct ovsdb_writer *w,
                       struct ovsdb_writer_stats *stats)
{
    *stats = w->stats;
}

void
ovsdb_writer_format_stats(const struct ovsdb_writer *w, struct ds *s)
{
    ds_put_format(s, "connected: %s\n",
                  ovsdb_writer_is_connected(w) ? "yes" : "no");
    ds_put_format(s, "transactions: committed %"PRIu64", refused %"PRIu64
                  ", lost %"PRIu64", in flight %"PRIuSIZE
                  ", queued %"PRIuSIZE"\n",
                  w->stats.n_committed, w->stats.n_failed, w->stats.n_lost,
                  w->n_in_flight, w->n_queued);
    if (w->leader_only) {
        ds_put_format(s, "cluster: %s, %"PRIu64" reconnections, %"PRIu64
                      " leadership changes followed\n",
                      w->ready ? jsonrpc_session_get_name(w->session)
                               : "looking for the leader",
                      w->stats.n_reconnects, w->stats.n_leader_changes);
    }
    if (w->last_error) {
        ds_put_format(s, "last error: %s\n", w->last_error);
    }
}
