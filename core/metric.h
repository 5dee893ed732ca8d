/* What perfdelta knows about a metric from its name: the unit it is measured in, which
 * way is worse, and its twin in another collector. All of it is one table, in
 * core/metric.c. */
#ifndef PD_METRIC_H
#define PD_METRIC_H

#include "buf.h"
#include "model.h"

/* The unit collector/metric is measured in (PD_UNIT_COUNT when no rule names it). */
enum pd_unit pd_metric_unit(const char *collector, const char *metric);

/* Whether collector samples each request (cbagent's spring_latency and
 * spring_query_latency push one sample a request, stamped by the client,
 * cbagent/collectors/latency.py:103-119): a repeated timestamp is another request, and
 * the samples are a distribution (analyze/align/latency.c's percentiles), not a time series. */
int pd_metric_per_request(const char *collector);
/* The per-request collector a perfdb database belongs to (cbagent names it collector +
 * snapshot + ...), or NULL. */
const char *pd_metric_per_request_db(const char *db);

/* +1 when a rise of collector/metric is worse (CPU, memory, connections, latency,
 * errors), -1 when a fall is (throughput, free memory). */
int pd_metric_worse(const char *collector, const char *metric);

/* Appends the twin of name ("collector/metric") in another collector that measures the
 * same thing (metrics_rest_api_processes/memcached_sysproc_cpu_utilization ->
 * atop/memcached_cpu); appends nothing when it has none. */
void pd_metric_twin(struct pd_buf *out, const char *name);

/* How an engineer names a metric ("collector/metric"), from the table's label column: the
 * process it is about (proc, "memcached"; empty for a node's or the cluster's metric),
 * what it measures (label, "CPU"; the metric's own name when no rule names it, borrowed
 * from name) and the verb of a sentence about it ("used", "held"; NULL: "<label> was
 * higher"). The caller releases proc. */
struct pd_metric_words {
	struct pd_buf proc;
	const char *label;
	const char *verb;
};
void pd_metric_words(struct pd_metric_words *out, const char *name);

/* A role as an engineer names it: "kv", "query" (n1ql), "index", "search" (fts),
 * "eventing", "analytics" (cbas), "backup"; "other" for anything else. */
const char *pd_metric_role_label(unsigned service);

/* perfrunner's Prometheus path (docs/reference.md "Prometheus bundles"): how a Prometheus
 * series becomes the metric perfdelta knows (the rows with .prom in core/metric.c's table). */
enum pd_prom_how {
	PD_PROM_NONE,
	PD_PROM_NODE,       /* a gauge per instance: server scope */
	PD_PROM_NODE_RATE,  /* a counter per instance: its rate, server scope */
	PD_PROM_TOTAL,      /* a gauge per instance, summed over instances: cluster scope */
	PD_PROM_TOTAL_RATE, /* a counter per instance, its rates summed: cluster scope */
	PD_PROM_PROC,       /* a gauge per instance and proc: "<proc><suffix>", server */
	PD_PROM_PROC_CPU    /* CPU seconds per (proc, mode): rate x 100 summed over modes */
};

/* Where the Prometheus series name goes: up to two targets (a per-node series and the
 * cluster's total), each a collector, a metric (for PD_PROM_PROC*, the suffix after the
 * proc label) and how it is made; returns how many (0: not a series of the table). */
struct pd_prom_target {
	const char *collector, *metric;
	enum pd_prom_how how;
};
size_t pd_metric_of_prom(struct pd_prom_target out[2], const char *name);

/* A metric pushed as "perf_" + its name with every character outside [a-zA-Z0-9_:] made
 * '_' (cbagent/promstore.py:54-66): appends the name perfrunner's collector gave it,
 * restoring the process names atop samples ("perf_cbq_engine_rss" -> "cbq-engine_rss");
 * appends nothing when name has no "perf_" prefix. */
void pd_metric_unpush(struct pd_buf *out, const char *name, const char *collector);

#endif
