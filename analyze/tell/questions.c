#include "questions.h"
#include "analyze/runs/kpi.h"
#include "recovery.h"
#include "findings_story.h"
#include "analyze/policy.h"
#include "core/buf.h"
#include "core/metric.h"
#include "core/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Whether c has a view of metric (NULL: any) at a scope of that kind (and service, for a
 * role): the question's inputs were there in both runs. */
static int has_view(const struct pd_comparison *c, const char *metric, enum pd_scope_kind kind,
		    unsigned service)
{
	for (size_t i = 0; i < c->n_views; i++) {
		const struct pd_view *v = &c->views[i];
		if (v->scope.kind == kind && v->scope.service == service &&
		    (!metric || !strcmp(v->metric, metric)))
			return 1;
	}
	return 0;
}

static struct pd_question *ask(struct pd_comparison *c, enum pd_question_kind kind,
			       unsigned service, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static struct pd_question *ask(struct pd_comparison *c, enum pd_question_kind kind,
			       unsigned service, const char *fmt, ...)
{
	struct pd_buf b = PD_BUF_INIT;
	va_list ap;
	c->questions = pd_xrealloc(c->questions, (c->n_questions + 1) * sizeof(*c->questions));
	struct pd_question *q = &c->questions[c->n_questions++];
	memset(q, 0, sizeof(*q));
	q->kind = kind, q->service = service;
	va_start(ap, fmt);
	pd_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	q->question = pd_buf_detach(&b);
	pd_buf_addf(&b, "%zu", c->n_questions);
	q->label = pd_buf_detach(&b);
	return q;
}

static int is_shift(const struct pd_finding *f)
{
	return f->kind == PD_FIND_METRIC_SHIFT || f->kind == PD_FIND_POST_EVENT_MISMATCH;
}

/* The role a finding's scope is about: a role's, or a node's first service. */
static unsigned role_of(const struct pd_comparison *c, const struct pd_scope_ref *s)
{
	const struct pd_node *n;
	if (s->kind == PD_AT_ROLE)
		return s->service;
	if (s->kind == PD_AT_NODE && s->host && (n = pd_run_node(c->target, s->host)))
		return n->first;
	return 0;
}

static int answers(const struct pd_comparison *c, const struct pd_question *q,
		   const struct pd_finding *f)
{
	switch (q->kind) {
	case PD_Q_REQUESTS_LOST:
		return f->kind == PD_FIND_EVENT_ERRORS || f->kind == PD_FIND_HARD_FAILOVER_LIVE;
	case PD_Q_CONNECTIONS_KEPT:
		return f->kind == PD_FIND_LINGERING;
	case PD_Q_ROLE_CHANGE:
		return is_shift(f) && role_of(c, &f->scope) == q->service;
	case PD_Q_CLUSTER_CHANGE:
		return is_shift(f) &&
		       (f->scope.kind == PD_AT_CLUSTER || f->scope.kind == PD_AT_SURVIVORS);
	case PD_Q_KPI_COUNTS:
		return f->kind == PD_FIND_KPI_SCOPE || f->kind == PD_FIND_KPI_CHANGE;
	case PD_Q_RECOVERY:
		return f->kind == PD_FIND_RECOVERY;
	}
	return 0;
}

/* "the runs are not comparable (finding 1)": the finding gives the reasons. */
static void not_comparable(struct pd_buf *b, const struct pd_comparison *c)
{
	pd_buf_adds(b, "the runs are not comparable");
	for (size_t i = 0; i < c->n_findings; i++)
		if (c->findings[i].kind == PD_FIND_NOT_COMPARABLE) {
			pd_buf_addf(b, " (finding %zu)", i + 1);
			return;
		}
}

/* Appends why q's inputs are missing; returns 0 when they are there. */
static int missing_input(struct pd_buf *b, const struct pd_comparison *c,
			 const struct pd_question *q)
{
	const struct pd_kpi_facts *kt = &c->kpi_target, *kb = &c->kpi_bases[0];
	const char *m = "n1ql_stats/query_errors";
	switch (q->kind) {
	case PD_Q_REQUESTS_LOST:
		return has_view(c, m, PD_AT_CLUSTER, 0)
			       ? 0
			       : (pd_buf_addf(b, "no %s series in both runs", m), 1);
	case PD_Q_CONNECTIONS_KEPT:
		if (!pd_comparison_event(c)->node)
			return pd_buf_adds(b, "the node the event removed is unknown"), 1;
		if (has_view(c, "net/ESTABLISHED", PD_AT_REMOVED, 0))
			return 0;
		pd_buf_adds(b, "the removed node has no net/ESTABLISHED series");
		if ((c->event_side < 0 ? c->base : c->target)->prometheus)
			pd_buf_adds(b,
				    ": perfrunner's Prometheus path carries no net collector");
		return 1;
	case PD_Q_ROLE_CHANGE:
		return has_view(c, NULL, PD_AT_ROLE, q->service)
			       ? 0
			       : (pd_buf_addf(
					  b,
					  "no series of the %s nodes matched between the runs",
					  pd_metric_role_label(q->service)),
				  1);
	case PD_Q_CLUSTER_CHANGE:
		return has_view(c, NULL, PD_AT_CLUSTER, 0) ||
				       has_view(c, NULL, PD_AT_SURVIVORS, 0)
			       ? 0
			       : (pd_buf_adds(b, "no series of the whole cluster in both runs"),
				  1);
	case PD_Q_KPI_COUNTS:
		if (!kt->kpi || !kb->kpi) /* one run's KPI cannot say whether it moved */
			return pd_buf_addf(
				       b,
				       "%s reports no throughput KPI (a showfast post of the "
				       "" PD_KPI_FORM " form in its Jenkins outputs)",
				       !kt->kpi && !kb->kpi ? "neither run"
				       : !kt->kpi           ? "the target"
							    : "the baseline"),
			       1;
		return kt->served.ok && kb->served.ok
			       ? 0
			       : (pd_buf_adds(b,
					      "a run has no n1ql_stats/query_requests series"),
				  1);
	case PD_Q_RECOVERY:
		return has_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0)
			       ? 0
			       : (pd_buf_adds(
					  b,
					  "no n1ql_stats/query_requests series in both runs"),
				  1);
	}
	return 0;
}

