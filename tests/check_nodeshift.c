#include "check_suites.h"

#include "analyze/compare.h"
#include "analyze/tell/nodeshift.h"
#include "parse/bundle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of v[0..n) by qsort, the middle two averaged: not the code under test. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The median of a raw series' samples in [from, to) seconds after t0_ms. */
static double raw_median(const struct pd_series *s, int64_t t0_ms, double from, double to)
{
	double *v = malloc((s->n + 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		double t = (double)(s->t_ms[i] - t0_ms) / 1000;
		if (t >= from && t < to)
			v[k++] = s->v[i];
	}
	double m = k ? median(v, k) : NAN;
	free(v);
	return m;
}

static const struct pd_nodeshift_metric *story_of(const struct pd_comparison *c,
						  const char *metric)
{
	for (size_t i = 0; i < c->shift->n; i++)
		if (!strcmp(c->shift->m[i].metric, metric))
			return &c->shift->m[i];
	ck_abort_msg("no story for %s", metric);
	return NULL;
}

/* The seed's connections: the survivors gain about a quarter across the event, mostly the
 * removed node's connections moving over; all seven target nodes together change by a few
 * % (the ticket: +26.8 % against the baseline, +3.7 % all together). Each node's medians
 * agree with its raw samples; the removed node comes last among the nodes. */
START_TEST(test_nodeshift_connections_move_between_nodes)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	ck_assert_int_eq(pd_compare(&c, a, b, &opts, &err), 0);
	const struct pd_nodeshift_metric *m = story_of(c, "net/ESTABLISHED");
	ck_assert_int_eq(m->agg, PD_AGG_SUM);
	ck_assert_uint_eq(m->n_rows, 9); /* 6 survivors, removed, survivors, all */
	const struct pd_nodeshift_row *rem = &m->rows[6], *sv = &m->rows[7], *all = &m->rows[8];
	ck_assert_int_eq(rem->kind, PD_NODESHIFT_REMOVED);
	ck_assert_str_eq(rem->host, "172.23.100.40");
	ck_assert(isnan(rem->base_post) && rem->delta < 0);
	ck_assert_int_eq(sv->kind, PD_NODESHIFT_SURVIVORS);
	ck_assert_int_eq(all->kind, PD_NODESHIFT_ALL);
	ck_assert_uint_eq(all->members, 7);
	ck_assert(isnan(all->base_post) && isnan(all->base_pct) && all->delta < 0);
	ck_assert_double_gt(sv->change_pct, 20);
	ck_assert_double_gt(all->change_pct, 2);
	ck_assert_double_lt(all->change_pct, 6);
	ck_assert(rem->post < rem->pre / 2); /* its connections left, ~70 linger */
	ck_assert_int_ge(sv->delta, 0);
	ck_assert_double_eq_tol(c->deltas[sv->delta].delta_pct, sv->base_pct, 1.0);
	const struct pd_window *pre = &c->windows[PD_PHASE_PRE],
			       *post = &c->windows[PD_PHASE_POST];
	for (size_t i = 0; i < 7; i++) {
		const struct pd_series *s =
			pd_run_series(b, "net", "ESTABLISHED", m->rows[i].host);
		ck_assert_ptr_nonnull(s);
		double want_pre = raw_median(s, c->tb_target.t0_ms, pre->start_s, pre->end_s);
		double want_post =
			raw_median(s, c->tb_target.t0_ms, post->start_s, post->end_s);
		ck_assert_double_eq_tol(m->rows[i].pre, want_pre, 0.02 * want_pre + 1);
		ck_assert_double_eq_tol(m->rows[i].post, want_post, 0.02 * want_post + 1);
	}
	/* every node together before the event: the survivors' and the removed node's sum */
	ck_assert_double_eq_tol(all->pre, sv->pre + rem->pre, 0.02 * all->pre);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* A CPU story is a mean, and a metric the removed node lacks has none; a run without an
 * event has no story at all. */
START_TEST(test_nodeshift_means_and_absences)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	ck_assert_int_eq(pd_compare(&c, a, b, &opts, &err), 0);
	const struct pd_nodeshift_metric *m = story_of(c, "atop/beam.smp_cpu");
	ck_assert_int_eq(m->agg, PD_AGG_MEAN);
	const struct pd_nodeshift_row *sv = &m->rows[m->n_rows - 2],
				      *all = &m->rows[m->n_rows - 1];
	const struct pd_nodeshift_row *rem = &m->rows[m->n_rows - 3];
	/* before the event, the mean of seven is the six's mean with the seventh averaged in */
	ck_assert_double_eq_tol(all->pre, (6 * sv->pre + rem->pre) / 7, 0.03 * all->pre);
	for (size_t i = 0; i < c->shift->n; i++)
		ck_assert_str_ne(c->shift->m[i].metric, "atop/memcached_cpu"); /* kv only */
	pd_comparison_free(c);
	ck_assert_int_eq(pd_compare(&c, a, a, &opts, &err), 0);
	ck_assert_uint_eq(c->shift->n, 0);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

Suite *pd_suite_nodeshift(void)
{
	Suite *s = suite_create("nodeshift");
	TCase *tc = tcase_create("nodeshift");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_nodeshift_connections_move_between_nodes);
	tcase_add_test(tc, test_nodeshift_means_and_absences);
	suite_add_tcase(s, tc);
	return s;
}
