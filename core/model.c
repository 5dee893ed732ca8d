#include "model.h"
#include "buf.h"
#include "metric.h"
#include "xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pd_strv_addn(struct pd_strv *sv, const char *s, size_t len)
{
	PD_GROW(sv->v, sv->cap, sv->n + 1);
	sv->v[sv->n++] = pd_xstrndup(s, len);
}

void pd_strv_add(struct pd_strv *sv, const char *s)
{
	pd_strv_addn(sv, s, strlen(s));
}

void pd_strv_addf(struct pd_strv *sv, const char *fmt, ...)
{
	struct pd_buf b = PD_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	pd_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	PD_GROW(sv->v, sv->cap, sv->n + 1);
	sv->v[sv->n++] = pd_buf_detach(&b);
}

long pd_strv_find(const struct pd_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return (long)i;
	return -1;
}

void pd_strv_free(struct pd_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void pd_strv_sort(struct pd_strv *sv)
{
	if (sv->n > 1)
		qsort(sv->v, sv->n, sizeof(*sv->v), cmp_strp);
}

void pd_strv_sort_unique(struct pd_strv *sv)
{
	size_t k = 0;
	if (sv->n < 2)
		return;
	pd_strv_sort(sv);
	for (size_t i = 1; i < sv->n; i++) {
		if (!strcmp(sv->v[i], sv->v[k]))
			free(sv->v[i]);
		else
			sv->v[++k] = sv->v[i];
	}
	sv->n = k + 1;
}

static const char *const service_names[PD_SVC_COUNT] = {"kv",       "n1ql", "index", "fts",
							"eventing", "cbas", "backup"};

const char *pd_service_name(unsigned bit)
{
	for (int i = 0; i < PD_SVC_COUNT; i++)
		if (bit == 1u << i)
			return service_names[i];
	return NULL;
}

unsigned pd_service_parse(const char *name, size_t len)
{
	for (int i = 0; i < PD_SVC_COUNT; i++)
		if (strlen(service_names[i]) == len && !memcmp(service_names[i], name, len))
			return 1u << i;
	if (len == 9 && !memcmp(name, "analytics", 9))
		return PD_SVC_CBAS;
	return 0;
}

const char *pd_scope_name(enum pd_scope s)
{
	static const char *const names[] = {
		[PD_SCOPE_CLUSTER] = "cluster", [PD_SCOPE_BUCKET] = "bucket",
		[PD_SCOPE_SERVER] = "server",   [PD_SCOPE_BUCKET_SERVER] = "bucket+server",
		[PD_SCOPE_INDEX] = "index",     [PD_SCOPE_CLIENT] = "client"};
	return names[s];
}

const char *pd_unit_name(enum pd_unit u)
{
	static const char *const names[] = {"", "%", "B", "count", "/s", "B/s", "ms"};
	return names[u];
}

void pd_unit_add(struct pd_buf *out, double v, enum pd_unit u)
{
	if (u == PD_UNIT_BYTES && fabs(v) >= 1 << 30)
		pd_buf_addf(out, "%.2f GiB", v / (1 << 30));
	else if (u == PD_UNIT_BYTES)
		pd_buf_addf(out, "%.1f MiB", v / (1 << 20));
	else if (u == PD_UNIT_PERCENT)
		pd_buf_addf(out, "%.1f%%", v);
	else if (u == PD_UNIT_PER_SEC || u == PD_UNIT_BYTES_PER_SEC || u == PD_UNIT_MS)
		pd_buf_addf(out, fabs(v) < 100 ? "%.2f %s" : "%.0f %s", v, pd_unit_name(u));
	else
		pd_buf_addf(out, fabs(v) < 100 ? "%.1f" : "%.0f", v);
}

int pd_epoch_to_ms(int64_t ts, int64_t *ms)
{
	if (ts > 1000000000000000000LL)
		*ms = ts / 1000000;
	else if (ts > 1000000000000000LL)
		*ms = ts / 1000;
	else if (ts > 1000000000000LL)
		*ms = ts;
	else if (ts > 1000000000LL)
		*ms = ts * 1000;
	else
		return 0;
	return 1;
}

void pd_model_series_reserve(struct pd_series *s, size_t need)
{
	if (need <= s->cap)
		return;
	s->t_ms = pd_xrealloc(s->t_ms, need * sizeof(*s->t_ms));
	s->v = pd_xrealloc(s->v, need * sizeof(*s->v));
	s->cap = need;
}

void pd_series_add(struct pd_series *s, int64_t t_ms, double v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap;
		PD_GROW(s->t_ms, cap, s->n + 1);
		s->v = pd_xrealloc(s->v, cap * sizeof(*s->v));
		s->cap = cap;
	}
	s->t_ms[s->n] = t_ms;
	s->v[s->n] = v;
	s->n++;
}

