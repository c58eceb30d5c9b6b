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

#include "lib/ovsdb-select-reader.h"

#include <errno.h>

#include "jsonrpc.h"
#include "lib/ovsdb-writer.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "socket-util.h"
#include "stream.h"
#include "svec.h"
#include "util.h"

/* Most reply bytes read per ovsdb_select_reader_run() call. */
#define READ_BUDGET (4 * 1024 * 1024)

struct ovsdb_select_reader {
    struct stream *stream;      /* Connection, NULL once closed. */
    struct svec remotes;        /* The servers to try, in order. */
    size_t next_remote;         /* Index in 'remotes' of the next to try. */
    struct ds request;          /* The whole request, to send again to
                                 * the next server. */
    bool replied;               /* A reply byte came: no other server may
                                 * be tried any more. */
    struct ds out;              /* Request bytes not yet sent. */
    struct ovsdb_select_scanner scanner; /* Splits the reply into rows. */
    int n_selects;              /* Selects in the request. */
    ovsdb_select_row_cb *row_cb; /* Called for each row. */
    void *aux;                  /* Its argument. */
    enum ovsdb_select_reader_state state; /* Where it is. */
    char *error;                /* Why it failed, if it did. */
};

/* Ends 'r' as failed with 'error' (taken). */
static enum ovsdb_select_reader_state
reader_fail(struct ovsdb_select_reader *r, char *error)
{
    free(r->error);
    r->error = error;
    r->state = OVSDB_SELECT_READER_FAILED;
    stream_close(r->stream);
    r->stream = NULL;
    return r->state;
}

/* Opens a connection to the next server of 'r' that accepts one, and
 * queues the request on it.  Returns 0, or the error of the last server
 * tried if none is left. */
static int
open_next(struct ovsdb_select_reader *r, int error)
{
    stream_close(r->stream);
    r->stream = NULL;
    while (r->next_remote < r->remotes.n) {
        const char *remote = r->remotes.names[r->next_remote++];

        error = stream_open(remote, &r->stream, DSCP_DEFAULT);
        if (!error) {
            ds_clear(&r->out);
            ds_put_buffer(&r->out, r->request.string, r->request.length);
            return 0;
        }
        r->stream = NULL;
    }
    return error;
}

/* Starts reading the reply to "transact" with 'transact_params' (taken),
 * which must be ["DB", SELECT, ...] with 'n_selects' selects, from
 * 'remote' over a new connection.  'remote' may be a comma-separated list
 * (the servers of a Raft cluster): each is tried in turn until one
 * connects and answers.  'row_cb' gets each row, with the index of its
 * select. */
struct ovsdb_select_reader *
ovsdb_select_reader_create(const char *remote, struct json *transact_params,
                           int n_selects, ovsdb_select_row_cb *row_cb,
                           void *aux)
{
    struct ovsdb_select_reader *r = xzalloc(sizeof *r);
    struct jsonrpc_msg *msg;
    struct json *json;
    int error;

    r->n_selects = n_selects;
    r->row_cb = row_cb;
    r->aux = aux;
    r->state = OVSDB_SELECT_READER_RUNNING;
    ds_init(&r->out);
    ovsdb_select_scanner_init(&r->scanner);

    /* No copy of the id: nothing matches the reply to it (the connection
     * carries this one request), and a copy asked for must be freed. */
    msg = jsonrpc_create_request("transact", transact_params, NULL);
    json = jsonrpc_msg_to_json(msg);
    ds_init(&r->request);
    json_to_ds(json, 0, &r->request);
    json_destroy(json);

    svec_init(&r->remotes);
    ovsdb_writer_parse_remotes(remote, &r->remotes);
    error = open_next(r, ENOENT);
    if (error) {
        r->stream = NULL;
        reader_fail(r, xasprintf("connection failed: %s",
                                 ovs_strerror(error)));
    }
    return r;
}

