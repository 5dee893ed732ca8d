/* One error slot per call chain: the first failure writes it, callers pass it up. */
#ifndef PD_ERR_H
#define PD_ERR_H

#include "buf.h"

enum {
	PD_OK = 0,
	PD_EIO = -1,    /* a file could not be read or written */
	PD_EPARSE = -2, /* input bytes are not what the format allows */
	PD_EINVAL = -3, /* a caller or a flag asked for something invalid */
	PD_ELIMIT = -4, /* input exceeds a stated limit */
	PD_ENOTFOUND = -5,
	PD_ECOMPARE = -6 /* the runs cannot be compared */
};

/* Room for any path the kernel takes (PATH_MAX) and a message quoting one. A longer
 * one (a URL of 70 000 bytes) loses its middle, never silently: its start, PD_ERR_CUT,
 * then its end, so that a path keeps its file's name and a message what it says of the
 * string it quotes. */
#define PD_ERR_PATH_MAX 4096
#define PD_ERR_MSG_MAX  (PD_ERR_PATH_MAX + 1024)
#define PD_ERR_CUT      "[...]"

struct pd_err {
	int code;                   /* 0 while unset, else one of PD_E* */
	char msg[PD_ERR_MSG_MAX];   /* one line, lowercase, no full stop */
	char path[PD_ERR_PATH_MAX]; /* input file, if any */
	long line, col;             /* 1-based; 0 when unknown */
};

#define PD_ERR_INIT                                                                            \
	{                                                                                      \
		0, "", "", 0, 0                                                                \
	}

/* Records the message unless an error is already set; returns code. */
int pd_err_set(struct pd_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Same, with the file and the place (line and column, 0 when unknown). */
int pd_err_at(struct pd_err *err, int code, const char *path, long line, long col,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Fills path where the error has none yet (a reader that knows only bytes). */
void pd_err_set_path(struct pd_err *err, const char *path);

/* Appends "path:line:col: msg" to out, the bytes as they are (the caller escapes them
 * for where they go). */
void pd_err_format(struct pd_buf *out, const struct pd_err *err);

#endif
