/* history/: the store on SQLite in process, and change points over a generated history
 * with planted changes (analyze/stats/history.c). PostgreSQL: tests/e2e/history_pg.sh. */
#include "check_suites.h"
#include "analyze/compare.h"
#include "analyze/stats/history.h"
#include "history/db.h"
#include "history/gen.h"
#include "history/store.h"
#include "parse/spread.h"
#include "render/history_report.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_CFG "n1ql_hard_failover"

/* A fresh sqlite store URL in a new temporary directory (caller frees both). */
/* The report of history h over values v of the named features, its runs runs[0..n),
 * at alpha 0.05 (the test "t"). */
static struct pd_hist_report report_of(const struct pd_history *h, const char *const *names,
				       const double *v, const struct pd_hist_run *runs,
				       size_t n)
{
	return (struct pd_hist_report){.test = "t",
				       .h = h,
				       .names = names,
				       .values = v,
				       .runs = runs,
				       .n_stored = n,
				       .alpha = 0.05};
}

static char *temp_url(char **dir)
{
	char tmpl[] = "/tmp/pd-store-XXXXXX", *url;
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	*dir = strdup(tmpl);
	url = malloc(strlen(tmpl) + 32);
	sprintf(url, "sqlite:%s/h.sqlite", tmpl);
	return url;
}

static void remove_dir(char *dir)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/h.sqlite", dir);
	unlink(path);
	rmdir(dir);
	free(dir);
}

static int get_count(void *ctx, const char *const *col, size_t n)
{
	if (n && col[0])
		*(long long *)ctx = strtoll(col[0], NULL, 10);
	return 0;
}

static struct pd_gen_opts gen = {.test = TEST_CFG, .n_features = 40, .seed = 3, .plant = 1};

START_TEST(test_store_adds_a_run_once)
{
	char *dir, *url = temp_url(&dir);
	struct pd_store *st;
	struct pd_err err = PD_ERR_INIT;
	struct pd_signature *s = pd_gen_run(&gen, 0);
	struct pd_store_run *runs;
	size_t n;
	int added;
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), 0);
	ck_assert_int_eq(st->schema, 0); /* new: migrated from nothing */
	ck_assert_int_eq(pd_store_add(st, s, "/b/0", &added, &err), 0);
	ck_assert_int_eq(added, 1);
	ck_assert_int_eq(pd_store_add(st, s, "/b/0", &added, &err), 0);
	ck_assert_int_eq(added, 0);
	ck_assert_int_eq(pd_store_runs(st, TEST_CFG, &runs, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(runs[0].key, "iris-multi-client#20000");
	ck_assert_str_eq(runs[0].bundle, "/b/0");
	ck_assert_str_eq(runs[0].build_line, "7.6");
	pd_store_runs_free(runs, n);
	pd_store_close(st);
	/* reopened: at the schema, nothing to migrate */
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), 0);
	ck_assert_int_eq(st->schema, PD_STORE_SCHEMA);
	pd_store_close(st);
	pd_signature_free(s);
	free(url);
	remove_dir(dir);
}
END_TEST

START_TEST(test_store_gives_back_what_was_added)
{
	char *dir, *url = temp_url(&dir);
	struct pd_store *st;
	struct pd_err err = PD_ERR_INIT;
	struct pd_signature *s[3];
	struct pd_store_run *runs;
	char **names;
	double *v;
	size_t n, nn;
	int added;
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), 0);
	for (size_t i = 0; i < 3; i++) {
		s[i] = pd_gen_run(&gen, i);
		ck_assert_int_eq(pd_store_add(st, s[i], NULL, &added, &err), 0);
	}
	ck_assert_int_eq(pd_store_runs(st, TEST_CFG, &runs, &n, &err), 0);
	ck_assert_int_eq(pd_store_features(st, runs, n, &names, &nn, &v, &err), 0);
	ck_assert_uint_eq(nn, s[0]->n);
	for (size_t i = 0; i < 3; i++)
		for (size_t f = 0; f < nn; f++) {
			ck_assert_str_eq(names[f], s[i]->f[f].name);
			ck_assert(v[i * nn + f] == s[i]->f[f].value); /* %.17g reads back */
		}
	for (size_t f = 0; f < nn; f++)
		free(names[f]);
	free(names), free(v);
	pd_store_runs_free(runs, n);
	for (size_t i = 0; i < 3; i++)
		pd_signature_free(s[i]);
	pd_store_close(st);
	free(url);
	remove_dir(dir);
}
END_TEST

