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

#ifndef FIBSYNC_SPSC_RING_H
#define FIBSYNC_SPSC_RING_H 1

/* Single-producer single-consumer ring of tasks, and a task runner.
 *
 * This is the ring buffer of SONiC's orchagent route-performance work: the
 * main thread turns each batch of route changes into tasks (a function and
 * its context) and pushes them; an assistant thread pops and runs them in
 * order, so that parsing and SAI calls overlap.
 *
 * struct spsc_ring
 * ================
 *
 * A lock-free ring with a fixed power-of-two capacity.  Exactly one thread
 * may push (the producer) and exactly one thread may pop (the consumer) at
 * any time; which threads those are may change only across a
 * synchronization point (for example, a mutex or a thread join).
 * spsc_ring_push() returns false when the ring is full, so that the caller
 * can wait and retry.  The head and tail indexes live on separate cache
 * lines, and each side caches the other's index, so that in steady state a
 * push or pop touches only its own line plus the slot.  Indexes are 64-bit
 * and never wrap in practice.
 *
 * struct spsc_ring_runner
 * =======================
 *
 * A ring plus an assistant thread that pops tasks and runs them in push
 * order.  The thread that pushes is the producer; the assistant thread is
 * the only consumer.  The assistant spins briefly when the ring empties and
 * then sleeps on a condition variable; a push wakes it only when it sleeps,
 * so a busy runner takes no locks and a push costs no memory fence (the
 * rare wake-up this can miss is caught by a 1 ms timeout; see
 * spsc-ring.c).  spsc_ring_runner_drain() blocks until
 * every task pushed so far has run (before shutdown, restart or freeze);
 * spsc_ring_runner_stop() drains and joins the thread.
 *
 * Tasks run on the assistant thread: they must not call drain() or stop()
 * on their own runner, and must synchronize any state they share with the
 * producer themselves (the ring orders a task's context writes made before
 * the push before the task runs).
 *
 * Counters (spsc_ring_get_stats(), spsc_ring_runner_get_stats()) may be read
 * from any thread; every runner is listed by the "ring/show" unixctl command
 * once spsc_ring_register_unixctl() has been called. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;

/* A task: 'func' is called with 'ctx' on the consumer side. */
typedef void spsc_ring_task_func(void *ctx);

/* One ring entry. */
struct spsc_ring_task {
    spsc_ring_task_func *func;  /* Function to run. */
    void *ctx;                  /* Its argument. */
};

/* Counters of a ring, and of a runner when read through one. */
struct spsc_ring_stats {
    uint64_t capacity;          /* Number of slots. */
    uint64_t pushed;            /* Tasks pushed successfully. */
    uint64_t popped;            /* Tasks popped. */
    uint64_t full;              /* Pushes refused because the ring was full. */
    uint64_t high_water;        /* Most tasks ever queued at once. */

    /* Runner only (zero for a bare ring). */
    uint64_t run;               /* Tasks that have finished running. */
    uint64_t full_waits;        /* spsc_ring_runner_push_wait() calls that
                                 * found the ring full and had to wait. */
    uint64_t wakeups;           /* Times a push woke the sleeping thread. */
    uint64_t sleeps;            /* Times the assistant thread slept. */
    uint64_t late_wakeups;      /* Sleeps ended by the safety timeout
                                 * rather than a push (see spsc-ring.c). */
};

/* The ring. */
struct spsc_ring *spsc_ring_create(size_t capacity);
void spsc_ring_destroy(struct spsc_ring *);
size_t spsc_ring_capacity(const struct spsc_ring *);

bool spsc_ring_push(struct spsc_ring *, spsc_ring_task_func *, void *ctx);
bool spsc_ring_pop(struct spsc_ring *, struct spsc_ring_task *);
size_t spsc_ring_pop_batch(struct spsc_ring *, struct spsc_ring_task *,
                           size_t max);

size_t spsc_ring_count(const struct spsc_ring *);
bool spsc_ring_is_empty(const struct spsc_ring *);
void spsc_ring_get_stats(const struct spsc_ring *, struct spsc_ring_stats *);

/* The runner. */
struct spsc_ring_runner *spsc_ring_runner_create(const char *name,
                                                 size_t capacity,
                                                 size_t batch);
void spsc_ring_runner_destroy(struct spsc_ring_runner *);
const char *spsc_ring_runner_name(const struct spsc_ring_runner *);

bool spsc_ring_runner_push(struct spsc_ring_runner *,
                           spsc_ring_task_func *, void *ctx);
void spsc_ring_runner_push_wait(struct spsc_ring_runner *,
                                spsc_ring_task_func *, void *ctx);
void spsc_ring_runner_drain(struct spsc_ring_runner *);
void spsc_ring_runner_stop(struct spsc_ring_runner *);

void spsc_ring_runner_get_stats(const struct spsc_ring_runner *,
                                struct spsc_ring_stats *);
void spsc_ring_runner_format(const struct spsc_ring_runner *, struct ds *);

/* "ring/show [NAME]". */
void spsc_ring_register_unixctl(void);
void spsc_ring_format_all(const char *name, struct ds *);

#endif /* lib/spsc-ring.h */
