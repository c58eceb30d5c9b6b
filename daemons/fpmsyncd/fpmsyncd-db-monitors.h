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

#ifndef FPMSYNCD_DB_MONITORS_H
#define FPMSYNCD_DB_MONITORS_H 1

/* What fpmsyncd follows in the database, taken in: the Global row's
 * settings (from its lib/global-follower.h), the configuration monitor's
 * Vrf rows and the Route.status monitor's rows that say offload=true (for
 * FIB suppression).
 *
 * The follower, the requests and the connection are
 * daemons/fpmsyncd/fpmsyncd-db.c's, which calls these with each change,
 * reply and update; this file calls nothing of it, and tells it of a
 * Global row through the callback it is given.  Thread safety: none. */

#include <stdbool.h>

struct fpmd_rib;
struct fpmd_settings;
struct global_follower;
struct json;

/* Where the Global row and the configuration monitor's rows go. */
struct fpmd_db_cfg {
    struct fpmd_rib *rib;       /* Takes the Vrf rows and the next-hop
                                 * group setting. */
    struct fpmd_settings *settings; /* The Global row changes them. */
    void (*fib_suppression_cb)(void *aux); /* Called once a Global row's
                                 * settings are taken in, before its
                                 * next-hop group setting, to apply FIB
                                 * suppression. */
    void *aux;                  /* Passed to 'fib_suppression_cb'. */
};

void fpmd_db_global(const struct fpmd_db_cfg *,
                    const struct global_follower *);
void fpmd_db_cfg_updates(const struct fpmd_db_cfg *,
                         const struct json *updates);
void fpmd_db_status_updates(struct fpmd_rib *, const struct json *updates);

#endif /* fpmsyncd-db-monitors.h */
