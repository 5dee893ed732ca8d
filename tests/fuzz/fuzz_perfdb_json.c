/* perfdb's GET /{db}/{metric} body: pd_perfdb_json_parse, as a series of any collector
 * and as a per-request latency's (spring_latency: a value below 0 is an error). */
#include "fuzz.h"
#include "parse/perfdb.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_src src;
	struct pd_err err = PD_ERR_INIT;
	struct pd_series *s = pd_xcalloc(1, sizeof(*s));
	char *copy = fuzz_src(&src, data, len, "perfdb/db/metric.json");
	pd_perfdb_json_parse(s, &src, &err);
	pd_series_free(s);
	s = pd_xcalloc(1, sizeof(*s));
	s->collector = pd_xstrdup("spring_latency");
	err = (struct pd_err)PD_ERR_INIT;
	pd_perfdb_json_parse(s, &src, &err);
	pd_series_free(s);
	free(copy);
	return 0;
}
