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

#include <config.h>

#include "lib/setting.h"

#include "openvswitch/vlog.h"

void
setting_init(struct setting *s, const char *name, int64_t default_value)
{
    *s = (struct setting) SETTING_INITIALIZER(name, default_value);
}

/* Fixes 's' to 'value' from the command line: no Global value replaces
 * it. */
void
setting_set_cmdline(struct setting *s, int64_t value)
{
    s->cmdline = true;
    s->cmdline_value = value;
    s->value = value;
    s->source = SETTING_CMDLINE;
}

/* Applies the Global row's column for 's': 'value' if 'present', or back
 * to the default if the column is empty; the command line still wins.
 * Returns true if the value in force changed. */
bool
setting_set_global(struct setting *s, bool present, int64_t value)
{
    int64_t old = s->value;

    if (s->cmdline) {
        s->value = s->cmdline_value;
        s->source = SETTING_CMDLINE;
    } else if (present) {
        s->value = value;
        s->source = SETTING_GLOBAL;
    } else {
        s->value = s->default_value;
        s->source = SETTING_DEFAULT;
    }
    return s->value != old;
}

/* Returns where a value came from, as a show command says it. */
const char *
setting_source_name(enum setting_source source)
{
    return (source == SETTING_CMDLINE ? "command line"
            : source == SETTING_GLOBAL ? "Global table"
            : "default");
}

/* Applies Global.log_level 'level' (NULL if the column is empty) to the
 * log file, as "ovs-appctl vlog/set file:LEVEL" would: every daemon that
 * follows Global calls this with the column's value.  An empty column or
 * an unknown level changes nothing. */
void
setting_apply_log_level(const char *level)
{
    if (level) {
        enum vlog_level l = vlog_get_level_val(level);

        if (l != VLL_N_LEVELS) {
            vlog_set_levels(NULL, VLF_FILE, l);
        }
    }
}
