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

/* Check suite of syncd's apply step (daemons/syncd/syncd-apply.c), run against
 * the simulator in-process. */

#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-warm.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "svec.h"
#include "tests/check/suites.h"
#include "util.h"

/* Results received from the apply step. */
struct results {
    struct syncd_route_result r[256]; /* In order ('prefix' and 'origin'
                                       * are dangling: not kept). */
    int64_t seq[256];           /* Same as r[i].seq. */
    char vrf[256][16];          /* Same as r[i].vrf. */
    size_t n;                   /* Number received. */
};

static void
collect(const struct syncd_route_result *r, void *results_)
{
    struct results *res = results_;

    ck_assert_uint_lt(res->n, ARRAY_SIZE(res->r));
    res->r[res->n] = *r;
    res->seq[res->n] = r->seq;
    ovs_strlcpy(res->vrf[res->n], r->vrf, sizeof res->vrf[0]);
    res->n++;
}

/* Creates an apply step reporting into 'res', with IPv4 route capacity
 * 'cap4' (0 for the default) and bulks of 'max_bulk'. */
static struct syncd_apply *
create(struct results *res, uint32_t cap4, uint32_t max_bulk)
{
    struct syncd_apply_options o;
    struct syncd_apply *sa;
    char *error;

    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    memset(&o, 0, sizeof o);
    memset(res, 0, sizeof *res);
    o.capacity[ASIC_SIM_RES_IPV4_ROUTE] = cap4;
    o.max_bulk = max_bulk;
    o.cb = collect;
    o.cb_aux = res;
    sa = syncd_apply_create(&o, &error);
    ck_assert_msg(sa != NULL, "%s", error ? error : "");
    return sa;
}

/* Parses "GW@IF", "GW" or "@IF" (weight 'w') into 'nh'. */
static void
nh_init(struct syncd_nexthop *nh, const char *key, uint32_t w)
{
    static char ifnames[64][16];
    static size_t next;
    const char *at = strchr(key, '@');
    char gw[64];

    memset(nh, 0, sizeof *nh);
    nh->weight = w;
    nh->ifname = "";
    if (at) {
        char *ifname = ifnames[next++ % ARRAY_SIZE(ifnames)];

        ovs_strlcpy(ifname, at + 1, sizeof ifnames[0]);
        nh->ifname = ifname;
    }
    size_t len = at ? (size_t) (at - key) : strlen(key);
    if (len) {
        memcpy(gw, key, len);
        gw[len] = '\0';
        ck_assert(sai_util_ip_address_parse(gw, &nh->gateway));
        nh->has_gateway = true;
    }
}

/* Submits a SET of 'prefix' in 'vrf' with 'action' and the next hops in
 * 'keys' (NULL-terminated, "KEY" or "KEY=WEIGHT"), tagged 'seq'. */
static void
set_route(struct syncd_apply *sa, const char *vrf, const char *prefix,
          sai_packet_action_t action, int64_t seq, const char *keys[])
{
    struct syncd_nexthop nhs[16];
    struct syncd_route_op op;
    size_t n = 0;

    memset(&op, 0, sizeof op);
    for (; keys && keys[n]; n++) {
        char key[64];
        char *eq;
        uint32_t w = 1;

        ovs_strlcpy(key, keys[n], sizeof key);
        eq = strchr(key, '=');
        if (eq) {
            *eq = '\0';
            w = atoi(eq + 1);
        }
        nh_init(&nhs[n], key, w);
    }
    op.type = SYNCD_OP_SET;
    op.vrf = vrf;
    char *error = fib_prefix_parse_strict(prefix, &op.prefix);
    ck_assert_msg(!error, "%s", error);
    op.action = action;
    op.nexthops = nhs;
    op.n_nexthops = n;
    op.seq = seq;
    syncd_apply_submit(sa, &op);
}

static void
del_route(struct syncd_apply *sa, const char *vrf, const char *prefix,
          int64_t seq)
{
    struct syncd_route_op op;

    memset(&op, 0, sizeof op);
    op.type = SYNCD_OP_DEL;
    op.vrf = vrf;
    char *error = fib_prefix_parse_strict(prefix, &op.prefix);
    ck_assert_msg(!error, "%s", error);
    op.seq = seq;
    syncd_apply_submit(sa, &op);
}

/* Looks up 'addr' in 'vrf' and returns its route as text: "PREFIX ACTION
 * NH=W,NH=W", or "miss".  The caller frees it. */
