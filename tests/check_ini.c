#include "check_suites.h"

#include "core/buf.h"
#include "core/err.h"
#include "core/model.h"
#include "core/src.h"
#include "parse/ini.h"

#include <stdlib.h>
#include <string.h>

#define PERFRUNNER PD_FORMATS_DIR "/perfrunner/perfrunner__"
#define OWN_INI    PD_SOURCE_DIR "/fixtures/ini/"

/* Expected values below were read by hand from the files and checked against Python's
 * configparser (ConfigParser(interpolation=None), which perfrunner uses): entry counts
 * 4 for each .spec, 33, 34, 34 and 25 for the .test files. */

static int parse_text(struct pd_ini *ini, const char *text, size_t len,
		      const struct pd_limits *lim, struct pd_err *err)
{
	struct pd_src src = {text, len, "t.ini", lim};
	return pd_ini_parse(ini, &src, err);
}

static void parse_file(struct pd_ini *ini, const char *path)
{
	size_t len;
	char *text = pd_test_slurp(path, &len);
	struct pd_src src = {text, len, path, &pd_limits_default};
	struct pd_err err = PD_ERR_INIT;
	int rc = pd_ini_parse(ini, &src, &err);
	ck_assert_msg(rc == 0, "%s:%ld:%ld: %s", path, err.line, err.col, err.msg);
	ck_assert_str_eq(ini->path, path);
	free(text);
}

static const char *expect_error(const char *t, size_t len, const struct pd_limits *lim,
				int code, long line, long col);

static struct pd_run *load_spec(const char *path)
{
	struct pd_run *run = pd_run_new("");
	struct pd_err err = PD_ERR_INIT;
	parse_file(&run->spec, path);
	ck_assert_msg(pd_spec_load(run, &run->spec, &err) == 0, "%s: %s", path, err.msg);
	return run;
}

static void expect_node(const struct pd_run *run, size_t i, const char *host, unsigned services,
			unsigned first, const char *role)
{
	ck_assert_uint_gt(run->n_nodes, i);
	ck_assert_str_eq(run->nodes[i].host, host);
	ck_assert_uint_eq(run->nodes[i].services, services);
	ck_assert_uint_eq(run->nodes[i].first, first);
	ck_assert_str_eq(run->nodes[i].role, role);
}

START_TEST(test_ini_reads_iris_extra_n1ql_spec)
{
	struct pd_run *run = load_spec(PERFRUNNER "clusters_iris_extra_n1ql.spec");
	const struct pd_ini *ini = &run->spec;
	/* [clusters] iris (line 2), [clients] hosts (12), [storage] data (18),
	 * [metadata] cluster (21) */
	ck_assert_uint_eq(ini->n, 4);
	ck_assert_str_eq(ini->e[0].section, "clusters");
	ck_assert_str_eq(ini->e[0].key, "iris");
	ck_assert_int_eq(ini->e[0].line, 2);
	ck_assert_int_eq(ini->e[1].line, 12);
	ck_assert_int_eq(ini->e[2].line, 18);
	ck_assert_int_eq(ini->e[3].line, 21);
	ck_assert_str_eq(pd_ini_get(ini, "clusters", "iris"),
			 "172.23.100.210:kv\n172.23.100.211:kv\n172.23.100.212:kv\n"
			 "172.23.100.213:kv\n172.23.100.55:n1ql\n172.23.100.45:index\n"
			 "172.23.100.40:n1ql");
	ck_assert_str_eq(pd_ini_get(ini, "clients", "hosts"),
			 "172.23.100.44\n172.23.100.104\n172.23.100.105");
	ck_assert_str_eq(pd_ini_get(ini, "storage", "data"), "/data");
	ck_assert_str_eq(pd_ini_get(ini, "metadata", "cluster"), "iris");
	/* 7 nodes; the 3 [clients] hosts are not nodes */
	ck_assert_str_eq(run->cluster, "iris");
	ck_assert_uint_eq(run->n_nodes, 7);
	expect_node(run, 0, "172.23.100.210", PD_SVC_KV, PD_SVC_KV, "kv#1");
	expect_node(run, 1, "172.23.100.211", PD_SVC_KV, PD_SVC_KV, "kv#2");
	expect_node(run, 2, "172.23.100.212", PD_SVC_KV, PD_SVC_KV, "kv#3");
	expect_node(run, 3, "172.23.100.213", PD_SVC_KV, PD_SVC_KV, "kv#4");
	expect_node(run, 4, "172.23.100.55", PD_SVC_N1QL, PD_SVC_N1QL, "n1ql#1");
	expect_node(run, 5, "172.23.100.45", PD_SVC_INDEX, PD_SVC_INDEX, "index#1");
	expect_node(run, 6, "172.23.100.40", PD_SVC_N1QL, PD_SVC_N1QL, "n1ql#2");
	pd_run_free(run);
}
END_TEST

START_TEST(test_ini_reads_iris_extra_kv_n1ql_spec)
{
	/* 172.23.100.40:kv,n1ql: both services, kv first, so the 5th kv-first node */
	struct pd_run *run = load_spec(PERFRUNNER "clusters_iris_extra_kv_n1ql.spec");
	ck_assert_uint_eq(run->spec.n, 4);
	ck_assert_str_eq(run->cluster, "iris");
	ck_assert_uint_eq(run->n_nodes, 7);
	expect_node(run, 3, "172.23.100.213", PD_SVC_KV, PD_SVC_KV, "kv#4");
	expect_node(run, 4, "172.23.100.55", PD_SVC_N1QL, PD_SVC_N1QL, "n1ql#1");
	expect_node(run, 5, "172.23.100.45", PD_SVC_INDEX, PD_SVC_INDEX, "index#1");
	expect_node(run, 6, "172.23.100.40", PD_SVC_KV | PD_SVC_N1QL, PD_SVC_KV, "kv#5");
	pd_run_free(run);
}
END_TEST

