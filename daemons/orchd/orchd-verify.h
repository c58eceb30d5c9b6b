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
 * orchd-verify: cache/verify's comparison of the read cache with the
 * routes orchd holds.
 *
 * The route source walks its routes (orchd_source_class's 'verify') and
 * hands each route's resolution to orchd_verify_route(), or a route it
 * cannot program to orchd_verify_diff(); orchd_verify_finish() then adds
 * the entries of the cache that no route wanted, and the summary line.
 */

#ifndef ORCHD_VERIFY_H
#define ORCHD_VERIFY_H 1

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "openvswitch/dynamic-string.h"
#include "uuidset.h"

struct orchd_cache;
struct orchd_entry;

/* A comparison under way. */
struct orchd_verify {
    struct orchd_cache *cache;  /* The read cache compared. */
    struct uuidset wanted;      /* Keys of the entries routes want. */
    struct ds out;              /* A line per difference, then the
                                 * summary. */
    size_t n_routes;            /* Routes compared. */
    size_t n_diffs;             /* Differences found. */
};

void orchd_verify_init(struct orchd_verify *, struct orchd_cache *);
void orchd_verify_route(struct orchd_verify *, struct orchd_entry *want);
void orchd_verify_diff(struct orchd_verify *, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
void orchd_verify_finish(struct orchd_verify *, bool in_flight);
void orchd_verify_destroy(struct orchd_verify *);

#endif /* orchd-verify.h */
