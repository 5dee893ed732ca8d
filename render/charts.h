/* Which charts a report draws, with their data decimated for drawing. */
#ifndef PD_CHARTS_H
#define PD_CHARTS_H

#include "plot.h"
#include "../tree/tree.h"

/* A finding's charts, and the per-series charts of the Metrics section: one per node of
 * a per-node series (PD_CHART_NODE), one per cluster-scope series (PD_CHART_METRIC). */
enum pd_chart_kind {
	PD_CHART_FINDING,
	PD_CHART_DELTA,
	PD_CHART_METRIC,
	PD_CHART_NODE,
	PD_CHART_LATENCY, /* a latency distribution of both runs (pd_comparison.latency) */
	/* a latency metric's percentiles, both runs (pd_comparison.latency_pct[view]) */
	PD_CHART_LATENCY_PCT
};

/* The sizes charts are drawn at, in pixels, which are the sizes the page shows them at
 * (a scaled chart shrinks its 11 px tick labels): two finding charts side by side in a
 * card's 1090 px, three per-series charts in the page's 1124 px column. */
#define PD_CHART_W       536
#define PD_CHART_H       270
#define PD_CHART_SMALL_W 364
#define PD_CHART_SMALL_H 180
/* Panels to a row of a metric's SVG: three fill the page's 1124 px column. */
#define PD_CHART_COLS 3
/* Their titles' font sizes in pixels (render/plot.c: 12 on a compact chart, else 13). */
#define PD_CHART_FONT       13
#define PD_CHART_SMALL_FONT 12

struct pd_chart {
	enum pd_chart_kind kind;
	long finding;  /* index of the finding it shows, or -1 */
	size_t view;   /* the view it draws */
	char file[32]; /* "f01.svg", "f01-delta.svg", "m012.svg" */
	char title[400];
	char alt[400];    /* what it shows, in words, for the page: metric, node, aggregation */
	const char *host; /* PD_CHART_NODE: the node it draws (borrowed); NULL otherwise */
	/* the charts of one metric in the Metrics section are the panels of one SVG (its
	 * first chart's file, PD_CHART_COLS to a row, grid_w x grid_h pixels in all): this
	 * one is panel `panel` of `panels` (0 of 1 for a chart alone) */
	size_t panel, panels;
	int grid_w, grid_h;
	struct pd_plot_chart plot;
	struct pd_plot_line lines[3];
	double xticks[PD_LATENCY_POINTS]; /* PD_CHART_LATENCY: its bounds; _PCT: 100/(100-p) */
	double *data;                     /* owned: the decimated arrays of every line */
};

struct pd_chart_plan {
	struct pd_chart *charts;
	size_t n, cap;
	/* the views a metric chart would draw that are zero in both runs (pd_view.zero),
	 * in the charts' order: the report names them in one line instead */
	struct pd_chart_fold {
		size_t view;
		const char *host; /* the node its chart would draw (borrowed), or NULL */
	} * folded;
	size_t n_folded, cap_folded;
	struct pd_plot_band bands[3];
	size_t n_bands;
	double *t; /* the grid's times, shared by the lines while they are decimated */
	size_t n_t;
	double step_t;
};

/* Plans the charts of c in two steps, so that the first can be drawn while the
 * statistics are computed: pd_chart_plan_metrics needs only the views and phases, and
 * plans every series as cbmonitor draws it: a per-node metric once per target node (its
 * baseline twin beside it; the removed node alone, target only), a cluster-scope one
 * once, in view order (by collector, then metric), each decimated to small_points;
 * a view zero in both runs is folded instead (pd_chart_plan.folded);
 * pd_chart_plan_findings then adds one (and a delta-over-time chart when it has points)
 * per finding that draws its view (pd_finding.chart), decimated to max_points, and returns the
 * index of its first chart. Adding moves the charts. */
void pd_chart_plan_metrics(struct pd_chart_plan *plan, const struct pd_comparison *c,
			   size_t small_points);
size_t pd_chart_plan_findings(struct pd_chart_plan *plan, const struct pd_comparison *c,
			      size_t max_points);
void pd_chart_plan_free(struct pd_chart_plan *plan);

/* How many characters a title of a chart of kind fits in (its width at its font). */
size_t pd_chart_title_chars(enum pd_chart_kind kind);

/* The divisor of values in unit u whose largest magnitude is hi, and the y axis's label
 * (*ylabel): bytes are drawn in MiB or GiB (axis ticks of 2.3e+09 are hard to read), a
 * rate "per second"; 1 for every unit but bytes. */
double pd_chart_unit_scale(enum pd_unit u, double hi, const char **ylabel);

/* The collector of a chart's metric ("atop" of "atop/memcached_cpu"), its length. */
size_t pd_chart_collector(const struct pd_comparison *c, const struct pd_chart *ch);

#endif
