#include "check_suites.h"

#include "analyze/runs/story.h"
#include "core/xalloc.h"
#include "parse/bundle.h"
#include "parse/ini.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Hand-made runs: t0 = T0, 5 s sampling, a 1200 s phase; every expected count below is
 * worked out by hand in the comment beside it. */
#define T0   1762107600000LL
#define HOST "172.23.100.40"

static struct pd_series *add_series(struct pd_run *run, const char *collector,
				    const char *metric, const char *server)
{
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	s->db = pd_xstrdup(collector);
	s->collector = pd_xstrdup(collector);
	s->metric = pd_xstrdup(metric);
	s->server = server ? pd_xstrdup(server) : NULL;
	s->scope = server ? PD_SCOPE_SERVER : PD_SCOPE_CLUSTER;
	pd_run_add_series(run, s);
	return s;
}

/* Samples every 5 s from from_s to to_s (inclusive), value v. */
static void fill(struct pd_series *s, int from_s, int to_s, double v)
{
	for (int t = from_s; t <= to_s; t += 5)
		pd_series_add(s, T0 + 1000LL * t, v);
}

/* A series of samples at times t_s[] (seconds from T0) with values v[]. */
static struct pd_series *series_at(const double *t_s, const double *v, size_t n)
{
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		pd_series_add(s, T0 + (int64_t)llround(t_s[i] * 1000), v[i]);
	return s;
}

static struct pd_timebase timebase(double event_s, double rebalance_end_s)
{
	struct pd_timebase tb;
	memset(&tb, 0, sizeof(tb));
	tb.t0_ms = T0, tb.end_ms = T0 + 1200000, tb.interval_ms = 5000;
	tb.event = PD_EVENT_HARD, tb.event_s = event_s;
	tb.rebalance_end_s = (struct pd_estimate){1, rebalance_end_s};
	tb.node = (char *)HOST; /* borrowed: the tests never release tb */
	return tb;
}

START_TEST(test_story_rate_of_2_over_6_samples_is_60)
{
	/* 2/s at 5, 10, ..., 30 s: 6 samples, each 5 s after the one before: 6 x 2 x 5 = 60 */
	double t[] = {5, 10, 15, 20, 25, 30}, v[] = {2, 2, 2, 2, 2, 2};
	struct pd_series *s = series_at(t, v, 6);
	struct pd_story_count c;
	pd_story_integrate(&c, s, T0, T0 + 30000, 5000);
	ck_assert(c.ok);
	ck_assert_uint_eq(c.n, 6);
	ck_assert_uint_eq(c.n_gaps, 0);
	ck_assert_double_eq_tol(c.count, 60.0, 1e-9);
	/* the series' own interval (5 s) when none is given */
	pd_story_integrate(&c, s, T0, T0 + 30000, 0);
	ck_assert_double_eq_tol(c.count, 60.0, 1e-9);
	pd_series_free(s);
}
END_TEST

START_TEST(test_story_gap_counts_one_interval)
{
	/* 2/s at 0, 5, 10, then nothing until 40, 45: the 30 s step is a gap (> 7.5 s), its
	 * sample counts 5 s, not 30: 5 samples x 2 x 5 = 50 (spreading it would give 100) */
	double t[] = {0, 5, 10, 40, 45}, v[] = {2, 2, 2, 2, 2};
	struct pd_series *s = series_at(t, v, 5);
	struct pd_story_count c;
	pd_story_integrate(&c, s, T0, T0 + 45000, 5000);
	ck_assert_uint_eq(c.n, 5);
	ck_assert_uint_eq(c.n_gaps, 1);
	ck_assert_double_eq_tol(c.count, 50.0, 1e-9);
	pd_series_free(s);
}
END_TEST

