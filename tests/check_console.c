/* The perfrunner console reader. Times are "local wall-clock read as UTC" seconds,
 * computed by hand below and cross-checked with `date -u -d <time> +%s`.
 *
 * Day count of 2026-11-02 from 1970-01-01:
 *   1970..2025 is 56 years = 56 * 365 = 20440 days, plus 14 leap days (1972, 76, 80, 84,
 *   88, 92, 96, 2000, 04, 08, 12, 16, 20, 24) = 20454 days to 2026-01-01;
 *   Jan..Oct 2026 = 31+28+31+30+31+30+31+31+30+31 = 304 days; plus 1 for the 2nd = 20759.
 *   20759 * 86400 = 1793577600 (2026-11-02T00:00:00).
 *   10:25:00 = 10*3600 + 25*60 = 37500  ->  1793615100 (date -u agrees)
 *   10:40:07 = 36000 + 2400 + 7 = 38407 ->  1793616007 (date -u agrees)
 * 2026-11-01 is day 20758: 1793491200; 14:44:07 = 50400 + 2640 + 7 = 53047 -> 1793544247.
 * 2028-02-29: 1970..2027 = 58 * 365 = 21170 + 14 leap days = 21184 to 2028-01-01; plus
 *   31 (Jan) + 28 (Feb 1..28) = 21243; * 86400 = 1835395200; 23:59:59 = 86399 ->
 *   1835481599 (date -u agrees). */
#include "check_suites.h"
#include "core/buf.h"
#include "parse/console.h"

#include <stdlib.h>
#include <string.h>

#define CDIR PD_SOURCE_DIR "/fixtures/console/"

#define DAY_2026_11_02 1793577600LL

struct result {
	struct pd_run *run;
	struct pd_err err;
	int rc;
};

static struct result parse_mem(const char *data, size_t len, const char *path,
			       const struct pd_limits *lim)
{
	struct result r = {pd_run_new("run"), PD_ERR_INIT, 0};
	struct pd_src src = {data, len, path, lim ? lim : &pd_limits_default};
	r.rc = pd_console_parse(r.run, &src, &r.err);
	return r;
}

static struct result parse_file(const char *path)
{
	size_t len;
	char *data = pd_test_slurp(path, &len);
	struct result r = parse_mem(data, len, path, NULL);
	free(data);
	return r;
}

static struct result parse_str(const char *s)
{
	return parse_mem(s, strlen(s), "consoleText", NULL);
}

static const struct pd_event *event(const struct result *r, size_t i, enum pd_event_kind kind,
				    long line, long long local_s)
{
	ck_assert_uint_gt(r->run->n_events, i);
	const struct pd_event *e = &r->run->events[i];
	ck_assert_msg(e->kind == kind, "event %zu is %s", i, pd_event_kind_name(e->kind));
	ck_assert_int_eq(e->line, line);
	ck_assert_int_eq(e->local_s, local_s);
	return e;
}

/* The example of the format note, verbatim. Line numbers counted in the file:
 * 8 failover, 9 rebalance start (payload 10-12), 13 and 14 progress, 15 and 16 end,
 * 17 HTML report, 18 benchmark (payload 19-28), 30 Finished. */
