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

/* route-check: proves that OVSDB Route, OVSDB Asic_Route, the simulator's
 * live FIB (and, with --frr, FRR's RIB) agree.
 *
 * Each view is read a row at a time and folded into lib/route-compare.h's
 * table keyed by (VRF, prefix): the database replayed from the server's
 * file by lib/ovsdb-file-replay.h when it can be, else asked of the
 * server through lib/ovsdb-select-reader.h (no reply tree, only the
 * columns compared; Asic_Route through lib/ovsdb-slice-reader.h, in
 * slices of its 'seq' column so that ovsdb-server builds one slice's
 * reply at a time; Route has no column to slice on), the FIB from a file
 * syncd writes line by line ("asic/dump file PATH"), FRR from vtysh's
 * JSON. */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command-line.h"
#include "jsonrpc.h"
#include "lib/fibsync-instance.h"
#include "lib/fibsync-paths.h"
#include "lib/frr-route-json.h"
#include "lib/ovsdb-file-replay.h"
#include "lib/ovsdb-file-replay-value.h"
#include "lib/ovsdb-select-reader.h"
#include "lib/ovsdb-slice-reader.h"
#include "lib/ovsdb-wire.h"
#include "lib/ssl-options.h"
#include "lib/route-compare.h"
#include "utilities/route-check.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/json.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "hash.h"
#include "process.h"
#include "stream-ssl.h"
#include "svec.h"
#include "unixctl.h"
#include "util.h"

/* Exit statuses. */
enum {
    EXIT_AGREE = 0,             /* Every view agrees. */
    EXIT_DIFFER = 1,            /* Some differ. */
    EXIT_ERROR = 2,             /* A view could not be read. */
};

/* Asic_Route sequence numbers (so at most rows) per select, by default
 * (--slice). */
#define DEFAULT_SLICE 50000

/* --instance: the ASIC instance whose Asic_Route rows are read. */
static int asic_instance;

/* Returns the condition that selects --instance's Asic_Route rows. */
static struct json *
instance_clause(void)
{
    return json_array_create_3(json_string_create("instance"),
                               json_string_create("=="),
                               json_integer_create(asic_instance));
}

/* A next-hop group: Nexthop_Group.id and what its members forward to. */
struct group {
    struct hmap_node node;      /* In 'check->groups', by 'id'. */
    int64_t id;                 /* Nexthop_Group.id. */
    const struct route_compare_fwd *fwd; /* NULL if it has no member. */
};

OVS_NO_RETURN static void usage(void);

/* Reports 'format' and exits with status 2. */
void
route_check_fail(const char *format, ...)
{
    va_list args;

    fprintf(stderr, "%s: ", program_name);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    putc('\n', stderr);
    exit(EXIT_ERROR);
}

/* Returns the database file beside server 'db' (malloc'ed), or NULL:
 * "DIR/fibsync.db" if 'db' is "unix:DIR/db.sock", as fibsync-ctl and the
 * tests lay a standalone server out, and that file exists. */
static char *
default_db_file(const char *db)
{
    static const char sock[] = "/db.sock";
    size_t len = strlen(db);

    if (strncmp(db, "unix:", 5) || len < 5 + strlen(sock)
        || strcmp(db + len - strlen(sock), sock)) {
        return NULL;
    }

    char *file = xasprintf("%.*s/fibsync.db",
                           (int) (len - 5 - strlen(sock)), db + 5);
    if (access(file, R_OK)) {
        free(file);
        return NULL;
    }
    return file;
}

/* Completes 'o' once every option is read: the defaults that depend on
 * others ('no_db_file': --no-db-file was given), and the checks across
 * options. */
static void
options_finish(struct options *o, bool no_db_file)
{
    char *ssl_error;

    if (!o->syncd) {
        o->syncd = fibsync_instance_ctl_path("syncd", o->instance);
    }
    asic_instance = o->instance;
    if (o->vtysh && o->frr_files.n) {
        route_check_fail("--vtysh and --frr-json exclude each other "
                         "(use --help for help)");
    }
    if (no_db_file && o->db_file) {
        route_check_fail("--db-file and --no-db-file exclude each other "
                         "(use --help for help)");
    } else if (!no_db_file && !o->db_file) {
        o->db_file = default_db_file(o->db);
    }
    ssl_error = ssl_options_check("db", o->db);
    if (ssl_error) {
        route_check_fail("%s", ssl_error);
    }
}

