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

/* Check suite of lib/ovsdb-slice-reader's plan: driven against a table
 * simulated here (a sorted array of seq values), every row is read exactly
 * once, no bounded slice holds more than its width, the start and gaps
 * are found by probes, and the caller's stop leads to one open-ended
 * slice. */

#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "lib/ovsdb-slice-reader.h"
#include "tests/check/suites.h"
#include "util.h"

/* A slice in flight in the simulation. */
struct sim_slice {
    int64_t lo, hi;             /* [lo, hi). */
};

/* What a simulated read did. */
struct sim_result {
    size_t n_read;              /* Rows read (each counted once). */
    size_t n_slices;            /* Slices, open-ended included. */
    size_t n_probes;            /* Probes. */
    size_t n_open;              /* Open-ended slices. */
    size_t max_rows;            /* Most rows in one bounded slice. */
};

/* Rows of sorted 'seqs' (n of them) in [lo, hi). */
static size_t
count_in(const int64_t *seqs, size_t n, int64_t lo, int64_t hi)
{
    size_t c = 0;

    for (size_t i = 0; i < n; i++) {
        c += seqs[i] >= lo && (hi == INT64_MAX || seqs[i] < hi);
    }
    return c;
}

/* The probe from 'lo' as ovsdb-server would answer it: the index of the
 * first operation that fails, or SIZE_MAX. */
static size_t
answer_probe(const struct ovsdb_slice_reader_plan *p, const int64_t *seqs,
             size_t n, int64_t lo)
{
    int64_t spans[OVSDB_SLICE_READER_MAX_PROBE_OPS - 1];
    size_t n_spans = ovsdb_slice_reader_plan_probe_spans(p, lo, spans);

    if (!count_in(seqs, n, lo, INT64_MAX)) {
        return 0;
    }
    for (size_t i = 0; i < n_spans; i++) {
        ck_assert_int_gt(spans[i], 0);
        ck_assert_int_le(spans[i], INT64_MAX - lo);
        if (count_in(seqs, n, lo, lo + spans[i])) {
            return i + 1;
        }
    }
    return SIZE_MAX;
}

/* Reads sorted 'seqs' (n of them) through a plan of 'width' and
 * 'max_in_flight'; slices end newest first if 'lifo', else oldest first.
 * If 'stop_after' is not SIZE_MAX, stops the bounded slices once that many
 * rows were read.  Checks that each row was read exactly once. */
static struct sim_result
simulate_bounded(const int64_t *seqs, size_t n, int64_t width,
                 size_t max_in_flight, bool lifo, size_t stop_after,
                 int64_t max_value)
{
    struct ovsdb_slice_reader_plan p;
    struct sim_slice *flight = xcalloc(max_in_flight + 1, sizeof *flight);
    size_t *times_read = xcalloc(n ? n : 1, sizeof *times_read);
    struct sim_result res = { .n_read = 0 };
    size_t n_flight = 0;
    int guard = 0;

    ovsdb_slice_reader_plan_init(&p, width, max_in_flight);
    if (max_value >= 0) {
        ovsdb_slice_reader_plan_set_max(&p, max_value);
    }
    while (!ovsdb_slice_reader_plan_done(&p)) {
        enum ovsdb_slice_reader_step step;
        int64_t lo, hi;

        ck_assert_int_lt(guard++, 100000);
        if (stop_after != SIZE_MAX && res.n_read >= stop_after) {
            ovsdb_slice_reader_plan_stop(&p);
        }
        step = ovsdb_slice_reader_plan_next(&p, &lo, &hi);
        if (step == OVSDB_SLICE_READER_PROBE) {
            ovsdb_slice_reader_plan_probe_done(
                &p, answer_probe(&p, seqs, n, lo));
            continue;
        } else if (step == OVSDB_SLICE_READER_SLICE) {
            ck_assert_uint_le(n_flight, max_in_flight);
            ck_assert_int_lt(lo, hi);
            if (max_value >= 0) {
                /* Every bound is a value the column may hold. */
                ck_assert_int_le(lo, max_value);
                ck_assert_int_le(hi - 1, max_value);
            }
            flight[n_flight].lo = lo;
            flight[n_flight].hi = hi;
            n_flight++;
            continue;
        }

        /* Nothing more to start: end a slice. */
        ck_assert_uint_gt(n_flight, 0);
        struct sim_slice s = flight[lifo ? n_flight - 1 : 0];
        if (!lifo) {
            memmove(flight, flight + 1, (n_flight - 1) * sizeof *flight);
        }
        n_flight--;

        size_t rows = 0;
        for (size_t i = 0; i < n; i++) {
            if (seqs[i] >= s.lo && (s.hi == INT64_MAX || seqs[i] < s.hi)) {
                times_read[i]++;
                rows++;
                res.n_read++;
                ovsdb_slice_reader_plan_note_seq(&p, seqs[i]);
            }
        }
        if (s.hi == INT64_MAX) {
            res.n_open++;
        } else {
            ck_assert_int_le(s.hi - s.lo, width);
            res.max_rows = MAX(res.max_rows, rows);
        }
        ovsdb_slice_reader_plan_slice_done(&p, s.lo, s.hi, rows);
    }
    ck_assert_uint_eq(n_flight, 0);
    ck_assert_int_eq(ovsdb_slice_reader_plan_next(&p, &(int64_t) {0},
                                                  &(int64_t) {0}),
                     OVSDB_SLICE_READER_NONE);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(times_read[i], 1);
    }
    res.n_slices = p.n_slices;
    res.n_probes = p.n_probes;
    free(times_read);
    free(flight);
    return res;
}

