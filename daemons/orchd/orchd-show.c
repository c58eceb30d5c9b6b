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
 * orchd-show: "show ip route" from a source's index; route/show and
 * route/dump from the read cache.
 */

#include <config.h>

#include "daemons/orchd/orchd-show.h"

#include <stdlib.h>
#include <string.h>

#include "daemons/orchd/orchd-cache.h"
#include "daemons/orchd/orchd-entry.h"
#include "lib/fib-prefix.h"
#include "lib/route-key.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

/* How long "detail" waits for counters before answering without them. */
#define FETCH_TIMEOUT_MS 2000

/* The most rows whose counters one "detail" query fetches (the first in
 * its order): a "detail" of a whole table would otherwise ask for a
 * million in one transaction. */
#define FETCH_MAX_ROWS 1000

/* A parsed "fib/show" query. */
struct query {
    int family;                 /* AF_INET ("ip") or AF_INET6 ("ipv6"). */
    const char *vrf;            /* VRF name. */
    bool summary;               /* "summary". */
    bool has_prefix;            /* A PREFIX was given. */
    bool is_address;            /* ...as a bare ADDRESS (longest match). */
    bool longer;                /* "longer-prefixes". */
    bool detail;                /* "detail". */
    bool json;                  /* "json". */
    struct fib_prefix prefix;   /* The PREFIX or ADDRESS. */
};

/* A "detail" query waiting for its counters. */
struct deferred {
    struct ovs_list node;       /* In 'orchd_show->deferred'. */
    struct unixctl_conn *conn;  /* Where to answer. */
    int argc;                   /* Saved arguments. */
    char **argv;                /* Saved arguments (owned). */
    struct uuid *rows;          /* Rows whose counters were fetched. */
    size_t n_rows;              /* Number of 'rows'. */
    long long int deadline;     /* Answer anyway at this time (ms). */
};

/* fib/show's state. */
struct orchd_show {
    struct orchd_show_source *src;  /* Where the routes come from. */
    struct orchd_cache *cache;      /* Programmed routes. */
    struct ovs_list deferred;       /* Contains "struct deferred"s. */
};

/* ---- Parsing -----------------------------------------------------------*/

/* Parses the arguments of fib/show, argv[1] to argv[argc - 1] ("ip" or
 * "ipv6" first), into '*q'.  Returns NULL, or an error message the
 * caller frees. */
static char *
parse_query(int argc, const char *argv[], struct query *q)
{
    int i = 1;

    memset(q, 0, sizeof *q);
    q->vrf = "default";
    if (i >= argc || (strcmp(argv[i], "ip") && strcmp(argv[i], "ipv6"))) {
        return xstrdup("usage: show ip|ipv6 route [vrf NAME] "
                       "[summary | PREFIX [longer-prefixes] | ADDRESS] "
                       "[detail] [json]");
    }
    q->family = !strcmp(argv[i++], "ip") ? AF_INET : AF_INET6;
    if (i >= argc || strcmp(argv[i], "route")) {
        return xasprintf("expected \"route\" after \"%s\"", argv[i - 1]);
    }
    for (i++; i < argc; i++) {
        const char *a = argv[i];

        if (!strcmp(a, "vrf")) {
            if (++i >= argc) {
                return xstrdup("\"vrf\" needs a VRF name");
            }
            q->vrf = argv[i];
        } else if (!strcmp(a, "summary")) {
            q->summary = true;
        } else if (!strcmp(a, "longer-prefixes")) {
            q->longer = true;
        } else if (!strcmp(a, "detail")) {
            q->detail = true;
        } else if (!strcmp(a, "json")) {
            q->json = true;
        } else if (!q->has_prefix) {
            char *error;

            q->is_address = !strchr(a, '/');
            error = (q->is_address ? fib_prefix_parse_addr(a, &q->prefix)
                                   : fib_prefix_parse(a, &q->prefix));
            if (error) {
                char *msg = xasprintf("%% Malformed %s: %s",
                                      q->is_address ? "address" : "prefix",
                                      error);
                free(error);
                return msg;
            }
            if (q->prefix.family != q->family) {
                return xasprintf("%% %s is not an %s %s", a,
                                 q->family == AF_INET ? "IPv4" : "IPv6",
                                 q->is_address ? "address" : "prefix");
            }
            q->has_prefix = true;
        } else {
            return xasprintf("%% Unknown argument \"%s\"", a);
        }
    }
    if (q->longer && (!q->has_prefix || q->is_address)) {
        return xstrdup("% \"longer-prefixes\" needs a PREFIX");
    }
    if (q->summary && q->has_prefix) {
        return xstrdup("% \"summary\" takes no PREFIX");
    }
    return NULL;
}

