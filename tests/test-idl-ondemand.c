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
 * test-idl-ondemand: drives fibsync's IDL extensions (on-demand columns,
 * idl/idl-ondemand.h and idl/fibsync-ondemand.h; route indexes,
 * idl/route-index.h) against a real ovsdb-server, for the autotest suite.
 *
 * usage: test-idl-ondemand REMOTE STEP...
 *
 * It connects an IDL that monitors everything but Route.counters (on
 * demand) with a route index, waits for the replica, then runs the steps
 * in order, in one process, printing one line per step that has output:
 *
 *   fetch-row VRF PREFIX   fibrec_route_fetch_counters() of that route
 *   fetch-col              fibrec_route_fetch_col_counters()
 *   fetch-table            fibrec_route_fetch_table()
 *   flush                  runs until queued fetches are sent
 *   pending [VRF PREFIX]   prints the pending predicates (and the row's)
 *   wait                   runs until no fetch is pending; prints whether
 *                          idl_ondemand_get_seqno() moved
 *   counters [VRF PREFIX]  prints Route.counters of one route or of all
 *   sh COMMAND             runs COMMAND with /bin/sh; fails if it fails
 *   insert VRF PREFIX PROTOCOL NEXTHOPS
 *   update VRF PREFIX COLUMN VALUE
 *   delete VRF PREFIX      transact on the server, on a connection of
 *                          their own (COLUMN is protocol, nexthops or
 *                          counters; a map is "KEY=N,KEY=N" or "-")
 *   insert-many N          inserts N routes 10.X.Y.0/24 with counters
 *                          packets=1...N, in one transaction
 *   fetch-rows             a row fetch of Route.counters for every route
 *   counters-sum           prints how many routes have counters, and the
 *                          sum of their "packets"
 *   sync                   runs the IDL alone until its seqno moves
 *   sync-gone VRF PREFIX   runs the IDL alone until the route is gone
 *   sync-present VRF PREFIX
 *                          runs the IDL alone until the route is there
 *   sync-count N           runs the IDL alone until it holds N routes
 *   wait-reconnect         runs until the fetch session has lost its
 *                          connection and has it back, and the IDL too
 *   find VRF PREFIX        route_index_find()
 *   lpm VRF ADDRESS        route_index_lpm()
 *   walk-all | walk-vrf VRF | walk-longer VRF PREFIX |
 *   walk-proto PROTO [-|VRF] | walk-nh NEXTHOP
 *                          prints the routes of a walk, one a line
 *
 * Exits 0 if every step worked, 1 otherwise, 2 on a usage error.
 */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idl/fibsync-idl.h"
#include "idl/fibsync-ondemand.h"
#include "idl/idl-ondemand.h"
#include "idl/route-index.h"
#include "jsonrpc.h"
#include "openvswitch/json.h"
#include "socket-util.h"
#include "stream.h"
#include "lib/fib-prefix.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovsdb-idl.h"
#include "timeval.h"
#include "util.h"

/* Everything a step needs. */
struct ctx {
    const char *remote;         /* The database. */
    struct ovsdb_idl *idl;      /* The replica. */
    struct route_index *ri;     /* Its route index. */
    long long int deadline;     /* When a waiting step gives up. */
};

static void
usage_error(const char *msg)
{
    fprintf(stderr, "test-idl-ondemand: %s (see the source for usage)\n",
            msg);
    exit(2);
}

/* Runs both the IDL and the on-demand engine once, then blocks. */
static void
run_both_and_block(struct ctx *ctx)
{
    if (time_msec() > ctx->deadline) {
        ovs_fatal(0, "timed out");
    }
    ovsdb_idl_wait(ctx->idl);
    idl_ondemand_wait(ctx->idl);
    poll_timer_wait(100);
    poll_block();
    ovsdb_idl_run(ctx->idl);
    idl_ondemand_run(ctx->idl);
}

/* Runs the IDL alone once, then blocks: the on-demand engine does not see
 * its replies meanwhile. */
static void
run_idl_and_block(struct ctx *ctx)
{
    if (time_msec() > ctx->deadline) {
        ovs_fatal(0, "timed out");
    }
    ovsdb_idl_wait(ctx->idl);
    poll_timer_wait(100);
    poll_block();
    ovsdb_idl_run(ctx->idl);
}

static const struct fibrec_route *
find_route(struct ctx *ctx, const char *vrf, const char *prefix_s)
{
    struct fib_prefix p;
    char *error = fib_prefix_parse(prefix_s, &p);

    if (error) {
        ovs_fatal(0, "%s", error);
    }
    return route_index_find(ctx->ri, vrf, &p);
}

static const struct fibrec_route *
need_route(struct ctx *ctx, const char *vrf, const char *prefix)
{
    const struct fibrec_route *route = find_route(ctx, vrf, prefix);

    if (!route) {
        ovs_fatal(0, "no route %s %s", vrf, prefix);
    }
    return route;
}

static void
print_counters(const struct fibrec_route *route)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_format(&s, "%s %s counters={", route->vrf, route->prefix);
    for (size_t i = 0; i < route->n_counters; i++) {
        ds_put_format(&s, "%s%s=%"PRId64, i ? "," : "",
                      route->key_counters[i], route->value_counters[i]);
    }
    ds_put_char(&s, '}');
    puts(ds_cstr(&s));
    ds_destroy(&s);
}

