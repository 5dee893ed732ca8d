#include "check_suites.h"

#include "core/buf.h"
#include "core/file.h"
#include "parse/bundle.h"
#include "parse/tarball.h"

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

/* A series given as both <metric>.json and <metric>.data: exit 3 (PD_EPARSE) naming both
 * files, never one copy picked in silence. */
START_TEST(test_bundle_series_given_twice_names_both_files)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	small_bundle();
	put("perfdb/atopc_1-2_access_abcd10001/memcached_cpu.data", "1762107600000 1\n");
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err), PD_EPARSE);
	ck_assert_ptr_null(run);
	ck_assert_ptr_nonnull(strstr(err.path, "perfdb/atopc_1-2_access_abcd10001"));
	ck_assert_ptr_nonnull(strstr(err.msg, "memcached_cpu.json"));
	ck_assert_ptr_nonnull(strstr(err.msg, "memcached_cpu.data"));
}
END_TEST

/* Without a spec, the nodes come from the console's rebalance (knownNodes) and their roles
 * from their processes: 10.0.0.1 runs memcached alone (kv), 10.0.0.2 and 10.0.0.3
 * cbq-engine (n1ql); 10.0.0.2 is ejected, so it is numbered last: n1ql#2. Said in notes. */
START_TEST(test_bundle_without_spec_infers_roles_from_processes)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	put("jenkins/consoleText",
	    "2025-11-02T10:25:04 [INFO] Starting rebalance with payload: {\n"
	    "    \"ejectedNodes\": \"ns_1@10.0.0.2\",\n"
	    "    \"knownNodes\": \"ns_1@10.0.0.1,ns_1@10.0.0.2,ns_1@10.0.0.3\"\n}\n");
	put("perfdb/atopc_1-2_access_abcd10001/memcached_cpu.json", "[[1762107600000,1]]");
	put("perfdb/atopc_1-2_access_abcd10002/cbq-engine_cpu.json", "[[1762107600000,1]]");
	put("perfdb/atopc_1-2_access_abcd10003/cbq-engine_cpu.json", "[[1762107600000,1]]");
	put("perfdb/atopc_1-2_access_abcd10003/memcached_cpu.json", "[[1762107600000,1]]");
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err), 0);
	ck_assert(run->roles_inferred);
	ck_assert_uint_eq(run->n_nodes, 3);
	ck_assert_str_eq(run->nodes[0].host, "10.0.0.1");
	ck_assert_str_eq(run->nodes[0].role, "kv#1");
	ck_assert_str_eq(run->nodes[1].host, "10.0.0.3");
	ck_assert_str_eq(run->nodes[1].role, "n1ql#1");
	ck_assert_str_eq(run->nodes[2].host, "10.0.0.2");
	ck_assert_str_eq(run->nodes[2].role, "n1ql#2");
	ck_assert_uint_eq(run->n_series, 4); /* every db decoded with the console's hosts */
	int said = 0;
	for (size_t i = 0; i < run->notes.n; i++)
		said |= strstr(run->notes.v[i], "roles are inferred from the processes") !=
			NULL;
	ck_assert(said);
	pd_run_free(run);
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
	/* One series per metric file (fixtures/seed-README.md, the collectors): a node has
	 * ns_server_system 1, atop 3 per process, metrics_rest_api_processes 2 per process,
	 * net 6, iostat 4, meminfo 2; kv 3 processes, n1ql and index 2; the cluster 18
	 * (ns_server 3, n1ql_stats 10, secondary_stats 4, active_tasks 1). Baseline: 4 kv x
	 * (1+9+6+6+4+2) + 2 x (1+6+4+6+4+2) + 18 = 112 + 46 + 18 = 176. The failover run is a
	 * N1QLThroughputShutdownTest, which turns iostat and meminfo off: 4 x 22 + 3 x 17 + 18
	 * = 157 (find perfdb -name '*.json' agrees). */
	ck_assert_uint_eq(base->n_series, 176);
	ck_assert_uint_eq(fo->n_series, 157);
	size_t n_sys = 0;
	for (size_t i = 0; i < fo->n_series; i++)
		n_sys += !strcmp(fo->series[i]->collector, "iostat") ||
			 !strcmp(fo->series[i]->collector, "meminfo");
	ck_assert_uint_eq(n_sys, 0);
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