START_TEST(test_story_irregular_spacing_uses_actual_steps)
{
	/* rates 1..5 at 0, 5, 8, 15, 20 s: steps (first: one interval) 5, 5, 3, 7 (under 7.5:
	 * no gap), 5 -> 1x5 + 2x5 + 3x3 + 4x7 + 5x5 = 5 + 10 + 9 + 28 + 25 = 77 */
	double t[] = {0, 5, 8, 15, 20}, v[] = {1, 2, 3, 4, 5};
	struct pd_series *s = series_at(t, v, 5);
	struct pd_story_count c;
	pd_story_integrate(&c, s, T0, T0 + 20000, 5000);
	ck_assert_uint_eq(c.n_gaps, 0);
	ck_assert_double_eq_tol(c.count, 77.0, 1e-9);
	/* the window [5, 15] s: the sample at 5 s still counts its step from 0 s (outside):
	 * 2x5 + 3x3 + 4x7 = 47 */
	pd_story_integrate(&c, s, T0 + 5000, T0 + 15000, 5000);
	ck_assert_uint_eq(c.n, 3);
	ck_assert_double_eq_tol(c.count, 47.0, 1e-9);
	pd_story_integrate(&c, NULL, T0, T0 + 20000, 5000);
	ck_assert(!c.ok);
	ck_assert_double_eq(c.count, 0);
	pd_series_free(s);
}
END_TEST

START_TEST(test_story_event_window_is_the_transient_phase)
{
	struct pd_timebase tb = timebase(300, 395);
	struct pd_story_window w;
	pd_story_event_window(&w, &tb, 60);
	ck_assert_double_eq(w.start_s, 300);
	ck_assert_double_eq(w.end_s, 455); /* 395 + 60 */
	tb.rebalance_end_s.ok = 0;         /* no rebalance end: the event + settle */
	pd_story_event_window(&w, &tb, 60);
	ck_assert_double_eq(w.end_s, 360);
	tb = timebase(1100, 1180); /* clamped to the 1200 s phase */
	pd_story_event_window(&w, &tb, 60);
	ck_assert_double_eq(w.end_s, 1200);
	tb.event = PD_EVENT_NONE;
	pd_story_event_window(&w, &tb, 60);
	ck_assert_double_eq(w.end_s, 0);
}
END_TEST

/* The event run: errors 10, 6, 4, 2 /s at 300..315 s; 5000 ms queries 1.0, 0.5 /s at
 * 300, 305 s; latency 90 ms but 130 at 305 s. */
static struct pd_run *errors_run(void)
{
	struct pd_run *run = pd_run_new("target");
	struct pd_series *e = add_series(run, "n1ql_stats", "query_errors", NULL);
	struct pd_series *slow = add_series(run, "n1ql_stats", "query_requests_5000ms", NULL);
	struct pd_series *lat = add_series(run, "n1ql_stats", "query_avg_req_time", NULL);
	double rates[] = {10, 6, 4, 2};
	for (int t = 0; t <= 1200; t += 5) {
		pd_series_add(e, T0 + 1000LL * t,
			      t >= 300 && t <= 315 ? rates[(t - 300) / 5] : 0);
		pd_series_add(slow, T0 + 1000LL * t, t == 300 ? 1.0 : t == 305 ? 0.5 : 0);
		pd_series_add(lat, T0 + 1000LL * t, t == 305 ? 130 : 90);
	}
	return run;
}

/* The other run: errors 0.2/s at 305, 315 and 320 s, all else 0; latency 88 but 95 at
 * 400 s. */
static struct pd_run *errors_base(double rate)
{
	struct pd_run *run = pd_run_new("baseline");
	struct pd_series *e = add_series(run, "n1ql_stats", "query_errors", NULL);
	struct pd_series *lat = add_series(run, "n1ql_stats", "query_avg_req_time", NULL);
	for (int t = 0; t <= 1200; t += 5) {
		pd_series_add(e, T0 + 1000LL * t, t == 305 || t == 315 || t == 320 ? rate : 0);
		pd_series_add(lat, T0 + 1000LL * t, t == 400 ? 95 : 88);
	}
	return run;
}

