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

/*
 * Check suite for daemons/orchd/orchd-bulker: bulking, the window of outstanding
 * bulks (sync and async SAI modes), and acknowledgement matching.
 */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-entry.h"
#include "tests/check/orchd-test-util.h"
#include "lib/fib-prefix.h"
#include "openvswitch/list.h"
#include "tests/check/suites.h"
#include "util.h"

/* A fake SAI channel: records sent bulks and completed writes. */
struct fake {
    struct orchd_bulk *sent[64];    /* Bulks sent, in order. */
    size_t n_sent;                  /* Number of 'sent'. */
    size_t n_done_ok;               /* done() with ok. */
    size_t n_done_fail;             /* done() with !ok. */
    size_t n_done_remove;           /* done() for removals. */
    uint8_t last_token;             /* The last done()'s token. */
    char last_error[64];            /* Last error reported. */
    char last_nexthop[64];          /* First next hop of last ok write. */
};

static void
fake_send(void *f_, struct orchd_bulk *bulk)
{
    struct fake *f = f_;

    ck_assert_uint_lt(f->n_sent, ARRAY_SIZE(f->sent));
    f->sent[f->n_sent++] = bulk;
}

static void
fake_done(void *f_, const struct uuid *key OVS_UNUSED,
          const struct orchd_entry *e, bool ok, const char *error,
          uint8_t token)
{
    struct fake *f = f_;

    f->last_token = token;
    if (!e) {
        f->n_done_remove++;
    } else if (ok) {
        f->n_done_ok++;
        snprintf(f->last_nexthop, sizeof f->last_nexthop, "%s",
                 e->n_nexthops ? e->nexthops[0].key : "");
    } else {
        f->n_done_fail++;
        snprintf(f->last_error, sizeof f->last_error, "%s", error);
    }
}

static const struct orchd_bulker_cbs fake_cbs = {
    .send = fake_send,
    .done = fake_done,
};

/* Creates a bulker with bulks of 'max_bulk' writes and 'max_outstanding'
 * of them at most, whose callbacks go to 'f'. */
static struct orchd_bulker *
fake_bulker(struct fake *f, size_t max_bulk, size_t max_outstanding)
{
    struct orchd_bulker_config cfg = { .max_bulk = max_bulk,
                                       .max_outstanding = max_outstanding };

    return orchd_bulker_create(&cfg, &fake_cbs, f);
}

/* Returns an entry for "10.0.I.0/24" via next hop 'nh'. */
static struct orchd_entry *
make_entry(int i, const char *nh)
{
    struct fib_prefix p;
    char text[32];
    const char *keys[1] = { nh };
    int64_t weights[1] = { 1 };

    snprintf(text, sizeof text, "10.%d.%d.0/24", i / 256, i % 256);
    ck_assert_ptr_null(fib_prefix_parse(text, &p));
    return orchd_entry_create(test_entry_space(), "default", &p, ORCHD_ACTION_FORWARD, keys,
                              weights, 1);
}

static struct uuid
key_of(int i)
{
    struct orchd_entry *e = make_entry(i, "x");
    struct uuid key = e->asic_uuid;

    orchd_entry_unref(e);
    return key;
}

/* Acknowledges every write of 'bulk' as 'ok'. */
static void
ack_bulk(struct orchd_bulker *b, struct orchd_bulk *bulk, bool ok)
{
    /* Copy first: acknowledging the last item frees the bulk. */
    size_t n = bulk->n_items;
    struct uuid *keys = xmalloc(n * sizeof *keys);
    int64_t *seqs = xmalloc(n * sizeof *seqs);
    enum orchd_bulk_op *ops = xmalloc(n * sizeof *ops);

    for (size_t i = 0; i < n; i++) {
        keys[i] = bulk->items[i].key;
        seqs[i] = bulk->items[i].seq;
        ops[i] = bulk->items[i].op;
    }
    for (size_t i = 0; i < n; i++) {
        if (ops[i] != ORCHD_BULK_REMOVE) {
            orchd_bulker_ack(b, &keys[i], seqs[i], ok, ok ? NULL : "boom");
        }
    }
    free(keys);
    free(seqs);
    free(ops);
}

START_TEST(test_bulks_split_at_max)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 8);

    for (int i = 0; i < 25; i++) {
        orchd_bulker_set(b, make_entry(i, "1.1.1.1@e0"));
    }
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    ck_assert_uint_eq(f.sent[0]->n_items, 10);
    ck_assert_uint_eq(f.sent[1]->n_items, 10);
    ck_assert_uint_eq(f.sent[2]->n_items, 5);
    ck_assert_int_eq(f.sent[0]->items[0].op, ORCHD_BULK_CREATE);
    /* Sequence numbers grow across bulks. */
    ck_assert_int_lt(f.sent[0]->items[9].seq, f.sent[1]->items[0].seq);
    for (size_t i = 0; i < 3; i++) {
        orchd_bulker_sent(b, f.sent[i], true);
    }
    for (size_t i = 0; i < 3; i++) {
        ack_bulk(b, f.sent[i], true);
    }
    ck_assert_uint_eq(f.n_done_ok, 25);
    ck_assert(orchd_bulker_is_idle(b));
    ck_assert_uint_eq(orchd_bulker_n_written(b), 25);
    orchd_bulker_destroy(b);
}
END_TEST

