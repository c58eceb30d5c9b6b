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

#ifndef SAI_H
#define SAI_H 1

/* A SAI-shaped API: the subset of the Switch Abstraction Interface that a
 * route pipeline needs, implemented by the simulator in asic-sim*.c.
 *
 * Names, types, status codes, call signatures and semantics follow SAI
 * (github.com/opencomputeproject/SAI, inc/sai*.h), so that code written
 * against this header reads like SONiC's syncd and orchagent: the caller
 * initializes the library with sai_api_initialize(), gets method tables
 * with sai_api_query(), creates a switch, and then creates virtual routers,
 * router interfaces, neighbors, next hops, next-hop groups and their
 * members, and route entries on it.
 *
 * This is a header written for fibsync, not a copy of SAI's: it declares
 * only what the simulator implements, and the numeric values of attribute
 * ids are the simulator's own (status codes, object types and API ids keep
 * SAI's values).  Simulator-specific extensions (lookups, dumps, resource
 * counters, fault injection, statistics) are in asic-sim.h; custom
 * attributes start at each object's *_CUSTOM_RANGE_START, as in SAI.
 *
 * IP addresses and masks in SAI structures are in network byte order.
 *
 * Thread safety: none.  The simulator is single-threaded: the caller must
 * serialize every call, on every switch, as syncd's main loop does. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Basic types -------------------------------------------------------- */

typedef int32_t sai_status_t;
typedef uint64_t sai_object_id_t;
typedef uint32_t sai_attr_id_t;
typedef uint8_t sai_mac_t[6];
typedef uint32_t sai_ip4_t;      /* Network byte order. */
typedef uint8_t sai_ip6_t[16];   /* Network byte order. */

#define SAI_NULL_OBJECT_ID 0

/* ---- Status codes (values as in SAI's saistatus.h) ---------------------- */

#define SAI_STATUS_CODE(S) (-(S))

#define SAI_STATUS_SUCCESS                  0
#define SAI_STATUS_FAILURE                  SAI_STATUS_CODE(0x01)
#define SAI_STATUS_NOT_SUPPORTED            SAI_STATUS_CODE(0x02)
#define SAI_STATUS_NO_MEMORY                SAI_STATUS_CODE(0x03)
#define SAI_STATUS_INSUFFICIENT_RESOURCES   SAI_STATUS_CODE(0x04)
#define SAI_STATUS_INVALID_PARAMETER        SAI_STATUS_CODE(0x05)
#define SAI_STATUS_ITEM_ALREADY_EXISTS      SAI_STATUS_CODE(0x06)
#define SAI_STATUS_ITEM_NOT_FOUND           SAI_STATUS_CODE(0x07)
#define SAI_STATUS_BUFFER_OVERFLOW          SAI_STATUS_CODE(0x08)
#define SAI_STATUS_INVALID_PORT_NUMBER      SAI_STATUS_CODE(0x09)
#define SAI_STATUS_INVALID_PORT_MEMBER      SAI_STATUS_CODE(0x0A)
#define SAI_STATUS_INVALID_VLAN_ID          SAI_STATUS_CODE(0x0B)
#define SAI_STATUS_UNINITIALIZED            SAI_STATUS_CODE(0x0C)
#define SAI_STATUS_TABLE_FULL               SAI_STATUS_CODE(0x0D)
#define SAI_STATUS_MANDATORY_ATTRIBUTE_MISSING SAI_STATUS_CODE(0x0E)
#define SAI_STATUS_NOT_IMPLEMENTED          SAI_STATUS_CODE(0x0F)
#define SAI_STATUS_ADDR_NOT_FOUND           SAI_STATUS_CODE(0x10)
#define SAI_STATUS_OBJECT_IN_USE            SAI_STATUS_CODE(0x11)
#define SAI_STATUS_INVALID_OBJECT_TYPE      SAI_STATUS_CODE(0x12)
#define SAI_STATUS_INVALID_OBJECT_ID        SAI_STATUS_CODE(0x13)
#define SAI_STATUS_INVALID_NV_STORAGE       SAI_STATUS_CODE(0x14)
#define SAI_STATUS_NV_STORAGE_FULL          SAI_STATUS_CODE(0x15)
#define SAI_STATUS_SW_UPGRADE_VERSION_MISMATCH SAI_STATUS_CODE(0x16)
#define SAI_STATUS_NOT_EXECUTED             SAI_STATUS_CODE(0x17)

