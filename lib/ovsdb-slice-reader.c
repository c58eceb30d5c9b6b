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

#include "lib/ovsdb-slice-reader.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "jsonrpc.h"
#include "lib/ovsdb-wire.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "socket-util.h"
#include "stream.h"
#include "svec.h"
#include "util.h"

/* ---- The plan -----------------------------------------------------------
 */

/* Starts a plan of slices 'width' wide, at most 'max_in_flight' of them at
 * once, beginning with a probe from 0. */
void
ovsdb_slice_reader_plan_init(struct ovsdb_slice_reader_plan *p,
                             int64_t width, size_t max_in_flight)
{
    ovs_assert(width >= 1 && max_in_flight >= 1);
    memset(p, 0, sizeof *p);
    p->width = width;
    p->max_in_flight = max_in_flight;
    p->max_seq = -1;
    p->max_value = INT64_MAX;
    p->need_probe = true;
}

/* Tells the plan that every value lies in [0, 'max_value']: it then makes
 * no probe, and ends once its slices cover 'max_value'.  Call before the
 * first ovsdb_slice_reader_plan_next(). */
void
ovsdb_slice_reader_plan_set_max(struct ovsdb_slice_reader_plan *p,
                                int64_t max_value)
{
    ovs_assert(max_value >= 0 && !p->n_slices && !p->n_probes);
    p->max_value = max_value;
    p->need_probe = false;
}

/* Says what to start next: a probe from '*lo', a slice [*lo, *hi) ('*hi'
 * INT64_MAX for the open-ended slice, "*lo <= seq" alone), or nothing for
 * now (a probe is under way, every slot is taken, or all is started).
 * Each step returned counts as started. */
enum ovsdb_slice_reader_step
ovsdb_slice_reader_plan_next(struct ovsdb_slice_reader_plan *p,
                             int64_t *lo, int64_t *hi)
{
    if (p->exhausted || p->open_started || p->probing) {
        return OVSDB_SLICE_READER_NONE;
    }
    if (p->next_lo > p->max_value) {
        /* The slices cover every value a row may hold. */
        p->exhausted = true;
        return OVSDB_SLICE_READER_NONE;
    }
    *lo = p->next_lo;
    if (p->stop || p->next_lo >= INT64_MAX - p->width) {
        /* The caller said enough, or the values are so high that a bounded
         * slice's end would not fit: the rest at once. */
        *hi = INT64_MAX;
        p->open_started = true;
        p->n_slices++;
        return OVSDB_SLICE_READER_SLICE;
    }
    if (p->need_probe) {
        *hi = INT64_MAX;
        p->need_probe = false;
        p->probing = true;
        p->probe_lo = p->next_lo;
        p->n_probes++;
        return OVSDB_SLICE_READER_PROBE;
    }
    if (p->n_in_flight >= p->max_in_flight) {
        return OVSDB_SLICE_READER_NONE;
    }
    *hi = (p->max_value - p->next_lo < p->width ? p->max_value + 1
           : p->next_lo + p->width);
    p->next_lo = *hi;
    p->n_in_flight++;
    p->n_slices++;
    return OVSDB_SLICE_READER_SLICE;
}

/* Stores in 'spans' the spans of a probe from 'lo' and returns how many:
 * after its first operation ("some value >= lo"), operation k + 1 checks
 * that no value lies in [lo, lo + spans[k]); the spans are 'width',
 * doubling, as long as the range's end fits in an int64_t. */
size_t
ovsdb_slice_reader_plan_probe_spans(
    const struct ovsdb_slice_reader_plan *p, int64_t lo,
    int64_t spans[OVSDB_SLICE_READER_MAX_PROBE_OPS - 1])
{
    int64_t span = p->width;
    size_t n = 0;

    while (n < OVSDB_SLICE_READER_MAX_PROBE_OPS - 1
           && span <= INT64_MAX - lo) {
        spans[n++] = span;
        if (span > INT64_MAX / 2) {
            break;
        }
        span *= 2;
    }
    return n;
}

/* Takes the outcome of the probe under way: the index of its operation
 * that failed (timed out), or SIZE_MAX if none did. */
