/* SQLite and PostgreSQL behind one small interface (db.h). */
#include "db.h"

#include "../core/buf.h"
#include "../core/url.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* How long a writer waits for another's transaction before giving up (SQLite). */
#define BUSY_TIMEOUT_MS 30000
/* The advisory lock key that serialises writers of one PostgreSQL store. */
#define PG_LOCK_KEY "2400240024"

static int open_sqlite(struct pd_db *db, const char *path, int create, struct pd_err *err)
{
	sqlite3 *h = NULL;
	struct stat st;
	/* a reader of a mistyped path must not leave a new store there */
	if (!create && strcmp(path, ":memory:") && stat(path, &st) < 0 && errno == ENOENT)
		return pd_err_at(err, PD_ENOTFOUND, path, 0, 0,
				 "no history store here: perfdelta history add makes one");
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0),
			    NULL) != SQLITE_OK) {
		pd_err_at(err, PD_EIO, path, 0, 0, "cannot open the history database: %s",
			  h ? sqlite3_errmsg(h) : "out of memory");
		sqlite3_close(h);
		return err->code;
	}
	sqlite3_busy_timeout(h, BUSY_TIMEOUT_MS);
	db->h = h;
	db->where = pd_xstrdup(path);
	return 0;
}

static int open_pg(struct pd_db *db, const char *url, struct pd_err *err)
{
	PGconn *c = PQconnectdb(url);
	if (PQstatus(c) != CONNECTION_OK) {
		/* libpq quotes the URL it could not parse, password and all */
		struct pd_buf m = PD_BUF_INIT;
		pd_url_redact(&m, PQerrorMessage(c));
		pd_err_set(err, PD_EIO, "cannot connect to the history database: %.*s",
			   (int)strcspn(m.ptr, "\n"), m.ptr);
		pd_buf_release(&m);
		PQfinish(c);
		return err->code;
	}
	struct pd_buf w = PD_BUF_INIT;
	pd_buf_addf(&w, "postgresql://%s:%s/%s", PQhost(c), PQport(c), PQdb(c));
	db->h = c;
	db->where = pd_buf_detach(&w);
	return pd_db_exec(db, "SET client_min_messages = warning", NULL, 0, NULL, NULL, err);
}

int pd_db_open(struct pd_db **out, const char *url, int create, struct pd_err *err)
{
	struct pd_db *db = pd_xcalloc(1, sizeof(*db));
	int rc;
	*out = NULL;
	if (!strncmp(url, "sqlite:", 7) && url[7]) {
		db->kind = PD_DB_SQLITE;
		rc = open_sqlite(db, url + 7, create, err);
	} else if (!strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11)) {
		db->kind = PD_DB_POSTGRES;
		rc = open_pg(db, url, err);
	} else { /* a typo in the scheme must not put the password on the screen */
		struct pd_buf shown = PD_BUF_INIT;
		pd_url_redact(&shown, url);
		rc = pd_err_set(err, PD_EINVAL,
				"--db expects sqlite:PATH or postgresql://..., not '%s'",
				shown.ptr);
		pd_buf_release(&shown);
	}
	if (rc < 0) {
		pd_db_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

void pd_db_close(struct pd_db *db)
{
	if (!db)
		return;
	if (db->h && db->kind == PD_DB_SQLITE)
		sqlite3_close(db->h);
	else if (db->h)
		PQfinish(db->h);
	free(db->where);
	free(db);
}

static int sqlite_fail(struct pd_db *db, sqlite3_stmt *st, struct pd_err *err)
{
	pd_err_at(err, PD_EIO, db->where, 0, 0, "history database: %s", sqlite3_errmsg(db->h));
	sqlite3_finalize(st);
	return err->code;
}

/* Binds params and steps through the rows of one statement (sql may hold only one). */
static int exec_sqlite(struct pd_db *db, const char *sql, const char *const *params, size_t n,
		       pd_db_row_fn fn, void *ctx, struct pd_err *err)
{
	sqlite3_stmt *st = NULL;
	const char *cols[64];
	int rc;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(db, st, err);
	for (size_t i = 0; i < n; i++)
		if (sqlite3_bind_text(st, (int)i + 1, params[i], -1, SQLITE_TRANSIENT) !=
		    SQLITE_OK)
			return sqlite_fail(db, st, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t nc = (size_t)sqlite3_column_count(st);
		for (size_t i = 0; i < nc && i < 64; i++)
			cols[i] = (const char *)sqlite3_column_text(st, (int)i);
		if (fn && fn(ctx, cols, nc < 64 ? nc : 64))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sqlite_fail(db, st, err);
	sqlite3_finalize(st);
	return 0;
}

static int exec_pg(struct pd_db *db, const char *sql, const char *const *params, size_t n,
		   pd_db_row_fn fn, void *ctx, struct pd_err *err)
{
	PGresult *r = PQexecParams(db->h, sql, (int)n, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(r);
	const char *cols[64];
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		const char *m = PQresultErrorMessage(r);
		pd_err_at(err, PD_EIO, db->where, 0, 0, "history database: %.*s",
			  (int)strcspn(m, "\n"), m);
		PQclear(r);
		return err->code;
	}
	size_t rows = (size_t)PQntuples(r), nc = (size_t)PQnfields(r);
	for (size_t i = 0; i < rows && fn; i++) {
		for (size_t k = 0; k < nc && k < 64; k++)
			cols[k] = PQgetisnull(r, (int)i, (int)k)
					  ? NULL
					  : PQgetvalue(r, (int)i, (int)k);
		if (fn(ctx, cols, nc < 64 ? nc : 64))
			break;
	}
	PQclear(r);
	return 0;
}

int pd_db_exec(struct pd_db *db, const char *sql, const char *const *params, size_t n,
	       pd_db_row_fn fn, void *ctx, struct pd_err *err)
{
	if (db->kind == PD_DB_SQLITE)
		return exec_sqlite(db, sql, params, n, fn, ctx, err);
	return exec_pg(db, sql, params, n, fn, ctx, err);
}

int pd_db_begin(struct pd_db *db, struct pd_err *err)
{
	if (db->kind == PD_DB_SQLITE)
		return pd_db_exec(db, "BEGIN IMMEDIATE", NULL, 0, NULL, NULL, err);
	int rc = pd_db_exec(db, "BEGIN", NULL, 0, NULL, NULL, err);
	if (rc == 0)
		rc = pd_db_exec(db, "SELECT pg_advisory_xact_lock(" PG_LOCK_KEY ")", NULL, 0,
				NULL, NULL, err);
	return rc;
}

int pd_db_commit(struct pd_db *db, struct pd_err *err)
{
	return pd_db_exec(db, "COMMIT", NULL, 0, NULL, NULL, err);
}

void pd_db_rollback(struct pd_db *db)
{
	struct pd_err ignored = PD_ERR_INIT;
	pd_db_exec(db, "ROLLBACK", NULL, 0, NULL, NULL, &ignored);
}