static void
print_route(const struct fibrec_route *route)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_format(&s, "%s %s %s", route->vrf, route->prefix,
                  route->protocol);
    for (size_t i = 0; i < route->n_nexthops; i++) {
        ds_put_format(&s, "%s%s", i ? "," : " via ",
                      route->key_nexthops[i]);
    }
    puts(ds_cstr(&s));
    ds_destroy(&s);
}

/* Returns an OVSDB map of strings to integers parsed from "K=N,K=N", or an
 * empty map for "-". */
static struct json *
parse_map(const char *s)
{
    struct json *pairs = json_array_create_empty();

    if (strcmp(s, "-")) {
        char *copy = xstrdup(s), *save = NULL;

        for (char *tok = strtok_r(copy, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save)) {
            char *eq = strrchr(tok, '=');

            if (!eq) {
                usage_error("bad map");
            }
            *eq = '\0';
            json_array_add(pairs, json_array_create_2(
                               json_string_create(tok),
                               json_integer_create(atoll(eq + 1))));
        }
        free(copy);
    }
    return json_array_create_2(json_string_create("map"), pairs);
}

/* Returns the where clause selecting route ('vrf', 'prefix'). */
static struct json *
where_route(const char *vrf, const char *prefix)
{
    return json_array_create_2(
        json_array_create_3(json_string_create("vrf"),
                            json_string_create("=="),
                            json_string_create(vrf)),
        json_array_create_3(json_string_create("prefix"),
                            json_string_create("=="),
                            json_string_create(prefix)));
}

/* Runs the operations in JSON array 'ops' on the server, in one
 * transaction, on a new connection; returns false if it failed. */
static bool
transact_ops(struct ctx *ctx, struct json *ops)
{
    struct json *params = json_array_create_empty();
    struct jsonrpc_msg *request, *reply;
    struct stream *stream;
    struct jsonrpc *rpc;
    bool ok = false;
    int error;

    json_array_add(params, json_string_create("Fibsync"));
    for (size_t i = 0; i < json_array(ops)->n; i++) {
        json_array_add(params, json_clone(json_array(ops)->elems[i]));
    }
    json_destroy(ops);

    error = stream_open_block(stream_open(ctx->remote, &stream,
                                          DSCP_DEFAULT), -1, &stream);
    if (error) {
        ovs_fatal(error, "%s: connect failed", ctx->remote);
    }
    rpc = jsonrpc_open(stream);
    request = jsonrpc_create_request("transact", params, NULL);
    error = jsonrpc_transact_block(rpc, request, &reply);
    if (error) {
        ovs_fatal(error, "%s: transaction failed", ctx->remote);
    }
    if (reply->type == JSONRPC_REPLY && reply->result->type == JSON_ARRAY) {
        const struct json_array *results = json_array(reply->result);

        ok = true;
        for (size_t i = 0; i < results->n; i++) {
            ok = ok && results->elems[i]->type == JSON_OBJECT
                 && !shash_find(json_object(results->elems[i]), "error");
        }
    }
    if (!ok) {
        char *s = jsonrpc_msg_to_string(reply);
        fprintf(stderr, "transaction failed: %s\n", s);
        free(s);
    }
    jsonrpc_msg_destroy(reply);
    jsonrpc_close(rpc);
    return ok;
}

