#include "check_suites.h"

#include "analyze/compare.h"
#include "parse/bundle.h"
#include "render/inspect.h"
#include "render/render.h"
#include "render/summary_json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* inspect --json is JSON (cJSON reads it back) with the facts of the seed failover. */
START_TEST(test_inspect_json_reads_back)
{
	struct pd_run *run = pd_test_seed("failover");
	struct pd_facts facts;
	struct pd_err err = PD_ERR_INIT;
	struct pd_buf b = PD_BUF_INIT;
	ck_assert_int_eq(pd_facts_of(&facts, run, NULL, &err), 0);
	pd_inspect_json(&b, run, &facts);
	pd_facts_release(&facts);
	cJSON *doc = cJSON_Parse(b.ptr);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "nodes")), 7);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "series")),
			 (int)run->n_series);
	cJSON *ev = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "timebase"), "event");
	ck_assert_str_eq(cJSON_GetObjectItem(ev, "node")->valuestring, "172.23.100.40");
	ck_assert_double_eq_tol(cJSON_GetObjectItem(ev, "t_s")->valuedouble, 300, 5);
	cJSON *kpi = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "kpis"), 0);
	ck_assert_double_eq(cJSON_GetObjectItem(kpi, "value")->valuedouble, 3525.0);
	cJSON_Delete(doc);
	pd_buf_release(&b);
	pd_run_free(run);
}
END_TEST

/* summary.json has the contract's keys and types (docs/summary-json.md), read back by cJSON. */
START_TEST(test_summary_json_contract)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	struct pd_buf out = PD_BUF_INIT;
	struct pd_labels labels = {"A", "B", NULL};
	ck_assert_int_eq(pd_compare(&c, a, b, &opts, &err), 0);
	pd_summary_json(&out, c, &labels);
	cJSON *doc = cJSON_Parse(out.ptr);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "tool")->valuestring, "perfdelta");
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "verdict")->valuestring, "regression");
	cJSON *base = cJSON_GetObjectItem(doc, "baseline");
	ck_assert_str_eq(cJSON_GetObjectItem(base, "label")->valuestring, "A");
	ck_assert_str_eq(cJSON_GetObjectItem(base, "snapshot")->valuestring,
			 "iris_710-1345_access_a7b6");
	cJSON *j = cJSON_GetObjectItem(base, "jenkins");
	ck_assert_double_eq(cJSON_GetObjectItem(j, "number")->valuedouble, 12081);
	ck_assert_str_eq(cJSON_GetObjectItem(j, "result")->valuestring, "SUCCESS");
	cJSON *node = cJSON_GetArrayItem(cJSON_GetObjectItem(base, "nodes"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(node, "role")->valuestring, "kv#1");
	ck_assert(cJSON_IsArray(cJSON_GetObjectItem(node, "services")));
	cJSON *ev = cJSON_GetObjectItem(doc, "event");
	ck_assert_str_eq(cJSON_GetObjectItem(ev, "kind")->valuestring, "hard-failover");
	ck_assert_str_eq(cJSON_GetObjectItem(ev, "source")->valuestring, "console");
	cJSON *phases = cJSON_GetObjectItem(doc, "phases");
	ck_assert_int_eq(cJSON_GetArraySize(phases), 4);
	ck_assert_str_eq(
		cJSON_GetObjectItem(cJSON_GetArrayItem(phases, 0), "name")->valuestring, "pre");
	cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "deltas"), 0);
	const char *keys[] = {"metric",    "scope",  "phase",   "baseline", "target",
			      "delta_pct", "ci_pct", "p_value", "verdict"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		ck_assert_msg(cJSON_GetObjectItem(d, keys[i]) != NULL, "delta lacks %s",
			      keys[i]);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(d, "ci_pct")), 2);
	ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(d, "baseline"), "n")));
	cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "findings"), 0);
	const char *fkeys[] = {"kind",      "metric",    "scope", "phase",
			       "direction", "delta_pct", "value", "text"};
	for (size_t i = 0; i < sizeof(fkeys) / sizeof(*fkeys); i++)
		ck_assert_msg(cJSON_GetObjectItem(f, fkeys[i]) != NULL, "finding lacks %s",
			      fkeys[i]);
	cJSON_Delete(doc);
	pd_buf_release(&out);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

static const struct pd_view *find_view(const struct pd_comparison *c, const char *metric,
				       const char *scope)
{
	for (size_t i = 0; i < c->n_views; i++)
		if (!strcmp(c->views[i].metric, metric) &&
		    !strcmp(c->views[i].scope.name, scope))
			return &c->views[i];
	ck_abort_msg("no view %s at %s", metric, scope);
	return NULL;
}

/* Connections are summed over the survivors, CPU averaged over the kv nodes: the label
 * says so, and the values are the sum and the mean of the narrower views. */
