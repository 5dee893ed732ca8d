/* The Prometheus part of a pull: window, names, series (fetch/prom_pull.h). */
#include "prom_pull.h"
#include "../core/buf.h"
#include "../core/file.h"
#include "../core/xalloc.h"
#include "../parse/prom.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Prometheus answers at most 11 000 points per series (its query_range limit): a longer
 * window is asked for in pieces of this many steps. */
#define MAX_STEPS 10000
/* The longest window asked for: a run of perfrunner's lasts hours; a snapshot or build
 * that says years (ts_end 9999) would be millions of requests. */
#define MAX_WINDOW_S (31 * 86400LL)

struct pull {
	struct pd_prom_pull *pp;
	const char *id;
	char *prom, *cbmonitor2; /* base URLs, no trailing '/' */
	int64_t start_s, end_s;
	long step_s;
	size_t n_names, n_lists;
};

static char *trim(const char *s)
{
	size_t n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		n--;
	return pd_xstrndup(s, n);
}

/* Appends "&key=<value, percent-encoded>" (or "?" first). */
static void param(struct pd_buf *u, const char *key, const char *value)
{
	char *e = pd_transfer_escape(value);
	pd_buf_addf(u, "%c%s=%s", strchr(u->ptr, '?') ? '&' : '?', key, e);
	free(e);
}

static void param_ll(struct pd_buf *u, const char *key, long long v)
{
	pd_buf_addf(u, "%c%s=%lld", strchr(u->ptr, '?') ? '&' : '?', key, v);
}

static void get(struct pull *p, char *url, const char *rel, pd_transfer_done_fn done)
{
	char *path = pd_outdir_path(p->pp->out, rel);
	struct pd_transfer_get g = {.url = url, .path = path, .done = done, .ctx = p};
	pd_transfer_add(p->pp->t, &g);
	free(url);
	free(path);
}

/* The answer in d->path as src, named by its URL (the query) in messages. */
static int body(struct pd_buf *b, struct pd_src *src, struct pull *p,
		const struct pd_transfer_done *d)
{
	int rc = pd_file_read(b, d->path, p->pp->lim->max_file_bytes, p->pp->err);
	*src = (struct pd_src){b->ptr, b->len, d->shown, p->pp->lim};
	return rc;
}

/* A series answer is checked now: an error answer fails the pull with the query named. */
static int on_series(void *ctx, const struct pd_transfer_done *d, struct pd_err *err)
{
	struct pull *p = ctx;
	struct pd_prom *scratch = pd_prom_new();
	struct pd_buf b = PD_BUF_INIT;
	struct pd_src src;
	int rc;
	if ((rc = body(&b, &src, p, d)) == 0)
		rc = pd_prom_matrix_parse(scratch, &src, err);
	pd_prom_free(scratch);
	pd_buf_release(&b);
	return rc;
}

/* {__name__="N",job="ID"} and last_over_time({...}[STEP s]): a value only where a sample
 * came within the step (docs/reference.md). */
static void queue_series(struct pull *p, const char *name)
{
	int64_t span = (int64_t)MAX_STEPS * p->step_s;
	struct pd_buf q = PD_BUF_INIT, rel = PD_BUF_INIT, u = PD_BUF_INIT;
	pd_buf_addf(&q,
		    "{__name__=\"%s\",job=\"%s\"} and "
		    "last_over_time({__name__=\"%s\",job=\"%s\"}[%lds])",
		    name, p->id, name, p->id, p->step_s);
	for (int64_t s = p->start_s, k = 0; s <= p->end_s; s += span + p->step_s, k++) {
		pd_buf_truncate(&u, 0), pd_buf_truncate(&rel, 0);
		pd_buf_addf(&u, "%s/api/v1/query_range", p->prom);
		param(&u, "query", q.ptr);
		param_ll(&u, "start", (long long)s);
		param_ll(&u, "end", (long long)(s + span < p->end_s ? s + span : p->end_s));
		pd_buf_addf(&u, "&step=%lds", p->step_s);
		pd_buf_addf(&rel, k ? "prometheus/%s.%lld.json" : "prometheus/%s.json", name,
			    (long long)k);
		get(p, pd_buf_detach(&u), rel.ptr, on_series);
	}
	pd_buf_release(&q), pd_buf_release(&rel), pd_buf_release(&u);
}

/* A name Prometheus allows ([a-zA-Z_:][a-zA-Z0-9_:]*): it becomes a file name as is. */
static int metric_name(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 200 || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:") ==
	       n;
}

static int on_names(void *ctx, const struct pd_transfer_done *d, struct pd_err *err)
{
	struct pull *p = ctx;
	struct pd_strv names = {0};
	struct pd_buf b = PD_BUF_INIT;
	struct pd_src src;
	int rc;
	if ((rc = body(&b, &src, p, d)) == 0)
		rc = pd_prom_names_parse(&names, &src, err);
	unlink(d->path);
	/* a name is a series at least: refused before any is asked for, as the perfdb path
	 * refuses a metric list (200 000 names went on for 5 386 requests a minute) */
	if (rc == 0 && names.n > p->pp->lim->max_series)
		rc = pd_err_at(err, PD_ELIMIT, d->shown, 0, 0,
			       "%zu series names, more than %zu series (--max-series)", names.n,
			       p->pp->lim->max_series);
	for (size_t i = 0; rc == 0 && i < names.n; i++) {
		if (!metric_name(names.v[i]))
			rc = pd_err_at(err, PD_EPARSE, d->shown, 0, 0,
				       "expected Prometheus metric names, got '%.64s'",
				       names.v[i]);
		else
			queue_series(p, names.v[i]);
	}
	p->n_names = names.n;
	if (rc == 0 && !names.n)
		rc = pd_err_at(
			err, PD_ENOTFOUND, d->shown, 0, 0,
			"no series has job=\"%s\" in the window: is the snapshot id right?",
			p->id);
	pd_strv_free(&names);
	pd_buf_release(&b);
	return rc;
}

