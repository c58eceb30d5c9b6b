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
 * orchd-worker: the part of orchd that turns route updates into SAI bulks
 * and takes them to syncd: the bulker (orchd-bulker.h), its sink
 * (orchd-sink.h), the Asic_Route writer (lib/ovsdb-writer.h) and the
 * read cache (orchd-cache.h).
 *
 * It runs either inline, in orchd's main thread, or in an assistant thread
 * fed through a single-producer single-consumer ring of tasks (function +
 * context; lib/spsc-ring.h), so the main thread can keep reading the
 * database while bulks are built and sent.  Either way, the tasks run in
 * the order they were queued: updates to one prefix are never reordered.
 *
 * On the southbound fast path (the ZeroMQ sink, chosen at creation), bulks
 * go to syncd over ZeroMQ instead (orchd-southbound.h), through a
 * channel that the thread running the bulker creates and polls.
 *
 * On the southbound OVSDB path (the OVSDB sink) every bulk's transaction
 * is marked in the Write_Mark row named by 'mark_writer' ("orchd", or
 * "orchd-N" for instance N; NULL for a schema without the table), for syncd
 * (syncd-marks.h), and the row is read after each reconnection of the
 * writer: a database that lost committed writes gets them again
 * (orchd-asic-mark.h).  On the fast path Asic_Route is written behind,
 * unmarked, and the row is deleted at start.
 *
 * The main thread calls every function here except the callbacks, which
 * run in the worker's thread.
 */

#ifndef ORCHD_WORKER_H
#define ORCHD_WORKER_H 1

#include <stdbool.h>
#include <stdint.h>

#include "lib/fib-prefix.h"
#include "openvswitch/list.h"
#include "uuid.h"

struct ds;
struct orchd_bulker_config;
struct orchd_cache;
struct orchd_entry;
struct orchd_southbound_options;

/* The outcome of one route write, for Route.status write-back. */
struct orchd_worker_result {
    struct ovs_list node;       /* In the worker's results list. */
    struct uuid route_uuid;     /* The Route row it came from. */
    const char *vrf;            /* Its VRF (interned: never freed). */
    struct fib_prefix prefix;   /* Its prefix. */
    bool ok;                    /* Programmed? */
    uint8_t token;              /* What it answers (orchd_bulker_cbs). */
    char *error;                /* If not, why (owned). */
};

struct orchd_worker *orchd_worker_create(const char *db_remote,
                                         const char *mark_writer,
                                         int instance,
                                         const struct orchd_bulker_config *,
                                         struct orchd_cache *,
                                         const struct orchd_southbound_options
                                         *);
void orchd_worker_destroy(struct orchd_worker *);

void orchd_worker_seed(struct orchd_worker *, struct orchd_entry *,
                       bool settled, int64_t seq);
void orchd_worker_start(struct orchd_worker *, bool use_ring,
                        size_t ring_size);
bool orchd_worker_uses_ring(const struct orchd_worker *);

void orchd_worker_set(struct orchd_worker *, struct orchd_entry *);
void orchd_worker_set_answer(struct orchd_worker *, struct orchd_entry *);
void orchd_worker_prefetch(struct orchd_worker *, const struct uuid *key,
                           bool chain);
void orchd_worker_del(struct orchd_worker *, const struct uuid *key);
void orchd_worker_new_generation(struct orchd_worker *);
void orchd_worker_sweep(struct orchd_worker *, const char *why);
void orchd_worker_keep(struct orchd_worker *, const struct uuid *key);
size_t orchd_worker_n_named(struct orchd_worker *);
uint64_t orchd_worker_n_swept(struct orchd_worker *);
void orchd_worker_ack(struct orchd_worker *, const struct uuid *key,
                      int64_t applied_seq, bool ok, const char *error);
void orchd_worker_hold_resync(struct orchd_worker *);
void orchd_worker_release_resync(struct orchd_worker *);
void orchd_worker_yield_writebehind(struct orchd_worker *, bool yield);
void orchd_worker_set_config(struct orchd_worker *,
                             const struct orchd_bulker_config *);
void orchd_worker_want_results(struct orchd_worker *, bool want);

void orchd_worker_run(struct orchd_worker *);
void orchd_worker_wait(struct orchd_worker *);
void orchd_worker_drain(struct orchd_worker *);
bool orchd_worker_is_idle(struct orchd_worker *);
size_t orchd_worker_n_pending(struct orchd_worker *);
int64_t orchd_worker_oldest_unacked_seq(struct orchd_worker *);

void orchd_worker_take_results(struct orchd_worker *, struct ovs_list *);
void orchd_worker_result_destroy(struct orchd_worker_result *);

void orchd_worker_format(struct orchd_worker *, struct ds *);
void orchd_worker_format_ring(struct orchd_worker *, struct ds *);
void orchd_worker_format_southbound(struct orchd_worker *, struct ds *);

#endif /* orchd-worker.h */
