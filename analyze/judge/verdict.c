#include "verdict.h"
#include "analyze/opts.h"
#include "analyze/align/scope.h"
#include "analyze/align/views.h"
#include "core/buf.h"

const char pd_compare_method[] =
	"one noise model per window (the largest of AR(1), AR(p) by AIC, overlapping batch "
	"means and, for a window under half a phase, a floor from the baseline run's other "
	"phase): the change of means (log ratio, ratio, or "
	"absolute where the baseline is 0) with its interval, p-value and verdict from one "
	"statistic, Bonferroni-simultaneous over the family";
const char pd_compare_family[] =
	"the top-level deltas of each phase; drill-downs (nodes under their role, atop under "
	"its REST twin) are judged at their parent's level and not counted (with one "
	"baseline, a node's run-to-run margin is 95 % over its metric's nodes)";

enum pd_verdict pd_verdict_of_infer(enum pd_infer_verdict v)
{
	static const enum pd_verdict map[] = {[PD_INFER_SAME] = PD_VERDICT_SAME,
					      [PD_INFER_IMPROVEMENT] = PD_VERDICT_IMPROVEMENT,
					      [PD_INFER_REGRESSION] = PD_VERDICT_REGRESSION,
					      [PD_INFER_INCONCLUSIVE] =
						      PD_VERDICT_INCONCLUSIVE};
	return map[v];
}

double pd_compare_threshold(const struct pd_compare_opts *opts, const char *metric)
{
	for (size_t i = 0; i < opts->n_overrides; i++)
		if (pd_views_match_name(opts->overrides[i].glob, metric))
			return opts->overrides[i].pct;
	return opts->threshold_pct;
}

char *pd_verdict_judged(const struct pd_comparison *c)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b,
		    "a change counts past the %.1f%% threshold when its simultaneous interval "
		    "(%s correction) clears it; %s",
		    c->threshold_pct, c->correction, pd_infer_noise_text(c->noise));
	return pd_buf_detach(&b);
}
