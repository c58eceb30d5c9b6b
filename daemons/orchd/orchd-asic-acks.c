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

#include "daemons/orchd/orchd-asic-acks.h"

#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "daemons/orchd/orchd-asic-read.h"
#include "lib/ovsdb-cs-retry.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(orchd_asic_acks);

COVERAGE_DEFINE(orchd_asic_ack);
COVERAGE_DEFINE(orchd_asic_ack_other_instance);

#define DB_NAME "Fibsync"
#define TABLE "Asic_Route"

struct orchd_asic_acks {
    struct ovsdb_cs *cs;        /* The monitor. */
    struct ovsdb_cs_retry retry; /* Its reconnection once the server is
                                  * back. */
    char *remote;               /* Database remote. */
    int instance;               /* orchd's ASIC instance. */
    int64_t read_slice;         /* Seq values per select of a read. */
    orchd_asic_ack_cb *cb;      /* Called with each acknowledgement... */
    orchd_asic_oldest_cb *oldest_cb; /* ...asked where a read begins... */
    void *aux;                  /* ...and this. */
    bool ready;                 /* Has the monitor begun? */
    struct orchd_asic_read *read; /* The read after a restart, if any. */
    int64_t reread_from;        /* Its rows' least seq. */
    long long int read_retry;   /* If nonzero, when to begin it again
                                 * after a failure (msec). */
    struct orchd_asic_acks_stats stats; /* Counters. */
};

/* Passes on the acknowledgement of row 'uuid' whose applied_seq is
 * 'applied_seq', state 'state' and error 'error' (either may be NULL). */
static void
ack(struct orchd_asic_acks *a, const struct uuid *uuid, int64_t applied_seq,
    const char *state, const char *error)
{
    bool ok = state && !strcmp(state, "programmed");

    a->stats.acks++;
    COVERAGE_INC(orchd_asic_ack);
    VLOG_DBG("ack "UUID_FMT" applied_seq %"PRId64" %s",
             UUID_ARGS(uuid), applied_seq, state ? state : "no state");
    a->cb(a->aux, uuid, applied_seq, ok,
          ok ? NULL : error ? error : state ? state : "no state");
}

/* ---- The read after a restart of the monitor ---------------------------- */

/* orchd_asic_read_cb: an acknowledged row, read again. */
static void
reread_row(void *a_, const struct orchd_asic_row *row)
{
    struct orchd_asic_acks *a = a_;

    if (row->applied_seq) {
        a->stats.reread_acks++;
        ack(a, &row->uuid, row->applied_seq, row->state, row->error);
    }
}

/* Begins the read of what syncd acknowledged while the monitor was down:
 * the acknowledgements alone of the rows whose writes may still wait for
 * one (orchd-asic-acks.h). */
static void
reread_start(struct orchd_asic_acks *a)
{
    orchd_asic_read_destroy(a->read);
    a->reread_from = a->oldest_cb(a->aux);
    a->read = orchd_asic_read_create_acks(a->remote, a->instance,
                                          a->read_slice, a->reread_from,
                                          reread_row, a);
    a->read_retry = 0;
    a->stats.rereads++;
}

/* Advances the read, if one runs, or begins it again a second after it
 * failed. */
static void
reread_run(struct orchd_asic_acks *a)
{
    if (!a->read) {
        if (a->read_retry && time_msec() >= a->read_retry) {
            reread_start(a);
        }
        return;
    }
    switch (orchd_asic_read_run(a->read)) {
    case OVSDB_SELECT_READER_RUNNING:
        break;
    case OVSDB_SELECT_READER_DONE:
        VLOG_INFO("Asic_Route read again after the monitor's restart: "
                  "%"PRIuSIZE" rows from seq %"PRId64,
                  orchd_asic_read_n_rows(a->read), a->reread_from);
        orchd_asic_read_destroy(a->read);
        a->read = NULL;
        break;
    case OVSDB_SELECT_READER_FAILED:
    default:
        VLOG_WARN("%s: reading Asic_Route failed (%s); trying again",
                  a->remote, orchd_asic_read_error(a->read));
        orchd_asic_read_destroy(a->read);
        a->read = NULL;
        a->read_retry = time_msec() + 1000;
        break;
    }
}

/* ---- The monitor -------------------------------------------------------- */

