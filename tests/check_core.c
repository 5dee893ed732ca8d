#include "check_suites.h"

#include "core/buf.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/err.h"
#include "core/file.h"
#include "core/outdir.h"
#include "core/proc.h"
#include "core/metric.h"
#include "core/model.h"
#include "core/src.h"
#include "core/url.h"
#include "render/escape.h"
#include "analyze/stats/sampling.h"
#include "analyze/stats/stats.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(test_buf_addf_grows_past_first_allocation)
{
	struct pd_buf b = PD_BUF_INIT;
	ck_assert_str_eq(b.ptr, "");
	for (int i = 0; i < 1000; i++)
		pd_buf_addf(&b, "%d,", i % 10);
	ck_assert_uint_eq(b.len, 2000);
	ck_assert_int_eq(b.ptr[1998], '9');
	ck_assert_int_eq(b.ptr[2000], '\0');
	char *s = pd_buf_detach(&b);
	ck_assert_str_eq(b.ptr, "");
	ck_assert_int_eq(strncmp(s, "0,1,2,", 6), 0);
	free(s);
	pd_buf_release(&b);
}
END_TEST

START_TEST(test_buf_add_p_says_less_than_below_double_resolution)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_add_p(&b, 0.0012);
	pd_buf_adds(&b, "|");
	pd_buf_add_p(&b, 0); /* what a Bonferroni p of 1e-320 underflows to */
	pd_buf_adds(&b, "|");
	pd_buf_add_p(&b, 2.2e-320);
	pd_buf_adds(&b, "|");
	pd_buf_add_p(&b, 1);
	ck_assert_str_eq(b.ptr, "p 0.0012|p < 1e-15|p < 1e-15|p 1");
	pd_buf_release(&b);
}
END_TEST

/* Integers as printf's %lld writes them, expected by hand: zero, one digit, each power of
 * ten's edge, both signs, and the int64 extremes (INT64_MIN has no positive twin). */
START_TEST(test_buf_add_int_writes_what_printf_writes)
{
	const int64_t v[] = {0,
			     7,
			     -7,
			     9,
			     10,
			     -10,
			     99,
			     100,
			     1234567890123,
			     -1793643600038,
			     999999999999999,
			     INT64_MAX,
			     INT64_MIN};
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_adds(&b, "|");
	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		pd_buf_add_int(&b, v[i]);
		pd_buf_adds(&b, "|");
	}
	ck_assert_str_eq(b.ptr, "|0|7|-7|9|10|-10|99|100|1234567890123|-1793643600038|"
				"999999999999999|9223372036854775807|-9223372036854775808|");
	pd_buf_release(&b);
}
END_TEST

static void redacted(const char *in, const char *want)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_url_redact(&b, in);
	ck_assert_str_eq(b.ptr, want);
	ck_assert_ptr_null(strstr(b.ptr, "S3cr3t"));
	pd_buf_release(&b);
}

/* What the command line shows every user (ps): a password, not a user name alone. */
START_TEST(test_url_has_password_finds_each_form)
{
	ck_assert_int_eq(pd_url_has_password("http://me:S3cr3t@jenkins/job/a/7/"), 1);
	ck_assert_int_eq(pd_url_has_password("https://me:p/w@mimir.example/prometheus"), 1);
	ck_assert_int_eq(pd_url_has_password("postgresql://h/db?password=x"), 1);
	ck_assert_int_eq(pd_url_has_password("host=h PASSWORD=x"), 1);
	ck_assert_int_eq(pd_url_has_password("http://me@jenkins/job/a/7/"), 0);
	ck_assert_int_eq(pd_url_has_password("http://jenkins/job/a?mypassword=x"), 0);
	ck_assert_int_eq(pd_url_has_password("sqlite:notes.db"), 0);
}
END_TEST