/* Sync mode: one bulk at a time, the next only after every ack. */
START_TEST(test_sync_window)
{
    struct orchd_bulker_config cfg = { .max_bulk = 4, .max_outstanding = 1 };
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = orchd_bulker_create(&cfg, &fake_cbs, &f);

    for (int i = 0; i < 8; i++) {
        orchd_bulker_set(b, make_entry(i, "1.1.1.1@e0"));
    }
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    orchd_bulker_sent(b, f.sent[0], true);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);     /* Still waiting for acks. */

    /* Three of four acks: still waiting. */
    struct uuid k = f.sent[0]->items[3].key;
    int64_t seq = f.sent[0]->items[3].seq;
    for (int i = 0; i < 3; i++) {
        orchd_bulker_ack(b, &f.sent[0]->items[i].key,
                         f.sent[0]->items[i].seq, true, NULL);
    }
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    orchd_bulker_ack(b, &k, seq, true, NULL);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* Async mode: up to N bulks outstanding, acks in any order. */
START_TEST(test_async_window_out_of_order_acks)
{
    struct orchd_bulker_config cfg = { .max_bulk = 2, .max_outstanding = 3 };
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = orchd_bulker_create(&cfg, &fake_cbs, &f);
    struct orchd_bulker_stats st;

    for (int i = 0; i < 10; i++) {
        orchd_bulker_set(b, make_entry(i, "1.1.1.1@e0"));
    }
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    for (size_t i = 0; i < 3; i++) {
        orchd_bulker_sent(b, f.sent[i], true);
    }
    /* The third bulk finishes first: that frees one slot. */
    ack_bulk(b, f.sent[2], true);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 4);
    ck_assert_uint_eq(orchd_bulker_n_outstanding(b), 3);
    ack_bulk(b, f.sent[0], true);
    ack_bulk(b, f.sent[1], true);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 5);
    orchd_bulker_sent(b, f.sent[3], true);
    orchd_bulker_sent(b, f.sent[4], true);
    ack_bulk(b, f.sent[4], true);
    ack_bulk(b, f.sent[3], true);
    ck_assert(orchd_bulker_is_idle(b));
    ck_assert_uint_eq(f.n_done_ok, 10);
    orchd_bulker_get_stats(b, &st);
    ck_assert_uint_eq(st.max_outstanding_seen, 3);
    orchd_bulker_destroy(b);
}
END_TEST

/* The oldest write still waiting for its acknowledgement bounds what a
 * read of missed acknowledgements must look at: the first seq of the
 * oldest bulk outstanding, whichever bulk is acknowledged first, and the
 * next seq to give once none is. */
START_TEST(test_oldest_unacked_seq)
{
    struct orchd_bulker_config cfg = { .max_bulk = 2, .max_outstanding = 3 };
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = orchd_bulker_create(&cfg, &fake_cbs, &f);
    int64_t first;

    orchd_bulker_set_next_seq(b, 100);
    ck_assert_int_eq(orchd_bulker_oldest_unacked_seq(b), 100);
    for (int i = 0; i < 6; i++) {
        orchd_bulker_set(b, make_entry(i, "1.1.1.1@e0"));
    }
    /* Queued, not yet numbered: every write to come is at or above. */
    ck_assert_int_eq(orchd_bulker_oldest_unacked_seq(b), 100);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    first = f.sent[0]->first_seq;
    ck_assert_int_eq(first, 100);
    for (size_t i = 0; i < 3; i++) {
        orchd_bulker_sent(b, f.sent[i], true);
    }
    ck_assert_int_eq(orchd_bulker_oldest_unacked_seq(b), first);

    /* The newest bulk acknowledged first changes nothing... */
    ack_bulk(b, f.sent[2], true);
    ck_assert_int_eq(orchd_bulker_oldest_unacked_seq(b), first);
    /* ...the oldest moves the bound to the next bulk's first write. */
    ack_bulk(b, f.sent[0], true);
    ck_assert_int_eq(orchd_bulker_oldest_unacked_seq(b), first + 2);
    ack_bulk(b, f.sent[1], true);
    ck_assert(orchd_bulker_is_idle(b));
    ck_assert_int_eq(orchd_bulker_oldest_unacked_seq(b), first + 6);
    orchd_bulker_destroy(b);
}
END_TEST

/* Updates to one prefix while waiting collapse to the last; add, delete,
 * add of one prefix ends with the prefix programmed. */
