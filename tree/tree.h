/* The comparison tree: every fact an output states, as analyze/ leaves it, and nothing
 * else. Types, the names of their enums (tree/tree.c) and the readers that look a view or
 * a delta up (a hash index over the views, tree/comparison.c): the renderers include
 * this header and never analyze/'s, so a renderer can read the tree but cannot run an
 * analysis (cmark's node.h between its parser and its renderers). analyze/compare.h is
 * the API that builds it.
 *
 * Why a layer of its own rather than core/: the tree is made of the analysis' results
 * (time bases, summaries, inferences), which the readers and the fetcher never see; why
 * not analyze/: render/ links tree/ and core/ only (CMakeLists.txt), so a renderer that
 * calls into analyze/ fails to link (tests/linkcheck) and scripts/checksrc says where. */
#ifndef PD_TREE_H
#define PD_TREE_H

#include "../core/model.h"

#include <stddef.h>
#include <stdint.h>

/* ---- statistics of a window (analyze/stats/stats.h) ---- */

struct pd_summary {
	size_t n;
	double mean, median, p5, p95, min, max;
	double slope; /* least-squares slope of v against t, units per second; 0 when n < 2 */
};

/* ---- time base (analyze/runs/timebase.h) ---- */

/* The disruption a run's phases are cut at, resolved from every source (not to be
 * confused with enum pd_event_kind, the kind of one console line that is evidence of it). */
enum pd_timebase_event {
	PD_EVENT_NONE,
	PD_EVENT_HARD,
	PD_EVENT_GRACEFUL,
	PD_EVENT_REBALANCE_OUT,
	PD_EVENT_REBALANCE /* a rebalance seen only in the series: a failover or a
			    * rebalance-out, its kind unknown without the console */
};
const char *pd_timebase_event_name(enum pd_timebase_event t); /* "none", "hard-failover", ... */

/* Where a time base quantity came from. */
enum pd_source {
	PD_SOURCE_NONE,
	PD_SOURCE_CONSOLE,
	PD_SOURCE_SERIES,
	PD_SOURCE_CONFIG,
	PD_SOURCE_BUILD,
	PD_SOURCE_FLAG
};
const char *pd_timebase_source_name(enum pd_source s); /* "none", "console", "series", ... */

/* What the user forces on the command line. */
struct pd_time_flags {
	int has_event_time;
	double event_time_s; /* --event-time: seconds from the start of the phase */
	int has_utc_offset;
	int64_t utc_offset_s;   /* --console-utc-offset: local = UTC + offset */
	const char *event_flag; /* the event flag's name in messages; NULL: --event-time */
};

/* One estimate of a quantity from one source. */
struct pd_estimate {
	int ok;
	double value;
};

/* How many further events of a run a time base names. */
#define PD_TIMEBASE_MORE 4

struct pd_timebase {
	int64_t t0_ms;  /* start of the measured phase (median of the series' first samples) */
	int64_t end_ms; /* its end (median of the series' last samples) */
	int64_t interval_ms; /* sampling interval */

	int has_offset;
	int64_t offset_s;                 /* console local time = UTC + offset_s */
	enum pd_source offset_source;     /* series, build or flag */
	struct pd_estimate offset_series; /* raw offset from rebalance lines vs the series, s */
	struct pd_estimate offset_build;  /* raw offset from the first line vs build start, s */

	enum pd_timebase_event event;
	char *node;     /* the node failed over or removed, NULL if unknown; owned
			   (pd_timebase_release) */
	double event_s; /* seconds from t0 */
	enum pd_source event_source;
	struct pd_estimate ev_console, ev_series, ev_config; /* each source's event time, s */
	struct pd_estimate rebalance_end_s; /* end of the rebalance, s from t0 */
	char *agreement; /* one line: how the sources agree, or where not; NULL without an
			    event; owned */

	/* what was not used, and why (pd_timebase_notes says it in sentences) */
	int disagree;          /* a source lies more than one interval from event_s */
	unsigned dropped;      /* bits 1 << enum pd_source: estimates outside the phase */
	const char *line_node; /* the failover line's node when it was not used (not in
				  the spec, or not the rebalance's ejected node), else NULL;
				  borrowed from the run's events */
	int line_in_spec; /* with line_node: it is in the spec (the ejected node differs) */
	size_t n_more;    /* failovers and rebalance-outs in the phase after the first */
	struct {
		double t_s;       /* s from t0 (the console's), NaN when unknown */
		const char *node; /* the node it removed, "" if unknown (the run's) */
	} more[PD_TIMEBASE_MORE]; /* the first PD_TIMEBASE_MORE of them */
};

/* ---- inference (analyze/stats/infer.h) ---- */

/* The noise model of one window. */
struct pd_infer_side {
	size_t n;
	double mean;     /* location; 0 when n = 0 */
	double var_mean; /* long-run variance of the mean (infer.h), before any floor */
	double phi;      /* lag-1 autocorrelation, bias-corrected, in [0, 0.99] */
	double n_eff;    /* s^2 / var_mean: the independent values the mean is worth */
	double gap;      /* smallest nonzero gap between distinct values; 0 when constant */
	/* mean, var_mean and gap are of the values times 2^-exp2 (exact): exp2 is 0 unless the
	 * window's largest magnitude is outside 2^-200..2^200, where squares would overflow or
	 * underflow (pd_infer_level() and pd_infer_se_mean() give them in the unit) */
	int exp2;
};

enum pd_infer_verdict {
	PD_INFER_SAME,
	PD_INFER_IMPROVEMENT,
	PD_INFER_REGRESSION,
	PD_INFER_INCONCLUSIVE
};

