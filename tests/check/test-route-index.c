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

/* Check suite for idl/route-index.[ch].
 *
 * The comparator tests are pure.  The index tests need a real IDL replica,
 * and Check tests start no processes, so the database server runs in the
 * test process: OVS's libovsdb (an in-memory database behind
 * ovsdb_jsonrpc_server on a Unix socket in a temporary directory), served
 * from the same poll loop as the IDL. */

#include <config.h>

#include <check.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check/suites.h"

#include "idl/fibsync-idl.h"
#include "idl/route-index.h"
#include "lib/fib-prefix.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovsdb-error.h"
#include "ovsdb-idl.h"
#include "random.h"
#include "util.h"
/* OVS's ovsdb/ headers are not on the include path by their own names;
 * reach them from OVS's lib/ (which is), so that this works whether or not
 * the OVS build directory is its source directory. */
#include "../ovsdb/jsonrpc-server.h"
#include "../ovsdb/ovsdb.h"
#include "../ovsdb/storage.h"

/* ---- Comparator order (pure) ------------------------------------------ */

/* The three-way sign of 'x'. */
static int
sign(int x)
{
    return (x > 0) - (x < 0);
}

/* Asserts that fib_prefix_compare_text(a, b) and fib_prefix_compare() of
 * their binary forms both have sign 'expected', and that swapping the
 * operands flips it. */
static void
check_order(const char *a, const char *b, int expected)
{
    struct fib_prefix pa, pb;

    ck_assert_int_eq(fib_prefix_parse__(a, true, &pa), FIB_PREFIX_OK);
    ck_assert_int_eq(fib_prefix_parse__(b, true, &pb), FIB_PREFIX_OK);
    ck_assert_msg(sign(fib_prefix_compare_text(a, b)) == expected,
                  "text %s vs %s: expected %d", a, b, expected);
    ck_assert_msg(sign(fib_prefix_compare_text(b, a)) == -expected,
                  "text %s vs %s: expected %d", b, a, -expected);
    ck_assert_msg(sign(fib_prefix_compare(&pa, &pb)) == expected,
                  "binary %s vs %s: expected %d", a, b, expected);
    ck_assert_msg(sign(fib_prefix_compare(&pb, &pa)) == -expected,
                  "binary %s vs %s: expected %d", b, a, -expected);
}

START_TEST(test_comparator_order)
{
    /* Numbers, not text: "10.0.0.0/8" < "9.0.0.0/8" as strings, but not
     * as prefixes. */
    ck_assert_int_lt(strcmp("10.0.0.0/8", "9.0.0.0/8"), 0);
    check_order("10.0.0.0/8", "9.0.0.0/8", 1);
    check_order("9.255.255.255/32", "10.0.0.0/8", -1);
    check_order("10.2.0.0/16", "10.10.0.0/16", -1);
    check_order("192.168.0.0/16", "20.0.0.0/8", 1);

    /* Every IPv4 prefix before every IPv6 one. */
    check_order("255.255.255.255/32", "::/0", -1);
    check_order("0.0.0.0/0", "::/0", -1);
    check_order("::/0", "0.0.0.0/0", 1);
    check_order("::ffff:10.0.0.0/104", "10.0.0.0/8", 1);

    /* Equal addresses: the shorter prefix first. */
    check_order("10.0.0.0/8", "10.0.0.0/16", -1);
    check_order("10.0.0.0/24", "10.0.0.0/16", 1);
    check_order("0.0.0.0/0", "0.0.0.0/1", -1);
    check_order("2001:db8::/32", "2001:db8::/48", -1);

    /* IPv6 numerically. */
    check_order("2001:db8:a::/48", "2001:db8:9::/48", 1);
    check_order("fe80::/10", "2001:db8::/32", 1);

    /* Equal. */
    check_order("10.1.0.0/16", "10.1.0.0/16", 0);
    check_order("2001:db8::/32", "2001:db8::/32", 0);

    /* Invalid text sorts after every prefix, by text. */
    ck_assert_int_gt(fib_prefix_compare_text("garbage", "::/0"), 0);
    ck_assert_int_lt(fib_prefix_compare_text("abc", "abd"), 0);
}
END_TEST

/* ---- An in-process server and a replica ------------------------------- */

