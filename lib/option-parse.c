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
 * option-parse: numeric and on/off command-line option values.
 */

#include <config.h>

#include "lib/option-parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

unsigned long long int
option_parse_uint(const char *option, const char *arg,
                  unsigned long long int min, unsigned long long int max)
{
    unsigned long long int n;
    char *end;

    errno = 0;
    n = strtoull(arg, &end, 10);
    if (errno || end == arg || *end || arg[0] == '-' || n < min || n > max) {
        ovs_fatal(0, "--%s: \"%s\" is not a number between %llu and %llu",
                  option, arg, min, max);
    }
    return n;
}

bool
option_parse_on_off(const char *option, const char *arg)
{
    if (!strcmp(arg, "on") || !strcmp(arg, "true")) {
        return true;
    } else if (!strcmp(arg, "off") || !strcmp(arg, "false")) {
        return false;
    }
    ovs_fatal(0, "--%s: \"%s\" is not on or off", option, arg);
}
