/* The comparison of a baseline run with a target run: aligned views, phases, deltas with
 * verdicts, and ranked findings. Pure functions over the model: no I/O.
 * (The comparison lives here rather than in core/ because it is made of the analysis'
 * own types: time bases and summaries.) */
#ifndef PD_COMPARE_H
#define PD_COMPARE_H

#include "facts.h"
#include "kpi.h"
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

enum pd_agg { PD_AGG_ONE, PD_AGG_SUM, PD_AGG_MEAN };

/* One metric at one scope, both runs on the common grid t = i * step_s.
 * Invariant: base and target have n entries; NaN where the run has no value there. */
struct pd_view {
	char *metric; /* "atop/memcached_cpu" */
	struct pd_scope_ref scope;
	char *nodes; /* the target nodes it covers, "172.23.100.210,..." or "" */
	enum pd_unit unit;
	int worse; /* +1 when up is worse, -1 when down is worse */
	enum pd_agg agg;
	size_t n;
	double step_s;
	double *base, *target;
};

struct pd_delta {
	size_t view; /* index into pd_comparison.views */
	enum pd_phase phase;
	struct pd_summary base, target;
	double delta_pct; /* of medians; NaN when the baseline median is 0 */
	double ci_lo, ci_hi;
	double p_value, p_adj;
	enum pd_verdict verdict;
	enum pd_outcome outcome; /* FAIL for a regression */
};

/* The numbers a finding's sentence states, by its kind (a shift's are those of the deltas
 * it names; the KPI finding's are its delta_pct and value). */
union pd_finding_numbers {
	struct {
		long delta; /* index into pd_comparison.deltas: the change stated */
		long pre;   /* post-event-mismatch: the pre-event delta it compares, or -1 */
	} shift;
	struct {
		double median, min, max; /* connections over the post phase */
		double from_s;           /* where the post phase starts */
		double event_s;          /* the failover */
		double held_s;           /* from the event to the last sample >= at_least */
		double at_least;         /* what counts as still holding (PD_LINGER_MIN) */
		int to_end;              /* still held at the end of the run */
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
	enum pd_outcome outcome; /* FAIL: a change the worse way or lingering connections;
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
	struct pd_time_flags time;      /* the target's --event-time and clock */
	struct pd_time_flags time_base; /* the baseline's (--baseline-event-time ...) */
};
#define PD_COMPARE_OPTS_INIT                                                                   \
	{                                                                                      \
		.threshold_pct = 5.0, .settle_s = 60.0, .alpha = 0.05                          \
	}

struct pd_comparison {
	const struct pd_run *base, *target; /* borrowed */
	struct pd_timebase tb_base, tb_target;
	struct pd_estimate thr_base, thr_target; /* pd_facts_throughput of each run */
	double step_s;                           /* the common grid */
	double length_s;
	/* where the baseline's grid starts: its t0, or later by base_shift_s when both runs
	 * have an event, so that the two events fall on the same grid point */
	int64_t base_grid_t0_ms;
	double base_shift_s;
	int has_event; /* the target has an event: every phase has its window */
	struct pd_window windows[PD_PHASE_COUNT]; /* windows[p].phase == p; without an
						     event only PD_PHASE_WHOLE is set */
	struct pd_view *views;
	size_t n_views, cap_views;
	struct pd_delta *deltas;
	size_t n_deltas, cap_deltas;
	struct pd_finding *findings; /* ranked */
	size_t n_findings, cap_findings;
	struct pd_strv reasons;  /* why the runs are not comparable */
	struct pd_strv matching; /* how nodes were matched, one line each */
	const char *correction;  /* "holm" */
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

/* The verdict on one delta: the interval inside +-thr is same; significant (p_adj < alpha,
 * interval excluding 0) and at least thr is regression or improvement by the metric's
 * direction (worse: +1 up is worse); significant but under thr is same; anything else
 * (an interval reaching past thr that is not significant, or NaN) is inconclusive. */
enum pd_verdict pd_verdict_of(double delta, double lo, double hi, double p_adj, double alpha,
			      double thr, int worse);

/* The threshold that applies to metric. */
double pd_compare_threshold(const struct pd_compare_opts *opts, const char *metric);

#endif
