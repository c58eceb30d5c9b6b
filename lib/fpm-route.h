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

#ifndef FPM_ROUTE_H
#define FPM_ROUTE_H 1

/* Netlink <-> route translation for the FPM stream.
 *
 * Decoding: fpm_msg_parse() turns one netlink message from a zebra FPM frame
 * (see lib/fpm-frame.h) into plain C structs:
 *
 *   - RTM_NEWROUTE / RTM_DELROUTE (AF_INET, AF_INET6) -> struct fpm_route:
 *     prefix, table, protocol, metric, route type (unicast, blackhole,
 *     unreachable, prohibit), and either inline nexthops (RTA_GATEWAY /
 *     RTA_VIA + RTA_OIF, or RTA_MULTIPATH with weights) or a next-hop object
 *     reference (RTA_NH_ID).
 *
 *   - RTM_NEWNEXTHOP / RTM_DELNEXTHOP -> struct fpm_nexthop: a single
 *     nexthop (gateway and/or ifindex, or blackhole) or a group (NHA_GROUP
 *     members with weights).  Group members are ids only, so a group may
 *     arrive before its members (zebra does that on a table replay).
 *
 * Anything else is "skipped" (FPM_MSG_SKIPPED), e.g. RTM_NEWLINK,
 * NLMSG_NOOP, MPLS routes.  A malformed message yields an error code for
 * that message and no output; it never aborts.
 *
 * The parser uses libnl-3's attribute helpers (nlmsg_parse(), nla_*()) on
 * the bytes in place: no allocation per message once the nexthop arrays of
 * a struct fpm_msg have grown to the widest ECMP seen.  libnl-route-3's
 * object parser (rtnl_route_parse()) is not used: it drops RTA_NH_ID, which
 * zebra uses for every route when next-hop groups are on, allocates several
 * objects per route, and libnl 3.7 has no RTM_*NEXTHOP object at all.
 *
 * Encoding, for the load generator and for offload replies to zebra, is
 * in lib/fpm-route-encode.h; text forms of messages and interface names
 * in lib/fpm-route-format.h. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlmsghdr;
struct ofpbuf;

/* Add or delete. */
enum fpm_op {
    FPM_OP_ADD,                 /* RTM_NEWROUTE / RTM_NEWNEXTHOP. */
    FPM_OP_DEL,                 /* RTM_DELROUTE / RTM_DELNEXTHOP. */
};

/* A binary IP prefix.  Bits past 'len' are zero (the parser refuses host
 * bits, as the kernel does). */
struct fpm_prefix {
    uint8_t family;             /* AF_INET or AF_INET6. */
    uint8_t len;                /* Prefix length, 0..32 or 0..128. */
    uint8_t addr[16];           /* Network byte order; IPv4 in the first 4
                                 * bytes, the rest zero. */
};

/* An IP address, e.g. a gateway. */
struct fpm_addr {
    uint8_t family;             /* AF_INET, AF_INET6, or 0 for none. */
    uint8_t addr[16];           /* Network byte order, as in
                                 * struct fpm_prefix. */
};

/* What a route does with matching packets (rtm_type). */
enum fpm_route_type {
    FPM_ROUTE_UNICAST,          /* RTN_UNICAST: forward via nexthops. */
    FPM_ROUTE_BLACKHOLE,        /* RTN_BLACKHOLE: drop silently. */
    FPM_ROUTE_UNREACHABLE,      /* RTN_UNREACHABLE: drop, ICMP unreachable. */
    FPM_ROUTE_PROHIBIT,         /* RTN_PROHIBIT: drop, ICMP prohibited. */
};

/* One path of a route with inline nexthops. */
struct fpm_route_nh {
    struct fpm_addr gateway;    /* RTA_GATEWAY or RTA_VIA; family 0 for an
                                 * interface-only (connected) path. */
    uint32_t ifindex;           /* RTA_OIF / rtnh_ifindex, 0 if none. */
    uint16_t weight;            /* 1..256: rtnh_hops + 1 (1 for a single
                                 * path). */
    uint8_t flags;              /* rtnh_flags (RTNH_F_ONLINK, ...). */
};

