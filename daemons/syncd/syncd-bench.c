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

/* syncd-bench: load generator and benchmark for syncd.
 *
 *   syncd-bench load --db=REMOTE [-n ROWS] [-t ROWS_PER_TXN]
 *       inserts ROWS Asic_Route rows, as orchd would write them, in
 *       transactions of ROWS_PER_TXN rows (two outstanding), and prints the
 *       time it took.
 *
 *   syncd-bench apply [-n ROUTES] [-k BULK]
 *       creates ROUTES IPv4 routes through syncd's apply step in-process,
 *       then removes them, and prints both rates.
 *
 * Both use the same route mix: consecutive /24s from 1.0.0.0 up, every
 * 16th a /16 ... /23 or /25 ... /32 instead, forwarding to one of 16 next-
 * hop sets (single next hops and 2- to 4-way ECMP, some weighted) over 8
 * gateways on 4 interfaces. */

#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-nexthop-key.h"
#include "command-line.h"
#include "lib/fib-prefix.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"

/* Next-hop sets: up to 4 "GATEWAY@IFNAME=WEIGHT" keys each. */
static const char *const nh_sets[16][4] = {
    { "192.0.2.1@eth0=1" },
    { "192.0.2.2@eth1=1" },
    { "192.0.2.3@eth2=1" },
    { "192.0.2.4@eth3=1" },
    { "192.0.2.1@eth0=1", "192.0.2.2@eth1=1" },
    { "192.0.2.3@eth2=1", "192.0.2.4@eth3=1" },
    { "192.0.2.5@eth0=1", "192.0.2.6@eth1=1" },
    { "192.0.2.7@eth2=1", "192.0.2.8@eth3=1" },
    { "192.0.2.1@eth0=1", "192.0.2.2@eth1=1", "192.0.2.3@eth2=1" },
    { "192.0.2.4@eth3=1", "192.0.2.5@eth0=1", "192.0.2.6@eth1=1" },
    { "192.0.2.1@eth0=1", "192.0.2.2@eth1=1", "192.0.2.3@eth2=1",
      "192.0.2.4@eth3=1" },
    { "192.0.2.5@eth0=1", "192.0.2.6@eth1=1", "192.0.2.7@eth2=1",
      "192.0.2.8@eth3=1" },
    { "192.0.2.1@eth0=3", "192.0.2.2@eth1=1" },
    { "192.0.2.3@eth2=1", "192.0.2.4@eth3=2" },
    { "192.0.2.5@eth0=2", "192.0.2.6@eth1=2", "192.0.2.7@eth2=1" },
    { "192.0.2.8@eth3=1" },
};

/* Stores route 'i' of the mix in 'p'; returns its next-hop set. */
static size_t
route_mix(uint32_t i, struct fib_prefix *p)
{
    uint32_t addr = (1u << 24) + (i << 8);
    unsigned int len = 24;

    if (i % 16 == 15) {
        static const uint8_t other[] = { 16, 20, 22, 23, 25, 26, 28, 32 };

        len = other[(i / 16) % ARRAY_SIZE(other)];
        /* Keep every prefix distinct: a longer one within the /24 that
         * route 'i' does not use, a shorter one numbered among those of
         * its length, from 32.0.0.0 up (beyond the /24s of 16M routes). */
        if (len < 24) {
            addr = 0x20000000u + ((i / 128) << (32 - len));
        }
    }
    ovs_be32 a = htonl(addr);
    fib_prefix_from_in4(p, a, len);
    return (i * 7) % ARRAY_SIZE(nh_sets);
}

/* ---- load --------------------------------------------------------------- */

/* Returns the insert operation of row 'i' of the mix, with 'seq', as
 * orchd writes it. */
static struct json *
row_json(uint32_t i, int64_t seq)
{
    char prefix[FIB_PREFIX_STRLEN];
    struct fib_prefix p;
    size_t set = route_mix(i, &p);

    fib_prefix_format(&p, prefix);

    struct json *nexthops = ovsdb_wire_map_new();
    for (size_t j = 0; j < 4 && nh_sets[set][j]; j++) {
        const char *kv = nh_sets[set][j];
        const char *eq = strchr(kv, '=');

        ovsdb_wire_map_add(nexthops,
                           json_string_create_nocopy(xmemdup0(kv, eq - kv)),
                           json_integer_create(atoi(eq + 1)));
    }

    struct json *row = json_object_create();
    json_object_put_string(row, "vrf", "default");
    json_object_put_string(row, "prefix", prefix);
    json_object_put_string(row, "packet_action", "forward");
    json_object_put(row, "nexthops", nexthops);
    json_object_put(row, "seq", json_integer_create(seq));
    json_object_put_string(row, "state", "pending");
    return ovsdb_wire_op_insert("Asic_Route", NULL, row);
}