START_TEST(test_console_reads_format_example)
{
	struct result r = parse_file(CDIR "failover.txt");
	const struct pd_event *e;
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.run->console_path, CDIR "failover.txt");
	/* the first perfrunner line (line 4) is 09:58:10: 9 * 3600 + 58 * 60 + 10 = 35890 */
	ck_assert_int_eq(r.run->console_first_s, DAY_2026_11_02 + 35890);
	ck_assert_uint_eq(r.run->n_events, 7);
	e = event(&r, 0, PD_EV_FAILOVER_HARD, 8, DAY_2026_11_02 + 37500); /* 10:25:00 */
	ck_assert_str_eq(e->node, "172.23.100.40");
	e = event(&r, 1, PD_EV_REBALANCE_START, 9, DAY_2026_11_02 + 37504);
	ck_assert_ptr_null(e->node);
	ck_assert_uint_eq(e->ejected.n, 1);
	ck_assert_str_eq(e->ejected.v[0], "172.23.100.40");
	ck_assert_uint_eq(e->known.n, 7);
	ck_assert_str_eq(e->known.v[0], "172.23.100.210");
	ck_assert_str_eq(e->known.v[3], "172.23.100.213");
	ck_assert_str_eq(e->known.v[4], "172.23.100.55");
	ck_assert_str_eq(e->known.v[5], "172.23.100.45");
	ck_assert_str_eq(e->known.v[6], "172.23.100.40");
	e = event(&r, 2, PD_EV_REBALANCE_PROGRESS, 13, DAY_2026_11_02 + 37514);
	ck_assert_double_eq_tol(e->value, 11.3, 1e-9);
	e = event(&r, 3, PD_EV_REBALANCE_PROGRESS, 14, DAY_2026_11_02 + 37524);
	ck_assert_double_eq_tol(e->value, 42.5, 1e-9);
	event(&r, 4, PD_EV_REBALANCE_END, 15, DAY_2026_11_02 + 37594); /* 10:26:34 */
	event(&r, 5, PD_EV_REBALANCE_END, 16, DAY_2026_11_02 + 37595);
	e = event(&r, 6, PD_EV_SNAPSHOT, 17, DAY_2026_11_02 + 38405); /* 10:40:05 */
	ck_assert_str_eq(e->node, "iris_710-1345_failover_8a92");
	ck_assert_uint_eq(r.run->snapshots.n, 1);
	ck_assert_str_eq(r.run->snapshots.v[0], "iris_710-1345_failover_8a92");
	ck_assert_uint_eq(r.run->n_kpis, 1);
	const struct pd_kpi *k = &r.run->kpis[0];
	ck_assert_str_eq(
		k->metric,
		"n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i_avg_query_requests_iris");
	ck_assert_double_eq_tol(k->value, 3525.0, 1e-9);
	ck_assert_str_eq(k->build, "7.1.0-1345");
	ck_assert_int_eq(k->dry_run, 0);
	ck_assert_int_eq(k->line, 18);
	ck_assert_int_eq(k->local_s, 1793616007LL); /* 10:40:07 */
	ck_assert_uint_eq(k->snapshots.n, 1);
	ck_assert_str_eq(k->snapshots.v[0], "iris_710-1345_failover_8a92");
	ck_assert_str_eq(r.run->console_result, "SUCCESS");
	pd_run_free(r.run);
}
END_TEST

/* The format example with every '\n' turned into a '\r' (lines ending in '\r' alone, as
 * classic Mac OS wrote them): the same events on the same lines and the same KPI. Before,
 * the file read as one line, with no event and nothing said. */
START_TEST(test_console_lines_ending_in_cr_alone)
{
	size_t len;
	char *data = pd_test_slurp(CDIR "failover.txt", &len);
	for (size_t i = 0; i < len; i++)
		data[i] = data[i] == '\n' ? '\r' : data[i];
	struct result r = parse_mem(data, len, "consoleText", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 7);
	const struct pd_event *e = event(&r, 0, PD_EV_FAILOVER_HARD, 8, DAY_2026_11_02 + 37500);
	ck_assert_str_eq(e->node, "172.23.100.40");
	event(&r, 4, PD_EV_REBALANCE_END, 15, DAY_2026_11_02 + 37594);
	ck_assert_uint_eq(r.run->n_kpis, 1);
	ck_assert_double_eq_tol(r.run->kpis[0].value, 3525.0, 1e-9);
	ck_assert_int_eq(r.run->kpis[0].line, 18);
	ck_assert_str_eq(r.run->console_result, "SUCCESS");
	pd_run_free(r.run);
	free(data);
}
END_TEST

START_TEST(test_console_reads_graceful_failover)
{
	struct result r = parse_file(CDIR "graceful.txt");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 7);
	ck_assert_str_eq(event(&r, 0, PD_EV_FAILOVER_GRACEFUL, 8, 1793615100LL)->node,
			 "172.23.100.40");
	ck_assert_str_eq(event(&r, 6, PD_EV_SNAPSHOT, 17, DAY_2026_11_02 + 38405)->node,
			 "iris_710-1345_graceful_51c7");
	ck_assert_uint_eq(r.run->n_kpis, 1);
	ck_assert_str_eq(r.run->kpis[0].metric, "n1ql_thr_Q3_20M_gsi_plasma_ok_graceful_"
						"failover_1s_1c_1i_avg_query_requests_iris");
	ck_assert_double_eq_tol(r.run->kpis[0].value, 3610.0, 1e-9);
	ck_assert_str_eq(r.run->console_result, "UNSTABLE");
	pd_run_free(r.run);
}
END_TEST

/* dryrun.txt: line 4 HTML report at 14:44:05, line 5 "Dry run: {" at 14:44:07. */
START_TEST(test_console_reads_dry_run_post)
{
	struct result r = parse_file(CDIR "dryrun.txt");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 1);
	ck_assert_str_eq(event(&r, 0, PD_EV_SNAPSHOT, 4, 1793544245LL)->node,
			 "iris_710-1345_access_a7b6");
	ck_assert_uint_eq(r.run->n_kpis, 1);
	ck_assert_int_eq(r.run->kpis[0].dry_run, 1);
	ck_assert_int_eq(r.run->kpis[0].line, 5);
	ck_assert_int_eq(r.run->kpis[0].local_s, 1793544247LL);
	ck_assert_str_eq(r.run->kpis[0].metric,
			 "n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i_avg_query_requests_iris");
	ck_assert_double_eq_tol(r.run->kpis[0].value, 3916.0, 1e-9);
	ck_assert_str_eq(r.run->console_result, "SUCCESS");
	pd_run_free(r.run);
}
END_TEST

