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
#include "cli/fetch_args.h"
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

enum {
	EXIT_OK = 0,
	EXIT_REGRESSION = 1,
	EXIT_USAGE = 2,
	EXIT_INPUT = 3,
	EXIT_NOTCMP = 4
	/* 128 + the signal on SIGINT (130), SIGQUIT (131), SIGTERM (143), SIGHUP (129):
	 * core/cleanup.h */
};

/* The commands, as bits of the set of commands a flag applies to. */
enum cmd {
	CMD_COMPARE = 1,
	CMD_INSPECT = 2,
	CMD_DEMO = 4,
	CMD_PULL = 8,
	CMD_REPORTS = CMD_COMPARE | CMD_DEMO,
	CMD_ANY = 15
};

struct command {
	const char *name;
	enum cmd bit;
	const char *usage; /* its usage line and what it does, for its --help */
};

static const struct command commands[] = {
	{.name = "compare",
	 .bit = CMD_COMPARE,
	 .usage = "usage: perfdelta compare BASELINE [BASELINE...] TARGET -o DIR [options]\n"
		  "\n"
		  "Align the runs on the event, compare every metric per node, role and "
		  "phase, and\n"
		  "write the report: OUT/index.html, charts/, summary.json, junit.xml, "
		  "summary.md,\n"
		  "summary.jira (or one FILE.html with -o FILE.html). A run is a bundle "
		  "directory,\n"
		  "or a .tar, .tar.gz or .zip of one.\n"
		  "\n"
		  "history options (docs/history.md):\n"
		  "  --baseline-history N   the N runs before TARGET in the history, as its "
		  "baselines\n"
		  "                         (compare takes the target alone then)\n"
		  "  --db URL               the history store, sqlite:PATH or "
		  "postgresql://...\n"},
	{.name = "inspect",
	 .bit = CMD_INSPECT,
	 .usage = "usage: perfdelta inspect RUN [--json] [options]\n"
		  "\n"
		  "What was found in a bundle: snapshots, nodes and roles, series, samples, "
		  "time\n"
		  "range, gaps, the time base, events and KPIs.\n"},
	{.name = "demo",
	 .bit = CMD_DEMO,
	 .usage = "usage: perfdelta demo [-o DIR] [options]\n"
		  "\n"
		  "Compare the bundled seed fixture (a baseline and a failover run); writes "
		  "to\n"
		  "./perfdelta-demo unless -o is given.\n"
		  "\n"
		  "history options (docs/history.md):\n"
		  "  --history              a generated history's report instead (writes "
		  "to\n"
		  "                         ./perfdelta-history-demo unless -o is given)\n"},
	{.name = "pull",
	 .bit = CMD_PULL,
	 .usage = "usage: perfdelta pull --jenkins URL [--snapshot NAME]... -o RUN_DIR "
		  "[options]\n"
		  "\n"
		  "Build a run bundle from a Jenkins build and perfdb: the build's api/json "
		  "and\n"
		  "consoleText, every series of the console's snapshots, the spec and test "
		  "config;\n"
		  "written atomically.\n"},
};
#define N_COMMANDS (sizeof(commands) / sizeof(*commands))

static const char usage_all[] =
	"usage: perfdelta compare BASELINE [BASELINE...] TARGET -o DIR [options]\n"
	"       perfdelta inspect RUN [--json] [options]\n"
	"       perfdelta demo [-o DIR] [options]\n"
	"       perfdelta pull --jenkins URL [--snapshot NAME]... -o RUN_DIR [options]\n"
	"       perfdelta signature RUN | perfdelta history add RUN... [--db URL]\n"
	"       perfdelta history report --test CONFIG [--db URL] -o DIR [--window N]\n"
	"                                [--alpha A] [--min-size K]\n"
	"       perfdelta compare --baseline-history N [--db URL] [options] TARGET -o DIR\n"
	"       perfdelta demo --history [-o DIR]   (history: docs/history.md)\n"
	"       perfdelta COMMAND --help (the options of one command)\n"
	"\n"
	"Compare perfrunner runs of a Couchbase cluster (baselines and a target, such as the\n"
	"same workload with a node failed over mid-run) from their cbmonitor/perfdb\n"
	"snapshots, Jenkins outputs and perfrunner configs. A run is a bundle directory (or a\n"
	".tar, .tar.gz or .zip of one): perfdb/<db>/<metric>.json, jenkins/build.json or\n"
	"build.xml, jenkins/consoleText, perfrunner/*.spec and *.test.\n"
	"\n"
	"commands:\n"
	"  compare BASELINE [BASELINE...] TARGET\n"
	"                         align the runs on the event, compare every metric per node,\n"
	"                         role and phase (against the run-to-run spread of two or\n"
	"                         more baselines), and write OUT/summary.json\n"
	"  inspect RUN            what was found in a bundle: snapshots, nodes and roles, "
	"series,\n"
	"                         samples, time range, gaps, the time base, events and KPIs\n"
	"  demo                   compare the bundled seed fixture (a baseline and a failover\n"
	"                         run); writes to ./perfdelta-demo unless -o is given\n"
	"  pull                   build a run bundle from a Jenkins build and perfdb: the "
	"build's\n"
	"                         api/json and consoleText, every series of the console's\n"
	"                         snapshots, the spec and test config; written atomically\n";

