/* perfdelta: arguments to options, options to the pipeline, errors to exit codes. */
#include "analyze/compare.h"
#include "analyze/timebase.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/err.h"
#include "core/file.h"
#include "core/src.h"
#include "core/xalloc.h"
#include "parse/bundle.h"
#include "cli/pull.h"
#include "render/escape.h"
#include "render/inspect.h"
#include "render/report.h"

#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_REGRESSION = 1, EXIT_USAGE = 2, EXIT_INPUT = 3, EXIT_NOTCMP = 4 };

static const char usage[] =
	"usage: perfdelta compare BASELINE TARGET -o DIR [options]\n"
	"       perfdelta inspect RUN [--json] [options]\n"
	"       perfdelta demo [-o DIR] [options]\n"
	"       perfdelta pull --jenkins URL [--snapshot NAME]... -o RUN_DIR [options]\n"
	"\n"
	"Compare two perfrunner runs of a Couchbase cluster (a baseline and a target, such as\n"
	"the same workload with a node failed over mid-run) from their cbmonitor/perfdb\n"
	"snapshots, Jenkins outputs and perfrunner configs. A run is a bundle directory (or a\n"
	".tar/.tar.gz of one): perfdb/<db>/<metric>.json, jenkins/build.json or build.xml,\n"
	"jenkins/consoleText, perfrunner/*.spec and *.test.\n"
	"\n"
	"commands:\n"
	"  compare BASELINE TARGET  align the runs on the event, compare every metric per "
	"node,\n"
	"                         role and phase, and write OUT/summary.json\n"
	"  inspect RUN            what was found in a bundle: snapshots, nodes and roles, "
	"series,\n"
	"                         samples, time range, gaps, the time base, events and KPIs\n"
	"  demo                   compare the bundled seed fixture (a baseline and a failover\n"
	"                         run); writes to ./perfdelta-demo unless -o is given\n"
	"  pull                   build a run bundle from a Jenkins build and perfdb: the "
	"build's\n"
	"                         api/json and consoleText, every series of the console's\n"
	"                         snapshots, the spec and test config; written atomically\n"
	"\n"
	"compare options:\n"
	"  -o, --output DIR       the output directory (replaced atomically): index.html,\n"
	"                         charts/, summary.json, junit.xml, summary.md, summary.jira\n"
	"  --single-file          inline the charts into index.html (for a ticket); with\n"
	"                         -o FILE.html only that file is written\n"
	"  --threshold PCT        practical threshold for a change (default 5)\n"
	"  --threshold-for GLOB=PCT  a threshold for metrics matching GLOB (repeatable),\n"
	"                         e.g. --threshold-for 'atop/*_rss=3'\n"
	"  --metrics GLOB,...     compare only these collector/metric names\n"
	"  --fail-on regression|never  exit 1 on a regression (default) or never\n"
	"  --label-baseline L, --label-target L  names of the runs in the outputs\n"
	"  --quiet                print nothing but errors\n"
	"  --timings              print the time of each stage (parse, analyze, render)\n"
	"\n"
	"pull options:\n"
	"  --jenkins URL          the build (.../job/J/N/); credentials from the environment\n"
	"                         (PERFDELTA_JENKINS_USER, PERFDELTA_JENKINS_TOKEN) or "
	"--netrc\n"
	"  --jenkins-api json|xml  build.json from api/json (default) or build.xml from "
	"api/xml\n"
	"  --perfdb URL           perfdb (default: the console's cbmonitor host, port 8080)\n"
	"  --snapshot NAME        pull this snapshot (repeatable; default: the console's)\n"
	"  --perfrunner-dir DIR   a perfrunner checkout: copy clusters/<cluster> and\n"
	"                         tests/<test_config> named by the build's parameters\n"
	"  --netrc                credentials from ~/.netrc\n"
	"  --parallel N           transfers at once (default 8, at most 64)\n"
	"  --timeout S            connect and total time of one try (default 120)\n"
	"  --retries N            tries again on 5xx, 408, 429 and connection errors, waiting\n"
	"                         0.5 s, then 1 s, 2 s... (default 3)\n"
	"\n";

