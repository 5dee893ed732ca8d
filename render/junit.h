/* The JUnit XML that Jenkins' JUnit plugin reads. Pure: appends to a buffer. */
#ifndef PD_JUNIT_H
#define PD_JUNIT_H

#include "render.h"
#include "../core/buf.h"

/* One testcase per question the comparison asks (junit.c), each failing or erring as its
 * outcome says (decided in analyze/: pd_finding.outcome, pd_delta.outcome). Valid against
 * the xunit plugin's junit-10.xsd (fixtures/junit/). */
void pd_junit_xml(struct pd_buf *out, const struct pd_comparison *c,
		  const struct pd_labels *labels);

#endif
