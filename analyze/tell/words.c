#include "words.h"
#include "analyze/runs/kpi.h"
#include "core/metric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pd_words_pct(struct pd_buf *b, double pct)
{
	double a = fabs(pct);
	pd_buf_addf(b, a >= 9.95 ? "%.0f %%" : "%.1f %%", a);
}

const char *pd_words_event_kind(enum pd_timebase_event e)
{
	switch (e) {
	case PD_EVENT_GRACEFUL:
		return "graceful failover";
	case PD_EVENT_REBALANCE_OUT:
		return "rebalance-out";
	case PD_EVENT_REBALANCE: /* kind unknown: said once in the warnings */
		return "rebalance";
	default:
		return "failover";
	}
}

const char *pd_words_event(const struct pd_comparison *c)
{
	return pd_words_event_kind(pd_comparison_event(c)->event);
}

void pd_words_phase(struct pd_buf *b, const struct pd_comparison *c, enum pd_phase p)
{
	static const char *const when[] = {[PD_PHASE_PRE] = "before",
					   [PD_PHASE_TRANSIENT] = "during",
					   [PD_PHASE_POST] = "after"};
	if (p == PD_PHASE_WHOLE || !c->has_event)
		pd_buf_adds(b, "for the whole run");
	else
		pd_buf_addf(b, "%s the %s", when[p], pd_words_event(c));
}

/* The nodes f's scope holds in its phase (a role after the event: its survivors,
 * pd_delta.members), else over the run; 0 when f has neither delta nor view. */
static size_t members_of(const struct pd_comparison *c, const struct pd_finding *f)
{
	if (f->delta >= 0)
		return c->deltas[f->delta].members;
	return f->view >= 0 ? c->views[f->view].members : 0;
}

/* "the kv nodes", "the query node", "node 172.23.100.55 (query)", "the cluster" ... */
static void subject(struct pd_buf *b, const struct pd_comparison *c, const struct pd_finding *f)
{
	const struct pd_scope_ref *s = &f->scope;
	const struct pd_node *n;
	switch (s->kind) {
	case PD_AT_ROLE:
		pd_buf_addf(b, "the %s node%s", pd_metric_role_label(s->service),
			    members_of(c, f) == 1 ? "" : "s");
		break;
	case PD_AT_NODE:
		pd_buf_addf(b, "node %s", s->host);
		if ((n = pd_run_node(c->target, s->host)) && n->first)
			pd_buf_addf(b, " (%s)", pd_metric_role_label(n->first));
		break;
	case PD_AT_REMOVED:
		pd_buf_addf(b, "the removed node %s", s->host ? s->host : "");
		break;
	case PD_AT_SURVIVORS:
		pd_buf_adds(b, "the surviving nodes");
		break;
	case PD_AT_INDEX:
		pd_buf_addf(b, "index %s", s->host);
		break;
	default:
		pd_buf_adds(b, "the cluster");
	}
}

/* " used 16 % more CPU", " held 27 % fewer established connections"; without a verb
 * the label went first and this is " was 5 % lower". */
static void amount(struct pd_buf *b, const struct pd_metric_words *w, double pct)
{
	int held = w->verb && !strcmp(w->verb, "held");
	if (!w->verb) {
		pd_buf_adds(b, " was ");
		pd_words_pct(b, pct);
		pd_buf_adds(b, pct > 0 ? " higher" : " lower");
		return;
	}
	pd_buf_addf(b, " %s ", w->verb);
	pd_words_pct(b, pct);
	pd_buf_addf(b, " %s %s", pct > 0 ? "more" : held ? "fewer" : "less", w->label);
}

