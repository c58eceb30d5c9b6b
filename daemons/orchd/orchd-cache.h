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
 * orchd-cache: the read cache of programmed routes (the P4Runtime
 * read-cache idea): every route entry the ASIC acknowledged, in the form
 * orchd sent it, updated only on acknowledged success.  route/show and
 * route/dump answer from it without asking the ASIC or the database, and
 * cache/verify compares it with both.
 *
 * The entries themselves are the bulker's (orchd_bulker_get_programmed():
 * one table of routes, not two), and the cache is a view of them that the
 * worker attaches (orchd_cache_attach()).  Attaching and detaching take
 * no lock: they and every reader run in orchd's main thread.
 *
 * Thread safety: every function takes the lock that guards the bulker
 * (the worker's), so the thread that applies acknowledgements and the
 * thread that answers commands can share it.
 */

#ifndef ORCHD_CACHE_H
#define ORCHD_CACHE_H 1

#include <stdbool.h>
#include <stddef.h>

struct ds;
struct orchd_bulker;
struct ovs_mutex;
struct json;
struct uuid;
struct orchd_entry;

struct orchd_cache *orchd_cache_create(int instance);
int orchd_cache_instance(const struct orchd_cache *);
void orchd_cache_destroy(struct orchd_cache *);

void orchd_cache_attach(struct orchd_cache *, const struct orchd_bulker *,
                        struct ovs_mutex *);
struct orchd_entry *orchd_cache_get(struct orchd_cache *,
                                    const struct uuid *key);
size_t orchd_cache_count(struct orchd_cache *);

struct orchd_entry **orchd_cache_snapshot(struct orchd_cache *,
                                          bool sorted, size_t *n);
void orchd_cache_snapshot_free(struct orchd_entry **, size_t n);

void orchd_cache_format(struct orchd_cache *, struct ds *);
struct json *orchd_cache_to_json(struct orchd_cache *);

#endif /* orchd-cache.h */
