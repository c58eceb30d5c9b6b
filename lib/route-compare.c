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

#include "lib/route-compare.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "svec.h"
#include "util.h"

/* An interned forwarding. */
struct route_compare_fwd {
    struct hmap_node node;      /* In 'route_compare->fwds'. */
    const char *action;         /* Interned action name. */
    char *text;                 /* Formatted, once asked for, or NULL. */
    size_t n;                   /* Number of 'nh'. */
    struct route_compare_nh nh[]; /* Sorted by key; keys are interned. */
};

/* What an entry was seen in (bits of 'route_compare_entry.seen'). */
enum {
    SEEN_ROUTE = 1 << 0,        /* A Route row (resolved or not). */
    SEEN_ASIC = 1 << 1,         /* An Asic_Route row. */
    SEEN_FIB = 1 << 2,          /* The FIB. */
    SEEN_FRR = 1 << 3,          /* FRR's RIB. */
};

/* One (VRF, prefix), as each view has it. */
struct route_compare_entry {
    struct hmap_node node;      /* In 'route_compare->entries'. */
    const char *vrf;            /* Interned VRF name. */
    const struct route_compare_fwd *want; /* What the route resolves to,
                                           * NULL if no resolved route. */
    const struct route_compare_fwd *asic; /* Asic_Route's forwarding. */
    const struct route_compare_fwd *fib;  /* The FIB's forwarding. */
    const char *asic_state;     /* Interned Asic_Route.state, or NULL. */
    char *asic_error;           /* Asic_Route.error, or NULL. */
    int64_t asic_seq;           /* Asic_Route.seq. */
    int64_t asic_applied_seq;   /* Asic_Route.applied_seq. */
    uint8_t seen;               /* SEEN_* bits. */
    char prefix[];              /* Prefix text, as its row holds it. */
};

/* The comparison. */
struct route_compare {
    struct hmap entries;        /* "struct route_compare_entry"s. */
    struct route_compare_entry **all; /* The same, in the order made:
                                       * walked in this order, they are
                                       * read in the order of memory. */
    size_t n_all;               /* Number of 'all'. */
    size_t allocated_all;       /* Room in 'all'. */
    struct hmap fwds;           /* "struct route_compare_fwd"s. */
    struct hmap strings;        /* Interned strings ("struct string"). */
    struct svec diffs;          /* Differences found so far. */
    size_t n_asic;              /* Distinct Asic_Route rows. */
    size_t n_fib;               /* Distinct (VRF, prefix)es of the FIB. */
    size_t n_frr;               /* Distinct (VRF, prefix)es of FRR. */
};

/* An interned string. */
struct string {
    struct hmap_node node;      /* In 'route_compare->strings'. */
    char s[];                   /* The string. */
};

/* Returns the interned copy of 's'. */
static const char *
intern(struct route_compare *rc, const char *s)
{
    uint32_t hash = hash_string(s, 0);
    struct string *str;

    HMAP_FOR_EACH_WITH_HASH (str, node, hash, &rc->strings) {
        if (!strcmp(str->s, s)) {
            return str->s;
        }
    }
    size_t len = strlen(s) + 1;
    str = xmalloc(sizeof *str + len);
    memcpy(str->s, s, len);
    hmap_insert(&rc->strings, &str->node, hash);
    return str->s;
}

struct route_compare *
route_compare_create(void)
{
    struct route_compare *rc = xzalloc(sizeof *rc);

    hmap_init(&rc->entries);
    hmap_init(&rc->fwds);
    hmap_init(&rc->strings);
    svec_init(&rc->diffs);
    return rc;
}

/* Makes room for 'n' (VRF, prefix)es, when their number is known ahead. */
void
route_compare_reserve(struct route_compare *rc, size_t n)
{
    hmap_reserve(&rc->entries, n);
}

