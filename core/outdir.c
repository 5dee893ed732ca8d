#define _GNU_SOURCE /* memrchr */
#include "outdir.h"
#include "buf.h"
#include "cleanup.h"
#include "clock.h"
#include "file.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int write_file(struct pd_outdir *o, const char *name, const char *data, size_t len,
		      struct pd_err *err);

/* How many bytes of a base name of n bytes start its "<base>.<what>-XXXXXX" siblings: all
 * of it, or as many as NAME_MAX leaves (a legal 250-byte name has siblings too). */
static size_t stem_len(size_t n, const char *what)
{
	size_t room = NAME_MAX - 1 - strlen(what) - 7;
	return n < room ? n : room;
}

/* "<dir>.<what>-XXXXXX" beside dir, without a trailing slash on dir; the base name cut to
 * fit NAME_MAX. */
static char *sibling(const char *dir, const char *what)
{
	struct pd_buf b = PD_BUF_INIT;
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	const char *slash = memrchr(dir, '/', n);
	size_t base = slash ? (size_t)(slash + 1 - dir) : 0;
	pd_buf_add(&b, dir, base + stem_len(n - base, what));
	pd_buf_addf(&b, ".%s-XXXXXX", what);
	return pd_buf_detach(&b);
}

/* The name a message gives name by: where the user will find it (a disk-full error
 * naming "rep.tmp-RKySMa/summary.json" names a path that no longer exists). */
static const char *shown(struct pd_buf *b, const struct pd_outdir *o, const char *name)
{
	pd_buf_truncate(b, 0);
	if (o->as_file)
		pd_buf_adds(b, o->final);
	else
		pd_buf_addf(b, "%s/%s", o->final, name);
	return b->ptr;
}

/* Whether the file at path is one perfdelta wrote: it ends with PD_OUTDIR_FILE_MARK. */
static int file_is_ours(const char *path)
{
	size_t n = strlen(PD_OUTDIR_FILE_MARK);
	char tail[256];
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), r = 0;
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size >= n &&
	    pread(fd, tail, n, st.st_size - (off_t)n) == (ssize_t)n)
		r = memcmp(tail, PD_OUTDIR_FILE_MARK, n) == 0;
	close(fd);
	return r;
}

/* A marker line is a name, then for a regular file a tab and its size and mtime. */
static int cmp_name(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t nx = strcspn(x, "\t"), ny = strcspn(y, "\t");
	int c = memcmp(x, y, nx < ny ? nx : ny);
	return c ? c : (nx > ny) - (nx < ny);
}

