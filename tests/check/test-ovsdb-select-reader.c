/*
 * Copyright (c) 2026 The fibsync authors.
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

/* Check suite of lib/ovsdb-select-reader's reading: against a test double
 * of ovsdb-server on a unix socket (it reads the request and writes a
 * canned reply, in pieces as the socket takes them), a reply larger than
 * the read-ahead and than one chunk hands over every row; receiving ahead
 * hands over none until the reader runs; a reply cut short ends the read
 * as failed, after the rows that came whole. */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/ovsdb-select-reader.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "stream.h"
#include "tests/check/suites.h"
#include "util.h"

/* The test double of the server. */
struct fake_server {
    char *dir;                  /* Temporary directory of the socket. */
    char *remote;               /* "unix:DIR/db.sock", for the reader. */
    struct pstream *listener;   /* Listening socket. */
    struct stream *conn;        /* The reader's connection, once accepted. */
    struct ds reply;            /* The reply to write... */
    size_t sent;                /* ...and how much of it was written. */
};

/* Rows of the reply counted by the reader's callback. */
static void
count_row(int select_idx, const struct json *row, void *n_)
{
    size_t *n = n_;

    ck_assert_int_eq(select_idx, 0);
    ck_assert_int_eq(row->type, JSON_OBJECT);
    (*n)++;
}

/* Starts a server whose reply holds 'n_rows' rows, each about 100 bytes,
 * row i with prefix 10.(i / 256 % 256).(i % 256).0/24. */
static void
fake_server_init(struct fake_server *fs, size_t n_rows)
{
    char template[] = "/tmp/select-reader-XXXXXX";
    char *pname;

    ck_assert_ptr_nonnull(mkdtemp(template));
    fs->dir = xstrdup(template);
    fs->remote = xasprintf("unix:%s/db.sock", fs->dir);
    pname = xasprintf("punix:%s/db.sock", fs->dir);
    ck_assert_int_eq(pstream_open(pname, &fs->listener, 0), 0);
    free(pname);
    fs->conn = NULL;
    fs->sent = 0;

    ds_init(&fs->reply);
    ds_put_cstr(&fs->reply, "{\"id\":0,\"result\":[{\"rows\":[");
    for (size_t i = 0; i < n_rows; i++) {
        ds_put_format(&fs->reply, "%s{\"_uuid\":[\"uuid\",\"%08zx-0000-4000-"
                      "8000-000000000000\"],\"prefix\":\"10.%zu.%zu.0/24\","
                      "\"seq\":%zu}", i ? "," : "", i, i / 256 % 256,
                      i % 256, i);
    }
    ds_put_cstr(&fs->reply, "]}],\"error\":null}");
}

static void
fake_server_destroy(struct fake_server *fs)
{
    char *sock = xasprintf("%s/db.sock", fs->dir);

    stream_close(fs->conn);
    pstream_close(fs->listener);
    unlink(sock);
    rmdir(fs->dir);
    free(sock);
    free(fs->dir);
    free(fs->remote);
    ds_destroy(&fs->reply);
}

/* Accepts the reader's connection, reads its request, and writes as much
 * of the reply as the socket takes.  Returns true once all is written. */
static bool
fake_server_run(struct fake_server *fs)
{
    if (!fs->conn) {
        int error = pstream_accept(fs->listener, &fs->conn);

        if (error) {
            ck_assert_int_eq(error, EAGAIN);
            return false;
        }
    }
    for (;;) {
        char buf[4096];
        int n = stream_recv(fs->conn, buf, sizeof buf);

        if (n <= 0) {
            break;
        }
    }
    while (fs->sent < fs->reply.length) {
        int n = stream_send(fs->conn, fs->reply.string + fs->sent,
                            fs->reply.length - fs->sent);

        if (n < 0) {
            ck_assert_int_eq(n, -EAGAIN);
            return false;
        }
        fs->sent += n;
    }
    return true;
}

/* Creates a reader of one select from 'fs'. */
static struct ovsdb_select_reader *
reader_create(struct fake_server *fs, size_t *n_rows)
{
    struct json *params = json_from_string(
        "[\"Fibsync\",{\"op\":\"select\",\"table\":\"Asic_Route\","
        "\"where\":[],\"columns\":[\"_uuid\",\"prefix\",\"seq\"]}]");

    *n_rows = 0;
    return ovsdb_select_reader_create(fs->remote, params, 1, count_row,
                                      n_rows);
}

