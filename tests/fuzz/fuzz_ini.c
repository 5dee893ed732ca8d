/* perfrunner .spec and .test files: pd_ini_parse, then pd_spec_load and pd_testcfg_load
 * on what it read, into a fresh run. */
#include "fuzz.h"
#include "core/model.h"
#include "parse/ini.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_src src;
	struct pd_err err = PD_ERR_INIT;
	struct pd_run *run = pd_run_new("fuzz");
	char *copy = fuzz_src(&src, data, len, "perfrunner/fuzz.spec");
	if (pd_ini_parse(&run->spec, &src, &err) == 0) {
		struct pd_err e1 = PD_ERR_INIT, e2 = PD_ERR_INIT;
		pd_spec_load(run, &run->spec, &e1);
		pd_testcfg_load(&run->cfg, &run->spec, &e2);
	}
	pd_run_free(run);
	free(copy);
	return 0;
}
