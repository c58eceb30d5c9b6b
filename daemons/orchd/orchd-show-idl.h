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

#ifndef ORCHD_SHOW_IDL_H
#define ORCHD_SHOW_IDL_H 1

/* orchd-show-idl: fib/show's routes from orchd's IDL replica of Route.
 *
 * With a replica of Route (orchd's default without --routes-from-file),
 * "show ip route" looks routes up and walks them through the compound
 * indexes over the replica (idl/route-index.h: a (vrf, prefix) OVS IDL
 * index whose comparators compare binary prefixes), resolves each as
 * orchd would, and fetches Route.counters through the IDL's on-demand
 * columns (idl/idl-ondemand.h).  See orchd-show.h.
 *
 * Thread safety: like the IDL. */

struct fibrec_route;
struct orchd_entry;
struct ovsdb_idl;
struct route_index;

/* Resolves a Route row into the SAI entry orchd would program (a new
 * reference), or NULL if it cannot be resolved. */
typedef struct orchd_entry *orchd_show_resolve_func(
    void *aux, const struct fibrec_route *);

struct orchd_show_source *orchd_show_idl_create(struct ovsdb_idl *,
                                                struct route_index *,
                                                orchd_show_resolve_func *,
                                                void *aux);

#endif /* orchd-show-idl.h */