/* route-check's long options without a short form. */
enum {
    OPT_DB = UCHAR_MAX + 1, OPT_SYNCD, OPT_NO_FIB, OPT_FRR, OPT_VTYSH,
    OPT_FRR_JSON, OPT_FRR_ALL, OPT_SLICE, OPT_INSTANCE, OPT_DB_FILE,
    OPT_NO_DB_FILE, SSL_OPTION_ENUMS,
};
/* route-check's options, for getopt_long(). */
static const struct option long_options[] = {
    {"db", required_argument, NULL, OPT_DB},
    {"db-file", required_argument, NULL, OPT_DB_FILE},
    {"no-db-file", no_argument, NULL, OPT_NO_DB_FILE},
    {"syncd", required_argument, NULL, OPT_SYNCD},
    {"no-fib", no_argument, NULL, OPT_NO_FIB},
    {"frr", no_argument, NULL, OPT_FRR},
    {"vtysh", required_argument, NULL, OPT_VTYSH},
    {"frr-json", required_argument, NULL, OPT_FRR_JSON},
    {"frr-all-protocols", no_argument, NULL, OPT_FRR_ALL},
    {"slice", required_argument, NULL, OPT_SLICE},
    {"instance", required_argument, NULL, OPT_INSTANCE},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    STREAM_SSL_LONG_OPTIONS,
    {NULL, 0, NULL, 0},
};

static void
parse_options(int argc, char *argv[], struct options *o)
{
    bool no_db_file = false;

    memset(o, 0, sizeof *o);
    o->db = fibsync_default_db();
    o->syncd = NULL;
    o->check_fib = true;
    o->slice = DEFAULT_SLICE;
    svec_init(&o->frr_files);
    opterr = 0;
    for (;;) {
        int c = getopt_long(argc, argv, "+qhp:c:C:", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case OPT_DB:
            o->db = optarg;
            break;
        case OPT_DB_FILE:
            free(o->db_file);
            o->db_file = xstrdup(optarg);
            break;
        case OPT_NO_DB_FILE:
            no_db_file = true;
            break;
        case OPT_SYNCD:
            free(o->syncd);
            o->syncd = xstrdup(optarg);
            break;
        case OPT_INSTANCE:
            if (!str_to_int(optarg, 10, &o->instance) || o->instance < 0
                || o->instance > FIBSYNC_INSTANCE_MAX) {
                route_check_fail("--instance: \"%s\" is not a number "
                                 "between 0 and %d",
                                 optarg, FIBSYNC_INSTANCE_MAX);
            }
            break;
        case OPT_NO_FIB:
            o->check_fib = false;
            break;
        case OPT_FRR:
            o->check_frr = true;
            break;
        case OPT_VTYSH:
            o->check_frr = true;
            o->vtysh = optarg;
            break;
        case OPT_FRR_JSON:
            o->check_frr = true;
            svec_add(&o->frr_files, optarg);
            break;
        case OPT_FRR_ALL:
            o->frr_all = true;
            break;
        case OPT_SLICE: {
            long long int n;

            if (!str_to_llong(optarg, 10, &n) || n < 1 || n > INT32_MAX) {
                route_check_fail("--slice: \"%s\" is not a number "
                                 "between 1 and %d", optarg, INT32_MAX);
            }
            o->slice = n;
            break;
        }
        case 'q':
            o->quiet = true;
            break;
        case 'h':
            usage();
        STREAM_SSL_OPTION_HANDLERS
        case '?':
            if (optopt) {
                route_check_fail("option -%c not recognized (use --help "
                                 "for help)", optopt);
            }
            route_check_fail("option %s not recognized or without its "
                             "argument (use --help for help)",
                             argv[optind - 1]);
        default:
            OVS_NOT_REACHED();
        }
    }
    if (optind < argc) {
        route_check_fail("unexpected argument \"%s\" (use --help for help)",
                         argv[optind]);
    }
    options_finish(o, no_db_file);
}

/* ---- The database -------------------------------------------------------
 */

/* Notes a row or line that could not be read. */
void
route_check_note_bad(struct check *c, const char *what)
{
    if (!c->n_bad++) {
        c->bad_what = what;
    }
}

