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

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check/suites.h"
#include "lib/perf-timer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(test_perf_timer);

/* A fake clock and the lines a timer emitted, for deterministic tests. */
struct fixture {
    long long int now_us;       /* Current fake time. */
    char *lines[64];            /* Lines received, in order. */
    size_t n_lines;             /* Number of 'lines'. */
};

/* perf_timer_clock_func for 'struct fixture'. */
static long long int
fake_clock(void *f_)
{
    struct fixture *f = f_;

    return f->now_us;
}

/* perf_timer_output_func for 'struct fixture'. */
static void
collect_line(const char *line, void *f_)
{
    struct fixture *f = f_;

    ck_assert_uint_lt(f->n_lines, ARRAY_SIZE(f->lines));
    f->lines[f->n_lines++] = xstrdup(line);
}

/* Frees the lines in 'f'. */
static void
fixture_destroy(struct fixture *f)
{
    for (size_t i = 0; i < f->n_lines; i++) {
        free(f->lines[i]);
    }
}

/* Creates a timer for 'stage' on the fake clock of 'f'. */
static struct perf_timer *
fake_timer(const char *stage, struct fixture *f, uint64_t threshold,
           long long int idle_timeout_ms)
{
    struct perf_timer_options opts;

    perf_timer_options_init(&opts);
    opts.threshold = threshold;
    opts.idle_timeout_ms = idle_timeout_ms;
    opts.clock = fake_clock;
    opts.clock_aux = f;
    opts.output = collect_line;
    opts.output_aux = f;
    return perf_timer_create(stage, &opts);
}

/* Runs one burst on 't': start, 'busy_us' of work, pause, inc('n'). */
static void
burst(struct perf_timer *t, struct fixture *f, long long int busy_us,
      uint64_t n)
{
    perf_timer_start(t);
    f->now_us += busy_us;
    perf_timer_pause(t);
    perf_timer_inc(t, n);
}

/* Returns the line perf_timer_format_line() gives, in a static buffer. */
static const char *
line_for(const char *stage, uint64_t tasks, long long int busy_us,
         long long int idle_us)
{
    static char buf[256];
    struct ds s = DS_EMPTY_INITIALIZER;

    perf_timer_format_line(stage, tasks, busy_us, idle_us, &s);
    ovs_strlcpy(buf, ds_cstr(&s), sizeof buf);
    ds_destroy(&s);
    return buf;
}

START_TEST(test_line_format)
{
    /* The example line from SONiC's route-performance logs. */
    ck_assert_str_eq(line_for("DRAIN", 30000, 591000, 343000),
                     "{\"API\":\"DRAIN\",\"RPS[k]\":32.1,\"Tasks\":30000,"
                     "\"Total[ms]\":934,\"busy[ms]\":591,\"idle[ms]\":343}");

    /* Milliseconds are truncated separately, Total is their sum, and
     * RPS[k] = Tasks / Total[ms]. */
    ck_assert_str_eq(line_for("BULK", 10000, 999999, 1999),
                     "{\"API\":\"BULK\",\"RPS[k]\":10.0,\"Tasks\":10000,"
                     "\"Total[ms]\":1000,\"busy[ms]\":999,\"idle[ms]\":1}");
    ck_assert_str_eq(line_for("PARSE", 1000000, 1500000, 0),
                     "{\"API\":\"PARSE\",\"RPS[k]\":666.7,\"Tasks\":1000000,"
                     "\"Total[ms]\":1500,\"busy[ms]\":1500,\"idle[ms]\":0}");

    /* Rounding to one decimal, half away from zero (as std::round). */
    ck_assert_str_eq(line_for("X", 1, 4000, 0),
                     "{\"API\":\"X\",\"RPS[k]\":0.3,\"Tasks\":1,"
                     "\"Total[ms]\":4,\"busy[ms]\":4,\"idle[ms]\":0}");
    ck_assert_str_eq(line_for("X", 3, 0, 16000),
                     "{\"API\":\"X\",\"RPS[k]\":0.2,\"Tasks\":3,"
                     "\"Total[ms]\":16,\"busy[ms]\":0,\"idle[ms]\":16}");
    ck_assert_str_eq(line_for("X", 100, 1000, 7000),
                     "{\"API\":\"X\",\"RPS[k]\":12.5,\"Tasks\":100,"
                     "\"Total[ms]\":8,\"busy[ms]\":1,\"idle[ms]\":7}");

    /* Under 1 ms: RPS[k] from microseconds. */
    ck_assert_str_eq(line_for("X", 500, 250, 250),
                     "{\"API\":\"X\",\"RPS[k]\":1000.0,\"Tasks\":500,"
                     "\"Total[ms]\":0,\"busy[ms]\":0,\"idle[ms]\":0}");
    ck_assert_str_eq(line_for("X", 0, 0, 0),
                     "{\"API\":\"X\",\"RPS[k]\":0.0,\"Tasks\":0,"
                     "\"Total[ms]\":0,\"busy[ms]\":0,\"idle[ms]\":0}");

    /* The stage name is a JSON string. */
    ck_assert_str_eq(line_for("A\"B\\", 1, 1000, 0),
                     "{\"API\":\"A\\\"B\\\\\",\"RPS[k]\":1.0,\"Tasks\":1,"
                     "\"Total[ms]\":1,\"busy[ms]\":1,\"idle[ms]\":0}");
}
END_TEST