static const char usage_exit[] =
	"exit codes: 0 no regression, 1 regression found, 2 usage error, 3 input error\n"
	"(unreadable or malformed input, an output that cannot be written or replaced,\n"
	"gnuplot failing or hanging), 4 runs not comparable, 130 interrupted (SIGINT),\n"
	"131 quit (SIGQUIT), 143 terminated (SIGTERM); temporary files and gnuplot are\n"
	"removed on each\n";

#define MAX_ARGS  17 /* compare: up to 16 baselines and the target */
#define MAX_GLOBS 64

struct opts {
	enum cmd cmd;
	const char *cmd_name;
	const char *args[MAX_ARGS];
	int n_args;
	int json, quiet, fail_on_regression, single_file, timings;
	const char *out;
	const char *label_base, *label_target;
	const char *report_url;
	double gnuplot_timeout_s;
	struct pd_limits lim;
	struct pd_compare_opts cmp;
	const char *globs[MAX_GLOBS];
	struct pd_threshold thresholds[MAX_GLOBS];
	char *metrics_arg;                /* owned copy of --metrics, split in place */
	char *threshold_globs[MAX_GLOBS]; /* owned copies of --threshold-for's GLOBs */
	struct pd_plan_opts pull;
	int pull_history;       /* pull --history: add the bundle pulled to the history */
	const char *history_db; /* --db URL for it, or NULL */
	const char *snapshots[MAX_GLOBS];
	const char *builds[MAX_GLOBS]; /* every --jenkins: pull's one; compare's name the
					  snapshots of a cbmonitor comparison URL */
	size_t n_builds;
	const char *run_spread; /* --run-spread FILE */
};

struct flag;
/* Applies a flag's value (NULL for a switch) to o: 0, or an exit code. */
typedef int (*flag_fn)(struct opts *o, const struct flag *f, const char *val);

/* Where --help lists a flag. */
enum section { SEC_COMPARE, SEC_PULL, SEC_TIME, SEC_OTHER, SEC_LIMITS, SEC_COUNT };

static const char *const section_heading[SEC_COUNT] = {
	[SEC_COMPARE] = "compare options:",
	[SEC_PULL] = "pull options:",
	[SEC_TIME] = "time base options (for compare and inspect; they apply to the target):",
	[SEC_OTHER] = "other options:",
	[SEC_LIMITS] = "limits on input (raise them with the flags):",
};

struct flag {
	const char *name, *alias; /* "--output", "-o" */
	const char *arg;          /* the value's name in --help; NULL for a switch */
	flag_fn parse;
	size_t field;  /* offsetof the member of struct opts the parser sets */
	unsigned cmds; /* the commands that accept it (enum cmd bits) */
	enum section section;
	const char *help;      /* lines after the first indented by help_line */
	const char *help_pull; /* pull's own text, when it differs (-o: the bundle) */
	unsigned long lo, hi;  /* the range of a whole number */
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli/usage.h's line, pointing at perfdelta --help. */
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = pd_usage_v("see perfdelta --help", fmt, ap);
	va_end(ap);
	return rc;
}

#define FIELD(o, f, type) ((type *)((char *)(o) + (f)->field))

static int set_str(struct opts *o, const struct flag *f, const char *val)
{
	*FIELD(o, f, const char *) = val;
	return 0;
}

/* A path: never empty ("-o ''" would name the working directory's parent's entry ""). */
static int set_path(struct opts *o, const struct flag *f, const char *val)
{
	if (!*val)
		return usage_error("%s needs a path, not ''", f->name);
	return set_str(o, f, val);
}

/* The one number syntax of every flag: decimal digits, a fractional part after '.' where
 * fractions are allowed; no sign, exponent, hex ("0x10"), "inf" or spaces, which strtod
 * would take. 1 when val is one. */
static int is_decimal(const char *val, int fraction)
{
	size_t n = strspn(val, "0123456789");
	if (!n)
		return 0;
	if (fraction && val[n] == '.') {
		size_t k = strspn(val + n + 1, "0123456789");
		n += k ? k + 1 : 0;
		if (!k)
			return 0;
	}
	return val[n] == '\0';
}

