/* perfdelta's options: its commands, the flag table that parses them (cli/flags.h), and
 * its --help. */
#ifndef PD_CLI_OPTS_H
#define PD_CLI_OPTS_H

#include "analyze/compare.h"
#include "cli/flags.h"
#include "core/src.h"
#include "fetch/plan.h"
#include "render/plot.h"

#include <stddef.h>

/* The commands, as bits of the set of commands a flag applies to. */
enum pd_cmd {
	PD_CMD_COMPARE = 1,
	PD_CMD_INSPECT = 2,
	PD_CMD_DEMO = 4,
	PD_CMD_PULL = 8,
	PD_CMD_REPORTS = PD_CMD_COMPARE | PD_CMD_DEMO,
	PD_CMD_ANY = 15
};

#define PD_OPTS_MAX_ARGS  17 /* compare: up to 16 baselines and the target */
#define PD_OPTS_MAX_GLOBS 64

struct pd_opts {
	enum pd_cmd cmd;
	const char *cmd_name;
	const char *args[PD_OPTS_MAX_ARGS];
	int n_args;
	int json, quiet, fail_on_regression, single_file, timings;
	const char *out;
	const char *label_base, *label_target;
	const char *report_url;
	double gnuplot_timeout_s;
	struct pd_limits lim;
	struct pd_compare_opts cmp;
	const char *globs[PD_OPTS_MAX_GLOBS];
	struct pd_threshold thresholds[PD_OPTS_MAX_GLOBS];
	char *metrics_arg;                        /* owned copy of --metrics, split in place */
	char *threshold_globs[PD_OPTS_MAX_GLOBS]; /* owned copies of --threshold-for's GLOBs */
	struct pd_plan_opts pull;
	int pull_history;       /* pull --history: add the bundle pulled to the history */
	const char *history_db; /* --db URL for it, or NULL */
	const char *snapshots[PD_OPTS_MAX_GLOBS];
	const char *builds[PD_OPTS_MAX_GLOBS]; /* every --jenkins: pull's one; compare's name
					  the snapshots of a cbmonitor comparison URL */
	size_t n_builds;
	const char *run_spread; /* --run-spread FILE */
};

/* Where --help lists a flag. */
enum pd_opts_section {
	PD_OPTS_SEC_COMPARE,
	PD_OPTS_SEC_PULL,
	PD_OPTS_SEC_TIME,
	PD_OPTS_SEC_OTHER,
	PD_OPTS_SEC_LIMITS,
	PD_OPTS_SEC_COUNT
};

/* perfdelta's flag table. */
extern const struct pd_flags pd_opts_flags;

/* The defaults. */
#define PD_OPTS_INIT                                                                           \
	{                                                                                      \
		.lim = PD_LIMITS_DEFAULT, .cmp = PD_COMPARE_OPTS_INIT,                         \
		.fail_on_regression = 1, .gnuplot_timeout_s = PD_PLOT_TIMEOUT_DEFAULT,         \
		.pull = PD_PLAN_OPTS_INIT                                                      \
	}

/* Parses argv into o (made with PD_OPTS_INIT): -1 to go on, else the exit code (0 after
 * --help or --version, PD_EXIT_USAGE after a usage error, printed). */
int pd_opts_parse(struct pd_opts *o, int argc, char **argv);
/* Frees what o owns (the copies of --metrics and --threshold-for). */
void pd_opts_release(struct pd_opts *o);

/* perfdelta's own synopsis lines (cli/flags.h, pd_flags_synopsis_usage); --help and the
 * man page list perfdelta-history's (pd_cli_hx_synopsis) after them. */
extern const char *const pd_opts_synopsis[]; /* NULL-terminated */

#endif
