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
 * orchd-sink: where orchd's bulks go, as a provider class.
 *
 * The worker's bulker (orchd-bulker.h) builds bulks of route writes; a
 * sink takes them to syncd and reports what became of each write back to
 * the bulker:
 *
 *   - the OVSDB sink (orchd-sink-ovsdb.c) writes each bulk into
 *     Asic_Route as one transaction, with orchd's Write_Mark
 *     (orchd-asic-mark.h); syncd acknowledges each write in its row, and
 *     orchd's acknowledgements' monitor (orchd-asic-acks.h) and start-up
 *     read (orchd-seed.h) take them in;
 *
 *   - the ZeroMQ sink (orchd-sink-zmq.c) sends each bulk to syncd over
 *     the southbound fast path (orchd-southbound.h), whose results come
 *     back on the same channel, and writes Asic_Route behind.
 *
 * The worker calls its sink through this class, never on a mode flag;
 * every hook runs in the thread that runs the bulker, under the worker's
 * lock.  A sink embeds struct orchd_sink at the start of its own state.
 */

#ifndef ORCHD_SINK_H
#define ORCHD_SINK_H 1

#include <stdbool.h>

struct ds;
struct orchd_bulk;
struct orchd_bulker;
struct orchd_sink;
struct orchd_southbound_options;
struct ovsdb_writer;

/* A sink's hooks.  Those marked optional may be NULL. */
struct orchd_sink_class {
    const char *name;           /* "ovsdb" or "zmq". */

    /* Frees the sink. */
    void (*destroy)(struct orchd_sink *);

    /* Starts the sink in the thread that will run the bulker, when the
     * worker starts (optional). */
    void (*start)(struct orchd_sink *);

    /* Takes 'bulk' to syncd, and reports it sent to the bulker (which may
     * free it: read nothing of it after). */
    void (*send)(struct orchd_sink *, struct orchd_bulk *bulk);

    /* May a bulk go out now? */
    bool (*can_send)(struct orchd_sink *);

    /* Main loop hooks (optional). */
    void (*run)(struct orchd_sink *);
    void (*wait)(struct orchd_sink *);

    /* Has it nothing under way?  (Optional: idle once the Asic_Route
     * writer, which the worker checks, is.) */
    bool (*is_idle)(const struct orchd_sink *);

    /* Holds, then lets go, the end of a resync with syncd: orchd does not
     * know every route yet (optional). */
    void (*hold_resync)(struct orchd_sink *);
    void (*release_resync)(struct orchd_sink *);

    /* Holds the Asic_Route write-behind back while 'yield' (optional). */
    void (*yield_writebehind)(struct orchd_sink *, bool yield);

    /* Appends the sink's lines of orchd/status (optional) and of
     * zmq/show to 's'. */
    void (*format)(const struct orchd_sink *, struct ds *s);
    void (*format_channel)(const struct orchd_sink *, struct ds *s);
};

/* A sink: embedded at the start of each sink's own state. */
struct orchd_sink {
    const struct orchd_sink_class *class;
    struct orchd_bulker *bulker; /* Whose bulks. */
    struct ovsdb_writer *writer; /* The Asic_Route writer. */
};

struct orchd_sink *orchd_sink_ovsdb_create(struct orchd_bulker *,
                                           struct ovsdb_writer *,
                                           const char *mark_writer,
                                           int instance);
struct orchd_sink *orchd_sink_zmq_create(
    struct orchd_bulker *, struct ovsdb_writer *, const char *mark_writer,
    int instance, const struct orchd_southbound_options *);

#endif /* orchd-sink.h */
