#include "tree.h"
#include "tarball.h"
#include "../core/buf.h"
#include "../core/file.h"
#include "../core/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct pd_tree {
	char *path;             /* as given: the directory or the tarball */
	struct pd_tarball *tar; /* NULL for a directory */
	char *prefix;           /* in a tarball: "" or its single top directory and '/' */
	const struct pd_limits *lim;
	struct pd_buf data; /* a directory's last file read */
	struct pd_buf name; /* the last read's path, for its messages */
	struct pd_buf tmp;  /* pd_tree_path and file system paths */
};

/* "DIR/rel" or "TARBALL:prefix rel" into b. */
static const char *name_into(struct pd_buf *b, const struct pd_tree *t, const char *rel)
{
	pd_buf_truncate(b, 0);
	if (t->tar) {
		pd_buf_addf(b, "%s:%s%s", t->path, t->prefix, rel);
		if (!*rel && b->len && b->ptr[b->len - 1] == '/')
			pd_buf_truncate(b, b->len - 1);
	} else {
		pd_buf_addf(b, *rel ? "%s/%s" : "%s", t->path, rel);
	}
	return b->ptr;
}

const char *pd_tree_path(struct pd_tree *t, const char *rel)
{
	return name_into(&t->tmp, t, rel);
}

/* ---- a directory ---------------------------------------------------------------- */

/* lstat of each component of rel: a link anywhere below the root is refused, so that
 * nothing outside the bundle is reached through one. */
/* A name that is a file (or a FIFO, ...) where the bundle has a directory: an input
 * error, as a FIFO named perfrunner is, rather than a part taken as absent. */
static int not_a_dir(struct pd_err *err, const char *path)
{
	return pd_err_at(err, PD_EIO, path, 0, 0,
			 "not a directory: expected the bundle's directory of that name");
}

static int dir_kind(enum pd_tree_kind *out, struct pd_tree *t, const char *rel,
		    struct pd_err *err)
{
	struct stat st;
	const char *slash = rel;
	*out = PD_TREE_NONE;
	if (!*rel) {
		if (stat(t->path, &st) == 0 && S_ISDIR(st.st_mode))
			*out = PD_TREE_DIR;
		return 0;
	}
	do {
		slash = strchr(slash + (slash != rel), '/');
		size_t n = slash ? (size_t)(slash - rel) : strlen(rel);
		pd_buf_truncate(&t->tmp, 0);
		pd_buf_addf(&t->tmp, "%s/%.*s", t->path, (int)n, rel);
		if (lstat(t->tmp.ptr, &st) < 0)
			return errno == ENOENT || errno == ENOTDIR
				       ? 0
				       : pd_err_at(err, PD_EIO, t->tmp.ptr, 0, 0,
						   "cannot read: %s", strerror(errno));
		if (S_ISLNK(st.st_mode))
			return pd_err_at(err, PD_EIO, t->tmp.ptr, 0, 0,
					 "a symbolic link: only regular files and directories "
					 "inside the bundle are read");
		if (slash && !S_ISDIR(st.st_mode)) /* jenkins a file or FIFO: not absent */
			return not_a_dir(err, t->tmp.ptr);
	} while (slash);
	if (S_ISREG(st.st_mode))
		*out = PD_TREE_FILE;
	else if (S_ISDIR(st.st_mode))
		*out = PD_TREE_DIR;
	else
		return pd_err_at(err, PD_EIO, t->tmp.ptr, 0, 0,
				 "not a regular file (a FIFO, device or socket)");
	return 0;
}

