/* The slow-request shares of a comparison's phase (analyze/stats/tails.h computes each
 * share and its change; this reads them from n1ql's cluster views). */
#ifndef PD_ANALYZE_TAILS_SLOW_H
#define PD_ANALYZE_TAILS_SLOW_H

#include "analyze/runs/story.h"
#include "analyze/stats/tails.h"
#include "tree/tree.h"

/* One bound's shares of a comparison's phase: n1ql's cluster-wide rates of the requests
 * slower than bound_ms (n1ql_stats/query_requests_<bound>ms) over all requests
 * (n1ql_stats/query_requests), baseline and target, and their change at z. */
struct pd_tails_slow {
	int bound_ms; /* one of pd_story_slow_ms */
	struct pd_tails_share base, target;
	struct pd_tails_share_delta delta;
};
/* Fills out[0..PD_STORY_N_SLOW) with the bounds whose series both runs' views have, in
 * pd_story_slow_ms's order, over c's window of phase; returns how many (0 without the
 * total's view or the phase). */
size_t pd_tails_slow_of(struct pd_tails_slow *out, const struct pd_comparison *c,
			enum pd_phase phase, double z);

#endif