/* Insertion order breaks ties so that "the last one wins" means the last one read. */
struct sample {
	int64_t t;
	size_t order;
	double v;
};

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static size_t count_unsorted(const struct pd_series *s)
{
	size_t k = 0;
	for (size_t i = 1; i < s->n; i++)
		k += s->t_ms[i] < s->t_ms[i - 1];
	return k;
}

static void dedup_sorted(struct pd_series *s)
{
	size_t w = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (w && s->t_ms[w - 1] == s->t_ms[i]) {
			s->v[w - 1] = s->v[i];
			s->n_dup++;
			continue;
		}
		s->t_ms[w] = s->t_ms[i];
		s->v[w] = s->v[i];
		w++;
	}
	s->n = w;
}

/* Copies s's samples (sorted) to req_* when dedup_sorted will drop some. */
static void keep_requests(struct pd_series *s)
{
	size_t i = 1;
	while (i < s->n && s->t_ms[i] != s->t_ms[i - 1])
		i++;
	if (i >= s->n)
		return;
	free(s->req_t_ms);
	free(s->req_v);
	s->req_t_ms = pd_xmalloc(s->n * sizeof(*s->req_t_ms));
	s->req_v = pd_xmalloc(s->n * sizeof(*s->req_v));
	memcpy(s->req_t_ms, s->t_ms, s->n * sizeof(*s->req_t_ms));
	memcpy(s->req_v, s->v, s->n * sizeof(*s->req_v));
	s->n_req = s->n;
}

void pd_series_normalize(struct pd_series *s)
{
	s->n_unsorted = count_unsorted(s);
	if (s->n_unsorted) {
		struct sample *tmp = pd_xmalloc(s->n * sizeof(*tmp));
		for (size_t i = 0; i < s->n; i++)
			tmp[i] = (struct sample){s->t_ms[i], i, s->v[i]};
		qsort(tmp, s->n, sizeof(*tmp), cmp_sample);
		for (size_t i = 0; i < s->n; i++) {
			s->t_ms[i] = tmp[i].t;
			s->v[i] = tmp[i].v;
		}
		free(tmp);
	}
	if (pd_metric_per_request(s->collector))
		keep_requests(s);
	dedup_sorted(s);
}

size_t pd_model_requests(const struct pd_series *s, const int64_t **t, const double **v)
{
	*t = s->req_t_ms ? s->req_t_ms : s->t_ms;
	*v = s->req_v ? s->req_v : s->v;
	return s->req_t_ms ? s->n_req : s->n;
}

void pd_series_free(struct pd_series *s)
{
	if (!s)
		return;
	free(s->db);
	free(s->collector);
	free(s->metric);
	free(s->bucket);
	free(s->server);
	free(s->index);
	free(s->t_ms);
	free(s->v);
	free(s->req_t_ms);
	free(s->req_v);
	free(s);
}

const char *pd_event_kind_name(enum pd_event_kind k)
{
	static const char *const names[] = {
		"hard-failover",      "graceful-failover", "rebalance-start",
		"rebalance-progress", "rebalance-end",     "snapshot",
		"collectors-start",   "collectors-stop",   "run-stopped"};
	return names[k];
}

