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

/* fuzz-db-split: the snapshot of an OVSDB database file as
 * fibsync-db-split splits it (lib/ovsdb-file-split.h).
 *
 * The input is the snapshot record's JSON text (the seed corpus holds the
 * snapshot of a file that ovsdb-server compacted, and small ones).  The
 * harness puts it in a file behind a schema record, with a right SHA-1,
 * so that every input reaches the JSON walk (fuzz-db-file drives the
 * record headers, lib/ovsdb-file-text.h), and splits it with any snapshot
 * size and two rows a record.  Nothing may read outside the file; a split
 * that is refused must write nothing; a split must write the schema
 * record as it was, then records whose SHA-1 is right. */

#include <config.h>

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ovsdb-file-split.h"
#include "lib/ovsdb-file-text.h"
#include "openvswitch/dynamic-string.h"
#include "sha1.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
collect(void *out, const void *data, size_t size)
{
    ds_put_buffer(out, data, size);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char schema[] = "{\"name\":\"Fibsync\"}\n";
    struct ovsdb_file_split_options o = { .min_len = 1, .rows = 2 };
    struct ovsdb_file_split_result r;
    struct ds file = DS_EMPTY_INITIALIZER;
    struct ds out = DS_EMPTY_INITIALIZER;
    uint8_t sha1[SHA1_DIGEST_SIZE];

    sha1_bytes(schema, strlen(schema), sha1);
    ds_put_format(&file, "OVSDB JSON %"PRIuSIZE" "SHA1_FMT"\n%s",
                  strlen(schema), SHA1_ARGS(sha1), schema);
    size_t schema_len = file.length;
    sha1_bytes(data, size, sha1);
    ds_put_format(&file, "OVSDB JSON %"PRIuSIZE" "SHA1_FMT"\n", size,
                  SHA1_ARGS(sha1));
    ds_put_buffer(&file, (const char *) data, size);

    /* Exactly the file's size: ASan sees a read past it. */
    char *text = xmemdup(file.string, file.length);
    char *msg = ovsdb_file_split(text, file.length, &o, collect, &out, &r);

    if (msg || !r.split) {
        ovs_assert(!r.split && !out.length);
    } else {
        const char *p = out.string, *end = out.string + out.length;
        struct ovsdb_file_text_record rec;
        const char *error;

        ovs_assert(out.length >= schema_len
                   && !memcmp(out.string, file.string, schema_len));
        ovs_assert(ovsdb_file_text_next_record(&p, end, true, &rec, &error)
                   == OVSDB_FILE_TEXT_RECORD);
        for (size_t i = 0; i < r.records; i++) {
            ovs_assert(ovsdb_file_text_next_record(&p, end, false, &rec,
                                                   &error)
                       == OVSDB_FILE_TEXT_RECORD);
            ovs_assert(ovsdb_file_text_record_sha1_ok(&rec));
        }
        ovs_assert(p == end && r.rows >= r.records);
    }
    free(msg);
    free(text);
    ds_destroy(&file);
    ds_destroy(&out);
    return 0;
}
