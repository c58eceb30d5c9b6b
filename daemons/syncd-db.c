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

#include "daemons/syncd-db.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "asic-sim/sai-util.h"
#include "daemons/syncd-apply.h"
#include "coverage.h"
#include "hash.h"
#include "jsonrpc.h"
#include "lib/fib-prefix.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "ovsdb-error.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(syncd_db);

COVERAGE_DEFINE(syncd_db_update);
COVERAGE_DEFINE(syncd_db_row_insert);
COVERAGE_DEFINE(syncd_db_row_modify);
COVERAGE_DEFINE(syncd_db_row_delete);
COVERAGE_DEFINE(syncd_db_bad_row);
COVERAGE_DEFINE(syncd_db_wb_txn);
COVERAGE_DEFINE(syncd_db_wb_row);
COVERAGE_DEFINE(syncd_db_wb_skipped);
COVERAGE_DEFINE(syncd_db_wb_error);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

#define DB_NAME "Fibsync"
#define TABLE "Asic_Route"

/* Status code (see syncd_status_code()) of a row that could not be used
 * at all; its message is in 'db->bad_msgs'. */
#define CODE_BAD 0xff

/* Row flags. */
#define ROW_NO_ROUTE   0x01     /* No route was submitted for the row's
                                 * (vrf, prefix): a new or bad row, or one
                                 * whose old key was already removed. */
#define ROW_BAD        0x02     /* The row is bad. */
#define ROW_SEEN       0x04     /* Seen in the current resynchronization. */
#define ROW_WB_PENDING 0x08     /* Outcome to be written back. */
#define ROW_IN_SYNC    0x10     /* The database holds state=programmed,
                                 * applied_seq=seq for this row. */
#define ROW_ERROR_SET  0x20     /* The database row may hold an error
                                 * message: a write-back of "programmed"
                                 * must clear it. */

/* A monitored Asic_Route row: 64 bytes. */
struct sdb_row {
    struct hmap_node node;      /* In 'db->rows', by uuid_hash(). */
    struct uuid uuid;           /* The row's _uuid. */
    int64_t seq;                /* The 'seq' last submitted. */
    struct fib_prefix prefix;   /* Its prefix (unless ROW_NO_ROUTE). */
    uint16_t vrf;               /* Its VRF, an index in 'db->vrf_names'. */
    uint8_t flags;              /* ROW_*. */
    uint8_t wb_code;            /* Latest outcome: a syncd_status_code() or
                                 * CODE_BAD. */
};
BUILD_ASSERT_DECL(sizeof(struct sdb_row) <= 64);

/* A VRF name, interned. */
struct sdb_vrf {
    struct hmap_node node;      /* In 'db->vrfs', by name. */
    uint16_t index;             /* Index in 'db->vrf_names'. */
};

/* The message of a bad row. */
struct sdb_bad_msg {
    struct hmap_node node;      /* In 'db->bad_msgs', by uuid_hash(). */
    struct uuid uuid;           /* The row. */
    char *msg;                  /* Why it is bad. */
};

/* An applied_seq read from the database at start. */
struct sdb_snap {
    struct hmap_node node;      /* In 'db->snap', by uuid_hash(). */
    struct uuid uuid;           /* The row. */
    int64_t applied_seq;        /* Its applied_seq (state programmed). */
};

/* An update being processed. */
struct sdb_event {
    struct ovs_list node;       /* In 'db->events'. */
    struct ovsdb_cs_event *event; /* Owns the JSON. */
    struct ovsdb_cs_db_update *du;  /* Parsed update. */
    const struct ovsdb_cs_table_update *tu; /* Asic_Route, or NULL. */
    bool clear;                 /* Replaces everything known? */
    bool started;               /* Processing begun? */
    int phase;                  /* 0: removals, 1: the rest. */
    size_t cursor;              /* Next row update of 'tu' in 'phase'. */
    long long int received;     /* When it was received (msec). */
};

/* One row of a write-back transaction. */
struct wb_entry {
    struct uuid uuid;           /* The row. */
    int64_t seq;                /* The applied_seq written. */
    uint8_t code;               /* The outcome written. */
};

/* A write-back transaction outstanding. */
struct wb_txn {
    struct ovs_list node;       /* In 'db->wb_txns'. */
    struct json *id;            /* Its JSON-RPC id. */
    struct wb_entry *entries;   /* Its rows. */
    size_t n;                   /* Number of 'entries'. */
};

/* State of the start-up read of applied_seq. */
enum snap_state {
    SNAP_NONE,                  /* Not sent yet. */
    SNAP_SENT,                  /* Sent, waiting for the reply. */
    SNAP_DONE,                  /* Reply processed (or failed). */
};

struct syncd_db {
    struct syncd_apply *apply;  /* Where operations go. */
    char *remote;               /* Database remote. */
    uint32_t wb_batch;          /* Rows per write-back transaction. */
    uint32_t wb_inflight;       /* Transactions outstanding at most. */
    uint32_t budget;            /* Row updates processed per run. */
    bool no_write_back;         /* Write-back disabled? */

    /* Reading. */
    struct ovsdb_cs *cs;        /* The monitor. */
    struct ovs_list events;     /* "struct sdb_event"s to process. */
    size_t backlog;             /* Row updates in 'events' unprocessed. */
    struct hmap rows;           /* "struct sdb_row"s by uuid. */
    struct hmap vrfs;           /* "struct sdb_vrf"s by name. */
    char **vrf_names;           /* VRF names by index. */
    size_t n_vrfs, allocated_vrfs; /* Their number, capacity. */
    struct hmap bad_msgs;       /* "struct sdb_bad_msg"s by uuid. */
    struct syncd_nexthop *nh_buf; /* Next hops being parsed. */
    size_t allocated_nh_buf;    /* Capacity of 'nh_buf'. */
    bool initial_done;          /* First monitor contents processed? */