START_TEST(test_ini_reads_aether_n1ql_spec)
{
	struct pd_run *run = load_spec(PERFRUNNER "clusters_aether_n1ql.spec");
	ck_assert_uint_eq(run->spec.n, 4);
	ck_assert_str_eq(pd_ini_get(&run->spec, "clients", "hosts"), "172.23.110.74");
	ck_assert_str_eq(run->cluster, "aether");
	ck_assert_uint_eq(run->n_nodes, 7);
	expect_node(run, 0, "172.23.110.53", PD_SVC_KV, PD_SVC_KV, "kv#1");
	expect_node(run, 1, "172.23.110.54", PD_SVC_KV, PD_SVC_KV, "kv#2");
	expect_node(run, 2, "172.23.110.56", PD_SVC_KV, PD_SVC_KV, "kv#3");
	expect_node(run, 3, "172.23.110.71", PD_SVC_KV, PD_SVC_KV, "kv#4");
	expect_node(run, 4, "172.23.110.72", PD_SVC_INDEX, PD_SVC_INDEX, "index#1");
	expect_node(run, 5, "172.23.110.55", PD_SVC_N1QL, PD_SVC_N1QL, "n1ql#1");
	expect_node(run, 6, "172.23.110.73", PD_SVC_KV, PD_SVC_KV, "kv#5");
	pd_run_free(run);
}
END_TEST

START_TEST(test_ini_reads_old_and_new_host_forms)
{
	/* fixtures/ini/old_and_new_hosts.spec: 8091 alone and a bare host mean kv; services
	 * after the port's comma; ":Group2" is a server group; "empty" has no service and
	 * gets the role pd_run_assign_roles gives such nodes ("node#<position>") */
	struct pd_run *run = load_spec(OWN_INI "old_and_new_hosts.spec");
	ck_assert_str_eq(run->cluster, "vesta");
	ck_assert_uint_eq(run->n_nodes, 6);
	expect_node(run, 0, "192.0.2.1", PD_SVC_KV, PD_SVC_KV, "kv#1");
	expect_node(run, 1, "192.0.2.2", PD_SVC_N1QL, PD_SVC_N1QL, "n1ql#1");
	expect_node(run, 2, "192.0.2.3", PD_SVC_KV, PD_SVC_KV, "kv#2");
	expect_node(run, 3, "192.0.2.4", PD_SVC_KV | PD_SVC_INDEX, PD_SVC_KV, "kv#3");
	expect_node(run, 4, "192.0.2.5", PD_SVC_INDEX | PD_SVC_N1QL, PD_SVC_INDEX, "index#1");
	expect_node(run, 5, "192.0.2.6", 0, 0, "node#6");
	/* the blank line and the comment before juno do not join vesta's value */
	ck_assert_str_eq(pd_ini_get(&run->spec, "clusters", "juno"), "192.0.2.7:kv");
	pd_run_free(run);
}
END_TEST

static void load_test(struct pd_ini *ini, struct pd_testcfg *cfg, const char *path)
{
	struct pd_err err = PD_ERR_INIT;
	parse_file(ini, path);
	ck_assert_msg(pd_testcfg_load(cfg, ini, &err) == 0, "%s: %s", path, err.msg);
}

static void testcfg_free(struct pd_testcfg *cfg)
{
	free(cfg->test);
	free(cfg->title);
	free(cfg->shutdown_type);
	memset(cfg, 0, sizeof(*cfg));
}

START_TEST(test_ini_reads_throughput_test)
{
	struct pd_ini ini = {0};
	struct pd_testcfg cfg = {0};
	load_test(&ini, &cfg,
		  PERFRUNNER
		  "tests_n1ql_collections_n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i.test");
	ck_assert_uint_eq(ini.n, 33);
	ck_assert_str_eq(cfg.test, "perfrunner.tests.n1ql.N1QLThroughputTest");
	ck_assert_str_eq(cfg.title, "Q3, Range Scan, Plasma, not_bounded, s=1 c=1 i=1");
	ck_assert_int_eq(cfg.initial_nodes, 6);
	ck_assert_int_eq(cfg.access_time_s, 1200);
	ck_assert_ptr_null(cfg.shutdown_type);
	ck_assert_int_eq(cfg.stats_interval_s, 5); /* absent: perfrunner's INTERVAL = 5 */
	/* split at the first '=' only; dots in keys; JSON in values */
	ck_assert_str_eq(pd_ini_get(&ini, "n1ql-range-scan", "statement"),
			 "SELECT name AS _name, street AS _street FROM `bucket-1` WHERE "
			 "capped_small=$1;");
	ck_assert_str_eq(pd_ini_get(&ini, "n1ql-range-scan", "args"), "[\"{capped_small}\"]");
	ck_assert_str_eq(pd_ini_get(&ini, "secondary", "indexer.settings.storage_mode"),
			 "plasma");
	testcfg_free(&cfg);
	pd_ini_free(&ini);
}
END_TEST

