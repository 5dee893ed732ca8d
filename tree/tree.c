/* The names of the tree's enums: each one string form every output uses. */
#include "tree.h"

const char *pd_timebase_event_name(enum pd_timebase_event t)
{
	static const char *const names[] = {"none", "hard-failover", "graceful-failover",
					    "rebalance-out", "rebalance"};
	return names[t];
}

const char *pd_timebase_source_name(enum pd_source s)
{
	static const char *const names[] = {"none",   "console", "series",
					    "config", "build",   "flag"};
	return names[s];
}

const char *pd_infer_reason_name(enum pd_infer_reason r)
{
	static const char *const names[] = {
		[PD_INFER_DECIDED] = "decided",
		[PD_INFER_STRADDLES] = "straddles-threshold",
		[PD_INFER_FEW_SAMPLES] = "too-few-samples",
		[PD_INFER_ZERO_BASELINE] = "zero-baseline-no-absolute-rule",
		[PD_INFER_CONSTANT] = "constant",
		[PD_INFER_TOPOLOGY] = "topology",
		[PD_INFER_RUN_MARGIN] = "within-run-to-run-margin",
		[PD_INFER_TOPOLOGY_AMBIGUOUS] = "topology-ambiguous",
		[PD_INFER_NO_ESTIMATE] = "no-finite-estimate",
	};
	return (unsigned)r < sizeof(names) / sizeof(*names) ? names[r] : "?";
}

const char *pd_infer_noise_text(enum pd_infer_noise n)
{
	if (n == PD_INFER_NOISE_HISTORY)
		return "one baseline: a change's interval, widened in quadrature by a "
		       "run-to-run margin of 1.96 sqrt(2) times the metric's relative sd over "
		       "the history's runs of the test since its last change point (a node's "
		       "1.96 taken over its metric's nodes; its kind's "
		       "default where the history lacks the metric; after an event, the runs' "
		       "own difference before it where that is beyond it), must clear the "
		       "threshold";
	return n == PD_INFER_NOISE_RUNS
		       ? "judged against the moderated run-to-run variance of the baselines"
		       : "run-to-run variance not measured: a change's interval, widened in "
			 "quadrature by its metric kind's default run-to-run margin (a node's "
			 "taken over its metric's nodes; after an event, by the runs' own "
			 "difference before it where that is beyond the default's), must clear "
			 "the threshold";
}

const char *pd_live_verdict_name(enum pd_live_verdict v)
{
	static const char *const names[] = {[PD_LIVE_YES] = "yes",
					    [PD_LIVE_NO_EVENT] = "no-event",
					    [PD_LIVE_NOT_HARD] = "not-hard",
					    [PD_LIVE_NO_NODE] = "no-node",
					    [PD_LIVE_SILENT] = "silent",
					    [PD_LIVE_IDLE] = "idle",
					    [PD_LIVE_SSH_STOPPED] = "ssh-stopped"};
	return names[v];
}

const char *pd_configdiff_source_name(enum pd_configdiff_source s)
{
	static const char *const names[] = {
		[PD_CONFIGDIFF_TEST] = "test",
		[PD_CONFIGDIFF_SPEC] = "spec",
		[PD_CONFIGDIFF_BUILD] = "build",
		[PD_CONFIGDIFF_JENKINS] = "jenkins",
	};
	return names[s];
}

const char *pd_configdiff_change_name(enum pd_configdiff_change c)
{
	static const char *const names[] = {
		[PD_CONFIGDIFF_ADDED] = "added",
		[PD_CONFIGDIFF_REMOVED] = "removed",
		[PD_CONFIGDIFF_CHANGED] = "changed",
	};
	return names[c];
}

const char *pd_phase_name(enum pd_phase p)
{
	static const char *const names[] = {[PD_PHASE_PRE] = "pre",
					    [PD_PHASE_TRANSIENT] = "transient",
					    [PD_PHASE_POST] = "post",
					    [PD_PHASE_WHOLE] = "whole"};
	return names[p];
}

