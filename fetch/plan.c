/* The pull plan: Jenkins first (the build names the configs, the console the snapshots
 * and the perfdb host), then the perfrunner configs (the spec's nodes decode db names),
 * then perfdb's database list, each kept database's metric list and every series. Each
 * list answer queues the next requests; each body lands in its file of the staging
 * directory, and the lists and the build are read back from there by parse/. */
#define _GNU_SOURCE /* renameat2 and RENAME_NOREPLACE (glibc 2.28) */
#include "plan.h"
#include "prom_pull.h"
#include "../core/buf.h"
#include "../core/file.h"
#include "../core/metric.h"
#include "../core/model.h"
#include "../core/outdir.h"
#include "../core/xalloc.h"
#include "../parse/console.h"
#include "../parse/dbname.h"
#include "../parse/ini.h"
#include "../parse/jenkins.h"
#include "../parse/perfdb.h"
#include "../parse/perfdb_list.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_MAX_BYTES 255
#define SHOWN_MAX      64 /* bytes of a refused name a message shows */

struct plan {
	const struct pd_plan_opts *o;
	const struct pd_limits *lim;
	struct pd_err *err;
	struct pd_transfer_opts topts;
	struct pd_transfer *t;
	struct pd_outdir out;
	struct pd_run *run;  /* scratch: the build, the console, the spec's nodes */
	char *perfdb;        /* base URL, no trailing '/' */
	char *console_shown; /* the console's URL, for messages */
	size_t n_series, n_lists;
};

/* s with its trailing slashes cut. */
static char *trim_slashes(const char *s)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == '/')
		n--;
	return pd_xstrndup(s, n);
}

/* A name as a message may show it: cut at SHOWN_MAX (cli/main.c prints every error line
 * through the terminal escaper, once). */
static void show(struct pd_buf *b, const char *name)
{
	size_t n = strnlen(name, SHOWN_MAX + 1);
	pd_buf_add(b, name, n > SHOWN_MAX ? SHOWN_MAX : n);
	if (n > SHOWN_MAX)
		pd_buf_adds(b, "...");
}

/* Why name cannot be one path component of the bundle, or NULL when it can. */
static const char *bad_name(const char *name, size_t max)
{
	size_t n = strlen(name);
	if (!n)
		return "it is empty";
	if (n > max)
		return "it is too long";
	if (name[0] == '.')
		return "it starts with '.'";
	if (strchr(name, '/'))
		return "it holds '/'";
	if (strstr(name, ".."))
		return "it holds '..'";
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return "it holds a control character";
	return NULL;
}

static int check_name(const char *what, const char *name, size_t max, const char *from,
		      struct pd_err *err)
{
	const char *why = bad_name(name, max);
	struct pd_buf b = PD_BUF_INIT;
	int rc;
	if (!why)
		return 0;
	show(&b, name);
	rc = pd_err_at(err, PD_EPARSE, from, 0, 0, "refusing %s name '%s': %s (max %zu bytes)",
		       what, b.ptr, why, max);
	pd_buf_release(&b);
	return rc;
}

static char *join_url(const char *base, const char *a, const char *b)
{
	struct pd_buf u = PD_BUF_INIT;
	char *e;
	pd_buf_addf(&u, "%s/", base);
	if (a) {
		pd_buf_adds(&u, e = pd_transfer_escape(a));
		free(e);
	}
	if (b) {
		pd_buf_addf(&u, "/%s", e = pd_transfer_escape(b));
		free(e);
	}
	return pd_buf_detach(&u);
}

/* Queues a GET of url into path (both taken and freed); Jenkins' carry the credentials. */
static void get(struct plan *p, char *url, char *path, const char *name,
		pd_transfer_done_fn done, int jenkins)
{
	struct pd_transfer_get g = {
		.url = url, .path = path, .name = name, .done = done, .ctx = p};
	if (jenkins) {
		g.user = p->o->jenkins_user;
		g.password = p->o->jenkins_token;
	}
	pd_transfer_add(p->t, &g);
	free(url);
	free(path);
}

/* A staging file for a list answer: its dot keeps it apart from every checked name. */
static char *list_path(struct plan *p)
{
	struct pd_buf name = PD_BUF_INIT;
	char *path;
	pd_buf_addf(&name, ".list-%zu.json", p->n_lists++);
	path = pd_outdir_path(&p->out, name.ptr);
	pd_buf_release(&name);
	return path;
}

