/* analyze/stats/tails.c: percentiles against numpy, the block bootstrap's and the share
 * interval's coverage on simulations with a known truth. */
#include "check_suites.h"
#include "analyze/compare.h"
#include "analyze/judge/tails_slow.h"
#include "analyze/stats/tails.h"
#include "core/err.h"
#include "parse/bundle.h"
#include "core/xalloc.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Z95   1.959963984540054
#define Z99   2.3263478740408408 /* the normal's 99 % quantile */
#define SEEDS 200

/* A standard normal draw: Box-Muller over a 64-bit LCG (Knuth's MMIX constants), another
 * generator than the code tested uses. */
static double uniform(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(uint64_t *s)
{
	double u = uniform(s), v = uniform(s);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* A latency stream of n requests in ms: exp(sigma y), y a stationary AR(1) of unit
 * variance at phi, so its p-quantile is exp(sigma z_p) whatever phi. */
static void stream(double *v, size_t n, double phi, double sigma, uint64_t seed)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 1;
	double y = normal(&s), k = sqrt(1 - phi * phi);
	for (size_t i = 0; i < n; i++) {
		v[i] = exp(sigma * y);
		y = phi * y + k * normal(&s);
	}
}

/* Percentiles against numpy 1.24.2 (np.percentile's default, method='linear'):
 *   v = np.array([((i * 7919) % 1009) / 8.0 + 0.5 * (i % 7) for i in range(1200)])
 *   np.percentile(v, [50, 90, 95, 99, 99.9]).tolist()
 *   -> [64.5625, 114.88750000000002, 121.25625, 126.37625, 128.07525000000004]
 *   w = np.array([3.5, 0.25, 12.0, 7.75, 1.5, 0.5, 2.25, 30.0, 4.0, 9.5, 0.75, 6.0,
 *                 15.25, 2.0, 5.5, 1.0, 8.25, 3.0, 11.5, 0.125])
 *   np.percentile(w, [50, 90, 95]).tolist() -> [3.75, 12.325000000000005, 15.987500000000011]
 */
START_TEST(test_tails_percentiles_match_numpy)
{
	static const double want_v[] = {64.5625, 114.88750000000002, 121.25625, 126.37625,
					128.07525000000004};
	static const double w[] = {3.5,  0.25, 12.0,  7.75, 1.5, 0.5, 2.25, 30.0, 4.0,  9.5,
				   0.75, 6.0,  15.25, 2.0,  5.5, 1.0, 8.25, 3.0,  11.5, 0.125};
	static const double want_w[] = {3.75, 12.325000000000005, 15.987500000000011};
	double v[1200];
	for (int i = 0; i < 1200; i++)
		v[i] = ((i * 7919) % 1009) / 8.0 + 0.5 * (i % 7);
	struct pd_tails_opts o = PD_TAILS_OPTS_INIT;
	struct pd_tails_side s;
	pd_tails_side_of(&s, v, 1200, &o);
	for (size_t k = 0; k < PD_TAILS_PCTS; k++) {
		ck_assert_int_eq(s.status[k], PD_TAILS_OK);
		ck_assert_double_eq_tol(s.ms[k], want_v[k], 1e-9);
	}
	pd_tails_side_of(&s, w, 20, &o);
	for (size_t k = 0; k < 3; k++) {
		ck_assert_int_eq(s.status[k], PD_TAILS_OK);
		ck_assert_double_eq_tol(s.ms[k], want_w[k], 1e-9);
	}
}
END_TEST

/* p99 needs 100 samples, p99.9 1000 (n (1 - p) >= 1): with fewer the percentile is said
 * to lack samples, with no figure and no interval; none at all is said too. */
START_TEST(test_tails_too_few_samples_have_no_figure)
{
	double v[999], t[999];
	stream(v, 999, 0.5, 0.5, 1);
	stream(t, 999, 0.5, 0.5, 2);
	struct pd_tails_opts o = PD_TAILS_OPTS_INIT;
	struct pd_tails_side b, tg, none;
	struct pd_tails_delta d[PD_TAILS_PCTS];
	ck_assert_uint_eq(pd_tails_need(99), 100);
	ck_assert_uint_eq(pd_tails_need(99.9), 1000);
	pd_tails_side_of(&b, v, 999, &o);
	pd_tails_side_of(&tg, t, 99, &o);
	pd_tails_delta_of(d, &b, &tg, Z95);
	ck_assert_int_eq(b.status[3], PD_TAILS_OK);
	ck_assert_int_eq(b.status[4], PD_TAILS_FEW);
	ck_assert(isnan(b.ms[4]) && isnan(b.se_log[4]));
	ck_assert_int_eq(d[2].status, PD_TAILS_OK);  /* p95: 20 samples are enough */
	ck_assert_int_eq(d[3].status, PD_TAILS_FEW); /* p99: the target has 99 */
	ck_assert(isnan(d[3].pct) && isnan(d[3].lo_pct) && isnan(d[3].hi_pct));
	pd_tails_side_of(&none, v, 0, &o);
	ck_assert_int_eq(none.status[0], PD_TAILS_NONE);
	ck_assert_uint_eq(none.resamples, 0);
	/* most requests at 0 ms (a millisecond clock): the median is stated, its change not */
	for (size_t i = 0; i < 999; i++)
		t[i] = i % 4 ? 0 : t[i];
	pd_tails_side_of(&tg, t, 999, &o);
	pd_tails_delta_of(d, &b, &tg, Z95);
	ck_assert_int_eq(tg.status[0], PD_TAILS_ZERO);
	ck_assert_double_eq(tg.ms[0], 0);
	ck_assert_int_eq(d[0].status, PD_TAILS_ZERO);
	ck_assert(isnan(d[0].pct));
	ck_assert_int_eq(d[3].status, PD_TAILS_OK); /* p99 is not 0 */
}
END_TEST

/* The block length follows the stream's memory: about 1 for independent requests, long
 * for a stream whose slow periods last (AR(1) at 0.95: an independent value every ~40). */
START_TEST(test_tails_block_follows_memory)
{
	size_t n = 4000;
	double *v = pd_xmalloc(n * sizeof(*v));
	stream(v, n, 0, 0.5, 3);
	size_t iid = pd_tails_block_of(v, n);
	stream(v, n, 0.95, 0.5, 3);
	size_t slow = pd_tails_block_of(v, n);
	ck_assert_uint_le(iid, 2);
	ck_assert_uint_ge(slow, 20);
	free(v);
}
END_TEST

/* The same stream gives the same figures (the seed is fixed), and a bounded draw count
 * resamples m out of n with a standard error of the same size. */
START_TEST(test_tails_deterministic_and_bounded)
{
	size_t n = 20000;
	double *v = pd_xmalloc(n * sizeof(*v));
	stream(v, n, 0.8, 0.5, 4);
	struct pd_tails_opts o = PD_TAILS_OPTS_INIT, small = o;
	struct pd_tails_side a, b, c;
	pd_tails_side_of(&a, v, n, &o);
	pd_tails_side_of(&b, v, n, &o);
	ck_assert_uint_eq(a.m, n);
	for (size_t k = 0; k < PD_TAILS_PCTS; k++)
		ck_assert(a.se_log[k] == b.se_log[k]);
	small.draws = 200.0 * 5000;
	pd_tails_side_of(&c, v, n, &small);
	ck_assert_uint_eq(c.m, 5000);
	for (size_t k = 0; k < 4; k++) /* within a factor 1.5 of the full bootstrap's */
		ck_assert(c.se_log[k] > a.se_log[k] / 1.5 && c.se_log[k] < a.se_log[k] * 1.5);
	free(v);
}
END_TEST

/* Over seeds: how often the p99 interval holds the true change (planted +20 %) and how
 * often it excludes 0 when nothing changed; b_med the median block. */
struct cover {
	int covered, false_changed, p50_false;
	size_t b_med;
};

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

static void p99_coverage(struct cover *out, size_t block, size_t n, int seeds)
{
	double *b = pd_xmalloc(n * sizeof(*b)), *t = pd_xmalloc(n * sizeof(*t));
	double sigma = 0.5, planted = sigma + log(1.2) / Z99; /* exp(planted z99) = 1.2 x */
	size_t blocks[SEEDS];
	struct pd_tails_opts o = PD_TAILS_OPTS_INIT;
	o.block = block;
	*out = (struct cover){0};
	for (uint64_t seed = 0; seed < (uint64_t)seeds; seed++) {
		struct pd_tails_side sb, st, s0;
		struct pd_tails_delta d[PD_TAILS_PCTS], d0[PD_TAILS_PCTS];
		stream(b, n, 0.9, sigma, 3 * seed + 100);
		pd_tails_side_of(&sb, b, n, &o);
		stream(t, n, 0.9, planted, 3 * seed + 101);
		pd_tails_side_of(&st, t, n, &o);
		stream(t, n, 0.9, sigma, 3 * seed + 102);
		pd_tails_side_of(&s0, t, n, &o);
		pd_tails_delta_of(d, &sb, &st, Z95);
		pd_tails_delta_of(d0, &sb, &s0, Z95);
		out->covered += d[3].lo_pct <= 20 && d[3].hi_pct >= 20;
		out->false_changed += d0[3].lo_pct > 0 || d0[3].hi_pct < 0;
		out->p50_false +=
			d[0].lo_pct > 0 || d[0].hi_pct < 0; /* its median is unchanged */
		blocks[seed] = sb.block;
	}
	qsort(blocks, (size_t)seeds, sizeof(*blocks), cmp_size);
	out->b_med = blocks[seeds / 2];
	free(b);
	free(t);
}

/* Tolerances, for 200 seeds at a nominal 95 %: the count covered is Binomial(200, 0.95),
 * sd 3.1; at least 180 (4.6 % under nominal, 3 sd: the bootstrap of a p99 from 3000
 * correlated requests is known to run a little under) and the false "changed" under
 * none at most 18 (P(Binomial(200, 0.05) >= 19) = 0.006: no more than nominal allows). */
START_TEST(test_tails_p99_coverage)
{
	struct cover c;
	p99_coverage(&c, 0, 3000, SEEDS);
	printf("tails p99, 200 seeds, n=3000, AR(1) 0.9: chosen blocks (median %zu): +20 %% "
	       "covered %d/200, false changed %d/200, p50 false %d/200\n",
	       c.b_med, c.covered, c.false_changed, c.p50_false);
	ck_assert_int_ge(c.covered, 180);
	ck_assert_int_le(c.false_changed, 18);
	ck_assert_int_le(c.p50_false, 18);
	if (getenv("PD_TAILS_MEASURE")) {
		p99_coverage(&c, 1, 3000, SEEDS);
		printf("tails p99 alternatives: blocks of 1: covered %d/200, false changed "
		       "%d/200\n",
		       c.covered, c.false_changed);
		p99_coverage(&c, (size_t)ceil(cbrt(3000)), 3000, SEEDS);
		printf("tails p99 alternatives: blocks of n^(1/3) = %zu: covered %d/200, false "
		       "changed %d/200\n",
		       (size_t)ceil(cbrt(3000)), c.covered, c.false_changed);
	}
}
END_TEST

/* Blocks of one request (the ordinary bootstrap) take the stream's requests as
 * independent: on the same simulation their interval misses the truth far more often,
 * which the chosen rule must not (the test above would fail with block 1). */
START_TEST(test_tails_iid_bootstrap_undercovers)
{
	struct cover c;
	p99_coverage(&c, 1, 3000, 50);
	ck_assert_int_lt(c.covered, 43); /* 186/200 chosen, 128/200 at block 1 */
}
END_TEST

/* ---- shares ---- */

/* A Poisson draw: Knuth's product of uniforms below 30, the rounded normal above. */
static double poisson(uint64_t *s, double mean)
{
	if (mean >= 30)
		return fmax(0, round(mean + sqrt(mean) * normal(s)));
	double l = exp(-mean), p = 1;
	int k = -1;
	do
		p *= uniform(s), k++;
	while (p > l);
	return k;
}

/* A run of n intervals of step_s: requests Poisson at rate_s a second, the slow ones
 * Poisson at the share p0 exp(0.8 y - 0.32) x mult, y an AR(1) at 0.8 of unit variance
 * (bursts of slow requests lasting a few intervals); the true share is p0 x mult. Rates
 * per second into slow[], all[]. */
static void share_run(double *slow, double *all, size_t n, double step_s, double rate_s,
		      double p0, double mult, uint64_t seed)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 7;
	double y = normal(&s), k = sqrt(1 - 0.64);
	for (size_t i = 0; i < n; i++) {
		double a = poisson(&s, rate_s * step_s);
		double p = fmin(1, p0 * mult * exp(0.8 * y - 0.32));
		all[i] = a / step_s;
		slow[i] = fmin(a, poisson(&s, a * p)) / step_s;
		y = 0.8 * y + k * normal(&s);
	}
}

