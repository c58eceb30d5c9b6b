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

#include "lib/frr-route-json.h"

#include <stdint.h>
#include <string.h>

#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/shash.h"
#include "util.h"

/* Is 'protocol' one of zebra's own, which it never sends over FPM? */
bool
frr_route_json_protocol_is_local(const char *protocol)
{
    return (!strcmp(protocol, "connected") || !strcmp(protocol, "kernel")
            || !strcmp(protocol, "local"));
}

/* Returns member 'name' of object 'o' if it has type 'type', else NULL. */
static const struct json *
member(const struct json *o, const char *name, enum json_type type)
{
    const struct json *v = shash_find_data(json_object(o), name);

    return v && v->type == type ? v : NULL;
}

/* Reports one route object 'r' of 'prefix', in VRF 'vrf' (NULL if the
 * output was for one VRF: each route then names its own, "default" if it
 * does not). */
static void
handle_route(struct frr_route_json_reader *rd, const char *vrf,
             const char *prefix, const struct json *r)
{
    struct frr_route_json_stats *stats = &rd->stats;
    const struct json *protocol, *vrf_name;

    if (r->type != JSON_OBJECT
        || !(protocol = member(r, "protocol", JSON_STRING))) {
        stats->n_bad++;
        return;
    }
    if (!member(r, "selected", JSON_TRUE)) {
        stats->n_unselected++;
        return;
    }
    if (!rd->all_protocols
        && frr_route_json_protocol_is_local(json_string(protocol))) {
        stats->n_local++;
        return;
    }
    vrf_name = member(r, "vrfName", JSON_STRING);
    rd->cb(vrf_name ? json_string(vrf_name) : vrf ? vrf : "default",
           prefix, rd->aux);
    stats->n_routes++;
}

/* Starts reading FRR's JSON output: feed it with frr_route_json_feed() in
 * pieces of any size; 'cb' gets each route that zebra selected and sends
 * over FPM (with 'all_protocols', also those of the protocols it keeps
 * to itself) as soon as its object is complete. */
void
frr_route_json_init(struct frr_route_json_reader *rd, bool all_protocols,
                    frr_route_json_cb *cb, void *aux)
{
    memset(rd, 0, sizeof *rd);
    rd->all_protocols = all_protocols;
    rd->cb = cb;
    rd->aux = aux;
    ds_init(&rd->text);
}

void
frr_route_json_destroy(struct frr_route_json_reader *rd)
{
    ds_destroy(&rd->text);
    for (size_t i = 0; i < ARRAY_SIZE(rd->levels); i++) {
        free(rd->levels[i].key);
    }
}

/* Fails the read with 'format'.  Returns the message (to be freed). */
static char * OVS_PRINTF_FORMAT(2, 3)
reader_fail(struct frr_route_json_reader *rd, const char *format, ...)
{
    va_list args;
    char *msg;

    va_start(args, format);
    msg = xvasprintf(format, args);
    va_end(args);
    rd->failed = true;
    return msg;
}

/* The level being read. */
static struct frr_route_json_level *
top(struct frr_route_json_reader *rd)
{
    return &rd->levels[rd->n_levels - 1];
}

/* Pushes a level for the container 'c' ('{' or '[') playing 'role'. */
static void
push(struct frr_route_json_reader *rd, char c, enum frr_route_json_role role)
{
    struct frr_route_json_level *l = &rd->levels[rd->n_levels++];

    l->kind = c;
    l->role = role;
    l->expect = c == '{' ? FRJ_EXPECT_KEY_OR_END : FRJ_EXPECT_VALUE_OR_END;
}

/* A value of the level being read starts with 'c': a container (opened
 * here), a string or a scalar. */
