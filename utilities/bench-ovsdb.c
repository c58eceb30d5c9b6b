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

/* fibsync-bench ovsdb: a load generator for ovsdb-server.
 *
 * usage: fibsync-bench ovsdb WORKLOAD --db REMOTE [OPTIONS]
 *
 * Every request is a raw JSON-RPC "transact" (or "monitor_cond") on the
 * Fibsync database; no IDL, so that the client costs as little as possible
 * and the server is what is measured.  Workers are forked processes, each
 * with its own connection; they connect and finish their setup, then all
 * start together, and the clock runs from that start until the last worker
 * is done.  The result is one line:
 *
 *   RESULT workload=W seconds=S rows=N txns=T rate=R unit=U lat_ms=L
 *
 * Workloads:
 *
 *   update   --rows N --workers W --txns T --txn-rows K
 *            Inserts N Route rows first (1,000-row transactions, not
 *            timed), then W workers each own N/W of them and run T
 *            transactions of K "update" operations (by _uuid) on their
 *            rows in turn, setting "metric" and "external_ids"
 *            (a new value each time).  One transaction in flight per
 *            worker.  Rate: row updates per second.
 *
 *   insert   --rows N --workers W --txn-rows K [--in-flight F]
 *            W workers each insert N new Route rows (their own prefixes)
 *            in K-row transactions, F in flight.  Rate: rows per second.
 *
 *   answer   --rows N --map-size M --workers W --requests Q
 *            Inserts N Route rows whose "status" map has M entries, and one
 *            Vrf row per worker (not timed).  One producer monitors Vrf's
 *            "external_ids"; W workers monitor Route's "status" and Vrf's
 *            "external_ids" (monitor_cond, as the C IDL does).  Each worker
 *            sends a request by setting key "req" of its own Vrf row's
 *            "external_ids" (a partial map mutate), and waits for its
 *            answer: the producer answers each request with one
 *            transaction that rewrites all M entries of "status" on all N
 *            rows (a delete of the M keys and an insert of M new pairs per
 *            row, fibsync's partial mutates) and sets key "ans" of the
 *            worker's Vrf row.  The worker's answer is the monitor update
 *            that shows its "ans"; every worker receives every answer's
 *            N x M changed entries.  Q requests per worker, one at a time.
 *            Rate: answers per second; lat_ms: request to answer.
 *
 *   txnsize  --rows N --txn-rows K [--limit-rows L]
 *            One client inserts N Route rows in K-row transactions, one in
 *            flight (K = N: one transaction; K = 1: one row per
 *            transaction).  --limit-rows stops after L rows; then the
 *            result line also gives "projected_s", N at the measured rate.
 *
 * Common options: --db REMOTE (required), --help. */

#include <config.h>

#include "utilities/bench-ovsdb.h"
#include "utilities/bench-ovsdb-options.h"
#include "lib/option-parse.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jsonrpc.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "openvswitch/util.h"
#include "socket-util.h"
#include "stream.h"
#include "util.h"
#include "utilities/bench-util.h"

/* What one worker reports to the parent through a pipe. */
struct bench_result {
    uint64_t txns;              /* Transactions committed. */
    uint64_t rows;              /* Rows inserted or updated. */
    uint64_t answers;           /* Answers received (answer workload). */
    double lat_sum;             /* Sum of request latencies, seconds. */
};

/* Row UUIDs (as text) created by the parent before forking, inherited by
 * the workers: Route rows, and for "answer" one Vrf row per worker. */
static char **bench_route_uuids;
static size_t bench_n_route_uuids;
static char **bench_vrf_uuids;

/* Start barrier, set in each worker after fork: a worker writes one byte
 * to 'bench_ready_fd' when set up, then waits for EOF on 'bench_go_fd'. */
static int bench_ready_fd = -1;
static int bench_go_fd = -1;

/* Called by a worker once its connection and monitors are set up: tells
 * the parent and waits until every worker is ready. */
