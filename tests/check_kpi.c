/* analyze/runs/kpi.c: which of perfrunner's three rules reproduces a throughput KPI. */
#include "check_suites.h"
#include "analyze/runs/kpi.h"
#include "core/xalloc.h"

#include <check.h>
#include <math.h>
#include <string.h>

START_TEST(test_kpi_names_every_rule_that_reproduces_it)
{
	/* the seed: 3876 req/s in all, 481 of them the removed (last) n1ql node's, one
	 * survivor: first node = active = 3876 - 481 = 3395; KPI 3525 is
	 * (3525 - 3395) / 3395 = +3.83 % from both, 9.06 % below every-node's 3876 */
	struct pd_kpi_in in = {.total = 3876, .removed = 481, .n_active = 1};
	struct pd_kpi_rules r;
	struct pd_buf b = PD_BUF_INIT;
	pd_kpi_reconcile(&r, &in, 3525, 5);
	ck_assert_double_eq(r.est[PD_KPI_FIRST_NODE], 3395);
	ck_assert_double_eq(r.est[PD_KPI_EVERY_NODE], 3876);
	ck_assert_double_eq(r.est[PD_KPI_ACTIVE_NODES], 3395);
	ck_assert_double_eq_tol(r.off_pct[PD_KPI_ACTIVE_NODES], 3.8292, 1e-4);
	ck_assert_double_eq_tol(r.off_pct[PD_KPI_EVERY_NODE], -9.0557, 1e-4);
	ck_assert_uint_eq(r.match, (1u << PD_KPI_FIRST_NODE) | (1u << PD_KPI_ACTIVE_NODES));
	pd_kpi_describe(&b, &r);
	ck_assert_ptr_nonnull(strstr(b.ptr, "first n1ql node of the spec only"));
	ck_assert_ptr_nonnull(strstr(b.ptr, "active n1ql nodes only"));
	ck_assert_ptr_null(strstr(b.ptr, "removed ones included"));
	pd_buf_release(&b);
}
END_TEST

/* Three baselines' KPIs (the seed's 3916, 3909, 3876) are one level, their mean
 * (3916 + 3909 + 3876) / 3 = 3900.333; the change is judged with the served rate's
 * interval around it. By hand: the demo's KPI 3916 -> 3525 is -9.985 %; a served delta of
 * -1.2 % [-4.0, +1.7] moves it by the factors 0.96 / 0.988 and 1.017 / 0.988:
 * 100 (0.90015 x 0.96 / 0.988 - 1) = -12.536 %, 100 (0.90015 x 1.017 / 0.988 - 1) =
 * -7.343 %, wholly below -5 %: a regression. The repeated baseline's 3916 -> 3653
 * (-6.716 %) with the served -6.7 % [-9.9, -3.5]: -9.915 % to -3.517 %, inconclusive. */
