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

#include <config.h>

#include "lib/ovsdb-file-text.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "sha1.h"
#include "util.h"

const char *
ovsdb_file_text_skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) {
        p++;
    }
    return p;
}

/* 'p' is at a string's opening quote. */
const char *
ovsdb_file_text_skip_string(const char *p, const char *end)
{
    const char *start = ++p;

    for (;;) {
        const char *q = memchr(p, '"', end - p);
        const char *b;

        if (!q) {
            return NULL;
        }
        for (b = q; b > start && b[-1] == '\\'; b--) {
            continue;
        }
        if (!((q - b) & 1)) {
            return q + 1;       /* Not escaped: an even run of '\'s. */
        }
        p = q + 1;
    }
}

/* Skips one value of any kind. */
const char *
ovsdb_file_text_skip_value(const char *p, const char *end)
{
    if (p >= end) {
        return NULL;
    } else if (*p == '"') {
        return ovsdb_file_text_skip_string(p, end);
    } else if (*p == '[' || *p == '{') {
        int depth = 0;

        while (p < end) {
            char c = *p;

            if (c == '"') {
                p = ovsdb_file_text_skip_string(p, end);
                if (!p) {
                    return NULL;
                }
                continue;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                if (!--depth) {
                    return p + 1;
                }
            }
            p++;
        }
        return NULL;
    } else {
        const char *start = p;

        while (p < end && *p != ',' && *p != ']' && *p != '}' && *p != ' '
               && *p != '\n' && *p != '\t' && *p != '\r' && *p != ':') {
            p++;
        }
        return p > start ? p : NULL;
    }
}

/* Moves to the next member of the object whose '{' or previous member's
 * value ends at '*pp'.  Returns 1 and fills 'm' (and '*pp' is at the
 * value), 0 at the closing '}' ('*pp' after it), -1 on an error. */
int
ovsdb_file_text_next_member(const char **pp, const char *end, bool first,
                            struct ovsdb_file_text_member *m)
{
    const char *p = ovsdb_file_text_skip_ws(*pp, end);
    const char *q;

    if (p < end && *p == '}') {
        *pp = p + 1;
        return 0;
    }
    if (!first) {
        if (p >= end || *p != ',') {
            return -1;
        }
        p = ovsdb_file_text_skip_ws(p + 1, end);
    }
    if (p >= end || *p != '"' || !(q = ovsdb_file_text_skip_string(p, end))) {
        return -1;
    }
    m->key = p + 1;
    m->key_len = q - p - 2;
    p = ovsdb_file_text_skip_ws(q, end);
    if (p >= end || *p != ':') {
        return -1;
    }
    *pp = m->value = ovsdb_file_text_skip_ws(p + 1, end);
    return 1;
}

/* Returns true if 'm''s key is 's'. */
bool
ovsdb_file_text_key_is(const struct ovsdb_file_text_member *m, const char *s)
{
    return strlen(s) == m->key_len && !memcmp(m->key, s, m->key_len);
}

/* Moves '*pp' to the '{' of an object.  Returns false if it is not one. */
bool
ovsdb_file_text_open_object(const char **pp, const char *end)
{
    const char *p = ovsdb_file_text_skip_ws(*pp, end);

    if (p >= end || *p != '{') {
        return false;
    }
    *pp = p + 1;
    return true;
}

/* Reads the record at '*pp', before 'end'; 'first' says whether it is the
 * file's first.  On OVSDB_FILE_TEXT_RECORD fills 'rec' and moves '*pp'
 * past it; on OVSDB_FILE_TEXT_ERROR sets '*error' to a static message.
 * The record's SHA-1 is not checked (ovsdb_file_text_record_sha1_ok()). */
enum ovsdb_file_text_next
ovsdb_file_text_next_record(const char **pp, const char *end, bool first,
                            struct ovsdb_file_text_record *rec,
                            const char **error)
{
    static const char magic[] = OVSDB_FILE_TEXT_MAGIC;
    const char *p = *pp;
    const char *nl;

    if (p >= end) {
        return OVSDB_FILE_TEXT_END;
    }
    nl = memchr(p, '\n', MIN(end - p, OVSDB_FILE_TEXT_MAX_HEADER));
    if (!nl) {
        if (end - p < OVSDB_FILE_TEXT_MAX_HEADER) {
            return OVSDB_FILE_TEXT_END; /* A header cut short. */
        }
        *error = "no record header";
        return OVSDB_FILE_TEXT_ERROR;
    }
    if (nl - p < (ptrdiff_t) strlen(magic)
        || memcmp(p, magic, strlen(magic))) {
        *error = first ? "not an OVSDB database file" : "no record header";
        return OVSDB_FILE_TEXT_ERROR;
    }

    const char *digits = p + strlen(magic);
    char *e = CONST_CAST(char *, digits);
    unsigned long long len = (isdigit((unsigned char) *digits)
                              ? strtoull(digits, &e, 10) : 0);
    const char *data = nl + 1;

    if (!isdigit((unsigned char) *digits) || *e != ' ') {
        *error = "bad record header";
        return OVSDB_FILE_TEXT_ERROR;
    } else if (len > (size_t) (end - data)) {
        return OVSDB_FILE_TEXT_END; /* A record cut short. */
    }
    rec->header = p;
    rec->sha1 = nl - (e + 1) == 40 ? e + 1 : NULL;
    rec->data = data;
    rec->len = len;
    *pp = data + len;
    return OVSDB_FILE_TEXT_RECORD;
}

/* Returns true if 'rec''s header has a SHA-1 and it is that of its data,
 * as ovsdb-server checks it when it reads the file. */
bool
ovsdb_file_text_record_sha1_ok(const struct ovsdb_file_text_record *rec)
{
    uint8_t want[SHA1_DIGEST_SIZE], got[SHA1_DIGEST_SIZE];
    char hex[41];

    if (!rec->sha1 || rec->len > UINT32_MAX) {
        return false;
    }
    memcpy(hex, rec->sha1, 40);
    hex[40] = '\0';
    if (!sha1_from_hex(want, hex)) {
        return false;
    }
    sha1_bytes(rec->data, rec->len, got);
    return !memcmp(want, got, sizeof want);
}

/* Reads up to 'size' bytes (the file's size when it was opened) from 'fd'
 * into a new buffer, '*textp' (freed by the caller), and sets '*sizep' to
 * the bytes read, fewer if the file got shorter meanwhile.  Returns 0, or
 * an errno and no buffer.
 *
 * A database file is read, not mapped: a server that restarts after a
 * crash truncates the torn record at the end of its file, and a
 * mapping's pages past the new end would then fault (SIGBUS). */
int
ovsdb_file_text_read_fd(int fd, size_t size, char **textp, size_t *sizep)
{
    char *text = xmalloc(MAX(size, 1));
    size_t got = 0;

    while (got < size) {
        ssize_t n = read(fd, text + got, size - got);

        if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0) {
            int error = errno;

            free(text);
            return error;
        } else if (!n) {
            break;              /* Shorter now: read what there is. */
        }
        got += n;
    }
    *textp = text;
    *sizep = got;
    return 0;
}
