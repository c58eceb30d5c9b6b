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

/* The rib's database load: reading the Nexthop_Group and Route rows
 * fpmsyncd owns into the rib at each (re)connection, and what the rib
 * knows of the load (daemons/fpmsyncd/fpmsyncd-rib.h, "The database
 * load").  Part of the rib, above fpmsyncd-rib.c's routes. */

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-rib.h"

#include <stdlib.h>

#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "daemons/fpmsyncd/fpmsyncd-rib-rows.h"
#include "hash.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd_rib);

/* The database load. */

/* Notes that the database connection was lost: the database must be read
 * again before the next write.  Every transaction in flight was already
 * failed by its writer callback (daemons/fpmsyncd/fpmsyncd-txn.h). */
void
fpmd_rib_db_lost(struct fpmd_rib *rib)
{
    rib->loaded = false;
}

/* Notes that the database connection is back and the database holds all
 * the rib believes but for the transactions that were in flight, which
 * were already queued again as unknown (lib/route-batch.h): writing may go
 * on without a load. */
void
fpmd_rib_db_kept(struct fpmd_rib *rib)
{
    ovs_assert(rib->first_load_done);
    rib->loaded = true;
}

bool
fpmd_rib_is_loaded(const struct fpmd_rib *rib)
{
    return rib->loaded;
}

/* Returns the "transact" parameters of the load's first read: the key and
 * content columns of every Nexthop_Group row (rows FPMD_LOAD_NHG).  The
 * Route rows (FPMD_LOAD_ROUTE) follow, read in slices of Route.bucket, with
 * the columns fpmd_rib_load_route_columns() names. */
struct json *
fpmd_rib_load_nhg_params(void)
{
    return json_array_create_2(json_string_create("Fibsync"),
                               ovsdb_wire_op_select("Nexthop_Group", NULL,
                                                    "_uuid id members"));
}

/* Returns the Route columns the load reads, space-separated: the key and
 * content columns (not counters, which are syncd's), and status too if
 * 'status': on the northbound fast path fpmsyncd writes it, and needs to
 * know what each row says (daemons/fpmsyncd/fpmsyncd-status.h). */
const char *
fpmd_rib_load_route_columns(bool status)
{
#define ROUTE_COLUMNS \
    "_uuid vrf prefix protocol metric nexthop_group nexthops blackhole"
    return status ? ROUTE_COLUMNS " status" : ROUTE_COLUMNS;
#undef ROUTE_COLUMNS
}

/* Returns the content hash of Route row 'row', or false if a column is
 * missing or of the wrong shape. */
static bool
load_route_hash(const struct json *row, uint32_t *hash)
{
    const struct shash *cols = json_object(row);
    const char *protocol = ovsdb_wire_get_string(shash_find_data(cols,
                                                                 "protocol"));
    const struct json *bh = shash_find_data(cols, "blackhole");
    int64_t metric = 0, nhg_id = 0;
    uint32_t members_hash;

    if (!protocol
        || !fpmd_nhset_hash_json(shash_find_data(cols, "nexthops"),
                                 &members_hash)) {
        return false;
    }
    ovsdb_wire_get_integer(shash_find_data(cols, "metric"), &metric);
    ovsdb_wire_get_integer(shash_find_data(cols, "nexthop_group"), &nhg_id);
    *hash = fpmd_route_row_hash(protocol, metric, nhg_id,
                           bh && bh->type == JSON_TRUE, members_hash);
    return true;
}

/* Returns the hash of what orchd programs of Route row 'row' (as
 * route_asic_hash() computes it for a route), or 0 if the row cannot say:
 * a route through a group whose row holds no resolved next hops, or drops
 * through it. */
static uint32_t
load_asic_hash(const struct fpmd_rib *rib, const struct json *row)
{
    const struct shash *cols = json_object(row);
    const struct json *bh = shash_find_data(cols, "blackhole");
    bool blackhole = bh && bh->type == JSON_TRUE;
    uint32_t members_hash;
    int64_t nhg_id = 0;

    ovsdb_wire_get_integer(shash_find_data(cols, "nexthop_group"), &nhg_id);
    if ((nhg_id && (!rib->resolve || blackhole))
        || !fpmd_nhset_hash_json(shash_find_data(cols, "nexthops"),
                                 &members_hash)) {
        return 0;
    }
    return hash_int(blackhole, members_hash);
}

