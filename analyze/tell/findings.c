#include "analyze/runs/kpi.h"
#include "findings.h"
#include "analyze/opts.h"
#include "analyze/align/scope.h"
#include "finding.h"
#include "findings_story.h"
#include "recovery.h"
#include "analyze/stats/sampling.h"
#include "analyze/align/window.h"
#include "words.h"
#include "analyze/policy.h"
#include "core/buf.h"
#include "core/metric.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A finding shown by view vi of c (NULL v: about no one metric). */
static struct pd_finding *add(struct pd_comparison *c, enum pd_finding_kind kind,
			      const struct pd_view *v, long vi, double size)
{
	return pd_finding_add(c, kind, v ? v->metric : NULL, v ? &v->scope : NULL, vi, size);
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

/* Appends "the kv nodes (...)", "node 172.23.100.55", "the surviving nodes", "the
 * cluster". */
static void scope_words(struct pd_buf *b, const struct pd_view *v, const struct pd_delta *d)
{
	switch (v->scope.kind) {
	case PD_AT_ROLE: /* the nodes it holds in the delta's phase */
		pd_buf_addf(b, "the %s node%s (%s)", pd_service_name(v->scope.service),
			    strchr(d->nodes, ',') ? "s" : "", d->nodes);
		break;
	case PD_AT_NODE:
		pd_buf_addf(b, "node %s", v->scope.host);
		break;
	case PD_AT_SURVIVORS:
		pd_buf_adds(b, "the surviving nodes");
		break;
	case PD_AT_REMOVED:
		pd_buf_addf(b, "the removed node %s", v->nodes);
		break;
	default:
		pd_buf_adds(b, "the cluster");
	}
}

/* A failover's phases are the failover and its rebalance; an event the console did not
 * name (timebase.h PD_EVENT_REBALANCE) or a rebalance-out is a rebalance alone. */
static const char *phase_words(const struct pd_comparison *c, enum pd_phase p)
{
	static const char *const w[] = {[PD_PHASE_PRE] = "before the event",
					[PD_PHASE_TRANSIENT] =
						"during the failover and rebalance",
					[PD_PHASE_POST] = "after the failover and rebalance",
					[PD_PHASE_WHOLE] = "over the whole run"};
	enum pd_timebase_event e = pd_comparison_event(c)->event;
	if (e == PD_EVENT_REBALANCE || e == PD_EVENT_REBALANCE_OUT)
		return p == PD_PHASE_TRANSIENT ? "during the rebalance"
		       : p == PD_PHASE_POST    ? "after the rebalance"
					       : w[p];
	return w[p];
}

/* A change worth a finding: a regression or improvement the topology does not explain. */
static int shifted(const struct pd_delta *d)
{
	return d && !d->topology &&
	       (d->verdict == PD_VERDICT_REGRESSION || d->verdict == PD_VERDICT_IMPROVEMENT);
}

/* Before the event the runs agreed: their levels the same (within-run: a run-to-run offset
 * is the two runs' in every phase, infer.h "Verdicts"), or differing only by the topology. */
static int agreed(const struct pd_delta *pre)
{
	return pre &&
	       (pre->verdict == PD_VERDICT_SAME || pre->inf.within_same || pre->topology);
}

/* Appends the per-role deltas of a survivors finding: " (kv +2.0%, n1ql +59.3%)". */
static void role_breakdown(struct pd_buf *b, const struct pd_comparison *c,
			   const struct pd_view *v, enum pd_phase phase)
{
	int any = 0;
	size_t lo = (size_t)(v - c->views), hi = lo; /* a metric's views are contiguous */
	while (lo && !strcmp(c->views[lo - 1].metric, v->metric))
		lo--;
	while (hi < c->n_views && !strcmp(c->views[hi].metric, v->metric))
		hi++;
	for (size_t i = lo; i < hi; i++) {
		const struct pd_view *r = &c->views[i];
		const struct pd_delta *d;
		if (r->scope.kind != PD_AT_ROLE || !(d = pd_comparison_delta(c, i, phase)) ||
		    isnan(d->delta_pct))
			continue;
		pd_buf_addf(b, "%s%s %+.1f%%", any++ ? ", " : " (",
			    pd_service_name(r->scope.service), d->delta_pct);
	}
	if (any)
		pd_buf_addch(b, ')');
}

/* Whether a finding on this metric (or its atop twin) already stands at a broader
 * scope. */
static int covered(const struct pd_comparison *c, const char *metric, int rank)
{
	struct pd_buf twin = PD_BUF_INIT;
	int found = 0;
	pd_metric_twin(&twin, metric);
	for (size_t i = 0; i < c->n_findings && !found; i++) {
		const struct pd_finding *f = &c->findings[i];
		found = f->metric &&
			(!strcmp(f->metric, metric) || !strcmp(f->metric, twin.ptr)) &&
			(f->kind == PD_FIND_POST_EVENT_MISMATCH ||
			 f->kind == PD_FIND_METRIC_SHIFT) &&
			pd_scope_ref_rank(&f->scope) < rank;
	}
	pd_buf_release(&twin);
	return found;
}

/* A REST process metric whose atop twin already has a finding at the same scope and
 * phase corroborates it: one sentence more there, not a second finding. */
static int corroborates(struct pd_comparison *c, const struct pd_view *v,
			const struct pd_delta *d)
{
	struct pd_buf twin = PD_BUF_INIT;
	int found = 0;
	pd_metric_twin(&twin, v->metric);
	for (size_t i = 0; twin.len && i < c->n_findings && !found; i++) {
		struct pd_finding *f = &c->findings[i];
		if (!f->metric || strcmp(f->metric, twin.ptr) ||
		    !pd_scope_ref_eq(&f->scope, &v->scope) || !f->has_phase ||
		    f->phase != d->phase)
			continue;
		if (isnan(d->delta_pct))
			set_text(f, "%s %s agrees.", f->text, v->metric);
		else
			set_text(f, "%s %s agrees: %+.1f%%.", f->text, v->metric, d->delta_pct);
		found = 1;
	}
	pd_buf_release(&twin);
	return found;
}

/* Appends where one baseline's interval got its run-to-run margin: " (within-run, widened
 * by the 2.8% run-to-run margin of one baseline)"; nothing without a margin. The level
 * stated is the within-run part's (infer.h). */
static void margin_words(struct pd_buf *b, const struct pd_delta *d)
{
	const struct pd_infer_result *r = &d->inf;
	if (!(r->margin_pct > 0))
		return;
	pd_buf_addf(b, " (within-run, widened by the %.1f%% run-to-run margin ", r->margin_pct);
	if (r->margin_from == PD_INFER_MARGIN_PRE)
		pd_buf_addf(b,
			    "that the runs' own %+.1f%% difference before the event sets, one "
			    "baseline)",
			    d->run_offset_pct);
	else if (r->margin_from == PD_INFER_MARGIN_HISTORY)
		pd_buf_adds(b, "of this metric's history)");
	else if (r->margin_from == PD_INFER_MARGIN_NOISE)
		pd_buf_adds(
			b, "of one baseline, half this metric's own sd over the baseline run)");
	else
		pd_buf_adds(b, "of one baseline)");
}

/* Appends a change read as a percentage: " is 12.3% higher than the baseline <phase>
 * (mean 2 vs 1, 95% simultaneous CI +10.0% to +14.6%, adjusted p 1e-05)". A role's total
 * over another number of active nodes states its change per node when both readings go
 * the same way (the per-node change is then the smaller claim), else the total's, and
 * names the other beside. */
static void pct_words(struct pd_buf *b, const struct pd_view *v, const struct pd_delta *d,
		      const char *when)
{
	int other = !isnan(d->node_pct);
	int node = other && (d->node_pct > 0) == (d->delta_pct > 0);
	double pct = node ? d->node_pct : d->delta_pct;
	pd_buf_addf(b, " is %.1f%% %s%s than the baseline %s (", fabs(pct),
		    pct > 0 ? "higher" : "lower",
		    node    ? " per node"
		    : other ? " in total"
			    : "",
		    when);
	if (other)
		pd_buf_addf(b, "%s %+.1f%% over another number of active nodes; ",
			    node ? "the role's total" : "per node",
			    node ? d->delta_pct : d->node_pct);
	pd_buf_adds(b, "mean ");
	pd_unit_add(b, d->inf.target_level, v->unit);
	pd_buf_adds(b, " vs ");
	pd_unit_add(b, d->inf.base_level, v->unit);
	pd_buf_addf(b, ", %.4g%% simultaneous CI %+.1f%% to %+.1f%%%s", 100 * d->inf.level,
		    node ? d->node_lo : d->ci_lo, node ? d->node_hi : d->ci_hi,
		    node ? " per node" : "");
	margin_words(b, d);
	pd_buf_adds(b, ", adjusted ");
	pd_buf_add_p(b, d->p_adj);
	pd_buf_adds(b, ")");
}

/* Appends a change where the baseline is 0: absolute, and for a rate the count of events
 * over the window. */
static void abs_words(struct pd_buf *b, const struct pd_view *v, const struct pd_delta *d,
		      const char *when)
{
	const struct pd_infer_result *r = &d->inf;
	pd_buf_addf(b, " %s %s (mean ", r->delta_abs > 0 ? "rises" : "falls", when);
	pd_unit_add(b, r->target_level, v->unit);
	pd_buf_adds(b, " where the baseline's is ");
	pd_unit_add(b, r->base_level, v->unit);
	if (r->valid & PD_INFER_HAS_COUNT)
		pd_buf_addf(b,
			    "): %.0f more events over the window (%.4g%% simultaneous CI "
			    "%.0f to %.0f, adjusted ",
			    r->delta_count, 100 * r->level, r->lo_count, r->hi_count);
	else
		pd_buf_addf(b, ", %.4g%% simultaneous CI %.4g to %.4g, adjusted ",
			    100 * r->level, r->lo_abs, r->hi_abs);
	pd_buf_add_p(b, d->p_adj);
	pd_buf_adds(b, ")");
}

/* Appends what memory did after the event: its slope against the baseline's, and whether
 * it levels off (a new level) or keeps growing (a leak). */
static void slope_words(struct pd_buf *b, const struct pd_finding *f)
{
	const double mib_min = 60.0 / 1048576;
	if (!f->n.shift.has_slope)
		return;
	pd_buf_addf(
		b,
		"; after the event it grows by %+.1f MiB/min against %+.1f in the baseline, "
		"and %+.1f against %+.1f over the last half of that phase: %s",
		f->n.shift.slope_target * mib_min, f->n.shift.slope_base * mib_min,
		f->n.shift.late_target * mib_min, f->n.shift.late_base * mib_min,
		f->n.shift.leak ? "still growing, a leak" : "it levels off, a new level");
}

/* The sentence of a shift finding on view v, from its deltas. */
static char *shift_text(const struct pd_comparison *c, const struct pd_view *v,
			const struct pd_finding *f)
{
	const struct pd_delta *d = &c->deltas[f->n.shift.delta];
	const struct pd_delta *pre = f->n.shift.pre >= 0 ? &c->deltas[f->n.shift.pre] : NULL;
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, "%s on ", v->metric);
	scope_words(&b, v, d);
	if (d->inf.valid & PD_INFER_HAS_PCT)
		pct_words(&b, v, d, phase_words(c, d->phase));
	else
		abs_words(&b, v, d, phase_words(c, d->phase));
	if (v->scope.kind == PD_AT_SURVIVORS)
		role_breakdown(&b, c, v, d->phase);
	if (f->n.shift.predates && pre && !isnan(pre->delta_pct))
		pd_buf_addf(&b, "; it predates the event: %+.1f%% already before it",
			    pre->delta_pct);
	else if (f->n.shift.predates)
		pd_buf_adds(&b, "; it predates the event");
	else if (f->kind == PD_FIND_POST_EVENT_MISMATCH) {
		pd_buf_adds(&b, "; before the event ");
		pd_finding_pre_words(&b, pre);
	} else if (pre && pre->verdict == PD_VERDICT_INCONCLUSIVE)
		pd_buf_adds(&b, "; before the event the comparison is inconclusive");
	slope_words(&b, f);
	pd_buf_adds(&b, ", ");
	pd_buf_add_a(&b, pd_verdict_name(d->verdict));
	pd_buf_adds(&b, ".");
	return pd_buf_detach(&b);
}

