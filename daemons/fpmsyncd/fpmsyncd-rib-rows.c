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

/* The rib's rows as rows: their UUIDs, foreign UUIDs, and what the
 * database load records of each row (daemons/fpmsyncd/fpmsyncd-rib-rows.h). */

#include <config.h>
#include "daemons/fpmsyncd/fpmsyncd-rib-rows.h"

#include <stdlib.h>

#include "daemons/fpmsyncd/fpmsyncd-private.h"
#include "hash.h"
#include "util.h"
#include "uuid.h"

/* A row whose UUID is not the one route-key.h derives. */
struct fpmd_foreign {
    struct hmap_node node;      /* In 'foreign', by hash_pointer(entry). */
    const struct route_batch_entry *entry; /* The row's entry. */
    struct uuid uuid;           /* Its real UUID. */
};

/* Row UUIDs. */

/* Returns the record of the foreign UUID of 'e', or NULL if it has none. */
static struct fpmd_foreign *
find_foreign(const struct fpmd_rib *rib, const struct route_batch_entry *e)
{
    struct fpmd_foreign *f;

    HMAP_FOR_EACH_WITH_HASH (f, node, hash_pointer(e, 0), &rib->foreign) {
        if (f->entry == e) {
            return f;
        }
    }
    return NULL;
}

/* Forgets the foreign UUID of 'e', which is going away, if it has one. */
void
fpmd_rib_forget_foreign(struct fpmd_rib *rib,
                        const struct route_batch_entry *e)
{
    struct fpmd_foreign *f;

    if (e->flags & FPMD_F_FOREIGN) {
        f = find_foreign(rib, e);
        if (f) {
            hmap_remove(&rib->foreign, &f->node);
            free(f);
        }
    }
}

/* Stores in '*u' the UUID of the row of 'e'. */
void
fpmd_rib_entry_uuid(const struct fpmd_rib *rib,
                    const struct route_batch_entry *e, struct uuid *u)
{
    if (e->flags & FPMD_F_FOREIGN) {
        const struct fpmd_foreign *f = find_foreign(rib, e);

        if (f) {
            *u = f->uuid;
            return;
        }
    }
    switch ((enum fpmd_kind) e->tag) {
    case FPMD_ROUTE: {
        const struct fpmd_route *r = CONTAINER_OF(e, struct fpmd_route, be);

        route_key_route_uuid(fpmd_vrf_get(&rib->vrfs, r->vrf)->name,
                             &r->prefix, u);
        break;
    }
    case FPMD_NH:
        route_key_nhg_uuid(CONTAINER_OF(e, struct fpmd_nh, be)->id, u);
        break;
    case FPMD_VRF:
        route_key_vrf_uuid(CONTAINER_OF(e, struct fpmd_vrf, be)->name, u);
        break;
    }
}

/* Frees the foreign UUIDs in 'foreign' (the rib is being destroyed). */
void
fpmd_rib_foreign_destroy(struct hmap *foreign)
{
    struct fpmd_foreign *f;

    HMAP_FOR_EACH_POP (f, node, foreign) {
        free(f);
    }
    hmap_destroy(foreign);
}

/* The database load. */

/* Records that the load found the row of 'e', with content hash 'hash'
 * and UUID 'actual' ('expected' is the deterministic one). */
void
fpmd_rib_load_found(struct fpmd_rib *rib, struct route_batch_entry *e,
                    uint32_t hash, const struct uuid *actual,
                    const struct uuid *expected)
{
    struct fpmd_foreign *f;

    if (e->flags & FPMD_F_NO_CONTENT) {
        /* Only a mirror of the database: adopt what it holds. */
        route_batch_keep(e, hash);
    } else {
        route_batch_resync(&rib->batch, e, true, hash);
    }
    e->flags |= FPMD_F_SEEN;

    if (uuid_equals(actual, expected)) {
        return;
    }
    rib->stats.load_foreign++;
    f = e->flags & FPMD_F_FOREIGN ? find_foreign(rib, e) : NULL;
    if (!f) {
        f = xmalloc(sizeof *f);
        f->entry = e;
        hmap_insert(&rib->foreign, &f->node, hash_pointer(e, 0));
        e->flags |= FPMD_F_FOREIGN;
    }
    f->uuid = *actual;
}

/* Ends the load for 'e': if the load did not find its row, it is queued
 * again, or forgotten if fpmsyncd only mirrored it from an earlier load
 * (which may free it). */
void
fpmd_rib_load_settle(struct fpmd_rib *rib, struct route_batch_entry *e)
{
    if (e->flags & FPMD_F_SEEN) {
        e->flags &= ~FPMD_F_SEEN;
    } else if (e->flags & FPMD_F_NO_CONTENT) {
        e->flags &= ~FPMD_F_NO_CONTENT;
        route_batch_forget(&rib->batch, e);
    } else {
        route_batch_resync(&rib->batch, e, false, 0);
    }
}