START_TEST(test_url_redact_drops_every_credential_form)
{
	redacted("postgresq://me:S3cr3tPw@db.example:5432/h", "postgresq://db.example:5432/h");
	redacted("http://me:S3cr3t@jenkins/job/a/7/", "http://jenkins/job/a/7/");
	/* a '/' or '@' in the password hides nothing */
	redacted("postgresql://me:S3/cr3t@x@h/db", "postgresql://h/db");
	/* libpq quotes the URL it could not parse */
	redacted("in URI: \"postgresql://me:S3cr3t@[::1/db\"",
		 "in URI: \"postgresql://[::1/db\"");
	redacted("postgresql://me@h/db?sslmode=require&password=S3cr3t&x=1",
		 "postgresql://h/db?sslmode=require&password=***&x=1");
	redacted("host=h PassWord=S3cr3t dbname=d", "host=h PassWord=*** dbname=d");
	redacted("http://jenkins/job/a/7/", "http://jenkins/job/a/7/");
	redacted("sqlite:notes.db", "sqlite:notes.db");
	redacted("mypassword=x", "mypassword=x");
}
END_TEST

static void unpassworded(const char *in, const char *want)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_url_unpassword(&b, in);
	ck_assert_str_eq(b.ptr, want);
	pd_buf_release(&b);
}

START_TEST(test_url_unpassword_keeps_the_user)
{
	unpassworded("postgresql://me:S3cr3t@db.example:5432/h",
		     "postgresql://me@db.example:5432/h");
	unpassworded("postgresql://me:S3/cr3t@x@h/db", "postgresql://me@h/db");
	unpassworded("postgresql://me@h/db?sslmode=require&password=S3cr3t&x=1",
		     "postgresql://me@h/db?sslmode=require&x=1");
	unpassworded("postgresql://me@h/db?password=S3cr3t&x=1", "postgresql://me@h/db?x=1");
	unpassworded("postgresql://me@h/db?password=S3cr3t", "postgresql://me@h/db");
	unpassworded("host=h user=me PassWord=S3cr3t dbname=d", "host=h user=me dbname=d");
	unpassworded("password=S3cr3t host=h", "host=h");
	unpassworded("postgresql://me@h/db", "postgresql://me@h/db");
	unpassworded("sqlite:/x/h.sqlite", "sqlite:/x/h.sqlite");
}
END_TEST

START_TEST(test_err_first_failure_wins_and_formats_place)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_buf line = PD_BUF_INIT;
	ck_assert_int_eq(pd_err_at(&err, PD_EPARSE, "a.json", 3, 7, "expected '%c'", ']'),
			 PD_EPARSE);
	pd_err_set(&err, PD_EIO, "second");
	pd_err_format(&line, &err);
	ck_assert_str_eq(line.ptr, "a.json:3:7: expected ']'");
	pd_buf_release(&line);
}
END_TEST

/* A path of 300 bytes (the old fields held 255) comes back whole; one beyond any the
 * kernel takes loses its middle and says so, its start and its file's name kept. */
START_TEST(test_err_keeps_long_paths_and_marks_a_cut)
{
	struct pd_err err = PD_ERR_INIT, huge = PD_ERR_INIT;
	struct pd_buf path = PD_BUF_INIT, line = PD_BUF_INIT;
	/* PD_ERR_PATH_MAX - 1 bytes: (4095 - 5) / 2 = 2045 of the start, "[...]", 2045 of
	 * the end */
	size_t head = (PD_ERR_PATH_MAX - 1 - 5) / 2, tail = PD_ERR_PATH_MAX - 1 - 5 - head;
	for (int i = 0; i < 30; i++)
		pd_buf_adds(&path, "directory/"); /* 300 bytes */
	pd_err_at(&err, PD_EIO, path.ptr, 0, 0, "cannot open: %s", path.ptr);
	pd_err_format(&line, &err);
	ck_assert_uint_eq(line.len, 300 + 2 + 13 + 300);
	ck_assert_str_eq(err.path, path.ptr);
	while (path.len < 5000)
		pd_buf_adds(&path, "directory/");
	pd_buf_adds(&path, "memcached_cpu.json");
	pd_err_at(&huge, PD_EIO, path.ptr, 0, 0, "x");
	ck_assert_uint_eq(strlen(huge.path), PD_ERR_PATH_MAX - 1);
	ck_assert_int_eq(strncmp(huge.path, path.ptr, head), 0);
	ck_assert_int_eq(strncmp(huge.path + head, "[...]", 5), 0);
	ck_assert_str_eq(huge.path + head + 5, path.ptr + path.len - tail);
	pd_buf_release(&path);
	pd_buf_release(&line);
}
END_TEST

