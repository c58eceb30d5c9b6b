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

/* fpm-replay: an FPM load generator, recorder and replayer.
 *
 * Plays the part of zebra's dplane_fpm_nl (connects to an FPM listener and
 * streams netlink routes in FPM frames), or the part of an FPM server
 * (listens, accepts zebra, and records its stream to a file).  See
 * usage() for the full description. */

#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "command-line.h"
#include "lib/fpm-frame.h"
#include "lib/option-parse.h"
#include "lib/fpm-route.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* Command-line settings. */
struct options {
    const char *host;           /* --host: address to connect/listen. */
    const char *port;           /* --port. */
    unsigned int n_routes;      /* --routes. */
    unsigned int ipv6_pct;      /* --ipv6: percentage of IPv6 routes. */
    bool fixed_lengths;         /* --prefix-mix=fixed or --v4-len/--v6-len. */
    unsigned int v4_len;        /* Fixed IPv4 prefix length. */
    unsigned int v6_len;        /* Fixed IPv6 prefix length. */
    unsigned int ecmp;          /* --ecmp: paths per route. */
    unsigned int pool;          /* --nexthops: gateways per family. */
    unsigned int ifindex;       /* --ifindex: outgoing interface. */
    bool ucmp;                  /* --ucmp: unequal weights. */
    bool nhg;                   /* --nhg (default) or --no-nhg. */
    unsigned int table;         /* --table. */
    unsigned int protocol;      /* --protocol. */
    unsigned int metric;        /* --metric. */
    unsigned int churn;         /* --churn: path changes after announce. */
    bool delete_only;           /* --delete: withdraw instead. */
    bool then_delete;           /* --then-delete: announce, then withdraw. */
    unsigned int frame_size;    /* --frame-size: max bytes per frame. */
    unsigned int batch;         /* --batch: max messages per frame. */
    double rate;                /* --rate: routes per second, 0 = max. */
    unsigned long long seed;    /* --seed. */
    double linger;              /* --linger: seconds to keep reading. */
    bool wait_offload;          /* --wait-offload. */
    const char *record;         /* --record FILE. */
    double idle;                /* --idle: record stop after idle secs. */
    double duration;            /* --duration: record stop after secs. */
    const char *replay;         /* --replay FILE. */
    const char *print;          /* --print FILE. */
    const char *malformed;      /* --malformed KIND. */
    int verbosity;              /* -v (more) / -q (less). */
};

static struct options opts = {
    .host = "127.0.0.1",
    .port = "2620",
    .n_routes = 1000,
    .ipv6_pct = 0,
    .fixed_lengths = false,
    .v4_len = 24,
    .v6_len = 64,
    .ecmp = 1,
    .pool = 16,
    .ifindex = 2,
    .nhg = true,
    .table = RT_TABLE_MAIN,
    .protocol = 186,            /* RTPROT_BGP. */
    .metric = 20,
    .frame_size = FPM_FRAME_MAX_LEN,
    .seed = 1,
    .linger = 0.2,
    .verbosity = 1,
};

/* Set by SIGINT/SIGTERM. */
static volatile sig_atomic_t stop_requested;

OVS_NO_RETURN static void usage(void);
static void parse_options(int argc, char *argv[]);

/* Time and randomness. */

