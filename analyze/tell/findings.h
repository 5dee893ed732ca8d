/* The ranked findings of a comparison (analyze/tell/findings.c). */
#ifndef PD_ANALYZE_FINDINGS_H
#define PD_ANALYZE_FINDINGS_H

#include "analyze/opts.h"
#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* the ranked findings of c. */
void pd_findings_build(struct pd_comparison *c, const struct pd_compare_opts *opts);

/* The connections the removed node keeps after it left, the one figure the lingering
 * finding and a run's signature state (its median): the post phase of net/ESTABLISHED on
 * the node, on the side of the event (the target's; the baseline's when the event is
 * there); n = 0 without that view or an event. *vi: the view, or -1. */
struct pd_summary pd_findings_left_after(const struct pd_comparison *c, long *vi);

#endif
