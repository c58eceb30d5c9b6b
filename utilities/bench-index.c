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

/* fibsync-bench index: the route index in an IDL replica.
 *
 * usage: fibsync-bench index --db REMOTE [--load] [--routes N] [--runs R]
 *                            [--queries Q] [--modes LIST] [--seed S]
 *
 * The route set is N unique routes (default 1,000,000) generated from a
 * seed: 90% IPv4 with a BGP-like length mix (60% /24, most of the rest /16
 * to /23), 10% IPv6 (mostly /48 and /32 to /44), 1% of them in VRF
 * "blue", the rest in "default"; protocol bgp (90%), ospf or static; one
 * or two next hops out of 16.
 *
 * --load inserts them into the (empty) database at REMOTE first, in
 * 5,000-row transactions with up to 4 in flight, and reports the rate.
 *
 * Then, for each mode of LIST (default "replica,binary,text") and each run,
 * a fresh child process connects an IDL (Route.counters on demand, as
 * orchd and fibctl have it) and measures:
 *
 *   - replica: the time until the replica holds the N routes, and the
 *     growth of the process's RSS, per route; no index;
 *   - fetch: the same, then the time to fetch Route.counters (on
 *     demand) for every row, at column level, and then for 1,000 rows at
 *     row level;
 *   - binary, text: the same with a route index (comparators on the binary
 *     prefix kept in each row, or fib_prefix_compare_text() in every
 *     comparison), and then: Q exact lookups of existing routes in random
 *     order; Q longest-prefix matches of addresses (75% inside a random
 *     route, 25% uniform), both probing only the lengths that exist
 *     (route_index_lpm()) and probing every length; an ordered walk of
 *     every route, of VRF "default", and of the routes of one next hop.
 *
 * Queries are built before the clock starts.  Each run is printed, then
 * the median of each figure over the runs.  Memory is RSS (the allocator
 * is jemalloc, as for every fibsync program), so it includes allocator
 * overhead; the index's cost is the difference between the "binary" and
 * "replica" modes. */

#include <config.h>

#include "utilities/bench-index.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jemalloc/jemalloc.h>

#include "idl/fibsync-idl.h"
#include "idl/fibsync-ondemand.h"
#include "idl/idl-ondemand.h"
#include "idl/route-index.h"
#include "jsonrpc.h"
#include "lib/fib-prefix.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/util.h"
#include "openvswitch/vlog.h"
#include "ovsdb-idl.h"
#include "random.h"
#include "socket-util.h"
#include "stream.h"
#include "util.h"
#include "utilities/bench-util.h"

/* Next hops that routes use. */
#define BENCH_N_NEXTHOPS 16

/* One generated route. */
struct bench_route {
    struct fib_prefix prefix;   /* Its prefix. */
    uint8_t protocol;           /* Index in 'bench_protocols'. */
    uint8_t nh[2];              /* Next hops, indexes in 'bench_nexthops'. */
    uint8_t n_nh;               /* 1 or 2. */
    bool blue;                  /* VRF "blue" instead of "default". */
};

static const char *const bench_protocols[] = { "bgp", "ospf", "static" };
static char *bench_nexthops[BENCH_N_NEXTHOPS];

/* Options. */
struct bench_opts {
    const char *db;             /* --db. */
    size_t n_routes;            /* --routes. */
    int n_runs;                 /* --runs. */
    size_t n_queries;           /* --queries. */
    bool load;                  /* --load. */
    char *modes;                /* --modes. */
    uint32_t seed;              /* --seed. */
};

/* The measurements of one run (a figure that a mode does not measure is
 * left at 0). */
