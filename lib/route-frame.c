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

#include "lib/route-frame.h"

#include <string.h>
#include <sys/socket.h>

#include "byte-order.h"
#include "openvswitch/ofpbuf.h"
#include "unaligned.h"
#include "util.h"

/* Fixed part of an entry, before its variable parts. */
#define ENTRY_FIXED_LEN 16

/* Fixed part of a next hop, before its key. */
#define NEXTHOP_FIXED_LEN 6

static const char *const error_names[ROUTE_FRAME_N_ERRORS] = {
    [ROUTE_FRAME_OK] = "success",
    [ROUTE_FRAME_E_SHORT] = "shorter than a frame header",
    [ROUTE_FRAME_E_MAGIC] = "bad magic number",
    [ROUTE_FRAME_E_VERSION] = "unsupported version",
    [ROUTE_FRAME_E_TYPE] = "unknown message type",
    [ROUTE_FRAME_E_FLAGS] = "unknown flags",
    [ROUTE_FRAME_E_TRUNCATED] = "entry truncated",
    [ROUTE_FRAME_E_OP] = "unknown operation",
    [ROUTE_FRAME_E_PREFIX] = "bad prefix",
    [ROUTE_FRAME_E_ACTION] = "bad action",
    [ROUTE_FRAME_E_VRF] = "empty VRF name",
    [ROUTE_FRAME_E_NEXTHOP] = "bad next hop",
    [ROUTE_FRAME_E_TRAILING] = "bytes after the last entry",
    [ROUTE_FRAME_E_COUNT] = "entries in a message that takes none",
    [ROUTE_FRAME_E_RESERVED] = "reserved field not zero",
};

const char *
route_frame_strerror(enum route_frame_error error)
{
    return (error < ROUTE_FRAME_N_ERRORS && error_names[error]
            ? error_names[error] : "unknown error");
}

const char *
route_frame_type_name(enum route_frame_type type)
{
    switch (type) {
    case ROUTE_FRAME_ROUTES: return "routes";
    case ROUTE_FRAME_RESULTS: return "results";
    case ROUTE_FRAME_ACK: return "ack";
    case ROUTE_FRAME_HELLO: return "hello";
    }
    return "unknown";
}

/* ---- Encoding ------------------------------------------------------------
 */

/* Starts a frame of 'type' in 'b', which it clears. */
void
route_frame_start(struct ofpbuf *b, enum route_frame_type type,
                  uint64_t seq, uint64_t epoch)
{
    uint8_t *h;

    ofpbuf_clear(b);
    h = ofpbuf_put_zeros(b, ROUTE_FRAME_HEADER_LEN);
    put_unaligned_be16((ovs_be16 *) h, htons(ROUTE_FRAME_MAGIC));
    h[2] = ROUTE_FRAME_VERSION;
    h[3] = type;
    route_frame_set_header(h, 0, seq, epoch);
}

/* Sets the flags, sequence number and epoch of the frame that starts at
 * 'frame' (the channel stamps them when it sends a frame). */
void
route_frame_set_header(void *frame, uint32_t flags, uint64_t seq,
                       uint64_t epoch)
{
    uint8_t *h = frame;

    put_unaligned_be32((ovs_be32 *) (h + 4), htonl(flags));
    put_unaligned_be64((ovs_be64 *) (h + 16), htonll(seq));
    put_unaligned_be64((ovs_be64 *) (h + 24), htonll(epoch));
}

/* Returns the flags of the frame that starts at 'frame' (at least a
 * header long). */
uint32_t
route_frame_get_flags(const void *frame)
{
    return ntohl(get_unaligned_be32((const ovs_be32 *) ((const uint8_t *)
                                                        frame + 4)));
}

/* Adds one to the entry count of the frame in 'b'. */
static void
count_entry(struct ofpbuf *b)
{
    uint8_t *h = b->data;
    uint32_t count = ntohl(get_unaligned_be32((ovs_be32 *) (h + 8)));

    put_unaligned_be32((ovs_be32 *) (h + 8), htonl(count + 1));
}

