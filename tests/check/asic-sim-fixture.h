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

#ifndef ASIC_SIM_FIXTURE_H
#define ASIC_SIM_FIXTURE_H 1

/* The fixture of the Check suites of the SAI simulator (asic_sim,
 * asic_sim_fault and asic_sim_lookup, in tests/check/test-asic-sim*.c)
 * and the helpers they share.
 *
 * What the fixture exports is named fx_*: its state, fx_setup() and
 * fx_teardown(), and the helpers that use the state.  The helpers that
 * only build values are static inline here. */

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "asic-sim/asic-sim.h"
#include "asic-sim/sai-util.h"

/* The fixture, set up before each test by fx_setup() and torn down by
 * fx_teardown(): an initialized library, one switch, its default VR, one
 * port RIF on it and three next hops on that RIF. */

/* The SAI method tables. */
extern sai_switch_api_t *fx_switch_api;
extern sai_virtual_router_api_t *fx_vr_api;
extern sai_router_interface_api_t *fx_rif_api;
extern sai_neighbor_api_t *fx_neighbor_api;
extern sai_next_hop_api_t *fx_nh_api;
extern sai_next_hop_group_api_t *fx_nhg_api;
extern sai_route_api_t *fx_route_api;

extern sai_object_id_t fx_sw;    /* The switch. */
extern sai_object_id_t fx_vr;    /* Its default VR. */
extern sai_object_id_t fx_port0; /* Its first front-panel port. */
extern sai_object_id_t fx_rif;   /* A port RIF on 'fx_port0' in 'fx_vr'. */
extern sai_object_id_t fx_nh[3]; /* Next hops 10.0.0.1...3 on 'fx_rif'. */

#define ck_assert_status(X, Y)                                          \
    do {                                                                \
        sai_status_t x_ = (X);                                          \
        sai_status_t y_ = (Y);                                          \
        ck_assert_msg(x_ == y_, "%s is %s (%d), expected %s (%d)", #X,  \
                      sai_util_status_name(x_), (int) x_,                    \
                      sai_util_status_name(y_), (int) y_);                   \
    } while (0)

static inline uint32_t
ip4(unsigned int a, unsigned int b, unsigned int c, unsigned int d)
{
    return (uint32_t) a << 24 | b << 16 | c << 8 | d;
}

static inline sai_ip_address_t
addr_parse(const char *s)
{
    sai_ip_address_t a;

    ck_assert(sai_util_ip_address_parse(s, &a));
    return a;
}

static inline sai_attribute_t
attr_oid(sai_attr_id_t id, sai_object_id_t oid)
{
    sai_attribute_t a;

    memset(&a, 0, sizeof a);
    a.id = id;
    a.value.oid = oid;
    return a;
}

static inline sai_attribute_t
attr_s32(sai_attr_id_t id, int32_t v)
{
    sai_attribute_t a;

    memset(&a, 0, sizeof a);
    a.id = id;
    a.value.s32 = v;
    return a;
}

static inline sai_attribute_t
attr_u32(sai_attr_id_t id, uint32_t v)
{
    sai_attribute_t a;

    memset(&a, 0, sizeof a);
    a.id = id;
    a.value.u32 = v;
    return a;
}

void fx_setup(void);
void fx_teardown(void);

sai_route_entry_t fx_route4(sai_object_id_t vr_id, uint32_t addr,
                            unsigned int plen);
sai_route_entry_t fx_route_parse(sai_object_id_t vr_id, const char *);
sai_status_t fx_create_nh(sai_object_id_t *id, sai_object_id_t rif_id,
                          const char *ip);
sai_status_t fx_create_group(sai_object_id_t *id);
sai_status_t fx_create_member(sai_object_id_t *id, sai_object_id_t group,
                              sai_object_id_t nh_id, uint32_t weight);
sai_status_t fx_create_route(const sai_route_entry_t *, sai_object_id_t nh_id);
bool fx_route_exists(const sai_route_entry_t *);
uint64_t fx_route_hits(const sai_route_entry_t *);
void fx_crm_get(struct asic_sim_crm_entry crm[ASIC_SIM_N_RESOURCES]);
void fx_make_bulk(sai_route_entry_t *entries, sai_attribute_t *attrs,
                  const sai_attribute_t **attr_lists, uint32_t *attr_counts,
                  uint32_t n);

#endif /* asic-sim-fixture.h */