struct share_cover {
	int covered, false_changed, binom_covered;
};

/* Over seeds: the planted share doubled (p0 -> 2 p0, +100 p0 points) covered, and the
 * null's intervals excluding 0; binom_covered the plain binomial interval's coverage. */
static void share_coverage(struct share_cover *out, double p0)
{
	enum { N = 240 }; /* 1200 s at perfrunner's 5 s */
	double sb[N], ab[N], st[N], at[N];
	*out = (struct share_cover){0};
	for (uint64_t seed = 0; seed < SEEDS; seed++) {
		struct pd_tails_share b, t, t0;
		struct pd_tails_share_delta d, d0;
		share_run(sb, ab, N, 5, 200, p0, 1, 3 * seed + 1);
		pd_tails_share_of(&b, sb, ab, N, 5);
		share_run(st, at, N, 5, 200, p0, 2, 3 * seed + 2);
		pd_tails_share_of(&t, st, at, N, 5);
		share_run(st, at, N, 5, 200, p0, 1, 3 * seed + 3);
		pd_tails_share_of(&t0, st, at, N, 5);
		pd_tails_share_delta_of(&d, &b, &t, Z95);
		pd_tails_share_delta_of(&d0, &b, &t0, Z95);
		double truth = 100 * p0;
		out->covered += d.lo_pts <= truth && d.hi_pts >= truth;
		out->false_changed += d0.lo_pts > 0 || d0.hi_pts < 0;
		double vb = b.share * (1 - b.share) / b.all_n,
		       vt = t.share * (1 - t.share) / t.all_n;
		double h = 100 * Z95 * sqrt(vb + vt);
		out->binom_covered += fabs(d.pts - truth) <= h;
	}
}

