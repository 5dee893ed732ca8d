/* perfdelta-history: `history report`, `compare --baseline-history`, `demo --history`. */
#include "cli/history.h"

#include "analyze/policy.h"
#include "analyze/stats/history.h"
#include "core/buf.h"
#include "core/outdir.h"
#include "core/url.h"
#include "core/xalloc.h"
#include "history/gen.h"
#include "history/store.h"
#include "render/escape.h"
#include "render/history_report.h"
#include "render/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a report is made of, read from the store. */
struct loaded {
	struct pd_store_run *runs; /* every run of the test */
	size_t n_runs, first;      /* the window: runs[first..n_runs) */
	char **names;
	size_t n_names;
	double *values;
	struct pd_hist_run *view;
};

static void loaded_free(struct loaded *l)
{
	pd_store_runs_free(l->runs, l->n_runs);
	for (size_t i = 0; i < l->n_names; i++)
		free(l->names[i]);
	free(l->names), free(l->values), free(l->view);
}

/* A test the store lacks: the error names the tests it holds, as many as one line of
 * the message takes, then how many more. */
static int no_such_test(struct pd_store *st, const char *test, struct pd_err *err)
{
	struct pd_buf msg = PD_BUF_INIT;
	char **tests = NULL;
	size_t n = 0, i = 0;
	int rc = pd_store_tests(st, &tests, &n, err);
	if (rc < 0)
		return rc;
	pd_buf_addf(&msg, "the history holds no run of test '%s'", test);
	if (!n)
		pd_buf_adds(&msg, ", nor of any test");
	for (; i < n; i++) {
		size_t before = msg.len;
		pd_buf_addf(&msg, "%s%s", i ? ", " : "; it holds ", tests[i]);
		if (msg.len + sizeof(", and 1000000 more") >= sizeof(err->msg)) {
			pd_buf_truncate(&msg, before);
			break;
		}
	}
	if (i < n)
		pd_buf_addf(&msg, "%s%zu more", i ? ", and " : "; it holds ", n - i);
	rc = pd_err_set(err, PD_ENOTFOUND, "%s", msg.ptr);
	for (i = 0; i < n; i++)
		free(tests[i]);
	free(tests);
	pd_buf_release(&msg);
	return rc;
}

static int load(struct loaded *l, struct pd_store *st, const struct pd_cli_hx_opts *o,
		struct pd_err *err)
{
	/* --window N: the newest N runs; 0: every run; not given: PD_POLICY_HIST_WINDOW */
	size_t window = o->window < 0 ? PD_POLICY_HIST_WINDOW : (size_t)o->window;
	int rc = pd_store_runs(st, o->test, &l->runs, &l->n_runs, err);
	if (rc < 0)
		return rc;
	if (!l->n_runs)
		return no_such_test(st, o->test, err);
	l->first = window && l->n_runs > window ? l->n_runs - window : 0;
	size_t n = l->n_runs - l->first;
	l->view = pd_xcalloc(n, sizeof(*l->view));
	for (size_t i = 0; i < n; i++) {
		const struct pd_store_run *r = &l->runs[l->first + i];
		l->view[i] = (struct pd_hist_run){.key = r->key,
						  .version = r->version,
						  .bundle = r->bundle,
						  .number = r->number};
	}
	return pd_store_features(st, l->runs + l->first, n, &l->names, &l->n_names, &l->values,
				 err);
}

/* gnuplot draws the charts into the output's charts/ (claimed for its marker). */
static int draw(struct pd_outdir *out, const struct pd_hist_report *r, struct pd_err *err)
{
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	char *dir = pd_outdir_path(out, "charts");
	int rc = pd_outdir_mkdir(out, "charts", err);
	if (rc == 0 && r->h->n_cp) {
		pd_hist_charts(&job, r, dir);
		rc = pd_plot_run(&job, err);
	}
	pd_plot_discard(&job);
	for (size_t f = 0; rc == 0 && f < r->h->n_features; f++) {
		struct pd_buf name = PD_BUF_INIT;
		int has = 0;
		for (size_t i = 0; i < r->h->n_cp && !has; i++)
			has = r->h->cp[i].feature == f;
		pd_buf_adds(&name, "charts/");
		pd_hist_chart_name(&name, f);
		if (has)
			pd_outdir_claim(out, name.ptr);
		pd_buf_release(&name);
	}
	free(dir);
	return rc;
}

