#include "deltas.h"
#include "analyze/opts.h"
#include "analyze/align/scope.h"
#include "analyze/stats/history.h"
#include "analyze/stats/infer.h"
#include "analyze/stats/stats.h"
#include "verdict.h"
#include "analyze/align/window.h"
#include "analyze/policy.h"
#include "core/buf.h"
#include "core/metric.h"
#include "core/xalloc.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A rate whose baseline is 0 has no percentage: its change is a count of events over the
 * window (errors, slow queries), and PD_POLICY_ABS_MIN_EVENTS of them are a change
 * (docs/report.md, zero baselines). Such a change is 100 % of the larger of the two levels, so
 * it is past any threshold under 100 % and none at 100 % or more (--threshold 100 asks for no
 * verdict on it). Other units with a zero baseline stay inconclusive, saying why. */

/* The non-NaN points of one side of a view inside a window, with their times. */
struct sample {
	double *t, *v, *sorted;
	size_t n;
};

static void collect(struct sample *out, const double *side, const struct pd_view *view,
		    const struct pd_window *w)
{
	out->n = pd_window_points(out->t, out->v, view, side, w->start_s, w->end_s);
}

static size_t count_in(const double *side, const struct pd_view *view,
		       const struct pd_window *w)
{
	return pd_window_points(NULL, NULL, view, side, w->start_s, w->end_s);
}

/* Drill-downs: a node under its role (node views exist only under a role of two or more),
 * and an atop process metric under its REST twin at the same scope. */
static void mark_drill(struct pd_comparison *c)
{
	struct pd_buf twin = PD_BUF_INIT;
	for (size_t i = 0; i < c->n_views; i++) {
		c->views[i].drill |= c->views[i].scope.kind == PD_AT_NODE ||
				     c->views[i].scope.kind == PD_AT_INDEX;
		c->views[i].record = -1;
	}
	for (size_t i = 0; i < c->n_views; i++) {
		pd_buf_truncate(&twin, 0);
		pd_metric_twin(&twin, c->views[i].metric);
		const struct pd_scope_ref *at = &c->views[i].scope;
		long atop = twin.len ? pd_comparison_view(c, twin.ptr, at->kind, at->service,
							  at->host)
				     : -1;
		if (atop >= 0)
			c->views[atop].drill = 1, c->views[atop].record = (long)i;
	}
	pd_buf_release(&twin);
}

static int cmp_sibling(const void *x, const void *y)
{
	const struct pd_view *a = *(const struct pd_view *const *)x,
			     *b = *(const struct pd_view *const *)y;
	int k = (int)a->scope.kind - (int)b->scope.kind;
	return k ? k : strcmp(a->metric, b->metric);
}

/* Each node's and index's view: the views of its metric at that kind of scope (sorted by
 * kind and metric, O(n log n)). */
static void count_siblings(struct pd_comparison *c)
{
	struct pd_view **at = pd_xmalloc((c->n_views + 1) * sizeof(*at));
	size_t n = 0;
	for (size_t i = 0; i < c->n_views; i++)
		if (c->views[i].scope.kind == PD_AT_NODE ||
		    c->views[i].scope.kind == PD_AT_INDEX)
			at[n++] = &c->views[i];
	qsort(at, n, sizeof(*at), cmp_sibling);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !cmp_sibling(&at[i], &at[j]); j++)
			;
		for (size_t k = i; k < j; k++)
			at[k]->siblings = j - i;
	}
	free(at);
}

/* The (view, window) pairs with enough samples on both sides, in a fixed order. */
static void plan_deltas(struct pd_comparison *c)
{
	for (size_t vi = 0; vi < c->n_views; vi++)
		for (int w = 0; w < PD_PHASE_COUNT; w++) {
			const struct pd_view *v = &c->views[vi];
			if (!pd_comparison_has_phase(c, (enum pd_phase)w) ||
			    count_in(v->base, v, &c->windows[w]) < PD_POLICY_MIN_SAMPLES ||
			    count_in(v->target, v, &c->windows[w]) < PD_POLICY_MIN_SAMPLES)
				continue;
			PD_GROW(c->deltas, c->cap_deltas, c->n_deltas + 1);
			struct pd_delta *d = &c->deltas[c->n_deltas++];
			memset(d, 0, sizeof(*d));
			d->view = vi;
			d->phase = c->windows[w].phase;
			d->drill = v->drill;
			d->topology = (v->topology >> w) & 1u;
			if (c->n_bases >= 2)
				d->base_runs = pd_xmalloc(c->n_bases * sizeof(double));
		}
}

