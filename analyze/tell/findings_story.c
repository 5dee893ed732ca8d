#include "findings_story.h"
#include "analyze/opts.h"
#include "analyze/align/scope.h"
#include "finding.h"
#include "analyze/runs/kpi.h"
#include "analyze/runs/story.h"
#include "analyze/align/window.h"
#include "analyze/policy.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A story finding about metric at a scope of kind at (host: a node's), through the one
 * constructor (pd_finding_add); shown by the metric's view at that scope, if any. */
static struct pd_finding *story_add(struct pd_comparison *c, enum pd_finding_kind kind,
				    const char *metric, enum pd_scope_kind at, const char *host,
				    double size)
{
	struct pd_scope_ref scope = {PD_AT_NONE, 0, NULL, NULL};
	pd_scope_ref_set(&scope, at, 0, host);
	long vi = metric && at != PD_AT_NODE ? pd_comparison_view(c, metric, at, 0, NULL) : -1;
	struct pd_finding *f = pd_finding_add(c, kind, metric, &scope, vi, size);
	pd_scope_ref_free(&scope);
	return f;
}

/* Whether metric was selected (--metrics): the comparison has a view of it. */
static int selected(const struct pd_comparison *c, const char *metric)
{
	for (size_t i = 0; i < c->n_views; i++)
		if (!strcmp(c->views[i].metric, metric))
			return 1;
	return 0;
}

/* The run whose time base has the event: the target, else the baseline (mirrored). */
static int event_is_base(const struct pd_comparison *c)
{
	return c->tb_target.event == PD_EVENT_NONE && c->tb_base.event != PD_EVENT_NONE;
}

/* The counts of the target (t) and the baseline (b), whichever run had the event. */
struct sides {
	const struct pd_story_count *t, *b, *t_slow, *b_slow;
};

static struct sides sides_of(const struct pd_event_errors *ee, int mirrored)
{
	const struct pd_story_count *e = &ee->errors, *o = &ee->base_errors;
	const struct pd_story_count *es = &ee->slow[PD_STORY_N_SLOW - 1],
				    *os = &ee->base_slow[PD_STORY_N_SLOW - 1];
	return mirrored ? (struct sides){o, e, os, es} : (struct sides){e, o, es, os};
}

static double floor_of(double other)
{
	return fmax(PD_POLICY_ERRORS_MIN, PD_POLICY_ERRORS_BASE_X * other);
}

static const char *run_word(int base)
{
	return base ? "baseline" : "target";
}

/* "; 12 ran over 5000 ms (query_requests_5000ms, baseline 0) and the mean request time
 * ... peaked at ...". */
static void errors_evidence(struct pd_buf *b, const struct pd_event_errors *ee,
			    const struct sides *s, int mirrored)
{
	int slow = pd_story_slow_ms[PD_STORY_N_SLOW - 1];
	if (s->t_slow->ok) {
		pd_buf_addf(b, "; %.0f took over %d ms (query_requests_%dms", s->t_slow->count,
			    slow, slow);
		if (s->b_slow->ok)
			pd_buf_addf(b, ", baseline %.0f", s->b_slow->count);
		pd_buf_adds(b, ")");
	}
	if (ee->has_peak) {
		pd_buf_addf(
			b,
			"; the %s's mean request time (query_avg_req_time) peaked at %.1f ms "
			"at %.0f s",
			run_word(mirrored), ee->peak_ms, ee->peak_s);
		if (!isnan(ee->pre_ms))
			pd_buf_addf(b, ", from %.1f ms before the event", ee->pre_ms);
		if (ee->has_base_peak)
			pd_buf_addf(b, " (the %s's peak: %.1f ms)", run_word(!mirrored),
				    ee->base_peak_ms);
	}
	pd_buf_adds(b, ".");
}

static char *errors_text(const struct pd_comparison *c, const struct pd_event_errors *ee,
			 const struct sides *s, int up, int mirrored)
{
	const struct pd_timebase *tb = mirrored ? &c->tb_base : &c->tb_target;
	struct pd_buf b = PD_BUF_INIT;
	if (up)
		pd_buf_addf(&b, "%.0f queries failed at the %s of %s", s->t->count,
			    pd_timebase_event_name(tb->event), tb->node ? tb->node : "a node");
	else
		pd_buf_addf(&b,
			    "The failed queries are gone: %.0f in the target against %.0f in "
			    "the baseline at the %s of %s",
			    s->t->count, s->b->count, pd_timebase_event_name(tb->event),
			    tb->node ? tb->node : "a node");
	pd_buf_addf(&b,
		    " (n1ql_stats/query_errors, a rate, integrated from %.0f s to %.0f s: the "
		    "event, its rebalance and the settling time",
		    ee->window.start_s, ee->window.end_s);
	if (up && s->b->ok)
		pd_buf_addf(&b, "; the baseline failed %.0f over the same window", s->b->count);
	pd_buf_adds(&b, ")");
	errors_evidence(&b, ee, s, mirrored);
	return pd_buf_detach(&b);
}