/* Completion of one load transaction: '*done_' counts the rows
 * committed; anything else ends the load. */
static void
load_txn_done(void *done_, const struct ovsdb_writer_reply *reply)
{
    uint32_t *done = done_;

    if (reply->result != OVSDB_WRITER_SUCCESS) {
        ovs_fatal(0, "insert failed: %s", reply->error);
    }
    *done += reply->n_ops;
}

/* Runs 'w' until it is connected, for up to 10 seconds. */
static void
load_connect(struct ovsdb_writer *w, const char *remote)
{
    long long int deadline = time_msec() + 10000;

    for (;;) {
        ovsdb_writer_run(w);
        if (ovsdb_writer_is_connected(w)) {
            return;
        } else if (time_msec() >= deadline) {
            ovs_fatal(0, "%s: connection failed", remote);
        }
        ovsdb_writer_wait(w);
        poll_timer_wait_until(deadline);
        poll_block();
    }
}

static int
cmd_load(const char *remote, uint32_t n, uint32_t per_txn)
{
    struct ovsdb_writer *w = ovsdb_writer_create(remote, "Fibsync");

    ovsdb_writer_set_max_in_flight(w, 2);
    load_connect(w, remote);

    long long int start = time_msec();
    uint32_t sent = 0, done = 0;
    while (done < n) {
        /* Keep two transactions in flight. */
        while (sent < n && ovsdb_writer_has_room(w)) {
            struct json *ops = json_array_create_empty();
            uint32_t end = MIN(n, sent + per_txn);

            for (uint32_t i = sent; i < end; i++) {
                json_array_add(ops, row_json(i, i + 1));
            }
            ovsdb_writer_commit(w, ops, load_txn_done, &done);
            sent = end;
        }
        ovsdb_writer_run(w);
        if (done < n) {
            ovsdb_writer_wait(w);
            poll_block();
        }
    }
    long long int elapsed = time_msec() - start;
    printf("load: %"PRIu32" rows in %lld ms: %.0f rows/s\n", n, elapsed,
           elapsed ? n * 1000.0 / elapsed : 0.0);
    ovsdb_writer_destroy(w);
    return 0;
}

/* ---- apply -------------------------------------------------------------- */

/* Returns this process's resident set size, in bytes. */
static size_t
rss_bytes(void)
{
    unsigned long size, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");

    if (f) {
        if (fscanf(f, "%lu %lu", &size, &resident) != 2) {
            resident = 0;
        }
        fclose(f);
    }
    return resident * get_page_size();
}

/* Counts results. */
struct counts {
    uint64_t ok;                /* Successes. */
    uint64_t failed;            /* Failures. */
};

static void
count_result(const struct syncd_route_result *r, void *counts_)
{
    struct counts *c = counts_;

    if (r->status) {
        c->failed++;
    } else {
        c->ok++;
    }
}

