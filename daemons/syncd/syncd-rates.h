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

#ifndef SYNCD_RATES_H
#define SYNCD_RATES_H 1

/* syncd-rates: the rates that "asic/stats" shows.  Once a second the
 * daemon's main loop samples how many route operations the apply step has
 * completed and how many rows the OVSDB path has written back; the rates
 * over the last second and the last ten come from those samples, the peak
 * from every pair of consecutive ones.  Thread safety: none. */

#include <stddef.h>
#include <stdint.h>

struct syncd_apply;
struct syncd_db;

/* One sample of the counters, for rates. */
struct syncd_rate_sample {
    long long int msec;         /* When. */
    uint64_t results;           /* Route operations completed. */
    uint64_t wb_acked;          /* Rows written back. */
};

#define SYNCD_RATES_N_SAMPLES 11 /* 10 s of one-second samples. */

/* The samples and the peak.  Zero-initialized, it takes its first sample
 * at the first syncd_rates_run(). */
struct syncd_rates {
    struct syncd_rate_sample samples[SYNCD_RATES_N_SAMPLES]; /* Ring. */
    size_t n_samples;           /* Samples taken so far. */
    long long int next_sample;  /* When to take the next (msec). */
    double peak_rate;           /* Best one-second route rate seen. */
};

void syncd_rates_run(struct syncd_rates *, const struct syncd_apply *,
                     const struct syncd_db *);
void syncd_rates_wait(const struct syncd_rates *);
void syncd_rates_get(const struct syncd_rates *, const struct syncd_apply *,
                     const struct syncd_db *, int secs,
                     double *ops, double *wb);

#endif /* syncd-rates.h */
