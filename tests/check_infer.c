#include "check_suites.h"

#include "analyze/stats/infer.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Reference values: R's qnorm/qt/pt, digamma/trigamma; computed with scipy 1.10
 * (scipy.stats.norm.ppf, t.ppf, t.sf, scipy.special.digamma/polygamma, brentq for
 * inverses), which agree with R to the digits shown. */

START_TEST(test_infer_qnorm_matches_r)
{
	/* R: qnorm(1 - 0.05/600) = 3.764823649533926, the Bonferroni z of 300 two-sided
	 * tests at alpha 0.05. (3.9352 in the brief is neither this nor qnorm(1 - 0.05/1200)
	 * = 3.934605861560465, a family of 600.) */
	ck_assert_double_eq_tol(pd_infer_qnorm(1 - 0.05 / 600), 3.764823649533926, 1e-12);
	ck_assert_double_eq_tol(pd_infer_qnorm(1 - 0.05 / 1200), 3.934605861560465, 1e-12);
	ck_assert_double_eq_tol(pd_infer_qnorm(0.975), 1.959963984540054, 1e-13);
	ck_assert_double_eq_tol(pd_infer_qnorm(1e-10), -6.361340902404056, 1e-11);
	ck_assert_double_eq_tol(pd_infer_qnorm(0.5), 0, 1e-15);
}
END_TEST

START_TEST(test_infer_t_matches_r)
{
	/* R: qt(0.975, 3), qt(1 - 0.05/600, 10), qt(0.999, 2.5); 2 * pt(-2, 5),
	 * 2 * pt(-4.5, 7.3), 2 * pt(-0.3, 40) */
	ck_assert_double_eq_tol(pd_infer_qt(0.975, 3), 3.182446305284263, 1e-10);
	ck_assert_double_eq_tol(pd_infer_qt(1 - 0.05 / 600, 10), 5.827267022850444, 1e-9);
	ck_assert_double_eq_tol(pd_infer_qt(0.999, 2.5), 13.822193110834316, 1e-8);
	ck_assert_double_eq_tol(pd_infer_qt(0.025, 3), -3.182446305284263, 1e-10);
	ck_assert_double_eq_tol(pd_infer_t_tail2(2, 5), 0.10193947882985828, 1e-13);
	ck_assert_double_eq_tol(pd_infer_t_tail2(-4.5, 7.3), 0.0025193737332427964, 1e-14);
	ck_assert_double_eq_tol(pd_infer_t_tail2(0.3, 40), 0.7657307167710191, 1e-13);
}
END_TEST

START_TEST(test_infer_polygamma_matches_r)
{
	/* digamma(1) = -Euler's gamma; trigamma(1) = pi^2 / 6 */
	ck_assert_double_eq_tol(pd_infer_digamma(1), -0.5772156649015329, 1e-13);
	ck_assert_double_eq_tol(pd_infer_digamma(0.3), -3.502524222200133, 1e-12);
	ck_assert_double_eq_tol(pd_infer_digamma(7.5), 1.9467574842460866, 1e-13);
	ck_assert_double_eq_tol(pd_infer_trigamma(1), M_PI * M_PI / 6, 1e-13);
	ck_assert_double_eq_tol(pd_infer_trigamma(0.3), 12.245364546107734, 1e-11);
	/* trigamma(x) = 0.5 at x = 2.459952948352619, = 20 at 0.23077632915237792 */
	ck_assert_double_eq_tol(pd_infer_trigamma_inv(0.5), 2.459952948352619, 1e-7);
	ck_assert_double_eq_tol(pd_infer_trigamma_inv(20), 0.23077632915237792, 1e-8);
}
END_TEST

static void side_of(struct pd_infer_side *out, const double *v, size_t n)
{
	struct pd_sample s;
	double *sorted = malloc((n + 1) * sizeof(*sorted));
	pd_stats_sample_prepare(&s, v, v, n, sorted);
	pd_infer_side_of(out, &s);
	free(sorted);
}

START_TEST(test_infer_ar1_variance_by_hand)
{
	/* F(0.5, 3): Var(mean of 3) = sigma^2 / 9 (3 + 2 * 2 * 0.5 + 2 * 0.25) = 5.5 / 9,
	 * so F = 5.5 / 3. */
	ck_assert_double_eq_tol(pd_infer_ar1_factor(0.5, 3), 5.5 / 3, 1e-12);
	ck_assert_double_eq_tol(pd_infer_ar1_factor(0, 240), 1, 1e-15);
	/* v = 1 2 3 2 1: mean 1.8, deviations -0.8 0.2 1.2 0.2 -0.8, ss = 2.8,
	 * lag sum = -0.16 + 0.24 + 0.24 - 0.16 = 0.16, r = 0.16 / 2.8 = 0.0571429;
	 * Kendall: phi = r + (1 + 3 r) / 5 = 0.2914286; s^2 = 2.8 / 4 = 0.7. */
	const double v[] = {1, 2, 3, 2, 1};
	struct pd_infer_side s;
	side_of(&s, v, 5);
	double phi = 0.16 / 2.8 + (1 + 3 * 0.16 / 2.8) / 5;
	ck_assert_double_eq_tol(s.mean, 1.8, 1e-12);
	ck_assert_double_eq_tol(s.phi, phi, 1e-12);
	/* F independently: (1/n) sum_ij phi^|i-j| (the covariance sum, not the closed form) */
	double f = 0;
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++)
			f += pow(phi, abs(i - j)) / 5;
	ck_assert_double_eq_tol(f, 1.5908886981357766, 1e-12); /* numpy, same sum */
	ck_assert_double_eq_tol(s.var_mean, 0.7 * f / 5, 1e-12);
	ck_assert_double_eq_tol(s.n_eff, 5 / f, 1e-12);
	ck_assert_double_eq_tol(s.gap, 1, 1e-15);
}
END_TEST

