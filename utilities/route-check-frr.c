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


/* route-check-frr: route-check's view of FRR's RIB, from --frr-json files
 * or from vtysh's "show ip[v6] route vrf all json", read as a stream by
 * lib/frr-route-json.h. */

#include <config.h>

#include "utilities/route-check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/frr-route-json.h"
#include "lib/route-compare.h"
#include "process.h"
#include "util.h"

/* frr_route_json_cb. */
static void
frr_route(const char *vrf, const char *prefix, void *c_)
{
    struct check *c = c_;

    route_compare_frr(c->cmp, vrf, prefix);
}

/* Reads FRR's JSON output from 'file' (called 'what' in messages) into
 * 'c', a piece at a time.  Returns NULL, or an error message (to be
 * freed). */
static char *
read_frr_stream(struct check *c, const char *what, FILE *file, bool all)
{
    struct frr_route_json_reader rd;
    struct frr_route_json_stats stats;
    char buf[65536];
    char *error = NULL;
    size_t n;

    frr_route_json_init(&rd, all, frr_route, c);
    while (!error && (n = fread(buf, 1, sizeof buf, file)) > 0) {
        error = frr_route_json_feed(&rd, buf, n);
    }
    if (!error && ferror(file)) {
        error = xstrdup(ovs_strerror(errno));
    }
    if (!error) {
        error = frr_route_json_finish(&rd, &stats);
    }
    frr_route_json_destroy(&rd);
    if (!error && stats.n_bad) {
        fprintf(stderr, "%s: %s: %"PRIuSIZE" entries are not routes "
                "(ignored)\n", program_name, what, stats.n_bad);
    }
    return error;
}

/* Reads FRR's routes: from the --frr-json files, or from "show ip route
 * vrf all json" and "show ipv6 route vrf all json" run by vtysh. */
void
route_check_read_frr(const struct options *o, struct check *c)
{
    for (size_t i = 0; i < o->frr_files.n; i++) {
        const char *name = o->frr_files.names[i];
        FILE *file = fopen(name, "r");

        if (!file) {
            route_check_fail("%s: %s", name, ovs_strerror(errno));
        }
        char *error = read_frr_stream(c, name, file, o->frr_all);
        if (error) {
            route_check_fail("%s: %s", name, error);
        }
        fclose(file);
    }
    if (o->frr_files.n) {
        return;
    }

    static const char *const cmds[] = {
        "show ip route vrf all json", "show ipv6 route vrf all json",
    };
    for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
        char *cmd = xasprintf("%s -c '%s'", o->vtysh ? o->vtysh : "vtysh",
                              cmds[i]);
        FILE *pipe = popen(cmd, "r");
        int status;

        if (!pipe) {
            route_check_fail("%s: %s", cmd, ovs_strerror(errno));
        }
        char *error = read_frr_stream(c, cmd, pipe, o->frr_all);
        status = pclose(pipe);
        if (status) {
            free(error);        /* The exit status says more. */
            route_check_fail("%s: %s", cmd, process_status_msg(status));
        } else if (error) {
            route_check_fail("%s: %s", cmd, error);
        }
        free(cmd);
    }
}