static void
value_start(struct frr_route_json_reader *rd, char c)
{
    struct frr_route_json_level *l = top(rd);
    bool known = false;

    l->expect = FRJ_EXPECT_COMMA_OR_END;
    if (c == '{' || c == '[') {
        if (l->role == FRJ_TOP) {
            known = true;
            push(rd, c, c == '[' ? FRJ_ROUTES : FRJ_VRF);
        } else if (l->role == FRJ_VRF && c == '[') {
            known = true;
            push(rd, c, FRJ_ROUTES);
        } else if (l->role == FRJ_ROUTES && c == '{') {
            /* A route object: kept whole, then parsed. */
            known = true;
            rd->mode = FRJ_MODE_CAPTURE;
            rd->sub_depth = 1;
            ds_clear(&rd->text);
            ds_put_char(&rd->text, c);
        } else {
            rd->mode = FRJ_MODE_SKIP;
            rd->sub_depth = 1;
        }
    } else if (c == '"') {
        rd->mode = FRJ_MODE_SKIP_STRING;
    } else {
        rd->mode = FRJ_MODE_SCALAR;
    }
    if (!known) {
        rd->stats.n_bad++;
    }
}

/* The route object in 'rd->text' is complete. */
static char *
route_done(struct frr_route_json_reader *rd)
{
    struct frr_route_json_level *vrf = (rd->n_levels == 3
                                        ? &rd->levels[1] : NULL);
    struct json *json = json_from_string(ds_cstr(&rd->text));
    char *error = NULL;

    if (json->type == JSON_STRING) {
        error = reader_fail(rd, "not JSON: %s", json_string(json));
    } else {
        handle_route(rd, vrf ? rd->levels[0].key : NULL,
                     (vrf ? vrf : &rd->levels[0])->key, json);
    }
    json_destroy(json);
    ds_clear(&rd->text);
    return error;
}

/* Feeds byte 'c' to a string being read; returns true once it ended. */
static bool
string_byte(struct frr_route_json_reader *rd, char c)
{
    if (rd->escaped) {
        rd->escaped = false;
    } else if (c == '\\') {
        rd->escaped = true;
    } else if (c == '"') {
        return true;
    }
    return false;
}

/* Reads byte 'c' in a container being captured or skipped.  Returns an
 * error message, or NULL. */
static char *
sub_byte(struct frr_route_json_reader *rd, char c)
{
    if (rd->mode == FRJ_MODE_CAPTURE) {
        ds_put_char(&rd->text, c);
    }
    if (rd->in_string) {
        rd->in_string = !string_byte(rd, c);
        return NULL;
    }
    if (c == '"') {
        rd->in_string = true;
    } else if (c == '{' || c == '[') {
        rd->sub_depth++;
    } else if ((c == '}' || c == ']') && !--rd->sub_depth) {
        bool capture = rd->mode == FRJ_MODE_CAPTURE;

        rd->mode = FRJ_MODE_STRUCTURE;
        return capture ? route_done(rd) : NULL;
    }
    return NULL;
}

/* Reads structural byte 'c' (outside any string, capture or skip), the
 * 'pos'th of the output.  Returns an error message, or NULL. */
static char *
structure_byte(struct frr_route_json_reader *rd, char c, size_t pos)
{
    struct frr_route_json_level *l;

    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
        return NULL;
    }
    if (rd->done) {
        return reader_fail(rd, "not JSON: '%c' after the end, at byte "
                           "%"PRIuSIZE, c, pos);
    }
    if (!rd->n_levels) {
        if (c == '{') {
            push(rd, c, FRJ_TOP);
            return NULL;
        }
        return (c == '[' || c == '"'
                ? reader_fail(rd, "not a JSON object of prefixes")
                : reader_fail(rd, "not JSON: '%c' at byte %"PRIuSIZE,
                              c, pos));
    }

    l = top(rd);
    if ((c == '}' || c == ']')
        && c == (l->kind == '{' ? '}' : ']')
        && l->expect != FRJ_EXPECT_COLON && l->expect != FRJ_EXPECT_KEY
        && l->expect != FRJ_EXPECT_VALUE) {
        free(l->key);
        l->key = NULL;
        if (!--rd->n_levels) {
            rd->done = true;
        } else {
            top(rd)->expect = FRJ_EXPECT_COMMA_OR_END;
        }
        return NULL;
    }
    switch (l->expect) {
    case FRJ_EXPECT_KEY_OR_END:
    case FRJ_EXPECT_KEY:
        if (c == '"') {
            rd->mode = FRJ_MODE_KEY;
            ds_clear(&rd->text);
            return NULL;
        }
        break;
    case FRJ_EXPECT_COLON:
        if (c == ':') {
            l->expect = FRJ_EXPECT_VALUE;
            return NULL;
        }
        break;
    case FRJ_EXPECT_VALUE_OR_END:
    case FRJ_EXPECT_VALUE:
        value_start(rd, c);
        return NULL;
    case FRJ_EXPECT_COMMA_OR_END:
        if (c == ',') {
            l->expect = l->kind == '{' ? FRJ_EXPECT_KEY : FRJ_EXPECT_VALUE;
            return NULL;
        }
        break;
    }
    return reader_fail(rd, "not JSON: unexpected '%c' at byte %"PRIuSIZE,
                       c, pos);
}