/* A route, from RTM_NEWROUTE or RTM_DELROUTE. */
struct fpm_route {
    enum fpm_op op;             /* Add or delete. */
    uint32_t table;             /* RTA_TABLE if present, else rtm_table;
                                 * 254 (RT_TABLE_MAIN) is the default VRF. */
    struct fpm_prefix prefix;   /* Destination prefix. */
    uint8_t protocol;           /* rtm_protocol: 186 BGP, 2 kernel, ... */
    enum fpm_route_type type;   /* Forward or one of the drop types. */
    uint32_t metric;            /* RTA_PRIORITY, 0 if absent. */
    uint32_t rtm_flags;         /* rtm_flags (RTM_F_OFFLOAD, ...). */
    uint16_t nlmsg_flags;       /* nlmsg_flags (NLM_F_REPLACE, ...). */
    uint32_t nhg_id;            /* RTA_NH_ID, 0 if the route carries inline
                                 * nexthops (or none). */
    size_t n_nexthops;          /* Number of elements in 'nexthops'. */
    struct fpm_route_nh *nexthops; /* Inline paths, in message order. */
    size_t allocated_nexthops;  /* Capacity of 'nexthops' (private). */
};

/* One member of a next-hop group. */
struct fpm_nhg_member {
    uint32_t id;                /* Member nexthop id. */
    uint16_t weight;            /* 1..256: nexthop_grp.weight + 1. */
};

/* A nexthop object, from RTM_NEWNEXTHOP or RTM_DELNEXTHOP.  Either a single
 * nexthop ('n_members' == 0) or a group ('n_members' > 0). */
struct fpm_nexthop {
    enum fpm_op op;             /* Add or delete. */
    uint32_t id;                /* NHA_ID (nonzero for an add). */
    uint8_t family;             /* nh_family: AF_INET/AF_INET6 for a
                                 * gateway nexthop, AF_UNSPEC for a group
                                 * or a blackhole. */
    uint8_t protocol;           /* nh_protocol. */
    uint32_t nh_flags;          /* nh_flags (RTNH_F_ONLINK, ...). */
    bool blackhole;             /* NHA_BLACKHOLE. */
    struct fpm_addr gateway;    /* NHA_GATEWAY; family 0 if absent. */
    uint32_t ifindex;           /* NHA_OIF, 0 if absent. */
    uint16_t group_type;        /* NHA_GROUP_TYPE (0: multipath). */
    size_t n_members;           /* Number of elements in 'members'. */
    struct fpm_nhg_member *members; /* NHA_GROUP entries. */
    size_t allocated_members;   /* Capacity of 'members' (private). */
};

/* What fpm_msg_parse() found in a message. */
enum fpm_msg_kind {
    FPM_MSG_ROUTE,              /* 'route' is valid. */
    FPM_MSG_NEXTHOP,            /* 'nexthop' is valid. */
    FPM_MSG_SKIPPED,            /* Not a message fibsync handles. */
};

/* Parse result, reusable across messages: keep one per connection so that
 * the nexthop arrays are allocated once. */
struct fpm_msg {
    enum fpm_msg_kind kind;     /* Which member below is valid. */
    uint16_t nlmsg_type;        /* The message's nlmsg_type. */
    uint32_t nlmsg_seq;         /* The message's nlmsg_seq. */
    struct fpm_route route;     /* Valid if kind == FPM_MSG_ROUTE. */
    struct fpm_nexthop nexthop; /* Valid if kind == FPM_MSG_NEXTHOP. */
};

/* Why a message was refused.  Positive, so that they can be returned like
 * errno values, but they are not errno values: print them with
 * fpm_parse_error_to_string(). */
enum fpm_parse_error {
    FPM_PARSE_OK = 0,
    FPM_PARSE_TRUNCATED = 1000, /* nlmsg_len shorter than the family
                                 * header. */
    FPM_PARSE_BAD_ATTR,         /* Attribute length runs past the message,
                                 * or bytes left over after the last one. */
    FPM_PARSE_BAD_ATTR_LEN,     /* Attribute too short for its type. */
    FPM_PARSE_BAD_FAMILY,       /* Address family not AF_INET/AF_INET6 where
                                 * one is required. */
    FPM_PARSE_BAD_PREFIXLEN,    /* Prefix length over the address size. */
    FPM_PARSE_HOST_BITS,        /* Prefix has bits set past its length. */
    FPM_PARSE_BAD_ADDR_LEN,     /* Address attribute of the wrong size. */
    FPM_PARSE_BAD_MULTIPATH,    /* Malformed RTA_MULTIPATH. */
    FPM_PARSE_BAD_GROUP,        /* Malformed NHA_GROUP. */
    FPM_PARSE_MISSING_ID,       /* RTM_NEWNEXTHOP without a nonzero
                                 * NHA_ID. */
    FPM_PARSE_CONFLICT,         /* Contradictory attributes (e.g. group
                                 * with gateway, NH_ID with inline
                                 * nexthops). */
    FPM_PARSE_TOO_MANY_NEXTHOPS, /* More than FPM_MAX_NEXTHOPS paths. */
};