/* A database server in this process, and an IDL connected to it. */
struct env {
    char *dir;                  /* Temporary directory for the socket. */
    char *remote;               /* "unix:DIR/db.sock". */
    struct ovsdb *db;           /* The Fibsync database, in memory. */
    struct ovsdb_jsonrpc_server *server; /* Serves 'db' on 'remote'. */
    struct ovsdb_idl *idl;      /* Replica of every table. */
    struct route_index *ri;     /* Route index of 'idl'. */
};

/* Finds schema/fibsync.ovsschema from where the tests may run. */
static char *
find_schema(void)
{
    const char *srcdir = getenv("srcdir");
    char *here = dir_name(__FILE__);
    char *candidates[] = {
        srcdir ? xasprintf("%s/schema/fibsync.ovsschema", srcdir) : NULL,
        xasprintf("schema/fibsync.ovsschema"),
        xasprintf("../schema/fibsync.ovsschema"),
        xasprintf("%s/../../schema/fibsync.ovsschema", here),
    };
    char *found = NULL;

    for (size_t i = 0; i < ARRAY_SIZE(candidates); i++) {
        if (!found && candidates[i] && !access(candidates[i], R_OK)) {
            found = candidates[i];
        } else {
            free(candidates[i]);
        }
    }
    free(here);
    ck_assert_msg(found, "schema/fibsync.ovsschema not found (set srcdir)");
    return found;
}

/* Runs the server and the IDL once, then blocks. */
static void
env_run_and_block(struct env *env)
{
    ovsdb_jsonrpc_server_run(env->server);
    ovsdb_idl_run(env->idl);
    ovsdb_jsonrpc_server_wait(env->server);
    ovsdb_idl_wait(env->idl);
    poll_timer_wait(100);
    poll_block();
}

/* Starts the server and an IDL with a route index of comparator 'cmp'. */
static void
env_init(struct env *env, enum route_index_cmp cmp)
{
    char template[] = "/tmp/test-route-index.XXXXXX";
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;
    struct shash remotes;
    char *schema_file = find_schema();
    char *target;

    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    memset(env, 0, sizeof *env);
    ck_assert(mkdtemp(template));
    env->dir = xstrdup(template);
    env->remote = xasprintf("unix:%s/db.sock", env->dir);

    error = ovsdb_schema_from_file(schema_file, &schema);
    ck_assert_msg(!error, "%s", error ? ovsdb_error_to_string(error) : "");
    free(schema_file);
    env->db = ovsdb_create(schema, ovsdb_storage_create_unbacked(NULL));
    env->server = ovsdb_jsonrpc_server_create(false);
    ck_assert(ovsdb_jsonrpc_server_add_db(env->server, env->db));
    target = xasprintf("punix:%s/db.sock", env->dir);
    shash_init(&remotes);
    shash_add(&remotes, target, ovsdb_jsonrpc_default_options(target));
    ovsdb_jsonrpc_server_set_remotes(env->server, &remotes);
    shash_destroy_free_data(&remotes);
    free(target);

    env->idl = ovsdb_idl_create(env->remote, &fibrec_idl_class, true, true);
    ovsdb_idl_set_probe_interval(env->idl, 0);
    env->ri = route_index_create_cmp(env->idl, cmp);
    while (!ovsdb_idl_has_ever_connected(env->idl)) {
        env_run_and_block(env);
    }
}

static void
env_destroy(struct env *env)
{
    ovsdb_idl_destroy(env->idl);
    route_index_destroy(env->ri);
    ovsdb_jsonrpc_server_destroy(env->server);
    ovsdb_destroy(env->db);
    char *sock = xasprintf("%s/db.sock", env->dir);
    unlink(sock);
    free(sock);
    rmdir(env->dir);
    free(env->dir);
    free(env->remote);
}

/* Commits 'txn', serving it meanwhile, and asserts success. */
static void
env_commit(struct env *env, struct ovsdb_idl_txn *txn)
{
    enum ovsdb_idl_txn_status status;

    while ((status = ovsdb_idl_txn_commit(txn)) == TXN_INCOMPLETE) {
        ovsdb_jsonrpc_server_run(env->server);
        ovsdb_idl_run(env->idl);
        ovsdb_jsonrpc_server_wait(env->server);
        ovsdb_idl_wait(env->idl);
        ovsdb_idl_txn_wait(txn);
        poll_block();
    }
    ck_assert_msg(status == TXN_SUCCESS, "commit: %s (%s)",
                  ovsdb_idl_txn_status_to_string(status),
                  ovsdb_idl_txn_get_error(txn));
    ovsdb_idl_txn_destroy(txn);
}