/* Reads the next hops of map value 'v' (["map", [[KEY, WEIGHT], ...]]) into
 * 'c->nhs'.  Returns their number, or SIZE_MAX if 'v' is not such a map. */
static size_t
get_nexthops(struct check *c, const struct json *v)
{
    const struct json_array *pairs = ovsdb_wire_get_string_int_map(v);

    if (!pairs) {
        return SIZE_MAX;
    }
    if (pairs->n > c->allocated_nhs) {
        c->allocated_nhs = MAX(pairs->n, 2 * c->allocated_nhs);
        c->nhs = xrealloc(c->nhs, c->allocated_nhs * sizeof *c->nhs);
    }
    for (size_t i = 0; i < pairs->n; i++) {
        const struct json_array *kv = json_array(pairs->elems[i]);

        c->nhs[i].key = json_string(kv->elems[0]);
        c->nhs[i].weight = json_integer(kv->elems[1]);
    }
    return pairs->n;
}

/* A Nexthop_Group row: 'id' and its 'n' members in 'c->nhs'. */
void
route_check_group_add(struct check *c, int64_t id, size_t n)
{
    struct group *g = xmalloc(sizeof *g);

    g->id = id;
    g->fwd = n ? route_compare_fwd(c->cmp, "forward", c->nhs, n, true)
             : NULL;
    hmap_insert(&c->groups, &g->node, hash_uint64(id));
}

/* Returns the group with 'id', or NULL. */
static const struct group *
group_find(const struct check *c, int64_t id)
{
    const struct group *g;

    HMAP_FOR_EACH_WITH_HASH (g, node, hash_uint64(id), &c->groups) {
        if (g->id == id) {
            return g;
        }
    }
    return NULL;
}

/* A Route row, resolved as orchd's resolve_route() does: a blackhole
 * drops, a next-hop group forwards to its members (unresolved while the
 * group is unknown or empty), next hops forward to themselves, and a route
 * with none traps to the CPU. */
void
route_check_route_add(struct check *c, const struct route_view *r)
{
    const struct route_compare_fwd *want;

    c->n_routes++;
    if (r->blackhole) {
        want = route_compare_fwd(c->cmp, "drop", NULL, 0, true);
    } else if (r->has_group) {
        const struct group *g = group_find(c, r->group);

        if (!g || !g->fwd) {
            route_compare_unresolved(c->cmp, r->vrf, r->prefix, r->group);
            return;
        }
        want = g->fwd;
    } else if (r->n_nhs) {
        want = route_compare_fwd(c->cmp, "forward", c->nhs, r->n_nhs, true);
    } else {
        want = route_compare_fwd(c->cmp, "trap", NULL, 0, true);
    }
    route_compare_route(c->cmp, r->vrf, r->prefix, want);
}

/* An Asic_Route row, decoded by either reader: its next hops, 'n' of them,
 * in 'c->nhs'; 'state' and 'error' NULL if unset. */
void
route_check_asic_add(struct check *c, const char *vrf, const char *prefix,
                     const char *action, size_t n, const char *state,
                     int64_t seq, int64_t applied_seq, const char *error)
{
    route_compare_asic(c->cmp, vrf, prefix,
                       route_compare_fwd(c->cmp, action, c->nhs, n, true),
                       state, seq, applied_seq, error);
}

/* A Nexthop_Group row from the server. */
static void
group_row(struct check *c, const struct json *row)
{
    int64_t id;
    size_t n = get_nexthops(c, ovsdb_wire_col(row, "members"));

    if (!ovsdb_wire_get_integer(ovsdb_wire_col(row, "id"), &id)
        || n == SIZE_MAX) {
        route_check_note_bad(c, "Nexthop_Group row");
        return;
    }
    route_check_group_add(c, id, n);
}

/* A Route row from the server. */
static void
route_row(struct check *c, const struct json *row)
{
    const struct json *blackhole = ovsdb_wire_col(row, "blackhole");
    struct route_view r = {
        .vrf = ovsdb_wire_get_string(ovsdb_wire_col(row, "vrf")),
        .prefix = ovsdb_wire_get_string(ovsdb_wire_col(row, "prefix")),
        .n_nhs = get_nexthops(c, ovsdb_wire_col(row, "nexthops")),
    };

    if (!r.vrf || !r.prefix || !blackhole || r.n_nhs == SIZE_MAX
        || (blackhole->type != JSON_TRUE && blackhole->type != JSON_FALSE)) {
        route_check_note_bad(c, "Route row");
        return;
    }
    r.blackhole = blackhole->type == JSON_TRUE;
    r.has_group = ovsdb_wire_get_integer(ovsdb_wire_col(row,
                                                        "nexthop_group"),
                                         &r.group);
    route_check_route_add(c, &r);
}

