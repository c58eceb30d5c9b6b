/*
 * ovsdb-writer: pipelined OVSDB transactions without an IDL replica.
 */

#include <config.h>

#include "lib/ovsdb-writer.h"

#include "coverage.h"
#include "jsonrpc.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_writer);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(ovsdb_writer_txn);
COVERAGE_DEFINE(ovsdb_writer_error);
COVERAGE_DEFINE(ovsdb_writer_lost);

/* One queued or in-flight transaction. */
struct ovsdb_writer_txn {
    struct ovs_list node;       /* In 'queued' or 'in_flight'. */
    struct json *ops;           /* Operations array, until sent. */
    struct json *id;            /* Request id, once sent. */
    size_t n_ops;               /* Operations in the transaction. */
    ovsdb_writer_cb *cb;        /* Completion callback. */
    void *aux;                  /* Its argument. */
};

struct ovsdb_writer {
    struct jsonrpc_session *session;   /* Connection to ovsdb-server. */
    char *db_name;                     /* Database, e.g. "Fibsync". */
    unsigned int session_seqno;        /* To notice reconnections. */
    size_t max_in_flight;              /* Window size. */
    struct ovs_list queued;            /* Waiting to be sent, in order. */
    struct ovs_list in_flight;         /* Sent, awaiting replies, in order. */
    size_t n_queued;                   /* Length of 'queued'. */
    size_t n_in_flight;                /* Length of 'in_flight'. */

    /* Statistics, for the daemons' show commands. */
    uint64_t n_committed;              /* Transactions that succeeded. */
    uint64_t n_failed;                 /* Refused by the server. */
    uint64_t n_lost;                   /* Lost to a disconnection. */
    uint64_t n_ops;                    /* Operations committed. */
    char *last_error;                  /* Last refusal, for diagnostics. */
};

struct ovsdb_writer *
ovsdb_writer_create(const char *remote, const char *db_name)
{
    struct ovsdb_writer *w = xzalloc(sizeof *w);

    w->session = jsonrpc_session_open(remote, true);
    /* A large transaction can keep the server busy for a while; probing
     * would only add spurious disconnections. */
    jsonrpc_session_set_probe_interval(w->session, 0);
    w->db_name = xstrdup(db_name);
    w->session_seqno = jsonrpc_session_get_seqno(w->session);
    w->max_in_flight = 4;
    ovs_list_init(&w->queued);
    ovs_list_init(&w->in_flight);
    return w;
}

static void
txn_complete(struct ovsdb_writer *w, struct ovsdb_writer_txn *txn,
             enum ovsdb_writer_result result, const struct json *reply)
{
    if (txn->cb) {
        txn->cb(txn->aux, result, reply);
    }
    json_destroy(txn->ops);
    json_destroy(txn->id);
    free(txn);
    (void) w;
}

void
ovsdb_writer_destroy(struct ovsdb_writer *w)
{
    struct ovsdb_writer_txn *txn;

    if (!w) {
        return;
    }
    LIST_FOR_EACH_POP (txn, node, &w->in_flight) {
        txn_complete(w, txn, OVSDB_WRITER_LOST, NULL);
    }
    LIST_FOR_EACH_POP (txn, node, &w->queued) {
        txn_complete(w, txn, OVSDB_WRITER_LOST, NULL);
    }
    jsonrpc_session_close(w->session);
    free(w->db_name);
    free(w->last_error);
    free(w);
}

void
ovsdb_writer_set_max_in_flight(struct ovsdb_writer *w, size_t n)
{
    w->max_in_flight = MAX(n, 1);
}

