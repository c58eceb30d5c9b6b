/*
 * option-parse: numeric and on/off command-line option values, checked
 * the same way by every fibsync program.
 */

#ifndef FIBSYNC_OPTION_PARSE_H
#define FIBSYNC_OPTION_PARSE_H 1

#include <stdbool.h>

/* Parses 'arg', the value of option --'option', as a decimal number from
 * 'min' to 'max'.  Exits with a one-line error naming the option and the
 * range if it is not one (signs, trailing characters and overflow
 * included). */
unsigned long long int option_parse_uint(const char *option, const char *arg,
                                         unsigned long long int min,
                                         unsigned long long int max);

/* Parses 'arg', the value of option --'option', as "on" or "true" (returns
 * true) or "off" or "false" (returns false).  Exits with a one-line error
 * naming the option if it is none of those. */
bool option_parse_on_off(const char *option, const char *arg);

#endif /* lib/option-parse.h */
