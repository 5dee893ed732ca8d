#include "metric.h"

#include <string.h>

enum match { EXACT, PREFIX, SUFFIX, CONTAINS };

/* A rule on a metric's name: for the metrics it matches (of collector, or of any when
 * NULL), what it says; a field left 0 says nothing, and the first rule that says
 * something about a field decides it. */
struct rule {
	const char *collector;
	enum match how;
	const char *pattern;
	enum pd_unit unit; /* 0 (PD_UNIT_NONE): no say */
	int worse;         /* +1 up is worse, -1 down is worse, 0 no say (then +1) */
	/* the same process measured by atop: atop/<metric without pattern><twin> */
	const char *twin;
};

static const struct rule rules[] = {
	{.how = CONTAINS, .pattern = "cpu", .unit = PD_UNIT_PERCENT},
	{.how = SUFFIX, .pattern = "_rss", .unit = PD_UNIT_BYTES},
	{.how = SUFFIX, .pattern = "_vsize", .unit = PD_UNIT_BYTES},
	{.how = SUFFIX, .pattern = "_mem_resident", .unit = PD_UNIT_BYTES},
	{.how = SUFFIX, .pattern = "_size", .unit = PD_UNIT_BYTES},
	{.how = SUFFIX, .pattern = "bytes_per_sec", .unit = PD_UNIT_BYTES_PER_SEC},
	{.how = SUFFIX, .pattern = "_per_sec", .unit = PD_UNIT_PER_SEC},
	{.how = SUFFIX, .pattern = "_time", .unit = PD_UNIT_MS},
	{.how = CONTAINS, .pattern = "latency", .unit = PD_UNIT_MS},
	{.how = EXACT, .pattern = "rebalance_progress", .unit = PD_UNIT_PERCENT},
	/* perfdb stores n1ql counters as rates */
	{.collector = "n1ql_stats",
	 .how = PREFIX,
	 .pattern = "query_",
	 .unit = PD_UNIT_PER_SEC},
	/* throughput and free memory: a fall is worse */
	{.how = EXACT, .pattern = "query_requests", .worse = -1},
	{.how = EXACT, .pattern = "query_selects", .worse = -1},
	{.how = EXACT, .pattern = "ops", .worse = -1},
	{.how = EXACT, .pattern = "index_num_requests", .worse = -1},
	{.how = EXACT, .pattern = "MemFree", .worse = -1},
	{.how = EXACT, .pattern = "Cached", .worse = -1},
	/* atop and metrics_rest_api_processes measure the same process twice */
	{.collector = "metrics_rest_api_processes",
	 .how = SUFFIX,
	 .pattern = "_sysproc_cpu_utilization",
	 .twin = "_cpu"},
	{.collector = "metrics_rest_api_processes",
	 .how = SUFFIX,
	 .pattern = "_sysproc_mem_resident",
	 .twin = "_rss"},
};

static int matches(const struct rule *r, const char *collector, const char *metric)
{
	if (r->collector && strcmp(r->collector, collector))
		return 0;
	switch (r->how) {
	case EXACT:
		return !strcmp(metric, r->pattern);
	case PREFIX:
		return !strncmp(metric, r->pattern, strlen(r->pattern));
	case SUFFIX:
		return pd_str_ends_with(metric, r->pattern);
	default:
		return strstr(metric, r->pattern) != NULL;
	}
}

enum pd_unit pd_metric_unit(const char *collector, const char *metric)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(*rules); i++)
		if (rules[i].unit && matches(&rules[i], collector, metric))
			return rules[i].unit;
	return PD_UNIT_COUNT;
}

int pd_metric_worse(const char *collector, const char *metric)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(*rules); i++)
		if (rules[i].worse && matches(&rules[i], collector, metric))
			return rules[i].worse;
	return 1;
}

void pd_metric_twin(struct pd_buf *out, const char *name)
{
	const char *slash = strchr(name, '/');
	if (!slash)
		return;
	struct pd_buf collector = PD_BUF_INIT;
	const char *metric = slash + 1;
	pd_buf_add(&collector, name, (size_t)(slash - name));
	for (size_t i = 0; i < sizeof(rules) / sizeof(*rules); i++) {
		const struct rule *r = &rules[i];
		if (!r->twin || !matches(r, collector.ptr, metric))
			continue;
		pd_buf_addf(out, "atop/%.*s%s", (int)(strlen(metric) - strlen(r->pattern)),
			    metric, r->twin);
		break;
	}
	pd_buf_release(&collector);
}
