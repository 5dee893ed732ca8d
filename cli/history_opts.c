/* perfdelta-history's flag table, parser and --help (cli/history.h). */
#include "cli/flags.h"
#include "cli/history.h"

#include "analyze/policy.h"
#include "core/buf.h"
#include "core/xalloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* PD_HX_ADD_BATCH as the text --help states, so the two cannot differ */
#define QUOTE_(x) #x
#define QUOTE(x)  QUOTE_(x)

const char *const pd_cli_hx_synopsis[] = {
	"perfdelta signature RUN",
	"perfdelta history add RUN... [--db URL]",
	"perfdelta history report --test CONFIG [--db URL] -o DIR [--window N] [--alpha A] "
	"[--min-size K]",
	"perfdelta compare --baseline-history N [--db URL] [options] TARGET -o DIR",
	"perfdelta demo --history [-o DIR]",
	NULL};

static const char about[] =
	"\n"
	"A run's signature (its identity, every metric's mean per scope and phase, the\n"
	"event's features) as JSON; a history of signatures in SQLite (--db sqlite:PATH,\n"
	"default $XDG_DATA_HOME/perfdelta/history.sqlite) or PostgreSQL (--db\n"
	"postgresql://...); change points over builds (E-Divisive means) as a report.\n"
	"history add takes any number of runs, " QUOTE(
		PD_HX_ADD_BATCH) " at a time: a bad bundle stores nothing\n"
				 "of its batch (docs/history.md).\n";

#define HELP "perfdelta history --help"

/* --alpha: a family-wise significance level. */
static int set_alpha(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	double v;
	if (pd_flags_number(&v, val, 1) < 0 || !(v >= 1e-9) || v > 0.5)
		return pd_err_set(err, PD_EINVAL,
				  "%s needs a level from 0.000000001 to 0.5, not '%s'", f->name,
				  val);
	((struct pd_cli_hx_opts *)o)->alpha = v;
	return 0;
}

static int show_help(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);

#define OPT(member) offsetof(struct pd_cli_hx_opts, member)

