#include "compare.h"

#include <math.h>

const char *pd_verdict_name(enum pd_verdict v)
{
	static const char *const names[] = {[PD_VERDICT_SAME] = "same",
					    [PD_VERDICT_IMPROVEMENT] = "improvement",
					    [PD_VERDICT_REGRESSION] = "regression",
					    [PD_VERDICT_INCONCLUSIVE] = "inconclusive",
					    [PD_VERDICT_NOT_COMPARABLE] = "not-comparable"};
	return names[v];
}

enum pd_verdict pd_verdict_of(double delta, double lo, double hi, double p_adj, double alpha,
			      double thr, int worse)
{
	int significant = p_adj < alpha && (lo > 0 || hi < 0);
	if (isnan(delta) || isnan(lo) || isnan(hi))
		return PD_VERDICT_INCONCLUSIVE;
	if (lo >= -thr && hi <= thr)
		return PD_VERDICT_SAME;
	if (significant && fabs(delta) >= thr)
		return (delta > 0) == (worse > 0) ? PD_VERDICT_REGRESSION
						  : PD_VERDICT_IMPROVEMENT;
	if (significant)
		return PD_VERDICT_SAME;
	return PD_VERDICT_INCONCLUSIVE;
}
