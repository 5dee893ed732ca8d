#include "bundle.h"
#include "console.h"
#include "dbname.h"
#include "ini.h"
#include "jenkins.h"
#include "perfdb.h"
#include "prom.h"
#include "tree.h"
#include "../core/buf.h"
#include "../core/metric.h"
#include "../core/xalloc.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One loader's state: the run being filled, the bundle's files, and the path (relative
 * to the bundle root) of the file at hand. */
struct loader {
	struct pd_run *run;
	const struct pd_limits *lim;
	struct pd_tree *tree;
	struct pd_buf rel;
};

/* Sets l->rel to "<a>[/<b>]" and returns it. */
static const char *join(struct loader *l, const char *a, const char *b)
{
	pd_buf_truncate(&l->rel, 0);
	pd_buf_adds(&l->rel, a);
	if (b)
		pd_buf_addf(&l->rel, "/%s", b);
	return l->rel.ptr;
}

/* Reads the file at l->rel and describes it as src. */
static int slurp(struct loader *l, struct pd_src *src, struct pd_err *err)
{
	return pd_tree_read(src, l->tree, l->rel.ptr, err);
}

/* 1 when rel is of kind want, 0 when not; a link, FIFO or unreadable entry is an error
 * rather than absent (an unreadable jenkins/ is said, never taken for a missing one). */
static int is_kind(struct loader *l, enum pd_tree_kind want, const char *rel,
		   struct pd_err *err)
{
	enum pd_tree_kind kind;
	int rc = pd_tree_kind(&kind, l->tree, rel, err);
	return rc < 0 ? rc : kind == want;
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
	if ((rc = is_kind(l, PD_TREE_DIR, join(l, "perfrunner", NULL), err)) <= 0) {
		if (rc < 0)
			return rc;
		pd_strv_addf(&l->run->notes, "no perfrunner/ configs: node roles unknown, "
					     "event time not from config");
		return 0;
	}
	if ((rc = pd_tree_list(&names, l->tree, l->rel.ptr, err)) < 0)
		goto done;
	/* the .test first: its [cluster] initial_nodes says which servers of the spec are
	 * the run's cluster */
	if ((test = pick(l, &names, ".test"))) {
		if ((rc = load_ini(l, &l->run->test, test, err)) < 0 ||
		    (rc = pd_testcfg_load(&l->run->cfg, &l->run->test, err)) < 0)
			goto done;
	} else {
		pd_strv_addf(
			&l->run->notes,
			"no perfrunner/*.test: the event time cannot come from the config");
	}
	if ((spec = pick(l, &names, ".spec"))) {
		if ((rc = load_ini(l, &l->run->spec, spec, err)) < 0 ||
		    (rc = pd_spec_load(l->run, &l->run->spec, err)) < 0)
			goto done;
	} else {
		pd_strv_addf(&l->run->notes, "no perfrunner/*.spec: node roles unknown");
	}
done:
	pd_strv_free(&names);
	return rc;
}

