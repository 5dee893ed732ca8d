/* Every output of `perfdelta compare`, written into one directory atomically:
 * index.html, the charts, summary.json, junit.xml, summary.md, summary.jira. */
#ifndef PD_REPORT_H
#define PD_REPORT_H

#include "summary_json.h"
#include "../tree/tree.h"
#include "../core/err.h"

struct pd_report_opts {
	const char *out; /* a directory, or a path ending in .html for one file */
	struct pd_labels labels;
	int single_file;          /* charts inlined into index.html, no charts/ */
	int progress;             /* say on stderr what is being done */
	double gnuplot_timeout_s; /* gnuplot is ended after this long without progress */
};

/* 1 when o->out names one HTML file rather than a directory (a path ending in .html:
 * the charts are inlined then, with or without single_file). The file ends with
 * PD_OUTDIR_FILE_MARK, so that only a page perfdelta wrote is ever replaced. */
int pd_report_is_file(const struct pd_report_opts *o);

/* A report being written: its output directory and the gnuplot runs drawing into it. */
struct pd_report;

/* Begins the report of c as soon as its views and phases exist (pd_compare_views): makes
 * the output directory and starts gnuplot on the per-metric charts, which draws while
 * the caller computes the statistics. c must stay in place until pd_report_finish. */
int pd_report_begin(struct pd_report **r, const struct pd_comparison *c,
		    const struct pd_report_opts *o, struct pd_err *err);

/* Finishes r once c is measured (pd_compare_measure): the finding charts, the summaries,
 * index.html, and the output put in place; r is freed. On failure nothing is left behind
 * and an existing output is as it was. */
int pd_report_finish(struct pd_report *r, struct pd_err *err);

#endif
