#include "charts.h"
#include "render.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pd_chart *new_chart(struct pd_chart_plan *plan, enum pd_chart_kind kind,
				  long finding, size_t view)
{
	PD_GROW(plan->charts, plan->cap, plan->n + 1);
	struct pd_chart *ch = &plan->charts[plan->n++];
	memset(ch, 0, sizeof(*ch));
	ch->kind = kind;
	ch->finding = finding;
	ch->view = view;
	ch->panels = 1;
	return ch;
}

/* Copies s into title (size bytes), cut to at most max characters (UTF-8), the cut
 * marked with an ellipsis. */
static void fit(char *title, size_t size, const char *s, size_t max)
{
	size_t chars = 0, i = 0, cut = 0;
	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && chars++ == max - 1)
			cut = i; /* where the last character that fits with the ellipsis ends */
	if (chars <= max)
		snprintf(title, size, "%s", s);
	else
		snprintf(title, size, "%.*s\xe2\x80\xa6", (int)cut, s);
}

/* The title of chart ch: "metric  (scope, sum of 6 nodes)", the metric without its
 * collector when that does not fit (the page's heading names it), then cut. */
static void chart_title(struct pd_chart *ch, const struct pd_view *v)
{
	struct pd_buf b = PD_BUF_INIT;
	size_t max = pd_chart_title_chars(ch->kind);
	const char *m = strchr(v->metric, '/');
	for (int pass = 0; pass < 2; pass++) {
		pd_buf_truncate(&b, 0);
		pd_buf_addf(&b, "%s  (%s, ", pass && m ? m + 1 : v->metric, v->scope.name);
		pd_render_agg(&b, v);
		pd_buf_adds(&b, ")");
		if (b.len <= max)
			break;
	}
	fit(ch->title, sizeof(ch->title), b.ptr, max);
	pd_buf_release(&b);
}

size_t pd_chart_title_chars(enum pd_chart_kind kind)
{
	int small = kind == PD_CHART_NODE || kind == PD_CHART_METRIC;
	int width = small ? PD_CHART_SMALL_W : PD_CHART_W;
	int font = small ? PD_CHART_SMALL_FONT : PD_CHART_FONT;
	/* gnuplot's sans-serif averages 0.6 em a character; 12 px of the width stay free on
	 * each side */
	return (size_t)((width - 24) * 10 / (font * 6));
}

/* The y axis's label for a unit: a rate is "per second", never "/s" or "count". */
static const char *axis_unit(enum pd_unit u)
{
	switch (u) {
	case PD_UNIT_PER_SEC:
		return "per second";
	case PD_UNIT_COUNT:
		return "count";
	default:
		return pd_unit_name(u);
	}
}

double pd_chart_unit_scale(enum pd_unit u, double hi, const char **ylabel)
{
	static const char *const units[2][2] = {{"MiB", "GiB"},
						{"MiB per second", "GiB per second"}};
	*ylabel = axis_unit(u);
	if (u != PD_UNIT_BYTES && u != PD_UNIT_BYTES_PER_SEC)
		return 1;
	int gib = hi >= (double)(1 << 30), rate = u == PD_UNIT_BYTES_PER_SEC;
	*ylabel = units[rate][gib];
	return gib ? (double)(1 << 30) : (double)(1 << 20);
}

/* pd_chart_unit_scale of view v's values. */
static double byte_scale(const struct pd_view *v, const char **ylabel)
{
	double hi = 0;
	for (size_t i = 0; i < v->n; i++)
		hi = fmax(hi, fmax(fabs(v->base[i]), fabs(v->target[i]))); /* fmax skips NaN */
	return pd_chart_unit_scale(v->unit, hi, ylabel);
}

/* The times of the common grid, i * step for i < n: one array for every line of the plan
 * (every view has the same grid), made once. */
static const double *grid_times(struct pd_chart_plan *plan, size_t n, double step)
{
	if (plan->n_t < n || plan->step_t != step) {
		free(plan->t);
		plan->t = pd_xmalloc((n + 1) * sizeof(double));
		for (size_t i = 0; i < n; i++)
			plan->t[i] = (double)i * step;
		plan->n_t = n, plan->step_t = step;
	}
	return plan->t;
}

/* Decimates one series of a view into the chart's data at slot k, then divides what is
 * kept by scale (a positive factor changes no choice of the decimation). */
