/* The Prometheus path's reader (parse/prom.c) and its mapping (core/metric.c). Expected
 * values are worked by hand in the comments; the answers are shaped as Prometheus' HTTP
 * API documents query_range (and cbmonitor2's docs/cbmonitor-api.md repeats). */
#include "check_suites.h"
#include "core/buf.h"
#include "core/metric.h"
#include "parse/json.h"
#include "parse/prom.h"
#include "analyze/runs/kpi.h"
#include "analyze/runs/kpi_windows.h"
#include "analyze/runs/story.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOB  "6f1c2a4e-9b7d-4c3a-8e21-5d0f7a9b1c34"
#define HEAD "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
#define TAIL "]}}"

static int parse(struct pd_prom *p, const char *s, struct pd_err *err)
{
	struct pd_src src = {s, strlen(s), "prometheus/x.json", &pd_limits_default};
	return pd_prom_matrix_parse(p, &src, err);
}

static struct pd_run *run_of(const char *const *answers, size_t n)
{
	struct pd_run *run = pd_run_new("run");
	struct pd_prom *p = pd_prom_new();
	struct pd_err err = PD_ERR_INIT;
	pd_strv_add(&run->snapshots, JOB);
	pd_strv_add(&run->clients, "172.23.100.9");
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(parse(p, answers[i], &err) == 0, "%s", err.msg);
	pd_prom_to_run(run, p);
	pd_run_sort_series(run);
	pd_prom_free(p);
	return run;
}

static const struct pd_series *must(const struct pd_run *run, const char *collector,
				    const char *metric, const char *server)
{
	const struct pd_series *s = pd_run_series(run, collector, metric, server);
	ck_assert_msg(s != NULL, "no %s/%s on %s", collector, metric, server ? server : "-");
	return s;
}

/* Two query nodes' n1ql_requests every 5 s; q2 (with a port) restarts between 10 and 15.
 *   q1: 100, 600, 1100, 1600  -> rates (600-100)/5 = 100, 100, 100 at t = 5, 10, 15
 *   q2: 1000, 1250, 1500, 50  -> rates 50, 50, then a reset: 50 counted since 0 -> 10
 *   cluster: 150, 150, 110 at 5, 10, 15 s (t = 1793630400 + k*5 s) */
static const char *const requests =
	HEAD "{\"metric\":{\"__name__\":\"n1ql_requests\",\"instance\":\"172.23.100.55\","
	     "\"job\":\"" JOB "\"},\"values\":[[1793630400,\"100\"],[1793630405,\"600\"],"
	     "[1793630410,\"1100\"],[1793630415,\"1600\"]]},"
	     "{\"metric\":{\"__name__\":\"n1ql_requests\",\"instance\":\"172.23.100.40:8091\","
	     "\"job\":\"" JOB "\"},\"values\":[[1793630400,\"1000\"],[1793630405,\"1250\"],"
	     "[1793630410,\"1500\"],[1793630415,\"50\"]]}" TAIL;

START_TEST(test_prom_query_counters_become_node_rates_and_cluster_total)
{
	struct pd_run *run = run_of(&requests, 1);
	const struct pd_series *q1 = must(run, "prometheus", "n1ql_requests", "172.23.100.55");
	const struct pd_series *q2 = must(run, "prometheus", "n1ql_requests", "172.23.100.40");
	const struct pd_series *all = must(run, "n1ql_stats", "query_requests", NULL);
	ck_assert_uint_eq(q1->n, 3);
	ck_assert_int_eq(q1->t_ms[0], 1793630405000LL);
	ck_assert_double_eq_tol(q1->v[2], 100, 1e-9);
	ck_assert_double_eq_tol(q2->v[1], 50, 1e-9);
	ck_assert_double_eq_tol(q2->v[2], 10, 1e-9);
	ck_assert_int_eq(q2->scope, PD_SCOPE_SERVER);
	ck_assert_int_eq(all->scope, PD_SCOPE_CLUSTER);
	ck_assert_uint_eq(all->n, 3);
	ck_assert_double_eq_tol(all->v[0], 150, 1e-9);
	ck_assert_double_eq_tol(all->v[2], 110, 1e-9);
	ck_assert_int_eq(all->unit, PD_UNIT_PER_SEC);
	ck_assert_int_eq(pd_metric_worse("n1ql_stats", "query_requests"), -1);
	pd_run_free(run);
}
END_TEST