    /* Writing back. */
    struct jsonrpc_session *wb; /* Write-back connection. */
    unsigned int wb_seqno;      /* Its last seen connection seqno. */
    struct uuid *wb_fifo;       /* Rows whose outcome to write, oldest
                                 * first, from 'wb_head'. */
    size_t wb_head, wb_n, wb_allocated; /* First unconsumed, number,
                                         * capacity. */
    struct ovs_list wb_txns;    /* "struct wb_txn"s outstanding. */
    size_t n_wb_txns;           /* Length of 'wb_txns'. */
    enum snap_state snap_state; /* Start-up read of applied_seq. */
    struct json *snap_id;       /* Its JSON-RPC id, if SNAP_SENT. */
    struct hmap snap;           /* "struct sdb_snap"s not yet matched. */

    struct syncd_db_stats stats; /* Counters (some computed on demand). */
};

/* ---- Rows --------------------------------------------------------------- */

static struct sdb_row *
row_find(const struct syncd_db *db, const struct uuid *uuid)
{
    struct sdb_row *row;

    HMAP_FOR_EACH_WITH_HASH (row, node, uuid_hash(uuid), &db->rows) {
        if (uuid_equals(&row->uuid, uuid)) {
            return row;
        }
    }
    return NULL;
}

static void
row_set_in_sync(struct syncd_db *db, struct sdb_row *row, bool in_sync)
{
    if (in_sync && !(row->flags & ROW_IN_SYNC)) {
        row->flags |= ROW_IN_SYNC;
        db->stats.in_sync++;
    } else if (!in_sync && row->flags & ROW_IN_SYNC) {
        row->flags &= ~ROW_IN_SYNC;
        db->stats.in_sync--;
    }
}

static void
row_clear_wb(struct syncd_db *db, struct sdb_row *row)
{
    if (row->flags & ROW_WB_PENDING) {
        row->flags &= ~ROW_WB_PENDING;
        db->stats.wb_pending--;
    }
}

/* Queues the write-back of 'row''s outcome 'code'. */
static void
row_mark_wb(struct syncd_db *db, struct sdb_row *row, uint8_t code)
{
    row->wb_code = code;
    row_set_in_sync(db, row, false);
    if (db->no_write_back) {
        return;
    }
    if (!(row->flags & ROW_WB_PENDING)) {
        row->flags |= ROW_WB_PENDING;
        db->stats.wb_pending++;
        if (db->wb_n >= db->wb_allocated) {
            if (db->wb_head > db->wb_n / 2) {
                /* Reclaim the consumed front. */
                memmove(db->wb_fifo, &db->wb_fifo[db->wb_head],
                        (db->wb_n - db->wb_head) * sizeof *db->wb_fifo);
                db->wb_n -= db->wb_head;
                db->wb_head = 0;
            } else {
                db->wb_fifo = x2nrealloc(db->wb_fifo, &db->wb_allocated,
                                         sizeof *db->wb_fifo);
            }
        }
        db->wb_fifo[db->wb_n++] = row->uuid;
    }
}

static struct sdb_bad_msg *
bad_msg_find(const struct syncd_db *db, const struct uuid *uuid)
{
    struct sdb_bad_msg *bm;

    HMAP_FOR_EACH_WITH_HASH (bm, node, uuid_hash(uuid), &db->bad_msgs) {
        if (uuid_equals(&bm->uuid, uuid)) {
            return bm;
        }
    }
    return NULL;
}

/* Marks 'row' good, forgetting any bad-row message. */
static void
row_set_good(struct syncd_db *db, struct sdb_row *row)
{
    if (row->flags & ROW_BAD) {
        struct sdb_bad_msg *bm = bad_msg_find(db, &row->uuid);

        row->flags &= ~ROW_BAD;
        db->stats.bad_rows--;
        if (bm) {
            hmap_remove(&db->bad_msgs, &bm->node);
            free(bm->msg);
            free(bm);
        }
    }
}

/* Marks 'row' bad for reason 'msg' (taking it) and queues its write-back. */
static void
row_set_bad(struct syncd_db *db, struct sdb_row *row, char *msg)
{
    struct sdb_bad_msg *bm = bad_msg_find(db, &row->uuid);

    if (!(row->flags & ROW_BAD)) {
        row->flags |= ROW_BAD;
        db->stats.bad_rows++;
    }
    db->stats.bad_total++;
    COVERAGE_INC(syncd_db_bad_row);
    VLOG_WARN_RL(&rl, "Asic_Route row "UUID_FMT": %s",
                 UUID_ARGS(&row->uuid), msg);
    if (!bm) {
        bm = xmalloc(sizeof *bm);
        bm->uuid = row->uuid;
        hmap_insert(&db->bad_msgs, &bm->node, uuid_hash(&row->uuid));
    } else {
        free(bm->msg);
    }
    bm->msg = msg;
    row_mark_wb(db, row, CODE_BAD);
}

/* Submits the removal of 'row''s route, if it has one. */
static void
row_remove_route(struct syncd_db *db, struct sdb_row *row)
{
    if (!(row->flags & ROW_NO_ROUTE)) {
        struct syncd_route_op op = {
            .type = SYNCD_OP_DEL,
            .vrf = db->vrf_names[row->vrf],
            .prefix = row->prefix,
            .origin = row->uuid,
            .seq = row->seq,
        };

        row->flags |= ROW_NO_ROUTE;
        syncd_apply_submit(db->apply, &op);
    }
}