static int set_switch(struct opts *o, const struct flag *f, const char *val)
{
	(void)val; /* a switch has none: flag_fn's shape */
	*FIELD(o, f, int) = 1;
	return 0;
}

/* A whole number from lo to hi, without a sign; 0 or an exit code. */
static int whole(unsigned long long *out, const struct flag *f, const char *val,
		 unsigned long long lo, unsigned long long hi)
{
	char *end = NULL;
	unsigned long long v = 0;
	*out = 0; /* gcc -O3 cannot otherwise see that every caller reads a set value */
	errno = 0;
	if (is_decimal(val, 0))
		v = strtoull(val, &end, 10);
	if (!end || *end || errno == ERANGE || v < lo || v > hi)
		return usage_error("%s needs a whole number from %llu to %llu, not '%s'",
				   f->name, lo, hi, val);
	*out = v;
	return 0;
}

static int set_count(struct opts *o, const struct flag *f, const char *val)
{
	unsigned long long v = 0; /* GCC -O3 warns maybe-uninitialized without it */
	int rc = whole(&v, f, val, 1, f->hi ? f->hi : SIZE_MAX);
	if (rc == 0)
		*FIELD(o, f, size_t) = (size_t)v;
	return rc;
}

static int set_depth(struct opts *o, const struct flag *f, const char *val)
{
	unsigned long long v = 0; /* GCC -O3 warns maybe-uninitialized without it */
	int rc = whole(&v, f, val, f->lo, f->hi);
	if (rc == 0)
		*FIELD(o, f, unsigned) = (unsigned)v;
	return rc;
}

static int set_long(struct opts *o, const struct flag *f, const char *val)
{
	unsigned long long v = 0; /* GCC -O3 warns maybe-uninitialized without it */
	int rc = whole(&v, f, val, f->lo, f->hi);
	if (rc == 0)
		*FIELD(o, f, long) = (long)v;
	return rc;
}

static int parse_pct(double *out, const char *flag, const char *val)
{
	double v = is_decimal(val, 1) ? strtod(val, NULL) : 0;
	if (!(v > 0) || v > 1000)
		return usage_error("%s needs a percentage above 0, at most 1000, not '%s'",
				   flag, val);
	*out = v;
	return 0;
}

static int set_pct(struct opts *o, const struct flag *f, const char *val)
{
	return parse_pct(FIELD(o, f, double), f->name, val);
}

/* Seconds above 0, at most a day. */
static int set_seconds(struct opts *o, const struct flag *f, const char *val)
{
	double v = is_decimal(val, 1) ? strtod(val, NULL) : 0;
	if (!(v > 0) || v > 86400)
		return usage_error("%s needs seconds above 0, at most 86400, not '%s'", f->name,
				   val);
	*FIELD(o, f, double) = v;
	return 0;
}

/* --console-utc-offset (or the baseline's): +HH:MM or -HH:MM. */
static int set_utc_offset(struct opts *o, const struct flag *f, const char *val)
{
	struct pd_time_flags *t = FIELD(o, f, struct pd_time_flags);
	int hh, mm, n = 0;
	if ((val[0] != '+' && val[0] != '-') ||
	    sscanf(val + 1, "%2d:%2d%n", &hh, &mm, &n) != 2 || val[1 + n] || hh > 14 || mm > 59)
		return usage_error("%s needs +HH:MM or -HH:MM, not '%s'", f->name, val);
	t->has_utc_offset = 1;
	t->utc_offset_s = (val[0] == '-' ? -1 : 1) * (int64_t)(hh * 3600 + mm * 60);
	return 0;
}

/* --event-time (or the baseline's): seconds from the start of the phase. */
static int set_event_time(struct opts *o, const struct flag *f, const char *val)
{
	struct pd_time_flags *t = FIELD(o, f, struct pd_time_flags);
	double v = is_decimal(val, 1) ? strtod(val, NULL) : -1;
	if (!(v >= 0) || v > 1e9)
		return usage_error("%s needs seconds from the start of the phase, not '%s'",
				   f->name, val);
	t->has_event_time = 1;
	t->event_time_s = v;
	t->event_flag = f->name;
	return 0;
}

