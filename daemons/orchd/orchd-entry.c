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
 * orchd-entry: SAI-shaped route entries.
 */

#include <config.h>

#include "daemons/orchd/orchd-entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "lib/fibsync-instance.h"
#include "lib/ovsdb-wire.h"
#include "lib/route-key.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "ovs-thread.h"
#include "util.h"

static const char *const action_names[] = {
    [ORCHD_ACTION_FORWARD] = "forward",
    [ORCHD_ACTION_DROP] = "drop",
    [ORCHD_ACTION_TRAP] = "trap",
};

/* Returns 'a' as Asic_Route.packet_action spells it. */
const char *
orchd_action_to_string(enum orchd_action a)
{
    return a < ARRAY_SIZE(action_names) ? action_names[a] : "?";
}

/* Parses packet action 's' into '*a'.  Returns false if 's' is not
 * one. */
bool
orchd_action_from_string(const char *s, enum orchd_action *a)
{
    for (size_t i = 0; i < ARRAY_SIZE(action_names); i++) {
        if (!strcmp(s, action_names[i])) {
            *a = i;
            return true;
        }
    }
    return false;
}

/* Computes the Asic_Route row UUID of (vrf, prefix) in ASIC instance
 * 'instance' (route_key_asic_route_uuid()). */
void
orchd_entry_asic_uuid(int instance, const char *vrf,
                      const struct fib_prefix *prefix, struct uuid *uuid)
{
    route_key_asic_route_uuid(vrf, prefix, instance, uuid);
}

/* Initializes 'space' for the entries of ASIC instance 'instance' (0 to
 * FIBSYNC_INSTANCE_MAX). */
void
orchd_entry_space_init(struct orchd_entry_space *space, int instance)
{
    ovs_assert(instance >= 0 && instance <= FIBSYNC_INSTANCE_MAX);
    space->instance = instance;
    ovs_mutex_init(&space->mutex);
    shash_init(&space->vrf_names);
}

/* Frees what 'space' holds: its entries, whose VRF names it holds, must be
 * gone. */
void
orchd_entry_space_destroy(struct orchd_entry_space *space)
{
    ovs_mutex_lock(&space->mutex);
    shash_destroy(&space->vrf_names);
    ovs_mutex_unlock(&space->mutex);
    ovs_mutex_destroy(&space->mutex);
}

/* Returns the interned copy of VRF name 'name' in 'space'. */
static const char *
intern_vrf(struct orchd_entry_space *space, const char *name)
{
    struct shash_node *node;

    ovs_mutex_lock(&space->mutex);
    node = shash_find(&space->vrf_names, name);
    if (!node) {
        node = shash_add(&space->vrf_names, name, NULL);
    }
    ovs_mutex_unlock(&space->mutex);
    return node->name;
}

/* qsort() comparator of next hops, by key. */
static int
nexthop_cmp(const void *a_, const void *b_)
{
    const struct orchd_entry_nexthop *a = a_, *b = b_;

    return strcmp(a->key, b->key);
}

/* Returns a new entry (one reference) of 'space' (whose ASIC instance its
 * Asic_Route row carries, with a UUID of that instance's own, and which
 * holds its VRF name) that programs (vrf, prefix) with
 * 'action' and, for FORWARD, the 'n_nexthops' next hops 'nh_keys' with
 * weights 'nh_weights' (NULL, or a weight under 1, means 1; a lone next
 * hop always has weight 1).  Next hops are kept sorted by key, so equal
 * sets compare equal. */
struct orchd_entry *
orchd_entry_create(struct orchd_entry_space *space, const char *vrf,
                   const struct fib_prefix *prefix,
                   enum orchd_action action, const char **nh_keys,
                   const int64_t *nh_weights, size_t n_nexthops)
{
    bool forward = action == ORCHD_ACTION_FORWARD && n_nexthops;
    size_t size = sizeof(struct orchd_entry);
    struct orchd_entry *e;
    char *text;

    /* The entry, its next hops and their keys in one block: one malloc,
     * one free, and a walk over a million entries (route/dump) touches
     * one place for each instead of three. */
    if (forward) {
        size += n_nexthops * sizeof *e->nexthops;
        for (size_t i = 0; i < n_nexthops; i++) {
            size += strlen(nh_keys[i]) + 1;
        }
    }
    e = xzalloc(size);
    ovs_refcount_init(&e->ref);
    e->vrf = intern_vrf(space, vrf);
    e->prefix = *prefix;
    e->instance = space->instance;
    orchd_entry_asic_uuid(space->instance, vrf, prefix, &e->asic_uuid);
    e->action = action;
    if (forward) {
        BUILD_ASSERT(sizeof(struct orchd_entry)
                          % __alignof__(struct orchd_entry_nexthop) == 0);
        e->nexthops = (struct orchd_entry_nexthop *) (e + 1);
        text = (char *) &e->nexthops[n_nexthops];
        for (size_t i = 0; i < n_nexthops; i++) {
            size_t len = strlen(nh_keys[i]) + 1;

            e->nexthops[i].key = memcpy(text, nh_keys[i], len);
            e->nexthops[i].key_len = len - 1;
            text += len;
            e->nexthops[i].weight = (nh_weights && nh_weights[i] > 0
                                     ? nh_weights[i] : 1);
        }
        e->n_nexthops = n_nexthops;
        if (n_nexthops == 1) {
            /* A lone next hop has no share to weigh. */
            e->nexthops[0].weight = 1;
        }
        qsort(e->nexthops, n_nexthops, sizeof *e->nexthops, nexthop_cmp);
    }

    uint32_t h = hash_int(action, 0);
    for (size_t i = 0; i < e->n_nexthops; i++) {
        h = hash_string(e->nexthops[i].key, h);
        h = hash_int(e->nexthops[i].weight, h);
    }
    e->hash = h;
    return e;
}