/* A message quoting an untrusted string keeps what it says of it: a 1000-byte path
 * comes back whole, and a URL of 70 000 bytes loses its middle, not the end of the
 * message (it kept its first 5119 bytes: "pulling http://h/job/xxx...xxx[...]"). */
START_TEST(test_err_message_keeps_its_end)
{
	struct pd_err err = PD_ERR_INIT, huge = PD_ERR_INIT, wide = PD_ERR_INIT;
	struct pd_buf path = PD_BUF_INIT, url = PD_BUF_INIT, text = PD_BUF_INIT;
	const char *end = "/7/ failed: perfdelta-pull exited 3 (its reason above)";
	while (path.len < 1000)
		pd_buf_adds(&path, "/dir");
	pd_err_at(&err, PD_EIO, path.ptr, 0, 0, "%s: expected a directory, tarball or zip",
		  path.ptr);
	ck_assert_str_eq(err.path, path.ptr);
	ck_assert_uint_eq(strlen(err.msg), 1000 + 38);
	ck_assert_str_eq(err.msg + 1000, ": expected a directory, tarball or zip");
	pd_buf_adds(&url, "http://h/job/");
	while (url.len < 70000)
		pd_buf_adds(&url, "xxxxxxxxxx");
	pd_buf_adds(&url, "/7/");
	pd_err_set(&huge, PD_EIO,
		   "pulling %s failed: perfdelta-pull exited 3 (its reason above)", url.ptr);
	ck_assert_uint_eq(strlen(huge.msg), PD_ERR_MSG_MAX - 1);
	ck_assert_int_eq(strncmp(huge.msg, "pulling http://h/job/xxx", 24), 0);
	ck_assert_ptr_nonnull(strstr(huge.msg, "xxx[...]xxx"));
	ck_assert_str_eq(huge.msg + strlen(huge.msg) - strlen(end), end);
	/* a cut never splits a character: 2-byte "\xc3\xa9" on either side of the mark */
	while (text.len < 2 * PD_ERR_MSG_MAX)
		pd_buf_adds(&text, "\xc3\xa9");
	pd_err_set(&wide, PD_EPARSE, "a%s", text.ptr);
	char *cut = strstr(wide.msg, "[...]");
	ck_assert_ptr_nonnull(cut);
	ck_assert_int_eq((unsigned char)cut[-1], 0xa9);
	ck_assert_int_eq((unsigned char)cut[5], 0xc3);
	pd_buf_release(&path), pd_buf_release(&url), pd_buf_release(&text);
}
END_TEST

START_TEST(test_err_message_stays_on_one_line)
{
	struct pd_err err = PD_ERR_INIT;
	pd_err_set(&err, PD_EPARSE, "bad\nvalue\r");
	ck_assert_str_eq(err.msg, "bad value ");
}
END_TEST

START_TEST(test_src_error_counts_lines_and_columns)
{
	/* offset 9 is the 'x': line 1 "ab" (0-1, '\n' at 2), line 2 "cd" (3-4, '\n' at 5),
	 * line 3 "efg" (6-8), so offset 9 is line 3 column 4 */
	const char *text = "ab\ncd\nefgx";
	struct pd_src src = {text, strlen(text), "f", &pd_limits_default};
	struct pd_err err = PD_ERR_INIT;
	pd_src_error(&err, PD_EPARSE, &src, 9, "expected digit");
	ck_assert_int_eq(err.line, 3);
	ck_assert_int_eq(err.col, 4);
	ck_assert_str_eq(err.path, "f");
}
END_TEST

START_TEST(test_series_normalize_sorts_and_keeps_last_duplicate)
{
	struct pd_series s = {0};
	/* arrival order: 10, 30, 20, 30(dup, later value wins), 40 */
	pd_series_add(&s, 10, 1.0);
	pd_series_add(&s, 30, 3.0);
	pd_series_add(&s, 20, 2.0);
	pd_series_add(&s, 30, 3.5);
	pd_series_add(&s, 40, 4.0);
	pd_series_normalize(&s);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_uint_eq(s.n_dup, 1);
	ck_assert_uint_eq(s.n_unsorted, 1); /* 20 after 30 */
	int64_t t[] = {10, 20, 30, 40};
	double v[] = {1.0, 2.0, 3.5, 4.0};
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(s.t_ms[i], t[i]);
		ck_assert_double_eq(s.v[i], v[i]);
	}
	free(s.t_ms);
	free(s.v);
}
END_TEST

