#include "compare.h"
#include "analyze/tell/chartfacts.h"
#include "analyze/runs/configdiff.h"
#include "analyze/judge/deltas.h"
#include "analyze/tell/findings.h"
#include "analyze/judge/indexes.h"
#include "analyze/runs/kpi.h"
#include "analyze/runs/kpi_windows.h"
#include "analyze/align/latency.h"
#include "analyze/tell/nodeshift.h"
#include "analyze/align/phases.h"
#include "analyze/tell/questions.h"
#include "analyze/align/scope.h"
#include "analyze/runs/story.h"
#include "analyze/runs/timebase.h"
#include "analyze/judge/verdict.h"
#include "analyze/align/views.h"
#include "analyze/tell/findings_story.h"
#include "policy.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sections of a .test that define the workload; the event's own keys are left out. */
static int workload_key(const char *section, const char *key)
{
	static const char *const sections[] = {"load",      "access",     "bucket",    "index",
					       "secondary", "collection", "compaction"};
	if (!strcmp(section, "access") && !strcmp(key, "n1ql_shutdown_type"))
		return 0;
	if (!strncmp(section, "n1ql-", 5))
		return 1;
	for (size_t i = 0; i < sizeof(sections) / sizeof(*sections); i++)
		if (!strcmp(section, sections[i]))
			return 1;
	return !strcmp(section, "cluster") && strcmp(key, "initial_nodes");
}

static void compare_configs(struct pd_comparison *c, const struct pd_ini *a,
			    const struct pd_ini *b)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct pd_ini_entry *e = &a->e[i];
		const char *other = pd_ini_get(b, e->section, e->key);
		if (workload_key(e->section, e->key) && (!other || strcmp(other, e->value)))
			pd_strv_addf(&c->reasons,
				     "the workload differs: [%s] %s is '%s' in the baseline, "
				     "'%s' in "
				     "the target",
				     e->section, e->key, e->value, other ? other : "(absent)");
	}
	for (size_t i = 0; i < b->n; i++) {
		const struct pd_ini_entry *e = &b->e[i];
		if (workload_key(e->section, e->key) && !pd_ini_get(a, e->section, e->key))
			pd_strv_addf(
				&c->reasons,
				"the workload differs: [%s] %s is only in the target's config",
				e->section, e->key);
	}
}

/* Appends name without its first "Shutdown". */
static void without_shutdown(struct pd_buf *out, const char *name)
{
	const char *p = strstr(name, "Shutdown");
	if (!p) {
		pd_buf_adds(out, name);
		return;
	}
	pd_buf_add(out, name, (size_t)(p - name));
	pd_buf_adds(out, p + 8);
}

/* The same test, or its shutdown variant (N1QLThroughputTest vs
 * N1QLThroughputShutdownTest: the event is the point of the comparison). */
