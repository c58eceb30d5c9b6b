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

#ifndef FPM_REPLAY_H
#define FPM_REPLAY_H 1

/* fpm-replay: what its modes share.
 *
 * fpm-replay.c parses the command line into a struct fpm_replay_options
 * and runs one mode:
 *
 *   generate   fpm-replay-generate.c: synthetic routes to a listener,
 *              acting as zebra
 *   malformed  fpm-replay-malformed.c: after generating, one bad frame
 *              (--malformed KIND) for receivers' tests
 *   record     fpm-replay-record.c: listen, accept zebra and save its
 *              frames to a file
 *   replay     fpm-replay-replay.c: send a recorded file to a listener
 *   print      fpm-replay-print.c: decode a recorded file
 *
 * The modes that act as zebra talk to the listener through a struct
 * fpm_replay_conn (fpm-replay-conn.c), which batches netlink messages into
 * frames, paces them (--rate), counts the listener's replies and prints the
 * session summary.  fpm-replay-util.c holds the clock, the signal handling
 * and the reading of capture files. */

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/fpm-frame.h"
#include "lib/fpm-route.h"
#include "openvswitch/ofpbuf.h"

struct nlmsghdr;

/* Command-line settings. */
struct fpm_replay_options {
    const char *host;           /* --host: address to connect/listen. */
    const char *port;           /* --port. */
    unsigned int n_routes;      /* --routes. */
    unsigned int ipv6_pct;      /* --ipv6: percentage of IPv6 routes. */
    bool fixed_lengths;         /* --prefix-mix=fixed or --v4-len/--v6-len. */
    unsigned int v4_len;        /* Fixed IPv4 prefix length. */
    unsigned int v6_len;        /* Fixed IPv6 prefix length. */
    unsigned int ecmp;          /* --ecmp: paths per route. */
    unsigned int pool;          /* --nexthops: gateways per family. */
    unsigned int ifindex;       /* --ifindex: outgoing interface. */
    bool ucmp;                  /* --ucmp: unequal weights. */
    bool nhg;                   /* --nhg (default) or --no-nhg. */
    unsigned int table;         /* --table. */
    unsigned int protocol;      /* --protocol. */
    unsigned int metric;        /* --metric. */
    unsigned int churn;         /* --churn: path changes after announce. */
    double churn_gap;           /* --churn-gap: seconds between a path
                                 * change's delete and its add. */
    bool final;                 /* --final: send the routes as the
                                 * churn leaves them, no path change. */
    unsigned int delete_pct;    /* --delete-share: percentage of the
                                 * routes withdrawn during the load. */
    unsigned int replace_pct;   /* --replace-share: percentage of the
                                 * routes replaced in place during it. */
    bool standing;              /* --standing: print how many routes the
                                 * load leaves standing, send nothing. */
    bool delete_only;           /* --delete: withdraw instead. */
    bool then_delete;           /* --then-delete: announce, then withdraw. */
    unsigned int frame_size;    /* --frame-size: max bytes per frame. */
    unsigned int batch;         /* --batch: max messages per frame. */
    double rate;                /* --rate: routes per second, 0 = max. */
    unsigned long long seed;    /* --seed. */
    double linger;              /* --linger: seconds to keep reading. */
    bool wait_offload;          /* --wait-offload. */
    const char *record;         /* --record FILE. */
    double idle;                /* --idle: record stop after idle secs. */
    double duration;            /* --duration: record stop after secs. */
    const char *replay;         /* --replay FILE. */
    const char *print;          /* --print FILE. */
    const char *malformed;      /* --malformed KIND. */
    int verbosity;              /* -v (more) / -q (less). */
};

/* Time, signals and files (fpm-replay-util.c). */

/* Nonzero once SIGINT or SIGTERM has arrived.  The one mutable variable at
 * file scope: a signal handler can reach nothing else, and the per-route
 * loops test it directly. */
extern volatile sig_atomic_t fpm_replay_stop_requested;

void fpm_replay_install_signal_handlers(void);
double fpm_replay_now(void);
void fpm_replay_read_file(const char *file_name, struct ofpbuf *);

/* Connection to an FPM listener (generate and replay modes,
 * fpm-replay-conn.c). */
