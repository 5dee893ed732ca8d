/* One inference per delta (docs/report.md "Statistics" and
 * "Verdicts"): from one noise model of each window, the estimate, the interval,
 * the p-value and the verdict. Pure functions, no I/O, no global state; every double
 * that leaves is finite (a flag says which fields hold values). The tails (latency
 * percentiles, slow-request shares) have their own estimator: analyze/stats/tails.h.
 *
 * The model. A window's location is its mean. The variance of that mean is the largest of
 * three readings of the window's long-run variance (real monitoring noise has
 * memory beyond lag 1, periodic load and drift):
 *  - AR(1): s^2 / n * F(phi, n), F = (1 + phi) / (1 - phi) - 2 phi (1 - phi^n) /
 *    (n (1 - phi)^2) (the exact finite-n factor), s^2 = sum (v - mean)^2 / (n - 1), phi the
 *    lag-1 autocorrelation with Kendall's bias correction phi + (1 + 3 phi) / n, clamped to
 *    [0, 0.99];
 *  - AR(p), p <= min(16, n / 10) by AIC (p = 0 competes): Levinson-Durbin on the biased
 *    autocovariances, sigma_p^2 / (1 - sum a_j)^2 / n (1 - sum a_j floored at 0.01), on
 *    s^2's scale (times n / (n - 1)); it sees a series that alternates at lag 1 while its
 *    level drifts (phi <= 0, so AR(1) says white noise);
 *  - overlapping batch means, batches of n / 8 (Meketon and Schmeiser 1984), when n >= 16:
 *    it sees a slow cycle or a drift within the window that no low-order AR fits.
 * Scale: a window whose largest magnitude is outside 2^-200..2^200 (1e-60..1e60)
 * is modelled on a copy times 2^-e, e its exponent, and two windows are compared at the
 * larger exponent; figures in the unit are scaled back at the end. A power of two changes
 * no digit, so a doubling at 1e200 (whose squares overflow) or at 1e-310 (whose squares
 * underflow) gives the verdict and percentages of a doubling at 1; windows of ordinary size
 * are read as they are, to the bit.
 * Each costs O(n) (AR(p): 17 autocovariances). Sides whose values sit on a grid get a floor:
 * the mean's variance is at least (g / 2)^2 / 12, g the smallest nonzero gap between distinct
 * values (pooled over the two sides), so a quantized series never gives a [0, 0] interval; only
 * two windows holding one same value throughout do (reason PD_INFER_CONSTANT).
 *
 * Measured (tests/check_noise.c prints the table; fixtures/noise/README.md, the real
 * series and the construction: A/A = two disjoint stretches of one real series, noise sd
 * 3 %, m = 40, nominal null exclusion of 0 0.125 %, +10 % planted):
 *   estimator (scratch runs, 9 series, 240 samples, 320 A/A pairs): null exclusion of 0 /
 *   +10 % covered: AR(1) 29.1 % / 227; AR(p) AIC 9.1 % / 291; AR(p) BIC 15.6 % / 270;
 *   Newey-West with Andrews' AR(1) bandwidth 34.1 % / 211; batch means of sqrt(n) 25.9 %
 *   / 237, of n/5 10.9 % / 285; max(AR(1), AR(p) AIC) 8.8 % / 292; max(AR(1), batches
 *   n/5) 8.4 % / 293; the chosen max(AR(1), AR(p) AIC, batches n/8) 6.6 % / 299. Every
 *   one of them gives the same synthetic AR(1) rates as AR(1) alone, except Newey-West
 *   and batch means alone (phi 0.97: exclusion 24 % and 19.5 % against 3.5 %).
 *   The first check_noise (two disjoint stretches, no run around them): today's
 *   AR(1) without margin excluded 0 in 24.6 % of A/A pairs at 240 samples, this model
 *   with the margin 0.0 %; at 90 samples 15.3 % -> 11.6 %; no false finding.
 *
 * Short windows: the run floor. A window of n samples cannot see noise slower than
 * itself (a drift, a daily cycle), and a pre-event phase of a quarter of a run is short.
 * The rest of the first baseline run can: its pre and post phases, each apart (a level
 * shift between them, the event's, is no noise; the transient, a recovery, is left out),
 * give the relative variance of an n-sample mean by overlapping blocks of n over each
 * phase at least 2n long (pd_infer_floor_add: Meketon and Schmeiser's Var(block mean),
 * pooled by blocks), and every window of the delta (baselines and target) has at least
 * that variance times its mean^2. Without an event the window is the whole run: no floor.
 * Measured on the interval summary.json states, ci_pct (check_noise reads pd_infer_judge's
 * lo_pct..hi_pct, which deltas.c copies there; the baseline's window is the first n
 * samples of a run of 360, its rest the post phase; the target's window n samples outside
 * that run; 7 NAB series, 280 pairs; the MS 1-min request and ingress rates apart
 * ("diurnal"), 120; synthetic AR(1), 320; m = 40, CPU's margin; exclusion of 0 in A/A
 * pairs / +10 % found; nominal 0.125 %):
 *                        real 240   real 90    diurnal 240 diurnal 90  AR(1).5,90 AR(1).9,90
 *   AR(1), no margin     23.6 /280  13.9 /256  45.0 /58 *  55.0 /79 *  0.3 /317   1.3 /98
 *   max 3+floor, no M     1.07/276   5.0 /211  38.3 /57 *  19.2 /36 *  0.3 /308   0.9 /52
 *   max 3, M, no floor    0.0 /265   2.14/229  26.7 /50    35.0 /64 *  0.0 /275   0.6 /69
 *   max 3+floor, M in the interval (chosen)
 *                         0.0 /265   0.71/186  26.7 /50    16.7 /31    0.0 /245   0.3 /37
 *   same, 2 sd^2 at the family's q (not taken)
 *                         0.0 /115   0.0 / 64  11.7 /44    11.7 /21    0.0 / 44   0.0 /14
 *   (* false findings in A/A pairs: 9, 10; 8, 3; 2 of 120; none in any other cell. The
 *   last session's verdicts, with M asked beyond the threshold and ci_pct within-run, are
 *   the chosen row's: 1.07 % and 5.0 % then was the exclusion of the interval stated.)
 *   The run floor halves the 90-sample exclusion (2.14 -> 0.71 %) for a quarter of the
 *   power there; at 240 samples a 360-sample run leaves no 2n, so it cannot act. Student t
 *   at 21 df (batch means' degrees of freedom) instead of z was measured before: 5.0 ->
 *   2.5 % at 90 for 5 % of the power at 240 and a quarter at AR(1) .9; not taken.
 *   +20 % is found in 280/280 real pairs at both lengths, 113 and 107 of 120 diurnal.
 *
 * Where the exclusion beyond nominal comes from (check_noise test_noise_parts; the same
 * series, seeds 3000 +, 40 pairs a series; the baseline's window against the n samples
 * right after it in the same run, or against a window outside the run as above; "true" is
 * the mean square log difference of 400 pairs of another seed; within-run intervals, no
 * margin; exclusion of 0 / median estimated over true variance of the difference):
 *                      same run            another run         + true run-to-run var
 *   real 240  AR(1)    9.3 % / 0.35        22.5 % / 0.19
 *             AR(p) AIC 1.8 / 0.84, BIC 3.2 / 0.33; another run 2.5 / 0.33, 8.2 / 0.18
 *             NW Andrews 13.9 / 0.23, NW lag 4 (n/100)^(2/9) 13.9 / 0.28 (26.8, 26.1)
 *             OBM n/8  0.0 / 0.50 (2.5 / 0.32); chosen 0.0 / 1.17 (0.4 / 0.63)   0.0 %
 *   real 90   chosen   8.9 / 0.23, + floor 0.7 / 1.22; another run 10.7 / 0.21, + floor
 *             5.7 / 0.91; every other estimator 11.8-20.4 (12.9-18.6)              0.7 %
 *   diurnal 240 chosen 25.0 / 0.23 (40.8 / 0.14); AR(p) AIC 28.3 (40.8), the rest
 *             44-92 (47-87)                                                       12.5 %
 *   diurnal 90  chosen 21.7 / 0.11, + floor 9.2 / 0.74; another run 57.5 / 0.04, +
 *             floor 25.8 / 0.26; the rest 28-71 (59-86)                            0.0 %
 *   So: at 240 samples of the real set no within-window memory is missed (same run 0 %);
 *   at 90 the window misses most of it (0.23 of the variance) and the run floor gives it
 *   back (0.7 %): what is left across runs (5.7 %) is run-to-run (the rms log difference
 *   grows from 1.10 to 1.22 %) and goes once that variance is in the interval. The
 *   diurnal set is both: a daily cycle of 1440 samples that windows of 90 and 240 see as a
 *   drift (same-run windows already differ by 2.42 and 3.67 % rms, 0.11-0.23 of it seen),
 *   and run-to-run of 3.4 % (90) and 1.7 % (240) sd of the difference, more than CPU's
 *   default 1.41 % (2 x 1 %^2); with the true one at 90 the exclusion is 0 and +10 % is
 *   found in 0 of 120: no power left. No estimator of those above does better than
 *   the chosen one on any of these sets; Newey-West (either bandwidth) and batch means
 *   alone are the worst on the drifting sets.
 *
 * The change. When both levels are positive and their intervals exclude 0, the change is
 * read on the log scale, log(mean_t / mean_b) with se^2 = V_t / mean_t^2 + V_b / mean_b^2
 * (the delta method), reported as 100 (exp(.) - 1) %, so the interval cannot fall below
 * -100 % nor run away. When only the baseline's level interval excludes 0: the ratio
 * mean_t / mean_b - 1 by the delta method, its lower end clamped at -100 % for a
 * nonnegative metric. When the baseline's level interval holds 0, a percentage is
 * undefined: the change is absolute, in the metric's unit, and for per-second rates also a
 * count (the mean change times the target window's seconds, n_t * step_s); the verdict
 * then reads that count (or the unit) against the caller's absolute threshold. A rate whose
 * baseline window is 0 throughout (no event at all) is judged on the count of the target's
 * events with its Poisson standard error sqrt(N + 1): an AR(1) fit to a burst of errors
 * against silence would take the burst for its own noise. Several baselines that are all
 * silent are silence too, judged the same way: their spread (0) measures nothing, and a t
 * at k - 1 df over the burst made three silent baselines less sure of 681 failed queries
 * (-1812 .. +3174) than one (593 .. 769).
 *
 * The family. Intervals are Bonferroni-simultaneous at level 1 - alpha / m, m the number of
 * top-level deltas judged together (drill-downs, such as a node under its role, are judged
 * at their parent's level and explain it: they do not count in m); the p-value comes from
 * the same statistic and p_adj = min(1, m p), so p_adj < alpha exactly when the interval
 * excludes 0. Normal quantiles with one baseline; Student t with d0 + d degrees of freedom
 * with moderated run-to-run variances.
 *
 * Verdicts. Interval wholly inside +-threshold: same; wholly beyond it on the worse side:
 * regression, on the better side: improvement; else inconclusive, with a reason. The verdict
 * reads the interval stated, nothing else. With one baseline the run-to-run variance is not
 * measured, and the interval stated (summary.json ci_pct, the report's CI) is of the change
 * between two runs, not only between these two windows: the within-run interval widened on
 * each side by the rule's margin_pct M (analyze/judge/deltas.c: 1.96 sqrt(2) times a default
 * relative run-to-run sd of the metric's kind, or after an event the sd the runs' own
 * pre-event difference measures: "The runs' own evidence" below) in quadrature,
 * est -+ sqrt(h^2 + M^2), h the within-run half-width on that side (the two errors are
 * independent); the p-value is of that interval (the estimate over its half-width toward
 * 0, times q), the MDE its half-width. Inconclusive because the within-run interval alone was
 * past the threshold: reason PD_INFER_RUN_MARGIN. Its level: the within-run part at 1 - alpha /
 * m, the run part at 95 % (1.96; a node's over its metric's nodes, below), not Bonferroni'd
 * over the family: a run offset is one draw per pair of runs
 * that the metrics of a run share (the seed's generator and real runs move them together), so a
 * family does not give it m chances; the alternative, 2 sd^2 in the variance at the
 * family's q, was measured (check_noise, "not taken"): exclusion of 0 on the real sets
 * 0.0 % / 0.0 % (240 / 90) against 0.0 % / 0.71 % for the margin, but +10 % found in 115 /
 * 64 of 280 against 265 / 186, synthetic AR(1) .5 at 90 44 of 320 against 245; the
 * diurnal set 11.7 % / 11.7 % against 26.7 % / 16.7 %. Both keep every false finding at 0;
 * the margin keeps the power. "The runs agreed before the event" (findings.c) reads the
 * within-run interval (within_same): a run offset is the two runs' in every phase, so it is
 * no reason to doubt that their levels agreed. Before this interval held the margin (when
 * the margin was first added), the verdicts asked the same (past the threshold by
 * sqrt(h^2 + M^2)) while ci_pct was the within-run interval: the seed's 75 regressions and
 * 13 findings are unchanged, 73 of its 373 "same" are now inconclusive (their widened
 * interval reaches past 5 %), every finding's interval is wider (cluster CPU after the event
 * +11.5..+13.8 % -> +9.6..+15.6 %). A ratio's interval that holds both -50 % and +100 %
 * (a baseline near 0: +781 % [-100 %, +4725 %]) says nothing of the ratio: the change is
 * then absolute, as for a zero baseline (no margin: counts).
 *
 * Where the margins come from. The per-kind sds (connections 1 %, memory 0.5 %, CPU 1 %,
 * traffic 1.5 %, latency 2.5 %, queues, tails and churn 5 %, other rates 1 %) are
 * judgement, not measurements (the queues' reason: analyze/judge/deltas.c run_kind_of): neither
 * the repository nor the public perfrunner outputs its readers are tested on hold replicated
 * real runs (the seed's baseline-r2 and -r3 are generated with one 3 % run-to-run sd for every
 * metric, fixtures/seedgen.c LEVEL_SD: measuring them gives back the generator's figure, not a
 * kind's). Nor does public data, as far as a search reached: the stored copies of
 * couchbaselabs/showfast and showfast2 hold the dashboard's code, not its database, and no
 * replicated runs with their series turned up beside couchbase/perfrunner or cbmonitor; the
 * public repeated-run figures found (issue threads of CPython's, rustc's and CI benchmark
 * suites) are wall times of microbenchmarks, not a server's CPU, memory, connections, traffic
 * and latency per run. What would change them: k >= 3 real baselines of one perfrunner test,
 * whose moderated between-run sds (pd_infer_spread_of, pd_infer_prior_fit) per kind give the
 * kind's sd as their median; with several baselines a comparison already uses its own measured
 * spread and no margin.
 *
 * The runs' own evidence (drifting and periodic series). What one baseline's
 * data can say about the two runs' offset, measured (check_noise; the pre-window sets as
 * in "Short windows"; a failover pair: two disjoint runs of 360 points of one series, the
 * pre-event phase their first 90, the post their last 240, A/A / +10 % and +20 % after
 * the event / +10 % "throughout", in pre and post, as the seed's memcached CPU; 280 real
 * pairs, 120 daily, 320 AR(1); cells: A/A exclusion of 0 / +10 % found / +20 % found /
 * +10 % throughout found after the event; m = 40, CPU's 1 %):
 *  a. the baseline run's own slow variation at the window's length (the excess of the
 *     variance of n-sample block means over each phase of the baseline run, the run
 *     floor's stretches, over the window's own estimate; M = max(kind, 1.96 sqrt(2) its
 *     sd)): pre windows at 90, real 0.71 % / 186 / 280 (unchanged), daily 16.7 % / 30 /
 *     103 (unchanged exclusion), AR(1) .9 0.31 % / 37 / 305; at 240 a 360-point run has no
 *     stretch of 2n: nothing. Blocks of min(n, N / 2) instead: the same cells within one
 *     pair; over the whole run, across the event (wrong with an event: its shift is no
 *     noise): daily 240 26.7 -> 20.0 %. The flag "this baseline drifts beyond the default"
 *     is raised on 63 of the 120 daily pairs but beside none of their 20 A/A exclusions,
 *     and on 69 of 320 stationary AR(1) .9 pairs: a 6-hour run that sits on a flat part
 *     of a daily cycle says nothing of the level 10 hours later. Not taken.
 *  b. the failover pair's pre-event phase, an A/A comparison of the two runs (no event in
 *     either yet): its log difference d, beyond its within-run variance v, measures this
 *     metric's run offset. As a variance (1.96 sqrt(2) sd, sd^2 = (d^2 - v) / 2, the
 *     kind's formula: 1.96 sqrt(d^2 - v)) or as the offset's 95 % bound |d| + 1.96
 *     sqrt(v) (a persistent offset: the runs' level apart before the event and after it),
 *     for the transient and post phases; post, real / daily / AR(1) .5 / AR(1) .9:
 *       before (kind's)      0.0/269/280/269 27.5/33/109/33 0.0/320/320/320 0.0/169/320/169
 *       variance, always     0.0/253/280/0   10.8/19/87/0   0.0/320/320/0   0.0/149/320/0
 *       ... pre not decided  0.0/253/280/176 10.8/19/87/28  0.0/320/320/260 0.0/149/320/32
 *       ... past 95 %        0.0/266/280/0   10.8/20/89/0   0.0/320/320/0   0.0/166/320/3
 *       ... both gates       0.0/266/280/176 10.8/20/89/28  0.0/320/320/260 0.0/166/320/35
 *       bound, pre not dec.  0.0/217/280/176 10.0/28/84/28  0.0/320/320/260 0.0/52/320/32
 *       bound, both (chosen) 0.0/266/280/176 12.5/29/95/28  0.0/320/320/260 0.0/166/320/35
 *     The 95 % test: |d| > 1.96 sqrt(2 sd_kind^2 + v), the pre-event difference beyond what
 *     the kind's sd and the within-run noise allow (ungated, d^2 - v passes the kind's sd by
 *     chance in 17 % of real and 15 % of AR(1) .9 pairs; the test in 3 of 280 and 5 of
 *     320, so the power after the event stays: 269 -> 266, 169 -> 166). "Pre not decided":
 *     a pre delta that is a regression or an improvement calls the difference the build's,
 *     and the margin does not contradict it. The bound rather than the variance: 1.5 %
 *     more exclusion on the daily set for a third more of its power (+10 %: 20 -> 29;
 *     +20 %: 89 -> 95), and on the 12 h bench pair (scripts/bench) the cluster's CPU after
 *     the event (+12.7 %, 2141 pre samples 4.6 % apart) stays a regression with the bound's
 *     margin (about 5 %) where the variance's (8.9 %) made it inconclusive. The cost of
 *     either is the confound one baseline cannot undo: a build's change in every phase
 *     looks like a run offset before the event, so after it +10 % throughout is found in
 *     176 of 280 real pairs (269 before), 35 of 320 AR(1) .9 (169); the whole phase keeps
 *     the kind's margin and finds it (268 of 280, 231 of 320: unchanged), so the change is
 *     not lost, only read as no event's. Not in the pre and whole phases (no A/A phase
 *     beside them). The seed (`perfdelta demo`): 5 post deltas of memcached CPU on single
 *     kv nodes (atop and REST; their pre deltas open at +14 to +18 %, margins 18 to 25 %)
 *     go from regression to inconclusive; the kv role's own deltas keep the kind's margin
 *     (its pre is a regression, +15.9 %) and every finding stays. The 12 h bench pair: 2
 *     margins change, no verdict.
 *  The daily pre windows stay where "Short windows" puts them (16.7 % at 90, 26.7 % at 240):
 *  nominal exclusion and +10 % cannot both hold there (with the run-to-run variance the
 *  pairs really have in the interval, exclusion 0 %, +10 % found in 0 of 120: +10 % clears
 *  +5 % at the family's q = 3.23 only when the sd of the run difference is under
 *  (ln 1.10 - ln 1.05) / 3.23 = 1.44 %, and it is 3.4 %). With one baseline the tool says
 *  it instead: where the pre-event difference passes the 95 % test, every later phase
 *  states it (summary.json run_offset_pct; deltas.c): in the failover pairs on 52 of 120
 *  daily pairs, beside 23 of their 33 post A/A exclusions with the kind's margin, and on 3
 *  of 280 real and 0 and 5 of 320 AR(1) A/A pairs.
 *
 * Whole bundles (tests/e2e/real_noise.sh; fixtures/noise/README.md, "Whole bundles": the
 * seed's workload, every series' noise a stretch of a real one at the seed's sd of that
 * metric, `perfdelta compare` over every metric, node, role and phase; 40 pairs a set;
 * A/A pairs with a finding / top-level intervals excluding 0 / +10 % step covered, found /
 * failover pairs with a finding not the failover's):
 *   NAB (fixtures)             0/40  0/3600  40 34 of 40  0/40  (main before: 0 1 40 40 38)
 *   NAB held out (15 series)   0/40  6/3596  40 31        9/40  (main before: 8 49 40 37 37)
 *   daily (MS 1 min)          32/40 163/3595 37 21       40/40; two baselines 0 0 40 0 0
 *   all 11 fixtures mixed      6/40 38/3600  37 21       19/40  (main before: 22 121 36 24 40)
 * "Held out": NAB's other server series (fixtures/noise/trim.py --held-out), never used to
 * choose anything here; with two baselines 1/40 and 0/40. The failover's false findings
 * before were the cluster's CPU before the event, a 7-node mean against a 6-node one, until
 * cluster views carried the topology (analyze/align/views.c). On the daily set the runs differ
 * by 3-8 times the sd a run shows (above), beyond any margin a run could justify; each
 * such finding states that its interval holds one baseline's margin, and a second
 * baseline leaves none. What is left on the held-out set is 8 node drill-downs and a
 * queue: runs whose stretches sit on two levels of a series that shifts (ec2_cpu ac20cd
 * and iio NetworkIn: stretch means 1.2-1.4 sd apart rms), per node and metric.
 *
 * Run noise (one baseline, analyze/judge/deltas.c run_noise): the run-to-run sd is at least
 * half the relative sd the baseline run shows of the metric (over its whole run; its pre and
 * post phases pooled, each about its own mean, when it has an event of its own): a metric
 * whose samples move by s % within a run is not taken to hold its level between runs
 * better than s / 2 %, where the kinds' sds are one figure for every metric of a kind
 * (a process's CPU at 5 % noise had the 1 % of a node's at 3 %). Stretch means of the
 * real series differ by 0.02-0.7 of a series' sd rms (1.4 on the daily and two shifting
 * held-out ones: fixtures/noise/README.md). Measured (the rows above without it):
 * held-out failover 19 -> 9 of 40, exclusion 11 -> 6, step found 37 -> 31; NAB step
 * 40 -> 34; mixed A/A 9 -> 6, failover 26 -> 19; share 1 (not taken): held-out failover
 * 3, but the step found in 7 and 0 of 40; the window's own sd instead of the run's (0.5):
 * held-out failover 18. The seed keeps its 13 findings (indexer CPU after the event is
 * stated from its REST twin instead of atop: the same nodes' figure); 70 -> 60 of its
 * deltas are regressions. Queues, tails and churn (5 %) took the mixed set's A/A pairs
 * with a finding from 22 to 9 of 40 before it.
 *
 * Slow variation, measured and not taken (tests/e2e/real_noise.sh's bundles at 40 pairs,
 * one baseline; A/A pairs with a finding / +10 % step found / failover pairs with a finding
 * not the failover's). Can the baseline run's own slow variation say where one baseline
 * cannot judge? Its overlapping means of a third of the run (pd_infer_floor_add with
 * n = N / 3, about 3 df) against the 3 V / mean^2 its short-memory model predicts: on the
 * daily set the excess never passed the chi-square's 95 % point (the window's estimate,
 * whose batch means of n / 8 and AR(p) already see a drift inside the run, is larger in
 * every view), so nothing changed (22 / 21 / 32 before and after). The sd of a third's
 * mean itself as the run-to-run sd, where above the kind's and run noise's: it set the
 * margin of 2499 of the daily set's whole-run deltas and took its A/A pairs with a finding
 * from 22 to 21 (the NAB step 34 -> 33, held-out unchanged). Two runs hours apart on a
 * daily cycle differ by what no stretch of one run shows; the measure that sees it is a
 * second run: daily, two baselines, 1 of 40 A/A pairs with a finding. Nor does the share
 * of the run's variance between its thirds (that third's-mean variance over the run's
 * relative variance) tell which metric one run can judge: over the top-level whole-run
 * deltas of 40 A/A pairs, the rms of |log difference| / the run's relative sd by that share
 * (< 0.05, 0.05-0.15, 0.15-0.3, 0.3-0.6, > 0.6) is, daily: 5.6, 5.0, 4.1, 2.9, 2.5
 * (falling as the share grows: a flat stretch of a daily cycle is compared with a run at
 * another hour); held-out: -, 0.64, 0.65, 0.91, 0.57; NAB: 2.0, 0.31, 0.22, 0.29; AR(1):
 * 0.20, 0.25, 0.21, 0.25. A rule "share 1 of the run's sd where the thirds hold a quarter
 * of its variance" would widen what needs it least.
 *
 * Several baselines, the run part at 95 % (as one baseline's margin, not Bonferroni'd),
 * measured and not taken: the moderated between-run variance beyond the within-run part
 * scaled by (t(0.975, df) / t(1 - a / 2, df))^2. +10 % step found, two baselines: NAB
 * 17 -> 20, held-out 5 -> 12 of 40 (one baseline: 34, 31), daily 0 -> 0; failover pairs
 * with a finding not the failover's: NAB 2 -> 2, held-out 1 -> 5, daily 1 -> 4 (a
 * cluster's queue, index_num_docs_pending, +17 to +37 %, in each): with a variance of one
 * df the run-to-run part is no known margin, and its Bonferroni quantile is what keeps
 * such a chance small variance from a finding. The same with the between-run part floored
 * at the kind's sd (two baselines never assuming less than one): step found AR(1) 21 ->
 * 21, NAB 17 -> 17, held-out 5 -> 10; A/A exclusion AR(1) 5 -> 0, NAB 9 -> 0, held-out
 * 4 -> 0, daily 3 -> 6, SMD 7 -> 20; failover pairs with a false finding NAB 2 -> 0,
 * held-out 1 -> 2, daily 1 -> 4, SMD 4 -> 8 (SMD: fixtures/noise/README.md).
 *
 * Several baselines, the prior fitted on the ratio s2 / within (the between-run variance
 * over the baselines' own within-run variance, floored at 1), measured and not taken:
 * stationary series give ratios of one chi-square shape, so the prior is tight where the
 * runs differ only by their noise. Two baselines, 40 pairs, +10 % step found / A/A
 * intervals excluding 0 of 3600 (nominal about 2) / failover pairs with a false finding:
 * AR(1) 21 -> 29 / 5 -> 0 / 0 -> 0; NAB 17 -> 23 / 9 -> 2 / 2 -> 0; held-out 5 -> 6 /
 * 4 -> 12 / 1 -> 1; daily 0 -> 0 / 3 -> 19 / 1 -> 1. Where the runs really differ (the
 * held-out and daily sets) the tight prior shrinks metrics whose runs move more than
 * most of their kind's, and the intervals stop covering: more power where it is not
 * needed, less coverage where it is.
 *
 * A node's margin (analyze/judge/deltas.c sibling_z). A node's drill-down (an index's) is one
 * of its metric's n: each node has a run-to-run offset of its own (its page cache, its
 * vBuckets' keys, its collector's timing), and a reader looks at the node that moved, so
 * the 1.96 of its margin is Phi^-1(1 - 0.025 / n), 95 % over the n of them (2.24 for two
 * nodes, 2.50 for four, 2.69 for seven); roles and the cluster keep 1.96 (one offset of
 * theirs a pair of runs). Its pre-event offset ("The runs' own evidence") is tested
 * against z times its sd, so that the margin it measures is never under that default
 * (tested at 1.96, 12 of the held-out set's measured margins and 42 of the daily set's
 * were: e2e_real_noise's offset_under). Measured: held-out failover pairs with a false
 * finding 9 -> 3 of 40 (the three left: a cluster's queue at +43 %, and a kv node's memcached
 * CPU 12 % off, before the event in one pair, after it in another, 5 and 6 or more sds of its
 * baseline run), mixed A/A 6 -> 4, failover 19 -> 13, daily A/A 32 -> 30; exclusion, the step's
 * coverage and power unchanged on every set (a role's deltas); the NAB set unchanged. The seed
 * keeps its 13 findings; 60 -> 51 of its deltas are regressions: nine node drill-downs whose
 * role regresses (memcached CPU on three kv nodes' whole run, one node's CPU, +6 to +23 %) are
 * inconclusive with their 95 %-over-nodes margin. Not taken: the node spread of the baseline
 * run as the margin (9 -> 6: an offset of one node looks like a one-node regression),
 * Bonferroni of the within-run part over nodes (the margin dominates it: nothing changes).
 *
 * The minimum detectable effect (mde_pct, mde_abs) is the interval's half-width: the
 * smallest change the comparison tells from none at its level. baselines_needed is the
 * fewest baselines k (2..64) for which q sqrt(runs (1 + 1/k) + extra) would be under the
 * threshold on the log scale, runs = one run's level variance (the kind's run-to-run sd
 * squared plus the baseline's within-run variance, or the moderated between-run variance
 * when measured) and extra = the target's within-run variance beyond a baseline's; 0 when
 * none would do. q is the quantile the k baselines' interval would read: with several,
 * Student t at d0 + k - 1 df (the fitted prior's d0, as pd_infer_judge_reps), so a
 * comparison whose interval is not under the threshold never names the k it already has
 * (the normal's q said 2 where two baselines gave +-6.5 %); with one, the normal (the
 * kind's sd taken as known, as its interval takes it).
 *
 * Why these choices (a numpy prototype of this estimator, 20000 pairs of AR(1) windows,
 * 240 samples a side, sd 1 % of level, m = 300, threshold 5 %; tests/check_infer.c
 * measures the C code on fewer draws and prints its rates):
 *  - z rather than t with Welch-Satterthwaite df from n_eff: at phi 0.97 (n_eff about 4 a
 *    side, median df 4.0) t finds a +10 % step in 33 % of pairs, z in 97 %. Neither holds
 *    the nominal per-test tail P(|stat| > q) = 0.05/300 = 0.00017 (z: 0.0127, t: 0.0019):
 *    240 samples cannot pin phi near 1. So at high autocorrelation the p-value against 0
 *    is approximate (check_infer prints how often a null family has an interval excluding
 *    0: 2-6/60 at phi <= 0.5, 33/60 at 0.9, all at 0.97) and the practical threshold
 *    carries the verdict: no false regression in 60 null families at any phi, and at a
 *    true +5 % (the boundary) 0.7 % of deltas per delta at phi 0.97, 4 % at 0.99.
 *  - Kendall's correction and s^2 over n - 1 rather than s^2 over n - F (the unbiased
 *    marginal variance): the latter's variance of the mean is heavy-tailed upward near
 *    phi 1 (95th percentile of se / true se 2.2 against 1.6) and finds the +10 % step in
 *    90 % of pairs at phi 0.97 against 97 %. Without Kendall's correction the tail is
 *    0.025 (se biased low, median 0.70 of the truth).
 *  - phi capped at 0.99 rather than 0.995: at phi 0.97 power 0.970 against 0.952, the
 *    tail 0.0125 against 0.0121 (a capped phi already says "about one independent value").
 *  - AR(1) rather than batch means (10 batches) or Newey-West (Andrews' bandwidth): at
 *    phi 0.97 their per-test tails are 0.081 and 0.36 (they cannot see correlation longer
 *    than a batch or the bandwidth).
 *  - Each side's own phi rather than one pooled over both: the pooled fit is no better
 *    (power 0.973 against 0.966 at phi 0.97) and wrong when the target's noise changed.
 *  - The mean rather than a 10 % trimmed mean: the transient's spikes are the signal (the
 *    trimmed mean drops them, and errors must integrate to counts); with 2 % spikes of
 *    20 sd at phi 0.5 the trimmed mean's tail is worse (0.0005 against 0.00035).
 *  - The old method (medians, order-statistic interval, Mann-Whitney inflated by n/n_eff,
 *    Holm, pd_verdict_of), same simulation in C: +10 % found in 5.5 % of deltas at phi
 *    0.97 and 1.5 % at 0.99; the RSS case (phi 0.97, 0.4 %, +13 %) in 0 of 5.
 *
 * Replicated baselines (k >= 2 windows of the same metric, scope and phase in k baseline
 * runs): the run statistic is log(mean) (absolute mean when a baseline level is not
 * positive); its between-run sample variance s^2 (d = k - 1 df) is moderated across metrics
 * as limma does (Smyth 2004: a scaled inverse chi-square prior s0^2, d0 fitted by moments
 * on log s^2; posterior s~^2 = (d0 s0^2 + d s^2) / (d0 + d), t with d0 + d df). The target
 * is a new run: Var = s~^2 (1 + 1/k) + max(0, within_t - mean within_b) (s^2 already holds
 * the baselines' within-run noise). Absolute-scale metrics are not moderated (their units
 * differ). Power: Var is at least (0.04^2)(4/3) for runs differing by sd 4 %, so a +30 %
 * step clears +5 % at level 1 - 0.05/m with probability at most
 * Phi((log 1.3 - log 1.05) / 0.0462 - q): 0.98 at m = 5, 0.965 at m = 10, 0.80 at m = 300
 * even with the variance known; the fitted prior (d0 finite in many draws) costs a little
 * more (measured 0.96, 0.93, 0.6-0.8).
 * The prior is fitted per metric kind (analyze/judge/deltas.c fit_priors: queues and tails,
 * connections, memory, CPU, traffic, latency, rates; the kind's one over every spread when
 * it has fewer than 3): a prior over every metric mixes variances that differ by orders of
 * magnitude (a CPU's runs against a queue's), its d0 falls to a few df, and t at d0 + 1 df
 * and level 1 - 0.05/m made two baselines find a +10 % step in 0 of 12 pairs of real (NAB)
 * and AR(1) noise that one baseline finds in 8 and 11; per kind: 6 and 9, no false finding
 * (tests/e2e/real_noise.sh). Not tried yet: one prior per metric over its phases and
 * scopes (a finer grouping of alike variances).
 *
 * How a caller uses it:
 *   one baseline:   pd_infer_side_of() on each window (struct pd_sample, as stats.h
 *                   prepares them), then pd_infer_judge(); m = the number of top-level
 *                   deltas of the comparison, counted before judging any.
 *   k baselines:    pass 1, per top-level delta: pd_infer_side_of() on the k baseline
 *                   windows, pd_infer_spread_of(); then pd_infer_prior_fit() over each
 *                   metric kind's spreads; pass 2, per delta: pd_infer_judge_reps().
 *   drill-downs:    judged with the same family (m of the parent's family, not grown).
 * The result says which noise it was judged against (pd_infer_noise_text()). */
