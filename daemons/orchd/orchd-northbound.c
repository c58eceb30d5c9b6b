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
#include "daemons/orchd/orchd-northbound.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-worker.h"
#include "lib/route-frame.h"
#include "lib/setting.h"
#include "lib/zmq-channel.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/list.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_northbound);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(orchd_nb_set);
COVERAGE_DEFINE(orchd_nb_del);
COVERAGE_DEFINE(orchd_nb_refused);
COVERAGE_DEFINE(orchd_nb_pause);

/* The northbound fast path. */
struct orchd_northbound {
    struct zmq_channel *ch;     /* Bound; fpmsyncd connects. */
    char *endpoint;             /* Where. */
    struct orchd_worker *worker; /* Where routes go. */
    struct orchd_entry_space *entries; /* Its entries' instance and VRF
                                        * names. */

    /* Resync: the worker's bulker keeps, for each route, whether it is
     * named and in which generation (orchd-bulker.h, "Generations"). */
    bool resyncing;             /* Between the peer callback and
                                 * SYNC_END. */

    /* Decoding scratch, reused for every entry. */
    struct route_frame_reader reader; /* Of the frame being read. */
    struct ds keys;             /* Null-terminated copies of next-hop
                                 * keys. */
    size_t key_ofs[ROUTE_FRAME_MAX_NEXTHOPS]; /* Their offsets in 'keys'. */
    const char *key_ptrs[ROUTE_FRAME_MAX_NEXTHOPS]; /* Their addresses. */
    int64_t weights[ROUTE_FRAME_MAX_NEXTHOPS]; /* Their weights. */

    /* Entries of the frame being read, decoded but not yet handed to the
     * worker: a group's lookups in the worker's table are prefetched
     * together (orchd_worker_prefetch()), buckets as they are decoded,
     * then chains, so that their cache misses overlap. */
    struct nb_held {
        struct orchd_entry *entry; /* SET: the entry; NULL for a DEL. */
        struct uuid key;        /* The route's Asic_Route key. */
        bool answer;            /* SET: ROUTE_FRAME_EF_ANSWER. */
    } held[ROUTE_FRAME_GROUP_SIZE];
    size_t n_held;              /* Entries in 'held'. */

    /* Back-pressure. */
    bool receiving;             /* Reading the channel. */

    /* fpmsyncd's Route writes (ROUTE_FRAME_F_DB_BEHIND). */
    bool db_behind;             /* The last frame said "behind". */
    long long int db_behind_ms; /* When a frame last said so. */

    /* Results to send. */
    struct ofpbuf *out;         /* RESULTS frame being filled, or NULL. */
    size_t n_out;               /* Entries in 'out'. */
    struct ovs_list ready;      /* Full frames ('struct ofpbuf's). */

    /* Counters. */
    uint64_t n_frames;          /* ROUTES frames received. */
    uint64_t n_sets;            /* SET entries submitted. */
    uint64_t n_dels;            /* DEL entries submitted. */
    uint64_t n_refused;         /* Entries that could not be used. */
    uint64_t n_unexpected;      /* Frames of the wrong type. */
    uint64_t n_resyncs;         /* Peer callbacks. */
    uint64_t n_sync_ends;       /* Resyncs ended. */
    uint64_t n_pauses;          /* Times receiving stopped. */
    uint64_t n_results;         /* Result entries queued. */
    size_t n_results_waiting;   /* Of those, not handed to the channel. */
    uint64_t n_results_dropped; /* Results not sent: successes while FIB
                                 * suppression is off, or any dropped at a
                                 * peer restart. */
};

static zmq_channel_recv_cb nb_recv_cb;
static zmq_channel_peer_cb nb_peer_cb;

/* Starts the northbound fast path: binds the channel at 'endpoint' (the
 * caller chooses it: lib/fibsync-instance.h has each instance's default),
 * feeding 'worker'.  Exits if the channel cannot be bound. */
