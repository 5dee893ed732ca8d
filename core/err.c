#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Marks a string that filled dst (size n) and was cut: it ends in PD_ERR_CUT (the
 * fallback when no copy of the whole message can be had). */
static void mark_cut(char *dst, size_t n)
{
	size_t k = sizeof(PD_ERR_CUT);
	memcpy(dst + n - k, PD_ERR_CUT, k);
}

static int continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* Copies src (len bytes) into dst (size n); one that does not fit keeps its start and its
 * end around PD_ERR_CUT, each cut at a UTF-8 character's boundary: the untrusted middle
 * (a long path or URL) goes, what the message says about it (its end) stays. */
static void fit(char *dst, size_t n, const char *src, size_t len)
{
	size_t k = sizeof(PD_ERR_CUT) - 1, head, from;
	if (len < n) {
		memcpy(dst, src, len);
		dst[len] = '\0';
		return;
	}
	head = (n - 1 - k) / 2;
	from = len - (n - 1 - k - head);
	while (head && continuation(src[head]))
		head--;
	while (from < len && continuation(src[from]))
		from++;
	memcpy(dst, src, head);
	memcpy(dst + head, PD_ERR_CUT, k);
	memcpy(dst + head + k, src + from, len - from);
	dst[head + k + len - from] = '\0';
}

static void copy(char *dst, size_t n, const char *src)
{
	fit(dst, n, src, strlen(src));
}

static int vset(struct pd_err *err, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int vset(struct pd_err *err, int code, const char *fmt, va_list ap)
{
	va_list again;
	int len;
	char *whole;
	if (!err || err->code)
		return code;
	err->code = code;
	va_copy(again, ap);
	len = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	/* a longer one is formatted whole once more, to keep its end (malloc, not
	 * pd_xmalloc: without memory for it, the message is cut at its end) */
	if (len >= (int)sizeof(err->msg) && (whole = malloc((size_t)len + 1))) {
		vsnprintf(whole, (size_t)len + 1, fmt, again);
		fit(err->msg, sizeof(err->msg), whole, (size_t)len);
		free(whole);
	} else if (len >= (int)sizeof(err->msg)) {
		mark_cut(err->msg, sizeof(err->msg));
	}
	va_end(again);
	/* one line: a message built from input never spans lines */
	for (char *p = err->msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return code;
}

int pd_err_set(struct pd_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(err, code, fmt, ap);
	va_end(ap);
	return code;
}

int pd_err_at(struct pd_err *err, int code, const char *path, long line, long col,
	      const char *fmt, ...)
{
	va_list ap;
	if (err && !err->code) {
		copy(err->path, sizeof(err->path), path ? path : "");
		err->line = line;
		err->col = col;
	}
	va_start(ap, fmt);
	vset(err, code, fmt, ap);
	va_end(ap);
	return code;
}

void pd_err_set_path(struct pd_err *err, const char *path)
{
	if (err && err->code && !err->path[0] && path)
		copy(err->path, sizeof(err->path), path);
}

void pd_err_format(struct pd_buf *out, const struct pd_err *err)
{
	if (!err->path[0])
		pd_buf_adds(out, err->msg);
	else if (err->line && err->col)
		pd_buf_addf(out, "%s:%ld:%ld: %s", err->path, err->line, err->col, err->msg);
	else if (err->line)
		pd_buf_addf(out, "%s:%ld: %s", err->path, err->line, err->msg);
	else
		pd_buf_addf(out, "%s: %s", err->path, err->msg);
}