/* The rest of --help (one string would pass the 4095 bytes C99 promises). */
static const char usage_more[] =
	"time base options (for compare and inspect; they apply to the target):\n"
	"  --event-time S         the event (failover) happened S seconds into the measured\n"
	"                         phase (default: from the console, the series or the config)\n"
	"  --console-utc-offset ±HH:MM  the console's local time zone (default: found by\n"
	"                         aligning its rebalance lines with the series, else from the\n"
	"                         Jenkins build start)\n"
	"  --baseline-event-time S, --baseline-console-utc-offset ±HH:MM\n"
	"                         compare: the same for the baseline (a baseline with its own\n"
	"                         event is shifted onto the target's)\n"
	"\n"
	"other options:\n"
	"  --json                 inspect: print JSON\n"
	"  -h, --help             this text\n"
	"  --version              the version\n"
	"\n"
	"limits on input (raise them with the flags):\n"
	"  --max-file-size BYTES  one input file (default 1 GiB)\n"
	"  --max-samples N        samples in one series (default 50000000)\n"
	"  --max-series N         series in one run (default 100000)\n"
	"  --max-line BYTES       one console or INI line (default 1 MiB)\n"
	"  --max-depth N          JSON and XML nesting (default 64, at most 1000)\n"
	"\n"
	"exit codes: 0 no regression, 1 regression found, 2 usage error, 3 input error\n"
	"(unreadable or malformed input), 4 runs not comparable\n";

#define MAX_ARGS  4
#define MAX_GLOBS 64

struct opts {
	const char *cmd;
	const char *args[MAX_ARGS];
	int n_args;
	int json, quiet, fail_on_regression, single_file, timings;
	const char *out;
	const char *label_base, *label_target;
	struct pd_limits lim;
	struct pd_compare_opts cmp;
	const char *globs[MAX_GLOBS];
	struct pd_threshold thresholds[MAX_GLOBS];
	char *metrics_arg;                /* owned copy of --metrics, split in place */
	char *threshold_globs[MAX_GLOBS]; /* owned copies of --threshold-for's GLOBs */
	struct pd_pull_opts pull;
	const char *snapshots[MAX_GLOBS];
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "perfdelta: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'perfdelta --help'.\n");
	return EXIT_USAGE;
}

static int parse_count(size_t *out, const char *flag, const char *val)
{
	char *end;
	unsigned long long v;
	if (!*val || *val == '-')
		return usage_error("%s needs a positive number, not '%s'", flag, val);
	v = strtoull(val, &end, 10);
	if (*end || v == 0)
		return usage_error("%s needs a positive number, not '%s'", flag, val);
	*out = (size_t)v;
	return 0;
}

/* --max-depth: cJSON refuses more than 1000 levels by itself, so that is the ceiling. */
static int parse_depth(struct opts *o, const char *val)
{
	size_t v = 0;
	int rc = parse_count(&v, "--max-depth", val);
	if (rc)
		return rc;
	if (v > 1000)
		return usage_error("--max-depth is at most 1000, not '%s'", val);
	o->lim.max_depth = (unsigned)v;
	return 0;
}

static int parse_pct(double *out, const char *flag, const char *val)
{
	char *end;
	double v = strtod(val, &end);
	if (!*val || *end || !(v > 0) || v > 1000)
		return usage_error("%s needs a percentage above 0, not '%s'", flag, val);
	*out = v;
	return 0;
}

/* --console-utc-offset (or the baseline's): +HH:MM or -HH:MM. */
static int parse_utc_offset(struct pd_time_flags *t, const char *flag, const char *val)
{
	int hh, mm, n = 0;
	if ((val[0] != '+' && val[0] != '-') ||
	    sscanf(val + 1, "%2d:%2d%n", &hh, &mm, &n) != 2 || val[1 + n] || hh > 14 || mm > 59)
		return usage_error("%s needs +HH:MM or -HH:MM, not '%s'", flag, val);
	t->has_utc_offset = 1;
	t->utc_offset_s = (val[0] == '-' ? -1 : 1) * (int64_t)(hh * 3600 + mm * 60);
	return 0;
}

/* --event-time (or the baseline's): seconds from the start of the phase. */
static int parse_event_time(struct pd_time_flags *t, const char *flag, const char *val)
{
	char *end;
	double v = strtod(val, &end);
	if (!*val || *end || !(v >= 0) || v > 1e9)
		return usage_error("%s needs seconds from the start of the phase, not '%s'",
				   flag, val);
	t->has_event_time = 1;
	t->event_time_s = v;
	t->event_flag = flag;
	return 0;
}