/* Runs until the route index holds 'n' routes. */
static void
env_sync(struct env *env, size_t n)
{
    while (route_index_count(env->ri) != n) {
        env_run_and_block(env);
    }
}

/* ---- A reference table and random routes ------------------------------ */

/* A route as the test knows it. */
struct ref_route {
    const char *vrf;            /* "default" or "blue". */
    struct fib_prefix prefix;   /* Its prefix. */
    const char *protocol;       /* One of 'protocols'. */
    const char *nexthops[2];    /* One or two of 'nexthops', or none. */
    size_t n_nexthops;          /* How many. */
    int64_t nhg;                /* Next-hop group 1...3, or 0 for none. */
    bool deleted;               /* Deleted from the database. */
};

static const char *const protocols[] = { "bgp", "ospf", "static" };
static const char *const nexthops[] = {
    "10.0.0.1@eth0", "10.0.0.2@eth1", "10.0.0.3@eth2", "fe80::1@eth0",
};

/* Returns a random prefix, IPv6 one time in five, lengths spread like a
 * routing table's (mostly /8 to /24), often inside 10.0.0.0/8 or
 * 2001:db8::/32 so that routes nest. */
static struct fib_prefix
random_prefix(void)
{
    struct fib_prefix p;
    uint8_t addr[16];

    random_bytes(addr, sizeof addr);
    if (random_range(5)) {
        unsigned int len = (random_range(10) ? 8 + random_range(17)
                            : random_range(33));

        if (random_range(2)) {
            addr[0] = 10;
        }
        fib_prefix_init(&p, AF_INET, addr, len);
    } else {
        unsigned int len = (random_range(10) ? 32 + random_range(33)
                            : random_range(129));

        addr[0] = 0x20;
        addr[1] = 0x01;
        if (random_range(2)) {
            addr[2] = 0x0d;
            addr[3] = 0xb8;
        }
        fib_prefix_init(&p, AF_INET6, addr, len);
    }
    return p;
}

/* Returns a random host address, inside a random route of 'refs' three
 * times in four. */
static struct fib_prefix
random_address(const struct ref_route *refs, size_t n)
{
    struct fib_prefix a = random_prefix();
    uint8_t bytes[16];

    if (random_range(4)) {
        const struct fib_prefix *p = &refs[random_range(n)].prefix;
        unsigned int max = fib_prefix_max_len(p->family);

        random_bytes(bytes, sizeof bytes);
        for (unsigned int bit = 0; bit < p->len; bit++) {
            uint8_t mask = 0x80 >> (bit % 8);
            bytes[bit / 8] = ((bytes[bit / 8] & ~mask)
                              | (p->addr[bit / 8] & mask));
        }
        fib_prefix_init(&a, p->family, bytes, max);
    } else {
        fib_prefix_init(&a, a.family, a.addr, fib_prefix_max_len(a.family));
    }
    return a;
}

/* Brute force: the live route of 'vrf' with the longest prefix containing
 * 'addr', or NULL. */
static const struct ref_route *
ref_lpm(const struct ref_route *refs, size_t n, const char *vrf,
        const struct fib_prefix *addr)
{
    const struct ref_route *best = NULL;

    for (size_t i = 0; i < n; i++) {
        const struct ref_route *r = &refs[i];

        if (!r->deleted && !strcmp(r->vrf, vrf)
            && fib_prefix_contains(&r->prefix, addr)
            && (!best || r->prefix.len > best->prefix.len)) {
            best = r;
        }
    }
    return best;
}