static int dir_list(struct pd_strv *out, struct pd_tree *t, const char *rel, struct pd_err *err)
{
	enum pd_tree_kind kind;
	struct dirent *e;
	const char *path;
	int rc, fd;
	DIR *d;
	if ((rc = dir_kind(&kind, t, rel, err)) < 0)
		return rc;
	path = pd_tree_path(t, rel);
	if (kind != PD_TREE_DIR)
		return pd_err_at(err, PD_EIO, path, 0, 0, "cannot open directory: %s",
				 kind == PD_TREE_NONE ? strerror(ENOENT) : strerror(ENOTDIR));
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (*rel ? O_NOFOLLOW : 0));
	if (fd < 0 || !(d = fdopendir(fd))) {
		rc = pd_err_at(err, PD_EIO, path, 0, 0, "cannot open directory: %s",
			       strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	for (errno = 0; (e = readdir(d)); errno = 0)
		if (e->d_name[0] != '.')
			pd_strv_add(out, e->d_name);
	if (errno)
		rc = pd_err_at(err, PD_EIO, path, 0, 0, "cannot read directory: %s",
			       strerror(errno));
	closedir(d);
	pd_strv_sort_unique(out);
	return rc;
}

static int dir_read(struct pd_src *src, struct pd_tree *t, const char *rel, struct pd_err *err)
{
	enum pd_tree_kind kind;
	int rc, fd;
	if ((rc = dir_kind(&kind, t, rel, err)) < 0)
		return rc;
	name_into(&t->name, t, rel);
	pd_buf_truncate(&t->data, 0);
	if (kind == PD_TREE_DIR)
		return pd_err_at(err, PD_EIO, t->name.ptr, 0, 0,
				 "not a regular file (a directory)");
	if ((rc = pd_file_open(&fd, t->name.ptr, PD_FILE_NOFOLLOW, err)) < 0)
		return rc;
	rc = pd_file_read_fd(&t->data, fd, t->name.ptr, t->lim->max_file_bytes, err);
	close(fd);
	*src = (struct pd_src){t->data.ptr, t->data.len, t->name.ptr, t->lim};
	return rc;
}

/* ---- a tarball in memory ---------------------------------------------------------- */

/* The member name of rel: prefix and rel, without a trailing '/'. */
static const char *member(struct pd_tree *t, const char *rel)
{
	pd_buf_truncate(&t->tmp, 0);
	pd_buf_addf(&t->tmp, "%s%s", t->prefix, rel);
	if (t->tmp.len && t->tmp.ptr[t->tmp.len - 1] == '/')
		pd_buf_truncate(&t->tmp, t->tmp.len - 1);
	return t->tmp.ptr;
}

static enum pd_tree_kind tar_kind(struct pd_tree *t, const char *rel)
{
	const char *m = member(t, rel);
	const struct pd_tar_entry *e = pd_tarball_find(t->tar, m);
	size_t i;
	if (!*m)
		return PD_TREE_DIR;
	if (e)
		return e->dir ? PD_TREE_DIR : PD_TREE_FILE;
	/* a directory tar did not store: a name below it */
	pd_buf_addch(&t->tmp, '/');
	i = pd_tarball_lower_bound(t->tar, t->tmp.ptr);
	return i < t->tar->n && !strncmp(t->tar->v[i].name, t->tmp.ptr, t->tmp.len)
		       ? PD_TREE_DIR
		       : PD_TREE_NONE;
}

static int tar_list(struct pd_strv *out, struct pd_tree *t, const char *rel, struct pd_err *err)
{
	if (tar_kind(t, rel) != PD_TREE_DIR)
		return pd_err_at(err, PD_EIO, pd_tree_path(t, rel), 0, 0,
				 "cannot open directory: not a directory in the tarball");
	member(t, rel);
	if (t->tmp.len)
		pd_buf_addch(&t->tmp, '/');
	for (size_t i = pd_tarball_lower_bound(t->tar, t->tmp.ptr);
	     i < t->tar->n && !strncmp(t->tar->v[i].name, t->tmp.ptr, t->tmp.len); i++) {
		const char *child = t->tar->v[i].name + t->tmp.len;
		if (*child && *child != '.')
			pd_strv_addn(out, child, strcspn(child, "/"));
	}
	pd_strv_sort_unique(out);
	return 0;
}

static int tar_read(struct pd_src *src, struct pd_tree *t, const char *rel, struct pd_err *err)
{
	const struct pd_tar_entry *e = pd_tarball_find(t->tar, member(t, rel));
	name_into(&t->name, t, rel);
	if (!e)
		return pd_err_at(err, PD_EIO, t->name.ptr, 0, 0, "cannot open: %s",
				 strerror(ENOENT));
	if (e->dir)
		return pd_err_at(err, PD_EIO, t->name.ptr, 0, 0,
				 "not a regular file (a directory)");
	*src = (struct pd_src){e->data, e->len, t->name.ptr, t->lim};
	return 0;
}

/* The bundle root inside an archive: the top, or down its single top-level directories
 * while there is no perfdb/ (Jenkins' archive.zip holds archive/, which may hold the run's
 * own directory: archive/failover/perfdb). */
static void tar_root(struct pd_tree *t)
{
	for (int depth = 0; depth < 4 && tar_kind(t, "perfdb") != PD_TREE_DIR; depth++) {
		struct pd_strv top = {0};
		struct pd_err ignore = PD_ERR_INIT;
		int one = tar_list(&top, t, "", &ignore) == 0 && top.n == 1 &&
			  tar_kind(t, top.v[0]) == PD_TREE_DIR;
		if (one) {
			struct pd_buf p = PD_BUF_INIT;
			pd_buf_addf(&p, "%s%s/", t->prefix, top.v[0]);
			free(t->prefix);
			t->prefix = pd_buf_detach(&p);
		}
		pd_strv_free(&top);
		if (!one)
			break;
	}
}

/* ---- the interface ----------------------------------------------------------------- */

static int is_tarball(const char *path)
{
	return pd_str_ends_with(path, ".tar") || pd_str_ends_with(path, ".tar.gz") ||
	       pd_str_ends_with(path, ".tgz") || pd_str_ends_with(path, ".zip");
}

int pd_tree_open(struct pd_tree **out, const char *path, const struct pd_limits *lim,
		 struct pd_err *err)
{
	struct pd_tree *t = pd_xcalloc(1, sizeof(*t));
	struct stat st;
	int rc = 0;
	*t = (struct pd_tree){.path = pd_xstrdup(path),
			      .prefix = pd_xstrdup(""),
			      .lim = lim,
			      .data = PD_BUF_INIT,
			      .name = PD_BUF_INIT,
			      .tmp = PD_BUF_INIT};
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		; /* a directory, even one called x.tar */
	else if (is_tarball(path) && (rc = pd_tarball_read(&t->tar, path, lim, err)) == 0)
		tar_root(t);
	else if (!is_tarball(path))
		rc = pd_err_at(err, PD_EIO, path, 0, 0, "not a directory, tarball or zip");
	if (rc < 0) {
		pd_tree_free(t);
		t = NULL;
	}
	*out = t;
	return rc;
}

void pd_tree_free(struct pd_tree *t)
{
	if (!t)
		return;
	pd_tarball_free(t->tar);
	free(t->path);
	free(t->prefix);
	pd_buf_release(&t->data);
	pd_buf_release(&t->name);
	pd_buf_release(&t->tmp);
	free(t);
}

int pd_tree_kind(enum pd_tree_kind *out, struct pd_tree *t, const char *rel, struct pd_err *err)
{
	if (!t->tar)
		return dir_kind(out, t, rel, err);
	/* every directory above rel: a file member there is refused as in a directory */
	for (const char *slash = strchr(rel, '/'); slash; slash = strchr(slash + 1, '/')) {
		struct pd_buf up = PD_BUF_INIT;
		pd_buf_add(&up, rel, (size_t)(slash - rel));
		int file = tar_kind(t, up.ptr) == PD_TREE_FILE;
		if (file) {
			struct pd_buf where = PD_BUF_INIT;
			pd_buf_addf(&where, "%s:%s", t->path, member(t, up.ptr));
			not_a_dir(err, where.ptr);
			pd_buf_release(&where);
		}
		pd_buf_release(&up);
		if (file)
			return err->code;
	}
	*out = tar_kind(t, rel);
	return 0;
}

int pd_tree_list(struct pd_strv *out, struct pd_tree *t, const char *rel, struct pd_err *err)
{
	return t->tar ? tar_list(out, t, rel, err) : dir_list(out, t, rel, err);
}

int pd_tree_read(struct pd_src *src, struct pd_tree *t, const char *rel, struct pd_err *err)
{
	return t->tar ? tar_read(src, t, rel, err) : dir_read(src, t, rel, err);
}
