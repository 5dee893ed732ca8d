/* What the charts show, decided once on the tree: a series that is zero in
 * both runs is a line of the report's fold, not a chart; a series of one run is drawn and
 * the other's absence said; and a fact is drawn once, by the first finding that states
 * it. Every renderer reads these fields; none decides them. */
#include "chartfacts.h"
#include "analyze/opts.h"
#include "analyze/align/scope.h"

#include <math.h>
#include <stdlib.h>

/* How grid g of n points reads: 0 no finite point, 1 finite points all 0, 2 another. */
static int grid_kind(const double *g, size_t n)
{
	int seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(g[i]))
			continue;
		if (g[i] != 0)
			return 2;
		seen = 1;
	}
	return seen;
}

/* Zero in every run: each grid has a sample and every sample is 0. */
static int all_zero(const struct pd_view *v)
{
	if (grid_kind(v->target, v->n) != 1)
		return 0;
	for (size_t j = 0; j < v->n_bases; j++)
		if (grid_kind(v->bases[j], v->n) != 1)
			return 0;
	return 1;
}

/* +1 only the target has samples, -1 only the baselines, 0 both (or neither). */
static int one_run(const struct pd_view *v)
{
	int base = 0;
	for (size_t j = 0; j < v->n_bases && !base; j++)
		base = grid_kind(v->bases[j], v->n) != 0;
	int target = grid_kind(v->target, v->n) != 0;
	return v->scope.kind == PD_AT_REMOVED || base == target ? 0 : target ? 1 : -1;
}

void pd_chartfacts_views(struct pd_comparison *c)
{
	for (size_t i = 0; i < c->n_views; i++) {
		c->views[i].zero = all_zero(&c->views[i]);
		c->views[i].one_run = one_run(&c->views[i]);
	}
}

/* Whether a difference over time has a point to draw. */
static int drawable(const double *pct, size_t n)
{
	for (size_t i = 0; pct && i < n; i++)
		if (isfinite(pct[i]))
			return 1;
	return 0;
}

void pd_chartfacts_findings(struct pd_comparison *c)
{
	for (size_t f = 0; f < c->n_findings; f++) {
		struct pd_finding *fi = &c->findings[f];
		fi->chart = fi->view >= 0 ? (long)f : -1;
		for (size_t g = 0; g < f && fi->view >= 0; g++)
			if (c->findings[g].view == fi->view) {
				fi->chart = (long)g;
				break;
			}
		if (fi->view >= 0 && !drawable(fi->smooth_pct, c->views[fi->view].n)) {
			free(fi->smooth_pct);
			fi->smooth_pct = NULL;
		}
	}
}
