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

/* fibsync-bench dump: in-process benchmark of route/dump.
 *
 * Fills an orchd read cache (daemons/orchd/orchd-cache.c: the programmed
 * entries of a bulker, seeded here as settled) with N unique IPv4
 * routes (default 1,000,000; lengths 8 to 32, most of them /24; one next
 * hop, or two for one route in ten), created in random prefix order so
 * that the sorted walk jumps around memory as it does in orchd.  Then,
 * each run times the three steps of "ovs-appctl route/dump":
 *
 *   - text:  orchd_cache_format(): the snapshot of the cache (references
 *            taken under its lock), the sort by (vrf, prefix), one line a
 *            route: orchd's work before it replies;
 *   - reply: the text as a JSON string serialized into a JSON-RPC reply,
 *            as unixctl_command_reply() does in orchd;
 *   - parse: that reply parsed back, as ovs-appctl does.
 *
 * The socket transfer and ovs-appctl's printing are not included (see
 * utilities/bench-fibctl.sh for the whole command).  "cpu" is the share of
 * the wall-clock time the thread actually ran.  Each run is printed, then
 * the median of each figure. */

#include <config.h>

#include "utilities/bench-dump.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-cache.h"
#include "daemons/orchd/orchd-entry.h"
#include "jsonrpc.h"
#include "lib/fib-prefix.h"
#include "lib/option-parse.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "ovs-thread.h"
#include "random.h"
#include "util.h"
#include "utilities/bench-util.h"

/* Figures of one run, in seconds. */
struct dump_result {
    double text;                /* orchd_cache_format(). */
    double reply;               /* JSON-RPC reply serialization. */
    double parse;               /* The client's parse of the reply. */
    double total;               /* Sum of the three. */
    double cpu_share;           /* CPU time / wall time of the three. */
    size_t bytes;               /* Size of the text. */
};

/* Returns a prefix length with a BGP-table-like mix: mostly /24. */
static unsigned int
random_len(void)
{
    uint32_t r = random_uint32() % 100;

    return r < 55 ? 24 : r < 75 ? 16 + r % 8 : r < 95 ? 25 + r % 8
           : 8 + r % 8;
}

/* orchd_bulker_cbs 'send': the bench sends nothing. */
static void
no_send(void *aux OVS_UNUSED, struct orchd_bulk *bulk OVS_UNUSED)
{
}

/* orchd_bulker_cbs 'done': the bench acknowledges nothing. */
static void
no_done(void *aux OVS_UNUSED, const struct uuid *key OVS_UNUSED,
        const struct orchd_entry *entry OVS_UNUSED, bool ok OVS_UNUSED,
        const char *error OVS_UNUSED, uint8_t token OVS_UNUSED)
{
}

/* Fills 'cache', attached to 'bulker', with 'n' unique IPv4 routes in
 * random order, seeded into the bulker as programmed (as orchd does with
 * what the database holds at start). */
static void
fill_cache(struct orchd_cache *cache, struct orchd_bulker *bulker, size_t n)
{
    static const char *nexthops[] = {
        "192.168.1.11@ifb0", "192.168.1.12@ifb0", "192.168.1.13@ifb1",
        "192.168.1.14@ifb1", "192.168.1.15@ifb2", "192.168.1.16@ifb2",
    };

    while (orchd_cache_count(cache) < n) {
        struct fib_prefix p;
        const char *keys[2];
        int64_t weights[2] = { 1, 2 };
        size_t n_nh = random_uint32() % 10 ? 1 : 2;
        uint32_t addr = random_uint32();
        unsigned int len = random_len();

        memset(&p, 0, sizeof p);
        p.family = AF_INET;
        p.len = len;
        addr &= len ? UINT32_MAX << (32 - len) : 0;
        p.addr[0] = addr >> 24;
        p.addr[1] = addr >> 16;
        p.addr[2] = addr >> 8;
        p.addr[3] = addr;
        keys[0] = nexthops[random_uint32() % ARRAY_SIZE(nexthops)];
        keys[1] = nexthops[random_uint32() % ARRAY_SIZE(nexthops)];
        if (n_nh == 2 && !strcmp(keys[0], keys[1])) {
            n_nh = 1;
        }
        /* A duplicate prefix replaces the entry: the count stays. */
        orchd_bulker_seed(bulker, orchd_entry_create(bench_entry_space(), "default", &p,
                                                     ORCHD_ACTION_FORWARD,
                                                     keys, weights, n_nh),
                          true);
    }
}

