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


#ifndef FPM_ROUTE_FORMAT_H
#define FPM_ROUTE_FORMAT_H 1

/* fpm-route-format: text forms of what lib/fpm-route.h decodes (prefixes,
 * addresses, whole messages, for logs and fpm-replay's print), and
 * interface names for the ifindexes the FPM stream carries.  The stream
 * carries ifindexes only; they are left numeric in struct fpm_route, and
 * fpm_ifindex_to_name() maps one in the caller's network namespace.
 *
 * Thread safety: every function is thread-safe; no state. */

#include <stddef.h>
#include <stdint.h>

#include "lib/fpm-route.h"

struct ds;

void fpm_prefix_format(const struct fpm_prefix *, struct ds *);
void fpm_addr_format(const struct fpm_addr *, struct ds *);
void fpm_msg_format(const struct fpm_msg *, struct ds *);
const char *fpm_ifindex_to_name(uint32_t ifindex, char *buf, size_t size);

#endif /* fpm-route-format.h */
