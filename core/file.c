#include "file.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

void pd_rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int pd_file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int read_all(struct pd_buf *out, int fd, const char *path, size_t limit,
		    struct pd_err *err)
{
	size_t start = out->len;
	for (;;) {
		pd_buf_grow(out, 1 << 16);
		size_t room = out->alloc - out->len - 1;
		ssize_t n = read(fd, out->ptr + out->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pd_err_at(err, PD_EIO, path, 0, 0, "cannot read: %s",
					 strerror(errno));
		if (n == 0)
			break;
		out->len += (size_t)n;
		out->ptr[out->len] = '\0';
		if (out->len - start > limit)
			return pd_err_at(
				err, PD_ELIMIT, path, 0, 0,
				"file larger than the limit of %zu bytes (see --max-file-size)",
				limit);
	}
	return 0;
}

int pd_file_open(int *fd, const char *path, int flags, struct pd_err *err)
{
	struct stat st;
	int oflags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	if (flags & PD_FILE_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	*fd = open(path, oflags);
	if (*fd < 0 && errno == ELOOP && (flags & PD_FILE_NOFOLLOW))
		return pd_err_at(
			err, PD_EIO, path, 0, 0,
			"a symbolic link: only regular files inside the bundle are read");
	if (*fd < 0)
		return pd_err_at(err, PD_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
	if (fstat(*fd, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	close(*fd);
	*fd = -1;
	return pd_err_at(err, PD_EIO, path, 0, 0,
			 "not a regular file (a directory, FIFO, device or socket)");
}

int pd_file_read_fd(struct pd_buf *out, int fd, const char *path, size_t limit,
		    struct pd_err *err)
{
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if ((size_t)st.st_size > limit)
			return pd_err_at(
				err, PD_ELIMIT, path, 0, 0,
				"file of %lld bytes is larger than the limit of %zu bytes "
				"(see --max-file-size)",
				(long long)st.st_size, limit);
		pd_buf_grow(out, (size_t)st.st_size + 1);
	}
	return read_all(out, fd, path, limit, err);
}

int pd_file_read(struct pd_buf *out, const char *path, size_t limit, struct pd_err *err)
{
	int fd, rc = pd_file_open(&fd, path, 0, err);
	if (rc < 0)
		return rc;
	rc = pd_file_read_fd(out, fd, path, limit, err);
	close(fd);
	return rc;
}

char *pd_exe_dir(void)
{
	for (size_t cap = 256;; cap *= 2) {
		char *p = pd_xmalloc(cap);
		ssize_t n = readlink("/proc/self/exe", p, cap);
		int e = errno;
		if (n >= 0 && (size_t)n < cap) {
			p[n] = '\0';
			char *slash = strrchr(p, '/');
			if (slash)
				*(slash == p ? slash + 1 : slash) = '\0';
			return p;
		}
		free(p);
		if (n < 0) {
			errno = e;
			return NULL;
		}
	}
}

int pd_file_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		p += n, len -= (size_t)n;
	}
	return 0;
}
