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

#include "daemons/syncd/syncd-zmq.h"

#include <string.h>

#include "coverage.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-nexthop-key.h"
#include "daemons/syncd/syncd-status.h"
#include "lib/route-frame.h"
#include "lib/zmq-channel.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd_zmq);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(syncd_zmq_frame);
COVERAGE_DEFINE(syncd_zmq_bad_entry);
COVERAGE_DEFINE(syncd_zmq_resync);

/* Most entries in one RESULTS frame. */
#define MAX_RESULTS_PER_FRAME 1000

/* 'origin.parts[0]' of a removal whose result is not sent: the old route
 * of a bad entry, which orchd hears about through the entry's error. */
#define ORIGIN_SILENT 1

/* The fast path. */
struct syncd_zmq {
    struct syncd_apply *apply;  /* Where operations go. */
    struct zmq_channel *ch;     /* The southbound channel (bound). */
    bool resyncing;             /* Between the peer callback and the
                                 * SYNC_END frame. */

    /* Results being gathered into a frame. */
    struct ofpbuf results;      /* The RESULTS frame. */
    uint32_t n_results;         /* Its entries. */

    /* Scratch for one entry. */
    struct route_frame_reader reader;   /* Reads a frame's entries. */
    struct ds keys;             /* Next-hop keys, each null-terminated. */
    size_t key_ofs[ROUTE_FRAME_MAX_NEXTHOPS];   /* Their offsets. */
    struct syncd_nexthop nhs[ROUTE_FRAME_MAX_NEXTHOPS]; /* Parsed. */

    struct syncd_zmq_stats stats;   /* Counters. */
};

/* ---- Results ------------------------------------------------------------ */

/* Hands the RESULTS frame gathered so far, if any, to the channel. */
static void
send_results(struct syncd_zmq *zq)
{
    if (zq->n_results) {
        route_frame_finish(&zq->results);
        zmq_channel_send(zq->ch, &zq->results);
        zq->n_results = 0;
        zq->stats.result_frames++;
    }
}

/* Adds a result to the RESULTS frame: op 'op' of route 'prefix' in the
 * VRF named by the 'vrf_len' bytes at 'vrf' (1 to 255), write 'seq', with
 * status code 'status' (0: programmed) and, if it is not 0, the reason
 * 'error'. */
static void
put_result(struct syncd_zmq *zq, enum route_frame_op op, const char *vrf,
           size_t vrf_len, const struct fib_prefix *prefix, int64_t seq,
           uint8_t status, const char *error)
{
    struct route_frame_route r = {
        .op = op,
        .status = status,
        .seq = seq,
        .vrf = vrf,
        .vrf_len = MIN(vrf_len, UINT8_MAX),
        .prefix = *prefix,
        .error = error,
        .error_len = error ? MIN(strlen(error), UINT16_MAX) : 0,
    };

    if (!zq->n_results) {
        route_frame_start(&zq->results, ROUTE_FRAME_RESULTS, 0, 0);
    }
    route_frame_put_result(&zq->results, &r);
    if (status) {
        zq->stats.results_error++;
    } else {
        zq->stats.results_ok++;
    }
    if (++zq->n_results >= MAX_RESULTS_PER_FRAME) {
        send_results(zq);
    }
}

/* The apply step's result callback: one result entry per operation that
 * came from orchd or from a sweep. */
void
syncd_zmq_apply_result(const struct syncd_route_result *r, void *zq_)
{
    struct syncd_zmq *zq = zq_;
    unsigned int code;

    if (r->type == SYNCD_OP_DEL && r->origin->parts[0] == ORIGIN_SILENT) {
        return;
    }
    code = syncd_status_code(r->status);
    if (code && r->type == SYNCD_OP_SET) {
        char buf[FIB_PREFIX_STRLEN];

        fib_prefix_format(r->prefix, buf);
        VLOG_WARN_RL(&rl, "%s %s: %s", r->vrf, buf,
                     syncd_status_code_name(code));
    }
    put_result(zq, r->type == SYNCD_OP_DEL ? ROUTE_FRAME_DEL
               : ROUTE_FRAME_SET, r->vrf, strlen(r->vrf), r->prefix, r->seq,
               code, code ? syncd_status_code_name(code) : NULL);
}

/* ---- Entries ------------------------------------------------------------ */

/* Parses the next hops of ROUTES entry 'r' into 'zq->nhs'.  Returns NULL
 * or an error message for the caller to free. */
static char *
parse_nexthops(struct syncd_zmq *zq, const struct route_frame_route *r)
{
    /* Copy every key first: parsing points into the copies. */
    ds_clear(&zq->keys);
    for (size_t i = 0; i < r->n_nexthops; i++) {
        const struct route_frame_nexthop *nh = &r->nexthops[i];

        if (memchr(nh->key, '\0', nh->key_len)) {
            return xstrdup("bad next hop: a key with a null byte");
        }
        zq->key_ofs[i] = zq->keys.length;
        ds_put_buffer(&zq->keys, nh->key, nh->key_len);
        ds_put_char(&zq->keys, '\0');
    }
    for (size_t i = 0; i < r->n_nexthops; i++) {
        char *error = syncd_nexthop_key_parse(
            zq->keys.string + zq->key_ofs[i], r->nexthops[i].weight,
            &zq->nhs[i]);

        if (error) {
            return error;
        }
    }
    return syncd_nexthop_key_check_set(zq->nhs, r->n_nexthops);
}

