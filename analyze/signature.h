/* A run's signature: what one bundle says about itself, with no baseline, as
 * the numbers a history of runs is tracked by. Read from the comparison tree of the run
 * against itself (pd_compare(run, run)), so every figure is the one compare computes: the
 * same time base, views, phases, inference (analyze/stats/infer.h) and event story (story.h,
 * kpi.h). Pure: no I/O.
 *
 * Features are named "<metric>|<scope>|<phase>" for a window's mean (value the mean, se
 * its AR(1) standard error, infer.h; phases pre, transient, post and whole in a run with
 * an event, whole without one), and "event/<name>" or "event/<name>|<metric>|<scope>"
 * for the event's own features (se NaN):
 *   event/failed_requests        n1ql_stats/query_errors integrated over the transient
 *   event/throughput_dip_pct     lowest query rate in the 120 s after the event against
 *                                the pre-event mean, % (negative: a dip)
 *   event/recovery_s             from the event until three samples in a row are back
 *                                within the threshold of the pre-event mean; the rest of
 *                                the run when they never are
 *   event/connections_left       net/ESTABLISHED of the removed node, post-phase mean
 *   event/pre_post_pct|M|S       the post-phase mean of M at role or total scope S against
 *                                its pre-phase mean, %
 *   kpi/throughput               the throughput KPI perfrunner reported */
#ifndef PD_SIGNATURE_H
#define PD_SIGNATURE_H

#include "compare.h"
#include "../tree/signature.h"

/* The signature of run into *out (caller frees with pd_signature_free); opts as compare's
 * (NULL: PD_COMPARE_OPTS_INIT). Errors as pd_compare. */
int pd_signature_of(struct pd_signature **out, const struct pd_run *run,
		    const struct pd_compare_opts *opts, struct pd_err *err);

#endif
