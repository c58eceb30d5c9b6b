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

#ifndef FPMSYNCD_RIB_ROWS_H
#define FPMSYNCD_RIB_ROWS_H 1

/* The rib's rows as rows: the UUID each entry's row has, the rows whose
 * UUID is not the deterministic one ("foreign"), and what the database
 * load records of each row it finds.
 *
 * The lowest part of the rib (daemons/fpmsyncd/fpmsyncd-rib.h): routes,
 * next-hop objects and VRFs all have rows, and each of their files calls
 * this one, which calls none of them.  Thread safety: none. */

#include <stdint.h>

struct fpmd_rib;
struct hmap;
struct route_batch_entry;
struct uuid;

/* Row UUIDs. */
void fpmd_rib_entry_uuid(const struct fpmd_rib *,
                         const struct route_batch_entry *, struct uuid *);
void fpmd_rib_forget_foreign(struct fpmd_rib *,
                             const struct route_batch_entry *);
void fpmd_rib_foreign_destroy(struct hmap *foreign);

/* The database load. */
void fpmd_rib_load_found(struct fpmd_rib *, struct route_batch_entry *,
                         uint32_t hash, const struct uuid *actual,
                         const struct uuid *expected);
void fpmd_rib_load_settle(struct fpmd_rib *, struct route_batch_entry *);

#endif /* fpmsyncd-rib-rows.h */