void
ovsdb_slice_reader_plan_probe_done(struct ovsdb_slice_reader_plan *p,
                                   size_t failed_op)
{
    int64_t spans[OVSDB_SLICE_READER_MAX_PROBE_OPS - 1];
    size_t n = ovsdb_slice_reader_plan_probe_spans(p, p->probe_lo, spans);

    ovs_assert(p->probing);
    p->probing = false;
    if (failed_op == 0) {
        /* No value at or above 'probe_lo': nothing is left to read. */
        p->exhausted = true;
    } else if (failed_op == 1 || (failed_op == SIZE_MAX && !n)) {
        /* A value in the first slice (or no span to look further). */
        p->next_lo = p->probe_lo;
    } else {
        /* None in [lo, lo + spans[k - 2]), some in [lo, lo + spans[k - 1])
         * or, if no operation failed, only past the last span. */
        size_t k = failed_op == SIZE_MAX ? n + 1 : failed_op;

        ovs_assert(k - 2 < n);
        p->next_lo = p->probe_lo + spans[k - 2];
    }
}

/* Notes a row's value 'seq'. */
void
ovsdb_slice_reader_plan_note_seq(struct ovsdb_slice_reader_plan *p,
                                 int64_t seq)
{
    p->max_seq = MAX(p->max_seq, seq);
}

/* Notes that the slice [lo, hi) ended with 'n_rows' rows.  An empty
 * bounded slice past every value seen calls for a probe from 'next_lo':
 * the values may resume further up (a gap) or be all read.  A slice
 * started before the last probe tells nothing new. */
void
ovsdb_slice_reader_plan_slice_done(struct ovsdb_slice_reader_plan *p,
                                   int64_t lo, int64_t hi, size_t n_rows)
{
    if (hi == INT64_MAX) {
        p->open_done = true;
        return;
    }
    ovs_assert(p->n_in_flight > 0);
    p->n_in_flight--;
    if (!n_rows && lo > p->max_seq && lo >= p->probe_lo
        && !p->stop && !p->exhausted && p->max_value == INT64_MAX) {
        p->need_probe = true;
    }
}

/* Ends the bounded slices: once the probe under way, if any, has ended,
 * one open-ended slice reads the rest (unless a probe found none). */
void
ovsdb_slice_reader_plan_stop(struct ovsdb_slice_reader_plan *p)
{
    p->stop = true;
}

/* Returns true once everything started has ended and nothing more is to
 * be started. */
bool
ovsdb_slice_reader_plan_done(const struct ovsdb_slice_reader_plan *p)
{
    return (!p->n_in_flight && !p->probing
            && (p->exhausted || p->open_done));
}

/* ---- The reader ---------------------------------------------------------
 */

/* One slice being read, or a free slot. */
struct slice {
    struct ovsdb_slice_reader *owner; /* The reader it belongs to. */
    struct ovsdb_select_reader *reader; /* Its select, NULL if free. */
    int64_t lo, hi;             /* [lo, hi), hi INT64_MAX: open-ended. */
    int idx;                    /* Its number, from 0, in start order. */
    size_t n_rows;              /* Rows read so far. */
};

/* The probe under way, over a connection of its own, tried on each
 * server of the list in turn until one connects and answers (as a select
 * reader does). */
struct probe {
    struct jsonrpc *rpc;        /* Connection, NULL if none. */
    struct json *params;        /* Its "transact" params, to send again to
                                 * the next server; NULL if no probe is
                                 * under way. */
    size_t n_ops;               /* Operations in it. */
    size_t next_remote;         /* Index in 'remotes' of the next server
                                 * to try. */
};

struct ovsdb_slice_reader {
    char *remote;               /* Servers, as given (for the selects). */
    struct svec remotes;        /* Servers, one each (for the probes). */
    char *db;                   /* Database name. */
    char *table;                /* Table name. */
    char *seq_column;           /* Column sliced on. */
    struct json *where;         /* Base conditions (a JSON array). */
    char *columns;              /* Columns read, space-separated. */
    struct ovsdb_slice_reader_plan plan; /* Where the slices go. */
    size_t read_ahead;          /* Each select's read-ahead, bytes. */
    struct slice *slices;       /* 'plan.max_in_flight' + 1 slots. */
    size_t n_slots;             /* Slots in 'slices'. */
    struct probe probe;         /* The probe under way, if any. */
    ovsdb_select_row_cb *row_cb; /* Called with each row... */
    void *aux;                  /* ...and this. */
    size_t n_rows;              /* Rows handed over so far. */
    size_t max_slice_rows;      /* Most rows in one slice ended so far. */
    enum ovsdb_select_reader_state state; /* Where it is. */
    char *error;                /* Why it failed, if it did. */
};

