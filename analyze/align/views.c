#include "views.h"
#include "analyze/opts.h"
#include "scope.h"
#include "core/buf.h"
#include "core/metric.h"
#include "core/xalloc.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The aggregation of a scope of several members: from the unit, CPU (every percentage)
 * averaged, everything else summed (docs/report.md, "Scopes and aggregation"). */
static enum pd_agg agg_of(const struct pd_series *s)
{
	return s->unit == PD_UNIT_PERCENT || s->unit == PD_UNIT_MS ? PD_AGG_MEAN : PD_AGG_SUM;
}

/* A sample's grid point: the nearest, -1 outside the grid. */
static long grid_point(int64_t t_ms, int64_t t0_ms, int64_t step_ms, size_t n)
{
	int64_t d = t_ms - t0_ms;
	int64_t k = (d >= 0 ? d + step_ms / 2 : d - step_ms / 2) / step_ms;
	return k >= 0 && (size_t)k < n ? (long)k : -1;
}

/* A sampled series puts its sample on its grid point (a later one on the same point wins,
 * as it always did); a per-request series (core/metric.h) the mean of every request there
 * (pd_model_requests: in time order, repeated timestamps kept): the last request of each
 * 5 s would stand for all of them. */
void pd_views_fill(double *grid, size_t n, const struct pd_series *s, int64_t t0_ms,
		   int64_t step_ms)
{
	int per_request = s && pd_metric_per_request(s->collector);
	const int64_t *t = s ? s->t_ms : NULL;
	const double *v = s ? s->v : NULL;
	size_t m = !s ? 0 : per_request ? pd_model_requests(s, &t, &v) : s->n;
	long last = -1;
	double count = 0;
	for (size_t i = 0; i < n; i++)
		grid[i] = NAN;
	for (size_t i = 0; i < m; i++) {
		long k = grid_point(t[i], t0_ms, step_ms, n);
		if (k < 0)
			continue;
		count = per_request && k == last ? count + 1 : 1;
		grid[k] = count > 1 ? grid[k] + (v[i] - grid[k]) / count : v[i];
		last = k;
	}
}

/* The nodes of one run that carry one (collector, metric): a contiguous range of the
 * run's sorted series (core/model.c: cluster series first, then by collector and metric),
 * found by binary search; by_server orders its members by server (then position), so
 * that a node's series is found by binary search too. */
struct member {
	const char *server, *index; /* an index-scope series: its bucket and index */
	size_t pos;
};

struct group {
	const struct pd_series *const *s;
	size_t n;
	struct member
		*by_server; /* the members with a server (an index), by it then position */
	size_t n_servers;
};

static int cmp_key(const struct pd_series *s, const char *collector, const char *metric)
{
	int c = s->scope == PD_SCOPE_CLIENT; /* client hosts are no node of the cluster */
	if (c || (c = strcmp(s->collector, collector)))
		return c;
	return strcmp(s->metric, metric);
}

static size_t lower_bound(const struct pd_run *run, const char *collector, const char *metric,
			  int past)
{
	size_t lo = 0, hi = run->n_series;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(run->series[mid], collector, metric);
		if (c < 0 || (past && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct group find_group(const struct pd_run *run, const char *collector,
			       const char *metric)
{
	size_t lo = lower_bound(run, collector, metric, 0);
	size_t hi = lower_bound(run, collector, metric, 1);
	struct group g = {NULL, hi - lo, NULL, 0};
	if (hi > lo)
		g.s = (const struct pd_series *const *)&run->series[lo];
	return g;
}

static int cmp_names(const struct member *x, const char *server, const char *index)
{
	int c = strcmp(x->server, server);
	return c ? c : strcmp(x->index, index);
}

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = cmp_names(x, y->server, y->index);
	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Orders g's members by server (an index-scope one's by bucket and index): group_find
 * then finds a node's (an index's) by binary search. */
static void group_index(struct group *g)
{
	g->by_server = pd_xmalloc((g->n + 1) * sizeof(*g->by_server));
	g->n_servers = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct pd_series *s = g->s[i];
		if (s->server)
			g->by_server[g->n_servers++] = (struct member){s->server, "", i};
		else if (s->index)
			g->by_server[g->n_servers++] =
				(struct member){s->bucket ? s->bucket : "", s->index, i};
	}
	qsort(g->by_server, g->n_servers, sizeof(*g->by_server), cmp_member);
}