/* Forgets 'row', removing its route. */
static void
row_destroy(struct syncd_db *db, struct sdb_row *row)
{
    row_remove_route(db, row);
    row_set_good(db, row);
    row_set_in_sync(db, row, false);
    row_clear_wb(db, row);
    hmap_remove(&db->rows, &row->node);
    free(row);
}

/* Returns the index of VRF 'name', interning it. */
static uint16_t
vrf_intern(struct syncd_db *db, const char *name, bool *overflow)
{
    uint32_t hash = hash_string(name, 0);
    struct sdb_vrf *v;

    *overflow = false;
    HMAP_FOR_EACH_WITH_HASH (v, node, hash, &db->vrfs) {
        if (!strcmp(db->vrf_names[v->index], name)) {
            return v->index;
        }
    }
    if (db->n_vrfs >= UINT16_MAX) {
        *overflow = true;
        return 0;
    }
    v = xmalloc(sizeof *v);
    v->index = db->n_vrfs;
    hmap_insert(&db->vrfs, &v->node, hash);
    if (db->n_vrfs >= db->allocated_vrfs) {
        db->vrf_names = x2nrealloc(db->vrf_names, &db->allocated_vrfs,
                                   sizeof *db->vrf_names);
    }
    db->vrf_names[db->n_vrfs++] = xstrdup(name);
    return v->index;
}

/* ---- Parsing rows ------------------------------------------------------- */

/* A row's columns, parsed. */
struct sdb_parsed {
    const char *vrf;            /* VRF name (in the JSON). */
    uint16_t vrf_index;         /* Interned. */
    struct fib_prefix prefix;   /* Prefix. */
    sai_packet_action_t action; /* packet_action. */
    size_t n_nexthops;          /* Next hops, in 'db->nh_buf'. */
    int64_t seq;                /* seq. */
    bool has_seq;               /* Was 'seq' parsed? */
};

static const struct json *
column(const struct shash *columns, const char *name, enum json_type type)
{
    const struct json *j = shash_find_data(columns, name);

    return j && j->type == type ? j : NULL;
}

/* Parses the VRF and prefix of 'columns' into 'p'.  Returns NULL or an
 * error message for the caller to free. */
static char *
parse_key(struct syncd_db *db, const struct shash *columns,
          struct sdb_parsed *p)
{
    const struct json *vrf = column(columns, "vrf", JSON_STRING);
    const struct json *prefix = column(columns, "prefix", JSON_STRING);
    bool overflow;

    if (!vrf) {
        return xstrdup("missing vrf");
    } else if (!json_string(vrf)[0]) {
        return xstrdup("empty vrf name");
    }
    p->vrf = json_string(vrf);
    if (!prefix) {
        return xstrdup("missing prefix");
    }

    char *error = fib_prefix_parse_strict(json_string(prefix), &p->prefix);
    if (error) {
        char *msg = xasprintf("bad prefix (%s)", error);
        free(error);
        return msg;
    }
    p->vrf_index = vrf_intern(db, p->vrf, &overflow);
    if (overflow) {
        return xstrdup("too many VRFs");
    }
    return NULL;
}

/* Parses one next-hop key of the nexthops column ("GATEWAY@IFNAME",
 * "GATEWAY" or "@IFNAME") into 'nh'.  Returns NULL or an error message. */
static char *
parse_nexthop(const char *key, struct syncd_nexthop *nh)
{
    const char *at = strchr(key, '@');
    size_t gw_len = at ? (size_t) (at - key) : strlen(key);

    memset(nh, 0, sizeof *nh);
    nh->ifname = "";
    if (at) {
        const char *ifname = at + 1;
        size_t len = strlen(ifname);

        if (!len) {
            return xasprintf("bad next hop \"%s\": empty interface name",
                             key);
        } else if (len > 64) {
            return xasprintf("bad next hop \"%s\": interface name too long",
                             key);
        }
        for (const char *c = ifname; *c; c++) {
            if (isspace((unsigned char) *c) || *c == '/' || *c == '@') {
                return xasprintf("bad next hop \"%s\": bad interface name",
                                 key);
            }
        }
        nh->ifname = ifname;
    }
    if (gw_len) {
        char buf[INET6_ADDRSTRLEN];

        if (gw_len >= sizeof buf) {
            return xasprintf("bad next hop \"%s\": bad gateway address",
                             key);
        }
        memcpy(buf, key, gw_len);
        buf[gw_len] = '\0';
        if (!sai_util_ip_address_parse(buf, &nh->gateway)) {
            return xasprintf("bad next hop \"%s\": bad gateway address",
                             key);
        }
        nh->has_gateway = true;
    } else if (!at) {
        return xstrdup("bad next hop \"\": empty key");
    }
    return NULL;
}

/* Parses every column of 'columns' into 'p' (next hops into
 * 'db->nh_buf').  Returns NULL or an error message for the caller to
 * free. */
static char *
parse_row(struct syncd_db *db, const struct shash *columns,
          struct sdb_parsed *p)
{
    memset(p, 0, sizeof *p);

    const struct json *seq = column(columns, "seq", JSON_INTEGER);
    if (seq) {
        p->seq = json_integer(seq);
        p->has_seq = true;
    }

    char *error = parse_key(db, columns, p);
    if (error) {
        return error;
    }
    if (!seq) {
        return xstrdup("missing seq");
    }

    const struct json *action = column(columns, "packet_action",
                                       JSON_STRING);
    const char *a = action ? json_string(action) : "";
    if (!strcmp(a, "forward")) {
        p->action = SAI_PACKET_ACTION_FORWARD;
    } else if (!strcmp(a, "drop")) {
        p->action = SAI_PACKET_ACTION_DROP;
    } else if (!strcmp(a, "trap")) {
        p->action = SAI_PACKET_ACTION_TRAP;
    } else {
        return xasprintf("unknown packet_action \"%s\"", a);
    }
    if (p->action != SAI_PACKET_ACTION_FORWARD) {
        return NULL;
    }

