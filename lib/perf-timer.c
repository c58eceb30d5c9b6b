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

#include "lib/perf-timer.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

/* "No such time yet." */
#define NO_TIME LLONG_MIN

/* A performance timer for one stage. */
struct perf_timer {
    struct ovs_list list_node;  /* In 'all_timers'. */
    char *stage;                /* "DRAIN", "BULK"... */
    struct perf_timer_options opts; /* Options, defaults filled in. */

    /* The current window, used only by the owner thread.  Times are in
     * microseconds of opts.clock. */
    bool running;               /* Between start and pause. */
    long long int run_start;    /* If running: when busy time last began
                                 * accruing (start, or a mid-run close). */
    long long int last_pause;   /* Time of the latest pause, or NO_TIME. */
    long long int idle_from;    /* If not running: when idle time began
                                 * accruing (the latest pause, or a later
                                 * close), or NO_TIME before any pause. */
    uint64_t tasks;             /* Tasks counted in this window. */
    long long int busy_us;      /* Busy time in this window. */
    long long int idle_us;      /* Idle time in this window. */

    /* Results, guarded by 'perf_timer_mutex'. */
    char **lines;               /* Last 'opts.history' lines, a ring. */
    size_t n_lines;             /* Lines in 'lines'. */
    size_t next_line;           /* Slot of 'lines' to write next. */
    uint64_t n_windows;         /* Lines emitted. */
    uint64_t total_tasks;       /* Tasks in all emitted lines. */
};

/* Guards 'all_timers' and the results of every timer. */
static struct ovs_mutex perf_timer_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list all_timers OVS_GUARDED_BY(perf_timer_mutex)
    = OVS_LIST_INITIALIZER(&all_timers);

/* Sets '*opts' to the defaults: a window closes at 10000 tasks or after
 * 1000 ms idle, the last 16 lines are kept, lines are not logged or passed
 * to a callback, and the clock is time_usec(). */
void
perf_timer_options_init(struct perf_timer_options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->threshold = 10000;
    opts->idle_timeout_ms = 1000;
    opts->history = 16;
}

/* Default clock: OVS's monotonic time in microseconds. */
static long long int
default_clock(void *aux OVS_UNUSED)
{
    return time_usec();
}

/* Returns the current time for 't'. */
static long long int
now_us(const struct perf_timer *t)
{
    return t->opts.clock(t->opts.clock_aux);
}

/* Creates a timer for stage 'stage' with options 'opts' (NULL for the
 * defaults of perf_timer_options_init()).  The timer starts paused, with
 * an empty window. */
struct perf_timer *
perf_timer_create(const char *stage, const struct perf_timer_options *opts)
{
    struct perf_timer *t = xzalloc(sizeof *t);

    t->stage = xstrdup(stage);
    if (opts) {
        t->opts = *opts;
    } else {
        perf_timer_options_init(&t->opts);
    }
    if (!t->opts.clock) {
        t->opts.clock = default_clock;
    }
    t->opts.history = MAX(t->opts.history, 1);
    t->opts.idle_timeout_ms = MAX(t->opts.idle_timeout_ms, 0);
    t->last_pause = NO_TIME;
    t->idle_from = NO_TIME;
    t->lines = xcalloc(t->opts.history, sizeof *t->lines);

    ovs_mutex_lock(&perf_timer_mutex);
    ovs_list_push_back(&all_timers, &t->list_node);
    ovs_mutex_unlock(&perf_timer_mutex);
    return t;
}

/* Frees 't', without emitting its open window. */
void
perf_timer_destroy(struct perf_timer *t)
{
    if (t) {
        ovs_mutex_lock(&perf_timer_mutex);
        ovs_list_remove(&t->list_node);
        ovs_mutex_unlock(&perf_timer_mutex);

        for (size_t i = 0; i < t->opts.history; i++) {
            free(t->lines[i]);
        }
        free(t->lines);
        free(t->stage);
        free(t);
    }
}

/* Returns the stage name of 't'. */
const char *
perf_timer_stage(const struct perf_timer *t)
{
    return t->stage;
}

/* Appends to 'out' the line for a window of stage 'stage' with 'tasks'
 * tasks, 'busy_us' busy and 'idle_us' idle microseconds:
 *
 *   {"API":"DRAIN","RPS[k]":32.1,"Tasks":30000,"Total[ms]":934,
 *    "busy[ms]":591,"idle[ms]":343}
 *
 * without a newline.  busy[ms] and idle[ms] are truncated to whole
 * milliseconds and Total[ms] is their sum; RPS[k] is Tasks / Total[ms]
 * rounded half away from zero to one decimal (as SONiC's std::round), or,
 * for a window shorter than 1 ms, computed from microseconds. */
