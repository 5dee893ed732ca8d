#include "window.h"
#include "analyze/stats/stats.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>

/* The grid indexes [*lo, *hi) whose times i x step (> 0) lie in [start_s, end_s): times
 * grow with i, so each bound is found from its estimate by the exact test in a few steps. */
static void window_range(const struct pd_view *v, double start_s, double end_s, size_t *lo,
			 size_t *hi)
{
	double step = v->step_s;
	size_t i = start_s / step > 1 ? (size_t)fmin(start_s / step - 1, (double)v->n) : 0;
	while (i < v->n && (double)i * step < start_s)
		i++;
	size_t j = end_s / step > 1 ? (size_t)fmin(end_s / step - 1, (double)v->n) : 0;
	j = j > i ? j : i;
	while (j < v->n && (double)j * step < end_s)
		j++;
	while (j > i && (double)(j - 1) * step >= end_s)
		j--;
	*lo = i, *hi = j;
}

void pd_window_range(const struct pd_view *v, const struct pd_window *w, size_t *lo, size_t *hi)
{
	*lo = *hi = 0;
	if (v->step_s > 0 && !isnan(w->start_s) && !isnan(w->end_s))
		window_range(v, w->start_s, w->end_s, lo, hi);
}

size_t pd_window_points(double *t, double *x, const struct pd_view *v, const double *side,
			double start_s, double end_s)
{
	size_t n = 0, lo = 0, hi = v->n;
	/* else every point is tested (a degenerate grid or window) */
	int ranged = v->step_s > 0 && !isnan(start_s) && !isnan(end_s);
	if (ranged)
		window_range(v, start_s, end_s, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		double ti = (double)i * v->step_s;
		if ((!ranged && (ti < start_s || ti >= end_s)) || isnan(side[i]))
			continue;
		if (t)
			t[n] = ti;
		if (x)
			x[n] = side[i];
		n++;
	}
	return n;
}

struct pd_summary pd_window_summary(const struct pd_view *v, const double *side,
				    const struct pd_window *w)
{
	struct pd_summary s;
	double *t = pd_xmalloc((v->n + 1) * sizeof(double)),
	       *x = pd_xmalloc((v->n + 1) * sizeof(double));
	size_t n = pd_window_points(t, x, v, side, w->start_s, w->end_s);
	pd_stats_summary(&s, t, x, n);
	free(t);
	free(x);
	return s;
}

double pd_window_count(const struct pd_view *v, const double *side, double start_s,
		       double end_s)
{
	double sum = 0;
	for (size_t i = 0; i < v->n; i++) {
		double ti = (double)i * v->step_s;
		if (ti >= start_s && ti < end_s && !isnan(side[i]))
			sum += side[i];
	}
	return sum * v->step_s;
}