static void
bench_barrier(void)
{
    char c = 'r';
    ssize_t n;

    if (write(bench_ready_fd, &c, 1) != 1) {
        ovs_fatal(errno, "barrier write failed");
    }
    do {
        n = read(bench_go_fd, &c, 1);
    } while (n < 0 && errno == EINTR);
    if (n != 0) {
        ovs_fatal(0, "barrier: unexpected data from parent");
    }
}

/* Connects to 'remote', blocking. */
static struct jsonrpc *
bench_connect(const char *remote)
{
    struct stream *stream;
    int error;

    error = stream_open_block(stream_open(remote, &stream, DSCP_DEFAULT),
                              -1, &stream);
    if (error) {
        ovs_fatal(error, "%s: connect failed", remote);
    }
    return jsonrpc_open(stream);
}

/* Receives the next message on 'rpc' other than an "echo" request, which
 * it answers. */
static struct jsonrpc_msg *
bench_recv(struct jsonrpc *rpc)
{
    for (;;) {
        struct jsonrpc_msg *msg;
        int error = jsonrpc_recv_block(rpc, &msg);

        if (error) {
            ovs_fatal(error, "receive failed");
        }
        if (msg->type == JSONRPC_REQUEST && !strcmp(msg->method, "echo")) {
            jsonrpc_send(rpc, jsonrpc_create_reply(json_clone(msg->params),
                                                   msg->id));
            jsonrpc_msg_destroy(msg);
            continue;
        }
        return msg;
    }
}

/* Sends 'params' (the database name followed by operations) as a
 * "transact" request. */
static void
bench_send_txn(struct jsonrpc *rpc, struct json *params)
{
    int error = jsonrpc_send(rpc, jsonrpc_create_request("transact", params,
                                                         NULL));
    if (error) {
        ovs_fatal(error, "send failed");
    }
}

/* Returns a new "transact" parameter array holding only the database
 * name. */
static struct json *
bench_txn_new(void)
{
    struct json *params = json_array_create_empty();

    json_array_add(params, json_string_create("Fibsync"));
    return params;
}

/* Appends 'op' to 'params', serialized, and frees 'op': a serialized
 * operation costs about 150 bytes in the client instead of a few
 * kilobytes of JSON tree, which matters for 500,000-row transactions. */
static void
bench_txn_add(struct json *params, struct json *op)
{
    json_array_add(params, json_serialized_object_create(op));
    json_destroy(op);
}

/* Fails unless 'reply' is a successful transaction reply. */
static void
bench_check_reply(const struct jsonrpc_msg *reply)
{
    if (reply->type != JSONRPC_REPLY || reply->result->type != JSON_ARRAY) {
        ovs_fatal(0, "transaction failed: %s", jsonrpc_msg_to_string(reply));
    }
    const struct json_array *results = json_array(reply->result);
    for (size_t i = 0; i < results->n; i++) {
        if (results->elems[i]->type != JSON_OBJECT
            || shash_find(json_object(results->elems[i]), "error")) {
            ovs_fatal(0, "transaction failed: %s",
                      json_to_string(results->elems[i], 0));
        }
    }
}

/* Receives messages on 'rpc' until a reply, which it checks and returns;
 * fails on anything else. */
static struct jsonrpc_msg *
bench_wait_reply(struct jsonrpc *rpc)
{
    struct jsonrpc_msg *msg = bench_recv(rpc);

    if (msg->type != JSONRPC_REPLY) {
        ovs_fatal(0, "unexpected message: %s", jsonrpc_msg_to_string(msg));
    }
    bench_check_reply(msg);
    return msg;
}

/* Formats the prefix of route number 'i' (< 2**24) into 'buf'. */
static void
bench_prefix(size_t i, char buf[32])
{
    snprintf(buf, 32, "10.%u.%u.%u/32", (unsigned int) (i >> 16) & 0xff,
             (unsigned int) (i >> 8) & 0xff, (unsigned int) i & 0xff);
}

/* Returns an insert operation for route number 'i', a row as fpmsyncd
 * writes it; with 'status' (a datum, cloned) if nonnull. */
