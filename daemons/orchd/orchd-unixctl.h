/*
 * orchd-unixctl: orchd's own unixctl commands: exit, cache/verify,
 * features/show, zmq/show, ring/show and orchd/status.  (route/show,
 * route/dump and fib/show are orchd-show.h's.)
 *
 * Copyright (c) 2024 The fibsync authors.
 * Licensed under the Apache License, Version 2.0.
 */

#ifndef ORCHD_UNIXCTL_H
#define ORCHD_UNIXCTL_H 1

struct orchd;

void orchd_unixctl_register_exit(struct orchd *);
void orchd_unixctl_register(struct orchd *);

#endif /* orchd-unixctl.h */
