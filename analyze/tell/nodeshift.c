#include "nodeshift.h"
#include "analyze/stats/stats.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The median of side[i] over the grid points of window w (NaN skipped), or NaN. */
static double median_in(const double *side, size_t n, double step, const struct pd_window *w,
			double *tmp)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double t = (double)i * step;
		if (t >= w->start_s && t < w->end_s && !isnan(side[i]))
			tmp[k++] = side[i];
	}
	return k ? pd_stats_median(tmp, k) : NAN;
}

static double pct(double now, double before)
{
	return isnan(now) || isnan(before) || before == 0 ? NAN
							  : 100 * (now - before) / fabs(before);
}

/* The tested post delta of view vi, or -1. */
static long post_delta(const struct pd_comparison *c, size_t vi)
{
	const struct pd_delta *d = pd_comparison_delta(c, vi, PD_PHASE_POST);
	return d ? d - c->deltas : -1;
}

/* Fills the medians and changes of row r from the two sides of a grid. */
static void measure(struct pd_nodeshift_row *r, const struct pd_comparison *c,
		    const double *base, const double *target, size_t n, double *tmp)
{
	const struct pd_window *pre = &c->windows[PD_PHASE_PRE];
	const struct pd_window *post = &c->windows[PD_PHASE_POST];
	r->pre = median_in(target, n, c->step_s, pre, tmp);
	r->post = median_in(target, n, c->step_s, post, tmp);
	r->change_pct = pct(r->post, r->pre);
	r->base_post = base ? median_in(base, n, c->step_s, post, tmp) : NAN;
	r->base_pct = pct(r->post, r->base_post);
}

/* The node a view draws alone (a node, a role of one member, the removed node), or NULL. */
static const char *alone(const struct pd_view *v)
{
	if (v->scope.kind == PD_AT_NODE || v->scope.kind == PD_AT_REMOVED)
		return v->scope.host;
	return v->scope.kind == PD_AT_ROLE && v->members == 1 ? v->nodes : NULL;
}

/* The views of one metric, [lo, hi): the survivors together (the survivors' view, else
 * the one role's) and the removed node's; -1 when there is none. */
struct group {
	size_t lo, hi;
	long survivors, removed;
};

static struct group group_of(const struct pd_comparison *c, size_t lo)
{
	struct group g = {lo, lo, -1, -1};
	long role = -1;
	int roles = 0;
	for (; g.hi < c->n_views && !strcmp(c->views[g.hi].metric, c->views[lo].metric);
	     g.hi++) {
		enum pd_scope_kind k = c->views[g.hi].scope.kind;
		g.survivors = k == PD_AT_SURVIVORS ? (long)g.hi : g.survivors;
		g.removed = k == PD_AT_REMOVED ? (long)g.hi : g.removed;
		if (k == PD_AT_ROLE)
			role = (long)g.hi, roles++;
	}
	if (g.survivors < 0 && roles == 1)
		g.survivors = role;
	return g;
}

static struct pd_nodeshift_row *add_row(struct pd_nodeshift_metric *m,
					enum pd_nodeshift_kind kind, long view, size_t members)
{
	struct pd_nodeshift_row *r = &m->rows[m->n_rows++];
	*r = (struct pd_nodeshift_row){
		.kind = kind, .view = view, .members = members, .delta = -1};
	return r;
}

/* Every target node together, per grid point: the survivors' value with the removed
 * node's added or averaged in (see nodeshift.h for a removed node without a sample). */
static void all_nodes(double *out, const struct pd_comparison *c, const struct pd_view *s,
		      const struct pd_view *r)
{
	double k = (double)s->members, event = c->windows[PD_PHASE_TRANSIENT].start_s;
	for (size_t i = 0; i < s->n; i++) {
		double x = r->target[i], after = (double)i * c->step_s >= event;
		if (isnan(x) && after)
			out[i] = s->target[i];
		else if (s->agg == PD_AGG_MEAN)
			out[i] = (k * s->target[i] + x) / (k + 1);
		else
			out[i] = s->target[i] + x;
	}
}

static void node_rows(struct pd_nodeshift_metric *m, const struct pd_comparison *c,
		      struct group g, double *tmp)
{
	for (size_t i = 0; i < c->target->n_nodes; i++)
		for (size_t vi = g.lo; vi < g.hi; vi++) {
			const struct pd_view *v = &c->views[vi];
			const char *host = alone(v);
			if (!host || strcmp(host, c->target->nodes[i].host))
				continue;
			int removed = v->scope.kind == PD_AT_REMOVED;
			struct pd_nodeshift_row *r =
				add_row(m, removed ? PD_NODESHIFT_REMOVED : PD_NODESHIFT_NODE,
					(long)vi, 1);
			r->host = host;
			measure(r, c, removed ? NULL : v->base, v->target, v->n, tmp);
			r->delta = removed ? -1 : post_delta(c, vi);
			break;
		}
}

static void metric_story(struct pd_nodeshift_metric *m, const struct pd_comparison *c,
			 struct group g, double *tmp)
{
	const struct pd_view *s = &c->views[g.survivors], *rv = &c->views[g.removed];
	*m = (struct pd_nodeshift_metric){
		.metric = s->metric,
		.unit = s->unit,
		.agg = s->agg == PD_AGG_MEAN ? PD_AGG_MEAN : PD_AGG_SUM,
		.rows = pd_xcalloc(c->target->n_nodes + 3, sizeof(*m->rows))};
	node_rows(m, c, g, tmp);
	if (s->total) { /* a role's total already holds the removed node up to its event */
		struct pd_nodeshift_row *r =
			add_row(m, PD_NODESHIFT_ALL, g.survivors, s->members);
		measure(r, c, NULL, s->target, s->n, tmp);
		return;
	}
	if (s->members >= 2) {
		struct pd_nodeshift_row *r =
			add_row(m, PD_NODESHIFT_SURVIVORS, g.survivors, s->members);
		measure(r, c, s->base, s->target, s->n, tmp);
		r->delta = post_delta(c, (size_t)g.survivors);
	}
	double *all = pd_xmalloc((s->n + 1) * sizeof(double));
	all_nodes(all, c, s, rv);
	struct pd_nodeshift_row *r = add_row(m, PD_NODESHIFT_ALL, g.survivors, s->members + 1);
	measure(r, c, NULL, all, s->n, tmp); /* the baseline has no seventh node to add */
	free(all);
}

void pd_nodeshift_build(struct pd_nodeshift **out, const struct pd_comparison *c)
{
	struct pd_nodeshift *ns = pd_xcalloc(1, sizeof(*ns));
	size_t cap = 0, n = c->n_views ? c->views[0].n : 0;
	double *tmp = pd_xmalloc((n + 1) * sizeof(double));
	*out = ns;
	for (size_t lo = 0; c->has_event && lo < c->n_views;) {
		struct group g = group_of(c, lo);
		lo = g.hi;
		if (g.survivors < 0 || g.removed < 0)
			continue; /* the removed node does not carry it: nothing moved */
		PD_GROW(ns->m, cap, ns->n + 1);
		metric_story(&ns->m[ns->n++], c, g, tmp);
	}
	free(tmp);
}

void pd_nodeshift_free(struct pd_nodeshift *s)
{
	for (size_t i = 0; s && i < s->n; i++)
		free(s->m[i].rows);
	if (s)
		free(s->m);
	free(s);
}
