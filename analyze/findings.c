#include "kpi.h"
#include "compare_impl.h"
#include "normalize.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranking: the kind first, then the size of the change against the threshold. */
static double weight(enum pd_finding_kind k)
{
	static const double w[] = {1000, 300, 280, 260, 200, 100, 50};
	return w[k];
}

static struct pd_finding *add(struct pd_comparison *c, enum pd_finding_kind kind,
			      const struct pd_view *v, long view, double size)
{
	PD_GROW(c->findings, c->cap_findings, c->n_findings + 1);
	struct pd_finding *f = &c->findings[c->n_findings++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->metric = v ? pd_xstrdup(v->metric) : NULL;
	if (v)
		pd_scope_ref_copy(&f->scope, &v->scope);
	f->delta_pct = f->value = NAN;
	f->view = view;
	f->score = weight(kind) + (isnan(size) ? 0 : fmin(fabs(size), 99));
	return f;
}

static void set_text(struct pd_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_text(struct pd_finding *f, const char *fmt, ...)
{
	struct pd_buf b = PD_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	pd_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(f->text);
	f->text = pd_buf_detach(&b);
}

/* The view of metric at the scope of that kind (and service, for a role), or -1. */
static long find_view(const struct pd_comparison *c, const char *metric,
		      enum pd_scope_kind kind, unsigned service)
{
	for (size_t i = 0; i < c->n_views; i++)
		if (!strcmp(c->views[i].metric, metric) && c->views[i].scope.kind == kind &&
		    c->views[i].scope.service == service)
			return (long)i;
	return -1;
}

static const struct pd_delta *find_delta(const struct pd_comparison *c, size_t view,
					 enum pd_phase phase)
{
	for (size_t i = 0; i < c->n_deltas; i++)
		if (c->deltas[i].view == view && c->deltas[i].phase == phase)
			return &c->deltas[i];
	return NULL;
}

/* "the kv nodes", "node 172.23.100.55", "the surviving nodes", "the cluster". */
static void scope_words(char *out, size_t n, const struct pd_view *v)
{
	switch (v->scope.kind) {
	case PD_AT_ROLE:
		snprintf(out, n, "the %s node%s (%s)", pd_service_name(v->scope.service),
			 strchr(v->nodes, ',') ? "s" : "", v->nodes);
		break;
	case PD_AT_NODE:
		snprintf(out, n, "node %s", v->scope.host);
		break;
	case PD_AT_SURVIVORS:
		snprintf(out, n, "the surviving nodes");
		break;
	case PD_AT_REMOVED:
		snprintf(out, n, "the removed node %s", v->nodes);
		break;
	default:
		snprintf(out, n, "the cluster");
	}
}

static const char *phase_words(enum pd_phase p)
{
	static const char *const w[] = {"before the event", "during the failover and rebalance",
					"after the failover and rebalance",
					"over the whole run"};
	return w[p];
}

static int shifted(const struct pd_delta *d)
{
	return d &&
	       (d->verdict == PD_VERDICT_REGRESSION || d->verdict == PD_VERDICT_IMPROVEMENT);
}

/* Per-role deltas of a survivors finding: " (kv +2.0%, n1ql +59.3%)". */
static void role_breakdown(char *out, size_t n, const struct pd_comparison *c,
			   const struct pd_view *v, enum pd_phase phase)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < c->n_views && len + 40 < n; i++) {
		const struct pd_view *r = &c->views[i];
		const struct pd_delta *d;
		if (strcmp(r->metric, v->metric) || r->scope.kind != PD_AT_ROLE ||
		    !(d = find_delta(c, i, phase)) || isnan(d->delta_pct))
			continue;
		len += (size_t)snprintf(out + len, n - len, "%s%s %+.1f%%", len ? ", " : " (",
					pd_service_name(r->scope.service), d->delta_pct);
	}
	if (len)
		snprintf(out + len, n - len, ")");
}

/* atop and metrics_rest_api_processes measure the same process twice: the REST
 * metric's twin in atop ("memcached_sysproc_cpu_utilization" -> "atop/memcached_cpu",
 * "..._sysproc_mem_resident" -> "..._rss"), or "" when it has none. */
