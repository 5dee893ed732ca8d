/* Readers of perfdb and seriesly series bodies. Each appends samples to out (unsorted
 * input allowed), then normalizes it (sorted, de-duplicated, counted). Malformed bytes are
 * PD_EPARSE at path:line:col, and so is a value that cannot be: not finite, or below 0 in a
 * per-request latency's series (out->collector, pd_metric_per_request); more than
 * lim->max_samples samples is PD_ELIMIT. */
#ifndef PD_PERFDB_H
#define PD_PERFDB_H

#include "../core/model.h"
#include "../core/src.h"

/* GET /{db}/{metric}: [[ts_ms, value], ...], values JSON numbers. Accepts exactly the
 * JSON texts of that shape that a conforming JSON parser accepts. */
int pd_perfdb_json_parse(struct pd_series *out, const struct pd_src *src, struct pd_err *err);

/* perfdb's data file, in either layout: perfdb's own (pavel-paulau/perfdb perfdb.go:
 * lines "%22d %025.9f", absolute timestamps, nanoseconds in its releases; the unit is
 * told from the magnitude as perfdb's parseTimestamp does) or the delta layout of
 * docs/reference.md "A run bundle" (first line's timestamp 0, each later one a delta in ms from
 * the previous line, first_ts_ms from the .data.1 file, read by pd_perfdb_first_ts_parse; 0
 * when there is none: then the delta layout is an error). */
int pd_perfdb_data_parse(struct pd_series *out, const struct pd_src *src, int64_t first_ts_ms,
			 struct pd_err *err);
int pd_perfdb_first_ts_parse(int64_t *out, const struct pd_src *src, struct pd_err *err);

/* seriesly's legacy body {"<ts_ms>": [value], ...}. */
int pd_seriesly_parse(struct pd_series *out, const struct pd_src *src, struct pd_err *err);

#endif
