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

#ifndef ROUTE_STATUS_H
#define ROUTE_STATUS_H 1

/* route-status: the keys of Route.status that fibsync writes, and the
 * OVSDB operation text that writes them.
 *
 * A route's outcome goes into its Route row's status map, one key at a
 * time, never by rewriting the whole column, so that keys others write are
 * left alone:
 *
 *   programmed   status:offload=true, and no "error" key;
 *   failed       status:error=TEXT, and no "offload" key;
 *   cleared      no "error" key ("offload" as it was).
 *
 * orchd writes them on the OVSDB path without a Route replica
 * (daemons/orchd/orchd-status.h), fpmsyncd on the northbound fast path
 * (daemons/fpmsyncd/fpmsyncd-status.h).  Both build the text here, so
 * both write the same mutates.  The mutates delete the keys that must go
 * whether the row has them or not: the writer does not know what the row
 * holds.
 *
 * Thread safety: every function is thread-safe; no state. */

struct ds;
struct uuid;

/* The keys. */
#define ROUTE_STATUS_OFFLOAD "offload" /* "true" once programmed. */
#define ROUTE_STATUS_ERROR "error"     /* Why programming failed. */

void route_status_put_map(struct ds *, const char *error);

void route_status_put_offload(struct ds *ops, const struct uuid *route);
void route_status_put_error(struct ds *ops, const struct uuid *route,
                            const char *error);
void route_status_put_clear(struct ds *ops, const struct uuid *route);

#endif /* route-status.h */
