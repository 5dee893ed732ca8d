#include "junit.h"
#include "escape.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* One testcase per question the comparison asks: whether the runs compare, the event's
 * questions (runs with an event), and every delta (metric, scope, phase), named without a
 * verdict or a finding's kind, so that the same question keeps its name from build to
 * build and Jenkins' history shows when it starts failing and when it is fixed. A
 * finding that states no delta is a question of its own. Every finding's sentence is in
 * one testcase: a delta's holds those of every finding that states it, the comparability
 * one every reason; no two testcases share a name (Jenkins would keep one). Each testcase
 * holds its sentences and a link to the report; the detail stays there. */

struct tally {
	size_t tests, failures, errors;
};

/* The findings that state a delta besides the one its testcase leads with (its
 * pd_delta.finding): head[k] the first for delta k, next[i] the one after finding i; -1
 * ends. */
struct stated {
	long *head, *next;
};

static struct stated stated_new(const struct pd_comparison *c)
{
	struct stated st = {pd_xmalloc((c->n_deltas + 1) * sizeof(long)),
			    pd_xmalloc((c->n_findings + 1) * sizeof(long))};
	for (size_t k = 0; k < c->n_deltas; k++)
		st.head[k] = -1;
	for (size_t i = c->n_findings; i-- > 0;) {
		long k = c->findings[i].delta;
		st.next[i] = -1;
		if (k >= 0 && c->deltas[k].finding != (long)i)
			st.next[i] = st.head[k], st.head[k] = (long)i;
	}
	return st;
}

static void attr(struct pd_buf *b, const char *name, const char *value)
{
	pd_buf_addf(b, " %s=\"", name);
	pd_esc_xml(b, value);
	pd_buf_addch(b, '"');
}

/* Where the report shows anchor: the report's URL when known, else index.html beside. */
static void link(struct pd_buf *b, const struct pd_labels *l, const char *anchor)
{
	pd_buf_adds(b, "details: ");
	pd_buf_adds(b, l->report_url ? l->report_url : "index.html");
	pd_buf_addf(b, "#%s", anchor);
}

/* A testcase: outcome, its one line (the failure's message too) and the link. */
static void testcase(struct pd_buf *b, struct tally *t, const char *classname, const char *name,
		     enum pd_outcome outcome, const char *line, const char *details)
{
	static const char *const tags[] = {[PD_OUTCOME_PASS] = "system-out",
					   [PD_OUTCOME_FAIL] = "failure",
					   [PD_OUTCOME_ERROR] = "error"};
	t->tests++;
	t->failures += outcome == PD_OUTCOME_FAIL;
	t->errors += outcome == PD_OUTCOME_ERROR;
	pd_buf_adds(b, "    <testcase");
	attr(b, "classname", classname);
	attr(b, "name", name);
	pd_buf_addf(b, "><%s", tags[outcome]);
	if (outcome != PD_OUTCOME_PASS) {
		attr(b, "type", outcome == PD_OUTCOME_FAIL ? "regression" : "not-comparable");
		attr(b, "message", line);
	}
	pd_buf_adds(b, ">");
	pd_esc_xml(b, line);
	pd_buf_adds(b, "\n");
	pd_esc_xml(b, details);
	pd_buf_addf(b, "</%s></testcase>\n", tags[outcome]);
}

/* One line per delta: the change as the verdict read it (a percentage, else the absolute
 * change and for a rate the count), never a NaN. */
static void delta_line(struct pd_buf *b, const struct pd_comparison *c,
		       const struct pd_delta *d)
{
	const struct pd_view *v = &c->views[d->view];
	const struct pd_infer_result *r = &d->inf;
	const struct pd_stated *s = &d->stated;
	pd_buf_addf(b, "%s %s %s: ", v->metric, v->scope.name, pd_phase_name(d->phase));
	if (s->kind == PD_STATED_NONE) {
		pd_buf_adds(b, "no estimate (adjusted ");
	} else {
		pd_buf_adds(b, s->kind == PD_STATED_COUNT ? "" : "mean ");
		pd_render_stated(b, s);
		pd_buf_addf(b, " (%.4g%% CI ", 100 * s->level);
		pd_render_stated_ci(b, s);
		pd_buf_adds(b, ", adjusted ");
	}
	pd_buf_add_p(b, d->p_adj);
	pd_buf_addf(b, "): %s", pd_verdict_name(d->verdict));
	if (d->verdict == PD_VERDICT_INCONCLUSIVE)
		pd_buf_addf(b, " (%s)", pd_infer_reason_name(r->reason));
	if (d->topology)
		pd_buf_adds(b, " (the topology's)");
	else if (!d->gates)
		pd_buf_adds(b, " (a drill-down: its parent's testcase is the question)");
}

