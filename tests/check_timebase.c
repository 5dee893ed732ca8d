#include "check_suites.h"

#include "analyze/runs/timebase.h"
#include "core/buf.h"
#include "core/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* A synthetic run: 1200 s phase from T0 (epoch ms), 5 s samples; a rebalance_progress
 * series rising from +305 s to +395 s; console lines in local time = UTC + offset_s:
 * failover at +300 s, rebalance start +304 s, end +395 s. */
#define T0 1762107600000LL /* 2025-11-02T18:20:00Z: 20394 days * 86400 + 66000 s */

static struct pd_run *make_run(int64_t offset_s, int with_series)
{
	struct pd_run *run = pd_run_new("synthetic");
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	s->db = pd_xstrdup("active_tasksx");
	s->collector = pd_xstrdup("active_tasks");
	s->metric = pd_xstrdup("rebalance_progress");
	for (int k = 0; k <= 240; k++) {
		int64_t t = T0 + 5000LL * k + (k % 3) * 100; /* arrival jitter 0-200 ms */
		double v = (k >= 61 && k <= 78) ? (k - 60) * 5.5 : 0; /* > 0 from +305 s */
		pd_series_add(s, t, with_series ? v : 0);
	}
	pd_run_add_series(run, s);
	int64_t local0 = T0 / 1000 + offset_s;
	struct pd_event *e = pd_run_add_event(run, PD_EV_FAILOVER_HARD);
	e->local_s = local0 + 300, e->line = 10, e->node = pd_xstrdup("172.23.100.40");
	e = pd_run_add_event(run, PD_EV_REBALANCE_START);
	e->local_s = local0 + 304, e->line = 11;
	pd_strv_add(&e->ejected, "172.23.100.40");
	e = pd_run_add_event(run, PD_EV_REBALANCE_END);
	e->local_s = local0 + 395, e->line = 20;
	return run;
}

START_TEST(test_timebase_offset_from_series_pacific)
{
	struct pd_run *run = make_run(-8 * 3600, 1);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, NULL, &err), 0);
	ck_assert_int_eq(tb.t0_ms, T0);
	ck_assert_int_eq(tb.interval_ms, 5000);
	ck_assert(tb.has_offset);
	ck_assert_int_eq(tb.offset_source, PD_SOURCE_SERIES);
	ck_assert_int_eq(tb.offset_s, -28800);
	ck_assert_int_eq(tb.event, PD_EVENT_HARD);
	ck_assert_str_eq(tb.node, "172.23.100.40");
	ck_assert_int_eq(tb.event_source, PD_SOURCE_CONSOLE);
	ck_assert_double_eq_tol(tb.event_s, 300.0, 0.001);
	/* the series' first sample above 0 is k = 61: 305 s + 100 ms jitter (61 % 3 = 1) */
	ck_assert_double_eq_tol(tb.ev_series.value, 305.1, 0.001);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

START_TEST(test_timebase_same_event_in_india_time)
{
	struct pd_run *run = make_run(5 * 3600 + 1800, 1);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, NULL, &err), 0);
	ck_assert_int_eq(tb.offset_s, 19800);
	ck_assert_double_eq_tol(tb.event_s, 300.0, 0.001);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

START_TEST(test_timebase_offset_from_build_start)
{
	/* no rebalance in the series: the build started at T0 - 22 min, perfrunner's first
	 * line 2 min after it in UTC-8: raw offset = -28800 + 120, floored to -28800 */
	struct pd_run *run = make_run(-8 * 3600, 0);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	run->jenkins.present = 1;
	run->jenkins.timestamp_ms = T0 - 22 * 60000;
	run->console_first_s = (T0 - 20 * 60000) / 1000 - 8 * 3600;
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, NULL, &err), 0);
	ck_assert_int_eq(tb.offset_source, PD_SOURCE_BUILD);
	ck_assert_int_eq(tb.offset_s, -28800);
	ck_assert_double_eq_tol(tb.event_s, 300.0, 0.001);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

