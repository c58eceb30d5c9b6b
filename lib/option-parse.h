/*
 * option-parse: numeric command-line option values, checked the same way
 * by every fibsync program.
 */

#ifndef FIBSYNC_OPTION_PARSE_H
#define FIBSYNC_OPTION_PARSE_H 1

/* Parses 'arg', the value of option --'option', as a decimal number from
 * 'min' to 'max'.  Exits with a one-line error naming the option and the
 * range if it is not one (signs, trailing characters and overflow
 * included). */
unsigned long long int option_parse_uint(const char *option, const char *arg,
                                         unsigned long long int min,
                                         unsigned long long int max);

#endif /* lib/option-parse.h */
