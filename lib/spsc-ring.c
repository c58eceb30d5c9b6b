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

#include "ovs-atomic.h"
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

/* Stores the counters of 'r' in '*stats'.  Safe from any thread. */
void
spsc_ring_get_stats(const struct spsc_ring *r_, struct spsc_ring_stats *stats)
{
    struct spsc_ring *r = CONST_CAST(struct spsc_ring *, r_);

    stats->capacity = r->mask + 1;
    atomic_read_explicit(&r->tail, &stats->popped, memory_order_acquire);
    atomic_read_explicit(&r->head, &stats->pushed, memory_order_acquire);
    atomic_read_relaxed(&r->n_full, &stats->full);
    atomic_read_relaxed(&r->high_water, &stats->high_water);
}
