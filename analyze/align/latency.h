/* The runs' latency distributions and percentiles (analyze/align/latency.c). */
#ifndef PD_ANALYZE_LATENCY_H
#define PD_ANALYZE_LATENCY_H

#include "analyze/runs/story.h"
#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* c->latency, the runs' latency distributions where they have them (after the
 * phases). */
void pd_latency_build(struct pd_comparison *c);
/* n1ql's cluster views of the requests slower than each of pd_story_slow_ms's bounds into
 * views[k] (-1: none, or a grid other than the total's), and the total's
 * (n1ql_stats/query_requests) as the result (-1: none; then every views[k] is -1). The one
 * walk the latency chart's and the tails' slow shares read. */
long pd_latency_slow_views(const struct pd_comparison *c, long views[PD_STORY_N_SLOW]);
/* c->latency_pct, the percentiles of the per-request latency collectors'
 * samples per metric and phase (after the phases); _free releases them. */
void pd_latency_pct_build(struct pd_comparison *c);
void pd_latency_pct_free(struct pd_comparison *c);

#endif
