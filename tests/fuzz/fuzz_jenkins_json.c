/* A Jenkins build's api/json: pd_jenkins_json_parse into a fresh run. */
#include "fuzz.h"
#include "core/model.h"
#include "parse/jenkins.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_src src;
	struct pd_err err = PD_ERR_INIT;
	struct pd_run *run = pd_run_new("fuzz");
	char *copy = fuzz_src(&src, data, len, "jenkins/build.json");
	pd_jenkins_json_parse(&run->jenkins, &src, &err);
	pd_run_free(run);
	free(copy);
	return 0;
}
