/* The comparison of a baseline run with a target run: aligned views, phases, deltas with
 * verdicts, and ranked findings. Pure functions over the model: no I/O.
 * (The comparison lives here rather than in core/ because it is made of the analysis'
 * own types: time bases and summaries.) */
#ifndef PD_COMPARE_H
#define PD_COMPARE_H

#include "configdiff.h"
#include "facts.h"
#include "kpi.h"
#include "infer.h"
#include "stats.h"
#include "story.h"
#include "timebase.h"
#include "../core/err.h"
#include "../core/model.h"

enum pd_phase { PD_PHASE_PRE, PD_PHASE_TRANSIENT, PD_PHASE_POST, PD_PHASE_WHOLE };
#define PD_PHASE_COUNT 4
const char *pd_phase_name(enum pd_phase p); /* "pre", "transient", "post", "whole" */

enum pd_verdict {
	PD_VERDICT_SAME,
	PD_VERDICT_IMPROVEMENT,
	PD_VERDICT_REGRESSION,
	PD_VERDICT_INCONCLUSIVE,
	PD_VERDICT_NOT_COMPARABLE
};
const char *pd_verdict_name(enum pd_verdict v); /* "same", "improvement", ... */

/* What a test report (JUnit) makes of a delta or a finding: decided in analyze/, read by
 * the writer. */
enum pd_outcome { PD_OUTCOME_PASS, PD_OUTCOME_FAIL, PD_OUTCOME_ERROR };

enum pd_finding_kind {
	PD_FIND_NOT_COMPARABLE,
	PD_FIND_POST_EVENT_MISMATCH,
	PD_FIND_LINGERING,
	PD_FIND_KPI_SCOPE,
	PD_FIND_METRIC_SHIFT,
	PD_FIND_RECOVERY,
	PD_FIND_DATA_GAP,
	PD_FIND_EVENT_ERRORS,       /* analyze/findings_story.c: requests failed at the event */
	PD_FIND_HARD_FAILOVER_LIVE, /* a hard failover of a node that was still alive */
	PD_FIND_KPI_CHANGE          /* the throughput KPI from run to run, with its causes */
};
const char *pd_finding_kind_name(enum pd_finding_kind k); /* "metric-shift", ... */

/* What part of the cluster a view or a finding is about. */
enum pd_scope_kind {
	PD_AT_NONE,      /* a finding about no one metric (not comparable) */
	PD_AT_CLUSTER,   /* a cluster- or bucket-scope series, or every node of a metric */
	PD_AT_SURVIVORS, /* the target nodes that stay, every role */
	PD_AT_ROLE,      /* the surviving nodes whose first service is `service` */
	PD_AT_NODE,      /* one surviving node, `host` */
	PD_AT_REMOVED    /* the node the event removed, `host` */
};

/* A typed scope; name is its one string form for the outputs ("cluster", "survivors",
 * "role:kv", "node:172.23.100.55", "removed"; NULL for PD_AT_NONE), made by
 * pd_scope_ref_set. Owns host and name (pd_scope_ref_free). */
struct pd_scope_ref {
	enum pd_scope_kind kind;
	unsigned service; /* PD_AT_ROLE: the PD_SVC_* bit; 0 otherwise */
	char *host;       /* PD_AT_NODE, PD_AT_REMOVED: the node; NULL otherwise */
	char *name;
};
void pd_scope_ref_set(struct pd_scope_ref *s, enum pd_scope_kind kind, unsigned service,
		      const char *host);
void pd_scope_ref_copy(struct pd_scope_ref *dst, const struct pd_scope_ref *src);
void pd_scope_ref_free(struct pd_scope_ref *s);
/* 1 when a and b are the same scope. */
int pd_scope_ref_eq(const struct pd_scope_ref *a, const struct pd_scope_ref *b);
/* How broad a scope is: 0 for the cluster and the survivors (the broad scopes), 1 for a
 * role, 2 for one node (the removed one too). A finding stands at the broadest. */
int pd_scope_ref_rank(const struct pd_scope_ref *s);

/* A time window of the measured phase, seconds from its start (the same offsets in
 * both runs). */
struct pd_window {
	enum pd_phase phase;
	double start_s, end_s; /* [start, end) */
};

/* How a view's members make its value (analyze/views.c): percentages (CPU) are averaged
 * over the members, everything else (counts, bytes, rates, ms) is summed; a view of one
 * member is that series as is. */
enum pd_agg { PD_AGG_ONE, PD_AGG_SUM, PD_AGG_MEAN };
const char *pd_agg_name(enum pd_agg a); /* "one", "sum", "mean" */

/* One metric at one scope, both runs on the common grid t = i * step_s.
 * Invariant: base and target have n entries; NaN where the run has no value there. */