/* The first member of g (in the run's order) on server with index ("" for none), or
 * NULL. */
static const struct pd_series *group_find(struct group g, const char *server, const char *index)
{
	size_t lo = 0, hi = g.n_servers;
	while (server && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_names(&g.by_server[mid], server, index) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return server && lo < g.n_servers && !cmp_names(&g.by_server[lo], server, index)
		       ? g.s[g.by_server[lo].pos]
		       : NULL;
}

static const struct pd_series *group_server(struct group g, const char *host)
{
	return group_find(g, host, "");
}

/* Matching: per baseline, the node with the same role as each target node, or NULL. */
struct matching {
	const struct pd_node ***base; /* [baseline][target node] */
	long removed;                 /* target node index of the removed node, or -1 */
	long removed_base;            /* the first baseline's removed node (its event), or -1 */
};

/* The node of run with role, or NULL. */
static const struct pd_node *node_of_role(const struct pd_run *run, const char *role)
{
	for (size_t k = 0; k < run->n_nodes; k++)
		if (!strcmp(run->nodes[k].role, role))
			return &run->nodes[k];
	return NULL;
}

static void note_base_nodes(struct pd_comparison *c, struct matching *m)
{
	const struct pd_run *b = c->base, *t = c->target;
	for (size_t k = 0; k < b->n_nodes; k++) {
		int used = 0;
		for (size_t i = 0; i < t->n_nodes; i++)
			used |= m->base[0][i] == &b->nodes[k];
		if (c->base_event && c->tb_base.node &&
		    !strcmp(b->nodes[k].host, c->tb_base.node))
			m->removed_base = (long)k;
		if (!used)
			pd_strv_addf(&c->matching, "%s: %s only in the baseline%s",
				     b->nodes[k].role, b->nodes[k].host,
				     m->removed_base == (long)k ? " (removed)" : "");
	}
}

static void match_nodes(struct pd_comparison *c, struct matching *m)
{
	const struct pd_run *t = c->target;
	m->base = pd_xcalloc(c->n_bases, sizeof(*m->base));
	m->removed = m->removed_base = -1;
	for (size_t j = 0; j < c->n_bases; j++) {
		m->base[j] = pd_xcalloc(t->n_nodes + 1, sizeof(**m->base));
		for (size_t i = 0; i < t->n_nodes; i++)
			m->base[j][i] = node_of_role(c->bases[j], t->nodes[i].role);
	}
	for (size_t i = 0; i < t->n_nodes; i++) {
		const struct pd_node *tn = &t->nodes[i], *bn = m->base[0][i];
		if (c->event_side > 0 && c->tb_target.node &&
		    !strcmp(tn->host, c->tb_target.node))
			m->removed = (long)i;
		pd_strv_addf(&c->matching, "%s: %s %s %s%s", tn->role, bn ? bn->host : "-",
			     bn ? "matches" : "(none) for", tn->host,
			     m->removed == (long)i ? " (removed)" : "");
	}
	note_base_nodes(c, m);
}

static void matching_free(struct matching *m, size_t n_bases)
{
	for (size_t j = 0; m->base && j < n_bases; j++)
		free(m->base[j]);
	free(m->base);
}

/* "collector/metric" of s (caller frees). */
static char *metric_name(const struct pd_series *s)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, "%s/%s", s->collector, s->metric);
	return pd_buf_detach(&b);
}

int pd_views_match_name(const char *glob, const char *name)
{
	return fnmatch(glob, name, 0) == 0;
}

int pd_views_match(const char *glob, const struct pd_series *s)
{
	char *name = metric_name(s);
	int yes = pd_views_match_name(glob, name);
	free(name);
	return yes;
}

/* Whether s's metric is one the --metrics globs ask for. */
static int wanted(const struct pd_compare_opts *opts, const struct pd_series *s)
{
	char *name = metric_name(s);
	int yes = !opts->n_metric_globs;
	for (size_t i = 0; i < opts->n_metric_globs && !yes; i++)
		yes = pd_views_match_name(opts->metric_globs[i], name);
	free(name);
	return yes;
}

static double *nan_grid(size_t n)
{
	double *g = pd_xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		g[i] = NAN;
	return g;
}