void
perf_timer_format_line(const char *stage, uint64_t tasks,
                       long long int busy_us, long long int idle_us,
                       struct ds *out)
{
    long long int busy_ms, idle_ms, total_ms, total_us;
    double rps;

    busy_us = MAX(busy_us, 0);
    idle_us = MAX(idle_us, 0);
    busy_ms = busy_us / 1000;
    idle_ms = idle_us / 1000;
    total_ms = busy_ms + idle_ms;
    total_us = busy_us + idle_us;
    if (total_ms > 0) {
        rps = (double) tasks / total_ms;
    } else if (total_us > 0) {
        rps = (double) tasks * 1000.0 / total_us;
    } else {
        rps = 0.0;
    }
    rps = round(rps * 10.0) / 10.0;

    ds_put_cstr(out, "{\"API\":");
    json_string_escape(stage, out);
    ds_put_format(out, ",\"RPS[k]\":%.1f,\"Tasks\":%"PRIu64
                  ",\"Total[ms]\":%lld,\"busy[ms]\":%lld,\"idle[ms]\":%lld}",
                  rps, tasks, total_ms, busy_ms, idle_ms);
}

/* Records and outputs 'line' for 't'.  Takes ownership of 'line'. */
static void
emit_line(struct perf_timer *t, char *line, uint64_t tasks)
{
    ovs_mutex_lock(&perf_timer_mutex);
    free(t->lines[t->next_line]);
    t->lines[t->next_line] = xstrdup(line);
    t->next_line = (t->next_line + 1) % t->opts.history;
    t->n_lines = MIN(t->n_lines + 1, t->opts.history);
    t->n_windows++;
    t->total_tasks += tasks;
    ovs_mutex_unlock(&perf_timer_mutex);

    if (t->opts.module) {
        vlog(t->opts.module, VLL_INFO, "%s", line);
    }
    if (t->opts.output) {
        t->opts.output(line, t->opts.output_aux);
    }
    free(line);
}

/* Ends the current window of 't': emits its line if it has any task, and
 * starts a new, empty window.  Returns true if a line was emitted. */
static bool
close_window(struct perf_timer *t)
{
    bool emitted = false;

    if (t->tasks) {
        struct ds line = DS_EMPTY_INITIALIZER;

        perf_timer_format_line(t->stage, t->tasks, t->busy_us, t->idle_us,
                               &line);
        emit_line(t, ds_steal_cstr(&line), t->tasks);
        emitted = true;
    }
    t->tasks = 0;
    t->busy_us = 0;
    t->idle_us = 0;
    return emitted;
}

/* Adds to the window of 't' the busy or idle time that has accrued up to
 * 'now', so that the window can close at 'now'. */
static void
account_to(struct perf_timer *t, long long int now)
{
    if (t->running) {
        t->busy_us += MAX(now - t->run_start, 0);
        t->run_start = now;
    } else if (t->idle_from != NO_TIME) {
        t->idle_us += MAX(now - t->idle_from, 0);
        t->idle_from = now;
    }
}

/* Marks the start of a burst of work.  The time since the previous pause
 * is idle time of the current window, unless it exceeds the idle timeout:
 * then the window closes as it was at that pause (emitting its line if it
 * has tasks) and the gap belongs to no window.  Does nothing if 't' is
 * already running. */
void
perf_timer_start(struct perf_timer *t)
{
    if (t->running) {
        return;
    }

    long long int now = now_us(t);
    if (t->last_pause != NO_TIME && t->opts.idle_timeout_ms
        && now - t->last_pause > t->opts.idle_timeout_ms * 1000) {
        close_window(t);
    } else {
        account_to(t, now);
    }
    t->running = true;
    t->run_start = now;
}

/* Marks the end of a burst of work: the time since perf_timer_start() is
 * busy time.  Does nothing if 't' is not running. */
void
perf_timer_pause(struct perf_timer *t)
{
    if (!t->running) {
        return;
    }

    long long int now = now_us(t);
    account_to(t, now);
    t->running = false;
    t->last_pause = now;
    t->idle_from = now;
}

/* Counts 'n_tasks' more tasks in the current window of 't'.  If that brings
 * the window to the threshold, and the window spans at least 1 ms, closes
 * it and emits its line.  Usually called right after perf_timer_pause(),
 * but works while running too (the busy time so far then counts). */