struct bench_result {
    double build_s;             /* Time to replicate N routes. */
    double build_cpu_s;         /* CPU time (user + system) meanwhile. */
    double peak_mb;             /* Peak RSS growth, MB. */
    double rss_mb;              /* RSS growth, dirty pages purged, MB. */
    double heap_mb;             /* Growth of jemalloc's allocated bytes. */
    double bytes_per_route;     /* RSS growth per route. */
    double exact_us;            /* Exact lookup, us. */
    double lpm_us;              /* LPM, lengths that exist, us. */
    double lpm_all_us;          /* LPM, every length, us. */
    double walk_s;              /* Walk of every route. */
    double walk_vrf_s;          /* Walk of VRF "default". */
    double walk_nh_s;           /* Walk of next hop 0's routes. */
    double lpm_hit_pct;         /* LPM queries that found a route, %. */
    double nh_routes;           /* Routes of next hop 0. */
    double n_routes;            /* N. */
    double fetch_col_s;         /* "fetch": column fetch of N rows. */
    double fetch_rows_ms;       /* "fetch": 1,000 row fetches. */
};

/* Returns this process's resident set size in bytes. */
static double
rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size, resident;

    if (!f || fscanf(f, "%lu %lu", &size, &resident) != 2) {
        ovs_fatal(errno, "/proc/self/statm");
    }
    fclose(f);
    return (double) resident * sysconf(_SC_PAGESIZE);
}

/* Returns this process's CPU time (user and system), in seconds. */
static double
cpu_s(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
            + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
}

/* Returns this process's peak RSS (VmHWM), in bytes. */
static double
peak_rss_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[128];
    double kb = 0;

    if (!f) {
        ovs_fatal(errno, "/proc/self/status");
    }
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "VmHWM:", 6)) {
            kb = atof(line + 6);
        }
    }
    fclose(f);
    return kb * 1024;
}

/* Returns dirty pages that jemalloc keeps for reuse (here, mostly the
 * parsed monitor reply, freed once processed) to the kernel, so that RSS
 * shows what the replica holds. */
static void
purge_dirty_pages(void)
{
    mallctl("arena." OVS_STRINGIZE(MALLCTL_ARENAS_ALL) ".purge",
            NULL, NULL, NULL, 0);
}

/* Returns the bytes allocated in jemalloc's heap (live allocations). */
static double
heap_bytes(void)
{
    uint64_t epoch = 1;
    size_t allocated = 0;
    size_t sz = sizeof epoch;

    mallctl("epoch", &epoch, &sz, &epoch, sz);
    sz = sizeof allocated;
    mallctl("stats.allocated", &allocated, &sz, NULL, 0);
    return allocated;
}

/* Returns a random prefix length for an IPv4 route of a BGP-like table. */
static unsigned int
bench_v4_len(void)
{
    unsigned int r = random_range(100);

    return (r < 60 ? 24 : r < 70 ? 23 : r < 78 ? 22 : r < 84 ? 21
            : r < 89 ? 20 : r < 93 ? 19 : r < 96 ? 16 + random_range(3)
            : 8 + random_range(8));
}

/* Returns a random prefix length for an IPv6 route. */
static unsigned int
bench_v6_len(void)
{
    unsigned int r = random_range(100);

    return (r < 50 ? 48
            : r < 80 ? 32 + random_range(13)
            : 29 + random_range(36));
}

/* A set member, for deduplication. */
struct bench_seen {
    struct hmap_node node;      /* In a set, by fib_prefix_hash(). */
    const struct bench_route *route; /* The route. */
};