/* Memory after the event: the slopes of the post phase and of its second half. */
static void memory_slopes(const struct pd_comparison *c, const struct pd_view *v,
			  struct pd_finding *f)
{
	const struct pd_window *w = &c->windows[PD_PHASE_POST];
	struct pd_window late = {PD_PHASE_POST, (w->start_s + w->end_s) / 2, w->end_s};
	const struct pd_delta *d = &c->deltas[f->n.shift.delta];
	if (v->unit != PD_UNIT_BYTES || !c->has_event || d->phase != PD_PHASE_POST)
		return;
	f->n.shift.has_slope = 1;
	f->n.shift.slope_target = d->target.slope, f->n.shift.slope_base = d->base.slope;
	f->n.shift.late_target = pd_window_summary(v, v->target, &late).slope;
	f->n.shift.late_base = pd_window_summary(v, v->base, &late).slope;
	/* still growing: over a phase as long again, the excess growth of the last half
	 * would pass half the threshold of the level */
	double excess =
		(f->n.shift.late_target - f->n.shift.late_base) * (w->end_s - w->start_s);
	f->n.shift.leak = excess > c->threshold_pct / 200 * fabs(d->inf.base_level);
}

/* Which delta a metric's finding states, and its kind (docs/report.md, Findings): after the
 * event where the runs agreed before it, a post-event-mismatch; a shift already there
 * before the event, over the whole run, said to predate it; else the whole run, or the
 * pre phase alone. */