/* Sends queued transactions while the window has room. */
static void
send_queued(struct ovsdb_writer *w)
{
    while (w->n_in_flight < w->max_in_flight && !ovs_list_is_empty(&w->queued)
           && jsonrpc_session_is_connected(w->session)) {
        struct ovsdb_writer_txn *txn
            = CONTAINER_OF(ovs_list_pop_front(&w->queued),
                           struct ovsdb_writer_txn, node);
        struct jsonrpc_msg *request;

        w->n_queued--;
        json_array_add(txn->ops, NULL);   /* Placeholder, fixed below. */
        /* Put the database name first: ["Fibsync", op, op, ...]. */
        struct json_array *a = &txn->ops->array;
        memmove(&a->elems[1], &a->elems[0], (a->n - 1) * sizeof *a->elems);
        a->elems[0] = json_string_create(w->db_name);

        request = jsonrpc_create_request("transact", txn->ops, &txn->id);
        txn->ops = NULL;
        txn->id = json_clone(txn->id);
        jsonrpc_session_send(w->session, request);
        ovs_list_push_back(&w->in_flight, &txn->node);
        w->n_in_flight++;
        COVERAGE_INC(ovsdb_writer_txn);
    }
}

/* Returns true if 'result', a transact reply, reports an error in any of
 * its operations.  Stores a description in '*errorp'. */
static bool
reply_has_error(const struct json *result, char **errorp)
{
    if (result->type != JSON_ARRAY) {
        *errorp = xstrdup("reply is not an array");
        return true;
    }
    for (size_t i = 0; i < result->array.n; i++) {
        const struct json *r = result->array.elems[i];

        if (r->type == JSON_OBJECT && shash_find(json_object(r), "error")) {
            *errorp = json_to_string(r, 0);
            return true;
        }
    }
    return false;
}

/* Handles one message from the server. */
static void
process_msg(struct ovsdb_writer *w, struct jsonrpc_msg *msg)
{
    struct ovsdb_writer_txn *txn;

    if (msg->type == JSONRPC_REQUEST && !strcmp(msg->method, "echo")) {
        jsonrpc_session_send(w->session,
                             jsonrpc_create_reply(json_clone(msg->params),
                                                  msg->id));
        return;
    }
    if ((msg->type != JSONRPC_REPLY && msg->type != JSONRPC_ERROR)
        || ovs_list_is_empty(&w->in_flight)) {
        return;
    }
    txn = CONTAINER_OF(ovs_list_front(&w->in_flight),
                       struct ovsdb_writer_txn, node);
    if (!json_equal(txn->id, msg->id)) {
        VLOG_WARN_RL(&rl,
                     "reply out of order; ignoring it");
        return;
    }
    ovs_list_remove(&txn->node);
    w->n_in_flight--;

    char *error = NULL;
    if (msg->type == JSONRPC_ERROR) {
        error = json_to_string(msg->error, 0);
    } else if (!reply_has_error(msg->result, &error)) {
        w->n_committed++;
        txn_complete(w, txn, OVSDB_WRITER_SUCCESS, msg->result);
        return;
    }
    COVERAGE_INC(ovsdb_writer_error);
    VLOG_WARN_RL(&rl,
                 "transaction refused: %s", error);
    free(w->last_error);
    w->last_error = error;
    w->n_failed++;
    txn_complete(w, txn, OVSDB_WRITER_ERROR,
                 msg->type == JSONRPC_ERROR ? msg->error : msg->result);
}

