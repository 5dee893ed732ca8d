/* The latency distributions of both runs (a percentile or histogram view of
 * baseline against target, as cbmonitor's comparison page has). n1ql's request timers are
 * rates of the requests slower than each of its bounds (pd_story_slow_ms; n1ql_stats/
 * query_requests_<N>ms, each counting every request slower than its bound); over the
 * total rate (query_requests) and one phase they give the share of requests slower than
 * each bound: a survival curve, one per run. */
#include "latency.h"
#include "window.h"
#include "analyze/opts.h"
#include "scope.h"
#include "analyze/stats/stats.h"
#include "analyze/stats/tails.h"
#include "analyze/policy.h"
#include "core/metric.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* sum(slow) / sum(all) x 100 over the grid points of w where both have a value; NaN when
 * no request was counted. */
static double share(const double *slow, const double *all, const struct pd_view *v,
		    const struct pd_window *w)
{
	struct pd_tails_share s;
	size_t lo, hi;
	pd_window_range(v, w, &lo, &hi);
	pd_tails_share_of(&s, slow + lo, all + lo, hi - lo, v->step_s);
	return s.ok ? 100 * s.share : NAN;
}

long pd_latency_slow_views(const struct pd_comparison *c, long views[PD_STORY_N_SLOW])
{
	long all = pd_comparison_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0, NULL);
	struct pd_buf name = PD_BUF_INIT;
	for (size_t k = 0; k < PD_STORY_N_SLOW; k++) {
		pd_buf_truncate(&name, 0);
		pd_buf_addf(&name, "n1ql_stats/query_requests_%dms", pd_story_slow_ms[k]);
		views[k] =
			all < 0 ? -1 : pd_comparison_view(c, name.ptr, PD_AT_CLUSTER, 0, NULL);
		if (views[k] >= 0 && c->views[views[k]].n != c->views[all].n)
			views[k] = -1;
	}
	pd_buf_release(&name);
	return all;
}

/* The phase the distribution is read over: after the event (both runs have the same
 * topology there), else the whole run. */
static enum pd_phase phase_of(const struct pd_comparison *c)
{
	return pd_comparison_has_phase(c, PD_PHASE_POST) ? PD_PHASE_POST : PD_PHASE_WHOLE;
}

void pd_latency_build(struct pd_comparison *c)
{
	struct pd_latency l = {.metric = "n1ql_stats/query_requests_*ms", .phase = phase_of(c)};
	long views[PD_STORY_N_SLOW], all = pd_latency_slow_views(c, views);
	if (all < 0)
		return;
	const struct pd_view *va = &c->views[all];
	for (size_t k = 0; k < PD_STORY_N_SLOW; k++) {
		if (views[k] < 0)
			continue;
		const struct pd_view *v = &c->views[views[k]];
		l.x[l.n] = pd_story_slow_ms[k];
		l.base[l.n] = share(v->base, va->base, v, &c->windows[l.phase]);
		l.target[l.n] = share(v->target, va->target, v, &c->windows[l.phase]);
		l.n++;
	}
	if (l.n < 2)
		return;
	c->latency = pd_xcalloc(1, sizeof(*c->latency));
	c->latency[0] = l;
	c->n_latency = 1;
}

/* ---- the percentiles of the per-request collectors (tree.h struct pd_latency_pct) ---- */

static const double pcts[PD_LATENCY_PCTS] = {50, 80, 90, 95, 99, 99.9};

/* Samples of one run in one window, grown as needed. */
struct pool {
	double *v;
	size_t n, cap;
};

/* Appends to pool the samples of every series of run named name ("collector/metric",
 * every bucket's) with start_s <= t < end_s, t = (t_ms - t0_ms) / 1000; every sample
 * when w is the whole phase (perfrunner's KPI takes the snapshot's all). */