START_TEST(test_infer_limma_by_hand)
{
	/* posterior: d0 = 4, s0^2 = 0.0016, d = 2, s^2 = 0.0004:
	 * (4 * 0.0016 + 2 * 0.0004) / 6 = 0.0072 / 6 = 0.0012 */
	struct pd_infer_prior pr = {.s0sq = 0.0016, .d0 = 4};
	ck_assert_double_eq_tol(pd_infer_moderate(&pr, 0.0004, 2), 0.0012, 1e-15);
	struct pd_infer_prior none = {0};
	ck_assert_double_eq_tol(pd_infer_moderate(&none, 0.0004, 2), 0.0004, 1e-15);
	/* fitFDist by moments (Smyth 2004), reference computed in scipy:
	 * e = log s2 - digamma(d/2) + log(d/2); evar = var(e) - mean(trigamma(d/2));
	 * d0 = 2 trigammaInverse(evar); s0^2 = exp(mean(e) + digamma(d0/2) - log(d0/2)). */
	const double s2[] = {0.0001, 0.04, 0.0025, 0.0009, 0.02, 0.0003};
	struct pd_infer_spread sp[6];
	for (int i = 0; i < 6; i++)
		sp[i] = (struct pd_infer_spread){.k = 3, .log_scale = 1, .s2 = s2[i]};
	struct pd_infer_prior fit;
	pd_infer_prior_fit(&fit, sp, 6);
	ck_assert_double_eq_tol(fit.d0, 1.1570659242913028, 1e-6);
	ck_assert_double_eq_tol(fit.s0sq, 0.0011832342823952457, 1e-9);
	/* variances that vary less than chance: evar < 0, an infinite prior at exp(mean e) */
	const double calm[] = {0.001, 0.004, 0.0025, 0.0009, 0.002};
	for (int i = 0; i < 5; i++)
		sp[i].s2 = calm[i];
	pd_infer_prior_fit(&fit, sp, 5);
	ck_assert_double_eq_tol(fit.d0, 1e4, 1e-9);
	ck_assert_double_eq_tol(fit.s0sq, 0.0031749440701247782, 1e-12);
}
END_TEST

/* ---- simulation: a fixed-seed PRNG (splitmix64) and Box-Muller ---- */

static uint64_t rng_state;

static double uniform(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}

/* Marsaglia's polar method, both of each pair used (no sine or cosine). */
static double gauss(void)
{
	static double spare;
	static int has_spare;
	if (has_spare) {
		has_spare = 0;
		return spare;
	}
	double u, v, r;
	do {
		u = 2 * uniform() - 1, v = 2 * uniform() - 1, r = u * u + v * v;
	} while (r >= 1 || r == 0);
	double f = sqrt(-2 * log(r) / r);
	spare = v * f, has_spare = 1;
	return u * f;
}

/* level (1 + sd x_i), x a stationary AR(1) of unit variance and lag-1 phi. */
static void ar1(double *v, size_t n, double phi, double level, double sd)
{
	double x = gauss(), e = sqrt(1 - phi * phi);
	for (size_t i = 0; i < n; i++) {
		v[i] = level * (1 + sd * x);
		x = phi * x + e * gauss();
	}
}

#define N_SIDE 240
static const struct pd_infer_rule rule5 = {.threshold_pct = 5, .worse = 1, .nonneg = 1};

/* One delta: baseline at 100, target at 100 (1 + step), both with noise sd (of level). */
static void judge_pair(struct pd_infer_result *r, double phi, double sd, double step, size_t m)
{
	double b[N_SIDE], t[N_SIDE];
	ar1(b, N_SIDE, phi, 100, sd);
	ar1(t, N_SIDE, phi, 100 * (1 + step), sd);
	struct pd_infer_side sb, st;
	side_of(&sb, b, N_SIDE);
	side_of(&st, t, N_SIDE);
	pd_infer_judge(r, &sb, &st, &rule5, &(struct pd_infer_family){m, 0.05});
}

static const double lags[] = {0, 0.5, 0.9, 0.97, 0.99};

/* Null deltas, families of 300: 0 false regressions in 60 families bounds the family
 * rate below 1 - 0.05^(1/60) = 4.9 % with 95 % confidence; we assert at most 3 of 60 (5 %)
 * and print how often the interval excluded 0 (the significance, with no threshold). */
START_TEST(test_infer_null_family_no_false_regression)
{
	rng_state = 15;
	for (size_t l = 0; l < 5; l++) {
		int fam_regr = 0, fam_sig = 0;
		for (int f = 0; f < 60; f++) {
			int regr = 0, sig = 0;
			for (int i = 0; i < 300; i++) {
				struct pd_infer_result r;
				judge_pair(&r, lags[l], 0.01, 0, 300);
				regr += r.verdict == PD_INFER_REGRESSION;
				sig += r.p_adj < 0.05;
			}
			fam_regr += regr > 0, fam_sig += sig > 0;
		}
		printf("infer null phi %.2f: families with a false regression %d/60, with an "
		       "interval excluding 0 %d/60\n",
		       lags[l], fam_regr, fam_sig);
		ck_assert_int_le(fam_regr, 3);
	}
}
END_TEST

/* +10 % (twice the threshold) on sd 1 % noise, m = 300: found in >= 95 % up to phi 0.97. */
START_TEST(test_infer_power_twice_threshold)
{
	rng_state = 16;
	for (size_t l = 0; l < 5; l++) {
		int found = 0, boundary = 0, n = 600;
		for (int i = 0; i < n; i++) {
			struct pd_infer_result r;
			judge_pair(&r, lags[l], 0.01, 0.10, 300);
			found += r.verdict == PD_INFER_REGRESSION;
			judge_pair(&r, lags[l], 0.01, 0.05, 300);
			boundary += r.verdict == PD_INFER_REGRESSION;
		}
		printf("infer power phi %.2f: +10%% found %.3f; at the threshold (+5%%) "
		       "regression %.4f\n",
		       lags[l], (double)found / n, (double)boundary / n);
		if (lags[l] <= 0.97)
			ck_assert_int_ge(found, 95 * n / 100);
	}
}
END_TEST

START_TEST(test_infer_rss_step_found)
{
	/* the seed's fact (c): RSS, lag-1 0.97, noise 0.4 %, +13 % after the failover, in a
	 * family of 360 */
	rng_state = 17;
	int found = 0;
	for (int i = 0; i < 200; i++) {
		double b[N_SIDE], t[N_SIDE];
		ar1(b, N_SIDE, 0.97, 1e9, 0.004);
		ar1(t, N_SIDE, 0.97, 1.13e9, 0.004);
		struct pd_infer_side sb, st;
		struct pd_infer_result r;
		side_of(&sb, b, N_SIDE);
		side_of(&st, t, N_SIDE);
		pd_infer_judge(&r, &sb, &st, &rule5, &(struct pd_infer_family){360, 0.05});
		ck_assert(r.valid & PD_INFER_HAS_PCT);
		ck_assert(r.lo_pct > 5 && r.hi_pct < 25);
		found += r.verdict == PD_INFER_REGRESSION && r.p_adj < 0.05;
	}
	ck_assert_int_eq(found, 200);
}
END_TEST