static char *
lookup(struct syncd_apply *sa, const char *vrf, const char *addr_s)
{
    struct asic_sim_nexthop nhs[16];
    struct asic_sim_route route;
    sai_ip_address_t addr;
    uint32_t n = ARRAY_SIZE(nhs);
    char buf[SAI_IP_PREFIX_STRLEN];

    ck_assert(sai_util_ip_address_parse(addr_s, &addr));
    sai_object_id_t vr = syncd_apply_vr_find(sa, vrf);
    if (!vr || asic_sim_lookup(vr, &addr, &route, nhs, &n)) {
        return xstrdup("miss");
    }

    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_format(&s, "%s %s",
                  sai_util_ip_prefix_format(&route.entry.destination, buf),
                  syncd_action_name(route.action));
    for (uint32_t i = 0; i < n; i++) {
        ds_put_char(&s, i ? ',' : ' ');
        syncd_apply_format_nexthop(sa, &nhs[i], &s);
        ds_put_format(&s, "=%"PRIu32, nhs[i].weight);
    }
    return ds_steal_cstr(&s);
}

#define ck_assert_lookup(SA, VRF, ADDR, EXPECTED)       \
    do {                                                \
        char *got_ = lookup(SA, VRF, ADDR);             \
        ck_assert_str_eq(got_, EXPECTED);               \
        free(got_);                                     \
    } while (0)

/* Returns the "used" count of 'res' on the switch of 'sa'. */
static uint32_t
crm_used(struct syncd_apply *sa, enum asic_sim_resource res)
{
    struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES];

    ck_assert_int_eq(asic_sim_crm_get(syncd_apply_switch_id(sa), crm), 0);
    return crm[res].used;
}

START_TEST(test_program_and_lookup)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 0);

    set_route(sa, "default", "10.1.0.0/16", SAI_PACKET_ACTION_FORWARD, 1,
              (const char *[]) { "192.168.1.2@eth0=1", "192.168.1.3@eth1=2",
                                 NULL });
    set_route(sa, "default", "10.1.2.0/24", SAI_PACKET_ACTION_FORWARD, 2,
              (const char *[]) { "192.168.1.4@eth0", NULL });
    set_route(sa, "default", "10.1.2.128/25", SAI_PACKET_ACTION_DROP, 3,
              NULL);
    set_route(sa, "default", "192.168.1.0/24", SAI_PACKET_ACTION_FORWARD, 4,
              (const char *[]) { "@eth0", NULL });
    set_route(sa, "blue", "2001:db8::/32", SAI_PACKET_ACTION_FORWARD, 5,
              (const char *[]) { "fe80::1@eth2", "fe80::2", NULL });
    set_route(sa, "default", "10.255.0.1/32", SAI_PACKET_ACTION_TRAP, 6,
              NULL);

    /* Nothing is reported before the flush. */
    ck_assert_uint_eq(res.n, 0);
    ck_assert_uint_eq(syncd_apply_n_pending(sa), 6);
    syncd_apply_flush(sa);
    ck_assert_uint_eq(res.n, 6);
    for (size_t i = 0; i < res.n; i++) {
        ck_assert_int_eq(res.r[i].status, SAI_STATUS_SUCCESS);
        ck_assert_int_eq(res.seq[i], i + 1);
        ck_assert_int_eq(res.r[i].type, SYNCD_OP_SET);
    }

    ck_assert_lookup(sa, "default", "10.1.9.9",
                     "10.1.0.0/16 forward "
                     "192.168.1.2@eth0=1,192.168.1.3@eth1=2");
    ck_assert_lookup(sa, "default", "10.1.2.3",
                     "10.1.2.0/24 forward 192.168.1.4@eth0=1");
    ck_assert_lookup(sa, "default", "10.1.2.200", "10.1.2.128/25 drop");
    ck_assert_lookup(sa, "default", "10.255.0.1", "10.255.0.1/32 trap");
    ck_assert_lookup(sa, "default", "192.168.1.9",
                     "192.168.1.0/24 forward @eth0=1");
    ck_assert_lookup(sa, "blue", "2001:db8::1",
                     "2001:db8::/32 forward fe80::1@eth2=1,fe80::2=1");
    ck_assert_lookup(sa, "default", "2001:db8::1", "miss");
    ck_assert_lookup(sa, "default", "11.0.0.1", "miss");

    ck_assert_uint_eq(syncd_apply_n_routes(sa), 6);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 5);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP), 2);

    struct syncd_apply_stats st;
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.bulks[ASIC_SIM_OP_CREATE], 1);
    ck_assert_uint_eq(st.route_ops[ASIC_SIM_OP_CREATE], 6);
    ck_assert_uint_eq(st.ok, 6);
    syncd_apply_destroy(sa);
}
END_TEST

