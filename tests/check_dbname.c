#include "check_suites.h"

#include "core/err.h"
#include "core/model.h"
#include "parse/dbname.h"

#include <stdlib.h>
#include <string.h>

#define ACCESS   "iris_710-1345_access_a7b6"
#define FAILOVER "iris_710-1345_failover_8a92"

/* The nodes of fixtures/formats/perfrunner/perfrunner__clusters_iris_extra_n1ql.spec, in
 * spec order, and the two snapshots of the failover run (docs/reference.md "A run bundle").
 * With the dots gone the hosts read 17223100210 .. 17223100213, 1722310055, 1722310045,
 * 1722310040: none is the end of another. */
static struct pd_run *iris_run(void)
{
	static const char *const hosts[] = {
		"172.23.100.210", "172.23.100.211", "172.23.100.212", "172.23.100.213",
		"172.23.100.55",  "172.23.100.45",  "172.23.100.40"};
	struct pd_run *run = pd_run_new("");
	for (size_t i = 0; i < sizeof(hosts) / sizeof(*hosts); i++)
		pd_run_add_node(run, hosts[i], strlen(hosts[i]));
	pd_strv_add(&run->snapshots, ACCESS);
	pd_strv_add(&run->snapshots, FAILOVER);
	return run;
}

static struct pd_run *run_of(const char *const *hosts, size_t n, const char *snapshot)
{
	struct pd_run *run = pd_run_new("");
	for (size_t i = 0; i < n; i++)
		pd_run_add_node(run, hosts[i], strlen(hosts[i]));
	pd_strv_add(&run->snapshots, snapshot);
	return run;
}

static int decode(struct pd_dbname *d, const struct pd_run *run, const char *db,
		  struct pd_err *err)
{
	return pd_dbname_decode(d, db, &run->snapshots, run->nodes, run->n_nodes, err);
}

/* Decodes db in run and checks every field; bucket and server may be NULL. */
static void expect(const struct pd_run *run, const char *db, const char *collector,
		   const char *snapshot, const char *bucket, const char *server,
		   enum pd_scope scope)
{
	struct pd_dbname d = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_msg(decode(&d, run, db, &err) == 0, "%s: %s", db, err.msg);
	ck_assert_str_eq(d.collector, collector);
	ck_assert_str_eq(d.snapshot, snapshot);
	if (bucket)
		ck_assert_str_eq(d.bucket, bucket);
	else
		ck_assert_ptr_null(d.bucket);
	if (server)
		ck_assert_str_eq(d.server, server);
	else
		ck_assert_ptr_null(d.server);
	ck_assert_int_eq(d.scope, scope);
	pd_dbname_clear(&d);
	ck_assert_ptr_null(d.collector);
}

/* Expects PD_ENOTFOUND, leaves out untouched, and returns the message (static). */
static const char *expect_fail(const struct pd_run *run, const char *db)
{
	static struct pd_err err;
	struct pd_dbname d = {0};
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(decode(&d, run, db, &err), PD_ENOTFOUND);
	ck_assert_int_eq(err.code, PD_ENOTFOUND);
	ck_assert_ptr_null(d.collector);
	ck_assert_ptr_null(d.snapshot);
	ck_assert_ptr_null(d.bucket);
	ck_assert_ptr_null(d.server);
	return err.msg;
}

