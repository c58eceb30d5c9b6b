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

#include <config.h>

#include "daemons/orchd/orchd-show-idl.h"

#include <string.h>

#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-show.h"
#include "idl/fibsync-idl.h"
#include "idl/fibsync-ondemand.h"
#include "idl/route-index.h"
#include "ovsdb-idl.h"
#include "util.h"

/* The source. */
struct show_idl {
    struct orchd_show_source up;    /* Its class. */
    struct ovsdb_idl *idl;          /* orchd's replica. */
    struct route_index *ri;         /* Indexes over Route. */
    orchd_show_resolve_func *resolve; /* Route → SAI entry. */
    void *aux;                      /* For 'resolve'. */
};

static struct show_idl *
show_idl_cast(struct orchd_show_source *src)
{
    return CONTAINER_OF(src, struct show_idl, up);
}

static bool
show_idl_vrf_exists(struct orchd_show_source *src, const char *vrf)
{
    struct show_idl *si = show_idl_cast(src);
    struct route_index_cursor cursor;
    const struct fibrec_vrf *v;

    FIBREC_VRF_FOR_EACH (v, si->idl) {
        if (!strcmp(v->name, vrf)) {
            return true;
        }
    }
    return route_index_first_vrf(si->ri, &cursor, vrf) != NULL;
}

/* Passes 'r' to 'cb' as fib/show's view of it; returns 1, or 0 for a row
 * whose prefix is not valid (never passed on). */
static size_t
pass_route(struct show_idl *si, const struct fibrec_route *r,
           orchd_show_route_cb *cb, void *aux)
{
    struct orchd_show_route view = {
        .uuid = r->header_.uuid,
        .vrf = r->vrf,
        .prefix = route_index_route_prefix(r),
        .protocol = r->protocol,
        .distance = r->n_distance ? *r->distance : 0,
        .metric = r->n_metric ? *r->metric : 0,
        .has_group = r->n_nexthop_group > 0,
        .group = r->n_nexthop_group ? *r->nexthop_group : 0,
        .counter_keys = (const char *const *) r->key_counters,
        .counter_values = r->value_counters,
        .n_counters = r->n_counters,
    };

    if (!view.prefix) {
        return 0;
    }
    view.want = si->resolve(si->aux, r);
    cb(&view, aux);
    orchd_entry_unref(view.want);
    return 1;
}

static size_t
show_idl_select(struct orchd_show_source *src, const char *vrf,
                enum orchd_show_select what, const struct fib_prefix *prefix,
                orchd_show_route_cb *cb, void *aux)
{
    struct show_idl *si = show_idl_cast(src);
    struct route_index_cursor cursor;
    const struct fibrec_route *r;
    size_t n = 0;

    switch (what) {
    case ORCHD_SHOW_EXACT:
    case ORCHD_SHOW_LPM:
        r = (what == ORCHD_SHOW_LPM
             ? route_index_lpm(si->ri, vrf, prefix)
             : route_index_find(si->ri, vrf, prefix));
        if (r) {
            n += pass_route(si, r, cb, aux);
        }
        break;
    case ORCHD_SHOW_LONGER:
        ROUTE_INDEX_FOR_EACH_LONGER (r, &cursor, si->ri, vrf, prefix) {
            n += pass_route(si, r, cb, aux);
        }
        break;
    case ORCHD_SHOW_VRF:
        ROUTE_INDEX_FOR_EACH_VRF (r, &cursor, si->ri, vrf) {
            n += pass_route(si, r, cb, aux);
        }
        break;
    }
    return n;
}

/* Asks the IDL for the on-demand column Route.counters of 'rows'. */
static void
show_idl_fetch_counters(struct orchd_show_source *src,
                        const struct uuid *rows, size_t n)
{
    struct show_idl *si = show_idl_cast(src);

    for (size_t i = 0; i < n; i++) {
        const struct fibrec_route *r = fibrec_route_get_for_uuid(si->idl,
                                                                 &rows[i]);
        if (r) {
            fibrec_route_fetch_counters(si->idl, r);
        }
    }
}

static bool
show_idl_counters_pending(struct orchd_show_source *src,
                          const struct uuid *rows, size_t n)
{
    struct show_idl *si = show_idl_cast(src);

    for (size_t i = 0; i < n; i++) {
        const struct fibrec_route *r = fibrec_route_get_for_uuid(si->idl,
                                                                 &rows[i]);
        if (r && fibrec_route_is_row_counters_fetch_pending(r)) {
            return true;
        }
    }
    return false;
}

static void
show_idl_destroy(struct orchd_show_source *src)
{
    free(show_idl_cast(src));
}

static const struct orchd_show_source_class show_idl_class = {
    .vrf_exists = show_idl_vrf_exists,
    .select = show_idl_select,
    .fetch_counters = show_idl_fetch_counters,
    .counters_pending = show_idl_counters_pending,
    .destroy = show_idl_destroy,
};

/* Creates fib/show's source over 'idl' and its route index 'ri', with
 * 'resolve' (called with 'aux') to resolve routes. */
struct orchd_show_source *
orchd_show_idl_create(struct ovsdb_idl *idl, struct route_index *ri,
                      orchd_show_resolve_func *resolve, void *aux)
{
    struct show_idl *si = xzalloc(sizeof *si);

    si->up.class = &show_idl_class;
    si->idl = idl;
    si->ri = ri;
    si->resolve = resolve;
    si->aux = aux;
    return &si->up;
}