START_TEST(test_story_event_errors_against_shifted_baseline)
{
	struct pd_run *run = errors_run(), *base = errors_base(0.2);
	struct pd_timebase tb = timebase(300, 395), tbb = timebase(0, 0);
	struct pd_event_errors ee;
	tbb.event = PD_EVENT_NONE;
	/* window [300, 455] (395 + 60); the baseline's shifted by 10 s: [310, 465] */
	pd_story_event_errors(&ee, run, &tb, base, &tbb, NULL, 10);
	ck_assert_double_eq(ee.window.end_s, 455);
	ck_assert_double_eq(ee.base_window.start_s, 310);
	/* (10 + 6 + 4 + 2) x 5 = 110 failed requests */
	ck_assert(ee.errors.ok);
	ck_assert_double_eq_tol(ee.errors.count, 110, 1e-9);
	/* baseline: 305 s falls outside [310, 465]; 315, 320: 2 x 0.2 x 5 = 2 */
	ck_assert(ee.base_errors.ok);
	ck_assert_double_eq_tol(ee.base_errors.count, 2, 1e-9);
	/* 5000 ms: (1.0 + 0.5) x 5 = 7.5; no 250 ms series in either run */
	ck_assert_double_eq_tol(ee.slow[3].count, 7.5, 1e-9);
	ck_assert(!ee.slow[0].ok);
	ck_assert(!ee.base_slow[3].ok);
	ck_assert(ee.has_peak);
	ck_assert_double_eq(ee.peak_ms, 130);
	ck_assert_double_eq(ee.peak_s, 305);
	ck_assert_double_eq_tol(ee.pre_ms, 90, 1e-9);
	ck_assert(ee.has_base_peak);
	ck_assert_double_eq(ee.base_peak_ms, 95);
	/* min = max(10, 3 x 2) = 10 <= 110 */
	ck_assert_double_eq_tol(ee.min_count, 10, 1e-9);
	ck_assert(ee.significant);
	pd_run_free(run);
	pd_run_free(base);
}
END_TEST

START_TEST(test_story_event_errors_needs_three_times_baseline)
{
	/* baseline 8/s at 315, 320 s: 2 x 8 x 5 = 80; min = 3 x 80 = 240 > 110 */
	struct pd_run *run = errors_run(), *base = errors_base(8);
	struct pd_timebase tb = timebase(300, 395), tbb = tb;
	struct pd_story_window w = {300, 455};
	struct pd_event_errors ee;
	pd_story_event_errors(&ee, run, &tb, base, &tbb, &w, 10);
	ck_assert_double_eq_tol(ee.base_errors.count, 80, 1e-9);
	ck_assert_double_eq_tol(ee.min_count, 240, 1e-9);
	ck_assert(!ee.significant);
	/* no other run: the floor of 10 alone */
	pd_story_event_errors(&ee, run, &tb, NULL, NULL, &w, 0);
	ck_assert(!ee.base_errors.ok);
	ck_assert(!ee.has_base_peak);
	ck_assert_double_eq(ee.min_count, 10);
	ck_assert(ee.significant);
	pd_run_free(run);
	pd_run_free(base);
}
END_TEST

/* A run with a failover of HOST at 300 s: REST samples up to rest_end_s, cbq-engine at
 * cpu % and 300 connections before the event (2 % and 70 after), ssh series to ssh_end_s. */
static struct pd_run *failover_run(enum pd_event_kind kind, int rest_end_s, double cpu,
				   int ssh_end_s)
{
	struct pd_run *run = pd_run_new("failover");
	struct pd_event *e = pd_run_add_event(run, kind);
	e->line = 10, e->node = pd_xstrdup(HOST);
	e = pd_run_add_event(run, PD_EV_REBALANCE_START);
	e->line = 11;
	pd_strv_add(&e->ejected, HOST);
	fill(add_series(run, "ns_server_system", "cpu_utilization", HOST), 0, rest_end_s, 75);
	struct pd_series *c = add_series(run, "atop", "cbq-engine_cpu", HOST);
	fill(c, 0, 295, cpu);
	fill(c, 300, ssh_end_s, 2);
	struct pd_series *n = add_series(run, "net", "ESTABLISHED", HOST);
	fill(n, 0, 295, 300);
	fill(n, 300, ssh_end_s, 70);
	/* another node's REST series goes on: it must not stand in for HOST's */
	fill(add_series(run, "ns_server_system", "cpu_utilization", "172.23.100.55"), 0, 1200,
	     70);
	return run;
}

