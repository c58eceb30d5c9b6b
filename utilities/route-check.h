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


#ifndef ROUTE_CHECK_H
#define ROUTE_CHECK_H 1

/* route-check's own interface between its files: the command line, what a
 * run reads its views into, and the functions the readers share.
 * utilities/route-check.c parses the command line, reads the database
 * from the server and syncd's FIB, and compares; route-check-file.c reads
 * the database from its file instead; route-check-frr.c reads FRR.
 *
 * Thread safety: none; route-check has one thread. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "openvswitch/compiler.h"
#include "openvswitch/hmap.h"
#include "svec.h"

struct route_compare;
struct route_compare_nh;

/* The command line. */
struct options {
    const char *db;             /* --db. */
    char *syncd;                /* --syncd. */
    bool check_fib;             /* Not --no-fib. */
    bool quiet;                 /* -q. */
    bool check_frr;             /* --frr, --frr-json or --vtysh. */
    const char *vtysh;          /* --vtysh: vtysh's command. */
    struct svec frr_files;      /* --frr-json files. */
    bool frr_all;               /* --frr-all-protocols. */
    int64_t slice;              /* --slice. */
    int instance;               /* --instance. */
    char *db_file;              /* --db-file, or the default one: the
                                 * database file to read; NULL to ask
                                 * the server at 'db'. */
};


/* What the run reads into. */
struct check {
    struct route_compare *cmp;  /* The comparison. */
    struct hmap groups;         /* "struct group"s. */
    size_t n_routes;            /* Route rows. */
    size_t n_bad;               /* Rows or lines that could not be read. */
    const char *bad_what;       /* What the first bad one was. */
    struct route_compare_nh *nhs; /* Scratch next hops. */
    size_t allocated_nhs;       /* Room in 'nhs'. */
};


/* A Route row, decoded by either reader. */
struct route_view {
    const char *vrf;            /* Route.vrf. */
    const char *prefix;         /* Route.prefix. */
    bool blackhole;             /* Route.blackhole. */
    bool has_group;             /* Route.nexthop_group is set... */
    int64_t group;              /* ...to this. */
    size_t n_nhs;               /* Route.nexthops, in 'check->nhs'. */
};

void route_check_fail(const char *format, ...)
    OVS_PRINTF_FORMAT(1, 2) OVS_NO_RETURN;

/* Folding rows into a run, for either database reader. */
void route_check_note_bad(struct check *, const char *what);
void route_check_group_add(struct check *, int64_t id, size_t n);
void route_check_route_add(struct check *, const struct route_view *);
void route_check_asic_add(struct check *, const char *vrf,
                          const char *prefix, const char *action, size_t n,
                          const char *state, int64_t seq,
                          int64_t applied_seq, const char *error);

/* The readers. */
char *route_check_read_file(const char *file, int instance, struct check *)
    OVS_WARN_UNUSED_RESULT;
void route_check_read_frr(const struct options *, struct check *);

#endif /* route-check.h */
