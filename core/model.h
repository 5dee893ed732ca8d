/* The in-memory model of one run bundle: what every reader fills and every stage reads.
 * A struct pd_run owns everything reachable from it; pd_run_free releases it all. */
#ifndef PD_MODEL_H
#define PD_MODEL_H

#include "strmap.h"

#include <stddef.h>
#include <stdint.h>

/* A list of owned strings. */
struct pd_strv {
	char **v;
	size_t n, cap;
};
void pd_strv_add(struct pd_strv *sv, const char *s);
void pd_strv_addn(struct pd_strv *sv, const char *s, size_t len);
void pd_strv_addf(struct pd_strv *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Index of s in sv, or -1. */
long pd_strv_find(const struct pd_strv *sv, const char *s);
void pd_strv_free(struct pd_strv *sv);
/* Sorts sv by strcmp; pd_strv_sort_unique also frees repeated strings, keeping one. */
void pd_strv_sort(struct pd_strv *sv);
void pd_strv_sort_unique(struct pd_strv *sv);

enum pd_service {
	PD_SVC_KV = 1 << 0,
	PD_SVC_N1QL = 1 << 1,
	PD_SVC_INDEX = 1 << 2,
	PD_SVC_FTS = 1 << 3,
	PD_SVC_EVENTING = 1 << 4,
	PD_SVC_CBAS = 1 << 5,
	PD_SVC_BACKUP = 1 << 6
};
#define PD_SVC_COUNT 7
/* "kv", "n1ql", "index", "fts", "eventing", "cbas", "backup" for one bit; NULL otherwise. */
const char *pd_service_name(unsigned bit);
/* The bit of a service name as perfrunner specs spell it; 0 when unknown. */
unsigned pd_service_parse(const char *name, size_t len);

/* Invariant: role is "<first service>#<rank among nodes with that first service>". */
struct pd_node {
	char *host;        /* as the spec gives it, port stripped: "172.23.100.40" */
	unsigned services; /* PD_SVC_* bits */
	unsigned first;    /* the service listed first for this host in the spec */
	char role[32];     /* "kv#1", "n1ql#2" */
};

/* PD_SCOPE_INDEX: "bucket.index" (secondary_storage_stats, secondary_debugstats_index);
 * PD_SCOPE_CLIENT: a [clients] host sampled by the ssh-based collectors (atop, iostat):
 * kept in the run and shown, never part of the cluster's views. */
enum pd_scope {
	PD_SCOPE_CLUSTER,
	PD_SCOPE_BUCKET,
	PD_SCOPE_SERVER,
	PD_SCOPE_BUCKET_SERVER,
	PD_SCOPE_INDEX,
	PD_SCOPE_CLIENT
};
/* "cluster", "bucket", "server", "bucket+server", "index", "client" */
const char *pd_scope_name(enum pd_scope s);

enum pd_unit {
	PD_UNIT_NONE,
	PD_UNIT_PERCENT,
	PD_UNIT_BYTES,
	PD_UNIT_COUNT,
	PD_UNIT_PER_SEC,
	PD_UNIT_BYTES_PER_SEC,
	PD_UNIT_MS
};
const char *pd_unit_name(enum pd_unit u); /* "", "%", "B", "count", "/s", "B/s", "ms" */
struct pd_buf;
/* Appends v with its unit for a reader: "2.04 GiB", "288.0%", "3876 /s", "71". */
void pd_unit_add(struct pd_buf *out, double v, enum pd_unit u);
/* The unit of a metric from its name: pd_metric_unit (core/metric.h). */

/* Invariant after pd_series_normalize: t_ms strictly increasing. */
struct pd_series {
	char *db;        /* perfdb database name as found on disk */
	char *collector; /* "atop" */
	char *metric;    /* "memcached_cpu" */
	char *bucket;    /* NULL unless the scope has a bucket */
	char *server;    /* the node's host ("172.23.100.40"), NULL unless server scope */
	char *index;     /* index scope: the index name ("by_capped_small"), else NULL */
	enum pd_scope scope;
	enum pd_unit unit;
	int64_t *t_ms; /* epoch milliseconds */
	double *v;
	size_t n, cap;
	size_t n_dup;      /* samples dropped for a repeated timestamp (the last one wins) */
	size_t n_unsorted; /* samples that arrived before an earlier timestamp */
	/* a per-request collector's samples (pd_metric_per_request: a repeated timestamp is
	   another request) when some were dropped above: every one, sorted by time; NULL
	   otherwise (t_ms and v hold them all). Read through pd_model_requests. */
	int64_t *req_t_ms;
	double *req_v;
	size_t n_req;
};

/* An epoch timestamp in ns, us, ms or s, told apart by size as perfdb's time.go does
 * (> 1e18 ns, > 1e15 us, > 1e12 ms, > 1e9 s), converted to ms; 0 when it is none. */
int pd_epoch_to_ms(int64_t ts, int64_t *ms);

/* Room for need samples in all (a reader that can tell how many it will add). */
void pd_model_series_reserve(struct pd_series *s, size_t need);
/* Appends one sample (unsorted input is fine until pd_series_normalize). */
void pd_series_add(struct pd_series *s, int64_t t_ms, double v);
/* Sorts by time (stable), drops repeated timestamps keeping the last, counts both; a
 * per-request collector's series keeps every sample apart first (req_*). Once a series. */
void pd_series_normalize(struct pd_series *s);
/* Every sample of s, repeated timestamps kept (a per-request collector's requests):
 * points *t and *v at them, returns how many. Borrowed. */
size_t pd_model_requests(const struct pd_series *s, const int64_t **t, const double **v);
void pd_series_free(struct pd_series *s);

enum pd_event_kind {
	PD_EV_FAILOVER_HARD,
	PD_EV_FAILOVER_GRACEFUL,
	PD_EV_REBALANCE_START,
	PD_EV_REBALANCE_PROGRESS,
	PD_EV_REBALANCE_END, /* "Rebalance task stopped running" or "Cluster is balanced" */
	PD_EV_SNAPSHOT,      /* an "HTML report:" or "Registered Prometheus snapshot:" line */
	PD_EV_COLLECTORS_START, /* "Starting N custom collector(s)" (the Prometheus path) */
	PD_EV_COLLECTORS_STOP,  /* "Stopping N custom collector(s)" */
	PD_EV_RUN_STOPPED /* perfrunner stopped the run (logger.interrupt): node holds why */
};
const char *pd_event_kind_name(enum pd_event_kind k);

/* An event read from the console: its time is local wall-clock without zone. */
struct pd_event {
	enum pd_event_kind kind;
	int64_t local_s;        /* console timestamp read as if it were UTC */
	long line;              /* line in consoleText */
	char *node;             /* failover: the node; snapshot: the snapshot name */
	double value;           /* rebalance progress in % */
	struct pd_strv known;   /* rebalance start: knownNodes */
	struct pd_strv ejected; /* rebalance start: ejectedNodes */
};

/* A showfast benchmark post ("Adding a benchmark:" or "Dry run:"). */
struct pd_kpi {
	char *metric; /* showfast metric id */
	double value; /* a post whose value is NaN is no KPI: the run's notes say so */
	char *build;
	int dry_run;
	int has_value;   /* 0: json.dumps wrote NaN (or null): the KPI has no value */
	int64_t local_s; /* console time of the line */
	long line;
	struct pd_strv snapshots;
	char *window;        /* the latency window ("pre", "during", "post") or NULL */
	long window_samples; /* samples perfrunner fetched for that window; 0 unknown */
};

/* A latency reporting window of perfrunner's TimeseriesWindow (helpers/metrics.py:142-150)
 * as "Latency windows: [...]" logs it (tests/rebalance.py:209): epoch ms on the client's
 * clock; start -1 is "from the first sample", end inf "to the last" (INT64_MIN/MAX). */
struct pd_kpi_window {
	char *label;
	int64_t start_ms, end_ms;
	long samples; /* the last "Fetched data for timeseries window" count; 0 none */
	long line;
};

struct pd_param {
	char *name, *value;
};

/* A Jenkins build (api/json or api/xml). present is 0 when the bundle had none. */
struct pd_jenkins {
	int present;
	char *path;
	char *klass; /* "_class", NULL on older Jenkins */
	char *job;   /* from url or fullDisplayName */
	long number;
	char *id;
	char *result; /* NULL while building or when null */
	int building;
	int64_t timestamp_ms; /* build start, epoch ms */
	int64_t duration_ms;
	char *url;
	char *display_name;
	char *full_display_name;
	struct pd_param *params;
	size_t n_params, cap_params;
};
/* The value of a build parameter, or NULL. */
const char *pd_jenkins_param(const struct pd_jenkins *j, const char *name);

/* A parsed INI file, entries in file order; keys and sections as written. */
struct pd_ini_entry {
	char *section, *key, *value; /* multi-line values joined by '\n', interpolated */
	long line;
	/* the source line of each '\n'-separated line of value as read; none (0) once an
	   interpolated reference brought a line break into it (pd_ini_line_at) */
	long *lines;
	size_t n_lines, cap_lines;
	char *bad_interp; /* why configparser's interpolation fails on it, or NULL */
};
struct pd_ini {
	char *path;
	struct pd_ini_entry *e;
	size_t n, cap;
	struct pd_strmap index; /* "section\0key" to its entry's index in e */
};
/* The entry of section.key [key, key + key_len) (else of DEFAULT.key), or NULL. */
const struct pd_ini_entry *pd_ini_lookup(const struct pd_ini *ini, const char *section,
					 const char *key, size_t key_len);
/* The source line of e->value's byte off (a host in a multi-line value): its line's,
 * else e->line. */
long pd_ini_line_at(const struct pd_ini_entry *e, size_t off);
/* The value of section.key (else of DEFAULT.key), or NULL. */
const char *pd_ini_get(const struct pd_ini *ini, const char *section, const char *key);
void pd_ini_free(struct pd_ini *ini);

/* The fields of a perfrunner .test that the analysis uses (0 or NULL when absent). */
struct pd_testcfg {
	char *test;           /* [test_case] test */
	char *title;          /* [showfast] title */
	int initial_nodes;    /* [cluster] initial_nodes */
	long access_time_s;   /* [access] time */
	char *shutdown_type;  /* [access] n1ql_shutdown_type */
	int stats_interval_s; /* [stats] interval (perfrunner's default 5 when absent) */
	int post_to_sf;       /* [stats] post_to_sf (default 0: dry runs) */
	int num_buckets;      /* [cluster] num_buckets (default 1: bucket-1) */
};

struct pd_run {
	char *dir;             /* the bundle directory */
	char *cluster;         /* spec [clusters] name */
	char *spec_name;       /* the spec's file stem ("iris_extra_n1ql"), or NULL */
	struct pd_node *nodes; /* spec order: the first cluster's first initial_nodes */
	size_t n_nodes, cap_nodes;
	struct pd_strv spec_n1ql;   /* every n1ql host of the first cluster, spec order */
	struct pd_strv clients;     /* [clients] hosts: their dbs are client series */
	struct pd_strv others;      /* names of the spec's other clusters (XDCR) */
	struct pd_strv other_hosts; /* their servers */
	struct pd_strv other_dbs;   /* perfdb dbs of those clusters, kept apart */
	struct pd_series *
		*series; /* sorted by (collector, metric, bucket, server) after load */
	size_t n_series, cap_series;
	size_t n_samples;         /* over all series */
	struct pd_strv snapshots; /* snapshot names, in console order or decoded */
	struct pd_strv undecoded; /* perfdb db names that could not be decoded */
	struct pd_strv notes;     /* what was missing or odd, for the reports */
	int roles_inferred;       /* no spec: nodes from the console's rebalance, roles from the
				     processes they run (parse/bundle.c) */
	struct pd_event *events;
	size_t n_events, cap_events;
	struct pd_kpi *kpis;
	size_t n_kpis, cap_kpis;
	struct pd_jenkins jenkins;
	struct pd_ini spec, test; /* path NULL when absent */
	struct pd_testcfg cfg;
	char *console_path;      /* NULL when the bundle had no consoleText */
	char *console_result;    /* the "Finished: X" word, or NULL */
	int64_t console_first_s; /* local time of the first perfrunner line; 0 when none */
	/* perfrunner's Prometheus path (docs/reference.md "Prometheus bundles"): set by "Using
	 * Prometheus to collect metrics" or "Registered Prometheus snapshot:" in the console,
	 * or a prometheus/ directory in the bundle; the snapshot id is then run->snapshots.v[0]
	 */
	int prometheus;
	char *prom_snapshot_url;        /* the registered snapshot's cbmonitor2 page, or NULL */
	struct pd_strv prom_collectors; /* "Added N custom collector(s) pushing to ...: [..]" */
	struct pd_kpi_window *windows;
	size_t n_windows, cap_windows;
};

struct pd_run *pd_run_new(const char *dir);
void pd_run_free(struct pd_run *run);
/* The run takes ownership of s. */
void pd_run_add_series(struct pd_run *run, struct pd_series *s);
/* A new node appended to the run (roles are assigned by pd_run_assign_roles). The
 * pointer is borrowed and good until the next pd_run_add_node: the array grows. */
struct pd_node *pd_run_add_node(struct pd_run *run, const char *host, size_t host_len);
/* Gives each node its role "<first service>#<rank>" in spec order. */
void pd_run_assign_roles(struct pd_run *run);
/* A new zeroed event (kpi) appended to the run; the pointer is good until the next
 * pd_run_add_event (pd_run_add_kpi): the array grows. */
struct pd_event *pd_run_add_event(struct pd_run *run, enum pd_event_kind kind);
struct pd_kpi *pd_run_add_kpi(struct pd_run *run);
/* The node whose host is host, or NULL. */
const struct pd_node *pd_run_node(const struct pd_run *run, const char *host);
/* The run's build: the Jenkins parameter "version", else the build its first KPI with one
 * was posted for; NULL when neither says. The one answer every output and the history
 * give. */
const char *pd_run_build(const struct pd_run *run);
/* The run's cbmonitor snapshot: the first the console names, or NULL. */
const char *pd_run_snapshot(const struct pd_run *run);
/* The first series collector/metric on server (NULL: a series without a server, of
 * whatever bucket), or NULL. */
const struct pd_series *pd_run_series(const struct pd_run *run, const char *collector,
				      const char *metric, const char *server);
/* Sorts series by (collector, metric, bucket, server) for deterministic output. */
void pd_run_sort_series(struct pd_run *run);

/* A history's run-to-run spread of one window feature, named as analyze/signature.c names
 * them ("metric|scope|phase"): its relative sd over n runs (analyze/stats/history.h,
 * pd_history_spread). */
struct pd_run_spread {
	const char *feature;
	double rel_sd;
	size_t n;
};

#endif