static int set_metrics(struct opts *o, const struct flag *f, const char *val)
{
	(void)f; /* one flag only */
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

/* The GLOB is copied: the value is split at its last '='. */
static int set_threshold_for(struct opts *o, const struct flag *f, const char *val)
{
	const char *eq = strrchr(val, '=');
	int rc;
	if (!eq || eq == val)
		return usage_error("%s needs GLOB=PCT, not '%s'", f->name, val);
	if (o->cmp.n_overrides == MAX_GLOBS)
		return usage_error("%s is limited to %d patterns", f->name, MAX_GLOBS);
	struct pd_threshold *t = &o->thresholds[o->cmp.n_overrides];
	if ((rc = parse_pct(&t->pct, f->name, eq + 1)))
		return rc;
	t->glob = o->threshold_globs[o->cmp.n_overrides] = pd_xstrndup(val, (size_t)(eq - val));
	o->cmp.n_overrides++;
	o->cmp.overrides = o->thresholds;
	return 0;
}

static int set_fail_on(struct opts *o, const struct flag *f, const char *val)
{
	if (strcmp(val, "regression") && strcmp(val, "never"))
		return usage_error("%s takes regression or never, not '%s'", f->name, val);
	o->fail_on_regression = !strcmp(val, "regression");
	o->cmp.gate = o->fail_on_regression;
	return 0;
}

static int set_snapshot(struct opts *o, const struct flag *f, const char *val)
{
	if (o->pull.n_snapshots == MAX_GLOBS)
		return usage_error("%s is limited to %d names", f->name, MAX_GLOBS);
	o->snapshots[o->pull.n_snapshots++] = val;
	o->pull.snapshots = o->snapshots;
	return 0;
}

static int set_jenkins(struct opts *o, const struct flag *f, const char *val)
{
	if (o->n_builds == MAX_GLOBS)
		return usage_error("%s is limited to %d builds", f->name, MAX_GLOBS);
	o->builds[o->n_builds++] = val;
	o->pull.jenkins = o->builds[0];
	return 0;
}

static int set_jenkins_api(struct opts *o, const struct flag *f, const char *val)
{
	if (strcmp(val, "json") && strcmp(val, "xml"))
		return usage_error("%s takes json or xml, not '%s'", f->name, val);
	o->pull.jenkins_xml = !strcmp(val, "xml");
	return 0;
}

static int set_unsigned(struct opts *o, const struct flag *f, const char *val)
{
	unsigned long long v = 0; /* GCC -O3 warns maybe-uninitialized without it */
	int rc = whole(&v, f, val, f->lo, f->hi);
	if (rc == 0)
		*FIELD(o, f, unsigned) = (unsigned)v;
	return rc;
}

static int show_help(struct opts *o, const struct flag *f, const char *val);

static int show_version(struct opts *o, const struct flag *f, const char *val)
{
	(void)o, (void)f, (void)val; /* flag_fn's shape */
	printf("perfdelta %s\n", PD_VERSION);
	return EXIT_OK;
}

#define OPT(member) offsetof(struct opts, member)

static const struct flag flags[] = {
	{.name = "--output",
	 .alias = "-o",
	 .arg = "DIR",
	 .parse = set_path,
	 .field = OPT(out),
	 .cmds = CMD_ANY & ~CMD_INSPECT,
	 .section = SEC_COMPARE,
	 .help = "the output directory: index.html, charts/, summary.json,\n"
		 "junit.xml, summary.md, summary.jira; FILE.html: that file\n"
		 "alone, charts inlined. Written atomically; an existing one\n"
		 "is replaced only when it holds nothing but an earlier\n"
		 "output of perfdelta, else exit 3",
	 .help_pull = "the run bundle to write: perfdb/, jenkins/,\n"
		      "perfrunner/ (what compare and inspect read), written\n"
		      "atomically"},
	{.name = "--single-file",
	 .parse = set_switch,
	 .field = OPT(single_file),
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "inline the charts into index.html (for a ticket or a browser;\n"
		 "Jenkins' CSP blocks it); implied by -o FILE.html, which\n"
		 "writes only that file"},
	{.name = "--threshold",
	 .arg = "PCT",
	 .parse = set_pct,
	 .field = OPT(cmp.threshold_pct),
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "practical threshold for a change (default 5)"},
	{.name = "--threshold-for",
	 .arg = "GLOB=PCT",
	 .parse = set_threshold_for,
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "a threshold for metrics matching GLOB (repeatable),\n"
		 "e.g. --threshold-for 'atop/*_rss=3'"},
	{.name = "--metrics",
	 .arg = "GLOB,...",
	 .parse = set_metrics,
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "compare only these collector/metric names (a pattern\n"
		 "that matches no series is a usage error)"},
	{.name = "--fail-on",
	 .arg = "regression|never",
	 .parse = set_fail_on,
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "exit 1 on a regression (default) or never"},
	{.name = "--run-spread",
	 .arg = "FILE",
	 .parse = set_path,
	 .field = OPT(run_spread),
	 .cmds = CMD_COMPARE,
	 .section = SEC_COMPARE,
	 .help = "one baseline: the run-to-run sd of each metric, from a history\n"
		 "(perfdelta-history writes it for compare --db URL; docs/history.md)"},
	{.name = "--label-baseline",
	 .arg = "L",
	 .parse = set_str,
	 .field = OPT(label_base),
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "the baseline's name in the outputs"},
	{.name = "--label-target",
	 .arg = "L",
	 .parse = set_str,
	 .field = OPT(label_target),
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "the target's name in the outputs"},
	{.name = "--report-url",
	 .arg = "URL",
	 .parse = set_str,
	 .field = OPT(report_url),
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "where the report will be published, for the links of\n"
		 "junit.xml and the summaries (default: Jenkins' BUILD_URL)"},
	{.name = "--gnuplot-timeout",
	 .arg = "S",
	 .parse = set_seconds,
	 .field = OPT(gnuplot_timeout_s),
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "end gnuplot after S seconds in which it read no input\n"
		 "and wrote no chart (default 60; a chart takes milliseconds),\n"
		 "or after 20 x S in all: exit 3, the old report kept"},
	{.name = "--quiet",
	 .alias = "-q",
	 .parse = set_switch,
	 .field = OPT(quiet),
	 .cmds = CMD_ANY,
	 .section = SEC_COMPARE,
	 .help = "print nothing but errors and warnings"},
	{.name = "--timings",
	 .parse = set_switch,
	 .field = OPT(timings),
	 .cmds = CMD_REPORTS,
	 .section = SEC_COMPARE,
	 .help = "print the time of each stage (parse, analyze, render)"},
	{.name = "--jenkins",
	 .arg = "URL",
	 .parse = set_jenkins,
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .help = "the build (.../job/J/N/); credentials from the environment\n"
		 "(PERFDELTA_JENKINS_USER, PERFDELTA_JENKINS_TOKEN) or --netrc;\n"
		 "compare: one per snapshot of a cbmonitor comparison URL, in order"},
	{.name = "--jenkins-api",
	 .arg = "json|xml",
	 .parse = set_jenkins_api,
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .help = "build.json from api/json (default) or build.xml from api/xml"},
	{.name = "--perfdb",
	 .arg = "URL",
	 .parse = set_str,
	 .field = OPT(pull.perfdb),
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .help = "perfdb (default: the console's cbmonitor host, port 8080)"},
	{.name = "--prometheus",
	 .arg = "URL",
	 .parse = set_str,
	 .field = OPT(pull.prometheus),
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .help = "perfrunner's Prometheus path: the store's Prometheus HTTP API\n"
		 "(Prometheus, Mimir, VictoriaMetrics); series into prometheus/"},
	{.name = "--cbmonitor2",
	 .arg = "URL",
	 .parse = set_str,
	 .field = OPT(pull.cbmonitor2),
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .help = "cbmonitor2: the snapshot's window and phases from its API"},
	{.name = "--snapshot",
	 .arg = "NAME",
	 .parse = set_snapshot,
	 .cmds = CMD_PULL,
	 .section = SEC_PULL,
	 .help = "pull this snapshot (repeatable; default: the console's)"},
	{.name = "--perfrunner-dir",
	 .arg = "DIR",
	 .parse = set_str,
	 .field = OPT(pull.perfrunner_dir),
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .help = "a perfrunner checkout: copy clusters/<cluster> and\n"
		 "tests/<test_config> named by the build's parameters"},
	{.name = "--history",
	 .parse = set_switch,
	 .field = OPT(pull_history),
	 .cmds = CMD_PULL,
	 .section = SEC_PULL,
	 .help = "then add the bundle to the history (perfdelta history add;\n"
		 "docs/history.md)"},
	{.name = "--db",
	 .arg = "URL",
	 .parse = set_str,
	 .field = OPT(history_db),
	 .cmds = CMD_PULL,
	 .section = SEC_PULL,
	 .help = "with --history: the store, sqlite:PATH or postgresql://...\n"
		 "(default $XDG_DATA_HOME/perfdelta/history.sqlite)"},
	{.name = "--netrc",
	 .parse = set_switch,
	 .field = OPT(pull.netrc),
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .help = "credentials from ~/.netrc (PERFDELTA_NETRC=FILE: from FILE)"},
	{.name = "--parallel",
	 .arg = "N",
	 .parse = set_unsigned,
	 .field = OPT(pull.parallel),
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .lo = 1,
	 .hi = 64,
	 .help = "transfers at once (default 8, at most 64)"},
	{.name = "--timeout",
	 .arg = "S",
	 .parse = set_long,
	 .field = OPT(pull.timeout_s),
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .lo = 1,
	 .hi = 86400,
	 .help = "connect and total time of one try (default 120);\n"
		 "compare: and the wait for another pulling the same URL"},
	{.name = "--retries",
	 .arg = "N",
	 .parse = set_unsigned,
	 .field = OPT(pull.retries),
	 .cmds = CMD_PULL | CMD_COMPARE,
	 .section = SEC_PULL,
	 .lo = 0,
	 .hi = 20,
	 .help = "tries again on 5xx, 408, 429 and connection errors, waiting\n"
		 "0.5 s, then 1 s, 2 s... (default 3)"},
	{.name = "--event-time",
	 .arg = "S",
	 .parse = set_event_time,
	 .field = OPT(cmp.time),
	 .cmds = CMD_ANY & ~CMD_PULL,
	 .section = SEC_TIME,
	 .help = "the event (failover) happened S seconds into the measured\n"
		 "phase (default: from the console, the series or the config)"},
	{.name = "--console-utc-offset",
	 .arg = "±HH:MM",
	 .parse = set_utc_offset,
	 .field = OPT(cmp.time),
	 .cmds = CMD_ANY & ~CMD_PULL,
	 .section = SEC_TIME,
	 .help = "the console's local time zone (default: found by\n"
		 "aligning its rebalance lines with the series, else from the\n"
		 "Jenkins build start)"},
	{.name = "--baseline-event-time",
	 .arg = "S",
	 .parse = set_event_time,
	 .field = OPT(cmp.time_base),
	 .cmds = CMD_REPORTS,
	 .section = SEC_TIME,
	 .help = "compare: --event-time for the baseline (a baseline\n"
		 "with its own event is shifted onto the target's)"},
	{.name = "--baseline-console-utc-offset",
	 .arg = "±HH:MM",
	 .parse = set_utc_offset,
	 .field = OPT(cmp.time_base),
	 .cmds = CMD_REPORTS,
	 .section = SEC_TIME,
	 .help = "compare: --console-utc-offset for the baseline"},
	{.name = "--json",
	 .parse = set_switch,
	 .field = OPT(json),
	 .cmds = CMD_INSPECT,
	 .section = SEC_OTHER,
	 .help = "inspect: print JSON"},
	{.name = "--help",
	 .alias = "-h",
	 .parse = show_help,
	 .cmds = CMD_ANY,
	 .section = SEC_OTHER,
	 .help = "this text (after a command: that command's)"},
	{.name = "--version",
	 .parse = show_version,
	 .cmds = CMD_ANY,
	 .section = SEC_OTHER,
	 .help = "the version"},
	{.name = "--max-file-size",
	 .arg = "BYTES",
	 .parse = set_count,
	 .field = OPT(lim.max_file_bytes),
	 .cmds = CMD_ANY,
	 .section = SEC_LIMITS,
	 .help = "one input file (default 1 GiB)"},
	{.name = "--max-bundle-size",
	 .arg = "BYTES",
	 .parse = set_count,
	 .field = OPT(lim.max_bundle_bytes),
	 .cmds = CMD_ANY,
	 .section = SEC_LIMITS,
	 .help = "a tarball bundle, uncompressed (default 4 GiB)"},
	{.name = "--max-samples",
	 .arg = "N",
	 .parse = set_count,
	 .field = OPT(lim.max_samples),
	 .cmds = CMD_ANY,
	 .section = SEC_LIMITS,
	 .help = "samples in one series (default 50000000)"},
	{.name = "--max-series",
	 .arg = "N",
	 .parse = set_count,
	 .field = OPT(lim.max_series),
	 .cmds = CMD_ANY,
	 .section = SEC_LIMITS,
	 .help = "series in one run (default 100000)"},
	{.name = "--max-line",
	 .arg = "BYTES",
	 .parse = set_count,
	 .field = OPT(lim.max_line),
	 .cmds = CMD_ANY,
	 .section = SEC_LIMITS,
	 .help = "one console or INI line (default 1 MiB)"},
	/* cJSON refuses more than 1000 levels by itself, so that is the ceiling */
	{.name = "--max-depth",
	 .arg = "N",
	 .parse = set_depth,
	 .field = OPT(lim.max_depth),
	 .cmds = CMD_ANY,
	 .section = SEC_LIMITS,
	 .lo = 1,
	 .hi = 1000,
	 .help = "JSON and XML nesting (default 64, at most 1000)"},
};
#define N_FLAGS (sizeof(flags) / sizeof(*flags))

/* --help's column where a flag's text begins. */
#define HELP_COLUMN 25

static void help_line(const struct flag *f, unsigned cmd)
{
	const char *help = cmd == CMD_PULL && f->help_pull ? f->help_pull : f->help;
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_adds(&b, "  ");
	if (f->alias)
		pd_buf_addf(&b, "%s, ", f->alias);
	pd_buf_addf(&b, "%s%s%s", f->name, f->arg ? " " : "", f->arg ? f->arg : "");
	/* "±" is two bytes and one column */
	size_t col = b.len - (f->arg && strstr(f->arg, "±") ? 1 : 0);
	pd_buf_addf(&b, "%*s", col + 2 <= HELP_COLUMN ? (int)(HELP_COLUMN - col) : 2, "");
	for (const char *p = help; *p; p++) {
		pd_buf_addch(&b, *p);
		if (*p == '\n')
			pd_buf_addf(&b, "%*s", HELP_COLUMN, "");
	}
	puts(b.ptr);
	pd_buf_release(&b);
}

/* Every section's flags that cmd accepts (CMD_ANY: all of them). */
static void help_flags(unsigned cmd)
{
	for (int s = 0; s < SEC_COUNT; s++) {
		int shown = 0;
		for (size_t i = 0; i < N_FLAGS; i++) {
			if (flags[i].section != (enum section)s || !(flags[i].cmds & cmd))
				continue;
			/* -o and --quiet are pull's and inspect's too */
			int own = s != SEC_COMPARE || cmd & CMD_COMPARE;
			if (!shown++)
				printf("\n%s\n", own ? section_heading[s] : "options:");
			help_line(&flags[i], cmd);
		}
	}
	printf("\n%s", usage_exit);
}

/* The whole --help, or after a command only that command's. */
static int show_help(struct opts *o, const struct flag *f, const char *val)
{
	(void)f, (void)val; /* flag_fn's shape */
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (o->cmd == commands[i].bit) {
			fputs(commands[i].usage, stdout);
			help_flags(o->cmd);
			return EXIT_OK;
		}
	fputs(usage_all, stdout);
	help_flags(CMD_ANY);
	return EXIT_OK;
}

static const struct flag *find_flag(const char *a)
{
	for (size_t i = 0; i < N_FLAGS; i++)
		if (!strcmp(a, flags[i].name) || (flags[i].alias && !strcmp(a, flags[i].alias)))
			return &flags[i];
	return NULL;
}

/* argv for perfdelta-history; compare's as "compare OPTIONS -- OPERANDS": each option
 * with its value when this table says it takes one (perfdelta-history's own
 * --baseline-history too), so that perfdelta-history tells operands without a list of
 * compare's options. Never freed: it is exec'd. */
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
		const struct flag *f = operands ? NULL : find_flag(argv[i]);
		int value =
			(f && f->arg) || (!operands && !strcmp(argv[i], "--baseline-history"));
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

static int set_command(struct opts *o, const char *a)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(a, commands[i].name)) {
			o->cmd = commands[i].bit;
			o->cmd_name = commands[i].name;
			return -1;
		}
	return usage_error("unknown command '%s'", a);
}

