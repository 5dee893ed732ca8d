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

#include "compare.h"

enum pd_nodeshift_kind {
	PD_NODESHIFT_NODE,      /* one surviving node */
	PD_NODESHIFT_REMOVED,   /* the node the event removed */
	PD_NODESHIFT_SURVIVORS, /* the surviving nodes together (two or more) */
	PD_NODESHIFT_ALL        /* every target node together, the removed one included */
};

/* "node", "removed", "survivors", "all" */
const char *pd_nodeshift_kind_name(enum pd_nodeshift_kind k);

struct pd_nodeshift_row {
	enum pd_nodeshift_kind kind;
	long view;         /* the view of the row (the survivors' for ALL), or -1 */
	const char *host;  /* NODE, REMOVED: the node (borrowed from the view); else NULL */
	size_t members;    /* nodes the row aggregates */
	double pre, post;  /* the target's medians over the pre and post phases; NaN: none */
	double change_pct; /* post against pre, % of pre; NaN when pre is 0 or NaN */
	double base_post;  /* the baseline's median over post (the twin's, the survivors'
			      twins'); NaN for REMOVED, which has no twin, and for ALL, whose
			      baseline counterpart is the survivors' (SURVIVORS) */
	double base_pct;   /* post against base_post, % of base_post; NaN likewise */
	long delta;        /* the tested post delta of view against the baseline (index into
			      c->deltas), or -1 (ALL, REMOVED, or too few samples) */
};

struct pd_nodeshift_metric {
	const char *metric; /* borrowed from the views */
	enum pd_unit unit;
	enum pd_agg agg; /* how SURVIVORS and ALL combine their nodes: sum or mean */
	struct pd_nodeshift_row *rows; /* the surviving nodes in the spec's order, the
					  removed node, the survivors, every node */
	size_t n_rows;
};

struct pd_nodeshift {
	struct pd_nodeshift_metric *m; /* in view order (by collector, then metric) */
	size_t n;
};

/* The story of c into *out (never NULL; empty without an event or a removed node; caller
 * frees with pd_nodeshift_free). Cannot fail. Needs c's deltas (after pd_deltas_compute).
 * ALL is, per grid point, the survivors' value with the removed node's added (a sum) or
 * averaged in (a mean); after the event a removed node without a sample counts as gone
 * (0 in a sum, left out of a mean), before it as a gap. */
void pd_nodeshift_build(struct pd_nodeshift **out, const struct pd_comparison *c);
void pd_nodeshift_free(struct pd_nodeshift *s); /* NULL is a no-op */

#endif