/* Attribute errors: the offset from the *_0 code is the index, in the
 * attribute list passed to the call, of the offending attribute. */
#define SAI_STATUS_INVALID_ATTRIBUTE_0      SAI_STATUS_CODE(0x00010000)
#define SAI_STATUS_INVALID_ATTRIBUTE_MAX    SAI_STATUS_CODE(0x0001FFFF)
#define SAI_STATUS_INVALID_ATTR_VALUE_0     SAI_STATUS_CODE(0x00020000)
#define SAI_STATUS_INVALID_ATTR_VALUE_MAX   SAI_STATUS_CODE(0x0002FFFF)
#define SAI_STATUS_ATTR_NOT_IMPLEMENTED_0   SAI_STATUS_CODE(0x00030000)
#define SAI_STATUS_ATTR_NOT_IMPLEMENTED_MAX SAI_STATUS_CODE(0x0003FFFF)
#define SAI_STATUS_UNKNOWN_ATTRIBUTE_0      SAI_STATUS_CODE(0x00040000)
#define SAI_STATUS_UNKNOWN_ATTRIBUTE_MAX    SAI_STATUS_CODE(0x0004FFFF)
#define SAI_STATUS_ATTR_NOT_SUPPORTED_0     SAI_STATUS_CODE(0x00050000)
#define SAI_STATUS_ATTR_NOT_SUPPORTED_MAX   SAI_STATUS_CODE(0x0005FFFF)

/* The status code for attribute error 'BASE' (one of the *_0 codes above)
 * on the attribute at index 'INDEX' of the list. */
#define SAI_STATUS_ATTR_INDEX(BASE, INDEX) ((BASE) - (sai_status_t) (INDEX))

/* Evaluates to true if 'S' is in the range of attribute error 'BASE'. */
#define SAI_STATUS_IS_ATTR_ERROR(S, BASE) \
    ((S) <= (BASE) && (S) > (BASE) - 0x10000)

#define SAI_STATUS_IS_INVALID_ATTRIBUTE(S) \
    SAI_STATUS_IS_ATTR_ERROR(S, SAI_STATUS_INVALID_ATTRIBUTE_0)
#define SAI_STATUS_IS_INVALID_ATTR_VALUE(S) \
    SAI_STATUS_IS_ATTR_ERROR(S, SAI_STATUS_INVALID_ATTR_VALUE_0)
#define SAI_STATUS_IS_ATTR_NOT_IMPLEMENTED(S) \
    SAI_STATUS_IS_ATTR_ERROR(S, SAI_STATUS_ATTR_NOT_IMPLEMENTED_0)
#define SAI_STATUS_IS_UNKNOWN_ATTRIBUTE(S) \
    SAI_STATUS_IS_ATTR_ERROR(S, SAI_STATUS_UNKNOWN_ATTRIBUTE_0)
#define SAI_STATUS_IS_ATTR_NOT_SUPPORTED(S) \
    SAI_STATUS_IS_ATTR_ERROR(S, SAI_STATUS_ATTR_NOT_SUPPORTED_0)

/* ---- Enumerations ------------------------------------------------------- */

/* Object types (values as in SAI's saitypes.h).  Only those listed exist in
 * the simulator. */
typedef enum _sai_object_type_t {
    SAI_OBJECT_TYPE_NULL = 0,
    SAI_OBJECT_TYPE_PORT = 1,
    SAI_OBJECT_TYPE_VIRTUAL_ROUTER = 3,
    SAI_OBJECT_TYPE_NEXT_HOP = 4,
    SAI_OBJECT_TYPE_NEXT_HOP_GROUP = 5,
    SAI_OBJECT_TYPE_ROUTER_INTERFACE = 6,
    SAI_OBJECT_TYPE_SWITCH = 33,
    SAI_OBJECT_TYPE_NEIGHBOR_ENTRY = 36,
    SAI_OBJECT_TYPE_ROUTE_ENTRY = 37,
    SAI_OBJECT_TYPE_NEXT_HOP_GROUP_MEMBER = 45,
    SAI_OBJECT_TYPE_MAX = 46,
} sai_object_type_t;