/* Makes 'n' distinct random routes. */
static struct ref_route *
make_routes(size_t n)
{
    struct ref_route *refs = xcalloc(n, sizeof *refs);
    struct hmap seen = HMAP_INITIALIZER(&seen);
    struct seen_node {
        struct hmap_node node;
        const struct ref_route *r;
    } *nodes = xcalloc(n, sizeof *nodes);

    for (size_t i = 0; i < n; ) {
        struct ref_route *r = &refs[i];
        bool dup = false;
        uint32_t hash;

        r->vrf = random_range(8) ? "default" : "blue";
        r->prefix = random_prefix();
        hash = fib_prefix_hash(&r->prefix, hash_string(r->vrf, 0));
        struct seen_node *s;
        HMAP_FOR_EACH_WITH_HASH (s, node, hash, &seen) {
            dup = dup || (!strcmp(s->r->vrf, r->vrf)
                          && fib_prefix_equals(&s->r->prefix, &r->prefix));
        }
        if (dup) {
            continue;
        }
        nodes[i].r = r;
        hmap_insert(&seen, &nodes[i].node, hash);
        r->protocol = protocols[random_range(ARRAY_SIZE(protocols))];
        r->n_nexthops = random_range(3);
        for (size_t j = 0; j < r->n_nexthops; j++) {
            r->nexthops[j] = nexthops[(i + j) % ARRAY_SIZE(nexthops)];
        }
        r->nhg = random_range(4);
        i++;
    }
    hmap_destroy(&seen);
    free(nodes);
    return refs;
}

/* Inserts 'refs' through the IDL, in one transaction. */
static void
insert_routes(struct env *env, const struct ref_route *refs, size_t n)
{
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(env->idl);

    for (size_t i = 0; i < n; i++) {
        const struct ref_route *r = &refs[i];
        struct fibrec_route *route = fibrec_route_insert(txn);
        char buf[FIB_PREFIX_STRLEN];
        int64_t weights[2] = { 1, 1 };

        fib_prefix_format(&r->prefix, buf);
        fibrec_route_set_vrf(route, r->vrf);
        fibrec_route_set_prefix(route, buf);
        fibrec_route_set_protocol(route, r->protocol);
        fibrec_route_set_blackhole(route, !r->n_nexthops);
        fibrec_route_set_nexthops(route, (const char **) r->nexthops,
                                  weights, r->n_nexthops);
        fibrec_route_set_nexthop_group(route, &r->nhg, r->nhg != 0);
    }
    env_commit(env, txn);
}

/* Returns the route of 'ref' in the replica, or NULL. */
static const struct fibrec_route *
find(struct env *env, const struct ref_route *ref)
{
    return route_index_find(env->ri, ref->vrf, &ref->prefix);
}

/* Asserts that the replica's route 'route' is 'ref' (or both are NULL). */
static void
assert_same(const struct fibrec_route *route, const struct ref_route *ref,
            const struct fib_prefix *addr)
{
    char buf[FIB_PREFIX_STRLEN], want[FIB_PREFIX_STRLEN];

    fib_prefix_format(addr, buf);
    if (ref) {
        fib_prefix_format(&ref->prefix, want);
    }
    ck_assert_msg(!route == !ref, "LPM of %s: got %s, want %s", buf,
                  route ? route->prefix : "none", ref ? want : "none");
    if (ref) {
        ck_assert_msg(!strcmp(route->vrf, ref->vrf)
                      && !strcmp(route->prefix, want),
                      "LPM of %s: got %s %s, want %s %s", buf, route->vrf,
                      route->prefix, ref->vrf, want);
    }
}

/* Compares each next-hop group's users with brute force over 'refs'. */
static void
check_nhg_users(struct env *env, const struct ref_route *refs, size_t n)
{
    for (int64_t g = 0; g <= 4; g++) {
        const struct fibrec_route *const *users;
        size_t want = 0, got = 0, n_users;

        for (size_t i = 0; i < n; i++) {
            want += !refs[i].deleted && refs[i].nhg && refs[i].nhg == g;
        }
        users = route_index_nhg_users(env->ri, g, &n_users);
        for (size_t i = 0; i < n_users; i++) {
            if (users[i]->header_.old_datum) {
                ck_assert_uint_eq(users[i]->n_nexthop_group, 1);
                ck_assert_int_eq(users[i]->nexthop_group[0], g);
                got++;
            }
        }
        ck_assert_uint_eq(got, want);
    }
}

