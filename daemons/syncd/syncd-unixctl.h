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

#ifndef SYNCD_UNIXCTL_H
#define SYNCD_UNIXCTL_H 1

/* syncd-unixctl: syncd's runtime commands (ovs-appctl -t SOCKET COMMAND;
 * see syncd --help for the list), registered on the daemon's state. */

struct syncd;

void syncd_unixctl_register(struct syncd *);

#endif /* syncd-unixctl.h */