START_TEST(test_ini_reads_hard_failover_test)
{
	struct pd_ini ini = {0};
	struct pd_testcfg cfg = {0};
	load_test(&ini, &cfg,
		  PERFRUNNER
		  "tests_n1ql_collections_n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_"
		  "1s_1c_1i.test");
	ck_assert_uint_eq(ini.n, 34);
	ck_assert_str_eq(cfg.test, "perfrunner.tests.n1ql.N1QLThroughputShutdownTest");
	ck_assert_str_eq(cfg.title, "Q3, Range Scan, Plasma, not_bounded, Hard Failover, Query "
				    "Service Only, s=1 c=1 i=1");
	ck_assert_int_eq(cfg.initial_nodes, 7);
	ck_assert_int_eq(cfg.access_time_s, 1200);
	ck_assert_str_eq(cfg.shutdown_type, "hard_failover");
	testcfg_free(&cfg);
	pd_ini_free(&ini);
}
END_TEST

START_TEST(test_ini_reads_graceful_failover_test)
{
	struct pd_ini ini = {0};
	struct pd_testcfg cfg = {0};
	load_test(&ini, &cfg,
		  PERFRUNNER "tests_n1ql_collections_n1ql_thr_Q3_20M_gsi_plasma_ok_graceful_"
			     "failover_1s_1c_1i.test");
	ck_assert_uint_eq(ini.n, 34);
	ck_assert_str_eq(cfg.test, "perfrunner.tests.n1ql.N1QLThroughputShutdownTest");
	ck_assert_str_eq(cfg.title, "Q3, Range Scan, Plasma, not_bounded, Graceful Failover, "
				    "Query+Data Service, s=1 c=1 i=1");
	ck_assert_int_eq(cfg.initial_nodes, 7);
	ck_assert_int_eq(cfg.access_time_s, 1200);
	ck_assert_str_eq(cfg.shutdown_type, "graceful_failover");
	testcfg_free(&cfg);
	pd_ini_free(&ini);
}
END_TEST

START_TEST(test_ini_reads_kv_hard_failover_test)
{
	/* no [access] time and no shutdown type; [rebalance] is read as plain entries */
	struct pd_ini ini = {0};
	struct pd_testcfg cfg = {0};
	load_test(&ini, &cfg, PERFRUNNER "tests_reb_failover_100M_dgm_kv_hard.test");
	ck_assert_uint_eq(ini.n, 25);
	ck_assert_str_eq(cfg.test, "perfrunner.tests.rebalance.HardFailoverTest");
	ck_assert_str_eq(cfg.title,
			 "Hard failover (ms), 4 -> 3, 1 bucket x 100M x 2KB, 10K ops/sec");
	ck_assert_int_eq(cfg.initial_nodes, 4);
	ck_assert_int_eq(cfg.access_time_s, 0);
	ck_assert_ptr_null(cfg.shutdown_type);
	ck_assert_str_eq(pd_ini_get(&ini, "rebalance", "failed_nodes"), "1");
	ck_assert_str_eq(pd_ini_get(&ini, "rebalance", "start_after"), "300");
	ck_assert_int_eq(ini.e[ini.n - 1].line, 40);
	testcfg_free(&cfg);
	pd_ini_free(&ini);
}
END_TEST

START_TEST(test_ini_continuation_comments_and_delimiters)
{
	/* Python's configparser gives k = "\na\n\nb\nc" (we drop the leading '\n'),
	 * j = "x y\n[not a section]", empty = "", url = "http://h:8091/x = y",
	 * [t] k = "v # not a comment" */
	const char *t =
		"[s]\nk =\n  a\n\n  b\n# c\n  ; d\n  c\n\n\nj: x y \n  [not a section]\n"
		"empty =\nurl = http://h:8091/x = y\n[t]\nk = v # not a comment\n";
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(parse_text(&ini, t, strlen(t), &pd_limits_default, &err), 0);
	ck_assert_uint_eq(ini.n, 5);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "k"), "a\n\nb\nc");
	/* a at line 3, b at 5 after a blank line, c at 8 after two comments */
	ck_assert_int_eq(pd_ini_line_at(&ini.e[0], 0), 3);
	ck_assert_int_eq(pd_ini_line_at(&ini.e[0], 3), 5);
	ck_assert_int_eq(pd_ini_line_at(&ini.e[0], 5), 8);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "j"), "x y\n[not a section]");
	ck_assert_int_eq(ini.e[1].line, 11);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "empty"), "");
	ck_assert_str_eq(pd_ini_get(&ini, "s", "url"), "http://h:8091/x = y");
	ck_assert_str_eq(pd_ini_get(&ini, "t", "k"), "v # not a comment");
	ck_assert_str_eq(ini.path, "t.ini");
	pd_ini_free(&ini);
}
END_TEST

START_TEST(test_ini_accepts_crlf_bom_and_no_final_newline)
{
	const char *t = "\xef\xbb\xbf[s]\r\nk = v\r\n  w\r\nlast=1";
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(parse_text(&ini, t, strlen(t), &pd_limits_default, &err), 0);
	ck_assert_uint_eq(ini.n, 2);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "k"), "v\nw");
	ck_assert_str_eq(pd_ini_get(&ini, "s", "last"), "1");
	ck_assert_int_eq(ini.e[1].line, 4);
	pd_ini_free(&ini);
}
END_TEST