#define MAX_SIDES 64

/* The run floor of a window of n samples (infer.h, "Short windows"): the relative variance
 * of an n-sample mean over the first baseline run's pre and post phases, each apart (not
 * the transient, whose recovery is no noise, nor the whole, which spans the event's
 * shift); 0 without an event (the window is the whole run). */
static double run_floor(const struct pd_comparison *c, const struct pd_view *v, size_t n,
			struct sample *b)
{
	static const enum pd_phase at[] = {PD_PHASE_PRE, PD_PHASE_POST};
	struct pd_infer_floor f = {0};
	if (!c->has_event || !v->n_bases)
		return 0;
	for (size_t i = 0; i < 2; i++) {
		const struct pd_window *w = &c->windows[at[i]];
		/* a phase whose grid cannot hold 2n points adds nothing: not read */
		if (!pd_comparison_has_phase(c, at[i]) ||
		    (v->step_s > 0 &&
		     (w->end_s - w->start_s) / v->step_s + 1 < 2.0 * (double)n))
			continue;
		collect(b, v->bases[0], v, w);
		pd_infer_floor_add(&f, b->v, b->n, n);
	}
	return pd_infer_floor_of(&f);
}

/* The sorted values of one side of a view in its pre, transient and post windows, one
 * after the other, kept for its whole window (deltas of a view come in phase order,
 * plan_deltas). The three cover the whole's points (pre t < e, transient e <= t < te,
 * post te <= t < len, te <= len: analyze/align/phases.c) and their counts add up to the whole's
 * only when they partition them; then the whole's sorted values are their merge, the
 * sort's bits at a fraction of its cost. */
struct parts {
	double *v;     /* room for 2 x cap: the parts, then a first merge */
	size_t cap;    /* the grid's length: the parts together hold at most that */
	size_t view;   /* whose parts these are */
	size_t n[3];   /* the parts' lengths, by phase */
	unsigned have; /* bit p: phase p's part is in */
};

/* Keeps x, view's window phase, as its part: in phase order only, and while the parts
 * fit (windows that overlap would not). */
static void parts_keep(struct parts *p, size_t view, enum pd_phase phase,
		       const struct pd_sample *x)
{
	if (p->view != view)
		p->view = view, p->have = 0;
	if (phase == PD_PHASE_WHOLE || p->have != (1u << phase) - 1)
		return;
	size_t at = 0;
	for (int i = 0; i < (int)phase; i++)
		at += p->n[i];
	if (x->n > p->cap - at)
		return;
	memcpy(p->v + at, x->sorted, x->n * sizeof(double));
	p->n[phase] = x->n;
	p->have |= 1u << phase;
}

/* x from s, delta d's window of one side: for the whole window, sorted by merging the
 * parts kept when all three are in and hold its n values, else by a sort; a phase's
 * sorted values are kept as its part. */
static void prepare(struct pd_sample *x, struct sample *s, struct parts *p,
		    const struct pd_delta *d)
{
	size_t n = s->n, *k = p->n;
	if (d->phase == PD_PHASE_WHOLE && p->view == d->view && p->have == 7 &&
	    k[0] + k[1] + k[2] == n) {
		double *ab = p->v + n;
		pd_stats_merge(ab, p->v, k[0], p->v + k[0], k[1]);
		pd_stats_merge(s->sorted, ab, k[0] + k[1], p->v + k[0] + k[1], k[2]);
		pd_stats_sample_presorted(x, s->t, s->v, n, s->sorted);
	} else {
		pd_stats_sample_prepare(x, s->t, s->v, n, s->sorted);
	}
	parts_keep(p, d->view, d->phase, x);
}

/* The summaries and noise models of one delta; with several baselines, their spread (the
 * baselines with fewer than 10 samples in the window are left out). parts: the target's
 * and the first baseline's kept parts. */
/* Appends s's points to pool (room for every baseline's grid). */
static void pool_add(struct sample *pool, const struct sample *s)
{
	memcpy(pool->t + pool->n, s->t, s->n * sizeof(double));
	memcpy(pool->v + pool->n, s->v, s->n * sizeof(double));
	pool->n += s->n;
}

