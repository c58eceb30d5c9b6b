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

/* Check suite for daemons/fpmsyncd/fpmsyncd-rib: captured zebra streams in, OVSDB
 * operations out, against a small in-memory stand-in for ovsdb-server
 * that applies them the way the server would. */

#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemons/fpmsyncd/fpmsyncd-nexthop.h"
#include "daemons/fpmsyncd/fpmsyncd-offload.h"
#include "daemons/fpmsyncd/fpmsyncd-rib.h"
#include "daemons/fpmsyncd/fpmsyncd-status.h"
#include "daemons/fpmsyncd/fpmsyncd-txn.h"
#include "lib/fpm-frame.h"
#include "lib/fpm-route.h"
#include "lib/ovsdb-select-scanner.h"
#include "lib/ovsdb-writer.h"
#include "lib/route-batch.h"
#include "lib/route-key.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/shash.h"
#include "tests/check/fpm-test-util.h"
#include "tests/check/suites.h"
#include "util.h"
#include "uuid.h"

/* Interface names that do not depend on the host. */
static const char *
test_ifname(uint32_t ifindex, char *buf, size_t size)
{
    snprintf(buf, size, "eth%u", ifindex);
    return buf;
}

static void
rib_cb(const struct fpm_msg *msg, int error,
       const struct nlmsghdr *nlh OVS_UNUSED, void *rib_)
{
    struct fpmd_rib *rib = rib_;

    ck_assert_int_eq(error, 0);
    if (msg->kind == FPM_MSG_ROUTE) {
        fpmd_rib_route(rib, &msg->route);
    } else if (msg->kind == FPM_MSG_NEXTHOP) {
        fpmd_nh_input(rib, &msg->nexthop);
    }
}

/* Feeds frames [first, last) of capture 'name' (last 0: all) to 'rib'. */
static void
feed(struct fpmd_rib *rib, const char *name, size_t first, size_t last)
{
    struct fpm_splitter s;
    struct fpm_frame f;
    struct fpm_msg msg;
    struct ofpbuf b;
    size_t i = 0;

    ofpbuf_init(&b, 0);
    fpm_test_load_data(name, &b);
    fpm_splitter_init(&s, 0);
    fpm_msg_init(&msg);
    fpm_splitter_feed(&s, b.data, b.size);
    while (!fpm_splitter_next(&s, &f)) {
        if (i >= first && (!last || i < last)) {
            fpm_route_parse_frame(f.data, f.size, &msg, NULL, rib_cb, rib);
        }
        i++;
    }
    fpm_msg_destroy(&msg);
    fpm_splitter_destroy(&s);
    ofpbuf_uninit(&b);
}

/* The stand-in database: table name -> (uuid string -> row object). */
struct fake_db {
    struct shash tables;        /* Each a 'struct shash *' of rows. */
    size_t n_txns;              /* Transactions applied. */
    size_t n_ops;               /* Operations applied. */
    size_t n_insert, n_update, n_delete; /* By type. */
    size_t n_mutate;            /* Mutates (of Route.status), not applied. */
};

static struct shash *
fake_table(struct fake_db *db, const char *name)
{
    struct shash *t = shash_find_data(&db->tables, name);

    if (!t) {
        t = xmalloc(sizeof *t);
        shash_init(t);
        shash_add(&db->tables, name, t);
    }
    return t;
}

static void
fake_init(struct fake_db *db)
{
    memset(db, 0, sizeof *db);
    shash_init(&db->tables);
}

static void
fake_destroy(struct fake_db *db)
{
    struct shash_node *t, *r;

    SHASH_FOR_EACH (t, &db->tables) {
        struct shash *rows = t->data;

        SHASH_FOR_EACH (r, rows) {
            json_destroy(r->data);
        }
        shash_destroy(rows);
        free(rows);
    }
    shash_destroy(&db->tables);
}

/* Returns the uuid string in a where clause [["_uuid","==",["uuid",U]]]. */
static const char *
where_uuid(const struct json *op)
{
    const struct json *w = shash_find_data(json_object(op), "where");
    const struct json *clause = json_array(w)->elems[0];
    const struct json *value = json_array(clause)->elems[2];

    ck_assert_str_eq(json_string(json_array(clause)->elems[0]), "_uuid");
    return json_string(json_array(value)->elems[1]);
}

/* Applies the "transact" 'params' to 'db' and returns the result array,
 * as ovsdb-server would. */
static struct json *
fake_transact(struct fake_db *db, const struct json *params)
{
    const struct json_array *ops = json_array(params);
    struct json *result = json_array_create_empty();

    ck_assert_str_eq(json_string(ops->elems[0]), "Fibsync");
    db->n_txns++;
    for (size_t i = 1; i < ops->n; i++) {
        const struct json *op = ops->elems[i];
        const char *type = json_string(shash_find_data(json_object(op),
                                                       "op"));
        const char *table = json_string(shash_find_data(json_object(op),
                                                        "table"));
        struct shash *rows = fake_table(db, table);
        struct json *r = json_object_create();

        db->n_ops++;
        if (!strcmp(type, "insert")) {
            const char *u = json_string(shash_find_data(json_object(op),
                                                        "uuid"));
            const struct json *row = shash_find_data(json_object(op), "row");

            ck_assert_msg(!shash_find(rows, u), "duplicate uuid %s", u);
            shash_add(rows, u, json_clone(row));
            json_object_put(r, "uuid", json_array_create_2(
                                json_string_create("uuid"),
                                json_string_create(u)));
            db->n_insert++;
        } else if (!strcmp(type, "update")) {
            struct json *old = shash_find_data(rows, where_uuid(op));
            const struct json *row = shash_find_data(json_object(op), "row");
            struct shash_node *c;

            if (old) {
                SHASH_FOR_EACH (c, json_object(row)) {
                    json_object_put(old, c->name, json_clone(c->data));
                }
            }
            json_object_put(r, "count", json_integer_create(old ? 1 : 0));
            db->n_update++;
        } else if (!strcmp(type, "delete")) {
            struct json *old = shash_find_and_delete(rows, where_uuid(op));

            json_object_put(r, "count", json_integer_create(old ? 1 : 0));
            json_destroy(old);
            db->n_delete++;
        } else if (!strcmp(type, "mutate")) {
            json_object_put(r, "count", json_integer_create(
                                shash_find(rows, where_uuid(op)) ? 1 : 0));
            db->n_mutate++;
        } else {
            ck_abort_msg("unexpected op %s", type);
        }
        json_array_add(result, r);
    }
    return result;
}

