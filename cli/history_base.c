#define _GNU_SOURCE /* memfd_create (glibc 2.27) */
/* perfdelta-history: `compare --baseline-history N [--db URL] [options] TARGET`: the N
 * most recent earlier runs of the target's test config and build line in the store become
 * the comparison's baselines, and perfdelta compare runs on them (exec, so its output and
 * exit code are compare's own). A stored bundle that is no longer where it was added from
 * (moved or deleted) is skipped, with a note, and the next earlier run taken. */
#include "cli/exec.h"
#include "cli/history.h"
#include "cli/usage.h"

#include "analyze/policy.h"
#include "analyze/stats/history.h"
#include "analyze/signature.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/xalloc.h"
#include "history/store.h"
#include "parse/bundle.h"
#include "render/escape.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#define HELP "see perfdelta --help"

/* compare's argv split: ours, "compare" and the history table's flags of compare with
 * their values (--baseline-history N, --db URL); the rest (argv[0] and "compare" kept),
 * the operands counted; the target is the last. */
struct split {
	char **rest, **ours;
	int n_rest, n_ours;
	const char *target;
	int operands;
};

/* perfdelta hands compare over as "compare OPTIONS -- OPERANDS" (cli/main.c's
 * history_argv, which knows which options take values): every argument before "--" is
 * passed on as it is but ours; after it, the operands. */
static int split_args(struct split *s, int argc, char **argv)
{
	int only_operands = 0;
	s->rest = pd_xcalloc((size_t)argc + 1, sizeof(*s->rest));
	s->ours = pd_xcalloc((size_t)argc + 1, sizeof(*s->ours));
	s->rest[s->n_rest++] = argv[0], s->rest[s->n_rest++] = argv[1];
	s->ours[s->n_ours++] = argv[1];
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const struct pd_flag *f =
			only_operands ? NULL : pd_flags_find(&pd_cli_hx_flags, a);
		if (f && f->arg && f->cmds & PD_HX_COMPARE) {
			if (i + 1 >= argc)
				return pd_usage(HELP, "%s needs a value", a);
			s->ours[s->n_ours++] = argv[i], s->ours[s->n_ours++] = argv[++i];
			continue;
		}
		s->rest[s->n_rest++] = argv[i];
		if (!only_operands && !strcmp(a, "--"))
			only_operands = 1;
		else if (only_operands)
			s->target = a, s->operands++;
	}
	return 0;
}

/* 1 when run r is an earlier run of the target's build line (and not the target):
 * pd_history_earlier. */
static int earlier(const struct pd_store_run *r, const struct pd_signature *t, const char *line,
		   const char *order)
{
	char *o = pd_store_build_order(r->version);
	struct pd_hist_when rw = {r->key, r->build_line ? r->build_line : "", o, r->time_ms,
				  r->number},
			    tw = {t->key, line, order, t->time_ms, t->number};
	int yes = pd_history_earlier(&rw, &tw);
	free(o);
	return yes;
}

static int is_dir(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0;
}

/* A note on stderr that a stored run's bundle is gone. */
static void gone(const struct pd_store_run *r)
{
	struct pd_buf m = PD_BUF_INIT, e = PD_BUF_INIT;
	pd_buf_addf(&m,
		    "history: run %s was added from %s, which is gone (moved or deleted): "
		    "skipped, re-add it with perfdelta history add",
		    r->key, r->bundle ? r->bundle : "(no bundle)");
	pd_esc_text(&e, m.ptr);
	fprintf(stderr, "perfdelta: %s\n", e.ptr);
	pd_buf_release(&m);
	pd_buf_release(&e);
}

/* The bundles of the n most recent earlier runs (oldest first) into out (borrowed from
 * runs); returns how many. */
static size_t pick(const char **out, size_t n, const struct pd_store_run *runs, size_t n_runs,
		   const struct pd_signature *t)
{
	char *line = pd_store_build_line(t->version), *order = pd_store_build_order(t->version);
	size_t k = 0;
	for (size_t i = n_runs; i-- > 0 && k < n;) {
		if (!earlier(&runs[i], t, line, order))
			continue;
		if (!is_dir(runs[i].bundle)) {
			gone(&runs[i]);
			continue;
		}
		out[k++] = runs[i].bundle;
	}
	for (size_t i = 0; i < k / 2; i++) { /* oldest first */
		const char *x = out[i];
		out[i] = out[k - 1 - i], out[k - 1 - i] = x;
	}
	free(line), free(order);
	return k;
}

/* The lines of spread_lines (below) from a history's values. */
static void spread_of(struct pd_buf *out, const double *values, size_t n_runs,
		      const char *const *names, size_t n_names)
{
	struct pd_history h = {0};
	struct pd_hist_opts ho = PD_HIST_OPTS_INIT;
	struct pd_hist_spread sp;
	pd_history_analyze(&h, values, n_runs, n_names, names, &ho);
	for (size_t f = 0; f < n_names; f++) {
		pd_history_spread(&sp, &h, values, f);
		if (sp.n >= PD_HISTORY_MIN_RUNS && isfinite(sp.rel_sd) &&
		    !strpbrk(names[f], "\t\n"))
			pd_buf_addf(out, "%s\t%.17g\t%zu\n", names[f], sp.rel_sd, sp.n);
	}
	pd_history_release(&h);
}

/* The runs of the test before t on its build line, the newest PD_POLICY_SPREAD_WINDOW of
 * them: their features' run-to-run spreads (pd_history_spread: since each one's last
 * change point) as --run-spread lines into out, those over at least PD_HISTORY_MIN_RUNS
 * runs. */