/* simulate_bounded() with no known maximum. */
static struct sim_result
simulate(const int64_t *seqs, size_t n, int64_t width, size_t max_in_flight,
         bool lifo, size_t stop_after)
{
    return simulate_bounded(seqs, n, width, max_in_flight, lifo, stop_after,
                            -1);
}

/* Returns 'n' seqs: first, first + step, ... */
static int64_t *
seq_run(size_t n, int64_t first, int64_t step)
{
    int64_t *seqs = xmalloc((n ? n : 1) * sizeof *seqs);

    for (size_t i = 0; i < n; i++) {
        seqs[i] = first + (int64_t) i * step;
    }
    return seqs;
}

/* Values in a known range [0, 65535], not unique (hash buckets, as
 * Route.bucket): no probe, slices that cover the range and end at its
 * top, each row read once, with no bound past 65535. */
START_TEST(test_slice_plan_bounded)
{
    size_t n = 5000;
    int64_t *seqs = xmalloc(n * sizeof *seqs);
    struct sim_result r;

    for (size_t i = 0; i < n; i++) {
        seqs[i] = (int64_t) ((i * 2654435761u) % 65536);
    }
    r = simulate_bounded(seqs, n, 16384, 2, false, SIZE_MAX, 65535);
    ck_assert_uint_eq(r.n_read, n);
    ck_assert_uint_eq(r.n_slices, 4);
    ck_assert_uint_eq(r.n_probes, 0);
    ck_assert_uint_eq(r.n_open, 0);

    /* A width that does not divide the range: the last slice is cut. */
    r = simulate_bounded(seqs, n, 10000, 2, true, SIZE_MAX, 65535);
    ck_assert_uint_eq(r.n_read, n);
    ck_assert_uint_eq(r.n_slices, 7);
    ck_assert_uint_eq(r.n_probes, 0);

    /* No row at all: the same slices, all empty, and no probe. */
    r = simulate_bounded(NULL, 0, 16384, 1, false, SIZE_MAX, 65535);
    ck_assert_uint_eq(r.n_read, 0);
    ck_assert_uint_eq(r.n_slices, 4);
    ck_assert_uint_eq(r.n_probes, 0);

    /* One slice for the whole range. */
    r = simulate_bounded(seqs, n, 65536, 1, false, SIZE_MAX, 65535);
    ck_assert_uint_eq(r.n_read, n);
    ck_assert_uint_eq(r.n_slices, 1);
    free(seqs);
}
END_TEST

/* No row: one probe, no select. */
START_TEST(test_slice_plan_empty)
{
    struct sim_result r = simulate(NULL, 0, 10, 1, false, SIZE_MAX);

    ck_assert_uint_eq(r.n_read, 0);
    ck_assert_uint_eq(r.n_slices, 0);
    ck_assert_uint_eq(r.n_probes, 1);
}
END_TEST

