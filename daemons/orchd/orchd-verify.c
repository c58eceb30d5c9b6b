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
 * orchd-verify: cache/verify's comparison (orchd-verify.h).
 */

#include <config.h>

#include "daemons/orchd/orchd-verify.h"

#include <stdarg.h>

#include "daemons/orchd/orchd-cache.h"
#include "daemons/orchd/orchd-entry.h"
#include "lib/fib-prefix.h"
#include "util.h"

/* Begins a comparison with read cache 'cache'. */
void
orchd_verify_init(struct orchd_verify *v, struct orchd_cache *cache)
{
    v->cache = cache;
    uuidset_init(&v->wanted);
    ds_init(&v->out);
    v->n_routes = 0;
    v->n_diffs = 0;
}

/* Counts a route and a difference described by 'format'. */
void
orchd_verify_diff(struct orchd_verify *v, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    ds_put_format_valist(&v->out, format, args);
    va_end(args);
    v->n_diffs++;
}

/* Compares one route's resolution 'want' (taken) with the read cache:
 * its key is wanted, and a difference is reported. */
void
orchd_verify_route(struct orchd_verify *v, struct orchd_entry *want)
{
    char prefix[FIB_PREFIX_STRLEN];
    struct orchd_entry *have;

    uuidset_insert(&v->wanted, &want->asic_uuid);
    have = orchd_cache_get(v->cache, &want->asic_uuid);
    if (!have) {
        orchd_verify_diff(v, "missing from cache: %s vrf %s\n",
                          orchd_entry_prefix(want, prefix), want->vrf);
    } else if (!orchd_entry_same_content(have, want)) {
        v->n_diffs++;
        ds_put_format(&v->out, "different in cache: %s vrf %s: cache has "
                      "\"", orchd_entry_prefix(want, prefix), want->vrf);
        orchd_entry_format(have, &v->out);
        ds_put_cstr(&v->out, "\", Route wants \"");
        orchd_entry_format(want, &v->out);
        ds_put_cstr(&v->out, "\"\n");
    }
    orchd_entry_unref(have);
    orchd_entry_unref(want);
}

/* Reports the entries of the cache that no route wanted, then the
 * summary line, noting that updates are 'in_flight' if differences may
 * be theirs. */
void
orchd_verify_finish(struct orchd_verify *v, bool in_flight)
{
    struct orchd_entry **entries;
    size_t n_cached;

    entries = orchd_cache_snapshot(v->cache, true, &n_cached);
    for (size_t i = 0; i < n_cached; i++) {
        if (!uuidset_contains(&v->wanted, &entries[i]->asic_uuid)) {
            char prefix[FIB_PREFIX_STRLEN];

            orchd_verify_diff(v, "extra in cache: %s vrf %s\n",
                              orchd_entry_prefix(entries[i], prefix),
                              entries[i]->vrf);
        }
    }
    orchd_cache_snapshot_free(entries, n_cached);
    ds_put_format(&v->out, "cache/verify: %"PRIuSIZE" routes, %"PRIuSIZE
                  " in cache, %"PRIuSIZE" difference%s%s\n",
                  v->n_routes, n_cached, v->n_diffs,
                  v->n_diffs == 1 ? "" : "s",
                  v->n_diffs && in_flight ? " (updates still in flight)"
                  : "");
}

/* Frees what 'v' holds. */
void
orchd_verify_destroy(struct orchd_verify *v)
{
    uuidset_destroy(&v->wanted);
    ds_destroy(&v->out);
}