struct fpm_replay_conn {
    int fd;                     /* Non-blocking TCP socket. */
    const struct fpm_replay_options *opts; /* --linger, -v and the like. */

    /* Output: complete frames, then possibly one open frame. */
    struct ofpbuf out;          /* Queued bytes. */
    size_t sent;                /* Bytes of 'out' already written. */
    size_t open_ofs;            /* Offset of the open frame in 'out', or
                                 * SIZE_MAX if none. */
    size_t open_msgs;           /* Messages in the open frame. */
    size_t frame_max;           /* Largest frame, header included. */
    size_t batch;               /* Max messages per frame, 0 = no limit. */
    double rate;                /* --rate, kept here with 'frame_max' and
                                 * 'batch' for the per-route paths. */
    struct ofpbuf msg;          /* Scratch for one netlink message. */
    uint32_t seq;               /* Next nlmsg_seq. */

    /* Output counters. */
    uint64_t n_bytes;           /* Bytes written to the socket. */
    uint64_t n_frames;          /* Frames closed. */
    uint64_t n_msgs;            /* Netlink messages queued. */
    uint64_t n_route_add;       /* RTM_NEWROUTE queued. */
    uint64_t n_route_del;       /* RTM_DELROUTE queued. */
    uint64_t n_nh_add;          /* RTM_NEWNEXTHOP queued. */
    uint64_t n_nh_del;          /* RTM_DELNEXTHOP queued. */
    double first_send;          /* Time of the first write, or 0. */
    double last_send;           /* Time of the last write. */

    /* Input: whatever the listener sends back (offload replies). */
    struct fpm_splitter in;     /* Splits replies into frames. */
    struct fpm_msg reply;       /* Parse scratch for replies. */
    struct fpm_parse_stats rstats; /* Reply parse counters. */
    uint64_t n_offload;         /* Replies with RTM_F_OFFLOAD. */
    uint64_t n_trap;            /* Replies with RTM_F_TRAP. */
    uint64_t n_failed;          /* Replies with RTM_F_OFFLOAD_FAILED. */
    double last_reply;          /* Time of the last reply, or 0. */
    bool bad_input;             /* Replies had a bad frame header. */
    bool peer_closed;           /* Read EOF or got a reset. */
    int peer_error;             /* errno of the failure, 0 for EOF. */
};

int fpm_replay_open_tcp(const char *host, const char *port, bool passive);
void fpm_replay_conn_open(struct fpm_replay_conn *,
                          const struct fpm_replay_options *);
void fpm_replay_conn_destroy(struct fpm_replay_conn *);
void fpm_replay_conn_count(struct fpm_replay_conn *, uint16_t type,
                           bool route);
void fpm_replay_conn_close_frame(struct fpm_replay_conn *);
void fpm_replay_conn_put_msg(struct fpm_replay_conn *);
void fpm_replay_conn_put_frame(struct fpm_replay_conn *,
                               const void *frame, size_t len);
void fpm_replay_pace(struct fpm_replay_conn *, double t0, uint64_t done);
void fpm_replay_conn_pause(struct fpm_replay_conn *, double seconds);
int fpm_replay_conn_finish(struct fpm_replay_conn *, double t0,
                           const char *what, bool expect_close);

/* Modes.  Each returns the program's exit status. */
int fpm_replay_generate(const struct fpm_replay_options *);
int fpm_replay_record(const struct fpm_replay_options *);
int fpm_replay_replay(const struct fpm_replay_options *);
int fpm_replay_print(const struct fpm_replay_options *);

/* Generate mode's gateway addresses, also used by --malformed. */
void fpm_replay_gateway_addr(int family, unsigned int k, struct fpm_addr *);

/* --malformed (fpm-replay-malformed.c). */
bool fpm_replay_malformed_kind_is_valid(const char *kind);
bool fpm_replay_send_malformed(struct fpm_replay_conn *, const char *kind);

/* Prints one parsed message (print mode, and record mode with -vv). */
void fpm_replay_print_cb(const struct fpm_msg *, int error,
                         const struct nlmsghdr *, void *aux);

#endif /* fpm-replay.h */