static void atop_twin(char *out, size_t n, const char *metric)
{
	static const char *const rest = "metrics_rest_api_processes/";
	static const char *const ends[][2] = {{"_sysproc_cpu_utilization", "_cpu"},
					      {"_sysproc_mem_resident", "_rss"}};
	out[0] = '\0';
	if (strncmp(metric, rest, strlen(rest)))
		return;
	const char *proc = metric + strlen(rest);
	for (size_t i = 0; i < 2; i++)
		if (pd_str_ends_with(proc, ends[i][0]))
			snprintf(out, n, "atop/%.*s%s",
				 (int)(strlen(proc) - strlen(ends[i][0])), proc, ends[i][1]);
}

/* Whether a finding on this metric (or its atop twin) already stands at a broader
 * scope. */
static int covered(const struct pd_comparison *c, const char *metric, int rank)
{
	char twin[256];
	atop_twin(twin, sizeof(twin), metric);
	for (size_t i = 0; i < c->n_findings; i++) {
		const struct pd_finding *f = &c->findings[i];
		if (f->metric && (!strcmp(f->metric, metric) || !strcmp(f->metric, twin)) &&
		    (f->kind == PD_FIND_POST_EVENT_MISMATCH ||
		     f->kind == PD_FIND_METRIC_SHIFT) &&
		    pd_scope_ref_rank(&f->scope) < rank)
			return 1;
	}
	return 0;
}

/* A REST process metric whose atop twin already has a finding at the same scope and
 * phase corroborates it: one sentence more there, not a second finding. */
static int corroborates(struct pd_comparison *c, const struct pd_view *v,
			const struct pd_delta *d)
{
	char twin[256];
	atop_twin(twin, sizeof(twin), v->metric);
	for (size_t i = 0; twin[0] && i < c->n_findings; i++) {
		struct pd_finding *f = &c->findings[i];
		if (!f->metric || strcmp(f->metric, twin) ||
		    !pd_scope_ref_eq(&f->scope, &v->scope) || !f->has_phase ||
		    f->phase != d->phase)
			continue;
		struct pd_buf b = PD_BUF_INIT;
		pd_buf_addf(&b, "%s %s agrees: %+.1f%%.", f->text, v->metric, d->delta_pct);
		free(f->text);
		f->text = pd_buf_detach(&b);
		return 1;
	}
	return 0;
}

static void shift_finding(struct pd_comparison *c, size_t vi, int event)
{
	const struct pd_view *v = &c->views[vi];
	const struct pd_delta *post = event ? find_delta(c, vi, PD_PHASE_POST) : NULL;
	const struct pd_delta *pre = event ? find_delta(c, vi, PD_PHASE_PRE) : NULL;
	const struct pd_delta *d = shifted(post) ? post : find_delta(c, vi, PD_PHASE_WHOLE);
	char where[256], a[48], b[48], roles[200] = "", also[96] = "";
	if (!shifted(d))
		d = event && shifted(pre) ? pre : NULL;
	if (!d || covered(c, v->metric, pd_scope_ref_rank(&v->scope)) || corroborates(c, v, d))
		return;
	enum pd_finding_kind kind =
		d == post ? PD_FIND_POST_EVENT_MISMATCH : PD_FIND_METRIC_SHIFT;
	struct pd_finding *f = add(c, kind, v, (long)vi, d->delta_pct / c->threshold_pct);
	f->has_phase = 1, f->phase = d->phase;
	f->direction = d->delta_pct > 0 ? 1 : -1;
	f->delta_pct = d->delta_pct;
	f->value = d->target.median;
	scope_words(where, sizeof(where), v);
	pd_unit_format(a, sizeof(a), d->target.median, v->unit);
	pd_unit_format(b, sizeof(b), d->base.median, v->unit);
	if (v->scope.kind == PD_AT_SURVIVORS)
		role_breakdown(roles, sizeof(roles), c, v, d->phase);
	if (d == post && shifted(pre))
		snprintf(also, sizeof(also), "; it was already %+.1f%% before the event",
			 pre->delta_pct);
	else if (d == post)
		snprintf(also, sizeof(also), "; before the event the runs agreed");
	set_text(f,
		 "%s on %s is %.1f%% %s than the baseline %s (median %s vs %s, 95%% CI %+.1f%% "
		 "to %+.1f%%, adjusted p %.2g)%s%s, a %s.",
		 v->metric, where, fabs(d->delta_pct), d->delta_pct > 0 ? "higher" : "lower",
		 phase_words(d->phase), a, b, d->ci_lo, d->ci_hi, d->p_adj, roles, also,
		 pd_verdict_name(d->verdict));
}

