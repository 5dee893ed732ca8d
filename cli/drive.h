/* The comparison and its report, run together: the analysis (analyze/compare.h) and the
 * renderers (render/report.h) meet here, in cli/, and nowhere else. */
#ifndef PD_DRIVE_H
#define PD_DRIVE_H

#include "analyze/compare.h"
#include "render/report.h"

/* Wall seconds spent by pd_drive_compare. analyze and render overlap (gnuplot draws the
 * per-metric charts while the statistics are computed): each counts its own calls. */
struct pd_drive_times {
	double analyze, render;
};

/* The one way to run a comparison and its report: checks that every --metrics pattern
 * of copts matches a series (PD_EINVAL naming it), compares base and target into *c
 * (the caller frees it with pd_comparison_free, also after a failure), and writes the
 * report o asks for, the per-metric charts drawn while the statistics are computed.
 * warnings (may be NULL) are the command line's own (about how the report is written),
 * added to the comparison's, so that every output states them. times (may be
 * NULL) gets the time of each stage added. */
int pd_drive_compare(struct pd_comparison **c, const struct pd_run *base,
		     const struct pd_run *target, const struct pd_compare_opts *copts,
		     const struct pd_report_opts *o, const struct pd_strv *warnings,
		     struct pd_drive_times *times, struct pd_err *err);

#endif
