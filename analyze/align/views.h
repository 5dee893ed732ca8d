/* The views of a comparison (analyze/align/views.c): each metric aligned on one grid per scope.
 */
#ifndef PD_ANALYZE_VIEWS_H
#define PD_ANALYZE_VIEWS_H

#include "analyze/opts.h"
#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* Matches nodes by role, records the matching, and builds every view of c (c->base,
 * c->target and both time bases set). Metrics not matching opts' globs are left out. */
void pd_views_build(struct pd_comparison *c, const struct pd_compare_opts *opts);

/* How many views pd_views_build makes at most: one for each cluster metric; for a metric
 * of m nodes, 2 m + 2 (its roles, its nodes, the survivors, the removed node); of m
 * indexes, m + 1 (counted as 2 m + 2). */
size_t pd_views_bound(const struct pd_comparison *c, const struct pd_compare_opts *opts);

/* The one rule of --metrics and --threshold-for patterns: glob, an fnmatch pattern
 * without flags, against a metric's "collector/metric" name (that of series s). 1 when
 * it matches. */
int pd_views_match_name(const char *glob, const char *name);
int pd_views_match(const char *glob, const struct pd_series *s);

/* Fills grid[0..n) with s's samples: the sample nearest each grid point t0 + i step (a
 * per-request series: the mean of its requests nearest it); NaN where there is none within
 * half a step. */
void pd_views_fill(double *grid, size_t n, const struct pd_series *s, int64_t t0_ms,
		   int64_t step_ms);

#endif
