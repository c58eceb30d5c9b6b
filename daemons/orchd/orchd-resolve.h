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
 * orchd-resolve: a route into the SAI entry it programs, the one step
 * every route source takes (orchd-source.h).
 *
 * A route (struct orchd_route_row, whichever source read it) becomes an
 * entry: dropped (blackhole), trapped (no next hop), or forwarded through
 * its next hops or its next-hop group's members.  A prefix that is not
 * canonical text, or a VRF that no Vrf row names, is refused, and the
 * route's status says why; a route through a group that is unknown or
 * empty waits for it.  orchd_resolve_process() then hands the entry to
 * the worker, or removes the one a refused route had.
 */

#ifndef ORCHD_RESOLVE_H
#define ORCHD_RESOLVE_H 1

#include <stdbool.h>
#include <stdint.h>

#include "daemons/orchd/orchd-status.h"

struct fib_prefix;
struct fibrec_route;
struct orchd;
struct orchd_entry;
struct orchd_route_row;
struct sset;
struct uuid;

/* What orchd_resolve_process() did with a route. */
enum orchd_route_outcome {
    ORCHD_ROUTE_SENT,           /* To the worker. */
    ORCHD_ROUTE_WAITING,        /* For its next-hop group. */
    ORCHD_ROUTE_REFUSED,        /* Refused, with an error in its status. */
};

bool orchd_resolve_vrf_is_known(const struct orchd *, const char *vrf);
bool orchd_resolve_read_vrfs(struct orchd *, bool force,
                             struct sset *changed);
void orchd_resolve_row_from_idl(const struct fibrec_route *,
                                struct orchd_route_row *);

struct orchd_entry *orchd_resolve_group_entry(struct orchd *,
                                              const char *vrf,
                                              const struct fib_prefix *,
                                              int64_t id, bool *waiting);
struct orchd_entry *orchd_resolve_build_entry(struct orchd *,
                                              const struct orchd_route_row *,
                                              bool *waiting, char **error);
struct orchd_entry *orchd_resolve_route(struct orchd *,
                                        const struct orchd_route_row *,
                                        enum orchd_refusal *why,
                                        char **error);
struct orchd_entry *orchd_resolve_show(void *orchd,
                                       const struct fibrec_route *);
bool orchd_resolve_asic_key(const struct orchd *,
                            const struct orchd_route_row *, struct uuid *);

enum orchd_route_outcome orchd_resolve_process(
    struct orchd *, const struct orchd_route_row *, struct uuid *key);
enum orchd_route_outcome orchd_resolve_process_idl(
    struct orchd *, const struct fibrec_route *, struct uuid *key);
enum orchd_route_outcome orchd_resolve_submit(struct orchd *,
                                              const struct uuid *route_uuid,
                                              struct orchd_entry *,
                                              bool waiting);
void orchd_resolve_delete(struct orchd *, const struct uuid *route_uuid,
                          const struct uuid *key);
void orchd_resolve_count_bad(struct orchd *);

#endif /* orchd-resolve.h */