static void fill_delta(const struct pd_comparison *c, struct pd_delta *d, struct sample *b,
		       struct sample *t, struct parts *parts, struct sample *pool)
{
	const struct pd_view *v = &c->views[d->view];
	const struct pd_window *w = &c->windows[d->phase];
	struct pd_infer_side sides[MAX_SIDES];
	struct pd_sample x;
	size_t k = 0;
	collect(t, v->target, v, w);
	prepare(&x, t, &parts[0], d);
	pd_stats_summary_of(&d->target, &x);
	pd_infer_side_of(&d->side_target, &x);
	pool->n = 0;
	for (size_t j = 0; j < v->n_bases && k < MAX_SIDES; j++) {
		collect(b, v->bases[j], v, w);
		if (d->base_runs)
			d->base_runs[j] = NAN;
		if (j && b->n < PD_POLICY_MIN_SAMPLES)
			continue;
		pool_add(pool, b);
		if (j) {
			pd_stats_sample_prepare(&x, b->t, b->v, b->n, b->sorted);
		} else {
			prepare(&x, b, &parts[1], d);
			pd_stats_summary_of(&d->base, &x);
		}
		pd_infer_side_of(&sides[k], &x);
		if (d->base_runs)
			d->base_runs[j] = pd_infer_level(&sides[k]);
		k++;
	}
	if (k >= 2) { /* the baselines' window: every sample of those judged */
		pd_stats_sample_prepare(&x, pool->t, pool->v, pool->n, pool->sorted);
		pd_stats_summary_of(&d->base, &x);
	}
	double floor = run_floor(c, v, sides[0].n, b);
	for (size_t j = 0; j < k; j++)
		pd_infer_side_floor(&sides[j], floor);
	pd_infer_side_floor(&d->side_target, floor);
	d->side_base = sides[0];
	pd_infer_spread_of(&d->spread, sides, k);
}

/* One worker fills the deltas of every k-th view from its first (a view's deltas on one
 * worker, for its parts); workers share nothing but reads, and a delta's numbers do not
 * depend on which worker computed it. */
struct worker {
	pthread_t thread;
	struct pd_comparison *c;
	size_t first, stride, grid;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	size_t n = w->grid;
	struct sample b = {pd_xmalloc(n * sizeof(double)), pd_xmalloc(n * sizeof(double)),
			   pd_xmalloc(n * sizeof(double)), 0};
	struct sample t = {pd_xmalloc(n * sizeof(double)), pd_xmalloc(n * sizeof(double)),
			   pd_xmalloc(n * sizeof(double)), 0};
	struct parts parts[2] = {
		{.v = pd_xmalloc(2 * n * sizeof(double)), .cap = n, .view = SIZE_MAX},
		{.v = pd_xmalloc(2 * n * sizeof(double)), .cap = n, .view = SIZE_MAX}};
	size_t np = n * (w->c->n_bases < MAX_SIDES ? w->c->n_bases + 1 : MAX_SIDES);
	struct sample pool = {pd_xmalloc(np * sizeof(double)), pd_xmalloc(np * sizeof(double)),
			      pd_xmalloc(np * sizeof(double)), 0};
	for (size_t k = 0; k < w->c->n_deltas; k++)
		if (w->c->deltas[k].view % w->stride == w->first)
			fill_delta(w->c, &w->c->deltas[k], &b, &t, parts, &pool);
	free(b.t), free(b.v), free(b.sorted), free(t.t), free(t.v), free(t.sorted);
	free(pool.t), free(pool.v), free(pool.sorted);
	free(parts[0].v), free(parts[1].v);
	return NULL;
}

/* Threads for the statistics: one per online core, at most 8. */
static size_t thread_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 8 ? 8 : (size_t)n;
}

/* One baseline does not measure run-to-run variance: a change must clear the threshold by a
 * margin of its metric kind, 1.96 sqrt(2) sd for two runs whose levels differ by a
 * relative sd; the kinds' sds and why are analyze/policy.h's (PD_POLICY_RUN_SD_*). */
struct run_kind {
	const char *name;
	double sd; /* relative run-to-run sd */
	int id;    /* 0 .. N_KINDS - 1: the kind's prior of run-to-run variances (judge) */
};
#define N_KINDS 7

