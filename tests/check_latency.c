/* analyze/align/latency.c's percentiles of the per-request latency collectors, and
 * the samples they read (core/model.c keeps every request). */
#include "check_suites.h"

#include "analyze/compare.h"
#include "core/metric.h"
#include "core/xalloc.h"

#include <math.h>
#include <string.h>

static const int64_t t0 = 1793643600000;

static struct pd_series *new_series(const char *collector, const char *metric,
				    const char *bucket)
{
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	s->collector = pd_xstrdup(collector);
	s->metric = pd_xstrdup(metric);
	s->db = pd_xstrdup(collector);
	s->bucket = pd_xstrdup(bucket);
	s->scope = PD_SCOPE_BUCKET;
	s->unit = pd_metric_unit(collector, metric);
	return s;
}

/* A run of 1000 s: ns_server/ops of bucket-1 every 5 s (its time base), and the latency
 * series given. */
static struct pd_run *run_with(struct pd_series **lat, size_t n_lat)
{
	struct pd_run *run = pd_run_new("latency");
	struct pd_series *ops = new_series("ns_server", "ops", "bucket-1");
	for (int64_t i = 0; i <= 200; i++)
		pd_series_add(ops, t0 + i * 5000, 1000 + (double)(i % 3));
	pd_series_normalize(ops);
	pd_run_add_series(run, ops);
	for (size_t k = 0; k < n_lat; k++) {
		pd_series_normalize(lat[k]);
		pd_run_add_series(run, lat[k]);
	}
	pd_run_sort_series(run);
	return run;
}

/* perfdb holds a per-request collector's samples in arrival order, several to a
 * millisecond: the series keeps one sample a time stamp (the last), its requests keep
 * every one, sorted by time (ties in arrival order); another collector keeps none apart. */
START_TEST(test_latency_series_keeps_every_request)
{
	struct pd_series *s = new_series("spring_latency", "latency_get", "bucket-1");
	const int64_t t[] = {3, 1, 3, 2, 1};
	const double v[] = {30, 10, 31, 20, 11};
	for (size_t i = 0; i < 5; i++)
		pd_series_add(s, t0 + t[i], v[i]);
	pd_series_normalize(s);
	ck_assert_uint_eq(s->n, 3);
	ck_assert_uint_eq(s->n_dup, 2);
	const int64_t *rt;
	const double *rv;
	ck_assert_uint_eq(pd_model_requests(s, &rt, &rv), 5);
	const double want[] = {10, 11, 20, 30, 31};
	for (size_t i = 0; i < 5; i++)
		ck_assert_double_eq(rv[i], want[i]);
	ck_assert(rt[0] == t0 + 1 && rt[4] == t0 + 3);
	pd_series_free(s);

	s = new_series("atop", "memcached_cpu", "bucket-1");
	for (size_t i = 0; i < 5; i++)
		pd_series_add(s, t0 + t[i], v[i]);
	pd_series_normalize(s);
	ck_assert_ptr_null(s->req_v);
	ck_assert_uint_eq(pd_model_requests(s, &rt, &rv), 3);
	pd_series_free(s);
}
END_TEST

/* The baseline: latency_get 1..10 ms on bucket-1 (a second request at the time of 5 ms:
 * 100 ms) and 20, 30 ms on bucket-2: 13 samples merged, sorted 1..10, 20, 30, 100. numpy's
 * linear percentile, h = (n - 1) p / 100 = 12 p / 100: p50 h = 6 -> 7; p80 h = 9.6 ->
 * 10 + 0.6 (20 - 10) = 16; p90 h = 10.8 -> 20 + 0.8 (30 - 20) = 28 (numpy.percentile
 * gives 7.0, 16.000000000000014, 28.000000000000007); p95 needs 20 samples, p99 100,
 * p99.9 1000: not enough. The target: 1000 samples k / 10 ms, k = 1..1000, one a second:
 * sorted x_i = (i + 1) / 10, so the p-th percentile is 0.1 + 999 p / 100 / 10 = 0.1 +
 * 99.9 p / 100: 50.05, 80.02, 90.01, 95.005, 99.001, 99.9001 (numpy: 50.05,
 * 80.02000000000001, 90.01, 95.005, 99.001, 99.90010000000001). No event: the whole phase
 * only, every sample. */
