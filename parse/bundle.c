#include "bundle.h"
#include "console.h"
#include "dbname.h"
#include "ini.h"
#include "jenkins.h"
#include "perfdb.h"
#include "../core/buf.h"
#include "../core/file.h"
#include "../core/xalloc.h"

#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* One loader's state: the run being filled and a read buffer reused for every file. */
struct loader {
	struct pd_run *run;
	const struct pd_limits *lim;
	struct pd_buf data;
	struct pd_buf path;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir (no dot entries), sorted so that every run reads in the same order. */
static int list_dir(struct pd_strv *out, const char *dir, struct pd_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return pd_err_at(err, PD_EIO, dir, 0, 0, "cannot open directory: %s",
				 strerror(errno));
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			pd_strv_add(out, e->d_name);
	closedir(d);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Sets l->path to "<run dir>/<a>[/<b>]" and returns it. */
static const char *join(struct loader *l, const char *a, const char *b)
{
	pd_buf_truncate(&l->path, 0);
	pd_buf_addf(&l->path, "%s/%s", l->run->dir, a);
	if (b)
		pd_buf_addf(&l->path, "/%s", b);
	return l->path.ptr;
}

/* Reads the file at l->path into l->data and describes it as src. */
static int slurp(struct loader *l, struct pd_src *src, struct pd_err *err)
{
	int rc;
	pd_buf_truncate(&l->data, 0);
	if ((rc = pd_file_read(&l->data, l->path.ptr, l->lim->max_file_bytes, err)) < 0)
		return rc;
	*src = (struct pd_src){l->data.ptr, l->data.len, l->path.ptr, l->lim};
	return 0;
}

/* The first name ending with suffix, or NULL; later ones are noted as ignored. */
static const char *pick(struct loader *l, const struct pd_strv *names, const char *suffix)
{
	const char *found = NULL;
	for (size_t i = 0; i < names->n; i++) {
		if (!pd_str_ends_with(names->v[i], suffix))
			continue;
		if (!found)
			found = names->v[i];
		else
			pd_strv_addf(&l->run->notes,
				     "perfrunner/%s ignored: %s is the run's %s file",
				     names->v[i], found, suffix);
	}
	return found;
}

static int load_ini(struct loader *l, struct pd_ini *ini, const char *name, struct pd_err *err)
{
	struct pd_src src;
	int rc;
	join(l, "perfrunner", name);
	if ((rc = slurp(l, &src, err)) < 0)
		return rc;
	return pd_ini_parse(ini, &src, err);
}

static int load_configs(struct loader *l, struct pd_err *err)
{
	struct pd_strv names = {0};
	const char *spec, *test;
	int rc = 0;
	if (!is_dir(join(l, "perfrunner", NULL))) {
		pd_strv_addf(&l->run->notes, "no perfrunner/ configs: node roles unknown, "
					     "event time not from config");
		return 0;
	}
	if ((rc = list_dir(&names, l->path.ptr, err)) < 0)
		goto done;
	if ((spec = pick(l, &names, ".spec"))) {
		if ((rc = load_ini(l, &l->run->spec, spec, err)) < 0 ||
		    (rc = pd_spec_load(l->run, &l->run->spec, err)) < 0)
			goto done;
	} else {
		pd_strv_addf(&l->run->notes, "no perfrunner/*.spec: node roles unknown");
	}
	if ((test = pick(l, &names, ".test"))) {
		if ((rc = load_ini(l, &l->run->test, test, err)) < 0 ||
		    (rc = pd_testcfg_load(&l->run->cfg, &l->run->test, err)) < 0)
			goto done;
	} else {
		pd_strv_addf(
			&l->run->notes,
			"no perfrunner/*.test: the event time cannot come from the config");
	}
done:
	pd_strv_free(&names);
	return rc;
}

static int load_jenkins(struct loader *l, struct pd_err *err)
{
	struct pd_src src;
	int rc;
	if (pd_file_exists(join(l, "jenkins", "build.json"))) {
		if ((rc = slurp(l, &src, err)) < 0)
			return rc;
		return pd_jenkins_json_parse(&l->run->jenkins, &src, err);
	}
	if (pd_file_exists(join(l, "jenkins", "build.xml"))) {
		if ((rc = slurp(l, &src, err)) < 0)
			return rc;
		return pd_jenkins_xml_parse(&l->run->jenkins, &src, err);
	}
	pd_strv_addf(&l->run->notes,
		     "no jenkins/build.json or build.xml: build metadata unknown");
	return 0;
}

static int load_console(struct loader *l, struct pd_err *err)
{
	struct pd_src src;
	int rc;
	if (!pd_file_exists(join(l, "jenkins", "consoleText"))) {
		pd_strv_addf(&l->run->notes,
			     "no jenkins/consoleText: no console events or KPIs");
		return 0;
	}
	if ((rc = slurp(l, &src, err)) < 0)
		return rc;
	return pd_console_parse(l->run, &src, err);
}

static struct pd_series *new_series(const char *db, const char *metric, size_t metric_len,
				    const struct pd_dbname *d)
{
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	s->db = pd_xstrdup(db);
	s->collector = pd_xstrdup(d->collector);
	s->metric = pd_xstrndup(metric, metric_len);
	s->bucket = d->bucket ? pd_xstrdup(d->bucket) : NULL;
	s->server = d->server ? pd_xstrdup(d->server) : NULL;
	s->scope = d->scope;
	s->unit = pd_unit_of(s->collector, s->metric);
	return s;
}

/* perfdb's API gives epoch ms; a body in s, us or ns (an older perfdb, a hand-made
 * file) is rescaled by the first sample's size, and the run says so. */
static int fix_time_unit(struct loader *l, struct pd_series *s, struct pd_err *err)
{
	static const char *const units[] = {"s", "ms", "us", "ns"};
	int64_t first = s->n ? s->t_ms[0] : 0, ms, mul = 1, div = 1;
	int unit;
	if (!s->n || (first > 1000000000000LL && first <= 1000000000000000LL))
		return 0;
	if (!pd_epoch_to_ms(first, &ms))
		return pd_err_at(err, PD_EPARSE, l->path.ptr, 0, 0,
				 "expected epoch timestamps, found %lld in the first sample",
				 (long long)first);
	unit = first <= 1000000000000LL ? 0 : first <= 1000000000000000000LL ? 2 : 3;
	if (unit == 0)
		mul = 1000;
	else
		div = unit == 2 ? 1000 : 1000000;
	for (size_t i = 0; i < s->n; i++)
		s->t_ms[i] = s->t_ms[i] * mul / div;
	pd_strv_addf(&l->run->notes, "%s: timestamps in %s, read as ms",
		     l->path.ptr + strlen(l->run->dir) + 1, units[unit]);
	return 0;
}

/* A .json body is perfdb's [[ts, v], ...] or seriesly's {"ts": [v]}: the first byte says. */
static int parse_json(struct loader *l, struct pd_series *s, struct pd_err *err)
{
	struct pd_src src;
	int rc = slurp(l, &src, err);
	const char *p = src.data, *end = src.data + src.len;
	if (rc < 0)
		return rc;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if (p < end && *p == '{')
		rc = pd_seriesly_parse(s, &src, err);
	else
		rc = pd_perfdb_json_parse(s, &src, err);
	return rc < 0 ? rc : fix_time_unit(l, s, err);
}

/* perfdb's data files: <metric>.data, with <metric>.data.1 (first timestamp) when the
 * file holds deltas. */
static int parse_data(struct loader *l, struct pd_series *s, const char *db, const char *file,
		      struct pd_err *err)
{
	struct pd_src src;
	int64_t first = 0;
	int rc;
	join(l, "perfdb", db);
	pd_buf_addf(&l->path, "/%s.1", file);
	/* perfdb's own layout has absolute timestamps and no .data.1; the delta layout
	 * needs it (its first line's timestamp is 0) */
	if (pd_file_exists(l->path.ptr) &&
	    ((rc = slurp(l, &src, err)) < 0 ||
	     (rc = pd_perfdb_first_ts_parse(&first, &src, err)) < 0))
		return rc;
	join(l, "perfdb", db);
	pd_buf_addf(&l->path, "/%s", file);
	if ((rc = slurp(l, &src, err)) < 0)
		return rc;
	return pd_perfdb_data_parse(s, &src, first, err);
}

static int load_metric(struct loader *l, const char *db, const char *file,
		       const struct pd_dbname *d, struct pd_err *err)
{
	int json = pd_str_ends_with(file, ".json"), data = pd_str_ends_with(file, ".data");
	struct pd_series *s;
	int rc;
	if (pd_str_ends_with(file, ".data.1") || pd_str_ends_with(file, ".data.n"))
		return 0; /* read beside their .data */
	if (!json && !data) {
		pd_strv_addf(&l->run->notes,
			     "perfdb/%s/%s ignored: not a .json or .data series", db, file);
		return 0;
	}
	if (l->run->n_series >= l->lim->max_series)
		return pd_err_at(err, PD_ELIMIT, join(l, "perfdb", db), 0, 0,
				 "more than %zu series in the run (see --max-series)",
				 l->lim->max_series);
	s = new_series(db, file, strlen(file) - 5, d); /* ".json" and ".data" are 5 bytes */
	join(l, "perfdb", db);
	pd_buf_addf(&l->path, "/%s", file);
	rc = json ? parse_json(l, s, err) : parse_data(l, s, db, file, err);
	if (rc < 0) {
		pd_series_free(s);
		return rc;
	}
	pd_run_add_series(l->run, s);
	return 0;
}

static int load_db(struct loader *l, const char *db, struct pd_err *err)
{
	struct pd_strv files = {0};
	struct pd_dbname d = {0};
	struct pd_err why = PD_ERR_INIT;
	int rc = 0;
	if (pd_dbname_decode(&d, db, &l->run->snapshots, l->run->nodes, l->run->n_nodes, &why) <
	    0) {
		pd_strv_add(&l->run->undecoded, why.msg); /* the message names the db */
		return 0;
	}
	if ((rc = list_dir(&files, join(l, "perfdb", db), err)) == 0)
		for (size_t i = 0; i < files.n && rc == 0; i++)
			rc = load_metric(l, db, files.v[i], &d, err);
	pd_dbname_clear(&d);
	pd_strv_free(&files);
	return rc;
}

static int load_perfdb(struct loader *l, struct pd_err *err)
{
	struct pd_strv dbs = {0};
	int rc;
	if (!is_dir(join(l, "perfdb", NULL)))
		return pd_err_at(err, PD_EPARSE, l->run->dir, 0, 0,
				 "not a run bundle: expected a perfdb/ directory");
	if ((rc = list_dir(&dbs, l->path.ptr, err)) < 0)
		goto done;
	if (l->run->snapshots.n == 0) {
		pd_dbname_find_snapshots(&l->run->snapshots, &dbs, l->run->cluster);
		if (l->run->snapshots.n)
			pd_strv_addf(
				&l->run->notes,
				"snapshot names taken from the perfdb db names (no console)");
	}
	for (size_t i = 0; i < dbs.n && rc == 0; i++)
		rc = load_db(l, dbs.v[i], err);
	if (rc == 0 && l->run->n_series == 0)
		rc = pd_err_at(
			err, PD_EPARSE, join(l, "perfdb", NULL), 0, 0,
			"no series: expected perfdb/<db>/<metric>.json of a known snapshot");
done:
	pd_strv_free(&dbs);
	return rc;
}

/* A node of the spec with no series at all: said, since silence would look like data. */
static void note_silent_nodes(struct pd_run *run)
{
	for (size_t i = 0; i < run->n_nodes; i++) {
		size_t k = 0;
		while (k < run->n_series &&
		       !(run->series[k]->server &&
			 !strcmp(run->series[k]->server, run->nodes[i].host)))
			k++;
		if (k == run->n_series)
			pd_strv_addf(&run->notes, "%s (%s) is in the spec but has no series",
				     run->nodes[i].host, run->nodes[i].role);
	}
}

static int load_dir(struct pd_run *run, const struct pd_limits *lim, struct pd_err *err)
{
	struct loader l = {run, lim, PD_BUF_INIT, PD_BUF_INIT};
	int rc;
	if (!is_dir(run->dir))
		rc = pd_err_at(err, PD_EIO, run->dir, 0, 0, "not a directory or tarball");
	else if ((rc = load_configs(&l, err)) == 0 && (rc = load_jenkins(&l, err)) == 0 &&
		 (rc = load_console(&l, err)) == 0)
		rc = load_perfdb(&l, err);
	if (rc == 0) {
		pd_run_sort_series(run);
		note_silent_nodes(run);
	}
	pd_buf_release(&l.data);
	pd_buf_release(&l.path);
	return rc;
}

/* Tarballs: extracted by tar(1) (which refuses ".." members) into a private temporary
 * directory, read like a directory, then removed. */
static int run_tar(const char *tarball, const char *dir, struct pd_err *err)
{
	char *argv[] = {"tar",
			"-xf",
			(char *)tarball,
			"-C",
			(char *)dir,
			"--no-same-owner",
			"--no-same-permissions",
			NULL};
	pid_t pid;
	int status;
	if (posix_spawnp(&pid, "tar", NULL, NULL, argv, environ) != 0)
		return pd_err_at(err, PD_EIO, tarball, 0, 0,
				 "cannot run tar to unpack the bundle");
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return pd_err_at(err, PD_EPARSE, tarball, 0, 0,
				 "not a readable .tar or .tar.gz (tar failed)");
	return 0;
}

static int is_tarball(const char *path)
{
	return pd_str_ends_with(path, ".tar") || pd_str_ends_with(path, ".tar.gz") ||
	       pd_str_ends_with(path, ".tgz");
}

/* The bundle root inside an unpacked tarball: the top, or its single subdirectory. */
static void tar_root(struct pd_buf *root, const char *tmp)
{
	struct pd_strv names = {0};
	struct pd_err ignore = PD_ERR_INIT;
	pd_buf_addf(root, "%s/perfdb", tmp);
	if (!is_dir(root->ptr) && list_dir(&names, tmp, &ignore) == 0 && names.n == 1) {
		pd_buf_truncate(root, 0);
		pd_buf_addf(root, "%s/%s", tmp, names.v[0]);
	} else {
		pd_buf_truncate(root, 0);
		pd_buf_adds(root, tmp);
	}
	pd_strv_free(&names);
}

static int load_tarball(struct pd_run *run, const char *path, const struct pd_limits *lim,
			struct pd_err *err)
{
	char tmp[] = "/tmp/perfdelta-bundle-XXXXXX";
	struct pd_buf root = PD_BUF_INIT;
	int rc;
	if (!mkdtemp(tmp))
		return pd_err_set(err, PD_EIO, "cannot create a temporary directory: %s",
				  strerror(errno));
	if ((rc = run_tar(path, tmp, err)) == 0) {
		tar_root(&root, tmp);
		free(run->dir);
		run->dir = pd_buf_detach(&root);
		rc = load_dir(run, lim, err);
		free(run->dir);
		run->dir = pd_xstrdup(path);
	}
	pd_rm_tree(tmp);
	return rc;
}

int pd_bundle_load(struct pd_run **out, const char *path, const struct pd_limits *lim,
		   struct pd_err *err)
{
	struct pd_run *run = pd_run_new(path);
	size_t n = strlen(run->dir);
	int rc;
	while (n > 1 && run->dir[n - 1] == '/')
		run->dir[--n] = '\0';
	rc = is_tarball(path) && !is_dir(path) ? load_tarball(run, path, lim, err)
					       : load_dir(run, lim, err);
	if (rc < 0) {
		pd_run_free(run);
		*out = NULL;
		return rc;
	}
	*out = run;
	return 0;
}

struct load_job {
	struct pd_run *run;
	const char *path;
	const struct pd_limits *lim;
	struct pd_err err;
	int rc;
};

static void *load_job(void *arg)
{
	struct load_job *j = arg;
	j->rc = pd_bundle_load(&j->run, j->path, j->lim, &j->err);
	return NULL;
}

int pd_bundle_load_pair(struct pd_run **base, struct pd_run **target, const char *base_path,
			const char *target_path, const struct pd_limits *lim,
			struct pd_err *err)
{
	struct load_job a = {NULL, base_path, lim, PD_ERR_INIT, 0};
	struct load_job b = {NULL, target_path, lim, PD_ERR_INIT, 0};
	pthread_t t;
	pd_jenkins_xml_init();
	int threaded = pthread_create(&t, NULL, load_job, &a) == 0;
	load_job(&b);
	if (threaded)
		pthread_join(t, NULL);
	else
		load_job(&a);
	if (a.rc < 0 || b.rc < 0) {
		*err = a.rc < 0 ? a.err : b.err;
		pd_run_free(a.run);
		pd_run_free(b.run);
		*base = *target = NULL;
		return a.rc < 0 ? a.rc : b.rc;
	}
	*base = a.run;
	*target = b.run;
	return 0;
}
