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

/* syncd-rates: samples of the apply step's and the write-back's counters,
 * and the rates computed from them (see syncd-rates.h). */

#include <config.h>

#include "daemons/syncd/syncd-rates.h"

#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-db.h"
#include "openvswitch/poll-loop.h"
#include "timeval.h"
#include "util.h"

/* Samples into '*s' the counters of 'apply' and 'db' now. */
static void
take_sample(const struct syncd_apply *apply, const struct syncd_db *db,
            struct syncd_rate_sample *s)
{
    struct syncd_apply_stats as;
    struct syncd_db_stats ds;

    syncd_apply_get_stats(apply, &as);
    syncd_db_get_stats(db, &ds);
    s->msec = time_msec();
    s->results = as.ok + as.failed;
    s->wb_acked = ds.wb_acked;
}

/* Takes a sample of the counters of 'apply' and 'db' every second. */
void
syncd_rates_run(struct syncd_rates *r, const struct syncd_apply *apply,
                const struct syncd_db *db)
{
    long long int now = time_msec();

    if (now < r->next_sample) {
        return;
    }
    struct syncd_rate_sample *s
        = &r->samples[r->n_samples % SYNCD_RATES_N_SAMPLES];
    take_sample(apply, db, s);
    if (r->n_samples) {
        const struct syncd_rate_sample *p
            = &r->samples[(r->n_samples - 1) % SYNCD_RATES_N_SAMPLES];
        double secs = (s->msec - p->msec) / 1000.0;

        if (secs > 0) {
            r->peak_rate = MAX(r->peak_rate,
                               (s->results - p->results) / secs);
        }
    }
    r->n_samples++;
    r->next_sample = now + 1000;
}

/* Wakes the poll loop when the next sample is due. */
void
syncd_rates_wait(const struct syncd_rates *r)
{
    poll_timer_wait_until(r->next_sample);
}

/* Stores in '*ops' and '*wb' the route and write-back rates, per second,
 * over the last 'secs' seconds of samples (as far as they go), up to the
 * counters of 'apply' and 'db' now. */
void
syncd_rates_get(const struct syncd_rates *r, const struct syncd_apply *apply,
                const struct syncd_db *db, int secs, double *ops, double *wb)
{
    struct syncd_rate_sample now;

    *ops = *wb = 0;
    if (!r->n_samples) {
        return;
    }
    take_sample(apply, db, &now);
    size_t back = MIN((size_t) secs, MIN(r->n_samples - 1,
                                         SYNCD_RATES_N_SAMPLES - 1));
    const struct syncd_rate_sample *then
        = &r->samples[(r->n_samples - 1 - back) % SYNCD_RATES_N_SAMPLES];
    double t = (now.msec - then->msec) / 1000.0;
    if (t > 0) {
        *ops = (now.results - then->results) / t;
        *wb = (now.wb_acked - then->wb_acked) / t;
    }
}
