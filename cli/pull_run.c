/* perfdelta pull in perfdelta-pull: the pull itself (fetch/plan.c, over libcurl). */
#include "cli/pull.h"

int pd_cli_pull(const struct pd_pull_opts *o, char **argv, struct pd_err *err)
{
	(void)argv; /* already parsed into o */
	return pd_plan_run(o, err);
}