START_TEST(test_render_agg_labels_the_rule)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	struct pd_buf l = PD_BUF_INIT;
	ck_assert_int_eq(pd_compare(&c, a, b, &opts, &err), 0);
	const struct pd_view *sv = find_view(c, "net/ESTABLISHED", "survivors");
	const struct pd_view *parts[] = {find_view(c, "net/ESTABLISHED", "role:kv"),
					 find_view(c, "net/ESTABLISHED", "role:n1ql"),
					 find_view(c, "net/ESTABLISHED", "role:index")};
	ck_assert_int_eq(sv->agg, PD_AGG_SUM);
	ck_assert_uint_eq(sv->members, 6);
	size_t i = sv->n / 2;
	ck_assert_double_eq_tol(sv->target[i],
				parts[0]->target[i] + parts[1]->target[i] + parts[2]->target[i],
				1e-9);
	pd_render_agg(&l, sv);
	ck_assert_str_eq(l.ptr, "sum of 6 nodes");
	const struct pd_view *kv = find_view(c, "atop/memcached_cpu", "role:kv");
	const char *hosts[] = {"node:172.23.100.210", "node:172.23.100.211",
			       "node:172.23.100.212", "node:172.23.100.213"};
	double sum = 0;
	for (size_t k = 0; k < 4; k++)
		sum += find_view(c, "atop/memcached_cpu", hosts[k])->target[i];
	ck_assert_int_eq(kv->agg, PD_AGG_MEAN);
	ck_assert_double_eq_tol(kv->target[i], sum / 4, 1e-9);
	pd_buf_truncate(&l, 0);
	pd_render_agg(&l, kv);
	ck_assert_str_eq(l.ptr, "mean of 4 nodes");
	pd_buf_truncate(&l, 0);
	pd_render_agg(&l, find_view(c, "atop/memcached_cpu", hosts[0]));
	ck_assert_str_eq(l.ptr, "one node");
	ck_assert_str_eq(pd_agg_name(find_view(c, "atop/memcached_cpu", hosts[0])->agg), "one");
	pd_buf_release(&l);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* The config diff is on the tree and in summary.json: the seed's runs differ in their
 * .test's [cluster] initial_nodes (6, 7: read off the two files) among four test keys and
 * one Jenkins parameter, and share their spec and build. */
START_TEST(test_summary_json_config_diff)
{
	struct pd_run *a = pd_test_seed("baseline"), *b = pd_test_seed("failover");
	struct pd_comparison *c = NULL;
	struct pd_err err = PD_ERR_INIT;
	struct pd_compare_opts opts = PD_COMPARE_OPTS_INIT;
	struct pd_buf out = PD_BUF_INIT;
	struct pd_labels labels = {"A", "B", NULL};
	ck_assert_int_eq(pd_compare(&c, a, b, &opts, &err), 0);
	ck_assert_uint_eq(c->config_diff->n, 5);
	pd_summary_json(&out, c, &labels);
	cJSON *doc = cJSON_Parse(out.ptr);
	cJSON *cd = cJSON_GetObjectItem(doc, "config_diff");
	cJSON *entries = cJSON_GetObjectItem(cd, "entries");
	ck_assert_int_eq(cJSON_GetArraySize(entries), 5);
	cJSON *e = cJSON_GetArrayItem(entries, 2);
	ck_assert_str_eq(cJSON_GetObjectItem(e, "section")->valuestring, "cluster");
	ck_assert_str_eq(cJSON_GetObjectItem(e, "key")->valuestring, "initial_nodes");
	ck_assert_str_eq(cJSON_GetObjectItem(e, "baseline")->valuestring, "6");
	ck_assert_str_eq(cJSON_GetObjectItem(e, "target")->valuestring, "7");
	e = cJSON_GetArrayItem(entries, 3);
	ck_assert_str_eq(cJSON_GetObjectItem(e, "change")->valuestring, "added");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(e, "baseline")));
	ck_assert_str_eq(cJSON_GetObjectItem(e, "target")->valuestring, "hard_failover");
	ck_assert_str_eq(
		cJSON_GetObjectItem(cJSON_GetArrayItem(entries, 4), "source")->valuestring,
		"jenkins");
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cd, "missing_target")), 0);
	/* the event's story is in it as on the tree: net/ESTABLISHED, all nodes last */
	cJSON *story = NULL, *m;
	cJSON_ArrayForEach(
		m, cJSON_GetObjectItem(
			   doc, "event_story")) if (!strcmp(cJSON_GetObjectItem(m, "metric")
								    ->valuestring,
							    "net/ESTABLISHED")) story = m;
	ck_assert_ptr_nonnull(story);
	cJSON *rows = cJSON_GetObjectItem(story, "rows");
	cJSON *all = cJSON_GetArrayItem(rows, cJSON_GetArraySize(rows) - 1);
	ck_assert_str_eq(cJSON_GetObjectItem(all, "kind")->valuestring, "all");
	ck_assert_int_eq(cJSON_GetObjectItem(all, "members")->valueint, 7);
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(all, "baseline_post_median")));
	ck_assert_double_gt(cJSON_GetObjectItem(all, "change_pct")->valuedouble, 2);
	ck_assert_double_lt(cJSON_GetObjectItem(all, "change_pct")->valuedouble, 6);
	cJSON_Delete(doc);
	pd_buf_release(&out);
	pd_comparison_free(c);
	pd_run_free(a);
	pd_run_free(b);
}
END_TEST

/* A bundle is named, never located: the last component of its path. */
START_TEST(test_render_bundle_name_drops_the_path)
{
	static const char *const cases[][2] = {{"/home/u/runs/baseline", "baseline"},
					       {"runs/x.tar.gz", "x.tar.gz"},
					       {"base", "base"},
					       {"/tmp/b/", "b/"},
					       {"/", "/"},
					       {"", ""}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct pd_run run = {.dir = (char *)cases[i][0]};
		ck_assert_str_eq(pd_render_bundle_name(&run), cases[i][1]);
		ck_assert_str_eq(pd_render_label(&run, NULL), cases[i][1]);
	}
}
END_TEST

Suite *pd_suite_render(void)
{
	Suite *s = suite_create("render");
	TCase *tc = tcase_create("render");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_inspect_json_reads_back);
	tcase_add_test(tc, test_summary_json_contract);
	tcase_add_test(tc, test_render_bundle_name_drops_the_path);
	tcase_add_test(tc, test_render_agg_labels_the_rule);
	tcase_add_test(tc, test_summary_json_config_diff);
	suite_add_tcase(s, tc);
	return s;
}
