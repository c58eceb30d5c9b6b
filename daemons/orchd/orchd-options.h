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

/*
 * orchd-options: orchd's command line and the tunables it shares with the
 * Global row.
 *
 * Every option lands in one struct orchd_options, which main() owns and
 * hands to the parts that need it: orchd keeps no mutable file-scope
 * state for its options.  The tunables that a Global column can also set
 * ("features", as features/show lists them) are lib/setting.h settings:
 * the command line overrides Global, which overrides the default.
 */

#ifndef ORCHD_OPTIONS_H
#define ORCHD_OPTIONS_H 1

#include <stdbool.h>
#include <stdint.h>

#include "daemons/orchd/orchd-southbound.h"
#include "lib/setting.h"

struct ds;
struct global_follower;
struct orchd_bulker_config;

/* The ring's size by default (-b, Global's batch_size), in units of 64
 * tasks. */
#define ORCHD_DEFAULT_BATCH_SIZE 1000

/* orchd's tunables, as features/show lists them, in this order. */
enum orchd_feature {
    ORCHD_F_RING,               /* Ring buffer and assistant thread. */
    ORCHD_F_ASYNC,              /* Asynchronous SAI mode. */
    ORCHD_F_MAX_OUTSTANDING,    /* Window in async mode. */
    ORCHD_F_MAX_BULK,           /* Bulk size (-k). */
    ORCHD_F_BATCH,              /* Ring size, 64 tasks a unit (-b). */
    ORCHD_F_FIB_SUPPRESSION,    /* Status write-back. */
    ORCHD_F_SORTED,             /* Sorted bulks. */
    ORCHD_F_NEXTHOP_GROUPS,     /* Shared next-hop groups (syncd). */
    ORCHD_F_NORTHBOUND_ZMQ,     /* Routes from fpmsyncd over ZeroMQ. */
    ORCHD_N_FEATURES
};

/* Everything the command line says. */
struct orchd_options {
    char *db_remote;            /* --db, or the default. */
    char *unixctl_path;         /* --unixctl, or NULL for the default. */
    char *nb_endpoint;          /* --northbound-endpoint, or NULL. */
    char *routes_file;          /* --routes-from-file, or NULL. */
    char *asic_file;            /* --asic-from-file, or NULL. */
    bool use_route_index;       /* Not --no-route-index. */
    int instance;               /* --instance: the ASIC instance. */
    int64_t asic_read_slice;    /* --asic-read-slice: seqs per select of
                                 * the Asic_Route reads (at start, and on
                                 * the southbound OVSDB path after the
                                 * acknowledgements' monitor began
                                 * again). */
    unsigned int replica_steps; /* --replica-steps: the steps in which
                                 * Route's rows enter the replica
                                 * (orchd-replica.h). */
    struct setting features[ORCHD_N_FEATURES]; /* The tunables. */
    struct orchd_southbound_settings sb; /* The southbound path's. */
};

void orchd_options_parse(struct orchd_options *, int argc, char *argv[]);
void orchd_options_destroy(struct orchd_options *);

void orchd_options_read_global(struct orchd_options *,
                               const struct global_follower *);
int64_t orchd_options_feature(const struct orchd_options *,
                              enum orchd_feature);
void orchd_options_bulker_config(const struct orchd_options *,
                                 struct orchd_bulker_config *);
void orchd_options_format_features(const struct orchd_options *,
                                   struct ds *);

#endif /* orchd-options.h */
