/* analyze/kpi.c: which of perfrunner's three rules reproduces a throughput KPI. */
#include "check_suites.h"
#include "analyze/kpi.h"

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
	ck_assert_ptr_nonnull(strstr(b.ptr, "the nearest is -10.2% from the KPI"));
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

Suite *pd_suite_kpi(void)
{
	Suite *s = suite_create("kpi");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, test_kpi_names_every_rule_that_reproduces_it);
	tcase_add_test(tc, test_kpi_says_when_no_rule_reproduces_it);
	tcase_add_test(tc, test_kpi_first_node_unknown_with_several_survivors);
	suite_add_tcase(s, tc);
	return s;
}
