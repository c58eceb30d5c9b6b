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

/* fibsync-bench bulker: in-process benchmark of orchd's bulker.
 *
 * Each run creates a bulker configured as orchd runs it in async SAI mode
 * ("fibsync-bench run -c zmq"): bulks of up to 1,000 writes, 8
 * outstanding, unsorted.  It takes N
 * routes (default 1,000,000 IPv4 /24s, one next hop each, their entries
 * made before the clock starts) through three phases, each timed alone:
 *
 *   - add:    N new routes, handed over FPMD_ZMQ_FRAME_ROUTES at a time
 *             (a full ROUTES frame from fpmsyncd), each frame in groups of
 *             ROUTE_FRAME_GROUP_SIZE whose state lookups are prefetched in
 *             two passes (bucket, then chain) before they are set, as
 *             orchd's northbound does; after each frame the bulker builds
 *             its bulks, each is reported sent and its writes are
 *             acknowledged in groups with their prefetch stages, as
 *             orchd's southbound does with syncd's results;
 *   - update: the same N routes with another next hop;
 *   - delete: the same N routes deleted (a removal completes once its
 *             bulk is sent).
 *
 * It prints the nanoseconds of thread CPU time a route each phase cost,
 * each run and then the medians, and checks that every write was
 * acknowledged and that the bulker ends empty. */

#include <config.h>

#include "utilities/bench-bulker.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "daemons/fpmsyncd/fpmsyncd-zmq.h"
#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-entry.h"
#include "lib/fib-prefix.h"
#include "lib/option-parse.h"
#include "lib/route-frame.h"
#include "util.h"
#include "utilities/bench-util.h"

/* The bulks 'send' was given and not yet handled. */
struct bench_sent {
    struct orchd_bulk **bulks;  /* Bulks, in the order sent. */
    size_t n, allocated;        /* Their number, and room. */
    uint64_t n_done_ok;         /* Writes reported programmed. */
    uint64_t n_done_other;      /* Writes reported otherwise. */
};

/* Figures of one run: thread CPU nanoseconds a route. */
struct bulker_result {
    double add;                 /* Phase "add". */
    double update;              /* Phase "update". */
    double del;                 /* Phase "delete". */
};

/* orchd_bulker_cbs 'send': keeps 'bulk' for handle_sent(). */
static void
bench_send(void *sent_, struct orchd_bulk *bulk)
{
    struct bench_sent *sent = sent_;

    if (sent->n >= sent->allocated) {
        sent->bulks = x2nrealloc(sent->bulks, &sent->allocated,
                                 sizeof *sent->bulks);
    }
    sent->bulks[sent->n++] = bulk;
}

/* orchd_bulker_cbs 'done': counts the outcome. */
static void
bench_done(void *sent_, const struct uuid *key OVS_UNUSED,
           const struct orchd_entry *entry OVS_UNUSED, bool ok,
           const char *error OVS_UNUSED, uint8_t token OVS_UNUSED)
{
    struct bench_sent *sent = sent_;

    if (ok) {
        sent->n_done_ok++;
    } else {
        sent->n_done_other++;
    }
}

/* Reports each bulk sent so far as sent and acknowledges its writes as
 * programmed, a group at a time with their prefetch stages, as orchd's
 * southbound does with a RESULTS frame; repeats while the window let the
 * bulker build more. */