struct orchd_northbound *
orchd_northbound_create(const char *endpoint, struct orchd_worker *worker,
                        struct orchd_entry_space *entries)
{
    struct orchd_northbound *nb = xzalloc(sizeof *nb);
    struct zmq_channel_options opts = {
        .name = "northbound",
        .bind = true,
    };
    char *error;

    nb->endpoint = xstrdup(endpoint);
    nb->entries = entries;
    opts.endpoint = nb->endpoint;
    nb->ch = zmq_channel_create(&opts, nb_recv_cb, nb_peer_cb, nb, &error);
    if (!nb->ch) {
        ovs_fatal(0, "%s", error);
    }
    VLOG_INFO("northbound: routes come from fpmsyncd over ZeroMQ (%s)",
              nb->endpoint);
    nb->worker = worker;
    ds_init(&nb->keys);
    nb->receiving = true;
    ovs_list_init(&nb->ready);
    return nb;
}

/* Drops the results not sent yet. */
static void
drop_results(struct orchd_northbound *nb)
{
    ofpbuf_delete(nb->out);
    nb->out = NULL;
    nb->n_out = 0;
    ofpbuf_list_delete(&nb->ready);
    nb->n_results_dropped += nb->n_results_waiting;
    nb->n_results_waiting = 0;
}

void
orchd_northbound_destroy(struct orchd_northbound *nb)
{
    if (!nb) {
        return;
    }
    zmq_channel_destroy(nb->ch);
    ds_destroy(&nb->keys);
    drop_results(nb);
    free(nb->endpoint);
    free(nb);
}

/* Results. */

/* Appends a result for 'op' on ('vrf', 'prefix') to the results to send:
 * programmed if 'status' is 0, otherwise failed because of 'error'; it
 * echoes 'token' (see orchd_entry). */
static void
put_result(struct orchd_northbound *nb, uint8_t op, const char *vrf,
           size_t vrf_len, const struct fib_prefix *prefix, uint8_t status,
           const char *error, uint8_t token)
{
    struct route_frame_route rr;

    memset(&rr, 0, sizeof rr);
    rr.op = op;
    rr.status = status;
    rr.vrf = vrf;
    rr.vrf_len = MIN(vrf_len, UINT8_MAX);
    rr.prefix = *prefix;
    rr.error = error;
    rr.error_len = error ? MIN(strlen(error), UINT16_MAX) : 0;
    rr.seq = token;
    if (!rr.vrf_len) {
        return;
    }
    if (!nb->out) {
        nb->out = ofpbuf_new(4096);
        route_frame_start(nb->out, ROUTE_FRAME_RESULTS, 0, 0);
    }
    route_frame_put_result(nb->out, &rr);
    nb->n_results++;
    nb->n_results_waiting++;
    if (++nb->n_out >= ORCHD_NORTHBOUND_FRAME_MAX) {
        ovs_list_push_back(&nb->ready, &nb->out->list_node);
        nb->out = NULL;
        nb->n_out = 0;
    }
}

/* Takes the worker's results in 'results' (orchd_worker_take_results())
 * and queues them for fpmsyncd: failures always, successes only if
 * 'send_ok' (FIB suppression is on), as status_run() writes them into
 * Route.status on the OVSDB path. */
void
orchd_northbound_results(struct orchd_northbound *nb,
                         struct ovs_list *results, bool send_ok)
{
    struct orchd_worker_result *r;

    LIST_FOR_EACH_POP (r, node, results) {
        /* fpmsyncd checks that the result is about the content its route
         * has now and answers its last SET (the token): a route changed
         * or removed since counts as stale there. */
        if (send_ok || !r->ok) {
            put_result(nb, ROUTE_FRAME_SET, r->vrf, strlen(r->vrf),
                       &r->prefix, !r->ok, r->ok ? NULL
                       : r->error ? r->error : "failed", r->token);
        } else {
            nb->n_results_dropped++;
        }
        orchd_worker_result_destroy(r);
    }
}