START_TEST(test_store_refuses_a_newer_schema)
{
	char *dir, *url = temp_url(&dir);
	struct pd_store *st;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), 0);
	ck_assert_int_eq(pd_db_exec(st->db, "UPDATE pd_schema SET version = 99", NULL, 0, NULL,
				    NULL, &err),
			 0);
	pd_store_close(st);
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), PD_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "schema 99, newer than this perfdelta's 1"));
	free(url);
	remove_dir(dir);
}
END_TEST

static long long count_of(struct pd_db *db, const char *sql)
{
	struct pd_err err = PD_ERR_INIT;
	long long n = -1;
	ck_assert_int_eq(pd_db_exec(db, sql, NULL, 0, get_count, &n, &err), 0);
	return n;
}

START_TEST(test_store_refuses_a_foreign_database)
{
	/* a user's database given as --db by mistake: its tables, no pd_schema */
	char *dir, *url = temp_url(&dir);
	struct pd_store *st = NULL;
	struct pd_db *db;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_db_open(&db, url, 1, &err), 0);
	ck_assert_int_eq(
		pd_db_exec(db, "CREATE TABLE notes (t TEXT)", NULL, 0, NULL, NULL, &err), 0);
	pd_db_close(db);
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), PD_EINVAL);
	ck_assert_ptr_null(st);
	ck_assert_ptr_nonnull(
		strstr(err.msg, "not a perfdelta history store: it holds 1 table"));
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_READ, &err), PD_ENOTFOUND);
	ck_assert_int_eq(pd_db_open(&db, url, 0, &err), 0);
	ck_assert_int_eq(count_of(db, "SELECT count(*) FROM sqlite_master"), 1);
	pd_db_close(db);
	free(url);
	remove_dir(dir);
}
END_TEST

START_TEST(test_store_reader_makes_no_store)
{
	char *dir, *url = temp_url(&dir), path[256];
	struct pd_store *st = NULL;
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_READ, &err), PD_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(err.msg, "no history store here"));
	snprintf(path, sizeof(path), "%s/h.sqlite", dir);
	ck_assert_int_ne(access(path, F_OK), 0);
	/* an empty file (a store that a writer never filled) is no store either */
	fclose(fopen(path, "w"));
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_READ, &err), PD_ENOTFOUND);
	/* the writer makes it; the reader then opens it */
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), 0);
	pd_store_close(st);
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_READ, &err), 0);
	pd_store_close(st);
	free(url);
	remove_dir(dir);
}
END_TEST

START_TEST(test_store_refuses_text_that_is_not_utf8)
{
	/* SQLite took a Latin-1 path that PostgreSQL refused: both refuse it now, alike */
	char *dir, *url = temp_url(&dir);
	struct pd_store *st;
	struct pd_err err = PD_ERR_INIT;
	struct pd_signature *s = pd_gen_run(&gen, 0);
	struct pd_store_run *runs;
	size_t n;
	int added = -1;
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), 0);
	ck_assert_int_eq(pd_store_add(st, s, "/b/r\xe9sum\xe9", &added, &err), PD_EPARSE);
	ck_assert_str_eq(err.msg, "refusing the bundle path '/b/r\xe9sum\xe9': byte 5 is not "
				  "UTF-8, and the history store holds UTF-8 text");
	ck_assert_int_eq(added, 0);
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(pd_store_runs(st, "t\xc3", &runs, &n, &err), PD_EPARSE);
	err = (struct pd_err)PD_ERR_INIT;
	ck_assert_int_eq(pd_store_add(st, s, "/b/r\xc3\xa9sum\xc3\xa9", &added, &err), 0);
	ck_assert_int_eq(added, 1);
	pd_signature_free(s);
	pd_store_close(st);
	free(url);
	remove_dir(dir);
}
END_TEST

