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

/* fibsync-bench asic: in-process benchmark of the SAI simulator.
 *
 * Each run starts from a fresh library and switch and measures, on the
 * same seeded set of N unique IPv4 prefixes (default 1,000,000) with a
 * BGP-like length mix:
 *
 *   - bulk creation through create_route_entries(), in bulks of B
 *     (default 1000), pointing to next hops and ECMP groups: routes/s;
 *
 *   - lookups of addresses drawn mostly inside the routes (90%; the rest
 *     uniform over the address space): asic_sim_lookup_bulk(), which
 *     returns the route and counts its hit, in lookups/s; and, for
 *     comparison, asic_sim_lookup() one address at a time with next-hop
 *     resolution;
 *
 *   - memory per route: the simulator's own accounting (route records, the
 *     IPv4 prefix hash, tbl8 groups) divided by N, and the growth of the
 *     process's RSS during creation minus the 64 MiB DIR-24-8 tbl24, which
 *     is the LPM structure's fixed cost and is reported apart;
 *
 *   - bulk removal through remove_route_entries(): routes/s.
 *
 * "cpu" is the share of the timed phases' wall-clock time during which the
 * benchmark's thread actually ran: well under 100% means that other
 * processes took the CPU and the rates of that run are understated.
 *
 * Inputs (prefixes, bulks, addresses) are built before the clock starts.
 * Every status is checked: a failed operation aborts the benchmark. Each
 * run is printed, then the median of each figure over the runs. */

#include <config.h>

#include "utilities/bench-asic.h"
#include "lib/option-parse.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/sai-util.h"
#include "openvswitch/util.h"
#include "util.h"
#include "utilities/bench-util.h"

#define N_NEXT_HOPS 16          /* Next hops the routes point to... */
#define N_GROUPS 4              /* ...and ECMP groups of... */
#define GROUP_SIZE 4            /* ...this many of those next hops. */

/* Command-line options. */
struct bench_options {
    uint32_t n_routes;          /* --routes: IPv4 routes per run. */
    unsigned int n_runs;        /* --runs: runs. */
    uint32_t bulk_size;         /* --bulk: routes per bulk call. */
    uint64_t n_lookups;         /* --lookups: bulk lookups per run. */
    uint64_t n_single;          /* --single-lookups: single lookups. */
    uint64_t seed;              /* --seed: PRNG seed of the inputs. */
};

/* Results of one run. */
struct bench_result {
    double create_rate;         /* Routes/s, bulk create. */
    double lookup_rate;         /* Lookups/s, asic_sim_lookup_bulk(). */
    double single_rate;         /* Lookups/s, asic_sim_lookup(). */
    double remove_rate;         /* Routes/s, bulk remove. */
    double hit_ratio;           /* Fraction of lookups that matched. */
    double bytes_per_route;     /* Allocator accounting, beyond tbl24. */
    double rss_per_route;       /* RSS growth minus tbl24, per route. */
    struct asic_sim_memory mem; /* The simulator's accounting. */
    int64_t rss_delta;          /* RSS growth during creation, bytes. */
    double wall_time;           /* Wall-clock time of the timed phases... */
    double cpu_time;            /* ...and the CPU time they got. */
    double cpu_share;           /* 'cpu_time' / 'wall_time'. */
};

/* The benchmark's inputs, shared by the runs. */
struct bench_input {
    uint32_t n;                 /* Number of routes. */
    uint32_t *addrs;            /* 'n' prefixes, host order... */
    uint8_t *plens;             /* ...and their lengths. */
    uint32_t n_lookup_addrs;    /* Addresses in 'lookup_addrs'. */
    sai_ip_address_t *lookup_addrs; /* Addresses to look up. */
};

/* splitmix64. */
static uint64_t
rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Accounts a timed phase that ran from 't0' to 't1' (wall clock) and
 * started at CPU time 'c0', so that 'res' can tell how much of the time
 * the benchmark actually had a CPU (other processes compete for it). */
static void
phase_done(struct bench_result *res, double t0, double t1, double c0)
{
    res->wall_time += t1 - t0;
    res->cpu_time += bench_thread_cpu_s() - c0;
}

