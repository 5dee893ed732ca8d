/* Statistics over plain arrays of doubles: pure functions, no I/O, no global state.
 * NaN entries are never passed in (callers drop gaps first). */
#ifndef PD_STATS_H
#define PD_STATS_H

#include "tree/tree.h"
#include <stddef.h>
#include <stdint.h>

/* One series' values in a window, prepared once for every statistic below: in time
 * order (borrowed) and sorted (in a buffer of the caller's). */
struct pd_sample {
	const double *t, *v;
	double *sorted;
	size_t n;
};

/* Fills s from t, v (n values in time order); sorted has room for n and is the caller's. */
void pd_stats_sample_prepare(struct pd_sample *s, const double *t, const double *v, size_t n,
			     double *sorted);

/* pd_stats_sample_prepare when sorted already holds v's values in pd_stats_sort's order
 * (a merge of its parts, pd_stats_merge): the same sample, without the sort. */
void pd_stats_sample_presorted(struct pd_sample *s, const double *t, const double *v, size_t n,
			       double *sorted);

/* Summary of v[0..n) sampled at times t[0..n) (seconds). n may be 0 (all NaN then,
 * but n = 0 and slope 0). Sorts a private copy once. */
void pd_stats_summary(struct pd_summary *out, const double *t, const double *v, size_t n);

/* Sorts v[0..n) in increasing order (NaN not allowed): a radix sort of the values' bits
 * above a few hundred, so sorting is linear in the samples. */
void pd_stats_sort(double *v, size_t n);

/* Merges a[0..na) and b[0..nb), each in pd_stats_sort's order, into out (room for
 * na + nb, apart from both): pd_stats_sort's result for the two together, bit for bit
 * (-0 before 0). */
void pd_stats_merge(double *out, const double *a, size_t na, const double *b, size_t nb);

/* The same statistics on prepared samples (what the comparison calls: one sort each). */
void pd_stats_summary_of(struct pd_summary *out, const struct pd_sample *s);

/* The q-quantile (0 <= q <= 1) of sorted[0..n), n > 0: linear interpolation between
 * order statistics, R's type 7 (the default of R's quantile()). */
double pd_stats_quantile_sorted(const double *sorted, size_t n, double q);

/* pd_stats_quantile_sorted(sorted v, n, 0.5), n > 0, by selection (linear) instead of a
 * sort: the same bits (the order is the sort's, -0 before 0). */
double pd_stats_median(const double *v, size_t n);

/* Lag-1 autocorrelation of v[0..n) (0 when n < 3 or the variance is 0), clamped to
 * [0, 0.99]: negative autocorrelation is treated as none. */
double pd_stats_lag1(const double *v, size_t n);

/* The lower median of v[0..n) (n > 0); v may be reordered. */
int64_t pd_stats_median_i64(int64_t *v, size_t n);

#endif
