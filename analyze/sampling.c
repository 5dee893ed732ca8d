#include "sampling.h"
#include "stats.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void swap_i64(int64_t *a, int64_t *b)
{
	int64_t t = *a;
	*a = *b;
	*b = t;
}

/* Splits v[lo..hi) around the median of its first, middle and last values into < p,
 * == p and > p (Dijkstra's three-way partition, so that a run of equal steps, the usual
 * case, is one pass); the == p part is returned as [*lt, *gt). */
static void partition3(int64_t *v, size_t lo, size_t hi, size_t *lt, size_t *gt)
{
	int64_t a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
	int64_t p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
	size_t i = lo;
	*lt = lo, *gt = hi;
	while (i < *gt) {
		if (v[i] < p)
			swap_i64(&v[i++], &v[(*lt)++]);
		else if (v[i] > p)
			swap_i64(&v[i], &v[--(*gt)]);
		else
			i++;
	}
}

/* The k-th smallest of v[0..n) by counting, when the values span less than 4 n + 256
 * (time steps: one interval and its jitter); 0 otherwise. Linear, and without the
 * partitions' swaps. */
static int kth_by_count(const int64_t *v, size_t n, size_t k, int64_t *out)
{
	int64_t lo = v[0], hi = v[0];
	for (size_t i = 1; i < n; i++)
		lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
	uint64_t span = (uint64_t)hi - (uint64_t)lo; /* no overflow: unsigned */
	if (span >= 4 * (uint64_t)n + 256)
		return 0;
	size_t *count = pd_xcalloc(span + 1, sizeof(*count)), seen = 0, j = 0;
	for (size_t i = 0; i < n; i++)
		count[(uint64_t)v[i] - (uint64_t)lo]++;
	while ((seen += count[j]) <= k)
		j++;
	*out = (int64_t)((uint64_t)lo + j);
	free(count);
	return 1;
}

int64_t pd_sampling_median_i64(int64_t *v, size_t n)
{
	/* a narrow span is counted; else quickselect: linear on average; after 2 log2(n) + 8
	 * rounds without converging (an adversarial input), a sort of what is left bounds it
	 * at n log n */
	size_t k = (n - 1) / 2, lo = 0, hi = n, lt, gt;
	int rounds = 8;
	int64_t kth;
	if (kth_by_count(v, n, k, &kth))
		return kth;
	for (size_t m = n; m > 1; m >>= 1)
		rounds += 2;
	while (hi - lo > 1) {
		if (rounds-- == 0) {
			qsort(v + lo, hi - lo, sizeof(*v), cmp_i64);
			break;
		}
		partition3(v, lo, hi, &lt, &gt);
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return v[k];
	}
	return v[k];
}

int64_t pd_sampling_interval_ms(const struct pd_series *s)
{
	if (s->n < 2)
		return 0;
	int64_t *d = pd_xmalloc((s->n - 1) * sizeof(*d));
	for (size_t i = 1; i < s->n; i++)
		d[i - 1] = s->t_ms[i] - s->t_ms[i - 1];
	int64_t m = pd_sampling_median_i64(d, s->n - 1), sum = 0, k = 0;
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
		m = pd_sampling_median_i64(v, n);
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