/* Answers SET 'op', which cannot be used because of 'error', with an error
 * result, and removes its old route, if any, without a result. */
static void
bad_entry(struct syncd_zmq *zq, struct syncd_route_op *op, const char *error)
{
    char buf[FIB_PREFIX_STRLEN];

    zq->stats.bad_entries++;
    COVERAGE_INC(syncd_zmq_bad_entry);
    fib_prefix_format(&op->prefix, buf);
    VLOG_WARN_RL(&rl, "%s %s: entry refused: %s", op->vrf, buf, error);
    put_result(zq, ROUTE_FRAME_SET, op->vrf, strlen(op->vrf), &op->prefix,
               op->seq, SYNCD_ZMQ_STATUS_BAD, error);

    op->type = SYNCD_OP_DEL;
    op->origin.parts[0] = ORIGIN_SILENT;
    syncd_apply_submit(zq->apply, op);
}

/* Answers ROUTES entry 'r', SET or DEL, whose VRF name has a null byte,
 * with an error result, and applies nothing: no VRF of syncd's has such a
 * name, and the name cut at its null byte would be another VRF's. */
static void
refuse_vrf(struct syncd_zmq *zq, const struct route_frame_route *r)
{
    const char *error = "bad VRF name: a null byte";
    char buf[FIB_PREFIX_STRLEN];

    zq->stats.bad_entries++;
    COVERAGE_INC(syncd_zmq_bad_entry);
    fib_prefix_format(&r->prefix, buf);
    VLOG_WARN_RL(&rl, "%s: entry refused: %s", buf, error);
    put_result(zq, r->op, r->vrf, r->vrf_len, &r->prefix, r->seq,
               SYNCD_ZMQ_STATUS_BAD, error);
}

/* Submits ROUTES entry 'r' to the apply step, or answers it with an error
 * if it cannot be used. */
static void
process_entry(struct syncd_zmq *zq, const struct route_frame_route *r)
{
    char vrf[UINT8_MAX + 1];
    struct syncd_route_op op = {
        .vrf = vrf,
        .prefix = r->prefix,
        .seq = r->seq,
    };
    char *error = NULL;

    if (memchr(r->vrf, '\0', r->vrf_len)) {
        refuse_vrf(zq, r);
        return;
    }
    memcpy(vrf, r->vrf, r->vrf_len);
    vrf[r->vrf_len] = '\0';
    if (r->op == ROUTE_FRAME_DEL) {
        zq->stats.dels++;
        op.type = SYNCD_OP_DEL;
        syncd_apply_submit(zq->apply, &op);
        return;
    }

    zq->stats.sets++;
    op.type = SYNCD_OP_SET;
    if (r->action == ROUTE_FRAME_DROP) {
        op.action = SAI_PACKET_ACTION_DROP;
    } else if (r->action == ROUTE_FRAME_TRAP) {
        op.action = SAI_PACKET_ACTION_TRAP;
    } else {
        op.action = SAI_PACKET_ACTION_FORWARD;
        error = parse_nexthops(zq, r);
        op.nexthops = zq->nhs;
        op.n_nexthops = r->n_nexthops;
    }
    if (error) {
        bad_entry(zq, &op, error);
        free(error);
    } else {
        syncd_apply_submit(zq->apply, &op);
    }
}

/* ---- Frames and resync -------------------------------------------------- */

/* route_frame_read_group() callback: passes 0 and 1 prefetch the apply
 * step's bucket, then its first route, for entry 'r'; pass 2 submits it. */
static void
process_group_entry(void *zq_, const struct route_frame_route *r, int pass)
{
    struct syncd_zmq *zq = zq_;

    if (pass < 2) {
        char vrf[UINT8_MAX + 1];

        memcpy(vrf, r->vrf, r->vrf_len);
        vrf[r->vrf_len] = '\0';
        syncd_apply_prefetch(zq->apply, vrf, &r->prefix, pass == 1);
    } else {
        process_entry(zq, r);
    }
}

/* Returns the apply step's count of operations that needed no SAI call. */
static uint64_t
apply_noops(const struct syncd_zmq *zq)
{
    struct syncd_apply_stats st;

    syncd_apply_get_stats(zq->apply, &st);
    return st.noops;
}

/* Ends a resync: removes what it did not confirm. */
static void
end_resync(struct syncd_zmq *zq)
{
    struct syncd_zmq_stats *st = &zq->stats;

    st->sync_ends++;
    if (!zq->resyncing) {
        return;
    }
    zq->resyncing = false;
    st->last_swept = syncd_apply_sweep_stale(zq->apply);
    VLOG_INFO("southbound resync done: %"PRIu64" routes set (%"PRIu64
              " unchanged, %"PRIu64" changed or failed), %"PRIu64
              " of %"PRIu64" stale routes removed",
              st->last_sets, st->last_unchanged,
              st->last_sets - st->last_unchanged, st->last_swept,
              st->last_marked);
}