/* The errors' own window on the comparison's grid: the transient phase, its start moved
 * back over the points just before it whose rate is above the run's level before the
 * event (at most PD_POLICY_EVENT_SLACK intervals): a sample counts the step before it,
 * and an event time late by an interval must not cut the burst it caused at a point. */
static struct pd_window burst_window(const struct pd_comparison *c, const struct pd_view *v,
				     const double *side)
{
	struct pd_window w = c->windows[PD_PHASE_TRANSIENT];
	struct pd_window before = {PD_PHASE_PRE, 0,
				   w.start_s - PD_POLICY_EVENT_SLACK * v->step_s};
	double level = pd_window_summary(v, side, &before).median;
	size_t i = (size_t)ceil(w.start_s / v->step_s);
	if (isnan(level))
		level = 0;
	for (int k = 0; k < PD_POLICY_EVENT_SLACK && i > 0 && side[i - 1] > level; k++, i--)
		w.start_s = (double)(i - 1) * v->step_s;
	return w;
}

/* A rate's count over w from the view of metric (the comparison's one integration,
 * pd_window_count); ok = 0 without that view. */
static void grid_count(struct pd_story_count *out, const struct pd_comparison *c,
		       const char *metric, int base_side, const struct pd_window *w)
{
	long vi = pd_comparison_view(c, metric, PD_AT_CLUSTER, 0, NULL);
	*out = (struct pd_story_count){0};
	if (vi < 0)
		return;
	const struct pd_view *v = &c->views[vi];
	const double *side = base_side ? v->base : v->target;
	out->ok = 1;
	out->count = pd_window_count(v, side, w->start_s, w->end_s);
	out->n = pd_window_points(NULL, NULL, v, side, w->start_s, w->end_s);
}

/* The counts of ee from the views over the grid window g: the event run's (the baseline
 * when mirrored) and the other run's over the same points, as a delta counts them. */
static void grid_counts(struct pd_event_errors *ee, const struct pd_comparison *c,
			const struct pd_window *g, int mirrored)
{
	struct pd_buf name = PD_BUF_INIT;
	grid_count(&ee->errors, c, "n1ql_stats/query_errors", mirrored, g);
	grid_count(&ee->base_errors, c, "n1ql_stats/query_errors", !mirrored, g);
	for (int k = 0; k < PD_STORY_N_SLOW; k++) {
		pd_buf_truncate(&name, 0);
		pd_buf_addf(&name, "n1ql_stats/query_requests_%dms", pd_story_slow_ms[k]);
		grid_count(&ee->slow[k], c, name.ptr, mirrored, g);
		grid_count(&ee->base_slow[k], c, name.ptr, !mirrored, g);
	}
	pd_buf_release(&name);
	ee->min_count = floor_of(ee->base_errors.count);
	ee->significant = ee->errors.ok && ee->errors.count >= ee->min_count;
}

/* The failed requests around the event: counted on the grid over the errors' own
 * window, with the evidence (latency) from the event run's series over the same. */
static int event_errors(struct pd_event_errors *ee, const struct pd_comparison *c, int mirrored)
{
	const struct pd_timebase *tb = mirrored ? &c->tb_base : &c->tb_target;
	const struct pd_timebase *other = mirrored ? &c->tb_target : &c->tb_base;
	long vi = pd_comparison_view(c, "n1ql_stats/query_errors", PD_AT_CLUSTER, 0, NULL);
	if (tb->event == PD_EVENT_NONE || !c->has_event || vi < 0)
		return 0;
	const struct pd_view *v = &c->views[vi];
	struct pd_window g = burst_window(c, v, mirrored ? v->base : v->target);
	double off = mirrored ? c->base_shift_s : 0; /* the event run's seconds */
	struct pd_story_window w = {g.start_s + off, g.end_s + off};
	pd_story_event_errors(ee, mirrored ? c->base : c->target, tb,
			      mirrored ? c->target : c->base, other, &w,
			      mirrored ? -c->base_shift_s : c->base_shift_s);
	grid_counts(ee, c, &g, mirrored);
	return 1;
}