/* Sends the results queued, while the channel has room. */
static void
flush_results(struct orchd_northbound *nb)
{
    if (nb->out && zmq_channel_can_send(nb->ch)) {
        ovs_list_push_back(&nb->ready, &nb->out->list_node);
        nb->out = NULL;
        nb->n_out = 0;
    }
    while (!ovs_list_is_empty(&nb->ready) && zmq_channel_can_send(nb->ch)) {
        struct ofpbuf *b = ofpbuf_from_list(ovs_list_pop_front(&nb->ready));
        struct route_frame_header h;

        route_frame_parse_header(b->data, b->size, &h);
        nb->n_results_waiting -= h.count;
        zmq_channel_send(nb->ch, b);
        ofpbuf_delete(b);
    }
}

/* Routes in. */

/* Answers entry 'e' with an error result: it cannot be used, because of
 * 'why'. */
static void
refuse(struct orchd_northbound *nb, const struct route_frame_route *e,
       const char *why)
{
    char buf[FIB_PREFIX_STRLEN];

    nb->n_refused++;
    COVERAGE_INC(orchd_nb_refused);
    fib_prefix_format(&e->prefix, buf);
    VLOG_WARN_RL(&rl, "northbound: %s: %s", buf, why);
    put_result(nb, e->op, e->vrf, e->vrf_len, &e->prefix, 1, why, e->seq);
}

/* Hands the entries held back (see 'held') to the worker, in order,
 * their chains prefetched first. */
static void
release_held(struct orchd_northbound *nb)
{
    for (size_t i = 0; i < nb->n_held; i++) {
        orchd_worker_prefetch(nb->worker, &nb->held[i].key, true);
    }
    for (size_t i = 0; i < nb->n_held; i++) {
        struct nb_held *h = &nb->held[i];

        if (h->entry && h->answer) {
            orchd_worker_set_answer(nb->worker, h->entry);
        } else if (h->entry) {
            orchd_worker_set(nb->worker, h->entry);
        } else {
            orchd_worker_del(nb->worker, &h->key);
        }
    }
    nb->n_held = 0;
}

/* Holds back the SET of 'entry' (if nonnull; 'answer' as its
 * ROUTE_FRAME_EF_ANSWER says) or the DEL of route 'key', its bucket
 * prefetched; a full group is handed over. */
static void
hold(struct orchd_northbound *nb, struct orchd_entry *entry,
     const struct uuid *key, bool answer)
{
    struct nb_held *h = &nb->held[nb->n_held++];

    h->entry = entry;
    h->key = *key;
    h->answer = answer;
    orchd_worker_prefetch(nb->worker, key, false);
    if (nb->n_held == ARRAY_SIZE(nb->held)) {
        release_held(nb);
    }
}

/* Handles SET entry 'e' of VRF 'vrf'. */
static void
handle_set(struct orchd_northbound *nb, const struct route_frame_route *e,
           const char *vrf)
{
    enum orchd_action action = ORCHD_ACTION_FORWARD;
    size_t n = e->n_nexthops;
    struct orchd_entry *entry;

    if (e->action == ROUTE_FRAME_DROP) {
        action = ORCHD_ACTION_DROP;
    } else if (e->action == ROUTE_FRAME_TRAP || !n) {
        /* No next hop at all: punt to the CPU, as on the OVSDB path. */
        action = ORCHD_ACTION_TRAP;
    }
    if (action != ORCHD_ACTION_FORWARD) {
        n = 0;
    }

    ds_clear(&nb->keys);
    for (size_t i = 0; i < n; i++) {
        const struct route_frame_nexthop *nh = &e->nexthops[i];

        if (memchr(nh->key, '\0', nh->key_len)) {
            refuse(nb, e, "bad next-hop key");
            return;
        }
        nb->key_ofs[i] = nb->keys.length;
        ds_put_buffer(&nb->keys, nh->key, nh->key_len);
        ds_put_char(&nb->keys, '\0');
        nb->weights[i] = nh->weight;
    }
    for (size_t i = 0; i < n; i++) {
        nb->key_ptrs[i] = nb->keys.string + nb->key_ofs[i];
    }
    entry = orchd_entry_create(nb->entries, vrf, &e->prefix, action,
                               nb->key_ptrs,
                               nb->weights, n);
    /* No Route row is replicated on this path: the entry names its route
     * by its Asic_Route key (a result needs a nonzero one, see
     * orchd_worker_result). */
    entry->route_uuid = entry->asic_uuid;
    entry->token = e->seq;
    hold(nb, entry, &entry->asic_uuid,
         (e->flags & ROUTE_FRAME_EF_ANSWER) != 0);
    nb->n_sets++;
    COVERAGE_INC(orchd_nb_set);
}

