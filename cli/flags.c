/* The flag tables' parser, number reader, setters and --help lines (cli/flags.h). */
#include "cli/flags.h"
#include "cli/exit.h"
#include "cli/usage.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pd_flags_usage(const struct pd_flags *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = pd_usage_v(t->hint, fmt, ap);
	va_end(ap);
	return rc;
}

const struct pd_flag *pd_flags_find(const struct pd_flags *t, const char *a)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(a, t->v[i].name) || (t->v[i].alias && !strcmp(a, t->v[i].alias)))
			return &t->v[i];
	return NULL;
}

/* One flag at argv[*i], its value the next argument: -1 to go on, else an exit code. */
static int take_flag(const struct pd_flags *t, void *o, const struct pd_flag *f, int argc,
		     char **argv, int *i)
{
	struct pd_err err = PD_ERR_INIT;
	if (f->arg && *i + 1 >= argc)
		return pd_flags_usage(t, "%s needs a value", argv[*i]);
	if (f->parse(o, f, f->arg ? argv[++*i] : NULL, &err) < 0)
		return pd_flags_usage(t, "%s", err.msg);
	return f->done ? PD_EXIT_OK : -1;
}

int pd_flags_parse(const struct pd_flags *t, void *o, int argc, char **argv,
		   pd_operand_fn operand, const struct pd_flag **seen, size_t *n_seen)
{
	struct pd_err err = PD_ERR_INIT;
	int rc = -1, operands = 0; /* after "--" every argument is an operand */
	*n_seen = 0;
	for (int i = 1; i < argc && rc < 0; i++) {
		const char *a = argv[i];
		const struct pd_flag *f = operands ? NULL : pd_flags_find(t, a);
		if (!operands && !strcmp(a, "--"))
			operands = 1;
		else if (f)
			seen[(*n_seen)++] = f, rc = take_flag(t, o, f, argc, argv, &i);
		else if (!operands && a[0] == '-' && a[1])
			rc = pd_flags_usage(t, "unknown option '%s'", a);
		else if (operand(o, a, &err) < 0)
			rc = pd_flags_usage(t, "%s", err.msg);
	}
	return rc;
}

int pd_flags_check(const struct pd_flags *t, const struct pd_flag *const *seen, size_t n,
		   unsigned cmd, const char *cmd_name)
{
	for (size_t i = 0; i < n; i++)
		if (!(seen[i]->cmds & cmd))
			return pd_flags_usage(t, "%s is not an option of %s", seen[i]->name,
					      cmd_name);
	return -1;
}

/* --help's column where a flag's text begins. */
#define HELP_COLUMN 25

void pd_flags_help_line(struct pd_buf *out, const struct pd_flag *f, unsigned cmd)
{
	const char *help = f->help_other && !(cmd & ~f->other_cmds) ? f->help_other : f->help;
	size_t start = out->len;
	pd_buf_adds(out, "  ");
	if (f->alias)
		pd_buf_addf(out, "%s, ", f->alias);
	pd_buf_addf(out, "%s%s%s", f->name, f->arg ? " " : "", f->arg ? f->arg : "");
	/* "±" is two bytes and one column */
	size_t col = out->len - start - (f->arg && strstr(f->arg, "±") ? 1 : 0);
	pd_buf_addf(out, "%*s", col + 2 <= HELP_COLUMN ? (int)(HELP_COLUMN - col) : 2, "");
	for (const char *p = help; *p; p++) {
		pd_buf_addch(out, *p);
		if (*p == '\n')
			pd_buf_addf(out, "%*s", HELP_COLUMN, "");
	}
}

/* s in roff: '-' as "\-" (a hyphen, not a minus), '±' as "\(+-". */
static void roff(struct pd_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '-')
			pd_buf_adds(out, "\\-");
		else if (!strncmp(s + i, "±", 2))
			pd_buf_adds(out, "\\(+-"), i++;
		else
			pd_buf_addch(out, s[i]);
}

