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
 * orchd-southbound: orchd's end of the southbound fast path.
 */

#include <config.h>

#include "daemons/orchd/orchd-southbound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-bulker.h"
#include "daemons/orchd/orchd-entry.h"
#include "daemons/orchd/orchd-writebehind.h"
#include "lib/fibsync-instance.h"
#include "lib/global-follower.h"
#include "lib/option-parse.h"
#include "lib/route-frame.h"
#include "lib/setting.h"
#include "lib/zmq-channel.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_southbound);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(orchd_southbound_bulk);
COVERAGE_DEFINE(orchd_southbound_resync);

/* ---- Settings ----------------------------------------------------------- */

/* Initializes 'sb' with the defaults. */
void
orchd_southbound_settings_init(struct orchd_southbound_settings *sb)
{
    *sb = (struct orchd_southbound_settings) {
        .zmq = SETTING_INITIALIZER("southbound_zmq", 0),
        .write_behind = SETTING_INITIALIZER("asic_route_write_behind", 1),
    };
}

/* Frees what 'sb' holds. */
void
orchd_southbound_settings_destroy(struct orchd_southbound_settings *sb)
{
    free(sb->endpoint);
    free(sb->chosen_options.endpoint);
}

/* --southbound-zmq=on|off. */
void
orchd_southbound_set_zmq(struct orchd_southbound_settings *sb,
                         const char *on_off)
{
    setting_set_cmdline(&sb->zmq,
                        option_parse_on_off("southbound-zmq", on_off));
}

/* --instance=N: the default endpoint is instance N's. */
void
orchd_southbound_set_instance(struct orchd_southbound_settings *sb,
                              int instance)
{
    sb->instance = instance;
}

/* --southbound-endpoint=E. */
void
orchd_southbound_set_endpoint(struct orchd_southbound_settings *sb,
                              const char *endpoint)
{
    free(sb->endpoint);
    sb->endpoint = xstrdup(endpoint);
}

/* --asic-route-write-behind=on|off. */
void
orchd_southbound_set_write_behind(struct orchd_southbound_settings *sb,
                                  const char *on_off)
{
    setting_set_cmdline(&sb->write_behind,
                        option_parse_on_off("asic-route-write-behind",
                                            on_off));
}

/* Prints the options' part of --help. */
void
orchd_southbound_usage(void)
{
    printf("\n\
Southbound fast path (orchd -> syncd over ZeroMQ, instead of Asic_Route;\n\
each overrides the matching Global column, chosen once at start):\n\
  --southbound-zmq=on|off send bulks to syncd over ZeroMQ [off]\n\
  --southbound-endpoint=E syncd's endpoint\n\
                          [ipc://$FIBSYNC_RUNDIR/southbound.zmq]\n\
  --asic-route-write-behind=on|off\n\
                          write Asic_Route rows behind the results [on]\n");
}

/* Reads the Global row that 'g' follows into the settings. */
void
orchd_southbound_read_global(struct orchd_southbound_settings *sb,
                             const struct global_follower *g)
{
    global_follower_set_boolean(g, &sb->zmq, "southbound_zmq");
    global_follower_set_boolean(g, &sb->write_behind,
                                "asic_route_write_behind");
}

/* Fixes the path from the settings in force, once, and returns the fast
 * path's options if it is on, otherwise NULL. */
const struct orchd_southbound_options *
orchd_southbound_choose(struct orchd_southbound_settings *sb)
{
    struct orchd_southbound_options *co = &sb->chosen_options;

    if (!sb->chosen) {
        sb->chosen = true;
        sb->chosen_zmq = sb->zmq.value;
        co->write_behind = sb->write_behind.value;
        co->instance = sb->instance;
        co->endpoint = (sb->endpoint
                        ? xstrdup(sb->endpoint)
                        : fibsync_instance_endpoint("southbound",
                                                    sb->instance));
        if (sb->chosen_zmq) {
            VLOG_INFO("southbound path: ZeroMQ to %s, Asic_Route %s",
                      co->endpoint, co->write_behind
                      ? "written behind" : "not written");
        } else {
            VLOG_INFO("southbound path: OVSDB (Asic_Route)");
        }
    }
    return sb->chosen_zmq ? co : NULL;
}

/* Returns true if the fast path was chosen: acknowledgements then come
 * from syncd over ZeroMQ, not from Asic_Route. */
bool
orchd_southbound_enabled(const struct orchd_southbound_settings *sb)
{
    return sb->chosen_zmq;
}