/* d's body read back from its file into b, as src for a parse/ reader (named by URL).
 * An HTML page (a proxy's or a login's, even with 200) or a compressed body is no answer
 * of perfdb or Jenkins: PD_EPARSE naming the URL and what was expected. */
static int read_body(struct pd_buf *b, struct pd_src *src, struct plan *p,
		     const struct pd_transfer_done *d, const char *expected)
{
	int rc = pd_file_read(b, d->path, p->lim->max_file_bytes, p->err);
	*src = (struct pd_src){b->ptr, b->len, d->shown, p->lim};
	if (rc < 0)
		return rc;
	if (d->type && (!strncasecmp(d->type, "text/html", 9) ||
			!strncasecmp(d->type, "application/xhtml", 17)))
		return pd_err_at(p->err, PD_EPARSE, d->shown, 0, 0,
				 "an HTML page (Content-Type %.40s), expected %s", d->type,
				 expected);
	if (b->len >= 2 && (unsigned char)b->ptr[0] == 0x1f && (unsigned char)b->ptr[1] == 0x8b)
		return pd_err_at(p->err, PD_EPARSE, d->shown, 0, 0,
				 "a gzip-compressed body (never asked for), expected %s",
				 expected);
	return 0;
}

#define SERIES_SHAPE "a perfdb series (a JSON array of [time, value] pairs)"

/* A series must read as compare will read it, or the bundle is no bundle. */
static int on_series(void *ctx, const struct pd_transfer_done *d, struct pd_err *err)
{
	struct plan *p = ctx;
	struct pd_buf b = PD_BUF_INIT;
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	struct pd_src src;
	int rc = read_body(&b, &src, p, d, SERIES_SHAPE);
	const char *latency = pd_metric_per_request_db(d->name); /* d->name: the db */
	s->collector = latency ? pd_xstrdup(latency) : NULL;     /* checked as compare will */
	if (rc == 0)
		rc = pd_perfdb_json_parse(s, &src, err);
	pd_series_free(s);
	pd_buf_release(&b);
	return rc;
}

/* A list answer, parsed; its file goes (it is not part of the bundle). */
static int read_list(struct pd_strv *out, struct plan *p, const struct pd_transfer_done *d)
{
	struct pd_buf b = PD_BUF_INIT;
	struct pd_src src;
	int rc;
	if ((rc = read_body(&b, &src, p, d, "perfdb's list (a JSON array of names)")) == 0)
		rc = pd_perfdb_list_parse(out, &src, p->err);
	unlink(d->path);
	pd_buf_release(&b);
	return rc;
}

/* A name cbagent would strip characters from: only pd_dbname_decode can match it. */
static int has_stripped_chars(const char *name)
{
	return name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_-")] != '\0';
}

/* db holds one of the snapshot names, or decodes as one of theirs. Decoding runs only
 * where it can tell something: with the spec's nodes (for the note on undecoded dbs) or
 * for snapshot names that lose characters in db names. */
static int of_snapshot(struct plan *p, const char *db, int *decoded)
{
	struct pd_dbname d;
	struct pd_err ignored = PD_ERR_INIT;
	const struct pd_run *run = p->run;
	int found = 0, stripped = 0;
	for (size_t i = 0; i < run->snapshots.n && !found; i++) {
		found = strstr(db, run->snapshots.v[i]) != NULL;
		stripped |= has_stripped_chars(run->snapshots.v[i]);
	}
	*decoded = 0;
	if ((found && run->n_nodes) || (!found && stripped)) {
		*decoded = pd_dbname_decode(&d, db, &run->snapshots, run->nodes, run->n_nodes,
					    &ignored) == 0;
		if (*decoded)
			pd_dbname_clear(&d);
	}
	return found || *decoded;
}

