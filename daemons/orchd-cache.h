/*
 * orchd-cache: the read cache of programmed routes (the P4Runtime
 * read-cache idea): every route entry the ASIC acknowledged, in the form
 * orchd sent it, updated only on acknowledged success.  route/show and
 * route/dump answer from it without asking the ASIC or the database, and
 * cache/verify compares it with both.
 *
 * Thread safety: every function takes the cache's own mutex, so the
 * thread that applies acknowledgements and the thread that answers
 * commands can share it.
 */

#ifndef ORCHD_CACHE_H
#define ORCHD_CACHE_H 1

#include <stdbool.h>
#include <stddef.h>

struct ds;
struct json;
struct uuid;
struct orchd_entry;

struct orchd_cache *orchd_cache_create(void);
void orchd_cache_destroy(struct orchd_cache *);

void orchd_cache_put(struct orchd_cache *, struct orchd_entry *);
void orchd_cache_remove(struct orchd_cache *, const struct uuid *key);
struct orchd_entry *orchd_cache_get(struct orchd_cache *,
                                    const struct uuid *key);
void orchd_cache_prefetch(const struct orchd_cache *, const struct uuid *key,
                          bool chain);
size_t orchd_cache_count(struct orchd_cache *);

struct orchd_entry **orchd_cache_snapshot(struct orchd_cache *,
                                          bool sorted, size_t *n);
void orchd_cache_snapshot_free(struct orchd_entry **, size_t n);

void orchd_cache_format(struct orchd_cache *, struct ds *);
struct json *orchd_cache_to_json(struct orchd_cache *);

#endif /* daemons/orchd-cache.h */
