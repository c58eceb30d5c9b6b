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

#ifndef ROUTE_FRAME_H
#define ROUTE_FRAME_H 1

/* route-frame: the binary frame that carries route batches between
 * fibsync's daemons on the fast path (over ZeroMQ, lib/zmq-channel.h).
 *
 * A frame is one message: a fixed header and 'count' entries.  Every
 * integer is in network byte order.
 *
 *   header (32 bytes)
 *     u16 magic     0x4653 ("FS")
 *     u8  version   ROUTE_FRAME_VERSION
 *     u8  type      enum route_frame_type
 *     u32 flags     ROUTE_FRAME_F_*; no other bit may be set
 *     u32 count     entries that follow
 *     u32 reserved  0 (so is every reserved field: a frame with
 *                   anything else there is refused)
 *     u64 seq       the sender's message sequence number (1, 2, ...)
 *     u64 epoch     the sender's session, random at each start: a new
 *                   epoch tells the receiver that its peer restarted
 *
 *   ROUTE_FRAME_ROUTES entry (16 bytes, then variable parts)
 *     u8  op        ROUTE_FRAME_SET or ROUTE_FRAME_DEL: always explicit,
 *                   so a set with nothing in it is never read as a delete
 *     u8  family    4 or 6
 *     u8  plen      prefix length
 *     u8  action    enum route_frame_action (0 for a delete)
 *     u8  vrf_len   1...255
 *     u8  flags     ROUTE_FRAME_EF_* (a SET's; 0 in a DEL, as in every
 *                   RESULTS entry); no other bit may be set.  A receiver
 *                   older than a flag refuses the frame: the daemons are
 *                   upgraded together
 *     u16 n_nexthops  0 for a delete; at most ROUTE_FRAME_MAX_NEXTHOPS
 *     u64 seq       the sender's number for this write of the route,
 *                   echoed in its result (like Asic_Route's seq and
 *                   applied_seq on the OVSDB path).  On the northbound
 *                   hop fpmsyncd numbers each route's SETs 1 to 255 in
 *                   turn, and orchd's result echoes the number of the
 *                   route's last SET when it is about that SET's content,
 *                   0 otherwise: an answer for older content is never
 *                   taken for newer
 *     vrf_len bytes   VRF name
 *     4 or 16 bytes   prefix address, host bits zero
 *     n_nexthops x { u32 weight (>= 1); u16 key_len (>= 1); key bytes }
 *                   each key "GATEWAY@IFNAME", "GATEWAY" or "@IFNAME"
 *
 *   ROUTE_FRAME_RESULTS entry: how the receiver's end applied a route
 *     u8  op, u8 family, u8 plen     as in the route it answers
 *     u8  status    0 programmed, else an error code
 *     u8  vrf_len, u8 flags (0), u16 error_len, u64 seq
 *     vrf_len bytes, 4 or 16 bytes of address, error_len bytes of text
 *
 *   ROUTE_FRAME_ACK and ROUTE_FRAME_HELLO carry no entries: an ack's
 *   'seq' is the last message its sender applied (see lib/zmq-channel.h
 *   for the protocol).
 *
 * Decoding never trusts its input: route_frame_validate() checks a whole
 * frame before anything is applied, so that a malformed, truncated or
 * wrong-version frame is refused as a whole, with a reason, and never
 * half applied.  Decoded entries point into the frame: no allocation.
 *
 * Thread safety: none needed; no state outside the caller's structs. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/fib-prefix.h"

struct ofpbuf;

#define ROUTE_FRAME_MAGIC 0x4653
#define ROUTE_FRAME_VERSION 1
#define ROUTE_FRAME_HEADER_LEN 32
#define ROUTE_FRAME_MAX_NEXTHOPS 512

/* Header flags. */
#define ROUTE_FRAME_F_REPLY 0x1 /* HELLO, ACK: answers the peer's hello
                                 * or ack probe. */
#define ROUTE_FRAME_F_GAP 0x2   /* ACK: a message after 'seq' was missing:
                                 * send again from seq + 1. */
#define ROUTE_FRAME_F_PROBE 0x4 /* ACK: answer with an ack. */
#define ROUTE_FRAME_F_SYNC_END 0x8 /* ROUTES: ends a full resync (sent
                                    * after the peer callback): whatever
                                    * the receiver holds from this sender
                                    * that the resync did not name is
                                    * stale. */
#define ROUTE_FRAME_F_DB_BEHIND 0x10 /* ROUTES: the sender's own OVSDB
                                      * writes are behind (rows queued or
                                      * in flight).  The receiver may hold
                                      * its own write-behind back, so that
                                      * the database's source of truth is
                                      * written first; a frame without it
                                      * says the sender caught up. */
#define ROUTE_FRAME_F_ALL (ROUTE_FRAME_F_REPLY | ROUTE_FRAME_F_GAP \
                           | ROUTE_FRAME_F_PROBE | ROUTE_FRAME_F_SYNC_END \
                           | ROUTE_FRAME_F_DB_BEHIND)

/* Entry flags (ROUTES, SET entries only). */
#define ROUTE_FRAME_EF_ANSWER 0x1 /* Answer with a result even if the route
                                   * is already programmed as it says: its
                                   * sender waits for one (FIB suppression:
                                   * a route changed and changed back
                                   * before the change was sent). */
#define ROUTE_FRAME_EF_ALL ROUTE_FRAME_EF_ANSWER

/* Message types. */
enum route_frame_type {
    ROUTE_FRAME_ROUTES = 1,     /* Route changes. */
    ROUTE_FRAME_RESULTS = 2,    /* Outcomes of route changes. */
    ROUTE_FRAME_ACK = 3,        /* Messages applied up to 'seq'. */
    ROUTE_FRAME_HELLO = 4,      /* A peer (re)started. */
};

