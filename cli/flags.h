/* The command-line flag table of every binary and its one parser: a program describes its
 * flags in a table of struct pd_flag (name, value, setter, the commands that take it, its
 * --help text); pd_flags_parse reads argv by it, --help and the man page's OPTIONS are
 * written from it. Every number a flag takes is read here, in one syntax. */
#ifndef PD_CLI_FLAGS_H
#define PD_CLI_FLAGS_H

#include "core/buf.h"
#include "core/err.h"

#include <stddef.h>

struct pd_flag;

/* Applies a flag's value (NULL for a switch) to the options o: 0, or PD_EINVAL with err
 * saying what the value should be. */
typedef int (*pd_flag_fn)(void *o, const struct pd_flag *f, const char *val,
			  struct pd_err *err);

struct pd_flag {
	const char *name, *alias; /* "--output", "-o" */
	const char *arg;          /* the value's name in --help; NULL for a switch */
	pd_flag_fn parse;
	size_t field;           /* offsetof the member of the options the setter sets */
	unsigned cmds;          /* the commands that accept it (the program's command bits) */
	int section;            /* where --help lists it (the program's sections) */
	int done;               /* --help, --version: the program ends after it, exit 0 */
	const char *help;       /* lines after the first indented by pd_flags_help_line */
	const char *help_other; /* the text for a command of other_cmds, when it differs */
	unsigned other_cmds;
	const char *man;      /* its paragraph of the man page's options, in roff */
	unsigned long lo, hi; /* the range of a whole number */
};

/* A program's table; hint ends its usage-error lines ("see perfdelta --help"). */
struct pd_flags {
	const struct pd_flag *v;
	size_t n;
	const char *hint;
};

/* Reads an operand (an argument that is not a flag): 0, or PD_EINVAL with err set. */
typedef int (*pd_operand_fn)(void *o, const char *arg, struct pd_err *err);

/* Parses argv[1..argc) by t into o: each flag through its setter (its value the next
 * argument), every other argument, and all after "--", through operand. The flags met
 * go to seen (room for argc), *n_seen counting them. Returns -1 to go on, else the exit
 * code: 0 after a done flag, PD_EXIT_USAGE after a usage error, printed (cli/usage.h). */
int pd_flags_parse(const struct pd_flags *t, void *o, int argc, char **argv,
		   pd_operand_fn operand, const struct pd_flag **seen, size_t *n_seen);
/* The flag named a (its name or alias), or NULL. */
const struct pd_flag *pd_flags_find(const struct pd_flags *t, const char *a);
/* -1 when every flag of seen[0..n) is one that cmd (named cmd_name) takes, else the usage
 * error's exit code, printed. */
int pd_flags_check(const struct pd_flags *t, const struct pd_flag *const *seen, size_t n,
		   unsigned cmd, const char *cmd_name);
/* Prints "perfdelta: MSG (HINT)" as cli/usage.h does; returns PD_EXIT_USAGE. */
int pd_flags_usage(const struct pd_flags *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* f's --help line (its text for cmd) into out, without the final newline. */
void pd_flags_help_line(struct pd_buf *out, const struct pd_flag *f, unsigned cmd);

/* f's entry of the man page's options into out: ".TP", its name, alias and value in
 * roff, then f->man. */
void pd_flags_man(struct pd_buf *out, const struct pd_flag *f);

/* A program's synopsis is lines such as "perfdelta compare BASELINE [BASELINE...] TARGET
 * -o DIR [options]": the program, its command and the flags right after them, then its
 * operands and options, [optional] and repeated... . _usage appends lines (up to a NULL)
 * as --help's
 * "usage:" lines (the first after "usage: " when first_line), wrapped past 80
 * columns under the first operand; _man appends one as the
 * man page's SYNOPSIS line (the leading words and every flag bold, the other words
 * italic, brackets and "..." roman). */
void pd_flags_synopsis_usage(struct pd_buf *out, const char *const *lines, int first_line);
void pd_flags_synopsis_man(struct pd_buf *out, const char *line);

/* The one number syntax of every flag: decimal digits, a fractional part after '.' where
 * fraction is set; no sign, exponent, hex ("0x10"), "inf" or spaces, which strtod would
 * take. 0 and its value in *out, or -1 when val is not one. */
int pd_flags_number(double *out, const char *val, int fraction);
/* A whole number from lo to hi into *out: 0, or PD_EINVAL with err set. */
int pd_flags_whole(unsigned long long *out, const struct pd_flag *f, const char *val,
		   unsigned long long lo, unsigned long long hi, struct pd_err *err);
/* A percentage above 0, at most 1000, for the flag named name: 0, or PD_EINVAL. */
int pd_flags_pct(double *out, const char *name, const char *val, struct pd_err *err);

/* The setters of the common kinds, each into the member at f->field: a string (const
 * char *), a path (a string never empty), a switch (int, set to 1), a whole number in
 * [f->lo, f->hi] as size_t (lo at least 1, hi 0: SIZE_MAX), unsigned or long, a
 * percentage (double above 0, at most 1000) and seconds (double above 0, at most a
 * day). */
int pd_flags_set_str(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);
int pd_flags_set_path(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);
int pd_flags_set_switch(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);
int pd_flags_set_count(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);
int pd_flags_set_unsigned(void *o, const struct pd_flag *f, const char *val,
			  struct pd_err *err);
int pd_flags_set_long(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);
int pd_flags_set_pct(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);
int pd_flags_set_seconds(void *o, const struct pd_flag *f, const char *val, struct pd_err *err);

#endif
