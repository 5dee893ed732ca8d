/* Change points over a test's history as data (analyze/stats/history.h finds them; the history
 * report renders them). Types only. */
#ifndef PD_TREE_HISTORY_H
#define PD_TREE_HISTORY_H

#include "../core/model.h"

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

/* What a feature is, from its name (analyze/stats/history.c). */
struct pd_hist_feature {
	enum pd_unit unit; /* of its values: the metric's, % for a percentage, ... */
	int way;           /* +1: a rise is worse, -1: a fall is, 0: not known */
	int constant;      /* every value in the window is the same: not tested */
};

struct pd_history {
	size_t n_runs, n_features;
	size_t n_tested;   /* features with at least 2 x min_size values, not all equal
			      (the family m) */
	size_t n_constant; /* features with enough values, all equal: left out of m */
	struct pd_hist_feature *feat; /* [n_features] */
	double alpha_feature;         /* alpha / n_tested: each feature's level */
	size_t min_size;
	struct pd_hist_change *cp; /* ranked: largest size first, then feature, then at */
	size_t n_cp;
	size_t n_top; /* the first of cp a short output (the terminal) lists */
};

#endif