/* An Asic_Route row from the server. */
static void
asic_row(struct check *c, const struct json *row)
{
    const char *vrf = ovsdb_wire_get_string(ovsdb_wire_col(row, "vrf"));
    const char *prefix = ovsdb_wire_get_string(ovsdb_wire_col(row, "prefix"));
    const char *action
        = ovsdb_wire_get_string(ovsdb_wire_col(row, "packet_action"));
    size_t n = get_nexthops(c, ovsdb_wire_col(row, "nexthops"));
    int64_t seq, applied_seq;

    if (!vrf || !prefix || !action || n == SIZE_MAX
        || !ovsdb_wire_get_integer(ovsdb_wire_col(row, "seq"), &seq)
        || !ovsdb_wire_get_integer(ovsdb_wire_col(row, "applied_seq"),
                                   &applied_seq)) {
        route_check_note_bad(c, "Asic_Route row");
        return;
    }
    route_check_asic_add(c, vrf, prefix, action, n,
             ovsdb_wire_get_string(ovsdb_wire_col(row, "state")),
             seq, applied_seq,
             ovsdb_wire_get_string(ovsdb_wire_col(row, "error")));
}

/* Which table a select reads. */
enum table {
    T_GROUP, T_ROUTE,
};

/* Most Asic_Route slices read at once. */
#define MAX_SLICES_IN_FLIGHT 2

/* One select in progress, over a connection of its own. */
struct fetch {
    struct ovsdb_select_reader *reader; /* NULL once done. */
    struct check *check;        /* Where rows go. */
    enum table table;           /* What they are. */
    const char *table_name;     /* Its name, for errors. */
    size_t n_rows;              /* Rows seen. */
};

/* ovsdb_select_row_cb. */
static void
select_row(int select_idx OVS_UNUSED, const struct json *row, void *f_)
{
    struct fetch *f = f_;

    f->n_rows++;
    if (row->type != JSON_OBJECT) {
        route_check_note_bad(f->check, "row");
        return;
    }
    switch (f->table) {
    case T_GROUP:
        group_row(f->check, row);
        break;
    case T_ROUTE:
        route_row(f->check, row);
        break;
    }
}

/* Starts selecting 'columns' (space-separated) of every row of
 * 'table_name' into 'f'. */
static void
fetch_start(struct fetch *f, const char *db, struct check *c,
            enum table table, const char *table_name, const char *columns)
{
    struct json *op = ovsdb_wire_op_select(table_name, NULL, columns);

    memset(f, 0, sizeof *f);
    f->check = c;
    f->table = table;
    f->table_name = table_name;
    f->reader = ovsdb_select_reader_create(
        db, json_array_create_2(json_string_create("Fibsync"), op), 1,
        select_row, f);
    poll_immediate_wake();      /* To be run before anything is awaited. */
}

/* Advances 'f'.  Returns true once it is done; exits if it failed. */
static bool
fetch_run(struct fetch *f, const char *db)
{
    if (!f->reader) {
        return true;
    }
    switch (ovsdb_select_reader_run(f->reader)) {
    case OVSDB_SELECT_READER_RUNNING:
        ovsdb_select_reader_wait(f->reader);
        return false;
    case OVSDB_SELECT_READER_DONE:
        ovsdb_select_reader_destroy(f->reader);
        f->reader = NULL;
        return true;
    case OVSDB_SELECT_READER_FAILED:
    default:
        route_check_fail("database %s: %s: %s", db, f->table_name,
                         ovsdb_select_reader_error(f->reader));
    }
}

/* The FIB, asked of syncd while the database is read. */
struct fib_request {
    struct jsonrpc *rpc;        /* syncd's unixctl connection, or NULL. */
    const char *ctl;            /* Its socket, as given. */
    char *path;                 /* The file syncd writes. */
};

static void read_fib_file(struct check *, const char *path);

/* Asks syncd ('ctl') to write its FIB to a file beside its socket, one
 * route a line ("asic/dump file PATH"), without waiting for it. */