enum pd_infer_reason {
	PD_INFER_DECIDED,       /* the verdict is not inconclusive */
	PD_INFER_STRADDLES,     /* the interval straddles the threshold */
	PD_INFER_FEW_SAMPLES,   /* fewer than min_n samples on a side */
	PD_INFER_ZERO_BASELINE, /* no percentage and no absolute rule */
	PD_INFER_CONSTANT,      /* both windows hold one same value (verdict same) */
	PD_INFER_TOPOLOGY,      /* set by the caller: the topology explains the difference */
	PD_INFER_RUN_MARGIN,    /* past the threshold, not past threshold + run-to-run margin */
	PD_INFER_TOPOLOGY_AMBIGUOUS, /* set by the caller: a role's total and its per-node
					reading disagree in sign (+17 % in total, -42 % per
					node) */
	PD_INFER_NO_ESTIMATE /* the change is past the largest double (values near it) */
};
const char *pd_infer_reason_name(enum pd_infer_reason r); /* "straddles-threshold", ... */

enum pd_infer_scale { PD_INFER_LOG_RATIO, PD_INFER_RATIO, PD_INFER_ABSOLUTE };

enum pd_infer_noise {
	PD_INFER_NOISE_WITHIN, /* one baseline: run-to-run variance not measured */
	PD_INFER_NOISE_RUNS,   /* k >= 2 baselines: moderated run-to-run variance */
	PD_INFER_NOISE_HISTORY /* one baseline, the margin from the history's run-to-run sd of
				  the metric (pd_compare_opts.run_spread) */
};
/* "run-to-run variance not measured; the threshold stands in for it", ... */
const char *pd_infer_noise_text(enum pd_infer_noise n);
/* "within-run", "between-run", "history": summary.json's inference.noise */
const char *pd_tree_noise_name(enum pd_infer_noise n);

/* Where one baseline's run-to-run margin came from (summary.json's margin_source) */
enum pd_infer_margin {
	PD_INFER_MARGIN_NONE,    /* no margin: several baselines */
	PD_INFER_MARGIN_KIND,    /* the metric kind's default run-to-run sd */
	PD_INFER_MARGIN_HISTORY, /* the metric's run-to-run sd in the history */
	PD_INFER_MARGIN_PRE, /* measured: the two runs' difference before the event, beyond what
				the kind's (or the history's) sd allows (analyze/stats/infer.h)
			      */
	PD_INFER_MARGIN_NOISE /* half the baseline run's own relative sd of the metric, where
				 that is beyond the kind's (analyze/judge/deltas.c run_noise) */
};
/* "none", "kind-default", "history", "pre-event-offset", "run-noise" */
const char *pd_tree_margin_name(enum pd_infer_margin m);

#define PD_INFER_HAS_PCT   1u /* delta_pct, lo_pct, hi_pct */
#define PD_INFER_HAS_ABS   2u /* delta_abs, lo_abs, hi_abs */
#define PD_INFER_HAS_COUNT 4u /* delta_count, lo_count, hi_count */

/* One judged delta; every double is finite, fields outside `valid` are 0. */
struct pd_infer_result {
	unsigned valid;
	enum pd_infer_scale scale; /* what the statistic and the verdict read */
	double base_level, target_level;
	double delta_pct, lo_pct, hi_pct;
	double delta_abs, lo_abs, hi_abs;       /* the metric's unit */
	double delta_count, lo_count, hi_count; /* rates integrated over the target window */
	double stat;                            /* estimate / se on the scale read */
	double df;                              /* t degrees of freedom; 0: normal */
	double p, p_adj;                        /* two-sided; p_adj = min(1, m p) */
	double level;                           /* of the interval: 1 - alpha / m */
	size_t m;                               /* the family's size */
	enum pd_infer_noise noise;
	size_t k; /* baselines */
	enum pd_infer_verdict verdict;
	enum pd_infer_reason reason;
	/* one baseline: the run-to-run margin (%) in the interval, in quadrature with the
	 * within-run half-width (the rule's, a default per metric kind); 0 with several
	 * baselines (measured) */
	double margin_pct;
	enum pd_infer_margin margin_from; /* where margin_pct came from (NONE when 0) */
	/* these two runs' levels agree: the interval of within-run noise alone is inside
	 * +-threshold (with a margin the stated interval may not be: the build's change is
	 * then open, the two runs' levels are not); else verdict == PD_INFER_SAME */
	int within_same;
	/* the smallest change this comparison tells from none at its level: the interval's
	 * half-width, in % (valid with PD_INFER_HAS_PCT) and in the unit */
	double mde_pct, mde_abs;
	/* how many baselines would bring mde_pct under the threshold (2 to 64); 0: none would
	 * (the target's own noise is too large), or not a percentage */
	size_t baselines_needed;
};

/* The between-run spread of one delta's k baseline windows (pass 1). */
struct pd_infer_spread {
	size_t k;
	int log_scale;     /* every baseline level positive: statistics are log(mean) */
	double center;     /* mean of the k statistics */
	double s2;         /* their sample variance (0 when k = 1) */
	double within;     /* mean within-run variance of a statistic (floored) */
	double within_abs; /* the same in the metric's unit squared */
	double gap;        /* smallest nonzero gap over the k windows */
	size_t n_min;      /* fewest samples in a baseline window */
	double base_level; /* every sample of the k windows: their mean (the level) */
	/* every figure is of the values times 2^-exp2 (as pd_infer_side's; on the log scale,
	 * center is the mean of log(level times 2^-exp2)) */
	int exp2;
};

/* ---- sampling and facts of one run (analyze/stats/sampling.h, analyze/runs/facts.h) ---- */

struct pd_sampling_gaps {
	size_t n_gaps;  /* steps longer than 1.5 intervals */
	size_t missing; /* samples those steps lack: round(step / interval) - 1 each */
	int64_t longest_ms;
};

struct pd_series_facts {
	struct pd_sampling_gaps gaps; /* against the run's interval */
	int constant;                 /* every sample the same (pd_sampling_constant) */
	double constant_value;
};