/* Feeds the next 'n' bytes of FRR's output.  Returns NULL, or an error
 * message (to be freed) if they are not such output; after an error, the
 * reader takes nothing more. */
char *
frr_route_json_feed(struct frr_route_json_reader *rd, const void *data,
                    size_t n)
{
    const char *p = data;

    for (size_t i = 0; i < n && !rd->failed; i++, rd->pos++) {
        char c = p[i];
        char *error = NULL;

        switch (rd->mode) {
        case FRJ_MODE_STRUCTURE:
            error = structure_byte(rd, c, rd->pos);
            break;
        case FRJ_MODE_KEY:
            if (string_byte(rd, c)) {
                struct frr_route_json_level *l = top(rd);

                free(l->key);
                l->key = ds_steal_cstr(&rd->text);
                l->expect = FRJ_EXPECT_COLON;
                rd->mode = FRJ_MODE_STRUCTURE;
            } else {
                ds_put_char(&rd->text, c);
            }
            break;
        case FRJ_MODE_SKIP_STRING:
            if (string_byte(rd, c)) {
                rd->mode = FRJ_MODE_STRUCTURE;
            }
            break;
        case FRJ_MODE_SCALAR:
            if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n'
                || c == '\t' || c == '\r') {
                rd->mode = FRJ_MODE_STRUCTURE;
                error = structure_byte(rd, c, rd->pos);
            }
            break;
        case FRJ_MODE_CAPTURE:
        case FRJ_MODE_SKIP:
            error = sub_byte(rd, c);
            break;
        }
        if (error) {
            return error;
        }
    }
    return rd->failed ? xstrdup("earlier error") : NULL;
}

/* Ends the read: returns NULL, or an error message (to be freed) if the
 * output ended early.  Fills in '*stats'. */
char *
frr_route_json_finish(struct frr_route_json_reader *rd,
                      struct frr_route_json_stats *stats)
{
    *stats = rd->stats;
    if (rd->failed) {
        return xstrdup("earlier error");
    } else if (!rd->done) {
        return xstrdup(rd->pos ? "not JSON: the output ends early"
                       : "not JSON: empty output");
    }
    return NULL;
}

/* Parses 'text', the whole output of vtysh's "show ip route [vrf all]
 * json" or "show ipv6 route [vrf all] json" (see the header), and calls
 * 'cb' for each route reported.  Fills in '*stats'.  Returns NULL, or an
 * error message (to be freed) if 'text' is not such output; entries that
 * are not route lists or route objects are counted in 'n_bad', not
 * refused. */
char *
frr_route_json_parse(const char *text, bool all_protocols,
                     frr_route_json_cb *cb, void *aux,
                     struct frr_route_json_stats *stats)
{
    struct frr_route_json_reader rd;
    char *error;

    frr_route_json_init(&rd, all_protocols, cb, aux);
    error = frr_route_json_feed(&rd, text, strlen(text));
    if (!error) {
        error = frr_route_json_finish(&rd, stats);
    } else {
        *stats = rd.stats;
    }
    frr_route_json_destroy(&rd);
    return error;
}