/* Takes in update 'u'. */
static void
process_update(struct orchd_asic_acks *a,
               const struct ovsdb_cs_update_event *u)
{
    const struct ovsdb_cs_table_update *tu;
    struct ovsdb_cs_db_update *du;

    if (u->clear) {
        if (a->ready) {
            /* What syncd wrote while the monitor was down was never seen:
             * read it. */
            a->stats.restarts++;
            VLOG_INFO("%s: monitor of acknowledgements began again; "
                      "reading Asic_Route", a->remote);
            reread_start(a);
        }
        a->ready = true;
    }

    du = ovsdb_wire_parse_update(u, "acknowledgements monitor");
    if (!du) {
        return;
    }
    tu = ovsdb_cs_db_update_find_table(du, TABLE);
    for (size_t i = 0; tu && i < tu->n; i++) {
        const struct ovsdb_cs_row_update *ru = &tu->row_updates[i];
        int64_t instance, applied_seq;

        if (ru->type != OVSDB_CS_ROW_UPDATE
            && ru->type != OVSDB_CS_ROW_INSERT) {
            continue;
        }
        if (!ovsdb_wire_get_integer(shash_find_data(ru->columns, "instance"),
                                    &instance)
            || instance != a->instance) {
            a->stats.other_instance++;
            COVERAGE_INC(orchd_asic_ack_other_instance);
            continue;
        }
        if (ovsdb_wire_get_integer(shash_find_data(ru->columns,
                                                   "applied_seq"),
                                   &applied_seq) && applied_seq) {
            ack(a, &ru->row_uuid, applied_seq,
                ovsdb_wire_get_string(shash_find_data(ru->columns, "state")),
                ovsdb_wire_get_string(shash_find_data(ru->columns,
                                                      "error")));
        }
    }
    ovsdb_cs_db_update_destroy(du);
}

/* The monitor request: insertions and modifications of the columns syncd
 * writes (and "instance", to tell the rows apart), nothing else.  The
 * insertions are orchd's own, with no applied_seq, but they cannot be
 * left out: ovsdb-server merges the changes to a row made between two of
 * its sends to a monitor, so syncd's acknowledgement of a row inserted
 * just before comes as an insertion. */
static struct json *
compose_monitor_requests(const struct json *schema OVS_UNUSED,
                         void *a OVS_UNUSED)
{
    return json_from_string(
        "{\""TABLE"\":[{\"columns\":[\"instance\",\"applied_seq\","
        "\"state\",\"error\"],\"select\":{\"initial\":false,"
        "\"insert\":true,\"delete\":false,\"modify\":true}}]}");
}

static const struct ovsdb_cs_ops cs_ops = {
    .compose_monitor_requests = compose_monitor_requests,
};

/* ---- Public interface --------------------------------------------------- */

/* Starts monitoring 'remote' for syncd's acknowledgements of the
 * Asic_Route rows of ASIC instance 'instance', calling 'cb' with each; a
 * read after a restart of the monitor goes in slices of 'read_slice' seq
 * values, from the seq that 'oldest_cb' gives then. */
struct orchd_asic_acks *
orchd_asic_acks_create(const char *remote, int instance, int64_t read_slice,
                       orchd_asic_ack_cb *cb, orchd_asic_oldest_cb *oldest_cb,
                       void *aux)
{
    struct orchd_asic_acks *a = xzalloc(sizeof *a);

    a->remote = xstrdup(remote);
    a->instance = instance;
    a->read_slice = read_slice;
    a->cb = cb;
    a->oldest_cb = oldest_cb;
    a->aux = aux;
    a->cs = ovsdb_cs_create(DB_NAME, 1, &cs_ops, a);
    ovsdb_cs_set_remote(a->cs, a->remote, true);
    ovsdb_cs_retry_init(&a->retry, a->remote);
    return a;
}

void
orchd_asic_acks_destroy(struct orchd_asic_acks *a)
{
    if (a) {
        ovsdb_cs_destroy(a->cs);
        ovsdb_cs_retry_destroy(&a->retry);
        orchd_asic_read_destroy(a->read);
        free(a->remote);
        free(a);
    }
}

/* Reads the monitor (and the read after its restart), calling the
 * callback with each acknowledgement. */
void
orchd_asic_acks_run(struct orchd_asic_acks *a)
{
    struct ovs_list events;
    struct ovsdb_cs_event *event;

    ovsdb_cs_retry_run_cs(&a->retry, a->cs);
    ovsdb_cs_run(a->cs, &events);
    LIST_FOR_EACH_POP (event, list_node, &events) {
        if (event->type == OVSDB_CS_EVENT_TYPE_UPDATE) {
            process_update(a, &event->update);
        }
        ovsdb_cs_event_destroy(event);
    }
    reread_run(a);
}

void
orchd_asic_acks_wait(struct orchd_asic_acks *a)
{
    ovsdb_cs_wait(a->cs);
    ovsdb_cs_retry_wait(&a->retry);
    if (a->read) {
        orchd_asic_read_wait(a->read);
    } else if (a->read_retry) {
        poll_timer_wait_until(a->read_retry);
    }
}

/* Has the monitor begun, so that every acknowledgement written from now on
 * comes through it? */
bool
orchd_asic_acks_is_ready(const struct orchd_asic_acks *a)
{
    return a->ready;
}

void
orchd_asic_acks_get_stats(const struct orchd_asic_acks *a,
                          struct orchd_asic_acks_stats *stats)
{
    *stats = a->stats;
    stats->rereading = a->read || a->read_retry;
}
