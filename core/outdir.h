/* Writing an output directory atomically: every file goes into a private temporary
 * directory beside the destination, which is renamed into place at the end. A failed
 * run leaves an existing report as it was and no half-written one; a signal removes the
 * temporary directory (core/cleanup.h).
 *
 * What perfdelta writes is marked, and only that is ever replaced: a directory holds
 * PD_OUTDIR_MARKER, which lists every file and directory written into it; a single file
 * ends with PD_OUTDIR_FILE_MARK (its writer appends it). */
#ifndef PD_OUTDIR_H
#define PD_OUTDIR_H

#include "err.h"

#include <stddef.h>

/* The marker file of an output directory: PD_OUTDIR_MARK_HEAD, then one relative name a
 * line ("charts/" for a directory); a regular file's name is followed by a tab, its size
 * and its mtime ("<bytes> <s>.<ns>"), so that a listed file edited since (notes appended
 * to index.html) makes the output the user's, not replaceable. */
#define PD_OUTDIR_MARKER    ".perfdelta-files"
#define PD_OUTDIR_MARK_HEAD "perfdelta output: the files below were written by perfdelta\n"
/* The last line of a single-file output (an HTML comment). */
#define PD_OUTDIR_FILE_MARK                                                                    \
	"<!-- written by perfdelta: perfdelta -o may replace this file -->\n"

struct pd_outdir {
	char *final;  /* the destination directory */
	char *tmp;    /* NULL until begun */
	int marked;   /* commit writes the marker (a report); unmarked, never replaced */
	int as_file;  /* final is a single file (messages name it) */
	char **names; /* what was written into tmp, for the marker */
	size_t n_names, cap_names;
};

/* Whether dir may be an output, checked before any work: PD_EIO when dir exists and is
 * not what is asked, is the working directory or holds it, or holds anything but an
 * earlier output (as pd_outdir_begin says); 0 when dir does not exist or may be replaced. */
int pd_outdir_check(const char *dir, int as_file, struct pd_err *err);

/* 1 when dir (made or not yet) is the input path or lies under it: an output inside an
 * input bundle would be read as part of it the next time. */
int pd_outdir_inside(const char *dir, const char *input);

/* Creates the temporary directory beside dir (whose parent must exist). PD_EIO when it
 * cannot, when dir exists and is not what is asked (a directory, or with as_file a
 * regular file), or when it exists and is not empty nor exactly an earlier output: a
 * directory holding its marker and nothing the marker does not list (every entry a
 * regular file or a directory), or with as_file a file that ends with
 * PD_OUTDIR_FILE_MARK. The message says what is in the way. */
int pd_outdir_begin(struct pd_outdir *o, const char *dir, int as_file, struct pd_err *err);
/* (begin also removes the temporary directories beside dir left by perfdelta runs that
 * died by SIGKILL: each holds a file naming its owner's pid, removed once that pid is
 * gone; a directory without it is never touched. Errors in writing name the path the
 * output will have, never the temporary one.) */

/* Creates sub (one level, e.g. "charts") inside the temporary directory. */
int pd_outdir_mkdir(struct pd_outdir *o, const char *sub, struct pd_err *err);

/* Writes data to name (relative, no "..") inside the temporary directory; never follows
 * a symlink, never overwrites. A short write (disk full) is PD_EIO naming the file. */
int pd_outdir_write(struct pd_outdir *o, const char *name, const char *data, size_t len,
		    struct pd_err *err);

/* Records name (a file, or "sub/" for a directory) as written into the temporary
 * directory by another program (gnuplot), so that the marker lists it. */
void pd_outdir_claim(struct pd_outdir *o, const char *name);

/* Removes name (a file or a directory tree) from the temporary directory. */
void pd_outdir_remove(struct pd_outdir *o, const char *name);

/* The temporary path of name (valid until commit or abort), for a program that writes
 * there itself (gnuplot). Caller frees. */
char *pd_outdir_path(const struct pd_outdir *o, const char *name);

/* Writes the marker (when o->marked), then moves the temporary directory into place, replacing
 * an old one (with SIGINT and SIGTERM held); frees o. The old one is checked again as begin
 * checked it, once moved aside: a file added or edited meanwhile is PD_EIO naming it, and
 * the old output stays. On failure the old output is put back and the temporary directory
 * removed. */
int pd_outdir_commit(struct pd_outdir *o, struct pd_err *err);

/* Moves only the file name of the temporary directory into place as o->final (a file),
 * then removes the rest; frees o. An o->final that no longer ends with
 * PD_OUTDIR_FILE_MARK (edited meanwhile) is PD_EIO and stays. */
int pd_outdir_commit_file(struct pd_outdir *o, const char *name, struct pd_err *err);

/* Removes the owner file from the temporary directory, for a caller that moves it into
 * place itself (or leaves it for the user): no later run sweeps it then. */
void pd_outdir_disown(struct pd_outdir *o);

/* Frees o and forgets its temporary directory without touching the disk (a caller
 * that moved it itself, or keeps it): a signal no longer removes it. */
void pd_outdir_release(struct pd_outdir *o);

/* Removes the temporary directory and frees o; a no-op when not begun. */
void pd_outdir_abort(struct pd_outdir *o);

#endif