/* "\t<size> <mtime s>.<mtime ns>": what a marker records of a regular file it lists. */
static void add_stamp(struct pd_buf *b, const struct stat *st)
{
	pd_buf_addf(b, "\t%lld %lld.%09ld", (long long)st->st_size,
		    (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
}

/* Whether the file st describes is as the marker line recorded it (a line without a
 * stamp, of an older perfdelta, records nothing to differ). */
static int unchanged(const char *line, const struct stat *st)
{
	const char *tab = strchr(line, '\t');
	struct pd_buf now = PD_BUF_INIT;
	if (!tab)
		return 1;
	add_stamp(&now, st);
	int r = !strcmp(tab, now.ptr);
	pd_buf_release(&now);
	return r;
}

/* The names a marker lists (one per line after its first), sorted, into *out. */
static size_t listed(char ***out, char *text)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	char *save = NULL, *line = strtok_r(text, "\n", &save); /* the heading */
	while (line && (line = strtok_r(NULL, "\n", &save))) {
		PD_GROW(names, cap, n + 1);
		names[n++] = line;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	*out = names;
	return n;
}

struct walk {
	char **names; /* what the marker lists, sorted */
	size_t n;
	struct pd_buf why; /* the first thing found that perfdelta did not write */
	int changed;       /* why names a listed file changed since */
};

/* Whether rel is listed and, a regular file, as perfdelta left it. */
static int is_listed(struct walk *w, const char *rel, const struct stat *st)
{
	char **line = w->n ? bsearch(&rel, w->names, w->n, sizeof(*w->names), cmp_name) : NULL;
	if (line && S_ISREG(st->st_mode) && !unchanged(*line, st)) {
		w->changed = 1;
		return 0;
	}
	return line != NULL;
}

/* Whether everything below dir (rel its path inside the output, "" at the top) is
 * listed, each a regular file or a directory. */
static int only_listed(struct walk *w, const char *dir, const char *rel, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ok = d != NULL;
	while (ok && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (!*rel && !strcmp(e->d_name, PD_OUTDIR_MARKER)))
			continue;
		struct pd_buf name = PD_BUF_INIT, path = PD_BUF_INIT;
		struct stat st;
		pd_buf_addf(&name, "%s%s", rel, e->d_name);
		pd_buf_addf(&path, "%s/%s", dir, e->d_name);
		int got = fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0;
		int isdir = got && S_ISDIR(st.st_mode);
		if (isdir)
			pd_buf_addch(&name, '/');
		ok = got && (isdir || S_ISREG(st.st_mode)) && is_listed(w, name.ptr, &st) &&
		     (!isdir || (depth < 8 && only_listed(w, path.ptr, name.ptr, depth + 1)));
		if (!ok && !w->why.len)
			pd_buf_adds(&w->why, name.ptr);
		pd_buf_release(&name);
		pd_buf_release(&path);
	}
	if (d)
		closedir(d);
	return ok;
}

/* Whether dir holds exactly an earlier output of ours: its marker, and nothing the
 * marker does not list (a listed file may be missing). Else why names what is in the
 * way. */
static int dir_is_ours(const char *dir, struct pd_buf *why)
{
	struct pd_buf marker = PD_BUF_INIT, text = PD_BUF_INIT;
	struct pd_err ignored = PD_ERR_INIT;
	struct walk w = {.why = PD_BUF_INIT};
	pd_buf_addf(&marker, "%s/" PD_OUTDIR_MARKER, dir);
	int ok = pd_file_read(&text, marker.ptr, (size_t)64 << 20, &ignored) == 0 &&
		 !strncmp(text.ptr, PD_OUTDIR_MARK_HEAD, strlen(PD_OUTDIR_MARK_HEAD));
	if (ok) {
		w.n = listed(&w.names, text.ptr);
		ok = only_listed(&w, dir, "", 0);
		if (w.why.len && w.changed)
			pd_buf_addf(why, "'%s' changed since perfdelta wrote it", w.why.ptr);
		else if (w.why.len)
			pd_buf_addf(why, "it holds '%s', which perfdelta did not write",
				    w.why.ptr);
		else
			pd_buf_adds(why, "it cannot be read");
	} else {
		pd_buf_adds(why,
			    "it is not empty and not a perfdelta output (no " PD_OUTDIR_MARKER
			    " in it)");
	}
	free(w.names);
	pd_buf_release(&w.why);
	pd_buf_release(&text);
	pd_buf_release(&marker);
	return ok;
}

/* An existing output is replaced only when it is an earlier one of ours, exactly (or an
 * empty directory): -o $HOME by mistake, or a page of one's own, must never be lost. */
static int replaceable(const char *dir, int as_file, struct pd_buf *why)
{
	if (as_file) {
		int r = file_is_ours(dir);
		if (!r)
			pd_buf_adds(why, "it is not a page perfdelta wrote");
		return r;
	}
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = d != NULL;
	while (d && empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	return empty || dir_is_ours(dir, why);
}

/* The temporary directory's owner, a file inside it: a run killed by SIGKILL cannot
 * remove its directory, and a later run on the same output removes it once the pid it
 * names is gone (never a directory without this file, which may be anyone's). */
#define OWNER      ".perfdelta-owner"
#define OWNER_TEXT "perfdelta temporary output of pid %ld\n"

/* The pid in the owner file of the directory open as dfd, or 0 when it has none. */
static long owner_of(int dfd)
{
	char text[128];
	long pid = 0;
	int n = 0, fd = openat(dfd, OWNER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	ssize_t len = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return 0;
	text[len] = '\0';
	if (sscanf(text, "perfdelta temporary output of pid %ld\n%n", &pid, &n) != 1 ||
	    (size_t)n != (size_t)len || pid <= 0)
		return 0;
	return pid;
}

/* Whether name is "<base>.tmp-XXXXXX", as sibling makes them. */
static int is_temp_of(const char *name, const char *base, size_t n)
{
	return !strncmp(name, base, n) && !strncmp(name + n, ".tmp-", 5) &&
	       strlen(name + n + 5) == 6 && !strchr(name + n + 5, '/');
}

/* The directory that holds dir: *b gets dir without a trailing slash and its last name
 * (empty for a name alone); the path to open is returned ("/" or "." where b is empty). */
static const char *parent_of(struct pd_buf *b, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	const char *slash = memrchr(dir, '/', n);
	pd_buf_truncate(b, 0);
	pd_buf_add(b, dir, slash ? (size_t)(slash - dir) : 0);
	return slash == dir ? "/" : b->len ? b->ptr : ".";
}

/* Removes the temporary directories beside dir that perfdelta runs now dead left. */
static void sweep(const char *dir)
{
	struct pd_buf parent = PD_BUF_INIT;
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	const char *slash = memrchr(dir, '/', n), *base = slash ? slash + 1 : dir;
	DIR *d = opendir(parent_of(&parent, dir));
	struct dirent *e;
	while (d && (e = readdir(d))) {
		int sub = is_temp_of(e->d_name, base, stem_len(n - (size_t)(base - dir), "tmp"))
				  ? openat(dirfd(d), e->d_name,
					   O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
				  : -1;
		long pid = sub >= 0 ? owner_of(sub) : 0;
		if (sub >= 0)
			close(sub);
		if (pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			struct pd_buf path = PD_BUF_INIT;
			pd_buf_addf(&path, "%s/%s", parent.len ? parent.ptr : ".", e->d_name);
			pd_rm_tree(path.ptr);
			pd_buf_release(&path);
		}
	}
	if (d)
		closedir(d);
	pd_buf_release(&parent);
}

/* Marks the temporary directory with its owner, this process. */
static int mark_owner(struct pd_outdir *o, struct pd_err *err)
{
	char text[64];
	int n = snprintf(text, sizeof(text), OWNER_TEXT, (long)getpid());
	return write_file(o, OWNER, text, (size_t)n, err);
}

void pd_outdir_disown(struct pd_outdir *o)
{
	char *owner = pd_outdir_path(o, OWNER);
	unlink(owner);
	free(owner);
}

/* Whether the absolute path inner is outer or lies under it. */
static int under(const char *outer, const char *inner)
{
	size_t n = strlen(outer);
	return !strncmp(inner, outer, n) && (inner[n] == '\0' || inner[n] == '/' || n == 1);
}

/* dir is the working directory or holds it: a rename cannot move "." (EBUSY), and moving
 * "$PWD" away would leave the shell in a deleted directory. */
static int holds_cwd(const char *dir)
{
	char *real = realpath(dir, NULL), *cwd = getcwd(NULL, 0);
	int holds = real && cwd && under(real, cwd);
	free(real);
	free(cwd);
	return holds;
}

/* The absolute path dir has, or will have once made: its nearest existing ancestor's
 * real path and the rest of dir; NULL when none resolves. */
static char *resolved(const char *dir)
{
	struct pd_buf head = PD_BUF_INIT;
	pd_buf_adds(&head, dir);
	char *real = NULL;
	size_t cut = head.len;
	while (!(real = realpath(cut ? head.ptr : ".", NULL)) && errno == ENOENT && cut) {
		while (cut && head.ptr[cut - 1] != '/')
			cut--; /* drop the last component */
		while (cut > 1 && head.ptr[cut - 1] == '/')
			cut--;
		pd_buf_truncate(&head, cut);
	}
	if (real && dir[cut]) {
		struct pd_buf out = PD_BUF_INIT;
		pd_buf_addf(&out, "%s/%s", real, dir + cut + (dir[cut] == '/'));
		free(real);
		real = pd_buf_detach(&out);
	}
	pd_buf_release(&head);
	return real;
}

int pd_outdir_inside(const char *dir, const char *input)
{
	char *out = resolved(dir), *in = realpath(input, NULL);
	int inside = out && in && under(in, out);
	free(out);
	free(in);
	return inside;
}

int pd_outdir_check(const char *dir, int as_file, struct pd_err *err)
{
	struct stat st;
	struct pd_buf why = PD_BUF_INIT;
	int rc = 0;
	if (lstat(dir, &st) < 0)
		return 0;
	if (as_file ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode))
		rc = pd_err_at(err, PD_EIO, dir, 0, 0, "output exists and is not a %s",
			       as_file ? "regular file" : "directory");
	else if (!as_file && holds_cwd(dir))
		rc = pd_err_at(err, PD_EIO, dir, 0, 0,
			       "refusing to replace the working directory or one that holds "
			       "it (the report replaces its output as a whole): choose a new "
			       "output");
	else if (!replaceable(dir, as_file, &why))
		rc = pd_err_at(err, PD_EIO, dir, 0, 0,
			       "refusing to replace it: %s (choose a new output or remove it)",
			       why.ptr);
	pd_buf_release(&why);
	return rc;
}

int pd_outdir_begin(struct pd_outdir *o, const char *dir, int as_file, struct pd_err *err)
{
	*o = (struct pd_outdir){.final = pd_xstrdup(dir), .as_file = as_file};
	if (pd_outdir_check(dir, as_file, err) < 0)
		goto fail;
	sweep(dir);
	o->tmp = sibling(dir, "tmp");
	pd_cleanup_hold(); /* registered as soon as it exists */
	if (mkdtemp(o->tmp))
		pd_cleanup_add_tree(o->tmp);
	else
		pd_err_at(err, PD_EIO, dir, 0, 0, "cannot create the output beside it: %s",
			  strerror(errno));
	pd_cleanup_release();
	if (err && err->code)
		goto fail;
	chmod(o->tmp, 0755); /* mkdtemp makes 0700; a report is for others to read */
	if (mark_owner(o, err) < 0) {
		pd_outdir_abort(o);
		return err->code;
	}
	return 0;
fail:
	free(o->tmp);
	free(o->final);
	*o = (struct pd_outdir){0};
	return err->code;
}

char *pd_outdir_path(const struct pd_outdir *o, const char *name)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, "%s/%s", o->tmp, name);
	return pd_buf_detach(&b);
}

void pd_outdir_claim(struct pd_outdir *o, const char *name)
{
	PD_GROW(o->names, o->cap_names, o->n_names + 1);
	o->names[o->n_names++] = pd_xstrdup(name);
}

void pd_outdir_remove(struct pd_outdir *o, const char *name)
{
	char *p = pd_outdir_path(o, name);
	size_t len = strlen(name), k = 0;
	pd_rm_tree(p);
	free(p);
	for (size_t i = 0; i < o->n_names; i++) { /* name, and all below name/ */
		const char *n = o->names[i];
		if (!strncmp(n, name, len) && (!n[len] || n[len] == '/'))
			free(o->names[i]);
		else
			o->names[k++] = o->names[i];
	}
	o->n_names = k;
}

int pd_outdir_mkdir(struct pd_outdir *o, const char *sub, struct pd_err *err)
{
	char *p = pd_outdir_path(o, sub);
	int rc = 0;
	if (mkdir(p, 0755) < 0) {
		struct pd_buf b = PD_BUF_INIT;
		rc = pd_err_at(err, PD_EIO, shown(&b, o, sub), 0, 0,
			       "cannot create directory: %s", strerror(errno));
		pd_buf_release(&b);
	} else {
		struct pd_buf dir = PD_BUF_INIT;
		pd_buf_addf(&dir, "%s/", sub);
		pd_outdir_claim(o, dir.ptr);
		pd_buf_release(&dir);
	}
	free(p);
	return rc;
}

/* Writes name without recording it (the marker itself). */
static int write_file(struct pd_outdir *o, const char *name, const char *data, size_t len,
		      struct pd_err *err)
{
	char *p = pd_outdir_path(o, name);
	struct pd_buf b = PD_BUF_INIT;
	int rc = 0, fd, w;
	if (strstr(name, "..") || name[0] == '/') {
		rc = pd_err_set(err, PD_EINVAL, "refusing output name '%s'", name);
		goto done;
	}
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = pd_err_at(err, PD_EIO, shown(&b, o, name), 0, 0, "cannot create: %s",
			       strerror(errno));
		goto done;
	}
	if ((w = pd_file_write_all(fd, data, len)) < 0 || close(fd) < 0)
		rc = pd_err_at(err, PD_EIO, shown(&b, o, name), 0, 0, "cannot write: %s",
			       strerror(w < 0 ? -w : errno));
	if (w < 0)
		close(fd);
done:
	free(p);
	pd_buf_release(&b);
	return rc;
}

