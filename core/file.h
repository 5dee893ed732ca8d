/* Whole-file reads with a stated size limit. */
#ifndef PD_FILE_H
#define PD_FILE_H

#include "buf.h"
#include "err.h"

#include <stddef.h>

/* Only regular files are opened: a FIFO would block a reader forever, a device never ends
 * (docs/reference.md "Limits"). pd_file_open opens path with O_NONBLOCK (a FIFO's open does not
 * wait for a writer), checks with fstat that it is a regular file, and stores the descriptor
 * (the caller closes it) in *fd. With PD_FILE_NOFOLLOW a symbolic link is refused too. Errors
 * (PD_EIO) name path: "not a regular file", "a symbolic link", or the system's reason. */
enum { PD_FILE_NOFOLLOW = 1 };
int pd_file_open(int *fd, const char *path, int flags, struct pd_err *err);

/* Reads the rest of the open file fd into out (appended); the messages name path. Over
 * limit bytes is PD_ELIMIT (see --max-file-size), a read error PD_EIO. */
int pd_file_read_fd(struct pd_buf *out, int fd, const char *path, size_t limit,
		    struct pd_err *err);

/* pd_file_open (following symbolic links) and pd_file_read_fd, then close. */
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