/* API ids for sai_api_query() (values as in SAI's sai.h). */
typedef enum _sai_api_t {
    SAI_API_UNSPECIFIED = 0,
    SAI_API_SWITCH = 1,
    SAI_API_PORT = 2,
    SAI_API_VIRTUAL_ROUTER = 5,
    SAI_API_ROUTE = 6,
    SAI_API_NEXT_HOP = 7,
    SAI_API_NEXT_HOP_GROUP = 8,
    SAI_API_ROUTER_INTERFACE = 9,
    SAI_API_NEIGHBOR = 10,
} sai_api_t;

typedef enum _sai_ip_addr_family_t {
    SAI_IP_ADDR_FAMILY_IPV4,
    SAI_IP_ADDR_FAMILY_IPV6,
} sai_ip_addr_family_t;

typedef enum _sai_packet_action_t {
    SAI_PACKET_ACTION_DROP,     /* Drop the packet. */
    SAI_PACKET_ACTION_FORWARD,  /* Forward it. */
    SAI_PACKET_ACTION_COPY,     /* Forward and copy to the CPU. */
    SAI_PACKET_ACTION_COPY_CANCEL, /* Cancel a copy to the CPU. */
    SAI_PACKET_ACTION_TRAP,     /* Send to the CPU only. */
    SAI_PACKET_ACTION_LOG,      /* Forward and log (copy) to the CPU. */
    SAI_PACKET_ACTION_DENY,     /* Drop, cancelling any copy. */
    SAI_PACKET_ACTION_TRANSIT,  /* Forward, cancelling any drop. */
} sai_packet_action_t;

/* How a bulk call handles the failure of one object. */
typedef enum _sai_bulk_op_error_mode_t {
    /* Stop at the first failure: the objects after it are not attempted
     * and get SAI_STATUS_NOT_EXECUTED. */
    SAI_BULK_OP_ERROR_MODE_STOP_ON_ERROR,

    /* Attempt every object whatever the failures before it. */
    SAI_BULK_OP_ERROR_MODE_IGNORE_ERROR,
} sai_bulk_op_error_mode_t;

/* ---- Structures --------------------------------------------------------- */

typedef struct _sai_ip_address_t {
    sai_ip_addr_family_t addr_family;  /* Which member of 'addr' is used. */
    union {
        sai_ip4_t ip4;                 /* IPv4 address. */
        sai_ip6_t ip6;                 /* IPv6 address. */
    } addr;
} sai_ip_address_t;

/* An IP prefix as an address and a (contiguous) mask.  The simulator
 * rejects non-contiguous masks and host bits set beyond the mask. */
typedef struct _sai_ip_prefix_t {
    sai_ip_addr_family_t addr_family;  /* Which members are used. */
    union {
        sai_ip4_t ip4;                 /* IPv4 network address. */
        sai_ip6_t ip6;                 /* IPv6 network address. */
    } addr;
    union {
        sai_ip4_t ip4;                 /* IPv4 mask. */
        sai_ip6_t ip6;                 /* IPv6 mask. */
    } mask;
} sai_ip_prefix_t;

typedef struct _sai_object_list_t {
    uint32_t count;             /* In: capacity of 'list'; out: number. */
    sai_object_id_t *list;      /* Caller-allocated array. */
} sai_object_list_t;

/* An attribute's value: the member used is the one that the attribute's
 * documented type names. */
typedef union _sai_attribute_value_t {
    bool booldata;              /* bool. */
    uint8_t u8;                 /* uint8_t. */
    int8_t s8;                  /* int8_t. */
    uint16_t u16;               /* uint16_t. */
    int16_t s16;                /* int16_t. */
    uint32_t u32;               /* uint32_t. */
    int32_t s32;                /* int32_t, also for enumerations. */
    uint64_t u64;               /* uint64_t. */
    int64_t s64;                /* int64_t. */
    sai_mac_t mac;              /* MAC address. */
    sai_ip4_t ip4;              /* IPv4 address, network order. */
    sai_ip6_t ip6;              /* IPv6 address. */
    sai_ip_address_t ipaddr;    /* IP address of either family. */
    sai_ip_prefix_t ipprefix;   /* IP prefix. */
    sai_object_id_t oid;        /* Object id. */
    sai_object_list_t objlist;  /* List of object ids. */
} sai_attribute_value_t;