static struct pd_view *new_view(struct pd_comparison *c, const struct pd_series *s,
				const struct pd_scope_ref *scope, enum pd_agg agg)
{
	PD_GROW(c->views, c->cap_views, c->n_views + 1);
	struct pd_view *v = &c->views[c->n_views++];
	size_t n = (size_t)(c->length_s / c->step_s) + 1;
	memset(v, 0, sizeof(*v));
	v->metric = metric_name(s);
	pd_scope_ref_copy(&v->scope, scope);
	v->nodes = pd_xstrdup("");
	v->unit = s->unit;
	v->worse = pd_metric_worse(s->collector, s->metric);
	v->agg = agg;
	v->members = 1;
	v->n = n;
	v->step_s = c->step_s;
	v->n_bases = c->n_bases;
	v->bases = pd_xmalloc(c->n_bases * sizeof(*v->bases));
	for (size_t j = 0; j < c->n_bases; j++)
		v->bases[j] = nan_grid(n);
	v->base = v->bases[0];
	v->target = nan_grid(n);
	return v;
}

/* Adds one member series to a view side: the first fills, later ones sum (a NaN in any
 * member makes the point NaN: no value is invented across a gap). A member that left at
 * gone_s (the removed node in a role's total) adds 0 from then on. */
static void accumulate(double *side, double *tmp, size_t n, const struct pd_series *s,
		       int64_t t0_ms, int64_t step_ms, int first, double gone_s)
{
	if (first && gone_s == INFINITY) { /* the loop below would copy tmp: fill in place */
		pd_views_fill(side, n, s, t0_ms, step_ms);
		return;
	}
	pd_views_fill(tmp, n, s, t0_ms, step_ms);
	for (size_t i = 0; i < n; i++) {
		if (gone_s < INFINITY && (double)i * (double)step_ms / 1000 >= gone_s)
			tmp[i] = 0;
		side[i] = first ? tmp[i] : side[i] + tmp[i];
	}
}

static void finish_mean(struct pd_view *v, size_t members)
{
	if (v->agg != PD_AGG_MEAN || members < 2)
		return;
	for (size_t i = 0; i < v->n; i++) {
		v->target[i] /= (double)members;
		for (size_t j = 0; j < v->n_bases; j++)
			v->bases[j][i] /= (double)members;
	}
}

static void add_node_name(struct pd_view *v, const char *host)
{
	size_t len = strlen(v->nodes);
	v->nodes = pd_xrealloc(v->nodes, len + strlen(host) + 2);
	snprintf(v->nodes + len, strlen(host) + 2, "%s%s", len ? "," : "", host);
}

struct builder {
	struct pd_comparison *c;
	struct matching m;
	int64_t step_ms;
	double *tmp;                       /* one grid of scratch */
	size_t *idx;                       /* target node indices of one view */
	struct group *bgs;                 /* the metric's group in each baseline */
	unsigned differ[PD_SVC_COUNT + 1]; /* per role bit: phases whose topology differs */
	double ratio[PD_SVC_COUNT + 1][PD_PHASE_COUNT]; /* there: active nodes, base/target */
};

/* Where baseline j's grid starts. */
static int64_t base_t0(const struct pd_comparison *c, size_t j)
{
	return j ? c->tb_more[j - 1].t0_ms : c->base_grid_t0_ms;
}

/* A view over the target nodes idx[0..k) and their baseline matches. */
static struct pd_view *node_set_view(struct builder *b, struct group tg, const size_t *idx,
				     size_t k, const struct pd_scope_ref *scope,
				     enum pd_agg agg)
{
	struct pd_comparison *c = b->c;
	struct pd_view *v = new_view(c, tg.s[0], scope, k == 1 ? PD_AGG_ONE : agg);
	for (size_t j = 0; j < k; j++) {
		const struct pd_node *tn = &c->target->nodes[idx[j]];
		accumulate(v->target, b->tmp, v->n, group_server(tg, tn->host),
			   c->tb_target.t0_ms, b->step_ms, j == 0, INFINITY);
		for (size_t r = 0; r < c->n_bases; r++) {
			const struct pd_node *bn = b->m.base[r][idx[j]];
			accumulate(v->bases[r], b->tmp, v->n,
				   bn ? group_server(b->bgs[r], bn->host) : NULL, base_t0(c, r),
				   b->step_ms, j == 0, INFINITY);
		}
		add_node_name(v, tn->host);
	}
	v->members = k;
	finish_mean(v, k);
	return v;
}

/* The survivors (matched, not removed) whose first service is svc (0: any) and that carry
 * the metric, into b->idx; returns how many. */