/* event-errors: the target failed at least max(10, 3 x the baseline's) requests around
 * the event (up, FAIL), or the baseline did against the target (down: gone, PASS). */
static void errors_finding(struct pd_comparison *c)
{
	int mirrored = event_is_base(c);
	struct pd_event_errors ee;
	if (!event_errors(&ee, c, mirrored))
		return;
	struct sides s = sides_of(&ee, mirrored);
	int up = s.t->ok && s.t->count >= floor_of(s.b->count);
	int down = s.b->ok && s.b->count >= floor_of(s.t->ok ? s.t->count : 0);
	if (!up && !down)
		return;
	double big = up ? s.t->count : s.b->count, small = up ? s.b->count : s.t->count;
	struct pd_finding *f = story_add(c, PD_FIND_EVENT_ERRORS, "n1ql_stats/query_errors",
					 PD_AT_CLUSTER, NULL, big / floor_of(small));
	f->has_phase = 1, f->phase = PD_PHASE_TRANSIENT;
	f->direction = up ? 1 : -1;
	f->value = s.t->ok ? s.t->count : 0;
	f->n.errors = ee;
	f->text = errors_text(c, &ee, &s, up, mirrored);
	f->outcome = up ? PD_OUTCOME_FAIL : PD_OUTCOME_PASS;
}

/* The failed requests of the event-errors finding in the run (base or target) that had
 * the more of them, or NaN when it is the other run or there is no such finding. */
static double errors_in(const struct pd_comparison *c, int base)
{
	for (size_t i = 0; i < c->n_findings; i++) {
		const struct pd_finding *f = &c->findings[i];
		if (f->kind != PD_FIND_EVENT_ERRORS || (f->direction < 0) != base)
			continue;
		struct sides s = sides_of(&f->n.errors, event_is_base(c));
		return base ? s.b->count : s.t->count;
	}
	return NAN;
}

/* Whether host runs the data service in run (Couchbase fails over gracefully only those). */
static int data_node(const struct pd_run *run, const char *host)
{
	for (size_t i = 0; i < run->n_nodes; i++)
		if (!strcmp(run->nodes[i].host, host))
			return (run->nodes[i].services & PD_SVC_KV) != 0;
	return 0;
}

/* What showed the node serving: its clients' connections (net), or on the Prometheus
 * path, which carries no net, its own request counter. */
static void live_load(struct pd_buf *b, const struct pd_live_node *ln)
{
	if (ln->has_conn && ln->conn > 0)
		pd_buf_addf(b, "with %.0f established connections", ln->conn);
	else
		pd_buf_addf(b, "serving %.0f req/s by its own n1ql_requests counter", ln->req);
}

static char *live_text(const struct pd_live_node *ln, int base, double failed, int data)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b,
		    "The %s's event was a hard failover (POST /controller/failOver, from the "
		    "%s) of %s while it was still serving: it answered the %s %.0f s before "
		    "the event, its cbq-engine ran at %.0f%% CPU ",
		    run_word(base), pd_timebase_source_name(ln->kind_source), ln->host,
		    ln->prometheus ? "Prometheus scrape" : "REST monitoring (ns_server_system)",
		    ln->rest_before_s, ln->cpu);
	live_load(&b, ln);
	pd_buf_addf(&b,
		    " (medians of the last %.0f s), and its %s go on %.0f s after it. Hard "
		    "failover is meant for a node that has become unavailable: the queries in "
		    "flight on %s were cut off",
		    ln->interval_s * (double)ln->cpu_n,
		    ln->prometheus ? "pushed atop series" : "ssh-based series (atop, net)",
		    ln->ssh_after_s, ln->host);
	if (!isnan(failed))
		pd_buf_addf(&b, " (the event-errors finding: %.0f failed)", failed);
	pd_buf_adds(&b, ". A graceful failover lets them finish and drains the node first: "
			"perfrunner's [access] n1ql_shutdown_type = graceful_failover. This is "
			"how the test was run, not a change of the build.");
	if (!data)
		pd_buf_adds(
			&b,
			" (Couchbase fails over gracefully only nodes with the data "
			"service; for a query-only node, n1ql_shutdown_type = rebalance_out "
			"removes it without a failover.)");
	return pd_buf_detach(&b);
}