START_TEST(test_kpi_change_is_judged_with_the_served_interval)
{
	struct pd_kpi k[4] = {{.metric = "a", .value = 3916},
			      {.metric = "a", .value = 3909},
			      {.metric = "a", .value = 3876},
			      {.metric = "a", .value = 3525}};
	struct pd_kpi_facts f[4];
	memset(f, 0, sizeof(f));
	for (int i = 0; i < 4; i++)
		f[i].kpi = &k[i], f[i].served = (struct pd_estimate){1, 3900 + i};
	struct pd_kpi_change c;
	pd_kpi_change(&c, f, 3, &f[3]);
	ck_assert_double_eq_tol(c.base_kpi, 3900.3333333, 1e-6);
	ck_assert_uint_eq(c.n_base_kpi, 3);
	ck_assert_double_eq_tol(c.base_served.value, 3901, 1e-9); /* (3900 + 3901 + 3902) / 3 */
	ck_assert_int_eq(c.verdict, PD_INFER_INCONCLUSIVE);       /* not judged yet */
	struct pd_delta d = {.inf = {.valid = PD_INFER_HAS_PCT,
				     .delta_pct = -1.2,
				     .lo_pct = -4.0,
				     .hi_pct = 1.7}};
	pd_kpi_change(&c, f, 1, &f[3]);
	pd_kpi_judge(&c, &d, 7, 5);
	ck_assert_double_eq_tol(c.kpi_pct, -9.984678, 1e-5);
	ck_assert_double_eq_tol(c.lo_pct, -12.535720, 1e-5);
	ck_assert_double_eq_tol(c.hi_pct, -7.342528, 1e-5);
	ck_assert_int_eq(c.verdict, PD_INFER_REGRESSION);
	ck_assert_int_eq(c.delta, 7);
	k[3].value = 3653;
	d.inf.delta_pct = -6.7, d.inf.lo_pct = -9.9, d.inf.hi_pct = -3.5;
	pd_kpi_change(&c, f, 1, &f[3]);
	pd_kpi_judge(&c, &d, 7, 5);
	ck_assert_double_eq_tol(c.lo_pct, -9.915487, 1e-5);
	ck_assert_double_eq_tol(c.hi_pct, -3.516587, 1e-5);
	ck_assert_int_eq(c.verdict, PD_INFER_INCONCLUSIVE);
	pd_kpi_judge(&c, NULL, 7, 5); /* no served delta: not judged */
	ck_assert_int_eq(c.delta, -1);
}
END_TEST

START_TEST(test_kpi_says_when_no_rule_reproduces_it)
{
	/* a KPI 10.2 % below the nearest reconstruction: (3050 - 3395) / 3395 = -10.16 % */
	struct pd_kpi_in in = {.total = 3876, .removed = 481, .n_active = 1};
	struct pd_kpi_rules r;
	struct pd_buf b = PD_BUF_INIT;
	pd_kpi_reconcile(&r, &in, 3050, 5);
	ck_assert_uint_eq(r.match, 0);
	ck_assert_int_eq(r.nearest, PD_KPI_FIRST_NODE);
	pd_kpi_describe(&b, &r);
	ck_assert_ptr_nonnull(strstr(b.ptr, "No rule of perfrunner's three reproduces it"));
	ck_assert_ptr_nonnull(strstr(b.ptr, "within the 5.0% the measurement leaves open"));
	ck_assert_ptr_nonnull(strstr(b.ptr, "the closest, summing requests.count over the "
					    "first n1ql node of the spec only"));
	ck_assert_ptr_nonnull(strstr(b.ptr, "gives 3395 req/s, 10.2% off."));
	ck_assert_ptr_null(strstr(b.ptr, "either way"));
	pd_buf_release(&b);
}
END_TEST

START_TEST(test_kpi_first_node_unknown_with_several_survivors)
{
	/* two survivors share the rest in unknown parts: the first-node rule says nothing;
	 * the removed node being the first makes it that node's requests */
	struct pd_kpi_in in = {.total = 1000, .removed = 200, .n_active = 2};
	struct pd_kpi_rules r;
	pd_kpi_reconcile(&r, &in, 1000, 5);
	ck_assert(isnan(r.est[PD_KPI_FIRST_NODE]));
	ck_assert_uint_eq(r.match, 1u << PD_KPI_EVERY_NODE);
	in.removed_is_first = 1;
	pd_kpi_reconcile(&r, &in, 200, 5);
	ck_assert_double_eq(r.est[PD_KPI_FIRST_NODE], 200);
	ck_assert_uint_eq(r.match, 1u << PD_KPI_FIRST_NODE);
}
END_TEST

