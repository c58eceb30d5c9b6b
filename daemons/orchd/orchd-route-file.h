/*
 * Copyright (c) 2026 The fibsync authors.
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

#ifndef ORCHD_ROUTE_FILE_H
#define ORCHD_ROUTE_FILE_H 1

/* orchd-route-file: Route and Asic_Route read from the database file.
 *
 * Without a Route replica (orchd's --routes-from-file,
 * orchd-route-monitor.h), orchd reads the rows it starts from out of
 * ovsdb-server's standalone database file (lib/ovsdb-file-replay.h), as
 * route-check does: at a million routes a few seconds of orchd's CPU and
 * none of the server's, against 30 s and more of the server composing
 * replies and selects.  What the file holds is what the server committed
 * (ovsdb/log.c writes each transaction before it answers or tells a
 * monitor), which is what orchd_route_monitor_needs_read() asks for.
 *
 * Asic_Route's rows of one ASIC instance are read too, when asked for, in
 * place of the selects of orchd-asic-read.h; with a Route replica
 * (--asic-from-file) they are the only rows read.
 *
 * Thread safety: none. */

#include <stddef.h>
#include "openvswitch/compiler.h"

struct orchd_asic_row;
struct orchd_route_row;

/* Called with each Route row, and each Asic_Route row of the instance. */
typedef void orchd_route_file_route_cb(void *aux,
                                       const struct orchd_route_row *);
typedef void orchd_route_file_asic_cb(void *aux,
                                      const struct orchd_asic_row *);

/* What a read found. */
struct orchd_route_file_stats {
    size_t routes;              /* Route rows passed on. */
    size_t asic_rows;           /* Asic_Route rows of the instance passed
                                 * on. */
    size_t bad_rows;            /* Rows of an unexpected form, ignored. */
    long long int ms;           /* Time taken. */
};

char *orchd_route_file_read(const char *file, int instance,
                            orchd_route_file_route_cb *,
                            orchd_route_file_asic_cb *, void *aux,
                            struct orchd_route_file_stats *)
    OVS_WARN_UNUSED_RESULT;

#endif /* orchd-route-file.h */
