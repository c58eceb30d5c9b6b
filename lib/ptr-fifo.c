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
#include "lib/ptr-fifo.h"

#include <string.h>

#include "util.h"

/* The first ring's size. */
#define PTR_FIFO_MIN 1024

/* Initializes 'f', empty.  It allocates nothing until the first push. */
void
ptr_fifo_init(struct ptr_fifo *f)
{
    *f = (struct ptr_fifo) PTR_FIFO_INITIALIZER;
}

/* Frees the ring of 'f' and empties it.  The pointers are the caller's. */
void
ptr_fifo_destroy(struct ptr_fifo *f)
{
    free(f->slots);
    ptr_fifo_init(f);
}

/* Doubles the ring of 'f' (ptr_fifo_push() calls it when 'f' is full),
 * keeping its order. */
void
ptr_fifo_grow(struct ptr_fifo *f)
{
    size_t allocated = f->allocated ? 2 * f->allocated : PTR_FIFO_MIN;
    void **slots = xmalloc(allocated * sizeof *slots);

    for (size_t i = 0; i < f->n; i++) {
        slots[i] = f->slots[(f->head + i) & (f->allocated - 1)];
    }
    free(f->slots);
    f->slots = slots;
    f->head = 0;
    f->allocated = allocated;
}
