/* The history's run-to-run spreads (parse/spread.h). */
#include "spread.h"
#include "../core/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_feature(const void *a, const void *b)
{
	return strcmp(((const struct pd_run_spread *)a)->feature,
		      ((const struct pd_run_spread *)b)->feature);
}

/* One line [s, e) (its tabs made NUL) into sp; 0, or -1 with *col the bad field's. */
static int one_line(struct pd_run_spread *sp, char *s, char *e, size_t *col)
{
	char *t1 = memchr(s, '\t', (size_t)(e - s)), *t2, *end;
	unsigned long long n;
	*col = 0;
	if (!t1 || t1 == s || !(t2 = memchr(t1 + 1, '\t', (size_t)(e - t1 - 1))))
		return -1;
	*t1 = *t2 = '\0';
	sp->feature = s;
	*col = (size_t)(t1 + 1 - s);
	errno = 0;
	sp->rel_sd = strtod(t1 + 1, &end);
	if (end == t1 + 1 || end != t2 || !isfinite(sp->rel_sd) || sp->rel_sd < 0)
		return -1;
	*col = (size_t)(t2 + 1 - s);
	n = strtoull(t2 + 1, &end, 10);
	if (end == t2 + 1 || end != e || t2[1] == '-' || errno)
		return -1;
	sp->n = (size_t)n;
	return 0;
}

int pd_spread_parse(struct pd_spreads *out, const struct pd_src *src, struct pd_err *err)
{
	size_t cap = 0, col;
	char *s, *e, *end;
	memset(out, 0, sizeof(*out));
	if (memchr(src->data, '\0', src->len))
		return pd_src_error(
			err, PD_EPARSE, src,
			(size_t)((const char *)memchr(src->data, '\0', src->len) - src->data),
			"expected text, not a NUL byte");
	out->text = pd_xmalloc(src->len + 1);
	memcpy(out->text, src->data, src->len);
	out->text[src->len] = '\0';
	end = out->text + src->len;
	for (s = out->text; s < end; s = e + 1) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		PD_GROW(out->v, cap, out->n + 1);
		if (one_line(&out->v[out->n], s, e, &col) < 0)
			return pd_src_error(
				err, PD_EPARSE, src, (size_t)(s - out->text) + col,
				"expected \"<feature> TAB <relative sd> TAB <runs>\"");
		*e = '\0';
		out->n++;
	}
	qsort(out->v, out->n, sizeof(*out->v), by_feature);
	for (size_t i = 1; i < out->n; i++)
		if (!strcmp(out->v[i].feature, out->v[i - 1].feature))
			return pd_err_at(err, PD_EPARSE, src->path, 0, 0,
					 "feature '%s' given twice", out->v[i].feature);
	return 0;
}

void pd_spread_free(struct pd_spreads *s)
{
	free(s->v), free(s->text);
	memset(s, 0, sizeof(*s));
}
