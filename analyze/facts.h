/* Facts about one run, computed once in analyze/ and read by every renderer: its time
 * base, its series' throughput, its sampling interval and each series' gaps. */
#ifndef PD_FACTS_H
#define PD_FACTS_H

#include "sampling.h"
#include "timebase.h"

struct pd_series_facts {
	struct pd_sampling_gaps gaps; /* against the run's interval */
	int constant;                 /* every sample the same (pd_sampling_constant) */
	double constant_value;
};

/* Invariant: series[i] describes run->series[i] of the run they were made from. */
struct pd_facts {
	struct pd_timebase tb;
	struct pd_estimate throughput; /* pd_kpi_served over tb's phase */
	int64_t interval_ms;           /* the median of the series' intervals, or 0 */
	struct pd_series_facts *series;
	size_t n_series;
	size_t n_constant; /* series that are constant */
};

/* Resolves run's time base under flags (PD_EINVAL as pd_timebase_resolve) and the rest
 * of its facts into *out; release with pd_facts_release. */
int pd_facts_of(struct pd_facts *out, const struct pd_run *run,
		const struct pd_time_flags *flags, struct pd_err *err);
void pd_facts_release(struct pd_facts *f);

#endif
