/* Change points over a test's history: E-Divisive means (edivisive.h) on every
 * signature feature of a test's runs in build order, with the family of features
 * controlled by Bonferroni: each feature's splits are tested at alpha / m, m the number
 * of features tested, so that the chance of any false change point among them is at most
 * alpha (hundreds of features do not each get the per-feature rate). Pure: no I/O.
 *
 * Levels. A change point's `before` and `after` are the means of the segments either
 * side of it (bounded by the feature's neighbouring change points); its size is
 * |after - before| over the pooled standard deviation within those two segments (the
 * change in run-to-run noise units), which ranks them: a 2 % change in a quiet feature
 * can outrank a 20 % one in a noisy feature. A run without the feature is left out of
 * that feature's series (its index still names the run). */
#ifndef PD_HISTORY_H
#define PD_HISTORY_H

#include "tree/history.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

struct pd_hist_opts {
	double alpha;     /* family-wise over the features, e.g. 0.05 */
	size_t min_size;  /* runs on either side of a change, at least 2 */
	size_t max_perms; /* 0: edivisive's default (2 / per-feature alpha) */
	uint64_t seed;    /* of the permutations; each feature's is this and its name */
};
#define PD_HIST_OPTS_INIT                                                                      \
	{                                                                                      \
		.alpha = 0.05, .min_size = 4, .seed = 24                                       \
	}

/* Finds the change points of values[run * n_features + feature] (NaN: the run lacks the
 * feature), runs in build order, features named names[0..n_features) (the names seed the
 * permutations, so the same history gives the same report). Release with
 * pd_history_release. */
void pd_history_analyze(struct pd_history *out, const double *values, size_t n_runs,
			size_t n_features, const char *const *names,
			const struct pd_hist_opts *o);
void pd_history_release(struct pd_history *h);

/* The run-to-run spread of one feature at its current level: over the runs since its last
 * change point (all runs without one). What a single-baseline verdict can read as the
 * measured run-to-run variance of a metric (docs/report.md "Verdicts"; infer.h). */
struct pd_hist_spread {
	size_t from;   /* index of the first run counted */
	size_t n;      /* runs with the feature since */
	double mean;   /* their mean */
	double sd;     /* their sample sd (n - 1); NaN when n < 2 */
	double rel_sd; /* sd / |mean|; NaN when mean is 0 */
};
/* The spread of feature f of h (made from values by pd_history_analyze). */
void pd_history_spread(struct pd_hist_spread *out, const struct pd_history *h,
		       const double *values, size_t f);

/* What the choice of a target's baselines reads of a run: its key, build line ("7.1")
 * and build order (digits zero-padded so that text order is build order), its start
 * and build number. */
struct pd_hist_when {
	const char *key, *build_line, *order;
	int64_t time_ms;
	long number;
};
/* 1 when run r is a baseline candidate of target t: another run of t's build line,
 * earlier by build order, then by start, then by build number (the same build started
 * at once). compare --baseline-history N takes the newest N candidates, the run-to-run
 * spread of compare --db is read over them. */
int pd_history_earlier(const struct pd_hist_when *r, const struct pd_hist_when *t);

struct pd_compare_opts;
struct pd_view;
/* The relative run-to-run sd opts->run_spread holds for view's window feature in phase p
 * ("metric|scope|phase", as analyze/signature.c names it), or NaN when it holds none (a
 * feature measured over fewer than PD_HISTORY_MIN_RUNS runs is none). */
double pd_history_run_sd(const struct pd_compare_opts *opts, const struct pd_view *v,
			 enum pd_phase p);
#define PD_HISTORY_MIN_RUNS 3

#endif
