/* Internal to analyze/: the stages of pd_compare, each in its own file. */
#ifndef PD_COMPARE_IMPL_H
#define PD_COMPARE_IMPL_H

#include "compare.h"

/* Matches nodes by role, records the matching, and builds every view of c (c->base,
 * c->target and both time bases set). Metrics not matching opts' globs are left out. */
void pd_views_build(struct pd_comparison *c, const struct pd_compare_opts *opts);

/* How many views pd_views_build makes at most: one for each cluster metric; for a metric
 * of m nodes, 2 m + 2 (its roles, its nodes, the survivors, the removed node); of m
 * indexes, m + 1 (counted as 2 m + 2). */
size_t pd_views_bound(const struct pd_comparison *c, const struct pd_compare_opts *opts);

/* Fills grid[0..n) with s's samples: the sample nearest each grid point t0 + i step (a
 * per-request series: the mean of its requests nearest it); NaN where there is none within
 * half a step. */
void pd_views_fill(double *grid, size_t n, const struct pd_series *s, int64_t t0_ms,
		   int64_t step_ms);

/* phases.c: sets c->windows from the event of the run that has one, on either side (pre,
 * transient, post, whole; only whole without an event). */
void pd_phases_set(struct pd_comparison *c, double settle_s);

/* deltas.c: one delta per (view, window) with enough samples on both sides (10), each
 * judged by analyze/infer.h in its phase's family (drill-downs marked, not counted). */
void pd_deltas_compute(struct pd_comparison *c, const struct pd_compare_opts *opts);

/* indexes.c: each index metric's cluster view counts its indexes and those that moved,
 * and its PD_POLICY_INDEX_TOP index views that moved most are ranked (pd_view.top); after the
 * deltas. */
void pd_indexes_rank(struct pd_comparison *c);

/* chartfacts.c: what the charts show, decided once for every renderer. _views: each
 * view's pd_view.zero and .one_run (after the views); _findings: each finding's
 * pd_finding.chart, and a difference over time without a finite point dropped (smooth_pct NULL:
 * no empty chart), after the findings are ranked and smoothed. */
void pd_chartfacts_views(struct pd_comparison *c);
void pd_chartfacts_findings(struct pd_comparison *c);

/* latency.c: c->latency, the runs' latency distributions where they have them (after the
 * phases). */
void pd_latency_build(struct pd_comparison *c);
/* latency.c: c->latency_pct, the percentiles of the per-request latency collectors'
 * samples per metric and phase (after the phases); _free releases them. */
void pd_latency_pct_build(struct pd_comparison *c);
void pd_latency_pct_free(struct pd_comparison *c);

/* findings.c: the ranked findings of c. */
void pd_findings_build(struct pd_comparison *c, const struct pd_compare_opts *opts);

#endif