/* Appends the fixed part of an entry and its VRF and address. */
static void
put_entry_head(struct ofpbuf *b, const struct route_frame_route *r,
               uint8_t byte3, uint16_t last16)
{
    uint8_t *e = ofpbuf_put_uninit(b, ENTRY_FIXED_LEN);
    size_t addr_len = r->prefix.family == AF_INET ? 4 : 16;

    ovs_assert(r->vrf_len > 0);
    e[0] = r->op;
    e[1] = r->prefix.family == AF_INET ? 4 : 6;
    e[2] = r->prefix.len;
    e[3] = byte3;
    e[4] = r->vrf_len;
    e[5] = r->flags;
    put_unaligned_be16((ovs_be16 *) (e + 6), htons(last16));
    put_unaligned_be64((ovs_be64 *) (e + 8), htonll(r->seq));
    ofpbuf_put(b, r->vrf, r->vrf_len);
    ofpbuf_put(b, r->prefix.addr, addr_len);
}

/* Appends route 'r' to the ROUTES frame in 'b'. */
void
route_frame_put_route(struct ofpbuf *b, const struct route_frame_route *r)
{
    ovs_assert(r->n_nexthops <= ROUTE_FRAME_MAX_NEXTHOPS);
    put_entry_head(b, r, r->action, r->n_nexthops);
    for (size_t i = 0; i < r->n_nexthops; i++) {
        const struct route_frame_nexthop *nh = &r->nexthops[i];
        uint8_t *p = ofpbuf_put_uninit(b, NEXTHOP_FIXED_LEN);

        put_unaligned_be32((ovs_be32 *) p, htonl(nh->weight));
        put_unaligned_be16((ovs_be16 *) (p + 4), htons(nh->key_len));
        ofpbuf_put(b, nh->key, nh->key_len);
    }
    count_entry(b);
}

/* Appends result 'r' (its op, VRF, prefix, status and error) to the
 * RESULTS frame in 'b'. */
void
route_frame_put_result(struct ofpbuf *b, const struct route_frame_route *r)
{
    put_entry_head(b, r, r->status, r->error_len);
    ofpbuf_put(b, r->error, r->error_len);
    count_entry(b);
}

/* Completes the frame in 'b'.  (The header is kept up to date as entries
 * are added; this is where a future version would add a checksum.) */
void
route_frame_finish(struct ofpbuf *b OVS_UNUSED)
{
}

/* ---- Decoding ------------------------------------------------------------
 */

enum route_frame_error
route_frame_parse_header(const void *data, size_t size,
                         struct route_frame_header *h)
{
    const uint8_t *p = data;

    memset(h, 0, sizeof *h);
    if (size < ROUTE_FRAME_HEADER_LEN) {
        return ROUTE_FRAME_E_SHORT;
    }
    if (ntohs(get_unaligned_be16((const ovs_be16 *) p))
        != ROUTE_FRAME_MAGIC) {
        return ROUTE_FRAME_E_MAGIC;
    }
    h->version = p[2];
    h->type = p[3];
    h->flags = ntohl(get_unaligned_be32((const ovs_be32 *) (p + 4)));
    h->count = ntohl(get_unaligned_be32((const ovs_be32 *) (p + 8)));
    h->seq = ntohll(get_unaligned_be64((const ovs_be64 *) (p + 16)));
    h->epoch = ntohll(get_unaligned_be64((const ovs_be64 *) (p + 24)));
    if (h->version != ROUTE_FRAME_VERSION) {
        return ROUTE_FRAME_E_VERSION;
    }
    if (h->type < ROUTE_FRAME_ROUTES || h->type > ROUTE_FRAME_HELLO) {
        return ROUTE_FRAME_E_TYPE;
    }
    if (h->flags & ~ROUTE_FRAME_F_ALL) {
        return ROUTE_FRAME_E_FLAGS;
    }
    /* The reserved word must be zero, as the header says: accepting
     * anything there (as this did until tests/fuzz/fuzz-route-frame
     * found it) let two different frames mean the same message, and a
     * later version's use of the word would be silently misread. */
    if (get_unaligned_be32((const ovs_be32 *) (p + 12))) {
        return ROUTE_FRAME_E_RESERVED;
    }
    if (h->count && (h->type == ROUTE_FRAME_ACK
                     || h->type == ROUTE_FRAME_HELLO)) {
        return ROUTE_FRAME_E_COUNT;
    }
    return ROUTE_FRAME_OK;
}