/* cbq-engine's CPU seconds on one node, user and sys, every 5 s:
 *   user 10.0, 12.0, 14.5 -> 0.4, 0.5 cores; sys 1.0, 1.5, 2.0 -> 0.1, 0.1
 *   together 0.5 and 0.6 cores = 50 % and 60 % of one core.
 * Its resident memory is a gauge: kept as is. The node's CPU (sys_cpu_utilization_rate)
 * is ns_server_system's cpu_utilization. */
static const char *const cpu = HEAD
	"{\"metric\":{\"__name__\":\"sysproc_cpu_seconds_total\",\"instance\":"
	"\"172.23.100.55:8091\",\"job\":\"" JOB "\",\"mode\":\"user\",\"proc\":\"cbq-engine\"},"
	"\"values\":[[1793630400,\"10\"],[1793630405,\"12\"],[1793630410,\"14.5\"]]},"
	"{\"metric\":{\"__name__\":\"sysproc_cpu_seconds_total\",\"instance\":"
	"\"172.23.100.55:8091\",\"job\":\"" JOB "\",\"mode\":\"sys\",\"proc\":\"cbq-engine\"},"
	"\"values\":[[1793630400,\"1\"],[1793630405,\"1.5\"],[1793630410,\"2\"]]},"
	"{\"metric\":{\"__name__\":\"sysproc_mem_resident\",\"instance\":\"172.23.100.55\","
	"\"job\":\"" JOB "\",\"proc\":\"cbq-engine\"},\"values\":[[1793630400,\"2.5e9\"]]},"
	"{\"metric\":{\"__name__\":\"sys_cpu_utilization_rate\",\"instance\":"
	"\"172.23.100.55\",\"job\":\"" JOB "\"},\"values\":[[1793630400,\"81.5\"]]}" TAIL;

START_TEST(test_prom_process_cpu_seconds_become_percent_of_a_core)
{
	struct pd_run *run = run_of(&cpu, 1);
	const struct pd_series *c = must(run, "metrics_rest_api_processes",
					 "cbq-engine_sysproc_cpu_utilization", "172.23.100.55");
	const struct pd_series *m = must(run, "metrics_rest_api_processes",
					 "cbq-engine_sysproc_mem_resident", "172.23.100.55");
	const struct pd_series *n =
		must(run, "ns_server_system", "cpu_utilization", "172.23.100.55");
	ck_assert_uint_eq(c->n, 2);
	ck_assert_double_eq_tol(c->v[0], 50, 1e-9);
	ck_assert_double_eq_tol(c->v[1], 60, 1e-9);
	ck_assert_int_eq(c->unit, PD_UNIT_PERCENT);
	ck_assert_double_eq(m->v[0], 2.5e9);
	ck_assert_int_eq(m->unit, PD_UNIT_BYTES);
	ck_assert_double_eq(n->v[0], 81.5);
	pd_run_free(run);
}
END_TEST

/* Pushed atop series (cbagent/promstore.py): the lost '-' of cbq-engine comes back; a
 * client host stays a client series; a bucket-level ns_server metric keeps its bucket. */
static const char *const pushed = HEAD
	"{\"metric\":{\"__name__\":\"perf_cbq_engine_rss\",\"collector\":\"atop\","
	"\"cluster\":\"iris_extra_n1ql_iris\",\"instance\":\"172.23.100.40\",\"job\":\"" JOB
	"\"},\"values\":[[1793630400,\"1073741824\"]]},"
	"{\"metric\":{\"__name__\":\"perf_beam_smp_cpu\",\"collector\":\"atop\","
	"\"instance\":\"172.23.100.9\",\"job\":\"" JOB "\"},\"values\":[[1793630400,\"12\"]]},"
	"{\"metric\":{\"__name__\":\"perf_cpu_utilization_rate\",\"bucket\":\"bucket-1\","
	"\"collector\":\"ns_server\",\"job\":\"" JOB "\"},\"values\":[[1793630400,\"80\"]]},"
	"{\"metric\":{\"__name__\":\"perf_memcached_cpu\",\"collector\":\"atop\","
	"\"cluster\":\"iris_extra_n1ql_other\",\"instance\":\"10.0.0.1\",\"job\":\"" JOB
	"\"},\"values\":[[1793630400,\"12\"]]},"
	"{\"metric\":{\"__name__\":\"perf_memcached_cpu\",\"collector\":\"atop\","
	"\"instance\":\"10.0.0.2\",\"job\":\"another-job\"},\"values\":[[1793630400,\"12\"]]"
	"}" TAIL;

