/* The analysis API: compares a baseline run with a target run into the comparison tree
 * (tree/tree.h: aligned views, phases, deltas with verdicts, ranked findings). Pure
 * functions over the model: no I/O. Renderers include tree/tree.h, never this header. */
#ifndef PD_COMPARE_H
#define PD_COMPARE_H

#include "analyze/runs/configdiff.h"
#include "analyze/runs/facts.h"
#include "analyze/runs/kpi.h"
#include "analyze/stats/infer.h"
#include "analyze/stats/stats.h"
#include "analyze/runs/story.h"
#include "analyze/runs/timebase.h"
#include "../core/err.h"
#include "../core/model.h"
#include "../tree/tree.h"
#include "opts.h"
#include "analyze/align/scope.h"
#include "analyze/judge/verdict.h"

/* Compares base with target into *out (caller frees with pd_comparison_free). Runs that
 * cannot be compared still give a comparison, with verdict not-comparable and reasons.
 * PD_EINVAL for a flag that contradicts the runs, PD_ECOMPARE for runs with fewer than
 * two samples per series (no grid to compare them on). */
int pd_compare(struct pd_comparison **out, const struct pd_run *base,
	       const struct pd_run *target, const struct pd_compare_opts *opts,
	       struct pd_err *err);

/* pd_compare in two steps, so that what needs only the aligned series (the per-metric
 * charts) can be done while the statistics are computed: pd_compare_views resolves the
 * time bases and builds the views and phases; pd_compare_measure adds the deltas, the
 * findings and the verdict, and adds no view. */
int pd_compare_views(struct pd_comparison **out, const struct pd_run *base,
		     const struct pd_run *target, const struct pd_compare_opts *opts,
		     struct pd_err *err);
void pd_compare_measure(struct pd_comparison *c, const struct pd_compare_opts *opts);
void pd_comparison_free(struct pd_comparison *c);

#endif