    /* "nexthops": ["map", [[KEY, WEIGHT], ...]]. */
    const struct json *nhs = column(columns, "nexthops", JSON_ARRAY);
    const struct json_array *map = nhs ? json_array(nhs) : NULL;
    if (!map || map->n != 2 || map->elems[0]->type != JSON_STRING
        || strcmp(json_string(map->elems[0]), "map")
        || map->elems[1]->type != JSON_ARRAY) {
        return xstrdup("bad nexthops column");
    }
    const struct json_array *pairs = json_array(map->elems[1]);
    if (!pairs->n) {
        return xstrdup("packet_action forward without next hops");
    }
    if (pairs->n > db->allocated_nh_buf) {
        db->allocated_nh_buf = pairs->n;
        db->nh_buf = xrealloc(db->nh_buf,
                              pairs->n * sizeof *db->nh_buf);
    }
    bool connected = false;
    for (size_t i = 0; i < pairs->n; i++) {
        const struct json *pair = pairs->elems[i];
        const struct json_array *kv = (pair->type == JSON_ARRAY
                                       ? json_array(pair) : NULL);
        struct syncd_nexthop *nh = &db->nh_buf[i];

        if (!kv || kv->n != 2 || kv->elems[0]->type != JSON_STRING
            || kv->elems[1]->type != JSON_INTEGER) {
            return xstrdup("bad nexthops column");
        }
        error = parse_nexthop(json_string(kv->elems[0]), nh);
        if (error) {
            return error;
        }
        long long int w = json_integer(kv->elems[1]);
        if (w < 1 || w > 65535) {
            return xasprintf("bad weight %lld for next hop \"%s\"", w,
                             json_string(kv->elems[0]));
        }
        nh->weight = w;
        connected = connected || !nh->has_gateway;
    }
    if (connected && pairs->n > 1) {
        return xstrdup("a connected next hop (\"@IFNAME\") must be the "
                       "only next hop");
    }
    p->n_nexthops = pairs->n;
    return NULL;
}

/* ---- Processing updates ------------------------------------------------- */

/* Phase 0 of a row update: removals.  Returns true if it did work. */
static bool
process_row_phase0(struct syncd_db *db, struct sdb_event *ev,
                   const struct ovsdb_cs_row_update *ru)
{
    struct sdb_row *row = row_find(db, &ru->row_uuid);

    if (ru->type == OVSDB_CS_ROW_DELETE) {
        db->stats.row_deletes++;
        COVERAGE_INC(syncd_db_row_delete);
        if (row) {
            row_destroy(db, row);
        }
        return true;
    }
    if (!row) {
        return false;
    }
    if (ev->clear) {
        row->flags |= ROW_SEEN;
    }
    if (row->flags & ROW_NO_ROUTE) {
        return true;
    }

    /* The row's route goes if the row no longer names its key. */
    struct sdb_parsed p;
    char *error = parse_key(db, ru->columns, &p);
    if (error || p.vrf_index != row->vrf
        || !fib_prefix_equals(&p.prefix, &row->prefix)) {
        row_remove_route(db, row);
    }
    free(error);
    return true;
}

/* Phase 1 of a row update: everything but removals. */
static void
process_row_phase1(struct syncd_db *db, struct sdb_event *ev,
                   const struct ovsdb_cs_row_update *ru)
{
    if (ru->type == OVSDB_CS_ROW_DELETE) {
        return;
    } else if (ru->type == OVSDB_CS_ROW_XOR) {
        VLOG_WARN_RL(&rl, "unexpected row diff ignored");
        return;
    }

    struct sdb_row *row = row_find(db, &ru->row_uuid);
    if (!row) {
        row = xzalloc(sizeof *row);
        row->uuid = ru->row_uuid;
        row->seq = -1;
        /* A row inserted by orchd has no error; one in the monitor's
         * initial contents may have. */
        row->flags = ROW_NO_ROUTE | (ev->clear ? ROW_ERROR_SET : 0);
        hmap_insert(&db->rows, &row->node, uuid_hash(&row->uuid));
        db->stats.row_inserts++;
        COVERAGE_INC(syncd_db_row_insert);
    } else {
        db->stats.row_modifies++;
        COVERAGE_INC(syncd_db_row_modify);
    }
    if (ev->clear) {
        row->flags |= ROW_SEEN;
    }

    struct sdb_parsed p;
    char *error = parse_row(db, ru->columns, &p);
    int64_t seq = p.has_seq ? p.seq : 0;
    if (seq != row->seq) {
        row_set_in_sync(db, row, false);
        row->seq = seq;
    }
    row_clear_wb(db, row);
    if (error) {
        /* Its old route goes: nobody can say what it should be. */
        row_remove_route(db, row);
        row_set_bad(db, row, error);
        return;
    }
    row_set_good(db, row);

    /* After a restart: does the database already say this is done? */
    if (!hmap_is_empty(&db->snap)) {
        struct sdb_snap *s;

        HMAP_FOR_EACH_WITH_HASH (s, node, uuid_hash(&row->uuid),
                                 &db->snap) {
            if (uuid_equals(&s->uuid, &row->uuid)) {
                /* Programmed: syncd cleared its error. */
                row->flags &= ~ROW_ERROR_SET;
                if (s->applied_seq == row->seq) {
                    row_set_in_sync(db, row, true);
                }
                hmap_remove(&db->snap, &s->node);
                free(s);
                break;
            }
        }
    }

    row->vrf = p.vrf_index;
    row->prefix = p.prefix;
    row->flags &= ~ROW_NO_ROUTE;

    struct syncd_route_op op = {
        .type = SYNCD_OP_SET,
        .vrf = p.vrf,
        .prefix = p.prefix,
        .action = p.action,
        .nexthops = db->nh_buf,
        .n_nexthops = p.n_nexthops,
        .origin = row->uuid,
        .seq = row->seq,
    };
    syncd_apply_submit(db->apply, &op);
}