/* hard-failover-live-node, for each run whose event was a hard failover of a live node. */
static void live_finding(struct pd_comparison *c, int base)
{
	const struct pd_timebase *tb = base ? &c->tb_base : &c->tb_target;
	struct pd_live_node ln;
	pd_story_live_node(&ln, base ? c->base : c->target, tb, NULL);
	if (ln.verdict != PD_LIVE_YES || !selected(c, "atop/cbq-engine_cpu")) {
		pd_story_live_release(&ln);
		return;
	}
	struct pd_finding *f = story_add(c, PD_FIND_HARD_FAILOVER_LIVE, "atop/cbq-engine_cpu",
					 PD_AT_NODE, ln.host, 0);
	if (!base)
		f->view = pd_comparison_view(c, "atop/cbq-engine_cpu", PD_AT_REMOVED, 0, NULL);
	f->has_phase = 1, f->phase = PD_PHASE_PRE;
	f->value = ln.cpu;
	f->n.live = ln; /* the finding owns its host */
	f->text = live_text(&ln, base, errors_in(c, base),
			    data_node(base ? c->base : c->target, ln.host));
	f->outcome = PD_OUTCOME_PASS;
}

/* " The baseline's KPI is 0.2% from its series; the target's: It matches ..." */
static void kpi_gap(struct pd_buf *b, const struct pd_finding *f)
{
	const struct pd_kpi_change *k = &f->n.kpi.change;
	const double kpi[2] = {k->base_kpi, k->target_kpi};
	const struct pd_estimate served[2] = {k->base_served, k->target_served};
	for (int i = 0; i < 2; i++) {
		if (!f->n.kpi.has_rules[i] || !served[i].ok || !(served[i].value > 0))
			continue;
		pd_buf_addf(b, " The %s's KPI is %+.1f%% from its own series (%.0f req/s).",
			    run_word(!i), 100 * (kpi[i] - served[i].value) / served[i].value,
			    served[i].value);
		/* counting every node is what the series measure: nothing to explain */
		if (!(f->n.kpi.rules[i].match & (1u << PD_KPI_EVERY_NODE)))
			pd_kpi_describe(b, &f->n.kpi.rules[i]);
	}
}

static void loop_text(struct pd_buf *b, const struct pd_closed_loop *base,
		      const struct pd_closed_loop *t)
{
	const struct pd_closed_loop *l = base->ok ? base : t;
	if (!l->ok)
		return;
	pd_buf_addf(
		b,
		" By Little's law, %ld workers (n1ql_workers %ld x workload_instances %ld x "
		"%ld bucket%s) over the mean request time give",
		l->workers, l->n1ql_workers, l->instances, l->buckets,
		l->buckets == 1 ? "" : "s");
	if (base->ok)
		pd_buf_addf(b, " %.0f req/s in the baseline (%.1f ms; served %.0f)",
			    base->predicted, base->latency_ms, base->served);
	if (t->ok)
		pd_buf_addf(b, "%s %.0f req/s in the target (%.1f ms; served %.0f)",
			    base->ok ? " and" : "", t->predicted, t->latency_ms, t->served);
	if ((!base->ok || base->closed) && (!t->ok || t->closed))
		pd_buf_addf(
			b,
			": the workload is closed-loop (within %.0f%%), its throughput is "
			"the workers over the latency, and a second query node cannot raise "
			"it unless it lowers the latency.",
			l->tol_pct);
	else
		pd_buf_addf(b,
			    ": not within %.0f%% of what was served%s, so the workload is not "
			    "closed-loop.",
			    l->tol_pct,
			    l->throttled ? " (n1ql_throughput paces the workers)" : "");
}

/* " (interval -9.9% to -3.5%, the served rate's: inconclusive at the 5% threshold)" */
static void kpi_judged(struct pd_buf *b, const struct pd_kpi_change *k, double thr)
{
	static const char *const said[] = {[PD_INFER_SAME] = "within",
					   [PD_INFER_IMPROVEMENT] = "an improvement past",
					   [PD_INFER_REGRESSION] = "a regression past",
					   [PD_INFER_INCONCLUSIVE] = "inconclusive at"};
	if (isnan(k->lo_pct)) {
		pd_buf_adds(b,
			    " (not judged: the cluster's query rate has no interval over the "
			    "whole run)");
		return;
	}
	pd_buf_addf(b,
		    " (interval %+.1f%% to %+.1f%%, the served rate's: %s the %g%% threshold)",
		    k->lo_pct, k->hi_pct, said[k->verdict], thr);
}