/* p_adj < alpha exactly when the family interval excludes 0, on every scale. */
START_TEST(test_infer_p_agrees_with_interval)
{
	rng_state = 18;
	int excl = 0;
	for (int i = 0; i < 1500; i++) {
		struct pd_infer_result r;
		double step = (double)(i % 7) * 0.004;
		judge_pair(&r, lags[i % 5], 0.01, step, 1 + (size_t)(i % 400));
		int out0 = r.lo_pct > 0 || r.hi_pct < 0;
		ck_assert_int_eq(out0, r.p_adj < 0.05);
		excl += out0;
	}
	ck_assert(excl > 150 && excl < 1350); /* both sides of the boundary were visited */
}
END_TEST

static int all_finite(const struct pd_infer_result *r)
{
	const double f[] = {
		r->base_level, r->target_level, r->delta_pct, r->lo_pct,      r->hi_pct,
		r->delta_abs,  r->lo_abs,       r->hi_abs,    r->delta_count, r->lo_count,
		r->hi_count,   r->stat,         r->df,        r->p,           r->p_adj,
		r->level};
	for (size_t i = 0; i < sizeof(f) / sizeof(*f); i++)
		if (!isfinite(f[i]))
			return 0;
	return 1;
}

START_TEST(test_infer_zero_baseline_gives_counts)
{
	/* query_errors: 0 in the baseline, ~54.6/s in the target window of 240 samples of
	 * 10 s: about 54.6 * 2400 = 131040 failed queries */
	rng_state = 19;
	double b[N_SIDE] = {0}, t[N_SIDE];
	ar1(t, N_SIDE, 0.5, 54.6, 0.1);
	struct pd_infer_side sb, st;
	side_of(&sb, b, N_SIDE);
	side_of(&st, t, N_SIDE);
	struct pd_infer_rule rule = {
		.threshold_pct = 5, .worse = 1, .nonneg = 1, .rate = 1, .step_s = 10};
	struct pd_infer_result r;
	pd_infer_judge(&r, &sb, &st, &rule, &(struct pd_infer_family){300, 0.05});
	ck_assert(all_finite(&r));
	ck_assert_int_eq(r.scale, PD_INFER_ABSOLUTE);
	ck_assert(!(r.valid & PD_INFER_HAS_PCT) && (r.valid & PD_INFER_HAS_COUNT));
	ck_assert_double_eq_tol(r.delta_count, 54.6 * 2400, 0.02 * 54.6 * 2400);
	ck_assert(r.lo_count > 0.8 * 54.6 * 2400 && r.hi_count < 1.2 * 54.6 * 2400);
	ck_assert_int_eq(r.verdict, PD_INFER_INCONCLUSIVE);
	ck_assert_int_eq(r.reason, PD_INFER_ZERO_BASELINE);
	rule.has_abs = 1, rule.abs_threshold = 10; /* any 10 failed queries are a regression */
	pd_infer_judge(&r, &sb, &st, &rule, &(struct pd_infer_family){300, 0.05});
	ck_assert_int_eq(r.verdict, PD_INFER_REGRESSION);
	ck_assert(r.p_adj < 0.05);
}
END_TEST

/* The seed's query errors: a burst of +45/s decaying with tau 10 s at a failover, 5 s
 * samples, against a baseline with no error at all. The count is the burst's integral,
 * computed here by hand: sum of 45 e^(-5 i / 10) * 5 s over the samples. */
START_TEST(test_infer_error_burst_against_silence_is_counted)
{
	double b[N_SIDE] = {0}, t[N_SIDE] = {0}, count = 0;
	for (int i = 0; i < 30; i++)
		t[60 + i] = 45 * exp(-5.0 * i / 10), count += t[60 + i] * 5;
	struct pd_infer_side sb, st;
	side_of(&sb, b, N_SIDE);
	side_of(&st, t, N_SIDE);
	struct pd_infer_rule rule = {.threshold_pct = 5,
				     .worse = 1,
				     .nonneg = 1,
				     .rate = 1,
				     .step_s = 5,
				     .has_abs = 1,
				     .abs_threshold = 10};
	struct pd_infer_result r;
	pd_infer_judge(&r, &sb, &st, &rule, &(struct pd_infer_family){300, 0.05});
	ck_assert(all_finite(&r));
	ck_assert_int_eq(r.scale, PD_INFER_ABSOLUTE);
	ck_assert_double_eq_tol(r.delta_count, count, 1e-9 * count);
	/* Poisson: count +- z sqrt(count + 1), z = qnorm(1 - 0.05 / 600) */
	ck_assert_double_eq_tol(r.lo_count, count - 3.764823649533926 * sqrt(count + 1), 1e-6);
	ck_assert_int_eq(r.verdict, PD_INFER_REGRESSION);
	/* three silent baselines are silence too: the same Poisson interval, whatever the
	 * prior lends the metrics whose baselines vary (before: t at 2 df over the target's
	 * own burst as noise, -1812 .. +3174 of the seed's 681 failed queries) */
	struct pd_infer_side three[3] = {sb, sb, sb};
	struct pd_infer_spread sp;
	pd_infer_spread_of(&sp, three, 3);
	struct pd_infer_prior prior = {.d0 = 4, .s0sq = 0.01};
	struct pd_infer_result r3;
	pd_infer_judge_reps(&r3, &sp, &prior, &st, &rule, &(struct pd_infer_family){300, 0.05});
	ck_assert_int_eq(r3.verdict, PD_INFER_REGRESSION);
	ck_assert_double_eq_tol(r3.lo_count, count - 3.764823649533926 * sqrt(count + 1), 1e-6);
	ck_assert_double_eq_tol(r3.hi_count, count + 3.764823649533926 * sqrt(count + 1), 1e-6);
	/* a baseline with errors of its own is not silence: the AR(1) model judges it */
	b[10] = 1;
	side_of(&sb, b, N_SIDE);
	pd_infer_judge(&r, &sb, &st, &rule, &(struct pd_infer_family){300, 0.05});
	ck_assert_int_ne(r.verdict, PD_INFER_REGRESSION);
}
END_TEST