/* Appends the settings and the path chosen to 's', for features/show. */
void
orchd_southbound_format_features(const struct orchd_southbound_settings *sb,
                                 struct ds *s)
{
    static const char *const tags[] = {
        [SETTING_DEFAULT] = "default",
        [SETTING_GLOBAL] = "Global",
        [SETTING_CMDLINE] = "command line",
    };
    const struct setting *settings[] = { &sb->zmq, &sb->write_behind };
    const struct orchd_southbound_options *co = &sb->chosen_options;

    for (size_t i = 0; i < ARRAY_SIZE(settings); i++) {
        ds_put_format(s, "%-24s %-8"PRId64" (%s)\n", settings[i]->name,
                      settings[i]->value, tags[settings[i]->source]);
    }
    if (sb->chosen_zmq) {
        ds_put_format(s, "southbound: zmq %s (Asic_Route %s)",
                      co->endpoint, co->write_behind
                      ? "written behind" : "not written");
    } else {
        ds_put_cstr(s, "southbound: ovsdb");
    }
    if (sb->chosen && (sb->zmq.value != sb->chosen_zmq
                       || (sb->chosen_zmq && sb->write_behind.value
                           != co->write_behind))) {
        ds_put_cstr(s, " until orchd restarts");
    }
    ds_put_char(s, '\n');
}

/* ---- The channel -------------------------------------------------------- */

/* orchd's end of the channel. */
struct orchd_southbound {
    struct zmq_channel *ch;     /* The southbound channel (connects). */
    struct orchd_bulker *bulker; /* Whose bulks go out, acks come in. */
    struct orchd_writebehind *wb; /* Writes rows behind, or NULL. */
    bool stalled;               /* Window found full with routes waiting. */
    int instance;               /* The ASIC instance of the entries. */

    /* Resync. */
    bool resync_pending;        /* SYNC_END not sent yet. */
    bool resync_held;           /* Send no SYNC_END yet: orchd itself does
                                 * not know every route (see
                                 * orchd_southbound_release_resync()). */
    uint64_t resync_mark;       /* orchd_bulker_resync()'s mark. */
    bool resync_deferred;       /* syncd connected while the resync was
                                 * held: every route goes again once it
                                 * is released (peer_restarted()). */
    struct hmap dels;           /* Routes whose removal went out and whose
                                 * result has not come back, as struct
                                 * sent_del: a resync sends them again
                                 * (start_resync()). */

    /* Scratch. */
    struct route_frame_reader reader;   /* Reads RESULTS. */
    struct route_frame_nexthop nhs[ROUTE_FRAME_MAX_NEXTHOPS]; /* Next hops
                                                               * of an
                                                               * entry. */

    struct orchd_southbound_stats stats; /* Counters. */
};

/* The frame's action for 'action'. */
static uint8_t
frame_action(enum orchd_action action)
{
    return (action == ORCHD_ACTION_DROP ? ROUTE_FRAME_DROP
            : action == ORCHD_ACTION_TRAP ? ROUTE_FRAME_TRAP
            : ROUTE_FRAME_FORWARD);
}

/* Appends 'item' as a ROUTES entry to 'frame'.  Returns false, appending
 * nothing, if no valid entry can carry it (a frame the receiver refuses
 * would be refused whole, every time it is sent again). */
static bool
put_item(struct orchd_southbound *sb, struct ofpbuf *frame,
         const struct orchd_bulk_item *item)
{
    const struct orchd_entry *e = item->entry;
    size_t vrf_len = e ? strlen(e->vrf) : 0;
    bool set = item->op != ORCHD_BULK_REMOVE;

    if (!e || !vrf_len || vrf_len > UINT8_MAX
        || e->n_nexthops > ROUTE_FRAME_MAX_NEXTHOPS) {
        return false;
    }

    struct route_frame_route r = {
        .op = set ? ROUTE_FRAME_SET : ROUTE_FRAME_DEL,
        .seq = item->seq,
        .vrf = e->vrf,
        .vrf_len = vrf_len,
        .prefix = e->prefix,
    };
    if (set) {
        r.action = frame_action(e->action);
        if (e->action == ORCHD_ACTION_FORWARD) {
            for (size_t i = 0; i < e->n_nexthops; i++) {
                const struct orchd_entry_nexthop *nh = &e->nexthops[i];

                if (!nh->weight || !nh->key_len
                    || nh->key_len > UINT16_MAX) {
                    return false;
                }
                sb->nhs[i].key = nh->key;
                sb->nhs[i].key_len = nh->key_len;
                sb->nhs[i].weight = nh->weight;
            }
            r.nexthops = sb->nhs;
            r.n_nexthops = e->n_nexthops;
        }
    }
    route_frame_put_route(frame, &r);
    return true;
}