START_TEST(test_sharing_and_removal)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 0);
    const char *ecmp[] = { "10.0.0.1@e0", "10.0.0.2@e1", NULL };
    const char *ecmp_rev[] = { "10.0.0.2@e1", "10.0.0.1@e0", NULL };

    /* The same member set, in any order, is one group. */
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 1,
              ecmp);
    set_route(sa, "default", "2.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 2,
              ecmp_rev);
    set_route(sa, "default", "3.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 3,
              (const char *[]) { "10.0.0.1@e0", NULL });
    syncd_apply_flush(sa);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 2);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP), 1);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER), 2);

    /* Moving one route off the group keeps it for the other. */
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 4,
              (const char *[]) { "10.0.0.3@e0", NULL });
    syncd_apply_flush(sa);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 3);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP), 1);
    ck_assert_lookup(sa, "default", "1.2.3.4",
                     "1.0.0.0/8 forward 10.0.0.3@e0=1");

    /* Removing the last user removes the group, then next hops used by
     * nothing else. */
    del_route(sa, "default", "2.0.0.0/8", 5);
    syncd_apply_flush(sa);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP), 0);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER), 0);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 2);
    del_route(sa, "default", "1.0.0.0/8", 6);
    del_route(sa, "default", "3.0.0.0/8", 7);
    /* Removing an absent route is a no-op that succeeds at once. */
    del_route(sa, "default", "4.0.0.0/8", 8);
    ck_assert_int_eq(res.r[res.n - 1].status, SAI_STATUS_SUCCESS);
    ck_assert_int_eq(res.seq[res.n - 1], 8);
    syncd_apply_flush(sa);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 0);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_IPV4_ROUTE), 0);
    ck_assert_uint_eq(syncd_apply_n_routes(sa), 0);
    for (size_t i = 0; i < res.n; i++) {
        ck_assert_int_eq(res.r[i].status, SAI_STATUS_SUCCESS);
    }

    struct syncd_apply_stats st;
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.nh_created, 3);
    ck_assert_uint_eq(st.nh_removed, 3);
    ck_assert_uint_eq(st.nhg_created, 1);
    ck_assert_uint_eq(st.nhg_removed, 1);
    syncd_apply_destroy(sa);
}
END_TEST

START_TEST(test_order_within_prefix)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 0);
    const char *a[] = { "10.0.0.1@e0", NULL };
    const char *b[] = { "10.0.0.2@e0", NULL };

    /* Create, remove, create again, change: each later operation on the
     * prefix must see the earlier ones done. */
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 1, a);
    set_route(sa, "default", "2.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 2, a);
    del_route(sa, "default", "1.0.0.0/8", 3);
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 4, b);
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_DROP, 5, NULL);
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 6, a);
    syncd_apply_flush(sa);

    ck_assert_uint_eq(res.n, 6);
    int64_t order[] = { 1, 2, 3, 4, 5, 6 };
    for (size_t i = 0; i < res.n; i++) {
        ck_assert_int_eq(res.r[i].status, SAI_STATUS_SUCCESS);
        ck_assert_int_eq(res.seq[i], order[i]);
    }
    ck_assert_lookup(sa, "default", "1.1.1.1",
                     "1.0.0.0/8 forward 10.0.0.1@e0=1");
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 1);

    /* Setting what is already there needs no SAI call. */
    struct syncd_apply_stats st;
    syncd_apply_get_stats(sa, &st);
    uint64_t noops = st.noops;
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 7, a);
    ck_assert_uint_eq(res.n, 7);
    ck_assert_uint_eq(syncd_apply_n_pending(sa), 0);
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.noops, noops + 1);
    syncd_apply_destroy(sa);
}
END_TEST

START_TEST(test_bulk_size)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 4);
    const char *nh[] = { "10.0.0.1@e0", NULL };
    char prefix[32];

    for (int i = 0; i < 10; i++) {
        snprintf(prefix, sizeof prefix, "10.%d.0.0/16", i);
        set_route(sa, "default", prefix, SAI_PACKET_ACTION_FORWARD, i, nh);
    }
    /* Two full bulks went out by themselves. */
    ck_assert_uint_eq(res.n, 8);
    ck_assert_uint_eq(syncd_apply_n_pending(sa), 2);
    syncd_apply_flush(sa);
    ck_assert_uint_eq(res.n, 10);

    struct syncd_apply_stats st;
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.bulks[ASIC_SIM_OP_CREATE], 3);
    ck_assert_uint_eq(st.route_ops[ASIC_SIM_OP_CREATE], 10);

    syncd_apply_set_max_bulk(sa, 100);
    for (int i = 0; i < 10; i++) {
        snprintf(prefix, sizeof prefix, "10.%d.0.0/16", i);
        del_route(sa, "default", prefix, 100 + i);
    }
    syncd_apply_flush(sa);
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.bulks[ASIC_SIM_OP_REMOVE], 1);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_IPV4_ROUTE), 0);
    syncd_apply_destroy(sa);
}
END_TEST

