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


/* block-arena: memory in blocks of one size, freed block indexes used
 * again (lib/block-arena.h). */

#include <config.h>
#include "lib/block-arena.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Pushes freed index 'i' onto 's'. */
void
block_arena_free_push(struct block_arena_free *s, size_t i)
{
    if (s->n >= s->allocated) {
        s->idx = x2nrealloc(s->idx, &s->allocated, sizeof *s->idx);
    }
    s->idx[s->n++] = i;
}

/* Pops the index freed last into '*i'.  Returns false if there is none. */
bool
block_arena_free_pop(struct block_arena_free *s, size_t *i)
{
    if (!s->n) {
        return false;
    }
    *i = s->idx[--s->n];
    return true;
}

/* Initializes arena 'a', empty. */
void
block_arena_init(struct block_arena *a)
{
    memset(a, 0, sizeof *a);
    a->cur = SIZE_MAX;
}

/* Frees arena 'a' and its blocks, and initializes it again. */
void
block_arena_clear(struct block_arena *a)
{
    for (size_t j = 0; j < a->n_blocks; j++) {
        free(a->blocks[j]);
    }
    free(a->blocks);
    free(a->live);
    free(a->free_idx.idx);
    block_arena_init(a);
}

/* Frees block 'b' of arena 'a', which holds no value, for its index to
 * be used again. */
void
block_arena_free_block(struct block_arena *a, size_t b)
{
    free(a->blocks[b]);
    a->blocks[b] = NULL;
    block_arena_free_push(&a->free_idx, b);
}

/* Returns the index of a block of 'block_size' bytes of arena 'a' to fill,
 * allocated, with no value counted in it, or SIZE_MAX if 'a' has
 * 'max_blocks' blocks already. */
size_t
block_arena_new_block(struct block_arena *a, size_t block_size,
                      size_t max_blocks)
{
    size_t b;

    if (!block_arena_free_pop(&a->free_idx, &b)) {
        if (a->n_blocks >= max_blocks) {
            return SIZE_MAX;
        }
        b = a->n_blocks++;
        a->blocks = xrealloc(a->blocks, a->n_blocks * sizeof *a->blocks);
        a->live = xrealloc(a->live, a->n_blocks * sizeof *a->live);
    }
    a->blocks[b] = xmalloc(block_size);
    a->live[b] = 0;
    return b;
}