static void
snap_clear(struct syncd_db *db)
{
    struct sdb_snap *s;

    HMAP_FOR_EACH_POP (s, node, &db->snap) {
        free(s);
    }
}

static void
event_destroy(struct sdb_event *ev)
{
    ovsdb_cs_db_update_destroy(ev->du);
    ovsdb_cs_event_destroy(ev->event);
    free(ev);
}

/* Processes up to 'db->budget' row updates of the queued events. */
static void
process_events(struct syncd_db *db)
{
    size_t budget = db->budget;

    while (budget && !ovs_list_is_empty(&db->events)) {
        struct sdb_event *ev = CONTAINER_OF(ovs_list_front(&db->events),
                                            struct sdb_event, node);
        size_t n = ev->tu ? ev->tu->n : 0;

        if (!ev->started) {
            ev->started = true;
            if (ev->clear) {
                struct sdb_row *row;

                HMAP_FOR_EACH (row, node, &db->rows) {
                    row->flags &= ~ROW_SEEN;
                }
            }
        }

        if (ev->phase == 0) {
            while (ev->cursor < n && budget) {
                if (process_row_phase0(db, ev,
                                       &ev->tu->row_updates[ev->cursor])) {
                    budget--;
                }
                ev->cursor++;
            }
            if (ev->cursor < n) {
                break;
            }
            if (ev->clear) {
                /* Rows the new contents lack are gone. */
                struct sdb_row *row;

                HMAP_FOR_EACH_SAFE (row, node, &db->rows) {
                    if (!(row->flags & ROW_SEEN)) {
                        db->stats.row_deletes++;
                        row_destroy(db, row);
                    }
                }
            }
            ev->phase = 1;
            ev->cursor = 0;
        }

        while (ev->cursor < n && budget) {
            process_row_phase1(db, ev, &ev->tu->row_updates[ev->cursor]);
            ev->cursor++;
            db->backlog--;
            budget--;
        }
        if (ev->cursor < n) {
            break;
        }

        if (ev->clear) {
            VLOG_INFO("monitor contents: %"PRIuSIZE" rows processed in "
                      "%lld ms", n, time_msec() - ev->received);
            if (!db->initial_done) {
                db->initial_done = true;
                if (db->snap_state == SNAP_DONE) {
                    snap_clear(db);
                }
            }
        }
        ovs_list_remove(&ev->node);
        event_destroy(ev);
    }
    syncd_apply_flush(db->apply);
}

/* Queues update event 'event' (taking it). */
static void
queue_update(struct syncd_db *db, struct ovsdb_cs_event *event)
{
    struct ovsdb_cs_update_event *u = &event->update;
    struct ovsdb_cs_db_update *du;
    struct ovsdb_error *error;

    error = ovsdb_cs_parse_db_update(u->table_updates, u->version, &du);
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        VLOG_WARN_RL(&rl, "bad update from the database: %s", s);
        free(s);
        ovsdb_cs_event_destroy(event);
        return;
    }

    struct sdb_event *ev = xzalloc(sizeof *ev);
    ev->event = event;
    ev->du = du;
    ev->tu = ovsdb_cs_db_update_find_table(du, TABLE);
    ev->clear = u->clear;
    ev->received = time_msec();
    ovs_list_push_back(&db->events, &ev->node);
    db->backlog += ev->tu ? ev->tu->n : 0;
    db->stats.updates++;
    COVERAGE_INC(syncd_db_update);
}

/* The monitor request: the columns syncd reads, never those it writes. */
static struct json *
compose_monitor_requests(const struct json *schema OVS_UNUSED,
                         void *aux OVS_UNUSED)
{
    static const char *const columns[] = {
        "vrf", "prefix", "packet_action", "nexthops", "seq",
    };
    struct json *cols = json_array_create_empty();

    for (size_t i = 0; i < ARRAY_SIZE(columns); i++) {
        json_array_add(cols, json_string_create(columns[i]));
    }
    struct json *mr = json_object_create();
    json_object_put(mr, "columns", cols);

    struct json *mrs = json_object_create();
    json_object_put(mrs, TABLE, json_array_create_1(mr));
    return mrs;
}

static const struct ovsdb_cs_ops cs_ops = {
    .compose_monitor_requests = compose_monitor_requests,
};

/* Reads the monitor, unless a backlog is waiting (then the server keeps
 * and coalesces further changes). */
static void
monitor_run(struct syncd_db *db)
{
    struct ovs_list events;

    if (db->backlog >= db->budget) {
        return;
    }
    ovsdb_cs_run(db->cs, &events);

    struct ovsdb_cs_event *event;
    LIST_FOR_EACH_POP (event, list_node, &events) {
        switch (event->type) {
        case OVSDB_CS_EVENT_TYPE_RECONNECT:
            db->stats.reconnects++;
            VLOG_INFO("%s: monitor connecting", db->remote);
            ovsdb_cs_event_destroy(event);
            break;
        case OVSDB_CS_EVENT_TYPE_UPDATE:
            queue_update(db, event);
            break;
        case OVSDB_CS_EVENT_TYPE_LOCKED:
        case OVSDB_CS_EVENT_TYPE_TXN_REPLY:
        default:
            ovsdb_cs_event_destroy(event);
            break;
        }
    }
}

/* ---- Writing back ------------------------------------------------------- */