START_TEST(test_latency_percentiles_as_numpy)
{
	struct pd_series *b[2] = {new_series("spring_latency", "latency_get", "bucket-1"),
				  new_series("spring_latency", "latency_get", "bucket-2")};
	for (int64_t i = 1; i <= 10; i++)
		pd_series_add(b[0], t0 + i * 1000, (double)i);
	pd_series_add(b[0], t0 + 5000, 100);
	pd_series_add(b[1], t0 + 2000, 20);
	pd_series_add(b[1], t0 + 3000, 30);
	struct pd_series *t = new_series("spring_latency", "latency_get", "bucket-1");
	for (int64_t k = 1000; k >= 1; k--) /* arrival order is not time order */
		pd_series_add(t, t0 + k * 1000 - 500, (double)k / 10);
	struct pd_run *base = run_with(b, 2), *target = run_with(&t, 1);
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	ck_assert_int_eq(pd_compare(&c, base, target, &opts, &err), 0);
	ck_assert_uint_eq(c->n_latency_pct, 1);
	const struct pd_latency_pct *l = &c->latency_pct[0];
	ck_assert_str_eq(l->metric, "spring_latency/latency_get");
	ck_assert_int_eq(l->phase, PD_PHASE_WHOLE);
	ck_assert(l->drawn);
	ck_assert_uint_eq(l->base.n, 13);
	ck_assert_uint_eq(l->target.n, 1000);
	const double want_b[] = {7, 16, 28},
		     want_t[] = {50.05, 80.02, 90.01, 95.005, 99.001, 99.9001};
	const size_t need[] = {2, 5, 10, 20, 100, 1000};
	for (size_t k = 0; k < PD_LATENCY_PCTS; k++) {
		ck_assert_uint_eq(l->need[k], need[k]);
		ck_assert_int_eq(l->target.status[k], PD_LATENCY_OK);
		ck_assert_double_eq_tol(l->target.ms[k], want_t[k], 1e-9);
		if (k < 3) {
			ck_assert_int_eq(l->base.status[k], PD_LATENCY_OK);
			ck_assert_double_eq_tol(l->base.ms[k], want_b[k], 1e-9);
			ck_assert_double_eq_tol(l->change_pct[k],
						(want_t[k] - want_b[k]) / want_b[k] * 100,
						1e-9);
		} else {
			ck_assert_int_eq(l->base.status[k], PD_LATENCY_FEW);
			ck_assert(isnan(l->base.ms[k]) && isnan(l->change_pct[k]));
		}
	}
	ck_assert_str_eq(pd_latency_status_name(PD_LATENCY_FEW), "not enough samples");
	pd_comparison_free(c);
	pd_run_free(base);
	pd_run_free(target);
}
END_TEST

/* A metric in one run only: the other says "no samples" at every percentile. */
START_TEST(test_latency_one_run_only_says_no_samples)
{
	struct pd_series *t = new_series("spring_query_latency", "latency_query", "bucket-1");
	for (int64_t k = 1; k <= 50; k++)
		pd_series_add(t, t0 + k * 10000, 30 + (double)(k % 7));
	struct pd_run *base = run_with(NULL, 0), *target = run_with(&t, 1);
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	ck_assert_int_eq(pd_compare(&c, base, target, &opts, &err), 0);
	ck_assert_uint_eq(c->n_latency_pct, 1);
	const struct pd_latency_pct *l = &c->latency_pct[0];
	ck_assert_uint_eq(l->base.n, 0);
	ck_assert_uint_eq(l->target.n, 50);
	for (size_t k = 0; k < PD_LATENCY_PCTS; k++) {
		ck_assert_int_eq(l->base.status[k], PD_LATENCY_NONE);
		ck_assert_int_eq(l->target.status[k], k < 4 ? PD_LATENCY_OK : PD_LATENCY_FEW);
	}
	pd_comparison_free(c);
	pd_run_free(base);
	pd_run_free(target);
}
END_TEST

Suite *pd_suite_latency(void)
{
	Suite *s = suite_create("latency");
	TCase *tc = tcase_create("latency");
	tcase_add_test(tc, test_latency_series_keeps_every_request);
	tcase_add_test(tc, test_latency_percentiles_as_numpy);
	tcase_add_test(tc, test_latency_one_run_only_says_no_samples);
	suite_add_tcase(s, tc);
	return s;
}
