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
 * orchd-replica: what orchd replicates of the Fibsync database.
 */

#include <config.h>

#include "daemons/orchd-replica.h"

#include "idl/fibsync-idl.h"
#include "ovsdb-idl.h"

/* Replicates the Global row alone: what orchd reads to choose its paths,
 * before it knows which of the large tables to replicate
 * (orchd-replica.h). */
void
orchd_replica_register_global(struct ovsdb_idl *idl)
{
    ovsdb_idl_add_table(idl, &fibrec_table_global);
    for (size_t i = 0; i < FIBREC_GLOBAL_N_COLUMNS; i++) {
        ovsdb_idl_add_column(idl, &fibrec_global_columns[i]);
    }
}

static void register_routes(struct ovsdb_idl *);

/* Registers the tables orchd reads, their columns tracked: Route and
 * Nexthop_Group only if 'routes'. */
static void
register_tables(struct ovsdb_idl *idl, bool routes)
{
    orchd_replica_register_global(idl);
    ovsdb_idl_add_table(idl, &fibrec_table_vrf);
    ovsdb_idl_add_column(idl, &fibrec_vrf_col_name);
    ovsdb_idl_add_column(idl, &fibrec_vrf_col_table_id);

    if (routes) {
        register_routes(idl);
    }

    /* This adds every column of every table it tracks, those of the tables
     * not registered too: omit_table() takes them out again. */
    ovsdb_idl_track_add_all(idl);
}

/* Registers Route and Nexthop_Group. */
static void
register_routes(struct ovsdb_idl *idl)
{
    /* Route: never "counters" (on demand, written by syncd) nor
     * external_ids; "status" is written, not watched. */
    ovsdb_idl_add_table(idl, &fibrec_table_route);
    ovsdb_idl_add_column(idl, &fibrec_route_col_vrf);
    ovsdb_idl_add_column(idl, &fibrec_route_col_prefix);
    ovsdb_idl_add_column(idl, &fibrec_route_col_protocol);
    ovsdb_idl_add_column(idl, &fibrec_route_col_distance);
    ovsdb_idl_add_column(idl, &fibrec_route_col_metric);
    ovsdb_idl_add_column(idl, &fibrec_route_col_nexthops);
    ovsdb_idl_add_column(idl, &fibrec_route_col_nexthop_group);
    ovsdb_idl_add_column(idl, &fibrec_route_col_blackhole);
    ovsdb_idl_add_column(idl, &fibrec_route_col_status);
    ovsdb_idl_omit_alert(idl, &fibrec_route_col_status);

    ovsdb_idl_add_table(idl, &fibrec_table_nexthop_group);
    ovsdb_idl_add_column(idl, &fibrec_nexthop_group_col_id);
    ovsdb_idl_add_column(idl, &fibrec_nexthop_group_col_members);
}

/* Takes every column of 'tc' out of the replica, so that the table is not
 * monitored at all. */
static void
omit_table(struct ovsdb_idl *idl, const struct ovsdb_idl_table_class *tc)
{
    for (size_t i = 0; i < tc->n_columns; i++) {
        ovsdb_idl_omit(idl, &tc->columns[i]);
    }
}

/* Replicates the tables and columns orchd reads on the paths chosen:
 * Global and Vrf always; every row of Route and Nexthop_Group if 'routes'
 * (the northbound OVSDB path).  Asic_Route never (orchd-replica.h).  A
 * table not replicated is not monitored at all.  Call before the first
 * ovsdb_idl_run(). */
void
orchd_replica_register(struct ovsdb_idl *idl, bool routes)
{
    register_tables(idl, routes);
    if (!routes) {
        omit_table(idl, &fibrec_table_route);
        omit_table(idl, &fibrec_table_nexthop_group);
    }
    omit_table(idl, &fibrec_table_asic_route);
}