static size_t members(struct builder *b, struct group tg, unsigned svc)
{
	size_t k = 0;
	for (size_t i = 0; i < b->c->target->n_nodes; i++) {
		const struct pd_node *n = &b->c->target->nodes[i];
		if ((long)i == b->m.removed || (svc && n->first != svc) ||
		    !group_server(tg, n->host))
			continue;
		b->idx[k++] = i;
	}
	return k;
}

static unsigned svc_index(unsigned svc)
{
	unsigned k = 0;
	while (svc > 1)
		svc >>= 1, k++;
	return k;
}

/* Per-node load (CPU, rates, traffic, connections): what is shared among a role's nodes,
 * so that it differs by the ratio of their numbers (docs/report.md "Verdicts"). */
static int is_load(const struct pd_series *s)
{
	return (s->unit == PD_UNIT_PERCENT && strstr(s->metric, "cpu")) ||
	       s->unit == PD_UNIT_PER_SEC || s->unit == PD_UNIT_BYTES_PER_SEC ||
	       !strcmp(s->collector, "net");
}

/* The removed node's series added to a role's total, up to the event: the target's, or
 * the first baseline's when the event is on its side. Returns the sides it was added to
 * (1: the target, 2: the first baseline). */
static int add_removed(struct builder *b, struct pd_view *v, struct group tg, unsigned svc)
{
	struct pd_comparison *c = b->c;
	int added = 0;
	if (b->m.removed >= 0 && c->target->nodes[b->m.removed].first == svc) {
		const struct pd_node *n = &c->target->nodes[b->m.removed];
		accumulate(v->target, b->tmp, v->n, group_server(tg, n->host),
			   c->tb_target.t0_ms, b->step_ms, 0, c->tb_target.event_s);
		add_node_name(v, n->host);
		v->members++; /* up to the event */
		added |= 1;
	}
	if (b->m.removed_base >= 0 && c->base->nodes[b->m.removed_base].first == svc) {
		accumulate(v->base, b->tmp, v->n,
			   group_server(b->bgs[0], c->base->nodes[b->m.removed_base].host),
			   c->base_grid_t0_ms, b->step_ms, 0,
			   c->tb_base.event_s - c->base_shift_s);
		added |= 2;
	}
	return added;
}

/* A node's own CPU (ns_server_system/cpu_utilization: a percentage of that node) is a
 * level, never added across nodes (role:n1ql read 86 % -> 108 %, two nodes
 * summed): a role's view of it is the mean of the nodes active at each point. */
static int node_level(const struct pd_series *s)
{
	return s->unit == PD_UNIT_PERCENT && !strcmp(s->collector, "ns_server_system");
}

/* Divides side[i], a sum over k members and one more before gone_s, by the members. */
static void active_mean(double *side, size_t n, double step_s, size_t k, double gone_s)
{
	for (size_t i = 0; i < n; i++)
		side[i] /= (double)k + ((double)i * step_s < gone_s);
}

/* The role's mean over its active nodes where the topology differs: the survivors and
 * the removed node up to its event; the difference before it is the topology's. */
static void role_mean(struct builder *b, struct pd_view *v, struct group tg, unsigned svc,
		      size_t k, unsigned differ)
{
	const struct pd_comparison *c = b->c;
	int added = add_removed(b, v, tg, svc);
	active_mean(v->target, v->n, v->step_s, k, added & 1 ? c->tb_target.event_s : 0);
	active_mean(v->base, v->n, v->step_s, k,
		    added & 2 ? c->tb_base.event_s - c->base_shift_s : 0);
	for (size_t j = 1; j < v->n_bases; j++)
		active_mean(v->bases[j], v->n, v->step_s, k, 0);
	v->agg = PD_AGG_MEAN;
	v->topology = differ;
}

/* The role's views: its total where the topology differs (for load), else the mean or
 * sum over its survivors; and each node's when it has two or more. */
