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

#ifndef PERF_TIMER_H
#define PERF_TIMER_H 1

/* Per-stage performance timer.
 *
 * This is the PerformanceTimer of SONiC's route-performance work.  A timer
 * measures one stage of a pipeline ("DRAIN", "PARSE", "FLUSH", "BULK"...):
 * the owner brackets each burst of work with perf_timer_start() and
 * perf_timer_pause(), and reports how many tasks (routes) it handled with
 * perf_timer_inc().  Time between a pause and the next start is idle time.
 *
 * The timer adds these up over a window, and when the window closes it
 * emits one line, exactly in this form:
 *
 *   {"API":"DRAIN","RPS[k]":32.1,"Tasks":30000,"Total[ms]":934,
 *    "busy[ms]":591,"idle[ms]":343}
 *
 * (on one line), where busy[ms] and idle[ms] are the window's busy and idle
 * time truncated to whole milliseconds, Total[ms] is their sum, and RPS[k]
 * is Tasks / Total[ms] (tasks per millisecond, that is thousands of tasks
 * per second) rounded to one decimal.  Keys are in the order SONiC's JSON
 * output gives them, so existing log parsers work unchanged.
 *
 * A window closes:
 *
 *   - when perf_timer_inc() brings its task count to the threshold (once
 *     it spans at least 1 ms, so that RPS[k] is defined);
 *
 *   - when the stage has been idle for longer than the idle timeout: at the
 *     next perf_timer_start(), or earlier from perf_timer_run(), which the
 *     owner's main loop may call (with perf_timer_wait()) so that the last
 *     burst is reported without waiting for more work.  The long idle gap
 *     itself belongs to no window;
 *
 *   - on perf_timer_flush().
 *
 * A window with no task emits nothing.  Each line goes to the vlog module
 * and/or the callback given at creation, and the last few are kept for the
 * "perf/show" unixctl command.
 *
 * Time comes from OVS's monotonic time_usec(), or from a clock function
 * given at creation (tests inject a fake clock to be deterministic).
 *
 * Thread safety: a timer's start/pause/inc/run/flush/wait must be called
 * by one thread at a time (normally its owner).  perf_timer_format(),
 * perf_timer_last_line() and "perf/show" may be called from any thread. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;
struct vlog_module;

/* Returns the current time in microseconds on a monotonic clock. */
typedef long long int perf_timer_clock_func(void *aux);

/* Receives one emitted line (without a newline). */
typedef void perf_timer_output_func(const char *line, void *aux);

/* Options for perf_timer_create().  Initialize with
 * perf_timer_options_init(), then change what you need. */
struct perf_timer_options {
    uint64_t threshold;         /* Tasks that close a window (default
                                 * 10000). */
    long long int idle_timeout_ms; /* Idle time that closes a window, in
                                    * ms (default 1000; 0 means never). */
    size_t history;             /* Lines kept for "perf/show" (default
                                 * 16). */
    struct vlog_module *module; /* If nonnull, each line is logged there at
                                 * INFO level. */
    perf_timer_output_func *output; /* If nonnull, called with each line. */
    void *output_aux;           /* Passed to 'output'. */
    perf_timer_clock_func *clock; /* Clock; NULL means time_usec(). */
    void *clock_aux;            /* Passed to 'clock'. */
};

void perf_timer_options_init(struct perf_timer_options *);

struct perf_timer *perf_timer_create(const char *stage,
                                     const struct perf_timer_options *);
void perf_timer_destroy(struct perf_timer *);
const char *perf_timer_stage(const struct perf_timer *);

/* Measuring (owner thread). */
void perf_timer_start(struct perf_timer *);
void perf_timer_pause(struct perf_timer *);
void perf_timer_inc(struct perf_timer *, uint64_t n_tasks);
bool perf_timer_run(struct perf_timer *);
void perf_timer_wait(const struct perf_timer *);
bool perf_timer_flush(struct perf_timer *);

/* Reading (any thread). */
char *perf_timer_last_line(const struct perf_timer *);
void perf_timer_format(const struct perf_timer *, struct ds *);
void perf_timer_format_all(const char *stage, struct ds *);
void perf_timer_register_unixctl(void);

/* The line itself, for tools that compute windows on their own. */
void perf_timer_format_line(const char *stage, uint64_t tasks,
                            long long int busy_us, long long int idle_us,
                            struct ds *);

#endif /* perf-timer.h */