static struct json *
bench_route_insert(size_t i, const struct json *status)
{
    struct json *row = json_object_create();
    struct json *op = json_object_create();
    char prefix[32];

    bench_prefix(i, prefix);
    json_object_put_string(row, "vrf", "default");
    json_object_put_string(row, "prefix", prefix);
    json_object_put_string(row, "protocol", "bgp");
    json_object_put(row, "blackhole", json_boolean_create(false));
    json_object_put(row, "metric", json_integer_create(0));
    json_object_put(row, "nexthops", json_array_create_2(
                        json_string_create("map"),
                        json_array_create_1(json_array_create_2(
                            json_string_create("192.0.2.1"),
                            json_integer_create(1)))));
    if (status) {
        json_object_put(row, "status", json_clone(status));
    }
    json_object_put_string(op, "op", "insert");
    json_object_put_string(op, "table", "Route");
    json_object_put(op, "row", row);
    return op;
}

/* Returns a "where" clause selecting the row with UUID text 'uuid'. */
static struct json *
bench_where_uuid(const char *uuid)
{
    return json_array_create_1(json_array_create_3(
        json_string_create("_uuid"), json_string_create("=="),
        json_array_create_2(json_string_create("uuid"),
                            json_string_create(uuid))));
}

/* Appends the UUIDs of the rows inserted by the transaction whose reply is
 * 'reply' to 'uuids' (with room). */
static void
bench_collect_uuids(const struct jsonrpc_msg *reply, char **uuids)
{
    const struct json_array *results = json_array(reply->result);

    for (size_t i = 0; i < results->n; i++) {
        const struct json *uuid = shash_find_data(
            json_object(results->elems[i]), "uuid");

        if (!uuid || uuid->type != JSON_ARRAY
            || json_array(uuid)->n != 2) {
            ovs_fatal(0, "insert reply without uuid");
        }
        uuids[i] = xstrdup(json_string(json_array(uuid)->elems[1]));
    }
}

/* Inserts Route rows 0 to 'n' - 1 into 'remote' in 'batch'-row
 * transactions, each with 'status' if nonnull, and records their UUIDs in
 * 'bench_route_uuids'.  Not timed: the setup of a workload. */
static void
bench_populate(const char *remote, size_t n, size_t batch,
               const struct json *status)
{
    struct jsonrpc *rpc = bench_connect(remote);

    bench_route_uuids = xcalloc(n, sizeof *bench_route_uuids);
    bench_n_route_uuids = n;
    for (size_t i = 0; i < n; i += batch) {
        struct json *params = bench_txn_new();
        size_t end = MIN(n, i + batch);

        for (size_t j = i; j < end; j++) {
            bench_txn_add(params, bench_route_insert(j, status));
        }
        bench_send_txn(rpc, params);

        struct jsonrpc_msg *reply = bench_wait_reply(rpc);
        if (json_array(reply->result)->n != end - i) {
            ovs_fatal(0, "insert reply has the wrong number of results");
        }
        bench_collect_uuids(reply, &bench_route_uuids[i]);
        jsonrpc_msg_destroy(reply);
    }
    jsonrpc_close(rpc);
}

/* A worker: runs in a child process as number 'idx' and fills in 'r'.  It
 * must call bench_barrier() once set up. */
typedef void bench_worker_func(const struct bench_opts *, int idx,
                               struct bench_result *r);

/* Runs 'n' workers, each a forked process running 'func', and returns the
 * seconds from their common start until the last one is done; adds up
 * their results in '*total'. */
static double
bench_run_workers(const struct bench_opts *o, int n, bench_worker_func *func,
                  struct bench_result *total)
{
    int ready[2], go[2], res[2];
    pid_t *pids = xcalloc(n, sizeof *pids);