const char *pd_run_build(const struct pd_run *run)
{
	const char *v =
		run->jenkins.present ? pd_jenkins_param(&run->jenkins, "version") : NULL;
	for (size_t i = 0; !v && i < run->n_kpis; i++)
		v = run->kpis[i].build;
	return v;
}

const char *pd_run_snapshot(const struct pd_run *run)
{
	return run->snapshots.n ? run->snapshots.v[0] : NULL;
}

const char *pd_jenkins_param(const struct pd_jenkins *j, const char *name)
{
	for (size_t i = 0; i < j->n_params; i++)
		if (!strcmp(j->params[i].name, name))
			return j->params[i].value;
	return NULL;
}

static void jenkins_free(struct pd_jenkins *j)
{
	free(j->path);
	free(j->klass);
	free(j->job);
	free(j->id);
	free(j->result);
	free(j->url);
	free(j->display_name);
	free(j->full_display_name);
	for (size_t i = 0; i < j->n_params; i++) {
		free(j->params[i].name);
		free(j->params[i].value);
	}
	free(j->params);
	memset(j, 0, sizeof(*j));
}

/* The entry of section.key by the index (keys are unique per section: strict), or NULL. */
static const struct pd_ini_entry *ini_find(const struct pd_ini *ini, const char *section,
					   const char *key, size_t key_len)
{
	struct pd_buf k = PD_BUF_INIT;
	pd_buf_add(&k, section, strlen(section) + 1);
	pd_buf_add(&k, key, key_len);
	size_t i = pd_strmap_get(&ini->index, k.ptr, k.len);
	pd_buf_release(&k);
	return i == PD_STRMAP_NONE ? NULL : &ini->e[i];
}

const struct pd_ini_entry *pd_ini_lookup(const struct pd_ini *ini, const char *section,
					 const char *key, size_t key_len)
{
	/* [DEFAULT] gives every section's defaults */
	const struct pd_ini_entry *e = ini_find(ini, section, key, key_len);
	return e ? e : ini_find(ini, "DEFAULT", key, key_len);
}

const char *pd_ini_get(const struct pd_ini *ini, const char *section, const char *key)
{
	const struct pd_ini_entry *e = pd_ini_lookup(ini, section, key, strlen(key));
	return e ? e->value : NULL;
}

void pd_ini_free(struct pd_ini *ini)
{
	for (size_t i = 0; i < ini->n; i++) {
		free(ini->e[i].section);
		free(ini->e[i].key);
		free(ini->e[i].value);
		free(ini->e[i].bad_interp);
		free(ini->e[i].lines);
	}
	free(ini->e);
	free(ini->path);
	pd_strmap_free(&ini->index);
	memset(ini, 0, sizeof(*ini));
}

struct pd_run *pd_run_new(const char *dir)
{
	struct pd_run *run = pd_xcalloc(1, sizeof(*run));
	run->dir = pd_xstrdup(dir ? dir : "");
	return run;
}

static void testcfg_free(struct pd_testcfg *c)
{
	free(c->test);
	free(c->title);
	free(c->shutdown_type);
	memset(c, 0, sizeof(*c));
}

static void events_free(struct pd_run *run)
{
	for (size_t i = 0; i < run->n_events; i++) {
		free(run->events[i].node);
		pd_strv_free(&run->events[i].known);
		pd_strv_free(&run->events[i].ejected);
	}
	free(run->events);
	for (size_t i = 0; i < run->n_kpis; i++) {
		free(run->kpis[i].metric);
		free(run->kpis[i].build);
		pd_strv_free(&run->kpis[i].snapshots);
		free(run->kpis[i].window);
	}
	free(run->kpis);
	for (size_t i = 0; i < run->n_windows; i++)
		free(run->windows[i].label);
	free(run->windows);
}