/* Returns an "update" operation that writes 'code' and 'seq' into row
 * 'uuid'. */
static struct json *
wb_op(const struct syncd_db *db, const struct uuid *uuid, int64_t seq,
      uint8_t code, bool clear_error)
{
    struct json *where = json_array_create_1(json_array_create_3(
        json_string_create("_uuid"), json_string_create("=="),
        json_array_create_2(json_string_create("uuid"),
                            json_string_create_nocopy(
                                xasprintf(UUID_FMT, UUID_ARGS(uuid))))));

    struct json *row = json_object_create();
    if (!code) {
        json_object_put_string(row, "state", "programmed");
        if (clear_error) {
            json_object_put(row, "error",
                            json_array_create_2(json_string_create("set"),
                                                json_array_create_empty()));
        }
    } else {
        const char *error;

        if (code == CODE_BAD) {
            const struct sdb_bad_msg *bm = bad_msg_find(db, uuid);
            error = bm ? bm->msg : "invalid row";
        } else {
            error = syncd_status_code_name(code);
        }
        json_object_put_string(row, "state", "error");
        json_object_put_string(row, "error", error);
    }
    json_object_put(row, "applied_seq", json_integer_create(seq));

    struct json *op = json_object_create();
    json_object_put_string(op, "op", "update");
    json_object_put_string(op, "table", TABLE);
    json_object_put(op, "where", where);
    json_object_put(op, "row", row);
    return op;
}

/* Sends one write-back transaction of up to 'db->wb_batch' rows.  Returns
 * false if there was nothing to send. */
static bool
wb_send(struct syncd_db *db)
{
    struct wb_entry *entries = NULL;
    struct json *params = NULL;
    size_t n = 0;

    while (n < db->wb_batch && db->wb_head < db->wb_n) {
        const struct uuid *uuid = &db->wb_fifo[db->wb_head++];
        struct sdb_row *row = row_find(db, uuid);

        if (!row || !(row->flags & ROW_WB_PENDING)) {
            continue;
        }
        row_clear_wb(db, row);
        if (!params) {
            params = json_array_create_1(json_string_create(DB_NAME));
            entries = xmalloc(db->wb_batch * sizeof *entries);
        }
        json_array_add(params, wb_op(db, uuid, row->seq, row->wb_code,
                                     row->flags & ROW_ERROR_SET));
        /* Transactions on one connection commit in order, so the last one
         * sent decides the row's error column. */
        if (row->wb_code) {
            row->flags |= ROW_ERROR_SET;
        } else {
            row->flags &= ~ROW_ERROR_SET;
        }
        entries[n].uuid = *uuid;
        entries[n].seq = row->seq;
        entries[n].code = row->wb_code;
        n++;
    }
    if (db->wb_head == db->wb_n) {
        db->wb_head = db->wb_n = 0;
    }
    if (!n) {
        return false;
    }

    struct wb_txn *txn = xmalloc(sizeof *txn);
    struct jsonrpc_msg *msg = jsonrpc_create_request("transact", params,
                                                     &txn->id);
    txn->entries = entries;
    txn->n = n;
    ovs_list_push_back(&db->wb_txns, &txn->node);
    db->n_wb_txns++;
    db->stats.wb_txns++;
    db->stats.wb_rows += n;
    db->stats.wb_inflight_rows += n;
    COVERAGE_INC(syncd_db_wb_txn);
    COVERAGE_ADD(syncd_db_wb_row, n);
    jsonrpc_session_send(db->wb, msg);
    return true;
}

static void
wb_txn_destroy(struct syncd_db *db, struct wb_txn *txn)
{
    ovs_list_remove(&txn->node);
    db->n_wb_txns--;
    db->stats.wb_inflight_rows -= txn->n;
    json_destroy(txn->id);
    free(txn->entries);
    free(txn);
}

/* Puts the rows of every outstanding transaction back in the queue: the
 * connection was lost, so they may not have been written. */
static void
wb_requeue(struct syncd_db *db)
{
    struct wb_txn *txn;

    LIST_FOR_EACH_SAFE (txn, node, &db->wb_txns) {
        for (size_t i = 0; i < txn->n; i++) {
            const struct wb_entry *e = &txn->entries[i];
            struct sdb_row *row = row_find(db, &e->uuid);

            if (row) {
                /* The write may or may not have happened. */
                row->flags |= ROW_ERROR_SET;
                if (row->seq == e->seq && !(row->flags & ROW_WB_PENDING)) {
                    row_mark_wb(db, row, row->wb_code);
                }
            }
        }
        wb_txn_destroy(db, txn);
    }
}

/* Returns the error of a "transact" reply 'msg', or NULL if every
 * operation succeeded. */
static char *
txn_reply_error(const struct jsonrpc_msg *msg)
{
    if (msg->type == JSONRPC_ERROR) {
        return json_to_string(msg->error, 0);
    } else if (!msg->result || msg->result->type != JSON_ARRAY) {
        return xstrdup("bad reply");
    }

    const struct json_array *results = json_array(msg->result);
    for (size_t i = 0; i < results->n; i++) {
        const struct json *r = results->elems[i];

        if (r->type == JSON_OBJECT && shash_find(json_object(r), "error")) {
            return json_to_string(r, 0);
        }
    }
    return NULL;
}