START_TEST(test_infer_quantized_interval_never_empty)
{
	/* integer counts around 10 (sd 0.3: mostly 10, a few 9 and 11) */
	rng_state = 20;
	for (int i = 0; i < 500; i++) {
		double b[N_SIDE], t[N_SIDE];
		ar1(b, N_SIDE, 0.9, 10, 0.03);
		ar1(t, N_SIDE, 0.9, 10, 0.03);
		for (int j = 0; j < N_SIDE; j++)
			b[j] = round(b[j]), t[j] = round(t[j]);
		t[i % N_SIDE] = 11; /* at least one other value on the target side */
		struct pd_infer_side sb, st;
		struct pd_infer_result r;
		side_of(&sb, b, N_SIDE);
		side_of(&st, t, N_SIDE);
		pd_infer_judge(&r, &sb, &st, &rule5, &(struct pd_infer_family){300, 0.05});
		ck_assert(all_finite(&r));
		ck_assert(r.hi_pct - r.lo_pct > 0.1);
	}
	/* a baseline all 10 against a target all 10 but one 11: the gap 1 floors both means'
	 * variance at (1/2)^2 / 12 = 1/48 */
	double b[N_SIDE], t[N_SIDE];
	for (int j = 0; j < N_SIDE; j++)
		b[j] = t[j] = 10;
	t[100] = 11;
	struct pd_infer_side sb, st;
	struct pd_infer_result r;
	side_of(&sb, b, N_SIDE);
	side_of(&st, t, N_SIDE);
	pd_infer_judge(&r, &sb, &st, &rule5, &(struct pd_infer_family){1, 0.05});
	/* log scale: se = sqrt(vt / mt^2 + 1/48 / 100), vt = max(var_mean_t, 1/48) */
	double mt = 10 + 1.0 / N_SIDE, vt = fmax(st.var_mean, 1.0 / 48);
	double se = sqrt(vt / (mt * mt) + 1.0 / 48 / 100), q = 1.959963984540054;
	ck_assert_double_eq_tol(r.hi_pct, 100 * (exp(log(mt / 10) + q * se) - 1), 1e-9);
	/* only one same value throughout both windows gives [0, 0], and says so */
	side_of(&st, b, N_SIDE);
	pd_infer_judge(&r, &sb, &st, &rule5, &(struct pd_infer_family){1, 0.05});
	ck_assert(r.lo_pct == 0 && r.hi_pct == 0);
	ck_assert_int_eq(r.reason, PD_INFER_CONSTANT);
	ck_assert_int_eq(r.verdict, PD_INFER_SAME);
}
END_TEST

START_TEST(test_infer_degenerate_inputs_stay_finite)
{
	const double zeros[20] = {0}, neg[] = {-5, -4, -6, -5, -5, -4, -6, -5, -5, -4, -6, -5},
		     huge[] = {1e300, 1e300, 1e300, 1e300, 1e300, 1e300,
			       1e300, 1e300, 1e300, 1e300, 1e300, 0};
	const double *sets[] = {zeros, neg, huge, zeros};
	const size_t ns[] = {20, 12, 12, 1};
	struct pd_infer_rule rule = {.threshold_pct = 5, .worse = -1, .rate = 1, .step_s = 1};
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			struct pd_infer_side a, b;
			struct pd_infer_result r;
			side_of(&a, sets[i], ns[i]);
			side_of(&b, sets[j], ns[j]);
			pd_infer_judge(&r, &a, &b, &rule, &(struct pd_infer_family){0, 0.05});
			ck_assert_msg(all_finite(&r), "sets %d %d", i, j);
			if (ns[i] < 10 || ns[j] < 10)
				ck_assert_int_eq(r.verdict, PD_INFER_INCONCLUSIVE);
		}
}
END_TEST

/* ---- replicated baselines ---- */

#define N_REP 240

/* A draw: n_metrics metrics, 4 runs each whose level differs by sd 4 % (lognormal), within
 * noise AR(1) phi 0.5 sd 1 %; runs 0-2 the baselines, run 3 the target (times 1 + step).
 * The prior is fitted over all the draw's metrics; the first `family` are judged as the
 * family (the others stand for drill-downs, which inform the prior but are not counted).
 * found[f] gets the number of regressions or improvements in the family of families[f]. */
static void replicated_draw(int *found, size_t n_metrics, const size_t *families, size_t nf,
			    double step)
{
	struct pd_infer_spread *sp = malloc(n_metrics * sizeof(*sp));
	struct pd_infer_side *tg = malloc(n_metrics * sizeof(*tg));
	double v[N_REP];
	for (size_t i = 0; i < n_metrics; i++) {
		struct pd_infer_side base[3];
		for (int k = 0; k < 4; k++) {
			double level = 100 * exp(0.04 * gauss()) * (k == 3 ? 1 + step : 1);
			ar1(v, N_REP, 0.5, level, 0.01);
			side_of(k == 3 ? &tg[i] : &base[k], v, N_REP);
		}
		pd_infer_spread_of(&sp[i], base, 3);
	}
	struct pd_infer_prior prior;
	pd_infer_prior_fit(&prior, sp, n_metrics);
	for (size_t f = 0; f < nf; f++) {
		found[f] = 0;
		for (size_t i = 0; i < families[f]; i++) {
			struct pd_infer_result r;
			pd_infer_judge_reps(&r, &sp[i], &prior, &tg[i], &rule5,
					    &(struct pd_infer_family){families[f], 0.05});
			ck_assert_int_eq(r.noise, PD_INFER_NOISE_RUNS);
			found[f] += r.verdict == PD_INFER_REGRESSION ||
				    r.verdict == PD_INFER_IMPROVEMENT;
		}
	}
	free(sp), free(tg);
}

/* Three baselines against a fourth run, a family of 10 judged, the prior over 100 metrics.
 * (With a family of 300 no method reading the interval against +-5 % can reach 95 %: even
 * with the variance known, a +30 % step is found with probability
 * Phi((log 1.3 - log 1.05) / (0.04 sqrt(4/3)) - 3.765) = Phi(0.86) = 0.80; at m = 10,
 * Phi(4.62 - 2.81) = 0.965. The m = 300 rate is printed.) */