struct shift_pick {
	const struct pd_delta *d, *pre;
	enum pd_finding_kind kind;
	int predates;
};

static struct shift_pick pick_shift(const struct pd_comparison *c, size_t vi)
{
	int ev = c->has_event;
	const struct pd_delta *post = ev ? pd_comparison_delta(c, vi, PD_PHASE_POST) : NULL;
	const struct pd_delta *pre = ev ? pd_comparison_delta(c, vi, PD_PHASE_PRE) : NULL;
	const struct pd_delta *whole = pd_comparison_delta(c, vi, PD_PHASE_WHOLE);
	struct shift_pick p = {NULL, pre, PD_FIND_METRIC_SHIFT, 0};
	if (shifted(post) && (!pre || agreed(pre)))
		p.d = post, p.kind = PD_FIND_POST_EVENT_MISMATCH;
	else if (shifted(post) && shifted(pre))
		p.d = shifted(whole) ? whole : post, p.predates = 1;
	else if (shifted(post))
		p.d = post;
	else if (shifted(whole))
		p.d = whole, p.predates = ev && shifted(pre);
	else if (shifted(pre))
		p.d = pre, p.pre = NULL;
	return p;
}

/* Whether d, a node's delta, sits under a role whose own delta of the metric and phase is
 * inconclusive: the role's interval says the comparison cannot tell, and one of its nodes
 * moving within that is no finding (several baselines: a node of an A/A pair at -23 %
 * [-36, -7] while its role was [-100, +337]). */