/* Starts reading, from 'spec->remote', the rows of 'spec->table' that
 * match 'spec->where', in slices of 'spec->seq_column' (see the header),
 * calling 'row_cb' with each row and, as its 'select_idx', the number of
 * its slice (0, 1, ... in start order). */
struct ovsdb_slice_reader *
ovsdb_slice_reader_create(const struct ovsdb_slice_reader_spec *spec,
                          ovsdb_select_row_cb *row_cb, void *aux)
{
    struct ovsdb_slice_reader *r = xzalloc(sizeof *r);
    struct svec words;
    bool has_seq = false;

    r->remote = xstrdup(spec->remote);
    svec_init(&r->remotes);
    ovsdb_writer_parse_remotes(spec->remote, &r->remotes);
    r->db = xstrdup(spec->db);
    r->table = xstrdup(spec->table);
    r->seq_column = xstrdup(spec->seq_column);
    r->where = (spec->where ? json_deep_clone(spec->where)
                : json_array_create_empty());

    svec_init(&words);
    svec_parse_words(&words, spec->columns);
    for (size_t i = 0; i < words.n; i++) {
        has_seq = has_seq || !strcmp(words.names[i], spec->seq_column);
    }
    svec_destroy(&words);
    r->columns = (has_seq || spec->max_value > 0
                  ? xstrdup(spec->columns)
                  /* The plan needs each row's value to know where the rows
                   * end. */
                  : xasprintf("%s %s", spec->columns, spec->seq_column));

    ovsdb_slice_reader_plan_init(&r->plan, spec->width,
                                 spec->max_in_flight);
    if (spec->max_value > 0) {
        ovsdb_slice_reader_plan_set_max(&r->plan, spec->max_value);
    }
    r->n_slots = spec->max_in_flight + 1;
    r->read_ahead = spec->read_ahead;
    r->slices = xcalloc(r->n_slots, sizeof *r->slices);
    for (size_t i = 0; i < r->n_slots; i++) {
        r->slices[i].owner = r;
    }
    r->row_cb = row_cb;
    r->aux = aux;
    r->state = OVSDB_SELECT_READER_RUNNING;
    return r;
}

/* Ends the probe under way, if any, and closes its connection. */
static void
probe_close(struct probe *pr)
{
    jsonrpc_close(pr->rpc);
    pr->rpc = NULL;
    json_destroy(pr->params);
    pr->params = NULL;
}

void
ovsdb_slice_reader_destroy(struct ovsdb_slice_reader *r)
{
    if (r) {
        for (size_t i = 0; i < r->n_slots; i++) {
            ovsdb_select_reader_destroy(r->slices[i].reader);
        }
        free(r->slices);
        probe_close(&r->probe);
        free(r->remote);
        svec_destroy(&r->remotes);
        free(r->db);
        free(r->table);
        free(r->seq_column);
        json_destroy(r->where);
        free(r->columns);
        free(r->error);
        free(r);
    }
}

/* Ends 'r' as failed with 'error' (taken), closing what it has open. */
static enum ovsdb_select_reader_state
reader_fail(struct ovsdb_slice_reader *r, char *error)
{
    for (size_t i = 0; i < r->n_slots; i++) {
        ovsdb_select_reader_destroy(r->slices[i].reader);
        r->slices[i].reader = NULL;
    }
    probe_close(&r->probe);
    free(r->error);
    r->error = error;
    r->state = OVSDB_SELECT_READER_FAILED;
    return r->state;
}

/* Returns the condition [COLUMN, FUNCTION, VALUE]. */
static struct json *
clause(const char *column, const char *function, int64_t value)
{
    return json_array_create_3(json_string_create(column),
                               json_string_create(function),
                               json_integer_create(value));
}