    if (pipe(ready) || pipe(go) || pipe(res)) {
        ovs_fatal(errno, "pipe failed");
    }
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        if (pids[i] < 0) {
            ovs_fatal(errno, "fork failed");
        } else if (!pids[i]) {
            struct bench_result r;

            memset(&r, 0, sizeof r);
            close(ready[0]);
            close(go[1]);
            close(res[0]);
            bench_ready_fd = ready[1];
            bench_go_fd = go[0];
            func(o, i, &r);
            if (write(res[1], &r, sizeof r) != sizeof r) {
                ovs_fatal(errno, "result write failed");
            }
            _exit(0);
        }
    }
    close(ready[1]);
    close(go[0]);
    close(res[1]);

    for (int i = 0; i < n; i++) {
        char c;

        if (read(ready[0], &c, 1) != 1) {
            ovs_fatal(0, "a worker failed during setup");
        }
    }
    double start = bench_wall_s();
    close(go[1]);

    memset(total, 0, sizeof *total);
    for (int i = 0; i < n; i++) {
        struct bench_result r;

        if (read(res[0], &r, sizeof r) != sizeof r) {
            ovs_fatal(0, "a worker failed");
        }
        total->txns += r.txns;
        total->rows += r.rows;
        total->answers += r.answers;
        total->lat_sum += r.lat_sum;
    }
    double elapsed = bench_wall_s() - start;

    for (int i = 0; i < n; i++) {
        int status;

        if (waitpid(pids[i], &status, 0) < 0
            || !WIFEXITED(status) || WEXITSTATUS(status)) {
            ovs_fatal(0, "worker %d exited abnormally", i);
        }
    }
    close(ready[0]);
    close(res[0]);
    free(pids);
    return elapsed;
}

/* "update" worker: updates its share of the rows in turn. */
static void
bench_update_worker(const struct bench_opts *o, int idx,
                    struct bench_result *r)
{
    size_t lo = idx * bench_n_route_uuids / o->workers;
    size_t hi = (idx + 1) * bench_n_route_uuids / o->workers;
    size_t share = hi - lo;
    struct jsonrpc *rpc = bench_connect(o->remote);
    uint64_t value = (uint64_t) idx << 24;
    size_t pos = 0;

    if (!share) {
        ovs_fatal(0, "fewer rows than workers");
    }
    bench_barrier();
    for (size_t t = 0; t < o->txns; t++) {
        struct json *params = bench_txn_new();

        for (size_t k = 0; k < o->txn_rows; k++) {
            const char *uuid = bench_route_uuids[lo + pos++ % share];
            struct json *row = json_object_create();
            struct json *op = json_object_create();

            value++;
            json_object_put(row, "metric",
                            json_integer_create(value & 0xffffffff));
            json_object_put(row, "external_ids", json_array_create_2(
                                json_string_create("map"),
                                json_array_create_1(json_array_create_2(
                                    json_string_create("bench-seq"),
                                    json_string_create_nocopy(
                                        xasprintf("%"PRIu64, value))))));
            json_object_put_string(op, "op", "update");
            json_object_put_string(op, "table", "Route");
            json_object_put(op, "where", bench_where_uuid(uuid));
            json_object_put(op, "row", row);
            bench_txn_add(params, op);
        }

        double t0 = bench_wall_s();
        bench_send_txn(rpc, params);
        jsonrpc_msg_destroy(bench_wait_reply(rpc));
        r->lat_sum += bench_wall_s() - t0;
        r->txns++;
        r->rows += o->txn_rows;
    }
    jsonrpc_close(rpc);
}

/* Inserts routes 'first' to 'first' + 'n' - 1 on 'rpc' in 'batch'-row
 * transactions with up to 'in_flight' outstanding; adds to 'r'. */
static void
bench_insert_range(struct jsonrpc *rpc, size_t first, size_t n,
                   size_t batch, int in_flight, struct bench_result *r)
{
    int outstanding = 0;

    for (size_t i = 0; i < n || outstanding; ) {
        if (i < n && outstanding < in_flight) {
            struct json *params = bench_txn_new();
            size_t end = MIN(n, i + batch);

            for (size_t j = i; j < end; j++) {
                bench_txn_add(params, bench_route_insert(first + j, NULL));
            }
            bench_send_txn(rpc, params);
            r->rows += end - i;
            r->txns++;
            i = end;
            outstanding++;
        } else {
            jsonrpc_msg_destroy(bench_wait_reply(rpc));
            outstanding--;
        }
    }
}

