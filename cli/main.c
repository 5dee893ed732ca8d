/* perfdelta: arguments to options, options to the pipeline, errors to exit codes. */
#include "analyze/compare.h"
#include "analyze/runs/timebase.h"
#include "core/buf.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/err.h"
#include "core/file.h"
#include "core/outdir.h"
#include "core/src.h"
#include "core/xalloc.h"
#include "parse/bundle.h"
#include "parse/spread.h"
#include "cli/drive.h"
#include "cli/exec.h"
#include "cli/exit.h"
#include "cli/fetch_args.h"
#include "cli/flags.h"
#include "cli/history.h"
#include "cli/opts.h"
#include "cli/pull.h"
#include "cli/usage.h"
#include "render/escape.h"
#include "render/inspect.h"
#include "render/plot.h"
#include "render/report.h"
#include "render/terminal.h"

#include <stdarg.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* argv for perfdelta-history; compare's as "compare OPTIONS -- OPERANDS": each option
 * with its value when perfdelta's table, or else perfdelta-history's (its own
 * --baseline-history), says it takes one, so that perfdelta-history tells operands
 * without a list of compare's options. Never freed: it is exec'd. */
static char **history_argv(int argc, char **argv)
{
	char **out, **ops;
	int n = 0, k = 0, operands = 0;
	if (strcmp(argv[1], "compare"))
		return argv;
	out = pd_xcalloc((size_t)argc + 2, sizeof(*out));
	ops = pd_xcalloc((size_t)argc + 1, sizeof(*ops));
	out[n++] = argv[0], out[n++] = argv[1];
	for (int i = 2; i < argc; i++) {
		const struct pd_flag *f =
			operands ? NULL : pd_flags_find(&pd_opts_flags, argv[i]);
		if (!f && !operands)
			f = pd_flags_find(&pd_cli_hx_flags, argv[i]);
		int value = f && f->arg;
		if (!operands && !strcmp(argv[i], "--"))
			operands = 1;
		else if (value || (!operands && argv[i][0] == '-' && argv[i][1]))
			out[n++] = argv[i];
		else
			ops[k++] = argv[i];
		if (value && i + 1 < argc)
			out[n++] = argv[++i];
	}
	out[n++] = "--";
	for (int i = 0; i < k; i++)
		out[n++] = ops[i];
	free(ops);
	return out;
}

/* The one place errors are printed: one line, every byte from input (a path, a name in
 * the message) through the terminal escaper. */
static int report_error(const struct pd_err *err)
{
	struct pd_buf line = PD_BUF_INIT, shown = PD_BUF_INIT;
	pd_err_format(&line, err);
	pd_esc_text(&shown, line.ptr);
	fprintf(stderr, "perfdelta: %s\n", shown.ptr);
	pd_buf_release(&shown);
	pd_buf_release(&line);
	if (err->code == PD_EINVAL)
		return PD_EXIT_USAGE;
	if (err->code == PD_ECOMPARE)
		return PD_EXIT_NOTCMP;
	return PD_EXIT_INPUT;
}

static int cmd_inspect(const struct pd_opts *o)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_run *run = NULL;
	struct pd_buf out = PD_BUF_INIT;
	struct pd_facts facts;
	if (o->n_args != 1)
		return pd_flags_usage(&pd_opts_flags, "%s",
				      "inspect needs one run bundle: perfdelta inspect RUN");
	if (o->cmp.time_base.has_event_time || o->cmp.time_base.has_utc_offset)
		return pd_flags_usage(&pd_opts_flags, "%s",
				      "--baseline-event-time and --baseline-console-utc-offset "
				      "are for compare; inspect takes --event-time and "
				      "--console-utc-offset");
	if (pd_bundle_load(&run, o->args[0], &o->lim, &err) < 0)
		return report_error(&err);
	if (pd_facts_of(&facts, run, &o->cmp.time, &err) < 0) {
		pd_run_free(run);
		return report_error(&err);
	}
	if (o->json)
		pd_inspect_json(&out, run, &facts);
	else
		pd_inspect_text(&out, run, &facts);
	pd_facts_release(&facts);
	fwrite(out.ptr, 1, out.len, stdout);
	pd_buf_release(&out);
	pd_run_free(run);
	return PD_EXIT_OK;
}

/* The verdict, the ticket's points and the top findings, for the terminal. */
static void print_summary(const struct pd_comparison *c, const struct pd_report_opts *ro)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_terminal_summary(&b, c, ro->out, pd_report_is_file(ro));
	fwrite(b.ptr, 1, b.len, stdout);
	pd_buf_release(&b);
}