/* Dense values 1..1000 in slices of 100: a probe to start at 0, 11
 * slices with rows (1000 is in the eleventh), an empty one past them, and
 * a probe that finds nothing left.  No open-ended slice. */
START_TEST(test_slice_plan_dense)
{
    int64_t *seqs = seq_run(1000, 1, 1);
    struct sim_result r = simulate(seqs, 1000, 100, 1, false, SIZE_MAX);

    ck_assert_uint_eq(r.n_read, 1000);
    ck_assert_uint_eq(r.n_slices, 12);
    ck_assert_uint_eq(r.n_probes, 2);
    ck_assert_uint_eq(r.n_open, 0);
    ck_assert_uint_eq(r.max_rows, 100);

    /* Two in flight, ending in either order: the same rows, once. */
    r = simulate(seqs, 1000, 100, 2, false, SIZE_MAX);
    ck_assert_uint_eq(r.n_read, 1000);
    ck_assert_uint_le(r.n_slices, 13);
    r = simulate(seqs, 1000, 100, 2, true, SIZE_MAX);
    ck_assert_uint_eq(r.n_read, 1000);
    ck_assert_uint_le(r.n_slices, 13);

    /* A slice of 1: a select per value. */
    r = simulate(seqs, 1000, 1, 2, false, SIZE_MAX);
    ck_assert_uint_eq(r.n_read, 1000);
    ck_assert_uint_eq(r.max_rows, 1);
    free(seqs);
}
END_TEST

/* Values that start in the millions (a writer's counter after restarts):
 * probes home in on the start, each halving the distance at least, so
 * that only a few slices below it are empty (slicing up from 0, or from
 * the first probe's bound alone, would be thousands of empty selects). */
START_TEST(test_slice_plan_high_start)
{
    int64_t *seqs = seq_run(500, 3000000, 1);
    struct sim_result r = simulate(seqs, 500, 100, 1, false, SIZE_MAX);

    ck_assert_uint_eq(r.n_read, 500);
    ck_assert_uint_eq(r.n_open, 0);
    ck_assert_uint_le(r.n_probes, 16);
    ck_assert_uint_le(r.n_slices, 6 + r.n_probes);
    free(seqs);
}
END_TEST

/* A gap far wider than a slice in the middle (a range of rows rewritten
 * since with higher values): a probe skips it, and slicing goes on past
 * it rather than reading the rest in one select. */
START_TEST(test_slice_plan_gap)
{
    int64_t seqs[2000];

    for (size_t i = 0; i < 1000; i++) {
        seqs[i] = i;
        seqs[1000 + i] = 1000000 + i;
    }
    for (size_t in_flight = 1; in_flight <= 3; in_flight++) {
        for (int lifo = 0; lifo < 2; lifo++) {
            struct sim_result r = simulate(seqs, 2000, 100, in_flight, lifo,
                                           SIZE_MAX);

            ck_assert_uint_eq(r.n_read, 2000);
            ck_assert_uint_eq(r.n_open, 0);
            ck_assert_uint_le(r.max_rows, 100);
            ck_assert_uint_le(r.n_slices, 60);
        }
    }
}
END_TEST

/* Sparse values (every third): slices hold fewer rows, none is empty, so
 * no probe but the first and the last. */
START_TEST(test_slice_plan_sparse)
{
    int64_t *seqs = seq_run(300, 5, 3);
    struct sim_result r = simulate(seqs, 300, 30, 1, false, SIZE_MAX);

    ck_assert_uint_eq(r.n_read, 300);
    ck_assert_uint_eq(r.max_rows, 10);
    ck_assert_uint_eq(r.n_probes, 2);
    free(seqs);
}
END_TEST

/* The caller's stop (route-check once it has read as many Asic_Route rows
 * as Route has): one open-ended slice reads the rest. */
