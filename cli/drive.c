/* The one way to run a comparison and its report (cli/drive.h). */
#include "cli/drive.h"
#include "analyze/align/views.h"
#include "core/clock.h"

/* Whether glob matches the collector/metric of a series of either run. */
static int matches_a_series(const struct pd_run *const runs[2], const char *glob)
{
	int found = 0;
	for (size_t r = 0; r < 2 && !found; r++)
		for (size_t i = 0; i < runs[r]->n_series && !found; i++)
			found = pd_views_match(glob, runs[r]->series[i]);
	return found;
}

/* PD_EINVAL naming the first --metrics or --threshold-for pattern that matches no series
 * of either run: a typo would otherwise compare nothing (or judge by the default
 * threshold) and pass. */
static int check_globs(const struct pd_run *base, const struct pd_run *target,
		       const struct pd_compare_opts *copts, struct pd_err *err)
{
	const struct pd_run *const runs[2] = {base, target};
	for (size_t g = 0; g < copts->n_metric_globs; g++)
		if (!matches_a_series(runs, copts->metric_globs[g]))
			return pd_err_set(
				err, PD_EINVAL,
				"--metrics pattern '%s' matches no collector/metric of "
				"either run",
				copts->metric_globs[g]);
	for (size_t g = 0; g < copts->n_overrides; g++)
		if (!matches_a_series(runs, copts->overrides[g].glob))
			return pd_err_set(err, PD_EINVAL,
					  "--threshold-for pattern '%s' matches no "
					  "collector/metric of either run",
					  copts->overrides[g].glob);
	return 0;
}

static void lap(double *stage, double *mark)
{
	double t = pd_clock_now();
	*stage += t - *mark;
	*mark = t;
}

/* Whether the charts must wait for the measured deltas: an index metric charts the indexes
 * that moved most (pd_view.top, set by pd_compare_measure), so its charts can only be
 * planned after it. Other comparisons measure while gnuplot draws. */
static int charts_need_measure(const struct pd_comparison *c)
{
	for (size_t i = 0; i < c->n_views; i++)
		if (c->views[i].scope.kind == PD_AT_INDEX)
			return 1;
	return 0;
}

int pd_drive_compare(struct pd_comparison **c, const struct pd_run *base,
		     const struct pd_run *target, const struct pd_compare_opts *copts,
		     const struct pd_report_opts *o, const struct pd_strv *warnings,
		     struct pd_drive_times *times, struct pd_err *err)
{
	struct pd_drive_times none = {0};
	struct pd_report *report;
	double mark = pd_clock_now();
	int rc;
	times = times ? times : &none;
	*c = NULL;
	if ((rc = check_globs(base, target, copts, err)) < 0 ||
	    (rc = pd_report_start(&report, o, target->n_series, err)) < 0)
		return rc;
	lap(&times->render, &mark);
	if ((rc = pd_compare_views(c, base, target, copts, err)) < 0) {
		pd_report_abort(report);
		return rc;
	}
	for (size_t i = 0; warnings && i < warnings->n; i++)
		pd_strv_add(&(*c)->warnings, warnings->v[i]);
	int early = charts_need_measure(*c);
	if (early)
		pd_compare_measure(*c, copts);
	lap(&times->analyze, &mark);
	if ((rc = pd_report_begin(report, *c, err)) < 0)
		return rc;
	lap(&times->render, &mark);
	if (!early)
		pd_compare_measure(*c, copts); /* while gnuplot draws the per-metric charts */
	lap(&times->analyze, &mark);
	rc = pd_report_finish(report, err);
	lap(&times->render, &mark);
	return rc;
}
