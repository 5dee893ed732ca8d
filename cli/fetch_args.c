/* compare's URL arguments (cli/fetch_args.h): each pulled by perfdelta-pull as a child,
 * so that perfdelta itself never loads libcurl (cli/pull.h). */
#include "cli/fetch_args.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/file.h"
#include "core/proc.h"
#include "core/strmap.h"
#include "core/url.h"
#include "core/xalloc.h"
#include "render/escape.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

/* The cache root, created. */
static int cache_root(struct pd_buf *out, struct pd_err *err)
{
	const char *c = getenv("PERFDELTA_CACHE"), *x = getenv("XDG_CACHE_HOME");
	const char *h = getenv("HOME");
	if (c && *c)
		pd_buf_adds(out, c);
	else if (x && *x)
		pd_buf_addf(out, "%s/perfdelta", x);
	else if (h && *h)
		pd_buf_addf(out, "%s/.cache/perfdelta", h);
	else
		return pd_err_set(err, PD_EINVAL,
				  "no cache directory for URLs: set PERFDELTA_CACHE or HOME");
	for (char *p = out->ptr + 1;; p++) { /* mkdir -p */
		char c0 = *p;
		if (c0 && c0 != '/')
			continue;
		*p = '\0';
		if (mkdir(out->ptr, 0700) < 0 && errno != EEXIST)
			return pd_err_at(err, PD_EIO, out->ptr, 0, 0, "cannot create: %s",
					 strerror(errno));
		*p = c0;
		if (!c0)
			return 0;
	}
}

/* The readable part of a cache name, in bytes: with "~" and the 16 digits of the hash and
 * the kind's "snapshots_" and ".lock", the lock's name stays well under NAME_MAX (255). */
#define NAME_READABLE 100

/* s without its scheme, its credentials and its trailing slashes: what names one cache
 * entry (http and https of one build, with or without the '/', are one build; a password
 * is no part of a name shown and written). */
static void url_key(struct pd_buf *key, const char *s)
{
	struct pd_buf shown = PD_BUF_INIT;
	const char *p;
	size_t n;
	pd_url_redact(&shown, s);
	p = strstr(shown.ptr, "://") ? strstr(shown.ptr, "://") + 3 : shown.ptr;
	n = strlen(p);
	while (n && p[n - 1] == '/')
		n--;
	pd_buf_add(key, p, n);
	pd_buf_release(&shown);
}

/* Appends to key the series' sources the pull is given, each after a NUL: one
 * snapshot name on two perfdb hosts, or one build pulled from another --perfdb, are two
 * runs and so two entries. */
static void sources_key(struct pd_buf *key, const struct pd_plan_opts *po)
{
	const char *const src[][2] = {{"perfdb=", po->perfdb},
				      {"prometheus=", po->prometheus},
				      {"cbmonitor2=", po->cbmonitor2}};
	for (size_t i = 0; i < sizeof(src) / sizeof(*src); i++)
		if (src[i][1]) {
			pd_buf_addch(key, '\0');
			pd_buf_adds(key, src[i][0]);
			url_key(key, src[i][1]);
		}
}

/* An entry's file name: readable's first NAME_READABLE bytes with [A-Za-z0-9_.-] kept (no
 * leading dot) and the rest '_', then, unless that is the key itself, "~" and the key's
 * hash in hex. '~' is never kept, so a name with a hash never equals one without, and two
 * keys cut to one readable part differ in their hash (the first 200 characters alone
 * named builds 7 and 8 of a long job's URL alike). lock_entry() keeps the key to refuse
 * a collision of hashes. */
static void as_name(struct pd_buf *out, const char *readable, const struct pd_buf *key)
{
	size_t at = out->len;
	for (size_t i = 0; readable[i] && i < NAME_READABLE; i++) {
		char c = readable[i];
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '-' || c == '_' || (c == '.' && i);
		pd_buf_addch(out, keep ? c : '_');
	}
	if (out->len - at != key->len || memcmp(out->ptr + at, key->ptr, key->len))
		pd_buf_addf(out, "~%016llx",
			    (unsigned long long)pd_strmap_hash(0, key->ptr, key->len));
}

