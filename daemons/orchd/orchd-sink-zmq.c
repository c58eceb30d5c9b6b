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
 * orchd-sink-zmq: bulks to syncd over the southbound fast path, Asic_Route
 * written behind (orchd-sink.h, orchd-southbound.h).
 *
 * The channel is made when the worker starts, in the thread that runs the
 * bulker; until then the sink keeps the options, and what it is told of
 * the resync and the write-behind's yield, for it.  At start it also
 * turns orchd's Write_Mark off (orchd-asic-mark.h): on this path syncd
 * follows the channel, not the mark.
 */

#include <config.h>

#include <stdlib.h>

#include "daemons/orchd/orchd-asic-mark.h"
#include "daemons/orchd/orchd-sink.h"
#include "daemons/orchd/orchd-southbound.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

/* The sink's state. */
struct sink_zmq {
    struct orchd_sink up;       /* The class, bulker and writer. */
    struct orchd_southbound_options options; /* The channel's. */
    struct orchd_southbound *sb; /* The channel, once started. */
    bool yield;                 /* The write-behind's last yield. */
    char *mark_writer;          /* The Write_Mark row to turn off, or
                                 * NULL. */
    int instance;               /* The ASIC instance. */
};

static const struct orchd_sink_class sink_zmq_class;

/* Returns the ZeroMQ sink of 'sink'. */
static struct sink_zmq *
sink_zmq_cast(const struct orchd_sink *sink)
{
    ovs_assert(sink->class == &sink_zmq_class);
    return CONTAINER_OF(sink, struct sink_zmq, up);
}

/* Creates the sink: bulks of 'bulker' to syncd as 'options' say, rows
 * written behind through 'writer'; at start, the Write_Mark row named
 * 'mark_writer' (NULL if none) of instance 'instance' is turned off. */
struct orchd_sink *
orchd_sink_zmq_create(struct orchd_bulker *bulker,
                      struct ovsdb_writer *writer, const char *mark_writer,
                      int instance,
                      const struct orchd_southbound_options *options)
{
    struct sink_zmq *sz = xzalloc(sizeof *sz);

    sz->up.class = &sink_zmq_class;
    sz->up.bulker = bulker;
    sz->up.writer = writer;
    sz->options = *options;
    sz->options.endpoint = xstrdup(options->endpoint);
    sz->mark_writer = nullable_xstrdup(mark_writer);
    sz->instance = instance;
    return &sz->up;
}

/* orchd_sink_class's 'destroy'. */
static void
sink_zmq_destroy(struct orchd_sink *sink)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);

    orchd_southbound_destroy(sz->sb);
    free(sz->options.endpoint);
    free(sz->mark_writer);
    free(sz);
}

/* orchd_sink_class's 'start': turns the mark off and makes the
 * channel. */
static void
sink_zmq_start(struct orchd_sink *sink)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);
    struct orchd_asic_mark mark;
    char *error;

    orchd_asic_mark_init(&mark, sz->mark_writer, sz->instance,
                         sink->writer);
    orchd_asic_mark_stop(&mark);
    orchd_asic_mark_destroy(&mark);
    sz->sb = orchd_southbound_create(&sz->options, sink->bulker,
                                     sink->writer, &error);
    if (!sz->sb) {
        ovs_fatal(0, "southbound fast path: %s", error);
    }
    orchd_southbound_yield_writebehind(sz->sb, sz->yield);
}

/* orchd_sink_class's 'send'. */
static void
sink_zmq_send(struct orchd_sink *sink, struct orchd_bulk *bulk)
{
    orchd_southbound_send(sink_zmq_cast(sink)->sb, bulk);
}

/* orchd_sink_class's 'can_send': not before the channel is made. */
static bool
sink_zmq_can_send(struct orchd_sink *sink)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);

    return sz->sb && orchd_southbound_can_send(sz->sb);
}

/* orchd_sink_class's 'run'. */
static void
sink_zmq_run(struct orchd_sink *sink)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);

    if (sz->sb) {
        orchd_southbound_run(sz->sb);
    }
}

/* orchd_sink_class's 'wait'. */
static void
sink_zmq_wait(struct orchd_sink *sink)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);

    if (sz->sb) {
        orchd_southbound_wait(sz->sb);
    }
}

/* orchd_sink_class's 'is_idle'. */
static bool
sink_zmq_is_idle(const struct orchd_sink *sink)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);

    return !sz->sb || orchd_southbound_is_idle(sz->sb);
}

/* orchd_sink_class's 'hold_resync'. */
static void
sink_zmq_hold_resync(struct orchd_sink *sink)
{
    sink_zmq_cast(sink)->options.hold_resync_end = true;
}

/* orchd_sink_class's 'release_resync'. */
static void
sink_zmq_release_resync(struct orchd_sink *sink)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);

    if (sz->sb) {
        orchd_southbound_release_resync(sz->sb);
    } else {
        sz->options.hold_resync_end = false;
    }
}

/* orchd_sink_class's 'yield_writebehind'. */
static void
sink_zmq_yield_writebehind(struct orchd_sink *sink, bool yield)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);

    sz->yield = yield;
    if (sz->sb) {
        orchd_southbound_yield_writebehind(sz->sb, yield);
    }
}

/* orchd_sink_class's 'format_channel'. */
static void
sink_zmq_format_channel(const struct orchd_sink *sink, struct ds *s)
{
    struct sink_zmq *sz = sink_zmq_cast(sink);

    if (sz->sb) {
        orchd_southbound_format(sz->sb, s);
    } else {
        ds_put_cstr(s, "southbound: starting\n");
    }
}

static const struct orchd_sink_class sink_zmq_class = {
    .name = "zmq",
    .destroy = sink_zmq_destroy,
    .start = sink_zmq_start,
    .send = sink_zmq_send,
    .can_send = sink_zmq_can_send,
    .run = sink_zmq_run,
    .wait = sink_zmq_wait,
    .is_idle = sink_zmq_is_idle,
    .hold_resync = sink_zmq_hold_resync,
    .release_resync = sink_zmq_release_resync,
    .yield_writebehind = sink_zmq_yield_writebehind,
    .format_channel = sink_zmq_format_channel,
};
