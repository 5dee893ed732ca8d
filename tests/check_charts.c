/* What the charts show (docs/report.md "Metrics (charts)"): decided on the tree in
 * analyze/tell/chartfacts.c, planned by render/charts.c. The seed's facts used here are those
 * its generator puts in (fixtures/seed-README.md), never read back from perfdelta's output. */
#include "check_suites.h"

#include "analyze/compare.h"
#include "core/model.h"
#include "render/charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pd_comparison *compare(struct pd_run *a, struct pd_run *b)
{
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	ck_assert_int_eq(pd_compare(&c, a, b, &opts, &err), 0);
	return c;
}

/* The series collector/metric of run on host (NULL: the one without a server). */
static struct pd_series *series(struct pd_run *run, const char *collector, const char *metric,
				const char *host)
{
	for (size_t i = 0; i < run->n_series; i++) {
		struct pd_series *s = run->series[i];
		if (!strcmp(s->collector, collector) && !strcmp(s->metric, metric) &&
		    (host ? s->server && !strcmp(s->server, host) : !s->server))
			return s;
	}
	ck_abort_msg("no %s/%s on %s", collector, metric, host ? host : "the cluster");
	return NULL;
}

static void zero(struct pd_series *s)
{
	for (size_t i = 0; i < s->n; i++)
		s->v[i] = 0;
}

/* The plan's chart of metric that draws host (NULL: a cluster chart), or NULL. */
static const struct pd_chart *chart_of(const struct pd_comparison *c,
				       const struct pd_chart_plan *plan, const char *metric,
				       const char *host)
{
	for (size_t i = 0; i < plan->n; i++) {
		const struct pd_chart *ch = &plan->charts[i];
		if ((ch->kind == PD_CHART_NODE || ch->kind == PD_CHART_METRIC) &&
		    !strcmp(c->views[ch->view].metric, metric) &&
		    (host ? ch->host && !strcmp(ch->host, host) : !ch->host))
			return ch;
	}
	return NULL;
}

/* A series that is 0 throughout in both runs is no chart: it is in the plan's fold, with
 * the node its chart would have drawn; zero in one run only, it is still drawn. */
START_TEST(test_charts_zero_in_both_runs_folded)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	const char *h = "172.23.100.210", *h2 = "172.23.100.211";
	zero(series(a, "atop", "projector_cpu", h));
	zero(series(b, "atop", "projector_cpu", h));
	zero(series(b, "atop", "projector_cpu", h2)); /* the baseline's is not */
	struct pd_comparison *c = compare(a, b);
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	ck_assert_ptr_null(chart_of(c, &plan, "atop/projector_cpu", h));
	ck_assert_ptr_nonnull(chart_of(c, &plan, "atop/projector_cpu", h2));
	ck_assert_ptr_nonnull(chart_of(c, &plan, "atop/projector_cpu", "172.23.100.212"));
	size_t hits = 0;
	for (size_t i = 0; i < plan.n_folded; i++) {
		const struct pd_view *v = &c->views[plan.folded[i].view];
		ck_assert(v->zero);
		if (!strcmp(v->metric, "atop/projector_cpu")) {
			ck_assert_str_eq(plan.folded[i].host, h);
			hits++;
		}
	}
	ck_assert_uint_eq(hits, 1);
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* Rates are "per second" whatever their collector: ns_server's bucket stats and the
 * indexer's counters are rates (cbagent stores ns_server's per-second samples), as are
 * n1ql_stats'; connections are counts, memory bytes. */