/* two-phase.txt: 3 load report (10:19:30), 4 load benchmark, 12 failover, 13 failover
 * report, 14 the load snapshot again (with "&label=again" after it), 15 the access
 * benchmark, 24 Finished: FAILURE. */
START_TEST(test_console_keeps_phases_apart_in_order)
{
	struct result r = parse_file(CDIR "two-phase.txt");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 4);
	ck_assert_str_eq(event(&r, 0, PD_EV_SNAPSHOT, 3, DAY_2026_11_02 + 37170)->node,
			 "iris_710-1345_load_3f10");
	event(&r, 1, PD_EV_FAILOVER_HARD, 12, DAY_2026_11_02 + 37500);
	ck_assert_str_eq(event(&r, 2, PD_EV_SNAPSHOT, 13, DAY_2026_11_02 + 38405)->node,
			 "iris_710-1345_failover_8a92");
	ck_assert_str_eq(event(&r, 3, PD_EV_SNAPSHOT, 14, DAY_2026_11_02 + 38406)->node,
			 "iris_710-1345_load_3f10");
	ck_assert_uint_eq(r.run->snapshots.n, 2); /* the repeat is not added twice */
	ck_assert_str_eq(r.run->snapshots.v[0], "iris_710-1345_load_3f10");
	ck_assert_str_eq(r.run->snapshots.v[1], "iris_710-1345_failover_8a92");
	ck_assert_uint_eq(r.run->n_kpis, 2);
	ck_assert_str_eq(r.run->kpis[0].metric, "n1ql_load_20M_iris");
	ck_assert_double_eq_tol(r.run->kpis[0].value, 120.5, 1e-9);
	ck_assert_int_eq(r.run->kpis[0].line, 4);
	ck_assert_uint_eq(r.run->kpis[0].snapshots.n, 1);
	ck_assert_double_eq_tol(r.run->kpis[1].value, 3525.0, 1e-9);
	ck_assert_int_eq(r.run->kpis[1].line, 15);
	ck_assert_uint_eq(r.run->kpis[1].snapshots.n, 2);
	ck_assert_str_eq(r.run->kpis[1].snapshots.v[1], "iris_710-1345_failover_8a92");
	ck_assert_str_eq(r.run->console_result, "FAILURE");
	pd_run_free(r.run);
}
END_TEST

/* garbage.txt: one real event on line 17 (2028-02-29T23:59:59, CRLF); near misses,
 * binary and invalid UTF-8 are skipped; a "Finished: SUCCESS" in the middle does not
 * count, the last non-blank line "Finished: ABORTED   \r" does. */
START_TEST(test_console_skips_binary_garbage_and_near_misses)
{
	struct result r = parse_file(CDIR "garbage.txt");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 1);
	ck_assert_str_eq(event(&r, 0, PD_EV_FAILOVER_HARD, 17, 1835481599LL)->node,
			 "172.23.100.40");
	ck_assert_uint_eq(r.run->n_kpis, 0);
	ck_assert_uint_eq(r.run->snapshots.n, 0);
	ck_assert_str_eq(r.run->console_result, "ABORTED");
	pd_run_free(r.run);
}
END_TEST

/* A real consoleText that is not perfrunner's: nothing but the result. */
START_TEST(test_console_real_jenkins_log_has_no_events)
{
	struct result r =
		parse_file(PD_FORMATS_DIR "/jenkins/jenkins-rest__build-consoleText.txt");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 0);
	ck_assert_uint_eq(r.run->n_kpis, 0);
	ck_assert_uint_eq(r.run->snapshots.n, 0);
	ck_assert_str_eq(r.run->console_result, "SUCCESS");
	pd_run_free(r.run);
}
END_TEST

START_TEST(test_console_result_only_from_last_line)
{
	struct result r = parse_str("Finished: SUCCESS\nmore output\n");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_null(r.run->console_result);
	pd_run_free(r.run);
	r = parse_str("x\nFinished: NOT_BUILT");
	ck_assert_str_eq(r.run->console_result, "NOT_BUILT");
	pd_run_free(r.run);
	r = parse_str("Finished: MAYBE\n");
	ck_assert_ptr_null(r.run->console_result);
	pd_run_free(r.run);
	r = parse_str("");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_null(r.run->console_result);
	pd_run_free(r.run);
}
END_TEST