/* The pull's options as perfdelta-pull's arguments. */
static void pull_args(struct pd_strv *a, const struct pd_plan_opts *po)
{
	const char *const strs[][2] = {{"--perfdb", po->perfdb},
				       {"--prometheus", po->prometheus},
				       {"--cbmonitor2", po->cbmonitor2},
				       {"--perfrunner-dir", po->perfrunner_dir}};
	for (size_t i = 0; i < sizeof(strs) / sizeof(*strs); i++)
		if (strs[i][1]) {
			pd_strv_add(a, strs[i][0]);
			pd_strv_add(a, strs[i][1]);
		}
	if (po->jenkins_xml)
		pd_strv_add(a, "--jenkins-api"), pd_strv_add(a, "xml");
	if (po->netrc)
		pd_strv_add(a, "--netrc");
	if (po->lim) { /* compare's own: what the servers send is bounded as it asks */
		const struct {
			const char *flag;
			size_t v;
		} lims[] = {{"--max-file-size", po->lim->max_file_bytes},
			    {"--max-bundle-size", po->lim->max_bundle_bytes},
			    {"--max-samples", po->lim->max_samples},
			    {"--max-series", po->lim->max_series},
			    {"--max-line", po->lim->max_line},
			    {"--max-depth", po->lim->max_depth}};
		for (size_t i = 0; i < sizeof(lims) / sizeof(*lims); i++)
			pd_strv_add(a, lims[i].flag), pd_strv_addf(a, "%zu", lims[i].v);
	}
	pd_strv_add(a, "--parallel"), pd_strv_addf(a, "%u", po->parallel);
	pd_strv_add(a, "--timeout"), pd_strv_addf(a, "%ld", po->timeout_s);
	pd_strv_add(a, "--retries"), pd_strv_addf(a, "%u", po->retries);
}

static int pull_locked(const char *dir, const struct pd_strv *what,
		       const struct pd_plan_opts *po, int quiet, struct pd_err *err)
{
	struct pd_strv a = {0};
	struct pd_buf shown = PD_BUF_INIT;
	struct stat st;
	char *exe;
	pid_t pid;
	int rc = 0, status, e;
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (!quiet)
			fprintf(stderr, "perfdelta: reusing %s\n", dir);
		return 0;
	}
	if (!(exe = pd_exe_dir()))
		return pd_err_at(err, PD_EIO, "/proc/self/exe", 0, 0, "cannot read it: %s",
				 strerror(errno));
	pd_strv_addf(&a, "%s/perfdelta-pull", exe);
	pd_strv_add(&a, "pull");
	for (size_t i = 0; i < what->n; i++)
		pd_strv_add(&a, what->v[i]);
	pull_args(&a, po);
	pd_strv_add(&a, "-o"), pd_strv_add(&a, dir);
	if (quiet)
		pd_strv_add(&a, "--quiet");
	pd_strv_add(&a, "--"); /* room for the NULL that ends argv */
	free(a.v[a.n - 1]);
	a.v[a.n - 1] = NULL;
	/* its messages and its summary on our stderr (compare's stdout is compare's): without
	 * fds the child's 0, 1 and 2 were closed and the reason it gave went nowhere */
	const int fds[] = {PD_PROC_DEVNULL, STDERR_FILENO, STDERR_FILENO};
	pd_url_redact(&shown, what->v[1]);
	struct pd_proc_spec spec = {
		.file = a.v[0], .argv = a.v, .envp = environ, .fds = fds, .n_fds = 3};
	if ((e = pd_proc_start(&pid, &spec)) != 0)
		rc = pd_err_at(err, PD_EIO, a.v[0], 0, 0, "cannot run: %s", strerror(e));
	else if (pd_proc_wait(pid, &status, &(struct pd_proc_watch){0}) != 0)
		rc = pd_err_at(err, PD_EIO, dir, 0, 0, "pulling %s: cannot wait for %s: %s",
			       shown.ptr, a.v[0], strerror(errno));
	else if (WIFSIGNALED(status))
		rc = pd_err_at(err, PD_EIO, dir, 0, 0,
			       "pulling %s failed: perfdelta-pull was killed by signal %d",
			       shown.ptr, WTERMSIG(status));
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		rc = pd_err_at(err, PD_EIO, dir, 0, 0,
			       "pulling %s failed: perfdelta-pull exited %d (its reason above)",
			       shown.ptr, WEXITSTATUS(status));
	a.n--; /* the NULL */
	pd_strv_free(&a);
	pd_buf_release(&shown);
	free(exe);
	return rc;
}

/* The lock file of an entry holds the entry's key: a key of another there (two keys of
 * one hash) is refused rather than the other's run reused as this one. 0 or PD_EIO. */
