/* A Prometheus query_range answer, a label-values answer and cbmonitor2's snapshot
 * metadata (parse/prom.c), then the mapping into a run. */
#include "fuzz.h"
#include "core/model.h"
#include "parse/prom.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_src src;
	struct pd_err err = PD_ERR_INIT;
	struct pd_run *run = pd_run_new("fuzz");
	struct pd_prom *p = pd_prom_new();
	struct pd_prom_snapshot snap;
	struct pd_strv names = {0};
	char *copy = fuzz_src(&src, data, len, "prometheus/x.json");
	if (pd_prom_matrix_parse(p, &src, &err) == 0)
		pd_prom_to_run(run, p);
	err = (struct pd_err)PD_ERR_INIT;
	if (pd_prom_snapshot_parse(&snap, &src, &err) == 0)
		pd_prom_snapshot_free(&snap);
	pd_prom_names_parse(&names, &src, &err);
	pd_strv_free(&names);
	pd_prom_free(p);
	pd_run_free(run);
	free(copy);
	return 0;
}