void pd_flags_man(struct pd_buf *out, const struct pd_flag *f)
{
	pd_buf_adds(out, ".TP\n");
	if (f->alias) {
		pd_buf_adds(out, "\\fB");
		roff(out, f->alias, strlen(f->alias));
		pd_buf_adds(out, "\\fR, ");
	}
	pd_buf_adds(out, "\\fB");
	roff(out, f->name, strlen(f->name));
	pd_buf_adds(out, "\\fR");
	/* a value is named in italics; a choice of words ("json|xml") is the words in bold */
	for (const char *a = f->arg, *bar; a; a = *bar ? bar + 1 : NULL) {
		bar = a + strcspn(a, "|");
		pd_buf_adds(out, a == f->arg ? " " : "|");
		pd_buf_adds(out, strchr(f->arg, '|') ? "\\fB" : "\\fI");
		roff(out, a, (size_t)(bar - a));
		pd_buf_adds(out, "\\fR");
	}
	pd_buf_addf(out, "\n%s\n", f->man);
}

/* A synopsis token's parts: its brackets before, its word, its brackets and "..." after. */
static void token_parts(const char *t, size_t n, size_t *pre, size_t *core)
{
	size_t a = strspn(t, "["), b = n;
	while (b > a && (t[b - 1] == ']' || t[b - 1] == '.'))
		b--;
	*pre = a, *core = b - a;
}

/* The length of line's leading words: the program and its command, and with flags the
 * flags right after them. */
static size_t leading(const char *line, int flags)
{
	size_t end = 0;
	for (const char *p = line; *p;) {
		size_t n = strcspn(p, " ");
		if (*p == '[' || (*p == '-' && !flags) ||
		    (*p != '-' && !(*p >= 'a' && *p <= 'z')))
			break;
		end = (size_t)(p + n - line);
		p += n + (p[n] == ' ');
	}
	return end;
}

void pd_flags_synopsis_man(struct pd_buf *out, const char *line)
{
	size_t lead = leading(line, 1);
	pd_buf_adds(out, "\\fB");
	roff(out, line, lead);
	pd_buf_adds(out, "\\fR");
	for (const char *p = line + lead; *p;) {
		p += strspn(p, " ");
		size_t n = strcspn(p, " "), pre, core;
		if (!n)
			break;
		token_parts(p, n, &pre, &core);
		pd_buf_addf(out, " %.*s%s", (int)pre, p, p[pre] == '-' ? "\\fB" : "\\fI");
		roff(out, p + pre, core);
		pd_buf_adds(out, "\\fR");
		roff(out, p + pre + core, n - pre - core);
		p += n;
	}
	pd_buf_adds(out, "\n");
}

/* The length of line's next group at p: a word, a bracketed option with its value
 * ("[--window N]"), or a flag with its value ("-o DIR"): what a wrapped line keeps whole. */
static size_t group(const char *p)
{
	size_t n = 0;
	for (int depth = 0; p[n] && (depth || p[n] != ' '); n++)
		depth += (p[n] == '[') - (p[n] == ']');
	if (*p == '-' && p[n] == ' ' && p[n + 1] >= 'A' && p[n + 1] <= 'Z')
		n += 1 + strcspn(p + n + 1, " ");
	return n;
}

void pd_flags_synopsis_usage(struct pd_buf *out, const char *const *lines, int first_line)
{
	for (size_t i = 0; lines[i]; i++) {
		const char *p = lines[i];
		size_t col = 7, indent = 7 + leading(p, 0) + 1;
		pd_buf_adds(out, i || !first_line ? "       " : "usage: ");
		for (int first = 1; *p;
		     first = 0) { /* past 80 columns, on under the operands */
			size_t w = group(p);
			if (!first && col + 1 + w > 80)
				pd_buf_addf(out, "\n%*s", (int)indent, ""), col = indent;
			else if (!first)
				pd_buf_addch(out, ' '), col++;
			pd_buf_add(out, p, w);
			col += w, p += w;
			p += strspn(p, " ");
		}
		pd_buf_addch(out, '\n');
	}
}