/* Returns true if 'vrf' is known: it has a Vrf row or a route. */
static bool
vrf_exists(struct orchd_show *s, const char *vrf)
{
    return s->src->class->vrf_exists(s->src, vrf);
}

/* ---- Formatting --------------------------------------------------------*/

/* Returns FRR's one-letter code for route protocol 'protocol', '?' if
 * there is none. */
static char
protocol_code(const char *protocol)
{
    static const struct { const char *name; char code; } codes[] = {
        { "kernel", 'K' }, { "connected", 'C' }, { "static", 'S' },
        { "rip", 'R' }, { "ripng", 'R' }, { "ospf", 'O' }, { "ospf6", 'O' },
        { "isis", 'I' }, { "bgp", 'B' }, { "eigrp", 'E' }, { "nhrp", 'N' },
        { "table", 'T' }, { "babel", 'A' }, { "pbr", 'F' },
        { "openfabric", 'f' }, { "sharp", 'D' },
    };

    for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
        if (!strcmp(codes[i].name, protocol)) {
            return codes[i].code;
        }
    }
    return '?';
}

/* Splits a next-hop key "GW@IF", "GW" or "@IF" into its parts
 * (route_key_nexthop_split()); a key that is not one shows whole, as a
 * gateway. */
static void
split_nexthop(const char *key, struct ds *gw, struct ds *ifname)
{
    struct route_key_nexthop nh;
    char *error = route_key_nexthop_split(key, &nh);

    ds_clear(gw);
    ds_clear(ifname);
    if (error) {
        free(error);
        ds_put_cstr(gw, key);
        return;
    }
    ds_put_buffer(gw, key, nh.gateway_len);
    ds_put_cstr(ifname, nh.ifname);
}

/* The route's state in the ASIC: its read-cache entry (a reference, or
 * NULL if not programmed) and its resolution (a reference, or NULL). */
struct route_state {
    struct orchd_entry *want;   /* What orchd resolves it to. */
    struct orchd_entry *have;   /* What the ASIC acknowledged. */
};

/* Fills '*st' for 'r'; release it with route_state_destroy(). */
static void
route_state_get(struct orchd_show *s, const struct orchd_show_route *r,
                struct route_state *st)
{
    st->want = r->want ? orchd_entry_ref(r->want) : NULL;
    st->have = (st->want
                ? orchd_cache_get(s->cache, &st->want->asic_uuid) : NULL);
}

/* Drops the references in 'st'. */
static void
route_state_destroy(struct route_state *st)
{
    orchd_entry_unref(st->want);
    orchd_entry_unref(st->have);
}

/* Returns true if the ASIC has what orchd resolves the route to. */
static bool
route_state_offloaded(const struct route_state *st)
{
    return st->have && orchd_entry_same_content(st->have, st->want);
}

/* One line per next hop, FRR "show ip route" style. */
static void
format_route_line(struct orchd_show *s, const struct orchd_show_route *r,
                  struct ds *out)
{
    char prefix[FIB_PREFIX_STRLEN];
    struct ds gw = DS_EMPTY_INITIALIZER, ifname = DS_EMPTY_INITIALIZER;
    struct route_state st;
    size_t indent;
    char fib;