START_TEST(test_threshold_window)
{
    struct fixture f = { .now_us = 5000000 };
    struct perf_timer *t = fake_timer("DRAIN", &f, 30000, 1000);
    char *last;

    ck_assert_str_eq(perf_timer_stage(t), "DRAIN");
    ck_assert_ptr_null(perf_timer_last_line(t));

    /* 30 bursts of 1000 tasks, 19.7 ms busy each (591 ms), separated by 29
     * idle gaps adding up to 343 ms. */
    for (int i = 0; i < 30; i++) {
        if (i) {
            f.now_us += i < 29 ? 11828 : 343000 - 28 * 11828;
        }
        burst(t, &f, 19700, 1000);
        ck_assert_uint_eq(f.n_lines, i < 29 ? 0 : 1);
    }
    ck_assert_str_eq(f.lines[0],
                     "{\"API\":\"DRAIN\",\"RPS[k]\":32.1,\"Tasks\":30000,"
                     "\"Total[ms]\":934,\"busy[ms]\":591,\"idle[ms]\":343}");
    last = perf_timer_last_line(t);
    ck_assert_str_eq(last, f.lines[0]);
    free(last);

    /* The next window starts empty and counts the gap before its first
     * burst as idle. */
    f.now_us += 100000;
    burst(t, &f, 200000, 30000);
    ck_assert_uint_eq(f.n_lines, 2);
    ck_assert_str_eq(f.lines[1],
                     "{\"API\":\"DRAIN\",\"RPS[k]\":100.0,\"Tasks\":30000,"
                     "\"Total[ms]\":300,\"busy[ms]\":200,\"idle[ms]\":100}");

    /* Many tasks at once close the window with the whole count. */
    f.now_us += 1000;
    burst(t, &f, 9000, 75000);
    ck_assert_str_eq(f.lines[2],
                     "{\"API\":\"DRAIN\",\"RPS[k]\":7500.0,\"Tasks\":75000,"
                     "\"Total[ms]\":10,\"busy[ms]\":9,\"idle[ms]\":1}");

    perf_timer_destroy(t);
    fixture_destroy(&f);
}
END_TEST

START_TEST(test_sub_ms_window_waits)
{
    struct fixture f = { .now_us = 0 };
    struct perf_timer *t = fake_timer("FAST", &f, 100, 1000);

    /* 100 tasks in 300 us: not closed, RPS[k] would be undefined. */
    burst(t, &f, 300, 100);
    ck_assert_uint_eq(f.n_lines, 0);
    f.now_us += 200;
    burst(t, &f, 600, 50);
    ck_assert_uint_eq(f.n_lines, 0);
    f.now_us += 100;
    burst(t, &f, 100, 50);
    ck_assert_uint_eq(f.n_lines, 1);
    ck_assert_str_eq(f.lines[0],
                     "{\"API\":\"FAST\",\"RPS[k]\":200.0,\"Tasks\":200,"
                     "\"Total[ms]\":1,\"busy[ms]\":1,\"idle[ms]\":0}");
    perf_timer_destroy(t);
    fixture_destroy(&f);
}
END_TEST

