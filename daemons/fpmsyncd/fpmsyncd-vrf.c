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

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-vrf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "hash.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(fpmsyncd_vrf);

void
fpmd_vrf_table_init(struct fpmd_vrf_table *t)
{
    memset(t, 0, sizeof *t);
}

void
fpmd_vrf_table_destroy(struct fpmd_vrf_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->all[i]->name);
        free(t->all[i]->name_json);
        free(t->all[i]);
    }
    free(t->all);
}

/* Returns the content hash of the Vrf row ('name', 'table'). */
static uint32_t
vrf_row_hash(const char *name, int64_t table)
{
    return hash_string(name, hash_uint64(table));
}

static void
vrf_set_name(struct fpmd_vrf *vrf, const char *name)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    free(vrf->name);
    free(vrf->name_json);
    vrf->name = xstrdup(name);
    json_string_escape(name, &s);
    vrf->name_json = ds_steal_cstr(&s);
}

/* Adds a VRF 'name' of kernel table 'table' (-1 if unknown) to 't'. */
static struct fpmd_vrf *
vrf_create(struct fpmd_vrf_table *t, const char *name, int64_t table)
{
    struct fpmd_vrf *vrf = xzalloc(sizeof *vrf);

    ovs_assert(t->n < UINT16_MAX);
    route_batch_entry_init(&vrf->be);
    vrf->be.tag = FPMD_VRF;
    vrf_set_name(vrf, name);
    vrf->table = table;
    vrf->idx = t->n;
    if (t->n >= t->allocated) {
        t->all = x2nrealloc(t->all, &t->allocated, sizeof *t->all);
    }
    t->all[t->n++] = vrf;
    return vrf;
}

struct fpmd_vrf *
fpmd_vrf_by_name(const struct fpmd_vrf_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++) {
        if (!strcmp(t->all[i]->name, name)) {
            return t->all[i];
        }
    }
    return NULL;
}

/* The slow path of fpmd_vrf_by_table(). */
struct fpmd_vrf *
fpmd_vrf_by_table__(struct fpmd_vrf_table *t, int64_t table)
{
    for (size_t i = 0; i < t->n; i++) {
        if (t->all[i]->table == table) {
            t->last = t->all[i];
            return t->all[i];
        }
    }
    return NULL;
}

/* Returns the VRF of kernel table 'table': the one a Vrf row names, or
 * else a new one ("default" for 254, "table<N>" otherwise) whose Vrf row
 * is queued for insertion. */
struct fpmd_vrf *
fpmd_vrf_for_table(struct fpmd_rib *rib, uint32_t table)
{
    struct fpmd_vrf_table *t = &rib->vrfs;
    struct fpmd_vrf *vrf = fpmd_vrf_by_table(t, table);

    if (!vrf) {
        char buf[ROUTE_KEY_VRF_NAMELEN];
        const char *name = route_key_table_vrf_name(table, buf);
        char *alt = NULL;

        vrf = fpmd_vrf_by_name(t, name);
        if (vrf && vrf->table < 0) {
            /* Known from Route rows read from the database. */
            vrf->table = table;
        } else {
            if (vrf) {
                /* A Vrf row gave the name to another table.  Two VRFs of
                 * one name would give their routes the same row UUIDs:
                 * the first free "NAME-K" instead. */
                for (int k = 2; fpmd_vrf_by_name(t, name); k++) {
                    free(alt);
                    name = alt = xasprintf("%s-%d", buf, k);
                }
                VLOG_WARN("table %"PRIu32": VRF name %s is taken by table "
                          "%"PRId64": calling it %s", table, buf,
                          vrf->table, name);
            }
            vrf = vrf_create(t, name, table);
        }
        free(alt);
        rib->stats.vrf_created++;
        VLOG_INFO("table %"PRIu32" is VRF %s (no Vrf row: adding one)",
                  table, vrf->name);
        route_batch_set(&rib->batch, &vrf->be,
                        vrf_row_hash(vrf->name, table));
        t->last = vrf;
    }
    return vrf;
}

/* Returns the VRF named 'name', as a Route row read from the database
 * names it, creating it if needed: with the table its name implies
 * ("default" is 254, "table<N>" is N) unless another VRF has that table,
 * otherwise with no table until a Vrf row or zebra tells. */
