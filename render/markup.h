/* Paste-ready summaries: Markdown (GitHub, GitLab) and Jira wiki markup. Pure: each
 * appends to a buffer. */
#ifndef PD_MARKUP_H
#define PD_MARKUP_H

#include "render.h"
#include "../core/buf.h"

/* The verdict, the runs and the top findings with their numbers, then the regressions
 * and improvements at the broader scopes as a table. */
void pd_markup_md(struct pd_buf *out, const struct pd_comparison *c,
		  const struct pd_labels *labels);
void pd_markup_jira(struct pd_buf *out, const struct pd_comparison *c,
		    const struct pd_labels *labels);

#endif