static int own_entry(int fd, const char *lock, const char *dir, const struct pd_buf *key,
		     struct pd_err *err)
{
	struct pd_buf held = PD_BUF_INIT;
	/* above any key: a URL is one argument, and Linux bounds one at 128 KiB */
	int rc = pd_file_read_fd(&held, fd, lock, (size_t)1 << 20, err), e;
	if (rc == 0 && held.len &&
	    (held.len != key->len || memcmp(held.ptr, key->ptr, key->len)))
		rc = pd_err_at(err, PD_EIO, dir, 0, 0,
			       "the cache entry is another URL's (two URLs of one hash): "
			       "remove it and %s to pull again",
			       lock);
	else if (rc == 0 && !held.len && (e = pd_file_write_all(fd, key->ptr, key->len)) < 0)
		rc = pd_err_at(err, PD_EIO, lock, 0, 0, "cannot write: %s", strerror(-e));
	pd_buf_release(&held);
	return rc;
}

/* The pid of the flock on the file (dev, ino) in one line of /proc/locks ("1: FLOCK
 * ADVISORY WRITE PID MAJ:MIN:INO 0 EOF", the device in hex), else 0; a waiter's line
 * ("1: -> FLOCK ...") is not a holder. */
static long holder_in(const char *line, dev_t dev, ino_t ino)
{
	unsigned maj, min;
	unsigned long long i;
	long pid;
	int at = 0;
	if (sscanf(line, "%*s FLOCK %*s %*s %ld %x:%x:%llu%n", &pid, &maj, &min, &i, &at) !=
		    4 ||
	    !at)
		return 0;
	return i == (unsigned long long)ino && maj == major(dev) && min == minor(dev) ? pid : 0;
}

/* " (pid N, NAME)" of the process holding an flock on fd's file, from /proc/locks, or ""
 * when none is found (one of another pid namespace). */
static void lock_holder(struct pd_buf *out, int fd)
{
	struct pd_buf locks = PD_BUF_INIT, path = PD_BUF_INIT, comm = PD_BUF_INIT;
	struct pd_err ignored = PD_ERR_INIT;
	struct stat st;
	long pid = 0;
	if (fstat(fd, &st) == 0 && pd_file_read(&locks, "/proc/locks", 1 << 24, &ignored) == 0)
		for (const char *l = locks.ptr; *l && !pid;
		     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
			pid = holder_in(l, st.st_dev, st.st_ino);
	if (pid && pid != (long)getpid()) {
		pd_buf_addf(&path, "/proc/%ld/comm", pid);
		pd_file_read(&comm, path.ptr, 4096, &ignored);
		comm.ptr[strcspn(comm.ptr, "\n")] = '\0';
		pd_buf_addf(out, " (pid %ld%s%s)", pid, *comm.ptr ? ", " : "", comm.ptr);
	}
	pd_buf_release(&locks), pd_buf_release(&path), pd_buf_release(&comm);
}

/* Takes the flock of fd, waiting for its holder at most timeout_s (0: no deadline): a
 * stopped or hung holder never lets go, and the kernel drops the lock only when it ends.
 * 0, or PD_EIO naming the lock and its holder. */
static int wait_lock(int fd, const char *lock, const char *dir, long timeout_s, int quiet,
		     struct pd_err *err)
{
	double end = pd_clock_now() + (double)timeout_s;
	struct pd_buf who = PD_BUF_INIT;
	int rc = 0;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	lock_holder(&who, fd);
	if (!quiet) { /* the holder's name is anyone's: escaped as every error line is */
		struct pd_buf line = PD_BUF_INIT, shown = PD_BUF_INIT;
		pd_buf_addf(&line, "waiting for another perfdelta pulling %s%s", dir, who.ptr);
		pd_esc_text(&shown, line.ptr);
		fprintf(stderr, "perfdelta: %s\n", shown.ptr);
		pd_buf_release(&line), pd_buf_release(&shown);
	}
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			rc = pd_err_at(err, PD_EIO, lock, 0, 0, "cannot lock: %s",
				       strerror(errno));
			break;
		}
		if (timeout_s && pd_clock_now() >= end) {
			pd_buf_truncate(&who, 0);
			lock_holder(&who, fd);
			rc = pd_err_at(
				err, PD_EIO, lock, 0, 0,
				"held by another process%s for %ld s (--timeout): gave up "
				"waiting for its pull of %s; end that process or try again",
				who.ptr, timeout_s, dir);
			break;
		}
		nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
	}
	pd_buf_release(&who);
	return rc;
}