/* "insert" worker: inserts its own 'o->rows' routes. */
static void
bench_insert_worker(const struct bench_opts *o, int idx,
                    struct bench_result *r)
{
    struct jsonrpc *rpc = bench_connect(o->remote);

    bench_barrier();
    double t0 = bench_wall_s();
    bench_insert_range(rpc, idx * o->rows, o->rows, o->txn_rows,
                       o->in_flight, r);
    r->lat_sum = bench_wall_s() - t0;
    jsonrpc_close(rpc);
}

/* Returns the value of 'key' in 'datum', a map datum in JSON form
 * (["map", [[k, v], ...]]) with string values, or NULL. */
static const char *
bench_map_get(const struct json *datum, const char *key)
{
    if (!datum || datum->type != JSON_ARRAY || json_array(datum)->n != 2
        || json_array(datum)->elems[1]->type != JSON_ARRAY) {
        return NULL;
    }
    const struct json_array *pairs = json_array(json_array(datum)->elems[1]);
    for (size_t i = 0; i < pairs->n; i++) {
        const struct json_array *pair = json_array(pairs->elems[i]);

        if (pair->n == 2 && pair->elems[0]->type == JSON_STRING
            && pair->elems[1]->type == JSON_STRING
            && !strcmp(json_string(pair->elems[0]), key)) {
            return json_string(pair->elems[1]);
        }
    }
    return NULL;
}

/* In the "update2" notification 'msg', returns the value of key 'key' in
 * the changed "external_ids" of the Vrf row with UUID text 'uuid', or NULL
 * if that key did not change. */
static const char *
bench_vrf_change(const struct jsonrpc_msg *msg, const char *uuid,
                 const char *key)
{
    if (msg->params->type != JSON_ARRAY || json_array(msg->params)->n != 2
        || json_array(msg->params)->elems[1]->type != JSON_OBJECT) {
        return NULL;
    }
    const struct json *vrf = shash_find_data(
        json_object(json_array(msg->params)->elems[1]), "Vrf");
    const struct json *row = (vrf && vrf->type == JSON_OBJECT
                              ? shash_find_data(json_object(vrf), uuid)
                              : NULL);
    const struct json *modify = (row && row->type == JSON_OBJECT
                                 ? shash_find_data(json_object(row),
                                                   "modify")
                                 : NULL);
    if (!modify || modify->type != JSON_OBJECT) {
        return NULL;
    }
    return bench_map_get(shash_find_data(json_object(modify),
                                         "external_ids"), key);
}

/* Sends a monitor_cond request on 'rpc' for 'tables' (a monitor request
 * object) and waits for its reply, the initial contents. */
static void
bench_monitor(struct jsonrpc *rpc, struct json *tables)
{
    struct json *params = json_array_create_3(json_string_create("Fibsync"),
                                              json_string_create("bench"),
                                              tables);
    int error = jsonrpc_send(rpc, jsonrpc_create_request("monitor_cond",
                                                         params, NULL));
    if (error) {
        ovs_fatal(error, "send failed");
    }

    struct jsonrpc_msg *reply = bench_recv(rpc);
    if (reply->type != JSONRPC_REPLY) {
        ovs_fatal(0, "monitor_cond failed: %s",
                  jsonrpc_msg_to_string(reply));
    }
    jsonrpc_msg_destroy(reply);
}

/* Returns a monitor request for one column, 'column', of a table. */
static struct json *
bench_monitor_columns(const char *column)
{
    struct json *req = json_object_create();

    json_object_put(req, "columns",
                    json_array_create_1(json_string_create(column)));
    return req;
}

/* Returns a mutate operation that sets key 'key' of map column 'column' of
 * the row with UUID text 'uuid' in 'table' to 'value' (a delete of the key
 * and an insert), taking ownership of 'value'. */