/* A ustar header for name (type '0' file, '2' symlink, '3' char device, '5' dir ...) of
 * size bytes, appended to b with the data (zeros when data is NULL), padded to 512. */
static void tar_member(struct pd_buf *b, const char *name, char type, const char *data,
		       size_t size)
{
	char h[512] = {0};
	unsigned sum = 0;
	snprintf(h, 100, "%s", name);
	snprintf(h + 100, 8, "%07o", 0644);
	snprintf(h + 108, 8, "%07o", 0);
	snprintf(h + 116, 8, "%07o", 0);
	snprintf(h + 124, 12, "%011zo", size);
	snprintf(h + 136, 12, "%011o", 0);
	h[156] = type;
	if (type == '1' || type == '2')
		snprintf(h + 157, 100, "%s", "run/ok.json"); /* the link's target */
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < 512; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	pd_buf_add(b, h, 512);
	for (size_t i = 0; i < size; i++)
		pd_buf_addch(b, data ? data[i] : '\0');
	while (b->len % 512)
		pd_buf_addch(b, '\0');
}

static void tar_end(struct pd_buf *b)
{
	for (int i = 0; i < 1024; i++)
		pd_buf_addch(b, '\0');
}

static int read_tar(struct pd_tarball **t, const struct pd_buf *b, const struct pd_limits *lim,
		    struct pd_err *err)
{
	return pd_tarball_read_mem(t, b->ptr, b->len, "x.tar", lim, err);
}

START_TEST(test_tarball_index_normalizes_and_sorts)
{
	struct pd_buf b = PD_BUF_INIT;
	struct pd_tarball *t = NULL;
	struct pd_err err = PD_ERR_INIT;
	tar_member(&b, "./", '5', NULL, 0);
	tar_member(&b, "./run//perfdb/./db/m.json", '0', "[]", 2);
	tar_member(&b, "run/a.txt", '0', "abc", 3);
	tar_end(&b);
	ck_assert_int_eq(read_tar(&t, &b, &pd_limits_default, &err), 0);
	ck_assert_uint_eq(t->n,
			  2); /* "./" is the top itself; run/ and run/perfdb are implied */
	ck_assert_str_eq(t->v[0].name, "run/a.txt");
	ck_assert_str_eq(t->v[1].name, "run/perfdb/db/m.json");
	ck_assert_str_eq(pd_tarball_find(t, "run/perfdb/db/m.json")->data, "[]");
	ck_assert_uint_eq(pd_tarball_find(t, "run/a.txt")->len, 3);
	ck_assert_ptr_null(pd_tarball_find(t, "run/perfdb"));
	pd_tarball_free(t);
	pd_buf_release(&b);
}
END_TEST