START_TEST(test_timebase_flag_overrides_and_is_checked)
{
	struct pd_run *run = make_run(-8 * 3600, 1);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	struct pd_time_flags f = {1, 250.0, 1, 3600, NULL};
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, &f, &err), 0);
	ck_assert_int_eq(tb.offset_source, PD_SOURCE_FLAG);
	ck_assert_int_eq(tb.offset_s, 3600);
	ck_assert_int_eq(tb.event_source, PD_SOURCE_FLAG);
	ck_assert_double_eq(tb.event_s, 250.0);
	f.event_time_s = 5000; /* past the 1200 s phase */
	pd_timebase_release(&tb);
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, &f, &err), PD_EINVAL);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

START_TEST(test_offset_round_to_quarter_hours)
{
	ck_assert_int_eq(pd_timebase_offset_round(-28800 + 250), -28800);
	ck_assert_int_eq(pd_timebase_offset_round(19800 - 400), 19800);
	ck_assert_int_eq(pd_timebase_offset_round(20700 + 100), 20700); /* +05:45 Nepal */
}
END_TEST

/* The notes of tb, joined by " | ". */
static char *notes_of(const struct pd_timebase *tb)
{
	struct pd_strv v = {0};
	struct pd_buf b = PD_BUF_INIT;
	pd_timebase_notes(&v, tb, "target");
	for (size_t i = 0; i < v.n; i++)
		pd_buf_addf(&b, "%s%s", i ? " | " : "", v.v[i]);
	pd_strv_free(&v);
	return pd_buf_detach(&b);
}

/* A failover line at +3899 s of a 1200 s phase (T0 .. T0 + 1200.2 s): dropped, said, and
 * the next source used: the series' rebalance start, 305.1 s. */
START_TEST(test_timebase_event_outside_the_phase_is_dropped)
{
	struct pd_run *run = make_run(-8 * 3600, 1);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	run->events[0].local_s += 3599; /* +300 s -> +3899 s */
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, NULL, &err), 0);
	ck_assert_uint_eq(tb.dropped, 1u << PD_SOURCE_CONSOLE);
	ck_assert_int_eq(tb.event_source, PD_SOURCE_SERIES);
	ck_assert_double_eq_tol(tb.event_s, 305.1, 0.001);
	char *n = notes_of(&tb);
	ck_assert_msg(strstr(n, "the target's event time from the console (3899.0 s) lies "
				"outside its measured phase (0 to 1200 s): not used; the event "
				"time is taken from the series") != NULL,
		      "%s", n);
	free(n);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

/* Without a console, the series' rebalance start (305.1 s) against the config's time / 4
 * (1200 / 4 = 300 s): 5.1 s apart, more than one interval (5 s): said, naming the series. */
START_TEST(test_timebase_sources_that_disagree_are_said)
{
	struct pd_run *run = make_run(-8 * 3600, 1);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	size_t n_events = run->n_events;
	run->n_events = 0; /* no consoleText: restored before the run is freed */
	run->cfg.shutdown_type = pd_xstrdup("hard_failover");
	run->cfg.access_time_s = 1200;
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, NULL, &err), 0);
	run->n_events = n_events;
	ck_assert_int_eq(tb.event_source, PD_SOURCE_SERIES);
	ck_assert(tb.disagree);
	char *n = notes_of(&tb);
	ck_assert_msg(strstr(n, "disagree by more than one interval (5 s): series (rebalance "
				"start) 305.1 s, config 300.0 s; the event time is taken from "
				"the series, 305.1 s") != NULL,
		      "%s", n);
	free(n);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

/* A failover line naming a host that is not in the spec, while the rebalance ejects .40:
 * the removed node is .40, said. */
START_TEST(test_timebase_failover_node_must_be_in_the_spec)
{
	struct pd_run *run = make_run(-8 * 3600, 1);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	pd_run_add_node(run, "172.23.100.55", 13)->services = PD_SVC_N1QL;
	pd_run_add_node(run, "172.23.100.40", 13)->services = PD_SVC_N1QL;
	free(run->events[0].node);
	run->events[0].node = pd_xstrdup("172.23.100.99");
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, NULL, &err), 0);
	ck_assert_str_eq(tb.node, "172.23.100.40");
	ck_assert_str_eq(tb.line_node, "172.23.100.99");
	char *n = notes_of(&tb);
	ck_assert_msg(strstr(n, "names 172.23.100.99, which is not in the spec: the removed "
				"node is taken to be 172.23.100.40") != NULL,
		      "%s", n);
	free(n);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

