#include "compare_impl.h"
#include "../core/buf.h"
#include "../core/metric.h"
#include "../core/xalloc.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pd_views_fill(double *grid, size_t n, const struct pd_series *s, int64_t t0_ms,
		   int64_t step_ms)
{
	for (size_t i = 0; i < n; i++)
		grid[i] = NAN;
	for (size_t i = 0; s && i < s->n; i++) {
		int64_t d = s->t_ms[i] - t0_ms;
		int64_t k = (d >= 0 ? d + step_ms / 2 : d - step_ms / 2) / step_ms;
		if (k >= 0 && (size_t)k < n)
			grid[k] = s->v[i];
	}
}

/* The nodes of one run that carry one (collector, metric): a contiguous range of the
 * run's sorted series. */
struct group {
	const struct pd_series *const *s;
	size_t n;
};

static struct group find_group(const struct pd_run *run, const char *collector,
			       const char *metric)
{
	struct group g = {NULL, 0};
	for (size_t i = 0; i < run->n_series; i++) {
		const struct pd_series *s = run->series[i];
		if (strcmp(s->collector, collector) || strcmp(s->metric, metric) ||
		    s->scope == PD_SCOPE_CLIENT) /* client hosts are no node of the cluster */
			continue;
		if (!g.s)
			g.s = (const struct pd_series *const *)&run->series[i];
		g.n++;
	}
	return g;
}

static const struct pd_series *group_server(struct group g, const char *host)
{
	for (size_t i = 0; i < g.n; i++)
		if (g.s[i]->server && host && !strcmp(g.s[i]->server, host))
			return g.s[i];
	return NULL;
}

/* Matching: the baseline node with the same role as each target node, or NULL. */
struct matching {
	const struct pd_node **base; /* per target node */
	long removed;                /* target node index of the removed node, or -1 */
};

static void match_nodes(struct pd_comparison *c, struct matching *m)
{
	const struct pd_run *b = c->base, *t = c->target;
	m->base = pd_xcalloc(t->n_nodes + 1, sizeof(*m->base));
	m->removed = -1;
	for (size_t i = 0; i < t->n_nodes; i++) {
		const struct pd_node *tn = &t->nodes[i];
		for (size_t k = 0; k < b->n_nodes && !m->base[i]; k++)
			if (!strcmp(b->nodes[k].role, tn->role))
				m->base[i] = &b->nodes[k];
		if (c->tb_target.event != PD_EVENT_NONE && !strcmp(tn->host, c->tb_target.node))
			m->removed = (long)i;
		pd_strv_addf(&c->matching, "%s: %s %s %s%s", tn->role,
			     m->base[i] ? m->base[i]->host : "-",
			     m->base[i] ? "matches" : "(none) for", tn->host,
			     m->removed == (long)i ? " (removed)" : "");
	}
	for (size_t k = 0; k < b->n_nodes; k++) {
		int used = 0;
		for (size_t i = 0; i < t->n_nodes; i++)
			used |= m->base[i] == &b->nodes[k];
		if (!used)
			pd_strv_addf(&c->matching, "%s: %s only in the baseline",
				     b->nodes[k].role, b->nodes[k].host);
	}
}

/* "collector/metric" of s (caller frees). */
static char *metric_name(const struct pd_series *s)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, "%s/%s", s->collector, s->metric);
	return pd_buf_detach(&b);
}

/* Whether s's metric is one the --metrics globs ask for. */
static int wanted(const struct pd_compare_opts *opts, const struct pd_series *s)
{
	char *name = metric_name(s);
	int yes = !opts->n_metric_globs;
	for (size_t i = 0; i < opts->n_metric_globs && !yes; i++)
		yes = fnmatch(opts->metric_globs[i], name, 0) == 0;
	free(name);
	return yes;
}