/* Tolerances: false changed at most 18 of 200, as for the p99; covered at least 170 (85 %,
 * 6.5 sd under nominal): 240 intervals with bursts at 0.8 hold about 27 independent ones,
 * so the variance itself is uncertain and a z interval runs under nominal (tails.h: 175
 * and 190 measured); the binomial interval, which ignores the bursts, covers under 170. */
START_TEST(test_tails_share_coverage)
{
	struct share_cover c;
	share_coverage(&c, 0.02);
	printf("tails share, 200 seeds, 240 x 5 s at 200/s, 2 %% slow, bursty: doubled "
	       "covered %d/200 (binomial interval %d/200), false changed %d/200\n",
	       c.covered, c.binom_covered, c.false_changed);
	ck_assert_int_ge(c.covered, 170);
	ck_assert_int_le(c.false_changed, 18);
	ck_assert_int_lt(c.binom_covered, 170); /* the simulation is overdispersed */
	share_coverage(&c, 0.0002);
	printf("tails share, 0.02 %% slow: doubled covered %d/200, false changed %d/200\n",
	       c.covered, c.false_changed);
	ck_assert_int_ge(c.covered, 170);
	ck_assert_int_le(c.false_changed, 18);
}
END_TEST

/* A baseline with no slow request: the change is in points, with an interval (the
 * binomial floor of one more slow request), and no percentage. */
