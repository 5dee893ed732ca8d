#include "facts.h"
#include "kpi.h"
#include "core/xalloc.h"

#include <stdlib.h>
#include <string.h>

int pd_facts_of(struct pd_facts *out, const struct pd_run *run,
		const struct pd_time_flags *flags, struct pd_err *err)
{
	int rc;
	memset(out, 0, sizeof(*out));
	if ((rc = pd_timebase_resolve(&out->tb, run, flags, err)) < 0) {
		pd_timebase_release(&out->tb);
		return rc;
	}
	out->throughput = pd_kpi_served(run, &out->tb);
	out->interval_ms = pd_sampling_run_interval_ms(run);
	out->n_series = run->n_series;
	out->series = pd_xcalloc(run->n_series + 1, sizeof(*out->series));
	for (size_t i = 0; i < run->n_series; i++) {
		struct pd_series_facts *sf = &out->series[i];
		sf->gaps = pd_sampling_gaps(run->series[i], out->interval_ms);
		sf->constant = pd_sampling_constant(run->series[i], &sf->constant_value);
		out->n_constant += (size_t)sf->constant;
	}
	return 0;
}

void pd_facts_release(struct pd_facts *f)
{
	free(f->series);
	pd_timebase_release(&f->tb);
	f->series = NULL;
	f->n_series = 0;
}
