/*
 * Copyright (c) 2026 The fibsync authors.
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

/* global-follower: the Global row, followed by a client of its own (see
 * lib/global-follower.h). */

#include <config.h>

#include "lib/global-follower.h"

#include <stdlib.h>
#include <string.h>

#include "lib/ovsdb-cs-retry.h"
#include "lib/ovsdb-wire.h"
#include "lib/setting.h"
#include "openvswitch/json.h"
#include "openvswitch/list.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovsdb-cs.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(global_follower);

#define GLOBAL_FOLLOWER_DB "Fibsync"    /* The database. */
#define GLOBAL_FOLLOWER_TABLE "Global"  /* The table followed. */

/* A follower. */
struct global_follower {
    struct ovsdb_cs *cs;        /* The monitor, or NULL without a remote. */
    struct ovsdb_cs_retry retry; /* Its reconnection (if 'cs'). */
    struct json *columns;       /* Columns monitored (a JSON array), or
                                 * NULL for all. */
    struct json *schema;        /* The server's schema, once known. */
    struct json *row;           /* The row (an object of its columns), or
                                 * NULL if there is none. */
    bool read;                  /* First contents received? */
    unsigned int seqno;         /* Moves when 'row' or 'read' changes. */
    uint64_t n_updates;         /* Updates received with Global. */
};

/* ovsdb-cs's compose_monitor_requests callback: the Global columns asked
 * for, of the server's 'schema' (kept for global_follower_has_table()). */
static struct json *
compose_monitor_requests(const struct json *schema, void *gf_)
{
    struct global_follower *gf = gf_;
    struct json *request = json_object_create();
    struct json *requests = json_object_create();

    global_follower_take_schema(gf, schema);
    if (gf->columns) {
        json_object_put(request, "columns", json_clone(gf->columns));
    }
    json_object_put(requests, GLOBAL_FOLLOWER_TABLE,
                    json_array_create_1(request));
    return requests;
}

static const struct ovsdb_cs_ops cs_ops = {
    .compose_monitor_requests = compose_monitor_requests,
};

/* Creates a follower of the Global row of the database at 'remote' (or of
 * none, if 'remote' is NULL: see global_follower_take_update()), that
 * monitors 'columns' (a NULL-terminated array of names), or every column
 * if 'columns' is NULL.  Its reconnections are logged at debug level only:
 * each daemon has another client of the same remote that says so. */
struct global_follower *
global_follower_create(const char *remote, const char *const *columns)
{
    struct global_follower *gf = xzalloc(sizeof *gf);

    if (columns) {
        gf->columns = json_array_create_empty();
        for (size_t i = 0; columns[i]; i++) {
            json_array_add(gf->columns, json_string_create(columns[i]));
        }
    }
    if (remote) {
        /* Version 1 ("monitor"): each modification carries the whole row,
         * so that no replica is needed to apply column diffs to. */
        gf->cs = ovsdb_cs_create(GLOBAL_FOLLOWER_DB, 1, &cs_ops, gf);
        ovsdb_cs_set_remote(gf->cs, remote, true);
        ovsdb_cs_retry_init(&gf->retry, remote);
        ovsdb_cs_retry_set_quiet(&gf->retry, true);
    }
    return gf;
}

void
global_follower_destroy(struct global_follower *gf)
{
    if (gf) {
        if (gf->cs) {
            ovsdb_cs_destroy(gf->cs);
            ovsdb_cs_retry_destroy(&gf->retry);
        }
        json_destroy(gf->columns);
        json_destroy(gf->schema);
        json_destroy(gf->row);
        free(gf);
    }
}

/* Takes in the server's 'schema' (as ovsdb-cs composes a monitor with). */
void
global_follower_take_schema(struct global_follower *gf,
                            const struct json *schema)
{
    json_destroy(gf->schema);
    gf->schema = schema ? json_clone(schema) : NULL;
}

/* Takes in 'tu', the changes to the Global table of an update (NULL if it
 * has none), which replaces everything known if 'clear' (the monitor's
 * first contents, at each connection).  The table has one row at most,
 * but a transaction may replace it: a row that is there wins over one
 * deleted.  The seqno moves if the row changed, or with the first
 * contents. */
void
global_follower_take_update(struct global_follower *gf,
                            const struct ovsdb_cs_table_update *tu,
                            bool clear)
{
    const struct shash *columns = NULL;
    bool deleted = false;
    struct json *row;

    if (!tu && !clear) {
        return;
    }
    if (tu) {
        gf->n_updates++;
    }
    for (size_t i = 0; tu && i < tu->n; i++) {
        const struct ovsdb_cs_row_update *ru = &tu->row_updates[i];

        if (ru->type != OVSDB_CS_ROW_DELETE) {
            columns = ru->columns;
            break;
        }
        deleted = true;
    }
    if (!columns && !clear && !deleted) {
        return;
    }

    row = NULL;
    if (columns) {
        struct shash_node *node;

        row = json_object_create();
        SHASH_FOR_EACH (node, columns) {
            json_object_put(row, node->name, json_clone(node->data));
        }
    }
    if (!gf->read || !(row == gf->row
                       || (row && gf->row && json_equal(row, gf->row)))) {
        gf->seqno++;
    }
    gf->read = true;
    json_destroy(gf->row);
    gf->row = row;
}

