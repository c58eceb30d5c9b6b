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

/* fibsync-db-split: splits the snapshot of a compacted OVSDB database file
 * into records of a few rows, so that ovsdb-server reads it as it reads a
 * log (lib/ovsdb-file-split.h says why and what).  fibsync-ctl runs it on
 * the database before it starts ovsdb-server. */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/option-parse.h"
#include "lib/ovsdb-file-split.h"
#include "lib/ovsdb-file-text.h"
#include "lockfile.h"
#include "timeval.h"
#include "util.h"

/* Exit statuses. */
enum {
    EXIT_SPLIT_OK = 0,          /* Split, or nothing to split. */
    EXIT_SPLIT_FAILED = 1,      /* Usage, lock or I/O error. */
    EXIT_SPLIT_LEFT = 2,        /* The file is not understood: left. */
};

/* Where the new file goes. */
struct output {
    FILE *file;                 /* The temporary file. */
    int error;                  /* First write error (an errno), or 0. */
};

OVS_NO_RETURN static void usage(void);

/* Writes 'size' bytes at 'data' to the new file. */
static void
output_write(void *out_, const void *data, size_t size)
{
    struct output *out = out_;

    if (!out->error && size && fwrite(data, 1, size, out->file) != size) {
        out->error = errno ? errno : EIO;
    }
}

/* Syncs the directory that holds 'file', so that a rename in it lasts. */
static void
sync_dir(const char *file)
{
    char *copy = xstrdup(file);
    int fd = open(dirname(copy), O_RDONLY);

    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(copy);
}

/* Replaces 'db' by the text 'split' writes of 'text', through a temporary
 * file beside it that is synced, then renamed over it.  Returns 0 or an
 * errno, and leaves 'db' as it was on an error. */
static int
replace_file(const char *db, const struct stat *st, const char *text,
             size_t size, const struct ovsdb_file_split_options *options,
             struct ovsdb_file_split_result *result, char **messagep)
{
    char *tmp = xasprintf("%s.split.tmp", db);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, st->st_mode & 0777);
    struct output out = { .file = NULL };
    int error = 0;

    if (fd < 0) {
        error = errno;
        goto out;
    }
    if (fchown(fd, st->st_uid, st->st_gid)) {
        /* Not root: the file is ours anyway. */
    }
    out.file = fdopen(fd, "w");
    if (!out.file) {
        error = errno;
        close(fd);
        goto out;
    }
    setvbuf(out.file, NULL, _IOFBF, 1 << 20);
    *messagep = ovsdb_file_split(text, size, options, output_write, &out,
                                 result);
    if (fflush(out.file) && !out.error) {
        out.error = errno;
    }
    if (result->split && !out.error && fsync(fileno(out.file))) {
        out.error = errno;
    }
    if (fclose(out.file) && !out.error) {
        out.error = errno;
    }
    error = out.error;
    if (!error && result->split) {
        if (rename(tmp, db)) {
            error = errno;
        } else {
            sync_dir(db);
        }
    }

out:
    if (error || !result->split) {
        unlink(tmp);
    }
    free(tmp);
    return error;
}