/* Returns the process's resident set size in bytes. */
static int64_t
rss_bytes(void)
{
    unsigned long size, resident;
    FILE *f = fopen("/proc/self/statm", "r");

    if (!f || fscanf(f, "%lu %lu", &size, &resident) != 2) {
        ovs_fatal(errno, "/proc/self/statm");
    }
    fclose(f);
    return (int64_t) resident * sysconf(_SC_PAGESIZE);
}

/* Prefix-length mix, in tenths of a percent, close to a 2024 Internet
 * table (about 60% /24) and with some longer prefixes, as in a table with
 * internal more-specifics: 2% spread over /25 to /32. */
static const struct {
    unsigned int plen;          /* Prefix length. */
    unsigned int permille;      /* Share. */
} plen_mix[] = {
    { 16, 15 }, { 17, 15 }, { 18, 25 }, { 19, 35 }, { 20, 50 },
    { 21, 55 }, { 22, 100 }, { 23, 90 }, { 24, 595 },
    { 25, 3 }, { 26, 3 }, { 27, 3 }, { 28, 2 },
    { 29, 2 }, { 30, 3 }, { 31, 2 }, { 32, 2 },
};

/* Returns a prefix length drawn from 'plen_mix'. */
static unsigned int
random_plen(uint64_t *rng)
{
    unsigned int x = rng_next(rng) % 1000;

    for (size_t i = 0; i < ARRAY_SIZE(plen_mix); i++) {
        if (x < plen_mix[i].permille) {
            return plen_mix[i].plen;
        }
        x -= plen_mix[i].permille;
    }
    OVS_NOT_REACHED();
}

/* Builds 'in': 'n' unique random prefixes and 'n_lookup_addrs' lookup
 * addresses, from 'seed'. */
static void
input_init(struct bench_input *in, uint32_t n, uint32_t n_lookup_addrs,
           uint64_t seed)
{
    uint64_t rng = seed;

    in->n = n;
    in->addrs = xmalloc(n * sizeof *in->addrs);
    in->plens = xmalloc(n * sizeof *in->plens);

    /* An open-addressing set of (prefix, length) keys rejects
     * duplicates. */
    unsigned int shift = 62;
    size_t n_slots = 4;
    while (n_slots < 2 * (size_t) n) {
        n_slots *= 2;
        shift--;
    }
    uint64_t *set = xcalloc(n_slots, sizeof *set);
    for (uint32_t i = 0; i < n; ) {
        unsigned int plen = random_plen(&rng);
        uint32_t mask = UINT32_MAX << (32 - plen);
        uint32_t addr = (uint32_t) rng_next(&rng) & mask;
        uint64_t key = ((uint64_t) addr << 6 | plen) + 1;
        size_t j = (key * UINT64_C(0x9e3779b97f4a7c15)) >> shift;

        while (set[j] && set[j] != key) {
            j = (j + 1) & (n_slots - 1);
        }
        if (!set[j]) {
            set[j] = key;
            in->addrs[i] = addr;
            in->plens[i] = plen;
            i++;
        }
    }
    free(set);

    /* 90% of the addresses fall inside a random route (so they hit, that
     * route or a longer one), 10% anywhere. */
    in->n_lookup_addrs = n_lookup_addrs;
    in->lookup_addrs = xmalloc(n_lookup_addrs * sizeof *in->lookup_addrs);
    for (uint32_t i = 0; i < n_lookup_addrs; i++) {
        uint64_t r = rng_next(&rng);
        uint32_t addr;

        if (r % 10) {
            uint32_t k = (r >> 8) % n;
            uint32_t host = ~(UINT32_MAX << (32 - in->plens[k]));

            addr = in->addrs[k] | ((uint32_t) rng_next(&rng) & host);
            if (in->plens[k] == 32) {
                addr = in->addrs[k];
            }
        } else {
            addr = r >> 32;
        }
        sai_util_ip_address_init4(&in->lookup_addrs[i], addr);
    }
}

static void
input_destroy(struct bench_input *in)
{
    free(in->addrs);
    free(in->plens);
    free(in->lookup_addrs);
}

