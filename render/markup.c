#include "markup.h"
#include "escape.h"
#include "render.h"

#include <math.h>
#include <string.h>

/* A lightweight markup: how it writes a heading, bold and a table. Findings are numbered
 * by hand ("13. "), as the HTML and summary.json number them, in both markups: a raw paste
 * that cites "(finding 13)" can then be followed (Markdown's "1." on every item renders
 * the same but reads 1, 1, 1 raw; Jira's "#" numbers only when rendered). */
struct markup {
	const char *h2, *bold;
	const char *code_open, *code_close;            /* monospace: a finding's kind */
	const char *link_open, *link_sep, *link_close; /* [text](url), [text|url] */
	const char *th_open, *th_sep, *th_close, *rule;
	const char *td_open, *td_sep, *td_close;
	void (*esc)(struct pd_buf *b, const char *s);
};

static const struct markup md = {
	.h2 = "## ",
	.bold = "**",
	.code_open = "`",
	.code_close = "`",
	.link_open = "[",
	.link_sep = "](",
	.link_close = ")",
	.th_open = "| ",
	.th_sep = " | ",
	.th_close = " |\n",
	.rule = "|---|---|---|---|---|\n",
	.td_open = "| ",
	.td_sep = " | ",
	.td_close = " |\n",
	.esc = pd_esc_md,
};
static const struct markup jira = {
	.h2 = "h2. ",
	.bold = "*",
	.code_open = "{{",
	.code_close = "}}",
	.link_open = "[",
	.link_sep = "|",
	.link_close = "]",
	.th_open = "|| ",
	.th_sep = " || ",
	.th_close = " ||\n",
	.rule = "",
	.td_open = "| ",
	.td_sep = " | ",
	.td_close = " |\n",
	.esc = pd_esc_jira,
};

static void run_line(struct pd_buf *b, const struct markup *m, const char *what,
		     const struct pd_run *run, const char *label)
{
	pd_buf_addf(b, "%s%s%s: ", m->bold, what, m->bold);
	m->esc(b, label);
	if (pd_run_snapshot(run)) {
		pd_buf_adds(b, ", snapshot ");
		m->esc(b, pd_run_snapshot(run));
	}
	for (size_t i = 0; i < run->n_kpis; i++) {
		pd_buf_adds(b, ", KPI ");
		m->esc(b, run->kpis[i].metric);
		pd_buf_addf(b, " = %.1f", run->kpis[i].value);
	}
	pd_buf_addf(b, ", %zu nodes\n\n", run->n_nodes);
	/* what the run lacks or how it was read (summary.json notes, undecoded): a missing
	 * part is said where the summary is pasted, not only in the report */
	const struct pd_strv *v[2] = {&run->notes, &run->undecoded};
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < v[l]->n; i++) {
			pd_buf_addf(b, "%s%s %s%s: ", m->bold, what, l ? "undecoded" : "note",
				    m->bold);
			m->esc(b, v[l]->v[i]);
			pd_buf_adds(b, "\n\n");
		}
}

/* The event's questions (analyze/tell/questions.c), each with its short answer. */
static void points(struct pd_buf *b, const struct markup *m, const struct pd_comparison *c)
{
	if (!c->n_questions)
		return;
	pd_buf_addf(b, "%sThe questions of this event%s:\n\n", m->bold, m->bold);
	for (size_t p = 0; p < c->n_questions; p++) {
		const struct pd_question *a = &c->questions[p];
		struct pd_buf t = PD_BUF_INIT;
		pd_buf_addf(&t, "%s %s %s", a->label, a->question, a->words);
		pd_buf_adds(b, "- ");
		m->esc(b, t.ptr);
		if (a->advice) {
			pd_buf_addf(b, " %sTo do:%s ", m->bold, m->bold);
			m->esc(b, a->advice);
		}
		pd_buf_addch(b, '\n');
		pd_buf_release(&t);
	}
	pd_buf_addch(b, '\n');
}

/* A URL a link can hold as it is: http(s), none of the characters that would end the
 * link in either markup. */
static int plain_url(const char *u)
{
	return (!strncmp(u, "http://", 7) || !strncmp(u, "https://", 8)) &&
	       !u[strcspn(u, " \t\r\n<>()[]|\"'`\\{}")];
}

/* "Report: <link>" when the report's URL is known. */
static void report_link(struct pd_buf *b, const struct markup *m, const char *url)
{
	if (!url)
		return;
	if (!plain_url(url)) {
		pd_buf_adds(b, "Report: ");
		m->esc(b, url);
		pd_buf_adds(b, "\n\n");
		return;
	}
	pd_buf_addf(b, "Report: %sthe full report%s%s%s\n\n", m->link_open, m->link_sep, url,
		    m->link_close);
}

