/* Every output of `perfdelta compare`, written into one directory atomically:
 * index.html, the charts, summary.json, junit.xml, summary.md, summary.jira. */
#ifndef PD_REPORT_H
#define PD_REPORT_H

#include "summary_json.h"
#include "../core/err.h"

struct pd_report_opts {
	const char *out; /* a directory, or with single_file a path ending in .html */
	struct pd_labels labels;
	int single_file; /* charts inlined into index.html, no charts/ */
	int progress;    /* say on stderr what is being done */
};

/* 1 when o->out names one HTML file rather than a directory. */
int pd_report_is_file(const struct pd_report_opts *o);

/* Writes every output for c. On failure nothing is left behind and an existing output
 * is as it was. */
int pd_report_write(const struct pd_comparison *c, const struct pd_report_opts *o,
		    struct pd_err *err);

#endif
