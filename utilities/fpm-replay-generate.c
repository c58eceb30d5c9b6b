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

/* fpm-replay's generate mode: acts as zebra, sending a deterministic set of
 * synthetic routes (and, with --nhg, their nexthop objects) to an FPM
 * listener, then optionally churn, withdrawals and one malformed frame.
 *
 * This is the load generator of the benchmarks, at a million routes and
 * more: the per-route path allocates nothing (one scratch route and the
 * connection's buffers are reused) and reads its settings from a copy of
 * the options inside the generator. */

#include <config.h>

#include <arpa/inet.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "lib/fpm-route-encode.h"
#include "utilities/fpm-replay.h"
#include "util.h"

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

/* The generate mode's state. */
struct generator {
    /* A copy of the settings, so that the per-route code reads them at a
     * fixed offset from 'g', as it would a global. */
    struct fpm_replay_options opts;

    uint64_t rng;               /* splitmix64 state. */
    uint64_t next_index[2][129]; /* Per-family, per-length allocation
                                  * counters: [0] IPv4, [1] IPv6. */
    struct gen_route *routes;   /* The 'opts.n_routes' routes. */
    bool *withdrawn;            /* Per route, withdrawn by
                                 * --delete-share. */
    bool *member_sent[2];       /* Per-family, which of the 'opts.pool'
                                 * gateways have been announced. */
    bool *group_sent[2];        /* Per-family, which groups (by their first
                                 * gateway) have been announced. */
    struct fpm_route route;     /* Scratch for encoding one route. */
    struct fpm_replay_conn conn; /* To the listener. */
};

/* Randomness: a deterministic 64-bit PRNG (splitmix64), independent of
 * libc's. */

