/* summary.json: the contract with scripts and tests (DESIGN section 5). */
#ifndef PD_SUMMARY_JSON_H
#define PD_SUMMARY_JSON_H

#include "../analyze/compare.h"
#include "../core/buf.h"

/* Labels of the two runs as the user or the inputs name them. */
struct pd_labels {
	const char *base, *target;
};

/* A run's label: the flag, else Jenkins' full display name, else the bundle path. */
const char *pd_run_label(const struct pd_run *run, const char *flag);

/* Appends summary.json for c to out: keys in a fixed order, numbers the shortest that
 * read back, so equal inputs give equal bytes. */
void pd_summary_json(struct pd_buf *out, const struct pd_comparison *c,
		     const struct pd_labels *labels);

#endif