/* Returns a monotonic time in seconds. */
static double
now_sec(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Deterministic 64-bit PRNG (splitmix64), independent of libc's. */
static uint64_t rng_state;

static void
rng_seed(uint64_t seed)
{
    rng_state = seed;
}

static uint64_t
rng_next(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Returns a random number in [0, n). */
static uint32_t
rng_below(uint32_t n)
{
    return n ? rng_next() % n : 0;
}

static void
stop_handler(int sig OVS_UNUSED)
{
    stop_requested = 1;
}

static void
install_signal_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Connection to an FPM listener (generate and replay modes). */

struct conn {
    int fd;                     /* Non-blocking TCP socket. */

    /* Output: complete frames, then possibly one open frame. */
    struct ofpbuf out;          /* Queued bytes. */
    size_t sent;                /* Bytes of 'out' already written. */
    size_t open_ofs;            /* Offset of the open frame in 'out', or
                                 * SIZE_MAX if none. */
    size_t open_msgs;           /* Messages in the open frame. */
    size_t frame_max;           /* Largest frame, header included. */
    size_t batch;               /* Max messages per frame, 0 = no limit. */
    struct ofpbuf msg;          /* Scratch for one netlink message. */
    uint32_t seq;               /* Next nlmsg_seq. */

    /* Output counters. */
    uint64_t n_bytes;           /* Bytes written to the socket. */
    uint64_t n_frames;          /* Frames closed. */
    uint64_t n_msgs;            /* Netlink messages queued. */
    uint64_t n_route_add;       /* RTM_NEWROUTE queued. */
    uint64_t n_route_del;       /* RTM_DELROUTE queued. */
    uint64_t n_nh_add;          /* RTM_NEWNEXTHOP queued. */
    uint64_t n_nh_del;          /* RTM_DELNEXTHOP queued. */
    double first_send;          /* Time of the first write, or 0. */
    double last_send;           /* Time of the last write. */

    /* Input: whatever the listener sends back (offload replies). */
    struct fpm_splitter in;     /* Splits replies into frames. */
    struct fpm_msg reply;       /* Parse scratch for replies. */
    struct fpm_parse_stats rstats; /* Reply parse counters. */
    uint64_t n_offload;         /* Replies with RTM_F_OFFLOAD. */
    uint64_t n_trap;            /* Replies with RTM_F_TRAP. */
    uint64_t n_failed;          /* Replies with RTM_F_OFFLOAD_FAILED. */
    double last_reply;          /* Time of the last reply, or 0. */
    bool bad_input;             /* Replies had a bad frame header. */
    bool peer_closed;           /* Read EOF or got a reset. */
    int peer_error;             /* errno of the failure, 0 for EOF. */
};

static void
conn_init(struct conn *c, int fd)
{
    memset(c, 0, sizeof *c);
    c->fd = fd;
    ofpbuf_init(&c->out, 1024 * 1024);
    ofpbuf_init(&c->msg, 4096);
    c->open_ofs = SIZE_MAX;
    c->frame_max = opts.frame_size;
    c->batch = opts.batch;
    c->seq = 1;
    fpm_splitter_init(&c->in, 0);
    fpm_msg_init(&c->reply);
}

static void
conn_destroy(struct conn *c)
{
    ofpbuf_uninit(&c->out);
    ofpbuf_uninit(&c->msg);
    fpm_splitter_destroy(&c->in);
    fpm_msg_destroy(&c->reply);
    if (c->fd >= 0) {
        close(c->fd);
    }
}

/* Counts (and with -vv prints) one message received from the listener. */
static void
reply_cb(const struct fpm_msg *msg, int error,
         const struct nlmsghdr *nlh OVS_UNUSED, void *c_)
{
    struct conn *c = c_;

    if (error) {
        if (opts.verbosity > 1) {
            printf("reply: error: %s\n", fpm_parse_error_to_string(error));
        }
        return;
    }
    if (msg->kind == FPM_MSG_ROUTE && msg->route.op == FPM_OP_ADD) {
        uint32_t f = msg->route.rtm_flags;

        c->n_offload += (f & RTM_F_OFFLOAD) != 0;
        c->n_trap += (f & RTM_F_TRAP) != 0;
        c->n_failed += (f & RTM_F_OFFLOAD_FAILED) != 0;
    }
    if (opts.verbosity > 1) {
        struct ds s = DS_EMPTY_INITIALIZER;

        fpm_msg_format(msg, &s);
        printf("reply: %s\n", ds_cstr(&s));
        ds_destroy(&s);
    }
}

/* Reads whatever the listener has sent, without blocking. */
static void
conn_read(struct conn *c)
{
    while (!c->peer_closed) {
        struct fpm_frame frame;
        size_t room;
        void *p = fpm_splitter_reserve(&c->in, &room);
        ssize_t n = recv(c->fd, p, room, MSG_DONTWAIT);

        if (n < 0) {
            if (errno == EINTR) {
                continue;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
                c->peer_closed = true;
                c->peer_error = errno;
            }
            return;
        } else if (n == 0) {
            c->peer_closed = true;
            return;
        }

        fpm_splitter_commit(&c->in, n);
        c->last_reply = now_sec();
        while (!c->bad_input && !fpm_splitter_next(&c->in, &frame)) {
            fpm_route_parse_frame(frame.data, frame.size, &c->reply,
                                  &c->rstats,
                                  reply_cb, c);
        }
        if (c->in.error != FPM_FRAME_OK && !c->bad_input) {
            c->bad_input = true;
            ovs_error(0, "listener sent a bad frame: %s; ignoring the rest "
                      "of its input",
                      fpm_frame_error_to_string(c->in.error));
        }
        if (c->bad_input) {
            /* Keep draining so the peer never blocks. */
            fpm_splitter_reset(&c->in);
            c->bad_input = true;
        }
    }
}

/* Offset up to which 'out' holds complete frames. */
static size_t
conn_complete(const struct conn *c)
{
    return c->open_ofs == SIZE_MAX ? c->out.size : c->open_ofs;
}

/* Writes complete frames until none is left ('all') or until the socket
 * would block, reading replies meanwhile.  Returns false if the connection
 * failed. */
static bool
conn_flush(struct conn *c, bool all)
{
    for (;;) {
        size_t complete = conn_complete(c);

        while (c->sent < complete) {
            ssize_t n = send(c->fd, (uint8_t *) c->out.data + c->sent,
                             complete - c->sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    break;
                }
                c->peer_closed = true;
                c->peer_error = errno;
                return false;
            }
            if (!c->first_send) {
                c->first_send = now_sec();
            }
            c->sent += n;
            c->n_bytes += n;
        }
        if (c->sent == complete) {
            /* Move the open frame, if any, to the front. */
            size_t rest = c->out.size - complete;

            if (rest) {
                memmove(c->out.data, (uint8_t *) c->out.data + complete,
                        rest);
            }
            c->out.size = rest;
            c->sent = 0;
            if (c->open_ofs != SIZE_MAX) {
                c->open_ofs = 0;
            }
            c->last_send = now_sec();
            conn_read(c);
            return !c->peer_closed || !c->peer_error;
        }

        /* Socket full: wait until it drains, reading replies so that the
         * listener never blocks on us. */
        conn_read(c);
        if (c->peer_closed) {
            return false;
        }
        if (!all) {
            return true;
        }
        struct pollfd pfd = { .fd = c->fd, .events = POLLIN | POLLOUT };
        if (poll(&pfd, 1, 1000) < 0 && errno != EINTR) {
            ovs_fatal(errno, "poll");
        }
        if (stop_requested) {
            return false;
        }
    }
}

/* Closes the open frame, if any. */
static void
conn_close_frame(struct conn *c)
{
    if (c->open_ofs != SIZE_MAX) {
        fpm_frame_finish(&c->out, c->open_ofs);
        c->open_ofs = SIZE_MAX;
        c->open_msgs = 0;
        c->n_frames++;
    }
}

/* Queues the netlink message in 'c->msg', batching it into the open frame
 * while it fits in --frame-size and --batch. */
static void
conn_put_msg(struct conn *c)
{
    const struct nlmsghdr *nlh = c->msg.data;
    size_t len = c->msg.size;

    if (len + FPM_FRAME_HDR_LEN > c->frame_max) {
        ovs_fatal(0, "a %zu-byte message does not fit in a %zu-byte frame",
                  len, c->frame_max);
    }
    if (c->open_ofs != SIZE_MAX
        && ((c->out.size - c->open_ofs) + len > c->frame_max
            || (c->batch && c->open_msgs >= c->batch))) {
        conn_close_frame(c);
        if (c->out.size >= 256 * 1024) {
            conn_flush(c, true);
        }
    }
    if (c->open_ofs == SIZE_MAX) {
        c->open_ofs = fpm_frame_start(&c->out);
    }
    switch (nlh->nlmsg_type) {
    case RTM_NEWROUTE:
        c->n_route_add++;
        break;
    case RTM_DELROUTE:
        c->n_route_del++;
        break;
    case RTM_NEWNEXTHOP:
        c->n_nh_add++;
        break;
    case RTM_DELNEXTHOP:
        c->n_nh_del++;
        break;
    }
    ofpbuf_put(&c->out, c->msg.data, len);
    c->open_msgs++;
    c->n_msgs++;
}

/* Closes the open frame and writes everything. */
static bool
conn_flush_all(struct conn *c)
{
    conn_close_frame(c);
    return conn_flush(c, true);
}

/* Waits until 'deadline' (a now_sec() time), reading replies. */
static void
conn_wait_until(struct conn *c, double deadline)
{
    for (;;) {
        double left = deadline - now_sec();

        if (left <= 0 || stop_requested || c->peer_closed) {
            return;
        }
        struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
        int ms = left * 1000 + 1;
        if (poll(&pfd, 1, ms) > 0) {
            conn_read(c);
        }
    }
}

/* Route set generation. */

/* One synthetic route. */
struct gen_route {
    uint8_t family;             /* AF_INET or AF_INET6. */
    uint8_t len;                /* Prefix length. */
    uint16_t start;             /* First gateway of its nexthop set. */
    uint8_t addr[16];           /* Prefix address. */
};

/* Prefix length mixes (length, weight in percent), roughly the shape of
 * the public IPv4 and IPv6 tables: mostly /24, mostly /48 and /64. */
struct len_weight {
    uint8_t len;                /* Prefix length. */
    uint8_t weight;             /* Percent. */
};

static const struct len_weight v4_mix[] = {
    {16, 2}, {17, 1}, {18, 2}, {19, 3}, {20, 5}, {21, 5}, {22, 9},
    {23, 10}, {24, 58}, {25, 1}, {26, 1}, {27, 1}, {28, 1}, {29, 1},
};

static const struct len_weight v6_mix[] = {
    {29, 2}, {32, 8}, {36, 2}, {40, 4}, {44, 6}, {46, 2}, {47, 2},
    {48, 44}, {52, 2}, {56, 8}, {60, 2}, {64, 18},
};

/* Per-length allocation counters. */
static uint64_t next_index[2][129];

/* Picks a prefix length for 'family'. */
static unsigned int
pick_len(int family)
{
    const struct len_weight *mix = family == AF_INET ? v4_mix : v6_mix;
    size_t n = family == AF_INET ? ARRAY_SIZE(v4_mix) : ARRAY_SIZE(v6_mix);
    uint32_t r;
    size_t i;

    if (opts.fixed_lengths) {
        return family == AF_INET ? opts.v4_len : opts.v6_len;
    }
    r = rng_below(100);
    for (i = 0; i < n; i++) {
        if (r < mix[i].weight) {
            return mix[i].len;
        }
        r -= mix[i].weight;
    }
    return mix[n - 1].len;
}

/* Returns how many distinct prefixes of length 'len' the generator can
 * make for 'family' (IPv4: within 1.0.0.0-223.255.255.255, IPv6: within
 * 2400::/16), saturated at UINT64_MAX. */
static uint64_t
len_capacity(int family, unsigned int len)
{
    if (family == AF_INET) {
        return len ? (UINT64_C(0xdf000000) >> (32 - len)) : 1;
    } else {
        unsigned int bits = len > 16 ? len - 16 : 0;
        return bits >= 64 ? UINT64_MAX : UINT64_C(1) << bits;
    }
}

/* Makes the next unused prefix of length '*lenp' (or longer, when that
 * length is used up) for 'family' into 'r'. */
static void
alloc_prefix(struct gen_route *r, int family, unsigned int len)
{
    unsigned int max = family == AF_INET ? 32 : 128;
    int fi = family == AF_INET ? 0 : 1;
    uint64_t k;

    while (next_index[fi][len] >= len_capacity(family, len)) {
        if (++len > max) {
            ovs_fatal(0, "out of synthetic prefixes");
        }
    }
    k = next_index[fi][len]++;

    r->family = family;
    r->len = len;
    memset(r->addr, 0, sizeof r->addr);
    if (family == AF_INET) {
        uint32_t a = UINT32_C(0x01000000) + (len ? (uint32_t) k << (32 - len)
                                             : 0);
        a = htonl(a);
        memcpy(r->addr, &a, 4);
    } else {
        /* 2400::/16, then 'k' in the next 'len - 16' bits. */
        uint64_t hi = UINT64_C(0x2400) << 48, lo = 0;
        unsigned int shift = 128 - len;    /* Position of k's lowest bit. */

        if (shift >= 64) {
            hi |= k << (shift - 64);
        } else {
            lo = k << shift;
            if (shift) {
                hi |= k >> (64 - shift);
            }
        }
        for (int i = 0; i < 8; i++) {
            r->addr[i] = hi >> (56 - 8 * i);
            r->addr[8 + i] = lo >> (56 - 8 * i);
        }
    }
}

static struct gen_route *routes;

static void
generate_routes(void)
{
    unsigned int i;

    routes = xcalloc(MAX(opts.n_routes, 1), sizeof *routes);
    for (i = 0; i < opts.n_routes; i++) {
        int family = rng_below(100) < opts.ipv6_pct ? AF_INET6 : AF_INET;

        alloc_prefix(&routes[i], family, pick_len(family));
        routes[i].start = rng_below(opts.pool);
    }
}

/* Nexthop ids: gateway k of IPv4 is 1 + k, of IPv6 1 + P + k; the group
 * of 'ecmp' gateways starting at k is 1 + 2P + k (IPv4), 1 + 3P + k
 * (IPv6).  A single-path route uses the gateway's own id, as zebra does. */
static uint32_t
member_id(int family, unsigned int k)
{
    return 1 + (family == AF_INET6 ? opts.pool : 0) + k;
}

static uint32_t
group_id(int family, unsigned int start)
{
    if (opts.ecmp == 1) {
        return member_id(family, start);
    }
    return 1 + (family == AF_INET6 ? 3 : 2) * opts.pool + start;
}

/* Stores gateway 'k' of 'family' in 'a': 192.168.(1 + k / 250).(2 + k %
 * 250) or 2001:db8:ffff::(2 + k). */
static void
gateway_addr(int family, unsigned int k, struct fpm_addr *a)
{
    memset(a, 0, sizeof *a);
    a->family = family;
    if (family == AF_INET) {
        a->addr[0] = 192;
        a->addr[1] = 168;
        a->addr[2] = 1 + k / 250;
        a->addr[3] = 2 + k % 250;
    } else {
        static const uint8_t base[16] = {
            0x20, 0x01, 0x0d, 0xb8, 0xff, 0xff,
        };
        unsigned int host = 2 + k;

        memcpy(a->addr, base, sizeof base);
        a->addr[14] = host >> 8;
        a->addr[15] = host & 0xff;
    }
}

/* Weight of path 'i' of a route. */
static uint16_t
path_weight(unsigned int i)
{
    return opts.ucmp ? 1 + i % 4 : 1;
}

/* Which nexthop objects have been announced. */
static bool *member_sent[2];
static bool *group_sent[2];

static void
put_nexthop_msg(struct conn *c, const struct fpm_nexthop *nh)
{
    ofpbuf_clear(&c->msg);
    fpm_nexthop_encode(&c->msg, nh, c->seq++);
    conn_put_msg(c);
}

/* Announces (or withdraws, for FPM_OP_DEL) gateway 'k' of 'family'. */
static void
send_member(struct conn *c, int family, unsigned int k, enum fpm_op op)
{
    struct fpm_nexthop nh;

    fpm_nexthop_init(&nh);
    nh.op = op;
    nh.id = member_id(family, k);
    nh.family = family;
    nh.protocol = opts.protocol;
    gateway_addr(family, k, &nh.gateway);
    nh.ifindex = opts.ifindex;
    put_nexthop_msg(c, &nh);
    fpm_nexthop_destroy(&nh);
}

/* Announces (or withdraws) the group starting at gateway 'start'. */
static void
send_group(struct conn *c, int family, unsigned int start, enum fpm_op op)
{
    struct fpm_nexthop nh;
    unsigned int i;

    fpm_nexthop_init(&nh);
    nh.op = op;
    nh.id = group_id(family, start);
    nh.family = AF_UNSPEC;
    nh.protocol = opts.protocol;
    if (op == FPM_OP_ADD) {
        for (i = 0; i < opts.ecmp; i++) {
            struct fpm_nhg_member *m = fpm_nexthop_add_member(&nh);

            m->id = member_id(family, (start + i) % opts.pool);
            m->weight = path_weight(i);
        }
    }
    put_nexthop_msg(c, &nh);
    fpm_nexthop_destroy(&nh);
}

/* Makes sure that the nexthop objects that route 'r' needs have been
 * announced. */
static void
ensure_nexthops(struct conn *c, const struct gen_route *r)
{
    int fi = r->family == AF_INET ? 0 : 1;
    unsigned int i;

    if (!opts.nhg) {
        return;
    }
    for (i = 0; i < opts.ecmp; i++) {
        unsigned int k = (r->start + i) % opts.pool;

        if (!member_sent[fi][k]) {
            member_sent[fi][k] = true;
            send_member(c, r->family, k, FPM_OP_ADD);
        }
    }
    if (opts.ecmp > 1 && !group_sent[fi][r->start]) {
        group_sent[fi][r->start] = true;
        send_group(c, r->family, r->start, FPM_OP_ADD);
    }
}

/* Fills 'fr' from 'r' for 'op'. */
static void
make_route(const struct gen_route *r, enum fpm_op op, struct fpm_route *fr)
{
    unsigned int i;

    fpm_route_clear(fr);
    fr->op = op;
    fr->table = opts.table;
    fr->prefix.family = r->family;
    fr->prefix.len = r->len;
    memcpy(fr->prefix.addr, r->addr, sizeof fr->prefix.addr);
    fr->protocol = opts.protocol;
    fr->metric = opts.metric;
    fr->type = FPM_ROUTE_UNICAST;
    if (op == FPM_OP_DEL) {
        /* zebra's deletes carry the nexthops too, but the prefix is what
         * identifies the route. */
        return;
    }
    if (opts.nhg) {
        fr->nhg_id = group_id(r->family, r->start);
        return;
    }
    for (i = 0; i < opts.ecmp; i++) {
        struct fpm_route_nh *nh = fpm_route_add_nexthop(fr);

        gateway_addr(r->family, (r->start + i) % opts.pool, &nh->gateway);
        nh->ifindex = opts.ifindex;
        nh->weight = opts.ecmp > 1 ? path_weight(i) : 1;
    }
}

static struct fpm_route scratch_route;

static void
send_route(struct conn *c, const struct gen_route *r, enum fpm_op op)
{
    if (op == FPM_OP_ADD) {
        ensure_nexthops(c, r);
    }
    make_route(r, op, &scratch_route);
    ofpbuf_clear(&c->msg);
    fpm_route_encode(&c->msg, &scratch_route, c->seq++);
    conn_put_msg(c);
}

/* --rate pacing: 'done' routes sent since 't0'. */
static void
pace(struct conn *c, double t0, uint64_t done)
{
    double due;

    if (opts.rate <= 0) {
        return;
    }
    due = t0 + done / opts.rate;
    if (now_sec() < due) {
        conn_flush_all(c);
        conn_wait_until(c, due);
    }
}

/* Malformed input for receivers' tests. */

/* Encodes a one-path IPv4 route to 'prefix'/'len' into 'c->msg'. */
static void
make_test_route(struct conn *c, const char *prefix, unsigned int len)
{
    struct fpm_route_nh *nh;

    fpm_route_clear(&scratch_route);
    scratch_route.table = opts.table;
    scratch_route.protocol = opts.protocol;
    scratch_route.metric = opts.metric;
    scratch_route.prefix.family = AF_INET;
    scratch_route.prefix.len = len;
    inet_pton(AF_INET, prefix, scratch_route.prefix.addr);
    nh = fpm_route_add_nexthop(&scratch_route);
    gateway_addr(AF_INET, 0, &nh->gateway);
    nh->ifindex = opts.ifindex;
    ofpbuf_clear(&c->msg);
    fpm_route_encode(&c->msg, &scratch_route, c->seq++);
}

/* Queues a raw frame header followed by 'c->msg'. */
static void
put_raw_frame(struct conn *c, uint8_t version, uint8_t type, uint16_t len)
{
    uint8_t hdr[4] = { version, type, len >> 8, len & 0xff };

    conn_close_frame(c);
    ofpbuf_put(&c->out, hdr, sizeof hdr);
    ofpbuf_put(&c->out, c->msg.data, c->msg.size);
    c->n_frames++;
}

static const char *const malformed_kinds[] = {
    "version", "type", "short", "partial", "empty",
    "nlmsg-len", "truncated", "attr-len", "prefix-len", "host-bits",
    "multipath", "group", "unknown",
};

/* Queues the --malformed frame 'kind'.  Returns true if it is a frame-level
 * error after which the listener is expected to close the connection. */
static bool
send_malformed(struct conn *c, const char *kind)
{
    size_t frame_len;

    if (!strcmp(kind, "version") || !strcmp(kind, "type")
        || !strcmp(kind, "short") || !strcmp(kind, "partial")) {
        make_test_route(c, "192.0.2.0", 25);
        frame_len = c->msg.size + FPM_FRAME_HDR_LEN;
        if (!strcmp(kind, "version")) {
            put_raw_frame(c, 2, FPM_FRAME_TYPE_NETLINK, frame_len);
        } else if (!strcmp(kind, "type")) {
            put_raw_frame(c, FPM_FRAME_VERSION, FPM_FRAME_TYPE_PROTOBUF,
                          frame_len);
        } else if (!strcmp(kind, "short")) {
            put_raw_frame(c, FPM_FRAME_VERSION, FPM_FRAME_TYPE_NETLINK, 2);
        } else {
            put_raw_frame(c, FPM_FRAME_VERSION, FPM_FRAME_TYPE_NETLINK,
                          frame_len + 100);
        }
        return true;
    } else if (!strcmp(kind, "empty")) {
        ofpbuf_clear(&c->msg);
        put_raw_frame(c, FPM_FRAME_VERSION, FPM_FRAME_TYPE_NETLINK,
                      FPM_FRAME_HDR_LEN);
        return false;
    }

    /* Netlink-level errors: one frame with two good routes (192.0.2.0/25
     * and 192.0.2.128/25) and the bad message. */
    conn_close_frame(c);
    make_test_route(c, "192.0.2.0", 25);
    conn_put_msg(c);
    if (strcmp(kind, "nlmsg-len")) {
        make_test_route(c, "192.0.2.128", 25);
        conn_put_msg(c);
    }

    if (!strcmp(kind, "nlmsg-len")) {
        /* nlmsg_len past the end of the frame; the second good route goes
         * first since nothing after this message can be found. */
        make_test_route(c, "192.0.2.128", 25);
        conn_put_msg(c);
        make_test_route(c, "198.51.100.0", 24);
        ((struct nlmsghdr *) c->msg.data)->nlmsg_len += 64;
    } else if (!strcmp(kind, "truncated")) {
        /* Shorter than a struct rtmsg. */
        make_test_route(c, "198.51.100.0", 24);
        c->msg.size = NLMSG_HDRLEN + 4;
        ((struct nlmsghdr *) c->msg.data)->nlmsg_len = c->msg.size;
    } else if (!strcmp(kind, "attr-len")) {
        /* First attribute (RTA_DST) runs past the message. */
        struct nlattr *nla;

        make_test_route(c, "198.51.100.0", 24);
        nla = (struct nlattr *) ((uint8_t *) c->msg.data + NLMSG_HDRLEN
                                 + NLMSG_ALIGN(sizeof(struct rtmsg)));
        nla->nla_len = 0x2000;
    } else if (!strcmp(kind, "prefix-len")) {
        make_test_route(c, "198.51.100.0", 33);
    } else if (!strcmp(kind, "host-bits")) {
        make_test_route(c, "198.51.100.1", 24);
    } else if (!strcmp(kind, "multipath")) {
        /* An RTA_MULTIPATH whose first rtnexthop has rtnh_len 0: a naive
         * walk that steps by RTNH_ALIGN(rtnh_len) never advances. */
        struct fpm_route_nh *nh;
        struct nlattr *nla;
        struct rtnexthop *rtnh;

        fpm_route_clear(&scratch_route);
        scratch_route.table = opts.table;
        scratch_route.protocol = opts.protocol;
        scratch_route.prefix.family = AF_INET;
        scratch_route.prefix.len = 24;
        inet_pton(AF_INET, "198.51.100.0", scratch_route.prefix.addr);
        for (int i = 0; i < 2; i++) {
            nh = fpm_route_add_nexthop(&scratch_route);
            gateway_addr(AF_INET, i, &nh->gateway);
            nh->ifindex = opts.ifindex;
        }
        ofpbuf_clear(&c->msg);
        fpm_route_encode(&c->msg, &scratch_route, c->seq++);
        /* Attributes: RTA_DST, RTA_PRIORITY, RTA_MULTIPATH. */
        nla = (struct nlattr *) ((uint8_t *) c->msg.data + NLMSG_HDRLEN
                                 + NLMSG_ALIGN(sizeof(struct rtmsg)));
        while (nla->nla_type != RTA_MULTIPATH) {
            nla = (struct nlattr *) ((uint8_t *) nla
                                     + NLA_ALIGN(nla->nla_len));
        }
        rtnh = (struct rtnexthop *) ((uint8_t *) nla + NLA_HDRLEN);
        rtnh->rtnh_len = 0;
    } else if (!strcmp(kind, "group")) {
        /* NHA_GROUP of 6 bytes: not a whole struct nexthop_grp. */
        struct nlmsghdr *nlh;
        struct nlattr *nla;
        uint8_t raw[NLMSG_HDRLEN + 8 + 8 + 12];

        memset(raw, 0, sizeof raw);
        nlh = (struct nlmsghdr *) raw;
        nlh->nlmsg_len = sizeof raw;
        nlh->nlmsg_type = RTM_NEWNEXTHOP;
        nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE;
        nla = (struct nlattr *) (raw + NLMSG_HDRLEN + 8);
        nla->nla_len = 8;
        nla->nla_type = 1;                      /* NHA_ID. */
        memcpy(nla + 1, &(uint32_t) { 999999 }, 4);
        nla = (struct nlattr *) (raw + NLMSG_HDRLEN + 16);
        nla->nla_len = 4 + 6;
        nla->nla_type = 2;                      /* NHA_GROUP. */
        ofpbuf_clear(&c->msg);
        ofpbuf_put(&c->msg, raw, sizeof raw);
    } else if (!strcmp(kind, "unknown")) {
        /* An RTM_NEWLINK: well formed, not a route: to be skipped. */
        struct nlmsghdr nlh = {
            .nlmsg_len = NLMSG_HDRLEN + 16,
            .nlmsg_type = RTM_NEWLINK,
            .nlmsg_flags = NLM_F_REQUEST,
        };

        ofpbuf_clear(&c->msg);
        ofpbuf_put(&c->msg, &nlh, sizeof nlh);
        ofpbuf_put_zeros(&c->msg, 16);
    } else {
        ovs_fatal(0, "unknown --malformed kind \"%s\"", kind);
    }
    conn_put_msg(c);
    conn_close_frame(c);
    return false;
}

/* Connecting. */

/* Returns a connected, non-blocking TCP socket to host:port. */
static int
connect_to(const char *host, const char *port)
{
    struct addrinfo hints, *res, *ai;
    int error, fd = -1;

    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    error = getaddrinfo(host, port, &hints, &res);
    if (error) {
        ovs_fatal(0, "%s:%s: %s", host, port, gai_strerror(error));
    }
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            continue;
        }
        if (!connect(fd, ai->ai_addr, ai->ai_addrlen)) {
            break;
        }
        error = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        ovs_fatal(error, "%s:%s: connect failed", host, port);
    }

    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    return fd;
}