START_TEST(test_roles_follow_first_service_in_spec_order)
{
	struct pd_run *run = pd_run_new("x");
	const char *hosts[] = {"a", "b", "c", "d"};
	unsigned first[] = {PD_SVC_KV, PD_SVC_N1QL, PD_SVC_KV, PD_SVC_N1QL};
	for (int i = 0; i < 4; i++) {
		struct pd_node *n = pd_run_add_node(run, hosts[i], 1);
		n->first = n->services = first[i];
	}
	pd_run_assign_roles(run);
	ck_assert_str_eq(run->nodes[0].role, "kv#1");
	ck_assert_str_eq(run->nodes[1].role, "n1ql#1");
	ck_assert_str_eq(run->nodes[2].role, "kv#2");
	ck_assert_str_eq(run->nodes[3].role, "n1ql#2");
	pd_run_free(run);
}
END_TEST

START_TEST(test_units_from_metric_names)
{
	ck_assert_int_eq(pd_metric_unit("atop", "memcached_cpu"), PD_UNIT_PERCENT);
	ck_assert_int_eq(pd_metric_unit("atop", "cbq-engine_rss"), PD_UNIT_BYTES);
	ck_assert_int_eq(pd_metric_unit("net", "in_bytes_per_sec"), PD_UNIT_BYTES_PER_SEC);
	ck_assert_int_eq(pd_metric_unit("net", "ESTABLISHED"), PD_UNIT_COUNT);
	ck_assert_int_eq(pd_metric_unit("n1ql_stats", "query_requests"), PD_UNIT_PER_SEC);
	ck_assert_int_eq(pd_metric_unit("n1ql_stats", "query_avg_req_time"), PD_UNIT_MS);
	/* ns_server serves bucket (and @index-) counters as per-second rates, which cbagent
	 * stores as they come (cbagent/collectors/ns_server.py, secondary_stats.py) */
	ck_assert_int_eq(pd_metric_unit("ns_server", "ops"), PD_UNIT_PER_SEC);
	ck_assert_int_eq(pd_metric_unit("ns_server", "cmd_get"), PD_UNIT_PER_SEC);
	ck_assert_int_eq(pd_metric_unit("secondary_stats", "index_num_requests"),
			 PD_UNIT_PER_SEC);
	ck_assert_int_eq(pd_metric_unit("ns_server", "curr_connections"), PD_UNIT_COUNT);
	ck_assert_int_eq(pd_metric_unit("secondary_stats", "index_num_docs_pending"),
			 PD_UNIT_COUNT);
}
END_TEST

/* Sorting a string list: strcmp order; the unique variant keeps one of each. */
START_TEST(test_strv_sort_unique)
{
	struct pd_strv sv = {0};
	const char *in[] = {"b", "a", "c", "a", "b", "a"};
	for (size_t i = 0; i < 6; i++)
		pd_strv_add(&sv, in[i]);
	pd_strv_sort(&sv);
	ck_assert_uint_eq(sv.n, 6);
	ck_assert_str_eq(sv.v[0], "a");
	ck_assert_str_eq(sv.v[2], "a");
	ck_assert_str_eq(sv.v[5], "c");
	pd_strv_sort_unique(&sv);
	ck_assert_uint_eq(sv.n, 3);
	ck_assert_str_eq(sv.v[0], "a");
	ck_assert_str_eq(sv.v[1], "b");
	ck_assert_str_eq(sv.v[2], "c");
	pd_strv_free(&sv);
}
END_TEST

/* The metric table's other two answers: which way is worse, and the atop twin of a REST
 * process metric (names from perfrunner's collectors). */