/* Invariant: series[i] describes run->series[i] of the run they were made from. */
struct pd_facts {
	struct pd_timebase tb;
	struct pd_estimate throughput; /* pd_kpi_served over tb's phase */
	int64_t interval_ms;           /* the median of the series' intervals, or 0 */
	struct pd_series_facts *series;
	size_t n_series;
	size_t n_constant; /* series that are constant */
};

/* ---- KPI rules (analyze/runs/kpi.h) ---- */

enum pd_kpi_rule {
	PD_KPI_FIRST_NODE,   /* 2017-01-26: the spec's first n1ql node only */
	PD_KPI_EVERY_NODE,   /* 2022-07-25: every n1ql node of the spec, removed ones too */
	PD_KPI_ACTIVE_NODES, /* 2022-08-08: the nodes still active (get_active_nodes_by_role) */
	PD_KPI_N_RULES
};

struct pd_kpi_rules {
	double est[PD_KPI_N_RULES]; /* what each rule gives, NAN when the series cannot tell */
	double off_pct[PD_KPI_N_RULES]; /* (kpi - est) / est in %, NAN with est */
	unsigned match;                 /* bits (1 << rule) of the rules within tol_pct */
	int nearest;                    /* the rule with the smallest |off_pct|, -1 when none */
	double tol_pct; /* how near a rule must come to reproduce the KPI: the served rate's
			   own noise and the KPI's rounding (pd_kpi_tolerance) */
};

/* What the series tell, as rates over the run (requests / [access] time, req/s). */
struct pd_kpi_in {
	double total;         /* every query node: the cluster-wide rate of n1ql_stats */
	double removed;       /* of which the removed node served (0 when none was removed) */
	int removed_is_first; /* the removed node is the spec's first n1ql node */
	size_t n_active;      /* n1ql nodes still in the cluster at the end */
	int per_node;         /* removed and first come from each node's own request counter
				 (prometheus/n1ql_requests), not from a share of cbq-engine CPU */
	double first;         /* per_node: the spec's first n1ql node's requests over the run */
};

/* The KPI facts of one run, made once per comparison by analyze/runs/kpi.c (the one owner:
 * every finding and output reads them, none reconstructs them). */
struct pd_kpi_facts {
	const struct pd_kpi *kpi;  /* the throughput KPI (pd_kpi_throughput), NULL when none */
	struct pd_estimate served; /* the throughput the series give (pd_kpi_served) */
	int has_in;                /* served.ok: in is reconstructed */
	struct pd_kpi_in in;
	double removed_share;      /* the removed node's share of the query load before the
				      event (0..1), NaN when the run removes none or it is unknown */
	int has_rules;             /* kpi and has_in: rules is filled */
	struct pd_kpi_rules rules; /* against kpi->value within the threshold */
};

/* ---- the event story (analyze/runs/story.h) ---- */

/* A window of a run, seconds from its t0: samples with start_s <= t <= end_s. */
struct pd_story_window {
	double start_s, end_s;
};

/* A per-second rate integrated over a window: the count of what it measures. */
struct pd_story_count {
	int ok;        /* the series exists (0: no series; count 0 then) */
	double count;  /* sum of v[i] * dt[i] over the samples in the window */
	size_t n;      /* samples in the window */
	size_t n_gaps; /* of them, samples after a gap (their dt capped to one interval) */
};

/* The slow-query buckets of n1ql_stats, in this order (query_requests_250ms, ...). */
#define PD_STORY_N_SLOW 4
extern const int pd_story_slow_ms[PD_STORY_N_SLOW]; /* 250, 500, 1000, 5000 */

/* The failed requests around the event and their evidence. Counts are requests (a rate
 * integrated over the window); "base" is the other run over the same offsets. */
struct pd_event_errors {
	struct pd_story_window window;      /* the event run's, s from its t0 */
	struct pd_story_window base_window; /* the other run's: window + shift_s */
	struct pd_story_count errors;       /* n1ql_stats/query_errors: the finding's value */
	struct pd_story_count base_errors;  /* ok = 0 without another run or its series */
	struct pd_story_count slow[PD_STORY_N_SLOW];      /* query_requests_250ms ... 5000ms */
	struct pd_story_count base_slow[PD_STORY_N_SLOW]; /* the same in the other run */
	int has_peak;        /* query_avg_req_time has a sample in the window */
	double peak_ms;      /* its highest value in the window, ms */
	double peak_s;       /* when, s from the event run's t0 */
	double pre_ms;       /* its mean before the event ([0, window.start_s)), NaN if none */
	int has_base_peak;   /* the other run's query_avg_req_time in base_window */
	double base_peak_ms; /* its highest value there */
	double min_count; /* max(PD_POLICY_ERRORS_MIN, PD_POLICY_ERRORS_BASE_X x base count) */
	int significant;  /* errors.ok and errors.count >= min_count */
};

/* Why a failover is, or is not, a hard failover of a live node; the checks in order. */
enum pd_live_verdict {
	PD_LIVE_YES,      /* hard, and the node was alive: the finding */
	PD_LIVE_NO_EVENT, /* the run has no event */
	PD_LIVE_NOT_HARD, /* graceful failover or rebalance-out */
	PD_LIVE_NO_NODE,  /* the failed node is unknown */
	PD_LIVE_SILENT,   /* no REST sample in the last rest_intervals before the event */
	PD_LIVE_IDLE,     /* cbq-engine CPU under the floor or no connections (or no series) */
	PD_LIVE_SSH_STOPPED /* atop/net end within N intervals of the event: the host went */
};
const char *pd_live_verdict_name(enum pd_live_verdict v); /* "yes", "no-event", ... */

/* The evidence that the failed-over node was alive at the event. Each has_* is 0 when
 * the series is missing; the numbers are then 0. "Just before the event" is the last
 * rest_intervals intervals before it: [event - N x interval, event). */
