/* Paste-ready summaries: Markdown (GitHub, GitLab) and Jira wiki markup, and the JUnit
 * XML that Jenkins' JUnit plugin reads. Pure: each appends to a buffer. */
#ifndef PD_TEXT_H
#define PD_TEXT_H

#include "summary_json.h"
#include "../core/buf.h"

/* The verdict, the runs and the top findings with their numbers. */
void pd_summary_md(struct pd_buf *out, const struct pd_comparison *c,
		   const struct pd_labels *labels);
void pd_summary_jira(struct pd_buf *out, const struct pd_comparison *c,
		     const struct pd_labels *labels);

/* One testcase per finding (regressions and lingering connections fail, a not-comparable
 * run errors) and one per delta (a regression fails). */
void pd_junit_xml(struct pd_buf *out, const struct pd_comparison *c,
		  const struct pd_labels *labels);

#endif