/* A second failover (of .55 at +700 s, with its own rebalance-out) is named; the phases
 * come from the first (.40 at 300 s). */
START_TEST(test_timebase_a_second_failover_is_named)
{
	struct pd_run *run = make_run(-8 * 3600, 1);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	int64_t local0 = T0 / 1000 - 8 * 3600;
	struct pd_event *e = pd_run_add_event(run, PD_EV_FAILOVER_HARD);
	e->local_s = local0 + 700, e->line = 30, e->node = pd_xstrdup("172.23.100.55");
	e = pd_run_add_event(run, PD_EV_REBALANCE_START);
	e->local_s = local0 + 704, e->line = 31;
	pd_strv_add(&e->ejected, "172.23.100.55");
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, NULL, &err), 0);
	ck_assert_double_eq_tol(tb.event_s, 300.0, 0.001);
	ck_assert_uint_eq(tb.n_more, 1);
	ck_assert_double_eq_tol(tb.more[0].t_s, 700.0, 0.001);
	char *n = notes_of(&tb);
	ck_assert_msg(strstr(n, "1 more failover(s) or rebalance-out(s) in its measured phase "
				"after the first: 172.23.100.55 at 700 s; the phases come from "
				"the first (172.23.100.40 at 300 s)") != NULL,
		      "%s", n);
	free(n);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

/* Only the series saw the event (no console, no config): a rebalance started at 305.1 s,
 * which a failover is followed by too; its kind is unknown, named "rebalance", never
 * "rebalance-out", and said. */
START_TEST(test_timebase_series_only_event_is_a_rebalance_of_unknown_kind)
{
	struct pd_run *run = make_run(-8 * 3600, 1);
	struct pd_timebase tb;
	struct pd_err err = PD_ERR_INIT;
	size_t n_events = run->n_events;
	run->n_events = 0; /* no consoleText: restored before the run is freed */
	ck_assert_int_eq(pd_timebase_resolve(&tb, run, NULL, &err), 0);
	run->n_events = n_events;
	ck_assert_int_eq(tb.event_source, PD_SOURCE_SERIES);
	ck_assert_double_eq_tol(tb.event_s, 305.1, 0.001);
	ck_assert_int_ne(tb.event, PD_EVENT_REBALANCE_OUT);
	ck_assert_str_eq(pd_timebase_event_name(tb.event), "rebalance");
	ck_assert_ptr_null(tb.node);
	char *n = notes_of(&tb);
	ck_assert_msg(strstr(n, "kind unknown without the console") != NULL, "%s", n);
	free(n);
	pd_run_free(run);
	pd_timebase_release(&tb);
}
END_TEST

Suite *pd_suite_timebase(void)
{
	Suite *s = suite_create("timebase");
	TCase *tc = tcase_create("timebase");
	tcase_add_test(tc, test_timebase_offset_from_series_pacific);
	tcase_add_test(tc, test_timebase_same_event_in_india_time);
	tcase_add_test(tc, test_timebase_offset_from_build_start);
	tcase_add_test(tc, test_timebase_flag_overrides_and_is_checked);
	tcase_add_test(tc, test_offset_round_to_quarter_hours);
	tcase_add_test(tc, test_timebase_event_outside_the_phase_is_dropped);
	tcase_add_test(tc, test_timebase_sources_that_disagree_are_said);
	tcase_add_test(tc, test_timebase_failover_node_must_be_in_the_spec);
	tcase_add_test(tc, test_timebase_a_second_failover_is_named);
	tcase_add_test(tc, test_timebase_series_only_event_is_a_rebalance_of_unknown_kind);
	suite_add_tcase(s, tc);
	return s;
}