static void add_line(struct pd_chart_plan *plan, struct pd_chart *ch, size_t k, const double *v,
		     size_t n, double step, size_t max, const char *label, int style,
		     double scale)
{
	double *out = ch->data + k * 2 * max;
	size_t m = pd_plot_decimate(out, out + max, grid_times(plan, n, step), v, n, max);
	for (size_t i = 0; scale != 1 && i < m; i++)
		out[max + i] /= scale;
	ch->lines[k] = (struct pd_plot_line){label, out, out + max, m, style};
}

/* Whether every drawn value is >= 0: the y axis then starts at 0, so that a line at 71
 * is not read as zero for sitting on the axis. */
static int nonnegative(const struct pd_chart *ch, size_t n_lines)
{
	for (size_t k = 0; k < n_lines; k++)
		for (size_t i = 0; i < ch->lines[k].n; i++)
			if (ch->lines[k].v[i] < 0) /* NaN compares false */
				return 0;
	return 1;
}

/* A series of one run: the chart says which run lacks it, and so does its alt text. */
static void one_run_note(struct pd_chart *ch, const struct pd_view *v)
{
	static const char *const notes[] = {"not in the target run", "", "not in the baseline"};
	size_t len = strlen(ch->alt);
	if (!v->one_run)
		return;
	ch->plot.note = notes[v->one_run + 1];
	snprintf(ch->alt + len, sizeof(ch->alt) - len, ": %s", ch->plot.note);
}

static void finish(struct pd_chart *ch, const struct pd_chart_plan *plan,
		   const struct pd_comparison *c, const char *ylabel, size_t n_lines)
{
	int small = ch->kind == PD_CHART_NODE || ch->kind == PD_CHART_METRIC;
	/* pointers into the chart are set once the array stops moving: see wire() */
	ch->plot.ylabel = ylabel;
	ch->plot.n_lines = n_lines;
	ch->plot.n_bands = plan->n_bands;
	ch->plot.event_s = c->event_t_s;
	ch->plot.width = small ? PD_CHART_SMALL_W : PD_CHART_W;
	ch->plot.height = small ? PD_CHART_SMALL_H : PD_CHART_H;
	ch->plot.compact = small; /* the page gives their legend and axis once */
	ch->plot.y_zero = ch->kind != PD_CHART_DELTA && nonnegative(ch, n_lines);
	/* a shifted baseline is drawn on the target's clock */
	ch->plot.xlabel = c->base_shift_s != 0 ? "seconds from the target's phase start" : NULL;
	if (ch->kind != PD_CHART_DELTA)
		one_run_note(ch, &c->views[ch->view]);
}

/* Both runs of view vi, and, on a finding's chart, the removed node apart when it has
 * the metric. */
static void view_chart(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t vi,
		       enum pd_chart_kind kind, long finding, size_t max)
{
	const struct pd_view *v = &c->views[vi];
	int removed = v->scope.kind == PD_AT_REMOVED;
	long r = removed || kind != PD_CHART_FINDING
			 ? -1
			 : pd_comparison_view(c, v->metric, PD_AT_REMOVED, 0, NULL);
	struct pd_chart *ch = new_chart(plan, kind, finding, vi);
	size_t k = 0;
	ch->data = pd_xmalloc(3 * 2 * max * sizeof(double));
	if (kind == PD_CHART_FINDING)
		snprintf(ch->file, sizeof(ch->file), "f%02ld.svg", finding + 1);
	else
		snprintf(ch->file, sizeof(ch->file), "m%03zu.svg", vi);
	chart_title(ch, v);
	snprintf(ch->alt, sizeof(ch->alt), "%s  (%s, ", v->metric, v->scope.name);
	struct pd_buf agg = PD_BUF_INIT;
	pd_render_agg(&agg, v);
	snprintf(ch->alt + strlen(ch->alt), sizeof(ch->alt) - strlen(ch->alt), "%s)", agg.ptr);
	pd_buf_release(&agg);
	const char *ylabel;
	double scale = byte_scale(v, &ylabel);
	if (!removed)
		add_line(plan, ch, k++, v->base, v->n, v->step_s, max, "baseline", 0, scale);
	add_line(plan, ch, k++, v->target, v->n, v->step_s, max,
		 removed ? "removed node (target)" : "target", 1, scale);
	if (r >= 0)
		add_line(plan, ch, k++, c->views[r].target, c->views[r].n, c->views[r].step_s,
			 max, "removed node (target)", 2, scale);
	finish(ch, plan, c, ylabel, k);
}

