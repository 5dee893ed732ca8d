/* What perfdelta knows about a metric from its name: the unit it is measured in, which
 * way is worse, and its twin in another collector. All of it is one table, in
 * core/metric.c. */
#ifndef PD_METRIC_H
#define PD_METRIC_H

#include "buf.h"
#include "model.h"

/* The unit collector/metric is measured in (PD_UNIT_COUNT when no rule names it). */
enum pd_unit pd_metric_unit(const char *collector, const char *metric);

/* +1 when a rise of collector/metric is worse (CPU, memory, connections, latency,
 * errors), -1 when a fall is (throughput, free memory). */
int pd_metric_worse(const char *collector, const char *metric);

/* Appends the twin of name ("collector/metric") in another collector that measures the
 * same thing (metrics_rest_api_processes/memcached_sysproc_cpu_utilization ->
 * atop/memcached_cpu); appends nothing when it has none. */
void pd_metric_twin(struct pd_buf *out, const char *name);

#endif