/* Appends why q cannot be answered: runs that cannot be compared (nothing agrees between
 * them), its inputs missing; returns 0 when it can be. */
static int missing(struct pd_buf *b, const struct pd_comparison *c, const struct pd_question *q)
{
	struct pd_buf input = PD_BUF_INIT;
	int none = missing_input(&input, c, q);
	if (c->reasons.n)
		not_comparable(b, c);
	if (none)
		pd_buf_addf(b, "%s%s", c->reasons.n ? "; " : "", input.ptr);
	pd_buf_release(&input);
	return none || c->reasons.n;
}

/* Whether delta d is one q covers: judged at the question's scope (top-level, not the
 * topology's), so that its answer says "agree" only when every such delta is the same. */
static int covers(const struct pd_comparison *c, const struct pd_question *q,
		  const struct pd_delta *d)
{
	const struct pd_view *v = &c->views[d->view];
	const struct pd_scope_ref *s = &v->scope;
	if (d->topology)
		return 0;
	switch (q->kind) {
	case PD_Q_REQUESTS_LOST:
		return s->kind == PD_AT_CLUSTER && d->phase == PD_PHASE_TRANSIENT &&
		       !strcmp(v->metric, "n1ql_stats/query_errors");
	case PD_Q_CONNECTIONS_KEPT: /* an absolute rule, not a delta (lingering_finding) */
		return 0;
	case PD_Q_ROLE_CHANGE:
		return d->gates && s->kind == PD_AT_ROLE && s->service == q->service;
	case PD_Q_CLUSTER_CHANGE:
		return d->gates && (s->kind == PD_AT_CLUSTER || s->kind == PD_AT_SURVIVORS);
	case PD_Q_KPI_COUNTS:
		return s->kind == PD_AT_CLUSTER && d->phase == PD_PHASE_WHOLE &&
		       !strcmp(v->metric, "n1ql_stats/query_requests");
	case PD_Q_RECOVERY:
		return 0; /* the dip, not a delta (analyze/tell/recovery.c) */
	}
	return 0;
}

