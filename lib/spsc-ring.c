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

#include <config.h>

#include "lib/spsc-ring.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "openvswitch/dynamic-string.h"
#include "openvswitch/list.h"
#include "ovs-atomic.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "unixctl.h"
#include "util.h"

/* Memory ordering.
 *
 * The producer writes a slot, then publishes it with a release store of
 * 'head'; the consumer reads 'head' with an acquire load before reading the
 * slot.  Symmetrically the consumer releases a slot with a release store of
 * 'tail' after copying it out, and the producer reads 'tail' with acquire
 * before overwriting it.  Each side caches the other's index and re-reads it
 * only when its cached copy says the ring is full (producer) or empty
 * (consumer), so in steady state the two cache lines are not bounced on
 * every operation. */

/* The ring.  Each group of members sits on its own cache line; allocate
 * with xzalloc_cacheline(). */
struct spsc_ring {
    /* Read-only after creation, read by both sides. */
    PADDED_MEMBERS(CACHE_LINE_SIZE,
        struct spsc_ring_task *slots;   /* 'mask + 1' slots. */
        uint64_t mask;                  /* Capacity - 1 (power of 2). */
    );

    /* Written by the producer only. */
    PADDED_MEMBERS(CACHE_LINE_SIZE,
        atomic_uint64_t head;       /* Tasks ever pushed; next slot. */
        uint64_t tail_cache;        /* Producer's last view of 'tail'. */
        atomic_uint64_t n_full;     /* Pushes refused, ring full. */
        atomic_uint64_t high_water; /* Most tasks queued at once. */
    );

    /* Written by the consumer only. */
    PADDED_MEMBERS(CACHE_LINE_SIZE,
        atomic_uint64_t tail;       /* Tasks ever popped; next slot. */
        uint64_t head_cache;        /* Consumer's last view of 'head'. */
    );
};

/* Creates a ring with room for 'capacity' tasks, rounded up to a power of 2
 * (at least 2). */
struct spsc_ring *
spsc_ring_create(size_t capacity)
{
    struct spsc_ring *r = xzalloc_cacheline(sizeof *r);
    uint64_t n = 2;

    ovs_assert(capacity <= (SIZE_MAX / sizeof *r->slots) / 2);
    while (n < capacity) {
        n *= 2;
    }
    r->slots = xmalloc_cacheline(n * sizeof *r->slots);
    r->mask = n - 1;
    atomic_init(&r->head, 0);
    atomic_init(&r->n_full, 0);
    atomic_init(&r->high_water, 0);
    atomic_init(&r->tail, 0);
    return r;
}

/* Frees 'r'.  Tasks still queued are dropped without running. */
void
spsc_ring_destroy(struct spsc_ring *r)
{
    if (r) {
        free_cacheline(r->slots);
        free_cacheline(r);
    }
}

/* Returns the number of slots in 'r'. */
size_t
spsc_ring_capacity(const struct spsc_ring *r)
{
    return r->mask + 1;
}

/* Updates the high-water mark after the push that made 'head' the head.
 * The producer's cached tail gives an upper bound of the occupancy; only
 * when that bound exceeds the mark is the real tail read, so a ring that
 * keeps a steady depth rarely touches the consumer's cache line. */
static void
update_high_water(struct spsc_ring *r, uint64_t head)
{
    uint64_t hw, n;

    atomic_read_relaxed(&r->high_water, &hw);
    if (head - r->tail_cache > hw) {
        atomic_read_explicit(&r->tail, &r->tail_cache, memory_order_acquire);
        n = head - r->tail_cache;
        if (n > hw) {
            atomic_store_relaxed(&r->high_water, n);
        }
    }
}

/* Producer only.  Appends the task ('func', 'ctx') to 'r'.  Returns false,
 * without blocking, if 'r' is full. */
bool
spsc_ring_push(struct spsc_ring *r, spsc_ring_task_func *func, void *ctx)
{
    uint64_t head;

    atomic_read_relaxed(&r->head, &head);
    if (head - r->tail_cache > r->mask) {
        atomic_read_explicit(&r->tail, &r->tail_cache, memory_order_acquire);
        if (head - r->tail_cache > r->mask) {
            uint64_t n_full;

            atomic_read_relaxed(&r->n_full, &n_full);
            atomic_store_relaxed(&r->n_full, n_full + 1);
            return false;
        }
    }

    struct spsc_ring_task *slot = &r->slots[head & r->mask];
    slot->func = func;
    slot->ctx = ctx;
    atomic_store_explicit(&r->head, head + 1, memory_order_release);

    update_high_water(r, head + 1);
    return true;
}