/* Ends a session on 'c': lingers for replies, half-closes, drains until
 * the listener closes (at most 2 s) and prints the summary. */
static int
finish_session(struct conn *c, double t0, const char *what,
               bool expect_close)
{
    uint64_t n_routes = c->n_route_add + c->n_route_del;
    double t_send, t_end;
    int status = 0;

    if (!c->peer_closed) {
        conn_flush_all(c);
    }
    t_send = (c->last_send ? c->last_send : now_sec()) - t0;

    /* Linger, reading replies. */
    double deadline = now_sec() + opts.linger;
    while (!c->peer_closed && !stop_requested && now_sec() < deadline) {
        if (opts.wait_offload
            && c->n_offload + c->n_failed + c->n_trap >= c->n_route_add) {
            break;
        }
        conn_wait_until(c, MIN(deadline, now_sec() + 0.05));
    }

    /* Half-close and drain, so that unread replies cannot make our close
     * reset the connection before the listener has read our tail. */
    if (!c->peer_closed) {
        shutdown(c->fd, SHUT_WR);
        conn_wait_until(c, now_sec() + 2.0);
    }
    t_end = now_sec() - t0;

    if (c->peer_closed && c->peer_error && !expect_close) {
        ovs_error(c->peer_error, "connection failed after %"PRIu64" bytes",
                  c->n_bytes);
        status = 1;
    } else if (c->peer_closed && expect_close && opts.verbosity > 0) {
        printf("listener closed the connection, as expected\n");
    }

    if (opts.verbosity > 0) {
        printf("fpm-replay: %s %"PRIu64" routes (%"PRIu64" add, %"PRIu64
               " del), %"PRIu64" nexthops (%"PRIu64" add, %"PRIu64" del), "
               "%"PRIu64" msgs in %"PRIu64" frames, %.1f MB "
               "in %.3f s: %.0f routes/s; ",
               what, n_routes, c->n_route_add, c->n_route_del,
               c->n_nh_add + c->n_nh_del, c->n_nh_add, c->n_nh_del,
               c->n_msgs, c->n_frames, c->n_bytes / 1e6,
               t_send, t_send > 0 ? n_routes / t_send : 0.0);
        printf("replies: %"PRIu64" msgs (%"PRIu64" offload, %"PRIu64
               " trap, %"PRIu64" failed)",
               c->rstats.n_msgs, c->n_offload, c->n_trap, c->n_failed);
        if (c->last_reply) {
            printf(", last at %.3f s", c->last_reply - t0);
        }
        printf("; closed at %.3f s\n", t_end);
    }
    return status;
}

