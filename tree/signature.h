/* A run's signature as data (analyze/signature.h computes it; docs/history.md): its
 * identity, its event and its named features. The types and their plain operations only,
 * so that renderers and the history store read it without the analysis. */
#ifndef PD_TREE_SIGNATURE_H
#define PD_TREE_SIGNATURE_H

#include <stddef.h>
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

/* Frees s and its features; NULL is a no-op. */
void pd_signature_free(struct pd_signature *s);
/* Appends a feature (name copied); a NaN or infinite value is not added. */
void pd_signature_add(struct pd_signature *s, const char *name, double value, double se);
/* Sorts the features by name and keeps the first of equal names. */
void pd_signature_sort(struct pd_signature *s);
/* The feature named name, or NULL (binary search: s sorted). */
const struct pd_sig_feature *pd_signature_find(const struct pd_signature *s, const char *name);

/* The name of a KPI rule ("first-node", "every-node", "active-nodes"), or NULL. */
const char *pd_signature_rule_name(int rule);

#endif
