/* Readers of perfdb and seriesly series bodies. Each appends samples to out (unsorted
 * input allowed), then normalizes it (sorted, de-duplicated, counted). Malformed bytes are
 * PD_EPARSE at path:line:col; more than lim->max_samples samples is PD_ELIMIT. */
#ifndef PD_PERFDB_H
#define PD_PERFDB_H

#include "../core/model.h"
#include "../core/src.h"

/* GET /{db}/{metric}: [[ts_ms, value], ...], values JSON numbers. Accepts exactly the
 * JSON texts of that shape that a conforming JSON parser accepts. */
int pd_perfdb_json_parse(struct pd_series *out, const struct pd_src *src, struct pd_err *err);

/* perfdb's data file: lines "<ts delta ms> <value>" (first delta 0); first_ts_ms is the
 * content of the .data.1 file, parsed by pd_perfdb_first_ts_parse. */
int pd_perfdb_data_parse(struct pd_series *out, const struct pd_src *src, int64_t first_ts_ms,
			 struct pd_err *err);
int pd_perfdb_first_ts_parse(int64_t *out, const struct pd_src *src, struct pd_err *err);

/* seriesly's legacy body {"<ts_ms>": [value], ...}. */
int pd_seriesly_parse(struct pd_series *out, const struct pd_src *src, struct pd_err *err);

#endif