struct pd_view {
	char *metric; /* "atop/memcached_cpu" */
	struct pd_scope_ref scope;
	char *nodes; /* the target nodes it covers, "172.23.100.210,..." or "" */
	enum pd_unit unit;
	int worse;       /* +1 when up is worse, -1 when down is worse */
	enum pd_agg agg; /* how the members make the value */
	size_t members;  /* target nodes (or buckets, for a cluster view) it aggregates */
	size_t n;
	double step_s;
	double *base, *target;
	double **bases; /* every baseline's grid, bases[0] == base; n_bases of them */
	size_t n_bases;
	int drill; /* a drill-down: a node under its role, or atop under its REST twin */
	/* phases (bit 1 << enum pd_phase) where the view's per-node load differs by the
	 * topology (a role with another number of active nodes): explained, not a finding */
	unsigned topology;
	int total; /* a role's total over its active nodes (the removed one before the
		      event): the topology-proof comparison of that role */
	/* a total's active nodes, baseline over target, per phase where they differ (0
	 * elsewhere): a total that differs only by this ratio is a per-node level that held */
	double node_ratio[PD_PHASE_COUNT];
};

/* One delta: the summaries of both windows and the one inference on them (analyze/infer.h):
 * delta_pct, ci_lo, ci_hi, p_value, p_adj and verdict are inf's, the interval the one the
 * verdict reads (Bonferroni over the delta's family); delta_pct and the interval are NaN
 * where a percentage is undefined (a zero baseline: inf holds the absolute change and, for
 * a rate, the count). */
struct pd_delta {
	size_t view; /* index into pd_comparison.views */
	enum pd_phase phase;
	struct pd_summary base, target; /* the first baseline's and the target's windows */
	struct pd_infer_side side_target;
	struct pd_infer_side side_base; /* one baseline */
	struct pd_infer_spread spread;  /* several: their between-run spread */
	struct pd_infer_result inf;
	double delta_pct; /* of means; NaN when no percentage is defined */
	double ci_lo, ci_hi;
	double p_value, p_adj;
	int drill;    /* judged in its parent's family, not counted in it */
	int topology; /* the difference is the topology's: no finding */
	enum pd_verdict verdict;
	enum pd_outcome outcome; /* FAIL for a regression */
};

/* The numbers a finding's sentence states, by its kind (a shift's are those of the deltas
 * it names; the KPI finding's are its delta_pct and value). */
union pd_finding_numbers {
	struct {
		long delta;   /* index into pd_comparison.deltas: the change stated */
		long pre;     /* the pre-event delta it compares (post-event-mismatch), or
				 shows it predates the event (metric-shift), or -1 */
		int predates; /* a shift over the whole run, already there before the event */
		/* memory after the event: the post-phase slopes (units per second) and those of
		 * its second half, which tell a leak from a new level */
		int has_slope;
		double slope_target, slope_base, late_target, late_base;
		int leak;
	} shift;
	struct {
		double median, min, max; /* connections over the post phase */
		double from_s;           /* where the post phase starts */
		double event_s;          /* the failover */
		double held_s;           /* from the event to the last sample >= at_least */
		double at_least;         /* what counts as still holding (PD_LINGER_MIN) */
		int to_end;              /* still held at the end of the run */
		double before;           /* the node's median before the event */
	} linger;
	struct {
		double low, low_s; /* the lowest rate after the event and when */
		double ref;        /* the baseline's median over the whole run */
		double back_s; /* back within the threshold this long after the event; NaN */
	} recovery;
	struct {
		double longest_s; /* the longest hole (the series in metric and scope) */
	} gap;
	struct pd_event_errors errors; /* event-errors: the counts and their evidence */
	struct pd_live_node live;      /* hard-failover-live-node: the node's evidence */
	struct {
		struct pd_kpi_change change;  /* the KPI and the served rates */
		struct pd_kpi_rules rules[2]; /* [0] the baseline's KPI, [1] the target's */
		int has_rules[2];             /* that run's rules were computed */
		struct pd_closed_loop base_loop, loop; /* Little's law in each run */
	} kpi;
};

struct pd_finding {
	enum pd_finding_kind kind;
	union pd_finding_numbers n; /* by kind; zero for the others */
	char *metric;               /* NULL when the finding is not about one metric */
	struct pd_scope_ref scope;  /* PD_AT_NONE likewise */
	int has_phase;
	enum pd_phase phase;
	int direction;           /* +1 up, -1 down, 0 none */
	double delta_pct;        /* NaN when none */
	double value;            /* NaN when none */
	double score;            /* higher first */
	long view;               /* the view that shows it, or -1 */
	char *text;              /* one sentence with the numbers, to paste */
	int regresses;           /* a change the worse way past the threshold, or connections
				    left behind above it: the comparison's verdict is a
				    regression */
	enum pd_outcome outcome; /* FAIL: regresses and the gate is on (--fail-on regression);
				    ERROR: the runs are not comparable */
};

/* A per-metric threshold: metrics matching glob (fnmatch) use pct. */
struct pd_threshold {
	const char *glob;
	double pct;
};