    route_state_get(s, r, &st);
    fib = route_state_offloaded(&st) ? '*' : 'q';
    indent = out->length;
    fib_prefix_format(r->prefix, prefix);
    ds_put_format(out, "%c>%c %s [%"PRId64"/%"PRId64"]",
                  protocol_code(r->protocol), fib, prefix, r->distance,
                  r->metric);
    indent = out->length - indent;

    if (!st.want) {
        ds_put_cstr(out, " (next-hop group unknown)\n");
    } else if (st.want->action == ORCHD_ACTION_DROP) {
        ds_put_cstr(out, " unreachable (blackhole)\n");
    } else if (st.want->action == ORCHD_ACTION_TRAP) {
        ds_put_cstr(out, " to the CPU (no next hop)\n");
    }
    for (size_t i = 0; st.want && i < st.want->n_nexthops; i++) {
        const struct orchd_entry_nexthop *nh = &st.want->nexthops[i];

        if (i) {
            ds_put_format(out, "  %c%*s", fib, (int) indent - 3, "");
        }
        split_nexthop(nh->key, &gw, &ifname);
        if (gw.length) {
            ds_put_format(out, " via %s", ds_cstr(&gw));
            if (ifname.length) {
                ds_put_format(out, ", %s", ds_cstr(&ifname));
            }
        } else {
            ds_put_format(out, " is directly connected, %s",
                          ds_cstr(&ifname));
        }
        ds_put_format(out, ", weight %"PRIu32"\n", nh->weight);
    }
    route_state_destroy(&st);
    ds_destroy(&gw);
    ds_destroy(&ifname);
}

/* "Routing entry for ..." block, FRR "show ip route PREFIX" style. */
static void
format_route_entry(struct orchd_show *s, const struct orchd_show_route *r,
                   bool detail, struct ds *out)
{
    char prefix[FIB_PREFIX_STRLEN];
    struct ds gw = DS_EMPTY_INITIALIZER, ifname = DS_EMPTY_INITIALIZER;
    struct route_state st;

    route_state_get(s, r, &st);
    fib_prefix_format(r->prefix, prefix);
    ds_put_format(out, "Routing entry for %s\n", prefix);
    ds_put_format(out, "  Known via \"%s\", distance %"PRId64", metric %"
                  PRId64", vrf %s, best\n", r->protocol, r->distance,
                  r->metric, r->vrf);
    ds_put_format(out, "  %s\n", route_state_offloaded(&st)
                  ? "Offloaded: programmed in the ASIC"
                  : st.have ? "Queued: the ASIC holds an older version"
                            : "Queued: not programmed in the ASIC yet");
    if (r->has_group) {
        ds_put_format(out, "  Next-hop group %"PRId64"\n", r->group);
    }
    if (!st.want) {
        ds_put_cstr(out, "    (next-hop group unknown)\n");
    } else if (st.want->action == ORCHD_ACTION_DROP) {
        ds_put_cstr(out, "  * unreachable (blackhole)\n");
    } else if (st.want->action == ORCHD_ACTION_TRAP) {
        ds_put_cstr(out, "  * to the CPU (no next hop)\n");
    }
    for (size_t i = 0; st.want && i < st.want->n_nexthops; i++) {
        const struct orchd_entry_nexthop *nh = &st.want->nexthops[i];

        split_nexthop(nh->key, &gw, &ifname);
        if (gw.length) {
            ds_put_format(out, "  * %s", ds_cstr(&gw));
            if (ifname.length) {
                ds_put_format(out, ", via %s", ds_cstr(&ifname));
            }
        } else {
            ds_put_format(out, "  * directly connected, %s",
                          ds_cstr(&ifname));
        }
        ds_put_format(out, ", weight %"PRIu32"\n", nh->weight);
    }
    if (detail) {
        ds_put_cstr(out, "  Counters:");
        if (!r->n_counters) {
            ds_put_cstr(out, " none");
        }
        for (size_t i = 0; i < r->n_counters; i++) {
            ds_put_format(out, " %s %"PRId64, r->counter_keys[i],
                          r->counter_values[i]);
        }
        ds_put_char(out, '\n');
    }
    route_state_destroy(&st);
    ds_destroy(&gw);
    ds_destroy(&ifname);
}