void
ovsdb_writer_run(struct ovsdb_writer *w)
{
    jsonrpc_session_run(w->session);

    unsigned int seqno = jsonrpc_session_get_seqno(w->session);
    if (seqno != w->session_seqno) {
        struct ovsdb_writer_txn *txn;

        /* The connection went down (and maybe came back): the fate of
         * every transaction in flight is unknown. */
        w->session_seqno = seqno;
        LIST_FOR_EACH_POP (txn, node, &w->in_flight) {
            COVERAGE_INC(ovsdb_writer_lost);
            w->n_lost++;
            txn_complete(w, txn, OVSDB_WRITER_LOST, NULL);
        }
        w->n_in_flight = 0;
    }

    for (int i = 0; i < 50; i++) {
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
    if (!ovs_list_is_empty(&w->queued) && w->n_in_flight < w->max_in_flight
        && jsonrpc_session_is_connected(w->session)) {
        poll_immediate_wake();
    }
}

bool
ovsdb_writer_is_connected(const struct ovsdb_writer *w)
{
    return jsonrpc_session_is_connected(w->session);
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

bool
ovsdb_writer_is_idle(const struct ovsdb_writer *w)
{
    return !w->n_in_flight && !w->n_queued;
}

void
ovsdb_writer_format_stats(const struct ovsdb_writer *w, struct ds *s)
{
    ds_put_format(s, "connected: %s\n",
                  ovsdb_writer_is_connected(w) ? "yes" : "no");
    ds_put_format(s, "transactions: committed %"PRIu64", refused %"PRIu64
                  ", lost %"PRIu64", in flight %"PRIuSIZE
                  ", queued %"PRIuSIZE"\n",
                  w->n_committed, w->n_failed, w->n_lost, w->n_in_flight,
                  w->n_queued);
    if (w->last_error) {
        ds_put_format(s, "last error: %s\n", w->last_error);
    }
}

void
ovsdb_writer_commit(struct ovsdb_writer *w, struct json *ops,
                    ovsdb_writer_cb *cb, void *aux)
{
    struct ovsdb_writer_txn *txn;

    ovs_assert(ops->type == JSON_ARRAY);
    if (!ops->array.n) {
        struct json *empty = json_array_create_empty();

        json_destroy(ops);
        if (cb) {
            cb(aux, OVSDB_WRITER_SUCCESS, empty);
        }
        json_destroy(empty);
        return;
    }
    txn = xzalloc(sizeof *txn);
    txn->ops = ops;
    txn->n_ops = ops->array.n;
    txn->cb = cb;
    txn->aux = aux;
    w->n_ops += txn->n_ops;
    ovs_list_push_back(&w->queued, &txn->node);
    w->n_queued++;
    send_queued(w);
}

struct json *
ovsdb_writer_uuid_json(const struct uuid *uuid)
{
    return json_array_create_2(json_string_create("uuid"),
                               json_string_create_nocopy(
                                   xasprintf(UUID_FMT, UUID_ARGS(uuid))));
}

/* Returns the where clause [["_uuid", "==", ["uuid", U]]]. */
static struct json *
where_uuid(const struct uuid *uuid)
{
    return json_array_create_1(
        json_array_create_3(json_string_create("_uuid"),
                            json_string_create("=="),
                            ovsdb_writer_uuid_json(uuid)));
}

static struct json *
op_new(const char *op, const char *table)
{
    struct json *j = json_object_create();

    json_object_put_string(j, "op", op);
    json_object_put_string(j, "table", table);
    return j;
}

struct json *
ovsdb_writer_op_insert(const char *table, const struct uuid *row_uuid,
                       struct json *row)
{
    struct json *j = op_new("insert", table);

    if (row_uuid) {
        json_object_put_format(j, "uuid", UUID_FMT, UUID_ARGS(row_uuid));
    }
    json_object_put(j, "row", row);
    return j;
}

struct json *
ovsdb_writer_op_update(const char *table, const struct uuid *row_uuid,
                       struct json *row)
{
    struct json *j = op_new("update", table);

    json_object_put(j, "where", where_uuid(row_uuid));
    json_object_put(j, "row", row);
    return j;
}

struct json *
ovsdb_writer_op_delete(const char *table, const struct uuid *row_uuid)
{
    struct json *j = op_new("delete", table);

    json_object_put(j, "where", where_uuid(row_uuid));
    return j;
}

struct json *
ovsdb_writer_op_mutate(const char *table, const struct uuid *row_uuid,
                       struct json *mutations)
{
    struct json *j = op_new("mutate", table);

    json_object_put(j, "where", where_uuid(row_uuid));
    json_object_put(j, "mutations", mutations);
    return j;
}

struct json *
ovsdb_writer_map_new(void)
{
    return json_array_create_2(json_string_create("map"),
                               json_array_create_empty());
}

void
ovsdb_writer_map_add(struct json *map, struct json *key, struct json *value)
{
    json_array_add(map->array.elems[1], json_array_create_2(key, value));
}

struct json *
ovsdb_writer_set_new(void)
{
    return json_array_create_2(json_string_create("set"),
                               json_array_create_empty());
}

void
ovsdb_writer_set_add(struct json *set, struct json *value)
{
    json_array_add(set->array.elems[1], value);
}