static struct pd_view *new_view(struct pd_comparison *c, const struct pd_series *s,
				const struct pd_scope_ref *scope, enum pd_agg agg)
{
	PD_GROW(c->views, c->cap_views, c->n_views + 1);
	struct pd_view *v = &c->views[c->n_views++];
	size_t n = (size_t)(c->length_s / c->step_s) + 1;
	memset(v, 0, sizeof(*v));
	v->metric = metric_name(s);
	pd_scope_ref_copy(&v->scope, scope);
	v->nodes = pd_xstrdup("");
	v->unit = s->unit;
	v->worse = pd_metric_worse(s->collector, s->metric);
	v->agg = agg;
	v->n = n;
	v->step_s = c->step_s;
	v->base = pd_xmalloc(n * sizeof(double));
	v->target = pd_xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		v->base[i] = v->target[i] = NAN;
	return v;
}

/* Adds one member series to a view side: the first fills, later ones sum (a NaN in any
 * member makes the point NaN: no value is invented across a gap). */
static void accumulate(double *side, double *tmp, size_t n, const struct pd_series *s,
		       int64_t t0_ms, int64_t step_ms, int first)
{
	pd_views_fill(tmp, n, s, t0_ms, step_ms);
	for (size_t i = 0; i < n; i++)
		side[i] = first ? tmp[i] : side[i] + tmp[i];
}

static void finish_mean(struct pd_view *v, size_t members)
{
	if (v->agg != PD_AGG_MEAN || members < 2)
		return;
	for (size_t i = 0; i < v->n; i++) {
		v->base[i] /= (double)members;
		v->target[i] /= (double)members;
	}
}

static void add_node_name(struct pd_view *v, const char *host)
{
	size_t len = strlen(v->nodes);
	v->nodes = pd_xrealloc(v->nodes, len + strlen(host) + 2);
	snprintf(v->nodes + len, strlen(host) + 2, "%s%s", len ? "," : "", host);
}

struct builder {
	struct pd_comparison *c;
	struct matching m;
	int64_t step_ms;
	double *tmp; /* one grid of scratch */
	size_t *idx; /* target node indices of one view */
};

/* A view over the target nodes idx[0..k) and their baseline matches. */
static void node_set_view(struct builder *b, struct group tg, struct group bg,
			  const size_t *idx, size_t k, const struct pd_scope_ref *scope,
			  enum pd_agg agg)
{
	struct pd_comparison *c = b->c;
	struct pd_view *v = new_view(c, tg.s[0], scope, k == 1 ? PD_AGG_ONE : agg);
	for (size_t j = 0; j < k; j++) {
		const struct pd_node *tn = &c->target->nodes[idx[j]];
		const struct pd_node *bn = b->m.base[idx[j]];
		accumulate(v->target, b->tmp, v->n, group_server(tg, tn->host),
			   c->tb_target.t0_ms, b->step_ms, j == 0);
		accumulate(v->base, b->tmp, v->n, bn ? group_server(bg, bn->host) : NULL,
			   c->base_grid_t0_ms, b->step_ms, j == 0);
		add_node_name(v, tn->host);
	}
	finish_mean(v, k);
}

/* The survivors (matched, not removed) whose first service is svc (0: any) and that carry
 * the metric, into b->idx; returns how many. */
static size_t members(struct builder *b, struct group tg, unsigned svc)
{
	size_t k = 0;
	for (size_t i = 0; i < b->c->target->n_nodes; i++) {
		const struct pd_node *n = &b->c->target->nodes[i];
		if ((long)i == b->m.removed || (svc && n->first != svc) ||
		    !group_server(tg, n->host))
			continue;
		b->idx[k++] = i;
	}
	return k;
}

static void server_views(struct builder *b, struct group tg, struct group bg)
{
	enum pd_agg agg = tg.s[0]->unit == PD_UNIT_PERCENT ? PD_AGG_MEAN : PD_AGG_SUM;
	struct pd_scope_ref scope = {PD_AT_NONE, 0, NULL, NULL};
	int roles = 0;
	for (unsigned svc = 1; svc < (1u << PD_SVC_COUNT); svc <<= 1) {
		size_t k = members(b, tg, svc);
		if (!k)
			continue;
		roles++;
		pd_scope_ref_set(&scope, PD_AT_ROLE, svc, NULL);
		node_set_view(b, tg, bg, b->idx, k, &scope, agg);
		for (size_t j = 0; k >= 2 && j < k; j++) {
			pd_scope_ref_set(&scope, PD_AT_NODE, 0,
					 b->c->target->nodes[b->idx[j]].host);
			node_set_view(b, tg, bg, &b->idx[j], 1, &scope, agg);
		}
	}
	pd_scope_ref_set(&scope, PD_AT_SURVIVORS, 0, NULL);
	if (roles >= 2)
		node_set_view(b, tg, bg, b->idx, members(b, tg, 0), &scope, agg);
	if (b->m.removed >= 0 && group_server(tg, b->c->target->nodes[b->m.removed].host)) {
		size_t removed = (size_t)b->m.removed;
		pd_scope_ref_set(&scope, PD_AT_REMOVED, 0,
				 b->c->target->nodes[b->m.removed].host);
		node_set_view(b, tg, bg, &removed, 1, &scope, agg);
	}
	pd_scope_ref_free(&scope);
}