/* FRR-like JSON of one route. */
static struct json *
route_to_json(struct orchd_show *s, const struct orchd_show_route *r,
              bool detail)
{
    char prefix[FIB_PREFIX_STRLEN];
    struct json *j = json_object_create();
    struct json *nhs = json_array_create_empty();
    struct ds gw = DS_EMPTY_INITIALIZER, ifname = DS_EMPTY_INITIALIZER;
    struct route_state st;
    bool offloaded;

    route_state_get(s, r, &st);
    offloaded = route_state_offloaded(&st);
    fib_prefix_format(r->prefix, prefix);
    json_object_put_string(j, "prefix", prefix);
    json_object_put_string(j, "protocol", r->protocol);
    json_object_put_string(j, "vrfName", r->vrf);
    json_object_put(j, "selected", json_boolean_create(true));
    json_object_put(j, "distance", json_integer_create(r->distance));
    json_object_put(j, "metric", json_integer_create(r->metric));
    json_object_put(j, "installed", json_boolean_create(offloaded));
    json_object_put(j, "offloaded", json_boolean_create(offloaded));
    json_object_put(j, "queued", json_boolean_create(!offloaded));
    if (r->has_group) {
        json_object_put(j, "nexthopGroupId", json_integer_create(r->group));
    }
    if (st.want && st.want->action != ORCHD_ACTION_FORWARD) {
        json_object_put(j, st.want->action == ORCHD_ACTION_DROP
                        ? "blackhole" : "trap", json_boolean_create(true));
    }
    for (size_t i = 0; st.want && i < st.want->n_nexthops; i++) {
        const struct orchd_entry_nexthop *nh = &st.want->nexthops[i];
        struct json *n = json_object_create();

        split_nexthop(nh->key, &gw, &ifname);
        if (gw.length) {
            json_object_put_string(n, "ip", ds_cstr(&gw));
            json_object_put_string(n, "afi", strchr(ds_cstr(&gw), ':')
                                   ? "ipv6" : "ipv4");
        } else {
            json_object_put(n, "directlyConnected",
                            json_boolean_create(true));
        }
        if (ifname.length) {
            json_object_put_string(n, "interfaceName", ds_cstr(&ifname));
        }
        json_object_put(n, "weight", json_integer_create(nh->weight));
        json_object_put(n, "active", json_boolean_create(true));
        json_object_put(n, "fib", json_boolean_create(offloaded));
        json_array_add(nhs, n);
    }
    json_object_put(j, "nexthops", nhs);
    if (detail) {
        struct json *c = json_object_create();

        for (size_t i = 0; i < r->n_counters; i++) {
            json_object_put(c, r->counter_keys[i],
                            json_integer_create(r->counter_values[i]));
        }
        json_object_put(j, "counters", c);
    }
    route_state_destroy(&st);
    ds_destroy(&gw);
    ds_destroy(&ifname);
    return j;
}

static const char codes_header[] =
    "Codes: K - kernel route, C - connected, S - static, R - RIP,\n"
    "       O - OSPF, I - IS-IS, B - BGP, E - EIGRP, N - NHRP,\n"
    "       T - Table, A - Babel, F - PBR, f - OpenFabric,\n"
    "       > - selected route, * - FIB route (offloaded to the ASIC), "
    "q - queued\n\n";

/* Adds 'r' to a JSON answer keyed by prefix, as FRR does. */
static void
json_add_route(struct json *top, struct json *route)
{
    const char *prefix = json_string(shash_find_data(json_object(route),
                                                     "prefix"));
    struct json *list = shash_find_data(json_object(top), prefix);

    if (!list) {
        list = json_array_create_empty();
        json_object_put(top, prefix, list);
    }
    json_array_add(list, route);
}

/* ---- Queries -----------------------------------------------------------*/