START_TEST(test_ini_keys_keep_case_and_default_section_fills_in)
{
	/* optionxform = str: "K" is not "k"; [DEFAULT] gives every section its options */
	const char *t = "[DEFAULT]\nd = 7\n[s]\nk = 1\nK = 2\n";
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(parse_text(&ini, t, strlen(t), &pd_limits_default, &err), 0);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "k"), "1");
	ck_assert_str_eq(pd_ini_get(&ini, "s", "K"), "2");
	ck_assert_str_eq(pd_ini_get(&ini, "s", "d"), "7");
	ck_assert_ptr_null(pd_ini_get(&ini, "x", "k"));
	pd_ini_free(&ini);
}
END_TEST

START_TEST(test_ini_interpolates_like_basic_interpolation)
{
	/* configparser: "%%" is '%', "%(k)s" the value of k in the section (or DEFAULT); a
	 * lone '%' fails only when the value is read (get), so parsing succeeds */
	const char *t = "[DEFAULT]\nroot = /data\n[showfast]\ntitle = 99%% of reads, "
			"%(who)s\nwho = n1ql %(root)s\nbad = 5% more\n";
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(parse_text(&ini, t, strlen(t), &pd_limits_default, &err), 0);
	ck_assert_str_eq(pd_ini_get(&ini, "showfast", "title"), "99% of reads, n1ql /data");
	ck_assert_str_eq(pd_ini_get(&ini, "showfast", "bad"), "5% more");
	ck_assert_uint_eq(ini.n, 4); /* root, title, who, bad */
	ck_assert_str_eq(ini.e[3].key, "bad");
	ck_assert_ptr_nonnull(ini.e[3].bad_interp);
	ck_assert_ptr_null(ini.e[1].bad_interp);
	pd_ini_free(&ini);
	/* the title is read: its failure is the file's error */
	struct pd_testcfg cfg = {0};
	t = "[showfast]\ntitle = 5% more\n";
	ck_assert_int_eq(parse_text(&ini, t, strlen(t), &pd_limits_default, &err), 0);
	ck_assert_int_eq(pd_testcfg_load(&cfg, &ini, &err), PD_EPARSE);
	ck_assert_msg(strstr(err.msg, "[showfast] title: '%' must be followed") != NULL, "%s",
		      err.msg);
	ck_assert_int_eq(err.line, 2);
	pd_ini_free(&ini);
	free(cfg.test), free(cfg.title), free(cfg.shutdown_type);
}
END_TEST

START_TEST(test_ini_interpolation_depth_and_scope_as_configparser)
{
	/* Python 3.11, ConfigParser(), optionxform = str: on "[s] x0 = a, xN = %(xN-1)s",
	 * get('s', 'x10') is 'a' (x1 is the tenth level; x0, without '%', is not
	 * interpolated) and get('s', 'x11') raises InterpolationDepthError; a cycle raises
	 * it too; a [DEFAULT] value read in [s] takes [s]'s b: "[DEFAULT] a = %(b)s-%(c)s,
	 * b = 1, c = %%; [s] b = 2; [t] k = %(a)s" gives get('s','a') '2-%' and
	 * get('t','k') '1-%' */
	struct pd_buf t = PD_BUF_INIT;
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	pd_buf_adds(&t, "[s]\nx0 = a\n");
	for (int i = 1; i <= 11; i++)
		pd_buf_addf(&t, "x%d = %%(x%d)s\n", i, i - 1);
	pd_buf_adds(&t, "c1 = %(c2)s\nc2 = %(c1)s\n");
	ck_assert_int_eq(parse_text(&ini, t.ptr, t.len, &pd_limits_default, &err), 0);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "x10"), "a");
	ck_assert_str_eq(pd_ini_get(&ini, "s", "x11"), "%(x10)s");
	ck_assert_ptr_nonnull(strstr(ini.e[11].bad_interp, "more than 10 deep"));
	ck_assert_ptr_nonnull(strstr(ini.e[12].bad_interp, "more than 10 deep"));
	ck_assert_ptr_nonnull(strstr(ini.e[13].bad_interp, "more than 10 deep"));
	pd_ini_free(&ini);
	pd_buf_release(&t);
	const char *d =
		"[DEFAULT]\na = %(b)s-%(c)s\nb = 1\nc = %%\n[s]\nb = 2\n[t]\nk = %(a)s\n";
	ck_assert_int_eq(parse_text(&ini, d, strlen(d), &pd_limits_default, &err), 0);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "a"), "1-%"); /* a is [DEFAULT]'s entry */
	ck_assert_str_eq(pd_ini_get(&ini, "t", "k"), "1-%");
	pd_ini_free(&ini);
	d = "[DEFAULT]\na = %(b)s-%(c)s\nb = 1\nc = %%\n[s]\nb = 2\nk = %(a)s\n";
	ck_assert_int_eq(parse_text(&ini, d, strlen(d), &pd_limits_default, &err), 0);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "k"), "2-%"); /* a read in [s]: [s]'s b */
	pd_ini_free(&ini);
}
END_TEST

/* The interpolation bomb: [DEFAULT] x0 = 1000 'A', then xN = ten %(xN-1)s, nine levels:
 * x9 would be 10^12 bytes (x0 10^3, each level times ten) in 1.7 KB of input. */
