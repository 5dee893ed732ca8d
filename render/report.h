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

/* Starts the report o asks for before the comparison (of about n_series series a run) is
 * made: makes the output directory and starts gnuplot, one per core, which starts up
 * while the views are computed. pd_report_begin follows, or pd_report_abort. */
int pd_report_start(struct pd_report **r, const struct pd_report_opts *o, size_t n_series,
		    struct pd_err *err);

/* Begins the report r of c as soon as its views and phases exist (pd_compare_views): gives
 * gnuplot the per-metric charts, which it draws while the caller computes the statistics.
 * c must stay in place until pd_report_finish. On failure r is freed, nothing is left
 * behind and an existing output is as it was. */
int pd_report_begin(struct pd_report *r, const struct pd_comparison *c, struct pd_err *err);

/* Ends a report that will not be finished: gnuplot is stopped, nothing is left behind and
 * an existing output is as it was; r is freed (NULL: nothing). */
void pd_report_abort(struct pd_report *r);

/* Finishes r once c is measured (pd_compare_measure): the finding charts, the summaries,
 * index.html, and the output put in place; r is freed. On failure nothing is left behind
 * and an existing output is as it was. */
int pd_report_finish(struct pd_report *r, struct pd_err *err);

#endif