static int on_metrics(void *ctx, const struct pd_transfer_done *d, struct pd_err *err)
{
	struct plan *p = ctx;
	struct pd_strv metrics = {0};
	struct pd_buf file = PD_BUF_INIT;
	int rc;
	if ((rc = read_list(&metrics, p, d)) < 0)
		goto done;
	for (size_t i = 0; i < metrics.n; i++) {
		/* the file is "<metric>.json": 5 bytes of the component's 255 */
		if ((rc = check_name("metric", metrics.v[i], NAME_MAX_BYTES - 5, d->shown,
				     err)) < 0)
			goto done;
		if (++p->n_series > p->lim->max_series) {
			rc = pd_err_at(err, PD_ELIMIT, d->shown, 0, 0,
				       "more than %zu series (--max-series)",
				       p->lim->max_series);
			goto done;
		}
		pd_buf_truncate(&file, 0);
		pd_buf_addf(&file, "perfdb/%s/%s.json", d->name, metrics.v[i]);
		get(p, join_url(p->perfdb, d->name, metrics.v[i]),
		    pd_outdir_path(&p->out, file.ptr), d->name, on_series, 0);
	}
done:
	pd_buf_release(&file);
	pd_strv_free(&metrics);
	return rc;
}

/* A database of the snapshots gets its directory and its metric list asked for. */
static int keep_db(struct plan *p, const char *db, const char *from, struct pd_strv *kept,
		   struct pd_strv *undecoded)
{
	struct pd_buf dir = PD_BUF_INIT;
	int rc, decoded;
	if (!of_snapshot(p, db, &decoded))
		return 0;
	if ((rc = check_name("database", db, NAME_MAX_BYTES, from, p->err)) < 0)
		return rc;
	if (!decoded)
		pd_strv_add(undecoded, db);
	pd_buf_addf(&dir, "perfdb/%s", db);
	if ((rc = pd_outdir_mkdir(&p->out, dir.ptr, p->err)) == 0) {
		get(p, join_url(p->perfdb, db, NULL), list_path(p), db, on_metrics, 0);
		pd_strv_add(kept, db);
	}
	pd_buf_release(&dir);
	return rc;
}

static int on_dbs(void *ctx, const struct pd_transfer_done *d, struct pd_err *err)
{
	struct plan *p = ctx;
	struct pd_strv dbs = {0}, kept = {0}, undecoded = {0};
	size_t n_of = 0;
	int rc = read_list(&dbs, p, d), decoded;
	/* each database kept is a request and holds a series at least: their count is
	 * bounded before any is asked for, as a metric list's is */
	for (size_t i = 0; i < dbs.n && rc == 0; i++)
		n_of += of_snapshot(p, dbs.v[i], &decoded);
	if (rc == 0 && n_of > p->lim->max_series)
		rc = pd_err_at(err, PD_ELIMIT, d->shown, 0, 0,
			       "%zu databases of the snapshot, more than %zu series "
			       "(--max-series)",
			       n_of, p->lim->max_series);
	for (size_t i = 0; i < dbs.n && rc == 0; i++)
		rc = keep_db(p, dbs.v[i], d->shown, &kept, &undecoded);
	if (rc == 0 && !kept.n)
		rc = pd_err_at(err, PD_ENOTFOUND, d->shown, 0, 0,
			       "no database of snapshot '%s'%s among the %zu listed",
			       p->run->snapshots.v[0],
			       p->run->snapshots.n > 1 ? " or the others" : "", dbs.n);
	if (rc == 0 && undecoded.n && p->run->n_nodes)
		pd_transfer_note(p->t,
				 "%zu of %zu databases kept for their snapshot name do not "
				 "decode with the spec's nodes (first: %s)",
				 undecoded.n, kept.n, undecoded.v[0]);
	pd_strv_free(&dbs);
	pd_strv_free(&kept);
	pd_strv_free(&undecoded);
	return rc;
}

/* "http://HOST:8080" from the console's first "HTML report: SCHEME://HOST[:PORT]/...";
 * NULL when there is none or its host is not a plain name or address. */