START_TEST(test_infer_replicated_baselines)
{
	rng_state = 21;
	const size_t fams[] = {5, 10}, all[] = {300};
	int quiet = 0, found[2] = {0, 0}, f[2], draws = 100;
	for (int d = 0; d < draws; d++) {
		if (d < draws / 2) { /* 50 null draws: 48 quiet ones are 95 % */
			replicated_draw(f, 100, fams, 1, 0);
			quiet += f[0] == 0;
		}
		replicated_draw(f, 100, fams, 2, 0.30);
		found[0] += f[0], found[1] += f[1];
	}
	replicated_draw(f, 300, all, 1, 0.30);
	printf("infer replicated k=3, between-run sd 4%%: draws without a finding %d/%d; "
	       "+30%% found %.3f (m = 5), %.3f (m = 10), %.3f (m = 300)\n",
	       quiet, draws / 2, found[0] / (5.0 * draws), found[1] / (10.0 * draws),
	       f[0] / 300.0);
	ck_assert_int_ge(quiet, 95 * draws / 200);
	ck_assert_int_ge(found[0], 95 * 5 * draws / 100);
}
END_TEST

START_TEST(test_infer_single_baseline_says_threshold_stands_in)
{
	rng_state = 22;
	struct pd_infer_result r;
	judge_pair(&r, 0.5, 0.01, 0, 10);
	ck_assert_int_eq(r.noise, PD_INFER_NOISE_WITHIN);
	ck_assert_uint_eq(r.k, 1);
	ck_assert_str_eq(
		pd_infer_noise_text(r.noise),
		"run-to-run variance not measured: a change's interval, widened in quadrature "
		"by its metric kind's default run-to-run margin (a node's taken over its "
		"metric's nodes; after an event, by the runs' own difference before it where "
		"that is beyond the default's), must clear the threshold");
	ck_assert_int_eq(r.verdict, PD_INFER_SAME);
	ck_assert_double_eq_tol(r.level, 1 - 0.05 / 10, 1e-15);
}
END_TEST

/* One baseline's run-to-run margin, the minimum detectable effect and the baselines that
 * would bring it under the threshold, by hand. Baseline mean 100 with Var(mean) 0.25,
 * target 107 with 0.25, m = 1 (q = 1.959964): log scale, est = log 1.07 = 0.0676586,
 * se = sqrt(0.25 / 107^2 + 0.25 / 100^2) = sqrt(2.18360e-5 + 2.5e-5) = 0.00684368;
 * lo = 100 (exp(est - q se) - 1) = +5.574 %, past 5 %. MDE = 100 expm1(q se) = 1.3504 %.
 * With the margin of a 1 % run-to-run sd, M = 1.959964 sqrt(2) 1 % = 2.77181 %, the interval
 * stated is of the change between two runs: M in quadrature with the half-width on each side,
 * lo = 7 - hypot(7 - 5.57435, 2.77181) = 3.88305 %: inconclusive, because of the margin (the
 * within-run interval alone is past 5 %); MDE hypot(1.35037, 2.77181) = 3.08325 %; the
 * statistic q 7 / hypot(1.42565, 2.77181) = 4.40166, p = erfc(4.40166 / sqrt 2) = 1.07428e-5.
 * (python: math.hypot, math.expm1, math.erfc) */
START_TEST(test_infer_margin_and_mde_by_hand)
{
	struct pd_infer_side b = {.n = 240, .mean = 100, .var_mean = 0.25, .gap = 0.01},
			     t = {.n = 240, .mean = 107, .var_mean = 0.25, .gap = 0.01};
	struct pd_infer_rule rule = rule5;
	struct pd_infer_result r;
	double q = 1.959963984540054, se = sqrt(0.25 / (107.0 * 107) + 0.25 / 1e4);
	pd_infer_judge(&r, &b, &t, &rule, &(struct pd_infer_family){1, 0.05});
	ck_assert_double_eq_tol(r.lo_pct, 100 * (exp(log(1.07) - q * se) - 1), 1e-9);
	ck_assert_double_eq_tol(r.lo_pct, 5.574, 0.001);
	ck_assert_int_eq(r.verdict, PD_INFER_REGRESSION); /* no margin */
	ck_assert_double_eq_tol(r.mde_pct, 100 * expm1(q * se), 1e-9);
	ck_assert_double_eq_tol(r.mde_pct, 1.3504, 0.0001);
	rule.margin_pct = 100 * q * sqrt(2.0) * 0.01, rule.run_sd = 0.01;
	pd_infer_judge(&r, &b, &t, &rule, &(struct pd_infer_family){1, 0.05});
	ck_assert_double_eq_tol(r.lo_pct, 3.88305, 0.00001);
	ck_assert_double_eq_tol(r.hi_pct, 10.12580, 0.00001);
	ck_assert_double_eq_tol(r.mde_pct, 3.08325, 0.00001);
	ck_assert_double_eq_tol(r.p, 1.07428e-5, 1e-9);
	ck_assert_int_eq(r.verdict, PD_INFER_INCONCLUSIVE);
	ck_assert_int_eq(r.reason, PD_INFER_RUN_MARGIN);
	ck_assert_double_eq_tol(r.margin_pct, 2.7718, 0.0001);
	/* target 109: est = log 1.09, se = sqrt(0.25 / 109^2 + 0.25 / 100^2) = 0.00678543,
	 * within-run lo = 100 expm1(est - q se) = 7.55999 %, stated lo = 9 - hypot(1.44001,
	 * 2.77181) = 5.87645 %: past 5 %, a regression (the verdict reads the interval stated)
	 */
	t.mean = 109;
	pd_infer_judge(&r, &b, &t, &rule, &(struct pd_infer_family){1, 0.05});
	ck_assert_double_eq_tol(r.lo_pct, 5.87645, 0.00001);
	ck_assert_int_eq(r.verdict, PD_INFER_REGRESSION);
	t.mean = 107;
	/* baselines: with k of them the log-scale variance is runs (1 + 1/k) + extra, runs =
	 * sd^2 + Var(base mean) / 100^2, extra = max(0, target's - base's relative variance).
	 * Threshold 3 %: the half-width must be under L = (log 1.03 / q)^2 = 2.27436e-4.
	 * sd 1.3 %, Var(base mean) 0.01: runs = 1.69e-4 + 1e-6 = 1.70e-4, extra = 2.18360e-5
	 * - 1e-6 = 2.08360e-5; 1.70e-4 / k <= L - runs - extra = 3.6600e-5: k >= 4.645, 5. */
	b.var_mean = 0.01;
	rule.threshold_pct = 3, rule.run_sd = 0.013;
	pd_infer_judge(&r, &b, &t, &rule, &(struct pd_infer_family){1, 0.05});
	ck_assert_uint_eq(r.baselines_needed, 5);
	rule.threshold_pct =
		1; /* the target's own noise alone: 100 expm1(q sqrt(2.1e-5)) > 1 */
	pd_infer_judge(&r, &b, &t, &rule, &(struct pd_infer_family){1, 0.05});
	ck_assert_uint_eq(r.baselines_needed, 0);
}
END_TEST