struct pd_compare_opts {
	double threshold_pct;                 /* practical threshold, default 5 */
	const struct pd_threshold *overrides; /* first match wins */
	size_t n_overrides;
	const char *const *metric_globs; /* --metrics: only these (NULL = all) */
	size_t n_metric_globs;
	double settle_s;                /* after the rebalance, default 60 */
	double alpha;                   /* family-wise, default 0.05 */
	int gate;                       /* 1: a regression fails (--fail-on regression) */
	struct pd_time_flags time;      /* the target's --event-time and clock */
	struct pd_time_flags time_base; /* the baseline's (--baseline-event-time ...) */
	/* more baselines of the same workload (compare B1 B2 [B3...] T): the between-run
	 * spread is measured over the first (pd_compare's base) and these */
	const struct pd_run *const *more_base;
	size_t n_more_base;
};
#define PD_COMPARE_OPTS_INIT                                                                   \
	{                                                                                      \
		.threshold_pct = 5.0, .settle_s = 60.0, .alpha = 0.05, .gate = 1               \
	}

struct pd_nodeshift;

struct pd_comparison {
	const struct pd_run *base, *target; /* borrowed */
	const struct pd_run **bases;        /* every baseline, bases[0] == base; borrowed */
	size_t n_bases;
	struct pd_timebase tb_base, tb_target;
	struct pd_timebase *tb_more; /* the other baselines' (n_bases - 1) */
	/* the run whose event defines the phases: +1 the target, -1 the baseline (a failover
	 * run given as the baseline: the findings come back mirrored), 0 none */
	int event_side;
	int base_event; /* the baseline's own event is followed (either side): its removed node
			   is active before it only */
	/* each run's KPI facts (analyze/kpi.c, the one owner): its throughput KPI, the
	   throughput its series give (served), the removed node's requests and the KPI
	   rules; kpi_bases[j] is bases[j]'s (n_bases of them) */
	struct pd_kpi_facts kpi_target;
	struct pd_kpi_facts *kpi_bases;
	double step_s; /* the common grid */
	double length_s;
	/* where the baseline's grid starts: its t0, or later by base_shift_s when both runs
	 * have an event, so that the two events fall on the same grid point */
	int64_t base_grid_t0_ms;
	double base_shift_s;
	int has_event; /* a run has an event (event_side): every phase has its window */
	struct pd_window windows[PD_PHASE_COUNT]; /* windows[p].phase == p; without an
						     event only PD_PHASE_WHOLE is set */
	struct pd_view *views;
	size_t n_views, cap_views;
	struct pd_delta *deltas;
	size_t n_deltas, cap_deltas;
	struct pd_finding *findings; /* ranked */
	size_t n_findings, cap_findings;
	struct pd_configdiff *config_diff; /* the runs' settings that differ; never NULL */
	struct pd_nodeshift
		*shift;         /* the event's story per node (nodeshift.h), once measured */
	struct pd_strv reasons; /* why the runs are not comparable */
	/* what a reader must know before any figure, said on stderr and at the top of every
	   output: the event's sources that disagree, events not used and why, nodes that
	   could not be matched, roles inferred from the processes */
	struct pd_strv warnings;
	struct pd_strv matching;         /* how nodes were matched, one line each */
	const char *correction;          /* "bonferroni" */
	size_t family_m[PD_PHASE_COUNT]; /* top-level deltas per phase: each phase's family */
	double alpha;
	double threshold_pct;
	enum pd_verdict verdict;
};

/* Compares base with target into *out (caller frees with pd_comparison_free). Runs that
 * cannot be compared still give a comparison, with verdict not-comparable and reasons.
 * PD_EINVAL for a flag that contradicts the runs, PD_ECOMPARE for runs with fewer than
 * two samples per series (no grid to compare them on). */
int pd_compare(struct pd_comparison **out, const struct pd_run *base,
	       const struct pd_run *target, const struct pd_compare_opts *opts,
	       struct pd_err *err);

/* pd_compare in two steps, so that what needs only the aligned series (the per-metric
 * charts) can be done while the statistics are computed: pd_compare_views resolves the
 * time bases and builds the views and phases; pd_compare_measure adds the deltas, the
 * findings and the verdict, and adds no view. */
int pd_compare_views(struct pd_comparison **out, const struct pd_run *base,
		     const struct pd_run *target, const struct pd_compare_opts *opts,
		     struct pd_err *err);
void pd_compare_measure(struct pd_comparison *c, const struct pd_compare_opts *opts);
void pd_comparison_free(struct pd_comparison *c);

/* 1 when c has a window for phase p: every phase with an event, else the whole run. */
int pd_comparison_has_phase(const struct pd_comparison *c, enum pd_phase p);

/* The verdict of an inference (the same names). */
enum pd_verdict pd_verdict_of_infer(enum pd_infer_verdict v);

/* The timebase of the run whose event defines the phases (the target's without one). */
const struct pd_timebase *pd_comparison_event(const struct pd_comparison *c);

/* How the deltas were judged, for the outputs: the method and the family in one
 * sentence each. */
extern const char pd_compare_method[];
extern const char pd_compare_family[];

/* The threshold that applies to metric. */
double pd_compare_threshold(const struct pd_compare_opts *opts, const char *metric);

#endif
