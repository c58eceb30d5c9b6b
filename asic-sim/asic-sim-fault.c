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

/* asic-sim: fault injection.  The decision whether an operation fails
 * (a seeded fraction of operations, chosen prefixes) and the API that
 * configures it.  The programming delay is applied by the route
 * operations in asic-sim-route.c. */

#include <config.h>

#include "asic-sim/asic-sim-private.h"

#include <arpa/inet.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "hash.h"
#include "openvswitch/hmap.h"
#include "openvswitch/util.h"
#include "util.h"

/* ---- Fault decisions ---------------------------------------------------- */

/* splitmix64. */
static uint64_t
prng_next(struct sim_switch *sw)
{
    uint64_t z = (sw->prng += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint32_t
fault_prefix_hash(sai_object_id_t vr_id, bool is_v6, unsigned int plen,
                  const uint8_t addr[16])
{
    uint32_t hash = hash_uint64(vr_id);

    hash = hash_add(hash, plen | (is_v6 << 8));
    return hash_bytes(addr, is_v6 ? 16 : 4, hash);
}

/* Returns the chosen prefix with the given key, or NULL. */
static struct fault_prefix *
fault_prefix_find(const struct sim_switch *sw, sai_object_id_t vr_id,
                  bool is_v6, unsigned int plen, const uint8_t addr[16])
{
    struct fault_prefix *fp;

    HMAP_FOR_EACH_WITH_HASH (fp, hmap_node,
                             fault_prefix_hash(vr_id, is_v6, plen, addr),
                             &sw->fault_prefixes) {
        if (fp->vr_id == vr_id && fp->is_v6 == is_v6 && fp->plen == plen
            && !memcmp(fp->addr, addr, 16)) {
            return fp;
        }
    }
    return NULL;
}

/* Decides whether the fault injector fails an operation of kind 'op_bit'
 * (one ASIC_SIM_FAULT_*) on 'sw', on route 'key' (NULL for other objects).
 * The PRNG advances on every eligible operation, whether or not it then
 * fails, so that a run is repeatable from the seed. */
bool
asim_fault_fires(struct sim_switch *sw, unsigned int op_bit,
                 const struct route_key *key)
{
    bool fire = false;

    if (!(sw->fault.ops & op_bit)) {
        return false;
    }
    if (sw->fault.rate > 0) {
        double x = (prng_next(sw) >> 11) * 0x1.0p-53;
        fire = x < sw->fault.rate;
    }
    if (!fire && key && !hmap_is_empty(&sw->fault_prefixes)) {
        uint8_t addr[16];

        memset(addr, 0, sizeof addr);
        if (key->is_v6) {
            memcpy(addr, &key->ip6, 16);
        } else {
            uint32_t be = htonl(key->ip4);
            memcpy(addr, &be, 4);
        }
        fire = fault_prefix_find(sw, key->vr->obj.oid, key->is_v6,
                                 key->plen, addr) != NULL;
    }
    if (fire) {
        sw->stats.faults_injected++;
    }
    return fire;
}

/* ---- Fault injection ---------------------------------------------------- */

/* Sets the fault injection settings of 'switch_id' and restarts its PRNG
 * from 'fault->seed'.  'fault->ops' of 0 means ASIC_SIM_FAULT_ROUTES.
 * Chosen prefixes are unchanged. */
sai_status_t
asic_sim_fault_set(sai_object_id_t switch_id,
                   const struct asic_sim_fault *fault)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    } else if (!fault || isnan(fault->rate) || fault->rate < 0
               || fault->rate > 1) {
        return SAI_STATUS_INVALID_PARAMETER;
    }
    sw->fault = *fault;
    if (!sw->fault.ops) {
        sw->fault.ops = ASIC_SIM_FAULT_ROUTES;
    }
    sw->prng = fault->seed;
    return SAI_STATUS_SUCCESS;
}

/* Stores the fault injection settings of 'switch_id' in '*fault'. */
sai_status_t
asic_sim_fault_get(sai_object_id_t switch_id, struct asic_sim_fault *fault)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    *fault = sw->fault;
    return SAI_STATUS_SUCCESS;
}

/* Parses the key of a chosen prefix.  Returns the switch, or NULL with
 * '*status' set. */