START_TEST(test_story_live_node_hard_failover)
{
	struct pd_run *run = failover_run(PD_EV_FAILOVER_HARD, 295, 800, 1200);
	struct pd_timebase tb = timebase(300, 395);
	struct pd_live_node ln;
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_str_eq(pd_live_verdict_name(ln.verdict), "yes");
	ck_assert_int_eq(ln.kind_source, PD_SOURCE_CONSOLE);
	ck_assert_str_eq(ln.host, HOST);
	ck_assert(ln.has_rest);
	ck_assert_double_eq(ln.rest_last_s, 295);
	ck_assert_double_eq(ln.rest_before_s, 5);
	/* [285, 300): the samples at 285, 290, 295 */
	ck_assert(ln.has_cpu);
	ck_assert_uint_eq(ln.cpu_n, 3);
	ck_assert_double_eq(ln.cpu, 800);
	ck_assert_double_eq(ln.conn, 300);
	ck_assert_double_eq(ln.ssh_last_s, 1200);
	ck_assert_double_eq(ln.ssh_after_s, 900);
	pd_run_free(run);
	pd_story_live_release(&ln);
}
END_TEST

START_TEST(test_story_silent_node_is_no_finding)
{
	/* REST ends at 250 s: 50 s before the event, more than 3 x 5 s */
	struct pd_run *run = failover_run(PD_EV_FAILOVER_HARD, 250, 800, 1200);
	struct pd_timebase tb = timebase(300, 395);
	struct pd_live_node ln;
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_SILENT);
	ck_assert_double_eq(ln.rest_before_s, 50);
	ck_assert_double_eq(ln.cpu, 800); /* still measured */
	pd_run_free(run);
	/* REST ends at 285 s: 15 s (3 intervals) before is still alive, by the rule's edge;
	 * with 2 intervals (10 s) it is silent */
	run = failover_run(PD_EV_FAILOVER_HARD, 285, 800, 1200);
	pd_story_live_release(&ln);
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_YES);
	struct pd_live_opts o = {.rest_intervals = 2, .cpu_floor = 10};
	pd_story_live_release(&ln);
	pd_story_live_node(&ln, run, &tb, &o);
	ck_assert_int_eq(ln.verdict, PD_LIVE_SILENT);
	pd_run_free(run);
	pd_story_live_release(&ln);
}
END_TEST

START_TEST(test_story_graceful_idle_and_gone_are_no_finding)
{
	struct pd_run *run = failover_run(PD_EV_FAILOVER_GRACEFUL, 295, 800, 1200);
	struct pd_timebase tb = timebase(300, 395);
	struct pd_live_node ln;
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_NOT_HARD);
	ck_assert_double_eq(ln.rest_before_s, 5);
	pd_run_free(run);
	run = failover_run(PD_EV_FAILOVER_HARD, 295, 4, 1200); /* 4 % < the 10 % floor */
	pd_story_live_release(&ln);
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_IDLE);
	pd_run_free(run);
	run = failover_run(PD_EV_FAILOVER_HARD, 295, 800, 310); /* ssh ends 10 s after */
	pd_story_live_release(&ln);
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_SSH_STOPPED);
	ck_assert_double_eq(ln.ssh_after_s, 10);
	tb.event = PD_EVENT_NONE;
	pd_story_live_release(&ln);
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_NO_EVENT);
	pd_run_free(run);
	pd_story_live_release(&ln);
}
END_TEST

START_TEST(test_story_live_node_from_config_or_rebalance_out)
{
	/* no failover line: the config's shutdown type and tb's node decide */
	struct pd_run *run = failover_run(PD_EV_SNAPSHOT, 295, 800, 1200);
	struct pd_timebase tb = timebase(300, 395);
	struct pd_live_node ln;
	pd_strv_free(&run->events[1].ejected); /* a rebalance that ejects nothing */
	run->cfg.shutdown_type = pd_xstrdup("hard_failover");
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_YES);
	ck_assert_int_eq(ln.kind_source, PD_SOURCE_CONFIG);
	ck_assert_str_eq(ln.host, HOST);
	pd_strv_add(&run->events[1].ejected, HOST); /* the console shows a rebalance-out */
	pd_story_live_release(&ln);
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_NOT_HARD);
	pd_run_free(run);
	pd_story_live_release(&ln);
}
END_TEST