/* Aborts the benchmark if 'status' is not success. */
static void
check(sai_status_t status, const char *what)
{
    if (status != SAI_STATUS_SUCCESS) {
        ovs_fatal(0, "%s failed: %s (%d)", what, sai_util_status_name(status),
                  (int) status);
    }
}

/* Lookups a bulk lookup call makes. */
enum { LOOKUP_BATCH = 256 };

/* Creates a switch with room for 'n' routes and a router interface on its
 * first port, with 'switch_api' and 'rif_api'; stores the switch, its
 * default virtual router and the interface in '*swp', '*vrp' and
 * '*rifp'. */
static void
setup_switch(sai_switch_api_t *switch_api, sai_router_interface_api_t *rif_api,
             uint32_t n, sai_object_id_t *swp, sai_object_id_t *vrp,
             sai_object_id_t *rifp)
{
    /* Switch, with room for every route. */
    sai_object_id_t sw, vr, port, rif;
    sai_attribute_t a[4];
    memset(a, 0, sizeof a);
    a[0].id = SAI_SWITCH_ATTR_INIT_SWITCH;
    a[0].value.booldata = true;
    a[1].id = ASIC_SIM_SWITCH_ATTR_IPV4_ROUTE_CAPACITY;
    a[1].value.u32 = MAX(n, ASIC_SIM_DEFAULT_IPV4_ROUTES);
    check(switch_api->create_switch(&sw, 2, a), "create_switch");

    sai_object_list_t ports = { 1, &port };
    memset(a, 0, sizeof a);
    a[0].id = SAI_SWITCH_ATTR_DEFAULT_VIRTUAL_ROUTER_ID;
    a[1].id = SAI_SWITCH_ATTR_PORT_LIST;
    a[1].value.objlist = ports;
    if (switch_api->get_switch_attribute(sw, 2, a)
        != SAI_STATUS_BUFFER_OVERFLOW) {
        ovs_fatal(0, "expected a port list overflow");
    }
    sai_object_id_t *port_ids = xmalloc(a[1].value.objlist.count
                                        * sizeof *port_ids);
    a[1].value.objlist.list = port_ids;
    check(switch_api->get_switch_attribute(sw, 2, a), "get_switch");
    vr = a[0].value.oid;
    port = port_ids[0];
    free(port_ids);

    memset(a, 0, sizeof a);
    a[0].id = SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID;
    a[0].value.oid = vr;
    a[1].id = SAI_ROUTER_INTERFACE_ATTR_TYPE;
    a[1].value.s32 = SAI_ROUTER_INTERFACE_TYPE_PORT;
    a[2].id = SAI_ROUTER_INTERFACE_ATTR_PORT_ID;
    a[2].value.oid = port;
    check(rif_api->create_router_interface(&rif, sw, 3, a), "create_rif");

    *swp = sw;
    *vrp = vr;
    *rifp = rif;
}

/* Creates on switch 'sw' N_NEXT_HOPS next hops through 'rif' and N_GROUPS
 * groups of GROUP_SIZE of them, with 'nh_api' and 'nhg_api', and fills
 * 'targets' with one NEXT_HOP_ID attribute for each, next hops first. */
