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

#include "utilities/bench-util.h"

#include "daemons/orchd/orchd-entry.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timeval.h"
#include "util.h"

/* Returns a monotonic time in seconds (OVS's time_usec(), which reads the
 * clock at every call). */
double
bench_wall_s(void)
{
    return time_usec() / 1e6;
}

/* Returns the CPU time used so far by the calling thread, in seconds. */
double
bench_thread_cpu_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
compare_doubles(const void *a_, const void *b_)
{
    const double *a = a_;
    const double *b = b_;

    return *a < *b ? -1 : *a > *b;
}

/* Returns the median of the 'n' values in 'v' (reordering them); 'n' must
 * be at least 1. */
double
bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Returns the median of the double at byte 'offset' of each of the 'n'
 * structs of 'size' bytes at 'runs' (BENCH_MEDIAN_OF() computes 'size'
 * and 'offset'). */
double
bench_median_at(const void *runs, size_t n, size_t size, size_t offset)
{
    double *v = xmalloc(MAX(n, 1) * sizeof *v);
    double median;

    for (size_t i = 0; i < n; i++) {
        memcpy(&v[i], (const char *) runs + i * size + offset, sizeof *v);
    }
    median = bench_median(v, n);
    free(v);
    return median;
}

/* Returns the space of the benchmarks' orchd entries: ASIC instance 0, its
 * VRF names kept for the process's life, as orchd keeps its own. */
struct orchd_entry_space *
bench_entry_space(void)
{
    static struct orchd_entry_space space;
    static bool initialized;

    if (!initialized) {
        orchd_entry_space_init(&space, 0);
        initialized = true;
    }
    return &space;
}
