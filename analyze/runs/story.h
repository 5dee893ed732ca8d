/* The ticket's story around the event, as numbers for three findings (docs/report.md "Finding
 * kinds"): the requests that failed at the event (event-errors), whether a hard failover hit a
 * node that was still alive (hard-failover-live-node), and the throughput KPI across the two
 * runs with what the series say was served (docs/report.md "kpi-change"), checked against
 * Little's law. Pure functions over struct pd_run and its struct pd_timebase: no I/O, no
 * allocation kept; every result is a plain struct the caller owns.
 *
 * Times are seconds from the run's t0 (struct pd_timebase.t0_ms), as everywhere in
 * analyze/. "The event run" is the run whose time base has the event: the target, or the
 * baseline when the comparison is mirrored; "the other run" is the one compared with it.
 *
 * How a caller (findings.c) uses them, once per comparison:
 *   struct pd_story_window w;
 *   pd_story_event_window(&w, tb_event, opts->settle_s);   (the transient phase)
 *   struct pd_event_errors ee;
 *   pd_story_event_errors(&ee, ev_run, tb_event, other, tb_other, &w, shift_s);
 *   if (ee.errors.ok && ee.significant) -> finding event-errors, value = ee.errors.count
 *   struct pd_live_node ln;
 *   pd_story_live_node(&ln, ev_run, tb_event, NULL);
 *   if (ln.verdict == PD_LIVE_YES) -> finding hard-failover-live-node, scope node:ln.host
 *   struct pd_closed_loop cl;
 *   pd_story_closed_loop(&cl, run, tb, served, PD_POLICY_LITTLE_TOL_PCT);  for each run
 * (the KPI facts themselves are kpi.c's: struct pd_kpi_facts on the comparison)
 * shift_s is the other run's offset at the same moment minus the event run's (the
 * comparison's base_shift_s, with its sign turned when the event run is the baseline);
 * 0 when the runs are cut at the same offsets. */
#ifndef PD_STORY_H
#define PD_STORY_H

#include "tree/tree.h"
#include "kpi.h"
#include "analyze/policy.h"
#include "timebase.h"
#include "core/model.h"

#include <stddef.h>
#include <stdint.h>

/* The transient window of the event run: from the event to the end of its rebalance (the
 * event itself when the rebalance end is unknown or earlier) plus settle_s, clamped to
 * the phase (tb->end_ms); the same cut as the comparison's transient phase. A run
 * without an event gives the empty window {0, 0}. */
void pd_story_event_window(struct pd_story_window *out, const struct pd_timebase *tb,
			   double settle_s);

/* Integrates the per-second rate s over [from_ms, to_ms] (epoch ms, inclusive). A sample
 * reports the rate over the step before it, so sample i counts v[i] * dt[i] with dt[i] =
 * t[i] - t[i-1] (the predecessor may lie before the window). A step longer than 1.5
 * intervals is a gap (sampling.h's rule): across it dt[i] is one interval, so the rate
 * seen after a gap is not spread over the samples that are missing; the first sample of
 * the series, which has no step, counts one interval too. interval_ms is the nominal
 * interval (tb->interval_ms); 0 takes the series' own (pd_sampling_interval_ms). A NULL s
 * gives {0}. */
void pd_story_integrate(struct pd_story_count *out, const struct pd_series *s, int64_t from_ms,
			int64_t to_ms, int64_t interval_ms);

/* Counts the failed and slow requests of run (the event run, time base tb) in window w
 * (NULL: pd_story_event_window with a 60 s settle) and, when other is not NULL, of other
 * (time base tb_other) over the same window shifted by shift_s. Never fails: a missing
 * series gives ok = 0 in its count. */
void pd_story_event_errors(struct pd_event_errors *out, const struct pd_run *run,
			   const struct pd_timebase *tb, const struct pd_run *other,
			   const struct pd_timebase *tb_other, const struct pd_story_window *w,
			   double shift_s);

/* The thresholds of pd_story_live_node; PD_LIVE_OPTS_INIT holds the defaults. */
struct pd_live_opts {
	int rest_intervals; /* N: alive means a REST sample in the last N intervals */
	double cpu_floor;   /* atop cbq-engine_cpu that counts as load (top %: 100 = a core) */
};
#define PD_LIVE_OPTS_INIT                                                                      \
	{                                                                                      \
		.rest_intervals = 3, .cpu_floor = 10.0                                         \
	}

/* Decides whether run's event was a hard failover of a node alive at the time. Hard: the
 * console's first failover line says "Failing over node:" (PD_EV_FAILOVER_HARD); without
 * any failover line, the test's n1ql_shutdown_type = hard_failover (a rebalance-out in
 * the console, i.e. a rebalance that ejects a node, counts as not hard). Alive: a REST
 * sample (ns_server_system, any metric of the host; on the Prometheus path also its
 * scraped series, which stop when it leaves) within N intervals before the event, the
 * median cbq-engine CPU just before at or above the floor and the median established
 * connections above 0 (the Prometheus path has no net: the median rate of the node's own
 * n1ql_requests counter above 0), and its atop or net series going on for more than N
 * intervals after the event. On the Prometheus path a node failed over while alive is
 * still up, and Prometheus keeps scraping it: its scraped series going on says nothing
 * of whether it left (its serving before the event is the evidence). The node is
 * the failover line's, else tb->node (copied: out owns it). opts NULL: PD_LIVE_OPTS_INIT. Every
 * check that has its series is measured, even after a failed one, so a "no" still carries its
 * numbers. */
void pd_story_live_node(struct pd_live_node *out, const struct pd_run *run,
			const struct pd_timebase *tb, const struct pd_live_opts *opts);

/* Frees what ln owns (its host): after pd_story_live_node, unless a finding took it. */
void pd_story_live_release(struct pd_live_node *ln);

/* The largest worker, instance or bucket count read from a test config. */
#define PD_STORY_MAX_COUNT 1000000L

/* Checks run's query workload against Little's law. The worker count is perfrunner's:
 * WorkloadPhase starts workload_instances tasks per target bucket, each with n1ql_workers
 * N1QL workers (perfrunner/helpers/worker.py, spring/wgen3.py); the client hosts only
 * run those tasks. A value that is not an integer from 0 to PD_STORY_MAX_COUNT, like a
 * missing n1ql_workers, gives ok = 0. served is the run's throughput (pd_kpi_served,
 * read from its KPI facts). */
void pd_story_closed_loop(struct pd_closed_loop *out, const struct pd_run *run,
			  const struct pd_timebase *tb, struct pd_estimate served,
			  double tol_pct);

#endif
