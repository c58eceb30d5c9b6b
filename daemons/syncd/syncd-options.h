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

#ifndef SYNCD_OPTIONS_H
#define SYNCD_OPTIONS_H 1

/* syncd-options: syncd's command line.  syncd_options_parse() fills a
 * "struct syncd_options" from argv[] (or exits, for --help, --version or
 * an error); the daemon (daemons/syncd/syncd.c) hands its parts to the
 * modules it creates. */

#include <stddef.h>

#include "asic-sim/asic-sim.h"
#include "daemons/syncd/syncd-apply.h"
#include "daemons/syncd/syncd-counters.h"
#include "daemons/syncd/syncd-db.h"
#include "lib/setting.h"

/* syncd's command line. */
struct syncd_options {
    char *db;                   /* --db. */
    char *unixctl;              /* --unixctl. */
    struct syncd_apply_options apply; /* Capacities, ports, bulk size. */
    struct syncd_db_options dbo;      /* Write-back batching. */
    struct syncd_counters_options co; /* Hit counters to Route.counters. */
    struct asic_sim_fault fault;      /* --fault-rate/-seed/-delay. */
    struct setting max_bulk;    /* -k, or Global.max_bulk_size. */
    struct setting southbound_zmq; /* --southbound-zmq, or
                                    * Global.southbound_zmq. */
    char *southbound_endpoint;  /* --southbound-endpoint, or NULL. */
    char *warm_file;            /* --warm-file. */
    int instance;               /* --instance: the ASIC instance. */
    char **fault_prefixes;      /* --fault-prefix values. */
    size_t n_fault_prefixes;    /* Number of 'fault_prefixes'. */
};

void syncd_options_parse(int argc, char *argv[], struct syncd_options *);
void syncd_options_destroy(struct syncd_options *);

#endif /* syncd-options.h */