#ifndef PD_INFER_H
#define PD_INFER_H

#include "tree/tree.h"
#include "stats.h"

#include <stddef.h>

/* Fits the noise model of s (values in time order and sorted, as pd_stats_sample_prepare
 * makes). */
void pd_infer_side_of(struct pd_infer_side *out, const struct pd_sample *s);

/* The finite-n AR(1) inflation F(phi, n) of the variance of a mean (1 at phi 0). */
double pd_infer_ar1_factor(double phi, size_t n);

/* s's mean and its standard error in the metric's unit (mean and sqrt(var_mean) times
 * 2^exp2; the standard error is +inf past the largest double). */
double pd_infer_level(const struct pd_infer_side *s);
double pd_infer_se_mean(const struct pd_infer_side *s);

/* The run floor of a short window (see "Short windows" above): the relative variance of
 * an n-sample mean, pooled over stretches of the baseline run (each phase apart, so that a
 * level shift between phases is no noise). */
struct pd_infer_floor {
	double sum;    /* blocks times the stretch's variance of a block mean, relative */
	double blocks; /* overlapping blocks of n over the stretches */
};
/* Adds a stretch x[0..N) (time order) for windows of n samples; nothing when N < 2 n or
 * the stretch's mean is not positive. */
void pd_infer_floor_add(struct pd_infer_floor *f, const double *x, size_t N, size_t n);
/* The pooled relative variance of an n-sample mean (0 when no stretch was added). */
double pd_infer_floor_of(const struct pd_infer_floor *f);
/* Raises s's var_mean to rel mean^2 when that is larger (n_eff follows). */
void pd_infer_side_floor(struct pd_infer_side *s, double rel);

