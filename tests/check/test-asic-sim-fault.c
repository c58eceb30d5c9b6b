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

/* Check suite "asic_sim_fault": fault injection in the SAI simulator
 * (asic-sim/asic-sim-fault.c): a seeded rate of failures, chosen
 * prefixes, the programming delay and faults on other objects. */

#include <config.h>

#include <check.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asic-sim/asic-sim.h"
#include "openvswitch/util.h"
#include "tests/check/asic-sim-fixture.h"
#include "tests/check/suites.h"
#include "util.h"

/* Creates 'n' /24 routes 40.x.y.0 in one IGNORE_ERROR bulk and returns a
 * bitmap (an array of bools) of those that failed. */
static bool *
bulk_create_failures(uint32_t n, sai_route_entry_t *entries)
{
    sai_attribute_t *attrs = xmalloc(n * sizeof *attrs);
    const sai_attribute_t **lists = xmalloc(n * sizeof *lists);
    uint32_t *counts = xmalloc(n * sizeof *counts);
    sai_status_t *st = xmalloc(n * sizeof *st);
    bool *failed = xmalloc(n * sizeof *failed);

    for (uint32_t i = 0; i < n; i++) {
        entries[i] = fx_route4(fx_vr, ip4(40, i >> 8, i & 0xff, 0), 24);
        attrs[i] = attr_oid(SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID, fx_nh[0]);
        lists[i] = &attrs[i];
        counts[i] = 1;
    }
    fx_route_api->create_route_entries(n, entries, counts, lists,
                                       SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
                                       st);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert(st[i] == SAI_STATUS_SUCCESS
                  || st[i] == SAI_STATUS_FAILURE);
        failed[i] = st[i] != SAI_STATUS_SUCCESS;
        ck_assert(fx_route_exists(&entries[i]) == !failed[i]);
    }
    free(attrs);
    free(lists);
    free(counts);
    free(st);
    return failed;
}