/* Returns the base conditions of 'r' and "lo <= seq", and "seq <= hi - 1"
 * unless 'hi' is INT64_MAX (not "seq < hi": ovsdb-server refuses a value
 * beyond the column's "maxInteger" even in a condition, and 'hi' may be
 * one past it). */
static struct json *
range_where(const struct ovsdb_slice_reader *r, int64_t lo, int64_t hi)
{
    const struct json_array *base = json_array(r->where);
    struct json *where = json_array_create_empty();

    /* A new array: json_clone() only counts a reference, and the base
     * array is shared by every slice. */
    for (size_t i = 0; i < base->n; i++) {
        json_array_add(where, json_clone(base->elems[i]));
    }
    json_array_add(where, clause(r->seq_column, ">=", lo));
    if (hi != INT64_MAX) {
        json_array_add(where, clause(r->seq_column, "<=", hi - 1));
    }
    return where;
}

/* Returns a "wait" for the rows of [lo, hi) that times out at once unless
 * there are some ('until' "!=") or none ("=="): a scan of the table in
 * ovsdb-server, no row in the reply. */
static struct json *
wait_op(const struct ovsdb_slice_reader *r, int64_t lo, int64_t hi,
        const char *until)
{
    struct json *op = json_object_create();

    json_object_put_string(op, "op", "wait");
    json_object_put(op, "timeout", json_integer_create(0));
    json_object_put_string(op, "table", r->table);
    json_object_put(op, "where", range_where(r, lo, hi));
    json_object_put(op, "columns", json_array_create_empty());
    json_object_put_string(op, "until", until);
    json_object_put(op, "rows", json_array_create_empty());
    return op;
}

/* Opens a connection to the next server of the list that accepts one and
 * sends the probe on it.  Returns 0, or the error of the last server
 * tried ('error' if none was left). */
static int
probe_open_next(struct ovsdb_slice_reader *r, int error)
{
    struct probe *pr = &r->probe;

    jsonrpc_close(pr->rpc);
    pr->rpc = NULL;
    while (pr->next_remote < r->remotes.n) {
        const char *remote = r->remotes.names[pr->next_remote++];
        struct stream *stream;

        error = stream_open(remote, &stream, DSCP_DEFAULT);
        if (!error) {
            pr->rpc = jsonrpc_open(stream);
            error = jsonrpc_send(pr->rpc, jsonrpc_create_request(
                                     "transact", json_clone(pr->params),
                                     NULL));
            if (!error) {
                return 0;
            }
            jsonrpc_close(pr->rpc);
            pr->rpc = NULL;
        }
    }
    return error;
}

/* Starts a probe from 'lo' (see the header). */
static void
probe_start(struct ovsdb_slice_reader *r, int64_t lo)
{
    int64_t spans[OVSDB_SLICE_READER_MAX_PROBE_OPS - 1];
    size_t n = ovsdb_slice_reader_plan_probe_spans(&r->plan, lo, spans);
    struct probe *pr = &r->probe;
    int error;

    pr->params = json_array_create_1(json_string_create(r->db));
    json_array_add(pr->params, wait_op(r, lo, INT64_MAX, "!="));
    for (size_t i = 0; i < n; i++) {
        json_array_add(pr->params, wait_op(r, lo, lo + spans[i], "=="));
    }
    pr->n_ops = n + 1;
    pr->next_remote = 0;
    error = probe_open_next(r, ENOENT);
    if (error) {
        reader_fail(r, xasprintf("probe: connection failed: %s",
                                 ovs_retval_to_string(error)));
    }
}

/* Takes the reply 'msg' to the probe under way. */
static void
probe_reply(struct ovsdb_slice_reader *r, const struct jsonrpc_msg *msg)
{
    struct probe *pr = &r->probe;
    size_t failed;
    char *error = ovsdb_wire_reply_error(msg, pr->n_ops, &failed);

    if (error && failed != SIZE_MAX) {
        /* Only a time-out is an answer; anything else is an error. */
        const struct json *result = json_array(msg->result)->elems[failed];
        const char *tag = ovsdb_wire_get_string(
            shash_find_data(json_object(result), "error"));

        if (tag && !strcmp(tag, "timed out")) {
            free(error);
            error = NULL;
        }
    }
    if (error) {
        reader_fail(r, xasprintf("probe: %s", error));
        free(error);
        return;
    }
    probe_close(pr);
    ovsdb_slice_reader_plan_probe_done(&r->plan, failed);
}

