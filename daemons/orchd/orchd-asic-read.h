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

#ifndef ORCHD_ASIC_READ_H
#define ORCHD_ASIC_READ_H 1

/* orchd-asic-read: orchd's start-up read of its Asic_Route rows when it
 * keeps no replica of them (the southbound fast path).
 *
 * orchd must learn at start what Asic_Route already holds, so that a
 * restart neither removes nor re-adds a route that is already right.  On
 * the OVSDB path the IDL replica of Asic_Route, which orchd keeps anyway,
 * tells it.  On the southbound fast path orchd keeps no such replica, and
 * building one only to read it once would cost a row of IDL memory per
 * route on top of the JSON tree of the monitor's first reply (about 1.5 kB
 * a route, +67% of orchd's steady RSS at a million routes).  So the rows
 * are read instead a row at a time and handed to the caller as they
 * arrive: memory stays at one row plus a read buffer.
 *
 * They are read in slices of their 'seq' column (orchd's write counter,
 * unique to each row), through lib/ovsdb-slice-reader.h, one slice at a
 * time: ovsdb-server builds the whole reply of a select before it sends
 * it, and a single select of a million rows raised its RSS 1.6x over
 * steady (3,747 MB against 2,340 MB) while orchd restarted.
 *
 * Use: create, then call run() and wait() from the main loop until run()
 * returns other than RUNNING, then destroy.
 *
 * Thread safety: none; a reader belongs to one thread. */

#include <stddef.h>
#include <stdint.h>
#include "lib/ovsdb-slice-reader.h"
#include "openvswitch/uuid.h"

/* Seq values (so at most rows) per select of the read, by default
 * (orchd's --asic-read-slice).  Each select is a scan of the whole table
 * in ovsdb-server (seq has no index), 0.3-0.8 s of its CPU at a million
 * rows even when it matches none: 50,000 (route-check's --slice) made
 * orchd's read of a million rows 26 scans and 22-24 s, which a restart
 * waits for.  After a settled million-route load the seqs span about
 * 1.7 million values: 200,000 made 9 slices, 400,000 makes 5, and cut
 * the server's CPU for the read from 15.4 to 13.2 s (medians of 3, side
 * by side) while its peak rose from 1.13x to 1.25x its steady size, a
 * slice's reply being about 1.4 kB a row until it is sent
 * (docs/PERFORMANCE.md). */
#define ORCHD_ASIC_READ_SLICE 400000

/* One Asic_Route row, as read.  Valid only during the callback.  A read
 * of acknowledgements alone (orchd_asic_read_create_acks()) leaves 'vrf',
 * 'prefix', 'packet_action' and the next hops unset. */
struct orchd_asic_row {
    struct uuid uuid;           /* Row UUID. */
    const char *vrf;            /* "vrf". */
    const char *prefix;         /* "prefix", as written. */
    const char *packet_action;  /* "packet_action". */
    const char **nh_keys;       /* "nexthops" keys... */
    const int64_t *nh_weights;  /* ...and their weights. */
    size_t n_nexthops;          /* Pairs in "nexthops". */
    int64_t seq;                /* "seq". */
    int64_t applied_seq;        /* "applied_seq". */
    const char *state;          /* "state", or NULL if unset. */
    const char *error;          /* "error", or NULL if unset. */
};

/* Called with each row of the read. */
typedef void orchd_asic_read_cb(void *aux, const struct orchd_asic_row *);

struct orchd_asic_read *orchd_asic_read_create(const char *remote,
                                               int instance, int64_t slice,
                                               orchd_asic_read_cb *,
                                               void *aux);
struct orchd_asic_read *orchd_asic_read_create_acks(const char *remote,
                                                    int instance,
                                                    int64_t slice,
                                                    int64_t min_seq,
                                                    orchd_asic_read_cb *,
                                                    void *aux);
void orchd_asic_read_destroy(struct orchd_asic_read *);
enum ovsdb_select_reader_state orchd_asic_read_run(struct orchd_asic_read *);
void orchd_asic_read_wait(struct orchd_asic_read *);
const char *orchd_asic_read_error(const struct orchd_asic_read *);
size_t orchd_asic_read_n_rows(const struct orchd_asic_read *);
size_t orchd_asic_read_n_bad(const struct orchd_asic_read *);
size_t orchd_asic_read_n_slices(const struct orchd_asic_read *);
size_t orchd_asic_read_n_probes(const struct orchd_asic_read *);
size_t orchd_asic_read_max_slice_rows(const struct orchd_asic_read *);

#endif /* orchd-asic-read.h */
