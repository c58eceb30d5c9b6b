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
 * test-idl-route: drives the generated Fibsync C IDL for the autotest
 * suite, one operation per run, like OVS's tests/test-ovsdb.
 *
 * usage: test-idl-route REMOTE COMMAND [ARG...]
 *
 *   insert VRF PREFIX PROTOCOL [NEXTHOP=WEIGHT...]
 *                           inserts a Route; prints the commit status
 *   list                    prints every Route, sorted by (vrf, prefix)
 *   setkey VRF PREFIX KEY VALUE
 *                           sets one key of Route.status (partial mutate)
 *   delkey VRF PREFIX KEY   deletes one key of Route.status
 *   delete VRF PREFIX       deletes a Route
 *
 * Exits 0 if the transaction committed (or the list was printed), 1 if the
 * server refused it, 2 on a usage error.
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idl/fibsync-idl.h"
#include "openvswitch/dynamic-string.h"
#include "ovsdb-idl.h"
#include "openvswitch/poll-loop.h"
#include "smap.h"
#include "util.h"
#include "openvswitch/vlog.h"

/* Connects to 'remote' and returns the IDL once its replica holds the
 * database's current contents. */
static struct ovsdb_idl *
connect_and_sync(const char *remote)
{
    struct ovsdb_idl *idl = ovsdb_idl_create(remote, &fibrec_idl_class,
                                             true, true);

    ovsdb_idl_set_probe_interval(idl, 0);
    for (;;) {
        ovsdb_idl_run(idl);
        if (ovsdb_idl_has_ever_connected(idl)) {
            break;
        }
        if (!ovsdb_idl_is_alive(idl)) {
            ovs_fatal(0, "%s: cannot connect (%s)", remote,
                      ovs_strerror(ovsdb_idl_get_last_error(idl)));
        }
        ovsdb_idl_wait(idl);
        poll_block();
    }
    return idl;
}

/* Returns the Route (vrf, prefix), or NULL.  A scan is fine here: the test
 * databases hold a handful of rows. */
static const struct fibrec_route *
find_route(struct ovsdb_idl *idl, const char *vrf, const char *prefix)
{
    const struct fibrec_route *route;

    FIBREC_ROUTE_FOR_EACH (route, idl) {
        if (!strcmp(route->vrf, vrf) && !strcmp(route->prefix, prefix)) {
            return route;
        }
    }
    return NULL;
}

/* Commits 'txn', printing its status; returns the process exit code. */
static int
commit(struct ovsdb_idl_txn *txn)
{
    enum ovsdb_idl_txn_status status = ovsdb_idl_txn_commit_block(txn);
    int rc = 0;

    printf("%s", ovsdb_idl_txn_status_to_string(status));
    if (status != TXN_SUCCESS && status != TXN_UNCHANGED) {
        printf(": %s", ovsdb_idl_txn_get_error(txn));
        rc = 1;
    }
    putchar('\n');
    ovsdb_idl_txn_destroy(txn);
    return rc;
}

static int
cmp_route(const void *a_, const void *b_)
{
    const struct fibrec_route *const *a = a_;
    const struct fibrec_route *const *b = b_;
    int c = strcmp((*a)->vrf, (*b)->vrf);

    return c ? c : strcmp((*a)->prefix, (*b)->prefix);
}

/* Prints every route, one line each, in a stable order. */
static int
do_list(struct ovsdb_idl *idl)
{
    const struct fibrec_route **routes = NULL;
    const struct fibrec_route *route;
    size_t n = 0, allocated = 0;

    FIBREC_ROUTE_FOR_EACH (route, idl) {
        if (n >= allocated) {
            routes = x2nrealloc(routes, &allocated, sizeof *routes);
        }
        routes[n++] = route;
    }
    if (n) {
        qsort(routes, n, sizeof *routes, cmp_route);
    }
    for (size_t i = 0; i < n; i++) {
        struct ds s = DS_EMPTY_INITIALIZER;

        route = routes[i];
        ds_put_format(&s, "vrf=%s prefix=%s protocol=%s nexthops={",
                      route->vrf, route->prefix, route->protocol);
        for (size_t j = 0; j < route->n_nexthops; j++) {
            ds_put_format(&s, "%s%s=%"PRId64, j ? "," : "",
                          route->key_nexthops[j],
                          route->value_nexthops[j]);
        }
        ds_put_cstr(&s, "} status={");
        const struct smap_node **nodes = smap_sort(&route->status);
        for (size_t j = 0; j < smap_count(&route->status); j++) {
            ds_put_format(&s, "%s%s=%s", j ? "," : "",
                          nodes[j]->key, nodes[j]->value);
        }
        free(nodes);
        ds_put_char(&s, '}');
        puts(ds_cstr(&s));
        ds_destroy(&s);
    }
    free(routes);
    return 0;
}

static void
usage_error(void)
{
    fprintf(stderr, "usage: test-idl-route REMOTE insert|list|setkey|"
            "delkey|delete ARG... (see the source)\n");
    exit(2);
}

int
main(int argc, char *argv[])
{
    struct ovsdb_idl_txn *txn;
    const struct fibrec_route *route;
    struct ovsdb_idl *idl;
    const char *cmd;
    int rc;

    set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_CONSOLE,
                    getenv("TEST_IDL_DEBUG") ? VLL_DBG : VLL_WARN);
    if (argc < 3) {
        usage_error();
    }
    cmd = argv[2];
    idl = connect_and_sync(argv[1]);

    if (!strcmp(cmd, "list")) {
        rc = do_list(idl);
    } else if (!strcmp(cmd, "insert") && argc >= 6) {
        txn = ovsdb_idl_txn_create(idl);
        route = fibrec_route_insert(txn);
        fibrec_route_set_vrf(route, argv[3]);
        fibrec_route_set_prefix(route, argv[4]);
        fibrec_route_set_protocol(route, argv[5]);
        /* A new row gets its whole nexthops map at once; partial map
         * updates are for rows that already exist. */
        size_t n_nh = argc - 6;
        char **keys = xcalloc(n_nh + 1, sizeof *keys);
        int64_t *weights = xcalloc(n_nh + 1, sizeof *weights);
        for (size_t i = 0; i < n_nh; i++) {
            char *eq;

            keys[i] = xstrdup(argv[i + 6]);
            eq = strrchr(keys[i], '=');
            if (!eq) {
                usage_error();
            }
            *eq = '\0';
            weights[i] = atoll(eq + 1);
        }
        fibrec_route_set_nexthops(route, (const char **) keys, weights,
                                  n_nh);
        for (size_t i = 0; i < n_nh; i++) {
            free(keys[i]);
        }
        free(keys);
        free(weights);
        rc = commit(txn);
    } else if ((!strcmp(cmd, "setkey") && argc == 7)
               || (!strcmp(cmd, "delkey") && argc == 6)
               || (!strcmp(cmd, "delete") && argc == 5)) {
        route = find_route(idl, argv[3], argv[4]);
        if (!route) {
            printf("no route %s %s\n", argv[3], argv[4]);
            rc = 1;
        } else {
            txn = ovsdb_idl_txn_create(idl);
            if (!strcmp(cmd, "setkey")) {
                fibrec_route_update_status_setkey(route, argv[5], argv[6]);
            } else if (!strcmp(cmd, "delkey")) {
                fibrec_route_update_status_delkey(route, argv[5]);
            } else {
                fibrec_route_delete(route);
            }
            rc = commit(txn);
        }
    } else {
        usage_error();
    }
    ovsdb_idl_destroy(idl);
    return rc;
}
