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
 * orchd-worker: the bulker and its sink, run inline or behind a task ring
 * in an assistant thread (orchd-worker.h).
 */

#include <config.h>

#include "daemons/orchd/orchd-worker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-cache.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-sink.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "lib/perf-timer.h"
#include "lib/spsc-ring.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_worker);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(orchd_ring_full);
COVERAGE_DEFINE(orchd_bulk_sent);
COVERAGE_DEFINE(orchd_route_programmed);
COVERAGE_DEFINE(orchd_route_failed);
COVERAGE_DEFINE(orchd_swept);

/* A worker: see orchd-worker.h. */
struct orchd_worker {
    struct ovs_mutex mutex;         /* Protects the fields marked below,
                                     * held by whichever thread runs the
                                     * bulker. */
    struct orchd_bulker *bulker OVS_GUARDED;  /* Bulk builder. */
    struct ovsdb_writer *writer OVS_GUARDED;  /* Asic_Route writer. */
    struct orchd_sink *sink OVS_GUARDED;      /* Where bulks go. */
    struct perf_timer *bulk_timer OVS_GUARDED; /* "BULK" stage. */
    struct orchd_cache *cache;      /* Read cache: a view of 'bulker'
                                     * under 'mutex'. */
    uint64_t n_swept OVS_GUARDED;   /* Routes orchd_worker_sweep()
                                     * removed. */

    /* Status results for the main thread. */
    struct ovs_mutex results_mutex; /* Protects 'results', 'want_results'. */
    struct ovs_list results;        /* Of struct orchd_worker_result. */
    bool want_results;              /* Report successes, not only errors. */
    struct seq *results_seq;        /* Changes when results are added. */

    /* Assistant thread, when the ring is in use. */
    bool use_ring;                  /* Tasks go through the ring. */
    struct spsc_ring *ring;         /* Tasks, main → worker. */
    pthread_t thread;               /* The assistant thread. */
    struct seq *wake_seq;           /* Wakes the worker after pushes. */
    atomic_bool stop;               /* Tells the worker to exit. */
    uint64_t n_pushed;              /* Tasks pushed (main thread only). */
    atomic_uint64_t n_run;          /* Tasks run (worker writes). */
    uint64_t n_full_waits;          /* Pushes that found the ring full. */
    bool started;                   /* orchd_worker_start() was called. */

    /* The Asic_Route write-behind's yield to fpmsyncd's Route writes. */
    bool wb_yield;                  /* Main thread: the last one queued. */
};

/* The kinds of queued operation. */
enum task_type {
    TASK_SET,                       /* orchd_worker_set(). */
    TASK_SET_ANSWER,                /* orchd_worker_set_answer(). */
    TASK_DEL,                       /* orchd_worker_del(). */
    TASK_ACK,                       /* orchd_worker_ack(). */
    TASK_CONFIG,                    /* orchd_worker_set_config(). */
    TASK_RELEASE_RESYNC,            /* orchd_worker_release_resync(). */
    TASK_YIELD_WB,                  /* orchd_worker_yield_writebehind(). */
    TASK_NEW_GEN,                   /* orchd_worker_new_generation(). */
    TASK_SWEEP,                     /* orchd_worker_sweep(). */
    TASK_KEEP,                      /* orchd_worker_keep(). */
};

/* A queued route operation and its arguments. */
struct task {
    struct orchd_worker *w;         /* Owner. */
    enum task_type type;            /* What to do. */
    struct uuid key;                /* Route key (DEL, ACK). */
    struct orchd_entry *entry;      /* Content (SET). */
    int64_t seq;                    /* Applied sequence number (ACK). */
    bool ok;                        /* Outcome (ACK), yield (YIELD_WB). */
    char *error;                    /* Why not (ACK). */
    struct orchd_bulker_config cfg; /* New configuration (CONFIG). */
    const char *why;                /* What the sweep ends (SWEEP). */
};

/* Queues the outcome of writing 'entry' for Route.status write-back:
 * failures always, successes only if the main thread wants them.
 * Removals and entries that come from no Route row are not reported. */