START_TEST(test_add_del_add_one_prefix)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 100, 4);
    struct uuid k = key_of(7);

    /* All three while nothing was sent: only the last counts. */
    orchd_bulker_set(b, make_entry(7, "1.1.1.1@e0"));
    orchd_bulker_del(b, &k);
    orchd_bulker_set(b, make_entry(7, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    ck_assert_uint_eq(f.sent[0]->n_items, 1);
    ck_assert_int_eq(f.sent[0]->items[0].op, ORCHD_BULK_CREATE);
    ck_assert_str_eq(f.sent[0]->items[0].entry->nexthops[0].key,
                     "2.2.2.2@e0");
    orchd_bulker_sent(b, f.sent[0], true);
    ack_bulk(b, f.sent[0], true);

    /* Now spread over three bulks in flight at once. */
    orchd_bulker_del(b, &k);
    orchd_bulker_run(b);
    orchd_bulker_set(b, make_entry(7, "3.3.3.3@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    ck_assert_int_eq(f.sent[1]->items[0].op, ORCHD_BULK_REMOVE);
    ck_assert_int_eq(f.sent[2]->items[0].op, ORCHD_BULK_CREATE);
    ck_assert_int_lt(f.sent[1]->items[0].seq, f.sent[2]->items[0].seq);
    orchd_bulker_sent(b, f.sent[1], true);
    orchd_bulker_sent(b, f.sent[2], true);
    ck_assert_uint_eq(f.n_done_remove, 1);
    ack_bulk(b, f.sent[2], true);
    ck_assert(orchd_bulker_is_idle(b));
    ck_assert_str_eq(f.last_nexthop, "3.3.3.3@e0");
    ck_assert_ptr_nonnull(orchd_bulker_get_written(b, &k));
    orchd_bulker_destroy(b);
}
END_TEST

/* An ack for a newer write completes older writes of the same route. */
START_TEST(test_newer_ack_supersedes)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 1, 4);
    struct orchd_bulker_stats st;
    struct uuid k = key_of(1);

    orchd_bulker_set(b, make_entry(1, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_set(b, make_entry(1, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    ck_assert_int_eq(f.sent[1]->items[0].op, ORCHD_BULK_SET);
    orchd_bulker_sent(b, f.sent[0], true);
    orchd_bulker_sent(b, f.sent[1], true);
    orchd_bulker_ack(b, &k, f.sent[1]->items[0].seq, true, NULL);
    ck_assert(orchd_bulker_is_idle(b));
    ck_assert_uint_eq(f.n_done_ok, 1);
    ck_assert_str_eq(f.last_nexthop, "2.2.2.2@e0");
    orchd_bulker_get_stats(b, &st);
    ck_assert_uint_eq(st.n_superseded, 1);
    orchd_bulker_destroy(b);
}
END_TEST

/* A failed write is reported, and the same content is written again on
 * the next update rather than skipped as unchanged. */
START_TEST(test_failure_then_retry)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 1);

    orchd_bulker_set(b, make_entry(3, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    ack_bulk(b, f.sent[0], false);
    ck_assert_uint_eq(f.n_done_fail, 1);
    ck_assert_str_eq(f.last_error, "boom");

    orchd_bulker_set(b, make_entry(3, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    ck_assert_int_eq(f.sent[1]->items[0].op, ORCHD_BULK_SET);

    /* Once programmed, the same content again is skipped. */
    orchd_bulker_sent(b, f.sent[1], true);
    ack_bulk(b, f.sent[1], true);
    orchd_bulker_set(b, make_entry(3, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* The programmed entry of a route (the read cache): only an acknowledged
 * success or a settled seed makes one; a write in flight or failed leaves
 * the last one; a removal's success takes it away, and with it the
 * route's state. */
START_TEST(test_programmed)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);
    struct uuid k1 = key_of(1), k2 = key_of(2), k3 = key_of(3);
    const struct orchd_entry *e;

    /* Seeds: settled is programmed, unsettled is not. */
    orchd_bulker_seed(b, make_entry(2, "9.9.9.9@e0"), true);
    orchd_bulker_seed(b, make_entry(3, "8.8.8.8@e0"), false);
    ck_assert_uint_eq(orchd_bulker_n_programmed(b), 1);
    e = orchd_bulker_get_programmed(b, &k2);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->nexthops[0].key, "9.9.9.9@e0");
    ck_assert_ptr_null(orchd_bulker_get_programmed(b, &k3));

    /* Written, not yet acknowledged: not programmed. */
    orchd_bulker_set(b, make_entry(1, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    ck_assert_ptr_nonnull(orchd_bulker_get_written(b, &k1));
    ck_assert_ptr_null(orchd_bulker_get_programmed(b, &k1));
    ack_bulk(b, f.sent[0], true);
    e = orchd_bulker_get_programmed(b, &k1);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->nexthops[0].key, "1.1.1.1@e0");
    ck_assert_uint_eq(orchd_bulker_n_programmed(b), 2);

    /* A failed change leaves the entry it did not replace. */
    orchd_bulker_set(b, make_entry(1, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[1], true);
    ack_bulk(b, f.sent[1], false);
    e = orchd_bulker_get_programmed(b, &k1);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->nexthops[0].key, "1.1.1.1@e0");

    /* A removal: programmed until its bulk is sent, then gone, and the
     * route's state with it. */
    orchd_bulker_del(b, &k1);
    orchd_bulker_run(b);
    ck_assert_ptr_nonnull(orchd_bulker_get_programmed(b, &k1));
    orchd_bulker_sent(b, f.sent[2], true);
    ck_assert_ptr_null(orchd_bulker_get_programmed(b, &k1));
    ck_assert_ptr_null(orchd_bulker_get_written(b, &k1));
    ck_assert_ptr_null(orchd_bulker_find_tag(b, &k1));
    ck_assert_uint_eq(orchd_bulker_n_programmed(b), 1);
    orchd_bulker_destroy(b);
}
END_TEST

/* A route written and then removed before the write's acknowledgement:
 * the removal, done once sent, supersedes the write, so that its late
 * acknowledgement neither makes the route programmed again nor keeps
 * its state. */
START_TEST(test_late_ack_after_removal)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);
    struct orchd_bulker_stats stats;
    struct uuid k = key_of(5);
    int64_t seq;

    orchd_bulker_set(b, make_entry(5, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    seq = f.sent[0]->items[0].seq;
    orchd_bulker_del(b, &k);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    ck_assert_int_eq(f.sent[1]->items[0].op, ORCHD_BULK_REMOVE);
    orchd_bulker_sent(b, f.sent[0], true);
    orchd_bulker_sent(b, f.sent[1], true);
    ck_assert_uint_eq(f.n_done_remove, 1);
    ck_assert(orchd_bulker_is_idle(b));

    /* The far end applied the write, then the removal: the write's
     * result comes late. */
    orchd_bulker_ack(b, &k, seq, true, NULL);
    ck_assert_uint_eq(f.n_done_ok, 0);
    ck_assert_ptr_null(orchd_bulker_get_programmed(b, &k));
    ck_assert_ptr_null(orchd_bulker_find_tag(b, &k));
    ck_assert_uint_eq(orchd_bulker_n_programmed(b), 0);
    orchd_bulker_get_stats(b, &stats);
    ck_assert_uint_eq(stats.n_superseded, 1);
    ck_assert_uint_eq(stats.n_stale_acks, 1);
    orchd_bulker_destroy(b);
}
END_TEST

/* A bulk whose sending failed is queued again with its outcome unknown;
 * an unknown write that finds no entry becomes a creation. */
START_TEST(test_send_failure_requeues)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 1);

    orchd_bulker_set(b, make_entry(1, "1.1.1.1@e0"));
    orchd_bulker_set(b, make_entry(2, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], false);
    ck_assert_uint_eq(orchd_bulker_n_pending(b), 2);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    ck_assert(f.sent[1]->items[0].unknown);
    ck_assert_int_eq(f.sent[1]->items[0].op, ORCHD_BULK_SET);

    /* The first turned out to be missing; the second existed. */
    orchd_bulker_missing(b, &f.sent[1]->items[0]);
    orchd_bulker_sent(b, f.sent[1], true);
    orchd_bulker_ack(b, &f.sent[1]->items[1].key, f.sent[1]->items[1].seq,
                     true, NULL);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    ck_assert_uint_eq(f.sent[2]->n_items, 1);
    ck_assert_int_eq(f.sent[2]->items[0].op, ORCHD_BULK_CREATE);
    ck_assert(!f.sent[2]->items[0].unknown);
    orchd_bulker_sent(b, f.sent[2], true);
    ack_bulk(b, f.sent[2], true);
    ck_assert(orchd_bulker_is_idle(b));
    ck_assert_uint_eq(f.n_done_ok, 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* A bulk refused whole goes out again one write a bulk: the others go
 * through, and the write at fault, refused alone, fails and is not sent
 * again until its route is set again. */
START_TEST(test_refused_bulk_isolates)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 8);
    struct orchd_bulker_stats stats;

    for (int i = 1; i <= 3; i++) {
        orchd_bulker_set(b, make_entry(i, "1.1.1.1@e0"));
    }
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    ck_assert_uint_eq(f.sent[0]->n_items, 3);
    orchd_bulker_refused(b, f.sent[0], "constraint violation");
    ck_assert_uint_eq(f.n_done_fail, 0);

    /* Sent again, one a bulk; a route set meanwhile joins no solo bulk. */
    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 5);
    for (size_t i = 1; i < 4; i++) {
        ck_assert_uint_eq(f.sent[i]->n_items, 1);
    }
    ck_assert_uint_eq(f.sent[4]->n_items, 1);
    ck_assert_uint_eq(f.sent[2]->items[0].entry->prefix.addr[2], 2);
    ck_assert_uint_eq(f.sent[4]->items[0].entry->prefix.addr[2], 4);

    /* The second is at fault: it fails, the others are programmed. */
    orchd_bulker_refused(b, f.sent[2], "constraint violation");
    ck_assert_uint_eq(f.n_done_fail, 1);
    ck_assert_str_eq(f.last_error, "constraint violation");
    for (size_t i = 1; i < 5; i++) {
        if (i != 2) {
            orchd_bulker_sent(b, f.sent[i], true);
            ack_bulk(b, f.sent[i], true);
        }
    }
    ck_assert_uint_eq(f.n_done_ok, 3);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 5);
    ck_assert(orchd_bulker_is_idle(b));

    /* Set again, it is sent again, in an ordinary bulk. */
    orchd_bulker_set(b, make_entry(2, "1.1.1.1@e0"));
    orchd_bulker_set(b, make_entry(5, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 6);
    ck_assert_uint_eq(f.sent[5]->n_items, 2);
    orchd_bulker_get_stats(b, &stats);
    ck_assert_uint_eq(stats.n_refused, 2);
    orchd_bulker_sent(b, f.sent[5], true);
    ack_bulk(b, f.sent[5], true);
    orchd_bulker_destroy(b);
}
END_TEST

/* Seeded entries (already in the ASIC at startup) are not rewritten. */
START_TEST(test_seed_skips_unchanged)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 1);
    struct uuid k5 = key_of(5);

    orchd_bulker_seed(b, make_entry(4, "1.1.1.1@e0"), true);
    orchd_bulker_seed(b, make_entry(5, "1.1.1.1@e0"), true);
    orchd_bulker_seed(b, make_entry(6, "1.1.1.1@e0"), false);
    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));   /* Same. */
    orchd_bulker_set(b, make_entry(6, "1.1.1.1@e0"));   /* Unsettled. */
    orchd_bulker_del(b, &k5);                           /* Stale. */
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    ck_assert_uint_eq(f.sent[0]->n_items, 2);
    ck_assert_int_eq(f.sent[0]->items[0].op, ORCHD_BULK_SET);
    ck_assert_int_eq(f.sent[0]->items[1].op, ORCHD_BULK_REMOVE);
    orchd_bulker_destroy(b);
}
END_TEST

/* A route changed and changed back before the first change was written:
 * nothing to write, but the change back is answered, since no write will
 * (with FIB suppression, zebra waits for it).  A plain unchanged set is
 * not answered. */
START_TEST(test_coalesced_back_answered)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 1);

    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    orchd_bulker_sent(b, f.sent[0], true);
    ack_bulk(b, f.sent[0], true);
    ck_assert_uint_eq(f.n_done_ok, 1);

    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));   /* Same. */
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    ck_assert_uint_eq(f.n_done_ok, 1);

    orchd_bulker_set(b, make_entry(4, "2.2.2.2@e0"));   /* B... */
    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));   /* ...then A. */
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    ck_assert_uint_eq(f.n_done_ok, 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* A caller that asks for an answer (orchd_bulker_set_answer()) gets 'done'
 * for content programmed already, at once; for content whose write is in
 * flight, from that write's acknowledgement, once; for new content, from
 * its write.  A plain set of the same content answers nothing. */
START_TEST(test_set_answer)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);
    struct orchd_bulker_stats st;

    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    ack_bulk(b, f.sent[0], true);
    ck_assert_uint_eq(f.n_done_ok, 1);

    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_done_ok, 1);
    orchd_bulker_set_answer(b, make_entry(4, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    ck_assert_uint_eq(f.n_done_ok, 2);

    /* In flight: the acknowledgement answers, once. */
    orchd_bulker_set(b, make_entry(4, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    orchd_bulker_sent(b, f.sent[1], true);
    orchd_bulker_set_answer(b, make_entry(4, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    ck_assert_uint_eq(f.n_done_ok, 2);
    ack_bulk(b, f.sent[1], true);
    ck_assert_uint_eq(f.n_done_ok, 3);

    /* New content: its write answers. */
    orchd_bulker_set_answer(b, make_entry(4, "3.3.3.3@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    ck_assert_uint_eq(f.n_done_ok, 3);
    orchd_bulker_sent(b, f.sent[2], true);
    ack_bulk(b, f.sent[2], true);
    ck_assert_uint_eq(f.n_done_ok, 4);

    orchd_bulker_get_stats(b, &st);
    ck_assert_uint_eq(st.n_answer_asked, 3);
    ck_assert_uint_eq(st.n_unchanged_done, 1);
    orchd_bulker_destroy(b);
}
END_TEST

/* make_entry() numbered 'token', as the northbound fast path numbers each
 * SET of a route. */
static struct orchd_entry *
make_token_entry(int i, const char *nh, uint8_t token)
{
    struct orchd_entry *e = make_entry(i, nh);

    e->token = token;
    return e;
}

/* A route's 'done' carries the token of its last set when it is about the
 * content of that set, and 0 when the route was set to other content
 * since: an acknowledgement of an older write answers no newer set. */
START_TEST(test_done_tokens)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);

    /* A written; B set while A is in flight: A's acknowledgement answers
     * no set (0), B's answers B's. */
    orchd_bulker_set(b, make_token_entry(4, "1.1.1.1@e0", 1));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    orchd_bulker_set(b, make_token_entry(4, "2.2.2.2@e0", 2));
    ack_bulk(b, f.sent[0], true);
    ck_assert_uint_eq(f.n_done_ok, 1);
    ck_assert_uint_eq(f.last_token, 0);
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[1], true);
    ack_bulk(b, f.sent[1], true);
    ck_assert_uint_eq(f.n_done_ok, 2);
    ck_assert_uint_eq(f.last_token, 2);

    /* B again, asking: programmed already, answered at once with its own
     * token. */
    orchd_bulker_set_answer(b, make_token_entry(4, "2.2.2.2@e0", 3));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_done_ok, 3);
    ck_assert_uint_eq(f.last_token, 3);

    /* C in flight, C again asking: C's acknowledgement answers the later
     * set, whose content it is. */
    orchd_bulker_set(b, make_token_entry(4, "3.3.3.3@e0", 4));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[2], true);
    orchd_bulker_set_answer(b, make_token_entry(4, "3.3.3.3@e0", 5));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    ack_bulk(b, f.sent[2], false);
    ck_assert_uint_eq(f.n_done_fail, 1);
    ck_assert_uint_eq(f.last_token, 5);
    orchd_bulker_destroy(b);
}
END_TEST

/* A write that fails to go out while an older write of its route waits
 * for its acknowledgement is tried again once that one is acknowledged:
 * nothing else would write it. */
START_TEST(test_send_failure_behind_waiting_write)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);

    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    orchd_bulker_set(b, make_entry(4, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    orchd_bulker_sent(b, f.sent[1], false);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);         /* The first still waits. */

    ack_bulk(b, f.sent[0], true);
    ck_assert_uint_eq(f.n_done_ok, 1);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    orchd_bulker_sent(b, f.sent[2], true);
    ack_bulk(b, f.sent[2], true);
    ck_assert_uint_eq(f.n_done_ok, 2);
    ck_assert_str_eq(f.last_nexthop, "2.2.2.2@e0");
    orchd_bulker_destroy(b);
}
END_TEST

/* A, B and A again, each written before the next is set: the first A's
 * acknowledgement, with B still to be applied behind it, answers no set;
 * the last A's answers the last set. */
START_TEST(test_done_token_behind_other_content)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);
    static const char *nhs[] = { "1.1.1.1@e0", "2.2.2.2@e0", "1.1.1.1@e0" };

    for (size_t i = 0; i < ARRAY_SIZE(nhs); i++) {
        orchd_bulker_set(b, make_token_entry(4, nhs[i], i + 1));
        orchd_bulker_run(b);
        orchd_bulker_sent(b, f.sent[i], true);
    }
    ck_assert_uint_eq(f.n_sent, 3);
    for (size_t i = 0; i < ARRAY_SIZE(nhs); i++) {
        ack_bulk(b, f.sent[i], true);
        ck_assert_uint_eq(f.n_done_ok, i + 1);
        ck_assert_uint_eq(f.last_token, (i == 2 ? 3 : 0));
    }
    orchd_bulker_destroy(b);
}
END_TEST