/* Takes up to 'max' of 'rib''s queued writes as one transaction, as
 * fpmsyncd-db.c does but without a writer: returns the transaction, or
 * NULL if there was nothing to write, and stores its "transact" params,
 * parsed, in '*params'. */
static struct route_batch_txn *
take(struct fpmd_rib *rib, size_t max, struct json **params)
{
    struct route_batch_txn *txn;
    struct ds ops;

    ds_init(&ops);
    ds_put_cstr(&ops, "[\"Fibsync\"");
    txn = fpmd_txn_build(rib, max, &ops);
    ds_put_char(&ops, ']');
    *params = txn ? json_from_string(ds_cstr(&ops)) : NULL;
    ck_assert_msg(!txn || (*params)->type == JSON_ARRAY, "bad JSON: %s",
                  ds_cstr(&ops));
    ds_destroy(&ops);
    return txn;
}

/* Applies 'txn', taken by take() with 'params' (which it frees), to 'db'
 * and completes it. */
static void
commit(struct fpmd_rib *rib, struct fake_db *db, struct route_batch_txn *txn,
       struct json *params)
{
    struct json *result = fake_transact(db, params);
    struct ds errors = DS_EMPTY_INITIALIZER;
    struct ovsdb_writer_reply reply = {
        .result = OVSDB_WRITER_SUCCESS,
        .results = result,
        .failed_op = SIZE_MAX,
        .n_ops = txn->n_ops,
    };

    ck_assert(fpmd_txn_reply(rib, txn, &reply, &errors));
    ds_destroy(&errors);
    json_destroy(result);
    json_destroy(params);
}

/* Writes everything 'rib' has queued into 'db'.  Returns the number of
 * transactions. */
static size_t
flush(struct fpmd_rib *rib, struct fake_db *db, size_t max)
{
    size_t n = 0;

    for (;;) {
        struct json *params;
        struct route_batch_txn *txn = take(rib, max, &params);

        if (!txn) {
            return n;
        }
        commit(rib, db, txn, params);
        n++;
    }
}

/* Returns the load's rows from 'db', as one reply of two selects
 * (Nexthop_Group, Route): every row, with
 * "_uuid" and the default value of each column it lacks. */
static struct json *
fake_load(struct fake_db *db)
{
    static const char *tables[] = { "Nexthop_Group", "Route" };
    struct json *result = json_array_create_empty();

    for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
        struct shash *rows = fake_table(db, tables[i]);
        struct json *array = json_array_create_empty();
        struct shash_node *r;

        SHASH_FOR_EACH (r, rows) {
            struct json *row = json_clone(r->data);

            json_object_put(row, "_uuid", json_array_create_2(
                                json_string_create("uuid"),
                                json_string_create(r->name)));
            if (!strcmp(tables[i], "Route")) {
                static const char *opt[] = { "metric", "nexthop_group" };

                for (size_t j = 0; j < ARRAY_SIZE(opt); j++) {
                    if (!shash_find(json_object(row), opt[j])) {
                        json_object_put(row, opt[j], json_array_create_2(
                                            json_string_create("set"),
                                            json_array_create_empty()));
                    }
                }
                if (!shash_find(json_object(row), "nexthops")) {
                    json_object_put(row, "nexthops", json_array_create_2(
                                        json_string_create("map"),
                                        json_array_create_empty()));
                }
                if (!shash_find(json_object(row), "blackhole")) {
                    json_object_put(row, "blackhole",
                                    json_boolean_create(false));
                }
            } else if (!shash_find(json_object(row), "members")) {
                json_object_put(row, "members", json_array_create_2(
                                    json_string_create("map"),
                                    json_array_create_empty()));
            }
            json_array_add(array, row);
        }
        struct json *sel = json_object_create();
        json_object_put(sel, "rows", array);
        json_array_add(result, sel);
    }
    return result;
}

/* Returns the "rows" array of select result 'r', or NULL. */
static const struct json_array *
select_rows(const struct json *r)
{
    const struct json *rows;

    if (!r || r->type != JSON_OBJECT) {
        return NULL;
    }
    rows = shash_find_data(json_object(r), "rows");
    return rows && rows->type == JSON_ARRAY ? json_array(rows) : NULL;
}

/* Loads 'result', fake_load()'s whole parsed reply, into
 * 'rib', row by row as fpmsyncd-db.c's reader does.  Returns NULL on
 * success, otherwise an error message. */
static char *
load_reply(struct fpmd_rib *rib, const struct json *result)
{
    const struct json_array *nhgs, *routes;

    if (!result || result->type != JSON_ARRAY || json_array(result)->n < 2
        || !(nhgs = select_rows(json_array(result)->elems[FPMD_LOAD_NHG]))
        || !(routes = select_rows(
                 json_array(result)->elems[FPMD_LOAD_ROUTE]))) {
        return xstrdup("bad reply to the initial select");
    }
    fpmd_rib_load_begin(rib);
    for (size_t i = 0; i < nhgs->n; i++) {
        fpmd_rib_load_row(rib, FPMD_LOAD_NHG, nhgs->elems[i]);
    }
    for (size_t i = 0; i < routes->n; i++) {
        fpmd_rib_load_row(rib, FPMD_LOAD_ROUTE, routes->elems[i]);
    }
    fpmd_rib_load_end(rib);
    return NULL;
}

/* Creates a rib and loads 'db' into it. */
static struct fpmd_rib *
rib_start(struct fake_db *db)
{
    struct fpmd_rib *rib = fpmd_rib_create(test_ifname);
    struct json *load;
    char *error;

    /* The rib's observers, as fpmsyncd's main attaches them. */
    fpmd_offload_attach(rib);
    fpmd_status_attach(rib);
    load = fake_load(db);
    error = load_reply(rib, load);

    ck_assert_ptr_null(error);
    json_destroy(load);
    ck_assert(fpmd_rib_is_loaded(rib));
    return rib;
}