static void
add_result(struct orchd_worker *w, const struct orchd_entry *entry,
           bool ok, const char *error, uint8_t token)
{
    struct orchd_worker_result *r;

    if (!entry || uuid_is_zero(&entry->route_uuid)) {
        return;
    }
    ovs_mutex_lock(&w->results_mutex);
    if (ok && !w->want_results) {
        ovs_mutex_unlock(&w->results_mutex);
        return;
    }
    r = xzalloc(sizeof *r);
    r->route_uuid = entry->route_uuid;
    r->vrf = entry->vrf;
    r->prefix = entry->prefix;
    r->ok = ok;
    r->error = error ? xstrdup(error) : NULL;
    r->token = token;
    ovs_list_push_back(&w->results, &r->node);
    ovs_mutex_unlock(&w->results_mutex);
    seq_change(w->results_seq);
}

/* Bulker callback: one write ended. */
static void
bulker_done(void *w_, const struct uuid *key, const struct orchd_entry *e,
            bool ok, const char *error, uint8_t token)
{
    struct orchd_worker *w = w_;
    char prefix[FIB_PREFIX_STRLEN];

    if (ok) {
        /* The bulker has recorded it as programmed (the read cache). */
        COVERAGE_INC(orchd_route_programmed);
    } else {
        COVERAGE_INC(orchd_route_failed);
        VLOG_WARN_RL(&rl,
                     "%s vrf %s: programming failed: %s",
                     e ? orchd_entry_prefix(e, prefix) : "?", e ? e->vrf : "?",
                     error ? error : "unknown error");
    }
    add_result(w, e, ok, error, token);
}

/* Bulker callback: takes 'bulk' to the sink. */
static void
bulker_send(void *w_, struct orchd_bulk *bulk)
{
    struct orchd_worker *w = w_;
    /* The sink reports 'bulk' sent, which may free it: its size is read
     * first (AddressSanitizer caught the read after). */
    size_t n_items = bulk->n_items;

    perf_timer_start(w->bulk_timer);
    w->sink->class->send(w->sink, bulk);
    perf_timer_inc(w->bulk_timer, n_items);
    perf_timer_pause(w->bulk_timer);
    COVERAGE_INC(orchd_bulk_sent);
}

/* Bulker callback: may a bulk go out now? */
static bool
bulker_can_send(void *w_)
{
    struct orchd_worker *w = w_;

    return w->sink->class->can_send(w->sink);
}

/* Starts the sink in the thread that runs the bulker. */
static void
sink_start(struct orchd_worker *w) OVS_REQUIRES(w->mutex)
{
    if (w->sink->class->start) {
        w->sink->class->start(w->sink);
    }
}

/* Creates a worker that writes into the Asic_Route table of 'db_remote'
 * with bulker configuration 'cfg', and attaches 'cache' to its bulker's
 * programmed routes.  Bulks go into Asic_Route, marked in the Write_Mark
 * row named 'mark_writer' (NULL for none), or, if 'sb' is nonnull, to
 * syncd over the southbound fast path as 'sb' says (orchd-sink.h).  Until
 * orchd_worker_start(), tasks run inline. */
struct orchd_worker *
orchd_worker_create(const char *db_remote, const char *mark_writer,
                    int instance, const struct orchd_bulker_config *cfg,
                    struct orchd_cache *cache,
                    const struct orchd_southbound_options *sb)
{
    static const struct orchd_bulker_cbs cbs = {
        .send = bulker_send,
        .done = bulker_done,
        .can_send = bulker_can_send,
    };
    struct orchd_worker *w = xzalloc(sizeof *w);
    struct perf_timer_options popts;

    ovs_mutex_init(&w->mutex);
    ovs_mutex_init(&w->results_mutex);
    ovs_list_init(&w->results);
    w->results_seq = seq_create();
    w->wake_seq = seq_create();
    w->cache = cache;
    atomic_init(&w->stop, false);
    atomic_init(&w->n_run, 0);

    ovs_mutex_lock(&w->mutex);
    w->bulker = orchd_bulker_create(cfg, &cbs, w);
    w->writer = ovsdb_writer_create(db_remote, "Fibsync");
    ovsdb_writer_set_max_in_flight(w->writer, cfg->max_outstanding + 1);
    w->sink = (sb
               ? orchd_sink_zmq_create(w->bulker, w->writer, mark_writer,
                                       instance, sb)
               : orchd_sink_ovsdb_create(w->bulker, w->writer, mark_writer,
                                         instance));
    perf_timer_options_init(&popts);
    popts.module = &this_module;
    w->bulk_timer = perf_timer_create("BULK", &popts);
    orchd_cache_attach(cache, w->bulker, &w->mutex);
    ovs_mutex_unlock(&w->mutex);
    return w;
}