START_TEST(test_metric_direction_and_twin)
{
	struct pd_buf b = PD_BUF_INIT;
	ck_assert_int_eq(pd_metric_worse("n1ql_stats", "query_requests"), -1);
	ck_assert_int_eq(pd_metric_worse("sysdig", "MemFree"), -1);
	ck_assert_int_eq(pd_metric_worse("atop", "memcached_cpu"), 1);
	pd_metric_twin(&b, "metrics_rest_api_processes/memcached_sysproc_cpu_utilization");
	ck_assert_str_eq(b.ptr, "atop/memcached_cpu");
	pd_buf_truncate(&b, 0);
	pd_metric_twin(&b, "metrics_rest_api_processes/cbq-engine_sysproc_mem_resident");
	ck_assert_str_eq(b.ptr, "atop/cbq-engine_rss");
	pd_buf_truncate(&b, 0);
	pd_metric_twin(&b, "atop/memcached_cpu");
	ck_assert_str_eq(b.ptr, "");
	pd_buf_release(&b);
}
END_TEST

/* The table's label column: how an engineer names a metric (analyze/tell/words.c reads it). */
START_TEST(test_metric_words_name_process_label_and_verb)
{
	struct pd_metric_words w;
	pd_metric_words(&w, "atop/memcached_cpu");
	ck_assert_str_eq(w.proc.ptr, "memcached");
	ck_assert_str_eq(w.label, "CPU");
	ck_assert_str_eq(w.verb, "used");
	pd_buf_release(&w.proc);
	pd_metric_words(&w, "metrics_rest_api_processes/cbq-engine_sysproc_mem_resident");
	ck_assert_str_eq(w.proc.ptr, "cbq-engine");
	ck_assert_str_eq(w.label, "memory (RSS)");
	pd_buf_release(&w.proc);
	pd_metric_words(&w, "ns_server_system/cpu_utilization"); /* a node's, no process */
	ck_assert_str_eq(w.proc.ptr, "");
	ck_assert_str_eq(w.label, "CPU");
	pd_metric_words(&w, "net/ESTABLISHED");
	ck_assert_str_eq(w.label, "established connections");
	ck_assert_str_eq(w.verb, "held");
	pd_metric_words(&w, "n1ql_stats/query_requests"); /* no verb: "<label> was lower" */
	ck_assert_str_eq(w.label, "query throughput");
	ck_assert_ptr_null(w.verb);
	pd_metric_words(&w, "iostat/sda_util"); /* no rule: its own name */
	ck_assert_str_eq(w.label, "sda_util");
	ck_assert_ptr_null(w.verb);
	ck_assert_str_eq(w.proc.ptr, "");
	ck_assert_str_eq(pd_metric_role_label(PD_SVC_N1QL), "query");
	ck_assert_str_eq(pd_metric_role_label(PD_SVC_KV), "kv");
	ck_assert_str_eq(pd_metric_role_label(0), "other");
}
END_TEST

START_TEST(test_gaps_count_missing_samples)
{
	struct pd_series s = {0};
	/* steps 5000, 10100 (1 missing), 5000, 15000 (2 missing), 4900 */
	int64_t t[] = {0, 5000, 15100, 20100, 35100, 40000};
	for (int i = 0; i < 6; i++)
		pd_series_add(&s, t[i], 0);
	/* median step 5000; steps within [2500, 7500]: 5000 5000 4900, mean 4966.67 */
	ck_assert_int_eq(pd_sampling_interval_ms(&s), 4967);
	struct pd_sampling_gaps g = pd_sampling_gaps(&s, 5000);
	ck_assert_uint_eq(g.n_gaps, 2);
	ck_assert_uint_eq(g.missing, 3);
	ck_assert_int_eq(g.longest_ms, 15000);
	free(s.t_ms);
	free(s.v);
}
END_TEST

