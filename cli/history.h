/* perfdelta-history's commands (cli/history.c dispatches; each returns the exit code). */
#ifndef PD_CLI_HISTORY_H
#define PD_CLI_HISTORY_H

#include "core/err.h"
#include "history/store.h"

#include <stddef.h>

enum { PD_HX_OK = 0, PD_HX_USAGE = 2, PD_HX_INPUT = 3 };

/* Runs `history add` reads and holds at once: an add of any number of runs keeps at
 * most this many signatures in memory (a batch's bad bundle stores nothing of it). */
#define PD_HX_ADD_BATCH 256

/* The options of every history command; absent ones 0 / NULL. */
struct pd_cli_hx_opts {
	const char *db, *out, *test;
	long window, min_size, baselines; /* window -1: not given */
	double alpha;
	int quiet;
	const char **args; /* the operands, moved to the front of the parsed argv */
	size_t n_args;
};

extern const char pd_cli_history_usage[];

/* Parses argv[0..argc) into o; unknown flags and missing values are usage errors (the
 * exit code returned, 0 when good). The operands, any number, are moved to argv's front
 * in their order (as getopt permutes), and o->args borrows them there. */
int pd_cli_hx_parse(struct pd_cli_hx_opts *o, int argc, char **argv);
/* Prints err as perfdelta prints errors; the exit code for it. */
int pd_cli_hx_fail(const struct pd_err *err);
/* --db, or the default store (its directory made for a writer only; caller frees). */
char *pd_cli_hx_db_url(const struct pd_cli_hx_opts *o, enum pd_store_mode mode,
		       struct pd_err *err);

/* The report of o->test into o->out from st, opened at url (which its compare commands
 * name, credentials removed); *n_cp its change points. */
int pd_cli_hx_report(struct pd_store *st, const char *url, const struct pd_cli_hx_opts *o,
		     size_t *n_cp, struct pd_err *err);

int pd_cli_signature(int argc, char **argv);
int pd_cli_history_add(int argc, char **argv);
int pd_cli_history_report(int argc, char **argv);
int pd_cli_baseline_history(int argc, char **argv);
int pd_cli_history_demo(int argc, char **argv);

#endif