/* What the phase before the event says of a change after it. */
static void before_it(struct pd_buf *b, const struct pd_comparison *c,
		      const struct pd_finding *f)
{
	const struct pd_delta *pre;
	if (f->kind != PD_FIND_POST_EVENT_MISMATCH || f->n.shift.pre < 0)
		return;
	pre = &c->deltas[f->n.shift.pre];
	if ((pre->verdict == PD_VERDICT_REGRESSION || pre->verdict == PD_VERDICT_IMPROVEMENT) &&
	    !isnan(pre->delta_pct)) {
		pd_buf_addf(b, " (already %s ", pre->delta_pct > 0 ? "+" : "-");
		pd_words_pct(b, pre->delta_pct);
		pd_buf_adds(b, " before it)");
	} else if (pre->topology) {
		pd_buf_adds(b, ", where before it the runs differed only by their topology");
	} else if (pre->verdict == PD_VERDICT_SAME || isnan(pre->delta_pct)) {
		pd_buf_adds(b, ", where the runs had agreed before it");
	} else { /* as pd_finding_pre_words: never "agreed" beside an open pre row */
		pd_buf_adds(b, ", where before it the target was ");
		pd_words_pct(b, pre->delta_pct);
		pd_buf_addf(b, " %s, within a run's own noise",
			    pre->delta_pct > 0 ? "higher" : "lower");
	}
}

/* "memcached on the kv nodes used 16 % more CPU for the whole run" */
static void shift_words(struct pd_buf *b, const struct pd_comparison *c,
			const struct pd_finding *f)
{
	const struct pd_delta *d = &c->deltas[f->n.shift.delta];
	struct pd_metric_words w;
	pd_metric_words(&w, f->metric);
	if (!w.verb)
		pd_buf_addf(b, "%s on ", w.label);
	else if (w.proc.len)
		pd_buf_addf(b, "%s on ", w.proc.ptr);
	subject(b, c, f);
	if (!isnan(d->delta_pct))
		amount(b, &w, d->delta_pct);
	else if (d->stated.kind == PD_STATED_COUNT)
		pd_buf_addf(b, " had %.0f %s %s", fabs(d->stated.value),
			    d->stated.value > 0 ? "more" : "fewer", w.label);
	else
		pd_buf_addf(b, " changed by %+.4g (from none)", d->stated.value);
	if (!isnan(d->node_pct)) {
		pd_buf_adds(b, " in total (");
		pd_words_pct(b, d->node_pct);
		pd_buf_addf(b, " %s per node)", d->node_pct > 0 ? "more" : "less");
	}
	pd_buf_adds(b, " ");
	pd_words_phase(b, c, d->phase);
	before_it(b, c, f);
	if (f->n.shift.leak)
		pd_buf_adds(b, "; it was still growing at the end of the run (a leak)");
	pd_buf_release(&w.proc);
}

static void errors_words(struct pd_buf *b, const struct pd_comparison *c,
			 const struct pd_finding *f)
{
	/* the counts are the event run's and the other run's: the baseline's first when the
	 * failover run was given as the baseline (mirrored) */
	const struct pd_story_count *ev = &f->n.errors.errors,
				    *other = &f->n.errors.base_errors;
	const char *node = pd_comparison_event(c)->node;
	int mirrored = c->event_side < 0;
	pd_buf_addf(b, "%.0f queries failed at the %s%s%s%s", ev->count,
		    mirrored ? "baseline's " : "", pd_words_event(c), node ? " of " : "",
		    node ? node : "");
	if (other->ok && other->count < 0.5)
		pd_buf_addf(b, ", none in the %s", mirrored ? "target" : "baseline");
	else if (other->ok)
		pd_buf_addf(b, ", against %.0f in the %s", other->count,
			    mirrored ? "target" : "baseline");
}