/* Sends the frame that ends a resync, once every route the resync queued
 * has gone out. */
static void
maybe_end_resync(struct orchd_southbound *sb)
{
    if (sb->resync_pending && !sb->resync_held && zmq_channel_is_up(sb->ch)
        && orchd_bulker_n_taken(sb->bulker) >= sb->resync_mark) {
        struct ofpbuf frame;

        ofpbuf_init(&frame, ROUTE_FRAME_HEADER_LEN);
        route_frame_start(&frame, ROUTE_FRAME_ROUTES, 0, 0);
        route_frame_set_header(frame.data, ROUTE_FRAME_F_SYNC_END, 0, 0);
        route_frame_finish(&frame);
        zmq_channel_send(sb->ch, &frame);
        ofpbuf_uninit(&frame);
        sb->resync_pending = false;
        sb->stats.sync_ends++;
        VLOG_INFO("southbound: resync sent (%"PRIuSIZE" routes)",
                  orchd_bulker_n_written(sb->bulker));
    }
}

static void start_resync(struct orchd_southbound *);

/* Returns the bulker's count of routes taken off its queue once every
 * route queued so far has been (orchd_bulker_n_taken()). */
static uint64_t
queued_mark(const struct orchd_southbound *sb)
{
    return (orchd_bulker_n_taken(sb->bulker)
            + orchd_bulker_n_pending(sb->bulker));
}

/* Lets a resync end once every route queued so far has gone out.
 *
 * A restarted orchd on the northbound fast path learns its routes from
 * fpmsyncd's resync, not from OVSDB (whose Asic_Route rows, written
 * behind, may lag far behind the ASIC).  Ending the southbound resync
 * before that makes syncd sweep, as stale, every route orchd has not
 * heard of yet, and create it again a moment later: churn in the ASIC.
 * So orchd holds the end of its resync (options->hold_resync_end) until
 * the northbound resync is complete, then calls this. */
void
orchd_southbound_release_resync(struct orchd_southbound *sb)
{
    if (sb->resync_held) {
        uint64_t mark = queued_mark(sb);

        sb->resync_held = false;
        if (sb->resync_deferred) {
            sb->resync_deferred = false;
            start_resync(sb);
        }
        sb->resync_mark = MAX(sb->resync_mark, mark);
        maybe_end_resync(sb);
    }
}

/* A removal sent, its result not back yet. */
struct sent_del {
    struct hmap_node node;      /* In 'dels', by uuid_hash() of its key. */
    struct orchd_entry *entry;  /* What was removed (a reference). */
};

/* Returns the removal of 'key' in 'sb->dels', or NULL. */
static struct sent_del *
sent_del_find(const struct orchd_southbound *sb, const struct uuid *key)
{
    struct sent_del *d;

    HMAP_FOR_EACH_WITH_HASH (d, node, uuid_hash(key), &sb->dels) {
        if (uuid_equals(&d->entry->asic_uuid, key)) {
            return d;
        }
    }
    return NULL;
}

/* Records that the removal of 'e' went out. */
static void
sent_del_add(struct orchd_southbound *sb, const struct orchd_entry *e)
{
    struct sent_del *d = sent_del_find(sb, &e->asic_uuid);

    if (!d) {
        d = xmalloc(sizeof *d);
        d->entry = orchd_entry_ref(e);
        hmap_insert(&sb->dels, &d->node, uuid_hash(&e->asic_uuid));
    }
}

/* Forgets the removal 'd'. */
static void
sent_del_remove(struct orchd_southbound *sb, struct sent_del *d)
{
    hmap_remove(&sb->dels, &d->node);
    orchd_entry_unref(d->entry);
    free(d);
}

/* syncd answered the removal of 'key': it is done with. */
static void
del_answered(struct orchd_southbound *sb, const struct uuid *key)
{
    struct sent_del *d = sent_del_find(sb, key);

    if (d) {
        sent_del_remove(sb, d);
    }
}

/* A write no frame can carry. */
struct unsendable {
    struct uuid key;            /* Its route. */
    int64_t seq;                /* Its number. */
};

