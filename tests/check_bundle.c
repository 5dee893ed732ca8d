#include "check_suites.h"

#include "core/file.h"
#include "parse/bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

/* Writes text to root/rel, creating the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	strcpy(root, "/tmp/pd-check-bundle-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void teardown(void)
{
	pd_rm_tree(root);
}

static const char spec[] = "[clusters]\nc =\n    10.0.0.1:kv\n    10.0.0.2:n1ql\n";

/* Two servers, a cluster-scope series and a db of another snapshot (not decodable). */
static void small_bundle(void)
{
	put("perfrunner/c.spec", spec);
	put("perfdb/atopc_1-2_access_abcd10001/memcached_cpu.json",
	    "[[1762107605000,2],[1762107600000,1]]");
	put("perfdb/atopc_1-2_access_abcd10002/cbq-engine_rss.json", "[[1762107600000,5e9]]");
	put("perfdb/n1ql_statsc_1-2_access_abcd/query_requests.json", "[]");
	put("perfdb/atopother10001/memcached_cpu.json", "[[1762107600000,1]]");
}

START_TEST(test_bundle_loads_a_directory_without_console)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	small_bundle();
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err), 0);
	ck_assert_uint_eq(run->n_nodes, 2);
	ck_assert_str_eq(run->nodes[1].role, "n1ql#1");
	/* the snapshot comes from the db names: c_1-2_access_abcd */
	ck_assert_uint_eq(run->snapshots.n, 1);
	ck_assert_str_eq(run->snapshots.v[0], "c_1-2_access_abcd");
	ck_assert_uint_eq(run->n_series, 3);
	ck_assert_uint_eq(run->undecoded.n, 1);
	ck_assert_uint_eq(run->n_samples, 3);
	/* sorted by collector, metric: atop/cbq-engine_rss, atop/memcached_cpu, n1ql_stats */
	ck_assert_str_eq(run->series[0]->metric, "cbq-engine_rss");
	ck_assert_str_eq(run->series[0]->server, "10.0.0.2");
	ck_assert_str_eq(run->series[1]->metric, "memcached_cpu");
	ck_assert_int_eq(run->series[1]->t_ms[0], 1762107600000LL);
	ck_assert_int_eq(run->series[2]->scope, PD_SCOPE_CLUSTER);
	pd_run_free(run);
}
END_TEST

START_TEST(test_bundle_malformed_series_names_file_and_place)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	char want[512];
	small_bundle();
	put("perfdb/atopc_1-2_access_abcd10001/memcached_rss.json",
	    "[[1762107600000,1],\n [2000,]]");
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err), PD_EPARSE);
	ck_assert_ptr_null(run);
	snprintf(want, sizeof(want), "%s/perfdb/atopc_1-2_access_abcd10001/memcached_rss.json",
		 root);
	ck_assert_str_eq(err.path, want);
	ck_assert_int_eq(err.line, 2); /* the ']' where a value was expected: line 2, col 8 */
	ck_assert_int_eq(err.col, 8);
}
END_TEST

START_TEST(test_bundle_rescales_seconds_and_says_so)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	small_bundle();
	/* seconds: 1762107600 s is 1762107600000 ms */
	put("perfdb/atopc_1-2_access_abcd10001/memcached_cpu.json",
	    "[[1762107600,1],[1762107605,2]]");
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err), 0);
	ck_assert_int_eq(run->series[1]->t_ms[1], 1762107605000LL);
	/* no .test, no jenkins, no console, snapshot names from db names, the unit */
	ck_assert_uint_eq(run->notes.n, 5);
	ck_assert_str_eq(run->notes.v[4], "perfdb/atopc_1-2_access_abcd10001/"
					  "memcached_cpu.json: timestamps in s, read as ms");
	pd_run_free(run);
}
END_TEST

START_TEST(test_bundle_without_perfdb_is_an_input_error)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	put("jenkins/consoleText", "Finished: SUCCESS\n");
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err), PD_EPARSE);
	ck_assert(strstr(err.msg, "perfdb/") != NULL);
}
END_TEST

