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

#ifndef SYNCD_PATH_H
#define SYNCD_PATH_H 1

/* syncd-path: which southbound path programs the routes, OVSDB (Asic_Route,
 * daemons/syncd/syncd-db.h) or ZeroMQ (orchd's frames,
 * daemons/syncd/syncd-zmq.h), chosen once, and started. */

struct ds;
struct syncd;
struct syncd_options;

void syncd_path_run(struct syncd *, struct syncd_options *);
void syncd_path_format(const struct syncd *, struct ds *);

#endif /* syncd-path.h */