static void make_bomb(struct pd_buf *t)
{
	pd_buf_adds(t, "[DEFAULT]\nx0 = ");
	for (int i = 0; i < 1000; i++)
		pd_buf_addch(t, 'A');
	for (int k = 1; k <= 9; k++) {
		pd_buf_addf(t, "\nx%d =", k);
		for (int i = 0; i < 10; i++)
			pd_buf_addf(t, " %%(x%d)s", k - 1);
	}
	pd_buf_addch(t, '\n');
}

START_TEST(test_ini_interpolation_bomb_is_capped_and_an_error_where_read)
{
	struct pd_buf t = PD_BUF_INIT;
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	struct pd_testcfg cfg = {0};
	make_bomb(&t);
	ck_assert_uint_lt(t.len, 1800);
	pd_buf_adds(&t, "[access]\ntime = %(x9)s\n[stats]\ninterval = 1\n");
	ck_assert_int_eq(parse_text(&ini, t.ptr, t.len, &pd_limits_default, &err), 0);
	/* x2: 10 x (10 x 1000 + 9 blanks) + 9 blanks = 100099 bytes, under the 1 MiB cap */
	ck_assert_uint_eq(strlen(pd_ini_get(&ini, "DEFAULT", "x2")), 100099);
	/* x3 is 1000999 bytes, under 1 MiB too; x4, ten times more, is past it */
	ck_assert_uint_eq(strlen(pd_ini_get(&ini, "DEFAULT", "x3")), 1000999);
	ck_assert_ptr_nonnull(strstr(ini.e[4].bad_interp, "expands past 1048576 bytes"));
	ck_assert_ptr_nonnull(ini.e[9].bad_interp);
	/* read: the file's error at the line of the key */
	ck_assert_int_eq(pd_testcfg_load(&cfg, &ini, &err), PD_EPARSE);
	ck_assert_int_eq(err.line, 13);
	ck_assert_msg(strstr(err.msg, "[access] time: interpolation expands past") != NULL,
		      "%s", err.msg);
	pd_ini_free(&ini);
	pd_buf_release(&t);
	free(cfg.test), free(cfg.title), free(cfg.shutdown_type);
}
END_TEST

START_TEST(test_ini_interpolation_cap_for_the_whole_file)
{
	/* each value fits (x3: 1000999 bytes, 1002109 counting its 1110 references) but not
	 * all fit 16 MiB (16777216) in all: [DEFAULT]'s x1, x2, x3 cost 10019 + 100209 +
	 * 1002109 = 1112337, then each y 1002110 (its reference too): y0..y14 take the total
	 * to 16144 k, y15 would pass 16777216 and keeps its raw text, y16 too */
	struct pd_buf t = PD_BUF_INIT;
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	make_bomb(&t);
	pd_buf_adds(&t, "[s]\n");
	for (int i = 0; i < 17; i++)
		pd_buf_addf(&t, "y%d = %%(x3)s\n", i);
	ck_assert_int_eq(parse_text(&ini, t.ptr, t.len, &pd_limits_default, &err), 0);
	ck_assert_uint_eq(strlen(pd_ini_get(&ini, "s", "y14")), 1000999);
	ck_assert_str_eq(pd_ini_get(&ini, "s", "y15"), "%(x3)s");
	ck_assert_str_eq(pd_ini_get(&ini, "s", "y16"), "%(x3)s");
	ck_assert_ptr_nonnull(strstr(ini.e[10 + 15].bad_interp, "16 times that"));
	pd_ini_free(&ini);
	pd_buf_release(&t);
}
END_TEST

START_TEST(test_ini_splits_lines_at_a_lone_cr)
{
	/* Python reads files with universal newlines: "\r" alone ends a line */
	const char *t =
		"[clusters]\riris =\r  10.0.0.1:kv\r  10.0.0.2:n1ql\r[stats]\rinterval = 1\r";
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(parse_text(&ini, t, strlen(t), &pd_limits_default, &err), 0);
	ck_assert_uint_eq(ini.n, 2);
	ck_assert_str_eq(pd_ini_get(&ini, "clusters", "iris"), "10.0.0.1:kv\n10.0.0.2:n1ql");
	ck_assert_str_eq(pd_ini_get(&ini, "stats", "interval"), "1");
	ck_assert_int_eq(ini.e[1].line, 6);
	pd_ini_free(&ini);
}
END_TEST

START_TEST(test_ini_rejects_duplicate_option_and_section)
{
	/* strict=True (ConfigParser's default, which perfrunner keeps) */
	const char *t = "[s]\nk = 1\nk = 2\n";
	ck_assert_str_eq(expect_error(t, strlen(t), &pd_limits_default, PD_EPARSE, 3, 0),
			 "option 'k' in section [s] already given on line 2 (configparser, "
			 "strict as perfrunner uses it, refuses a duplicate)");
	t = "[s]\nk = 1\n[t]\n[s]\nj = 2\n";
	ck_assert_str_eq(expect_error(t, strlen(t), &pd_limits_default, PD_EPARSE, 4, 1),
			 "section [s] given twice (configparser, strict as perfrunner uses "
			 "it, refuses a duplicate)");
}
END_TEST