/* Generate mode. */

static int
run_generate(void)
{
    struct conn c;
    double t0;
    unsigned int i;
    bool expect_close = false;
    int fi;

    rng_seed(opts.seed);
    generate_routes();
    for (fi = 0; fi < 2; fi++) {
        member_sent[fi] = xcalloc(opts.pool, sizeof *member_sent[fi]);
        group_sent[fi] = xcalloc(opts.pool, sizeof *group_sent[fi]);
    }
    fpm_route_init(&scratch_route);

    conn_init(&c, connect_to(opts.host, opts.port));
    t0 = now_sec();
    uint64_t done = 0;

    if (!opts.delete_only) {
        for (i = 0; i < opts.n_routes && !stop_requested; i++) {
            pace(&c, t0, done++);
            send_route(&c, &routes[i], FPM_OP_ADD);
            if (c.peer_closed) {
                break;
            }
        }

        /* Churn: zebra sends a path change as RTM_DELROUTE then
         * RTM_NEWROUTE, usually in one frame. */
        for (i = 0; i < opts.churn && opts.n_routes && !stop_requested;
             i++) {
            struct gen_route *r = &routes[rng_below(opts.n_routes)];

            pace(&c, t0, done++);
            send_route(&c, r, FPM_OP_DEL);
            if (opts.pool > 1) {
                r->start = (r->start + 1 + rng_below(opts.pool - 1))
                           % opts.pool;
            }
            send_route(&c, r, FPM_OP_ADD);
            if (c.peer_closed) {
                break;
            }
        }
    }

    if (opts.delete_only || opts.then_delete) {
        if (opts.delete_only) {
            /* Withdraw the nexthop objects that announcing would have
             * created. */
            for (i = 0; i < opts.n_routes; i++) {
                const struct gen_route *r = &routes[i];
                unsigned int k;

                fi = r->family == AF_INET ? 0 : 1;
                for (k = 0; k < opts.ecmp; k++) {
                    member_sent[fi][(r->start + k) % opts.pool] = true;
                }
                group_sent[fi][r->start] = true;
            }
        }
        for (i = 0; i < opts.n_routes && !stop_requested; i++) {
            pace(&c, t0, done++);
            send_route(&c, &routes[i], FPM_OP_DEL);
            if (c.peer_closed) {
                break;
            }
        }
        if (opts.nhg && !c.peer_closed) {
            /* Groups first, then their members. */
            for (fi = 0; fi < 2; fi++) {
                int family = fi ? AF_INET6 : AF_INET;

                for (i = 0; i < opts.pool; i++) {
                    if (opts.ecmp > 1 && group_sent[fi][i]) {
                        send_group(&c, family, i, FPM_OP_DEL);
                    }
                }
                for (i = 0; i < opts.pool; i++) {
                    if (member_sent[fi][i]) {
                        send_member(&c, family, i, FPM_OP_DEL);
                    }
                }
            }
        }
    }

    if (opts.malformed && !c.peer_closed) {
        expect_close = send_malformed(&c, opts.malformed);
    }

    int status = finish_session(&c, t0, "sent", expect_close);
    conn_destroy(&c);
    fpm_route_destroy(&scratch_route);
    for (fi = 0; fi < 2; fi++) {
        free(member_sent[fi]);
        free(group_sent[fi]);
    }
    free(routes);
    return status;
}

