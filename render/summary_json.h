/* summary.json: the contract with scripts and tests (docs/summary-json.md). */
#ifndef PD_SUMMARY_JSON_H
#define PD_SUMMARY_JSON_H

#include "render.h"
#include "../core/buf.h"

/* Appends summary.json for c to out: keys in a fixed order, numbers the shortest that
 * read back, so equal inputs give equal bytes. */
void pd_summary_json(struct pd_buf *out, const struct pd_comparison *c,
		     const struct pd_labels *labels);

#endif