static void role_views(struct builder *b, struct group tg, unsigned svc, size_t k,
		       enum pd_agg agg)
{
	struct pd_scope_ref scope = {PD_AT_NONE, 0, NULL, NULL};
	unsigned differ = b->differ[svc_index(svc)] * (unsigned)is_load(tg.s[0]);
	pd_scope_ref_set(&scope, PD_AT_ROLE, svc, NULL);
	struct pd_view *v = node_set_view(b, tg, b->idx, k, &scope, differ ? PD_AGG_SUM : agg);
	if (differ && node_level(tg.s[0])) {
		role_mean(b, v, tg, svc, k, differ);
	} else if (differ) {
		v->agg = PD_AGG_SUM, v->total = 1;
		memcpy(v->node_ratio, b->ratio[svc_index(svc)], sizeof(v->node_ratio));
		add_removed(b, v, tg, svc);
	}
	/* a role's total holds the removed node: its one survivor needs a view of its own
	 * (every node has one: the per-node charts draw them) */
	for (size_t j = 0; (k >= 2 || differ) && j < k; j++) {
		pd_scope_ref_set(&scope, PD_AT_NODE, 0, b->c->target->nodes[b->idx[j]].host);
		node_set_view(b, tg, &b->idx[j], 1, &scope, agg)->topology = differ;
	}
	pd_scope_ref_free(&scope);
}

/* The removed node's own view: the target's, or the first baseline's (target side NaN). */
static void removed_view(struct builder *b, struct group tg, enum pd_agg agg)
{
	struct pd_comparison *c = b->c;
	struct pd_scope_ref scope = {PD_AT_NONE, 0, NULL, NULL};
	if (b->m.removed >= 0 && group_server(tg, c->target->nodes[b->m.removed].host)) {
		size_t removed = (size_t)b->m.removed;
		pd_scope_ref_set(&scope, PD_AT_REMOVED, 0, c->target->nodes[removed].host);
		node_set_view(b, tg, &removed, 1, &scope, agg);
	} else if (b->m.removed_base >= 0) {
		const struct pd_node *n = &c->base->nodes[b->m.removed_base];
		const struct pd_series *s = group_server(b->bgs[0], n->host);
		if (!s)
			return;
		pd_scope_ref_set(&scope, PD_AT_REMOVED, 0, n->host);
		struct pd_view *v = new_view(c, tg.s[0], &scope, PD_AGG_ONE);
		accumulate(v->base, b->tmp, v->n, s, c->base_grid_t0_ms, b->step_ms, 1,
			   INFINITY);
		add_node_name(v, n->host);
	}
	pd_scope_ref_free(&scope);
}

static void server_views(struct builder *b, struct group tg)
{
	enum pd_agg agg = agg_of(tg.s[0]);
	struct pd_scope_ref scope = {PD_AT_NONE, 0, NULL, NULL};
	unsigned differ = 0;
	int roles = 0;
	for (unsigned svc = 1; svc < (1u << PD_SVC_COUNT); svc <<= 1) {
		size_t k = members(b, tg, svc);
		differ |= b->differ[svc_index(svc)];
		if (!k)
			continue;
		roles++;
		role_views(b, tg, svc, k, agg);
	}
	pd_scope_ref_set(&scope, PD_AT_SURVIVORS, 0, NULL);
	if (roles >= 2)
		node_set_view(b, tg, b->idx, members(b, tg, 0), &scope, agg)->topology =
			differ * (unsigned)is_load(tg.s[0]);
	removed_view(b, tg, agg);
	pd_scope_ref_free(&scope);
}

/* The phases where any role has another number of active nodes in the two runs. */
static unsigned any_differ(const struct builder *b)
{
	unsigned bits = 0;
	for (size_t k = 0; k < PD_SVC_COUNT + 1; k++)
		bits |= b->differ[k];
	return bits;
}

/* Cluster- and bucket-scope series: one "cluster" view over every bucket. A cluster's CPU
 * (ns_server's cpu_utilization_rate) is its nodes' mean: where the runs have other numbers
 * of nodes, so that the same load is spread over more or fewer of them, its difference is
 * the topology's (a 7-node run before its failover against a 6-node baseline: -9.9 %). */
static void cluster_view(struct builder *b, struct group tg)
{
	struct pd_comparison *c = b->c;
	enum pd_agg agg = agg_of(tg.s[0]);
	static const struct pd_scope_ref cluster = {PD_AT_CLUSTER, 0, NULL, NULL};
	struct pd_view *v = new_view(c, tg.s[0], &cluster, tg.n == 1 ? PD_AGG_ONE : agg);
	v->members = tg.n;
	if (tg.s[0]->unit == PD_UNIT_PERCENT && is_load(tg.s[0]))
		v->topology = any_differ(b);
	for (size_t j = 0; j < tg.n; j++)
		accumulate(v->target, b->tmp, v->n, tg.s[j], c->tb_target.t0_ms, b->step_ms,
			   j == 0, INFINITY);
	if (tg.n > 1 && agg == PD_AGG_MEAN)
		for (size_t i = 0; i < v->n; i++)
			v->target[i] /= (double)tg.n;
	for (size_t r = 0; r < c->n_bases; r++) {
		struct group bg = b->bgs[r];
		for (size_t j = 0; j < bg.n || j == 0; j++)
			accumulate(v->bases[r], b->tmp, v->n, bg.n ? bg.s[j] : NULL,
				   base_t0(c, r), b->step_ms, j == 0, INFINITY);
		if (bg.n > 1 && agg == PD_AGG_MEAN)
			for (size_t i = 0; i < v->n; i++)
				v->bases[r][i] /= (double)bg.n;
	}
}