/* Compares every query the index answers with brute force over 'refs'. */
static void
check_against_reference(struct env *env, const struct ref_route *refs,
                        size_t n, size_t n_queries)
{
    struct route_index_cursor cursor;
    const struct fibrec_route *route, *prev;
    size_t n_live = 0;

    /* Exact lookups. */
    for (size_t i = 0; i < n; i++) {
        route = find(env, &refs[i]);
        ck_assert_msg(!route == refs[i].deleted, "find %s", refs[i].vrf);
        if (route) {
            ck_assert_str_eq(route->vrf, refs[i].vrf);
            ck_assert_str_eq(route->protocol, refs[i].protocol);
            ck_assert(fib_prefix_equals(route_index_route_prefix(route),
                                        &refs[i].prefix));
            n_live++;
        }
    }
    ck_assert_uint_eq(route_index_count(env->ri), n_live);
    check_nhg_users(env, refs, n);

    /* Longest-prefix match, with and without skipping lengths. */
    for (size_t i = 0; i < n_queries; i++) {
        struct fib_prefix addr = random_address(refs, n);
        const char *vrf = random_range(4) ? "default" : "blue";
        const struct ref_route *want = ref_lpm(refs, n, vrf, &addr);

        assert_same(route_index_lpm(env->ri, vrf, &addr), want, &addr);
        if (i % 8 == 0) {
            assert_same(route_index_lpm_all_lengths(env->ri, vrf, &addr),
                        want, &addr);
        }
    }

    /* The whole walk is in (vrf, prefix) order and has every route. */
    size_t n_walked = 0;
    prev = NULL;
    ROUTE_INDEX_FOR_EACH (route, &cursor, env->ri) {
        if (prev) {
            int c = strcmp(prev->vrf, route->vrf);
            ck_assert_int_le(c, 0);
            if (!c) {
                ck_assert_int_lt(
                    fib_prefix_compare(route_index_route_prefix(prev),
                                       route_index_route_prefix(route)), 0);
            }
        }
        prev = route;
        n_walked++;
    }
    ck_assert_uint_eq(n_walked, n_live);

    /* Per VRF, per protocol, per next hop and "longer-prefixes" walks
     * have exactly the routes brute force finds. */
    static const char *const vrfs[] = { "default", "blue", "red" };
    for (size_t v = 0; v < ARRAY_SIZE(vrfs); v++) {
        size_t want = 0, got = 0;

        for (size_t i = 0; i < n; i++) {
            want += !refs[i].deleted && !strcmp(refs[i].vrf, vrfs[v]);
        }
        ROUTE_INDEX_FOR_EACH_VRF (route, &cursor, env->ri, vrfs[v]) {
            ck_assert_str_eq(route->vrf, vrfs[v]);
            got++;
        }
        ck_assert_uint_eq(got, want);

        for (size_t p = 0; p < ARRAY_SIZE(protocols); p++) {
            want = got = 0;
            for (size_t i = 0; i < n; i++) {
                want += (!refs[i].deleted && !strcmp(refs[i].vrf, vrfs[v])
                         && !strcmp(refs[i].protocol, protocols[p]));
            }
            ROUTE_INDEX_FOR_EACH_PROTOCOL (route, &cursor, env->ri,
                                           protocols[p], vrfs[v]) {
                ck_assert_str_eq(route->vrf, vrfs[v]);
                ck_assert_str_eq(route->protocol, protocols[p]);
                got++;
            }
            ck_assert_uint_eq(got, want);
        }
    }
    for (size_t h = 0; h < ARRAY_SIZE(nexthops); h++) {
        size_t want = 0, got = 0;

        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < refs[i].n_nexthops; j++) {
                want += (!refs[i].deleted
                         && !strcmp(refs[i].nexthops[j], nexthops[h]));
            }
        }
        prev = NULL;
        ROUTE_INDEX_FOR_EACH_NEXTHOP (route, &cursor, env->ri,
                                      nexthops[h]) {
            if (prev) {
                ck_assert_int_le(
                    fib_prefix_compare(route_index_route_prefix(prev),
                                       route_index_route_prefix(route)), 0);
            }
            prev = route;
            got++;
        }
        ck_assert_uint_eq(got, want);
    }
    for (size_t k = 0; k < 50; k++) {
        const struct ref_route *outer = &refs[random_range(n)];
        size_t want = 0, got = 0;

        for (size_t i = 0; i < n; i++) {
            want += (!refs[i].deleted && !strcmp(refs[i].vrf, outer->vrf)
                     && fib_prefix_contains(&outer->prefix,
                                            &refs[i].prefix));
        }
        ROUTE_INDEX_FOR_EACH_LONGER (route, &cursor, env->ri, outer->vrf,
                                     &outer->prefix) {
            ck_assert(fib_prefix_contains(&outer->prefix,
                                          route_index_route_prefix(route)));
            got++;
        }
        ck_assert_uint_eq(got, want);
    }
}

