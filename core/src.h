/* An input handed to a reader: its bytes, its name for messages, and the limits. */
#ifndef PD_SRC_H
#define PD_SRC_H

#include "err.h"

#include <stddef.h>

/* Explicit limits on untrusted input; each has a flag to raise it (see --help). */
struct pd_limits {
	size_t max_file_bytes;   /* one input file */
	size_t max_samples;      /* one series */
	size_t max_series;       /* one run */
	size_t max_line;         /* one console or INI line */
	unsigned max_depth;      /* JSON/XML nesting */
	size_t max_bundle_bytes; /* a tarball's members, uncompressed, all together */
};

#define PD_LIMITS_DEFAULT                                                                      \
	{                                                                                      \
		.max_file_bytes = (size_t)1 << 30, .max_samples = (size_t)50 * 1000 * 1000,    \
		.max_series = 100000, .max_line = (size_t)1 << 20, .max_depth = 64,            \
		.max_bundle_bytes = (size_t)4 << 30                                            \
	}

extern const struct pd_limits pd_limits_default;

struct pd_src {
	const char *data; /* NUL-terminated at data[len] */
	size_t len;
	const char *path; /* for messages */
	const struct pd_limits *lim;
};

/* Sets err at byte offset off of src, as path:line:col (1-based). Returns code. */
int pd_src_error(struct pd_err *err, int code, const struct pd_src *src, size_t off,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Line and column (1-based) of byte offset off. */
void pd_src_position(const struct pd_src *src, size_t off, long *line, long *col);

#endif