int pd_outdir_write(struct pd_outdir *o, const char *name, const char *data, size_t len,
		    struct pd_err *err)
{
	int rc = write_file(o, name, data, len, err);
	if (rc == 0)
		pd_outdir_claim(o, name);
	return rc;
}

/* The marker: its heading, then every name written, one a line. */
static int write_marker(struct pd_outdir *o, struct pd_err *err)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_adds(&b, PD_OUTDIR_MARK_HEAD);
	for (size_t i = 0; i < o->n_names; i++) {
		const char *name = o->names[i];
		char *path = pd_outdir_path(o, name);
		struct stat st;
		if (strpbrk(name, "\t\n")) {
			free(path);
			continue;
		}
		pd_buf_adds(&b, name);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			add_stamp(&b, &st);
		pd_buf_addch(&b, '\n');
		free(path);
	}
	int rc = write_file(o, PD_OUTDIR_MARKER, b.ptr, b.len, err);
	pd_buf_release(&b);
	return rc;
}

void pd_outdir_release(struct pd_outdir *o)
{
	if (o->tmp)
		pd_cleanup_drop_tree(o->tmp);
	for (size_t i = 0; i < o->n_names; i++)
		free(o->names[i]);
	free(o->names);
	free(o->tmp);
	free(o->final);
	*o = (struct pd_outdir){0};
}