/* Returns 'e' with one more reference (NULL for NULL). */
struct orchd_entry *
orchd_entry_ref(const struct orchd_entry *e_)
{
    struct orchd_entry *e = CONST_CAST(struct orchd_entry *, e_);

    if (e) {
        ovs_refcount_ref(&e->ref);
    }
    return e;
}

/* Drops one reference to 'e', freeing it with the last. */
void
orchd_entry_unref(struct orchd_entry *e)
{
    if (e && ovs_refcount_unref_relaxed(&e->ref) == 1) {
        free(e);                /* Next hops and keys are in the block. */
    }
}

/* Returns true if 'a' and 'b' program the same forwarding: same action and
 * next hops with the same weights.  (Keys are assumed equal.) */
bool
orchd_entry_same_content(const struct orchd_entry *a,
                         const struct orchd_entry *b)
{
    if (a == b) {
        return true;
    }
    if (!a || !b || a->hash != b->hash || a->action != b->action
        || a->n_nexthops != b->n_nexthops) {
        return false;
    }
    for (size_t i = 0; i < a->n_nexthops; i++) {
        if (a->nexthops[i].weight != b->nexthops[i].weight
            || strcmp(a->nexthops[i].key, b->nexthops[i].key)) {
            return false;
        }
    }
    return true;
}

/* Orders entries by VRF name, then prefix numerically. */
int
orchd_entry_compare_prefix(const struct orchd_entry *a,
                           const struct orchd_entry *b)
{
    int c = a->vrf == b->vrf ? 0 : strcmp(a->vrf, b->vrf);

    return c ? c : fib_prefix_compare(&a->prefix, &b->prefix);
}

/* Formats 'e''s prefix into 'buf' and returns 'buf'. */
const char *
orchd_entry_prefix(const struct orchd_entry *e, char buf[FIB_PREFIX_STRLEN])
{
    fib_prefix_format(&e->prefix, buf);
    return buf;
}

/* Returns the text of 'e''s prefix as a JSON string. */
static struct json *
prefix_json(const struct orchd_entry *e)
{
    char prefix[FIB_PREFIX_STRLEN];

    return json_string_create(orchd_entry_prefix(e, prefix));
}

/* Returns the Asic_Route row for 'e', written with sequence number 'seq'
 * and state "pending". */
struct json *
orchd_entry_to_row(const struct orchd_entry *e, int64_t seq)
{
    struct json *row = json_object_create();
    struct json *nh = ovsdb_wire_map_new();

    if (e->instance) {
        json_object_put(row, "instance", json_integer_create(e->instance));
    }
    json_object_put_string(row, "vrf", e->vrf);
    json_object_put(row, "prefix", prefix_json(e));
    json_object_put_string(row, "packet_action",
                           orchd_action_to_string(e->action));
    for (size_t i = 0; i < e->n_nexthops; i++) {
        ovsdb_wire_map_add(nh, json_string_create(e->nexthops[i].key),
                           json_integer_create(e->nexthops[i].weight));
    }
    json_object_put(row, "nexthops", nh);
    json_object_put(row, "seq", json_integer_create(seq));
    json_object_put_string(row, "state", "pending");
    return row;
}

/* Appends 'e' to 's' as one line of route/show and route/dump:
 *
 *     PREFIX [vrf VRF] via NH                     one next hop
 *     PREFIX [vrf VRF] via NH weight W, ...       ECMP, with each weight
 *     PREFIX [vrf VRF] drop|trap                  no next hop
 *
 * "vrf VRF" only outside the default VRF.  Written without printf, and as
 * short as it can be read: route/dump formats a million of these. */
void
orchd_entry_format(const struct orchd_entry *e, struct ds *s)
{
    fib_prefix_format_ds(&e->prefix, s);
    if (strcmp(e->vrf, "default")) {
        ds_put_cstr(s, " vrf ");
        ds_put_cstr(s, e->vrf);
    }
    if (e->action != ORCHD_ACTION_FORWARD || !e->n_nexthops) {
        ds_put_char(s, ' ');
        ds_put_cstr(s, orchd_action_to_string(e->action));
        return;
    }
    for (size_t i = 0; i < e->n_nexthops; i++) {
        ds_put_cstr(s, i ? ", " : " via ");
        ds_put_buffer(s, e->nexthops[i].key, e->nexthops[i].key_len);
        if (e->n_nexthops > 1) {
            char buf[16];
            char *p = &buf[sizeof buf];
            uint32_t w = e->nexthops[i].weight;

            ds_put_cstr(s, " weight ");
            *--p = '\0';
            do {
                *--p = '0' + w % 10;
                w /= 10;
            } while (w);
            ds_put_cstr(s, p);
        }
    }
}

/* Returns 'e' as a JSON object for "json" output of unixctl commands. */
struct json *
orchd_entry_to_json(const struct orchd_entry *e)
{
    struct json *j = json_object_create();
    struct json *nhs = json_array_create_empty();

    json_object_put_string(j, "vrf", e->vrf);
    json_object_put(j, "prefix", prefix_json(e));
    json_object_put_string(j, "action", orchd_action_to_string(e->action));
    for (size_t i = 0; i < e->n_nexthops; i++) {
        struct json *nh = json_object_create();

        json_object_put_string(nh, "nexthop", e->nexthops[i].key);
        json_object_put(nh, "weight",
                        json_integer_create(e->nexthops[i].weight));
        json_array_add(nhs, nh);
    }
    json_object_put(j, "nexthops", nhs);
    return j;
}
