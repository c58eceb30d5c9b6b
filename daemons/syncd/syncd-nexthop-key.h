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

#ifndef SYNCD_NEXTHOP_KEY_H
#define SYNCD_NEXTHOP_KEY_H 1

/* syncd-nexthop-key: a route's next hops as its sources spell them, into
 * the apply step's 'struct syncd_nexthop' (daemons/syncd/syncd-apply.h).
 *
 * Both of syncd's sources name a next hop by a key, "GATEWAY@IFNAME",
 * "GATEWAY" or "@IFNAME" (a directly connected route), with a weight:
 * the OVSDB path in Asic_Route.nexthops (syncd-rows.c), the ZeroMQ fast
 * path in ROUTES entries (syncd-zmq.c).  Both check them here, so a next
 * hop one path refuses the other refuses too, with the same message.  The
 * key itself is lib/route-key.h's to parse; this adds the weight and the
 * SAI form.
 *
 * Thread safety: none needed; no state. */

#include <stddef.h>
#include <stdint.h>

#include "openvswitch/compiler.h"

struct syncd_nexthop;

char *syncd_nexthop_key_parse(const char *key, int64_t weight,
                              struct syncd_nexthop *)
    OVS_WARN_UNUSED_RESULT;
char *syncd_nexthop_key_check_set(const struct syncd_nexthop *, size_t n)
    OVS_WARN_UNUSED_RESULT;

#endif /* syncd-nexthop-key.h */
