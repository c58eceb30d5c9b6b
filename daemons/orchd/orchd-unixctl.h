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
 * orchd-unixctl: orchd's own unixctl commands: exit, cache/verify,
 * features/show, zmq/show, ring/show and orchd/status.  (route/show,
 * route/dump and fib/show are orchd-show.h's.)
 */

#ifndef ORCHD_UNIXCTL_H
#define ORCHD_UNIXCTL_H 1

struct orchd;

void orchd_unixctl_register_exit(struct orchd *);
void orchd_unixctl_register(struct orchd *);

#endif /* orchd-unixctl.h */