static int role_cannot_tell(const struct pd_comparison *c, const struct pd_view *v,
			    const struct pd_delta *d)
{
	const struct pd_node *n =
		v->scope.kind == PD_AT_NODE ? pd_run_node(c->target, v->scope.host) : NULL;
	long ri = n ? pd_comparison_view(c, v->metric, PD_AT_ROLE, n->first, NULL) : -1;
	const struct pd_delta *r = ri < 0 ? NULL : pd_comparison_delta(c, (size_t)ri, d->phase);
	return r && r->verdict == PD_VERDICT_INCONCLUSIVE &&
	       r->inf.reason == PD_INFER_STRADDLES;
}

static void shift_finding(struct pd_comparison *c, size_t vi)
{
	const struct pd_view *v = &c->views[vi];
	struct shift_pick p = pick_shift(c, vi);
	const struct pd_delta *d = p.d;
	if (!d || covered(c, v->metric, pd_scope_ref_rank(&v->scope)) ||
	    corroborates(c, v, d) || role_cannot_tell(c, v, d))
		return;
	int pct = (d->inf.valid & PD_INFER_HAS_PCT) != 0;
	double change = pct ? d->delta_pct : d->inf.delta_abs;
	struct pd_finding *f =
		add(c, p.kind, v, (long)vi, pct ? d->delta_pct / c->threshold_pct : 20);
	f->has_phase = 1, f->phase = d->phase;
	f->direction = change > 0 ? 1 : -1;
	f->delta_pct = pct ? d->delta_pct : NAN;
	f->value = pct ? d->inf.target_level
		       : (d->inf.valid & PD_INFER_HAS_COUNT ? d->inf.delta_count
							    : d->inf.delta_abs);
	f->n.shift.delta = d - c->deltas;
	f->n.shift.pre = p.pre ? p.pre - c->deltas : -1;
	f->n.shift.predates = p.predates;
	memory_slopes(c, v, f);
	f->text = shift_text(c, v, f);
}

static void shift_findings(struct pd_comparison *c)
{
	for (int rank = 0; rank <= 2; rank++)
		for (size_t vi = 0; vi < c->n_views; vi++)
			if (c->views[vi].scope.kind != PD_AT_REMOVED &&
			    c->views[vi].scope.kind != PD_AT_INDEX && /* summed up per metric */
			    pd_scope_ref_rank(&c->views[vi].scope) == rank)
				shift_finding(c, vi);
}

