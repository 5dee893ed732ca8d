#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Marks a string that filled dst (size n) and was cut: it ends in PD_ERR_CUT. */
static void mark_cut(char *dst, size_t n)
{
	size_t k = sizeof(PD_ERR_CUT);
	memcpy(dst + n - k, PD_ERR_CUT, k);
}

static void copy(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);
	if (len >= n) {
		len = n - 1;
		memcpy(dst, src, len);
		dst[len] = '\0';
		mark_cut(dst, n);
		return;
	}
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static int vset(struct pd_err *err, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int vset(struct pd_err *err, int code, const char *fmt, va_list ap)
{
	if (!err || err->code)
		return code;
	err->code = code;
	if (vsnprintf(err->msg, sizeof(err->msg), fmt, ap) >= (int)sizeof(err->msg))
		mark_cut(err->msg, sizeof(err->msg));
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
