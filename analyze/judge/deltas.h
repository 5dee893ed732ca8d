/* The deltas of a comparison (analyze/judge/deltas.c), each judged. */
#ifndef PD_ANALYZE_DELTAS_H
#define PD_ANALYZE_DELTAS_H

#include "analyze/opts.h"
#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* one delta per (view, window) with enough samples on both sides (10), each
 * judged by analyze/stats/infer.h in its phase's family (drill-downs marked, not counted). */
void pd_deltas_compute(struct pd_comparison *c, const struct pd_compare_opts *opts);

#endif