static char *perfdb_from_console(const struct pd_buf *console)
{
	static const char key[] = "HTML report: ";
	const char *s = strstr(console->ptr, key), *host;
	struct pd_buf b = PD_BUF_INIT;
	size_t scheme, n;
	if (!s)
		return NULL;
	s += strlen(key);
	scheme = strspn(s, "abcdefghijklmnopqrstuvwxyz");
	if (!scheme || strncmp(s + scheme, "://", 3))
		return NULL;
	host = s + scheme + 3;
	if (host[0] == '[') /* [v6] */
		n = strspn(host + 1, "0123456789abcdefABCDEF:.") + 1;
	else
		n = strspn(host,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");
	if (!n || (host[0] == '[' && host[n++] != ']') || !strchr(":/?# \t\r\n", host[n]))
		return NULL; /* user@host and anything odd: --perfdb says where */
	pd_buf_adds(&b, "http://");
	pd_buf_add(&b, host, n);
	pd_buf_adds(&b, ":8080");
	return pd_buf_detach(&b);
}

static int on_build(void *ctx, const struct pd_transfer_done *d, struct pd_err *err)
{
	struct plan *p = ctx;
	struct pd_buf b = PD_BUF_INIT;
	struct pd_src src;
	int rc;
	if ((rc = read_body(&b, &src, p, d, "Jenkins' build (api/json or api/xml)")) == 0)
		rc = p->o->jenkins_xml ? pd_jenkins_xml_parse(&p->run->jenkins, &src, err)
				       : pd_jenkins_json_parse(&p->run->jenkins, &src, err);
	pd_buf_release(&b);
	return rc;
}

/* The console names the snapshots (unless given) and the perfdb host (unless given). */
static int on_console(void *ctx, const struct pd_transfer_done *d, struct pd_err *err)
{
	struct plan *p = ctx;
	struct pd_buf b = PD_BUF_INIT;
	struct pd_src src;
	int rc;
	p->console_shown = pd_xstrdup(d->shown);
	if ((rc = read_body(&b, &src, p, d, "Jenkins' console text")) == 0 &&
	    !p->o->n_snapshots)
		rc = pd_console_parse(p->run, &src, err);
	if (rc == 0 && !p->o->perfdb)
		p->perfdb = perfdb_from_console(&b);
	pd_buf_release(&b);
	return rc;
}

/* The build URL without a trailing console page or slash. */
static char *build_base(const char *url)
{
	static const char *const pages[] = {"/console", "/consoleText", "/consoleFull"};
	char *base = trim_slashes(url);
	size_t n = strlen(base);
	for (size_t i = 0; i < sizeof(pages) / sizeof(*pages); i++) {
		size_t k = strlen(pages[i]);
		if (n > k && !strcmp(base + n - k, pages[i])) {
			base[n - k] = '\0';
			break;
		}
	}
	return base;
}

static int fetch_jenkins(struct plan *p)
{
	const struct pd_plan_opts *o = p->o;
	char *base = build_base(o->jenkins);
	struct pd_buf u = PD_BUF_INIT;
	int rc;
	if ((rc = pd_outdir_mkdir(&p->out, "jenkins", p->err)) == 0) {
		pd_buf_addf(&u, "%s/api/%s", base, o->jenkins_xml ? "xml" : "json");
		get(p, pd_buf_detach(&u),
		    pd_outdir_path(&p->out,
				   o->jenkins_xml ? "jenkins/build.xml" : "jenkins/build.json"),
		    NULL, on_build, 1);
		pd_buf_addf(&u, "%s/consoleText", base);
		get(p, pd_buf_detach(&u), pd_outdir_path(&p->out, "jenkins/consoleText"), NULL,
		    on_console, 1);
		rc = pd_transfer_run(p->t, p->err);
	}
	free(base);
	return rc;
}

/* A build parameter naming a file under the checkout: relative, each part a plain name. */
static int check_relpath(const char *param, const char *value, struct pd_err *err)
{
	char *copy = pd_xstrdup(value), *save = NULL;
	struct pd_buf shown = PD_BUF_INIT;
	int rc = 0;
	if (!*value || value[0] == '/' || value[strlen(value) - 1] == '/' ||
	    strstr(value, "//")) {
		show(&shown, value);
		rc = pd_err_set(err, PD_EPARSE,
				"refusing the build's %s '%s': not a relative path", param,
				shown.ptr);
	}
	for (char *part = strtok_r(copy, "/", &save); part && !rc;
	     part = strtok_r(NULL, "/", &save))
		rc = check_name(param, part, NAME_MAX_BYTES, "the build's parameters", err);
	pd_buf_release(&shown);
	free(copy);
	return rc;
}

/* Copies <dir>/<sub>/<value>[<suffix>] to perfrunner/<its base name>; *data keeps it. */
static int copy_config(struct plan *p, struct pd_buf *data, const char *param, const char *sub,
		       const char *suffix)
{
	const char *value = pd_jenkins_param(&p->run->jenkins, param);
	struct pd_buf path = PD_BUF_INIT, name = PD_BUF_INIT;
	int rc;
	if (!value) {
		pd_transfer_note(p->t, "the build has no '%s' parameter: no perfrunner/*%s",
				 param, suffix);
		return 0;
	}
	if ((rc = check_relpath(param, value, p->err)) < 0)
		return rc;
	pd_buf_addf(&path, "%s/%s/%s", p->o->perfrunner_dir, sub, value);
	if (!pd_file_exists(path.ptr) && !pd_str_ends_with(value, suffix))
		pd_buf_adds(&path,
			    suffix); /* perfrunner's -c and -t take the name either way */
	if ((rc = pd_file_read(data, path.ptr, p->lim->max_file_bytes, p->err)) < 0)
		goto done;
	/* a buffer of its own: formatting path into itself from its own bytes is undefined
	 * and made "perfrunner/er/er/er" of --perfrunner-dir . */
	pd_buf_addf(&name, "perfrunner/%s", strrchr(path.ptr, '/') + 1);
	rc = pd_outdir_write(&p->out, name.ptr, data->ptr, data->len, p->err);
done:
	pd_buf_release(&path);
	pd_buf_release(&name);
	return rc;
}

/* The spec and the test config from the checkout; the spec's nodes help decode dbs. */
static int copy_perfrunner(struct plan *p)
{
	struct pd_buf spec = PD_BUF_INIT, test = PD_BUF_INIT;
	struct pd_src src;
	int rc;
	if (!p->run->jenkins.present) {
		pd_transfer_note(
			p->t, "--perfrunner-dir needs --jenkins: the build names the configs");
		return 0;
	}
	if ((rc = pd_outdir_mkdir(&p->out, "perfrunner", p->err)) < 0 ||
	    (rc = copy_config(p, &spec, "cluster", "clusters", ".spec")) < 0 ||
	    (rc = copy_config(p, &test, "test_config", "tests", ".test")) < 0)
		goto done;
	if (spec.len) {
		src = (struct pd_src){spec.ptr, spec.len, "the spec", p->lim};
		if ((rc = pd_ini_parse(&p->run->spec, &src, p->err)) < 0 ||
		    (rc = pd_spec_load(p->run, &p->run->spec, p->err)) < 0)
			goto done;
	}
	if (test.len) { /* its [stats] interval is the Prometheus path's step */
		src = (struct pd_src){test.ptr, test.len, "the test config", p->lim};
		rc = pd_ini_parse(&p->run->test, &src, p->err);
	}
done:
	pd_buf_release(&spec);
	pd_buf_release(&test);
	return rc;
}

static int check_opts(const struct pd_plan_opts *o, struct pd_err *err)
{
	struct stat st;
	if (!o->out || !*o->out)
		return pd_err_set(err, PD_EINVAL, "pull needs an output directory: -o RUN_DIR");
	if (lstat(o->out, &st) == 0)
		return pd_err_at(err, PD_EINVAL, o->out, 0, 0,
				 "exists: pull writes a new bundle and replaces nothing");
	if (!o->jenkins && !o->n_snapshots)
		return pd_err_set(err, PD_EINVAL,
				  "pull needs --jenkins URL or --snapshot NAME");
	if (!o->jenkins && !o->perfdb && !o->prometheus)
		return pd_err_set(err, PD_EINVAL, "pull needs --perfdb URL without --jenkins");
	if (o->parallel < 1 || o->parallel > PD_TRANSFER_MAX_PARALLEL)
		return pd_err_set(err, PD_EINVAL, "from 1 to %d parallel transfers",
				  PD_TRANSFER_MAX_PARALLEL);
	if (o->timeout_s < 0 || o->backoff_ms < 0)
		return pd_err_set(err, PD_EINVAL, "a negative timeout or backoff");
	return 0;
}

/* Everything after the options: the phases in order, into the staging directory. */
static int pull(struct plan *p)
{
	const struct pd_plan_opts *o = p->o;
	int rc;
	for (size_t i = 0; i < o->n_snapshots; i++)
		pd_strv_add(&p->run->snapshots, o->snapshots[i]);
	if (o->jenkins && (rc = fetch_jenkins(p)) < 0)
		return rc;
	if (o->perfrunner_dir && (rc = copy_perfrunner(p)) < 0)
		return rc;
	/* the console says which path the run took: the Prometheus path's snapshot line, or
	 * an "HTML report:" line naming perfdb's host; with neither, --prometheus decides */
	if (o->prometheus && (p->run->prometheus || (!p->perfdb && !o->perfdb))) {
		struct pd_prom_pull pp = {p->t, &p->out, p->run, o, p->lim, p->err};
		return pd_prom_pull_run(&pp);
	}
	if (!p->run->snapshots.n)
		return pd_err_at(
			p->err, PD_ENOTFOUND, p->console_shown, 0, 0,
			"no 'HTML report:' line names a snapshot: give --snapshot NAME");
	if (o->perfdb)
		p->perfdb = trim_slashes(o->perfdb);
	if (!p->perfdb)
		return pd_err_set(p->err, PD_EINVAL,
				  "the console names no cbmonitor host: give --perfdb URL");
	if ((rc = pd_outdir_mkdir(&p->out, "perfdb", p->err)) < 0)
		return rc;
	get(p, join_url(p->perfdb, NULL, NULL), list_path(p), NULL, on_dbs, 0);
	return pd_transfer_run(p->t, p->err);
}

/* Renames from to to only while nothing is at to. Without renameat2 (an old kernel, a
 * file system that lacks it), an empty directory of ours claims the name first: rename
 * replaces a directory only while it is empty, so it never replaces what appeared. */
static int move_noreplace(const char *from, const char *to)
{
	int e;
#ifdef RENAME_NOREPLACE
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != ENOSYS && errno != EINVAL)
		return -1;
#endif
	if (mkdir(to, 0700) < 0)
		return -1;
	if (rename(from, to) == 0)
		return 0;
	e = errno;
	rmdir(to); /* ours, if still empty; what someone put there stays */
	errno = e;
	return -1;
}

