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


#ifndef BLOCK_ARENA_H
#define BLOCK_ARENA_H 1

/* block-arena: memory in blocks of one size, each with a count of the
 * values still in it, whose freed blocks' indexes are used again, so that
 * an offset (a block index and a position in the block) stays small and
 * the arena shrinks as its values go.  lib/ovsdb-file-replay.c keeps a
 * table's column values in one; it does the counting and decides when a
 * block is free.
 *
 * Thread safety: none. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Indexes freed, to use again: a stack. */
struct block_arena_free {
    size_t *idx;                /* The indexes, the last freed last. */
    size_t n;                   /* Number of 'idx'. */
    size_t allocated;           /* Room in 'idx'. */
};

void block_arena_free_push(struct block_arena_free *, size_t i);
bool block_arena_free_pop(struct block_arena_free *, size_t *i);

/* An arena of blocks. */
struct block_arena {
    char **blocks;              /* Each a block's bytes, or NULL once
                                 * freed. */
    uint32_t *live;             /* Each block's values still in a row: a
                                 * block of none but 'cur' is freed, so
                                 * that the arena shrinks as the rows are
                                 * consumed (ovsdb_file_replay_consume()). */
    size_t n_blocks;            /* Number of 'blocks'. */
    size_t cur;                 /* Index of the block being filled, or
                                 * SIZE_MAX before the first. */
    size_t used;                /* Bytes used in block 'cur'. */
    struct block_arena_free free_idx; /* Indexes whose block was freed. */
};

void block_arena_init(struct block_arena *);
void block_arena_clear(struct block_arena *);
size_t block_arena_new_block(struct block_arena *, size_t block_size,
                             size_t max_blocks);
void block_arena_free_block(struct block_arena *, size_t b);

#endif /* block-arena.h */
