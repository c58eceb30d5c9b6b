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

#ifndef FPMSYNCD_OPTIONS_H
#define FPMSYNCD_OPTIONS_H 1

/* fpmsyncd's command line: what it says, with the defaults of what it
 * leaves out, parsed by fpmd_options_parse() (which prints the usage text
 * for --help).  Thread safety: none. */

#include "daemons/fpmsyncd/fpmsyncd-db.h"
#include "svec.h"

/* What the command line says. */
struct fpmd_options {
    struct fpmd_settings settings; /* Tunables. */
    char *db_remote;            /* Database. */
    char *fpm_addr;             /* Address to listen on for zebra. */
    int fpm_port;               /* Port to listen on. */
    char *unixctl_path;         /* Control socket. */
    int n_instances;            /* --instances: ASIC instances (0 if not
                                 * given). */
    struct svec nb_endpoints;   /* Each instance's orchd's northbound
                                 * ZeroMQ endpoint, instance I at [I]. */
};

void fpmd_options_parse(int argc, char *argv[], struct fpmd_options *);
void fpmd_options_destroy(struct fpmd_options *);

#endif /* fpmsyncd-options.h */
