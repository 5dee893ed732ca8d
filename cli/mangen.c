/* pd_mangen TEMPLATE OUT: the man page, its options written from the flag tables of
 * perfdelta (cli/opts.c) and perfdelta-history (cli/history_opts.c), so that the page,
 * --help and the parsers name the same flags with the same values. Run by the build:
 * each line of TEMPLATE that is one of the markers below becomes the entries of its
 * flags, every other line is copied. */
#include "cli/history.h"
#include "cli/opts.h"
#include "core/buf.h"
#include "core/err.h"
#include "core/file.h"

#include <stdio.h>
#include <string.h>

/* The marker of the SYNOPSIS (pd_opts_synopsis and pd_cli_hx_synopsis). */
#define SYNOPSIS ".\\\" @SYNOPSIS@"

/* A marker, and the sections of perfdelta's table (bits) or the history's table. */
struct marker {
	const char *line;
	unsigned sections; /* 0: perfdelta-history's flags */
};

static const struct marker markers[] = {
	{".\\\" @OPTIONS@",
	 1u << PD_OPTS_SEC_COMPARE | 1u << PD_OPTS_SEC_TIME | 1u << PD_OPTS_SEC_OTHER},
	{".\\\" @PULL OPTIONS@", 1u << PD_OPTS_SEC_PULL},
	{".\\\" @LIMITS@", 1u << PD_OPTS_SEC_LIMITS},
	{".\\\" @HISTORY OPTIONS@", 0},
};

/* The entries of the marker's flags, in the table's order by section. */
static void entries(struct pd_buf *out, const struct marker *m)
{
	const struct pd_flags *t = m->sections ? &pd_opts_flags : &pd_cli_hx_flags;
	for (int s = 0; s < (m->sections ? PD_OPTS_SEC_COUNT : 1); s++)
		for (size_t i = 0; i < t->n; i++)
			if (!m->sections || (m->sections & 1u << s && t->v[i].section == s))
				pd_flags_man(out, &t->v[i]);
}

/* The SYNOPSIS: perfdelta's lines, then perfdelta-history's, one a line. */
static void synopsis(struct pd_buf *out)
{
	const char *const *lists[] = {pd_opts_synopsis, pd_cli_hx_synopsis};
	for (size_t k = 0, n = 0; k < 2; k++)
		for (const char *const *l = lists[k]; *l; l++) {
			pd_buf_adds(out, n++ ? ".br\n" : "");
			pd_flags_synopsis_man(out, *l);
		}
}

/* TEMPLATE's text with every marker line replaced by its entries. */
static void generate(struct pd_buf *out, const char *text)
{
	for (const char *p = text, *nl; *p; p = *nl ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		size_t k = 0, n = (size_t)(nl - p);
		while (k < sizeof(markers) / sizeof(*markers) &&
		       (strlen(markers[k].line) != n || strncmp(p, markers[k].line, n)))
			k++;
		if (n == strlen(SYNOPSIS) && !strncmp(p, SYNOPSIS, n))
			synopsis(out);
		else if (k < sizeof(markers) / sizeof(*markers))
			entries(out, &markers[k]);
		else
			pd_buf_addf(out, "%.*s\n", (int)n, p);
	}
}

int main(int argc, char **argv)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_buf in = PD_BUF_INIT, out = PD_BUF_INIT, msg = PD_BUF_INIT;
	FILE *f = NULL;
	int rc = 1;
	if (argc != 3) {
		fputs("usage: pd_mangen TEMPLATE OUT\n", stderr);
		return 2;
	}
	if (pd_file_read(&in, argv[1], 1 << 20, &err) == 0) {
		generate(&out, in.ptr);
		f = fopen(argv[2], "w");
		rc = !f || fwrite(out.ptr, 1, out.len, f) != out.len;
		rc |= f && fclose(f) != 0;
		if (rc)
			pd_err_at(&err, PD_EIO, argv[2], 0, 0, "cannot write it");
	}
	if (rc) {
		pd_err_format(&msg, &err);
		fprintf(stderr, "pd_mangen: %s\n", msg.ptr);
	}
	pd_buf_release(&in), pd_buf_release(&out), pd_buf_release(&msg);
	return rc;
}
