/* Which charts a report draws, with their data decimated for drawing. */
#ifndef PD_CHARTS_H
#define PD_CHARTS_H

#include "plot.h"
#include "../analyze/compare.h"

enum pd_chart_kind { PD_CHART_FINDING, PD_CHART_DELTA, PD_CHART_METRIC };

struct pd_chart {
	enum pd_chart_kind kind;
	long finding;  /* index of the finding it shows, or -1 */
	size_t view;   /* the view it draws */
	char file[32]; /* "f01.svg", "f01-delta.svg", "m012.svg" */
	char title[400];
	struct pd_plot_chart plot;
	struct pd_plot_line lines[3];
	double *data; /* owned: the decimated arrays of every line */
};

struct pd_chart_plan {
	struct pd_chart *charts;
	size_t n, cap;
	struct pd_plot_band bands[3];
	size_t n_bands;
};

/* Plans the charts of c in two steps, so that the first can be drawn while the
 * statistics are computed: pd_chart_plan_metrics needs only the views and phases, and
 * plans one chart per metric at its broadest scope; pd_chart_plan_findings then adds one
 * (and a delta-over-time chart) per finding that has a view, and returns the index of
 * its first chart. Arrays are decimated to max_points; adding moves the charts. */
void pd_chart_plan_metrics(struct pd_chart_plan *plan, const struct pd_comparison *c,
			   size_t max_points);
size_t pd_chart_plan_findings(struct pd_chart_plan *plan, const struct pd_comparison *c,
			      size_t max_points);
void pd_chart_plan_free(struct pd_chart_plan *plan);

/* The finding whose charts finding f shows: the first one with the same view (two
 * findings about one view, a KPI and the recovery from the same throughput series, share
 * their charts: they are drawn once). */
long pd_chart_finding_owner(const struct pd_comparison *c, size_t f);

/* The chart of plan drawing view vi as a metric chart, or NULL. */
const struct pd_chart *pd_chart_for_view(const struct pd_chart_plan *plan, size_t vi);

#endif
