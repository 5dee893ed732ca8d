/* Descriptive statistics (docs/report.md "Statistics"): summaries, quantiles, the lag-1
 * autocorrelation and a linear sort. The inference on them is analyze/stats/infer.h. */
#include "stats.h"

#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Doubles as unsigned keys in the same order (negative ones bit-flipped). */
static uint64_t key_of(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return (u >> 63) ? ~u : u | (1ull << 63);
}

static double value_of(uint64_t k)
{
	uint64_t u = (k >> 63) ? k & ~(1ull << 63) : ~k;
	double d;
	memcpy(&d, &u, sizeof(d));
	return d;
}

/* LSD radix sort of keys on 8-bit digits, only those where the keys differ (bits set in
 * varying: most of a series' keys share their top bytes, and integers their low ones); one
 * pass fills their histograms. Each pass moves the keys from one of a and b to the other;
 * returns where they end. */
static const uint64_t *radix_sort(uint64_t *a, uint64_t *b, size_t n, uint64_t varying)
{
	size_t count[8][256]; /* only the m digits' are used, so only theirs are zeroed */
	unsigned shift[8], m = 0;
	for (unsigned d = 0; d < 8; d++)
		if ((varying >> (8 * d)) & 255)
			shift[m++] = 8 * d;
	memset(count, 0, m * sizeof(*count));
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < m; k++)
			count[k][(a[i] >> shift[k]) & 255]++;
	for (unsigned k = 0; k < m; k++) {
		size_t *c = count[k], sum = 0;
		for (size_t j = 0; j < 256; j++) {
			size_t x = c[j];
			c[j] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			b[c[(a[i] >> shift[k]) & 255]++] = a[i];
		uint64_t *t = a;
		a = b, b = t;
	}
	return a;
}

void pd_stats_sort(double *v, size_t n)
{
	if (n < 64) { /* qsort wins on a few dozen */
		qsort(v, n, sizeof(*v), cmp_double);
		return;
	}
	uint64_t *a = pd_xmalloc(n * sizeof(*a)), *b = pd_xmalloc(n * sizeof(*b));
	uint64_t any = 0, all = ~(uint64_t)0;
	for (size_t i = 0; i < n; i++) {
		a[i] = key_of(v[i]);
		any |= a[i], all &= a[i];
	}
	const uint64_t *sorted = radix_sort(a, b, n, any ^ all);
	for (size_t i = 0; i < n; i++)
		v[i] = value_of(sorted[i]);
	free(a);
	free(b);
}

void pd_stats_merge(double *out, const double *a, size_t na, const double *b, size_t nb)
{
	size_t i = 0, j = 0;
	/* keys, not <: they order -0 before 0 as the sort does; a first on ties (equal keys
	 * are equal bits) */
	while (i < na && j < nb)
		*out++ = key_of(b[j]) < key_of(a[i]) ? b[j++] : a[i++];
	if (i < na)
		memcpy(out, a + i, (na - i) * sizeof(*out));
	if (j < nb)
		memcpy(out, b + j, (nb - j) * sizeof(*out));
}

double pd_stats_median(const double *v, size_t n)
{
	/* keys in the sort's order, as int64 (top bit flipped) for the selection */
	int64_t *k = pd_xmalloc(n * sizeof(*k));
	for (size_t i = 0; i < n; i++)
		k[i] = (int64_t)(key_of(v[i]) ^ (1ull << 63));
	size_t lo = (n - 1) / 2, at_most = 0;
	int64_t x = pd_stats_median_i64(k, n), next = INT64_MAX;
	for (size_t i = 0; i < n; i++) { /* rank lo + 1: x again, or the least above it */
		at_most += k[i] <= x;
		next = k[i] > x && k[i] < next ? k[i] : next;
	}
	next = at_most >= lo + 2 ? x : next;
	free(k);
	double sorted[2] = {value_of((uint64_t)x ^ (1ull << 63)),
			    value_of((uint64_t)next ^ (1ull << 63))};
	/* pd_stats_quantile_sorted on the two order statistics it reads: the same bits */
	double h = (double)(n - 1) * 0.5;
	return lo >= n - 1 ? sorted[0] : sorted[0] + (h - (double)lo) * (sorted[1] - sorted[0]);
}

double pd_stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	if (lo >= n - 1) /* q = 1 (or rounding): no upper neighbour */
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

/* Least-squares slope of v on t; 0 when the times do not vary. */
static double ols_slope(const double *t, const double *v, size_t n, double vmean)
{
	double tmean = 0, sxy = 0, sxx = 0;
	for (size_t i = 0; i < n; i++)
		tmean += t[i];
	tmean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sxy += (t[i] - tmean) * (v[i] - vmean);
		sxx += (t[i] - tmean) * (t[i] - tmean);
	}
	return sxx > 0 ? sxy / sxx : 0;
}

void pd_stats_sample_presorted(struct pd_sample *s, const double *t, const double *v, size_t n,
			       double *sorted)
{
	s->t = t;
	s->v = v;
	s->n = n;
	s->sorted = sorted;
}

void pd_stats_sample_prepare(struct pd_sample *s, const double *t, const double *v, size_t n,
			     double *sorted)
{
	if (n) /* v may be NULL when empty, and memcpy's arguments must not be */
		memcpy(sorted, v, n * sizeof(*sorted));
	pd_stats_sort(sorted, n);
	pd_stats_sample_presorted(s, t, v, n, sorted);
}

void pd_stats_summary_of(struct pd_summary *out, const struct pd_sample *s)
{
	size_t n = s->n;
	out->n = n;
	out->slope = 0;
	if (n == 0) {
		out->mean = out->median = out->p5 = out->p95 = out->min = out->max = NAN;
		return;
	}
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s->v[i];
	out->mean = sum / (double)n;
	out->median = pd_stats_quantile_sorted(s->sorted, n, 0.5);
	out->p5 = pd_stats_quantile_sorted(s->sorted, n, 0.05);
	out->p95 = pd_stats_quantile_sorted(s->sorted, n, 0.95);
	out->min = s->sorted[0];
	out->max = s->sorted[n - 1];
	if (n >= 2)
		out->slope = ols_slope(s->t, s->v, n, out->mean);
}

void pd_stats_summary(struct pd_summary *out, const double *t, const double *v, size_t n)
{
	struct pd_sample s;
	pd_stats_sample_prepare(&s, t, v, n, pd_xmalloc((n + 1) * sizeof(double)));
	pd_stats_summary_of(out, &s);
	free(s.sorted);
}

double pd_stats_lag1(const double *v, size_t n)
{
	if (n < 3)
		return 0;
	double mean = 0, num = 0, den = 0;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		den += (v[i] - mean) * (v[i] - mean);
		if (i + 1 < n)
			num += (v[i] - mean) * (v[i + 1] - mean);
	}
	if (!(den > 0))
		return 0;
	double r = num / den;
	return r < 0 ? 0 : r > 0.99 ? 0.99 : r;
}

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

int64_t pd_stats_median_i64(int64_t *v, size_t n)
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