/* Runs one task, with 'w->mutex' held. */
static void
task_run(void *t_)
{
    struct task *t = t_;
    struct orchd_worker *w = t->w;

    switch (t->type) {
    case TASK_SET:
        orchd_bulker_set(w->bulker, t->entry);
        break;
    case TASK_SET_ANSWER:
        orchd_bulker_set_answer(w->bulker, t->entry);
        break;
    case TASK_DEL:
        orchd_bulker_del(w->bulker, &t->key);
        break;
    case TASK_ACK:
        orchd_bulker_ack(w->bulker, &t->key, t->seq, t->ok, t->error);
        free(t->error);
        break;
    case TASK_CONFIG:
        orchd_bulker_set_config(w->bulker, &t->cfg);
        ovsdb_writer_set_max_in_flight(w->writer,
                                       t->cfg.max_outstanding + 1);
        break;
    case TASK_RELEASE_RESYNC:
        if (w->sink->class->release_resync) {
            w->sink->class->release_resync(w->sink);
        }
        break;
    case TASK_YIELD_WB:
        if (w->sink->class->yield_writebehind) {
            w->sink->class->yield_writebehind(w->sink, t->ok);
        }
        break;
    case TASK_NEW_GEN:
        orchd_bulker_new_generation(w->bulker);
        break;
    case TASK_SWEEP: {
        size_t n = orchd_bulker_sweep(w->bulker);

        w->n_swept += n;
        COVERAGE_ADD(orchd_swept, n);
        VLOG_INFO("%s complete, %"PRIuSIZE" routes, %"PRIuSIZE" stale "
                  "ones removed", t->why, orchd_bulker_n_named(w->bulker),
                  n);
        break;
    }
    case TASK_KEEP:
        orchd_bulker_keep(w->bulker, &t->key);
        break;
    }
    free(t);
}

/* Runs the sink, the bulker and the writer. */
static void
run_sink(struct orchd_worker *w) OVS_REQUIRES(w->mutex)
{
    if (w->sink->class->run) {
        w->sink->class->run(w->sink);
    }
    orchd_bulker_run(w->bulker);
    ovsdb_writer_run(w->writer);
    orchd_bulker_run(w->bulker);
    perf_timer_run(w->bulk_timer);
}

/* Arranges for poll_block() to wake when run_sink() has work. */
static void
wait_sink(struct orchd_worker *w) OVS_REQUIRES(w->mutex)
{
    ovsdb_writer_wait(w->writer);
    perf_timer_wait(w->bulk_timer);
    if (w->sink->class->wait) {
        w->sink->class->wait(w->sink);
    }
}

/* Frees the sink, in the thread that ran it. */
static void
stop_sink(struct orchd_worker *w) OVS_REQUIRES(w->mutex)
{
    if (w->sink) {
        w->sink->class->destroy(w->sink);
        w->sink = NULL;
    }
}