static int verdict_exit(const struct pd_opts *o, const struct pd_comparison *c)
{
	if (c->verdict == PD_VERDICT_NOT_COMPARABLE)
		return PD_EXIT_NOTCMP;
	if (c->verdict == PD_VERDICT_REGRESSION && o->fail_on_regression)
		return PD_EXIT_REGRESSION;
	return PD_EXIT_OK;
}

/* Where the report is published: --report-url, else Jenkins' BUILD_URL (the build's page,
 * which links the HTML Publisher's report), else unknown. */
static const char *report_url(const struct pd_opts *o)
{
	const char *u = o->report_url ? o->report_url : getenv("BUILD_URL");
	return u && *u ? u : NULL;
}

/* Jenkins serves what it publishes under a Content-Security-Policy that blocks inline
 * style and data: images: a single-file report (--single-file, or -o FILE.html) shows
 * there unstyled, without its charts, and scrolls sideways. Said when it is written in a
 * Jenkins build (BUILD_URL set), where the directory is what to publish. */
static void jenkins_single_file(struct pd_strv *warnings, const struct pd_opts *o,
				const char *out)
{
	const char *build = getenv("BUILD_URL");
	if (!build || !*build || !(o->single_file || pd_str_ends_with(out, ".html")))
		return;
	pd_strv_addf(
		warnings,
		"%s in a Jenkins build (BUILD_URL is set): Jenkins' Content-Security-Policy "
		"blocks a single file's inline style and data: charts; publish the report "
		"directory there, and attach the single file to a ticket or open it in a "
		"browser",
		o->single_file ? "--single-file" : "-o FILE.html");
}

/* --run-spread FILE into copts (s keeps what they point at). */
static int load_spreads(struct pd_spreads *s, struct pd_compare_opts *copts, const char *path,
			const struct pd_limits *lim, struct pd_err *err)
{
	struct pd_buf text = PD_BUF_INIT;
	int rc = pd_file_read(&text, path, lim->max_file_bytes, err);
	if (rc == 0) {
		struct pd_src src = {text.ptr, text.len, path, lim};
		rc = pd_spread_parse(s, &src, err);
	}
	copts->run_spread = s->v, copts->n_run_spread = rc == 0 ? s->n : 0;
	pd_buf_release(&text);
	return rc;
}

/* An output inside one of the runs would be read as part of that run next time. */
static int output_in_input(const char *out, const char *const *paths, size_t n,
			   struct pd_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (pd_outdir_inside(out, paths[i]))
			return pd_err_at(
				err, PD_EIO, out, 0, 0,
				"refusing an output inside the run %s (it would be read "
				"as part of it): choose an output outside the runs",
				paths[i]);
	return 0;
}

/* Compares the last of paths[0..n) (the target) with the others (its baselines). */
static int compare_runs(const struct pd_opts *o, const char *const *paths, size_t n,
			const char *out)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_run **runs = pd_xcalloc(n, sizeof(*runs));
	struct pd_comparison *c = NULL;
	int rc = PD_EXIT_OK;
	int progress = !o->quiet && isatty(2);
	struct pd_drive_times times = {0};
	struct pd_compare_opts copts = o->cmp;
	struct pd_spreads spreads = {0};
	struct pd_strv warnings = {0};
	double parse_s = pd_clock_now();
	if (pd_outdir_check(out, pd_str_ends_with(out, ".html"), &err) < 0 ||
	    output_in_input(out, paths, n, &err) < 0) {
		rc = report_error(&err); /* before any work */
		goto done;
	}
	if (progress)
		fprintf(stderr, "perfdelta: reading the runs\n");
	if (pd_bundle_load_many(runs, paths, n, &o->lim, &err) < 0 ||
	    (o->run_spread &&
	     load_spreads(&spreads, &copts, o->run_spread, &o->lim, &err) < 0)) {
		rc = report_error(&err);
		goto done;
	}
	const struct pd_run *base = runs[0], *target = runs[n - 1];
	copts.more_base = (const struct pd_run *const *)runs + 1;
	copts.n_more_base = n - 2;
	parse_s = pd_clock_now() - parse_s;
	if (progress)
		fprintf(stderr, "perfdelta: comparing %zu and %zu series\n", base->n_series,
			target->n_series);
	struct pd_report_opts ro = {.out = out,
				    .labels = {pd_render_label(base, o->label_base),
					       pd_render_label(target, o->label_target),
					       report_url(o)},
				    .single_file = o->single_file,
				    .progress = progress,
				    .gnuplot_timeout_s = o->gnuplot_timeout_s};
	jenkins_single_file(&warnings, o, out);
	if (pd_drive_compare(&c, base, target, &copts, &ro, &warnings, &times, &err) < 0) {
		rc = report_error(&err);
		goto done;
	}
	for (size_t i = 0; i < c->warnings.n; i++) { /* stderr too, even with --quiet */
		struct pd_buf b = PD_BUF_INIT;
		pd_esc_text(&b, c->warnings.v[i]);
		fprintf(stderr, "perfdelta: warning: %s\n", b.ptr);
		pd_buf_release(&b);
	}
	if (o->timings)
		fprintf(stderr, "timings: parse %.4f s, analyze %.4f s, render %.4f s\n",
			parse_s, times.analyze, times.render);
	if (!o->quiet)
		print_summary(c, &ro);
	rc = verdict_exit(o, c);