struct pd_live_node {
	enum pd_live_verdict verdict;
	enum pd_source kind_source; /* console (a failover line) or config (shutdown_type) */
	char *host; /* the node failed over, NULL if unknown; owned (pd_story_live_release) */
	double event_s;    /* the event, s from t0 */
	double interval_s; /* the sampling interval the windows are counted in */
	int has_rest;
	double rest_last_s;   /* last ns_server_system (or scraped Prometheus) sample at or
				 before the event, s */
	double rest_before_s; /* event_s - rest_last_s: how long before the event it answered */
	int has_cpu;
	double cpu;   /* median of atop/cbq-engine_cpu just before the event, % */
	size_t cpu_n; /* samples it is the median of */
	int has_conn;
	double conn; /* median of net/ESTABLISHED just before the event */
	int has_req;
	double req;     /* median of its own prometheus/n1ql_requests rate just before the
			   event, req/s (the Prometheus path, which carries no net) */
	int prometheus; /* the Prometheus path: "REST" is its scraped series, "ssh" its
			   pushed atop series */
	double scraped_after_s; /* prometheus: its last scraped sample - event_s */
	int has_ssh;
	double ssh_last_s;  /* the last atop or net sample of the host, s */
	double ssh_after_s; /* ssh_last_s - event_s: how long the ssh series went on */
};

/* The throughput KPI from one run to the other, beside what each run's series served. */
struct pd_kpi_change {
	int ok;                          /* both runs have a throughput KPI */
	const char *base_id, *target_id; /* their metric ids (borrowed), NULL when absent */
	int same_id;                     /* the ids are equal (else they only share the form) */
	double base_kpi, target_kpi;     /* 3916.0 -> 3525.0 */
	double kpi_pct;                  /* 100 (target - base) / base; NaN when base is 0 */
	struct pd_estimate base_served;  /* each run's KPI facts' served, req/s */
	struct pd_estimate target_served;
	double served_pct; /* their change, %; NaN unless both ok and base > 0 */
	/* several baselines: base_kpi and base_served are the mean of those that have one
	   (the baselines' level, as every delta's), n_base_kpi of them */
	size_t n_base_kpi;
	/* the change judged (pd_kpi_judge): the served rate's interval over the whole run (its
	   delta: each run's noise, and the run-to-run margin or the baselines' spread) set
	   around the KPI's change, read against the threshold; NaN and inconclusive without
	   that delta */
	double lo_pct, hi_pct;
	enum pd_infer_verdict verdict;
	long delta; /* the served delta (n1ql_stats/query_requests, cluster, whole), or -1 */
};

/* Whether the query workload is closed-loop: a fixed number of workers, each sending its
 * next query when the last one returns, so that throughput = workers / latency and a
 * second query node cannot raise it unless it lowers the latency. */
struct pd_closed_loop {
	int ok;            /* the test gives n1ql_workers > 0 and both series have samples */
	long n1ql_workers; /* [access] n1ql_workers: workers per workload instance */
	long instances;    /* [access] workload_instances, perfrunner's default 1 */
	long buckets;      /* [cluster] num_buckets, default 1: one instance set per bucket */
	long workers;      /* n1ql_workers x instances x buckets: 120 x 3 x 1 = 360 */
	int throttled;     /* [access] n1ql_throughput is finite: workers pace themselves */
	double latency_ms; /* mean query_avg_req_time over the phase */
	double predicted;  /* workers / (latency_ms / 1000), req/s */
	double served;     /* mean query_requests over the phase, req/s */
	double diff_pct;   /* 100 (predicted - served) / served */
	double tol_pct;    /* the tolerance it was judged with */
	int closed;        /* ok, not throttled and |diff_pct| <= tol_pct */
};

/* ---- config diff (analyze/runs/configdiff.h) ---- */

enum pd_configdiff_source {
	PD_CONFIGDIFF_TEST,
	PD_CONFIGDIFF_SPEC,
	PD_CONFIGDIFF_BUILD,
	PD_CONFIGDIFF_JENKINS
};
#define PD_CONFIGDIFF_SOURCES 4
/* "test", "spec", "build", "jenkins" */
const char *pd_configdiff_source_name(enum pd_configdiff_source s);

enum pd_configdiff_change {
	PD_CONFIGDIFF_ADDED,   /* only in the target */
	PD_CONFIGDIFF_REMOVED, /* only in the baseline */
	PD_CONFIGDIFF_CHANGED  /* in both, different values */
};
/* "added", "removed", "changed" */
const char *pd_configdiff_change_name(enum pd_configdiff_change c);

/* One difference. Every string is owned by the pd_configdiff that holds it. */
struct pd_configdiff_entry {
	enum pd_configdiff_source source;
	enum pd_configdiff_change change;
	char *section; /* INI section ("access", "clusters"); NULL for build and jenkins */
	char *key;     /* "n1ql_shutdown_type", "iris", "build", a parameter's name */
	char *item;    /* [clusters] server lines: the host; NULL for a whole value */
	char *base;    /* the baseline's value (a server line whole); NULL when removed... */
	char *target;  /* ...or added: NULL on the side that lacks it */
};

struct pd_configdiff {
	struct pd_configdiff_entry *e;
	size_t n, cap;
	unsigned missing_base;   /* 1 << source for each source the baseline lacks */
	unsigned missing_target; /* the same for the target */
};

/* ---- the ticket's points (analyze/tell/findings_story.h) ---- */

enum pd_outcome { PD_OUTCOME_PASS, PD_OUTCOME_FAIL, PD_OUTCOME_ERROR };

/* The questions a reader of this event asks (analyze/tell/questions.c): built from the event's
 * kind and the runs' roles, the seed's ticket being one instance of them. */