static void set_test(struct pd_run *run, const char *text)
{
	struct pd_src src = {text, strlen(text), "t.test", &pd_limits_default};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_ini_parse(&run->test, &src, &err), 0);
}

/* query_requests at served/s and query_avg_req_time at latency ms over the phase. */
static struct pd_run *query_run(double served, double latency_ms)
{
	struct pd_run *run = pd_run_new("q");
	fill(add_series(run, "n1ql_stats", "query_requests", NULL), 0, 1200, served);
	fill(add_series(run, "n1ql_stats", "query_avg_req_time", NULL), 0, 1200, latency_ms);
	return run;
}

START_TEST(test_story_littles_law)
{
	/* 120 workers x 3 instances x 1 bucket = 360; 360 / 0.090 s = 4000 req/s: served */
	struct pd_run *run = query_run(4000, 90);
	struct pd_timebase tb = timebase(300, 395);
	struct pd_closed_loop cl;
	set_test(run, "[access]\nn1ql_workers = 120\nworkload_instances = 3\n");
	pd_story_closed_loop(&cl, run, &tb, pd_kpi_served(run, &tb), PD_POLICY_LITTLE_TOL_PCT);
	ck_assert(cl.ok);
	ck_assert_int_eq(cl.workers, 360);
	ck_assert_double_eq_tol(cl.latency_ms, 90, 1e-9);
	ck_assert_double_eq_tol(cl.predicted, 4000, 1e-6);
	ck_assert_double_eq_tol(cl.diff_pct, 0, 1e-9);
	ck_assert(cl.closed);
	pd_run_free(run);
	/* 120 ms: 360 / 0.120 = 3000, (3000 - 4000) / 4000 = -25 % beyond 10 % */
	run = query_run(4000, 120);
	set_test(run, "[access]\nn1ql_workers = 120\nworkload_instances = 3\n"
		      "[cluster]\nnum_buckets = 1\n");
	pd_story_closed_loop(&cl, run, &tb, pd_kpi_served(run, &tb), PD_POLICY_LITTLE_TOL_PCT);
	ck_assert_double_eq_tol(cl.predicted, 3000, 1e-6);
	ck_assert_double_eq_tol(cl.diff_pct, -25, 1e-9);
	ck_assert(!cl.closed);
	pd_run_free(run);
}
END_TEST

START_TEST(test_story_littles_law_needs_a_worker_count)
{
	/* 2 buckets x 1 instance x 180 workers = 360 at 90 ms: 4000, yet paced by
	 * n1ql_throughput: not closed by latency alone */
	struct pd_run *run = query_run(4000, 90);
	struct pd_timebase tb = timebase(300, 395);
	struct pd_closed_loop cl;
	set_test(run, "[access]\nn1ql_workers = 180\nn1ql_throughput = 4000\n"
		      "[cluster]\nnum_buckets = 2\n");
	pd_story_closed_loop(&cl, run, &tb, pd_kpi_served(run, &tb), PD_POLICY_LITTLE_TOL_PCT);
	ck_assert(cl.ok);
	ck_assert_int_eq(cl.workers, 360);
	ck_assert(cl.throttled);
	ck_assert(!cl.closed);
	pd_run_free(run);
	run = query_run(4000, 90);
	set_test(run, "[access]\nn1ql_workers = 12x\n");
	pd_story_closed_loop(&cl, run, &tb, pd_kpi_served(run, &tb), PD_POLICY_LITTLE_TOL_PCT);
	ck_assert(!cl.ok);
	pd_run_free(run);
	run = query_run(4000, 90); /* no test config at all */
	pd_story_closed_loop(&cl, run, &tb, pd_kpi_served(run, &tb), PD_POLICY_LITTLE_TOL_PCT);
	ck_assert(!cl.ok);
	pd_run_free(run);
}
END_TEST

static void add_kpi(struct pd_run *run, const char *metric, double value)
{
	struct pd_kpi *k = pd_run_add_kpi(run);
	k->metric = pd_xstrdup(metric);
	k->value = value;
}

