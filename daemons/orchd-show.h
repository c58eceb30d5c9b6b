/*
 * orchd-show: "show ip route" answered from orchd's replica of Route and
 * the compound indexes over it (idl/route-index.h), for fibctl.
 *
 * fibctl sends its command line, from "ip" or "ipv6" on, as the unixctl
 * command "fib/show"; the answer is text close to FRR's "show ip route",
 * or JSON shaped like FRR's "show ip route json".  Every lookup goes
 * through an index: an exact prefix through the (vrf, prefix) skiplist,
 * an address through longest-prefix probing of the same skiplist, lists
 * through ordered range walks.  "detail" fetches the on-demand column
 * Route.counters for the rows it prints, and answers once the fetches are
 * back.
 *
 * route/show and route/dump answer from the read cache of programmed
 * entries (daemons/orchd-cache.h) instead: they work without a replica,
 * on the northbound fast path too.
 */

#ifndef ORCHD_SHOW_H
#define ORCHD_SHOW_H 1

#include <stdbool.h>

struct fibrec_route;
struct orchd_cache;
struct orchd_entry;
struct ovsdb_idl;
struct route_index;

/* Resolves a Route row into the SAI entry orchd would program (a new
 * reference), or NULL if it cannot be resolved. */
typedef struct orchd_entry *orchd_show_resolve_func(
    void *aux, const struct fibrec_route *);

struct orchd_show *orchd_show_create(struct ovsdb_idl *,
                                     struct route_index *,
                                     struct orchd_cache *,
                                     orchd_show_resolve_func *, void *aux);
void orchd_show_destroy(struct orchd_show *);
void orchd_show_run(struct orchd_show *);
void orchd_show_wait(struct orchd_show *);

void orchd_show_register_cache_commands(struct orchd_cache *);

#endif /* daemons/orchd-show.h */