/* Holds the cache entry ROOT/KIND/NAME of key for this process: an exclusive flock on
 * ROOT/locks/KIND_NAME.lock, waited for (at most timeout_s) while another compare pulls
 * the same entry (the kernel drops it if that one dies), so two compares of one URL pull
 * it once and the second reuses it. Returns the lock's fd. */
static int lock_entry(const char *dir, const struct pd_buf *key, long timeout_s, int quiet,
		      struct pd_err *err)
{
	struct pd_buf path = PD_BUF_INIT;
	const char *name = strrchr(dir, '/'), *kind = name;
	int fd;
	while (kind > dir && kind[-1] != '/')
		kind--;
	pd_buf_addf(&path, "%.*slocks", (int)(kind - dir), dir);
	if (mkdir(path.ptr, 0700) < 0 && errno != EEXIST) {
		pd_err_at(err, PD_EIO, path.ptr, 0, 0, "cannot create: %s", strerror(errno));
		pd_buf_release(&path);
		return PD_EIO;
	}
	pd_buf_addf(&path, "/%.*s_%s.lock", (int)(name - kind), kind, name + 1);
	fd = open(path.ptr, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		pd_err_at(err, PD_EIO, path.ptr, 0, 0, "cannot open: %s", strerror(errno));
		fd = PD_EIO;
	} else if (wait_lock(fd, path.ptr, dir, timeout_s, quiet, err) < 0 ||
		   own_entry(fd, path.ptr, dir, key, err) < 0) {
		close(fd);
		fd = PD_EIO;
	}
	pd_buf_release(&path);
	return fd;
}

/* Runs perfdelta-pull with what (its source arguments) into dir, unless dir is there;
 * under dir's lock. */
static int pull_into(const char *dir, const struct pd_buf *key, const struct pd_strv *what,
		     const struct pd_plan_opts *po, int quiet, struct pd_err *err)
{
	int fd = lock_entry(dir, key, po->timeout_s, quiet, err), rc;
	if (fd < 0)
		return fd;
	rc = pull_locked(dir, what, po, quiet, err);
	close(fd); /* releases the lock; the lock file stays, reused by the next compare */
	return rc;
}

/* "snapshot=A&snapshot=B" of a cbmonitor comparison URL, in order. */
static void snapshots_of(struct pd_strv *out, const char *url)
{
	for (const char *q = strchr(url, '?'); q && *q; q = strchr(q + 1, '&')) {
		size_t n;
		if (strncmp(q + 1, "snapshot=", 9))
			continue;
		n = strcspn(q + 10, "&#");
		if (n)
			pd_strv_addn(out, q + 10, n);
	}
}

/* "http://HOST:8080" of a cbmonitor URL: its perfdb. */
static char *perfdb_of(const char *url)
{
	const char *h = strstr(url, "://") + 3;
	size_t n = strcspn(h, ":/?#");
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, "http://%.*s:8080", (int)n, h);
	return pd_buf_detach(&b);
}

/* One snapshot of a comparison URL, with its build when build is not NULL. */
static int one_snapshot(struct pd_strv *out, const struct pd_buf *root, const char *url,
			const char *snap, const char *build, const struct pd_plan_opts *po,
			int quiet, struct pd_err *err)
{
	struct pd_strv what = {0};
	struct pd_plan_opts p = *po;
	struct pd_buf dir = PD_BUF_INIT, key = PD_BUF_INIT, readable = PD_BUF_INIT;
	char *perfdb = po->perfdb ? NULL : perfdb_of(url);
	int rc;
	if (perfdb)
		p.perfdb = perfdb;
	pd_buf_addf(&dir, "%s/%s/", root->ptr, build ? "builds" : "snapshots");
	if (build) { /* the key: build NUL snapshot, two parts that hold no NUL */
		url_key(&key, build);
		pd_buf_addf(&readable, "%s_snapshot_", key.ptr);
		pd_buf_addch(&key, '\0');
		pd_strv_add(&what, "--jenkins"), pd_strv_add(&what, build);
	}
	pd_buf_adds(&key, snap), pd_buf_adds(&readable, snap);
	sources_key(&key, &p);
	as_name(&dir, readable.ptr, &key);
	pd_strv_add(&what, "--snapshot"), pd_strv_add(&what, snap);
	rc = pull_into(dir.ptr, &key, &what, &p, quiet, err);
	if (rc == 0)
		pd_strv_add(out, dir.ptr);
	pd_strv_free(&what);
	pd_buf_release(&dir), pd_buf_release(&key), pd_buf_release(&readable);
	free(perfdb);
	return rc;
}