static int cmp_i64_test(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* pd_stats_median_i64 selects in place; the reference sorts a copy with qsort and takes
 * element (n - 1) / 2, on shapes that break naive pivots: sorted, reversed, organ pipe,
 * all equal, two values, pseudo-random (a fixed LCG) and steps of 5 s with jitter (read
 * by counting: a narrow span), then spans at the int64 extremes. */
START_TEST(test_median_i64_matches_sorting)
{
	enum { N = 1001 };
	static int64_t v[N], ref[N];
	uint64_t x = 12345;
	for (int shape = 0; shape < 7; shape++)
		for (size_t n = 1; n <= N; n += n < 40 ? 1 : 97) {
			for (size_t i = 0; i < n; i++) {
				x = x * 6364136223846793005u + 1442695040888963407u;
				int64_t r = (int64_t)(x >> 40) - (1 << 23);
				int64_t by_shape[] = {(int64_t)i,
						      (int64_t)(n - i),
						      (int64_t)(i < n / 2 ? i : n - i),
						      5000,
						      (int64_t)(i % 2) * 7,
						      r,
						      5000 + r % 300};
				v[i] = ref[i] = by_shape[shape];
			}
			qsort(ref, n, sizeof(*ref), cmp_i64_test);
			ck_assert_int_eq(pd_stats_median_i64(v, n), ref[(n - 1) / 2]);
		}
	int64_t three[] = {9, -4, 2}; /* by hand: -4 2 9, the middle is 2 */
	ck_assert_int_eq(pd_stats_median_i64(three, 3), 2);
	int64_t four[] = {8, 1, 6, 3}; /* 1 3 6 8: the lower median is 3 */
	ck_assert_int_eq(pd_stats_median_i64(four, 4), 3);
	int64_t wide[] = {INT64_MAX, INT64_MIN, 0}; /* a span beyond int64: selected */
	ck_assert_int_eq(pd_stats_median_i64(wide, 3), 0);
	int64_t top[] = {INT64_MAX, INT64_MAX - 3, INT64_MAX - 1}; /* counted at the top */
	ck_assert_int_eq(pd_stats_median_i64(top, 3), INT64_MAX - 1);
	int64_t bottom[] = {INT64_MIN + 2, INT64_MIN, INT64_MIN + 9, INT64_MIN + 1};
	ck_assert_int_eq(pd_stats_median_i64(bottom, 4), INT64_MIN + 1);
}
END_TEST

START_TEST(test_series_constant)
{
	struct pd_series s = {0};
	double v = -1;
	ck_assert_int_eq(pd_sampling_constant(&s, &v), 0); /* no sample */
	pd_series_add(&s, 0, 2.5);
	ck_assert_int_eq(pd_sampling_constant(&s, &v), 0); /* one sample says nothing */
	pd_series_add(&s, 5000, 2.5);
	pd_series_add(&s, 10000, 2.5);
	ck_assert_int_eq(pd_sampling_constant(&s, &v), 1);
	ck_assert_double_eq(v, 2.5);
	pd_series_add(&s, 15000, 2.5000000000000004); /* the next double up */
	ck_assert_int_eq(pd_sampling_constant(&s, &v), 0);
	free(s.t_ms);
	free(s.v);
}
END_TEST

START_TEST(test_escape_json_html_text)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_esc_json(&b, "a\"b\\c\n\x01<\xff");
	ck_assert_str_eq(b.ptr, "\"a\\\"b\\\\c\\n\\u0001\\u003c\\ufffd\"");
	pd_buf_truncate(&b, 0);
	pd_esc_html(&b, "<script>alert('x')&\"</script>");
	ck_assert_str_eq(b.ptr, "&lt;script&gt;alert(&#39;x&#39;)&amp;&quot;&lt;/script&gt;");
	pd_buf_truncate(&b, 0);
	pd_esc_text(&b, "a\x1b[2Jb");
	ck_assert_str_eq(b.ptr, "a\\x1b[2Jb");
	pd_buf_truncate(&b, 0);
	/* U+009B (CSI, C2 9B in UTF-8) and a lone 0xff byte; U+00E9 passes */
	pd_esc_text(&b, "\xc2\x9b"
			"2J\xff\xc3\xa9");
	ck_assert_str_eq(b.ptr, "\\xc2\\x9b2J\\xff\xc3\xa9");
	pd_buf_truncate(&b, 0);
	pd_esc_html(&b, "a\xff"
			"b\xc2\x85");
	ck_assert_str_eq(b.ptr, "a&#xfffd;b&#xfffd;");
	pd_buf_truncate(&b, 0);
	/* 0.1 needs 1 digit, 1/3 needs 16 to read back, NaN is not JSON */
	pd_esc_json_num(&b, 0.1);
	pd_buf_addch(&b, ' ');
	pd_esc_json_num(&b, 1.0 / 3.0);
	pd_buf_addch(&b, ' ');
	pd_esc_json_num(&b, NAN);
	ck_assert_str_eq(b.ptr, "0.1 0.3333333333333333 null");
	pd_buf_release(&b);
}
END_TEST