START_TEST(test_prom_pushed_series_keep_collector_and_metric)
{
	struct pd_run *run = pd_run_new("run");
	struct pd_prom *p = pd_prom_new();
	struct pd_err err = PD_ERR_INIT;
	pd_strv_add(&run->snapshots, JOB);
	pd_strv_add(&run->clients, "172.23.100.9");
	run->spec_name = strdup("iris_extra_n1ql");
	run->cluster = strdup("iris");
	ck_assert_int_eq(parse(p, pushed, &err), 0);
	pd_prom_to_run(run, p);
	const struct pd_series *rss = must(run, "atop", "cbq-engine_rss", "172.23.100.40");
	ck_assert_int_eq(rss->scope, PD_SCOPE_SERVER);
	ck_assert_int_eq(must(run, "atop", "beam.smp_cpu", "172.23.100.9")->scope,
			 PD_SCOPE_CLIENT);
	const struct pd_series *b = must(run, "ns_server", "cpu_utilization_rate", NULL);
	ck_assert_int_eq(b->scope, PD_SCOPE_BUCKET);
	ck_assert_str_eq(b->bucket, "bucket-1");
	/* the other cluster's and the other job's series stay out, said */
	ck_assert_uint_eq(run->n_series, 3);
	ck_assert_uint_eq(run->notes.n, 2);
	ck_assert_ptr_nonnull(strstr(run->notes.v[0], "1 series of another job"));
	ck_assert_ptr_nonnull(strstr(run->notes.v[1], "1 series of the spec's other clusters"));
	pd_prom_free(p);
	pd_run_free(run);
}
END_TEST

START_TEST(test_prom_unpush_restores_process_names)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_metric_unpush(&b, "perf_eventing_produc_rss", "atop");
	ck_assert_str_eq(b.ptr, "eventing-produc_rss");
	pd_buf_truncate(&b, 0);
	pd_metric_unpush(&b, "perf_cbq_engine_rss", "ns_server"); /* only atop names procs */
	ck_assert_str_eq(b.ptr, "cbq_engine_rss");
	pd_buf_truncate(&b, 0);
	pd_metric_unpush(&b, "n1ql_requests", "atop");
	ck_assert_uint_eq(b.len, 0);
	pd_buf_release(&b);
}
END_TEST

START_TEST(test_prom_error_answer_names_the_error)
{
	struct pd_prom *p = pd_prom_new();
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(parse(p,
			       "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":"
			       "\"invalid parameter \\\"query\\\"\"}",
			       &err),
			 PD_EPARSE);
	ck_assert_str_eq(err.msg, "the Prometheus server answered an error: bad_data: invalid "
				  "parameter \"query\"");
	err = (struct pd_err)PD_ERR_INIT; /* the first error stays (core/err.c) */
	ck_assert_int_eq(
		parse(p, HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,2]]}" TAIL,
		      &err),
		PD_EPARSE);
	ck_assert_msg(strstr(err.msg, "(result 1, sample 1)") != NULL, "%s", err.msg);
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(parse(p,
			       "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
			       "\"result\":[]}}",
			       &err),
			 PD_EPARSE);
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(parse(p, "{\"status\":\n\"succ", &err), PD_EPARSE);
	ck_assert_int_eq(err.line, 2); /* the place where the JSON broke */
	pd_prom_free(p);
}
END_TEST

/* The streaming reader takes an answer's members in any order (JSON objects are
 * unordered): "values" before "metric", "status" and "resultType" last. Same samples as
 * in Prometheus' order: (600 - 100) / 5 = 100 req/s at 5 s. */
START_TEST(test_prom_answer_members_in_any_order)
{
	static const char *const a =
		"{\"data\":{\"result\":[{\"values\":[[1793630400,\"100\"],[1793630405,\"600\"]]"
		","
		"\"extra\":[{\"x\":[true,false,null,-1.5e3]}],"
		"\"metric\":{\"job\":\"" JOB "\",\"instance\":\"172.23.100.55\",\"__name__\":"
		"\"n1ql_requests\"}}],\"resultType\":\"matrix\"},\"status\":\"success\"}";
	struct pd_run *run = run_of(&a, 1);
	const struct pd_series *q = must(run, "prometheus", "n1ql_requests", "172.23.100.55");
	ck_assert_uint_eq(q->n, 1);
	ck_assert_int_eq(q->t_ms[0], 1793630405000LL);
	ck_assert_double_eq_tol(q->v[0], 100, 1e-9);
	pd_run_free(run);
}
END_TEST

