/* One error slot per call chain: the first failure writes it, callers pass it up. */
#ifndef PD_ERR_H
#define PD_ERR_H

enum {
	PD_OK = 0,
	PD_EIO = -1,    /* a file could not be read or written */
	PD_EPARSE = -2, /* input bytes are not what the format allows */
	PD_EINVAL = -3, /* a caller or a flag asked for something invalid */
	PD_ELIMIT = -4, /* input exceeds a stated limit */
	PD_ENOTFOUND = -5,
	PD_ECOMPARE = -6 /* the runs cannot be compared */
};

struct pd_err {
	int code;       /* 0 while unset, else one of PD_E* */
	char msg[256];  /* one line, lowercase, no full stop */
	char path[256]; /* input file, if any */
	long line, col; /* 1-based; 0 when unknown */
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

/* Writes "path:line:col: msg" into out (size n). */
void pd_err_format(const struct pd_err *err, char *out, unsigned long n);

#endif
