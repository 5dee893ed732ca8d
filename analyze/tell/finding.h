/* The one constructor of a finding, with the one table that ranks findings, and the words
 * every finding uses of the runs before the event; below the stages that make findings
 * (findings.c, findings_story.c, recovery.c), which all call it. */
#ifndef PD_ANALYZE_FINDING_H
#define PD_ANALYZE_FINDING_H

#include "analyze/opts.h"
#include "tree/tree.h"
#include "core/buf.h"

/* The one finding constructor: appends a finding of kind about metric (NULL:
 * none) at scope (NULL: none), shown by view vi (-1: none), scored by this file's one
 * weight table (its kind's weight plus size, capped for the kind); NaN delta and value,
 * zero numbers: the caller fills the rest. */
struct pd_finding *pd_finding_add(struct pd_comparison *c, enum pd_finding_kind kind,
				  const char *metric, const struct pd_scope_ref *scope, long vi,
				  double size);

/* What a post-event-mismatch says of the runs before the event (pre: its
 * pre-phase delta, NULL: none): "the runs agreed" when that delta is the same, "the runs
 * differed only by their topology", or, when only the within-run interval agrees (one
 * baseline: a run offset is the two runs' in every phase, infer.h "Verdicts"), "the runs
 * differed by -2.5%, within a run's own noise (inconclusive against the run-to-run
 * margin)": never "agreed" beside a pre row the Changes table calls inconclusive. */
void pd_finding_pre_words(struct pd_buf *b, const struct pd_delta *pre);

#endif