/* The assistant thread. */
static void *
worker_main(void *w_)
{
    struct orchd_worker *w = w_;
    struct spsc_ring_task batch[256]; /* Most tasks popped at once. */

    ovs_mutex_lock(&w->mutex);
    sink_start(w);
    ovs_mutex_unlock(&w->mutex);
    for (;;) {
        uint64_t wake = seq_read(w->wake_seq);
        bool stop;
        size_t n;

        ovs_mutex_lock(&w->mutex);
        n = spsc_ring_pop_batch(w->ring, batch, ARRAY_SIZE(batch));
        for (size_t i = 0; i < n; i++) {
            batch[i].func(batch[i].ctx);
        }
        if (n) {
            atomic_add(&w->n_run, n, &(uint64_t) {0});
        }
        run_sink(w);
        atomic_read(&w->stop, &stop);
        if (stop && !n && spsc_ring_is_empty(w->ring)) {
            stop_sink(w);
            ovs_mutex_unlock(&w->mutex);
            break;
        }
        if (!n) {
            wait_sink(w);
        }
        ovs_mutex_unlock(&w->mutex);
        if (n) {
            continue;
        }
        seq_wait(w->wake_seq, wake);
        poll_block();
    }
    return NULL;
}

/* Records an entry already in the ASIC; call before orchd_worker_start(). */
void
orchd_worker_seed(struct orchd_worker *w, struct orchd_entry *e,
                  bool settled, int64_t seq)
{
    ovs_mutex_lock(&w->mutex);
    orchd_bulker_seed(w->bulker, e, settled);
    orchd_bulker_set_next_seq(w->bulker, seq + 1);
    ovs_mutex_unlock(&w->mutex);
}

/* Starts processing tasks, through a ring of 'ring_size' tasks (rounded up
 * to a power of 2) and an assistant thread if 'use_ring', inline
 * otherwise. */
void
orchd_worker_start(struct orchd_worker *w, bool use_ring, size_t ring_size)
{
    ovs_assert(!w->started);
    w->started = true;
    w->use_ring = use_ring;
    if (use_ring) {
        w->ring = spsc_ring_create(ring_size);
        w->thread = ovs_thread_create("orchd_worker", worker_main, w);
    } else {
        ovs_mutex_lock(&w->mutex);
        sink_start(w);
        ovs_mutex_unlock(&w->mutex);
    }
}

/* Returns true if tasks go through the ring to the assistant thread. */
bool
orchd_worker_uses_ring(const struct orchd_worker *w)
{
    return w->use_ring;
}

/* Queues 't', or runs it at once in inline mode. */
static void
submit(struct orchd_worker *w, struct task *t)
{
    t->w = w;
    if (!w->use_ring) {
        ovs_mutex_lock(&w->mutex);
        task_run(t);
        ovs_mutex_unlock(&w->mutex);
        return;
    }
    if (!spsc_ring_push(w->ring, task_run, t)) {
        COVERAGE_INC(orchd_ring_full);
        w->n_full_waits++;
        seq_change(w->wake_seq);
        while (!spsc_ring_push(w->ring, task_run, t)) {
            xnanosleep(20 * 1000);
        }
    }
    w->n_pushed++;
    /* Wake the worker every 64 pushes rather than on each one;
     * orchd_worker_run() wakes it once per main-loop iteration too. */
    if (!(w->n_pushed % 64)) {
        seq_change(w->wake_seq);
    }
}

/* Queues a task of 'type' that takes no argument. */
static void
submit_new(struct orchd_worker *w, enum task_type type)
{
    struct task *t = xzalloc(sizeof *t);

    t->type = type;
    submit(w, t);
}

/* Submits a task of 'type' (TASK_SET or TASK_SET_ANSWER) for 'e'. */
static void
submit_set(struct orchd_worker *w, enum task_type type, struct orchd_entry *e)
{
    struct task *t = xzalloc(sizeof *t);

    t->type = type;
    t->entry = e;
    submit(w, t);
}

/* Wants 'e' programmed (takes ownership of one reference). */
void
orchd_worker_set(struct orchd_worker *w, struct orchd_entry *e)
{
    submit_set(w, TASK_SET, e);
}

/* As orchd_worker_set(), and its result is wanted even if 'e' is
 * programmed as it is already (orchd_bulker_set_answer()). */
void
orchd_worker_set_answer(struct orchd_worker *w, struct orchd_entry *e)
{
    submit_set(w, TASK_SET_ANSWER, e);
}