static void
setup_targets(sai_next_hop_api_t *nh_api, sai_next_hop_group_api_t *nhg_api,
              sai_object_id_t sw, sai_object_id_t rif,
              sai_attribute_t targets[N_NEXT_HOPS + N_GROUPS])
{
    sai_attribute_t a[4];

    sai_object_id_t nhs[N_NEXT_HOPS];
    for (int i = 0; i < N_NEXT_HOPS; i++) {
        memset(a, 0, sizeof a);
        a[0].id = SAI_NEXT_HOP_ATTR_TYPE;
        a[0].value.s32 = SAI_NEXT_HOP_TYPE_IP;
        a[1].id = SAI_NEXT_HOP_ATTR_IP;
        sai_util_ip_address_init4(&a[1].value.ipaddr, 0xac100001 + i);
        a[2].id = SAI_NEXT_HOP_ATTR_ROUTER_INTERFACE_ID;
        a[2].value.oid = rif;
        check(nh_api->create_next_hop(&nhs[i], sw, 3, a), "create_nh");
    }
    for (int g = 0; g < N_GROUPS; g++) {
        sai_object_id_t group, member;

        memset(a, 0, sizeof a);
        a[0].id = SAI_NEXT_HOP_GROUP_ATTR_TYPE;
        a[0].value.s32 = SAI_NEXT_HOP_GROUP_TYPE_ECMP;
        check(nhg_api->create_next_hop_group(&group, sw, 1, a),
              "create_nhg");
        for (int m = 0; m < GROUP_SIZE; m++) {
            memset(a, 0, sizeof a);
            a[0].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_GROUP_ID;
            a[0].value.oid = group;
            a[1].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID;
            a[1].value.oid = nhs[(g * GROUP_SIZE + m) % N_NEXT_HOPS];
            a[2].id = SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT;
            a[2].value.u32 = 1 + m;
            check(nhg_api->create_next_hop_group_member(&member, sw, 3, a),
                  "create_nhgm");
        }
        memset(&targets[N_NEXT_HOPS + g], 0, sizeof targets[0]);
        targets[N_NEXT_HOPS + g].id = SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID;
        targets[N_NEXT_HOPS + g].value.oid = group;
    }
    for (int i = 0; i < N_NEXT_HOPS; i++) {
        memset(&targets[i], 0, sizeof targets[i]);
        targets[i].id = SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID;
        targets[i].value.oid = nhs[i];
    }
}

/* Times the bulk lookups and the single lookups of 'in''s addresses on
 * virtual router 'vr', as 'opts' asks, into 'res', with 'routes' for
 * LOOKUP_BATCH results.  Stores the hits of each in '*hitsp' and
 * '*single_hitsp'. */
static void
run_lookups(const struct bench_options *opts, const struct bench_input *in,
            sai_object_id_t vr, struct asic_sim_route *routes,
            struct bench_result *res, uint64_t *hitsp, uint64_t *single_hitsp)
{
    sai_status_t lookup_st[LOOKUP_BATCH];
    double t0, t1, c0;

    /* Bulk lookups. */
    uint64_t hits = 0;
    uint32_t pos = 0;
    t0 = bench_wall_s();
    c0 = bench_thread_cpu_s();
    for (uint64_t done = 0; done < opts->n_lookups; ) {
        uint32_t k = MIN(LOOKUP_BATCH, in->n_lookup_addrs - pos);

        k = MIN(k, opts->n_lookups - done);
        check(asic_sim_lookup_bulk(vr, k, &in->lookup_addrs[pos], routes,
                                   lookup_st), "lookup_bulk");
        for (uint32_t j = 0; j < k; j++) {
            hits += lookup_st[j] == SAI_STATUS_SUCCESS;
        }
        done += k;
        pos += k;
        if (pos >= in->n_lookup_addrs) {
            pos = 0;
        }
    }
    t1 = bench_wall_s();
    phase_done(res, t0, t1, c0);
    res->lookup_rate = opts->n_lookups / (t1 - t0);
    res->hit_ratio = (double) hits / opts->n_lookups;

    /* Single lookups, with next-hop resolution. */
    struct asic_sim_nexthop nexthops[GROUP_SIZE];
    uint64_t single_hits = 0;
    pos = 0;
    t0 = bench_wall_s();
    c0 = bench_thread_cpu_s();
    for (uint64_t done = 0; done < opts->n_single; done++) {
        struct asic_sim_route route;
        uint32_t n_nh = ARRAY_SIZE(nexthops);
        sai_status_t st = asic_sim_lookup(vr, &in->lookup_addrs[pos],
                                          &route, nexthops, &n_nh);

        if (st == SAI_STATUS_SUCCESS) {
            single_hits++;
        } else if (st != SAI_STATUS_ITEM_NOT_FOUND) {
            check(st, "asic_sim_lookup");
        }
        if (++pos >= in->n_lookup_addrs) {
            pos = 0;
        }
    }
    t1 = bench_wall_s();
    phase_done(res, t0, t1, c0);
    res->single_rate = opts->n_single / (t1 - t0);
    *hitsp = hits;
    *single_hitsp = single_hits;
}

