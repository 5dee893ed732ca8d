#include "check_suites.h"

#include "analyze/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Expected values are worked by hand below; where the arithmetic needs more digits than
 * a hand gives, python3's math.erfc/math.sqrt did the last step (formula shown). */

/* ---- quantiles (R type 7: h = (n - 1) q, x[lo] + (h - lo)(x[lo + 1] - x[lo])) ---- */

START_TEST(test_quantile_single_value_is_every_quantile)
{
	const double v[] = {7};
	/* n = 1: h = 0 for every q */
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 1, 0), 7, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 1, 0.5), 7, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 1, 1), 7, 1e-12);
}
END_TEST

START_TEST(test_quantile_two_values_interpolate)
{
	const double v[] = {1, 3};
	/* q = 0.25: h = 0.25, 1 + 0.25 (3 - 1) = 1.5; q = 0.5: h = 0.5, 1 + 0.5 * 2 = 2 */
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 2, 0.25), 1.5, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 2, 0.5), 2, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 2, 1), 3, 1e-12);
}
END_TEST

START_TEST(test_quantile_five_uneven_values)
{
	const double v[] = {1, 2, 4, 8, 16};
	/* q = 0.05: h = 4 * 0.05 = 0.2, 1 + 0.2 (2 - 1) = 1.2
	 * q = 0.3:  h = 1.2, 2 + 0.2 (4 - 2) = 2.4
	 * q = 0.5:  h = 2, x[2] = 4
	 * q = 0.95: h = 3.8, 8 + 0.8 (16 - 8) = 14.4 */
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 5, 0.05), 1.2, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 5, 0.3), 2.4, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 5, 0.5), 4, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 5, 0.95), 14.4, 1e-12);
}
END_TEST

START_TEST(test_quantile_one_to_ten_matches_r_type7)
{
	const double v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	/* q = 0.05: h = 9 * 0.05 = 0.45, 1 + 0.45 = 1.45
	 * q = 0.5:  h = 4.5, 5 + 0.5 = 5.5
	 * q = 0.95: h = 8.55, 9 + 0.55 = 9.55
	 * q = 0, 1: the extremes 1 and 10 */
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 10, 0.05), 1.45, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 10, 0.5), 5.5, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 10, 0.95), 9.55, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 10, 0), 1, 1e-12);
	ck_assert_double_eq_tol(pd_stats_quantile_sorted(v, 10, 1), 10, 1e-12);
}
END_TEST

/* ---- summary ---- */

START_TEST(test_summary_linear_series_slope_two)
{
	/* v = 2t + 1 at t = 0, 10, 20, 30, 40: v = 1, 21, 41, 61, 81.
	 * mean 205 / 5 = 41; median x[2] = 41; p5: h = 0.2, 1 + 0.2 * 20 = 5;
	 * p95: h = 3.8, 61 + 0.8 * 20 = 77; slope exactly 2 per second. */
	const double t[] = {0, 10, 20, 30, 40}, v[] = {1, 21, 41, 61, 81};
	struct pd_summary s;
	pd_stats_summary(&s, t, v, 5);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_double_eq_tol(s.mean, 41, 1e-12);
	ck_assert_double_eq_tol(s.median, 41, 1e-12);
	ck_assert_double_eq_tol(s.p5, 5, 1e-12);
	ck_assert_double_eq_tol(s.p95, 77, 1e-12);
	ck_assert_double_eq_tol(s.min, 1, 1e-12);
	ck_assert_double_eq_tol(s.max, 81, 1e-12);
	ck_assert_double_eq_tol(s.slope, 2, 1e-12);
}
END_TEST

START_TEST(test_summary_unsorted_input_left_untouched)
{
	/* v = 4, 1, 3, 2 at t = 0..3; sorted 1, 2, 3, 4: mean 2.5, median 2.5,
	 * p5: h = 0.15, 1.15; p95: h = 2.85, 3 + 0.85 = 3.85.
	 * slope: t - 1.5 = -1.5, -0.5, 0.5, 1.5; v - 2.5 = 1.5, -1.5, 0.5, -0.5;
	 * sum of products -2.25 + 0.75 + 0.25 - 0.75 = -2; sum (t - 1.5)^2 = 5; -2 / 5 = -0.4
	 */
	const double t[] = {0, 1, 2, 3};
	double v[] = {4, 1, 3, 2};
	struct pd_summary s;
	pd_stats_summary(&s, t, v, 4);
	ck_assert_double_eq_tol(s.mean, 2.5, 1e-12);
	ck_assert_double_eq_tol(s.median, 2.5, 1e-12);
	ck_assert_double_eq_tol(s.p5, 1.15, 1e-12);
	ck_assert_double_eq_tol(s.p95, 3.85, 1e-12);
	ck_assert_double_eq_tol(s.slope, -0.4, 1e-12);
	ck_assert(v[0] == 4 && v[1] == 1 && v[2] == 3 && v[3] == 2);
}
END_TEST

