/* The history report (perfdelta history report): index.html with an external stylesheet
 * (Jenkins' Content-Security-Policy allows no inline style or script), one chart per
 * feature with a change point, summary.json (docs/history.md) and junit.xml for the
 * newest run. Text builders are pure: they render what analyze/stats/history.c decided. */
#ifndef PD_HISTORY_REPORT_H
#define PD_HISTORY_REPORT_H

#include "../tree/history.h"
#include "../core/buf.h"
#include "plot.h"

#include <stddef.h>

/* One run of the history, in build order. Strings borrowed. */
struct pd_hist_run {
	const char *key;     /* "job#number" */
	const char *version; /* "7.1.0-1345", or NULL */
	const char *bundle;  /* where the store says it was read from, or NULL */
	long number;         /* its Jenkins build number, 0 when none */
};

/* How the report names a run: by build and run, since one build is often run more than
 * once: "7.1.0-1345 #12081" (the Jenkins build number), else "7.1.0-1345 (key)", else
 * the key. */
void pd_hist_run_name(struct pd_buf *b, const struct pd_hist_run *run);

struct pd_hist_report {
	const char *test;
	const struct pd_history *h;
	const char *const *names;       /* h->n_features */
	const double *values;           /* [run * n_features + feature], NaN: absent */
	const struct pd_hist_run *runs; /* h->n_runs, the newest window */
	size_t n_stored;                /* the test's runs in the store */
	double alpha;                   /* family-wise */
	const char *db; /* the store, as its compare commands name it (no credentials);
			   NULL: they name none */
};

/* The stylesheet the page links (style.css). */
extern const char pd_hist_css[];

/* The file name of the chart of feature f: "f<f>.svg". */
void pd_hist_chart_name(struct pd_buf *b, size_t f);
/* Scripts onto job the chart of every feature with a change point, into dir. */
void pd_hist_charts(struct pd_plot_job *job, const struct pd_hist_report *r, const char *dir);
void pd_hist_html(struct pd_buf *b, const struct pd_hist_report *r);
/* The terminal's lines: one a change point, largest first (the first n_top, then how
 * many more), each naming its runs and the
 * command that compares them (not escaped: the caller escapes each line for the terminal). */
void pd_hist_terminal(struct pd_buf *b, const struct pd_hist_report *r);
void pd_hist_summary_json(struct pd_buf *b, const struct pd_hist_report *r);
/* A testcase per tested feature; it fails when a change point starts among the newest
 * min_size runs (history.h: recent), unless it went the feature's better way. */
void pd_hist_junit(struct pd_buf *b, const struct pd_hist_report *r);

#endif
