/* The verdicts (analyze/judge/verdict.c): the threshold a metric is judged at, a delta's
 * verdict from its inference, and the one sentence each of how the deltas were judged. */
#ifndef PD_ANALYZE_VERDICT_H
#define PD_ANALYZE_VERDICT_H

#include "analyze/opts.h"
#include "tree/tree.h"

/* The verdict of an inference (the same names). */
enum pd_verdict pd_verdict_of_infer(enum pd_infer_verdict v);

/* How the deltas were judged, in one sentence each: the one source of the tree's method
 * and family (pd_comparison.method, .family), which every output and document states. */
extern const char pd_compare_method[];
extern const char pd_compare_family[];

/* The threshold that applies to metric. */
double pd_compare_threshold(const struct pd_compare_opts *opts, const char *metric);

/* How c's changes were judged, in one sentence (pd_comparison.judged): its threshold,
 * correction and noise, which every output states. Caller frees. */
char *pd_verdict_judged(const struct pd_comparison *c);

#endif