START_TEST(test_dbname_atop_reads_server_without_dots)
{
	/* "atop" + ACCESS + "1722310040": 172.23.100.40 with its dots deleted */
	struct pd_run *run = iris_run();
	expect(run, "atop" ACCESS "1722310040", "atop", ACCESS, NULL, "172.23.100.40",
	       PD_SCOPE_SERVER);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_ns_server_system_reads_three_digit_last_octet)
{
	/* 172.23.100.210 -> "17223100210" (11 digits) */
	struct pd_run *run = iris_run();
	expect(run, "ns_server_system" ACCESS "17223100210", "ns_server_system", ACCESS, NULL,
	       "172.23.100.210", PD_SCOPE_SERVER);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_ns_server_reads_bucket)
{
	struct pd_run *run = iris_run();
	expect(run, "ns_server" ACCESS "bucket-1", "ns_server", ACCESS, "bucket-1", NULL,
	       PD_SCOPE_BUCKET);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_cluster_scope_has_nothing_after_snapshot)
{
	struct pd_run *run = iris_run();
	expect(run, "n1ql_stats" ACCESS, "n1ql_stats", ACCESS, NULL, NULL, PD_SCOPE_CLUSTER);
	expect(run, "active_tasks" FAILOVER, "active_tasks", FAILOVER, NULL, NULL,
	       PD_SCOPE_CLUSTER);
	/* ns_server's overview stats are cluster-wide too (NSServerOverview) */
	expect(run, "ns_server" FAILOVER, "ns_server", FAILOVER, NULL, NULL, PD_SCOPE_CLUSTER);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_bucket_then_server)
{
	/* "bucket-1" + "17223100210": only .210's digits end the name */
	struct pd_run *run = iris_run();
	expect(run, "kvstore_stats" ACCESS "bucket-117223100210", "kvstore_stats", ACCESS,
	       "bucket-1", "172.23.100.210", PD_SCOPE_BUCKET_SERVER);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_index_scope_is_bucket_and_index)
{
	/* secondary_debugstats_index stores index "bucket-1.myindex": "bucket-1myindex" */
	struct pd_run *run = iris_run();
	struct pd_dbname d = {0};
	struct pd_err err = PD_ERR_INIT;
	expect(run, "secondary_debugstats_index" ACCESS "bucket-1myindex",
	       "secondary_debugstats_index", ACCESS, "bucket-1", NULL, PD_SCOPE_INDEX);
	ck_assert_int_eq(decode(&d, run,
				"secondary_storage_stats" ACCESS "bucket-1by_capped_small",
				&err),
			 0);
	ck_assert_str_eq(d.bucket, "bucket-1");
	ck_assert_str_eq(d.index, "by_capped_small");
	pd_dbname_clear(&d);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_collectors_are_longest_first)
{
	long sys = -1, ns = -1;
	size_t i;
	for (i = 0; pd_collectors[i]; i++) {
		if (i > 0)
			ck_assert_msg(strlen(pd_collectors[i - 1]) >= strlen(pd_collectors[i]),
				      "%s before %s", pd_collectors[i - 1], pd_collectors[i]);
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(pd_collectors[j], pd_collectors[i]);
		if (!strcmp(pd_collectors[i], "ns_server_system"))
			sys = (long)i;
		if (!strcmp(pd_collectors[i], "ns_server"))
			ns = (long)i;
	}
	ck_assert_int_ge(sys, 0);
	ck_assert_int_gt(ns, sys);
	/* every collector of perfrunner's cbagent is known */
	static const char *const named[] = {
		"atop",           "net",        "ns_server_system",
		"iostat",         "meminfo",    "metrics_rest_api_processes",
		"ns_server",      "n1ql_stats", "active_tasks",
		"secondary_stats"};
	for (size_t k = 0; k < sizeof(named) / sizeof(*named); k++) {
		int found = 0;
		for (i = 0; pd_collectors[i]; i++)
			found |= !strcmp(pd_collectors[i], named[k]);
		ck_assert_msg(found, "%s missing", named[k]);
	}
}
END_TEST

