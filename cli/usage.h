/* The usage-error line of every binary (perfdelta, perfdelta-pull, perfdelta-history). */
#ifndef PD_CLI_USAGE_H
#define PD_CLI_USAGE_H

#include <stdarg.h>

/* Prints "perfdelta: MSG (HINT)" on stderr, MSG's control bytes as \xNN (one line, as
 * errors print); returns PD_EXIT_USAGE. */
int pd_usage(const char *hint, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pd_usage_v(const char *hint, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