/* A reply of about 4 MB, 16 times the read-ahead and 64 times a chunk,
 * received ahead as the server writes it, then scanned: no row is handed
 * over before the reader runs, and every row after. */
START_TEST(test_select_read_ahead)
{
    struct fake_server fs;
    struct ovsdb_select_reader *r;
    size_t n_rows;
    int i;

    fake_server_init(&fs, 40000);
    r = reader_create(&fs, &n_rows);
    ovsdb_select_reader_set_read_ahead(r, 256 * 1024);

    /* Only receiving: the socket drains up to the read-ahead, so the
     * server gets some way but not all of it written, and no row is
     * handed over. */
    for (i = 0; i < 1000 && !fake_server_run(&fs); i++) {
        ovsdb_select_reader_receive(r);
    }
    ck_assert_int_eq(n_rows, 0);
    ck_assert(fs.sent > 256 * 1024);
    ck_assert(fs.sent < fs.reply.length);

    /* Running: every row. */
    for (i = 0; i < 100000; i++) {
        fake_server_run(&fs);
        enum ovsdb_select_reader_state state = ovsdb_select_reader_run(r);

        if (state != OVSDB_SELECT_READER_RUNNING) {
            ck_assert_int_eq(state, OVSDB_SELECT_READER_DONE);
            break;
        }
    }
    ck_assert_int_eq(n_rows, 40000);
    ck_assert_int_eq(ovsdb_select_reader_n_rows(r), 40000);
    ck_assert_int_eq(fs.sent, fs.reply.length);
    ovsdb_select_reader_destroy(r);
    fake_server_destroy(&fs);
}
END_TEST

/* With the default read-ahead (one chunk), a reply received in pieces
 * hands over every row too. */
START_TEST(test_select_default)
{
    struct fake_server fs;
    struct ovsdb_select_reader *r;
    enum ovsdb_select_reader_state state = OVSDB_SELECT_READER_RUNNING;
    size_t n_rows;

    fake_server_init(&fs, 5000);
    r = reader_create(&fs, &n_rows);
    for (int i = 0; i < 100000 && state == OVSDB_SELECT_READER_RUNNING;
         i++) {
        fake_server_run(&fs);
        state = ovsdb_select_reader_run(r);
    }
    ck_assert_int_eq(state, OVSDB_SELECT_READER_DONE);
    ck_assert_int_eq(n_rows, 5000);
    ovsdb_select_reader_destroy(r);
    fake_server_destroy(&fs);
}
END_TEST

/* A reply cut short by the server's close, the end received ahead: the
 * rows that came whole are handed over, then the read fails as closed. */
START_TEST(test_select_cut_short)
{
    struct fake_server fs;
    struct ovsdb_select_reader *r;
    enum ovsdb_select_reader_state state = OVSDB_SELECT_READER_RUNNING;
    size_t n_rows;
    int i;

    fake_server_init(&fs, 1000);
    /* The first 100 rows and half of the 101st, as the server wrote them
     * before it went away. */
    fs.reply.length = strstr(fs.reply.string, "\"10.0.100.0/24") -
                      fs.reply.string;

    r = reader_create(&fs, &n_rows);
    ovsdb_select_reader_set_read_ahead(r, 1024 * 1024);
    do {
        ovsdb_select_reader_receive(r);     /* Sends the request. */
    } while (!fake_server_run(&fs));
    stream_close(fs.conn);
    fs.conn = NULL;
    pstream_close(fs.listener);
    fs.listener = NULL;
    ovsdb_select_reader_receive(r);
    ck_assert_int_eq(n_rows, 0);

    for (i = 0; i < 1000 && state == OVSDB_SELECT_READER_RUNNING; i++) {
        state = ovsdb_select_reader_run(r);
    }
    ck_assert_int_eq(state, OVSDB_SELECT_READER_FAILED);
    ck_assert_int_eq(n_rows, 100);
    ck_assert_str_eq(ovsdb_select_reader_error(r), "connection closed");
    ovsdb_select_reader_destroy(r);
    fake_server_destroy(&fs);
}
END_TEST

Suite *
ovsdb_select_reader_suite(void)
{
    Suite *s = suite_create("ovsdb_select_reader");
    TCase *tc = tcase_create("ovsdb_select_reader");

    tcase_add_test(tc, test_select_read_ahead);
    tcase_add_test(tc, test_select_default);
    tcase_add_test(tc, test_select_cut_short);
    suite_add_tcase(s, tc);
    return s;
}