/* Generates 'n' unique routes from 'seed'. */
static struct bench_route *
bench_generate(size_t n, uint32_t seed)
{
    struct bench_route *routes = xcalloc(n, sizeof *routes);
    struct bench_seen *nodes = xcalloc(n, sizeof *nodes);
    struct hmap seen = HMAP_INITIALIZER(&seen);

    random_set_seed(seed);
    hmap_reserve(&seen, n);
    for (size_t i = 0; i < n; ) {
        struct bench_route *r = &routes[i];
        uint8_t addr[16];
        uint32_t hash;
        bool dup = false;

        random_bytes(addr, sizeof addr);
        if (random_range(10)) {
            /* Public unicast-looking space, 1.0.0.0 to 223.255.255.255. */
            addr[0] = 1 + random_range(223);
            fib_prefix_init(&r->prefix, AF_INET, addr, bench_v4_len());
        } else {
            addr[0] = 0x20;
            addr[1] = random_range(4);
            fib_prefix_init(&r->prefix, AF_INET6, addr, bench_v6_len());
        }
        r->blue = !random_range(100);
        hash = fib_prefix_hash(&r->prefix, r->blue);

        struct bench_seen *s;
        HMAP_FOR_EACH_WITH_HASH (s, node, hash, &seen) {
            if (s->route->blue == r->blue
                && fib_prefix_equals(&s->route->prefix, &r->prefix)) {
                dup = true;
                break;
            }
        }
        if (dup) {
            continue;
        }
        nodes[i].route = r;
        hmap_insert_fast(&seen, &nodes[i].node, hash);

        unsigned int p = random_range(100);
        r->protocol = p < 90 ? 0 : p < 95 ? 1 : 2;
        r->n_nh = 1 + !random_range(4);
        r->nh[0] = random_range(BENCH_N_NEXTHOPS);
        r->nh[1] = (r->nh[0] + 1 + random_range(BENCH_N_NEXTHOPS - 1))
                   % BENCH_N_NEXTHOPS;
        i++;
    }
    hmap_destroy(&seen);
    free(nodes);
    return routes;
}

/* Returns an insert operation for 'r'. */
static struct json *
bench_insert_op(const struct bench_route *r)
{
    struct json *row = json_object_create();
    struct json *op = json_object_create();
    struct json *pairs = json_array_create_empty();
    char buf[FIB_PREFIX_STRLEN];

    fib_prefix_format(&r->prefix, buf);
    json_object_put_string(row, "vrf", r->blue ? "blue" : "default");
    json_object_put_string(row, "prefix", buf);
    json_object_put_string(row, "protocol", bench_protocols[r->protocol]);
    json_object_put(row, "blackhole", json_boolean_create(false));
    for (size_t i = 0; i < r->n_nh; i++) {
        json_array_add(pairs, json_array_create_2(
                           json_string_create(bench_nexthops[r->nh[i]]),
                           json_integer_create(1)));
    }
    json_object_put(row, "nexthops", json_array_create_2(
                        json_string_create("map"), pairs));
    json_object_put_string(op, "op", "insert");
    json_object_put_string(op, "table", "Route");
    json_object_put(op, "row", row);
    return op;
}

/* Checks the reply to a transaction. */
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

/* Inserts 'routes' into the database at 'remote'. */
static void
bench_load(const char *remote, const struct bench_route *routes, size_t n)
{
    const size_t batch = 5000;
    const int max_in_flight = 4;
    struct stream *stream;
    struct jsonrpc *rpc;
    int in_flight = 0;
    double start = bench_wall_s();
    int error;

    error = stream_open_block(stream_open(remote, &stream, DSCP_DEFAULT),
                              -1, &stream);
    if (error) {
        ovs_fatal(error, "%s: connect failed", remote);
    }
    rpc = jsonrpc_open(stream);
    for (size_t i = 0; i < n || in_flight; ) {
        if (i < n && in_flight < max_in_flight) {
            struct json *params = json_array_create_empty();

            json_array_add(params, json_string_create("Fibsync"));
            for (size_t j = i; j < n && j < i + batch; j++) {
                json_array_add(params, bench_insert_op(&routes[j]));
            }
            i = MIN(n, i + batch);
            error = jsonrpc_send(rpc, jsonrpc_create_request("transact",
                                                             params, NULL));
            if (error) {
                ovs_fatal(error, "%s: send failed", remote);
            }
            in_flight++;
        } else {
            struct jsonrpc_msg *reply;

            error = jsonrpc_recv_block(rpc, &reply);
            if (error) {
                ovs_fatal(error, "%s: receive failed", remote);
            }
            bench_check_reply(reply);
            jsonrpc_msg_destroy(reply);
            in_flight--;
        }
    }
    jsonrpc_close(rpc);

    double elapsed = bench_wall_s() - start;
    printf("load: %"PRIuSIZE" routes in %.2f s, %.0f routes/s "
           "(%"PRIuSIZE"-row transactions, %d in flight)\n",
           n, elapsed, n / elapsed, batch, max_in_flight);
}

