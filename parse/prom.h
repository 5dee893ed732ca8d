/* perfrunner's Prometheus path (docs/reference.md "Prometheus bundles"): the
 * answers of a Prometheus-compatible server's GET /api/v1/query_range (Prometheus' HTTP
 * API; Mimir and VictoriaMetrics answer alike) for every series of a snapshot's job, as
 * saved in prometheus/, and cbmonitor2's GET /api/v1/snapshots/{id} in cbmonitor2/. */
#ifndef PD_PROM_H
#define PD_PROM_H

#include "../core/model.h"
#include "../core/src.h"

/* The series read so far, each under its name and labels; answers that cover parts of
 * one window (a long run queried in pieces) merge into one series. */
struct pd_prom;
struct pd_prom *pd_prom_new(void);
void pd_prom_free(struct pd_prom *p);

/* Reads one query_range answer, {"status":"success","data":{"resultType":"matrix",
 * "result":[{"metric":{labels},"values":[[unix_s,"value"],...]}]}}, into p. An answer
 * with "status":"error" is PD_EPARSE naming its errorType and error; anything else that
 * is not such an answer is PD_EPARSE at path:line:col; over lim->max_samples PD_ELIMIT. */
int pd_prom_matrix_parse(struct pd_prom *p, const struct pd_src *src, struct pd_err *err);

/* Turns p's series into run's (core/metric.c's table maps the names): pushed "perf_*"
 * series keep their collector and metric, counters become rates per second (a counter
 * that goes down restarted from 0), per-node query counters are also summed into the
 * cluster's n1ql_stats rates. Series of another job than the run's snapshot, or of the
 * spec's other clusters, are left out and said in run->notes. */
void pd_prom_to_run(struct pd_run *run, const struct pd_prom *p);

/* cbmonitor2's snapshot metadata (docs/cbmonitor-api.md, GET /api/v1/snapshots/{id}). */
struct pd_prom_snapshot {
	char *id;                 /* data.metadata.snapshotId */
	int64_t start_ms, end_ms; /* ts_start, ts_end (RFC 3339, UTC); 0 when absent */
	struct pd_strv phases;    /* "label start_ms end_ms" per phase, in order */
};
/* A "success": false answer is PD_EPARSE naming its "error". */
int pd_prom_snapshot_parse(struct pd_prom_snapshot *out, const struct pd_src *src,
			   struct pd_err *err);
void pd_prom_snapshot_free(struct pd_prom_snapshot *s);

/* The names of GET /api/v1/label/__name__/values: {"status":"success","data":[...]};
 * "status": "error" is PD_EPARSE naming it. */
int pd_prom_names_parse(struct pd_strv *out, const struct pd_src *src, struct pd_err *err);

/* Epoch ms of an RFC 3339 UTC time "2025-11-18T15:00:00Z" (fraction and a +00:00 zone
 * accepted); -1 when it is not one. */
int64_t pd_prom_rfc3339_ms(const char *s);

#endif