/* Called by for_each_selected() for each route, with its 'aux'. */
typedef void route_cb(struct orchd_show *, const struct orchd_show_route *,
                      void *aux);

/* for_each_selected()'s callback and its arguments. */
struct selected {
    struct orchd_show *s;       /* Whose query. */
    const struct query *q;      /* The query. */
    route_cb *cb;               /* Called for each route... */
    void *aux;                  /* ...with this. */
    size_t n;                   /* Routes passed on. */
};

/* orchd_show_route_cb: passes on a route of the query's family. */
static void
selected_route(const struct orchd_show_route *r, void *sel_)
{
    struct selected *sel = sel_;

    if (r->prefix->family == sel->q->family) {
        sel->cb(sel->s, r, sel->aux);
        sel->n++;
    }
}

/* Calls 'cb' for each route the query selects, in prefix order.
 * Returns the number of routes. */
static size_t
for_each_selected(struct orchd_show *s, const struct query *q,
                  route_cb *cb, void *aux)
{
    struct selected sel = { .s = s, .q = q, .cb = cb, .aux = aux };
    enum orchd_show_select what;

    what = (!q->has_prefix ? ORCHD_SHOW_VRF
            : q->longer ? ORCHD_SHOW_LONGER
            : q->is_address ? ORCHD_SHOW_LPM
            : ORCHD_SHOW_EXACT);
    s->src->class->select(s->src, q->vrf, what,
                          q->has_prefix ? &q->prefix : NULL,
                          selected_route, &sel);
    return sel.n;
}

/* Output state of a query. */
struct answer {
    const struct query *q;      /* The query. */
    struct ds text;             /* Text answer. */
    struct json *json;          /* JSON answer, if q->json. */
};

/* route_cb of a listing: adds 'r' to the answer 'a_' as text (a line or
 * an entry) or JSON. */
static void
answer_route(struct orchd_show *s, const struct orchd_show_route *r,
             void *a_)
{
    struct answer *a = a_;
    bool entry = (a->q->has_prefix && !a->q->longer) || a->q->detail;

    if (a->json) {
        json_add_route(a->json, route_to_json(s, r, a->q->detail));
    } else if (entry) {
        format_route_entry(s, r, a->q->detail, &a->text);
    } else {
        format_route_line(s, r, &a->text);
    }
}

/* Per-protocol totals for "summary". */
struct proto_count {
    char *protocol;             /* Protocol name. */
    size_t rib;                 /* Routes. */
    size_t fib;                 /* Routes offloaded. */
};

/* Totals of a "summary" query. */
struct summary {
    struct shash protocols;     /* Name → struct proto_count. */
    size_t by_len[129];         /* Routes by prefix length. */
};

/* route_cb of "summary": counts 'r' into 'a_', a struct summary. */
static void
summary_route(struct orchd_show *s, const struct orchd_show_route *r,
              void *a_)
{
    struct summary *sum = a_;
    struct proto_count *pc = shash_find_data(&sum->protocols, r->protocol);
    struct route_state st;

    if (!pc) {
        pc = xzalloc(sizeof *pc);
        pc->protocol = xstrdup(r->protocol);
        shash_add(&sum->protocols, r->protocol, pc);
    }
    pc->rib++;
    route_state_get(s, r, &st);
    pc->fib += route_state_offloaded(&st);
    route_state_destroy(&st);
    sum->by_len[r->prefix->len]++;
}

/* Answers a "summary" query: routes and offloaded routes by protocol,
 * with totals, and routes by prefix length, as text or JSON.  Returns the
 * answer, which the caller frees. */