/* Runs the single operation 'op' like transact_ops(). */
static bool
transact(struct ctx *ctx, struct json *op)
{
    struct json *ops = json_array_create_empty();

    json_array_add(ops, op);
    return transact_ops(ctx, ops);
}

/* Returns the number of arguments step 'name' takes, -1 if unknown.  Steps
 * with optional arguments are handled by the caller. */
static int
step_n_args(const char *name)
{
    static const struct {
        const char *name;
        int n;
    } steps[] = {
        { "fetch-row", 2 }, { "fetch-col", 0 }, { "fetch-table", 0 },
        { "flush", 0 }, { "wait", 0 }, { "sh", 1 }, { "sync", 0 },
        { "sync-gone", 2 }, { "sync-present", 2 }, { "sync-count", 1 },
        { "wait-reconnect", 0 }, { "insert", 4 }, { "update", 4 },
        { "delete", 2 }, { "insert-many", 1 }, { "fetch-rows", 0 },
        { "counters-sum", 0 },
        { "find", 2 }, { "lpm", 2 }, { "walk-all", 0 }, { "walk-vrf", 1 },
        { "walk-longer", 2 }, { "walk-proto", 2 }, { "walk-nh", 1 },
    };

    for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
        if (!strcmp(steps[i].name, name)) {
            return steps[i].n;
        }
    }
    return -1;
}

/* Runs one step, 'argv[0]' with 'argc - 1' arguments.  Returns false if it
 * failed. */