/* Parses t (len bytes), expects code at line:col, and returns the message (static). */
static const char *expect_error(const char *t, size_t len, const struct pd_limits *lim,
				int code, long line, long col)
{
	static struct pd_err err;
	struct pd_ini ini = {0};
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(parse_text(&ini, t, len, lim, &err), code);
	ck_assert_str_eq(err.path, "t.ini");
	ck_assert_msg(err.line == line && err.col == col, "%ld:%ld: %s", err.line, err.col,
		      err.msg);
	ck_assert_uint_eq(ini.n, 0);
	ck_assert_ptr_null(ini.e);
	ck_assert_ptr_null(ini.path);
	return err.msg;
}

START_TEST(test_ini_rejects_key_before_section)
{
	const char *t = "# spec\nkey = v\n[a]\n";
	ck_assert_str_eq(expect_error(t, strlen(t), &pd_limits_default, PD_EPARSE, 2, 1),
			 "expected a [section] header before 'key = v'");
}
END_TEST

START_TEST(test_ini_rejects_unterminated_section)
{
	/* "[clusters" is 9 bytes: the error points after it, column 10 */
	const char *t = "[a]\nx = 1\n[clusters\niris =\n";
	/* configparser's SECTCRE does not match it: an option line without '=' or ':' */
	ck_assert_str_eq(expect_error(t, strlen(t), &pd_limits_default, PD_EPARSE, 3, 10),
			 "expected '=' or ':' after key '[clusters'");
	t = "[a]\n[]\n";
	ck_assert_str_eq(expect_error(t, strlen(t), &pd_limits_default, PD_EPARSE, 2, 3),
			 "expected '=' or ':' after key '[]'");
}
END_TEST

START_TEST(test_ini_rejects_line_without_delimiter)
{
	/* "foo bar" has neither '=' nor ':' and is not indented under a key */
	const char *t = "[a]\nk = v\nfoo bar\n";
	ck_assert_str_eq(expect_error(t, strlen(t), &pd_limits_default, PD_EPARSE, 3, 8),
			 "expected '=' or ':' after key 'foo bar'");
	t = "[a]\n = v\n";
	ck_assert_str_eq(expect_error(t, strlen(t), &pd_limits_default, PD_EPARSE, 2, 2),
			 "expected a key before '='");
}
END_TEST

START_TEST(test_ini_rejects_nul_byte)
{
	/* "[a]\n" is bytes 0-3, "k = v" 4-8, the NUL byte 9: line 2, column 6 */
	static const char t[] = "[a]\nk = v\0w\n";
	ck_assert_str_eq(expect_error(t, sizeof(t) - 1, &pd_limits_default, PD_EPARSE, 2, 6),
			 "unexpected NUL byte");
}
END_TEST

START_TEST(test_ini_rejects_long_line)
{
	/* max_line 8: "k = 1234" (8 bytes) passes, "k = 12345" (9) does not */
	struct pd_limits lim = pd_limits_default;
	struct pd_ini ini = {0};
	struct pd_err err = PD_ERR_INIT;
	lim.max_line = 8;
	const char *ok = "[a]\nk = 1234\n";
	ck_assert_int_eq(parse_text(&ini, ok, strlen(ok), &lim, &err), 0);
	pd_ini_free(&ini);
	const char *t = "[a]\nk = 12345\n";
	const char *msg = expect_error(t, strlen(t), &lim, PD_ELIMIT, 2, 1);
	ck_assert_msg(strstr(msg, "longer than 8 bytes") != NULL, "%s", msg);
}
END_TEST

START_TEST(test_testcfg_rejects_bad_integer)
{
	struct pd_ini ini = {0};
	struct pd_testcfg cfg = {0};
	struct pd_err err = PD_ERR_INIT;
	parse_file(&ini, OWN_INI "bad_integer.test");
	ck_assert_int_eq(pd_testcfg_load(&cfg, &ini, &err), PD_EPARSE);
	ck_assert_str_eq(err.path, OWN_INI "bad_integer.test");
	ck_assert_int_eq(err.line, 6);
	ck_assert_str_eq(err.msg,
			 "expected a non-negative integer for [access] time, got '12x0'");
	ck_assert_ptr_null(cfg.test); /* nothing filled on failure */
	pd_ini_free(&ini);
}
END_TEST

static int testcfg_of(struct pd_testcfg *cfg, const char *t, struct pd_err *err)
{
	struct pd_ini ini = {0};
	int rc;
	ck_assert_int_eq(parse_text(&ini, t, strlen(t), &pd_limits_default, err), 0);
	rc = pd_testcfg_load(cfg, &ini, err);
	pd_ini_free(&ini);
	return rc;
}

START_TEST(test_testcfg_integer_forms)
{
	struct pd_testcfg cfg = {0};
	struct pd_err err = PD_ERR_INIT;
	/* XDCR tests give one count per cluster: the first is ours */
	ck_assert_int_eq(testcfg_of(&cfg,
				    "[cluster]\ninitial_nodes = 4 3\n[stats]\ninterval = +2\n"
				    "[access]\ntime = 0\n",
				    &err),
			 0);
	ck_assert_int_eq(cfg.initial_nodes, 4);
	ck_assert_int_eq(cfg.stats_interval_s, 2);
	ck_assert_int_eq(cfg.access_time_s, 0);
	testcfg_free(&cfg);
	ck_assert_int_eq(testcfg_of(&cfg, "[cluster]\ninitial_nodes = 4 x\n", &err), PD_EPARSE);
	ck_assert_int_eq(err.line, 2);
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(testcfg_of(&cfg, "[access]\ntime = -5\n", &err), PD_EPARSE);
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(testcfg_of(&cfg, "[access]\ntime =\n", &err), PD_EPARSE);
	err = (struct pd_err)PD_ERR_INIT;
	/* 2^31 does not fit the int field */
	ck_assert_int_eq(testcfg_of(&cfg, "[stats]\ninterval = 2147483648\n", &err), PD_EPARSE);
	ck_assert_msg(strstr(err.msg, "expected at most 2147483647 for [stats] interval") !=
			      NULL,
		      "%s", err.msg);
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(testcfg_of(&cfg, "[access]\ntime = 99999999999999999999\n", &err),
			 PD_EPARSE);
	testcfg_free(&cfg);
}
END_TEST