/* Several baselines: baselines_needed reads the df k baselines would give, as their
 * interval does (Student t with d0 + k - 1 df), not the normal. Two baselines at 100 apart
 * by a log-scale variance 0.0004 (sd 2 %), a prior of the same variance with d0 = 4 (the
 * moderated variance stays 0.0004), a target at 100 with next to no noise, m = 1: the
 * half-width q_k 0.02 sqrt(1 + 1/k) must be under log 1.05 = 0.048790, q_k sqrt(1 + 1/k)
 * under 2.43951. t's 97.5 % quantiles (a textbook table): df 5 2.5706, 6 2.4469, 7 2.3646,
 * 8 2.3060, 9 2.2622, 10 2.2281; times sqrt(1 + 1/k) for k = 2..7: 3.1483, 2.8255, 2.6437,
 * 2.5261, 2.4434, 2.3819: k = 7. The normal's 1.95996 would say 2 (1.95996 sqrt(1.5) =
 * 2.4004), the two the comparison already has, while its interval is +-6.5 %. */
START_TEST(test_infer_baselines_needed_reads_the_df_of_k_baselines)
{
	struct pd_infer_spread sp = {.k = 2,
				     .log_scale = 1,
				     .center = log(100.0),
				     .s2 = 0.0004,
				     .gap = 0.01,
				     .n_min = 240,
				     .base_level = 100};
	struct pd_infer_prior prior = {.s0sq = 0.0004, .d0 = 4};
	struct pd_infer_side t = {
		.n = 240, .mean = 100, .var_mean = 1e-6, .n_eff = 240, .gap = 0.01};
	struct pd_infer_result r;
	pd_infer_judge_reps(&r, &sp, &prior, &t, &rule5, &(struct pd_infer_family){1, 0.05});
	ck_assert_int_eq(r.verdict, PD_INFER_INCONCLUSIVE);
	ck_assert_double_eq_tol(r.mde_pct, 100 * expm1(2.5706 * 0.02 * sqrt(1.5)), 0.01);
	ck_assert_uint_eq(r.baselines_needed, 7);
}
END_TEST

/* A baseline near 0: mean 0.5 with Var(mean) 0.04 (clear of 0: 0.5 > 1.96 * 0.2), target
 * 1 with Var 0.5 (not clear: 1 < 1.96 sqrt 0.5), m = 1: the ratio, est (1 - 0.5) / 0.5 = 1,
 * se = sqrt(0.5 + 2^2 0.04) / 0.5 = 1.62481, [-218 %, +418 %]: it holds both -50 % and
 * +100 %, so it says nothing of the ratio; the change is absolute, 0.5 +- q sqrt(0.54). */
START_TEST(test_infer_near_zero_baseline_is_absolute)
{
	struct pd_infer_side b = {.n = 90, .mean = 0.5, .var_mean = 0.04, .gap = 0.5},
			     t = {.n = 90, .mean = 1, .var_mean = 0.5, .gap = 0.5};
	struct pd_infer_result r;
	pd_infer_judge(&r, &b, &t, &rule5, &(struct pd_infer_family){1, 0.05});
	ck_assert_int_eq(r.scale, PD_INFER_ABSOLUTE);
	ck_assert(!(r.valid & PD_INFER_HAS_PCT));
	ck_assert_double_eq_tol(r.delta_abs, 0.5, 1e-12);
	ck_assert_double_eq_tol(r.lo_abs, 0.5 - 1.959963984540054 * sqrt(0.54), 1e-9);
	ck_assert_int_eq(r.verdict, PD_INFER_INCONCLUSIVE);
	ck_assert_int_eq(r.reason, PD_INFER_ZERO_BASELINE);
	/* a baseline well clear of 0 keeps its ratio: mean 2 with Var 0.01 against 3 with
	 * 0.04: se = sqrt(0.04 / 9 + 0.01 / 4) = 0.083333, 1.5 exp(+-0.163330) - 1 =
	 * [+27.4 %, +76.6 %], 49 points wide */
	b.mean = 2, b.var_mean = 0.01, t.mean = 3, t.var_mean = 0.04;
	pd_infer_judge(&r, &b, &t, &rule5, &(struct pd_infer_family){1, 0.05});
	ck_assert_int_eq(r.scale, PD_INFER_LOG_RATIO);
}
END_TEST

/* ---- values at the ends of the double range ---- */

#define N_EXT 240

/* u[i] = 1 + 0.01 sin(i) + 0.005 (-1)^i: a level of 1 with 1 % noise. */
static void unit_noise(double *u, size_t n)
{
	for (size_t i = 0; i < n; i++)
		u[i] = 1 + 0.01 * sin((double)i) + (i % 2 ? 0.005 : -0.005);
}

/* Judges x (times 2^e) against 2 x (times 2^e), margin of a 1 % run-to-run sd. */
static void judge_doubling(struct pd_infer_result *r, const double *x, size_t n, int e)
{
	double b[N_EXT], t[N_EXT];
	for (size_t i = 0; i < n; i++)
		b[i] = ldexp(x[i], e), t[i] = ldexp(2 * x[i], e);
	struct pd_infer_side sb, st;
	struct pd_infer_rule rule = rule5;
	rule.margin_pct = 2.7718, rule.run_sd = 0.01;
	side_of(&sb, b, n), side_of(&st, t, n);
	pd_infer_judge(r, &sb, &st, &rule, &(struct pd_infer_family){40, 0.05});
}

/* A window's statistics do not depend on its power-of-two scale: the result at 2^e is the
 * result at 2^0 (the hand-checked range of the tests above) with the figures in the unit
 * times 2^e, up to the rounding of a figure in the unit to the doubles there (below 2^-1022,
 * multiples of 2^-1074). Squaring 1e200 overflows (1e400), squaring 1e-200 underflows:
 * before the rescaling a doubling at 1e200 gave an infinite variance and an inconclusive
 * verdict. */
static void assert_unit(double scaled, double ref, int e)
{
	double tol = 1e-12 * fabs(ref) + ldexp(1, -1074 - e);
	ck_assert_msg(fabs(ldexp(scaled, -e) - ref) <= tol, "at 2^%d: %.17g against %.17g", e,
		      ldexp(scaled, -e), ref);
}