/* Each refused kind of member: one error naming x.tar:member, and no index. */
START_TEST(test_tarball_refuses_links_devices_and_escaping_names)
{
	static const struct {
		const char *name;
		char type;
		const char *msg;
	} cases[] = {
		{"run/l.json", '2', "a symbolic link: only regular files"},
		{"run/h.json", '1', "a hard link: only regular files"},
		{"run/d.json", '3', "a device: only regular files"},
		{"run/f.json", '6', "a FIFO: only regular files"},
		{"/etc/x.json", '0', "an absolute name or a '..' component"},
		{"run/../../x.json", '0', "an absolute name or a '..' component"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pd_buf b = PD_BUF_INIT;
		struct pd_tarball *t = (struct pd_tarball *)&b; /* set to NULL on error */
		struct pd_err err = PD_ERR_INIT;
		char where[128];
		tar_member(&b, "run/ok.json", '0', "[]", 2);
		tar_member(&b, cases[i].name, cases[i].type, NULL, 0);
		tar_end(&b);
		ck_assert_int_eq(read_tar(&t, &b, &pd_limits_default, &err), PD_EPARSE);
		ck_assert_ptr_null(t);
		snprintf(where, sizeof(where), "x.tar:%s", cases[i].name);
		ck_assert_str_eq(err.path, where);
		ck_assert_msg(strstr(err.msg, cases[i].msg), "%s: %s", cases[i].name, err.msg);
		pd_buf_release(&b);
	}
}
END_TEST

START_TEST(test_tarball_limits_per_member_and_in_total)
{
	struct pd_buf b = PD_BUF_INIT;
	struct pd_tarball *t = NULL;
	struct pd_err err = PD_ERR_INIT, err2 = PD_ERR_INIT;
	struct pd_limits lim = pd_limits_default;
	tar_member(&b, "run/a.json", '0', NULL, 3000);
	tar_member(&b, "run/b.json", '0', NULL, 3000);
	tar_end(&b);
	lim.max_file_bytes = 2999;
	ck_assert_int_eq(read_tar(&t, &b, &lim, &err), PD_ELIMIT);
	ck_assert_str_eq(err.path, "x.tar:run/a.json");
	ck_assert(strstr(err.msg, "--max-file-size") != NULL);
	/* each member fits, both do not: 2 headers and 2 x 3072 bytes of data is 7168 */
	lim.max_file_bytes = 3000;
	lim.max_bundle_bytes = 6000;
	ck_assert_int_eq(read_tar(&t, &b, &lim, &err2), PD_ELIMIT);
	ck_assert_str_eq(err2.path, "x.tar:run/b.json");
	ck_assert(
		strstr(err2.msg, "more than 6000 bytes uncompressed (see --max-bundle-size)"));
	lim.max_bundle_bytes = 8192;
	ck_assert_int_eq(read_tar(&t, &b, &lim, &err), 0);
	ck_assert_uint_eq(t->n, 2);
	pd_tarball_free(t);
	pd_buf_release(&b);
}
END_TEST

START_TEST(test_tarball_refuses_a_name_twice_and_garbage)
{
	struct pd_buf b = PD_BUF_INIT;
	struct pd_tarball *t = NULL;
	struct pd_err err = PD_ERR_INIT, err2 = PD_ERR_INIT;
	tar_member(&b, "run/a.json", '0', "[]", 2);
	tar_member(&b, "./run/a.json", '0', "{}", 2);
	tar_end(&b);
	ck_assert_int_eq(read_tar(&t, &b, &pd_limits_default, &err), PD_EPARSE);
	ck_assert_str_eq(err.path, "x.tar:run/a.json");
	ck_assert(strstr(err.msg, "twice") != NULL);
	ck_assert_int_eq(pd_tarball_read_mem(&t, "not a tarball", 13, "y.tar",
					     &pd_limits_default, &err2),
			 PD_EPARSE);
	ck_assert_str_eq(err2.path, "y.tar");
	ck_assert(strstr(err2.msg, "not a readable .tar or .tar.gz") != NULL);
	pd_buf_release(&b);
}
END_TEST

/* The same bundle as a directory and as a .tar.gz of it: the same run, but for its paths. */
START_TEST(test_bundle_tarball_equals_its_directory)
{
	struct pd_run *d = NULL, *t = NULL;
	struct pd_err err = PD_ERR_INIT;
	char cmd[512], tar[128];
	small_bundle();
	put("jenkins/consoleText", "Finished: SUCCESS\n");
	snprintf(tar, sizeof(tar), "%s-top.tar.gz", root);
	snprintf(cmd, sizeof(cmd), "tar -czf %s -C %s/.. %s", tar, root, root + 5);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(pd_bundle_load(&d, root, &pd_limits_default, &err), 0);
	ck_assert_int_eq(pd_bundle_load(&t, tar, &pd_limits_default, &err), 0);
	ck_assert_uint_eq(t->n_series, d->n_series);
	ck_assert_uint_eq(t->n_samples, d->n_samples);
	ck_assert_uint_eq(t->n_nodes, d->n_nodes);
	ck_assert_uint_eq(t->notes.n, d->notes.n);
	for (size_t i = 0; i < d->notes.n; i++)
		ck_assert_str_eq(t->notes.v[i], d->notes.v[i]);
	for (size_t i = 0; i < d->n_series; i++) {
		ck_assert_str_eq(t->series[i]->db, d->series[i]->db);
		ck_assert_str_eq(t->series[i]->metric, d->series[i]->metric);
		ck_assert_uint_eq(t->series[i]->n, d->series[i]->n);
		for (size_t k = 0; k < d->series[i]->n; k++)
			ck_assert_int_eq(t->series[i]->t_ms[k], d->series[i]->t_ms[k]);
	}
	pd_run_free(d);
	pd_run_free(t);
	unlink(tar);
}
END_TEST

START_TEST(test_bundle_refuses_a_fifo_and_a_link_in_a_directory)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT, err2 = PD_ERR_INIT;
	char path[256], want[256];
	small_bundle();
	snprintf(path, sizeof(path), "%s/perfdb/atopc_1-2_access_abcd10001/memcached_rss.json",
		 root);
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err), PD_EIO);
	ck_assert_str_eq(err.path, path);
	ck_assert_str_eq(err.msg, "not a regular file (a FIFO, device or socket)");
	unlink(path);
	ck_assert_int_eq(symlink("/etc/hostname", path), 0);
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err2), PD_EIO);
	ck_assert_str_eq(err2.path, path);
	snprintf(want, sizeof(want), "%s",
		 "a symbolic link: only regular files and directories "
		 "inside the bundle are read");
	ck_assert_str_eq(err2.msg, want);
	ck_assert_ptr_null(run);
}
END_TEST