/* Reading capture files. */

/* Reads all of 'file_name' into 'b'. */
static void
read_file(const char *file_name, struct ofpbuf *b)
{
    FILE *f = fopen(file_name, "rb");
    char buf[65536];
    size_t n;

    if (!f) {
        ovs_fatal(errno, "%s: open failed", file_name);
    }
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        ofpbuf_put(b, buf, n);
    }
    if (ferror(f)) {
        ovs_fatal(errno, "%s: read failed", file_name);
    }
    fclose(f);
}

/* Print mode. */

struct print_ctx {
    uint64_t frame;             /* Current frame number (from 1). */
};

static void
print_cb(const struct fpm_msg *msg, int error, const struct nlmsghdr *nlh,
         void *ctx_ OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    if (error) {
        ds_put_format(&s, "  error: %s", fpm_parse_error_to_string(error));
        if (nlh) {
            ds_put_format(&s, " (nlmsg type %u, len %u)",
                          nlh->nlmsg_type, nlh->nlmsg_len);
        }
    } else {
        ds_put_cstr(&s, "  ");
        fpm_msg_format(msg, &s);
    }
    puts(ds_cstr(&s));
    ds_destroy(&s);
}

static int
run_print(const char *file_name)
{
    struct fpm_parse_stats stats;
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct fpm_msg msg;
    struct print_ctx ctx = { 0 };
    struct ofpbuf b;
    int error, status = 0;

    ofpbuf_init(&b, 0);
    read_file(file_name, &b);
    fpm_splitter_init(&sp, 0);
    fpm_splitter_feed(&sp, b.data, b.size);
    fpm_msg_init(&msg);
    memset(&stats, 0, sizeof stats);

    while (!(error = fpm_splitter_next(&sp, &frame))) {
        ctx.frame++;
        if (opts.verbosity > 0) {
            printf("frame %"PRIu64": %u bytes\n", ctx.frame, frame.len);
        }
        fpm_route_parse_frame(frame.data, frame.size, &msg, &stats,
                              opts.verbosity > 0 ? print_cb : NULL, &ctx);
    }
    if (error == EPROTO) {
        printf("bad frame header: %s\n",
               fpm_frame_error_to_string(sp.error));
        status = 1;
    } else if (fpm_splitter_pending(&sp)) {
        printf("%zu trailing bytes (partial frame)\n",
               fpm_splitter_pending(&sp));
        status = 1;
    }
    printf("%"PRIu64" frames, %"PRIu64" msgs: %"PRIu64" routes, %"PRIu64
           " nexthops, %"PRIu64" skipped, %"PRIu64" errors\n",
           stats.n_frames, stats.n_msgs, stats.n_routes, stats.n_nexthops,
           stats.n_skipped, stats.n_errors);

    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&b);
    return status;
}