/* Modes. */
enum bench_mode {
    BENCH_REPLICA,              /* Replica, no index. */
    BENCH_BINARY,               /* Route index, binary comparators. */
    BENCH_TEXT,                 /* Route index, text comparators. */
    BENCH_FETCH,                /* Replica, then on-demand fetches. */
};

/* Returns a random host address: inside a random route 3 times in 4. */
static struct fib_prefix
bench_address(const struct bench_route *routes, size_t n, bool *blue)
{
    struct fib_prefix a;
    uint8_t bytes[16];

    random_bytes(bytes, sizeof bytes);
    if (random_range(4)) {
        const struct bench_route *r = &routes[random_range(n)];
        const struct fib_prefix *p = &r->prefix;

        for (unsigned int bit = 0; bit < p->len; bit++) {
            uint8_t mask = 0x80 >> (bit % 8);
            bytes[bit / 8] = (bytes[bit / 8] & ~mask) | (p->addr[bit / 8]
                                                         & mask);
        }
        fib_prefix_init(&a, p->family, bytes, fib_prefix_max_len(p->family));
        *blue = r->blue;
    } else {
        int family = random_range(10) ? AF_INET : AF_INET6;

        fib_prefix_init(&a, family, bytes, fib_prefix_max_len(family));
        *blue = false;
    }
    return a;
}

/* Runs 'idl' until no on-demand fetch is pending. */
static void
bench_fetch_wait(struct ovsdb_idl *idl)
{
    for (;;) {
        ovsdb_idl_run(idl);
        idl_ondemand_run(idl);
        if (!idl_ondemand_n_pending(idl)) {
            break;
        }
        ovsdb_idl_wait(idl);
        idl_ondemand_wait(idl);
        poll_block();
    }
}

/* Measures into 'res' fetching the on-demand counters of 'idl''s Route
 * rows: the whole column, then 1,000 rows one by one. */
static void
bench_fetch(struct ovsdb_idl *idl, struct bench_result *res)
{
    const struct fibrec_route *route;
    size_t i = 0;
    double t0;

    /* Every row's counters, then 1,000 rows' one by one (in one main
     * loop iteration, so one request), as "fibctl ... detail" would
     * for the rows it prints. */
    t0 = bench_wall_s();
    fibrec_route_fetch_col_counters(idl);
    bench_fetch_wait(idl);
    res->fetch_col_s = bench_wall_s() - t0;

    t0 = bench_wall_s();
    FIBREC_ROUTE_FOR_EACH (route, idl) {
        if (i++ >= 1000) {
            break;
        }
        fibrec_route_fetch_counters(idl, route);
    }
    bench_fetch_wait(idl);
    res->fetch_rows_ms = (bench_wall_s() - t0) * 1e3;
}

/* Measures into 'res' 'q' exact lookups in 'ri' of the routes of 'routes'
 * that 'exact' indexes, and 'q' longest-prefix matches of 'addrs' (in VRF
 * "blue" where 'addr_blue' says so, else "default"). */
static void
bench_lookups(struct route_index *ri, const struct bench_route *routes,
              const size_t *exact, const struct fib_prefix *addrs,
              const bool *addr_blue, size_t q, struct bench_result *res)
{
    size_t found = 0;
    double t0;

    t0 = bench_wall_s();
    for (size_t i = 0; i < q; i++) {
        const struct bench_route *r = &routes[exact[i]];
        found += route_index_find(ri, r->blue ? "blue" : "default",
                                  &r->prefix) != NULL;
    }
    res->exact_us = (bench_wall_s() - t0) * 1e6 / q;
    if (found != q) {
        ovs_fatal(0, "exact lookup found %"PRIuSIZE" of %"PRIuSIZE,
                  found, q);
    }

    found = 0;
    t0 = bench_wall_s();
    for (size_t i = 0; i < q; i++) {
        found += route_index_lpm(ri, addr_blue[i] ? "blue" : "default",
                                 &addrs[i]) != NULL;
    }
    res->lpm_us = (bench_wall_s() - t0) * 1e6 / q;
    res->lpm_hit_pct = 100.0 * found / q;

    size_t found_all = 0;
    t0 = bench_wall_s();
    for (size_t i = 0; i < q; i++) {
        found_all += route_index_lpm_all_lengths(
            ri, addr_blue[i] ? "blue" : "default", &addrs[i]) != NULL;
    }
    res->lpm_all_us = (bench_wall_s() - t0) * 1e6 / q;
    if (found_all != found) {
        ovs_fatal(0, "LPM mismatch: %"PRIuSIZE" vs %"PRIuSIZE,
                  found, found_all);
    }
}