/* Consumer only.  Removes up to 'max' tasks from 'r', oldest first, into
 * 'tasks'.  Returns the number removed, 0 if 'r' is empty. */
size_t
spsc_ring_pop_batch(struct spsc_ring *r, struct spsc_ring_task *tasks,
                    size_t max)
{
    uint64_t tail, avail;

    atomic_read_relaxed(&r->tail, &tail);
    avail = r->head_cache - tail;
    if (avail < max) {
        atomic_read_explicit(&r->head, &r->head_cache, memory_order_acquire);
        avail = r->head_cache - tail;
        if (!avail) {
            return 0;
        }
    }

    size_t n = MIN(avail, max);
    for (size_t i = 0; i < n; i++) {
        tasks[i] = r->slots[(tail + i) & r->mask];
    }
    atomic_store_explicit(&r->tail, tail + n, memory_order_release);
    return n;
}

/* Consumer only.  Removes the oldest task from 'r' into '*task'.  Returns
 * false if 'r' is empty. */
bool
spsc_ring_pop(struct spsc_ring *r, struct spsc_ring_task *task)
{
    return spsc_ring_pop_batch(r, task, 1) == 1;
}

/* Returns the number of tasks queued in 'r'.  Exact when called by the
 * producer or the consumer while the other side is idle; otherwise a
 * snapshot that may be stale by the time it returns. */
size_t
spsc_ring_count(const struct spsc_ring *r_)
{
    struct spsc_ring *r = CONST_CAST(struct spsc_ring *, r_);
    uint64_t head, tail;

    /* 'tail' first: 'head' read later is at least as large. */
    atomic_read_explicit(&r->tail, &tail, memory_order_acquire);
    atomic_read_explicit(&r->head, &head, memory_order_acquire);
    return head - tail;
}

/* Returns true if 'r' has no queued task (see spsc_ring_count()). */
bool
spsc_ring_is_empty(const struct spsc_ring *r)
{
    return !spsc_ring_count(r);
}

/* Stores the counters of 'r' in '*stats' (the runner-only counters are
 * zeroed).  Safe from any thread. */
void
spsc_ring_get_stats(const struct spsc_ring *r_, struct spsc_ring_stats *stats)
{
    struct spsc_ring *r = CONST_CAST(struct spsc_ring *, r_);

    memset(stats, 0, sizeof *stats);
    stats->capacity = r->mask + 1;
    atomic_read_explicit(&r->tail, &stats->popped, memory_order_acquire);
    atomic_read_explicit(&r->head, &stats->pushed, memory_order_acquire);
    atomic_read_relaxed(&r->n_full, &stats->full);
    atomic_read_relaxed(&r->high_water, &stats->high_water);
}

/* Task runner. */

/* Iterations the assistant thread polls an empty ring before sleeping: a
 * producer in the middle of a batch is usually back within microseconds,
 * and a wake-up through the condition variable costs tens of them. */
#define RUNNER_SPINS 2000

/* Wake-up protocol.
 *
 * A push must wake the assistant thread if it sleeps.  The textbook way,
 * a seq_cst fence between the producer's store of 'head' and its load of
 * 'sleeping' (paired with a fence between the consumer's store of
 * 'sleeping' and its load of 'head'), costs about 140 ns a push here,
 * because the fence waits for the store of 'head' to reach a cache line the
 * consumer keeps reading: it cut a runner from 25M to 6M tasks/s.
 *
 * So a plain push reads 'sleeping' without the fence.  It can then miss a
 * consumer that is going to sleep at that very instant, while the push's
 * store of 'head' still sits in the producer's store buffer.  The consumer
 * covers that window itself: its first wait is short (RUNNER_FIRST_WAIT_MS)
 * and it then re-checks the ring, with 'sleeping' still set, so that any
 * later push sees it.  Later waits back off to RUNNER_MAX_WAIT_MS, only
 * against the theoretical case of a store staying invisible longer.  The
 * operations that block the producer (drain, push_wait on a full ring,
 * stop) use the fenced wake-up and never depend on the timeout.
 * 'late_wakeups' counts the timeouts that found work. */
