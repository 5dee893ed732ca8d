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
	return ch;
}

/* "metric  (scope, sum of 6 nodes)" and tail, cut to the title's room. */
static void chart_title(struct pd_chart *ch, const struct pd_view *v, const char *tail)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b, "%s  (%s, ", v->metric, v->scope.name);
	pd_render_agg(&b, v);
	pd_buf_addf(&b, ")%s", tail);
	snprintf(ch->title, sizeof(ch->title), "%s", b.ptr);
	pd_buf_release(&b);
}

/* Bytes are drawn in MiB or GiB: axis ticks of 2.3e+09 are hard to read. Returns the
 * divisor for the values of v and sets the axis label. */
static double byte_scale(const struct pd_view *v, const char **ylabel)
{
	static const char *const units[2][2] = {{"MiB", "GiB"}, {"MiB/s", "GiB/s"}};
	double hi = 0;
	if (v->unit != PD_UNIT_BYTES && v->unit != PD_UNIT_BYTES_PER_SEC)
		return 1;
	for (size_t i = 0; i < v->n; i++)
		hi = fmax(hi, fmax(fabs(v->base[i]), fabs(v->target[i]))); /* fmax skips NaN */
	int gib = hi >= (double)(1 << 30), rate = v->unit == PD_UNIT_BYTES_PER_SEC;
	*ylabel = units[rate][gib];
	return gib ? (double)(1 << 30) : (double)(1 << 20);
}

/* Decimates one series of a view, divided by scale, into the chart's data at slot k. */
static void add_line(struct pd_chart *ch, size_t k, const double *v, size_t n, double step,
		     size_t max, const char *label, int style, double scale)
{
	double *t = pd_xmalloc((n + 1) * sizeof(double));
	double *y = pd_xmalloc((n + 1) * sizeof(double));
	for (size_t i = 0; i < n; i++)
		t[i] = (double)i * step, y[i] = v[i] / scale;
	v = y;
	double *out = ch->data + k * 2 * max;
	size_t m = pd_plot_decimate(out, out + max, t, v, n, max);
	free(t);
	free(y);
	ch->lines[k] = (struct pd_plot_line){label, out, out + max, m, style};
}

static long removed_view(const struct pd_comparison *c, const struct pd_view *v)
{
	for (size_t i = 0; i < c->n_views; i++)
		if (!strcmp(c->views[i].metric, v->metric) &&
		    c->views[i].scope.kind == PD_AT_REMOVED)
			return (long)i;
	return -1;
}

static void finish(struct pd_chart *ch, const struct pd_chart_plan *plan,
		   const struct pd_comparison *c, const char *ylabel, size_t n_lines)
{
	/* pointers into the chart are set once the array stops moving: see wire() */
	ch->plot.ylabel = ylabel;
	ch->plot.n_lines = n_lines;
	ch->plot.n_bands = plan->n_bands;
	ch->plot.event_s = c->has_event ? c->tb_target.event_s : NAN;
	/* a shifted baseline is drawn on the target's clock */
	ch->plot.xlabel = c->base_shift_s != 0 ? "seconds from the target's phase start" : NULL;
}

/* Both runs of view vi, and the removed node apart when it has the metric. */
static void view_chart(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t vi,
		       enum pd_chart_kind kind, long finding, size_t max)
{
	const struct pd_view *v = &c->views[vi];
	int removed = v->scope.kind == PD_AT_REMOVED;
	long r = removed ? -1 : removed_view(c, v);
	struct pd_chart *ch = new_chart(plan, kind, finding, vi);
	size_t k = 0;
	ch->data = pd_xmalloc(3 * 2 * max * sizeof(double));
	if (kind == PD_CHART_FINDING)
		snprintf(ch->file, sizeof(ch->file), "f%02ld.svg", finding + 1);
	else
		snprintf(ch->file, sizeof(ch->file), "m%03zu.svg", vi);
	chart_title(ch, v, "");
	const char *ylabel = pd_unit_name(v->unit);
	double scale = byte_scale(v, &ylabel);
	if (!removed)
		add_line(ch, k++, v->base, v->n, v->step_s, max, "baseline", 0, scale);
	add_line(ch, k++, v->target, v->n, v->step_s, max,
		 removed ? "removed node (target)" : "target", 1, scale);
	if (r >= 0)
		add_line(ch, k++, c->views[r].target, c->views[r].n, c->views[r].step_s, max,
			 "removed node (target)", 2, scale);
	finish(ch, plan, c, ylabel, k);
}