const char *pd_latency_status_name(enum pd_latency_status s)
{
	static const char *const names[] = {[PD_LATENCY_OK] = "ok",
					    [PD_LATENCY_FEW] = "not enough samples",
					    [PD_LATENCY_NONE] = "no samples"};
	return names[s];
}

const char *pd_verdict_name(enum pd_verdict v)
{
	static const char *const names[] = {[PD_VERDICT_SAME] = "same",
					    [PD_VERDICT_IMPROVEMENT] = "improvement",
					    [PD_VERDICT_REGRESSION] = "regression",
					    [PD_VERDICT_INCONCLUSIVE] = "inconclusive",
					    [PD_VERDICT_NOT_COMPARABLE] = "not-comparable"};
	return names[v];
}

const char *pd_finding_kind_name(enum pd_finding_kind k)
{
	static const char *const names[] = {
		[PD_FIND_NOT_COMPARABLE] = "not-comparable",
		[PD_FIND_POST_EVENT_MISMATCH] = "post-event-mismatch",
		[PD_FIND_LINGERING] = "lingering-connections",
		[PD_FIND_KPI_SCOPE] = "kpi-scope",
		[PD_FIND_METRIC_SHIFT] = "metric-shift",
		[PD_FIND_RECOVERY] = "recovery",
		[PD_FIND_DATA_GAP] = "data-gap",
		[PD_FIND_EVENT_ERRORS] = "event-errors",
		[PD_FIND_HARD_FAILOVER_LIVE] = "hard-failover-live-node",
		[PD_FIND_KPI_CHANGE] = "kpi-change"};
	return names[k];
}

const char *pd_question_kind_name(enum pd_question_kind k)
{
	static const char *const names[] = {[PD_Q_REQUESTS_LOST] = "requests-lost",
					    [PD_Q_CONNECTIONS_KEPT] = "connections-kept",
					    [PD_Q_ROLE_CHANGE] = "role-change",
					    [PD_Q_CLUSTER_CHANGE] = "cluster-change",
					    [PD_Q_KPI_COUNTS] = "kpi-counts",
					    [PD_Q_RECOVERY] = "recovery"};
	return names[k];
}

const char *pd_agg_name(enum pd_agg a)
{
	static const char *const names[] = {
		[PD_AGG_ONE] = "one", [PD_AGG_SUM] = "sum", [PD_AGG_MEAN] = "mean"};
	return names[a];
}

const char *pd_nodeshift_kind_name(enum pd_nodeshift_kind k)
{
	static const char *const names[] = {[PD_NODESHIFT_NODE] = "node",
					    [PD_NODESHIFT_REMOVED] = "removed",
					    [PD_NODESHIFT_SURVIVORS] = "survivors",
					    [PD_NODESHIFT_ALL] = "all"};
	return names[k];
}

const struct pd_timebase *pd_comparison_event(const struct pd_comparison *c)
{
	return c->event_side < 0 ? &c->tb_base : &c->tb_target;
}

int pd_comparison_has_phase(const struct pd_comparison *c, enum pd_phase p)
{
	return c->has_event || p == PD_PHASE_WHOLE;
}

const char *pd_tree_margin_name(enum pd_infer_margin m)
{
	static const char *const names[] = {[PD_INFER_MARGIN_NONE] = "none",
					    [PD_INFER_MARGIN_KIND] = "kind-default",
					    [PD_INFER_MARGIN_HISTORY] = "history",
					    [PD_INFER_MARGIN_PRE] = "pre-event-offset",
					    [PD_INFER_MARGIN_NOISE] = "run-noise"};
	return (unsigned)m < sizeof(names) / sizeof(*names) ? names[m] : "?";
}

const char *pd_tree_noise_name(enum pd_infer_noise n)
{
	return n == PD_INFER_NOISE_RUNS      ? "between-run"
	       : n == PD_INFER_NOISE_HISTORY ? "history"
					     : "within-run";
}