/* Moves the staged bundle to RUN_DIR. RUN_DIR was absent at the start; whatever is there
 * now (a second pull, a mkdir) is not ours to replace or delete: the bundle stays staged
 * and the message says where. */
static int commit(struct pd_outdir *out, struct pd_err *err)
{
	const char *staged = strrchr(out->tmp, '/');
	int rc = 0;
	staged = staged ? staged + 1 : out->tmp;
	pd_outdir_disown(out); /* the bundle, moved or left staged, is the user's */
	if (move_noreplace(out->tmp, out->final) < 0) {
		if (errno == EEXIST || errno == ENOTEMPTY || errno == ENOTDIR)
			rc = pd_err_at(err, PD_EIO, out->final, 0, 0,
				       "appeared while pulling and is left as it was; the "
				       "pulled bundle is beside it, in %s",
				       staged);
		else
			rc = pd_err_at(err, PD_EIO, out->final, 0, 0,
				       "cannot move the pulled bundle here: %s; it is beside "
				       "it, in %s",
				       strerror(errno), staged);
	}
	pd_outdir_release(out); /* moved or kept: nothing to remove either way */
	return rc;
}

static void report_finished(struct plan *p)
{
	struct pd_transfer_progress s = pd_transfer_stats(p->t);
	s.finished = 1;
	if (p->o->progress)
		p->o->progress(p->o->ctx, &s);
}