/* jenkins/: build.json, else build.xml; a jenkins/ that cannot be read is an error. */
static int load_jenkins(struct loader *l, struct pd_err *err)
{
	struct pd_src src;
	int rc;
	if ((rc = is_kind(l, PD_TREE_FILE, join(l, "jenkins", "build.json"), err)) != 0) {
		if (rc < 0 || (rc = slurp(l, &src, err)) < 0)
			return rc;
		return pd_jenkins_json_parse(&l->run->jenkins, &src, err);
	}
	if ((rc = is_kind(l, PD_TREE_FILE, join(l, "jenkins", "build.xml"), err)) != 0) {
		if (rc < 0 || (rc = slurp(l, &src, err)) < 0)
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
	int rc = is_kind(l, PD_TREE_FILE, join(l, "jenkins", "consoleText"), err);
	if (rc <= 0) {
		if (rc == 0)
			pd_strv_addf(&l->run->notes,
				     "no jenkins/consoleText: no console events or KPIs");
		return rc;
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
	s->index = d->index ? pd_xstrdup(d->index) : NULL;
	s->scope = d->scope;
	s->unit = pd_metric_unit(s->collector, s->metric);
	return s;
}

/* Plausible sample times (docs/reference.md "Limits"), epoch ms: from 2000-01-01 to 2100-01-01
 * UTC. A time outside is an input error: it would stretch every grid sized by the phase's span.
 */
#define MIN_MS 946684800000LL
#define MAX_MS 4102444800000LL

/* The integer of the digits from p, negated when neg, in *v, *after past them; 0 when it
 * overflows int64 (summed on the negative side, which holds INT64_MIN). */
static int read_digits(const char *p, const char *end, int neg, const char **after, int64_t *v)
{
	int ok = 1;
	for (*v = 0; p < end && *p >= '0' && *p <= '9'; p++) {
		if (*v < (INT64_MIN + (*p - '0')) / 10)
			ok = 0;
		else
			*v = *v * 10 - (*p - '0');
	}
	*after = p;
	if (ok && !neg && *v == INT64_MIN)
		ok = 0;
	else if (ok && !neg)
		*v = -*v;
	return ok;
}

/* The offset of the first integer token of src that is raw (raw_unit: the file's own
 * unit) or that reads as epoch ms ms (pd_epoch_to_ms); src->len when none is (a .data
 * of deltas holds no sample's time). */
static size_t locate(const struct pd_src *src, int64_t raw, int raw_unit, int64_t ms)
{
	const char *p = src->data, *end = src->data + src->len, *after;
	for (; p < end; p++) {
		int64_t v, as_ms;
		if (*p < '0' || *p > '9' || (p > src->data && strchr("0123456789.", p[-1])))
			continue;
		int neg = p > src->data && p[-1] == '-',
		    ok = read_digits(p, end, neg, &after, &v);
		if (ok && (raw_unit ? v == raw : pd_epoch_to_ms(v, &as_ms) && as_ms == ms))
			return (size_t)(p - src->data - neg);
		p = after - 1;
	}
	return src->len;
}

/* Refuses a series whose first or last sample (they are sorted) is out of the range;
 * t_ms holds raw values in units of 1/scale s when raw_unit, else epoch ms. */
static int check_range(const struct pd_series *s, const struct pd_src *src, int raw_unit,
		       int64_t lo, int64_t hi, struct pd_err *err)
{
	int64_t bad = s->t_ms[0] < lo ? s->t_ms[0] : s->t_ms[s->n - 1];
	size_t off;
	if (s->t_ms[0] >= lo && s->t_ms[s->n - 1] < hi)
		return 0;
	off = locate(src, bad, raw_unit, bad);
	if (off < src->len)
		return pd_src_error(err, PD_EPARSE, src, off,
				    "timestamp %lld out of range: expected a time from "
				    "2000-01-01 to 2100-01-01 UTC",
				    (long long)bad);
	return pd_err_at(err, PD_EPARSE, src->path, 0, 0,
			 "timestamp out of range: a sample at %lld ms, expected a time from "
			 "2000-01-01 to 2100-01-01 UTC",
			 (long long)bad);
}

/* perfdb's API gives epoch ms; a body in s, us or ns (an older perfdb, a hand-made
 * file) is rescaled by the median sample's size, and the run says so. The median, not the
 * first: a ms series from before 2001-09-09 (under 10^12), or one with a seconds stamp
 * mixed in, would read as seconds and blame a valid sample; by the median the odd sample
 * is the one out of range, and a lone far one in range is a gap at either end. The range
 * is checked in the file's own unit first, so that the rescaling cannot overflow. */
static int fix_time_unit(struct loader *l, struct pd_series *s, const struct pd_src *src,
			 struct pd_err *err)
{
	static const char *const units[] = {"s", "ms", "us", "ns"};
	int64_t mid = s->n ? s->t_ms[(s->n - 1) / 2] : 0, ms, mul = 1, div = 1;
	int unit = 1, rc;
	if (!s->n)
		return 0;
	if (!(mid > 1000000000000LL && mid <= 1000000000000000LL) && !pd_epoch_to_ms(mid, &ms))
		return pd_src_error(err, PD_EPARSE, src, locate(src, mid, 1, mid),
				    "expected epoch timestamps, found %lld", (long long)mid);
	if (!(mid > 1000000000000LL && mid <= 1000000000000000LL))
		unit = mid <= 1000000000000LL ? 0 : mid <= 1000000000000000000LL ? 2 : 3;
	if (unit == 0)
		mul = 1000;
	else
		div = unit == 1 ? 1 : unit == 2 ? 1000 : 1000000;
	if ((rc = check_range(s, src, 1, MIN_MS / mul * div, MAX_MS / mul * div, err)) < 0)
		return rc;
	if (unit == 1)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		s->t_ms[i] = s->t_ms[i] * mul / div;
	pd_strv_addf(&l->run->notes, "%s: timestamps in %s, read as ms", l->rel.ptr,
		     units[unit]);
	return 0;
}

/* A .json body is perfdb's [[ts, v], ...] or seriesly's {"ts": [v]}: the first byte says. */
static int parse_json(struct loader *l, struct pd_series *s, struct pd_err *err)
{
	struct pd_src src;
	int rc = slurp(l, &src, err);
	if (rc < 0)
		return rc;
	const char *p = src.data, *end = src.data + src.len;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if (p < end && *p == '{')
		rc = pd_seriesly_parse(s, &src, err);
	else
		rc = pd_perfdb_json_parse(s, &src, err);
	return rc < 0 ? rc : fix_time_unit(l, s, &src, err);
}

/* The .data.1 file's first time: epoch ms in the plausible range, checked here so that
 * the error names this file, not the .data whose every time it shifts. */
static int first_in_range(int64_t first, const struct pd_src *src, struct pd_err *err)
{
	if (first >= MIN_MS && first < MAX_MS)
		return 0;
	return pd_src_error(err, PD_EPARSE, src, locate(src, first, 1, first),
			    "timestamp %lld out of range: expected the first time in epoch ms, "
			    "from 2000-01-01 to 2100-01-01 UTC",
			    (long long)first);
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
	pd_buf_addf(&l->rel, "/%s.1", file);
	/* perfdb's own layout has absolute timestamps and no .data.1; the delta layout
	 * needs it (its first line's timestamp is 0) */
	if ((rc = is_kind(l, PD_TREE_FILE, l->rel.ptr, err)) != 0 &&
	    (rc < 0 || (rc = slurp(l, &src, err)) < 0 ||
	     (rc = pd_perfdb_first_ts_parse(&first, &src, err)) < 0 ||
	     (rc = first_in_range(first, &src, err)) < 0))
		return rc;
	join(l, "perfdb", db);
	pd_buf_addf(&l->rel, "/%s", file);
	if ((rc = slurp(l, &src, err)) < 0 ||
	    (rc = pd_perfdb_data_parse(s, &src, first, err)) < 0)
		return rc;
	return s->n ? check_range(s, &src, 0, MIN_MS, MAX_MS, err) : 0;
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
		return pd_err_at(err, PD_ELIMIT, pd_tree_path(l->tree, join(l, "perfdb", db)),
				 0, 0, "more than %zu series in the run (see --max-series)",
				 l->lim->max_series);
	s = new_series(db, file, strlen(file) - 5, d); /* ".json" and ".data" are 5 bytes */
	join(l, "perfdb", db);
	pd_buf_addf(&l->rel, "/%s", file);
	rc = json ? parse_json(l, s, err) : parse_data(l, s, db, file, err);
	if (rc < 0) {
		pd_series_free(s);
		return rc;
	}
	pd_run_add_series(l->run, s);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A series given twice, as <metric>.json and as <metric>.data: which copy is the series
 * cannot be told, so the bundle is refused naming both files (files sorted). */
static int given_twice(struct loader *l, const char *db, const struct pd_strv *files,
		       struct pd_err *err)
{
	struct pd_buf twin = PD_BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < files->n && rc == 0; i++) {
		const char *f = files->v[i];
		if (!pd_str_ends_with(f, ".json"))
			continue;
		pd_buf_truncate(&twin, 0);
		pd_buf_add(&twin, f, strlen(f) - 5);
		pd_buf_adds(&twin, ".data");
		const char *key = twin.ptr;
		if (bsearch(&key, files->v, files->n, sizeof(*files->v), cmp_str))
			rc = pd_err_at(err, PD_EPARSE,
				       pd_tree_path(l->tree, join(l, "perfdb", db)), 0, 0,
				       "one series given twice, as %s and as %s: which copy to "
				       "read cannot be told",
				       f, twin.ptr);
	}
	pd_buf_release(&twin);
	return rc;
}

static int load_db(struct loader *l, const struct pd_dbindex *ix, const char *db,
		   struct pd_err *err)
{
	struct pd_strv files = {0};
	struct pd_dbname d = {0};
	struct pd_err why = PD_ERR_INIT;
	int rc = 0;
	if (pd_dbname_decode_ix(&d, db, ix, &why) < 0) {
		pd_strv_add(&l->run->undecoded, why.msg); /* the message names the db */
		return 0;
	}
	if (pd_dbname_other_cluster(l->run, &d)) {
		pd_strv_add(&l->run->other_dbs, db);
		pd_dbname_clear(&d);
		return 0;
	}
	if ((rc = pd_tree_list(&files, l->tree, join(l, "perfdb", db), err)) == 0 &&
	    (rc = given_twice(l, db, &files, err)) == 0)
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
	if ((rc = is_kind(l, PD_TREE_DIR, join(l, "perfdb", NULL), err)) <= 0)
		return rc < 0 ? rc
			      : pd_err_at(err, PD_EPARSE, l->run->dir, 0, 0,
					  "not a run bundle: expected a perfdb/ directory");
	if ((rc = pd_tree_list(&dbs, l->tree, l->rel.ptr, err)) < 0)
		goto done;
	pd_dbname_run_snapshots(l->run, &dbs);
	struct pd_dbindex *ix = pd_dbname_run_index(l->run);
	for (size_t i = 0; i < dbs.n && rc == 0; i++)
		rc = load_db(l, ix, dbs.v[i], err);
	pd_dbindex_free(ix);
	if (l->run->other_dbs.n)
		pd_strv_addf(&l->run->notes,
			     "%zu perfdb databases of the spec's other clusters kept apart "
			     "(first: %s)",
			     l->run->other_dbs.n, l->run->other_dbs.v[0]);
	if (rc == 0 && l->run->n_series == 0)
		rc = pd_err_at(
			err, PD_EPARSE, pd_tree_path(l->tree, join(l, "perfdb", NULL)), 0, 0,
			"no series: expected perfdb/<db>/<metric>.json of a known snapshot");
done:
	pd_strv_free(&dbs);
	return rc;
}

/* cbmonitor2/snapshot.json (optional): the snapshot's id when the console has none, and
 * its window and phases as config-manager stamped them, for the notes. */
static int load_cbmonitor2(struct loader *l, struct pd_err *err)
{
	struct pd_prom_snapshot snap;
	struct pd_src src;
	int rc = is_kind(l, PD_TREE_FILE, join(l, "cbmonitor2", "snapshot.json"), err);
	if (rc <= 0 || (rc = slurp(l, &src, err)) < 0 ||
	    (rc = pd_prom_snapshot_parse(&snap, &src, err)) < 0)
		return rc;
	if (!l->run->snapshots.n)
		pd_strv_add(&l->run->snapshots, snap.id);
	else if (strcmp(l->run->snapshots.v[0], snap.id))
		pd_strv_addf(&l->run->notes,
			     "cbmonitor2/snapshot.json is snapshot %s, the console's is %s",
			     snap.id, l->run->snapshots.v[0]);
	for (size_t i = 0; i < snap.phases.n; i++)
		pd_strv_addf(&l->run->notes, "cbmonitor2 phase (label start_ms end_ms): %s",
			     snap.phases.v[i]);
	pd_prom_snapshot_free(&snap);
	return 0;
}

/* prometheus/<name>.json: query_range answers (docs/reference.md, "Prometheus bundles"). */
static int load_prometheus(struct loader *l, struct pd_err *err)
{
	struct pd_strv files = {0};
	struct pd_prom *p = pd_prom_new();
	struct pd_src src;
	int rc = pd_tree_list(&files, l->tree, join(l, "prometheus", NULL), err);
	l->run->prometheus = 1;
	for (size_t i = 0; i < files.n && rc == 0; i++) {
		if (!pd_str_ends_with(files.v[i], ".json")) {
			pd_strv_addf(&l->run->notes,
				     "prometheus/%s ignored: not a .json answer", files.v[i]);
			continue;
		}
		if ((rc = is_kind(l, PD_TREE_FILE, join(l, "prometheus", files.v[i]), err)) ==
		    0)
			continue;
		if (rc > 0 && (rc = slurp(l, &src, err)) == 0)
			rc = pd_prom_matrix_parse(p, &src, err);
	}
	if (rc == 0 && (rc = load_cbmonitor2(l, err)) == 0) {
		pd_strv_addf(
			&l->run->notes,
			"monitoring: perfrunner's Prometheus path (snapshot %s): no net, "
			"n1ql_stats, ns_server_system or active_tasks collector; per-node "
			"query rates, CPU and process series come from Couchbase's scraped "
			"series (docs/reference.md)",
			l->run->snapshots.n ? l->run->snapshots.v[0] : "unknown");
		pd_prom_to_run(l->run, p);
	}
	if (rc == 0 && l->run->n_series == 0)
		rc = pd_err_at(
			err, PD_EPARSE, pd_tree_path(l->tree, join(l, "prometheus", NULL)), 0,
			0, "no series: expected prometheus/<name>.json query_range answers");
	pd_prom_free(p);
	pd_strv_free(&files);
	return rc;
}

/* Which monitoring path the bundle holds: prometheus/ or perfdb/. */
static int load_series(struct loader *l, struct pd_err *err)
{
	int rc = is_kind(l, PD_TREE_DIR, join(l, "prometheus", NULL), err);
	if (rc < 0)
		return rc;
	return rc ? load_prometheus(l, err) : load_perfdb(l, err);
}

/* A node of the spec with no series at all: said, since silence would look like data.
 * The series' servers are sorted once and searched, so that 20 000 nodes with a series
 * each take milliseconds rather than nodes x series comparisons. */
static void note_silent_nodes(struct pd_run *run)
{
	const char **servers = pd_xcalloc(run->n_series + 1, sizeof(*servers));
	size_t n = 0;
	for (size_t k = 0; k < run->n_series; k++)
		if (run->series[k]->server)
			servers[n++] = run->series[k]->server;
	qsort(servers, n, sizeof(*servers), cmp_str);
	for (size_t i = 0; i < run->n_nodes; i++) {
		const char *host = run->nodes[i].host;
		if (!bsearch(&host, servers, n, sizeof(*servers), cmp_str))
			pd_strv_addf(&run->notes, "%s (%s) is in the spec but has no series",
				     run->nodes[i].host, run->nodes[i].role);
	}
	free(servers);
}

/* Without a spec, the nodes the console's rebalances name (knownNodes, in their order:
 * perfrunner's servers), the ejected ones last in their role as perfrunner removes the
 * last node of a role; their roles come from infer_roles once the series are read. */
static void nodes_from_console(struct pd_run *run)
{
	for (int ejected = 0; ejected < 2; ejected++)
		for (size_t i = 0; i < run->n_events; i++) {
			const struct pd_event *e = &run->events[i];
			for (size_t k = 0; e->kind == PD_EV_REBALANCE_START && k < e->known.n;
			     k++) {
				const char *h = e->known.v[k];
				int out = pd_strv_find(&e->ejected, h) >= 0;
				if (out == ejected && !pd_run_node(run, h))
					pd_run_add_node(run, h, strlen(h));
			}
		}
}

/* The services a node's processes show (atop, metrics_rest_api_processes): cbq-engine
 * n1ql, indexer index, memcached alone kv; 0 when none shows. */
static unsigned services_of(const struct pd_run *run, const char *host)
{
	unsigned svc = 0;
	int memcached = 0;
	for (size_t i = 0; i < run->n_series; i++) {
		const struct pd_series *s = run->series[i];
		if (!s->server || strcmp(s->server, host) ||
		    (strcmp(s->collector, "atop") &&
		     strcmp(s->collector, "metrics_rest_api_processes")))
			continue;
		svc |= !strncmp(s->metric, "cbq-engine_", 11) ? PD_SVC_N1QL : 0;
		svc |= !strncmp(s->metric, "indexer_", 8) ? PD_SVC_INDEX : 0;
		memcached |= !strncmp(s->metric, "memcached_", 10);
	}
	return svc ? svc : memcached ? PD_SVC_KV : 0;
}

/* The roles of the nodes nodes_from_console found, said as inferred. */
static void infer_roles(struct pd_run *run)
{
	struct pd_buf b = PD_BUF_INIT;
	for (size_t i = 0; i < run->n_nodes; i++) {
		struct pd_node *n = &run->nodes[i];
		n->services = services_of(run, n->host);
		n->first = n->services & PD_SVC_N1QL ? PD_SVC_N1QL : n->services & -n->services;
	}
	pd_run_assign_roles(run);
	run->roles_inferred = 1;
	for (size_t i = 0; i < run->n_nodes; i++)
		pd_buf_addf(&b, "%s%s %s", i ? ", " : "", run->nodes[i].host,
			    run->nodes[i].role);
	pd_strv_addf(&run->notes,
		     "no spec: the nodes come from the console's rebalance and their roles are "
		     "inferred from the processes they run (cbq-engine: n1ql, indexer: index, "
		     "memcached alone: kv): %s",
		     b.ptr);
	pd_buf_release(&b);
}

static int load_tree(struct pd_run *run, const struct pd_limits *lim, struct pd_err *err)
{
	struct loader l = {run, lim, NULL, PD_BUF_INIT};
	int rc;
	if ((rc = pd_tree_open(&l.tree, run->dir, lim, err)) == 0 &&
	    (rc = load_configs(&l, err)) == 0 && (rc = load_jenkins(&l, err)) == 0 &&
	    (rc = load_console(&l, err)) == 0) {
		int no_spec = run->n_nodes == 0;
		if (no_spec)
			nodes_from_console(run);
		rc = load_series(&l, err);
		if (rc == 0 && no_spec && run->n_nodes)
			infer_roles(run);
	}
	if (rc == 0) {
		pd_run_sort_series(run);
		note_silent_nodes(run);
	}
	pd_tree_free(l.tree);
	pd_buf_release(&l.rel);
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
	if ((rc = load_tree(run, lim, err)) < 0) {
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

int pd_bundle_load_many(struct pd_run **runs, const char *const *paths, size_t n,
			const struct pd_limits *lim, struct pd_err *err)
{
	struct load_job *jobs = pd_xcalloc(n + 1, sizeof(*jobs));
	pthread_t *threads = pd_xcalloc(n + 1, sizeof(*threads));
	int *threaded = pd_xcalloc(n + 1, sizeof(*threaded)), rc = 0;
	pd_jenkins_xml_init();
	for (size_t i = 0; i < n; i++) {
		jobs[i] = (struct load_job){NULL, paths[i], lim, PD_ERR_INIT, 0};
		threaded[i] =
			i + 1 < n && pthread_create(&threads[i], NULL, load_job, &jobs[i]) == 0;
	}
	for (size_t i = 0; i < n; i++) /* the last here, while the threads read the others */
		if (!threaded[i])
			load_job(&jobs[i]);
	for (size_t i = 0; i < n; i++)
		if (threaded[i])
			pthread_join(threads[i], NULL);
	for (size_t i = 0; i < n && rc == 0; i++)
		if (jobs[i].rc < 0)
			*err = jobs[i].err, rc = jobs[i].rc;
	for (size_t i = 0; i < n; i++) {
		if (rc < 0)
			pd_run_free(jobs[i].run);
		runs[i] = rc < 0 ? NULL : jobs[i].run;
	}
	free(jobs), free(threads), free(threaded);
	return rc;
}

int pd_bundle_load_pair(struct pd_run **base, struct pd_run **target, const char *base_path,
			const char *target_path, const struct pd_limits *lim,
			struct pd_err *err)
{
	const char *paths[] = {base_path, target_path};
	struct pd_run *runs[2];
	int rc = pd_bundle_load_many(runs, paths, 2, lim, err);
	*base = runs[0];
	*target = runs[1];
	return rc;
}