static void
fib_request_start(struct fib_request *fr, const char *ctl)
{
    char *ctl_abs = abs_file_name(NULL, ctl);
    char *dir = dir_name(ctl_abs);
    struct json *params;
    int error;

    fr->ctl = ctl;
    fr->path = xasprintf("%s/route-check.%ld.fib", dir, (long) getpid());
    error = unixctl_client_create(ctl_abs, &fr->rpc);
    free(dir);
    free(ctl_abs);
    if (error) {
        route_check_fail("syncd %s: %s", ctl, ovs_retval_to_string(error));
    }
    params = json_array_create_2(json_string_create("file"),
                                 json_string_create(fr->path));
    error = jsonrpc_send(fr->rpc, jsonrpc_create_request("asic/dump",
                                                         params, NULL));
    if (error) {
        route_check_fail("syncd %s: %s", ctl, ovs_retval_to_string(error));
    }
}

/* Advances the FIB request; once syncd has answered, reads the file into
 * 'c'.  Returns true once done; exits on failure. */
static bool
fib_request_run(struct fib_request *fr, struct check *c)
{
    struct jsonrpc_msg *reply;
    int error;

    if (!fr->rpc) {
        return true;
    }
    jsonrpc_run(fr->rpc);
    error = jsonrpc_recv(fr->rpc, &reply);
    if (error == EAGAIN) {
        jsonrpc_wait(fr->rpc);
        jsonrpc_recv_wait(fr->rpc);
        return false;
    } else if (error) {
        route_check_fail("syncd %s: %s", fr->ctl, ovs_retval_to_string(error));
    } else if (reply->type == JSONRPC_ERROR) {
        char *s = (reply->error && reply->error->type == JSON_STRING
                   ? xstrdup(json_string(reply->error))
                   : json_to_string(reply->error, 0));
        route_check_fail("syncd %s: asic/dump: %s", fr->ctl, s);
    } else if (reply->type != JSONRPC_REPLY) {
        route_check_fail("syncd %s: unexpected %s message", fr->ctl,
                         jsonrpc_msg_type_to_string(reply->type));
    }
    jsonrpc_msg_destroy(reply);
    jsonrpc_close(fr->rpc);
    fr->rpc = NULL;

    read_fib_file(c, fr->path);
    free(fr->path);
    fr->path = NULL;
    return true;
}

/* ---- The database file ------------------------------------------------
 *
 * The same rows, replayed from the server's standalone database file by
 * lib/ovsdb-file-replay.h, nothing asked of the server: read by
 * utilities/route-check-file.c. */

/* Reads the database from standalone database file 'file' and, unless
 * 'ctl' is NULL, syncd's FIB, which syncd dumps while the file is read. */
static void
read_file_views(const char *file, const char *ctl, struct check *c)
{
    struct fib_request fr = { .rpc = NULL };

    if (ctl) {
        fib_request_start(&fr, ctl);
    }
    char *error = route_check_read_file(file, asic_instance, c);

    /* On an error too, let syncd finish its dump, so as not to leave it
     * behind. */
    while (!fib_request_run(&fr, c)) {
        poll_block();
    }
    if (error) {
        route_check_fail("%s (--no-db-file asks the server instead)", error);
    }
}

/* ovsdb_select_row_cb for the Asic_Route slices. */
static void
asic_select_row(int slice OVS_UNUSED, const struct json *row, void *c_)
{
    struct check *c = c_;

    if (row->type != JSON_OBJECT) {
        route_check_note_bad(c, "row");
        return;
    }
    asic_row(c, row);
}

/* Starts reading --instance's Asic_Route rows in slices 'slice' seqs wide
 * (lib/ovsdb-slice-reader.h), at most MAX_SLICES_IN_FLIGHT at a time. */
static struct ovsdb_slice_reader *
asic_read_start(const char *db, struct check *c, int64_t slice)
{
    struct json *where = json_array_create_1(instance_clause());
    struct ovsdb_slice_reader_spec spec = {
        .remote = db,
        .db = "Fibsync",
        .table = "Asic_Route",
        .seq_column = "seq",
        .columns = ("vrf prefix packet_action nexthops seq applied_seq "
                    "state error"),
        .where = where,
        .width = slice,
        .max_in_flight = MAX_SLICES_IN_FLIGHT,
    };
    struct ovsdb_slice_reader *r;

    r = ovsdb_slice_reader_create(&spec, asic_select_row, c);
    json_destroy(where);
    poll_immediate_wake();      /* To be run before anything is awaited. */
    return r;
}