/* Processes the reply to write-back transaction 'txn'. */
static void
wb_txn_reply(struct syncd_db *db, struct wb_txn *txn,
             const struct jsonrpc_msg *msg)
{
    char *error = txn_reply_error(msg);

    if (error) {
        db->stats.wb_errors++;
        COVERAGE_INC(syncd_db_wb_error);
        VLOG_WARN_RL(&rl, "write-back of %"PRIuSIZE" rows failed: %s",
                     txn->n, error);
        free(error);
        for (size_t i = 0; i < txn->n; i++) {
            struct sdb_row *row = row_find(db, &txn->entries[i].uuid);

            if (row) {
                row->flags |= ROW_ERROR_SET;
            }
        }
    } else {
        db->stats.wb_acked += txn->n;
        for (size_t i = 0; i < txn->n; i++) {
            const struct wb_entry *e = &txn->entries[i];
            struct sdb_row *row;

            if (!e->code) {
                row = row_find(db, &e->uuid);
                if (row && row->seq == e->seq
                    && !(row->flags & ROW_WB_PENDING)) {
                    row_set_in_sync(db, row, true);
                }
            }
        }
    }
    wb_txn_destroy(db, txn);
}

/* Processes the reply to the start-up read of applied_seq. */
static void
snap_reply(struct syncd_db *db, const struct jsonrpc_msg *msg)
{
    char *error = txn_reply_error(msg);
    size_t n_rows = 0, n_skipped = 0;

    db->snap_state = SNAP_DONE;
    json_destroy(db->snap_id);
    db->snap_id = NULL;
    poll_immediate_wake();      /* The monitor may start now. */
    if (error) {
        VLOG_WARN("reading applied_seq failed (every row will be written "
                  "back): %s", error);
        free(error);
        return;
    }

    if (!json_array(msg->result)->n) {
        return;
    }
    const struct json *r = json_array(msg->result)->elems[0];
    const struct json *rows = (r->type == JSON_OBJECT
                               ? shash_find_data(json_object(r), "rows")
                               : NULL);
    if (!rows || rows->type != JSON_ARRAY) {
        return;
    }
    for (size_t i = 0; i < json_array(rows)->n; i++) {
        const struct json *jrow = json_array(rows)->elems[i];
        const struct json *juuid, *jseq;
        struct uuid uuid;

        if (jrow->type != JSON_OBJECT) {
            continue;
        }
        juuid = shash_find_data(json_object(jrow), "_uuid");
        jseq = shash_find_data(json_object(jrow), "applied_seq");
        if (!juuid || juuid->type != JSON_ARRAY
            || json_array(juuid)->n != 2
            || json_array(juuid)->elems[1]->type != JSON_STRING
            || !uuid_from_string(&uuid,
                                 json_string(json_array(juuid)->elems[1]))
            || !jseq || jseq->type != JSON_INTEGER) {
            continue;
        }
        n_rows++;

        int64_t applied_seq = json_integer(jseq);
        struct sdb_row *row = row_find(db, &uuid);
        if (row) {
            row->flags &= ~ROW_ERROR_SET;

            /* Already monitored.  If the database says what we would
             * write, there is nothing to write (unless it failed here). */
            if (row->seq == applied_seq && !(row->flags & ROW_BAD)) {
                if (!(row->flags & ROW_WB_PENDING)) {
                    row_set_in_sync(db, row, true);
                } else if (!row->wb_code) {
                    row_clear_wb(db, row);
                    row_set_in_sync(db, row, true);
                    n_skipped++;
                }
            }
        } else if (!db->initial_done) {
            /* Not monitored yet: remember for when it is. */
            struct sdb_snap *s = xmalloc(sizeof *s);

            s->uuid = uuid;
            s->applied_seq = applied_seq;
            hmap_insert(&db->snap, &s->node, uuid_hash(&uuid));
        }
    }
    db->stats.wb_skipped += n_skipped;
    COVERAGE_ADD(syncd_db_wb_skipped, n_skipped);
    VLOG_INFO("database holds %"PRIuSIZE" programmed rows", n_rows);
}

/* Sends the start-up read of (uuid, applied_seq) of programmed rows. */
static void
snap_send(struct syncd_db *db)
{
    struct json *select = json_object_create();

    json_object_put_string(select, "op", "select");
    json_object_put_string(select, "table", TABLE);
    struct json *clause = json_array_create_3(
        json_string_create("state"), json_string_create("=="),
        json_string_create("programmed"));
    json_object_put(select, "where", json_array_create_1(clause));
    json_object_put(select, "columns",
                    json_array_create_2(json_string_create("_uuid"),
                                        json_string_create("applied_seq")));

    struct json *params = json_array_create_2(json_string_create(DB_NAME),
                                              select);
    json_destroy(db->snap_id);
    jsonrpc_session_send(db->wb, jsonrpc_create_request("transact", params,
                                                        &db->snap_id));
    db->snap_state = SNAP_SENT;
}

/* Runs the write-back connection: on (re)connection, requeues what was
 * outstanding and, the first time, reads applied_seq; processes replies;
 * sends transactions while fewer than 'wb_inflight' are outstanding. */
static void
wb_run(struct syncd_db *db)
{
    jsonrpc_session_run(db->wb);

    unsigned int seqno = jsonrpc_session_get_seqno(db->wb);
    if (seqno != db->wb_seqno) {
        db->wb_seqno = seqno;
        wb_requeue(db);
        if (db->snap_state == SNAP_SENT) {
            db->snap_state = SNAP_NONE;
        }
    }
    if (!jsonrpc_session_is_connected(db->wb)) {
        return;
    }
    if (db->snap_state == SNAP_NONE) {
        snap_send(db);
    }

    for (int i = 0; i < 50; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(db->wb);

        if (!msg) {
            break;
        }
        if (msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR) {
            if (db->snap_id && json_equal(msg->id, db->snap_id)) {
                snap_reply(db, msg);
            } else {
                struct wb_txn *txn;

                LIST_FOR_EACH (txn, node, &db->wb_txns) {
                    if (json_equal(msg->id, txn->id)) {
                        wb_txn_reply(db, txn, msg);
                        break;
                    }
                }
            }
        }
        jsonrpc_msg_destroy(msg);
    }

    if (db->snap_state == SNAP_DONE) {
        while (db->n_wb_txns < db->wb_inflight && wb_send(db)) {
            continue;
        }
    }
}