#define RUNNER_FIRST_WAIT_MS 1
#define RUNNER_MAX_WAIT_MS 128

/* A ring and the assistant thread that runs its tasks. */
struct spsc_ring_runner {
    struct ovs_list list_node;  /* In 'all_runners'. */
    char *name;                 /* For logs and "ring/show". */
    struct spsc_ring *ring;     /* The tasks. */
    size_t batch;               /* Most tasks popped at once. */
    pthread_t thread;           /* The assistant thread. */
    bool running;               /* Thread started and not stopped. */

    struct ovs_mutex mutex;     /* Guards sleeping and waiting, below. */
    pthread_cond_t work_cond;   /* Signaled on a push to a sleeping thread
                                 * and on stop.  Uses CLOCK_MONOTONIC. */
    pthread_cond_t progress_cond; /* Broadcast when tasks have run and
                                   * 'n_waiters' is nonzero. */

    /* Written by the assistant thread for every batch. */
    PADDED_MEMBERS(CACHE_LINE_SIZE,
        atomic_uint64_t run;    /* Tasks that have finished running. */
        atomic_uint64_t sleeps; /* Times it went to sleep. */
        atomic_uint64_t late_wakeups; /* Wait timeouts that found work. */
    );

    /* Written by the assistant thread when it sleeps or wakes up, read by
     * every push: kept apart from 'run' so that pushes do not miss. */
    PADDED_MEMBERS(CACHE_LINE_SIZE,
        atomic_bool sleeping;   /* Asleep (or about to) on 'work_cond'. */
    );

    /* Written by the producer and other waiting threads. */
    PADDED_MEMBERS(CACHE_LINE_SIZE,
        atomic_uint n_waiters;  /* Threads waiting on 'progress_cond'. */
        atomic_bool stop;       /* Set by stop() after draining. */
        atomic_uint64_t full_waits; /* push_wait() calls that waited. */
        atomic_uint64_t wakeups;    /* Pushes that woke the thread. */
    );
};

/* All runners, for "ring/show". */
static struct ovs_mutex all_runners_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list all_runners OVS_GUARDED_BY(all_runners_mutex)
    = OVS_LIST_INITIALIZER(&all_runners);

/* Lets a sibling hyperthread run while spinning. */
static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* Increments counter 'c', which only the calling thread writes. */
static inline void
counter_inc(atomic_uint64_t *c)
{
    uint64_t n;

    atomic_read_relaxed(c, &n);
    atomic_store_relaxed(c, n + 1);
}

/* Wakes up everyone waiting for progress on 'r', if anyone is.  Called by
 * the assistant thread after publishing a new 'run' count (and so a new
 * 'tail').  The fence pairs with the one that follows the increment of
 * 'n_waiters' in the waiters: either they see the progress or this sees
 * them, and then the broadcast, made under the mutex they hold until they
 * wait, cannot be lost. */
static void
runner_notify_progress(struct spsc_ring_runner *r)
{
    unsigned int n_waiters;

    atomic_thread_fence(memory_order_seq_cst);
    atomic_read_relaxed(&r->n_waiters, &n_waiters);
    if (n_waiters) {
        ovs_mutex_lock(&r->mutex);
        xpthread_cond_broadcast(&r->progress_cond);
        ovs_mutex_unlock(&r->mutex);
    }
}

/* Waits on 'r->work_cond' for at most 'ms' milliseconds.  Returns true if
 * the wait timed out. */
static bool
runner_timed_wait(struct spsc_ring_runner *r, int ms)
    OVS_REQUIRES(r->mutex)
{
    struct timespec ts;
    int error;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (long) (ms % 1000) * 1000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    error = pthread_cond_timedwait(&r->work_cond, &r->mutex.lock, &ts);
    if (error && error != ETIMEDOUT) {
        ovs_abort(error, "pthread_cond_timedwait failed");
    }
    return error == ETIMEDOUT;
}

