/* Statistics over plain arrays of doubles: pure functions, no I/O, no global state.
 * NaN entries are never passed in (callers drop gaps first). */
#ifndef PD_STATS_H
#define PD_STATS_H

#include <stddef.h>
#include <stdint.h>

/* One series' values in a window, prepared once for every statistic below: in time
 * order (borrowed), sorted (in a buffer of the caller's), and their lag-1
 * autocorrelation. */
struct pd_sample {
	const double *t, *v;
	double *sorted;
	size_t n;
	double lag1;
};

/* Fills s from t, v (n values in time order); sorted has room for n and is the caller's. */
void pd_stats_sample_prepare(struct pd_sample *s, const double *t, const double *v, size_t n,
			     double *sorted);

struct pd_summary {
	size_t n;
	double mean, median, p5, p95, min, max;
	double slope; /* least-squares slope of v against t, units per second; 0 when n < 2 */
};

/* Summary of v[0..n) sampled at times t[0..n) (seconds). n may be 0 (all NaN then,
 * but n = 0 and slope 0). Sorts a private copy once. */
void pd_stats_summary(struct pd_summary *out, const double *t, const double *v, size_t n);

/* Sorts v[0..n) in increasing order (NaN not allowed): a radix sort of the values' bits
 * above a few hundred, so sorting is linear in the samples. */
void pd_stats_sort(double *v, size_t n);

/* The same statistics on prepared samples (what the comparison calls: one sort each). */
void pd_stats_summary_of(struct pd_summary *out, const struct pd_sample *s);

/* The q-quantile (0 <= q <= 1) of sorted[0..n), n > 0: linear interpolation between
 * order statistics, R's type 7 (the default of R's quantile()). */
double pd_stats_quantile_sorted(const double *sorted, size_t n, double q);

/* Lag-1 autocorrelation of v[0..n) (0 when n < 3 or the variance is 0), clamped to
 * [0, 0.99]: negative autocorrelation is treated as none. */
double pd_stats_lag1(const double *v, size_t n);

/* Effective sample size under AR(1): n (1 - r) / (1 + r), at least 1 (0 when n = 0). */
double pd_stats_neff(size_t n, double r);

/* Two-sided Mann-Whitney U test of x against y: U of x (pairs with x > y, ties 1/2) into
 * *u_out unless NULL, normal approximation with tie correction and continuity correction
 * (never past the mean: |U - mean| < 0.5 gives p = 1). With inflate = 1 the variance is
 * scaled by the mean of n / n_eff of the two samples (lag-1 autocorrelation, arrays in
 * time order), so serially correlated series do not give falsely small p-values.
 * Returns the p-value in [0, 1]; 1 when a sample is empty or every value is tied. */
double pd_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
			     int inflate, double *u_out);

/* Percentage change of medians, 100 (median(y) - median(x)) / |median(x)|, with a
 * confidence interval of level 1 - alpha that respects autocorrelation: each median's
 * standard error comes from the distribution-free order-statistic interval of a median
 * taken for n_eff = n (1 - r) / (1 + r) samples (r: lag-1 autocorrelation of the series
 * in time order), combined by the delta method on the ratio of medians (log scale when
 * both are positive). Linear in the samples after one sort per series. (A moving-block
 * bootstrap was tried first: on AR(1) noise with phi 0.9 its 95 % interval excluded a
 * true zero 24 % of the time, this one 2-4 %; see tests/check_stats.c.) NaN delta and
 * interval when median(x) is 0 or a series is empty. */
struct pd_delta_ci {
	double delta_pct, lo_pct, hi_pct;
};
struct pd_delta_ci pd_stats_delta_ci(const double *x, size_t nx, const double *y, size_t ny,
				     double alpha);

double pd_stats_mann_whitney_of(const struct pd_sample *x, const struct pd_sample *y,
				int inflate, double *u_out);
struct pd_delta_ci pd_stats_delta_ci_of(const struct pd_sample *x, const struct pd_sample *y,
					double alpha);

/* Holm's step-down adjustment of p[0..n) into adj[0..n) (same order as p). */
void pd_stats_holm(double *adj, const double *p, size_t n);
/* Benjamini-Hochberg's adjustment (false discovery rate), same shape. */
void pd_stats_bh(double *adj, const double *p, size_t n);

#endif