static void shift_findings(struct pd_comparison *c)
{
	for (int rank = 0; rank <= 2; rank++)
		for (size_t vi = 0; vi < c->n_views; vi++)
			if (c->views[vi].scope.kind != PD_AT_REMOVED &&
			    pd_scope_ref_rank(&c->views[vi].scope) == rank)
				shift_finding(c, vi, c->has_event);
}

/* The target's summary of a view inside a window. */
static struct pd_summary window_summary(const struct pd_view *v, const double *side,
					const struct pd_window *w)
{
	struct pd_summary s;
	double *t = pd_xmalloc((v->n + 1) * sizeof(double)),
	       *x = pd_xmalloc((v->n + 1) * sizeof(double));
	size_t n = 0;
	for (size_t i = 0; i < v->n; i++) {
		double ti = (double)i * v->step_s;
		if (ti >= w->start_s && ti < w->end_s && !isnan(side[i]))
			t[n] = ti, x[n++] = side[i];
	}
	pd_stats_summary(&s, t, x, n);
	free(t);
	free(x);
	return s;
}

/* Connections that a removed node keeps after it left: a post-phase median of at least
 * this many is not the residue of closing sockets. */
#define PD_LINGER_MIN 10.0

static void lingering_finding(struct pd_comparison *c)
{
	long vi = find_view(c, "net/ESTABLISHED", PD_AT_REMOVED, 0);
	if (vi < 0 || !c->has_event)
		return;
	const struct pd_view *v = &c->views[vi];
	const struct pd_window *w = &c->windows[PD_PHASE_POST];
	struct pd_summary post = window_summary(v, v->target, w);
	if (post.n < 10 || post.median < PD_LINGER_MIN)
		return;
	size_t last = 0;
	for (size_t i = 0; i < v->n; i++)
		if (!isnan(v->target[i]) && v->target[i] >= PD_LINGER_MIN)
			last = i;
	double until = (double)last * v->step_s, e = c->tb_target.event_s;
	struct pd_finding *f = add(c, PD_FIND_LINGERING, v, vi, post.median / PD_LINGER_MIN);
	/* the contract names it node:<host> */
	pd_scope_ref_set(&f->scope, PD_AT_NODE, 0, v->scope.host);
	f->has_phase = 1, f->phase = PD_PHASE_POST;
	f->direction = 1;
	f->value = post.median;
	char held[160];
	if (until >= c->length_s - 2 * v->step_s)
		snprintf(held, sizeof(held),
			 "still has %.0f or more at the end of the run, %.0f s after its "
			 "failover at %.0f s",
			 PD_LINGER_MIN, until - e, e);
	else
		snprintf(held, sizeof(held),
			 "keeps %.0f or more for %.0f s after its failover at %.0f s",
			 PD_LINGER_MIN, until - e, e);
	set_text(f,
		 "The removed node %s still holds %.0f established connections after it left "
		 "the cluster (median from %.0f s, range %.0f to %.0f) and %s.",
		 v->nodes, post.median, w->start_s, post.min, post.max, held);
}

static const struct pd_kpi *throughput_kpi(const struct pd_run *run)
{
	for (size_t i = 0; i < run->n_kpis; i++)
		if (strstr(run->kpis[i].metric, "query_requests"))
			return &run->kpis[i];
	return NULL;
}

/* The share of the query load the removed node carried before the event, from
 * cbq-engine's CPU (n1ql_stats is cluster-wide: there is no per-node request count). */
static double removed_share(const struct pd_comparison *c)
{
	long r = find_view(c, "atop/cbq-engine_cpu", PD_AT_REMOVED, 0);
	long s = find_view(c, "atop/cbq-engine_cpu", PD_AT_ROLE, PD_SVC_N1QL);
	if (r < 0 || s < 0)
		return NAN;
	const struct pd_view *rv = &c->views[r], *sv = &c->views[s];
	double a = window_summary(rv, rv->target, &c->windows[PD_PHASE_PRE]).median;
	double b = window_summary(sv, sv->target, &c->windows[PD_PHASE_PRE]).median;
	if (sv->agg == PD_AGG_MEAN) { /* CPU is averaged over a role: back to a sum */
		size_t k = 1;
		for (const char *p = sv->nodes; *p; p++)
			k += *p == ',';
		b *= (double)k;
	}
	return a + b > 0 ? a / (a + b) : NAN;
}