/* Operations of an entry. */
enum route_frame_op {
    ROUTE_FRAME_SET = 1,        /* Create or replace the route. */
    ROUTE_FRAME_DEL = 2,        /* Remove it. */
};

/* What a route does with a packet. */
enum route_frame_action {
    ROUTE_FRAME_FORWARD = 0,    /* To its next hops. */
    ROUTE_FRAME_DROP = 1,       /* Blackhole. */
    ROUTE_FRAME_TRAP = 2,       /* To the CPU. */
};

/* Why a frame was refused. */
enum route_frame_error {
    ROUTE_FRAME_OK,
    ROUTE_FRAME_E_SHORT,        /* Shorter than a header. */
    ROUTE_FRAME_E_MAGIC,        /* Not a fibsync frame. */
    ROUTE_FRAME_E_VERSION,      /* A version this build does not speak. */
    ROUTE_FRAME_E_TYPE,         /* Unknown message type. */
    ROUTE_FRAME_E_FLAGS,        /* Unknown flags. */
    ROUTE_FRAME_E_TRUNCATED,    /* An entry runs past the end. */
    ROUTE_FRAME_E_OP,           /* Unknown operation. */
    ROUTE_FRAME_E_PREFIX,       /* Bad family, length or host bits. */
    ROUTE_FRAME_E_ACTION,       /* Unknown action, or one with a delete. */
    ROUTE_FRAME_E_VRF,          /* Empty VRF name. */
    ROUTE_FRAME_E_NEXTHOP,      /* Bad next hop, or next hops with a
                                 * delete or a non-forward action. */
    ROUTE_FRAME_E_TRAILING,     /* Bytes after the last entry. */
    ROUTE_FRAME_E_COUNT,        /* Entries in a message that has none. */
    ROUTE_FRAME_E_RESERVED,     /* A reserved field is not zero. */
    ROUTE_FRAME_N_ERRORS
};

const char *route_frame_strerror(enum route_frame_error);
const char *route_frame_type_name(enum route_frame_type);

/* A decoded header. */
struct route_frame_header {
    uint8_t version;            /* ROUTE_FRAME_VERSION. */
    uint8_t type;               /* enum route_frame_type. */
    uint32_t flags;             /* ROUTE_FRAME_F_*. */
    uint32_t count;             /* Entries. */
    uint64_t seq;               /* Message sequence number. */
    uint64_t epoch;             /* Sender's session. */
};

/* One next hop, pointing into a frame or to the caller's memory. */
struct route_frame_nexthop {
    const char *key;            /* Not null-terminated. */
    uint16_t key_len;           /* Bytes in 'key'. */
    uint32_t weight;            /* ECMP weight, at least 1. */
};

/* One route entry (ROUTES), or one result (RESULTS). */
struct route_frame_route {
    uint8_t op;                 /* enum route_frame_op. */
    uint8_t action;             /* enum route_frame_action (ROUTES). */
    uint8_t status;             /* 0 or an error code (RESULTS). */
    uint8_t flags;              /* ROUTE_FRAME_EF_* (ROUTES). */
    uint64_t seq;               /* Number of this write of the route. */
    const char *vrf;            /* Not null-terminated. */
    uint8_t vrf_len;            /* Bytes in 'vrf'. */
    struct fib_prefix prefix;   /* Destination. */
    size_t n_nexthops;          /* Next hops (ROUTES). */
    struct route_frame_nexthop *nexthops; /* Filled by the decoder into the
                                           * reader's array. */
    const char *error;          /* Error text (RESULTS), not terminated. */
    uint16_t error_len;         /* Bytes in 'error'. */
};

/* Encoding.  A frame is built in an ofpbuf: start, put entries, finish. */
void route_frame_start(struct ofpbuf *, enum route_frame_type,
                       uint64_t seq, uint64_t epoch);
void route_frame_set_header(void *frame, uint32_t flags, uint64_t seq,
                            uint64_t epoch);
uint32_t route_frame_get_flags(const void *frame);
void route_frame_put_route(struct ofpbuf *, const struct route_frame_route *);
void route_frame_put_result(struct ofpbuf *,
                            const struct route_frame_route *);
void route_frame_finish(struct ofpbuf *);

/* Decoding. */
enum route_frame_error route_frame_parse_header(const void *, size_t,
                                                struct route_frame_header *);
enum route_frame_error route_frame_validate(const void *, size_t,
                                            struct route_frame_header *);

/* Iterates over the entries of a frame that route_frame_validate()
 * accepted. */
struct route_frame_reader {
    const uint8_t *p;           /* Next entry. */
    const uint8_t *end;         /* End of the frame. */
    uint8_t type;               /* The frame's type. */
    uint32_t left;              /* Entries not read yet. */
    struct route_frame_nexthop nexthops[ROUTE_FRAME_MAX_NEXTHOPS];
                                /* The current entry's next hops. */
};

void route_frame_reader_init(struct route_frame_reader *, const void *,
                             size_t);
enum route_frame_error route_frame_read(struct route_frame_reader *,
                                        struct route_frame_route *);

/* Entries a reader of a frame takes at a time when it prefetches their
 * lookups (route_frame_read_group(), orchd's northbound): enough for their
 * cache misses to overlap, few enough for what they bring in to stay. */
#define ROUTE_FRAME_GROUP_SIZE 16

/* Callback of route_frame_read_group(): entry 'route' in pass 'pass'. */
typedef void route_frame_group_cb(void *aux,
                                  const struct route_frame_route *route,
                                  int pass);
void route_frame_read_group(struct route_frame_reader *, size_t group_size,
                            int n_passes, route_frame_group_cb *,
                            void *aux);

#endif /* route-frame.h */