/* Two windows of one metric in two runs with no change between them (the pre-event
 * phase of a failover comparison): whether they differ by more than a relative run-to-run
 * sd run_sd and their within-run noise allow at 95 % (see "The runs' own evidence"),
 * |d| > 1.96 sqrt(2 run_sd^2 + v), d = log(level_t / level_b), v = V_b / mean_b^2 +
 * V_t / mean_t^2. Then 1, with the difference in % and the margin it measures, the
 * offset's 95 % bound 100 (|d| + 1.96 sqrt(v)) % (over the test's 1.96 sqrt(2) run_sd);
 * else 0 (NaN and 0), and unless both levels are positive and clear of 0 (mean > 1.96
 * se). */
/* The standard normal's 97.5 % quantile: the 95 % two-sided z of the run-to-run margins
 * (this offset's, and the kinds' and history's 1.96 sqrt(2) sd in analyze/judge/deltas.c). */
#define PD_INFER_Z95 1.959963984540054

struct pd_infer_offset {
	double pct;        /* 100 (exp(d) - 1) */
	double margin_pct; /* 100 (|d| + 1.96 sqrt(v)) */
};
int pd_infer_run_offset(const struct pd_infer_side *base, const struct pd_infer_side *target,
			double run_sd, struct pd_infer_offset *out);