typedef struct _sai_attribute_t {
    sai_attr_id_t id;           /* An *_ATTR_* value of the object type. */
    sai_attribute_value_t value; /* Its value. */
} sai_attribute_t;

/* A route entry's key. */
typedef struct _sai_route_entry_t {
    sai_object_id_t switch_id;  /* The switch. */
    sai_object_id_t vr_id;      /* Its virtual router (VRF). */
    sai_ip_prefix_t destination; /* The destination prefix. */
} sai_route_entry_t;

/* A neighbor entry's key. */
typedef struct _sai_neighbor_entry_t {
    sai_object_id_t switch_id;  /* The switch. */
    sai_object_id_t rif_id;     /* The router interface it is reached by. */
    sai_ip_address_t ip_address; /* The neighbor's address. */
} sai_neighbor_entry_t;

/* ---- Attributes ------------------------------------------------------------
 *
 * Flags, as in SAI: MANDATORY_ON_CREATE, CREATE_ONLY (cannot be set),
 * CREATE_AND_SET, READ_ONLY (get only). */

typedef enum _sai_switch_attr_t {
    /* bool, CREATE_ONLY, default true: initialize the switch. */
    SAI_SWITCH_ATTR_INIT_SWITCH,

    /* uint32_t, READ_ONLY: number of front-panel ports. */
    SAI_SWITCH_ATTR_PORT_NUMBER,

    /* sai_object_list_t of PORT, READ_ONLY: the front-panel ports. */
    SAI_SWITCH_ATTR_PORT_LIST,

    /* PORT, READ_ONLY: the CPU port (NEXT_HOP_ID of IP2ME routes). */
    SAI_SWITCH_ATTR_CPU_PORT,

    /* VIRTUAL_ROUTER, READ_ONLY: created with the switch; cannot be
     * removed. */
    SAI_SWITCH_ATTR_DEFAULT_VIRTUAL_ROUTER_ID,

    /* sai_mac_t, CREATE_AND_SET: default source MAC of router
     * interfaces. */
    SAI_SWITCH_ATTR_SRC_MAC_ADDRESS,

    /* uint32_t, READ_ONLY: resources left, as read by SONiC's CRM.  The
     * simulator has a single next-hop table, so the IPv4 and IPv6 next-hop
     * values are the same number. */
    SAI_SWITCH_ATTR_AVAILABLE_IPV4_ROUTE_ENTRY,
    SAI_SWITCH_ATTR_AVAILABLE_IPV6_ROUTE_ENTRY,
    SAI_SWITCH_ATTR_AVAILABLE_IPV4_NEXTHOP_ENTRY,
    SAI_SWITCH_ATTR_AVAILABLE_IPV6_NEXTHOP_ENTRY,
    SAI_SWITCH_ATTR_AVAILABLE_IPV4_NEIGHBOR_ENTRY,
    SAI_SWITCH_ATTR_AVAILABLE_IPV6_NEIGHBOR_ENTRY,
    SAI_SWITCH_ATTR_AVAILABLE_NEXT_HOP_GROUP_ENTRY,
    SAI_SWITCH_ATTR_AVAILABLE_NEXT_HOP_GROUP_MEMBER_ENTRY,

    /* uint32_t, READ_ONLY: capacity of the next-hop group table. */
    SAI_SWITCH_ATTR_NUMBER_OF_ECMP_GROUPS,

    SAI_SWITCH_ATTR_END,
    SAI_SWITCH_ATTR_CUSTOM_RANGE_START = 0x10000000,
} sai_switch_attr_t;

