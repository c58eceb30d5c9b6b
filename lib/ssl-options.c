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

#include "lib/ssl-options.h"

#include <stdio.h>
#include <string.h>

#include "stream-ssl.h"
#include "util.h"

void
ssl_options_usage(void)
{
    printf("\n\
SSL options, for ssl:IP:PORT database remotes (files made by ovs-pki,\n\
see docs/RELIABILITY.md):\n\
  -p, --private-key=FILE  this program's private key (PEM)\n\
  -c, --certificate=FILE  its certificate, signed by the CA\n\
  -C, --ca-cert=FILE      the CA certificate that signed the server's\n\
  --ssl-protocols=LIST    SSL protocols to enable (default: TLSv1.2 and\n\
                          later)\n\
  --ssl-ciphers=LIST      OpenSSL cipher list\n");
}

char *
ssl_options_check(const char *option, const char *remotes)
{
    if (remotes && (!strncmp(remotes, "ssl:", 4)
                    || strstr(remotes, ",ssl:"))
        && !stream_ssl_is_configured()) {
        return xasprintf("--%s: \"%s\" names an ssl: remote: give "
                         "--private-key, --certificate and --ca-cert too",
                         option, remotes);
    }
    return NULL;
}