/* Replay mode. */

/* Counts the messages of a replayed frame by type. */
static void
replay_count_cb(const struct fpm_msg *msg, int error OVS_UNUSED,
                const struct nlmsghdr *nlh, void *c_)
{
    struct conn *c = c_;

    if (!nlh) {
        return;
    }
    c->n_msgs++;
    switch (nlh->nlmsg_type) {
    case RTM_NEWROUTE:
        c->n_route_add += msg && msg->kind == FPM_MSG_ROUTE;
        break;
    case RTM_DELROUTE:
        c->n_route_del += msg && msg->kind == FPM_MSG_ROUTE;
        break;
    case RTM_NEWNEXTHOP:
        c->n_nh_add++;
        break;
    case RTM_DELNEXTHOP:
        c->n_nh_del++;
        break;
    }
}

static int
run_replay(const char *file_name)
{
    struct fpm_parse_stats stats;
    struct fpm_splitter sp;
    struct fpm_frame frame;
    struct fpm_msg msg;
    struct ofpbuf b;
    struct conn c;
    int error;
    double t0;

    ofpbuf_init(&b, 0);
    read_file(file_name, &b);
    fpm_splitter_init(&sp, 0);
    fpm_splitter_feed(&sp, b.data, b.size);
    fpm_msg_init(&msg);
    memset(&stats, 0, sizeof stats);

    conn_init(&c, connect_to(opts.host, opts.port));
    t0 = now_sec();
    while (!stop_requested && !c.peer_closed
           && !(error = fpm_splitter_next(&sp, &frame))) {
        uint64_t before = stats.n_routes;

        /* Count what the frame holds, for the summary and --rate. */
        fpm_route_parse_frame(frame.data, frame.size, &msg, &stats,
                              replay_count_cb, &c);
        pace(&c, t0, before);

        conn_close_frame(&c);
        ofpbuf_put(&c.out, frame.data - FPM_FRAME_HDR_LEN, frame.len);
        c.n_frames++;
        if (c.out.size >= 256 * 1024) {
            conn_flush(&c, true);
        }
    }
    if (sp.error != FPM_FRAME_OK) {
        ovs_error(0, "%s: stopped at a bad frame header: %s", file_name,
                  fpm_frame_error_to_string(sp.error));
    }
    int status = finish_session(&c, t0, "replayed", false);
    if (opts.verbosity > 0) {
        printf("replayed file: %"PRIu64" frames, %"PRIu64" msgs, %"PRIu64
               " routes, %"PRIu64" nexthops, %"PRIu64" skipped, %"PRIu64
               " errors\n", stats.n_frames, stats.n_msgs, stats.n_routes,
               stats.n_nexthops, stats.n_skipped, stats.n_errors);
    }

    conn_destroy(&c);
    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&sp);
    ofpbuf_uninit(&b);
    return status;
}

/* Record mode. */

/* Returns a listening TCP socket on host:port. */
static int
listen_on(const char *host, const char *port)
{
    struct addrinfo hints, *res, *ai;
    int error, fd = -1;

    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    error = getaddrinfo(host, port, &hints, &res);
    if (error) {
        ovs_fatal(0, "%s:%s: %s", host, port, gai_strerror(error));
    }
    for (ai = res; ai; ai = ai->ai_next) {
        int one = 1;

        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            continue;
        }
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, 1)) {
            break;
        }
        error = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        ovs_fatal(error, "%s:%s: cannot listen", host, port);
    }
    return fd;
}

static int
run_record(const char *file_name)
{
    struct fpm_parse_stats stats;
    struct fpm_splitter sp;
    struct fpm_msg msg;
    int lfd, fd;
    FILE *out;
    double t_start, t_last;
    int status = 0;

    lfd = listen_on(opts.host, opts.port);
    out = fopen(file_name, "wb");
    if (!out) {
        ovs_fatal(errno, "%s: create failed", file_name);
    }
    if (opts.verbosity > 0) {
        printf("listening on %s:%s\n", opts.host, opts.port);
        fflush(stdout);
    }

    /* Accept one connection. */
    t_start = now_sec();
    for (;;) {
        struct pollfd pfd = { .fd = lfd, .events = POLLIN };

        if (stop_requested
            || (opts.duration && now_sec() - t_start >= opts.duration)) {
            fclose(out);
            close(lfd);
            ovs_error(0, "no connection");
            return 1;
        }
        if (poll(&pfd, 1, 100) > 0) {
            fd = accept(lfd, NULL, NULL);
            if (fd >= 0) {
                break;
            }
        }
    }
    close(lfd);
    if (opts.verbosity > 0) {
        printf("connected\n");
        fflush(stdout);
    }

    fpm_splitter_init(&sp, 0);
    fpm_msg_init(&msg);
    memset(&stats, 0, sizeof stats);
    t_last = now_sec();
    for (;;) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        struct fpm_frame frame;
        double now = now_sec();
        int error;

        if (stop_requested
            || (opts.duration && now - t_start >= opts.duration)
            || (opts.idle && stats.n_frames && now - t_last >= opts.idle)) {
            break;
        }
        if (poll(&pfd, 1, 50) <= 0) {
            continue;
        }

        size_t room;
        void *p = fpm_splitter_reserve(&sp, &room);
        ssize_t n = recv(fd, p, room, 0);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            ovs_error(errno, "recv");
            break;
        } else if (n == 0) {
            if (opts.verbosity > 0) {
                printf("peer closed the connection\n");
            }
            break;
        }
        fpm_splitter_commit(&sp, n);
        t_last = now_sec();

        /* Save complete frames only, so that the file is always a clean
         * sequence of frames. */
        while (!(error = fpm_splitter_next(&sp, &frame))) {
            fwrite(frame.data - FPM_FRAME_HDR_LEN, 1, frame.len, out);
            fpm_route_parse_frame(frame.data, frame.size, &msg, &stats,
                                  opts.verbosity > 1 ? print_cb : NULL, NULL);
        }
        if (error == EPROTO) {
            ovs_error(0, "bad frame header from peer: %s; stopping",
                      fpm_frame_error_to_string(sp.error));
            status = 1;
            break;
        }
    }
    if (fpm_splitter_pending(&sp) && !sp.error) {
        ovs_error(0, "dropped %zu bytes of a partial frame",
                  fpm_splitter_pending(&sp));
    }
    if (fclose(out)) {
        ovs_fatal(errno, "%s: write failed", file_name);
    }
    close(fd);
    if (opts.verbosity > 0) {
        printf("fpm-replay: recorded %"PRIu64" frames, %"PRIu64" msgs: "
               "%"PRIu64" routes, %"PRIu64" nexthops, %"PRIu64" skipped, "
               "%"PRIu64" errors, %"PRIu64" bytes to %s\n",
               stats.n_frames, stats.n_msgs, stats.n_routes,
               stats.n_nexthops, stats.n_skipped, stats.n_errors,
               sp.n_bytes, file_name);
    }
    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&sp);
    return status;
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    parse_options(argc, argv);
    install_signal_handlers();
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (opts.print) {
        return run_print(opts.print);
    } else if (opts.record) {
        return run_record(opts.record);
    } else if (opts.replay) {
        return run_replay(opts.replay);
    } else {
        return run_generate();
    }
}

/* Command line. */

