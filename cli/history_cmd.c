/* perfdelta-history: options, errors, `signature` and `history add`. */
#include "cli/history.h"
#include "cli/flags.h"
#include "cli/usage.h"

#include "analyze/signature.h"
#include "core/buf.h"
#include "core/xalloc.h"
#include "history/store.h"
#include "parse/bundle.h"
#include "render/escape.h"
#include "render/signature_json.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PD_HX_ADD_BATCH as the text --help states, so the two cannot differ */
#define QUOTE_(x) #x
#define QUOTE(x)  QUOTE_(x)

const char pd_cli_history_usage[] =
	"usage: perfdelta signature RUN\n"
	"       perfdelta history add RUN... [--db URL]\n"
	"       perfdelta history report --test CONFIG [--db URL] -o DIR [--window N]\n"
	"                                [--alpha A] [--min-size K]\n"
	"       perfdelta compare --baseline-history N [--db URL] [options] TARGET -o DIR\n"
	"       perfdelta demo --history [-o DIR]\n"
	"\n"
	"A run's signature (its identity, every metric's mean per scope and phase, the\n"
	"event's features) as JSON; a history of signatures in SQLite (--db sqlite:PATH,\n"
	"default $XDG_DATA_HOME/perfdelta/history.sqlite) or PostgreSQL (--db\n"
	"postgresql://...); change points over builds (E-Divisive means) as a report.\n"
	"history add takes any number of runs, " QUOTE(
		PD_HX_ADD_BATCH) " at a time: a bad bundle stores nothing\n"
				 "of its batch (docs/history.md).\n";

int pd_cli_hx_fail(const struct pd_err *err)
{
	struct pd_buf line = PD_BUF_INIT, shown = PD_BUF_INIT;
	pd_err_format(&line, err);
	pd_esc_text(&shown, line.ptr);
	fprintf(stderr, "perfdelta: %s\n", shown.ptr);
	pd_buf_release(&shown);
	pd_buf_release(&line);
	return err->code == PD_EINVAL ? PD_EXIT_USAGE : PD_EXIT_INPUT;
}

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
		 "(default $XDG_DATA_HOME/perfdelta/history.sqlite)"},
	{.name = "--output",
	 .alias = "-o",
	 .arg = "DIR",
	 .parse = pd_flags_set_path,
	 .field = OPT(out),
	 .cmds = PD_HX_REPORT | PD_HX_DEMO,
	 .help = "the report's directory: index.html, charts/, summary.json,\n"
		 "junit.xml, written atomically"},
	{.name = "--test",
	 .arg = "CONFIG",
	 .parse = pd_flags_set_str,
	 .field = OPT(test),
	 .cmds = PD_HX_REPORT,
	 .help = "report: the test, by perfrunner's test file or its name"},
	{.name = "--window",
	 .arg = "N",
	 .parse = pd_flags_set_long,
	 .field = OPT(window),
	 .cmds = PD_HX_REPORT | PD_HX_DEMO,
	 .lo = 0,
	 .hi = 10000000,
	 .help = "report: the newest N runs (default 100; 0: every run)"},
	{.name = "--alpha",
	 .arg = "A",
	 .parse = set_alpha,
	 .cmds = PD_HX_REPORT | PD_HX_DEMO,
	 .help = "report: the family-wise significance level (default 0.05)"},
	{.name = "--min-size",
	 .arg = "K",
	 .parse = pd_flags_set_long,
	 .field = OPT(min_size),
	 .cmds = PD_HX_REPORT | PD_HX_DEMO,
	 .lo = 2,
	 .hi = 10000,
	 .help = "report: runs on either side of a change (default 4)"},
	{.name = "--baseline-history",
	 .arg = "N",
	 .parse = pd_flags_set_long,
	 .field = OPT(baselines),
	 .cmds = PD_HX_COMPARE,
	 .lo = 1,
	 .hi = 16,
	 .help = "compare: the N runs before TARGET in the history, as its\n"
		 "baselines (at most 16)"},
	{.name = "--history",
	 .parse = pd_flags_set_switch,
	 .field = OPT(history),
	 .cmds = PD_HX_DEMO,
	 .help = "demo: a generated history's report"},
	{.name = "--quiet",
	 .alias = "-q",
	 .parse = pd_flags_set_switch,
	 .field = OPT(quiet),
	 .cmds = PD_HX_ANY,
	 .help = "print nothing but errors and warnings"},
	{.name = "--help",
	 .alias = "-h",
	 .parse = show_help,
	 .done = 1,
	 .cmds = PD_HX_ANY,
	 .help = "this text"},
};

static const struct pd_flags table = {flags, sizeof(flags) / sizeof(*flags), HELP};