/* On the OVSDB southbound a route's removal waits until its transaction's
 * reply is handled, and the route's next write may be acknowledged
 * before: that acknowledgement still answers the last set. */
START_TEST(test_done_token_past_older_removal)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);

    struct orchd_entry *e = make_token_entry(4, "1.1.1.1@e0", 1);
    struct uuid key = e->asic_uuid;

    orchd_bulker_set(b, e);
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    ack_bulk(b, f.sent[0], true);

    orchd_bulker_del(b, &key);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);             /* Not yet sent. */
    orchd_bulker_set(b, make_token_entry(4, "1.1.1.1@e0", 2));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    orchd_bulker_sent(b, f.sent[2], true);
    ack_bulk(b, f.sent[2], true);
    ck_assert_uint_eq(f.n_done_ok, 2);
    ck_assert_uint_eq(f.last_token, 2);

    /* The removal's reply, read late, leaves the newer write programmed. */
    orchd_bulker_sent(b, f.sent[1], true);
    ck_assert_ptr_nonnull(orchd_bulker_get_programmed(b, &key));
    ck_assert_uint_eq(orchd_bulker_n_programmed(b), 1);
    orchd_bulker_destroy(b);
}
END_TEST

/* A write that fails to go out while a newer write of its route waits
 * needs no retry once the newer one is acknowledged. */