typedef enum _sai_virtual_router_attr_t {
    /* bool, CREATE_AND_SET, default true: IPv4/IPv6 routing enabled.  When
     * false, lookups of that family in the VR miss. */
    SAI_VIRTUAL_ROUTER_ATTR_ADMIN_V4_STATE,
    SAI_VIRTUAL_ROUTER_ATTR_ADMIN_V6_STATE,

    /* sai_mac_t, CREATE_AND_SET, default the switch's. */
    SAI_VIRTUAL_ROUTER_ATTR_SRC_MAC_ADDRESS,

    SAI_VIRTUAL_ROUTER_ATTR_END,
    SAI_VIRTUAL_ROUTER_ATTR_CUSTOM_RANGE_START = 0x10000000,
} sai_virtual_router_attr_t;

typedef enum _sai_router_interface_type_t {
    SAI_ROUTER_INTERFACE_TYPE_PORT,     /* On a port (PORT_ID). */
    SAI_ROUTER_INTERFACE_TYPE_VLAN,     /* On a VLAN (VLAN_ID). */
    SAI_ROUTER_INTERFACE_TYPE_LOOPBACK, /* Loopback. */
} sai_router_interface_type_t;

typedef enum _sai_router_interface_attr_t {
    /* VIRTUAL_ROUTER, MANDATORY_ON_CREATE | CREATE_ONLY. */
    SAI_ROUTER_INTERFACE_ATTR_VIRTUAL_ROUTER_ID,

    /* sai_router_interface_type_t, MANDATORY_ON_CREATE | CREATE_ONLY. */
    SAI_ROUTER_INTERFACE_ATTR_TYPE,

    /* PORT, MANDATORY_ON_CREATE for TYPE_PORT | CREATE_ONLY. */
    SAI_ROUTER_INTERFACE_ATTR_PORT_ID,

    /* sai_object_id_t, MANDATORY_ON_CREATE for TYPE_VLAN | CREATE_ONLY.
     * The simulator has no VLAN objects: any nonnull value is taken. */
    SAI_ROUTER_INTERFACE_ATTR_VLAN_ID,

    /* sai_mac_t, CREATE_AND_SET, default the VR's. */
    SAI_ROUTER_INTERFACE_ATTR_SRC_MAC_ADDRESS,

    /* bool, CREATE_AND_SET, default true. */
    SAI_ROUTER_INTERFACE_ATTR_ADMIN_V4_STATE,
    SAI_ROUTER_INTERFACE_ATTR_ADMIN_V6_STATE,

    /* uint32_t, CREATE_AND_SET, default 1514. */
    SAI_ROUTER_INTERFACE_ATTR_MTU,

    SAI_ROUTER_INTERFACE_ATTR_END,
    SAI_ROUTER_INTERFACE_ATTR_CUSTOM_RANGE_START = 0x10000000,
} sai_router_interface_attr_t;

typedef enum _sai_neighbor_entry_attr_t {
    /* sai_mac_t, MANDATORY_ON_CREATE | CREATE_AND_SET. */
    SAI_NEIGHBOR_ENTRY_ATTR_DST_MAC_ADDRESS,

    /* sai_packet_action_t, CREATE_AND_SET, default FORWARD. */
    SAI_NEIGHBOR_ENTRY_ATTR_PACKET_ACTION,

    /* bool, CREATE_ONLY, default false.  Stored only: the simulator never
     * adds host routes for neighbors. */
    SAI_NEIGHBOR_ENTRY_ATTR_NO_HOST_ROUTE,

    SAI_NEIGHBOR_ENTRY_ATTR_END,
    SAI_NEIGHBOR_ENTRY_ATTR_CUSTOM_RANGE_START = 0x10000000,
} sai_neighbor_entry_attr_t;

typedef enum _sai_next_hop_type_t {
    SAI_NEXT_HOP_TYPE_IP,       /* The only type the simulator supports. */
    SAI_NEXT_HOP_TYPE_MPLS,
    SAI_NEXT_HOP_TYPE_TUNNEL_ENCAP,
} sai_next_hop_type_t;

typedef enum _sai_next_hop_attr_t {
    /* sai_next_hop_type_t, MANDATORY_ON_CREATE | CREATE_ONLY. */
    SAI_NEXT_HOP_ATTR_TYPE,

    /* sai_ip_address_t, MANDATORY_ON_CREATE | CREATE_ONLY. */
    SAI_NEXT_HOP_ATTR_IP,

    /* ROUTER_INTERFACE, MANDATORY_ON_CREATE | CREATE_ONLY. */
    SAI_NEXT_HOP_ATTR_ROUTER_INTERFACE_ID,

    SAI_NEXT_HOP_ATTR_END,
    SAI_NEXT_HOP_ATTR_CUSTOM_RANGE_START = 0x10000000,
} sai_next_hop_attr_t;