/* Tells 'w' that a task for route 'key' comes soon: with no assistant
 * thread, the bulker's bucket for it ('chain' false), then its chain
 * ('chain' true), is brought into the cache meanwhile
 * (orchd_bulker_prefetch()).  With one, the bulker is that thread's. */
void
orchd_worker_prefetch(struct orchd_worker *w, const struct uuid *key,
                      bool chain)
{
    if (!w->use_ring) {
        orchd_bulker_prefetch(w->bulker, key, chain);
    }
}

/* Wants the route with Asic_Route key 'key' removed. */
void
orchd_worker_del(struct orchd_worker *w, const struct uuid *key)
{
    struct task *t = xzalloc(sizeof *t);

    t->type = TASK_DEL;
    t->key = *key;
    submit(w, t);
}

/* Starts a new resync generation (orchd_bulker_new_generation()), in
 * order with the updates queued before it. */
void
orchd_worker_new_generation(struct orchd_worker *w)
{
    submit_new(w, TASK_NEW_GEN);
}

/* Removes, in order with the updates queued before it, every route not
 * named since the last orchd_worker_new_generation()
 * (orchd_bulker_sweep()), and logs how many, as the end of 'why' (a
 * string that outlives the task). */
void
orchd_worker_sweep(struct orchd_worker *w, const char *why)
{
    struct task *t = xzalloc(sizeof *t);

    t->type = TASK_SWEEP;
    t->why = why;
    submit(w, t);
}

/* Keeps the route with Asic_Route key 'key' from the next sweep as it
 * stands, if it is named (orchd_bulker_keep()). */
void
orchd_worker_keep(struct orchd_worker *w, const struct uuid *key)
{
    struct task *t = xzalloc(sizeof *t);

    t->type = TASK_KEEP;
    t->key = *key;
    submit(w, t);
}

/* Returns the number of routes named (orchd_bulker_n_named()), as of the
 * tasks run so far. */
size_t
orchd_worker_n_named(struct orchd_worker *w)
{
    size_t n;

    ovs_mutex_lock(&w->mutex);
    n = orchd_bulker_n_named(w->bulker);
    ovs_mutex_unlock(&w->mutex);
    return n;
}

/* Returns the number of routes orchd_worker_sweep() removed so far. */
uint64_t
orchd_worker_n_swept(struct orchd_worker *w)
{
    uint64_t n;

    ovs_mutex_lock(&w->mutex);
    n = w->n_swept;
    ovs_mutex_unlock(&w->mutex);
    return n;
}

/* Passes on syncd's acknowledgement of write 'applied_seq' of route 'key':
 * programmed if 'ok', otherwise failed because of 'error'. */
void
orchd_worker_ack(struct orchd_worker *w, const struct uuid *key,
                 int64_t applied_seq, bool ok, const char *error)
{
    struct task *t = xzalloc(sizeof *t);

    t->type = TASK_ACK;
    t->key = *key;
    t->seq = applied_seq;
    t->ok = ok;
    t->error = error ? xstrdup(error) : NULL;
    submit(w, t);
}

/* Applies bulker configuration 'cfg', in order with the updates queued
 * before it. */
void
orchd_worker_set_config(struct orchd_worker *w,
                        const struct orchd_bulker_config *cfg)
{
    struct task *t = xzalloc(sizeof *t);

    t->type = TASK_CONFIG;
    t->cfg = *cfg;
    submit(w, t);
}

/* On the southbound fast path, ends no resync with syncd until
 * orchd_worker_release_resync(): orchd does not know every route yet.
 * Call before orchd_worker_start(). */
void
orchd_worker_hold_resync(struct orchd_worker *w)
{
    ovs_assert(!w->started);
    if (w->sink->class->hold_resync) {
        w->sink->class->hold_resync(w->sink);
    }
}

/* Lets the southbound resync end, in order after the updates queued
 * before: orchd now knows every route. */
void
orchd_worker_release_resync(struct orchd_worker *w)
{
    submit_new(w, TASK_RELEASE_RESYNC);
}

