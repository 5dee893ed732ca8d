/* The findings of the ticket's story (docs/report.md "Finding kinds"), made from story.c's
 * primitives: event-errors (the requests that failed at the event), hard-failover-live-node
 * (a hard failover of a node that was still serving) and kpi-change (the throughput KPI
 * from run to run, beside what the series served, the KPI rule that explains the gap and
 * Little's law), and the short answer a finding gives to a question (analyze/tell/questions.c).
 */
#ifndef PD_FINDINGS_STORY_H
#define PD_FINDINGS_STORY_H

#include "analyze/opts.h"
#include "tree/tree.h"
#include "core/buf.h"

/* Appends the story's findings to c, each with its outcome (event-errors: FAIL when the
 * errors rose; hard-failover-live-node: PASS, a test-procedure issue; kpi-change: FAIL
 * only when the served rate fell past the threshold too). Called by pd_findings_build
 * after the other findings have their outcomes and before the ranking. A shift of the errors
 * or slow queries that an event-errors finding states again is dropped. Returns the index
 * of the first finding it appended. */
size_t pd_findings_story(struct pd_comparison *c);

/* Appends a short answer from finding f of c: a few words with its numbers and
 * " (finding N)". */
void pd_findings_story_brief(struct pd_buf *b, const struct pd_comparison *c,
			     const struct pd_finding *f);

#endif