/* Puts the assistant thread of 'r' to sleep until a push or a stop, unless
 * one has already happened (see "Wake-up protocol" above).  Returns true if
 * 'r' is stopping and its ring is empty, meaning the thread should exit. */
static bool
runner_sleep(struct spsc_ring_runner *r)
{
    int wait_ms = RUNNER_FIRST_WAIT_MS;
    bool stop, slept = false;

    ovs_mutex_lock(&r->mutex);
    atomic_store_relaxed(&r->sleeping, true);
    /* Pairs with the fence in runner_wake(): either a fenced waker sees
     * 'sleeping' or this sees its new 'head'. */
    atomic_thread_fence(memory_order_seq_cst);
    for (;;) {
        atomic_read_relaxed(&r->stop, &stop);
        if (stop || !spsc_ring_is_empty(r->ring)) {
            break;
        }
        if (!slept) {
            slept = true;
            counter_inc(&r->sleeps);
            ovsrcu_quiesce_start();
        }
        if (runner_timed_wait(r, wait_ms)) {
            if (!spsc_ring_is_empty(r->ring)) {
                counter_inc(&r->late_wakeups);
            }
            wait_ms = MIN(wait_ms * 2, RUNNER_MAX_WAIT_MS);
        } else {
            /* Signaled: a push or a stop.  Check once more, and fall back
             * to the short timeout. */
            wait_ms = RUNNER_FIRST_WAIT_MS;
        }
    }
    if (slept) {
        ovsrcu_quiesce_end();
    }
    atomic_store_relaxed(&r->sleeping, false);
    ovs_mutex_unlock(&r->mutex);

    return stop && spsc_ring_is_empty(r->ring);
}

/* The assistant thread: pops batches of tasks and runs them in order. */
static void *
runner_main(void *r_)
{
    struct spsc_ring_runner *r = r_;
    struct spsc_ring_task *tasks = xmalloc(r->batch * sizeof *tasks);
    unsigned int batches = 0;
    uint64_t run = 0;
    int spins = 0;

    for (;;) {
        size_t n = spsc_ring_pop_batch(r->ring, tasks, r->batch);

        if (n) {
            for (size_t i = 0; i < n; i++) {
                tasks[i].func(tasks[i].ctx);
            }
            run += n;
            atomic_store_explicit(&r->run, run, memory_order_release);
            runner_notify_progress(r);
            if (!(++batches % 64)) {
                /* Let RCU callbacks of other threads proceed while this
                 * thread stays busy for a long time. */
                ovsrcu_try_quiesce();
            }
            spins = 0;
        } else if (++spins < RUNNER_SPINS) {
            cpu_relax();
            if (!(spins % 256)) {
                sched_yield();
            }
        } else {
            if (runner_sleep(r)) {
                break;
            }
            spins = 0;
        }
    }
    free(tasks);
    return NULL;
}

/* Creates a runner named 'name' with a ring of 'capacity' tasks (rounded up
 * to a power of 2) and starts its assistant thread, which pops up to
 * 'batch' tasks at once (0 means 128).  The calling thread becomes the
 * producer. */
struct spsc_ring_runner *
spsc_ring_runner_create(const char *name, size_t capacity, size_t batch)
{
    struct spsc_ring_runner *r = xzalloc_cacheline(sizeof *r);

    r->name = xstrdup(name);
    r->ring = spsc_ring_create(capacity);
    r->batch = batch ? batch : 128;
    pthread_condattr_t attr;

    ovs_mutex_init(&r->mutex);
    if (pthread_condattr_init(&attr)
        || pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)) {
        ovs_abort(0, "pthread_condattr failed");
    }
    xpthread_cond_init(&r->work_cond, &attr);
    pthread_condattr_destroy(&attr);
    xpthread_cond_init(&r->progress_cond, NULL);
    atomic_init(&r->run, 0);
    atomic_init(&r->sleeping, false);
    atomic_init(&r->sleeps, 0);
    atomic_init(&r->late_wakeups, 0);
    atomic_init(&r->n_waiters, 0);
    atomic_init(&r->stop, false);
    atomic_init(&r->full_waits, 0);
    atomic_init(&r->wakeups, 0);

    r->running = true;
    r->thread = ovs_thread_create(name, runner_main, r);

    ovs_mutex_lock(&all_runners_mutex);
    ovs_list_push_back(&all_runners, &r->list_node);
    ovs_mutex_unlock(&all_runners_mutex);
    return r;
}