static void assert_scaled(const struct pd_infer_result *r, const struct pd_infer_result *u,
			  int e)
{
	ck_assert_msg(all_finite(r), "at 2^%d", e);
	ck_assert_int_eq(r->verdict, u->verdict);
	ck_assert_int_eq(r->scale, u->scale);
	ck_assert_double_eq_tol(r->delta_pct, u->delta_pct, 1e-9);
	ck_assert_double_eq_tol(r->lo_pct, u->lo_pct, 1e-9);
	ck_assert_double_eq_tol(r->hi_pct, u->hi_pct, 1e-9);
	ck_assert_double_eq_tol(r->mde_pct, u->mde_pct, 1e-9);
	assert_unit(r->delta_abs, u->delta_abs, e);
	assert_unit(r->base_level, u->base_level, e);
	assert_unit(r->mde_abs, u->mde_abs, e);
}

START_TEST(test_infer_doubling_at_any_scale)
{
	double u[N_EXT], big[N_EXT], sub[N_EXT], mean = 0;
	struct pd_infer_result r, ru;
	unit_noise(u, N_EXT);
	/* a doubling is +100 % exactly (2 x is exact), and a regression */
	judge_doubling(&ru, u, N_EXT, 0);
	ck_assert_int_eq(ru.verdict, PD_INFER_REGRESSION);
	ck_assert_double_eq_tol(ru.delta_pct, 100, 1e-9);
	const int es[] = {700, 1020, -700, -1022};
	for (size_t i = 0; i < sizeof(es) / sizeof(*es); i++) {
		judge_doubling(&r, u, N_EXT, es[i]);
		assert_scaled(&r, &ru, es[i]);
	}
	/* 1e200 and 2e200: the change is the baseline's level, 1e200 times mean(u) */
	for (size_t i = 0; i < N_EXT; i++)
		big[i] = 1e200 * u[i], mean += u[i] / N_EXT;
	judge_doubling(&r, big, N_EXT, 0);
	ck_assert(all_finite(&r));
	ck_assert_int_eq(r.verdict, PD_INFER_REGRESSION);
	ck_assert_double_eq_tol(r.delta_pct, 100, 1e-9);
	ck_assert_double_eq_tol(r.delta_abs / 1e200, mean, 1e-12);
	ck_assert_double_eq_tol(r.lo_pct, ru.lo_pct, 1e-6);
	/* subnormals: 100..199 times the smallest double (2^-1074) against twice that; the
	 * same integers at scale 1 give the reference */
	for (size_t i = 0; i < N_EXT; i++)
		sub[i] = (double)(100 + (i * 37) % 100);
	judge_doubling(&ru, sub, N_EXT, 0);
	judge_doubling(&r, sub, N_EXT, -1074);
	assert_scaled(&r, &ru, -1074);
	ck_assert_int_eq(r.verdict, PD_INFER_REGRESSION);
}
END_TEST

/* Three baselines at 2^700 (about 5e210) and a target twice their level: the same verdict
 * and percentages as at 2^0. */
/* A target near the largest double against a baseline near 100: the ratio (about 1.6e306)
 * times 100 overflows, so no percentage can be stated; the verdict is inconclusive because
 * there is no finite estimate (reason no-finite-estimate), not because an interval
 * straddles the threshold. Before, the reason read straddles-threshold. */
START_TEST(test_infer_change_past_the_largest_double_has_no_estimate)
{
	double u[N_EXT], b[N_EXT], t[N_EXT];
	struct pd_infer_side sb, st;
	struct pd_infer_result r;
	unit_noise(u, N_EXT);
	for (size_t i = 0; i < N_EXT; i++)
		b[i] = 100 * u[i], t[i] = 1.5e308 * u[i] / 2;
	side_of(&sb, b, N_EXT);
	side_of(&st, t, N_EXT);
	pd_infer_judge(&r, &sb, &st, &rule5, &(struct pd_infer_family){1, 0.05});
	ck_assert(all_finite(&r));
	ck_assert(!(r.valid & PD_INFER_HAS_PCT));
	ck_assert_int_eq(r.verdict, PD_INFER_INCONCLUSIVE);
	ck_assert_str_eq(pd_infer_reason_name(r.reason), "no-finite-estimate");
}
END_TEST

START_TEST(test_infer_replicated_doubling_at_any_scale)
{
	double u[N_EXT], v[N_EXT];
	struct pd_infer_result r[2];
	unit_noise(u, N_EXT);
	for (int s = 0; s < 2; s++) {
		int e = s ? 700 : 0;
		struct pd_infer_side base[3], t;
		struct pd_infer_spread sp;
		struct pd_infer_prior none = {0};
		for (int k = 0; k < 3; k++) {
			for (size_t i = 0; i < N_EXT; i++)
				v[i] = ldexp(u[(i + 10 * (size_t)k) % N_EXT] * (1 + 0.01 * k),
					     e);
			side_of(&base[k], v, N_EXT);
		}
		for (size_t i = 0; i < N_EXT; i++)
			v[i] = ldexp(2 * u[i], e);
		side_of(&t, v, N_EXT);
		pd_infer_spread_of(&sp, base, 3);
		pd_infer_judge_reps(&r[s], &sp, &none, &t, &rule5,
				    &(struct pd_infer_family){10, 0.05});
	}
	ck_assert_int_eq(r[0].verdict, PD_INFER_REGRESSION);
	assert_scaled(&r[1], &r[0], 700);
}
END_TEST

/* The run floor by hand. x = 1 2 3 4, windows of n = 2: mean 2.5, relative values 0.4 0.8
 * 1.2 1.6, block means 0.6 1.0 1.4 (3 blocks), deviations -0.4 0 0.4, ss = 0.32; Meketon
 * and Schmeiser's Var(block mean) = N ss / ((N - n)(N - n + 1)) = 4 (0.32) / (2 3) =
 * 0.2133333. A second stretch at another level, 10 10 30 30 (a shift between phases is
 * not noise: each stretch is relative to its own mean 20): 0.5 0.5 1.5 1.5, blocks 0.5 1.0
 * 1.5, ss = 0.5, Var = 4 (0.5) / 6 = 0.3333333; pooled by blocks (3 each): 0.2733333. */