/* One view per index of an index-scope metric, its baseline twin by bucket and index:
 * drill-downs under the cluster's view, summarised by analyze/judge/indexes.c. */
static void index_views(struct builder *b, struct group tg)
{
	struct pd_comparison *c = b->c;
	struct pd_scope_ref scope = {PD_AT_NONE, 0, NULL, NULL};
	struct pd_buf key = PD_BUF_INIT;
	for (size_t j = 0; j < tg.n; j++) {
		const struct pd_series *s = tg.s[j];
		const char *bucket = s->bucket ? s->bucket : "";
		pd_buf_truncate(&key, 0);
		pd_buf_addf(&key, "%s.%s", bucket, s->index ? s->index : "");
		pd_scope_ref_set(&scope, PD_AT_INDEX, 0, key.ptr);
		struct pd_view *v = new_view(c, s, &scope, PD_AGG_ONE);
		accumulate(v->target, b->tmp, v->n, s, c->tb_target.t0_ms, b->step_ms, 1,
			   INFINITY);
		for (size_t r = 0; r < c->n_bases; r++)
			accumulate(v->bases[r], b->tmp, v->n,
				   s->index ? group_find(b->bgs[r], bucket, s->index) : NULL,
				   base_t0(c, r), b->step_ms, 1, INFINITY);
	}
	pd_buf_release(&key);
	pd_scope_ref_free(&scope);
}

static int skipped(const struct pd_series *s)
{
	/* the event's own evidence, not a metric to compare; client hosts are not the
	 * cluster's (they sort last, so a group's cluster series stay contiguous) */
	return !strcmp(s->collector, "active_tasks") || s->scope == PD_SCOPE_CLIENT;
}

/* Whether the baseline's series k opens a metric the target lacks, one compared. */
static int base_only(const struct pd_comparison *c, const struct pd_compare_opts *opts,
		     size_t k)
{
	const struct pd_series *s = c->base->series[k];
	if (k && !strcmp(s->collector, c->base->series[k - 1]->collector) &&
	    !strcmp(s->metric, c->base->series[k - 1]->metric))
		return 0;
	return !skipped(s) && wanted(opts, s) &&
	       !find_group(c->target, s->collector, s->metric).n;
}

size_t pd_views_bound(const struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	const struct pd_run *t = c->target;
	size_t n = 0;
	for (size_t i = 0; i < t->n_series; i++) {
		const struct pd_series *s = t->series[i];
		int server = s->scope == PD_SCOPE_SERVER ||
			     s->scope == PD_SCOPE_BUCKET_SERVER ||
			     s->scope == PD_SCOPE_INDEX; /* an index: one view more each */
		int first = !i || strcmp(s->collector, t->series[i - 1]->collector) ||
			    strcmp(s->metric, t->series[i - 1]->metric);
		if (skipped(s) || !wanted(opts, s))
			continue;
		n += (first ? 1 + (size_t)server : 0) + 2 * (size_t)server;
	}
	for (size_t k = 0; k < c->base->n_series; k++) /* drawn from the baselines alone */
		n += base_only(c, opts, k) ? 1 + t->n_nodes : 0;
	return n;
}

/* The metrics of run r (one line per collector and metric) that other lacks, each noted as
 * "<collector>/<metric>: only in the <who>". */
static void note_only_in(struct pd_comparison *c, const struct pd_compare_opts *opts,
			 const struct pd_run *r, const struct pd_run *other, const char *who)
{
	for (size_t i = 0; i < r->n_series; i++) {
		const struct pd_series *s = r->series[i];
		if (i && !strcmp(s->collector, r->series[i - 1]->collector) &&
		    !strcmp(s->metric, r->series[i - 1]->metric))
			continue;
		if (!skipped(s) && wanted(opts, s) &&
		    !find_group(other, s->collector, s->metric).n)
			pd_strv_addf(&c->matching, "%s/%s: only in the %s", s->collector,
				     s->metric, who);
	}
}