static int write_text(struct pd_outdir *out, const char *name, struct pd_buf *b,
		      struct pd_err *err)
{
	int rc = pd_outdir_write(out, name, b->ptr, b->len, err);
	pd_buf_truncate(b, 0);
	return rc;
}

/* The report into dir, atomically (core/outdir.h). */
static int write_report(const char *dir, const struct pd_hist_report *r, struct pd_err *err)
{
	struct pd_outdir out;
	struct pd_buf b = PD_BUF_INIT;
	int rc = pd_outdir_begin(&out, dir, 0, err);
	if (rc < 0)
		return rc;
	out.marked = 1; /* a later report may replace this one */
	pd_buf_adds(&b, pd_hist_css);
	if ((rc = draw(&out, r, err)) == 0 &&
	    (rc = write_text(&out, "style.css", &b, err)) == 0) {
		pd_hist_html(&b, r);
		rc = write_text(&out, "index.html", &b, err);
	}
	if (rc == 0) {
		pd_hist_summary_json(&b, r);
		rc = write_text(&out, "summary.json", &b, err);
	}
	if (rc == 0) {
		pd_hist_junit(&b, r);
		rc = write_text(&out, "junit.xml", &b, err);
	}
	pd_buf_release(&b);
	if (rc < 0) {
		pd_outdir_abort(&out);
		return rc;
	}
	return pd_outdir_commit(&out, err);
}

/* The change points on the terminal, each naming its runs (escaped: names come from the
 * store). */
static void print_changes(const struct pd_hist_report *r)
{
	struct pd_buf text = PD_BUF_INIT, out = PD_BUF_INIT;
	pd_hist_terminal(&text, r);
	for (char *line = text.ptr, *nl; *line; line = nl + 1) { /* every line ends in \n */
		nl = strchr(line, '\n');
		*nl = '\0';
		pd_buf_truncate(&out, 0);
		pd_esc_text(&out, line);
		printf("%s\n", out.ptr);
	}
	pd_buf_release(&text);
	pd_buf_release(&out);
}

/* The store's URL as a command names it, to be run from anywhere: a SQLite path made
 * absolute (the store is there: it was opened), a password left out (the user kept). */
static void shown_url(struct pd_buf *out, const char *url)
{
	const char *path =
		!strncmp(url, "sqlite:", strlen("sqlite:")) ? url + strlen("sqlite:") : NULL;
	char *abs = path && *path != '/' ? realpath(path, NULL) : NULL;
	if (abs) {
		pd_buf_adds(out, "sqlite:");
		pd_buf_adds(out, abs);
	} else
		pd_url_unpassword(out, url);
	free(abs);
}

/* Reads the test's window from the store, finds its change points, writes the report. */
int pd_cli_hx_report(struct pd_store *st, const char *url, const struct pd_cli_hx_opts *o,
		     size_t *n_cp, struct pd_err *err)
{
	struct pd_buf db = PD_BUF_INIT;
	struct loaded l = {0};
	struct pd_history h = {0};
	struct pd_hist_opts ho = PD_HIST_OPTS_INIT;
	int rc = load(&l, st, o, err);
	if (rc == 0) {
		if (o->alpha > 0)
			ho.alpha = o->alpha;
		if (o->min_size > 0)
			ho.min_size = (size_t)o->min_size;
		pd_history_analyze(&h, l.values, l.n_runs - l.first, l.n_names,
				   (const char *const *)l.names, &ho);
		shown_url(&db, url);
		struct pd_hist_report r = {.test = o->test,
					   .h = &h,
					   .names = (const char *const *)l.names,
					   .values = l.values,
					   .runs = l.view,
					   .n_stored = l.n_runs,
					   .alpha = ho.alpha,
					   .db = db.ptr};
		rc = write_report(o->out, &r, err);
		*n_cp = h.n_cp;
		if (rc == 0 && !o->quiet)
			print_changes(&r);
	}
	pd_history_release(&h);
	loaded_free(&l);
	pd_buf_release(&db);
	return rc;
}