/* Advances the Asic_Route read 'r'.  Once as many Asic_Route rows were
 * read as Route has (Route read), the bounded slices end: one open-ended
 * slice reads the rest (rows past a gap, or written meanwhile).  Returns
 * true once it is done; exits if it failed. */
static bool
asic_read_run(struct ovsdb_slice_reader *r, const char *db,
              const struct check *c, bool routes_done)
{
    if (routes_done && c->n_routes
        && route_compare_n_asic(c->cmp) >= c->n_routes) {
        ovsdb_slice_reader_stop_bounded(r);
    }
    switch (ovsdb_slice_reader_run(r)) {
    case OVSDB_SELECT_READER_RUNNING:
        ovsdb_slice_reader_wait(r);
        return false;
    case OVSDB_SELECT_READER_DONE:
        return true;
    case OVSDB_SELECT_READER_FAILED:
    default:
        route_check_fail("database %s: Asic_Route: %s", db,
                         ovsdb_slice_reader_error(r));
    }
}

/* Reads the database and, unless 'ctl' is NULL, syncd's FIB, all at once:
 * the next-hop groups first (routes resolve through them), then Route
 * whole, Asic_Route in slices of its seq column (each its own
 * transaction, at most MAX_SLICES_IN_FLIGHT at a time, so that
 * ovsdb-server holds a slice's reply at a time rather than the table's;
 * see asic_read_run()) once Route's reply has begun (ovsdb-server has
 * built and serialized it by then, and freed its tree), and the FIB,
 * which syncd writes meanwhile. */
static void
read_views(const char *db, const char *ctl, struct check *c, int64_t slice)
{
    struct fib_request fr = { .rpc = NULL };
    struct ovsdb_slice_reader *asic = NULL;
    struct fetch groups, routes;
    bool asic_done = false;

    fetch_start(&groups, db, c, T_GROUP, "Nexthop_Group", "id members");
    while (!fetch_run(&groups, db)) {
        poll_block();
    }

    if (ctl) {
        fib_request_start(&fr, ctl);
    }
    fetch_start(&routes, db, c, T_ROUTE, "Route",
                "vrf prefix nexthops nexthop_group blackhole");
    for (;;) {
        bool routes_done = fetch_run(&routes, db);
        bool busy = !routes_done;

        busy |= !fib_request_run(&fr, c);
        if (!asic && (routes_done || routes.n_rows)) {
            asic = asic_read_start(db, c, slice);
        }
        if (asic && !asic_done) {
            asic_done = asic_read_run(asic, db, c, routes_done);
        }
        if (!busy && asic_done) {
            break;
        }
        poll_block();
    }
    ovsdb_slice_reader_destroy(asic);
}

/* ---- The FIB ------------------------------------------------------------
 */

/* Reads one line of syncd's text dump, "VRF PREFIX ACTION TARGET hits=N",
 * TARGET being "-", "KEY=WEIGHT[,KEY=WEIGHT]..." or an object id that
 * syncd does not know (no next hop). */
static void
fib_line(struct check *c, char *line)
{
    char *save = NULL;
    char *vrf = strtok_r(line, " \n", &save);
    char *prefix = strtok_r(NULL, " \n", &save);
    char *action = strtok_r(NULL, " \n", &save);
    char *target = strtok_r(NULL, " \n", &save);
    size_t n = 0;

    if (!target) {
        route_check_note_bad(c, "FIB dump line");
        return;
    }
    for (char *nh = strtok_r(target, ",", &save); nh;
         nh = strtok_r(NULL, ",", &save)) {
        char *eq = strrchr(nh, '=');

        if (!eq) {
            continue;           /* "-" or an unknown object id. */
        }
        *eq = '\0';
        if (n >= c->allocated_nhs) {
            c->nhs = x2nrealloc(c->nhs, &c->allocated_nhs, sizeof *c->nhs);
        }
        c->nhs[n].key = nh;
        c->nhs[n].weight = strtoll(eq + 1, NULL, 10);
        n++;
    }
    route_compare_fib(c->cmp, vrf, prefix,
                      route_compare_fwd(c->cmp, action, c->nhs, n, false));
}