enum pd_question_kind {
	PD_Q_REQUESTS_LOST,    /* were requests lost at the event? */
	PD_Q_CONNECTIONS_KEPT, /* does the removed node keep connections after it left? */
	PD_Q_ROLE_CHANGE,      /* what changed on one role's nodes, before / after? */
	PD_Q_CLUSTER_CHANGE,   /* what changed for the cluster as a whole? */
	PD_Q_KPI_COUNTS,       /* what does the throughput KPI count, did it move? */
	PD_Q_RECOVERY          /* did the throughput dip at the event, and recover? */
};
/* "requests-lost", "connections-kept", "role-change", "cluster-change", "kpi-counts",
 * "recovery" */
const char *pd_question_kind_name(enum pd_question_kind k);

#define PD_QUESTION_MAX_FINDINGS 4

/* One question and its answer: the findings that answer it (indexes into c->findings, in
 * ranked order), or none while its inputs are there (the runs agree), or "not answered"
 * and why when its inputs are missing. Owns label, question and brief. */
struct pd_question {
	enum pd_question_kind kind;
	unsigned service; /* PD_Q_ROLE_CHANGE: the role's PD_SVC_* bit; 0 otherwise */
	char *label;      /* "1", "2", ... */
	char *question;   /* one line */
	int answered;     /* its inputs are there (0: brief says why not) */
	size_t finding[PD_QUESTION_MAX_FINDINGS];
	size_t n;     /* the findings that answer it */
	char *brief;  /* the answer with the numbers of its findings, "no finding: ...", or
			 "not answered: <why>" */
	char *words;  /* the same in an engineer's words (its findings' words, each with
			 " (finding N)"), what the first screen of every output shows */
	char *advice; /* the action its findings imply, NULL when none (or an earlier
			 question already gives the same) */
	enum pd_outcome outcome; /* its JUnit testcase: the worst of its findings' */
};

/* ---- the comparison (analyze/compare.h) ---- */

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

enum pd_finding_kind {
	PD_FIND_NOT_COMPARABLE,
	PD_FIND_POST_EVENT_MISMATCH,
	PD_FIND_LINGERING,
	PD_FIND_KPI_SCOPE,
	PD_FIND_METRIC_SHIFT,
	PD_FIND_RECOVERY,
	PD_FIND_DATA_GAP,
	PD_FIND_EVENT_ERRORS, /* analyze/tell/findings_story.c: requests failed at the event */
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
	PD_AT_REMOVED,   /* the node the event removed, `host` */
	PD_AT_INDEX      /* one index of an index-scope metric, `host` "bucket.index": a
			    drill-down under the cluster's view of its metric */
};

/* A typed scope; name is its one string form for the outputs ("cluster", "survivors",
 * "role:kv", "node:172.23.100.55", "removed"; NULL for PD_AT_NONE), made by
 * pd_scope_ref_set. Owns host and name (pd_scope_ref_free). */
struct pd_scope_ref {
	enum pd_scope_kind kind;
	unsigned service; /* PD_AT_ROLE: the PD_SVC_* bit; 0 otherwise */
	char *host;       /* PD_AT_NODE, PD_AT_REMOVED: the node; PD_AT_INDEX: the index
			     ("bucket.index"); NULL otherwise */
	char *name;
};

/* A time window of the measured phase, seconds from its start (the same offsets in
 * both runs). */
struct pd_window {
	enum pd_phase phase;
	double start_s, end_s; /* [start, end) */
};

/* How a view's members make its value (analyze/align/views.c): percentages (CPU) and times (ms:
 * a latency of two buckets or indexes is their mean, not their sum) are averaged over the
 * members, everything else (counts, bytes, rates) is summed; a view of one member is that
 * series as is. */
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
	/* a node's or an index's view: how many views of its metric are at that kind of
	   scope, the drill-downs any of which could be the one that moved
	   (analyze/judge/deltas.c sibling_z); 0 at other scopes */
	size_t siblings;
	/* phases (bit 1 << enum pd_phase) where the view's per-node load differs by the
	 * topology (a role with another number of active nodes): explained, not a finding */
	unsigned topology;
	int total; /* a role's total over its active nodes (the removed one before the
		      event): the topology-proof comparison of that role */
	/* a total's active nodes, baseline over target, per phase where they differ (0
	 * elsewhere): a total that differs only by this ratio is a per-node level that held */
	double node_ratio[PD_PHASE_COUNT];
	/* an index metric's cluster view: its indexes (PD_AT_INDEX views after it) and those
	 * whose change after the event (else over the whole run) is a regression or an
	 * improvement (analyze/judge/indexes.c) */
	size_t indexes, moved;
	size_t charted; /* an index metric's cluster view: its index views charted, ranked 1 ..
			   charted (the most that moved, analyze/policy.h PD_POLICY_INDEX_TOP)
			 */
	int top; /* an index view: its rank among the moved by size of change, 1 .. the cluster
		    view's charted; 0 otherwise */
	/* every sample of every run is 0 (each run has one at least): folded into the line
	   "zero in both runs: ..." instead of a chart (analyze/tell/chartfacts.c) */
	int zero;
	/* the series is in one run only: +1 the target's (no baseline has a sample), -1 the
	   baselines' (the target has none); 0 both, or the removed node's own view
	   (analyze/tell/chartfacts.c): drawn, the other run's absence said */
	int one_run;
	/* the scope as a question's name keeps it from build to build (JUnit testcases): a
	   node's by its role label in the spec ("kv#1", "n1ql#2"), not its address; the
	   scope's name otherwise. Borrowed (the run's node, or scope.name) */
	const char *case_scope;
	/* a role that holds the node the target's event removed: its members from the event
	   on (the surviving ones) and their list; 0 and NULL otherwise (analyze/align/scope.c)
	 */
	size_t members_after;
	char *nodes_after;
	/* an atop process metric with a REST twin at the same scope: that view, the series of
	   record for verdicts and testcases; -1 otherwise (analyze/judge/deltas.c mark_drill)
	 */
	long record;
};