START_TEST(test_capacity)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 2, 0);
    const char *nh[] = { "10.0.0.1@e0", NULL };

    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 1, nh);
    set_route(sa, "default", "2.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 2, nh);
    set_route(sa, "default", "3.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 3, nh);
    syncd_apply_flush(sa);
    ck_assert_uint_eq(res.n, 3);
    ck_assert_int_eq(res.r[0].status, SAI_STATUS_SUCCESS);
    ck_assert_int_eq(res.r[1].status, SAI_STATUS_SUCCESS);
    ck_assert_int_eq(res.r[2].status, SAI_STATUS_INSUFFICIENT_RESOURCES);
    ck_assert_lookup(sa, "default", "3.0.0.1", "miss");

    /* A removal in the same batch makes room: removals go first. */
    set_route(sa, "default", "3.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 4, nh);
    del_route(sa, "default", "1.0.0.0/8", 5);
    syncd_apply_flush(sa);
    ck_assert_uint_eq(res.n, 5);
    ck_assert_int_eq(res.r[3].status, SAI_STATUS_SUCCESS);
    ck_assert_int_eq(res.r[4].status, SAI_STATUS_SUCCESS);
    ck_assert_lookup(sa, "default", "3.0.0.1",
                     "3.0.0.0/8 forward 10.0.0.1@e0=1");

    struct syncd_apply_stats st;
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.failed, 1);
    ck_assert_uint_eq(
        st.errors[syncd_status_code(SAI_STATUS_INSUFFICIENT_RESOURCES)], 1);
    ck_assert_str_eq(syncd_status_code_name(syncd_status_code(
                         SAI_STATUS_INSUFFICIENT_RESOURCES)),
                     "SAI_STATUS_INSUFFICIENT_RESOURCES");
    syncd_apply_destroy(sa);
}
END_TEST

START_TEST(test_faults_and_orphans)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 0);
    sai_object_id_t sw = syncd_apply_switch_id(sa);
    const char *nh[] = { "10.0.0.1@e0", NULL };
    struct fib_prefix fp;
    sai_ip_prefix_t p;

    ovs_assert(!fib_prefix_parse("1.0.0.0/8", &fp));
    syncd_prefix_to_sai(&fp, &p);
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 1, nh);
    syncd_apply_flush(sa);
    ck_assert_int_eq(res.r[0].status, SAI_STATUS_SUCCESS);

    /* A failed removal leaves an orphan, retried until it goes. */
    ck_assert_int_eq(asic_sim_fault_add_prefix(
                         sw, syncd_apply_vr_find(sa, "default"), &p), 0);
    del_route(sa, "default", "1.0.0.0/8", 2);
    syncd_apply_flush(sa);
    ck_assert_int_eq(res.r[1].status, SAI_STATUS_FAILURE);
    ck_assert_lookup(sa, "default", "1.1.1.1",
                     "1.0.0.0/8 forward 10.0.0.1@e0=1");
    struct syncd_apply_stats st;
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.orphans, 1);

    ck_assert_int_eq(asic_sim_fault_clear(sw), 0);
    usleep(1100 * 1000);
    syncd_apply_run(sa);
    ck_assert_lookup(sa, "default", "1.1.1.1", "miss");
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 0);
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.orphan_retries, 1);
    /* Retries report nothing. */
    ck_assert_uint_eq(res.n, 2);

    /* A creation that fails keeps nothing. */
    struct asic_sim_fault f = { .rate = 1.0 };
    ck_assert_int_eq(asic_sim_fault_set(sw, &f), 0);
    set_route(sa, "default", "2.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 3, nh);
    syncd_apply_flush(sa);
    ck_assert_int_eq(res.r[2].status, SAI_STATUS_FAILURE);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 0);
    ck_assert_uint_eq(syncd_apply_n_routes(sa), 0);
    syncd_apply_destroy(sa);
}
END_TEST

/* A set that changes both a route's action and its next hop, half of
 * whose attribute sets fail, never leaves the route half changed: a
 * failed change to drop leaves it as it was or dropping, a failed change
 * to forward leaves it dropping; never forwarding without a next hop. */
START_TEST(test_change_both_attributes)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 0);
    sai_object_id_t sw = syncd_apply_switch_id(sa);
    const char *nh1[] = { "192.0.2.1@e0", NULL };
    const char *nh2[] = { "192.0.2.2@e0", NULL };
    struct asic_sim_fault f = { .rate = 0.5, .seed = 1,
                                .ops = ASIC_SIM_FAULT_ROUTE_SET };
    int n_failed[2] = { 0, 0 };
    int seq = 0;

    for (int i = 0; i < 40; i++) {
        char prefix[32];

        snprintf(prefix, sizeof prefix, "10.%d.0.0/16", i);
        set_route(sa, "default", prefix, SAI_PACKET_ACTION_FORWARD, ++seq,
                  nh1);
    }
    syncd_apply_flush(sa);
    ck_assert_int_eq(asic_sim_fault_set(sw, &f), 0);

    for (int phase = 0; phase < 2; phase++) {
        for (int i = 0; i < 40; i++) {
            char prefix[32], addr[32], old[64], drop[64];
            char *got;

            snprintf(prefix, sizeof prefix, "10.%d.0.0/16", i);
            snprintf(addr, sizeof addr, "10.%d.0.1", i);
            snprintf(drop, sizeof drop, "%s drop", prefix);
            snprintf(old, sizeof old, "%s forward 192.0.2.1@e0=1", prefix);
            got = lookup(sa, "default", addr);
            if (phase == 1 && strncmp(got, drop, strlen(drop))) {
                /* Still forwarding after a failed change to drop. */
                free(got);
                continue;
            }
            free(got);

            res.n = 0;
            if (phase == 0) {
                set_route(sa, "default", prefix, SAI_PACKET_ACTION_DROP,
                          ++seq, NULL);
            } else {
                set_route(sa, "default", prefix, SAI_PACKET_ACTION_FORWARD,
                          ++seq, nh2);
            }
            syncd_apply_flush(sa);
            ck_assert_uint_eq(res.n, 1);
            if (res.r[0].status == SAI_STATUS_SUCCESS) {
                continue;
            }
            n_failed[phase]++;
            got = lookup(sa, "default", addr);
            if (phase == 0) {
                ck_assert_msg(!strcmp(got, old)
                              || !strncmp(got, drop, strlen(drop)),
                              "%s after a failed change to drop", got);
            } else {
                ck_assert_msg(!strncmp(got, drop, strlen(drop)),
                              "%s after a failed change to forward", got);
            }
            free(got);
        }
    }
    /* Both directions were tried against failures. */
    ck_assert_int_gt(n_failed[0], 0);
    ck_assert_int_gt(n_failed[1], 0);
    syncd_apply_destroy(sa);
}
END_TEST