typedef enum _sai_next_hop_group_type_t {
    SAI_NEXT_HOP_GROUP_TYPE_DYNAMIC_UNORDERED_ECMP,
    SAI_NEXT_HOP_GROUP_TYPE_DYNAMIC_ORDERED_ECMP,
    SAI_NEXT_HOP_GROUP_TYPE_FINE_GRAIN_ECMP,
    SAI_NEXT_HOP_GROUP_TYPE_PROTECTION,
    SAI_NEXT_HOP_GROUP_TYPE_ECMP
        = SAI_NEXT_HOP_GROUP_TYPE_DYNAMIC_UNORDERED_ECMP,
} sai_next_hop_group_type_t;

typedef enum _sai_next_hop_group_attr_t {
    /* uint32_t, READ_ONLY: number of members. */
    SAI_NEXT_HOP_GROUP_ATTR_NEXT_HOP_COUNT,

    /* sai_object_list_t of NEXT_HOP_GROUP_MEMBER, READ_ONLY. */
    SAI_NEXT_HOP_GROUP_ATTR_NEXT_HOP_MEMBER_LIST,

    /* sai_next_hop_group_type_t, MANDATORY_ON_CREATE | CREATE_ONLY.  Only
     * the two dynamic ECMP types are supported. */
    SAI_NEXT_HOP_GROUP_ATTR_TYPE,

    SAI_NEXT_HOP_GROUP_ATTR_END,
    SAI_NEXT_HOP_GROUP_ATTR_CUSTOM_RANGE_START = 0x10000000,
} sai_next_hop_group_attr_t;

typedef enum _sai_next_hop_group_member_attr_t {
    /* NEXT_HOP_GROUP, MANDATORY_ON_CREATE | CREATE_ONLY. */
    SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_GROUP_ID,

    /* NEXT_HOP, MANDATORY_ON_CREATE | CREATE_AND_SET. */
    SAI_NEXT_HOP_GROUP_MEMBER_ATTR_NEXT_HOP_ID,

    /* uint32_t, CREATE_AND_SET, default 1, must be at least 1. */
    SAI_NEXT_HOP_GROUP_MEMBER_ATTR_WEIGHT,

    SAI_NEXT_HOP_GROUP_MEMBER_ATTR_END,
    SAI_NEXT_HOP_GROUP_MEMBER_ATTR_CUSTOM_RANGE_START = 0x10000000,
} sai_next_hop_group_member_attr_t;

typedef enum _sai_route_entry_attr_t {
    /* sai_packet_action_t, CREATE_AND_SET, default FORWARD. */
    SAI_ROUTE_ENTRY_ATTR_PACKET_ACTION,

    /* sai_object_id_t, CREATE_AND_SET.  Not supported by the simulator
     * (SAI_STATUS_ATTR_NOT_SUPPORTED_0 + index) unless null. */
    SAI_ROUTE_ENTRY_ATTR_USER_TRAP_ID,

    /* NEXT_HOP, NEXT_HOP_GROUP, ROUTER_INTERFACE (directly connected
     * subnet) or PORT (the CPU port: IP2ME route), CREATE_AND_SET, default
     * SAI_NULL_OBJECT_ID (drop).  Used only when the action forwards. */
    SAI_ROUTE_ENTRY_ATTR_NEXT_HOP_ID,

    /* uint32_t, CREATE_AND_SET.  Not supported unless 0. */
    SAI_ROUTE_ENTRY_ATTR_META_DATA,

    /* sai_ip_addr_family_t, READ_ONLY. */
    SAI_ROUTE_ENTRY_ATTR_IP_ADDR_FAMILY,

    SAI_ROUTE_ENTRY_ATTR_END,
    SAI_ROUTE_ENTRY_ATTR_CUSTOM_RANGE_START = 0x10000000,
} sai_route_entry_attr_t;