START_TEST(test_charts_units_per_kind)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = compare(a, b);
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	static const struct {
		const char *metric, *host, *label;
	} want[] = {
		{"ns_server/ops", NULL, "per second"},
		{"secondary_stats/index_num_requests", NULL, "per second"},
		{"n1ql_stats/query_requests", NULL, "per second"},
		{"net/ESTABLISHED", "172.23.100.210", "count"},
		{"ns_server/cpu_utilization_rate", NULL, "%"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		const struct pd_chart *ch = chart_of(c, &plan, want[i].metric, want[i].host);
		ck_assert_msg(ch != NULL, "no chart of %s", want[i].metric);
		ck_assert_str_eq(ch->plot.ylabel, want[i].label);
	}
	const struct pd_chart *rss = chart_of(c, &plan, "atop/memcached_rss", "172.23.100.210");
	ck_assert(!strcmp(rss->plot.ylabel, "MiB") || !strcmp(rss->plot.ylabel, "GiB"));
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* UTF-8 characters of s. */
static size_t chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Every title fits its chart: at most (width - 24) / (0.6 x font) characters (DejaVu
 * Sans, gnuplot's sans-serif, averages under 0.6 em a character over digits, lower case
 * and punctuation), and the removed node's says so in full. */
START_TEST(test_charts_titles_fit)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = compare(a, b);
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	pd_chart_plan_findings(&plan, c, 360);
	size_t removed = 0;
	for (size_t i = 0; i < plan.n; i++) {
		const struct pd_chart *ch = &plan.charts[i];
		double font = ch->plot.compact ? 12 : 13;
		double room = (ch->plot.width - 24) / (0.6 * font);
		ck_assert_msg(chars(ch->title) <= room, "%s: \"%s\" is %zu > %.0f characters",
			      ch->file, ch->title, chars(ch->title), room);
		if (ch->host && !strcmp(ch->host, "172.23.100.40")) {
			ck_assert_ptr_nonnull(strstr(ch->title, "n1ql#2, removed"));
			ck_assert_str_eq(ch->plot.frame, "#d62728"); /* framed in red */
			removed++;
		}
	}
	ck_assert_uint_gt(removed, 10); /* atop, net, metrics_rest_api_processes, ... */
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* One chart per fact: the seed's throughput series states three findings (the KPI's
 * scope, the KPI's change, the recovery); its chart is drawn once, by the first of them,
 * and every finding about a view names that first one. */
START_TEST(test_charts_one_chart_per_fact)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = compare(a, b);
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	pd_chart_plan_findings(&plan, c, 360);
	size_t about = 0;
	long first = -1;
	for (size_t f = 0; f < c->n_findings; f++) {
		const struct pd_finding *fi = &c->findings[f];
		if (fi->view < 0 ||
		    strcmp(c->views[fi->view].metric, "n1ql_stats/query_requests"))
			continue;
		first = first < 0 ? (long)f : first;
		about++;
		ck_assert_int_eq(fi->chart, first);
	}
	ck_assert_uint_ge(about, 3);
	for (size_t i = 0; i < plan.n; i++)
		for (size_t j = i + 1; j < plan.n; j++)
			ck_assert_msg(plan.charts[i].kind != PD_CHART_FINDING ||
					      plan.charts[j].kind != PD_CHART_FINDING ||
					      plan.charts[i].view != plan.charts[j].view,
				      "%s and %s draw one view", plan.charts[i].file,
				      plan.charts[j].file);
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* No empty difference chart: the failed queries are 0 throughout the baseline, so no
 * percentage of it is defined and the event-errors finding has no difference over time;
 * every difference chart drawn has a point. */
START_TEST(test_charts_no_empty_difference)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = compare(a, b);
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	pd_chart_plan_findings(&plan, c, 360);
	size_t errors = 0, deltas = 0;
	for (size_t f = 0; f < c->n_findings; f++)
		if (c->findings[f].kind == PD_FIND_EVENT_ERRORS) {
			ck_assert_ptr_null(c->findings[f].smooth_pct);
			errors++;
		}
	ck_assert_uint_eq(errors, 1);
	for (size_t i = 0; i < plan.n; i++) {
		const struct pd_chart *ch = &plan.charts[i];
		size_t finite = 0;
		if (ch->kind != PD_CHART_DELTA)
			continue;
		deltas++;
		for (size_t k = 0; k < ch->lines[0].n; k++)
			finite += isfinite(ch->lines[0].v[k]) != 0;
		ck_assert_msg(finite > 0, "%s has no point", ch->file);
	}
	ck_assert_uint_gt(deltas, 3);
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* The finding chart of metric at scope (its first line is the baseline). */
static const struct pd_chart *finding_chart(const struct pd_comparison *c,
					    const struct pd_chart_plan *plan,
					    const char *metric, const char *scope)
{
	for (size_t i = 0; i < plan->n; i++) {
		const struct pd_chart *ch = &plan->charts[i];
		const struct pd_view *v = &c->views[ch->view];
		if (ch->kind == PD_CHART_FINDING && !strcmp(v->metric, metric) &&
		    !strcmp(v->scope.name, scope))
			return ch;
	}
	ck_abort_msg("no finding chart of %s at %s", metric, scope);
	return NULL;
}

/* Whether line l has no point within half a step of t (a break there). */
static int breaks_at(const struct pd_plot_line *l, double t, double step)
{
	for (size_t k = 0; k < l->n; k++)
		if (fabs(l->t[k] - t) <= step / 2 && isfinite(l->v[k]))
			return 0;
	return 1;
}

/* A sum of nodes with a missing sample breaks there, and the break is marked as a gap in
 * the baseline's colour under it, the line solid (dashtype 1: dashes are the removed node
 * and the event). The seed's baseline net/ESTABLISHED on .210 loses its sample nearest
 * 600 s; the survivors' sum of the finding chart then has no point there, which it had. */
START_TEST(test_charts_sum_gap_is_a_marked_break)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = compare(a, b);
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	pd_chart_plan_findings(&plan, c, 360);
	struct pd_series *s = series(a, "net", "ESTABLISHED", "172.23.100.210");
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) /* the sample nearest 600 s on the grid */
		if (llabs(s->t_ms[i] - c->base_grid_t0_ms - 600000) <
		    llabs(s->t_ms[k] - c->base_grid_t0_ms - 600000))
			k = i;
	double t = (double)(s->t_ms[k] - c->base_grid_t0_ms) / 1000, step = c->step_s;
	const struct pd_chart *ch = finding_chart(c, &plan, "net/ESTABLISHED", "survivors");
	ck_assert_str_eq(ch->lines[0].label, "baseline");
	ck_assert(!breaks_at(&ch->lines[0], t, step));
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);

	memmove(&s->t_ms[k], &s->t_ms[k + 1], (s->n - k - 1) * sizeof(*s->t_ms));
	memmove(&s->v[k], &s->v[k + 1], (s->n - k - 1) * sizeof(*s->v));
	s->n--;
	c = compare(a, b);
	pd_chart_plan_metrics(&plan, c, 120);
	pd_chart_plan_findings(&plan, c, 360);
	ch = finding_chart(c, &plan, "net/ESTABLISHED", "survivors");
	ck_assert(breaks_at(&ch->lines[0], t, step));
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_plot_script(&job, &ch->plot, "");
	/* the baseline's gap marks: segments (a, 0.02), (z, 0.02) of its element on the y2
	 * axis, (NaN, NaN) between them */
	/* linetype 105: the baseline's marks (render/plot.c line_types()) */
	ck_assert_ptr_nonnull(strstr(job.script.ptr,
				     "set linetype 105 linecolor rgb '#665b7fa8' "
				     "linewidth 5 "));
	const char *p = strstr(job.script.ptr, "axes x1y2 with lines linetype 105 ");
	while (p && p > job.script.ptr && strncmp(p, "'/dev/fd/", 9))
		p--;
	size_t skip = 0, records = 0;
	ck_assert(p &&
		  sscanf(p, "'/dev/fd/%*d' binary skip=%zu record=%zu", &skip, &records) == 2);
	const double *g = (const double *)(job.data.ptr + skip);
	int marked = 0;
	for (size_t r = 0; r + 1 < records; r++)
		marked |= !isnan(g[2 * r]) && !isnan(g[2 * r + 2]) && g[2 * r] < t &&
			  t < g[2 * r + 2];
	ck_assert(marked);
	ck_assert_ptr_nonnull(strstr(job.script.ptr,
				     "set linetype 101 linecolor rgb '#5b7fa8' linewidth 1.6 "
				     "dashtype 1\n"));
	pd_plot_discard(&job);
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* One SVG per metric (a chart file cost gnuplot more in the kernel than its
 * drawing): the Metrics section's charts of one metric are consecutive panels 0 .. n-1 of
 * one file, and there are as many files as metrics charted. */
