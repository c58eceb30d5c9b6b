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
 * option-parse: numeric and on/off command-line option values, checked
 * the same way by every fibsync program.
 */

#ifndef OPTION_PARSE_H
#define OPTION_PARSE_H 1

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

#endif /* option-parse.h */