START_TEST(test_store_refuses_a_signature_without_features)
{
	/* a run whose phases hold no metric value (stored and reported green
	 * before): refused, naming the run and the bundle; the same run with its features
	 * passes */
	struct pd_err err = PD_ERR_INIT;
	struct pd_signature *s = pd_gen_run(&gen, 0);
	size_t n = s->n;
	ck_assert_uint_gt(n, 0);
	ck_assert_int_eq(pd_store_check(s, "/b/empty", &err), 0);
	s->n = 0;
	ck_assert_int_eq(pd_store_check(s, "/b/empty", &err), PD_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "refusing run 'iris-multi-client#20000' of "
					      "'/b/empty': its signature has no feature"));
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	s->n = n;
	pd_signature_free(s);
}
END_TEST

START_TEST(test_store_malformed_features_are_an_input_error)
{
	/* a store edited by hand (or by another program): the report's read says where */
	char *dir, *url = temp_url(&dir);
	struct pd_store *st;
	struct pd_err err = PD_ERR_INIT;
	struct pd_signature *s = pd_gen_run(&gen, 0);
	struct pd_store_run *runs;
	char **names;
	double *v;
	size_t n, nn;
	int added;
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), 0);
	ck_assert_int_eq(pd_store_add(st, s, NULL, &added, &err), 0);
	ck_assert_int_eq(pd_db_exec(st->db, "UPDATE run_features SET data = '1 2.5 -\n1 x 3\n'",
				    NULL, 0, NULL, NULL, &err),
			 0);
	ck_assert_int_eq(pd_store_runs(st, TEST_CFG, &runs, &n, &err), 0);
	ck_assert_int_eq(pd_store_features(st, runs, n, &names, &nn, &v, &err), PD_EPARSE);
	ck_assert_int_eq(err.line, 2);
	ck_assert_ptr_nonnull(strstr(err.msg, "run 'iris-multi-client#20000': expected"));
	pd_store_runs_free(runs, n);
	pd_signature_free(s);
	pd_store_close(st);
	free(url);
	remove_dir(dir);
}
END_TEST

