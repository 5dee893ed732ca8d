/* Tails judged with intervals: the change of a per-request latency percentile (p50 to
 * p99.9) between two runs, and the change of the share of n1ql requests slower than each
 * bound. Pure functions over arrays, no I/O, no global state; the resampling draws from a
 * fixed seed (analyze/policy.h), so every figure is reproducible.
 *
 * Percentiles. A run's stream of one phase (the samples in time order) gives its
 * percentiles as analyze/latency.c states them (type 7, numpy's default, from every sample)
 * and, for each, the standard error of its logarithm by a circular block bootstrap
 * (Politis and Romano 1992): a resample is blocks of b consecutive requests from random
 * starts, wrapping at the end, so a slow period stays whole in it and its requests count
 * as one event, not as many independent ones. The change is read on the log scale,
 * d = log(p_t / p_b), se^2 = se_b^2 + se_t^2 (the runs are independent), d -+ z se,
 * reported as 100 (exp(.) - 1) %: the interval can neither fall below -100 % nor be
 * symmetric where a percentile is not. A standard error rather than the percentile
 * interval of the resamples: it needs a few hundred resamples at any level, where a
 * 1 - alpha / m interval of a family would need tens of thousands.
 * The block length b is Politis and White's (2004; corrected by Patton, Politis and White
 * 2009) for the circular block bootstrap, from the autocorrelation of the log latencies
 * (of the values when one is not positive): the smallest lag m after which K_n =
 * max(5, sqrt(log10 n)) lags in a row are within 2 sqrt(log10 n / n), M = 2m, flat-top
 * weights l(k / M), G = 2 sum k l(k / M) R(k), g = R(0) + 2 sum l(k / M) R(k),
 * b = (3 G^2 / (2 g^2))^(1/3) n^(1/3), within [1, min(3 sqrt(n), n / 3)]. Lags are
 * read up to sqrt(n) + K_n.
 * Work: PD_POLICY_TAILS_RESAMPLES resamples of m samples, m = n up to
 * PD_POLICY_TAILS_DRAWS / PD_POLICY_TAILS_RESAMPLES; a longer stream is resampled m out
 * of n (Bickel, Goetze and van Zwet 1997: the standard error times sqrt(m / n)), its block
 * length chosen by the rule on ten stretches of m / 10 spread evenly over the stream.
 * A resample is never copied nor sorted: the stream's values are put once in 2048 bins of
 * about equal counts, a resample counts its samples per bin, and each order statistic is
 * selected among the resample's values in its one bin. Measured (scripts/bench --only
 * tails, one side, 12 h of requests, this machine): 2 a second (86 400 samples) 0.06 s,
 * 20 (864 000, m = 100 000) 0.12 s, 100 (4.3 million) 0.35 s, most of it the sort and
 * the bins of every sample; the bootstrap before the bins (a copy and a selection per
 * resample) took 1.1, 2.1 and 9.0 s.
 * Too few samples: a percentile p needs n (1 - p / 100) >= PD_POLICY_PCT_BEYOND
 * (pd_tails_need, which analyze/latency.c's table reads too); with fewer it is said to lack
 * samples and has no figure, on either side. A percentile of 0 ms (a stream quantized to
 * the millisecond) is stated, but its change has no log and is said to have no figure.
 *
 * Alternatives, measured (tests/check_tails.c test_tails_p99_coverage prints the chosen
 * row, PD_TAILS_MEASURE=1 the others; 200 seeds, two runs of 3000 requests each, log
 * latency a stationary AR(1) at phi 0.9 with sd 0.5, the target's sd raised so that its
 * p99 is +20 % and its median unchanged, or not raised; 95 % intervals: the p99's interval
 * covering +20 % / excluding 0 when nothing changed, "false changed"; nominal 190 / 10):
 *   the chosen rule (median b = 65):              covered 186/200, false changed 16/200
 *   blocks of n^(1/3) = 15 (the rate, no data):   covered 181/200, false changed 23/200
 *   blocks of 1 (the ordinary bootstrap, requests
 *   taken as independent):                        covered 128/200, false changed 71/200
 * The median's interval under the planted tail (its true change 0) excluded 0 in 14/200.
 * 16 and 14 of 200 are above the nominal 10 (P(Binomial(200, 0.05) >= 16) = 0.044), 186
 * within it (P(covered <= 186) = 0.13).
 * What is left under nominal is the block bootstrap's known bias on a stream whose
 * memory is long against the window (3000 requests at phi 0.9 hold about 160 independent
 * ones): at the verdicts, a run-to-run margin widens the interval as for means (infer.h).
 * Not taken: percentiles of per-window percentiles (a window of perfrunner's 5 s holds a
 * few dozen requests at the seed's rate: no p99 of its own, p99.9 needs 1000 samples a
 * window, and the mean of window p99s is not the stream's p99); a stationary bootstrap
 * (random block lengths: the same rate with a larger variance, Lahiri 1999).
 *
 * Slow-request shares. Over one phase, the counts of requests slower than a bound
 * (query_requests_<N>ms, a rate times the sampling interval) against all requests
 * (query_requests) give the share R = S / A. Its variance allows overdispersion: the
 * residuals e_i = s_i - R a_i of the intervals are correlated (a slow period slows many
 * requests in consecutive intervals) and vary more than Poisson counts would, so
 * Var(S - R A) is n^2 times the variance of their mean by the means' noise model
 * (infer.h: the largest of AR(1), AR(p) and batch means), at least the binomial
 * (S + 1)(1 - R) of independent requests with one more slow one (a share of 0 has an
 * interval). se(R) = sqrt(V) / A. The change is in absolute points, 100 (R_t - R_b) -+
 * z sqrt(se_b^2 + se_t^2), and also in % on the log scale when the baseline's share is
 * clear of 0 (R_b > z se_b) and the target's is positive.
 * Measured (test_tails_share_coverage: 200 seeds, 240 intervals of 5 s at 200 requests a
 * second, the slow share p0 exp(0.8 y - 0.32), y an AR(1) at 0.8, against 2 p0 or p0):
 *   p0 2 %:    doubled covered 175/200, false changed 11/200 (the binomial interval:
 *              covered 17/200); the flat-top long-run variance of the residuals alone
 *              (Politis 2003): covered 166/200, false changed 14/200
 *   p0 0.02 %: doubled covered 190/200, false changed 12/200
 * Under nominal where bursts last: 240 intervals at 0.8 hold about 27 independent ones.
 * On the seed (test_tails_slow_shares_of_the_seed) the failover's burst of slow queries in
 * the transient, 0.35 % -> 1.23 % over 250 ms, is +0.88 points [-1.1, +2.9]: one burst in
 * a short window is its own noise to this model, as a burst of errors is to the means'
 * (infer.h "The change"); the verdicts may want the same count rule for it. */
