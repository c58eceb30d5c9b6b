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

#include "lib/fpm-frame.h"

#include <errno.h>
#include <linux/netlink.h>
#include <stdlib.h>
#include <string.h>

#include "openvswitch/ofpbuf.h"
#include "util.h"

/* Initial receive buffer: room for a few maximum-size frames, so that one
 * read() can pull in several of zebra's batched frames. */
#define FPM_SPLITTER_INITIAL_SIZE (256 * 1024)

/* fpm_splitter_reserve() always offers at least this much room, so that a
 * maximum-size frame can always be completed. */
#define FPM_SPLITTER_MIN_ROOM (FPM_FRAME_MAX_LEN + 1)

const char *
fpm_frame_error_to_string(enum fpm_frame_error error)
{
    switch (error) {
    case FPM_FRAME_OK:
        return "ok";
    case FPM_FRAME_BAD_VERSION:
        return "bad FPM frame version";
    case FPM_FRAME_BAD_TYPE:
        return "unsupported FPM frame type";
    case FPM_FRAME_TOO_SHORT:
        return "FPM frame length shorter than its header";
    case FPM_FRAME_TOO_LONG:
        return "FPM frame length over the maximum";
    }
    return "unknown FPM frame error";
}

/* Checks the 4-byte frame header 'hdr' against 'max_len' (0 means
 * FPM_FRAME_MAX_LEN).  On success stores the whole frame length in '*lenp'
 * and returns FPM_FRAME_OK; otherwise returns the reason for refusal. */
enum fpm_frame_error
fpm_frame_check_header(const uint8_t hdr[4], size_t max_len, uint16_t *lenp)
{
    uint16_t len = (hdr[2] << 8) | hdr[3];

    if (!max_len || max_len > FPM_FRAME_MAX_LEN) {
        max_len = FPM_FRAME_MAX_LEN;
    }
    *lenp = len;
    if (hdr[0] != FPM_FRAME_VERSION) {
        return FPM_FRAME_BAD_VERSION;
    } else if (hdr[1] != FPM_FRAME_TYPE_NETLINK) {
        return FPM_FRAME_BAD_TYPE;
    } else if (len < FPM_FRAME_HDR_LEN) {
        return FPM_FRAME_TOO_SHORT;
    } else if (len > max_len) {
        return FPM_FRAME_TOO_LONG;
    }
    return FPM_FRAME_OK;
}

/* Initializes 's' to split a new stream.  Frames longer than 'max_len'
 * bytes (header included) are refused; 0 (or anything over 65535) means
 * FPM_FRAME_MAX_LEN. */
void
fpm_splitter_init(struct fpm_splitter *s, size_t max_len)
{
    memset(s, 0, sizeof *s);
    s->max_len = (!max_len || max_len > FPM_FRAME_MAX_LEN
                  ? FPM_FRAME_MAX_LEN : max_len);
    s->allocated = FPM_SPLITTER_INITIAL_SIZE;
    s->buf = xmalloc(s->allocated);
}

/* Frees the memory owned by 's'. */
void
fpm_splitter_destroy(struct fpm_splitter *s)
{
    if (s) {
        free(s->buf);
        s->buf = NULL;
        s->allocated = s->head = s->tail = 0;
    }
}

/* Discards buffered bytes and any sticky error, e.g. for a new
 * connection.  Keeps the counters and the buffer. */
void
fpm_splitter_reset(struct fpm_splitter *s)
{
    s->head = s->tail = 0;
    s->error = FPM_FRAME_OK;
    memset(s->bad_hdr, 0, sizeof s->bad_hdr);
}

/* Moves the unconsumed bytes to the start of the buffer. */
static void
fpm_splitter_compact(struct fpm_splitter *s)
{
    if (s->head) {
        memmove(s->buf, s->buf + s->head, s->tail - s->head);
        s->tail -= s->head;
        s->head = 0;
    }
}

/* Returns a pointer to free space at the end of 's''s buffer, at least
 * FPM_FRAME_MAX_LEN + 1 bytes, and stores its size in '*room'.  Read data
 * into it, then call fpm_splitter_commit() with the number of bytes read.
 * Invalidates frames previously returned by fpm_splitter_next(). */
void *
fpm_splitter_reserve(struct fpm_splitter *s, size_t *room)
{
    if (s->allocated - s->tail < FPM_SPLITTER_MIN_ROOM) {
        fpm_splitter_compact(s);
        if (s->allocated - s->tail < FPM_SPLITTER_MIN_ROOM) {
            s->allocated = s->tail + FPM_SPLITTER_MIN_ROOM;
            s->buf = xrealloc(s->buf, s->allocated);
        }
    }
    *room = s->allocated - s->tail;
    return s->buf + s->tail;
}

/* Tells 's' that 'n' bytes were written into the space that the last
 * fpm_splitter_reserve() returned. */
void
fpm_splitter_commit(struct fpm_splitter *s, size_t n)
{
    ovs_assert(n <= s->allocated - s->tail);
    s->tail += n;
    s->n_bytes += n;
}

/* Copies 'n' bytes from 'data' into 's'.  Invalidates frames previously
 * returned by fpm_splitter_next(). */
void
fpm_splitter_feed(struct fpm_splitter *s, const void *data, size_t n)
{
    while (n > 0) {
        size_t room;
        uint8_t *p = fpm_splitter_reserve(s, &room);
        size_t chunk = MIN(n, room);

        memcpy(p, data, chunk);
        fpm_splitter_commit(s, chunk);
        data = (const uint8_t *) data + chunk;
        n -= chunk;
    }
}