START_TEST(test_invalid)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 0);

    /* A connected next hop cannot share a route with a gateway. */
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 1,
              (const char *[]) { "@e0", "10.0.0.1@e0", NULL });
    ck_assert_uint_eq(res.n, 1);
    ck_assert_int_eq(res.r[0].status, SAI_STATUS_INVALID_PARAMETER);
    /* Nor can an action other than forward, drop and trap be set. */
    set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_LOG, 2, NULL);
    ck_assert_uint_eq(res.n, 2);
    ck_assert_int_eq(res.r[1].status, SAI_STATUS_INVALID_PARAMETER);
    ck_assert_uint_eq(syncd_apply_n_pending(sa), 0);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP), 0);
    syncd_apply_destroy(sa);
}
END_TEST

/* Results name the VRF of their route. */
START_TEST(test_result_names_vrf)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 0);
    const char *nh[] = { "192.168.1.2@eth0", NULL };

    set_route(sa, "red", "10.1.0.0/16", SAI_PACKET_ACTION_FORWARD, 1, nh);
    del_route(sa, "blue", "10.2.0.0/16", 2);
    syncd_apply_flush(sa);
    ck_assert_uint_eq(res.n, 2);
    ck_assert_str_eq(res.vrf[0], "blue");     /* No-op: reported at once. */
    ck_assert_str_eq(res.vrf[1], "red");
    syncd_apply_destroy(sa);
}
END_TEST

/* After a mark, a set equal to what is programmed confirms its route
 * without a SAI call; the sweep removes what nobody confirmed and says
 * so. */
START_TEST(test_mark_and_sweep)
{
    struct results res;
    struct syncd_apply *sa = create(&res, 0, 0);
    const char *nh1[] = { "192.168.1.2@eth0", NULL };
    const char *nh2[] = { "192.168.1.3@eth0", NULL };
    struct syncd_apply_stats st;

    set_route(sa, "default", "10.1.0.0/16", SAI_PACKET_ACTION_FORWARD, 1,
              nh1);
    set_route(sa, "default", "10.2.0.0/16", SAI_PACKET_ACTION_FORWARD, 2,
              nh1);
    set_route(sa, "red", "10.3.0.0/16", SAI_PACKET_ACTION_DROP, 3, NULL);
    syncd_apply_flush(sa);
    ck_assert_uint_eq(syncd_apply_mark_stale(sa), 3);
    res.n = 0;

    set_route(sa, "default", "10.1.0.0/16", SAI_PACKET_ACTION_FORWARD, 4,
              nh1);
    set_route(sa, "default", "10.2.0.0/16", SAI_PACKET_ACTION_FORWARD, 5,
              nh2);
    syncd_apply_flush(sa);
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.noops, 1);
    ck_assert_uint_eq(st.route_ops[ASIC_SIM_OP_CREATE], 3);
    ck_assert_uint_eq(st.route_ops[ASIC_SIM_OP_REMOVE], 0);

    ck_assert_uint_eq(syncd_apply_sweep_stale(sa), 1);
    ck_assert_uint_eq(syncd_apply_n_routes(sa), 2);
    ck_assert_uint_eq(res.n, 3);
    ck_assert_int_eq(res.r[2].type, SYNCD_OP_DEL);
    ck_assert_str_eq(res.vrf[2], "red");
    ck_assert_int_eq(res.seq[2], 0);
    ck_assert_lookup(sa, "red", "10.3.0.1", "miss");
    ck_assert_lookup(sa, "default", "10.2.0.1",
                     "10.2.0.0/16 forward 192.168.1.3@eth0=1");

    /* Nothing is stale any more. */
    ck_assert_uint_eq(syncd_apply_sweep_stale(sa), 0);
    syncd_apply_destroy(sa);
}
END_TEST