static double
parse_seconds(const char *option, const char *arg)
{
    double value;

    if (!str_to_double(arg, &value) || value < 0) {
        ovs_fatal(0, "--%s: \"%s\" is not a nonnegative number",
                  option, arg);
    }
    return value;
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_HOST = UCHAR_MAX + 1,
        OPT_IPV6,
        OPT_PREFIX_MIX,
        OPT_V4_LEN,
        OPT_V6_LEN,
        OPT_ECMP,
        OPT_NEXTHOPS,
        OPT_IFINDEX,
        OPT_UCMP,
        OPT_NHG,
        OPT_NO_NHG,
        OPT_TABLE,
        OPT_PROTOCOL,
        OPT_METRIC,
        OPT_CHURN,
        OPT_DELETE,
        OPT_THEN_DELETE,
        OPT_FRAME_SIZE,
        OPT_BATCH,
        OPT_RATE,
        OPT_SEED,
        OPT_LINGER,
        OPT_WAIT_OFFLOAD,
        OPT_RECORD,
        OPT_IDLE,
        OPT_DURATION,
        OPT_REPLAY,
        OPT_PRINT,
        OPT_MALFORMED,
    };
    static const struct option long_options[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},
        {"host", required_argument, NULL, OPT_HOST},
        {"port", required_argument, NULL, 'p'},
        {"routes", required_argument, NULL, 'n'},
        {"ipv6", required_argument, NULL, OPT_IPV6},
        {"prefix-mix", required_argument, NULL, OPT_PREFIX_MIX},
        {"v4-len", required_argument, NULL, OPT_V4_LEN},
        {"v6-len", required_argument, NULL, OPT_V6_LEN},
        {"ecmp", required_argument, NULL, OPT_ECMP},
        {"nexthops", required_argument, NULL, OPT_NEXTHOPS},
        {"ifindex", required_argument, NULL, OPT_IFINDEX},
        {"ucmp", no_argument, NULL, OPT_UCMP},
        {"nhg", no_argument, NULL, OPT_NHG},
        {"no-nhg", no_argument, NULL, OPT_NO_NHG},
        {"table", required_argument, NULL, OPT_TABLE},
        {"protocol", required_argument, NULL, OPT_PROTOCOL},
        {"metric", required_argument, NULL, OPT_METRIC},
        {"churn", required_argument, NULL, OPT_CHURN},
        {"delete", no_argument, NULL, OPT_DELETE},
        {"then-delete", no_argument, NULL, OPT_THEN_DELETE},
        {"frame-size", required_argument, NULL, OPT_FRAME_SIZE},
        {"batch", required_argument, NULL, OPT_BATCH},
        {"rate", required_argument, NULL, OPT_RATE},
        {"seed", required_argument, NULL, OPT_SEED},
        {"linger", required_argument, NULL, OPT_LINGER},
        {"wait-offload", no_argument, NULL, OPT_WAIT_OFFLOAD},
        {"record", required_argument, NULL, OPT_RECORD},
        {"idle", required_argument, NULL, OPT_IDLE},
        {"duration", required_argument, NULL, OPT_DURATION},
        {"replay", required_argument, NULL, OPT_REPLAY},
        {"print", required_argument, NULL, OPT_PRINT},
        {"malformed", required_argument, NULL, OPT_MALFORMED},
        {NULL, 0, NULL, 0},
    };
    char *short_options = ovs_cmdl_long_options_to_short_options(long_options);
    int n_modes;

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case 'h':
            usage();

        case 'V':
            printf("%s (fibsync)\n", program_name);
            exit(EXIT_SUCCESS);

        case 'v':
            opts.verbosity++;
            break;

        case 'q':
            opts.verbosity = 0;
            break;

        case OPT_HOST:
            opts.host = optarg;
            break;

        case 'p':
            option_parse_uint("port", optarg, 1, 65535);
            opts.port = optarg;
            break;

        case 'n':
            opts.n_routes = option_parse_uint("routes", optarg, 0, 50000000);
            break;

        case OPT_IPV6:
            opts.ipv6_pct = option_parse_uint("ipv6", optarg, 0, 100);
            break;

        case OPT_PREFIX_MIX:
            if (!strcmp(optarg, "fixed")) {
                opts.fixed_lengths = true;
            } else if (!strcmp(optarg, "realistic")) {
                opts.fixed_lengths = false;
            } else {
                ovs_fatal(0, "--prefix-mix: expected fixed or realistic");
            }
            break;

        case OPT_V4_LEN:
            opts.v4_len = option_parse_uint("v4-len", optarg, 8, 32);
            opts.fixed_lengths = true;
            break;

        case OPT_V6_LEN:
            opts.v6_len = option_parse_uint("v6-len", optarg, 17, 128);
            opts.fixed_lengths = true;
            break;

        case OPT_ECMP:
            opts.ecmp = option_parse_uint("ecmp", optarg, 1, 256);
            break;

        case OPT_NEXTHOPS:
            opts.pool = option_parse_uint("nexthops", optarg, 1, 60000);
            break;

        case OPT_IFINDEX:
            opts.ifindex = option_parse_uint("ifindex", optarg, 1, INT32_MAX);
            break;

        case OPT_UCMP:
            opts.ucmp = true;
            break;

        case OPT_NHG:
            opts.nhg = true;
            break;

        case OPT_NO_NHG:
            opts.nhg = false;
            break;

        case OPT_TABLE:
            opts.table = option_parse_uint("table", optarg, 1, UINT32_MAX);
            break;

        case OPT_PROTOCOL:
            opts.protocol = option_parse_uint("protocol", optarg, 0, 255);
            break;

        case OPT_METRIC:
            opts.metric = option_parse_uint("metric", optarg, 0, UINT32_MAX);
            break;

        case OPT_CHURN:
            opts.churn = option_parse_uint("churn", optarg, 0, 100000000);
            break;

        case OPT_DELETE:
            opts.delete_only = true;
            break;

        case OPT_THEN_DELETE:
            opts.then_delete = true;
            break;

        case OPT_FRAME_SIZE:
            opts.frame_size = option_parse_uint("frame-size", optarg, 128,
                                         FPM_FRAME_MAX_LEN);
            break;

        case OPT_BATCH:
            opts.batch = option_parse_uint("batch", optarg, 0, 1000000);
            break;

        case OPT_RATE:
            opts.rate = parse_seconds("rate", optarg);
            break;

        case OPT_SEED:
            if (!str_to_ullong(optarg, 0, &opts.seed)) {
                ovs_fatal(0, "--seed: \"%s\" is not an integer", optarg);
            }
            break;

        case OPT_LINGER:
            opts.linger = parse_seconds("linger", optarg);
            break;

        case OPT_WAIT_OFFLOAD:
            opts.wait_offload = true;
            break;

        case OPT_RECORD:
            opts.record = optarg;
            break;

        case OPT_IDLE:
            opts.idle = parse_seconds("idle", optarg);
            break;

        case OPT_DURATION:
            opts.duration = parse_seconds("duration", optarg);
            break;

        case OPT_REPLAY:
            opts.replay = optarg;
            break;

        case OPT_PRINT:
            opts.print = optarg;
            break;

        case OPT_MALFORMED: {
            size_t i;

            for (i = 0; i < ARRAY_SIZE(malformed_kinds); i++) {
                if (!strcmp(optarg, malformed_kinds[i])) {
                    break;
                }
            }
            if (i == ARRAY_SIZE(malformed_kinds)) {
                ovs_fatal(0, "--malformed: unknown kind \"%s\" (try "
                          "--help)", optarg);
            }
            opts.malformed = optarg;
            break;
        }

        case '?':
            exit(EXIT_FAILURE);

        default:
            OVS_NOT_REACHED();
        }
    }
    free(short_options);

    if (optind < argc) {
        ovs_fatal(0, "unexpected argument \"%s\" (try --help)", argv[optind]);
    }
    n_modes = !!opts.record + !!opts.replay + !!opts.print;
    if (n_modes > 1) {
        ovs_fatal(0, "--record, --replay and --print are exclusive");
    }
    if (opts.delete_only && opts.then_delete) {
        ovs_fatal(0, "--delete and --then-delete are exclusive");
    }
    if (opts.ecmp > opts.pool) {
        ovs_fatal(0, "--ecmp %u needs --nexthops of at least %u",
                  opts.ecmp, opts.ecmp);
    }
}