/* Extracts the next complete frame from 's' into '*frame'.
 *
 * Returns 0 if a frame was extracted, EAGAIN if more bytes are needed, or
 * EPROTO if the stream has a bad frame header (see 's->error'); the error is
 * sticky: the stream cannot be resynchronized and the caller should close
 * the connection. */
int
fpm_splitter_next(struct fpm_splitter *s, struct fpm_frame *frame)
{
    enum fpm_frame_error error;
    size_t avail;
    uint16_t len;

    if (s->error != FPM_FRAME_OK) {
        return EPROTO;
    }

    avail = s->tail - s->head;
    if (avail < FPM_FRAME_HDR_LEN) {
        return EAGAIN;
    }

    error = fpm_frame_check_header(s->buf + s->head, s->max_len, &len);
    if (error != FPM_FRAME_OK) {
        s->error = error;
        memcpy(s->bad_hdr, s->buf + s->head, FPM_FRAME_HDR_LEN);
        return EPROTO;
    }
    if (avail < len) {
        return EAGAIN;
    }

    /* Netlink messages need 4-byte alignment.  A peer that sends frames
     * whose lengths are not multiples of 4 (zebra never does) leaves the
     * next header at an odd offset: move the pending bytes down to the
     * (malloc-aligned) start of the buffer. */
    if (s->head % NLMSG_ALIGNTO) {
        fpm_splitter_compact(s);
    }

    frame->version = s->buf[s->head];
    frame->type = s->buf[s->head + 1];
    frame->len = len;
    frame->data = s->buf + s->head + FPM_FRAME_HDR_LEN;
    frame->size = len - FPM_FRAME_HDR_LEN;

    s->head += len;
    if (s->head == s->tail) {
        s->head = s->tail = 0;
    }
    s->n_frames++;
    return 0;
}

/* Returns the number of bytes buffered in 's' that are not yet part of a
 * returned frame (a partial frame, or data after a bad header). */
size_t
fpm_splitter_pending(const struct fpm_splitter *s)
{
    return s->tail - s->head;
}

/* Initializes 'it' to walk the netlink messages in the 'size' bytes at
 * 'data' (a frame payload). */
void
fpm_nlmsg_iter_init(struct fpm_nlmsg_iter *it, const void *data, size_t size)
{
    it->pos = data;
    it->left = size;
}

/* Stores the next netlink message of 'it' in '*nlhp'.  On success the whole
 * message, 'nlmsg_len' bytes, is within the payload.
 *
 * Returns 0 on success, EOF at the end of the payload, or EPROTO if the
 * rest of the payload cannot be split: fewer bytes than a netlink header,
 * or an 'nlmsg_len' shorter than a header or past the payload end.  After
 * EPROTO the iterator stays at EOF. */
int
fpm_nlmsg_iter_next(struct fpm_nlmsg_iter *it, const struct nlmsghdr **nlhp)
{
    const struct nlmsghdr *nlh;
    size_t aligned;

    *nlhp = NULL;
    if (!it->left) {
        return EOF;
    }
    if (it->left < sizeof *nlh) {
        it->left = 0;
        return EPROTO;
    }

    nlh = (const struct nlmsghdr *) it->pos;
    if (nlh->nlmsg_len < sizeof *nlh || nlh->nlmsg_len > it->left) {
        it->left = 0;
        return EPROTO;
    }

    /* The last message may omit its trailing padding. */
    aligned = MIN(NLMSG_ALIGN(nlh->nlmsg_len), it->left);
    it->pos += aligned;
    it->left -= aligned;
    *nlhp = nlh;
    return 0;
}

/* Writes a frame header for a frame of 'frame_len' bytes (header included)
 * into 'hdr'. */
void
fpm_frame_put_header(uint8_t hdr[4], size_t frame_len)
{
    ovs_assert(frame_len >= FPM_FRAME_HDR_LEN
               && frame_len <= FPM_FRAME_MAX_LEN);
    hdr[0] = FPM_FRAME_VERSION;
    hdr[1] = FPM_FRAME_TYPE_NETLINK;
    hdr[2] = frame_len >> 8;
    hdr[3] = frame_len & 0xff;
}

/* Appends a placeholder frame header to 'b' and returns its offset, to pass
 * to fpm_frame_finish() once the frame's netlink messages follow it. */
size_t
fpm_frame_start(struct ofpbuf *b)
{
    size_t ofs = b->size;

    ofpbuf_put_zeros(b, FPM_FRAME_HDR_LEN);
    return ofs;
}

/* Completes the frame that fpm_frame_start() began at 'start_ofs' in 'b':
 * its length runs to the end of 'b', at most FPM_FRAME_MAX_LEN bytes. */
void
fpm_frame_finish(struct ofpbuf *b, size_t start_ofs)
{
    fpm_frame_put_header(ofpbuf_at_assert(b, start_ofs, FPM_FRAME_HDR_LEN),
                         b->size - start_ofs);
}

/* Appends to 'b' one frame carrying the 'size' bytes at 'payload'. */
void
fpm_frame_encode(struct ofpbuf *b, const void *payload, size_t size)
{
    size_t ofs = fpm_frame_start(b);

    ofpbuf_put(b, payload, size);
    fpm_frame_finish(b, ofs);
}
