#include "junit.h"
#include "escape.h"

#include <string.h>

static void attr(struct pd_buf *b, const char *name, const char *value)
{
	pd_buf_addf(b, " %s=\"", name);
	pd_esc_xml(b, value);
	pd_buf_addch(b, '"');
}

/* A finding's testcase name: kind, metric and scope (and phase), the same from build to
 * build so that Jenkins' history follows it; a second finding of that name gets " #2". */
static void case_name(struct pd_buf *out, const struct pd_comparison *c, size_t i)
{
	const struct pd_finding *f = &c->findings[i];
	size_t same = 0;
	pd_buf_adds(out, pd_finding_kind_name(f->kind));
	if (f->metric)
		pd_buf_addf(out, " %s", f->metric);
	if (f->scope.name)
		pd_buf_addf(out, " %s", f->scope.name);
	if (f->has_phase)
		pd_buf_addf(out, " %s", pd_phase_name(f->phase));
	for (size_t j = 0; j < i; j++) {
		const struct pd_finding *g = &c->findings[j];
		same += g->kind == f->kind && g->has_phase == f->has_phase &&
			(!f->has_phase || g->phase == f->phase) &&
			!strcmp(g->metric ? g->metric : "", f->metric ? f->metric : "") &&
			!strcmp(g->scope.name ? g->scope.name : "",
				f->scope.name ? f->scope.name : "");
	}
	if (same)
		pd_buf_addf(out, " #%zu", same + 1);
}

static void finding_case(struct pd_buf *b, const struct pd_comparison *c, size_t i)
{
	static const char *const tags[] = {[PD_OUTCOME_PASS] = "system-out",
					   [PD_OUTCOME_FAIL] = "failure",
					   [PD_OUTCOME_ERROR] = "error"};
	const struct pd_finding *f = &c->findings[i];
	struct pd_buf name = PD_BUF_INIT;
	case_name(&name, c, i);
	pd_buf_adds(b, "    <testcase classname=\"perfdelta.findings\"");
	attr(b, "name", name.ptr);
	pd_buf_release(&name);
	pd_buf_addf(b, "><%s", tags[f->outcome]);
	if (f->outcome != PD_OUTCOME_PASS) {
		attr(b, "type",
		     f->outcome == PD_OUTCOME_FAIL ? "regression" : "not-comparable");
		attr(b, "message", f->text);
	}
	pd_buf_adds(b, ">");
	pd_esc_xml(b, f->text);
	pd_buf_addf(b, "</%s></testcase>\n", tags[f->outcome]);
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
		pd_buf_adds(b, "no estimate (");
	} else {
		pd_buf_adds(b, s->kind == PD_STATED_COUNT ? "" : "mean ");
		pd_render_stated(b, s);
		pd_buf_addf(b, " (%.4g%% CI ", 100 * s->level);
		pd_render_stated_ci(b, s);
	}
	pd_buf_adds(b, ", adjusted ");
	pd_buf_add_p(b, d->p_adj);
	pd_buf_addf(b, "): %s", pd_verdict_name(d->verdict));
	if (d->verdict == PD_VERDICT_INCONCLUSIVE)
		pd_buf_addf(b, " (%s)", pd_infer_reason_name(r->reason));
	if (d->topology)
		pd_buf_adds(b, " (the topology's)");
	pd_buf_addch(b, '\n');
}

/* The findings, one testcase each, and one testcase that lists every delta (each delta a
 * testcase would bury the few problems under hundreds of passes). */
static void junit_findings(struct pd_buf *b, const struct pd_comparison *c)
{
	size_t fails = 0, errors = 0;
	for (size_t i = 0; i < c->n_findings; i++) {
		fails += c->findings[i].outcome == PD_OUTCOME_FAIL;
		errors += c->findings[i].outcome == PD_OUTCOME_ERROR;
	}
	pd_buf_addf(b,
		    "  <testsuite name=\"perfdelta.findings\" tests=\"%zu\" failures=\"%zu\" "
		    "errors=\"%zu\">\n",
		    c->n_findings + 1, fails, errors);
	for (size_t i = 0; i < c->n_findings; i++)
		finding_case(b, c, i);
	struct pd_buf all = PD_BUF_INIT;
	for (size_t i = 0; i < c->n_deltas; i++)
		delta_line(&all, c, &c->deltas[i]);
	pd_buf_adds(b, "    <testcase classname=\"perfdelta.deltas\" name=\"every delta\">"
		       "<system-out>");
	pd_esc_xml(b, all.ptr);
	pd_buf_adds(b, "</system-out></testcase>\n  </testsuite>\n");
	pd_buf_release(&all);
}

void pd_junit_xml(struct pd_buf *out, const struct pd_comparison *c,
		  const struct pd_labels *labels)
{
	pd_buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	attr(out, "name", "perfdelta");
	struct pd_buf what = PD_BUF_INIT;
	pd_buf_addf(&what, "%s against %s: %s", labels->target, labels->base,
		    pd_verdict_name(c->verdict));
	for (size_t i = 0; i < c->warnings.n; i++)
		pd_buf_addf(&what, "; warning: %s", c->warnings.v[i]);
	attr(out, "description", what.ptr);
	pd_buf_release(&what);
	pd_buf_adds(out, ">\n");
	junit_findings(out, c);
	pd_buf_adds(out, "</testsuites>\n");
}