#ifndef PD_TAILS_H
#define PD_TAILS_H

#include "analyze/policy.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* The percentiles judged, in this order. */
#define PD_TAILS_PCTS 5
extern const double pd_tails_pcts[PD_TAILS_PCTS]; /* 50, 90, 95, 99, 99.9 */

enum pd_tails_status {
	PD_TAILS_NONE, /* no sample */
	PD_TAILS_FEW,  /* too few samples for this percentile: no figure */
	PD_TAILS_ZERO, /* the percentile is 0 ms (stated), so its change has no log: no figure
			*/
	PD_TAILS_OK
};

/* How a side is resampled; PD_TAILS_OPTS_INIT is the policy's. */
struct pd_tails_opts {
	size_t block;     /* block length in samples; 0: chosen from the data */
	size_t resamples; /* at least 2 */
	double draws;     /* resamples x samples per resample, at most */
	uint64_t seed;
};
#define PD_TAILS_OPTS_INIT                                                                     \
	{                                                                                      \
		.block = 0, .resamples = PD_POLICY_TAILS_RESAMPLES,                            \
		.draws = PD_POLICY_TAILS_DRAWS, .seed = PD_POLICY_TAILS_SEED                   \
	}

/* One run's stream in one phase. */
struct pd_tails_side {
	size_t n;         /* samples */
	size_t block;     /* block length of the resamples */
	size_t m;         /* samples per resample (n, or fewer: m out of n) */
	size_t resamples; /* 0 when nothing was resampled (no percentile has its samples) */
	enum pd_tails_status status[PD_TAILS_PCTS];
	double ms[PD_TAILS_PCTS];     /* the percentile (type 7); NaN unless OK or ZERO */
	double se_log[PD_TAILS_PCTS]; /* standard error of its log; NaN unless OK */
};

/* The samples a percentile p needs (n (1 - p / 100) >= PD_POLICY_PCT_BEYOND). */
size_t pd_tails_need(double p);

/* Fits out from v[0..n) in time order (NaN not allowed; n may be 0). */
void pd_tails_side_of(struct pd_tails_side *out, const double *v, size_t n,
		      const struct pd_tails_opts *o);

/* The block length Politis and White's rule gives x[0..n) (see above), 1 for n < 8. */
size_t pd_tails_block_of(const double *x, size_t n);

/* One percentile's change between a baseline and a target side. */
struct pd_tails_delta {
	enum pd_tails_status status; /* OK only when both sides are */
	double pct;                  /* 100 (p_t / p_b - 1); NaN unless OK */
	double lo_pct, hi_pct;       /* the interval at z; NaN unless OK */
};
/* Every percentile's change (out[PD_TAILS_PCTS]); z the normal quantile of the level. */
void pd_tails_delta_of(struct pd_tails_delta *out, const struct pd_tails_side *base,
		       const struct pd_tails_side *target, double z);

/* The share of slow requests of one run in one phase. */
struct pd_tails_share {
	int ok;        /* some request was counted */
	size_t n;      /* intervals where both rates have a value */
	size_t block;  /* the residuals' block length (their flat-top lag count, 2m) */
	double slow_n; /* requests slower than the bound */
	double all_n;  /* requests */
	double share;  /* slow_n / all_n; NaN unless ok */
	double se;     /* its standard error; NaN unless ok */
};
/* From the per-second rates slow[0..n) and all[0..n) sampled every step_s seconds (a NaN
 * in either drops that interval). */
void pd_tails_share_of(struct pd_tails_share *out, const double *slow, const double *all,
		       size_t n, double step_s);

struct pd_tails_share_delta {
	int ok;                     /* both shares are */
	double pts, lo_pts, hi_pts; /* 100 (R_t - R_b) and its interval, percentage points */
	int has_pct; /* the baseline share is clear of 0, the target's positive */
	double pct, lo_pct,
		hi_pct; /* 100 (R_t / R_b - 1) and its interval; NaN unless has_pct */
};
void pd_tails_share_delta_of(struct pd_tails_share_delta *out,
			     const struct pd_tails_share *base,
			     const struct pd_tails_share *target, double z);

#endif