/* "query_requests_250ms": the requests slower than a bound, per second */
static int is_tail_count(const char *m)
{
	const char *p = strstr(m, "requests_");
	if (!p)
		return 0;
	p += strlen("requests_");
	size_t digits = strspn(p, "0123456789");
	return digits > 0 && !strcmp(p + digits, "ms");
}

static int is_volatile(const char *m)
{
	return strstr(m, "TIME_WAIT") || strstr(m, "qusz") || strstr(m, "pending") ||
	       strstr(m, "queue") || !strncmp(m, "iostat/", 7) || is_tail_count(m);
}

static struct run_kind run_kind_of(const struct pd_view *v)
{
	const char *m = v->metric;
	if (is_volatile(m))
		return (struct run_kind){"queues, tails and churn", PD_POLICY_RUN_SD_QUEUES, 0};
	if (strstr(m, "ESTABLISHED") || strstr(m, "connections"))
		return (struct run_kind){"connections", PD_POLICY_RUN_SD_CONNECTIONS, 1};
	if (v->unit == PD_UNIT_BYTES)
		return (struct run_kind){"memory", PD_POLICY_RUN_SD_MEMORY, 2};
	if (v->unit == PD_UNIT_PERCENT)
		return (struct run_kind){"cpu", PD_POLICY_RUN_SD_CPU, 3};
	if (v->unit == PD_UNIT_BYTES_PER_SEC || !strncmp(m, "net/", 4))
		return (struct run_kind){"traffic", PD_POLICY_RUN_SD_TRAFFIC, 4};
	if (v->unit == PD_UNIT_MS || strstr(m, "time") || strstr(m, "latency"))
		return (struct run_kind){"latency", PD_POLICY_RUN_SD_LATENCY, 5};
	return (struct run_kind){"rate", PD_POLICY_RUN_SD_RATE,
				 6}; /* request rates, the rest */
}

/* 1.96 sqrt(2) sd, in % */
static double run_margin_pct(double sd)
{
	return 100 * PD_INFER_Z95 * sqrt(2.0) * sd;
}

/* The run-to-run margin's quantile over 1.96: a node's (or an index's) drill-down is one
 * of its metric's n, each node with a run-to-run offset of its own (its page cache, its
 * vBuckets' keys, its collector's timing), and a user reads the one that moved: 95 % over
 * the n of them, z = Phi^-1(1 - 0.025 / n) (infer.h, "Verdicts"); 1 elsewhere. */
static double sibling_z(const struct pd_view *v)
{
	return v->siblings > 1 ? pd_infer_qnorm(1 - 0.025 / (double)v->siblings) / PD_INFER_Z95
			       : 1;
}

static struct pd_infer_rule rule_of(const struct pd_view *v, const struct pd_compare_opts *opts)
{
	int rate = v->unit == PD_UNIT_PER_SEC;
	double sd = run_kind_of(v).sd;
	return (struct pd_infer_rule){.margin_pct = run_margin_pct(sd),
				      .run_sd = sd,
				      .margin_from = PD_INFER_MARGIN_KIND,
				      .threshold_pct = pd_compare_threshold(opts, v->metric),
				      .worse = v->worse,
				      .nonneg = 1,
				      .rate = rate,
				      .step_s = v->step_s,
				      .has_abs = rate &&
						 pd_compare_threshold(opts, v->metric) < 100,
				      .abs_threshold = PD_POLICY_ABS_MIN_EVENTS};
}

/* One baseline, from the event on: the pre-event delta of delta i's view, whose two
 * windows have no event between them (NULL: none, several baselines, or the topology
 * explains its difference: the node count's, not the runs'). Deltas of a view are
 * consecutive, its pre first (plan_deltas): judged, its topology known, before the others. */
static const struct pd_delta *pre_of(const struct pd_comparison *c, size_t i)
{
	const struct pd_delta *d = &c->deltas[i];
	size_t j = i;
	while (j > 0 && c->deltas[j - 1].view == d->view)
		j--;
	const struct pd_delta *pre = &c->deltas[j];
	if (d->phase == PD_PHASE_PRE || pre->phase != PD_PHASE_PRE || d->spread.k >= 2 ||
	    pre->topology || ((c->views[d->view].topology >> PD_PHASE_PRE) & 1u))
		return NULL;
	return pre;
}

