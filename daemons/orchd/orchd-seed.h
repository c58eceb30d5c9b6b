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
 * orchd-seed: orchd's start-up read of its instance's Asic_Route rows,
 * each row seeding the worker, and the end of the initial sync.
 *
 * The read streams selects of seq slices (orchd-asic-read.h; orchd keeps
 * no replica of Asic_Route), or reads --asic-from-file in one go.  It runs
 * beside the IDL's wait for its first copy of the database: ovsdb-server
 * composes the slices while orchd takes in the replica.  A read that
 * fails is started again after a second (seeding a row twice does no
 * harm).  Once the source has programmed every route it holds,
 * orchd_seed_finish_sync() removes the rows read that no route wants.
 */

#ifndef ORCHD_SEED_H
#define ORCHD_SEED_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uuidset.h"

struct orchd;
struct orchd_asic_row;
struct unixctl_server;

/* The read, and what it found. */
struct orchd_seed {
    struct orchd *o;            /* Whose worker. */
    struct orchd_asic_read *read; /* The read under way, or NULL. */
    size_t n_seeded;            /* Rows seeded. */
    bool keep_rows;             /* Keep the UUIDs of the rows read? */
    struct uuidset rows;        /* If 'keep_rows', the rows read. */
    long long int start;        /* When the first read began, or 0. */
    long long int retry_at;     /* When to start again after a failure. */
    bool file_failed;           /* --asic-from-file could not be read:
                                 * the selects instead. */
    bool done;                  /* Finished? */
};

void orchd_seed_init(struct orchd_seed *, struct orchd *, bool keep_rows);
void orchd_seed_destroy(struct orchd_seed *);
bool orchd_seed_run(struct orchd_seed *);
void orchd_seed_wait(const struct orchd_seed *);
void orchd_seed_complete(struct orchd_seed *, struct unixctl_server *);
void orchd_seed_read_row(void *seed, const struct orchd_asic_row *);
void orchd_seed_finish_sync(struct orchd_seed *, struct uuidset *wanted,
                            uint64_t n_routes);

#endif /* orchd-seed.h */