/* "metric scope phase" of a delta or a finding. */
static void question_name(struct pd_buf *b, const char *metric, const char *scope,
			  const char *phase)
{
	pd_buf_addf(b, "%s %s %s", metric ? metric : "-", scope ? scope : "-",
		    phase ? phase : "-");
}

static void delta_case(struct pd_buf *b, struct tally *t, const struct pd_comparison *c,
		       size_t k, const struct pd_labels *l, const struct stated *st)
{
	const struct pd_delta *d = &c->deltas[k];
	const struct pd_view *v = &c->views[d->view];
	struct pd_buf name = PD_BUF_INIT, cls = PD_BUF_INIT, line = PD_BUF_INIT,
		      anchor = PD_BUF_INIT, details = PD_BUF_INIT;
	const char *slash = strchr(v->metric, '/');
	question_name(&name, v->metric, v->case_scope, pd_phase_name(d->phase));
	pd_buf_adds(&cls, "perfdelta.");
	pd_buf_add(&cls, v->metric, slash ? (size_t)(slash - v->metric) : strlen(v->metric));
	if (d->finding >= 0)
		pd_buf_adds(&line, c->findings[d->finding].text);
	else
		delta_line(&line, c, d);
	if (d->finding >= 0)
		pd_buf_addf(&anchor, "finding-%ld", d->finding + 1);
	else
		pd_buf_addf(&anchor, "metric-%s", v->metric);
	for (long i = st->head[k]; i >= 0; i = st->next[i])
		pd_buf_addf(&details, "%s\n", c->findings[i].text);
	link(&details, l, anchor.ptr);
	testcase(b, t, cls.ptr, name.ptr, d->outcome, line.ptr, details.ptr);
	pd_buf_release(&name);
	pd_buf_release(&cls);
	pd_buf_release(&line);
	pd_buf_release(&anchor);
	pd_buf_release(&details);
}

/* name, made unique among used (" (2)", " (3)" ... in the findings' order: the baseline's
 * data gaps before the target's, say) and added to it. A few names: a linear search. */
static void unique_name(struct pd_buf *name, struct pd_strv *used)
{
	size_t len = name->len;
	for (int k = 2; pd_strv_find(used, name->ptr) >= 0; k++) {
		pd_buf_truncate(name, len);
		pd_buf_addf(name, " (%d)", k);
	}
	pd_strv_add(used, name->ptr);
}

/* Whether an event question lists finding i: its testcase is that question's. */
static int in_question(const struct pd_comparison *c, size_t i)
{
	for (size_t p = 0; p < c->n_questions; p++)
		for (size_t k = 0; k < c->questions[p].n; k++)
			if (c->questions[p].finding[k] == i)
				return 1;
	return 0;
}

/* The findings no delta states and no question answers (a data gap ...), by metric, scope
 * (a node's role label, as the deltas') and phase; the not-comparable ones are the first
 * question's. Connections left on the removed node, a live node failed over and the like
 * are their question's testcase, which is there whether or not they fire. */
static void finding_cases(struct pd_buf *b, struct tally *t, const struct pd_comparison *c,
			  const struct pd_labels *l)
{
	struct pd_strv used = {0};
	for (size_t i = 0; i < c->n_findings; i++) {
		const struct pd_finding *f = &c->findings[i];
		if (f->kind == PD_FIND_NOT_COMPARABLE || f->delta >= 0 || in_question(c, i))
			continue;
		struct pd_buf name = PD_BUF_INIT, anchor = PD_BUF_INIT, details = PD_BUF_INIT;
		question_name(&name, f->metric,
			      f->view >= 0 ? c->views[f->view].case_scope : f->scope.name,
			      f->has_phase ? pd_phase_name(f->phase) : NULL);
		unique_name(&name, &used);
		pd_buf_addf(&anchor, "finding-%zu", i + 1);
		link(&details, l, anchor.ptr);
		testcase(b, t, "perfdelta.findings", name.ptr, f->outcome, f->text,
			 details.ptr);
		pd_buf_release(&name);
		pd_buf_release(&anchor);
		pd_buf_release(&details);
	}
	pd_strv_free(&used);
}