/* Returns the Route row for ('vrf', 'prefix') in 'db', or NULL. */
static const struct json *
find_route(struct fake_db *db, const char *vrf, const char *prefix)
{
    struct shash *rows = fake_table(db, "Route");
    struct uuid u;
    char s[UUID_LEN + 1];

    route_key_route_uuid_text(vrf, prefix, &u);
    snprintf(s, sizeof s, UUID_FMT, UUID_ARGS(&u));
    return shash_find_data(rows, s);
}

/* Returns column 'col' of 'row' as compact JSON text ("" if absent). */
static char *
col(const struct json *row, const char *col)
{
    const struct json *j = shash_find_data(json_object(row), col);

    return j ? json_to_string(j, JSSF_SORT) : xstrdup("");
}

static void
check_col(const struct json *row, const char *column, const char *expected)
{
    char *s = col(row, column);

    ck_assert_msg(!strcmp(s, expected), "%s is %s, expected %s", column, s,
                  expected);
    free(s);
}

static size_t
n_rows(struct fake_db *db, const char *table)
{
    return shash_count(fake_table(db, table));
}

/* Hands 'rib' one route message: 'op' of 'dst' in the default VRF, via
 * 'gw' on ifindex 3 for an add. */
static void
route_msg(struct fpmd_rib *rib, enum fpm_op op, const char *dst,
          const char *gw)
{
    struct fpm_route r;

    fpm_route_init(&r);
    fpm_test_simple_route(&r, op, dst, gw, 3);
    fpmd_rib_route(rib, &r);
    fpm_route_destroy(&r);
}

/* zebra's table replay with next-hop groups: groups arrive before their
 * members, routes are written once their groups can be resolved. */