/* The target node a view draws alone: a node, a role of one member, the removed node;
 * NULL for a view over several nodes or none. */
static const char *view_host(const struct pd_view *v)
{
	switch (v->scope.kind) {
	case PD_AT_NODE:
	case PD_AT_REMOVED:
		return v->scope.host;
	case PD_AT_ROLE:
		return v->members == 1 ? v->nodes : NULL;
	default:
		return NULL;
	}
}

/* One node's series: the target node against its baseline twin by role, the removed
 * node alone (it has no twin); the node's address and role in the title. */
static void node_chart(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t vi,
		       size_t max)
{
	const struct pd_view *v = &c->views[vi];
	const char *host = view_host(v);
	const struct pd_node *node = pd_run_node(c->target, host);
	const char *role = node ? node->role : "?";
	int removed = v->scope.kind == PD_AT_REMOVED;
	struct pd_chart *ch = new_chart(plan, PD_CHART_NODE, -1, vi);
	size_t k = 0;
	ch->host = host;
	ch->data = pd_xmalloc(2 * 2 * max * sizeof(double));
	snprintf(ch->file, sizeof(ch->file), "n%03zu.svg", vi);
	struct pd_buf t = PD_BUF_INIT; /* the metric is the heading above: host and role */
	pd_buf_addf(&t, "%s  %s%s", host, role, removed ? ", removed" : "");
	fit(ch->title, sizeof(ch->title), t.ptr, pd_chart_title_chars(PD_CHART_NODE));
	pd_buf_release(&t);
	snprintf(ch->alt, sizeof(ch->alt), "%s on %s (%s%s)", v->metric, host, role,
		 removed ? ", the removed node: target only" : "");
	const char *ylabel;
	double scale = byte_scale(v, &ylabel);
	if (!removed)
		add_line(plan, ch, k++, v->base, v->n, v->step_s, max, "baseline", 0, scale);
	add_line(plan, ch, k++, v->target, v->n, v->step_s, max,
		 removed ? "removed node (target)" : "target", removed ? 2 : 1, scale);
	finish(ch, plan, c, ylabel, k);
	ch->plot.frame = removed ? "#d62728" : NULL; /* the page's mark of the removed node */
}

/* Whether view vi (or -1) draws host alone. */
static int draws(const struct pd_comparison *c, long vi, const char *host)
{
	return vi >= 0 && view_host(&c->views[vi]) && !strcmp(view_host(&c->views[vi]), host);
}

/* The first view of metric that draws node n alone (its role's when it is the role's one
 * member, its node view, the removed node's), or -1. */
static long node_view(const struct pd_comparison *c, const char *metric,
		      const struct pd_node *n)
{
	long vi = pd_comparison_view(c, metric, PD_AT_ROLE, n->first, NULL);
	if (!draws(c, vi, n->host))
		vi = pd_comparison_view(c, metric, PD_AT_NODE, 0, n->host);
	if (!draws(c, vi, n->host))
		vi = pd_comparison_view(c, metric, PD_AT_REMOVED, 0, NULL);
	return draws(c, vi, n->host) ? vi : -1;
}

/* Whether view vi is zero in both runs: noted in the plan's fold, not charted. */
static int folded(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t vi)
{
	if (!c->views[vi].zero)
		return 0;
	PD_GROW(plan->folded, plan->cap_folded, plan->n_folded + 1);
	plan->folded[plan->n_folded++] = (struct pd_chart_fold){vi, view_host(&c->views[vi])};
	return 1;
}

/* Makes the charts [first, plan->n) the panels of one SVG, the first one's file. */
static void panels(struct pd_chart_plan *plan, size_t first)
{
	size_t n = plan->n - first;
	struct pd_chart *ch = &plan->charts[first];
	int w = n ? ch->plot.width : 0, h = n ? ch->plot.height : 0, gw, gh;
	if (!n)
		return;
	pd_plot_panels_size(&gw, &gh, w, h, n, PD_CHART_COLS);
	for (size_t k = 0; k < n; k++) {
		ch[k].panel = k, ch[k].panels = n;
		ch[k].grid_w = gw, ch[k].grid_h = gh;
		memcpy(ch[k].file, ch[0].file, sizeof(ch[k].file));
	}
}

