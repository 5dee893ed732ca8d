#include "window.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>

size_t pd_window_points(double *t, double *x, const struct pd_view *v, const double *side,
			double start_s, double end_s)
{
	size_t n = 0, i = 0;
	/* the grid is in time order: start a step before the window (the test below is the
	 * exact one) and stop past its end */
	if (v->step_s > 0 && start_s / v->step_s > 1)
		i = (size_t)fmin(start_s / v->step_s - 1, (double)v->n);
	for (; i < v->n; i++) {
		double ti = (double)i * v->step_s;
		if (ti >= end_s && v->step_s > 0)
			break;
		if (ti < start_s || ti >= end_s || isnan(side[i]))
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