/* Broken JSON is a syntax error where it breaks (line:col), whatever part it is in; JSON
 * of another shape is what was expected there, placed by result and sample. HEAD is 60
 * bytes; the columns: an unterminated string ends at the text's end (line 2, after its
 * 11 bytes); "01" stops at its "1" (col 101); a control byte in a string at col 103;
 * trailing "x" at col 105. */
START_TEST(test_prom_answer_errors_placed)
{
	static const struct {
		const char *text;
		long line, col; /* 0: a shape error */
		const char *msg;
	} cases[] = {
		{HEAD
		 "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,\"2\"],\n[1,\"2]]}" TAIL,
		 2, 12, "expected a JSON answer"},
		{HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[[01,\"2\"]]}" TAIL, 1, 101,
		 "expected a JSON answer"},
		{HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,\"\x01\"]]}" TAIL, 1,
		 103, "expected a JSON answer"},
		{HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,\"2\"],[1]]}" TAIL, 0,
		 0, "(result 1, sample 2)"},
		{HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[]},{\"values\":[]}" TAIL,
		 0, 0, "each result in a Prometheus query_range answer (result 2)"},
		{HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[]}" TAIL " x", 1, 105,
		 "expected a JSON answer"},
		/* values strtod reads but Prometheus never writes (Go's FormatFloat) */
		{HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,\"0x10\"]]}" TAIL, 0, 0,
		 "(result 1, sample 1)"},
		{HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,\" 5\"]]}" TAIL, 0, 0,
		 "(result 1, sample 1)"},
		{HEAD "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,\"infinity\"]]}" TAIL,
		 0, 0, "(result 1, sample 1)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct pd_prom *p = pd_prom_new();
		struct pd_err err = PD_ERR_INIT;
		ck_assert_int_eq(parse(p, cases[i].text, &err), PD_EPARSE);
		ck_assert_msg(strstr(err.msg, cases[i].msg) != NULL, "case %zu: %s", i,
			      err.msg);
		if (cases[i].line)
			ck_assert_msg(err.line == cases[i].line && err.col == cases[i].col,
				      "case %zu at %ld:%ld", i, err.line, err.col);
		pd_prom_free(p);
	}
}
END_TEST

/* The scanner's grammar (RFC 8259): what it accepts and where it stops. */
START_TEST(test_json_scan_checks_what_it_skips)
{
	static const char *const good[] = {"0",     "-0.5e+3", "\"a\\u00e9\\n\"",
					   "[]",    "{}",      "[1,{\"a\":[null,true]}]",
					   " \"\" "};
	static const char *const badv[] = {"01",      "1.",  "-",     "1e",
					   "\"\\x\"", "\"a", "[1,]",  "{\"a\"}",
					   "{1:2}",   "tru", "[1 2]", "\"\\u12g4\""};
	struct pd_json_scan sc;
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		sc = (struct pd_json_scan){.s = good[i], .n = strlen(good[i])};
		ck_assert_msg(pd_json_skip(&sc) == 0 && pd_json_peek(&sc) < 0, "%s", good[i]);
	}
	for (size_t i = 0; i < sizeof(badv) / sizeof(*badv); i++) {
		sc = (struct pd_json_scan){.s = badv[i], .n = strlen(badv[i])};
		ck_assert_msg(pd_json_skip(&sc) < 0 || pd_json_peek(&sc) >= 0, "%s", badv[i]);
	}
	/* nesting deeper than PD_JSON_MAX_DEPTH is refused, not recursed into */
	char deep[2 * PD_JSON_MAX_DEPTH + 4];
	memset(deep, '[', PD_JSON_MAX_DEPTH + 1),
		memset(deep + PD_JSON_MAX_DEPTH + 1, ']', PD_JSON_MAX_DEPTH + 1);
	sc = (struct pd_json_scan){.s = deep, .n = 2 * PD_JSON_MAX_DEPTH + 2};
	ck_assert_int_lt(pd_json_skip(&sc), 0);
	sc = (struct pd_json_scan){.s = deep + 1, .n = 2 * PD_JSON_MAX_DEPTH};
	ck_assert_int_eq(pd_json_skip(&sc), 0);
}
END_TEST

START_TEST(test_prom_nan_samples_skipped_and_said)
{
	static const char *const a = HEAD
		"{\"metric\":{\"__name__\":\"sys_cpu_utilization_rate\",\"instance\":\"h\"},"
		"\"values\":[[1793630400,\"NaN\"],[1793630405,\"+Inf\"],[1793630410,\"3\"]]"
		"}" TAIL;
	struct pd_run *run = run_of(&a, 1);
	ck_assert_uint_eq(must(run, "ns_server_system", "cpu_utilization", "h")->n, 1);
	ck_assert_uint_eq(run->notes.n, 1);
	ck_assert_str_eq(run->notes.v[0], "prometheus/: 2 NaN or infinite samples skipped");
	pd_run_free(run);
}
END_TEST

/* date -u -d 2025-11-18T15:00:20Z +%s = 1763478020 */
START_TEST(test_prom_snapshot_metadata)
{
	static const char *const ok =
		"{\"success\":true,\"data\":{\"metadata\":{\"snapshotId\":\"" JOB "\","
		"\"services\":[\"kv\",\"n1ql\"],\"version\":\"8.0.0\",\"ts_start\":"
		"\"2025-11-18T15:00:20Z\",\"ts_end\":\"2025-11-18T16:00:00.5Z\",\"phases\":"
		"[{\"label\":\"shutdown_n1ql\",\"ts_start\":\"2025-11-18T15:00:20Z\","
		"\"ts_end\":\"2025-11-18T15:30:00Z\"}]}}}";
	struct pd_src src = {ok, strlen(ok), "cbmonitor2/snapshot.json", &pd_limits_default};
	struct pd_prom_snapshot s;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_prom_snapshot_parse(&s, &src, &err), 0);
	ck_assert_str_eq(s.id, JOB);
	ck_assert_int_eq(s.start_ms, 1763478020000LL);
	ck_assert_int_eq(s.end_ms, 1763478020000LL + 3580500); /* 59 min 40.5 s later */
	ck_assert_str_eq(s.phases.v[0], "shutdown_n1ql 1763478020000 1763479800000");
	pd_prom_snapshot_free(&s);
	err = (struct pd_err)PD_ERR_INIT;
	src.data = "{\"success\":false,\"error\":\"snapshot not found\"}";
	src.len = strlen(src.data);
	ck_assert_int_eq(pd_prom_snapshot_parse(&s, &src, &err), PD_EPARSE);
	ck_assert_str_eq(err.msg, "cbmonitor2 answered an error: snapshot not found");
	ck_assert_int_eq(pd_prom_rfc3339_ms("2025-11-18 15:00:20"), -1);
}
END_TEST