/* Reads the FIB file that syncd wrote at 'path', and removes it. */
static void
read_fib_file(struct check *c, const char *path)
{
    FILE *file = fopen(path, "r");

    if (!file) {
        route_check_fail("%s: %s", path, ovs_strerror(errno));
    }
    unlink(path);

    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, file) > 0) {
        fib_line(c, line);
    }
    free(line);
    fclose(file);
}

/* ---- Main ---------------------------------------------------------------
 */

int
main(int argc, char *argv[])
{
    struct check c = { .cmp = route_compare_create() };
    struct svec diffs = SVEC_EMPTY_INITIALIZER;
    struct options o;
    unsigned int views = 0;

    set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_OFF);
    parse_options(argc, argv, &o);
    hmap_init(&c.groups);

    if (o.db_file) {
        read_file_views(o.db_file, o.check_fib ? o.syncd : NULL, &c);
    } else {
        read_views(o.db, o.check_fib ? o.syncd : NULL, &c, o.slice);
    }
    if (o.check_fib) {
        views |= ROUTE_COMPARE_FIB;
    }
    if (o.check_frr) {
        route_check_read_frr(&o, &c);
        views |= ROUTE_COMPARE_FRR;
    }
    if (c.n_bad) {
        route_check_fail("%"PRIuSIZE" rows or lines could not be read (the "
                         "first: a %s)", c.n_bad, c.bad_what);
    }
    route_compare_finish(c.cmp, views, &diffs);

    if (!o.quiet) {
        for (size_t i = 0; i < diffs.n; i++) {
            puts(diffs.names[i]);
        }
    }
    printf("route-check: %"PRIuSIZE" routes, %"PRIuSIZE" Asic_Route "
           "entries", c.n_routes, route_compare_n_asic(c.cmp));
    if (o.check_fib) {
        printf(", %"PRIuSIZE" FIB entries", route_compare_n_fib(c.cmp));
    }
    if (o.check_frr) {
        printf(", %"PRIuSIZE" FRR routes", route_compare_n_frr(c.cmp));
    }
    printf(", %"PRIuSIZE" difference%s\n", diffs.n, diffs.n == 1 ? "" : "s");

    int status = diffs.n ? EXIT_DIFFER : EXIT_AGREE;
    svec_destroy(&diffs);
    route_compare_destroy(c.cmp);
    struct group *g;
    HMAP_FOR_EACH_POP (g, node, &c.groups) {
        free(g);
    }
    hmap_destroy(&c.groups);
    free(c.nhs);
    svec_destroy(&o.frr_files);
    free(o.syncd);
    free(o.db_file);
    return status;
}