/* Upper bound on paths in one route or members in one group.  Linux allows
 * 256 nexthops in a group; FRR's MULTIPATH_NUM is at most 256 too. */
#define FPM_MAX_NEXTHOPS 1024

const char *fpm_parse_error_to_string(int error);

void fpm_msg_init(struct fpm_msg *);
void fpm_msg_destroy(struct fpm_msg *);
int fpm_msg_parse(struct fpm_msg *, const struct nlmsghdr *);

/* Counters for fpm_route_parse_frame(). */
struct fpm_parse_stats {
    uint64_t n_frames;          /* Frames parsed. */
    uint64_t n_msgs;            /* Netlink messages seen. */
    uint64_t n_routes;          /* FPM_MSG_ROUTE results. */
    uint64_t n_nexthops;        /* FPM_MSG_NEXTHOP results. */
    uint64_t n_skipped;         /* FPM_MSG_SKIPPED results. */
    uint64_t n_errors;          /* Malformed messages. */
    uint64_t n_bad_frames;      /* Frames whose message chain could not be
                                 * split (tail of the frame dropped). */
};

/* Called by fpm_route_parse_frame() for each message: 'error' is 0 and
 * 'msg' is the result, or 'error' is an fpm_parse_error and 'nlh' is the
 * offending message ('msg' then holds nothing meaningful); 'nlh' is NULL
 * when the frame's chain of messages itself is broken. */
typedef void fpm_msg_cb(const struct fpm_msg *msg, int error,
                        const struct nlmsghdr *nlh, void *aux);

void fpm_route_parse_frame(const void *data, size_t size,
                           struct fpm_msg *scratch,
                           struct fpm_parse_stats *, fpm_msg_cb *, void *aux);

/* Messages parsed ahead of their handling, for a caller that looks a group
 * of routes up at a time (lib/hmap-prefetch.h): at a million routes each
 * lookup misses the cache twice, which a group hides. */
#define FPM_MSG_GROUP_SIZE 16
struct fpm_msg_group {
    struct fpm_msg msgs[FPM_MSG_GROUP_SIZE]; /* Parse results, in frame
                                              * order; reused. */
    int errors[FPM_MSG_GROUP_SIZE]; /* 0, or the fpm_parse_error of the
                                     * slot's message ('msgs[i]' holds
                                     * only its nlmsg_type then). */
    bool broken[FPM_MSG_GROUP_SIZE]; /* The frame's chain of messages
                                      * broke here: 'errors' is
                                      * FPM_PARSE_TRUNCATED and the rest
                                      * of that frame was dropped. */
    size_t n;                   /* Slots in use, 0..FPM_MSG_GROUP_SIZE. */
};

/* Called by fpm_route_parse_frame_grouped() with a full group: handles
 * 'g''s messages in order and empties it. */
typedef void fpm_msg_group_cb(struct fpm_msg_group *g, void *aux);

void fpm_msg_group_init(struct fpm_msg_group *);
void fpm_msg_group_destroy(struct fpm_msg_group *);
void fpm_route_parse_frame_grouped(const void *data, size_t size,
                                   struct fpm_msg_group *,
                                   struct fpm_parse_stats *,
                                   fpm_msg_group_cb *flush, void *aux);

/* Building routes and nexthops (for encoders and tests). */
void fpm_route_init(struct fpm_route *);
void fpm_route_destroy(struct fpm_route *);
void fpm_route_clear(struct fpm_route *);
struct fpm_route_nh *fpm_route_add_nexthop(struct fpm_route *);
void fpm_nexthop_init(struct fpm_nexthop *);
void fpm_nexthop_destroy(struct fpm_nexthop *);
void fpm_nexthop_clear(struct fpm_nexthop *);
struct fpm_nhg_member *fpm_nexthop_add_member(struct fpm_nexthop *);

/* The size of an address of a family (4, 16, or 0 for another). */
size_t fpm_family_addr_len(int family);

#endif /* fpm-route.h */