void pd_run_free(struct pd_run *run)
{
	if (!run)
		return;
	for (size_t i = 0; i < run->n_nodes; i++)
		free(run->nodes[i].host);
	free(run->nodes);
	for (size_t i = 0; i < run->n_series; i++)
		pd_series_free(run->series[i]);
	free(run->series);
	events_free(run);
	pd_strv_free(&run->snapshots);
	pd_strv_free(&run->undecoded);
	pd_strv_free(&run->notes);
	pd_strv_free(&run->spec_n1ql);
	pd_strv_free(&run->clients);
	pd_strv_free(&run->others);
	pd_strv_free(&run->other_hosts);
	pd_strv_free(&run->other_dbs);
	free(run->spec_name);
	jenkins_free(&run->jenkins);
	pd_ini_free(&run->spec);
	pd_ini_free(&run->test);
	testcfg_free(&run->cfg);
	free(run->console_path);
	free(run->console_result);
	free(run->prom_snapshot_url);
	pd_strv_free(&run->prom_collectors);
	free(run->cluster);
	free(run->dir);
	free(run);
}

void pd_run_add_series(struct pd_run *run, struct pd_series *s)
{
	PD_GROW(run->series, run->cap_series, run->n_series + 1);
	run->series[run->n_series++] = s;
	run->n_samples += s->n;
}

struct pd_node *pd_run_add_node(struct pd_run *run, const char *host, size_t host_len)
{
	PD_GROW(run->nodes, run->cap_nodes, run->n_nodes + 1);
	struct pd_node *n = &run->nodes[run->n_nodes++];
	memset(n, 0, sizeof(*n));
	n->host = pd_xstrndup(host, host_len);
	return n;
}

void pd_run_assign_roles(struct pd_run *run)
{
	int rank[PD_SVC_COUNT] = {0};
	for (size_t i = 0; i < run->n_nodes; i++) {
		struct pd_node *n = &run->nodes[i];
		const char *name = pd_service_name(n->first);
		int bit = 0;
		while (name && (1u << bit) != n->first)
			bit++;
		if (name)
			snprintf(n->role, sizeof(n->role), "%s#%d", name, ++rank[bit]);
		else
			snprintf(n->role, sizeof(n->role), "node#%zu", i + 1);
	}
}

struct pd_event *pd_run_add_event(struct pd_run *run, enum pd_event_kind kind)
{
	PD_GROW(run->events, run->cap_events, run->n_events + 1);
	struct pd_event *e = &run->events[run->n_events++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	return e;
}

struct pd_kpi *pd_run_add_kpi(struct pd_run *run)
{
	PD_GROW(run->kpis, run->cap_kpis, run->n_kpis + 1);
	struct pd_kpi *k = &run->kpis[run->n_kpis++];
	memset(k, 0, sizeof(*k));
	return k;
}

const struct pd_node *pd_run_node(const struct pd_run *run, const char *host)
{
	for (size_t i = 0; i < run->n_nodes; i++)
		if (!strcmp(run->nodes[i].host, host))
			return &run->nodes[i];
	return NULL;
}

static int streq_null(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

const struct pd_series *pd_run_series(const struct pd_run *run, const char *collector,
				      const char *metric, const char *server)
{
	for (size_t i = 0; i < run->n_series; i++) {
		const struct pd_series *s = run->series[i];
		if (!strcmp(s->collector, collector) && !strcmp(s->metric, metric) &&
		    streq_null(s->server, server))
			return s;
	}
	return NULL;
}

static int cmp_str_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int cmp_series(const void *a, const void *b)
{
	const struct pd_series *x = *(struct pd_series *const *)a;
	const struct pd_series *y = *(struct pd_series *const *)b;
	int c;
	/* client series last, so that each (collector, metric) of the cluster is one range */
	if ((c = (x->scope == PD_SCOPE_CLIENT) - (y->scope == PD_SCOPE_CLIENT)))
		return c;
	if ((c = strcmp(x->collector, y->collector)) || (c = strcmp(x->metric, y->metric)) ||
	    (c = cmp_str_null(x->bucket, y->bucket)) ||
	    (c = cmp_str_null(x->server, y->server)))
		return c;
	return strcmp(x->db, y->db);
}

void pd_run_sort_series(struct pd_run *run)
{
	if (run->n_series > 1)
		qsort(run->series, run->n_series, sizeof(*run->series), cmp_series);
}
