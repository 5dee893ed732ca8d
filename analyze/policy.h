/* The policy numbers of the comparison in one table: what each decides and why that value.
 * A number a delta, a finding or a question depends on lives here and nowhere else (one
 * owner per fact); the finding weights are finding.c's one table (rank_of), the
 * practical threshold and the settling time are options (PD_COMPARE_OPTS_INIT). */
#ifndef PD_POLICY_H
#define PD_POLICY_H

/* ---- samples and windows ---- */

/* A window is compared only with this many samples on both sides (and a baseline counts
 * in the run-to-run spread only with as many): fewer cannot estimate an AR(1) noise. */
#define PD_POLICY_MIN_SAMPLES 10

/* A latency percentile p is stated with at least one sample beyond it: n (1 - p / 100) >=
 * 1, so p99.9 needs 1000 samples and p50 two (analyze/stats/tails.c pd_tails_need); with fewer
 * the percentile is the largest sample or an interpolation towards it, and is said to lack
 * samples instead. The value is that number of samples beyond. */
#define PD_POLICY_PCT_BEYOND 1.0

/* Data gaps: a hole of this many intervals (three samples or more missing in a row) on a
 * live node is said; a single lost sample is the norm for perfdb and is not. */
#define PD_POLICY_GAP_INTERVALS 4

/* Events: an event time may be late by this many sampling intervals (its sources agree
 * within one: the console's failover line against the series' rebalance start, 299.8 s
 * against 305 s on the seed). A figure measured "at the event" (the failed requests, the
 * throughput dip) looks back this far before it, over the points where the event's
 * effect already shows, so that it moves by a few percent at most when the event moves
 * within an interval (test_compare_event_errors_hold_when_the_event_moves). */
#define PD_POLICY_EVENT_SLACK 2

/* The throughput dip is the lowest query rate within this many seconds of the event (the
 * seed's rebalance lasts 93 s), and it has recovered from the first of this many points
 * in a row within the threshold of the baseline's median. */
#define PD_POLICY_DIP_WINDOW_S     120.0
#define PD_POLICY_RECOVERED_POINTS 3

/* Two failover runs recovered alike when their times back differ by at most this many
 * sampling intervals: "back" is read to one interval, and a run of RECOVERED_POINTS points
 * in a row can move it by as many (their depths compare against the threshold). */
#define PD_POLICY_RECOVERY_SLACK_POINTS 3

/* The tails' block bootstrap (analyze/stats/tails.h): this many resamples of a run's stream a
 * phase (a standard error, not an interval's ends, is read from them: 200 give it within
 * 5 % of its value, 1 / sqrt(2 x 200)), at most this many samples drawn in all (a longer
 * stream is resampled m out of n: 2e7 draws are 1e5 samples a resample, 0.12 s a side
 * of 12 h at 20 requests a second on this machine), from this seed (so the figures are
 * reproducible). */
#define PD_POLICY_TAILS_RESAMPLES 200
#define PD_POLICY_TAILS_DRAWS     2e7
#define PD_POLICY_TAILS_SEED      0x7461696c73ULL /* "tails" */

/* ---- counts: changes a percentage cannot state ---- */

/* A rate whose baseline is 0 changes by a count of events over the window: this many of
 * them are a change (docs/report.md "Verdicts"). */
#define PD_POLICY_ABS_MIN_EVENTS 10.0

/* Failed requests at the event are worth a finding from max(PD_POLICY_ERRORS_MIN,
 * PD_POLICY_ERRORS_BASE_X x the other run's count) up: ten is the floor (below it, a stray
 * timeout in a 20-minute run), three times the other run's so that a workload that fails
 * requests anyway is flagged only when the event triples it. */
#define PD_POLICY_ERRORS_MIN    10.0
#define PD_POLICY_ERRORS_BASE_X 3.0

/* Connections a removed node keeps after it left: a post-phase median of at least this
 * many is not the residue of closing sockets. */