void
route_compare_destroy(struct route_compare *rc)
{
    if (rc) {
        struct route_compare_fwd *f;
        struct string *s;

        for (size_t i = 0; i < rc->n_all; i++) {
            free(rc->all[i]->asic_error);
            free(rc->all[i]);
        }
        free(rc->all);
        hmap_destroy(&rc->entries);
        HMAP_FOR_EACH_POP (f, node, &rc->fwds) {
            free(f->text);
            free(f);
        }
        hmap_destroy(&rc->fwds);
        HMAP_FOR_EACH_POP (s, node, &rc->strings) {
            free(s);
        }
        hmap_destroy(&rc->strings);
        svec_destroy(&rc->diffs);
        free(rc);
    }
}

static int
compare_nh(const void *a_, const void *b_)
{
    const struct route_compare_nh *a = a_;
    const struct route_compare_nh *b = b_;

    return strcmp(a->key, b->key);
}

/* Returns the interned forwarding 'action' with the 'n' next hops 'nh'
 * (ignored unless 'action' is "forward").  With 'lone_weight_is_1', a lone
 * next hop's weight is 1, as orchd_entry_create() makes it (a lone next
 * hop has no share to weigh); the FIB's weights are taken as they are.
 * Next hops with the same key count once, the last one's weight kept, as
 * in a map. */
const struct route_compare_fwd *
route_compare_fwd(struct route_compare *rc, const char *action,
                  const struct route_compare_nh *nh, size_t n,
                  bool lone_weight_is_1)
{
    struct route_compare_nh *sorted;
    struct route_compare_fwd *f;
    uint32_t hash;

    action = intern(rc, action);
    if (strcmp(action, "forward")) {
        n = 0;
    }
    sorted = xmalloc(MAX(n, 1) * sizeof *sorted);
    for (size_t i = 0; i < n; i++) {
        sorted[i].key = intern(rc, nh[i].key);
        sorted[i].weight = nh[i].weight;
    }
    /* A stable order for duplicate keys: the last given wins. */
    size_t n_unique = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j;

        for (j = 0; j < n_unique; j++) {
            if (sorted[j].key == sorted[i].key) {
                sorted[j].weight = sorted[i].weight;
                break;
            }
        }
        if (j == n_unique) {
            sorted[n_unique++] = sorted[i];
        }
    }
    n = n_unique;
    if (n == 1 && lone_weight_is_1) {
        sorted[0].weight = 1;
    }
    qsort(sorted, n, sizeof *sorted, compare_nh);

    hash = hash_pointer(action, 0);
    for (size_t i = 0; i < n; i++) {
        hash = hash_pointer(sorted[i].key, hash);
        hash = hash_uint64_basis(sorted[i].weight, hash);
    }
    HMAP_FOR_EACH_WITH_HASH (f, node, hash, &rc->fwds) {
        if (f->action == action && f->n == n
            && !memcmp(f->nh, sorted, n * sizeof *sorted)) {
            free(sorted);
            return f;
        }
    }
    f = xmalloc(sizeof *f + n * sizeof *f->nh);
    f->action = action;
    f->text = NULL;
    f->n = n;
    memcpy(f->nh, sorted, n * sizeof *sorted);
    hmap_insert(&rc->fwds, &f->node, hash);
    free(sorted);
    return f;
}

/* Returns 'f' as route-check prints it: the action, and for "forward"
 * "via KEY weight W, ..." in key order. */
const char *
route_compare_fwd_format(struct route_compare_fwd *f)
{
    if (!f->text) {
        struct ds s = DS_EMPTY_INITIALIZER;

        ds_put_cstr(&s, f->action);
        if (!strcmp(f->action, "forward")) {
            ds_put_cstr(&s, " via ");
            for (size_t i = 0; i < f->n; i++) {
                ds_put_format(&s, "%s%s weight %"PRId64, i ? ", " : "",
                              f->nh[i].key, f->nh[i].weight);
            }
        }
        f->text = ds_steal_cstr(&s);
    }
    return f->text;
}

/* Formats 'f' (const only to the callers: the text is a cache). */
static const char *
fwd_text(const struct route_compare_fwd *f)
{
    return route_compare_fwd_format(CONST_CAST(struct route_compare_fwd *,
                                               f));
}

