/* perfdelta: arguments to options, options to the pipeline, errors to exit codes. */
#include "core/buf.h"
#include "core/err.h"
#include "core/src.h"
#include "analyze/timebase.h"
#include "parse/bundle.h"
#include "render/inspect.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_REGRESSION = 1, EXIT_USAGE = 2, EXIT_INPUT = 3, EXIT_NOTCMP = 4 };

static const char usage[] =
	"usage: perfdelta <command> [options]\n"
	"\n"
	"Compare two perfrunner runs of a Couchbase cluster (a baseline and a target, such as\n"
	"the same workload with a node failed over mid-run) from their cbmonitor/perfdb\n"
	"snapshots, Jenkins outputs and perfrunner configs.\n"
	"\n"
	"commands:\n"
	"  inspect RUN [--json]   what was found in a run bundle: snapshots, nodes and roles,\n"
	"                         series per collector, samples, time range, gaps, events, KPIs\n"
	"  demo                   inspect the bundled seed fixture (two generated runs)\n"
	"\n"
	"options:\n"
	"  --event-time S         the event (failover) happened S seconds into the measured\n"
	"                         phase (default: from the console, the series or the config)\n"
	"  --console-utc-offset ±HH:MM  the console's local time zone (default: found by\n"
	"                         aligning its rebalance lines with the series, else from the\n"
	"                         Jenkins build start)\n"
	"  -h, --help             this text\n"
	"  --version              the version\n"
	"\n"
	"limits on input (raise them with the flags):\n"
	"  --max-file-size BYTES  one input file (default 1 GiB)\n"
	"  --max-samples N        samples in one series (default 50000000)\n"
	"  --max-series N         series in one run (default 100000)\n"
	"  --max-line BYTES       one console or INI line (default 1 MiB)\n"
	"\n"
	"exit codes: 0 ok, 1 regression found, 2 usage error, 3 input error, 4 runs not comparable\n";

struct opts {
	const char *cmd;
	const char *run;
	int json;
	struct pd_limits lim;
	struct pd_time_flags time;
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

static int parse_size(size_t *out, const char *flag, const char *val)
{
	char *end;
	unsigned long long v;
	if (!val || !*val || *val == '-')
		return usage_error("%s needs a positive number", flag);
	v = strtoull(val, &end, 10);
	if (*end || v == 0)
		return usage_error("%s needs a positive number", flag);
	*out = (size_t)v;
	return 0;
}

static int parse_limit(struct opts *o, const char *flag, const char *val)
{
	size_t v = 0;
	int rc = parse_size(&v, flag, val);
	if (rc)
		return rc;
	if (!strcmp(flag, "--max-file-size"))
		o->lim.max_file_bytes = v;
	else if (!strcmp(flag, "--max-samples"))
		o->lim.max_samples = v;
	else if (!strcmp(flag, "--max-series"))
		o->lim.max_series = v;
	else
		o->lim.max_line = v;
	return 0;
}

/* --console-utc-offset: +HH:MM or -HH:MM. */
static int parse_utc_offset(struct opts *o, const char *val)
{
	int hh, mm, n = 0;
	if (!val || (val[0] != '+' && val[0] != '-') ||
	    sscanf(val + 1, "%2d:%2d%n", &hh, &mm, &n) != 2 || val[1 + n] || hh > 14 || mm > 59)
		return usage_error("--console-utc-offset needs +HH:MM or -HH:MM, not '%s'",
				   val ? val : "");
	o->time.has_utc_offset = 1;
	o->time.utc_offset_s = (val[0] == '-' ? -1 : 1) * (int64_t)(hh * 3600 + mm * 60);
	return 0;
}

/* --event-time: seconds from the start of the measured phase. */
static int parse_event_time(struct opts *o, const char *val)
{
	char *end;
	double v = val ? strtod(val, &end) : 0;
	if (!val || !*val || *end || !(v >= 0) || v > 1e9)
		return usage_error("--event-time needs seconds from the start of the phase, not '%s'",
				   val ? val : "");
	o->time.has_event_time = 1;
	o->time.event_time_s = v;
	return 0;
}

static int is_limit_flag(const char *a)
{
	return !strcmp(a, "--max-file-size") || !strcmp(a, "--max-samples") ||
	       !strcmp(a, "--max-series") || !strcmp(a, "--max-line");
}

/* Returns -1 to go on, else an exit code (help and version exit 0). */
static int parse_args(struct opts *o, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--version")) {
			printf("perfdelta %s\n", PD_VERSION);
			return EXIT_OK;
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (!strcmp(a, "--console-utc-offset")) {
			if ((rc = parse_utc_offset(o, i + 1 < argc ? argv[++i] : NULL)))
				return rc;
		} else if (!strcmp(a, "--event-time")) {
			if ((rc = parse_event_time(o, i + 1 < argc ? argv[++i] : NULL)))
				return rc;
		} else if (is_limit_flag(a)) {
			if ((rc = parse_limit(o, a, i + 1 < argc ? argv[++i] : NULL)))
				return rc;
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (!o->cmd) {
			o->cmd = a;
		} else if (!o->run) {
			o->run = a;
		} else {
			return usage_error("unexpected argument '%s'", a);
		}
	}
	if (!o->cmd)
		return usage_error("%s", "a command is needed");
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

static int cmd_inspect(const struct opts *o, const char *dir)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_run *run = NULL;
	struct pd_buf out = PD_BUF_INIT;
	struct pd_timebase tb;
	if (pd_bundle_load(&run, dir, &o->lim, &err) < 0)
		return report_error(&err);
	if (pd_timebase_resolve(&tb, run, &o->time, &err) < 0) {
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

static int cmd_demo(const struct opts *o)
{
	static const char *const runs[] = {PD_SEED_DIR "/baseline", PD_SEED_DIR "/failover"};
	for (int i = 0; i < 2; i++) {
		int rc = cmd_inspect(o, runs[i]);
		if (rc)
			return rc;
		if (!o->json && i == 0)
			printf("\n");
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct opts o = {.lim = PD_LIMITS_DEFAULT};
	int rc = parse_args(&o, argc, argv);
	if (rc >= 0)
		return rc;
	if (!strcmp(o.cmd, "inspect")) {
		if (!o.run)
			return usage_error("%s", "inspect needs a run bundle: perfdelta inspect RUN");
		return cmd_inspect(&o, o.run);
	}
	if (!strcmp(o.cmd, "demo"))
		return cmd_demo(&o);
	return usage_error("unknown command '%s'", o.cmd);
}