START_TEST(test_kpi_near_is_not_a_match_past_the_tolerance)
{
	/* the seed's 3.8 %: within the comparison's 5 % threshold, yet past a tolerance of
	 * 1.7 % (the seed target's served rate's noise): no rule reproduces it, the closest
	 * two (same estimate 3395) are named with their distance */
	struct pd_kpi_in in = {.total = 3876, .removed = 481, .n_active = 1};
	struct pd_kpi_rules r;
	struct pd_buf b = PD_BUF_INIT;
	pd_kpi_reconcile(&r, &in, 3525, 1.7);
	ck_assert_uint_eq(r.match, 0);
	ck_assert_double_eq(r.tol_pct, 1.7);
	pd_kpi_describe(&b, &r);
	ck_assert_ptr_null(strstr(b.ptr, "matches"));
	ck_assert_ptr_nonnull(strstr(b.ptr, "first n1ql node of the spec only (2017 to July "
					    "2022) and over the active n1ql nodes only"));
	ck_assert_ptr_nonnull(strstr(b.ptr, "gives 3395 req/s, 3.8% off."));
	pd_buf_release(&b);
}
END_TEST

/* A run whose n1ql_stats/query_requests holds v[i % nv] every 5 s over [0, 1200) s. */
static struct pd_run *served_run(const double *v, size_t nv, struct pd_timebase *tb)
{
	struct pd_run *run = pd_run_new("q");
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	s->db = pd_xstrdup("n1ql_stats"), s->collector = pd_xstrdup("n1ql_stats");
	s->metric = pd_xstrdup("query_requests"), s->scope = PD_SCOPE_CLUSTER;
	pd_run_add_series(run, s);
	for (size_t i = 0; i < 240; i++)
		pd_series_add(s, 1700000000000 + (int64_t)i * 5000, v[i % nv]);
	memset(tb, 0, sizeof(*tb));
	tb->t0_ms = 1700000000000, tb->end_ms = tb->t0_ms + 1195000, tb->interval_ms = 5000;
	return run;
}

START_TEST(test_kpi_tolerance_is_the_measurement_noise_and_rounding)
{
	struct pd_timebase tb;
	/* a constant rate: no noise, only the KPI's rounding to one decimal:
	 * 100 x 0.05 / 3525 = 0.0014184 % */
	const double flat[] = {3876};
	struct pd_run *run = served_run(flat, 1, &tb);
	ck_assert_double_eq_tol(pd_kpi_tolerance(run, &tb, 3525), 0.0014184, 1e-7);
	pd_run_free(run);
	/* 3800 and 3952 alternating, 240 samples: mean 3876, s^2 = 240 x 76^2 / 239 =
	 * 5800.17; the mean's variance at least s^2 / n = 24.167 (independent samples; the
	 * model takes the largest of its readings, never less), so the 99 % half-width is at
	 * least 2.5758 x 4.9160 = 12.663 req/s, 0.3267 % of 3876, + 0.0014 % */
	const double alt[] = {3800, 3952};
	run = served_run(alt, 2, &tb);
	double tol = pd_kpi_tolerance(run, &tb, 3525);
	ck_assert_double_ge(tol, 0.3267 + 0.0014 - 1e-4);
	ck_assert_double_le(tol, 5); /* and not the threshold stood in for it */
	pd_run_free(run);
	/* no series: no tolerance */
	run = pd_run_new("q");
	ck_assert(isnan(pd_kpi_tolerance(run, &tb, 3525)));
	pd_run_free(run);
}
END_TEST

Suite *pd_suite_kpi(void)
{
	Suite *s = suite_create("kpi");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, test_kpi_names_every_rule_that_reproduces_it);
	tcase_add_test(tc, test_kpi_says_when_no_rule_reproduces_it);
	tcase_add_test(tc, test_kpi_change_is_judged_with_the_served_interval);
	tcase_add_test(tc, test_kpi_first_node_unknown_with_several_survivors);
	tcase_add_test(tc, test_kpi_near_is_not_a_match_past_the_tolerance);
	tcase_add_test(tc, test_kpi_tolerance_is_the_measurement_noise_and_rounding);
	suite_add_tcase(s, tc);
	return s;
}