/* The target's difference from the baseline over time, in %, over a 30 s moving mean
 * of each run (single samples are too noisy to read). */
static void delta_chart(struct pd_chart_plan *plan, const struct pd_comparison *c, size_t vi,
			long finding, size_t max)
{
	const struct pd_view *v = &c->views[vi];
	struct pd_chart *ch = new_chart(plan, PD_CHART_DELTA, finding, vi);
	double *d = pd_xmalloc((v->n + 1) * sizeof(double));
	size_t w = (size_t)fmax(1, round(30 / v->step_s));
	for (size_t i = 0; i < v->n; i++) {
		double sb = 0, st = 0;
		size_t k = 0;
		for (size_t j = i + 1 > w ? i + 1 - w : 0; j <= i; j++)
			if (!isnan(v->base[j]) && !isnan(v->target[j]))
				sb += v->base[j], st += v->target[j], k++;
		d[i] = k && sb != 0 ? 100 * (st - sb) / fabs(sb) : NAN;
	}
	ch->data = pd_xmalloc(2 * max * sizeof(double));
	snprintf(ch->file, sizeof(ch->file), "f%02ld-delta.svg", finding + 1);
	chart_title(ch, v, ": target vs baseline, 30 s mean");
	add_line(ch, 0, d, v->n, v->step_s, max, "difference", 3, 1);
	free(d);
	finish(ch, plan, c, "%", 1);
}

/* The view to chart for a metric: cluster or survivors, else its first role, else the
 * removed node. */
static int metric_view(const struct pd_comparison *c, size_t vi)
{
	const struct pd_view *v = &c->views[vi];
	long first = -1;
	for (size_t i = 0; i < c->n_views; i++) {
		if (strcmp(c->views[i].metric, v->metric))
			continue;
		if (pd_scope_ref_rank(&c->views[i].scope) == 0)
			return i == vi;
		if (first < 0 && c->views[i].scope.kind != PD_AT_NODE)
			first = (long)i;
	}
	return first == (long)vi;
}

static void wire(struct pd_chart_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct pd_chart *ch = &plan->charts[i];
		ch->plot.file = ch->file;
		ch->plot.title = ch->title;
		ch->plot.lines = ch->lines;
		ch->plot.bands = plan->bands;
	}
}

void pd_chart_plan_metrics(struct pd_chart_plan *plan, const struct pd_comparison *c,
			   size_t max_points)
{
	static const enum pd_phase banded[] = {PD_PHASE_PRE, PD_PHASE_TRANSIENT, PD_PHASE_POST};
	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; c->has_event && i < 3; i++) {
		const struct pd_window *w = &c->windows[banded[i]];
		plan->bands[plan->n_bands++] =
			(struct pd_plot_band){pd_phase_name(w->phase), w->start_s, w->end_s};
	}
	for (size_t vi = 0; vi < c->n_views; vi++)
		if (metric_view(c, vi))
			view_chart(plan, c, vi, PD_CHART_METRIC, -1, max_points);
	wire(plan);
}

long pd_chart_finding_owner(const struct pd_comparison *c, size_t f)
{
	for (size_t g = 0; g < f; g++)
		if (c->findings[g].view == c->findings[f].view)
			return (long)g;
	return (long)f;
}

size_t pd_chart_plan_findings(struct pd_chart_plan *plan, const struct pd_comparison *c,
			      size_t max_points)
{
	size_t first = plan->n;
	for (size_t f = 0; f < c->n_findings; f++) {
		if (c->findings[f].view < 0 || pd_chart_finding_owner(c, f) != (long)f)
			continue;
		view_chart(plan, c, (size_t)c->findings[f].view, PD_CHART_FINDING, (long)f,
			   max_points);
		if (c->views[c->findings[f].view].scope.kind != PD_AT_REMOVED)
			delta_chart(plan, c, (size_t)c->findings[f].view, (long)f, max_points);
	}
	wire(plan);
	return first;
}

void pd_chart_plan_free(struct pd_chart_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		free(plan->charts[i].data);
	free(plan->charts);
	memset(plan, 0, sizeof(*plan));
}

const struct pd_chart *pd_chart_for_view(const struct pd_chart_plan *plan, size_t vi)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->charts[i].kind == PD_CHART_METRIC && plan->charts[i].view == vi)
			return &plan->charts[i];
	return NULL;
}