START_TEST(test_store_concurrent_adds_store_once)
{
	/* four processes add the same five runs at once: five rows */
	char *dir, *url = temp_url(&dir);
	struct pd_store *st;
	struct pd_err err = PD_ERR_INIT;
	struct pd_store_run *runs;
	size_t n;
	pid_t pid[4];
	for (int k = 0; k < 4; k++) {
		ck_assert_int_ge(pid[k] = fork(), 0);
		if (pid[k] == 0) {
			int added, bad = 0;
			st = NULL;
			bad |= pd_store_open(&st, url, PD_STORE_WRITE, &err) < 0;
			for (size_t i = 0; i < 5 && !bad; i++) {
				struct pd_signature *s = pd_gen_run(&gen, i);
				bad |= pd_store_add(st, s, NULL, &added, &err) < 0;
				pd_signature_free(s);
			}
			if (bad)
				fprintf(stderr, "child: %s\n", err.msg);
			pd_store_close(st); /* nothing left for valgrind to call lost */
			_exit(bad);
		}
	}
	for (int k = 0; k < 4; k++) {
		int status;
		ck_assert_int_eq(waitpid(pid[k], &status, 0), pid[k]);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	ck_assert_int_eq(pd_store_open(&st, url, PD_STORE_WRITE, &err), 0);
	ck_assert_int_eq(pd_store_runs(st, TEST_CFG, &runs, &n, &err), 0);
	ck_assert_uint_eq(n, 5);
	pd_store_runs_free(runs, n);
	pd_store_close(st);
	free(url);
	remove_dir(dir);
}
END_TEST

START_TEST(test_store_build_order_is_numeric)
{
	char *a = pd_store_build_order("7.1.0-999"), *b = pd_store_build_order("7.1.0-1345"),
	     *c = pd_store_build_order("7.10.0-1"), *d = pd_store_build_order("7.9.0-5000");
	ck_assert_int_lt(strcmp(a, b), 0);
	ck_assert_int_gt(strcmp(c, d), 0);
	free(a), free(b), free(c), free(d);
	char *l = pd_store_build_line("7.1.0-1345");
	ck_assert_str_eq(l, "7.1");
	free(l);
}
END_TEST

/* The values matrix of n runs of the generator. */
static double *history_of(const struct pd_gen_opts *g, size_t n, char ***names, size_t *nf)
{
	struct pd_signature *s0 = pd_gen_run(g, 0);
	double *v = malloc(n * s0->n * sizeof(*v));
	*nf = s0->n;
	*names = malloc(s0->n * sizeof(char *));
	for (size_t f = 0; f < s0->n; f++)
		(*names)[f] = strdup(s0->f[f].name);
	for (size_t i = 0; i < n; i++) {
		struct pd_signature *s = pd_gen_run(g, i);
		ck_assert_uint_eq(s->n, *nf);
		for (size_t f = 0; f < s->n; f++)
			v[i * s->n + f] = s->f[f].value;
		pd_signature_free(s);
	}
	pd_signature_free(s0);
	return v;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

START_TEST(test_history_finds_the_planted_changes_and_nothing_else)
{
	/* 100 weekly runs, 200 features, three planted changes (gen.h): each found within one
	 * build of where it was planted, with its levels near the planted ones, and no other
	 * change point among the 200 features (Bonferroni at 0.05 over them) */
	struct pd_gen_opts g = {.test = TEST_CFG, .n_features = 200, .seed = 11, .plant = 1};
	struct pd_hist_opts o = PD_HIST_OPTS_INIT;
	struct pd_history h;
	char **names;
	size_t nf;
	double *v = history_of(&g, 100, &names, &nf);
	pd_history_analyze(&h, v, 100, nf, (const char *const *)names, &o);
	ck_assert_uint_eq(h.n_tested, 200);
	ck_assert_uint_eq(h.n_cp, PD_GEN_N_PLANTS);
	for (size_t k = 0; k < PD_GEN_N_PLANTS; k++) {
		const struct pd_gen_plant *p = &pd_gen_plants[k];
		size_t i = 0;
		while (i < h.n_cp && strcmp(names[h.cp[i].feature], p->feature))
			i++;
		ck_assert_uint_lt(i, h.n_cp);
		ck_assert_uint_le(h.cp[i].at, p->at + 1);
		ck_assert_uint_ge(h.cp[i].at + 1, p->at);
		ck_assert_double_eq_tol(h.cp[i].before, p->before, 0.25 * p->before);
		ck_assert_double_eq_tol(h.cp[i].after, p->after, 0.15 * p->after);
	}
	pd_history_release(&h);
	free_names(names, nf);
	free(v);
}
END_TEST

START_TEST(test_history_spread_is_since_the_last_change)
{
	/* one feature, 12 runs: 10, 12, 10, 12, 10, 12 then 50, 52, 50, 52, 50, 52; min size
	 * 3: the split at 6 parts the two levels (a permutation does so with probability
	 * 2 / C(12, 6) = 2/924), so it is found; the spread after it, by hand: mean 51, sd
	 * sqrt(6 x 1^2 / 5) = 1.0954 */
	double v[12];
	const char *names[] = {"f"};
	for (size_t i = 0; i < 12; i++)
		v[i] = (i < 6 ? 10 : 50) + (i % 2 ? 2 : 0);
	struct pd_hist_opts o = {.alpha = 0.05, .min_size = 3, .seed = 1};
	struct pd_history h;
	struct pd_hist_spread sp;
	pd_history_analyze(&h, v, 12, 1, names, &o);
	ck_assert_uint_eq(h.n_cp, 1);
	ck_assert_uint_eq(h.cp[0].at, 6);
	/* one feature: alpha 0.05 each, so P = ceil(2 / 0.05) = 40 permutations; none of
	 * them reaches the planted split (chance 2/924 each, 1 - (922/924)^40 = 8 % for any),
	 * so p is the floor 1 / 41 and marked as such, and the page says "<= 0.024" */
	ck_assert_int_eq(h.cp[0].p_at_floor, 1);
	ck_assert_double_eq_tol(h.cp[0].p_floor, 1.0 / 41, 1e-15);
	ck_assert_double_eq_tol(h.cp[0].p, 1.0 / 41, 1e-15);
	{
		struct pd_hist_run runs[12];
		struct pd_buf page = PD_BUF_INIT, js = PD_BUF_INIT;
		for (size_t i = 0; i < 12; i++)
			runs[i] = (struct pd_hist_run){.key = "j#1", .version = "7.0.0-1"};
		struct pd_hist_report r = report_of(&h, names, v, runs, 12);
		pd_hist_html(&page, &r);
		pd_hist_summary_json(&js, &r);
		ck_assert_ptr_nonnull(strstr(page.ptr, "&le; 0.024 (the permutation floor)"));
		ck_assert_ptr_nonnull(strstr(js.ptr, "\"p_value_at_floor\":true"));
		pd_buf_release(&page);
		pd_buf_release(&js);
	}
	pd_history_spread(&sp, &h, v, 0);
	ck_assert_uint_eq(sp.from, 6);
	ck_assert_uint_eq(sp.n, 6);
	ck_assert_double_eq_tol(sp.mean, 51, 1e-12);
	ck_assert_double_eq_tol(sp.sd, sqrt(6.0 / 5), 1e-12);
	ck_assert_double_eq_tol(sp.rel_sd, sqrt(6.0 / 5) / 51, 1e-12);
	pd_history_release(&h);
}
END_TEST

START_TEST(test_history_colours_only_the_worse_direction)
{
	/* three features, the same rise over 16 runs (8 at 10/12, 8 at 50/52: a permutation
	 * parts them as well with chance 2 / C(16, 8) = 2/12870): CPU rising is worse
	 * (core/metric.c: a rise is worse unless a rule says a fall is), ops rising is
	 * better (its rule: a fall of throughput is worse), and so is the reported KPI, a
	 * throughput; the page colours the first red (worse), the other two green, in the
	 * table and beside each chart; the change, 11 -> 51, is 100 x 40 / 11 = +363.6 %.
	 * The runs are all new, so each is recent: the JUnit fails only the worse one. */
	const char *names[] = {"atop/memcached_cpu|cluster|post", "kpi/throughput",
			       "ns_server/ops|cluster|post"};
	double v[16 * 3];
	struct pd_hist_run runs[16];
	struct pd_hist_opts o = {.alpha = 0.05, .min_size = 8, .seed = 1};
	struct pd_history h;
	struct pd_buf page = PD_BUF_INIT, junit = PD_BUF_INIT;
	int way[3] = {0};
	for (size_t i = 0; i < 16; i++) {
		for (size_t f = 0; f < 3; f++)
			v[i * 3 + f] = (i < 8 ? 10 : 50) + (i % 2 ? 2 : 0);
		runs[i] = (struct pd_hist_run){.key = "j#1", .version = "7.0.0-1"};
	}
	pd_history_analyze(&h, v, 16, 3, names, &o);
	ck_assert_uint_eq(h.n_cp, 3);
	for (size_t i = 0; i < 3; i++)
		way[h.cp[i].feature] = h.cp[i].worse;
	ck_assert_int_eq(way[0], 1);
	ck_assert_int_eq(way[1], -1);
	ck_assert_int_eq(way[2], -1);
	struct pd_hist_report r = report_of(&h, names, v, runs, 16);
	pd_hist_html(&page, &r);
	ck_assert_ptr_nonnull(strstr(page.ptr, "<td class=\"n worse\">+363.6%"));
	ck_assert_ptr_nonnull(strstr(page.ptr, "<td class=\"n better\">+363.6%"));
	ck_assert_ptr_null(strstr(page.ptr, "<td class=\"n\">+363.6%"));
	ck_assert_ptr_nonnull(strstr(page.ptr, "<span class=\"worse\">"));
	ck_assert_ptr_nonnull(strstr(page.ptr, "<span class=\"better\">"));
	pd_hist_junit(&junit, &r);
	ck_assert_ptr_nonnull(strstr(junit.ptr, "tests=\"3\" failures=\"1\""));
	ck_assert_ptr_nonnull(
		strstr(junit.ptr, "name=\"atop/memcached_cpu|cluster|post\"><failure"));
	pd_buf_release(&page);
	pd_buf_release(&junit);
	pd_history_release(&h);
}
END_TEST

START_TEST(test_history_constant_features_are_not_in_m)
{
	/* four features over 16 runs: one with a change (10/12 then 50/52), two whose every
	 * value is the same (7, and 0: query_errors that never happen), one with 5 values
	 * (fewer than 2 x min size 3): m is 1, the constant two are said, not tested, and
	 * the one feature is tested at the whole alpha, 0.05 / 1 */
	const char *names[] = {"a/x|cluster|post", "b/seven|cluster|post",
			       "n1ql_stats/query_errors|cluster|post", "d/few|cluster|post"};
	double v[16 * 4];
	struct pd_hist_run runs[16];
	struct pd_hist_opts o = {.alpha = 0.05, .min_size = 3, .seed = 1};
	struct pd_history h;
	struct pd_buf page = PD_BUF_INIT, js = PD_BUF_INIT;
	for (size_t i = 0; i < 16; i++) {
		v[i * 4] = (i < 8 ? 10 : 50) + (i % 2 ? 2 : 0);
		v[i * 4 + 1] = 7, v[i * 4 + 2] = 0;
		v[i * 4 + 3] = i < 5 ? (double)i : NAN;
		runs[i] = (struct pd_hist_run){.key = "j#1", .version = "7.0.0-1"};
	}
	pd_history_analyze(&h, v, 16, 4, names, &o);
	ck_assert_uint_eq(h.n_tested, 1);
	ck_assert_uint_eq(h.n_constant, 2);
	ck_assert_double_eq(h.alpha_feature, 0.05);
	ck_assert_uint_eq(h.n_cp, 1);
	struct pd_hist_report r = report_of(&h, names, v, runs, 16);
	pd_hist_html(&page, &r);
	pd_hist_summary_json(&js, &r);
	ck_assert_ptr_nonnull(strstr(page.ptr,
				     "1 change point in 1 features tested (2 more "
				     "constant: the same value in every run, not tested)"));
	ck_assert_ptr_nonnull(strstr(js.ptr, "\"features_tested\":1,\"features_constant\":2,"));
	pd_buf_release(&page);
	pd_buf_release(&js);
	pd_history_release(&h);
}
END_TEST

START_TEST(test_history_names_runs_by_build_and_run)
{
	/* 16 runs, two of each build: index i is build 7.0.0-(10001 + i / 2), Jenkins #(i + 1).
	 * The change is planted at index 9, between #9 and #10, both of build 10005. The
	 * values are bytes (cbq-engine's RSS): 1.9e9 B = 1.77 GiB before (1.9e9 / 2^30 =
	 * 1.7695), 2.1e9 B = 1.96 GiB after (1.9558), shown with their unit, never as
	 * 1.9e+09. The suggested compare is of #9 and #10, with the store's spreads as its
	 * margins (--db, the store named without its password). */
	const char *names[] = {"atop/cbq-engine_rss|role:n1ql|post"};
	double v[16];
	struct pd_hist_run runs[16];
	char ver[16][32], key[16][32], bundle[16][32];
	struct pd_hist_opts o = {.alpha = 0.05, .min_size = 4, .seed = 1};
	struct pd_history h;
	struct pd_buf page = PD_BUF_INIT, js = PD_BUF_INIT, junit = PD_BUF_INIT,
		      term = PD_BUF_INIT;
	for (size_t i = 0; i < 16; i++) {
		v[i] = i < 9 ? 1.9e9 : 2.1e9;
		snprintf(ver[i], sizeof(ver[i]), "7.0.0-%zu", 10001 + i / 2);
		snprintf(key[i], sizeof(key[i]), "job#%zu", i + 1);
		snprintf(bundle[i], sizeof(bundle[i]), "/runs/r%zu", i + 1);
		runs[i] = (struct pd_hist_run){.key = key[i],
					       .version = ver[i],
					       .bundle = bundle[i],
					       .number = (long)i + 1};
	}
	pd_history_analyze(&h, v, 16, 1, names, &o);
	ck_assert_uint_eq(h.n_cp, 1);
	ck_assert_uint_eq(h.cp[0].at, 9);
	struct pd_hist_report r = report_of(&h, names, v, runs, 16);
	r.db = "postgresql://me@db/perf";
	pd_hist_html(&page, &r);
	pd_hist_summary_json(&js, &r);
	pd_hist_junit(&junit, &r);
	pd_hist_terminal(&term, &r);
	ck_assert_ptr_nonnull(strstr(
		page.ptr,
		"<td class=\"run\">7.0.0-10005 #9</td><td class=\"run\">7.0.0-10005 #10</td>"
		"<td class=\"n\">1.77 GiB</td><td class=\"n\">1.96 GiB</td>"));
	ck_assert_ptr_nonnull(strstr(page.ptr,
				     "Changed between 7.0.0-10005 #9 and 7.0.0-10005 "
				     "#10: <span class=\"worse\">1.77 GiB &rarr; 1.96 GiB"));
	ck_assert_ptr_nonnull(strstr(page.ptr, "from 7.0.0-10001 #1 to 7.0.0-10008 #16."));
	ck_assert_ptr_null(strstr(page.ptr, "e+09"));
	ck_assert_ptr_nonnull(
		strstr(js.ptr, "\"run\":\"job#10\",\"run_name\":\"7.0.0-10005 #10\","));
	ck_assert_ptr_nonnull(strstr(js.ptr, "\"previous_run_name\":\"7.0.0-10005 #9\","
					     "\"unit\":\"B\","));
	ck_assert_ptr_nonnull(strstr(js.ptr,
				     "\"compare\":\"perfdelta compare --db "
				     "'postgresql://me@db/perf' '/runs/r9' '/runs/r10' -o "
				     "'compare-7.0.0-10005-10'\"}"));
	/* the chart: its y axis in GiB, its segments named by the run they start at */
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_hist_charts(&job, &r, "/nonexistent");
	ck_assert_ptr_nonnull(strstr(job.script.ptr, "set ylabel 'GiB'"));
	ck_assert_ptr_nonnull(strstr(job.script.ptr, "'7.0.0-10005 #10' at first 9.5,"));
	{ /* the points drawn are in GiB too: 1.9e9 B is drawn at 1.7695 */
		size_t in_gib = 0;
		for (size_t at = 0; at + sizeof(double) <= job.data.len; at += sizeof(double)) {
			double x;
			memcpy(&x, job.data.ptr + at, sizeof(x));
			in_gib += fabs(x - 1.9e9 / (1 << 30)) < 1e-9;
			ck_assert(!(x > 1e6)); /* no point in bytes */
		}
		ck_assert_uint_ge(in_gib, 9);
	}
	pd_plot_discard(&job);
	/* the newest 4 runs hold no change: nothing recent, no failure */
	ck_assert_ptr_nonnull(strstr(junit.ptr, "failures=\"0\""));
	ck_assert_ptr_nonnull(strstr(term.ptr,
				     "  1. atop/cbq-engine_rss|role:n1ql|post changed "
				     "from 1.77 GiB to 1.96 GiB between 7.0.0-10005 #9 "
				     "and 7.0.0-10005 #10 (worse)\n"));
	pd_buf_release(&page);
	pd_buf_release(&js);
	pd_buf_release(&junit);
	pd_buf_release(&term);
	pd_history_release(&h);
}
END_TEST

START_TEST(test_history_stationary_gives_no_change_point)
{
	/* ten stationary histories of 60 runs x 100 features: the family-wise rate is 0.05 a
	 * history, so P(2 or more with any change point) = 0.086; 3 or more: 0.012 */
	int with_cp = 0;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct pd_gen_opts g = {
			.test = TEST_CFG, .n_features = 100, .seed = 100 + seed, .plant = 0};
		struct pd_hist_opts o = PD_HIST_OPTS_INIT;
		struct pd_history h;
		char **names;
		size_t nf;
		double *v = history_of(&g, 60, &names, &nf);
		pd_history_analyze(&h, v, 60, nf, (const char *const *)names, &o);
		with_cp += h.n_cp > 0;
		pd_history_release(&h);
		free_names(names, nf);
		free(v);
	}
	printf("history: %d of 10 stationary histories with a change point\n", with_cp);
	ck_assert_int_le(with_cp, 2);
}
END_TEST

/* --run-spread's lines: parsed, sorted, looked up by a delta's "metric|scope|phase"; a
 * feature over fewer than PD_HISTORY_MIN_RUNS runs gives none; bad lines are placed at
 * the bad field's column (1-based: "x\t1e999" has the sd at 3), a line without its
 * fields at 1, a feature twice nowhere. */
START_TEST(test_history_run_spread_parsed_and_looked_up)
{
	static const char ok[] = "b/m|cluster|post\t0.02\t5\na/m|role:kv|pre\t0.1\t2\n";
	static const struct {
		const char *text;
		long col;
	} bad[] = {{"x\t1e999\t3", 3},
		   {"x\t0.1\t-3", 7},
		   {"x\t0.1", 1},
		   {"\t0.1\t3", 1},
		   {"x\t0.1\t3\nx\t0.2\t4", -1}};
	struct pd_spreads sp;
	struct pd_err err = PD_ERR_INIT;
	struct pd_src src = {ok, strlen(ok), "s.tsv", &pd_limits_default};
	ck_assert_int_eq(pd_spread_parse(&sp, &src, &err), 0);
	ck_assert_uint_eq(sp.n, 2);
	ck_assert_str_eq(sp.v[0].feature, "a/m|role:kv|pre");
	struct pd_compare_opts o = PD_COMPARE_OPTS_INIT;
	o.run_spread = sp.v, o.n_run_spread = sp.n;
	struct pd_view v = {.metric = "b/m",
			    .scope = {.kind = PD_AT_CLUSTER, .name = "cluster"}};
	ck_assert_double_eq(pd_history_run_sd(&o, &v, PD_PHASE_POST), 0.02);
	ck_assert(isnan(pd_history_run_sd(&o, &v, PD_PHASE_PRE)));
	v = (struct pd_view){.metric = "a/m", .scope = {.kind = PD_AT_ROLE, .name = "role:kv"}};
	ck_assert(isnan(pd_history_run_sd(&o, &v, PD_PHASE_PRE))); /* 2 runs */
	pd_spread_free(&sp);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		src = (struct pd_src){bad[i].text, strlen(bad[i].text), "s.tsv",
				      &pd_limits_default};
		err = (struct pd_err)PD_ERR_INIT;
		ck_assert_int_eq(pd_spread_parse(&sp, &src, &err), PD_EPARSE);
		if (bad[i].col >= 0)
			ck_assert_msg(err.line == 1 && err.col == bad[i].col,
				      "case %zu: %ld:%ld", i, err.line, err.col);
		pd_spread_free(&sp);
	}
}
END_TEST