static int spread_lines(struct pd_buf *out, struct pd_store *st,
			const struct pd_store_run *runs, size_t n_runs,
			const struct pd_signature *t, struct pd_err *err)
{
	char *line = pd_store_build_line(t->version), *order = pd_store_build_order(t->version);
	struct pd_store_run *prior = pd_xcalloc(n_runs + 1, sizeof(*prior)); /* borrowed */
	char **names = NULL;
	double *values = NULL;
	size_t k = 0, n_names = 0, first;
	int rc = 0;
	for (size_t i = 0; i < n_runs; i++)
		if (earlier(&runs[i], t, line, order))
			prior[k++] = runs[i];
	first = k > PD_POLICY_SPREAD_WINDOW ? k - PD_POLICY_SPREAD_WINDOW : 0;
	if (k - first >= PD_HISTORY_MIN_RUNS)
		rc = pd_store_features(st, prior + first, k - first, &names, &n_names, &values,
				       err);
	if (rc == 0 && n_names)
		spread_of(out, values, k - first, (const char *const *)names, n_names);
	for (size_t i = 0; i < n_names; i++)
		free(names[i]);
	free(names), free(values), free(prior), free(line), free(order);
	return rc;
}

/* spreads in a memory file that the exec'd compare inherits: "/proc/self/fd/N" into path,
 * or "" when there are none. */
static int spread_file(struct pd_buf *path, const struct pd_buf *spreads, struct pd_err *err)
{
	int fd;
	if (!spreads->len)
		return 0;
	fd = memfd_create("perfdelta-run-spread", 0); /* no MFD_CLOEXEC: compare reads it */
	if (fd < 0 || pd_file_write_all(fd, spreads->ptr, spreads->len) < 0)
		return pd_err_set(err, PD_EIO,
				  "cannot hand the history's spreads to compare: %s",
				  strerror(errno));
	pd_buf_addf(path, "/proc/self/fd/%d", fd);
	return 0;
}

/* Execs perfdelta compare with the baselines put before the target, and the history's
 * run-to-run spreads (for single-baseline verdicts) when there are some. */
static int run_compare(const struct split *s, const char **base, size_t k,
		       const struct pd_buf *spreads, struct pd_err *err)
{
	char **argv = pd_xcalloc((size_t)s->n_rest + k + 3, sizeof(*argv));
	struct pd_buf path = PD_BUF_INIT;
	size_t n = 0;
	if (spread_file(&path, spreads, err) < 0)
		return err->code;
	argv[n++] = s->rest[0], argv[n++] = s->rest[1];
	if (path.len)
		argv[n++] = "--run-spread", argv[n++] = path.ptr;
	for (size_t i = 0; i < k; i++)
		argv[n++] = (char *)base[i];
	for (int i = 2; i < s->n_rest; i++)
		argv[n++] = s->rest[i];
	if (k)
		fprintf(stderr, "perfdelta: baselines from the history: %zu run%s\n", k,
			k == 1 ? "" : "s");
	fflush(stderr);
	pd_cli_exec_perfdelta(argv, err);
	free(argv);
	pd_buf_release(&path);
	return err->code;
}

static int baselines(const struct split *s, const struct pd_cli_hx_opts *o, struct pd_err *err)
{
	struct pd_run *run = NULL;
	struct pd_signature *t = NULL;
	struct pd_store *st = NULL;
	struct pd_store_run *runs = NULL;
	size_t n_runs = 0, k = 0;
	const char *base[16];
	struct pd_buf spreads = PD_BUF_INIT;
	char *url = pd_cli_hx_db_url(o, PD_STORE_READ, err);
	int rc = url ? 0 : err->code;
	if (rc == 0 && (rc = pd_bundle_load(&run, s->target, &pd_limits_default, err)) == 0 &&
	    (rc = pd_signature_of(&t, run, NULL, err)) == 0 &&
	    (rc = pd_store_open(&st, url, PD_STORE_READ, err)) == 0 &&
	    (rc = pd_store_runs(st, t->test_config ? t->test_config : "", &runs, &n_runs,
				err)) == 0) {
		k = o->baselines ? pick(base, (size_t)o->baselines, runs, n_runs, t) : 0;
		if (o->baselines && !k)
			rc = pd_err_set(
				err, PD_ENOTFOUND,
				"the history holds no earlier run of test '%s' on build "
				"line of %s with its bundle in place: nothing to compare with",
				t->test_config ? t->test_config : "",
				t->version ? t->version : "?");
		if (rc == 0 && (rc = spread_lines(&spreads, st, runs, n_runs, t, err)) == 0)
			rc = run_compare(s, base, k, &spreads, err);
	}
	pd_buf_release(&spreads);
	pd_store_runs_free(runs, n_runs);
	pd_store_close(st);
	pd_signature_free(t);
	pd_run_free(run);
	free(url);
	return rc;
}

int pd_cli_baseline_history(int argc, char **argv)
{
	struct split s = {0};
	struct pd_cli_hx_opts o = {0};
	struct pd_err err = PD_ERR_INIT;
	int rc = split_args(&s, argc, argv);
	if (rc == 0) /* --db alone: the runs given, the history's spreads */
		pd_cli_hx_parse(&o, PD_HX_COMPARE, s.n_ours, s.ours, &rc);
	if (rc == 0 && !o.baselines && !o.db)
		rc = PD_EXIT_USAGE; /* perfdelta hands over only with one of them */
	if (rc == 0 && o.baselines && s.operands != 1)
		rc = pd_usage(HELP, "%s",
			      "compare --baseline-history N takes one run bundle, the target: "
			      "its baselines come from the history");
	if (rc == 0 && !o.baselines && s.operands < 2)
		rc = pd_usage(HELP, "%s", "compare --db URL takes a baseline and a target");
	if (rc == 0 && baselines(&s, &o, &err) < 0)
		rc = pd_cli_hx_fail(&err);
	free(s.rest), free(s.ours);
	return rc;
}