int pd_plan_run(const struct pd_plan_opts *o, struct pd_err *err)
{
	struct plan p = {.o = o, .lim = o->lim ? o->lim : &pd_limits_default, .err = err};
	int rc;
	if ((rc = check_opts(o, err)) < 0)
		return rc;
	p.topts = (struct pd_transfer_opts){.parallel = o->parallel,
					    .retries = o->retries,
					    .timeout_s = o->timeout_s,
					    .backoff_ms = o->backoff_ms,
					    .max_bytes = p.lim->max_file_bytes,
					    .max_total_bytes = p.lim->max_bundle_bytes,
					    .netrc = o->netrc,
					    .netrc_file = o->netrc_file,
					    .progress = o->progress,
					    .note = o->note,
					    .ctx = o->ctx};
	if ((rc = pd_transfer_new(&p.t, &p.topts, err)) < 0)
		return rc;
	p.run = pd_run_new(o->out);
	if ((rc = pd_outdir_begin(&p.out, o->out, 0, err)) == 0) {
		rc = pull(&p);
		report_finished(&p);
		pd_transfer_free(p.t); /* closes the files of transfers cut short */
		p.t = NULL;
		if (rc < 0)
			pd_outdir_abort(&p.out);
		else
			rc = commit(&p.out, err);
	}
	pd_transfer_free(p.t);
	pd_run_free(p.run);
	free(p.perfdb);
	free(p.console_shown);
	return rc;
}