/* A flag its command does not take: an exit code, else -1. */
static int check_flags(const struct opts *o, const struct flag **seen, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(seen[i]->cmds & o->cmd))
			return usage_error("%s is not an option of %s", seen[i]->name,
					   o->cmd_name);
	return -1;
}

/* Returns -1 to go on, else an exit code (help and version exit 0). */
static int parse_args(struct opts *o, int argc, char **argv)
{
	const struct flag **seen = pd_xcalloc((size_t)argc, sizeof(*seen));
	size_t n_seen = 0;
	int rc = -1, operands = 0; /* after "--" every argument is an operand */
	for (int i = 1; i < argc && rc < 0; i++) {
		const char *a = argv[i];
		const struct flag *f = operands ? NULL : find_flag(a);
		if (!operands && !strcmp(a, "--")) {
			operands = 1;
		} else if (f && f->arg && i + 1 >= argc) {
			rc = usage_error("%s needs a value", a);
		} else if (f) {
			seen[n_seen++] = f;
			rc = f->parse(o, f, f->arg ? argv[++i] : NULL);
			if (rc == 0) /* help and version are done; the others go on */
				rc = f->parse == show_help || f->parse == show_version ? EXIT_OK
										       : -1;
		} else if (!operands && a[0] == '-' && a[1]) {
			rc = usage_error("unknown option '%s'", a);
		} else if (!o->cmd) {
			rc = set_command(o, a);
		} else if (o->n_args < MAX_ARGS) {
			o->args[o->n_args++] = a;
		} else {
			rc = usage_error("unexpected argument '%s'", a);
		}
	}
	if (rc < 0 && !o->cmd)
		rc = usage_error("%s", "a command is needed: compare, inspect, demo or pull");
	if (rc < 0)
		rc = check_flags(o, seen, n_seen);
	free(seen);
	return rc;
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
	struct pd_facts facts;
	if (o->n_args != 1)
		return usage_error("%s", "inspect needs one run bundle: perfdelta inspect RUN");
	if (o->cmp.time_base.has_event_time || o->cmp.time_base.has_utc_offset)
		return usage_error("%s",
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
	return EXIT_OK;
}

/* The verdict, the ticket's points and the top findings, for the terminal. */
static void print_summary(const struct pd_comparison *c, const struct pd_report_opts *ro)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_terminal_summary(&b, c, ro->out, pd_report_is_file(ro));
	fwrite(b.ptr, 1, b.len, stdout);
	pd_buf_release(&b);
}