/* A hard failover of a node that still served: the test's procedure to change. */
static void live_words(struct pd_buf *b, struct pd_buf *advice, const struct pd_comparison *c,
		       const struct pd_finding *f)
{
	const struct pd_live_node *ln = &f->n.live;
	const struct pd_node *n = pd_run_node(c->target, ln->host);
	if (!n)
		n = pd_run_node(c->base, ln->host);
	pd_buf_addf(b,
		    "%s was hard-failed-over while it still served (cbq-engine at %.0f %% CPU "
		    "with %.0f connections just before)",
		    ln->host, ln->cpu, ln->conn);
	pd_buf_adds(advice, "change the test, not the build: ");
	if (n && (n->services & PD_SVC_KV))
		pd_buf_adds(advice,
			    "fail a serving node over gracefully (perfrunner's [access] "
			    "n1ql_shutdown_type = graceful_failover)");
	else
		pd_buf_adds(advice, "remove a serving query node by rebalance (perfrunner's "
				    "[access] n1ql_shutdown_type = rebalance_out: a query-only "
				    "node cannot fail over gracefully)");
	pd_buf_adds(advice, ", or hard-fail a node over only once it is down");
}

/* Connections a node keeps after it left the cluster: a product bug. */
static void linger_words(struct pd_buf *b, struct pd_buf *advice, const struct pd_finding *f)
{
	pd_buf_addf(b,
		    "the removed node %s still held %.0f connections after it left the cluster",
		    f->scope.host ? f->scope.host : "", f->value);
	if (f->n.linger.to_end)
		pd_buf_adds(b, ", to the end of the run");
	if (f->regresses)
		pd_buf_addf(advice,
			    "file a product bug: %s kept %.0f established connections after it "
			    "was failed over and rebalanced out; they should be closed",
			    f->scope.host ? f->scope.host : "the removed node", f->value);
}

/* The one action a KPI that does not count every query node implies (kpi-scope and
 * kpi-change give it alike: the question lists it once). */
static void kpi_advice(struct pd_buf *advice)
{
	pd_buf_adds(advice,
		    "fix the KPI rule: count the requests of every query node (the "
		    "removed one for the time it served); until then compare the runs on "
		    "the throughput the cluster served (n1ql_stats/query_requests), not "
		    "the KPI");
}

/* What the rules say the KPI counts: ": it counts only the first query node", or that no
 * rule reproduces it and the closest. */
static void kpi_rules_words(struct pd_buf *b, const struct pd_kpi_rules *r)
{
	if (r->match) {
		int m = 0;
		while (!(r->match & (1u << m)))
			m++;
		pd_buf_addf(b, ": it counts %s", pd_kpi_rule_words((enum pd_kpi_rule)m));
		return;
	}
	pd_buf_adds(b, ": it does not count every query node");
	if (r->nearest >= 0) {
		pd_buf_addf(b, ", and no rule of perfrunner's reproduces it (closest: %s, ",
			    pd_kpi_rule_words((enum pd_kpi_rule)r->nearest));
		pd_words_pct(b, r->off_pct[r->nearest]);
		pd_buf_adds(b, " off)");
	}
}

static void kpi_scope_words(struct pd_buf *b, struct pd_buf *advice, const struct pd_finding *f)
{
	int i = !f->n.kpi.of_base;
	pd_buf_addf(b, "the %s's reported throughput KPI (%.0f) is ", i ? "target" : "baseline",
		    f->value);
	pd_words_pct(b, f->delta_pct);
	pd_buf_addf(b, " %s what its cluster served (%.0f req/s)",
		    f->delta_pct < 0 ? "below" : "above", f->n.kpi.change.target_served.value);
	if (f->n.kpi.has_rules[i])
		kpi_rules_words(b, &f->n.kpi.rules[i]);
	if (f->delta_pct < 0)
		kpi_advice(advice);
}