START_TEST(test_replay_group_first)
{
    struct fake_db db;
    struct fpmd_rib *rib;
    const struct json *r;

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    /* The first 3 frames: next hops 3 and 4, and group 22 whose members
     * are not known yet. */
    feed(rib, "zebra-nhg-replay.fpm", 0, 3);
    flush(rib, &db, 1000);
    ck_assert(!shash_find_data(fake_table(&db, "Nexthop_Group"),
                               "083c4c82-947a-5742-9263-768bd505e331"));
    feed(rib, "zebra-nhg-replay.fpm", 3, 0);
    flush(rib, &db, 1000);

    ck_assert_uint_eq(n_rows(&db, "Route"), 12);
    ck_assert_uint_eq(n_rows(&db, "Nexthop_Group"), 11);
    ck_assert_uint_eq(n_rows(&db, "Vrf"), 1);

    r = find_route(&db, "default", "10.1.0.0/24");
    ck_assert_ptr_nonnull(r);
    check_col(r, "vrf", "\"default\"");
    check_col(r, "protocol", "\"bgp\"");
    check_col(r, "metric", "20");
    check_col(r, "nexthop_group", "24");
    check_col(r, "nexthops",
              "[\"map\",[[\"192.168.1.2@eth3\",1],[\"192.168.1.3@eth3\",1]]]");

    r = find_route(&db, "default", "2001:db8:1::/48");
    ck_assert_ptr_nonnull(r);
    check_col(r, "nexthop_group", "22");
    check_col(r, "nexthops", "[\"map\",[[\"2001:db8:ffff::2@eth3\",1],"
              "[\"2001:db8:ffff::3@eth3\",1]]]");

    r = find_route(&db, "default", "10.99.0.0/24");
    check_col(r, "protocol", "\"static\"");
    check_col(r, "blackhole", "true");
    check_col(r, "nexthops", "");
    r = find_route(&db, "default", "10.98.0.0/24");
    check_col(r, "blackhole", "true");

    r = find_route(&db, "default", "192.168.1.0/24");
    check_col(r, "protocol", "\"connected\"");
    check_col(r, "nexthops", "[\"map\",[[\"@eth3\",1]]]");

    r = shash_find_data(fake_table(&db, "Nexthop_Group"),
                        "1cc9972f-fefe-5100-b2f4-6b6713b5acfa");
    ck_assert_ptr_nonnull(r);
    check_col(r, "id", "24");
    check_col(r, "members",
              "[\"map\",[[\"192.168.1.2@eth3\",1],[\"192.168.1.3@eth3\",1]]]");
    r = shash_find_data(fake_table(&db, "Vrf"),
                        "390c001d-05bf-52fa-9423-7e9fc28816cd");
    check_col(r, "name", "\"default\"");
    check_col(r, "table_id", "254");

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* Without next-hop groups: inline next hops, and a route replace (DEL and
 * NEW in one frame) is one update. */
START_TEST(test_inline_and_replace)
{
    struct fake_db db;
    struct fpmd_rib *rib;
    const struct json *r;

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-no-nhg.fpm", 0, 11);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(n_rows(&db, "Route"), 11);
    r = find_route(&db, "default", "10.1.0.0/24");
    check_col(r, "nexthops", "[\"map\",[[\"192.168.1.2@eth3\",1]]]");
    check_col(r, "nexthop_group", "");

    /* Frame 12: DEL + NEW of 10.1.0.0/24 with two paths. */
    db.n_update = db.n_insert = db.n_delete = 0;
    feed(rib, "zebra-no-nhg.fpm", 11, 12);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(db.n_update, 1);
    ck_assert_uint_eq(db.n_insert + db.n_delete, 0);
    r = find_route(&db, "default", "10.1.0.0/24");
    check_col(r, "nexthops",
              "[\"map\",[[\"192.168.1.2@eth3\",1],[\"192.168.1.3@eth3\",1]]]");

    /* The rest, which ends by withdrawing every BGP route.  The last
     * delete waits for an add that may follow, until zebra's input ends
     * (here, at once). */
    feed(rib, "zebra-no-nhg.fpm", 12, 0);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(n_rows(&db, "Route"), 7);
    fpmd_rib_release_del(rib);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(n_rows(&db, "Route"), 6);
    ck_assert_ptr_null(find_route(&db, "default", "10.1.0.0/24"));
    ck_assert_uint_eq(fpmd_rib_n_routes(rib), 6);

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* A delete that ends the input is deferred: nothing is written while it
 * waits; the add of the same route makes both one update; another route's
 * message or a release carries it out alone; a route that never reached
 * the database needs no wait. */
START_TEST(test_deferred_delete)
{
    const struct fpmd_rib_stats *st;
    struct fake_db db;
    struct fpmd_rib *rib;
    const struct json *r;

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    st = fpmd_rib_get_stats(rib);
    route_msg(rib, FPM_OP_ADD, "10.0.0.0/24", "192.0.2.1");
    route_msg(rib, FPM_OP_ADD, "10.0.1.0/24", "192.0.2.1");
    flush(rib, &db, 1000);
    ck_assert_uint_eq(n_rows(&db, "Route"), 2);

    /* A path change split in two: the delete waits, then merges. */
    route_msg(rib, FPM_OP_DEL, "10.0.0.0/24", NULL);
    ck_assert(fpmd_rib_rows_deferred(rib));
    ck_assert_ptr_nonnull(fpmd_rib_deferred_del(rib));
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);
    ck_assert_uint_eq(n_rows(&db, "Route"), 2);
    db.n_update = db.n_insert = db.n_delete = 0;
    route_msg(rib, FPM_OP_ADD, "10.0.0.0/24", "192.0.2.2");
    ck_assert_ptr_null(fpmd_rib_deferred_del(rib));
    flush(rib, &db, 1000);
    ck_assert_uint_eq(db.n_update, 1);
    ck_assert_uint_eq(db.n_insert + db.n_delete, 0);
    r = find_route(&db, "default", "10.0.0.0/24");
    check_col(r, "nexthops", "[\"map\",[[\"192.0.2.2@eth3\",1]]]");
    ck_assert_uint_eq(st->del_deferred, 1);
    ck_assert_uint_eq(st->del_merged, 1);

    /* A delete followed by another route's add is a withdrawal. */
    route_msg(rib, FPM_OP_DEL, "10.0.1.0/24", NULL);
    route_msg(rib, FPM_OP_ADD, "10.0.2.0/24", "192.0.2.1");
    ck_assert(!fpmd_rib_rows_deferred(rib));
    flush(rib, &db, 1000);
    ck_assert_ptr_null(find_route(&db, "default", "10.0.1.0/24"));
    ck_assert_ptr_nonnull(find_route(&db, "default", "10.0.2.0/24"));
    ck_assert_uint_eq(st->del_alone, 1);

    /* Released: zebra went away, or reading it paused. */
    route_msg(rib, FPM_OP_DEL, "10.0.2.0/24", NULL);
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);
    fpmd_rib_release_del(rib);
    flush(rib, &db, 1000);
    ck_assert_ptr_null(find_route(&db, "default", "10.0.2.0/24"));
    ck_assert_uint_eq(st->del_alone, 2);

    /* Added and deleted before any write: nothing to defer. */
    route_msg(rib, FPM_OP_ADD, "10.0.3.0/24", "192.0.2.1");
    route_msg(rib, FPM_OP_DEL, "10.0.3.0/24", NULL);
    ck_assert_ptr_null(fpmd_rib_deferred_del(rib));
    ck_assert_uint_eq(st->del_deferred, 3);
    ck_assert_uint_eq(n_rows(&db, "Route"), 1);

    /* Its wait run out, a delete still waits for the FPM reader, which
     * ends it only once it has read all zebra sent: an add read late
     * (fpmsyncd not scheduled in time, the add in its socket) merges. */
    flush(rib, &db, 1000);
    route_msg(rib, FPM_OP_DEL, "10.0.0.0/24", NULL);
    ck_assert_ptr_nonnull(fpmd_rib_deferred_del(rib));
    xnanosleep((FPMD_DEL_DEFER_MS + 20) * 1000000ULL);
    ck_assert(fpmd_rib_rows_deferred(rib));
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);
    route_msg(rib, FPM_OP_ADD, "10.0.0.0/24", "192.0.2.3");
    flush(rib, &db, 1000);
    ck_assert_ptr_nonnull(find_route(&db, "default", "10.0.0.0/24"));
    ck_assert_uint_eq(st->del_merged, 2);

    /* The reader found nothing more: before the wait runs out the delete
     * keeps waiting, after it, it is carried out alone. */
    route_msg(rib, FPM_OP_DEL, "10.0.0.0/24", NULL);
    fpmd_rib_expire_del(rib);
    ck_assert(fpmd_rib_rows_deferred(rib));
    xnanosleep((FPMD_DEL_DEFER_MS + 20) * 1000000ULL);
    fpmd_rib_expire_del(rib);
    ck_assert(!fpmd_rib_rows_deferred(rib));
    flush(rib, &db, 1000);
    ck_assert_ptr_null(find_route(&db, "default", "10.0.0.0/24"));
    ck_assert_uint_eq(st->del_alone, 3);

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* A replay of the same table rewrites nothing; a partial replay followed
 * by reconciliation deletes the rest. */
START_TEST(test_replay_unchanged_and_reconcile)
{
    struct fake_db db;
    struct fpmd_rib *rib;
    size_t n_routes, n_nhgs;

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg-replay.fpm", 0, 0);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(n_rows(&db, "Route"), 12);

    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg-replay.fpm", 0, 0);
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);
    fpmd_rib_reconcile(rib, &n_routes, &n_nhgs);
    ck_assert_uint_eq(n_routes, 0);
    ck_assert_uint_eq(n_nhgs, 0);
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);

    /* Replay without the last five routes (2001:db8:1::/48 to fe80::/64):
     * frames 0..17 are the 11 next-hop objects and the first 7 routes. */
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg-replay.fpm", 0, 18);
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);
    fpmd_rib_reconcile(rib, &n_routes, &n_nhgs);
    ck_assert_uint_eq(n_routes, 5);
    ck_assert_uint_eq(n_nhgs, 0);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(n_rows(&db, "Route"), 7);
    ck_assert_ptr_null(find_route(&db, "default", "2001:db8:2::/64"));
    ck_assert_ptr_nonnull(find_route(&db, "default", "10.1.0.0/24"));

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* fpmsyncd restarts: the new one reads the database, zebra's replay
 * rewrites nothing unchanged, and a route that changed meanwhile is
 * updated; routes not replayed are deleted only by reconciliation. */
