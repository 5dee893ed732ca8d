/* Whole-file reads with a stated size limit. */
#ifndef PD_FILE_H
#define PD_FILE_H

#include "buf.h"
#include "err.h"

#include <stddef.h>

/* Reads path into out (appended). A file over limit bytes is PD_ELIMIT, unreadable is
 * PD_EIO; the error names path. */
int pd_file_read(struct pd_buf *out, const char *path, size_t limit, struct pd_err *err);

/* Removes path and everything below it, never following a symlink; best effort. */
void pd_rm_tree(const char *path);

/* 1 if path exists and is a regular file, else 0. */
int pd_file_exists(const char *path);

/* The directory of the running executable, from /proc/self/exe (argv[0] may be a bare
 * name found on PATH); the caller frees it. NULL with errno set when it cannot be read. */
char *pd_exe_dir(void);

/* Writes all len bytes of data to fd, again after EINTR and a short write; 0, or -errno
 * (a write of 0 bytes counts as -ENOSPC). */
int pd_file_write_all(int fd, const void *data, size_t len);

#endif