/* Times out of 2000..2100 are input errors at their place; checked before the rescale of
 * a body in seconds, which would overflow. */
START_TEST(test_bundle_refuses_implausible_times)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT, err2 = PD_ERR_INIT;
	small_bundle();
	put("perfdb/atopc_1-2_access_abcd10001/memcached_cpu.json",
	    "[[1762107600000,1],\n[4102444800000,2]]");
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err), PD_EPARSE);
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(err.col, 2);
	ck_assert(strstr(err.msg, "timestamp 4102444800000 out of range") != NULL);
	/* 9e15 s: times 1000 is past INT64_MAX */
	put("perfdb/atopc_1-2_access_abcd10001/memcached_cpu.json",
	    "[[1762107600,1],[9000000000000000,2]]");
	ck_assert_int_eq(pd_bundle_load(&run, root, &pd_limits_default, &err2), PD_EPARSE);
	ck_assert_int_eq(err2.col, 18);
	ck_assert_ptr_null(run);
}
END_TEST

Suite *pd_suite_bundle(void)
{
	Suite *s = suite_create("bundle");
	TCase *tc = tcase_create("bundle");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bundle_loads_a_directory_without_console);
	tcase_add_test(tc, test_bundle_malformed_series_names_file_and_place);
	tcase_add_test(tc, test_bundle_series_given_twice_names_both_files);
	tcase_add_test(tc, test_bundle_without_spec_infers_roles_from_processes);
	tcase_add_test(tc, test_bundle_without_perfdb_is_an_input_error);
	tcase_add_test(tc, test_bundle_rescales_seconds_and_says_so);
	tcase_add_test(tc, test_bundle_series_limit_is_stated);
	tcase_add_test(tc, test_bundle_reads_a_tarball);
	tcase_add_test(tc, test_bundle_seed_runs_decode_every_series);
	tcase_add_test(tc, test_bundle_pair_loads_both_and_reports_the_baseline_first);
	tcase_add_test(tc, test_tarball_index_normalizes_and_sorts);
	tcase_add_test(tc, test_tarball_refuses_links_devices_and_escaping_names);
	tcase_add_test(tc, test_tarball_limits_per_member_and_in_total);
	tcase_add_test(tc, test_tarball_refuses_a_name_twice_and_garbage);
	tcase_add_test(tc, test_bundle_tarball_equals_its_directory);
	tcase_add_test(tc, test_bundle_refuses_a_fifo_and_a_link_in_a_directory);
	tcase_add_test(tc, test_bundle_refuses_implausible_times);
	suite_add_tcase(s, tc);
	return s;
}