/* The baseline run's relative sd of delta i's view: over its whole run, unless the
 * baseline has an event of its own: then its pre and post phases pooled, each about its
 * own mean (a shift between them is the event's, not noise; the recovery neither); 0
 * when no window has a positive mean. */
static double run_noise(const struct pd_comparison *c, size_t i)
{
	size_t view = c->deltas[i].view, j = i;
	double ss = 0, n = 0, whole = 0;
	while (j > 0 && c->deltas[j - 1].view == view)
		j--;
	for (; j < c->n_deltas && c->deltas[j].view == view; j++) {
		const struct pd_delta *d = &c->deltas[j];
		const struct pd_infer_side *s = &d->side_base;
		if (!(s->mean > 0) || s->n < 2)
			continue;
		double rel2 = s->n_eff * s->var_mean / (s->mean * s->mean); /* s^2 / mean^2 */
		if (d->phase == PD_PHASE_WHOLE)
			whole = rel2;
		else if (d->phase == PD_PHASE_PRE || d->phase == PD_PHASE_POST)
			ss += rel2 * (double)s->n, n += (double)s->n;
	}
	return sqrt(c->base_event && n > 0 ? ss / n : whole);
}

/* The rule of delta i: its kind's; with one baseline and a history, the margin of the
 * metric's run-to-run sd there. *off: the runs' pre-event difference when that sd does
 * not account for it (infer.h, "The runs' own evidence"; pct NaN otherwise); then in the
 * transient and post phases the margin is the offset's 95 % bound, unless the pre-event
 * verdict calls the difference the build's (a regression or an improvement): the event's
 * change is what clears the runs' own difference. */
static struct pd_infer_rule rule_at(const struct pd_comparison *c, size_t i,
				    const struct pd_compare_opts *opts,
				    struct pd_infer_offset *off, int *history)
{
	struct pd_delta *d = &c->deltas[i];
	const struct pd_delta *pre = pre_of(c, i);
	struct pd_infer_rule rule = rule_of(&c->views[d->view], opts);
	double hsd =
		d->spread.k < 2 ? pd_history_run_sd(opts, &c->views[d->view], d->phase) : NAN;
	*history = !isnan(hsd);
	double noise = d->spread.k < 2 ? PD_POLICY_RUN_NOISE_SHARE * run_noise(c, i) : 0;
	if (*history)
		rule.margin_pct = run_margin_pct(hsd), rule.run_sd = hsd,
		rule.margin_from = PD_INFER_MARGIN_HISTORY;
	else if (noise > rule.run_sd)
		rule.margin_pct = run_margin_pct(noise), rule.run_sd = noise,
		rule.margin_from = PD_INFER_MARGIN_NOISE;
	/* a node's margin, and the sd its pre-event offset is tested against, over its
	 * metric's nodes: an offset beyond that sd has |d| + 1.96 sqrt(v) past the margin */
	double z = sibling_z(&c->views[d->view]);
	rule.margin_pct *= z;
	*off = (struct pd_infer_offset){NAN, 0};
	if (!pre ||
	    !pd_infer_run_offset(&pre->side_base, &pre->side_target, z * rule.run_sd, off) ||
	    pre->verdict == PD_VERDICT_REGRESSION || pre->verdict == PD_VERDICT_IMPROVEMENT ||
	    (d->phase != PD_PHASE_TRANSIENT && d->phase != PD_PHASE_POST))
		return rule;
	rule.margin_pct = off->margin_pct;
	rule.run_sd = off->margin_pct / run_margin_pct(1); /* the sd it stands for */
	rule.margin_from = PD_INFER_MARGIN_PRE;
	return rule;
}

/* The one figure the outputs state of r: its percentage, else its count, else its
 * absolute change (the order the verdict reads them in). */
static struct pd_stated stated_of(const struct pd_infer_result *r)
{
	struct pd_stated s = {
		.level = r->level, .base = r->base_level, .target = r->target_level};
	if (r->valid & PD_INFER_HAS_PCT)
		s.kind = PD_STATED_PCT, s.value = r->delta_pct, s.lo = r->lo_pct,
		s.hi = r->hi_pct;
	else if (r->valid & PD_INFER_HAS_COUNT)
		s.kind = PD_STATED_COUNT, s.value = r->delta_count, s.lo = r->lo_count,
		s.hi = r->hi_count;
	else if (r->valid & PD_INFER_HAS_ABS)
		s.kind = PD_STATED_ABS, s.value = r->delta_abs, s.lo = r->lo_abs,
		s.hi = r->hi_abs;
	return s;
}