/* The one figure every output states for a change (analyze/judge/deltas.c): the change of
 * means in % where a percentage is defined, else for a per-second rate the change in
 * events over the target's window, else the change in the metric's unit; with the
 * Bonferroni-simultaneous interval at level (1 - alpha / m) the verdict read. */
enum pd_stated_kind { PD_STATED_NONE, PD_STATED_PCT, PD_STATED_COUNT, PD_STATED_ABS };
struct pd_stated {
	enum pd_stated_kind kind; /* NONE: no estimate (too few samples) */
	double value, lo, hi;     /* the change and its interval; 0 with NONE */
	double level;             /* of the interval, e.g. 0.99928 */
	double base, target;      /* the levels it compares: each window's mean */
};

/* One delta: the summaries of both windows and the one inference on them
 * (analyze/stats/infer.h): delta_pct, ci_lo, ci_hi, p_value, p_adj and verdict are inf's, the
 * interval the one the verdict reads (Bonferroni over the delta's family); delta_pct and the
 * interval are NaN where a percentage is undefined (a zero baseline: inf holds the absolute
 * change and, for a rate, the count). */
struct pd_delta {
	size_t view; /* index into pd_comparison.views */
	enum pd_phase phase;
	/* the baselines' window (several: every sample of the baselines judged, pooled; its
	   mean is the level the change is read against) and the target's */
	struct pd_summary base, target;
	/* the target nodes the scope holds in this phase (a role loses the removed node from
	   the event on: pd_view.members_after) and their list, borrowed from the view */
	size_t members;
	const char *nodes;
	/* a node's delta whose role holds it alone in this phase: the same series, judged once
	   (the role's inference copied: pd_scope_phases) */
	int as_role;
	double *base_runs; /* several baselines: each one's mean (NaN: too few samples to be
			      judged), n_bases of them; else NULL. Owned by the comparison */
	struct pd_infer_side side_target;
	struct pd_infer_side side_base; /* one baseline */
	struct pd_infer_spread spread;  /* several: their between-run spread */
	struct pd_infer_result inf;
	double delta_pct; /* of means; NaN when no percentage is defined */
	double ci_lo, ci_hi;
	double p_value, p_adj;
	/* a role's total whose phase has another number of active nodes: its change rescaled
	 * to one node (times the view's node_ratio), NaN otherwise; the figure a statement of
	 * the per-node change uses (never the total's) */
	double node_pct, node_lo, node_hi;
	/* one baseline, a phase after the pre-event one: the two runs' difference of this
	 * metric before the event (%), when it is larger than the kind's (or the history's)
	 * run-to-run sd and the within-run noise allow at 95 % (pd_infer_run_offset): the runs
	 * differ by more than that margin assumes, so a change of about this size here may be
	 * theirs (or the build's in every phase), not the event's (the transient's and post's
	 * margin is then the offset's: inf.margin_from PD_INFER_MARGIN_PRE); NaN otherwise */
	double run_offset_pct;
	int drill; /* judged in its parent's family, not counted in it */
	/* the difference is the topology's: no finding, and no regression or improvement
	 * (verdict inconclusive, inf.reason PD_INFER_TOPOLOGY) */
	int topology;
	enum pd_verdict verdict;
	/* its own verdict decides its JUnit testcase: a top-level delta (a drill-down, a node
	   under its role or atop under its REST twin, is read within its parent, whose
	   testcase is the question; it fails only when a failing finding states it) */
	int gates;
	enum pd_outcome outcome; /* its JUnit testcase: FAIL for a regression of a delta that
				    gates, or when a failing finding states it, and the gate is
				    on */
	long finding;            /* the first failing finding (ranked) stating this metric,
				    scope and phase, else the first, or -1 */
	struct pd_stated stated; /* what the outputs state of it */
	/* listed in the summaries' table (summary.md, summary.jira): a regression or an
	   improvement at a scope broader than one node or index, outside the transient,
	   and not the topology's */
	int headline;
};

/* One run's cluster query rate at the event (analyze/tell/recovery.c, the one owner): the
 * lowest rate within PD_POLICY_DIP_WINDOW_S of the event against the run's median before
 * it, and when it was back within the threshold of that median. The baseline's is measured
 * over the same points whether or not it has an event of its own (pd_comparison.base_event
 * says which). */
struct pd_dip {
	int ok;            /* measured: a followed event and the cluster's query rate */
	double ref;        /* the run's median before the event (the pre phase) */
	double low, low_s; /* the lowest rate after the event, and when (the phases' clock) */
	double pct;        /* 100 (low - ref) / ref: negative for a dip */
	double back_s; /* back within the threshold this long after the event: 0 when it never
			  left it, NaN when it had not come back by the end */
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
		double at_least; /* what counts as still holding (PD_POLICY_LINGER_MIN) */
		int to_end;      /* still held at the end of the run */
		double before;   /* the node's median before the event */
	} linger;
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
		int of_base; /* kpi-scope: about the baseline's KPI (rules[0], else rules[1]) */
	} kpi;
};