/* ---- Index tests ------------------------------------------------------ */

/* The index walks in numeric order, whatever the insertion order. */
START_TEST(test_index_order)
{
    static const char *const sorted[] = {
        "0.0.0.0/0", "9.0.0.0/8", "10.0.0.0/8", "10.0.0.0/16",
        "10.0.0.0/24", "10.2.0.0/16", "10.10.0.0/16", "192.168.1.0/24",
        "::/0", "2001:db8::/32", "2001:db8::/48", "2001:db8:9::/48",
        "2001:db8:a::/48", "fe80::/10",
    };
    const size_t n = ARRAY_SIZE(sorted);
    size_t order[ARRAY_SIZE(sorted)];
    struct route_index_cursor cursor;
    const struct fibrec_route *route;
    struct env env;

    env_init(&env, _i ? ROUTE_INDEX_CMP_TEXT : ROUTE_INDEX_CMP_BINARY);
    for (size_t i = 0; i < n; i++) {
        order[i] = n - 1 - i;
    }
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(env.idl);
    for (size_t i = 0; i < n; i++) {
        struct fibrec_route *r = fibrec_route_insert(txn);
        fibrec_route_set_vrf(r, "default");
        fibrec_route_set_prefix(r, sorted[order[i]]);
        fibrec_route_set_protocol(r, "static");
    }
    env_commit(&env, txn);
    env_sync(&env, n);

    size_t i = 0;
    ROUTE_INDEX_FOR_EACH_VRF (route, &cursor, env.ri, "default") {
        ck_assert_uint_lt(i, n);
        ck_assert_str_eq(route->prefix, sorted[i]);
        i++;
    }
    ck_assert_uint_eq(i, n);

    /* 10.0.0.0/8 < 9.0.0.0/8 is false in the index too. */
    struct fib_prefix p;
    ck_assert(!fib_prefix_parse("10.0.0.0/8", &p));
    const struct fibrec_route *ten = route_index_find(env.ri, "default", &p);
    ck_assert(!fib_prefix_parse("9.0.0.0/8", &p));
    const struct fibrec_route *nine = route_index_find(env.ri, "default",
                                                       &p);
    ck_assert(ten && nine);
    ck_assert_int_gt(route_index_cmp_prefix(ten, nine), 0);
    ck_assert_int_lt(route_index_cmp_prefix(nine, ten), 0);
    ck_assert_int_eq(route_index_cmp_prefix(ten, ten), 0);
    env_destroy(&env);
}
END_TEST

/* LPM and walks against brute force over a few thousand random routes in
 * a real replica, then after deleting a third of them and changing next
 * hops of others. */
START_TEST(test_index_vs_brute_force)
{
    const size_t n = 3000;
    struct ref_route *refs;
    struct env env;

    random_set_seed(0x5eed + _i);
    env_init(&env, _i ? ROUTE_INDEX_CMP_TEXT : ROUTE_INDEX_CMP_BINARY);
    refs = make_routes(n);
    insert_routes(&env, refs, n);
    env_sync(&env, n);
    check_against_reference(&env, refs, n, 5000);

    /* Delete a third, move the next hops of another third. */
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(env.idl);
    size_t n_live = n;
    for (size_t i = 0; i < n; i++) {
        const struct fibrec_route *route = find(&env, &refs[i]);

        ck_assert(route);
        if (i % 3 == 0) {
            fibrec_route_delete(route);
            refs[i].deleted = true;
            n_live--;
        } else if (i % 3 == 1) {
            int64_t weight = 1;

            refs[i].n_nexthops = 1;
            refs[i].nexthops[0] = nexthops[3];
            fibrec_route_set_nexthops(route, (const char **) refs[i].nexthops,
                                      &weight, 1);
            refs[i].nhg = (refs[i].nhg + 1) % 4;
            fibrec_route_set_nexthop_group(route, &refs[i].nhg,
                                           refs[i].nhg != 0);
        }
    }
    env_commit(&env, txn);
    env_sync(&env, n_live);
    /* The last change may still be on its way: run until the next-hop
     * counts match too. */
    for (;;) {
        size_t want = 0;
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < refs[i].n_nexthops; j++) {
                want += (!refs[i].deleted
                         && !strcmp(refs[i].nexthops[j], nexthops[3]));
            }
        }
        if (route_index_count_nexthop(env.ri, nexthops[3]) == want) {
            break;
        }
        env_run_and_block(&env);
    }
    check_against_reference(&env, refs, n, 5000);

    free(refs);
    env_destroy(&env);
}
END_TEST

