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
	/* the Prometheus path: the scraped Couchbase series this metric is made of, and how
	 * (cbmonitor2 @ 843875b cbmonitor/src/dashboards/query.ts:25-50, system.ts:17-18,
	 * pkg/plugin/bundled-dashboards/products/couchbase-perf.json:584, :2151) */
	const char *prom;
	enum pd_prom_how prom_how;
	/* how an engineer names it (analyze/tell/words.c): what it measures ("CPU"), the verb
	 * of its sentence ("used": "memcached used 15 % more CPU"; NULL: "<label> was 15 %
	 * higher"), and whether the name before pattern is a process ("memcached_cpu") */
	const char *label;
	const char *verb;
	int proc;
};

static const struct rule rules[] = {
	/* the words of the metrics the findings are about (the first rule with a label
	 * names it; a metric no rule names keeps its own name) */
	{.collector = "atop",
	 .how = SUFFIX,
	 .pattern = "_cpu",
	 .label = "CPU",
	 .verb = "used",
	 .proc = 1},
	{.collector = "atop",
	 .how = SUFFIX,
	 .pattern = "_rss",
	 .label = "memory (RSS)",
	 .verb = "used",
	 .proc = 1},
	{.collector = "atop",
	 .how = SUFFIX,
	 .pattern = "_vsize",
	 .label = "virtual memory",
	 .verb = "used",
	 .proc = 1},
	{.collector = "metrics_rest_api_processes",
	 .how = SUFFIX,
	 .pattern = "_sysproc_cpu_utilization",
	 .label = "CPU",
	 .verb = "used",
	 .proc = 1},
	{.collector = "metrics_rest_api_processes",
	 .how = SUFFIX,
	 .pattern = "_sysproc_mem_resident",
	 .label = "memory (RSS)",
	 .verb = "used",
	 .proc = 1},
	{.collector = "ns_server_system",
	 .how = EXACT,
	 .pattern = "cpu_utilization",
	 .label = "CPU",
	 .verb = "used"},
	{.collector = "ns_server",
	 .how = EXACT,
	 .pattern = "cpu_utilization_rate",
	 .label = "CPU over all cores",
	 .verb = "used"},
	{.collector = "net",
	 .how = EXACT,
	 .pattern = "ESTABLISHED",
	 .label = "established connections",
	 .verb = "held"},
	{.collector = "net",
	 .how = EXACT,
	 .pattern = "TIME_WAIT",
	 .label = "connections in TIME_WAIT",
	 .verb = "held"},
	{.collector = "net", .how = PREFIX, .pattern = "in_bytes", .label = "inbound traffic"},
	{.collector = "net",
	 .how = PREFIX,
	 .pattern = "out_bytes",
	 .label = "outbound traffic"},
	{.collector = "net",
	 .how = PREFIX,
	 .pattern = "in_packets",
	 .label = "inbound packets"},
	{.collector = "net",
	 .how = PREFIX,
	 .pattern = "out_packets",
	 .label = "outbound packets"},
	{.how = EXACT, .pattern = "query_requests", .label = "query throughput"},
	{.how = EXACT, .pattern = "query_selects", .label = "select throughput"},
	{.how = EXACT, .pattern = "query_errors", .label = "failed queries"},
	{.how = EXACT, .pattern = "query_invalid_requests", .label = "invalid queries"},
	{.how = EXACT, .pattern = "query_avg_req_time", .label = "mean query time"},
	{.how = EXACT, .pattern = "query_avg_svc_time", .label = "mean query service time"},
	{.how = EXACT, .pattern = "query_requests_250ms", .label = "queries over 250 ms"},
	{.how = EXACT, .pattern = "query_requests_500ms", .label = "queries over 500 ms"},
	{.how = EXACT, .pattern = "query_requests_1000ms", .label = "queries over 1 s"},
	{.how = EXACT, .pattern = "query_requests_5000ms", .label = "queries over 5 s"},
	{.collector = "ns_server",
	 .how = EXACT,
	 .pattern = "ops",
	 .label = "bucket operations"},
	{.how = EXACT, .pattern = "curr_connections", .label = "bucket connections"},
	{.how = EXACT, .pattern = "index_num_requests", .label = "index requests"},
	{.how = EXACT, .pattern = "index_items_count", .label = "indexed items"},
	{.how = EXACT,
	 .pattern = "index_num_docs_pending",
	 .label = "documents pending indexing"},
	{.how = EXACT, .pattern = "MemFree", .label = "free memory"},
	{.how = EXACT, .pattern = "Cached", .label = "page cache"},
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
	/* ns_server's bucket stats (/pools/default/buckets/B/stats, and @index-B for
	 * secondary_stats) give its counters as per-second rates; cbagent keeps the last
	 * sample (perfrunner cbagent/collectors/ns_server.py:13-22, secondary_stats.py:8-14) */
	{.collector = "ns_server", .how = EXACT, .pattern = "ops", .unit = PD_UNIT_PER_SEC},
	{.collector = "ns_server", .how = PREFIX, .pattern = "cmd_", .unit = PD_UNIT_PER_SEC},
	{.collector = "ns_server", .how = SUFFIX, .pattern = "_hits", .unit = PD_UNIT_PER_SEC},
	{.collector = "ns_server",
	 .how = SUFFIX,
	 .pattern = "_misses",
	 .unit = PD_UNIT_PER_SEC},
	{.collector = "secondary_stats",
	 .how = EXACT,
	 .pattern = "index_num_requests",
	 .unit = PD_UNIT_PER_SEC},
	{.collector = "secondary_stats",
	 .how = EXACT,
	 .pattern = "index_num_rows_returned",
	 .unit = PD_UNIT_PER_SEC},
	{.collector = "secondary_stats",
	 .how = EXACT,
	 .pattern = "index_num_docs_indexed",
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
	/* the Prometheus path. Query counters are cumulative per query node: each node's
	 * rate is kept (collector "prometheus", the Prometheus name) and their sum is the
	 * cluster's n1ql_stats rate; per-node CPU is the REST-read ns_server_system's (its
	 * series stop when the node leaves, as there); CPU seconds become % of one core */
	{.collector = "prometheus", .how = PREFIX, .pattern = "n1ql_", .unit = PD_UNIT_PER_SEC},
	{.collector = "prometheus",
	 .how = EXACT,
	 .pattern = "n1ql_requests",
	 .worse = -1,
	 .prom = "n1ql_requests",
	 .prom_how = PD_PROM_NODE_RATE},
	{.collector = "prometheus",
	 .how = EXACT,
	 .pattern = "n1ql_errors",
	 .prom = "n1ql_errors",
	 .prom_how = PD_PROM_NODE_RATE},
	{.collector = "n1ql_stats",
	 .how = EXACT,
	 .pattern = "query_requests",
	 .prom = "n1ql_requests",
	 .prom_how = PD_PROM_TOTAL_RATE},
	{.collector = "n1ql_stats",
	 .how = EXACT,
	 .pattern = "query_errors",
	 .prom = "n1ql_errors",
	 .prom_how = PD_PROM_TOTAL_RATE},
	{.collector = "n1ql_stats",
	 .how = EXACT,
	 .pattern = "query_selects",
	 .prom = "n1ql_selects",
	 .prom_how = PD_PROM_TOTAL_RATE},
	{.collector = "n1ql_stats",
	 .how = EXACT,
	 .pattern = "query_invalid_requests",
	 .prom = "n1ql_invalid_requests",
	 .prom_how = PD_PROM_TOTAL_RATE},
	{.collector = "n1ql_stats",
	 .how = EXACT,
	 .pattern = "query_requests_250ms",
	 .prom = "n1ql_requests_250ms",
	 .prom_how = PD_PROM_TOTAL_RATE},
	{.collector = "n1ql_stats",
	 .how = EXACT,
	 .pattern = "query_requests_500ms",
	 .prom = "n1ql_requests_500ms",
	 .prom_how = PD_PROM_TOTAL_RATE},
	{.collector = "n1ql_stats",
	 .how = EXACT,
	 .pattern = "query_requests_1000ms",
	 .prom = "n1ql_requests_1000ms",
	 .prom_how = PD_PROM_TOTAL_RATE},
	{.collector = "n1ql_stats",
	 .how = EXACT,
	 .pattern = "query_requests_5000ms",
	 .prom = "n1ql_requests_5000ms",
	 .prom_how = PD_PROM_TOTAL_RATE},
	{.collector = "ns_server_system",
	 .how = EXACT,
	 .pattern = "cpu_utilization",
	 .prom = "sys_cpu_utilization_rate",
	 .prom_how = PD_PROM_NODE},
	{.collector = "metrics_rest_api_processes",
	 .how = SUFFIX,
	 .pattern = "_sysproc_cpu_utilization",
	 .prom = "sysproc_cpu_seconds_total",
	 .prom_how = PD_PROM_PROC_CPU},
	{.collector = "metrics_rest_api_processes",
	 .how = SUFFIX,
	 .pattern = "_sysproc_mem_resident",
	 .prom = "sysproc_mem_resident",
	 .prom_how = PD_PROM_PROC},
	/* 1 on each node whose cluster manager is rebalancing: the sum is > 0 while one is */
	{.collector = "active_tasks",
	 .how = EXACT,
	 .pattern = "rebalance_in_progress",
	 .unit = PD_UNIT_COUNT,
	 .prom = "cm_rebalance_in_progress",
	 .prom_how = PD_PROM_TOTAL},
};

/* The processes perfrunner's atop/PS collector samples by default (perfrunner/settings.py
 * StatsSettings.SERVER_PROCESSES, :1101-1107) and the ones cbmonitor2 shows: their names
 * hold characters a pushed name loses. */
static const char *const processes[] = {
	"beam.smp",  "ns_server",    "cbft",      "cbq-engine", "indexer",
	"memcached", "sync_gateway", "projector", "goxdcr",     "eventing-produc",
	"java",      "cbas",         "prometheus"};

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

/* cbagent's collectors whose samples are single requests' latencies */
static const char *const per_request[] = {"spring_latency", "spring_query_latency"};

int pd_metric_per_request(const char *collector)
{
	for (size_t i = 0; collector && i < sizeof(per_request) / sizeof(*per_request); i++)
		if (!strcmp(collector, per_request[i]))
			return 1;
	return 0;
}

const char *pd_metric_per_request_db(const char *db)
{
	for (size_t i = 0; db && i < sizeof(per_request) / sizeof(*per_request); i++)
		if (!strncmp(db, per_request[i], strlen(per_request[i])))
			return per_request[i];
	return NULL;
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

void pd_metric_words(struct pd_metric_words *out, const char *name)
{
	const char *slash = strchr(name, '/');
	const char *metric = slash ? slash + 1 : name;
	struct pd_buf collector = PD_BUF_INIT;
	pd_buf_add(&collector, name, slash ? (size_t)(slash - name) : 0);
	*out = (struct pd_metric_words){.proc = PD_BUF_INIT, .label = metric};
	for (size_t i = 0; i < sizeof(rules) / sizeof(*rules); i++) {
		const struct rule *r = &rules[i];
		if (!r->label || !matches(r, collector.ptr, metric))
			continue;
		out->label = r->label, out->verb = r->verb;
		if (r->proc && r->how == SUFFIX)
			pd_buf_add(&out->proc, metric, strlen(metric) - strlen(r->pattern));
		break;
	}
	pd_buf_release(&collector);
}

const char *pd_metric_role_label(unsigned service)
{
	static const struct {
		unsigned svc;
		const char *label;
	} roles[] = {{PD_SVC_KV, "kv"},
		     {PD_SVC_N1QL, "query"},
		     {PD_SVC_INDEX, "index"},
		     {PD_SVC_FTS, "search"},
		     {PD_SVC_EVENTING, "eventing"},
		     {PD_SVC_CBAS, "analytics"},
		     {PD_SVC_BACKUP, "backup"}};
	for (size_t i = 0; i < sizeof(roles) / sizeof(*roles); i++)
		if (roles[i].svc == service)
			return roles[i].label;
	return "other";
}

size_t pd_metric_of_prom(struct pd_prom_target out[2], const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < sizeof(rules) / sizeof(*rules) && n < 2; i++)
		if (rules[i].prom && !strcmp(rules[i].prom, name))
			out[n++] = (struct pd_prom_target){rules[i].collector, rules[i].pattern,
							   rules[i].prom_how};
	return n;
}

/* name as promstore.py's _sanitise_metric_name writes it, without the "perf_" prefix */
static void sanitise(struct pd_buf *out, const char *name)
{
	for (const char *p = name; *p; p++)
		pd_buf_addch(out, (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
						  (*p >= '0' && *p <= '9') || *p == '_' ||
						  *p == ':'
					  ? *p
					  : '_');
}

void pd_metric_unpush(struct pd_buf *out, const char *name, const char *collector)
{
	struct pd_buf proc = PD_BUF_INIT;
	if (strncmp(name, "perf_", 5))
		return;
	name += 5;
	for (size_t i = 0; collector && !strcmp(collector, "atop") &&
			   i < sizeof(processes) / sizeof(*processes);
	     i++) {
		pd_buf_truncate(&proc, 0);
		sanitise(&proc, processes[i]);
		pd_buf_addch(&proc, '_');
		if (!strncmp(name, proc.ptr, proc.len)) {
			pd_buf_addf(out, "%s_%s", processes[i], name + proc.len);
			pd_buf_release(&proc);
			return;
		}
	}
	pd_buf_release(&proc);
	pd_buf_adds(out, name);
}