/* What the target's KPI leaves out when it does not count the removed node, and which of
 * perfrunner's three rules (analyze/kpi.c) reproduces it. */
static void kpi_explain(char *out, size_t n, const struct pd_comparison *c, long vi,
			double series, double kpi)
{
	double share = removed_share(c), e = c->tb_target.event_s;
	const struct pd_run *t = c->target;
	struct pd_buf b = PD_BUF_INIT;
	struct pd_kpi_rules rules;
	size_t n1ql = 0;
	out[0] = '\0';
	if (vi < 0 || !c->has_event || isnan(share))
		return;
	const struct pd_view *v = &c->views[vi];
	double pre = window_summary(v, v->target, &c->windows[PD_PHASE_PRE]).mean;
	for (size_t i = 0; i < t->n_nodes; i++)
		n1ql += (t->nodes[i].services & PD_SVC_N1QL) != 0;
	struct pd_kpi_in in = {.total = series,
			       .removed = share * pre * e / c->length_s,
			       .removed_is_first = t->spec_n1ql.n && !strcmp(t->spec_n1ql.v[0],
									     c->tb_target.node),
			       .n_active = n1ql ? n1ql - 1 : 0};
	pd_kpi_reconcile(&rules, &in, kpi, c->threshold_pct);
	pd_buf_addf(&b,
		    " The requests that %s served before its failover at %.0f s (%.0f%% of the "
		    "query load then, by cbq-engine CPU) come to %.0f req/s over the run.",
		    c->tb_target.node, e, 100 * share, in.removed);
	pd_kpi_describe(&b, &rules);
	snprintf(out, n, "%s", b.ptr);
	pd_buf_release(&b);
}

static void kpi_finding(struct pd_comparison *c, const struct pd_run *run,
			const struct pd_timebase *tb, const char *who)
{
	const struct pd_kpi *k = throughput_kpi(run);
	struct pd_estimate thr = pd_series_throughput(run, tb);
	long vi = find_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0);
	char why[1024];
	if (!k || !thr.ok || thr.value <= 0)
		return;
	double diff = 100 * (k->value - thr.value) / thr.value;
	if (fabs(diff) <= c->threshold_pct)
		return;
	struct pd_finding *f = add(c, PD_FIND_KPI_SCOPE, vi >= 0 ? &c->views[vi] : NULL, vi,
				   diff / c->threshold_pct);
	f->has_phase = 1, f->phase = PD_PHASE_WHOLE;
	f->direction = diff > 0 ? 1 : -1;
	f->delta_pct = diff;
	f->value = k->value;
	kpi_explain(why, sizeof(why), c, run == c->target ? vi : -1, thr.value, k->value);
	set_text(f,
		 "The %s's reported throughput KPI %s = %.1f is %.1f%% %s the cluster-wide "
		 "query rate of its own series (%.0f req/s over the run): it does not count "
		 "every query node.%s",
		 who, k->metric, k->value, fabs(diff), diff < 0 ? "below" : "above", thr.value,
		 why);
}

