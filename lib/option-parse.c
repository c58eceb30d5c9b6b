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
