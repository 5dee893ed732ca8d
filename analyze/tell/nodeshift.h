/* The event's own story within the target run. For every per-node metric the removed
 * node carries, each target node before the event against after it (the medians of the
 * pre and post phases), beside its post-phase comparison with the baseline, and the same
 * for the survivors together and for every target node together (the removed one
 * included), so that load moving between nodes shows: "survivors +26.8 %" against the
 * baseline is partly the removed node's connections moving over, while all the target's
 * nodes together changed by +3.7 % across the event. Pure: reads the comparison's views,
 * windows and deltas. */
#ifndef PD_NODESHIFT_H
#define PD_NODESHIFT_H

#include "analyze/opts.h"
#include "tree/tree.h"

/* The story of c into *out (never NULL; empty without an event or a removed node; caller
 * frees with pd_nodeshift_free). Cannot fail. Needs c's deltas (after pd_deltas_compute).
 * ALL is, per grid point, the survivors' value with the removed node's added (a sum) or
 * averaged in (a mean); after the event a removed node without a sample counts as gone
 * (0 in a sum, left out of a mean), before it as a gap. */
void pd_nodeshift_build(struct pd_nodeshift **out, const struct pd_comparison *c);
void pd_nodeshift_free(struct pd_nodeshift *s); /* NULL is a no-op */

#endif