static void recovery_finding(struct pd_comparison *c)
{
	long vi = find_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0);
	if (vi < 0 || !c->has_event)
		return;
	const struct pd_view *v = &c->views[vi];
	double ref = window_summary(v, v->base, &c->windows[PD_PHASE_WHOLE]).median,
	       thr = c->threshold_pct / 100;
	size_t e = (size_t)ceil(c->tb_target.event_s / v->step_s), lo = e, rec = 0;
	for (size_t i = e; i < v->n && (double)(i - e) * v->step_s <= 120; i++)
		if (!isnan(v->target[i]) &&
		    (isnan(v->target[lo]) || v->target[i] < v->target[lo]))
			lo = i;
	if (!(ref > 0) || isnan(v->target[lo]) || v->target[lo] >= ref * (1 - thr))
		return;
	for (size_t i = lo; i + 2 < v->n && !rec; i++)
		if (fabs(v->target[i] / ref - 1) <= thr &&
		    fabs(v->target[i + 1] / ref - 1) <= thr &&
		    fabs(v->target[i + 2] / ref - 1) <= thr)
			rec = i;
	double dip = 100 * (v->target[lo] - ref) / ref;
	struct pd_finding *f = add(c, PD_FIND_RECOVERY, v, vi, dip / c->threshold_pct);
	f->has_phase = 1, f->phase = PD_PHASE_TRANSIENT;
	f->direction = -1;
	f->delta_pct = dip;
	char back[120];
	if (rec) {
		f->value = (double)rec * v->step_s - c->tb_target.event_s;
		snprintf(back, sizeof(back),
			 "was back within %.0f%% of it %.0f s after the event",
			 c->threshold_pct, f->value);
	} else {
		snprintf(back, sizeof(back), "had not come back within %.0f%% of it by the end",
			 c->threshold_pct);
	}
	set_text(f,
		 "Query throughput (n1ql_stats/query_requests) dipped %.1f%% below the "
		 "baseline's median at the %s (to %.0f req/s at %.0f s, baseline %.0f req/s) "
		 "and %s.",
		 -dip, pd_event_type_name(c->tb_target.event), v->target[lo],
		 (double)lo * v->step_s, ref, back);
}

/* Samples missing on a live node: three or more in a row (a hole of 4 intervals), or a
 * series that stops that early (the removed node's series stop at the event by design
 * and are not counted). Single lost samples are the norm for perfdb and not reported. */
static void gap_finding(struct pd_comparison *c, const struct pd_run *run,
			const struct pd_timebase *tb, const char *who)
{
	const struct pd_series *worst = NULL;
	int64_t worst_ms = 0, end = tb->end_ms, iv = tb->interval_ms;
	size_t count = 0;
	for (size_t i = 0; i < run->n_series && iv > 0; i++) {
		const struct pd_series *s = run->series[i];
		/* the run's own removed node stops by design; "early" is against the run's
		 * own end, not the longer run's */
		if (!s->n ||
		    (tb->event != PD_EVENT_NONE && s->server && !strcmp(s->server, tb->node)))
			continue;
		int64_t gap = pd_series_gaps(s, iv).longest_ms, tail = end - s->t_ms[s->n - 1];
		if (tail > gap)
			gap = tail;
		if (gap < 4 * iv)
			continue;
		count++;
		if (gap > worst_ms)
			worst = s, worst_ms = gap;
	}
	if (!count)
		return;
	struct pd_finding *f = add(c, PD_FIND_DATA_GAP, NULL, -1, (double)count);
	char scope[300];
	pd_scope_ref_set(&f->scope, worst->server ? PD_AT_NODE : PD_AT_CLUSTER, 0,
			 worst->server);
	snprintf(scope, sizeof(scope), "%s/%s", worst->collector, worst->metric);
	f->metric = pd_xstrdup(scope);
	f->value = (double)count;
	set_text(f,
		 "The %s misses samples on live nodes: %zu series lack three or more samples "
		 "in a row or stop early; the longest hole is %.0f s in %s%s%s.",
		 who, count, (double)worst_ms / 1000, scope, worst->server ? " on " : "",
		 worst->server ? worst->server : "");
}

static void reason_findings(struct pd_comparison *c)
{
	for (size_t i = 0; i < c->reasons.n; i++) {
		struct pd_finding *f = add(c, PD_FIND_NOT_COMPARABLE, NULL, -1, NAN);
		set_text(f, "The runs are not comparable: %s.", c->reasons.v[i]);
	}
}

static int cmp_str0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_finding(const void *a, const void *b)
{
	const struct pd_finding *x = a, *y = b;
	int k;
	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	if ((k = cmp_str0(x->metric, y->metric)) ||
	    (k = cmp_str0(x->scope.name, y->scope.name)))
		return k;
	return cmp_str0(x->text, y->text);
}

void pd_findings_build(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	(void)opts;
	reason_findings(c);
	shift_findings(c);
	lingering_finding(c);
	kpi_finding(c, c->target, &c->tb_target, "target");
	kpi_finding(c, c->base, &c->tb_base, "baseline");
	recovery_finding(c);
	gap_finding(c, c->base, &c->tb_base, "baseline");
	gap_finding(c, c->target, &c->tb_target, "target");
	if (c->n_findings > 1)
		qsort(c->findings, c->n_findings, sizeof(*c->findings), cmp_finding);
}