static void
handle_sent(struct orchd_bulker *b, struct bench_sent *sent)
{
    while (sent->n) {
        size_t n_bulks = sent->n;
        struct orchd_bulk **bulks = xmemdup(sent->bulks,
                                            n_bulks * sizeof *bulks);

        sent->n = 0;
        for (size_t i = 0; i < n_bulks; i++) {
            struct orchd_bulk *bulk = bulks[i];
            int64_t first = bulk->first_seq;
            size_t n = bulk->n_items;
            bool removals = n && bulk->items[0].op == ORCHD_BULK_REMOVE;

            orchd_bulker_sent(b, bulk, true);
            if (removals) {
                /* Completed, and the bulk freed, by the report. */
                continue;
            }
            for (size_t g = 0; g < n; g += ROUTE_FRAME_GROUP_SIZE) {
                size_t end = MIN(n, g + ROUTE_FRAME_GROUP_SIZE);

                for (int stage = 0; stage < 3; stage++) {
                    for (size_t j = g; j < end; j++) {
                        orchd_bulker_prefetch_result(b, first + j, stage);
                    }
                }
                for (size_t j = g; j < end; j++) {
                    struct orchd_bulk_item *item
                        = orchd_bulker_find_seq(b, first + j);

                    /* The last one frees the bulk. */
                    orchd_bulker_ack_write(b, item, true, NULL);
                }
            }
        }
        free(bulks);
        orchd_bulker_run(b);
    }
}

/* Hands 'n' routes over as the northbound does: frames of
 * FPMD_ZMQ_FRAME_ROUTES routes, each in prefetched groups, then the bulks.
 * Sets each of 'entries' (one reference each taken), or if 'entries' is
 * NULL deletes each of 'keys'. */
static void
hand_over(struct orchd_bulker *b, struct bench_sent *sent,
          struct orchd_entry **entries, const struct uuid *keys, size_t n)
{
    for (size_t f = 0; f < n; f += FPMD_ZMQ_FRAME_ROUTES) {
        size_t f_end = MIN(n, f + FPMD_ZMQ_FRAME_ROUTES);

        for (size_t g = f; g < f_end; g += ROUTE_FRAME_GROUP_SIZE) {
            size_t end = MIN(f_end, g + ROUTE_FRAME_GROUP_SIZE);

            for (int pass = 0; pass < 2; pass++) {
                for (size_t i = g; i < end; i++) {
                    orchd_bulker_prefetch(b, &keys[i], pass == 1);
                }
            }
            for (size_t i = g; i < end; i++) {
                if (entries) {
                    orchd_bulker_set(b, orchd_entry_ref(entries[i]));
                } else {
                    orchd_bulker_del(b, &keys[i]);
                }
            }
        }
        orchd_bulker_run(b);
        handle_sent(b, sent);
    }
}

/* Returns the entries of 'n' routes 10.0.0.0/24 upwards (a /24 each,
 * their order in the bulker's table set by their keys' hashes) via next
 * hop 'nh', and their keys in '*keysp' if 'keysp' is nonnull. */
static struct orchd_entry **
make_entries(size_t n, const char *nh, struct uuid **keysp)
{
    struct orchd_entry **v = xmalloc(n * sizeof *v);
    const char *keys[1] = { nh };
    int64_t weights[1] = { 1 };

    if (keysp) {
        *keysp = xmalloc(n * sizeof **keysp);
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t addr = (UINT32_C(10) << 24) + ((uint32_t) i << 8);
        struct fib_prefix p;

        memset(&p, 0, sizeof p);
        p.family = AF_INET;
        p.len = 24;
        p.addr[0] = addr >> 24;
        p.addr[1] = addr >> 16;
        p.addr[2] = addr >> 8;
        v[i] = orchd_entry_create(bench_entry_space(), "default", &p, ORCHD_ACTION_FORWARD,
                                  keys, weights, 1);
        if (keysp) {
            (*keysp)[i] = v[i]->asic_uuid;
        }
    }
    return v;
}

/* Drops the 'n' references of 'v' and frees it. */
static void
free_entries(struct orchd_entry **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        orchd_entry_unref(v[i]);
    }
    free(v);
}