/* Fills the arguments of the bulk calls for the 'in->n' routes of 'in' on
 * switch 'sw' and virtual router 'vr': each route's entry, its one
 * attribute from 'targets' (every fifth route to a group) and its status,
 * not executed yet. */
static void
fill_bulk_args(const struct bench_input *in, sai_object_id_t sw,
               sai_object_id_t vr, const sai_attribute_t *targets,
               sai_route_entry_t *entries, const sai_attribute_t **attr_lists,
               uint32_t *attr_counts, sai_status_t *statuses)
{
    for (uint32_t i = 0; i < in->n; i++) {
        memset(&entries[i], 0, sizeof entries[i]);
        entries[i].switch_id = sw;
        entries[i].vr_id = vr;
        sai_util_ip_prefix_init4(&entries[i].destination, in->addrs[i],
                                 in->plens[i]);
        attr_lists[i] = (i % 5 == 4
                         ? &targets[N_NEXT_HOPS + (i / 5) % N_GROUPS]
                         : &targets[i % N_NEXT_HOPS]);
        attr_counts[i] = 1;
        statuses[i] = SAI_STATUS_NOT_EXECUTED;
    }
}

/* Times the bulk removal of the 'n' routes of 'entries' from switch 'sw'
 * with 'route_api', 'opts->bulk_size' a call, into 'res', and checks that
 * none is left. */
static void
run_remove(const struct bench_options *opts, sai_route_api_t *route_api,
           sai_object_id_t sw, uint32_t n, sai_route_entry_t *entries,
           sai_status_t *statuses, struct bench_result *res)
{
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    double t0 = bench_wall_s();
    double c0 = bench_thread_cpu_s();

    for (uint32_t i = 0; i < n; i += opts->bulk_size) {
        uint32_t k = MIN(opts->bulk_size, n - i);

        check(route_api->remove_route_entries(
                  k, &entries[i], SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR,
                  &statuses[i]),
              "remove_route_entries");
    }
    double t1 = bench_wall_s();
    phase_done(res, t0, t1, c0);
    res->remove_rate = n / (t1 - t0);
    check(asic_sim_crm_get(sw, crm), "crm_get");
    if (crm[ASIC_SIM_RES_IPV4_ROUTE].used) {
        ovs_fatal(0, "routes left after removal");
    }
}

/* One run: sets up a switch, creates, looks up and removes every route of
 * 'in', and stores the figures in 'res'. */
static void
run_once(const struct bench_options *opts, const struct bench_input *in,
         struct bench_result *res)
{
    sai_switch_api_t *switch_api;
    sai_router_interface_api_t *rif_api;
    sai_next_hop_api_t *nh_api;
    sai_next_hop_group_api_t *nhg_api;
    sai_route_api_t *route_api;
    uint32_t n = in->n;

    memset(res, 0, sizeof *res);
    check(sai_api_initialize(0, NULL), "sai_api_initialize");
    check(sai_api_query(SAI_API_SWITCH, (void **) &switch_api), "query");
    check(sai_api_query(SAI_API_ROUTER_INTERFACE, (void **) &rif_api),
          "query");
    check(sai_api_query(SAI_API_NEXT_HOP, (void **) &nh_api), "query");
    check(sai_api_query(SAI_API_NEXT_HOP_GROUP, (void **) &nhg_api),
          "query");
    check(sai_api_query(SAI_API_ROUTE, (void **) &route_api), "query");

    /* Switch, with room for every route. */
    sai_object_id_t sw, vr, rif;
    setup_switch(switch_api, rif_api, n, &sw, &vr, &rif);

    /* Next hops and groups; one NEXT_HOP_ID attribute for each. */
    sai_attribute_t targets[N_NEXT_HOPS + N_GROUPS];
    setup_targets(nh_api, nhg_api, sw, rif, targets);

    /* The bulks' arguments: every fifth route to a group. */
    sai_route_entry_t *entries = xmalloc(n * sizeof *entries);
    const sai_attribute_t **attr_lists = xmalloc(n * sizeof *attr_lists);
    uint32_t *attr_counts = xmalloc(n * sizeof *attr_counts);
    sai_status_t *statuses = xmalloc(n * sizeof *statuses);
    fill_bulk_args(in, sw, vr, targets, entries, attr_lists, attr_counts,
                   statuses);
    struct asic_sim_route *routes = xmalloc(LOOKUP_BATCH * sizeof *routes);