/* " -- +15.9 % [+9.9 %, +22.2 %]" of d as judged: a percentage, else its absolute change. */
static void judged(struct pd_buf *b, const struct pd_comparison *c, const struct pd_delta *d)
{
	const struct pd_view *v = &c->views[d->view];
	const struct pd_infer_result *r = &d->inf;
	pd_buf_addf(b, "%s on %s %s, ", v->metric, v->scope.name, pd_phase_name(d->phase));
	if (r->valid & PD_INFER_HAS_PCT)
		pd_buf_addf(b, "%+.1f %% [%+.1f %%, %+.1f %%]", r->delta_pct, r->lo_pct,
			    r->hi_pct);
	else
		pd_buf_addf(b, "%+.4g [%+.4g, %+.4g] %s", r->delta_abs, r->lo_abs, r->hi_abs,
			    pd_unit_name(v->unit));
	pd_buf_addf(b, ", %s", pd_verdict_name(d->verdict));
	if (!(r->valid & PD_INFER_HAS_PCT) || d->verdict != PD_VERDICT_INCONCLUSIVE)
		return;
	pd_buf_addf(b, "; this comparison tells changes of %.1f %% or more there", r->mde_pct);
	if (r->baselines_needed)
		pd_buf_addf(b, ", %zu baselines would tell one of %g %%", r->baselines_needed,
			    c->threshold_pct);
}

/* With no finding: "the runs agree" when every delta q covers is the same, else how many
 * are not and the largest (c->delta_order) with its interval. Returns 0 when q covers no
 * delta (the caller's words stand). */
static int no_finding(struct pd_buf *b, const struct pd_comparison *c,
		      const struct pd_question *q)
{
	size_t n = 0, open = 0;
	const struct pd_delta *first = NULL;
	for (size_t i = 0; i < c->n_deltas; i++) {
		const struct pd_delta *d = &c->deltas[c->delta_order[i]];
		if (!covers(c, q, d))
			continue;
		n++;
		if (d->verdict != PD_VERDICT_SAME && !open++)
			first = d;
	}
	if (!n)
		return 0;
	if (!open) {
		pd_buf_adds(b, "no finding: the runs agree within the threshold");
		return 1;
	}
	pd_buf_addf(b,
		    "no finding, but the runs cannot be said to agree: %zu of the %zu judged "
		    "changes %s not the same within the threshold; the largest, ",
		    open, n, open == 1 ? "is" : "are");
	judged(b, c, first);
	return 1;
}

/* Whether an earlier question than q gives advice already. */
static int advised(const struct pd_comparison *c, const struct pd_question *q,
		   const char *advice)
{
	for (const struct pd_question *p = c->questions; p < q; p++)
		if (p->advice && !strcmp(p->advice, advice))
			return 1;
	return 0;
}

/* q's answer in an engineer's words, from its findings' (analyze/tell/words.c), and the first
 * action they imply that no earlier question gives. */
static void answer_words(struct pd_comparison *c, struct pd_question *q, const char *none)
{
	struct pd_buf b = PD_BUF_INIT;
	for (size_t i = 0; i < q->n; i++) {
		const struct pd_finding *f = &c->findings[q->finding[i]];
		pd_buf_addf(&b, "%s%s (finding %zu)", i ? "; " : "", f->words,
			    q->finding[i] + 1);
		if (!q->advice && f->advice && !advised(c, q, f->advice))
			q->advice = pd_xstrdup(f->advice);
	}
	pd_buf_adds(&b, q->n ? "" : none);
	q->words = pd_buf_detach(&b);
}