static void metric_views(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t lo,
			 size_t hi, size_t max);

/* The charts of one metric, views [lo, hi): its cluster view (and an index metric's
 * indexes that moved most, in their rank's order), else one per target node in the spec's
 * order (the removed node is the spec's last n1ql node). */
static void metric_charts(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t lo,
			  size_t hi, size_t max)
{
	size_t first = plan->n;
	metric_views(plan, c, lo, hi, max);
	panels(plan, first);
}

/* The charts of metric_charts, each alone. */
static void metric_views(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t lo,
			 size_t hi, size_t max)
{
	for (size_t vi = lo; vi < hi; vi++)
		if (c->views[vi].scope.kind == PD_AT_CLUSTER) {
			if (!folded(plan, c, vi))
				view_chart(plan, c, vi, PD_CHART_METRIC, -1, max);
			for (int r = 1; r <= (int)c->views[vi].charted; r++)
				for (size_t k = vi + 1; k < hi; k++)
					if (c->views[k].top == r && !folded(plan, c, k))
						view_chart(plan, c, k, PD_CHART_METRIC, -1,
							   max);
			return;
		}
	for (size_t i = 0; i < c->target->n_nodes; i++) {
		long vi = node_view(c, c->views[lo].metric, &c->target->nodes[i]);
		if (vi >= 0 && !folded(plan, c, (size_t)vi))
			node_chart(plan, c, (size_t)vi, max);
	}
}

/* The target's difference from the baseline over time, in %, as the finding states it
 * (pd_finding.smooth_pct, a moving mean of each run). */
static void delta_chart(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t f,
			size_t max)
{
	const struct pd_finding *fi = &c->findings[f];
	const struct pd_view *v = &c->views[fi->view];
	struct pd_chart *ch = new_chart(plan, PD_CHART_DELTA, (long)f, (size_t)fi->view);
	ch->data = pd_xmalloc(2 * max * sizeof(double));
	snprintf(ch->file, sizeof(ch->file), "f%02zu-delta.svg", f + 1);
	snprintf(ch->title, sizeof(ch->title), "target against baseline, %% (%.0f s mean)",
		 fi->smooth_s);
	snprintf(ch->alt, sizeof(ch->alt), "%s (%s): target against baseline, %% (%.0f s mean)",
		 v->metric, v->scope.name, fi->smooth_s);
	add_line(plan, ch, 0, fi->smooth_pct, v->n, v->step_s, max, "difference", 3, 1);
	finish(ch, plan, c, "%", 1);
}

/* A chart of both runs over n points at x (its ticks too): baseline and target lines, y
 * from 0, no event; the caller names it. */
static void runs_at_points(struct pd_chart *ch, const double *x, const double *base,
			   const double *target, size_t n, const char *ylabel)
{
	ch->data = pd_xmalloc(3 * n * sizeof(double) + 1);
	memcpy(ch->data, x, n * sizeof(double));
	memcpy(ch->data + n, base, n * sizeof(double));
	memcpy(ch->data + 2 * n, target, n * sizeof(double));
	memcpy(ch->xticks, x, n * sizeof(double));
	ch->lines[0] = (struct pd_plot_line){"baseline", ch->data, ch->data + n, n, 0};
	ch->lines[1] = (struct pd_plot_line){"target", ch->data, ch->data + 2 * n, n, 1};
	ch->plot = (struct pd_plot_chart){.ylabel = ylabel,
					  .n_lines = 2,
					  .event_s = NAN,
					  .width = PD_CHART_W,
					  .height = PD_CHART_H,
					  .y_zero = 1,
					  .n_xticks = n};
}

/* The latency distribution l of both runs (pd_comparison.latency), index i: the share
 * of requests slower than each bound, baseline against target. */
static void latency_chart(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t i)
{
	const struct pd_latency *l = &c->latency[i];
	struct pd_chart *ch = new_chart(plan, PD_CHART_LATENCY, -1, 0);
	runs_at_points(ch, l->x, l->base, l->target, l->n, "% of requests");
	snprintf(ch->file, sizeof(ch->file), "latency%02zu.svg", i + 1);
	snprintf(ch->title, sizeof(ch->title), "requests slower than each bound (%s)",
		 pd_phase_name(l->phase));
	snprintf(ch->alt, sizeof(ch->alt),
		 "%s: the share of requests slower than each bound over the %s phase, "
		 "baseline against target",
		 l->metric, pd_phase_name(l->phase));
}