static void kpi(struct pd_run *run, const char *metric, const char *window, double v, long n)
{
	struct pd_kpi *k = pd_run_add_kpi(run);
	k->metric = strdup(metric);
	k->window = window ? strdup(window) : NULL;
	k->value = v;
	k->window_samples = n;
}

/* Windowed KPIs pair by id and window; unwindowed and one-sided KPIs stay out.
 *   pre: (1.43 - 1.21) / 1.21 = 0.22 / 1.21 = +18.1818...%; post: 1.19 -> 1.19 = 0%;
 *   a baseline of 0 has no percentage. */
START_TEST(test_prom_kpi_windows_pair_by_id_and_window)
{
	struct pd_run *b = pd_run_new("b"), *t = pd_run_new("t");
	struct pd_comparison c = {.base = b, .target = t};
	kpi(b, "m_get_999th_pre", "pre", 1.21, 5000);
	kpi(b, "m_get_999th_post", "post", 1.19, 2500);
	kpi(b, "m_set_999th_post", "post", 0, 0);
	kpi(b, "m_avg", NULL, 5, 0);
	kpi(t, "m_get_999th_during", "during", 2.0, 100);
	kpi(t, "m_get_999th_pre", "pre", 1.43, 5990);
	kpi(t, "m_get_999th_post", "post", 1.19, 2995);
	kpi(t, "m_set_999th_post", "post", 3, 0);
	kpi(t, "m_avg", NULL, 6, 0);
	pd_kpi_windows_pair(&c);
	ck_assert_uint_eq(c.n_kpi_windows, 3);
	ck_assert_str_eq(c.kpi_windows[0].metric, "m_get_999th_pre");
	ck_assert_double_eq_tol(c.kpi_windows[0].change_pct, 18.181818181818, 1e-9);
	ck_assert_int_eq(c.kpi_windows[0].base_samples, 5000);
	ck_assert_int_eq(c.kpi_windows[0].target_samples, 5990);
	ck_assert_str_eq(c.kpi_windows[1].window, "post");
	ck_assert_double_eq(c.kpi_windows[1].change_pct, 0);
	ck_assert(isnan(c.kpi_windows[2].change_pct));
	free(c.kpi_windows);
	pd_run_free(b);
	pd_run_free(t);
}
END_TEST