/* Cluster- and bucket-scope series: one "cluster" view over every bucket. */
static void cluster_view(struct builder *b, struct group tg, struct group bg)
{
	struct pd_comparison *c = b->c;
	enum pd_agg agg = tg.s[0]->unit == PD_UNIT_PERCENT ? PD_AGG_MEAN : PD_AGG_SUM;
	static const struct pd_scope_ref cluster = {PD_AT_CLUSTER, 0, NULL, NULL};
	struct pd_view *v = new_view(c, tg.s[0], &cluster, tg.n == 1 ? PD_AGG_ONE : agg);
	for (size_t j = 0; j < tg.n; j++)
		accumulate(v->target, b->tmp, v->n, tg.s[j], c->tb_target.t0_ms, b->step_ms,
			   j == 0);
	for (size_t j = 0; j < bg.n || j == 0; j++)
		accumulate(v->base, b->tmp, v->n, bg.n ? bg.s[j] : NULL, c->base_grid_t0_ms,
			   b->step_ms, j == 0);
	if (tg.n > 1 && agg == PD_AGG_MEAN)
		for (size_t i = 0; i < v->n; i++)
			v->target[i] /= (double)tg.n;
	if (bg.n > 1 && agg == PD_AGG_MEAN)
		for (size_t i = 0; i < v->n; i++)
			v->base[i] /= (double)bg.n;
}

static int skipped(const struct pd_series *s)
{
	/* the event's own evidence, not a metric to compare; client hosts are not the
	 * cluster's (they sort last, so a group's cluster series stay contiguous) */
	return !strcmp(s->collector, "active_tasks") || s->scope == PD_SCOPE_CLIENT;
}

static void note_base_only(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	const struct pd_run *b = c->base;
	for (size_t i = 0; i < b->n_series; i++) {
		const struct pd_series *s = b->series[i];
		if (i && !strcmp(s->collector, b->series[i - 1]->collector) &&
		    !strcmp(s->metric, b->series[i - 1]->metric))
			continue;
		if (!skipped(s) && wanted(opts, s) &&
		    !find_group(c->target, s->collector, s->metric).n)
			pd_strv_addf(&c->matching, "%s/%s: only in the baseline", s->collector,
				     s->metric);
	}
}

void pd_views_build(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	const struct pd_run *t = c->target;
	struct builder b = {c, {NULL, -1}, (int64_t)llround(c->step_s * 1000), NULL, NULL};
	match_nodes(c, &b.m);
	b.tmp = pd_xmalloc(((size_t)(c->length_s / c->step_s) + 1) * sizeof(double));
	b.idx = pd_xmalloc((t->n_nodes + 1) * sizeof(*b.idx));
	for (size_t i = 0; i < t->n_series; i++) {
		const struct pd_series *s = t->series[i];
		if (i && !strcmp(s->collector, t->series[i - 1]->collector) &&
		    !strcmp(s->metric, t->series[i - 1]->metric))
			continue; /* one pass per (collector, metric) group */
		if (skipped(s) || !wanted(opts, s))
			continue;
		struct group tg = find_group(t, s->collector, s->metric);
		struct group bg = find_group(c->base, s->collector, s->metric);
		if (s->scope == PD_SCOPE_SERVER || s->scope == PD_SCOPE_BUCKET_SERVER)
			server_views(&b, tg, bg);
		else
			cluster_view(&b, tg, bg);
	}
	note_base_only(c, opts);
	free(b.tmp);
	free(b.idx);
	free(b.m.base);
}