static char *lingering_text(const struct pd_finding *f, const char *host, int mirrored)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b,
		    "The %sremoved node %s still holds %.0f established connections after it "
		    "left the cluster (median from %.0f s, range %.0f to %.0f; %.0f before the "
		    "event) and ",
		    mirrored ? "baseline's " : "", host, f->n.linger.median, f->n.linger.from_s,
		    f->n.linger.min, f->n.linger.max, f->n.linger.before);
	if (f->n.linger.to_end)
		pd_buf_addf(&b,
			    "still has %.0f or more at the end of the run, %.0f s after its "
			    "failover at %.0f s",
			    f->n.linger.at_least, f->n.linger.held_s, f->n.linger.event_s);
	else
		pd_buf_addf(&b, "keeps %.0f or more for %.0f s after its failover at %.0f s",
			    f->n.linger.at_least, f->n.linger.held_s, f->n.linger.event_s);
	pd_buf_adds(&b, mirrored ? "; the target, without the event, has none of them." : ".");
	return pd_buf_detach(&b);
}

/* The last grid point from which side holds at least PD_POLICY_LINGER_MIN. */
static size_t last_holding(const struct pd_view *v, const double *side)
{
	size_t last = 0;
	for (size_t i = 0; i < v->n; i++)
		if (!isnan(side[i]) && side[i] >= PD_POLICY_LINGER_MIN)
			last = i;
	return last;
}

/* Connections the removed node keeps after it left: on the target's removed node, or the
 * baseline's when the event is on its side (mirrored: direction down). They fail the gate
 * when they are more than the threshold of what the node held before the event. */
struct pd_summary pd_findings_left_after(const struct pd_comparison *c, long *vi)
{
	struct pd_summary none = {0};
	*vi = pd_comparison_view(c, "net/ESTABLISHED", PD_AT_REMOVED, 0, NULL);
	if (*vi < 0 || !c->has_event)
		return none;
	const struct pd_view *v = &c->views[*vi];
	const double *side = c->event_side < 0 ? v->base : v->target;
	return pd_window_summary(v, side, &c->windows[PD_PHASE_POST]);
}

static void lingering_finding(struct pd_comparison *c)
{
	long vi;
	struct pd_summary post = pd_findings_left_after(c, &vi);
	if (post.n < PD_POLICY_MIN_SAMPLES || post.median < PD_POLICY_LINGER_MIN)
		return;
	const struct pd_view *v = &c->views[vi];
	int mirrored = c->event_side < 0;
	const double *side = mirrored ? v->base : v->target;
	double until = (double)last_holding(v, side) * v->step_s;
	double e = c->windows[PD_PHASE_TRANSIENT].start_s;
	struct pd_finding *f =
		add(c, PD_FIND_LINGERING, v, vi, post.median / PD_POLICY_LINGER_MIN);
	/* the contract names it node:<host> */
	pd_scope_ref_set(&f->scope, PD_AT_NODE, 0, v->scope.host);
	f->has_phase = 1, f->phase = PD_PHASE_POST;
	f->direction = mirrored ? -1 : 1;
	f->value = post.median;
	f->n.linger.median = post.median, f->n.linger.min = post.min;
	f->n.linger.max = post.max, f->n.linger.from_s = c->windows[PD_PHASE_POST].start_s;
	f->n.linger.event_s = e, f->n.linger.held_s = until - e;
	f->n.linger.at_least = PD_POLICY_LINGER_MIN;
	f->n.linger.to_end = until >= c->length_s - 2 * v->step_s;
	f->n.linger.before = pd_window_summary(v, side, &c->windows[PD_PHASE_PRE]).median;
	/* a baseline whose own removed node lingers as much is no regression */
	double theirs =
		c->base_event && !mirrored
			? pd_window_summary(v, v->base, &c->windows[PD_PHASE_POST]).median
			: 0;
	f->regresses = !mirrored &&
		       !(post.median <= c->threshold_pct / 100 * f->n.linger.before) &&
		       !(theirs >= (1 - c->threshold_pct / 100) * post.median);
	f->text = lingering_text(f, v->nodes, mirrored);
	if (theirs >= PD_POLICY_LINGER_MIN)
		set_text(f, "%s The baseline's removed node holds %.0f after its own event.",
			 f->text, theirs);
}

/* What a run's KPI leaves out when it does not count the node its event removed, and
 * which of perfrunner's three rules reproduces it: the run's KPI facts (analyze/runs/kpi.c). */
