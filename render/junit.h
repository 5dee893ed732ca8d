/* The JUnit XML that Jenkins' JUnit plugin reads. Pure: appends to a buffer. */
#ifndef PD_JUNIT_H
#define PD_JUNIT_H

#include "render.h"
#include "../core/buf.h"

/* One testcase per finding and one per delta, each failing or erring as its outcome
 * says (decided in analyze/: pd_finding.outcome, pd_delta.outcome). */
void pd_junit_xml(struct pd_buf *out, const struct pd_comparison *c,
		  const struct pd_labels *labels);

#endif