START_TEST(test_charts_one_file_per_metric)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = compare(a, b);
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	size_t files = 0, metrics = 0, most = 0;
	for (size_t i = 0; i < plan.n; i++) {
		const struct pd_chart *ch = &plan.charts[i];
		const char *m = c->views[ch->view].metric;
		metrics += !i || strcmp(m, c->views[plan.charts[i - 1].view].metric);
		files += !i || strcmp(ch->file, plan.charts[i - 1].file);
		ck_assert_uint_eq(ch->panel, i && !strcmp(ch->file, plan.charts[i - 1].file)
						     ? plan.charts[i - 1].panel + 1
						     : 0);
		ck_assert_uint_lt(ch->panel, ch->panels);
		most = ch->panels > most ? ch->panels : most;
	}
	ck_assert_uint_eq(files, metrics);
	ck_assert_uint_ge(most, 7); /* a metric of every node: the seed's 7 target nodes */
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* Removes every series collector/metric from run; returns how many. */
static size_t drop(struct pd_run *run, const char *collector, const char *metric)
{
	size_t k = 0, n = 0;
	for (size_t i = 0; i < run->n_series; i++) {
		struct pd_series *s = run->series[i];
		if (!strcmp(s->collector, collector) && !strcmp(s->metric, metric)) {
			pd_series_free(s);
			n++;
		} else {
			run->series[k++] = s;
		}
	}
	run->n_series = k;
	return n;
}