static void kpi_explain(struct pd_buf *out, const struct pd_kpi_facts *k,
			const struct pd_timebase *tb)
{
	if (!k->has_rules || isnan(k->removed_share))
		return;
	pd_buf_addf(out,
		    " The requests that %s served before its failover at %.0f s (%.0f%% of the "
		    "query load then, by %s) come to %.0f req/s over the run.",
		    tb->node, tb->event_s, 100 * k->removed_share,
		    k->in.per_node ? "its own n1ql_requests counter" : "cbq-engine CPU",
		    k->in.removed);
	pd_kpi_describe(out, &k->rules);
}

static void kpi_finding(struct pd_comparison *c, const struct pd_kpi_facts *k,
			const struct pd_timebase *tb, const char *who)
{
	long vi = pd_comparison_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0, NULL);
	struct pd_estimate thr = k->served;
	if (!k->kpi || !thr.ok || thr.value <= 0)
		return;
	double diff = 100 * (k->kpi->value - thr.value) / thr.value;
	if (fabs(diff) <= c->threshold_pct)
		return;
	struct pd_finding *f = add(c, PD_FIND_KPI_SCOPE, vi >= 0 ? &c->views[vi] : NULL, vi,
				   diff / c->threshold_pct);
	f->has_phase = 1, f->phase = PD_PHASE_WHOLE;
	f->direction = diff > 0 ? 1 : -1;
	f->delta_pct = diff;
	f->value = k->kpi->value;
	f->n.kpi.of_base = k != &c->kpi_target;
	f->n.kpi.has_rules[!f->n.kpi.of_base] = k->has_rules;
	f->n.kpi.rules[!f->n.kpi.of_base] = k->rules;
	f->n.kpi.change.target_served = thr; /* the served rate it is set against */
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b,
		    "The %s's reported throughput KPI %s = %.1f is %.1f%% %s the cluster-wide "
		    "query rate of its own series (%.0f req/s over the run): it does not count "
		    "every query node.",
		    who, k->kpi->metric, k->kpi->value, fabs(diff),
		    diff < 0 ? "below" : "above", thr.value);
	kpi_explain(&b, k, tb);
	f->text = pd_buf_detach(&b);
}

/* The data gaps of one run: how many series, and the longest hole with its series. */
struct gaps {
	size_t count;
	int64_t worst_ms;
	const char *collector, *metric, *server;
	size_t empty; /* of them, series empty or absent on a live node */
};

static void gap_note(struct gaps *g, const char *collector, const char *metric,
		     const char *server, int64_t ms)
{
	g->count++;
	if (ms > g->worst_ms || !g->metric)
		g->worst_ms = ms, g->collector = collector, g->metric = metric,
		g->server = server;
}

static int removed_node(const struct pd_timebase *tb, const char *host)
{
	return tb->event != PD_EVENT_NONE && host && tb->node && !strcmp(host, tb->node);
}

/* A series' hole on a live node: its longest gap or its early stop (against the run's
 * own end), the whole phase when it is empty. */
static int64_t series_hole(const struct pd_series *s, const struct pd_timebase *tb)
{
	if (!s->n)
		return tb->end_ms - tb->t0_ms;
	int64_t gap = pd_sampling_gaps(s, tb->interval_ms).longest_ms,
		tail = tb->end_ms - s->t_ms[s->n - 1];
	return tail > gap ? tail : gap;
}

/* The live nodes whose first service carries the server series run->series[lo..hi)
 * (one collector/metric) on another node but that have none of it: absent, a gap. */
static void absent_series(struct gaps *g, const struct pd_run *run,
			  const struct pd_timebase *tb, size_t lo, size_t hi)
{
	unsigned roles = 0;
	const struct pd_series *s0 = run->series[lo];
	for (size_t i = lo; i < hi; i++) {
		const struct pd_node *n = pd_run_node(run, run->series[i]->server);
		roles |= n ? n->first : 0;
	}
	for (size_t k = 0; k < run->n_nodes; k++) {
		const struct pd_node *n = &run->nodes[k];
		size_t i = lo;
		while (i < hi && strcmp(run->series[i]->server, n->host))
			i++;
		if (i == hi && (n->first & roles) && !removed_node(tb, n->host)) {
			gap_note(g, s0->collector, s0->metric, n->host, tb->end_ms - tb->t0_ms);
			g->empty++;
		}
	}
}

/* Every hole of run: per series, and per (collector, metric) of server scope the nodes
 * that lack it. The removed node's series stop at the event by design: not counted; nor
 * are the times between a per-request collector's samples (pd_metric_per_request: a
 * sample a request, no interval to miss). */