/* Stops 'r' (see spsc_ring_runner_stop()) and frees it. */
void
spsc_ring_runner_destroy(struct spsc_ring_runner *r)
{
    if (!r) {
        return;
    }
    spsc_ring_runner_stop(r);

    ovs_mutex_lock(&all_runners_mutex);
    ovs_list_remove(&r->list_node);
    ovs_mutex_unlock(&all_runners_mutex);

    xpthread_cond_destroy(&r->work_cond);
    xpthread_cond_destroy(&r->progress_cond);
    ovs_mutex_destroy(&r->mutex);
    spsc_ring_destroy(r->ring);
    free(r->name);
    free_cacheline(r);
}

/* Returns the name of 'r'. */
const char *
spsc_ring_runner_name(const struct spsc_ring_runner *r)
{
    return r->name;
}

/* Wakes the assistant thread of 'r' if it sleeps.  Called by the producer
 * after publishing a new 'head'.  If 'fenced', the check is exact (the
 * fence pairs with the one in runner_sleep()); otherwise it is cheap and
 * may miss a thread just going to sleep, which then finds the work after
 * its first short timeout (see "Wake-up protocol" above). */
static void
runner_wake(struct spsc_ring_runner *r, bool fenced)
{
    bool sleeping;

    if (fenced) {
        atomic_thread_fence(memory_order_seq_cst);
    }
    atomic_read_relaxed(&r->sleeping, &sleeping);
    if (sleeping) {
        ovs_mutex_lock(&r->mutex);
        xpthread_cond_signal(&r->work_cond);
        ovs_mutex_unlock(&r->mutex);
        counter_inc(&r->wakeups);
    }
}

/* Producer only.  Queues the task ('func', 'ctx') to run on the assistant
 * thread after every task pushed before it.  Returns false, without
 * blocking, if the ring is full; the caller can do other work and retry, or
 * use spsc_ring_runner_push_wait(). */
bool
spsc_ring_runner_push(struct spsc_ring_runner *r,
                      spsc_ring_task_func *func, void *ctx)
{
    ovs_assert(r->running);
    if (spsc_ring_push(r->ring, func, ctx)) {
        runner_wake(r, false);
        return true;
    }
    return false;
}

/* Producer only.  Like spsc_ring_runner_push(), but when the ring is full,
 * waits until the assistant thread has made room. */
void
spsc_ring_runner_push_wait(struct spsc_ring_runner *r,
                           spsc_ring_task_func *func, void *ctx)
{
    if (spsc_ring_runner_push(r, func, ctx)) {
        return;
    }

    counter_inc(&r->full_waits);
    runner_wake(r, true);
    for (int i = 0; i < 64; i++) {
        sched_yield();
        if (spsc_ring_runner_push(r, func, ctx)) {
            return;
        }
    }

    unsigned int orig;
    ovs_mutex_lock(&r->mutex);
    atomic_add(&r->n_waiters, 1, &orig);
    /* Pairs with the fence in runner_notify_progress(). */
    atomic_thread_fence(memory_order_seq_cst);
    while (!spsc_ring_push(r->ring, func, ctx)) {
        ovs_mutex_cond_wait(&r->progress_cond, &r->mutex);
    }
    atomic_sub(&r->n_waiters, 1, &orig);
    ovs_mutex_unlock(&r->mutex);
    runner_wake(r, true);
}

/* Blocks until every task pushed to 'r' so far has finished running.  Call
 * it from the producer thread (or any thread while the producer does not
 * push); never from a task of 'r'. */
