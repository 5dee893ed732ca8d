/* The latency distributions of both runs (issue 22: a percentile or histogram view of
 * baseline against target, as cbmonitor's comparison page has). n1ql's request timers are
 * rates of the requests slower than 250, 500, 1000 and 5000 ms (n1ql_stats/
 * query_requests_<N>ms, each counting every request slower than its bound); over the
 * total rate (query_requests) and one phase they give the share of requests slower than
 * each bound: a survival curve, one per run. */
#include "compare_impl.h"
#include "../core/xalloc.h"

#include <math.h>

static const struct {
	const char *metric;
	double ms;
} buckets[] = {
	{"n1ql_stats/query_requests_250ms", 250},
	{"n1ql_stats/query_requests_500ms", 500},
	{"n1ql_stats/query_requests_1000ms", 1000},
	{"n1ql_stats/query_requests_5000ms", 5000},
};
#define N_BUCKETS (sizeof(buckets) / sizeof(*buckets))

/* sum(slow) / sum(all) x 100 over the grid points of w where both have a value; NaN when
 * no request was counted. */
static double share(const double *slow, const double *all, const struct pd_view *v,
		    const struct pd_window *w)
{
	double s = 0, a = 0;
	for (size_t i = 0; i < v->n; i++) {
		double t = (double)i * v->step_s;
		if (t < w->start_s || t >= w->end_s || !isfinite(slow[i]) || !isfinite(all[i]))
			continue;
		s += slow[i], a += all[i];
	}
	return a > 0 ? 100 * s / a : NAN;
}

/* The phase the distribution is read over: after the event (both runs have the same
 * topology there), else the whole run. */
static enum pd_phase phase_of(const struct pd_comparison *c)
{
	return pd_comparison_has_phase(c, PD_PHASE_POST) ? PD_PHASE_POST : PD_PHASE_WHOLE;
}

void pd_latency_build(struct pd_comparison *c)
{
	long all = pd_comparison_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0, NULL);
	struct pd_latency l = {.metric = "n1ql_stats/query_requests_*ms", .phase = phase_of(c)};
	if (all < 0)
		return;
	const struct pd_view *va = &c->views[all];
	for (size_t k = 0; k < N_BUCKETS; k++) {
		long vi = pd_comparison_view(c, buckets[k].metric, PD_AT_CLUSTER, 0, NULL);
		if (vi < 0 || c->views[vi].n != va->n)
			continue;
		const struct pd_view *v = &c->views[vi];
		l.x[l.n] = buckets[k].ms;
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