void pd_cli_hx_help(FILE *out)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_adds(&b, pd_cli_history_usage);
	pd_buf_adds(&b, "\noptions:\n");
	for (size_t i = 0; i < table.n; i++) {
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
	int go = pd_flags_parse(&table, o, argc, argv, operand, seen, &n_seen);
	if (go < 0)
		go = pd_flags_check(&table, seen, n_seen, cmd, cmd_name[c]);
	free(seen);
	*rc = go < 0 ? PD_EXIT_OK : go;
	return go < 0;
}

char *pd_cli_hx_db_url(const struct pd_cli_hx_opts *o, enum pd_store_mode mode,
		       struct pd_err *err)
{
	return o->db ? pd_xstrdup(o->db) : pd_store_default_url(mode, err);
}

/* The signature of the bundle at path (caller frees). */
static int signature_of(struct pd_signature **out, const char *path, struct pd_err *err)
{
	struct pd_run *run = NULL;
	int rc = pd_bundle_load(&run, path, &pd_limits_default, err);
	if (rc == 0)
		rc = pd_signature_of(out, run, NULL, err);
	pd_run_free(run);
	return rc;
}

int pd_cli_signature(int argc, char **argv)
{
	struct pd_cli_hx_opts o = {0};
	struct pd_err err = PD_ERR_INIT;
	struct pd_signature *s;
	struct pd_buf b = PD_BUF_INIT;
	int rc;
	if (!pd_cli_hx_parse(&o, PD_HX_SIGNATURE, argc, argv, &rc))
		return rc;
	if (o.n_args != 1)
		return pd_usage(HELP, "%s",
				"signature needs one run bundle: perfdelta signature RUN");
	if (signature_of(&s, o.args[0], &err) < 0)
		return pd_cli_hx_fail(&err);
	pd_signature_json(&b, s);
	fwrite(b.ptr, 1, b.len, stdout);
	pd_buf_release(&b);
	pd_signature_free(s);
	return PD_EXIT_OK;
}

/* Every run's signature of the batch args[0..n) first (a bad bundle stores nothing of
 * it), then each added. */
static int add_batch(struct pd_store *st, const struct pd_cli_hx_opts *o, const char **args,
		     size_t n, struct pd_err *err)
{
	struct pd_signature **sig = pd_xcalloc(n, sizeof(*sig));
	int rc = 0, added;
	char **abs = pd_xcalloc(n, sizeof(*abs));
	for (size_t i = 0; i < n && rc == 0; i++) {
		abs[i] = realpath(args[i], NULL);
		if ((rc = signature_of(&sig[i], args[i], err)) == 0)
			rc = pd_store_check(sig[i], abs[i] ? abs[i] : args[i], err);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		rc = pd_store_add(st, sig[i], abs[i] ? abs[i] : args[i], &added, err);
		if (rc == 0 && !o->quiet) {
			struct pd_buf e = PD_BUF_INIT;
			pd_esc_text(&e, sig[i]->key);
			printf("%s %s (%zu features)\n", added ? "added" : "already stored",
			       e.ptr, sig[i]->n);
			pd_buf_release(&e);
		}
	}
	for (size_t i = 0; i < n; i++)
		pd_signature_free(sig[i]), free(abs[i]);
	free(sig), free(abs);
	return rc;
}

/* Any number of runs, PD_HX_ADD_BATCH at a time: memory stays that of one batch. */
static int add_all(struct pd_store *st, const struct pd_cli_hx_opts *o, struct pd_err *err)
{
	int rc = 0;
	for (size_t i = 0; i < o->n_args && rc == 0; i += PD_HX_ADD_BATCH) {
		size_t n = o->n_args - i < PD_HX_ADD_BATCH ? o->n_args - i : PD_HX_ADD_BATCH;
		rc = add_batch(st, o, o->args + i, n, err);
	}
	return rc;
}

int pd_cli_history_add(int argc, char **argv)
{
	struct pd_cli_hx_opts o = {0};
	struct pd_err err = PD_ERR_INIT;
	struct pd_store *st = NULL;
	char *url;
	int rc;
	if (!pd_cli_hx_parse(&o, PD_HX_ADD, argc, argv, &rc))
		return rc;
	if (!o.n_args)
		return pd_usage(HELP, "%s",
				"history add needs run bundles: perfdelta history add RUN...");
	if (!(url = pd_cli_hx_db_url(&o, PD_STORE_WRITE, &err)) ||
	    pd_store_open(&st, url, PD_STORE_WRITE, &err) < 0 || add_all(st, &o, &err) < 0)
		rc = pd_cli_hx_fail(&err);
	pd_store_close(st);
	free(url);
	return rc;
}