/* Three query nodes scraped every 10 s from T = 1793630400 to T + 100 s; the spec lists
 * .55 first. .40 is failed over at 40 s: its scraped series stop there. Counters:
 *   .55: 0, 1000, ... 10000         -> 100 req/s throughout: 10 000 requests
 *   .40: 5000, 8000, ... 17000 (to 40 s) -> 300 req/s: 12 000 requests, all before 40 s
 *   .41: 0 .. 4000 (100 req/s to 40 s), then +2500 a step (250 req/s): 19 000 requests
 * Spread over the 100 s run: first node 100, removed 120, every node 410 req/s (the
 * summed rates 500 x 4 steps and 350 x 6 steps average (2000 + 2100) / 10 = 410 too);
 * the active nodes 410 - 120 = 290. Before the event .40 served 12 000 of 20 000: 0.6.
 * Each node's pushed atop cbq-engine CPU is 200 % to 100 s, so cbq-engine CPU would
 * say a third (and the first node unknown with two survivors). */
static void counter(struct pd_buf *b, const char *host, const double *v, size_t n)
{
	pd_buf_addf(b,
		    "%s{\"metric\":{\"__name__\":\"n1ql_requests\",\"instance\":\"%s:8091\","
		    "\"job\":\"" JOB "\"},\"values\":[",
		    b->len > strlen(HEAD) ? "," : "", host);
	for (size_t i = 0; i < n; i++)
		pd_buf_addf(b, "%s[%zu,\"%g\"]", i ? "," : "", 1793630400 + 10 * i, v[i]);
	pd_buf_adds(b, "]}");
}

static void atop_cpu(struct pd_buf *b, const char *host)
{
	pd_buf_addf(b,
		    ",{\"metric\":{\"__name__\":\"perf_cbq_engine_cpu\",\"collector\":"
		    "\"atop\",\"instance\":\"%s\",\"job\":\"" JOB "\"},\"values\":[",
		    host);
	for (size_t i = 0; i <= 10; i++)
		pd_buf_addf(b, "%s[%zu,\"200\"]", i ? "," : "", 1793630400 + 10 * i);
	pd_buf_adds(b, "]}");
}

static struct pd_run *three_nodes(struct pd_timebase *tb, const char *removed)
{
	static const char *const hosts[] = {"172.23.100.55", "172.23.100.40", "172.23.100.41"};
	double a[11], b[5], c[11];
	struct pd_buf json = PD_BUF_INIT;
	for (int i = 0; i <= 10; i++)
		a[i] = 1000.0 * i, c[i] = i <= 4 ? 1000.0 * i : 4000 + 2500.0 * (i - 4);
	for (int i = 0; i <= 4; i++)
		b[i] = 5000 + 3000.0 * i;
	pd_buf_adds(&json, HEAD);
	counter(&json, hosts[0], a, 11), counter(&json, hosts[1], b, 5);
	counter(&json, hosts[2], c, 11);
	for (int i = 0; i < 3; i++)
		atop_cpu(&json, hosts[i]);
	pd_buf_adds(&json, TAIL);
	const char *answers[] = {json.ptr};
	struct pd_run *run = run_of(answers, 1);
	pd_buf_release(&json);
	run->prometheus = 1;
	run->cfg.shutdown_type = strdup("hard_failover");
	for (int i = 0; i < 3; i++) {
		pd_run_add_node(run, hosts[i], strlen(hosts[i]))->services = PD_SVC_N1QL;
		pd_strv_add(&run->spec_n1ql, hosts[i]);
	}
	*tb = (struct pd_timebase){.t0_ms = 1793630400000LL,
				   .end_ms = 1793630500000LL,
				   .interval_ms = 10000,
				   .event = PD_EVENT_HARD,
				   .event_s = 40};
	tb->node = (char *)removed; /* borrowed: the tests never release tb */
	return run;
}

