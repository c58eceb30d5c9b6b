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

#ifndef FPM_FRAME_H
#define FPM_FRAME_H 1

/* FPM (Forwarding Plane Manager) framing.
 *
 * zebra's dplane_fpm_nl module and SONiC's fpmsyncd talk over a TCP stream
 * of frames.  Every frame starts with a 4-byte header:
 *
 *     u8  version     always 1 (FPM_FRAME_VERSION)
 *     u8  type        1 = netlink (FPM_FRAME_TYPE_NETLINK), 2 = protobuf
 *     be16 length     whole frame length, header included
 *
 * and a netlink frame carries one or more netlink messages, each padded to
 * NLMSG_ALIGNTO (4 bytes), back to back.
 *
 * This module has three parts:
 *
 *   - struct fpm_splitter: an incremental splitter that turns the bytes read
 *     from a TCP socket into complete frames, whatever the read boundaries.
 *     A bad header is a sticky error: the caller should close the
 *     connection (zebra reconnects and replays its table).
 *
 *   - struct fpm_nlmsg_iter: walks the netlink messages inside one frame,
 *     checking every nlmsg_len against the frame's bounds.
 *
 *   - encoders that wrap netlink bytes in a frame header, in an ofpbuf. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlmsghdr;
struct ofpbuf;

#define FPM_FRAME_HDR_LEN 4           /* Size of the frame header. */
#define FPM_FRAME_VERSION 1           /* The only version in use. */
#define FPM_FRAME_TYPE_NETLINK 1      /* Payload is netlink messages. */
#define FPM_FRAME_TYPE_PROTOBUF 2     /* Payload is protobuf (unsupported). */
#define FPM_FRAME_MAX_LEN UINT16_MAX  /* Largest length a header can carry. */

/* Why a frame header was refused. */
enum fpm_frame_error {
    FPM_FRAME_OK,               /* Header is acceptable. */
    FPM_FRAME_BAD_VERSION,      /* version != FPM_FRAME_VERSION. */
    FPM_FRAME_BAD_TYPE,         /* type != FPM_FRAME_TYPE_NETLINK. */
    FPM_FRAME_TOO_SHORT,        /* length < FPM_FRAME_HDR_LEN. */
    FPM_FRAME_TOO_LONG,         /* length > the splitter's maximum. */
};

const char *fpm_frame_error_to_string(enum fpm_frame_error);

/* One complete frame returned by fpm_splitter_next(). */
struct fpm_frame {
    uint8_t version;            /* Header version (always 1 here). */
    uint8_t type;               /* Header type (always 1 here). */
    uint16_t len;               /* Whole frame length, header included. */
    const uint8_t *data;        /* Payload: 'len - 4' bytes, 4-byte aligned;
                                 * points into the splitter's buffer. */
    size_t size;                /* Payload size, 'len - 4'. */
};

enum fpm_frame_error fpm_frame_check_header(const uint8_t hdr[4],
                                            size_t max_len,
                                            uint16_t *lenp);

/* Incremental frame splitter.
 *
 * Typical use with a socket:
 *
 *     struct fpm_splitter s;
 *     fpm_splitter_init(&s, 0);
 *     for (;;) {
 *         size_t room;
 *         void *p = fpm_splitter_reserve(&s, &room);
 *         ssize_t n = read(fd, p, room);
 *         ...
 *         fpm_splitter_commit(&s, n);
 *
 *         struct fpm_frame f;
 *         int error;
 *         while (!(error = fpm_splitter_next(&s, &f))) {
 *             ...use f.data, f.size...
 *         }
 *         if (error != EAGAIN) {
 *             ...bad header: close the connection...
 *         }
 *     }
 *
 * A frame returned by fpm_splitter_next() points into the splitter's
 * buffer and stays valid only until the next call to any fpm_splitter_*()
 * function on the same splitter: process it (or copy it) first. */
struct fpm_splitter {
    uint8_t *buf;               /* Receive buffer (malloc'd). */
    size_t allocated;           /* Bytes allocated for 'buf'. */
    size_t head;                /* Offset of the first byte not yet
                                 * returned in a frame. */
    size_t tail;                /* Offset one past the last byte
                                 * received. */
    size_t max_len;             /* Longest frame accepted (<= 65535). */
    enum fpm_frame_error error; /* Sticky: set by the first bad header. */
    uint8_t bad_hdr[FPM_FRAME_HDR_LEN]; /* The offending header, if any. */
    uint64_t n_frames;          /* Frames returned so far. */
    uint64_t n_bytes;           /* Bytes received so far. */
};

void fpm_splitter_init(struct fpm_splitter *, size_t max_len);
void fpm_splitter_destroy(struct fpm_splitter *);
void fpm_splitter_reset(struct fpm_splitter *);
void *fpm_splitter_reserve(struct fpm_splitter *, size_t *room);
void fpm_splitter_commit(struct fpm_splitter *, size_t n);
void fpm_splitter_feed(struct fpm_splitter *, const void *, size_t);
int fpm_splitter_next(struct fpm_splitter *, struct fpm_frame *);
size_t fpm_splitter_pending(const struct fpm_splitter *);

/* Iterator over the netlink messages inside one frame's payload. */
struct fpm_nlmsg_iter {
    const uint8_t *pos;         /* Next message. */
    size_t left;                /* Bytes from 'pos' to the payload end. */
};

void fpm_nlmsg_iter_init(struct fpm_nlmsg_iter *, const void *data,
                         size_t size);
int fpm_nlmsg_iter_next(struct fpm_nlmsg_iter *,
                        const struct nlmsghdr **nlhp);

/* Encoding. */
void fpm_frame_put_header(uint8_t hdr[4], size_t frame_len);
size_t fpm_frame_start(struct ofpbuf *);
void fpm_frame_finish(struct ofpbuf *, size_t start_ofs);
void fpm_frame_encode(struct ofpbuf *, const void *payload, size_t size);

#endif /* fpm-frame.h */