/* Returns the entry of ('vrf', 'prefix'), creating it if 'create'. */
static struct route_compare_entry *
find_entry(struct route_compare *rc, const char *vrf, const char *prefix,
           bool create)
{
    struct route_compare_entry *e;
    uint32_t hash;

    vrf = intern(rc, vrf);
    hash = hash_string(prefix, hash_pointer(vrf, 0));
    HMAP_FOR_EACH_WITH_HASH (e, node, hash, &rc->entries) {
        if (e->vrf == vrf && !strcmp(e->prefix, prefix)) {
            return e;
        }
    }
    if (!create) {
        return NULL;
    }
    size_t len = strlen(prefix) + 1;
    e = xmalloc(sizeof *e + len);
    e->vrf = vrf;
    e->want = e->asic = e->fib = NULL;
    e->asic_state = NULL;
    e->asic_error = NULL;
    e->asic_seq = e->asic_applied_seq = 0;
    e->seen = 0;
    memcpy(e->prefix, prefix, len);
    hmap_insert(&rc->entries, &e->node, hash);
    if (rc->n_all >= rc->allocated_all) {
        rc->all = x2nrealloc(rc->all, &rc->allocated_all, sizeof *rc->all);
    }
    rc->all[rc->n_all++] = e;
    return e;
}

/* Adds a difference line. */
static void OVS_PRINTF_FORMAT(2, 3)
diff(struct route_compare *rc, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    svec_add_nocopy(&rc->diffs, xvasprintf(format, args));
    va_end(args);
}

/* A Route row ('vrf', 'prefix') that resolves to 'want'. */
void
route_compare_route(struct route_compare *rc, const char *vrf,
                    const char *prefix, const struct route_compare_fwd *want)
{
    struct route_compare_entry *e = find_entry(rc, vrf, prefix, true);

    e->seen |= SEEN_ROUTE;
    e->want = want;
}

/* A Route row whose next-hop group 'group' is unknown or empty: it
 * resolves to nothing, as in orchd, which waits for the group. */
void
route_compare_unresolved(struct route_compare *rc, const char *vrf,
                         const char *prefix, int64_t group)
{
    struct route_compare_entry *e = find_entry(rc, vrf, prefix, true);

    e->seen |= SEEN_ROUTE;
    e->want = NULL;
    diff(rc, "unresolved %s %s: next-hop group %"PRId64" unknown",
         vrf, prefix, group);
}

/* An Asic_Route row: 'have' its forwarding, 'state' (NULL if none), its
 * sequence numbers and 'error' (NULL if none).  A row read twice (read in
 * slices while orchd rewrote it) counts once, as its newer version (the
 * higher 'seq'). */
void
route_compare_asic(struct route_compare *rc, const char *vrf,
                   const char *prefix, const struct route_compare_fwd *have,
                   const char *state, int64_t seq, int64_t applied_seq,
                   const char *error)
{
    struct route_compare_entry *e = find_entry(rc, vrf, prefix, true);

    if (e->seen & SEEN_ASIC) {
        if (seq <= e->asic_seq) {
            return;
        }
        free(e->asic_error);
    } else {
        rc->n_asic++;
    }
    e->seen |= SEEN_ASIC;
    e->asic = have;
    e->asic_state = state ? intern(rc, state) : NULL;
    e->asic_error = error && error[0] ? xstrdup(error) : NULL;
    e->asic_seq = seq;
    e->asic_applied_seq = applied_seq;
}

/* A route of the live FIB, forwarding as 'have'.  A second one of the same
 * (VRF, prefix) counts once. */
void
route_compare_fib(struct route_compare *rc, const char *vrf,
                  const char *prefix, const struct route_compare_fwd *have)
{
    struct route_compare_entry *e = find_entry(rc, vrf, prefix, true);

    if (!(e->seen & SEEN_FIB)) {
        e->seen |= SEEN_FIB;
        e->fib = have;
        rc->n_fib++;
    }
}

