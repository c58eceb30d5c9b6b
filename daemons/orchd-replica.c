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

/* Replicates only the tables and columns orchd reads. */
void
orchd_replica_register(struct ovsdb_idl *idl)
{
    ovsdb_idl_add_table(idl, &fibrec_table_global);
    for (size_t i = 0; i < FIBREC_GLOBAL_N_COLUMNS; i++) {
        ovsdb_idl_add_column(idl, &fibrec_global_columns[i]);
    }
    ovsdb_idl_add_table(idl, &fibrec_table_vrf);
    ovsdb_idl_add_column(idl, &fibrec_vrf_col_name);
    ovsdb_idl_add_column(idl, &fibrec_vrf_col_table_id);

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

    ovsdb_idl_add_table(idl, &fibrec_table_asic_route);
    ovsdb_idl_add_column(idl, &fibrec_asic_route_col_vrf);
    ovsdb_idl_add_column(idl, &fibrec_asic_route_col_prefix);
    ovsdb_idl_add_column(idl, &fibrec_asic_route_col_packet_action);
    ovsdb_idl_add_column(idl, &fibrec_asic_route_col_nexthops);
    ovsdb_idl_add_column(idl, &fibrec_asic_route_col_seq);
    ovsdb_idl_add_column(idl, &fibrec_asic_route_col_applied_seq);
    ovsdb_idl_add_column(idl, &fibrec_asic_route_col_state);
    ovsdb_idl_add_column(idl, &fibrec_asic_route_col_error);

    ovsdb_idl_track_add_all(idl);
}

/* Sets the condition of 'table' in 'idl' to "no row". */
static unsigned int
hold_table(struct ovsdb_idl *idl, const struct ovsdb_idl_table_class *table)
{
    struct ovsdb_idl_condition none = OVSDB_IDL_CONDITION_INIT(&none);
    unsigned int seqno = ovsdb_idl_set_condition(idl, table, &none);

    ovsdb_idl_condition_destroy(&none);
    return seqno;
}

/* Replicates no row of Route, Nexthop_Group and Asic_Route until
 * orchd_replica_load() says which are needed.  Call before the first
 * ovsdb_idl_run(), so that the first monitor request already asks for
 * none. */
void
orchd_replica_hold(struct ovsdb_idl *idl)
{
    hold_table(idl, &fibrec_table_route);
    hold_table(idl, &fibrec_table_nexthop_group);
    hold_table(idl, &fibrec_table_asic_route);
}

/* Starts replicating every row of Route and Nexthop_Group if 'routes' (the
 * northbound OVSDB path), and the Asic_Route rows of ASIC instance
 * 'instance' if 'asic' (the southbound OVSDB path; the other instances'
 * rows of the same routes are theirs to write and to acknowledge).
 * Returns the condition sequence number at which the IDL holds those rows
 * (ovsdb_idl_get_condition_seqno()). */
unsigned int
orchd_replica_load(struct ovsdb_idl *idl, bool routes, bool asic,
                   int instance)
{
    unsigned int seqno = ovsdb_idl_get_condition_seqno(idl);

    if (routes) {
        struct ovsdb_idl_condition all = OVSDB_IDL_CONDITION_INIT(&all);

        ovsdb_idl_condition_add_clause_true(&all);
        seqno = ovsdb_idl_set_condition(idl, &fibrec_table_route, &all);
        seqno = ovsdb_idl_set_condition(idl, &fibrec_table_nexthop_group,
                                        &all);
        ovsdb_idl_condition_destroy(&all);
    }
    if (asic) {
        struct ovsdb_idl_condition cond = OVSDB_IDL_CONDITION_INIT(&cond);

        fibrec_asic_route_add_clause_instance(&cond, OVSDB_F_EQ, instance);
        seqno = ovsdb_idl_set_condition(idl, &fibrec_table_asic_route,
                                        &cond);
        ovsdb_idl_condition_destroy(&cond);
    }
    return seqno;
}