/* The family a delta is judged in: m top-level deltas, family-wise error alpha. */
struct pd_infer_family {
	size_t m;     /* at least 1 */
	double alpha; /* e.g. 0.05 */
};

/* What the caller knows of the metric. */
struct pd_infer_rule {
	double threshold_pct; /* practical threshold, % (e.g. 5) */
	int worse;            /* +1: up is worse (CPU, RSS, errors); -1: down is worse */
	int nonneg;           /* the metric cannot be negative */
	int rate;             /* a per-second rate: absolute changes also as counts */
	double step_s;        /* sampling interval, seconds (for counts) */
	int has_abs;          /* abs_threshold is given */
	double abs_threshold; /* absolute rule: in counts for rates, else in the unit */
	size_t min_n;         /* fewer samples on a side: inconclusive (0: 10) */
	/* one baseline: run-to-run variance is not measured; a change past the threshold but
	 * not by margin_pct in quadrature with its half-width is inconclusive (reason
	 * PD_INFER_RUN_MARGIN; "Verdicts" above) */
	double margin_pct;
	double run_sd; /* the relative run-to-run sd margin_pct stands for (baselines_needed) */
	enum pd_infer_margin margin_from; /* where it came from (NONE with a margin: KIND) */
};

/* Judges target against one baseline window. */
void pd_infer_judge(struct pd_infer_result *out, const struct pd_infer_side *base,
		    const struct pd_infer_side *target, const struct pd_infer_rule *rule,
		    const struct pd_infer_family *fam);