START_TEST(test_restart)
{
    struct fake_db db;
    struct fpmd_rib *rib;
    size_t n_routes, n_nhgs;
    struct json *row;
    struct uuid u;
    char s[UUID_LEN + 1];

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg-replay.fpm", 0, 0);
    flush(rib, &db, 3);
    fpmd_rib_destroy(rib);

    /* Someone changed a route's metric behind fpmsyncd's back. */
    route_key_route_uuid_text("default", "10.2.0.0/16", &u);
    snprintf(s, sizeof s, UUID_FMT, UUID_ARGS(&u));
    row = shash_find_data(fake_table(&db, "Route"), s);
    ck_assert_ptr_nonnull(row);
    json_object_put(row, "metric", json_integer_create(99));

    rib = rib_start(&db);
    ck_assert_uint_eq(fpmd_rib_n_routes(rib), 12);
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);   /* Nothing to write. */

    db.n_ops = 0;
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg-replay.fpm", 0, 0);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(db.n_ops, 1);
    ck_assert_uint_eq(db.n_update, 1);
    check_col(find_route(&db, "default", "10.2.0.0/16"), "metric", "20");
    fpmd_rib_reconcile(rib, &n_routes, &n_nhgs);
    ck_assert_uint_eq(n_routes + n_nhgs, 0);
    fpmd_rib_destroy(rib);

    /* A restart whose zebra has fewer routes: the others stay until the
     * reconciliation. */
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg-replay.fpm", 0, 13);   /* Next hops + 2 routes. */
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);
    ck_assert_uint_eq(n_rows(&db, "Route"), 12);
    fpmd_rib_reconcile(rib, &n_routes, &n_nhgs);
    ck_assert_uint_eq(n_routes, 10);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(n_rows(&db, "Route"), 2);
    ck_assert_uint_eq(n_rows(&db, "Nexthop_Group"), 11);
    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* A group member redefined: the group's row and its routes follow. */