/* The definition of pd_esc_json_num, written the slow way: %.15g, %.16g, %.17g, each read
 * back with strtod. */
static void json_num_reference(char *out, size_t size, double v)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(out, size, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return;
	}
}

static void check_json_num(double v)
{
	char want[40];
	struct pd_buf b = PD_BUF_INIT;
	if (!isfinite(v)) /* null: test_escape_json_html_text */
		return;
	json_num_reference(want, sizeof(want), v);
	pd_esc_json_num(&b, v);
	ck_assert_msg(strcmp(b.ptr, want) == 0, "%a: %s, want %s", v, b.ptr, want);
	pd_buf_release(&b);
}

/* Against the reference: every bit pattern class (a fixed LCG over all 64 bits, so
 * subnormals and huge exponents, which take printf's way), ratios and decimal fractions
 * like the statistics write (the integer way), integers around the 1e15 switch, the %g
 * style boundaries (1e-4 and 10^p), powers of ten and their neighbours (midpoints and
 * carries), and the edges of the integer way's range. */
START_TEST(test_json_num_matches_printf_definition)
{
	uint64_t x = 88172645463325252u;
	for (int i = 0; i < 60000; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		double v;
		memcpy(&v, &x, sizeof(v));
		check_json_num(v);
		check_json_num((double)(x >> 11) / (double)((x & 0xffff) + 1));
		check_json_num((double)(i - 30000) / 1000.0);
	}
	for (int k = -330; k <= 310; k++) {
		double p = pow(10, k);
		check_json_num(p);
		check_json_num(nextafter(p, 0));
		check_json_num(nextafter(p, INFINITY));
		check_json_num(-p * 0.99999999999999994);
	}
	double edge[] = {1e15,
			 1e15 - 1,
			 1e15 + 2,
			 -1e15,
			 999999999999999.5,
			 1e-4,
			 9.9999999999999995e-5,
			 0.5,
			 2.5,
			 1.0000000000000002,
			 9.999999999999999e22,
			 5e-324,
			 DBL_MIN,
			 DBL_MAX,
			 1.2345678901234565,
			 0.30000000000000004};
	for (size_t i = 0; i < sizeof(edge) / sizeof(*edge); i++)
		check_json_num(edge[i]);
}
END_TEST

/* Writes a one-file marked output at dir; 0 or the error code. */
static int write_output(const char *dir, struct pd_err *err)
{
	struct pd_outdir o;
	int rc = pd_outdir_begin(&o, dir, 0, err);
	if (rc < 0)
		return rc;
	o.marked = 1;
	if ((rc = pd_outdir_mkdir(&o, "charts", err)) < 0 ||
	    (rc = pd_outdir_write(&o, "charts/a.svg", "<svg/>", 6, err)) < 0) {
		pd_outdir_abort(&o);
		return rc;
	}
	return pd_outdir_commit(&o, err);
}