static bool
do_step(struct ctx *ctx, int argc, char *argv[])
{
    const char *cmd = argv[0];
    struct route_index_cursor cursor;
    const struct fibrec_route *route;

    ctx->deadline = time_msec() + 20000;
    if (!strcmp(cmd, "fetch-row")) {
        fibrec_route_fetch_counters(ctx->idl,
                                    need_route(ctx, argv[1], argv[2]));
    } else if (!strcmp(cmd, "fetch-col")) {
        fibrec_route_fetch_col_counters(ctx->idl);
    } else if (!strcmp(cmd, "fetch-table")) {
        fibrec_route_fetch_table(ctx->idl);
    } else if (!strcmp(cmd, "flush")) {
        /* Until connected: the run that sees the connection sends, and
         * does not look for replies after sending. */
        idl_ondemand_run(ctx->idl);
        while (!idl_ondemand_is_connected(ctx->idl)) {
            run_both_and_block(ctx);
        }
    } else if (!strcmp(cmd, "pending")) {
        struct ds s = DS_EMPTY_INITIALIZER;

        ds_put_cstr(&s, "pending:");
        if (argc == 3) {
            route = need_route(ctx, argv[1], argv[2]);
            ds_put_format(&s, " row=%d row-counters=%d",
                          fibrec_route_is_row_fetch_pending(route),
                          fibrec_route_is_row_counters_fetch_pending(route));
        }
        ds_put_format(&s, " column=%d table=%d total=%"PRIuSIZE,
                      fibrec_route_is_counters_fetch_pending(ctx->idl),
                      fibrec_route_is_table_fetch_pending(ctx->idl),
                      idl_ondemand_n_pending(ctx->idl));
        puts(ds_cstr(&s));
        ds_destroy(&s);
    } else if (!strcmp(cmd, "wait")) {
        unsigned int seqno = idl_ondemand_get_seqno(ctx->idl);

        while (idl_ondemand_n_pending(ctx->idl)) {
            run_both_and_block(ctx);
        }
        printf("fetched, seqno %s\n",
               idl_ondemand_get_seqno(ctx->idl) != seqno
               ? "changed" : "unchanged");
    } else if (!strcmp(cmd, "counters")) {
        if (argc == 3) {
            print_counters(need_route(ctx, argv[1], argv[2]));
        } else {
            ROUTE_INDEX_FOR_EACH (route, &cursor, ctx->ri) {
                print_counters(route);
            }
        }
    } else if (!strcmp(cmd, "sh")) {
        int status;

        fflush(stdout);
        status = system(argv[1]);
        if (status) {
            fprintf(stderr, "\"%s\" failed (status %d)\n", argv[1], status);
            return false;
        }
    } else if (!strcmp(cmd, "insert")) {
        struct json *op = json_object_create();
        struct json *row = json_object_create();

        json_object_put_string(row, "vrf", argv[1]);
        json_object_put_string(row, "prefix", argv[2]);
        json_object_put_string(row, "protocol", argv[3]);
        json_object_put(row, "blackhole",
                        json_boolean_create(!strcmp(argv[4], "-")));
        json_object_put(row, "nexthops", parse_map(argv[4]));
        json_object_put_string(op, "op", "insert");
        json_object_put_string(op, "table", "Route");
        json_object_put(op, "row", row);
        return transact(ctx, op);
    } else if (!strcmp(cmd, "insert-many")) {
        struct json *ops = json_array_create_empty();
        int n = atoi(argv[1]);

        for (int i = 1; i <= n; i++) {
            struct json *op = json_object_create();
            struct json *row = json_object_create();
            char prefix[32], counters[32];

            snprintf(prefix, sizeof prefix, "10.%d.%d.0/24",
                     i / 256, i % 256);
            snprintf(counters, sizeof counters, "packets=%d", i);
            json_object_put_string(row, "vrf", "default");
            json_object_put_string(row, "prefix", prefix);
            json_object_put_string(row, "protocol", "bgp");
            json_object_put(row, "blackhole", json_boolean_create(true));
            json_object_put(row, "counters", parse_map(counters));
            json_object_put_string(op, "op", "insert");
            json_object_put_string(op, "table", "Route");
            json_object_put(op, "row", row);
            json_array_add(ops, op);
        }
        return transact_ops(ctx, ops);
    } else if (!strcmp(cmd, "fetch-rows")) {
        ROUTE_INDEX_FOR_EACH (route, &cursor, ctx->ri) {
            fibrec_route_fetch_counters(ctx->idl, route);
        }
    } else if (!strcmp(cmd, "counters-sum")) {
        size_t n = 0, with = 0;
        int64_t sum = 0;

        ROUTE_INDEX_FOR_EACH (route, &cursor, ctx->ri) {
            n++;
            with += route->n_counters > 0;
            for (size_t i = 0; i < route->n_counters; i++) {
                sum += route->value_counters[i];
            }
        }
        printf("routes=%"PRIuSIZE" with-counters=%"PRIuSIZE" sum=%"PRId64
               "\n", n, with, sum);
    } else if (!strcmp(cmd, "update") || !strcmp(cmd, "delete")) {
        struct json *op = json_object_create();

        json_object_put_string(op, "op", cmd);
        json_object_put_string(op, "table", "Route");
        json_object_put(op, "where", where_route(argv[1], argv[2]));
        if (!strcmp(cmd, "update")) {
            struct json *row = json_object_create();

            json_object_put(row, argv[3],
                            (!strcmp(argv[3], "protocol")
                             ? json_string_create(argv[4])
                             : parse_map(argv[4])));
            json_object_put(op, "row", row);
        }
        return transact(ctx, op);
    } else if (!strcmp(cmd, "sync")) {
        unsigned int seqno = ovsdb_idl_get_seqno(ctx->idl);

        while (ovsdb_idl_get_seqno(ctx->idl) == seqno) {
            run_idl_and_block(ctx);
        }
    } else if (!strcmp(cmd, "sync-gone")) {
        while (find_route(ctx, argv[1], argv[2])) {
            run_idl_and_block(ctx);
        }
    } else if (!strcmp(cmd, "sync-present")) {
        while (!find_route(ctx, argv[1], argv[2])) {
            run_idl_and_block(ctx);
        }
    } else if (!strcmp(cmd, "sync-count")) {
        size_t n = atoi(argv[1]);

        while (route_index_count(ctx->ri) != n) {
            run_idl_and_block(ctx);
        }
    } else if (!strcmp(cmd, "wait-reconnect")) {
        unsigned int conn_seqno = idl_ondemand_get_conn_seqno(ctx->idl);
        unsigned int idl_seqno = ovsdb_idl_get_seqno(ctx->idl);

        /* Until both sessions have reconnected and the IDL has had the
         * reply to its new monitor request (which moves its seqno). */
        while (idl_ondemand_get_conn_seqno(ctx->idl) == conn_seqno
               || !idl_ondemand_is_connected(ctx->idl)
               || ovsdb_idl_get_seqno(ctx->idl) == idl_seqno
               || !ovsdb_idl_is_connected(ctx->idl)) {
            run_both_and_block(ctx);
        }
    } else if (!strcmp(cmd, "find")) {
        route = find_route(ctx, argv[1], argv[2]);
        if (route) {
            print_route(route);
        } else {
            puts("not found");
        }
    } else if (!strcmp(cmd, "lpm")) {
        struct fib_prefix addr;
        char *error = fib_prefix_parse_addr(argv[2], &addr);

        if (error) {
            ovs_fatal(0, "%s", error);
        }
        route = route_index_lpm(ctx->ri, argv[1], &addr);
        if (route) {
            print_route(route);
        } else {
            puts("no match");
        }
    } else if (!strcmp(cmd, "walk-all")) {
        ROUTE_INDEX_FOR_EACH (route, &cursor, ctx->ri) {
            print_route(route);
        }
    } else if (!strcmp(cmd, "walk-vrf")) {
        ROUTE_INDEX_FOR_EACH_VRF (route, &cursor, ctx->ri, argv[1]) {
            print_route(route);
        }
    } else if (!strcmp(cmd, "walk-longer")) {
        struct fib_prefix p;
        char *error = fib_prefix_parse(argv[2], &p);

        if (error) {
            ovs_fatal(0, "%s", error);
        }
        ROUTE_INDEX_FOR_EACH_LONGER (route, &cursor, ctx->ri, argv[1], &p) {
            print_route(route);
        }
    } else if (!strcmp(cmd, "walk-proto")) {
        const char *vrf = strcmp(argv[2], "-") ? argv[2] : NULL;

        ROUTE_INDEX_FOR_EACH_PROTOCOL (route, &cursor, ctx->ri, argv[1],
                                       vrf) {
            print_route(route);
        }
    } else if (!strcmp(cmd, "walk-nh")) {
        ROUTE_INDEX_FOR_EACH_NEXTHOP (route, &cursor, ctx->ri, argv[1]) {
            print_route(route);
        }
    } else {
        usage_error("unknown step");
    }
    fflush(stdout);
    return true;
}