static char *
answer_summary(struct orchd_show *s, const struct query *q)
{
    struct summary sum;
    struct ds out = DS_EMPTY_INITIALIZER;
    const struct shash_node **nodes;
    size_t rib = 0, fib = 0;
    int max_len = q->family == AF_INET ? 32 : 128;

    memset(&sum, 0, sizeof sum);
    shash_init(&sum.protocols);
    for_each_selected(s, q, summary_route, &sum);
    nodes = shash_sort(&sum.protocols);

    if (q->json) {
        struct json *j = json_object_create();
        struct json *routes = json_array_create_empty();
        struct json *lens = json_object_create();

        for (size_t i = 0; i < shash_count(&sum.protocols); i++) {
            const struct proto_count *pc = nodes[i]->data;
            struct json *o = json_object_create();

            json_object_put_string(o, "type", pc->protocol);
            json_object_put(o, "rib", json_integer_create(pc->rib));
            json_object_put(o, "fib", json_integer_create(pc->fib));
            json_array_add(routes, o);
            rib += pc->rib;
            fib += pc->fib;
        }
        for (int len = 0; len <= max_len; len++) {
            if (sum.by_len[len]) {
                json_object_put_nocopy(lens, xasprintf("%d", len),
                                       json_integer_create(sum.by_len[len]));
            }
        }
        json_object_put_string(j, "vrfName", q->vrf);
        json_object_put(j, "routes", routes);
        json_object_put(j, "routesTotal", json_integer_create(rib));
        json_object_put(j, "routesTotalFib", json_integer_create(fib));
        json_object_put(j, "prefixLengths", lens);
        json_to_ds(j, JSSF_PRETTY, &out);
        ds_put_char(&out, '\n');
        json_destroy(j);
    } else {
        ds_put_format(&out, "%-20s %-20s %s (vrf %s)\n", "Route Source",
                      "Routes", "FIB", q->vrf);
        for (size_t i = 0; i < shash_count(&sum.protocols); i++) {
            const struct proto_count *pc = nodes[i]->data;

            ds_put_format(&out, "%-20s %-20"PRIuSIZE" %"PRIuSIZE"\n",
                          pc->protocol, pc->rib, pc->fib);
            rib += pc->rib;
            fib += pc->fib;
        }
        ds_put_format(&out, "------\n%-20s %-20"PRIuSIZE" %"PRIuSIZE"\n\n",
                      "Totals", rib, fib);
        ds_put_format(&out, "%-20s %s\n", "Prefix length", "Routes");
        for (int len = 0; len <= max_len; len++) {
            if (sum.by_len[len]) {
                ds_put_format(&out, "/%-19d %"PRIuSIZE"\n", len,
                              sum.by_len[len]);
            }
        }
    }
    free(nodes);
    struct shash_node *node, *next;
    SHASH_FOR_EACH_SAFE (node, next, &sum.protocols) {
        struct proto_count *pc = node->data;

        free(pc->protocol);
        free(pc);
    }
    shash_destroy(&sum.protocols);
    return ds_steal_cstr(&out);
}

/* Answers a parsed query.  Returns the text, or NULL and '*errorp'. */
static char *
answer_query(struct orchd_show *s, const struct query *q, char **errorp)
{
    struct answer a;
    size_t n;

    *errorp = NULL;
    if (!vrf_exists(s, q->vrf)) {
        *errorp = xasprintf("%% VRF %s not found", q->vrf);
        return NULL;
    }
    if (q->summary) {
        return answer_summary(s, q);
    }
    a.q = q;
    ds_init(&a.text);
    a.json = q->json ? json_object_create() : NULL;
    if (!q->json && (!q->has_prefix || q->longer) && !q->detail) {
        ds_put_cstr(&a.text, codes_header);
        if (strcmp(q->vrf, "default")) {
            ds_put_format(&a.text, "VRF %s:\n", q->vrf);
        }
    }
    n = for_each_selected(s, q, answer_route, &a);
    if (!n && q->has_prefix && !q->longer && !q->json) {
        ds_destroy(&a.text);
        *errorp = xstrdup("% Network not in table");
        return NULL;
    }
    if (a.json) {
        json_to_ds(a.json, JSSF_PRETTY | JSSF_SORT, &a.text);
        ds_put_char(&a.text, '\n');
        json_destroy(a.json);
    }
    return ds_steal_cstr(&a.text);
}

/* ---- unixctl -----------------------------------------------------------*/

