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

#ifndef SPSC_RING_H
#define SPSC_RING_H 1

/* Single-producer single-consumer ring of tasks.
 *
 * This is the ring buffer of SONiC's orchagent route-performance work: the
 * main thread turns each batch of route changes into tasks (a function and
 * its context) and pushes them; an assistant thread pops and runs them in
 * order, so that parsing and SAI calls overlap.  The ring only carries the
 * tasks: the assistant thread's loop, how it sleeps and how it is woken
 * are its owner's (orchd's is in daemons/orchd/orchd-worker.c).
 *
 * A lock-free ring with a fixed power-of-two capacity.  Exactly one thread
 * may push (the producer) and exactly one thread may pop (the consumer) at
 * any time; which threads those are may change only across a
 * synchronization point (for example, a mutex or a thread join).
 * spsc_ring_push() returns false when the ring is full, so that the caller
 * can wait and retry.  The head and tail indexes live on separate cache
 * lines, and each side caches the other's index, so that in steady state a
 * push or pop touches only its own line plus the slot.  Indexes are 64-bit
 * and never wrap in practice.  What the producer writes before a push
 * (the task's context, say) is visible to the consumer once it has popped
 * that task.
 *
 * Counters (spsc_ring_get_stats()) may be read from any thread. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A task: 'func' is called with 'ctx' on the consumer side. */
typedef void spsc_ring_task_func(void *ctx);

/* One ring entry. */
struct spsc_ring_task {
    spsc_ring_task_func *func;  /* Function to run. */
    void *ctx;                  /* Its argument. */
};

/* Counters of a ring. */
struct spsc_ring_stats {
    uint64_t capacity;          /* Number of slots. */
    uint64_t pushed;            /* Tasks pushed successfully. */
    uint64_t popped;            /* Tasks popped. */
    uint64_t full;              /* Pushes refused because the ring was full. */
    uint64_t high_water;        /* Most tasks ever queued at once. */
};

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

#endif /* spsc-ring.h */
