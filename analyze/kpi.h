/* The throughput KPI's three histories (perfrunner/helpers/metrics.py _avg_n1ql_throughput,
 * DESIGN 3.5): which query nodes' requests.count perfrunner summed, reconstructed from the
 * series, and which of those rules reproduces a reported KPI. Pure: no I/O. */
#ifndef PD_KPI_H
#define PD_KPI_H

#include "../tree/tree.h"
#include "../core/buf.h"

#include <stddef.h>

/* What the series tell, as rates over the run (requests / [access] time, req/s). */
struct pd_kpi_in {
	double total;         /* every query node: the cluster-wide rate of n1ql_stats */
	double removed;       /* of which the removed node served (0 when none was removed) */
	int removed_is_first; /* the removed node is the spec's first n1ql node */
	size_t n_active;      /* n1ql nodes still in the cluster at the end */
};

/* Each rule's estimate and whether it reproduces kpi within tol_pct. */
void pd_kpi_reconcile(struct pd_kpi_rules *out, const struct pd_kpi_in *in, double kpi,
		      double tol_pct);

/* Appends one sentence naming the rules that reproduce the KPI, or saying that none does
 * (with each rule's figure and the nearest's distance). */
void pd_kpi_describe(struct pd_buf *b, const struct pd_kpi_rules *r);

#endif