START_TEST(test_bundle_series_limit_is_stated)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_limits lim = pd_limits_default;
	lim.max_series = 2;
	small_bundle();
	ck_assert_int_eq(pd_bundle_load(&run, root, &lim, &err), PD_ELIMIT);
	ck_assert(strstr(err.msg, "--max-series") != NULL);
}
END_TEST

START_TEST(test_bundle_reads_a_tarball)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	char cmd[512], tar[128];
	small_bundle();
	snprintf(tar, sizeof(tar), "%s.tar.gz", root);
	snprintf(cmd, sizeof(cmd), "tar -czf %s -C %s .", tar, root);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(pd_bundle_load(&run, tar, &pd_limits_default, &err), 0);
	ck_assert_uint_eq(run->n_series, 3);
	ck_assert_str_eq(run->dir, tar);
	pd_run_free(run);
	unlink(tar);
}
END_TEST

START_TEST(test_bundle_seed_runs_decode_every_series)
{
	struct pd_run *base = NULL, *fo = NULL;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(
		pd_bundle_load(&base, PD_SEED_DIR "/baseline", &pd_limits_default, &err), 0);
	ck_assert_int_eq(pd_bundle_load(&fo, PD_SEED_DIR "/failover", &pd_limits_default, &err),
			 0);
	ck_assert_uint_eq(base->n_nodes, 6);
	ck_assert_uint_eq(fo->n_nodes, 7);
	ck_assert_str_eq(fo->nodes[6].host, "172.23.100.40");
	ck_assert_str_eq(fo->nodes[6].role, "n1ql#2");
	ck_assert_str_eq(fo->nodes[5].role, "index#1");
	ck_assert_uint_eq(base->undecoded.n, 0);
	ck_assert_uint_eq(fo->undecoded.n, 0);
	ck_assert_uint_gt(fo->n_series, base->n_series);
	ck_assert_str_eq(base->snapshots.v[0], "iris_710-1345_access_a7b6");
	ck_assert_str_eq(fo->snapshots.v[0], "iris_710-1345_failover_8a92");
	pd_run_free(base);
	pd_run_free(fo);
}
END_TEST

START_TEST(test_bundle_pair_loads_both_and_reports_the_baseline_first)
{
	struct pd_run *a = NULL, *b = NULL;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_bundle_load_pair(&a, &b, PD_SEED_DIR "/baseline",
					     PD_SEED_DIR "/failover", &pd_limits_default, &err),
			 0);
	ck_assert_uint_eq(a->n_nodes, 6);
	ck_assert_uint_eq(b->n_nodes, 7);
	pd_run_free(a);
	pd_run_free(b);
	/* both missing: the message is the baseline's, whichever thread failed first */
	ck_assert_int_eq(pd_bundle_load_pair(&a, &b, "/nonexistent/a", "/nonexistent/b",
					     &pd_limits_default, &err),
			 PD_EIO);
	ck_assert_str_eq(err.path, "/nonexistent/a");
	ck_assert_ptr_null(a);
	ck_assert_ptr_null(b);
}
END_TEST

Suite *pd_suite_bundle(void)
{
	Suite *s = suite_create("bundle");
	TCase *tc = tcase_create("bundle");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bundle_loads_a_directory_without_console);
	tcase_add_test(tc, test_bundle_malformed_series_names_file_and_place);
	tcase_add_test(tc, test_bundle_without_perfdb_is_an_input_error);
	tcase_add_test(tc, test_bundle_rescales_seconds_and_says_so);
	tcase_add_test(tc, test_bundle_series_limit_is_stated);
	tcase_add_test(tc, test_bundle_reads_a_tarball);
	tcase_add_test(tc, test_bundle_seed_runs_decode_every_series);
	tcase_add_test(tc, test_bundle_pair_loads_both_and_reports_the_baseline_first);
	suite_add_tcase(s, tc);
	return s;
}