/* The refusal when the output is no longer what begin found: a user's file was added, or
 * one of ours edited, while perfdelta ran. */
static int changed_meanwhile(const char *final, const char *why, struct pd_err *err)
{
	return pd_err_at(err, PD_EIO, final, 0, 0,
			 "refusing to replace it: %s (changed while perfdelta ran; the "
			 "new report was not written)",
			 why);
}

/* Puts the temporary directory in place of o->final, which old (when not NULL) holds.
 * The old output is checked again once it is aside, where nobody adds to it by its
 * name: begin checked it long before. */
static int swap_in(struct pd_outdir *o, const char *old, struct pd_err *err)
{
	struct pd_buf why = PD_BUF_INIT;
	if (old && rename(o->final, old) < 0)
		return pd_err_at(err, PD_EIO, o->final, 0, 0, "cannot replace: %s",
				 strerror(errno));
	if (old && !replaceable(old, 0, &why)) {
		int rc = changed_meanwhile(o->final, why.ptr, err);
		rename(old, o->final); /* put it back as it is */
		pd_buf_release(&why);
		return rc;
	}
	pd_buf_release(&why);
	if (rename(o->tmp, o->final) < 0) {
		int rc = pd_err_at(err, PD_EIO, o->final, 0, 0,
				   "cannot move the output into place: %s", strerror(errno));
		if (old)
			rename(old, o->final); /* put the old report back */
		return rc;
	}
	if (old)
		pd_rm_tree(old);
	return 0;
}