/* Runs the three phases once over 'n' routes into '*r'. */
static void
run_once(size_t n, struct bulker_result *r)
{
    static const struct orchd_bulker_config cfg = {
        .max_bulk = ORCHD_BULKER_DEFAULT_MAX_BULK,
        .max_outstanding = ORCHD_BULKER_DEFAULT_MAX_OUTSTANDING,
        .sorted = false,
    };
    static const struct orchd_bulker_cbs cbs = {
        .send = bench_send, .done = bench_done,
    };
    struct bench_sent sent = { .bulks = NULL };
    struct orchd_entry **first, **second;
    struct orchd_bulker *b;
    struct uuid *keys;
    double c0, c1, c2, c3;

    first = make_entries(n, "192.168.1.11@ifb0", &keys);
    second = make_entries(n, "192.168.1.12@ifb1", NULL);
    b = orchd_bulker_create(&cfg, &cbs, &sent);

    c0 = bench_thread_cpu_s();
    hand_over(b, &sent, first, keys, n);
    c1 = bench_thread_cpu_s();
    hand_over(b, &sent, second, keys, n);
    c2 = bench_thread_cpu_s();
    hand_over(b, &sent, NULL, keys, n);
    c3 = bench_thread_cpu_s();

    if (sent.n_done_ok != 3 * n || sent.n_done_other
        || !orchd_bulker_is_idle(b) || orchd_bulker_n_written(b)
        || orchd_bulker_n_programmed(b)) {
        ovs_fatal(0, "the bulker did not end empty: %"PRIu64" writes "
                  "programmed (%"PRIuSIZE" expected), %"PRIu64" not, "
                  "%"PRIuSIZE" routes written, %"PRIuSIZE" programmed",
                  sent.n_done_ok, 3 * n, sent.n_done_other,
                  orchd_bulker_n_written(b), orchd_bulker_n_programmed(b));
    }
    r->add = (c1 - c0) * 1e9 / n;
    r->update = (c2 - c1) * 1e9 / n;
    r->del = (c3 - c2) * 1e9 / n;

    orchd_bulker_destroy(b);
    free_entries(first, n);
    free_entries(second, n);
    free(keys);
    free(sent.bulks);
}

static void
print_result(const char *label, const struct bulker_result *r)
{
    printf("%-7s add %6.0f ns  update %6.0f ns  delete %6.0f ns "
           "(thread CPU a route)\n", label, r->add, r->update, r->del);
}

static void
usage(void)
{
    printf("usage: fibsync-bench bulker [OPTIONS]\n"
           "Benchmarks orchd's bulker in process: routes added, updated "
           "and deleted\nin prefetched groups, bulks acknowledged write "
           "by write.\n"
           "  --routes N   IPv4 routes (default 1000000)\n"
           "  --runs R     runs; the median is printed (default 5)\n");
}

/* Entry point of "fibsync-bench bulker".  See bench-bulker.h. */
int
bench_bulker_main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        { "routes", required_argument, NULL, 'n' },
        { "runs", required_argument, NULL, 'r' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    size_t n_routes = 1000000, n_runs = 5;
    struct bulker_result *results, med;

    optind = 1;
    for (;;) {
        int c = getopt_long(argc, argv, "", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'n':
            n_routes = option_parse_uint("routes", optarg, 1, 1 << 24);
            break;
        case 'r':
            n_runs = option_parse_uint("runs", optarg, 1, 1000);
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

    printf("routes %"PRIuSIZE", runs %"PRIuSIZE"\n", n_routes, n_runs);
    results = xcalloc(n_runs, sizeof *results);
    for (size_t i = 0; i < n_runs; i++) {
        char label[32];

        run_once(n_routes, &results[i]);
        snprintf(label, sizeof label, "run %"PRIuSIZE, i + 1);
        print_result(label, &results[i]);
    }

    med.add = BENCH_MEDIAN_OF(results, n_runs, add);
    med.update = BENCH_MEDIAN_OF(results, n_runs, update);
    med.del = BENCH_MEDIAN_OF(results, n_runs, del);
    print_result("median", &med);

    free(results);
    return 0;
}