/* The channel's receive callback: applies a ROUTES frame and answers it
 * with its results. */
static void
recv_frame(void *zq_, const struct route_frame_header *h, const void *frame,
           size_t size)
{
    struct syncd_zmq *zq = zq_;
    uint64_t sets = zq->stats.sets;
    uint64_t noops = 0;

    if (h->type != ROUTE_FRAME_ROUTES) {
        zq->stats.other_frames++;
        VLOG_WARN_RL(&rl, "southbound: %s frame ignored",
                     route_frame_type_name(h->type));
        return;
    }
    zq->stats.frames++;
    COVERAGE_INC(syncd_zmq_frame);
    if (zq->resyncing) {
        noops = apply_noops(zq);
    }

    route_frame_reader_init(&zq->reader, frame, size);
    while (zq->reader.left) {
        route_frame_read_group(&zq->reader, ROUTE_FRAME_GROUP_SIZE, 3,
                               process_group_entry, zq);
    }
    syncd_apply_flush(zq->apply);

    if (zq->resyncing) {
        zq->stats.last_sets += zq->stats.sets - sets;
        zq->stats.last_unchanged += apply_noops(zq) - noops;
    }
    if (h->flags & ROUTE_FRAME_F_SYNC_END) {
        end_resync(zq);
    }
    send_results(zq);
}

/* The channel's peer callback: orchd (re)started and will say again, in
 * full, what it wants. */
static void
peer_restarted(void *zq_)
{
    struct syncd_zmq *zq = zq_;
    struct syncd_zmq_stats *st = &zq->stats;

    st->resyncs++;
    COVERAGE_INC(syncd_zmq_resync);
    st->last_marked = syncd_apply_mark_stale(zq->apply);
    st->last_sets = st->last_unchanged = st->last_swept = 0;
    zq->resyncing = true;

    /* Results for the previous orchd are of no use to the new one. */
    ofpbuf_clear(&zq->results);
    zq->n_results = 0;
    VLOG_INFO("southbound: orchd (re)started: %"PRIu64" routes marked "
              "stale until it has said them again", st->last_marked);
}

/* ---- Public interface --------------------------------------------------- */

/* Creates the fast path: binds the southbound channel at
 * 'options->endpoint' and feeds 'apply', whose result callback must be
 * syncd_zmq_apply_result() with the returned object.  On failure returns
 * NULL and an error message in '*errorp'. */
struct syncd_zmq *
syncd_zmq_create(const struct syncd_zmq_options *options,
                 struct syncd_apply *apply, char **errorp)
{
    struct zmq_channel_options co = {
        .name = "southbound",
        .endpoint = options->endpoint,
        .bind = true,
    };
    struct syncd_zmq *zq = xzalloc(sizeof *zq);

    zq->apply = apply;
    ofpbuf_init(&zq->results, 0);
    ds_init(&zq->keys);
    zq->ch = zmq_channel_create(&co, recv_frame, peer_restarted, zq,
                                errorp);
    if (!zq->ch) {
        syncd_zmq_destroy(zq);
        return NULL;
    }
    return zq;
}

void
syncd_zmq_destroy(struct syncd_zmq *zq)
{
    if (zq) {
        zmq_channel_destroy(zq->ch);
        ofpbuf_uninit(&zq->results);
        ds_destroy(&zq->keys);
        free(zq);
    }
}

void
syncd_zmq_run(struct syncd_zmq *zq)
{
    zmq_channel_run(zq->ch);
}

void
syncd_zmq_wait(struct syncd_zmq *zq)
{
    zmq_channel_wait(zq->ch);
}

void
syncd_zmq_get_stats(const struct syncd_zmq *zq, struct syncd_zmq_stats *st)
{
    *st = zq->stats;
}

/* Appends the channel's state and the fast path's counters to 's', for
 * zmq/show. */
void
syncd_zmq_format(const struct syncd_zmq *zq, struct ds *s)
{
    const struct syncd_zmq_stats *st = &zq->stats;

    zmq_channel_format(zq->ch, s);
    ds_put_format(s, "  routes in: %"PRIu64" frames, %"PRIu64" set, %"
                  PRIu64" del, %"PRIu64" bad entries, %"PRIu64
                  " other frames\n", st->frames, st->sets, st->dels,
                  st->bad_entries, st->other_frames);
    ds_put_format(s, "  results out: %"PRIu64" programmed, %"PRIu64
                  " failed, in %"PRIu64" frames; frames not yet acked %"
                  PRIuSIZE"\n", st->results_ok, st->results_error,
                  st->result_frames, zmq_channel_n_unacked(zq->ch));
    ds_put_format(s, "  resyncs: %"PRIu64" (%s), ended %"PRIu64
                  "; last: %"PRIu64" marked, %"PRIu64" set (%"PRIu64
                  " unchanged), %"PRIu64" removed\n", st->resyncs,
                  zq->resyncing ? "one under way" : "none under way",
                  st->sync_ends, st->last_marked, st->last_sets,
                  st->last_unchanged, st->last_swept);
}