START_TEST(test_dbname_longest_collector_wins)
{
	/* ns_server is a prefix too, but "_systemiris..." starts no snapshot */
	struct pd_run *run = iris_run();
	expect(run, "ns_server_system" FAILOVER "1722310055", "ns_server_system", FAILOVER,
	       NULL, "172.23.100.55", PD_SCOPE_SERVER);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_rejects_unknown_collector)
{
	struct pd_run *run = iris_run();
	ck_assert_str_eq(expect_fail(run, "foobar" ACCESS),
			 "unknown collector in db name 'foobar" ACCESS "'");
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_rejects_unknown_snapshot)
{
	struct pd_run *run = iris_run();
	ck_assert_str_eq(expect_fail(run, "atopiris_710-1345_load_12341722310040"),
			 "unknown snapshot in db name 'atopiris_710-1345_load_12341722310040' "
			 "(after collector 'atop')");
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_reports_server_in_no_spec)
{
	/* 172.23.100.44 is a [clients] host: atop samples it, but it is no node */
	struct pd_run *run = iris_run();
	const char *msg = expect_fail(run, "atop" ACCESS "1722310044");
	ck_assert_msg(strstr(msg, "no node or client of the spec ends db name") != NULL, "%s",
		      msg);
	ck_assert_msg(strstr(msg, "'1722310044'") != NULL, "%s", msg);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_cluster_collector_rejects_remainder)
{
	struct pd_run *run = iris_run();
	const char *msg = expect_fail(run, "n1ql_stats" ACCESS "bucket-1");
	ck_assert_msg(strstr(msg, "collector 'n1ql_stats' is cluster-scope") != NULL, "%s",
		      msg);
	/* a server suffix is no better: n1ql_stats writes no per-server db */
	msg = expect_fail(run, "n1ql_stats" ACCESS "1722310040");
	ck_assert_msg(strstr(msg, "reads as server scope (node 172.23.100.40)") != NULL, "%s",
		      msg);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_bucket_collector_needs_bucket)
{
	struct pd_run *run = iris_run();
	const char *msg = expect_fail(run, "secondary_stats" ACCESS);
	ck_assert_msg(strstr(msg, "expected a bucket after the snapshot") != NULL, "%s", msg);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_two_snapshots_one_prefix_of_other_is_ambiguous)
{
	/* ACCESS + "bucket-1" or ACCESS "b" + "ucket-1": ns_server writes per bucket, so both
	 * readings fit */
	struct pd_run *run = iris_run();
	pd_strv_add(&run->snapshots, ACCESS "b");
	const char *msg = expect_fail(run, "ns_server" ACCESS "bucket-1");
	ck_assert_str_eq(msg, "db name 'ns_server" ACCESS "bucket-1' decodes two ways: "
			      "snapshot " ACCESS " + bucket 'bucket-1'; "
			      "snapshot " ACCESS "b + bucket 'ucket-1'");
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_two_hosts_with_same_digits_are_ambiguous)
{
	/* 172.23.1.0 and 172.2.31.0 both read "1722310" */
	static const char *const hosts[] = {"172.23.1.0", "172.2.31.0"};
	struct pd_run *run = run_of(hosts, 2, ACCESS);
	const char *msg = expect_fail(run, "atop" ACCESS "1722310");
	ck_assert_str_eq(msg, "db name 'atop" ACCESS "1722310' decodes two ways: "
			      "bucket '' + server 172.23.1.0; bucket '' + server 172.2.31.0");
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_host_suffix_collision_settled_by_scope)
{
	/* "7223100210" (72.23.100.210) ends "17223100210" (172.23.100.210). For atop the
	 * second reading would be bucket "1" + server 72.23.100.210, a scope atop does not
	 * write; kvstore_stats writes bucket+server, so "bucket-1" + .210 and "bucket-11" +
	 * 72.23.100.210 both fit and the name is refused. */
	static const char *const hosts[] = {"172.23.100.210", "72.23.100.210"};
	struct pd_run *run = run_of(hosts, 2, ACCESS);
	expect(run, "atop" ACCESS "17223100210", "atop", ACCESS, NULL, "172.23.100.210",
	       PD_SCOPE_SERVER);
	expect(run, "atop" ACCESS "7223100210", "atop", ACCESS, NULL, "72.23.100.210",
	       PD_SCOPE_SERVER);
	const char *msg = expect_fail(run, "kvstore_stats" ACCESS "bucket-117223100210");
	ck_assert_msg(strstr(msg, "bucket 'bucket-1' + server 172.23.100.210") != NULL, "%s",
		      msg);
	ck_assert_msg(strstr(msg, "bucket 'bucket-11' + server 72.23.100.210") != NULL, "%s",
		      msg);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_repeated_snapshot_or_host_is_not_ambiguous)
{
	static const char *const hosts[] = {"172.23.100.40", "172.23.100.40"};
	struct pd_run *run = run_of(hosts, 2, ACCESS);
	pd_strv_add(&run->snapshots, ACCESS);
	expect(run, "atop" ACCESS "1722310040", "atop", ACCESS, NULL, "172.23.100.40",
	       PD_SCOPE_SERVER);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_compares_stripped_snapshot_and_hostname)
{
	/* "ir.is..." loses its '.' in db names; the decoded snapshot keeps its real name */
	static const char *const hosts[] = {"cen-s101.perf.couchbase.com"};
	struct pd_run *run = run_of(hosts, 1, "ir.is_710-1345_access_a7b6");
	expect(run, "ns_server_system" ACCESS "cen-s101perfcouchbasecom", "ns_server_system",
	       "ir.is_710-1345_access_a7b6", NULL, "cen-s101.perf.couchbase.com",
	       PD_SCOPE_SERVER);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_rejects_empty_and_collector_only_names)
{
	struct pd_run *run = iris_run();
	ck_assert_str_eq(expect_fail(run, ""), "unknown collector in db name ''");
	ck_assert_msg(strstr(expect_fail(run, "atop"), "unknown snapshot") != NULL, "atop");
	pd_run_free(run);
}
END_TEST

