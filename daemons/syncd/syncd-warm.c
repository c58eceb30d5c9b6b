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

#include "daemons/syncd/syncd-warm.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "coverage.h"
#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-nexthop-key.h"
#include "lib/fib-prefix.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(syncd_warm);

COVERAGE_DEFINE(syncd_warm_save);
COVERAGE_DEFINE(syncd_warm_restore);
COVERAGE_DEFINE(syncd_warm_refused);

/* Version 2 writes VRF names escaped (escape_vrf()); version 1 files,
 * which wrote them raw, are still read. */
#define WARM_MAGIC "fibsync-syncd-warm 2"
#define WARM_MAGIC_V1 "fibsync-syncd-warm 1"

/* Most next hops on one line: more than any route can have. */
#define WARM_MAX_NEXTHOPS 1024

/* ---- Saving ------------------------------------------------------------- */

/* What syncd_warm_save() passes to save_route(). */
struct save_ctx {
    FILE *f;                    /* The temporary file. */
    size_t n;                   /* Routes written. */
};

/* True if byte 'c' of a VRF name is written as "%XX": a VRF name is 1 to
 * 255 bytes but for a null byte, so it may hold the space that separates
 * a line's words, the new-line that ends it, and '%' itself. */
static bool
vrf_byte_escaped(unsigned char c)
{
    return c <= ' ' || c == '%' || c == 0x7f;
}

/* Writes VRF name 'vrf' to 'f', escaped. */
static void
escape_vrf(FILE *f, const char *vrf)
{
    for (const unsigned char *c = (const unsigned char *) vrf; *c; c++) {
        if (vrf_byte_escaped(*c)) {
            fprintf(f, "%%%02X", *c);
        } else {
            putc(*c, f);
        }
    }
}

static void
save_route(const struct syncd_route_op *op, void *ctx_)
{
    struct save_ctx *ctx = ctx_;
    char prefix[FIB_PREFIX_STRLEN];

    fib_prefix_format(&op->prefix, prefix);
    fputs("route ", ctx->f);
    escape_vrf(ctx->f, op->vrf);
    fprintf(ctx->f, " %s %s", prefix, syncd_action_name(op->action));
    for (size_t i = 0; i < op->n_nexthops; i++) {
        const struct syncd_nexthop *nh = &op->nexthops[i];

        char gw[SAI_IP_ADDRESS_STRLEN];

        /* The next-hop key syncd_nexthop_key_parse() reads back. */
        fprintf(ctx->f, " %s%s%s=%"PRIu32,
                nh->has_gateway
                ? sai_util_ip_address_format(&nh->gateway, gw) : "",
                nh->ifname && nh->ifname[0] ? "@" : "",
                nh->ifname ? nh->ifname : "", nh->weight);
    }
    fputc('\n', ctx->f);
    ctx->n++;
}

/* Programs what 'sa' has queued, then writes every route of 'sa' to
 * 'file' (through a temporary file renamed over it).  Returns NULL and
 * sets '*n_routes' on success, otherwise an error message for the caller
 * to free (and leaves no file behind). */
char *
syncd_warm_save(struct syncd_apply *sa, const char *file, size_t *n_routes)
{
    char *tmp = xasprintf("%s.tmp", file);
    struct save_ctx ctx = { .f = fopen(tmp, "w") };
    char *error = NULL;

    *n_routes = 0;
    if (!ctx.f) {
        error = xasprintf("%s: %s", tmp, ovs_strerror(errno));
        free(tmp);
        return error;
    }

    syncd_apply_flush(sa);
    fprintf(ctx.f, "%s\n", WARM_MAGIC);
    syncd_apply_for_each_route(sa, save_route, &ctx);
    fprintf(ctx.f, "end %"PRIuSIZE"\n", ctx.n);

    if (ferror(ctx.f) || fflush(ctx.f) || fsync(fileno(ctx.f))) {
        error = xasprintf("%s: write failed: %s", tmp, ovs_strerror(errno));
    }
    if (fclose(ctx.f) && !error) {
        error = xasprintf("%s: close failed: %s", tmp, ovs_strerror(errno));
    }
    if (!error && rename(tmp, file)) {
        error = xasprintf("cannot rename %s to %s: %s", tmp, file,
                          ovs_strerror(errno));
    }
    if (error) {
        unlink(tmp);
    } else {
        COVERAGE_INC(syncd_warm_save);
        *n_routes = ctx.n;
    }
    free(tmp);
    return error;
}