int pd_flags_number(double *out, const char *val, int fraction)
{
	size_t n = strspn(val, "0123456789");
	*out = 0;
	if (!n)
		return -1;
	if (fraction && val[n] == '.') {
		size_t k = strspn(val + n + 1, "0123456789");
		if (!k)
			return -1;
		n += k + 1;
	}
	if (val[n])
		return -1;
	*out = strtod(val, NULL);
	return 0;
}

int pd_flags_whole(unsigned long long *out, const struct pd_flag *f, const char *val,
		   unsigned long long lo, unsigned long long hi, struct pd_err *err)
{
	char *end = NULL;
	unsigned long long v = 0;
	double d;
	*out = 0; /* gcc -O3 cannot otherwise see that every caller reads a set value */
	errno = 0;
	if (pd_flags_number(&d, val, 0) == 0)
		v = strtoull(val, &end, 10);
	if (!end || *end || errno == ERANGE || v < lo || v > hi)
		return pd_err_set(err, PD_EINVAL,
				  "%s needs a whole number from %llu to %llu, not '%s'",
				  f->name, lo, hi, val);
	*out = v;
	return 0;
}

#define FIELD(o, f, type) ((type *)((char *)(o) + (f)->field))

int pd_flags_set_str(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	(void)err; /* any string */
	*FIELD(o, f, const char *) = val;
	return 0;
}

/* Never empty: "-o ''" would name the working directory's parent's entry "". */
int pd_flags_set_path(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	if (!*val)
		return pd_err_set(err, PD_EINVAL, "%s needs a path, not ''", f->name);
	return pd_flags_set_str(o, f, val, err);
}

int pd_flags_set_switch(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	(void)val, (void)err; /* a switch has none: pd_flag_fn's shape */
	*FIELD(o, f, int) = 1;
	return 0;
}

int pd_flags_set_count(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	unsigned long long v = 0; /* GCC -O3 warns maybe-uninitialized without it */
	int rc = pd_flags_whole(&v, f, val, 1, f->hi ? f->hi : SIZE_MAX, err);
	if (rc == 0)
		*FIELD(o, f, size_t) = (size_t)v;
	return rc;
}

int pd_flags_set_unsigned(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	unsigned long long v = 0; /* GCC -O3 warns maybe-uninitialized without it */
	int rc = pd_flags_whole(&v, f, val, f->lo, f->hi, err);
	if (rc == 0)
		*FIELD(o, f, unsigned) = (unsigned)v;
	return rc;
}

int pd_flags_set_long(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	unsigned long long v = 0; /* GCC -O3 warns maybe-uninitialized without it */
	int rc = pd_flags_whole(&v, f, val, f->lo, f->hi, err);
	if (rc == 0)
		*FIELD(o, f, long) = (long)v;
	return rc;
}

int pd_flags_pct(double *out, const char *name, const char *val, struct pd_err *err)
{
	double v;
	if (pd_flags_number(&v, val, 1) < 0 || !(v > 0) || v > 1000)
		return pd_err_set(err, PD_EINVAL,
				  "%s needs a percentage above 0, at most 1000, not '%s'", name,
				  val);
	*out = v;
	return 0;
}

int pd_flags_set_pct(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	return pd_flags_pct(FIELD(o, f, double), f->name, val, err);
}

int pd_flags_set_seconds(void *o, const struct pd_flag *f, const char *val, struct pd_err *err)
{
	double v;
	if (pd_flags_number(&v, val, 1) < 0 || !(v > 0) || v > 86400)
		return pd_err_set(err, PD_EINVAL,
				  "%s needs seconds above 0, at most 86400, not '%s'", f->name,
				  val);
	*FIELD(o, f, double) = v;
	return 0;
}