/* The KPI change from the two runs' KPI facts (analyze/runs/kpi.c). */
static void kpi_change(struct pd_kpi_change *out, const struct pd_run *b,
		       const struct pd_timebase *tbb, const struct pd_run *t,
		       const struct pd_timebase *tbt)
{
	struct pd_kpi_facts fb, ft;
	pd_kpi_facts_of(&fb, b, tbb);
	pd_kpi_facts_of(&ft, t, tbt);
	pd_kpi_change(out, &fb, 1, &ft);
}

START_TEST(test_story_kpi_ids_differ_but_share_the_form)
{
	struct pd_run *base = query_run(3922, 90), *target = query_run(3876, 92);
	struct pd_timebase tb = timebase(300, 395);
	struct pd_kpi_change kc;
	add_kpi(base, "n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i_avg_query_latency_iris", 5);
	add_kpi(base, "n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i_avg_query_requests_iris", 3916);
	add_kpi(target, "n1ql_thr_Q3_hard_failover_avg_query_requests_iris", NAN);
	add_kpi(target,
		"n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i_avg_query_requests_iris",
		3525);
	kpi_change(&kc, base, &tb, target, &tb);
	ck_assert(kc.ok);
	ck_assert(!kc.same_id);
	ck_assert_double_eq(kc.base_kpi, 3916);
	ck_assert_double_eq(kc.target_kpi, 3525);
	/* (3525 - 3916) / 3916 = -391 / 3916 = -9.9847 % */
	ck_assert_double_eq_tol(kc.kpi_pct, -9.9847, 1e-4);
	ck_assert(kc.base_served.ok);
	ck_assert_double_eq_tol(kc.base_served.value, 3922, 1e-9);
	/* (3876 - 3922) / 3922 = -46 / 3922 = -1.1729 % */
	ck_assert_double_eq_tol(kc.served_pct, -1.1729, 1e-4);
	pd_run_free(target);
	target = query_run(3876, 92); /* no KPI of the form: the served rates only */
	add_kpi(target, "n1ql_thr_Q3_avg_query_latency_iris", 12);
	kpi_change(&kc, base, &tb, target, &tb);
	ck_assert(!kc.ok);
	ck_assert(kc.target_id == NULL);
	ck_assert(isnan(kc.kpi_pct));
	ck_assert_double_eq_tol(kc.served_pct, -1.1729, 1e-4);
	pd_run_free(base);
	pd_run_free(target);
}
END_TEST

/* The seed's ticket runs, by properties the seed must keep rather than its
 * exact figures, which its generator owns. Checked by hand on this seed: 691.4 failed
 * requests in the failover run's [299.79, 452.47] s, the same by a python3 loop over
 * perfdb/n1ql_stats.../query_errors.json with this file's dt rule; 0 in the baseline. */
START_TEST(test_story_seed_tells_the_ticket)
{
	struct pd_run *b, *t;
	struct pd_timebase tbb, tb;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_bundle_load_pair(&b, &t, PD_SEED_DIR "/baseline",
					     PD_SEED_DIR "/failover", &pd_limits_default, &err),
			 0);
	ck_assert_int_eq(pd_timebase_resolve(&tbb, b, NULL, &err), 0);
	ck_assert_int_eq(pd_timebase_resolve(&tb, t, NULL, &err), 0);
	struct pd_event_errors ee;
	pd_story_event_errors(&ee, t, &tb, b, &tbb, NULL, 0);
	ck_assert(ee.significant);
	ck_assert(ee.errors.count > 100);
	ck_assert_double_eq(ee.base_errors.count, 0);
	struct pd_live_node ln;
	pd_story_live_node(&ln, t, &tb, NULL);
	ck_assert_str_eq(pd_live_verdict_name(ln.verdict), "yes");
	ck_assert_str_eq(ln.host, HOST);
	pd_story_live_release(&ln);
	pd_story_live_node(&ln, b, &tbb, NULL);
	ck_assert_int_eq(ln.verdict, PD_LIVE_NO_EVENT);
	struct pd_kpi_change kc;
	kpi_change(&kc, b, &tbb, t, &tb);
	ck_assert(kc.ok && !kc.same_id);
	ck_assert_double_eq(kc.base_kpi, 3916);
	ck_assert_double_eq(kc.target_kpi, 3525);
	struct pd_closed_loop cl;
	pd_story_closed_loop(&cl, t, &tb, pd_kpi_served(t, &tb), PD_POLICY_LITTLE_TOL_PCT);
	ck_assert_int_eq(cl.workers, 360); /* the seed's 120 workers x 3 instances */
	ck_assert(cl.closed);
	pd_run_free(b);
	pd_run_free(t);
	pd_story_live_release(&ln);
	pd_timebase_release(&tb);
	pd_timebase_release(&tbb);
}
END_TEST