static int subdir(const struct pd_buf *root, const char *sub, struct pd_err *err)
{
	struct pd_buf d = PD_BUF_INIT;
	int rc = 0;
	pd_buf_addf(&d, "%s/%s", root->ptr, sub);
	if (mkdir(d.ptr, 0700) < 0 && errno != EEXIST)
		rc = pd_err_at(err, PD_EIO, d.ptr, 0, 0, "cannot create: %s", strerror(errno));
	pd_buf_release(&d);
	return rc;
}

/* Whether url's snapshots and builds make sense together: 0, else PD_EINVAL (url is the
 * URL as shown, without credentials). */
static int check_url(const char *url, const struct pd_strv *snaps, const struct pd_buf *key,
		     const struct pd_fetch_builds *b, struct pd_err *err)
{
	if (!key->len) /* else the cache's builds/ itself would be "reused" as the run */
		return pd_err_at(err, PD_EINVAL, url, 0, 0,
				 "expected a Jenkins build URL or a cbmonitor comparison URL");
	if (strstr(url, "/reports/html/") && !snaps->n)
		return pd_err_at(err, PD_EINVAL, url, 0, 0,
				 "a cbmonitor URL without snapshot=");
	if (b->n && b->n != snaps->n)
		return pd_err_at(err, PD_EINVAL, url, 0, 0,
				 "--jenkins names the builds of a cbmonitor comparison URL's "
				 "snapshots, one each: %zu snapshot(s), %zu build(s)",
				 snaps->n, b->n);
	return 0;
}

static int one_url(struct pd_strv *out, const struct pd_buf *root, const char *url,
		   const struct pd_plan_opts *po, const struct pd_fetch_builds *b, int quiet,
		   struct pd_err *err)
{
	struct pd_strv snaps = {0}, what = {0};
	struct pd_buf dir = PD_BUF_INIT, key = PD_BUF_INIT, shown = PD_BUF_INIT;
	int rc = 0;
	snapshots_of(&snaps, url);
	url_key(&key, url);
	pd_url_redact(&shown, url);
	rc = check_url(shown.ptr, &snaps, &key, b, err);
	for (size_t i = 0; rc == 0 && i < snaps.n; i++)
		rc = subdir(root, b->n ? "builds" : "snapshots", err) ||
		     one_snapshot(out, root, url, snaps.v[i], b->n ? b->v[i] : NULL, po, quiet,
				  err);
	if (rc == 0 && !snaps.n && (rc = subdir(root, "builds", err)) == 0) {
		pd_buf_addf(&dir, "%s/builds/", root->ptr);
		sources_key(&key, po);
		as_name(&dir, key.ptr, &key);
		pd_strv_add(&what, "--jenkins"), pd_strv_add(&what, url);
		if ((rc = pull_into(dir.ptr, &key, &what, po, quiet, err)) == 0)
			pd_strv_add(out, dir.ptr);
	}
	pd_strv_free(&snaps), pd_strv_free(&what);
	pd_buf_release(&dir), pd_buf_release(&key), pd_buf_release(&shown);
	return rc < 0 ? rc : rc ? PD_EIO : 0;
}

int pd_fetch_args(struct pd_strv *out, const char *const *args, size_t n,
		  const struct pd_plan_opts *po, const struct pd_fetch_builds *builds,
		  int quiet, struct pd_err *err)
{
	struct pd_buf root = PD_BUF_INIT;
	const struct pd_fetch_builds none = {NULL, 0};
	int rc = 0, comparison = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!is_url(args[i])) {
			pd_strv_add(out, args[i]);
			continue;
		}
		if (!root.len && (rc = cache_root(&root, err)) < 0)
			break;
		comparison |= strstr(args[i], "snapshot=") != NULL;
		rc = one_url(out, &root, args[i], po,
			     strstr(args[i], "snapshot=") ? builds : &none, quiet, err);
	}
	if (rc == 0 && builds->n && !comparison)
		rc = pd_err_set(
			err, PD_EINVAL,
			"compare's --jenkins names the builds of a cbmonitor comparison "
			"URL's snapshots: give the build URLs as arguments instead");
	pd_buf_release(&root);
	return rc;
}