static void summary(struct pd_buf *b, const struct markup *m, const struct pd_comparison *c,
		    const struct pd_labels *l)
{
	pd_buf_addf(b, "%sperfdelta: ", m->h2);
	m->esc(b, l->target);
	pd_buf_adds(b, " against ");
	m->esc(b, l->base);
	pd_buf_addf(b, "\n\nVerdict: %s%s%s (threshold %.1f%%, ", m->bold,
		    pd_verdict_name(c->verdict), m->bold, c->threshold_pct);
	pd_buf_add_count(b, c->n_deltas, "delta", NULL);
	pd_buf_adds(b, "; how they were judged: at the end)\n\n");
	report_link(b, m, l->report_url);
	for (size_t i = 0; i < c->warnings.n; i++) {
		pd_buf_addf(b, "%sWarning%s: ", m->bold, m->bold);
		m->esc(b, c->warnings.v[i]);
		pd_buf_adds(b, "\n\n");
	}
	run_line(b, m, "Baseline", c->base, l->base);
	for (size_t j = 1; j < c->n_bases; j++) {
		struct pd_buf what = PD_BUF_INIT;
		pd_buf_addf(&what, "Baseline %zu", j + 1);
		run_line(b, m, what.ptr, c->bases[j], pd_render_label(c->bases[j], NULL));
		pd_buf_release(&what);
	}
	run_line(b, m, "Target", c->target, l->target);
	if (c->has_event) {
		const struct pd_timebase *tb = pd_comparison_event(c);
		pd_buf_addf(b, "%sEvent%s: %s of ", m->bold, m->bold,
			    pd_timebase_event_name(tb->event));
		m->esc(b, tb->node ? tb->node : "an unknown node");
		pd_buf_addf(b, " at %.1f s (from %s%s)\n\n", c->event_t_s,
			    pd_timebase_source_name(tb->event_source),
			    c->event_side < 0 ? ", in the baseline" : "");
	}
	points(b, m, c);
	pd_buf_addf(b, "%sFindings%s (%zu, most important first):\n\n", m->bold, m->bold,
		    c->n_findings);
	for (size_t i = 0; i < c->n_top; i++) {
		pd_buf_addf(b, "%zu. %s%s%s ", i + 1, m->code_open,
			    pd_finding_kind_name(c->findings[i].kind), m->code_close);
		m->esc(b, c->findings[i].text);
		pd_buf_addch(b, '\n');
	}
	if (c->n_findings > c->n_top)
		pd_buf_addf(b, "\n%zu more in the report (index.html, summary.json)\n",
			    c->n_findings - c->n_top);
	if (!c->n_findings)
		pd_buf_adds(b, "none\n");
}

/* Appends v with its unit, escaped for the markup. */
static void esc_unit(struct pd_buf *b, const struct markup *m, double v, enum pd_unit u)
{
	struct pd_buf x = PD_BUF_INIT;
	pd_unit_add(&x, v, u);
	m->esc(b, x.ptr);
	pd_buf_release(&x);
}

/* The regressions and improvements at the broadest scopes, as a table. */
static void table(struct pd_buf *b, const struct markup *m, const struct pd_comparison *c)
{
	int header = 0;
	for (size_t i = 0; i < c->n_deltas; i++) {
		const struct pd_delta *d = &c->deltas[i];
		const struct pd_view *v = &c->views[d->view];
		if (!d->headline)
			continue;
		if (!header++)
			pd_buf_addf(b,
				    "\n%smetric%sscope%sphase%sbaseline → target "
				    "(means)%schange%s%s",
				    m->th_open, m->th_sep, m->th_sep, m->th_sep, m->th_sep,
				    m->th_close, m->rule);
		pd_buf_adds(b, m->td_open);
		m->esc(b, v->metric);
		pd_buf_adds(b, m->td_sep);
		m->esc(b, v->scope.name);
		pd_buf_addf(b, "%s%s%s", m->td_sep, pd_phase_name(d->phase), m->td_sep);
		esc_unit(b, m, d->stated.base, v->unit);
		pd_buf_adds(b, " → ");
		esc_unit(b, m, d->stated.target, v->unit);
		struct pd_buf t = PD_BUF_INIT;
		pd_render_stated(&t, &d->stated);
		pd_buf_adds(b, m->td_sep);
		pd_buf_adds(b, t.ptr); /* digits, a sign, % or "events": nothing to escape */
		pd_buf_addf(b, " (%s)%s", pd_verdict_name(d->verdict), m->td_close);
		pd_buf_release(&t);
	}
}

/* The statistics, below the answers: one sentence, docs/report.md for the rest. */
static void method(struct pd_buf *b, const struct markup *m, const struct pd_comparison *c)
{
	struct pd_buf t = PD_BUF_INIT;
	pd_buf_addf(
		&t,
		"How the changes were judged: %s; method: %s; family: %s (docs/report.md in "
		"perfdelta explains the method).",
		c->judged, c->method, c->family);
	pd_buf_addch(b, '\n');
	m->esc(b, t.ptr);
	pd_buf_addch(b, '\n');
	pd_buf_release(&t);
}

void pd_markup_md(struct pd_buf *out, const struct pd_comparison *c,
		  const struct pd_labels *labels)
{
	summary(out, &md, c, labels);
	table(out, &md, c);
	method(out, &md, c);
}

void pd_markup_jira(struct pd_buf *out, const struct pd_comparison *c,
		    const struct pd_labels *labels)
{
	summary(out, &jira, c, labels);
	table(out, &jira, c);
	method(out, &jira, c);
}
