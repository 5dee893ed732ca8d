/* A run's signature (issue 24): what one bundle says about itself, with no baseline, as
 * the numbers a history of runs is tracked by. Read from the comparison tree of the run
 * against itself (pd_compare(run, run)), so every figure is the one compare computes: the
 * same time base, views, phases, inference (analyze/infer.h) and event story (story.h,
 * kpi.h). Pure: no I/O.
 *
 * Features are named "<metric>|<scope>|<phase>" for a window's mean (value the mean, se
 * its AR(1) standard error, infer.h), and "event/<name>" or "event/<name>|<metric>|<scope>"
 * for the event's own features (se NaN):
 *   event/failed_requests        n1ql_stats/query_errors integrated over the transient
 *   event/throughput_dip_pct     lowest query rate in the 120 s after the event against
 *                                the pre-event mean, % (negative: a dip)
 *   event/recovery_s             from the event until three samples in a row are back
 *                                within the threshold of the pre-event mean; the rest of
 *                                the run when they never are
 *   event/connections_left       net/ESTABLISHED of the removed node, post-phase mean
 *   event/pre_post_pct|M|S       the post-phase mean of M at role or total scope S against
 *                                its pre-phase mean, %
 *   kpi/throughput               the throughput KPI perfrunner reported */
#ifndef PD_SIGNATURE_H
#define PD_SIGNATURE_H

#include "compare.h"

#include <stdint.h>

struct pd_sig_feature {
	char *name;
	double value; /* finite */
	double se;    /* standard error of value; NaN when value is not a mean */
};

/* Invariant: features are sorted by name, names are unique, every value is finite. */
struct pd_signature {
	char *key;              /* the run's identity in a history: "job#number", else
				   "test|build|snapshot" */
	char *job;              /* Jenkins job, or NULL */
	long number;            /* Jenkins build number, 0 when none */
	char *version;          /* server version and build "7.1.0-1345", or NULL */
	char *test_config;      /* the test config's stem, or NULL */
	char *spec;             /* the spec's stem, or NULL */
	char *cluster;          /* spec [clusters] name, or NULL */
	int64_t time_ms;        /* build start (Jenkins timestamp), epoch ms, or 0 */
	char *snapshot;         /* the first snapshot, or NULL */
	const char *event_kind; /* pd_timebase_event_name: "none", "hard-failover", ... */
	char *event_node;       /* the removed node, or NULL */
	double event_s;         /* seconds from the phase's start; NaN without an event */
	char *kpi_metric;       /* the throughput KPI's showfast id, or NULL */
	int kpi_rule;           /* enum pd_kpi_rule nearest the KPI, -1 when none */
	unsigned kpi_match;     /* bits (1 << rule) of the rules within the threshold */
	struct pd_sig_feature *f;
	size_t n, cap;
};

/* The signature of run into *out (caller frees with pd_signature_free); opts as compare's
 * (NULL: PD_COMPARE_OPTS_INIT). Errors as pd_compare. */
int pd_signature_of(struct pd_signature **out, const struct pd_run *run,
		    const struct pd_compare_opts *opts, struct pd_err *err);
void pd_signature_free(struct pd_signature *s); /* NULL is a no-op */

/* Appends a feature (name copied); a NaN or infinite value is not added. */
void pd_signature_add(struct pd_signature *s, const char *name, double value, double se);
/* Sorts the features by name and keeps the first of equal names. */
void pd_signature_sort(struct pd_signature *s);
/* The feature named name, or NULL (binary search: s sorted). */
const struct pd_sig_feature *pd_signature_find(const struct pd_signature *s, const char *name);

/* The name of a KPI rule ("first-node", "every-node", "active-nodes"), or NULL. */
const char *pd_signature_rule_name(int rule);

#endif