static char *kpi_text(const struct pd_finding *f, double thr)
{
	const struct pd_kpi_change *k = &f->n.kpi.change;
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, "The reported throughput KPI %s from %.1f (",
		    k->kpi_pct < 0 ? "fell" : "rose", k->base_kpi);
	if (k->n_base_kpi > 1)
		pd_buf_addf(&b, "the mean of %zu baselines' KPIs, ", k->n_base_kpi);
	pd_buf_addf(&b, "baseline, %s) to %.1f (target, %s%s), %+.1f%%", k->base_id,
		    k->target_kpi, k->target_id,
		    k->same_id ? "" : ": another id, of the same " PD_KPI_FORM " form",
		    k->kpi_pct);
	kpi_judged(&b, k, thr);
	if (!isnan(k->served_pct))
		pd_buf_addf(&b,
			    ", while the series say the cluster served %.0f -> %.0f req/s "
			    "(%+.1f%%).",
			    k->base_served.value, k->target_served.value, k->served_pct);
	else
		pd_buf_adds(&b, "; the series do not say what the cluster served.");
	kpi_gap(&b, f);
	loop_text(&b, &f->n.kpi.base_loop, &f->n.kpi.loop);
	return pd_buf_detach(&b);
}

/* The delta of the cluster's query rate over the whole run, or -1. */
static long served_delta(const struct pd_comparison *c)
{
	long vi = pd_comparison_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0, NULL);
	const struct pd_delta *d =
		vi < 0 ? NULL : pd_comparison_delta(c, (size_t)vi, PD_PHASE_WHOLE);
	return d ? (long)(d - c->deltas) : -1;
}

/* kpi-change: both runs report a throughput KPI and it moved past the threshold; judged
 * with the served rate's interval, and failing only where that delta regresses too (a KPI
 * that fell while the cluster served as much is the KPI's scope, not the build). */
static void kpi_finding(struct pd_comparison *c)
{
	struct pd_kpi_change k;
	pd_kpi_change(&k, c->kpi_bases, c->n_bases, &c->kpi_target);
	long di = served_delta(c);
	pd_kpi_judge(&k, di < 0 ? NULL : &c->deltas[di], di, c->threshold_pct);
	if (!k.ok || isnan(k.kpi_pct) || fabs(k.kpi_pct) <= c->threshold_pct ||
	    !selected(c, "n1ql_stats/query_requests"))
		return;
	struct pd_finding *f = story_add(c, PD_FIND_KPI_CHANGE, "n1ql_stats/query_requests",
					 PD_AT_CLUSTER, NULL, k.kpi_pct / c->threshold_pct);
	f->has_phase = 1, f->phase = PD_PHASE_WHOLE;
	f->direction = k.kpi_pct > 0 ? 1 : -1;
	f->delta_pct = k.kpi_pct;
	f->value = k.target_kpi;
	f->n.kpi.change = k;
	f->n.kpi.has_rules[0] = c->kpi_bases[0].has_rules;
	f->n.kpi.rules[0] = c->kpi_bases[0].rules;
	f->n.kpi.has_rules[1] = c->kpi_target.has_rules;
	f->n.kpi.rules[1] = c->kpi_target.rules;
	pd_story_closed_loop(&f->n.kpi.base_loop, c->base, &c->tb_base, k.base_served,
			     PD_POLICY_LITTLE_TOL_PCT);
	pd_story_closed_loop(&f->n.kpi.loop, c->target, &c->tb_target, k.target_served,
			     PD_POLICY_LITTLE_TOL_PCT);
	f->text = kpi_text(f, c->threshold_pct);
	f->outcome = k.verdict == PD_INFER_REGRESSION &&
				     c->deltas[di].verdict == PD_VERDICT_REGRESSION
			     ? PD_OUTCOME_FAIL
			     : PD_OUTCOME_PASS;
}

/* The metrics an event-errors finding already states (its count and its evidence). */
static int told_by_errors(const char *metric)
{
	static const char *const told[] = {
		"n1ql_stats/query_errors", "n1ql_stats/query_requests_250ms",
		"n1ql_stats/query_requests_500ms", "n1ql_stats/query_requests_1000ms",
		"n1ql_stats/query_requests_5000ms"};
	for (size_t i = 0; metric && i < sizeof(told) / sizeof(*told); i++)
		if (!strcmp(metric, told[i]))
			return 1;
	return 0;
}