done:
	pd_comparison_free(c);
	pd_strv_free(&warnings);
	pd_spread_free(&spreads);
	for (size_t i = 0; i < n; i++)
		pd_run_free(runs[i]);
	free(runs);
	return rc;
}

/* A Jenkins build URL or a cbmonitor comparison URL stands for the bundles it is pulled
 * into (cli/fetch_args.h). */
static int cmd_compare(const struct pd_opts *o)
{
	struct pd_strv paths = {0};
	struct pd_err err = PD_ERR_INIT;
	int rc;
	struct pd_fetch_builds b = {o->builds, o->n_builds};
	struct pd_plan_opts po = o->pull;
	po.lim = &o->lim;
	if (!o->out)
		return pd_flags_usage(&pd_opts_flags, "%s",
				      "compare needs an output directory: -o DIR");
	if (pd_fetch_args(&paths, o->args, (size_t)o->n_args, &po, &b, o->quiet, &err) < 0)
		rc = report_error(&err);
	else if (paths.n < 2)
		rc = pd_flags_usage(&pd_opts_flags, "%s",
				    "compare needs two run bundles or more: perfdelta "
				    "compare BASELINE [BASELINE...] TARGET -o DIR");
	else
		rc = compare_runs(o, (const char *const *)paths.v, paths.n, o->out);
	pd_strv_free(&paths);
	return rc;
}

/* Where the seed fixture is, relative to the executable: in the build tree, or where
 * `cmake --install` put it (PD_SEED_INSTALLED, relative to the installed binary). NULL
 * with err set when in neither. */
static char *seed_dir(struct pd_err *err)
{
	static const char *const places[] = {"fixtures/seed", PD_SEED_INSTALLED};
	char *exe = pd_exe_dir();
	struct pd_buf b = PD_BUF_INIT;
	if (!exe) {
		pd_err_at(err, PD_EIO, "/proc/self/exe", 0, 0,
			  "cannot read it to find the demo's runs: %s", strerror(errno));
		return NULL;
	}
	for (size_t i = 0; i < 2; i++) {
		pd_buf_truncate(&b, 0);
		pd_buf_addf(&b, "%s/%s/baseline/perfdb", exe, places[i]);
		struct stat st;
		if (stat(b.ptr, &st) == 0 && S_ISDIR(st.st_mode)) {
			pd_buf_truncate(&b, 0);
			pd_buf_addf(&b, "%s/%s", exe, places[i]);
			free(exe);
			return pd_buf_detach(&b);
		}
	}
	pd_err_set(err, PD_EIO,
		   "the demo's runs are in neither %s/%s nor %s/%s: build the project, or "
		   "install it with cmake --install",
		   exe, places[0], exe, places[1]);
	free(exe);
	pd_buf_release(&b);
	return NULL;
}

/* The seed fixture's comparison; it holds regressions on purpose, so the demo exits 0
 * once the report is written. */
static int cmd_demo(const struct pd_opts *o)
{
	const char *out = o->out ? o->out : "perfdelta-demo";
	struct pd_err err = PD_ERR_INIT;
	struct pd_buf base = PD_BUF_INIT, target = PD_BUF_INIT;
	char *seed;
	int rc;
	if (o->n_args)
		return pd_flags_usage(&pd_opts_flags, "unexpected argument '%s'", o->args[0]);
	if (!(seed = seed_dir(&err)))
		return report_error(&err);
	pd_buf_addf(&base, "%s/baseline", seed);
	pd_buf_addf(&target, "%s/failover", seed);
	rc = compare_runs(o, (const char *const[]){base.ptr, target.ptr}, 2, out);
	pd_buf_release(&base);
	pd_buf_release(&target);
	free(seed);
	return rc == PD_EXIT_REGRESSION ? PD_EXIT_OK : rc;
}