/* Collects the UUIDs of the rows a query prints. */
struct collect {
    struct uuid *rows;          /* Collected. */
    size_t n, allocated;        /* Count and capacity. */
};

/* route_cb that appends the UUID of 'r' to 'c_', a struct collect, up to
 * FETCH_MAX_ROWS. */
static void
collect_route(struct orchd_show *s OVS_UNUSED,
              const struct orchd_show_route *r, void *c_)
{
    struct collect *c = c_;

    if (c->n >= FETCH_MAX_ROWS) {
        return;
    } else if (c->n >= c->allocated) {
        c->rows = x2nrealloc(c->rows, &c->allocated, sizeof *c->rows);
    }
    c->rows[c->n++] = r->uuid;
}

/* Parses and answers a query on 'conn'. */
static void
reply(struct unixctl_conn *conn, struct orchd_show *s, int argc,
      const char *argv[])
{
    struct query q;
    char *error, *text;

    error = parse_query(argc, argv, &q);
    if (!error) {
        text = answer_query(s, &q, &error);
        if (text) {
            unixctl_command_reply(conn, text);
            free(text);
            return;
        }
    }
    unixctl_command_reply_error(conn, error);
    free(error);
}

/* "fib/show ...": answers at once or, for "detail", fetches the
 * counters of the rows to print and answers from orchd_show_run() once
 * they are back (or FETCH_TIMEOUT_MS has passed). */
static void
orchd_show_unixctl(struct unixctl_conn *conn, int argc, const char *argv[],
                   void *s_)
{
    struct orchd_show *s = s_;
    struct collect c = { .rows = NULL };
    struct deferred *d;
    struct query q;
    char *error;

    error = parse_query(argc, argv, &q);
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }
    if (!q.detail || q.summary || !vrf_exists(s, q.vrf)) {
        reply(conn, s, argc, argv);
        return;
    }

    /* "detail": fetch the counters of the rows to print, then answer. */
    for_each_selected(s, &q, collect_route, &c);
    s->src->class->fetch_counters(s->src, c.rows, c.n);
    d = xzalloc(sizeof *d);
    d->conn = conn;
    d->argc = argc;
    d->argv = xmalloc(argc * sizeof *d->argv);
    for (int i = 0; i < argc; i++) {
        d->argv[i] = xstrdup(argv[i]);
    }
    d->rows = c.rows;
    d->n_rows = c.n;
    d->deadline = time_msec() + FETCH_TIMEOUT_MS;
    ovs_list_push_back(&s->deferred, &d->node);
}

/* Frees 'd', which must not be in a list, letting its counters go. */
static void
deferred_destroy(struct orchd_show *s, struct deferred *d)
{
    if (s->src->class->forget_counters) {
        s->src->class->forget_counters(s->src, d->rows, d->n_rows);
    }
    for (int i = 0; i < d->argc; i++) {
        free(d->argv[i]);
    }
    free(d->argv);
    free(d->rows);
    free(d);
}

/* Answers "detail" queries whose counters have arrived. */
void
orchd_show_run(struct orchd_show *s)
{
    struct deferred *d;

    if (s->src->class->run) {
        s->src->class->run(s->src);
    }
    LIST_FOR_EACH_SAFE (d, node, &s->deferred) {
        if (!s->src->class->counters_pending(s->src, d->rows, d->n_rows)
            || time_msec() >= d->deadline) {
            ovs_list_remove(&d->node);
            reply(d->conn, s, d->argc, (const char **) d->argv);
            deferred_destroy(s, d);
        }
    }
}

/* Wakes the poll loop at the deadline of each waiting query. */
void
orchd_show_wait(struct orchd_show *s)
{
    struct deferred *d;

    if (s->src->class->wait) {
        s->src->class->wait(s->src);
    }
    LIST_FOR_EACH (d, node, &s->deferred) {
        poll_timer_wait_until(d->deadline);
    }
}

/* ---- The read cache: route/show, route/dump ----------------------------*/

