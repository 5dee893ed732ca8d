/* perfdelta-history: errors, `signature` and `history add`. */
#include "cli/history.h"
#include "cli/flags.h"
#include "cli/usage.h"

#include "analyze/signature.h"
#include "core/buf.h"
#include "core/xalloc.h"
#include "history/store.h"
#include "parse/bundle.h"
#include "core/url.h"
#include "render/escape.h"
#include "render/signature_json.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	int rc;
	if (!pd_cli_hx_parse(&o, PD_HX_SIGNATURE, argc, argv, &rc))
		return rc;
	if (o.n_args != 1)
		return pd_flags_usage(
			&pd_cli_hx_flags, "%s",
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
		return pd_flags_usage(
			&pd_cli_hx_flags, "%s",
			"history add needs run bundles: perfdelta history add RUN...");
	if (!(url = pd_cli_hx_db_url(&o, PD_STORE_WRITE, &err)) ||
	    pd_store_open(&st, url, PD_STORE_WRITE, &err) < 0 || add_all(st, &o, &err) < 0)
		rc = pd_cli_hx_fail(&err);
	pd_store_close(st);
	free(url);
	return rc;
}