/* Takes in one Route row read from the database. */
static void
load_route(struct fpmd_rib *rib, const struct json *row)
{
    const struct shash *cols = json_object(row);
    const char *vrf_name = ovsdb_wire_get_string(shash_find_data(cols,
                                                                 "vrf"));
    const char *prefix_s = ovsdb_wire_get_string(shash_find_data(cols,
                                                                 "prefix"));
    struct fib_prefix prefix;
    struct fpmd_route *r;
    struct fpmd_vrf *vrf;
    struct uuid u, expected;
    uint32_t hash, row_asic_hash;
    char *error;

    if (!vrf_name || !prefix_s
        || !ovsdb_wire_get_uuid(shash_find_data(cols, "_uuid"), &u)
        || !load_route_hash(row, &hash)) {
        rib->stats.load_bad++;
        return;
    }
    error = fib_prefix_parse(prefix_s, &prefix);
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

        VLOG_WARN_RL(&rl, "Route row "UUID_FMT": %s", UUID_ARGS(&u), error);
        free(error);
        rib->stats.load_bad++;
        return;
    }

    vrf = fpmd_vrf_for_name(rib, vrf_name);
    r = fpmd_route_find(rib, vrf->idx, &prefix);
    row_asic_hash = load_asic_hash(rib, row);
    if (!r) {
        r = fpmd_route_create(rib, vrf, &prefix);
        r->be.flags |= FPMD_F_NO_CONTENT;
        /* What orchd holds of it, as the row says: zebra's replay of it
         * with only a new metric or protocol changes nothing there, and
         * orchd answers nothing (fpmd_route_refresh()). */
        r->asic_hash = row_asic_hash;
    }
    /* What the row holds now, for a route fpmsyncd held already too: a
     * write lost with the connection may never have committed.  A row
     * that names its group without its members cannot say: if it holds
     * what fpmsyncd wants, the route's own value holds for it. */
    r->row_asic_hash = row_asic_hash;
    if (!r->row_asic_hash && r->be.want && r->be.want_hash == hash) {
        r->row_asic_hash = r->asic_hash;
    }
    route_key_route_uuid(vrf_name, &prefix, &expected);
    fpmd_rib_load_found(rib, &r->be, hash, &u, &expected);
    FPMD_RIB_NOTIFY(rib, load_route, r, row);
    rib->stats.load_routes++;
}

/* Starts reading the database state, the rows of fpmd_rib_load_nhg_params()
 * and then of fpmd_rib_load_route_columns(), row by row with
 * fpmd_rib_load_row(), until fpmd_rib_load_end().  No transaction may be
 * in flight. */
void
fpmd_rib_load_begin(struct fpmd_rib *rib)
{
    struct fpmd_route *r;

    ovs_assert(!rib->batch.rq.n_inflight);
    rib->loaded = false;
    /* An earlier load may have been cut short. */
    HMAP_FOR_EACH (r, node, &rib->routes) {
        r->be.flags &= ~FPMD_F_SEEN;
        FPMD_RIB_NOTIFY(rib, load_begin, r);
    }
    fpmd_nh_load_begin(rib);
}

/* Takes in one row of select 'select_idx' (FPMD_LOAD_NHG or
 * FPMD_LOAD_ROUTE) of the load. */
void
fpmd_rib_load_row(struct fpmd_rib *rib, int select_idx,
                  const struct json *row)
{
    if (row->type != JSON_OBJECT) {
        rib->stats.load_bad++;
    } else if (select_idx == FPMD_LOAD_NHG) {
        fpmd_nh_load_row(rib, row);
    } else if (select_idx == FPMD_LOAD_ROUTE) {
        load_route(rib, row);
    }
}

/* Ends the load: what fpmsyncd believed in the database but was not there
 * is queued again (or forgotten, if fpmsyncd only mirrored it), and
 * writing may start. */
void
fpmd_rib_load_end(struct fpmd_rib *rib)
{
    struct fpmd_route *r;

    HMAP_FOR_EACH_SAFE (r, node, &rib->routes) {
        fpmd_rib_load_settle(rib, &r->be);
    }
    fpmd_nh_load_end(rib);
    rib->loaded = true;
    if (!rib->first_load_done) {
        rib->first_load_done = true;
        rib->replay_pending = !hmap_is_empty(&rib->routes);
    }
}

/* True if fpmsyncd restarted with routes in the database and zebra's
 * replay has not been reconciled yet: until then the rib does not hold
 * every route zebra has (the database, written behind on the fast path,
 * may lack the newest), so the fast path must not tell orchd to remove
 * what the rib does not name. */
bool
fpmd_rib_replay_pending(const struct fpmd_rib *rib)
{
    return rib->replay_pending;
}