static uint64_t
rng_next(struct generator *g)
{
    uint64_t z = (g->rng += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Returns a random number in [0, n). */
static uint32_t
rng_below(struct generator *g, uint32_t n)
{
    return n ? rng_next(g) % n : 0;
}

/* Route set generation. */

/* Picks a prefix length for 'family'. */
static unsigned int
pick_len(struct generator *g, int family)
{
    const struct len_weight *mix = family == AF_INET ? v4_mix : v6_mix;
    size_t n = family == AF_INET ? ARRAY_SIZE(v4_mix) : ARRAY_SIZE(v6_mix);
    uint32_t r;
    size_t i;

    if (g->opts.fixed_lengths) {
        return family == AF_INET ? g->opts.v4_len : g->opts.v6_len;
    }
    r = rng_below(g, 100);
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

/* Makes the next unused prefix of length 'len' (or longer, when that
 * length is used up) for 'family' into 'r'. */
static void
alloc_prefix(struct generator *g, struct gen_route *r, int family,
             unsigned int len)
{
    unsigned int max = family == AF_INET ? 32 : 128;
    int fi = family == AF_INET ? 0 : 1;
    uint64_t k;

    while (g->next_index[fi][len] >= len_capacity(family, len)) {
        if (++len > max) {
            ovs_fatal(0, "out of synthetic prefixes");
        }
    }
    k = g->next_index[fi][len]++;

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

/* Makes the 'opts.n_routes' routes of the set. */
static void
generate_routes(struct generator *g)
{
    unsigned int i;

    g->routes = xcalloc(MAX(g->opts.n_routes, 1), sizeof *g->routes);
    for (i = 0; i < g->opts.n_routes; i++) {
        int family = (rng_below(g, 100) < g->opts.ipv6_pct
                      ? AF_INET6 : AF_INET);

        alloc_prefix(g, &g->routes[i], family, pick_len(g, family));
        g->routes[i].start = rng_below(g, g->opts.pool);
    }
}

/* Nexthop ids: gateway k of IPv4 is 1 + k, of IPv6 1 + P + k; the group
 * of 'ecmp' gateways starting at k is 1 + 2P + k (IPv4), 1 + 3P + k
 * (IPv6).  A single-path route uses the gateway's own id, as zebra does. */
static uint32_t
member_id(const struct generator *g, int family, unsigned int k)
{
    return 1 + (family == AF_INET6 ? g->opts.pool : 0) + k;
}

static uint32_t
group_id(const struct generator *g, int family, unsigned int start)
{
    if (g->opts.ecmp == 1) {
        return member_id(g, family, start);
    }
    return 1 + (family == AF_INET6 ? 3 : 2) * g->opts.pool + start;
}

/* Stores gateway 'k' of 'family' in 'a': 192.168.(1 + k / 250).(2 + k %
 * 250) or 2001:db8:ffff::(2 + k). */
void
fpm_replay_gateway_addr(int family, unsigned int k, struct fpm_addr *a)
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
path_weight(const struct generator *g, unsigned int i)
{
    return g->opts.ucmp ? 1 + i % 4 : 1;
}

/* Sets the 'op', 'id' and 'family' of nexthop object 'nh', and the
 * --protocol, then queues it and frees it. */
static void
put_nexthop_msg(struct generator *g, struct fpm_nexthop *nh, enum fpm_op op,
                uint32_t id, int family)
{
    struct fpm_replay_conn *c = &g->conn;

    nh->op = op;
    nh->id = id;
    nh->family = family;
    nh->protocol = g->opts.protocol;
    ofpbuf_clear(&c->msg);
    fpm_nexthop_encode(&c->msg, nh, c->seq++);
    fpm_replay_conn_put_msg(c);
    fpm_nexthop_destroy(nh);
}

/* Announces (or withdraws, for FPM_OP_DEL) gateway 'k' of 'family'. */
static void
send_member(struct generator *g, int family, unsigned int k, enum fpm_op op)
{
    struct fpm_nexthop nh;

    fpm_nexthop_init(&nh);
    fpm_replay_gateway_addr(family, k, &nh.gateway);
    nh.ifindex = g->opts.ifindex;
    put_nexthop_msg(g, &nh, op, member_id(g, family, k), family);
}

/* Announces (or withdraws) the group starting at gateway 'start'. */
static void
send_group(struct generator *g, int family, unsigned int start,
           enum fpm_op op)
{
    struct fpm_nexthop nh;
    unsigned int i;

    fpm_nexthop_init(&nh);
    if (op == FPM_OP_ADD) {
        for (i = 0; i < g->opts.ecmp; i++) {
            struct fpm_nhg_member *m = fpm_nexthop_add_member(&nh);

            m->id = member_id(g, family, (start + i) % g->opts.pool);
            m->weight = path_weight(g, i);
        }
    }
    put_nexthop_msg(g, &nh, op, group_id(g, family, start), AF_UNSPEC);
}

/* Makes sure that the nexthop objects that route 'r' needs have been
 * announced. */
static void
ensure_nexthops(struct generator *g, const struct gen_route *r)
{
    int fi = r->family == AF_INET ? 0 : 1;
    unsigned int i;

    if (!g->opts.nhg) {
        return;
    }
    for (i = 0; i < g->opts.ecmp; i++) {
        unsigned int k = (r->start + i) % g->opts.pool;

        if (!g->member_sent[fi][k]) {
            g->member_sent[fi][k] = true;
            send_member(g, r->family, k, FPM_OP_ADD);
        }
    }
    if (g->opts.ecmp > 1 && !g->group_sent[fi][r->start]) {
        g->group_sent[fi][r->start] = true;
        send_group(g, r->family, r->start, FPM_OP_ADD);
    }
}

/* Fills 'fr' from 'r' for 'op'. */
static void
make_route(const struct generator *g, const struct gen_route *r,
           enum fpm_op op, struct fpm_route *fr)
{
    const struct fpm_replay_options *opts = &g->opts;
    unsigned int i;

    fpm_route_clear(fr);
    fr->op = op;
    fr->table = opts->table;
    fr->prefix.family = r->family;
    fr->prefix.len = r->len;
    memcpy(fr->prefix.addr, r->addr, sizeof fr->prefix.addr);
    fr->protocol = opts->protocol;
    fr->metric = opts->metric;
    fr->type = FPM_ROUTE_UNICAST;
    if (op == FPM_OP_DEL) {
        /* zebra's deletes carry the nexthops too, but the prefix is what
         * identifies the route. */
        return;
    }
    if (opts->nhg) {
        fr->nhg_id = group_id(g, r->family, r->start);
        return;
    }
    for (i = 0; i < opts->ecmp; i++) {
        struct fpm_route_nh *nh = fpm_route_add_nexthop(fr);

        fpm_replay_gateway_addr(r->family, (r->start + i) % opts->pool,
                                &nh->gateway);
        nh->ifindex = opts->ifindex;
        nh->weight = opts->ecmp > 1 ? path_weight(g, i) : 1;
    }
}

/* Sends route 'r' as an add or a delete ('op'), after the nexthop
 * objects that an add needs, with netlink flags 'nlmsg_flags' (0: zebra's
 * for 'op'). */
static void
send_route_flags(struct generator *g, const struct gen_route *r,
                 enum fpm_op op, uint16_t nlmsg_flags)
{
    struct fpm_replay_conn *c = &g->conn;

    if (op == FPM_OP_ADD) {
        ensure_nexthops(g, r);
    }
    make_route(g, r, op, &g->route);
    g->route.nlmsg_flags = nlmsg_flags;
    ofpbuf_clear(&c->msg);
    fpm_route_encode(&c->msg, &g->route, c->seq++);
    fpm_replay_conn_put_msg(c);
}

/* send_route_flags() with zebra's flags. */
static void
send_route(struct generator *g, const struct gen_route *r, enum fpm_op op)
{
    send_route_flags(g, r, op, 0);
}

/* Gives 'r' another set of gateways, starting at another of the pool. */
static void
repath(struct generator *g, struct gen_route *r)
{
    if (g->opts.pool > 1) {
        r->start = (r->start + 1 + rng_below(g, g->opts.pool - 1))
                   % g->opts.pool;
    }
}

/* After route 'i' of the announcement: with --delete-share, withdraws
 * with that probability a random route among the first 'i' + 1 still
 * announced; with --replace-share, replaces one in place, as a kernel-style
 * sender does: one RTM_NEWROUTE with NLM_F_REPLACE and another set of
 * gateways, no RTM_DELROUTE before it.  If 'send' is false (--final), only
 * makes the change to the set, drawing the same random numbers.  'done'
 * as for send_all_routes(). */
static void
mix_ops(struct generator *g, unsigned int i, bool send, double t0,
        uint64_t *done)
{
    const struct fpm_replay_options *opts = &g->opts;
    struct fpm_replay_conn *c = &g->conn;
    struct gen_route *gr;
    unsigned int j;
    uint32_t r;

    if (!opts->delete_pct && !opts->replace_pct) {
        /* No random number drawn: a seed gives the loads it gave before
         * these options existed. */
        return;
    }
    r = rng_below(g, 100);
    if (r >= opts->delete_pct + opts->replace_pct) {
        return;
    }
    j = rng_below(g, i + 1);
    gr = &g->routes[j];
    if (g->withdrawn[j]) {
        return;
    } else if (r < opts->delete_pct) {
        g->withdrawn[j] = true;
    } else {
        repath(g, gr);
    }
    if (!send) {
        return;
    }

    fpm_replay_pace(c, t0, (*done)++);
    if (g->withdrawn[j]) {
        send_route(g, gr, FPM_OP_DEL);
    } else {
        send_route_flags(g, gr, FPM_OP_ADD,
                         NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE);
    }
}

/* Sends every route of the set as 'op', until done, a signal or the
 * listener closing; 'done' counts the routes sent since 't0', for
 * --rate.  An announcement ('op' FPM_OP_ADD) mixes in the withdrawals and
 * replacements of --delete-share and --replace-share, unless --final made
 * them beforehand (apply_churn()).  A withdrawn route is not sent. */
static void
send_all_routes(struct generator *g, enum fpm_op op, double t0,
                uint64_t *done)
{
    struct fpm_replay_conn *c = &g->conn;
    unsigned int i;

    for (i = 0; i < g->opts.n_routes && !fpm_replay_stop_requested; i++) {
        if (g->withdrawn[i]) {
            continue;
        }
        fpm_replay_pace(c, t0, (*done)++);
        send_route(g, &g->routes[i], op);
        if (op == FPM_OP_ADD && !g->opts.final) {
            mix_ops(g, i, true, t0, done);
        }
        if (c->peer_closed) {
            break;
        }
    }
}

/* Picks the route of the next --churn path change and gives it another
 * set of gateways; returns it. */
static struct gen_route *
churn_one(struct generator *g)
{
    const struct fpm_replay_options *opts = &g->opts;
    unsigned int i = rng_below(g, opts->n_routes);
    struct gen_route *r;

    /* A route that --delete-share withdrew stays withdrawn: the next one
     * still announced takes its place (the first, if none follows). */
    for (unsigned int n = 0; n < opts->n_routes && g->withdrawn[i]; n++) {
        i = (i + 1) % opts->n_routes;
    }
    r = &g->routes[i];
    repath(g, r);
    return r;
}

/* With --final: makes the withdrawals and replacements of --delete-share
 * and --replace-share and the --churn path changes to the set without
 * sending them, drawing the random numbers the load draws, so that the
 * routes are sent once, as the load leaves them. */
static void
apply_churn(struct generator *g)
{
    for (unsigned int i = 0; i < g->opts.n_routes; i++) {
        mix_ops(g, i, false, 0, NULL);
    }
    if (g->opts.n_routes) {
        for (unsigned int i = 0; i < g->opts.churn; i++) {
            churn_one(g);
        }
    }
}

/* Sends the --churn path changes, on random routes of the set.  zebra
 * sends a path change as RTM_DELROUTE then RTM_NEWROUTE in one FPM frame
 * (tests/check/test-fpmsyncd-rib.c reads one from a capture), and so does
 * this, unless --batch 1 allows one message a frame; --churn-gap sends the
 * delete alone and the add after a pause.  'done' as for
 * send_all_routes(). */
static void
send_churn(struct generator *g, double t0, uint64_t *done)
{
    const struct fpm_replay_options *opts = &g->opts;
    struct fpm_replay_conn *c = &g->conn;
    unsigned int i;

    for (i = 0; i < opts->churn && opts->n_routes
                && !fpm_replay_stop_requested; i++) {
        struct gen_route *r = churn_one(g);

        fpm_replay_pace(c, t0, (*done)++);
        /* The new path's next-hop objects first: zebra installs a group
         * before a route uses it.  (A delete carries only the prefix.) */
        ensure_nexthops(g, r);
        /* A frame of their own holds both, as zebra sends them, unless
         * --churn-gap ends it after the delete (the pause writes it). */
        fpm_replay_conn_close_frame(c);
        send_route(g, r, FPM_OP_DEL);
        if (opts->churn_gap > 0) {
            fpm_replay_conn_pause(c, opts->churn_gap);
        }
        send_route(g, r, FPM_OP_ADD);
        fpm_replay_conn_close_frame(c);
        if (c->peer_closed) {
            break;
        }
    }
}

/* With --delete, marks the nexthop objects that announcing would have
 * created as sent, so that withdraw_nexthops() withdraws them. */
static void
mark_nexthops_sent(struct generator *g)
{
    unsigned int i;

    for (i = 0; i < g->opts.n_routes; i++) {
        const struct gen_route *r = &g->routes[i];
        int fi = r->family == AF_INET ? 0 : 1;
        unsigned int k;

        for (k = 0; k < g->opts.ecmp; k++) {
            g->member_sent[fi][(r->start + k) % g->opts.pool] = true;
        }
        g->group_sent[fi][r->start] = true;
    }
}

/* With --nhg, withdraws the groups and then the gateways that were
 * announced (or, with --delete, would have been). */
static void
withdraw_nexthops(struct generator *g)
{
    const struct fpm_replay_options *opts = &g->opts;
    unsigned int i;

    if (!opts->nhg || g->conn.peer_closed) {
        return;
    }
    for (int fi = 0; fi < 2; fi++) {
        int family = fi ? AF_INET6 : AF_INET;

        for (i = 0; i < opts->pool; i++) {
            if (opts->ecmp > 1 && g->group_sent[fi][i]) {
                send_group(g, family, i, FPM_OP_DEL);
            }
        }
        for (i = 0; i < opts->pool; i++) {
            if (g->member_sent[fi][i]) {
                send_member(g, family, i, FPM_OP_DEL);
            }
        }
    }
}

/* Frees 'g' and what it holds but its connection. */
static void
generator_free(struct generator *g)
{
    fpm_route_destroy(&g->route);
    for (int fi = 0; fi < 2; fi++) {
        free(g->member_sent[fi]);
        free(g->group_sent[fi]);
    }
    free(g->routes);
    free(g->withdrawn);
    free(g);
}

/* Runs generate mode: connects to the listener at --host and --port and
 * sends what the options say (with --standing, only counts what it would
 * leave standing).  Returns the exit status. */
int
fpm_replay_generate(const struct fpm_replay_options *opts)
{
    struct generator *g = xzalloc(sizeof *g);
    bool expect_close = false;
    uint64_t done = 0;
    double t0;
    int fi;

    g->opts = *opts;
    g->rng = opts->seed;
    generate_routes(g);
    g->withdrawn = xcalloc(MAX(opts->n_routes, 1), sizeof *g->withdrawn);
    for (fi = 0; fi < 2; fi++) {
        g->member_sent[fi] = xcalloc(opts->pool, sizeof *g->member_sent[fi]);
        g->group_sent[fi] = xcalloc(opts->pool, sizeof *g->group_sent[fi]);
    }
    fpm_route_init(&g->route);

    if (opts->standing) {
        unsigned int n = 0;

        apply_churn(g);
        for (unsigned int i = 0; i < opts->n_routes; i++) {
            n += !g->withdrawn[i];
        }
        printf("%u\n", opts->delete_only ? 0 : n);
        generator_free(g);
        return 0;
    }

    fpm_replay_conn_open(&g->conn, &g->opts);
    t0 = fpm_replay_now();
    if (opts->final) {
        apply_churn(g);
    }
    if (!opts->delete_only) {
        send_all_routes(g, FPM_OP_ADD, t0, &done);
        if (!opts->final) {
            send_churn(g, t0, &done);
        }
    }
    if (opts->delete_only || opts->then_delete) {
        if (opts->delete_only) {
            mark_nexthops_sent(g);
        }
        send_all_routes(g, FPM_OP_DEL, t0, &done);
        withdraw_nexthops(g);
    }
    if (opts->malformed && !g->conn.peer_closed) {
        expect_close = fpm_replay_send_malformed(&g->conn, opts->malformed);
    }

    int status = fpm_replay_conn_finish(&g->conn, t0, "sent", expect_close);
    fpm_replay_conn_destroy(&g->conn);
    generator_free(g);
    return status;
}