START_TEST(test_idle_timeout)
{
    struct fixture f = { .now_us = 0 };
    struct perf_timer *t = fake_timer("FLUSH", &f, 1000000, 500);

    /* Two bursts 100 ms apart, then 10 s of silence. */
    burst(t, &f, 40000, 3000);
    f.now_us += 100000;
    burst(t, &f, 60000, 2000);
    f.now_us += 10000000;
    ck_assert_uint_eq(f.n_lines, 0);

    /* The next start closes the window as it was at the last pause: the
     * silence belongs to no window. */
    perf_timer_start(t);
    ck_assert_uint_eq(f.n_lines, 1);
    ck_assert_str_eq(f.lines[0],
                     "{\"API\":\"FLUSH\",\"RPS[k]\":25.0,\"Tasks\":5000,"
                     "\"Total[ms]\":200,\"busy[ms]\":100,\"idle[ms]\":100}");
    f.now_us += 20000;
    perf_timer_pause(t);
    perf_timer_inc(t, 400);

    /* A gap of exactly the timeout still counts as idle. */
    f.now_us += 500000;
    burst(t, &f, 30000, 100);
    ck_assert(perf_timer_flush(t));
    ck_assert_str_eq(f.lines[1],
                     "{\"API\":\"FLUSH\",\"RPS[k]\":0.9,\"Tasks\":500,"
                     "\"Total[ms]\":550,\"busy[ms]\":50,\"idle[ms]\":500}");

    /* Nothing left: flush emits nothing. */
    ck_assert(!perf_timer_flush(t));
    ck_assert_uint_eq(f.n_lines, 2);
    perf_timer_destroy(t);
    fixture_destroy(&f);
}
END_TEST

START_TEST(test_run_closes_idle_window)
{
    struct fixture f = { .now_us = 1000 };
    struct perf_timer *t = fake_timer("BULK", &f, 1000000, 1000);

    ck_assert(!perf_timer_run(t));
    burst(t, &f, 250000, 1234);
    perf_timer_wait(t);

    f.now_us += 1000000;
    ck_assert(!perf_timer_run(t));      /* Exactly the timeout: not yet. */
    f.now_us += 1;
    ck_assert(perf_timer_run(t));
    ck_assert_uint_eq(f.n_lines, 1);
    ck_assert_str_eq(f.lines[0],
                     "{\"API\":\"BULK\",\"RPS[k]\":4.9,\"Tasks\":1234,"
                     "\"Total[ms]\":250,\"busy[ms]\":250,\"idle[ms]\":0}");
    ck_assert(!perf_timer_run(t));

    /* The next start does not report the gap, nor an empty window. */
    f.now_us += 5000000;
    burst(t, &f, 10000, 10);
    ck_assert_uint_eq(f.n_lines, 1);
    f.now_us += 5000;
    ck_assert(perf_timer_flush(t));
    ck_assert_str_eq(f.lines[1],
                     "{\"API\":\"BULK\",\"RPS[k]\":0.7,\"Tasks\":10,"
                     "\"Total[ms]\":15,\"busy[ms]\":10,\"idle[ms]\":5}");

    /* No idle timeout: run() never closes. */
    struct perf_timer *t2 = fake_timer("NOIDLE", &f, 1000000, 0);
    burst(t2, &f, 1000, 5);
    f.now_us += 100000000;
    ck_assert(!perf_timer_run(t2));
    perf_timer_start(t2);
    f.now_us += 1000;
    perf_timer_pause(t2);
    ck_assert(perf_timer_flush(t2));
    ck_assert_str_eq(f.lines[2],
                     "{\"API\":\"NOIDLE\",\"RPS[k]\":0.0,\"Tasks\":5,"
                     "\"Total[ms]\":100002,\"busy[ms]\":2,"
                     "\"idle[ms]\":100000}");

    perf_timer_destroy(t2);
    perf_timer_destroy(t);
    fixture_destroy(&f);
}
END_TEST

START_TEST(test_inc_while_running)
{
    struct fixture f = { .now_us = 0 };
    struct perf_timer *t = fake_timer("PARSE", &f, 1000, 1000);

    perf_timer_start(t);
    perf_timer_start(t);                /* Ignored while running. */
    f.now_us += 3000;
    perf_timer_inc(t, 600);
    f.now_us += 2000;
    perf_timer_inc(t, 600);             /* Closes at 5 ms, still running. */
    ck_assert_uint_eq(f.n_lines, 1);
    ck_assert_str_eq(f.lines[0],
                     "{\"API\":\"PARSE\",\"RPS[k]\":240.0,\"Tasks\":1200,"
                     "\"Total[ms]\":5,\"busy[ms]\":5,\"idle[ms]\":0}");

    /* The rest of the run belongs to the next window. */
    f.now_us += 4000;
    perf_timer_pause(t);
    perf_timer_pause(t);                /* Ignored while paused. */
    f.now_us += 6000;
    perf_timer_inc(t, 10);
    ck_assert(perf_timer_flush(t));
    ck_assert_str_eq(f.lines[1],
                     "{\"API\":\"PARSE\",\"RPS[k]\":1.0,\"Tasks\":10,"
                     "\"Total[ms]\":10,\"busy[ms]\":4,\"idle[ms]\":6}");

    /* Flushing a window without tasks emits nothing and discards its
     * time. */
    f.now_us += 7000;
    ck_assert(!perf_timer_flush(t));
    perf_timer_start(t);
    f.now_us += 2000;
    perf_timer_pause(t);
    perf_timer_inc(t, 4);
    ck_assert(perf_timer_flush(t));
    ck_assert_str_eq(f.lines[2],
                     "{\"API\":\"PARSE\",\"RPS[k]\":2.0,\"Tasks\":4,"
                     "\"Total[ms]\":2,\"busy[ms]\":2,\"idle[ms]\":0}");
    perf_timer_destroy(t);
    fixture_destroy(&f);
}
END_TEST