static struct sim_switch *
fault_prefix_parse(sai_object_id_t switch_id, sai_object_id_t vr_id,
                   const sai_ip_prefix_t *prefix, bool *is_v6,
                   unsigned int *plen, uint8_t addr[16],
                   sai_status_t *status)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        *status = SAI_STATUS_INVALID_OBJECT_ID;
        return NULL;
    } else if (!obj_find(sw, KIND_VR, vr_id) || !prefix
               || !sai_util_ip_prefix_is_canonical(prefix)) {
        *status = SAI_STATUS_INVALID_PARAMETER;
        return NULL;
    }
    *is_v6 = prefix->addr_family == SAI_IP_ADDR_FAMILY_IPV6;
    *plen = sai_util_ip_prefix_length(prefix);
    memset(addr, 0, 16);
    memcpy(addr, &prefix->addr, *is_v6 ? 16 : 4);
    *status = SAI_STATUS_SUCCESS;
    return sw;
}

/* Makes every operation (of the kinds in the fault settings' 'ops') on the
 * route 'prefix' of 'vr_id' fail with SAI_STATUS_FAILURE, after
 * validation.  Returns SAI_STATUS_ITEM_ALREADY_EXISTS if it is already
 * chosen. */
sai_status_t
asic_sim_fault_add_prefix(sai_object_id_t switch_id, sai_object_id_t vr_id,
                          const sai_ip_prefix_t *prefix)
{
    unsigned int plen;
    uint8_t addr[16];
    sai_status_t status;
    bool is_v6;
    struct sim_switch *sw = fault_prefix_parse(switch_id, vr_id, prefix,
                                               &is_v6, &plen, addr, &status);

    if (!sw) {
        return status;
    } else if (fault_prefix_find(sw, vr_id, is_v6, plen, addr)) {
        return SAI_STATUS_ITEM_ALREADY_EXISTS;
    }

    struct fault_prefix *fp = xmalloc(sizeof *fp);
    fp->vr_id = vr_id;
    fp->is_v6 = is_v6;
    fp->plen = plen;
    memcpy(fp->addr, addr, 16);
    hmap_insert(&sw->fault_prefixes, &fp->hmap_node,
                fault_prefix_hash(vr_id, is_v6, plen, addr));
    return SAI_STATUS_SUCCESS;
}

/* Stops failing 'prefix' of 'vr_id'.  Returns SAI_STATUS_ITEM_NOT_FOUND if
 * it was not chosen. */
sai_status_t
asic_sim_fault_remove_prefix(sai_object_id_t switch_id,
                             sai_object_id_t vr_id,
                             const sai_ip_prefix_t *prefix)
{
    unsigned int plen;
    uint8_t addr[16];
    sai_status_t status;
    bool is_v6;
    struct sim_switch *sw = fault_prefix_parse(switch_id, vr_id, prefix,
                                               &is_v6, &plen, addr, &status);

    if (!sw) {
        return status;
    }

    struct fault_prefix *fp = fault_prefix_find(sw, vr_id, is_v6, plen,
                                                addr);
    if (!fp) {
        return SAI_STATUS_ITEM_NOT_FOUND;
    }
    hmap_remove(&sw->fault_prefixes, &fp->hmap_node);
    free(fp);
    return SAI_STATUS_SUCCESS;
}

/* Turns fault injection off on 'switch_id': no rate, no delay, no chosen
 * prefixes, 'ops' back to ASIC_SIM_FAULT_ROUTES (the seed is kept). */
sai_status_t
asic_sim_fault_clear(sai_object_id_t switch_id)
{
    struct sim_switch *sw = switch_find(switch_id);

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }

    struct fault_prefix *fp;
    HMAP_FOR_EACH_POP (fp, hmap_node, &sw->fault_prefixes) {
        free(fp);
    }
    sw->fault.rate = 0;
    sw->fault.delay_usec = 0;
    sw->fault.ops = ASIC_SIM_FAULT_ROUTES;
    sw->prng = sw->fault.seed;
    return SAI_STATUS_SUCCESS;
}

/* Calls 'cb' with 'aux' for each chosen prefix of 'switch_id', in no
 * particular order.  'cb' must not add or remove chosen prefixes. */
sai_status_t
asic_sim_fault_prefix_walk(sai_object_id_t switch_id,
                           asic_sim_fault_prefix_cb *cb, void *aux)
{
    struct sim_switch *sw = switch_find(switch_id);
    const struct fault_prefix *fp;

    if (!sw) {
        return SAI_STATUS_INVALID_OBJECT_ID;
    }
    HMAP_FOR_EACH (fp, hmap_node, &sw->fault_prefixes) {
        sai_ip_prefix_t p;

        if (fp->is_v6) {
            struct in6_addr a;

            memcpy(&a, fp->addr, sizeof a);
            sai_util_ip_prefix_init6(&p, &a, fp->plen);
        } else {
            uint32_t a;

            memcpy(&a, fp->addr, sizeof a);
            sai_util_ip_prefix_init4(&p, ntohl(a), fp->plen);
        }
        cb(fp->vr_id, &p, aux);
    }
    return SAI_STATUS_SUCCESS;
}