/* With an event-errors finding, a shift of the errors or slow queries over the whole run
 * would state the same failed requests twice: the shift goes, the finding tells it. */
static size_t drop_told_shifts(struct pd_comparison *c, size_t first_story)
{
	size_t k = 0, first = first_story;
	int errors = 0;
	for (size_t i = first_story; i < c->n_findings; i++)
		errors |= c->findings[i].kind == PD_FIND_EVENT_ERRORS;
	for (size_t i = 0; i < c->n_findings; i++) {
		struct pd_finding *f = &c->findings[i];
		if (errors && i < first_story && f->kind == PD_FIND_METRIC_SHIFT &&
		    told_by_errors(f->metric)) {
			free(f->metric);
			pd_scope_ref_free(&f->scope);
			free(f->text);
			first--;
			continue;
		}
		c->findings[k++] = *f;
	}
	c->n_findings = k;
	return first;
}

size_t pd_findings_story(struct pd_comparison *c)
{
	size_t first_story = c->n_findings;
	errors_finding(c);
	live_finding(c, 0);
	live_finding(c, 1);
	if (!c->reasons.n) /* the KPIs of different workloads say nothing of each other */
		kpi_finding(c);
	return drop_told_shifts(c, first_story);
}

static void shift_brief(struct pd_buf *b, const struct pd_comparison *c,
			const struct pd_finding *f)
{
	pd_buf_addf(b, "%s %+.1f%% on %s %s", f->metric, f->delta_pct, f->scope.name,
		    pd_phase_name(f->phase));
	if (f->kind == PD_FIND_POST_EVENT_MISMATCH && f->n.shift.pre >= 0) {
		const struct pd_delta *pre = &c->deltas[f->n.shift.pre];
		int moved = pre->verdict == PD_VERDICT_REGRESSION ||
			    pre->verdict == PD_VERDICT_IMPROVEMENT;
		if (moved) {
			pd_buf_addf(b, " (already %+.1f%% pre)", pre->delta_pct);
			return;
		}
		pd_buf_adds(b, " (before the event ");
		pd_finding_pre_words(b, pre);
		pd_buf_adds(b, ")");
	}
}

static void kpi_brief(struct pd_buf *b, const struct pd_finding *f)
{
	const struct pd_kpi_change *k = &f->n.kpi.change;
	pd_buf_addf(b, "KPI %.1f -> %.1f (%+.1f%%)", k->base_kpi, k->target_kpi, k->kpi_pct);
	if (!isnan(k->served_pct))
		pd_buf_addf(b, ", served %.0f -> %.0f req/s (%+.1f%%)", k->base_served.value,
			    k->target_served.value, k->served_pct);
	if (f->n.kpi.loop.closed)
		pd_buf_addf(b, ", closed loop of %ld workers", f->n.kpi.loop.workers);
}

void pd_findings_story_brief(struct pd_buf *b, const struct pd_comparison *c,
			     const struct pd_finding *f)
{
	switch (f->kind) {
	case PD_FIND_HARD_FAILOVER_LIVE:
		pd_buf_addf(b, "hard failover of %s while it served (cbq-engine %.0f%% CPU, ",
			    f->scope.host, f->n.live.cpu);
		pd_buf_addf(b, f->n.live.has_conn ? "%.0f connections)" : "%.0f req/s)",
			    f->n.live.has_conn ? f->n.live.conn : f->n.live.req);
		break;
	case PD_FIND_EVENT_ERRORS: /* the event run's count (the baseline's when mirrored) */
		pd_buf_addf(b, "%.0f failed queries in the %s", f->n.errors.errors.count,
			    run_word(event_is_base(c)));
		break;
	case PD_FIND_LINGERING:
		pd_buf_addf(b, "%.0f connections left on %s", f->value, f->scope.host);
		break;
	case PD_FIND_KPI_CHANGE:
		kpi_brief(b, f);
		break;
	case PD_FIND_KPI_SCOPE:
		pd_buf_addf(b, "a KPI %.1f%% from its series", f->delta_pct);
		break;
	case PD_FIND_RECOVERY:
		pd_buf_addf(b, "a %.1f%% dip at the event", -f->delta_pct);
		break;
	default:
		shift_brief(b, c, f);
	}
	pd_buf_addf(b, " (finding %zu)", (size_t)(f - c->findings) + 1);
}