/* Whether line l has a finite point. */
static int has_points(const struct pd_plot_line *l)
{
	for (size_t k = 0; k < l->n; k++)
		if (isfinite(l->v[k]))
			return 1;
	return 0;
}

/* A series of one run is drawn, the other run's absence said (iostat and
 * meminfo, which perfrunner's shutdown test turns off): atop/projector_rss dropped from
 * the target is charted from the baseline on each kv node (the seed runs projector on the
 * kv nodes, fixtures/seed-README.md), "not in the target run"; projector_vsize dropped
 * from the baseline is charted from the target, "not in the baseline". */
START_TEST(test_charts_one_run_series_drawn)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	ck_assert_uint_gt(drop(b, "atop", "projector_rss"), 0);
	ck_assert_uint_gt(drop(a, "atop", "projector_vsize"), 0);
	struct pd_comparison *c = compare(a, b);
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	const struct pd_chart *rss = chart_of(c, &plan, "atop/projector_rss", "172.23.100.210");
	const struct pd_chart *vsz =
		chart_of(c, &plan, "atop/projector_vsize", "172.23.100.210");
	ck_assert_ptr_nonnull(rss);
	ck_assert_ptr_nonnull(vsz);
	ck_assert(has_points(&rss->lines[0]) && !has_points(&rss->lines[1]));
	ck_assert_str_eq(rss->plot.note, "not in the target run");
	ck_assert_ptr_nonnull(strstr(rss->alt, "not in the target run"));
	ck_assert(!has_points(&vsz->lines[0]) && has_points(&vsz->lines[1]));
	ck_assert_str_eq(vsz->plot.note, "not in the baseline");
	ck_assert_ptr_null(
		chart_of(c, &plan, "atop/memcached_rss", "172.23.100.210")->plot.note);
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* The latency distribution (a percentile or histogram view): the seed's
 * generator puts 14, 3.1, 0.42 and 0 requests a second over 250, 500, 1000 and 5000 ms
 * against 3916 a second in all (fixtures/seed-README.md), so the baseline's share slower
 * than each bound after the event is 0.358 %, 0.079 %, 0.011 % and 0 (within the
 * generator's noise, 15 %); one chart draws both runs, its x axis the bounds. */
START_TEST(test_charts_latency_distribution)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = compare(a, b);
	static const double bound[] = {250, 500, 1000, 5000};
	static const double want[] = {100 * 14 / 3916.0, 100 * 3.1 / 3916.0,
				      100 * 0.42 / 3916.0, 0};
	ck_assert_uint_eq(c->n_latency, 1);
	const struct pd_latency *l = &c->latency[0];
	ck_assert_int_eq(l->phase, PD_PHASE_POST);
	ck_assert_uint_eq(l->n, 4);
	for (size_t k = 0; k < 4; k++) {
		ck_assert_double_eq(l->x[k], bound[k]);
		ck_assert_double_eq_tol(l->base[k], want[k], 0.15 * want[k] + 1e-9);
		ck_assert(isfinite(l->target[k]));
	}
	struct pd_chart_plan plan;
	pd_chart_plan_metrics(&plan, c, 120);
	pd_chart_plan_findings(&plan, c, 360);
	size_t charts = 0;
	for (size_t i = 0; i < plan.n; i++)
		if (plan.charts[i].kind == PD_CHART_LATENCY) {
			const struct pd_chart *ch = &plan.charts[i];
			charts++;
			ck_assert_uint_eq(ch->plot.n_xticks, 4);
			ck_assert_double_eq(ch->plot.xticks[3], 5000);
			ck_assert_str_eq(ch->lines[0].label, "baseline");
			ck_assert_str_eq(ch->lines[1].label, "target");
		}
	ck_assert_uint_eq(charts, 1);
	pd_chart_plan_free(&plan);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

Suite *pd_suite_charts(void)
{
	Suite *s = suite_create("charts");
	TCase *tc = tcase_create("charts");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_charts_zero_in_both_runs_folded);
	tcase_add_test(tc, test_charts_units_per_kind);
	tcase_add_test(tc, test_charts_titles_fit);
	tcase_add_test(tc, test_charts_one_chart_per_fact);
	tcase_add_test(tc, test_charts_no_empty_difference);
	tcase_add_test(tc, test_charts_sum_gap_is_a_marked_break);
	tcase_add_test(tc, test_charts_one_file_per_metric);
	tcase_add_test(tc, test_charts_one_run_series_drawn);
	tcase_add_test(tc, test_charts_latency_distribution);
	suite_add_tcase(s, tc);
	return s;
}