static struct pd_err spec_err; /* spec_error's, for its line */

static const char *spec_error(const char *t, struct pd_run *run)
{
	struct pd_ini ini = {0};
	spec_err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(parse_text(&ini, t, strlen(t), &pd_limits_default, &spec_err), 0);
	ck_assert_int_eq(pd_spec_load(run, &ini, &spec_err), PD_EPARSE);
	ck_assert_str_eq(spec_err.path, "t.ini");
	pd_ini_free(&ini);
	return spec_err.msg;
}

START_TEST(test_spec_rejects_unknown_service_and_keeps_run_unchanged)
{
	struct pd_run *run = pd_run_new("");
	const char *msg = spec_error("[clusters]\nc =\n  1.2.3.4:kv\n  1.2.3.5:kv,foo\n", run);
	ck_assert_str_eq(msg, "unknown service 'foo' in '1.2.3.5:kv,foo' ([clusters] c)");
	ck_assert_int_eq(spec_err.line, 4); /* the host's line, not the key's (2) */
	/* after a blank line and a comment: line 6 */
	msg = spec_error("[clusters]\nc =\n  1.2.3.4:kv\n\n  # x\n  :kv\n", run);
	ck_assert_str_eq(msg, "expected a host before ':' in ':kv' ([clusters] c)");
	ck_assert_int_eq(spec_err.line, 6);
	/* interpolated from one-line values, the lines are still the source's: line 6 */
	msg = spec_error("[DEFAULT]\nh = 1.2.3.4\n[clusters]\nc =\n  %(h)s:kv\n  1.2.3.5:kv,\n",
			 run);
	ck_assert_str_eq(msg, "expected a service name in '1.2.3.5:kv,' ([clusters] c)");
	ck_assert_int_eq(spec_err.line, 6);
	/* a reference that brings a line break: the value's lines are not the source's, the
	 * key's (5) */
	msg = spec_error("[DEFAULT]\nh = 1.2.3.4:kv\n  1.2.3.6:kv\n[clusters]\nc =\n  %(h)s\n"
			 "  1.2.3.5:kv,\n",
			 run);
	ck_assert_str_eq(msg, "expected a service name in '1.2.3.5:kv,' ([clusters] c)");
	ck_assert_int_eq(spec_err.line, 5);
	ck_assert_uint_eq(run->n_nodes, 0);
	ck_assert_ptr_null(run->cluster);
	msg = spec_error("[clusters]\nc = 1.2.3.4:kv,\n", run);
	ck_assert_str_eq(msg, "expected a service name in '1.2.3.4:kv,' ([clusters] c)");
	msg = spec_error("[clusters]\nc = :kv\n", run);
	ck_assert_str_eq(msg, "expected a host before ':' in ':kv' ([clusters] c)");
	msg = spec_error("[clusters]\nc =\n", run);
	ck_assert_str_eq(msg, "expected hosts for cluster 'c' in [clusters]");
	ck_assert_uint_eq(run->n_nodes, 0);
	pd_run_free(run);
}
END_TEST

static struct pd_run *spec_of(const char *t, int initial_nodes)
{
	struct pd_run *run = pd_run_new("");
	struct pd_err err = PD_ERR_INIT;
	struct pd_src src = {t, strlen(t), "clusters/xdcr.spec", &pd_limits_default};
	run->cfg.initial_nodes = initial_nodes;
	ck_assert_int_eq(pd_ini_parse(&run->spec, &src, &err), 0);
	ck_assert_msg(pd_spec_load(run, &run->spec, &err) == 0, "%s", err.msg);
	return run;
}

static int has_note(const struct pd_run *run, const char *part)
{
	for (size_t i = 0; i < run->notes.n; i++)
		if (strstr(run->notes.v[i], part))
			return 1;
	return 0;
}

START_TEST(test_spec_honours_initial_nodes)
{
	/* the seed's baseline: initial_nodes = 6 on the 7-node iris_extra_n1ql.spec; the
	 * run's cluster is servers[:6] (perfrunner/tests/n1ql.py:1675-1676) */
	struct pd_run *run = pd_run_new("");
	struct pd_err err = PD_ERR_INIT;
	run->cfg.initial_nodes = 6;
	parse_file(&run->spec, PERFRUNNER "clusters_iris_extra_n1ql.spec");
	ck_assert_int_eq(pd_spec_load(run, &run->spec, &err), 0);
	ck_assert_uint_eq(run->n_nodes, 6);
	expect_node(run, 4, "172.23.100.55", PD_SVC_N1QL, PD_SVC_N1QL, "n1ql#1");
	expect_node(run, 5, "172.23.100.45", PD_SVC_INDEX, PD_SVC_INDEX, "index#1");
	ck_assert_ptr_null(pd_run_node(run, "172.23.100.40"));
	/* the KPI's second window counts every n1ql server of the spec, .40 too */
	ck_assert_uint_eq(run->spec_n1ql.n, 2);
	ck_assert_str_eq(run->spec_n1ql.v[1], "172.23.100.40");
	ck_assert_uint_eq(run->clients.n, 3);
	ck_assert_str_eq(run->clients.v[0], "172.23.100.44");
	ck_assert_str_eq(run->spec_name, "perfrunner__clusters_iris_extra_n1ql");
	ck_assert(has_note(run, "first 6 of the 7 servers of cluster 'iris'"));
	pd_run_free(run);
}
END_TEST

