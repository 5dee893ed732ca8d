/* The one owner of a run's KPI facts: which showfast post is "the" throughput KPI, what
 * the series served (the throughput), the requests of the node the event removed, and
 * which of perfrunner's three histories of the KPI (perfrunner/helpers/metrics.py
 * _avg_n1ql_throughput, DESIGN 3.5) reproduces the reported value. Every finding reads
 * these facts (struct pd_kpi_facts on the comparison); none reconstructs them. Pure: no
 * I/O. */
#ifndef PD_KPI_H
#define PD_KPI_H

#include "timebase.h"
#include "../core/buf.h"
#include "../core/model.h"

#include <stddef.h>

enum pd_kpi_rule {
	PD_KPI_FIRST_NODE,   /* 2017-01-26: the spec's first n1ql node only */
	PD_KPI_EVERY_NODE,   /* 2022-07-25: every n1ql node of the spec, removed ones too */
	PD_KPI_ACTIVE_NODES, /* 2022-08-08: the nodes still active (get_active_nodes_by_role) */
	PD_KPI_N_RULES
};

/* What the series tell, as rates over the run (requests / [access] time, req/s). */
struct pd_kpi_in {
	double total;         /* every query node: the cluster-wide rate of n1ql_stats */
	double removed;       /* of which the removed node served (0 when none was removed) */
	int removed_is_first; /* the removed node is the spec's first n1ql node */
	size_t n_active;      /* n1ql nodes still in the cluster at the end */
};

struct pd_kpi_rules {
	double est[PD_KPI_N_RULES]; /* what each rule gives, NAN when the series cannot tell */
	double off_pct[PD_KPI_N_RULES]; /* (kpi - est) / est in %, NAN with est */
	unsigned match;                 /* bits (1 << rule) of the rules within tol_pct */
	int nearest;                    /* the rule with the smallest |off_pct|, -1 when none */
};

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
 * event's node served before it left, spread over the run: its share of the n1ql nodes'
 * summed median atop/cbq-engine_cpu from t0 to the event (n1ql_stats is cluster-wide:
 * there is no per-node request count) x the mean query rate before the event x event_s /
 * the run's length. share_out (may be NULL) gets that share, NaN when unknown. A run
 * without an event (or without the node's CPU) removes nothing; n_active counts the
 * run's n1ql nodes less the removed one. Returns 0 when served is not ok. */
int pd_kpi_inputs(struct pd_kpi_in *out, double *share_out, const struct pd_run *run,
		  const struct pd_timebase *tb, struct pd_estimate served);

/* Each rule's estimate and whether it reproduces kpi within tol_pct. */
void pd_kpi_reconcile(struct pd_kpi_rules *out, const struct pd_kpi_in *in, double kpi,
		      double tol_pct);

/* Appends one sentence naming the rules that reproduce the KPI, or saying that none does
 * (with each rule's figure and the nearest's distance). */
void pd_kpi_describe(struct pd_buf *b, const struct pd_kpi_rules *r);

/* The KPI facts of one run, made once per comparison (pd_kpi_facts_of). */
struct pd_kpi_facts {
	const struct pd_kpi *kpi;  /* pd_kpi_throughput, NULL when none (borrowed) */
	struct pd_estimate served; /* pd_kpi_served */
	int has_in;                /* served.ok: in is reconstructed */
	struct pd_kpi_in in;
	double removed_share;      /* the removed node's share of the query load before the
				      event (0..1), NaN when the run removes none or it is unknown */
	int has_rules;             /* kpi and has_in: rules is filled */
	struct pd_kpi_rules rules; /* against kpi->value within tol_pct */
};

/* The KPI facts of run (its time base tb): the rules judged within tol_pct (the
 * comparison's threshold). */
void pd_kpi_facts_of(struct pd_kpi_facts *out, const struct pd_run *run,
		     const struct pd_timebase *tb, double tol_pct);

/* The throughput KPI from one run to the other, beside what each run's series served. */
struct pd_kpi_change {
	int ok;                          /* both runs have a throughput KPI */
	const char *base_id, *target_id; /* their metric ids (borrowed), NULL when absent */
	int same_id;                     /* the ids are equal (else they only share the form) */
	double base_kpi, target_kpi;     /* 3916.0 -> 3525.0 */
	double kpi_pct;                  /* 100 (target - base) / base; NaN when base is 0 */
	struct pd_estimate base_served;  /* pd_kpi_served of each run */
	struct pd_estimate target_served;
	double served_pct; /* their change, %; NaN unless both ok and base > 0 */
};

/* The KPI change from base's facts to target's (either may lack a KPI: ok = 0, the
 * served rates are still filled). */
void pd_kpi_change(struct pd_kpi_change *out, const struct pd_kpi_facts *base,
		   const struct pd_kpi_facts *target);

#endif