/* The baselines' rule: another run of the target's build line, earlier by build order,
 * then start, then build number. */
START_TEST(test_history_earlier_is_the_baselines_rule)
{
	const struct pd_hist_when t = {"j#20", "7.1", "b", 1000, 20};
	struct pd_hist_when r = {"j#10", "7.1", "a", 5000, 30};
	ck_assert_int_eq(pd_history_earlier(&r, &t), 1); /* an older build, started later */
	r.order = "c";
	ck_assert_int_eq(pd_history_earlier(&r, &t), 0); /* a newer build */
	r.order = "b", r.time_ms = 999;
	ck_assert_int_eq(pd_history_earlier(&r, &t), 1); /* the same build, started before */
	r.time_ms = 1001;
	ck_assert_int_eq(pd_history_earlier(&r, &t), 0);
	r.time_ms = 1000, r.number = 19;
	ck_assert_int_eq(pd_history_earlier(&r, &t), 1); /* started at once: by number */
	r.number = 21;
	ck_assert_int_eq(pd_history_earlier(&r, &t), 0);
	r.number = 19, r.build_line = "7.2";
	ck_assert_int_eq(pd_history_earlier(&r, &t), 0); /* another build line */
	r.build_line = "7.1", r.key = "j#20";
	ck_assert_int_eq(pd_history_earlier(&r, &t), 0); /* the target itself */
}
END_TEST