START_TEST(test_spec_first_cluster_is_the_run_and_fqdns_work)
{
	struct pd_run *run = spec_of("[clusters]\niris =\n  cen-s723.perf.couchbase.com:kv\n"
				     "  cen-s724.perf.couchbase.com:n1ql\niris2 =\n"
				     "  10.0.0.1:kv\n  10.0.0.2:kv,n1ql\n",
				     0);
	ck_assert_str_eq(run->cluster, "iris");
	ck_assert_uint_eq(run->n_nodes, 2);
	expect_node(run, 0, "cen-s723.perf.couchbase.com", PD_SVC_KV, PD_SVC_KV, "kv#1");
	ck_assert_uint_eq(run->others.n, 1);
	ck_assert_str_eq(run->others.v[0], "iris2");
	ck_assert_uint_eq(run->other_hosts.n, 2);
	ck_assert_str_eq(run->other_hosts.v[1], "10.0.0.2");
	ck_assert_str_eq(run->spec_name, "xdcr");
	ck_assert(has_note(run, "the spec lists 1 more cluster (iris2)"));
	pd_run_free(run);
}
END_TEST

START_TEST(test_spec_without_clusters_and_placeholders_are_notes)
{
	struct pd_run *run = spec_of("[clients]\nhosts = 1.2.3.4\n", 0);
	ck_assert_uint_eq(run->n_nodes, 0);
	ck_assert_ptr_null(run->cluster);
	ck_assert(has_note(run, "the spec has no [clusters] section"));
	pd_run_free(run);
	run = spec_of("[clusters]\nc =\n  ec2.ec2_cluster_1.ec2_node_group_1.1:kv\n"
		      "  ec2.ec2_cluster_1.ec2_node_group_1.2:kv\n",
		      0);
	ck_assert_uint_eq(run->n_nodes, 2);
	size_t k = 0;
	for (size_t i = 0; i < run->notes.n; i++)
		k += strstr(run->notes.v[i], "cloud placeholders") != NULL;
	ck_assert_uint_eq(k, 1); /* said once */
	pd_run_free(run);
}
END_TEST

Suite *pd_suite_ini(void)
{
	Suite *s = suite_create("ini");
	TCase *tc = tcase_create("fixtures");
	tcase_add_test(tc, test_ini_reads_iris_extra_n1ql_spec);
	tcase_add_test(tc, test_ini_reads_iris_extra_kv_n1ql_spec);
	tcase_add_test(tc, test_ini_reads_aether_n1ql_spec);
	tcase_add_test(tc, test_ini_reads_old_and_new_host_forms);
	tcase_add_test(tc, test_ini_reads_throughput_test);
	tcase_add_test(tc, test_ini_reads_hard_failover_test);
	tcase_add_test(tc, test_ini_reads_graceful_failover_test);
	tcase_add_test(tc, test_ini_reads_kv_hard_failover_test);
	suite_add_tcase(s, tc);
	tc = tcase_create("dialect");
	tcase_add_test(tc, test_ini_continuation_comments_and_delimiters);
	tcase_add_test(tc, test_ini_accepts_crlf_bom_and_no_final_newline);
	tcase_add_test(tc, test_ini_keys_keep_case_and_default_section_fills_in);
	tcase_add_test(tc, test_ini_interpolates_like_basic_interpolation);
	tcase_add_test(tc, test_ini_interpolation_depth_and_scope_as_configparser);
	tcase_add_test(tc, test_ini_interpolation_bomb_is_capped_and_an_error_where_read);
	tcase_add_test(tc, test_ini_interpolation_cap_for_the_whole_file);
	tcase_add_test(tc, test_ini_splits_lines_at_a_lone_cr);
	tcase_add_test(tc, test_ini_rejects_duplicate_option_and_section);
	suite_add_tcase(s, tc);
	tc = tcase_create("malformed");
	tcase_add_test(tc, test_ini_rejects_key_before_section);
	tcase_add_test(tc, test_ini_rejects_unterminated_section);
	tcase_add_test(tc, test_ini_rejects_line_without_delimiter);
	tcase_add_test(tc, test_ini_rejects_nul_byte);
	tcase_add_test(tc, test_ini_rejects_long_line);
	tcase_add_test(tc, test_testcfg_rejects_bad_integer);
	tcase_add_test(tc, test_testcfg_integer_forms);
	tcase_add_test(tc, test_spec_rejects_unknown_service_and_keeps_run_unchanged);
	tcase_add_test(tc, test_spec_honours_initial_nodes);
	tcase_add_test(tc, test_spec_first_cluster_is_the_run_and_fqdns_work);
	tcase_add_test(tc, test_spec_without_clusters_and_placeholders_are_notes);
	suite_add_tcase(s, tc);
	return s;
}