#define PD_POLICY_LINGER_MIN 10.0

/* ---- caps and tolerances ---- */

/* Little's law holds within this much: query_avg_req_time is the server's time per
 * request; the client's round trip and its own work between queries add to it, which
 * makes workers / latency overestimate the rate a little (the seed: 0.2 %). */
#define PD_POLICY_LITTLE_TOL_PCT 10.0

/* ---- comparability ---- */

/* Runs whose measured phases differ by more than this fraction of the longer, or whose
 * sampling intervals differ by more than this fraction of the larger, are not comparable:
 * their windows would not hold the same part of the workload. */
#define PD_POLICY_PHASE_LENGTH_TOL 0.10
#define PD_POLICY_INTERVAL_TOL     0.10

/* ---- one baseline's run-to-run margin (analyze/judge/deltas.c run_kind_of, rule_at) ---- */

/* The relative run-to-run sd a metric's kind is given with one baseline (its margin is
 * 1.96 sqrt(2) sd): connections and memory are set by the workload (1 %, 0.5 %), CPU and
 * request rates by it and the machine (1 %), traffic 1.5 %, latency, whose tail moves from
 * run to run, 2.5 %; queues, tails and churn 5 %: a queue's length grows as u / (1 - u)
 * with the utilization u, so at u = 0.8 a 1 % difference of load between runs is 5 % of
 * queue, and so are the requests slower than a bound, sockets in TIME_WAIT and disk I/O.
 * Defaults, not measurements (several baselines or a history measure them);
 * tests/e2e/real_noise.sh measures what they give on real noise. */
#define PD_POLICY_RUN_SD_QUEUES      0.05
#define PD_POLICY_RUN_SD_CONNECTIONS 0.01
#define PD_POLICY_RUN_SD_MEMORY      0.005
#define PD_POLICY_RUN_SD_CPU         0.01
#define PD_POLICY_RUN_SD_TRAFFIC     0.015
#define PD_POLICY_RUN_SD_LATENCY     0.025
#define PD_POLICY_RUN_SD_RATE        0.01

/* One baseline: a metric's level is taken to move between runs by at least this share of
 * the relative sd its baseline run shows (analyze/stats/infer.h, "Run noise"): the margin's
 * source is then run-noise. */
#define PD_POLICY_RUN_NOISE_SHARE 0.5

/* ---- what the outputs list and draw ---- */

/* The findings a short output (summary.md, summary.jira, the terminal) lists at least:
 * a screenful, which the seed's 13 findings exceed (pd_comparison.n_top); the change
 * points the history report lists on the terminal (pd_history.n_top). */
#define PD_POLICY_TOP_FINDINGS 10

/* The moving mean a finding's difference over time is read through (pd_finding.smooth_pct):
 * six samples at perfrunner's 5 s interval. */
#define PD_POLICY_SMOOTH_S 30.0

/* An index metric's indexes charted: those that moved most (pd_view.top,
 * pd_comparison.index_top). */
#define PD_POLICY_INDEX_TOP 5

/* ---- bounds ---- */

/* The common grid's values at most (analyze/compare.c check_grid): this many per sample
 * read, or this many in all (256 MiB of doubles), whichever is more. */
#define PD_POLICY_GRID_PER_SAMPLE 16
#define PD_POLICY_GRID_FLOOR      ((double)(1u << 25))

/* ---- the history ---- */

/* A history report reads a test's newest this many runs unless --window says otherwise:
 * two years of weekly runs; the permutation tests cost O(N log N) each in the window's
 * length N. */
#define PD_POLICY_HIST_WINDOW 100

/* compare --db reads each metric's run-to-run spread over the newest this many earlier
 * runs of the target's test and build line (pd_history_spread: since the last change
 * point among them), as the report's default window does. */
#define PD_POLICY_SPREAD_WINDOW 100

#endif
