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

/* syncd-unixctl: syncd's runtime commands (ovs-appctl), on the daemon's
 * state (daemons/syncd/syncd.h): asic/lookup, asic/dump, crm/show,
 * asic/fault, asic/stats, zmq/show, warm/show and exit. */

#include <config.h>

#include "daemons/syncd/syncd-unixctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-counters.h"
#include "daemons/syncd/syncd-db.h"
#include "daemons/syncd/syncd-path.h"
#include "daemons/syncd/syncd-rates.h"
#include "daemons/syncd/syncd-warm.h"
#include "daemons/syncd/syncd-zmq.h"
#include "daemons/syncd/syncd.h"
#include "lib/fib-prefix.h"
#include "lib/global-follower.h"
#include "lib/setting.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd_unixctl);

/* "asic/lookup ADDRESS [vrf NAME]". */
static void
cmd_lookup(struct unixctl_conn *conn, int argc, const char *argv[],
           void *d_)
{
    struct syncd *d = d_;
    const char *vrf = "default";
    sai_ip_address_t addr;

    if (argc == 4 && !strcmp(argv[2], "vrf")) {
        vrf = argv[3];
    } else if (argc == 3) {
        vrf = argv[2];
    } else if (argc != 2) {
        unixctl_command_reply_error(conn, "usage: asic/lookup ADDRESS "
                                    "[vrf NAME]");
        return;
    }
    if (!sai_util_ip_address_parse(argv[1], &addr)) {
        unixctl_command_reply_error(conn, "bad address");
        return;
    }
    sai_object_id_t vr_id = syncd_apply_vr_find(d->apply, vrf);
    if (!vr_id) {
        char *msg = xasprintf("no VRF %s", vrf);
        unixctl_command_reply_error(conn, msg);
        free(msg);
        return;
    }

    struct asic_sim_nexthop *nhs = NULL;
    struct asic_sim_route route;
    uint32_t n = 16;
    sai_status_t status;
    do {
        nhs = xrealloc(nhs, n * sizeof *nhs);
        status = asic_sim_lookup(vr_id, &addr, &route, nhs, &n);
    } while (status == SAI_STATUS_BUFFER_OVERFLOW);

    if (status) {
        char *msg = xasprintf("%s: no route in VRF %s (%s)", argv[1], vrf,
                              sai_util_status_name(status));
        unixctl_command_reply_error(conn, msg);
        free(msg);
        free(nhs);
        return;
    }
    syncd_counters_note_hit(d->counters, vrf, &route.entry);

    struct ds s = DS_EMPTY_INITIALIZER;
    char buf[SAI_IP_PREFIX_STRLEN];
    ds_put_format(&s, "%s vrf %s action %s hits %"PRIu64"\n",
                  sai_util_ip_prefix_format(&route.entry.destination, buf),
                  vrf,
                  syncd_action_name(route.action), route.hits);
    for (uint32_t i = 0; i < n; i++) {
        ds_put_cstr(&s, "  nexthop ");
        syncd_apply_format_nexthop(d->apply, &nhs[i], &s);
        ds_put_format(&s, " weight %"PRIu32"\n", nhs[i].weight);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
    free(nhs);
}

/* Context of a route dump. */
struct dump_ctx {
    const struct syncd *d;      /* The daemon. */
    const char *vrf;            /* VRF being dumped. */
    struct ds *s;               /* Text output, or NULL. */
    struct json *array;         /* JSON output, or NULL. */
    FILE *file;                 /* With 's': where 's' goes, or NULL. */
    size_t n;                   /* Routes dumped. */
};

/* Dumps route 'r' of 'ctx->vrf' into 'ctx': a text line, or a JSON
 * object. */
static void
dump_route(const struct asic_sim_route *r, void *ctx_)
{
    struct dump_ctx *ctx = ctx_;
    char buf[SAI_IP_PREFIX_STRLEN];

    sai_util_ip_prefix_format(&r->entry.destination, buf);
    if (ctx->s) {
        ds_put_format(ctx->s, "%s %s %s ", ctx->vrf, buf,
                      syncd_action_name(r->action));
        syncd_apply_format_target(ctx->d->apply, r->next_hop_id, ctx->s);
        ds_put_format(ctx->s, " hits=%"PRIu64"\n", r->hits);
        if (ctx->file && ctx->s->length >= 65536) {
            /* Streamed: a million routes never make one 60 MB reply. */
            fwrite(ctx->s->string, 1, ctx->s->length, ctx->file);
            ds_clear(ctx->s);
        }
    } else {
        struct json *o = json_object_create();

        json_object_put_string(o, "vrf", ctx->vrf);
        json_object_put_string(o, "prefix", buf);
        json_object_put_string(o, "action", syncd_action_name(r->action));
        json_object_put(o, "nexthops",
                        syncd_apply_target_to_json(ctx->d->apply,
                                                   r->next_hop_id));
        json_object_put(o, "hits", json_integer_create(r->hits));
        json_array_add(ctx->array, o);
    }
    ctx->n++;
}

/* qsort() comparison of two VRF names. */
static int
compare_vr_names(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;

    return strcmp(*a, *b);
}

/* "asic/dump [json | file PATH]".  With "file PATH" (an absolute path),
 * the text lines are written to PATH as they are made, not returned in
 * one reply: route-check reads a million routes that way without a 60 MB
 * reply, or the JSON tree of "json" (about 1 kB a route), in syncd. */
static void
cmd_dump(struct unixctl_conn *conn, int argc, const char *argv[], void *d_)
{
    struct syncd *d = d_;
    bool json = argc == 2 && !strcmp(argv[1], "json");
    bool to_file = argc == 3 && !strcmp(argv[1], "file");
    FILE *file = NULL;

    if (argc > 1 && !json && !to_file) {
        unixctl_command_reply_error(conn,
                                    "usage: asic/dump [json | file PATH]");
        return;
    }
    if (to_file) {
        if (argv[2][0] != '/') {
            unixctl_command_reply_error(conn, "asic/dump file: PATH must "
                                        "be absolute");
            return;
        }
        file = fopen(argv[2], "w");
        if (!file) {
            char *msg = xasprintf("asic/dump file: %s: %s", argv[2],
                                  ovs_strerror(errno));
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    }

    /* VRFs in name order. */
    size_t n = syncd_apply_n_vrs(d->apply);
    const char **names = xmalloc(n * sizeof *names);
    for (size_t i = 0; i < n; i++) {
        sai_object_id_t vr_id;

        names[i] = syncd_apply_vr_name(d->apply, i, &vr_id);
    }
    qsort(names, n, sizeof *names, compare_vr_names);

    struct ds s = DS_EMPTY_INITIALIZER;
    struct dump_ctx ctx = {
        .d = d,
        .s = json ? NULL : &s,
        .array = json ? json_array_create_empty() : NULL,
        .file = file,
    };
    for (size_t i = 0; i < n; i++) {
        ctx.vrf = names[i];
        asic_sim_route_walk(syncd_apply_vr_find(d->apply, names[i]),
                            dump_route, &ctx);
    }
    free(names);

    if (json) {
        char *text = json_to_string(ctx.array, JSSF_SORT);
        unixctl_command_reply(conn, text);
        free(text);
        json_destroy(ctx.array);
    } else if (file) {
        if (s.length) {
            /* An empty FIB leaves 's.string' null, which fwrite() must
             * not get (UndefinedBehaviorSanitizer stops syncd on it). */
            fwrite(s.string, 1, s.length, file);
        }
        if (ferror(file) | fclose(file)) {
            char *msg = xasprintf("asic/dump file: %s: write failed",
                                  argv[2]);
            unixctl_command_reply_error(conn, msg);
            free(msg);
        } else {
            char *msg = xasprintf("%"PRIuSIZE" routes", ctx.n);
            unixctl_command_reply(conn, msg);
            free(msg);
        }
    } else {
        unixctl_command_reply(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

/* "crm/show". */
static void
cmd_crm_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[] OVS_UNUSED, void *d_)
{
    struct syncd *d = d_;
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];
    sai_status_t status = asic_sim_crm_get(syncd_apply_switch_id(d->apply),
                                           crm);

    if (status) {
        unixctl_command_reply_error(conn, sai_util_status_name(status));
        return;
    }

    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_format(&s, "%-22s %10s %10s %10s\n", "resource", "used",
                  "available", "capacity");
    for (int i = 0; i < ASIC_SIM_N_RESOURCES; i++) {
        ds_put_format(&s, "%-22s %10"PRIu32" %10"PRIu32" %10"PRIu32"\n",
                      asic_sim_resource_name(i), crm[i].used,
                      crm[i].available, crm[i].capacity);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* Context of "asic/fault show". */
struct fault_show_ctx {
    const struct syncd *d;      /* The daemon. */
    struct ds *s;               /* Output. */
};

/* Appends fault prefix 'p' of virtual router 'vr_id', with the VRF's
 * name, to 'ctx'. */
static void
fault_show_prefix(sai_object_id_t vr_id, const sai_ip_prefix_t *p,
                  void *ctx_)
{
    struct fault_show_ctx *ctx = ctx_;
    char buf[SAI_IP_PREFIX_STRLEN];
    const char *vrf = "?";

    for (size_t i = 0; i < syncd_apply_n_vrs(ctx->d->apply); i++) {
        sai_object_id_t id;
        const char *name = syncd_apply_vr_name(ctx->d->apply, i, &id);

        if (id == vr_id) {
            vrf = name;
            break;
        }
    }
    ds_put_format(ctx->s, "prefix %s %s\n", vrf,
                  sai_util_ip_prefix_format(p, buf));
}

/* "asic/fault rate FRACTION [SEED] | prefix add|del VRF PREFIX |
 *  delay USEC | clear | show". */
static void
cmd_fault(struct unixctl_conn *conn, int argc, const char *argv[], void *d_)
{
    struct syncd *d = d_;
    sai_object_id_t sw = syncd_apply_switch_id(d->apply);
    struct asic_sim_fault f;
    sai_status_t status;
    char *end;

    asic_sim_fault_get(sw, &f);
    if (!strcmp(argv[1], "rate") && (argc == 3 || argc == 4)) {
        double rate = strtod(argv[2], &end);

        if (*end || end == argv[2] || !(rate >= 0 && rate <= 1)) {
            unixctl_command_reply_error(conn, "rate must be a fraction "
                                        "between 0 and 1");
            return;
        }
        f.rate = rate;
        if (argc == 4) {
            f.seed = strtoull(argv[3], &end, 10);
            if (*end || end == argv[3]) {
                unixctl_command_reply_error(conn, "bad seed");
                return;
            }
        }
        status = asic_sim_fault_set(sw, &f);
    } else if (!strcmp(argv[1], "delay") && argc == 3) {
        unsigned long usec = strtoul(argv[2], &end, 10);

        if (*end || end == argv[2] || usec > 10000000) {
            unixctl_command_reply_error(conn, "bad delay");
            return;
        }
        f.delay_usec = usec;
        status = asic_sim_fault_set(sw, &f);
    } else if (!strcmp(argv[1], "prefix") && argc == 5
               && (!strcmp(argv[2], "add") || !strcmp(argv[2], "del"))) {
        bool add = !strcmp(argv[2], "add");
        struct fib_prefix fp;
        sai_object_id_t vr_id;
        sai_ip_prefix_t p;
        char *error = fib_prefix_parse(argv[4], &fp);

        if (error) {
            unixctl_command_reply_error(conn, error);
            free(error);
            return;
        }
        syncd_prefix_to_sai(&fp, &p);
        if (add) {
            status = syncd_apply_vr_get(d->apply, argv[3], &vr_id);
            if (!status) {
                status = asic_sim_fault_add_prefix(sw, vr_id, &p);
            }
        } else {
            vr_id = syncd_apply_vr_find(d->apply, argv[3]);
            status = (vr_id ? asic_sim_fault_remove_prefix(sw, vr_id, &p)
                      : SAI_STATUS_ITEM_NOT_FOUND);
        }
    } else if (!strcmp(argv[1], "clear") && argc == 2) {
        status = asic_sim_fault_clear(sw);
    } else if (!strcmp(argv[1], "show") && argc == 2) {
        struct ds s = DS_EMPTY_INITIALIZER;
        struct fault_show_ctx ctx = { .d = d, .s = &s };

        ds_put_format(&s, "rate %g seed %"PRIu64" delay_usec %"PRIu32"\n",
                      f.rate, f.seed, f.delay_usec);
        asic_sim_fault_prefix_walk(sw, fault_show_prefix, &ctx);
        unixctl_command_reply(conn, ds_cstr(&s));
        ds_destroy(&s);
        return;
    } else {
        unixctl_command_reply_error(conn, "usage: asic/fault rate FRACTION "
                                    "[SEED] | prefix add|del VRF PREFIX | "
                                    "delay USEC | clear | show");
        return;
    }

    if (status) {
        unixctl_command_reply_error(conn, sai_util_status_name(status));
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

/* "zmq/show": the southbound channel, its counters, and the backlog of
 * syncd's one writer on that path (hit counters). */
static void
cmd_zmq_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[] OVS_UNUSED, void *d_)
{
    struct syncd *d = d_;
    struct syncd_counters_stats cs;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (d->zmq) {
        syncd_zmq_format(d->zmq, &s);
    } else {
        syncd_path_format(d, &s);
    }
    syncd_counters_get_stats(d->counters, &cs);
    if (cs.enabled) {
        ds_put_format(&s, "Route.counters writer: queued %"PRIu64
                      ", in flight %"PRIu64", committed %"PRIu64"\n",
                      cs.dirty, cs.inflight_rows, cs.acked);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* Appends to 's' the apply step's counters 'as' and, with them, the
 * rates 'ops1' and 'ops10' (routes per second over 1 and 10 s) and
 * 'wb10' (rows written back per second over 10 s). */
static void
put_apply_stats(const struct syncd *d, const struct syncd_apply_stats *as,
                double ops1, double ops10, double wb10, struct ds *s)
{
    ds_put_format(s, "operations: set %"PRIu64" del %"PRIu64
                  " (no-op %"PRIu64") ok %"PRIu64" error %"PRIu64"\n",
                  as->ops[SYNCD_OP_SET], as->ops[SYNCD_OP_DEL], as->noops,
                  as->ok, as->failed);
    ds_put_format(s, "route entries: create %"PRIu64" remove %"PRIu64
                  " set %"PRIu64"\n",
                  as->route_ops[ASIC_SIM_OP_CREATE],
                  as->route_ops[ASIC_SIM_OP_REMOVE],
                  as->route_ops[ASIC_SIM_OP_SET]);
    ds_put_format(s, "bulks: create %"PRIu64" remove %"PRIu64" set %"PRIu64
                  " flushes %"PRIu64" busy %.3f s\n",
                  as->bulks[ASIC_SIM_OP_CREATE],
                  as->bulks[ASIC_SIM_OP_REMOVE],
                  as->bulks[ASIC_SIM_OP_SET], as->flushes,
                  as->busy_usec / 1e6);
    ds_put_format(s, "errors: %"PRIu64"\n", as->failed);
    for (int i = 1; i < SYNCD_STATUS_N_CODES; i++) {
        if (as->errors[i]) {
            ds_put_format(s, "  %s: %"PRIu64"\n",
                          syncd_status_code_name(i), as->errors[i]);
        }
    }
    ds_put_format(s, "next hops: created %"PRIu64" removed %"PRIu64
                  "; groups: created %"PRIu64" removed %"PRIu64"\n",
                  as->nh_created, as->nh_removed, as->nhg_created,
                  as->nhg_removed);
    ds_put_format(s, "orphans: %"PRIu64" retries %"PRIu64"; groups set "
                  "aside: %"PRIu64"\n", as->orphans, as->orphan_retries,
                  as->nhg_stuck);
    ds_put_format(s, "routes: %"PRIuSIZE"\n",
                  syncd_apply_n_routes(d->apply));
    if (as->last_fib_change) {
        ds_put_format(s, "last route programmed: %lld.%06lld\n",
                      as->last_fib_change / 1000000,
                      as->last_fib_change % 1000000);
    } else {
        ds_put_cstr(s, "last route programmed: never\n");
    }
    ds_put_format(s, "rates: %.0f routes/s (1 s), %.0f routes/s (10 s), "
                  "peak %.0f routes/s; write-back %.0f rows/s (10 s)\n",
                  ops1, ops10, d->rates.peak_rate, wb10);
}

/* Appends to 's' the simulator's counters. */
static void
put_asic_stats(const struct syncd *d, struct ds *s)
{
    struct asic_sim_stats ss;

    asic_sim_stats_get(syncd_apply_switch_id(d->apply), &ss);
    ds_put_format(s, "asic: route ops %"PRIu64" errors %"PRIu64
                  " faults injected %"PRIu64" lookups %"PRIu64"\n",
                  ss.route_ops[ASIC_SIM_OP_CREATE]
                  + ss.route_ops[ASIC_SIM_OP_REMOVE]
                  + ss.route_ops[ASIC_SIM_OP_SET],
                  ss.errors, ss.faults_injected, ss.lookups);
    /* Churn: a route taken out of the FIB and put back, which
     * reconciliation after a restart must never do (tests/chaos.at). */
    ds_put_format(s, "asic churn: recreated %"PRIu64
                  " (routes removed, then created again)\n",
                  ss.routes_recreated);
}

/* Appends to 's' the OVSDB path's counters 'ds'. */
static void
put_db_stats(const struct syncd *d, const struct syncd_db_stats *ds,
             struct ds *s)
{
    ds_put_format(s, "db: %s, rows %"PRIu64" in-sync %"PRIu64" bad %"PRIu64
                  " (ever %"PRIu64") backlog %"PRIu64" updates %"PRIu64
                  " reconnects %"PRIu64"\n",
                  (d->db ? syncd_db_is_connected(d->db)
                   : global_follower_is_connected(d->global))
                  ? "connected" : "disconnected",
                  ds->rows, ds->in_sync, ds->bad_rows, ds->bad_total,
                  ds->backlog, ds->updates, ds->reconnects);
    ds_put_format(s, "db rows: inserted %"PRIu64" modified %"PRIu64
                  " deleted %"PRIu64"\n",
                  ds->row_inserts, ds->row_modifies, ds->row_deletes);
    ds_put_format(s, "db read: %s, reads %"PRIu64" failed %"PRIu64
                  " rows %"PRIu64" skipped %"PRIu64" by seq %"PRIu64
                  " kept %"PRIu64" last %lld ms\n",
                  ds->reading ? "reading" : "idle", ds->reads,
                  ds->read_failures, ds->read_rows, ds->read_skipped,
                  ds->read_by_seq, ds->read_kept, ds->read_msec);
    ds_put_format(s, "db VRFs: %"PRIu64" with a Vrf row; rows waiting for "
                  "one %"PRIu64" (ever %"PRIu64")\n",
                  ds->vrfs, ds->held, ds->held_total);
    ds_put_format(s, "write-back: txns %"PRIu64" rows %"PRIu64" acked %"
                  PRIu64" skipped %"PRIu64" failed txns %"PRIu64
                  " pending %"PRIu64" inflight %"PRIu64" (%"PRIu64
                  " txns)\n",
                  ds->wb_txns, ds->wb_rows, ds->wb_acked, ds->wb_skipped,
                  ds->wb_errors, ds->wb_pending, ds->wb_inflight_rows,
                  ds->wb_inflight_txns);
}

/* Appends to 's' the hit counters' writer's counters. */
static void
put_counters_stats(const struct syncd *d, struct ds *s)
{
    struct syncd_counters_stats cs;

    syncd_counters_get_stats(d->counters, &cs);
    if (cs.enabled) {
        ds_put_format(s, "counters: %s, hits %"PRIu64" rounds %"PRIu64
                      " txns %"PRIu64" rows %"PRIu64" acked %"PRIu64
                      " missing %"PRIu64" gone %"PRIu64" failed txns %"
                      PRIu64" lost txns %"PRIu64" dirty %"PRIu64
                      " inflight %"PRIu64"\n",
                      cs.connected ? "connected" : "disconnected",
                      cs.hits, cs.rounds, cs.txns, cs.rows, cs.acked,
                      cs.missing, cs.gone, cs.failed_txns, cs.lost_txns,
                      cs.dirty, cs.inflight_rows);
    } else {
        ds_put_cstr(s, "counters: disabled\n");
    }
}

/* "asic/stats". */
static void
cmd_stats(struct unixctl_conn *conn, int argc OVS_UNUSED,
          const char *argv[] OVS_UNUSED, void *d_)
{
    struct syncd *d = d_;
    struct syncd_apply_stats as;
    struct syncd_db_stats ds;
    struct ds s = DS_EMPTY_INITIALIZER;
    double ops1, wb1, ops10, wb10;

    syncd_apply_get_stats(d->apply, &as);
    syncd_db_get_stats(d->db, &ds);
    /* Updates of Global count as the monitor's: syncd follows Global over
     * a monitor of its own (lib/global-follower.h). */
    ds.updates += global_follower_n_updates(d->global);
    syncd_rates_get(&d->rates, d->apply, d->db, 1, &ops1, &wb1);
    syncd_rates_get(&d->rates, d->apply, d->db, 10, &ops10, &wb10);

    put_apply_stats(d, &as, ops1, ops10, wb10, &s);
    put_asic_stats(d, &s);
    put_db_stats(d, &ds, &s);
    put_counters_stats(d, &s);
    ds_put_format(&s, "%s: %"PRId64" (%s)\n", d->max_bulk->name,
                  d->max_bulk->value,
                  setting_source_name(d->max_bulk->source));
    syncd_path_format(d, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* "exit [--warm]".  With --warm, programs what is queued and saves the
 * routes for the next start before answering. */
static void
cmd_exit(struct unixctl_conn *conn, int argc, const char *argv[], void *d_)
{
    struct syncd *d = d_;

    if (argc > 1) {
        if (strcmp(argv[1], "--warm")) {
            unixctl_command_reply_error(conn, "usage: exit [--warm]");
            return;
        }

        size_t n;
        char *error = syncd_warm_save(d->apply, d->warm_file, &n);
        if (error) {
            unixctl_command_reply_error(conn, error);
            VLOG_ERR("warm exit refused: %s", error);
            free(error);
            return;
        }
        char *msg = xasprintf("%"PRIuSIZE" routes saved to %s", n,
                              d->warm_file);
        VLOG_INFO("warm exit: %s", msg);
        unixctl_command_reply(conn, msg);
        free(msg);
    } else {
        unixctl_command_reply(conn, NULL);
    }
    d->exiting = true;
    poll_immediate_wake();      /* The main loop tests it after waking. */
}

/* "warm/show". */
static void
cmd_warm_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[] OVS_UNUSED, void *d_)
{
    struct syncd *d = d_;
    struct ds s = DS_EMPTY_INITIALIZER;

    syncd_warm_start_format(&d->warm, d->apply, &s);
    if (d->warm_sweep) {
        ds_put_cstr(&s, "reconciliation: under way\n");
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* Registers syncd's commands, each with 'd' as its argument. */
void
syncd_unixctl_register(struct syncd *d)
{
    unixctl_command_register("asic/lookup", "ADDRESS [vrf NAME]", 1, 3,
                             cmd_lookup, d);
    unixctl_command_register("asic/dump", "[json | file PATH]", 0, 2,
                             cmd_dump, d);
    unixctl_command_register("crm/show", "", 0, 0, cmd_crm_show, d);
    unixctl_command_register("asic/fault",
                             "rate FRACTION [SEED] | prefix add|del VRF "
                             "PREFIX | delay USEC | clear | show",
                             1, 4, cmd_fault, d);
    unixctl_command_register("asic/stats", "", 0, 0, cmd_stats, d);
    unixctl_command_register("zmq/show", "", 0, 0, cmd_zmq_show, d);
    unixctl_command_register("warm/show", "", 0, 0, cmd_warm_show, d);
    unixctl_command_register("exit", "[--warm]", 0, 1, cmd_exit, d);
}
