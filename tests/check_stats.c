#include "check_suites.h"

#include "analyze/stats/stats.h"

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

/* ---- sorting ---- */

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

/* Keys that share bytes (the sort skips those digits): integers near 2e10 (low bytes all
 * 0, top bytes shared), a few repeated levels, and all equal; against qsort. */
START_TEST(test_sort_with_shared_digits_matches_qsort)
{
	enum { N = 2000 };
	static double a[N], b[N];
	uint64_t x = 777;
	for (int shape = 0; shape < 3; shape++) {
		for (int i = 0; i < N; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			double by_shape[] = {2e10 + (double)(x >> 44), (double)(x >> 62) * 0.25,
					     -7.5};
			a[i] = b[i] = by_shape[shape];
		}
		pd_stats_sort(a, N);
		qsort(b, N, sizeof(double), cmp_d);
		for (int i = 0; i < N; i++)
			ck_assert_msg(a[i] == b[i], "shape %d, position %d: %g vs %g", shape, i,
				      a[i], b[i]);
	}
}
END_TEST

/* Two sorted runs merged in the sort's order, written out by hand: ties (a's first, equal
 * bits), both zeros (-0 before 0, though -0 == 0), infinities, one run empty, and each run
 * running out first. */
START_TEST(test_merge_keeps_the_sort_order)
{
	const double a[] = {-INFINITY, -2, -0.0, 1, 1, 3};
	const double b[] = {-3, -0.0, 0.0, 1, 2, INFINITY};
	const double want[] = {-INFINITY, -3, -2, -0.0, -0.0, 0.0, 1, 1, 1, 2, 3, INFINITY};
	double out[12];
	pd_stats_merge(out, a, 6, b, 6);
	ck_assert(!memcmp(out, want, sizeof(want)));
	pd_stats_merge(out, b, 6, a, 6); /* the same: a tie is equal bits */
	ck_assert(!memcmp(out, want, sizeof(want)));
	const double c[] = {0.0, 5}, d[] = {-0.0};
	const double want_cd[] = {-0.0, 0.0, 5};
	pd_stats_merge(out, c, 2, d, 1); /* b runs out first */
	ck_assert(!memcmp(out, want_cd, sizeof(want_cd)));
	pd_stats_merge(out, d, 1, c, 2); /* a runs out first */
	ck_assert(!memcmp(out, want_cd, sizeof(want_cd)));
	pd_stats_merge(out, c, 2, d, 0); /* one empty */
	ck_assert(!memcmp(out, c, sizeof(c)));
	pd_stats_merge(out, d, 0, c, 2);
	ck_assert(!memcmp(out, c, sizeof(c)));
}
END_TEST

/* The median by selection against the sorted array's R type-7 median, bit for bit: odd
 * and even counts from 1, repeats, both zeros (-0 sorts first), infinities (inf - inf in
 * the interpolation gives NaN both ways). */
START_TEST(test_median_by_selection_matches_the_sorted_one)
{
	enum { N = 301 };
	static double v[N], sorted[N];
	const double pool[] = {-0.0, 0.0, 1.5, -2, 3, 3, 1e300, INFINITY, -INFINITY, 7.25};
	uint64_t x = 99;
	for (size_t n = 1; n <= N; n += n < 12 ? 1 : 17)
		for (int shape = 0; shape < 3; shape++) {
			for (size_t i = 0; i < n; i++) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				size_t pick = (size_t)(x >> 33) % (shape == 2 ? 10 : 6);
				v[i] = shape == 0 ? (double)(int64_t)(x >> 20) / 1e3
						  : pool[pick];
				sorted[i] = v[i];
			}
			pd_stats_sort(sorted, n);
			double want = pd_stats_quantile_sorted(sorted, n, 0.5);
			double got = pd_stats_median(v, n);
			ck_assert_msg(!memcmp(&got, &want, sizeof(got)) ||
					      (isnan(got) && isnan(want)),
				      "n %zu shape %d: %g, sorted %g", n, shape, got, want);
		}
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
	tcase_add_test(tc, test_sort_matches_qsort);
	tcase_add_test(tc, test_sort_with_shared_digits_matches_qsort);
	tcase_add_test(tc, test_median_by_selection_matches_the_sorted_one);
	tcase_add_test(tc, test_merge_keeps_the_sort_order);
	suite_add_tcase(s, tc);
	return s;
}