/* Measures into 'res' walks of 'ri', which holds 'n' routes: all of them,
 * VRF "default", and the routes through one next hop. */
static void
bench_walks(struct route_index *ri, size_t n, struct bench_result *res)
{
    struct route_index_cursor cursor;
    const struct fibrec_route *route;
    size_t walked = 0;
    double t0;

    t0 = bench_wall_s();
    ROUTE_INDEX_FOR_EACH (route, &cursor, ri) {
        walked++;
    }
    res->walk_s = bench_wall_s() - t0;
    ovs_assert(walked == n);

    walked = 0;
    t0 = bench_wall_s();
    ROUTE_INDEX_FOR_EACH_VRF (route, &cursor, ri, "default") {
        walked++;
    }
    res->walk_vrf_s = bench_wall_s() - t0;

    walked = 0;
    t0 = bench_wall_s();
    ROUTE_INDEX_FOR_EACH_NEXTHOP (route, &cursor, ri,
                                  bench_nexthops[0]) {
        walked++;
    }
    res->walk_nh_s = bench_wall_s() - t0;
    res->nh_routes = walked;
}

/* Runs one measurement of 'mode' in this (child) process. */
static void
bench_run(const struct bench_opts *opts, enum bench_mode mode,
          struct bench_result *res)
{
    const size_t n = opts->n_routes, q = opts->n_queries;
    struct bench_route *routes = bench_generate(n, opts->seed);
    struct route_index *ri = NULL;
    struct ovsdb_idl *idl;
    double rss0, peak0, heap0, t0, cpu0;

    memset(res, 0, sizeof *res);
    res->n_routes = n;
    if (mode == BENCH_BINARY || mode == BENCH_TEXT) {
        route_index_init();
    }

    /* Queries, before the clock starts. */
    size_t *exact = xmalloc(q * sizeof *exact);
    struct fib_prefix *addrs = xmalloc(q * sizeof *addrs);
    bool *addr_blue = xmalloc(q * sizeof *addr_blue);
    random_set_seed(opts->seed + 1);
    for (size_t i = 0; i < q; i++) {
        exact[i] = random_range(n);
        addrs[i] = bench_address(routes, n, &addr_blue[i]);
    }

    purge_dirty_pages();
    rss0 = rss_bytes();
    peak0 = peak_rss_bytes();
    heap0 = heap_bytes();
    t0 = bench_wall_s();
    cpu0 = cpu_s();
    idl = ovsdb_idl_create(opts->db, &fibrec_idl_class, true, true);
    ovsdb_idl_set_probe_interval(idl, 0);
    fibrec_ondemand_init(idl, opts->db);
    if (mode == BENCH_BINARY || mode == BENCH_TEXT) {
        ri = route_index_create_cmp(idl, (mode == BENCH_TEXT
                                          ? ROUTE_INDEX_CMP_TEXT
                                          : ROUTE_INDEX_CMP_BINARY));
    }
    for (;;) {
        const struct fibrec_route *first;

        ovsdb_idl_run(idl);
        idl_ondemand_run(idl);
        first = fibrec_route_first(idl);
        if (first && hmap_count(&first->header_.table->rows) >= n) {
            break;
        }
        if (!ovsdb_idl_is_alive(idl)) {
            ovs_fatal(0, "%s: connection failed", opts->db);
        }
        ovsdb_idl_wait(idl);
        idl_ondemand_wait(idl);
        poll_block();
    }
    res->build_s = bench_wall_s() - t0;
    res->build_cpu_s = cpu_s() - cpu0;
    res->peak_mb = (peak_rss_bytes() - MAX(peak0, rss0)) / 1e6;
    purge_dirty_pages();
    res->rss_mb = (rss_bytes() - rss0) / 1e6;
    res->heap_mb = (heap_bytes() - heap0) / 1e6;
    res->bytes_per_route = res->rss_mb * 1e6 / n;

