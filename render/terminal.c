#include "terminal.h"
#include "escape.h"

/* Appends s escaped for the terminal. */
static void esc(struct pd_buf *b, const char *s)
{
	pd_esc_text(b, s);
}

/* The event's questions, each with its answer in words and what to do. */
static void points(struct pd_buf *b, const struct pd_comparison *c)
{
	if (!c->n_questions)
		return;
	pd_buf_adds(b, "the questions of this event:\n");
	for (size_t p = 0; p < c->n_questions; p++) {
		const struct pd_question *a = &c->questions[p];
		struct pd_buf t = PD_BUF_INIT;
		pd_buf_addf(&t, "%s %s", a->question, a->words);
		pd_buf_addf(b, "  %-3s ", a->label);
		esc(b, t.ptr);
		pd_buf_addch(b, '\n');
		if (a->advice) {
			pd_buf_adds(b, "      to do: ");
			esc(b, a->advice);
			pd_buf_addch(b, '\n');
		}
		pd_buf_release(&t);
	}
}

/* A run's notes and undecoded parts (summary.json's), "note (baseline 2): ..." */
static void run_notes(struct pd_buf *b, const struct pd_run *run, const char *who, size_t k)
{
	const struct pd_strv *v[2] = {&run->notes, &run->undecoded};
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < v[l]->n; i++) {
			pd_buf_addf(b, "%s (%s", l ? "undecoded" : "note", who);
			if (k)
				pd_buf_addf(b, " %zu", k);
			pd_buf_adds(b, "): ");
			esc(b, v[l]->v[i]);
			pd_buf_addch(b, '\n');
		}
}

void pd_terminal_summary(struct pd_buf *b, const struct pd_comparison *c, const char *report,
			 int is_file)
{
	pd_buf_addf(b, "verdict: %s (", pd_verdict_name(c->verdict));
	pd_buf_add_count(b, c->n_deltas, "delta", NULL);
	pd_buf_adds(b, ", ");
	pd_buf_add_count(b, c->n_findings, "finding", NULL);
	pd_buf_addf(b, "; threshold %.1f%%)\n", c->threshold_pct);
	for (size_t i = 0; i < c->warnings.n; i++) {
		pd_buf_adds(b, "warning: ");
		esc(b, c->warnings.v[i]);
		pd_buf_addch(b, '\n');
	}
	for (size_t j = 0; j < c->n_bases; j++) /* "baseline", "baseline 2", as summary.md */
		run_notes(b, c->bases[j], "baseline", j ? j + 1 : 0);
	run_notes(b, c->target, "target", 0);
	points(b, c);
	for (size_t i = 0; i < c->n_top; i++) {
		pd_buf_addf(b, "  %zu. [%s] ", i + 1,
			    pd_finding_kind_name(c->findings[i].kind));
		esc(b, c->findings[i].text);
		pd_buf_addch(b, '\n');
	}
	if (c->n_findings > c->n_top)
		pd_buf_addf(b, "  ... %zu more in the report\n", c->n_findings - c->n_top);
	/* the statistics, below the answers: one sentence, docs/report.md for the rest */
	pd_buf_adds(b, "judged: ");
	esc(b, c->judged);
	pd_buf_adds(b, " (docs/report.md explains the method)\n");
	if (is_file)
		pd_buf_addf(b, "report: %s\n", report);
	else
		pd_buf_addf(b,
			    "report: %s/index.html (summary.json, junit.xml, summary.md, "
			    "summary.jira beside it)\n",
			    report);
}