/* ---- Restoring ---------------------------------------------------------- */

/* A parsed "route" line; its strings point into the line. */
struct warm_line {
    struct syncd_route_op op;   /* The operation. */
    struct syncd_nexthop nhs[WARM_MAX_NEXTHOPS]; /* Its next hops. */
};

static bool
parse_action(const char *s, sai_packet_action_t *action)
{
    static const sai_packet_action_t actions[] = {
        SAI_PACKET_ACTION_FORWARD, SAI_PACKET_ACTION_DROP,
        SAI_PACKET_ACTION_TRAP,
    };

    for (size_t i = 0; i < ARRAY_SIZE(actions); i++) {
        if (!strcmp(s, syncd_action_name(actions[i]))) {
            *action = actions[i];
            return true;
        }
    }
    return false;
}

/* Parses next hop "KEY=WEIGHT" in 's' (modified), KEY as
 * syncd_nexthop_key_parse() reads it, into 'nh'.  Returns NULL or an
 * error for the caller to free. */
static char *
parse_nexthop(char *s, struct syncd_nexthop *nh)
{
    char *eq = strrchr(s, '=');
    unsigned int w;

    if (!eq || !str_to_uint(eq + 1, 10, &w)) {
        return xasprintf("next hop \"%s\" has no =WEIGHT", s);
    }
    *eq = '\0';
    return syncd_nexthop_key_parse(s, w, nh);
}

/* Undoes escape_vrf() on 's', in place.  Returns false if 's' holds a
 * bad escape or a null byte. */
