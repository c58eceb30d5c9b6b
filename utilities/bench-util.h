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

#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H 1

/* Clocks and statistics shared by the fibsync-bench subcommands. */

#include <stddef.h>

#include "util.h"

struct orchd_entry_space;

double bench_wall_s(void);
double bench_thread_cpu_s(void);
double bench_median(double *, size_t n);
double bench_median_at(const void *runs, size_t n, size_t size,
                       size_t offset);

/* The median of double member FIELD over the 'N' structs of array RUNS
 * (one a run): "med.rate = BENCH_MEDIAN_OF(results, n_runs, rate);". */
#define BENCH_MEDIAN_OF(RUNS, N, FIELD)                                 \
    bench_median_at(RUNS, N, sizeof *(RUNS),                            \
                    (BUILD_ASSERT_TYPE(&(RUNS)->FIELD, const double *), \
                     offsetof(__typeof__(*(RUNS)), FIELD)))

struct orchd_entry_space *bench_entry_space(void);

#endif /* bench-util.h */
