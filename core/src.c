#include "src.h"

#include <stdarg.h>
#include <stdio.h>

const struct pd_limits pd_limits_default = PD_LIMITS_DEFAULT;

void pd_src_position(const struct pd_src *src, size_t off, long *line, long *col)
{
	long l = 1, c = 1;
	if (off > src->len)
		off = src->len;
	for (size_t i = 0; i < off; i++) {
		if (src->data[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

int pd_src_error(struct pd_err *err, int code, const struct pd_src *src, size_t off,
		 const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	long line, col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pd_src_position(src, off, &line, &col);
	return pd_err_at(err, code, src->path, line, col, "%s", msg);
}