void
spsc_ring_runner_drain(struct spsc_ring_runner *r)
{
    uint64_t target, run;
    unsigned int orig;

    if (!r->running) {
        return;
    }
    ovs_assert(!pthread_equal(pthread_self(), r->thread));

    atomic_read_explicit(&r->ring->head, &target, memory_order_acquire);
    atomic_read_explicit(&r->run, &run, memory_order_acquire);
    if (run >= target) {
        return;
    }
    runner_wake(r, true);

    ovs_mutex_lock(&r->mutex);
    atomic_add(&r->n_waiters, 1, &orig);
    /* Pairs with the fence in runner_notify_progress(). */
    atomic_thread_fence(memory_order_seq_cst);
    for (;;) {
        atomic_read_explicit(&r->run, &run, memory_order_acquire);
        if (run >= target) {
            break;
        }
        ovs_mutex_cond_wait(&r->progress_cond, &r->mutex);
    }
    atomic_sub(&r->n_waiters, 1, &orig);
    ovs_mutex_unlock(&r->mutex);
}

/* Runs every task pushed to 'r', then stops and joins its assistant
 * thread.  Pushing after this is a bug.  Does nothing if already stopped. */
void
spsc_ring_runner_stop(struct spsc_ring_runner *r)
{
    if (!r->running) {
        return;
    }
    spsc_ring_runner_drain(r);

    ovs_mutex_lock(&r->mutex);
    atomic_store(&r->stop, true);
    xpthread_cond_signal(&r->work_cond);
    ovs_mutex_unlock(&r->mutex);

    xpthread_join(r->thread, NULL);
    r->running = false;
}

/* Stores the counters of 'r' in '*stats'.  Safe from any thread. */
void
spsc_ring_runner_get_stats(const struct spsc_ring_runner *r_,
                           struct spsc_ring_stats *stats)
{
    struct spsc_ring_runner *r = CONST_CAST(struct spsc_ring_runner *, r_);

    spsc_ring_get_stats(r->ring, stats);
    atomic_read_explicit(&r->run, &stats->run, memory_order_acquire);
    atomic_read_relaxed(&r->full_waits, &stats->full_waits);
    atomic_read_relaxed(&r->wakeups, &stats->wakeups);
    atomic_read_relaxed(&r->sleeps, &stats->sleeps);
    atomic_read_relaxed(&r->late_wakeups, &stats->late_wakeups);
}

/* Appends one line describing 'r' to 's', for "ring/show":
 * "NAME: capacity=... queued=... pushed=... run=... full=... full_waits=...
 * high_water=... wakeups=... sleeps=... late_wakeups=...". */
void
spsc_ring_runner_format(const struct spsc_ring_runner *r, struct ds *s)
{
    struct spsc_ring_stats st;

    spsc_ring_runner_get_stats(r, &st);
    ds_put_format(s, "%s: capacity=%"PRIu64" queued=%"PRIu64
                  " pushed=%"PRIu64" run=%"PRIu64" full=%"PRIu64
                  " full_waits=%"PRIu64" high_water=%"PRIu64
                  " wakeups=%"PRIu64" sleeps=%"PRIu64
                  " late_wakeups=%"PRIu64"%s\n",
                  r->name, st.capacity, st.pushed - st.popped, st.pushed,
                  st.run, st.full, st.full_waits, st.high_water,
                  st.wakeups, st.sleeps, st.late_wakeups,
                  r->running ? "" : " (stopped)");
}

/* Appends to 's' a line for each runner, or only for the one named 'name'
 * if it is nonnull. */
void
spsc_ring_format_all(const char *name, struct ds *s)
{
    struct spsc_ring_runner *r;

    ovs_mutex_lock(&all_runners_mutex);
    LIST_FOR_EACH (r, list_node, &all_runners) {
        if (!name || !strcmp(name, r->name)) {
            spsc_ring_runner_format(r, s);
        }
    }
    ovs_mutex_unlock(&all_runners_mutex);
}

/* "ring/show [NAME]". */
static void
spsc_ring_unixctl_show(struct unixctl_conn *conn, int argc,
                       const char *argv[], void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    spsc_ring_format_all(argc > 1 ? argv[1] : NULL, &s);
    if (argc > 1 && !s.length) {
        unixctl_command_reply_error(conn, "no such ring");
    } else {
        unixctl_command_reply(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

/* Registers the "ring/show [NAME]" unixctl command.  Call from the main
 * thread; later calls do nothing. */
void
spsc_ring_register_unixctl(void)
{
    static bool registered;

    if (!registered) {
        registered = true;
        unixctl_command_register("ring/show", "[NAME]", 0, 1,
                                 spsc_ring_unixctl_show, NULL);
    }
}