static void kpi_change_words(struct pd_buf *b, struct pd_buf *advice,
			     const struct pd_finding *f)
{
	const struct pd_kpi_change *k = &f->n.kpi.change;
	pd_buf_addf(b, "the reported throughput KPI %s ", k->kpi_pct < 0 ? "fell" : "rose");
	pd_words_pct(b, k->kpi_pct);
	pd_buf_addf(b, " (%.0f to %.0f)", k->base_kpi, k->target_kpi);
	if (!isnan(k->served_pct)) {
		pd_buf_adds(b, " while the cluster served ");
		pd_words_pct(b, k->served_pct);
		pd_buf_addf(b, " %s (%.0f to %.0f req/s)", k->served_pct < 0 ? "less" : "more",
			    k->base_served.value, k->target_served.value);
	}
	if (f->n.kpi.loop.closed)
		pd_buf_addf(b,
			    "; the workload is closed-loop (%ld workers): its throughput "
			    "follows the query time",
			    f->n.kpi.loop.workers);
	if (f->n.kpi.has_rules[1] && !(f->n.kpi.rules[1].match & (1u << PD_KPI_EVERY_NODE)) &&
	    k->target_kpi < k->target_served.value)
		kpi_advice(advice);
}

/* "dipped 29 % at the failover and was back within 5 % 45 s later". */
static void dip_words(struct pd_buf *b, const struct pd_comparison *c, const struct pd_dip *d,
		      enum pd_timebase_event e)
{
	pd_buf_adds(b, "dipped ");
	pd_words_pct(b, d->pct);
	pd_buf_addf(b, " at the %s", pd_words_event_kind(e));
	if (d->pct >= -c->threshold_pct)
		pd_buf_adds(b, ", within the threshold");
	else if (isnan(d->back_s))
		pd_buf_addf(b, " and did not come back within %.0f %%", c->threshold_pct);
	else
		pd_buf_addf(b, " and was back within %.0f %% %.0f s later", c->threshold_pct,
			    d->back_s);
}

/* "query throughput dipped 29 % at the failover and was back ...", and with a baseline
 * failed over too, how its own did. */
static void recovery_words(struct pd_buf *b, const struct pd_comparison *c)
{
	pd_buf_adds(b, "query throughput ");
	dip_words(b, c, &c->dip[1], c->tb_target.event);
	if (!c->base_event)
		return;
	pd_buf_adds(b, "; in the baseline it ");
	dip_words(b, c, &c->dip[0], c->tb_base.event);
}

/* The words and the advice of f, by its kind. */
static void finding_words(struct pd_buf *b, struct pd_buf *advice,
			  const struct pd_comparison *c, const struct pd_finding *f)
{
	switch (f->kind) {
	case PD_FIND_POST_EVENT_MISMATCH:
	case PD_FIND_METRIC_SHIFT:
		shift_words(b, c, f);
		break;
	case PD_FIND_EVENT_ERRORS:
		errors_words(b, c, f);
		break;
	case PD_FIND_HARD_FAILOVER_LIVE:
		live_words(b, advice, c, f);
		break;
	case PD_FIND_LINGERING:
		linger_words(b, advice, f);
		break;
	case PD_FIND_KPI_SCOPE:
		kpi_scope_words(b, advice, f);
		break;
	case PD_FIND_KPI_CHANGE:
		kpi_change_words(b, advice, f);
		break;
	case PD_FIND_RECOVERY:
		recovery_words(b, c);
		break;
	case PD_FIND_DATA_GAP:
		pd_buf_addf(b, "%s has holes (the longest %.0f s)", f->metric,
			    f->n.gap.longest_s);
		break;
	default: /* not comparable: its sentence is already plain */
		pd_buf_adds(b, f->text);
	}
}

void pd_words_findings(struct pd_comparison *c)
{
	for (size_t i = 0; i < c->n_findings; i++) {
		struct pd_finding *f = &c->findings[i];
		struct pd_buf b = PD_BUF_INIT, advice = PD_BUF_INIT;
		finding_words(&b, &advice, c, f);
		free(f->words);
		free(f->advice);
		f->words = pd_buf_detach(&b);
		f->advice = advice.len ? pd_buf_detach(&advice) : NULL;
		pd_buf_release(&advice);
	}
}