START_TEST(test_send_failure_before_waiting_write)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);

    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_set(b, make_entry(4, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    orchd_bulker_sent(b, f.sent[1], true);
    orchd_bulker_sent(b, f.sent[0], false);
    ack_bulk(b, f.sent[1], true);
    ck_assert_uint_eq(f.n_done_ok, 1);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* The same content set again while its write is in flight, and that
 * write fails: the route is known failed, and the next set writes it. */
START_TEST(test_unchanged_while_in_flight_then_failed)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 4);

    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    orchd_bulker_sent(b, f.sent[0], true);
    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));   /* Unchanged. */
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    ack_bulk(b, f.sent[0], false);
    ck_assert_uint_eq(f.n_done_fail, 1);

    orchd_bulker_set(b, make_entry(4, "1.1.1.1@e0"));   /* Retried. */
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* Sorted bulks: removals first, then prefixes in numeric order. */
START_TEST(test_sorted_bulk)
{
    struct orchd_bulker_config cfg = { .max_bulk = 10,
                                       .max_outstanding = 1,
                                       .sorted = true };
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = orchd_bulker_create(&cfg, &fake_cbs, &f);
    struct uuid k9 = key_of(9);
    char buf[FIB_PREFIX_STRLEN];

    orchd_bulker_seed(b, make_entry(9, "1.1.1.1@e0"), true);
    orchd_bulker_set(b, make_entry(300, "1.1.1.1@e0"));
    orchd_bulker_set(b, make_entry(2, "1.1.1.1@e0"));
    orchd_bulker_set(b, make_entry(20, "1.1.1.1@e0"));
    orchd_bulker_del(b, &k9);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.sent[0]->n_items, 4);
    ck_assert_int_eq(f.sent[0]->items[0].op, ORCHD_BULK_REMOVE);
    ck_assert_str_eq(orchd_entry_prefix(f.sent[0]->items[1].entry, buf),
                     "10.0.2.0/24");
    ck_assert_str_eq(orchd_entry_prefix(f.sent[0]->items[2].entry, buf),
                     "10.0.20.0/24");
    ck_assert_str_eq(orchd_entry_prefix(f.sent[0]->items[3].entry, buf),
                     "10.1.44.0/24");
    orchd_bulker_destroy(b);
}
END_TEST