/* What pull shows: a progress line on a terminal, notes (retries) unless --quiet. */
struct pull_ui {
	int tty, quiet, shown;
	double last;
	struct pd_transfer_progress p;
};

static void pull_progress(void *ctx, const struct pd_transfer_progress *p)
{
	struct pull_ui *ui = ctx;
	double t = pd_clock_now();
	ui->p = *p;
	if (!ui->tty || (!p->finished && t - ui->last < 0.1))
		return;
	ui->last = t;
	fprintf(stderr, "\rperfdelta: pulled %zu of %zu, %.1f MiB%s", p->done, p->total,
		(double)p->bytes / 1048576, p->finished ? "\n" : "");
	ui->shown = !p->finished;
}

static void pull_note(void *ctx, const char *msg)
{
	struct pull_ui *ui = ctx;
	if (ui->quiet)
		return;
	if (ui->shown)
		fputs("\r\033[K", stderr);
	ui->shown = 0;
	struct pd_buf shown = PD_BUF_INIT; /* it may quote a server's names */
	pd_esc_text(&shown, msg);
	fprintf(stderr, "perfdelta: %s\n", shown.ptr);
	pd_buf_release(&shown);
}

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* perfdelta checks the flags (a usage error needs no perfdelta-pull) and hands argv on
 * to perfdelta-pull, which parses it again and pulls (cli/pull.h). */
static int cmd_pull(const struct pd_opts *o, char **argv)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_plan_opts po = o->pull;
	struct pull_ui ui = {isatty(2) && !o->quiet, o->quiet, 0, 0, {0}};
	if (o->n_args)
		return pd_flags_usage(&pd_opts_flags, "unexpected argument '%s'", o->args[0]);
	if (o->n_builds > 1)
		return pd_flags_usage(&pd_opts_flags, "%s", "pull takes one --jenkins");
	if (!o->out)
		return pd_flags_usage(&pd_opts_flags, "%s",
				      "pull needs a bundle directory: -o RUN_DIR");
	po.out = o->out;
	po.lim = &o->lim;
	po.jenkins_user = env("PERFDELTA_JENKINS_USER");
	po.jenkins_token = env("PERFDELTA_JENKINS_TOKEN");
	if (!po.jenkins_user != !po.jenkins_token)
		return pd_flags_usage(
			&pd_opts_flags, "%s",
			"PERFDELTA_JENKINS_USER and PERFDELTA_JENKINS_TOKEN go together");
	po.progress = pull_progress;
	po.note = pull_note;
	po.ctx = &ui;
	if ((pd_cli_puller.pull ? pd_cli_puller.pull(&po, &err)
				: pd_cli_puller.handoff(argv, &err)) < 0)
		return report_error(&err);
	if (!o->quiet)
		printf("pulled %s: %zu requests, %.1f MiB, %zu retried\n", o->out, ui.p.done,
		       (double)ui.p.bytes / 1048576, ui.p.retries);
	if (o->pull_history) { /* perfdelta-history history add OUT [--db URL] */
		char *add[] = {argv[0],
			       "history",
			       "add",
			       (char *)o->out,
			       o->history_db ? "--db" : NULL,
			       (char *)o->history_db,
			       NULL};
		fflush(stdout);
		pd_cli_exec("perfdelta-history", add, &err);
		return report_error(&err);
	}
	return PD_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct pd_opts o = PD_OPTS_INIT;
	if (pd_cli_is_history(argc, argv)) { /* perfdelta-history: cli/history.c */
		struct pd_err err = PD_ERR_INIT;
		pd_cli_exec("perfdelta-history", history_argv(argc, argv), &err);
		return report_error(&err);
	}
	int rc = pd_opts_parse(&o, argc, argv);
	pd_cleanup_catch_signals();
	if (rc < 0) {
		if (o.cmd == PD_CMD_INSPECT)
			rc = cmd_inspect(&o);
		else if (o.cmd == PD_CMD_COMPARE)
			rc = cmd_compare(&o);
		else if (o.cmd == PD_CMD_DEMO)
			rc = cmd_demo(&o);
		else
			rc = cmd_pull(&o, argv);
	}
	pd_opts_release(&o);
	return rc;
}
