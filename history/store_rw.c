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

/* Every stored name, sorted by name (the database orders them: ORDER BY name is byte
 * order in SQLite; PostgreSQL is told COLLATE "C"). */
static int load_names(struct pd_store *s, struct names *m, struct pd_err *err)
{
	const char *sql =
		s->db->kind == PD_DB_SQLITE
			? "SELECT id, name FROM feature_names ORDER BY name"
			: "SELECT id, name FROM feature_names ORDER BY name COLLATE \"C\"";
	return pd_db_exec(s->db, sql, NULL, 0, add_name, m, err);
}

/* Names sig has that the store lacks, inserted; m reloaded when any was. */
static int add_names(struct pd_store *s, struct names *m, const struct pd_signature *sig,
		     struct pd_err *err)
{
	int rc = 0, added = 0;
	for (size_t i = 0; i < sig->n && rc == 0; i++) {
		if (name_id(m, sig->f[i].name) >= 0)
			continue;
		const char *p[] = {sig->f[i].name};
		rc = pd_db_exec(
			s->db,
			"INSERT INTO feature_names (name) VALUES ($1) ON CONFLICT (name) "
			"DO NOTHING",
			p, 1, NULL, NULL, err);
		added = 1;
	}
	if (rc == 0 && added) {
		names_free(m);
		*m = (struct names){0};
		rc = load_names(s, m, err);
	}
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
	if ((rc = load_names(s, &m, err)) < 0 || (rc = add_names(s, &m, sig, err)) < 0 ||
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

void pd_store_runs_free(struct pd_store_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].key), free(r[i].test_config), free(r[i].version);
		free(r[i].build_line), free(r[i].job), free(r[i].bundle);
	}
	free(r);
}

/* A name's index by id: (id, index into the sorted names), sorted by id. */
struct by_id {
	long long id;
	size_t at;
};

static int cmp_id(const void *a, const void *b)
{
	long long x = ((const struct by_id *)a)->id, y = ((const struct by_id *)b)->id;
	return (x > y) - (x < y);
}

/* One run's stored features into row[0..m->n) (NaN where absent). */
struct parse_ctx {
	const struct by_id *ids;
	size_t n_ids;
	double *row;
	const struct pd_store_run *run;
	const char *where;
	struct pd_err *err;
	int found;
};

static int parse_line(struct parse_ctx *c, const char *p, const char **end, long line)
{
	char *e;
	errno = 0;
	struct by_id key = {.id = strtoll(p, &e, 10)}, *hit;
	double v = e > p && *e == ' ' ? strtod(e + 1, &e) : NAN;
	if (errno || !isfinite(v) || *e != ' ' ||
	    !(hit = bsearch(&key, c->ids, c->n_ids, sizeof(key), cmp_id)))
		return pd_err_at(c->err, PD_EPARSE, c->where, line, 0,
				 "run '%s': expected 'feature-id value se' with a known id",
				 c->run->key);
	c->row[hit->at] = v;
	*end = e + 1 + strcspn(e + 1, "\n");
	return 0;
}

static int parse_features(void *ctx, const char *const *col, size_t n)
{
	struct parse_ctx *c = ctx;
	const char *p = n && col[0] ? col[0] : "";
	c->found = 1;
	for (long line = 1; *p; line++) {
		if (parse_line(c, p, &p, line) < 0)
			return 1;
		if (*p == '\n')
			p++;
	}
	return 0;
}

/* Keeps the columns some run has a value in. */
static void compact(struct names *m, double *v, size_t n_runs)
{
	size_t k = 0, cols = m->n;
	for (size_t j = 0; j < cols; j++) {
		int used = 0;
		for (size_t i = 0; i < n_runs && !used; i++)
			used = !isnan(v[i * cols + j]);
		if (!used) {
			free(m->name[j]);
			continue;
		}
		for (size_t i = 0; i < n_runs; i++)
			v[i * cols + k] = v[i * cols + j];
		m->name[k++] = m->name[j];
	}
	/* rows were cols wide: pack them k wide */
	for (size_t i = 1; i < n_runs; i++)
		memmove(v + i * k, v + i * cols, k * sizeof(*v));
	m->n = k;
}

static int read_runs(struct pd_store *s, const struct pd_store_run *runs, size_t n,
		     struct names *m, double *v, struct pd_err *err)
{
	struct by_id *ids = pd_xmalloc((m->n ? m->n : 1) * sizeof(*ids));
	int rc = 0;
	for (size_t j = 0; j < m->n; j++)
		ids[j] = (struct by_id){m->id[j], j};
	qsort(ids, m->n, sizeof(*ids), cmp_id);
	for (size_t i = 0; i < n && rc == 0; i++) {
		char id[32];
		snprintf(id, sizeof(id), "%lld", runs[i].id);
		const char *p[] = {id};
		struct parse_ctx c = {ids, m->n, v + i * m->n, &runs[i], s->db->where, err, 0};
		rc = pd_db_exec(s->db, "SELECT data FROM run_features WHERE run_id = $1", p, 1,
				parse_features, &c, err);
		if (rc == 0 && err->code)
			rc = err->code;
	}
	free(ids);
	return rc;
}

int pd_store_features(struct pd_store *s, const struct pd_store_run *runs, size_t n,
		      char ***names, size_t *n_names, double **values, struct pd_err *err)
{
	struct names m = {0};
	double *v = NULL;
	int rc;
	*names = NULL, *n_names = 0, *values = NULL;
	if ((rc = load_names(s, &m, err)) < 0)
		goto fail;
	v = pd_xmalloc((n * m.n + 1) * sizeof(*v));
	for (size_t i = 0; i < n * m.n; i++)
		v[i] = NAN;
	if ((rc = read_runs(s, runs, n, &m, v, err)) < 0)
		goto fail;
	compact(&m, v, n);
	*names = m.name, *n_names = m.n, *values = v;
	free(m.id);
	return 0;
fail:
	names_free(&m);
	free(v);
	return rc;
}