void
perf_timer_inc(struct perf_timer *t, uint64_t n_tasks)
{
    t->tasks += n_tasks;
    if (t->tasks >= t->opts.threshold && t->tasks) {
        account_to(t, now_us(t));
        if (t->busy_us / 1000 + t->idle_us / 1000 > 0) {
            close_window(t);
        }
    }
}

/* Closes the window of 't' if it has tasks and 't' has been paused for
 * longer than the idle timeout, so that the last burst before a quiet
 * period is reported promptly.  Returns true if a line was emitted.  Call
 * it from the owner's main loop, with perf_timer_wait(). */
bool
perf_timer_run(struct perf_timer *t)
{
    if (t->running || !t->tasks || !t->opts.idle_timeout_ms
        || t->last_pause == NO_TIME) {
        return false;
    }
    if (now_us(t) - t->last_pause > t->opts.idle_timeout_ms * 1000) {
        return close_window(t);
    }
    return false;
}

/* Arranges for poll_block() to wake up when perf_timer_run() has a window
 * to close. */
void
perf_timer_wait(const struct perf_timer *t)
{
    if (t->running || !t->tasks || !t->opts.idle_timeout_ms
        || t->last_pause == NO_TIME) {
        return;
    }

    long long int deadline = t->last_pause + t->opts.idle_timeout_ms * 1000;
    long long int remaining_us = deadline - now_us(t) + 1;
    poll_timer_wait(remaining_us > 0 ? (remaining_us + 999) / 1000 : 0);
}

/* Closes the current window of 't' now, emitting its line if it has tasks
 * (whatever the threshold).  Returns true if a line was emitted. */
bool
perf_timer_flush(struct perf_timer *t)
{
    account_to(t, now_us(t));
    return close_window(t);
}

/* Returns a copy of the last line 't' emitted, or NULL if none.  The caller
 * must free() it. */
char *
perf_timer_last_line(const struct perf_timer *t)
{
    char *line = NULL;

    ovs_mutex_lock(&perf_timer_mutex);
    if (t->n_lines) {
        size_t i = (t->next_line + t->opts.history - 1) % t->opts.history;
        line = xstrdup(t->lines[i]);
    }
    ovs_mutex_unlock(&perf_timer_mutex);
    return line;
}

/* Appends a description of 't' and its last lines, oldest first, to 's'. */
static void
perf_timer_format__(const struct perf_timer *t, struct ds *s)
    OVS_REQUIRES(perf_timer_mutex)
{
    ds_put_format(s, "%s: threshold=%"PRIu64" idle_timeout=%lldms "
                  "windows=%"PRIu64" tasks=%"PRIu64"\n",
                  t->stage, t->opts.threshold, t->opts.idle_timeout_ms,
                  t->n_windows, t->total_tasks);
    for (size_t i = 0; i < t->n_lines; i++) {
        size_t idx = (t->next_line + t->opts.history - t->n_lines + i)
                     % t->opts.history;
        ds_put_format(s, "  %s\n", t->lines[idx]);
    }
}

/* Appends to 's' a header line for 't' ("STAGE: threshold=N
 * idle_timeout=Nms windows=N tasks=N") and its last lines, oldest first,
 * each indented by two spaces. */
void
perf_timer_format(const struct perf_timer *t, struct ds *s)
{
    ovs_mutex_lock(&perf_timer_mutex);
    perf_timer_format__(t, s);
    ovs_mutex_unlock(&perf_timer_mutex);
}

/* Appends perf_timer_format() of every timer, or only of those for stage
 * 'stage' if it is nonnull, to 's'. */
void
perf_timer_format_all(const char *stage, struct ds *s)
{
    struct perf_timer *t;

    ovs_mutex_lock(&perf_timer_mutex);
    LIST_FOR_EACH (t, list_node, &all_timers) {
        if (!stage || !strcmp(stage, t->stage)) {
            perf_timer_format__(t, s);
        }
    }
    ovs_mutex_unlock(&perf_timer_mutex);
}

/* "perf/show [STAGE]". */
static void
perf_timer_unixctl_show(struct unixctl_conn *conn, int argc,
                        const char *argv[], void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    perf_timer_format_all(argc > 1 ? argv[1] : NULL, &s);
    if (argc > 1 && !s.length) {
        unixctl_command_reply_error(conn, "no such stage");
    } else {
        unixctl_command_reply(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

/* Registers the "perf/show [STAGE]" unixctl command.  Call from the main
 * thread; later calls do nothing. */
void
perf_timer_register_unixctl(void)
{
    static bool registered;

    if (!registered) {
        registered = true;
        unixctl_command_register("perf/show", "[STAGE]", 0, 1,
                                 perf_timer_unixctl_show, NULL);
    }
}