/* Line 1 a failover, line 2 a 2 MiB line of noise, line 3 the result. */
static char *long_log(size_t *len)
{
	struct pd_buf b = PD_BUF_INIT;
	size_t big = (size_t)2 << 20;
	pd_buf_adds(&b, "2026-11-02T10:25:00 [INFO] Failing over node: 172.23.100.40\n");
	pd_buf_grow(&b, big + 1);
	memset(b.ptr + b.len, 'x', big);
	b.len += big;
	b.ptr[b.len] = '\0';
	pd_buf_adds(&b, "\nFinished: SUCCESS\n");
	*len = b.len;
	return pd_buf_detach(&b);
}

START_TEST(test_console_long_line_passes_with_raised_limit)
{
	struct pd_limits lim = pd_limits_default;
	size_t len;
	char *data = long_log(&len);
	lim.max_line = (size_t)4 << 20;
	struct result r = parse_mem(data, len, "consoleText", &lim);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 1);
	ck_assert_str_eq(r.run->console_result, "SUCCESS");
	pd_run_free(r.run);
	free(data);
}
END_TEST

START_TEST(test_console_long_line_over_default_limit_is_limit)
{
	size_t len;
	char *data = long_log(&len);
	struct result r = parse_mem(data, len, "consoleText", NULL);
	ck_assert_int_eq(r.rc, PD_ELIMIT);
	ck_assert_int_eq(r.err.line, 2);
	ck_assert_str_eq(r.err.path, "consoleText");
	ck_assert_str_eq(r.err.msg,
			 "line 2 is longer than the limit of 1048576 bytes (see --max-line)");
	pd_run_free(r.run);
	free(data);
}
END_TEST

/* truncated-benchmark.txt: "Adding a benchmark: {" on line 3, the file ends inside. */
START_TEST(test_console_truncated_benchmark_is_parse_error_at_its_line)
{
	struct result r = parse_file(CDIR "truncated-benchmark.txt");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 3);
	ck_assert_ptr_nonnull(
		strstr(r.err.msg, "unterminated JSON payload of 'Adding a benchmark:'"));
	ck_assert_uint_eq(r.run->n_kpis, 0);
	pd_run_free(r.run);
}
END_TEST

START_TEST(test_console_benchmark_without_metric_or_value_is_parse_error)
{
	struct result r = parse_str("noise\n"
				    "2026-11-02T10:40:07 [INFO] Adding a benchmark: {\n"
				    "    \"metric\": \"m\",\n"
				    "    \"snapshots\": []\n"
				    "}\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 2);
	ck_assert_str_eq(r.err.msg, "expected a number 'value' in the benchmark post");
	pd_run_free(r.run);

	r = parse_str("2026-11-02T10:40:07 [INFO] Dry run: {\n    \"value\": 1.0\n}\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 1);
	ck_assert_str_eq(r.err.msg, "expected a string 'metric' in the benchmark post");
	pd_run_free(r.run);

	r = parse_str("2026-11-02T10:40:07 [INFO] Dry run: {\n    \"metric\": \"m\",\n"
		      "    \"value\": \"3525\"\n}\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected a number 'value' in the benchmark post");
	pd_run_free(r.run);
}
END_TEST

/* A trailing comma on payload line 3 (the "value" line): error at the post's line 1,
 * the message says where in the payload. */
START_TEST(test_console_malformed_benchmark_json_is_parse_error)
{
	struct result r = parse_str("2026-11-02T10:40:07 [INFO] Adding a benchmark: {\n"
				    "    \"metric\": \"m\",\n"
				    "    \"value\": 3525.0,\n"
				    "}\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 1);
	ck_assert_ptr_nonnull(
		strstr(r.err.msg, "expected a JSON object after 'Adding a benchmark:'"));
	ck_assert_uint_eq(r.run->n_kpis, 0);
	pd_run_free(r.run);

	r = parse_str("2026-11-02T10:40:07 [INFO] Adding a benchmark: \n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected '{' after 'Adding a benchmark:'");
	pd_run_free(r.run);
}
END_TEST

/* 1 MiB cap: 40000 lines of 30 bytes (1.2 MB, python: len(line) == 30) in one payload. */
START_TEST(test_console_payload_over_cap_is_limit)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_adds(&b, "2026-11-02T10:25:04 [INFO] Starting rebalance with payload: {\n");
	for (int i = 0; i < 40000; i++)
		pd_buf_adds(&b, "    \"k\": \"abcdefghijklmnopq\",\n");
	pd_buf_adds(&b, "    \"z\": 1\n}\n");
	struct result r = parse_mem(b.ptr, b.len, "consoleText", NULL);
	ck_assert_int_eq(r.rc, PD_ELIMIT);
	ck_assert_int_eq(r.err.line, 1);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "longer than 1048576 bytes"));
	pd_run_free(r.run);
	pd_buf_release(&b);
}
END_TEST