static struct json *
bench_map_set_op(const char *table, const char *uuid, const char *column,
                 const char *key, struct json *value)
{
    struct json *op = json_object_create();

    json_object_put_string(op, "op", "mutate");
    json_object_put_string(op, "table", table);
    json_object_put(op, "where", bench_where_uuid(uuid));
    json_object_put(op, "mutations", json_array_create_2(
        json_array_create_3(json_string_create(column),
                            json_string_create("delete"),
                            json_array_create_2(
                                json_string_create("set"),
                                json_array_create_1(
                                    json_string_create(key)))),
        json_array_create_3(json_string_create(column),
                            json_string_create("insert"),
                            json_array_create_2(
                                json_string_create("map"),
                                json_array_create_1(json_array_create_2(
                                    json_string_create(key), value))))));
    return op;
}

/* Returns the name of key number 'k' of the "status" maps. */
static char *
bench_status_key(size_t k)
{
    return xasprintf("sai-attr-%03zu", k);
}

/* Sends the producer's answer to request 'seq' of worker 'w': all
 * 'o->map_size' entries of "status" rewritten on every Route row, and
 * "ans" set in the worker's Vrf row, in one transaction.  'keys' is the
 * ["set", [...]] of all status keys. */
static void
bench_send_answer(struct jsonrpc *rpc, const struct bench_opts *o,
                  const struct json *keys, int w, long long int seq)
{
    struct json *params = bench_txn_new();
    struct json *pairs = json_array_create_empty();

    for (size_t k = 0; k < o->map_size; k++) {
        json_array_add(pairs, json_array_create_2(
                           json_string_create_nocopy(bench_status_key(k)),
                           json_string_create_nocopy(
                               xasprintf("ok w%d.%lld", w, seq))));
    }
    struct json *map = json_array_create_2(json_string_create("map"),
                                           pairs);
    for (size_t i = 0; i < bench_n_route_uuids; i++) {
        struct json *op = json_object_create();

        json_object_put_string(op, "op", "mutate");
        json_object_put_string(op, "table", "Route");
        json_object_put(op, "where", bench_where_uuid(bench_route_uuids[i]));
        json_object_put(op, "mutations", json_array_create_2(
            json_array_create_3(json_string_create("status"),
                                json_string_create("delete"),
                                json_clone(keys)),
            json_array_create_3(json_string_create("status"),
                                json_string_create("insert"),
                                json_clone(map))));
        bench_txn_add(params, op);
    }
    json_destroy(map);
    bench_txn_add(params, bench_map_set_op(
                      "Vrf", bench_vrf_uuids[w], "external_ids", "ans",
                      json_string_create_nocopy(xasprintf("%lld", seq))));
    bench_send_txn(rpc, params);
}

/* "answer" producer: answers every worker request, one transaction per
 * request, as soon as the request is seen in its Vrf monitor. */
static void
bench_producer(const struct bench_opts *o, struct bench_result *r)
{
    struct jsonrpc *rpc = bench_connect(o->remote);
    struct json *tables = json_object_create();
    long long int *answered = xcalloc(o->workers, sizeof *answered);
    struct json *keys = json_array_create_empty();
    size_t total = o->workers * o->requests;
    size_t done = 0;
    int outstanding = 0;

    for (size_t k = 0; k < o->map_size; k++) {
        json_array_add(keys, json_string_create_nocopy(bench_status_key(k)));
    }
    keys = json_array_create_2(json_string_create("set"), keys);

    json_object_put(tables, "Vrf", bench_monitor_columns("external_ids"));
    bench_monitor(rpc, tables);
    bench_barrier();

    while (done < total || outstanding) {
        struct jsonrpc_msg *msg = bench_recv(rpc);

        if (msg->type == JSONRPC_REPLY) {
            bench_check_reply(msg);
            outstanding--;
            r->txns++;
            r->rows += bench_n_route_uuids;
        } else if (msg->type == JSONRPC_NOTIFY
                   && !strcmp(msg->method, "update2")) {
            for (int w = 0; w < o->workers; w++) {
                const char *req = bench_vrf_change(msg, bench_vrf_uuids[w],
                                                   "req");
                long long int seq = req ? atoll(req) : 0;

                if (seq > answered[w]) {
                    answered[w] = seq;
                    bench_send_answer(rpc, o, keys, w, seq);
                    outstanding++;
                    done++;
                }
            }
        }
        jsonrpc_msg_destroy(msg);
    }
    json_destroy(keys);
    free(answered);
    jsonrpc_close(rpc);
}

