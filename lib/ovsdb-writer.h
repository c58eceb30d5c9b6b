/*
 * ovsdb-writer: pipelined OVSDB transactions without an IDL replica.
 *
 * A writer owns one jsonrpc session to an ovsdb-server and sends
 * "transact" requests built by its caller, keeping at most a configured
 * number of them in flight.  ovsdb-server executes the transactions of one
 * connection in order, so a caller that writes one key in two transactions
 * sees them applied in that order.
 *
 * It suits a daemon that writes many rows and reads few: building ops by
 * hand avoids the IDL's replica (more than 1 KB a row at a million rows)
 * and, with row UUIDs the caller derives itself (see lib/route-key.h),
 * every update and delete is an O(1) "_uuid ==" lookup on the server.
 *
 * Thread safety: a writer belongs to one thread, which calls run(), wait()
 * and poll_block() for it.
 */

#ifndef OVSDB_WRITER_H
#define OVSDB_WRITER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json;
struct uuid;
struct ds;

/* How a transaction ended. */
enum ovsdb_writer_result {
    OVSDB_WRITER_SUCCESS,   /* Committed: 'reply' holds the result array. */
    OVSDB_WRITER_ERROR,     /* Refused: the server applied none of it;
                             * 'reply' holds the result or error. */
    OVSDB_WRITER_LOST,      /* The connection dropped before the reply came;
                             * the server may or may not have applied it.
                             * 'reply' is NULL. */
};

/* Called once per committed transaction, from ovsdb_writer_run() (or
 * from ovsdb_writer_destroy() with OVSDB_WRITER_LOST).  'reply' belongs to
 * the writer. */
typedef void ovsdb_writer_cb(void *aux, enum ovsdb_writer_result,
                             const struct json *reply);

struct ovsdb_writer *ovsdb_writer_create(const char *remote,
                                         const char *db_name);
void ovsdb_writer_destroy(struct ovsdb_writer *);

void ovsdb_writer_set_max_in_flight(struct ovsdb_writer *, size_t);

void ovsdb_writer_run(struct ovsdb_writer *);
void ovsdb_writer_wait(struct ovsdb_writer *);

bool ovsdb_writer_is_connected(const struct ovsdb_writer *);
unsigned int ovsdb_writer_get_seqno(const struct ovsdb_writer *);
size_t ovsdb_writer_n_in_flight(const struct ovsdb_writer *);
size_t ovsdb_writer_n_queued(const struct ovsdb_writer *);
bool ovsdb_writer_is_idle(const struct ovsdb_writer *);
void ovsdb_writer_format_stats(const struct ovsdb_writer *, struct ds *);

/* Queues a transaction made of 'ops', a JSON array of OVSDB operations
 * (ownership passes to the writer).  It is sent as soon as fewer than the
 * maximum are in flight; 'cb' runs when it ends.  An empty array completes
 * at once with success. */
void ovsdb_writer_commit(struct ovsdb_writer *, struct json *ops,
                         ovsdb_writer_cb *cb, void *aux);

/* Operation builders.  Each returns a new JSON object; 'row' and the like
 * pass to the operation. */
struct json *ovsdb_writer_op_insert(const char *table,
                                    const struct uuid *row_uuid,
                                    struct json *row);
struct json *ovsdb_writer_op_update(const char *table,
                                    const struct uuid *row_uuid,
                                    struct json *row);
struct json *ovsdb_writer_op_delete(const char *table,
                                    const struct uuid *row_uuid);
struct json *ovsdb_writer_op_mutate(const char *table,
                                    const struct uuid *row_uuid,
                                    struct json *mutations);

/* Value builders for the OVSDB wire format. */
struct json *ovsdb_writer_uuid_json(const struct uuid *);
struct json *ovsdb_writer_map_new(void);
void ovsdb_writer_map_add(struct json *map, struct json *key,
                          struct json *value);
struct json *ovsdb_writer_set_new(void);
void ovsdb_writer_set_add(struct json *set, struct json *value);

#endif /* lib/ovsdb-writer.h */