static void run_gaps(struct gaps *g, const struct pd_run *run, const struct pd_timebase *tb)
{
	size_t lo = 0;
	for (size_t i = 0; i < run->n_series; i++) {
		const struct pd_series *s = run->series[i];
		int64_t hole =
			removed_node(tb, s->server) || pd_metric_per_request(s->collector)
				? 0
				: series_hole(s, tb);
		if (hole >= PD_POLICY_GAP_INTERVALS * tb->interval_ms) {
			gap_note(g, s->collector, s->metric, s->server, hole);
			g->empty += !s->n;
		}
		const struct pd_series *nx = i + 1 < run->n_series ? run->series[i + 1] : NULL;
		if (nx && !strcmp(nx->collector, s->collector) &&
		    !strcmp(nx->metric, s->metric))
			continue;
		if (s->scope == PD_SCOPE_SERVER && run->series[lo]->scope == PD_SCOPE_SERVER)
			absent_series(g, run, tb, lo, i + 1);
		lo = i + 1;
	}
}

/* Samples missing on a live node: three or more in a row (a hole of
 * PD_POLICY_GAP_INTERVALS intervals), a series that stops that early, or one that is
 * empty or absent where the node's role has it elsewhere. Single lost samples are the
 * norm for perfdb and not reported. */
static void gap_finding(struct pd_comparison *c, const struct pd_run *run,
			const struct pd_timebase *tb, const char *who)
{
	struct gaps g = {0};
	if (tb->interval_ms > 0)
		run_gaps(&g, run, tb);
	if (!g.count)
		return;
	struct pd_finding *f = add(c, PD_FIND_DATA_GAP, NULL, -1, (double)g.count);
	struct pd_buf name = PD_BUF_INIT;
	pd_scope_ref_set(&f->scope, g.server ? PD_AT_NODE : PD_AT_CLUSTER, 0, g.server);
	pd_buf_addf(&name, "%s/%s", g.collector, g.metric);
	f->metric = pd_buf_detach(&name);
	f->value = (double)g.count;
	f->n.gap.longest_s = (double)g.worst_ms / 1000;
	set_text(f,
		 "The %s misses samples on live nodes: %zu series lack three or more samples "
		 "in a row or stop early",
		 who, g.count);
	if (g.empty)
		set_text(f, "%s (%zu of them empty or absent on the node)", f->text, g.empty);
	set_text(f, "%s; the longest hole is %.0f s in %s%s%s.", f->text, f->n.gap.longest_s,
		 f->metric, g.server ? " on " : "", g.server ? g.server : "");
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

/* The delta of the series of record of a shift's delta d (its REST twin, for an atop
 * process metric), or d itself. */
static const struct pd_delta *of_record(const struct pd_comparison *c, const struct pd_delta *d)
{
	long r = c->views[d->view].record;
	const struct pd_delta *t = r < 0 ? NULL : pd_comparison_delta(c, (size_t)r, d->phase);
	return t ? t : d;
}

/* A shift on an atop twin whose series of record judges otherwise: said, and the record's
 * verdict is the one that decides. */
static void twins_disagree(const struct pd_comparison *c, struct pd_finding *f,
			   const struct pd_delta *d, const struct pd_delta *rec)
{
	if (rec == d || rec->verdict == d->verdict)
		return;
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, " Its twin %s, the series of record, reads ",
		    c->views[rec->view].metric);
	if (rec->inf.valid & PD_INFER_HAS_PCT)
		pd_buf_addf(&b, "%+.1f%% [%+.1f%%, %+.1f%%]", rec->delta_pct, rec->ci_lo,
			    rec->ci_hi);
	else
		pd_buf_adds(&b, "no percentage");
	pd_buf_addf(&b, ", %s: the twins disagree, and the record decides.",
		    pd_verdict_name(rec->verdict));
	set_text(f, "%s%s", f->text, b.ptr);
	pd_buf_release(&b);
}

/* A shift fails the gate when its delta is a regression, and its twin of record's too
 * (connections left behind decide their own, lingering_finding); runs that cannot be
 * compared are an error. */
static enum pd_outcome outcome(struct pd_comparison *c, struct pd_finding *f, int gate)
{
	if (f->kind == PD_FIND_NOT_COMPARABLE)
		return PD_OUTCOME_ERROR;
	if (f->kind == PD_FIND_POST_EVENT_MISMATCH || f->kind == PD_FIND_METRIC_SHIFT) {
		const struct pd_delta *d = &c->deltas[f->n.shift.delta], *rec = of_record(c, d);
		f->regresses = d->verdict == PD_VERDICT_REGRESSION &&
			       rec->verdict == PD_VERDICT_REGRESSION;
		twins_disagree(c, f, d, rec);
	}
	return f->regresses && gate ? PD_OUTCOME_FAIL : PD_OUTCOME_PASS;
}