    if (mode == BENCH_FETCH) {
        bench_fetch(idl, res);
    }
    if (ri) {
        ovs_assert(route_index_count(ri) == n);
        bench_lookups(ri, routes, exact, addrs, addr_blue, q, res);
        bench_walks(ri, n, res);
    }

    free(exact);
    free(addrs);
    free(addr_blue);
    free(routes);
    /* The process exits right after: no need to free the replica. */
    (void) idl;
}

/* Runs bench_run() in a child process, so that each run starts with a
 * fresh heap and RSS, and returns its result. */
static void
bench_run_child(const struct bench_opts *opts, enum bench_mode mode,
                struct bench_result *res)
{
    int fds[2];
    pid_t pid;

    xpipe(fds);
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        ovs_fatal(errno, "fork");
    } else if (!pid) {
        struct bench_result r;

        close(fds[0]);
        bench_run(opts, mode, &r);
        if (write(fds[1], &r, sizeof r) != sizeof r) {
            _exit(1);
        }
        _exit(0);
    }
    close(fds[1]);
    if (read(fds[0], res, sizeof *res) != sizeof *res) {
        ovs_fatal(0, "benchmark child failed");
    }
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
}

static void
print_result(const char *mode, const char *label,
             const struct bench_result *r)
{
    printf("%-7s %-6s build %6.2f s (cpu %5.2f s)  rss %7.1f MB "
           "(%5.0f B/route, peak +%.0f MB, heap %.0f B/route)", mode, label,
           r->build_s, r->build_cpu_s, r->rss_mb, r->bytes_per_route,
           r->peak_mb, r->heap_mb * 1e6 / r->n_routes);
    if (r->fetch_col_s) {
        printf("  fetch column %.2f s, 1000 rows %.1f ms",
               r->fetch_col_s, r->fetch_rows_ms);
    }
    if (r->exact_us) {
        printf("  exact %5.2f us  lpm %5.2f us (all lengths %6.2f us, "
               "%.0f%% hit)  walk %5.3f s  vrf %5.3f s  nh %5.3f s "
               "(%.0f routes)",
               r->exact_us, r->lpm_us, r->lpm_all_us, r->lpm_hit_pct,
               r->walk_s, r->walk_vrf_s, r->walk_nh_s, r->nh_routes);
    }
    putchar('\n');
    fflush(stdout);
}

static void
usage(void)
{
    printf("usage: fibsync-bench index --db REMOTE [OPTIONS]\n"
           "  --db REMOTE          ovsdb-server with the Fibsync database\n"
           "  --load               insert the routes first (empty db)\n"
           "  --routes N           number of routes (default 1000000)\n"
           "  --runs R             runs per mode; the median is printed "
           "(default 5)\n"
           "  --queries Q          lookups per measurement (default "
           "200000)\n"
           "  --modes LIST         of replica,binary,text,fetch (default "
           "replica,binary,text)\n"
           "  --seed S             route set seed (default 1)\n");
}

/* The modes, by name. */
static const struct {
    const char *name;           /* Its name in --modes. */
    enum bench_mode mode;       /* The mode. */
} all_modes[] = {
    { "replica", BENCH_REPLICA },
    { "binary", BENCH_BINARY },
    { "text", BENCH_TEXT },
    { "fetch", BENCH_FETCH },
};

/* Runs mode 'mode', called 'name', 'opts->n_runs' times, each in a child
 * process, and prints each run's result and their median. */
static void
bench_mode_runs(const struct bench_opts *opts, const char *name,
                enum bench_mode mode)
{
    struct bench_result *runs = xcalloc(opts->n_runs, sizeof *runs);
    for (int r = 0; r < opts->n_runs; r++) {
        char label[16];

        bench_run_child(opts, mode, &runs[r]);
        snprintf(label, sizeof label, "run %d", r + 1);
        print_result(name, label, &runs[r]);
    }