static bool
unescape_vrf(char *s)
{
    char *out = s;

    for (const char *in = s; *in; in++) {
        if (*in == '%') {
            int hi = hexit_value(in[1]);
            int lo = hi < 0 ? -1 : hexit_value(in[2]);

            if (lo < 0 || !(hi << 4 | lo)) {
                return false;
            }
            *out++ = hi << 4 | lo;
            in += 2;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
    return true;
}

/* Parses "route ..." line 's' (modified, without its new-line) into
 * 'wl', the VRF name escaped if 'escaped'.  Returns NULL or an error for
 * the caller to free. */
static char *
parse_route(char *s, bool escaped, struct warm_line *wl)
{
    char *save = NULL;
    char *word = strtok_r(s, " ", &save);
    char *vrf = strtok_r(NULL, " ", &save);
    char *prefix = strtok_r(NULL, " ", &save);
    char *action = strtok_r(NULL, " ", &save);
    char *error;

    if (!word || strcmp(word, "route") || !vrf || !prefix || !action) {
        return xstrdup("not \"route VRF PREFIX ACTION [NEXTHOP=WEIGHT]...\"");
    }
    if (escaped && !unescape_vrf(vrf)) {
        return xstrdup("bad escape in the VRF name");
    }
    memset(&wl->op, 0, sizeof wl->op);
    wl->op.type = SYNCD_OP_SET;
    wl->op.vrf = vrf;
    error = fib_prefix_parse_strict(prefix, &wl->op.prefix);
    if (error) {
        return error;
    }
    if (!parse_action(action, &wl->op.action)) {
        return xasprintf("bad action \"%s\"", action);
    }
    for (char *nh = strtok_r(NULL, " ", &save); nh;
         nh = strtok_r(NULL, " ", &save)) {
        if (wl->op.n_nexthops >= WARM_MAX_NEXTHOPS) {
            return xstrdup("too many next hops");
        }
        error = parse_nexthop(nh, &wl->nhs[wl->op.n_nexthops]);
        if (error) {
            return error;
        }
        wl->op.n_nexthops++;
    }
    wl->op.nexthops = wl->nhs;
    return NULL;
}

/* Reads 'f' from its start: checks the header, every route line and the
 * count at the end, and, if 'sa' is nonnull, submits each route to it.
 * Returns NULL and sets '*n' to the number of routes, or an error. */
static char *
read_file(FILE *f, const char *file, struct syncd_apply *sa,
          struct warm_line *wl, size_t *n)
{
    struct ds line = DS_EMPTY_INITIALIZER;
    char *error = NULL;
    size_t lineno = 0;
    bool ended = false;
    bool escaped = true;

    *n = 0;
    rewind(f);
    while (!error && !ds_get_line(&line, f)) {
        char *s = ds_cstr(&line);
        size_t end_n;

        lineno++;
        if (ended) {
            error = xasprintf("%s:%"PRIuSIZE": text after the end line",
                              file, lineno);
        } else if (lineno == 1) {
            escaped = !strcmp(s, WARM_MAGIC);
            if (!escaped && strcmp(s, WARM_MAGIC_V1)) {
                error = xasprintf("%s: not a syncd warm file (version 1 or "
                                  "2)", file);
            }
        } else if (!strncmp(s, "end ", 4)) {
            if (!str_to_ullong(s + 4, 10, (unsigned long long *) &end_n)
                || end_n != *n) {
                error = xasprintf("%s:%"PRIuSIZE": end line does not count "
                                  "the %"PRIuSIZE" routes", file, lineno, *n);
            }
            ended = true;
        } else {
            char *bad = parse_route(s, escaped, wl);

            if (bad) {
                error = xasprintf("%s:%"PRIuSIZE": bad route line: %s", file,
                                  lineno, bad);
                free(bad);
            } else {
                if (sa) {
                    syncd_apply_submit(sa, &wl->op);
                }
                (*n)++;
            }
        }
    }
    if (!error && !ended) {
        error = xasprintf("%s: truncated (no end line after %"PRIuSIZE
                          " routes)", file, *n);
    }
    ds_destroy(&line);
    return error;
}

/* If 'file' exists, programs its routes into 'sa', which must hold none
 * yet, deletes it, and fills in 'ws'; a damaged file is refused as a
 * whole, deleted too, and reported as an error (the caller starts cold).
 * Returns NULL if there was no file or it was restored. */
char *
syncd_warm_restore(struct syncd_apply *sa, const char *file,
                   struct syncd_warm_start *ws)
{
    long long int start = time_msec();
    struct warm_line *wl;
    struct syncd_apply_stats before, after;
    char *error;
    size_t n;
    FILE *f;

    memset(ws, 0, sizeof *ws);
    f = fopen(file, "r");
    if (!f) {
        return (errno == ENOENT
                ? NULL : xasprintf("%s: %s", file, ovs_strerror(errno)));
    }

    wl = xmalloc(sizeof *wl);
    error = read_file(f, file, NULL, wl, &n);
    if (!error) {
        syncd_apply_get_stats(sa, &before);
        error = read_file(f, file, sa, wl, &n);
        syncd_apply_flush(sa);
        syncd_apply_get_stats(sa, &after);
        ws->file = xstrdup(file);
        ws->restored = n;
        ws->failed = after.failed - before.failed;
        memcpy(ws->route_ops, after.route_ops, sizeof ws->route_ops);
        ws->msec = time_msec() - start;
        COVERAGE_INC(syncd_warm_restore);
        VLOG_INFO("warm start: %"PRIuSIZE" routes restored from %s in "
                  "%lld ms (%"PRIuSIZE" refused)", n, file, ws->msec,
                  ws->failed);
    } else {
        COVERAGE_INC(syncd_warm_refused);
    }
    free(wl);
    fclose(f);

    /* Used once: a later crash must not bring back this old state. */
    if (unlink(file) && !error) {
        VLOG_WARN("%s: cannot delete: %s", file, ovs_strerror(errno));
    }
    return error;
}

/* Appends to 's' what warm start 'ws' did and the route calls 'sa' made
 * since. */
void
syncd_warm_start_format(const struct syncd_warm_start *ws,
                        const struct syncd_apply *sa, struct ds *s)
{
    struct syncd_apply_stats st;

    if (!ws->file) {
        ds_put_cstr(s, "warm start: no (cold start)\n");
        return;
    }
    syncd_apply_get_stats(sa, &st);
    ds_put_format(s, "warm start: %"PRIuSIZE" routes restored from %s in "
                  "%lld ms, %"PRIuSIZE" refused\n", ws->restored, ws->file,
                  ws->msec, ws->failed);
    ds_put_format(s, "since the restore: %"PRIu64" routes created, %"PRIu64
                  " removed, %"PRIu64" set\n",
                  st.route_ops[0] - ws->route_ops[0],
                  st.route_ops[1] - ws->route_ops[1],
                  st.route_ops[2] - ws->route_ops[2]);
}

void
syncd_warm_start_destroy(struct syncd_warm_start *ws)
{
    free(ws->file);
    ws->file = NULL;
}