/* Advances the probe under way. */
static void
probe_run(struct ovsdb_slice_reader *r)
{
    struct probe *pr = &r->probe;

    jsonrpc_run(pr->rpc);
    for (;;) {
        struct jsonrpc_msg *msg;
        int error = jsonrpc_recv(pr->rpc, &msg);

        if (error == EAGAIN) {
            return;
        } else if (error) {
            /* Connection refused or closed before the reply: the next
             * server, if there is one. */
            int error2 = probe_open_next(r, error);

            if (!error2) {
                poll_immediate_wake();
                return;
            }
            reader_fail(r, (error2 == EOF
                            ? xstrdup("probe: connection closed")
                            : xasprintf("probe: connection failed: %s",
                                        ovs_retval_to_string(error2))));
            return;
        }
        if (msg->type == JSONRPC_REQUEST && !strcmp(msg->method, "echo")) {
            jsonrpc_send(pr->rpc, jsonrpc_create_reply(
                             json_clone(msg->params), msg->id));
        } else if (msg->type == JSONRPC_REPLY
                   || msg->type == JSONRPC_ERROR) {
            probe_reply(r, msg);
            jsonrpc_msg_destroy(msg);
            return;
        }
        jsonrpc_msg_destroy(msg);
    }
}

/* ovsdb_select_row_cb: notes the row's value and hands the row over. */
static void
slice_row(int select_idx OVS_UNUSED, const struct json *row, void *s_)
{
    struct slice *s = s_;
    struct ovsdb_slice_reader *r = s->owner;
    int64_t seq;

    s->n_rows++;
    r->n_rows++;
    if (ovsdb_wire_get_integer(ovsdb_wire_col(row, r->seq_column), &seq)) {
        ovsdb_slice_reader_plan_note_seq(&r->plan, seq);
    }
    r->row_cb(s->idx, row, r->aux);
}

/* Starts reading the slice [lo, hi) in a free slot. */
static void
slice_start(struct ovsdb_slice_reader *r, int64_t lo, int64_t hi)
{
    struct slice *s = NULL;
    struct json *op;

    for (size_t i = 0; i < r->n_slots; i++) {
        if (!r->slices[i].reader) {
            s = &r->slices[i];
            break;
        }
    }
    ovs_assert(s);              /* The plan never starts more. */

    op = ovsdb_wire_op_select(r->table, range_where(r, lo, hi), r->columns);
    s->lo = lo;
    s->hi = hi;
    s->idx = r->plan.n_slices - 1;
    s->n_rows = 0;
    s->reader = ovsdb_select_reader_create(
        r->remote, json_array_create_2(json_string_create(r->db), op), 1,
        slice_row, s);
    ovsdb_select_reader_set_read_ahead(s->reader, r->read_ahead);
}

/* Formats slice 's' for an error message. */
static char *
slice_name(const struct slice *s)
{
    return (s->hi == INT64_MAX
            ? xasprintf("slice %s >= %"PRId64, s->owner->seq_column, s->lo)
            : xasprintf("slice %"PRId64" <= %s < %"PRId64,
                        s->lo, s->owner->seq_column, s->hi));
}

/* Advances the read: the probe, every slice (each reads at most a few
 * megabytes a call, see lib/ovsdb-select-reader.h), and starts what the
 * plan says next. */
