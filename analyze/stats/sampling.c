#include "sampling.h"
#include "stats.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>

int64_t pd_sampling_interval_ms(const struct pd_series *s)
{
	if (s->n < 2)
		return 0;
	int64_t *d = pd_xmalloc((s->n - 1) * sizeof(*d));
	for (size_t i = 1; i < s->n; i++)
		d[i - 1] = s->t_ms[i] - s->t_ms[i - 1];
	int64_t m = pd_stats_median_i64(d, s->n - 1), sum = 0, k = 0;
	/* arrival jitter moves single steps: average the steps near the median, leaving
	 * out gaps (and bursts) so that they do not stretch it */
	for (size_t i = 0; i < s->n - 1; i++)
		if (2 * d[i] >= m && 2 * d[i] <= 3 * m)
			sum += d[i], k++;
	free(d);
	return k ? (sum + k / 2) / k : m;
}

struct pd_sampling_gaps pd_sampling_gaps(const struct pd_series *s, int64_t interval_ms)
{
	struct pd_sampling_gaps g = {0, 0, 0};
	for (size_t i = 1; i < s->n && interval_ms > 0; i++) {
		int64_t step = s->t_ms[i] - s->t_ms[i - 1];
		if (2 * step <= 3 * interval_ms)
			continue;
		g.n_gaps++;
		g.missing += (size_t)((step + interval_ms / 2) / interval_ms) - 1;
		if (step > g.longest_ms)
			g.longest_ms = step;
	}
	return g;
}

int pd_sampling_constant(const struct pd_series *s, double *v)
{
	if (s->n < 2)
		return 0;
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i] != s->v[0])
			return 0;
	*v = s->v[0];
	return 1;
}

int64_t pd_sampling_run_interval_ms(const struct pd_run *run)
{
	size_t n = 0;
	int64_t *v = pd_xmalloc((run->n_series + 1) * sizeof(*v)), m = 0;
	for (size_t i = 0; i < run->n_series; i++) {
		int64_t iv = pd_sampling_interval_ms(run->series[i]);
		if (iv > 0)
			v[n++] = iv;
	}
	if (n)
		m = pd_stats_median_i64(v, n);
	free(v);
	return m;
}

double pd_sampling_window_mean(const struct pd_series *s, int64_t from_ms, int64_t to_ms)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; s && i < s->n; i++)
		if (s->t_ms[i] >= from_ms && s->t_ms[i] < to_ms)
			sum += s->v[i], n++;
	return n ? sum / (double)n : NAN;
}

int pd_sampling_window_median(double *out, size_t *n_out, const struct pd_series *s,
			      int64_t from_ms, int64_t to_ms)
{
	size_t n = 0;
	if (n_out)
		*n_out = 0;
	if (!s || !s->n)
		return 0;
	double *v = pd_xmalloc(s->n * sizeof(*v));
	for (size_t i = 0; i < s->n; i++)
		if (s->t_ms[i] >= from_ms && s->t_ms[i] < to_ms)
			v[n++] = s->v[i];
	if (n) {
		pd_stats_sort(v, n);
		*out = pd_stats_quantile_sorted(v, n, 0.5);
	}
	free(v);
	if (n_out)
		*n_out = n;
	return n > 0;
}
