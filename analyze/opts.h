/* What a comparison is asked for (perfdelta compare's options): every stage of analyze/
 * reads it, so it sits below them all. */
#ifndef PD_ANALYZE_OPTS_H
#define PD_ANALYZE_OPTS_H

#include "../core/model.h"
#include "../tree/tree.h"

#include <stddef.h>

/* A per-metric threshold: metrics matching glob (pd_views_match_name) use pct. */
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

#endif