/* A removal names the content it removes, so that a frame can carry its
 * VRF and prefix. */
START_TEST(test_remove_names_content)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 1);
    struct uuid k = key_of(5);
    char buf[FIB_PREFIX_STRLEN];

    orchd_bulker_seed(b, make_entry(5, "1.1.1.1@e0"), true);
    orchd_bulker_del(b, &k);
    orchd_bulker_run(b);
    ck_assert_int_eq(f.sent[0]->items[0].op, ORCHD_BULK_REMOVE);
    ck_assert_str_eq(orchd_entry_prefix(f.sent[0]->items[0].entry, buf),
                     "10.0.5.0/24");
    orchd_bulker_sent(b, f.sent[0], true);
    ck_assert_uint_eq(f.n_done_remove, 1);
    ck_assert(orchd_bulker_is_idle(b));
    orchd_bulker_destroy(b);
}
END_TEST

/* The fake channel's window: whether a bulk may go out. */
static bool fake_window_open;

static bool
fake_can_send(void *f OVS_UNUSED)
{
    return fake_window_open;
}

/* While the channel cannot send, no bulk is built. */
START_TEST(test_can_send_holds_bulks)
{
    static const struct orchd_bulker_cbs cbs = {
        .send = fake_send,
        .done = fake_done,
        .can_send = fake_can_send,
    };
    struct orchd_bulker_config cfg = { .max_bulk = 2,
                                       .max_outstanding = 8 };
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = orchd_bulker_create(&cfg, &cbs, &f);

    for (int i = 0; i < 4; i++) {
        orchd_bulker_set(b, make_entry(i, "1.1.1.1@e0"));
    }
    fake_window_open = false;
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 0);
    ck_assert_uint_eq(orchd_bulker_n_pending(b), 4);
    fake_window_open = true;
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    ck_assert_uint_eq(orchd_bulker_n_taken(b), 4);
    orchd_bulker_destroy(b);
}
END_TEST

/* A write waiting for its ack can be found by its number alone, and
 * acknowledged through what was found: the older write of its route is
 * completed with it, as orchd_bulker_ack() does. */
START_TEST(test_find_seq)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 1, 4);
    struct orchd_bulker_stats st;
    struct orchd_bulk_item *item;

    orchd_bulker_set(b, make_entry(1, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_set(b, make_entry(1, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    orchd_bulker_sent(b, f.sent[1], true);

    int64_t seq0 = f.sent[0]->items[0].seq;
    int64_t seq1 = f.sent[1]->items[0].seq;
    item = orchd_bulker_find_seq(b, seq1);
    ck_assert_ptr_eq(item, &f.sent[1]->items[0]);
    ck_assert_str_eq(item->entry->nexthops[0].key, "2.2.2.2@e0");
    ck_assert_ptr_eq(orchd_bulker_find_seq(b, seq0), &f.sent[0]->items[0]);
    ck_assert_ptr_null(orchd_bulker_find_seq(b, seq1 + 1));
    ck_assert_ptr_null(orchd_bulker_find_seq(b, seq0 - 1));

    orchd_bulker_ack_write(b, item, true, NULL);
    ck_assert_ptr_null(orchd_bulker_find_seq(b, seq1));
    ck_assert_ptr_null(orchd_bulker_find_seq(b, seq0));
    ck_assert_uint_eq(f.n_done_ok, 1);
    ck_assert_str_eq(f.last_nexthop, "2.2.2.2@e0");
    orchd_bulker_get_stats(b, &st);
    ck_assert_uint_eq(st.n_acked, 1);
    ck_assert_uint_eq(st.n_superseded, 1);
    ck_assert_uint_eq(orchd_bulker_n_outstanding(b), 0);
    orchd_bulker_destroy(b);
}
END_TEST

/* In a sorted bulk the writes are in prefix order, not in the order of
 * their numbers: each is still found by its number. */
START_TEST(test_find_seq_sorted)
{
    struct orchd_bulker_config cfg = { .max_bulk = 8, .max_outstanding = 2,
                                       .sorted = true };
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = orchd_bulker_create(&cfg, &fake_cbs, &f);
    int order[] = { 7, 3, 5, 0, 6, 1, 4, 2 };

    for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
        orchd_bulker_set(b, make_entry(order[i], "1.1.1.1@e0"));
    }
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    orchd_bulker_sent(b, f.sent[0], true);

    const struct orchd_bulk *bulk = f.sent[0];
    int64_t first = bulk->first_seq;
    for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
        struct orchd_bulk_item *item = orchd_bulker_find_seq(b, first + i);
        struct uuid k = key_of(order[i]);

        ck_assert_ptr_nonnull(item);
        ck_assert_int_eq(item->seq, first + i);
        ck_assert(uuid_equals(&item->key, &k));
    }
    /* Sorted: the first item is 10.0.0.0/24, queued fourth. */
    ck_assert_int_eq(bulk->items[0].seq, first + 3);
    /* Acknowledged out of order; the last one frees the bulk. */
    for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
        int64_t seq = first + (i * 5) % ARRAY_SIZE(order);

        orchd_bulker_ack_write(b, orchd_bulker_find_seq(b, seq), true, NULL);
    }
    ck_assert_uint_eq(f.n_done_ok, ARRAY_SIZE(order));
    ck_assert_uint_eq(orchd_bulker_n_outstanding(b), 0);
    orchd_bulker_destroy(b);
}
END_TEST

/* Generations: a sweep removes the routes named only in an older one,
 * and only those; deleted routes are not named, seeded ones are. */
