/*
 * Copyright (c) 2026 The fibsync authors.
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

#ifndef GLOBAL_FOLLOWER_H
#define GLOBAL_FOLLOWER_H 1

/* global-follower: one client that follows the Global row, for every
 * daemon.
 *
 * The Global table holds one row of settings (schema/fibsync.xml), which
 * an operator may change while the daemons run.  Each daemon takes each
 * of its tunables from the command line, else Global, else the default
 * (lib/setting.h), and chooses once, at start, the path of each hop it
 * is on (OVSDB or ZeroMQ).  A follower is an ovsdb-cs client of its own
 * that monitors the Global columns a daemon asks for (or all), kept back
 * on its server after a restart or a cluster's failover
 * (lib/ovsdb-cs-retry.h).  The daemon runs it in its loops and:
 *
 *   - waits, at start, until global_follower_has_read() says the first
 *     contents arrived (no Global row at all counts: every column is then
 *     empty), then chooses its paths with global_follower_choose_path();
 *
 *   - takes the row into its settings whenever global_follower_seqno()
 *     moved since it last did, each column in one line with
 *     global_follower_set_integer() or global_follower_set_boolean() (an
 *     empty column puts the setting back to its default, the command line
 *     still wins), or reads it with the typed getters.
 *
 * A row deleted reads as no row; a row replaced (deleted and inserted in
 * one transaction) as the new one.  After a reconnection, the monitor's
 * new contents replace what was known, and the seqno moves only if they
 * differ.  global_follower_has_table() says whether the server's schema
 * has a table (Write_Mark, from 1.5.0 on).
 *
 * A follower created with no remote never connects: global_follower_
 * take_update() feeds it updates (tests/check/test-global-follower.c).
 *
 * Thread safety: none; a follower belongs to its daemon's main thread. */

#include <stdbool.h>
#include <stdint.h>

struct json;
struct ovsdb_cs_table_update;
struct setting;

struct global_follower *global_follower_create(const char *remote,
                                               const char *const *columns);
void global_follower_destroy(struct global_follower *);
void global_follower_run(struct global_follower *);
void global_follower_wait(struct global_follower *);

bool global_follower_is_connected(const struct global_follower *);
bool global_follower_has_read(const struct global_follower *);
unsigned int global_follower_seqno(const struct global_follower *);
uint64_t global_follower_n_updates(const struct global_follower *);
bool global_follower_has_table(const struct global_follower *,
                               const char *table);

/* The row's columns, each false, NULL or empty if there is no row or the
 * column is empty or of another type. */
bool global_follower_has_row(const struct global_follower *);
bool global_follower_get_integer(const struct global_follower *,
                                 const char *column, int64_t *value);
bool global_follower_get_boolean(const struct global_follower *,
                                 const char *column, bool *value);
const char *global_follower_get_string(const struct global_follower *,
                                       const char *column);
const char *global_follower_get_map_string(const struct global_follower *,
                                           const char *column,
                                           const char *key);

/* The row's columns into settings (setting_set_global()): each returns
 * true if the value in force changed. */
bool global_follower_set_integer(const struct global_follower *,
                                 struct setting *, const char *column);
bool global_follower_set_boolean(const struct global_follower *,
                                 struct setting *, const char *column);

/* A hop's path, chosen once at start from its boolean setting (such as
 * southbound_zmq): ZeroMQ if the setting is on, otherwise OVSDB. */
struct global_follower_path {
    bool chosen;                /* Chosen yet?  Then, until restart... */
    bool zmq;                   /* ...ZeroMQ (true) or OVSDB (false). */
};

bool global_follower_choose_path(const struct global_follower *,
                                 const struct setting *,
                                 struct global_follower_path *);
bool global_follower_path_outdated(const struct global_follower_path *,
                                   const struct setting *);

/* Feeding updates (ovsdb-cs's, or a test's). */
void global_follower_take_update(struct global_follower *,
                                 const struct ovsdb_cs_table_update *,
                                 bool clear);
void global_follower_take_schema(struct global_follower *,
                                 const struct json *schema);

#endif /* global-follower.h */
