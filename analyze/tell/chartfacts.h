/* What the charts show (analyze/tell/chartfacts.c), decided once for every renderer. */
#ifndef PD_ANALYZE_CHARTFACTS_H
#define PD_ANALYZE_CHARTFACTS_H

#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* what the charts show, decided once for every renderer. _views: each
 * view's pd_view.zero and .one_run (after the views); _findings: each finding's
 * pd_finding.chart, and a difference over time without a finite point dropped (smooth_pct NULL:
 * no empty chart), after the findings are ranked and smoothed. */
void pd_chartfacts_views(struct pd_comparison *c);
void pd_chartfacts_findings(struct pd_comparison *c);

#endif
