/* The one SQL interface the history store speaks to SQLite and PostgreSQL through: a
 * statement with text parameters ($1, $2, ... used in order of first appearance, which
 * is how both number them), rows back as text. Only history/ includes sqlite3.h or
 * libpq-fe.h. */
#ifndef PD_HISTORY_DB_H
#define PD_HISTORY_DB_H

#include "../core/err.h"

#include <stddef.h>

/* One row: col[i] is NULL for SQL NULL. Returns 0 to go on. */
typedef int (*pd_db_row_fn)(void *ctx, const char *const *col, size_t n_col);

enum pd_db_kind { PD_DB_SQLITE, PD_DB_POSTGRES };

struct pd_db {
	enum pd_db_kind kind;
	char *where; /* what error lines name: the file, or the URL without its password */
	void *h;     /* sqlite3 * or PGconn * */
	int locked;  /* the last failure was a lock waited for in vain (SQLITE_BUSY, 55P03) */
	int lost;    /* PostgreSQL did not answer in time: the connection is given up */
};

/* Every wait on a database has a deadline. A writer waits PD_DB_LOCK_WAIT_S for another's
 * transaction (SQLite's busy timeout, PostgreSQL's lock_timeout), then gives up. libpq's
 * connect_timeout is PD_DB_CONNECT_S unless the URL gives one; a statement's answer is
 * waited for PD_DB_ANSWER_S (longer than the lock wait, which the server reports). */
#define PD_DB_LOCK_WAIT_S 30
#define PD_DB_CONNECT_S   10
#define PD_DB_ANSWER_S    60

/* Opens url ("sqlite:PATH" or "postgresql://..." / "postgres://...") into *out (caller
 * closes with pd_db_close); a SQLite file is made only when create is 1 (PD_ENOTFOUND
 * when it is missing). PD_EINVAL for another scheme, PD_EIO when it cannot connect. */
int pd_db_open(struct pd_db **out, const char *url, int create, struct pd_err *err);
void pd_db_close(struct pd_db *db); /* NULL is a no-op */

/* Runs sql with params[0..n) bound to $1..$n (NULL binds NULL); fn (may be NULL) gets
 * each row. PD_EIO with the database's message on failure. */
int pd_db_exec(struct pd_db *db, const char *sql, const char *const *params, size_t n,
	       pd_db_row_fn fn, void *ctx, struct pd_err *err);

/* Offset of the first byte of s that is not UTF-8, or -1. Both stores hold UTF-8 text:
 * pd_db_exec refuses a parameter that is not (PD_EPARSE), where PostgreSQL alone did. */
long pd_db_not_utf8(const char *s);

/* Starts a transaction that writers take one at a time (SQLite BEGIN IMMEDIATE;
 * PostgreSQL BEGIN and a transaction-scoped advisory lock on the store). */
int pd_db_begin(struct pd_db *db, struct pd_err *err);
int pd_db_commit(struct pd_db *db, struct pd_err *err);
void pd_db_rollback(struct pd_db *db); /* after a failure; errors ignored */

#endif