static const struct pd_flag flags[] = {
	{.name = "--db",
	 .arg = "URL",
	 .parse = pd_flags_set_str,
	 .field = OPT(db),
	 .cmds = PD_HX_ADD | PD_HX_REPORT | PD_HX_COMPARE,
	 .help = "the store, sqlite:PATH or postgresql://...\n"
		 "(default $XDG_DATA_HOME/perfdelta/history.sqlite)",
	 .man = "The history store:\n"
		".I sqlite:PATH\n"
		"(SQLite) or\n"
		".I postgresql://...\n"
		"(PostgreSQL; default\n"
		".IR $XDG_DATA_HOME/perfdelta/history.sqlite ).\n"
		"Only\n"
		".B history add\n"
		"makes a store, and only where there is none; a reader never does."},
	{.name = "--output",
	 .alias = "-o",
	 .arg = "DIR",
	 .parse = pd_flags_set_path,
	 .field = OPT(out),
	 .cmds = PD_HX_REPORT | PD_HX_DEMO,
	 .help = "the report's directory: index.html, charts/, summary.json,\n"
		 "junit.xml, written atomically",
	 .man = "history report and demo \\-\\-history: the report's directory (index.html, "
		"charts/,\n"
		"summary.json, junit.xml), written beside its place and renamed into it; demo\n"
		"\\-\\-history writes to\n"
		".I ./perfdelta\\-history\\-demo\n"
		"without it."},
	{.name = "--test",
	 .arg = "CONFIG",
	 .parse = pd_flags_set_str,
	 .field = OPT(test),
	 .cmds = PD_HX_REPORT,
	 .help = "report: the test, by perfrunner's test file or its name",
	 .man = "history report: the test whose runs are read, by its name or perfrunner's "
		"test file\n"
		"(\\fItests/n1ql/q2.test\\fR reads as \\fIq2\\fR)."},
	{.name = "--window",
	 .arg = "N",
	 .parse = pd_flags_set_long,
	 .field = OPT(window),
	 .cmds = PD_HX_REPORT | PD_HX_DEMO,
	 .lo = 0,
	 .hi = 10000000,
	 .help = "report: the newest N runs (default " QUOTE(
		 PD_POLICY_HIST_WINDOW) "; 0: every run)",
	 .man = "history report: the newest\n"
		".I N\n"
		"runs of the test (default " QUOTE(PD_POLICY_HIST_WINDOW) "; 0: every run)."},
	{.name = "--alpha",
	 .arg = "A",
	 .parse = set_alpha,
	 .cmds = PD_HX_REPORT | PD_HX_DEMO,
	 .help = "report: the family-wise significance level (default 0.05)",
	 .man = "history report: the family-wise significance level over the features, from\n"
		"0.000000001 to 0.5 (default 0.05)."},
	{.name = "--min-size",
	 .arg = "K",
	 .parse = pd_flags_set_long,
	 .field = OPT(min_size),
	 .cmds = PD_HX_REPORT | PD_HX_DEMO,
	 .lo = 2,
	 .hi = 10000,
	 .help = "report: runs on either side of a change (default 4)",
	 .man = "history report: runs on either side of a change point, from 2 to 10000 "
		"(default 4)."},
	{.name = "--baseline-history",
	 .arg = "N",
	 .parse = pd_flags_set_long,
	 .field = OPT(baselines),
	 .cmds = PD_HX_COMPARE,
	 .lo = 1,
	 .hi = 16,
	 .help = "compare: the N runs before TARGET in the history, as its\n"
		 "baselines (at most 16)",
	 .man = "compare: the\n"
		".I N\n"
		"(at most 16) most recent earlier runs of the target's test and build line in "
		"the\n"
		"store whose bundles are still where they were added from become its "
		"baselines;\n"
		"compare then takes the target alone."},
	{.name = "--history",
	 .parse = pd_flags_set_switch,
	 .field = OPT(history),
	 .cmds = PD_HX_DEMO,
	 .help = "demo: a generated history's report",
	 .man = "demo: the report of a generated history instead of the seed's comparison."},
	{.name = "--quiet",
	 .alias = "-q",
	 .parse = pd_flags_set_switch,
	 .field = OPT(quiet),
	 .cmds = PD_HX_ANY,
	 .help = "print nothing but errors and warnings",
	 .man = "Print nothing but errors and warnings: no line per run added, no summary."},
	{.name = "--help",
	 .alias = "-h",
	 .parse = show_help,
	 .done = 1,
	 .cmds = PD_HX_ANY,
	 .help = "this text",
	 .man = "Print the usage and these options."},
};

const struct pd_flags pd_cli_hx_flags = {flags, sizeof(flags) / sizeof(*flags), HELP};

void pd_cli_hx_help(FILE *out)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_flags_synopsis_usage(&b, pd_cli_hx_synopsis, 1);
	pd_buf_adds(&b, about);
	pd_buf_adds(&b, "\noptions:\n");
	for (size_t i = 0; i < pd_cli_hx_flags.n; i++) {
		pd_flags_help_line(&b, &flags[i], PD_HX_ANY);
		pd_buf_addch(&b, '\n');
	}
	fputs(b.ptr, out);
	pd_buf_release(&b);
}

static int show_help(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	(void)o, (void)f, (void)val, (void)err; /* pd_flag_fn's shape */
	pd_cli_hx_help(stdout);
	return 0;
}

/* Each operand k is written to argv[k]: pd_flags_parse has read argv[0..k] by then. */
static int operand(void *opts, const char *a, struct pd_err *err)
{
	struct pd_cli_hx_opts *o = opts;
	(void)err; /* any number of them */
	o->args[o->n_args++] = a;
	return 0;
}

static const char *const cmd_name[] = {"signature", "history add", "history report", "compare",
				       "demo --history"};

int pd_cli_hx_parse(struct pd_cli_hx_opts *o, unsigned cmd, int argc, char **argv, int *rc)
{
	const struct pd_flag **seen = pd_xcalloc((size_t)argc + 1, sizeof(*seen));
	size_t n_seen = 0, c = 0;
	while (c < 4 && cmd != 1u << c)
		c++;
	o->cmd = cmd;
	o->args = (const char **)argv + 1, o->n_args = 0;
	int go = pd_flags_parse(&pd_cli_hx_flags, o, argc, argv, operand, seen, &n_seen);
	if (go < 0)
		go = pd_flags_check(&pd_cli_hx_flags, seen, n_seen, cmd, cmd_name[c]);
	free(seen);
	*rc = go < 0 ? PD_EXIT_OK : go;
	return go < 0;
}