void pd_infer_spread_of(struct pd_infer_spread *out, const struct pd_infer_side *base,
			size_t k);

/* The prior of the log-scale between-run variances (limma's fitFDist without covariates). */
struct pd_infer_prior {
	double s0sq; /* prior variance; 0 when not fitted */
	double d0;   /* prior df, capped at 1e4 (infinite); 0 when not fitted */
};
/* Fits the prior over spreads[0..n) (those on the log scale with k >= 2; needs 3). */
void pd_infer_prior_fit(struct pd_infer_prior *out, const struct pd_infer_spread *spreads,
			size_t n);
/* The posterior variance (d0 s0^2 + d s^2) / (d0 + d); s^2 when d0 = 0. */
double pd_infer_moderate(const struct pd_infer_prior *prior, double s2, double d);

/* The verdict of an interval [lo, hi] against +-thr, worse (+1 up, -1 down) the way a
 * regression goes: same inside, regression or improvement wholly past, else
 * inconclusive (the rule every delta is judged by). */
enum pd_infer_verdict pd_infer_decide(double lo, double hi, double thr, int worse);

/* Judges target against the spread of k baselines (pass 2); k = 1 is pd_infer_judge's. */
void pd_infer_judge_reps(struct pd_infer_result *out, const struct pd_infer_spread *spread,
			 const struct pd_infer_prior *prior, const struct pd_infer_side *target,
			 const struct pd_infer_rule *rule, const struct pd_infer_family *fam);

/* Quantiles and tails (exposed for tests): the standard normal quantile, Student t's
 * two-sided tail P(|T| > t) and its quantile q with P(T <= q) = p (df > 0). */
double pd_infer_qnorm(double p);
double pd_infer_t_tail2(double t, double df);
double pd_infer_qt(double p, double df);
/* Digamma, trigamma and trigamma's inverse (x > 0), as limma uses them. */
double pd_infer_digamma(double x);
double pd_infer_trigamma(double x);
double pd_infer_trigamma_inv(double y);

#endif