/* Commits beside one another take turns: an exclusive flock(2) on the directory that
 * holds final, released when the descriptor closes. Two runs writing one output then end
 * with the later one's report whole and nothing aside (without it, each could move the
 * other's aside and fail to put it back). A turn is waited for 60 s at most (a commit
 * takes milliseconds; a lock held longer is someone else's): -1 then, or when the lock
 * cannot be had at all, and the commit goes on as it would alone. */
static int take_turn(const char *final)
{
	struct pd_buf parent = PD_BUF_INIT;
	int fd = open(parent_of(&parent, final), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	double until = pd_clock_now() + 60;
	pd_buf_release(&parent);
	while (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || pd_clock_now() > until) {
			close(fd);
			return -1;
		}
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
	return fd;
}

static void end_turn(int fd)
{
	if (fd >= 0)
		close(fd);
}

int pd_outdir_commit(struct pd_outdir *o, struct pd_err *err)
{
	struct stat st;
	char *old = NULL;
	int rc = 0, turn;
	pd_outdir_disown(o); /* the owner file stays out of the report */
	if (o->marked && (rc = write_marker(o, err)) < 0) {
		pd_outdir_abort(o);
		return rc;
	}
	turn = take_turn(o->final);
	/* no signal between the renames: the old report is either in place or back */
	pd_cleanup_hold();
	if (lstat(o->final, &st) == 0) {
		old = sibling(o->final, "old");
		if (!mkdtemp(old) || rmdir(old) < 0)
			rc = pd_err_at(err, PD_EIO, o->final, 0, 0, "cannot replace: %s",
				       strerror(errno));
	}
	if (rc == 0 && (rc = swap_in(o, old, err)) == 0) {
		pd_cleanup_drop_tree(o->tmp); /* it is the output now */
		free(o->tmp);
		o->tmp = NULL;
	}
	free(old);
	pd_outdir_abort(o);
	pd_cleanup_release();
	end_turn(turn);
	return rc;
}

int pd_outdir_commit_file(struct pd_outdir *o, const char *name, struct pd_err *err)
{
	char *p = pd_outdir_path(o, name);
	struct stat st;
	int rc = 0, turn = take_turn(o->final);
	/* a page edited or replaced while perfdelta ran is no longer ours: checked again
	 * right before it is replaced */
	if (lstat(o->final, &st) == 0 && !file_is_ours(o->final))
		rc = changed_meanwhile(o->final, "it is not a page perfdelta wrote", err);
	else if (rename(p, o->final) < 0)
		rc = pd_err_at(err, PD_EIO, o->final, 0, 0,
			       "cannot move the output into place: %s", strerror(errno));
	free(p);
	pd_outdir_abort(o);
	end_turn(turn);
	return rc;
}

void pd_outdir_abort(struct pd_outdir *o)
{
	if (o->tmp)
		pd_rm_tree(o->tmp);
	pd_outdir_release(o);
}