static int same_test(const char *a, const char *b)
{
	struct pd_buf x = PD_BUF_INIT, y = PD_BUF_INIT;
	without_shutdown(&x, a);
	without_shutdown(&y, b);
	int same = !strcmp(x.ptr, y.ptr);
	pd_buf_release(&x);
	pd_buf_release(&y);
	return same;
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Whether two series hold the same samples under the same name. */
static int same_series(const struct pd_series *x, const struct pd_series *y)
{
	return x->n == y->n && same_str(x->collector, y->collector) &&
	       same_str(x->metric, y->metric) && same_str(x->server, y->server) &&
	       same_str(x->bucket, y->bucket) && same_str(x->index, y->index) &&
	       (!x->n || (!memcmp(x->t_ms, y->t_ms, x->n * sizeof(*x->t_ms)) &&
			  !memcmp(x->v, y->v, x->n * sizeof(*x->v))));
}

/* One run given twice: the same Jenkins build, or every series the same samples. */
static int same_run(const struct pd_run *a, const struct pd_run *b)
{
	if (a->jenkins.present && b->jenkins.present)
		return same_str(a->jenkins.job, b->jenkins.job) &&
		       a->jenkins.number == b->jenkins.number;
	if (a->n_series != b->n_series || !a->n_series)
		return 0;
	for (size_t i = 0; i < a->n_series; i++)
		if (!same_series(a->series[i], b->series[i]))
			return 0;
	return 1;
}

/* What the reader most likely did not mean: the runs the wrong way round (the baseline
 * holds the event, the target none), or a run compared with itself. */
static void check_order(struct pd_comparison *c)
{
	if (c->tb_base.event != PD_EVENT_NONE && c->tb_target.event == PD_EVENT_NONE)
		pd_strv_addf(&c->warnings,
			     "the baseline holds the event (a %s of %s) and the target has "
			     "none: did you mean to swap them? (perfdelta compare BASELINE "
			     "TARGET)",
			     pd_timebase_event_name(c->tb_base.event),
			     c->tb_base.node ? c->tb_base.node : "a node");
	if (same_run(c->base, c->target))
		pd_strv_addf(&c->warnings, "the baseline and the target are the same run%s",
			     c->base->jenkins.present ? " (the same Jenkins build)"
						      : " (the same samples)");
}

/* Why a baseline (a, its time base ta) and the target cannot be compared, each reason
 * prefixed by who ("" for the first baseline). */
static void check_comparable(struct pd_comparison *c, const struct pd_run *a,
			     const struct pd_timebase *ta, const char *who)
{
	const struct pd_run *b = c->target;
	size_t before = c->reasons.n;
	double la = (double)(ta->end_ms - ta->t0_ms) / 1000;
	double lb = (double)(c->tb_target.end_ms - c->tb_target.t0_ms) / 1000;
	int64_t ia = ta->interval_ms, ib = c->tb_target.interval_ms;
	if (a->cfg.test && b->cfg.test && !same_test(a->cfg.test, b->cfg.test))
		pd_strv_addf(&c->reasons, "different tests: %s vs %s", a->cfg.test,
			     b->cfg.test);
	if (a->test.path && b->test.path)
		compare_configs(c, &a->test, &b->test);
	if (fabs(la - lb) > PD_POLICY_PHASE_LENGTH_TOL * fmax(la, lb))
		pd_strv_addf(&c->reasons, "the measured phases last %.0f s and %.0f s", la, lb);
	if (ia > 0 && ib > 0 &&
	    (double)llabs(ia - ib) > PD_POLICY_INTERVAL_TOL * (double)(ia > ib ? ia : ib))
		pd_strv_addf(&c->reasons, "sampling intervals differ: %.1f s vs %.1f s",
			     (double)ia / 1000, (double)ib / 1000);
	for (size_t i = before; i < c->reasons.n && who[0]; i++) {
		struct pd_buf b2 = PD_BUF_INIT;
		pd_buf_addf(&b2, "%s%s", who, c->reasons.v[i]);
		free(c->reasons.v[i]);
		c->reasons.v[i] = pd_buf_detach(&b2);
	}
}

/* Whether two events are known to be of different kinds: a rebalance seen only in the
 * series (PD_EVENT_REBALANCE) may be a failover or a rebalance-out. */
static int kinds_differ(enum pd_timebase_event a, enum pd_timebase_event b)
{
	if (a == PD_EVENT_NONE || b == PD_EVENT_NONE)
		return a != b;
	return a != b && a != PD_EVENT_REBALANCE && b != PD_EVENT_REBALANCE;
}

/* Baselines are replicates of one configuration, their spread the run-to-run variance: a
 * baseline with another event than the first's (a failover run among plain ones) would
 * count the event's effect as noise and hide every change. */
static void check_replicate(struct pd_comparison *c, size_t j, const char *who)
{
	const struct pd_timebase *a = &c->tb_base, *b = &c->tb_more[j - 1];
	if (!kinds_differ(a->event, b->event))
		return;
	pd_strv_addf(&c->reasons,
		     "%sa %s%s%s, the first baseline %s%s%s: the baselines must be runs of one "
		     "configuration for their spread to be the run-to-run variance",
		     who, pd_timebase_event_name(b->event), b->node ? " of " : "",
		     b->node ? b->node : "", pd_timebase_event_name(a->event),
		     a->node ? " of " : "", a->node ? a->node : "");
}

/* The verdict of the comparison is its findings': a regression when one fails the gate's
 * rule (pd_finding.regresses), so that the exit code and the test report always agree. */
static enum pd_verdict overall(const struct pd_comparison *c)
{
	int regression = 0, improvement = 0;
	if (c->reasons.n)
		return PD_VERDICT_NOT_COMPARABLE;
	for (size_t i = 0; i < c->n_findings; i++) {
		const struct pd_finding *f = &c->findings[i];
		regression |= f->regresses;
		improvement |= (f->kind == PD_FIND_METRIC_SHIFT ||
				f->kind == PD_FIND_POST_EVENT_MISMATCH) &&
			       c->deltas[f->n.shift.delta].verdict == PD_VERDICT_IMPROVEMENT;
	}
	if (regression)
		return PD_VERDICT_REGRESSION;
	if (improvement)
		return PD_VERDICT_IMPROVEMENT;
	return c->n_deltas ? PD_VERDICT_SAME : PD_VERDICT_INCONCLUSIVE;
}

/* Whether the baseline's event can be followed; when not, c->matching says why. */
static int followable(struct pd_comparison *c, const char *kind, const char *node)
{
	const struct pd_timebase *b = &c->tb_base, *t = &c->tb_target;
	double len = (double)(b->end_ms - b->t0_ms) / 1000;
	if (b->event == PD_EVENT_NONE)
		return 0;
	if (b->event_source == PD_SOURCE_NONE || !(b->event_s > 0 && b->event_s < len)) {
		pd_strv_addf(
			&c->matching,
			"the baseline has its own %s of %s, but its time (%.1f s) is not "
			"inside its measured phase (0 to %.1f s): the runs are lined up at "
			"their starts (--baseline-event-time sets it)",
			kind, node, b->event_s, len);
		return 0;
	}
	if (t->event != PD_EVENT_NONE)
		return 1;
	c->event_side = -1;
	pd_strv_addf(
		&c->matching,
		"the baseline has a %s of %s at %.1f s and the target none: the baseline's "
		"event defines the phases, and the findings read the other way round",
		kind, node, b->event_s);
	return 0;
}

/* The runs are lined up on the event: when the baseline has its own (two failover runs
 * of different builds), its grid starts where its event meets the target's, to the grid
 * step; what it has before that is left out, and after the target's end too (the phases
 * are the target's). An event without a time, or outside the baseline's phase (a wrong
 * clock), is not followed: the notes say so, and --baseline-event-time sets it. */
static void align_events(struct pd_comparison *c)
{
	const struct pd_timebase *b = &c->tb_base, *t = &c->tb_target;
	const char *kind = pd_timebase_event_name(b->event),
		   *node = b->node ? b->node : "a node";
	c->base_grid_t0_ms = b->t0_ms;
	c->base_shift_s = 0;
	c->event_side = t->event != PD_EVENT_NONE ? 1 : 0;
	c->base_event = followable(c, kind, node) || c->event_side < 0;
	if (!c->base_event || c->event_side < 0)
		return;
	double steps = round((b->event_s - t->event_s) / c->step_s);
	if (steps == 0) {
		pd_strv_addf(
			&c->matching,
			"the baseline has its own %s (of %s) at %.1f s, which lines up with "
			"the target's at %.1f s",
			kind, node, b->event_s, t->event_s);
		return;
	}
	c->base_shift_s = steps * c->step_s;
	c->base_grid_t0_ms = b->t0_ms + (int64_t)llround(c->base_shift_s * 1000);
	pd_strv_addf(&c->matching,
		     "the baseline has its own %s (of %s) at %.1f s: its series are shifted by "
		     "%+.1f s so that it lines up with the target's at %.1f s%s",
		     kind, node, b->event_s, -c->base_shift_s, t->event_s,
		     kinds_differ(b->event, t->event) ? " (the events are of different kinds)"
						      : "");
}

static size_t most_samples(const struct pd_run *run)
{
	size_t most = 0;
	for (size_t i = 0; i < run->n_series; i++)
		if (run->series[i]->n > most)
			most = run->series[i]->n;
	return most;
}

/* Every sample of every run. */
static double samples_read(const struct pd_comparison *c)
{
	double n = 0;
	for (size_t j = 0; j <= c->n_bases; j++) {
		const struct pd_run *run = j < c->n_bases ? c->bases[j] : c->target;
		for (size_t i = 0; i < run->n_series; i++)
			n += (double)run->series[i]->n;
	}
	return n;
}

/* Every view holds a point per step over the frame for each run: the frame is bounded by
 * the samples, never by the time span alone (docs/reference.md "Limits": a few samples far
 * apart are no huge grid), and so are the grids together (docs/reference.md, "Memory"):
 * views x points x runs values at most (pd_views_bound), which may not pass
 * PD_POLICY_GRID_PER_SAMPLE values a sample read, or PD_POLICY_GRID_FLOOR values (256 MiB),
 * whichever is more. */
static int check_grid(const struct pd_comparison *c, const struct pd_compare_opts *opts,
		      struct pd_err *err)
{
	size_t a = most_samples(c->base), b = most_samples(c->target);
	double most = (double)(a > b ? a : b), views = (double)pd_views_bound(c, opts);
	double points = floor(c->length_s / c->step_s) + 1, read = samples_read(c);
	double cells = views * points * (double)(c->n_bases + 1);
	if (c->length_s / c->step_s > 4 * most + 1024)
		return pd_err_set(
			err, PD_ELIMIT,
			"the measured phase (%.0f s) is over 4 times as long as its longest "
			"series covers at one sample per %.1f s: the samples lie too far apart",
			c->length_s, c->step_s);
	if (cells <= PD_POLICY_GRID_FLOOR || cells <= PD_POLICY_GRID_PER_SAMPLE * read)
		return 0;
	return pd_err_set(err, PD_ELIMIT,
			  "up to %.0f views over %.0f s (%.0f points at one per %.1f s) would "
			  "need grids of %.3g values, over %d a sample read (%.0f samples): "
			  "most series cover far less than the longest; compare fewer metrics "
			  "(--metrics) or the part of the runs they cover",
			  views, c->length_s, points, c->step_s, cells,
			  PD_POLICY_GRID_PER_SAMPLE, read);
}

/* The other baselines' time bases (their flags are the first's); lined up at their
 * starts. */
static int more_time_bases(struct pd_comparison *c, const struct pd_compare_opts *opts,
			   struct pd_err *err)
{
	int rc = 0;
	c->tb_more = pd_xcalloc(c->n_bases, sizeof(*c->tb_more));
	for (size_t j = 1; j < c->n_bases && rc == 0; j++)
		rc = pd_timebase_resolve(&c->tb_more[j - 1], c->bases[j], &opts->time_base,
					 err);
	return rc;
}

/* The target nodes whose role the baseline has (views.c matches by role). */
static size_t matched_nodes(const struct pd_comparison *c)
{
	size_t k = 0;
	for (size_t i = 0; i < c->target->n_nodes; i++)
		for (size_t j = 0; j < c->base->n_nodes; j++)
			if (!strcmp(c->target->nodes[i].role, c->base->nodes[j].role)) {
				k++;
				break;
			}
	return k;
}

/* A comparison that could not match most nodes says so before any figure: its per-node
 * and per-role questions have nothing to compare. */
static void matching_warning(struct pd_comparison *c)
{
	size_t nb = c->base->n_nodes, nt = c->target->n_nodes, most = nb > nt ? nb : nt;
	size_t k = matched_nodes(c);
	if (!most || 2 * k >= most)
		return;
	pd_strv_addf(
		&c->warnings,
		"only %zu of the %zu nodes could be matched between the runs (by role): "
		"the per-node and per-role comparisons leave the others out%s",
		k, most,
		!nt   ? "; the target has no nodes: no spec (perfrunner/*.spec) to read them "
			"from"
		: !nb ? "; the baseline has no nodes: no spec (perfrunner/*.spec) to read "
			"them from"
		      : "");
}

/* A spec whose nodes the run's series do not name (a spec of another cluster, or the
 * monitoring of one) leaves every per-node and per-role view empty: said, as a matching
 * failure is, never left to read as nothing changed. */
static void unmonitored_warning(struct pd_comparison *c, const struct pd_run *run,
				const char *who)
{
	size_t seen = 0;
	for (size_t i = 0; i < run->n_nodes; i++)
		for (size_t k = 0; k < run->n_series; k++)
			if (run->series[k]->server &&
			    !strcmp(run->series[k]->server, run->nodes[i].host)) {
				seen++;
				break;
			}
	if (2 * seen >= run->n_nodes)
		return;
	pd_strv_addf(&c->warnings,
		     "only %zu of the %zu nodes of the %s's spec have a series in its "
		     "monitoring (a spec of another cluster?): the per-node and per-role "
		     "comparisons leave the others out",
		     seen, run->n_nodes, who);
}

/* Roles inferred without a spec are said as such, naming each node's. */
static void inferred_warning(struct pd_comparison *c, const struct pd_run *run, const char *who)
{
	struct pd_buf b = PD_BUF_INIT;
	if (!run->roles_inferred)
		return;
	for (size_t i = 0; i < run->n_nodes; i++)
		pd_buf_addf(&b, "%s%s %s", i ? ", " : "", run->nodes[i].host,
			    run->nodes[i].role);
	pd_strv_addf(
		&c->warnings,
		"the %s has no spec: its nodes come from its console's rebalance and their "
		"roles are inferred from the processes they run (cbq-engine: n1ql, "
		"indexer: index, memcached alone: kv): %s",
		who, b.ptr);
	pd_buf_release(&b);
}

/* Every run's KPI facts, once: every finding and output reads them. */
static void kpi_facts(struct pd_comparison *c)
{
	c->kpi_bases = pd_xcalloc(c->n_bases, sizeof(*c->kpi_bases));
	pd_kpi_facts_of(&c->kpi_target, c->target, &c->tb_target);
	pd_kpi_facts_of(&c->kpi_bases[0], c->base, &c->tb_base);
	for (size_t j = 1; j < c->n_bases; j++)
		pd_kpi_facts_of(&c->kpi_bases[j], c->bases[j], &c->tb_more[j - 1]);
}

static int time_bases(struct pd_comparison *c, const struct pd_compare_opts *opts,
		      struct pd_err *err)
{
	int rc;
	if ((rc = more_time_bases(c, opts, err)) < 0 ||
	    (rc = pd_timebase_resolve(&c->tb_base, c->base, &opts->time_base, err)) < 0 ||
	    (rc = pd_timebase_resolve(&c->tb_target, c->target, &opts->time, err)) < 0)
		return rc;
	int64_t step =
		c->tb_base.interval_ms ? c->tb_base.interval_ms : c->tb_target.interval_ms;
	if (step <= 0)
		return pd_err_set(
			err, PD_ECOMPARE,
			"cannot compare: a run has fewer than two samples per series");
	c->step_s = (double)step / 1000;
	c->removed_node[0] = c->tb_base.event != PD_EVENT_NONE ? c->tb_base.node : NULL;
	c->removed_node[1] = c->tb_target.event != PD_EVENT_NONE ? c->tb_target.node : NULL;
	kpi_facts(c);
	align_events(c);
	/* shifted, the target's phases are the frame; else the longer run's */
	int64_t target_ms = c->tb_target.end_ms - c->tb_target.t0_ms;
	int64_t base_ms = c->tb_base.end_ms - c->tb_base.t0_ms;
	int longer = c->base_shift_s == 0 && base_ms > target_ms;
	c->length_s = (double)(longer ? base_ms : target_ms) / 1000;
	return check_grid(c, opts, err);
}

int pd_compare_views(struct pd_comparison **out, const struct pd_run *base,
		     const struct pd_run *target, const struct pd_compare_opts *opts,
		     struct pd_err *err)
{
	struct pd_comparison *c = pd_xcalloc(1, sizeof(*c));
	int rc;
	c->base = base;
	c->target = target;
	c->n_bases = 1 + opts->n_more_base;
	c->bases = pd_xmalloc(c->n_bases * sizeof(*c->bases));
	c->bases[0] = base;
	for (size_t j = 0; j < opts->n_more_base; j++)
		c->bases[j + 1] = opts->more_base[j];
	c->threshold_pct = opts->threshold_pct;
	c->alpha = opts->alpha;
	c->correction = "bonferroni";
	c->method = pd_compare_method;
	c->family = pd_compare_family;
	c->noise = c->n_bases >= 2      ? PD_INFER_NOISE_RUNS
		   : opts->n_run_spread ? PD_INFER_NOISE_HISTORY
					: PD_INFER_NOISE_WITHIN;
	c->judged = pd_verdict_judged(c);
	*out = NULL;
	if ((rc = time_bases(c, opts, err)) < 0) {
		pd_comparison_free(c);
		return rc;
	}
	check_comparable(c, c->base, &c->tb_base, "");
	for (size_t j = 1; j < c->n_bases; j++) {
		struct pd_buf who = PD_BUF_INIT;
		pd_buf_addf(&who, "baseline %zu: ", j + 1);
		check_comparable(c, c->bases[j], &c->tb_more[j - 1], who.ptr);
		check_replicate(c, j, who.ptr);
		pd_buf_release(&who);
	}
	check_order(c); /* the likeliest mistake first */
	pd_timebase_notes(&c->warnings, &c->tb_base, "baseline");
	pd_timebase_notes(&c->warnings, &c->tb_target, "target");
	pd_configdiff_build(&c->config_diff, base, target);
	pd_views_build(c, opts);
	inferred_warning(c, c->base, "baseline");
	inferred_warning(c, c->target, "target");
	matching_warning(c);
	unmonitored_warning(c, c->base, "baseline");
	unmonitored_warning(c, c->target, "target");
	pd_phases_set(c, opts->settle_s);
	pd_chartfacts_views(c);
	*out = c;
	return 0;
}

/* Regressions and improvements first, then inconclusive, same, not comparable. */
static int verdict_rank(enum pd_verdict v)
{
	static const int rank[] = {[PD_VERDICT_REGRESSION] = 0,
				   [PD_VERDICT_IMPROVEMENT] = 1,
				   [PD_VERDICT_INCONCLUSIVE] = 2,
				   [PD_VERDICT_SAME] = 3,
				   [PD_VERDICT_NOT_COMPARABLE] = 4};
	return rank[v];
}

static int cmp_delta(const void *a, const void *b)
{
	const struct pd_delta *x = *(const struct pd_delta *const *)a;
	const struct pd_delta *y = *(const struct pd_delta *const *)b;
	int rx = verdict_rank(x->verdict), ry = verdict_rank(y->verdict);
	double dx = isnan(x->delta_pct) ? -1 : fabs(x->delta_pct);
	double dy = isnan(y->delta_pct) ? -1 : fabs(y->delta_pct);
	if (rx != ry)
		return rx - ry;
	if (dx != dy)
		return dx < dy ? 1 : -1;
	return x < y ? -1 : x > y;
}

/* c->delta_order: the deltas as every table lists them. */
static void rank_deltas(struct pd_comparison *c)
{
	const struct pd_delta **order = pd_xmalloc((c->n_deltas + 1) * sizeof(*order));
	for (size_t k = 0; k < c->n_deltas; k++)
		order[k] = &c->deltas[k];
	qsort(order, c->n_deltas, sizeof(*order), cmp_delta);
	c->delta_order = pd_xmalloc((c->n_deltas + 1) * sizeof(*c->delta_order));
	for (size_t k = 0; k < c->n_deltas; k++)
		c->delta_order[k] = (size_t)(order[k] - c->deltas);
	free(order);
}

/* Whether d heads the summaries' table (pd_delta.headline). */
static int headline(const struct pd_comparison *c, const struct pd_delta *d)
{
	return (d->verdict == PD_VERDICT_REGRESSION || d->verdict == PD_VERDICT_IMPROVEMENT) &&
	       c->views[d->view].scope.kind != PD_AT_NODE &&
	       c->views[d->view].scope.kind != PD_AT_INDEX && d->phase != PD_PHASE_TRANSIENT &&
	       !d->topology;
}

/* f->smooth_pct: the target's PD_POLICY_SMOOTH_S moving mean against the baseline's, in %. */
static void smooth_finding(const struct pd_comparison *c, struct pd_finding *f)
{
	if (f->view < 0 || c->views[f->view].scope.kind == PD_AT_REMOVED)
		return;
	const struct pd_view *v = &c->views[f->view];
	size_t w = (size_t)fmax(1, round(PD_POLICY_SMOOTH_S / v->step_s));
	f->smooth_s = PD_POLICY_SMOOTH_S;
	f->smooth_pct = pd_xmalloc((v->n + 1) * sizeof(double));
	for (size_t i = 0; i < v->n; i++) {
		double sb = 0, st = 0;
		size_t k = 0;
		for (size_t j = i + 1 > w ? i + 1 - w : 0; j <= i; j++)
			if (!isnan(v->base[j]) && !isnan(v->target[j]))
				sb += v->base[j], st += v->target[j], k++;
		f->smooth_pct[i] = k && sb != 0 ? 100 * (st - sb) / fabs(sb) : NAN;
	}
}

/* How many findings a short output lists: PD_POLICY_TOP_FINDINGS, and on to the last of the
 * event's story (event-errors, hard-failover-live-node, kpi-change), so that the list
 * stays numbered by rank and the story is never cut in two. */
static size_t top_findings(const struct pd_comparison *c)
{
	size_t n =
		c->n_findings < PD_POLICY_TOP_FINDINGS ? c->n_findings : PD_POLICY_TOP_FINDINGS;
	for (size_t i = n; i < c->n_findings; i++)
		if (c->findings[i].kind == PD_FIND_EVENT_ERRORS ||
		    c->findings[i].kind == PD_FIND_HARD_FAILOVER_LIVE ||
		    c->findings[i].kind == PD_FIND_KPI_CHANGE)
			n = i + 1;
	return n;
}

void pd_compare_measure(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	pd_deltas_compute(c, opts);
	pd_indexes_rank(c);
	pd_nodeshift_build(&c->shift, c);
	pd_findings_build(c, opts);
	rank_deltas(c);
	pd_questions_build(c);
	pd_kpi_windows_pair(c);
	c->n_top = top_findings(c);
	for (size_t i = 0; i < c->n_deltas; i++)
		c->deltas[i].headline = headline(c, &c->deltas[i]);
	for (size_t f = 0; f < c->n_findings; f++)
		smooth_finding(c, &c->findings[f]);
	pd_chartfacts_findings(c);
	pd_latency_build(c);
	pd_latency_pct_build(c);
	c->post_same_nodes = c->has_event;
	for (size_t i = 0; i < c->n_views; i++)
		if (c->views[i].topology & (1u << PD_PHASE_POST))
			c->post_same_nodes = 0;
	c->verdict = overall(c);
}

int pd_compare(struct pd_comparison **out, const struct pd_run *base,
	       const struct pd_run *target, const struct pd_compare_opts *opts,
	       struct pd_err *err)
{
	int rc = pd_compare_views(out, base, target, opts, err);
	if (rc == 0)
		pd_compare_measure(*out, opts);
	return rc;
}

void pd_comparison_free(struct pd_comparison *c)
{
	if (!c)
		return;
	free(c->judged);
	for (size_t i = 0; i < c->n_views; i++) {
		free(c->views[i].metric);
		pd_scope_ref_free(&c->views[i].scope);
		free(c->views[i].nodes);
		free(c->views[i].nodes_after);
		for (size_t j = 0; j < c->views[i].n_bases; j++)
			free(c->views[i].bases[j]);
		free(c->views[i].bases);
		free(c->views[i].target);
	}
	free(c->views);
	pd_comparison_unindex(c);
	for (size_t i = 0; i < c->n_deltas; i++)
		free(c->deltas[i].base_runs);
	free(c->deltas);
	free(c->delta_order);
	for (size_t i = 0; i < c->n_findings; i++) {
		free(c->findings[i].metric);
		pd_scope_ref_free(&c->findings[i].scope);
		free(c->findings[i].text);
		free(c->findings[i].words);
		if (c->findings[i].kind == PD_FIND_HARD_FAILOVER_LIVE)
			pd_story_live_release(&c->findings[i].n.live);
		free(c->findings[i].advice);
		free(c->findings[i].smooth_pct);
	}
	free(c->findings);
	pd_strv_free(&c->reasons);
	pd_strv_free(&c->warnings);
	pd_strv_free(&c->matching);
	free(c->bases);
	for (size_t j = 1; c->tb_more && j < c->n_bases; j++)
		pd_timebase_release(&c->tb_more[j - 1]);
	free(c->tb_more);
	pd_timebase_release(&c->tb_base);
	pd_timebase_release(&c->tb_target);
	free(c->kpi_bases);
	pd_questions_free(c);
	free(c->kpi_windows);
	free(c->latency);
	pd_latency_pct_free(c);
	pd_configdiff_free(c->config_diff);
	pd_nodeshift_free(c->shift);
	free(c);
}