static int parse_metrics(struct opts *o, const char *val)
{
	free(o->metrics_arg);
	o->metrics_arg = pd_xstrdup(val);
	o->cmp.n_metric_globs = 0;
	for (char *save = NULL, *g = strtok_r(o->metrics_arg, ",", &save); g;
	     g = strtok_r(NULL, ",", &save)) {
		if (o->cmp.n_metric_globs == MAX_GLOBS)
			return usage_error("--metrics takes at most %d patterns", MAX_GLOBS);
		o->globs[o->cmp.n_metric_globs++] = g;
	}
	if (!o->cmp.n_metric_globs)
		return usage_error("%s", "--metrics needs at least one pattern");
	o->cmp.metric_globs = o->globs;
	return 0;
}

/* The GLOB is copied: pull passes argv on to perfdelta-pull as it was given. */
static int parse_threshold_for(struct opts *o, const char *val)
{
	const char *eq = strrchr(val, '=');
	int rc;
	if (!eq || eq == val)
		return usage_error("--threshold-for needs GLOB=PCT, not '%s'", val);
	if (o->cmp.n_overrides == MAX_GLOBS)
		return usage_error("--threshold-for is limited to %d patterns", MAX_GLOBS);
	struct pd_threshold *t = &o->thresholds[o->cmp.n_overrides];
	if ((rc = parse_pct(&t->pct, "--threshold-for", eq + 1)))
		return rc;
	t->glob = o->threshold_globs[o->cmp.n_overrides] = pd_xstrndup(val, (size_t)(eq - val));
	o->cmp.n_overrides++;
	o->cmp.overrides = o->thresholds;
	return 0;
}

static int parse_fail_on(struct opts *o, const char *val)
{
	if (!strcmp(val, "regression"))
		o->fail_on_regression = 1;
	else if (!strcmp(val, "never"))
		o->fail_on_regression = 0;
	else
		return usage_error("--fail-on takes regression or never, not '%s'", val);
	return 0;
}

/* pull's flags that take a checked value. */
static int parse_pull_flag(struct opts *o, const char *flag, const char *val)
{
	unsigned long lo = 1, hi = 86400, v = 0; /* --timeout: up to a day */
	char *end = NULL;
	if (!strcmp(flag, "--snapshot")) {
		if (o->pull.n_snapshots == MAX_GLOBS)
			return usage_error("--snapshot is limited to %d names", MAX_GLOBS);
		o->snapshots[o->pull.n_snapshots++] = val;
		o->pull.snapshots = o->snapshots;
		return 0;
	}
	if (!strcmp(flag, "--jenkins-api")) {
		if (strcmp(val, "json") && strcmp(val, "xml"))
			return usage_error("--jenkins-api takes json or xml, not '%s'", val);
		o->pull.jenkins_xml = !strcmp(val, "xml");
		return 0;
	}
	if (!strcmp(flag, "--parallel"))
		hi = 64;
	else if (!strcmp(flag, "--retries"))
		lo = 0, hi = 20;
	if (*val >= '0' && *val <= '9')
		v = strtoul(val, &end, 10);
	if (!end || *end || v < lo || v > hi)
		return usage_error("%s needs a whole number from %lu to %lu, not '%s'", flag,
				   lo, hi, val);
	if (!strcmp(flag, "--parallel"))
		o->pull.parallel = (unsigned)v;
	else if (!strcmp(flag, "--timeout"))
		o->pull.timeout_s = (long)v;
	else
		o->pull.retries = (unsigned)v;
	return 0;
}