/* The findings that answer q and its brief, or "not answered" and why. */
static void answer(struct pd_comparison *c, struct pd_question *q)
{
	struct pd_buf b = PD_BUF_INIT, why = PD_BUF_INIT;
	q->answered = !missing(&why, c, q);
	for (size_t i = 0; i < c->n_findings && q->n < PD_QUESTION_MAX_FINDINGS; i++)
		if (answers(c, q, &c->findings[i]))
			q->finding[q->n++] = i;
	for (size_t i = 0; i < q->n; i++) {
		pd_buf_adds(&b, i ? "; " : "");
		pd_findings_story_brief(&b, c, &c->findings[q->finding[i]]);
	}
	q->outcome = PD_OUTCOME_PASS; /* its JUnit testcase: ERROR over FAIL over PASS */
	for (size_t i = 0; i < q->n; i++)
		if (c->findings[q->finding[i]].outcome > q->outcome)
			q->outcome = c->findings[q->finding[i]].outcome;
	if (!q->n && q->answered) {
		if (q->kind == PD_Q_CONNECTIONS_KEPT)
			pd_buf_addf(&b,
				    "no finding: the removed node held a median of fewer than "
				    "%g connections after it left",
				    (double)PD_POLICY_LINGER_MIN);
		else if (q->kind == PD_Q_RECOVERY ? !pd_recovery_no_change(&b, c)
						  : !no_finding(&b, c, q))
			pd_buf_adds(&b, "no finding, and no change judged");
	} else if (!q->n)
		pd_buf_addf(&b, "not answered: %s", why.ptr);
	pd_buf_release(&why);
	q->brief = pd_buf_detach(&b);
	answer_words(c, q, q->brief); /* no finding: the brief is already plain */
}

/* The first services of both runs' nodes. */
static unsigned roles_of(const struct pd_comparison *c)
{
	unsigned roles = 0;
	for (size_t i = 0; i < c->target->n_nodes; i++)
		roles |= c->target->nodes[i].first;
	for (size_t i = 0; i < c->base->n_nodes; i++)
		roles |= c->base->nodes[i].first;
	return roles;
}

/* The questions this event and these roles raise, in reading order. */
static void ask_all(struct pd_comparison *c, const struct pd_timebase *tb)
{
	static const char *const events[] = {[PD_EVENT_NONE] = "event",
					     [PD_EVENT_HARD] = "hard failover",
					     [PD_EVENT_GRACEFUL] = "graceful failover",
					     [PD_EVENT_REBALANCE_OUT] = "rebalance-out",
					     [PD_EVENT_REBALANCE] = "rebalance"};
	const char *ev = events[tb->event], *node = tb->node;
	unsigned roles = roles_of(c);
	ask(c, PD_Q_REQUESTS_LOST, 0, "were requests lost at the %s of %s?", ev,
	    node ? node : "a node");
	/* asked whether or not the node is known: its testcase is there in every comparison */
	ask(c, PD_Q_CONNECTIONS_KEPT, 0,
	    "does the removed node%s%s keep connections after it left?", node ? " " : "",
	    node ? node : "");
	for (unsigned svc = 1; svc < (1u << PD_SVC_COUNT); svc <<= 1)
		if (roles & svc)
			ask(c, PD_Q_ROLE_CHANGE, svc,
			    "what changed on the %s nodes, before and after the %s?",
			    pd_metric_role_label(svc), ev);
	ask(c, PD_Q_CLUSTER_CHANGE, 0,
	    "what changed for the cluster as a whole, before and after the %s?", ev);
	if ((roles & PD_SVC_N1QL) || c->kpi_target.kpi || c->kpi_bases[0].kpi) {
		ask(c, PD_Q_KPI_COUNTS, 0,
		    "what does the throughput KPI count, and did it move?");
		ask(c, PD_Q_RECOVERY, 0, "did the query throughput dip at the %s and recover?",
		    ev);
	}
}

void pd_questions_build(struct pd_comparison *c)
{
	if (!c->has_event)
		return;
	ask_all(c, pd_comparison_event(c));
	for (size_t i = 0; i < c->n_questions; i++)
		answer(c, &c->questions[i]);
}

void pd_questions_free(struct pd_comparison *c)
{
	for (size_t i = 0; i < c->n_questions; i++) {
		free(c->questions[i].label);
		free(c->questions[i].question);
		free(c->questions[i].brief);
		free(c->questions[i].words);
		free(c->questions[i].advice);
	}
	free(c->questions);
	c->questions = NULL;
	c->n_questions = 0;
}
