/* The analysis API: compares a baseline run with a target run into the comparison tree
 * (tree/tree.h: aligned views, phases, deltas with verdicts, ranked findings). Pure
 * functions over the model: no I/O. Renderers include tree/tree.h, never this header. */
#ifndef PD_COMPARE_H
#define PD_COMPARE_H

#include "configdiff.h"
#include "facts.h"
#include "kpi.h"
#include "infer.h"
#include "stats.h"
#include "story.h"
#include "timebase.h"
#include "../core/err.h"
#include "../core/model.h"
#include "../tree/tree.h"

/* Scopes (analyze/scope.c). */
void pd_scope_ref_set(struct pd_scope_ref *s, enum pd_scope_kind kind, unsigned service,
		      const char *host);
void pd_scope_ref_copy(struct pd_scope_ref *dst, const struct pd_scope_ref *src);
void pd_scope_ref_free(struct pd_scope_ref *s);
/* 1 when a and b are the same scope. */
int pd_scope_ref_eq(const struct pd_scope_ref *a, const struct pd_scope_ref *b);
/* How broad a scope is: 0 for the cluster and the survivors (the broad scopes), 1 for a
 * role, 2 for one node (the removed one too). A finding stands at the broadest. */
int pd_scope_ref_rank(const struct pd_scope_ref *s);
/* Each delta's members and nodes in its phase (a role loses the node the target's event
 * removed from the event on); a role left with one node judges that node's delta of the
 * phase too, where the two are one series (one verdict). After the deltas are judged. */
void pd_scope_phases(struct pd_comparison *c);

/* A per-metric threshold: metrics matching glob (fnmatch) use pct. */
struct pd_threshold {
	const char *glob;
	double pct;
};

struct pd_compare_opts {
	double threshold_pct;                 /* practical threshold, default 5 */
	const struct pd_threshold *overrides; /* first match wins */
	size_t n_overrides;
	const char *const *metric_globs; /* --metrics: only these (NULL = all) */
	size_t n_metric_globs;
	double settle_s;                /* after the rebalance, default 60 */
	double alpha;                   /* family-wise, default 0.05 */
	int gate;                       /* 1: a regression fails (--fail-on regression) */
	struct pd_time_flags time;      /* the target's --event-time and clock */
	struct pd_time_flags time_base; /* the baseline's (--baseline-event-time ...) */
	/* more baselines of the same workload (compare B1 B2 [B3...] T): the between-run
	 * spread is measured over the first (pd_compare's base) and these */
	const struct pd_run *const *more_base;
	size_t n_more_base;
	/* one baseline: the history's spreads, sorted by feature; a delta whose feature is
	 * there takes its margin from them (pd_history_run_sd), not its kind's default */
	const struct pd_run_spread *run_spread;
	size_t n_run_spread;
};
#define PD_COMPARE_OPTS_INIT                                                                   \
	{                                                                                      \
		.threshold_pct = 5.0, .settle_s = 60.0, .alpha = 0.05, .gate = 1               \
	}

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

/* The verdict of an inference (the same names). */
enum pd_verdict pd_verdict_of_infer(enum pd_infer_verdict v);

/* How the deltas were judged, in one sentence each: the one source of the tree's method
 * and family (pd_comparison.method, .family), which every output and document states. */
extern const char pd_compare_method[];
extern const char pd_compare_family[];

/* The threshold that applies to metric. */
double pd_compare_threshold(const struct pd_compare_opts *opts, const char *metric);

#endif