/* Sends 'bulk' as one ROUTES frame and reports it sent. */
void
orchd_southbound_send(struct orchd_southbound *sb, struct orchd_bulk *bulk)
{
    struct unsendable *bad = NULL;
    size_t n_bad = 0;
    struct ofpbuf frame;

    ofpbuf_init(&frame, ROUTE_FRAME_HEADER_LEN + 64 * bulk->n_items);
    route_frame_start(&frame, ROUTE_FRAME_ROUTES, 0, 0);
    for (size_t i = 0; i < bulk->n_items; i++) {
        const struct orchd_bulk_item *item = &bulk->items[i];

        if (!put_item(sb, &frame, item)) {
            if (!bad) {
                bad = xmalloc(bulk->n_items * sizeof *bad);
            }
            bad[n_bad++] = (struct unsendable) { item->key, item->seq };
        } else if (item->op == ORCHD_BULK_REMOVE && item->entry) {
            sent_del_add(sb, item->entry);
        }
    }
    route_frame_finish(&frame);
    zmq_channel_send(sb->ch, &frame);
    ofpbuf_uninit(&frame);
    sb->stats.bulks++;
    sb->stats.routes += bulk->n_items - n_bad;
    COVERAGE_INC(orchd_southbound_bulk);

    /* 'bulk' may be freed from here on. */
    orchd_bulker_sent(sb->bulker, bulk, true);
    for (size_t i = 0; i < n_bad; i++) {
        VLOG_WARN_RL(&rl, "route "UUID_FMT": no frame can carry it",
                     UUID_ARGS(&bad[i].key));
        orchd_bulker_ack(sb->bulker, &bad[i].key, bad[i].seq, false,
                         "cannot be sent to syncd");
    }
    sb->stats.unsendable += n_bad;
    free(bad);
    maybe_end_resync(sb);
}

/* Returns the write that SET result 'r' of VRF 'vrf' answers if it is
 * still waiting, or NULL.  It is found by its number alone, then checked
 * against the route the result names: the key, a SHA-1 of the VRF and
 * prefix, and the lookup of the route's state by it would cost more than
 * the rest of the result's handling. */
static struct orchd_bulk_item *
result_write(const struct orchd_southbound *sb, const char *vrf,
             const struct route_frame_route *r)
{
    struct orchd_bulk_item *item = orchd_bulker_find_seq(sb->bulker, r->seq);

    return (item && item->op != ORCHD_BULK_REMOVE && item->entry
            && !strcmp(item->entry->vrf, vrf)
            && fib_prefix_equals(&item->entry->prefix, &r->prefix)
            ? item : NULL);
}

/* Takes in one RESULTS entry: acknowledges its write and writes its row
 * behind. */
static void
handle_result(struct orchd_southbound *sb, const struct route_frame_route *r)
{
    char vrf[UINT8_MAX + 1];
    bool ok = !r->status;
    char *error = ok ? NULL : xmemdup0(r->error, r->error_len);
    struct orchd_bulk_item *item;
    struct uuid key;

    if (memchr(r->vrf, '\0', r->vrf_len)) {
        /* No route of orchd's has such a VRF name, and the name cut at its
         * null byte would be another VRF's. */
        VLOG_WARN_RL(&rl, "a result with a null byte in its VRF name "
                     "ignored");
        sb->stats.results_stale++;
        free(error);
        return;
    }
    memcpy(vrf, r->vrf, r->vrf_len);
    vrf[r->vrf_len] = '\0';

    if (r->op == ROUTE_FRAME_DEL) {
        /* Done when sent, as on the OVSDB path; only the row is left. */
        sb->stats.results_del++;
        orchd_entry_asic_uuid(sb->instance, vrf, &r->prefix, &key);
        del_answered(sb, &key);
        if (!ok) {
            char buf[FIB_PREFIX_STRLEN];

            fib_prefix_format(&r->prefix, buf);
            VLOG_WARN_RL(&rl, "%s vrf %s: removal failed: %s (syncd "
                         "retries it)", buf, vrf, error);
        }
        if (sb->wb) {
            orchd_writebehind_delete(sb->wb, &key,
                                     orchd_bulker_find_tag(sb->bulker,
                                                           &key));
        }
        free(error);
        return;
    }

    if (ok) {
        sb->stats.results_ok++;
    } else {
        sb->stats.results_error++;
    }
    item = result_write(sb, vrf, r);
    if (!item) {
        /* No such write waits: a result of an older incarnation of
         * orchd or syncd, or of a write overtaken since.  The route, if
         * the bulker has it, may still have older writes waiting, which
         * this result completes. */
        sb->stats.results_stale++;
        orchd_entry_asic_uuid(sb->instance, vrf, &r->prefix, &key);
        orchd_bulker_ack(sb->bulker, &key, r->seq, ok, error);
    } else {
        if (ok && item->resent) {
            /* The row already holds this content, programmed: a syncd
             * restart (or orchd's own) changes nothing in it.  Its seq
             * stays that of the write that programmed it. */
            sb->stats.results_unchanged++;
        } else if (sb->wb) {
            orchd_writebehind_set(sb->wb, item->entry, r->seq, ok, error,
                                  item->op != ORCHD_BULK_CREATE,
                                  orchd_bulker_item_tag(item));
        }
        /* 'item' may be freed from here on. */
        orchd_bulker_ack_write(sb->bulker, item, ok, error);
    }
    free(error);
}