START_TEST(test_fault_rate)
{
    enum { N = 4000 };
    sai_route_entry_t *entries = xmalloc(N * sizeof *entries);
    struct asic_sim_fault f;
    sai_status_t st[N];

    memset(&f, 0, sizeof f);
    f.rate = 0.25;
    f.seed = 12345;
    ck_assert_status(asic_sim_fault_set(fx_sw, &f), SAI_STATUS_SUCCESS);
    bool *failed1 = bulk_create_failures(N, entries);

    uint32_t n_failed = 0;
    for (int i = 0; i < N; i++) {
        n_failed += failed1[i];
    }
    ck_assert_msg(n_failed > N / 4 - 150 && n_failed < N / 4 + 150,
                  "%"PRIu32" failures", n_failed);

    struct asic_sim_stats stats;
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    ck_assert_status(asic_sim_stats_get(fx_sw, &stats), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(stats.faults_injected, n_failed);
    ck_assert_uint_eq(stats.errors_by_status[1], n_failed);
    fx_crm_get(crm);
    ck_assert_uint_eq(crm[ASIC_SIM_RES_IPV4_ROUTE].used, N - n_failed);

    /* Remove everything with faults off for removals: the same seed then
     * fails the same creations. */
    f.ops = ASIC_SIM_FAULT_ROUTE_CREATE;
    ck_assert_status(asic_sim_fault_set(fx_sw, &f), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_route_api->remove_route_entries(
                         N, entries, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
                         st),
                     n_failed ? SAI_STATUS_FAILURE : SAI_STATUS_SUCCESS);
    for (int i = 0; i < N; i++) {
        ck_assert_status(st[i], failed1[i] ? SAI_STATUS_ITEM_NOT_FOUND
                                           : SAI_STATUS_SUCCESS);
    }
    ck_assert_status(asic_sim_fault_set(fx_sw, &f), SAI_STATUS_SUCCESS);
    bool *failed2 = bulk_create_failures(N, entries);
    ck_assert(!memcmp(failed1, failed2, N * sizeof *failed1));

    /* Validation comes first: an existing route is reported as such, not
     * as an injected failure. */
    f.rate = 1;
    ck_assert_status(asic_sim_fault_set(fx_sw, &f), SAI_STATUS_SUCCESS);
    for (int i = 0; i < N; i++) {
        if (!failed2[i]) {
            ck_assert_status(fx_create_route(&entries[i], fx_nh[0]),
                             SAI_STATUS_ITEM_ALREADY_EXISTS);
            ck_assert_status(fx_route_api->remove_route_entry(&entries[i]),
                             SAI_STATUS_SUCCESS);
            ck_assert_status(fx_create_route(&entries[i], fx_nh[0]),
                             SAI_STATUS_FAILURE);
            break;
        }
    }

    /* Invalid rates; clearing. */
    f.rate = 1.5;
    ck_assert_status(asic_sim_fault_set(fx_sw, &f),
                     SAI_STATUS_INVALID_PARAMETER);
    ck_assert_status(asic_sim_fault_clear(fx_sw), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_get(fx_sw, &f), SAI_STATUS_SUCCESS);
    ck_assert(f.rate == 0);
    ck_assert_uint_eq(f.ops, ASIC_SIM_FAULT_ROUTES);

    free(failed1);
    free(failed2);
    free(entries);
}
END_TEST

static void
count_fault_prefix(sai_object_id_t vr_id OVS_UNUSED,
                   const sai_ip_prefix_t *p OVS_UNUSED, void *n_)
{
    int *n = n_;
    (*n)++;
}

START_TEST(test_fault_prefixes)
{
    sai_route_entry_t bad = fx_route_parse(fx_vr, "198.51.100.0/24");
    sai_route_entry_t bad6 = fx_route_parse(fx_vr, "2001:db8:bad::/48");
    sai_route_entry_t good = fx_route_parse(fx_vr, "198.51.100.0/25");
    sai_route_entry_t other_vr;
    sai_object_id_t vr2;

    ck_assert_status(fx_vr_api->create_virtual_router(&vr2, fx_sw, 0, NULL),
                     SAI_STATUS_SUCCESS);
    other_vr = fx_route_parse(vr2, "198.51.100.0/24");

    ck_assert_status(asic_sim_fault_add_prefix(fx_sw, fx_vr, &bad.destination),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_add_prefix(fx_sw, fx_vr, &bad.destination),
                     SAI_STATUS_ITEM_ALREADY_EXISTS);
    ck_assert_status(asic_sim_fault_add_prefix(fx_sw, fx_vr,
                                               &bad6.destination),
                     SAI_STATUS_SUCCESS);
    int n = 0;
    ck_assert_status(asic_sim_fault_prefix_walk(fx_sw, count_fault_prefix, &n),
                     SAI_STATUS_SUCCESS);
    ck_assert_int_eq(n, 2);

    ck_assert_status(fx_create_route(&bad, fx_nh[0]), SAI_STATUS_FAILURE);
    ck_assert_status(fx_create_route(&bad6, fx_nh[0]), SAI_STATUS_FAILURE);
    ck_assert_status(fx_create_route(&good, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&other_vr, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert(!fx_route_exists(&bad));

    /* In a bulk, only the chosen prefix fails. */
    sai_route_entry_t entries[3] = { good, bad, other_vr };
    sai_status_t st[3];
    ck_assert_status(fx_route_api->remove_route_entries(
                         3, entries, SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
                         st),
                     SAI_STATUS_FAILURE);
    ck_assert_status(st[0], SAI_STATUS_SUCCESS);
    ck_assert_status(st[1], SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(st[2], SAI_STATUS_SUCCESS);

    /* Removals of a chosen prefix fail too, but only if 'ops' says so. */
    ck_assert_status(asic_sim_fault_remove_prefix(fx_sw, fx_vr,
                                                  &bad.destination),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&bad, fx_nh[0]), SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_add_prefix(fx_sw, fx_vr, &bad.destination),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_route_api->remove_route_entry(&bad),
                     SAI_STATUS_FAILURE);
    sai_attribute_t a = attr_s32(SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,
                                 SAI_PACKET_ACTION_DROP);
    ck_assert_status(fx_route_api->set_route_entry_attribute(&bad, &a),
                     SAI_STATUS_FAILURE);

    struct asic_sim_fault f;
    memset(&f, 0, sizeof f);
    f.ops = ASIC_SIM_FAULT_ROUTE_CREATE;
    ck_assert_status(asic_sim_fault_set(fx_sw, &f), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_route_api->set_route_entry_attribute(&bad, &a),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(fx_route_api->remove_route_entry(&bad),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_remove_prefix(fx_sw, fx_vr,
                                                  &bad.destination),
                     SAI_STATUS_SUCCESS);
    ck_assert_status(asic_sim_fault_remove_prefix(fx_sw, fx_vr,
                                                  &bad.destination),
                     SAI_STATUS_ITEM_NOT_FOUND);
    ck_assert_status(asic_sim_fault_clear(fx_sw), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_route(&bad6, fx_nh[0]), SAI_STATUS_SUCCESS);
}
END_TEST

static double
now_sec(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

START_TEST(test_fault_delay_and_objects)
{
    enum { N = 20 };
    sai_route_entry_t entries[N];
    sai_attribute_t attrs[N];
    const sai_attribute_t *lists[N];
    uint32_t counts[N];
    sai_status_t st[N];
    struct asic_sim_fault f;

    memset(&f, 0, sizeof f);
    f.delay_usec = 1000;
    ck_assert_status(asic_sim_fault_set(fx_sw, &f), SAI_STATUS_SUCCESS);
    fx_make_bulk(entries, attrs, lists, counts, N);
    double start = now_sec();
    ck_assert_status(fx_route_api->create_route_entries(
                         N, entries, counts, lists,
                         SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR, st),
                     SAI_STATUS_SUCCESS);
    double elapsed = now_sec() - start;
    ck_assert_msg(elapsed >= N * 1e-3, "bulk took %.6f s", elapsed);

    struct asic_sim_stats stats;
    ck_assert_status(asic_sim_stats_get(fx_sw, &stats), SAI_STATUS_SUCCESS);
    ck_assert_uint_eq(stats.delay_usec, N * 1000);

    /* Faults on other objects, only with ASIC_SIM_FAULT_OBJECTS. */
    sai_object_id_t g;
    f.delay_usec = 0;
    f.rate = 1;
    ck_assert_status(asic_sim_fault_set(fx_sw, &f), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_create_group(&g), SAI_STATUS_SUCCESS);
    f.ops = ASIC_SIM_FAULT_OBJECTS;
    ck_assert_status(asic_sim_fault_set(fx_sw, &f), SAI_STATUS_SUCCESS);
    ck_assert_status(fx_nhg_api->remove_next_hop_group(g), SAI_STATUS_FAILURE);
    ck_assert_status(fx_create_group(&g), SAI_STATUS_FAILURE);
    ck_assert_status(fx_route_api->remove_route_entry(&entries[0]),
                     SAI_STATUS_SUCCESS);
}
END_TEST

Suite *
asic_sim_fault_suite(void)
{
    Suite *s = suite_create("asic_sim_fault");
    TCase *tc = tcase_create("asic_sim_fault");

    tcase_add_checked_fixture(tc, fx_setup, fx_teardown);
    tcase_add_test(tc, test_fault_rate);
    tcase_add_test(tc, test_fault_prefixes);
    tcase_add_test(tc, test_fault_delay_and_objects);
    suite_add_tcase(s, tc);
    return s;
}
