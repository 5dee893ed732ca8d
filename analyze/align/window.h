/* The points of a view inside a window: the one helper every stage of the comparison
 * reads a view's grid through (deltas, findings, the event story). */
#ifndef PD_WINDOW_H
#define PD_WINDOW_H

#include "analyze/opts.h"
#include "tree/tree.h"

/* The non-NaN points of side (one side of v's grid) with start_s <= t < end_s, t = i x
 * v->step_s: their times into t and values into x when not NULL (room for v->n each).
 * Returns how many. */
size_t pd_window_points(double *t, double *x, const struct pd_view *v, const double *side,
			double start_s, double end_s);

/* The grid indexes [*lo, *hi) of v whose times i x v->step_s lie inside w (start_s <= t <
 * end_s); an empty range for a grid without a step or a window without bounds. */
void pd_window_range(const struct pd_view *v, const struct pd_window *w, size_t *lo,
		     size_t *hi);

/* The summary (analyze/stats/stats.h) of those points of side inside w. */
struct pd_summary pd_window_summary(const struct pd_view *v, const double *side,
				    const struct pd_window *w);

/* The events a rate counts over [start_s, end_s): the sum of its points times the grid's
 * step, the comparison's one integration of a rate (the same as a delta's count,
 * analyze/stats/infer.h). */
double pd_window_count(const struct pd_view *v, const double *side, double start_s,
		       double end_s);

#endif
