/* perfdelta's commands, flag table, setters and --help (cli/opts.h). */
#include "cli/opts.h"
#include "cli/history.h"
#include "cli/exit.h"
#include "cli/usage.h"
#include "core/xalloc.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct command {
	const char *name;
	enum pd_cmd bit;
	const char *usage; /* its usage line and what it does, for its --help */
};

static const struct command commands[] = {
	{.name = "compare",
	 .bit = PD_CMD_COMPARE,
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
	 .bit = PD_CMD_INSPECT,
	 .usage = "usage: perfdelta inspect RUN [--json] [options]\n"
		  "\n"
		  "What was found in a bundle: snapshots, nodes and roles, series, samples, "
		  "time\n"
		  "range, gaps, the time base, events and KPIs.\n"},
	{.name = "demo",
	 .bit = PD_CMD_DEMO,
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
	 .bit = PD_CMD_PULL,
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

const char *const pd_opts_synopsis[] = {
	"perfdelta compare BASELINE [BASELINE...] TARGET -o DIR [options]",
	"perfdelta inspect RUN [--json] [options]", "perfdelta demo [-o DIR] [options]",
	"perfdelta pull --jenkins URL [--perfdb URL] [--snapshot NAME]... -o RUN_DIR [options]",
	NULL};

static const char usage_all[] =
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

static const char *const section_heading[PD_OPTS_SEC_COUNT] = {
	[PD_OPTS_SEC_COMPARE] = "compare options:",
	[PD_OPTS_SEC_PULL] = "pull options:",
	[PD_OPTS_SEC_TIME] =
		"time base options (for compare and inspect; they apply to the target):",
	[PD_OPTS_SEC_OTHER] = "other options:",
	[PD_OPTS_SEC_LIMITS] = "limits on input (raise them with the flags):",
};

#define FIELD(o, f, type) ((type *)((char *)(o) + (f)->field))

/* --console-utc-offset (or the baseline's): +HH:MM or -HH:MM. */
static int set_utc_offset(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	struct pd_time_flags *t = FIELD(o, f, struct pd_time_flags);
	/* the sign, one or two digits, ':', two digits: no second sign or space, which
	 * sscanf's %d would take */
	size_t h = strspn(val + (*val == '+' || *val == '-'), "0123456789");
	int ok = (*val == '+' || *val == '-') && h >= 1 && h <= 2 && val[1 + h] == ':' &&
		 strspn(val + 2 + h, "0123456789") == 2 && !val[4 + h];
	int hh = ok ? atoi(val + 1) : 0, mm = ok ? atoi(val + 2 + h) : 0;
	if (!ok || hh > 14 || mm > 59)
		return pd_err_set(err, PD_EINVAL, "%s needs +HH:MM or -HH:MM, not '%s'",
				  f->name, val);
	t->has_utc_offset = 1;
	t->utc_offset_s = (val[0] == '-' ? -1 : 1) * (int64_t)(hh * 3600 + mm * 60);
	return 0;
}

/* --event-time (or the baseline's): seconds from the start of the phase. */
static int set_event_time(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	struct pd_time_flags *t = FIELD(o, f, struct pd_time_flags);
	double v;
	if (pd_flags_number(&v, val, 1) < 0 || v > 1e9)
		return pd_err_set(err, PD_EINVAL,
				  "%s needs seconds from the start of the phase, not '%s'",
				  f->name, val);
	t->has_event_time = 1;
	t->event_time_s = v;
	t->event_flag = f->name;
	return 0;
}

static int set_metrics(void *opts, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	struct pd_opts *o = opts;
	(void)f; /* one flag only */
	free(o->metrics_arg);
	o->metrics_arg = pd_xstrdup(val);
	o->cmp.n_metric_globs = 0;
	for (char *save = NULL, *g = strtok_r(o->metrics_arg, ",", &save); g;
	     g = strtok_r(NULL, ",", &save)) {
		if (o->cmp.n_metric_globs == PD_OPTS_MAX_GLOBS)
			return pd_err_set(err, PD_EINVAL, "--metrics takes at most %d patterns",
					  PD_OPTS_MAX_GLOBS);
		o->globs[o->cmp.n_metric_globs++] = g;
	}
	if (!o->cmp.n_metric_globs)
		return pd_err_set(err, PD_EINVAL, "%s", "--metrics needs at least one pattern");
	o->cmp.metric_globs = o->globs;
	return 0;
}

/* The GLOB is copied: the value is split at its last '='. */
static int set_threshold_for(void *opts, const struct pd_flag *f, const char *val,
			     struct pd_err *err)
{
	struct pd_opts *o = opts;
	const char *eq = strrchr(val, '=');
	int rc;
	if (!eq || eq == val)
		return pd_err_set(err, PD_EINVAL, "%s needs GLOB=PCT, not '%s'", f->name, val);
	if (o->cmp.n_overrides == PD_OPTS_MAX_GLOBS)
		return pd_err_set(err, PD_EINVAL, "%s is limited to %d patterns", f->name,
				  PD_OPTS_MAX_GLOBS);
	struct pd_threshold *t = &o->thresholds[o->cmp.n_overrides];
	if ((rc = pd_flags_pct(&t->pct, f->name, eq + 1, err)) < 0)
		return rc;
	t->glob = o->threshold_globs[o->cmp.n_overrides] = pd_xstrndup(val, (size_t)(eq - val));
	o->cmp.n_overrides++;
	o->cmp.overrides = o->thresholds;
	return 0;
}

static int set_fail_on(void *opts, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	struct pd_opts *o = opts;
	if (strcmp(val, "regression") && strcmp(val, "never"))
		return pd_err_set(err, PD_EINVAL, "%s takes regression or never, not '%s'",
				  f->name, val);
	o->fail_on_regression = !strcmp(val, "regression");
	o->cmp.gate = o->fail_on_regression;
	return 0;
}

static int set_snapshot(void *opts, const struct pd_flag *f, const char *val,
			struct pd_err *err)
{
	struct pd_opts *o = opts;
	if (o->pull.n_snapshots == PD_OPTS_MAX_GLOBS)
		return pd_err_set(err, PD_EINVAL, "%s is limited to %d names", f->name,
				  PD_OPTS_MAX_GLOBS);
	o->snapshots[o->pull.n_snapshots++] = val;
	o->pull.snapshots = o->snapshots;
	return 0;
}

static int set_jenkins(void *opts, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	struct pd_opts *o = opts;
	if (o->n_builds == PD_OPTS_MAX_GLOBS)
		return pd_err_set(err, PD_EINVAL, "%s is limited to %d builds", f->name,
				  PD_OPTS_MAX_GLOBS);
	o->builds[o->n_builds++] = val;
	o->pull.jenkins = o->builds[0];
	return 0;
}

static int set_jenkins_api(void *opts, const struct pd_flag *f, const char *val,
			   struct pd_err *err)
{
	struct pd_opts *o = opts;
	if (strcmp(val, "json") && strcmp(val, "xml"))
		return pd_err_set(err, PD_EINVAL, "%s takes json or xml, not '%s'", f->name,
				  val);
	o->pull.jenkins_xml = !strcmp(val, "xml");
	return 0;
}

static int show_help(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);

static int show_version(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	(void)o, (void)f, (void)val, (void)err; /* pd_flag_fn's shape */
	printf("perfdelta %s\n", PD_VERSION);
	return 0;
}

#define OPT(member) offsetof(struct pd_opts, member)

static const struct pd_flag flags[] = {
	{.name = "--output",
	 .alias = "-o",
	 .arg = "DIR",
	 .parse = pd_flags_set_path,
	 .field = OPT(out),
	 .cmds = PD_CMD_ANY & ~PD_CMD_INSPECT,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "the output directory: index.html, charts/, summary.json,\n"
		 "junit.xml, summary.md, summary.jira; FILE.html: that file\n"
		 "alone, charts inlined. Written atomically; an existing one\n"
		 "is replaced only when it holds nothing but an earlier\n"
		 "output of perfdelta, else exit 3",
	 .other_cmds = PD_CMD_PULL,
	 .help_other = "the run bundle to write: perfdb/, jenkins/,\n"
		       "perfrunner/ (what compare and inspect read), written\n"
		       "atomically",
	 .man = "The output directory, or a file ending in\n"
		".I .html\n"
		"(then only that file is written, the charts inlined, as with\n"
		".BR \\-\\-single\\-file ).\n"
		"It is written beside its place and renamed into place at the end.\n"
		"An existing output is replaced only when it is an earlier one of perfdelta's "
		"and\n"
		"nothing else: a directory holding\n"
		".I .perfdelta\\-files\n"
		"(the list of every file perfdelta wrote there) and no file or directory that "
		"list\n"
		"does not name, or a file ending with perfdelta's closing comment.\n"
		"The list records each file's size and modification time: a listed file edited "
		"since\n"
		"(notes appended to\n"
		".IR index.html )\n"
		"makes the output the user's.\n"
		"Anything else (a directory with a file of the user's, a page written by hand) "
		"is\n"
		"refused with exit status 3 and one line saying what is in the way.\n"
		"The output is checked again right before it is replaced, so that a file added "
		"or\n"
		"edited while perfdelta runs is never lost either (exit 3, the old output left "
		"as it is)."},
	{.name = "--single-file",
	 .parse = pd_flags_set_switch,
	 .field = OPT(single_file),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "inline the charts into index.html (for a ticket or a browser;\n"
		 "Jenkins' CSP blocks it); implied by -o FILE.html, which\n"
		 "writes only that file",
	 .man = "Inline every chart into\n"
		".I index.html\n"
		"(for a ticket attachment, or a browser opening the file).\n"
		"Not for Jenkins: its Content-Security-Policy blocks the file's inline style "
		"and\n"
		".B data:\n"
		"charts, so served by Jenkins it shows unstyled and without charts; compare "
		"warns when\n"
		"it writes a single file with\n"
		".B BUILD_URL\n"
		"set. Publish the report directory there."},
	{.name = "--threshold",
	 .arg = "PCT",
	 .parse = pd_flags_set_pct,
	 .field = OPT(cmp.threshold_pct),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "practical threshold for a change (default 5)",
	 .man = "The practical threshold: a change of means smaller than this is\n"
		".B same\n"
		"however significant (default 5)."},
	{.name = "--threshold-for",
	 .arg = "GLOB=PCT",
	 .parse = set_threshold_for,
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "a threshold for metrics matching GLOB (repeatable),\n"
		 "e.g. --threshold-for 'atop/*_rss=3'",
	 .man = "A threshold for the metrics whose\n"
		".I collector/metric\n"
		"name matches\n"
		".I GLOB\n"
		"(repeatable; the first match wins)."},
	{.name = "--metrics",
	 .arg = "GLOB,...",
	 .parse = set_metrics,
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "compare only these collector/metric names (a pattern\n"
		 "that matches no series is a usage error)",
	 .man = "Compare only the matching metrics."},
	{.name = "--fail-on",
	 .arg = "regression|never",
	 .parse = set_fail_on,
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "exit 1 on a regression (default) or never",
	 .man = "Exit 1 when a regression is found (default), or never."},
	{.name = "--run-spread",
	 .arg = "FILE",
	 .parse = pd_flags_set_path,
	 .field = OPT(run_spread),
	 .cmds = PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "one baseline: the run-to-run sd of each metric, from a history\n"
		 "(perfdelta-history writes it for compare --db URL; docs/history.md)",
	 .man = "With one baseline: each metric's relative run-to-run sd, one line a feature\n"
		"(\\fImetric|scope|phase\\fR TAB \\fIsd\\fR TAB \\fIruns\\fR), as\n"
		".B compare \\-\\-db \\fIURL\\fR\n"
		"hands it from the history (docs/history.md); a change's interval is widened "
		"in\n"
		"quadrature by 1.96 \\(sr2 times it, instead of its kind's default margin, and "
		"must clear\n"
		"the threshold."},
	{.name = "--label-baseline",
	 .arg = "L",
	 .parse = pd_flags_set_str,
	 .field = OPT(label_base),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "the baseline's name in the outputs",
	 .man = "The baseline's name in the outputs (default: the Jenkins build's full display "
		"name,\n"
		"else the bundle path)."},
	{.name = "--label-target",
	 .arg = "L",
	 .parse = pd_flags_set_str,
	 .field = OPT(label_target),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "the target's name in the outputs",
	 .man = "The target's name in the outputs (default: the Jenkins build's full display "
		"name,\n"
		"else the bundle path)."},
	{.name = "--report-url",
	 .arg = "URL",
	 .parse = pd_flags_set_str,
	 .field = OPT(report_url),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "where the report will be published, for the links of\n"
		 "junit.xml and the summaries (default: Jenkins' BUILD_URL)",
	 .man = "Where the report will be published (the HTML Publisher's page of the build): "
		"junit.xml,\n"
		"summary.md and summary.jira link to it. Default: the environment's\n"
		".B BUILD_URL\n"
		"(Jenkins), the build's page, which links the report."},
	{.name = "--gnuplot-timeout",
	 .arg = "S",
	 .parse = pd_flags_set_seconds,
	 .field = OPT(gnuplot_timeout_s),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "end gnuplot after S seconds in which it read no input\n"
		 "and wrote no chart (default 60; a chart takes milliseconds),\n"
		 "or after 20 x S in all: exit 3, the old report kept",
	 .man = "End gnuplot when for\n"
		".I S\n"
		"seconds it has neither read its script or points nor written a chart (default "
		"60; a\n"
		"chart takes milliseconds and a 24-hour report of 64 nodes keeps it busy "
		"throughout);\n"
		"what it prints on standard error is no progress (the first 64 KiB are kept "
		"for the\n"
		"error message, the rest dropped). It is ended too after 20 times\n"
		".I S\n"
		"in all. Either way: exit status 3, the old report as it was, no gnuplot left "
		"running.\n"
		"A chart gnuplot wrote that is empty or not a whole SVG document is also exit "
		"status 3."},
	{.name = "--quiet",
	 .alias = "-q",
	 .parse = pd_flags_set_switch,
	 .field = OPT(quiet),
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "print nothing but errors and warnings",
	 .man = "Print nothing but errors and warnings: no progress line, no summary, no "
		"notes."},
	{.name = "--timings",
	 .parse = pd_flags_set_switch,
	 .field = OPT(timings),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_COMPARE,
	 .help = "print the time of each stage (parse, analyze, render)",
	 .man = "Print the time of each stage (parse, analyze, render) on standard error. The "
		"charts are\n"
		"drawn while the statistics are computed, so analyze and render overlap."},
	{.name = "--jenkins",
	 .arg = "URL",
	 .parse = set_jenkins,
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "the build (.../job/J/N/); credentials from the environment\n"
		 "(PERFDELTA_JENKINS_USER, PERFDELTA_JENKINS_TOKEN) or --netrc;\n"
		 "compare: one per snapshot of a cbmonitor comparison URL, in order",
	 .man = "The build,\n"
		".IR http://JENKINS/job/J/N/ .\n"
		"For compare with a cbmonitor comparison URL: once per snapshot, in its order, "
		"naming\n"
		"each snapshot's build.\n"
		"Credentials for Jenkins come from the environment,\n"
		".B PERFDELTA_JENKINS_USER\n"
		"and\n"
		".B PERFDELTA_JENKINS_TOKEN\n"
		"(basic authentication, sent to Jenkins requests only), or from\n"
		".BR \\-\\-netrc ;\n"
		"they are never written into the bundle or printed (a URL with\n"
		".I user:password@\n"
		"is shown without it).\n"
		"A password in a URL on the command line still works, but any user of the "
		"machine can\n"
		"read it in the process list\n"
		".RB ( ps (1)),\n"
		"so it is warned about: keep it in a netrc file instead\n"
		".RB ( \\-\\-netrc ,\n"
		"or\n"
		".BR PERFDELTA_NETRC )."},
	{.name = "--jenkins-api",
	 .arg = "json|xml",
	 .parse = set_jenkins_api,
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "build.json from api/json (default) or build.xml from api/xml",
	 .man = "Save\n"
		".I api/json\n"
		"as\n"
		".I jenkins/build.json\n"
		"(default), or\n"
		".I api/xml\n"
		"as\n"
		".IR jenkins/build.xml ."},
	{.name = "--perfdb",
	 .arg = "URL",
	 .parse = pd_flags_set_str,
	 .field = OPT(pull.perfdb),
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "perfdb (default: the console's cbmonitor host, port 8080)",
	 .man = "perfdb's address (default: the host of the console's first\n"
		".B HTML report:\n"
		"URL, port 8080)."},
	{.name = "--prometheus",
	 .arg = "URL",
	 .parse = pd_flags_set_str,
	 .field = OPT(pull.prometheus),
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "perfrunner's Prometheus path: the store's Prometheus HTTP API\n"
		 "(Prometheus, Mimir, VictoriaMetrics); series into prometheus/",
	 .man = "A run of perfrunner's Prometheus path: the store's Prometheus HTTP API "
		"(Prometheus,\n"
		"Mimir, VictoriaMetrics). The snapshot id comes from the console's\n"
		".B Registered Prometheus snapshot:\n"
		"line (or\n"
		".BR \\-\\-snapshot );\n"
		"every series of its job is queried with\n"
		".I query_range\n"
		"at the test config's\n"
		".B [stats] interval\n"
		"into\n"
		".IR prometheus/<name>.json ."},
	{.name = "--cbmonitor2",
	 .arg = "URL",
	 .parse = pd_flags_set_str,
	 .field = OPT(pull.cbmonitor2),
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "cbmonitor2: the snapshot's window and phases from its API",
	 .man = "cbmonitor2, whose\n"
		".I GET /api/v1/snapshots/<id>\n"
		"gives the snapshot's window (default: the Jenkins build's start and "
		"duration); saved as\n"
		".IR cbmonitor2/snapshot.json ."},
	{.name = "--snapshot",
	 .arg = "NAME",
	 .parse = set_snapshot,
	 .cmds = PD_CMD_PULL,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "pull this snapshot (repeatable; default: the console's)",
	 .man = "Pull this snapshot (repeatable) instead of the console's. Without\n"
		".BR \\-\\-jenkins ,\n"
		".B \\-\\-snapshot\n"
		"and\n"
		".B \\-\\-perfdb\n"
		"are needed."},
	{.name = "--perfrunner-dir",
	 .arg = "DIR",
	 .parse = pd_flags_set_str,
	 .field = OPT(pull.perfrunner_dir),
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "a perfrunner checkout: copy clusters/<cluster> and\n"
		 "tests/<test_config> named by the build's parameters",
	 .man = "A perfrunner checkout: copy\n"
		".I DIR/clusters/<cluster>\n"
		"and\n"
		".I DIR/tests/<test_config>\n"
		"(with\n"
		".I .spec\n"
		"or\n"
		".I .test\n"
		"added when the parameter has none) into\n"
		".IR perfrunner/ ."},
	{.name = "--history",
	 .parse = pd_flags_set_switch,
	 .field = OPT(pull_history),
	 .cmds = PD_CMD_PULL,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "then add the bundle to the history (perfdelta history add;\n"
		 "docs/history.md)",
	 .man = "Then add the pulled bundle to the history, as\n"
		".B perfdelta history add\n"
		"does."},
	{.name = "--db",
	 .arg = "URL",
	 .parse = pd_flags_set_str,
	 .field = OPT(history_db),
	 .cmds = PD_CMD_PULL,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "with --history: the store, sqlite:PATH or postgresql://...\n"
		 "(default $XDG_DATA_HOME/perfdelta/history.sqlite)",
	 .man = "With\n"
		".BR \\-\\-history :\n"
		"the history store, as for\n"
		".BR \"history add\" ."},
	{.name = "--netrc",
	 .parse = pd_flags_set_switch,
	 .field = OPT(pull.netrc),
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .help = "credentials from ~/.netrc (PERFDELTA_NETRC=FILE: from FILE)",
	 .man = "Credentials from\n"
		".I ~/.netrc\n"
		"for every request, as\n"
		".BR curl (1)\n"
		"reads it.\n"
		"With\n"
		".B PERFDELTA_NETRC\n"
		"set to a file, credentials come from that file instead (with or without\n"
		".BR \\-\\-netrc ;\n"
		"one that cannot be read is an error, exit 2): a file that a CI secret names, "
		"no\n"
		"password on the command line."},
	{.name = "--parallel",
	 .arg = "N",
	 .parse = pd_flags_set_unsigned,
	 .field = OPT(pull.parallel),
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .lo = 1,
	 .hi = 64,
	 .help = "transfers at once (default 8, at most 64)",
	 .man = "Transfers at once (default 8, at most 64)."},
	{.name = "--timeout",
	 .arg = "S",
	 .parse = pd_flags_set_long,
	 .field = OPT(pull.timeout_s),
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .lo = 1,
	 .hi = 86400,
	 .help = "connect and total time of one try (default 120);\n"
		 "compare: and the wait for another pulling the same URL",
	 .man = "Connect time and total time of one try, in seconds (default 120).\n"
		"For compare, also the longest wait for another process holding the lock of a "
		"URL's\n"
		"cache entry (another perfdelta pulling it): then it gives up naming the lock "
		"file and\n"
		"its holder, exit 3."},
	{.name = "--retries",
	 .arg = "N",
	 .parse = pd_flags_set_unsigned,
	 .field = OPT(pull.retries),
	 .cmds = PD_CMD_PULL | PD_CMD_COMPARE,
	 .section = PD_OPTS_SEC_PULL,
	 .lo = 0,
	 .hi = 20,
	 .help = "tries again on 5xx, 408, 429 and connection errors, waiting\n"
		 "0.5 s, then 1 s, 2 s... (default 3)",
	 .man = "Tries again after an HTTP 5xx, 408 or 429 answer, a timeout or a connection "
		"error,\n"
		"waiting 0.5 s, then 1 s, 2 s and so on (at most 30 s; longer when the "
		"server's\n"
		".I Retry\\-After\n"
		"asks, up to 60 s); default 3. Any other failure stops the pull at once."},
	{.name = "--event-time",
	 .arg = "S",
	 .parse = set_event_time,
	 .field = OPT(cmp.time),
	 .cmds = PD_CMD_ANY & ~PD_CMD_PULL,
	 .section = PD_OPTS_SEC_TIME,
	 .help = "the event (failover) happened S seconds into the measured\n"
		 "phase (default: from the console, the series or the config)",
	 .man = "The event happened\n"
		".I S\n"
		"seconds into the target's measured phase (default: from the console line, "
		"else the\n"
		"start of the rebalance in\n"
		".IR active_tasks/rebalance_progress ,\n"
		"else the config's\n"
		".IR \"[access] time // 4\" ).\n"
		"When the baseline has an event of its own, its series are shifted so that it "
		"falls on\n"
		"the target's, and the notes of the report say by how much."},
	{.name = "--console-utc-offset",
	 .arg = "±HH:MM",
	 .parse = set_utc_offset,
	 .field = OPT(cmp.time),
	 .cmds = PD_CMD_ANY & ~PD_CMD_PULL,
	 .section = PD_OPTS_SEC_TIME,
	 .help = "the console's local time zone (default: found by\n"
		 "aligning its rebalance lines with the series, else from the\n"
		 "Jenkins build start)",
	 .man = "The time zone of the console's local timestamps (default: found by aligning "
		"its\n"
		"rebalance lines with the series, else from the Jenkins build start on the "
		"15\\-minute\n"
		"zone grid)."},
	{.name = "--baseline-event-time",
	 .arg = "S",
	 .parse = set_event_time,
	 .field = OPT(cmp.time_base),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_TIME,
	 .help = "compare: --event-time for the baseline (a baseline\n"
		 "with its own event is shifted onto the target's)",
	 .man = "compare: the same as\n"
		".B \\-\\-event\\-time\n"
		"for the baseline, whose own event (a failover run compared with another) is "
		"shifted onto\n"
		"the target's."},
	{.name = "--baseline-console-utc-offset",
	 .arg = "±HH:MM",
	 .parse = set_utc_offset,
	 .field = OPT(cmp.time_base),
	 .cmds = PD_CMD_REPORTS,
	 .section = PD_OPTS_SEC_TIME,
	 .help = "compare: --console-utc-offset for the baseline",
	 .man = "compare: the same as\n"
		".B \\-\\-console\\-utc\\-offset\n"
		"for the baseline."},
	{.name = "--json",
	 .parse = pd_flags_set_switch,
	 .field = OPT(json),
	 .cmds = PD_CMD_INSPECT,
	 .section = PD_OPTS_SEC_OTHER,
	 .help = "inspect: print JSON",
	 .man = "inspect: print JSON."},
	{.name = "--help",
	 .alias = "-h",
	 .parse = show_help,
	 .done = 1,
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_OTHER,
	 .help = "this text (after a command: that command's)",
	 .man = "Print the usage."},
	{.name = "--version",
	 .parse = show_version,
	 .done = 1,
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_OTHER,
	 .help = "the version",
	 .man = "Print the version."},
	{.name = "--max-file-size",
	 .arg = "BYTES",
	 .parse = pd_flags_set_count,
	 .field = OPT(lim.max_file_bytes),
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_LIMITS,
	 .help = "one input file (default 1 GiB)",
	 .man = "one input file (default 1 GiB), a tarball's member too;"},
	{.name = "--max-bundle-size",
	 .arg = "BYTES",
	 .parse = pd_flags_set_count,
	 .field = OPT(lim.max_bundle_bytes),
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_LIMITS,
	 .help = "a tarball bundle, uncompressed (default 4 GiB)",
	 .man = "a tarball bundle, all its members uncompressed together (default 4 GiB); "
		"counted as\n"
		"each member delivers its bytes (a sparse member's holes included) and checked "
		"against\n"
		"its declared size before it is read, so that a compression bomb stops there; "
		"each member\n"
		"also counts 512 bytes plus its name, so that the memory a tarball takes stays "
		"under about\n"
		"this however many members it has;\n"
		"an archive that has inflated more than 200 times once past 64 MiB (gzip "
		"around a tar,\n"
		"or a zip's own members) is refused as a decompression bomb whatever this "
		"allows (perfdb\n"
		"series compress 4 to 10 times);\n"
		"for pull, every body the servers send, all together (retries too), so that a "
		"server\n"
		"cannot fill the disk one file under \\-\\-max\\-file\\-size at a time;"},
	{.name = "--max-samples",
	 .arg = "N",
	 .parse = pd_flags_set_count,
	 .field = OPT(lim.max_samples),
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_LIMITS,
	 .help = "samples in one series (default 50000000)",
	 .man = "samples in one series (default 50000000); a sample takes 16 bytes, up to 24 "
		"while the\n"
		"series grows, plus its text while the file is read: a 200 MB\n"
		".I .data\n"
		"file of 50 million short lines takes about 1.2 GB;"},
	{.name = "--max-series",
	 .arg = "N",
	 .parse = pd_flags_set_count,
	 .field = OPT(lim.max_series),
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_LIMITS,
	 .help = "series in one run (default 100000)",
	 .man = "series in one run (default 100000);"},
	{.name = "--max-line",
	 .arg = "BYTES",
	 .parse = pd_flags_set_count,
	 .field = OPT(lim.max_line),
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_LIMITS,
	 .help = "one console or INI line (default 1 MiB)",
	 .man = "one console or INI line (default 1 MiB);"},
	/* cJSON refuses more than 1000 levels by itself, so that is the ceiling */
	{.name = "--max-depth",
	 .arg = "N",
	 .parse = pd_flags_set_unsigned,
	 .field = OPT(lim.max_depth),
	 .cmds = PD_CMD_ANY,
	 .section = PD_OPTS_SEC_LIMITS,
	 .lo = 1,
	 .hi = 1000,
	 .help = "JSON and XML nesting (default 64, at most 1000)",
	 .man = "JSON and XML nesting (default 64, at most 1000)."},
};

const struct pd_flags pd_opts_flags = {flags, sizeof(flags) / sizeof(*flags),
				       "see perfdelta --help"};

/* Every section's flags that cmd accepts (PD_CMD_ANY: all of them). */
static void help_flags(unsigned cmd)
{
	struct pd_buf b = PD_BUF_INIT;
	for (int s = 0; s < PD_OPTS_SEC_COUNT; s++) {
		int shown = 0;
		for (size_t i = 0; i < pd_opts_flags.n; i++) {
			if (flags[i].section != s || !(flags[i].cmds & cmd))
				continue;
			/* -o and --quiet are pull's and inspect's too */
			int own = s != PD_OPTS_SEC_COMPARE || cmd & PD_CMD_COMPARE;
			if (!shown++)
				pd_buf_addf(&b, "\n%s\n",
					    own ? section_heading[s] : "options:");
			pd_flags_help_line(&b, &flags[i], cmd);
			pd_buf_addch(&b, '\n');
		}
	}
	pd_buf_addf(&b, "\n%s", usage_exit);
	fputs(b.ptr, stdout);
	pd_buf_release(&b);
}

/* The whole --help, or after a command only that command's. */
static int show_help(void *opts, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	const struct pd_opts *o = opts;
	(void)f, (void)val, (void)err; /* pd_flag_fn's shape */
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (o->cmd == commands[i].bit) {
			fputs(commands[i].usage, stdout);
			help_flags(o->cmd);
			return 0;
		}
	struct pd_buf b = PD_BUF_INIT;
	pd_flags_synopsis_usage(&b, pd_opts_synopsis, 1);
	pd_flags_synopsis_usage(&b, pd_cli_hx_synopsis, 0);
	fputs(b.ptr, stdout);
	pd_buf_release(&b);
	fputs(usage_all, stdout);
	help_flags(PD_CMD_ANY);
	return 0;
}

/* An operand: the command first, then its runs. */
static int operand(void *opts, const char *a, struct pd_err *err)
{
	struct pd_opts *o = opts;
	if (o->cmd) {
		if (o->n_args == PD_OPTS_MAX_ARGS)
			return pd_err_set(err, PD_EINVAL, "unexpected argument '%s'", a);
		o->args[o->n_args++] = a;
		return 0;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(a, commands[i].name)) {
			o->cmd = commands[i].bit;
			o->cmd_name = commands[i].name;
			return 0;
		}
	return pd_err_set(err, PD_EINVAL, "unknown command '%s'", a);
}

int pd_opts_parse(struct pd_opts *o, int argc, char **argv)
{
	const struct pd_flag **seen = pd_xcalloc((size_t)argc, sizeof(*seen));
	size_t n_seen = 0;
	int rc = pd_flags_parse(&pd_opts_flags, o, argc, argv, operand, seen, &n_seen);
	if (rc < 0 && !o->cmd)
		rc = pd_flags_usage(&pd_opts_flags, "%s",
				    "a command is needed: compare, inspect, demo or pull");
	if (rc < 0)
		rc = pd_flags_check(&pd_opts_flags, seen, n_seen, o->cmd, o->cmd_name);
	free(seen);
	return rc;
}

void pd_opts_release(struct pd_opts *o)
{
	free(o->metrics_arg);
	for (size_t i = 0; i < o->cmp.n_overrides; i++)
		free(o->threshold_globs[i]);
}
