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

#ifndef FPMSYNCD_FPM_H
#define FPMSYNCD_FPM_H 1

/* fpmsyncd's side of zebra: the FPM connection.
 *
 * fpmsyncd listens for zebra (once the database is read), accepts one
 * connection at a time, splits the stream into frames
 * (lib/fpm-frame.h), parses their netlink messages (lib/fpm-route.h) and
 * hands them to the rib.  It stops reading while too many rows are
 * pending, so that a database that falls behind slows zebra down rather
 * than fpmsyncd's memory up; on the northbound fast path, while too many
 * routes wait for orchd instead (daemons/fpmsyncd/fpmsyncd-zmq.h).  Offload
 * notifications (FIB suppression) go back to zebra on the same
 * connection.
 *
 * Each connection is a new zebra session that replays its table: it
 * starts a new rib generation and opens the replay window, at whose end
 * (the reconcile timer, or fpm/reconcile) the rib deletes what zebra did
 * not replay.  A window that zebra leaves by disconnecting is postponed
 * until it connects again.
 *
 * Thread safety: none. */

#include <stdbool.h>

struct ds;
struct fpm_route;
struct fpmd_rib;
struct fpmd_settings;
struct fpmd_zmq;

struct fpmd_fpm *fpmd_fpm_create(const char *addr, int port,
                                 struct fpmd_rib *,
                                 const struct fpmd_settings *);
void fpmd_fpm_destroy(struct fpmd_fpm *);
const char *fpmd_fpm_get_listen_name(const struct fpmd_fpm *);
void fpmd_fpm_set_zmq(struct fpmd_fpm *, struct fpmd_zmq *);

void fpmd_fpm_listen(struct fpmd_fpm *);
void fpmd_fpm_run(struct fpmd_fpm *);
void fpmd_fpm_wait(struct fpmd_fpm *);
bool fpmd_fpm_is_streaming(const struct fpmd_fpm *);

void fpmd_fpm_send_offload(const struct fpm_route *, void *fpm);

/* What fpmd_fpm_reconcile() did. */
enum fpmd_fpm_reconcile_result {
    FPMD_FPM_RECONCILED,        /* Reconciled now. */
    FPMD_FPM_RECONCILE_LATER,   /* Will once the database is read. */
    FPMD_FPM_NOT_ARMED,         /* zebra has not connected since the last
                                 * reconciliation. */
};
enum fpmd_fpm_reconcile_result fpmd_fpm_reconcile(struct fpmd_fpm *);

void fpmd_fpm_format(const struct fpmd_fpm *, struct ds *);
void fpmd_fpm_format_replay(const struct fpmd_fpm *, struct ds *);

#endif /* fpmsyncd-fpm.h */