/* A next-hop group whose removal fails part way (some members gone, the
 * group left) is set aside: a route with the same next hops gets a new
 * group with all of them, never the one missing some, and the old one
 * goes when the retry succeeds. */
START_TEST(test_group_removal_fails_part_way)
{
    const char *nhs[] = { "10.0.0.1@e0", "10.0.0.2@e0", "10.0.0.3@e0",
                          NULL };
    struct syncd_apply *sa = NULL;
    struct syncd_apply_stats st;
    struct results res;

    /* Object faults at a rate of one half fail some of the three members'
     * removals with most seeds: find one. */
    for (uint64_t seed = 1; seed < 64 && !sa; seed++) {
        struct asic_sim_fault f = { .rate = 0.5, .seed = seed,
                                    .ops = ASIC_SIM_FAULT_OBJECTS };
        sai_object_id_t sw;

        sa = create(&res, 0, 0);
        sw = syncd_apply_switch_id(sa);
        set_route(sa, "default", "1.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 1,
                  nhs);
        syncd_apply_flush(sa);
        ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER),
                          3);
        ck_assert_int_eq(asic_sim_fault_set(sw, &f), 0);
        del_route(sa, "default", "1.0.0.0/8", 2);
        syncd_apply_flush(sa);
        ck_assert_int_eq(asic_sim_fault_clear(sw), 0);

        uint32_t members = crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER);
        if (crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP) != 1
            || !members || members == 3) {
            syncd_apply_destroy(sa);
            sa = NULL;
        }
    }
    ck_assert_msg(sa != NULL, "no seed failed a group's removal part way");
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.nhg_stuck, 1);

    set_route(sa, "default", "2.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 3, nhs);
    syncd_apply_flush(sa);
    ck_assert_lookup(sa, "default", "2.1.1.1", "2.0.0.0/8 forward "
                     "10.0.0.1@e0=1,10.0.0.2@e0=1,10.0.0.3@e0=1");
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP), 2);

    usleep(1100 * 1000);
    syncd_apply_run(sa);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP), 1);
    ck_assert_uint_eq(crm_used(sa, ASIC_SIM_RES_NEXT_HOP_GROUP_MEMBER), 3);
    syncd_apply_get_stats(sa, &st);
    ck_assert_uint_eq(st.nhg_removed, 1);
    syncd_apply_destroy(sa);
}
END_TEST

/* Loads routes of every kind into a fresh apply step. */
static struct syncd_apply *
create_loaded(struct results *res)
{
    struct syncd_apply *sa = create(res, 0, 4);

    set_route(sa, "default", "10.0.0.0/8", SAI_PACKET_ACTION_FORWARD, 1,
              (const char *[]) { "192.0.2.1@eth1", NULL });
    set_route(sa, "default", "10.1.0.0/16", SAI_PACKET_ACTION_FORWARD, 2,
              (const char *[]) { "192.0.2.1@eth1=2", "192.0.2.2@eth2",
                                 "192.0.2.3", NULL });
    set_route(sa, "default", "10.2.0.0/16", SAI_PACKET_ACTION_FORWARD, 3,
              (const char *[]) { "@eth3", NULL });
    set_route(sa, "default", "10.3.0.0/16", SAI_PACKET_ACTION_DROP, 4, NULL);
    set_route(sa, "default", "10.4.0.0/16", SAI_PACKET_ACTION_TRAP, 5, NULL);
    set_route(sa, "blue", "2001:db8::/32", SAI_PACKET_ACTION_FORWARD, 6,
              (const char *[]) { "fe80::1@eth4", "fe80::2@eth4", NULL });
    set_route(sa, "blue", "0.0.0.0/0", SAI_PACKET_ACTION_FORWARD, 7,
              (const char *[]) { "192.0.2.9", NULL });
    syncd_apply_flush(sa);
    ck_assert_uint_eq(syncd_apply_n_routes(sa), 7);
    return sa;
}

/* Reads 'file' into 's', each line's next hops sorted, lines sorted: the
 * same routes give the same text whatever the order of object ids. */
static void
read_normalized(const char *file, struct ds *s)
{
    struct ds line = DS_EMPTY_INITIALIZER;
    struct svec lines = SVEC_EMPTY_INITIALIZER;
    FILE *f = fopen(file, "r");

    ck_assert(f != NULL);
    while (!ds_get_line(&line, f)) {
        struct svec words = SVEC_EMPTY_INITIALIZER;
        struct svec out = SVEC_EMPTY_INITIALIZER;
        struct svec nhs = SVEC_EMPTY_INITIALIZER;

        svec_parse_words(&words, ds_cstr(&line));
        for (size_t i = 0; i < words.n; i++) {
            svec_add(i < 4 ? &out : &nhs, words.names[i]);
        }
        svec_sort(&nhs);
        svec_append(&out, &nhs);
        svec_add_nocopy(&lines, svec_join(&out, " ", ""));
        svec_destroy(&words);
        svec_destroy(&out);
        svec_destroy(&nhs);
    }
    fclose(f);
    svec_sort(&lines);
    ds_clear(s);
    ds_put_and_free_cstr(s, svec_join(&lines, "\n", "\n"));
    svec_destroy(&lines);
    ds_destroy(&line);
}