START_TEST(test_generations)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 100, 4);
    struct orchd_bulk *bulk;

    orchd_bulker_seed(b, make_entry(9, "9.9.9.9@e0"), true);
    for (int i = 0; i < 4; i++) {
        orchd_bulker_set(b, make_entry(i, "1.1.1.1@e0"));
    }
    struct uuid k3 = key_of(3);
    orchd_bulker_del(b, &k3);
    ck_assert_uint_eq(orchd_bulker_n_named(b), 4);
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);

    /* The new generation names 0 again and changes 1; 2 and the seeded
     * 9 are not named again. */
    orchd_bulker_new_generation(b);
    orchd_bulker_set(b, make_entry(0, "1.1.1.1@e0"));
    orchd_bulker_set(b, make_entry(1, "2.2.2.2@e0"));
    ck_assert_uint_eq(orchd_bulker_n_named(b), 4);
    ck_assert_uint_eq(orchd_bulker_sweep(b), 2);
    ck_assert_uint_eq(orchd_bulker_n_named(b), 2);
    ck_assert_uint_eq(orchd_bulker_sweep(b), 0);

    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    bulk = f.sent[1];
    /* 0 is unchanged (no write), 1 changes, 2 and 9 are removed. */
    ck_assert_uint_eq(bulk->n_items, 3);
    size_t n_removes = 0;
    for (size_t i = 0; i < bulk->n_items; i++) {
        struct uuid k2 = key_of(2), k9 = key_of(9), k1 = key_of(1);

        if (bulk->items[i].op == ORCHD_BULK_REMOVE) {
            ck_assert(uuid_equals(&bulk->items[i].key, &k2)
                      || uuid_equals(&bulk->items[i].key, &k9));
            n_removes++;
        } else {
            ck_assert(uuid_equals(&bulk->items[i].key, &k1));
        }
    }
    ck_assert_uint_eq(n_removes, 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* orchd_bulker_keep() names a route again as it stands, so that a sweep
 * leaves it; a route not named stays unnamed. */
START_TEST(test_keep_spares_from_sweep)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 100, 4);
    struct uuid k0 = key_of(0), k5 = key_of(5);

    orchd_bulker_set(b, make_entry(0, "1.1.1.1@e0"));
    orchd_bulker_set(b, make_entry(1, "1.1.1.1@e0"));
    orchd_bulker_new_generation(b);
    orchd_bulker_keep(b, &k0);
    orchd_bulker_keep(b, &k5);          /* Never named: nothing. */
    ck_assert_uint_eq(orchd_bulker_n_named(b), 2);
    ck_assert_uint_eq(orchd_bulker_sweep(b), 1);
    ck_assert_uint_eq(orchd_bulker_n_named(b), 1);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 1);
    /* 0 created; 1 set then swept before going out: coalesced into
     * nothing, never written. */
    ck_assert_uint_eq(f.sent[0]->n_items, 1);
    ck_assert(uuid_equals(&f.sent[0]->items[0].key, &k0));
    orchd_bulker_destroy(b);
}
END_TEST

/* A far end restored from an older copy: every written route goes out as
 * an update of unknown existence (never a create, which a row the copy
 * holds would refuse), a route removed goes out removed again, and a row
 * the copy brought back that no route names is removed. */