/* Copies the inference into the fields every output reads. */
static void settle(struct pd_delta *d)
{
	const struct pd_infer_result *r = &d->inf;
	int pct = (r->valid & PD_INFER_HAS_PCT) != 0;
	d->delta_pct = pct ? r->delta_pct : NAN;
	d->ci_lo = pct ? r->lo_pct : NAN;
	d->ci_hi = pct ? r->hi_pct : NAN;
	d->p_value = r->p;
	d->p_adj = r->p_adj;
	d->verdict = pd_verdict_of_infer(r->verdict);
	d->outcome = PD_OUTCOME_PASS; /* findings.c decides it once the findings are made */
	d->finding = -1;
	d->stated = stated_of(r);
}

/* A role's total in a phase where the role has another number of active nodes: its
 * change rescaled to one node, (1 + change) r - 1 with r the active nodes' ratio
 * (baseline over target), for the interval too. */
static void per_node(struct pd_delta *d, const struct pd_view *v)
{
	double r = v->total ? v->node_ratio[d->phase] : 0;
	d->node_pct = d->node_lo = d->node_hi = NAN;
	if (r <= 0 || isnan(d->ci_lo) || isnan(d->ci_hi))
		return;
	d->node_pct = ((1 + d->delta_pct / 100) * r - 1) * 100;
	d->node_lo = ((1 + d->ci_lo / 100) * r - 1) * 100;
	d->node_hi = ((1 + d->ci_hi / 100) * r - 1) * 100;
}

/* A role's total that changed only because the role has another number of active nodes:
 * scaled to one node, its interval is not wholly beyond the threshold. Per-node overheads
 * (ns_server's beam.smp, TIME_WAIT sockets) grow with the nodes, load splits over them:
 * either way the topology explains it, and only a change that neither reading explains is
 * a finding. */
static int per_node_held(const struct pd_delta *d, double thr)
{
	if (isnan(d->node_lo) ||
	    (d->verdict != PD_VERDICT_REGRESSION && d->verdict != PD_VERDICT_IMPROVEMENT))
		return 0;
	return !(d->node_lo > thr || d->node_hi < -thr);
}

/* A role's total whose per-node reading says the opposite (the seed's query CPU before
 * the event: +16.6 % in total, -41.7 % per node, two query nodes against one), both
 * past the threshold and either reading a verdict: whether the role did more or each node did
 * less is the topology's to say, not the build's. */
static int ambiguous(const struct pd_delta *d, double thr)
{
	return !isnan(d->node_pct) && !isnan(d->delta_pct) &&
	       (d->delta_pct > 0) != (d->node_pct > 0) && fabs(d->delta_pct) > thr &&
	       fabs(d->node_pct) > thr &&
	       (d->verdict == PD_VERDICT_REGRESSION || d->verdict == PD_VERDICT_IMPROVEMENT ||
		d->node_lo > thr || d->node_hi < -thr);
}

/* A difference the topology explains, or leaves ambiguous, is no regression nor
 * improvement (docs/report.md, the topology): inconclusive, saying why. */
static void explain_topology(struct pd_delta *d, int ambiguous)
{
	int verdict =
		d->verdict == PD_VERDICT_REGRESSION || d->verdict == PD_VERDICT_IMPROVEMENT;
	if (!d->topology || (!verdict && !ambiguous))
		return;
	d->verdict = PD_VERDICT_INCONCLUSIVE;
	d->inf.verdict = PD_INFER_INCONCLUSIVE;
	d->inf.reason = ambiguous ? PD_INFER_TOPOLOGY_AMBIGUOUS : PD_INFER_TOPOLOGY;
}

/* Whether a phase of delta i's view before it (deltas are in (view, phase) order, the
 * whole last) is the topology's: a whole-run window that holds such a phase compares
 * another number of nodes over part of the run, for every kind of metric. */