int
main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        {"rows", required_argument, NULL, 'r'},
        {"min-size", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct ovsdb_file_split_options options = { .min_len = 0 };
    struct ovsdb_file_split_result result = { .split = false };
    struct lockfile *lock = NULL;
    char *message = NULL;
    struct stat st;
    size_t size = 0;
    char *text = NULL;
    int error;

    set_program_name(argv[0]);
    for (;;) {
        int c = getopt_long(argc, argv, "r:m:h", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case 'r':
            options.rows = option_parse_uint("rows", optarg, 1, 1000000);
            break;
        case 'm':
            options.min_len = option_parse_uint("min-size", optarg, 1,
                                                SIZE_MAX);
            break;
        case 'h':
            usage();
        default:
            fprintf(stderr, "Try '%s --help' for more information.\n",
                    program_name);
            exit(EXIT_SPLIT_FAILED);
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, "%s: one database file expected (use --help)\n",
                program_name);
        exit(EXIT_SPLIT_FAILED);
    }

    const char *db = argv[optind];
    long long int start = time_msec();

    error = lockfile_lock(db, &lock);
    if (error) {
        fprintf(stderr, "%s: %s: cannot lock it (%s): is ovsdb-server "
                "running on it?\n", program_name, db, ovs_strerror(error));
        exit(EXIT_SPLIT_FAILED);
    }

    int fd = open(db, O_RDONLY);
    if (fd < 0 || fstat(fd, &st)) {
        fprintf(stderr, "%s: %s: %s\n", program_name, db,
                ovs_strerror(errno));
        exit(EXIT_SPLIT_FAILED);
    }
    error = ovsdb_file_text_read_fd(fd, st.st_size, &text, &size);
    close(fd);
    if (error) {
        fprintf(stderr, "%s: %s: read failed (%s)\n", program_name, db,
                ovs_strerror(error));
        exit(EXIT_SPLIT_FAILED);
    }

    error = replace_file(db, &st, text, size, &options, &result, &message);
    free(text);
    lockfile_unlock(lock);
    if (error) {
        fprintf(stderr, "%s: %s: %s; the file is left as it was\n",
                program_name, db, ovs_strerror(error));
        exit(EXIT_SPLIT_FAILED);
    } else if (message) {
        fprintf(stderr, "%s: %s: left as it is: %s\n", program_name, db,
                message);
        free(message);
        exit(EXIT_SPLIT_LEFT);
    } else if (!result.split) {
        printf("%s: no snapshot to split (%s)\n", db,
               result.snapshot_len ? "its first record after the schema "
               "is smaller than --min-size" : "no record after the schema");
    } else {
        printf("%s: a snapshot of %"PRIuSIZE" bytes split into %"PRIuSIZE
               " records of %"PRIuSIZE" rows at most (%"PRIuSIZE" rows) in "
               "%.1f s\n", db, result.snapshot_len, result.records,
               options.rows ? options.rows : OVSDB_FILE_SPLIT_ROWS,
               result.rows, (time_msec() - start) / 1000.0);
    }
    return EXIT_SPLIT_OK;
}

static void
usage(void)
{
    printf("\
%s: split the snapshot of a compacted OVSDB database file\n\
usage: %s [OPTIONS] DATABASE-FILE\n\
\n\
ovsdb-server compacts its database file by itself, writing the whole\n\
database as one record (a snapshot).  A server restarted on it parses\n\
that record into one JSON tree before it builds a row: at a million\n\
routes, 27 s and 4.8 GB that the server keeps, against 15 s and 2.5 GB\n\
for the same rows as a log of transactions.  This program rewrites the\n\
snapshot as records of a few rows, each with its length and SHA-1 as\n\
ovsdb-server writes them, so that the server reads it as it reads a log.\n\
The database it holds is the same.  fibsync-ctl runs it before it starts\n\
ovsdb-server.\n\
\n\
Only a standalone file's first record after the schema is split, and\n\
only if it is at least --min-size bytes: that is where a compaction puts\n\
the snapshot.  Every other byte is copied as it is.  The file is locked\n\
as ovsdb-server locks it (a running server's file is refused), the new\n\
text is written beside it and synced, then renamed over it.  A file it\n\
does not understand (a clustered database, a bad record header, a\n\
snapshot whose SHA-1 does not match) is left as it is for ovsdb-server.\n\
\n\
Options:\n\
  -r, --rows N        rows per record written (default %d)\n\
  -m, --min-size N    split a snapshot of at least N bytes of JSON\n\
                      (default %d: 64 MiB, about 150,000 routes)\n\
  -h, --help          print this help\n\
\n\
Exit status: 0 if the file was split or had nothing to split, 1 on a\n\
usage, lock or I/O error (the file is left as it was), 2 if the file was\n\
left as it is because it is not understood (the message says why).\n",
           program_name, program_name, OVSDB_FILE_SPLIT_ROWS,
           OVSDB_FILE_SPLIT_MIN_LEN);
    exit(EXIT_SPLIT_OK);
}