/* "answer" worker (or, as the last one, the producer): sends requests one
 * at a time and waits for each answer in its monitor. */
static void
bench_answer_worker(const struct bench_opts *o, int idx,
                    struct bench_result *r)
{
    if (idx == o->workers) {
        bench_producer(o, r);
        return;
    }

    struct jsonrpc *rpc = bench_connect(o->remote);
    struct json *tables = json_object_create();

    json_object_put(tables, "Vrf", bench_monitor_columns("external_ids"));
    json_object_put(tables, "Route", bench_monitor_columns("status"));
    bench_monitor(rpc, tables);
    bench_barrier();

    for (size_t seq = 1; seq <= o->requests; seq++) {
        struct json *params = bench_txn_new();
        bool replied = false, answered = false;
        char *seq_s = xasprintf("%zu", seq);

        bench_txn_add(params, bench_map_set_op(
                          "Vrf", bench_vrf_uuids[idx], "external_ids",
                          "req", json_string_create(seq_s)));
        double t0 = bench_wall_s();
        bench_send_txn(rpc, params);
        while (!replied || !answered) {
            struct jsonrpc_msg *msg = bench_recv(rpc);

            if (msg->type == JSONRPC_REPLY) {
                bench_check_reply(msg);
                replied = true;
            } else if (msg->type == JSONRPC_NOTIFY
                       && !strcmp(msg->method, "update2")) {
                const char *ans = bench_vrf_change(msg, bench_vrf_uuids[idx],
                                                   "ans");
                if (ans && !strcmp(ans, seq_s)) {
                    answered = true;
                }
            }
            jsonrpc_msg_destroy(msg);
        }
        r->lat_sum += bench_wall_s() - t0;
        r->answers++;
        r->txns++;
        free(seq_s);
    }
    jsonrpc_close(rpc);
}

/* Sets up the "answer" workload: the Route rows with full status maps and
 * one Vrf row per worker. */
static void
bench_answer_setup(const struct bench_opts *o)
{
    struct json *pairs = json_array_create_empty();

    for (size_t k = 0; k < o->map_size; k++) {
        json_array_add(pairs, json_array_create_2(
                           json_string_create_nocopy(bench_status_key(k)),
                           json_string_create("init")));
    }
    struct json *status = json_array_create_2(json_string_create("map"),
                                              pairs);
    bench_populate(o->remote, o->rows, 64, status);
    json_destroy(status);

    struct jsonrpc *rpc = bench_connect(o->remote);
    struct json *params = bench_txn_new();
    for (int w = 0; w < o->workers; w++) {
        struct json *row = json_object_create();
        struct json *op = json_object_create();

        json_object_put(row, "name",
                        json_string_create_nocopy(xasprintf("bench-%d", w)));
        json_object_put(row, "table_id", json_integer_create(1000 + w));
        json_object_put(row, "external_ids", json_array_create_2(
            json_string_create("map"),
            json_array_create_2(
                json_array_create_2(json_string_create("req"),
                                    json_string_create("0")),
                json_array_create_2(json_string_create("ans"),
                                    json_string_create("0")))));
        json_object_put_string(op, "op", "insert");
        json_object_put_string(op, "table", "Vrf");
        json_object_put(op, "row", row);
        json_array_add(params, op);
    }
    bench_send_txn(rpc, params);

    struct jsonrpc_msg *reply = bench_wait_reply(rpc);
    bench_vrf_uuids = xcalloc(o->workers, sizeof *bench_vrf_uuids);
    bench_collect_uuids(reply, bench_vrf_uuids);
    jsonrpc_msg_destroy(reply);
    jsonrpc_close(rpc);
}

/* Runs workload 'o->workload', with the defaults of its --rows and
 * --txn-rows unless 'rows_set' and 'txn_rows_set'.  Returns its time in
 * seconds, with its counts in '*r', what it did in '*done', counted in
 * '*unit', and its extra RESULT fields appended to 'extra'. */