/* Whether the runs compare: an error naming why not. */
static void comparable_case(struct pd_buf *b, struct tally *t, const struct pd_comparison *c,
			    const struct pd_labels *l)
{
	size_t i = 0;
	while (i < c->n_findings && c->findings[i].kind != PD_FIND_NOT_COMPARABLE)
		i++;
	struct pd_buf details = PD_BUF_INIT;
	for (size_t k = i + 1; k < c->n_findings; k++)
		if (c->findings[k].kind == PD_FIND_NOT_COMPARABLE)
			pd_buf_addf(&details, "%s\n", c->findings[k].text);
	link(&details, l, i < c->n_findings ? "finding-1" : "runs");
	testcase(b, t, "perfdelta.comparison", "the runs are comparable",
		 i < c->n_findings ? PD_OUTCOME_ERROR : PD_OUTCOME_PASS,
		 i < c->n_findings ? c->findings[i].text : "the same workload and settings",
		 details.ptr);
	pd_buf_release(&details);
}

/* The event's questions (analyze/tell/questions.c), each failing when a finding answering it
 * fails; named by what they ask ("questions.role-change.kv"), never by the event's kind,
 * the removed node's address or a position, so that the fix of a test (a graceful failover
 * for a hard one) keeps them; the question itself leads the line, its findings' sentences
 * are the details. */
static void point_cases(struct pd_buf *b, struct tally *t, const struct pd_comparison *c,
			const struct pd_labels *l)
{
	for (size_t p = 0; p < c->n_questions; p++) {
		const struct pd_question *a = &c->questions[p];
		struct pd_buf name = PD_BUF_INIT, line = PD_BUF_INIT, details = PD_BUF_INIT;
		pd_buf_addf(&name, "questions.%s", pd_question_kind_name(a->kind));
		if (a->kind == PD_Q_ROLE_CHANGE)
			pd_buf_addf(&name, ".%s", pd_service_name(a->service));
		pd_buf_addf(&line, "%s %s", a->question, a->words);
		for (size_t k = 0; k < a->n; k++)
			pd_buf_addf(&details, "%s\n", c->findings[a->finding[k]].text);
		link(&details, l, "points");
		testcase(b, t, "perfdelta.questions", name.ptr, a->outcome, line.ptr,
			 details.ptr);
		pd_buf_release(&name);
		pd_buf_release(&line);
		pd_buf_release(&details);
	}
}

void pd_junit_xml(struct pd_buf *out, const struct pd_comparison *c,
		  const struct pd_labels *labels)
{
	struct pd_buf cases = PD_BUF_INIT, what = PD_BUF_INIT;
	struct tally t = {0};
	comparable_case(&cases, &t, c, labels);
	point_cases(&cases, &t, c, labels);
	struct stated st = stated_new(c);
	for (size_t k = 0; k < c->n_deltas; k++)
		delta_case(&cases, &t, c, k, labels, &st);
	free(st.head);
	free(st.next);
	finding_cases(&cases, &t, c, labels);
	pd_buf_addf(
		out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"perfdelta\" "
		"tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n  <testsuite "
		"name=\"perfdelta\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n"
		"    <properties><property name=\"comparison\"",
		t.tests, t.failures, t.errors, t.tests, t.failures, t.errors);
	pd_buf_addf(&what, "%s against %s: %s", labels->target, labels->base,
		    pd_verdict_name(c->verdict));
	for (size_t i = 0; i < c->warnings.n; i++)
		pd_buf_addf(&what, "; warning: %s", c->warnings.v[i]);
	attr(out, "value", what.ptr);
	pd_buf_adds(out, "/>");
	if (labels->report_url) {
		pd_buf_adds(out, "<property name=\"report\"");
		attr(out, "value", labels->report_url);
		pd_buf_adds(out, "/>");
	}
	pd_buf_adds(out, "</properties>\n");
	pd_buf_add(out, cases.ptr, cases.len);
	pd_buf_adds(out, "  </testsuite>\n</testsuites>\n");
	pd_buf_release(&cases);
	pd_buf_release(&what);
}
