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


/* fpm-route-format: text forms of FPM messages and interface names
 * (lib/fpm-route-format.h). */

#include <config.h>
#include "lib/fpm-route-format.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <sys/socket.h>

#include "openvswitch/dynamic-string.h"
#include "util.h"

/* Appends address 'a' to 's' ("192.0.2.1", "2001:db8::1"). */
void
fpm_addr_format(const struct fpm_addr *a, struct ds *s)
{
    char buf[INET6_ADDRSTRLEN];

    if (a->family == AF_INET || a->family == AF_INET6) {
        ds_put_cstr(s, inet_ntop(a->family, a->addr, buf, sizeof buf));
    } else {
        ds_put_cstr(s, "-");
    }
}

/* Appends prefix 'p' to 's' ("10.0.0.0/24"). */
void
fpm_prefix_format(const struct fpm_prefix *p, struct ds *s)
{
    struct fpm_addr a;

    a.family = p->family;
    memcpy(a.addr, p->addr, sizeof a.addr);
    fpm_addr_format(&a, s);
    ds_put_format(s, "/%u", p->len);
}

/* Returns the name of route type 'type'. */
static const char *
route_type_to_string(enum fpm_route_type type)
{
    switch (type) {
    case FPM_ROUTE_UNICAST:
        return "unicast";
    case FPM_ROUTE_BLACKHOLE:
        return "blackhole";
    case FPM_ROUTE_UNREACHABLE:
        return "unreachable";
    case FPM_ROUTE_PROHIBIT:
        return "prohibit";
    }
    return "?";
}

/* Appends a one-line description of 'msg' to 's', e.g.
 * "add route 10.0.0.0/24 table 254 proto 186 metric 20 nhid 12" or
 * "add nexthop 12 group 10/1,11/1". */
void
fpm_msg_format(const struct fpm_msg *msg, struct ds *s)
{
    size_t i;

    if (msg->kind == FPM_MSG_ROUTE) {
        const struct fpm_route *r = &msg->route;

        ds_put_format(s, "%s route ", r->op == FPM_OP_ADD ? "add" : "del");
        fpm_prefix_format(&r->prefix, s);
        ds_put_format(s, " table %"PRIu32" proto %u metric %"PRIu32,
                      r->table, r->protocol, r->metric);
        if (r->type != FPM_ROUTE_UNICAST) {
            ds_put_format(s, " %s", route_type_to_string(r->type));
        }
        if (r->rtm_flags & RTM_F_OFFLOAD) {
            ds_put_cstr(s, " offload");
        }
        if (r->rtm_flags & RTM_F_TRAP) {
            ds_put_cstr(s, " trap");
        }
        if (r->rtm_flags & RTM_F_OFFLOAD_FAILED) {
            ds_put_cstr(s, " offload-failed");
        }
        if (r->nhg_id) {
            ds_put_format(s, " nhid %"PRIu32, r->nhg_id);
        }
        for (i = 0; i < r->n_nexthops; i++) {
            const struct fpm_route_nh *nh = &r->nexthops[i];

            ds_put_cstr(s, " via ");
            fpm_addr_format(&nh->gateway, s);
            ds_put_format(s, " dev %"PRIu32" weight %u",
                          nh->ifindex, nh->weight);
        }
    } else if (msg->kind == FPM_MSG_NEXTHOP) {
        const struct fpm_nexthop *nh = &msg->nexthop;

        ds_put_format(s, "%s nexthop %"PRIu32,
                      nh->op == FPM_OP_ADD ? "add" : "del", nh->id);
        if (nh->op == FPM_OP_DEL) {
            return;
        }
        if (nh->n_members) {
            ds_put_cstr(s, " group ");
            for (i = 0; i < nh->n_members; i++) {
                ds_put_format(s, "%s%"PRIu32"/%u", i ? "," : "",
                              nh->members[i].id, nh->members[i].weight);
            }
        } else if (nh->blackhole) {
            ds_put_cstr(s, " blackhole");
        } else {
            ds_put_cstr(s, " via ");
            fpm_addr_format(&nh->gateway, s);
            ds_put_format(s, " dev %"PRIu32, nh->ifindex);
        }
        ds_put_format(s, " proto %u", nh->protocol);
    } else {
        ds_put_format(s, "skipped nlmsg type %u", msg->nlmsg_type);
    }
}

/* Maps 'ifindex' to an interface name in the caller's network namespace,
 * into 'buf' of 'size' bytes (IF_NAMESIZE is enough), falling back to
 * "if<N>" for an index that does not exist here.  Returns 'buf'. */
const char *
fpm_ifindex_to_name(uint32_t ifindex, char *buf, size_t size)
{
    char name[IF_NAMESIZE];

    if (ifindex && if_indextoname(ifindex, name)) {
        ovs_strlcpy(buf, name, size);
    } else {
        snprintf(buf, size, "if%"PRIu32, ifindex);
    }
    return buf;
}