START_TEST(test_tails_share_zero_baseline_in_points)
{
	double sb[10], ab[10], st[10], at[10];
	for (int i = 0; i < 10; i++)
		sb[i] = 0, ab[i] = 100, st[i] = i == 3 ? 2 : 0, at[i] = 100;
	sb[5] = NAN; /* a gap: that interval is dropped */
	struct pd_tails_share b, t;
	struct pd_tails_share_delta d;
	pd_tails_share_of(&b, sb, ab, 10, 5);
	pd_tails_share_of(&t, st, at, 10, 5);
	ck_assert_uint_eq(b.n, 9);
	ck_assert_double_eq_tol(b.all_n, 4500, 1e-9);
	ck_assert_double_eq(b.share, 0);
	ck_assert_double_eq_tol(b.se, 1.0 / 4500, 1e-12); /* sqrt(0 + 1) / 4500 */
	ck_assert_double_eq_tol(t.share, 10.0 / 5000, 1e-12);
	pd_tails_share_delta_of(&d, &b, &t, Z95);
	ck_assert(d.ok && !d.has_pct && isnan(d.pct));
	ck_assert_double_eq_tol(d.pts, 0.2, 1e-9);
	ck_assert(d.lo_pts < 0.2 && d.hi_pts > 0.2 && d.hi_pts - d.lo_pts > 0);
}
END_TEST

