/* The history store: adding a run and reading a test's runs back (store.h). */
#include "store.h"

#include "db.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Feature names and their ids, sorted by name. */
struct names {
	char **name;
	long long *id;
	size_t n, cap, cap_id;
};

static int add_name(void *ctx, const char *const *col, size_t n)
{
	struct names *m = ctx;
	if (n < 2 || !col[0] || !col[1])
		return 0;
	PD_GROW(m->name, m->cap, m->n + 1);
	PD_GROW(m->id, m->cap_id, m->n + 1);
	m->id[m->n] = strtoll(col[0], NULL, 10);
	m->name[m->n++] = pd_xstrdup(col[1]);
	return 0;
}

static void names_free(struct names *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->name[i]);
	free(m->name), free(m->id);
}

/* The id of name in m (sorted), or -1. */
static long long name_id(const struct names *m, const char *name)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(m->name[mid], name);
		if (!c)
			return m->id[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* How many ids or names one SELECT ... IN (...) asks for: SQLite binds at most 32 766
 * parameters (999 before 3.32), PostgreSQL 65 535. */
#define IN_CHUNK 500

struct pair {
	char *name;
	long long id;
};

static int cmp_pair(const void *a, const void *b)
{
	return strcmp(((const struct pair *)a)->name, ((const struct pair *)b)->name);
}

/* Sorts m by name (byte order, as strcmp and name_id() read it). */
static void sort_names(struct names *m)
{
	struct pair *p = pd_xmalloc((m->n ? m->n : 1) * sizeof(*p));
	for (size_t i = 0; i < m->n; i++)
		p[i] = (struct pair){m->name[i], m->id[i]};
	qsort(p, m->n, sizeof(*p), cmp_pair);
	for (size_t i = 0; i < m->n; i++)
		m->name[i] = p[i].name, m->id[i] = p[i].id;
	free(p);
}

/* The ids of the names want[0..n) that the store holds, added to m (then sorted): one
 * SELECT per IN_CHUNK names, so an add reads its own names, never the whole table (an
 * add to a store of 500 000 names of other tests took 51 MB). */
static int find_names(struct pd_store *s, struct names *m, const char *const *want, size_t n,
		      struct pd_err *err)
{
	int rc = 0;
	for (size_t at = 0; at < n && rc == 0; at += IN_CHUNK) {
		size_t k = n - at < IN_CHUNK ? n - at : IN_CHUNK;
		struct pd_buf q = PD_BUF_INIT;
		pd_buf_adds(&q, "SELECT id, name FROM feature_names WHERE name IN (");
		for (size_t i = 0; i < k; i++)
			pd_buf_addf(&q, "%s$%zu", i ? ", " : "", i + 1);
		pd_buf_adds(&q, ")");
		rc = pd_db_exec(s->db, q.ptr, want + at, k, add_name, m, err);
		pd_buf_release(&q);
	}
	sort_names(m);
	return rc;
}

/* The names of sig in m, those the store lacked inserted first. */
static int add_names(struct pd_store *s, struct names *m, const struct pd_signature *sig,
		     struct pd_err *err)
{
	const char **want = pd_xmalloc((sig->n ? sig->n : 1) * sizeof(*want));
	size_t n_missing = 0;
	int rc;
	for (size_t i = 0; i < sig->n; i++)
		want[i] = sig->f[i].name;
	if ((rc = find_names(s, m, want, sig->n, err)) < 0)
		goto done;
	for (size_t i = 0; i < sig->n && rc == 0; i++) {
		if (name_id(m, sig->f[i].name) >= 0)
			continue;
		const char *p[] = {sig->f[i].name};
		rc = pd_db_exec(
			s->db,
			"INSERT INTO feature_names (name) VALUES ($1) ON CONFLICT (name) "
			"DO NOTHING",
			p, 1, NULL, NULL, err);
		want[n_missing++] = sig->f[i].name;
	}
	if (rc == 0 && n_missing)
		rc = find_names(s, m, want, n_missing, err);
done:
	free(want);
	return rc;
}

/* The run's features as stored: "id value se\n" per feature. */
static void features_text(struct pd_buf *b, const struct names *m,
			  const struct pd_signature *sig)
{
	for (size_t i = 0; i < sig->n; i++) {
		pd_buf_addf(b, "%lld %.17g ", name_id(m, sig->f[i].name), sig->f[i].value);
		if (isnan(sig->f[i].se))
			pd_buf_adds(b, "-\n");
		else
			pd_buf_addf(b, "%.17g\n", sig->f[i].se);
	}
}

static int get_id(void *ctx, const char *const *col, size_t n)
{
	if (n && col[0])
		*(long long *)ctx = strtoll(col[0], NULL, 10);
	return 0;
}

/* Inserts the run's row; *id is its id, or -1 when the key was there already. */
static int insert_run(struct pd_store *s, const struct pd_signature *sig, const char *bundle,
		      long long *id, struct pd_err *err)
{
	char num[32], tms[32], added[32];
	char *order = pd_store_build_order(sig->version),
	     *line = pd_store_build_line(sig->version);
	snprintf(num, sizeof(num), "%ld", sig->number);
	snprintf(tms, sizeof(tms), "%lld", (long long)sig->time_ms);
	snprintf(added, sizeof(added), "%lld", (long long)time(NULL) * 1000);
	const char *p[] = {sig->key,
			   sig->test_config ? sig->test_config : "",
			   order,
			   line,
			   sig->version,
			   sig->job,
			   num,
			   tms,
			   sig->spec,
			   sig->cluster,
			   sig->event_kind,
			   sig->event_node,
			   bundle,
			   added};
	*id = -1;
	int rc = pd_db_exec(
		s->db,
		"INSERT INTO runs (run_key, test_config, build_order, build_line, version, "
		"job, "
		"number, time_ms, spec, cluster, event_kind, event_node, bundle, added_ms) "
		"VALUES "
		"($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT "
		"(run_key) DO NOTHING RETURNING id",
		p, 14, get_id, id, err);
	free(order), free(line);
	return rc;
}

static int check_text(const char *what, const char *s, struct pd_err *err)
{
	long at = s ? pd_db_not_utf8(s) : -1;
	if (at < 0)
		return 0;
	return pd_err_set(
		err, PD_EPARSE,
		"refusing %s '%s': byte %ld is not UTF-8, and the history store holds "
		"UTF-8 text",
		what, s, at + 1);
}

int pd_store_check(const struct pd_signature *sig, const char *bundle, struct pd_err *err)
{
	const struct {
		const char *what, *s;
	} text[] = {{"the bundle path", bundle},
		    {"the run key", sig->key},
		    {"the job", sig->job},
		    {"the version", sig->version},
		    {"the test config", sig->test_config},
		    {"the spec", sig->spec},
		    {"the cluster", sig->cluster},
		    {"the event kind", sig->event_kind},
		    {"the event node", sig->event_node}};
	int rc = 0;
	/* a run with no feature would be stored and reported green with nothing tested */
	if (!sig->n)
		return pd_err_set(err, PD_EPARSE,
				  "refusing run '%s' of '%s': its signature has no feature (no "
				  "metric has a value in any phase), so its history would test "
				  "nothing",
				  sig->key ? sig->key : "?", bundle ? bundle : "?");
	for (size_t i = 0; i < sizeof(text) / sizeof(*text) && rc == 0; i++)
		rc = check_text(text[i].what, text[i].s, err);
	for (size_t i = 0; i < sig->n && rc == 0; i++)
		rc = check_text("the feature name", sig->f[i].name, err);
	return rc;
}

int pd_store_add(struct pd_store *s, const struct pd_signature *sig, const char *bundle,
		 int *added, struct pd_err *err)
{
	struct names m = {0};
	struct pd_buf text = PD_BUF_INIT, idtext = PD_BUF_INIT;
	long long id = -1;
	int rc;
	*added = 0;
	if ((rc = pd_store_check(sig, bundle, err)) < 0 || (rc = pd_db_begin(s->db, err)) < 0)
		return rc;
	if ((rc = add_names(s, &m, sig, err)) < 0 ||
	    (rc = insert_run(s, sig, bundle, &id, err)) < 0)
		goto done;
	if (id >= 0) {
		features_text(&text, &m, sig);
		pd_buf_addf(&idtext, "%lld", id);
		const char *p[] = {idtext.ptr, text.ptr};
		rc = pd_db_exec(s->db,
				"INSERT INTO run_features (run_id, data) VALUES ($1, $2)", p, 2,
				NULL, NULL, err);
	}
	if (rc == 0 && (rc = pd_db_commit(s->db, err)) == 0)
		*added = id >= 0;
done:
	if (rc < 0)
		pd_db_rollback(s->db);
	names_free(&m);
	pd_buf_release(&text);
	pd_buf_release(&idtext);
	return rc;
}

struct runs {
	struct pd_store_run *r;
	size_t n, cap;
};

static char *dup_col(const char *v)
{
	return v ? pd_xstrdup(v) : NULL;
}

static int add_run(void *ctx, const char *const *col, size_t n)
{
	struct runs *rs = ctx;
	if (n < 9)
		return 0;
	PD_GROW(rs->r, rs->cap, rs->n + 1);
	rs->r[rs->n++] = (struct pd_store_run){
		.id = strtoll(col[0], NULL, 10),
		.key = dup_col(col[1]),
		.test_config = dup_col(col[2]),
		.version = dup_col(col[3]),
		.build_line = dup_col(col[4]),
		.job = dup_col(col[5]),
		.number = col[6] ? strtol(col[6], NULL, 10) : 0,
		.time_ms = col[7] ? strtoll(col[7], NULL, 10) : 0,
		.bundle = dup_col(col[8]),
	};
	return 0;
}

int pd_store_runs(struct pd_store *s, const char *test_config, struct pd_store_run **out,
		  size_t *n, struct pd_err *err)
{
	struct runs rs = {0};
	const char *p[] = {test_config};
	int rc = pd_db_exec(
		s->db,
		s->db->kind == PD_DB_SQLITE
			? "SELECT id, run_key, test_config, version, build_line, job, number, "
			  "time_ms, bundle FROM runs WHERE test_config = $1 ORDER BY "
			  "build_order, "
			  "time_ms, run_key"
			: "SELECT id, run_key, test_config, version, build_line, job, number, "
			  "time_ms, bundle FROM runs WHERE test_config = $1 ORDER BY "
			  "build_order "
			  "COLLATE \"C\", time_ms, run_key COLLATE \"C\"",
		p, 1, add_run, &rs, err);
	if (rc < 0) {
		pd_store_runs_free(rs.r, rs.n);
		rs = (struct runs){0};
	}
	*out = rs.r, *n = rs.n;
	return rc;
}

struct tests {
	char **t;
	size_t n, cap;
};

static int add_test(void *ctx, const char *const *col, size_t n)
{
	struct tests *ts = ctx;
	if (n < 1 || !col[0])
		return 0;
	PD_GROW(ts->t, ts->cap, ts->n + 1);
	ts->t[ts->n++] = pd_xstrdup(col[0]);
	return 0;
}

int pd_store_tests(struct pd_store *s, char ***out, size_t *n, struct pd_err *err)
{
	struct tests ts = {0};
	/* bytewise order in both: PostgreSQL's default collation follows the locale */
	int rc = pd_db_exec(
		s->db,
		s->db->kind == PD_DB_SQLITE
			? "SELECT DISTINCT test_config FROM runs ORDER BY test_config"
			: "SELECT DISTINCT test_config COLLATE \"C\" AS t FROM runs "
			  "ORDER BY t",
		NULL, 0, add_test, &ts, err);
	if (rc < 0) {
		for (size_t i = 0; i < ts.n; i++)
			free(ts.t[i]);
		free(ts.t);
		ts = (struct tests){0};
	}
	*out = ts.t, *n = ts.n;
	return rc;
}

void pd_store_runs_free(struct pd_store_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].key), free(r[i].test_config), free(r[i].version);
		free(r[i].build_line), free(r[i].job), free(r[i].bundle);
	}
	free(r);
}