    /* Bulk create. */
    int64_t rss0 = rss_bytes();
    double t0 = bench_wall_s();
    double c0 = bench_thread_cpu_s();
    for (uint32_t i = 0; i < n; i += opts->bulk_size) {
        uint32_t k = MIN(opts->bulk_size, n - i);

        check(route_api->create_route_entries(
                  k, &entries[i], &attr_counts[i], &attr_lists[i],
                  SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, &statuses[i]),
              "create_route_entries");
    }
    double t1 = bench_wall_s();
    phase_done(res, t0, t1, c0);
    res->rss_delta = rss_bytes() - rss0;
    res->create_rate = n / (t1 - t0);

    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    check(asic_sim_crm_get(sw, crm), "crm_get");
    if (crm[ASIC_SIM_RES_IPV4_ROUTE].used != n) {
        ovs_fatal(0, "%"PRIu32" routes created, %"PRIu32" expected",
                  crm[ASIC_SIM_RES_IPV4_ROUTE].used, n);
    }
    check(asic_sim_memory_get(sw, &res->mem), "memory_get");
    res->bytes_per_route = (double) (res->mem.route_bytes
                                     + res->mem.lpm4_rule_bytes
                                     + res->mem.lpm4_tbl8_bytes) / n;
    res->rss_per_route = ((double) res->rss_delta
                          - (double) res->mem.lpm4_fixed_bytes) / n;

    uint64_t hits, single_hits;
    run_lookups(opts, in, vr, routes, res, &hits, &single_hits);

    struct asic_sim_stats stats;
    check(asic_sim_stats_get(sw, &stats), "stats_get");
    if (stats.lookups != opts->n_lookups + opts->n_single
        || stats.lookups - stats.lookup_misses != hits + single_hits) {
        ovs_fatal(0, "lookup counters disagree with the benchmark");
    }

    /* Bulk remove. */
    run_remove(opts, route_api, sw, n, entries, statuses, res);

    res->cpu_share = res->cpu_time / res->wall_time;

    free(routes);
    free(entries);
    free(attr_lists);
    free(attr_counts);
    free(statuses);
    check(sai_api_uninitialize(), "sai_api_uninitialize");
}

/* Prints the figures of 'r' on one line, after 'label'. */
static void
print_result(const char *label, const struct bench_result *r)
{
    printf("%-7s create %6.2f M routes/s  lookup %6.2f M/s (bulk, "
           "%.1f%% hit)  %5.2f M/s (single+resolve)  remove %6.2f M "
           "routes/s  mem %5.1f B/route (accounting) %5.1f B/route (RSS)  "
           "cpu %3.0f%%\n",
           label, r->create_rate / 1e6, r->lookup_rate / 1e6,
           r->hit_ratio * 100, r->single_rate / 1e6, r->remove_rate / 1e6,
           r->bytes_per_route, r->rss_per_route, r->cpu_share * 100);
}

static void
usage(void)
{
    printf("usage: fibsync-bench asic [OPTIONS]\n"
           "Benchmarks the SAI simulator in process.\n"
           "  --routes N           IPv4 routes per run (default 1000000)\n"
           "  --runs R             runs; the median is printed (default 5)\n"
           "  --bulk B             routes per bulk call (default 1000)\n"
           "  --lookups L          bulk lookups per run (default 20000000)\n"
           "  --single-lookups S   single lookups per run (default "
           "5000000)\n"
           "  --seed S             seed of the inputs (default 1)\n");
}

/* Prints the medians of the 'n' runs' 'results', figure by figure, and the
 * first run's memory. */