/* ---- Method tables ---------------------------------------------------------
 *
 * Every create/remove/set/get follows SAI's conventions: create returns the
 * new object's id in its first argument; get fills in the values of the
 * attributes whose ids the caller put in 'attr_list'; errors on one
 * attribute use the *_0 codes plus its index.  Bulk calls take one status
 * per object and return SAI_STATUS_SUCCESS if every object succeeded,
 * otherwise SAI_STATUS_FAILURE (the caller then reads the statuses). */

typedef sai_status_t (*sai_create_object_fn)(
    sai_object_id_t *object_id, sai_object_id_t switch_id,
    uint32_t attr_count, const sai_attribute_t *attr_list);
typedef sai_status_t (*sai_remove_object_fn)(sai_object_id_t object_id);
typedef sai_status_t (*sai_set_object_attribute_fn)(
    sai_object_id_t object_id, const sai_attribute_t *attr);
typedef sai_status_t (*sai_get_object_attribute_fn)(
    sai_object_id_t object_id, uint32_t attr_count,
    sai_attribute_t *attr_list);

typedef sai_status_t (*sai_bulk_object_create_fn)(
    sai_object_id_t switch_id, uint32_t object_count,
    const uint32_t *attr_count, const sai_attribute_t **attr_list,
    sai_bulk_op_error_mode_t mode, sai_object_id_t *object_id,
    sai_status_t *object_statuses);
typedef sai_status_t (*sai_bulk_object_remove_fn)(
    uint32_t object_count, const sai_object_id_t *object_id,
    sai_bulk_op_error_mode_t mode, sai_status_t *object_statuses);

/* Switch. */
typedef sai_status_t (*sai_create_switch_fn)(
    sai_object_id_t *switch_id, uint32_t attr_count,
    const sai_attribute_t *attr_list);

typedef struct _sai_switch_api_t {
    sai_create_switch_fn create_switch;
    sai_remove_object_fn remove_switch;
    sai_set_object_attribute_fn set_switch_attribute;
    sai_get_object_attribute_fn get_switch_attribute;
} sai_switch_api_t;

typedef struct _sai_virtual_router_api_t {
    sai_create_object_fn create_virtual_router;
    sai_remove_object_fn remove_virtual_router;
    sai_set_object_attribute_fn set_virtual_router_attribute;
    sai_get_object_attribute_fn get_virtual_router_attribute;
} sai_virtual_router_api_t;

typedef struct _sai_router_interface_api_t {
    sai_create_object_fn create_router_interface;
    sai_remove_object_fn remove_router_interface;
    sai_set_object_attribute_fn set_router_interface_attribute;
    sai_get_object_attribute_fn get_router_interface_attribute;
} sai_router_interface_api_t;

typedef struct _sai_next_hop_api_t {
    sai_create_object_fn create_next_hop;
    sai_remove_object_fn remove_next_hop;
    sai_set_object_attribute_fn set_next_hop_attribute;
    sai_get_object_attribute_fn get_next_hop_attribute;
} sai_next_hop_api_t;

typedef struct _sai_next_hop_group_api_t {
    sai_create_object_fn create_next_hop_group;
    sai_remove_object_fn remove_next_hop_group;
    sai_set_object_attribute_fn set_next_hop_group_attribute;
    sai_get_object_attribute_fn get_next_hop_group_attribute;
    sai_create_object_fn create_next_hop_group_member;
    sai_remove_object_fn remove_next_hop_group_member;
    sai_set_object_attribute_fn set_next_hop_group_member_attribute;
    sai_get_object_attribute_fn get_next_hop_group_member_attribute;
    sai_bulk_object_create_fn create_next_hop_group_members;
    sai_bulk_object_remove_fn remove_next_hop_group_members;
} sai_next_hop_group_api_t;

/* Neighbor entries. */
typedef sai_status_t (*sai_create_neighbor_entry_fn)(
    const sai_neighbor_entry_t *neighbor_entry, uint32_t attr_count,
    const sai_attribute_t *attr_list);
typedef sai_status_t (*sai_remove_neighbor_entry_fn)(
    const sai_neighbor_entry_t *neighbor_entry);