/* Handles DEL entry 'e' of VRF 'vrf'. */
static void
handle_del(struct orchd_northbound *nb, const struct route_frame_route *e,
           const char *vrf)
{
    struct uuid key;

    orchd_entry_asic_uuid(nb->entries->instance, vrf, &e->prefix, &key);
    hold(nb, NULL, &key, false);
    nb->n_dels++;
    COVERAGE_INC(orchd_nb_del);
}

/* Handles one ROUTES entry. */
static void
handle_route(struct orchd_northbound *nb, const struct route_frame_route *e)
{
    char vrf[UINT8_MAX + 1];

    if (memchr(e->vrf, '\0', e->vrf_len)) {
        refuse(nb, e, "bad VRF name");
        return;
    }
    memcpy(vrf, e->vrf, e->vrf_len);
    vrf[e->vrf_len] = '\0';
    if (e->op == ROUTE_FRAME_SET) {
        handle_set(nb, e, vrf);
    } else {
        handle_del(nb, e, vrf);
    }
}

/* Ends a resync: removes every route it did not name (the worker logs how
 * many). */
static void
sweep(struct orchd_northbound *nb)
{
    orchd_worker_sweep(nb->worker, "northbound: resync");
    nb->resyncing = false;
    nb->n_sync_ends++;
    /* orchd knows every route now: syncd may sweep what it did not say. */
    orchd_worker_release_resync(nb->worker);
}

/* zmq_channel_recv_cb: a frame from fpmsyncd. */
static void
nb_recv_cb(void *nb_, const struct route_frame_header *h, const void *frame,
           size_t size)
{
    struct orchd_northbound *nb = nb_;
    struct route_frame_reader *rd = &nb->reader;
    struct route_frame_route e;

    if (h->type != ROUTE_FRAME_ROUTES) {
        nb->n_unexpected++;
        VLOG_WARN_RL(&rl, "northbound: %s frame from fpmsyncd ignored",
                     route_frame_type_name(h->type));
        return;
    }
    nb->n_frames++;
    nb->db_behind = (h->flags & ROUTE_FRAME_F_DB_BEHIND) != 0;
    if (nb->db_behind) {
        nb->db_behind_ms = time_msec();
    }
    route_frame_reader_init(rd, frame, size);
    while (rd->left && !route_frame_read(rd, &e)) {
        handle_route(nb, &e);
    }
    release_held(nb);
    if ((h->flags & ROUTE_FRAME_F_SYNC_END) && nb->resyncing) {
        sweep(nb);
    }
}

/* zmq_channel_peer_cb: fpmsyncd (re)started.  Everything orchd holds is
 * unconfirmed until the resync names it. */
static void
nb_peer_cb(void *nb_)
{
    struct orchd_northbound *nb = nb_;

    orchd_worker_new_generation(nb->worker);
    nb->resyncing = true;
    nb->db_behind = false;
    nb->n_resyncs++;
    drop_results(nb);
    VLOG_INFO("northbound: fpmsyncd (re)started: resync of %"PRIuSIZE
              " routes", orchd_worker_n_named(nb->worker));
}

/* The main loop. */

/* Returns true if fpmsyncd's Route writes are behind, as a frame said
 * within ORCHD_NB_DB_BEHIND_MS. */
static bool
db_is_behind(const struct orchd_northbound *nb)
{
    return (nb->db_behind
            && time_msec() < nb->db_behind_ms + ORCHD_NB_DB_BEHIND_MS);
}

/* Stops receiving while the worker has too much pending, and resumes
 * below half of that. */