static void
usage(void)
{
    printf("\
%s: FPM load generator, recorder and replayer\n\
\n\
SYNOPSIS\n\
  fpm-replay [OPTIONS]                  generate routes to a listener\n\
  fpm-replay --record FILE [OPTIONS]    record zebra's stream\n\
  fpm-replay --replay FILE [OPTIONS]    send a recorded stream\n\
  fpm-replay --print FILE [-q | -v]     decode a recorded stream\n\
\n\
DESCRIPTION\n\
  fpm-replay speaks FPM (the Forwarding Plane Manager protocol of FRR's\n\
  zebra dplane_fpm_nl module): a TCP stream of frames, each a 4-byte\n\
  header {version 1, type 1 = netlink, 16-bit big-endian length including\n\
  the header} followed by netlink RTM_NEWROUTE/RTM_DELROUTE and\n\
  RTM_NEWNEXTHOP/RTM_DELNEXTHOP messages.\n\
\n\
  By default it acts as zebra: it connects to an FPM listener (such as\n\
  fibsync's fpmsyncd) and sends a deterministic set of synthetic routes,\n\
  batching as many netlink messages per frame as fit, then prints one\n\
  summary line: routes, messages, frames, bytes, seconds and routes/s\n\
  (time from the connection to the last byte written), plus the replies\n\
  that the listener sent back.  Replies (offload notifications, RTM_NEWROUTE\n\
  with RTM_F_OFFLOAD, RTM_F_TRAP or RTM_F_OFFLOAD_FAILED) are read and\n\
  counted all along, so the listener never blocks on a full socket.\n\
\n\
  With --record it acts as an FPM server instead: it listens, accepts one\n\
  connection (zebra's: put \"fpm address 127.0.0.1 port 2620\" in\n\
  zebra.conf and load zebra with -M dplane_fpm_nl) and saves every complete\n\
  frame, byte for byte, to FILE.  --replay sends such a file to a listener\n\
  as zebra would; --print decodes it, one line per message.\n\
\n\
CONNECTION\n\
  --host HOST          address to connect to, or to listen on with\n\
                       --record (default 127.0.0.1)\n\
  -p, --port PORT      TCP port (default 2620, zebra's FPM port)\n\
  --linger SECS        after the last frame, keep the connection open and\n\
                       read replies for SECS seconds (default 0.2); then\n\
                       half-close and wait up to 2 s for the listener to\n\
                       close\n\
  --wait-offload       stop lingering as soon as there is one reply per\n\
                       route announced\n\
\n\
ROUTE SET (generate mode)\n\
  -n, --routes N       number of routes (default 1000)\n\
  --ipv6 PCT           percentage of IPv6 routes (default 0)\n\
  --prefix-mix MIX     \"realistic\" (default): IPv4 mostly /24 (58%%),\n\
                       /16-/29 for the rest; IPv6 mostly /48 (44%%) and\n\
                       /64 (18%%), /29-/60 for the rest.  \"fixed\": every\n\
                       IPv4 route /24 and every IPv6 route /64\n\
  --v4-len LEN         fixed IPv4 prefix length (implies fixed)\n\
  --v6-len LEN         fixed IPv6 prefix length (implies fixed)\n\
                       Prefixes are unique: IPv4 ones are taken in order\n\
                       from 1.0.0.0 up, IPv6 ones from 2400::/16.\n\
  --ecmp W             paths per route (default 1)\n\
  --nexthops P         gateways per family (default 16): 192.168.1.2 and\n\
                       up, 2001:db8:ffff::2 and up; each route uses W\n\
                       consecutive ones starting at a random one\n\
  --ifindex I          outgoing interface index of every path (default 2)\n\
  --ucmp               unequal weights: path i weighs 1 + i %% 4\n\
  --nhg                use next-hop groups, as zebra does by default: one\n\
                       RTM_NEWNEXTHOP per gateway, one per group (family\n\
                       0, NHA_GROUP), and routes with only RTA_NH_ID\n\
                       (default)\n\
  --no-nhg             inline nexthops instead: RTA_GATEWAY + RTA_OIF, or\n\
                       RTA_MULTIPATH for ECMP (zebra with\n\
                       \"no fpm use-next-hop-groups\")\n\
  --table T            table id; 254 is the default VRF (default 254)\n\
  --protocol P         rtm_protocol (default 186, BGP)\n\
  --metric M           RTA_PRIORITY (default 20)\n\
  --seed S             random seed (default 1); the same seed and options\n\
                       give the same routes\n\
\n\
WHAT TO SEND (generate mode)\n\
  (default)            announce the routes\n\
  --churn N            then N path changes on random routes, each an\n\
                       RTM_DELROUTE followed by an RTM_NEWROUTE with\n\
                       another set of gateways, as zebra sends them\n\
  --delete             withdraw the routes (and, with --nhg, the groups\n\
                       and gateways) that the same options and seed\n\
                       announce, without announcing them\n\
  --then-delete        announce (and churn), then withdraw everything\n\
  --malformed KIND     finally, send one bad frame for receivers' tests:\n\
      version, type, short   a frame header with version 2, type 2\n\
                       (protobuf), or length 2: the listener should close\n\
                       the connection\n\
      partial          a header announcing 100 bytes more than follow,\n\
                       then the end of the stream\n\
      empty            a valid header-only frame (no message)\n\
      truncated, attr-len, prefix-len, host-bits, multipath, group\n\
                       a good frame holding routes 192.0.2.0/25 and\n\
                       192.0.2.128/25 and one bad message: shorter than\n\
                       its rtmsg; an attribute running past the message;\n\
                       198.51.100.0/33; 198.51.100.1/24; an RTA_MULTIPATH\n\
                       entry with rtnh_len 0; an NHA_GROUP of 6 bytes\n\
      nlmsg-len        the same two routes, then a message whose\n\
                       nlmsg_len runs past the frame\n\
      unknown          the same two routes and an RTM_NEWLINK, which a\n\
                       listener should skip\n\
                       Use -n 0 to send only the malformed frame.\n\
\n\
PACING AND BATCHING\n\
  --frame-size BYTES   largest frame, header included (default 65535)\n\
  --batch N            at most N netlink messages per frame (default: as\n\
                       many as fit)\n\
  --rate N             at most N routes per second (default: as fast as\n\
                       possible); with --replay, N routes per second\n\
                       counted from the frames' contents\n\
\n\
RECORDING\n\
  --record FILE        listen on --host and --port, accept one\n\
                       connection and save its frames to FILE, until the\n\
                       peer closes, SIGINT or SIGTERM, or:\n\
  --idle SECS          SECS seconds without data once data has arrived\n\
  --duration SECS      SECS seconds in all\n\
\n\
OTHER\n\
  -v, --verbose        print more (-vv: every reply or recorded message)\n\
  -q, --quiet          print nothing but errors\n\
  -h, --help           print this help\n\
  -V, --version        print the version\n\
\n\
EXAMPLES\n\
  Load test, 1M routes, 20%% IPv6, 4-way ECMP over groups:\n\
      fpm-replay -n 1000000 --ipv6 20 --ecmp 4 --nexthops 32\n\
  Withdraw them again:\n\
      fpm-replay -n 1000000 --ipv6 20 --ecmp 4 --nexthops 32 --delete\n\
  Capture zebra inside namespace fpmtest, stop after 5 idle seconds:\n\
      ip netns exec fpmtest fpm-replay --record zebra.fpm --idle 5\n\
  Look at it, then send it to fpmsyncd:\n\
      fpm-replay --print zebra.fpm\n\
      fpm-replay --replay zebra.fpm --port 2620\n\
\n\
EXIT STATUS\n\
  0 on success; 1 if the connection failed (other than the close that a\n\
  bad frame header should cause), or if a recorded stream or file had a\n\
  bad frame header or a partial frame.\n",
           program_name);
    exit(EXIT_SUCCESS);
}
