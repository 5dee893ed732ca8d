#include "finding.h"
#include "analyze/align/scope.h"
#include "core/xalloc.h"

#include <math.h>
#include <string.h>

/* The one weight table: a finding ranks by its kind's weight plus its size (its change
 * against the threshold, its count against its floor) up to the kind's cap. A size lifts a
 * finding over a kind above it where the gap is under the cap: lingering (280 + 99) can
 * pass post-event-mismatch (300), kpi-scope (260 + 99) hard-failover-live-node (265),
 * metric-shift (200 + 99) kpi-change (255), data-gap (50 + 99) recovery (100). */
static const struct {
	double weight, cap;
} rank_of[] = {
	[PD_FIND_NOT_COMPARABLE] = {1000, 99},   [PD_FIND_POST_EVENT_MISMATCH] = {300, 99},
	[PD_FIND_LINGERING] = {280, 99},         [PD_FIND_EVENT_ERRORS] = {270, 9},
	[PD_FIND_HARD_FAILOVER_LIVE] = {265, 0}, [PD_FIND_KPI_SCOPE] = {260, 99},
	[PD_FIND_KPI_CHANGE] = {255, 4},         [PD_FIND_METRIC_SHIFT] = {200, 99},
	[PD_FIND_RECOVERY] = {100, 99},          [PD_FIND_DATA_GAP] = {50, 99}};

struct pd_finding *pd_finding_add(struct pd_comparison *c, enum pd_finding_kind kind,
				  const char *metric, const struct pd_scope_ref *scope, long vi,
				  double size)
{
	PD_GROW(c->findings, c->cap_findings, c->n_findings + 1);
	struct pd_finding *f = &c->findings[c->n_findings++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->metric = metric ? pd_xstrdup(metric) : NULL;
	if (scope)
		pd_scope_ref_copy(&f->scope, scope);
	f->delta_pct = f->value = NAN;
	f->view = vi;
	f->delta = -1; /* delta_outcomes finds it */
	f->score =
		rank_of[kind].weight + (isnan(size) ? 0 : fmin(fabs(size), rank_of[kind].cap));
	return f;
}

void pd_finding_pre_words(struct pd_buf *b, const struct pd_delta *pre)
{
	if (pre && pre->topology)
		pd_buf_adds(b, "the runs differed only by their topology");
	else if (!pre || pre->verdict == PD_VERDICT_SAME)
		pd_buf_adds(b, "the runs agreed");
	else
		pd_buf_addf(
			b,
			"the runs differed by %+.1f%%, within a run's own noise (%s against "
			"the run-to-run margin)",
			pre->delta_pct, pd_verdict_name(pre->verdict));
}