struct pd_finding {
	enum pd_finding_kind kind;
	union pd_finding_numbers n; /* by kind; zero for the others */
	char *metric;               /* NULL when the finding is not about one metric */
	struct pd_scope_ref scope;  /* PD_AT_NONE likewise */
	int has_phase;
	enum pd_phase phase;
	int direction;    /* +1 up, -1 down, 0 none */
	double delta_pct; /* NaN when none */
	double value;     /* NaN when none */
	double score;     /* higher first */
	long view;        /* the view that shows it, or -1 */
	long delta;  /* the delta of its metric, scope and phase, or -1 (connections left on the
			removed node, a live node failed over ...) */
	char *text;  /* one sentence with the numbers, to paste */
	char *words; /* the same in an engineer's words, for the first screen
			(analyze/tell/words.c): "memcached on the kv nodes used 16 % more CPU
			for the whole run" */
	char *advice;  /* the action it implies ("fix the KPI rule: ..."), NULL when none */
	int regresses; /* a change the worse way past the threshold, or connections
			  left behind above it: the comparison's verdict is a
			  regression */
	enum pd_outcome outcome; /* FAIL: regresses and the gate is on (--fail-on regression);
				    ERROR: the runs are not comparable */
	/* the target against the baseline over time on its view's grid, in % of the
	   baseline: each run's moving mean over smooth_s (single samples are too noisy to
	   read); NaN where undefined; NULL without a view or for the removed node */
	double *smooth_pct;
	double smooth_s;
	/* the finding whose card draws this one's view: the first (by rank) about that view,
	   itself or an earlier one; -1 without a view (analyze/tell/chartfacts.c) */
	long chart;
};

struct pd_nodeshift;

/* A showfast KPI both runs posted under one id and latency window (perfrunner's
 * TimeseriesWindow: "pre", "during", "post"), compared beside perfdelta's own phases. */
struct pd_kpi_pair {
	const char *metric, *window; /* borrowed from the target run */
	double base, target;
	double change_pct; /* (target - base) / |base| x 100; NAN when base is 0 */
	long base_samples, target_samples; /* 0 when perfrunner logged no count */
};
struct pd_view_index;

struct pd_comparison {
	const struct pd_run *base, *target; /* borrowed */
	const struct pd_run **bases;        /* every baseline, bases[0] == base; borrowed */
	size_t n_bases;
	struct pd_timebase tb_base, tb_target;
	/* the node each run's own event removed, [0] the baseline's, [1] the target's (its
	   time base's node, borrowed), NULL when it has none: the Runs table marks it */
	const char *removed_node[2];
	struct pd_timebase *tb_more; /* the other baselines' (n_bases - 1) */
	/* the run whose event defines the phases: +1 the target, -1 the baseline (a failover
	 * run given as the baseline: the findings come back mirrored), 0 none */
	int event_side;
	struct pd_dip dip[2]; /* [0] the baseline's, [1] the target's; with event_side > 0 */
	int base_event; /* the baseline's own event is followed (either side): its removed node
			   is active before it only */
	/* each run's KPI facts (analyze/runs/kpi.c, the one owner): its throughput KPI, the
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
	/* after the event (post) both clusters have the same nodes: no view's per-node load
	   differs by the topology there, so a difference is the event's residue */
	int post_same_nodes;
	/* where the phases' event falls on the common grid (the phases' clock, seconds from
	   the start of the measured phase): what every output draws and states; NaN without
	   an event. The event itself is pd_comparison_event(c)'s. */
	double event_t_s;
	struct pd_window windows[PD_PHASE_COUNT]; /* windows[p].phase == p; without an
						     event only PD_PHASE_WHOLE is set */
	struct pd_view *views;
	size_t n_views, cap_views;
	struct pd_view_index *view_index; /* pd_comparison_view's hash (tree/comparison.c) */
	struct pd_delta *deltas;
	size_t n_deltas, cap_deltas;
	/* the deltas in the order a table lists them (indexes into deltas): regressions and
	   improvements, inconclusive, same, not comparable; within each, the larger stated
	   change first (a percentage before a count or an absolute change) */
	size_t *delta_order;
	struct pd_finding *findings; /* ranked */
	size_t n_findings, cap_findings;
	/* the findings every short output lists (summary.md, summary.jira, the terminal):
	   the first n_top; each output says how many more there are (n_findings - n_top) */
	size_t n_top;
	struct pd_configdiff *config_diff; /* the runs' settings that differ; never NULL */
	struct pd_nodeshift
		*shift;         /* the event's story per node (nodeshift.h), once measured */
	struct pd_strv reasons; /* why the runs are not comparable */
	/* what a reader must know before any figure, said on stderr (even with --quiet) and
	   at the top of every output: the event's sources that disagree, events not used
	   and why, nodes that could not be matched, roles inferred from the processes, the
	   runs likely swapped, a run compared with itself */
	struct pd_strv warnings;
	struct pd_strv matching; /* how nodes were matched, one line each */
	const char *correction;  /* "bonferroni" */
	const char *method;      /* how the deltas were judged (pd_compare_method) */
	const char *family;      /* which deltas are judged together (pd_compare_family) */
	/* how a change was judged, in the one sentence every output states: "a change counts
	   past the 5.0% threshold when its simultaneous interval (bonferroni correction)
	   clears it; <the noise, pd_infer_noise_text>" (owned; pd_verdict_judged) */
	char *judged;
	enum pd_infer_noise noise;       /* what the deltas were judged against */
	size_t family_m[PD_PHASE_COUNT]; /* top-level deltas per phase: each phase's family */
	double alpha;
	double threshold_pct;
	enum pd_verdict verdict;
	/* the questions of this event, answered (analyze/tell/questions.c); none when no run
	   has an event (they are about one) */
	struct pd_question *questions;
	size_t n_questions;
	struct pd_kpi_pair *kpi_windows; /* windowed KPIs of the target with their baseline */
	size_t n_kpi_windows;
	/* the latency distributions of both runs, where the runs have one
	   (analyze/align/latency.c): a chart each */
	struct pd_latency *latency;
	size_t n_latency;
	/* the percentiles of the per-request latency collectors' samples, per metric and
	   phase (analyze/align/latency.c): a chart per metric */
	struct pd_latency_pct *latency_pct;
	size_t n_latency_pct;
};

/* A latency distribution of the baseline against the target over one phase
 * (cbmonitor's comparison page has a percentile view). From n1ql_stats' query_requests_
 * {250,500,1000,5000}ms, the rates of requests slower than each bound, over
 * query_requests: the share of requests slower than x[k] ms, in % (a survival curve). */
