/* Change points over a test's history as data (analyze/stats/history.h finds them; the history
 * report renders them). Types only. */
#ifndef PD_TREE_HISTORY_H
#define PD_TREE_HISTORY_H

#include <stddef.h>

struct pd_hist_change {
	size_t feature;       /* index into the caller's names */
	size_t at;            /* index of the first run after the change */
	size_t prev;          /* index of the last run before it (with the feature) */
	double before, after; /* the means of the segments either side */
	double change_pct;    /* 100 (after - before) / |before|; NaN when before is 0 */
	double size;          /* |after - before| / pooled within-segment sd; +inf if 0 sd */
	double p;             /* E-Divisive's permutation p-value */
	double p_floor;       /* 1 / (1 + P) of its P permutations: the least p it can give */
	int p_at_floor;       /* no permutation reached it: p is the floor, the true p is
				 at most that (print "<= p_floor", not p as if exact) */
	int worse;            /* +1: the change went the metric's worse way (pd_metric_worse),
				 -1: the better way, 0: the feature has no known direction */
	int recent;           /* at is among the newest min_size runs: the earliest a change
				 can be confirmed, so the newest run's test fails on it */
};

struct pd_history {
	size_t n_runs, n_features;
	size_t n_tested;      /* features with at least 2 x min_size values (the family m) */
	double alpha_feature; /* alpha / n_tested: each feature's level */
	size_t min_size;
	struct pd_hist_change *cp; /* ranked: largest size first, then feature, then at */
	size_t n_cp;
};

#endif
