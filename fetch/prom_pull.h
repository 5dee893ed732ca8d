/* perfdelta pull on perfrunner's Prometheus path (docs/reference.md, "Prometheus bundles"):
 * the snapshot's window (cbmonitor2's snapshot API, else the Jenkins build's span), every
 * series name of its job, and each name's query_range answers into prometheus/. */
#ifndef PD_PROM_PULL_H
#define PD_PROM_PULL_H

#include "plan.h"
#include "transfer.h"
#include "../core/model.h"
#include "../core/outdir.h"

/* What fetch/plan.c lends the Prometheus part of a pull. */
struct pd_prom_pull {
	struct pd_transfer *t;
	struct pd_outdir *out;
	const struct pd_run *run; /* the build, the console's snapshot, the test config */
	const struct pd_plan_opts *o;
	const struct pd_limits *lim;
	struct pd_err *err;
};

/* Queues and runs the queries; every answer is checked as parse/prom.c reads it, and an
 * error answer ("status": "error", an HTML page) fails the pull naming the query.
 * PD_ENOTFOUND when no snapshot id is known or its job has no series in the window. */
int pd_prom_pull_run(struct pd_prom_pull *pp);

#endif
