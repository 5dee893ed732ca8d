/* perfdb's data files: the whole input as a .data.1 (pd_perfdb_first_ts_parse), then as a
 * .data (pd_perfdb_data_parse) whose first timestamp is the one just read, or a fixed
 * epoch ms when the input is not a .data.1; then as a per-request latency's .data
 * (spring_latency) without a .data.1 (first 0). */
#include "fuzz.h"
#include "parse/perfdb.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_src src;
	struct pd_err err = PD_ERR_INIT, err2 = PD_ERR_INIT;
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	int64_t first = 1762107600000;
	char *copy = fuzz_src(&src, data, len, "perfdb/db/metric.data");
	if (pd_perfdb_first_ts_parse(&first, &src, &err) < 0)
		first = 1762107600000;
	pd_perfdb_data_parse(s, &src, first, &err2);
	pd_series_free(s);
	s = pd_xcalloc(1, sizeof(*s));
	s->collector = pd_xstrdup("spring_latency");
	err2 = (struct pd_err)PD_ERR_INIT;
	pd_perfdb_data_parse(s, &src, 0, &err2);
	pd_series_free(s);
	free(copy);
	return 0;
}
