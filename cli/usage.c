/* The usage-error line (cli/usage.h). */
#include "cli/usage.h"
#include "cli/exit.h"
#include "core/buf.h"
#include "render/escape.h"

#include <stdio.h>

int pd_usage_v(const char *hint, const char *fmt, va_list ap)
{
	struct pd_buf msg = PD_BUF_INIT, shown = PD_BUF_INIT;
	pd_buf_vaddf(&msg, fmt, ap);
	/* one line, an argument's control bytes as \xNN, as report_error prints */
	pd_esc_text(&shown, msg.ptr);
	fprintf(stderr, "perfdelta: %s (%s)\n", shown.ptr, hint);
	pd_buf_release(&shown);
	pd_buf_release(&msg);
	return PD_EXIT_USAGE;
}

int pd_usage(const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = pd_usage_v(hint, fmt, ap);
	va_end(ap);
	return rc;
}