static void note_base_only(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	note_only_in(c, opts, c->base, c->target, "baseline");
}

/* Runs monitored by different paths (docs/reference.md "Prometheus bundles"): which path each
 * used, and the metrics only the target has (note_base_only lists the baseline's). */
static void note_paths(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	const struct pd_run *t = c->target;
	if (c->base->prometheus == t->prometheus)
		return;
	pd_strv_addf(&c->matching,
		     "monitoring: the baseline's went to %s, the target's to %s; metrics only "
		     "one of them has are listed as such",
		     c->base->prometheus ? "Prometheus" : "perfdb",
		     t->prometheus ? "Prometheus" : "perfdb");
	note_only_in(c, opts, t, c->base, "target");
}

/* The share of the whole run's grid points before gone_s: how much of the whole window a
 * node that left at gone_s was active for (90 of 356 points: 0.253). */
static double share_before(const struct pd_comparison *c, double gone_s)
{
	size_t all = 0, before = 0;
	for (size_t i = 0; (double)i * c->step_s < c->length_s; i++)
		all++, before += (double)i * c->step_s < gone_s;
	return all ? (double)before / (double)all : 0;
}

/* The mean number of active nodes of role svc in phase p: the survivors, and a removed
 * node before its event (all of pre, none of transient and post, and in the whole run
 * the share of its points before the event, not all of them). */
static double active(const struct pd_comparison *c, const struct pd_run *run, unsigned svc,
		     const char *removed, double gone_s, int p)
{
	double k = 0;
	for (size_t i = 0; i < run->n_nodes; i++) {
		if (run->nodes[i].first != svc)
			continue;
		if (!removed || strcmp(run->nodes[i].host, removed) || p == PD_PHASE_PRE)
			k += 1;
		else if (p == PD_PHASE_WHOLE)
			k += share_before(c, gone_s);
	}
	return k;
}

/* Per role, the phases where the two runs have another number of active nodes, and the
 * ratio of those numbers (baseline over target) that rescales a role's total to one
 * node. */
static void topology(struct builder *b)
{
	const struct pd_comparison *c = b->c;
	const char *rt = c->event_side > 0 ? c->tb_target.node : NULL;
	const char *rb = c->base_event ? c->tb_base.node : NULL;
	double gt = c->tb_target.event_s, gb = c->tb_base.event_s - c->base_shift_s;
	for (unsigned svc = 1; svc < (1u << PD_SVC_COUNT); svc <<= 1) {
		unsigned bits = 0;
		for (int p = 0; p < PD_PHASE_COUNT; p++) {
			double kt = active(c, c->target, svc, rt, gt, p),
			       kb = active(c, c->base, svc, rb, gb, p);
			if (fabs(kt - kb) > 1e-9 && kb > 0 && kt > 0) {
				bits |= 1u << p;
				b->ratio[svc_index(svc)][p] = kb / kt;
			}
		}
		b->differ[svc_index(svc)] = bits;
		if (bits)
			pd_strv_addf(
				&b->c->matching,
				"%s: %.0f active node(s) in the target against %.0f in the "
				"baseline before the event: the role's total load is "
				"compared, the per-node difference is the topology's",
				pd_service_name(svc),
				active(c, c->target, svc, rt, gt, PD_PHASE_PRE),
				active(c, c->base, svc, rb, gb, PD_PHASE_PRE));
	}
}

static void build_group(struct builder *b, const struct pd_series *s)
{
	struct pd_comparison *c = b->c;
	struct group tg = find_group(c->target, s->collector, s->metric);
	group_index(&tg);
	for (size_t j = 0; j < c->n_bases; j++) {
		b->bgs[j] = find_group(c->bases[j], s->collector, s->metric);
		group_index(&b->bgs[j]);
	}
	if (s->scope == PD_SCOPE_SERVER || s->scope == PD_SCOPE_BUCKET_SERVER)
		server_views(b, tg);
	else
		cluster_view(b, tg);
	if (s->scope == PD_SCOPE_INDEX)
		index_views(b, tg);
	free(tg.by_server);
	for (size_t j = 0; j < c->n_bases; j++)
		free(b->bgs[j].by_server);
}