static void strv_of(struct pd_strv *sv, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pd_strv_add(sv, v[i]);
}

START_TEST(test_find_snapshots_of_two_phases_sorted_once)
{
	static const char *const dbs[] = {"atop" ACCESS "1722310040",
					  "ns_server_system" FAILOVER "17223100210",
					  "ns_server" ACCESS "bucket-1",
					  "n1ql_stats" FAILOVER,
					  "active_tasks" FAILOVER,
					  "ns_server" FAILOVER,
					  "atop" FAILOVER "1722310040",
					  "foobar" ACCESS,
					  "kvstore_stats" ACCESS "bucket-117223100210"};
	struct pd_strv dbv = {0}, out = {0};
	strv_of(&dbv, dbs, sizeof(dbs) / sizeof(*dbs));
	pd_dbname_find_snapshots(&out, &dbv, "iris");
	/* "access" sorts before "failover" */
	ck_assert_uint_eq(out.n, 2);
	ck_assert_str_eq(out.v[0], ACCESS);
	ck_assert_str_eq(out.v[1], FAILOVER);
	pd_strv_free(&out);
	/* a name already in out is not added again; new ones are appended */
	pd_strv_add(&out, FAILOVER);
	pd_dbname_find_snapshots(&out, &dbv, "iris");
	ck_assert_uint_eq(out.n, 2);
	ck_assert_str_eq(out.v[0], FAILOVER);
	ck_assert_str_eq(out.v[1], ACCESS);
	pd_strv_free(&out);
	pd_strv_free(&dbv);
}
END_TEST

START_TEST(test_find_snapshots_cuts_after_four_hex_digits)
{
	/* no cluster-scope db: the name ends at "_a7b6" and "1722310040" / "bucket-1" / the
	 * 4 digits of "bucket-1" are the rest; 'b' of "bucket" is hex but only 4 are taken */
	static const char *const dbs[] = {"atop" ACCESS "1722310040",
					  "ns_server" ACCESS "bucket-1"};
	struct pd_strv dbv = {0}, out = {0};
	strv_of(&dbv, dbs, 2);
	pd_dbname_find_snapshots(&out, &dbv, "iris");
	ck_assert_uint_eq(out.n, 1);
	ck_assert_str_eq(out.v[0], ACCESS);
	pd_strv_free(&out);
	pd_strv_free(&dbv);
}
END_TEST

START_TEST(test_find_snapshots_prefers_names_that_end_a_db)
{
	/* phase "n1ql_access": "_acce" looks like the 4 hex digits, but the ns_server
	 * overview db ends right after "_a7b6" and settles it */
	static const char *const dbs[] = {"atopiris_710-1345_n1ql_access_a7b61722310040",
					  "ns_serveriris_710-1345_n1ql_access_a7b6"};
	struct pd_strv dbv = {0}, out = {0};
	strv_of(&dbv, dbs, 2);
	pd_dbname_find_snapshots(&out, &dbv, "iris");
	ck_assert_uint_eq(out.n, 1);
	ck_assert_str_eq(out.v[0], "iris_710-1345_n1ql_access_a7b6");
	pd_strv_free(&out);
	pd_strv_free(&dbv);
}
END_TEST

