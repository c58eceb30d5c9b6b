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

/* syncd-apply-show: what the apply step shows of itself, read-only: its
 * routes (for the warm save), VRFs, next hops and targets (for the
 * commands), the names of packet actions, and its counters.  A part of
 * the apply step (see daemons/syncd/syncd-apply-private.h); it calls
 * syncd-nexthop.c, and neither of the other two calls it. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "daemons/syncd/syncd-apply-private.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "util.h"

/* Returns the Asic_Route spelling of 'action' ("forward", "drop",
 * "trap"), or SAI's name in lowercase for other actions. */
const char *
syncd_action_name(sai_packet_action_t action)
{
    switch (action) {
    case SAI_PACKET_ACTION_FORWARD: return "forward";
    case SAI_PACKET_ACTION_DROP: return "drop";
    case SAI_PACKET_ACTION_TRAP: return "trap";
    case SAI_PACKET_ACTION_COPY: return "copy";
    case SAI_PACKET_ACTION_COPY_CANCEL: return "copy_cancel";
    case SAI_PACKET_ACTION_LOG: return "log";
    case SAI_PACKET_ACTION_DENY: return "deny";
    case SAI_PACKET_ACTION_TRANSIT: return "transit";
    }
    return "unknown";
}

/* Returns the number of queued operations. */
size_t
syncd_apply_n_pending(const struct syncd_apply *sa)
{
    return sa->n_ops;
}

/* Calls 'cb' with every route, as the SET operation that would program it
 * as it is (origin zero, seq 0), in no particular order.  'cb' must not
 * change 'sa'. */
void
syncd_apply_for_each_route(const struct syncd_apply *sa,
                           syncd_apply_route_cb *cb, void *aux)
{
    struct syncd_nexthop *nhs = NULL;
    size_t allocated = 0;
    const struct sa_route *r;

    HMAP_FOR_EACH (r, node, &sa->routes) {
        struct sa_target t = { .kind = r->kind, .ptr = r->target };
        struct syncd_route_op op = {
            .type = SYNCD_OP_SET,
            .vrf = sa->vr_array[r->vr]->name,
            .prefix = r->prefix,
            .action = r->action,
        };

        op.n_nexthops = syncd_nexthop_target_describe(&t, &nhs, &allocated);
        op.nexthops = nhs;
        cb(&op, aux);
    }
    free(nhs);
}

sai_object_id_t
syncd_apply_switch_id(const struct syncd_apply *sa)
{
    return sa->sw;
}

size_t
syncd_apply_n_routes(const struct syncd_apply *sa)
{
    return hmap_count(&sa->routes);
}

void
syncd_apply_get_stats(const struct syncd_apply *sa,
                      struct syncd_apply_stats *stats)
{
    *stats = sa->stats;
}

/* Returns the VR of VRF 'vrf', or SAI_NULL_OBJECT_ID if it has none yet. */
sai_object_id_t
syncd_apply_vr_find(const struct syncd_apply *sa, const char *vrf)
{
    const struct sa_vr *vr = syncd_nexthop_vr_find(sa, vrf);

    return vr ? vr->oid : SAI_NULL_OBJECT_ID;
}

size_t
syncd_apply_n_vrs(const struct syncd_apply *sa)
{
    return sa->n_vrs;
}

/* Returns the name of the VR with index 'i' (in creation order) and stores
 * its id in '*vr_id'. */
const char *
syncd_apply_vr_name(const struct syncd_apply *sa, size_t i,
                    sai_object_id_t *vr_id)
{
    ovs_assert(i < sa->n_vrs);
    *vr_id = sa->vr_array[i]->oid;
    return sa->vr_array[i]->name;
}

static const struct sa_nh *
nh_by_oid(const struct syncd_apply *sa, sai_object_id_t oid)
{
    const struct sa_nh *nh;

    HMAP_FOR_EACH_WITH_HASH (nh, oid_node, sa_oid_hash(oid), &sa->nhs_by_oid) {
        if (nh->oid == oid) {
            return nh;
        }
    }
    return NULL;
}

static const struct sa_nhg *
nhg_by_oid(const struct syncd_apply *sa, sai_object_id_t oid)
{
    const struct sa_nhg *nhg;

    HMAP_FOR_EACH_WITH_HASH (nhg, oid_node, sa_oid_hash(oid),
                             &sa->nhgs_by_oid) {
        if (nhg->oid == oid) {
            return nhg;
        }
    }
    return NULL;
}

