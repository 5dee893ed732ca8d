#include "junit.h"
#include "escape.h"

static void attr(struct pd_buf *b, const char *name, const char *value)
{
	pd_buf_addf(b, " %s=\"", name);
	pd_esc_xml(b, value);
	pd_buf_addch(b, '"');
}

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
		    c->n_findings, fails, errors);
	for (size_t i = 0; i < c->n_findings; i++) {
		const struct pd_finding *f = &c->findings[i];
		struct pd_buf name = PD_BUF_INIT;
		pd_buf_addf(&name, "%02zu %s %s %s", i + 1, pd_finding_kind_name(f->kind),
			    f->metric ? f->metric : "", f->scope.name ? f->scope.name : "");
		pd_buf_adds(b, "    <testcase classname=\"perfdelta.findings\"");
		attr(b, "name", name.ptr);
		pd_buf_release(&name);
		pd_buf_adds(b, ">");
		static const char *const tags[] = {[PD_OUTCOME_PASS] = "system-out",
						   [PD_OUTCOME_FAIL] = "failure",
						   [PD_OUTCOME_ERROR] = "error"};
		const char *tag = tags[f->outcome];
		pd_buf_addf(b, "<%s", tag);
		if (f->outcome != PD_OUTCOME_PASS) {
			attr(b, "type", pd_finding_kind_name(f->kind));
			attr(b, "message", f->text);
		}
		pd_buf_adds(b, ">");
		pd_esc_xml(b, f->text);
		pd_buf_addf(b, "</%s></testcase>\n", tag);
	}
	pd_buf_adds(b, "  </testsuite>\n");
}

static void junit_deltas(struct pd_buf *b, const struct pd_comparison *c)
{
	size_t fails = 0;
	for (size_t i = 0; i < c->n_deltas; i++)
		fails += c->deltas[i].outcome == PD_OUTCOME_FAIL;
	pd_buf_addf(b,
		    "  <testsuite name=\"perfdelta.deltas\" tests=\"%zu\" failures=\"%zu\">\n",
		    c->n_deltas, fails);
	for (size_t i = 0; i < c->n_deltas; i++) {
		const struct pd_delta *d = &c->deltas[i];
		const struct pd_view *v = &c->views[d->view];
		struct pd_buf name = PD_BUF_INIT, msg = PD_BUF_INIT;
		pd_buf_addf(&name, "%s %s", v->scope.name, pd_phase_name(d->phase));
		pd_buf_addf(&msg, "median %+.1f%% (95%% CI %+.1f%% to %+.1f%%, p %.2g): %s",
			    d->delta_pct, d->ci_lo, d->ci_hi, d->p_adj,
			    pd_verdict_name(d->verdict));
		pd_buf_adds(b, "    <testcase");
		attr(b, "classname", v->metric);
		attr(b, "name", name.ptr);
		if (d->outcome == PD_OUTCOME_FAIL) {
			pd_buf_adds(b, "><failure type=\"regression\"");
			attr(b, "message", msg.ptr);
			pd_buf_adds(b, "/></testcase>\n");
		} else {
			pd_buf_adds(b, "><system-out>");
			pd_esc_xml(b, msg.ptr);
			pd_buf_adds(b, "</system-out></testcase>\n");
		}
		pd_buf_release(&name);
		pd_buf_release(&msg);
	}
	pd_buf_adds(b, "  </testsuite>\n");
}

void pd_junit_xml(struct pd_buf *out, const struct pd_comparison *c,
		  const struct pd_labels *labels)
{
	pd_buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	attr(out, "name", "perfdelta");
	struct pd_buf what = PD_BUF_INIT;
	pd_buf_addf(&what, "%s against %s: %s", labels->target, labels->base,
		    pd_verdict_name(c->verdict));
	attr(out, "description", what.ptr);
	pd_buf_release(&what);
	pd_buf_adds(out, ">\n");
	junit_findings(out, c);
	junit_deltas(out, c);
	pd_buf_adds(out, "</testsuites>\n");
}