/* Reads the monitor. */
void
global_follower_run(struct global_follower *gf)
{
    struct ovsdb_cs_event *event;
    struct ovs_list events;

    if (!gf->cs) {
        return;
    }
    ovsdb_cs_retry_run_cs(&gf->retry, gf->cs);
    ovsdb_cs_run(gf->cs, &events);
    LIST_FOR_EACH_POP (event, list_node, &events) {
        if (event->type == OVSDB_CS_EVENT_TYPE_UPDATE) {
            struct ovsdb_cs_update_event *u = &event->update;
            struct ovsdb_cs_db_update *du;

            du = ovsdb_wire_parse_update(u, "Global monitor");
            if (du) {
                global_follower_take_update(
                    gf, ovsdb_cs_db_update_find_table(du,
                                                      GLOBAL_FOLLOWER_TABLE),
                    u->clear);
                ovsdb_cs_db_update_destroy(du);
            }
        }
        ovsdb_cs_event_destroy(event);
    }
}

void
global_follower_wait(struct global_follower *gf)
{
    if (gf->cs) {
        ovsdb_cs_wait(gf->cs);
        ovsdb_cs_retry_wait(&gf->retry);
    }
}

/* Is the monitor connected? */
bool
global_follower_is_connected(const struct global_follower *gf)
{
    return gf->cs && ovsdb_cs_is_connected(gf->cs);
}

/* Have the monitor's first contents arrived (so that the row, or its
 * absence, is what the database says)? */
bool
global_follower_has_read(const struct global_follower *gf)
{
    return gf->read;
}

/* Returns a number that changes whenever the row does (and when the first
 * contents arrive): a daemon takes the row in again when it moved since it
 * last looked. */
unsigned int
global_follower_seqno(const struct global_follower *gf)
{
    return gf->seqno;
}

/* Returns the number of updates received with changes to Global (the
 * first contents included), whether or not they changed the row. */
uint64_t
global_follower_n_updates(const struct global_follower *gf)
{
    return gf->n_updates;
}

/* Does the server's schema have 'table'?  Known once the monitor was
 * composed (before the first contents arrive): false until then. */
bool
global_follower_has_table(const struct global_follower *gf,
                          const char *table)
{
    return ovsdb_wire_schema_has_table(gf->schema, table);
}

/* Is there a Global row? */
bool
global_follower_has_row(const struct global_follower *gf)
{
    return gf->row != NULL;
}

/* Stores in '*value' the integer in optional 'column' and returns true, or
 * returns false if it holds none. */
bool
global_follower_get_integer(const struct global_follower *gf,
                            const char *column, int64_t *value)
{
    return ovsdb_wire_get_integer(ovsdb_wire_col(gf->row, column), value);
}

/* Stores in '*value' the boolean in optional 'column' and returns true, or
 * returns false if it holds none. */
bool
global_follower_get_boolean(const struct global_follower *gf,
                            const char *column, bool *value)
{
    const struct json *v = ovsdb_wire_get_optional(
        ovsdb_wire_col(gf->row, column));

    if (v && (v->type == JSON_TRUE || v->type == JSON_FALSE)) {
        *value = v->type == JSON_TRUE;
        return true;
    }
    return false;
}

/* Returns the string in optional 'column', or NULL if it holds none.  It
 * is valid until the follower next runs. */
const char *
global_follower_get_string(const struct global_follower *gf,
                           const char *column)
{
    return ovsdb_wire_get_string(ovsdb_wire_col(gf->row, column));
}

/* Returns the value of 'key' in string-to-string map 'column', or NULL if
 * it has none.  It is valid until the follower next runs. */
const char *
global_follower_get_map_string(const struct global_follower *gf,
                               const char *column, const char *key)
{
    return ovsdb_wire_map_get_string(ovsdb_wire_col(gf->row, column), key);
}

/* Applies integer 'column' to 's' (the command line still wins; an empty
 * column puts it back to its default).  Returns true if the value in force
 * changed. */
bool
global_follower_set_integer(const struct global_follower *gf,
                            struct setting *s, const char *column)
{
    int64_t value = 0;
    bool present = global_follower_get_integer(gf, column, &value);

    return setting_set_global(s, present, value);
}

/* As global_follower_set_integer(), for boolean 'column' (1 or 0). */
bool
global_follower_set_boolean(const struct global_follower *gf,
                            struct setting *s, const char *column)
{
    bool value = false;
    bool present = global_follower_get_boolean(gf, column, &value);

    return setting_set_global(s, present, value);
}

/* Chooses '*path' from setting 's', unless it is chosen already: once the
 * command line fixed 's', or once the first contents arrived (the daemon
 * took the row into 's' first).  'gf' may be NULL (as the command line is
 * parsed, before there is a follower): then only the command line
 * chooses.  Returns true if it chose now, false otherwise. */
bool
global_follower_choose_path(const struct global_follower *gf,
                            const struct setting *s,
                            struct global_follower_path *path)
{
    if (path->chosen
        || (!s->cmdline && !(gf && global_follower_has_read(gf)))) {
        return false;
    }
    path->chosen = true;
    path->zmq = s->value != 0;
    return true;
}

/* Does setting 's' say now another path than the one chosen, which holds
 * until the daemon restarts? */
bool
global_follower_path_outdated(const struct global_follower_path *path,
                              const struct setting *s)
{
    return path->chosen && path->zmq != (s->value != 0);
}