START_TEST(test_warm_round_trip)
{
    char dir[] = "/tmp/syncd-warm-XXXXXX";
    struct results res;
    struct syncd_warm_start ws;
    struct ds a = DS_EMPTY_INITIALIZER, b = DS_EMPTY_INITIALIZER;
    size_t n;

    ck_assert(mkdtemp(dir) != NULL);
    char *file = xasprintf("%s/syncd.warm", dir);
    char *file2 = xasprintf("%s/again.warm", dir);

    /* No file: nothing restored, no error. */
    struct syncd_apply *sa = create(&res, 0, 4);
    ck_assert_ptr_null(syncd_warm_restore(sa, file, &ws));
    ck_assert_ptr_null(ws.file);
    syncd_apply_destroy(sa);

    sa = create_loaded(&res);
    ck_assert_ptr_null(syncd_warm_save(sa, file, &n));
    ck_assert_uint_eq(n, 7);
    syncd_apply_destroy(sa);

    /* Restored into a fresh switch, saved again: the same routes. */
    struct syncd_apply *sb = create(&res, 0, 4);
    ck_assert_ptr_null(syncd_warm_restore(sb, file, &ws));
    ck_assert_str_eq(ws.file, file);
    ck_assert_uint_eq(ws.restored, 7);
    ck_assert_uint_eq(ws.failed, 0);
    ck_assert_int_ne(access(file, F_OK), 0);   /* Used once. */
    ck_assert_uint_eq(syncd_apply_n_routes(sb), 7);
    ck_assert_ptr_null(syncd_warm_save(sb, file2, &n));
    ck_assert_uint_eq(n, 7);

    /* Saving the original once more, to compare the texts. */
    sa = create_loaded(&res);
    ck_assert_ptr_null(syncd_warm_save(sa, file, &n));
    syncd_apply_destroy(sa);
    read_normalized(file, &a);
    read_normalized(file2, &b);
    ck_assert_str_eq(ds_cstr(&a), ds_cstr(&b));

    /* Setting the same routes again makes no SAI call. */
    struct syncd_apply_stats st;
    syncd_apply_get_stats(sb, &st);
    uint64_t creates = st.route_ops[0];
    syncd_apply_mark_stale(sb);
    set_route(sb, "default", "10.1.0.0/16", SAI_PACKET_ACTION_FORWARD, 2,
              (const char *[]) { "192.0.2.3", "192.0.2.2@eth2",
                                 "192.0.2.1@eth1=2", NULL });
    ck_assert_uint_eq(syncd_apply_sweep_stale(sb), 6);
    syncd_apply_get_stats(sb, &st);
    ck_assert_uint_eq(st.route_ops[0], creates);
    ck_assert_uint_eq(st.route_ops[2], 0);
    syncd_apply_destroy(sb);
    syncd_warm_start_destroy(&ws);

    unlink(file);
    unlink(file2);
    rmdir(dir);
    free(file);
    free(file2);
    ds_destroy(&a);
    ds_destroy(&b);
}
END_TEST

/* Writes 'text' to 'file'. */
static void
write_file(const char *file, const char *text)
{
    FILE *f = fopen(file, "w");

    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_warm_damaged)
{
    static const char *bad[][2] = {
        { "fibsync-syncd-warm 1\nroute default 10.0.0.0/8 drop\n",
          "truncated (no end line after 1 routes)" },
        { "fibsync-syncd-warm 3\nend 0\n", "not a syncd warm file" },
        { "fibsync-syncd-warm 2\nroute bad%2 10.0.0.0/8 drop\nend 1\n",
          "bad escape in the VRF name" },
        { "fibsync-syncd-warm 2\nroute bad%00 10.0.0.0/8 drop\nend 1\n",
          "bad escape in the VRF name" },
        { "fibsync-syncd-warm 2\nroute bad%zz 10.0.0.0/8 drop\nend 1\n",
          "bad escape in the VRF name" },
        { "fibsync-syncd-warm 1\nroute default 10.0.0.0/8 drop\nend 2\n",
          "end line does not count the 1 routes" },
        { "fibsync-syncd-warm 1\nroute default 10.0.0.1/8 drop\nend 1\n",
          "bad route line" },
        { "fibsync-syncd-warm 1\nroute default 10.0.0.0/8 forward "
          "192.0.2.1@eth1\nend 1\n", "bad route line" },
        { "fibsync-syncd-warm 1\nroute default 10.0.0.0/8 forward "
          "=1\nend 1\n", "bad route line" },
        { "fibsync-syncd-warm 1\nroute default 10.0.0.0/8 explode\n"
          "end 1\n", "bad route line" },
        { "fibsync-syncd-warm 1\nend 0\nroute default 10.0.0.0/8 drop\n",
          "text after the end line" },
    };
    char dir[] = "/tmp/syncd-warm-XXXXXX";
    struct results res;

    ck_assert(mkdtemp(dir) != NULL);
    char *file = xasprintf("%s/syncd.warm", dir);
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct syncd_apply *sa = create(&res, 0, 4);
        struct syncd_warm_start ws;

        write_file(file, bad[i][0]);
        char *error = syncd_warm_restore(sa, file, &ws);
        ck_assert_msg(error && strstr(error, bad[i][1]), "case %"PRIuSIZE
                      ": %s", i, error ? error : "(no error)");
        free(error);
        /* Refused whole: nothing programmed, the file gone. */
        ck_assert_uint_eq(syncd_apply_n_routes(sa), 0);
        ck_assert_ptr_null(ws.file);
        ck_assert_int_ne(access(file, F_OK), 0);
        syncd_apply_destroy(sa);
    }
    rmdir(dir);
    free(file);
}
END_TEST