START_TEST(test_history_and_show)
{
    struct fixture f = { .now_us = 0 };
    struct perf_timer_options opts;
    struct ds s = DS_EMPTY_INITIALIZER;
    struct perf_timer *t, *other;

    perf_timer_options_init(&opts);
    ck_assert_uint_eq(opts.threshold, 10000);
    ck_assert_int_eq(opts.idle_timeout_ms, 1000);
    ck_assert_uint_eq(opts.history, 16);
    opts.threshold = 10;
    opts.history = 3;
    opts.clock = fake_clock;
    opts.clock_aux = &f;
    opts.module = &this_module;         /* Also logs each line... */
    vlog_set_levels(&this_module, VLF_CONSOLE, VLL_WARN); /* ...quietly. */
    t = perf_timer_create("SHOWME", &opts);
    other = perf_timer_create("OTHER", NULL);

    for (int i = 1; i <= 5; i++) {
        burst(t, &f, i * 1000, 10 * i);
        f.now_us += 1000;
    }
    perf_timer_format_all("SHOWME", &s);
    ck_assert_str_eq(ds_cstr(&s),
        "SHOWME: threshold=10 idle_timeout=1000ms windows=5 tasks=150\n"
        "  {\"API\":\"SHOWME\",\"RPS[k]\":7.5,\"Tasks\":30,"
        "\"Total[ms]\":4,\"busy[ms]\":3,\"idle[ms]\":1}\n"
        "  {\"API\":\"SHOWME\",\"RPS[k]\":8.0,\"Tasks\":40,"
        "\"Total[ms]\":5,\"busy[ms]\":4,\"idle[ms]\":1}\n"
        "  {\"API\":\"SHOWME\",\"RPS[k]\":8.3,\"Tasks\":50,"
        "\"Total[ms]\":6,\"busy[ms]\":5,\"idle[ms]\":1}\n");

    char *last = perf_timer_last_line(t);
    ck_assert_str_eq(last, "{\"API\":\"SHOWME\",\"RPS[k]\":8.3,\"Tasks\":50,"
                     "\"Total[ms]\":6,\"busy[ms]\":5,\"idle[ms]\":1}");
    free(last);

    ds_clear(&s);
    perf_timer_format(other, &s);
    ck_assert_str_eq(ds_cstr(&s), "OTHER: threshold=10000 "
                     "idle_timeout=1000ms windows=0 tasks=0\n");

    ds_clear(&s);
    perf_timer_format_all(NULL, &s);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s), "SHOWME: "));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s), "\nOTHER: "));

    perf_timer_destroy(t);
    ds_clear(&s);
    perf_timer_format_all("SHOWME", &s);
    ck_assert_uint_eq(s.length, 0);

    ds_destroy(&s);
    perf_timer_destroy(other);
}
END_TEST

START_TEST(test_real_clock)
{
    struct perf_timer *t = perf_timer_create("REAL", NULL);

    /* With the default clock the arithmetic is the same; only check that
     * a flushed window is well formed. */
    perf_timer_start(t);
    perf_timer_pause(t);
    perf_timer_inc(t, 7);
    ck_assert(perf_timer_flush(t));

    char *line = perf_timer_last_line(t);
    ck_assert_msg(!strncmp(line, "{\"API\":\"REAL\",\"RPS[k]\":", 23)
                  && strstr(line, ",\"Tasks\":7,\"Total[ms]\":"),
                  "%s", line);
    free(line);
    perf_timer_destroy(t);
}
END_TEST

/* The perf_timer Check suite. */
Suite *
perf_timer_suite(void)
{
    Suite *s = suite_create("perf_timer");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_line_format);
    tcase_add_test(tc, test_threshold_window);
    tcase_add_test(tc, test_sub_ms_window_waits);
    tcase_add_test(tc, test_idle_timeout);
    tcase_add_test(tc, test_run_closes_idle_window);
    tcase_add_test(tc, test_inc_while_running);
    tcase_add_test(tc, test_history_and_show);
    tcase_add_test(tc, test_real_clock);
    suite_add_tcase(s, tc);
    return s;
}