/* The test as the store names it: a signature's test_config is the stem of perfrunner's
 * file ("tests/n1ql/q2.test" -> "q2"), so --test takes the file's path or name too. */
static void test_name(struct pd_buf *out, const char *test)
{
	const char *base = strrchr(test, '/');
	base = base && base[1] ? base + 1 : test;
	size_t n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".test"))
		n -= 5;
	pd_buf_add(out, base, n);
}

int pd_cli_history_report(int argc, char **argv)
{
	struct pd_cli_hx_opts o = {.window = -1};
	struct pd_err err = PD_ERR_INIT;
	struct pd_store *st = NULL;
	struct pd_buf test = PD_BUF_INIT;
	char *url = NULL;
	size_t n_cp = 0;
	int rc;
	if (!pd_cli_hx_parse(&o, PD_HX_REPORT, argc, argv, &rc))
		return rc;
	if (!o.test || !o.out || o.n_args) {
		fprintf(stderr,
			"perfdelta: history report needs --test CONFIG and -o DIR, and no "
			"other argument (perfdelta history --help)\n");
		return PD_EXIT_USAGE;
	}
	test_name(&test, o.test);
	o.test = test.ptr;
	if (!(url = pd_cli_hx_db_url(&o, PD_STORE_READ, &err)) ||
	    pd_store_open(&st, url, PD_STORE_READ, &err) < 0 ||
	    pd_cli_hx_report(st, url, &o, &n_cp, &err) < 0)
		rc = pd_cli_hx_fail(&err);
	else if (!o.quiet)
		printf("%zu change point%s; report: %s/index.html (summary.json, junit.xml "
		       "beside "
		       "it)\n",
		       n_cp, n_cp == 1 ? "" : "s", o.out);
	pd_store_close(st);
	pd_buf_release(&test);
	free(url);
	return rc;
}

/* The demo's history: DEMO_RUNS weekly runs of DEMO_FEATURES features, with
 * pd_gen_plants, in a store in memory. */
#define DEMO_RUNS     100
#define DEMO_FEATURES 200
#define DEMO_TEST     "n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i"
#define DEMO_DB       "sqlite::memory:"

static int demo_store(struct pd_store **st, struct pd_err *err)
{
	struct pd_gen_opts g = {
		.test = DEMO_TEST, .n_features = DEMO_FEATURES, .seed = 1, .plant = 1};
	int rc = pd_store_open(st, DEMO_DB, PD_STORE_WRITE, err), added;
	for (size_t i = 0; i < DEMO_RUNS && rc == 0; i++) {
		struct pd_signature *s = pd_gen_run(&g, i);
		rc = pd_store_add(*st, s, NULL, &added, err);
		pd_signature_free(s);
	}
	return rc;
}

int pd_cli_history_demo(int argc, char **argv)
{
	struct pd_cli_hx_opts o = {.window = -1};
	struct pd_err err = PD_ERR_INIT;
	struct pd_store *st = NULL;
	size_t n_cp = 0;
	int rc;
	if (!pd_cli_hx_parse(&o, PD_HX_DEMO, argc, argv, &rc))
		return rc;
	if (o.n_args || o.test || o.db) {
		fprintf(stderr, "perfdelta: demo --history takes -o DIR only\n");
		return PD_EXIT_USAGE;
	}
	o.test = DEMO_TEST;
	o.out = o.out ? o.out : "perfdelta-history-demo";
	if (demo_store(&st, &err) < 0 || pd_cli_hx_report(st, DEMO_DB, &o, &n_cp, &err) < 0)
		rc = pd_cli_hx_fail(&err);
	else if (!o.quiet)
		printf("a generated history of %d weekly runs, %d features, changes planted in "
		       "3; "
		       "%zu change point%s found\nreport: %s/index.html\n",
		       DEMO_RUNS, DEMO_FEATURES, n_cp, n_cp == 1 ? "" : "s", o.out);
	pd_store_close(st);
	return rc;
}