/* Parses "[vrf NAME] PREFIX" or "PREFIX [vrf NAME]" from argv[1...]. */
static char *
parse_vrf_prefix(int argc, const char *argv[], const char **vrf,
                 struct fib_prefix *prefix)
{
    const char *p = NULL;

    *vrf = "default";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "vrf") && i + 1 < argc) {
            *vrf = argv[++i];
        } else if (!p) {
            p = argv[i];
        } else {
            return xasprintf("unexpected argument \"%s\"", argv[i]);
        }
    }
    if (!p) {
        return xstrdup("missing PREFIX");
    }
    return fib_prefix_parse(p, prefix);
}

/* "route/show [vrf NAME] PREFIX": one programmed entry, from the read
 * cache. */
static void
orchd_unixctl_route_show(struct unixctl_conn *conn, int argc,
                         const char *argv[], void *cache_)
{
    struct orchd_cache *cache = cache_;
    struct fib_prefix prefix;
    struct orchd_entry *e;
    struct ds s = DS_EMPTY_INITIALIZER;
    const char *vrf;
    struct uuid key;
    char *error;

    error = parse_vrf_prefix(argc, argv, &vrf, &prefix);
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }
    orchd_entry_asic_uuid(orchd_cache_instance(cache), vrf, &prefix, &key);
    e = orchd_cache_get(cache, &key);
    if (e) {
        orchd_entry_format(e, &s);
        ds_put_cstr(&s, "\n");
        orchd_entry_unref(e);
        unixctl_command_reply(conn, ds_cstr(&s));
    } else {
        char buf[FIB_PREFIX_STRLEN];

        fib_prefix_format(&prefix, buf);
        ds_put_format(&s, "%s vrf %s: not programmed", buf, vrf);
        unixctl_command_reply_error(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

/* "route/dump [json]": every programmed entry, in prefix order. */
static void
orchd_unixctl_route_dump(struct unixctl_conn *conn, int argc,
                         const char *argv[], void *cache_)
{
    struct orchd_cache *cache = cache_;
    bool json = argc > 1 && !strcmp(argv[1], "json");
    struct ds s = DS_EMPTY_INITIALIZER;

    if (argc > 1 && !json) {
        unixctl_command_reply_error(conn, "usage: route/dump [json]");
        return;
    }
    if (json) {
        struct json *a = orchd_cache_to_json(cache);

        json_to_ds(a, 0, &s);
        ds_put_char(&s, '\n');
        json_destroy(a);
    } else {
        orchd_cache_format(cache, &s);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* Registers route/show and route/dump, which answer from 'cache' alone
 * (they need no replica). */
void
orchd_show_register_cache_commands(struct orchd_cache *cache)
{
    unixctl_command_register("route/show", "[vrf NAME] PREFIX", 1, 3,
                             orchd_unixctl_route_show, cache);
    unixctl_command_register("route/dump", "[json]", 0, 1,
                             orchd_unixctl_route_dump, cache);
}

/* Creates fib/show over 'src' (taking it), with programmed state from
 * 'cache', and registers the command. */
struct orchd_show *
orchd_show_create(struct orchd_show_source *src, struct orchd_cache *cache)
{
    struct orchd_show *s = xzalloc(sizeof *s);

    s->src = src;
    s->cache = cache;
    ovs_list_init(&s->deferred);
    unixctl_command_register("fib/show",
                             "ip|ipv6 route [vrf NAME] [summary | PREFIX "
                             "[longer-prefixes] | ADDRESS] [detail] [json]",
                             2, 8, orchd_show_unixctl, s);
    return s;
}

/* Answers every waiting query with an error and frees 's' and its
 * source. */
void
orchd_show_destroy(struct orchd_show *s)
{
    struct deferred *d;

    if (!s) {
        return;
    }
    LIST_FOR_EACH_POP (d, node, &s->deferred) {
        unixctl_command_reply_error(d->conn, "orchd is exiting");
        deferred_destroy(s, d);
    }
    s->src->class->destroy(s->src);
    free(s);
}
