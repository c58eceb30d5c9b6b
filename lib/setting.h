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

#ifndef SETTING_H
#define SETTING_H 1

/* setting: a daemon's tunable, with its value and where the value came
 * from.
 *
 * fibsync's daemons take each tunable from three places, in order of
 * precedence: the command line, then the Global row of the database
 * (which an operator can change while the daemon runs), then the
 * built-in default.  A setting keeps all three, so that a daemon's
 * features/show can say which one is in force and a Global change is
 * applied only where the command line did not fix the value.
 *
 * Booleans are 0 or 1.
 *
 * Thread safety: none; a setting belongs to the daemon's main thread. */

#include <stdbool.h>
#include <stdint.h>

/* Where a setting's value came from. */
enum setting_source {
    SETTING_DEFAULT,            /* Built in. */
    SETTING_GLOBAL,             /* The Global row. */
    SETTING_CMDLINE,            /* The command line (wins). */
};

/* One tunable. */
struct setting {
    const char *name;           /* As a show command prints it. */
    int64_t value;              /* Value in force. */
    int64_t default_value;      /* Built-in default. */
    int64_t cmdline_value;      /* From the command line, if 'cmdline'. */
    bool cmdline;               /* Fixed on the command line. */
    enum setting_source source; /* Where 'value' came from. */
};

/* Initializer for a setting called NAME with default DEFAULT. */
#define SETTING_INITIALIZER(NAME, DEFAULT) \
    { (NAME), (DEFAULT), (DEFAULT), 0, false, SETTING_DEFAULT }

void setting_init(struct setting *, const char *name, int64_t default_value);
void setting_set_cmdline(struct setting *, int64_t value);
bool setting_set_global(struct setting *, bool present, int64_t value);
const char *setting_source_name(enum setting_source);

void setting_apply_log_level(const char *level);

#endif /* setting.h */
