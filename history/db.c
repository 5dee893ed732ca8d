/* SQLite and PostgreSQL behind one small interface (db.h). */
#include "db.h"

#include "../core/buf.h"
#include "../core/clock.h"
#include "../core/url.h"
#include "../core/xalloc.h"
#include "../render/escape.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define STR_(x) #x
#define STR(x)  STR_(x)

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
	sqlite3_busy_timeout(h, PD_DB_LOCK_WAIT_S * 1000);
	db->h = h;
	db->where = pd_xstrdup(path);
	return 0;
}

/* The value of keyword in the options o (freed here), or "?". */
static char *option_in(PQconninfoOption *o, const char *keyword)
{
	PQconninfoOption *at;
	char *v = NULL;
	for (at = o; at && at->keyword && !v; at++)
		if (!strcmp(at->keyword, keyword) && at->val && *at->val)
			v = pd_xstrdup(at->val);
	PQconninfoFree(o);
	return v ? v : pd_xstrdup("?");
}

/* The value of keyword in c's options in effect, or "?". */
static char *pg_option(PGconn *c, const char *keyword)
{
	return option_in(PQconninfo(c), keyword);
}

/* 1 when url's own connect_timeout is 0 or less: libpq then waits forever. */
static int waits_forever(const char *url)
{
	char *v = option_in(PQconninfoParse(url, NULL), "connect_timeout");
	int forever = strcmp(v, "?") && atoi(v) <= 0;
	free(v);
	return forever;
}

static int open_pg(struct pd_db *db, const char *url, struct pd_err *err)
{
	/* connect_timeout before the URL: a URL's own comes later and wins. Without one a
	 * server that accepts and never answers held history add forever; so did a URL's
	 * connect_timeout=0, which ours, after the URL, then replaces. */
	int last = waits_forever(url);
	const char *const keys[] = {last ? "dbname" : "connect_timeout",
				    last ? "connect_timeout" : "dbname", NULL};
	const char *const vals[] = {last ? url : STR(PD_DB_CONNECT_S),
				    last ? STR(PD_DB_CONNECT_S) : url, NULL};
	PGconn *c = PQconnectdbParams(keys, vals, 1);
	if (PQstatus(c) != CONNECTION_OK) {
		/* libpq quotes the URL it could not parse, password and all */
		struct pd_buf m = PD_BUF_INIT;
		char *limit = pg_option(c, "connect_timeout");
		pd_url_redact(&m, PQerrorMessage(c));
		pd_err_set(
			err, PD_EIO,
			"cannot connect to the history database (connect_timeout %s s): %.*s",
			limit, (int)strcspn(m.ptr, "\n"), m.ptr);
		pd_buf_release(&m);
		free(limit);
		PQfinish(c);
		return err->code;
	}
	struct pd_buf w = PD_BUF_INIT;
	pd_buf_addf(&w, "postgresql://%s:%s/%s", PQhost(c), PQport(c), PQdb(c));
	db->h = c;
	db->where = pd_buf_detach(&w);
	/* non-blocking, so that every answer is waited for with a deadline (pg_wait) */
	if (PQsetnonblocking(c, 1) != 0)
		return pd_err_at(err, PD_EIO, db->where, 0, 0, "history database: %s",
				 PQerrorMessage(c));
	return pd_db_exec(db,
			  "SET client_min_messages = warning; SET lock_timeout = "
			  "'" STR(PD_DB_LOCK_WAIT_S) "s'",
			  NULL, 0, NULL, NULL, err);
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
	db->locked = rc == SQLITE_BUSY;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sqlite_fail(db, st, err);
	sqlite3_finalize(st);
	return 0;
}

/* Waits until c's socket is ready for events or end (pd_clock_now) passes: 0, else
 * PD_EIO with the connection given up. */
static int pg_wait(struct pd_db *db, short events, double end, struct pd_err *err)
{
	struct pollfd p = {.fd = PQsocket(db->h), .events = events};
	int rc;
	do {
		double left = end - pd_clock_now();
		rc = left > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
	} while (rc < 0 && errno == EINTR);
	if (rc > 0)
		return 0;
	db->lost = 1;
	return pd_err_at(err, PD_EIO, db->where, 0, 0,
			 rc == 0 ? "history database: no answer in %d s: giving up"
				 : "history database: cannot wait for an answer",
			 PD_DB_ANSWER_S);
}

/* The next result of the statement sent, waited for until end; NULL when there is no
 * more, or (db->lost, err set) when the server did not answer in time. */
static PGresult *pg_result(struct pd_db *db, double end, struct pd_err *err)
{
	while (PQisBusy(db->h)) {
		if (pg_wait(db, POLLIN, end, err) < 0)
			return NULL;
		if (!PQconsumeInput(db->h)) {
			db->lost = 1;
			pd_err_at(err, PD_EIO, db->where, 0, 0, "history database: %.*s",
				  (int)strcspn(PQerrorMessage(db->h), "\n"),
				  PQerrorMessage(db->h));
			return NULL;
		}
	}
	return PQgetResult(db->h);
}