typedef sai_status_t (*sai_set_neighbor_entry_attribute_fn)(
    const sai_neighbor_entry_t *neighbor_entry, const sai_attribute_t *attr);
typedef sai_status_t (*sai_get_neighbor_entry_attribute_fn)(
    const sai_neighbor_entry_t *neighbor_entry, uint32_t attr_count,
    sai_attribute_t *attr_list);

typedef struct _sai_neighbor_api_t {
    sai_create_neighbor_entry_fn create_neighbor_entry;
    sai_remove_neighbor_entry_fn remove_neighbor_entry;
    sai_set_neighbor_entry_attribute_fn set_neighbor_entry_attribute;
    sai_get_neighbor_entry_attribute_fn get_neighbor_entry_attribute;
} sai_neighbor_api_t;

/* Route entries. */
typedef sai_status_t (*sai_create_route_entry_fn)(
    const sai_route_entry_t *route_entry, uint32_t attr_count,
    const sai_attribute_t *attr_list);
typedef sai_status_t (*sai_remove_route_entry_fn)(
    const sai_route_entry_t *route_entry);
typedef sai_status_t (*sai_set_route_entry_attribute_fn)(
    const sai_route_entry_t *route_entry, const sai_attribute_t *attr);
typedef sai_status_t (*sai_get_route_entry_attribute_fn)(
    const sai_route_entry_t *route_entry, uint32_t attr_count,
    sai_attribute_t *attr_list);

/* Bulk route calls: 'route_entry' has 'object_count' keys, 'attr_count' and
 * 'attr_list' one element per key, and 'object_statuses' receives one
 * status per key.  The set call takes exactly one attribute per key. */
typedef sai_status_t (*sai_bulk_create_route_entry_fn)(
    uint32_t object_count, const sai_route_entry_t *route_entry,
    const uint32_t *attr_count, const sai_attribute_t **attr_list,
    sai_bulk_op_error_mode_t mode, sai_status_t *object_statuses);
typedef sai_status_t (*sai_bulk_remove_route_entry_fn)(
    uint32_t object_count, const sai_route_entry_t *route_entry,
    sai_bulk_op_error_mode_t mode, sai_status_t *object_statuses);
typedef sai_status_t (*sai_bulk_set_route_entry_attribute_fn)(
    uint32_t object_count, const sai_route_entry_t *route_entry,
    const sai_attribute_t *attr_list, sai_bulk_op_error_mode_t mode,
    sai_status_t *object_statuses);
typedef sai_status_t (*sai_bulk_get_route_entry_attribute_fn)(
    uint32_t object_count, const sai_route_entry_t *route_entry,
    const uint32_t *attr_count, sai_attribute_t **attr_list,
    sai_bulk_op_error_mode_t mode, sai_status_t *object_statuses);

typedef struct _sai_route_api_t {
    sai_create_route_entry_fn create_route_entry;
    sai_remove_route_entry_fn remove_route_entry;
    sai_set_route_entry_attribute_fn set_route_entry_attribute;
    sai_get_route_entry_attribute_fn get_route_entry_attribute;
    sai_bulk_create_route_entry_fn create_route_entries;
    sai_bulk_remove_route_entry_fn remove_route_entries;
    sai_bulk_set_route_entry_attribute_fn set_route_entries_attribute;
    sai_bulk_get_route_entry_attribute_fn get_route_entries_attribute;
} sai_route_api_t;

/* ---- Library entry points ----------------------------------------------- */

/* Optional services the adapter host provides.  The simulator needs none;
 * the argument exists for SAI compatibility. */
typedef struct _sai_service_method_table_t {
    /* Returns the value of profile variable 'variable', or NULL. */
    const char *(*profile_get_value)(uint32_t profile_id,
                                     const char *variable);
} sai_service_method_table_t;

sai_status_t sai_api_initialize(uint64_t flags,
                                const sai_service_method_table_t *);
sai_status_t sai_api_uninitialize(void);
sai_status_t sai_api_query(sai_api_t, void **api_method_table);
sai_object_type_t sai_object_type_query(sai_object_id_t);
sai_object_id_t sai_switch_id_query(sai_object_id_t);

#endif /* sai.h */