START_TEST(test_slice_plan_stop)
{
    int64_t *seqs = seq_run(1000, 1, 1);
    struct sim_result r = simulate(seqs, 1000, 100, 2, false, 450);

    ck_assert_uint_eq(r.n_read, 1000);
    ck_assert_uint_eq(r.n_open, 1);
    ck_assert_uint_lt(r.n_slices, 10);

    /* Stopped from the start: one open-ended slice, not even a probe,
     * whether or not there are rows. */
    r = simulate(seqs, 1000, 100, 1, false, 0);
    ck_assert_uint_eq(r.n_read, 1000);
    ck_assert_uint_eq(r.n_open, 1);
    ck_assert_uint_eq(r.n_slices, 1);
    ck_assert_uint_eq(r.n_probes, 0);
    free(seqs);
    r = simulate(NULL, 0, 100, 1, false, 0);
    ck_assert_uint_eq(r.n_slices, 1);
}
END_TEST

/* Values near INT64_MAX: the probe's spans never overflow, and a slice
 * whose end would not fit is the open-ended one. */
START_TEST(test_slice_plan_limits)
{
    struct ovsdb_slice_reader_plan p;
    int64_t spans[OVSDB_SLICE_READER_MAX_PROBE_OPS - 1];
    int64_t seqs[] = { 7, INT64_MAX - 3, INT64_MAX - 1 };
    struct sim_result r;
    size_t n;

    ovsdb_slice_reader_plan_init(&p, 1, 1);
    n = ovsdb_slice_reader_plan_probe_spans(&p, 0, spans);
    ck_assert_uint_eq(n, 63);
    ck_assert_int_eq(spans[62], INT64_C(1) << 62);
    n = ovsdb_slice_reader_plan_probe_spans(&p, INT64_MAX, spans);
    ck_assert_uint_eq(n, 0);

    ovsdb_slice_reader_plan_init(&p, INT64_MAX, 1);
    n = ovsdb_slice_reader_plan_probe_spans(&p, 0, spans);
    ck_assert_uint_eq(n, 1);

    /* Across a gap of 2^63, each probe at least halves the distance. */
    for (int64_t width = 1; width <= 1000000; width *= 1000) {
        r = simulate(seqs, ARRAY_SIZE(seqs), width, 2, false, SIZE_MAX);
        ck_assert_uint_eq(r.n_read, 3);
        ck_assert_uint_le(r.n_probes, 2 * 64);
    }
    r = simulate(seqs, ARRAY_SIZE(seqs), INT64_MAX, 1, false, SIZE_MAX);
    ck_assert_uint_eq(r.n_read, 3);
}
END_TEST

/* Random sets of values, widths and windows: every row once, no bounded
 * slice over its width. */
START_TEST(test_slice_plan_random)
{
    srand(12345);
    for (int round = 0; round < 200; round++) {
        size_t n = rand() % 400;
        int64_t *seqs = xmalloc((n ? n : 1) * sizeof *seqs);
        int64_t v = rand() % 5000;
        int64_t width = 1 + rand() % 200;

        for (size_t i = 0; i < n; i++) {
            /* Mostly dense, sometimes a gap of up to 20 slices. */
            v += rand() % 10 ? 1 + rand() % 3 : 1 + rand() % (20 * width);
            seqs[i] = v;
        }

        struct sim_result r = simulate(seqs, n, width, 1 + rand() % 3,
                                       rand() % 2,
                                       rand() % 4 ? SIZE_MAX : rand() % 400);
        ck_assert_uint_eq(r.n_read, n);
        ck_assert_uint_le(r.max_rows, width);
        free(seqs);
    }
}
END_TEST

Suite *
ovsdb_slice_reader_suite(void)
{
    Suite *s = suite_create("ovsdb_slice_reader");
    TCase *tc = tcase_create("ovsdb_slice_reader");

    tcase_add_test(tc, test_slice_plan_empty);
    tcase_add_test(tc, test_slice_plan_dense);
    tcase_add_test(tc, test_slice_plan_high_start);
    tcase_add_test(tc, test_slice_plan_gap);
    tcase_add_test(tc, test_slice_plan_sparse);
    tcase_add_test(tc, test_slice_plan_stop);
    tcase_add_test(tc, test_slice_plan_limits);
    tcase_add_test(tc, test_slice_plan_random);
    tcase_add_test(tc, test_slice_plan_bounded);
    suite_add_tcase(s, tc);
    return s;
}
