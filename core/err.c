#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void copy(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);
	if (len >= n)
		len = n - 1;
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
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
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

void pd_err_format(const struct pd_err *err, char *out, unsigned long n)
{
	if (!err->path[0])
		snprintf(out, n, "%s", err->msg);
	else if (err->line && err->col)
		snprintf(out, n, "%s:%ld:%ld: %s", err->path, err->line, err->col, err->msg);
	else if (err->line)
		snprintf(out, n, "%s:%ld: %s", err->path, err->line, err->msg);
	else
		snprintf(out, n, "%s: %s", err->path, err->msg);
}