START_TEST(test_find_snapshots_keeps_to_the_cluster)
{
	static const char *const dbs[] = {"atopaether_710-1345_access_a7b61722311053",
					  "n1ql_stats" ACCESS};
	struct pd_strv dbv = {0}, out = {0};
	strv_of(&dbv, dbs, 2);
	pd_dbname_find_snapshots(&out, &dbv, "iris");
	ck_assert_uint_eq(out.n, 1);
	ck_assert_str_eq(out.v[0], ACCESS);
	pd_strv_free(&out);
	/* without a cluster both are found: "aether..." sorts first */
	pd_dbname_find_snapshots(&out, &dbv, NULL);
	ck_assert_uint_eq(out.n, 2);
	ck_assert_str_eq(out.v[0], "aether_710-1345_access_a7b6");
	ck_assert_str_eq(out.v[1], ACCESS);
	pd_strv_free(&out);
	pd_strv_free(&dbv);
}
END_TEST

START_TEST(test_find_snapshots_ignores_names_without_the_pattern)
{
	/* no build digits; no 4 hex digits; only 3 hex digits; unknown collector */
	static const char *const dbs[] = {"atopiris_access_a7b6", "n1ql_statsiris_710_access",
					  "n1ql_statsiris_710_access_a7b", ("foo" ACCESS), ""};
	struct pd_strv dbv = {0}, out = {0};
	strv_of(&dbv, dbs, sizeof(dbs) / sizeof(*dbs));
	pd_dbname_find_snapshots(&out, &dbv, "iris");
	ck_assert_uint_eq(out.n, 0);
	pd_dbname_find_snapshots(&out, &dbv, NULL);
	ck_assert_uint_eq(out.n, 0);
	pd_strv_free(&dbv);
}
END_TEST

/* cbagent/stores.py build_dbname (lines 19-27): collector + cluster + bucket + index + server,
 * then every character of "[ ] / \ ; . , > < & * : % = + @ ! # ^ ( ) | ? ^ ' \"" and the
 * blanks between them removed. cluster is the snapshot name (metrics/cbagent.py:41). */
static char *build_dbname(const char *cluster, const char *server, const char *bucket,
			  const char *index, const char *collector)
{
	static const char strip[] = "[ ] / \\ ; . , > < & * : % = + @ ! # ^ ( ) | ? ^ ' \"";
	const char *parts[] = {collector, cluster, bucket, index, server};
	size_t n = 0;
	char *out = malloc(512);
	for (size_t i = 0; i < 5; i++)
		for (const char *p = parts[i]; p && *p; p++)
			if (!strchr(strip, *p) && n < 511)
				out[n++] = *p;
	out[n] = '\0';
	return out;
}

/* The run of the seed's spec as pd_dbname_run_index sees it: nodes, [clients] hosts, a
 * second cluster iris2 (XDCR) with its own snapshot, buckets bucket-1 and bucket-2. */
static struct pd_run *full_run(void)
{
	struct pd_run *run = iris_run();
	pd_strv_add(&run->clients, "172.23.100.44");
	pd_strv_add(&run->clients, "172.23.100.104");
	pd_strv_add(&run->others, "iris2");
	pd_strv_add(&run->other_hosts, "cen-s723.perf.couchbase.com");
	pd_strv_add(&run->snapshots, "iris2_710-1345_access_b3c4");
	run->cluster = strdup("iris");
	run->cfg.num_buckets = 2;
	return run;
}

struct dbcase {
	const char *collector, *cluster, *bucket, *index, *server;
	enum pd_scope scope;
	const char *want_bucket, *want_index;
	int other; /* kept apart: another cluster's */
};

