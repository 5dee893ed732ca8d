/* perfdelta-history's commands (cli/history.c dispatches; each returns the exit code). */
#ifndef PD_CLI_HISTORY_H
#define PD_CLI_HISTORY_H

#include "cli/exit.h"
#include "cli/flags.h"
#include "core/err.h"
#include "history/store.h"

#include <stddef.h>
#include <stdio.h>

/* Runs `history add` reads and holds at once: an add of any number of runs keeps at
 * most this many signatures in memory (a batch's bad bundle stores nothing of it). */
#define PD_HX_ADD_BATCH 256

/* The history commands, as bits of the set of commands a flag applies to. */
enum pd_cli_hx_cmd {
	PD_HX_SIGNATURE = 1,
	PD_HX_ADD = 2,
	PD_HX_REPORT = 4,
	PD_HX_COMPARE = 8,
	PD_HX_DEMO = 16,
	PD_HX_ANY = 31
};

/* The options of every history command; absent ones 0 / NULL. */
struct pd_cli_hx_opts {
	unsigned cmd; /* the command's bit */
	const char *db, *out, *test;
	long window, min_size, baselines; /* window -1: not given */
	double alpha;
	int quiet, history;
	const char **args; /* the operands, moved to the front of the parsed argv */
	size_t n_args;
};

/* perfdelta-history's synopsis (cli/flags.h, pd_flags_synopsis_usage), which perfdelta's
 * --help and the man page list after perfdelta's own. */
extern const char *const pd_cli_hx_synopsis[]; /* NULL-terminated */
/* perfdelta-history's flag table (cli/flags.h). */
extern const struct pd_flags pd_cli_hx_flags;

/* Parses the arguments of the command cmd, argv[1..argc) (argv[0] its name), into o by
 * the history's flag table (cli/flags.h). 1 when the command runs (*rc 0); else 0, *rc
 * the exit code: 0 after --help, PD_EXIT_USAGE after a usage error (printed). The
 * operands, any number, are moved to the front of argv[1..] in their order (as getopt
 * permutes), and o->args borrows them there. */
int pd_cli_hx_parse(struct pd_cli_hx_opts *o, unsigned cmd, int argc, char **argv, int *rc);
/* perfdelta-history's --help: its usage and every flag, into out. */
void pd_cli_hx_help(FILE *out);
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
