/* perfdelta-history: options, errors, `signature` and `history add`. */
#include "cli/history.h"
#include "cli/usage.h"

#include "analyze/signature.h"
#include "core/buf.h"
#include "core/xalloc.h"
#include "history/store.h"
#include "parse/bundle.h"
#include "core/url.h"
#include "render/escape.h"
#include "render/signature_json.h"

#include <errno.h>
#include <stdarg.h>
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
	return err->code == PD_EINVAL ? PD_HX_USAGE : PD_HX_INPUT;
}

#define HELP "perfdelta history --help"

static int number(double *out, const char *flag, const char *v, double lo, double hi)
{
	char *end;
	errno = 0;
	*out = v ? strtod(v, &end) : 0;
	if (!v || errno || end == v || *end || !(*out >= lo && *out <= hi))
		return pd_usage(HELP, "%s expects a number in its range", flag);
	return 0;
}

/* One flag with a value at argv[*i] (--flag V or --flag=V). */
static int take_value(const char **val, const char *flag, int argc, char **argv, int *i)
{
	size_t len = strlen(flag);
	if (argv[*i][len] == '=') {
		*val = argv[*i] + len + 1;
		return 0;
	}
	if (*i + 1 >= argc)
		return pd_usage(HELP, "%s needs a value", flag);
	*val = argv[++*i];
	return 0;
}

static int is_flag(const char *a, const char *flag)
{
	size_t len = strlen(flag);
	return !strncmp(a, flag, len) && (!a[len] || a[len] == '=');
}

static int apply(struct pd_cli_hx_opts *o, const char *flag, const char *val)
{
	double d;
	int rc = 0;
	if (!strcmp(flag, "--db"))
		o->db = val;
	else if (!strcmp(flag, "-o"))
		o->out = val;
	else if (!strcmp(flag, "--test"))
		o->test = val;
	else if (!strcmp(flag, "--window") && !(rc = number(&d, flag, val, 0, 1e7)))
		o->window = (long)d;
	else if (!strcmp(flag, "--min-size") && !(rc = number(&d, flag, val, 2, 1e4)))
		o->min_size = (long)d;
	else if (!strcmp(flag, "--baseline-history") && !(rc = number(&d, flag, val, 1, 16)))
		o->baselines = (long)d;
	else if (!strcmp(flag, "--alpha") && !(rc = number(&d, flag, val, 1e-9, 0.5)))
		o->alpha = d;
	return rc;
}

int pd_cli_hx_parse(struct pd_cli_hx_opts *o, int argc, char **argv)
{
	static const char *const valued[] = {"--db",     "-o",         "--test",
					     "--window", "--min-size", "--baseline-history",
					     "--alpha"};
	/* operand k is written to argv[k], k <= i: only entries already read are replaced */
	o->args = (const char **)argv, o->n_args = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		size_t k = 0;
		while (k < sizeof(valued) / sizeof(*valued) && !is_flag(a, valued[k]))
			k++;
		int rc = 0;
		if (k < sizeof(valued) / sizeof(*valued)) {
			if ((rc = take_value(&val, valued[k], argc, argv, &i)) ||
			    (rc = apply(o, valued[k], val)))
				return rc;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q"))
			o->quiet = 1;
		else if (!strcmp(a, "--history")) /* demo --history: the command itself */
			continue;
		else if (a[0] == '-' && a[1])
			return pd_usage(HELP, "unknown option '%s'", a);
		else
			argv[o->n_args++] = argv[i];
	}
	return 0;
}

char *pd_cli_hx_db_url(const struct pd_cli_hx_opts *o, enum pd_store_mode mode,
		       struct pd_err *err)
{
	if (o->db && pd_url_has_password(o->db)) { /* in every user's ps */
		struct pd_buf shown = PD_BUF_INIT, line = PD_BUF_INIT;
		pd_url_redact(&shown, o->db);
		pd_esc_text(&line, shown.ptr);
		fprintf(stderr,
			"perfdelta: warning: --db %s was given with its password, which any "
			"user of this machine can read in the process list: give it in "
			"PGPASSWORD or ~/.pgpass instead\n",
			line.ptr);
		pd_buf_release(&shown), pd_buf_release(&line);
	}
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
	int rc = pd_cli_hx_parse(&o, argc, argv);
	if (rc)
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
	return PD_HX_OK;
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
	int rc = pd_cli_hx_parse(&o, argc, argv);
	if (rc)
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