START_TEST(test_console_one_line_payload_and_node_lists)
{
	struct result r =
		parse_str("2026-11-02T10:25:04 [DEBUG] Starting rebalance with payload: "
			  "{\"knownNodes\": \"ns_1@a, ns_1@b,,c\", \"ejectedNodes\": \"\"}\n");
	const struct pd_event *e;
	ck_assert_int_eq(r.rc, 0);
	e = event(&r, 0, PD_EV_REBALANCE_START, 1, DAY_2026_11_02 + 37504);
	ck_assert_uint_eq(e->known.n, 3);
	ck_assert_str_eq(e->known.v[0], "a");
	ck_assert_str_eq(e->known.v[1], "b");
	ck_assert_str_eq(e->known.v[2], "c"); /* no "ns_1@": kept as written */
	ck_assert_uint_eq(e->ejected.n, 0);
	pd_run_free(r.run);
}
END_TEST

START_TEST(test_console_bad_host_or_snapshot_is_parse_error)
{
	struct result r = parse_str("x\n2026-11-02T10:25:00 [INFO] Failing over node: \n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 2);
	pd_run_free(r.run);
	r = parse_str("2026-11-02T10:40:05 [INFO] HTML report: http://h/?snapshot=&x=1\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected a snapshot name after 'snapshot='");
	pd_run_free(r.run);
	/* a report without a snapshot parameter is skipped */
	r = parse_str("2026-11-02T10:40:05 [INFO] HTML report: http://h/reports/html/\n");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 0);
	pd_run_free(r.run);
}
END_TEST

/* 1970-01-01T00:00:00 is 0; 1969-12-31T23:59:59 is -1; 2000-03-01 is day 10957 (to
 * 2000-01-01: 30 * 365 + 7 leap days) + 31 + 29 (2000 is a leap year) = 11017, i.e.
 * 951868800; 2100-03-01 follows 2100-02-28 (2100 is not a leap year): day 47541
 * (date -u -d 2100-03-01 +%s = 4107542400). */
START_TEST(test_console_time_conversion_edges)
{
	struct result r = parse_str("1970-01-01T00:00:00 [INFO] Cluster is balanced\n"
				    "1969-12-31T23:59:59 [INFO] Cluster is balanced\n"
				    "2000-03-01T00:00:00 [INFO] Cluster is balanced\n"
				    "2100-02-28T00:00:00 [INFO] Not an event\n"
				    "2100-03-01T00:00:00 [INFO] Cluster is balanced\n");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.run->n_events, 4);
	event(&r, 0, PD_EV_REBALANCE_END, 1, 0);
	event(&r, 1, PD_EV_REBALANCE_END, 2, -1);
	event(&r, 2, PD_EV_REBALANCE_END, 3, 951868800LL);
	event(&r, 3, PD_EV_REBALANCE_END, 5, 4107542400LL);
	pd_run_free(r.run);
	/* 2100-02-29 does not exist: in perfrunner's prefix, an error at its line */
	r = parse_str("2100-03-01T00:00:00 [INFO] Cluster is balanced\n"
		      "2100-02-29T00:00:00 [INFO] Cluster is balanced\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 2);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "invalid date or time '2100-02-29T00:00:00'"));
	pd_run_free(r.run);
}
END_TEST

/* The index of the first event of kind at or after from, or -1. */
static long event_at(const struct pd_run *run, enum pd_event_kind kind, size_t from)
{
	for (size_t i = from; i < run->n_events; i++)
		if (run->events[i].kind == kind)
			return (long)i;
	return -1;
}

/* fixtures/console/perfrunner/: written by gen.py with perfrunner's logger and strings */
static void expect_perfrunner_console(const char *file, enum pd_event_kind kind,
				      const char *metric, double value, int dry_run)
{
	struct result r = parse_file(file);
	ck_assert_msg(r.rc == 0, "%s: %s", file, r.err.msg);
	long fo = event_at(r.run, kind, 0);
	ck_assert_int_ge(fo, 0);
	ck_assert_str_eq(r.run->events[fo].node, "172.23.100.40");
	/* the failover's own monitoring ends before the ejection rebalance starts */
	long end1 = event_at(r.run, PD_EV_REBALANCE_END, (size_t)fo);
	long start = event_at(r.run, PD_EV_REBALANCE_START, (size_t)fo);
	ck_assert_int_gt(start, end1);
	ck_assert_uint_eq(r.run->events[start].ejected.n, 1);
	ck_assert_str_eq(r.run->events[start].ejected.v[0], "172.23.100.40");
	ck_assert_uint_eq(r.run->events[start].known.n, 7);
	/* the ejection's progress: 0, 4.17, 58.3, 100, then its end */
	long p = event_at(r.run, PD_EV_REBALANCE_PROGRESS, (size_t)start);
	ck_assert_double_eq_tol(r.run->events[p + 1].value, 4.166666666666667, 1e-12);
	ck_assert_int_ge(event_at(r.run, PD_EV_REBALANCE_END, (size_t)start), p + 4);
	ck_assert_uint_eq(r.run->n_kpis, 1); /* the second dry-run dict is the metric's */
	ck_assert_str_eq(r.run->kpis[0].metric, metric);
	ck_assert_double_eq(r.run->kpis[0].value, value);
	ck_assert_int_eq(r.run->kpis[0].dry_run, dry_run);
	ck_assert_str_eq(r.run->kpis[0].snapshots.v[0], "iris_710-1345_shutdown_n1ql_8a92");
	ck_assert_uint_eq(r.run->snapshots.n, 1);
	ck_assert_str_eq(r.run->snapshots.v[0], "iris_710-1345_shutdown_n1ql_8a92");
	ck_assert_str_eq(r.run->console_result, "SUCCESS");
	pd_run_free(r.run);
}