/* Sends sql and flushes it, each wait with a deadline. */
static int pg_send(struct pd_db *db, const char *sql, const char *const *params, size_t n,
		   double end, struct pd_err *err)
{
	int f;
	if (db->lost)
		return pd_err_at(err, PD_EIO, db->where, 0, 0,
				 "history database: the connection was given up");
	if (!(n ? PQsendQueryParams(db->h, sql, (int)n, NULL, params, NULL, NULL, 0)
		: PQsendQuery(db->h, sql)))
		return pd_err_at(err, PD_EIO, db->where, 0, 0, "history database: %.*s",
				 (int)strcspn(PQerrorMessage(db->h), "\n"),
				 PQerrorMessage(db->h));
	while ((f = PQflush(db->h)) == 1) {
		if (pg_wait(db, POLLIN | POLLOUT, end, err) < 0)
			return err->code;
		if (!PQconsumeInput(db->h))
			break;
	}
	if (f != 0)
		return pd_err_at(err, PD_EIO, db->where, 0, 0, "history database: %.*s",
				 (int)strcspn(PQerrorMessage(db->h), "\n"),
				 PQerrorMessage(db->h));
	return 0;
}

/* One result's rows to fn; PD_EIO with the server's message for an error result. */
static int pg_rows(struct pd_db *db, PGresult *r, pd_db_row_fn fn, void *ctx,
		   struct pd_err *err)
{
	ExecStatusType st = PQresultStatus(r);
	const char *cols[64], *state;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		const char *m = PQresultErrorMessage(r);
		state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
		db->locked = state && !strcmp(state, "55P03"); /* lock_not_available */
		return pd_err_at(err, PD_EIO, db->where, 0, 0, "history database: %.*s",
				 (int)strcspn(m, "\n"), m);
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
	return 0;
}

/* Without parameters sql may hold several statements (PQsendQuery); their rows all go to
 * fn, and the first failure is the error. */
static int exec_pg(struct pd_db *db, const char *sql, const char *const *params, size_t n,
		   pd_db_row_fn fn, void *ctx, struct pd_err *err)
{
	double end = pd_clock_now() + PD_DB_ANSWER_S;
	PGresult *r;
	int rc = pg_send(db, sql, params, n, end, err);
	while (rc == 0 && (r = pg_result(db, end, err))) {
		rc = pg_rows(db, r, fn, ctx, err);
		PQclear(r);
		/* the rest of the results, so that the connection is ready for the next */
		while (rc < 0 && !db->lost && (r = pg_result(db, end, err)))
			PQclear(r);
	}
	return db->lost && rc == 0 ? err->code : rc;
}

long pd_db_not_utf8(const char *s)
{
	unsigned cp;
	for (const char *p = s; *p;) {
		size_t n = pd_esc_utf8(p, &cp);
		if (!n)
			return p - s;
		p += n;
	}
	return -1;
}

int pd_db_exec(struct pd_db *db, const char *sql, const char *const *params, size_t n,
	       pd_db_row_fn fn, void *ctx, struct pd_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (params[i] && pd_db_not_utf8(params[i]) >= 0)
			return pd_err_at(
				err, PD_EPARSE, db->where, 0, 0,
				"refusing '%s': byte %ld is not UTF-8, and the history "
				"store holds UTF-8 text",
				params[i], pd_db_not_utf8(params[i]) + 1);
	if (db->kind == PD_DB_SQLITE)
		return exec_sqlite(db, sql, params, n, fn, ctx, err);
	return exec_pg(db, sql, params, n, fn, ctx, err);
}

int pd_db_begin(struct pd_db *db, struct pd_err *err)
{
	struct pd_err why = PD_ERR_INIT;
	int rc;
	db->locked = 0;
	if (db->kind == PD_DB_SQLITE)
		rc = pd_db_exec(db, "BEGIN IMMEDIATE", NULL, 0, NULL, NULL, &why);
	else if ((rc = pd_db_exec(db, "BEGIN", NULL, 0, NULL, NULL, &why)) == 0)
		rc = pd_db_exec(db, "SELECT pg_advisory_xact_lock(" PG_LOCK_KEY ")", NULL, 0,
				NULL, NULL, &why);
	if (rc < 0 && db->locked) /* one message for both stores */
		return pd_err_at(err, PD_EIO, db->where, 0, 0,
				 "another writer held the history store for %d s: gave up "
				 "(nothing was changed)",
				 PD_DB_LOCK_WAIT_S);
	if (rc < 0 && !err->code)
		*err = why;
	return rc;
}

int pd_db_commit(struct pd_db *db, struct pd_err *err)
{
	return pd_db_exec(db, "COMMIT", NULL, 0, NULL, NULL, err);
}

void pd_db_rollback(struct pd_db *db)
{
	struct pd_err ignored = PD_ERR_INIT;
	if (!db->lost) /* a server that did not answer is not waited for twice */
		pd_db_exec(db, "ROLLBACK", NULL, 0, NULL, NULL, &ignored);
}