START_TEST(test_summary_empty_and_single)
{
	struct pd_summary s;
	pd_stats_summary(&s, NULL, NULL, 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert(isnan(s.mean) && isnan(s.median) && isnan(s.p5) && isnan(s.p95));
	ck_assert(isnan(s.min) && isnan(s.max));
	ck_assert_double_eq(s.slope, 0);
	const double t[] = {5}, v[] = {3};
	pd_stats_summary(&s, t, v, 1);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_double_eq_tol(s.mean, 3, 1e-12);
	ck_assert_double_eq_tol(s.p95, 3, 1e-12);
	ck_assert_double_eq(s.slope, 0);
}
END_TEST

/* ---- lag-1 autocorrelation and effective sample size ---- */

START_TEST(test_lag1_of_one_to_five)
{
	/* mean 3, deviations -2 -1 0 1 2; sum of squares 10;
	 * lagged products (-2)(-1) + (-1)(0) + (0)(1) + (1)(2) = 4; r = 0.4 */
	const double v[] = {1, 2, 3, 4, 5};
	ck_assert_double_eq_tol(pd_stats_lag1(v, 5), 0.4, 1e-12);
	/* n (1 - r) / (1 + r) = 5 * 0.6 / 1.4 = 15 / 7 = 2.142857... */
	ck_assert_double_eq_tol(pd_stats_neff(5, 0.4), 15.0 / 7.0, 1e-12);
}
END_TEST

START_TEST(test_lag1_clamped_and_degenerate)
{
	/* alternating 1 0 ...: deviations +-0.5, sum of squares 8 * 0.25 = 2, the 7 lagged
	 * products -0.25 each: r = -1.75 / 2 = -0.875, clamped to 0 */
	const double alt[] = {1, 0, 1, 0, 1, 0, 1, 0};
	ck_assert_double_eq(pd_stats_lag1(alt, 8), 0);
	const double flat[] = {3, 3, 3, 3};
	ck_assert_double_eq(pd_stats_lag1(flat, 4), 0); /* variance 0 */
	ck_assert_double_eq(pd_stats_lag1(alt, 2), 0);  /* n < 3 */
	/* For v = 1..n: sum d^2 = n(n^2 - 1)/12 and sum d_i d_(i+1) = that - (n^2 - 1)/4
	 * (the n - 1 unit steps and the two end deviations (n - 1)/2), so r = 1 - 3/n:
	 * n = 100 gives 0.97, n = 1000 gives 0.997, clamped to 0.99. */
	double ramp[1000];
	for (int i = 0; i < 1000; i++)
		ramp[i] = i + 1;
	ck_assert_double_eq_tol(pd_stats_lag1(ramp, 100), 0.97, 1e-12);
	ck_assert_double_eq_tol(pd_stats_lag1(ramp, 1000), 0.99, 1e-12);
}
END_TEST

START_TEST(test_neff_bounds)
{
	ck_assert_double_eq(pd_stats_neff(0, 0.5), 0);
	ck_assert_double_eq_tol(pd_stats_neff(100, 0), 100, 1e-12);
	/* 10 * 0.01 / 1.99 = 0.05: raised to the floor of 1 */
	ck_assert_double_eq_tol(pd_stats_neff(10, 0.99), 1, 1e-12);
	/* 240 * 0.1 / 1.9 = 12.631578... */
	ck_assert_double_eq_tol(pd_stats_neff(240, 0.9), 24 / 1.9, 1e-9);
}
END_TEST

/* ---- Mann-Whitney ---- */

START_TEST(test_mann_whitney_wikipedia_tortoise_and_hare)
{
	/* Wikipedia, "Mann-Whitney U test", Illustration of calculation methods: finishing
	 * order T H H H H H T T T T T H, the first home ranked 12. Tortoises' ranks
	 * 12 6 5 4 3 2 (sum 32), hares' 11 10 9 8 7 1; published U_T = 32 - 21 = 11,
	 * U_H = 25. Normal approximation: mean 6 * 6 / 2 = 18; no ties, variance
	 * 36 / 12 * 13 = 39, sd 6.244998; z = (|11 - 18| - 0.5) / 6.244998 = 1.040833;
	 * p = erfc(z / sqrt 2) = 0.29795306 (R: wilcox.test(exact = FALSE) gives 0.298). */
	const double tort[] = {12, 6, 5, 4, 3, 2}, hare[] = {11, 10, 9, 8, 7, 1};
	double u = -1;
	ck_assert_double_eq_tol(pd_stats_mann_whitney(tort, 6, hare, 6, 0, &u), 0.29795306,
				1e-7);
	ck_assert_double_eq_tol(u, 11, 1e-12);
	ck_assert_double_eq_tol(pd_stats_mann_whitney(hare, 6, tort, 6, 0, &u), 0.29795306,
				1e-7);
	ck_assert_double_eq_tol(u, 25, 1e-12);
}
END_TEST

START_TEST(test_mann_whitney_ties_use_midranks_and_corrected_variance)
{
	/* x = 1 2 2 3, y = 2 3 4 5. Pooled: 1(x) 2(x) 2(x) 2(y) 3(x) 3(y) 4 5; the 2s share
	 * ranks 2..4 -> 3, the 3s share 5..6 -> 5.5. R_x = 1 + 3 + 3 + 5.5 = 12.5,
	 * U = 12.5 - 4 * 5 / 2 = 2.5 (pairs: 0 + 0.5 + 0.5 + 1.5). Mean 8. Ties t = 3 and 2:
	 * sum (t^3 - t) = 24 + 6 = 30; variance 16 / 12 (9 - 30 / 56) = 11.285714,
	 * sd 3.359422; z = (5.5 - 0.5) / 3.359422 = 1.488351; p = erfc(z / sqrt 2) =
	 * 0.13665825 (without the tie term: variance 12, p = 0.14891467). */
	const double x[] = {1, 2, 2, 3}, y[] = {2, 3, 4, 5};
	double u = -1;
	ck_assert_double_eq_tol(pd_stats_mann_whitney(x, 4, y, 4, 0, &u), 0.13665825, 1e-7);
	ck_assert_double_eq_tol(u, 2.5, 1e-12);
}
END_TEST

START_TEST(test_mann_whitney_separated_samples)
{
	/* x = 1..20 below y = 21..40: U = 0, mean 200, variance 400 / 12 * 41 = 1366.667,
	 * sd 36.968455; z = 199.5 / 36.968455 = 5.396493; p = erfc(z / sqrt 2) = 6.7956e-8 */
	double x[20], y[20], u = -1;
	for (int i = 0; i < 20; i++)
		x[i] = i + 1, y[i] = i + 21;
	ck_assert_double_eq_tol(pd_stats_mann_whitney(x, 20, y, 20, 0, &u), 6.795615e-8, 1e-12);
	ck_assert_double_eq_tol(u, 0, 1e-12);
}
END_TEST

START_TEST(test_mann_whitney_inflation_widens_for_autocorrelation)
{
	/* x = 1..6, y = 4..9 (time order). U_x: 4 ties y4 (0.5), 5 beats 4 and ties 5 (1.5),
	 * 6 (2.5): U = 4.5, mean 18, |d| - 0.5 = 13. Ties 4, 5, 6 (t = 2 each): sum 18;
	 * variance 36 / 12 (13 - 18 / 132) = 38.590909; z = 13 / sqrt(38.590909) = 2.092670,
	 * p = 0.03637858. Lag 1 of 1..6: deviations +-0.5, +-1.5, +-2.5, sum of squares 17.5,
	 * lagged sum 3.75 + 0.75 - 0.25 + 0.75 + 3.75 = 8.75, r = 0.5; n_eff = 6 * 0.5 / 1.5
	 * = 2, n / n_eff = 3 for both, so variance x 3 = 115.772727; z = 13 / 10.759773
	 * = 1.208204, p = erfc(z / sqrt 2) = 0.22696886. */
	const double x[] = {1, 2, 3, 4, 5, 6}, y[] = {4, 5, 6, 7, 8, 9};
	double u = -1;
	ck_assert_double_eq_tol(pd_stats_mann_whitney(x, 6, y, 6, 0, &u), 0.03637858, 1e-7);
	ck_assert_double_eq_tol(u, 4.5, 1e-12);
	ck_assert_double_eq_tol(pd_stats_mann_whitney(x, 6, y, 6, 1, NULL), 0.22696886, 1e-7);
}
END_TEST

START_TEST(test_mann_whitney_no_evidence_gives_one)
{
	const double x[] = {1, 2, 3}, same[] = {3, 3, 3};
	double u = -1;
	/* x against itself: ranks 1.5 3.5 5.5, U = 10.5 - 6 = 4.5 = mean: p = 1 */
	ck_assert_double_eq_tol(pd_stats_mann_whitney(x, 3, x, 3, 0, &u), 1, 1e-12);
	ck_assert_double_eq_tol(u, 4.5, 1e-12);
	/* every value tied: variance 9 / 12 (7 - 210 / 30) = 0 */
	ck_assert_double_eq_tol(pd_stats_mann_whitney(same, 3, same, 3, 0, NULL), 1, 1e-12);
	ck_assert_double_eq_tol(pd_stats_mann_whitney(x, 0, x, 3, 1, &u), 1, 1e-12);
	ck_assert_double_eq(u, 0);
}
END_TEST

/* ---- the interval of a change of medians ---- */

/* A deterministic N(0, 1) source for the tests (PCG-style LCG + Box-Muller). */
static uint64_t lcg_state;

static double unif(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(lcg_state >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	double u = unif(), w = unif();
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * w);
}

/* 100 + an AR(1) of coefficient phi with unit stationary variance (phi = 0: white). */
static void ar1(double *v, size_t n, double phi)
{
	double e = gauss();
	for (size_t i = 0; i < n; i++) {
		v[i] = 100 + e;
		e = phi * e + sqrt(1 - phi * phi) * gauss();
	}
}

START_TEST(test_interval_identical_series_cover_zero)
{
	double x[240];
	lcg_state = 5;
	ar1(x, 240, 0);
	struct pd_delta_ci ci = pd_stats_delta_ci(x, 240, x, 240, 0.05);
	ck_assert_double_eq(ci.delta_pct, 0);
	ck_assert(ci.lo_pct < 0 && 0 < ci.hi_pct);
}
END_TEST

START_TEST(test_interval_ten_percent_shift)
{
	/* y = 1.1 x keeps the order, so median(y) = 1.1 median(x) and the delta is 10 % */
	double x[240], y[240];
	lcg_state = 9;
	ar1(x, 240, 0);
	for (int i = 0; i < 240; i++)
		y[i] = 1.1 * x[i];
	struct pd_delta_ci ci = pd_stats_delta_ci(x, 240, y, 240, 0.05);
	ck_assert_double_eq_tol(ci.delta_pct, 10, 1e-9);
	ck_assert(ci.lo_pct < 10 && 10 < ci.hi_pct);
	ck_assert(ci.lo_pct > 9 && ci.hi_pct < 11); /* sd 1 around 100: a tight interval */
}
END_TEST

START_TEST(test_interval_by_hand)
{
	/* x = 1 3 1 3 ... (100 samples), y = x + 1. Lag-1 autocorrelation is -1, clamped to
	 * 0: n_eff = 100. h = 1.959964 / (2 sqrt(100)) = 0.0979982.
	 * x sorted: 50 ones, 50 threes. Type 7 at q = 0.4020018: 99 q = 39.798, x[39] = 1;
	 * at q = 0.5979982: 59.202, x[59] = x[60] = 3. se_x = (3 - 1) / (2 z) = 0.5102135;
	 * median 2. y: median 3, same se. rel = sqrt((0.5102135/2)^2 + (0.5102135/3)^2)
	 * = sqrt(0.0650795 + 0.0289249) = 0.3066001; z rel = 0.6009252.
	 * delta = 50 %; lo = 100 (1.5 exp(-0.6009252) - 1) = -17.754 %,
	 * hi = 100 (1.5 exp(0.6009252) - 1) = +173.571 % (python3's math as the calculator). */
	double x[100], y[100];
	for (int i = 0; i < 100; i++)
		x[i] = i % 2 ? 3 : 1, y[i] = x[i] + 1;
	struct pd_delta_ci ci = pd_stats_delta_ci(x, 100, y, 100, 0.05);
	ck_assert_double_eq_tol(ci.delta_pct, 50, 1e-9);
	ck_assert_double_eq_tol(ci.lo_pct, -17.754, 0.001);
	ck_assert_double_eq_tol(ci.hi_pct, 173.571, 0.001);
}
END_TEST

START_TEST(test_interval_wider_for_autocorrelated_series)
{
	/* Same marginal variance (1), phi 0.9 against white noise: n_eff = 240 * 0.1 / 1.9
	 * = 12.6 against 240, so the interval should be about sqrt(19) = 4.4 times wider
	 * (the estimated r varies around 0.9: ask for 2.5) */
	double x[240], y[240];
	lcg_state = 1;
	ar1(x, 240, 0.9);
	ar1(y, 240, 0.9);
	struct pd_delta_ci ar = pd_stats_delta_ci(x, 240, y, 240, 0.05);
	lcg_state = 1;
	ar1(x, 240, 0);
	ar1(y, 240, 0);
	struct pd_delta_ci white = pd_stats_delta_ci(x, 240, y, 240, 0.05);
	ck_assert(ar.hi_pct - ar.lo_pct > 2.5 * (white.hi_pct - white.lo_pct));
}
END_TEST

START_TEST(test_interval_negative_baseline_and_nan_cases)
{
	/* medians -4 and -3: 100 (-3 - -4) / |-4| = 25 */
	const double nx[] = {-2, -6, -4}, ny[] = {-1, -5, -3};
	struct pd_delta_ci ci = pd_stats_delta_ci(nx, 3, ny, 3, 0.05);
	ck_assert_double_eq_tol(ci.delta_pct, 25, 1e-12);
	ck_assert(ci.lo_pct < 25 && 25 < ci.hi_pct);
	const double zero[] = {-1, 0, 1}, y[] = {1, 2, 3};
	ci = pd_stats_delta_ci(zero, 3, y, 3, 0.05);
	ck_assert(isnan(ci.delta_pct) && isnan(ci.lo_pct) && isnan(ci.hi_pct));
	ci = pd_stats_delta_ci(y, 0, y, 3, 0.05);
	ck_assert(isnan(ci.delta_pct) && isnan(ci.lo_pct) && isnan(ci.hi_pct));
	ci = pd_stats_delta_ci(y, 3, y, 0, 0.05);
	ck_assert(isnan(ci.delta_pct));
}
END_TEST

/* ---- multiple testing ---- */

START_TEST(test_holm_and_bh_known_example)
{
	/* p = 0.01 0.04 0.03 0.005, sorted 0.005 0.01 0.03 0.04.
	 * Holm: x 4 3 2 1 -> 0.02 0.03 0.06 0.04, running max 0.02 0.03 0.06 0.06;
	 *   input order: 0.03 0.06 0.06 0.02 (as R's p.adjust(p, "holm")).
	 * BH: x 4/1 4/2 4/3 4/4 -> 0.02 0.02 0.04 0.04, running min from the top
	 *   0.04 0.04 0.02 0.02; input order: 0.02 0.04 0.04 0.02. */
	const double p[] = {0.01, 0.04, 0.03, 0.005};
	const double holm[] = {0.03, 0.06, 0.06, 0.02}, bh[] = {0.02, 0.04, 0.04, 0.02};
	double adj[4];
	pd_stats_holm(adj, p, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq_tol(adj[i], holm[i], 1e-12);
	pd_stats_bh(adj, p, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq_tol(adj[i], bh[i], 1e-12);
}
END_TEST

START_TEST(test_holm_caps_at_one_and_bh_stays_monotone)
{
	/* p = 0.3 0.9 0.8, sorted 0.3 0.8 0.9. Holm: 0.9, 1.6, 0.9 -> running max 0.9 1.6
	 * 1.6 -> capped 0.9 1 1; input order 0.9 1 1. BH: 3 * 0.3 = 0.9, 1.5 * 0.8 = 1.2,
	 * 0.9; running min from the top 0.9 0.9 0.9. */
	const double p[] = {0.3, 0.9, 0.8};
	double adj[3];
	pd_stats_holm(adj, p, 3);
	ck_assert_double_eq_tol(adj[0], 0.9, 1e-12);
	ck_assert_double_eq_tol(adj[1], 1, 1e-12);
	ck_assert_double_eq_tol(adj[2], 1, 1e-12);
	pd_stats_bh(adj, p, 3);
	for (int i = 0; i < 3; i++)
		ck_assert_double_eq_tol(adj[i], 0.9, 1e-12);
	/* a single test is left as it is */
	pd_stats_holm(adj, p, 1);
	ck_assert_double_eq_tol(adj[0], 0.3, 1e-12);
	pd_stats_bh(adj, p + 1, 1);
	ck_assert_double_eq_tol(adj[0], 0.9, 1e-12);
}
END_TEST

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The radix sort against qsort on 3000 values with negatives, zeros of both signs,
 * repeats and infinities (the comparison is qsort's, an independent implementation). */
START_TEST(test_sort_matches_qsort)
{
	enum { N = 3000 };
	static double a[N], b[N];
	uint64_t x = 12345;
	for (int i = 0; i < N; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		double v = (double)(int64_t)(x >> 11) / 1e12;
		a[i] = i % 97 == 0   ? -0.0
		       : i % 89 == 0 ? INFINITY
		       : i % 83 == 0 ? -INFINITY
		       : i % 7 == 0  ? 3.5
				     : v;
		b[i] = a[i];
	}
	pd_stats_sort(a, N);
	qsort(b, N, sizeof(double), cmp_d);
	for (int i = 0; i < N; i++)
		ck_assert_msg(a[i] == b[i], "position %d: %g vs %g", i, a[i], b[i]);
}
END_TEST

/* Coverage: over 200 pairs of independent AR(1) series of
 * 1000 samples (phi 0.7, unit variance) with equal levels (100), the 95 % interval should
 * exclude 0 about 5 % of the time (a binomial 200 x 0.05 = 10, sd 3.1: more than 20 means the
 * interval ignores the autocorrelation; with n instead of n_eff it would be ~40 %); with the
 * target 10 % higher (110) it should contain 10 as often. */
START_TEST(test_interval_covers_under_autocorrelation)
{
	enum { N = 1000, PAIRS = 200 };
	static double x[N], y[N];
	int miss0 = 0, miss10 = 0;
	lcg_state = 99;
	for (int k = 0; k < PAIRS; k++) {
		ar1(x, N, 0.7);
		ar1(y, N, 0.7);
		struct pd_delta_ci a = pd_stats_delta_ci(x, N, y, N, 0.05);
		miss0 += a.lo_pct > 0 || a.hi_pct < 0;
		ar1(y, N, 0.7);
		for (int i = 0; i < N; i++)
			y[i] += 10;
		struct pd_delta_ci b = pd_stats_delta_ci(x, N, y, N, 0.05);
		miss10 += b.lo_pct > 10 || b.hi_pct < 10;
		ck_assert(b.lo_pct < b.delta_pct && b.delta_pct < b.hi_pct);
	}
	ck_assert_msg(miss0 <= 20, "0 missed %d times of %d", miss0, PAIRS);
	ck_assert_msg(miss10 <= 20, "10 missed %d times of %d", miss10, PAIRS);
	ck_assert_msg(miss0 >= 1, "never missed: the interval is too wide to mean anything");
}
END_TEST

Suite *pd_suite_stats(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");
	tcase_add_test(tc, test_quantile_single_value_is_every_quantile);
	tcase_add_test(tc, test_quantile_two_values_interpolate);
	tcase_add_test(tc, test_quantile_five_uneven_values);
	tcase_add_test(tc, test_quantile_one_to_ten_matches_r_type7);
	tcase_add_test(tc, test_summary_linear_series_slope_two);
	tcase_add_test(tc, test_summary_unsorted_input_left_untouched);
	tcase_add_test(tc, test_summary_empty_and_single);
	tcase_add_test(tc, test_lag1_of_one_to_five);
	tcase_add_test(tc, test_lag1_clamped_and_degenerate);
	tcase_add_test(tc, test_neff_bounds);
	tcase_add_test(tc, test_mann_whitney_wikipedia_tortoise_and_hare);
	tcase_add_test(tc, test_mann_whitney_ties_use_midranks_and_corrected_variance);
	tcase_add_test(tc, test_mann_whitney_separated_samples);
	tcase_add_test(tc, test_mann_whitney_inflation_widens_for_autocorrelation);
	tcase_add_test(tc, test_mann_whitney_no_evidence_gives_one);
	tcase_add_test(tc, test_interval_identical_series_cover_zero);
	tcase_add_test(tc, test_interval_ten_percent_shift);
	tcase_add_test(tc, test_interval_by_hand);
	tcase_add_test(tc, test_interval_wider_for_autocorrelated_series);
	tcase_add_test(tc, test_interval_negative_baseline_and_nan_cases);
	tcase_add_test(tc, test_holm_and_bh_known_example);
	tcase_add_test(tc, test_holm_caps_at_one_and_bh_stays_monotone);
	tcase_add_test(tc, test_sort_matches_qsort);
	tcase_add_test(tc, test_interval_covers_under_autocorrelation);
	suite_add_tcase(s, tc);
	return s;
}