/* A route that FRR selected and would send over FPM. */
void
route_compare_frr(struct route_compare *rc, const char *vrf,
                  const char *prefix)
{
    struct route_compare_entry *e = find_entry(rc, vrf, prefix, true);

    if (!(e->seen & SEEN_FRR)) {
        e->seen |= SEEN_FRR;
        rc->n_frr++;
    }
}

/* Distinct Asic_Route rows fed in. */
size_t
route_compare_n_asic(const struct route_compare *rc)
{
    return rc->n_asic;
}

/* Distinct routes of the FIB fed in. */
size_t
route_compare_n_fib(const struct route_compare *rc)
{
    return rc->n_fib;
}

/* Distinct routes of FRR fed in. */
size_t
route_compare_n_frr(const struct route_compare *rc)
{
    return rc->n_frr;
}

/* Finds what is missing from each view in 'views' (ROUTE_COMPARE_*; the
 * Asic_Route view is always compared) and moves every difference, sorted,
 * into 'diffs':
 *
 *   missing-asic VRF PREFIX        a resolved route, no Asic_Route row
 *   extra-asic VRF PREFIX          an Asic_Route row, no resolved route
 *   differs-asic VRF PREFIX: ...   Asic_Route forwards otherwise
 *   unprogrammed VRF PREFIX: ...   not (yet) programmed
 *   missing-fib / extra-fib / differs-fib: the same for the FIB
 *   unresolved VRF PREFIX: ...     next-hop group unknown
 *   missing-route VRF PREFIX       FRR has it, no Route row
 *   extra-route VRF PREFIX         a Route row FRR does not have */
void
route_compare_finish(struct route_compare *rc, unsigned int views,
                     struct svec *diffs)
{
    for (size_t i = 0; i < rc->n_all; i++) {
        const struct route_compare_entry *e = rc->all[i];
        const char *vrf = e->vrf;
        const char *prefix = e->prefix;

        if (e->seen & SEEN_ASIC) {
            if (!e->want) {
                diff(rc, "extra-asic %s %s", vrf, prefix);
            } else {
                if (e->asic != e->want) {
                    diff(rc, "differs-asic %s %s: Asic_Route has %s, route "
                         "wants %s", vrf, prefix, fwd_text(e->asic),
                         fwd_text(e->want));
                }
                if (!e->asic_state || strcmp(e->asic_state, "programmed")
                    || e->asic_seq != e->asic_applied_seq) {
                    diff(rc, "unprogrammed %s %s: state %s, seq %"PRId64", "
                         "applied %"PRId64"%s%s", vrf, prefix,
                         e->asic_state ? e->asic_state : "none",
                         e->asic_seq, e->asic_applied_seq,
                         e->asic_error ? ", error " : "",
                         e->asic_error ? e->asic_error : "");
                }
            }
        } else if (e->want) {
            diff(rc, "missing-asic %s %s", vrf, prefix);
        }
        if (views & ROUTE_COMPARE_FIB) {
            if (e->seen & SEEN_FIB) {
                if (!e->want) {
                    diff(rc, "extra-fib %s %s", vrf, prefix);
                } else if (e->fib != e->want) {
                    diff(rc, "differs-fib %s %s: FIB has %s, route wants %s",
                         vrf, prefix, fwd_text(e->fib), fwd_text(e->want));
                }
            } else if (e->want) {
                diff(rc, "missing-fib %s %s", vrf, prefix);
            }
        }
        if (views & ROUTE_COMPARE_FRR) {
            if (e->seen & SEEN_FRR && !(e->seen & SEEN_ROUTE)) {
                diff(rc, "missing-route %s %s", vrf, prefix);
            } else if (e->seen & SEEN_ROUTE && !(e->seen & SEEN_FRR)) {
                diff(rc, "extra-route %s %s", vrf, prefix);
            }
        }
    }
    svec_sort(&rc->diffs);
    svec_append(diffs, &rc->diffs);
    svec_clear(&rc->diffs);
}