static int holds_topology(const struct pd_comparison *c, size_t i)
{
	for (size_t j = i; j-- > 0 && c->deltas[j].view == c->deltas[i].view;)
		if (c->deltas[j].topology)
			return 1;
	return 0;
}

/* The priors of the run-to-run variances (several baselines): one per metric kind, fitted
 * over that kind's spreads (their variances are alike: a CPU's runs move as CPUs do, not as
 * queues), the kind's that cannot be fitted (fewer than three) taking the one over every
 * spread. */
static void fit_priors(struct pd_infer_prior *prior, const struct pd_comparison *c)
{
	size_t n = c->n_deltas, at[N_KINDS + 1] = {0};
	struct pd_infer_spread *sp = pd_xmalloc((n + 1) * sizeof(*sp));
	struct pd_infer_spread *by = pd_xmalloc((n + 1) * sizeof(*by));
	int *id = pd_xmalloc((n + 1) * sizeof(*id));
	struct pd_infer_prior all;
	for (size_t i = 0; i < n; i++) { /* each delta's kind, once */
		sp[i] = c->deltas[i].spread;
		id[i] = run_kind_of(&c->views[c->deltas[i].view]).id;
		at[id[i] + 1]++;
	}
	pd_infer_prior_fit(&all, sp, n);
	size_t next[N_KINDS];
	for (int k = 0; k < N_KINDS; k++) /* by kind, each in the deltas' order */
		at[k + 1] += at[k], next[k] = at[k];
	for (size_t i = 0; i < n; i++)
		by[next[id[i]]++] = sp[i];
	for (int k = 0; k < N_KINDS; k++) {
		pd_infer_prior_fit(&prior[k], by + at[k], at[k + 1] - at[k]);
		if (!(prior[k].d0 > 0))
			prior[k] = all;
	}
	free(sp), free(by), free(id);
}

/* Pass 2: each delta judged in its phase's family (pass 1, the spreads, is fill_delta;
 * the priors of the run-to-run variances are fitted over the spreads between). */
static void judge(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	struct pd_infer_prior prior[N_KINDS];
	memset(c->family_m, 0, sizeof(c->family_m));
	for (size_t i = 0; i < c->n_deltas; i++)
		c->family_m[c->deltas[i].phase] += !c->deltas[i].drill;
	fit_priors(prior, c);
	for (size_t i = 0; i < c->n_deltas; i++) {
		struct pd_delta *d = &c->deltas[i];
		struct pd_infer_offset off;
		int history;
		struct pd_infer_rule rule = rule_at(c, i, opts, &off, &history);
		struct pd_infer_family fam = {c->family_m[d->phase], opts->alpha};
		if (d->spread.k >= 2)
			pd_infer_judge_reps(&d->inf, &d->spread,
					    &prior[run_kind_of(&c->views[d->view]).id],
					    &d->side_target, &rule, &fam);
		else
			pd_infer_judge(&d->inf, &d->side_base, &d->side_target, &rule, &fam);
		if (history)
			d->inf.noise = PD_INFER_NOISE_HISTORY;
		settle(d);
		d->run_offset_pct = off.pct;
		per_node(d, &c->views[d->view]);
		int amb = !per_node_held(d, rule.threshold_pct) &&
			  ambiguous(d, rule.threshold_pct);
		d->topology |= per_node_held(d, rule.threshold_pct) || amb ||
			       (d->phase == PD_PHASE_WHOLE && holds_topology(c, i));
		explain_topology(d, amb);
	}
}

void pd_deltas_compute(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	size_t grid = 1, nt = thread_count();
	struct worker w[8];
	for (size_t i = 0; i < c->n_views; i++)
		if (c->views[i].n > grid)
			grid = c->views[i].n;
	mark_drill(c);
	count_siblings(c);
	plan_deltas(c);
	for (size_t i = 0; i < nt; i++) {
		w[i] = (struct worker){0, c, i, nt, grid};
		/* a thread that cannot start leaves its share to the caller */
		if (i && pthread_create(&w[i].thread, NULL, work, &w[i]) != 0)
			w[i].stride = 0;
	}
	work(&w[0]);
	for (size_t i = 1; i < nt; i++) {
		if (w[i].stride)
			pthread_join(w[i].thread, NULL);
		else
			work(&(struct worker){0, c, i, nt, grid});
	}
	judge(c, opts);
	pd_scope_phases(c);
}