void
route_frame_reader_init(struct route_frame_reader *r, const void *data,
                        size_t size)
{
    struct route_frame_header h;

    ovs_assert(route_frame_parse_header(data, size, &h) == ROUTE_FRAME_OK);
    r->p = (const uint8_t *) data + ROUTE_FRAME_HEADER_LEN;
    r->end = (const uint8_t *) data + size;
    r->type = h.type;
    r->left = h.count;
}

/* Takes 'n' bytes from the reader into '*bytes'; false if too few are
 * left. */
static bool
take(struct route_frame_reader *r, size_t n, const uint8_t **bytes)
{
    if (r->end - r->p < n) {
        return false;
    }
    *bytes = r->p;
    r->p += n;
    return true;
}

/* Decodes the prefix of family code 'fam', length 'plen', address at
 * 'addr' into 'p'.  Returns false if it is not a canonical prefix. */
static bool
decode_prefix(uint8_t fam, uint8_t plen, const uint8_t *addr,
              struct fib_prefix *p)
{
    int family = fam == 4 ? AF_INET : AF_INET6;
    size_t addr_len = fam == 4 ? 4 : 16;

    fib_prefix_init(p, family, addr, plen);
    return !memcmp(p->addr, addr, addr_len);
}

/* Reads the next hops of a ROUTES entry. */
static enum route_frame_error
read_nexthops(struct route_frame_reader *r, struct route_frame_route *route)
{
    for (size_t i = 0; i < route->n_nexthops; i++) {
        struct route_frame_nexthop *nh = &r->nexthops[i];
        const uint8_t *p, *key;

        if (!take(r, NEXTHOP_FIXED_LEN, &p)) {
            return ROUTE_FRAME_E_TRUNCATED;
        }
        nh->weight = ntohl(get_unaligned_be32((const ovs_be32 *) p));
        nh->key_len = ntohs(get_unaligned_be16((const ovs_be16 *) (p + 4)));
        if (!take(r, nh->key_len, &key)) {
            return ROUTE_FRAME_E_TRUNCATED;
        }
        nh->key = (const char *) key;
        if (!nh->weight || !nh->key_len) {
            return ROUTE_FRAME_E_NEXTHOP;
        }
    }
    return ROUTE_FRAME_OK;
}

/* Reads the next entry into 'route'; its pointers point into the frame
 * (and, for next hops, into 'r').  The caller reads at most as many
 * entries as the header counts. */