/* A metric only the baselines have (perfrunner's shutdown test turns iostat and meminfo
 * off): drawn all the same, the target side empty (pd_view.one_run says so), per target
 * node from its twins' series, or once for the cluster. s is its first baseline series. */
static void base_only_views(struct builder *b, const struct pd_series *s)
{
	struct pd_comparison *c = b->c;
	struct pd_scope_ref scope = {PD_AT_NONE, 0, NULL, NULL};
	for (size_t j = 0; j < c->n_bases; j++) {
		b->bgs[j] = find_group(c->bases[j], s->collector, s->metric);
		group_index(&b->bgs[j]);
	}
	if (s->scope != PD_SCOPE_SERVER && s->scope != PD_SCOPE_BUCKET_SERVER) {
		pd_scope_ref_set(&scope, PD_AT_CLUSTER, 0, NULL);
		struct pd_view *v = new_view(c, s, &scope, PD_AGG_ONE);
		for (size_t r = 0; r < c->n_bases; r++)
			for (size_t j = 0; j < b->bgs[r].n || j == 0; j++)
				accumulate(v->bases[r], b->tmp, v->n,
					   b->bgs[r].n ? b->bgs[r].s[j] : NULL, base_t0(c, r),
					   b->step_ms, j == 0, INFINITY);
		v->members = b->bgs[0].n ? b->bgs[0].n : 1;
	}
	for (size_t i = 0; i < c->target->n_nodes && scope.kind != PD_AT_CLUSTER; i++) {
		const struct pd_node *twin = b->m.base[0][i];
		if ((long)i == b->m.removed || !twin || !group_server(b->bgs[0], twin->host))
			continue;
		pd_scope_ref_set(&scope, PD_AT_NODE, 0, c->target->nodes[i].host);
		struct pd_view *v = new_view(c, s, &scope, PD_AGG_ONE);
		for (size_t r = 0; r < c->n_bases; r++) {
			const struct pd_node *bn = b->m.base[r][i];
			accumulate(v->bases[r], b->tmp, v->n,
				   bn ? group_server(b->bgs[r], bn->host) : NULL, base_t0(c, r),
				   b->step_ms, 1, INFINITY);
		}
		add_node_name(v, c->target->nodes[i].host);
	}
	for (size_t j = 0; j < c->n_bases; j++)
		free(b->bgs[j].by_server);
	pd_scope_ref_free(&scope);
}

/* Each view's pd_view.case_scope: a node by its role label in the target's spec (else the
 * baseline's), so that a cluster on new addresses keeps its testcases. */
static void case_scopes(struct pd_comparison *c)
{
	for (size_t i = 0; i < c->n_views; i++) {
		struct pd_view *v = &c->views[i];
		const struct pd_node *n = NULL;
		if (v->scope.kind == PD_AT_NODE && !(n = pd_run_node(c->target, v->scope.host)))
			n = pd_run_node(c->base, v->scope.host);
		v->case_scope = n && n->role[0] ? n->role : v->scope.name;
	}
}

void pd_views_build(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	const struct pd_run *t = c->target;
	struct builder b = {.c = c, .step_ms = (int64_t)llround(c->step_s * 1000)};
	match_nodes(c, &b.m);
	topology(&b);
	b.tmp = pd_xmalloc(((size_t)(c->length_s / c->step_s) + 1) * sizeof(double));
	b.idx = pd_xmalloc((t->n_nodes + 1) * sizeof(*b.idx));
	b.bgs = pd_xmalloc(c->n_bases * sizeof(*b.bgs));
	size_t k = 0; /* the baseline's next series: its metrics the target lacks, in order */
	for (size_t i = 0; i <= t->n_series; i++) {
		const struct pd_series *s = i < t->n_series ? t->series[i] : NULL;
		if (s && i && !strcmp(s->collector, t->series[i - 1]->collector) &&
		    !strcmp(s->metric, t->series[i - 1]->metric))
			continue; /* one pass per (collector, metric) group */
		for (; k < c->base->n_series &&
		       (!s || cmp_key(c->base->series[k], s->collector, s->metric) < 0);
		     k++)
			if (base_only(c, opts, k))
				base_only_views(&b, c->base->series[k]);
		if (s && !skipped(s) && wanted(opts, s))
			build_group(&b, s);
	}
	note_base_only(c, opts);
	note_paths(c, opts);
	case_scopes(c);
	pd_comparison_index(c);
	free(b.tmp);
	free(b.idx);
	free(b.bgs);
	matching_free(&b.m, c->n_bases);
}