Suite *pd_suite_store(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("store");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_store_adds_a_run_once);
	tcase_add_test(tc, test_store_gives_back_what_was_added);
	tcase_add_test(tc, test_store_refuses_a_newer_schema);
	tcase_add_test(tc, test_store_refuses_a_foreign_database);
	tcase_add_test(tc, test_store_reader_makes_no_store);
	tcase_add_test(tc, test_store_refuses_text_that_is_not_utf8);
	tcase_add_test(tc, test_store_refuses_a_signature_without_features);
	tcase_add_test(tc, test_store_malformed_features_are_an_input_error);
	tcase_add_test(tc, test_store_concurrent_adds_store_once);
	tcase_add_test(tc, test_store_build_order_is_numeric);
	tcase_add_test(tc, test_history_finds_the_planted_changes_and_nothing_else);
	tcase_add_test(tc, test_history_spread_is_since_the_last_change);
	tcase_add_test(tc, test_history_colours_only_the_worse_direction);
	tcase_add_test(tc, test_history_constant_features_are_not_in_m);
	tcase_add_test(tc, test_history_names_runs_by_build_and_run);
	tcase_add_test(tc, test_history_stationary_gives_no_change_point);
	tcase_add_test(tc, test_history_run_spread_parsed_and_looked_up);
	tcase_add_test(tc, test_history_earlier_is_the_baselines_rule);
	suite_add_tcase(s, tc);
	return s;
}