#define PR CDIR "perfrunner/"
#define KPI_ID(kind)                                                                           \
	"n1ql_thr_Q3_20M_gsi_plasma_ok_" kind                                                  \
	"_failover_1s_1c_1i_avg_query_requests_iris_extra_n1ql"

START_TEST(test_console_reads_perfrunner_consoles)
{
	expect_perfrunner_console(PR "hard-post0.txt", PD_EV_FAILOVER_HARD, KPI_ID("hard"),
				  3525, 1);
	expect_perfrunner_console(PR "hard-post1.txt", PD_EV_FAILOVER_HARD, KPI_ID("hard"),
				  3525, 0);
	expect_perfrunner_console(PR "graceful-post0.txt", PD_EV_FAILOVER_GRACEFUL,
				  KPI_ID("graceful"), 3611, 1);
	expect_perfrunner_console(PR "graceful-post1.txt", PD_EV_FAILOVER_GRACEFUL,
				  KPI_ID("graceful"), 3611, 0);
}
END_TEST

START_TEST(test_console_graceful_failover_progress_comes_first)
{
	/* the graceful failover's own progress (1.2e-05, 37.5, 100) precedes the ejection */
	struct result r = parse_file(PR "graceful-post0.txt");
	long fo = event_at(r.run, PD_EV_FAILOVER_GRACEFUL, 0);
	long p = event_at(r.run, PD_EV_REBALANCE_PROGRESS, (size_t)fo);
	long start = event_at(r.run, PD_EV_REBALANCE_START, 0);
	ck_assert_int_lt(p, start);
	ck_assert_double_eq_tol(r.run->events[p].value, 1.2e-05, 1e-18);
	ck_assert_double_eq(r.run->events[p + 1].value, 37.5);
	pd_run_free(r.run);
}
END_TEST

START_TEST(test_console_nan_kpi_and_capella_lines)
{
	/* json.dumps writes float('nan') as NaN: a KPI with no value, said in the notes */
	struct result r = parse_str("2026-11-02T10:40:01 [INFO] Rebalance started. Rebalance "
				    "progress: 0.5 %\n"
				    "2026-11-02T10:40:02 [INFO] Rebalance progress: 2e-05 %\n"
				    "2026-11-02T10:40:03 [INFO] Rebalance completed\n"
				    "2026-11-02T10:40:04 [INFO] Rebalance completed in 3 secs\n"
				    "2026-11-02T10:40:07 [INFO] Dry run: {\n"
				    "    \"metric\": \"m_iris\",\n"
				    "    \"name\": \"NaN in a string stays\",\n"
				    "    \"value\": NaN\n}\n");
	ck_assert_msg(r.rc == 0, "%s", r.err.msg);
	ck_assert_uint_eq(r.run->n_kpis, 0);
	ck_assert_uint_eq(r.run->notes.n, 1);
	ck_assert_str_eq(r.run->notes.v[0], "console line 5: the benchmark post of m_iris has "
					    "no value (NaN): a KPI with no value");
	ck_assert_uint_eq(r.run->n_events, 3);
	ck_assert_double_eq(r.run->events[0].value, 0.5);
	ck_assert_double_eq_tol(r.run->events[1].value, 2e-05, 1e-18);
	ck_assert_int_eq(r.run->events[2].kind, PD_EV_REBALANCE_END);
	pd_run_free(r.run);
}
END_TEST