static int
cmd_apply(uint32_t n, uint32_t max_bulk)
{
    struct syncd_nexthop nhs[ARRAY_SIZE(nh_sets)][4];
    size_t n_nhs[ARRAY_SIZE(nh_sets)];
    struct syncd_apply_options o;
    struct counts counts = { 0, 0 };
    char keys[ARRAY_SIZE(nh_sets)][4][32];
    char *error;

    /* Parse the next-hop sets once, as syncd parses next hops. */
    for (size_t s = 0; s < ARRAY_SIZE(nh_sets); s++) {
        n_nhs[s] = 0;
        for (size_t j = 0; j < 4 && nh_sets[s][j]; j++) {
            const char *kv = nh_sets[s][j];
            const char *eq = strchr(kv, '=');

            ovs_strlcpy(keys[s][j], kv,
                        MIN(sizeof keys[s][j], (size_t) (eq - kv + 1)));
            error = syncd_nexthop_key_parse(keys[s][j], atoi(eq + 1),
                                            &nhs[s][j]);
            ovs_assert(!error);
            n_nhs[s]++;
        }
    }

    memset(&o, 0, sizeof o);
    o.max_bulk = max_bulk;
    o.cb = count_result;
    o.cb_aux = &counts;
    o.capacity[ASIC_SIM_RES_IPV4_ROUTE] = MAX(n, 1);
    struct syncd_apply *sa = syncd_apply_create(&o, &error);
    if (!sa) {
        ovs_fatal(0, "%s", error);
    }

    struct syncd_route_op op;
    memset(&op, 0, sizeof op);
    op.vrf = "default";

    /* Create. */
    size_t rss0 = rss_bytes();
    long long int start = time_usec();
    op.type = SYNCD_OP_SET;
    op.action = SAI_PACKET_ACTION_FORWARD;
    for (uint32_t i = 0; i < n; i++) {
        size_t s = route_mix(i, &op.prefix);

        op.nexthops = nhs[s];
        op.n_nexthops = n_nhs[s];
        op.seq = i + 1;
        syncd_apply_submit(sa, &op);
    }
    syncd_apply_flush(sa);
    long long int create_us = time_usec() - start;
    if (counts.failed || counts.ok != n) {
        ovs_fatal(0, "%"PRIu64" creations failed", counts.failed);
    }
    printf("apply: create %"PRIu32" routes in %.1f ms: %.0f routes/s "
           "(bulks of %"PRIu32")\n", n, create_us / 1000.0,
           create_us ? n * 1e6 / create_us : 0.0,
           max_bulk ? max_bulk : SYNCD_APPLY_DEFAULT_MAX_BULK);

    struct asic_sim_memory mem;
    size_t rss1 = rss_bytes();
    asic_sim_memory_get(syncd_apply_switch_id(sa), &mem);
    size_t sim = (mem.route_bytes + mem.lpm4_tbl8_bytes + mem.lpm4_rule_bytes
                  + mem.lpm6_bytes + mem.object_bytes);
    printf("apply: RSS grew %.1f MB, %.0f bytes/route; of which the "
           "simulator's route records, prefix hashes and objects %.0f "
           "bytes/route (its DIR-24-8 table: %.0f MB of address space)\n",
           (rss1 - rss0) / 1048576.0,
           n ? (double) (rss1 - rss0) / n : 0.0, n ? (double) sim / n : 0.0,
           mem.lpm4_fixed_bytes / 1048576.0);

    /* Remove. */
    start = time_usec();
    op.type = SYNCD_OP_DEL;
    op.nexthops = NULL;
    op.n_nexthops = 0;
    for (uint32_t i = 0; i < n; i++) {
        route_mix(i, &op.prefix);
        syncd_apply_submit(sa, &op);
    }
    syncd_apply_flush(sa);
    long long int remove_us = time_usec() - start;
    if (counts.failed || counts.ok != 2ull * n) {
        ovs_fatal(0, "%"PRIu64" removals failed", counts.failed);
    }
    printf("apply: remove %"PRIu32" routes in %.1f ms: %.0f routes/s\n",
           n, remove_us / 1000.0, remove_us ? n * 1e6 / remove_us : 0.0);
    syncd_apply_destroy(sa);
    return 0;
}

/* ---- main --------------------------------------------------------------- */

OVS_NO_RETURN static void
usage(void)
{
    printf("\
%s: load generator and benchmark for syncd\n\
usage: %s load --db=REMOTE [-n ROWS] [-t ROWS_PER_TXN]\n\
       %s apply [-n ROUTES] [-k BULK]\n\
\n\
load   inserts ROWS (default 1000000) Asic_Route rows in transactions of\n\
       ROWS_PER_TXN (default 5000) rows, two outstanding, and prints the\n\
       insert rate.  Row i has seq i + 1 and state \"pending\".\n\
apply  creates ROUTES (default 1000000) IPv4 routes through syncd's apply\n\
       step against the simulator in-process, in bulks of BULK (default\n\
       1000), then removes them, and prints both rates.\n",
           program_name, program_name, program_name);
    exit(EXIT_SUCCESS);
}

int
main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        {"db", required_argument, NULL, 'd'},
        {"rows", required_argument, NULL, 'n'},
        {"txn-rows", required_argument, NULL, 't'},
        {"max-bulk", required_argument, NULL, 'k'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *remote = NULL;
    uint32_t n = 1000000, per_txn = 5000, max_bulk = 0;

    set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    for (;;) {
        int c = getopt_long(argc, argv, "d:n:t:k:h", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case 'd':
            remote = optarg;
            break;
        case 'n':
            n = strtoul(optarg, NULL, 10);
            break;
        case 't':
            per_txn = MAX(1, strtoul(optarg, NULL, 10));
            break;
        case 'k':
            max_bulk = strtoul(optarg, NULL, 10);
            break;
        case 'h':
            usage();
        default:
            exit(EXIT_FAILURE);
        }
    }
    if (optind >= argc) {
        ovs_fatal(0, "missing command (use --help for help)");
    }

    const char *cmd = argv[optind];
    if (!strcmp(cmd, "load")) {
        if (!remote) {
            ovs_fatal(0, "load needs --db=REMOTE");
        }
        return cmd_load(remote, n, per_txn);
    } else if (!strcmp(cmd, "apply")) {
        return cmd_apply(n, max_bulk);
    }
    ovs_fatal(0, "unknown command \"%s\" (use --help for help)", cmd);
}