/* An option that takes a value: applies it and returns 0 or an exit code. */
static int with_value(struct opts *o, const char *flag, const char *val)
{
	if (!strcmp(flag, "-o") || !strcmp(flag, "--output"))
		o->out = val;
	else if (!strcmp(flag, "--label-baseline"))
		o->label_base = val;
	else if (!strcmp(flag, "--label-target"))
		o->label_target = val;
	else if (!strcmp(flag, "--threshold"))
		return parse_pct(&o->cmp.threshold_pct, flag, val);
	else if (!strcmp(flag, "--threshold-for"))
		return parse_threshold_for(o, val);
	else if (!strcmp(flag, "--metrics"))
		return parse_metrics(o, val);
	else if (!strcmp(flag, "--fail-on"))
		return parse_fail_on(o, val);
	else if (!strcmp(flag, "--event-time"))
		return parse_event_time(&o->cmp.time, flag, val);
	else if (!strcmp(flag, "--console-utc-offset"))
		return parse_utc_offset(&o->cmp.time, flag, val);
	else if (!strcmp(flag, "--baseline-event-time"))
		return parse_event_time(&o->cmp.time_base, flag, val);
	else if (!strcmp(flag, "--baseline-console-utc-offset"))
		return parse_utc_offset(&o->cmp.time_base, flag, val);
	else if (!strcmp(flag, "--jenkins"))
		o->pull.jenkins = val;
	else if (!strcmp(flag, "--perfdb"))
		o->pull.perfdb = val;
	else if (!strcmp(flag, "--perfrunner-dir"))
		o->pull.perfrunner_dir = val;
	else if (!strcmp(flag, "--snapshot") || !strcmp(flag, "--jenkins-api") ||
		 !strcmp(flag, "--parallel") || !strcmp(flag, "--timeout") ||
		 !strcmp(flag, "--retries"))
		return parse_pull_flag(o, flag, val);
	else if (!strcmp(flag, "--max-file-size"))
		return parse_count(&o->lim.max_file_bytes, flag, val);
	else if (!strcmp(flag, "--max-samples"))
		return parse_count(&o->lim.max_samples, flag, val);
	else if (!strcmp(flag, "--max-series"))
		return parse_count(&o->lim.max_series, flag, val);
	else if (!strcmp(flag, "--max-line"))
		return parse_count(&o->lim.max_line, flag, val);
	else if (!strcmp(flag, "--max-depth"))
		return parse_depth(o, val);
	else
		return -1;
	return 0;
}

static int takes_value(const char *a)
{
	static const char *const flags[] = {"-o",
					    "--output",
					    "--label-baseline",
					    "--label-target",
					    "--threshold",
					    "--threshold-for",
					    "--metrics",
					    "--fail-on",
					    "--event-time",
					    "--console-utc-offset",
					    "--baseline-event-time",
					    "--baseline-console-utc-offset",
					    "--max-file-size",
					    "--max-samples",
					    "--max-series",
					    "--max-line",
					    "--max-depth",
					    "--jenkins",
					    "--perfdb",
					    "--perfrunner-dir",
					    "--snapshot",
					    "--jenkins-api",
					    "--parallel",
					    "--timeout",
					    "--retries"};
	for (size_t i = 0; i < sizeof(flags) / sizeof(*flags); i++)
		if (!strcmp(a, flags[i]))
			return 1;
	return 0;
}

/* Returns -1 to go on, else an exit code (help and version exit 0). */
static int parse_args(struct opts *o, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		int rc;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			fputs(usage_more, stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--version")) {
			printf("perfdelta %s\n", PD_VERSION);
			return EXIT_OK;
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (!strcmp(a, "--timings")) {
			o->timings = 1;
		} else if (!strcmp(a, "--single-file")) {
			o->single_file = 1;
		} else if (!strcmp(a, "--netrc")) {
			o->pull.netrc = 1;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			o->quiet = 1;
		} else if (takes_value(a)) {
			if (i + 1 >= argc)
				return usage_error("%s needs a value", a);
			if ((rc = with_value(o, a, argv[++i])))
				return rc;
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (!o->cmd) {
			o->cmd = a;
		} else if (o->n_args < MAX_ARGS) {
			o->args[o->n_args++] = a;
		} else {
			return usage_error("unexpected argument '%s'", a);
		}
	}
	if (!o->cmd)
		return usage_error("%s", "a command is needed: compare, inspect, demo or pull");
	return -1;
}

static int report_error(const struct pd_err *err)
{
	char line[1024];
	pd_err_format(err, line, sizeof(line));
	fprintf(stderr, "perfdelta: %s\n", line);
	if (err->code == PD_EINVAL)
		return EXIT_USAGE;
	if (err->code == PD_ECOMPARE)
		return EXIT_NOTCMP;
	return EXIT_INPUT;
}

static int cmd_inspect(const struct opts *o)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_run *run = NULL;
	struct pd_buf out = PD_BUF_INIT;
	struct pd_timebase tb;
	if (o->n_args != 1)
		return usage_error("%s", "inspect needs one run bundle: perfdelta inspect RUN");
	if (o->cmp.time_base.has_event_time || o->cmp.time_base.has_utc_offset)
		return usage_error("%s",
				   "--baseline-event-time and --baseline-console-utc-offset "
				   "are for compare; inspect takes --event-time and "
				   "--console-utc-offset");
	if (pd_bundle_load(&run, o->args[0], &o->lim, &err) < 0)
		return report_error(&err);
	if (pd_timebase_resolve(&tb, run, &o->cmp.time, &err) < 0) {
		pd_run_free(run);
		return report_error(&err);
	}
	if (o->json)
		pd_inspect_json(&out, run, &tb);
	else
		pd_inspect_text(&out, run, &tb);
	fwrite(out.ptr, 1, out.len, stdout);
	pd_buf_release(&out);
	pd_run_free(run);
	return EXIT_OK;
}