START_TEST(test_infer_run_floor_by_hand)
{
	const double x[] = {1, 2, 3, 4}, y[] = {10, 10, 30, 30}, neg[] = {-1, -2, -3, -4};
	struct pd_infer_floor f = {0};
	pd_infer_floor_add(&f, x, 4, 2);
	ck_assert_double_eq_tol(pd_infer_floor_of(&f), 4 * 0.32 / 6, 1e-12);
	pd_infer_floor_add(&f, y, 4, 2);
	ck_assert_double_eq_tol(pd_infer_floor_of(&f), (4 * 0.32 / 6 + 4 * 0.5 / 6) / 2, 1e-12);
	/* too short for two windows, or a mean not positive: nothing added */
	pd_infer_floor_add(&f, x, 3, 2);
	pd_infer_floor_add(&f, neg, 4, 2);
	ck_assert_double_eq_tol(f.blocks, 6, 1e-15);
	struct pd_infer_floor none = {0};
	ck_assert_double_eq_tol(pd_infer_floor_of(&none), 0, 1e-15);
	/* a side of mean 50 and Var(mean) 4 under a relative floor of 0.01: 0.01 50^2 = 25,
	 * n_eff 10 -> 10 (4 / 25) = 1.6; a floor under its own variance changes nothing */
	struct pd_infer_side sd = {.n = 90, .mean = 50, .var_mean = 4, .n_eff = 10};
	pd_infer_side_floor(&sd, 0.01);
	ck_assert_double_eq_tol(sd.var_mean, 25, 1e-12);
	ck_assert_double_eq_tol(sd.n_eff, 1.6, 1e-12);
	pd_infer_side_floor(&sd, 0.001);
	ck_assert_double_eq_tol(sd.var_mean, 25, 1e-12);
}
END_TEST

/* The run offset by hand. Baseline level 100 with Var(mean) 1 (relative 1e-4), target 110
 * with Var(mean) 1.21 (relative 1e-4): d = ln 1.1 = 0.0953102, v = 2e-4. Against a 1 %
 * run-to-run sd: 1.959964 sqrt(2 (0.01)^2 + 2e-4) = 1.959964 (0.02) = 0.0391993 < d, so
 * the runs differ by more than the margin assumes, by 100 (1.1 - 1) = +10 %, a margin of
 * 100 (0.0953102 + 1.959964 sqrt(2e-4)) = 100 (0.0953102 + 0.0277181) = 12.30283 %.
 * Against 3.5 %: 1.959964 sqrt(2 (0.035)^2 + 2e-4) = 1.959964 sqrt(0.00265) = 0.1008953 >
 * d: no. The same levels times 2^300 and 2^301 (exp2 300, 301: the target twice as large
 * again): d = ln 2.2 = 0.788457, +120 %, margin 100 (0.788457 + 0.0277181) = 81.61754 %.
 * A level within 1.96 se of 0 (mean 1, Var(mean) 1) on either side: none. */
START_TEST(test_infer_run_offset_by_hand)
{
	struct pd_infer_side b = {.n = 90, .mean = 100, .var_mean = 1, .n_eff = 90},
			     t = {.n = 90, .mean = 110, .var_mean = 1.21, .n_eff = 90};
	struct pd_infer_offset o;
	ck_assert_int_eq(pd_infer_run_offset(&b, &t, 0.01, &o), 1);
	ck_assert_double_eq_tol(o.pct, 10, 1e-9);
	ck_assert_double_eq_tol(o.margin_pct, 12.30283, 1e-5);
	ck_assert_int_eq(pd_infer_run_offset(&b, &t, 0.035, &o), 0);
	ck_assert(isnan(o.pct) && o.margin_pct == 0);
	/* a decrease is an offset too: -1/11 = -9.0909 %, the same margin */
	ck_assert_int_eq(pd_infer_run_offset(&t, &b, 0.01, &o), 1);
	ck_assert_double_eq_tol(o.pct, -100.0 / 11, 1e-9);
	ck_assert_double_eq_tol(o.margin_pct, 12.30283, 1e-5);
	struct pd_infer_side bs = b, ts = t;
	bs.exp2 = 300, ts.exp2 = 301;
	ck_assert_int_eq(pd_infer_run_offset(&bs, &ts, 0.01, &o), 1);
	ck_assert_double_eq_tol(o.pct, 120, 1e-9);
	ck_assert_double_eq_tol(o.margin_pct, 81.61754, 1e-5);
	struct pd_infer_side near0 = {.n = 90, .mean = 1, .var_mean = 1, .n_eff = 90};
	ck_assert_int_eq(pd_infer_run_offset(&near0, &t, 0.01, &o), 0);
	ck_assert_int_eq(pd_infer_run_offset(&t, &near0, 0.01, &o), 0);
}
END_TEST

Suite *pd_suite_infer(void)
{
	Suite *s = suite_create("infer");
	TCase *tc = tcase_create("infer");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_infer_qnorm_matches_r);
	tcase_add_test(tc, test_infer_t_matches_r);
	tcase_add_test(tc, test_infer_polygamma_matches_r);
	tcase_add_test(tc, test_infer_ar1_variance_by_hand);
	tcase_add_test(tc, test_infer_limma_by_hand);
	tcase_add_test(tc, test_infer_null_family_no_false_regression);
	tcase_add_test(tc, test_infer_power_twice_threshold);
	tcase_add_test(tc, test_infer_rss_step_found);
	tcase_add_test(tc, test_infer_p_agrees_with_interval);
	tcase_add_test(tc, test_infer_zero_baseline_gives_counts);
	tcase_add_test(tc, test_infer_error_burst_against_silence_is_counted);
	tcase_add_test(tc, test_infer_quantized_interval_never_empty);
	tcase_add_test(tc, test_infer_degenerate_inputs_stay_finite);
	tcase_add_test(tc, test_infer_replicated_baselines);
	tcase_add_test(tc, test_infer_single_baseline_says_threshold_stands_in);
	tcase_add_test(tc, test_infer_margin_and_mde_by_hand);
	tcase_add_test(tc, test_infer_near_zero_baseline_is_absolute);
	tcase_add_test(tc, test_infer_doubling_at_any_scale);
	tcase_add_test(tc, test_infer_change_past_the_largest_double_has_no_estimate);
	tcase_add_test(tc, test_infer_run_floor_by_hand);
	tcase_add_test(tc, test_infer_run_offset_by_hand);
	tcase_add_test(tc, test_infer_replicated_doubling_at_any_scale);
	tcase_add_test(tc, test_infer_baselines_needed_reads_the_df_of_k_baselines);
	suite_add_tcase(s, tc);
	return s;
}
