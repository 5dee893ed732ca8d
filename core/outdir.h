/* Writing an output directory atomically: every file goes into a private temporary
 * directory beside the destination, which is renamed into place at the end. A failed
 * run leaves an existing report as it was and no half-written one. */
#ifndef PD_OUTDIR_H
#define PD_OUTDIR_H

#include "err.h"

#include <stddef.h>

struct pd_outdir {
	char *final; /* the destination directory */
	char *tmp;   /* NULL until begun */
};

/* Creates the temporary directory beside dir (whose parent must exist). PD_EIO when it
 * cannot, when dir exists and is not what is asked (a directory, or with as_file a
 * regular file), or when it exists and is neither empty nor an earlier report (its
 * index.html, or the file itself, names perfdelta in its first kB). */
int pd_outdir_begin(struct pd_outdir *o, const char *dir, int as_file, struct pd_err *err);

/* Creates sub (one level, e.g. "charts") inside the temporary directory. */
int pd_outdir_mkdir(struct pd_outdir *o, const char *sub, struct pd_err *err);

/* Writes data to name (relative, no "..") inside the temporary directory; never follows
 * a symlink, never overwrites. A short write (disk full) is PD_EIO naming the file. */
int pd_outdir_write(struct pd_outdir *o, const char *name, const char *data, size_t len,
		    struct pd_err *err);

/* Removes name (a file or a directory tree) from the temporary directory. */
void pd_outdir_remove(struct pd_outdir *o, const char *name);

/* The temporary path of name (valid until commit or abort), for a program that writes
 * there itself (gnuplot). Caller frees. */
char *pd_outdir_path(const struct pd_outdir *o, const char *name);

/* Moves the temporary directory into place, replacing an old one; frees o. */
int pd_outdir_commit(struct pd_outdir *o, struct pd_err *err);

/* Moves only the file name of the temporary directory into place as o->final (a file),
 * then removes the rest; frees o. */
int pd_outdir_commit_file(struct pd_outdir *o, const char *name, struct pd_err *err);

/* Removes the temporary directory and frees o; a no-op when not begun. */
void pd_outdir_abort(struct pd_outdir *o);

#endif