/* On the seed pair (a failover with n1ql's slow-request counters): after the event, each
 * bound's share is the one the report's survival curve draws (analyze/latency.c, another
 * route over the same views), for every bound the seed has, in pd_story_slow_ms's order. */
START_TEST(test_tails_slow_shares_of_the_seed)
{
	struct pd_run *a = NULL, *b = NULL;
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	struct pd_tails_slow slow[PD_STORY_N_SLOW];
	ck_assert_int_eq(pd_bundle_load(&a, PD_SEED_DIR "/baseline", &pd_limits_default, &err),
			 0);
	ck_assert_int_eq(pd_bundle_load(&b, PD_SEED_DIR "/failover", &pd_limits_default, &err),
			 0);
	ck_assert_int_eq(pd_compare(&c, a, b, &opts, &err), 0);
	ck_assert_uint_eq(c->n_latency, 1);
	ck_assert_int_eq(c->latency[0].phase, PD_PHASE_POST);
	size_t n = pd_tails_slow_of(slow, c, PD_PHASE_POST, Z95);
	ck_assert_uint_eq(n, c->latency[0].n);
	ck_assert_uint_ge(n, 2);
	for (size_t k = 0; k < n; k++) {
		ck_assert_double_eq(slow[k].bound_ms, c->latency[0].x[k]);
		ck_assert(slow[k].delta.ok);
		ck_assert_double_eq_tol(100 * slow[k].base.share, c->latency[0].base[k], 1e-9);
		ck_assert_double_eq_tol(100 * slow[k].target.share, c->latency[0].target[k],
					1e-9);
		ck_assert(slow[k].delta.lo_pts <= slow[k].delta.pts &&
			  slow[k].delta.pts <= slow[k].delta.hi_pts);
	}
	/* before the event the seed plants no change; nothing ran over 5 s in the baseline,
	 * so that bound's change is in points only */
	ck_assert_uint_eq(pd_tails_slow_of(slow, c, PD_PHASE_PRE, Z95), n);
	ck_assert(slow[0].delta.lo_pts < 0 && slow[0].delta.hi_pts > 0);
	ck_assert_int_eq(slow[n - 1].bound_ms, 5000);
	ck_assert(slow[n - 1].delta.ok && !slow[n - 1].delta.has_pct);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

Suite *pd_suite_tails(void)
{
	Suite *s = suite_create("tails");
	TCase *tc = tcase_create("tails");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_tails_percentiles_match_numpy);
	tcase_add_test(tc, test_tails_too_few_samples_have_no_figure);
	tcase_add_test(tc, test_tails_block_follows_memory);
	tcase_add_test(tc, test_tails_deterministic_and_bounded);
	tcase_add_test(tc, test_tails_p99_coverage);
	tcase_add_test(tc, test_tails_iid_bootstrap_undercovers);
	tcase_add_test(tc, test_tails_share_coverage);
	tcase_add_test(tc, test_tails_share_zero_baseline_in_points);
	tcase_add_test(tc, test_tails_slow_shares_of_the_seed);
	suite_add_tcase(s, tc);
	return s;
}