START_TEST(test_dbname_every_scope_cbagent_writes)
{
	/* one db per collector and scope, as each collector's store.append() passes them */
	static const struct dbcase cases[] = {
		/* cluster: n1ql_stats.py, active_tasks.py */
		{"n1ql_stats", ACCESS, NULL, NULL, NULL, PD_SCOPE_CLUSTER, NULL, NULL, 0},
		{"active_tasks", ACCESS, NULL, NULL, NULL, PD_SCOPE_CLUSTER, NULL, NULL, 0},
		/* bucket: ns_server.py, secondary_stats.py */
		{"ns_server", ACCESS, "bucket-2", NULL, NULL, PD_SCOPE_BUCKET, "bucket-2", NULL,
		 0},
		{"secondary_stats", ACCESS, "bucket-1", NULL, NULL, PD_SCOPE_BUCKET, "bucket-1",
		 NULL, 0},
		/* index: secondary_storage_stats.py:81-83 and secondary_debugstats.py:132-135
		 */
		{"secondary_storage_stats", ACCESS, NULL, "bucket-1.by_capped_small", NULL,
		 PD_SCOPE_INDEX, "bucket-1", "by_capped_small", 0},
		{"secondary_debugstats_index", ACCESS, NULL, "bucket-2.idx-2", NULL,
		 PD_SCOPE_INDEX, "bucket-2", "idx-2", 0},
		/* server: system.py (atop, net, iostat, meminfo), ns_server_system */
		{"atop", ACCESS, NULL, NULL, "172.23.100.40", PD_SCOPE_SERVER, NULL, NULL, 0},
		{"net", FAILOVER, NULL, NULL, "172.23.100.210", PD_SCOPE_SERVER, NULL, NULL, 0},
		{"ns_server_system", ACCESS, NULL, NULL, "172.23.100.55", PD_SCOPE_SERVER, NULL,
		 NULL, 0},
		{"metrics_rest_api_processes", ACCESS, NULL, NULL, "172.23.100.45",
		 PD_SCOPE_SERVER, NULL, NULL, 0},
		/* bucket+server: kvstore_stats.py */
		{"kvstore_stats", ACCESS, "bucket-1", NULL, "172.23.100.211",
		 PD_SCOPE_BUCKET_SERVER, "bucket-1", NULL, 0},
		/* client hosts: system.py:24 samples self.nodes + self.workers */
		{"atop", ACCESS, NULL, NULL, "172.23.100.44", PD_SCOPE_CLIENT, NULL, NULL, 0},
		{"iostat", ACCESS, NULL, NULL, "172.23.100.104", PD_SCOPE_CLIENT, NULL, NULL,
		 0},
		/* a second cluster: its own snapshot (metrics/cbagent.py:40-41) and servers */
		{"n1ql_stats", "iris2_710-1345_access_b3c4", NULL, NULL, NULL, PD_SCOPE_CLUSTER,
		 NULL, NULL, 1},
		{"atop", "iris2_710-1345_access_b3c4", NULL, NULL,
		 "cen-s723.perf.couchbase.com", PD_SCOPE_SERVER, NULL, NULL, 1},
	};
	struct pd_run *run = full_run();
	struct pd_dbindex *ix = pd_dbname_run_index(run);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct dbcase *c = &cases[i];
		char *db =
			build_dbname(c->cluster, c->server, c->bucket, c->index, c->collector);
		struct pd_dbname d = {0};
		struct pd_err err = PD_ERR_INIT;
		ck_assert_msg(pd_dbname_decode_ix(&d, db, ix, &err) == 0, "%s: %s", db,
			      err.msg);
		ck_assert_str_eq(d.collector, c->collector);
		ck_assert_str_eq(d.snapshot, c->cluster);
		ck_assert_int_eq(d.scope, c->scope);
		if (c->server)
			ck_assert_str_eq(d.server, c->server);
		else
			ck_assert_ptr_null(d.server);
		if (c->want_bucket)
			ck_assert_str_eq(d.bucket, c->want_bucket);
		else
			ck_assert_ptr_null(d.bucket);
		if (c->want_index)
			ck_assert_str_eq(d.index, c->want_index);
		else
			ck_assert_ptr_null(d.index);
		ck_assert_int_eq(pd_dbname_other_cluster(run, &d), c->other);
		pd_dbname_clear(&d);
		free(db);
	}
	pd_dbindex_free(ix);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_client_only_where_the_collector_samples_hosts)
{
	/* kvstore_stats writes bucket+server for cluster nodes; a client has no buckets */
	struct pd_run *run = full_run();
	struct pd_dbindex *ix = pd_dbname_run_index(run);
	struct pd_dbname d = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(
		pd_dbname_decode_ix(&d, "kvstore_stats" ACCESS "bucket-11722310044", ix, &err),
		PD_ENOTFOUND);
	ck_assert_msg(strstr(err.msg, "client 172.23.100.44") != NULL, "%s", err.msg);
	pd_dbindex_free(ix);
	pd_run_free(run);
}
END_TEST