    struct bench_result med;
    double *v = xmalloc(opts->n_runs * sizeof *v);
#define BENCH_MEDIAN(FIELD)                         \
    for (int r = 0; r < opts->n_runs; r++) {        \
        v[r] = runs[r].FIELD;                       \
    }                                               \
    med.FIELD = bench_median(v, opts->n_runs);
    BENCH_MEDIAN(build_s);
    BENCH_MEDIAN(build_cpu_s);
    BENCH_MEDIAN(peak_mb);
    BENCH_MEDIAN(rss_mb);
    BENCH_MEDIAN(bytes_per_route);
    BENCH_MEDIAN(heap_mb);
    BENCH_MEDIAN(n_routes);
    BENCH_MEDIAN(fetch_col_s);
    BENCH_MEDIAN(fetch_rows_ms);
    BENCH_MEDIAN(exact_us);
    BENCH_MEDIAN(lpm_us);
    BENCH_MEDIAN(lpm_all_us);
    BENCH_MEDIAN(walk_s);
    BENCH_MEDIAN(walk_vrf_s);
    BENCH_MEDIAN(walk_nh_s);
    BENCH_MEDIAN(lpm_hit_pct);
    BENCH_MEDIAN(nh_routes);
#undef BENCH_MEDIAN
    print_result(name, "median", &med);
    free(v);
    free(runs);
}

int
bench_index_main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        {"db", required_argument, NULL, 'd'},
        {"load", no_argument, NULL, 'l'},
        {"routes", required_argument, NULL, 'n'},
        {"runs", required_argument, NULL, 'r'},
        {"queries", required_argument, NULL, 'q'},
        {"modes", required_argument, NULL, 'm'},
        {"seed", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct bench_opts opts = {
        .n_routes = 1000000,
        .n_runs = 5,
        .n_queries = 200000,
        .seed = 1,
    };
    const char *modes = "replica,binary,text";

    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    optind = 1;
    for (;;) {
        int c = getopt_long(argc, argv, "", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case 'd':
            opts.db = optarg;
            break;
        case 'l':
            opts.load = true;
            break;
        case 'n':
            opts.n_routes = strtoul(optarg, NULL, 10);
            break;
        case 'r':
            opts.n_runs = atoi(optarg);
            break;
        case 'q':
            opts.n_queries = strtoul(optarg, NULL, 10);
            break;
        case 'm':
            modes = optarg;
            break;
        case 's':
            opts.seed = strtoul(optarg, NULL, 10);
            break;
        case 'h':
            usage();
            return 0;
        default:
            usage();
            return 2;
        }
    }
    if (!opts.db || !opts.n_routes || opts.n_runs < 1 || !opts.n_queries) {
        usage();
        return 2;
    }
    for (size_t i = 0; i < BENCH_N_NEXTHOPS; i++) {
        bench_nexthops[i] = xasprintf("10.255.%"PRIuSIZE".1@eth%"PRIuSIZE,
                                      i, i);
    }

    printf("routes %"PRIuSIZE", queries %"PRIuSIZE", runs %d, seed %"
           PRIu32", Route row %"PRIuSIZE" B + route index trailer %"
           PRIuSIZE" B\n", opts.n_routes, opts.n_queries, opts.n_runs,
           opts.seed, sizeof(struct fibrec_route),
           route_index_row_overhead());
    if (opts.load) {
        struct bench_route *routes = bench_generate(opts.n_routes,
                                                    opts.seed);
        bench_load(opts.db, routes, opts.n_routes);
        free(routes);
    }

    for (size_t m = 0; m < ARRAY_SIZE(all_modes); m++) {
        if (!strstr(modes, all_modes[m].name)) {
            continue;
        }
        bench_mode_runs(&opts, all_modes[m].name, all_modes[m].mode);
    }
    for (size_t i = 0; i < BENCH_N_NEXTHOPS; i++) {
        free(bench_nexthops[i]);
    }
    return 0;
}