/* Tells the Asic_Route write-behind of the southbound fast path to hold
 * back while 'yield' is true (fpmsyncd's Route writes are behind:
 * orchd-northbound.h), in order with the updates queued before.
 * Queues a task only when 'yield' changes. */
void
orchd_worker_yield_writebehind(struct orchd_worker *w, bool yield)
{
    if (yield != w->wb_yield) {
        struct task *t = xzalloc(sizeof *t);

        w->wb_yield = yield;
        t->type = TASK_YIELD_WB;
        t->ok = yield;
        submit(w, t);
    }
}

/* Says whether successes, not only failures, are reported as results
 * (only FIB suppression needs them). */
void
orchd_worker_want_results(struct orchd_worker *w, bool want)
{
    ovs_mutex_lock(&w->results_mutex);
    w->want_results = want;
    ovs_mutex_unlock(&w->results_mutex);
}

/* Main loop: in inline mode, drives the bulker and writer; in ring mode,
 * makes sure the worker has seen every push. */
void
orchd_worker_run(struct orchd_worker *w)
{
    if (w->use_ring) {
        seq_change(w->wake_seq);
        return;
    }
    ovs_mutex_lock(&w->mutex);
    run_sink(w);
    ovs_mutex_unlock(&w->mutex);
}

/* Arranges for the main loop to wake up when results arrive and, in
 * inline mode, when the writer, the BULK timer or the bulker has work. */
void
orchd_worker_wait(struct orchd_worker *w)
{
    seq_wait(w->results_seq, seq_read(w->results_seq));
    if (w->use_ring) {
        return;
    }
    ovs_mutex_lock(&w->mutex);
    wait_sink(w);
    if (orchd_bulker_n_pending(w->bulker)
        && orchd_bulker_n_outstanding(w->bulker)
           < orchd_bulker_get_config(w->bulker)->max_outstanding
        && bulker_can_send(w)) {
        poll_immediate_wake();
    }
    ovs_mutex_unlock(&w->mutex);
}

/* Blocks until every task queued so far has run. */
void
orchd_worker_drain(struct orchd_worker *w)
{
    if (!w->use_ring) {
        return;
    }
    for (;;) {
        uint64_t n_run;

        atomic_read(&w->n_run, &n_run);
        if (n_run >= w->n_pushed) {
            return;
        }
        seq_change(w->wake_seq);
        xnanosleep(200 * 1000);
    }
}

/* Returns how many tasks pushed into the ring the worker has not run yet,
 * given 'n_run' read from 'w->n_run' (0 without a ring). */
static size_t
ring_backlog(const struct orchd_worker *w, uint64_t n_run)
{
    return w->use_ring && w->n_pushed > n_run ? w->n_pushed - n_run : 0;
}

/* Returns true if nothing is queued, pending or outstanding. */
bool
orchd_worker_is_idle(struct orchd_worker *w)
{
    bool idle;
    uint64_t n_run;

    atomic_read(&w->n_run, &n_run);
    ovs_mutex_lock(&w->mutex);
    idle = !ring_backlog(w, n_run)
           && orchd_bulker_is_idle(w->bulker)
           && ovsdb_writer_is_idle(w->writer)
           && (!w->sink->class->is_idle
               || w->sink->class->is_idle(w->sink));
    ovs_mutex_unlock(&w->mutex);
    return idle;
}

/* Returns how many routes were handed to the worker and have not gone
 * into a bulk yet: tasks still in the ring and updates the bulker holds.
 * The Asic_Route write-behind and the database's backlog do not count:
 * the fast path never waits for them. */
size_t
orchd_worker_n_pending(struct orchd_worker *w)
{
    uint64_t n_run;
    size_t n;

    atomic_read(&w->n_run, &n_run);
    ovs_mutex_lock(&w->mutex);
    n = ring_backlog(w, n_run) + orchd_bulker_n_pending(w->bulker);
    ovs_mutex_unlock(&w->mutex);
    return n;
}

/* Returns a sequence number at or below that of every Asic_Route write
 * still waiting for syncd's acknowledgement, and of every write to come
 * (orchd_bulker_oldest_unacked_seq()).  Any thread. */