/* A VRF name is 1 to 255 bytes but for a null byte: one with a space, a
 * new-line or a '%' comes back from the warm file as it was (version 2
 * escapes it), and a version 1 file, which wrote names raw, is still
 * read. */
START_TEST(test_warm_vrf_names)
{
    static const char *vrfs[] = { "blue vrf", "100%", "two\nlines", "tab\t" };
    char dir[] = "/tmp/syncd-warm-XXXXXX";
    struct syncd_warm_start ws;
    struct ds text = DS_EMPTY_INITIALIZER;
    struct results res;
    size_t n;

    ck_assert(mkdtemp(dir) != NULL);
    char *file = xasprintf("%s/syncd.warm", dir);

    struct syncd_apply *sa = create(&res, 0, 4);
    for (size_t i = 0; i < ARRAY_SIZE(vrfs); i++) {
        set_route(sa, vrfs[i], "10.0.0.0/8", SAI_PACKET_ACTION_FORWARD,
                  i + 1, (const char *[]) { "192.0.2.1@eth1", NULL });
    }
    syncd_apply_flush(sa);
    ck_assert_ptr_null(syncd_warm_save(sa, file, &n));
    ck_assert_uint_eq(n, ARRAY_SIZE(vrfs));
    syncd_apply_destroy(sa);

    FILE *f = fopen(file, "r");
    ck_assert(f != NULL);
    ck_assert(!ds_get_line(&text, f));
    ck_assert_str_eq(ds_cstr(&text), "fibsync-syncd-warm 2");
    for (n = 1; !ds_get_line(&text, f); n++) {
        continue;
    }
    fclose(f);
    ck_assert_uint_eq(n, ARRAY_SIZE(vrfs) + 2);     /* One line a route. */

    sa = create(&res, 0, 4);
    ck_assert_ptr_null(syncd_warm_restore(sa, file, &ws));
    ck_assert_uint_eq(ws.restored, ARRAY_SIZE(vrfs));
    ck_assert_uint_eq(ws.failed, 0);
    for (size_t i = 0; i < ARRAY_SIZE(vrfs); i++) {
        ck_assert_lookup(sa, vrfs[i], "10.1.2.3",
                         "10.0.0.0/8 forward 192.0.2.1@eth1=1");
    }
    syncd_apply_destroy(sa);
    syncd_warm_start_destroy(&ws);

    /* Version 1: "%41" is three bytes of the name there. */
    write_file(file, "fibsync-syncd-warm 1\n"
               "route v%41 10.0.0.0/8 drop\nend 1\n");
    sa = create(&res, 0, 4);
    ck_assert_ptr_null(syncd_warm_restore(sa, file, &ws));
    ck_assert_uint_eq(ws.restored, 1);
    ck_assert_lookup(sa, "v%41", "10.1.2.3", "10.0.0.0/8 drop");
    ck_assert_lookup(sa, "vA", "10.1.2.3", "miss");
    syncd_apply_destroy(sa);
    syncd_warm_start_destroy(&ws);

    rmdir(dir);
    free(file);
    ds_destroy(&text);
}
END_TEST

Suite *
syncd_apply_suite(void)
{
    Suite *s = suite_create("syncd_apply");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_program_and_lookup);
    tcase_add_test(tc, test_sharing_and_removal);
    tcase_add_test(tc, test_order_within_prefix);
    tcase_add_test(tc, test_bulk_size);
    tcase_add_test(tc, test_capacity);
    tcase_add_test(tc, test_faults_and_orphans);
    tcase_add_test(tc, test_group_removal_fails_part_way);
    tcase_add_test(tc, test_change_both_attributes);
    tcase_add_test(tc, test_invalid);
    tcase_add_test(tc, test_result_names_vrf);
    tcase_add_test(tc, test_mark_and_sweep);
    tcase_add_test(tc, test_warm_round_trip);
    tcase_add_test(tc, test_warm_damaged);
    tcase_add_test(tc, test_warm_vrf_names);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