/* route_frame_read_group() callback: passes 0 to 2 prefetch, stage by
 * stage, what acknowledging SET result 'r''s write touches
 * (orchd_bulker_prefetch_result()); pass 3 handles it. */
static void
handle_result_in_group(void *sb_, const struct route_frame_route *r,
                       int pass)
{
    struct orchd_southbound *sb = sb_;

    if (pass < 3) {
        if (r->op != ROUTE_FRAME_DEL) {
            orchd_bulker_prefetch_result(sb->bulker, r->seq, pass);
        }
    } else {
        handle_result(sb, r);
    }
}

/* The channel's receive callback: a RESULTS frame from syncd. */
static void
recv_frame(void *sb_, const struct route_frame_header *h, const void *frame,
           size_t size)
{
    struct orchd_southbound *sb = sb_;

    if (h->type != ROUTE_FRAME_RESULTS) {
        sb->stats.other_frames++;
        VLOG_WARN_RL(&rl, "southbound: %s frame ignored",
                     route_frame_type_name(h->type));
        return;
    }
    route_frame_reader_init(&sb->reader, frame, size);
    while (sb->reader.left) {
        route_frame_read_group(&sb->reader, ROUTE_FRAME_GROUP_SIZE, 4,
                               handle_result_in_group, sb);
    }
}

/* Sends syncd every route written again, and the end of the resync once
 * they have gone out. */
static void
start_resync(struct orchd_southbound *sb)
{
    struct sent_del *d;

    orchd_bulker_resync(sb->bulker);
    /* A removal done when sent, as on the OVSDB path, whose result syncd
     * never sent: the row written behind is deleted only on that result,
     * and a syncd that died before it may still hold the route.  Such a
     * removal goes again, unless the route came back since. */
    HMAP_FOR_EACH_SAFE (d, node, &sb->dels) {
        orchd_bulker_remove_unnamed(sb->bulker, &d->entry->asic_uuid,
                                    d->entry);
        sent_del_remove(sb, d);
    }
    sb->resync_mark = queued_mark(sb);
    sb->resync_pending = true;
    VLOG_INFO("southbound: sending every route again (%"PRIuSIZE
              " written)", orchd_bulker_n_written(sb->bulker));
}

/* The channel's peer callback: syncd (re)started, with nothing of what it
 * was sent, or orchd did and syncd marks what it holds stale until it is
 * said again.
 *
 * While the resync is held (orchd restarted on the northbound fast path
 * and waits for fpmsyncd's resync), what orchd holds is what it read of
 * Asic_Route, written behind: a route withdrawn in the last moments
 * before orchd died may still be there.  Sent again now, it would be
 * programmed again in the ASIC (syncd had removed it) until fpmsyncd's
 * resync ended and orchd swept it: a stale route for that long, and churn.
 * So the resend waits for the release; meanwhile syncd keeps what it
 * has, and the changes fpmsyncd's resync brings go out as they come. */
static void
peer_restarted(void *sb_)
{
    struct orchd_southbound *sb = sb_;

    sb->stats.resyncs++;
    COVERAGE_INC(orchd_southbound_resync);
    if (sb->resync_held) {
        sb->resync_deferred = true;
        VLOG_INFO("southbound: syncd connected: every route goes again "
                  "once fpmsyncd's resync is complete");
        return;
    }
    VLOG_INFO("southbound: syncd (re)started");
    start_resync(sb);
}

/* Creates orchd's end of the fast path as 'options' say: bulks of 'bulker'
 * go out over a channel connected to syncd and, with write-behind, rows
 * are written through 'writer'.  Both must outlive it.  On failure returns
 * NULL and an error message in '*errorp'. */
