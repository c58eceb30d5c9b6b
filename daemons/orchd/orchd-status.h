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
 * orchd-status: Route.status written back through orchd's replica, on the
 * OVSDB northbound path (on the northbound fast path fpmsyncd writes it,
 * fpmsyncd-status.h).
 *
 * Two kinds of news end up there, always by partial map mutates (one key
 * at a time, never a whole-column rewrite):
 *
 *   - the worker's results: "offload=true" for a route programmed (the
 *     worker reports those only with FIB suppression on), "error=REASON"
 *     for one that failed;
 *
 *   - orchd's own refusals of Route rows it cannot read, which never reach
 *     the worker: "error=REASON" for a prefix that is not canonical text or
 *     a VRF that no Vrf row names.  orchd remembers each route it refused,
 *     and why, until the route is accepted (its "error" key is then
 *     deleted) or deleted, so that a route refused again for the same
 *     reason is neither written nor counted twice.
 *
 * Writes go in transactions of at most 5,000 routes, one in flight at a
 * time; the writes of a transaction that failed are queued again.
 *
 * Without a replica of Route (orchd_status_create_raw(), orchd's
 * --routes-from-file) each write is a mutate of the row named by its
 * UUID, sent through a writer of its own (lib/ovsdb-writer.h): the keys
 * that must go are deleted whether the row has them or not, and a row
 * deleted meanwhile is simply not matched.  A transaction lost with its
 * connection is written again; one the server refused is not.
 *
 * Thread safety: none; orchd's main thread owns it.
 */

#ifndef ORCHD_STATUS_H
#define ORCHD_STATUS_H 1

#include <stddef.h>
#include <stdint.h>

struct ds;
struct ovs_list;
struct ovsdb_idl;
struct uuid;

/* Why orchd refuses a Route row. */
enum orchd_refusal {
    ORCHD_REFUSE_BAD_PREFIX,    /* Not a prefix in canonical text. */
    ORCHD_REFUSE_UNKNOWN_VRF,   /* No Vrf row names its VRF. */
    ORCHD_N_REFUSALS
};

struct orchd_status *orchd_status_create(struct ovsdb_idl *);
struct orchd_status *orchd_status_create_raw(const char *remote);
void orchd_status_destroy(struct orchd_status *);

void orchd_status_add_results(struct orchd_status *, struct ovs_list *);
void orchd_status_refuse(struct orchd_status *, const struct uuid *route,
                         enum orchd_refusal, char *error);
void orchd_status_accept(struct orchd_status *, const struct uuid *route);
void orchd_status_forget(struct orchd_status *, const struct uuid *route);

void orchd_status_mute(struct orchd_status *);
void orchd_status_run(struct orchd_status *);
void orchd_status_wait(struct orchd_status *);

void orchd_status_format(const struct orchd_status *, struct ds *);

#endif /* orchd-status.h */