static void gather(struct pool *pool, const struct pd_run *run, const char *name, int64_t t0_ms,
		   const struct pd_window *w)
{
	size_t len = strcspn(name, "/");
	pool->n = 0;
	for (size_t i = 0; i < run->n_series; i++) {
		const struct pd_series *s = run->series[i];
		const int64_t *t;
		const double *v;
		if (strncmp(s->collector, name, len) || s->collector[len] ||
		    strcmp(s->metric, name + len + 1))
			continue;
		size_t n = pd_model_requests(s, &t, &v);
		if (pool->cap < pool->n + n) {
			pool->cap = 2 * (pool->n + n);
			pool->v = pd_xrealloc(pool->v, pool->cap * sizeof(*pool->v));
		}
		for (size_t k = 0; k < n; k++) {
			double ts = (double)(t[k] - t0_ms) / 1000.0;
			if (isfinite(v[k]) &&
			    (w->phase == PD_PHASE_WHOLE || (ts >= w->start_s && ts < w->end_s)))
				pool->v[pool->n++] = v[k];
		}
	}
}

/* The percentiles of pool (sorted here) into r, each where it has the samples it needs. */
static void side_of(struct pd_latency_run *r, struct pool *pool, const size_t *need)
{
	if (pool->n) /* (an empty pool has no array to sort) */
		pd_stats_sort(pool->v, pool->n);
	r->n = pool->n;
	for (size_t k = 0; k < PD_LATENCY_PCTS; k++) {
		r->status[k] = !pool->n            ? PD_LATENCY_NONE
			       : pool->n < need[k] ? PD_LATENCY_FEW
						   : PD_LATENCY_OK;
		r->ms[k] = r->status[k] == PD_LATENCY_OK
				   ? pd_stats_quantile_sorted(pool->v, pool->n, pcts[k] / 100)
				   : NAN;
	}
}

/* One metric over one phase, both runs. */
static void pct_of(struct pd_latency_pct *l, struct pool *pool, const struct pd_comparison *c,
		   const char *name, const struct pd_window *w)
{
	*l = (struct pd_latency_pct){.metric = pd_xstrdup(name), .phase = w->phase};
	for (size_t k = 0; k < PD_LATENCY_PCTS; k++) {
		l->p[k] = pcts[k];
		l->need[k] = pd_tails_need(pcts[k]);
	}
	gather(pool, c->base, name, c->base_grid_t0_ms, w);
	side_of(&l->base, pool, l->need);
	gather(pool, c->target, name, c->tb_target.t0_ms, w);
	side_of(&l->target, pool, l->need);
	for (size_t k = 0; k < PD_LATENCY_PCTS; k++)
		l->change_pct[k] =
			l->base.status[k] == PD_LATENCY_OK &&
					l->target.status[k] == PD_LATENCY_OK &&
					l->base.ms[k] > 0
				? (l->target.ms[k] - l->base.ms[k]) / l->base.ms[k] * 100
				: NAN;
	l->drawn = w->phase == phase_of(c);
}

/* The per-request collectors' metrics of either run, sorted, once each. */
static void pct_metrics(struct pd_strv *out, const struct pd_comparison *c)
{
	const struct pd_run *runs[] = {c->base, c->target};
	for (size_t r = 0; r < 2; r++)
		for (size_t i = 0; i < runs[r]->n_series; i++) {
			const struct pd_series *s = runs[r]->series[i];
			if (pd_metric_per_request(s->collector))
				pd_strv_addf(out, "%s/%s", s->collector, s->metric);
		}
	pd_strv_sort_unique(out);
}

void pd_latency_pct_build(struct pd_comparison *c)
{
	static const enum pd_phase order[] = {PD_PHASE_PRE, PD_PHASE_TRANSIENT, PD_PHASE_POST,
					      PD_PHASE_WHOLE};
	struct pd_strv names = {0};
	struct pool pool = {0};
	pct_metrics(&names, c);
	c->latency_pct = names.n ? pd_xcalloc(names.n * 4, sizeof(*c->latency_pct)) : NULL;
	for (size_t i = 0; i < names.n; i++)
		for (size_t p = 0; p < 4; p++)
			if (pd_comparison_has_phase(c, order[p]))
				pct_of(&c->latency_pct[c->n_latency_pct++], &pool, c,
				       names.v[i], &c->windows[order[p]]);
	free(pool.v);
	pd_strv_free(&names);
}

void pd_latency_pct_free(struct pd_comparison *c)
{
	for (size_t i = 0; i < c->n_latency_pct; i++)
		free(c->latency_pct[i].metric);
	free(c->latency_pct);
}