/* The delta of f's metric, scope and phase, or -1. */
static long finding_delta(const struct pd_comparison *c, const struct pd_finding *f)
{
	for (size_t i = 0; f->metric && f->has_phase && i < c->n_deltas; i++) {
		const struct pd_delta *d = &c->deltas[i];
		const struct pd_view *v = &c->views[d->view];
		if (d->phase == f->phase && !strcmp(v->metric, f->metric) &&
		    pd_scope_ref_eq(&v->scope, &f->scope))
			return (long)i;
	}
	return -1;
}

/* Each delta is one question of the JUnit report, asked in every comparison of runs with
 * its metric: a top-level delta fails when it regresses (the topology's change does not);
 * a drill-down (a node under its role, atop under its REST twin, an index under its
 * metric) is the detail of its parent's question and fails only when a failing finding
 * states it, so that one regression of a role fails one testcase rather than one per node
 * and per collector (docs/reference.md, "Publishing in Jenkins"). Its finding is the first
 * failing one that states it, else the first. */
static void delta_outcomes(struct pd_comparison *c, int gate)
{
	for (size_t i = 0; i < c->n_deltas; i++) {
		struct pd_delta *d = &c->deltas[i];
		d->finding = -1;
		d->gates = !d->drill && !d->topology;
		d->outcome = gate && d->gates && d->verdict == PD_VERDICT_REGRESSION
				     ? PD_OUTCOME_FAIL
				     : PD_OUTCOME_PASS;
	}
	for (size_t i = 0; i < c->n_findings; i++) {
		struct pd_finding *f = &c->findings[i];
		long k = f->delta = finding_delta(c, f);
		if (k < 0)
			continue;
		struct pd_delta *d = &c->deltas[k];
		if (d->finding < 0 || (f->outcome == PD_OUTCOME_FAIL &&
				       c->findings[d->finding].outcome != PD_OUTCOME_FAIL))
			d->finding = (long)i;
		/* an atop twin's failure is its record's testcase (one regression, one failing
		 * testcase), which a top-level record fails of its own */
		struct pd_delta *rec = &c->deltas[of_record(c, d) - c->deltas];
		if (f->outcome == PD_OUTCOME_FAIL)
			(rec != d && rec->gates ? rec : d)->outcome = PD_OUTCOME_FAIL;
	}
}

/* The event story's metrics a finding is about: shown open. */
static void story_open(struct pd_comparison *c)
{
	for (size_t i = 0; c->shift && i < c->shift->n; i++) {
		struct pd_nodeshift_metric *m = &c->shift->m[i];
		m->open = 0;
		for (size_t k = 0; k < c->n_findings && !m->open; k++)
			m->open = c->findings[k].metric &&
				  !strcmp(c->findings[k].metric, m->metric);
	}
}

void pd_findings_build(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	reason_findings(c);
	shift_findings(c);
	lingering_finding(c);
	kpi_finding(c, &c->kpi_target, &c->tb_target, "target");
	kpi_finding(c, &c->kpi_bases[0], &c->tb_base, "baseline");
	pd_recovery_build(c);
	gap_finding(c, c->base, &c->tb_base, "baseline");
	gap_finding(c, c->target, &c->tb_target, "target");
	for (size_t i = 0; i < c->n_findings; i++)
		c->findings[i].outcome = outcome(c, &c->findings[i], opts->gate);
	size_t before = pd_findings_story(c);             /* with their own outcomes */
	for (size_t i = before; i < c->n_findings; i++) { /* which the gate decides too */
		struct pd_finding *f = &c->findings[i];
		/* events against none are 100 % of the larger level: past a threshold under
		 * 100 % only (as deltas.c judges a zero baseline) */
		f->regresses = f->outcome == PD_OUTCOME_FAIL &&
			       !(f->kind == PD_FIND_EVENT_ERRORS && c->threshold_pct >= 100);
		if (f->outcome == PD_OUTCOME_FAIL && (!opts->gate || !f->regresses))
			f->outcome = PD_OUTCOME_PASS;
	}
	if (c->n_findings > 1)
		qsort(c->findings, c->n_findings, sizeof(*c->findings), cmp_finding);
	delta_outcomes(c, opts->gate);
	pd_words_findings(c);
	story_open(c);
}