START_TEST(test_outdir_replaces_only_exactly_its_own_output)
{
	char dir[] = "/tmp/pd-check-outdir-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct pd_buf out = PD_BUF_INIT, extra = PD_BUF_INIT, marker = PD_BUF_INIT;
	struct pd_err err = PD_ERR_INIT, refused = PD_ERR_INIT;
	pd_buf_addf(&out, "%s/rep", dir);
	ck_assert_int_eq(write_output(out.ptr, &err), 0);
	ck_assert_int_eq(write_output(out.ptr, &err), 0); /* its own: replaced */
	pd_buf_addf(&marker, "%s/" PD_OUTDIR_MARKER, out.ptr);
	ck_assert(pd_file_exists(marker.ptr));
	pd_buf_addf(&extra, "%s/charts/notes.txt", out.ptr);
	FILE *f = fopen(extra.ptr, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(write_output(out.ptr, &refused), PD_EIO);
	ck_assert_ptr_nonnull(strstr(refused.msg, "it holds 'charts/notes.txt'"));
	ck_assert(pd_file_exists(extra.ptr)); /* nothing lost */
	pd_rm_tree(dir);
	pd_buf_release(&out);
	pd_buf_release(&extra);
	pd_buf_release(&marker);
}
END_TEST

static pid_t start_sleep(void)
{
	static char *const argv[] = {"sleep", "30", NULL};
	static char *const envp[] = {"PATH=/usr/bin:/bin", NULL};
	const int fds[3] = {PD_PROC_DEVNULL, PD_PROC_DEVNULL, PD_PROC_DEVNULL};
	const struct pd_proc_spec spec = {
		.file = "sleep", .argv = argv, .envp = envp, .fds = fds, .n_fds = 3};
	pid_t pid = 0;
	ck_assert_int_eq(pd_proc_start(&pid, &spec), 0);
	return pid;
}

START_TEST(test_proc_wait_ends_a_child_that_makes_no_progress)
{
	pid_t pid = start_sleep();
	int status = 0;
	double t0 = pd_clock_now();
	const struct pd_proc_watch w = {.idle_s = 0.3};
	ck_assert_int_eq(pd_proc_wait(pid, &status, &w), PD_PROC_IDLE);
	double took = pd_clock_now() - t0;
	ck_assert_msg(took >= 0.3 && took < 5, "took %g s", took);
	ck_assert_int_eq(kill(pid, 0), -1); /* reaped, not a zombie */
	ck_assert_int_eq(errno, ESRCH);
}
END_TEST

START_TEST(test_cleanup_run_kills_children_and_removes_trees)
{
	char dir[] = "/tmp/pd-check-cleanup-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct pd_buf sub = PD_BUF_INIT;
	pd_buf_addf(&sub, "%s/charts", dir);
	ck_assert_int_eq(mkdir(sub.ptr, 0755), 0);
	pd_buf_adds(&sub, "/c.svg");
	FILE *f = fopen(sub.ptr, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	pd_cleanup_add_tree(dir);
	pid_t pid = start_sleep();
	pd_cleanup_run();
	struct stat st;
	ck_assert_int_eq(lstat(dir, &st), -1);
	ck_assert_int_eq(kill(pid, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	pd_buf_release(&sub);
}
END_TEST

Suite *pd_suite_core(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_buf_addf_grows_past_first_allocation);
	tcase_add_test(tc, test_metric_words_name_process_label_and_verb);
	tcase_add_test(tc, test_buf_add_p_says_less_than_below_double_resolution);
	tcase_add_test(tc, test_buf_add_int_writes_what_printf_writes);
	tcase_add_test(tc, test_err_first_failure_wins_and_formats_place);
	tcase_add_test(tc, test_url_redact_drops_every_credential_form);
	tcase_add_test(tc, test_url_has_password_finds_each_form);
	tcase_add_test(tc, test_url_unpassword_keeps_the_user);
	tcase_add_test(tc, test_err_message_stays_on_one_line);
	tcase_add_test(tc, test_err_keeps_long_paths_and_marks_a_cut);
	tcase_add_test(tc, test_err_message_keeps_its_end);
	tcase_add_test(tc, test_outdir_replaces_only_exactly_its_own_output);
	tcase_add_test(tc, test_proc_wait_ends_a_child_that_makes_no_progress);
	tcase_add_test(tc, test_cleanup_run_kills_children_and_removes_trees);
	tcase_add_test(tc, test_src_error_counts_lines_and_columns);
	tcase_add_test(tc, test_series_normalize_sorts_and_keeps_last_duplicate);
	tcase_add_test(tc, test_roles_follow_first_service_in_spec_order);
	tcase_add_test(tc, test_units_from_metric_names);
	tcase_add_test(tc, test_metric_direction_and_twin);
	tcase_add_test(tc, test_strv_sort_unique);
	tcase_add_test(tc, test_gaps_count_missing_samples);
	tcase_add_test(tc, test_median_i64_matches_sorting);
	tcase_add_test(tc, test_series_constant);
	tcase_add_test(tc, test_escape_json_html_text);
	tcase_add_test(tc, test_json_num_matches_printf_definition);
	suite_add_tcase(s, tc);
	return s;
}