/* One run's stored features as read: (id, value) in the row's order. */
struct row {
	long long *id;
	double *v;
	size_t n, cap_id, cap_v;
};

struct parse_ctx {
	struct row *row;
	const struct pd_store_run *run;
	const char *where;
	struct pd_err *err;
};

static int parse_line(struct parse_ctx *c, const char *p, const char **end, long line)
{
	char *e;
	errno = 0;
	long long id = strtoll(p, &e, 10);
	double v = e > p && *e == ' ' ? strtod(e + 1, &e) : NAN;
	if (errno || !isfinite(v) || *e != ' ')
		return pd_err_at(c->err, PD_EPARSE, c->where, line, 0,
				 "run '%s': expected 'feature-id value se' with a known id",
				 c->run->key);
	PD_GROW(c->row->id, c->row->cap_id, c->row->n + 1);
	PD_GROW(c->row->v, c->row->cap_v, c->row->n + 1);
	c->row->id[c->row->n] = id, c->row->v[c->row->n++] = v;
	*end = e + 1 + strcspn(e + 1, "\n");
	return 0;
}

static int parse_features(void *ctx, const char *const *col, size_t n)
{
	struct parse_ctx *c = ctx;
	const char *p = n && col[0] ? col[0] : "";
	for (long line = 1; *p; line++) {
		if (parse_line(c, p, &p, line) < 0)
			return 1;
		if (*p == '\n')
			p++;
	}
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* The ids the rows hold, each once, sorted, into *ids[0..*n). */
static void row_ids(long long **ids, size_t *n, const struct row *rows, size_t n_rows)
{
	size_t total = 0, k = 0;
	for (size_t i = 0; i < n_rows; i++)
		total += rows[i].n;
	*ids = pd_xmalloc((total ? total : 1) * sizeof(**ids));
	for (size_t i = 0; i < n_rows; i++)
		for (size_t j = 0; j < rows[i].n; j++)
			(*ids)[k++] = rows[i].id[j];
	qsort(*ids, total, sizeof(**ids), cmp_ll);
	k = 0;
	for (size_t i = 0; i < total; i++)
		if (!k || (*ids)[k - 1] != (*ids)[i])
			(*ids)[k++] = (*ids)[i];
	*n = k;
}

/* The names of ids[0..n) (sorted), one SELECT per IN_CHUNK ids; an id the rows hold that
 * feature_names lacks is PD_EPARSE. */
static int names_of(struct pd_store *s, struct names *m, const long long *ids, size_t n,
		    struct pd_err *err)
{
	int rc = 0;
	for (size_t at = 0; at < n && rc == 0; at += IN_CHUNK) {
		struct pd_buf q = PD_BUF_INIT;
		pd_buf_adds(&q, "SELECT id, name FROM feature_names WHERE id IN (");
		for (size_t i = at; i < n && i < at + IN_CHUNK; i++)
			pd_buf_addf(&q, "%s%lld", i > at ? ", " : "",
				    ids[i]); /* numbers we parsed */
		pd_buf_adds(&q, ")");
		rc = pd_db_exec(s->db, q.ptr, NULL, 0, add_name, m, err);
		pd_buf_release(&q);
	}
	if (rc == 0 && m->n != n) {
		long long missing = n ? ids[0] : 0;
		for (size_t i = 0; i < n; i++) {
			size_t j = 0;
			while (j < m->n && m->id[j] != ids[i])
				j++;
			if (j == m->n) {
				missing = ids[i];
				break;
			}
		}
		rc = pd_err_at(err, PD_EPARSE, s->db->where, 0, 0,
			       "feature id %lld is stored for a run but has no name in "
			       "feature_names",
			       missing);
	}
	return rc;
}

/* A name's column by id: (id, index into the sorted names), sorted by id. */
struct by_id {
	long long id;
	size_t at;
};

static int cmp_id(const void *a, const void *b)
{
	return cmp_ll(&((const struct by_id *)a)->id, &((const struct by_id *)b)->id);
}

/* The rows as values[run * m->n + column], NaN where a run lacks a feature. */
static double *spread_rows(const struct names *m, const struct row *rows, size_t n_rows)
{
	struct by_id *ids = pd_xmalloc((m->n ? m->n : 1) * sizeof(*ids)), key, *hit;
	double *v = pd_xmalloc((n_rows * m->n + 1) * sizeof(*v));
	for (size_t j = 0; j < m->n; j++)
		ids[j] = (struct by_id){m->id[j], j};
	qsort(ids, m->n, sizeof(*ids), cmp_id);
	for (size_t i = 0; i < n_rows * m->n; i++)
		v[i] = NAN;
	for (size_t i = 0; i < n_rows; i++)
		for (size_t j = 0; j < rows[i].n; j++) {
			key.id = rows[i].id[j];
			if ((hit = bsearch(&key, ids, m->n, sizeof(key), cmp_id)))
				v[i * m->n + hit->at] = rows[i].v[j];
		}
	free(ids);
	return v;
}

int pd_store_features(struct pd_store *s, const struct pd_store_run *runs, size_t n,
		      char ***names, size_t *n_names, double **values, struct pd_err *err)
{
	struct row *rows = pd_xcalloc(n ? n : 1, sizeof(*rows));
	struct names m = {0};
	long long *ids = NULL;
	size_t n_ids = 0;
	int rc = 0;
	*names = NULL, *n_names = 0, *values = NULL;
	/* the runs' own rows first, then the names of the ids they hold: memory is the
	 * window's runs x the test's features, whatever else the store holds */
	for (size_t i = 0; i < n && rc == 0; i++) {
		char id[32];
		snprintf(id, sizeof(id), "%lld", runs[i].id);
		const char *p[] = {id};
		struct parse_ctx c = {&rows[i], &runs[i], s->db->where, err};
		rc = pd_db_exec(s->db, "SELECT data FROM run_features WHERE run_id = $1", p, 1,
				parse_features, &c, err);
		if (rc == 0 && err->code)
			rc = err->code;
	}
	if (rc == 0) {
		row_ids(&ids, &n_ids, rows, n);
		rc = names_of(s, &m, ids, n_ids, err);
	}
	if (rc == 0) {
		sort_names(&m);
		*values = spread_rows(&m, rows, n);
		*names = m.name, *n_names = m.n;
		free(m.id);
	} else
		names_free(&m);
	for (size_t i = 0; i < n; i++)
		free(rows[i].id), free(rows[i].v);
	free(rows), free(ids);
	return rc;
}