START_TEST(test_dbname_snapshots_of_a_console_matching_no_db)
{
	/* the console named iris_..._shutdown_n1ql_8a92, but perfdb holds failover_8a92 */
	struct pd_run *run = iris_run();
	struct pd_strv dbs = {0};
	pd_strv_free(&run->snapshots);
	pd_strv_add(&run->snapshots, "iris_710-1345_shutdown_n1ql_8a92");
	pd_strv_add(&dbs, "ns_server" FAILOVER);
	pd_strv_add(&dbs, "atop" FAILOVER "1722310040");
	run->cluster = strdup("iris");
	pd_dbname_run_snapshots(run, &dbs);
	ck_assert_uint_eq(run->snapshots.n, 1);
	ck_assert_str_eq(run->snapshots.v[0], FAILOVER);
	ck_assert_uint_eq(run->notes.n, 1);
	ck_assert_msg(strstr(run->notes.v[0], "matches no perfdb database") != NULL, "%s",
		      run->notes.v[0]);
	/* both phase names of the shutdown test decode: shutdown_n1ql (current perfrunner,
	 * tests/n1ql.py:1707 @with_stats def shutdown_n1ql) and the ticket's failover */
	struct pd_dbname d = {0};
	struct pd_err err = PD_ERR_INIT;
	pd_strv_add(&run->snapshots, "iris_710-1345_shutdown_n1ql_8a92");
	ck_assert_int_eq(
		decode(&d, run, "atopiris_710-1345_shutdown_n1ql_8a921722310040", &err), 0);
	ck_assert_str_eq(d.snapshot, "iris_710-1345_shutdown_n1ql_8a92");
	pd_dbname_clear(&d);
	ck_assert_int_eq(decode(&d, run, "atop" FAILOVER "1722310040", &err), 0);
	ck_assert_str_eq(d.snapshot, FAILOVER);
	pd_dbname_clear(&d);
	pd_strv_free(&dbs);
	pd_run_free(run);
}
END_TEST

Suite *pd_suite_dbname(void)
{
	Suite *s = suite_create("dbname");
	TCase *tc = tcase_create("decode");
	tcase_add_test(tc, test_dbname_every_scope_cbagent_writes);
	tcase_add_test(tc, test_dbname_client_only_where_the_collector_samples_hosts);
	tcase_add_test(tc, test_dbname_snapshots_of_a_console_matching_no_db);
	tcase_add_test(tc, test_dbname_atop_reads_server_without_dots);
	tcase_add_test(tc, test_dbname_ns_server_system_reads_three_digit_last_octet);
	tcase_add_test(tc, test_dbname_ns_server_reads_bucket);
	tcase_add_test(tc, test_dbname_cluster_scope_has_nothing_after_snapshot);
	tcase_add_test(tc, test_dbname_bucket_then_server);
	tcase_add_test(tc, test_dbname_index_scope_is_bucket_and_index);
	tcase_add_test(tc, test_dbname_collectors_are_longest_first);
	tcase_add_test(tc, test_dbname_longest_collector_wins);
	tcase_add_test(tc, test_dbname_rejects_unknown_collector);
	tcase_add_test(tc, test_dbname_rejects_unknown_snapshot);
	tcase_add_test(tc, test_dbname_reports_server_in_no_spec);
	tcase_add_test(tc, test_dbname_cluster_collector_rejects_remainder);
	tcase_add_test(tc, test_dbname_bucket_collector_needs_bucket);
	tcase_add_test(tc, test_dbname_two_snapshots_one_prefix_of_other_is_ambiguous);
	tcase_add_test(tc, test_dbname_two_hosts_with_same_digits_are_ambiguous);
	tcase_add_test(tc, test_dbname_host_suffix_collision_settled_by_scope);
	tcase_add_test(tc, test_dbname_repeated_snapshot_or_host_is_not_ambiguous);
	tcase_add_test(tc, test_dbname_compares_stripped_snapshot_and_hostname);
	tcase_add_test(tc, test_dbname_rejects_empty_and_collector_only_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("find_snapshots");
	tcase_add_test(tc, test_find_snapshots_of_two_phases_sorted_once);
	tcase_add_test(tc, test_find_snapshots_cuts_after_four_hex_digits);
	tcase_add_test(tc, test_find_snapshots_prefers_names_that_end_a_db);
	tcase_add_test(tc, test_find_snapshots_keeps_to_the_cluster);
	tcase_add_test(tc, test_find_snapshots_ignores_names_without_the_pattern);
	suite_add_tcase(s, tc);
	return s;
}
