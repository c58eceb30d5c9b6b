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

#ifndef FPMSYNCD_VRF_H
#define FPMSYNCD_VRF_H 1

/* fpmsyncd's VRFs: kernel table ids, their names and their Vrf rows.
 *
 * zebra names a route's VRF by its kernel table id.  A Vrf row of the
 * database names the VRF of its table_id; a table that has none gets one,
 * "default" for 254, "table<N>" otherwise.  Routes refer to their VRF by
 * index, so that a route costs two bytes for it.
 *
 * Part of the rib (daemons/fpmsyncd/fpmsyncd-rib.h); thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/route-batch.h"

struct ds;
struct fpmd_rib;

/* A VRF: a kernel table id and its name. */
struct fpmd_vrf {
    struct route_batch_entry be; /* Its Vrf row. */
    char *name;                 /* Vrf.name. */
    char *name_json;            /* 'name' as a quoted JSON string. */
    int64_t table;              /* Kernel table id, -1 if unknown. */
    size_t n_routes;            /* Routes in this VRF. */
    uint16_t idx;               /* Index in the table's 'all'. */
    bool warned;                /* Logged a naming conflict already. */
};

/* The rib's VRFs. */
struct fpmd_vrf_table {
    struct fpmd_vrf **all;      /* All VRFs, by index. */
    size_t n;                   /* Number of 'all'. */
    size_t allocated;           /* Capacity of 'all'. */
    struct fpmd_vrf *last;      /* Last VRF found by table id. */
};

void fpmd_vrf_table_init(struct fpmd_vrf_table *);
void fpmd_vrf_table_destroy(struct fpmd_vrf_table *);

/* Lookups. */
struct fpmd_vrf *fpmd_vrf_by_name(const struct fpmd_vrf_table *,
                                  const char *name);
struct fpmd_vrf *fpmd_vrf_by_table__(struct fpmd_vrf_table *, int64_t table);

/* Returns the VRF of kernel table 'table', or NULL if there is none. */
static inline struct fpmd_vrf *
fpmd_vrf_by_table(struct fpmd_vrf_table *t, int64_t table)
{
    return (t->last && t->last->table == table
            ? t->last : fpmd_vrf_by_table__(t, table));
}

/* Returns the VRF with index 'idx'. */
static inline struct fpmd_vrf *
fpmd_vrf_get(const struct fpmd_vrf_table *t, uint16_t idx)
{
    return t->all[idx];
}

/* VRFs that routes need. */
struct fpmd_vrf *fpmd_vrf_for_table(struct fpmd_rib *, uint32_t table);
struct fpmd_vrf *fpmd_vrf_for_name(struct fpmd_rib *, const char *name);

/* Vrf rows read from the database (its configuration monitor). */
void fpmd_vrf_row(struct fpmd_rib *, const char *name, int64_t table);
void fpmd_vrf_sync_begin(struct fpmd_rib *);
void fpmd_vrf_sync_end(struct fpmd_rib *);

void fpmd_vrf_format(const struct fpmd_vrf_table *, struct ds *);

#endif /* fpmsyncd-vrf.h */
