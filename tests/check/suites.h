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
 * The Check suites run by tests/check-fibsync.  Each pure C module has a
 * suite in tests/check/test-<module>.c; add its constructor here, in the
 * FIBSYNC_SUITES list, and its file to tests/automake.mk.
 */

#ifndef SUITES_H
#define SUITES_H 1

#include <check.h>

/* X-macro list of suite constructors: each entry is SUITE(name), where
 * name_suite() returns the module's Suite. */
#define FIBSYNC_SUITES \
    SUITE(paths) \
    SUITE(setting) \
    SUITE(global_follower) \
    SUITE(ovsdb_wire) \
    SUITE(ovsdb_write_mark) \
    SUITE(ovsdb_file_replay) \
    SUITE(ovsdb_file_split) \
    SUITE(ovsdb_select_reader) \
    SUITE(ovsdb_slice_reader) \
    SUITE(route_frame) \
    SUITE(zmq_channel) \
    SUITE(route_key) \
    SUITE(route_status) \
    SUITE(route_compare) \
    SUITE(frr_route_json) \
    SUITE(route_batch) \
    SUITE(ptr_fifo) \
    SUITE(row_queue) \
    SUITE(fpmsyncd_rib) \
    SUITE(fpmsyncd_zmq) \
    SUITE(syncd_apply) \
    SUITE(syncd_marks) \
    SUITE(fib_prefix) \
    SUITE(fib_prefix_sort) \
    SUITE(spsc_ring) \
    SUITE(perf_timer) \
    SUITE(lpm) \
    SUITE(asic_sim) \
    SUITE(asic_sim_fault) \
    SUITE(asic_sim_lookup) \
    SUITE(fpm_frame) \
    SUITE(fpm_route) \
    SUITE(fpm_route_malformed) \
    SUITE(route_index) \
    SUITE(orchd_bulker) \
    SUITE(orchd_writebehind) \
    SUITE(orchd_route_table) \
    SUITE(syncd_nexthop_key) \
    SUITE(southbound)

#define SUITE(NAME) Suite *NAME##_suite(void);
FIBSYNC_SUITES
#undef SUITE

#endif /* suites.h */
