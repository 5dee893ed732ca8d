/* Facts about one run, computed once in analyze/ and read by every renderer: its time
 * base, its series' throughput, its sampling interval and each series' gaps. */
#ifndef PD_FACTS_H
#define PD_FACTS_H

#include "tree/tree.h"
#include "analyze/stats/sampling.h"
#include "timebase.h"

/* Resolves run's time base under flags (PD_EINVAL as pd_timebase_resolve) and the rest
 * of its facts into *out; release with pd_facts_release. */
int pd_facts_of(struct pd_facts *out, const struct pd_run *run,
		const struct pd_time_flags *flags, struct pd_err *err);
void pd_facts_release(struct pd_facts *f);

#endif
