/* compare's URL arguments (cli/fetch_args.h): each pulled by perfdelta-pull as a child,
 * so that perfdelta itself never loads libcurl (cli/pull.h). */
#include "cli/fetch_args.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/proc.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
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

/* s (after its scheme, if any) as one file name: [A-Za-z0-9.-] kept, the rest '_'; no
 * leading dot, no trailing slash. */
static void as_name(struct pd_buf *out, const char *s)
{
	size_t n;
	if (strstr(s, "://"))
		s = strstr(s, "://") + 3;
	n = strlen(s);
	while (n && s[n - 1] == '/')
		n--;
	for (size_t i = 0; i < n && i < 200; i++) {
		char c = s[i];
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '-' || (c == '.' && i);
		pd_buf_addch(out, keep ? c : '_');
	}
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
	pd_strv_add(a, "--parallel"), pd_strv_addf(a, "%u", po->parallel);
	pd_strv_add(a, "--timeout"), pd_strv_addf(a, "%ld", po->timeout_s);
	pd_strv_add(a, "--retries"), pd_strv_addf(a, "%u", po->retries);
}

static int pull_locked(const char *dir, const struct pd_strv *what,
		       const struct pd_plan_opts *po, int quiet, struct pd_err *err)
{
	struct pd_strv a = {0};
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
	struct pd_proc_spec spec = {.file = a.v[0], .argv = a.v, .envp = environ};
	if ((e = pd_proc_start(&pid, &spec)) != 0)
		rc = pd_err_at(err, PD_EIO, a.v[0], 0, 0, "cannot run: %s", strerror(e));
	else if (pd_proc_wait(pid, &status, &(struct pd_proc_watch){0}) != 0 ||
		 !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		rc = pd_err_at(err, PD_EIO, dir, 0, 0,
			       "pulling %s failed (perfdelta-pull said why above)", what->v[1]);
	a.n--; /* the NULL */
	pd_strv_free(&a);
	free(exe);
	return rc;
}

/* Holds the cache entry ROOT/KIND/NAME for this process: an exclusive flock on
 * ROOT/locks/KIND_NAME.lock, waited for while another compare pulls the same entry (the
 * kernel drops it if that one dies), so two compares of one URL pull it once and the
 * second reuses it. Returns the lock's fd. */
static int lock_entry(const char *dir, int quiet, struct pd_err *err)
{
	struct pd_buf path = PD_BUF_INIT;
	const char *name = strrchr(dir, '/'), *kind = name;
	int fd, e = 0;
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
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (!quiet)
			fprintf(stderr, "perfdelta: waiting for another perfdelta pulling %s\n",
				dir);
		while ((e = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
			;
	}
	if (fd < 0 || e < 0) {
		pd_err_at(err, PD_EIO, path.ptr, 0, 0, "cannot lock: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = PD_EIO;
	}
	pd_buf_release(&path);
	return fd;
}

/* Runs perfdelta-pull with what (its source arguments) into dir, unless dir is there;
 * under dir's lock. */
static int pull_into(const char *dir, const struct pd_strv *what, const struct pd_plan_opts *po,
		     int quiet, struct pd_err *err)
{
	int fd = lock_entry(dir, quiet, err), rc;
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
	struct pd_buf dir = PD_BUF_INIT;
	char *perfdb = po->perfdb ? NULL : perfdb_of(url);
	int rc;
	if (perfdb)
		p.perfdb = perfdb;
	pd_buf_addf(&dir, "%s/%s/", root->ptr, build ? "builds" : "snapshots");
	if (build) {
		as_name(&dir, build);
		pd_buf_adds(&dir, "_snapshot_");
		pd_strv_add(&what, "--jenkins"), pd_strv_add(&what, build);
	}
	as_name(&dir, snap);
	pd_strv_add(&what, "--snapshot"), pd_strv_add(&what, snap);
	rc = pull_into(dir.ptr, &what, &p, quiet, err);
	if (rc == 0)
		pd_strv_add(out, dir.ptr);
	pd_strv_free(&what);
	pd_buf_release(&dir);
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

/* Whether url's snapshots and builds make sense together: 0, else PD_EINVAL. */
static int check_url(const char *url, const struct pd_strv *snaps, const struct pd_buf *name,
		     const struct pd_fetch_builds *b, struct pd_err *err)
{
	if (!name->len) /* else the cache's builds/ itself would be "reused" as the run */
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
	struct pd_buf dir = PD_BUF_INIT;
	int rc = 0;
	snapshots_of(&snaps, url);
	as_name(&dir, url);
	rc = check_url(url, &snaps, &dir, b, err);
	pd_buf_truncate(&dir, 0);
	for (size_t i = 0; rc == 0 && i < snaps.n; i++)
		rc = subdir(root, b->n ? "builds" : "snapshots", err) ||
		     one_snapshot(out, root, url, snaps.v[i], b->n ? b->v[i] : NULL, po, quiet,
				  err);
	if (rc == 0 && !snaps.n && (rc = subdir(root, "builds", err)) == 0) {
		pd_buf_addf(&dir, "%s/builds/", root->ptr);
		as_name(&dir, url);
		pd_strv_add(&what, "--jenkins"), pd_strv_add(&what, url);
		if ((rc = pull_into(dir.ptr, &what, po, quiet, err)) == 0)
			pd_strv_add(out, dir.ptr);
	}
	pd_strv_free(&snaps), pd_strv_free(&what);
	pd_buf_release(&dir);
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