START_TEST(test_prom_kpi_scope_from_each_nodes_counter)
{
	struct pd_timebase tb;
	struct pd_run *run = three_nodes(&tb, "172.23.100.40");
	struct pd_kpi_in in;
	struct pd_kpi_rules r;
	double share;
	struct pd_estimate served = pd_kpi_served(run, &tb);
	ck_assert(served.ok);
	ck_assert_double_eq_tol(served.value, 410, 1e-9);
	ck_assert(pd_kpi_inputs(&in, &share, run, &tb, served));
	ck_assert(in.per_node);
	ck_assert_double_eq_tol(in.removed, 120, 1e-9);
	ck_assert_double_eq_tol(in.first, 100, 1e-9);
	ck_assert_double_eq_tol(share, 0.6, 1e-12);
	ck_assert_uint_eq(in.n_active, 2);
	pd_kpi_reconcile(&r, &in, 290, 1);
	ck_assert_uint_eq(r.match, 1u << PD_KPI_ACTIVE_NODES);
	ck_assert_double_eq_tol(r.est[PD_KPI_FIRST_NODE], 100, 1e-9);
	pd_kpi_reconcile(&r, &in, 100, 1);
	ck_assert_uint_eq(r.match, 1u << PD_KPI_FIRST_NODE);
	pd_run_free(run);
}
END_TEST

/* "Still serving" on the Prometheus path, which has no net series: .40's own counter
 * (300 req/s in the 30 s before the event) and its scraped series stopping at the event
 * (its pushed atop goes on 60 s). .55 named as the failed node instead: its scraped
 * series go on 60 s after the "event", so it never left. */
START_TEST(test_prom_still_serving_from_the_nodes_own_counter)
{
	struct pd_timebase tb;
	struct pd_run *run = three_nodes(&tb, "172.23.100.40");
	struct pd_live_node ln;
	pd_story_live_node(&ln, run, &tb, NULL);
	ck_assert_str_eq(pd_live_verdict_name(ln.verdict), "yes");
	ck_assert(!ln.has_conn && ln.has_req && ln.prometheus);
	ck_assert_double_eq_tol(ln.req, 300, 1e-9);
	ck_assert_double_eq_tol(ln.rest_before_s, 0, 1e-9);
	ck_assert_double_eq_tol(ln.ssh_after_s, 60, 1e-9);
	pd_run_free(run);
	run = three_nodes(&tb, "172.23.100.55");
	pd_story_live_release(&ln);
	pd_story_live_node(&ln, run, &tb, NULL);
	/* a node failed over while alive is still scraped: serving before the event is the
	 * evidence, whether or not its scraped series go on (60 s here) */
	ck_assert_str_eq(pd_live_verdict_name(ln.verdict), "yes");
	ck_assert_double_eq_tol(ln.scraped_after_s, 60, 1e-9);
	pd_run_free(run);
	pd_story_live_release(&ln);
}
END_TEST

Suite *pd_suite_prom(void)
{
	Suite *s = suite_create("prom");
	TCase *tc = tcase_create("prom");
	tcase_add_test(tc, test_prom_query_counters_become_node_rates_and_cluster_total);
	tcase_add_test(tc, test_prom_process_cpu_seconds_become_percent_of_a_core);
	tcase_add_test(tc, test_prom_pushed_series_keep_collector_and_metric);
	tcase_add_test(tc, test_prom_unpush_restores_process_names);
	tcase_add_test(tc, test_prom_error_answer_names_the_error);
	tcase_add_test(tc, test_prom_nan_samples_skipped_and_said);
	tcase_add_test(tc, test_prom_answer_members_in_any_order);
	tcase_add_test(tc, test_prom_answer_errors_placed);
	tcase_add_test(tc, test_json_scan_checks_what_it_skips);
	tcase_add_test(tc, test_prom_snapshot_metadata);
	tcase_add_test(tc, test_prom_kpi_windows_pair_by_id_and_window);
	tcase_add_test(tc, test_prom_kpi_scope_from_each_nodes_counter);
	tcase_add_test(tc, test_prom_still_serving_from_the_nodes_own_counter);
	suite_add_tcase(s, tc);
	return s;
}