static void
print_summary(const struct bench_result *results, unsigned int n)
{
    /* Medians, figure by figure. */
    struct bench_result med;
    memset(&med, 0, sizeof med);
    med.create_rate = BENCH_MEDIAN_OF(results, n, create_rate);
    med.lookup_rate = BENCH_MEDIAN_OF(results, n, lookup_rate);
    med.single_rate = BENCH_MEDIAN_OF(results, n, single_rate);
    med.remove_rate = BENCH_MEDIAN_OF(results, n, remove_rate);
    med.hit_ratio = BENCH_MEDIAN_OF(results, n, hit_ratio);
    med.bytes_per_route = BENCH_MEDIAN_OF(results, n, bytes_per_route);
    med.rss_per_route = BENCH_MEDIAN_OF(results, n, rss_per_route);
    med.cpu_share = BENCH_MEDIAN_OF(results, n, cpu_share);
    print_result("median", &med);

    const struct asic_sim_memory *m = &results[0].mem;
    printf("memory (run 1): route records %.1f MiB, IPv4 prefix hash "
           "%.1f MiB, tbl8 groups %.1f MiB, other objects %.1f KiB; "
           "LPM fixed cost (tbl24) %.0f MiB, not counted per route; "
           "RSS growth %.1f MiB\n",
           m->route_bytes / 1048576.0, m->lpm4_rule_bytes / 1048576.0,
           m->lpm4_tbl8_bytes / 1048576.0, m->object_bytes / 1024.0,
           m->lpm4_fixed_bytes / 1048576.0,
           results[0].rss_delta / 1048576.0);
}

/* Entry point of "fibsync-bench asic".  See bench-asic.h. */
int
bench_asic_main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        { "routes", required_argument, NULL, 'n' },
        { "runs", required_argument, NULL, 'r' },
        { "bulk", required_argument, NULL, 'b' },
        { "lookups", required_argument, NULL, 'l' },
        { "single-lookups", required_argument, NULL, 's' },
        { "seed", required_argument, NULL, 'S' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct bench_options opts = {
        .n_routes = 1000000,
        .n_runs = 5,
        .bulk_size = 1000,
        .n_lookups = 20000000,
        .n_single = 5000000,
        .seed = 1,
    };

    optind = 1;
    for (;;) {
        int c = getopt_long(argc, argv, "", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'n':
            opts.n_routes = option_parse_uint("routes", optarg, 1,
                                         ASIC_SIM_MAX_ROUTES);
            break;
        case 'r':
            opts.n_runs = option_parse_uint("runs", optarg, 1, 1000);
            break;
        case 'b':
            opts.bulk_size = option_parse_uint("bulk", optarg, 1, 1000000);
            break;
        case 'l':
            opts.n_lookups = option_parse_uint("lookups", optarg, 1,
                                          UINT64_C(1) << 40);
            break;
        case 's':
            opts.n_single = option_parse_uint("single-lookups", optarg, 1,
                                         UINT64_C(1) << 40);
            break;
        case 'S':
            opts.seed = option_parse_uint("seed", optarg, 0, UINT64_MAX);
            break;
        case 'h':
            usage();
            return EXIT_SUCCESS;
        default:
            usage();
            return EXIT_FAILURE;
        }
    }
    if (optind < argc) {
        ovs_fatal(0, "unexpected argument \"%s\" (use --help)",
                  argv[optind]);
    }

    struct bench_input in;
    input_init(&in, opts.n_routes, MIN(opts.n_routes, 1000000), opts.seed);

    printf("asic-sim: %"PRIu32" IPv4 routes (60%% /24, 38%% /16-/23, "
           "2%% /25-/32; seed %"PRIu64"), bulks of %"PRIu32", %u runs, "
           "%"PRIu64" bulk + %"PRIu64" single lookups per run\n",
           opts.n_routes, opts.seed, opts.bulk_size, opts.n_runs,
           opts.n_lookups, opts.n_single);

    struct bench_result *results = xcalloc(opts.n_runs, sizeof *results);
    for (unsigned int r = 0; r < opts.n_runs; r++) {
        char label[16];

        run_once(&opts, &in, &results[r]);
        snprintf(label, sizeof label, "run %u", r + 1);
        print_result(label, &results[r]);
        fflush(stdout);
    }

    print_summary(results, opts.n_runs);

    free(results);
    input_destroy(&in);
    return EXIT_SUCCESS;
}