static void
usage(void)
{
    printf("\
%s: prove that Route, Asic_Route and the live FIB agree\n\
usage: %s [OPTIONS]\n\
\n\
route-check reads every Route and Nexthop_Group row of the Fibsync\n\
database (what zebra selected), every Asic_Route row (what orchd asked\n\
the ASIC for, and what syncd says it did) and syncd's live FIB, resolves\n\
each route as orchd does (a blackhole drops; a next-hop group forwards to\n\
its members; next hops forward to themselves; a route with neither traps\n\
to the CPU; a lone next hop has weight 1), and prints every difference,\n\
one line each, sorted, then a summary line:\n\
\n\
  missing-asic VRF PREFIX        a route with no Asic_Route entry\n\
  extra-asic VRF PREFIX          an Asic_Route entry with no route\n\
  differs-asic VRF PREFIX: ...   Asic_Route says something else\n\
  unprogrammed VRF PREFIX: ...   Asic_Route entry not (yet) programmed:\n\
                                 its state, seq, applied_seq and error\n\
  missing-fib VRF PREFIX         a route the FIB does not hold\n\
  extra-fib VRF PREFIX           a FIB entry with no route\n\
  differs-fib VRF PREFIX: ...    the FIB forwards differently\n\
  unresolved VRF PREFIX: ...     the route's next-hop group is unknown\n\
  missing-route VRF PREFIX       (--frr) FRR has it, no Route row does\n\
  extra-route VRF PREFIX         (--frr) a Route row FRR does not have\n\
\n\
  route-check: R routes, A Asic_Route entries, F FIB entries[, N FRR\n\
  routes], D differences\n\
\n\
Prefixes are compared as their rows spell them: a Route row whose prefix\n\
is not canonical (orchd refuses it) is missing from the ASIC.\n\
\n\
How it reads the database: from the server's database file, when there\n\
is one to read (--db-file=FILE, or by default FILE beside the server's\n\
socket: DIR/fibsync.db when --db is unix:DIR/db.sock, as fibsync-ctl\n\
lays a standalone server out).  The file is replayed as ovsdb-server\n\
replays it when it starts: every whole record, to the last transaction\n\
the server had written when route-check opened it, and only the\n\
columns compared.  That asks nothing of the server, which answering a\n\
million rows costs seconds of CPU and hundreds of MB; a clustered\n\
database's file is a Raft log and is refused.  Otherwise, and with\n\
--no-db-file, it asks the server: a row at a time (no reply held\n\
whole), only the columns compared; Asic_Route in slices of its seq\n\
column from where its seqs start and past any gap (found by \"wait\"\n\
probes that read no row), each a transaction of its own, so that\n\
ovsdb-server builds one slice's reply at a time (Route, which has no\n\
column to slice on, in one select).  The FIB is read from a file that\n\
syncd writes beside its socket (\"asic/dump file PATH\"), removed once\n\
read, while the database is read.\n\
\n\
Comparing with FRR (--frr, --vtysh, --frr-json):\n\
  route-check runs \"vtysh -c 'show ip route vrf all json'\" and the same\n\
  for ipv6 and compares the routes FRR selected and sends over FPM (every\n\
  protocol but connected, kernel and local) with the Route rows, by VRF\n\
  and prefix.  FRR 8.4's JSON is read: a map from prefix to a list of\n\
  route objects (\"selected\", \"protocol\", \"vrfName\", ...), or with\n\
  \"vrf all\" a map from VRF name to such a map.\n\
\n\
Exit status: 0 if every view agrees, 1 if they differ, 2 on an error (a\n\
database, syncd or vtysh that does not answer, or rows that do not\n\
parse).\n\
\n\
Options:\n\
  --db=REMOTE          database (default: the list fibsync-ctl wrote to\n\
                       $FIBSYNC_RUNDIR/db.remotes, else\n\
                       unix:$FIBSYNC_RUNDIR/db.sock);\n\
                       a comma-separated list (a Raft cluster's servers,\n\
                       or its relay) is tried in order, the first server\n\
                       that answers read; ssl:IP:PORT needs the SSL\n\
                       options below\n\
  --db-file=FILE       read the database from FILE, the standalone\n\
                       database file of the server (read-only; the\n\
                       server may keep writing it)\n\
  --no-db-file         ask the server at --db, even when its file is\n\
                       beside its socket\n\
  --instance=N         check ASIC instance N (0 to 63, default 0): its\n\
                       Asic_Route rows (instance N) and its syncd's FIB\n\
  --syncd=SOCKET       syncd's unixctl socket\n\
                       (default $FIBSYNC_RUNDIR/syncd.ctl, or\n\
                       syncd-N.ctl with --instance=N)\n\
  --no-fib             compare Route and Asic_Route only\n\
  --frr                also compare with FRR's RIB, read with vtysh\n\
  --vtysh=CMD          run CMD instead of \"vtysh\" (implies --frr), e.g.\n\
                       --vtysh='vtysh --vty_socket /run/frr-ns1'\n\
  --frr-json=FILE      read FRR's JSON from FILE instead of running vtysh\n\
                       (implies --frr; may be given twice, ip and ipv6)\n\
  --frr-all-protocols  count FRR's connected, kernel and local routes too\n\
  --slice=N            asking the server: Asic_Route sequence numbers,\n\
                       so at most rows, per select (default %d):\n\
                       smaller keeps ovsdb-server's\n\
                       transient memory smaller, but each select scans\n\
                       the whole table there\n\
  -q, --quiet          print only the summary line\n\
  -h, --help           print this help\n\
  -p, --private-key=FILE, -c, --certificate=FILE, -C, --ca-cert=FILE\n\
                       SSL key, certificate and CA certificate (PEM, as\n\
                       ovs-pki makes them) for ssl: remotes\n\
\n\
Environment:\n\
  FIBSYNC_RUNDIR       the stack's run directory (default ./_run)\n",
           program_name, program_name, DEFAULT_SLICE);
    exit(EXIT_SUCCESS);
}
