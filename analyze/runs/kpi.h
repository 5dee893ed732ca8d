/* The one owner of a run's KPI facts: which showfast post is "the" throughput KPI, what
 * the series served (the throughput), the requests of the node the event removed, and
 * which of perfrunner's three histories of the KPI (perfrunner/helpers/metrics.py
 * _avg_n1ql_throughput, docs/report.md "kpi-scope") reproduces the reported value. Every
 * finding reads these facts (struct pd_kpi_facts on the comparison); none reconstructs them.
 * Pure: no I/O. */
#ifndef PD_KPI_H
#define PD_KPI_H

#include "tree/tree.h"
#include "core/buf.h"
#include "core/model.h"

#include <stddef.h>

/* The form every throughput KPI id shares: "<test stem>_avg_query_requests_<spec stem>"
 * (perfrunner/helpers/reporter.py). */
#define PD_KPI_FORM "_avg_query_requests_"

/* The run's throughput KPI: the first showfast post whose id holds PD_KPI_FORM and whose
 * value is finite; NULL when none (borrowed from run). */
const struct pd_kpi *pd_kpi_throughput(const struct pd_run *run);

/* The throughput the series give: the mean of n1ql_stats/query_requests (cluster-wide,
 * req/s) over tb's phase [t0, end]; ok = 0 when the run has no sample of it there. */
struct pd_estimate pd_kpi_served(const struct pd_run *run, const struct pd_timebase *tb);

/* What the series say about the rules in run: total is served, removed the requests the
 * event's node served before it left, spread over the run. On the Prometheus path, when
 * every n1ql node has its own prometheus/n1ql_requests series (per_node), removed and
 * first are those nodes' own counted requests / the run's length and the share is the
 * removed node's of the requests before the event. Else (perfdb: n1ql_stats is
 * cluster-wide) removed is its share of the n1ql nodes' summed median
 * atop/cbq-engine_cpu from t0 to the event x the mean query rate before the event x
 * event_s / the run's length. share_out (may be NULL) gets that share, NaN when unknown.
 * A run without an event (or without the node's CPU) removes nothing; n_active counts
 * the run's n1ql nodes less the removed one. Returns 0 when served is not ok. */
int pd_kpi_inputs(struct pd_kpi_in *out, double *share_out, const struct pd_run *run,
		  const struct pd_timebase *tb, struct pd_estimate served);

/* How near (in %) a rule's estimate must come to the KPI to reproduce it: what the
 * measurement itself leaves open, the 99 % two-sided half-width of the served rate's mean
 * over tb's phase (its long-run noise, analyze/stats/infer.h) relative to that mean, plus the
 * KPI's rounding (showfast values carry one decimal: 0.05 / kpi). A rule further off does
 * not reproduce it, however near: the seed's 3.8 % is many times its 0.3 %. NaN when
 * the run has fewer than two samples of n1ql_stats/query_requests there. */
double pd_kpi_tolerance(const struct pd_run *run, const struct pd_timebase *tb, double kpi);

/* A rule as a sentence names what it counts: "the first query node only", ... */
const char *pd_kpi_rule_words(enum pd_kpi_rule r);

/* Each rule's estimate and whether it reproduces kpi within tol_pct. */
void pd_kpi_reconcile(struct pd_kpi_rules *out, const struct pd_kpi_in *in, double kpi,
		      double tol_pct);

/* Appends one sentence naming the rules that reproduce the KPI, or saying that none does
 * (with each rule's figure and the nearest's distance). */
void pd_kpi_describe(struct pd_buf *b, const struct pd_kpi_rules *r);

/* The KPI facts of run (its time base tb): the rules judged within pd_kpi_tolerance. */
void pd_kpi_facts_of(struct pd_kpi_facts *out, const struct pd_run *run,
		     const struct pd_timebase *tb);

/* The KPI change from the n baselines' facts to target's: the baselines' KPI and served
 * rate are the mean of those that have one (none with a KPI, or a target without: ok = 0,
 * the served rates are still filled). Not judged: verdict inconclusive, delta -1. */
void pd_kpi_change(struct pd_kpi_change *out, const struct pd_kpi_facts *bases, size_t n,
		   const struct pd_kpi_facts *target);

/* Judges k against the threshold with served's interval (the delta of the cluster's query
 * rate over the whole run, index di of the comparison's deltas): the KPI is perfrunner's
 * mean of the same requests over the run, so its change is as uncertain as the served
 * rate's. served NULL or without a percentage: inconclusive. */
void pd_kpi_judge(struct pd_kpi_change *k, const struct pd_delta *served, long di,
		  double threshold_pct);

#endif
