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

#include "daemons/orchd/orchd-asic-read.h"

#include <stdlib.h>

#include "coverage.h"
#include "lib/ovsdb-wire.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(orchd_asic_read);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

COVERAGE_DEFINE(orchd_asic_read_bad_row);

/* A read in progress. */
struct orchd_asic_read {
    struct ovsdb_slice_reader *reader;  /* The slices. */
    orchd_asic_read_cb *cb;             /* Called with each row... */
    void *aux;                          /* ...and this. */
    struct ovsdb_wire_map nexthops;     /* Scratch: a row's next hops. */
    size_t n_bad;                       /* Rows that could not be read. */
    bool acks_only;                     /* Only the acknowledgement's
                                         * columns are read. */
};

/* ovsdb_select_row_cb: decodes 'row' and hands it over, or counts it as
 * bad (it is then left alone, neither seeded nor removed: the resync or
 * the next write of its route settles it). */
static void
read_row(int select_idx OVS_UNUSED, const struct json *row, void *r_)
{
    struct orchd_asic_read *r = r_;
    struct orchd_asic_row ar;

    memset(&ar, 0, sizeof ar);
    if (!ovsdb_wire_get_uuid(ovsdb_wire_col(row, "_uuid"), &ar.uuid)
        || (!r->acks_only
            && (!(ar.vrf = ovsdb_wire_get_string(ovsdb_wire_col(row, "vrf")))
                || !(ar.prefix = ovsdb_wire_get_string(
                         ovsdb_wire_col(row, "prefix")))
                || !(ar.packet_action = ovsdb_wire_get_string(
                         ovsdb_wire_col(row, "packet_action")))
                || !ovsdb_wire_get_map(ovsdb_wire_col(row, "nexthops"),
                                       &r->nexthops)))
        || !ovsdb_wire_get_integer(ovsdb_wire_col(row, "seq"), &ar.seq)
        || !ovsdb_wire_get_integer(ovsdb_wire_col(row, "applied_seq"),
                                   &ar.applied_seq)) {
        r->n_bad++;
        COVERAGE_INC(orchd_asic_read_bad_row);
        VLOG_WARN_RL(&rl, "Asic_Route row of an unexpected form ignored");
        return;
    }
    ar.state = ovsdb_wire_get_string(ovsdb_wire_col(row, "state"));
    ar.error = ovsdb_wire_get_string(ovsdb_wire_col(row, "error"));
    if (!r->acks_only) {
        ar.nh_keys = r->nexthops.keys;
        ar.nh_weights = r->nexthops.values;
        ar.n_nexthops = r->nexthops.n;
    }
    r->cb(r->aux, &ar);
}

/* Starts a read of the rows of ASIC instance 'instance' whose seq is at
 * least 'min_seq': their whole content, or if 'acks_only' the columns of
 * syncd's acknowledgement alone. */
static struct orchd_asic_read *
create(const char *remote, int instance, int64_t slice, int64_t min_seq,
       bool acks_only, orchd_asic_read_cb *cb, void *aux)
{
    struct orchd_asic_read *r = xzalloc(sizeof *r);
    struct json *where = json_array_create_1(json_array_create_3(
        json_string_create("instance"), json_string_create("=="),
        json_integer_create(instance)));
    struct ovsdb_slice_reader_spec spec = {
        .remote = remote,
        .db = "Fibsync",
        .table = "Asic_Route",
        .seq_column = "seq",
        .columns = (acks_only
                    ? "_uuid seq applied_seq state error"
                    : "_uuid vrf prefix packet_action nexthops seq "
                      "applied_seq state error"),
        .where = where,
        .width = slice,
        /* Two at a time, each received ahead of orchd's scan: the
         * server composes the next slice's reply while orchd scans this
         * one, so the two cores overlap.  At a million rows the server
         * spends 13.5 s of CPU composing and orchd 4.7 s scanning; one at
         * a time, the read took their sum.  The server then holds at most
         * two slices' replies, and orchd up to its read-ahead beyond
         * the slice it scans. */
        .max_in_flight = OVSDB_SLICE_READER_OVERLAP_IN_FLIGHT,
        .read_ahead = OVSDB_SLICE_READER_OVERLAP_READ_AHEAD,
    };

    if (min_seq > 0) {
        /* The probes look where the rows that meet 'where' lie, so the
         * slices begin at the first row at or above 'min_seq'. */
        json_array_add(where, json_array_create_3(
                           json_string_create("seq"),
                           json_string_create(">="),
                           json_integer_create(min_seq)));
    }
    r->cb = cb;
    r->aux = aux;
    r->acks_only = acks_only;
    r->reader = ovsdb_slice_reader_create(&spec, read_row, r);
    json_destroy(where);
    return r;
}

/* Starts reading the Asic_Route rows of ASIC instance 'instance' from
 * 'remote' (one server, or a cluster's list), in slices of 'slice' seq
 * values (so at most 'slice' rows) each, calling 'cb' with each row. */
struct orchd_asic_read *
orchd_asic_read_create(const char *remote, int instance, int64_t slice,
                       orchd_asic_read_cb *cb, void *aux)
{
    return create(remote, instance, slice, 0, false, cb, aux);
}

/* Starts reading, as orchd_asic_read_create() does, only syncd's
 * acknowledgements of the rows whose seq is 'min_seq' or more: the rows
 * come with their UUID, seq, applied_seq, state and error, the other
 * members NULL or zero. */
struct orchd_asic_read *
orchd_asic_read_create_acks(const char *remote, int instance, int64_t slice,
                            int64_t min_seq, orchd_asic_read_cb *cb,
                            void *aux)
{
    return create(remote, instance, slice, min_seq, true, cb, aux);
}

void
orchd_asic_read_destroy(struct orchd_asic_read *r)
{
    if (r) {
        ovsdb_slice_reader_destroy(r->reader);
        ovsdb_wire_map_destroy(&r->nexthops);
        free(r);
    }
}

/* Reads what has arrived, handing each row to the callback. */
enum ovsdb_select_reader_state
orchd_asic_read_run(struct orchd_asic_read *r)
{
    return ovsdb_slice_reader_run(r->reader);
}

void
orchd_asic_read_wait(struct orchd_asic_read *r)
{
    ovsdb_slice_reader_wait(r->reader);
}

/* Why the read failed (after run() said so). */
const char *
orchd_asic_read_error(const struct orchd_asic_read *r)
{
    return ovsdb_slice_reader_error(r->reader);
}

/* Rows read so far, the bad ones included. */
size_t
orchd_asic_read_n_rows(const struct orchd_asic_read *r)
{
    return ovsdb_slice_reader_n_rows(r->reader);
}

/* Rows that could not be read. */
size_t
orchd_asic_read_n_bad(const struct orchd_asic_read *r)
{
    return r->n_bad;
}

/* Slices (selects) started so far. */
size_t
orchd_asic_read_n_slices(const struct orchd_asic_read *r)
{
    return ovsdb_slice_reader_n_slices(r->reader);
}

/* Probes (transactions of "wait"s that read no row) started so far. */
size_t
orchd_asic_read_n_probes(const struct orchd_asic_read *r)
{
    return ovsdb_slice_reader_n_probes(r->reader);
}

/* Most rows one slice held. */
size_t
orchd_asic_read_max_slice_rows(const struct orchd_asic_read *r)
{
    return ovsdb_slice_reader_max_slice_rows(r->reader);
}
