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

#ifndef PTR_FIFO_H
#define PTR_FIFO_H 1

/* ptr-fifo: a first-in first-out queue of pointers, in a ring that doubles
 * when it is full (and never shrinks).
 *
 * It is the queue of the coalescing writers: lib/row-queue.h queues the
 * rows to write to OVSDB on one, fpmsyncd's fast path
 * (fpmsyncd-zmq.h) the routes to send to orchd on another.  Each
 * keeps, in its own object, a bit that says the object is queued, so that
 * an object is queued at most once and changes to it coalesce: the queue
 * knows nothing of that bit.
 *
 * Pushing and popping cost no allocation once the ring is large enough:
 * a queue of N pointers holds 8 N to 16 N bytes.
 *
 * Thread safety: none. */

#include <stddef.h>

/* The queue. */
struct ptr_fifo {
    void **slots;               /* Ring of 'allocated' pointers. */
    size_t head;                /* Index of the oldest in 'slots'. */
    size_t n;                   /* Pointers queued. */
    size_t allocated;           /* Size of 'slots': 0 or a power of 2. */
};

#define PTR_FIFO_INITIALIZER { NULL, 0, 0, 0 }

void ptr_fifo_init(struct ptr_fifo *);
void ptr_fifo_destroy(struct ptr_fifo *);
void ptr_fifo_grow(struct ptr_fifo *);

/* Returns the number of pointers in 'f'. */
static inline size_t
ptr_fifo_len(const struct ptr_fifo *f)
{
    return f->n;
}

/* Appends 'p' to 'f'. */
static inline void
ptr_fifo_push(struct ptr_fifo *f, void *p)
{
    if (f->n == f->allocated) {
        ptr_fifo_grow(f);
    }
    f->slots[(f->head + f->n) & (f->allocated - 1)] = p;
    f->n++;
}

/* Puts 'p' in front of 'f', as its oldest pointer. */
static inline void
ptr_fifo_push_front(struct ptr_fifo *f, void *p)
{
    if (f->n == f->allocated) {
        ptr_fifo_grow(f);
    }
    f->head = (f->head - 1) & (f->allocated - 1);
    f->slots[f->head] = p;
    f->n++;
}

/* Returns the oldest pointer in 'f', without removing it, or NULL if it is
 * empty. */
static inline void *
ptr_fifo_peek(const struct ptr_fifo *f)
{
    return f->n ? f->slots[f->head] : NULL;
}

/* Removes and returns the oldest pointer in 'f', or NULL if it is
 * empty. */
static inline void *
ptr_fifo_pop(struct ptr_fifo *f)
{
    void *p;

    if (!f->n) {
        return NULL;
    }
    p = f->slots[f->head];
    f->head = (f->head + 1) & (f->allocated - 1);
    f->n--;
    return p;
}

#endif /* ptr-fifo.h */