START_TEST(test_console_infinite_kpi_and_nul_in_payload)
{
	/* a value past the largest double (1e400 parses as +inf): a KPI with no value, said;
	 * a \u0000 in a payload string would cut the name short: refused at its line */
	struct result r = parse_str("2026-11-02T10:40:07 [INFO] Adding a benchmark: {\n"
				    "    \"metric\": \"m_iris\",\n"
				    "    \"value\": 1e400\n}\n");
	ck_assert_msg(r.rc == 0, "%s", r.err.msg);
	ck_assert_uint_eq(r.run->n_kpis, 0);
	ck_assert_uint_eq(r.run->notes.n, 1);
	ck_assert_str_eq(r.run->notes.v[0],
			 "console line 1: the benchmark post of m_iris has a "
			 "value out of a double's range (1.8e308 or more): a "
			 "KPI with no value");
	pd_run_free(r.run);
	r = parse_str("2026-11-02T10:40:01 [INFO] Ok\n"
		      "2026-11-02T10:40:07 [INFO] Adding a benchmark: {\n"
		      "    \"metric\": \"m_iris\\u0000_hidden\",\n"
		      "    \"value\": 1\n}\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 2);
	ck_assert_msg(strstr(r.err.msg, "NUL character") != NULL, "%s", r.err.msg);
	ck_assert_uint_eq(r.run->n_kpis, 0);
	pd_run_free(r.run);
}
END_TEST

/* fixtures/console/prometheus/: perfrunner's Prometheus path (gen.py, README.md) */
#define PM CDIR "prometheus/"

START_TEST(test_console_prometheus_path_snapshot_is_the_uuid)
{
	struct result r = parse_file(PM "prom-hard.txt");
	ck_assert_msg(r.rc == 0, "%s", r.err.msg);
	ck_assert_int_eq(r.run->prometheus, 1);
	ck_assert_uint_eq(r.run->snapshots.n, 1);
	ck_assert_str_eq(r.run->snapshots.v[0], "6f1c2a4e-9b7d-4c3a-8e21-5d0f7a9b1c34");
	ck_assert_str_eq(r.run->prom_snapshot_url,
			 "https://cbmonitor2.sc.couchbase.com/a/cbmonitor/snapshots/"
			 "6f1c2a4e-9b7d-4c3a-8e21-5d0f7a9b1c34");
	/* the "Removing Scrape target for snapshot:" line is no second snapshot */
	ck_assert_uint_eq(r.run->prom_collectors.n, 2);
	ck_assert_str_eq(r.run->prom_collectors.v[0], "PS");
	ck_assert_str_eq(r.run->prom_collectors.v[1], "NSServer");
	/* line 6 starts the collectors (after the shell line and four perfrunner lines) */
	long st = event_at(r.run, PD_EV_COLLECTORS_START, 0);
	ck_assert_int_eq(r.run->events[st].line, 6);
	ck_assert_double_eq(r.run->events[st].value, 2);
	long fo = event_at(r.run, PD_EV_FAILOVER_HARD, 0);
	ck_assert_int_gt(fo, st);
	ck_assert_int_gt(event_at(r.run, PD_EV_COLLECTORS_STOP, (size_t)fo), fo);
	ck_assert_uint_eq(r.run->n_kpis, 1);
	ck_assert_str_eq(r.run->kpis[0].snapshots.v[0], "6f1c2a4e-9b7d-4c3a-8e21-5d0f7a9b1c34");
	ck_assert_ptr_null(r.run->kpis[0].window);
	pd_run_free(r.run);
}
END_TEST

START_TEST(test_console_latency_windows_give_kpis_per_window)
{
	struct result r = parse_file(PM "windows.txt");
	ck_assert_msg(r.rc == 0, "%s", r.err.msg);
	ck_assert_uint_eq(r.run->n_windows, 3);
	ck_assert_str_eq(r.run->windows[0].label, "pre");
	ck_assert(r.run->windows[0].start_ms == INT64_MIN); /* start_ts=-1 */
	ck_assert_int_eq(r.run->windows[0].end_ms, 1793630700000LL);
	ck_assert_int_eq(r.run->windows[1].start_ms, 1793630700000LL);
	ck_assert(r.run->windows[2].end_ms == INT64_MAX); /* end_ts=inf */
	/* pre and post of get and set are posted; "during" is only logged (rebalance.py:219) */
	ck_assert_uint_eq(r.run->n_kpis, 4);
	static const char *const want[][2] = {{"rebalance_kv_4nodes_get_999th_pre", "pre"},
					      {"rebalance_kv_4nodes_get_999th_post", "post"},
					      {"rebalance_kv_4nodes_set_999th_pre", "pre"},
					      {"rebalance_kv_4nodes_set_999th_post", "post"}};
	static const long samples[] = {5990, 2995, 5990, 2995};
	for (size_t i = 0; i < 4; i++) {
		ck_assert_str_eq(r.run->kpis[i].metric, want[i][0]);
		ck_assert_str_eq(r.run->kpis[i].window, want[i][1]);
		ck_assert_int_eq(r.run->kpis[i].window_samples, samples[i]);
	}
	ck_assert_double_eq(r.run->kpis[3].value, 1.7);
	pd_run_free(r.run);
}
END_TEST

START_TEST(test_console_window_suffix_before_cluster_and_bad_windows)
{
	struct result r = parse_str(
		"2026-11-02T10:40:01 [INFO] Latency windows: [TimeseriesWindow(start_ts=-1.0, "
		"end_ts=1.7936307e+12, label='pre')]\n"
		"2026-11-02T10:40:02 [INFO] Dry run: {\"metric\": "
		"\"t_get_999th_pre_cluster2\", "
		"\"value\": 1.5}\n"
		"2026-11-02T10:40:03 [INFO] Dry run: {\"metric\": \"t_get_999th_prefix\", "
		"\"value\": 2}\n");
	ck_assert_msg(r.rc == 0, "%s", r.err.msg);
	ck_assert_int_eq(r.run->windows[0].end_ms, 1793630700000LL);
	ck_assert_uint_eq(r.run->n_kpis, 2);
	ck_assert_str_eq(r.run->kpis[0].window, "pre");
	ck_assert_int_eq(r.run->kpis[0].window_samples, 0); /* no "Fetched data" line */
	ck_assert_ptr_null(r.run->kpis[1].window);
	pd_run_free(r.run);
	r = parse_str("2026-11-02T10:40:01 [INFO] Latency windows: [TimeseriesWindow("
		      "start_ts=-1, end_ts=nan, label='pre')]\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 1);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "Latency windows:"));
	pd_run_free(r.run);
}
END_TEST

START_TEST(test_console_rebalance_hung_or_failed_ends_the_run)
{
	static const char *const files[] = {PM "hung.txt", PM "failed.txt"};
	static const char *const why[] = {"Rebalance hung",
					  "Rebalance failed with message Rebalance exited"};
	static const long lines[] = {13, 14}; /* grep -n in the two files */
	for (int i = 0; i < 2; i++) {
		struct result r = parse_file(files[i]);
		ck_assert_msg(r.rc == 0, "%s", r.err.msg);
		long e = event_at(r.run, PD_EV_RUN_STOPPED, 0);
		ck_assert_int_ge(e, 0);
		ck_assert_int_eq(r.run->events[e].line, lines[i]);
		ck_assert_ptr_nonnull(strstr(r.run->events[e].node, why[i]));
		ck_assert_uint_eq(r.run->notes.n, 1);
		ck_assert_ptr_nonnull(strstr(r.run->notes.v[0], "stopped the run early"));
		ck_assert_str_eq(r.run->console_result, "FAILURE");
		pd_run_free(r.run);
	}
}
END_TEST

START_TEST(test_console_prometheus_bad_snapshot_url_is_parse_error)
{
	struct result r = parse_str("2026-11-02T10:40:01 [INFO] Registered Prometheus "
				    "snapshot: https://h/a/cbmonitor/\n");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 1);
	pd_run_free(r.run);
}
END_TEST

Suite *pd_suite_console(void)
{
	Suite *s = suite_create("console");
	TCase *tc = tcase_create("console");
	tcase_add_test(tc, test_console_reads_format_example);
	tcase_add_test(tc, test_console_lines_ending_in_cr_alone);
	tcase_add_test(tc, test_console_infinite_kpi_and_nul_in_payload);
	tcase_add_test(tc, test_console_reads_graceful_failover);
	tcase_add_test(tc, test_console_reads_dry_run_post);
	tcase_add_test(tc, test_console_keeps_phases_apart_in_order);
	tcase_add_test(tc, test_console_skips_binary_garbage_and_near_misses);
	tcase_add_test(tc, test_console_real_jenkins_log_has_no_events);
	tcase_add_test(tc, test_console_result_only_from_last_line);
	tcase_add_test(tc, test_console_long_line_passes_with_raised_limit);
	tcase_add_test(tc, test_console_long_line_over_default_limit_is_limit);
	tcase_add_test(tc, test_console_truncated_benchmark_is_parse_error_at_its_line);
	tcase_add_test(tc, test_console_benchmark_without_metric_or_value_is_parse_error);
	tcase_add_test(tc, test_console_malformed_benchmark_json_is_parse_error);
	tcase_add_test(tc, test_console_payload_over_cap_is_limit);
	tcase_add_test(tc, test_console_one_line_payload_and_node_lists);
	tcase_add_test(tc, test_console_bad_host_or_snapshot_is_parse_error);
	tcase_add_test(tc, test_console_time_conversion_edges);
	tcase_add_test(tc, test_console_reads_perfrunner_consoles);
	tcase_add_test(tc, test_console_graceful_failover_progress_comes_first);
	tcase_add_test(tc, test_console_nan_kpi_and_capella_lines);
	tcase_add_test(tc, test_console_prometheus_path_snapshot_is_the_uuid);
	tcase_add_test(tc, test_console_latency_windows_give_kpis_per_window);
	tcase_add_test(tc, test_console_window_suffix_before_cluster_and_bad_windows);
	tcase_add_test(tc, test_console_rebalance_hung_or_failed_ends_the_run);
	tcase_add_test(tc, test_console_prometheus_bad_snapshot_url_is_parse_error);
	suite_add_tcase(s, tc);
	return s;
}