enum ovsdb_select_reader_state
ovsdb_slice_reader_run(struct ovsdb_slice_reader *r)
{
    if (r->state != OVSDB_SELECT_READER_RUNNING) {
        return r->state;
    }
    if (r->probe.params) {
        probe_run(r);
        if (r->state != OVSDB_SELECT_READER_RUNNING) {
            return r->state;
        }
    }
    /* The oldest slice is scanned, the others only receive: scanned in
     * turns, the slices in flight would all end at once, and the server
     * would be idle while they are scanned, then compose the next ones
     * while the caller waits.  Scanned in order, the first ends, the next is
     * started, and the server composes it while the second is scanned. */
    struct slice *oldest = NULL;

    for (size_t i = 0; i < r->n_slots; i++) {
        struct slice *s = &r->slices[i];

        if (s->reader && (!oldest || s->idx < oldest->idx)) {
            oldest = s;
        }
    }
    for (size_t i = 0; i < r->n_slots; i++) {
        struct slice *s = &r->slices[i];

        if (!s->reader) {
            continue;
        }
        if (s != oldest) {
            ovsdb_select_reader_receive(s->reader);
            continue;
        }
        switch (ovsdb_select_reader_run(s->reader)) {
        case OVSDB_SELECT_READER_RUNNING:
            break;
        case OVSDB_SELECT_READER_DONE:
            ovsdb_select_reader_destroy(s->reader);
            s->reader = NULL;
            r->max_slice_rows = MAX(r->max_slice_rows, s->n_rows);
            ovsdb_slice_reader_plan_slice_done(&r->plan, s->lo, s->hi,
                                               s->n_rows);
            /* The next oldest may hold its whole reply already, with
             * nothing more to come to wake us. */
            poll_immediate_wake();
            break;
        case OVSDB_SELECT_READER_FAILED:
        default: {
            char *name = slice_name(s);
            char *error = xasprintf("%s: %s", name,
                                    ovsdb_select_reader_error(s->reader));
            free(name);
            return reader_fail(r, error);
        }
        }
    }

    for (;;) {
        int64_t lo, hi;

        switch (ovsdb_slice_reader_plan_next(&r->plan, &lo, &hi)) {
        case OVSDB_SLICE_READER_PROBE:
            probe_start(r, lo);
            if (r->state != OVSDB_SELECT_READER_RUNNING) {
                return r->state;
            }
            poll_immediate_wake();
            continue;
        case OVSDB_SLICE_READER_SLICE:
            slice_start(r, lo, hi);
            poll_immediate_wake();  /* To be run before it is awaited. */
            continue;
        case OVSDB_SLICE_READER_NONE:
        default:
            break;
        }
        break;
    }
    if (ovsdb_slice_reader_plan_done(&r->plan)) {
        r->state = OVSDB_SELECT_READER_DONE;
    }
    return r->state;
}

void
ovsdb_slice_reader_wait(struct ovsdb_slice_reader *r)
{
    if (r->state != OVSDB_SELECT_READER_RUNNING) {
        poll_immediate_wake();
        return;
    }
    if (r->probe.rpc) {
        jsonrpc_wait(r->probe.rpc);
        jsonrpc_recv_wait(r->probe.rpc);
    }
    for (size_t i = 0; i < r->n_slots; i++) {
        if (r->slices[i].reader) {
            ovsdb_select_reader_wait(r->slices[i].reader);
        }
    }
}

/* Ends the bounded slices: once the probe under way, if any, has ended,
 * one open-ended slice reads every row left.  For a caller that knows it
 * has read (nearly) every row: route-check, once it has read as many
 * Asic_Route rows as Route has. */
void
ovsdb_slice_reader_stop_bounded(struct ovsdb_slice_reader *r)
{
    ovsdb_slice_reader_plan_stop(&r->plan);
}

/* Returns why the read failed, or NULL. */
const char *
ovsdb_slice_reader_error(const struct ovsdb_slice_reader *r)
{
    return r->error;
}

/* Returns the number of rows handed over so far. */
size_t
ovsdb_slice_reader_n_rows(const struct ovsdb_slice_reader *r)
{
    return r->n_rows;
}

/* Returns the number of slices (selects) started so far. */
size_t
ovsdb_slice_reader_n_slices(const struct ovsdb_slice_reader *r)
{
    return r->plan.n_slices;
}

/* Returns the number of probes started so far. */
size_t
ovsdb_slice_reader_n_probes(const struct ovsdb_slice_reader *r)
{
    return r->plan.n_probes;
}

/* Returns the most rows one slice held, of those ended so far: at most the
 * width, but for the open-ended slice. */
size_t
ovsdb_slice_reader_max_slice_rows(const struct ovsdb_slice_reader *r)
{
    return r->max_slice_rows;
}