/* Without ordered indexes (ROUTE_INDEX_CMP_NONE), the route index still
 * follows each next-hop group's users, through deletions and changes, and
 * keeps no next-hop structure. */
START_TEST(test_index_nhg_users_only)
{
    const size_t n = 500;
    const struct fibrec_route *route;
    struct ref_route *refs;
    struct env env;
    size_t n_live = n;

    random_set_seed(0x9e1);
    env_init(&env, ROUTE_INDEX_CMP_NONE);
    refs = make_routes(n);
    insert_routes(&env, refs, n);
    env_sync(&env, n);
    check_nhg_users(&env, refs, n);
    ck_assert_uint_eq(route_index_n_nexthops(env.ri), 0);

    /* Delete every third route, move every other one to the next group.
     * Without lookups, the test finds its routes by scanning. */
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(env.idl);
    FIBREC_ROUTE_FOR_EACH (route, env.idl) {
        struct fib_prefix p;
        size_t i;

        ck_assert(!fib_prefix_parse(route->prefix, &p));
        for (i = 0; i < n; i++) {
            if (!strcmp(refs[i].vrf, route->vrf)
                && fib_prefix_equals(&refs[i].prefix, &p)) {
                break;
            }
        }
        ck_assert_uint_lt(i, n);
        if (i % 3 == 0) {
            fibrec_route_delete(route);
            refs[i].deleted = true;
            n_live--;
        } else if (i % 2) {
            refs[i].nhg = (refs[i].nhg + 1) % 4;
            fibrec_route_set_nexthop_group(route, &refs[i].nhg,
                                           refs[i].nhg != 0);
        }
    }
    env_commit(&env, txn);
    env_sync(&env, n_live);
    check_nhg_users(&env, refs, n);

    free(refs);
    env_destroy(&env);
}
END_TEST

/* The route index survives its IDL, and the IDL its route index. */
START_TEST(test_index_lifetimes)
{
    struct ref_route *refs = make_routes(100);
    struct env env;

    env_init(&env, ROUTE_INDEX_CMP_BINARY);
    insert_routes(&env, refs, 100);
    env_sync(&env, 100);
    ck_assert_uint_gt(route_index_n_nexthops(env.ri), 0);

    /* Index first: the IDL's rows are detached, and its OVS indexes keep
     * working with text comparisons of VRF names. */
    route_index_destroy(env.ri);
    env.ri = NULL;
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(env.idl);
    fibrec_route_delete(fibrec_route_first(env.idl));
    env_commit(&env, txn);
    for (int i = 0; i < 10; i++) {
        poll_immediate_wake();
        env_run_and_block(&env);
    }
    ovsdb_idl_destroy(env.idl);
    env.idl = ovsdb_idl_create(env.remote, &fibrec_idl_class, true, true);
    env.ri = route_index_create(env.idl);
    env_sync(&env, 99);
    free(refs);
    env_destroy(&env);          /* IDL first, then the index. */
}
END_TEST

Suite *
route_index_suite(void)
{
    Suite *s = suite_create("route_index");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_comparator_order);
    /* Loop 0: binary comparators; loop 1: text comparators. */
    tcase_add_loop_test(tc, test_index_order, 0, 2);
    tcase_add_loop_test(tc, test_index_vs_brute_force, 0, 2);
    tcase_add_test(tc, test_index_nhg_users_only);
    tcase_add_test(tc, test_index_lifetimes);
    suite_add_tcase(s, tc);
    return s;
}
