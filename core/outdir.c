#include "outdir.h"
#include "buf.h"
#include "file.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "<dir>.<what>-XXXXXX" beside dir, without a trailing slash on dir. */
static char *sibling(const char *dir, const char *what)
{
	struct pd_buf b = PD_BUF_INIT;
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	pd_buf_add(&b, dir, n);
	pd_buf_addf(&b, ".%s-XXXXXX", what);
	return pd_buf_detach(&b);
}

/* Whether the file at path starts like a report of ours (its first 1 kB names us). */
static int ours(const char *path)
{
	char head[1024];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof(head) - 1, f) : 0;
	if (f)
		fclose(f);
	head[n] = '\0';
	return strstr(head, "perfdelta") != NULL;
}

/* An existing output is replaced only when it is an earlier report (or an empty
 * directory): -o $HOME by mistake must not move a home directory aside. */
static int replaceable(const char *dir, int as_file)
{
	if (as_file)
		return ours(dir);
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	if (empty)
		return 1;
	struct pd_buf index = PD_BUF_INIT;
	pd_buf_addf(&index, "%s/index.html", dir);
	int r = ours(index.ptr);
	pd_buf_release(&index);
	return r;
}

int pd_outdir_begin(struct pd_outdir *o, const char *dir, int as_file, struct pd_err *err)
{
	struct stat st;
	o->final = pd_xstrdup(dir);
	o->tmp = NULL;
	if (lstat(dir, &st) == 0 && (as_file ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode))) {
		pd_err_at(err, PD_EIO, dir, 0, 0, "output exists and is not a %s",
			  as_file ? "regular file" : "directory");
		goto fail;
	}
	if (lstat(dir, &st) == 0 && !replaceable(dir, as_file)) {
		pd_err_at(err, PD_EIO, dir, 0, 0,
			  "refusing to replace it: it exists and is not a perfdelta report "
			  "(choose a new output or remove it)");
		goto fail;
	}
	o->tmp = sibling(dir, "tmp");
	if (!mkdtemp(o->tmp)) {
		pd_err_at(err, PD_EIO, dir, 0, 0, "cannot create the output beside it: %s",
			  strerror(errno));
		goto fail;
	}
	chmod(o->tmp, 0755); /* mkdtemp makes 0700; a report is for others to read */
	return 0;
fail:
	free(o->tmp);
	free(o->final);
	o->tmp = o->final = NULL;
	return err->code;
}

char *pd_outdir_path(const struct pd_outdir *o, const char *name)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, "%s/%s", o->tmp, name);
	return pd_buf_detach(&b);
}

void pd_outdir_remove(struct pd_outdir *o, const char *name)
{
	char *p = pd_outdir_path(o, name);
	pd_rm_tree(p);
	free(p);
}

int pd_outdir_mkdir(struct pd_outdir *o, const char *sub, struct pd_err *err)
{
	char *p = pd_outdir_path(o, sub);
	int rc = 0;
	if (mkdir(p, 0755) < 0)
		rc = pd_err_at(err, PD_EIO, p, 0, 0, "cannot create directory: %s",
			       strerror(errno));
	free(p);
	return rc;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int pd_outdir_write(struct pd_outdir *o, const char *name, const char *data, size_t len,
		    struct pd_err *err)
{
	char *p = pd_outdir_path(o, name);
	int rc = 0, fd;
	if (strstr(name, "..") || name[0] == '/') {
		rc = pd_err_set(err, PD_EINVAL, "refusing output name '%s'", name);
		goto done;
	}
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = pd_err_at(err, PD_EIO, p, 0, 0, "cannot create: %s", strerror(errno));
		goto done;
	}
	if (write_all(fd, data, len) < 0 || close(fd) < 0) {
		rc = pd_err_at(err, PD_EIO, p, 0, 0, "cannot write: %s",
			       strerror(errno ? errno : ENOSPC));
		if (fd >= 0)
			close(fd);
	}
done:
	free(p);
	return rc;
}

int pd_outdir_commit(struct pd_outdir *o, struct pd_err *err)
{
	struct stat st;
	char *old = NULL;
	int rc = 0;
	if (lstat(o->final, &st) == 0) {
		old = sibling(o->final, "old");
		if (!mkdtemp(old) || rmdir(old) < 0 || rename(o->final, old) < 0) {
			rc = pd_err_at(err, PD_EIO, o->final, 0, 0, "cannot replace: %s",
				       strerror(errno));
			free(old);
			pd_outdir_abort(o);
			return rc;
		}
	}
	if (rename(o->tmp, o->final) < 0) {
		rc = pd_err_at(err, PD_EIO, o->final, 0, 0,
			       "cannot move the output into place: %s", strerror(errno));
		if (old)
			rename(old, o->final); /* put the old report back */
		pd_rm_tree(o->tmp);
	} else if (old) {
		pd_rm_tree(old);
	}
	free(old);
	free(o->tmp);
	free(o->final);
	o->tmp = o->final = NULL;
	return rc;
}

int pd_outdir_commit_file(struct pd_outdir *o, const char *name, struct pd_err *err)
{
	char *p = pd_outdir_path(o, name);
	int rc = 0;
	if (rename(p, o->final) < 0)
		rc = pd_err_at(err, PD_EIO, o->final, 0, 0,
			       "cannot move the output into place: %s", strerror(errno));
	free(p);
	pd_outdir_abort(o);
	return rc;
}

void pd_outdir_abort(struct pd_outdir *o)
{
	if (o->tmp)
		pd_rm_tree(o->tmp);
	free(o->tmp);
	free(o->final);
	o->tmp = o->final = NULL;
}