static int verdict_exit(const struct opts *o, const struct pd_comparison *c)
{
	if (c->verdict == PD_VERDICT_NOT_COMPARABLE)
		return EXIT_NOTCMP;
	if (c->verdict == PD_VERDICT_REGRESSION && o->fail_on_regression)
		return EXIT_REGRESSION;
	return EXIT_OK;
}

/* Where the report is published: --report-url, else Jenkins' BUILD_URL (the build's page,
 * which links the HTML Publisher's report), else unknown. */
static const char *report_url(const struct opts *o)
{
	const char *u = o->report_url ? o->report_url : getenv("BUILD_URL");
	return u && *u ? u : NULL;
}

/* Jenkins serves what it publishes under a Content-Security-Policy that blocks inline
 * style and data: images: a single-file report (--single-file, or -o FILE.html) shows
 * there unstyled, without its charts, and scrolls sideways. Said when it is written in a
 * Jenkins build (BUILD_URL set), where the directory is what to publish. */
static void jenkins_single_file(struct pd_strv *warnings, const struct opts *o, const char *out)
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
static int compare_runs(const struct opts *o, const char *const *paths, size_t n,
			const char *out)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_run **runs = pd_xcalloc(n, sizeof(*runs));
	struct pd_comparison *c = NULL;
	int rc = EXIT_OK;
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
static int cmd_compare(const struct opts *o)
{
	struct pd_strv paths = {0};
	struct pd_err err = PD_ERR_INIT;
	int rc;
	struct pd_fetch_builds b = {o->builds, o->n_builds};
	struct pd_plan_opts po = o->pull;
	po.lim = &o->lim;
	if (!o->out)
		return usage_error("%s", "compare needs an output directory: -o DIR");
	if (pd_fetch_args(&paths, o->args, (size_t)o->n_args, &po, &b, o->quiet, &err) < 0)
		rc = report_error(&err);
	else if (paths.n < 2)
		rc = usage_error("%s", "compare needs two run bundles or more: perfdelta "
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
	rc = compare_runs(o, (const char *const[]){base.ptr, target.ptr}, 2, out);
	pd_buf_release(&base);
	pd_buf_release(&target);
	free(seed);
	return rc == EXIT_REGRESSION ? EXIT_OK : rc;
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
static int cmd_pull(const struct opts *o, char **argv)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_plan_opts po = o->pull;
	struct pull_ui ui = {isatty(2) && !o->quiet, o->quiet, 0, 0, {0}};
	if (o->n_args)
		return usage_error("unexpected argument '%s'", o->args[0]);
	if (o->n_builds > 1)
		return usage_error("%s", "pull takes one --jenkins");
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
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct opts o = {.lim = PD_LIMITS_DEFAULT,
			 .cmp = PD_COMPARE_OPTS_INIT,
			 .fail_on_regression = 1,
			 .gnuplot_timeout_s = PD_PLOT_TIMEOUT_DEFAULT,
			 .pull = PD_PLAN_OPTS_INIT};
	if (pd_cli_is_history(argc, argv)) { /* perfdelta-history: cli/history.c */
		struct pd_err err = PD_ERR_INIT;
		pd_cli_exec("perfdelta-history", history_argv(argc, argv), &err);
		return report_error(&err);
	}
	int rc = parse_args(&o, argc, argv);
	pd_cleanup_catch_signals();
	if (rc < 0) {
		if (o.cmd == CMD_INSPECT)
			rc = cmd_inspect(&o);
		else if (o.cmd == CMD_COMPARE)
			rc = cmd_compare(&o);
		else if (o.cmd == CMD_DEMO)
			rc = cmd_demo(&o);
		else
			rc = cmd_pull(&o, argv);
	}
	free(o.metrics_arg);
	for (size_t i = 0; i < o.cmp.n_overrides; i++)
		free(o.threshold_globs[i]);
	return rc;
}
