/* Index metrics at real scale: a [secondary] test with 100 indexes has a few
 * thousand index-scope series. Each index is a view of its own (a drill-down, every one
 * in summary.json's deltas); its metric's cluster view says how many indexes it has and
 * how many moved, and the PD_POLICY_INDEX_TOP that moved most are the ones charted. */
#include "indexes.h"
#include "analyze/opts.h"
#include "analyze/align/scope.h"
#include "analyze/policy.h"

#include <math.h>
#include <string.h>

/* How far view vi moved after the event (over the whole run without one, or when the
 * phase after it is too short): |change| in % (0 when no % is defined), or -1 when it did
 * not move (no delta, or neither a regression nor an improvement). */
static double moved_by(const struct pd_comparison *c, size_t vi)
{
	const struct pd_delta *d = pd_comparison_delta(c, vi, PD_PHASE_POST);
	d = d ? d : pd_comparison_delta(c, vi, PD_PHASE_WHOLE);
	if (!d || (d->verdict != PD_VERDICT_REGRESSION && d->verdict != PD_VERDICT_IMPROVEMENT))
		return -1;
	return isnan(d->delta_pct) ? 0 : fabs(d->delta_pct);
}

/* Ranks the index views [lo, hi) of the cluster view at cv: the top ones by size of move
 * (ties: the earlier view), each in turn. */
static void rank(struct pd_comparison *c, size_t cv, size_t lo, size_t hi)
{
	struct pd_view *total = &c->views[cv];
	total->indexes = hi - lo;
	total->moved = 0;
	for (size_t i = lo; i < hi; i++)
		total->moved += moved_by(c, i) >= 0;
	total->charted = 0;
	for (int r = 1; r <= PD_POLICY_INDEX_TOP; r++) {
		long best = -1;
		for (size_t i = lo; i < hi; i++)
			if (!c->views[i].top && moved_by(c, i) >= 0 &&
			    (best < 0 || moved_by(c, i) > moved_by(c, (size_t)best)))
				best = (long)i;
		if (best < 0)
			break;
		c->views[best].top = r;
		total->charted = (size_t)r;
	}
}

void pd_indexes_rank(struct pd_comparison *c)
{
	for (size_t lo = 0, hi; lo < c->n_views; lo = hi) {
		for (hi = lo + 1;
		     hi < c->n_views && !strcmp(c->views[hi].metric, c->views[lo].metric); hi++)
			;
		/* an index metric's views: its cluster view, then one per index */
		if (c->views[lo].scope.kind == PD_AT_CLUSTER && hi > lo + 1 &&
		    c->views[lo + 1].scope.kind == PD_AT_INDEX)
			rank(c, lo, lo + 1, hi);
	}
}
