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

/* Most reply bytes scanned per ovsdb_select_reader_run() call. */
#define READ_BUDGET (4 * 1024 * 1024)

/* Bytes received, and scanned, at a time. */
#define READ_CHUNK 65536

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
    char *in;                   /* Reply bytes received... */
    size_t in_start;            /* ...from this offset, the first not yet
                                 * scanned... */
    size_t in_end;              /* ...to this one... */
    size_t in_alloc;            /* ...in a buffer of this many bytes. */
    size_t read_ahead;          /* Most bytes held unscanned (at least
                                 * READ_CHUNK). */
    int recv_error;             /* Once the connection ended: EOF, or the
                                 * errno value it failed with (the bytes
                                 * before it are scanned first). */
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
    r->read_ahead = READ_CHUNK;
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
        free(r->in);
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

/* Lets 'r' receive up to 'bytes' of the reply ahead of its scanner
 * (default, and least, one chunk of 64 kB).
 *
 * Why: ovsdb-server composes and sends a reply in one thread.  A reader
 * that scans as it receives paces the server's sending at its own speed,
 * so that a server with several selects to answer (lib/ovsdb-slice-reader
 * with slices in flight) composes the next reply only once this one is
 * scanned: the two never overlap.  Received ahead, the reply leaves the
 * server at memory speed, and the server composes the next while this one
 * is scanned.  The cost is up to 'bytes' (twice that, allocated) of memory
 * while a reply is read. */
void
ovsdb_select_reader_set_read_ahead(struct ovsdb_select_reader *r,
                                   size_t bytes)
{
    r->read_ahead = MAX(bytes, READ_CHUNK);
}

/* Receives what the connection holds until 'r' holds 'r->read_ahead'
 * unscanned bytes.  Sets '*would_block' if the connection had no more for
 * now, 'r->recv_error' if it ended. */
static void
receive(struct ovsdb_select_reader *r, bool *would_block)
{
    if (r->in_start == r->in_end) {
        r->in_start = r->in_end = 0;
    }
    while (r->in_end - r->in_start < r->read_ahead) {
        size_t held = r->in_end - r->in_start;
        size_t room = MIN(READ_CHUNK, r->read_ahead - held);
        int n;

        if (r->in_alloc - r->in_end < room) {
            if (r->in_start && r->in_start >= held) {
                /* As many bytes scanned as held: moving the held ones down
                 * copies no more than were scanned since the last move. */
                memmove(r->in, r->in + r->in_start, held);
                r->in_start = 0;
                r->in_end = held;
            }
            if (r->in_alloc - r->in_end < room) {
                r->in_alloc = MAX(2 * r->in_alloc, r->in_end + room);
                r->in = xrealloc(r->in, r->in_alloc);
            }
        }
        n = stream_recv(r->stream, r->in + r->in_end, room);
        if (n <= 0) {
            if (n == -EAGAIN) {
                *would_block = true;
            } else {
                r->recv_error = n ? -n : EOF;
            }
            return;
        }
        r->replied = true;
        r->in_end += n;
    }
}

/* Runs the connection and sends what is left of the request.  Returns 0
 * once it is all sent, EAGAIN while it is not, or another errno value. */
static int
connect_and_send(struct ovsdb_select_reader *r)
{
    int error;

    stream_run(r->stream);
    error = stream_connect(r->stream);
    return error ? error : send_request(r);
}

/* Advances the read as far as receiving: connects, sends the request and
 * receives what has come, up to the read-ahead, but scans nothing (so
 * hands over no row).  Errors wait for ovsdb_select_reader_run().  For a
 * caller with several readers that must hand over their rows in order:
 * it runs the first and lets the others receive meanwhile. */
void
ovsdb_select_reader_receive(struct ovsdb_select_reader *r)
{
    bool would_block = false;

    if (r->state == OVSDB_SELECT_READER_RUNNING && r->stream
        && !connect_and_send(r) && !r->recv_error) {
        receive(r, &would_block);
    }
}

/* Advances the read: connects, sends the request, receives what has come
 * (up to the read-ahead) and scans up to a few megabytes of the reply,
 * handing over the rows in it. */
enum ovsdb_select_reader_state
ovsdb_select_reader_run(struct ovsdb_select_reader *r)
{
    size_t budget = READ_BUDGET;
    bool would_block = false;
    int error;

    if (r->state != OVSDB_SELECT_READER_RUNNING) {
        return r->state;
    }
    error = connect_and_send(r);
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
        size_t chunk;
        char *msg;

        if (!r->recv_error && !would_block) {
            receive(r, &would_block);
        }
        chunk = MIN(MIN(r->in_end - r->in_start, READ_CHUNK), budget);
        if (!chunk) {
            break;
        }
        msg = ovsdb_select_scanner_feed(&r->scanner, r->in + r->in_start,
                                        chunk, r->row_cb, r->aux);
        r->in_start += chunk;
        budget -= chunk;
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
    if (r->in_end > r->in_start || (!budget && !would_block
                                      && !r->recv_error)) {
        /* More to scan, or perhaps to receive: the budget ran out. */
        poll_immediate_wake();
        return r->state;
    }
    if (r->recv_error) {
        int recv_error = r->recv_error;

        if (!r->replied && r->next_remote < r->remotes.n
            && !open_next(r, recv_error)) {
            /* Closed before a byte of reply: the next server. */
            r->recv_error = 0;
            poll_immediate_wake();
            return r->state;
        }
        return reader_fail(r, (recv_error == EOF
                               ? xstrdup("connection closed")
                               : xasprintf("receive failed: %s",
                                           ovs_strerror(recv_error))));
    }
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
        } else if (r->in_end - r->in_start < r->read_ahead
                   && !r->recv_error) {
            /* Not with the read-ahead full: nothing to do until the
             * scan (run(), which wakes itself while it has bytes to
             * scan) makes room. */
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