#define PD_LATENCY_POINTS 8
struct pd_latency {
	const char *metric; /* the series it is read from ("n1ql_stats/query_requests_*ms") */
	enum pd_phase phase;
	size_t n;                                                  /* points */
	double x[PD_LATENCY_POINTS];                               /* the bound, ms */
	double base[PD_LATENCY_POINTS], target[PD_LATENCY_POINTS]; /* % slower; NaN: none */
};

/* The percentiles of one latency metric of cbagent's per-request collectors
 * (spring_latency/latency_get, ..._set, ...; spring_query_latency/latency_query), baseline
 * against target over one phase (the percentile view of cbmonitor's comparison
 * page). As perfrunner computes its latency KPIs (perfrunner/helpers/metrics.py
 * _kv_latency, _query_latency): every bucket's samples merged, each request one sample
 * (repeated timestamps kept), numpy.percentile's default (linear interpolation between
 * order statistics: h = (n - 1) p / 100, x[floor h] + (h - floor h)(x[floor h + 1] -
 * x[floor h]) over the sorted samples, R's type 7); the whole phase is every sample, as
 * perfrunner's KPI over the snapshot (TimeseriesWindow() takes them all), a phase the
 * samples with start_s <= t < end_s. Percentile p needs n >= 100 / (100 - p) samples (one
 * sample beyond it: 1000 for p99.9); fewer is said, never a number. */
#define PD_LATENCY_PCTS 6
enum pd_latency_status { PD_LATENCY_OK, PD_LATENCY_FEW, PD_LATENCY_NONE };
/* "ok", "not enough samples", "no samples" */
const char *pd_latency_status_name(enum pd_latency_status s);
struct pd_latency_run {
	size_t n;                   /* samples in the phase */
	double ms[PD_LATENCY_PCTS]; /* NaN unless status is ok */
	enum pd_latency_status status[PD_LATENCY_PCTS];
};
struct pd_latency_pct {
	char *metric; /* "spring_latency/latency_get"; owned */
	enum pd_phase phase;
	double p[PD_LATENCY_PCTS];    /* 50, 80, 90, 95, 99, 99.9 */
	size_t need[PD_LATENCY_PCTS]; /* samples each needs: 2, 5, 10, 20, 100, 1000 */
	struct pd_latency_run base, target;
	double change_pct[PD_LATENCY_PCTS]; /* (target - base) / base x 100; NaN unless both
					       are ok and base > 0 */
	int drawn; /* the phase the metric's chart draws (post with an event, else whole) */
};

/* ---- the event per node (analyze/tell/nodeshift.h) ---- */

enum pd_nodeshift_kind {
	PD_NODESHIFT_NODE,      /* one surviving node */
	PD_NODESHIFT_REMOVED,   /* the node the event removed */
	PD_NODESHIFT_SURVIVORS, /* the surviving nodes together (two or more) */
	PD_NODESHIFT_ALL        /* every target node together, the removed one included */
};

/* "node", "removed", "survivors", "all" */
const char *pd_nodeshift_kind_name(enum pd_nodeshift_kind k);

struct pd_nodeshift_row {
	enum pd_nodeshift_kind kind;
	long view;         /* the view of the row (the survivors' for ALL), or -1 */
	const char *host;  /* NODE, REMOVED: the node (borrowed from the view); else NULL */
	size_t members;    /* nodes the row aggregates */
	double pre, post;  /* the target's medians over the pre and post phases; NaN: none */
	double change_pct; /* post against pre, % of pre; NaN when pre is 0 or NaN */
	double base_post;  /* the baseline's median over post (the twin's, the survivors'
			      twins'); NaN for REMOVED, which has no twin, and for ALL, whose
			      baseline counterpart is the survivors' (SURVIVORS) */
	double base_pct;   /* post against base_post, % of base_post; NaN likewise */
	long delta;        /* the tested post delta of view against the baseline (index into
			      c->deltas), or -1 (ALL, REMOVED, or too few samples) */
};

struct pd_nodeshift_metric {
	const char *metric; /* borrowed from the views */
	enum pd_unit unit;
	enum pd_agg agg; /* how SURVIVORS and ALL combine their nodes: sum or mean */
	struct pd_nodeshift_row *rows; /* the surviving nodes in the spec's order, the
					  removed node, the survivors, every node */
	size_t n_rows;
	int open; /* a finding is about this metric: its part of the event story is shown
		     open (analyze/tell/findings.c) */
};

struct pd_nodeshift {
	struct pd_nodeshift_metric *m; /* in view order (by collector, then metric) */
	size_t n;
};

/* ---- readers ---- */

/* 1 when c has a window for phase p: every phase with an event, else the whole run. */
int pd_comparison_has_phase(const struct pd_comparison *c, enum pd_phase p);

/* The timebase of the run whose event defines the phases (the target's without one). */
const struct pd_timebase *pd_comparison_event(const struct pd_comparison *c);

/* The one view lookup: the first view of metric ("atop/memcached_cpu") at scope kind
 * (service: the role's PD_SVC_* bit, else ignored; host: a node's or an index's, else
 * ignored; a metric has one removed view), or -1. O(1): a hash built with the views
 * (tree/comparison.c). */
long pd_comparison_view(const struct pd_comparison *c, const char *metric,
			enum pd_scope_kind kind, unsigned service, const char *host);
/* The delta of view in phase, or NULL (binary search: deltas are in (view, phase) order). */
const struct pd_delta *pd_comparison_delta(const struct pd_comparison *c, size_t view,
					   enum pd_phase phase);
/* (Re)builds, frees the hash of pd_comparison_view: once the views are made. */
void pd_comparison_index(struct pd_comparison *c);
void pd_comparison_unindex(struct pd_comparison *c);

#endif