enum route_frame_error
route_frame_read(struct route_frame_reader *r, struct route_frame_route *route)
{
    const uint8_t *e, *vrf, *addr;
    uint16_t last16;

    ovs_assert(r->left > 0);
    r->left--;
    memset(route, 0, sizeof *route);
    if (!take(r, ENTRY_FIXED_LEN, &e)) {
        return ROUTE_FRAME_E_TRUNCATED;
    }
    route->op = e[0];
    route->vrf_len = e[4];
    last16 = ntohs(get_unaligned_be16((const ovs_be16 *) (e + 6)));
    route->seq = ntohll(get_unaligned_be64((const ovs_be64 *) (e + 8)));
    if (route->op != ROUTE_FRAME_SET && route->op != ROUTE_FRAME_DEL) {
        return ROUTE_FRAME_E_OP;
    }
    /* The entry's flags byte has no bit but those known, and none in a
     * result or a delete, where it is reserved, like the header's reserved
     * word (see route_frame_parse_header()). */
    route->flags = e[5];
    if (e[5] & ~(r->type == ROUTE_FRAME_ROUTES && route->op == ROUTE_FRAME_SET
                 ? ROUTE_FRAME_EF_ALL : 0)) {
        return ROUTE_FRAME_E_RESERVED;
    }
    if ((e[1] != 4 && e[1] != 6) || e[2] > (e[1] == 4 ? 32 : 128)) {
        return ROUTE_FRAME_E_PREFIX;
    }
    if (!route->vrf_len) {
        return ROUTE_FRAME_E_VRF;
    }
    if (!take(r, route->vrf_len, &vrf)
        || !take(r, e[1] == 4 ? 4 : 16, &addr)) {
        return ROUTE_FRAME_E_TRUNCATED;
    }
    route->vrf = (const char *) vrf;
    if (!decode_prefix(e[1], e[2], addr, &route->prefix)) {
        return ROUTE_FRAME_E_PREFIX;
    }

    if (r->type == ROUTE_FRAME_RESULTS) {
        const uint8_t *error;

        route->status = e[3];
        route->error_len = last16;
        if (!take(r, last16, &error)) {
            return ROUTE_FRAME_E_TRUNCATED;
        }
        route->error = (const char *) error;
        return ROUTE_FRAME_OK;
    }

    route->action = e[3];
    route->n_nexthops = last16;
    route->nexthops = r->nexthops;
    if (route->action > ROUTE_FRAME_TRAP
        || (route->op == ROUTE_FRAME_DEL
            && route->action != ROUTE_FRAME_FORWARD)) {
        return ROUTE_FRAME_E_ACTION;
    }
    if (last16 > ROUTE_FRAME_MAX_NEXTHOPS
        || (last16 && (route->op == ROUTE_FRAME_DEL
                       || route->action != ROUTE_FRAME_FORWARD))) {
        return ROUTE_FRAME_E_NEXTHOP;
    }
    return read_nexthops(r, route);
}

/* Checks the whole frame of 'size' bytes at 'data' and stores its header
 * in '*h'.  Returns ROUTE_FRAME_OK only if every entry decodes and
 * nothing follows the last one. */
enum route_frame_error
route_frame_validate(const void *data, size_t size,
                     struct route_frame_header *h)
{
    enum route_frame_error error = route_frame_parse_header(data, size, h);
    struct route_frame_reader *r;

    if (error) {
        return error;
    }
    r = xmalloc(sizeof *r);
    route_frame_reader_init(r, data, size);
    while (r->left && !error) {
        struct route_frame_route route;

        error = route_frame_read(r, &route);
    }
    if (!error && r->p != r->end) {
        error = ROUTE_FRAME_E_TRAILING;
    }
    free(r);
    return error;
}

/* Reads the next 'group_size' entries of 'r' (fewer at the frame's end)
 * 'n_passes' times, calling 'cb' with each entry and the pass number,
 * from 0: every pass but the last can prefetch what the last, which
 * handles the entries, will look up, so that the cache misses of a
 * group's lookups overlap instead of following one another.  Only the
 * reader's position is saved between the passes (its next-hop scratch
 * is rewritten by each read).  An entry that does not read ends the
 * frame (a channel validates its frames first, so it cannot happen
 * there). */
void
route_frame_read_group(struct route_frame_reader *r, size_t group_size,
                       int n_passes, route_frame_group_cb *cb, void *aux)
{
    const uint8_t *start = r->p;
    uint32_t left = r->left;
    struct route_frame_route route;
    size_t n = group_size;

    for (int pass = 0; pass < n_passes; pass++) {
        size_t i;

        r->p = start;
        r->left = left;
        for (i = 0; i < n && r->left; i++) {
            if (route_frame_read(r, &route)) {
                break;
            }
            cb(aux, &route, pass);
        }
        n = i;
    }
    if (n < group_size && r->left) {
        r->left = 0;            /* An entry did not read. */
    }
}