static void
backpressure_run(struct orchd_northbound *nb)
{
    size_t n = orchd_worker_n_pending(nb->worker);

    if (!nb->receiving && n < ORCHD_NORTHBOUND_MAX_PENDING / 2) {
        nb->receiving = true;
        zmq_channel_set_receiving(nb->ch, true);
    } else if (nb->receiving && n >= ORCHD_NORTHBOUND_MAX_PENDING) {
        nb->receiving = false;
        nb->n_pauses++;
        COVERAGE_INC(orchd_nb_pause);
        zmq_channel_set_receiving(nb->ch, false);
    }
}

void
orchd_northbound_run(struct orchd_northbound *nb)
{
    backpressure_run(nb);
    zmq_channel_run(nb->ch);
    flush_results(nb);
    orchd_worker_yield_writebehind(nb->worker, db_is_behind(nb));
}

void
orchd_northbound_wait(struct orchd_northbound *nb)
{
    zmq_channel_wait(nb->ch);
    if (!nb->receiving) {
        /* The worker does not wake us when it becomes idle. */
        poll_timer_wait(10);
    }
    if (db_is_behind(nb)) {
        poll_timer_wait_until(nb->db_behind_ms + ORCHD_NB_DB_BEHIND_MS);
    }
    if ((nb->out || !ovs_list_is_empty(&nb->ready))
        && zmq_channel_can_send(nb->ch)) {
        poll_immediate_wake();
    }
}

/* Introspection. */

/* Appends features/show's lines about the northbound path to 's': 'nb'
 * (NULL if off) and the setting 'zmq' that chose it. */
void
orchd_northbound_format_path(const struct orchd_northbound *nb,
                             const struct setting *zmq, struct ds *s)
{
    ds_put_format(s, "northbound: %s%s%s\n", nb ? "zmq " : "ovsdb",
                  nb ? nb->endpoint : "",
                  !zmq->value != !nb ? " until orchd restarts" : "");
    if (nb) {
        ds_put_cstr(s, "route index: off on the northbound ZeroMQ path "
                    "(no Route replica)\n");
    }
}

/* Appends zmq/show's lines about the northbound channel of 'nb' (NULL if
 * it is off) to 's'. */
void
orchd_northbound_format(const struct orchd_northbound *nb, struct ds *s)
{
    if (!nb) {
        ds_put_cstr(s, "northbound: ovsdb (ZeroMQ off)\n");
        return;
    }
    zmq_channel_format(nb->ch, s);
    ds_put_format(s, "routes: %"PRIuSIZE" held, %"PRIu64" frames, %"PRIu64
                  " sets, %"PRIu64" deletes, %"PRIu64" refused, %"PRIu64
                  " unexpected frames\n", orchd_worker_n_named(nb->worker),
                  nb->n_frames, nb->n_sets, nb->n_dels, nb->n_refused,
                  nb->n_unexpected);
    ds_put_format(s, "resyncs: %"PRIu64" started, %"PRIu64" complete%s, %"
                  PRIu64" stale routes removed\n", nb->n_resyncs,
                  nb->n_sync_ends, nb->resyncing ? " (one under way)" : "",
                  orchd_worker_n_swept(nb->worker));
    ds_put_format(s, "receiving: %s, %"PRIu64" pauses (at %d routes "
                  "pending in the worker; %"PRIuSIZE" now)\n",
                  nb->receiving ? "yes" : "no (worker busy)", nb->n_pauses,
                  ORCHD_NORTHBOUND_MAX_PENDING,
                  orchd_worker_n_pending(nb->worker));
    ds_put_format(s, "fpmsyncd's Route writes: %s\n",
                  db_is_behind(nb) ? "behind (Asic_Route write-behind "
                  "yields)" : "not behind");
    ds_put_format(s, "results: %"PRIu64" queued, %"PRIuSIZE" waiting to be "
                  "sent, %"PRIu64" dropped\n", nb->n_results,
                  nb->n_results_waiting, nb->n_results_dropped);
}