struct orchd_southbound *
orchd_southbound_create(const struct orchd_southbound_options *options,
                        struct orchd_bulker *bulker,
                        struct ovsdb_writer *writer, char **errorp)
{
    struct zmq_channel_options co = {
        .name = "southbound",
        .endpoint = options->endpoint,
        .bind = false,
    };
    struct orchd_southbound *sb = xzalloc(sizeof *sb);

    sb->bulker = bulker;
    sb->resync_held = options->hold_resync_end;
    sb->instance = options->instance;
    hmap_init(&sb->dels);
    sb->ch = zmq_channel_create(&co, recv_frame, peer_restarted, sb,
                                errorp);
    if (!sb->ch) {
        hmap_destroy(&sb->dels);
        free(sb);
        return NULL;
    }
    if (options->write_behind) {
        sb->wb = orchd_writebehind_create(writer, NULL);
    }
    return sb;
}

void
orchd_southbound_destroy(struct orchd_southbound *sb)
{
    if (sb) {
        struct sent_del *d;

        zmq_channel_destroy(sb->ch);
        orchd_writebehind_destroy(sb->wb);
        HMAP_FOR_EACH_SAFE (d, node, &sb->dels) {
            sent_del_remove(sb, d);
        }
        hmap_destroy(&sb->dels);
        free(sb);
    }
}

/* Returns true if a bulk may go out now (the bulker's 'can_send'). */
bool
orchd_southbound_can_send(struct orchd_southbound *sb)
{
    bool can = zmq_channel_can_send(sb->ch);

    if (!can && !sb->stalled && orchd_bulker_n_pending(sb->bulker)) {
        sb->stats.stalls++;
    }
    sb->stalled = !can;
    return can;
}

/* Takes in syncd's results, ends a resync, writes rows behind. */
void
orchd_southbound_run(struct orchd_southbound *sb)
{
    zmq_channel_run(sb->ch);
    maybe_end_resync(sb);
    if (sb->wb) {
        orchd_writebehind_run(sb->wb);
    }
}

void
orchd_southbound_wait(struct orchd_southbound *sb)
{
    zmq_channel_wait(sb->ch);
    if (sb->wb) {
        orchd_writebehind_wait(sb->wb);
    }
}

/* Holds the Asic_Route write-behind back while 'yield' is true
 * (orchd_writebehind_yield()). */
void
orchd_southbound_yield_writebehind(struct orchd_southbound *sb, bool yield)
{
    if (sb->wb) {
        orchd_writebehind_yield(sb->wb, yield);
    }
}

/* Returns true if no resync and no row write is under way. */
bool
orchd_southbound_is_idle(const struct orchd_southbound *sb)
{
    return !sb->resync_pending
           && (!sb->wb || orchd_writebehind_is_idle(sb->wb));
}

void
orchd_southbound_get_stats(const struct orchd_southbound *sb,
                           struct orchd_southbound_stats *stats)
{
    *stats = sb->stats;
}

/* Appends the channel, the bulks waiting and the write-behind's backlog to
 * 's', for zmq/show. */
void
orchd_southbound_format(const struct orchd_southbound *sb, struct ds *s)
{
    const struct orchd_southbound_stats *st = &sb->stats;

    zmq_channel_format(sb->ch, s);
    ds_put_format(s, "  bulks out: %"PRIu64" with %"PRIu64" routes, %"
                  PRIu64" unsendable; waiting: %"PRIuSIZE" routes to bulk, %"
                  PRIuSIZE" bulks awaiting results; stalls (window full) %"
                  PRIu64"\n", st->bulks, st->routes, st->unsendable,
                  orchd_bulker_n_pending(sb->bulker),
                  orchd_bulker_n_outstanding(sb->bulker), st->stalls);
    ds_put_format(s, "  results in: %"PRIu64" programmed, %"PRIu64
                  " failed, %"PRIu64" removals, %"PRIu64" stale, %"PRIu64
                  " other frames\n", st->results_ok, st->results_error,
                  st->results_del, st->results_stale, st->other_frames);
    ds_put_format(s, "  resyncs: %"PRIu64", ended %"PRIu64"%s; %"PRIu64
                  " routes resent unchanged (rows left as they were)\n",
                  st->resyncs, st->sync_ends,
                  sb->resync_pending ? ", one under way" : "",
                  st->results_unchanged);
    if (sb->wb) {
        orchd_writebehind_format(sb->wb, s);
    } else {
        ds_put_cstr(s, "Asic_Route write-behind: off\n");
    }
}