START_TEST(test_member_change)
{
    struct fake_db db;
    struct fpmd_rib *rib;
    struct fpm_nexthop nh;

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg-replay.fpm", 0, 0);
    flush(rib, &db, 1000);

    /* Nexthop 25 (192.168.1.3 dev 3, member of group 24) moves to
     * 192.168.1.9 dev 4. */
    fpm_nexthop_init(&nh);
    nh.op = FPM_OP_ADD;
    nh.id = 25;
    nh.family = AF_INET;
    nh.gateway.family = AF_INET;
    memcpy(nh.gateway.addr, (uint8_t[]) { 192, 168, 1, 9 }, 4);
    nh.ifindex = 4;
    fpmd_nh_input(rib, &nh);
    fpm_nexthop_destroy(&nh);

    db.n_ops = db.n_update = 0;
    flush(rib, &db, 1000);
    /* Rows 25 and 24, and the routes of 24 (10.1.0.0/24, 10.1.1.0/24) and
     * of 25 (10.3.0.0/24). */
    ck_assert_uint_eq(db.n_update, 5);
    check_col(find_route(&db, "default", "10.1.1.0/24"), "nexthops",
              "[\"map\",[[\"192.168.1.2@eth3\",1],[\"192.168.1.9@eth4\",1]]]");
    check_col(find_route(&db, "default", "10.3.0.0/24"), "nexthops",
              "[\"map\",[[\"192.168.1.9@eth4\",1]]]");

    /* Group 24 deleted while routes use it: its row goes, the routes keep
     * their last next hops until zebra sends them again. */
    fpm_nexthop_init(&nh);
    nh.op = FPM_OP_DEL;
    nh.id = 24;
    fpmd_nh_input(rib, &nh);
    fpm_nexthop_destroy(&nh);
    db.n_ops = 0;
    flush(rib, &db, 1000);
    ck_assert_uint_eq(db.n_ops, 1);
    ck_assert_uint_eq(n_rows(&db, "Nexthop_Group"), 10);
    ck_assert_ptr_nonnull(find_route(&db, "default", "10.1.1.0/24"));

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* Reconciliation withdraws stale groups whose members zebra never
 * defined: the placeholders go with them, however the table orders
 * them. */
START_TEST(test_reconcile_placeholder_members)
{
    struct fake_db db;
    struct fpmd_rib *rib;
    size_t n_routes, n_nhgs;

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    for (uint32_t i = 0; i < 64; i++) {
        struct fpm_nhg_member member = { .id = 1001 + 2 * i, .weight = 1 };
        struct fpm_nexthop nh;

        memset(&nh, 0, sizeof nh);
        nh.op = FPM_OP_ADD;
        nh.id = 1000 + 2 * i;
        nh.members = &member;
        nh.n_members = 1;
        fpmd_nh_input(rib, &nh);
    }
    ck_assert_uint_eq(fpmd_rib_n_nexthops(rib), 128);
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);    /* None resolves. */

    fpmd_rib_new_generation(rib);
    fpmd_rib_reconcile(rib, &n_routes, &n_nhgs);
    ck_assert_uint_eq(n_routes, 0);
    ck_assert_uint_eq(n_nhgs, 64);
    ck_assert_uint_eq(fpmd_rib_n_nexthops(rib), 0);
    ck_assert_uint_eq(flush(rib, &db, 1000), 0);

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* A failed transaction is redone; an update that finds its row gone
 * re-inserts it. */
START_TEST(test_failure_and_vanished_row)
{
    struct fake_db db;
    struct fpmd_rib *rib;
    struct route_batch_txn *txn;
    struct json *params;
    struct ds errors = DS_EMPTY_INITIALIZER;

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg.fpm", 0, 5);
    txn = take(rib, 1000, &params);
    ck_assert_ptr_nonnull(txn);

    struct ovsdb_writer_reply reply = {
        .result = OVSDB_WRITER_ERROR,
        .error = "transaction error: \"simulated\"",
        .failed_op = SIZE_MAX,
        .n_ops = txn->n_ops,
    };
    ck_assert(!fpmd_txn_reply(rib, txn, &reply, &errors));
    ck_assert(strstr(ds_cstr(&errors), "simulated"));
    json_destroy(params);
    ds_destroy(&errors);
    ck_assert_uint_eq(fpmd_rib_get_stats(rib)->txn_errors, 1);

    /* Redone: unknown state, so updates first, which find nothing, then
     * inserts. */
    flush(rib, &db, 1000);
    ck_assert_uint_eq(n_rows(&db, "Route"), 3);
    ck_assert_uint_eq(n_rows(&db, "Nexthop_Group"), 2);

    /* A route row deleted behind fpmsyncd's back comes back on the next
     * change of the route. */
    json_destroy(shash_find_and_delete(
                     fake_table(&db, "Route"),
                     "fd331d41-2076-58dc-adf7-f74b044b91c1"));
    ck_assert_ptr_null(find_route(&db, "default", "192.168.1.0/24"));
    feed(rib, "zebra-no-nhg.fpm", 0, 1);    /* Same route, inline now. */
    flush(rib, &db, 1000);
    check_col(find_route(&db, "default", "192.168.1.0/24"), "nexthops",
              "[\"map\",[[\"@eth3\",1]]]");

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST


/* The incremental reader of the load's reply. */

struct scan_result {
    struct ds rows[3];          /* Rows seen per select, as JSON text. */
    size_t n;                   /* Rows seen. */
};

static void
scan_cb(int idx, const struct json *row, void *r_)
{
    struct scan_result *r = r_;

    ck_assert_int_ge(idx, 0);
    ck_assert_int_lt(idx, 3);
    json_to_ds(row, JSSF_SORT, &r->rows[idx]);
    ds_put_char(&r->rows[idx], '\n');
    r->n++;
}

/* Feeds 'text' to a scanner in chunks of 'chunk' bytes; returns the
 * error, if any. */
static char *
scan(const char *text, size_t chunk, struct scan_result *r, int n_selects)
{
    struct ovsdb_select_scanner s;
    size_t len = strlen(text);
    char *error = NULL;

    memset(r, 0, sizeof *r);
    for (int i = 0; i < 3; i++) {
        ds_init(&r->rows[i]);
    }
    ovsdb_select_scanner_init(&s);
    for (size_t ofs = 0; ofs < len && !error; ofs += chunk) {
        error = ovsdb_select_scanner_feed(&s, text + ofs,
                                          MIN(chunk, len - ofs), scan_cb, r);
    }
    if (!error) {
        error = ovsdb_select_scanner_finish(&s, n_selects);
    }
    ovsdb_select_scanner_destroy(&s);
    return error;
}

static void
scan_result_destroy(struct scan_result *r)
{
    for (int i = 0; i < 3; i++) {
        ds_destroy(&r->rows[i]);
    }
}

/* A real load reply, cut anywhere, gives the same rows as the parsed
 * reply. */
START_TEST(test_load_scanner_chunks)
{
    static const size_t chunks[] = { 1, 2, 3, 7, 64, 4096, 1 << 20 };
    struct fake_db db;
    struct fpmd_rib *rib;
    struct json *result, *reply;
    struct ds expected[2];
    char *text;

    fake_init(&db);
    rib = rib_start(&db);
    fpmd_rib_new_generation(rib);
    feed(rib, "zebra-nhg-replay.fpm", 0, 0);
    flush(rib, &db, 1000);
    fpmd_rib_destroy(rib);

    result = fake_load(&db);
    for (int i = 0; i < 2; i++) {
        const struct json *rows = shash_find_data(
            json_object(json_array(result)->elems[i]), "rows");

        ds_init(&expected[i]);
        for (size_t j = 0; j < json_array(rows)->n; j++) {
            json_to_ds(json_array(rows)->elems[j], JSSF_SORT, &expected[i]);
            ds_put_char(&expected[i], '\n');
        }
    }
    reply = json_object_create();
    json_object_put(reply, "id", json_integer_create(7));
    json_object_put(reply, "result", result);
    json_object_put(reply, "error", json_null_create());
    text = json_to_string(reply, 0);

    for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
        struct scan_result r;
        char *error = scan(text, chunks[i], &r, 2);

        ck_assert_msg(!error, "chunk %"PRIuSIZE": %s", chunks[i], error);
        ck_assert_uint_eq(r.n, 11 + 12);
        ck_assert_str_eq(ds_cstr(&r.rows[0]), ds_cstr(&expected[0]));
        ck_assert_str_eq(ds_cstr(&r.rows[1]), ds_cstr(&expected[1]));
        scan_result_destroy(&r);
    }
    free(text);
    json_destroy(reply);
    ds_destroy(&expected[0]);
    ds_destroy(&expected[1]);
    fake_destroy(&db);
}
END_TEST

/* Strings with braces, brackets and escaped quotes do not confuse it;
 * empty selects are fine; failures are reported. */
START_TEST(test_load_scanner_edges)
{
    struct scan_result r;
    char *error;

    error = scan("{\"id\":1,\"result\":[{\"rows\":[]},{\"rows\":"
                 "[{\"k\":\"a}]{[\\\"\",\"m\":[\"map\",[[\"x{\",1]]]},"
                 "{\"k\":\"\\\\\"}]}],\"error\":null}", 5, &r, 2);
    ck_assert_msg(!error, "%s", error);
    ck_assert_uint_eq(r.n, 2);
    ck_assert_str_eq(ds_cstr(&r.rows[1]),
                     "{\"k\":\"a}]{[\\\"\",\"m\":[\"map\",[[\"x{\",1]]]}\n"
                     "{\"k\":\"\\\\\"}\n");
    scan_result_destroy(&r);

    /* A select that failed. */
    error = scan("{\"id\":1,\"result\":[{\"rows\":[]},{\"error\":"
                 "\"unknown table\",\"details\":\"No table named Route.\"}],"
                 "\"error\":null}", 3, &r, 2);
    ck_assert_ptr_nonnull(error);
    ck_assert(strstr(error, "select failed"));
    free(error);
    scan_result_destroy(&r);

    /* A JSON-RPC error. */
    error = scan("{\"id\":1,\"result\":null,\"error\":\"unknown database\"}",
                 4, &r, 2);
    ck_assert_ptr_nonnull(error);
    ck_assert(strstr(error, "0 results"));
    ck_assert(strstr(error, "unknown database"));
    free(error);
    scan_result_destroy(&r);

    /* Cut short. */
    error = scan("{\"id\":1,\"result\":[{\"rows\":[{\"a\":1}", 4, &r, 2);
    ck_assert_ptr_nonnull(error);
    free(error);
    scan_result_destroy(&r);

    /* Garbage inside a row. */
    error = scan("{\"id\":1,\"result\":[{\"rows\":[{\"a\":tru}]}]}", 64,
                 &r, 1);
    ck_assert_ptr_nonnull(error);
    free(error);
    scan_result_destroy(&r);
}
END_TEST

/* Counts offload notifications into '*n_'. */
static void
count_offload(const struct fpm_route *r OVS_UNUSED, void *n_)
{
    size_t *n = n_;

    (*n)++;
}

/* Starts a rib over 'db' (which it initializes) with FIB suppression on,
 * counting its offload notifications into '*n_offloads', and stores the
 * UUID of the row of 'prefix' in the default VRF into '*u'.  If 'gw' is
 * nonnull, 'prefix' via 'gw' is written and its row reported offloaded:
 * zebra has its first answer. */
static struct fpmd_rib *
offload_start(struct fake_db *db, const char *prefix, const char *gw,
              size_t *n_offloads, struct uuid *u)
{
    struct fpmd_rib *rib;

    fake_init(db);
    rib = rib_start(db);
    fpmd_offload_set_cb(rib, count_offload, n_offloads);
    fpmd_offload_enable(rib, true);
    fpmd_rib_new_generation(rib);
    route_key_route_uuid_text("default", prefix, u);
    if (gw) {
        route_msg(rib, FPM_OP_ADD, prefix, gw);
        flush(rib, db, 1000);
        ck_assert_uint_eq(db->n_mutate, 0);
        fpmd_offload_status_set(rib, u, "default", prefix);
        ck_assert_uint_eq(*n_offloads, 1);
    }
    return rib;
}

/* Takes 'rib''s queued writes as one transaction and loses it with the
 * connection, as if the server never saw it. */
static void
take_and_lose(struct fpmd_rib *rib)
{
    struct ovsdb_writer_reply lost = { .result = OVSDB_WRITER_LOST };
    struct ds errors = DS_EMPTY_INITIALIZER;
    struct route_batch_txn *txn;
    struct json *params;

    txn = take(rib, 1000, &params);
    ck_assert_ptr_nonnull(txn);
    ck_assert(!fpmd_txn_reply(rib, txn, &lost, &errors));
    ds_destroy(&errors);
    json_destroy(params);
}

/* Hands 'rib' what its Route.status monitor reports after an update that
 * deleted the offload of the row 'u' of 'prefix' committed: the delete,
 * then orchd's write of the offload for the new content. */
static void
status_delete_then_answer(struct fpmd_rib *rib, const struct uuid *u,
                          const char *prefix)
{
    fpmd_offload_status_cleared(rib, u);
    fpmd_offload_status_set(rib, u, "default", prefix);
}

/* Reads 'db' into 'rib' again, as after a lost connection. */
static void
reload(struct fpmd_rib *rib, struct fake_db *db)
{
    struct json *load = fake_load(db);

    fpmd_rib_db_lost(rib);
    ck_assert_ptr_null(load_reply(rib, load));
    json_destroy(load);
}

/* FIB suppression on the OVSDB path: while an update that deletes a row's
 * status:offload is in flight, what the Route.status monitor says of the
 * row is for the content before it, so zebra gets no answer, neither from
 * the monitor's report nor for its own replay of the new content; orchd's
 * answer after the update does.  A lost update sends the delete again. */
START_TEST(test_offload_waits_for_status_delete)
{
    static const char *prefix = "10.9.0.0/24";
    struct route_batch_txn *txn;
    size_t n_offloads = 0;
    struct json *params;
    struct fake_db db;
    struct fpmd_rib *rib;
    struct uuid u;

    /* A is written, and orchd's answer for it arrives. */
    rib = offload_start(&db, prefix, "192.168.1.2", &n_offloads, &u);

    /* A' (another gateway): its update deletes the row's offload... */
    route_msg(rib, FPM_OP_ADD, prefix, "192.168.1.3");
    txn = take(rib, 1000, &params);
    ck_assert_ptr_nonnull(txn);

    /* ...and is in flight when the monitor's first reply (after a
     * reconnection, say) still reports the row offloaded, and when zebra
     * replays A'. */
    fpmd_offload_reset(rib);
    fpmd_offload_status_set(rib, &u, "default", prefix);
    route_msg(rib, FPM_OP_ADD, prefix, "192.168.1.3");
    ck_assert_uint_eq(n_offloads, 1);

    /* The update commits with its mutate; the monitor reports the
     * offload deleted, then orchd's answer for A'. */
    commit(rib, &db, txn, params);
    ck_assert_uint_eq(db.n_mutate, 1);
    status_delete_then_answer(rib, &u, prefix);
    ck_assert_uint_eq(n_offloads, 2);

    /* A'' is lost in flight: the retry deletes the offload again, and
     * until it commits the row's offload is no answer. */
    route_msg(rib, FPM_OP_ADD, prefix, "192.168.1.4");
    take_and_lose(rib);
    fpmd_offload_status_set(rib, &u, "default", prefix);
    ck_assert_uint_eq(n_offloads, 2);
    txn = take(rib, 1000, &params);
    ck_assert_ptr_nonnull(txn);
    fpmd_offload_status_set(rib, &u, "default", prefix);
    ck_assert_uint_eq(n_offloads, 2);
    commit(rib, &db, txn, params);
    ck_assert_uint_eq(db.n_mutate, 2);
    status_delete_then_answer(rib, &u, prefix);
    ck_assert_uint_eq(n_offloads, 3);

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* FIB suppression on the OVSDB path: a write lost with the connection
 * that never committed leaves the row with the older content, which the
 * database's read again says; zebra's replay of the newer content is no
 * change back to what the row holds, so the row's offload (for the older
 * content) answers nothing, and the retry deletes it. */
START_TEST(test_offload_after_lost_write_and_reload)
{
    static const char *prefix = "10.9.0.0/24";
    size_t n_offloads = 0;
    struct fake_db db;
    struct fpmd_rib *rib;
    struct uuid u;

    rib = offload_start(&db, prefix, "192.168.1.2", &n_offloads, &u);

    /* B's update is lost and never reached the database. */
    route_msg(rib, FPM_OP_ADD, prefix, "192.168.1.3");
    take_and_lose(rib);

    /* The database is read again (it holds A, offloaded), the monitor's
     * first reply says so, and zebra replays B. */
    reload(rib, &db);
    fpmd_offload_reset(rib);
    fpmd_offload_status_set(rib, &u, "default", prefix);
    route_msg(rib, FPM_OP_ADD, prefix, "192.168.1.3");
    ck_assert_uint_eq(n_offloads, 1);

    /* B's retry deletes the offload; orchd's answer for B answers. */
    ck_assert_uint_eq(db.n_mutate, 0);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(db.n_mutate, 1);
    check_col(find_route(&db, "default", prefix), "nexthops",
              "[\"map\",[[\"192.168.1.3@eth3\",1]]]");
    status_delete_then_answer(rib, &u, prefix);
    ck_assert_uint_eq(n_offloads, 2);

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* FIB suppression on the OVSDB path: an update that deletes the row's
 * offload (A to B) is refused by the server while a later one that does
 * not (B with a new metric, C, orchd's programming unchanged) is in
 * flight, and zebra replays C meanwhile.  The refused one's retry finds
 * the row as C wants it and is cancelled; once C commits, the row is
 * written again to carry the delete, and orchd's answer for C reaches
 * zebra. */
START_TEST(test_offload_refused_delete_behind_write)
{
    static const char *prefix = "10.9.0.0/24";
    struct ovsdb_writer_reply refused = {
        .result = OVSDB_WRITER_ERROR,
        .error = "transaction error: \"simulated\"",
        .failed_op = SIZE_MAX,
    };
    struct ds errors = DS_EMPTY_INITIALIZER;
    struct route_batch_txn *t1, *t2;
    struct json *p1, *p2;
    size_t n_offloads = 0;
    struct fake_db db;
    struct fpmd_rib *rib;
    struct fpm_route fr;
    struct uuid u;

    rib = offload_start(&db, prefix, "192.168.1.2", &n_offloads, &u);

    route_msg(rib, FPM_OP_ADD, prefix, "192.168.1.3");
    t1 = take(rib, 1000, &p1);
    ck_assert_ptr_nonnull(t1);
    fpm_route_init(&fr);
    fpm_test_simple_route(&fr, FPM_OP_ADD, prefix, "192.168.1.3", 3);
    fr.metric = 50;
    fpmd_rib_route(rib, &fr);
    t2 = take(rib, 1000, &p2);
    ck_assert_ptr_nonnull(t2);

    refused.n_ops = t1->n_ops;
    ck_assert(!fpmd_txn_reply(rib, t1, &refused, &errors));
    json_destroy(p1);
    fpmd_rib_route(rib, &fr);                   /* Replayed. */
    fpm_route_destroy(&fr);
    ck_assert_uint_eq(n_offloads, 1);
    commit(rib, &db, t2, p2);
    ck_assert_uint_eq(db.n_mutate, 0);

    flush(rib, &db, 1000);
    ck_assert_uint_eq(db.n_mutate, 1);
    ck_assert_uint_eq(fpmd_rib_get_stats(rib)->status_rewrites, 1);
    check_col(find_route(&db, "default", prefix), "metric", "50");
    status_delete_then_answer(rib, &u, prefix);
    ck_assert_uint_eq(n_offloads, 2);

    ds_destroy(&errors);
    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

/* The same through a row that names its next-hop group without its
 * members (other_config:resolve_nexthops=false), read again while it
 * holds what fpmsyncd wants: zebra's change to another next hop and back
 * to the group before the change is written is answered by the row, as
 * before the read. */
START_TEST(test_offload_group_row_after_reload)
{
    static const char *prefix = "10.1.0.0/24";
    size_t n_offloads = 0;
    struct fake_db db;
    struct fpmd_rib *rib;
    struct fpm_route fr;
    struct uuid u;

    rib = offload_start(&db, prefix, NULL, &n_offloads, &u);
    fpmd_rib_set_resolve(rib, false);
    feed(rib, "zebra-nhg-replay.fpm", 0, 0);
    flush(rib, &db, 1000);
    check_col(find_route(&db, "default", prefix), "nexthop_group", "24");
    check_col(find_route(&db, "default", prefix), "nexthops", "");
    fpmd_offload_status_set(rib, &u, "default", prefix);
    ck_assert_uint_eq(n_offloads, 1);

    reload(rib, &db);
    fpmd_offload_reset(rib);
    fpmd_offload_status_set(rib, &u, "default", prefix);
    ck_assert_uint_eq(n_offloads, 2);

    /* Another next hop, then the group again, nothing written between. */
    route_msg(rib, FPM_OP_ADD, prefix, "192.168.1.9");
    fpm_route_init(&fr);
    fr.op = FPM_OP_ADD;
    fr.table = 254;
    fr.prefix = fpm_test_prefix(prefix);
    fr.protocol = 186;
    fr.metric = 20;
    fr.type = FPM_ROUTE_UNICAST;
    fr.nhg_id = 24;
    fpmd_rib_route(rib, &fr);
    fpm_route_destroy(&fr);
    ck_assert_uint_eq(n_offloads, 3);
    flush(rib, &db, 1000);
    ck_assert_uint_eq(db.n_mutate, 0);

    fpmd_rib_destroy(rib);
    fake_destroy(&db);
}
END_TEST

Suite *
fpmsyncd_rib_suite(void)
{
    Suite *s = suite_create("fpmsyncd_rib");
    TCase *tc = tcase_create("fpmsyncd_rib");

    tcase_add_test(tc, test_replay_group_first);
    tcase_add_test(tc, test_inline_and_replace);
    tcase_add_test(tc, test_replay_unchanged_and_reconcile);
    tcase_add_test(tc, test_restart);
    tcase_add_test(tc, test_member_change);
    tcase_add_test(tc, test_reconcile_placeholder_members);
    tcase_add_test(tc, test_failure_and_vanished_row);
    tcase_add_test(tc, test_deferred_delete);
    tcase_add_test(tc, test_offload_waits_for_status_delete);
    tcase_add_test(tc, test_offload_after_lost_write_and_reload);
    tcase_add_test(tc, test_offload_group_row_after_reload);
    tcase_add_test(tc, test_offload_refused_delete_behind_write);
    tcase_add_test(tc, test_load_scanner_chunks);
    tcase_add_test(tc, test_load_scanner_edges);
    suite_add_tcase(s, tc);
    return s;
}
