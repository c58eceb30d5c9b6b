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

#ifndef SSL_OPTIONS_H
#define SSL_OPTIONS_H 1

/* ssl-options: the SSL options every fibsync program that talks to the
 * database takes, the same way.
 *
 * The options themselves are Open vSwitch's (lib/stream-ssl.h): add
 * SSL_OPTION_ENUMS to the option enum, STREAM_SSL_LONG_OPTIONS to
 * the long options and STREAM_SSL_OPTION_HANDLERS to the switch.  This
 * module adds what OVS leaves to each program: the --help text, and a
 * check, once the options are parsed, that a remote list naming an
 * "ssl:" server comes with a key, a certificate and a CA certificate
 * (without them, OVS would only log the problem at every connection
 * attempt, and the program would wait for ever). */

/* Prints the SSL options' --help text. */
void ssl_options_usage(void);

/* Returns a one-line error (the caller frees it) if 'remotes' (the value
 * of --'option', one remote or a comma-separated list) names an "ssl:"
 * remote while no SSL option was given, otherwise NULL. */
char *ssl_options_check(const char *option, const char *remotes);

#endif /* ssl-options.h */