/* ---- Public interface --------------------------------------------------- */

/* Creates the OVSDB path: a monitor of 'options->remote' feeding 'apply',
 * whose result callback must be syncd_db_apply_result() with the returned
 * object. */
struct syncd_db *
syncd_db_create(const struct syncd_db_options *options,
                struct syncd_apply *apply)
{
    struct syncd_db *db = xzalloc(sizeof *db);

    db->apply = apply;
    db->remote = xstrdup(options->remote);
    db->wb_batch = options->wb_batch ? options->wb_batch : 5000;
    db->wb_inflight = options->wb_inflight ? options->wb_inflight : 2;
    db->budget = options->budget ? options->budget : 20000;
    db->no_write_back = options->no_write_back;
    if (db->no_write_back) {
        db->snap_state = SNAP_DONE;
    }
    ovs_list_init(&db->events);
    hmap_init(&db->rows);
    hmap_init(&db->vrfs);
    hmap_init(&db->bad_msgs);
    ovs_list_init(&db->wb_txns);
    hmap_init(&db->snap);

    db->cs = ovsdb_cs_create(DB_NAME, 1, &cs_ops, db);
    ovsdb_cs_set_remote(db->cs, db->remote, true);
    db->wb = jsonrpc_session_open(db->remote, true);
    db->wb_seqno = jsonrpc_session_get_seqno(db->wb);
    return db;
}

void
syncd_db_destroy(struct syncd_db *db)
{
    if (!db) {
        return;
    }

    struct sdb_event *ev;
    LIST_FOR_EACH_POP (ev, node, &db->events) {
        event_destroy(ev);
    }
    struct wb_txn *txn;
    LIST_FOR_EACH_SAFE (txn, node, &db->wb_txns) {
        wb_txn_destroy(db, txn);
    }
    struct sdb_row *row;
    HMAP_FOR_EACH_POP (row, node, &db->rows) {
        free(row);
    }
    struct sdb_bad_msg *bm;
    HMAP_FOR_EACH_POP (bm, node, &db->bad_msgs) {
        free(bm->msg);
        free(bm);
    }
    struct sdb_vrf *v;
    HMAP_FOR_EACH_POP (v, node, &db->vrfs) {
        free(v);
    }
    for (size_t i = 0; i < db->n_vrfs; i++) {
        free(db->vrf_names[i]);
    }
    snap_clear(db);
    hmap_destroy(&db->rows);
    hmap_destroy(&db->vrfs);
    hmap_destroy(&db->bad_msgs);
    hmap_destroy(&db->snap);
    free(db->vrf_names);
    free(db->nh_buf);
    free(db->wb_fifo);
    json_destroy(db->snap_id);
    ovsdb_cs_destroy(db->cs);
    jsonrpc_session_close(db->wb);
    free(db->remote);
    free(db);
}

/* Reads the monitor, processes a bounded number of row changes (applying
 * them), and writes outcomes back. */
void
syncd_db_run(struct syncd_db *db)
{
    /* The monitor starts once the start-up read of applied_seq is done:
     * with a big table, both replies in memory at once would double the
     * peak. */
    if (db->snap_state == SNAP_DONE) {
        monitor_run(db);
    }
    process_events(db);
    wb_run(db);
}

void
syncd_db_wait(struct syncd_db *db)
{
    if (db->backlog) {
        poll_immediate_wake();
    }
    if (db->backlog < db->budget) {
        if (db->snap_state == SNAP_DONE) {
            ovsdb_cs_wait(db->cs);
        }
    }
    jsonrpc_session_wait(db->wb);
    jsonrpc_session_recv_wait(db->wb);
}

/* Is the monitor connected? */
bool
syncd_db_is_connected(const struct syncd_db *db)
{
    return ovsdb_cs_is_connected(db->cs);
}

void
syncd_db_get_stats(const struct syncd_db *db, struct syncd_db_stats *stats)
{
    *stats = db->stats;
    stats->rows = hmap_count(&db->rows);
    stats->backlog = db->backlog;
    stats->wb_inflight_txns = db->n_wb_txns;
}

/* Records the outcome of an operation that this module submitted. */
void
syncd_db_apply_result(const struct syncd_route_result *r, void *db_)
{
    struct syncd_db *db = db_;

    if (r->type == SYNCD_OP_DEL) {
        if (r->status) {
            char buf[FIB_PREFIX_STRLEN];

            fib_prefix_format(r->prefix, buf);
            VLOG_WARN_RL(&rl, "removing %s failed: %s (will retry)", buf,
                         sai_util_status_name(r->status));
        }
        return;
    }

    struct sdb_row *row = row_find(db, r->origin);
    if (!row || row->seq != r->seq || row->flags & (ROW_BAD | ROW_NO_ROUTE)
        || !fib_prefix_equals(&row->prefix, r->prefix)) {
        /* Stale: the row changed or went away since. */
        return;
    }

    unsigned int code = syncd_status_code(r->status);
    if (!code) {
        db->stats.results_ok++;
        if (row->flags & ROW_IN_SYNC) {
            db->stats.wb_skipped++;
            COVERAGE_INC(syncd_db_wb_skipped);
            return;
        }
    } else {
        char buf[FIB_PREFIX_STRLEN];

        db->stats.results_error++;
        fib_prefix_format(r->prefix, buf);
        VLOG_WARN_RL(&rl, "%s %s: %s", db->vrf_names[row->vrf], buf,
                     sai_util_status_name(r->status));
    }
    row_mark_wb(db, row, code);
}