static const struct sa_rif *
rif_by_oid(const struct syncd_apply *sa, sai_object_id_t oid)
{
    const struct sa_rif *rif;

    HMAP_FOR_EACH_WITH_HASH (rif, oid_node, sa_oid_hash(oid),
                             &sa->rifs_by_oid) {
        if (rif->oid == oid) {
            return rif;
        }
    }
    return NULL;
}

/* Appends next hop 'nh' in Asic_Route key form, "GATEWAY@IFNAME" or
 * "GATEWAY" (unnamed interface), to 's'. */
static void
format_nh(const struct sa_nh *nh, struct ds *s)
{
    char buf[SAI_IP_ADDRESS_STRLEN];

    ds_put_cstr(s, sai_util_ip_address_format(&nh->ip, buf));
    if (nh->rif->name[0]) {
        ds_put_format(s, "@%s", nh->rif->name);
    }
}

/* Appends next hop 'nh', as returned by asic_sim_lookup(), to 's' in
 * Asic_Route key form: "GATEWAY@IFNAME", "GATEWAY", "@IFNAME" (connected)
 * or "cpu". */
void
syncd_apply_format_nexthop(const struct syncd_apply *sa,
                           const struct asic_sim_nexthop *nh,
                           struct ds *s)
{
    const struct sa_nh *snh = (nh->next_hop_id
                               ? nh_by_oid(sa, nh->next_hop_id) : NULL);
    if (snh) {
        format_nh(snh, s);
        return;
    }

    const struct sa_rif *rif = nh->rif_id ? rif_by_oid(sa, nh->rif_id) : NULL;
    if (rif) {
        ds_put_format(s, "@%s", rif->name);
    } else if (nh->next_hop_id) {
        ds_put_format(s, "0x%"PRIx64, nh->next_hop_id);
    } else {
        ds_put_cstr(s, "cpu");
    }
}

/* Appends the next hops that 'next_hop_id' (a route's NEXT_HOP_ID) stands
 * for to 's', as "KEY=WEIGHT[,KEY=WEIGHT]...", or "-" for none. */
void
syncd_apply_format_target(const struct syncd_apply *sa,
                          sai_object_id_t next_hop_id, struct ds *s)
{
    const struct sa_nhg *nhg;
    const struct sa_rif *rif;
    const struct sa_nh *nh;

    if (next_hop_id == SAI_NULL_OBJECT_ID) {
        ds_put_char(s, '-');
    } else if ((nh = nh_by_oid(sa, next_hop_id)) != NULL) {
        format_nh(nh, s);
        ds_put_cstr(s, "=1");
    } else if ((nhg = nhg_by_oid(sa, next_hop_id)) != NULL) {
        size_t start = s->length;

        for (size_t i = 0; i < nhg->n; i++) {
            if (!nhg->members[i].nh) {
                continue;       /* Removed from a group set aside. */
            }
            if (s->length > start) {
                ds_put_char(s, ',');
            }
            format_nh(nhg->members[i].nh, s);
            ds_put_format(s, "=%"PRIu32, nhg->members[i].weight);
        }
    } else if ((rif = rif_by_oid(sa, next_hop_id)) != NULL) {
        ds_put_format(s, "@%s=1", rif->name);
    } else {
        ds_put_format(s, "0x%"PRIx64, next_hop_id);
    }
}

/* Returns the next hops that 'next_hop_id' stands for as a JSON object
 * mapping Asic_Route keys to weights. */
struct json *
syncd_apply_target_to_json(const struct syncd_apply *sa,
                           sai_object_id_t next_hop_id)
{
    struct json *obj = json_object_create();
    struct ds key = DS_EMPTY_INITIALIZER;
    const struct sa_nhg *nhg;
    const struct sa_rif *rif;
    const struct sa_nh *nh;

    if (next_hop_id == SAI_NULL_OBJECT_ID) {
        /* Nothing. */
    } else if ((nh = nh_by_oid(sa, next_hop_id)) != NULL) {
        format_nh(nh, &key);
        json_object_put(obj, ds_cstr(&key), json_integer_create(1));
    } else if ((nhg = nhg_by_oid(sa, next_hop_id)) != NULL) {
        for (size_t i = 0; i < nhg->n; i++) {
            if (!nhg->members[i].nh) {
                continue;       /* Removed from a group set aside. */
            }
            ds_clear(&key);
            format_nh(nhg->members[i].nh, &key);
            json_object_put(obj, ds_cstr(&key),
                            json_integer_create(nhg->members[i].weight));
        }
    } else if ((rif = rif_by_oid(sa, next_hop_id)) != NULL) {
        ds_put_format(&key, "@%s", rif->name);
        json_object_put(obj, ds_cstr(&key), json_integer_create(1));
    }
    ds_destroy(&key);
    return obj;
}