int
main(int argc, char *argv[])
{
    struct ctx ctx;
    int rc = 0;

    set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_CONSOLE,
                    getenv("TEST_IDL_DEBUG") ? VLL_DBG : VLL_WARN);
    if (argc < 2) {
        usage_error("missing REMOTE");
    }

    ctx.remote = argv[1];
    ctx.idl = ovsdb_idl_create(argv[1], &fibrec_idl_class, true, true);
    ovsdb_idl_set_probe_interval(ctx.idl, 0);
    fibrec_ondemand_init(ctx.idl, argv[1]);
    ctx.ri = route_index_create(ctx.idl);

    ctx.deadline = time_msec() + 20000;
    ovsdb_idl_run(ctx.idl);
    while (!ovsdb_idl_has_ever_connected(ctx.idl)) {
        if (!ovsdb_idl_is_alive(ctx.idl)) {
            ovs_fatal(0, "%s: cannot connect (%s)", argv[1],
                      ovs_strerror(ovsdb_idl_get_last_error(ctx.idl)));
        }
        run_idl_and_block(&ctx);
    }

    for (int i = 2; i < argc; ) {
        int n = step_n_args(argv[i]);

        if (!strcmp(argv[i], "pending") || !strcmp(argv[i], "counters")) {
            /* Zero or two arguments: two if the next word is not a step. */
            n = (i + 2 < argc && step_n_args(argv[i + 1]) < 0
                 && strcmp(argv[i + 1], "pending")
                 && strcmp(argv[i + 1], "counters")) ? 2 : 0;
        } else if (n < 0) {
            usage_error("unknown step");
        }
        if (i + n >= argc) {
            usage_error("missing step argument");
        }
        if (!do_step(&ctx, n + 1, &argv[i])) {
            rc = 1;
            break;
        }
        i += n + 1;
    }

    fibrec_ondemand_destroy(ctx.idl);
    ovsdb_idl_destroy(ctx.idl);
    route_index_destroy(ctx.ri);
    return rc;
}