START_TEST(test_resync_lost)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 1);
    struct uuid k1 = key_of(1), k2 = key_of(2), k7 = key_of(7);

    /* 1 programmed; 2 programmed, then removed; the removal in flight. */
    orchd_bulker_set(b, make_entry(1, "1.1.1.1@e0"));
    orchd_bulker_set(b, make_entry(2, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    ack_bulk(b, f.sent[0], true);
    orchd_bulker_del(b, &k2);
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[1], true);
    /* A route set while the far end was away, not yet written. */
    orchd_bulker_set(b, make_entry(3, "1.1.1.1@e0"));

    orchd_bulker_resync_lost(b);
    /* The copy's rows that no route names go: 2, whose removal the copy
     * lacks, and 7; one named stays. */
    ck_assert(orchd_bulker_remove_unnamed(b, &k2, NULL));
    ck_assert(orchd_bulker_remove_unnamed(b, &k7, NULL));
    ck_assert(!orchd_bulker_remove_unnamed(b, &k1, NULL));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);

    const struct orchd_bulk *bulk = f.sent[2];
    size_t n_sets = 0, n_removes = 0;
    for (size_t i = 0; i < bulk->n_items; i++) {
        const struct orchd_bulk_item *item = &bulk->items[i];

        ck_assert_int_ne(item->op, ORCHD_BULK_CREATE);
        ck_assert(!item->resent);
        if (item->op == ORCHD_BULK_REMOVE) {
            ck_assert(uuid_equals(&item->key, &k2)
                      || uuid_equals(&item->key, &k7));
            n_removes++;
        } else {
            ck_assert(item->unknown);
            n_sets++;
        }
    }
    ck_assert_uint_eq(n_sets, 2);       /* 1 and 3. */
    ck_assert_uint_eq(n_removes, 2);    /* 2 and 7. */
    orchd_bulker_sent(b, f.sent[2], true);
    ack_bulk(b, f.sent[2], true);
    ck_assert(orchd_bulker_is_idle(b));
    ck_assert_uint_eq(orchd_bulker_n_written(b), 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* A resync forgets the bulks outstanding and writes every written route
 * again, unchanged ones too; the mark says when all went out. */
START_TEST(test_resync)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 1);
    struct orchd_bulker_stats st;
    struct uuid k1 = key_of(1);
    struct uuid k3 = key_of(3);
    uint64_t mark;

    /* Route 1 programmed; 2 and 3 in a bulk waiting for acks; 3 then
     * deleted while waiting. */
    orchd_bulker_set(b, make_entry(1, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    ack_bulk(b, f.sent[0], true);
    orchd_bulker_set(b, make_entry(2, "1.1.1.1@e0"));
    orchd_bulker_set(b, make_entry(3, "1.1.1.1@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[1], true);
    orchd_bulker_del(b, &k3);
    ck_assert_uint_eq(orchd_bulker_n_outstanding(b), 1);

    mark = orchd_bulker_resync(b);
    ck_assert_uint_eq(orchd_bulker_n_outstanding(b), 0);
    ck_assert_uint_eq(orchd_bulker_n_pending(b), 3);
    ck_assert_uint_eq(mark, orchd_bulker_n_taken(b) + 3);
    orchd_bulker_get_stats(b, &st);
    ck_assert_uint_eq(st.n_superseded, 2);

    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    ck_assert_uint_eq(f.sent[2]->n_items, 3);
    ck_assert_uint_ge(orchd_bulker_n_taken(b), mark);
    /* The deletion was queued before the resync, so it goes first. */
    ck_assert_int_eq(f.sent[2]->items[0].op, ORCHD_BULK_REMOVE);
    ck_assert_int_eq(f.sent[2]->items[1].op, ORCHD_BULK_SET);
    ck_assert_int_eq(f.sent[2]->items[2].op, ORCHD_BULK_SET);
    /* Route 1 was acknowledged as programmed before the resync: resent,
     * its record right.  Route 2's write was lost unacknowledged. */
    ck_assert(uuid_equals(&f.sent[2]->items[1].key, &k1)
              || uuid_equals(&f.sent[2]->items[2].key, &k1));
    for (size_t i = 1; i < 3; i++) {
        const struct orchd_bulk_item *item = &f.sent[2]->items[i];

        ck_assert(item->resent == uuid_equals(&item->key, &k1));
    }
    ck_assert(!f.sent[2]->items[0].resent);
    orchd_bulker_sent(b, f.sent[2], true);
    ack_bulk(b, f.sent[2], true);
    ck_assert(orchd_bulker_is_idle(b));
    ck_assert_uint_eq(orchd_bulker_n_written(b), 2);
    orchd_bulker_destroy(b);
}
END_TEST

/* After a resync, only content acknowledged as programmed and unchanged
 * since goes out 'resent': a seeded settled route, not a seeded unsettled
 * one, not one that failed, not one changed while the resync waited. */
START_TEST(test_resync_resent)
{
    struct fake f = { .n_sent = 0 };
    struct orchd_bulker *b = fake_bulker(&f, 10, 1);
    struct orchd_bulker_stats st;
    struct uuid k[4];

    for (int i = 0; i < 4; i++) {
        k[i] = key_of(i);
    }
    orchd_bulker_seed(b, make_entry(0, "1.1.1.1@e0"), true);
    orchd_bulker_seed(b, make_entry(1, "1.1.1.1@e0"), false);
    orchd_bulker_seed(b, make_entry(2, "1.1.1.1@e0"), true);
    orchd_bulker_seed(b, make_entry(3, "1.1.1.1@e0"), true);

    /* Route 3 fails before the resync; route 2 changes after it. */
    orchd_bulker_set(b, make_entry(3, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    orchd_bulker_sent(b, f.sent[0], true);
    ack_bulk(b, f.sent[0], false);
    ck_assert_uint_eq(f.n_done_fail, 1);

    orchd_bulker_resync(b);
    orchd_bulker_set(b, make_entry(2, "2.2.2.2@e0"));
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 2);
    ck_assert_uint_eq(f.sent[1]->n_items, 4);
    for (size_t i = 0; i < 4; i++) {
        const struct orchd_bulk_item *item = &f.sent[1]->items[i];

        ck_assert_int_eq(item->op, ORCHD_BULK_SET);
        ck_assert(item->resent == uuid_equals(&item->key, &k[0]));
    }
    orchd_bulker_get_stats(b, &st);
    ck_assert_uint_eq(st.n_resent, 1);

    /* All four acknowledged as programmed: a second resync resends every
     * one unchanged, route 2's new content and route 3 included. */
    orchd_bulker_sent(b, f.sent[1], true);
    ack_bulk(b, f.sent[1], true);
    orchd_bulker_resync(b);
    orchd_bulker_run(b);
    ck_assert_uint_eq(f.n_sent, 3);
    for (size_t i = 0; i < f.sent[2]->n_items; i++) {
        ck_assert(f.sent[2]->items[i].resent);
    }
    ck_assert_uint_eq(f.sent[2]->n_items, 4);
    orchd_bulker_destroy(b);
}
END_TEST

Suite *
orchd_bulker_suite(void)
{
    Suite *s = suite_create("orchd_bulker");
    TCase *tc = tcase_create("bulker");

    tcase_add_test(tc, test_bulks_split_at_max);
    tcase_add_test(tc, test_sync_window);
    tcase_add_test(tc, test_async_window_out_of_order_acks);
    tcase_add_test(tc, test_oldest_unacked_seq);
    tcase_add_test(tc, test_add_del_add_one_prefix);
    tcase_add_test(tc, test_newer_ack_supersedes);
    tcase_add_test(tc, test_failure_then_retry);
    tcase_add_test(tc, test_send_failure_requeues);
    tcase_add_test(tc, test_refused_bulk_isolates);
    tcase_add_test(tc, test_programmed);
    tcase_add_test(tc, test_late_ack_after_removal);
    tcase_add_test(tc, test_seed_skips_unchanged);
    tcase_add_test(tc, test_coalesced_back_answered);
    tcase_add_test(tc, test_set_answer);
    tcase_add_test(tc, test_done_tokens);
    tcase_add_test(tc, test_done_token_behind_other_content);
    tcase_add_test(tc, test_send_failure_behind_waiting_write);
    tcase_add_test(tc, test_done_token_past_older_removal);
    tcase_add_test(tc, test_send_failure_before_waiting_write);
    tcase_add_test(tc, test_unchanged_while_in_flight_then_failed);
    tcase_add_test(tc, test_sorted_bulk);
    tcase_add_test(tc, test_remove_names_content);
    tcase_add_test(tc, test_can_send_holds_bulks);
    tcase_add_test(tc, test_find_seq);
    tcase_add_test(tc, test_find_seq_sorted);
    tcase_add_test(tc, test_generations);
    tcase_add_test(tc, test_resync);
    tcase_add_test(tc, test_resync_resent);
    tcase_add_test(tc, test_keep_spares_from_sweep);
    tcase_add_test(tc, test_resync_lost);
    suite_add_tcase(s, tc);
    return s;
}