/* The verdict and the top findings, for the terminal. */
static void print_summary(const struct pd_comparison *c, const struct pd_report_opts *ro)
{
	printf("verdict: %s (%zu deltas, %zu findings; threshold %.1f%%, %s correction)\n",
	       pd_verdict_name(c->verdict), c->n_deltas, c->n_findings, c->threshold_pct,
	       c->correction);
	for (size_t i = 0; i < c->n_findings && i < 8; i++) {
		struct pd_buf b = PD_BUF_INIT;
		pd_esc_text(&b, c->findings[i].text);
		printf("  %zu. [%s] %s\n", i + 1, pd_finding_kind_name(c->findings[i].kind),
		       b.ptr);
		pd_buf_release(&b);
	}
	if (pd_report_is_file(ro))
		printf("report: %s\n", ro->out);
	else
		printf("report: %s/index.html (summary.json, junit.xml, summary.md, "
		       "summary.jira "
		       "beside it)\n",
		       ro->out);
}

/* Wall time per stage. analyze and render overlap (gnuplot draws the per-metric charts
 * while the statistics are computed): each counts the time spent in its own calls. */
struct stages {
	double parse, analyze, render, mark;
};

static void lap(struct stages *st, double *stage)
{
	double t = pd_clock_now();
	*stage += t - st->mark;
	st->mark = t;
}

/* Compares the loaded runs into *c and writes the report, the charts drawn as soon as
 * the runs are aligned. */
static int compare_and_report(const struct opts *o, const struct pd_run *base,
			      const struct pd_run *target, const struct pd_report_opts *ro,
			      struct pd_comparison **c, struct stages *st, struct pd_err *err)
{
	struct pd_report *report;
	int rc;
	if ((rc = pd_compare_views(c, base, target, &o->cmp, err)) < 0)
		return rc;
	lap(st, &st->analyze);
	if ((rc = pd_report_begin(&report, *c, ro, err)) < 0)
		return rc;
	lap(st, &st->render);
	pd_compare_measure(*c, &o->cmp);
	lap(st, &st->analyze);
	rc = pd_report_finish(report, err);
	lap(st, &st->render);
	return rc;
}

static int compare_runs(const struct opts *o, const char *base_dir, const char *target_dir,
			const char *out)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_run *base = NULL, *target = NULL;
	struct pd_comparison *c = NULL;
	int rc = EXIT_OK;
	int progress = !o->quiet && isatty(2);
	struct stages st = {0, 0, 0, pd_clock_now()};
	if (progress)
		fprintf(stderr, "perfdelta: reading the runs\n");
	if (pd_bundle_load_pair(&base, &target, base_dir, target_dir, &o->lim, &err) < 0) {
		rc = report_error(&err);
		goto done;
	}
	lap(&st, &st.parse);
	if (progress)
		fprintf(stderr, "perfdelta: comparing %zu and %zu series\n", base->n_series,
			target->n_series);
	struct pd_report_opts ro = {
		out,
		{pd_run_label(base, o->label_base), pd_run_label(target, o->label_target)},
		o->single_file,
		progress};
	if (compare_and_report(o, base, target, &ro, &c, &st, &err) < 0) {
		rc = report_error(&err);
		goto done;
	}
	if (o->timings)
		fprintf(stderr, "timings: parse %.4f s, analyze %.4f s, render %.4f s\n",
			st.parse, st.analyze, st.render);
	if (!o->quiet)
		print_summary(c, &ro);
	if (c->verdict == PD_VERDICT_NOT_COMPARABLE)
		rc = EXIT_NOTCMP;
	else if (c->verdict == PD_VERDICT_REGRESSION && o->fail_on_regression)
		rc = EXIT_REGRESSION;