static void
run_once(struct orchd_cache *cache, struct dump_result *r)
{
    struct ds text = DS_EMPTY_INITIALIZER;
    struct ds reply = DS_EMPTY_INITIALIZER;
    struct jsonrpc_msg *msg;
    struct json *j, *parsed, *id;
    double w0, w1, w2, w3, c0;
    char *error;

    c0 = bench_thread_cpu_s();
    w0 = bench_wall_s();
    orchd_cache_format(cache, &text);
    w1 = bench_wall_s();

    /* As unixctl_command_reply() and jsonrpc_send() do. */
    r->bytes = text.length;
    /* jsonrpc_create_reply() clones the id it is given: ours is freed
     * here (LeakSanitizer found it lost in every run). */
    id = json_integer_create(1);
    msg = jsonrpc_create_reply(json_string_create(ds_cstr(&text)), id);
    json_destroy(id);
    j = jsonrpc_msg_to_json(msg);
    json_to_ds(j, 0, &reply);
    w2 = bench_wall_s();

    /* As ovs-appctl's jsonrpc_recv() does. */
    parsed = json_from_string(ds_cstr(&reply));
    error = jsonrpc_msg_from_json(parsed, &msg);
    w3 = bench_wall_s();
    if (error || msg->type != JSONRPC_REPLY
        || msg->result->type != JSON_STRING
        || strcmp(json_string(msg->result), ds_cstr(&text))) {
        ovs_fatal(0, "the reply did not parse back into the same text%s%s",
                  error ? ": " : "", error ? error : "");
    }

    r->text = w1 - w0;
    r->reply = w2 - w1;
    r->parse = w3 - w2;
    r->total = w3 - w0;
    r->cpu_share = (bench_thread_cpu_s() - c0) / r->total;
    jsonrpc_msg_destroy(msg);
    json_destroy(j);
    ds_destroy(&reply);
    ds_destroy(&text);
}

static void
print_result(const char *label, const struct dump_result *r)
{
    printf("%-7s text %6.1f ms  reply %6.1f ms  parse %6.1f ms  "
           "total %6.1f ms  (%.1f MB, cpu %3.0f%%)\n",
           label, r->text * 1e3, r->reply * 1e3, r->parse * 1e3,
           r->total * 1e3, r->bytes / 1e6, r->cpu_share * 100);
}

static void
usage(void)
{
    printf("usage: fibsync-bench dump [OPTIONS]\n"
           "Benchmarks orchd's route/dump (read cache to text to JSON-RPC "
           "and back)\nin process.\n"
           "  --routes N   IPv4 routes in the cache (default 1000000)\n"
           "  --runs R     runs; the median is printed (default 5)\n"
           "  --seed S     seed of the routes (default 1)\n");
}

/* Entry point of "fibsync-bench dump".  See bench-dump.h. */
int
bench_dump_main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        { "routes", required_argument, NULL, 'n' },
        { "runs", required_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 'S' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    size_t n_routes = 1000000, n_runs = 5;
    uint32_t seed = 1;
    static const struct orchd_bulker_config bulker_cfg = {
        .max_bulk = 1, .max_outstanding = 1,
    };
    static const struct orchd_bulker_cbs bulker_cbs = {
        .send = no_send, .done = no_done,
    };
    struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;
    struct dump_result *results, med;
    struct orchd_bulker *bulker;
    struct orchd_cache *cache;

    optind = 1;
    for (;;) {
        int c = getopt_long(argc, argv, "", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'n':
            n_routes = option_parse_uint("routes", optarg, 1, 50000000);
            break;
        case 'r':
            n_runs = option_parse_uint("runs", optarg, 1, 1000);
            break;
        case 'S':
            seed = option_parse_uint("seed", optarg, 0, UINT32_MAX);
            break;
        case 'h':
            usage();
            return 0;
        default:
            return 1;
        }
    }
    if (optind < argc) {
        ovs_fatal(0, "unexpected argument \"%s\" (see --help)", argv[optind]);
    }

    random_set_seed(seed);
    bulker = orchd_bulker_create(&bulker_cfg, &bulker_cbs, NULL);
    cache = orchd_cache_create(0);
    orchd_cache_attach(cache, bulker, &mutex);
    fill_cache(cache, bulker, n_routes);
    printf("routes %"PRIuSIZE", runs %"PRIuSIZE", seed %"PRIu32"\n",
           n_routes, n_runs, seed);

    results = xcalloc(n_runs, sizeof *results);
    for (size_t i = 0; i < n_runs; i++) {
        char label[32];

        run_once(cache, &results[i]);
        snprintf(label, sizeof label, "run %"PRIuSIZE, i + 1);
        print_result(label, &results[i]);
    }

    med.text = BENCH_MEDIAN_OF(results, n_runs, text);
    med.reply = BENCH_MEDIAN_OF(results, n_runs, reply);
    med.parse = BENCH_MEDIAN_OF(results, n_runs, parse);
    med.total = BENCH_MEDIAN_OF(results, n_runs, total);
    med.cpu_share = BENCH_MEDIAN_OF(results, n_runs, cpu_share);
    med.bytes = results[0].bytes;
    print_result("median", &med);

    free(results);
    orchd_cache_destroy(cache);
    orchd_bulker_destroy(bulker);
    ovs_mutex_destroy(&mutex);
    return 0;
}
