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

/* test-zmq-send: sends bytes as one ZeroMQ message from a DEALER socket,
 * for the autotests that feed a fibsync channel garbage (a raw socket does
 * not speak ZMTP, so it would never reach the channel's decoder).
 *
 * usage: test-zmq-send [--id=ROUTING_ID] ENDPOINT HEX
 *
 * HEX is the message, two hex digits a byte.  With --id, the DEALER takes
 * that routing id (a binding fibsync end accepts messages only from its
 * peer's id, "fibsync-NAME"); without, libzmq picks one.  It waits up to
 * 5 s for libzmq to deliver the message before it exits. */

#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

/* Decodes 'hex' into a new buffer and its length into '*n'; NULL if it is
 * not hex. */
static unsigned char *
decode_hex(const char *hex, size_t *n)
{
    size_t len = strlen(hex);
    unsigned char *buf = malloc(len / 2 + 1);

    if (!buf || len % 2) {
        free(buf);
        return NULL;
    }
    for (size_t i = 0; i < len / 2; i++) {
        unsigned int byte;

        if (!isxdigit((unsigned char) hex[2 * i])
            || !isxdigit((unsigned char) hex[2 * i + 1])
            || sscanf(&hex[2 * i], "%2x", &byte) != 1) {
            free(buf);
            return NULL;
        }
        buf[i] = byte;
    }
    *n = len / 2;
    return buf;
}

int
main(int argc, char *argv[])
{
    const char *id = NULL;
    unsigned char *msg;
    void *ctx, *sock;
    int linger = 5000;
    int argi = 1;
    size_t n;
    int rc;

    if (argc > 1 && !strncmp(argv[1], "--id=", 5)) {
        id = argv[1] + 5;
        argi++;
    }
    if (argc - argi != 2) {
        fprintf(stderr, "usage: %s [--id=ROUTING_ID] ENDPOINT HEX\n",
                argv[0]);
        return 2;
    }
    msg = decode_hex(argv[argi + 1], &n);
    if (!msg) {
        fprintf(stderr, "%s: \"%s\" is not hex\n", argv[0], argv[argi + 1]);
        return 2;
    }

    ctx = zmq_ctx_new();
    sock = zmq_socket(ctx, ZMQ_DEALER);
    if (id) {
        zmq_setsockopt(sock, ZMQ_ROUTING_ID, id, strlen(id));
    }
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    if (zmq_connect(sock, argv[argi])) {
        fprintf(stderr, "%s: connect %s: %s\n", argv[0], argv[argi],
                zmq_strerror(zmq_errno()));
        return 1;
    }
    rc = zmq_send(sock, msg, n, 0) < 0;
    if (rc) {
        fprintf(stderr, "%s: send: %s\n", argv[0],
                zmq_strerror(zmq_errno()));
    }
    free(msg);
    /* Closing waits up to the linger time for the message to go out. */
    zmq_close(sock);
    zmq_ctx_term(ctx);
    return rc;
}