struct fpmd_vrf *
fpmd_vrf_for_name(struct fpmd_rib *rib, const char *name)
{
    struct fpmd_vrf *vrf = fpmd_vrf_by_name(&rib->vrfs, name);

    if (!vrf) {
        int64_t table = -1;
        unsigned int n;
        int pos;

        if (!strcmp(name, ROUTE_KEY_DEFAULT_VRF)) {
            table = ROUTE_KEY_MAIN_TABLE;
        } else if (sscanf(name, "table%u%n", &n, &pos) == 1 && !name[pos]) {
            table = n;
        }
        if (table >= 0 && fpmd_vrf_by_table(&rib->vrfs, table)) {
            table = -1;
        }
        vrf = vrf_create(&rib->vrfs, name, table);
    }
    return vrf;
}

/* Renames 'vrf', whose table a Vrf row calls 'name', if nothing was
 * written under its old name.  Returns false if it cannot be. */
static bool
vrf_rename(struct fpmd_vrf *vrf, const char *name)
{
    if (!vrf->n_routes && !vrf->be.queued && !vrf->be.n_inflight) {
        VLOG_INFO("table %"PRId64" is VRF %s (was %s)",
                  vrf->table, name, vrf->name);
        vrf_set_name(vrf, name);
        return true;
    }
    if (!vrf->warned) {
        VLOG_WARN("table %"PRId64": Vrf row names it %s, but its "
                  "routes are already in VRF %s; restart fpmsyncd "
                  "to follow the rename", vrf->table, name, vrf->name);
        vrf->warned = true;
    }
    return false;
}

/* Records Vrf row 'name' with table id 'table', as read from the
 * database. */
void
fpmd_vrf_row(struct fpmd_rib *rib, const char *name, int64_t table)
{
    struct fpmd_vrf *vrf = fpmd_vrf_by_table(&rib->vrfs, table);
    uint32_t hash;

    if (!vrf) {
        vrf = fpmd_vrf_by_name(&rib->vrfs, name);
        if (vrf && vrf->table < 0) {
            vrf->table = table;
        } else if (vrf) {
            /* The row moved the VRF to another table.  A second VRF of the
             * same name would give its routes the first one's row UUIDs,
             * so, as for a rename, the change waits for a restart. */
            if (!vrf->warned) {
                VLOG_WARN("Vrf row %s says table %"PRId64", but its routes "
                          "are in table %"PRId64"; restart fpmsyncd to "
                          "follow the change", name, table, vrf->table);
                vrf->warned = true;
            }
            /* Its row is there: not one to write again. */
            vrf->be.flags |= FPMD_F_SEEN;
            return;
        } else {
            vrf = vrf_create(&rib->vrfs, name, table);
        }
    } else if (strcmp(vrf->name, name) && !vrf_rename(vrf, name)) {
        return;
    }
    vrf->be.flags |= FPMD_F_SEEN;
    hash = vrf_row_hash(name, table);
    if (vrf->be.n_inflight) {
        /* Most likely the echo of our own insert. */
        return;
    }
    if (!vrf->be.want && !vrf->be.queued) {
        route_batch_keep(&vrf->be, hash);
    } else {
        route_batch_resync(&rib->batch, &vrf->be, true, hash);
    }
}

/* Starts taking in the complete set of Vrf rows (the initial reply of a
 * monitor), to find out which VRFs lost their row. */
void
fpmd_vrf_sync_begin(struct fpmd_rib *rib)
{
    for (size_t i = 0; i < rib->vrfs.n; i++) {
        rib->vrfs.all[i]->be.flags &= ~FPMD_F_SEEN;
    }
}

/* Ends what fpmd_vrf_sync_begin() started: a VRF that fpmsyncd wants a
 * row for but whose row the database did not report gets it again (after
 * ovsdb-server restarted with an empty database, say). */
void
fpmd_vrf_sync_end(struct fpmd_rib *rib)
{
    for (size_t i = 0; i < rib->vrfs.n; i++) {
        struct fpmd_vrf *vrf = rib->vrfs.all[i];

        if (!(vrf->be.flags & FPMD_F_SEEN) && !vrf->be.n_inflight
            && vrf->be.want) {
            route_batch_resync(&rib->batch, &vrf->be, false, 0);
        }
        vrf->be.flags &= ~FPMD_F_SEEN;
    }
}

/* Appends fpm/show's "vrfs:" line to 's'. */
void
fpmd_vrf_format(const struct fpmd_vrf_table *t, struct ds *s)
{
    ds_put_format(s, "vrfs:");
    for (size_t i = 0; i < t->n; i++) {
        const struct fpmd_vrf *vrf = t->all[i];

        ds_put_format(s, " %s", vrf->name);
        if (vrf->table >= 0) {
            ds_put_format(s, "(table %"PRId64")", vrf->table);
        }
    }
    ds_put_char(s, '\n');
}
