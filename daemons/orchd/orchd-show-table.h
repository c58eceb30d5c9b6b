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

#ifndef ORCHD_SHOW_TABLE_H
#define ORCHD_SHOW_TABLE_H 1

/* orchd-show-table: fib/show's routes from orchd's own route table.
 *
 * Without a replica of Route (orchd --routes-from-file), orchd keeps each
 * route it programs in its route table (orchd-route-table.h), resolved,
 * with its protocol, distance and metric, under a (vrf, prefix) skiplist
 * index.  "show ip route" looks routes up and walks them through that
 * index; "detail" fetches Route.counters on demand, by a select of the
 * rows it prints over a connection of its own (opened at the first
 * "detail"), since there is no IDL row to fetch them into.  A route
 * waiting for its next-hop group shows as "next-hop group unknown".  See
 * orchd-show.h.
 *
 * The table and 'vrfs' belong to the caller and must outlive the source.
 *
 * Thread safety: none. */

struct orchd_route_table;
struct sset;

struct orchd_show_source *orchd_show_table_create(
    const struct orchd_route_table *, const struct sset *vrfs,
    const char *db_remote);

#endif /* orchd-show-table.h */