static int on_snapshot(void *ctx, const struct pd_transfer_done *d, struct pd_err *err)
{
	struct pull *p = ctx;
	struct pd_prom_snapshot s;
	struct pd_buf b = PD_BUF_INIT;
	struct pd_src src;
	int rc;
	if ((rc = body(&b, &src, p, d)) == 0 &&
	    (rc = pd_prom_snapshot_parse(&s, &src, err)) == 0) {
		if (s.start_ms > 0 && s.end_ms > s.start_ms)
			p->start_s = s.start_ms / 1000, p->end_s = (s.end_ms + 999) / 1000;
		pd_prom_snapshot_free(&s);
	}
	pd_buf_release(&b);
	return rc;
}

/* [stats] interval of the test config (perfrunner's default 5 s without one). */
static long step_of(const struct pd_run *run)
{
	const char *v = run->test.path ? pd_ini_get(&run->test, "stats", "interval") : NULL;
	long s = v ? strtol(v, NULL, 10) : 5;
	return s >= 1 && s <= 3600 ? s : 5;
}

/* The window: cbmonitor2's snapshot when given, else the build's start and duration. */
static int window(struct pull *p)
{
	const struct pd_jenkins *j = &p->pp->run->jenkins;
	struct pd_buf u = PD_BUF_INIT;
	char *e;
	int rc = 0;
	if (j->present && j->timestamp_ms > 0 && j->duration_ms > 0) {
		p->start_s = j->timestamp_ms / 1000;
		p->end_s = (j->timestamp_ms + j->duration_ms + 999) / 1000;
	}
	if (p->cbmonitor2) {
		if ((rc = pd_outdir_mkdir(p->pp->out, "cbmonitor2", p->pp->err)) < 0)
			return rc;
		pd_buf_addf(&u, "%s/api/v1/snapshots/%s", p->cbmonitor2,
			    e = pd_transfer_escape(p->id));
		free(e);
		get(p, pd_buf_detach(&u), "cbmonitor2/snapshot.json", on_snapshot);
		rc = pd_transfer_run(p->pp->t, p->pp->err);
	}
	if (rc == 0 && p->end_s <= p->start_s)
		rc = pd_err_set(p->pp->err, PD_EINVAL,
				"the window of snapshot %s is unknown: give --jenkins with a "
				"finished build, or --cbmonitor2 URL",
				p->id);
	else if (rc == 0 && p->end_s - p->start_s > MAX_WINDOW_S)
		rc = pd_err_set(
			p->pp->err, PD_EPARSE,
			"the window of snapshot %s is %lld s long (%s): expected at most "
			"31 days",
			p->id, (long long)(p->end_s - p->start_s),
			p->cbmonitor2 ? "cbmonitor2's ts_start and ts_end"
				      : "the build's timestamp and duration");
	return rc;
}

/* GET /api/v1/label/__name__/values?match[]={job="ID"}&start=S&end=E: the names. */
static void queue_names(struct pull *p)
{
	struct pd_buf u = PD_BUF_INIT, m = PD_BUF_INIT, rel = PD_BUF_INIT;
	pd_buf_addf(&u, "%s/api/v1/label/__name__/values", p->prom);
	pd_buf_addf(&m, "{job=\"%s\"}", p->id);
	param(&u, "match[]", m.ptr);
	param_ll(&u, "start", (long long)p->start_s);
	param_ll(&u, "end", (long long)p->end_s);
	pd_buf_addf(&rel, ".names-%zu.json", p->n_lists++);
	get(p, pd_buf_detach(&u), rel.ptr, on_names);
	pd_buf_release(&m);
	pd_buf_release(&rel);
}

int pd_prom_pull_run(struct pd_prom_pull *pp)
{
	const struct pd_plan_opts *o = pp->o;
	struct pull p = {.pp = pp};
	int rc;
	p.id = o->n_snapshots         ? o->snapshots[0]
	       : pp->run->snapshots.n ? pp->run->snapshots.v[0]
				      : NULL;
	if (!p.id)
		return pd_err_set(
			pp->err, PD_ENOTFOUND,
			"no 'Registered Prometheus snapshot:' line names the snapshot: "
			"give --snapshot ID");
	if (strpbrk(p.id, "\"\\{}") || !*p.id)
		return pd_err_set(pp->err, PD_EPARSE,
				  "a snapshot id with quotes or braces: '%.64s'", p.id);
	p.step_s = step_of(pp->run);
	p.prom = trim(o->prometheus);
	p.cbmonitor2 = o->cbmonitor2 ? trim(o->cbmonitor2) : NULL;
	if ((rc = window(&p)) == 0 &&
	    (rc = pd_outdir_mkdir(pp->out, "prometheus", pp->err)) == 0) {
		queue_names(&p);
		rc = pd_transfer_run(pp->t, pp->err);
	}
	free(p.prom);
	free(p.cbmonitor2);
	return rc;
}