/* The percentiles of c->latency_pct[i] (the phase its metric's chart draws), both runs:
 * latency (ms) against the percentile, p99.9 as far from p99 as p99 from p90. */
static void latency_pct_chart(struct pd_chart_plan *plan, const struct pd_comparison *c,
			      size_t i)
{
	const struct pd_latency_pct *l = &c->latency_pct[i];
	struct pd_chart *ch = new_chart(plan, PD_CHART_LATENCY_PCT, -1, i);
	size_t n = PD_LATENCY_PCTS;
	double x[PD_LATENCY_PCTS];
	for (size_t k = 0; k < n; k++)
		x[k] = 100 / (100 - l->p[k]);
	runs_at_points(ch, x, l->base.ms, l->target.ms, n, "ms");
	ch->plot.xtick_pct = 1;
	snprintf(ch->file, sizeof(ch->file), "lat-p%02zu.svg", i + 1);
	fit(ch->title, sizeof(ch->title), l->metric, 40);
	size_t len = strlen(ch->title);
	snprintf(ch->title + len, sizeof(ch->title) - len, " (%s)", pd_phase_name(l->phase));
	snprintf(ch->alt, sizeof(ch->alt),
		 "%s: latency (ms) at percentiles p%g to p%g over the %s phase, baseline "
		 "against target",
		 l->metric, l->p[0], l->p[n - 1], pd_phase_name(l->phase));
	for (size_t k = 0; k < n; k++)
		if (l->base.status[k] != PD_LATENCY_OK || l->target.status[k] != PD_LATENCY_OK)
			ch->plot.note = "a point missing: not enough samples";
}

static void wire(struct pd_chart_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct pd_chart *ch = &plan->charts[i];
		ch->plot.file = ch->file;
		ch->plot.title = ch->title;
		ch->plot.lines = ch->lines;
		ch->plot.bands = plan->bands;
		ch->plot.xticks = ch->xticks;
		if (ch->kind == PD_CHART_LATENCY ||
		    ch->kind == PD_CHART_LATENCY_PCT) /* no phases on its axis */
			ch->plot.n_bands = 0;
	}
}

void pd_chart_plan_metrics(struct pd_chart_plan *plan, const struct pd_comparison *c,
			   size_t small_points)
{
	static const enum pd_phase banded[] = {PD_PHASE_PRE, PD_PHASE_TRANSIENT, PD_PHASE_POST};
	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; c->has_event && i < 3; i++) {
		const struct pd_window *w = &c->windows[banded[i]];
		plan->bands[plan->n_bands++] =
			(struct pd_plot_band){pd_phase_name(w->phase), w->start_s, w->end_s};
	}
	for (size_t lo = 0, hi; lo < c->n_views; lo = hi) {
		for (hi = lo + 1;
		     hi < c->n_views && !strcmp(c->views[hi].metric, c->views[lo].metric); hi++)
			;
		metric_charts(plan, c, lo, hi, small_points);
	}
	wire(plan);
}

size_t pd_chart_plan_findings(struct pd_chart_plan *plan, const struct pd_comparison *c,
			      size_t max_points)
{
	size_t first = plan->n;
	for (size_t f = 0; f < c->n_findings; f++) {
		if (c->findings[f].view < 0 || c->findings[f].chart != (long)f)
			continue;
		view_chart(plan, c, (size_t)c->findings[f].view, PD_CHART_FINDING, (long)f,
			   max_points);
		if (c->findings[f].smooth_pct)
			delta_chart(plan, c, f, max_points);
	}
	for (size_t i = 0; i < c->n_latency; i++)
		latency_chart(plan, c, i);
	for (size_t i = 0; i < c->n_latency_pct; i++)
		if (c->latency_pct[i].drawn)
			latency_pct_chart(plan, c, i);
	wire(plan);
	return first;
}

void pd_chart_plan_free(struct pd_chart_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		free(plan->charts[i].data);
	free(plan->charts);
	free(plan->folded);
	free(plan->t);
	memset(plan, 0, sizeof(*plan));
}

size_t pd_chart_collector(const struct pd_comparison *c, const struct pd_chart *ch)
{
	const char *m = c->views[ch->view].metric, *slash = strchr(m, '/');
	return slash ? (size_t)(slash - m) : strlen(m);
}