static double
bench_run_workload(struct bench_opts *o, bool rows_set, bool txn_rows_set,
                   struct bench_result *r, double *done, const char **unit,
                   struct ds *extra)
{
    double secs;

    if (!strcmp(o->workload, "update")) {
        o->rows = rows_set ? o->rows : 1000;
        o->txn_rows = txn_rows_set ? o->txn_rows : 100;
        bench_populate(o->remote, o->rows, 1000, NULL);
        secs = bench_run_workers(o, o->workers, bench_update_worker, r);
        *done = r->rows;
        ds_put_format(extra, " lat_ms=%.2f",
                      r->txns ? r->lat_sum / r->txns * 1e3 : 0.0);
    } else if (!strcmp(o->workload, "insert")) {
        o->rows = rows_set ? o->rows : 20000;
        o->txn_rows = txn_rows_set ? o->txn_rows : 1000;
        if (o->rows * o->workers >= 1 << 24) {
            ovs_fatal(0, "at most 2**24 rows");
        }
        secs = bench_run_workers(o, o->workers, bench_insert_worker, r);
        *done = r->rows;
    } else if (!strcmp(o->workload, "answer")) {
        o->rows = rows_set ? o->rows : 512;
        bench_answer_setup(o);
        secs = bench_run_workers(o, o->workers + 1, bench_answer_worker,
                                 r);
        *done = r->answers;
        *unit = "answers/s";
        ds_put_format(extra, " lat_ms=%.2f map_entries=%zu",
                      r->answers ? r->lat_sum / r->answers * 1e3 : 0.0,
                      (size_t) (r->answers * o->rows * o->map_size));
    } else if (!strcmp(o->workload, "txnsize")) {
        o->rows = rows_set ? o->rows : 1000;
        o->txn_rows = txn_rows_set ? o->txn_rows : o->rows;
        if (o->rows >= 1 << 24 || !o->txn_rows) {
            ovs_fatal(0, "at most 2**24 rows, at least 1 a transaction");
        }
        size_t n = (o->limit_rows && o->limit_rows < o->rows
                    ? o->limit_rows : o->rows);
        struct jsonrpc *rpc = bench_connect(o->remote);
        double start = bench_wall_s();

        memset(r, 0, sizeof *r);
        bench_insert_range(rpc, 0, n, o->txn_rows, o->in_flight, r);
        secs = bench_wall_s() - start;
        jsonrpc_close(rpc);
        *done = r->rows;
        if (n < o->rows) {
            ds_put_format(extra, " projected_s=%.3f",
                          secs * o->rows / n);
        }
    } else {
        ovs_fatal(0, "unknown workload \"%s\"", o->workload);
    }
    return secs;
}

/* Runs the OVSDB benchmark that 'argv' names (bench-ovsdb.h) and prints its
 * RESULT line.  Returns the exit status. */
int
bench_ovsdb_main(int argc, char *argv[])
{
    struct bench_opts o = {
        .workers = 10, .txns = 200, .map_size = 256, .requests = 3,
        .in_flight = 1,
    };
    bool rows_set = false, txn_rows_set = false;
    int status = bench_ovsdb_parse_options(argc, argv, &o, &rows_set,
                                           &txn_rows_set);
    if (status >= 0) {
        return status;
    }

    struct bench_result r;
    const char *unit = "rows/s";
    double done;
    struct ds extra = DS_EMPTY_INITIALIZER;
    double secs = bench_run_workload(&o, rows_set, txn_rows_set, &r, &done,
                                     &unit, &extra);

    double rate = secs > 0 ? done / secs : 0.0;
    printf("RESULT workload=%s seconds=%.3f rows=%"PRIu64" txns=%"PRIu64
           " rate=%.*f unit=%s%s\n", o.workload, secs, r.rows, r.txns,
           rate < 100 ? 2 : 0, rate, unit, ds_cstr(&extra));
    ds_destroy(&extra);
    return EXIT_SUCCESS;
}