void
ovsdb_select_reader_destroy(struct ovsdb_select_reader *r)
{
    if (r) {
        stream_close(r->stream);
        svec_destroy(&r->remotes);
        ds_destroy(&r->request);
        ds_destroy(&r->out);
        ovsdb_select_scanner_destroy(&r->scanner);
        free(r->error);
        free(r);
    }
}

/* Sends what is left of the request.  Returns 0, EAGAIN if some is left,
 * or another errno value. */
static int
send_request(struct ovsdb_select_reader *r)
{
    while (r->out.length) {
        int n = stream_send(r->stream, r->out.string, r->out.length);

        if (n < 0) {
            return -n;
        }
        memmove(r->out.string, r->out.string + n, r->out.length - n);
        r->out.length -= n;
    }
    return 0;
}

/* Advances the read: connects, sends the request, and reads up to a few
 * megabytes of the reply, handing over the rows in it. */
enum ovsdb_select_reader_state
ovsdb_select_reader_run(struct ovsdb_select_reader *r)
{
    size_t budget = READ_BUDGET;
    int error;

    if (r->state != OVSDB_SELECT_READER_RUNNING) {
        return r->state;
    }
    stream_run(r->stream);
    error = stream_connect(r->stream);
    if (!error) {
        error = send_request(r);
    }
    while (error && error != EAGAIN && !r->replied
           && r->next_remote < r->remotes.n) {
        /* This server is down: the next one. */
        error = open_next(r, error);
        if (!error) {
            poll_immediate_wake();
            return r->state;
        }
    }
    if (error) {
        return (error == EAGAIN ? r->state
                : reader_fail(r, xasprintf("connection failed: %s",
                                           ovs_strerror(error))));
    }
    while (budget) {
        char buf[65536];
        int n = stream_recv(r->stream, buf, sizeof buf);
        char *msg;

        if (n <= 0) {
            if (n != -EAGAIN && !r->replied
                && r->next_remote < r->remotes.n && !open_next(r, -n)) {
                /* Closed before a byte of reply: the next server. */
                poll_immediate_wake();
                return r->state;
            }
            return (n == -EAGAIN ? r->state
                    : reader_fail(r, n ? xasprintf("receive failed: %s",
                                                   ovs_strerror(-n))
                                  : xstrdup("connection closed")));
        }
        r->replied = true;
        budget -= MIN(budget, n);
        msg = ovsdb_select_scanner_feed(&r->scanner, buf, n, r->row_cb,
                                        r->aux);
        if (msg) {
            return reader_fail(r, msg);
        }
        if (r->scanner.done) {
            msg = ovsdb_select_scanner_finish(&r->scanner, r->n_selects);
            if (msg) {
                return reader_fail(r, msg);
            }
            stream_close(r->stream);
            r->stream = NULL;
            r->state = OVSDB_SELECT_READER_DONE;
            return r->state;
        }
    }
    poll_immediate_wake();
    return r->state;
}

void
ovsdb_select_reader_wait(struct ovsdb_select_reader *r)
{
    if (r->state != OVSDB_SELECT_READER_RUNNING) {
        poll_immediate_wake();
    } else if (r->stream) {
        stream_run_wait(r->stream);
        if (stream_connect(r->stream) == EAGAIN) {
            /* Only while connecting: a connected stream's connect wait is
             * a wait for POLLOUT, always ready, and would spin the loop
             * for as long as the server takes to build its reply. */
            stream_connect_wait(r->stream);
        } else if (r->out.length) {
            stream_send_wait(r->stream);
        } else {
            stream_recv_wait(r->stream);
        }
    }
}

/* Returns why the read failed, or NULL. */
const char *
ovsdb_select_reader_error(const struct ovsdb_select_reader *r)
{
    return r->error;
}

/* Returns the number of rows handed over so far. */
size_t
ovsdb_select_reader_n_rows(const struct ovsdb_select_reader *r)
{
    return r->scanner.n_rows;
}