int64_t
orchd_worker_oldest_unacked_seq(struct orchd_worker *w)
{
    int64_t seq;

    ovs_mutex_lock(&w->mutex);
    seq = orchd_bulker_oldest_unacked_seq(w->bulker);
    ovs_mutex_unlock(&w->mutex);
    return seq;
}

/* Moves the write results reported so far to the end of 'out'; the
 * caller frees each with orchd_worker_result_destroy(). */
void
orchd_worker_take_results(struct orchd_worker *w, struct ovs_list *out)
{
    ovs_mutex_lock(&w->results_mutex);
    ovs_list_push_back_all(out, &w->results);
    ovs_mutex_unlock(&w->results_mutex);
}

/* Frees 'r'. */
void
orchd_worker_result_destroy(struct orchd_worker_result *r)
{
    if (r) {
        free(r->error);
        free(r);
    }
}

/* Appends the bulker's, writer's and read cache's counters to 's'. */
void
orchd_worker_format(struct orchd_worker *w, struct ds *s)
{
    ovs_mutex_lock(&w->mutex);
    orchd_bulker_format(w->bulker, s);
    if (w->sink->class->format) {
        w->sink->class->format(w->sink, s);
    }
    ds_put_cstr(s, "asic writer: ");
    ovsdb_writer_format_stats(w->writer, s);
    ds_put_format(s, "read cache: %"PRIuSIZE" routes programmed\n",
                  orchd_bulker_n_programmed(w->bulker));
    ovs_mutex_unlock(&w->mutex);
}

/* Appends the southbound fast path's state, for zmq/show. */
void
orchd_worker_format_southbound(struct orchd_worker *w, struct ds *s)
{
    ovs_mutex_lock(&w->mutex);
    w->sink->class->format_channel(w->sink, s);
    ovs_mutex_unlock(&w->mutex);
}

/* Appends the state and counters of the task ring to 's', for
 * ring/show. */
void
orchd_worker_format_ring(struct orchd_worker *w, struct ds *s)
{
    struct spsc_ring_stats st;
    uint64_t n_run;

    if (!w->use_ring) {
        ds_put_cstr(s, "ring: off (tasks run inline in the main thread)\n");
        return;
    }
    spsc_ring_get_stats(w->ring, &st);
    atomic_read(&w->n_run, &n_run);
    ds_put_format(s, "ring: on, capacity %"PRIuSIZE", queued %"PRIuSIZE
                  ", high-water %"PRIuSIZE"\n",
                  spsc_ring_capacity(w->ring), spsc_ring_count(w->ring),
                  (size_t) st.high_water);
    ds_put_format(s, "tasks: pushed %"PRIu64", run %"PRIu64
                  ", pushes that found it full %"PRIu64"\n",
                  w->n_pushed, n_run, w->n_full_waits);
}

/* Runs every queued task, stops the assistant thread if there is one,
 * and frees 'w'. */
void
orchd_worker_destroy(struct orchd_worker *w)
{
    struct orchd_worker_result *r;

    if (!w) {
        return;
    }
    if (w->use_ring && w->started) {
        orchd_worker_drain(w);
        atomic_store(&w->stop, true);
        seq_change(w->wake_seq);
        xpthread_join(w->thread, NULL);
        spsc_ring_destroy(w->ring);
    }
    orchd_cache_attach(w->cache, NULL, NULL);
    ovs_mutex_lock(&w->mutex);
    stop_sink(w);
    ovsdb_writer_destroy(w->writer);
    orchd_bulker_destroy(w->bulker);
    perf_timer_destroy(w->bulk_timer);
    ovs_mutex_unlock(&w->mutex);
    LIST_FOR_EACH_POP (r, node, &w->results) {
        orchd_worker_result_destroy(r);
    }
    seq_destroy(w->results_seq);
    seq_destroy(w->wake_seq);
    ovs_mutex_destroy(&w->results_mutex);
    ovs_mutex_destroy(&w->mutex);
    free(w);
}