/* Two n1ql nodes, HOST removed at 300 s of a 1200 s run: HOST's cbq-engine at 300 %, the
 * other at 100 % before it, so HOST's share is 300 / 400 = 0.75; the query rate is 4000
 * req/s before the event: HOST served 0.75 x 4000 x 300 / 1200 = 750 req/s over the run. */
START_TEST(test_story_kpi_inputs_removed_share)
{
	struct pd_run *run = pd_run_new("kpi");
	struct pd_timebase tb = timebase(300, 400);
	pd_run_add_node(run, "172.23.100.55", 13)->services = PD_SVC_N1QL;
	pd_run_add_node(run, HOST, strlen(HOST))->services = PD_SVC_N1QL;
	pd_run_add_node(run, "172.23.100.210", 14)->services = PD_SVC_KV;
	pd_strv_add(&run->spec_n1ql, "172.23.100.55");
	pd_strv_add(&run->spec_n1ql, HOST);
	fill(add_series(run, "atop", "cbq-engine_cpu", HOST), 0, 1200, 300);
	fill(add_series(run, "atop", "cbq-engine_cpu", "172.23.100.55"), 0, 1200, 100);
	struct pd_series *q = add_series(run, "n1ql_stats", "query_requests", NULL);
	fill(q, 0, 295, 4000);
	fill(q, 300, 1200, 3000);
	struct pd_kpi_in in;
	double share = 0;
	ck_assert(pd_kpi_inputs(&in, &share, run, &tb, (struct pd_estimate){1, 3500}));
	ck_assert_double_eq_tol(share, 0.75, 1e-12);
	ck_assert_double_eq(in.total, 3500);
	ck_assert_double_eq_tol(in.removed, 750, 1e-9);
	ck_assert_uint_eq(in.n_active, 1);
	ck_assert(!in.removed_is_first);
	tb.event = PD_EVENT_NONE; /* no event: nothing removed, both nodes active */
	ck_assert(pd_kpi_inputs(&in, NULL, run, &tb, (struct pd_estimate){1, 3500}));
	ck_assert_double_eq(in.removed, 0);
	ck_assert_uint_eq(in.n_active, 2);
	ck_assert(!pd_kpi_inputs(&in, NULL, run, &tb, (struct pd_estimate){0, 0}));
	pd_run_free(run);
}
END_TEST

Suite *pd_suite_story(void)
{
	Suite *s = suite_create("story");
	TCase *tc = tcase_create("story");
	tcase_add_test(tc, test_story_rate_of_2_over_6_samples_is_60);
	tcase_add_test(tc, test_story_gap_counts_one_interval);
	tcase_add_test(tc, test_story_irregular_spacing_uses_actual_steps);
	tcase_add_test(tc, test_story_event_window_is_the_transient_phase);
	tcase_add_test(tc, test_story_event_errors_against_shifted_baseline);
	tcase_add_test(tc, test_story_event_errors_needs_three_times_baseline);
	tcase_add_test(tc, test_story_live_node_hard_failover);
	tcase_add_test(tc, test_story_silent_node_is_no_finding);
	tcase_add_test(tc, test_story_graceful_idle_and_gone_are_no_finding);
	tcase_add_test(tc, test_story_live_node_from_config_or_rebalance_out);
	tcase_add_test(tc, test_story_littles_law);
	tcase_add_test(tc, test_story_littles_law_needs_a_worker_count);
	tcase_add_test(tc, test_story_kpi_ids_differ_but_share_the_form);
	tcase_add_test(tc, test_story_seed_tells_the_ticket);
	tcase_add_test(tc, test_story_kpi_inputs_removed_share);
	suite_add_tcase(s, tc);
	return s;
}
