#include "check_suites.h"

#include "analyze/runs/configdiff.h"
#include "core/src.h"
#include "parse/ini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTS PD_FORMATS_DIR "/perfrunner/perfrunner__tests_n1ql_collections_n1ql_thr_Q3_20M_"

/* The expected differences below were read off `diff` of the two files by hand:
 *   diff ..._plasma_ok_1s_1c_1i.test ..._plasma_ok_hard_failover_1s_1c_1i.test
 * gives lines 2 ([test_case] test), 5 ([showfast] title), 13 ([cluster] initial_nodes)
 * changed and line 39 ([access] n1ql_shutdown_type) added; nothing else differs. */

static void parse_into(struct pd_ini *ini, const char *name, const char *text, size_t len)
{
	struct pd_src src = {text, len, name, &pd_limits_default};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_msg(pd_ini_parse(ini, &src, &err) == 0, "%s:%ld: %s", name, err.line,
		      err.msg);
}

static struct pd_run *run_with_test(const char *path)
{
	struct pd_run *run = pd_run_new("");
	size_t len;
	char *text = pd_test_slurp(path, &len);
	parse_into(&run->test, path, text, len);
	free(text);
	return run;
}

static int eq0(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Entry i of d is exactly this. */
static void expect(const struct pd_configdiff *d, size_t i, enum pd_configdiff_source src,
		   enum pd_configdiff_change change, const char *section, const char *key,
		   const char *item, const char *base, const char *target)
{
	ck_assert_uint_gt(d->n, i);
	const struct pd_configdiff_entry *e = &d->e[i];
	ck_assert_msg(e->source == src && e->change == change, "entry %zu: %s %s, want %s %s",
		      i, pd_configdiff_source_name(e->source),
		      pd_configdiff_change_name(e->change), pd_configdiff_source_name(src),
		      pd_configdiff_change_name(change));
	ck_assert_msg(eq0(e->section, section) && eq0(e->key, key) && eq0(e->item, item),
		      "entry %zu: [%s] %s %s", i, e->section ? e->section : "(null)", e->key,
		      e->item ? e->item : "(null)");
	ck_assert_msg(eq0(e->base, base) && eq0(e->target, target), "entry %zu: '%s' -> '%s'",
		      i, e->base ? e->base : "(null)", e->target ? e->target : "(null)");
}

/* The four differences of the .test files, from entry 0. */
static void expect_test_keys(const struct pd_configdiff *d)
{
	expect(d, 0, PD_CONFIGDIFF_TEST, PD_CONFIGDIFF_CHANGED, "test_case", "test", NULL,
	       "perfrunner.tests.n1ql.N1QLThroughputTest",
	       "perfrunner.tests.n1ql.N1QLThroughputShutdownTest");
	expect(d, 1, PD_CONFIGDIFF_TEST, PD_CONFIGDIFF_CHANGED, "showfast", "title", NULL,
	       "Q3, Range Scan, Plasma, not_bounded, s=1 c=1 i=1",
	       "Q3, Range Scan, Plasma, not_bounded, Hard Failover, Query Service Only, s=1 "
	       "c=1 i=1");
	expect(d, 2, PD_CONFIGDIFF_TEST, PD_CONFIGDIFF_CHANGED, "cluster", "initial_nodes",
	       NULL, "6", "7");
	expect(d, 3, PD_CONFIGDIFF_TEST, PD_CONFIGDIFF_ADDED, "access", "n1ql_shutdown_type",
	       NULL, NULL, "hard_failover");
}

START_TEST(test_configdiff_real_tests_differ_in_four_keys)
{
	struct pd_run *a = run_with_test(TESTS "gsi_plasma_ok_1s_1c_1i.test");
	struct pd_run *b = run_with_test(TESTS "gsi_plasma_ok_hard_failover_1s_1c_1i.test");
	struct pd_configdiff *d = NULL;
	pd_configdiff_build(&d, a, b);
	ck_assert_uint_eq(d->n, 4);
	expect_test_keys(d);
	/* no spec, no Jenkins build, no KPI on either side: not compared, said so */
	unsigned absent = 1u << PD_CONFIGDIFF_SPEC | 1u << PD_CONFIGDIFF_BUILD |
			  1u << PD_CONFIGDIFF_JENKINS;
	ck_assert_uint_eq(d->missing_base, absent);
	ck_assert_uint_eq(d->missing_target, absent);
	pd_configdiff_free(d);
	/* the other way round, added becomes removed */
	pd_configdiff_build(&d, b, a);
	ck_assert_uint_eq(d->n, 4);
	expect(d, 3, PD_CONFIGDIFF_TEST, PD_CONFIGDIFF_REMOVED, "access", "n1ql_shutdown_type",
	       NULL, "hard_failover", NULL);
	pd_configdiff_free(d);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* The seed's bundles: the real .test files, both on the 7-node iris_extra_n1ql.spec as
 * perfrunner runs them (the baseline's initial_nodes = 6 takes its first 6 servers), and
 * Jenkins parameters that name them (the build, 7.1.0-1345 in both, is the same). */
START_TEST(test_configdiff_seed_extra_node_and_parameters)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_configdiff *d = NULL;
	pd_configdiff_build(&d, a, b);
	ck_assert_uint_eq(d->n, 5);
	expect_test_keys(d);
	expect(d, 4, PD_CONFIGDIFF_JENKINS, PD_CONFIGDIFF_CHANGED, NULL, "test_config", NULL,
	       "n1ql/collections/n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i.test",
	       "n1ql/collections/n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i.test");
	ck_assert_uint_eq(d->missing_base, 0);
	ck_assert_uint_eq(d->missing_target, 0);
	pd_configdiff_free(d);
	pd_configdiff_build(&d, b, b);
	ck_assert_uint_eq(d->n, 0);
	pd_configdiff_free(d);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

static struct pd_run *run_with_spec(const char *text)
{
	struct pd_run *run = pd_run_new("");
	parse_into(&run->spec, "t.spec", text, strlen(text));
	return run;
}

/* Sections in the baseline's order, then the target's others; keys likewise; server
 * lines per host; a reordered server list once more whole (a repeated key is a parse
 * error, as in configparser's strict mode). Worked out by hand from the two texts. */
START_TEST(test_configdiff_order_and_servers)
{
	struct pd_run *a = run_with_spec("[a]\nx = 1\ny = 2\n"
					 "[clusters]\nc =\n  h1:kv\n  h2:n1ql\n  h3:index\n");
	struct pd_run *b = run_with_spec("[b]\nz = 9\n"
					 "[clusters]\nc =\n  h2:n1ql\n  h1:kv,n1ql\n  h4:kv\n"
					 "[a]\ny = 3\nw = 0\n");
	struct pd_configdiff *d = NULL;
	pd_configdiff_build(&d, a, b);
	ck_assert_uint_eq(d->n, 8);
	enum pd_configdiff_source s = PD_CONFIGDIFF_SPEC;
	expect(d, 0, s, PD_CONFIGDIFF_REMOVED, "a", "x", NULL, "1", NULL);
	expect(d, 1, s, PD_CONFIGDIFF_CHANGED, "a", "y", NULL, "2", "3");
	expect(d, 2, s, PD_CONFIGDIFF_ADDED, "a", "w", NULL, NULL, "0");
	expect(d, 3, s, PD_CONFIGDIFF_CHANGED, "clusters", "c", "h1", "h1:kv", "h1:kv,n1ql");
	expect(d, 4, s, PD_CONFIGDIFF_CHANGED, "clusters", "c", NULL,
	       "h1:kv\nh2:n1ql\nh3:index", "h2:n1ql\nh1:kv,n1ql\nh4:kv");
	expect(d, 5, s, PD_CONFIGDIFF_REMOVED, "clusters", "c", "h3", "h3:index", NULL);
	expect(d, 6, s, PD_CONFIGDIFF_ADDED, "clusters", "c", "h4", NULL, "h4:kv");
	expect(d, 7, s, PD_CONFIGDIFF_ADDED, "b", "z", NULL, NULL, "9");
	pd_configdiff_free(d);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

START_TEST(test_configdiff_free_null_is_noop)
{
	pd_configdiff_free(NULL);
	ck_assert_str_eq(pd_configdiff_source_name(PD_CONFIGDIFF_JENKINS), "jenkins");
	ck_assert_str_eq(pd_configdiff_change_name(PD_CONFIGDIFF_REMOVED), "removed");
}
END_TEST

Suite *pd_suite_configdiff(void)
{
	Suite *s = suite_create("configdiff");
	TCase *tc = tcase_create("configdiff");
	tcase_add_test(tc, test_configdiff_real_tests_differ_in_four_keys);
	tcase_add_test(tc, test_configdiff_seed_extra_node_and_parameters);
	tcase_add_test(tc, test_configdiff_order_and_servers);
	tcase_add_test(tc, test_configdiff_free_null_is_noop);
	suite_add_tcase(s, tc);
	return s;
}