done:
	pd_comparison_free(c);
	pd_run_free(base);
	pd_run_free(target);
	return rc;
}

static int cmd_compare(const struct opts *o)
{
	if (o->n_args != 2)
		return usage_error("%s", "compare needs two run bundles: perfdelta compare "
					 "BASELINE TARGET -o DIR");
	if (!o->out)
		return usage_error("%s", "compare needs an output directory: -o DIR");
	return compare_runs(o, o->args[0], o->args[1], o->out);
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
static int cmd_demo(const struct opts *o)
{
	const char *out = o->out ? o->out : "perfdelta-demo";
	struct pd_err err = PD_ERR_INIT;
	struct pd_buf base = PD_BUF_INIT, target = PD_BUF_INIT;
	char *seed;
	int rc;
	if (o->n_args)
		return usage_error("unexpected argument '%s'", o->args[0]);
	if (!(seed = seed_dir(&err)))
		return report_error(&err);
	pd_buf_addf(&base, "%s/baseline", seed);
	pd_buf_addf(&target, "%s/failover", seed);
	rc = compare_runs(o, base.ptr, target.ptr, out);
	pd_buf_release(&base);
	pd_buf_release(&target);
	free(seed);
	return rc == EXIT_REGRESSION ? EXIT_OK : rc;
}

/* What pull shows: a progress line on a terminal, notes (retries) unless --quiet. */
struct pull_ui {
	int tty, quiet, shown;
	double last;
	struct pd_pull_progress p;
};

static void pull_progress(void *ctx, const struct pd_pull_progress *p)
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
	fprintf(stderr, "perfdelta: %s\n", msg);
}

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* argv goes on to perfdelta-pull (cli/pull.h), which parses it again and pulls. */
static int cmd_pull(const struct opts *o, char **argv)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_pull_opts po = o->pull;
	struct pull_ui ui = {isatty(2) && !o->quiet, o->quiet, 0, 0, {0}};
	if (o->n_args)
		return usage_error("unexpected argument '%s'", o->args[0]);
	if (!o->out)
		return usage_error("%s", "pull needs a bundle directory: -o RUN_DIR");
	po.out = o->out;
	po.lim = &o->lim;
	po.jenkins_user = env("PERFDELTA_JENKINS_USER");
	po.jenkins_token = env("PERFDELTA_JENKINS_TOKEN");
	if (!po.jenkins_user != !po.jenkins_token)
		return usage_error(
			"%s", "PERFDELTA_JENKINS_USER and PERFDELTA_JENKINS_TOKEN go together");
	po.progress = pull_progress;
	po.note = pull_note;
	po.ctx = &ui;
	if (pd_cli_pull(&po, argv, &err) < 0)
		return report_error(&err);
	if (!o->quiet)
		printf("pulled %s: %zu requests, %.1f MiB, %zu retried\n", o->out, ui.p.done,
		       (double)ui.p.bytes / 1048576, ui.p.retries);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct opts o = {.lim = PD_LIMITS_DEFAULT,
			 .cmp = PD_COMPARE_OPTS_INIT,
			 .fail_on_regression = 1,
			 .pull = PD_PULL_OPTS_INIT};
	int rc = parse_args(&o, argc, argv);
	if (rc < 0) {
		if (!strcmp(o.cmd, "inspect"))
			rc = cmd_inspect(&o);
		else if (!strcmp(o.cmd, "compare"))
			rc = cmd_compare(&o);
		else if (!strcmp(o.cmd, "demo"))
			rc = cmd_demo(&o);
		else if (!strcmp(o.cmd, "pull"))
			rc = cmd_pull(&o, argv);
		else
			rc = usage_error("unknown command '%s'", o.cmd);
	}
	free(o.metrics_arg);
	for (size_t i = 0; i < o.cmp.n_overrides; i++)
		free(o.threshold_globs[i]);
	return rc;
}
