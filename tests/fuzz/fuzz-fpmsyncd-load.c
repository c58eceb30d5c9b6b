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

/* fuzz-fpmsyncd-load: the database read fpmsyncd does at start.
 *
 * fpmsyncd reads the Nexthop_Group rows in one select
 * (fpmd_rib_load_nhg_params()) and then the Route rows in slices of
 * Route.bucket, each slice a select of its own.  The input stands for both
 * in one reply of two selects, as ovsdb-server would send it:
 *
 *   {"id":0,"result":[{"rows":[NHG,...]},{"rows":[ROUTE,...]}],
 *    "error":null}
 *
 * It goes through the select scanner (lib/ovsdb-select-scanner.h) in
 * reads of varying size, as lib/ovsdb-select-reader.c feeds it, and each
 * row the scanner splits off through fpmd_rib_load_row(), into an empty
 * rib: the row parsers of Nexthop_Group and Route (members, next hops,
 * prefix, status, UUIDs).  A reply the scanner takes whole ends the load
 * (fpmd_rib_load_end()), as in fpmsyncd. */

#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "daemons/fpmsyncd/fpmsyncd-status.h"
#include "lib/ovsdb-select-scanner.h"
#include "openvswitch/vlog.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Called once by libFuzzer: silences the rib's warnings about bad rows,
 * which would be most of the output. */
int
LLVMFuzzerInitialize(int *argc OVS_UNUSED, char ***argv OVS_UNUSED)
{
    vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_OFF);
    return 0;
}

/* Interface names without asking the kernel. */
static const char *
test_ifname(uint32_t ifindex, char *buf, size_t size)
{
    snprintf(buf, size, "if%"PRIu32, ifindex);
    return buf;
}

/* The input's selects: its Nexthop_Group rows, then its Route rows. */
enum { SELECT_NHG, SELECT_ROUTE, N_SELECTS };

/* The scanner's callback: one row into the rib, as fpmsyncd-db.c's
 * load_nhg_row_cb() and load_route_row_cb() do. */
static void
row_cb(int select_idx, const struct json *row, void *rib)
{
    fpmd_rib_load_row(rib, (select_idx == SELECT_NHG ? FPMD_LOAD_NHG
                            : FPMD_LOAD_ROUTE), row);
}

/* Loads the reply in 'data' into a new rib, in reads of 1 to 4,093 bytes
 * (the size depends on the input's length, so that the fuzzer explores
 * read boundaries as it mutates). */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t read_size = 1 + size % 4093;
    struct fpmd_rib *rib = fpmd_rib_create(test_ifname);
    struct ovsdb_select_scanner scanner;
    char *error = NULL;

    fpmd_offload_attach(rib);
    fpmd_status_attach(rib);

    fpmd_rib_load_begin(rib);
    ovsdb_select_scanner_init(&scanner);
    for (size_t ofs = 0; ofs < size && !error && !scanner.done;
         ofs += read_size) {
        error = ovsdb_select_scanner_feed(&scanner, data + ofs,
                                          MIN(read_size, size - ofs),
                                          row_cb, rib);
    }
    if (!error) {
        error = ovsdb_select_scanner_finish(&scanner, N_SELECTS);
    }
    if (!error) {
        fpmd_rib_load_end(rib);
        ovs_assert(fpmd_rib_is_loaded(rib));
    }
    free(error);
    ovsdb_select_scanner_destroy(&scanner);
    fpmd_rib_destroy(rib);
    return 0;
}
