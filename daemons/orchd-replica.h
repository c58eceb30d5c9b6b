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
 * orchd-replica: what orchd replicates of the Fibsync database, and the
 * replicas it drops on the fast path.
 *
 * On the OVSDB path orchd's IDL replicates Global, Vrf, Route (without
 * its on-demand "counters" and its "external_ids"), Nexthop_Group and
 * Asic_Route.  On the northbound fast path routes come from fpmsyncd, so
 * the Route and Nexthop_Group replicas go (orchd-northbound.h); on the
 * southbound fast path orchd only writes Asic_Route, so once the initial
 * sync has read it, its replica goes too: it would only echo each of
 * orchd's own writes back, a monitor update and a row of memory a route.
 * Of Asic_Route, orchd only ever sees its own ASIC instance's rows.
 *
 * Thread safety: the main thread's, as the IDL.
 */

#ifndef ORCHD_REPLICA_H
#define ORCHD_REPLICA_H 1

struct ovsdb_idl;

void orchd_replica_register(struct ovsdb_idl *);
void orchd_replica_select_instance(struct ovsdb_idl *, int instance);
void orchd_replica_drop_asic_route(struct ovsdb_idl *);

#endif /* daemons/orchd-replica.h */
