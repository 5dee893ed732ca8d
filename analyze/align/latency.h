/* The runs' latency distributions and percentiles (analyze/align/latency.c). */
#ifndef PD_ANALYZE_LATENCY_H
#define PD_ANALYZE_LATENCY_H

#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* c->latency, the runs' latency distributions where they have them (after the
 * phases). */
void pd_latency_build(struct pd_comparison *c);
/* c->latency_pct, the percentiles of the per-request latency collectors'
 * samples per metric and phase (after the phases); _free releases them. */
void pd_latency_pct_build(struct pd_comparison *c);
void pd_latency_pct_free(struct pd_comparison *c);

#endif
